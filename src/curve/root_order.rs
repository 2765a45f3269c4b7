//! The order of points of the α-axis where crossings are involved: exact
//! rationals against each other and against certified roots, and two roots
//! whose enclosures overlap (one point if provably so, else told apart by
//! narrowing, else counted as uncertified in the current walk's
//! [`Verification`](super::verification::Verification)). Used by [`Point::order`].

use super::crossing::PairFunction;
use super::exp_poly::ExpPoly;
use super::interval::Interval;
use super::point::{Point, Root, Witness};
use super::precise;
use super::verification::{Uncertified, count_uncertified};
use crate::renyi::alpha::Alpha;
use std::cmp::Ordering;
use std::sync::Arc;

pub(super) fn cmp_alpha(a: Alpha, b: Alpha) -> Ordering {
    match (a, b) {
        (Alpha::Infinity, Alpha::Infinity) => Ordering::Equal,
        (Alpha::Infinity, _) => Ordering::Greater,
        (_, Alpha::Infinity) => Ordering::Less,
        (Alpha::Finite { num: n1, den: d1 }, Alpha::Finite { num: n2, den: d2 }) => {
            (n1 as u128 * d2 as u128).cmp(&(n2 as u128 * d1 as u128))
        }
    }
}

/// The order of two enclosures if they do not overlap.
pub(super) fn disjoint(a: Interval, b: Interval) -> Option<Ordering> {
    if a.hi < b.lo {
        Some(Ordering::Less)
    } else if b.hi < a.lo {
        Some(Ordering::Greater)
    } else {
        None
    }
}

/// Whether two overlapping roots are provably one point: the D of one
/// divides the D of the other (so the first root is a root of the second),
/// and the second has at most one root on the hull of both enclosures (its F'
/// has no zero there); or their D share a factor that vanishes on the hull
/// ([`common_root_in`]).
pub(super) fn same_root(a: &Root, b: &Root) -> bool {
    let hull = Interval::new(a.at.lo.min(b.at.lo), a.at.hi.max(b.at.hi));
    let one_root = |r: &Root| !r.pair.eval(hull, 1).contains_zero();
    (a.pair.key().divides(b.pair.key()) && one_root(b))
        || (b.pair.key().divides(a.pair.key()) && one_root(a))
        || a.pair.key().common_factor(b.pair.key()).is_some_and(|g| common_root_in(hull, &g, &[a, b]))
}

/// The order of two certified roots of different D whose enclosures
/// overlap, found by bisecting the overlap: at a float x inside a root's
/// enclosure, the certified sign of its D ([`precise::sign_at`]) against the
/// sign at the enclosure's lower end tells on which side of x the root lies
/// (the root is the only one there). `None` if x lands on a root, or the
/// roots are closer than floats resolve. Symmetric: the same x are tried
/// whichever root comes first. (Seen in the 6c6p [1, 2] merge: two units'
/// crossings at α ≈ 1.0704998772638, enclosures of width ≈ 1e-13
/// overlapping, D without a common factor.)
pub(super) fn separate(a: &Root, b: &Root) -> Option<(Ordering, Interval, Interval)> {
    // Each enclosure must hold exactly one root: D monotone on it.
    let unique = |r: &Root| r.certified && !r.pair.eval(r.at, 1).contains_zero();
    if !(unique(a) && unique(b)) {
        return None;
    }
    let terms = |r: &Root| {
        let k = r.pair.key();
        super::cross_key::signed_terms(&k.plus, &k.minus)
    };
    let (ta, tb) = (terms(a), terms(b));
    let (mut ea, mut eb) = (a.at, b.at);
    // D changes sign over each enclosure (certified signs at both ends), and
    // is monotone there: exactly one root inside, the one the point stands for.
    let (sa, sb) = (precise::sign_at(&ta, ea.lo)?, precise::sign_at(&tb, eb.lo)?);
    let (ha, hb) = (precise::sign_at(&ta, ea.hi)?, precise::sign_at(&tb, eb.hi)?);
    if sa == Ordering::Equal || sb == Ordering::Equal || ha != sa.reverse() || hb != sb.reverse() {
        return None;
    }
    for _ in 0..80 {
        if let Some(o) = disjoint(ea, eb) {
            return Some((o, ea, eb));
        }
        let (lo, hi) = (ea.lo.max(eb.lo), ea.hi.min(eb.hi));
        let x = 0.5 * (lo + hi);
        if !(lo < x && x < hi) {
            return None;
        }
        // Each root lies above x where its D still has its lower end's sign.
        let above =
            |t: &[(u64, i64)], s: Ordering| precise::sign_at(t, x).filter(|&v| v != Ordering::Equal).map(|v| v == s);
        let (a_above, b_above) = (above(&ta, sa)?, above(&tb, sb)?);
        if a_above {
            ea.lo = ea.lo.max(x)
        } else {
            ea.hi = ea.hi.min(x)
        }
        if b_above {
            eb.lo = eb.lo.max(x)
        } else {
            eb.hi = eb.hi.min(x)
        }
        if a_above != b_above {
            return Some((if a_above { Ordering::Greater } else { Ordering::Less }, ea, eb));
        }
    }
    None
}

