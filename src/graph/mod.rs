//! The game-graph solver: one engine for two-player games on finite graphs.
//!
//! - [`value`]: win / loss / draw with a depth in plies, from the mover's view.
//! - [`retrograde`]: counter-based retrograde analysis (Ströhlein 1970, S5.3/S5.4
//!   and §8.4 "Rückrechnung") over any [`retrograde::RetroGraph`]: weighted
//!   predecessor generation, exits to already solved subgames, terminal draws.
//! - [`explicit`]: a game given only by its successors, turned into an explicit
//!   graph with predecessor lists (the forward fallback).
//! - [`fixpoint`]: Ströhlein's Boolean fixed-point iteration (S5.3, S6.2) on
//!   explicit graphs, kept as an independent oracle, and kernels (S6.3, S6.4).
//! - [`grundy`]: Sprague-Grundy values by mex, sums by XOR, heap games.
//! - [`payoff`]: constant-sum payoff games (C1H): u = c − min u(successor).
//! - [`loopy`]: generalised Sprague-Grundy values (Smith, Fraenkel–Yesha) for
//!   graphs with cycles: infinite values ∞(K) instead of false losses.
//! - [`stochastic`]: values of stochastic policies on acyclic graphs (win
//!   probabilities, not only W/L/D), with [`mc_select`] and [`mc_agents`] for the
//!   pure Monte-Carlo agents of thesis ch. 2, in the number types of [`scalar`].
//!
//! Clients: [`crate::two_player::chess`] (pawnless endgames) and [`crate::two_player::nim`] (the Nim family).

pub mod explicit;
pub mod fixpoint;
pub mod grundy;
pub mod loopy;
pub mod mc_agents;
pub mod mc_float;
pub mod mc_quadratic;
pub mod mc_select;
pub mod payoff;
pub mod retrograde;
pub mod scalar;
pub mod stochastic;
pub mod value;

pub use value::WinLossDraw;
