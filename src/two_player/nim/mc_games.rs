//! The games of thesis ch. 2 as clients of the stochastic-policy solver
//! ([`crate::graph::stochastic`]): each is a few lines of rules that build an
//! [`ExplicitGraph`] of states seen from the player to move; the solver does
//! the rest (random-play values, MC(k) against MC(2k), MC(∞)).
//!
//! - ESR(n, m, s), single-step race (Def. 2.1): m lanes of length n per player,
//!   a move advances one own piece by one square, s pieces home win. Candidates
//!   are per piece (lane), duplicates kept (reference note §0 item 1, verified
//!   by Table 2.4); a piece at home does not move (matters only for s > 1).
//! - DSC(n), double-step crash race (Def. 2.3): one track, steps of 1 or 2,
//!   capture (landing on the opponent) or reaching the goal wins; jumping over
//!   is allowed, a step past the goal counts as reaching it (the reference
//!   checked that forbidding it changes no value).
//! - S(a, b), two-move subtraction game (Def. 2.4, Fortran B.3): take a or b;
//!   taking the last item, or a move larger than the heap, wins. Both moves are
//!   always candidates.

use crate::error::{Result, invalid};
use crate::graph::WinLossDraw;
use crate::graph::explicit::{ExplicitGraph, Node};

/// A state seen from the player to move; `Over` is the terminal state after a
/// winning move (its mover, the loser, has `Loss(0)`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum McState {
    Over,
    /// ESR: both players' lane positions, sorted (mover first).
    Race(Vec<u8>, Vec<u8>),
    /// DSC: squares covered by the mover and by the other player.
    Crash(u32, u32),
    /// S(a,b): heap size.
    Heap(u32),
}

/// A built game: its graph and the start state's index.
pub struct McGame {
    pub name: String,
    pub graph: ExplicitGraph<McState>,
    pub start: usize,
}

fn terminal_or(state: McState) -> Node<McState> {
    match state {
        McState::Over => Node::Terminal(WinLossDraw::Loss(0)),
        _ => unreachable!("only Over is terminal"),
    }
}

fn build(name: String, roots: Vec<McState>, start: McState, moves: impl Fn(&McState) -> Vec<McState>) -> McGame {
    let graph = ExplicitGraph::explore(roots, |s| match s {
        McState::Over => terminal_or(McState::Over),
        s => Node::Moves(moves(s)),
    });
    let start = graph.index_of(&start).expect("root");
    McGame { name, graph, start }
}

/// Number of mover-relative ESR states is at most L² with L = C(n+m, m).
const MAX_RACE_STATES: f64 = 2e7;

/// ESR(n, m, s).
pub fn esr(n: i64, m: i64, s: i64) -> Result<McGame> {
    if n < 1 || m < 1 || s < 1 {
        return Err(invalid(format!("ESR(n={n}, m={m}, s={s}): n, m and s must be at least 1")));
    }
    if s > m {
        return Err(invalid(format!("ESR: s = {s} pieces home cannot exceed the m = {m} lanes")));
    }
    let lanes = (1..=m).fold(1.0, |acc, i| acc * (n + i) as f64 / i as f64);
    if n > 250 || lanes * lanes / 2.0 > MAX_RACE_STATES {
        return Err(invalid(format!(
            "ESR({n},{m},{s}) has up to {:.1e} states (C(n+m,m)² / 2); at most {MAX_RACE_STATES:.0e} are built",
            lanes * lanes / 2.0
        )));
    }
    let (n, m, s) = (n as u8, m as usize, s as usize);
    let start = McState::Race(vec![0; m], vec![0; m]);
    Ok(build(format!("ESR({n},{m},{s})"), vec![start.clone()], start, move |state| {
        let McState::Race(me, other) = state else { unreachable!() };
        (0..me.len())
            .filter(|&i| me[i] < n)
            .map(|i| {
                let mut next = me.clone();
                next[i] += 1;
                next.sort_unstable();
                if next.iter().filter(|&&x| x == n).count() >= s {
                    McState::Over
                } else {
                    McState::Race(other.clone(), next)
                }
            })
            .collect()
    }))
}

