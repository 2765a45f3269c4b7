//! `verify …`: every secret replayed through a strategy file, its claims
//! (total, worst case, cap, hard mode) checked and its seal compared.

use renyi_search::certificate::{check_certificate, read_certificate};
use renyi_search::error::{Error, Result, invalid};
use renyi_search::games::GameSpec;
use renyi_search::games::beams::Variant;
use renyi_search::games::beams::game::{Beams, Penalty, QueryOrder};
use renyi_search::games::beams::patterns::load_or_build;
use renyi_search::games::bulls_and_cows::BullsAndCows;
use renyi_search::games::mastermind::Mastermind;
use renyi_search::search::tree::{self, Replay, SealCheck, Verified, first_impossible_query, read_strategy_file};
use std::path::Path;

/// `verify [TREE] [--certificate FILE]`: the tree's total is an upper bound,
/// the certificate's a lower bound; equal, they prove the optimum.
pub(super) fn verify_command(tree: Option<&Path>, certificate: Option<&Path>) -> Result<()> {
    let upper = match tree {
        Some(path) => Some(verify_file(path)?),
        None if certificate.is_none() => {
            return Err(invalid("verify: give a strategy file, --certificate FILE, or both"));
        }
        None => None,
    };
    let Some(path) = certificate else { return Ok(()) };
    let (spec, lower) = verify_certificate(path)?;
    if let (Some((tree_spec, total)), Some(path_tree)) = (upper, tree) {
        if tree_spec != spec {
            return Err(invalid(format!("{} and {} are about different games", path_tree.display(), path.display())));
        }
        if total == lower {
            println!("optimal: the tree's total {total} equals the certificate's lower bound");
        } else {
            println!("not proven optimal: the tree's total {total} is above the certificate's lower bound {lower}");
        }
    }
    Ok(())
}

/// Checks a certificate file: seal, then every node; returns the game and the proven bound.
fn verify_certificate(path: &Path) -> Result<(GameSpec, u64)> {
    let file = read_certificate::<GameSpec>(path)?;
    let report = match &file.header.game {
        GameSpec::Mastermind { pegs, colors, distinct } => {
            check_certificate(&Mastermind::new(*pegs, *colors, *distinct)?, &file.body)
        }
        GameSpec::BullsAndCows { digits, symbols } => {
            check_certificate(&BullsAndCows::new(*digits, *symbols)?, &file.body)
        }
        GameSpec::Beams { variant, order } => check_certificate(&beams_game(*variant, *order)?, &file.body),
    };
    let sealed = if file.broken.is_empty() {
        None
    } else {
        Some(format!(
            "the file was edited after it was written: the CRC-32 of its {} does not match",
            file.broken.join(" and ")
        ))
    };
    let report = match report {
        Ok(r) => r,
        Err(e) => {
            return Err(invalid(
                [Some(format!("{}: {e}", path.display())), sealed].into_iter().flatten().collect::<Vec<_>>().join("; "),
            ));
        }
    };
    if let Some(edited) = sealed {
        return Err(invalid(format!("{}: {edited}", path.display())));
    }
    if report.bound < file.header.bound || file.header.objective != "total" {
        return Err(invalid(format!(
            "{}: the file claims {} ≥ {} but its nodes prove {}",
            path.display(),
            file.header.objective,
            file.header.bound,
            report.bound
        )));
    }
    println!(
        "{}: certificate checked ({} nodes, {} answers looked up, {:.2} s): the least total is at least {}",
        path.display(),
        report.nodes,
        report.lookups,
        report.seconds,
        report.bound
    );
    Ok((file.header.game, report.bound))
}

fn beams_game(variant: Variant, order: QueryOrder) -> Result<Beams> {
    Beams::new(load_or_build(variant, None)?.0, order, Penalty::BestGuess)
}

/// Replays a strategy file; returns its game and verified total.
fn verify_file(path: &Path) -> Result<(GameSpec, u64)> {
    let text =
        std::fs::read_to_string(path).map_err(|source| Error::Io { path: path.display().to_string(), source })?;
    let (file, seal) = read_strategy_file::<GameSpec>(&text).map_err(|e| e.at(&path.display().to_string()))?;
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
            check(&beams_game(*variant, *order)?, &file.tree, file.constraints.possible_only)
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
    Ok((file.game, checked.total))
}

/// The replay, and in hard mode the first query that is not a possible secret.
fn check<P: Replay>(game: &P, tree: &tree::TreeNode, hard: bool) -> Result<(Verified, Option<(String, usize)>)> {
    let checked = tree::verify(game, tree)?;
    let impossible = if hard { first_impossible_query(game, tree, &mut Vec::new()) } else { None };
    Ok((checked, impossible))
}
