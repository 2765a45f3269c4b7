//! The arguments of `curve …`: the games, the α-range, the output files
//! and the work-unit options, checked before any work.

use super::common_args::{Tie, TieArgs, beams_rule};
use super::variants::{BullsAndCowsVariant, MastermindVariant};
use clap::{Args, Subcommand};
use renyi_search::curve::run::run_key::UnitCut;
use renyi_search::curve::slice::{MAX_SLICES, SliceError, equal_cuts};
use renyi_search::curve::{Domain, Point};
use renyi_search::error::{Result, invalid};
use renyi_search::games::beams::rule::BeamsRule;
use renyi_search::output::same_file::NamedPaths;
use renyi_search::renyi::alpha::Alpha;
use renyi_search::search::units::Shard;
use std::path::PathBuf;

#[derive(Subcommand)]
pub(crate) enum CurveGame {
    /// Mastermind MM(p,c).
    Mastermind {
        #[command(flatten)]
        variant: MastermindVariant,
        #[command(flatten)]
        ties: TieArgs,
        #[command(flatten)]
        out: CurveArgs,
    },
    /// Bulls and Cows: D distinct digits of N.
    BullsAndCows {
        #[command(flatten)]
        variant: BullsAndCowsVariant,
        #[command(flatten)]
        ties: TieArgs,
        #[command(flatten)]
        out: CurveArgs,
    },
    /// Beams (3c6p, 6c3p; 6c6p needs a work-unit run).
    Beams {
        variant: String,
        /// lex-c, lex-d, mix or mix-reduced (as in `analyze beams`).
        #[arg(long, default_value = "lex-c", value_parser = beams_rule())]
        tie: BeamsRule,
        /// Cache directory for pattern tables.
        #[arg(long, default_value = "codes")]
        codes: PathBuf,
        #[command(flatten)]
        out: CurveArgs,
    },
    /// Free search problem of query width a, at one set size.
    Free {
        #[arg(long, default_value_t = 2)]
        width: u64,
        #[arg(long, default_value_t = 1000)]
        size: u64,
        #[arg(long, value_enum, default_value_t = Tie::Lex)]
        tie: Tie,
        #[command(flatten)]
        out: CurveArgs,
    },
    /// Wurzel model (budget ⌈√|C|⌉), at one set size.
    Wurzel {
        #[arg(long, default_value_t = 1000)]
        size: u64,
        #[arg(long, value_enum, default_value_t = Tie::Lex)]
        tie: Tie,
        #[command(flatten)]
        out: CurveArgs,
    },
}

