//! Beams patterns ("Muster", thesis Table 4.8): tilings of the board by
//! connected pieces of p cells, rotations and reflections counted separately.
//! A code is a pattern plus an assignment of the c colours to its c pieces.
//!
//! Enumeration: the lowest uncovered cell must be covered by a placement whose
//! lowest cell it is (each tiling is found exactly once); pieces are numbered
//! by their lowest cell. The table is cached under `codes/` in a versioned file
//! with a checksum; a missing, truncated, corrupt or stale file is rebuilt.

use super::Variant;
use super::geometry::Board;
use super::patterns_memory::cells_per_byte;
use crate::error::{Error, Result};
use crate::output::write_atomic;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// All tilings of one variant: `pieces[t·k + j]` is the cell mask of piece j of
/// tiling t (k = number of colours), pieces ordered by their lowest cell.
#[derive(Clone)]
pub struct Patterns {
    pub variant: Variant,
    pub pieces: Vec<u64>,
}

impl Patterns {
    pub fn count(&self) -> usize {
        self.pieces.len() / self.variant.colours
    }

    /// The pieces of pattern t.
    /// The index of the tiling with these pieces (given in the table's order:
    /// by lowest cell), if it is a pattern; the table is sorted lexicographically.
    pub fn find(&self, pieces: &[u64]) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.count());
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.pattern(mid).cmp(pieces) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    pub fn pattern(&self, t: usize) -> &[u64] {
        let k = self.variant.colours;
        &self.pieces[t * k..(t + 1) * k]
    }
}

/// Every connected set of `size` board cells, as masks, sorted.
pub fn placements(board: &Board, size: usize) -> Vec<u64> {
    let mut out = super::patterns_memory::placements_by_lowest(board, size, u64::MAX).unwrap_or_default().concat();
    out.sort_unstable();
    out
}

/// Refuses a variant whose pattern enumeration would not fit the memory
/// budget ([`crate::memory::budget_bytes`]), with the estimate
/// ([`super::patterns_memory::check_enumeration`]).
pub fn check_enumerable(variant: Variant) -> Result<()> {
    super::patterns_memory::check_enumeration(variant).map(|_| ())
}

/// Enumerates all tilings (in parallel over the first piece; the order is fixed).
pub fn enumerate(variant: Variant) -> Patterns {
    enumerate_within(variant, u64::MAX).unwrap_or(Patterns { variant, pieces: Vec::new() })
}

/// [`enumerate`], given up (`None`) once the patterns found hold more than
/// `limit` bytes.
pub fn enumerate_within(variant: Variant, limit: u64) -> Option<Patterns> {
    let board = Board::new(variant.n);
    // The placements by lowest cell, each group ascending (the order of the tilings).
    let by_lowest = super::patterns_memory::placements_by_lowest(&board, variant.piece_size, u64::MAX)?;
    let full = board.all_cells();
    // Tasks: every admissible choice of the first two pieces, in enumeration order.
    let mut prefixes: Vec<Vec<u64>> = Vec::new();
    for &first in &by_lowest[0] {
        let free = full & !first;
        if free == 0 {
            prefixes.push(vec![first]);
            continue;
        }
        for &second in by_lowest[free.trailing_zeros() as usize].iter().filter(|&&p| p & !free == 0) {
            prefixes.push(vec![first, second]);
        }
    }
    let held = std::sync::atomic::AtomicU64::new(0);
    let pieces: Vec<Vec<u64>> = prefixes
        .par_iter()
        .map(|prefix| {
            let mut out = Vec::new();
            let mut stack = prefix.clone();
            let mut guard = Guard { held: &held, limit, counted: 0 };
            tile(&by_lowest, full & !prefix.iter().fold(0, |m, p| m | p), &mut stack, &mut out, &mut guard);
            out
        })
        .collect();
    if held.load(std::sync::atomic::Ordering::Relaxed) > limit {
        return None;
    }
    Some(Patterns { variant, pieces: pieces.concat() })
}

/// The bytes of patterns found so far by all tasks, against a limit.
struct Guard<'a> {
    held: &'a std::sync::atomic::AtomicU64,
    limit: u64,
    /// Bytes of this task's output already added to `held`.
    counted: u64,
}

impl Guard<'_> {
    /// Adds this task's growth; false once all tasks together passed the limit.
    fn within(&mut self, out: &[u64]) -> bool {
        let bytes = 8 * out.len() as u64;
        if bytes >= self.counted + (1 << 20) {
            self.held.fetch_add(bytes - self.counted, std::sync::atomic::Ordering::Relaxed);
            self.counted = bytes;
        }
        self.held.load(std::sync::atomic::Ordering::Relaxed) <= self.limit
    }
}

