//! Playing a strategy one game at a time: the agent that proposes queries and
//! takes answers (`play`), and the Monte-Carlo check of thesis §4.4.5
//! (`simulate`: random secrets, exact play, mean / variance / 2σ interval).
//!
//! Decisions near the root are the expensive ones and repeat across games, so
//! they are kept in an opening book keyed by the (query, answer) path.

use super::problem::{AnswerId, CodeId, QueryId, SearchProblem};
use super::strategy::{Strategy, TieBreak, decide};
use super::tree::Replay;
use dashmap::DashMap;
use num_traits::ToPrimitive;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// A game under way: the node of the strategy tree reached so far.
pub struct Game<'a, P: SearchProblem> {
    problem: &'a P,
    strategy: Strategy,
    /// The (query, answer) pairs so far.
    pub path: Vec<(QueryId, AnswerId)>,
    pub state: P::State,
    /// The codes still possible: borrowed at the start (the set of all codes
    /// can be built once for many games), owned after the first answer.
    pub set: Cow<'a, P::Set>,
}

/// Decisions already made, by path: the queries the tie rule plays there, with weights.
pub type OpeningBook = DashMap<Vec<(QueryId, AnswerId)>, Vec<(u64, QueryId)>>;

/// Depth up to which decisions are remembered in the opening book.
const BOOK_DEPTH: usize = 3;

impl<'a, P: SearchProblem> Game<'a, P> {
    /// A new game over all codes.
    pub fn new(problem: &'a P, strategy: Strategy) -> Game<'a, P> {
        Game {
            problem,
            strategy,
            path: Vec::new(),
            state: problem.initial_state(),
            set: Cow::Owned(problem.full_set()),
        }
    }

    /// A new game over `all`, the set of all codes, which it borrows.
    pub fn over(problem: &'a P, strategy: Strategy, all: &'a P::Set) -> Game<'a, P> {
        Game { problem, strategy, path: Vec::new(), state: problem.initial_state(), set: Cow::Borrowed(all) }
    }

    /// The queries the strategy plays now, with MIX weights (one for LEX); empty
    /// when no query splits the remaining codes (the game is over).
    pub fn candidates(&self, book: &OpeningBook) -> Vec<(u64, QueryId)> {
        if self.problem.set_size(&self.set) <= 1 {
            return Vec::new();
        }
        if let Some(hit) = book.get(&self.path) {
            return hit.clone();
        }
        let chosen = decide(self.problem, &self.strategy, &self.state, &self.set);
        if self.path.len() < BOOK_DEPTH {
            book.insert(self.path.clone(), chosen.clone());
        }
        chosen
    }

    /// Whether `answer` to `query` is possible for some remaining code.
    pub fn possible(&self, query: QueryId, answer: AnswerId) -> bool {
        let mut counts = vec![0u64; self.problem.answer_count()];
        self.problem.count_answers(query, &self.set, &mut counts);
        counts.get(answer as usize).is_some_and(|&c| c > 0)
    }

    /// Keeps the codes that answer `answer` to `query` (which must be possible).
    pub fn answer(&mut self, query: QueryId, answer: AnswerId) {
        self.set = Cow::Owned(self.problem.restrict(query, answer, &self.set));
        self.state = self.problem.next_state(&self.state, query);
        self.path.push((query, answer));
    }

    /// Codes still possible.
    pub fn remaining(&self) -> u64 {
        self.problem.set_size(&self.set)
    }
}

/// Summary of a Monte-Carlo run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Simulation {
    pub games: u64,
    pub seed: u64,
    /// Mean number of queries plus penalty points per game.
    pub mean: f64,
    pub variance: f64,
    /// mean ± 2σ/√n.
    pub interval: (f64, f64),
    /// Games by number of queries.
    pub queries_histogram: BTreeMap<u32, u64>,
    /// Games by penalty points (wrong cells of the laid code).
    pub penalty_histogram: BTreeMap<u64, u64>,
    pub seconds: f64,
}

/// A small deterministic generator (splitmix64), so that a seed reproduces a run.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n (n > 0), without modulo bias worth mentioning for n < 2^40.
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
}

