//! Sprague-Grundy values: γ(x) = mex{γ(y) | x → y} on finite acyclic graphs
//! (seed003 Satz C1J, Lemma C1M), sums by XOR (Satz C1O), and heap games
//! (subtraction games, octal games, Lasker-Nim, Grundy's game) where a
//! position is a multiset of heaps and γ is the XOR of the heap values.

use super::explicit::ExplicitGraph;
use bitvec::prelude::{BitVec, Lsb0};
use rayon::prelude::*;

/// A growable set of small natural numbers, for mex computations (a `bitvec`
/// bit set; bit v set iff v is in the set).
#[derive(Clone, Debug, Default)]
pub struct SmallSet {
    bits: BitVec<u64, Lsb0>,
}

impl SmallSet {
    /// Adds `v` (the set grows to the next power of two, so that growing to n
    /// costs O(n) in all).
    pub fn insert(&mut self, v: u32) {
        let v = v as usize;
        if self.bits.len() <= v {
            self.bits.resize((v + 1).next_power_of_two().max(64), false);
        }
        // The raw word, not `self.bits.set(v, true)`: Grundy's game to 30 000 (a
        // quadratic loop of inserts) took 1.71 s with `set` against 0.82 s.
        self.bits.as_raw_mut_slice()[v / 64] |= 1 << (v % 64);
    }

    /// Adds every member of `other` (word by word: the raw words of both sets).
    pub fn union_with(&mut self, other: &SmallSet) {
        if self.bits.len() < other.bits.len() {
            self.bits.resize(other.bits.len(), false);
        }
        for (a, b) in self.bits.as_raw_mut_slice().iter_mut().zip(other.bits.as_raw_slice()) {
            *a |= b;
        }
    }

    /// The minimal excludant: the least natural number not in the set.
    pub fn mex(&self) -> u32 {
        self.bits.first_zero().unwrap_or(self.bits.len()) as u32
    }
}

/// mex of a list of values.
pub fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let mut set = SmallSet::default();
    values.into_iter().for_each(|v| set.insert(v));
    set.mex()
}

/// Grundy values of every vertex of a finite graph, or `None` if the graph has
/// a cycle (then use [`super::loopy`]). Terminal annotations are ignored: the
/// Sprague-Grundy function is defined by the moves alone (sinks get 0).
pub fn graph_values<S>(graph: &ExplicitGraph<S>) -> Option<Vec<u32>> {
    let mut value = vec![u32::MAX; graph.len()];
    for v in graph.successors_first_order()? {
        value[v] = mex(graph.successors(v).iter().map(|&w| value[w as usize]));
    }
    Some(value)
}

/// The rule of a heap game: what a single heap of size x may become.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeapRule {
    /// Remove s ∈ S tokens (one-pile subtraction game, seed003 §3.1).
    Subtraction(Vec<usize>),
    /// Octal game by its code digits d_1 d_2 …: removing k tokens is allowed
    /// leaving no heap (bit 1), one heap (bit 2) or two heaps (bit 4).
    /// Example: Cram on a 1×n strip is 0.07.
    Octal(Vec<u8>),
    /// Lasker-Nim: reduce a heap to any smaller size, or split it into two
    /// non-empty heaps, equal sizes allowed (seed003 C201).
    Lasker,
    /// Grundy's game: split a heap into two non-empty *unequal* heaps (C203).
    GrundySplit,
    /// Nim: reduce a heap to any smaller size (γ(x) = x).
    Nim,
}

impl HeapRule {
    /// Parses an octal code such as `0.07` or `.137`.
    pub fn octal(code: &str) -> Option<HeapRule> {
        let digits = code.strip_prefix("0.").or_else(|| code.strip_prefix('.'))?;
        let parsed: Option<Vec<u8>> = digits.chars().map(|c| c.to_digit(8).map(|d| d as u8)).collect();
        parsed.filter(|d| !d.is_empty()).map(HeapRule::Octal)
    }

    /// All options of one heap of size x, each as the list of heaps it leaves.
    pub fn options(&self, x: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        match self {
            HeapRule::Subtraction(set) => set.iter().filter(|&&s| s <= x).for_each(|&s| out.push(heap(x - s))),
            HeapRule::Nim => (0..x).for_each(|y| out.push(heap(y))),
            HeapRule::Lasker => {
                (0..x).for_each(|y| out.push(heap(y)));
                (1..=x / 2).for_each(|y| out.push(vec![y, x - y]));
            }
            HeapRule::GrundySplit => (1..x.div_ceil(2)).for_each(|y| out.push(vec![y, x - y])),
            HeapRule::Octal(digits) => {
                for (i, &d) in digits.iter().enumerate() {
                    let k = i + 1;
                    if d & 1 != 0 && x == k {
                        out.push(vec![]);
                    }
                    if d & 2 != 0 && x > k {
                        out.push(vec![x - k]);
                    }
                    if d & 4 != 0 && x >= k + 2 {
                        (1..=(x - k) / 2).for_each(|a| out.push(vec![a, x - k - a]));
                    }
                }
            }
        }
        out
    }

