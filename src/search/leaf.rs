//! The two leaves of every strategy tree, built in this one place for the
//! exact analysis ([`super::analysis`]), the α-curve walk
//! ([`crate::curve::walk`]), analyze work units ([`super::units`]) and their
//! recheck ([`super::recheck`]) (issue 49 item 3: they were written in each).
//!
//! T(M) = |M| + Σ_a T(M_a) over the classes of the query asked (thesis Satz
//! 4.2); a leaf is where this recursion stops:
//! - the solving class of the query just asked: its codes are found by that
//!   query and pay nothing more ([`solved`]);
//! - a set the strategy stops at (no admissible query splits it): the game's
//!   terminal cost, with the penalty split the tie rule reads
//!   ([`stopped`], [`Rules::terminal`]).

use super::outcome::{Exact, Outcome};
use super::problem::Rules;
use super::strategy::TieBreak;

/// `codes` codes found by the query just asked: no further query, no penalty.
pub fn solved(codes: u64) -> Outcome {
    Outcome::leaf(codes, 0, Exact::from_integer(0.into()))
}

/// The set `set` where the strategy stops: each code pays the game's
/// remaining queries and the set its penalty, split over the codes as `tie`
/// reads a choice of what to lay ([`super::Terminal::penalised_under`]).
pub fn stopped<P: Rules>(problem: &P, set: &P::Set, tie: TieBreak) -> Outcome {
    let t = problem.terminal(set);
    Outcome::leaf(problem.set_size(set), t.queries_per_code, t.penalty_total.clone())
        .with_penalised(t.penalised_under(tie))
}
