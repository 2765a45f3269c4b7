//! The generic search-problem core: problems, strategies, exact analysis.
//! Every deduction game (Mastermind, Beams, …) plugs in through
//! [`problem::SearchProblem`] (its [`Rules`], [`Presentation`] and optional
//! capabilities); there is one analysis loop for all of them.

pub mod analysis;
pub mod bounds;
pub mod capabilities;
pub mod checkpoint;
pub mod delegate;
pub mod fasthash;
pub mod leaf;
pub mod memo;
pub mod outcome;
pub mod perfect;
pub mod play;
pub mod problem;
pub mod recheck;
pub mod run_file;
pub mod shard_file;
pub mod strategy;
pub mod strategy_file;
pub mod subproblem;
pub mod tree;
pub mod units;

pub use analysis::{Analysis, RunOptions, analyze};
pub use capabilities::{MemoKeys, SpeedHooks, Symmetry, TiePreference};
pub use delegate::{Delegate, SameRules};
pub use outcome::{Exact, Outcome};
pub use problem::{AnswerId, CodeId, Presentation, QueryId, Rules, SearchProblem, Terminal};
pub use strategy::{Strategy, TieBreak, TieRule};
