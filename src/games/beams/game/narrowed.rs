//! [`Beams`] narrowed to the patterns of one set (issue 53 item 4: a curve
//! unit's start). A unit of Beams(6c,6p) holds codes of a small part of the
//! 4.2 M patterns, yet its walk read their answers from the hit table of all
//! of them (533 MB, made and its pages cleared at every process's start: about
//! a tenth of unit 37's process). The narrowed game holds the set's patterns
//! alone, numbered in their order, and their hit rows: every answer, piece and
//! colouring of a code is the one of the code it stands for, and code order is
//! kept, so every walk below the set gives the same values.

use super::super::codeset::CodeSet;
use super::super::patterns::Patterns;
use super::{Beams, hit_table};
use std::sync::{Mutex, OnceLock};

impl Beams {
    /// The game narrowed to the patterns of `set` (numbered 0, 1, … in their
    /// order) and `set` in its numbering; `None` for a stand-in, or if the game
    /// has board symmetries (the action maps pattern numbers of the whole table).
    /// Its sets are never taken for the set of all codes ([`Beams::holds_every_code`]).
    pub(super) fn narrowed_to(&self, set: &CodeSet) -> Option<(Beams, CodeSet)> {
        if self.action.is_some() || set.is_counted() {
            return None;
        }
        let k = self.variant.colours;
        let mut pieces = Vec::with_capacity(set.patterns.len() * k);
        set.patterns.iter().for_each(|&t| pieces.extend_from_slice(self.patterns.pattern(t as usize)));
        let patterns = Patterns { variant: self.variant, pieces };
        let hits = OnceLock::from(hit_table(&patterns, &self.board));
        let game = Beams {
            variant: self.variant,
            board: self.board.clone(),
            order: self.order,
            penalty: self.penalty,
            offer: self.offer,
            patterns,
            colourings: self.colourings.clone(),
            piece_of: self.piece_of.clone(),
            words: self.words,
            colour_piece: self.colour_piece.clone(),
            hits,
            line_hits: OnceLock::new(),
            stand_ins: Mutex::new(Vec::new()),
            action: None,
            narrowed: true,
        };
        let renumbered = (0..set.patterns.len() as u32).collect();
        Some((game, CodeSet { patterns: renumbered, bits: set.bits.clone(), size: set.size }))
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::codeset::CodeSet;
    use super::super::super::patterns::enumerate;
    use super::super::{Beams, Penalty, QueryOrder};
    use crate::curve::Verification;
    use crate::curve::point::Point;
    use crate::curve::steps::Domain;
    use crate::curve::walk::unit_steps_at;
    use crate::renyi::alpha::Alpha;
    use crate::search::{Rules, SpeedHooks, TieRule};

    /// Nodes two queries below the root of Beams(3c,6p) (its board symmetries
    /// left out, so that it narrows) walk to the same steps in the narrowed
    /// game as in the whole one, under LEX and MIX, on [0, ∞] and on [1, 2].
    #[test]
    fn a_narrowed_unit_walks_to_the_same_steps() {
        let mut game = Beams::new(enumerate("3c6p".parse().unwrap()), QueryOrder::ColourFirst, Penalty::BestGuess)
            .expect("3c6p fits");
        assert!(game.action.is_some() && game.narrowed_to(&game.full_set()).is_none());
        game.action = None;
        let domains = [
            Domain::closed(Point::zero(), Point::infinity()),
            Domain::closed(Point::exact(Alpha::integer(1)), Point::exact(Alpha::integer(2))),
        ];
        // Trails to the largest class of a query, then of another query on it.
        let (root, full) = (game.initial_state(), game.full_set());
        let largest =
            |q: u32, set: &CodeSet| game.split(q, set).into_iter().max_by_key(|(_, s)| s.size).expect("a class");
        let trails: Vec<[(u32, u16); 2]> = [(0, 3), (2, 0), (4, 7)]
            .into_iter()
            .map(|(i, j)| {
                let q0 = game.admissible_queries(&root)[i];
                let (a, class) = largest(q0, &full);
                let q1 = game.admissible_queries(&game.next_state(&root, q0))[j];
                [(q0, a), (q1, largest(q1, &class).0)]
            })
            .collect();
        let mut walked = 0;
        for trail in trails {
            let set = game.restrict_full_trail(&trail).expect("codes follow the trail");
            let state = trail.iter().fold(game.initial_state(), |s, &(q, _)| game.next_state(&s, q));
            let (narrow, small) = game.narrowed(&set).expect("a set of codes narrows");
            assert_eq!((small.size, narrow.pattern_count()), (set.size, set.patterns.len()));
            assert!(narrow.pattern_count() < game.pattern_count());
            for tie in [TieRule::lex(), TieRule::mix()] {
                for domain in &domains {
                    let whole = unit_steps_at(&game, tie, (&state, &set), 2, domain, &Verification::new());
                    let narrowed = unit_steps_at(&narrow, tie, (&state, &small), 2, domain, &Verification::new());
                    assert_eq!(format!("{whole:?}"), format!("{narrowed:?}"), "trail {trail:?}");
                    walked += usize::from(set.size > 2);
                }
            }
        }
        assert!(walked >= 8, "too few sets walked: {walked}");
    }
}
