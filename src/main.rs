//! Command line of renyi-search: a thin layer over the library.

mod curve_cli;
mod play_cli;
mod solve_cli;

/// mimalloc: the analysis allocates many small, short-lived code sets and
/// outcomes; measured faster than the system allocator (see README, Speed).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Args, Parser, Subcommand, ValueEnum};
use rayon::prelude::*;
use renyi_search::alpha::Alpha;
use renyi_search::error::{Result, invalid};
use renyi_search::games::GameSpec;
use renyi_search::games::beams::Variant;
use renyi_search::games::beams::game::{Beams, Penalty, QueryOrder};
use renyi_search::games::beams::geometry::Board;
use renyi_search::games::beams::patterns::{CacheStatus, load_or_build, placements};
use renyi_search::games::beams::polyhex::pieces_in_rhombus;
use renyi_search::games::mastermind::Mastermind;
use renyi_search::models::free::{FreeSearch, perfect_total_closed};
use renyi_search::models::wurzel::{self, Wurzel};
use renyi_search::models::{SizeModel, strategy_totals};
use renyi_search::output::{write_atomic, write_json};
use renyi_search::reproduce::table_4_10::{self, Column};
use renyi_search::reproduce::wurzel_free;
use renyi_search::reproduce::{table_4_5, table_4_18};
use renyi_search::search::outcome::{exact_f64, exact_string};
use renyi_search::search::perfect::solve_perfect_with_progress;
use renyi_search::search::tree::{self, Replay, StrategyFile};
use renyi_search::search::units::{RunHeader, Shard, ShardFile, UnitRun, merge, run_units, write_shard};
use renyi_search::search::{Analysis, RunOptions, Strategy, TieBreak, TieRule, analyze};
use renyi_search::sweep::{alpha_grid, sweep};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "renyi-search", version, about = "Exact analysis of deduction games under Rényi-entropy strategies")]
struct Cli {
    #[command(subcommand)]
    command: Command,
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
        /// Write the optimal strategy tree as JSON to this file.
        #[arg(long, global = true)]
        tree: Option<PathBuf>,
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
    /// Replay every secret code through a strategy file and recompute its total.
    Verify {
        /// A strategy file written by `perfect --tree`.
        file: PathBuf,
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
        game: curve_cli::CurveGame,
    },
    /// Game-graph solver: chess endgames, Nim, heap games, Chomp, Cram, Poker-Nim.
    Solve {
        #[command(subcommand)]
        game: solve_cli::SolveGame,
    },
    /// Recompute published tables into results/ (all implemented ones by default).
    Reproduce {
        /// Tables: table-4.5, table-4.18, table-4.15 (with the Wurzel and free-search curves), table-4.10, perfect, chess, nim, or all.
        #[arg(default_value = "all")]
        targets: Vec<String>,
        /// Output directory.
        #[arg(long, default_value = "results")]
        results: PathBuf,
        /// Cache directory for code tables.
        #[arg(long, default_value = "codes")]
        codes: PathBuf,
        /// With table-4.10: also the exact Beams(6c,6p) cells, LEX and MIX (hours per cell;
        /// resumable: checkpoints under <results>/beams-6c6p-runs/).
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
        agent: play_cli::AgentArgs,
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
        agent: play_cli::AgentArgs,
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
    #[arg(long, value_enum, default_value_t = BeamsTie::LexC)]
    tie: BeamsTie,
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
enum BeamsTie {
    LexC,
    LexD,
    Mix,
    MixReduced,
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

/// Which Mastermind: MM(p,c), with or without repeated colours.
#[derive(Args, Clone, Copy)]
struct MastermindVariant {
    /// Number of pegs p.
    #[arg(long, default_value_t = 4)]
    pegs: usize,
    /// Number of colours c.
    #[arg(long, default_value_t = 6)]
    colors: usize,
    /// Codes without repeated colours (MM-360 for 4 pegs, 6 colours).
    #[arg(long)]
    distinct: bool,
}

impl MastermindVariant {
    fn build(self) -> Result<Mastermind> {
        Mastermind::new(self.pegs, self.colors, self.distinct)
    }
}

#[derive(Args)]
struct MastermindArgs {
    #[command(flatten)]
    variant: MastermindVariant,
    #[command(flatten)]
    strategy: StrategyArgs,
}

#[derive(Args)]
struct StrategyArgs {
    /// Rényi order: 0, 1, 2, inf, 1.5, 3/2 … (sweep: from:to:step, e.g. 0.02:6:0.02).
    #[arg(long, default_value = "1", allow_hyphen_values = true)]
    alpha: String,
    /// Tie rule.
    #[arg(long, value_enum, default_value_t = Tie::Lex)]
    tie: Tie,
    /// MIX: choose uniformly among symmetry classes of tied first queries (thesis H_0-MIX convention).
    #[arg(long)]
    root_classes: bool,
    /// Treat all tied queries alike (do not prefer queries that are possible secrets).
    #[arg(long)]
    all_ties: bool,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Clone, Copy, ValueEnum)]
enum Tie {
    Lex,
    Mix,
}

impl StrategyArgs {
    fn tie_rule(&self) -> TieRule {
        let kind = match self.tie {
            Tie::Lex => TieBreak::Lex,
            Tie::Mix => TieBreak::Mix,
        };
        TieRule { kind, possible_secrets_first: !self.all_ties, root_by_class: self.root_classes }
    }
}

/// Output into a closed pipe (`… | head`) ends the program quietly, as other
/// command-line tools do, instead of a "Broken pipe" panic.
#[cfg(unix)]
fn quiet_on_closed_pipe() {
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
fn quiet_on_closed_pipe() {}

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Analyze { game: Game::Mastermind(m) } => {
            let alpha: Alpha = m.strategy.alpha.parse()?;
            let mm = m.variant.build()?;
            let result = analyze(
                &mm,
                Strategy::new(alpha, m.strategy.tie_rule()),
                RunOptions::with_progress(m.strategy.output.progress),
            );
            emit_analysis(&result, &m.strategy)
        }
        Command::Analyze { game: Game::Free(a) } => {
            size_model_csv(&FreeSearch::new(a.width)?, &a, |m| perfect_total_closed(a.width, m))
        }
        Command::Analyze { game: Game::Wurzel(a) } => {
            let perfect = wurzel::perfect_totals(checked_size(a.upto)?);
            size_model_csv(&Wurzel, &a, |n| perfect[n as usize])
        }
        Command::Analyze { game: Game::Beams(b) } => analyze_beams(&b),
        Command::Sweep { game: Game::Beams(_) } => {
            Err(invalid("sweep beams is not implemented; run analyze beams per α"))
        }
        Command::Beams { what: BeamsCommand::Info { variant, codes } } => beams_info(&variant, &codes),
        Command::Sweep { game: Game::Free(a) } => size_model_sweep(&FreeSearch::new(a.width)?, &a),
        Command::Sweep { game: Game::Wurzel(a) } => size_model_sweep(&Wurzel, &a),
        Command::Sweep { game: Game::Mastermind(m) } => {
            let alphas = alpha_grid(&m.strategy.alpha)?;
            let mm = m.variant.build()?;
            let points = sweep(&mm, &alphas, m.strategy.tie_rule());
            let csv = table_4_18::scan_csv(&points);
            match &m.strategy.output.out {
                Some(path) => write_atomic(path, csv.as_bytes()),
                None => {
                    print!("{csv}");
                    Ok(())
                }
            }
        }
        Command::Perfect { game: PerfectGame::Mastermind(v), tree } => {
            let spec = GameSpec::Mastermind { pegs: v.pegs, colors: v.colors, distinct: v.distinct };
            perfect_and_export(&v.build()?, spec, tree.as_deref())
        }
        Command::Perfect { game: PerfectGame::Beams { variant, codes }, tree } => {
            let v: Variant = variant.parse()?;
            let (patterns, _) = load_or_build(v, Some(&codes))?;
            let g = Beams::new(patterns, QueryOrder::ColourFirst, Penalty::BestGuess)?;
            perfect_and_export(&g, GameSpec::Beams { variant: v.to_string(), order: "lex-c".into() }, tree.as_deref())
        }
        Command::Verify { file } => verify_file(&file),
        Command::Merge { files, out } => merge_files(&files, out.as_deref()),
        Command::Play { game: PlayGame::Beams { agent, secret } } => play_cli::play(&agent, secret.as_deref()),
        Command::Simulate { game: SimulateGame::Beams { agent, n, seed, out } } => {
            play_cli::run_simulation(&agent, n, seed, out.as_deref())
        }
        Command::Solve { game } => solve_cli::run(game),
        Command::Curve { game } => curve_cli::run(game),
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

fn emit_text(text: &str, out: &Option<PathBuf>) -> Result<()> {
    match out {
        Some(path) => write_atomic(path, text.as_bytes()),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

/// CSV of perfect and H_α totals for every size 1..=upto.
fn size_model_csv<M: SizeModel>(model: &M, a: &SizeArgs, perfect: impl Fn(u64) -> u64) -> Result<()> {
    let upto = checked_size(a.upto)?;
    let alpha: Alpha = a.strategy.alpha.parse()?;
    let totals = strategy_totals(model, Strategy::new(alpha, a.strategy.tie_rule()), upto)?;
    let mut csv = format!(
        "# {} — H_{alpha} {}\nn,perfect_total,renyi_total,renyi_over_perfect\n",
        model.name(),
        a.strategy.tie_rule()
    );
    for n in 1..=upto {
        let p = perfect(n);
        let ratio = if p == 0 { 1.0 } else { exact_f64(&totals[n as usize]) / p as f64 };
        csv += &format!("{n},{p},{},{ratio}\n", exact_string(&totals[n as usize]));
    }
    emit_text(&csv, &a.strategy.output.out)
}

/// CSV of the H_α total at one size for a grid of α.
fn size_model_sweep<M: SizeModel>(model: &M, a: &SizeArgs) -> Result<()> {
    let size = checked_size(a.size.unwrap_or(a.upto))?;
    let alphas = alpha_grid(&a.strategy.alpha)?;
    let tie = a.strategy.tie_rule();
    let rows: Vec<Result<String>> = alphas
        .par_iter()
        .map(|&alpha| {
            let t = strategy_totals(model, Strategy::new(alpha, tie), size)?;
            Ok(format!("{alpha},{},{}\n", alpha.to_f64(), exact_string(&t[size as usize])))
        })
        .collect();
    let mut csv = format!("# {} — size {size}, {tie}\nalpha,alpha_value,total\n", model.name());
    for r in rows {
        csv += &r?;
    }
    emit_text(&csv, &a.strategy.output.out)
}

fn analyze_beams(b: &BeamsArgs) -> Result<()> {
    let alpha: Alpha = b.alpha.parse()?;
    if !(b.memo_gib.is_finite() && b.memo_gib >= 0.0 && b.memo_gib <= 1024.0) {
        return Err(invalid(format!("--memo-gib {}: give a number of GiB from 0 to 1024", b.memo_gib)));
    }
    renyi_search::search::memo::set_process_budget((b.memo_gib * (1u64 << 30) as f64) as u64);
    let variant: Variant = b.variant.parse()?;
    let (patterns, status) = load_or_build(variant, Some(&b.codes))?;
    if let CacheStatus::Built { reason } = status {
        eprintln!("pattern table: {reason}");
    }
    let column = match b.tie {
        BeamsTie::LexC => Column::LexC,
        BeamsTie::LexD => Column::LexD,
        BeamsTie::Mix => Column::Mix,
        BeamsTie::MixReduced => Column::MixReduced,
    };
    let mut g = table_4_10::game(patterns, column)?;
    g.penalty = match b.penalty {
        BeamsPenalty::Best => Penalty::BestGuess,
        BeamsPenalty::Random => Penalty::RandomGuess,
        BeamsPenalty::None => Penalty::None,
    };
    let strategy = Strategy::new(alpha, table_4_10::column_tie(column));
    if let Some(file) = &b.recheck {
        return recheck_units(&g, strategy, file, b);
    }
    if !b.after.is_empty() {
        return analyze_after(&g, strategy, b);
    }
    if b.shard.is_some() || b.checkpoint.is_some() {
        return run_shard(&g, strategy, b);
    }
    let result = analyze(&g, strategy, RunOptions::with_progress(b.output.progress));
    emit(&result, &b.output)
}

/// `analyze beams --after …`: the subtree below the given steps.
fn analyze_after(g: &Beams, strategy: Strategy, b: &BeamsArgs) -> Result<()> {
    use renyi_search::search::SearchProblem;
    use renyi_search::search::recheck::outcome_after;
    use renyi_search::search::{AnswerId, QueryId};
    let step = |text: &String| -> Result<(QueryId, AnswerId)> {
        let parsed = text.split_once(':').and_then(|(q, a)| Some((q.trim().parse().ok()?, a.trim().parse().ok()?)));
        parsed.ok_or_else(|| invalid(format!("--after step `{text}`: write QUERY:ANSWER with numbers, e.g. 3:5")))
    };
    let steps = b.after.iter().map(step).collect::<Result<Vec<_>>>()?;
    let clock = std::time::Instant::now();
    let options = RunOptions { merge_equivalent: !b.no_merge, progress: b.output.progress, ..RunOptions::default() };
    let outcome = outcome_after(g, strategy, &steps, options)?;
    let (codes, total) = (outcome.codes(), outcome.total());
    let mean = if exact_f64(&codes) > 0.0 { exact_f64(&total) / exact_f64(&codes) } else { f64::NAN };
    println!("{} — H_{} {} after {}", g.name(), strategy.score.alpha(), strategy.tie, b.after.join(","));
    println!(
        "  codes {}, total {} (depths from the root), mean {mean:.9}, penalty {}",
        exact_string(&codes),
        exact_string(&total),
        outcome.to_strings().1
    );
    println!("  {:.1} s", clock.elapsed().as_secs_f64());
    Ok(())
}

/// Recheck mode of `analyze beams`: the listed units of a run file, evaluated again.
fn recheck_units(g: &Beams, strategy: Strategy, file: &std::path::Path, b: &BeamsArgs) -> Result<()> {
    use renyi_search::search::recheck::{check_header, read_run, recheck_unit};
    let (header, records) = read_run(file)?;
    check_header(g, strategy, &header)?;
    if b.units.is_empty() {
        return Err(invalid("--recheck needs --units i,j,… (unit numbers of the run file)"));
    }
    let options = RunOptions { merge_equivalent: !b.no_merge, progress: b.output.progress, ..RunOptions::default() };
    let mut differing = 0;
    for &index in &b.units {
        let Some(record) = records.iter().find(|r| r.index == index) else {
            return Err(invalid(format!("{} holds no unit {index}", file.display())));
        };
        let check = recheck_unit(g, strategy, record, options)?;
        let codes = check.codes as f64;
        let (recorded, recomputed) =
            (exact_f64(&check.recorded_total) / codes, exact_f64(&check.recomputed_total) / codes);
        let verdict = if check.agrees {
            "agrees exactly".to_string()
        } else {
            format!("DIFFERS: recorded mean {recorded:.9}, recomputed {recomputed:.9}")
        };
        println!(
            "unit {index} {:?} {:?}: {} codes, mean {recomputed:.6}, {verdict} ({:.1} s)",
            record.path, record.queries, check.codes, check.seconds
        );
        differing += usize::from(!check.agrees);
    }
    if differing > 0 {
        return Err(invalid(format!("{differing} of {} units differ from their records", b.units.len())));
    }
    Ok(())
}

/// Work-unit mode of `analyze beams`: one shard, resumable, written as a shard file.
fn run_shard(g: &Beams, strategy: Strategy, b: &BeamsArgs) -> Result<()> {
    let shard: Shard = b.shard.as_deref().unwrap_or("0/1").parse()?;
    let Some(out) = &b.output.out else {
        return Err(invalid("work-unit mode needs --out FILE for the shard file (then `merge` the shard files)"));
    };
    if !(1..=4).contains(&b.levels) {
        return Err(invalid("--levels must be 1 to 4"));
    }
    let run = UnitRun { levels: b.levels, shard, checkpoint: b.checkpoint.as_deref(), progress: b.output.progress };
    let file = run_units(g, strategy, &run)?;
    write_shard(out, &file)?;
    eprintln!(
        "shard {}/{}: {} of {} units in {:.1} s → {}",
        shard.index,
        shard.count,
        file.units.len(),
        file.units_total,
        file.seconds,
        out.display()
    );
    if shard.count == 1 {
        return merge_files(std::slice::from_ref(out), None);
    }
    Ok(())
}

fn merge_files(files: &[PathBuf], out: Option<&std::path::Path>) -> Result<()> {
    let mut shards = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| renyi_search::error::Error::Io { path: path.display().to_string(), source: e })?;
        let shard: ShardFile =
            serde_json::from_str(&text).map_err(|e| invalid(format!("{} is not a shard file: {e}", path.display())))?;
        shards.push(shard);
    }
    let (header, outcome) = merge(&shards)?;
    let codes = shards[0].codes_total;
    let total = outcome.total();
    let (histogram, penalty) = outcome.to_strings();
    #[derive(serde::Serialize)]
    struct Merged<'a> {
        header: &'a RunHeader,
        codes: u64,
        total: String,
        mean: f64,
        depth_histogram: Vec<String>,
        penalty_total: String,
        /// Codes by penalty points paid (index p); absent if older records lack the split.
        penalty_histogram: Option<Vec<String>>,
        shard_seconds: f64,
        /// The largest peak memory of the shards' processes, where recorded.
        peak_memory_bytes: Option<u64>,
    }
    let merged = Merged {
        header: &header,
        codes,
        total: exact_string(&total),
        mean: exact_f64(&total) / codes as f64,
        depth_histogram: histogram,
        penalty_total: penalty,
        penalty_histogram: renyi_search::search::units::penalty_split_known(&shards)
            .then(|| outcome.penalised_strings()),
        shard_seconds: shards.iter().map(|s| s.seconds).sum(),
        peak_memory_bytes: shards.iter().filter_map(|s| s.peak_memory_bytes).max(),
    };
    println!(
        "{} — H_{} {} ({} shard files, {} units)",
        header.problem,
        header.alpha,
        header.tie_rule,
        shards.len(),
        shards[0].units_total
    );
    println!("  total     {} over {} codes, mean {:.6}", merged.total, codes, merged.mean);
    let split = match &merged.penalty_histogram {
        Some(h) => h
            .iter()
            .enumerate()
            .filter(|(p, c)| *p > 0 && *c != "0")
            .map(|(p, c)| format!("{p} points: {c} codes"))
            .collect::<Vec<_>>()
            .join(", "),
        None => "split not recorded".into(),
    };
    println!("  penalty   {} ({split})", merged.penalty_total);
    println!(
        "  histogram {}",
        merged
            .depth_histogram
            .iter()
            .enumerate()
            .filter(|(_, c)| *c != "0")
            .map(|(d, c)| format!("{d}:{c}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let peak = merged
        .peak_memory_bytes
        .map_or_else(|| "not recorded".to_string(), |b| format!("{:.2} GiB", b as f64 / (1u64 << 30) as f64));
    println!(
        "  run       {:.0} s (wall times of the shards' last sessions, summed), peak memory {peak}",
        merged.shard_seconds
    );
    match out {
        Some(path) => write_json(path, &merged),
        None => Ok(()),
    }
}

fn beams_info(variant: &str, codes: &std::path::Path) -> Result<()> {
    let variant: Variant = variant.parse()?;
    let board = Board::new(variant.n);
    println!(
        "{variant}: board edge {}, {} cells (centre removed), {} diagonals",
        variant.n,
        board.cell_count(),
        board.diagonals.len()
    );
    println!(
        "  pieces (fixed polyhexes of {} cells in the {}×{} rhombus): {}",
        variant.piece_size,
        2 * variant.n - 1,
        2 * variant.n - 1,
        pieces_in_rhombus(variant.piece_size, variant.n)
    );
    if variant.n > 4 {
        println!("  patterns: not enumerated for boards of edge 5 (far too many)");
        return Ok(());
    }
    println!(
        "  placements (connected {}-cell sets on the board): {}",
        variant.piece_size,
        placements(&board, variant.piece_size).len()
    );
    let clock = std::time::Instant::now();
    let (patterns, status) = load_or_build(variant, Some(codes))?;
    let how = match status {
        CacheStatus::Loaded => format!("loaded from {}", codes.display()),
        CacheStatus::Built { reason } => reason,
    };
    println!("  patterns: {} ({how}, {:.2} s)", patterns.count(), clock.elapsed().as_secs_f64());
    let codes_total = patterns.count() as u64 * variant.colourings() as u64;
    println!(
        "  codes: {} = {} × {} colourings; as a bit table {} bytes ({:.1} MiB)",
        codes_total,
        patterns.count(),
        variant.colourings(),
        codes_total.div_ceil(8),
        codes_total as f64 / 8.0 / 1048576.0
    );
    Ok(())
}

fn perfect_and_export<P: Replay>(problem: &P, spec: GameSpec, tree: Option<&std::path::Path>) -> Result<()> {
    let (result, search) = solve_perfect_with_progress(problem, true);
    println!("{} — perfect strategy", result.problem);
    println!("  total     {} (mean {:.6} over {} codes)", result.total, result.mean, result.codes);
    println!("  bound     {} (counting lower bound at the root)", result.lower_bound_at_root);
    println!("  nodes     {} in {:.2} s", result.nodes, result.seconds);
    if let Some(path) = tree {
        let node = tree::export(&search, problem)?;
        let checked = tree::verify(problem, &node)?;
        if checked.total != result.total {
            return Err(invalid(format!(
                "internal error: the exported tree replays to {} instead of {}",
                checked.total, result.total
            )));
        }
        let file = StrategyFile {
            game: spec,
            codes: result.codes,
            total: result.total,
            program: "renyi-search".into(),
            version: renyi_search::VERSION.into(),
            tree: node,
        };
        write_json(path, &file)?;
        println!(
            "  tree      {} (verified by replaying every code: total {}, max depth {})",
            path.display(),
            checked.total,
            checked.max_depth
        );
    }
    Ok(())
}

fn verify_file(path: &std::path::Path) -> Result<()> {
    let text = std::fs::read_to_string(path)
        .map_err(|source| renyi_search::error::Error::Io { path: path.display().to_string(), source })?;
    let file: StrategyFile =
        serde_json::from_str(&text).map_err(|e| invalid(format!("{} is not a strategy file: {e}", path.display())))?;
    let checked = match &file.game {
        GameSpec::Mastermind { pegs, colors, distinct } => {
            tree::verify(&Mastermind::new(*pegs, *colors, *distinct)?, &file.tree)?
        }
        GameSpec::Beams { variant, order } => {
            let v: Variant = variant.parse()?;
            let order = match order.as_str() {
                "lex-c" => QueryOrder::ColourFirst,
                "lex-d" => QueryOrder::DiagonalFirst,
                other => return Err(invalid(format!("unknown query order {other:?} (accepted: lex-c, lex-d)"))),
            };
            tree::verify(&Beams::new(load_or_build(v, None)?.0, order, Penalty::BestGuess)?, &file.tree)?
        }
    };
    println!(
        "{}: every one of {} codes is solved; total {} (file claims {}), max depth {}",
        path.display(),
        checked.codes,
        checked.total,
        file.total,
        checked.max_depth
    );
    if checked.total != file.total {
        return Err(invalid(format!("the file claims total {} but replaying gives {}", file.total, checked.total)));
    }
    Ok(())
}

fn emit_analysis(result: &Analysis, args: &StrategyArgs) -> Result<()> {
    emit(result, &args.output)
}

fn emit(result: &Analysis, output: &OutputArgs) -> Result<()> {
    if let Some(path) = &output.out {
        return write_json(path, result);
    }
    if output.json {
        println!("{}", serde_json::to_string_pretty(result).expect("plain data"));
        return Ok(());
    }
    println!("{} — H_{} {}", result.problem, result.alpha, result.tie_rule);
    println!("  total     {} ≈ {:.4} (penalty points {})", result.total, result.total_decimal, result.penalty_total);
    let split: Vec<String> = result
        .penalty_histogram
        .iter()
        .enumerate()
        .filter(|(p, c)| *p > 0 && *c != "0")
        .map(|(p, c)| format!("{p} points: {c}"))
        .collect();
    if !split.is_empty() {
        println!("  penalised codes {}", split.join(", "));
    }
    println!("  mean      {:.6} over {} codes", result.mean, result.codes);
    println!("  max depth {}", result.max_depth);
    println!(
        "  histogram {}",
        result
            .depth_histogram
            .iter()
            .enumerate()
            .filter(|(_, c)| *c != "0")
            .map(|(d, c)| format!("{d}:{c}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let firsts = &result.first_queries;
    println!(
        "  first     {}{}",
        firsts.iter().take(8).cloned().collect::<Vec<_>>().join(" "),
        if firsts.len() > 8 { format!(" … ({} tied)", firsts.len()) } else { String::new() }
    );
    println!("  nodes     {} in {:.3} s", result.nodes_evaluated, result.seconds);
    Ok(())
}

const TARGETS: &str = "table-4.5, table-4.18, table-4.15, table-4.10, perfect, chess, nim, curves, all";

fn reproduce(
    targets: &[String],
    dir: &std::path::Path,
    codes: &std::path::Path,
    full: bool,
    full_report: bool,
) -> Result<()> {
    let mut wanted: Vec<&str> = Vec::new();
    for t in targets {
        match t.as_str() {
            "all" => wanted.extend([
                "table-4.5",
                "table-4.18",
                "table-4.15",
                "table-4.10",
                "perfect",
                "chess",
                "nim",
                "curves",
            ]),
            "table-4.5" | "table-4.18" | "table-4.15" | "table-4.10" | "perfect" | "chess" | "nim" | "curves" => {
                wanted.push(t)
            }
            other => return Err(invalid(format!("unknown reproduce target {other:?} (accepted: {TARGETS})"))),
        }
    }
    wanted.dedup();
    for target in wanted {
        eprintln!("reproduce {target} → {}", dir.display());
        match target {
            "table-4.5" => {
                let cells = table_4_5::reproduce(dir, true)?;
                let equal = cells.iter().filter(|c| c.total.equal).count();
                eprintln!("table-4.5: {equal} of {} totals equal to the thesis", cells.len());
            }
            "table-4.15" => wurzel_free::reproduce(dir)?,
            "chess" => {
                let report = renyi_search::reproduce::chess::reproduce(dir)?;
                let equal = report.rows.iter().filter(|r| r.equal == Some(true)).count();
                eprintln!(
                    "chess: {equal} of 5 thesis maxima equal; all tables solved in {:.1} s",
                    report.total_solve_seconds
                );
            }
            "nim" => {
                let report = renyi_search::reproduce::nim::reproduce(dir, 100_000)?;
                eprintln!(
                    "nim: {} of {} published rows equal",
                    report.rows.iter().filter(|r| r.equal).count(),
                    report.rows.len()
                );
            }
            "perfect" => {
                renyi_search::reproduce::perfect::reproduce(dir, Some(codes))?;
            }
            "curves" => {
                let curves = renyi_search::reproduce::curves::reproduce(dir, Some(codes))?;
                let unc: u64 = curves.iter().map(|c| c.report.uncertified).sum();
                eprintln!("curves: {} exact curves, {unc} uncertified breakpoints", curves.len());
            }
            "table-4.10" if full_report => {
                let cells = table_4_10::reproduce_full(dir, codes, false, false)?;
                eprintln!("table-4.10 --full-report: {} finished Beams(6c,6p) cells", cells.len());
            }
            "table-4.10" => {
                let cells = table_4_10::reproduce(dir, Some(codes), true)?;
                let proto: Vec<_> = cells.iter().filter_map(|c| c.total_vs_prototype.as_ref()).collect();
                eprintln!(
                    "table-4.10: {} of {} prototype totals equal",
                    proto.iter().filter(|c| c.equal).count(),
                    proto.len()
                );
                // Without --full the finished 6c6p runs (results/beams-6c6p-runs/) are reported.
                let cells = table_4_10::reproduce_full(dir, codes, true, full)?;
                eprintln!("table-4.10: {} of {} Beams(6c,6p) cells computed", cells.len(), table_4_10::FULL_ROWS.len());
            }
            _ => {
                table_4_18::reproduce(dir)?;
            }
        }
    }
    Ok(())
}
