//! Step functions of α: a domain of the α-axis cut into open intervals and
//! single points, with one value on each.

use super::point::Point;
use std::cmp::Ordering;

/// A piece of the α-axis: one point, or the open interval between two.
#[derive(Clone, Debug)]
pub enum Span {
    At(Point),
    Open(Point, Point),
}

impl Span {
    /// The left end (the point itself for [`Span::At`]).
    pub fn start(&self) -> &Point {
        match self {
            Span::At(p) | Span::Open(p, _) => p,
        }
    }

    /// The right end.
    pub fn end(&self) -> &Point {
        match self {
            Span::At(p) | Span::Open(_, p) => p,
        }
    }

    /// Whether `inner` lies within this span (`inner` from a refinement).
    pub fn contains(&self, inner: &Span) -> bool {
        match (self, inner) {
            (Span::At(p), Span::At(q)) => p.same(q),
            (Span::At(_), Span::Open(..)) => false,
            (Span::Open(a, b), Span::At(q)) => a.order(q) == Ordering::Less && q.order(b) == Ordering::Less,
            (Span::Open(a, b), Span::Open(c, d)) => a.order(c) != Ordering::Greater && d.order(b) != Ordering::Greater,
        }
    }

    /// Whether the exact point `p` lies in this span.
    pub fn holds(&self, p: &Point) -> bool {
        self.contains(&Span::At(p.clone()))
    }
}

/// A connected part of [0, ∞]: from `lo` to `hi`, each end in or out.
/// `lo` = `hi` only for a single point (both ends in).
#[derive(Clone, Debug)]
pub struct Domain {
    pub lo: Point,
    pub lo_closed: bool,
    pub hi: Point,
    pub hi_closed: bool,
}

impl Domain {
    /// The closed domain [lo, hi].
    pub fn closed(lo: Point, hi: Point) -> Domain {
        Domain { lo, lo_closed: true, hi, hi_closed: true }
    }

    pub fn is_point(&self) -> bool {
        self.lo.same(&self.hi)
    }

    /// The domain as spans, in order.
    pub fn spans(&self) -> Vec<Span> {
        if self.is_point() {
            return vec![Span::At(self.lo.clone())];
        }
        let mut out = Vec::with_capacity(3);
        if self.lo_closed {
            out.push(Span::At(self.lo.clone()));
        }
        out.push(Span::Open(self.lo.clone(), self.hi.clone()));
        if self.hi_closed {
            out.push(Span::At(self.hi.clone()));
        }
        out
    }

    /// The smallest domain holding a run of consecutive spans.
    pub fn of_run(first: &Span, last: &Span) -> Domain {
        Domain {
            lo: first.start().clone(),
            lo_closed: matches!(first, Span::At(_)),
            hi: last.end().clone(),
            hi_closed: matches!(last, Span::At(_)),
        }
    }
}

/// A step function: consecutive spans covering a domain, a value on each.
pub type Steps<V> = Vec<(Span, V)>;

/// The constant `value` on `domain`.
pub fn constant<V: Clone>(domain: &Domain, value: V) -> Steps<V> {
    domain.spans().into_iter().map(|s| (s, value.clone())).collect()
}

/// Combines step functions on one domain span by span: the common
/// refinement of their spans, with `combine` of the values on each.
pub fn merge<V: Clone, W>(parts: &[&Steps<V>], combine: impl Fn(&[&V]) -> W) -> Steps<W> {
    if parts.is_empty() {
        return Vec::new();
    }
    if parts.iter().all(|p| p.len() == 1) {
        let vals: Vec<&V> = parts.iter().map(|p| &p[0].1).collect();
        return vec![(parts[0][0].0.clone(), combine(&vals))];
    }
    let mut points: Vec<Point> = Vec::new();
    for part in parts {
        for (span, _) in part.iter() {
            points.push(span.start().clone());
            points.push(span.end().clone());
        }
    }
    points.sort_by(|a, b| a.order(b));
    points.dedup_by(|a, b| a.same(b));
    // Neighbours told apart only by narrowing get the narrowed enclosures, so
    // that every span's ends are visibly in order.
    for i in 1..points.len() {
        if let Some((a, b)) = points[i - 1].narrowed_apart(&points[i]) {
            (points[i - 1], points[i]) = (a, b);
        }
    }
    let first = &parts[0];
    let lo_closed = matches!(first[0].0, Span::At(_));
    let hi_closed = matches!(first[first.len() - 1].0, Span::At(_));
    let mut spans: Vec<Span> = Vec::with_capacity(2 * points.len());
    if points.len() == 1 {
        spans.push(Span::At(points[0].clone()));
    } else {
        if lo_closed {
            spans.push(Span::At(points[0].clone()));
        }
        for i in 0..points.len() - 1 {
            spans.push(Span::Open(points[i].clone(), points[i + 1].clone()));
            if i + 2 < points.len() || hi_closed {
                spans.push(Span::At(points[i + 1].clone()));
            }
        }
    }
    let mut cursors = vec![0usize; parts.len()];
    let mut out = Vec::with_capacity(spans.len());
    // One buffer of values for all spans (not one allocation per span).
    let mut vals: Vec<&V> = Vec::with_capacity(parts.len());
    for span in spans {
        vals.clear();
        for (part, cursor) in parts.iter().zip(cursors.iter_mut()) {
            while *cursor + 1 < part.len() && !part[*cursor].0.contains(&span) {
                *cursor += 1;
            }
            vals.push(&part[*cursor].1);
        }
        out.push((span, combine(&vals)));
    }
    out
}

