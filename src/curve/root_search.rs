//! The root search of a pair's F(α) = D(α)/M^α ([`PairFunction`]): branch
//! and prune with [`Interval`] arithmetic, known zeros cut out by a
//! neighbourhood free of zeros of F' (Rolle), isolated roots refined by
//! bisection (the method is described in [`super::crossing`]).

use super::crossing::{KnownZero, PairFunction, RootFound, SearchEnd, target_width};
use super::interval::Interval;
use std::cmp::Ordering;

/// How close to 1 (but not at it) a search end must lie for the zero of F at
/// 1 to trim the range ([`PairFunction::trim_near_one`]); farther away the
/// plain search separates the two.
const NEAR_ONE: f64 = 1.0 / (1u64 << 40) as f64;

/// Most roots [`PairFunction::root_ordinal`] steps through.
const MAX_ORDINAL: i64 = 1000;

impl PairFunction {
    /// The first root of ψ strictly between `from` and `to` (either order:
    /// the search runs from `from` towards `to`), where F(from) ≠ 0 unless
    /// `from.zero` says otherwise.
    pub fn first_root(&self, from: SearchEnd, to: SearchEnd) -> Option<RootFound> {
        self.first_root_refined(from, to, true)
    }

    /// Which root of F the root enclosed by `at` is, counted from α = 1 (D(1)
    /// = 0 for every pair): `k` for the k-th root above 1, `-k` for the k-th
    /// below, found by stepping from 1 through the roots in between (each
    /// passed as a known zero) until one whose enclosure meets `at`. It
    /// depends on D's integer terms and on which root `at` encloses, not on
    /// `at`'s width, so it names the crossing in a unit key (see
    /// [`super::point::Point::identity`]). `None` if `at` holds 1, or the
    /// roots could not be stepped through (an uncertified root met twice).
    pub fn root_ordinal(&self, at: Interval) -> Option<i64> {
        let above = at.lo > 1.0;
        if !above && at.hi >= 1.0 {
            return None;
        }
        let to = SearchEnd::plain(if above { at.hi } else { at.lo });
        let mut from = SearchEnd::plain(1.0);
        for k in 1..=MAX_ORDINAL {
            let (lo, hi) = match self.first_root(from, to)? {
                RootFound::Certified(lo, hi) | RootFound::Uncertified(lo, hi) => (lo, hi),
                RootFound::AtOne => return None,
            };
            if hi >= at.lo && lo <= at.hi {
                return Some(if above { k } else { -k });
            }
            let zero = KnownZero { at: Interval::new(lo, hi), order: 1 };
            let next = SearchEnd { x: if above { hi } else { lo }, zero: Some(zero) };
            if next.x == from.x {
                return None;
            }
            from = next;
        }
        None
    }

    /// Whether ψ may have a root strictly between `from` and `to`: `false`
    /// is a proof that it has none; `true` means a root was isolated (not
    /// refined) or could not be excluded.
    pub fn may_have_root_between(&self, from: SearchEnd, to: SearchEnd) -> bool {
        self.first_root_refined(from, to, false).is_some()
    }

    /// [`Self::first_root`]; without `refine` an isolated root comes back as
    /// its isolating interval (marked uncertified) instead of being bisected.
    /// Looked up in [`super::root_cache`] first: the search is a function of
    /// D's integer terms and its arguments alone.
    fn first_root_refined(&self, from: SearchEnd, to: SearchEnd, refine: bool) -> Option<RootFound> {
        if !self.may_cross() {
            return None;
        }
        super::root_cache::remembered(&self.derived().raw, from, to, refine, || self.search_between(from, to, refine))
    }

    /// [`Self::first_root_refined`] computed.
    fn search_between(&self, from: SearchEnd, to: SearchEnd, refine: bool) -> Option<RootFound> {
        let rightward = from.x < to.x;
        let (mut lo, mut hi) = if rightward { (from, to) } else { (to, from) };
        let derived = self.derived();
        if hi.x > derived.root_bound {
            hi = SearchEnd::plain(derived.root_bound.max(lo.x));
        }
        if lo.zero.is_none() && lo.x == 0.0 && derived.zero_at_zero {
            let order = if self.product_tie() { 2 } else { 1 };
            lo.zero = Some(KnownZero { at: Interval::exact(0.0), order });
        }
        if lo.x >= hi.x {
            return None;
        }
        if lo.x < 1.0 && 1.0 < hi.x {
            let order = if self.shannon_tie() { 2 } else { 1 };
            let one = SearchEnd { x: 1.0, zero: Some(KnownZero { at: Interval::exact(1.0), order }) };
            let at_one = if order == 2 { Some(RootFound::AtOne) } else { None };
            let (first, second) = if rightward { ((lo, one), (one, hi)) } else { ((one, hi), (lo, one)) };
            return self
                .search(first.0, first.1, rightward, refine)
                .or(at_one)
                .or_else(|| self.search(second.0, second.1, rightward, refine));
        }
        self.trim_near_one(&mut lo, &mut hi);
        if lo.x >= hi.x {
            return None;
        }
        for end in [&mut lo, &mut hi] {
            if end.zero.is_none() && end.x == 1.0 {
                let order = if self.shannon_tie() { 2 } else { 1 };
                end.zero = Some(KnownZero { at: Interval::exact(1.0), order });
            }
        }
        self.search(lo, hi, rightward, refine)
    }

