//! Points of the α-axis where a curve may change: exact rationals (with 0 and
//! ∞) and certified irrational crossings.

use super::crossing::PairFunction;
use super::interval::Interval;
use crate::renyi::alpha::Alpha;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

/// Where a breakpoint comes from: the node and the two partitions that cross.
#[derive(Clone, Debug)]
pub struct Witness {
    /// |M| at the node.
    pub codes: u64,
    /// Depth of the node (the root is 0).
    pub depth: usize,
    /// The partition better just below the point and the one better just above it.
    pub sides: Sides,
    /// A query of each partition (canonically first), for the report.
    /// Shared: a game has few query labels and a merge holds millions of
    /// witnesses (see [`shared_label`]).
    pub queries: (Arc<str>, Arc<str>),
}

/// The two partitions of a [`Witness`].
#[derive(Clone, Debug, PartialEq)]
pub enum Sides {
    /// Class sizes, descending.
    Own { below: Vec<u64>, above: Vec<u64> },
    /// The partitions of the crossing's own pair (the point is a root of its
    /// D): P below and Q above if `p_below`, else the reverse. Not held twice:
    /// the partitions were half of what a merge of millions of points held.
    OfPair { p_below: bool },
}

impl Witness {
    /// A witness holding its two partitions (class sizes, descending).
    pub fn new(codes: u64, depth: usize, below: Vec<u64>, above: Vec<u64>, queries: (Arc<str>, Arc<str>)) -> Witness {
        Witness { codes, depth, sides: Sides::Own { below, above }, queries }
    }

    /// The class sizes (descending) of the partitions below and above `at`,
    /// the point this witness belongs to (empty if `at` lacks the pair it names).
    pub fn partitions(&self, at: &Point) -> (Vec<u64>, Vec<u64>) {
        match (&self.sides, at) {
            (Sides::Own { below, above }, _) => (below.clone(), above.clone()),
            (Sides::OfPair { p_below }, Point::Root { root, .. }) => {
                let (p, q) = (descending(&root.pair.p), descending(&root.pair.q));
                if *p_below { (p, q) } else { (q, p) }
            }
            (Sides::OfPair { .. }, Point::Exact { .. }) => (Vec::new(), Vec::new()),
        }
    }

    /// The same witness naming `pair`'s partitions instead of holding them,
    /// if they are its two sides.
    fn of_pair(&self, pair: &PairFunction) -> Option<Witness> {
        let Sides::Own { below, above } = &self.sides else { return None };
        if below.len() + above.len() != pair.p.len() + pair.q.len() {
            return None;
        }
        let (p, q) = (descending(&pair.p), descending(&pair.q));
        let p_below = match (*below == p && *above == q, *below == q && *above == p) {
            (true, _) => true,
            (_, true) => false,
            _ => return None,
        };
        Some(Witness {
            codes: self.codes,
            depth: self.depth,
            sides: Sides::OfPair { p_below },
            queries: self.queries.clone(),
        })
    }
}

/// A partition in descending order (as a witness gives it).
pub(crate) fn descending(xs: &[u64]) -> Vec<u64> {
    let mut v = xs.to_vec();
    v.sort_unstable_by(|a, b| b.cmp(a));
    v
}

/// A query label as a witness holds it: one allocation per distinct label
/// in the process (a game has few, e.g. Beams' colour–diagonal pairs), however many
/// witnesses name it.
pub fn shared_label(text: &str) -> Arc<str> {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    static LABELS: OnceLock<Mutex<HashSet<Arc<str>>>> = OnceLock::new();
    let mut labels = LABELS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(known) = labels.get(text) {
        return known.clone();
    }
    let new: Arc<str> = Arc::from(text);
    labels.insert(new.clone());
    new
}

/// A certified irrational (or at least non-simple) root of a pair's D(α).
#[derive(Clone, Debug)]
pub struct Root {
    /// The root lies in this enclosure (when certified: width ≤ 1e-13·max(1, α), or the
    /// zone where even the 128-bit tier cannot sign F plus that width on each side).
    pub at: Interval,
    pub pair: Arc<PairFunction>,
    pub certified: bool,
}

