//! `reproduce …`: the published tables recomputed into results/.

use super::*;

pub(super) const TARGETS: &str =
    "table-4.5, table-4.18, table-4.15, table-4.10, perfect, chess, nim, curves, mc-agents, bridg-it, all";

pub(super) fn reproduce(
    targets: &[String],
    dir: &std::path::Path,
    codes: &std::path::Path,
    full: bool,
    full_report: bool,
) -> Result<()> {
    let mut wanted: Vec<&str> = Vec::new();
    for t in targets {
        match t.as_str() {
            "all" => wanted.extend([
                "table-4.5",
                "table-4.18",
                "table-4.15",
                "table-4.10",
                "perfect",
                "chess",
                "nim",
                "curves",
                "mc-agents",
                "bridg-it",
            ]),
            "table-4.5" | "table-4.18" | "table-4.15" | "table-4.10" | "perfect" | "chess" | "nim" | "curves"
            | "mc-agents" | "bridg-it" => wanted.push(t),
            other => return Err(invalid(format!("unknown reproduce target {other:?} (accepted: {TARGETS})"))),
        }
    }
    wanted.dedup();
    for target in wanted {
        eprintln!("reproduce {target} → {}", dir.display());
        match target {
            "table-4.5" => {
                let cells = table_4_5::reproduce(dir, &progress(true))?;
                let equal = cells.iter().filter(|c| c.total.equal).count();
                eprintln!("table-4.5: {equal} of {} totals equal to the thesis", cells.len());
            }
            "table-4.15" => wurzel_free::reproduce(dir, &progress(true))?,
            "chess" => {
                let report = renyi_search::reproduce::chess::reproduce(dir, &progress(true))?;
                let equal = report.rows.iter().filter(|r| r.equal == Some(true)).count();
                eprintln!(
                    "chess: {equal} of 5 thesis maxima equal; all tables solved in {:.1} s",
                    report.total_solve_seconds
                );
            }
            "nim" => {
                let report = renyi_search::reproduce::nim::reproduce(dir, 100_000)?;
                eprintln!(
                    "nim: {} of {} published rows equal",
                    report.rows.iter().filter(|r| r.equal).count(),
                    report.rows.len()
                );
            }
            "perfect" => {
                renyi_search::reproduce::perfect::reproduce(dir, Some(codes), &progress(true))?;
            }
            "mc-agents" => {
                let r = renyi_search::reproduce::mc_agents::reproduce(dir)?;
                let equal: usize = r.table_2_4.iter().map(|row| row.equal.iter().filter(|e| **e).count()).sum();
                let n_star = r.table_2_14.iter().filter(|row| row.n_star_equal).count();
                let holds = r.facts.iter().chain(&r.chapter_3).filter(|f| f.holds).count();
                eprintln!(
                    "mc-agents: Table 2.4 {equal} of 21 exact values equal; Table 2.14 n* {n_star} of 6; {holds} of {} statements hold",
                    r.facts.len() + r.chapter_3.len()
                );
            }
            "bridg-it" => {
                // Default: self-play up to M = 10 (seconds); --full: up to M = 20.
                let max_order = if full { 20 } else { 10 };
                let r = renyi_search::reproduce::bridg_it::reproduce(dir, max_order, |line| eprintln!("{line}"))?;
                let holds = r.assertions.iter().filter(|a| a.verdict.starts_with("holds")).count();
                eprintln!("bridg-it: {holds} of {} assertions hold", r.assertions.len());
            }
            "curves" => {
                let curves = renyi_search::reproduce::curves::reproduce(dir, Some(codes))?;
                let unc: u64 = curves.iter().map(|c| c.report.uncertified).sum();
                eprintln!("curves: {} exact curves, {unc} uncertified breakpoints", curves.len());
            }
            "table-4.10" if full_report => {
                let cells = renyi_search::reproduce::beams_runs::reproduce_full(dir, codes, &progress(false), false)?;
                eprintln!("table-4.10 --full-report: {} finished Beams(6c,6p) cells", cells.len());
            }
            "table-4.10" => {
                let cells = table_4_10::reproduce(dir, Some(codes), &progress(true))?;
                let proto: Vec<_> = cells.iter().filter_map(|c| c.total_vs_prototype.as_ref()).collect();
                eprintln!(
                    "table-4.10: {} of {} prototype totals equal",
                    proto.iter().filter(|c| c.equal).count(),
                    proto.len()
                );
                // Without --full the finished 6c6p runs (results/runs/beams-6c6p/) are reported.
                let cells = renyi_search::reproduce::beams_runs::reproduce_full(dir, codes, &progress(true), full)?;
                eprintln!(
                    "table-4.10: {} of {} Beams(6c,6p) cells computed",
                    cells.len(),
                    renyi_search::reproduce::beams_runs::FULL_ROWS.len()
                );
            }
            _ => {
                table_4_18::reproduce(dir, &progress(true))?;
            }
        }
    }
    Ok(())
}
