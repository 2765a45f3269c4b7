//! `analyze …`: one strategy over every code (Mastermind, size models, Beams
//! with its work-unit, recheck and subtree modes).

use super::args::{Game, SizeArgs, checked_size};
use super::beams_args::{BeamsArgs, BeamsGameArgs, BeamsPenalty};
use super::common_args::{OutputArgs, StrategyArgs, parse_steps};
use super::emit::emit_csv;
use super::merge::merge_files;
use super::outcome_text::{depth_histogram, penalty_split, recheck_verdict};
use super::progress::progress_if;
use renyi_search::error::{Result, invalid};
use renyi_search::games::beams::Variant;
use renyi_search::games::beams::game::{Beams, Penalty};
use renyi_search::games::beams::patterns::{CacheStatus, load_or_build};
use renyi_search::memory::Budget;
use renyi_search::models::free::{FreeSearch, perfect_total_closed};
use renyi_search::models::wurzel::{self, Wurzel};
use renyi_search::models::{SizeModel, strategy_totals};
use renyi_search::output::{csv_text, write_json};
use renyi_search::renyi::alpha::Alpha;
use renyi_search::search::Presentation;
use renyi_search::search::outcome::{exact_f64, exact_string};
use renyi_search::search::units::{Shard, UnitRun, run_units, write_shard};
use renyi_search::search::{Analysis, RunOptions, Strategy, analyze};

/// Runs `analyze GAME …`.
pub(super) fn run(game: Game<BeamsArgs>) -> Result<()> {
    match game {
        Game::Mastermind(m) => {
            let alpha: Alpha = m.strategy.alpha.parse()?;
            let mm = m.variant.build()?;
            super::memory_guard::guard_memory(format!("the analysis of {}", Presentation::name(&mm)));
            let result = analyze(
                &mm,
                Strategy::new(alpha, m.strategy.tie_rule()),
                RunOptions::with_progress(progress_if(m.strategy.output.progress)),
            );
            emit_analysis(&result, &m.strategy)
        }
        Game::BullsAndCows(b) => {
            let alpha: Alpha = b.strategy.alpha.parse()?;
            let result = analyze(
                &b.variant.build()?,
                Strategy::new(alpha, b.strategy.tie_rule()),
                RunOptions::with_progress(progress_if(b.strategy.output.progress)),
            );
            emit_analysis(&result, &b.strategy)
        }
        Game::Free(a) => size_model_csv(&FreeSearch::new(a.width)?, &a, |m| perfect_total_closed(a.width, m)),
        Game::Wurzel(a) => {
            let perfect = wurzel::perfect_totals(checked_size(a.upto)?);
            size_model_csv(&Wurzel, &a, |n| perfect[n as usize])
        }
        Game::Beams(b) => analyze_beams(&b),
    }
}

/// CSV of perfect and H_α totals for every size 1..=upto.
fn size_model_csv<M: SizeModel>(model: &M, a: &SizeArgs, perfect: impl Fn(u64) -> u64) -> Result<()> {
    let upto = checked_size(a.upto)?;
    let alpha: Alpha = a.strategy.alpha.parse()?;
    let totals = strategy_totals(model, Strategy::new(alpha, a.strategy.tie_rule()), upto)?;
    let about = format!("{} — H_{alpha} {}", model.name(), a.strategy.tie_rule());
    let rows = (1..=upto).map(|n| {
        let p = perfect(n);
        let ratio = if p == 0 { 1.0 } else { exact_f64(&totals[n as usize]) / p as f64 };
        (n, p, exact_string(&totals[n as usize]), ratio.to_string())
    });
    let csv = csv_text(&["n", "perfect_total", "renyi_total", "renyi_over_perfect"], rows)?;
    emit_csv(&csv, about, &a.strategy.output.out)
}

fn analyze_beams(b: &BeamsArgs) -> Result<()> {
    let alpha: Alpha = b.game.alpha.parse()?;
    if !(b.memo_gib.is_finite() && b.memo_gib >= 0.0 && b.memo_gib <= 1024.0) {
        return Err(invalid(format!("--memo-gib {}: give a number of GiB from 0 to 1024", b.memo_gib)));
    }
    let memo_budget = (b.memo_gib * (1u64 << 30) as f64) as u64;
    // The job carries its memo budget (issue 49 item 6), beside the process's memory budget.
    Budget::of_process().with_memo_bytes(memo_budget).within(|| analyze_beams_job(b, alpha, memo_budget))
}

