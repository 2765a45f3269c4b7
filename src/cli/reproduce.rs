//! `reproduce …`: the published tables recomputed into results/, then the
//! summary the library builds (one line per target and a verdict), printed
//! and written with the run's volatile facts (date, host, version, times) to
//! the one run log, `<results>/runs/last-reproduce.log` (git-ignored).
//! Exit code 0 when every check held (documented differences aside), 1 when
//! one failed, 2 for bad input.

use super::progress::progress;
use clap::ValueEnum;
use clap::builder::PossibleValue;
use renyi_search::error::Result;
use renyi_search::output::write_atomic;
use renyi_search::reproduce::run::{Options, run};
use renyi_search::reproduce::summary::{Summary, Target};
use std::sync::LazyLock;

/// A target on the command line: one of the library's [`Target`]s by its
/// name, or `all` (`None`); clap lists the names and refuses others.
#[derive(Clone, Copy)]
pub(crate) struct TargetArg(Option<Target>);

impl ValueEnum for TargetArg {
    fn value_variants<'a>() -> &'a [Self] {
        static VARIANTS: LazyLock<Vec<TargetArg>> = LazyLock::new(|| {
            Target::ALL.iter().chain(&Target::LONG).map(|&t| TargetArg(Some(t))).chain([TargetArg(None)]).collect()
        });
        VARIANTS.as_slice()
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.map_or("all", Target::name)))
    }
}

pub(super) fn reproduce(
    targets: &[TargetArg],
    dir: &std::path::Path,
    codes: &std::path::Path,
    full: bool,
    full_report: bool,
) -> Result<()> {
    let wanted = Target::chosen(&targets.iter().map(|t| t.0).collect::<Vec<_>>());
    let options = Options { dir: dir.to_path_buf(), codes: codes.to_path_buf(), full, full_report };
    let started = renyi_search::output::iso_utc(std::time::SystemTime::now());
    let mut summary = Summary::default();
    for target in wanted {
        eprintln!("reproduce {} → {}", target.name(), dir.display());
        let report = run(target, &options, &progress(true))?;
        eprintln!("{}", report.line());
        summary.targets.push(report);
    }
    let lines = summary.lines();
    println!("\nsummary of `reproduce{}`:", if full { " --full" } else { "" });
    for line in &lines {
        println!("  {line}");
    }
    let log = renyi_search::output::layout::runs(dir, "last-reproduce.log");
    write_atomic(&log, run_log(&started, full, &summary, &lines).as_bytes())?;
    println!("  (run log: {})", log.display());
    if !summary.holds() {
        std::process::exit(1);
    }
    Ok(())
}

/// The run log: what is volatile about the run (when, where, which build,
/// how long, what was replayed) — never in a results file.
fn run_log(started: &str, full: bool, summary: &Summary, lines: &[String]) -> String {
    let host = std::fs::read_to_string("/etc/hostname").unwrap_or_default().trim().to_string();
    let git = std::process::Command::new("git")
        .args(["describe", "--always", "--dirty"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    let mut s = format!(
        "reproduce{}: started {started} on {host}, {} threads; renyi-search {} (git {git})\n\n",
        if full { " --full" } else { "" },
        rayon::current_num_threads(),
        renyi_search::VERSION
    );
    for line in lines {
        s += line;
        s += "\n";
    }
    for t in &summary.targets {
        s += &format!("\n{}:\n", t.target.name());
        for note in &t.notes {
            s += &format!("  {note}\n");
        }
        for file in &t.files_written {
            s += &format!("  wrote {file}\n");
        }
    }
    s
}
