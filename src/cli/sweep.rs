//! `sweep …`: the same analysis for a grid of α.

use super::analyze::beams_game;
use super::args::{Game, SizeArgs, checked_size};
use super::beams_args::SweepBeamsArgs;
use super::common_args::StrategyArgs;
use super::emit::{emit_csv, emit_text};
use rayon::prelude::{IntoParallelRefIterator, ParallelIterator};
use renyi_search::error::{Result, invalid};
use renyi_search::games::beams::Variant;
use renyi_search::models::free::FreeSearch;
use renyi_search::models::wurzel::Wurzel;
use renyi_search::models::{SizeModel, strategy_totals};
use renyi_search::output::csv_text;
use renyi_search::search::outcome::exact_string;
use renyi_search::search::{SearchProblem, Strategy};
use renyi_search::sweep::{alpha_grid, sweep, sweep_csv};

/// Runs `sweep GAME …`.
pub(super) fn run(game: Game<SweepBeamsArgs>) -> Result<()> {
    match game {
        Game::Beams(b) => beams_sweep(&b),
        Game::Free(a) => size_model_sweep(&FreeSearch::new(a.width)?, &a),
        Game::Wurzel(a) => size_model_sweep(&Wurzel, &a),
        Game::Mastermind(m) => game_sweep(&m.variant.build()?, &m.strategy),
        Game::BullsAndCows(b) => game_sweep(&b.variant.build()?, &b.strategy),
    }
}

/// CSV of the H_α total at one size for a grid of α.
fn size_model_sweep<M: SizeModel>(model: &M, a: &SizeArgs) -> Result<()> {
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
fn beams_sweep(b: &SweepBeamsArgs) -> Result<()> {
    let alphas = alpha_grid(&b.game.alpha)?;
    let v: Variant = b.game.variant.parse()?;
    if (v.colours, v.piece_size) == (6, 6) {
        return Err(invalid(
            "sweep beams 6c6p: one α takes about an hour; run analyze beams 6c6p per α (with --checkpoint) \
             or the exact curve: curve beams 6c6p --levels 2 --checkpoint FILE",
        ));
    }
    // The memos keep their default budget: `sweep` has no --memo-gib.
    let g = beams_game(&b.game, renyi_search::search::memo::BUDGET_BYTES)?;
    let points = sweep(&g, &alphas, b.game.tie.tie_rule());
    emit_text(&sweep_csv(&points)?, &b.out)
}

/// `sweep mastermind|bulls-and-cows`: the analysis at every α of a grid, one CSV
/// row per α.
fn game_sweep<P: SearchProblem>(game: &P, strategy: &StrategyArgs) -> Result<()> {
    let alphas = alpha_grid(&strategy.alpha)?;
    let points = sweep(game, &alphas, strategy.tie_rule());
    emit_text(&sweep_csv(&points)?, &strategy.output.out)
}
