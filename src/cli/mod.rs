//! The command line: argument types and dispatch. One file per subcommand;
//! each calls library functions and prints (the library never prints).

pub(crate) mod allocator;
mod analyze;
mod beams;
mod bridg_it;
mod curve;
mod curve_stream;
mod files;
mod gtp;
mod mc;
mod memory_guard;
mod merge;
mod perfect;
mod play;
mod progress;
mod reproduce;
pub(crate) mod signals;
mod solve;
mod solve_hex;
mod sweep;
mod variants;
mod verify;

use analyze::*;
use beams::*;
use clap::{Args, Parser, Subcommand, ValueEnum};
use merge::*;
use perfect::*;
use progress::{progress, progress_if};
use rayon::prelude::*;
use renyi_search::renyi::alpha::Alpha;
use renyi_search::error::{Result, invalid};
use renyi_search::games::GameSpec;
use renyi_search::games::beams::Variant;
use renyi_search::games::beams::game::{Beams, Penalty, QueryOrder};
use renyi_search::games::beams::geometry::Board;
use renyi_search::games::beams::patterns::{CacheStatus, cache_path, load_or_build, placements};
use renyi_search::games::beams::polyhex::pieces_in_rhombus;
use renyi_search::games::beams::rule::BeamsRule;
use renyi_search::games::bulls_and_cows::BullsAndCows;
use renyi_search::games::mastermind::Mastermind;
use renyi_search::models::free::{FreeSearch, perfect_total_closed};
use renyi_search::models::wurzel::{self, Wurzel};
use renyi_search::models::{SizeModel, strategy_totals};
use renyi_search::output::{csv_text, write_atomic, write_json};
use renyi_search::search::outcome::{exact_f64, exact_string};
use renyi_search::search::tree::{self, Replay, StrategyFile};
use renyi_search::search::units::{RunHeader, Shard, ShardFile, UnitRun, merge_named, run_units, write_shard};
use renyi_search::search::{Analysis, RunOptions, Strategy, TieBreak, TieRule, analyze};
use renyi_search::sweep::{alpha_grid, sweep};
use reproduce::*;
use std::path::PathBuf;
use sweep::*;
use variants::*;
use verify::*;

