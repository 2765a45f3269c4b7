//! Connection games on graphs, clients of the game-graph layer ([`crate::graph`]):
//! Bridg-It / the Shannon switching game (thesis chapter 5) and Hex with
//! H-search virtual connections (seed 004).

pub mod bridgit;
pub mod hex;
