//! `sweep …`: the same analysis for a grid of α.

use super::*;

/// CSV of the H_α total at one size for a grid of α.
pub(super) fn size_model_sweep<M: SizeModel>(model: &M, a: &SizeArgs) -> Result<()> {
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
