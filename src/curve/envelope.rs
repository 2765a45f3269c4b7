//! The upper envelope of H_α over the partitions of one node: which
//! partitions are maximal on each piece of a domain of α.
//!
//! Open parts are cut at the crossings of the best partition with the others:
//! pick a simple rational α₀ inside, find the exact maximum there; if several
//! different partitions tie at α₀ it is a breakpoint itself, otherwise the
//! unique best P keeps its place up to the nearest crossing ψ_{P,Q} = 0 on each
//! side ([`PairFunction::first_root`]). By continuity the partitions tied at
//! such a crossing are P and the Q that cross there. Repeat on what is left.

use super::crossing::{KnownZero, PairFunction, RootFound, SearchEnd};
use super::interval::Interval;
use super::majorization::{descending_sizes, majorized_by, undominated};
use super::point::{Point, Root, Witness, dyadic_between, exact_root_in};
use super::root_order::{common_root_in, sign_at_root};
use super::steps::{Domain, Span};
use super::verification::{Uncertified, count_uncertified};
use crate::renyi::alpha::Alpha;
use crate::renyi::score::{Key, RenyiScore, contenders as key_contenders};
use std::cmp::Ordering;
use std::sync::Arc;

/// A piece of the domain and the indices of the partitions maximal on it.
#[derive(Clone, Debug)]
pub struct EnvelopePiece {
    pub span: Span,
    pub best: Vec<usize>,
}

/// Makes the witness of a crossing of partitions `below` (better left of it) and `above`.
pub type WitnessFn<'a> = &'a (dyn Fn(usize, usize) -> Arc<Witness> + Sync);

/// The pieces of `domain`, in order, each with its maximal partitions.
/// `parts` are distinct multisets of class sizes of one set.
///
/// Speed (issue 53): a partition that majorizes another one is below it on all
/// of (0, ∞) ([`majorized_by`](super::majorization::majorized_by)), so it is maximal at no point strictly between
/// 0 and ∞, and where it crosses the best one another crossing came first. The
/// open part and the ends inside (0, ∞) are cut among the others alone: the
/// same pieces, with fewer keys, pair functions and root searches. At α = 0
/// and ∞ (where H_0 ties equal class counts and H_∞ equal largest classes)
/// every partition is compared.
pub fn envelope(parts: &[Vec<u64>], domain: &Domain, witness: WitnessFn) -> Vec<EnvelopePiece> {
    if parts.len() <= 1 {
        return domain
            .spans()
            .into_iter()
            .map(|span| EnvelopePiece { span, best: (0..parts.len()).collect() })
            .collect();
    }
    let kept = if parts.len() > 2 { undominated(parts) } else { Vec::new() };
    if kept.len() == 1 && !domain.is_point() && dyadic_between(&domain.lo, &domain.hi).is_some() {
        return alone(parts, kept[0], domain);
    }
    let fewer: Vec<Vec<u64>>;
    let mapped = |below: usize, above: usize| witness(kept[below], kept[above]);
    let (inner, inner_witness): (&[Vec<u64>], WitnessFn) = if !kept.is_empty() && kept.len() < parts.len() {
        fewer = kept.iter().map(|&i| parts[i].clone()).collect();
        (&fewer, &mapped)
    } else {
        (parts, witness)
    };
    let outer =
        |best: Vec<usize>| if inner.len() < parts.len() { best.into_iter().map(|b| kept[b]).collect() } else { best };
    let at_end = |at: &Point| EnvelopePiece {
        span: Span::At(at.clone()),
        best: if is_extreme(at) { best_at_point(parts, at) } else { outer(best_at_point(inner, at)) },
    };
    let mut out = Vec::new();
    if domain.is_point() {
        out.push(at_end(&domain.lo));
        return out;
    }
    if domain.lo_closed {
        out.push(at_end(&domain.lo));
    }
    let first = out.len();
    Cutter::new(inner, inner_witness).open_part(&domain.lo, &domain.hi, &mut out);
    out[first..].iter_mut().for_each(|piece| piece.best = outer(std::mem::take(&mut piece.best)));
    if domain.hi_closed {
        out.push(at_end(&domain.hi));
    }
    out
}

