//! Perfect strategies (thesis Satz 4.2, §4.3.2, §4.4.2): exact optima by
//! branch-and-bound, next to the published values, with run times; trees are
//! exported to `results/` and verified by replay, and optimality certificates
//! (lower bounds) written and checked by the independent checker.

use super::perfect_certificates::{CertificateRow, certificate_cell, cheap_to_check};
use super::templates;
use super::{Comparison, Published};
use crate::certificate::{Certify, Header, build_certificate, check_certificate, read_certificate, write_certificate};
use crate::error::{Result, invalid};
use crate::games::GameSpec;
use crate::games::beams::game::{Beams, Penalty, QueryOrder};
use crate::games::beams::patterns::load_or_build;
use crate::games::mastermind::Mastermind;
use crate::output::Align::{Left, Right};
use crate::output::{MarkdownTable, Provenance, layout, write_json, write_table};
use crate::progress::Progress;
use crate::search::outcome::Exact;
use crate::search::perfect::{PerfectSearch, solve_perfect};
use crate::search::tree::{StrategyFile, export, verify};
use num_bigint::BigInt;
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// An optimum: searched in this run, or replayed from its committed tree.
///
/// Invariant: what is serialised is the same whether the row was searched or
/// replayed (the results file does not depend on `--full`); how it was
/// obtained and what it took is in [`RowRun`], for the run log.
#[derive(Serialize)]
pub struct Row {
    pub problem: String,
    pub codes: u64,
    pub total: u64,
    pub mean: f64,
    /// The counting bound at the root (thesis Satz 4.2).
    pub lower_bound_at_root: u64,
    /// Thesis (or literature) value, where there is one.
    pub published: Option<(String, Comparison)>,
    /// The tree file written (or committed), verified by replay.
    pub tree: Option<String>,
    /// The certificate written (or committed), read back and checked.
    pub certificate: Option<CertificateRow>,
    #[serde(skip)]
    pub run: RowRun,
}

/// How a row was obtained in this run (for the run log, never a results file).
#[derive(Clone, Debug, Default)]
pub struct RowRun {
    /// Replayed from the committed tree (and certificate) instead of searched.
    pub replayed: bool,
    /// Search nodes (0 when replayed) and seconds (search, or replay and checks).
    pub nodes: u64,
    pub seconds: f64,
}

/// What a published value states: the total over all codes, or the mean per code.
#[derive(Clone, Copy)]
enum Stated {
    Total,
    Mean,
}

/// Builds the certificate of `total`, writes it, reads it back and checks it
/// (seal and nodes); the proven bound must be `total`.
fn certify<P: Certify>(
    search: &crate::search::perfect::PerfectSearch<'_, P>,
    problem: &P,
    total: u64,
    path: &Path,
    game: GameSpec,
) -> Result<CertificateRow> {
    let (body, built) = build_certificate(search, problem, total)?;
    let header = Header::total(game, problem.code_count() as u64, total, built.nodes);
    let bytes = write_certificate(path, header, &body)?;
    let file = read_certificate::<GameSpec>(path)?;
    let checked = check_certificate(problem, &file.body)?;
    if !file.broken.is_empty() || checked.bound != total {
        return Err(invalid(format!("{}: the certificate read back does not check", path.display())));
    }
    Ok(CertificateRow {
        file: path.display().to_string(),
        nodes: checked.nodes,
        bytes,
        bound: checked.bound,
        proof_checked: true,
        build_seconds: built.seconds,
        check_seconds: checked.seconds,
    })
}

