//! Root searches remembered across the nodes of a walk. A root search of a
//! pair's F ([`PairFunction::first_root`](super::crossing::PairFunction::first_root))
//! depends on nothing but D's integer terms (base, weight) — from which F,
//! its derivatives, its bounds and its exact ties at 0 and 1 all follow — and
//! on the search's ends and mode; partitions that differ by classes they
//! share have the same D, and sibling nodes of a symmetric game meet the same
//! pairs on the same sub-domains again and again. A remembered answer is the
//! answer the search would give (the same enclosure, bit for bit), so curves
//! do not change; the map is cleared when it reaches [`CAPACITY`] entries.

use super::crossing::{RootFound, SearchEnd};
use crate::search::fasthash::{FastBuild, WordHasher};
use dashmap::DashMap;
use std::hash::Hasher;
use std::sync::LazyLock;

/// Entries held before the map is cleared (each a few hundred bytes).
const CAPACITY: usize = 1 << 17;

/// (a word hash of D's terms, the ends' and known zeros' bits, refine): looked
/// up without copying the terms (speed, issue 53); the entry holds the terms,
/// compared in full, so a hash shared by two D's never answers for the other.
type Key = (u64, [u64; 8], bool);

/// D's terms and the search's answer.
type Entry = (Box<[(u64, i64)]>, Option<RootFound>);

static ROOTS: LazyLock<DashMap<Key, Entry, FastBuild>> = LazyLock::new(DashMap::default);

/// The bits of a search end: x, and the known zero's enclosure and order (or all ones).
fn end_bits(end: SearchEnd) -> [u64; 4] {
    match end.zero {
        Some(z) => [end.x.to_bits(), z.at.lo.to_bits(), z.at.hi.to_bits(), u64::from(z.order)],
        None => [end.x.to_bits(), u64::MAX, u64::MAX, u64::MAX],
    }
}

/// The search's answer: remembered, or `search()` (then remembered).
pub(super) fn remembered(
    terms: &[(u64, i64)],
    from: SearchEnd,
    to: SearchEnd,
    refine: bool,
    search: impl FnOnce() -> Option<RootFound>,
) -> Option<RootFound> {
    let (f, t) = (end_bits(from), end_bits(to));
    let mut hasher = WordHasher::default();
    hasher.write_usize(terms.len());
    for &(b, w) in terms {
        hasher.write_u64(b);
        hasher.write_u64(w as u64);
    }
    let key: Key = (hasher.finish(), [f[0], f[1], f[2], f[3], t[0], t[1], t[2], t[3]], refine);
    if let Some(entry) = ROOTS.get(&key)
        && *entry.0 == *terms
    {
        return entry.1;
    }
    let found = search();
    if ROOTS.len() >= CAPACITY {
        ROOTS.clear();
    }
    ROOTS.insert(key, (terms.into(), found));
    found
}
