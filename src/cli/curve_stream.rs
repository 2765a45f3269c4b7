//! `curve … --merge-slices K`: a unit run's merge walked in K slices of α,
//! its pieces written as each slice is done (CSV rows, the overview, the
//! summary), so that a curve of 10⁷ pieces is never held whole.

use super::curve::{CurveArgs, OVERVIEW_BINS, OVERVIEW_GRID_MAX, command_line};
use renyi_search::renyi::alpha::Alpha;
use renyi_search::curve::run::overview::{OverviewBuilder, OverviewHead, grid_to};
use renyi_search::curve::report::{segment_row, write_csv_head, write_csv_row};
use renyi_search::curve::run::units::{CurveUnitRun, CurveUnits, run_curve_units_in_slices};
use renyi_search::curve::walk::domain_text;
use renyi_search::curve::{Domain, Segment};
use renyi_search::error::{Error, Result, invalid};
use renyi_search::output::{Provenance, write_atomic_with, write_json};
use renyi_search::progress::Progress;
use renyi_search::search::{SearchProblem, TieRule};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Most slices a merge is cut into.
pub(super) const MERGE_SLICES_MAX: usize = 10_000;

/// The K − 1 cuts of a finite α-range into K slices of equal width (exact
/// rationals), or a one-line error.
pub(super) fn cuts(domain: &Domain, slices: usize) -> Result<Vec<Alpha>> {
    let bad = |why: &str| invalid(format!("--merge-slices {slices}: {why}"));
    if !(2..=MERGE_SLICES_MAX).contains(&slices) {
        return Err(bad(&format!("give 2 to {MERGE_SLICES_MAX} slices")));
    }
    let end = |p: &renyi_search::curve::Point| match p.alpha() {
        Some(Alpha::Finite { num, den }) => Some((num as u128, den as u128)),
        _ => None,
    };
    let (Some((a, b)), Some((c, d))) = (end(&domain.lo), end(&domain.hi)) else {
        return Err(bad("slices need a finite --to"));
    };
    // α_k = lo + k·(hi − lo)/K = (a·d·K + k·(c·b − a·d)) / (b·d·K), in u128
    // (ends given as fractions with huge denominators are refused).
    let too_large = || bad("the cuts' fractions are too large; choose simpler --from/--to");
    let k_max = slices as u128;
    let mul = |x: u128, y: u128| x.checked_mul(y).ok_or_else(too_large);
    let den = mul(mul(b, d)?, k_max)?;
    let (cb, ad) = (mul(c, b)?, mul(a, d)?);
    let width = cb.checked_sub(ad).filter(|&w| w > 0).ok_or_else(|| bad("the α-range is a single point"))?;
    let base = mul(ad, k_max)?;
    (1..k_max)
        .map(|k| {
            let num = mul(k, width)?.checked_add(base).ok_or_else(too_large)?;
            let g = gcd(num, den);
            match (u64::try_from(num / g), u64::try_from(den / g)) {
                (Ok(n), Ok(m)) => Alpha::ratio(n, m).map_err(|_| bad("a cut is not a valid α")),
                _ => Err(too_large()),
            }
        })
        .collect()
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The sliced merge and its outputs (if units are still missing, what is
/// known is printed instead).
#[allow(clippy::too_many_arguments)]
pub(super) fn merge_in_slices<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    run: &CurveUnitRun,
    slices: usize,
    out: &CurveArgs,
    started: SystemTime,
    progress: &Progress,
) -> Result<()> {
    let cuts = cuts(domain, slices)?;
    let step = out.grid_step()?;
    let alphas = grid_to(domain, domain.hi.enclosure().hi, step, OVERVIEW_GRID_MAX).unwrap_or_default();
    super::curve::warn_if_grid_cut(out, &alphas);
    let codes = problem.code_count() as u64;
    let mut overview = OverviewBuilder::new(
        codes,
        step,
        alphas,
        Some((domain.lo.enclosure().lo, domain.hi.enclosure().hi)),
        OVERVIEW_BINS,
    );
    // Made at the first piece: a process that only evaluates units makes none.
    let mut rows: Option<RowsFile> = None;
    let mut sink = |s: &Segment| -> Result<()> {
        if let Some(csv) = &out.csv {
            if rows.is_none() {
                rows = Some(RowsFile::create(csv)?);
            }
            if let Some(rows) = &mut rows {
                rows.write(s, codes)?;
            }
        }
        overview.add(s);
        Ok(())
    };
    let merged = run_curve_units_in_slices(problem, tie, domain, run, &cuts, progress, &mut sink);
    let (merge, units, evaluated, missing) = match merged? {
        CurveUnits::Complete { curve, units, evaluated, missing } => (curve, units, evaluated, missing),
        CurveUnits::Incomplete { units, known, unit_codes, known_codes, evaluated } => {
            super::curve::print_incomplete(units, known, unit_codes, known_codes, evaluated, out);
            return Ok(());
        }
    };
    super::curve::say_merged(units, evaluated, missing, &format!("merged in {slices} slices"));
    let head = OverviewHead {
        provenance: Provenance::new(command_line(), started, merge.seconds),
        game: problem.name(),
        tie_rule: tie.to_string(),
        domain: domain_text(domain),
        nodes_evaluated: merge.nodes_evaluated,
        uncertified: merge.uncertified,
    };
    let o = renyi_search::output::all_or_none(|| {
        if let (Some(rows), Some(path)) = (rows, &out.csv) {
            rows.finish(path)?;
        }
        let o = overview.finish(head);
        if let Some(path) = &out.overview {
            write_json(path, &o)?;
        }
        Ok(o)
    })?;
    for line in o.summary() {
        println!("{line}");
    }
    println!("  {} pieces in {} slices: written to --csv (rows) and --overview", o.pieces, merge.slices);
    Ok(())
}

/// The CSV's rows while the merge runs: gzip (fast) in a temporary file next
/// to the CSV (named with the process id, so that shards sharing a --csv name
/// do not share it), since its first line states the run time, known at the end.
struct RowsFile {
    path: PathBuf,
    z: Option<flate2::write::GzEncoder<std::io::BufWriter<std::fs::File>>>,
}

impl RowsFile {
    fn create(csv: &Path) -> Result<RowsFile> {
        if let Some(dir) = csv.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
        }
        let path = if renyi_search::output::target::writes_in_place(csv) {
            // Stdout or a device: the rows wait in the temp directory.
            std::env::temp_dir().join(format!("renyi-search-rows-{}.tmp.gz", std::process::id()))
        } else {
            let mut name = csv.as_os_str().to_owned();
            name.push(format!(".rows-{}.tmp.gz", std::process::id()));
            PathBuf::from(name)
        };
        // Listed before it exists, so that SIGINT/SIGTERM remove it.
        renyi_search::output::track_temporary(&path);
        let file = std::fs::File::create(&path).map_err(|e| {
            renyi_search::output::forget_temporary(&path);
            io(&path, e)
        })?;
        let z = flate2::write::GzEncoder::new(
            std::io::BufWriter::with_capacity(1 << 20, file),
            flate2::Compression::fast(),
        );
        Ok(RowsFile { path, z: Some(z) })
    }

    fn write(&mut self, s: &Segment, codes: u64) -> Result<()> {
        match &mut self.z {
            Some(z) => write_csv_row(z, &segment_row(s, codes)).map_err(|e| io(&self.path, e)),
            None => Ok(()),
        }
    }

    /// Writes the CSV (its column row, then the rows) atomically and removes the rows' file;
    /// what produced it is in the overview JSON.
    fn finish(mut self, csv: &Path) -> Result<()> {
        let path = self.path.clone();
        let done = self.z.take().map_or(Ok(()), |z| z.finish().and_then(|mut w| w.flush()));
        done.map_err(|e| io(&path, e)).and_then(|()| {
            write_atomic_with(csv, |w| {
                write_csv_head(w)?;
                let mut rows = flate2::read::GzDecoder::new(std::io::BufReader::new(std::fs::File::open(&path)?));
                std::io::copy(&mut rows, w).map(|_| ())
            })
        })
        // Dropping `self` removes the rows' file.
    }
}

impl Drop for RowsFile {
    /// A merge that fails leaves no temporary file behind.
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
        renyi_search::output::forget_temporary(&self.path);
    }
}

fn io(path: &Path, source: std::io::Error) -> Error {
    Error::Io { path: path.display().to_string(), source }
}
