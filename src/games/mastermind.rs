//! Mastermind MM(p,c) (thesis §4.3): p pegs, c colours, with or without repeated
//! colours. The answer to a guess g for secret s is (b, w): b pegs right colour in
//! the right place, b + w = Σ_colours min(#g, #s). Queries are all codes of the
//! variant; the game ends with the answer (p, 0), and a code that is known but
//! not yet guessed must still be played (one more query).

use crate::error::{Error, Result, invalid};
use crate::search::problem::code_list;
use crate::search::{AnswerId, CodeId, MemoKeys, Presentation, QueryId, Rules, SpeedHooks, Terminal, TiePreference};
use rayon::prelude::*;

mod symmetry;
mod transpositions;

/// The largest answer table built in memory (one byte per guess × secret pair).
pub const MAX_TABLE_BYTES: u64 = 4 << 30;

/// A Mastermind variant with its precomputed answer table.
pub struct Mastermind {
    pegs: usize,
    colors: usize,
    distinct: bool,
    /// Codes in lexicographic order (AAAA < AAAB < …), one colour index per peg.
    codes: Vec<Vec<u8>>,
    /// `table[g·n + s]` = answer id of guess g against secret s.
    table: Vec<u8>,
    /// Code id by the base-`colors` value of its pegs (`u32::MAX` for non-codes).
    id_of: Vec<u32>,
    /// The colours of each code as a bit mask (colour i: bit i).
    colour_masks: Vec<u32>,
}

/// Smallest set for which the symmetries fixing it are looked for.
const SYMMETRY_MIN_SET: usize = 24;

/// Smallest set whose answers [`SpeedHooks::count_answers_batch`] counts for
/// four queries at once.
const INTERLEAVE_MIN_SET: usize = 128;

impl Mastermind {
    /// Builds MM(pegs, colors); `distinct` forbids repeated colours (MM-360 for (4,6)).
    pub fn new(pegs: usize, colors: usize, distinct: bool) -> Result<Mastermind> {
        validate(pegs, colors, distinct)?;
        let codes = enumerate_codes(pegs, colors, distinct);
        let n = codes.len();
        // Filled in place, a row per guess: the table is allocated once at its
        // size (collecting a parallel iterator grew it to 2–2.7× that).
        let mut table = vec![0u8; n * n];
        table.par_chunks_mut(n.max(1)).enumerate().for_each(|(g, row)| {
            for (slot, secret) in row.iter_mut().zip(&codes) {
                *slot = encode(pegs, feedback(&codes[g], secret, colors));
            }
        });
        let mut id_of = vec![u32::MAX; colors.pow(pegs as u32)];
        for (i, code) in codes.iter().enumerate() {
            id_of[base_value(code, colors)] = i as u32;
        }
        let colour_masks = codes.iter().map(|code| code.iter().fold(0u32, |mask, &c| mask | 1 << c)).collect();
        Ok(Mastermind { pegs, colors, distinct, codes, table, id_of, colour_masks })
    }

    pub fn pegs(&self) -> usize {
        self.pegs
    }

    pub fn colors(&self) -> usize {
        self.colors
    }

    /// The code with this label (`ABCD`), if it is a code of the variant.
    pub fn code_by_label(&self, label: &str) -> Option<CodeId> {
        let target: Option<Vec<u8>> = label.bytes().map(|b| b.checked_sub(b'A')).collect();
        let target = target?;
        self.codes.binary_search(&target).ok().map(|i| i as CodeId)
    }

    /// The (black, white) answer of guess `g` against secret `s`.
    pub fn black_white(&self, g: CodeId, s: CodeId) -> (usize, usize) {
        decode(self.pegs, self.answer(g, s))
    }

    /// The answer id of guess `query` against secret `code` (table lookup).
    #[inline]
    pub fn answer(&self, query: QueryId, code: CodeId) -> AnswerId {
        self.table[query as usize * self.codes.len() + code as usize] as AnswerId
    }

    /// The code with this id, as a label (`AABC`).
    pub fn code_label(&self, code: CodeId) -> String {
        self.codes[code as usize].iter().map(|&c| (b'A' + c) as char).collect()
    }
}