fn tile(by_lowest: &[Vec<u64>], free: u64, stack: &mut Vec<u64>, out: &mut Vec<u64>, guard: &mut Guard) {
    if free == 0 {
        out.extend_from_slice(stack);
        return;
    }
    if !guard.within(out) {
        return;
    }
    for &p in &by_lowest[free.trailing_zeros() as usize] {
        if p & !free == 0 {
            stack.push(p);
            tile(by_lowest, free & !p, stack, out, guard);
            stack.pop();
        }
    }
}

/// [`enumerate_within`] the memory budget, or a one-line refusal.
fn enumerate_in_budget(variant: Variant) -> Result<Patterns> {
    check_enumerable(variant)?;
    // The table is held twice while it is encoded and written.
    let budget = crate::memory::budget_bytes() / 2;
    enumerate_within(variant, budget).ok_or_else(|| {
        Error::TooLarge(format!(
            "{variant} has more patterns than {:.1} GiB hold (half the memory budget, as the table is written); \
             raise it with --max-memory GIB if the machine has it",
            budget as f64 / (1u64 << 30) as f64
        ))
    })
}

// ---- cache file ----

const MAGIC: &[u8; 8] = b"RSBEAMS\0";
/// Bump when the enumeration order or the encoding changes.
pub const FORMAT_VERSION: u32 = 2;
const HEADER: usize = 8 + 4 * 4 + 8 + 8;

/// How a pattern table was obtained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CacheStatus {
    Loaded,
    Built { reason: String },
}

/// The cache file of a variant inside `dir`.
pub fn cache_path(dir: &Path, variant: Variant) -> PathBuf {
    dir.join(format!("beams-{}c{}p.tbl", variant.colours, variant.piece_size))
}

/// The payload checksum: CRC-32 (zero-extended to the header's 8 bytes).
/// Format 1 used FNV-1a; its files are rebuilt.
fn checksum(bytes: &[u8]) -> u64 {
    crc32fast::hash(bytes) as u64
}

fn encode(p: &Patterns, cells: usize) -> Vec<u8> {
    let k = p.variant.colours;
    let per = cells_per_byte(k);
    let stride = cells.div_ceil(per);
    let mut payload = vec![0u8; p.count() * stride];
    payload.par_chunks_mut(stride).enumerate().for_each(|(t, out)| {
        let pieces = p.pattern(t);
        let label = |cell: usize| pieces.iter().position(|m| m >> cell & 1 == 1).unwrap_or(0) as u32;
        for (b, byte) in out.iter_mut().enumerate() {
            let v = (0..per)
                .rev()
                .map(|i| b * per + i)
                .filter(|&c| c < cells)
                .fold(0u32, |acc, c| acc * k as u32 + label(c));
            *byte = v as u8;
        }
    });
    payload
}

fn decode(payload: &[u8], variant: Variant, cells: usize) -> Vec<u64> {
    let k = variant.colours;
    let per = cells_per_byte(k);
    let stride = cells.div_ceil(per);
    // `digits[byte·per + i]`: the i-th base-k digit of `byte`, lowest first (the
    // piece of the byte's i-th cell), looked up instead of divided per cell.
    let digits: Vec<usize> =
        (0..256).flat_map(|byte| (0..per).scan(byte, |v, _| Some(std::mem::replace(v, *v / k) % k))).collect();
    let mut pieces = vec![0u64; payload.len() / stride * k];
    pieces.par_chunks_mut(k).zip(payload.par_chunks(stride)).for_each(|(pieces, bytes)| {
        for (b, &byte) in bytes.iter().enumerate() {
            let labels = &digits[usize::from(byte) * per..][..per];
            for (cell, &piece) in (b * per..cells).zip(labels) {
                pieces[piece] |= 1 << cell;
            }
        }
    });
    pieces
}

/// Writes the table to `path` (atomically).
pub fn save(p: &Patterns, path: &Path) -> Result<()> {
    let cells = Board::new(p.variant.n).cell_count();
    let payload = encode(p, cells);
    let mut bytes = Vec::with_capacity(HEADER + payload.len());
    bytes.extend_from_slice(MAGIC);
    for v in [FORMAT_VERSION, p.variant.n as u32, p.variant.piece_size as u32, p.variant.colours as u32] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    bytes.extend_from_slice(&(p.count() as u64).to_le_bytes());
    bytes.extend_from_slice(&checksum(&payload).to_le_bytes());
    bytes.extend_from_slice(&payload);
    write_atomic(path, &bytes)
}

