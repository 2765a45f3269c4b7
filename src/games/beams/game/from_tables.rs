//! Sets of [`Beams`] codes below the root made or counted from the game's
//! tables alone, without the set of all codes (406 MB for 6c6p) or any set
//! above them: a unit's set rebuilt from its trail ([`Beams::full_filtered`]),
//! the answer counts of the set of all codes ([`Beams::full_set_counts`]) and
//! of a stand-in for a class below the root ([`CodeSet::counted`]; one query
//! below it counted from two tables made in one pass over the hit table,
//! [`Beams::stand_in`], more by a pass over the patterns'
//! rows, [`Beams::stand_in_counts`]): a shard's first decisions (issue 53 item 3).

use super::super::codeset::{Bits, CodeSet};
use super::Beams;
use crate::search::problem::Rules;
use crate::search::{AnswerId, QueryId, SpeedHooks};
use rayon::prelude::*;

/// Patterns per stretch of the passes over the pattern table.
const CHUNK: u32 = 1 << 14;
/// Patterns per stretch of a stand-in's counting ([`Beams::trail_counts`]).
const STRETCH: u32 = 1 << 17;

/// A trail's steps as (colour, diagonal, answer).
type Steps = Vec<(usize, usize, AnswerId)>;

/// Stand-ins of one step whose tables [`Beams::stand_in`] keeps (a shard
/// lists a few nodes one query below the root; the oldest is dropped first).
const KEPT_STAND_INS: usize = 8;

/// What the answer counts of every query on a class one query below the
/// root, (c0, d0) answered a0, are made from: over the patterns t, J(t) the
/// pieces whose hit on d0 is a0, `[d·A + b]` (A answers) `own` the number of
/// pieces of J(t) and `every` |J(t)| times the number of all pieces that hit
/// b cells of d, summed. Made in one pass over the hit table
/// ([`Beams::one_step_tables`]) when the stand-in is made, and kept.
#[derive(Debug)]
pub(super) struct StandInTables {
    step: (QueryId, AnswerId),
    own: Vec<u64>,
    every: Vec<u64>,
    /// The colourings with σ(c0) = j0, and with also σ(c) = j (c ≠ c0, j ≠ j0):
    /// (k−1)! and (k−2)!, read from the colouring table once ([`Beams::colouring_numbers`]).
    one: u64,
    two: u64,
}

impl Beams {
    /// The trail's steps decoded.
    fn steps_of(&self, trail: &[(QueryId, AnswerId)]) -> Steps {
        trail.iter().map(|&(q, a)| (self.decode_query(q), a)).map(|((c, d), a)| (c, d, a)).collect()
    }

    /// Writes pattern t's row of the codes that follow `steps` into `row`
    /// (`step`: scratch): for every step, the colourings whose colour-c piece
    /// hits exactly `answer` cells of diagonal d, ANDed. Whether it is non-zero.
    fn trail_row(&self, t: u32, steps: &Steps, row: &mut [u64], step: &mut [u64]) -> bool {
        row.fill(!0);
        let pieces = self.patterns.pattern(t as usize);
        for &(c, d, answer) in steps {
            step.fill(0);
            // The answers of the hit table ([`super::hit_table`]), made from the pieces: a
            // unit's rebuild reads no hit table, so a unit run never makes the whole one.
            let mask = self.board.diagonals[d];
            let hits = |piece: u64| AnswerId::from(super::gather_bits(piece, mask) as u8);
            for (j, _) in pieces.iter().enumerate().filter(|(_, p)| hits(**p) == answer) {
                step.iter_mut().zip(self.colourings_of(c, j)).for_each(|(s, m)| *s |= m);
            }
            row.iter_mut().zip(step.iter()).for_each(|(r, s)| *r &= s);
            if row.iter().all(|&x| x == 0) {
                return false;
            }
        }
        true
    }