/// [`merge`] of step functions on `domain` whose `combine` is a sum that
/// does not depend on how its terms are grouped (as the children of a node
/// add up). Parts constant on the whole domain (one span per span of the
/// domain, one value) are first added into one by `fold`, once, and that one
/// stands where the first of them stood; `combine` then takes one value for
/// all of them on each span instead of one each. The refinement is the same:
/// such a part holds only the domain's ends, and every part starts and ends
/// there, so the points [`merge`] keeps (the first part's ends) are unchanged.
pub fn merge_folding_constants<V: Clone + PartialEq, W>(
    parts: &[Steps<V>],
    domain: &Domain,
    fold: impl Fn(&[&V]) -> V,
    combine: impl Fn(&[&V]) -> W,
) -> Steps<W> {
    let flat = if domain.is_point() { 1 } else { 1 + usize::from(domain.lo_closed) + usize::from(domain.hi_closed) };
    let constant: Vec<bool> = parts.iter().map(|p| p.len() == flat && p.iter().all(|(_, v)| *v == p[0].1)).collect();
    let Some(first) = constant.iter().position(|&c| c).filter(|_| constant.iter().filter(|&&c| c).count() > 1) else {
        let refs: Vec<&Steps<V>> = parts.iter().collect();
        return merge(&refs, combine);
    };
    let values: Vec<&V> = parts.iter().zip(&constant).filter(|(_, c)| **c).map(|(p, _)| &p[0].1).collect();
    let total = fold(&values);
    let folded: Steps<V> = parts[first].iter().map(|(span, _)| (span.clone(), total.clone())).collect();
    let refs: Vec<&Steps<V>> = parts
        .iter()
        .enumerate()
        .filter(|&(i, _)| i == first || !constant[i])
        .map(|(i, p)| if i == first { &folded } else { p })
        .collect();
    merge(&refs, combine)
}

/// Joins equal neighbours: Open(a,b) v, At(b) v, Open(b,c) v → Open(a,c) v.
pub fn coalesce<V: PartialEq>(steps: Steps<V>) -> Steps<V> {
    let mut out: Steps<V> = Vec::with_capacity(steps.len());
    for (span, v) in steps {
        let n = out.len();
        if let Span::Open(_, c) = &span
            && n >= 2
            && matches!(out[n - 1].0, Span::At(_))
            && matches!(out[n - 2].0, Span::Open(..))
            && out[n - 1].1 == v
            && out[n - 2].1 == v
        {
            let c = c.clone();
            out.pop();
            if let Some((Span::Open(_, end), _)) = out.last_mut() {
                *end = c;
            }
            continue;
        }
        out.push((span, v));
    }
    out
}

/// The part of `steps` inside `domain` (which `steps` covers).
pub fn restrict<V: Clone>(steps: &Steps<V>, domain: &Domain) -> Steps<V> {
    let cuts = domain.spans();
    let mut out = Vec::new();
    // Spans ending before the domain starts are skipped by binary search.
    let first = steps.partition_point(|(span, _)| span.end().order(&domain.lo) == Ordering::Less);
    for (span, v) in &steps[first..] {
        if span.start().order(&domain.hi) == Ordering::Greater {
            break;
        }
        for cut in &cuts {
            if let Some(x) = intersect(span, cut) {
                out.push((x, v.clone()));
            }
        }
    }
    out
}

