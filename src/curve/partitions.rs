//! The distinct answer partitions of a node: each admissible query's class
//! sizes as a multiset (sorted largest first), the queries that make each,
//! in the order of their first query. The envelope compares partitions, not
//! queries, so every query of one partition ties with the others for every α.
//!
//! Speed (issue 53): at α = 0 under MIX the walk expands thousands of small
//! nodes, each of which classifies every query (MM-1296: 1296 queries). Small
//! sets are counted from the answers' bytes in a 64-bit mask of answers (as in
//! the perfect search's candidates), not in a zeroed row of `answer_count`
//! counters per query; partitions are told apart by a word hash of the sorted
//! sizes and a comparison, not by a map keyed by freshly allocated vectors.

use super::steps::Domain;
use crate::renyi::alpha::Alpha;
use crate::search::capabilities::tally_answer_bytes;
use crate::search::fasthash::{FastBuild, WordHasher};
use crate::search::problem::{QueryId, SearchProblem};
use crate::search::strategy::batch_class_sizes;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::Hasher;

/// Largest set whose classes are counted from the answers' bytes (where the
/// game gives them and answers fit 64 ids).
const BYTES_MAX_SET: u64 = 40;
// The packed multisets of [`Partitions::add_small`] hold class sizes up to 40.
const _: () = assert!(BYTES_MAX_SET <= 40);

thread_local! {
    /// Answer bytes of a small set, kept between calls (taken out while in use:
    /// a call that rayon runs meanwhile on this thread finds it empty).
    static ANSWERS: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    /// [`Partitions`]' maps, emptied and kept between calls (taken out while in
    /// use, as `ANSWERS`): a map grown afresh at every node was 9 % of the
    /// MM-1296 MIX curve in its inserts and as much again in zeroed allocations.
    static MAPS: std::cell::Cell<Maps> = std::cell::Cell::new(Maps::default());
    /// Emptied vectors of finished nodes' partitions ([`recycle`]), refilled
    /// by [`Partitions::push`] (taken out while in use, as `ANSWERS`): two
    /// allocations per distinct partition were about 2 % of a 6c6p curve unit.
    static SPARE: std::cell::Cell<Spare> = std::cell::Cell::new(Spare::default());
}

/// Spare vectors kept per thread, at most this many of each kind.
const SPARE_MAX: usize = 1024;
/// Largest capacity of a spare vector kept.
const SPARE_LEN: usize = 256;

/// Empty vectors for [`Partitions::push`] to fill.
#[derive(Default)]
struct Spare {
    parts: Vec<Vec<u64>>,
    members: Vec<Vec<QueryId>>,
}

/// Hands a node's partitions and members back for the next node's
/// [`Partitions::of`] on this thread, emptied (a bounded number of them).
pub(crate) fn recycle(parts: Vec<Vec<u64>>, members: Vec<Vec<QueryId>>) {
    let mut spare = SPARE.take();
    fn keep<T>(into: &mut Vec<Vec<T>>, from: Vec<Vec<T>>) {
        for mut v in from.into_iter().filter(|v| v.capacity() <= SPARE_LEN) {
            if into.len() == SPARE_MAX {
                return;
            }
            v.clear();
            into.push(v);
        }
    }
    keep(&mut spare.parts, parts);
    keep(&mut spare.members, members);
    SPARE.set(spare);
}

/// The maps that tell a node's partitions apart while they are collected.
#[derive(Default)]
struct Maps {
    /// First partition of each hash.
    heads: HashMap<u64, usize, FastBuild>,
    /// Small sets: the partition of each packed multiset of class sizes ([`Partitions::add_small`]).
    small: HashMap<[u64; 4], usize, FastBuild>,
}

/// A node's distinct partitions and the queries making each.
#[derive(Default)]
pub(crate) struct Partitions {
    /// Distinct multisets of class sizes (largest first), in order of their first query.
    pub parts: Vec<Vec<u64>>,
    /// The queries making each partition, in the order given.
    pub members: Vec<Vec<QueryId>>,
    /// Per partition, the next one with the same hash (`usize::MAX`: none).
    next: Vec<usize>,
    maps: Maps,
    spare: Spare,
}

