//! Connection games on graphs, clients of the game-graph layer ([`crate::graph`]).

pub mod bridgit;
