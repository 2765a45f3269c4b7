//! The certificate checker: small and independent of the search (see the
//! module notes of [`super`]). It builds its own answer table from the
//! game's per-code answer function, verifies the symmetry generators once,
//! and checks every node of the body in preorder; the first node whose
//! inequality fails (or that is malformed) is named with its path.
//!
//! Body of a certificate (all integers LEB128 varints), one node:
//! claim L; the number of symmetry words, each as its length and generator
//! indices (one byte each); the number of children, then per child the gap
//! to its position (positions number the open classes of the splitting
//! orbit representatives in query order, then answer order; gap = position
//! − previous position − 1, the first from −1) and a tag: 0 = the child node
//! follows inline, 1 = the node of the same state and codes checked earlier.

use super::Certify;
use super::context::Context;
use crate::error::{Result, invalid};
use crate::search::{AnswerId, CodeId, QueryId};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::time::Instant;

/// Checked nodes of at most this many codes are remembered by their key
/// (state, codes) for later references; larger ones by a 64-bit hash of the
/// key and the step from their parent, and a reference to one is confirmed by
/// deriving its key again from the root (a hash only finds the candidates,
/// so a collision can never pass a reference). Keys of all nodes took 4.9 KB
/// per node on Beams(6c,3p)'s depth-3 certificate, 7.9 GB in all.
const KEYS_KEPT_UP_TO: usize = 64;

/// What a check established.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CheckReport {
    /// The lower bound proven for the least total at the root.
    pub bound: u64,
    pub nodes: u64,
    /// Answers looked up in the table: Σ over nodes of |M| × queries examined.
    pub lookups: u64,
    /// Seconds for the answer table and the generator checks (within `seconds`).
    pub table_seconds: f64,
    pub seconds: f64,
}

struct Checker<'a, 'b, P: Certify> {
    ctx: &'b Context<'a, P>,
    body: &'b [u8],
    pos: usize,
    nodes: u64,
    lookups: u64,
    /// Claims of checked small nodes by key.
    proven: HashMap<(P::State, Vec<CodeId>), u64>,
    /// Checked large nodes by the hash of their key: (node index, claim).
    proven_large: HashMap<u64, Vec<(u64, u64)>>,
    /// Large nodes below the root: node index → (parent index, query, answer).
    steps: HashMap<u64, (u64, QueryId, AnswerId)>,
    /// [`KEYS_KEPT_UP_TO`] (smaller in tests, to send every node through the hashes); `None`:
    /// no node is remembered, and a reference stops the pass.
    keys_kept_up_to: Option<usize>,
    /// Set when a pass that remembers nothing met a reference.
    met_reference: bool,
}

