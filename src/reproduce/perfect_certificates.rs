//! The certificate column of `reproduce perfect` (its rows from searches in
//! `perfect`, from committed trees in `perfect_committed`): a certificate's
//! row and table cell, and which certificates a replay checks in full.

use serde::Serialize;
use std::path::Path;

/// A certificate of a row: where, how large, and the bound it proves.
#[derive(Serialize)]
pub struct CertificateRow {
    pub file: String,
    pub nodes: u64,
    pub bytes: u64,
    /// The lower bound proved (equal to the total: optimal).
    pub bound: u64,
    /// Whether this run checked the whole proof (false: its seal only); for the run log.
    #[serde(skip)]
    pub proof_checked: bool,
    /// Seconds to build (0 when committed) and to check (0 when only the seal was read).
    #[serde(skip)]
    pub build_seconds: f64,
    #[serde(skip)]
    pub check_seconds: f64,
}

/// A certificate's cell in a table: the proven bound, file and size.
pub fn certificate_cell(c: &CertificateRow) -> String {
    format!(
        "≥ {} ({}, {} nodes, {:.1} kB)",
        c.bound,
        c.file.rsplit('/').next().unwrap_or(&c.file),
        c.nodes,
        c.bytes as f64 / 1000.0
    )
}

/// Certificates up to this size are checked in full when their row is
/// replayed (a few seconds each); larger ones (MM(5,5) 2.4 MB, Beams(3c,6p)
/// 5.3 MB, each tens of seconds to check) have their seal checked, and are
/// checked in full by `reproduce perfect --full` and `verify --certificate`.
pub const PROOF_CHECK_BYTES: u64 = 1_500_000;

/// Whether the certificate at `path` is small enough to check its proof in a replay.
pub fn cheap_to_check(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.len() <= PROOF_CHECK_BYTES)
}