/// The common part of two spans, if any.
fn intersect(a: &Span, b: &Span) -> Option<Span> {
    match (a, b) {
        (Span::At(p), other) | (other, Span::At(p)) => other.holds(p).then(|| Span::At(p.clone())),
        (Span::Open(a0, a1), Span::Open(b0, b1)) => {
            let lo = if a0.order(b0) == Ordering::Less { b0 } else { a0 };
            let hi = if a1.order(b1) == Ordering::Less { a1 } else { b1 };
            (lo.order(hi) == Ordering::Less).then(|| Span::Open(lo.clone(), hi.clone()))
        }
    }
}

/// The value at the exact point `p`, if some span holds it.
pub fn value_at<'a, V>(steps: &'a Steps<V>, p: &Point) -> Option<&'a V> {
    steps.iter().find(|(span, _)| span.holds(p)).map(|(_, v)| v)
}

/// Whether `outer` contains `inner`.
pub fn covers(outer: &Domain, inner: &Domain) -> bool {
    let lo = match outer.lo.order(&inner.lo) {
        Ordering::Less => true,
        Ordering::Equal => outer.lo_closed || !inner.lo_closed,
        Ordering::Greater => false,
    };
    let hi = match inner.hi.order(&outer.hi) {
        Ordering::Less => true,
        Ordering::Equal => outer.hi_closed || !inner.hi_closed,
        Ordering::Greater => false,
    };
    lo && hi
}

/// A domain as text, e.g. `[1.3, [1.337899921697562, 1.337899921697626])`: part of a unit's key.
pub fn domain_text(d: &Domain) -> String {
    let (open, close) = (if d.lo_closed { '[' } else { '(' }, if d.hi_closed { ']' } else { ')' });
    format!("{open}{}, {}{close}", d.lo, d.hi)
}

/// A domain as a unit key names it: its ends by their identity
/// ([`Point::identity`]: exact text, or a crossing by its pair and ordinal),
/// so that no change of printing changes a key; an end without an identity
/// is the refusal.
pub fn domain_key(d: &Domain) -> Result<String, String> {
    let (open, close) = (if d.lo_closed { '[' } else { '(' }, if d.hi_closed { ']' } else { ')' });
    Ok(format!("{open}{}, {}{close}", d.lo.identity()?, d.hi.identity()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::renyi::alpha::Alpha;

    fn p(k: u64) -> Point {
        Point::exact(Alpha::integer(k))
    }

    #[test]
    fn merge_refines_and_combines() {
        let a: Steps<u32> =
            vec![(Span::At(p(0)), 1), (Span::Open(p(0), p(2)), 2), (Span::At(p(2)), 3), (Span::Open(p(2), p(9)), 4)];
        let b: Steps<u32> = vec![
            (Span::At(p(0)), 10),
            (Span::Open(p(0), p(5)), 20),
            (Span::At(p(5)), 30),
            (Span::Open(p(5), p(9)), 40),
        ];
        let m = merge(&[&a, &b], |v: &[&u32]| v[0] + v[1]);
        let vals: Vec<u32> = m.iter().map(|x| x.1).collect();
        assert_eq!(vals, vec![11, 22, 23, 24, 34, 44]);
        assert_eq!(*value_at(&m, &p(5)).unwrap(), 34);
        assert_eq!(*value_at(&m, &p(1)).unwrap(), 22);
        assert!(value_at(&m, &p(9)).is_none());
    }

    #[test]
    fn coalesce_joins_equal_neighbours() {
        let a: Steps<u32> =
            vec![(Span::Open(p(0), p(2)), 2), (Span::At(p(2)), 2), (Span::Open(p(2), p(9)), 2), (Span::At(p(9)), 5)];
        let c = coalesce(a);
        assert_eq!(c.len(), 2);
        assert!(matches!(&c[0].0, Span::Open(x, y) if x.same(&p(0)) && y.same(&p(9))));
    }

    #[test]
    fn restrict_cuts_to_a_subdomain() {
        let a: Steps<u32> =
            vec![(Span::At(p(0)), 1), (Span::Open(p(0), p(4)), 2), (Span::At(p(4)), 3), (Span::Open(p(4), p(9)), 4)];
        let d = Domain { lo: p(1), lo_closed: false, hi: p(6), hi_closed: true };
        let r = restrict(&a, &d);
        let vals: Vec<u32> = r.iter().map(|x| x.1).collect();
        assert_eq!(vals, vec![2, 3, 4, 4]);
        assert!(r[0].0.start().same(&p(1)) && r[3].0.start().same(&p(6)));
    }
}