/// [`analyze_beams`] inside its job, whose memos draw on `memo_budget` bytes.
fn analyze_beams_job(b: &BeamsArgs, alpha: Alpha, memo_budget: u64) -> Result<()> {
    let g = beams_game(&b.game, memo_budget)?;
    let strategy = Strategy::new(alpha, b.game.tie.tie_rule());
    // clap has refused flags of two modes together (beams_args.rs).
    if let Some(file) = &b.subtree.recheck {
        return recheck_units(&g, strategy, file, b);
    }
    if !b.subtree.after.is_empty() {
        return analyze_after(&g, strategy, b);
    }
    if b.work.shard.is_some() || b.work.checkpoint.is_some() {
        return run_shard(&g, strategy, b);
    }
    let result = analyze(&g, strategy, RunOptions::with_progress(progress_if(b.output.progress)));
    emit(&result, &b.output)
}

/// The Beams game of `analyze`/`sweep beams`: variant, tie rule and penalty,
/// its analysis checked against the budget with MIX memos of `memo_budget`
/// bytes (the memo budget of the job, `memory::Budget::with_memo_bytes`).
pub(super) fn beams_game(b: &BeamsGameArgs, memo_budget: u64) -> Result<Beams> {
    let variant: Variant = b.variant.parse()?;
    let (patterns, status) = load_or_build(variant, Some(&b.codes))?;
    if let CacheStatus::Built { reason } = status {
        eprintln!("pattern table: {reason}");
    }
    let table_bytes = (patterns.pieces.len() * std::mem::size_of::<u64>()) as u64;
    let pattern_count = patterns.count() as u64;
    let mut g = b.tie.game(patterns)?;
    let codes = renyi_search::search::Rules::code_count(&g) as u64;
    let mix = b.tie.tie_rule().kind == renyi_search::search::TieBreak::Mix;
    let walk = renyi_search::games::beams::analysis_memory::analysis_walk_bytes(
        variant,
        pattern_count,
        codes,
        mix,
        rayon::current_num_threads() as u64,
        memo_budget,
    );
    renyi_search::memory::check_budget(
        &format!("analysing {variant} ({codes} codes: the table, the partitions walked and the MIX memo)"),
        walk.and_then(|w| w.checked_add(table_bytes)),
    )?;
    super::memory_guard::guard_memory(format!("the analysis of {variant}"));
    g.penalty = match b.penalty {
        BeamsPenalty::Best => Penalty::BestGuess,
        BeamsPenalty::Random => Penalty::RandomGuess,
        BeamsPenalty::None => Penalty::None,
    };
    Ok(g)
}

/// `analyze beams --after …`: the subtree below the given steps.
fn analyze_after(g: &Beams, strategy: Strategy, b: &BeamsArgs) -> Result<()> {
    use renyi_search::search::recheck::outcome_after;
    let steps = parse_steps(&b.subtree.after)?;
    let clock = std::time::Instant::now();
    let options =
        RunOptions { merge_equivalent: !b.no_merge, progress: progress_if(b.output.progress), ..RunOptions::default() };
    let outcome = outcome_after(g, strategy, &steps, &options)?;
    let (codes, total) = (outcome.codes(), outcome.total());
    if exact_f64(&codes) == 0.0 {
        return Err(invalid(format!("--after {}: no code gives these answers", b.subtree.after.join(","))));
    }
    let mean = exact_f64(&total) / exact_f64(&codes);
    if b.output.json || b.output.out.is_some() {
        let value = serde_json::json!({
            "problem": g.name(),
            "alpha": strategy.score.alpha().to_string(),
            "tie_rule": strategy.tie.to_string(),
            "after": b.subtree.after,
            "merge_equivalent": !b.no_merge,
            "codes": exact_string(&codes),
            "total": exact_string(&total),
            "mean": mean,
            "depth_counts": outcome.to_strings().0,
            "penalty": outcome.to_strings().1,
            "penalised": outcome.penalised_strings(),
            "seconds": clock.elapsed().as_secs_f64(),
            "version": renyi_search::VERSION,
        });
        return match &b.output.out {
            Some(path) => write_json(path, &value),
            None => {
                println!("{}", serde_json::to_string_pretty(&value).unwrap_or_default());
                Ok(())
            }
        };
    }
    println!("{} — H_{} {} after {}", g.name(), strategy.score.alpha(), strategy.tie, b.subtree.after.join(","));
    println!(
        "  codes {}, total {} (depths from the root), mean {mean:.9}, penalty {}",
        exact_string(&codes),
        exact_string(&total),
        outcome.to_strings().1
    );
    println!("  {:.1} s", clock.elapsed().as_secs_f64());
    Ok(())
}

