//! Optimality certificates: a file from which a small, independent checker
//! confirms a lower bound on the least total of a game (issue 27, item 1).
//! With a strategy tree of the same total (an upper bound, `verify`), the
//! two prove the optimum.
//!
//! **What is proved.** T(s, M), the least total of the codes of M in state s
//! (the definition of [`crate::search::perfect`]): if no admissible query
//! splits M, the game's terminal cost; else the least over the admissible
//! queries q that split M of |M| + Σ T(s·q, M_a) over the answer classes M_a
//! other than q's solving class. A certificate node claims T(s, M) ≥ L.
//!
//! **How a node is checked** ([`check`]): for every admissible query q that
//! splits M — one per orbit of the symmetries the node names, each given as a
//! word over the game's generators, which the checker verified once to
//! preserve every answer and to map M onto itself — |M| + Σ_a LB(M_a) ≥ L,
//! where LB(M_a) is the claim of a child node for M_a (inline, or a node for
//! the same state and codes checked earlier), else the counting bound the
//! checker computes itself: no query at or below the node has more than s
//! classes other than its solving one (s, the most over the queries here;
//! subsets only merge classes), each node of a strategy finds at most one
//! code, so at most s^(k−1) codes are found by the k-th query (games without
//! a solving answer: the leaf bound of [`leaf`]). Without a
//! splitting query, the terminal cost ≥ L. The child sets are derived by the
//! checker from the answers, never read from the file; classes strictly
//! shrink, so the claims hold by induction on |M|.
//!
//! **Independence.** [`check`] uses of the program only the game's per-code
//! answer function ([`crate::search::tree::Replay::replay_answer`]), its
//! admissibility, states, solving answers and terminal cost, and the
//! symmetry generators of [`Certify`] (verified before use). The builder
//! ([`build`]) asks the perfect search for values and shares the checker's
//! node examination so both see the same queries in the same order.
//!
//! The file format is in [`format`].

pub mod build;
pub mod check;
pub mod context;
pub mod depth_bound;
pub mod depth_checkpoint;
pub mod format;
pub mod leaf;
pub mod packed_body;

use crate::search::delegate::delegating_trait;
use crate::search::tree::Replay;
use crate::search::{CodeId, Delegate, QueryId, Rules, SameRules, SearchProblem};

pub use build::{BuildStats, build_certificate};
pub use check::{CheckReport, check_certificate};
pub use depth_bound::depth_bound_certificate;
pub use format::{CertificateFile, Header, read_certificate, write_certificate};

delegating_trait! {
    /// What a game offers certificates beyond [`Replay`]. A game with the
    /// rules of another ([`SameRules`]) offers that game's.
    pub trait Certify: Replay;
    delegated where {
        D: SameRules + SearchProblem,
        D: Rules<State = <<D as Delegate>::To as Rules>::State, Set = <<D as Delegate>::To as Rules>::Set>,
        <D as Delegate>::To: Certify,
    }
    required {
        /// Whether `query` may be admissible in `state` or in any state after it
        /// (a superset is safe; the counting bound takes the most classes over these).
        fn admissible_below(&self, state: &Self::State, query: QueryId) -> bool;
    }
    provided {
        /// Symmetries the checker may use, as permutations of the code ids and
        /// of the query ids. The checker verifies each before use: answers,
        /// solving answers and admissibility in every state are preserved
        /// (offered only by games whose state is trivial). Default: none.
        fn symmetry_generators(&self) -> Vec<(Vec<CodeId>, Vec<QueryId>)> {
            Vec::new()
        }
        /// For the builder: symmetries other than the identity that map `set`
        /// onto itself, each as a word over [`Self::symmetry_generators`]
        /// (applied first to last). Default: none.
        fn stabilizer_words(&self, _state: &Self::State, _set: &Self::Set) -> Vec<Vec<u8>> {
            Vec::new()
        }
        /// For games too large to try every pair of codes (the checker does so up
        /// to [`context::PAIRS_TRIED`] pairs): a floor on the terminal cost of any
        /// two codes that the game proves from its code table alone, without the
        /// search (Beams: every colour covers exactly p cells of every code, so two
        /// codes differ in at least two cells, and a pair's penalty is their
        /// distance). Default: none (the leaf bound then takes 0).
        fn pair_cost_floor(&self) -> Option<u64> {
            None
        }
    }
}
