//! [`Beams`] as a [`SearchProblem`](crate::search::SearchProblem) (the generic
//! core's view of the game: its rules and capabilities) and
//! as a [`Replay`](crate::search::tree::Replay) (strategy trees), and the
//! penalty of a terminal set.

use super::super::codeset::CodeSet;
use super::kernels::*;
use super::{Beams, BeamsState, ColourOffer, Penalty};
use crate::games::permutations;
use crate::search::problem::{ClassSizes, merge_orbits};
use crate::search::{
    AnswerId, CodeId, Exact, Presentation, QueryId, Rules, SpeedHooks, Symmetry, Terminal, TiePreference,
};
use num_bigint::BigInt;
use rayon::prelude::*;

impl Beams {
    /// The penalty of stopping at `set` (summed over its codes) and its split,
    /// how many codes pay exactly p wrong cells, in two readings of "the best
    /// code is laid" when several codes are best (least total distance to the
    /// set; each has the same total): the first best code in code order (LEX:
    /// every tie goes to the first) and a best code drawn uniformly (MIX: every
    /// tie is drawn uniformly). Only the uniform split is invariant under the
    /// board and colour symmetries by which the MIX walk merges tied queries,
    /// so only it is exact under that merging (docs/conventions.md).
    fn penalty_of(&self, set: &CodeSet) -> (Exact, Vec<Exact>, Vec<Exact>) {
        let int = |x: u64| Exact::from_integer(BigInt::from(x));
        if self.penalty == Penalty::None || set.size < 2 {
            return (int(0), Vec::new(), Vec::new());
        }
        let mut colours: Vec<Vec<u8>> = Vec::with_capacity(set.size as usize);
        set.for_each_code(self.words, |t, sigma| colours.push(self.cell_colours(self.code_id(t, sigma))));
        let distance = |a: &[u8], b: &[u8]| a.iter().zip(b).filter(|(x, y)| x != y).count();
        let sums: Vec<u64> = colours.iter().map(|x| colours.iter().map(|y| distance(x, y) as u64).sum()).collect();
        // by_points[p] over the codes laid in `laid`, divided by `weight`.
        let split = |laid: &mut dyn Iterator<Item = usize>, weight: u64| -> Vec<Exact> {
            let mut by_points = vec![0u64; self.board.cell_count() + 1];
            for x in laid {
                colours.iter().for_each(|y| by_points[distance(&colours[x], y)] += 1);
            }
            by_points[0] = 0;
            while by_points.last() == Some(&0) {
                by_points.pop();
            }
            let weight = int(weight);
            by_points.into_iter().map(|n| int(n) / &weight).collect()
        };
        match self.penalty {
            Penalty::BestGuess => {
                let least = sums.iter().copied().min().unwrap_or(0);
                let best: Vec<usize> = (0..sums.len()).filter(|&i| sums[i] == least).collect();
                let first = split(&mut best.iter().take(1).copied(), 1);
                let uniform =
                    if best.len() == 1 { first.clone() } else { split(&mut best.iter().copied(), best.len() as u64) };
                (int(least), first, uniform)
            }
            _ => {
                let all = split(&mut (0..colours.len()), set.size);
                (int(sums.iter().sum()) / int(set.size), all.clone(), all)
            }
        }
    }
}