/// Rejects variants that are empty or whose answer table would not fit in memory.
fn validate(pegs: usize, colors: usize, distinct: bool) -> Result<()> {
    if pegs == 0 || colors == 0 {
        return Err(invalid(format!("MM(p={pegs}, c={colors}): pegs and colours must both be at least 1")));
    }
    if colors > 26 {
        return Err(invalid(format!("{colors} colours: at most 26 are supported (labels A..Z)")));
    }
    if distinct && pegs > colors {
        return Err(invalid(format!("MM({pegs},{colors}) without repetition needs at least as many colours as pegs")));
    }
    if pegs > 14 {
        return Err(Error::TooLarge(format!("MM({pegs},{colors}): at most 14 pegs are supported")));
    }
    // The answer table holds a byte per (guess, secret): |C|² bytes, at most
    // MAX_TABLE_BYTES; the game and a walk over it fit the memory budget
    // (`--max-memory`).
    let n = code_count(pegs, colors, distinct);
    let bytes = n.and_then(|n| n.checked_mul(n));
    let name = format!("MM({pegs},{colors}){}", if distinct { " without repetition" } else { "" });
    let codes = n.map_or("more than 2^64".to_string(), |n| n.to_string());
    if bytes.is_none_or(|b| b > MAX_TABLE_BYTES) {
        return Err(Error::TooLarge(format!(
            "{name} has {codes} codes; its answer table would need {} (the limit is {} GiB)",
            bytes.map_or("more than 16 EiB".to_string(), crate::memory::human_bytes),
            MAX_TABLE_BYTES >> 30
        )));
    }
    crate::memory::check_budget(
        &format!("{name} ({codes} codes: its answer table, a walk over it and the program)"),
        crate::memory::churning_process_bytes(
            heap_bytes(pegs, colors, distinct),
            n.and_then(|n| n.checked_mul(FREED_BYTES_PER_CODE)),
        ),
    )
}

/// Bytes of live data that MM(`pegs`,`colors`) holds at its peak while a
/// strategy is walked over it: the answer table (|C|² bytes), the codes and
/// their index (`id_of`, 4·c^p bytes), and the walk's sets, partitions and
/// outcomes, [`WALK_BYTES_PER_CODE`] per code. `None` beyond 2^64.
/// tests/memory_estimates.rs holds it within 2× of the counted peak.
pub fn heap_bytes(pegs: usize, colors: usize, distinct: bool) -> Option<u64> {
    let n = code_count(pegs, colors, distinct)?;
    let index = (colors as u64).checked_pow(u32::try_from(pegs).ok()?)?.checked_mul(4)?;
    n.checked_mul(n)?.checked_add(n.checked_mul(WALK_BYTES_PER_CODE)?)?.checked_add(index)
}

/// A walk's live bytes per code beyond the table: the codes themselves
/// (about 40 bytes each) and the walk's sets, partitions and outcomes; counted
/// at 550–730 bytes per code on MM(4,5) … MM(5,5) (LEX, H_1, 2 threads).
pub const WALK_BYTES_PER_CODE: u64 = 800;

/// Bytes per code that a walk's worker thread has freed and the allocator
/// still holds (`memory::churning_process_bytes`). Peak resident sizes of
/// `analyze` on 2 threads, 2026-11-28, under load 4–9 (idle: the lower end):
/// MM(4,5) 24–35 MiB, MM(4,6) 34–51, MM(4,7) 41–81, MM(5,5) 44–106 (one 104
/// MiB seen by tests/cli_memory.rs under load); the estimates without this
/// term were 19.8, 35.6, 43.7 and 47.9 MiB, the last below half of that
/// peak. With 3 KiB per code per thread they are 23.5, 43.2, 57.8 and 66.2
/// MiB, each within 2× of every peak seen.
pub const FREED_BYTES_PER_CODE: u64 = 3 << 10;

/// Number of codes: c^p, or c!/(c−p)! without repetition.
pub fn code_count(pegs: usize, colors: usize, distinct: bool) -> Option<u64> {
    if distinct {
        (0..pegs).try_fold(1u64, |acc, i| acc.checked_mul((colors - i) as u64))
    } else {
        u32::try_from(pegs).ok().and_then(|p| (colors as u64).checked_pow(p))
    }
}

/// All codes in lexicographic order.
fn enumerate_codes(pegs: usize, colors: usize, distinct: bool) -> Vec<Vec<u8>> {
    let total = (colors as u64).pow(pegs as u32);
    (0..total)
        .map(|mut x| {
            let mut code = vec![0u8; pegs];
            for slot in code.iter_mut().rev() {
                *slot = (x % colors as u64) as u8;
                x /= colors as u64;
            }
            code
        })
        .filter(|code| !distinct || all_distinct(code))
        .collect()
}

fn all_distinct(code: &[u8]) -> bool {
    code.iter().enumerate().all(|(i, a)| !code[..i].contains(a))
}

