//! The cheap symmetries of a small set: transpositions of two colours or of
//! two pegs that map the set onto itself. Below `SYMMETRY_MIN_SET` codes the
//! set's stabilizer is not searched for (it cost more than it saved), yet
//! colours that no query has named yet stay interchangeable in every set the
//! history leaves, and their transpositions are found with a few lookups.
//! Also the game's [`Symmetry`] impl: the stabilizer's orbits from
//! `SYMMETRY_MIN_SET` codes on, the candidates as they are below.

use super::{Mastermind, SYMMETRY_MIN_SET, base_value};
use crate::search::problem::merge_orbits;
use crate::search::{CodeId, QueryId, Symmetry};

impl Mastermind {
    /// Drops the queries that a transposition σ of two colours or of two pegs
    /// fixing `set` maps to a smaller query. Why the search picks the same
    /// query: the answer of σq to σs is that of q to s (black and white pegs
    /// do not change when both codes' pegs or colours are permuted alike), so
    /// σq splits the set into the images under σ of q's classes, answer by
    /// answer, with the same sizes (the same counting bound and Σ m·ln m,
    /// summed in the same answer order), σq is a code of the set exactly when
    /// q is, and σ maps every strategy for a class onto one for its image
    /// with the same total. So σq < q stands for q with the same bound, H_1
    /// and total, first in the search's order; it stays listed or is dropped
    /// in turn for a smaller one (ids fall at each step), and the least query
    /// of such a chain, which the search would have picked among them, stays.
    /// Colours: σ = (x y), x < y, lowers q when the first peg of q with x or y
    /// has y (codes are numbered by their pegs' base-c value, first peg
    /// first). Pegs: σ = (i j), i < j, lowers q when q's colour at i exceeds
    /// its colour at j. Both are bijections of the codes with and without
    /// repeated colours.
    pub(super) fn drop_transposed_queries(&self, set: &[CodeId], queries: &mut Vec<QueryId>) {
        let present = set.iter().fold(0u32, |mask, &c| mask | self.colour_masks[c as usize]);
        let mut colours = Vec::new();
        for x in 0..self.colors as u8 {
            for y in x + 1..self.colors as u8 {
                // A transposition with a colour the set lacks moves a code off it
                // unless both are absent, which `drop_equivalent_queries` covers.
                if present >> x & 1 == 1 && present >> y & 1 == 1 && self.fixes(set, |c| swap(c, x, y)) {
                    colours.push((x, y));
                }
            }
        }
        let mut pegs = Vec::new();
        for i in 0..self.pegs {
            for j in i + 1..self.pegs {
                if self.fixes(set, |c| c.swap(i, j)) {
                    pegs.push((i, j));
                }
            }
        }
        if colours.is_empty() && pegs.is_empty() {
            return;
        }
        queries.retain(|&q| {
            let code = &self.codes[q as usize];
            let lowered_by_colours =
                colours.iter().any(|&(x, y)| code.iter().find(|&&c| c == x || c == y).is_some_and(|&c| c == y));
            !lowered_by_colours && !pegs.iter().any(|&(i, j)| code[i] > code[j])
        });
    }

    /// Whether the map `image` (applied to a code's pegs in place) sends every
    /// code of the sorted `set` into the set (then onto it: it is injective).
    fn fixes(&self, set: &[CodeId], image: impl Fn(&mut [u8])) -> bool {
        let mut pegs = vec![0u8; self.pegs];
        set.iter().all(|&c| {
            pegs.copy_from_slice(&self.codes[c as usize]);
            image(&mut pegs);
            let id = self.id_of[base_value(&pegs, self.colors)];
            id != u32::MAX && set.binary_search(&id).is_ok()
        })
    }
}

/// Colour `x` as `y` and `y` as `x` in place.
fn swap(code: &mut [u8], x: u8, y: u8) {
    for c in code.iter_mut() {
        *c = if *c == x {
            y
        } else if *c == y {
            x
        } else {
            *c
        };
    }
}

impl Symmetry for Mastermind {
    /// Merges the queries of each orbit of the symmetries that map `set` onto
    /// itself (for sets of at least `SYMMETRY_MIN_SET` codes), keeping the
    /// least query of each orbit; the orbits come from generators of the
    /// stabilizer (see `Mastermind::stabilizer_generators`).
    fn symmetry_classes(&self, _: &(), set: &Vec<CodeId>, weighted: &[(u64, QueryId)]) -> Vec<(u64, QueryId)> {
        if set.len() < SYMMETRY_MIN_SET {
            return weighted.to_vec();
        }
        let gens = self.stabilizer_generators(set);
        if gens.is_empty() {
            return weighted.to_vec();
        }
        let orbit_min = self.orbit_minima(&gens, weighted.iter().map(|&(_, q)| q));
        merge_orbits(weighted, |q| orbit_min[q as usize])
    }
    /// Below `SYMMETRY_MIN_SET` codes the candidates as they are (what the default's
    /// weighted copies through [`Self::symmetry_classes`] give back there).
    fn distinct_up_to_symmetry(&self, state: &(), set: &Vec<CodeId>, candidates: Vec<QueryId>) -> Vec<QueryId> {
        if set.len() < SYMMETRY_MIN_SET {
            return candidates;
        }
        let weighted: Vec<(u64, QueryId)> = candidates.into_iter().map(|q| (1, q)).collect();
        self.symmetry_classes(state, set, &weighted).into_iter().map(|(_, q)| q).collect()
    }
}