impl Rules for Beams {
    type State = BeamsState;
    type Set = CodeSet;
    fn code_count(&self) -> usize {
        self.patterns.count() * self.colourings.len()
    }
    fn query_count(&self) -> usize {
        self.variant.colours * self.board.diagonals.len()
    }
    fn answer_count(&self) -> usize {
        self.board.answer_count()
    }
    fn initial_state(&self) -> BeamsState {
        BeamsState { used: 0, asked: 0 }
    }
    fn is_admissible(&self, state: &BeamsState, q: QueryId) -> bool {
        let (c, d) = self.decode_query(q);
        state.used >> d & 1 == 0 && (self.offer == ColourOffer::All || c <= state.asked as usize)
    }
    fn next_state(&self, state: &BeamsState, q: QueryId) -> BeamsState {
        let (c, d) = self.decode_query(q);
        let asked = if self.offer == ColourOffer::All { state.asked | 1 << c } else { state.asked.max(c as u8 + 1) };
        BeamsState { used: state.used | 1 << d, asked }
    }
    fn full_set(&self) -> CodeSet {
        CodeSet::full(self.patterns.count(), self.colourings.len())
    }
    fn set_size(&self, set: &CodeSet) -> u64 {
        set.size
    }
    /// Popcount of each row against the colourings giving colour c to each piece
    /// (zero words of a row are skipped: deep in the tree rows are sparse).
    fn count_answers(&self, q: QueryId, set: &CodeSet, counts: &mut [u64]) {
        let (c, d) = self.decode_query(q);
        if self.stand_in_counts((&[q], &[(c, d)]), set, counts) {
            return;
        }
        let k = self.variant.colours;
        counts.iter_mut().for_each(|x| *x = 0);
        for (t, mask) in set.rows(self.words) {
            let hits = self.piece_hits(t, d);
            for (w, &m) in mask.iter().enumerate().filter(|(_, m)| **m != 0) {
                for (j, &a) in hits.iter().enumerate() {
                    counts[a as usize] += (m & self.colour_piece[(c * k + j) * self.words + w]).count_ones() as u64;
                }
            }
        }
    }
    /// Per row, the colourings are grouped by the answer their colour-c piece gives ([`Beams::split_classes`]).
    fn split(&self, q: QueryId, set: &CodeSet) -> Vec<(AnswerId, CodeSet)> {
        let (c, d) = self.decode_query(q);
        self.split_classes(c, d, set)
    }
    fn solving_answer(&self, _: QueryId) -> Option<AnswerId> {
        None
    }
    fn terminal(&self, set: &CodeSet) -> Terminal {
        let (penalty_total, penalised, penalised_uniform) = self.penalty_of(set);
        Terminal { queries_per_code: 0, penalty_total, penalised, penalised_uniform }
    }
    /// Diagonals at the same distance from the centre are mapped onto each other
    /// by the 12 board symmetries, and all colours are alike at the root.
    fn root_class_key(&self, q: QueryId) -> u64 {
        let (_, d) = self.decode_query(q);
        self.board.diagonal_offset[d] as u64
    }
}

impl Presentation for Beams {
    fn name(&self) -> String {
        Beams::game_name(self.variant, self.order, self.offer, self.penalty)
    }
    fn query_label(&self, q: QueryId) -> String {
        let (c, d) = self.decode_query(q);
        format!("colour {c} diagonal {d}")
    }
}

