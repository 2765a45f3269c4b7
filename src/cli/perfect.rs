//! `perfect …`: the optimal strategy by branch and bound, under optional
//! constraints and objectives, with its tree exported, verified and sealed.

use super::args::{ObjectiveArg, PerfectGame, PerfectOptions};
use super::common_args::parse_steps;
use super::progress::progress;
use renyi_search::certificate::{self, Certify};
use renyi_search::error::{Result, invalid};
use renyi_search::games::GameSpec;
use renyi_search::games::beams::Variant;
use renyi_search::games::beams::game::{Beams, ColourOffer, Penalty, QueryOrder};
use renyi_search::games::beams::geometry::Board;
use renyi_search::games::beams::patterns::load_or_build;
use renyi_search::games::beams::transfer::count_patterns;
use renyi_search::output::write_json;
use renyi_search::search::perfect::{
    CapStep, Constraints, Objective, PerfectResult, TableKeys, bound_table_bytes_for, optimise, upper_from_strategy,
};
use renyi_search::search::strategy::{Strategy, TieRule};
use renyi_search::search::tree::{self, StrategyFile};

/// Runs `perfect GAME [options]`.
pub(super) fn run(game: PerfectGame, options: &PerfectOptions) -> Result<()> {
    if options.leaf_size.is_some() && options.upper_from.is_none() {
        return Err(invalid("--leaf-size belongs to --upper-from ALPHA"));
    }
    match game {
        PerfectGame::Mastermind(v) => {
            let spec = GameSpec::Mastermind { pegs: v.pegs, colors: v.colors, distinct: v.distinct };
            perfect_and_export(&v.build()?, spec, options)
        }
        PerfectGame::BullsAndCows(v) => perfect_and_export(&v.build()?, v.spec(), options),
        PerfectGame::Beams { variant, codes } => {
            if options.possible_only {
                return Err(invalid(
                    "perfect beams --possible-only: Beams' queries (a colour on a diagonal) are never codes, so hard mode does not apply",
                ));
            }
            let v: Variant = variant.parse()?;
            check_beams_bound_tables(v)?;
            let (patterns, _) = load_or_build(v, Some(&codes))?;
            let g = Beams::new(patterns, BEAMS_ORDER, BEAMS_PENALTY)?;
            perfect_and_export(&g, GameSpec::Beams { variant: v, order: BEAMS_ORDER }, options)
        }
    }
}

/// The Beams game `perfect` solves: LEX-c order, penalty as the thesis' best guess.
const BEAMS_ORDER: QueryOrder = QueryOrder::ColourFirst;
const BEAMS_PENALTY: Penalty = Penalty::BestGuess;

/// Refuses, before the pattern table is built or loaded, a Beams game whose
/// perfect search's bound tables exceed the budget: they need only the code
/// count (the frontier count of `transfer`, 6c6p: 2 s, 20 MB, where building
/// the table peaked at 0.87–1.05 GB) and the answer count (from the board).
fn check_beams_bound_tables(v: Variant) -> Result<()> {
    let codes = count_patterns(v, false)?.codes().and_then(|c| u64::try_from(c).ok());
    let answers = Board::new(v.n).answer_count() as u64;
    let name = Beams::game_name(v, BEAMS_ORDER, ColourOffer::ReducedWeighted, BEAMS_PENALTY);
    renyi_search::memory::check_budget(
        &format!("the perfect search's bound tables for {name}"),
        codes.and_then(|c| bound_table_bytes_for(c, answers)),
    )
}

/// `perfect … --after STEPS`: the optimum of one subtree (no tree or
/// certificate: those are written for whole games).
fn perfect_after<P: Certify>(
    problem: &P,
    constraints: Constraints,
    objective: Objective,
    options: &PerfectOptions,
) -> Result<()> {
    use renyi_search::search::subproblem::Subproblem;
    if options.tree.is_some()
        || options.certificate.is_some()
        || options.depth_bound.is_some()
        || options.checkpoint.is_some()
        || options.fingerprint_table
    {
        return Err(invalid(
            "--after solves one subtree: --tree, --certificate, --depth-bound, --checkpoint and \
             --fingerprint-table are for whole games",
        ));
    }
    let steps = parse_steps(&options.after)?;
    let node = Subproblem::after(problem, &steps, constraints.possible_only)?;
    let optimum = optimise(&node, constraints, objective, TableKeys::Exact, &progress(true))?;
    let after = options.after.join(",");
    let Some(result) = optimum.result else {
        println!("{} after {after}: no strategy within the constraints", problem.name());
        return Ok(());
    };
    println!("{} — perfect strategy below {after} ({} codes)", problem.name(), result.codes);
    println!("  total     {} (mean {:.6}; queries counted from that node)", result.total, result.mean);
    println!("  worst     {} queries", result.max_depth);
    println!("  bound     {} (counting lower bound at the node)", result.lower_bound_at_root);
    println!("  nodes     {} in {:.2} s", result.nodes, result.seconds);
    Ok(())
}

