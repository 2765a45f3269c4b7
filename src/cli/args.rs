//! The command line's arguments: the commands and their options (clap
//! derive types). What each command does is in its own file.

use super::beams_args::{BeamsArgs, SweepBeamsArgs};
use super::common_args::StrategyArgs;
use super::curve_args::CurveGame;
use super::play::AgentArgs;
use super::reproduce::TargetArg;
use super::solve::SolveGame;
use super::variants::{BullsAndCowsArgs, BullsAndCowsVariant, MastermindArgs, MastermindVariant};
use clap::{Args, Parser, Subcommand, ValueEnum};
use renyi_search::error::{Result, invalid};
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "renyi-search", version, about = "Exact analysis of deduction games under Rényi-entropy strategies")]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
    /// Memory budget in GiB: jobs estimated to need more are refused before
    /// they allocate (default: three quarters of the machine's memory, at most
    /// nine tenths of what is free at the start).
    #[arg(long, global = true, value_name = "GIB", allow_hyphen_values = true)]
    pub(crate) max_memory: Option<String>,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Exact analysis of one H_α strategy over all secret codes.
    Analyze {
        #[command(subcommand)]
        game: Game<BeamsArgs>,
    },
    /// The same analysis for a grid of α values; writes CSV.
    Sweep {
        #[command(subcommand)]
        game: Game<SweepBeamsArgs>,
    },
    /// Perfect strategy by branch-and-bound (exact minimum total over all codes).
    Perfect {
        #[command(subcommand)]
        game: PerfectGame,
        #[command(flatten)]
        options: PerfectOptions,
    },
    /// Play Beams with the strategy: it proposes queries and reads the hit cells
    /// (or plays against --secret), then lays the code.
    Play {
        #[command(subcommand)]
        game: PlayGame,
    },
    /// Monte-Carlo check: random secrets played by the strategy; mean, variance, 2σ interval.
    Simulate {
        #[command(subcommand)]
        game: SimulateGame,
    },
    /// Add the shard files of a work-unit run exactly (checks they cover every unit once).
    Merge {
        /// Shard files written by `analyze beams … --shard i/N --out FILE`.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write the merged result as JSON to this file.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Replay every secret code through a strategy file and recompute its total
    /// (an upper bound); check an optimality certificate (a lower bound).
    Verify {
        /// A strategy file written by `perfect --tree`.
        file: Option<PathBuf>,
        /// A certificate written by `perfect --certificate`: its lower bound is
        /// checked independently of the search, and compared with the tree's total.
        #[arg(long)]
        certificate: Option<PathBuf>,
        /// A Hex proof written by `solve hex --proof`, replayed by the independent checker.
        #[arg(long, conflicts_with_all = ["file", "certificate"])]
        hex: Option<PathBuf>,
    },
    /// Hex engine on stdin/stdout (GTP: boardsize, play, genmove, dfpn-solve-state, …).
    Gtp {
        /// Initial board size (change with `boardsize`).
        #[arg(long, default_value_t = 5)]
        size: usize,
        /// Searched positions per genmove / dfpn-solve-state before giving up.
        #[arg(long, default_value_t = 2_000_000)]
        budget: u64,
    },
    /// Beams: board, pieces, patterns and code counts of a variant.
    Beams {
        #[command(subcommand)]
        what: BeamsCommand,
    },
    /// Exact expected search length as a function of α: every interval, every
    /// certified breakpoint, α = 0 and α = ∞ (see docs/curves.md).
    Curve {
        #[command(subcommand)]
        game: CurveGame,
    },
    /// Game-graph solver: chess endgames, Nim, heap games, Chomp, Cram, Poker-Nim, Monte-Carlo agents.
    Solve {
        #[command(subcommand)]
        game: SolveGame,
    },
    /// Recompute published tables into results/ (all implemented ones by default).
    Reproduce {
        /// Tables to recompute, each once (default: all). table-4.15 comes with the Wurzel and free-search
        /// curves; curves: the exact α-curves and their figures; bridg-it: thesis ch. 5, self-play M ≤ 10
        /// (--full adds M ≤ 20 in its own files); hex: opening maps 1x1 to 5x5
        /// (6x6 replayed from its sealed map; --full solves it) and the checks of seed 004; hex-7x7, hex-8x8
        /// (only when named): the large opening maps, with --full a resumable job of hours; hex-witness (only when
        /// named): the smallest witnesses of HEX ∖ HEXY (seed 004 §9.16), with --full a resumable search.
        #[arg(value_enum, default_value = "all")]
        targets: Vec<TargetArg>,
        /// Output directory.
        #[arg(long, default_value = "results")]
        results: PathBuf,
        /// Cache directory for code tables.
        #[arg(long, default_value = "codes")]
        codes: PathBuf,
        /// With table-4.10: also the exact Beams(6c,6p) cells, LEX and MIX (hours per cell;
        /// resumable: checkpoints under <results>/runs/beams-6c6p/).
        #[arg(long)]
        full: bool,
        /// With table-4.10: report the Beams(6c,6p) cells whose runs are finished,
        /// without starting the others (and without recomputing 3c6p/6c3p).
        #[arg(long)]
        full_report: bool,
    },
}

