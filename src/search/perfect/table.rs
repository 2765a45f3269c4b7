//! The transposition table of the perfect search: what is known about a
//! node (state, set, queries left), keyed by the node itself or by a 128-bit
//! fingerprint of it.
//!
//! Exact keys hold the whole code set (Bulls and Cows 4 of 9: 1.05 GB of
//! table for 14 914 as the total). A fingerprint entry is 16 bytes of key
//! whatever the set, but two nodes with one fingerprint would share an
//! entry, so a result found with fingerprints is only as good as its
//! certificate: the CLI accepts `--fingerprint-table` together with
//! `--certificate` only, and the certificate checker keeps no table.

use super::super::fasthash::FastBuild;
use super::QueryId;
use dashmap::DashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

/// What the table knows about a node.
#[derive(Clone, Copy, Debug)]
pub(super) enum Known {
    Exact { total: u64, query: Option<QueryId> },
    AtLeast(u64),
}

impl Known {
    /// The entry after learning `new` about a node known as `self`: an
    /// exact total replaces a bound, bounds keep the larger.
    fn merged(self, new: Known) -> Known {
        match (self, new) {
            (Known::AtLeast(old), Known::AtLeast(new)) => Known::AtLeast(old.max(new)),
            (_, Known::Exact { .. }) => new,
            (old, Known::AtLeast(_)) => old,
        }
    }
}

/// How the table keys its nodes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableKeys {
    /// The node itself (exact).
    #[default]
    Exact,
    /// A 128-bit fingerprint of the node (SipHash-1-3 twice, with different
    /// prefixes): less memory, exact only up to a fingerprint collision.
    Fingerprint,
}

pub(super) struct Table<K> {
    keys: TableKeys,
    exact: DashMap<K, Known, FastBuild>,
    prints: DashMap<u128, Known, FastBuild>,
}

impl<K: Hash + Eq> Table<K> {
    pub(super) fn new(keys: TableKeys) -> Table<K> {
        Table { keys, exact: DashMap::default(), prints: DashMap::default() }
    }

    pub(super) fn get(&self, key: &K) -> Option<Known> {
        match self.keys {
            TableKeys::Exact => self.exact.get(key).map(|k| *k),
            TableKeys::Fingerprint => self.prints.get(&fingerprint(key)).map(|k| *k),
        }
    }

    /// Records `entry`, merged with what is known ([`Known::merged`]).
    pub(super) fn learn(&self, key: K, entry: Known) {
        match self.keys {
            TableKeys::Exact => {
                self.exact.entry(key).and_modify(|k| *k = k.merged(entry)).or_insert(entry);
            }
            TableKeys::Fingerprint => {
                self.prints.entry(fingerprint(&key)).and_modify(|k| *k = k.merged(entry)).or_insert(entry);
            }
        }
    }

    pub(super) fn keys(&self) -> TableKeys {
        self.keys
    }
}

fn fingerprint<K: Hash>(key: &K) -> u128 {
    let half = |prefix: u8| {
        let mut h = DefaultHasher::new();
        prefix.hash(&mut h);
        key.hash(&mut h);
        h.finish()
    };
    u128::from(half(0)) << 64 | u128::from(half(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_key_kinds_merge_alike() {
        for keys in [TableKeys::Exact, TableKeys::Fingerprint] {
            let t: Table<((), Vec<u32>, u32)> = Table::new(keys);
            let k = || ((), vec![1, 5, 9], 3);
            assert!(t.get(&k()).is_none());
            t.learn(k(), Known::AtLeast(7));
            t.learn(k(), Known::AtLeast(5));
            assert!(matches!(t.get(&k()), Some(Known::AtLeast(7))));
            t.learn(k(), Known::Exact { total: 9, query: Some(4) });
            t.learn(k(), Known::AtLeast(8));
            assert!(matches!(t.get(&k()), Some(Known::Exact { total: 9, query: Some(4) })));
            assert!(t.get(&((), vec![1, 5, 9], 2)).is_none());
            assert!(t.get(&((), vec![1, 5], 3)).is_none());
        }
        assert_ne!(fingerprint(&vec![1u32, 2]), fingerprint(&vec![2u32, 1]));
    }
}