fn perfect_and_export<P: Certify>(problem: &P, spec: GameSpec, options: &PerfectOptions) -> Result<()> {
    renyi_search::memory::check_budget(
        &format!("the perfect search's bound tables for {}", problem.name()),
        renyi_search::search::perfect::bound_table_bytes(problem),
    )?;
    let constraints = Constraints { max_depth: options.max_depth, possible_only: options.possible_only };
    let objective = match options.objective {
        ObjectiveArg::Total => Objective::Total,
        ObjectiveArg::DepthThenTotal => Objective::DepthThenTotal,
        ObjectiveArg::TotalThenDepth => Objective::TotalThenDepth,
    };
    if options.certificate.is_some() && (!constraints.is_none() || objective != Objective::Total) {
        return Err(invalid(
            "--certificate: certificates prove the plain least total (no --max-depth, --possible-only or --objective)",
        ));
    }
    if let Some(alpha) = &options.upper_from {
        return upper_from(problem, spec, alpha, options);
    }
    if !options.after.is_empty() {
        return perfect_after(problem, constraints, objective, options);
    }
    if let Some(depth) = options.depth_bound {
        return depth_bound(problem, spec, depth, options);
    }
    if options.checkpoint.is_some() {
        return Err(invalid("--checkpoint belongs to a --depth-bound run (the search itself is not checkpointed)"));
    }
    if options.fingerprint_table && options.certificate.is_none() {
        return Err(invalid(
            "--fingerprint-table: a fingerprint collision could mislead the search, so the optimum must be \
             proven by a certificate: add --certificate FILE",
        ));
    }
    let keys = if options.fingerprint_table { TableKeys::Fingerprint } else { TableKeys::Exact };
    let optimum = optimise(problem, constraints, objective, keys, &progress(true))?;
    let hard = if constraints.possible_only { " asking possible codes only" } else { "" };
    let Some(result) = optimum.result else {
        let k = constraints.max_depth.map_or("any number of".into(), |k| k.to_string());
        println!("{}: no strategy finds every code within {k} queries{hard}", problem.name());
        return Ok(());
    };
    print_optimum(&result, &optimum.steps, hard);
    // Tree and certificate are renamed into place once both were written.
    renyi_search::output::all_or_none(|| {
        if let Some(path) = &options.tree {
            let node = tree::export(&optimum.search, problem)?;
            let checked = tree::verify(problem, &node)?;
            if (checked.total, checked.max_depth) != (result.total, result.max_depth) {
                return Err(invalid(format!(
                    "internal error: the exported tree replays to total {} (worst {}) instead of {} (worst {})",
                    checked.total, checked.max_depth, result.total, result.max_depth
                )));
            }
            let file = StrategyFile {
                game: spec.clone(),
                codes: result.codes,
                total: result.total,
                constraints: result.constraints,
                max_depth: Some(checked.max_depth),
                program: "renyi-search".into(),
                version: renyi_search::VERSION.into(),
                tree: node,
                seal: None,
            };
            write_json(path, &file.sealed())?;
            println!(
                "  tree      {} (verified by replaying every code: total {}, max depth {})",
                path.display(),
                checked.total,
                checked.max_depth
            );
        }
        if let Some(path) = &options.certificate {
            write_certificate_file(&optimum.search, problem, spec, result.total, path)?;
        }
        Ok(())
    })
}

/// `perfect --upper-from ALPHA --leaf-size N`: the total of the H_α (LEX)
/// strategy with every node of at most N codes it reaches played perfectly
/// below, an upper bound on the optimum; the tree is replayed by the library
/// and written with `--tree`.
fn upper_from<P: Certify>(problem: &P, spec: GameSpec, alpha: &str, options: &PerfectOptions) -> Result<()> {
    if options.certificate.is_some()
        || options.depth_bound.is_some()
        || options.checkpoint.is_some()
        || !options.after.is_empty()
        || options.fingerprint_table
        || options.max_depth.is_some()
        || options.possible_only
        || !matches!(options.objective, ObjectiveArg::Total)
    {
        return Err(invalid(
            "--upper-from bounds the plain total of the whole game: no --certificate, --depth-bound, --checkpoint, \
             --after, --fingerprint-table, --max-depth, --possible-only or --objective",
        ));
    }
    let Some(leaf_size) = options.leaf_size else {
        return Err(invalid("--upper-from: give --leaf-size N, the largest node solved exactly"));
    };
    let strategy = Strategy::new(alpha.parse()?, TieRule::lex());
    let found = upper_from_strategy(problem, strategy, leaf_size, &progress(true))?;
    let codes = problem.code_count() as u64;
    println!("{} — H_{alpha} LEX above, perfect below every node of at most {leaf_size} codes", problem.name());
    println!(
        "  total  ≤ {} (mean {:.6} over {codes} codes; the strategy's tree replayed code by code)",
        found.total,
        found.total as f64 / codes as f64
    );
    println!("  worst     {} queries", found.max_depth);
    println!(
        "  exact     {} nodes ({} codes, the largest {}; {} search nodes), {} given up (memory)",
        found.exact_leaves, found.exact_codes, found.largest_leaf, found.search_nodes, found.given_up
    );
    println!("  H_α       {} nodes above them; {:.2} s in all", found.strategy_nodes, found.seconds);
    if let Some(path) = &options.tree {
        let file = StrategyFile {
            game: spec,
            codes,
            total: found.total,
            constraints: Constraints::none(),
            max_depth: Some(found.max_depth),
            program: "renyi-search".into(),
            version: renyi_search::VERSION.into(),
            tree: found.tree,
            seal: None,
        };
        renyi_search::output::all_or_none(|| write_json(path, &file.sealed()))?;
        println!("  tree      {} (replayed: total {})", path.display(), found.total);
    }
    Ok(())
}

