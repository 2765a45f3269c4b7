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
use super::point::{Point, Root, UNCERTIFIED, Witness, dyadic_between, exact_root_in};
use super::steps::{Domain, Span};
use crate::alpha::Alpha;
use crate::score::RenyiScore;
use std::cmp::Ordering;
use std::sync::Arc;
use std::sync::atomic::Ordering as AtomicOrdering;

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
pub fn envelope(parts: &[Vec<u64>], domain: &Domain, witness: WitnessFn) -> Vec<EnvelopePiece> {
    if parts.len() <= 1 {
        return domain
            .spans()
            .into_iter()
            .map(|span| EnvelopePiece { span, best: (0..parts.len()).collect() })
            .collect();
    }
    let mut out = Vec::new();
    if domain.is_point() {
        out.push(EnvelopePiece { best: best_at_point(parts, &domain.lo), span: Span::At(domain.lo.clone()) });
        return out;
    }
    if domain.lo_closed {
        out.push(EnvelopePiece { best: best_at_point(parts, &domain.lo), span: Span::At(domain.lo.clone()) });
    }
    open_part(parts, &domain.lo, &domain.hi, witness, &mut out);
    if domain.hi_closed {
        out.push(EnvelopePiece { best: best_at_point(parts, &domain.hi), span: Span::At(domain.hi.clone()) });
    }
    out
}

/// The maximal partitions at a single point.
pub fn best_at_point(parts: &[Vec<u64>], at: &Point) -> Vec<usize> {
    match at.alpha() {
        Some(alpha) => best_at_exact(parts, alpha),
        None => {
            let Point::Root { root, .. } = at else { unreachable!("a point is exact or a root") };
            let mut best = 0;
            for i in 1..parts.len() {
                if compare_at_root(&parts[i], &parts[best], root) == Ordering::Greater {
                    best = i;
                }
            }
            (0..parts.len())
                .filter(|&i| i == best || compare_at_root(&parts[i], &parts[best], root) == Ordering::Equal)
                .collect()
        }
    }
}

/// The exactly maximal partitions at a rational α, 0 or ∞ (ascending indices).
pub fn best_at_exact(parts: &[Vec<u64>], alpha: Alpha) -> Vec<usize> {
    let score = RenyiScore::new(alpha);
    let keys: Vec<f64> = parts.iter().map(|p| score.approx(p)).collect();
    let top = keys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let band: Vec<usize> = (0..parts.len()).filter(|&i| RenyiScore::near(keys[i], top)).collect();
    let mut best = band[0];
    for &i in &band[1..] {
        if compare_exact(&parts[i], &parts[best], alpha) == Ordering::Greater {
            best = i;
        }
    }
    band.into_iter()
        .filter(|&i| i == best || compare_exact(&parts[i], &parts[best], alpha) == Ordering::Equal)
        .collect()
}

/// The exact order of H_α of two partitions at a rational α, 0 or ∞:
/// [`RenyiScore::compare`] where it is exact throughout (0, ∞, 1, small
/// integers), else the certified sign of the pair's D(α) and, if that is 0
/// to 256-bit precision, the exact tie test.
pub fn compare_exact(a: &[u64], b: &[u64], alpha: Alpha) -> Ordering {
    let small_integer = alpha.as_integer().is_some_and(|k| k <= 64);
    if alpha == Alpha::Infinity || small_integer {
        return RenyiScore::new(alpha).compare(a, b);
    }
    let Some(pair) = PairFunction::new(a, b) else { return Ordering::Equal };
    let above_one = alpha.to_f64() > 1.0;
    match pair.sign_on(Point::exact(alpha).enclosure()).and_then(|s| PairFunction::p_better(s, above_one)) {
        Some(true) => Ordering::Greater,
        Some(false) => Ordering::Less,
        None if pair.ties_at(alpha) => Ordering::Equal,
        None => {
            UNCERTIFIED.fetch_add(1, AtomicOrdering::Relaxed);
            RenyiScore::new(alpha).compare(a, b)
        }
    }
}