/// [`envelope`] where one partition, `only`, majorizes no other one: the
/// pieces that cutting among it alone gives (it is maximal on the open part
/// and at the ends inside (0, ∞); at α = 0 and ∞ every partition is compared),
/// without a key or a root search. Every other partition majorizes it (through
/// a chain), so it is strictly above all of them on (0, ∞).
fn alone(parts: &[Vec<u64>], only: usize, domain: &Domain) -> Vec<EnvelopePiece> {
    let piece = |span: Span| match &span {
        Span::At(at) if is_extreme(at) => EnvelopePiece { best: best_at_point(parts, at), span },
        _ => EnvelopePiece { span, best: vec![only] },
    };
    domain.spans().into_iter().map(piece).collect()
}

/// Whether `p` is α = 0 or α = ∞.
fn is_extreme(p: &Point) -> bool {
    matches!(p.alpha(), Some(Alpha::Infinity) | Some(Alpha::Finite { num: 0, .. }))
}

/// The maximal partitions at a single point.
pub fn best_at_point(parts: &[Vec<u64>], at: &Point) -> Vec<usize> {
    match at.alpha() {
        Some(alpha) => best_at_exact(parts, alpha),
        None => {
            let Point::Root { root, .. } = at else { unreachable!("a point is exact or a root") };
            let candidates = contenders(parts, root.at);
            let mut best = candidates[0];
            for &i in &candidates[1..] {
                if compare_at_root(&parts[i], &parts[best], root) == Ordering::Greater {
                    best = i;
                }
            }
            candidates
                .into_iter()
                .filter(|&i| i == best || compare_at_root(&parts[i], &parts[best], root) == Ordering::Equal)
                .collect()
        }
    }
}

/// The partitions that may be maximal somewhere on `at` (an enclosure inside
/// (0, ∞)), ascending: every other one is certified below one of them by
/// interval enclosures of S(α) = Σ_c (c/n)^α over `at` (H_α = log₂ S/(1 − α),
/// so a larger S is better below α = 1, a smaller one above). The exact
/// comparisons at a crossing then run on these few only. An enclosure that
/// holds 0, 1 or ∞ keeps every partition.
fn contenders(parts: &[Vec<u64>], at: Interval) -> Vec<usize> {
    if at.lo <= 0.0 || (at.lo <= 1.0 && 1.0 <= at.hi) || !at.hi.is_finite() {
        return (0..parts.len()).collect();
    }
    let above_one = at.lo > 1.0;
    let scores: Vec<Interval> = parts
        .iter()
        .map(|part| {
            let n: u64 = part.iter().sum();
            let s = part.iter().filter(|&&c| c > 0).fold(Interval::exact(0.0), |s, &c| {
                s + if c == n { Interval::exact(1.0) } else { (at * Interval::ln_ratio(c, n)).exp() }
            });
            if above_one { Interval::new(-s.hi, -s.lo) } else { s }
        })
        .collect();
    let floor = scores.iter().map(|s| s.lo).fold(f64::NEG_INFINITY, f64::max);
    (0..parts.len()).filter(|&i| scores[i].hi >= floor).collect()
}

/// The exactly maximal partitions at a rational α, 0 or ∞ (ascending indices).
pub fn best_at_exact(parts: &[Vec<u64>], alpha: Alpha) -> Vec<usize> {
    let score = RenyiScore::new(alpha);
    let keys: Vec<Key> = parts.iter().map(|p| score.key(p)).collect();
    // Every partition not among the contenders is certainly below one that is.
    let band = key_contenders(&keys);
    let mut best = band[0];
    for &i in &band[1..] {
        if score.compare(&parts[i], &parts[best]) == Ordering::Greater {
            best = i;
        }
    }
    band.into_iter().filter(|&i| i == best || score.compare(&parts[i], &parts[best]) == Ordering::Equal).collect()
}

/// The exact order of H_α of two partitions at a rational α, 0 or ∞: the one
/// comparison of the crate, [`RenyiScore::compare`].
pub fn compare_exact(a: &[u64], b: &[u64], alpha: Alpha) -> Ordering {
    RenyiScore::new(alpha).compare(a, b)
}