/// Prints the optimum found and, when the cap was lowered step by step, each step.
fn print_optimum(result: &PerfectResult, steps: &[CapStep], hard: &str) {
    let mut title = String::from("perfect strategy");
    if let Some(k) = result.constraints.max_depth {
        title += &format!(" within {k} queries");
    }
    title += hard;
    println!("{} — {title}", result.problem);
    println!("  total     {} (mean {:.6} over {} codes)", result.total, result.mean, result.codes);
    println!("  worst     {} queries", result.max_depth);
    println!("  bound     {} (counting lower bound at the root)", result.lower_bound_at_root);
    println!("  nodes     {} in {:.2} s", result.nodes, result.seconds);
    if steps.len() > 1 {
        for step in steps {
            let cap = step.max_depth.map_or("no cap".into(), |k| format!("within {k}"));
            let found = match (step.total, step.sought_below) {
                (Some(t), _) => t.to_string(),
                (None, Some(b)) => format!("none below {b}"),
                (None, None) => "none".into(),
            };
            println!("  step      {cap:<10} total {found:<14} {} nodes in {:.2} s", step.nodes, step.seconds);
        }
    }
}

/// `perfect … --depth-bound K`: the lower bound of the tree expanded K
/// queries deep, its certificate checked and written.
fn depth_bound<P: Certify + Sync>(problem: &P, spec: GameSpec, depth: u32, options: &PerfectOptions) -> Result<()>
where
    P::State: Send + Sync,
{
    let Some(path) = &options.certificate else {
        return Err(invalid("--depth-bound: the bound is only worth its certificate: add --certificate FILE"));
    };
    if options.tree.is_some() || options.max_depth.is_some() || options.possible_only || options.fingerprint_table {
        return Err(invalid(
            "--depth-bound proves a lower bound of the plain total: no --tree, --max-depth, --possible-only or --fingerprint-table",
        ));
    }
    let checkpoint = options.checkpoint.as_deref();
    let (bound, body, built) = certificate::depth_bound_certificate(problem, depth, checkpoint, &progress(true))?;
    let checked = certificate::check_certificate(problem, &body)?;
    if checked.bound != bound {
        return Err(invalid(format!("internal error: the certificate proves {} instead of {bound}", checked.bound)));
    }
    let header = certificate::Header::total(spec, problem.code_count() as u64, bound, built.nodes);
    let bytes = certificate::write_certificate(path, header, &body)?;
    println!("{} — lower bound of the tree expanded {depth} queries deep (no search)", problem.name());
    println!(
        "  total  ≥ {bound} (mean ≥ {:.6} over {} codes)",
        bound as f64 / problem.code_count() as f64,
        problem.code_count()
    );
    println!(
        "  certificate {} ({} nodes, {bytes} bytes; built in {:.2} s, checked in {:.2} s)",
        path.display(),
        built.nodes,
        built.seconds,
        checked.seconds
    );
    Ok(())
}

/// Builds the certificate of the plain optimum `total`, checks it with the
/// independent checker and writes it.
fn write_certificate_file<P: Certify>(
    search: &renyi_search::search::perfect::PerfectSearch<'_, P>,
    problem: &P,
    spec: GameSpec,
    total: u64,
    path: &std::path::Path,
) -> Result<()> {
    let (body, built) = certificate::build_certificate(search, problem, total)?;
    let checked = certificate::check_certificate(problem, &body)?;
    if checked.bound != total {
        return Err(invalid(format!("internal error: the certificate proves {} instead of {total}", checked.bound)));
    }
    let header = certificate::Header::total(spec, problem.code_count() as u64, total, built.nodes);
    let bytes = certificate::write_certificate(path, header, &body)?;
    println!(
        "  certificate {} ({} nodes, {} references, {bytes} bytes; built in {:.2} s, checked in {:.2} s ({:.2} s table, {} answers looked up): total ≥ {})",
        path.display(),
        built.nodes,
        built.references,
        built.seconds,
        checked.seconds,
        checked.table_seconds,
        checked.lookups,
        checked.bound
    );
    Ok(())
}
