//! The exact result of playing a strategy on a set of codes: how many codes need
//! how many queries, plus penalty points. Values are exact rationals because MIX
//! averages over tied queries (thesis §4.3, Table 4.5 footnotes).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

/// Exact rational number used for all totals.
pub type Exact = BigRational;

/// Per-depth code counts of a subtree plus penalty points, exact. Invariant:
/// Σ depth counts = |M|. Integer parts are kept as machine integers (LEX trees
/// never leave them); only MIX means create the rational part, so the common
/// case allocates no big numbers.
/// `penalised[p]` (p ≥ 1) counts the codes that paid exactly p penalty points
/// (the thesis' "2 RF" column of Fig. 4.13 is p = 2); games whose terminals
/// give no such split leave it empty.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Outcome {
    counts: Vec<u64>,
    penalty_int: u64,
    penalised: Vec<u64>,
    fraction: Option<Box<Fraction>>,
}

/// The rational part of an [`Outcome`].
#[derive(Clone, Debug, PartialEq, Default)]
struct Fraction {
    counts: Vec<Exact>,
    penalty: Exact,
    penalised: Vec<Exact>,
}

/// The exact values `ints[i] + fractions[i]` (missing entries count 0).
fn integer_plus_fraction(ints: &[u64], fractions: Option<&[Exact]>) -> Vec<Exact> {
    let fractions = fractions.unwrap_or(&[]);
    (0..ints.len().max(fractions.len()))
        .map(|i| {
            let base = int(ints.get(i).copied().unwrap_or(0));
            match fractions.get(i) {
                Some(x) => base + x,
                None => base,
            }
        })
        .collect()
}

/// `acc[i] += x[i]` for vectors of possibly different lengths.
fn add_into<T: Clone + Default + for<'a> std::ops::AddAssign<&'a T>>(acc: &mut Vec<T>, x: &[T], shift: usize) {
    if acc.len() < x.len() + shift {
        acc.resize(x.len() + shift, T::default());
    }
    for (i, v) in x.iter().enumerate() {
        acc[i + shift] += v;
    }
}

/// A sum of rationals kept over a common denominator without reducing, so
/// that adding costs multiplications (none when denominators agree) instead of
/// a gcd per addition; [`LazySum::finish`] reduces once. MIX outcomes of one
/// node mostly share their denominators or divide one another.
struct LazySum {
    num: BigInt,
    den: BigInt,
}

impl LazySum {
    fn new() -> Self {
        LazySum { num: BigInt::zero(), den: BigInt::one() }
    }

    /// Adds w·(a + f) for an integer part `a` and an optional rational part `f`.
    fn add(&mut self, w: u64, a: u64, f: Option<&Exact>) {
        match f {
            Some(f) if !f.denom().is_one() => self.add_ratio((f.numer() + f.denom() * a) * w, f.denom()),
            Some(f) => self.num += (f.numer() + a) * w * &self.den,
            None if self.den.is_one() => self.num += w as u128 * a as u128,
            None => self.num += BigInt::from(w as u128 * a as u128) * &self.den,
        }
    }

    /// Adds n/d (d > 1).
    fn add_ratio(&mut self, n: BigInt, d: &BigInt) {
        if *d == self.den {
            self.num += n;
        } else if (&self.den % d).is_zero() {
            self.num += n * (&self.den / d);
        } else if (d % &self.den).is_zero() {
            self.num = &self.num * (d / &self.den) + n;
            self.den = d.clone();
        } else {
            self.num = &self.num * d + n * &self.den;
            self.den *= d;
        }
    }

    /// The sum divided by `divisor`, reduced.
    fn finish(self, divisor: u64) -> Exact {
        Exact::new(self.num, self.den * divisor)
    }
}

fn int(n: u64) -> Exact {
    Exact::from_integer(BigInt::from(n))
}