/// The order of H at the crossing `root` of two partitions, certified.
fn compare_at_root(a: &[u64], b: &[u64], root: &Root) -> Ordering {
    let Some(pair) = PairFunction::new(a, b) else { return Ordering::Equal };
    // This pair's D vanishes at every root of the root's D.
    if pair.key() == root.pair.key() || pair.key().shares_roots_of(root.pair.key()) {
        return Ordering::Equal;
    }
    let above_one = root.at.lo > 1.0;
    // Over the enclosure, or else at the root itself by D ∓ D_root (`sign_at_root`).
    match sign_at_root(&pair, root).and_then(|s| PairFunction::p_better(s, above_one)) {
        Some(true) => Ordering::Greater,
        Some(false) => Ordering::Less,
        // No sign over the enclosure (as whenever this D vanishes in it): a
        // tie if the root is that of a factor shared with the root's D (the
        // gcd only here, off the common path).
        None if pair.key().common_factor(root.pair.key()).is_some_and(|g| common_root_in(root.at, &g, &[root])) => {
            Ordering::Equal
        }
        None => {
            count_uncertified(Uncertified::OrderAtCrossing);
            Ordering::Equal
        }
    }
}

/// The partitions of one node being cut into envelope pieces, with each
/// partition's class sizes sorted descending (for the majorization test).
struct Cutter<'a> {
    parts: &'a [Vec<u64>],
    descending: Vec<std::borrow::Cow<'a, [u64]>>,
    witness: WitnessFn<'a>,
}

impl<'a> Cutter<'a> {
    fn new(parts: &'a [Vec<u64>], witness: WitnessFn<'a>) -> Cutter<'a> {
        let descending = parts.iter().map(|p| descending_sizes(p)).collect();
        Cutter { parts, descending, witness }
    }

    /// Cuts the open interval (lo, hi) into pieces, appending them in order.
    fn open_part(&self, lo: &Point, hi: &Point, out: &mut Vec<EnvelopePiece>) {
        let (parts, witness) = (self.parts, self.witness);
        let Some(a0) = dyadic_between(lo, hi) else {
            // The ends are closer than u64 fractions resolve: one piece, decided at its middle.
            count_uncertified(Uncertified::PieceTooNarrow);
            let mid = Alpha::from_f64_grid(0.5 * (lo.approx() + hi.approx().min(1e9))).unwrap_or(Alpha::integer(1));
            out.push(EnvelopePiece { span: Span::Open(lo.clone(), hi.clone()), best: best_at_exact(parts, mid) });
            return;
        };
        let best0 = best_at_exact(parts, a0);
        let at0 = Point::exact(a0);
        if best0.len() > 1 {
            let (below, above) = better_below(parts, best0[0], best0[1], a0);
            let at0 = at0.with_witness(witness(below, above));
            self.open_part(lo, &at0, out);
            out.push(EnvelopePiece { span: Span::At(at0.clone()), best: best0 });
            self.open_part(&at0, hi, out);
            return;
        }
        let p = best0[0];
        let x0 = at0.enclosure().mid();
        let mut right: Option<(Point, Vec<usize>)> = None;
        let mut left: Option<(Point, Vec<usize>)> = None;
        for q in 0..parts.len() {
            // p ≺ q: H_α(p) > H_α(q) on all of (0, ∞), no crossing (p is the best at α₀,
            // so q ≺ p cannot happen).
            if q == p || majorized_by(&self.descending[p], &self.descending[q]) {
                continue;
            }
            let Some(pair) = PairFunction::new(&parts[p], &parts[q]) else { continue };
            if !pair.may_cross() {
                continue;
            }
            let pair = Arc::new(pair);
            let end = search_end(hi, &pair, true);
            if !beyond_kept(&right, &pair, x0, end.x, true)
                && let Some(found) = pair.first_root(SearchEnd::plain(x0), end)
            {
                let point = make_point(found, &pair).with_witness(witness(p, q));
                keep_nearest(&mut right, point, q, Ordering::Less);
            }
            let end = search_end(lo, &pair, false);
            if !beyond_kept(&left, &pair, x0, end.x, false)
                && let Some(found) = pair.first_root(SearchEnd::plain(x0), end)
            {
                let point = make_point(found, &pair).with_witness(witness(q, p));
                keep_nearest(&mut left, point, q, Ordering::Greater);
            }
        }
        let start = match left {
            Some((l, mut ties)) => {
                self.open_part(lo, &l, out);
                ties.push(p);
                ties.sort_unstable();
                out.push(EnvelopePiece { span: Span::At(l.clone()), best: ties });
                l
            }
            None => lo.clone(),
        };
        match right {
            Some((r, mut ties)) => {
                out.push(EnvelopePiece { span: Span::Open(start, r.clone()), best: vec![p] });
                ties.push(p);
                ties.sort_unstable();
                out.push(EnvelopePiece { span: Span::At(r.clone()), best: ties });
                self.open_part(&r, hi, out);
            }
            None => out.push(EnvelopePiece { span: Span::Open(start, hi.clone()), best: vec![p] }),
        }
    }
}