fn row<P: Certify>(
    problem: &P,
    published: Option<(&str, &'static str, Stated)>,
    tree: Option<(&Path, GameSpec)>,
    certificate: Option<&Path>,
    progress: &Progress,
) -> Result<Row> {
    let (result, search) = solve_perfect(problem);
    progress.note(&format!(
        "  {:<45} perfect {:>6} (mean {:.4}) in {:.2} s",
        result.problem, result.total, result.mean, result.seconds
    ));
    let certificate = match (certificate, &tree) {
        (Some(path), Some((_, game))) => {
            let c = certify(&search, problem, result.total, path, game.clone())?;
            progress.note(&format!(
                "    certificate {} nodes, {} bytes, built in {:.2} s, checked in {:.2} s",
                c.nodes, c.bytes, c.build_seconds, c.check_seconds
            ));
            Some(c)
        }
        _ => None,
    };
    let tree = match tree {
        Some((path, game)) => {
            let node = export(&search, problem)?;
            let checked = verify(problem, &node)?;
            assert_eq!(checked.total, result.total, "exported tree replays to its total");
            let file = StrategyFile {
                game,
                codes: result.codes,
                total: result.total,
                constraints: result.constraints,
                max_depth: Some(checked.max_depth),
                program: "renyi-search".into(),
                version: crate::VERSION.into(),
                tree: node,
                seal: None,
            };
            write_json(path, &file.sealed())?;
            Some(path.display().to_string())
        }
        None => None,
    };
    let run = RowRun { replayed: false, nodes: result.nodes, seconds: result.seconds };
    let published = compare(published, result.total, result.codes);
    Ok(Row {
        problem: result.problem,
        codes: result.codes,
        total: result.total,
        mean: result.mean,
        lower_bound_at_root: result.lower_bound_at_root,
        published,
        tree,
        certificate,
        run,
    })
}

/// Our total (or mean) next to a published value.
fn compare(published: Option<(&str, &'static str, Stated)>, total: u64, codes: u64) -> Option<(String, Comparison)> {
    let total = Exact::from_integer(BigInt::from(total));
    published.map(|(source, value, stated)| {
        let ours = match stated {
            Stated::Total => total.clone(),
            Stated::Mean => &total / Exact::from_integer(BigInt::from(codes)),
        };
        (source.to_string(), Comparison::new(&ours, Published(value), 0))
    })
}

/// A long search's row from its committed tree and certificate (issue 52):
/// the tree's seal checked and every code replayed through it, the
/// certificate's seal checked and, with `check_proof`, its whole proof.
fn replayed<P: Certify>(
    problem: &P,
    dir: &Path,
    stem: &str,
    published: Option<(&str, &'static str, Stated)>,
    check_proof: bool,
    progress: &Progress,
) -> Result<Row> {
    let clock = Instant::now();
    let committed = super::perfect_committed::committed_row(problem, dir, stem, None, None, check_proof)?
        .ok_or_else(|| invalid(format!("{}: the committed tree is missing; run `reproduce perfect --full`", stem)))?;
    let certificate = committed.certificate;
    if certificate.as_ref().is_some_and(|c| c.bound != committed.total) {
        return Err(invalid(format!("{stem}: the certificate does not prove the tree's total {}", committed.total)));
    }
    let codes = committed.codes;
    let run = RowRun { replayed: true, nodes: 0, seconds: clock.elapsed().as_secs_f64() };
    progress.note(&format!(
        "  {:<45} perfect {:>6} replayed from {} in {:.2} s (certificate {})",
        committed.problem,
        committed.total,
        committed.tree,
        run.seconds,
        if check_proof { "checked in full" } else { "seal checked" }
    ));
    Ok(Row {
        problem: committed.problem,
        codes,
        total: committed.total,
        mean: committed.total as f64 / codes as f64,
        lower_bound_at_root: PerfectSearch::new(problem).lower_bound(codes),
        published: compare(published, committed.total, codes),
        tree: Some(committed.tree),
        certificate,
        run,
    })
}

/// Computes the optima and writes `perfect.md/.json` into `dir`. Without
/// `full`, the searches of a minute or more (Beams(3c,6p), MM(4,7), MM(5,5))
/// are replayed from their committed trees and certificates and the
/// Beams(6c,3p) bound certificates above [`PROOF_CHECK_BYTES`] have their seal
/// checked; with `full`, they are searched (trees and certificates written
/// again) and every certificate is checked in full. The files written are
/// the same either way.
pub fn reproduce(dir: &Path, codes: Option<&Path>, full: bool, progress: &Progress) -> Result<Vec<Row>> {
    let clock = Instant::now();
    let mut rows = Vec::new();
    for (pegs, colors) in [(2, 2), (2, 3), (2, 4), (3, 3), (3, 4), (3, 5), (3, 6), (3, 7), (3, 8), (4, 4), (4, 5)] {
        rows.push(row(&Mastermind::new(pegs, colors, false)?, None, None, None, progress)?);
    }
    // A Mastermind row with its tree and certificate, perfect-<stem>.json|cert;
    // `long`: replayed unless `full`.
    let mm = |pegs, colors, distinct, published, stem: &str, long: bool| -> Result<Row> {
        let game = Mastermind::new(pegs, colors, distinct)?;
        let stem = format!("perfect-{stem}");
        if long && !full {
            let check = cheap_to_check(&layout::tree(dir, &format!("{stem}.cert")));
            return replayed(&game, dir, &stem, published, check, progress);
        }
        let spec = GameSpec::Mastermind { pegs, colors, distinct };
        let (tree, cert) = (layout::tree(dir, &format!("{stem}.json")), layout::tree(dir, &format!("{stem}.cert")));
        row(&game, published, Some((&tree, spec)), Some(&cert), progress)
    };
    rows.push(mm(4, 6, true, Some(("thesis §4.3 (MM-360)", "1446", Stated::Total)), "mm360", false)?);
    let variant = "3c6p".parse()?;
    let beams = Beams::new(load_or_build(variant, codes)?.0, QueryOrder::ColourFirst, Penalty::BestGuess)?;
    let beams_published = Some(("thesis §4.4.2 (7347/1860 = 3.95)", "7347", Stated::Total));
    rows.push(if full {
        let spec = GameSpec::Beams { variant, order: QueryOrder::ColourFirst };
        row(
            &beams,
            beams_published,
            Some((&layout::tree(dir, "perfect-beams-3c6p.json"), spec)),
            Some(&layout::tree(dir, "perfect-beams-3c6p.cert")),
            progress,
        )?
    } else {
        let check = cheap_to_check(&layout::tree(dir, "perfect-beams-3c6p.cert"));
        replayed(&beams, dir, "perfect-beams-3c6p", beams_published, check, progress)?
    });
    let mm1296 = Some(("thesis §4.3 / Koyama–Lai 1993 (MM-1296)", "5625", Stated::Total));
    rows.push(mm(4, 6, false, mm1296, "mm1296", false)?);
    rows.push(mm(4, 7, false, Some(("mean, Ville 2013 (MM(4,7))", "4.676", Stated::Mean)), "mm47", true)?);
    // Not in the thesis; whether Ville 2013's table of further variants lists
    // it could not be checked here, so no published value is claimed.
    rows.push(mm(5, 5, false, None, "mm55", true)?);
    progress.note("perfect strategies under constraints:");
    let constrained = super::perfect_constrained::rows(codes, progress)?;
    let committed = super::perfect_committed::rows(dir, full)?;
    let bounds = super::perfect_committed::bounds_rows(dir, codes, full, progress)?;
    let provenance = Provenance::stable("reproduce perfect", clock.elapsed().as_secs_f64());
    #[derive(Serialize)]
    struct Report<'a> {
        provenance: Provenance,
        rows: &'a [Row],
        constrained: &'a [super::perfect_constrained::ConstrainedRow],
        committed: &'a [super::perfect_committed::CommittedRow],
        bounds: &'a [super::perfect_committed::BoundsRow],
    }
    let report = Report {
        provenance: provenance.clone(),
        rows: &rows,
        constrained: &constrained,
        committed: &committed,
        bounds: &bounds,
    };
    let text = markdown(&rows, &provenance)
        + &super::perfect_constrained::markdown(&constrained)
        + &super::perfect_committed::markdown(&committed)
        + &super::perfect_committed::bounds_markdown(&bounds);
    write_table(dir, "perfect", &report, &text)?;
    Ok(rows)
}

fn markdown(rows: &[Row], p: &Provenance) -> String {
    let mut s = String::from("# Perfect strategies (branch-and-bound)\n\n");
    s += &format!("{}.\n\n", p.produced_by(""));
    s += "Exact minimum of the total number of queries over all codes (Mastermind: the secret must be played; Beams: rules of table-4.10, best-guess penalty).\n\n";
    let mut table = MarkdownTable::new([
        ("game", Left),
        ("codes", Right),
        ("perfect total", Right),
        ("mean", Right),
        ("published", Left),
        ("", Left),
        ("counting bound", Right),
        ("tree", Left),
        ("certificate", Left),
    ]);
    for r in rows {
        let (published, mark) = r
            .published
            .as_ref()
            .map_or((String::from("—"), ""), |(src, c)| (format!("{} ({src})", c.published), c.mark()));
        table.row([
            r.problem.to_string(),
            r.codes.to_string(),
            r.total.to_string(),
            format!("{:.4}", r.mean),
            published,
            mark.to_string(),
            r.lower_bound_at_root.to_string(),
            r.tree.clone().unwrap_or_default(),
            r.certificate.as_ref().map_or(String::new(), certificate_cell),
        ]);
    }
    s += &table.to_string();
    s += "\n";
    s += templates::PERFECT_NOTES;
    s
}
