//! A set of edge indices as a bit vector (hashable, for transposition tables).

/// Edges `0..len` as bits; two sets of the same graph compare and hash by content.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EdgeSet {
    words: Box<[u64]>,
}

impl EdgeSet {
    /// The empty set for a graph of `edges` edges.
    pub fn empty(edges: usize) -> EdgeSet {
        EdgeSet { words: vec![0u64; edges.div_ceil(64)].into_boxed_slice() }
    }

    /// Whether edge `e` is in the set.
    pub fn contains(&self, e: usize) -> bool {
        self.words[e / 64] >> (e % 64) & 1 == 1
    }

    /// Adds edge `e`.
    pub fn insert(&mut self, e: usize) {
        self.words[e / 64] |= 1 << (e % 64);
    }

    /// Removes edge `e`.
    pub fn remove(&mut self, e: usize) {
        self.words[e / 64] &= !(1 << (e % 64));
    }

    /// Number of edges in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The edges in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words
            .iter()
            .enumerate()
            .flat_map(|(i, &w)| (0..64).filter(move |b| w >> b & 1 == 1).map(move |b| 64 * i + b))
    }
}

#[cfg(test)]
mod tests {
    use super::EdgeSet;

    #[test]
    fn insert_remove_iterate() {
        let mut s = EdgeSet::empty(130);
        for e in [0, 63, 64, 129] {
            s.insert(e);
        }
        s.remove(63);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 64, 129]);
        assert_eq!(s.len(), 3);
        assert!(s.contains(129) && !s.contains(63));
    }
}