/// (black, white) of `guess` against `secret`.
pub fn feedback(guess: &[u8], secret: &[u8], colors: usize) -> (usize, usize) {
    let black = guess.iter().zip(secret).filter(|(a, b)| a == b).count();
    let common =
        if secret.len() <= 64 { common_by_mask(guess, secret) } else { common_by_counts(guess, secret, colors) };
    (black, common - black)
}

/// Pegs of equal colour in `guess` and `secret` (black and white together),
/// paired through a bit mask of used secret pegs: no allocation, for codes of
/// at most 64 pegs (every game here). This runs once per (guess, secret) pair
/// when the answer table is built.
fn common_by_mask(guess: &[u8], secret: &[u8]) -> usize {
    let mut used = 0u64;
    let mut common = 0;
    for &c in guess {
        if let Some(j) = (0..secret.len()).find(|&j| secret[j] == c && used & (1 << j) == 0) {
            used |= 1 << j;
            common += 1;
        }
    }
    common
}

/// [`common_by_mask`] for any length: the sum over colours of the smaller count.
fn common_by_counts(guess: &[u8], secret: &[u8], colors: usize) -> usize {
    let mut in_guess = vec![0usize; colors];
    let mut in_secret = vec![0usize; colors];
    guess.iter().for_each(|&c| in_guess[c as usize] += 1);
    secret.iter().for_each(|&c| in_secret[c as usize] += 1);
    in_guess.iter().zip(&in_secret).map(|(a, b)| a.min(b)).sum()
}

fn encode(pegs: usize, (b, w): (usize, usize)) -> u8 {
    (b * (pegs + 1) + w) as u8
}

fn decode(pegs: usize, answer: AnswerId) -> (usize, usize) {
    (answer as usize / (pegs + 1), answer as usize % (pegs + 1))
}

impl Rules for Mastermind {
    type State = ();
    /// Sorted code ids.
    type Set = Vec<CodeId>;
    fn code_count(&self) -> usize {
        self.codes.len()
    }
    fn query_count(&self) -> usize {
        self.codes.len()
    }
    fn answer_count(&self) -> usize {
        (self.pegs + 1) * (self.pegs + 1)
    }
    fn initial_state(&self) {}
    fn is_admissible(&self, _: &(), _: QueryId) -> bool {
        true
    }
    fn next_state(&self, _: &(), _: QueryId) {}
    fn full_set(&self) -> Vec<CodeId> {
        (0..self.codes.len() as CodeId).collect()
    }
    fn set_size(&self, set: &Vec<CodeId>) -> u64 {
        set.len() as u64
    }
    fn count_answers(&self, query: QueryId, set: &Vec<CodeId>, counts: &mut [u64]) {
        code_list::count_answers(|q, c| self.answer(q, c), query, set, counts)
    }
    fn split(&self, query: QueryId, set: &Vec<CodeId>) -> Vec<(AnswerId, Vec<CodeId>)> {
        code_list::split(|q, c| self.answer(q, c), query, set)
    }
    fn solving_answer(&self, _: QueryId) -> Option<AnswerId> {
        Some(encode(self.pegs, (self.pegs, 0)) as AnswerId)
    }
    /// A known secret is played with one more guess. Every code is a query, so
    /// a set of two or more codes always has a sensible query (guess one of
    /// them) and the analysis only stops at singletons.
    fn terminal(&self, set: &Vec<CodeId>) -> Terminal {
        debug_assert_eq!(set.len(), 1, "Mastermind stops only at a single code");
        Terminal {
            queries_per_code: 1,
            penalty_total: crate::search::Exact::from_integer(0.into()),
            penalised: Vec::new(),
            penalised_uniform: Vec::new(),
        }
    }
    /// Codes are symmetric under colour and peg permutations iff they have the
    /// same sorted colour multiplicities (AABC ~ CBDD); key = those multiplicities.
    fn root_class_key(&self, query: QueryId) -> u64 {
        let mut counts = vec![0u64; self.colors];
        self.codes[query as usize].iter().for_each(|&c| counts[c as usize] += 1);
        counts.sort_unstable_by(|a, b| b.cmp(a));
        counts.iter().fold(0, |key, &c| key * (self.pegs as u64 + 1) + c)
    }
}

impl Presentation for Mastermind {
    fn name(&self) -> String {
        let n = self.codes.len();
        if self.distinct {
            format!("MM({},{}) without repetition (MM-{n})", self.pegs, self.colors)
        } else {
            format!("MM({},{}) (MM-{n})", self.pegs, self.colors)
        }
    }
    fn query_label(&self, query: QueryId) -> String {
        self.code_label(query)
    }
}

