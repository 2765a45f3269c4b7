//! Helpers shared by the integration tests: the program's binary and scratch
//! paths. (Each test file uses a part of it.)
#![allow(dead_code)]

pub mod plain;

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs the program with `args` and collects its output.
pub fn bin(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_renyi-search")).args(args).output().expect("runs")
}

/// The checkout under test. Read at run time (cargo sets `CARGO_MANIFEST_DIR`
/// for the tests it runs), so that a test binary reused from a shared target
/// directory, compiled in another checkout of the same sources, reads this
/// checkout's files rather than that one's; the compile-time value is the
/// fallback for a binary run by hand.
pub fn root() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from)
}

/// A fresh path in the temp directory, unique to this process and `name`;
/// whatever was there (file or directory) is removed.
pub fn scratch(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("renyi-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&path);
    let _ = std::fs::remove_file(&path);
    path
}

/// [`scratch`], created as an empty directory.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Asserts that `args` fail with a message containing `needle` and no panic.
pub fn assert_rejected(args: &[&str], needle: &str) {
    let out = bin(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} should fail");
    assert!(err.contains(needle), "{args:?}: stderr {err:?} lacks {needle:?}");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
}

/// The one error line of a failed run, asserting exit code 2, exactly one
/// line and no panic.
pub fn one_line_error(args: &[&str]) -> String {
    let out = bin(args);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line, got {err:?}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// A curve unit record's first value (`values[0].counts`) with one code moved
/// one level deeper: still a valid record of the unit's codes, but another result.
pub fn one_code_deeper(record: &mut serde_json::Value) {
    let counts: Vec<u64> =
        record["values"][0]["counts"].as_str().unwrap().split(' ').map(|c| c.parse().unwrap()).collect();
    let d = counts.iter().position(|&c| c > 0).unwrap();
    let mut moved = counts.clone();
    moved[d] -= 1;
    if d + 1 == moved.len() {
        moved.push(0);
    }
    moved[d + 1] += 1;
    record["values"][0]["counts"] =
        serde_json::json!(moved.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" "));
}