/// The certified sign of D of `pair` at the root of `root` (a certified
/// root): its sign over the root's enclosure, or else the sign there of
/// D_pair ∓ D_root, which equals D_pair at the root since D_root vanishes
/// there (D_root(r) = 0, so D_pair(r) = (D_pair − λ·D_root)(r) for every λ).
/// With λ = ±1 the difference cancels a partition the two pairs share:
/// D_BC − D_AC = D_BA, whose sign is robust where D_BC alone is too flat to
/// be signed on the enclosure (two crossings ~1e-17 apart at α ≈ 41.93, both
/// set by 122^α ≈ 2·120^α, in a Beams(6c,6p) node of [5/2, ∞]). `None` where
/// none of the three is signed, or where one is zero.
/// (For an uncertified root only the sign over its enclosure is given.)
pub(super) fn sign_at_root(pair: &PairFunction, root: &Root) -> Option<Ordering> {
    let signed = |s: Option<Ordering>| s.filter(|&s| s != Ordering::Equal);
    if let Some(s) = signed(pair.sign_on(root.at)) {
        return Some(s);
    }
    if !root.certified {
        return None;
    }
    let (a, b) = (&root.pair.p, &root.pair.q);
    // D_pair − D_root and D_pair + D_root as pairs of multisets of one total.
    for (plus_extra, minus_extra) in [(b, a), (a, b)] {
        let plus: Vec<u64> = pair.p.iter().chain(plus_extra).copied().collect();
        let minus: Vec<u64> = pair.q.iter().chain(minus_extra).copied().collect();
        if let Some(s) = PairFunction::new(&plus, &minus).and_then(|e| signed(e.sign_on(root.at))) {
            return Some(s);
        }
    }
    None
}

/// The order of two certified roots of different D with overlapping
/// enclosures, by the sign of D_b at r_a ([`sign_at_root`]): where F_b is
/// monotone on the hull of both enclosures, its one root r_b there has F_b's
/// sign at r_b's lower end on its left and the other sign on its right, so a
/// non-zero sign of D_b at r_a places r_a on one side of r_b (r_a ≠ r_b).
/// Tried from both roots (the answer, when there is one, is the true order
/// either way, so the order stays antisymmetric).
pub(super) fn order_by_sign_at_root(a: &Root, b: &Root) -> Option<Ordering> {
    let hull = Interval::new(a.at.lo.min(b.at.lo), a.at.hi.max(b.at.hi));
    let one_side = |a: &Root, b: &Root| -> Option<Ordering> {
        if !(a.certified && b.certified) || b.pair.eval(hull, 1).contains_zero() {
            return None;
        }
        let left = b.pair.sign_at_point(b.at.lo).filter(|&s| s != Ordering::Equal)?;
        let at_a = sign_at_root(&b.pair, a)?;
        Some(if at_a == left { Ordering::Less } else { Ordering::Greater })
    };
    one_side(a, b).or_else(|| one_side(b, a).map(Ordering::reverse))
}