    /// Marks the values of the options of a heap of size x whose "option index"
    /// lies in `lo..hi` (see [`Self::option_count`]), given the values below x.
    fn mark(&self, x: usize, g: &[u32], lo: usize, hi: usize, seen: &mut SmallSet) {
        match self {
            HeapRule::GrundySplit => (lo + 1..hi + 1).for_each(|y| seen.insert(g[y] ^ g[x - y])),
            HeapRule::Lasker => (lo..hi).for_each(|i| {
                seen.insert(if i < x {
                    g[i]
                } else {
                    let y = i - x + 1;
                    g[y] ^ g[x - y]
                })
            }),
            HeapRule::Nim => g[..x].iter().for_each(|&v| seen.insert(v)),
            _ => self.options(x).iter().for_each(|heaps| seen.insert(heaps.iter().fold(0, |a, &h| a ^ g[h]))),
        }
    }

    /// Number of options of a heap of size x (the work of its [`Self::mark`]s).
    fn option_work(&self, x: usize) -> u64 {
        let n = match self {
            HeapRule::Subtraction(set) => set.iter().filter(|&&s| s <= x).count(),
            HeapRule::Nim => x,
            HeapRule::Lasker => x + x / 2,
            HeapRule::GrundySplit => x.div_ceil(2).saturating_sub(1),
            HeapRule::Octal(digits) => (1..=digits.len())
                .zip(digits)
                .map(|(k, &d)| {
                    usize::from(d & 1 != 0 && x == k)
                        + usize::from(d & 2 != 0 && x > k)
                        + if d & 4 != 0 && x >= k + 2 { (x - k) / 2 } else { 0 }
                })
                .sum(),
        };
        n as u64
    }

    /// Number of option indices used by [`Self::mark`] for a heap of size x:
    /// one per option where `mark` can scan a range of them (so large heaps
    /// are split into parallel chunks), else 1 (all marked at once).
    fn option_count(&self, x: usize) -> usize {
        match self {
            HeapRule::GrundySplit | HeapRule::Lasker => self.option_work(x) as usize,
            _ => 1,
        }
    }
}

fn heap(x: usize) -> Vec<usize> {
    if x == 0 { vec![] } else { vec![x] }
}

/// γ of single heaps 0..=upto under `rule`. Long option lists are scanned in
/// parallel chunks (Grundy's game to 10^5 in seconds).
pub fn heap_values(rule: &HeapRule, upto: usize) -> Vec<u32> {
    heap_values_with_progress(rule, upto, &crate::progress::Progress::none())
}

/// The options [`heap_values`] examines for heaps 0..=upto: its work, which
/// grows quadratically in `upto` for Nim, Lasker's and Grundy's game.
pub fn heap_table_options(rule: &HeapRule, upto: usize) -> u64 {
    (0..=upto).map(|x| rule.option_work(x)).sum()
}

/// [`heap_values`], reporting the options scanned (Σ option counts, known in
/// advance, so the ETA of rules with x/2 or 3x/2 options per heap is right
/// although the time is quadratic in `upto`).
pub fn heap_values_with_progress(rule: &HeapRule, upto: usize, progress: &crate::progress::Progress) -> Vec<u32> {
    const CHUNK: usize = 1 << 14;
    let mut g: Vec<u32> = Vec::with_capacity(upto + 1);
    if progress.is_observed() {
        progress.begin("options", Some(heap_table_options(rule, upto)));
    }
    for x in 0..=upto {
        let count = rule.option_count(x);
        progress.advance(rule.option_work(x));
        let seen = if count <= CHUNK || matches!(rule, HeapRule::Subtraction(_) | HeapRule::Octal(_) | HeapRule::Nim) {
            let mut s = SmallSet::default();
            rule.mark(x, &g, 0, count, &mut s);
            s
        } else {
            (0..count.div_ceil(CHUNK))
                .into_par_iter()
                .map(|c| {
                    let mut s = SmallSet::default();
                    rule.mark(x, &g, c * CHUNK, ((c + 1) * CHUNK).min(count), &mut s);
                    s
                })
                .reduce(SmallSet::default, |mut a, b| {
                    a.union_with(&b);
                    a
                })
        };
        g.push(seen.mex());
    }
    progress.end();
    g
}

/// A move in a sum of heaps: which heap, and the heaps it leaves in its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapMove {
    /// Index of the heap moved in (0-based).
    pub heap: usize,
    /// The heaps that replace it.
    pub leaves: Vec<usize>,
    /// γ of the whole position after the move.
    pub value: u32,
}

/// γ of a position (several heaps) and every move to a position of value
/// `target` (target 0: the winning moves). All moves are listed, also those
/// in components whose own value rises (seed003 C140, test T12).
pub fn sum_moves(rule: &HeapRule, heaps: &[usize], g: &[u32], target: u32) -> (u32, Vec<HeapMove>) {
    let total = heaps.iter().fold(0, |a, &h| a ^ g[h]);
    let mut moves = Vec::new();
    for (i, &h) in heaps.iter().enumerate() {
        for leaves in rule.options(h) {
            let value = total ^ g[h] ^ leaves.iter().fold(0, |a, &l| a ^ g[l]);
            if value == target {
                moves.push(HeapMove { heap: i, leaves, value });
            }
        }
    }
    (total, moves)
}