impl SpeedHooks for Beams {
    /// One pass over the set for all queries ([`Beams::compact_counts`]); small
    /// sets look up each code's answer directly (no tables to set up).
    fn count_answers_batch(&self, queries: &[QueryId], set: &CodeSet, counts: &mut [u64]) {
        let a = self.answer_count();
        counts.iter_mut().for_each(|x| *x = 0);
        let decoded: Vec<(usize, usize)> = queries.iter().map(|&q| self.decode_query(q)).collect();
        if self.stand_in_counts((queries, &decoded), set, counts) {
            return;
        }
        if set.size <= SMALL_SET {
            set.for_each_code(self.words, |t, sigma| {
                let code = self.code_at(t, sigma);
                for (out, &(c, d)) in counts.chunks_exact_mut(a).zip(&decoded) {
                    out[self.answer_at(code, c, d) as usize] += 1;
                }
            });
            return;
        }
        let compact = self.compact_counts(&decoded, set);
        for (&(c, d), out) in decoded.iter().zip(counts.chunks_exact_mut(a)) {
            let answers = compact.of(c, d);
            out[..answers.len()].copy_from_slice(answers);
        }
    }
    /// Small sets, and sets of up to [`TALLY_SET`] codes in sparse rows, walk
    /// their codes ([`Beams::tally_class_sizes`]): per query the answers of all
    /// codes are tallied, which avoids zeroing and scanning the whole answer
    /// range of every query.
    fn class_sizes_batch(&self, queries: &[QueryId], set: &CodeSet) -> ClassSizes {
        let sparse = set.size <= TALLY_SET && set.size <= TALLY_ROW_CODES * set.patterns.len() as u64;
        if set.size > SMALL_SET && !sparse {
            let decoded: Vec<(usize, usize)> = queries.iter().map(|&q| self.decode_query(q)).collect();
            if self.holds_every_code(set) || set.is_counted() {
                let mut full = vec![0u64; queries.len() * self.answer_count()];
                self.stand_in_counts((queries, &decoded), set, &mut full);
                let mut out = ClassSizes::with_capacity(queries.len(), queries.len() * 8);
                full.chunks_exact(self.answer_count()).for_each(|c| out.push(c.iter().copied().filter(|&x| x > 0)));
                return out;
            }
            let compact = self.compact_counts(&decoded, set);
            let mut out = ClassSizes::with_capacity(queries.len(), queries.len() * 8);
            decoded.iter().for_each(|&(c, d)| out.push(compact.of(c, d).iter().copied().filter(|&x| x > 0)));
            return out;
        }
        self.tally_class_sizes(queries, set)
    }
    /// One pass over the rows: a row keeps the colourings whose colour-c piece
    /// hits exactly `answer` (rows are filtered in parallel chunks).
    fn restrict(&self, query: QueryId, answer: AnswerId, set: &CodeSet) -> CodeSet {
        assert!(!set.is_counted(), "a counted stand-in is not filtered");
        let (c, d) = self.decode_query(query);
        let w = self.words;
        let filter_rows = |rows: &[u32], bits: &[u64]| {
            let mut out = CodeSet::empty();
            let mut keep = vec![0u64; w];
            for (i, &t) in rows.iter().enumerate() {
                self.prefetch_ahead(rows, i);
                keep.iter_mut().for_each(|x| *x = 0);
                for (j, _) in self.piece_hits(t, d).iter().enumerate().filter(|(_, a)| **a as AnswerId == answer) {
                    keep.iter_mut().zip(self.colourings_of(c, j)).for_each(|(k, m)| *k |= m);
                }
                keep.iter_mut().zip(&bits[i * w..(i + 1) * w]).for_each(|(k, m)| *k &= m);
                if keep.iter().any(|&x| x != 0) {
                    out.push_row(t, &keep);
                }
            }
            out
        };
        const CHUNK: usize = 1 << 16;
        if set.patterns.len() <= CHUNK {
            return filter_rows(&set.patterns, set.words());
        }
        let parts: Vec<CodeSet> = set
            .patterns
            .par_chunks(CHUNK)
            .zip(set.words().par_chunks(CHUNK * w))
            .map(|(r, b)| filter_rows(r, b))
            .collect();
        let mut out = CodeSet::empty();
        for p in parts {
            out.append(p);
        }
        out
    }
    /// [`Self::restrict`] of the full set without making it: a row is the
    /// colourings whose colour-c piece hits exactly `answer` (every colouring
    /// of every pattern is in the full set); rows counted first, so the class
    /// is allocated once at its size.
    fn restrict_full(&self, query: QueryId, answer: AnswerId) -> Option<CodeSet> {
        self.full_filtered(&[(query, answer)])
    }
    /// Every step of the trail in one pass over the patterns ([`Beams::full_filtered`]).
    fn restrict_full_trail(&self, trail: &[(QueryId, AnswerId)]) -> Option<CodeSet> {
        self.full_filtered(trail)
    }
    /// A stand-in ([`CodeSet::counted_full`], counted by [`Beams::full_set_counts`]); a full
    /// set of at most 1024 codes, which a decision may walk code by code, is made whole.
    fn counted_full_set(&self) -> CodeSet {
        let (t, colourings) = (self.patterns.count(), self.colourings.len());
        if t * colourings <= 1024 { self.full_set() } else { CodeSet::counted_full(t, colourings) }
    }
    /// A stand-in ([`CodeSet::counted`]) counted from the hit table, whose
    /// tables for every query are made once when it is made ([`Beams::stand_in`]),
    /// for classes of more than 1024 codes.
    fn counted_class(&self, query: QueryId, answer: AnswerId, codes: u64) -> Option<CodeSet> {
        (codes > 1024).then(|| self.stand_in(&[(query, answer)], codes))
    }
    /// The best-guess code is laid (the first of least total distance to the set);
    /// the secret pays its wrong cells. A random guess pays the mean, rounded.
    fn terminal_for(&self, set: &CodeSet, secret: CodeId) -> (u32, u64) {
        if set.size < 2 || self.penalty == Penalty::None {
            return (0, 0);
        }
        let mut colours: Vec<Vec<u8>> = Vec::with_capacity(set.size as usize);
        set.for_each_code(self.words, |t, sigma| colours.push(self.cell_colours(self.code_id(t, sigma))));
        let distance = |a: &[u8], b: &[u8]| a.iter().zip(b).filter(|(x, y)| x != y).count() as u64;
        let sums: Vec<u64> = colours.iter().map(|x| colours.iter().map(|y| distance(x, y)).sum()).collect();
        let truth = self.cell_colours(secret);
        match self.penalty {
            Penalty::BestGuess => {
                let best = (0..sums.len()).min_by_key(|&i| sums[i]).unwrap_or(0);
                (0, distance(&colours[best], &truth))
            }
            _ => (0, (colours.iter().map(|x| distance(x, &truth)).sum::<u64>() + set.size / 2) / set.size),
        }
    }
    /// Diagonals are only used up; a colour offered later is an unasked colour,
    /// interchangeable here with the lowest unasked one, which is offered.
    fn narrowing_queries(&self) -> bool {
        true
    }
    /// Unused diagonals × offered colours, listed in query order ([`Beams::find_admissible`]).
    fn admissible_queries(&self, state: &BeamsState) -> Vec<QueryId> {
        let mut out = Vec::with_capacity(self.query_count());
        self.find_admissible(state, |q| {
            out.push(q);
            false
        });
        out
    }
    /// Compares the two codes' answers query by query (no counting, no list of the queries).
    fn separating_query(&self, state: &BeamsState, set: &CodeSet) -> Option<QueryId> {
        let mut codes = [CodeAt { hits: 0, pieces: 0 }; 2];
        let mut n = 0;
        set.for_each_code(self.words, |t, sigma| {
            codes[n.min(1)] = self.code_at(t, sigma);
            n += 1;
        });
        self.find_admissible(state, |q| {
            let (c, d) = self.decode_query(q);
            self.answer_at(codes[0], c, d) != self.answer_at(codes[1], c, d)
        })
    }
    /// Looks up each code's answer and marks it in a 256-bit mask (answers are
    /// bytes): a query is finest when no answer repeats. The set's hit rows are
    /// prefetched first; the codes' places are kept on the stack (a set of up
    /// to [`FINEST_CODES`] codes, as the walk asks).
    fn first_finest_query(&self, queries: &[QueryId], set: &CodeSet) -> Option<QueryId> {
        set.patterns.iter().for_each(|&t| self.prefetch_hits(t));
        let mut held = [CodeAt { hits: 0, pieces: 0 }; FINEST_CODES];
        let mut more: Vec<CodeAt> = Vec::new();
        let codes: &mut [CodeAt] = match set.size as usize {
            n if n <= FINEST_CODES => &mut held[..n],
            n => {
                more.resize(n, CodeAt { hits: 0, pieces: 0 });
                &mut more
            }
        };
        let mut i = 0;
        set.for_each_code(self.words, |t, sigma| {
            codes[i] = self.code_at(t, sigma);
            i += 1;
        });
        let codes = &codes[..i];
        queries.iter().copied().find(|&q| {
            let (c, d) = self.decode_query(q);
            let mut seen = [0u128; 2];
            codes.iter().all(|&code| {
                let a = self.answer_at(code, c, d);
                let (word, bit) = ((a >> 7) as usize, 1u128 << (a & 127));
                let fresh = seen[word] & bit == 0;
                seen[word] |= bit;
                fresh
            })
        })
    }
    fn has_solving_answers(&self) -> bool {
        false
    }
    /// Every colour covers exactly p cells, so two distinct codes colour at
    /// least two cells differently; a laid code (the best or, on average, a
    /// random one of the set) thus costs each of the other k − 1 codes at
    /// least 2 wrong cells. No penalty: 0.
    fn terminal_floor(&self) -> u64 {
        if self.penalty == Penalty::None { 0 } else { 2 }
    }
    /// One code pays nothing: no query, and no penalty (the code laid is the secret).
    fn one_code_terminal(&self) -> Option<Terminal> {
        let zero = Exact::from_integer(BigInt::from(0));
        Some(Terminal {
            queries_per_code: 0,
            penalty_total: zero,
            penalised: Vec::new(),
            penalised_uniform: Vec::new(),
        })
    }
    /// The game narrowed to the set's patterns and their hit rows ([`Beams::narrowed_to`]).
    fn narrowed(&self, set: &CodeSet) -> Option<(Beams, CodeSet)> {
        self.narrowed_to(set)
    }
}

