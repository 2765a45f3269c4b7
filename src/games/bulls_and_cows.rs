//! Bulls and Cows: the secret is a string of `digits` distinct symbols out of
//! `symbols` (the classic game: 4 distinct digits of 10, 5040 codes); a guess
//! is such a string and is answered by its bulls (right symbol, right place)
//! and cows (right symbol, wrong place). For codes without repetition that is
//! Mastermind's (black, white) answer exactly, so the game is MM(digits,
//! symbols) without repetition under its own name and digit labels (0–9),
//! on the same answer table, symmetries (symbol and place permutations) and
//! search machinery ([`Mastermind`], through [`Delegate`]: nothing is
//! forwarded by hand).

use crate::error::{Result, invalid};
use crate::games::mastermind::Mastermind;
use crate::search::{CodeId, Delegate, Presentation, QueryId, SameRules};

/// Bulls and Cows with `digits` places and `symbols` symbols (digits 0..symbols).
pub struct BullsAndCows {
    inner: Mastermind,
}

impl BullsAndCows {
    /// Builds the game; at most 10 symbols (labels 0–9), at most as many places as symbols.
    pub fn new(digits: usize, symbols: usize) -> Result<BullsAndCows> {
        if symbols > 10 {
            return Err(invalid(format!("Bulls and Cows with {symbols} symbols: at most 10 (digits 0–9)")));
        }
        if digits == 0 || digits > symbols {
            return Err(invalid(format!(
                "Bulls and Cows with {digits} digits of {symbols}: give 1 to {symbols} distinct digits"
            )));
        }
        Ok(BullsAndCows { inner: Mastermind::new(digits, symbols, true)? })
    }

    pub fn digits(&self) -> usize {
        self.inner.pegs()
    }

    pub fn symbols(&self) -> usize {
        self.inner.colors()
    }

    /// The (bulls, cows) answer of guess `g` to secret `s`.
    pub fn bulls_cows(&self, g: CodeId, s: CodeId) -> (usize, usize) {
        self.inner.black_white(g, s)
    }

    /// The code as its digit string (`0123`).
    pub fn code_label(&self, code: CodeId) -> String {
        self.inner.code_label(code).bytes().map(|b| (b - b'A' + b'0') as char).collect()
    }

    /// The code with this digit string, if it is a code of the game.
    pub fn code_by_label(&self, label: &str) -> Option<CodeId> {
        let letters: Option<String> =
            label.bytes().map(|b| b.checked_sub(b'0').filter(|&d| d < 10).map(|d| (b'A' + d) as char)).collect();
        self.inner.code_by_label(&letters?)
    }

    /// The same game as Mastermind without repetition.
    pub fn as_mastermind(&self) -> &Mastermind {
        &self.inner
    }
}

/// The rules and every capability (counting, symmetries, tie preference,
/// replay, certificates) are Mastermind's without repetition.
impl Delegate for BullsAndCows {
    type To = Mastermind;
    fn delegate(&self) -> &Mastermind {
        &self.inner
    }
}

impl SameRules for BullsAndCows {}

/// Its own name and digit labels.
impl Presentation for BullsAndCows {
    fn name(&self) -> String {
        format!("Bulls and Cows ({} of {})", self.digits(), self.symbols())
    }
    fn query_label(&self, query: QueryId) -> String {
        self.code_label(query)
    }
}