impl SpeedHooks for Mastermind {
    /// One table row per query, counted into the zeroed `counts` (the per-query clearing of
    /// [`Self::count_answers`] was 3.5 % of MM-1296's perfect search, the row lookup hoisted
    /// out of the loop). Sets of at least [`INTERLEAVE_MIN_SET`] codes are counted for four
    /// queries at once: four independent counters per code hide the latency of adding to the
    /// counter just added to (standalone on MM(4,7): 1.5× less time at 400 codes, 2× at
    /// 2401, none at 41–150).
    fn count_answers_batch(&self, queries: &[QueryId], set: &Vec<CodeId>, counts: &mut [u64]) {
        let (n, a) = (self.codes.len(), self.answer_count());
        let row = |q: QueryId| &self.table[q as usize * n..(q as usize + 1) * n];
        let mut rest = (queries, &mut *counts);
        if set.len() >= INTERLEAVE_MIN_SET {
            let mut fours = queries.chunks_exact(4);
            let mut outs = counts.chunks_exact_mut(4 * a);
            for (q, out) in (&mut fours).zip(&mut outs) {
                let rows = [row(q[0]), row(q[1]), row(q[2]), row(q[3])];
                let (o0, out) = out.split_at_mut(a);
                let (o1, out) = out.split_at_mut(a);
                let (o2, o3) = out.split_at_mut(a);
                for &c in set {
                    let c = c as usize;
                    o0[rows[0][c] as usize] += 1;
                    o1[rows[1][c] as usize] += 1;
                    o2[rows[2][c] as usize] += 1;
                    o3[rows[3][c] as usize] += 1;
                }
            }
            rest = (fours.remainder(), outs.into_remainder());
        }
        for (&q, out) in rest.0.iter().zip(rest.1.chunks_exact_mut(a)) {
            let row = row(q);
            for &c in set {
                out[row[c as usize] as usize] += 1;
            }
        }
    }
    /// The answers of the queries to the set's codes, query by query (answer ids are below
    /// (p + 1)² ≤ 225 for the p ≤ 14 pegs supported), read from the rows of the set's codes
    /// ([`SpeedHooks::answer_rows`]): a node reads its m codes' rows (m·|C| bytes, query ids
    /// ascending) instead of m scattered bytes of every query's row (the whole table once m
    /// passes a row's cache lines), eight codes at a time so that each query's eight answers
    /// are stored together. (Standalone on MM(4,7), all 2401 queries, load ≈ 11: 29× less
    /// time at 8 codes, 15× at 40, 2.1× at 100.)
    fn answer_bytes(&self, queries: &[QueryId], set: &Vec<CodeId>, out: &mut Vec<u8>) -> bool {
        let (n, m) = (self.codes.len(), set.len());
        let start = out.len();
        out.resize(start + queries.len() * m, 0);
        if m == 0 {
            return true;
        }
        let row = |c: CodeId| &self.table[c as usize * n..(c as usize + 1) * n];
        let out = &mut out[start..];
        let mut eights = set.chunks_exact(8);
        for (j, codes) in (&mut eights).enumerate() {
            let rows: [&[u8]; 8] = std::array::from_fn(|k| row(codes[k]));
            for (slot, &q) in out.chunks_exact_mut(m).zip(queries) {
                let answers: [u8; 8] = std::array::from_fn(|k| rows[k][q as usize]);
                slot[8 * j..8 * j + 8].copy_from_slice(&answers);
            }
        }
        let done = m - eights.remainder().len();
        for (j, &c) in eights.remainder().iter().enumerate() {
            let row = row(c);
            for (slot, &q) in out.chunks_exact_mut(m).zip(queries) {
                slot[done + j] = row[q as usize];
            }
        }
        true
    }
    /// Row c of the table holds every query's answer to code c: the table is symmetric
    /// (black and white pegs do not depend on which code is the guess, see [`feedback`]).
    fn answer_rows(&self, set: &Vec<CodeId>) -> Option<Vec<&[u8]>> {
        let n = self.codes.len();
        Some(set.iter().map(|&c| &self.table[c as usize * n..][..n]).collect())
    }
    /// Every query stays admissible and sets only shrink.
    fn narrowing_queries(&self) -> bool {
        true
    }
    /// Colours that no code of the set has are interchangeable in a query: a
    /// peg of such a colour adds to neither black nor white pegs against any
    /// code of the set, so a query answers the set's codes as the query with
    /// all those pegs set to the smallest absent colour a₀ does, which is a
    /// smaller code (codes are numbered by their pegs' base-c value, first peg
    /// first). Queries with an absent colour other than a₀ are dropped: none
    /// is a code of the set (no solving class, as its image), and the image,
    /// or the least query of its orbit when the list holds orbit minima (a
    /// smaller query with the same answers up to a symmetry fixing the set),
    /// stays listed or is dropped in turn for a smaller one. Not for the
    /// variant without repetition, whose images may repeat a₀. Small sets
    /// also drop the queries a transposition fixing them lowers (see
    /// `Mastermind::drop_transposed_queries`).
    fn drop_equivalent_queries(&self, set: &Vec<CodeId>, queries: &mut Vec<QueryId>) {
        if set.len() < SYMMETRY_MIN_SET {
            self.drop_transposed_queries(set, queries);
        }
        let present = set.iter().fold(0u32, |mask, &c| mask | self.colour_masks[c as usize]);
        let absent = !present & ((1u64 << self.colors) - 1) as u32;
        if self.distinct || absent.count_ones() < 2 {
            return;
        }
        let beyond_first = absent & (absent - 1);
        queries.retain(|&q| self.colour_masks[q as usize] & beyond_first == 0);
    }
    /// Answers of a query marked in a 128-bit mask, stopping at the first
    /// repeated one (answers < 128: (p + 1)(p + 2)/2 ≤ 120 for p ≤ 14 pegs).
    fn first_finest_query(&self, queries: &[QueryId], set: &Vec<CodeId>) -> Option<QueryId> {
        let n = self.codes.len();
        queries.iter().copied().find(|&q| {
            let row = &self.table[q as usize * n..(q as usize + 1) * n];
            let mut seen = 0u128;
            set.iter().all(|&c| {
                let bit = 1u128 << (row[c as usize] & 127);
                let fresh = seen & bit == 0;
                seen |= bit;
                fresh
            })
        })
    }
}

