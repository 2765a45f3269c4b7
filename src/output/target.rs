//! Where an output file's bytes go, and how they arrive (issue 48 item 6).
//!
//! * `-` is standard output.
//! * A path that names something other than a regular file — a device
//!   (`/dev/null`, `/dev/full`), a FIFO, `/dev/stdout`, or a symbolic link
//!   to one of these — is written in place: it cannot be replaced by a
//!   renamed file without destroying it, and a write error (a full disk) is
//!   an error of the command.
//! * Everything else is written to a temporary file beside the target (after
//!   symbolic links are resolved, so a link stays a link) and renamed over it
//!   once complete: the file appears whole or not at all.
//!
//! Temporary files are listed while they exist ([`remove_temporary_files`]
//! removes them, e.g. on SIGINT/SIGTERM); inside [`all_or_none`] the renames
//! wait until every output was written, and none happens if one failed.

use crate::error::{Error, Result};
use std::cell::RefCell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// How an output path is written.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// Standard output (`-`, or a path that is this process's standard output).
    Stdout,
    /// A device, FIFO or other non-regular file, opened for writing as it is.
    InPlace(PathBuf),
    /// A regular file (or none yet) at this path, links resolved: temp + rename.
    Replace(PathBuf),
}

/// Decides how `path` is written (see the module documentation).
pub(crate) fn target_of(path: &Path) -> Target {
    if path.as_os_str() == "-" {
        return Target::Stdout;
    }
    let Ok(meta) = std::fs::metadata(path) else {
        // Nothing there yet (or a dangling link): a new regular file; a link's
        // target directory is kept by resolving the link's own text.
        return Target::Replace(resolve_link(path));
    };
    if is_stdout(&meta) {
        return Target::Stdout;
    }
    if !meta.is_file() {
        return Target::InPlace(path.to_path_buf());
    }
    match std::fs::canonicalize(path) {
        // A path through /proc (e.g. /dev/stdout → /proc/self/fd/1 onto a
        // file) is a view of an open file: written in place.
        Ok(real) if !real.starts_with("/proc") => Target::Replace(real),
        _ => Target::InPlace(path.to_path_buf()),
    }
}

/// Whether `path` is written in place or to stdout (not replaced by a
/// renamed temporary file): `-`, devices, FIFOs, `/dev/stdout`.
pub fn writes_in_place(path: &Path) -> bool {
    !matches!(target_of(path), Target::Replace(_))
}

/// A dangling symbolic link's target (relative to the link's folder); any
/// other path as given.
fn resolve_link(path: &Path) -> PathBuf {
    match std::fs::read_link(path) {
        Ok(to) if to.is_absolute() => to,
        Ok(to) => path.parent().map_or(to.clone(), |dir| dir.join(&to)),
        Err(_) => path.to_path_buf(),
    }
}

/// Whether `meta` is the file behind this process's standard output.
#[cfg(unix)]
fn is_stdout(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/dev/stdout").is_ok_and(|out| (out.dev(), out.ino()) == (meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn is_stdout(_: &std::fs::Metadata) -> bool {
    false
}

/// The temporary files that exist now (written, not yet renamed or removed).
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn temporary() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    TEMPORARY.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Lists `path` as a temporary file of this process (removed by
/// [`remove_temporary_files`] until [`forget_temporary`]).
pub fn track_temporary(path: &Path) {
    temporary().push(path.to_path_buf());
}

/// Takes `path` off the list of temporary files (renamed or removed).
pub fn forget_temporary(path: &Path) {
    temporary().retain(|p| p != path);
}

/// Removes every listed temporary file and keeps the list locked, so that no
/// new one is made: for a process about to exit on a signal.
pub fn remove_temporary_files() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    let list = temporary();
    for path in list.iter() {
        let _ = std::fs::remove_file(path);
    }
    list
}

/// [`remove_temporary_files`] for a process whose allocation was refused
/// (cli/allocator.rs): it allocates nothing itself (a path of up to 384 bytes
/// is passed to the system from the stack), and it gives up after about
/// 50 ms if the list stays locked (a thread refused while adding to the list
/// holds it for good). Returns whether the list was cleaned.
pub fn remove_temporary_files_without_allocating() -> bool {
    for _ in 0..50 {
        let list = match TEMPORARY.try_lock() {
            Ok(list) => list,
            Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => {
                std::thread::sleep(std::time::Duration::from_millis(1));
                continue;
            }
        };
        for path in list.iter() {
            let _ = std::fs::remove_file(path);
        }
        // Held until the process ends: no new temporary file is made meanwhile.
        std::mem::forget(list);
        return true;
    }
    false
}

thread_local! {
    /// Inside [`all_or_none`]: the written temporary files and their targets, renamed at its end.
    static STAGED: RefCell<Option<Vec<(PathBuf, PathBuf)>>> = const { RefCell::new(None) };
}