/// One query's classes as [`visit_sizes`] hands them over.
enum Sizes<'a> {
    /// A small set's counts by answer id and the mask of the answers given.
    Small(&'a [u8; 64], u64),
    /// The class sizes, in any order (the callee may reorder them).
    Listed(&'a mut [u64]),
}

/// Hands each query's classes on `set` to `visit`, in the order of `queries`:
/// sets of up to [`BYTES_MAX_SET`] codes counted from the answers' bytes where
/// the game gives them and answers fit 64 ids, others by the game's batch count.
fn visit_sizes<P: SearchProblem>(
    problem: &P,
    queries: &[QueryId],
    set: &P::Set,
    mut visit: impl FnMut(QueryId, Sizes),
) {
    let n = problem.set_size(set);
    if n <= BYTES_MAX_SET && problem.answer_count() <= 64 {
        let mut answers = ANSWERS.take();
        answers.clear();
        if problem.answer_bytes(queries, set, &mut answers) {
            for (&q, bytes) in queries.iter().zip(answers.chunks_exact(n as usize)) {
                let (counts, seen) = tally_answer_bytes(bytes);
                visit(q, Sizes::Small(&counts, seen));
            }
            ANSWERS.set(answers);
            return;
        }
        ANSWERS.set(answers);
    }
    let sizes = batch_class_sizes(problem, queries, set);
    let mut key: Vec<u64> = Vec::with_capacity(64);
    for (i, &q) in queries.iter().enumerate() {
        key.clear();
        key.extend_from_slice(sizes.get(i));
        visit(q, Sizes::Listed(&mut key));
    }
}

/// The end of the α-axis a point domain lies at, where H_α ties whole shapes of partitions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Extreme {
    /// α = 0: H_0 = log of the number of classes (more is better).
    Zero,
    /// α = ∞: H_∞ = −log of the largest class's share (smaller is better).
    Infinity,
}

impl Extreme {
    /// The extreme a domain is, if it is the single point α = 0 or α = ∞.
    pub(crate) fn of_point(domain: &Domain) -> Option<Extreme> {
        match domain.lo.alpha() {
            _ if !domain.is_point() => None,
            Some(Alpha::Finite { num: 0, .. }) => Some(Extreme::Zero),
            Some(Alpha::Infinity) => Some(Extreme::Infinity),
            _ => None,
        }
    }
}

/// The queries whose partitions are maximal at α = 0 or ∞ (among those that
/// split the set), ascending, and whether they split it into singletons;
/// none if no query splits the set. The same queries as the envelope's best
/// partitions at that point ([`super::envelope::best_at_exact`]: at 0 the
/// class count decides, at ∞ the largest class), found from two numbers per
/// query without telling the partitions apart.
pub(crate) fn extreme_ties<P: SearchProblem>(
    problem: &P,
    queries: &[QueryId],
    set: &P::Set,
    extreme: Extreme,
) -> (Vec<QueryId>, bool) {
    let mut best: Option<(u64, u64)> = None;
    let mut ties: Vec<QueryId> = Vec::new();
    let mut consider = |q: QueryId, classes: u64, largest: u64| {
        if classes < 2 {
            return;
        }
        let score = match extreme {
            Extreme::Zero => classes,
            Extreme::Infinity => u64::MAX - largest,
        };
        match best.map(|(b, _)| score.cmp(&b)) {
            Some(std::cmp::Ordering::Less) => {}
            Some(std::cmp::Ordering::Equal) => ties.push(q),
            _ => {
                best = Some((score, classes));
                ties.clear();
                ties.push(q);
            }
        }
    };
    visit_sizes(problem, queries, set, |q, sizes| match sizes {
        Sizes::Small(counts, seen) => {
            let mut largest = 0;
            let mut rest = seen;
            while rest != 0 {
                largest = largest.max(u64::from(counts[rest.trailing_zeros() as usize]));
                rest &= rest - 1;
            }
            consider(q, u64::from(seen.count_ones()), largest);
        }
        Sizes::Listed(key) => consider(q, key.len() as u64, key.iter().copied().max().unwrap_or(0)),
    });
    ties.sort_unstable();
    let finest = best.is_some_and(|(_, classes)| classes == problem.set_size(set));
    (ties, finest)
}

