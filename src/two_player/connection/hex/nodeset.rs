//! Node sets of the H-search tables (`hsearch.rs`): [`Bits`] in general, `u64`
//! for small graphs, and the few set helpers the rules use.

use super::board::Bits;
use num_traits::PrimInt;

/// A node set in the H-search tables: [`Bits`] in general, `u64` for graphs of
/// at most 64 nodes (the solver's graphs of boards up to 7×7 plus edges), which
/// halves the tables' memory and the bit operations. Both run the same rules
/// in the same order, so they derive the same connections.
pub trait NodeSet: PrimInt + Default + std::hash::Hash {
    /// The set of the nodes of `bits` (all below the type's width).
    fn from_bits(bits: Bits) -> Self;
    /// The same set as [`Bits`].
    fn bits(self) -> Bits;
}

impl NodeSet for u64 {
    fn from_bits(bits: Bits) -> u64 {
        debug_assert!(bits >> 64 == 0, "a node beyond 64 in a 64-bit set");
        bits as u64
    }
    fn bits(self) -> Bits {
        Bits::from(self)
    }
}

impl NodeSet for Bits {
    fn from_bits(bits: Bits) -> Bits {
        bits
    }
    fn bits(self) -> Bits {
        self
    }
}

/// The set {i}.
pub(super) fn single<S: NodeSet>(i: usize) -> S {
    S::one() << i
}

/// Whether i ∈ set.
pub(super) fn has<S: NodeSet>(set: S, i: usize) -> bool {
    (set >> i) & S::one() != S::zero()
}

/// The members of `set`, ascending.
pub(super) fn members<S: NodeSet>(set: S) -> impl Iterator<Item = usize> {
    let mut rest = set;
    std::iter::from_fn(move || {
        if rest == S::zero() {
            return None;
        }
        let i = rest.trailing_zeros() as usize;
        rest = rest & (rest - S::one());
        Some(i)
    })
}
