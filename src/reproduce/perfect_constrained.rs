//! Perfect strategies under constraints (issue 27, item 2): depth caps, the
//! two lexicographic objectives over (total, worst case) and hard mode, next
//! to the literature where it states a value. The strategies are searched
//! here (capped searches, see `search::perfect` objective notes), none is read.

use super::templates;
use crate::error::Result;
use crate::games::beams::game::{Beams, Penalty, QueryOrder};
use crate::games::beams::patterns::load_or_build;
use crate::games::bulls_and_cows::BullsAndCows;
use crate::games::mastermind::Mastermind;
use crate::output::Align::{Left, Right};
use crate::output::MarkdownTable;
use crate::progress::Progress;
use crate::search::SearchProblem;
use crate::search::perfect::{Constraints, Objective, TableKeys, optimise};
use serde::Serialize;
use std::path::Path;

/// A constrained optimum.
#[derive(Serialize)]
pub struct ConstrainedRow {
    pub game: String,
    pub codes: u64,
    /// What is asked, e.g. "within 5 queries" or "fewest worst case, then total".
    pub question: String,
    /// The least total (`None`: no strategy meets the constraints).
    pub total: Option<u64>,
    /// The worst case of that strategy.
    pub max_depth: Option<u64>,
    /// The literature's statement, or "none published".
    pub published: String,
    /// "=" or "≠" against a published value; empty without one.
    pub mark: &'static str,
    /// Capped searches run.
    pub searches: usize,
    /// Nodes and seconds in all (run log only: they vary from run to run).
    #[serde(skip)]
    pub nodes: u64,
    #[serde(skip)]
    pub seconds: f64,
}

/// What the literature states: the total (`None`: no strategy exists) and,
/// where stated, the worst case.
struct Claim {
    total: Option<u64>,
    depth: Option<u64>,
    source: &'static str,
}

fn claim(total: Option<u64>, depth: Option<u64>, source: &'static str) -> Option<Claim> {
    Some(Claim { total, depth, source })
}

fn row<P: SearchProblem>(
    game: &P,
    constraints: Constraints,
    objective: Objective,
    published: Option<Claim>,
    progress: &Progress,
) -> Result<ConstrainedRow> {
    let optimum = optimise(game, constraints, objective, TableKeys::Exact, &Progress::none())?;
    let (total, max_depth) = match &optimum.result {
        Some(r) => (Some(r.total), Some(r.max_depth)),
        None => (None, None),
    };
    let mut question = match (objective, constraints.max_depth) {
        (Objective::DepthThenTotal, _) => "fewest worst-case queries, then least total".to_string(),
        (Objective::TotalThenDepth, _) => "least total, then fewest worst-case queries".to_string(),
        (Objective::Total, Some(k)) => format!("least total within {k} queries"),
        (Objective::Total, None) => "least total".to_string(),
    };
    if constraints.possible_only {
        question += ", possible codes only (hard mode)";
    }
    let (published, mark) = match published {
        None => ("none published".to_string(), ""),
        Some(c) => {
            let equal = c.total == total && c.depth.is_none_or(|d| Some(d) == max_depth);
            let value = match (c.total, c.depth) {
                (None, _) => "no strategy".to_string(),
                (Some(t), None) => t.to_string(),
                (Some(t), Some(d)) => format!("{t}, worst {d}"),
            };
            (format!("{value} ({})", c.source), if equal { "=" } else { "≠" })
        }
    };
    let seconds = optimum.steps.iter().map(|s| s.seconds).sum();
    let r = ConstrainedRow {
        game: game.name(),
        codes: game.code_count() as u64,
        question,
        total,
        max_depth,
        published,
        mark,
        searches: optimum.steps.len(),
        nodes: optimum.steps.iter().map(|s| s.nodes).sum(),
        seconds,
    };
    progress.note(&format!(
        "  {:<40} {:<60} {} (worst {}), {} nodes in {:.2} s",
        r.game,
        r.question,
        r.total.map_or("none".into(), |t| t.to_string()),
        r.max_depth.map_or("—".into(), |d| d.to_string()),
        r.nodes,
        r.seconds
    ));
    Ok(r)
}

/// The constrained optima of the table (about a minute on 2 threads; the
/// MM-1296 objective rows re-run the plain optimum each).
pub fn rows(codes: Option<&Path>, progress: &Progress) -> Result<Vec<ConstrainedRow>> {
    let within = |k| Constraints { max_depth: Some(k), possible_only: false };
    let hard = Constraints { max_depth: None, possible_only: true };
    let plain = Constraints::none();
    let (total, depth_first, total_first) = (Objective::Total, Objective::DepthThenTotal, Objective::TotalThenDepth);
    let knuth = "Knuth 1976: 5 guesses are needed";
    let mm1296 = Mastermind::new(4, 6, false)?;
    let mm360 = Mastermind::new(4, 6, true)?;
    let beams = Beams::new(load_or_build("3c6p".parse()?, codes)?.0, QueryOrder::ColourFirst, Penalty::BestGuess)?;
    let bc36 = BullsAndCows::new(3, 6)?;
    let bc410 = BullsAndCows::new(4, 10)?;
    Ok(vec![
        row(&mm1296, within(5), total, claim(Some(5626), None, "Koyama–Lai 1993"), progress)?,
        row(&mm1296, within(4), total, claim(None, None, knuth), progress)?,
        row(&mm1296, plain, depth_first, claim(Some(5626), Some(5), "Knuth 1976; Koyama–Lai 1993"), progress)?,
        row(&mm1296, plain, total_first, claim(Some(5625), Some(6), "Koyama–Lai 1993"), progress)?,
        row(&mm1296, hard, total, None, progress)?,
        row(&mm1296, hard, depth_first, None, progress)?,
        row(&mm360, plain, depth_first, None, progress)?,
        row(&mm360, plain, total_first, None, progress)?,
        row(&mm360, hard, depth_first, None, progress)?,
        row(&beams, plain, depth_first, None, progress)?,
        row(&beams, plain, total_first, None, progress)?,
        row(&bc36, plain, total_first, None, progress)?,
        row(&bc36, within(4), total, None, progress)?,
        row(&bc36, hard, depth_first, None, progress)?,
        // The optimum 26274 has worst case 7 (its committed tree, below); no
        // strategy within 6 makes 7 the least worst case (2 s).
        row(&bc410, within(6), total, claim(None, None, "worst case 7 in the literature"), progress)?,
    ])
}

/// The markdown section of `perfect.md`.
pub fn markdown(rows: &[ConstrainedRow]) -> String {
    let mut s = String::from("\n## Under constraints\n\n");
    s += templates::PERFECT_CONSTRAINTS;
    let mut table = MarkdownTable::new([
        ("game", Left),
        ("codes", Right),
        ("question", Left),
        ("total", Right),
        ("worst case", Right),
        ("published", Left),
        ("", Left),
        ("searches", Right),
    ]);
    for r in rows {
        table.row([
            r.game.to_string(),
            r.codes.to_string(),
            r.question.to_string(),
            r.total.map_or("none".into(), |t| t.to_string()),
            r.max_depth.map_or("—".into(), |d| d.to_string()),
            r.published.to_string(),
            r.mark.to_string(),
            r.searches.to_string(),
        ]);
    }
    s += &table.to_string();
    s
}
