//! renyi-search: exact analysis of deduction games (Mastermind, Beams, search
//! models) under Rényi-entropy strategies, after chapter 4 of the thesis in
//! `shared/seeds/002_…` ("Deduktionsspiele und Rényi-Entropie-Strategien").
//!
//! The science lives here; `src/main.rs` and `src/cli/` (one file per
//! subcommand) are a thin command line.
//! - [`renyi`]: the Rényi order α (exact), H_α and the exact comparison of
//!   answer partitions.
//! - [`search`]: the generic search-problem core and exact strategy analysis.
//! - [`curve`]: the expected search length as an exact step function of α,
//!   with certified breakpoints; [`plot`] draws such curves as SVG.
//! - [`games`]: Mastermind and the other deduction games.
//! - [`graph`]: the game-graph solver (retrograde analysis, Sprague-Grundy),
//!   with its clients in [`two_player`]: Ströhlein's chess endgames, the Nim
//!   family, Bridg-It and Hex.
//! - [`reproduce`]: the published tables, recomputed.
//! - [`certificate`]: optimality certificates (lower bounds) and their independent checker.
//! - [`progress`]: progress reports to an observer (the library never prints).

pub mod certificate;
pub mod cpu_time;
pub mod curve;
pub mod error;
pub mod games;
pub mod graph;
pub mod memory;
pub mod models;
pub mod output;
pub mod plot;
pub mod progress;
pub mod renyi;
pub mod reproduce;
pub mod search;
pub mod sweep;
pub mod two_player;

/// The program version written into every results file.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