/// DSC(n).
pub fn dsc(n: i64) -> Result<McGame> {
    if !(1..=100_000).contains(&n) {
        return Err(invalid(format!("DSC(n): track length n = {n} must be between 1 and 100 000")));
    }
    let n = n as u32;
    Ok(build(format!("DSC({n})"), vec![McState::Crash(0, 0)], McState::Crash(0, 0), move |state| {
        let &McState::Crash(me, other) = state else { unreachable!() };
        [1, 2]
            .iter()
            .map(|step| {
                let to = me + step;
                // The opponent stands on square n − other of the mover's track.
                if to >= n || to == n - other { McState::Over } else { McState::Crash(other, to) }
            })
            .collect()
    }))
}

/// S(a, b) with every heap 1..=`heap` in the graph; the start is `heap`.
pub fn subtraction(a: i64, b: i64, heap: i64) -> Result<McGame> {
    if a < 1 || b <= a {
        return Err(invalid(format!("S(a,b) needs 1 ≤ a < b; got a = {a}, b = {b}")));
    }
    if !(1..=10_000_000).contains(&heap) {
        return Err(invalid(format!("heap size n = {heap} must be between 1 and 10 000 000")));
    }
    let set = [a as u32, b as u32];
    let roots = (1..=heap as u32).rev().map(McState::Heap).collect();
    Ok(build(format!("S({a},{b}) n={heap}"), roots, McState::Heap(heap as u32), move |state| {
        let &McState::Heap(z) = state else { unreachable!() };
        set.iter().map(|&t| if z > t { McState::Heap(z - t) } else { McState::Over }).collect()
    }))
}

/// The win/loss pattern of S(a,b) for heaps 1..=upto as in Table 2.14: `−` the
/// mover loses, `a` / `b` the only winning move, `+` both moves win.
pub fn subtraction_pattern(a: i64, b: i64, upto: i64) -> Result<Vec<char>> {
    let game = subtraction(a, b, upto)?;
    let g = &game.graph;
    let solution = g.solve();
    let wins = |c: u32| g.terminal(c as usize).is_some() || solution.get(c as usize).is_some_and(|o| o.is_loss());
    Ok((1..=upto as u32)
        .map(|z| {
            let v = g.index_of(&McState::Heap(z)).expect("every heap is a root");
            let m = g.successors(v);
            match (wins(m[0]), wins(m[1])) {
                (true, true) => '+',
                (true, false) => 'a',
                (false, true) => 'b',
                (false, false) => '−',
            }
        })
        .collect())
}

/// n* of Table 2.14: the smallest heap ≤ `limit` where MC(∞) (exact rational
/// random-play values, exact ties) proposes a losing move in a winning position,
/// with whether that error is strict; `None` if there is none up to `limit`.
pub fn first_infinity_error(a: i64, b: i64, limit: i64) -> Result<Option<(u32, bool)>> {
    use crate::graph::mc_agents::McSolver;
    use num_rational::BigRational;
    let game = subtraction(a, b, limit)?;
    let solver: McSolver<_, BigRational> = McSolver::new(&game.graph)?;
    Ok(solver
        .infinity_errors()
        .into_iter()
        .filter_map(|e| match game.graph.state(e.state) {
            McState::Heap(z) => Some((*z, e.strict)),
            _ => None,
        })
        .min())
}

/// Example 2.2 (§2.4.1): L = C(n+m, m) positions per player (sorted m-tuples
/// over 0..=n) and the number of "admissible" pairs (A, B) with
/// sum(A) − sum(B) ∈ {0, 1} (the starter has made as many moves or one more).
pub fn esr_position_counts(n: usize, m: usize) -> (u64, u64) {
    // ways[k][s]: sorted k-tuples over 0..=n with sum s, by the largest value allowed.
    let max_sum = n * m;
    let mut ways = vec![vec![0u64; max_sum + 1]; m + 1];
    ways[0][0] = 1;
    for v in 0..=n {
        // Allow any number of entries equal to v (tuples built in increasing order).
        for k in 1..=m {
            for s in v..=max_sum {
                ways[k][s] += ways[k - 1][s - v];
            }
        }
    }
    let by_sum = &ways[m];
    let l = by_sum.iter().sum();
    let admissible = (0..=max_sum).map(|s| by_sum[s] * (by_sum[s] + if s > 0 { by_sum[s - 1] } else { 0 })).sum();
    (l, admissible)
}
