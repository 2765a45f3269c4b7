//! Deduction games: each is a client of the generic core in [`crate::search`].

pub mod beams;
pub mod mastermind;