/// Two partitions that tie exactly at the rational α₀, ordered (better just
/// below α₀, better just above). With D(α₀) = 0, F = D/M^α has F'(α₀) =
/// D'(α₀)/M^α₀, so just below α₀ the sign of F is −sign F'(α₀); at α₀ = 1
/// (D(1) = 0 always) an exact H_1 tie has D'(1) = 0 too, so D is about
/// D''(1)·ε²/2: the sign of F''(1) on both sides. H(P) is the larger just
/// below where F has the sign [`PairFunction::p_better`] asks. Index order
/// where no derivative sign is certified.
fn better_below(parts: &[Vec<u64>], i: usize, j: usize, a0: Alpha) -> (usize, usize) {
    let Some(pair) = PairFunction::new(&parts[i], &parts[j]) else { return (i, j) };
    let at = Point::exact(a0).enclosure();
    // Just below α₀ lies on α₀'s side of 1 (below it for α₀ = 1).
    let above_one = matches!(a0, Alpha::Finite { num, den } if num > den);
    let sign_below =
        if a0 == Alpha::integer(1) { pair.eval(at, 2).sign() } else { pair.eval(at, 1).sign().map(Ordering::reverse) };
    match sign_below.and_then(|s| PairFunction::p_better(s, above_one)) {
        Some(false) => (j, i),
        _ => (i, j),
    }
}

/// Whether the pair's first root from `x0` towards `end` is proven to lie
/// beyond the nearest crossing kept so far (so the full search, whose
/// enclosure would be used, can be skipped): a root search on the shorter
/// range up to just past the kept point finds nothing. Rigorous: a search
/// returns every root it cannot exclude, and a crossing at the kept point
/// itself lies strictly inside the shorter range.
fn beyond_kept(kept: &Option<(Point, Vec<usize>)>, pair: &PairFunction, x0: f64, end: f64, upward: bool) -> bool {
    let Some((point, _)) = kept else { return false };
    let at = point.enclosure();
    let near = if upward { at.hi } else { at.lo };
    let margin = 1e-9 * near.abs().max(1.0);
    let stop = if upward { near + margin } else { near - margin };
    let shorter = if upward { stop < end } else { stop > end };
    shorter && !pair.may_have_root_between(SearchEnd::plain(x0), SearchEnd::plain(stop))
}

/// Keeps in `slot` the crossing nearest to α₀ (`nearer`: the order a nearer
/// point has against the kept one) and the partitions crossing there.
fn keep_nearest(slot: &mut Option<(Point, Vec<usize>)>, point: Point, q: usize, nearer: Ordering) {
    match slot {
        Some((kept, ties)) => match point.order(kept) {
            Ordering::Equal => ties.push(q),
            o if o == nearer => *slot = Some((point, vec![q])),
            _ => {}
        },
        None => *slot = Some((point, vec![q])),
    }
}

/// The far end of a root search at the domain point `end`: its enclosure's
/// near side, with a known zero if the pair vanishes exactly there.
fn search_end(end: &Point, pair: &PairFunction, upper: bool) -> SearchEnd {
    let at = end.enclosure();
    let x = if upper { at.lo } else { at.hi };
    let zero = match end {
        Point::Root { root, .. } if root.pair.key() == pair.key() || pair.key().shares_roots_of(root.pair.key()) => {
            Some(KnownZero { at, order: 1 })
        }
        Point::Exact { alpha, .. }
            if *alpha != Alpha::Infinity && *alpha != Alpha::integer(0) && *alpha != Alpha::integer(1) =>
        {
            // F has one sign on the end's enclosure (which holds α): no tie, and
            // no exact test needed (the common case, far cheaper than the test).
            let excluded = pair.eval(at, 0).sign().is_some();
            (!excluded && pair.ties_at(*alpha)).then_some(KnownZero { at, order: 1 })
        }
        _ => None,
    };
    SearchEnd { x, zero }
}

