//! Deduction games: each is a client of the generic core in [`crate::search`].

pub mod beams;
pub mod mastermind;

use serde::{Deserialize, Serialize};

/// A game as written into strategy files, enough to rebuild it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "game", rename_all = "lowercase")]
pub enum GameSpec {
    Mastermind { pegs: usize, colors: usize, distinct: bool },
    /// `order`: "lex-c" or "lex-d" (query numbering); penalty: best guess.
    Beams { variant: String, order: String },
}
