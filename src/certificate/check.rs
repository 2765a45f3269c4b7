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
use std::time::Instant;

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
    proven: HashMap<(P::State, Vec<CodeId>), u64>,
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
pub fn check_certificate<P: Certify>(problem: &P, body: &[u8]) -> Result<CheckReport> {
    let clock = Instant::now();
    let ctx = Context::new(problem)?;
    let table_seconds = clock.elapsed().as_secs_f64();
    let mut checker = Checker { ctx: &ctx, body, pos: 0, nodes: 0, lookups: 0, proven: HashMap::new() };
    let all: Vec<CodeId> = (0..problem.code_count() as CodeId).collect();
    let bound = checker.node(problem.initial_state(), all, &mut Vec::new()).map_err(invalid)?;
    if checker.pos != body.len() {
        return Err(invalid(format!("certificate: {} bytes after the last node", body.len() - checker.pos)));
    }
    let (nodes, lookups, seconds) = (checker.nodes, checker.lookups, clock.elapsed().as_secs_f64());
    Ok(CheckReport { bound, nodes, lookups, table_seconds, seconds })
}

impl<P: Certify> Checker<'_, '_, P> {
    fn varint(&mut self, index: u64, path: &[(QueryId, AnswerId)]) -> std::result::Result<u64, String> {
        read_varint(self.body, &mut self.pos).ok_or_else(|| self.name(index, path, "the file ends inside the node"))
    }

    fn name(&self, index: u64, path: &[(QueryId, AnswerId)], what: &str) -> String {
        let steps: Vec<String> =
            path.iter().map(|&(q, a)| format!("{} answer {a}", self.ctx.problem.query_label(q))).collect();
        let at = if steps.is_empty() { "the root".to_string() } else { steps.join(", ") };
        format!("certificate node {index} (after {at}): {what}")
    }

    /// Checks the node of (`state`, `codes`) at the read position and returns its claim.
    fn node(
        &mut self,
        state: P::State,
        codes: Vec<CodeId>,
        path: &mut Vec<(QueryId, AnswerId)>,
    ) -> std::result::Result<u64, String> {
        let index = self.nodes;
        self.nodes += 1;
        let claim = self.varint(index, path)?;
        let mut words = Vec::new();
        for _ in 0..self.varint(index, path)? {
            let len = self.varint(index, path)? as usize;
            let word = self.body.get(self.pos..self.pos + len).ok_or_else(|| self.name(index, path, "truncated"))?;
            words.push(word.to_vec());
            self.pos += len;
        }
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
                    let v = self.node(child.0, child.1, path)?;
                    path.pop();
                    v
                }
                1 => *self.proven.get(&child).ok_or_else(|| {
                    self.name(index, path, &format!("a reference to an unproven class ({} answer {a})", self.label(q)))
                })?,
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
        self.proven.entry((state, codes)).and_modify(|c| *c = (*c).max(claim)).or_insert(claim);
        Ok(claim)
    }

    fn label(&self, q: QueryId) -> String {
        self.ctx.problem.query_label(q)
    }
}