/// Runs `write_all`, whose outputs (written by this module on this thread)
/// are renamed into place only when it succeeded and all were written; if it
/// fails, every temporary file is removed and no target is replaced. (Outputs
/// written in place, devices and standard output, cannot wait.)
pub fn all_or_none<T>(write_all: impl FnOnce() -> Result<T>) -> Result<T> {
    let outer = STAGED.with(|s| s.borrow_mut().replace(Vec::new()));
    let result = write_all();
    let staged = STAGED.with(|s| std::mem::replace(&mut *s.borrow_mut(), outer)).unwrap_or_default();
    // Inside another `all_or_none`: its end renames these too.
    let nested = result.is_ok() && STAGED.with(|s| s.borrow().is_some());
    if nested {
        STAGED.with(|s| s.borrow_mut().as_mut().map(|list| list.extend(staged)));
        return result;
    }
    let committed = result.and_then(|value| {
        for (i, (tmp, path)) in staged.iter().enumerate() {
            if let Err(source) = std::fs::rename(tmp, path) {
                staged[i..].iter().for_each(|(tmp, _)| discard(tmp));
                return Err(Error::Io { path: path.display().to_string(), source });
            }
            forget_temporary(tmp);
        }
        Ok(value)
    });
    if committed.is_err() {
        staged.iter().for_each(|(tmp, _)| discard(tmp));
    }
    committed
}

/// Removes a temporary file and takes it off the list.
fn discard(tmp: &Path) {
    let _ = std::fs::remove_file(tmp);
    forget_temporary(tmp);
}

/// Writes `path` by `fill` as its [`Target`] says: stdout, in place, or a
/// temporary file renamed over the target (at once, or at the end of the
/// enclosing [`all_or_none`]). A failed write leaves no temporary file.
pub(crate) fn write_output(path: &Path, fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
    let io = |source| Error::Io { path: path.display().to_string(), source };
    match target_of(path) {
        Target::Stdout => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            fill(&mut out).and_then(|()| out.flush()).map_err(io)
        }
        Target::InPlace(at) => {
            let file = std::fs::OpenOptions::new().write(true).open(&at).map_err(io)?;
            let mut out = std::io::BufWriter::new(file);
            fill(&mut out).and_then(|()| out.flush()).map_err(io)
        }
        Target::Replace(real) => replace(&real, fill).map_err(io),
    }
}

/// Writes a temporary file beside `real` (its folder created if need be) and
/// renames it over `real`, or stages the rename.
fn replace(real: &Path, fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> std::io::Result<()> {
    if let Some(dir) = real.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let name = real.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    let tmp = real.with_file_name(format!(".{name}.tmp{}", std::process::id()));
    let written = {
        let mut list = temporary();
        list.push(tmp.clone());
        std::fs::File::create(&tmp)
    }
    .and_then(|file| {
        let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
        fill(&mut out)?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()
    });
    if let Err(e) = written {
        discard(&tmp);
        return Err(e);
    }
    // A file written twice in one batch is staged once (its last contents).
    let staged = STAGED.with(|s| {
        let mut staged = s.borrow_mut();
        let list = staged.as_mut()?;
        if !list.iter().any(|(t, _)| *t == tmp) {
            list.push((tmp.clone(), real.to_path_buf()));
        }
        Some(())
    });
    if staged.is_some() {
        return Ok(());
    }
    let renamed = std::fs::rename(&tmp, real);
    if renamed.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    forget_temporary(&tmp);
    renamed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("rs-target-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
        names.sort();
        names
    }

    #[test]
    fn targets_are_told_apart() {
        assert_eq!(target_of(Path::new("-")), Target::Stdout);
        assert!(matches!(target_of(Path::new("/dev/null")), Target::InPlace(_) | Target::Stdout));
        let dir = scratch("kinds");
        let file = dir.join("f.txt");
        std::fs::write(&file, "x").unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&file, dir.join("link")).unwrap();
            let real = std::fs::canonicalize(&file).unwrap();
            assert_eq!(target_of(&dir.join("link")), Target::Replace(real), "a link's target is replaced");
        }
        assert_eq!(target_of(&dir.join("new")), Target::Replace(dir.join("new")));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn batches_rename_all_or_none_and_nest() {
        let dir = scratch("batch");
        let (a, b) = (dir.join("a"), dir.join("b"));
        std::fs::write(&a, "old a").unwrap();
        let failed: Result<()> = all_or_none(|| {
            write_output(&a, |w| w.write_all(b"new a"))?;
            write_output(&b, |w| w.write_all(b"new b"))?;
            Err(crate::error::invalid("the third output failed"))
        });
        assert!(failed.is_err());
        assert_eq!((std::fs::read_to_string(&a).unwrap(), names(&dir)), ("old a".into(), vec!["a".to_string()]));
        all_or_none(|| {
            write_output(&a, |w| w.write_all(b"first"))?;
            all_or_none(|| write_output(&b, |w| w.write_all(b"inner b")))?;
            assert!(!b.exists(), "an inner batch waits for the outer one");
            write_output(&a, |w| w.write_all(b"second a"))
        })
        .unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "second a");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "inner b");
        assert_eq!(names(&dir), ["a", "b"]);
        assert!(temporary().iter().all(|t| !t.starts_with(&dir)), "no temporary file listed");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