impl Partitions {
    /// The partitions of `queries` on `set` (queries that do not split the set
    /// are left out).
    pub(crate) fn of<P: SearchProblem>(problem: &P, queries: &[QueryId], set: &P::Set) -> Partitions {
        let mut out = Partitions { maps: MAPS.take(), spare: SPARE.take(), ..Partitions::default() };
        // Sizes listed by the game for a small set are told apart by their
        // packed multiset too (no sort, no hash of a sorted copy per query).
        let small = problem.set_size(set) <= BYTES_MAX_SET;
        visit_sizes(problem, queries, set, |q, sizes| match sizes {
            Sizes::Small(counts, seen) => out.add_small(q, counts, seen),
            Sizes::Listed(key) if small => out.add_listed_small(q, key),
            Sizes::Listed(key) => out.add(q, key),
        });
        let mut maps = std::mem::take(&mut out.maps);
        maps.heads.clear();
        maps.small.clear();
        MAPS.set(maps);
        SPARE.set(std::mem::take(&mut out.spare));
        out
    }

    /// [`Self::add`] for a set of at most [`BYTES_MAX_SET`] codes, its classes
    /// given as counts by answer and the mask of answers given: told apart by
    /// the exact multiset of class sizes packed in four words (6 bits per
    /// size 1..=40 count how many classes have it; a set of ≤ 40 codes has at
    /// most 40 classes of one size), sorted only when the partition is new.
    fn add_small(&mut self, query: QueryId, counts: &[u8; 64], seen: u64) {
        if seen.count_ones() < 2 {
            return;
        }
        let mut packed = [0u64; 4];
        let mut rest = seen;
        while rest != 0 {
            let size = usize::from(counts[rest.trailing_zeros() as usize]) - 1;
            packed[size / 10] += 1 << (6 * (size % 10));
            rest &= rest - 1;
        }
        match self.maps.small.entry(packed) {
            Entry::Occupied(e) => self.members[*e.get()].push(query),
            Entry::Vacant(e) => {
                e.insert(self.parts.len());
                let mut key: Vec<u64> = Vec::with_capacity(seen.count_ones() as usize);
                let mut rest = seen;
                while rest != 0 {
                    key.push(u64::from(counts[rest.trailing_zeros() as usize]));
                    rest &= rest - 1;
                }
                key.sort_unstable_by(|a, b| b.cmp(a));
                self.push(query, &key);
            }
        }
    }

    /// [`Self::add_small`] for class sizes listed in any order (a set of at
    /// most [`BYTES_MAX_SET`] codes): the same packed multiset, the same
    /// partitions in the same order as [`Self::add`] would file.
    fn add_listed_small(&mut self, query: QueryId, key: &mut [u64]) {
        if key.len() < 2 {
            return;
        }
        let mut packed = [0u64; 4];
        for &c in key.iter() {
            let size = c as usize - 1;
            packed[size / 10] += 1 << (6 * (size % 10));
        }
        match self.maps.small.entry(packed) {
            Entry::Occupied(e) => self.members[*e.get()].push(query),
            Entry::Vacant(e) => {
                e.insert(self.parts.len());
                key.sort_unstable_by(|a, b| b.cmp(a));
                self.push(query, key);
            }
        }
    }

    /// Files `query` with class sizes `key` (any order; sorted here) under its
    /// partition, if it splits the set (two classes or more).
    fn add(&mut self, query: QueryId, key: &mut [u64]) {
        if key.len() < 2 {
            return;
        }
        key.sort_unstable_by(|a, b| b.cmp(a));
        let mut hasher = WordHasher::default();
        key.iter().for_each(|&c| hasher.write_u64(c));
        let new = self.parts.len();
        let mut at = match self.maps.heads.entry(hasher.finish()) {
            Entry::Vacant(e) => {
                e.insert(new);
                return self.push(query, key);
            }
            Entry::Occupied(e) => *e.get(),
        };
        loop {
            if self.parts[at] == key {
                return self.members[at].push(query);
            }
            if self.next[at] == usize::MAX {
                self.next[at] = new;
                return self.push(query, key);
            }
            at = self.next[at];
        }
    }

