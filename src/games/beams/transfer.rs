//! Counting Beams patterns (thesis Table 4.8, "Muster") without materialising
//! them: a frontier (broken-profile, transfer-matrix) dynamic programme over
//! the board's cells in (r, q) order, memoised on the frontier state.
//!
//! After cell i has been decided (every cell 0 … i is given to a piece), the
//! *frontier* is the list of decided cells that still have an undecided
//! neighbour (the hexagon of edge 5 never has more than 9). A state records
//! - for each frontier cell its *part*: 0 if its piece is complete (p cells,
//!   connected), else the id of a connected component ("part") of the decided
//!   cells of an open piece;
//! - for each part its open piece (the parts of one piece are not connected
//!   yet: they must be joined by later cells);
//! - for each open piece its size (1 … p−1) and, under the border-contact
//!   rule, whether it owns a border cell.
//!
//! The number of complete pieces is not stored: it is (i + 1 − Σ open sizes)/p.
//! Cell i + 1 either starts a piece or joins an open piece (merging the parts
//! of that piece it touches; touching none makes it a new part of the piece).
//! A state dies when a part leaves the frontier while its piece is open (it
//! could never be connected or grown), when a piece reaches p cells in more
//! than one part, or when the open pieces need more cells than remain.
//! Parts and pieces are renumbered by first appearance along the frontier, so
//! a state is canonical: pieces are unlabelled and each tiling is one path of
//! choices (a cell's piece is named by the earlier cells of that piece), hence
//! counted once. The count of the empty final state is the pattern count.

use super::Variant;
use super::geometry::Board;
use super::transfer_state::{Layout, State, encode};
use crate::error::{Error, Result};
use crate::search::fasthash::FastBuild;
use std::collections::HashMap;

/// The result of [`count_patterns`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransferCount {
    /// Board edge length.
    pub n: i32,
    /// Pieces (colours) and cells per piece.
    pub colours: usize,
    pub piece_size: usize,
    /// Whether every piece had to own a border cell (the expert rule, thesis §4.4.2).
    pub border_rule: bool,
    /// Tilings of the board by c connected pieces of p cells (rotations and
    /// reflections distinct, pieces unlabelled).
    pub patterns: u128,
    /// Live states after each cell (the last is the single final state, or none).
    pub states: Vec<usize>,
    /// The largest number of states held in one layer.
    pub peak_states: usize,
    /// The bytes of the two state tables at the largest step (buckets × entry).
    pub peak_table_bytes: u64,
}

impl TransferCount {
    /// Codes = patterns × c! (None on overflow of u128).
    pub fn codes(&self) -> Option<u128> {
        (1..=self.colours as u128).try_fold(self.patterns, |acc, k| acc.checked_mul(k))
    }
}

/// The per-cell tables of the sweep.
struct Plan {
    /// `frontier[i]`: the frontier after cell i (cell indices, ascending).
    frontier: Vec<Vec<usize>>,
    /// Last neighbour (in cell order) of each cell, or the cell itself.
    last: Vec<usize>,
    neighbours: Vec<u64>,
    border: Vec<bool>,
    cells: Vec<(i32, i32)>,
}

impl Plan {
    fn new(board: &Board) -> Plan {
        let n = board.cell_count();
        let last: Vec<usize> = (0..n).map(|i| (63 - board.neighbours[i].leading_zeros() as usize).max(i)).collect();
        let frontier = (0..n).map(|i| (0..=i).filter(|&j| last[j] > i).collect()).collect();
        let edge = board.n - 1;
        let border = board.cells.iter().map(|&(q, r)| q.abs().max(r.abs()).max((q + r).abs()) == edge).collect();
        Plan { frontier, last, neighbours: board.neighbours.clone(), border, cells: board.cells.clone() }
    }
}

/// Counts the patterns of `variant` (with `border_rule`: only those whose
/// every piece owns a cell of the hexagon's outer ring). Refuses (TooLarge)
/// when the state tables would exceed the memory budget.
pub fn count_patterns(variant: Variant, border_rule: bool) -> Result<TransferCount> {
    count_tilings(variant.n, variant.piece_size, border_rule, |_, _| {})
}

