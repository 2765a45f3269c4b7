//! `reproduce …`: the published tables recomputed into results/, then the
//! summary the library builds (one line per target and a verdict), printed
//! and written with the run's volatile facts (date, host, version, times) to
//! the one run log, `<results>/runs/last-reproduce.log` (git-ignored).
//! Exit code 0 when every check held (documented differences aside), 1 when
//! one failed, 2 for bad input.

use super::progress::progress;
use renyi_search::error::{Result, invalid};
use renyi_search::output::write_atomic;
use renyi_search::reproduce::run::{Options, run};
use renyi_search::reproduce::summary::{Summary, Target};

pub(super) const TARGETS: &str =
    "table-4.5, table-4.18, table-4.15, table-4.10, perfect, chess, nim, curves, mc-agents, bridg-it, hex, all";

pub(super) fn reproduce(
    targets: &[String],
    dir: &std::path::Path,
    codes: &std::path::Path,
    full: bool,
    full_report: bool,
) -> Result<()> {
    let wanted = Target::parse_list(targets)
        .map_err(|other| invalid(format!("unknown reproduce target {other:?} (accepted: {TARGETS})")))?;
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