/// Plays one game against `secret`; returns (queries, penalty points).
pub fn play_out<P: Replay>(
    problem: &P,
    strategy: Strategy,
    book: &OpeningBook,
    secret: CodeId,
    rng: &mut Rng,
) -> (u32, u64) {
    play_out_from(problem, strategy, book, &problem.full_set(), secret, rng)
}

/// [`play_out`] with the set of all codes given (built once for many games):
/// the first answer restricts it directly, without a copy.
pub fn play_out_from<P: Replay>(
    problem: &P,
    strategy: Strategy,
    book: &OpeningBook,
    all: &P::Set,
    secret: CodeId,
    rng: &mut Rng,
) -> (u32, u64) {
    let mut game = Game::over(problem, strategy, all);
    loop {
        let candidates = game.candidates(book);
        if candidates.is_empty() {
            break;
        }
        let query = pick(&candidates, strategy, rng);
        let answer = problem.replay_answer(query, secret);
        if Some(answer) == problem.solving_answer(query) {
            return (game.path.len() as u32 + 1, 0);
        }
        game.answer(query, answer);
    }
    let terminal = problem.terminal_for(&game.set, secret);
    (game.path.len() as u32 + terminal.0, terminal.1)
}

fn pick(candidates: &[(u64, QueryId)], strategy: Strategy, rng: &mut Rng) -> QueryId {
    if strategy.tie.kind == TieBreak::Lex || candidates.len() == 1 {
        return candidates[0].1;
    }
    let total: u64 = candidates.iter().map(|c| c.0).sum();
    let mut r = rng.below(total);
    for &(w, q) in candidates {
        if r < w {
            return q;
        }
        r -= w;
    }
    candidates[candidates.len() - 1].1
}

/// `games` games against uniformly random secrets (seeded), played exactly by
/// the strategy; `progress` counts the games played.
pub fn simulate<P: Replay>(
    problem: &P,
    strategy: Strategy,
    games: u64,
    seed: u64,
    progress: &crate::progress::Progress,
) -> Simulation {
    use rayon::prelude::*;
    let started = std::time::Instant::now();
    let book = OpeningBook::new();
    let codes = problem.code_count() as u64;
    // Warm the root decision once, then play in parallel; game i uses its own stream.
    let all = problem.full_set();
    Game::over(problem, strategy, &all).candidates(&book);
    progress.begin("games", Some(games));
    // Streamed into histograms (memory independent of the number of games;
    // collecting every result used to overflow the allocation for huge --n).
    type Tally = (BTreeMap<u32, u64>, BTreeMap<u64, u64>, BTreeMap<u64, u64>);
    let merge = |mut a: Tally, b: Tally| {
        for (k, v) in b.0 {
            *a.0.entry(k).or_default() += v;
        }
        for (k, v) in b.1 {
            *a.1.entry(k).or_default() += v;
        }
        for (k, v) in b.2 {
            *a.2.entry(k).or_default() += v;
        }
        a
    };
    let (queries_histogram, penalty_histogram, values): Tally = (0..games)
        .into_par_iter()
        .fold(Tally::default, |mut t, i| {
            let mut rng = Rng::new(seed ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03));
            let secret = rng.below(codes) as CodeId;
            let (q, p) = play_out_from(problem, strategy, &book, &all, secret, &mut rng);
            progress.advance(1);
            *t.0.entry(q).or_default() += 1;
            *t.1.entry(p).or_default() += 1;
            *t.2.entry(q as u64 + p).or_default() += 1;
            t
        })
        .reduce(Tally::default, merge);
    progress.end();
    let n = games as f64;
    let mean = values.iter().map(|(&v, &c)| v as f64 * c as f64).sum::<f64>() / n;
    let variance = values.iter().map(|(&v, &c)| c as f64 * (v as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 2.0 * (variance / n).sqrt();
    Simulation {
        games,
        seed,
        mean,
        variance,
        interval: (mean - half, mean + half),
        queries_histogram,
        penalty_histogram,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// Exact expected penalty of a terminal set as a float (for reports).
pub fn expected_penalty<P: SearchProblem>(problem: &P, set: &P::Set) -> f64 {
    let t = problem.terminal(set);
    t.penalty_total.to_f64().unwrap_or(f64::NAN) / problem.set_size(set) as f64
}
