//! `perfect …`: the optimal strategy by branch and bound, with its tree exported and verified.

use super::*;

pub(super) fn perfect_and_export<P: Replay>(problem: &P, spec: GameSpec, tree: Option<&std::path::Path>) -> Result<()> {
    renyi_search::memory::check_budget(
        &format!("the perfect search's bound tables for {}", problem.name()),
        renyi_search::search::perfect::bound_table_bytes(problem),
    )?;
    let (result, search) = solve_perfect_with_progress(problem, &progress(true));
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
