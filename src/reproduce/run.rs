//! Runs one `reproduce` target and reports what it checked
//! ([`super::summary::TargetReport`]): every published value it compares and
//! every statement it tests, labelled so that the documented differences
//! ([`super::summary::KNOWN_DIFFERENCES`]) can be told from failures.

use super::hex_witness::WitnessTable;
use super::sealed::Provenance;
use super::summary::{Check, Target, TargetReport, snapshot, written};
use crate::cpu_time::process_cpu_seconds;
use crate::error::Result;
use crate::progress::Progress;
use std::path::PathBuf;
use std::time::Instant;

/// Where a run writes and what it recomputes.
#[derive(Clone, Debug)]
pub struct Options {
    /// The results directory (`results/`).
    pub dir: PathBuf,
    /// The code-table cache (`codes/`).
    pub codes: PathBuf,
    /// Recompute everything from scratch: the long perfect searches and
    /// certificate checks (otherwise replayed from their committed, sealed
    /// results) and, with table-4.10, the Beams(6c,6p) cells still missing.
    pub full: bool,
    /// With table-4.10: report the finished Beams(6c,6p) runs only.
    pub full_report: bool,
}

/// Runs `target` and reports its checks, time and files written.
pub fn run(target: Target, options: &Options, progress: &Progress) -> Result<TargetReport> {
    let before = snapshot(&options.dir);
    let (clock, cpu) = (Instant::now(), process_cpu_seconds());
    let (checks, notes) = checks(target, options, progress)?;
    let cpu_seconds = cpu.zip(process_cpu_seconds()).map(|(a, b)| b - a);
    let files_written = written(&before, &snapshot(&options.dir));
    let how = provenance(target, options.full);
    Ok(TargetReport { target, seconds: clock.elapsed().as_secs_f64(), cpu_seconds, checks, files_written, notes, how })
}

/// Whether `target` takes a part of its results from committed files in this run:
/// by default the long searches of perfect, the Beams(6c,3p) curves, the 6×6 Hex map, the
/// 4-man chess tables under DTM and DTC, table-4.15's H_α Wurzel curves beyond 10^5; always the
/// finished Beams(6c,6p) work-unit runs of table-4.10. The 7×7 and 8×8 Hex maps are only read.
fn provenance(target: Target, full: bool) -> Provenance {
    match target {
        Target::Table4_10 => Provenance::Replayed,
        Target::Perfect | Target::Curves | Target::Hex | Target::Chess | Target::Table4_15 if !full => {
            Provenance::Replayed
        }
        Target::Hex7 | Target::Hex8 | Target::HexWitness if !full => Provenance::Read,
        _ => Provenance::Recomputed,
    }
}

