//! [`Beams`]' memo keys: code-id keys for sparse sets, residual keys and
//! reduced states for small ones (what the MIX memo of the analysis keys by).

use super::super::codeset::CodeSet;
use super::kernels::SMALL_NODE_SET;
use super::{Beams, BeamsState, ColourOffer};
use crate::search::{CodeId, MemoKeys};

impl MemoKeys for Beams {
    /// Sets of at most four codes per row on average (deep in the tree) are
    /// keyed by their code ids: 4 bytes per code instead of a row of c! bits.
    fn code_list_key(&self, set: &CodeSet) -> Option<Box<[CodeId]>> {
        (set.size <= 4 * set.patterns.len() as u64).then(|| {
            let mut ids = Vec::with_capacity(set.size as usize);
            set.for_each_code(self.words, |t, sigma| ids.push(self.code_id(t, sigma)));
            ids.into_boxed_slice()
        })
    }
    /// Sets of at most `SMALL_NODE_SET` codes: the varying cells V (8 bytes),
    /// then for each code, in set order, the colour of each cell of V (3 bits
    /// each, little-endian), the asked colours renamed in order of appearance
    /// (reduced colour offers, where they are 0..k−1). Sets with equal keys in
    /// equal states have equal subtrees under MIX:
    /// - a query's answer on a code is the set of cells of its colour on its
    ///   diagonal; cells outside V add the same to every code's answer, so both
    ///   sets split into the same classes, row by row (classes keep set order);
    /// - the penalty compares codes cell by cell (cells outside V never
    ///   differ) and takes the first best guess in set order;
    /// - renaming the asked colours maps the offered queries, their answers,
    ///   scores and MIX weights onto each other (not LEX's order; the memo
    ///   serves MIX only).
    fn residual_key(&self, state: &BeamsState, set: &CodeSet) -> Option<(BeamsState, Box<[u8]>)> {
        if set.size > SMALL_NODE_SET {
            return None;
        }
        let varying = self.varying_cells(set);
        let reduced = self.without_settled(state, varying);
        let cells = varying.count_ones() as usize;
        if cells > 42 {
            return None;
        }
        let renamed = if self.offer == ColourOffer::All { 0 } else { state.asked as usize };
        let mut rename: [u8; 8] = std::array::from_fn(|c| c as u8);
        let mut seen = [false; 8];
        let mut next_name = 0u8;
        let per_code = (3 * cells).div_ceil(8);
        let mut key = Vec::with_capacity(8 + per_code * set.size as usize);
        key.extend_from_slice(&varying.to_le_bytes());
        let mut slots = [0u8; 64];
        set.for_each_code(self.words, |t, sigma| {
            for (c, cells_of_c) in self.colour_cells(t, sigma).enumerate() {
                let mut m = cells_of_c & varying;
                while m != 0 {
                    slots[(varying & ((m & m.wrapping_neg()) - 1)).count_ones() as usize] = c as u8;
                    m &= m - 1;
                }
            }
            let mut packed = 0u128;
            for (slot, &c) in slots[..cells].iter().enumerate() {
                if (c as usize) < renamed && !seen[c as usize] {
                    (seen[c as usize], rename[c as usize], next_name) = (true, next_name, next_name + 1);
                }
                packed |= (rename[c as usize] as u128) << (3 * slot);
            }
            key.extend_from_slice(&packed.to_le_bytes()[..per_code]);
        });
        Some((reduced, key.into_boxed_slice()))
    }
    /// A pattern number and a colouring row per pattern.
    fn set_bytes(&self, set: &CodeSet) -> usize {
        set.patterns.len() * (4 + 8 * self.words)
    }
    /// Marks as used the diagonals on which every code of `set` has the same
    /// colours: no query on them splits `set` or any subset of it, and H_α
    /// strategies ask only queries that split (thesis Satz 4.2), so no subtree
    /// depends on whether they were asked. Reducing is idempotent and commutes
    /// with shrinking the set (a settled diagonal stays settled). Sets above
    /// `SMALL_NODE_SET` codes keep their state.
    fn reduced_state(&self, state: &BeamsState, set: &CodeSet) -> BeamsState {
        if set.size > SMALL_NODE_SET {
            return *state;
        }
        self.without_settled(state, self.varying_cells(set))
    }
}
