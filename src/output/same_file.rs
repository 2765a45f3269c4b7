//! Refusing a command whose output would overwrite one of its inputs or
//! another of its outputs (`--checkpoint X --out X`, `merge s0 s1 --out s0`,
//! `--csv X --json X`), before any work is done (issue 48 item 6).
//!
//! Two paths are one file if they name the same inode once links are
//! resolved, or, for a file not created yet, the same canonical path (its
//! folder resolved, its name appended). Standard output (`-`) and files that
//! are not regular (devices such as `/dev/null`, FIFOs) are written in place
//! and never replaced, so they may be named more than once.

use crate::error::{Result, invalid};
use std::path::{Path, PathBuf};

/// What identifies a file named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Identity {
    /// Device and inode of an existing file (links followed).
    inode: Option<(u64, u64)>,
    /// The canonical path: of the file if it exists, else of its folder with its name.
    canonical: PathBuf,
}

impl Identity {
    /// `None` for stdout and non-regular files (written in place, never replaced).
    fn of(path: &Path) -> Option<Identity> {
        if path.as_os_str() == "-" {
            return None;
        }
        match std::fs::metadata(path) {
            Ok(meta) if !meta.is_file() => None,
            Ok(meta) => {
                Some(Identity { inode: inode(&meta), canonical: std::fs::canonicalize(path).unwrap_or(absolute(path)) })
            }
            Err(_) => Some(Identity { inode: None, canonical: not_yet_created(path) }),
        }
    }

    fn same_as(&self, other: &Identity) -> bool {
        matches!((self.inode, other.inode), (Some(a), Some(b)) if a == b) || self.canonical == other.canonical
    }
}

#[cfg(unix)]
fn inode(meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn inode(_: &std::fs::Metadata) -> Option<(u64, u64)> {
    None
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The canonical path a file not created yet will have: a dangling link's
/// target, else its nearest existing folder resolved and the rest appended.
fn not_yet_created(path: &Path) -> PathBuf {
    let path = match std::fs::read_link(path) {
        Ok(to) if to.is_absolute() => to,
        Ok(to) => path.parent().map_or(to.clone(), |dir| dir.join(&to)),
        Err(_) => path.to_path_buf(),
    };
    let path = absolute(&path);
    let parts: Vec<std::path::Component> = path.components().collect();
    for known in (1..parts.len()).rev() {
        let Ok(real) = std::fs::canonicalize(parts[..known].iter().collect::<PathBuf>()) else { continue };
        // The missing folders will be made as named: `..` after one of them
        // is its parent.
        return parts[known..].iter().fold(real, |mut p, part| {
            match part {
                std::path::Component::ParentDir => {
                    p.pop();
                }
                std::path::Component::CurDir => {}
                other => p.push(other.as_os_str()),
            }
            p
        });
    }
    path
}

/// Flags (or roles) and paths: what a command reads, or what it writes.
pub type NamedPaths<'a> = Vec<(&'static str, &'a Path)>;

/// Refuses (one line, naming both flags) an output that is one of the
/// `inputs` or another output. Each entry is (the flag or role, e.g.
/// `--out`, `shard file`; the path). Paths that are absent are skipped.
pub fn refuse_clashes(inputs: &[(&str, &Path)], outputs: &[(&str, &Path)]) -> Result<()> {
    let ids = |list: &[(&str, &Path)]| -> Vec<(String, PathBuf, Identity)> {
        list.iter().filter_map(|(flag, p)| Some((flag.to_string(), p.to_path_buf(), Identity::of(p)?))).collect()
    };
    let (inputs, outputs) = (ids(inputs), ids(outputs));
    for (i, (flag, path, id)) in outputs.iter().enumerate() {
        let input = inputs.iter().find(|(_, _, o)| o.same_as(id)).map(|found| (found, "an input"));
        let output = || outputs[..i].iter().find(|(_, _, o)| o.same_as(id)).map(|found| (found, "another output"));
        if let Some(((other, other_path, _), role)) = input.or_else(output) {
            return Err(invalid(format!(
                "{flag} {} is the same file as {other} {} ({role}, which it would overwrite): give another path",
                path.display(),
                other_path.display()
            )));
        }
    }
    Ok(())
}

/// Refuses `-` (stdout) for a file that must be a file, such as a checkpoint
/// (read back and appended to).
pub fn refuse_stdout(flag: &str, path: Option<&Path>) -> Result<()> {
    match path {
        Some(p) if p.as_os_str() == "-" => {
            Err(invalid(format!("{flag} -: a {} must be a file, not stdout", flag.trim_start_matches('-'))))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_file_under_two_names_is_found() {
        let dir = std::env::temp_dir().join(format!("rs-same-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let a = dir.join("a.json");
        std::fs::write(&a, "x").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&a, dir.join("link.json")).unwrap();
        let via_sub = dir.join("sub/../a.json");
        assert!(refuse_clashes(&[("--checkpoint", &a)], &[("--out", &via_sub)]).is_err());
        // Through a folder not made yet (the write would make it).
        let via_missing = dir.join("missing/../a.json");
        assert!(refuse_clashes(&[("--checkpoint", &a)], &[("--out", &via_missing)]).is_err());
        #[cfg(unix)]
        assert!(refuse_clashes(&[], &[("--csv", &a), ("--json", &dir.join("link.json"))]).is_err());
        // Not created yet: the same path once created.
        let new = dir.join("new.csv");
        let err = refuse_clashes(&[], &[("--csv", &new), ("--json", &dir.join("sub/../new.csv"))]).unwrap_err();
        assert!(err.to_string().contains("--json") && err.to_string().contains("another output"), "{err}");
        // Distinct files, stdout and devices pass.
        let dash = Path::new("-");
        let null = Path::new("/dev/null");
        assert!(refuse_clashes(&[("--checkpoint", &a)], &[("--out", &new), ("--csv", dash), ("--json", dash)]).is_ok());
        assert!(refuse_clashes(&[], &[("--csv", null), ("--json", null)]).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
