//! The report of `reproduce mc-agents` (thesis chapters 2–3): its rows,
//! its statements with published and computed values, and the α-free grid
//! helper the scans share. The files that compute them (`mc_agents`,
//! `mc_scans`, `mc_chapter3`, `mc_theorems`) and the one that writes the
//! markdown (`mc_markdown`) import these types from here, so none of them
//! imports another's report types.

use crate::output::Provenance;
use serde::Serialize;

/// One row of Table 2.4 with ours.
#[derive(Serialize)]
pub struct Row24 {
    pub k: u32,
    pub published_exact: [&'static str; 3],
    pub ours: [String; 3],
    pub equal: [bool; 3],
    pub simulated_games: f64,
    pub published_simulated: [&'static str; 3],
    /// (simulated − exact)/σ for Hin and Rück, σ = √(p(1−p)/games).
    pub simulation_sigmas: [f64; 2],
    /// Run log only, not the results file.
    #[serde(skip)]
    pub seconds: f64,
}

/// One row of Table 2.14 with ours.
#[derive(Serialize)]
pub struct Row214 {
    pub game: String,
    pub pattern_ocr: &'static str,
    pub pattern_reference: &'static str,
    pub pattern_ours: String,
    pub pattern_equal: bool,
    pub n_star_ocr: &'static str,
    pub n_star_published: String,
    pub n_star_source: &'static str,
    pub n_star_ours: String,
    pub n_star_equal: bool,
    pub searched_up_to: u32,
}

/// A statement with its published and computed values.
#[derive(Serialize)]
pub struct Fact {
    pub statement: String,
    pub published: String,
    pub ours: String,
    pub holds: bool,
}

/// Everything `reproduce mc-agents` computes.
#[derive(Serialize)]
pub struct Report {
    pub provenance: Provenance,
    pub table_2_4: Vec<Row24>,
    pub table_2_14: Vec<Row214>,
    pub facts: Vec<Fact>,
    pub chapter_3: Vec<Fact>,
    pub files: Vec<String>,
}

/// A [`Fact`] from its parts.
pub fn fact(statement: impl Into<String>, published: impl Into<String>, ours: impl Into<String>, holds: bool) -> Fact {
    Fact { statement: statement.into(), published: published.into(), ours: ours.into(), holds }
}

/// About `count` log-spaced integers in lo..=hi, without repeats.
pub fn log_grid(lo: u32, hi: u32, count: usize) -> Vec<u32> {
    let (a, b) = ((lo as f64).ln(), (hi as f64).ln());
    let mut ks: Vec<u32> =
        (0..count).map(|i| (a + (b - a) * i as f64 / (count - 1) as f64).exp().round() as u32).collect();
    ks.dedup();
    ks
}