    /// A range on one side of 1 whose near end lies within [`NEAR_ONE`] of it
    /// but not at it (a domain end such as α = 1 + 2⁻⁵³): F vanishes at 1 (D(1)
    /// = 0 for every pair) just outside the range, where no float evaluation
    /// tells F from 0, so a plain search there reports an uncertified root
    /// that is only the zero at 1. The neighbourhood of that zero on which
    /// F^(order) keeps its sign holds no other root ([`Self::exclusion`]), so
    /// the range loses what it shares with it, as if 1 were its end.
    fn trim_near_one(&self, lo: &mut SearchEnd, hi: &mut SearchEnd) {
        let near_above = lo.zero.is_none() && lo.x > 1.0 && lo.x - 1.0 <= NEAR_ONE;
        let near_below = hi.zero.is_none() && hi.x < 1.0 && 1.0 - hi.x <= NEAR_ONE;
        if !near_above && !near_below {
            return;
        }
        let order = if self.shannon_tie() { 2 } else { 1 };
        let one = KnownZero { at: Interval::exact(1.0), order };
        if near_above && let Ok(x) = self.exclusion(one, hi.x, true) {
            lo.x = lo.x.max(x);
        }
        if near_below && let Ok(x) = self.exclusion(one, lo.x, false) {
            hi.x = hi.x.min(x);
        }
    }

    /// Roots of F in (lo, hi) with known zeros at the ends cut out; the first
    /// in the search direction.
    fn search(&self, lo: SearchEnd, hi: SearchEnd, rightward: bool, refine: bool) -> Option<RootFound> {
        let (mut a, mut b) = (lo.x, hi.x);
        if let Some(z) = lo.zero {
            match self.exclusion(z, b, true) {
                Ok(x) => a = x,
                Err(found) if rightward => return Some(found),
                Err(_) => a = z.at.hi,
            }
        }
        if let Some(z) = hi.zero {
            match self.exclusion(z, a, false) {
                Ok(x) => b = x,
                Err(found) if !rightward => return Some(found),
                Err(_) => b = z.at.lo,
            }
        }
        if a >= b {
            return None;
        }
        self.isolate(a, b, rightward, 0, refine)
    }

    /// The far end of a neighbourhood of the known zero `z` (towards `limit`)
    /// on which F has no other root, or an uncertified root next to `z`.
    fn exclusion(&self, z: KnownZero, limit: f64, upward: bool) -> Result<f64, RootFound> {
        let span = if upward { limit - z.at.hi } else { z.at.lo - limit };
        let mut delta = span;
        for _ in 0..64 {
            let zone =
                if upward { Interval::new(z.at.lo, z.at.hi + delta) } else { Interval::new(z.at.lo - delta, z.at.hi) };
            if !self.eval(zone, z.order).contains_zero() {
                return Ok(if upward { z.at.hi + delta } else { z.at.lo - delta });
            }
            delta *= 0.5;
            if delta <= target_width(z.at.hi) * 1e-3 {
                break;
            }
        }
        // The plain enclosure of F^(order) over the zone loses to cancellation
        // when another root lies within ~1e-7 of the known one (e.g. at
        // α = 1 + 6.7e-8 in a Beams(6c,6p) node): the mean-value form is
        // tight to second order there.
        let mut centered = span;
        for _ in 0..96 {
            let zone = if upward {
                Interval::new(z.at.lo, z.at.hi + centered)
            } else {
                Interval::new(z.at.lo - centered, z.at.hi)
            };
            if !self.eval_centered(zone, z.order).contains_zero() {
                return Ok(if upward { z.at.hi + centered } else { z.at.lo - centered });
            }
            centered *= 0.5;
            if centered <= target_width(z.at.hi) * 1e-3 {
                break;
            }
        }
        Err(RootFound::Uncertified(z.at.lo.min(z.at.lo - delta), z.at.hi.max(z.at.hi + delta)))
    }