/// A point α ∈ [0, ∞].
#[derive(Clone, Debug)]
pub enum Point {
    /// An exact order: a rational, 0, or ∞.
    Exact { alpha: Alpha, witness: Option<Arc<Witness>> },
    /// A crossing of two partitions, known by a certified enclosure.
    Root { root: Arc<Root>, witness: Option<Arc<Witness>> },
}

impl Point {
    pub fn exact(alpha: Alpha) -> Point {
        Point::Exact { alpha, witness: None }
    }

    pub fn zero() -> Point {
        Point::exact(Alpha::integer(0))
    }

    pub fn infinity() -> Point {
        Point::exact(Alpha::Infinity)
    }

    /// The exact α, if the point is one.
    pub fn alpha(&self) -> Option<Alpha> {
        match self {
            Point::Exact { alpha, .. } => Some(*alpha),
            Point::Root { .. } => None,
        }
    }

    pub fn is_infinity(&self) -> bool {
        matches!(self, Point::Exact { alpha: Alpha::Infinity, .. })
    }

    pub fn witness(&self) -> Option<&Arc<Witness>> {
        match self {
            Point::Exact { witness, .. } | Point::Root { witness, .. } => witness.as_ref(),
        }
    }

    /// The same point with a witness attached (at a root of a pair's D, a
    /// witness whose sides are the pair's partitions names them instead of
    /// holding them).
    pub fn with_witness(self, w: Arc<Witness>) -> Point {
        match self {
            Point::Exact { alpha, .. } => Point::Exact { alpha, witness: Some(w) },
            Point::Root { root, .. } => {
                let w = w.of_pair(&root.pair).map_or(w, Arc::new);
                Point::Root { root, witness: Some(w) }
            }
        }
    }

    /// The point's identity in a unit key, independent of how it prints
    /// (docs/runs.md, "Unit keys"): an exact α as its exact text (`1/2`, `2`,
    /// `inf`); a crossing as `root(P|Q)±k`, the reduced pair of partitions
    /// ([`super::cross_key::CrossKey`]: classes of P not in Q and of Q not in
    /// P, over their gcd, oriented) and which root of its D it is, counted
    /// from α = 1 ([`PairFunction::root_ordinal`]). A crossing whose
    /// ordinal cannot be found has no identity: the one-line message says so
    /// (no printed enclosure ever stands in; not met in the runs).
    pub fn identity(&self) -> Result<String, String> {
        match self {
            Point::Exact { alpha, .. } => Ok(crate::search::run_file::alpha_text(*alpha)),
            Point::Root { root, .. } => {
                let key = root.pair.key();
                let list = |xs: &[u64]| xs.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
                let pair = format!("root({}|{})", list(&key.plus), list(&key.minus));
                let k = root.pair.root_ordinal(root.at).ok_or_else(|| {
                    format!(
                        "the crossing {pair} at {self} has no exact name (its roots from α = 1 could not be counted)"
                    )
                })?;
                Ok(format!("{pair}{k:+}"))
            }
        }
    }

    /// An enclosure of the point (∞ is [∞, ∞]).
    pub fn enclosure(&self) -> Interval {
        match self {
            Point::Exact { alpha: Alpha::Infinity, .. } => Interval::exact(f64::INFINITY),
            Point::Exact { alpha: Alpha::Finite { num, den }, .. } => {
                let x = *num as f64 / *den as f64;
                if *den == 1 && *num < (1 << 53) { Interval::exact(x) } else { Interval::rounded(x) }
            }
            Point::Root { root, .. } => root.at,
        }
    }

    /// A float inside the enclosure (for display and plots).
    pub fn approx(&self) -> f64 {
        let e = self.enclosure();
        if e.lo.is_infinite() { e.lo } else { e.mid() }
    }

