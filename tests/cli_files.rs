//! Issue 48 item 6: output files. Devices, FIFOs and stdout are written in
//! place; an output that is an input or another output is refused before
//! any work; several outputs are renamed only after all were written;
//! SIGINT/SIGTERM remove the temporary files and exit 130/143.

mod common;

use common::{assert_rejected, bin, one_line_error, scratch_dir};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().to_string()).collect();
    names.sort();
    names
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(made.success());
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const MM23: [&str; 6] = ["analyze", "mastermind", "--pegs", "2", "--colors", "3"];

/// `--out /dev/full` (through a link, so that a regression replaces the
/// link and not the device) is one line and exit 2, and the link and the
/// device stay; /dev/null, `-`, /dev/stdout and a FIFO are written in place.
#[test]
fn devices_fifos_and_stdout_are_written_in_place() {
    let dir = scratch_dir("files-devices");
    let full = dir.join("full");
    std::os::unix::fs::symlink("/dev/full", &full).unwrap();
    let err = one_line_error(&[&MM23[..], &["--out", s(&full)]].concat());
    assert!(err.contains("No space left on device"), "{err}");
    assert!(std::fs::symlink_metadata(&full).unwrap().file_type().is_symlink(), "the link stays a link");
    assert_eq!(names(&dir), ["full"], "no temporary file left");
    for device in ["/dev/null", "-", "/dev/stdout"] {
        let out = bin(&[&MM23[..], &["--out", device]].concat());
        assert!(out.status.success(), "{device}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(text.contains("\"total\": \"21\""), device != "/dev/null", "{device}: {text}");
    }
    assert!(!std::fs::symlink_metadata("/dev/null").unwrap().is_file(), "/dev/null is still a device");
    assert!(std::fs::symlink_metadata("/dev/stdout").unwrap().file_type().is_symlink());
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let out = bin(&[&MM23[..], &["--out", s(&fifo)]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(reader.join().unwrap().contains("\"total\": \"21\""));
    assert!(!std::fs::metadata(&fifo).unwrap().is_file(), "the FIFO stays a FIFO");
    // A checkpoint is read back and appended to: it must be a file.
    assert_rejected(&["analyze", "beams", "3c6p", "--checkpoint", "-", "--out", "x"], "must be a file");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--checkpoint X --out X`, `merge s0 s1 --out s0`, `--csv X --json X`
/// and `--tree X --certificate X` (also through a link or `sub/../X`) are
/// refused before any work, and the input is left as it was.
#[test]
fn an_output_that_is_an_input_or_another_output_is_refused() {
    let dir = scratch_dir("files-clash");
    let (x, s0, s1) = (dir.join("x"), dir.join("s0"), dir.join("s1"));
    for f in [&x, &s0, &s1] {
        std::fs::write(f, "an input\n").unwrap();
    }
    std::os::unix::fs::symlink(&x, dir.join("link")).unwrap();
    let via_missing = dir.join("sub/../s0");
    let link = dir.join("link");
    let cases: Vec<Vec<&str>> = vec![
        vec!["analyze", "beams", "3c6p", "--checkpoint", s(&x), "--out", s(&x)],
        vec!["analyze", "beams", "3c6p", "--checkpoint", s(&x), "--out", s(&link)],
        vec!["merge", s(&s0), s(&s1), "--out", s(&s0)],
        vec!["merge", s(&s0), s(&s1), "--out", s(&via_missing)],
        vec![
            "curve",
            "mastermind",
            "--pegs",
            "2",
            "--colors",
            "3",
            "--levels",
            "1",
            "--checkpoint",
            s(&x),
            "--csv",
            s(&link),
        ],
    ];
    for args in &cases {
        let err = one_line_error(args);
        assert!(err.contains("is the same file as") && err.contains("(an input"), "{args:?}: {err}");
    }
    for f in [&x, &s0, &s1] {
        assert_eq!(std::fs::read_to_string(f).unwrap(), "an input\n", "{} untouched", f.display());
    }
    let (new, tree) = (dir.join("new.csv"), dir.join("t.json"));
    let curve = ["curve", "mastermind", "--pegs", "2", "--colors", "3"];
    let perfect = ["perfect", "mastermind", "--pegs", "2", "--colors", "3"];
    let tree_link = dir.join("tree-link");
    std::os::unix::fs::symlink(&tree, &tree_link).unwrap();
    for args in [
        [&curve[..], &["--csv", s(&new), "--json", s(&new)]].concat(),
        [&curve[..], &["--csv", s(&x), "--overview", s(&link)]].concat(),
        [&perfect[..], &["--tree", s(&tree), "--certificate", s(&tree)]].concat(),
        [&perfect[..], &["--tree", s(&tree), "--certificate", s(&tree_link)]].concat(),
    ] {
        let err = one_line_error(&args);
        assert!(err.contains("is the same file as") && err.contains("(another output"), "{args:?}: {err}");
    }
    assert!(!new.exists() && !tree.exists(), "nothing written");
    // Distinct files pass, and two outputs to stdout or a device are fine.
    let out = bin(&[&curve[..], &["--csv", "-", "--json", "/dev/null"]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A command whose second output cannot be written replaces neither: the
/// first, written already, is not renamed into place.
#[test]
fn several_outputs_are_all_written_or_none() {
    let dir = scratch_dir("files-all-or-none");
    let (csv, blocker) = (dir.join("curve.csv"), dir.join("not-a-folder"));
    std::fs::write(&csv, "old\n").unwrap();
    std::fs::write(&blocker, "a file\n").unwrap();
    let json = blocker.join("curve.json");
    let err =
        one_line_error(&["curve", "mastermind", "--pegs", "2", "--colors", "3", "--csv", s(&csv), "--json", s(&json)]);
    assert!(err.contains("curve.json"), "{err}");
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), "old\n", "the first output is not replaced");
    assert_eq!(names(&dir), ["curve.csv", "not-a-folder"], "no temporary file left");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// SIGTERM and SIGINT while the command waits on its second output (a FIFO
/// nobody reads), its first one staged as a temporary file: the temporary
/// file is removed, the old first output stays, and the exit code is 143 or 130.
#[test]
fn signals_remove_temporary_files() {
    for (signal, code) in [("TERM", 143), ("INT", 130)] {
        let dir = scratch_dir(&format!("files-signal-{signal}"));
        let (csv, fifo) = (dir.join("curve.csv"), dir.join("fifo"));
        std::fs::write(&csv, "old\n").unwrap();
        mkfifo(&fifo);
        let mut child = Command::new(env!("CARGO_BIN_EXE_renyi-search"))
            .args(["curve", "mastermind", "--pegs", "2", "--colors", "3", "--csv", s(&csv), "--json", s(&fifo)])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let staged = |dir: &PathBuf| names(dir).iter().any(|n| n.starts_with(".curve.csv.tmp"));
        let start = std::time::Instant::now();
        while !staged(&dir) {
            assert!(start.elapsed().as_secs() < 60, "the CSV was never staged: {:?}", names(&dir));
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // The staged CSV exists: the process waits in the open of the FIFO.
        let kill = Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status().unwrap();
        assert!(kill.success());
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code), "SIG{signal}");
        assert_eq!(names(&dir), ["curve.csv", "fifo"], "SIG{signal}: the temporary file is removed");
        assert_eq!(std::fs::read_to_string(&csv).unwrap(), "old\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// A checkpointed run interrupted by SIGINT (once it holds a unit) exits with
/// 130 and leaves a checkpoint that resumes to the exact total of the whole
/// run (Beams 6c3p MIX, tests/cli.rs: 15510346952/9009), and no --out.
#[test]
fn an_interrupted_checkpoint_resumes_to_the_exact_total() {
    let dir = scratch_dir("files-sigint-checkpoint");
    let (checkpoint, out) = (dir.join("run.jsonl"), dir.join("shard.json"));
    let args = ["analyze", "beams", "6c3p", "--tie", "mix", "--checkpoint", s(&checkpoint), "--out", s(&out)];
    let mut child = Command::new(env!("CARGO_BIN_EXE_renyi-search"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let holds_a_unit = || std::fs::read_to_string(&checkpoint).is_ok_and(|t| t.lines().count() >= 2);
    while !holds_a_unit() && child.try_wait().unwrap().is_none() {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let _ = Command::new("kill").args(["-INT", &child.id().to_string()]).status();
    let status = child.wait().unwrap();
    // Interrupted (130), unless the run was done before the signal came.
    assert!(status.code() == Some(130) || status.success(), "{status:?}");
    if status.code() == Some(130) {
        assert!(!out.exists(), "no --out from an interrupted run");
        assert!(names(&dir).iter().all(|n| !n.contains(".tmp")), "{:?}", names(&dir));
    }
    let resumed = bin(&args);
    let text = String::from_utf8_lossy(&resumed.stdout);
    assert!(resumed.status.success() && text.contains("total     15510346952/9009 over 223920 codes"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}