impl Outcome {
    /// `codes` codes that need `queries` more queries, with `penalty` points in all.
    pub fn leaf(codes: u64, queries: u32, penalty: Exact) -> Outcome {
        let mut counts = vec![0; queries as usize + 1];
        counts[queries as usize] = codes;
        let mut out = Outcome { counts, ..Outcome::default() };
        match penalty.to_u64().filter(|_| penalty.is_integer()) {
            Some(p) => out.penalty_int = p,
            None => out.fraction = Some(Box::new(Fraction { penalty, ..Fraction::default() })),
        }
        out
    }

    /// The same outcome with `penalised[p]` codes paying exactly p points (exact;
    /// the split of the penalty over the codes, e.g. of a terminal set).
    pub fn with_penalised(mut self, penalised: &[Exact]) -> Outcome {
        let ints: Option<Vec<u64>> = penalised.iter().map(|x| x.to_u64().filter(|_| x.is_integer())).collect();
        match ints {
            Some(ints) => self.penalised = ints,
            None => self.fraction.get_or_insert_with(Box::default).penalised = penalised.to_vec(),
        }
        self
    }

    /// About how many bytes the outcome occupies on the heap (memo budgets).
    pub fn heap_bytes(&self) -> usize {
        let exact = |x: &Exact| 64 + (x.numer().bits() + x.denom().bits()).div_ceil(8) as usize;
        let fraction = self.fraction.as_ref().map_or(0, |f| {
            f.counts.iter().chain(&f.penalised).chain(std::iter::once(&f.penalty)).map(exact).sum::<usize>() + 64
        });
        std::mem::size_of::<Outcome>() + 8 * (self.counts.len() + self.penalised.len()) + fraction
    }

    /// No codes.
    pub fn empty() -> Outcome {
        Outcome::default()
    }

    /// Adds `other` with every depth increased by `extra`.
    pub fn add_shifted(&mut self, other: &Outcome, extra: usize) {
        add_into(&mut self.counts, &other.counts, extra);
        self.penalty_int += other.penalty_int;
        add_into(&mut self.penalised, &other.penalised, 0);
        if let Some(f) = &other.fraction {
            let mine = self.fraction.get_or_insert_with(Box::default);
            add_into(&mut mine.counts, &f.counts, extra);
            mine.penalty += &f.penalty;
            add_into(&mut mine.penalised, &f.penalised, 0);
        }
    }

    /// The exact weighted mean Σ wᵢ·oᵢ / Σ wᵢ (a MIX node).
    pub fn weighted_mean(parts: &[(u64, std::sync::Arc<Outcome>)]) -> Outcome {
        let weight: u64 = parts.iter().map(|p| p.0).sum();
        if let Some((_, first)) = parts.first() {
            // Tied queries often lead to equal outcomes: their mean is that outcome.
            if parts.iter().all(|(_, o)| o == first) {
                return (**first).clone();
            }
        }
        let parts: Vec<(u64, &Outcome)> = parts.iter().map(|(w, o)| (*w, &**o)).collect();
        Outcome::combine(&parts, 0, weight)
    }

