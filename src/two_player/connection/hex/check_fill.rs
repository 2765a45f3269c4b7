//! The proof checker's own test of fill-in claims (`check.rs`; the rules and
//! their soundness argument: `docs/hex.md`, "Fill-in"). It shares no code with
//! the solver's `inferior.rs`: neighbours from (column, row) pairs, groups by
//! its own search, and the clique test written as "every two usable neighbours
//! touch" over an explicit list.
//!
//! A fill claim (cells for Black, cells for White) is accepted when the cells
//! can be placed one rule application at a time: a cell of one colour whose
//! every two neighbours usable by the other colour touch (the cell is useless
//! to him), or two adjacent cells of one colour each useless to the other
//! colour once the first colour holds the partner (a captured pair). Once the
//! cells placed complete a chain, the rest of the claim is accepted as it
//! stands (its cells are empty, checked by the caller): the position is decided
//! for that chain's player, and stones on empty cells keep his chain complete,
//! so the filled position has the same winner. (The clique test is for a player
//! whose chain is not complete; the solver may fill on after a chain closes in
//! the same pass, in another order than this check.)

use super::board::{Bits, Colour};

/// A neighbour of a cell as the player testing it sees it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Usable {
    /// An empty cell.
    Empty(usize),
    /// An own group (its lowest cell) touching no own edge.
    Group(usize),
    /// The own first (1) or second (2) edge with the groups touching it.
    Edge(u8),
}

/// The geometry of a cols×rows board.
pub(super) struct Geometry {
    pub(super) cols: usize,
    pub(super) rows: usize,
}

impl Geometry {
    fn neighbours(&self, c: usize) -> Vec<usize> {
        let (x, y) = ((c % self.cols) as i64, (c / self.cols) as i64);
        let (cols, rows) = (self.cols as i64, self.rows as i64);
        [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]
            .iter()
            .map(|(dx, dy)| (x + dx, y + dy))
            .filter(|&(nx, ny)| nx >= 0 && ny >= 0 && nx < cols && ny < rows)
            .map(|(nx, ny)| (ny * cols + nx) as usize)
            .collect()
    }

    fn touches(&self, a: usize, b: usize) -> bool {
        self.neighbours(a).contains(&b)
    }

    /// Whether cell `c` lies on `colour`'s edge `which` (1: top row / left column).
    fn on_edge(&self, colour: Colour, which: u8, c: usize) -> bool {
        let (x, y) = (c % self.cols, c / self.cols);
        match (colour, which) {
            (Colour::Black, 1) => y == 0,
            (Colour::Black, _) => y == self.rows - 1,
            (Colour::White, 1) => x == 0,
            (Colour::White, _) => x == self.cols - 1,
        }
    }

    /// The stones of `stones` connected to `start`, by a work list.
    fn group(&self, start: usize, stones: Bits) -> Vec<usize> {
        let (mut seen, mut list) = (vec![start], 0);
        while list < seen.len() {
            for n in self.neighbours(seen[list]) {
                if stones >> n & 1 == 1 && !seen.contains(&n) {
                    seen.push(n);
                }
            }
            list += 1;
        }
        seen
    }

    /// How `colour` (stones `own`) sees the neighbour `n` of a cell; `None` for opponent stones.
    fn usable(&self, colour: Colour, own: Bits, opp: Bits, n: usize) -> Option<Usable> {
        if opp >> n & 1 == 1 {
            return None;
        }
        if own >> n & 1 == 0 {
            return Some(Usable::Empty(n));
        }
        let group = self.group(n, own);
        for which in [1, 2] {
            if group.iter().any(|&s| self.on_edge(colour, which, s)) {
                return Some(Usable::Edge(which));
            }
        }
        Some(Usable::Group(*group.iter().min().expect("the group holds n")))
    }

    /// Whether two usable neighbours touch without the tested cell.
    fn joined(&self, colour: Colour, own: Bits, p: Usable, q: Usable) -> bool {
        let stone_next_to = |f: usize, node: Usable| {
            self.neighbours(f).into_iter().any(|s| own >> s & 1 == 1 && self.usable(colour, own, 0, s) == Some(node))
        };
        match (p, q) {
            (Usable::Empty(a), Usable::Empty(b)) => self.touches(a, b),
            (Usable::Empty(f), Usable::Edge(which)) | (Usable::Edge(which), Usable::Empty(f)) => {
                self.on_edge(colour, which, f) || stone_next_to(f, Usable::Edge(which))
            }
            (Usable::Empty(f), g @ Usable::Group(_)) | (g @ Usable::Group(_), Usable::Empty(f)) => stone_next_to(f, g),
            (a, b) => a == b,
        }
    }

    /// Whether the empty cell `c` is useless to `colour`: every two usable neighbours touch.
    pub(super) fn useless(&self, colour: Colour, own: Bits, opp: Bits, c: usize) -> bool {
        let mut usable: Vec<Usable> =
            self.neighbours(c).into_iter().filter_map(|n| self.usable(colour, own, opp, n)).collect();
        for which in [1, 2] {
            if self.on_edge(colour, which, c) {
                usable.push(Usable::Edge(which));
            }
        }
        usable
            .iter()
            .enumerate()
            .all(|(i, &p)| usable[i + 1..].iter().all(|&q| p == q || self.joined(colour, own, p, q)))
    }

    /// Whether `colour`'s stones `own` join his two edges.
    fn joins(&self, colour: Colour, own: Bits) -> bool {
        (0..self.cols * self.rows)
            .filter(|&c| own >> c & 1 == 1 && self.on_edge(colour, 1, c))
            .any(|c| self.group(c, own).iter().any(|&s| self.on_edge(colour, 2, s)))
    }

    /// Whether the claim "fill `fill_black` with Black and `fill_white` with
    /// White" holds at the position (`black`, `white`) (module doc).
    pub(super) fn fill_holds(&self, black: Bits, white: Bits, fill_black: Bits, fill_white: Bits) -> bool {
        let (mut b, mut w) = (black, white);
        let mut pending: Vec<(usize, Colour)> = (0..self.cols * self.rows)
            .filter_map(|c| match (fill_black >> c & 1, fill_white >> c & 1) {
                (1, 0) => Some((c, Colour::Black)),
                (0, 1) => Some((c, Colour::White)),
                _ => None,
            })
            .collect();
        while !pending.is_empty() {
            let before = pending.len();
            let mut i = 0;
            while i < pending.len() {
                let (c, colour) = pending[i];
                let (own, opp) = if colour == Colour::Black { (b, w) } else { (w, b) };
                let partner = || {
                    pending.iter().position(|&(d, k)| {
                        k == colour
                            && self.touches(c, d)
                            && self.useless(colour.other(), opp, own | 1 << d, c)
                            && self.useless(colour.other(), opp, own | 1 << c, d)
                    })
                };
                let placed = if self.useless(colour.other(), opp, own, c) {
                    vec![c]
                } else if let Some(j) = partner() {
                    vec![c, pending[j].0]
                } else {
                    i += 1;
                    continue;
                };
                for p in placed {
                    if colour == Colour::Black {
                        b |= 1 << p
                    } else {
                        w |= 1 << p
                    }
                    pending.retain(|&(d, _)| d != p);
                }
                if self.joins(Colour::Black, b) || self.joins(Colour::White, w) {
                    return true;
                }
            }
            if pending.len() == before {
                return false;
            }
        }
        true
    }
}
