//! The root of a perfect search: one representative per symmetry class of
//! first queries, the classes in parallel with a shared best bound; the plain
//! optimum ([`solve_perfect`]) and the optimum under [`Constraints`]
//! ([`solve_constrained`]), with the worst case of the strategy found.

use super::{Constraints, INFEASIBLE, Known, Left, PerfectSearch, UNCAPPED, child_left};
use crate::error::{Result, invalid};
use crate::progress::Progress;
use crate::search::problem::{QueryId, SearchProblem};
use num_traits::ToPrimitive;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Result of a perfect search.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PerfectResult {
    pub problem: String,
    pub codes: u64,
    pub total: u64,
    pub mean: f64,
    pub lower_bound_at_root: u64,
    pub nodes: u64,
    pub seconds: f64,
    /// The constraints the strategy respects (the cap it was searched under).
    pub constraints: Constraints,
    /// Worst case of the strategy found: the most queries any code takes.
    pub max_depth: u64,
}

/// Bytes of the counting-bound tables [`PerfectSearch::new`] allocates (one
/// u64 per (class count ≤ answers + 1, set size ≤ |C|), plus m·ln m per set
/// size), estimated from above; `None` beyond 2^64. The transposition table
/// grows on top of this during the search. (`perfect beams 6c6p` used to ask
/// the allocator for 24 GB here and abort.)
pub fn bound_table_bytes<P: SearchProblem>(problem: &P) -> Option<u64> {
    bound_table_bytes_for(problem.code_count() as u64, problem.answer_count() as u64)
}

/// [`bound_table_bytes`] of a game with `codes` codes and `answers` answers,
/// known before the game (its code table) is built.
pub fn bound_table_bytes_for(codes: u64, answers: u64) -> Option<u64> {
    answers.checked_add(3)?.checked_mul(codes.checked_add(1)?)?.checked_mul(8)
}

/// Runs the search from the root: one representative per symmetry class of
/// first queries, the classes in parallel with a shared best bound.
pub fn solve_perfect<P: SearchProblem>(problem: &P) -> (PerfectResult, PerfectSearch<'_, P>) {
    solve_perfect_with_progress(problem, &Progress::none())
}

/// [`solve_perfect`] reporting to `progress`: root classes done, best total so far.
pub fn solve_perfect_with_progress<'a, P: SearchProblem>(
    problem: &'a P,
    progress: &Progress,
) -> (PerfectResult, PerfectSearch<'a, P>) {
    let (result, search) =
        solve_constrained(problem, Constraints::none(), progress).expect("the unconstrained search cannot fail");
    (result.expect("every game has an unconstrained optimum"), search)
}

/// The least total under `constraints`, or `None` if no strategy respects
/// them (a cap below what any strategy needs). Hard mode needs a game whose
/// queries are codes (an error otherwise).
pub fn solve_constrained<'a, P: SearchProblem>(
    problem: &'a P,
    constraints: Constraints,
    progress: &Progress,
) -> Result<(Option<PerfectResult>, PerfectSearch<'a, P>)> {
    let search = PerfectSearch::with_hard_mode(problem, constraints.possible_only);
    check_hard_mode(problem, constraints)?;
    let clock = Instant::now();
    let budget = if constraints.is_none() { heuristic_bound(problem) } else { INFEASIBLE };
    let found = search.at_root(constraints.max_depth.unwrap_or(UNCAPPED), budget, progress);
    let result = found.ok().map(|total| search.result(total, constraints, clock.elapsed().as_secs_f64()));
    Ok((result, search))
}

/// Hard mode asks possible secrets only: refused for games whose queries never are one.
pub(super) fn check_hard_mode<P: SearchProblem>(problem: &P, constraints: Constraints) -> Result<()> {
    let all = problem.full_set();
    if constraints.possible_only && !(0..problem.query_count() as QueryId).any(|q| problem.is_possible_secret(q, &all))
    {
        return Err(invalid(format!(
            "{}: hard mode (--possible-only) needs queries that are codes; this game's queries never are",
            problem.name()
        )));
    }
    Ok(())
}

/// The H_1-LEX total + 1: a strategy's total bounds the plain optimum from
/// above, so even the first descent can cut (not a constrained one: that
/// strategy may ask impossible codes or take too long).
pub(super) fn heuristic_bound<P: SearchProblem>(problem: &P) -> u64 {
    let heuristic = crate::search::analysis::analyze(
        problem,
        crate::search::strategy::Strategy::new(
            crate::renyi::alpha::Alpha::integer(1),
            crate::search::strategy::TieRule::lex(),
        ),
        Default::default(),
    );
    heuristic.exact_total().ceil().to_integer().to_u64().unwrap_or(u64::MAX - 1).saturating_add(1)
}