#[derive(Args)]
pub(crate) struct CurveArgs {
    /// Lower end of the α-range (included): a number ≥ 0, a fraction, or inf.
    #[arg(long, default_value = "0", allow_hyphen_values = true)]
    pub(super) from: String,
    /// Upper end of the α-range (included); default ∞.
    #[arg(long, default_value = "inf", allow_hyphen_values = true)]
    pub(super) to: String,
    /// Write one CSV row per interval and per point to this file.
    #[arg(long)]
    pub(super) csv: Option<PathBuf>,
    /// Write the curve as JSON (with provenance) to this file.
    #[arg(long)]
    pub(super) json: Option<PathBuf>,
    /// Write an overview as JSON to this file: the best α, the exact values on
    /// the --grid, and the least and greatest mean per 1/1000 of the α-range
    /// (for curves of millions of pieces, whose full CSV is gigabytes).
    #[arg(long)]
    pub(super) overview: Option<PathBuf>,
    /// The overview's grid of α: every multiple of this step in the range.
    #[arg(long, default_value = "1/100")]
    pub(super) grid: String,
    /// Print every piece even when there are many.
    #[arg(long)]
    pub(super) all: bool,
    /// Show progress: a bar on a terminal, dated lines with ETA in a log.
    #[arg(long)]
    pub(super) progress: bool,
    /// Work-unit run: cut the walk this many queries below the root (1 or 2);
    /// needs --checkpoint.
    #[arg(long)]
    pub(super) levels: Option<usize>,
    /// Work-unit run: a node at the cut of more than this many codes is cut one
    /// query deeper, again until at most this many (units a session can finish).
    #[arg(long, value_name = "CODES", requires = "levels")]
    pub(super) split_above: Option<u64>,
    /// Work-unit run: this process's run file (resumed if present, appended to).
    #[arg(long)]
    pub(super) checkpoint: Option<PathBuf>,
    /// Work-unit run: evaluate only units with number ≡ i mod N. With
    /// --list-units (and no --units): list only the units of shard i of N as
    /// dealt by their codes, without listing the others.
    #[arg(long)]
    pub(super) shard: Option<String>,
    /// Work-unit run: `--deal codes`: this shard deals itself its units by
    /// their codes (as --list-units --shard lists them), without the run's
    /// listing or a unit list; every shard of the run and its merge must say so.
    #[arg(long, value_name = "RULE", value_parser = ["codes"], conflicts_with_all = ["units"])]
    pub(super) deal: Option<String>,
    /// Work-unit run: run files of other shards to merge with (read only).
    #[arg(long = "with")]
    pub(super) with: Vec<PathBuf>,
    /// Work-unit run: list the units (key and codes) and stop.
    #[arg(long)]
    pub(super) list_units: bool,
    /// Work-unit run: the run's unit list. With --list-units it is written
    /// (once per run); in a run it is read instead of listing the units, so
    /// that a shard starts its first unit at once.
    #[arg(long, value_name = "FILE")]
    pub(super) units: Option<PathBuf>,
    /// Work-unit run: merge in this many slices of α of equal width (needs a
    /// finite --to), writing the pieces as each slice is done: the merge then
    /// holds one slice, not the whole curve. Writes --csv and --overview, not --json.
    #[arg(long)]
    pub(super) merge_slices: Option<usize>,
    /// Work-unit run: compute this many of the units recorded in --checkpoint
    /// and --with again (drawn at random, seeded by --seed; all if fewer) and
    /// compare each with its record; nothing is evaluated, merged or written.
    /// A unit that differs: exit 2, naming its file and key. A shard dealt
    /// by codes (--deal codes --shard i/N) computes again its own records.
    #[arg(long, value_name = "N", conflicts_with_all = ["csv", "json", "overview", "list_units", "merge_slices"])]
    pub(super) recheck: Option<usize>,
    /// With --recheck: the seed of the draw (the same draw on every machine).
    #[arg(long, default_value_t = 1, requires = "recheck")]
    pub(super) seed: u64,
    /// Diagnostic for a unit run: evaluate nothing, merge the known units
    /// with every missing unit counted as zero. NOT the curve: measures what
    /// the merge will need before the run ends.
    #[arg(long, hide = true)]
    pub(super) diagnostic_merge_known: bool,
}

impl CurveArgs {
    /// What the run reads (its checkpoint, the other shards' run files) and
    /// writes (--csv, --json, --overview), for `files::check_files`.
    pub(super) fn files(&self) -> (NamedPaths<'_>, NamedPaths<'_>) {
        let mut inputs: NamedPaths<'_> = self.checkpoint.as_deref().map(|p| ("--checkpoint", p)).into_iter().collect();
        inputs.extend(self.with.iter().map(|p| ("--with", p.as_path())));
        let units = self.units.as_deref().map(|p| ("--units", p));
        inputs.extend(units.filter(|_| !self.list_units));
        let written = if self.list_units { &self.units } else { &None };
        let outputs =
            [("--csv", &self.csv), ("--json", &self.json), ("--overview", &self.overview), ("--units", written)];
        (inputs, outputs.into_iter().filter_map(|(flag, p)| Some((flag, p.as_deref()?))).collect())
    }

    /// The overview's grid step: a positive finite rational.
    pub(super) fn grid_step(&self) -> Result<Alpha> {
        match self.grid.parse::<Alpha>() {
            Ok(step @ Alpha::Finite { num, .. }) if num > 0 => Ok(step),
            _ => Err(invalid(format!("--grid {}: give a positive step such as 1/100 or 0.05", self.grid))),
        }
    }

