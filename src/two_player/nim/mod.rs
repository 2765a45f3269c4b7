//! The Nim family of seed003 (Eisermann, Kapitel C) as clients of the
//! game-graph solver [`crate::graph`]: every game is either a heap game
//! ([`crate::graph::grundy::HeapRule`]) or an explicit graph explored from its
//! rules and solved by the common engines (retrograde W/L/D, mex, generalised
//! Sprague-Grundy values).
//!
//! - [`heaps`]: subtraction games (μ, ν, γ), Nim and its moves to any value.
//! - [`boards`]: Chomp on rectangles and posets.
//! - [`cram`]: Cram ("Fliesentetris"), solved as sums of its regions.
//! - [`loopy_games`]: Poker-Nim and Northcott's game (graphs with cycles).
//! - [`mc_games`]: the races and subtraction games of thesis ch. 2 for the
//!   Monte-Carlo agents ([`crate::graph::mc_agents`]).
//! - [`mc_asymmetric`]: MC(∞) on S(1,2) with asymmetric random play (thesis ch. 3).
//! - [`tictactoe`]: a game with terminal draws (the draw branch of the solver).

pub mod boards;
pub mod cram;
pub mod heaps;
pub mod loopy_games;
pub mod mc_asymmetric;
pub mod mc_games;
pub mod tictactoe;
