//! Pure combinatorial bounds used by the searches.

/// The total depth of the equal-weight `width`-ary Huffman tree with `m`
/// leaves: the least Σ depth over the leaves of a tree whose nodes have at
/// most `width` children (`width` ≥ 2). It is the perfect total of the free
/// search problem (thesis §4.5) and a lower bound for any game whose queries
/// have at most `width` answers and no solving answer.
pub fn huffman_total(width: u64, m: u64) -> u64 {
    if m <= 1 {
        return 0;
    }
    let (mut d, mut power) = (0u64, 1u64);
    while power.saturating_mul(width) <= m {
        power *= width;
        d += 1;
    }
    let extra = m - power;
    d * m + extra + extra.div_ceil(width - 1)
}