    pub fn same(&self, other: &Point) -> bool {
        self.order(other) == Ordering::Equal
    }

    /// The point as an exact rational lower/upper bound (∞ → `None`).
    fn bound(&self, upper: bool) -> Option<BigRational> {
        match self {
            Point::Exact { alpha: Alpha::Infinity, .. } => None,
            Point::Exact { alpha: Alpha::Finite { num, den }, .. } => {
                Some(BigRational::new(BigInt::from(*num), BigInt::from(*den)))
            }
            Point::Root { root, .. } => BigRational::from_float(if upper { root.at.hi } else { root.at.lo }),
        }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Point::Exact { alpha, .. } => write!(f, "{alpha}"),
            Point::Root { root, .. } => {
                write!(f, "[{}, {}]", decimal_outward(root.at.lo, 15, false), decimal_outward(root.at.hi, 15, true))
            }
        }
    }
}

/// `x` with `places` decimals, rounded outward: down (`up` false) or up, so
/// that a printed enclosure [lo↓, hi↑] contains the enclosure itself. Exact:
/// the f64 is a dyadic rational, floored or ceiled at 10^-places.
pub fn decimal_outward(x: f64, places: u32, up: bool) -> String {
    let Some(exact) = BigRational::from_float(x) else { return x.to_string() };
    let scale = BigInt::from(10u32).pow(places);
    let scaled = exact * BigRational::from_integer(scale.clone());
    let n = if up { scaled.ceil() } else { scaled.floor() }.to_integer();
    let (sign, n) = if n < BigInt::zero() { ("-", -n) } else { ("", n) };
    let (whole, frac) = (&n / &scale, &n % &scale);
    if places == 0 {
        return format!("{sign}{whole}");
    }
    format!("{sign}{whole}.{:0>width$}", frac.to_string(), width = places as usize)
}

/// A rational strictly between two points (`lo` < `hi`), as simple as
/// possible (smallest denominator), as an [`Alpha`]; `None` if the points are
/// too close for a fraction of u64 parts.
pub fn rational_between(lo: &Point, hi: &Point) -> Option<Alpha> {
    let x = lo.bound(true)?;
    let y = hi.bound(false);
    let r = simplest_between(&x, y.as_ref(), 0)?;
    Some(Alpha::Finite { num: r.numer().to_u64()?, den: r.denom().to_u64()? })
}

/// A dyadic rational m/2^k (exact in f64, so every sign at it can be
/// certified) in the middle third of the open interval between two points,
/// with k as small as possible; an integer above `lo` when `hi` is ∞.
pub fn dyadic_between(lo: &Point, hi: &Point) -> Option<Alpha> {
    let x = lo.enclosure().hi;
    if hi.is_infinity() {
        let k = x.floor() + 1.0;
        return (k < 9.0e15).then(|| Alpha::integer(k as u64));
    }
    let y = hi.enclosure().lo;
    let w = y - x;
    let (a, b) = (x + w / 3.0, y - w / 3.0);
    if !(x < a && a < b && b < y) {
        return None;
    }
    for k in 0..62u32 {
        let scale = (1u64 << k) as f64;
        let m = (a * scale).ceil();
        if m <= (b * scale).floor() && m < 9.0e15 {
            return Alpha::ratio(m as u64, 1u64 << k).ok();
        }
    }
    None
}

/// The fraction with the smallest denominator in the open interval (x, y)
/// (y = `None`: unbounded), x ≥ 0; by continued fractions, exactly.
pub fn simplest_between(x: &BigRational, y: Option<&BigRational>, depth: u32) -> Option<BigRational> {
    if depth > 80 || y.is_some_and(|y| y <= x) {
        return None;
    }
    let fl = x.floor();
    let next = &fl + BigRational::one();
    if y.is_none_or(|y| &next < y) {
        return Some(next);
    }
    let y = y?;
    let frac_y = y - &fl;
    if *x == fl {
        // (fl, y): fl + 1/t with the least integer t > 1/(y − fl).
        let t = (frac_y.recip()).floor() + BigRational::one();
        return Some(fl + t.recip());
    }
    let inner = simplest_between(&frac_y.recip(), Some(&(x - &fl).recip()), depth + 1)?;
    if inner.is_zero() {
        return None;
    }
    Some(fl + inner.recip())
}