/// Whether every given certified root is the same point, a root of `g`, a
/// common factor of their D: `g` changes sign over `zone` (so it has a root r
/// there, and every D vanishes at r), and each D has at most one root in
/// `zone` (F' has no zero there), which contains its root — so that root is r.
pub(super) fn common_root_in(zone: Interval, g: &ExpPoly, roots: &[&Root]) -> bool {
    let terms: Option<Vec<(u64, i64)>> = g.terms().map(|(b, c)| Some((b, i64::try_from(c).ok()?))).collect();
    let Some(terms) = terms else { return false };
    let changes_sign = match (precise::sign_at(&terms, zone.lo), precise::sign_at(&terms, zone.hi)) {
        (Some(x), Some(y)) => x != y && x != Ordering::Equal && y != Ordering::Equal,
        _ => false,
    };
    changes_sign
        && roots
            .iter()
            .all(|r| r.certified && zone.lo <= r.at.lo && r.at.hi <= zone.hi && !r.pair.eval(zone, 1).contains_zero())
}

/// Where the exact α (not a root of the pair: no exact tie there) lies
/// against a certified root, the only root of the pair's F in its enclosure:
/// F has one sign on each side, so α is on the side whose sign F has at α.
/// F's sign at α is the certified H_α comparison of the pair (sign(F) =
/// sign(D), and H_α(P) > H_α(Q) ⟺ D(α)·(1 − α) > 0); its signs at the
/// enclosure's ends are certified as well. `None` where any is not known.
fn side_of_certified_root(alpha: Alpha, root: &Root) -> Option<Ordering> {
    let Alpha::Finite { num, den } = alpha else { return None };
    if !root.certified || num == den || num == 0 {
        return None;
    }
    let p_better = crate::renyi::score::RenyiScore::new(alpha).compare(&root.pair.p, &root.pair.q);
    let above_one = num > den;
    let f_at_alpha = if above_one { p_better.reverse() } else { p_better };
    if f_at_alpha == Ordering::Equal {
        return None;
    }
    let (left, right) = (root.pair.sign_at_point(root.at.lo)?, root.pair.sign_at_point(root.at.hi)?);
    match (left == f_at_alpha, right == f_at_alpha) {
        (true, false) => Some(Ordering::Less),
        (false, true) => Some(Ordering::Greater),
        _ => None,
    }
}

pub(super) fn exact_vs_root(alpha: Alpha, root: &Root) -> Ordering {
    let a = Point::exact(alpha).enclosure();
    if let Some(o) = disjoint(a, root.at) {
        return o;
    }
    if alpha != Alpha::Infinity && root.pair.ties_at(alpha) {
        return Ordering::Equal;
    }
    if let Some(side) = side_of_certified_root(alpha, root) {
        return side;
    }
    count_uncertified(Uncertified::ExactAgainstCrossing);
    a.mid().partial_cmp(&root.at.mid()).unwrap_or(Ordering::Equal)
}

impl Point {
    /// Total order of points. Two crossings whose enclosures overlap are one
    /// point if that is proven (same key, or a shared root: `same_root`), else
    /// ordered by narrowing the enclosures (`separate`) or by the sign of one
    /// D at the other's root (`order_by_sign_at_root`); failing all they are
    /// taken as one point and counted as uncertified in the current walk's
    /// [`Verification`](super::verification::Verification).
    pub fn order(&self, other: &Point) -> Ordering {
        match (self, other) {
            (Point::Exact { alpha: a, .. }, Point::Exact { alpha: b, .. }) => cmp_alpha(*a, *b),
            (Point::Root { root: a, .. }, Point::Root { root: b, .. }) => {
                if Arc::ptr_eq(a, b) {
                    return Ordering::Equal;
                }
                match disjoint(a.at, b.at) {
                    Some(o) => o,
                    None => {
                        if a.pair.key() == b.pair.key() || same_root(a, b) {
                            return Ordering::Equal;
                        }
                        if let Some((o, _, _)) = separate(a, b) {
                            return o;
                        }
                        order_by_sign_at_root(a, b).unwrap_or_else(|| {
                            count_uncertified(Uncertified::CrossingsOverlap);
                            Ordering::Equal
                        })
                    }
                }
            }
            (Point::Exact { alpha, .. }, Point::Root { root, .. }) => exact_vs_root(*alpha, root),
            (Point::Root { root, .. }, Point::Exact { alpha, .. }) => exact_vs_root(*alpha, root).reverse(),
        }
    }

