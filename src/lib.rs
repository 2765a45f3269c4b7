//! renyi-search: exact analysis of deduction games (Mastermind, Beams, search
//! models) under Rényi-entropy strategies, after chapter 4 of the thesis in
//! `shared/seeds/002_…` ("Deduktionsspiele und Rényi-Entropie-Strategien").
//!
//! The science lives here; `src/main.rs` and `src/cli/` (one file per
//! subcommand) are a thin command line.
//! - [`alpha`]: the Rényi order α, exact.
//! - [`entropy`], [`score`]: H_α and exact comparison of answer partitions.
//! - [`search`]: the generic search-problem core and exact strategy analysis.
//! - [`curve`]: the expected search length as an exact step function of α,
//!   with certified breakpoints; [`plot`] draws such curves as SVG.
//! - [`games`]: Mastermind and the other deduction games.
//! - [`graph`]: the game-graph solver (retrograde analysis, Sprague-Grundy),
//!   with its clients [`chess`] (Ströhlein's endgames) and [`nim`] (the Nim family).
//! - [`reproduce`]: the published tables, recomputed.
//! - [`certificate`]: optimality certificates (lower bounds) and their independent checker.
//! - [`progress`]: progress reports to an observer (the library never prints).

pub mod alpha;
pub mod certificate;
pub mod chess;
pub mod connection;
pub mod curve;
pub mod entropy;
pub mod error;
pub mod games;
pub mod graph;
pub mod memory;
pub mod models;
pub mod nim;
pub mod output;
pub mod plot;
pub mod progress;
pub mod reproduce;
pub mod score;
pub mod search;
pub mod sweep;

/// The program version written into every results file.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