    /// Branch and prune on [a, b]: no root where F excludes 0; a monotone F
    /// (F' excludes 0, or F'' does and F' keeps its sign at both ends) has
    /// one root exactly when its end signs differ; otherwise split (wide
    /// intervals geometrically, so that a search up to α = 10³ stays short).
    fn isolate(&self, a: f64, b: f64, rightward: bool, depth: u32, refine: bool) -> Option<RootFound> {
        let whole = Interval::new(a, b);
        let tiny = b - a <= target_width(b) || depth > 200;
        let monotone = !self.eval(whole, 1).contains_zero()
            || (!self.eval(whole, 2).contains_zero() && {
                let (da, db) = (self.eval(Interval::exact(a), 1).sign(), self.eval(Interval::exact(b), 1).sign());
                da.is_some() && da == db
            });
        if monotone {
            let (sa, sb) = (self.sign_at_point(a), self.sign_at_point(b));
            match (sa, sb) {
                (Some(x), Some(y)) if x == y => return None,
                (Some(x), Some(_)) if refine => return Some(self.refine(a, b, x)),
                (Some(_), Some(_)) => return Some(RootFound::Uncertified(a, b)),
                _ if tiny => return Some(RootFound::Uncertified(a, b)),
                _ => {}
            }
        } else {
            if !self.eval(whole, 0).contains_zero() {
                return None;
            }
            if tiny {
                return self.settle_tiny(a, b, refine);
            }
        }
        // Off-centre split points (factors near √2 − 1), so that a rational
        // root such as α = 3 never becomes an end of a piece.
        let m = if b > 4.0 * a.max(1.0) { 2.0 * a.max(1.0) * 1.013_7 } else { a + (b - a) * 0.414_213_56 };
        let (first, second) = if rightward { ((a, m), (m, b)) } else { ((m, b), (a, m)) };
        self.isolate(first.0, first.1, rightward, depth + 1, refine)
            .or_else(|| self.isolate(second.0, second.1, rightward, depth + 1, refine))
    }

    /// A piece [a, b] too small to split further on which the plain
    /// enclosure of F' holds 0: monotone after all if the mean-value form of F'
    /// excludes 0 (two roots about 1e-7 apart, where the plain form loses to
    /// cancellation); then the end signs decide. Otherwise an uncertified root.
    fn settle_tiny(&self, a: f64, b: f64, refine: bool) -> Option<RootFound> {
        let whole = Interval::new(a, b);
        if !self.eval_centered(whole, 1).contains_zero() {
            match (self.sign_at_point(a), self.sign_at_point(b)) {
                (Some(x), Some(y)) if x == y => return None,
                (Some(x), Some(_)) if refine => return Some(self.refine(a, b, x)),
                _ => {}
            }
        } else {
            // An extremum of F inside: F stays within |F'|·(b − a)/2 of F(m)
            // on the piece, so a 128-bit F(m) of one sign beyond that margin
            // proves no root here.
            let m = whole.mid();
            let slope = self.eval(whole, 1);
            let margin = (slope.lo.abs().max(slope.hi.abs()) * (b - a)).next_up();
            if super::precise::sign_at_margin(&self.derived().raw, m, margin).is_some() {
                return None;
            }
        }
        Some(RootFound::Uncertified(a, b))
    }

    /// F^(k) over `a` in the mean-value form F^(k)(m) + F^(k+1)(a)·(a − m),
    /// m the middle of `a`: tight to second order where the plain enclosure
    /// ([`Self::eval`]) suffers from cancellation between terms.
    fn eval_centered(&self, a: Interval, k: u32) -> Interval {
        let m = a.mid();
        self.eval(Interval::exact(m), k) + self.eval(a, k + 1) * (a - Interval::exact(m))
    }

    /// Bisection of a sign change of monotone F on [a, b] (F(a) has sign `sa`,
    /// F(b) the other): [`bisect_sign_change`] with F's certified signs.
    fn refine(&self, a: f64, b: f64, sa: Ordering) -> RootFound {
        let (lo, hi) = bisect_sign_change(a, b, sa, |x| self.sign_at_point(x));
        RootFound::Certified(lo, hi)
    }
}

