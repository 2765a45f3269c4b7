//! Board geometry for pawnless chess: squares a1 = 0 … h8 = 63, piece
//! attacks as bit masks, and the 8 symmetries of the board (without pawns
//! and castling every rotation and reflection preserves the rules, Ströhlein §9).

use std::sync::OnceLock;

/// A square 0..64: file = s % 8 (a..h), rank = s / 8 (1..8).
pub type Square = u8;

/// A chess man without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
}

impl Piece {
    /// English letter (K Q R B N).
    pub fn letter(self) -> char {
        match self {
            Piece::King => 'K',
            Piece::Queen => 'Q',
            Piece::Rook => 'R',
            Piece::Bishop => 'B',
            Piece::Knight => 'N',
        }
    }

    /// Parses an English (K Q R B N) or German (K D T L S) letter, any case.
    pub fn from_letter(c: char) -> Option<Piece> {
        match c.to_ascii_uppercase() {
            'K' => Some(Piece::King),
            'Q' | 'D' => Some(Piece::Queen),
            'R' | 'T' => Some(Piece::Rook),
            'B' | 'L' => Some(Piece::Bishop),
            'N' | 'S' => Some(Piece::Knight),
            _ => None,
        }
    }

    fn slides_straight(self) -> bool {
        matches!(self, Piece::Queen | Piece::Rook)
    }

    fn slides_diagonally(self) -> bool {
        matches!(self, Piece::Queen | Piece::Bishop)
    }
}

/// Square name such as `e4`.
pub fn square_name(s: Square) -> String {
    format!("{}{}", (b'a' + s % 8) as char, s / 8 + 1)
}

/// Parses a square name such as `e4`.
pub fn parse_square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0].to_ascii_lowercase()) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') * 8 + (b[0].to_ascii_lowercase() - b'a'))
}

/// Precomputed tables: leaper masks, rays, squares between, symmetries.
pub struct Geometry {
    king: [u64; 64],
    knight: [u64; 64],
    /// rays[dir][s]: squares from s outward in direction dir (0–3 straight, 4–7 diagonal).
    rays: Vec<Vec<Vec<Square>>>,
    /// between[a][b]: squares strictly between a and b on a common line (0 if none).
    between: Vec<[u64; 64]>,
    /// line[a][b]: 1 = same rank/file, 2 = same diagonal, 0 = neither (or a == b).
    line: Vec<[u8; 64]>,
    /// sym[t][s]: image of square s under symmetry t (t = 0 is the identity).
    sym: [[Square; 64]; 8],
}

const DIRS: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

fn on_board(f: i8, r: i8) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn leaper_mask(s: Square, steps: &[(i8, i8)]) -> u64 {
    let (f, r) = ((s % 8) as i8, (s / 8) as i8);
    steps.iter().filter(|(df, dr)| on_board(f + df, r + dr)).fold(0, |m, (df, dr)| m | 1u64 << ((r + dr) * 8 + f + df))
}

fn ray(s: Square, (df, dr): (i8, i8)) -> Vec<Square> {
    let (mut f, mut r) = ((s % 8) as i8 + df, (s / 8) as i8 + dr);
    let mut out = Vec::new();
    while on_board(f, r) {
        out.push((r * 8 + f) as Square);
        f += df;
        r += dr;
    }
    out
}

fn symmetry(t: usize, s: Square) -> Square {
    let (mut f, mut r) = (s % 8, s / 8);
    if t & 1 != 0 {
        f = 7 - f;
    }
    if t & 2 != 0 {
        r = 7 - r;
    }
    if t & 4 != 0 {
        std::mem::swap(&mut f, &mut r);
    }
    r * 8 + f
}