#[derive(Subcommand)]
pub(crate) enum PlayGame {
    /// Beams (3c6p, 6c3p, 6c6p).
    Beams {
        #[command(flatten)]
        agent: AgentArgs,
        /// Play against this secret: cell colours in board order (36 digits for 6c6p),
        /// or `random` / `random:SEED` for a random code.
        #[arg(long)]
        secret: Option<String>,
    },
}

#[derive(Subcommand)]
pub(crate) enum SimulateGame {
    /// Beams (3c6p, 6c3p, 6c6p).
    Beams {
        #[command(flatten)]
        agent: AgentArgs,
        /// Number of games.
        #[arg(long, default_value_t = 5000)]
        n: u64,
        /// Random seed (the same seed reproduces the run).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write the result (with provenance) as JSON to this file.
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
pub(crate) enum PerfectGame {
    /// Mastermind MM(p,c).
    Mastermind(MastermindVariant),
    /// Bulls and Cows (distinct digits; answers: bulls and cows).
    BullsAndCows(BullsAndCowsVariant),
    /// Beams (3c6p or 6c3p; best-guess penalty).
    Beams {
        variant: String,
        #[arg(long, default_value = "codes")]
        codes: PathBuf,
    },
}

#[derive(Subcommand)]
pub(crate) enum BeamsCommand {
    /// Pieces, placements, patterns, codes and diagonals of a variant (3c6p, 6c3p, 6c6p, 6c10p).
    Info {
        variant: String,
        /// Cache directory for pattern tables.
        #[arg(long, default_value = "codes")]
        codes: PathBuf,
    },
    /// Patterns and codes of a variant counted by frontier states, without a table
    /// (any <c>c<p>p on the boards of edge 2-5, e.g. 4c9p, 3c12p, 2c18p, 6c10p).
    Count {
        variant: String,
        /// Count only patterns whose every piece owns a cell of the outer ring
        /// (the expert version's border-contact rule, thesis §4.4.2).
        #[arg(long)]
        border_rule: bool,
        /// The number of live states after each cell, on stderr.
        #[arg(long)]
        progress: bool,
    },
}

/// The games of `analyze` and `sweep`; `B` is the Beams arguments of the command.
#[derive(Subcommand)]
pub(crate) enum Game<B: Args> {
    /// Mastermind MM(p,c).
    Mastermind(MastermindArgs),
    /// Bulls and Cows: D distinct digits of N, answered by bulls and cows.
    BullsAndCows(BullsAndCowsArgs),
    /// Free search problem of query width a (CSV: m, perfect total, H_α total).
    Free(SizeArgs),
    /// Wurzel model, budget ⌈√|C|⌉ (CSV: n, perfect total, H_α total).
    Wurzel(SizeArgs),
    /// Beams(c colours, p cells per piece).
    Beams(B),
}

#[derive(Args)]
pub(crate) struct SizeArgs {
    /// Query width a (free search only).
    #[arg(long, default_value_t = 2)]
    pub(crate) width: u64,
    /// Largest set size (analyze: every size 1..=upto).
    #[arg(long, default_value_t = 1000)]
    pub(crate) upto: u64,
    /// Set size for sweep (default: --upto).
    #[arg(long)]
    pub(crate) size: Option<u64>,
    #[command(flatten)]
    pub(crate) strategy: StrategyArgs,
}

/// Largest set size accepted for the size models.
const MAX_SIZE: u64 = 20_000_000;

pub(crate) fn checked_size(n: u64) -> Result<u64> {
    match n {
        0 => Err(invalid("set sizes start at 1; got 0")),
        n if n > MAX_SIZE => Err(invalid(format!("set size {n} is above the supported {MAX_SIZE}"))),
        n => Ok(n),
    }
}

/// Options of `perfect` (for every game).
#[derive(Args)]
pub(crate) struct PerfectOptions {
    /// Write the optimal strategy tree as JSON to this file (sealed with CRC-32s; `verify` reads it).
    #[arg(long, global = true)]
    pub(crate) tree: Option<PathBuf>,
    /// Write an optimality certificate (the lower bound, checked by `verify --certificate`) to this file.
    #[arg(long, global = true)]
    pub(crate) certificate: Option<PathBuf>,
    /// Every code must be found within this many queries (the least total subject to that).
    #[arg(long, global = true)]
    pub(crate) max_depth: Option<u32>,
    /// What to minimise: the total; the worst case, then the total; the total, then the worst case.
    #[arg(long, global = true, value_enum, default_value_t = ObjectiveArg::Total)]
    pub(crate) objective: ObjectiveArg,
    /// Hard mode: ask only codes that are still possible secrets (Mastermind, Bulls and Cows).
    #[arg(long, global = true)]
    pub(crate) possible_only: bool,
    /// Key the transposition table by 128-bit fingerprints of the nodes (far less memory for large code
    /// sets); the optimum then rests on its certificate, so this needs --certificate.
    #[arg(long, global = true)]
    pub(crate) fingerprint_table: bool,
    /// Prove a lower bound only, without a search: expand the game tree this many queries deep (bounds
    /// below) and write the proof as a certificate (needs --certificate); for games out of the search's reach.
    #[arg(long, global = true)]
    pub(crate) depth_bound: Option<u32>,
    /// With --depth-bound: keep each proved class below a root query and each finished query of the
    /// root in this file (locked while the run appends) and, when run again, prove only the rest;
    /// stop the run at any time.
    #[arg(long, global = true)]
    pub(crate) checkpoint: Option<PathBuf>,
    /// Solve only the subtree below these steps, QUERY:ANSWER asked in turn from the root (numbers as
    /// in `analyze beams --after` and the run files, e.g. 3:5,31:23): the least total of its codes,
    /// queries counted from that node.
    #[arg(long, global = true, value_delimiter = ',')]
    pub(crate) after: Vec<String>,
    /// An upper bound from exact subtree optima: play H_ALPHA (LEX) from the root and perfectly below
    /// every node it reaches with at most --leaf-size codes; the strategy's tree is replayed (--tree
    /// writes it).
    #[arg(long, global = true, value_name = "ALPHA")]
    pub(crate) upper_from: Option<String>,
    /// With --upper-from: the largest node solved exactly.
    #[arg(long, global = true, value_name = "CODES")]
    pub(crate) leaf_size: Option<u64>,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum ObjectiveArg {
    Total,
    DepthThenTotal,
    TotalThenDepth,
}