/// The root of a monotone function on [a, b] whose certified sign is `sa` at
/// `a` and the other one at `b`, narrowed by bisection to [`target_width`]
/// where `sign` decides. Invariant: every returned end is `a`, `b` or a point
/// whose sign `sign` certified (`sa` on the left, the other on the right), so
/// the one root lies between them; nothing is assumed where `sign` answers
/// `None`. There (|F| within the 128-bit tier's error, which near a flat root
/// can span far more than an ulp) the bracket is closed in from both sides:
/// `gap_lo` is the leftmost and `gap_hi` the rightmost point found undecided,
/// and the certified ends move towards them until each is within the target
/// width of its undecided point, so the enclosure is the undecided zone's
/// hull plus at most two target widths.
pub(super) fn bisect_sign_change(
    mut a: f64,
    mut b: f64,
    sa: Ordering,
    mut sign: impl FnMut(f64) -> Option<Ordering>,
) -> (f64, f64) {
    let mut undecided: Option<(f64, f64)> = None;
    loop {
        let probe = match undecided {
            None if b - a > target_width(b) => 0.5 * (a + b),
            None => break,
            Some((gap_lo, gap_hi)) => {
                let (left, right) = (gap_lo - a, b - gap_hi);
                if left.max(right) <= target_width(b) {
                    break;
                }
                if left >= right { 0.5 * (a + gap_lo) } else { 0.5 * (gap_hi + b) }
            }
        };
        if probe <= a || probe >= b {
            break;
        }
        match sign(probe) {
            Some(s) if s == sa => a = probe,
            Some(_) => b = probe,
            None => {
                let (lo, hi) = undecided.unwrap_or((probe, probe));
                undecided = Some((lo.min(probe), hi.max(probe)));
            }
        }
        // An undecided point the bracket has passed is no longer inside it.
        undecided = undecided.and_then(|(lo, hi)| {
            let (lo, hi) = (lo.max(a), hi.min(b));
            (lo < hi || (lo == hi && a < lo && lo < b)).then_some((lo, hi))
        });
    }
    (a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A monotone function with its root at `root` whose sign is known only
    /// outside the zone [`zone.0`, `zone.1`] (which need not hold the root).
    fn oracle(root: f64, zone: (f64, f64)) -> impl FnMut(f64) -> Option<Ordering> {
        move |x| {
            if zone.0 <= x && x <= zone.1 { None } else { Some(x.partial_cmp(&root).unwrap()) }
        }
    }

    #[test]
    fn bisection_narrows_to_the_target_width() {
        let (lo, hi) = bisect_sign_change(1.5, 2.7, Ordering::Less, oracle(2.0, (f64::NAN, f64::NAN)));
        assert!(lo < 2.0 && 2.0 < hi && hi - lo <= target_width(hi), "[{lo}, {hi}]");
    }

    /// The undecided zone around a flat root spans far more than an ulp: the
    /// enclosure holds the root wherever in the zone it lies (the old refine
    /// claimed an ulp around the first undecided midpoint).
    #[test]
    fn an_undecided_zone_is_never_taken_for_the_root() {
        for (root, zone) in [
            (2.0, (2.0 - 3e-9, 2.0 + 7e-9)),
            (2.0 + 6.9e-9, (2.0 - 3e-9, 2.0 + 7e-9)),
            (2.0 - 2.9e-9, (2.0 - 3e-9, 2.0 + 7e-9)),
            // Undecided away from the root (cancellation elsewhere).
            (1.6, (2.0 - 1e-3, 2.0 + 1e-3)),
            (2.6, (2.0 - 1e-3, 2.0 + 1e-3)),
            // The whole bracket but its ends undecided.
            (2.2, (1.5000001, 2.6999999)),
        ] {
            for sa in [Ordering::Less, Ordering::Greater] {
                let flip = |s: Option<Ordering>| if sa == Ordering::Less { s } else { s.map(Ordering::reverse) };
                let mut inner = oracle(root, zone);
                let (lo, hi) = bisect_sign_change(1.5, 2.7, sa, |x| flip(inner(x)));
                assert!(lo < root && root < hi, "root {root}, zone {zone:?}: [{lo}, {hi}]");
                let zone_in = (zone.0.max(1.5), zone.1.min(2.7));
                let holds_root = zone.0 <= root && root <= zone.1;
                let allowed =
                    if holds_root { zone_in.1 - zone_in.0 + 2.0 * target_width(hi) } else { target_width(hi) };
                assert!(hi - lo <= allowed * (1.0 + 1e-9), "root {root}, zone {zone:?}: [{lo}, {hi}] too wide");
            }
        }
    }
}