impl Symmetry for Beams {
    fn multiplicity(&self, state: &BeamsState, q: QueryId) -> u64 {
        let (c, _) = self.decode_query(q);
        match self.offer {
            ColourOffer::ReducedWeighted if c == state.asked as usize => (self.variant.colours - c) as u64,
            _ => 1,
        }
    }
    /// Symmetries (board symmetry g, permutation π of the asked colours) that fix
    /// the used diagonals and map the set onto itself; merges the queries of
    /// each orbit. Reduced colour offers only (asked colours are 0..k−1; the new
    /// colour and its MIX multiplicity stay).
    fn symmetry_classes(&self, state: &BeamsState, set: &CodeSet, weighted: &[(u64, QueryId)]) -> Vec<(u64, QueryId)> {
        let Some(action) = &self.action else { return weighted.to_vec() };
        if self.offer == ColourOffer::All || set.size < SYMMETRY_MIN_SET {
            return weighted.to_vec();
        }
        let asked = state.asked as usize;
        let mut fixing: Vec<(usize, Vec<u8>)> = Vec::new();
        for g in 0..action.diagonal.len() {
            let used_image = (0..self.board.diagonals.len())
                .filter(|&d| state.used >> d & 1 == 1)
                .fold(0u64, |m, d| m | 1 << action.diagonal[g][d]);
            if used_image != state.used {
                continue;
            }
            for pi in permutations(asked) {
                if g == 0 && pi.iter().enumerate().all(|(i, &x)| i == x as usize) {
                    continue;
                }
                if self.maps_onto_itself(action, g, &pi, set) {
                    fixing.push((g, pi));
                }
            }
        }
        if fixing.is_empty() {
            return weighted.to_vec();
        }
        merge_orbits(weighted, |q| {
            let (c, d) = self.decode_query(q);
            fixing
                .iter()
                .map(|(g, pi)| self.query_id(if c < pi.len() { pi[c] as usize } else { c }, action.diagonal[*g][d]))
                .fold(q, QueryId::min)
        })
    }
}