impl Geometry {
    fn build() -> Geometry {
        let king_steps: Vec<(i8, i8)> = DIRS.to_vec();
        let knight_steps = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
        let rays: Vec<Vec<Vec<Square>>> = DIRS.iter().map(|&d| (0..64).map(|s| ray(s, d)).collect()).collect();
        let mut between = vec![[0u64; 64]; 64];
        let mut line = vec![[0u8; 64]; 64];
        for (dir, per_square) in rays.iter().enumerate() {
            for a in 0..64usize {
                let mut mask = 0u64;
                for &b in &per_square[a] {
                    between[a][b as usize] = mask;
                    line[a][b as usize] = if dir < 4 { 1 } else { 2 };
                    mask |= 1 << b;
                }
            }
        }
        let mut sym = [[0; 64]; 8];
        for (t, table) in sym.iter_mut().enumerate() {
            for s in 0..64 {
                table[s as usize] = symmetry(t, s);
            }
        }
        Geometry {
            king: std::array::from_fn(|s| leaper_mask(s as Square, &king_steps)),
            knight: std::array::from_fn(|s| leaper_mask(s as Square, &knight_steps)),
            rays,
            between,
            line,
            sym,
        }
    }

    /// The shared tables (built on first use).
    pub fn get() -> &'static Geometry {
        static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
        GEOMETRY.get_or_init(Geometry::build)
    }

    /// Whether kings on a and b would touch.
    pub fn adjacent(&self, a: Square, b: Square) -> bool {
        self.king[a as usize] >> b & 1 != 0
    }

    /// Whether `piece` on `from` attacks `target`, with men on the squares of `occupied`.
    pub fn attacks(&self, piece: Piece, from: Square, target: Square, occupied: u64) -> bool {
        let (f, t) = (from as usize, target as usize);
        match piece {
            Piece::King => self.king[f] >> t & 1 != 0,
            Piece::Knight => self.knight[f] >> t & 1 != 0,
            _ => {
                let kind = self.line[f][t];
                let fits = (kind == 1 && piece.slides_straight()) || (kind == 2 && piece.slides_diagonally());
                fits && self.between[f][t] & occupied == 0
            }
        }
    }

    /// Calls `visit(square)` for every square `piece` on `from` reaches, stopping
    /// sliders at (and including) the first square of `occupied`.
    pub fn for_each_target(&self, piece: Piece, from: Square, occupied: u64, mut visit: impl FnMut(Square)) {
        let leaps = match piece {
            Piece::King => self.king[from as usize],
            Piece::Knight => self.knight[from as usize],
            _ => {
                let dirs = match piece {
                    Piece::Rook => 0..4,
                    Piece::Bishop => 4..8,
                    _ => 0..8,
                };
                for dir in dirs {
                    for &s in &self.rays[dir][from as usize] {
                        visit(s);
                        if occupied >> s & 1 != 0 {
                            break;
                        }
                    }
                }
                return;
            }
        };
        let mut m = leaps;
        while m != 0 {
            visit(m.trailing_zeros() as Square);
            m &= m - 1;
        }
    }

    /// The image of `s` under board symmetry `t` (0..8).
    pub fn transform(&self, t: usize, s: Square) -> Square {
        self.sym[t][s as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_basics() {
        let g = Geometry::get();
        let (a1, b2, h8, a8) = (0, 9, 63, 56);
        assert!(g.adjacent(a1, b2));
        assert!(g.attacks(Piece::Bishop, a1, h8, 0));
        assert!(!g.attacks(Piece::Bishop, a1, h8, 1 << 27));
        assert!(g.attacks(Piece::Rook, a1, a8, 0));
        assert!(!g.attacks(Piece::Rook, a1, h8, 0));
        let mut n = 0;
        g.for_each_target(Piece::Queen, 27, 0, |_| n += 1);
        assert_eq!(n, 27);
        assert_eq!(parse_square("e4"), Some(28));
        assert_eq!(square_name(28), "e4");
        let images: std::collections::BTreeSet<Square> = (0..8).map(|t| g.transform(t, 1)).collect();
        assert_eq!(images.len(), 8);
    }
}
