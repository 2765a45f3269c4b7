//! Inferior-cell fill-in: stones added to a position without changing its
//! value (soundness argument in `docs/hex.md`, "Fill-in"). Two rules:
//!
//! - **Useless cells.** A free cell c is useless to player X when its
//!   neighbourhood in X's Hex graph (`graph.rs`: X's groups merged with the
//!   edges they touch, opponent stones deleted) is a clique: at most one
//!   occupied node, every two free neighbours adjacent, every free neighbour
//!   adjacent to that node. Then a chain of X through c has its predecessor
//!   and successor adjacent and can skip c, so c lies in no minimal winning
//!   set of X; the property survives every further move of either player (a
//!   neighbour that X takes merges into the one occupied node, one that the
//!   opponent takes is deleted). Filling c with the opponent's stone keeps the
//!   value: the winner of the filled position wins without the stone as well
//!   (X plays as if c were his, takes another cell when the opponent takes c,
//!   and X's final chain never needed c). This covers the dead cells of the
//!   Hex literature (useless to both players).
//! - **Captured pairs.** Two adjacent free cells a, b are captured by X when a
//!   is useless to the opponent once X holds b, and b once X holds a: X answers
//!   the opponent's move in the pair inside it, after which the opponent's
//!   stone is useless to him, so X may fill both.
//!
//! A third use of the same rules prunes moves instead of filling cells:
//! **dominated cells** (`dominator`; Benzene's captured-dominated cells). If
//! after X's stone on d the cell c may be filled for X by the two rules above,
//! then X's move d is at least as good for X as c (the position after d has
//! the value of the one after d and c, which has every stone of the one after
//! c and more of X's), so c may be left out of X's moves while d stays
//! answered (`docs/hex.md`, "Dominated cells").
//!
//! The independent checker (`check_fill.rs`) re-derives every filled cell
//! with its own geometry; nothing here is trusted by it.

use super::board::{Bits, Board, Colour, cells_of};

/// An occupied node of one player's Hex graph: which edge it holds (0: none) and its stones.
type Node = (u8, Bits);

/// Whether the free cell `cell` is useless to `colour` (stones `own`, the opponent's `opp`):
/// its neighbourhood in `colour`'s Hex graph is a clique (module doc). Not for a player
/// whose chain is already complete.
pub fn useless_to(board: &Board, colour: Colour, own: Bits, opp: Bits, cell: usize) -> bool {
    let free = board.all() & !(own | opp);
    let around = board.neighbours(cell);
    let (first, second) = (board.first_edge(colour), board.second_edge(colour));
    let (to_first, to_second) = (board.flood(first & own, own), board.flood(second & own, own));
    let mut node: Option<Node> = None;
    let mut rows = 0;
    let mut join = |n: Node, edge_rows: Bits| match node {
        None => {
            node = Some(n);
            rows = edge_rows;
            true
        }
        Some(m) => m == n,
    };
    if first >> cell & 1 == 1 && !join((1, to_first), first) {
        return false;
    }
    if second >> cell & 1 == 1 && !join((2, to_second), second) {
        return false;
    }
    for s in cells_of(around & own) {
        let ok = if to_first >> s & 1 == 1 {
            join((1, to_first), first)
        } else if to_second >> s & 1 == 1 {
            join((2, to_second), second)
        } else {
            join((0, board.flood(1 << s, own)), 0)
        };
        if !ok {
            return false;
        }
    }
    let near = around & free;
    cells_of(near).all(|f| {
        let others_adjacent = near & !(1 << f) & !board.neighbours(f) == 0;
        let node_adjacent = node.is_none_or(|(_, stones)| rows >> f & 1 == 1 || board.neighbours(f) & stones != 0);
        others_adjacent && node_adjacent
    })
}

/// Whether the adjacent free cells `a` and `b` are captured by `colour` (module doc).
pub fn captured_pair(board: &Board, colour: Colour, own: Bits, opp: Bits, a: usize, b: usize) -> bool {
    let other = colour.other();
    useless_to(board, other, opp, own | 1 << b, a) && useless_to(board, other, opp, own | 1 << a, b)
}