#[derive(Parser)]
#[command(name = "renyi-search", version, about = "Exact analysis of deduction games under Rényi-entropy strategies")]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Memory budget in GiB: jobs estimated to need more are refused before
    /// they allocate (default: three quarters of the machine's memory, at most nine tenths of what is free at the start).
    #[arg(long, global = true, value_name = "GIB", allow_hyphen_values = true)]
    max_memory: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Exact analysis of one H_α strategy over all secret codes.
    Analyze {
        #[command(subcommand)]
        game: Game,
    },
    /// The same analysis for a grid of α values; writes CSV.
    Sweep {
        #[command(subcommand)]
        game: Game,
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
        game: curve::CurveGame,
    },
    /// Game-graph solver: chess endgames, Nim, heap games, Chomp, Cram, Poker-Nim, Monte-Carlo agents.
    Solve {
        #[command(subcommand)]
        game: solve::SolveGame,
    },
    /// Recompute published tables into results/ (all implemented ones by default).
    Reproduce {
        /// Tables: table-4.5, table-4.18, table-4.15 (with the Wurzel and free-search curves), table-4.10, perfect, chess, nim, curves (the exact α-curves and their figures), mc-agents, bridg-it (thesis ch. 5: self-play M ≤ 10, --full adds M ≤ 20 in its own files), hex (Hex opening maps 1x1 to 4x4 and the checks of seed 004), or all.
        #[arg(default_value = "all")]
        targets: Vec<String>,
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
enum PlayGame {
    /// Beams (3c6p, 6c3p, 6c6p).
    Beams {
        #[command(flatten)]
        agent: play::AgentArgs,
        /// Play against this secret: cell colours in board order (36 digits for 6c6p),
        /// or `random` / `random:SEED` for a random code.
        #[arg(long)]
        secret: Option<String>,
    },
}

#[derive(Subcommand)]
enum SimulateGame {
    /// Beams (3c6p, 6c3p, 6c6p).
    Beams {
        #[command(flatten)]
        agent: play::AgentArgs,
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
enum PerfectGame {
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
enum BeamsCommand {
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

#[derive(Args)]
struct BeamsArgs {
    /// Variant: 3c6p, 6c3p, 6c6p (6c6p: ≈ 1–2 h per α for LEX on 2 cores; use
    /// --checkpoint to make the run resumable and --shard to split it).
    variant: String,
    /// Rényi order: 0, 1, 2, inf, 1.5, 3/2 …
    #[arg(long, default_value = "1", allow_hyphen_values = true)]
    alpha: String,
    /// Tie rule: lex-c (colour, diagonal), lex-d (diagonal, colour), mix (uniform over all
    /// tied queries), mix-reduced (uniform over asked colours + one new colour).
    #[arg(long, default_value = "lex-c", value_parser = beams_rule())]
    tie: BeamsRule,
    /// Penalty for a set left undecided: best (best code laid), random (random code of M), none.
    #[arg(long, value_enum, default_value_t = BeamsPenalty::Best)]
    penalty: BeamsPenalty,
    /// Cache directory for pattern tables.
    #[arg(long, default_value = "codes")]
    codes: PathBuf,
    /// Work-unit mode (LEX): evaluate only units i ≡ I (mod N) of the tree cut below
    /// its first --levels queries; writes a shard file (--out) for `merge`.
    #[arg(long)]
    shard: Option<String>,
    /// Work-unit mode: append each finished unit to this file and skip the units
    /// it already holds (resume after a kill).
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Work-unit mode: depth of the cut (units are the subtrees below it).
    #[arg(long, default_value_t = 2)]
    levels: usize,
    /// Recheck mode: evaluate the --units of this run file (checkpoint .jsonl or
    /// run .json of the same α and tie rule) again and compare them exactly
    /// with their records; a non-zero exit code if one differs.
    #[arg(long)]
    recheck: Option<PathBuf>,
    /// Recheck mode: the unit numbers, comma-separated (e.g. 3,17,250).
    #[arg(long, value_delimiter = ',')]
    units: Vec<u64>,
    /// Recheck mode and --after: walk the plain tree, without merging equivalent nodes or symmetric tied queries.
    #[arg(long)]
    no_merge: bool,
    /// Analyse only the codes that give these answers, as QUERY:ANSWER steps asked in
    /// turn from the root (numbers as in a run file's unit `queries` and `path`,
    /// e.g. 3:5,31:23); the strategy plays on from there.
    #[arg(long, value_delimiter = ',')]
    after: Vec<String>,
    /// GiB that the MIX memos (transpositions of tied queries) may hold together.
    /// Results do not depend on it; MIX under H_0 and H_∞, with many ties, runs
    /// faster with more. Peak memory is about the code table plus this plus the
    /// sets being split.
    #[arg(long, default_value_t = 1.0)]
    memo_gib: f64,
    #[command(flatten)]
    output: OutputArgs,
}

/// Where and how a result is written.
#[derive(Args)]
struct OutputArgs {
    /// Write the result to this file (JSON for analyze, CSV for sweep) instead of stdout.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print JSON instead of a summary (analyze).
    #[arg(long)]
    json: bool,
    /// Show a progress bar.
    #[arg(long)]
    progress: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum BeamsPenalty {
    Best,
    Random,
    None,
}

#[derive(Subcommand)]
enum Game {
    /// Mastermind MM(p,c).
    Mastermind(MastermindArgs),
    /// Bulls and Cows: D distinct digits of N, answered by bulls and cows.
    BullsAndCows(BullsAndCowsArgs),
    /// Free search problem of query width a (CSV: m, perfect total, H_α total).
    Free(SizeArgs),
    /// Wurzel model, budget ⌈√|C|⌉ (CSV: n, perfect total, H_α total).
    Wurzel(SizeArgs),
    /// Beams(c colours, p cells per piece).
    Beams(BeamsArgs),
}

#[derive(Args)]
struct SizeArgs {
    /// Query width a (free search only).
    #[arg(long, default_value_t = 2)]
    width: u64,
    /// Largest set size (analyze: every size 1..=upto).
    #[arg(long, default_value_t = 1000)]
    upto: u64,
    /// Set size for sweep (default: --upto).
    #[arg(long)]
    size: Option<u64>,
    #[command(flatten)]
    strategy: StrategyArgs,
}

#[derive(Args)]
pub(crate) struct StrategyArgs {
    /// Rényi order: 0, 1, 2, inf, 1.5, 3/2 … (sweep: from:to:step, e.g. 0.02:6:0.02).
    #[arg(long, default_value = "1", allow_hyphen_values = true)]
    alpha: String,
    #[command(flatten)]
    ties: TieArgs,
    #[command(flatten)]
    output: OutputArgs,
}

/// The tie rule of Mastermind and the size models, the same flags for
/// `analyze`, `sweep` and `curve`.
#[derive(Args, Clone, Copy)]
pub(crate) struct TieArgs {
    /// Tie rule.
    #[arg(long, value_enum, default_value_t = Tie::Lex)]
    tie: Tie,
    /// MIX: choose uniformly among symmetry classes of tied first queries (thesis H_0-MIX convention).
    #[arg(long)]
    root_classes: bool,
    /// Treat all tied queries alike (do not prefer queries that are possible secrets).
    #[arg(long)]
    all_ties: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Tie {
    Lex,
    Mix,
}

impl TieArgs {
    fn rule(&self) -> TieRule {
        let kind = match self.tie {
            Tie::Lex => TieBreak::Lex,
            Tie::Mix => TieBreak::Mix,
        };
        TieRule { kind, possible_secrets_first: !self.all_ties, root_by_class: self.root_classes }
    }
}

impl StrategyArgs {
    fn tie_rule(&self) -> TieRule {
        self.ties.rule()
    }
}

/// `--tie` of the Beams commands: the names of [`BeamsRule::ALL`] (listed in
/// `--help` and in clap's error), parsed once into the library's value.
fn beams_rule() -> impl clap::builder::TypedValueParser<Value = BeamsRule> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(BeamsRule::ALL.map(BeamsRule::slug)).try_map(|s| s.parse::<BeamsRule>())
}

/// A command-line error of clap on one line: its message and hints (possible
/// values, a similar value, the usage) joined, without the blank lines and the
/// "For more information" footer.
pub(crate) fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("For more information"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Output into a closed pipe (`… | head`) ends the program quietly, as other
/// command-line tools do, instead of a "Broken pipe" panic.
#[cfg(unix)]
pub(crate) fn quiet_on_closed_pipe() {
    unsafe extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    // SAFETY: resetting SIGPIPE to its default action before any thread starts.
    unsafe {
        signal(SIGPIPE, SIG_DFL);
    }
}

#[cfg(not(unix))]
pub(crate) fn quiet_on_closed_pipe() {}

pub(crate) fn run(cli: Cli) -> Result<()> {
    if let Some(text) = &cli.max_memory {
        let bytes = memory_guard::budget_from_gib(text)?;
        renyi_search::memory::set_budget_given(bytes, format!("--max-memory {text}"));
    }
    files::check_files(&cli.command)?;
    // Cram and Chomp hold their game graphs to the budget themselves and say
    // which table did not fit (`solve cram 6x6`); every other job, chess
    // endgame tables included, is watched.
    if !matches!(cli.command, Command::Solve { game: solve::SolveGame::Cram { .. } | solve::SolveGame::Chomp { .. } }) {
        memory_guard::guard_command(memory_guard::job_name(&cli.command).to_string());
    }
    match cli.command {
        Command::Analyze { game: Game::Mastermind(m) } => {
            let alpha: Alpha = m.strategy.alpha.parse()?;
            let mm = m.variant.build()?;
            memory_guard::guard_memory(format!("the analysis of {}", renyi_search::search::SearchProblem::name(&mm)));
            let result = analyze(
                &mm,
                Strategy::new(alpha, m.strategy.tie_rule()),
                RunOptions::with_progress(progress_if(m.strategy.output.progress)),
            );
            emit_analysis(&result, &m.strategy)
        }
        Command::Analyze { game: Game::BullsAndCows(b) } => {
            let alpha: Alpha = b.strategy.alpha.parse()?;
            let result = analyze(
                &b.variant.build()?,
                Strategy::new(alpha, b.strategy.tie_rule()),
                RunOptions::with_progress(progress_if(b.strategy.output.progress)),
            );
            emit_analysis(&result, &b.strategy)
        }
        Command::Analyze { game: Game::Free(a) } => {
            size_model_csv(&FreeSearch::new(a.width)?, &a, |m| perfect_total_closed(a.width, m))
        }
        Command::Analyze { game: Game::Wurzel(a) } => {
            let perfect = wurzel::perfect_totals(checked_size(a.upto)?);
            size_model_csv(&Wurzel, &a, |n| perfect[n as usize])
        }
        Command::Analyze { game: Game::Beams(b) } => analyze_beams(&b),
        Command::Sweep { game: Game::Beams(b) } => beams_sweep(&b),
        Command::Beams { what: BeamsCommand::Info { variant, codes } } => beams_info(&variant, &codes),
        Command::Beams { what: BeamsCommand::Count { variant, border_rule, progress } } => {
            beams_count(&variant, border_rule, progress)
        }
        Command::Sweep { game: Game::Free(a) } => size_model_sweep(&FreeSearch::new(a.width)?, &a),
        Command::Sweep { game: Game::Wurzel(a) } => size_model_sweep(&Wurzel, &a),
        Command::Sweep { game: Game::Mastermind(m) } => game_sweep(&m.variant.build()?, &m.strategy),
        Command::Sweep { game: Game::BullsAndCows(b) } => game_sweep(&b.variant.build()?, &b.strategy),
        Command::Perfect { game: PerfectGame::Mastermind(v), options } => {
            let spec = GameSpec::Mastermind { pegs: v.pegs, colors: v.colors, distinct: v.distinct };
            perfect_and_export(&v.build()?, spec, &options)
        }
        Command::Perfect { game: PerfectGame::BullsAndCows(v), options } => {
            perfect_and_export(&v.build()?, v.spec(), &options)
        }
        Command::Perfect { game: PerfectGame::Beams { variant, codes }, options } => {
            if options.possible_only {
                return Err(invalid(
                    "perfect beams --possible-only: Beams' queries (a colour on a diagonal) are never codes, so hard mode does not apply",
                ));
            }
            let v: Variant = variant.parse()?;
            let (patterns, _) = load_or_build(v, Some(&codes))?;
            let g = Beams::new(patterns, QueryOrder::ColourFirst, Penalty::BestGuess)?;
            perfect_and_export(&g, GameSpec::Beams { variant: v.to_string(), order: "lex-c".into() }, &options)
        }
        Command::Verify { hex: Some(path), .. } => solve_hex::verify(&path),
        Command::Verify { file, certificate, hex: None } => verify_command(file.as_deref(), certificate.as_deref()),
        Command::Gtp { size, budget } => gtp::run(size, budget),
        Command::Merge { files, out } => merge_files(&files, out.as_deref()),
        Command::Play { game: PlayGame::Beams { agent, secret } } => play::play(&agent, secret.as_deref()),
        Command::Simulate { game: SimulateGame::Beams { agent, n, seed, out } } => {
            play::run_simulation(&agent, n, seed, out.as_deref())
        }
        Command::Solve { game } => solve::run(game),
        Command::Curve { game } => curve::run(game),
        Command::Reproduce { targets, results, codes, full, full_report } => {
            reproduce(&targets, &results, &codes, full, full_report)
        }
    }
}

/// Largest set size accepted for the size models.
const MAX_SIZE: u64 = 20_000_000;

fn checked_size(n: u64) -> Result<u64> {
    match n {
        0 => Err(invalid("set sizes start at 1; got 0")),
        n if n > MAX_SIZE => Err(invalid(format!("set size {n} is above the supported {MAX_SIZE}"))),
        n => Ok(n),
    }
}

/// A CSV (header row first) to `out` or stdout; with `out`, what it holds
/// (`about`) and what produced it go to the sidecar `<out>.json` beside it,
/// so that the CSV itself opens in any reader (issue 49 item 8).
fn emit_csv(csv: &str, about: String, out: &Option<PathBuf>) -> Result<()> {
    if let Some(path) = out {
        #[derive(serde::Serialize)]
        struct Sidecar {
            about: String,
            provenance: renyi_search::output::Provenance,
        }
        let provenance = renyi_search::output::Provenance::stable(curve::command_line(), 0.0);
        let mut sidecar = path.clone().into_os_string();
        sidecar.push(".json");
        write_json(std::path::Path::new(&sidecar), &Sidecar { about, provenance })?;
    }
    emit_text(csv, out)
}

fn emit_text(text: &str, out: &Option<PathBuf>) -> Result<()> {
    match out {
        Some(path) => write_atomic(path, text.as_bytes()),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}