/// The tilings of the board of edge `n` (2 ≤ n ≤ 5) by connected pieces of
/// `piece_size` cells (any number of pieces, also more than the 8 colours a
/// [`Variant`] allows), calling `progress(cell, states)` after each cell.
pub fn count_tilings(
    n: i32,
    piece_size: usize,
    border_rule: bool,
    progress: impl FnMut(usize, usize),
) -> Result<TransferCount> {
    sweep(n, piece_size, border_rule, true, progress)
}

/// [`count_tilings`] without the distance bound on parts (more states, the
/// same count: the bound only drops states that have no completion). For
/// checking the bound.
pub fn count_tilings_without_distance_bound(n: i32, piece_size: usize, border_rule: bool) -> Result<TransferCount> {
    sweep(n, piece_size, border_rule, false, |_, _| {})
}

// Long: the hot loop of the pattern count: a cell's transitions read and write the two layers and
//   the plan's tables for that cell in one body
fn sweep(
    n: i32,
    piece_size: usize,
    border_rule: bool,
    distance_bound: bool,
    mut progress: impl FnMut(usize, usize),
) -> Result<TransferCount> {
    let board = Board::new(n);
    let cells = board.cell_count();
    if piece_size == 0 || !cells.is_multiple_of(piece_size) {
        return Err(crate::error::invalid(format!("{cells} cells cannot be cut into pieces of {piece_size}")));
    }
    let what = format!("tilings of the {cells}-cell board by pieces of {piece_size}");
    let plan = Plan::new(&board);
    let width = plan.frontier.iter().map(Vec::len).max().unwrap_or(0);
    let p = piece_size;
    let layout = Layout::new(width, p, border_rule)
        .ok_or_else(|| Error::TooLarge(format!("{what}: the frontier state does not fit 128 bits")))?;
    let budget = crate::memory::budget_bytes();
    let mut current: Layer = vec![([0, 0], 1)];
    let (mut states, mut peak_states, mut peak_table_bytes) = (Vec::with_capacity(cells), 1, 0u64);
    for c in 0..cells {
        let before: &[usize] = if c == 0 { &[] } else { &plan.frontier[c - 1] };
        let keep: Vec<usize> =
            before.iter().chain([&c]).enumerate().filter(|(_, j)| plan.last[**j] > c).map(|(i, _)| i).collect();
        let touching: Vec<usize> = (0..before.len()).filter(|&i| plan.neighbours[c] >> before[i] & 1 == 1).collect();
        let slots: Vec<(i32, i32)> = before.iter().chain([&c]).map(|&j| plan.cells[j]).collect();
        let mut gap = vec![[0u8; 16]; slots.len()];
        for (i, &(q, r)) in slots.iter().enumerate() {
            for (j, &(q2, r2)) in slots.iter().enumerate() {
                let (dq, dr) = (q - q2, r - r2);
                if distance_bound {
                    gap[i][j] = ((dq.abs() + dr.abs() + (dq + dr).abs()) / 2 - 1).max(0) as u8;
                }
            }
        }
        let step = Step {
            gap: &gap,
            p,
            here: before.len(),
            remaining: cells - 1 - c,
            on_border: plan.border[c],
            border_rule,
            keep: &keep,
            touching: &touching,
        };
        let mut next = PartedTable::new();
        let mut overflow = false;
        let held = layer_bytes(&current);
        for &(key, count) in &current {
            // A full part doubles on its next new key, holding its old and
            // new buckets at once: refuse before that would pass the budget.
            if next.near_growth() && held + next.bytes_after_growth() > budget {
                return Err(Error::TooLarge(format!(
                    "counting {what} by frontier states: {} states after cell {c} so far (and {} before it) \
                     hold {}, and growing would pass the budget of {}; raise it with --max-memory GIB",
                    next.len(),
                    current.len(),
                    crate::memory::human_bytes(held + next.bytes()),
                    crate::memory::human_bytes(budget)
                )));
            }
            let s = State::decode(u128::from(key[0]) | u128::from(key[1]) << 64, before.len(), &layout);
            step.successors(&s, &layout, |k| overflow |= !next.add([k as u64, (k >> 64) as u64], count));
            if overflow {
                return Err(Error::TooLarge(format!("counting {what}: a state's count passes 2^64 after cell {c}")));
            }
        }
        peak_table_bytes = peak_table_bytes.max(held + next.bytes());
        drop(current);
        current = next.into_layer();
        peak_states = peak_states.max(current.len());
        states.push(current.len());
        progress(c, current.len());
    }
    let patterns = current.iter().find(|e| e.0 == [0, 0]).map_or(0, |e| u128::from(e.1));
    Ok(TransferCount {
        n,
        colours: cells / p,
        piece_size: p,
        border_rule,
        patterns,
        states,
        peak_states,
        peak_table_bytes,
    })
}

