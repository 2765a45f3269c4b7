//! Building a certificate from a finished perfect search: the proof that the
//! least total is at least the optimum found, node by node, with the search
//! as the oracle for class values.
//!
//! At a node claiming L, every splitting orbit representative (as the
//! checker sees them, [`Context::examine`]) whose counting bounds already
//! reach L needs nothing. Otherwise its open classes are raised largest
//! first, as the search's `after_query` does: a class whose search value is
//! below what it still needs is claimed at that exact value, and the class
//! that closes the gap is claimed at just what it needs (the search proves it
//! with that budget). Each raised class becomes a child node proving its
//! claim, or a reference to an earlier node of the same state and codes
//! whose claim is at least as large.

use super::Certify;
use super::context::Context;
use crate::error::{Result, invalid};
use crate::search::perfect::{PerfectSearch, UNCAPPED};
use crate::search::{CodeId, QueryId};
use std::collections::HashMap;
use std::time::Instant;

/// Figures of a built certificate.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BuildStats {
    /// Nodes written (inline), and references to earlier nodes.
    pub nodes: u64,
    pub references: u64,
    /// Bytes of the uncompressed body.
    pub body_bytes: u64,
    pub seconds: f64,
}

struct Builder<'a, 'b, P: Certify> {
    ctx: &'b Context<'a, P>,
    search: &'b PerfectSearch<'a, P>,
    out: Vec<u8>,
    nodes: u64,
    references: u64,
    proven: HashMap<(P::State, Vec<CodeId>), u64>,
}

pub(super) fn push_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// A node's head: its claim, its symmetry words and its number of children.
pub(super) fn write_head(out: &mut Vec<u8>, claim: u64, words: &[Vec<u8>], children: usize) {
    push_varint(out, claim);
    push_varint(out, words.len() as u64);
    for word in words {
        push_varint(out, word.len() as u64);
        out.extend_from_slice(word);
    }
    push_varint(out, children as u64);
}

/// The body of a certificate that the least total of `problem` is at least
/// `bound`, from `search` (which found an optimum of `bound` by its last
/// root search without a cap). Fails if the search's values do not reach
/// `bound` somewhere (an internal error).
pub fn build_certificate<P: Certify>(
    search: &PerfectSearch<'_, P>,
    problem: &P,
    bound: u64,
) -> Result<(Vec<u8>, BuildStats)> {
    let clock = Instant::now();
    let ctx = Context::new(problem)?;
    let mut b = Builder { ctx: &ctx, search, out: Vec::new(), nodes: 0, references: 0, proven: HashMap::new() };
    let all: Vec<CodeId> = (0..problem.code_count() as CodeId).collect();
    b.node(problem.initial_state(), all, bound)?;
    let stats = BuildStats {
        nodes: b.nodes,
        references: b.references,
        body_bytes: b.out.len() as u64,
        seconds: clock.elapsed().as_secs_f64(),
    };
    Ok((b.out, stats))
}

impl<P: Certify> Builder<'_, '_, P> {
    /// Writes the node proving T(`state`, `codes`) ≥ `claim`.
    fn node(&mut self, state: P::State, codes: Vec<CodeId>, claim: u64) -> Result<()> {
        self.nodes += 1;
        let p = self.ctx.problem;
        let words = p.stabilizer_words(&state, &p.set_of(&codes));
        let seen = self.ctx.examine(&state, &codes, &words).map_err(|e| invalid(format!("internal error: {e}")))?;
        let m = codes.len() as u64;
        // (position, query, answer, claim) of the raised classes, in position order.
        let mut raised: Vec<(u64, QueryId, u16, u64)> = Vec::new();
        for (r, q) in seen.reps.iter().enumerate() {
            if self.ctx.quick_bound(&seen, r, m) >= claim {
                continue;
            }
            let open = self.ctx.open_classes(&seen, r, &codes);
            let mut lbs: Vec<u64> = open.iter().map(|&(_, n)| self.ctx.simple_bound(seen.s, n)).collect();
            let mut sum = m + lbs.iter().sum::<u64>();
            let mut order: Vec<usize> = (0..open.len()).collect();
            order.sort_by_key(|&i| (std::cmp::Reverse(open[i].1), i));
            let next = p.next_state(&state, *q);
            for i in order {
                if sum >= claim {
                    break;
                }
                let need = claim - (sum - lbs[i]);
                let class = self.ctx.class(*q, open[i].0, &codes);
                let value = match self.search.solve(&next, &p.set_of(&class), UNCAPPED, need) {
                    Ok(t) => t,
                    Err(_) => need,
                };
                if value > lbs[i] {
                    sum += value - lbs[i];
                    lbs[i] = value;
                    raised.push((seen.position(r, open[i].0) as u64, *q, open[i].0, value));
                }
            }
            if sum < claim {
                return Err(invalid(format!(
                    "internal error: query {} reaches only {sum} of the claimed {claim}",
                    p.query_label(*q)
                )));
            }
        }
        raised.sort_unstable();
        write_head(&mut self.out, claim, &words, raised.len());
        let mut previous: i64 = -1;
        for (pos, q, a, value) in raised {
            push_varint(&mut self.out, (pos as i64 - previous - 1) as u64);
            previous = pos as i64;
            let key = (p.next_state(&state, q), self.ctx.class(q, a, &codes));
            if self.proven.get(&key).is_some_and(|&c| c >= value) {
                self.references += 1;
                push_varint(&mut self.out, 1);
            } else {
                push_varint(&mut self.out, 0);
                self.node(key.0, key.1, value)?;
            }
        }
        self.proven.entry((state, codes)).and_modify(|c| *c = (*c).max(claim)).or_insert(claim);
        Ok(())
    }
}
