//! The record of an H-search run's derivations (`hsearch.rs` fills it when
//! asked; `derive.rs` writes the proof's derivation lines from it).

use super::nodeset::NodeSet;
use std::collections::HashMap;

/// How a kept connection was derived (node numbers of the run's graph).
#[derive(Clone, Debug, Default)]
pub(super) enum Why<S> {
    /// {x, y} is an edge of the graph.
    #[default]
    Base,
    /// AND over `mid` from the VCs (ends.0, a, mid) and (mid, b, ends.1).
    And { ends: (usize, usize), mid: usize, a: S, b: S },
    /// OR over the SCs of the pair with these carriers.
    Or(Vec<S>),
}

/// The derivations of a recorded run: the first derivation of each kept
/// connection, by (VC?, lower end, higher end, carrier). A rule application
/// reads only connections kept before it, so the records form no cycle.
#[derive(Default)]
pub(super) struct Trace<S> {
    /// The rule application being made (set before each addition).
    pub(super) current: Why<S>,
    /// The OR rule's family so far.
    pub(super) family: Vec<S>,
    /// The first derivation of each kept connection.
    pub(super) origins: HashMap<(bool, usize, usize, S), Why<S>>,
}

impl<S: NodeSet> Trace<S> {
    /// Records the connection just kept as derived by [`Trace::current`].
    pub(super) fn keep(&mut self, vc: bool, x: usize, y: usize, carrier: S) {
        let why = match std::mem::take(&mut self.current) {
            Why::Or(_) => Why::Or(self.family.clone()),
            other => other,
        };
        self.origins.entry((vc, x.min(y), x.max(y), carrier)).or_insert(why);
    }
}
