//! The two-player games solved on the game-graph layer ([`crate::graph`]):
//! Ströhlein's chess endgames ([`chess`], seed 000), the Nim family and the
//! other games of the Sprague-Grundy lecture and the thesis' chapters 2–3
//! ([`nim`], seeds 003, 002) and the connection games Bridg-It and Hex
//! ([`connection`], thesis chapter 5, seed 004).

pub mod chess;
pub mod connection;
pub mod nim;