    /// The codes of the full set that give each `(query, answer)` of `trail`,
    /// made from the tables without the full set or any set between
    /// ([`Self::trail_row`] per pattern). The rows are found first (in
    /// parallel), so the set is allocated once at its size (`None`: no code).
    pub(super) fn full_filtered(&self, trail: &[(QueryId, AnswerId)]) -> Option<CodeSet> {
        let w = self.words;
        let steps = self.steps_of(trail);
        let n = self.patterns.count() as u32;
        let parts: Vec<Vec<u32>> = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|b| {
                let (mut row, mut step) = (vec![0u64; w], vec![0u64; w]);
                (b * CHUNK..n.min((b + 1) * CHUNK))
                    .filter(|&t| self.trail_row(t, &steps, &mut row, &mut step))
                    .collect()
            })
            .collect();
        let patterns = parts.concat();
        drop(parts);
        let mut raw: Vec<u64> = vec![0; patterns.len() * w];
        raw.par_chunks_mut(CHUNK as usize * w).zip(patterns.par_chunks(CHUNK as usize)).for_each(|(rows, ts)| {
            let mut step = vec![0u64; w];
            for (row, &t) in rows.chunks_exact_mut(w).zip(ts) {
                self.trail_row(t, &steps, row, &mut step);
            }
        });
        let size = raw.iter().map(|x| u64::from(x.count_ones())).sum();
        let bits = Bits::from_vec(raw);
        (size > 0 && !steps.is_empty()).then_some(CodeSet { patterns, bits, size })
    }

    /// A stand-in for the `size` codes that follow `trail` ([`CodeSet::counted`]);
    /// for one step (a class one query below the root), the tables its counts
    /// are read from ([`StandInTables`]) made now and kept, so that every count
    /// of it (a node's decision counts its queries in parts, one per thread,
    /// and its chosen query again) reads them instead of passing over the
    /// patterns again.
    pub(super) fn stand_in(&self, trail: &[(QueryId, AnswerId)], size: u64) -> CodeSet {
        if let &[step] = trail {
            self.kept_tables(step);
        }
        CodeSet::counted(trail, size)
    }

    /// The tables of the class of `step` ([`StandInTables`]): kept, or made
    /// and kept.
    fn kept_tables(&self, step: (QueryId, AnswerId)) -> std::sync::Arc<StandInTables> {
        let find = |kept: &[std::sync::Arc<StandInTables>]| kept.iter().find(|s| s.step == step).cloned();
        if let Some(found) = find(&self.stand_ins.lock().unwrap_or_else(|e| e.into_inner())) {
            return found;
        }
        let made = std::sync::Arc::new(self.one_step_tables(step));
        let mut kept = self.stand_ins.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(found) = find(&kept) {
            return found;
        }
        if kept.len() >= KEPT_STAND_INS {
            kept.remove(0);
        }
        kept.push(made.clone());
        made
    }

    /// [`StandInTables`] of the class of (c0, d0) answered a0: one pass over the
    /// hit table, a stretch of patterns per thread.
    fn one_step_tables(&self, (query, answer): (QueryId, AnswerId)) -> StandInTables {
        let (k, nd, answers) = (self.variant.colours, self.board.diagonals.len(), self.answer_count());
        let (_, d0) = self.decode_query(query);
        let n = self.patterns.count();
        let stretch = n.div_ceil(rayon::current_num_threads().max(1)).max(1);
        let count = |from: usize| {
            let (mut own, mut every) = (vec![0u64; nd * answers], vec![0u64; nd * answers]);
            for row in self.hits()[from * nd * k..(from + stretch).min(n) * nd * k].chunks_exact(nd * k) {
                let line = &row[d0 * k..(d0 + 1) * k];
                let mine: u32 = (0..k).filter(|&j| AnswerId::from(line[j]) == answer).map(|j| 1 << j).sum();
                if mine == 0 {
                    continue;
                }
                let m = u64::from(mine.count_ones());
                for (line, counts) in row.chunks_exact(k).zip(every.chunks_exact_mut(answers)) {
                    line.iter().for_each(|&b| counts[usize::from(b)] += m);
                }
                for j in (0..k).filter(|&j| mine >> j & 1 == 1) {
                    for (line, counts) in row.chunks_exact(k).zip(own.chunks_exact_mut(answers)) {
                        counts[usize::from(line[j])] += 1;
                    }
                }
            }
            (own, every)
        };
        let add = |mut a: (Vec<u64>, Vec<u64>), b: (Vec<u64>, Vec<u64>)| {
            a.0.iter_mut().zip(b.0).for_each(|(x, y)| *x += y);
            a.1.iter_mut().zip(b.1).for_each(|(x, y)| *x += y);
            a
        };
        let parts: Vec<usize> = (0..n).step_by(stretch).collect();
        let zero = || (vec![0u64; nd * answers], vec![0u64; nd * answers]);
        let (own, every) = parts.into_par_iter().map(count).reduce(zero, add);
        let (one, two) = self.colouring_numbers(query);
        StandInTables { step: (query, answer), own, every, one, two }
    }

    /// The numbers of colourings with σ(c0) = j0 (`one`) and with also σ(c) = j
    /// for c ≠ c0, j ≠ j0 (`two`; none for j = j0), c0 the colour of `query`,
    /// read from the colouring table and checked to be the same for every
    /// colour and piece.
    fn colouring_numbers(&self, query: QueryId) -> (u64, u64) {
        let k = self.variant.colours;
        let (c0, _) = self.decode_query(query);
        let both = |c: usize, i: usize, j: usize| -> u64 {
            self.colourings_of(c0, i)
                .iter()
                .zip(self.colourings_of(c, j))
                .map(|(x, y)| u64::from((x & y).count_ones()))
                .sum()
        };
        let one = both(c0, 0, 0);
        let two = if k > 1 { both((c0 + 1) % k, 0, 1) } else { 0 };
        for c in 0..k {
            for (i, j) in (0..k).flat_map(|i| (0..k).map(move |j| (i, j))) {
                let expected = match (c == c0, i == j) {
                    (true, true) => one,
                    (false, false) => two,
                    _ => 0,
                };
                assert_eq!(both(c, i, j), expected, "the colourings are not every permutation of the colours");
            }
        }
        (one, two)
    }

    /// The answer counts of `decoded` queries on the class of `tables.step`
    /// ([`StandInTables`]), of `size` codes. A code is a pattern t and a
    /// colouring σ (a permutation: colour c on piece σ(c)); it is in the class
    /// iff σ(c0) ∈ J(t), and answers b to (c, d) iff piece σ(c) hits b cells of d.
    /// The colourings with σ(c0) = j0 number `one` ((k−1)!), those with also
    /// σ(c) = j for c ≠ c0, j ≠ j0 number `two` ((k−2)!; none for j = j0), so
    /// (c0, d) gives b to `one`·own[d][b] codes and (c, d) to
    /// `two`·(every[d][b] − own[d][b]) (both kept with the tables).
    fn one_step_counts(&self, tables: &StandInTables, decoded: &[(usize, usize)], size: u64, counts: &mut [u64]) {
        let answers = self.answer_count();
        let (c0, _) = self.decode_query(tables.step.0);
        let (one, two) = (tables.one, tables.two);
        for (&(c, d), out) in decoded.iter().zip(counts.chunks_exact_mut(answers)) {
            let (own, every) = (&tables.own[d * answers..][..answers], &tables.every[d * answers..][..answers]);
            for (b, o) in out.iter_mut().enumerate() {
                *o = if c == c0 { one * own[b] } else { two * (every[b] - own[b]) };
            }
            assert_eq!(out.iter().sum::<u64>(), size, "a stand-in's step does not give its size");
        }
    }

    /// Whether `set` is the set of all codes, or the stand-in for it (a set
    /// holds only codes, so its size decides); never in a narrowed game
    /// ([`Beams::narrowed_to`]), whose sets are walked as any other.
    pub(super) fn holds_every_code(&self, set: &CodeSet) -> bool {
        !self.narrowed && set.size == (self.patterns.count() * self.colourings.len()) as u64
    }

    /// The answer counts of `queries` (`decoded`) on `set` (flattened,
    /// `answer_count` per query) if it is the set of all codes or a stand-in
    /// ([`CodeSet::counted`]), without a pass over its rows (`false`: a set
    /// of codes other than the full one; the caller counts its rows): a
    /// stand-in of one step from its tables, kept since it was made
    /// ([`Self::stand_in`]), one of more steps by a pass over the patterns.
    pub(super) fn stand_in_counts(
        &self,
        (queries, decoded): (&[QueryId], &[(usize, usize)]),
        set: &CodeSet,
        counts: &mut [u64],
    ) -> bool {
        if self.full_set_counts(decoded, set, counts) {
            return true;
        }
        match set.counted_trail().as_deref() {
            None => return false,
            Some(&[step]) => self.one_step_counts(&self.kept_tables(step), decoded, set.size, counts),
            Some(trail) => self.trail_counts(queries, &self.steps_of(trail), set.size, counts),
        }
        true
    }

    /// The answer counts of `queries` on the `size` codes of the full set that
    /// follow `steps`, a stretch of patterns at a time: each stretch's rows
    /// made by [`Self::trail_row`] into a set of its own (one per thread,
    /// reused), counted as a set of codes is ([`Rules::count_answers`],
    /// [`SpeedHooks::count_answers_batch`]), so at most one stretch per thread
    /// is held (6c6p: 12 MB, not the 940 M-code class's rows). The counts must
    /// add up to `size`. Used for trails of more than one step (a stand-in of one
    /// step is counted from its tables, [`Self::one_step_counts`]).
    fn trail_counts(&self, queries: &[QueryId], steps: &Steps, size: u64, counts: &mut [u64]) {
        let (w, answers) = (self.words, self.answer_count());
        let n = self.patterns.count() as u32;
        let scratch = || (vec![0u64; w], vec![0u64; w], CodeSet::empty());
        let stretch = |(row, step, part): &mut (Vec<u64>, Vec<u64>, CodeSet), b: u32| {
            part.clear();
            for t in b * STRETCH..n.min((b + 1) * STRETCH) {
                if self.trail_row(t, steps, row, step) {
                    part.push_row(t, row);
                }
            }
            let mut out = vec![0u64; queries.len() * answers];
            match queries {
                _ if part.size == 0 => {}
                &[q] => self.count_answers(q, part, &mut out),
                _ => self.count_answers_batch(queries, part, &mut out),
            }
            out
        };
        let add = |mut a: Vec<u64>, b: Vec<u64>| {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
            a
        };
        let stretches = n.div_ceil(STRETCH);
        let total = (0..stretches).into_par_iter().map_init(scratch, stretch).reduce(|| vec![0; counts.len()], add);
        counts.copy_from_slice(&total);
        for query in total.chunks_exact(answers) {
            assert_eq!(query.iter().sum::<u64>(), size, "a stand-in's trail does not give its size");
        }
    }

    /// The answer counts of `decoded` queries on `set` (flattened, `answer_count`
    /// per query) if `set` holds every code, from the hit table alone (`false`:
    /// not the full set). Every row of the full set is every colouring, so
    /// query (c, d) gives answer a to Σ_j |colourings_of(c, j)| · #{t : piece j
    /// of pattern t hits a cells of d} codes: the sum of [`Self::compact_counts`]'
    /// row pass taken pattern by pattern first, without reading the set (6c6p:
    /// the root of every walk, and a shard's first step). The pattern counts
    /// are made once for every diagonal ([`Self::line_hits`]).
    pub(super) fn full_set_counts(&self, decoded: &[(usize, usize)], set: &CodeSet, counts: &mut [u64]) -> bool {
        if !self.holds_every_code(set) {
            return false;
        }
        let (k, answers) = (self.variant.colours, self.answer_count());
        let line_hits = self.line_hits();
        for (&(c, d), out) in decoded.iter().zip(counts.chunks_exact_mut(answers)) {
            out.iter_mut().for_each(|x| *x = 0);
            for j in 0..k {
                let colourings: u64 = self.colourings_of(c, j).iter().map(|x| u64::from(x.count_ones())).sum();
                let n = &line_hits[(d * k + j) * answers..(d * k + j + 1) * answers];
                out.iter_mut().zip(n).for_each(|(o, &t)| *o += colourings * t);
            }
        }
        true
    }

    /// `[(d·k + j)·A + a]`: how many patterns' piece j hits answer a on
    /// diagonal d (A answers), for every diagonal: one pass over the hit
    /// table, split into one stretch of patterns per thread, made on first use.
    fn line_hits(&self) -> &[u64] {
        self.line_hits.get_or_init(|| {
            let (k, nd, answers) = (self.variant.colours, self.board.diagonals.len(), self.answer_count());
            let t = self.patterns.count();
            let stretch = t.div_ceil(rayon::current_num_threads().max(1)).max(1);
            let count = |from: usize| {
                let mut n = vec![0u32; nd * k * answers];
                for row in self.hits()[from * nd * k..(from + stretch).min(t) * nd * k].chunks_exact(nd * k) {
                    for (i, &a) in row.iter().enumerate() {
                        n[i * answers + usize::from(a)] += 1;
                    }
                }
                n
            };
            let parts: Vec<Vec<u32>> = (0..t).step_by(stretch).collect::<Vec<_>>().into_par_iter().map(count).collect();
            let mut total = vec![0u64; nd * k * answers];
            for part in parts {
                total.iter_mut().zip(part).for_each(|(s, x)| *s += u64::from(x));
            }
            total
        })
    }
}