    /// A new partition, made by `query`.
    fn push(&mut self, query: QueryId, key: &[u64]) {
        let (mut part, mut members) =
            (self.spare.parts.pop().unwrap_or_default(), self.spare.members.pop().unwrap_or_default());
        part.extend_from_slice(key);
        members.push(query);
        self.parts.push(part);
        self.members.push(members);
        self.next.push(usize::MAX);
    }
}

#[cfg(test)]
mod tests {
    use super::{Extreme, Partitions, extreme_ties};
    use crate::curve::envelope::best_at_exact;
    use crate::games::mastermind::Mastermind;
    use crate::renyi::alpha::Alpha;
    use crate::search::problem::Rules;

    /// At α = 0 and ∞ the ties from two numbers per query are the queries of
    /// the envelope's exactly best partitions, on sets counted from bytes (≤ 40
    /// codes) and by the batch count alike: every class of two MM(3,4) queries.
    #[test]
    fn extreme_ties_are_the_best_partitions_queries() {
        let mm = Mastermind::new(3, 4, false).unwrap();
        let queries: Vec<u32> = (0..mm.query_count() as u32).collect();
        let mut sets = vec![mm.full_set()];
        for q in [1, 6] {
            sets.extend(mm.split(q, &mm.full_set()).into_iter().map(|(_, s)| s));
        }
        assert!(sets.iter().any(|s| s.len() > 40) && sets.iter().any(|s| (3..=40).contains(&s.len())));
        let mut finest_seen = false;
        for set in &sets {
            let parts = Partitions::of(&mm, &queries, set);
            for (extreme, alpha) in [(Extreme::Zero, Alpha::integer(0)), (Extreme::Infinity, Alpha::Infinity)] {
                let (ties, finest) = extreme_ties(&mm, &queries, set, extreme);
                let best = if parts.parts.is_empty() { Vec::new() } else { best_at_exact(&parts.parts, alpha) };
                let mut want: Vec<u32> = best.iter().flat_map(|&b| parts.members[b].iter().copied()).collect();
                want.sort_unstable();
                assert_eq!(ties, want, "{extreme:?} on a set of {}", set.len());
                let finest_want = best.first().is_some_and(|&b| parts.parts[b].len() == set.len());
                assert_eq!(finest, finest_want);
                finest_seen |= finest;
            }
        }
        assert!(finest_seen);
    }

    /// Small sets' listed sizes filed by their packed multiset give the same
    /// partitions and members, in the same order, as the sorted, hashed path.
    #[test]
    fn packed_filing_of_listed_sizes_matches_the_sorted_one() {
        let lists: [&[u64]; 8] =
            [&[1, 3, 2], &[6], &[2, 2, 2], &[3, 1, 2], &[11, 1, 28], &[28, 11, 1], &[1, 1, 38], &[2, 1, 3]];
        let (mut packed, mut sorted) = (Partitions::default(), Partitions::default());
        for (q, list) in lists.iter().enumerate() {
            packed.add_listed_small(q as u32, &mut list.to_vec());
            sorted.add(q as u32, &mut list.to_vec());
        }
        assert_eq!(packed.parts, sorted.parts);
        assert_eq!(packed.members, sorted.members);
        assert_eq!(packed.members, vec![vec![0, 3, 7], vec![2], vec![4, 5], vec![6]]);
    }

    #[test]
    fn equal_multisets_share_a_partition_in_first_query_order() {
        let mut p = Partitions::default();
        p.add(7, &mut [1, 3, 2]);
        p.add(8, &mut [6]);
        p.add(9, &mut [2, 2, 2]);
        p.add(10, &mut [3, 1, 2]);
        p.add(11, &mut [2, 1, 3]);
        assert_eq!(p.parts, vec![vec![3, 2, 1], vec![2, 2, 2]]);
        assert_eq!(p.members, vec![vec![7, 10, 11], vec![9]]);
    }
}