// Long: one match over the reproduce targets, each arm a library call and its checks
fn checks(target: Target, o: &Options, progress: &Progress) -> Result<(Vec<Check>, Vec<String>)> {
    let (dir, codes) = (o.dir.as_path(), Some(o.codes.as_path()));
    let mut checks = Vec::new();
    let mut notes = Vec::new();
    match target {
        Target::Table4_5 => {
            for c in super::table_4_5::reproduce(dir, progress)? {
                let at = format!("{} {}", c.variant, c.strategy);
                checks.push(Check::published(format!("{at} total"), c.total.equal));
                checks.push(Check::published(format!("{at} mean"), c.mean.equal));
                checks.push(Check::published(format!("{at} Δ %"), c.delta_percent.equal));
            }
        }
        Target::Table4_18 => {
            for r in super::table_4_18::reproduce(dir, progress)? {
                checks.push(Check::published(format!("{} best mean", r.variant), r.best_mean.equal));
                if let Some(d) = &r.delta_percent {
                    checks.push(Check::published(format!("{} Δ %", r.variant), d.equal));
                }
            }
        }
        Target::Table4_15 => {
            for (n, c) in super::wurzel_free::reproduce(dir, progress, !o.full)?.iter().enumerate() {
                checks.push(Check::published(format!("Wurzel perfect total |C| = {}", n + 1), c.equal));
            }
        }
        Target::Table4_10 => table_4_10(o, progress, &mut checks, &mut notes)?,
        Target::Perfect => perfect(o, progress, &mut checks, &mut notes)?,
        Target::Chess => {
            let r = super::chess::reproduce(dir, progress, !o.full)?;
            for row in &r.rows {
                let at = format!("{} {}", row.endgame, row.metric.name());
                if let Some(equal) = row.equal {
                    checks.push(Check::published(format!("{at} max / positions / classes"), equal));
                }
                let how = if row.replayed { "forward re-check in the sealed results" } else { "forward re-check" };
                checks.push(Check::own(format!("{at}: {how}"), row.forward_check_mismatches == 0));
            }
            for e in &r.examples {
                let at = format!("{} {} {}", e.endgame, e.position, e.metric.name());
                checks.push(Check::published(format!("{at} example depth"), e.ours == Some(e.published)));
            }
            notes.push(format!("chess: retrograde solving of all tables {:.1} s", r.total_solve_seconds));
        }
        Target::Nim => {
            let r = super::nim::reproduce(dir, 100_000)?;
            checks.extend(r.rows.iter().map(|row| Check::published(row.name.clone(), row.equal)));
            checks.extend(r.facts.iter().map(|f| Check::own(f.statement.clone(), f.holds)));
            notes.push(format!("nim: Grundy's game to {} in {:.2} s", r.grundy_game.0, r.grundy_seconds));
        }
        Target::Curves => {
            let (curves, anchors) = super::curves::reproduce_checked(dir, codes, o.full)?;
            for c in &curves {
                let uncertified = c.report.uncertified;
                checks.push(Check::own(format!("{}: {uncertified} uncertified breakpoints", c.stem), uncertified == 0));
                if let Some(s) = &c.replayed {
                    let what = format!(
                        "{}: seal holds, analyze agrees at {} of α = {}, best α consistent",
                        c.stem,
                        s.agree,
                        s.alphas.join(", ")
                    );
                    checks.push(Check::own(what, s.holds()));
                }
            }
            for a in &anchors {
                checks.push(Check::published(format!("{} at α = {}", a.curve, a.alpha), a.equal));
            }
        }
        Target::McAgents => {
            let r = super::mc_agents::reproduce(dir)?;
            for row in &r.table_2_4 {
                for (i, equal) in row.equal.iter().enumerate() {
                    checks.push(Check::published(format!("Table 2.4 k = {} value {}", row.k, i + 1), *equal));
                }
            }
            for row in &r.table_2_14 {
                checks.push(Check::published(format!("Table 2.14 {} n*", row.game), row.n_star_equal));
            }
            checks.extend(r.facts.iter().chain(&r.chapter_3).map(|f| Check::own(f.statement.clone(), f.holds)));
        }
        Target::BridgIt => {
            // Self-play up to M = 10 by default (seconds), M = 20 with --full; the exact
            // temperature curve for M = 3 (M = 4 passes 12 million positions). Resumable:
            // a checkpoint under runs/ until the results are written.
            let run = super::bridg_it::BridgItRun::standard(dir, o.full);
            let r = super::bridg_it::reproduce(dir, &run, progress, |line| notes.push(line.to_string()))?;
            for a in &r.assertions {
                if a.verdict == "not computed" {
                    notes.push(format!("bridg-it: assertion {} not computed", a.id));
                } else {
                    checks.push(Check::published(format!("assertion {}", a.id), a.verdict.starts_with("holds")));
                }
            }
        }
        Target::Hex => hex(o, progress, &mut checks, &mut notes)?,
        Target::Hex7 => hex_map(7, o, progress, &mut checks, &mut notes)?,
        Target::Hex8 => hex_map(8, o, progress, &mut checks, &mut notes)?,
        Target::HexWitness => hex_witness(o, progress, &mut checks, &mut notes)?,
    }
    Ok((checks, notes))
}

fn table_4_10(o: &Options, progress: &Progress, checks: &mut Vec<Check>, notes: &mut Vec<String>) -> Result<()> {
    if !o.full_report {
        for c in super::table_4_10::reproduce(&o.dir, Some(&o.codes), progress)? {
            let at = format!("{} H_{} {}", c.variant, c.alpha, c.column);
            checks.push(Check::published(format!("{at} mean vs thesis"), c.mean_vs_thesis.equal));
            if let Some(p) = &c.total_vs_prototype {
                checks.push(Check::published(format!("prototype total {at}"), p.equal));
            }
        }
    }
    // Without --full the finished 6c6p runs (results/runs/beams-6c6p/) are reported.
    let cells = super::table_4_10::reproduce_6c6p(&o.dir, &o.codes, progress, o.full && !o.full_report)?;
    for c in &cells {
        let at = format!("Beams(6c,6p) H_{} {}", c.alpha, c.column);
        checks.push(Check::published(format!("{at} mean vs thesis"), c.mean_vs_thesis.equal));
    }
    let all = super::beams_runs::FULL_ROWS.len();
    notes.push(format!("table-4.10: {} of {all} Beams(6c,6p) cells from their committed runs", cells.len()));
    checks.push(Check::own(
        format!("{} of {all} Beams(6c,6p) cells have finished runs", cells.len()),
        cells.len() == all,
    ));
    Ok(())
}

