//! Deduction games: each is a client of the generic core in [`crate::search`].

pub mod beams;
pub mod bulls_and_cows;
pub mod mastermind;

/// All permutations of 0..k in lexicographic order (Beams numbers its
/// colourings by this order; Mastermind uses them as colour and peg symmetries).
pub fn permutations(k: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut p: Vec<u8> = (0..k as u8).collect();
    loop {
        out.push(p.clone());
        let Some(i) = (0..k.saturating_sub(1)).rev().find(|&i| p[i] < p[i + 1]) else { return out };
        let j = (i + 1..k).rev().find(|&j| p[j] > p[i]).expect("successor exists");
        p.swap(i, j);
        p[i + 1..].reverse();
    }
}

use serde::{Deserialize, Serialize};

/// A game as written into strategy files, enough to rebuild it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "game", rename_all = "lowercase")]
pub enum GameSpec {
    Mastermind {
        pegs: usize,
        colors: usize,
        distinct: bool,
    },
    /// `order`: "lex-c" or "lex-d" (query numbering); penalty: best guess.
    Beams {
        variant: String,
        order: String,
    },
    /// Bulls and Cows: `digits` distinct digits of `symbols`.
    #[serde(rename = "bulls-and-cows")]
    BullsAndCows {
        digits: usize,
        symbols: usize,
    },
}
