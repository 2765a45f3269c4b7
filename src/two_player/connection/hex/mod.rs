//! Hex with virtual connections, after seed 004 (Kiefer 2003, "Die Menge der
//! Virtuellen Verbindungen im Spiel Hex ist PSPACE-vollständig"; notes in
//! `../shared/reference/seed004-hex.md`).
//!
//! - [`board`]: n×m boards as 128-bit bitboards (n, m ≤ 11), coordinates `a1`…,
//!   the six neighbours, the winning-chain test.
//! - [`position`]: stones and side to move; text diagrams and SGF (FF[4], GM[11]).
//! - [`graph`]: general Hex graphs (Def 2.1) and the graph of a position from one
//!   player's view (own groups merged, opponent stones deleted, edges occupied).
//! - [`hsearch`]: H-search (Def 3.1): VCs and SCs with inclusion-minimal carriers,
//!   exhaustive or bounded, and the mustplay region.
//! - [`solver`]: an exact depth-first solver with a transposition table, pruned by
//!   H-search (edge VCs end the search, mustplay restricts moves), writing proofs.
//! - `root`: the replies to a position in the solver's own order (the split map job's units).
//! - [`settings`]: the solver's settings as one stable text (`Solver::describe`, a run's identity).
//! - [`snapshot`]: a df-pn solve's tables as a checkpoint file (a solve resumed by a later process).
//! - [`forget`]: a df-pn solve in slices that forgets undecided positions between slices (bounded tables).
//! - `dfpn`: depth-first proof-number search, the solver's default search; `counts`: what it did;
//!   `report`: the status it reports while it runs (positions, tables, root numbers, memory, CPU).
//! - `support`: proof-set pruning: a refuted move's support cuts its siblings (and carried refutations).
//! - `reuse`: H-search results carried two plies down the df-pn path (incremental H-search).
//! - [`proof`] and [`check`]: the proof file and its independent checker.
//! - [`derive`]: H-search derivations of the proof's carriers, checked rule by rule.
//! - `nodeset`: the node sets of H-search's tables; `trace`: the record of a run's derivations.
//! - [`inferior`]: fill-in of useless cells and captured pairs (value-preserving).
//! - `check_fill`: the checker's own re-derivation of fill-in claims.
//! - [`plain`]: plain exhaustive minimax, an oracle for small boards.
//! - [`dvls`]: direct-connecting local strategies (Alg 6.13), a second VC decision.
//! - [`seed_checks`]: the seed's statements checked by computation.
//! - [`witness`]: the smallest real-board witnesses of HEX ∖ HEXY (§9.16), fast: exact tables, a bounded filter.

pub mod board;
pub mod check;
mod check_fill;
mod counts;
pub mod derive;
mod dfpn;
pub mod dvls;
pub mod forget;
pub mod graph;
pub mod hsearch;
pub mod inferior;
mod nodeset;
pub mod plain;
pub mod position;
pub mod proof;
mod report;
mod reuse;
mod root;
pub mod seed_checks;
pub mod settings;
pub mod snapshot;
pub mod solver;
mod support;
mod trace;
pub mod witness;