/// Largest denominator of a rational crossing recognised as exact.
pub const EXACT_ROOT_DEN: u64 = 64;

/// A rational p/q (q ≤ [`EXACT_ROOT_DEN`]) in the enclosure at which H_α of
/// the pair ties exactly (a rational crossing such as α = 2 for {1,5,6},
/// {2,3,7}). A rational crossing with a larger denominator stays an
/// enclosure; a tie there is then not certified and is counted as
/// uncertified in the walk's [`super::verification::Verification`].
pub fn exact_root_in(at: Interval, pair: &PairFunction) -> Option<Alpha> {
    let slack = 1e-15 * at.hi.abs().max(1.0);
    for den in 1..=EXACT_ROOT_DEN {
        let num = ((at.mid() * den as f64).round()).max(0.0);
        let x = num / den as f64;
        if num < 1e15 && at.lo - slack <= x && x <= at.hi + slack {
            let alpha = Alpha::ratio(num as u64, den).ok()?;
            if pair.ties_at(alpha) {
                return Some(alpha);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::crossing::{RootFound, SearchEnd};
    use crate::curve::root_order::{disjoint, same_root};

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    /// The MM-1296 LEX crossing of the issue: root 9.98012432979601402…, an
    /// enclosure whose hi rounded to nearest printed …014 (below the root).
    #[test]
    fn enclosures_print_outward() {
        let decimal = |s: &str| {
            let digits: BigInt = s.replace('.', "").parse().unwrap();
            BigRational::new(digits, BigInt::from(10u64.pow(15)))
        };
        for hi in [9.980_124_329_796_014, 9.980_124_329_796_014_f64.next_up(), 9.980_124_329_795_956] {
            let exact = BigRational::from_float(hi).unwrap();
            assert!(decimal(&decimal_outward(hi, 15, true)) >= exact);
            assert!(decimal(&decimal_outward(hi, 15, false)) <= exact);
        }
        assert_eq!(decimal_outward(0.1, 3, false), "0.100");
        assert_eq!(decimal_outward(0.1, 17, true), "0.10000000000000001");
        assert_eq!(decimal_outward(0.1, 17, false), "0.10000000000000000");
        assert_eq!(decimal_outward(-1.25, 1, false), "-1.3");
        assert_eq!(decimal_outward(2.0, 0, true), "2");
    }

    #[test]
    fn simplest_fractions() {
        assert_eq!(simplest_between(&q(0, 1), None, 0), Some(q(1, 1)));
        assert_eq!(simplest_between(&q(1, 3), Some(&q(1, 2)), 0), Some(q(2, 5)));
        assert_eq!(simplest_between(&q(1, 1), Some(&q(2, 1)), 0), Some(q(3, 2)));
        assert_eq!(simplest_between(&q(13, 10), Some(&q(134, 100)), 0), Some(q(4, 3)));
        assert_eq!(simplest_between(&q(1337, 1000), Some(&q(1338, 1000)), 0), Some(q(99, 74)));
        assert_eq!(simplest_between(&q(2, 1), Some(&q(2, 1)), 0), None);
    }

    #[test]
    fn exact_points_order() {
        let p = |s: &str| Point::exact(s.parse().unwrap());
        assert_eq!(p("1.34").order(&p("67/50")), Ordering::Equal);
        assert_eq!(p("1/3").order(&p("0.3333")), Ordering::Greater);
        assert_eq!(p("inf").order(&p("1000000")), Ordering::Greater);
        assert_eq!(rational_between(&p("1.3"), &p("1.34")), Some("4/3".parse().unwrap()));
        assert_eq!(dyadic_between(&p("0"), &p("1")), Some("0.5".parse().unwrap()));
        assert_eq!(dyadic_between(&p("1"), &Point::infinity()), Some(Alpha::integer(2)));
        assert_eq!(dyadic_between(&p("1.3"), &p("1.34")), Some(Alpha::ratio(169, 128).unwrap()));
        assert_eq!(rational_between(&p("0"), &Point::infinity()), Some(Alpha::integer(1)));
    }

    #[test]
    fn roots_of_a_common_factor_are_one_point() {
        // Two pairs of a Beams(6c,6p) node (unit 2210 of the LEX-c run on
        // [1, 2]) whose certified crossings overlap without either D dividing
        // the other: both are multiples of 1 + 2^α + 3^α − 5^α.
        let root = |p: &[u64], q: &[u64]| {
            let pair = Arc::new(PairFunction::new(p, q).unwrap());
            let found = pair.first_root(SearchEnd::plain(1.1), SearchEnd::plain(1.3));
            let Some(RootFound::Certified(lo, hi)) = found else { panic!("{found:?}") };
            Root { at: Interval::new(lo, hi), pair, certified: true }
        };
        let a = root(&[4, 5, 5, 6], &[1, 1, 2, 3, 3, 10]);
        let b = root(&[4, 5, 5, 9, 10], &[1, 2, 2, 4, 4, 5, 15]);
        assert!(
            disjoint(a.at, b.at).is_none()
                && !a.pair.key().divides(b.pair.key())
                && !b.pair.key().divides(a.pair.key())
        );
        assert!(same_root(&a, &b) && same_root(&b, &a));
        // A crossing next to it but of a coprime pair is not the same point.
        let c = Root { at: a.at, pair: Arc::new(PairFunction::new(&[1, 5, 6], &[2, 3, 7]).unwrap()), certified: true };
        assert!(!same_root(&a, &c));
    }

    #[test]
    fn overlapping_enclosures_of_different_roots_are_separated() {
        // Two crossings of the 6c6p [1, 2] merge (units of parts 6 and 10):
        // roots 1.07049987726387073… and 1.07049987726386210… (mpmath, 40
        // digits), 8.6e-15 apart, with overlapping enclosures of width 1e-13.
        let root = |p: &[u64], q: &[u64], lo: f64, hi: f64| Point::Root {
            root: Arc::new(Root {
                at: Interval::new(lo, hi),
                pair: Arc::new(PairFunction::new(p, q).unwrap()),
                certified: true,
            }),
            witness: None,
        };
        let a = root(&[2, 7, 7, 11, 20, 24, 45], &[8, 10, 12, 18, 26, 42], 1.0704998772638237, 1.0704998772639098);
        let b = root(
            &[2, 2, 4, 6, 10, 12, 12, 14, 30, 30, 31, 33, 43, 46, 138, 150],
            &[16, 22, 28, 34, 55, 67, 70, 81, 85, 105],
            1.070499877263825,
            1.0704998772639236,
        );
        assert_eq!((a.order(&b), b.order(&a)), (Ordering::Greater, Ordering::Less));
        assert!(!a.same(&b));
        // Narrowed for the report: disjoint enclosures, still the same points.
        let (na, nb) = a.narrowed_apart(&b).unwrap();
        assert!(nb.enclosure().hi <= na.enclosure().lo && nb.approx() < na.approx());
        assert!(na.same(&a) && nb.same(&b) && na.enclosure().hi - na.enclosure().lo < 1e-13);
        assert!(a.narrowed_apart(&a).is_none());
    }

    #[test]
    fn rational_crossing_recognised() {
        let pair = PairFunction::new(&[1, 5, 6], &[2, 3, 7]).unwrap();
        let at = Interval::new(2.0 - 1e-14, 2.0 + 1e-14);
        assert_eq!(exact_root_in(at, &pair), Some(Alpha::integer(2)));
        let other = PairFunction::new(&[1, 5, 6], &[2, 2, 8]).unwrap();
        assert_eq!(exact_root_in(at, &other), None);
    }
}
