//! The Beams tie rules of thesis Table 4.10 as one value: which canonical
//! query order LEX follows, which colours are offered, and how MIX weighs
//! them (../shared/reference/beams-conventions.md). Parsed once from its name (`lex-c`, `lex-d`,
//! `mix`, `mix-reduced`) and used by analysis, curves, play and reproduce.

use super::Variant;
use super::game::{Beams, ColourOffer, Penalty, QueryOrder};
use super::patterns::Patterns;
use crate::error::{Result, invalid};
use crate::search::TieRule;
use serde::Serialize;
use std::str::FromStr;

/// A Beams tie rule (a column of Table 4.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum BeamsRule {
    /// LEX, queries ordered colour first.
    LexC,
    /// LEX, queries ordered diagonal first.
    LexD,
    /// MIX, uniform over all tied (colour, diagonal) queries.
    Mix,
    /// MIX uniform over the reduced candidate list (asked colours + one new colour).
    MixReduced,
}

impl BeamsRule {
    /// Every rule, in table order.
    pub const ALL: [BeamsRule; 4] = [BeamsRule::LexC, BeamsRule::LexD, BeamsRule::Mix, BeamsRule::MixReduced];

    pub fn label(self) -> &'static str {
        match self {
            BeamsRule::LexC => "LEX-c",
            BeamsRule::LexD => "LEX-d",
            BeamsRule::Mix => "MIX",
            BeamsRule::MixReduced => "MIX (reduced list)",
        }
    }

    /// The rule's name in file names and on the command line (`--tie`).
    pub fn slug(self) -> &'static str {
        match self {
            BeamsRule::LexC => "lex-c",
            BeamsRule::LexD => "lex-d",
            BeamsRule::Mix => "mix",
            BeamsRule::MixReduced => "mix-reduced",
        }
    }

    /// The rule a run name `<slug>-…` starts with (the longest slug that
    /// fits, so "mix-reduced-1-2" is MIX over the reduced list, not MIX).
    pub fn of_run_name(name: &str) -> Option<BeamsRule> {
        BeamsRule::ALL
            .into_iter()
            .filter(|r| name.starts_with(&format!("{}-", r.slug())))
            .max_by_key(|r| r.slug().len())
    }

    /// The canonical query order (LEX-d orders by diagonal first).
    pub fn query_order(self) -> QueryOrder {
        if self == BeamsRule::LexD { QueryOrder::DiagonalFirst } else { QueryOrder::ColourFirst }
    }

    /// The tie rule of the strategy.
    pub fn tie_rule(self) -> TieRule {
        if matches!(self, BeamsRule::LexC | BeamsRule::LexD) { TieRule::lex() } else { TieRule::mix() }
    }

    /// The colours offered: the reduced list, the new colour weighted by the
    /// unasked colours (MIX uniform over all tied queries) except in the
    /// reduced-list MIX.
    pub fn colour_offer(self) -> ColourOffer {
        if self == BeamsRule::MixReduced { ColourOffer::ReducedUnweighted } else { ColourOffer::ReducedWeighted }
    }

    /// The game under this rule (best-guess penalty).
    pub fn game(self, patterns: Patterns) -> Result<Beams> {
        Ok(Beams::new(patterns, self.query_order(), Penalty::BestGuess)?.with_offer(self.colour_offer()))
    }

    /// The name of the game under this rule, known without its tables.
    pub fn game_name(self, variant: Variant) -> String {
        Beams::game_name(variant, self.query_order(), self.colour_offer(), Penalty::BestGuess)
    }
}

impl FromStr for BeamsRule {
    type Err = crate::error::Error;

    fn from_str(s: &str) -> Result<BeamsRule> {
        BeamsRule::ALL
            .into_iter()
            .find(|r| r.slug() == s)
            .ok_or_else(|| invalid(format!("unknown tie rule {s:?}; accepted: lex-c, lex-d, mix, mix-reduced")))
    }
}

#[cfg(test)]
mod tests {
    use super::BeamsRule;

    #[test]
    fn a_run_name_gives_its_rule() {
        assert_eq!(BeamsRule::of_run_name("mix-reduced-1-2"), Some(BeamsRule::MixReduced));
        assert_eq!(BeamsRule::of_run_name("mix-1-2"), Some(BeamsRule::Mix));
        assert_eq!(BeamsRule::of_run_name("lex-c-2-2.5"), Some(BeamsRule::LexC));
        assert_eq!(BeamsRule::of_run_name("lex-d-0-inf"), Some(BeamsRule::LexD));
        assert_eq!(BeamsRule::of_run_name("lex-1-2"), None);
    }
}