fn perfect(o: &Options, progress: &Progress, checks: &mut Vec<Check>, notes: &mut Vec<String>) -> Result<()> {
    let rows = super::perfect::reproduce(&o.dir, Some(&o.codes), o.full, progress)?;
    for r in &rows {
        if let Some((_, c)) = &r.published {
            checks.push(Check::published(format!("{} perfect total", r.problem), c.equal));
        }
        if let Some(c) = &r.certificate {
            checks.push(Check::own(format!("{}: certificate proves the tree's total", r.problem), c.bound == r.total));
            let how = if c.proof_checked { "proof checked in full" } else { "seal checked" };
            let run = if r.run.replayed { "replayed from its committed tree" } else { "searched" };
            notes.push(format!("perfect {}: {run}, certificate {how} ({:.1} s)", r.problem, r.run.seconds));
        }
    }
    Ok(())
}

/// Hex (seed 004): the opening maps of the empty boards up to 6×6 (every proof
/// replayed by the independent checker) and the seed's checks by computation.
fn hex(o: &Options, progress: &Progress, checks: &mut Vec<Check>, notes: &mut Vec<String>) -> Result<()> {
    // Maps 1×1..6×6 and the default samples in both modes, so that `--full`
    // writes the same bytes. By default the 6×6 map is replayed from the
    // committed, sealed hex.json with two of its openings solved and proved
    // again; `--full` solves its 36 openings as a checkpointed job.
    let (maps, seed, replayed) = super::hex::reproduce(&o.dir, 6, false, !o.full, progress)?;
    super::hex_markdown::write(&o.dir, &maps, &seed, o.full)?;
    if let Some(r) = &replayed {
        checks.push(Check::own(
            format!(
                "hex {0}x{0}: seal holds, openings {1:?} solved and proved again agree ({2} of {3})",
                r.n,
                r.openings,
                r.agree,
                r.openings.len()
            ),
            r.agree == r.openings.len(),
        ));
    }
    for m in &maps {
        let wins = m.black_wins.iter().filter(|&&w| w).count();
        // Hex on an n×n board is a first-player win (strategy stealing), so some opening wins.
        checks.push(Check::own(
            format!("hex {0}x{0}: {wins} winning openings, proofs checked", m.n),
            wins > 0 && m.proofs_checked,
        ));
        let half_turn = (0..m.n * m.n).all(|c| m.black_wins[c] == m.black_wins[super::hex_map::half_turn(m.n, c)]);
        checks.push(Check::own(format!("hex {0}x{0}: the half turn keeps every opening's winner", m.n), half_turn));
        let how = if replayed.as_ref().is_some_and(|r| r.n == m.n) { "replayed" } else { "solved" };
        if m.n >= 6 && how == "solved" {
            let board = crate::two_player::connection::hex::board::Board::new(m.n, m.n)?;
            for (cell, (nodes, seconds)) in m.nodes.iter().zip(&m.seconds).enumerate() {
                let name = board.cell_name(cell);
                notes.push(format!("hex {0}x{0} opening {name}: {nodes} nodes, {seconds:.2} s", m.n));
            }
        }
        notes.push(format!(
            "hex {0}x{0}: {1} nodes, {how} in {2:.2} s",
            m.n,
            m.nodes.iter().sum::<u64>(),
            m.seconds.iter().sum::<f64>()
        ));
    }
    checks.extend(seed.figure_4.iter().map(|(what, _, holds)| Check::own(format!("hex Figure 4: {what}"), *holds)));
    for (what, s) in &seed.soundness {
        checks.push(Check::own(format!("hex Satz 4.1 on {what}: {} unsound", s.unsound), s.unsound == 0));
    }
    let (tried, agree) = seed.satz_5_4;
    checks.push(Check::own(format!("hex Satz 5.4: {agree} of {tried} graphs agree"), agree == tried));
    checks.push(Check::own(format!("hex DVLS against H-search: {} disagreements", seed.dvls.2), seed.dvls.2 == 0));
    // Kor 6.11 on the empty boards' edge pairs: the seed says always equal; docs/hex.md, session 28.
    let differ: Vec<String> =
        seed.dvls_boards.iter().filter(|r| r.h_search != r.dvls).map(|r| format!("{} {}", r.board, r.player)).collect();
    checks.push(Check::published(
        format!("hex Kor 6.11 on real boards: DVLS and H-search disagree on {differ:?}"),
        differ.is_empty(),
    ));
    let documented = differ == ["3×4 white", "4×3 black"] && seed.dvls_boards.iter().all(|r| r.dvls <= r.h_search);
    checks.push(Check::own("hex Kor 6.11 on real boards: the disagreements are the documented ones", documented));
    let (pairs, with, bad) = seed.vvls;
    checks
        .push(Check::own(format!("hex Def 7.1: {with} of {pairs} pairs have a VVLS, {bad} without a DVLS"), bad == 0));
    // §9.16 beyond the 9 cells above: the sealed hex-witness search, its witnesses verified again.
    witness_checks(super::hex_witness::committed(&o.dir)?.as_ref(), checks, notes)
}

