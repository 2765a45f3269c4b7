//! Random Hex positions for the integration tests (`#[path]`-included by
//! tests/hex_inferior.rs and tests/hex_support.rs).

use renyi_search::two_player::connection::hex::board::{Board, Colour};
use renyi_search::two_player::connection::hex::position::Position;

/// Random undecided positions of `n`×`n` with `stones` stones (alternating colours), from `seed`.
pub fn random_positions(n: usize, stones: usize, count: usize, seed: u64) -> Vec<Position> {
    let board = Board::new(n, n).unwrap();
    let mut state = seed;
    let mut next = |m: usize| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) as usize % m
    };
    let mut out = Vec::new();
    while out.len() < count {
        let mut p = Position::empty(board.clone());
        for k in 0..stones - next(3) {
            let free: Vec<usize> = (0..n * n).filter(|&c| p.free() >> c & 1 == 1).collect();
            let colour = if k % 2 == 0 { Colour::Black } else { Colour::White };
            p.play(colour, free[next(free.len())]).unwrap();
        }
        if p.winner().is_none() {
            out.push(p);
        }
    }
    out
}