    /// The sum of `parts` with every depth increased by `extra` (the subtrees
    /// below a query's answer classes).
    pub fn sum_shifted<'a>(parts: impl IntoIterator<Item = &'a Outcome>, extra: usize) -> Outcome {
        let parts: Vec<(u64, &Outcome)> = parts.into_iter().map(|o| (1, o)).collect();
        Outcome::combine(&parts, extra, 1)
    }

    /// Σ wᵢ·oᵢ / `divisor` with depths increased by `shift`. Integer outcomes
    /// sum as machine integers; rational ones entry by entry over a common,
    /// unreduced denominator ([`LazySum`]), reduced once per entry.
    fn combine(parts: &[(u64, &Outcome)], shift: usize, divisor: u64) -> Outcome {
        if parts.iter().all(|(_, o)| o.fraction.is_none()) {
            return Outcome::integer_combination(parts, shift, divisor);
        }
        let sum = |int_of: &dyn Fn(&Outcome, usize) -> u64,
                   frac_of: &dyn Fn(&Fraction, usize) -> Option<&Exact>,
                   len: usize|
         -> Vec<Exact> {
            (0..len)
                .map(|j| {
                    let mut acc = LazySum::new();
                    for (w, o) in parts {
                        acc.add(*w, int_of(o, j), o.fraction.as_deref().and_then(|f| frac_of(f, j)));
                    }
                    acc.finish(divisor)
                })
                .collect()
        };
        let width = |ints: &dyn Fn(&Outcome) -> usize, fracs: &dyn Fn(&Fraction) -> usize| {
            parts.iter().map(|(_, o)| ints(o).max(o.fraction.as_deref().map_or(0, fracs))).max().unwrap_or(0)
        };
        let depths = width(&|o| o.counts.len(), &|f| f.counts.len());
        let mut counts = vec![Exact::zero(); shift];
        counts.extend(sum(&|o, j| o.counts.get(j).copied().unwrap_or(0), &|f, j| f.counts.get(j), depths));
        let penalty = sum(&|o, _| o.penalty_int, &|f, _| Some(&f.penalty), 1).pop().unwrap_or_else(Exact::zero);
        let points = width(&|o| o.penalised.len(), &|f| f.penalised.len());
        let penalised = sum(&|o, j| o.penalised.get(j).copied().unwrap_or(0), &|f, j| f.penalised.get(j), points);
        Outcome::from_exact(counts, penalty).with_penalised(&penalised)
    }

    /// Σ wᵢ·oᵢ of integer outcomes with depths increased by `shift`, in
    /// 64-bit integers in place; `None` if a product or a sum exceeds 64 bits
    /// (the entries are non-negative, so no partial sum overflows unless the
    /// total does). Speed (issue 53): the sums of a LEX curve's step
    /// functions ([`Self::sum_shifted`]) all take this path, without the
    /// 128-bit sums and their narrowing; the same outcome either way.
    fn integer_sum(parts: &[(u64, &Outcome)], shift: usize) -> Option<Outcome> {
        let depths = parts.iter().map(|(_, o)| o.counts.len()).max().unwrap_or(0);
        let points = parts.iter().map(|(_, o)| o.penalised.len()).max().unwrap_or(0);
        let (mut counts, mut penalised, mut penalty_int) = (vec![0u64; shift + depths], vec![0u64; points], 0u64);
        for &(w, o) in parts {
            for (s, &x) in counts[shift..].iter_mut().zip(&o.counts) {
                *s = s.checked_add(w.checked_mul(x)?)?;
            }
            for (s, &x) in penalised.iter_mut().zip(&o.penalised) {
                *s = s.checked_add(w.checked_mul(x)?)?;
            }
            penalty_int = penalty_int.checked_add(w.checked_mul(o.penalty_int)?)?;
        }
        Some(Outcome { counts, penalty_int, penalised, fraction: None })
    }

    /// [`Self::combine`] of integer outcomes: the weighted sums are machine
    /// integers, divided once per entry (not at all for `divisor` 1).
    fn integer_combination(parts: &[(u64, &Outcome)], shift: usize, divisor: u64) -> Outcome {
        if divisor == 1
            && let Some(sum) = Outcome::integer_sum(parts, shift)
        {
            return sum;
        }
        let weighted_sum = |entry: &dyn Fn(&Outcome) -> &[u64]| -> Vec<u128> {
            let len = parts.iter().map(|(_, o)| entry(o).len()).max().unwrap_or(0);
            let mut sums = vec![0u128; len];
            for (w, o) in parts {
                entry(o).iter().zip(sums.iter_mut()).for_each(|(x, s)| *s += *w as u128 * *x as u128);
            }
            sums
        };
        let penalty: u128 = parts.iter().map(|(w, o)| *w as u128 * o.penalty_int as u128).sum();
        let mut counts = vec![0u128; shift];
        counts.extend(weighted_sum(&|o: &Outcome| &o.counts[..]));
        let penalised = weighted_sum(&|o: &Outcome| &o.penalised[..]);
        let narrow = |v: &[u128]| v.iter().map(|&x| u64::try_from(x).ok()).collect::<Option<Vec<u64>>>();
        if divisor == 1
            && let (Some(counts), Some(penalised), Ok(penalty_int)) =
                (narrow(&counts), narrow(&penalised), u64::try_from(penalty))
        {
            return Outcome { counts, penalty_int, penalised, fraction: None };
        }
        let exact = |v: Vec<u128>| {
            v.into_iter().map(|s| Exact::new(BigInt::from(s), BigInt::from(divisor))).collect::<Vec<Exact>>()
        };
        Outcome::from_exact(exact(counts), Exact::new(BigInt::from(penalty), BigInt::from(divisor)))
            .with_penalised(&exact(penalised))
    }

    /// The outcome with every count and the penalty multiplied by `factor`
    /// (a MIX work unit's share, see [`super::units`]).
    pub fn scaled(&self, factor: &Exact) -> Outcome {
        let scale = |v: Vec<Exact>| v.into_iter().map(|c| c * factor).collect::<Vec<Exact>>();
        Outcome::from_exact(scale(self.depth_counts()), self.penalty() * factor)
            .with_penalised(&scale(self.penalised()))
    }

    /// Builds an outcome from exact values, keeping integers as integers where possible.
    fn from_exact(counts: Vec<Exact>, penalty: Exact) -> Outcome {
        let small = |x: &Exact| x.to_u64().filter(|_| x.is_integer());
        if let (Some(ints), Some(p)) = (counts.iter().map(small).collect::<Option<Vec<u64>>>(), small(&penalty)) {
            return Outcome { counts: ints, penalty_int: p, ..Outcome::default() };
        }
        Outcome { fraction: Some(Box::new(Fraction { counts, penalty, penalised: Vec::new() })), ..Outcome::default() }
    }

    /// Exact (expected) number of codes that paid exactly p penalty points, by p
    /// (index 0 unused; empty if the game gives no split of its penalties).
    pub fn penalised(&self) -> Vec<Exact> {
        integer_plus_fraction(&self.penalised, self.fraction.as_ref().map(|f| &f.penalised[..]))
    }

    /// Exact (expected) number of codes per depth.
    pub fn depth_counts(&self) -> Vec<Exact> {
        integer_plus_fraction(&self.counts, self.fraction.as_ref().map(|f| &f.counts[..]))
    }

    /// Exact penalty points.
    pub fn penalty(&self) -> Exact {
        let base = int(self.penalty_int);
        match &self.fraction {
            Some(f) => base + &f.penalty,
            None => base,
        }
    }

    /// Σ depth · count: the number of queries.
    pub fn total_queries(&self) -> Exact {
        self.depth_counts().iter().enumerate().fold(Exact::zero(), |acc, (d, c)| acc + c * int(d as u64))
    }

    /// Queries plus penalty points.
    pub fn total(&self) -> Exact {
        self.total_queries() + self.penalty()
    }

    /// Number of codes (exact; equals |M|).
    pub fn codes(&self) -> Exact {
        self.depth_counts().iter().fold(Exact::zero(), |acc, c| acc + c)
    }

    /// The outcome as exact strings: depth counts and penalty (for files).
    pub fn to_strings(&self) -> (Vec<String>, String) {
        (self.depth_counts().iter().map(exact_string).collect(), exact_string(&self.penalty()))
    }

    /// [`Self::penalised`] as exact strings (for files).
    pub fn penalised_strings(&self) -> Vec<String> {
        self.penalised().iter().map(exact_string).collect()
    }

    /// Reads back [`Self::to_strings`] and [`Self::penalised_strings`]; `None`
    /// if a value does not parse.
    pub fn from_strings(counts: &[String], penalty: &str, penalised: &[String]) -> Option<Outcome> {
        let counts: Option<Vec<Exact>> = counts.iter().map(|c| parse_exact(c)).collect();
        let penalised: Option<Vec<Exact>> = penalised.iter().map(|c| parse_exact(c)).collect();
        Some(Outcome::from_exact(counts?, parse_exact(penalty)?).with_penalised(&penalised?))
    }

    /// Largest depth with a non-zero count.
    pub fn max_depth(&self) -> usize {
        self.depth_counts().iter().rposition(|c| !c.is_zero()).unwrap_or(0)
    }
}

