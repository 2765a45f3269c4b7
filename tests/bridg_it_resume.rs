//! `reproduce bridg-it` resumes from its checkpoint (issue 50 item 6): a run
//! stopped after some units (a panic in the progress observer stands for a
//! kill; the last record is then cut mid-line) and resumed writes the same
//! bytes as one uninterrupted run; a checkpoint of another run or of another
//! build of the program, or a record copied from another run's file, is refused.

use renyi_search::output::checked_line;
use renyi_search::progress::{Observer, Progress};
use renyi_search::reproduce::bridg_it::{BridgItRun, CurveSource, reproduce};
use renyi_search::reproduce::bridg_it_agents::AgentSet;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Stops the run (by a panic) when the `limit`-th unit is done.
struct StopAfter {
    done: AtomicUsize,
    limit: usize,
}

impl Observer for StopAfter {
    fn begin(&self, _: &str, _: Option<u64>) {}
    fn advance(&self, n: u64) {
        if self.done.fetch_add(n as usize, Ordering::SeqCst) + n as usize >= self.limit {
            panic!("stopped after {} units", self.limit);
        }
    }
    fn status(&self, _: &str) {}
    fn note(&self, _: &str) {}
    fn end(&self) {}
}

fn small_run(dir: &Path, max_order: usize) -> BridgItRun {
    BridgItRun {
        max_order,
        temperature_orders: vec![2],
        agents: AgentSet::None,
        curve_m4: CurveSource::Skip,
        checkpoint: Some(dir.join("runs").join("scan.ckpt")),
    }
}

/// Every file under `dir` outside runs/, by relative path.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, at: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().unwrap() != "runs" {
                    walk(root, &path, out);
                }
            } else {
                out.insert(path.strip_prefix(root).unwrap().to_path_buf(), std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Runs `run` in `dir` and stops it after `units` units; returns the checkpoint's text.
fn stopped(dir: &Path, run: &BridgItRun, units: usize) -> String {
    let observer = Arc::new(StopAfter { done: AtomicUsize::new(0), limit: units });
    let progress = Progress::to(observer);
    let result = catch_unwind(AssertUnwindSafe(|| reproduce(dir, run, &progress, |_| {})));
    assert!(result.is_err(), "the run was to stop after {units} units");
    std::fs::read_to_string(run.checkpoint.as_ref().unwrap()).unwrap()
}

#[test]
fn interrupted_and_resumed_run_writes_the_same_bytes() {
    let base = std::env::temp_dir().join(format!("bridg-it-resume-{}", std::process::id()));
    let (whole, parts) = (base.join("whole"), base.join("parts"));
    for d in [&whole, &parts] {
        std::fs::create_dir_all(d).unwrap();
    }
    let run = small_run(&whole, 7);
    let mut notes = Vec::new();
    let report = reproduce(&whole, &run, &Progress::none(), |n| notes.push(n.to_string())).unwrap();
    assert_eq!(report.self_play.len(), 6);
    assert_eq!(report.temperature.len(), 9);
    assert!(!run.checkpoint.as_ref().unwrap().exists(), "the checkpoint goes when the results are written");
    let expected = files(&whole);
    assert!(expected.keys().any(|p| p.ends_with("bridg-it.md")) && expected.len() >= 5, "{:?}", expected.keys());

    // Stopped in the temperature phase after 8 units (6 orders, 2 points); the last record cut mid-line.
    let run = small_run(&parts, 7);
    let text = stopped(&parts, &run, 8);
    assert_eq!(text.lines().count(), 1 + 8, "identity + one record per finished unit:\n{text}");
    let ckpt = run.checkpoint.clone().unwrap();
    std::fs::write(&ckpt, &text[..text.len() - 20]).unwrap();

    // Another run's identity is refused, and the file is left as it was.
    let other = BridgItRun { checkpoint: run.checkpoint.clone(), ..small_run(&parts, 6) };
    let err = reproduce(&parts, &other, &Progress::none(), |_| {}).unwrap_err().to_string();
    assert!(err.contains("identity"), "{err}");
    assert_eq!(std::fs::read_to_string(&ckpt).unwrap(), &text[..text.len() - 20]);

    // The same run's checkpoint written by another build of the program is refused, in one line naming both.
    let (_, json) = text.lines().next().unwrap().split_once(' ').unwrap();
    let mut id: serde_json::Value = serde_json::from_str(json).unwrap();
    assert!(id["build"].as_str().unwrap().starts_with("sha256:"), "{id}");
    id["build"] = "sha256:0000000000000000".into();
    let records = &text[text.find('\n').unwrap()..text.len() - 20];
    std::fs::write(&ckpt, format!("{}{records}", checked_line(&id))).unwrap();
    let err = reproduce(&parts, &run, &Progress::none(), |_| {}).unwrap_err().to_string();
    assert!(err.contains("build sha256:0000000000000000") && !err.contains('\n'), "{err}");
    std::fs::write(&ckpt, &text[..text.len() - 20]).unwrap();

    let mut notes = Vec::new();
    reproduce(&parts, &run, &Progress::none(), |n| notes.push(n.to_string())).unwrap();
    assert!(notes.iter().any(|n| n.contains("resumed with 7 finished units")), "{notes:?}");
    assert!(!ckpt.exists());
    assert_eq!(files(&parts), expected, "resumed run writes other bytes");

    // A record sealed for another run (other orders), spliced after this run's identity, is refused.
    let foreign = stopped(&base.join("foreign"), &small_run(&base.join("foreign"), 3), 1);
    let spliced = format!("{}\n{}\n", text.lines().next().unwrap(), foreign.lines().nth(1).unwrap());
    std::fs::write(&ckpt, spliced).unwrap();
    let err = reproduce(&parts, &run, &Progress::none(), |_| {}).unwrap_err().to_string();
    assert!(err.contains("line 2") && err.contains("another run"), "{err}");
    // An edited record fails its checksum.
    std::fs::write(&ckpt, text.replacen("\"states\":", "\"states\":1", 1)).unwrap();
    let err = reproduce(&parts, &run, &Progress::none(), |_| {}).unwrap_err().to_string();
    assert!(err.contains("line 2") && err.contains("checksum"), "{err}");
    std::fs::remove_dir_all(&base).unwrap();
}