    /// Two different crossings whose enclosures overlap, with their
    /// enclosures narrowed until they meet at most in one end (as [`Point::order`] separates
    /// them), so that a report shows them in order; `None` if they do not
    /// overlap or are one point.
    pub fn narrowed_apart(&self, other: &Point) -> Option<(Point, Point)> {
        let (Point::Root { root: a, witness: wa }, Point::Root { root: b, witness: wb }) = (self, other) else {
            return None;
        };
        if disjoint(a.at, b.at).is_some() || a.pair.key() == b.pair.key() || same_root(a, b) {
            return None;
        }
        let (_, ea, eb) = separate(a, b)?;
        let narrowed = |r: &Root, at: Interval, w: &Option<Arc<Witness>>| Point::Root {
            root: Arc::new(Root { at, pair: r.pair.clone(), certified: r.certified }),
            witness: w.clone(),
        };
        Some((narrowed(a, ea, wa), narrowed(b, eb, wb)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::crossing::{RootFound, SearchEnd};

    fn root(p: &[u64], q: &[u64]) -> Root {
        let pair = Arc::new(PairFunction::new(p, q).unwrap());
        let found = pair.first_root(SearchEnd::plain(41.0), SearchEnd::plain(43.0));
        let Some(RootFound::Certified(lo, hi)) = found else { panic!("{found:?}") };
        Root { at: Interval::new(lo, hi), pair, certified: true }
    }

    #[test]
    fn crossings_sharing_a_partition_are_ordered_by_the_third_pair() {
        // A node of 366 codes in a Beams(6c,6p) unit of [5/2, ∞]: A and B both
        // overtake C near α = ln 2 / ln(122/120). Roots (mpmath, 60 digits):
        // r_AC = 41.93444716108929337792890…, r_BC = 41.93444716108929338252608…,
        // 4.6e-18 apart, far below an ulp at 42 (7.1e-15).
        let (a, b, c) = (vec![42, 42, 80, 80, 122], vec![20, 20, 22, 22, 80, 80, 122], vec![30, 42, 54, 120, 120]);
        let (ac, bc) = (root(&a, &c), root(&b, &c));
        // Neither earlier rule decides them.
        assert!(disjoint(ac.at, bc.at).is_none() && ac.pair.key() != bc.pair.key());
        assert!(!same_root(&ac, &bc) && !same_root(&bc, &ac));
        assert!(separate(&ac, &bc).is_none() && separate(&bc, &ac).is_none());
        // D_BC at r_AC is −D_AB(r_AC) = 2·20^α + 2·22^α − 2·42^α < 0, D_BC's sign left of its root.
        assert!(bc.pair.sign_on(ac.at).is_none());
        assert_eq!(sign_at_root(&bc.pair, &ac), Some(Ordering::Less));
        assert_eq!(sign_at_root(&ac.pair, &bc), Some(Ordering::Greater));
        assert_eq!(order_by_sign_at_root(&ac, &bc), Some(Ordering::Less));
        assert_eq!(order_by_sign_at_root(&bc, &ac), Some(Ordering::Greater));
        let point = |r: Root| Point::Root { root: Arc::new(r), witness: None };
        let (pac, pbc) = (point(ac), point(bc));
        assert_eq!((pac.order(&pbc), pbc.order(&pac)), (Ordering::Less, Ordering::Greater));
        assert!(!pac.same(&pbc));
        // The same pairs written the other way round (D negated) give the same order.
        let (ca, cb) = (point(root(&c, &a)), point(root(&c, &b)));
        assert_eq!(
            (ca.order(&cb), cb.order(&pac), pbc.order(&ca)),
            (Ordering::Less, Ordering::Greater, Ordering::Greater)
        );
    }

    #[test]
    fn an_uncertified_root_is_not_ordered_by_a_sign_at_it() {
        let (a, b, c) = (vec![42, 42, 80, 80, 122], vec![20, 20, 22, 22, 80, 80, 122], vec![30, 42, 54, 120, 120]);
        let (mut ac, bc) = (root(&a, &c), root(&b, &c));
        ac.certified = false;
        assert_eq!(sign_at_root(&bc.pair, &ac), None);
        assert_eq!(order_by_sign_at_root(&ac, &bc), None);
        assert_eq!(order_by_sign_at_root(&bc, &ac), None);
    }
}
