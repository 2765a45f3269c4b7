//! Rows kept aside while a long computation makes them, written to their file
//! at the end behind a head known only then (a CSV of millions of curve
//! pieces: `curve … --merge-slices K`). The rows wait gzip-compressed (fast)
//! in a temporary file next to the destination, named with the process id so
//! that processes writing to one name do not share it; it is removed on
//! SIGINT/SIGTERM ([`super::track_temporary`]) and when the spool is dropped.

use crate::error::{Error, Result};
use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The rows of one destination file, spooled; written by [`Spool::finish`].
///
/// Invariant: the temporary file exists from [`Spool::create`] until the
/// spool is dropped, and is listed for removal on a signal all that time.
pub struct Spool {
    path: PathBuf,
    z: Option<GzEncoder<BufWriter<File>>>,
}

impl Spool {
    /// A spool for `destination` (its folder is created): beside it, or in
    /// the temporary folder when the destination is written in place
    /// (stdout, a device).
    pub fn create(destination: &Path) -> Result<Spool> {
        if let Some(dir) = destination.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
        }
        let path = if super::target::writes_in_place(destination) {
            std::env::temp_dir().join(format!("renyi-search-rows-{}.tmp.gz", std::process::id()))
        } else {
            let mut name = destination.as_os_str().to_owned();
            name.push(format!(".rows-{}.tmp.gz", std::process::id()));
            PathBuf::from(name)
        };
        // Listed before it exists, so that SIGINT/SIGTERM remove it.
        super::track_temporary(&path);
        let file = File::create(&path).map_err(|e| {
            super::forget_temporary(&path);
            io(&path, e)
        })?;
        let z = GzEncoder::new(BufWriter::with_capacity(1 << 20, file), Compression::fast());
        Ok(Spool { path, z: Some(z) })
    }

    /// Appends what `row` writes.
    pub fn write(&mut self, row: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
        match &mut self.z {
            Some(z) => row(z).map_err(|e| io(&self.path, e)),
            None => Ok(()),
        }
    }

    /// Writes `destination` atomically ([`super::write_atomic_with`]): what
    /// `head` writes, then the rows; the temporary file is removed.
    pub fn finish(
        mut self,
        destination: &Path,
        head: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
    ) -> Result<()> {
        let path = self.path.clone();
        let done = self.z.take().map_or(Ok(()), |z| z.finish().and_then(|mut w| w.flush()));
        done.map_err(|e| io(&path, e))?;
        super::write_atomic_with(destination, |w| {
            head(w)?;
            let mut rows = GzDecoder::new(BufReader::new(File::open(&path)?));
            std::io::copy(&mut rows, w).map(|_| ())
        })
        // Dropping `self` removes the temporary file.
    }
}

impl Drop for Spool {
    /// A computation that fails leaves no temporary file behind.
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
        super::forget_temporary(&self.path);
    }
}

fn io(path: &Path, source: std::io::Error) -> Error {
    Error::Io { path: path.display().to_string(), source }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_then_rows_and_no_temporary_file_left() {
        let dir = std::env::temp_dir().join(format!("renyi-spool-{}", std::process::id()));
        let out = dir.join("rows.csv");
        let mut spool = Spool::create(&out).unwrap();
        for i in 0..3 {
            spool.write(|w| writeln!(w, "{i},{}", i * i)).unwrap();
        }
        spool.finish(&out, |w| writeln!(w, "i,square")).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "i,square\n0,0\n1,1\n2,4\n");
        let names: Vec<String> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        assert_eq!(names, ["rows.csv"]);
        let dropped = Spool::create(&dir.join("never.csv")).unwrap();
        drop(dropped);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "a dropped spool leaves nothing");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
