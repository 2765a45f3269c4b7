//! The exact result of playing a strategy on a set of codes: how many codes need
//! how many queries, plus penalty points. Values are exact rationals because MIX
//! averages over tied queries (thesis §4.3, Table 4.5 footnotes).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

/// Exact rational number used for all totals.
pub type Exact = BigRational;

/// Per-depth code counts of a subtree plus penalty points, exact. Invariant:
/// Σ depth counts = |M|. Integer parts are kept as machine integers (LEX trees
/// never leave them); only MIX means create the rational part, so the common
/// case allocates no big numbers.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Outcome {
    counts: Vec<u64>,
    penalty_int: u64,
    fraction: Option<Box<Fraction>>,
}

/// The rational part of an [`Outcome`].
#[derive(Clone, Debug, PartialEq)]
struct Fraction {
    counts: Vec<Exact>,
    penalty: Exact,
}

fn int(n: u64) -> Exact {
    Exact::from_integer(BigInt::from(n))
}

impl Outcome {
    /// `codes` codes that need `queries` more queries, with `penalty` points in all.
    pub fn leaf(codes: u64, queries: u32, penalty: Exact) -> Outcome {
        let mut counts = vec![0; queries as usize + 1];
        counts[queries as usize] = codes;
        let mut out = Outcome { counts, penalty_int: 0, fraction: None };
        match penalty.to_u64().filter(|_| penalty.is_integer()) {
            Some(p) => out.penalty_int = p,
            None => out.fraction = Some(Box::new(Fraction { counts: Vec::new(), penalty })),
        }
        out
    }

    /// No codes.
    pub fn empty() -> Outcome {
        Outcome::default()
    }

    /// Adds `other` with every depth increased by `extra`.
    pub fn add_shifted(&mut self, other: &Outcome, extra: usize) {
        let need = other.counts.len() + extra;
        if self.counts.len() < need {
            self.counts.resize(need, 0);
        }
        for (d, &c) in other.counts.iter().enumerate() {
            self.counts[d + extra] += c;
        }
        self.penalty_int += other.penalty_int;
        if let Some(f) = &other.fraction {
            let mine = self.fraction.get_or_insert_with(|| Box::new(Fraction { counts: Vec::new(), penalty: Exact::zero() }));
            if mine.counts.len() < f.counts.len() + extra {
                mine.counts.resize(f.counts.len() + extra, Exact::zero());
            }
            for (d, c) in f.counts.iter().enumerate().filter(|(_, c)| !c.is_zero()) {
                mine.counts[d + extra] += c;
            }
            mine.penalty += &f.penalty;
        }
    }

    /// The exact weighted mean Σ wᵢ·oᵢ / Σ wᵢ (a MIX node).
    pub fn weighted_mean(parts: &[(u64, std::sync::Arc<Outcome>)]) -> Outcome {
        let weight: u64 = parts.iter().map(|p| p.0).sum();
        let depth = parts.iter().map(|p| p.1.depth_len()).max().unwrap_or(0);
        let mut counts = vec![Exact::zero(); depth];
        let mut penalty = Exact::zero();
        for (w, o) in parts {
            let w = int(*w);
            for (d, c) in o.depth_counts().into_iter().enumerate() {
                counts[d] += c * &w;
            }
            penalty += o.penalty() * &w;
        }
        let inverse = Exact::new(1.into(), weight.into());
        Outcome::from_exact(counts.into_iter().map(|c| c * &inverse).collect(), penalty * inverse)
    }

    /// Builds an outcome from exact values, keeping integers as integers where possible.
    fn from_exact(counts: Vec<Exact>, penalty: Exact) -> Outcome {
        let small = |x: &Exact| x.to_u64().filter(|_| x.is_integer());
        if let (Some(ints), Some(p)) = (counts.iter().map(small).collect::<Option<Vec<u64>>>(), small(&penalty)) {
            return Outcome { counts: ints, penalty_int: p, fraction: None };
        }
        Outcome { counts: Vec::new(), penalty_int: 0, fraction: Some(Box::new(Fraction { counts, penalty })) }
    }

    fn depth_len(&self) -> usize {
        self.counts.len().max(self.fraction.as_ref().map_or(0, |f| f.counts.len()))
    }

    /// Exact (expected) number of codes per depth.
    pub fn depth_counts(&self) -> Vec<Exact> {
        (0..self.depth_len())
            .map(|d| {
                let base = int(self.counts.get(d).copied().unwrap_or(0));
                match self.fraction.as_ref().and_then(|f| f.counts.get(d)) {
                    Some(x) => base + x,
                    None => base,
                }
            })
            .collect()
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

    /// Reads back [`Self::to_strings`]; `None` if a value does not parse.
    pub fn from_strings(counts: &[String], penalty: &str) -> Option<Outcome> {
        let parse = |t: &str| -> Option<Exact> {
            match t.split_once('/') {
                Some((n, d)) => Some(Exact::new(n.parse().ok()?, d.parse().ok()?)),
                None => Some(Exact::from_integer(t.parse().ok()?)),
            }
        };
        let counts: Option<Vec<Exact>> = counts.iter().map(|c| parse(c)).collect();
        Some(Outcome::from_exact(counts?, parse(penalty)?))
    }

    /// Largest depth with a non-zero count.
    pub fn max_depth(&self) -> usize {
        self.depth_counts().iter().rposition(|c| !c.is_zero()).unwrap_or(0)
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

    #[test]
    fn decimal_rounding() {
        let x = Exact::new(11445.into(), 2.into());
        assert_eq!(exact_decimal(&x, 2), "5722.50");
        let y = Exact::new(3026689.into(), 2040.into());
        assert_eq!(exact_decimal(&y, 2), "1483.67");
        assert_eq!(exact_decimal(&(y / Exact::from_integer(360.into())), 4), "4.1213");
    }
}