/// Recheck mode of `analyze beams`: the listed units of a run file (or a
/// seeded draw of them), evaluated again and compared with their records
/// ([`renyi_search::output::work_units::recheck`]).
fn recheck_units(g: &Beams, strategy: Strategy, file: &std::path::Path, b: &BeamsArgs) -> Result<()> {
    use renyi_search::output::work_units::{Pick, recheck};
    use renyi_search::search::recheck::{Recomputer, RecordedRun, check_header, read_run, record_total};
    let (header, records) = read_run(file)?;
    check_header(g, strategy, &header)?;
    let pick = match b.sample {
        Some(count) => Pick::Sample { count, seed: b.seed },
        None if b.units.is_empty() => {
            return Err(invalid("--recheck needs --units i,j,… (unit numbers of the run file) or --sample N"));
        }
        None => Pick::Units(b.units.clone()),
    };
    let options =
        RunOptions { merge_equivalent: !b.no_merge, progress: progress_if(b.output.progress), ..RunOptions::default() };
    let compare_split = header.split_is_current();
    if !compare_split {
        eprintln!(
            "note: the run's penalty split laid the first best code (older MIX definition); \
             depth counts and penalty points are compared, the split is not"
        );
    }
    let mut recorded: Vec<u64> = records.iter().map(|r| r.index).collect();
    recorded.sort_unstable();
    let recompute = Recomputer { problem: g, strategy, options: &options };
    let run = RecordedRun { recompute, file, records: &records, compare_split };
    recheck(&run, &recorded, &pick, |check| {
        let (record, codes) = (&check.recorded, check.recorded.codes as f64);
        let mean = |r| record_total(r).map_or(f64::NAN, |t| exact_f64(&t) / codes);
        let (recorded, recomputed) = (mean(record), mean(&check.again));
        let means = format!(" (mean recorded {recorded:.9}, recomputed {recomputed:.9})");
        let verdict = recheck_verdict(check.agrees, &means, &check.differences);
        println!(
            "unit {} {:?} {:?}: {} codes, mean {recomputed:.6}, {verdict} ({:.1} s)",
            record.index, record.path, record.queries, record.codes, check.seconds
        );
    })?;
    Ok(())
}

/// Work-unit mode of `analyze beams`: one shard, resumable, written as a shard file.
fn run_shard(g: &Beams, strategy: Strategy, b: &BeamsArgs) -> Result<()> {
    let shard: Shard = b.work.shard.as_deref().unwrap_or("0/1").parse()?;
    let Some(out) = &b.output.out else {
        return Err(invalid("work-unit mode needs --out FILE for the shard file (then `merge` the shard files)"));
    };
    if !(1..=4).contains(&b.levels) {
        return Err(invalid("--levels must be 1 to 4"));
    }
    let run = UnitRun {
        levels: b.levels,
        shard,
        checkpoint: b.work.checkpoint.as_deref(),
        progress: progress_if(b.output.progress),
    };
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
    let split = penalty_split(&result.penalty_histogram, "");
    if !split.is_empty() {
        println!("  penalised codes {split}");
    }
    println!("  mean      {:.6} over {} codes", result.mean, result.codes);
    println!("  max depth {}", result.max_depth);
    println!("  histogram {}", depth_histogram(&result.depth_histogram));
    let firsts = &result.first_queries;
    println!(
        "  first     {}{}",
        firsts.iter().take(8).cloned().collect::<Vec<_>>().join(" "),
        if firsts.len() > 8 { format!(" … ({} tied)", firsts.len()) } else { String::new() }
    );
    println!("  nodes     {} in {:.3} s", result.nodes_evaluated, result.seconds);
    Ok(())
}
