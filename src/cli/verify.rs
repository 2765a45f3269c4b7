//! `verify …`: every secret replayed through a strategy file, its claims
//! (total, worst case, cap, hard mode) checked and its seal compared.

use super::*;
use renyi_search::search::tree::{SealCheck, Verified, first_impossible_query, read_strategy_file};

pub(super) fn verify_file(path: &std::path::Path) -> Result<()> {
    let text = std::fs::read_to_string(path)
        .map_err(|source| renyi_search::error::Error::Io { path: path.display().to_string(), source })?;
    let (file, seal) =
        read_strategy_file::<GameSpec>(&text).map_err(|e| invalid(format!("{}: {e}", path.display())))?;
    let edited = match &seal {
        SealCheck::Broken(parts) => Some(format!(
            "the file was edited after it was written: the CRC-32 of its {} does not match",
            parts.join(" and ")
        )),
        _ => None,
    };
    let replayed = match &file.game {
        GameSpec::Mastermind { pegs, colors, distinct } => {
            check(&Mastermind::new(*pegs, *colors, *distinct)?, &file.tree, file.constraints.possible_only)
        }
        GameSpec::BullsAndCows { digits, symbols } => {
            check(&BullsAndCows::new(*digits, *symbols)?, &file.tree, file.constraints.possible_only)
        }
        GameSpec::Beams { variant, order } => {
            let v: Variant = variant.parse()?;
            let order = match order.as_str() {
                "lex-c" => QueryOrder::ColourFirst,
                "lex-d" => QueryOrder::DiagonalFirst,
                other => return Err(invalid(format!("unknown query order {other:?} (accepted: lex-c, lex-d)"))),
            };
            let game = Beams::new(load_or_build(v, None)?.0, order, Penalty::BestGuess)?;
            check(&game, &file.tree, file.constraints.possible_only)
        }
    };
    let (checked, impossible) = match replayed {
        Ok(found) => found,
        Err(e) => {
            return Err(invalid([Some(e.to_string()), edited].into_iter().flatten().collect::<Vec<_>>().join("; ")));
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
    let mut wrong = Vec::new();
    if checked.total != file.total {
        wrong.push(format!("the file claims total {} but replaying gives {}", file.total, checked.total));
    }
    if let Some(claimed) = file.max_depth
        && claimed != checked.max_depth
    {
        wrong.push(format!("the file claims worst case {claimed} but replaying gives {}", checked.max_depth));
    }
    if let Some(k) = file.constraints.max_depth
        && checked.max_depth > u64::from(k)
    {
        wrong.push(format!("the file claims every code within {k} queries but a code takes {}", checked.max_depth));
    }
    if let Some((label, depth)) = impossible {
        wrong.push(format!(
            "the file claims hard mode but query {label} at depth {depth} is not a possible secret there"
        ));
    }
    wrong.extend(edited);
    if !wrong.is_empty() {
        return Err(invalid(wrong.join("; ")));
    }
    match seal {
        SealCheck::Unsealed => println!("  note: an unsealed file (written before strategy files carried CRC-32s)"),
        _ => println!("  seal intact (CRC-32 of header and tree)"),
    }
    let mut claims = Vec::new();
    if let Some(k) = file.constraints.max_depth {
        claims.push(format!("every code within {k} queries"));
    }
    if file.constraints.possible_only {
        claims.push("only possible secrets asked (hard mode)".to_string());
    }
    if !claims.is_empty() {
        println!("  constraints hold: {}", claims.join(", "));
    }
    Ok(())
}

/// The replay, and in hard mode the first query that is not a possible secret.
fn check<P: Replay>(game: &P, tree: &tree::TreeNode, hard: bool) -> Result<(Verified, Option<(String, usize)>)> {
    let checked = tree::verify(game, tree)?;
    let impossible = if hard { first_impossible_query(game, tree, &mut Vec::new()) } else { None };
    Ok((checked, impossible))
}
