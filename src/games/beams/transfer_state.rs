//! The packed frontier state of the pattern count ([`super::transfer`]): its
//! bit layout in a u128, decoding, and the canonical encoding (parts and
//! pieces renumbered by first appearance along the frontier).

/// Bit widths of the packed state (a u128): per frontier slot a part id, per
/// part slot its piece, per piece slot its size and border flag.
#[derive(Clone, Copy)]
pub(super) struct Layout {
    pub(super) width: usize,
    pub(super) part_bits: u32,
    pub(super) piece_bits: u32,
    pub(super) size_bits: u32,
    pub(super) flag_bits: u32,
}

impl Layout {
    pub(super) fn new(width: usize, piece_size: usize, border_rule: bool) -> Option<Layout> {
        let bits = |max: usize| usize::BITS - max.leading_zeros();
        let l = Layout {
            width,
            part_bits: bits(width),
            piece_bits: bits(width.saturating_sub(1)).max(1),
            size_bits: bits(piece_size),
            flag_bits: border_rule as u32,
        };
        let total = width as u32 * (l.part_bits + l.piece_bits + l.size_bits + l.flag_bits);
        (total <= 128).then_some(l)
    }
}

/// A decoded state; ids are small (≤ the frontier width, at most 16).
#[derive(Clone, Copy, Default)]
pub(super) struct State {
    /// Part id (1-based; 0 = complete piece) of each frontier slot.
    pub(super) label: [u8; 16],
    /// Piece (0-based) of each part id.
    pub(super) piece_of: [u8; 17],
    pub(super) size: [u8; 16],
    pub(super) touches_border: [bool; 16],
    pub(super) pieces: usize,
    pub(super) parts: usize,
}

impl State {
    pub(super) fn decode(key: u128, len: usize, l: &Layout) -> State {
        let mut s = State::default();
        let field = |at: u32, bits: u32| ((key >> at) as u32 & ((1u32 << bits) - 1)) as u8;
        for i in 0..len {
            s.label[i] = field(i as u32 * l.part_bits, l.part_bits);
            s.parts = s.parts.max(s.label[i] as usize);
        }
        let part_base = l.width as u32 * l.part_bits;
        for part in 1..=s.parts {
            s.piece_of[part] = field(part_base + (part as u32 - 1) * l.piece_bits, l.piece_bits);
            s.pieces = s.pieces.max(s.piece_of[part] as usize + 1);
        }
        let piece_base = part_base + l.width as u32 * l.piece_bits;
        for piece in 0..s.pieces {
            let at = piece_base + piece as u32 * (l.size_bits + l.flag_bits);
            s.size[piece] = field(at, l.size_bits);
            s.touches_border[piece] = l.flag_bits == 1 && field(at + l.size_bits, 1) == 1;
        }
        s
    }
}

/// The canonical key of `label[keep[..]]` (parts and pieces renumbered by
/// first appearance), or None if a part of an open piece left the frontier.
pub(super) fn encode(s: &State, ext: &[u8], keep: &[usize], l: &Layout) -> Option<u128> {
    let (mut kept, mut gone) = (0u32, 0u32);
    for (slot, &part) in ext.iter().enumerate() {
        if keep.contains(&slot) { kept |= 1 << part } else { gone |= 1 << part }
    }
    if (gone & !kept) >> 1 != 0 {
        return None;
    }
    let (mut part_map, mut piece_map) = ([0u8; 17], [u8::MAX; 16]);
    let (mut parts, mut pieces) = (0usize, 0usize);
    let mut key = 0u128;
    let part_base = l.width as u32 * l.part_bits;
    let piece_base = part_base + l.width as u32 * l.piece_bits;
    let piece_stride = l.size_bits + l.flag_bits;
    for (i, &slot) in keep.iter().enumerate() {
        let part = ext[slot] as usize;
        if part != 0 && part_map[part] == 0 {
            parts += 1;
            part_map[part] = parts as u8;
            let piece = s.piece_of[part] as usize;
            if piece_map[piece] == u8::MAX {
                piece_map[piece] = pieces as u8;
                let at = piece_base + pieces as u32 * piece_stride;
                key |= (s.size[piece] as u128) << at;
                key |= ((s.touches_border[piece] as u32 & l.flag_bits) as u128) << (at + l.size_bits);
                pieces += 1;
            }
            key |= (piece_map[piece] as u128) << (part_base + (parts as u32 - 1) * l.piece_bits);
        }
        key |= (part_map[part] as u128) << (i as u32 * l.part_bits);
    }
    Some(key)
}
