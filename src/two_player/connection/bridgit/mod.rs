//! Bridg-It and the Shannon switching game (thesis ch. 5;
//! `../shared/reference/seed002-ch1235.md §4`).
//!
//! - [`board`]: the game graph with two terminals, Bridg-It graphs of order M
//!   (Def 5.5) with the thesis' cell names, edge-list input, the planar dual (Satz 5.4).
//! - [`position`]: a position (deleted and marked edges), its contraction and the win tests.
//! - [`network`]: the resistor network of a position (marked edges merged, deleted
//!   removed, split-off parts dropped); [`solver`]: its float solvers (direct,
//!   Gauss–Seidel/SOR) behind one interface; [`iterative`]: the SOR sweeps and their
//!   certified stopping bound.
//! - [`exact`]: exact potentials by modular elimination and CRT.
//! - [`heuristic`]: Shannon's rule, the edge with the largest |x_i − x_j|, ties exact.
//! - [`analysis`]: exact results over all tie choices on the game-graph layer;
//!   [`estimate`]: the memory its explorations need, checked before they start.
//! - [`lehman`]: perfect play (Satz 5.2): two edge-disjoint spanning trees;
//!   [`tree_check`]: its tree strategy checked against every Cut play;
//!   [`reduced_check`]: the tree strategy on a shrinking core, checked up to isomorphism
//!   (M ≤ 5), on the graphs of [`core_graph`].
//! - [`agents`]: randomised agents (5.4) and their exact win probabilities.
//! - [`simulate`]: seeded Monte-Carlo simulation of agent pairs, MC(k), Wilson intervals.
//! - [`lanes`]: several temperatures evaluated in one induction.
//! - [`mc_exact`]: exact win probabilities of MC(k) Short against the heuristic (small boards).

pub mod agents;
pub mod analysis;
pub mod board;
pub mod core_graph;
pub mod edge_set;
pub mod estimate;
pub mod exact;
pub mod heuristic;
pub mod iterative;
pub mod lanes;
pub mod lehman;
pub mod mc_exact;
pub mod network;
pub mod position;
pub mod reduced_check;
pub mod simulate;
pub mod solver;
pub mod tree_check;
