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

use crate::search::fasthash::{FastBuild, WordHasher};
use crate::search::problem::{QueryId, SearchProblem};
use crate::search::strategy::batch_class_sizes;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::Hasher;

/// Largest set whose classes are counted from the answers' bytes (where the
/// game gives them and answers fit 64 ids).
const BYTES_MAX_SET: u64 = 40;

thread_local! {
    /// Answer bytes of a small set, kept between calls (taken out while in use:
    /// a call that rayon runs meanwhile on this thread finds it empty).
    static ANSWERS: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
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
    /// First partition of each hash.
    heads: HashMap<u64, usize, FastBuild>,
}

impl Partitions {
    /// The partitions of `queries` on `set` (queries that do not split the set
    /// are left out).
    pub(crate) fn of<P: SearchProblem>(problem: &P, queries: &[QueryId], set: &P::Set) -> Partitions {
        let mut out = Partitions::default();
        let n = problem.set_size(set);
        let mut key: Vec<u64> = Vec::with_capacity(64);
        if n <= BYTES_MAX_SET && problem.answer_count() <= 64 {
            let mut answers = ANSWERS.take();
            answers.clear();
            if problem.answer_bytes(queries, set, &mut answers) {
                for (&q, bytes) in queries.iter().zip(answers.chunks_exact(n as usize)) {
                    let mut counts = [0u8; 64];
                    let mut seen = 0u64;
                    for &answer in bytes {
                        let answer = usize::from(answer & 63);
                        counts[answer] += 1;
                        seen |= 1 << answer;
                    }
                    key.clear();
                    let mut rest = seen;
                    while rest != 0 {
                        key.push(u64::from(counts[rest.trailing_zeros() as usize]));
                        rest &= rest - 1;
                    }
                    out.add(q, &mut key);
                }
                ANSWERS.set(answers);
                return out;
            }
            ANSWERS.set(answers);
        }
        let sizes = batch_class_sizes(problem, queries, set);
        for (i, &q) in queries.iter().enumerate() {
            key.clear();
            key.extend_from_slice(sizes.get(i));
            out.add(q, &mut key);
        }
        out
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
        let mut at = match self.heads.entry(hasher.finish()) {
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
        self.parts.push(key.to_vec());
        self.members.push(vec![query]);
        self.next.push(usize::MAX);
    }
}

#[cfg(test)]
mod tests {
    use super::Partitions;

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