/// The point of a root found by a search.
fn make_point(found: RootFound, pair: &Arc<PairFunction>) -> Point {
    let (at, certified) = match found {
        RootFound::AtOne => return Point::exact(Alpha::integer(1)),
        RootFound::Certified(lo, hi) => (super::interval::Interval::new(lo, hi), true),
        RootFound::Uncertified(lo, hi) => {
            count_uncertified(Uncertified::RootNotCertified);
            (super::interval::Interval::new(lo, hi), false)
        }
    };
    match exact_root_in(at, pair) {
        Some(alpha) => Point::exact(alpha),
        None => Point::Root { root: Arc::new(Root { at, pair: pair.clone(), certified }), witness: None },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_witness(_: usize, _: usize) -> Arc<Witness> {
        Arc::new(Witness::new(0, 0, vec![], vec![], (Arc::from(""), Arc::from(""))))
    }

    /// The envelope cut among all partitions (as before the majorized ones were left out).
    fn every_partition(parts: &[Vec<u64>], domain: &Domain) -> Vec<EnvelopePiece> {
        let at = |p: &Point| EnvelopePiece { span: Span::At(p.clone()), best: best_at_point(parts, p) };
        let mut out: Vec<EnvelopePiece> = domain.lo_closed.then(|| at(&domain.lo)).into_iter().collect();
        Cutter::new(parts, &no_witness).open_part(&domain.lo, &domain.hi, &mut out);
        out.extend(domain.hi_closed.then(|| at(&domain.hi)));
        out
    }

    #[test]
    fn two_partitions_swap_at_their_crossing() {
        // n = 12: {2,3,7} has fewer… both have 3 classes; they tie exactly at α = 2 only
        // (besides the trivial α = 1): {1,5,6} vs {2,3,7}.
        let parts = vec![vec![6, 5, 1], vec![7, 3, 2]];
        let domain = Domain::closed(Point::zero(), Point::infinity());
        let pieces = envelope(&parts, &domain, &no_witness);
        let at2 = pieces
            .iter()
            .find(|p| matches!(&p.span, Span::At(x) if x.alpha() == Some(Alpha::integer(2))))
            .expect("a breakpoint at 2");
        assert_eq!(at2.best, vec![0, 1]);
        // α = 0: both have 3 classes: tied.
        assert_eq!(pieces[0].best, vec![0, 1]);
        // Below 2 and above 2 different winners.
        let before =
            pieces.iter().position(|p| matches!(&p.span, Span::At(x) if x.alpha() == Some(Alpha::integer(2)))).unwrap();
        assert_ne!(pieces[before - 1].best, pieces[before + 1].best);
    }

    /// Leaving out the partitions that majorize another one changes no piece:
    /// the same spans, the same maximal partitions (as indices of all of them).
    #[test]
    fn dominated_partitions_change_no_piece() {
        // {9,2,1} and {10,1,1} majorize {7,3,2}; {6,5,1} and {7,3,2} cross at 2.
        // {4,4,4} alone majorizes no other one: it is the only maximal one inside (0, ∞).
        let one = vec![vec![9, 2, 1], vec![6, 5, 1], vec![10, 1, 1], vec![7, 3, 2], vec![4, 4, 4]];
        assert_eq!(undominated(&one), vec![4]);
        let two = vec![vec![9, 2, 1], vec![6, 5, 1], vec![10, 1, 1], vec![7, 3, 2], vec![8, 2, 2]];
        assert_eq!(undominated(&two), vec![1, 3]);
        let half = Point::exact("1/2".parse().unwrap());
        let open = Domain { lo: Point::zero(), lo_closed: false, hi: Point::infinity(), hi_closed: false };
        let whole = Domain::closed(Point::zero(), Point::infinity());
        for domain in [Domain::closed(half, Point::exact(Alpha::integer(3))), open, whole] {
            for (parts, best) in [(&one, vec![4]), (&two, vec![1, 3])] {
                let fewer = envelope(parts, &domain, &no_witness);
                let all = every_partition(parts, &domain);
                assert_eq!(format!("{fewer:?}"), format!("{all:?}"));
                assert!(fewer.iter().any(|p| p.best == best));
            }
        }
    }

    #[test]
    fn contenders_keep_the_partitions_tied_near_a_crossing() {
        // {6,5,1} and {7,3,2} cross at α = 2; {12} (one class) and {9,2,1} are far below there.
        let parts = vec![vec![6, 5, 1], vec![12], vec![7, 3, 2], vec![9, 2, 1]];
        assert_eq!(contenders(&parts, Interval::new(1.999_999, 2.000_001)), vec![0, 2]);
        // Far from the crossing only the better one of the two is left.
        assert_eq!(contenders(&parts, Interval::new(2.999_999, 3.000_001)), vec![0]);
        // An enclosure holding 1 decides nothing.
        assert_eq!(contenders(&parts, Interval::new(0.9, 1.1)), vec![0, 1, 2, 3]);
    }
}
