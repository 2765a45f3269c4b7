//! `verify …`: every secret replayed through a strategy file.

use super::*;

pub(super) fn verify_file(path: &std::path::Path) -> Result<()> {
    let text = std::fs::read_to_string(path)
        .map_err(|source| renyi_search::error::Error::Io { path: path.display().to_string(), source })?;
    let file: StrategyFile<GameSpec> =
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