/// A killer of the free cell `c` for the mover `colour` (stones `own`, the
/// opponent's `opp`): a free neighbour k of `c` such that `c` is dead (useless
/// to both players) once the opponent holds k; `None` if there is none. Such a
/// `c` is *vulnerable* and may be left out of the mover's moves (the theorem in
/// `docs/hex.md`, "Vulnerable cells"). Only neighbours are tried: if `c` is not
/// useless to the mover, an opponent stone changes the mover's view of `c`'s
/// neighbourhood only by deleting a neighbour (trying fewer killers prunes less,
/// never wrongly).
pub fn killer(board: &Board, colour: Colour, own: Bits, opp: Bits, c: usize) -> Option<usize> {
    let free = board.all() & !(own | opp);
    cells_of(board.neighbours(c) & free).find(|&k| {
        let opp = opp | 1 << k;
        useless_to(board, colour, own, opp, c) && useless_to(board, colour.other(), opp, own, c)
    })
}

/// A dominator of the free cell `c` for the mover `colour` (stones `own`, the
/// opponent's `opp`): a cell d of `allowed` (free, not `c`) such that once
/// `colour` holds d, `c` may be filled with `colour` by the fill-in rules —
/// `c` useless to the opponent, or `c` and a free neighbour e a pair captured
/// by `colour`. Then the position after d has the value of the one after d, `c`
/// (and e), which is at least as good for `colour` as the one after `c` (own
/// stones never hurt): if `colour` wins by `c` he wins by d, so `c` may be left
/// out of his moves while d stays (`docs/hex.md`, "Dominated cells"). Only the
/// d that can change the opponent's view of `c` or e are tried (neighbours of
/// `c` or e; the fill-in is at its fixpoint, so without d nothing is captured),
/// and only where at most two free neighbours of each can be left (more are
/// never pairwise adjacent); trying fewer prunes less, never wrongly.
pub fn dominator(board: &Board, colour: Colour, own: Bits, opp: Bits, c: usize, allowed: Bits) -> Option<usize> {
    let free = board.all() & !(own | opp);
    let (other, near) = (colour.other(), board.neighbours(c) & free);
    if near.count_ones() > 4 {
        return None;
    }
    let single = cells_of(near & allowed)
        .find(|&d| (near & !(1 << d)).count_ones() <= 2 && useless_to(board, other, opp, own | 1 << d, c));
    if single.is_some() {
        return single;
    }
    for e in cells_of(near) {
        let around_e = board.neighbours(e) & free & !(1 << c);
        for d in cells_of((near | around_e) & allowed & !(1 << c | 1 << e)) {
            let left = |set: Bits| (set & !(1 << d | 1 << e)).count_ones() <= 2;
            if left(near) && left(around_e) && captured_pair(board, colour, own | 1 << d, opp, c, e) {
                return Some(d);
            }
        }
    }
    None
}

/// The fill-in of a position to its fixpoint: the cells added for Black and
/// for White. Stops early once a player's chain is complete.
pub fn fill_in(board: &Board, black: Bits, white: Bits) -> (Bits, Bits) {
    let (mut b, mut w) = (black, white);
    loop {
        let before = (b, w);
        for c in cells_of(board.all() & !(b | w)) {
            if useless_to(board, Colour::White, w, b, c) {
                b |= 1 << c;
            } else if useless_to(board, Colour::Black, b, w, c) {
                w |= 1 << c;
            }
        }
        for a in cells_of(board.all() & !(b | w)) {
            for n in cells_of(board.neighbours(a) & !(b | w) & !((2 << a) - 1)) {
                if (b | w) >> a & 1 == 1 {
                    break;
                }
                if captured_pair(board, Colour::Black, b, w, a, n) {
                    b |= 1 << a | 1 << n;
                } else if captured_pair(board, Colour::White, w, b, a, n) {
                    w |= 1 << a | 1 << n;
                }
            }
        }
        if (b, w) == before || board.connects(Colour::Black, b) || board.connects(Colour::White, w) {
            return (b & !black, w & !white);
        }
    }
}