impl TiePreference for Mastermind {
    fn is_possible_secret(&self, query: QueryId, set: &Vec<CodeId>) -> bool {
        set.binary_search(&query).is_ok()
    }
    /// Every code is an always admissible query with the code's own id.
    fn possible_secret_queries(&self, _: &(), set: &Vec<CodeId>) -> Vec<QueryId> {
        set.clone()
    }
}

/// No memo keys beyond the code lists themselves.
impl MemoKeys for Mastermind {}

/// The base-`colors` value of a code's pegs.
fn base_value(code: &[u8], colors: usize) -> usize {
    code.iter().fold(0usize, |acc, &c| acc * colors + c as usize)
}

impl crate::search::tree::Replay for Mastermind {
    fn replay_answer(&self, query: QueryId, code: CodeId) -> AnswerId {
        let (g, s) = (&self.codes[query as usize], &self.codes[code as usize]);
        encode(self.pegs, feedback(g, s, self.colors)) as AnswerId
    }
    fn set_of(&self, codes: &[CodeId]) -> Vec<CodeId> {
        codes.to_vec()
    }
    fn codes_of(&self, set: &Vec<CodeId>) -> Vec<CodeId> {
        set.clone()
    }
    fn code_of_query(&self, query: QueryId) -> Option<CodeId> {
        Some(query)
    }
}

impl crate::certificate::Certify for Mastermind {
    fn symmetry_generators(&self) -> Vec<(Vec<CodeId>, Vec<QueryId>)> {
        Mastermind::symmetry_generators(self).into_iter().map(|g| (g.clone(), g)).collect()
    }
    fn stabilizer_words(&self, _: &(), set: &Vec<CodeId>) -> Vec<Vec<u8>> {
        Mastermind::stabilizer_words(self, set)
    }
    fn admissible_below(&self, _: &(), _: QueryId) -> bool {
        true
    }
}

#[cfg(test)]
mod feedback_tests {
    use super::{common_by_counts, common_by_mask, enumerate_codes};

    /// The mask pairing equals the colour counts on every pair of MM(4,6) and MM(3,5) codes.
    #[test]
    fn mask_pairing_equals_colour_counts() {
        for (pegs, colors) in [(4, 6), (3, 5)] {
            let codes = enumerate_codes(pegs, colors, false);
            for g in &codes {
                for s in &codes {
                    assert_eq!(common_by_mask(g, s), common_by_counts(g, s, colors), "{g:?} {s:?}");
                }
            }
        }
    }
}