/// Reads a table; `Err(reason)` says why the file is not usable.
pub fn load(path: &Path, variant: Variant) -> std::result::Result<Patterns, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read it ({e})"))?;
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err("not a pattern table (bad header)".into());
    }
    let word = |i: usize| u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().unwrap());
    if word(0) != FORMAT_VERSION {
        return Err(format!("format version {} (this program writes {FORMAT_VERSION})", word(0)));
    }
    if (word(1), word(2), word(3)) != (variant.n as u32, variant.piece_size as u32, variant.colours as u32) {
        return Err("it belongs to another variant".into());
    }
    let count = u64::from_le_bytes(bytes[24..32].try_into().unwrap()) as usize;
    let recorded = u64::from_le_bytes(bytes[32..40].try_into().unwrap());
    let cells = Board::new(variant.n).cell_count();
    let payload = &bytes[HEADER..];
    if payload.len() != count * cells.div_ceil(cells_per_byte(variant.colours)) {
        return Err("truncated or over-long".into());
    }
    if checksum(payload) != recorded {
        return Err("checksum mismatch (corrupt)".into());
    }
    let pieces = decode(payload, variant, cells);
    // A file with a valid checksum may still not hold tilings of the board
    // (written by hand): every pattern must cut all cells into pieces of the
    // variant's size.
    let all = if cells == 64 { u64::MAX } else { (1u64 << cells) - 1 };
    let tiling = |p: &[u64]| {
        p.iter().all(|m| m.count_ones() as usize == variant.piece_size) && p.iter().fold(0u64, |acc, m| acc | m) == all
    };
    if let Some(t) = pieces.chunks(variant.colours).position(|p| !tiling(p)) {
        return Err(format!("pattern {t} is not a tiling of the board into pieces of {} cells", variant.piece_size));
    }
    Ok(Patterns { variant, pieces })
}

/// Refuses to load a cache file whose table would not fit the memory budget
/// (its size: the file and the decoded table,
/// [`super::patterns_memory::loading_bytes`]).
fn check_loadable(path: &Path, variant: Variant) -> Result<()> {
    let file_bytes = std::fs::metadata(path).map_or(0, |m| m.len());
    let stride = Board::new(variant.n).cell_count().div_ceil(cells_per_byte(variant.colours)) as u64;
    let patterns = file_bytes.saturating_sub(HEADER as u64) / stride;
    crate::memory::check_budget(
        &format!("loading the pattern table {} ({patterns} patterns of {variant})", path.display()),
        crate::memory::process_bytes(super::patterns_memory::loading_bytes(file_bytes, patterns, variant.colours)),
    )
}

/// Loads the table of `variant` from `dir`, or enumerates it and writes the
/// cache (a stale or damaged file is replaced, and the reason returned).
pub fn load_or_build(variant: Variant, dir: Option<&Path>) -> Result<(Patterns, CacheStatus)> {
    let Some(dir) = dir else {
        return Ok((enumerate_in_budget(variant)?, CacheStatus::Built { reason: "no cache directory".into() }));
    };
    let path = cache_path(dir, variant);
    let reason = if path.exists() {
        check_loadable(&path, variant)?;
        match load(&path, variant) {
            Ok(p) => return Ok((p, CacheStatus::Loaded)),
            Err(why) => format!("{} is unusable: {why}; rebuilt", path.display()),
        }
    } else {
        format!("{} did not exist; built", path.display())
    };
    let patterns = enumerate_in_budget(variant)?;
    // A cache that cannot be written (read-only directory, full disk) costs
    // only the next run's enumeration: the table is used from memory.
    let reason = match save(&patterns, &path) {
        Ok(()) => reason,
        Err(e) => format!("{reason}, but not cached ({e}); computed in memory"),
    };
    Ok((patterns, CacheStatus::Built { reason }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One piece used to loop for ever (`beams info 1c6p`).
    #[test]
    fn packing_terminates_for_every_piece_count() {
        assert_eq!(cells_per_byte(1), 8);
        assert_eq!(cells_per_byte(2), 8);
        assert_eq!(cells_per_byte(3), 5);
        assert_eq!(cells_per_byte(6), 3);
    }
}