/// The order of H at the crossing `root` of two partitions, certified.
fn compare_at_root(a: &[u64], b: &[u64], root: &Root) -> Ordering {
    let Some(pair) = PairFunction::new(a, b) else { return Ordering::Equal };
    // This pair's D vanishes at every root of the root's D.
    if pair.key == root.pair.key || pair.key.shares_roots_of(&root.pair.key) {
        return Ordering::Equal;
    }
    let above_one = root.at.lo > 1.0;
    match pair.sign_on(root.at).and_then(|s| PairFunction::p_better(s, above_one)) {
        Some(true) => Ordering::Greater,
        Some(false) => Ordering::Less,
        None => {
            UNCERTIFIED.fetch_add(1, AtomicOrdering::Relaxed);
            Ordering::Equal
        }
    }
}

/// Cuts the open interval (lo, hi) into pieces, appending them in order.
fn open_part(parts: &[Vec<u64>], lo: &Point, hi: &Point, witness: WitnessFn, out: &mut Vec<EnvelopePiece>) {
    let Some(a0) = dyadic_between(lo, hi) else {
        // The ends are closer than u64 fractions resolve: one piece, decided at its middle.
        UNCERTIFIED.fetch_add(1, AtomicOrdering::Relaxed);
        let mid = Alpha::from_f64_grid(0.5 * (lo.approx() + hi.approx().min(1e9))).unwrap_or(Alpha::integer(1));
        out.push(EnvelopePiece { span: Span::Open(lo.clone(), hi.clone()), best: best_at_exact(parts, mid) });
        return;
    };
    let best0 = best_at_exact(parts, a0);
    let at0 = Point::exact(a0);
    if best0.len() > 1 {
        let at0 = at0.with_witness(witness(best0[0], best0[1]));
        open_part(parts, lo, &at0, witness, out);
        out.push(EnvelopePiece { span: Span::At(at0.clone()), best: best0 });
        open_part(parts, &at0, hi, witness, out);
        return;
    }
    let p = best0[0];
    let x0 = at0.enclosure().mid();
    let mut right: Option<(Point, Vec<usize>)> = None;
    let mut left: Option<(Point, Vec<usize>)> = None;
    for q in 0..parts.len() {
        if q == p {
            continue;
        }
        let Some(pair) = PairFunction::new(&parts[p], &parts[q]) else { continue };
        if !pair.may_cross() {
            continue;
        }
        let pair = Arc::new(pair);
        if let Some(found) = pair.first_root(SearchEnd::plain(x0), search_end(hi, &pair, true)) {
            let point = make_point(found, &pair).with_witness(witness(p, q));
            keep_nearest(&mut right, point, q, Ordering::Less);
        }
        if let Some(found) = pair.first_root(SearchEnd::plain(x0), search_end(lo, &pair, false)) {
            let point = make_point(found, &pair).with_witness(witness(q, p));
            keep_nearest(&mut left, point, q, Ordering::Greater);
        }
    }
    let start = match left {
        Some((l, mut ties)) => {
            open_part(parts, lo, &l, witness, out);
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
            open_part(parts, &r, hi, witness, out);
        }
        None => out.push(EnvelopePiece { span: Span::Open(start, hi.clone()), best: vec![p] }),
    }
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
        Point::Root { root, .. } if root.pair.key == pair.key || pair.key.shares_roots_of(&root.pair.key) => {
            Some(KnownZero { at, order: 1 })
        }
        Point::Exact { alpha, .. }
            if *alpha != Alpha::Infinity && *alpha != Alpha::integer(0) && *alpha != Alpha::integer(1) =>
        {
            pair.ties_at(*alpha).then_some(KnownZero { at, order: 1 })
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
            UNCERTIFIED.fetch_add(1, AtomicOrdering::Relaxed);
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
        Arc::new(Witness { codes: 0, depth: 0, below: vec![], above: vec![], queries: (String::new(), String::new()) })
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
}
