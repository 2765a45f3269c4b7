//! `sweep …`: the same analysis for a grid of α.

use super::*;

/// CSV of the H_α total at one size for a grid of α.
pub(super) fn size_model_sweep<M: SizeModel>(model: &M, a: &SizeArgs) -> Result<()> {
    let size = checked_size(a.size.unwrap_or(a.upto))?;
    let alphas = alpha_grid(&a.strategy.alpha)?;
    let tie = a.strategy.tie_rule();
    let rows: Vec<(String, String, String)> = alphas
        .par_iter()
        .map(|&alpha| {
            let t = strategy_totals(model, Strategy::new(alpha, tie), size)?;
            Ok((alpha.to_string(), alpha.to_f64().to_string(), exact_string(&t[size as usize])))
        })
        .collect::<Result<_>>()?;
    let about = format!("{} — size {size}, {tie}", model.name());
    let csv = csv_text(&["alpha", "alpha_value", "total"], rows)?;
    emit_csv(&csv, about, &a.strategy.output.out)
}

/// `sweep beams`: `analyze beams` at every α of a grid, one CSV row per α
/// (3c6p and 6c3p take seconds per α; 6c6p takes about an hour per α and is
/// refused: use `analyze beams 6c6p` per α or `curve beams 6c6p --levels 2`).
pub(super) fn beams_sweep(b: &BeamsArgs) -> Result<()> {
    let alphas = alpha_grid(&b.alpha)?;
    let v: Variant = b.variant.parse()?;
    if (v.colours, v.piece_size) == (6, 6) {
        return Err(invalid(
            "sweep beams 6c6p: one α takes about an hour; run analyze beams 6c6p per α (with --checkpoint) \
             or the exact curve: curve beams 6c6p --levels 2 --checkpoint FILE",
        ));
    }
    let unit_flags = b.shard.is_some() || b.checkpoint.is_some() || b.recheck.is_some() || !b.units.is_empty();
    if unit_flags || !b.after.is_empty() || b.no_merge || b.output.json {
        return Err(invalid(
            "sweep beams writes one CSV row per α: --shard, --checkpoint, --recheck, --units, --after, --no-merge \
             and --json belong to analyze beams",
        ));
    }
    let g = beams_game(b)?;
    let points = sweep(&g, &alphas, b.tie.tie_rule());
    let csv = renyi_search::sweep::sweep_csv(&points)?;
    emit_text(&csv, &b.output.out)
}

/// `sweep mastermind|bulls-and-cows`: the analysis at every α of a grid, one CSV
/// row per α.
pub(super) fn game_sweep<P: renyi_search::search::SearchProblem>(game: &P, strategy: &StrategyArgs) -> Result<()> {
    let alphas = alpha_grid(&strategy.alpha)?;
    let points = sweep(game, &alphas, strategy.tie_rule());
    emit_text(&renyi_search::sweep::sweep_csv(&points)?, &strategy.output.out)
}