/// Reads `p/q` or `p` back into an exact rational.
pub fn parse_exact(text: &str) -> Option<Exact> {
    match text.split_once('/') {
        Some((n, d)) => {
            let d: BigInt = d.parse().ok()?;
            if d.is_zero() {
                return None;
            }
            Some(Exact::new(n.parse().ok()?, d))
        }
        None => Some(Exact::from_integer(text.parse().ok()?)),
    }
}

/// Formats an exact rational as `p/q` (or `p`).
pub fn exact_string(x: &Exact) -> String {
    if x.is_integer() { x.numer().to_string() } else { format!("{}/{}", x.numer(), x.denom()) }
}

/// An exact rational as the nearest float.
pub fn exact_f64(x: &Exact) -> f64 {
    x.to_f64().unwrap_or(f64::NAN)
}

/// Rounds an exact rational to `digits` decimals (half away from zero) and formats it.
pub fn exact_decimal(x: &Exact, digits: u32) -> String {
    let scale = BigInt::from(10u32).pow(digits);
    let scaled = x * Exact::from_integer(scale.clone());
    let rounded = scaled.round().to_integer();
    let negative = rounded < BigInt::zero();
    let abs = if negative { -rounded } else { rounded };
    let int_part = &abs / &scale;
    let frac_part = &abs % &scale;
    let sign = if negative { "-" } else { "" };
    if digits == 0 {
        format!("{sign}{int_part}")
    } else {
        format!("{sign}{int_part}.{:0>width$}", frac_part.to_string(), width = digits as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn mean_of_outcomes_is_exact() {
        let a = Arc::new(Outcome::leaf(3, 2, int(0)));
        let b = Arc::new(Outcome::leaf(3, 3, int(1)));
        let m = Outcome::weighted_mean(&[(1, a), (2, b)]);
        assert_eq!(exact_string(&m.total_queries()), "8");
        assert_eq!(exact_string(&m.penalty()), "2/3");
        assert_eq!(m.max_depth(), 3);
        assert_eq!(exact_string(&m.codes()), "3");
    }

    /// The integer fast path, the general rational path and `scaled` agree.
    #[test]
    fn integer_and_rational_means_agree() {
        let a = Outcome::leaf(4, 1, int(3)).with_penalised(&[int(0), int(1), int(1)]);
        let b = Outcome::leaf(4, 3, int(0));
        let ints = Outcome::weighted_mean(&[(2, Arc::new(a.clone())), (5, Arc::new(b.clone()))]);
        // A fraction part (here 0 + 1/2 − 1/2) forces the general path.
        let half = Outcome::leaf(0, 0, Exact::new(1.into(), 2.into()));
        let mut a2 = a.clone();
        a2.add_shifted(&half, 0);
        a2.add_shifted(&half.scaled(&-int(1)), 0);
        assert!(a2.fraction.is_some());
        let general = Outcome::weighted_mean(&[(2, Arc::new(a2)), (5, Arc::new(b.clone()))]);
        for m in [&ints, &general] {
            assert_eq!(
                m.depth_counts(),
                vec![int(0), Exact::new(8.into(), 7.into()), int(0), Exact::new(20.into(), 7.into())]
            );
            assert_eq!(m.penalty(), Exact::new(6.into(), 7.into()));
            assert_eq!(m.penalised(), vec![int(0), Exact::new(2.into(), 7.into()), Exact::new(2.into(), 7.into())]);
        }
        let mut sum = a.scaled(&Exact::new(2.into(), 7.into()));
        sum.add_shifted(&b.scaled(&Exact::new(5.into(), 7.into())), 0);
        assert_eq!(sum.total(), ints.total());
        // Equal outcomes average to themselves.
        assert_eq!(Outcome::weighted_mean(&[(1, Arc::new(b.clone())), (3, Arc::new(b.clone()))]), b);
    }

    #[test]
    fn decimal_rounding() {
        let x = Exact::new(11445.into(), 2.into());
        assert_eq!(exact_decimal(&x, 2), "5722.50");
        let y = Exact::new(3026689.into(), 2040.into());
        assert_eq!(exact_decimal(&y, 2), "1483.67");
        assert_eq!(exact_decimal(&(y / Exact::from_integer(360.into())), 4), "4.1213");
    }
}
