//! Classes whose subtree value is constant on a node's sub-domain, added up
//! without walking them (issue 53 item 4: the per-unit cost of the 6c6p walk).
//! A class of one code is a leaf. In a game without solving answers whose
//! leaves all cost the same ([`one_code_terminal`]), a class of two codes that
//! some query separates costs one query more than its two leaves, whichever
//! query the strategy asks, and a node that a query splits into singletons
//! costs one query more than its leaves: their values are made from that
//! leaf, not from the classes' sets. Each is the outcome the walk made before,
//! through the same sums ([`Outcome::sum_shifted`], exact), on the same spans.
//!
//! [`one_code_terminal`]: crate::search::capabilities::SpeedHooks::one_code_terminal

use super::{NodeSteps, Place, Walker};
use crate::curve::steps::{Domain, coalesce, constant, merge_folding_constants};
use crate::search::outcome::Outcome;
use crate::search::problem::{AnswerId, SearchProblem};
use std::cell::RefCell;
use std::sync::Arc;

/// Whether a class below a query is added up as a constant, and why.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Fixed {
    /// Walked as a node (or the solving class).
    No,
    /// One code.
    Leaf,
    /// Two codes that a query separates (leaves the same for every code).
    Pair,
}

impl<P: SearchProblem> Walker<'_, P> {
    /// Whether pairs below a query may be added up on `domain` at `place`:
    /// outside a work-unit trail, in a game without solving answers whose
    /// leaves cost the same, on a sub-domain whose ends [`crate::curve::steps::merge`]
    /// keeps as they are (so a pair's steps are the constant on `domain`).
    pub(super) fn pairs_fixed(&self, domain: &Domain, place: Place) -> bool {
        place.trail.is_none()
            && !self.problem.has_solving_answers()
            && self.problem.one_code_terminal().is_some()
            && domain.lo.narrowed_apart(&domain.hi).is_none()
    }

    /// How the class `(a, class)` below a query that reaches `next` is added up.
    pub(super) fn fixed(
        &self,
        next: &P::State,
        (a, class): &(AnswerId, P::Set),
        solving: Option<AnswerId>,
        pairs: bool,
    ) -> Fixed {
        if Some(*a) == solving {
            return Fixed::No;
        }
        match self.problem.set_size(class) {
            1 => Fixed::Leaf,
            2 if pairs && self.problem.separating_query(next, class).is_some() => Fixed::Pair,
            _ => Fixed::No,
        }
    }

    /// The leaf of every one-code set, if the game says it is the same for
    /// all ([`crate::search::leaf::stopped`] of such a set).
    fn one_code_leaf(&self) -> Option<Outcome> {
        let t = self.problem.one_code_terminal()?;
        Some(
            Outcome::leaf(1, t.queries_per_code, t.penalty_total.clone())
                .with_penalised(t.penalised_under(self.tie.kind)),
        )
    }

    /// The sum of the fixed classes' values: leaves, and pairs (a pair is
    /// the sum of its two leaves one query deeper, as [`Self::node_at`] walks it).
    pub(super) fn fixed_sum(&self, classes: &[(AnswerId, P::Set)], kinds: &[Fixed]) -> Outcome {
        let one = self.one_code_leaf();
        let mut owned: Vec<Outcome> = Vec::new();
        let (mut ones, mut pairs) = (0, 0);
        for ((_, class), kind) in classes.iter().zip(kinds) {
            match (kind, &one) {
                (Fixed::Leaf, None) => owned.push(self.terminal(class)),
                (Fixed::Leaf, Some(_)) => ones += 1,
                (Fixed::Pair, _) => pairs += 1,
                (Fixed::No, _) => {}
            }
        }
        let pair = one.as_ref().filter(|_| pairs > 0).map(|o| {
            let leaves = Outcome::sum_shifted([o, o], 0);
            Outcome::sum_shifted([&leaves], 1)
        });
        let mut terms: Vec<&Outcome> = owned.iter().collect();
        if let Some(o) = &one {
            terms.extend(std::iter::repeat_n(o, ones));
        }
        if let Some(p) = &pair {
            terms.extend(std::iter::repeat_n(p, pairs));
        }
        if terms.len() == 1 { terms[0].clone() } else { Outcome::sum_shifted(terms, 0) }
    }

    /// The steps of a node of `n` codes whose decision splits it into
    /// singletons (the first finest query): what asking it and walking the
    /// leaves gives ([`Self::below`], then [`Self::expand`]'s join), if the
    /// leaves cost the same and the node is outside a work-unit trail.
    pub(super) fn all_leaves(&self, n: u64, domain: &Domain, place: Place) -> Option<NodeSteps> {
        if place.trail.is_some() || self.problem.has_solving_answers() {
            return None;
        }
        let one = self.one_code_leaf()?;
        let leaves = Outcome::sum_shifted(std::iter::repeat_n(&one, n as usize), 0);
        Some(coalesce(self.sum_below(&[constant(domain, Arc::new(leaves))], domain)))
    }

    /// The children's steps added up on `domain`, every code one query deeper
    /// ([`merge_folding_constants`]). A span whose values are the same
    /// outcomes as the previous span's gets that span's sum again (the same
    /// value, not computed twice).
    pub(super) fn sum_below(&self, children: &[NodeSteps], domain: &Domain) -> NodeSteps {
        let sum = |vals: &[&Arc<Outcome>], shift| Arc::new(Outcome::sum_shifted(vals.iter().map(|v| &***v), shift));
        let last: RefCell<(Vec<*const Outcome>, Option<Arc<Outcome>>)> = RefCell::default();
        let shifted = |vals: &[&Arc<Outcome>]| {
            let mut last = last.borrow_mut();
            let same =
                last.0.len() == vals.len() && last.0.iter().zip(vals).all(|(&p, v)| std::ptr::eq(p, Arc::as_ptr(v)));
            if same && let Some(out) = &last.1 {
                return out.clone();
            }
            let out = sum(vals, 1);
            last.0.clear();
            last.0.extend(vals.iter().map(|v| Arc::as_ptr(v)));
            last.1 = Some(out.clone());
            out
        };
        merge_folding_constants(children, domain, |vals| sum(vals, 0), shifted)
    }
}