/// Beams' queries are not codes: no "possible secrets first".
impl TiePreference for Beams {}

impl crate::search::tree::Replay for Beams {
    fn replay_answer(&self, q: QueryId, code: CodeId) -> AnswerId {
        self.answer_of(q, code)
    }
    fn set_of(&self, codes: &[CodeId]) -> CodeSet {
        let k = self.colourings.len();
        let mut set = CodeSet::empty();
        let mut row = super::super::codeset::zeroed_rows(1, self.words);
        let mut sorted = codes.to_vec();
        sorted.sort_unstable();
        for chunk in sorted.chunk_by(|a, b| a / k as u32 == b / k as u32) {
            row.fill(false);
            chunk.iter().for_each(|&c| row.set(c as usize % k, true));
            set.push_row(chunk[0] / k as u32, row.as_raw_slice());
        }
        set
    }
    fn codes_of(&self, set: &CodeSet) -> Vec<CodeId> {
        set.codes(self.words).map(|(t, s)| self.code_id(t, s)).collect()
    }
}

/// Beams offers certificates no symmetries (its state changes); a query may
/// be asked later while its diagonal is unused.
impl crate::certificate::Certify for Beams {
    fn admissible_below(&self, state: &BeamsState, q: QueryId) -> bool {
        state.used >> self.decode_query(q).1 & 1 == 0
    }
    /// 2 with a penalty, after checking that no two codes colour the board
    /// alike and that on every code each colour covers exactly p cells (then
    /// two codes differ in at least two
    /// cells; a pair's penalty, best or random code laid, is their distance);
    /// 0 without a penalty; none if some code breaks the rule.
    fn pair_cost_floor(&self) -> Option<u64> {
        if self.penalty == Penalty::None {
            return Some(0);
        }
        let p = self.board.cell_count() / self.variant.colours;
        let mut colourings: Vec<Vec<u8>> =
            (0..self.code_count() as CodeId).into_par_iter().map(|c| self.cell_colours(c)).collect();
        let even = colourings.par_iter().all(|cells| {
            let mut per_colour = [0usize; 64];
            cells.iter().for_each(|&c| per_colour[c as usize] += 1);
            per_colour[..self.variant.colours].iter().all(|&n| n == p)
        });
        // …and no two codes colour every cell alike.
        colourings.par_sort_unstable();
        let distinct = colourings.windows(2).all(|w| w[0] != w[1]);
        (even && distinct).then_some(2)
    }
}