/// A finished layer: every live state (the packed u128 as two words) with
/// its count, the number of ways to decide the cells so far that end in it,
/// in no particular order (24 bytes per state, no slack).
type Layer = Vec<([u64; 2], u64)>;

fn layer_bytes(layer: &Layer) -> u64 {
    (layer.capacity() * std::mem::size_of::<([u64; 2], u64)>()) as u64
}

/// The layer being built: states and counts (u64, checked: a count past
/// 2^64 stops the run with an error) in [`PARTS`] hash tables chosen by a
/// mix of the key, so that a table doubling holds only a small share of the
/// layer twice (one table for all: 13.4 GB at the 6c10p peak; see
/// docs/beams-counting.md).
struct PartedTable {
    parts: Vec<Table>,
    /// States in all parts.
    len: usize,
}

type Table = HashMap<[u64; 2], u64, FastBuild>;

/// Tables per layer.
const PARTS: usize = 64;

impl PartedTable {
    fn new() -> PartedTable {
        PartedTable { parts: (0..PARTS).map(|_| Table::default()).collect(), len: 0 }
    }

    /// The part of a key: the top bits of a multiplicative mix (the tables
    /// hash the key again with their own hasher).
    fn part_of(key: &[u64; 2]) -> usize {
        ((key[0] ^ key[1].rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize
    }

    /// Adds `count` to the state's count; false if the sum passes 2^64.
    fn add(&mut self, key: [u64; 2], count: u64) -> bool {
        let table = &mut self.parts[Self::part_of(&key)];
        let slot = table.entry(key).or_insert_with(|| {
            self.len += 1;
            0
        });
        match slot.checked_add(count) {
            Some(sum) => {
                *slot = sum;
                true
            }
            None => false,
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn table_bytes(t: &Table) -> u64 {
        // Buckets (capacity · 8/7) × (entry + control byte).
        (t.capacity() as u64 * 8 / 7) * (std::mem::size_of::<([u64; 2], u64)>() as u64 + 1)
    }

    fn bytes(&self) -> u64 {
        self.parts.iter().map(Self::table_bytes).sum()
    }

    /// Whether some part is within a few keys of doubling.
    fn near_growth(&self) -> bool {
        self.parts.iter().any(|t| t.len() + 8 >= t.capacity())
    }

    /// The bytes held while the largest part doubles (old and new buckets),
    /// and the compact layer the tables become at the end.
    fn bytes_after_growth(&self) -> u64 {
        let largest = self.parts.iter().map(Self::table_bytes).max().unwrap_or(0).max(1 << 16);
        (self.bytes() + 2 * largest).max(self.bytes() + (self.len as u64 + 64) * 24)
    }

    /// The compact layer (each table freed once copied).
    fn into_layer(self) -> Layer {
        let mut layer = Vec::with_capacity(self.len);
        for t in self.parts {
            layer.extend(t);
        }
        layer
    }
}

/// The data of one cell's step, shared by all states.
struct Step<'a> {
    p: usize,
    /// Cells after this one.
    remaining: usize,
    on_border: bool,
    border_rule: bool,
    /// Length of the old frontier (the slot of this cell).
    here: usize,
    /// Slots of (old frontier, this cell) that stay on the frontier.
    keep: &'a [usize],
    /// Slots of the old frontier adjacent to this cell.
    touching: &'a [usize],
    /// `gap[i][j]`: cells needed to join the cells of slots i and j of (old
    /// frontier, this cell), hex distance − 1 (a lower bound: paths must also
    /// avoid the past and the centre).
    gap: &'a [[u8; 16]],
}

impl Step<'_> {
    /// The canonical key of a successor, or None if it is dead: a part left
    /// the frontier (see [`encode`]), or a part of an open piece is farther
    /// from all other parts of its piece than the cells the piece still takes
    /// can bridge.
    fn finish(&self, t: &State, ext: &[u8], l: &Layout) -> Option<u128> {
        // Each part must reach some other part of its piece (not every other
        // part: a third part may lie between them), at a cost of at least
        // the gap between their nearest cells.
        for &i in self.keep {
            let x = ext[i];
            if x == 0 {
                continue;
            }
            let piece = t.piece_of[x as usize];
            let left = self.p - t.size[piece as usize] as usize;
            let mut nearest = usize::MAX;
            for &u in self.keep.iter().filter(|&&u| ext[u] == x) {
                for &v in self.keep {
                    let y = ext[v];
                    if y != 0 && y != x && t.piece_of[y as usize] == piece {
                        nearest = nearest.min(self.gap[u][v] as usize);
                    }
                }
            }
            if nearest != usize::MAX && nearest > left {
                return None;
            }
        }
        encode(t, ext, self.keep, l)
    }

    /// Calls `emit` with the key of every live successor of `s`.
    fn successors(&self, s: &State, l: &Layout, mut emit: impl FnMut(u128)) {
        let need: usize = (0..s.pieces).map(|x| self.p - s.size[x] as usize).sum();
        // A new piece.
        let mut t = *s;
        let here = self.here;
        let mut ext = [0u8; 17];
        ext[..here].copy_from_slice(&s.label[..here]);
        if self.p == 1 {
            if (!self.border_rule || self.on_border) && need <= self.remaining {
                ext[here] = 0;
                emit_if(self.finish(&t, &ext[..=here], l), &mut emit);
            }
        } else if need + self.p - 1 <= self.remaining {
            t.parts += 1;
            t.piece_of[t.parts] = s.pieces as u8;
            t.size[s.pieces] = 1;
            t.touches_border[s.pieces] = self.on_border;
            ext[here] = t.parts as u8;
            emit_if(self.finish(&t, &ext[..=here], l), &mut emit);
        }
        // Joining an open piece x.
        for x in 0..s.pieces {
            if need - 1 > self.remaining {
                break;
            }
            let mut t = *s;
            let mut ext = [0u8; 17];
            ext[..here].copy_from_slice(&s.label[..here]);
            let mut merged = 0u32;
            for &i in self.touching {
                let part = s.label[i];
                if part != 0 && s.piece_of[part as usize] as usize == x {
                    merged |= 1 << part;
                }
            }
            let part = if merged == 0 {
                t.parts += 1;
                t.piece_of[t.parts] = x as u8;
                t.parts as u8
            } else {
                merged.trailing_zeros() as u8
            };
            for label in ext[..here].iter_mut() {
                if merged >> *label & 1 == 1 {
                    *label = part;
                }
            }
            ext[here] = part;
            t.size[x] += 1;
            t.touches_border[x] |= self.on_border;
            if t.size[x] as usize == self.p {
                // Complete: one part only, and (under the rule) on the border.
                let one_part = ext[..here].iter().all(|&q| q == 0 || q == part || t.piece_of[q as usize] as usize != x);
                if !one_part || (self.border_rule && !t.touches_border[x]) {
                    continue;
                }
                for label in ext[..=here].iter_mut() {
                    if *label != 0 && t.piece_of[*label as usize] as usize == x {
                        *label = 0;
                    }
                }
            }
            emit_if(self.finish(&t, &ext[..=here], l), &mut emit);
        }
    }
}

fn emit_if(key: Option<u128>, emit: &mut impl FnMut(u128)) {
    if let Some(k) = key {
        emit(k);
    }
}