/// Reads one LEB128 varint from `body` at `pos`.
pub(crate) fn read_varint(body: &[u8], pos: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *body.get(*pos)?;
        *pos += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

/// Checks a certificate body for `problem` and returns the bound proven at
/// the root, or a one-line error naming the first bad node.
///
/// The check first remembers no node at all, so a body without references
/// (a depth-bound certificate, `depth_bound.rs`) is checked in memory that
/// does not grow with its nodes. At the first reference that pass stops and
/// the check starts again from the root keeping keys (see [`KEYS_KEPT_UP_TO`]):
/// every answer still comes from one whole pass over the body.
pub fn check_certificate<P: Certify>(problem: &P, body: &[u8]) -> Result<CheckReport> {
    let clock = Instant::now();
    let ctx = Context::new(problem)?;
    let table_seconds = clock.elapsed().as_secs_f64();
    match check_pass(&ctx, body, None)? {
        Some((bound, nodes, lookups)) => {
            Ok(CheckReport { bound, nodes, lookups, table_seconds, seconds: clock.elapsed().as_secs_f64() })
        }
        None => check_keeping_keys(&ctx, body, KEYS_KEPT_UP_TO, clock, table_seconds),
    }
}

/// The pass of [`check_certificate`] that keeps the keys of nodes of up to
/// `keys_kept_up_to` codes (and the steps of larger ones).
fn check_keeping_keys<P: Certify>(
    ctx: &Context<'_, P>,
    body: &[u8],
    keys_kept_up_to: usize,
    clock: Instant,
    table_seconds: f64,
) -> Result<CheckReport> {
    let (bound, nodes, lookups) = check_pass(ctx, body, Some(keys_kept_up_to))?
        .ok_or_else(|| invalid("certificate: a reference left unresolved with keys kept"))?;
    Ok(CheckReport { bound, nodes, lookups, table_seconds, seconds: clock.elapsed().as_secs_f64() })
}

/// One pass over `body`: (bound, nodes, lookups), or `None` when it remembers
/// nothing (`keys` = None) and meets a reference.
fn check_pass<P: Certify>(ctx: &Context<'_, P>, body: &[u8], keys: Option<usize>) -> Result<Option<(u64, u64, u64)>> {
    let problem = ctx.problem;
    let mut checker = Checker::new(ctx, body, keys);
    let all: Vec<CodeId> = (0..problem.code_count() as CodeId).collect();
    let bound = match checker.node(problem.initial_state(), all, &mut Vec::new(), None) {
        Ok(bound) => bound,
        Err(_) if checker.met_reference => return Ok(None),
        Err(e) => return Err(invalid(e)),
    };
    if checker.pos != body.len() {
        return Err(invalid(format!("certificate: {} bytes after the last node", body.len() - checker.pos)));
    }
    Ok(Some((bound, checker.nodes, checker.lookups)))
}

impl<'a, 'b, P: Certify> Checker<'a, 'b, P> {
    /// A checker at the start of `body`, nothing proven yet.
    fn new(ctx: &'b Context<'a, P>, body: &'b [u8], keys_kept_up_to: Option<usize>) -> Self {
        Checker {
            ctx,
            body,
            pos: 0,
            nodes: 0,
            lookups: 0,
            proven: HashMap::new(),
            proven_large: HashMap::new(),
            steps: HashMap::new(),
            keys_kept_up_to,
            met_reference: false,
        }
    }

    fn varint(&mut self, index: u64, path: &[(QueryId, AnswerId)]) -> std::result::Result<u64, String> {
        read_varint(self.body, &mut self.pos).ok_or_else(|| self.name(index, path, "the file ends inside the node"))
    }

    fn name(&self, index: u64, path: &[(QueryId, AnswerId)], what: &str) -> String {
        let steps: Vec<String> =
            path.iter().map(|&(q, a)| format!("{} answer {a}", self.ctx.problem.query_label(q))).collect();
        let at = if steps.is_empty() { "the root".to_string() } else { steps.join(", ") };
        format!("certificate node {index} (after {at}): {what}")
    }

    /// The node's stabilizer words at the read position (a count, then each
    /// word as its length and bytes).
    fn stabilizer_words(
        &mut self,
        index: u64,
        path: &[(QueryId, AnswerId)],
    ) -> std::result::Result<Vec<Vec<u8>>, String> {
        let mut words = Vec::new();
        for _ in 0..self.varint(index, path)? {
            let len = self.varint(index, path)? as usize;
            let word = self.body.get(self.pos..self.pos + len).ok_or_else(|| self.name(index, path, "truncated"))?;
            words.push(word.to_vec());
            self.pos += len;
        }
        Ok(words)
    }

    /// Checks the node of (`state`, `codes`) at the read position and returns
    /// its claim; `parent` is the index of the node whose child it is (the
    /// step from it is the last of `path`).
    fn node(
        &mut self,
        state: P::State,
        codes: Vec<CodeId>,
        path: &mut Vec<(QueryId, AnswerId)>,
        parent: Option<u64>,
    ) -> std::result::Result<u64, String> {
        let index = self.nodes;
        self.nodes += 1;
        if let (Some(parent), Some(&(q, a)), Some(kept)) = (parent, path.last(), self.keys_kept_up_to)
            && codes.len() > kept
        {
            self.steps.insert(index, (parent, q, a));
        }
        let claim = self.varint(index, path)?;
        let words = self.stabilizer_words(index, path)?;
        let seen = self.ctx.examine(&state, &codes, &words).map_err(|e| self.name(index, path, &e))?;
        self.lookups += seen.lookups;
        let m = codes.len() as u64;
        // Per representative: what its children add over the simple bounds.
        let mut raised: HashMap<usize, u64> = HashMap::new();
        let mut at: i64 = -1;
        for _ in 0..self.varint(index, path)? {
            at += 1 + self.varint(index, path)? as i64;
            if at as usize >= seen.positions() {
                return Err(self.name(index, path, "a child beyond the classes"));
            }
            let (rep, a) = seen.at(at as usize);
            let q = seen.reps[rep];
            let child = (self.ctx.problem.next_state(&state, q), self.ctx.class(q, a, &codes));
            let n = child.1.len() as u64;
            let value = match self.varint(index, path)? {
                0 => {
                    path.push((q, a));
                    let v = self.node(child.0, child.1, path, Some(index))?;
                    path.pop();
                    v
                }
                1 => self.reference(&child, index, path, (q, a))?,
                _ => return Err(self.name(index, path, "an unknown child tag")),
            };
            *raised.entry(rep).or_insert(0) += value.saturating_sub(self.ctx.simple_bound(seen.s, n));
        }
        if seen.reps.is_empty() {
            let cost = self.ctx.terminal_cost(&codes);
            if cost.is_none_or(|c| c < claim) {
                return Err(self.name(index, path, &format!("claims {claim} but the set is terminal at {cost:?}")));
            }
        }
        for r in 0..seen.reps.len() {
            let extra = raised.get(&r).copied().unwrap_or(0);
            if self.ctx.quick_bound(&seen, r, m) + extra >= claim {
                continue;
            }
            self.lookups += m;
            let classes = self.ctx.open_classes(&seen, r, &codes);
            let total = m + classes.iter().map(|&(_, n)| self.ctx.simple_bound(seen.s, n)).sum::<u64>() + extra;
            if total < claim {
                let q = self.label(seen.reps[r]);
                return Err(self.name(
                    index,
                    path,
                    &format!("claims {claim} but query {q} is only bounded by {total}"),
                ));
            }
        }
        let Some(kept) = self.keys_kept_up_to else {
            return Ok(claim);
        };
        if codes.len() > kept {
            self.proven_large.entry(key_hash(&state, &codes)).or_default().push((index, claim));
        } else {
            self.proven.entry((state, codes)).and_modify(|c| *c = (*c).max(claim)).or_insert(claim);
        }
        Ok(claim)
    }

    /// The claim of the child `child` (step `q`, `a` from node `index`) that a reference names: the
    /// largest checked so far, or an error; in the pass that keeps no keys, the error that stops it.
    fn reference(
        &mut self,
        child: &(P::State, Vec<CodeId>),
        index: u64,
        path: &[(QueryId, AnswerId)],
        (q, a): (QueryId, AnswerId),
    ) -> std::result::Result<u64, String> {
        if self.keys_kept_up_to.is_none() {
            self.met_reference = true;
            return Err(self.name(index, path, "a reference (the pass that keeps no keys stops)"));
        }
        self.proven_claim(child).ok_or_else(|| {
            self.name(index, path, &format!("a reference to an unproven class ({} answer {a})", self.label(q)))
        })
    }

    /// The largest claim checked so far for the node `key`, if any.
    fn proven_claim(&self, key: &(P::State, Vec<CodeId>)) -> Option<u64> {
        if key.1.len() <= self.keys_kept_up_to.unwrap_or(usize::MAX) {
            return self.proven.get(key).copied();
        }
        let candidates = self.proven_large.get(&key_hash(&key.0, &key.1))?;
        candidates.iter().filter(|&&(node, _)| self.key_of(node) == *key).map(|&(_, claim)| claim).max()
    }

    /// The key of a large node, derived again from the root along its steps.
    fn key_of(&self, mut node: u64) -> (P::State, Vec<CodeId>) {
        let mut steps = Vec::new();
        while let Some(&(parent, q, a)) = self.steps.get(&node) {
            steps.push((q, a));
            node = parent;
        }
        let problem = self.ctx.problem;
        let mut key = (problem.initial_state(), (0..problem.code_count() as CodeId).collect::<Vec<_>>());
        for &(q, a) in steps.iter().rev() {
            key = (problem.next_state(&key.0, q), self.ctx.class(q, a, &key.1));
        }
        key
    }

    fn label(&self, q: QueryId) -> String {
        self.ctx.problem.query_label(q)
    }
}

/// A 64-bit hash of a node's key (fixed keys: the same in every run).
fn key_hash<S: Hash>(state: &S, codes: &[CodeId]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    state.hash(&mut hasher);
    codes.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::certificate::build_certificate;
    use crate::games::mastermind::Mastermind;
    use crate::search::perfect::solve_perfect;

    /// MM-1296's certificate (which refers back to checked nodes) checks to
    /// 5625 whether small nodes are kept by key or every node goes through
    /// the hash and the derivation from the root; the pass that keeps no
    /// keys stops at its first reference and the check starts again with
    /// keys; and a node whose hash a reference hits but whose key differs is
    /// not taken for it.
    #[test]
    fn references_resolve_by_key_and_by_hash_alike() {
        let game = Mastermind::new(4, 6, false).unwrap();
        let (result, search) = solve_perfect(&game);
        let (body, stats) = build_certificate(&search, &game, result.total).unwrap();
        assert!(stats.references > 0, "the certificate has references");
        let ctx = Context::new(&game).unwrap();
        for kept in [KEYS_KEPT_UP_TO, 0] {
            let report = check_keeping_keys(&ctx, &body, kept, Instant::now(), 0.0).unwrap();
            assert_eq!((report.bound, report.nodes), (5625, stats.nodes), "keys kept up to {kept}");
        }
        assert_eq!(check_pass(&ctx, &body, None).unwrap(), None, "the pass without keys stops");
        let report = check_certificate(&game, &body).unwrap();
        assert_eq!((report.bound, report.nodes), (5625, stats.nodes));
        let mut checker = Checker::new(&ctx, &body, Some(0));
        let all: Vec<CodeId> = (0..1296).collect();
        let key = ((), all[..100].to_vec());
        // Node 0 (the root, all codes) filed under the hash of another key.
        checker.proven_large.insert(key_hash(&key.0, &key.1), vec![(0, 9999)]);
        assert_eq!(checker.proven_claim(&key), None);
        assert_eq!(checker.proven_claim(&((), all.clone())), None, "not filed under its own hash");
        checker.proven_large.insert(key_hash(&(), &all), vec![(0, 5625)]);
        assert_eq!(checker.proven_claim(&((), all)), Some(5625));
    }

    /// A depth-bound certificate has no references: the pass that keeps no
    /// keys checks it whole, to the bound and node count of the pass that
    /// keeps them (MM(3,4) at depth 2).
    #[test]
    fn a_body_without_references_is_checked_without_keys() {
        use crate::certificate::depth_bound_certificate;
        use crate::progress::Progress;
        let game = Mastermind::new(3, 4, false).unwrap();
        let (bound, body, stats) = depth_bound_certificate(&game, 2, None, &Progress::none()).unwrap();
        let ctx = Context::new(&game).unwrap();
        let keyless = check_pass(&ctx, &body, None).unwrap().expect("no reference met");
        let kept = check_keeping_keys(&ctx, &body, KEYS_KEPT_UP_TO, Instant::now(), 0.0).unwrap();
        assert_eq!(keyless, (bound, stats.nodes, kept.lookups));
        assert_eq!((kept.bound, kept.nodes), (bound, stats.nodes));
    }
}