impl<'a, P: SearchProblem> PerfectSearch<'a, P> {
    /// The root search with `left` queries allowed and totals below `budget`
    /// sought; the result as [`Self::solve`] gives it. The root's best query is
    /// stored, and `left` remembered for [`Self::best_query`] walks.
    pub fn at_root(&self, left: Left, budget: u64, progress: &Progress) -> std::result::Result<u64, u64> {
        let problem = self.problem;
        let state = problem.initial_state();
        let all = problem.full_set();
        let m = problem.set_size(&all);
        let left = self.canonical(m, left);
        self.root_left.store(left, Ordering::Relaxed);
        let mut candidates = self.candidates(&state, &all, left, u64::MAX);
        let mut reps: BTreeMap<u64, QueryId> = BTreeMap::new();
        for (_, _, q) in candidates.rest(problem) {
            reps.entry(problem.root_class_key(q)).or_insert(q);
        }
        let lb = self.lower_bound(m);
        let best = AtomicU64::new(budget);
        let winner = AtomicU64::new(u64::MAX);
        let cut = std::sync::atomic::AtomicBool::new(false);
        let reps: Vec<QueryId> = reps.into_values().collect();
        progress.begin("root classes", Some(reps.len() as u64));
        progress.status(&format!("lower bound {lb}"));
        reps.par_iter().for_each(|&q| {
            let now = best.load(Ordering::SeqCst);
            match self.after_query(&state, &all, q, left, now, candidates.branching) {
                Ok(t) => {
                    if best.fetch_min(t, Ordering::SeqCst) > t {
                        winner.store(q as u64, Ordering::SeqCst);
                    }
                }
                Err(lb) if lb != INFEASIBLE => cut.store(true, Ordering::Relaxed),
                Err(_) => {}
            }
            progress.advance(1);
            progress.status(&format!(
                "best total {} (lower bound {lb}), {} nodes",
                best.load(Ordering::SeqCst),
                self.nodes()
            ));
        });
        progress.end();
        let total = best.load(Ordering::SeqCst);
        // No query splits the codes (a single code, or one colour): the game
        // ends at once at the terminal cost.
        let found = if !candidates.any_proper {
            match self.terminal_total(&all) {
                Some(t) if self.terminal_fits(&all, left) && t < budget => Ok((t, None)),
                _ if self.terminal_fits(&all, left) => Err(budget),
                _ => Err(INFEASIBLE),
            }
        } else if total < budget {
            Ok((total, Some(winner.load(Ordering::SeqCst) as QueryId)))
        } else if cut.into_inner() {
            Err(budget)
        } else {
            Err(INFEASIBLE)
        };
        match found {
            Ok((total, query)) => {
                self.table.learn((state, all, left), Known::Exact { total, query });
                Ok(total)
            }
            Err(lb) => Err(lb),
        }
    }

    /// The result record of the strategy the last root search found.
    pub(super) fn result(&self, total: u64, constraints: Constraints, seconds: f64) -> PerfectResult {
        let codes = self.problem.code_count() as u64;
        PerfectResult {
            problem: self.problem.name(),
            codes,
            total,
            mean: total as f64 / codes as f64,
            lower_bound_at_root: self.lower_bound(codes),
            nodes: self.nodes(),
            seconds,
            constraints,
            max_depth: self.strategy_depth(),
        }
    }

    /// The most queries any code takes under the strategy of the last root
    /// search (walking its stored queries; the terminal queries included).
    pub fn strategy_depth(&self) -> u64 {
        let p = self.problem;
        self.depth_below(&p.initial_state(), &p.full_set(), self.root_left())
    }

    fn depth_below(&self, state: &P::State, set: &P::Set, left: Left) -> u64 {
        let p = self.problem;
        let query = if p.set_size(set) == 1 { None } else { self.best_query(state, set, left) };
        let Some(q) = query else { return p.terminal(set).queries_per_code as u64 };
        let (next, solving) = (p.next_state(state, q), p.solving_answer(q));
        let below = p
            .split(q, set)
            .into_iter()
            .filter(|(a, _)| Some(*a) != solving)
            .map(|(_, class)| self.depth_below(&next, &class, child_left(left)))
            .max()
            .unwrap_or(0);
        1 + below
    }
}