/// The search for the smallest witnesses of HEX ∖ HEXY (seed 004 §9.16): `--full` runs or
/// resumes it (the table is sealed after each cell count); otherwise the committed table is read
/// if its seal holds. Either way its witnesses are verified again.
fn hex_witness(o: &Options, progress: &Progress, checks: &mut Vec<Check>, notes: &mut Vec<String>) -> Result<()> {
    let table = if o.full {
        Some(super::hex_witness::reproduce_full(&o.dir, progress)?)
    } else {
        super::hex_witness::committed(&o.dir)?
    };
    witness_checks(table.as_ref(), checks, notes)
}

/// The check of a witness table (its witnesses verified again) and a note on how far it went.
fn witness_checks(table: Option<&WitnessTable>, checks: &mut Vec<Check>, notes: &mut Vec<String>) -> Result<()> {
    let Some(table) = table else {
        notes.push("hex-witness: no sealed table yet (`reproduce --full hex-witness` runs the search)".into());
        return Ok(());
    };
    let verified = super::hex_witness::reverify(table)?;
    let ok = verified.iter().filter(|&&v| v).count();
    checks.push(Check::own(
        format!(
            "hex §9.16 (sealed hex-witness search): {}; {ok} of {} witnesses (smallest, per shape) verified again",
            super::hex_witness::answer(table),
            verified.len()
        ),
        ok == verified.len(),
    ));
    let cpu: f64 = table.rows.iter().map(|r| r.cpu_seconds).chain(table.shapes.iter().map(|r| r.cpu_seconds)).sum();
    let answer = super::hex_witness::answer(table);
    let shapes = super::hex_witness::shapes_answer(table);
    notes.push(format!("hex-witness (sealed): {answer}; per shape: {shapes}; {cpu:.1} CPU-s; {}", table.machine));
    Ok(())
}

/// The n×n opening map (7×7, 8×8): `--full` runs or resumes its checkpointed
/// job (the table is written and sealed when every representative is solved);
/// otherwise the committed table is read if its seal holds.
fn hex_map(n: usize, o: &Options, progress: &Progress, checks: &mut Vec<Check>, notes: &mut Vec<String>) -> Result<()> {
    let map = if o.full {
        let (run, map) = super::hex_map::reproduce_full(&o.dir, n, progress)?;
        notes.push(format!(
            "hex {n}x{n}: {} of {} representatives solved ({} records from the checkpoint{}), {} at a time",
            run.solved.len(),
            run.openings.len(),
            run.resumed,
            if run.split { format!("; reply by reply, {} replies solved now", run.new_replies) } else { String::new() },
            run.workers
        ));
        map
    } else {
        super::hex_map::committed(&o.dir, n)?
    };
    let Some(map) = map else {
        notes.push(format!("hex {n}x{n}: no finished map yet (`reproduce --full hex-{n}x{n}` runs or resumes it)"));
        return Ok(());
    };
    let wins = map.rows.iter().filter(|r| r.black_wins).count();
    checks.push(Check::own(
        format!("hex {n}x{n}: {wins} winning openings, proofs checked"),
        wins > 0 && map.proofs_checked(),
    ));
    let cpu: f64 = map.rows.iter().filter_map(|r| r.cpu_seconds).sum();
    notes.push(format!("hex {n}x{n}: {cpu:.0} CPU-s over the solved openings; {}", map.machine));
    Ok(())
}