    /// The α-range, after checking every option that does not need the curve
    /// (so that a bad one is refused before hours of work, not after).
    pub(super) fn domain(&self) -> Result<Domain> {
        self.grid_step()?;
        if self.diagnostic_merge_known && self.overview.is_some() {
            return Err(invalid(
                "--diagnostic-merge-known does not give the curve: --overview would look like one; use --csv/--json",
            ));
        }
        let (from, to): (Alpha, Alpha) = (self.from.parse()?, self.to.parse()?);
        let (lo, hi) = (Point::exact(from), Point::exact(to));
        if lo.order(&hi) == std::cmp::Ordering::Greater {
            return Err(invalid(format!("--from {from} --to {to}: the α-range is empty (from must not exceed to)")));
        }
        let domain = Domain::closed(lo, hi);
        if let Some(k) = self.merge_slices {
            if self.levels.is_none() {
                return Err(invalid(
                    "--merge-slices belongs to a unit run (Mastermind, Beams): add --levels L --checkpoint FILE",
                ));
            }
            if self.all {
                return Err(invalid("--merge-slices writes the pieces to --csv; --all would print millions of lines"));
            }
            if self.json.is_some() {
                return Err(invalid(
                    "--merge-slices writes the curve as it goes: --json is not written; use --csv and --overview",
                ));
            }
            cuts(&domain, k)?;
        }
        Ok(domain)
    }
}

/// The work-unit options, checked: `Some((cut, shard, checkpoint))` for a unit run.
pub(super) fn unit_options(out: &CurveArgs) -> Result<Option<(UnitCut, Shard, PathBuf)>> {
    if out.split_above == Some(0) {
        return Err(invalid("--split-above 0: give the most codes a unit may hold (at least 1)"));
    }
    let cut = |levels| UnitCut { levels, split_above: out.split_above };
    let unit_flags = out.shard.is_some()
        || !out.with.is_empty()
        || out.list_units
        || out.units.is_some()
        || out.recheck.is_some()
        || out.deal.is_some();
    match (out.levels, &out.checkpoint) {
        (None, None) if unit_flags => Err(invalid(
            "--shard, --deal, --with, --units, --list-units and --recheck belong to a unit run: add --levels L",
        )),
        (None, None) => Ok(None),
        (Some(levels), _) if !(1..=2).contains(&levels) => {
            Err(invalid(format!("--levels {levels}: a unit run cuts the curve 1 or 2 queries below the root")))
        }
        (Some(levels), Some(file)) => {
            let shard: Shard = out.shard.as_deref().unwrap_or("0/1").parse()?;
            Ok(Some((cut(levels), shard, file.clone())))
        }
        (Some(levels), None) if out.list_units => {
            let shard: Shard = out.shard.as_deref().unwrap_or("0/1").parse()?;
            Ok(Some((cut(levels), shard, PathBuf::new())))
        }
        (Some(_), None) => Err(invalid("--levels starts a unit run: give its run file with --checkpoint FILE")),
        (None, Some(_)) => Err(invalid("--checkpoint belongs to a unit run: add --levels L (1 or 2)")),
    }
}

/// The K − 1 cuts of a finite α-range into K slices of equal width (exact
/// rationals, [`equal_cuts`]), or a one-line error.
pub(super) fn cuts(domain: &Domain, slices: usize) -> Result<Vec<Alpha>> {
    equal_cuts(domain, slices).map_err(|e| {
        let why = match e {
            SliceError::Count => format!("give 2 to {MAX_SLICES} slices"),
            SliceError::InfiniteEnd => "slices need a finite --to".into(),
            SliceError::SinglePoint => "the α-range is a single point".into(),
            SliceError::TooLarge => "the cuts' fractions are too large; choose simpler --from/--to".into(),
        };
        invalid(format!("--merge-slices {slices}: {why}"))
    })
}

/// Number of bins of an overview.
pub(super) const OVERVIEW_BINS: usize = 1000;
/// Most grid points of an overview.
pub(super) const OVERVIEW_GRID_MAX: usize = 100_000;

/// Says so if the overview's grid was cut at [`OVERVIEW_GRID_MAX`] points.
pub(super) fn warn_if_grid_cut(out: &CurveArgs, alphas: &[Alpha]) {
    if alphas.len() == OVERVIEW_GRID_MAX {
        eprintln!(
            "--grid {}: the overview holds the first {OVERVIEW_GRID_MAX} grid points only (up to α = {})",
            out.grid,
            alphas.last().map(|a| a.to_string()).unwrap_or_default()
        );
    }
}
