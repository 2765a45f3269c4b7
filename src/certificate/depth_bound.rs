//! A lower bound without a search: the game tree expanded a fixed number of
//! queries deep, written as a certificate the independent checker verifies.
//!
//! LB_0(s, M) = min over the examined splitting queries q of |M| + Σ_a B(M_a),
//! B the checker's simple bound (counting or leaf bound) of an open class;
//! LB_k(s, M) = the same with B(M_a) replaced by max(B(M_a), LB_{k−1}(s·q, M_a)).
//! A set no query splits is terminal (its terminal cost). Each LB_k is a lower
//! bound on T(s, M) by induction (thesis Satz 4.2's recursion with bounds in
//! place of values), and the certificate node for it lists, for every query
//! that needs them to reach the claim, the raised classes (largest gain
//! first) as child nodes. For games whose perfect search is out of reach
//! (Beams(6c,3p)) this gives the certified lower end of the
//! gap; the upper end is the total of any strategy.

use super::Certify;
use super::build::{BuildStats, push_varint, write_head};
use super::context::Context;
use super::depth_checkpoint::{
    CHECKPOINT_FORMAT, ClassRecord, ClassRef, DepthCheckpoint, DepthRecord, DepthRunId, RootRecord,
};
use super::packed_body::{digest, pack, unpack};
use crate::error::{Result, invalid};
use crate::progress::Progress;
use crate::search::{AnswerId, CodeId};
use rayon::prelude::*;
use std::path::Path;
use std::time::Instant;

/// A proven node: its claim, its certificate body (preorder) and the nodes written in it.
struct Proof {
    claim: u64,
    body: Vec<u8>,
    written: u64,
}

/// A query's total with its raised children: (position, gain over the simple bound, proof).
type Reached = (u64, Vec<(usize, u64, Proof)>);

/// A query's open classes (answer, size), their simple bounds and its simple
/// total |M| + Σ bounds, a lower bound on its LB_k total for every k.
struct Simple {
    open: Vec<(AnswerId, u64)>,
    bounds: Vec<u64>,
    total: u64,
}

/// Deepens a representative: its total with the classes LB_{k−1} raises
/// (at the root: classes proved before taken from, new ones kept in, the checkpoint).
type Deepen<'a> = dyn Fn(usize, &Simple, Option<&DepthCheckpoint>) -> Result<Reached> + Sync + 'a;

/// The root of a depth-bound run: its progress and, if given, its checkpoint.
#[derive(Clone, Copy)]
struct Root<'a> {
    progress: &'a Progress,
    checkpoint: Option<&'a Path>,
}

/// The lower bound LB_`depth` of the whole game and the certificate body
/// proving it; `progress` advances as the root's queries finish. With a
/// `checkpoint` file each proved class below a root query and each finished
/// root query is kept there and a rerun proves only the others
/// ([`super::depth_checkpoint`]).
pub fn depth_bound_certificate<P: Certify + Sync>(
    problem: &P,
    depth: u32,
    checkpoint: Option<&Path>,
    progress: &Progress,
) -> Result<(u64, Vec<u8>, BuildStats)>
where
    P::State: Send + Sync,
{
    let clock = Instant::now();
    let ctx = Context::new(problem)?;
    let all: Vec<CodeId> = (0..problem.code_count() as CodeId).collect();
    let expansion = Expansion::default();
    let proof = node(&ctx, &expansion, problem.initial_state(), &all, depth, Some(Root { progress, checkpoint }))?;
    let stats = BuildStats {
        nodes: proof.written,
        references: 0,
        body_bytes: proof.body.len() as u64,
        seconds: clock.elapsed().as_secs_f64(),
    };
    Ok((proof.claim, proof.body, stats))
}

/// The proof of LB_`k` at (`state`, `codes`); the root's queries run in parallel.
fn node<P: Certify + Sync>(
    ctx: &Context<'_, P>,
    expansion: &Expansion,
    state: P::State,
    codes: &[CodeId],
    k: u32,
    root: Option<Root<'_>>,
) -> Result<Proof>
where
    P::State: Send + Sync,
{
    expansion.guard_memory()?;
    let p = ctx.problem;
    let words = p.stabilizer_words(&state, &p.set_of(codes));
    let seen = ctx.examine(&state, codes, &words).map_err(|e| invalid(format!("internal error: {e}")))?;
    let m = codes.len() as u64;
    let mut head = Vec::new();
    if seen.reps.is_empty() {
        let claim = ctx.terminal_cost(codes).unwrap_or(0);
        write_head(&mut head, claim, &words, 0);
        return Ok(Proof { claim, body: head, written: 1 });
    }
    // Per representative: its open classes, their simple bounds and the simple total.
    let simple_of = |r: usize| -> Simple {
        let open = ctx.open_classes(&seen, r, codes);
        let bounds: Vec<u64> = open.iter().map(|&(_, n)| ctx.simple_bound(seen.s, n)).collect();
        let total = m + bounds.iter().sum::<u64>();
        Simple { open, bounds, total }
    };
    // A representative's total with the classes raised by LB_{k−1} (position,
    // gain, proof); at the root its classes are proved in parallel, each kept
    // in the checkpoint (if any) as soon as it is proved, or taken from it.
    let deepen = |r: usize, simple: &Simple, kept: Option<&DepthCheckpoint>| -> Result<Reached> {
        let q = seen.reps[r];
        let next = p.next_state(&state, q);
        let prove = |(&(a, n), &bound): (&(AnswerId, u64), &u64)| -> Result<Option<(usize, u64, Proof)>> {
            if n < 2 {
                return Ok(None);
            }
            let position = seen.position(r, a);
            let child = match kept.and_then(|c| c.proved(position)) {
                Some(record) => proof_of(record, bound)?,
                None => {
                    let child = node(ctx, expansion, next.clone(), &ctx.class(q, a, codes), k - 1, None)?;
                    if let Some(c) = kept {
                        c.append(&class_record(r, a, position, bound, &child))?;
                    }
                    child
                }
            };
            Ok((child.claim > bound).then(|| (position, child.claim - bound, child)))
        };
        let proved: Vec<Option<(usize, u64, Proof)>> = match root {
            Some(_) => simple.open.par_iter().zip(&simple.bounds).map(prove).collect::<Result<_>>()?,
            None => simple.open.iter().zip(&simple.bounds).map(prove).collect::<Result<_>>()?,
        };
        let raised: Vec<(usize, u64, Proof)> = proved.into_iter().flatten().collect();
        Ok((simple.total + raised.iter().map(|c| c.1).sum::<u64>(), raised))
    };
    let simple: Vec<Simple> = match root {
        Some(_) => (0..seen.reps.len()).into_par_iter().map(simple_of).collect(),
        None => (0..seen.reps.len()).map(simple_of).collect(),
    };
    // Best first: the representatives by simple total; one whose simple total is
    // already at least the least total found cannot lower the minimum (its
    // LB_{k−1}-raised total is at least its simple total), so it is not deepened
    // and keeps its simple total with no raised classes. The claim is the same
    // as deepening every one, and so is the certificate: such a query needs no
    // child to reach the claim.
    let mut order: Vec<usize> = (0..seen.reps.len()).collect();
    order.sort_by_key(|&r| (simple[r].total, r));
    let results: Vec<Reached> = match root {
        Some(root) => root_results(p, &seen, k, &simple, &order, root, &deepen)?,
        None => serial_results(k, &simple, &order, &deepen)?,
    };
    let claim = results.iter().map(|r| r.0).min().unwrap_or(m);
    Ok(assemble(head, claim, &words, results))
}

/// The proof of a node whose claim is `claim`: its head, then per query only
/// the children it needs to reach the claim (largest gain first), by position.
fn assemble(mut head: Vec<u8>, claim: u64, words: &[Vec<u8>], results: Vec<Reached>) -> Proof {
    let mut kept: Vec<(usize, Proof)> = Vec::new();
    for (total, mut raised) in results {
        raised.sort_by_key(|c| std::cmp::Reverse(c.1));
        let mut reach = total - raised.iter().map(|c| c.1).sum::<u64>();
        for (position, gain, proof) in raised {
            if reach >= claim {
                break;
            }
            reach += gain;
            kept.push((position, proof));
        }
    }
    kept.sort_by_key(|c| c.0);
    write_head(&mut head, claim, words, kept.len());
    let mut previous: i64 = -1;
    let mut written = 1;
    for (position, proof) in kept {
        written += proof.written;
        push_varint(&mut head, (position as i64 - previous - 1) as u64);
        previous = position as i64;
        push_varint(&mut head, 0);
        head.extend_from_slice(&proof.body);
    }
    Proof { claim, body: head, written }
}

/// A node's representatives one at a time, in `order` (best first), each
/// given the least total found before it.
fn serial_results(k: u32, simple: &[Simple], order: &[usize], deepen: &Deepen<'_>) -> Result<Vec<Reached>> {
    let mut results: Vec<Option<Reached>> = (0..simple.len()).map(|_| None).collect();
    let mut best = u64::MAX;
    for &r in order {
        let found = reach(k, r, &simple[r], best, deepen, None)?;
        best = best.min(found.0);
        results[r] = Some(found);
    }
    Ok(results.into_iter().map(|r| r.expect("every representative has a result")).collect())
}

/// Representative `r`'s result given `best`, the least total found so far:
/// its simple total alone (no raised classes) if that already reaches `best`
/// or nothing is deepened (k = 0), else its deepened total.
fn reach(
    k: u32,
    r: usize,
    simple: &Simple,
    best: u64,
    deepen: &Deepen<'_>,
    kept: Option<&DepthCheckpoint>,
) -> Result<Reached> {
    if k == 0 || simple.total >= best { Ok((simple.total, Vec::new())) } else { deepen(r, simple, kept) }
}

/// The root's representatives, best first (by simple total), two or more at a
/// time: each worker takes the next one in that order, skips it when its simple
/// total is at least the least total found so far, and otherwise deepens it and
/// appends it to the checkpoint before lowering the shared minimum (so a
/// resumed run never holds a skipped query without the one that justified it).
/// A worker with no query left helps with the classes of the others.
fn root_results<P: Certify + Sync>(
    p: &P,
    seen: &super::context::Examined,
    k: u32,
    simple: &[Simple],
    order: &[usize],
    root: Root<'_>,
    deepen: &Deepen<'_>,
) -> Result<Vec<Reached>> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    let checkpoint = match root.checkpoint {
        Some(path) => {
            let id = DepthRunId {
                program: format!("renyi-search {}", crate::VERSION),
                format: super::format::FORMAT_VERSION,
                checkpoint: CHECKPOINT_FORMAT,
                problem: p.name(),
                depth: k,
                root_queries: seen.reps.clone(),
            };
            // The classes a class record may name: those LB_{k−1} is asked for.
            let classes: Vec<Vec<(AnswerId, usize)>> = (0..seen.reps.len())
                .map(|r| simple[r].open.iter().filter(|c| c.1 >= 2).map(|&(a, _)| (a, seen.position(r, a))).collect())
                .collect();
            Some(DepthCheckpoint::open(path, &id, &classes)?)
        }
        None => None,
    };
    let n = seen.reps.len();
    let results: Mutex<Vec<Option<Reached>>> = Mutex::new((0..n).map(|_| None).collect());
    let best = AtomicU64::new(u64::MAX);
    root.progress.begin("queries at the root", Some(n as u64));
    if let Some(c) = &checkpoint {
        for (r, simple) in simple.iter().enumerate() {
            if let Some(record) = c.finished(r) {
                let found = reached_of(c, record, simple, &|a| seen.position(r, a))?;
                best.fetch_min(found.0, Ordering::SeqCst);
                results.lock().unwrap_or_else(|e| e.into_inner())[r] = Some(found);
                root.progress.advance(1);
            }
        }
    }
    let next = AtomicUsize::new(0);
    let work = || -> Result<()> {
        loop {
            let Some(&r) = order.get(next.fetch_add(1, Ordering::SeqCst)) else {
                return Ok(());
            };
            if results.lock().unwrap_or_else(|e| e.into_inner())[r].is_some() {
                continue;
            }
            let found = reach(k, r, &simple[r], best.load(Ordering::SeqCst), deepen, checkpoint.as_ref())?;
            if let Some(c) = &checkpoint {
                c.append(&DepthRecord::Root(record_of(r, &found, &|position| seen.at(position).1)))?;
            }
            best.fetch_min(found.0, Ordering::SeqCst);
            results.lock().unwrap_or_else(|e| e.into_inner())[r] = Some(found);
            root.progress.advance(1);
        }
    };
    (0..rayon::current_num_threads()).into_par_iter().map(|_| work()).collect::<Result<()>>()?;
    root.progress.end();
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(results.into_iter().map(|r| r.expect("every root query has a result")).collect())
}

/// A root query's result as a checkpoint record: the classes that raise
/// it, by answer (`answer_at` a position), position and SHA-256.
fn record_of(rep: usize, (total, raised): &Reached, answer_at: &dyn Fn(usize) -> AnswerId) -> RootRecord {
    let raised = raised
        .iter()
        .map(|(position, _, proof)| ClassRef {
            answer: answer_at(*position),
            position: *position,
            digest: digest(&proof.body),
        })
        .collect();
    RootRecord { rep, total: *total, raised }
}

/// A proved class below root query `rep` as a checkpoint record (its body
/// only if its claim passes the class's simple `bound`: else no certificate needs it).
fn class_record(rep: usize, answer: AnswerId, position: usize, bound: u64, proof: &Proof) -> DepthRecord {
    let (digest, body) =
        if proof.claim > bound { (digest(&proof.body), pack(&proof.body)) } else { (String::new(), String::new()) };
    DepthRecord::Class(ClassRecord { rep, answer, position, claim: proof.claim, written: proof.written, digest, body })
}

/// A proof read back from a class record whose simple bound is `bound` (its
/// body unpacked and checked against its SHA-256; none if it does not raise the bound).
fn proof_of(record: &ClassRecord, bound: u64) -> Result<Proof> {
    let body = match record.claim > bound {
        true => unpack(&record.body, &record.digest)?,
        false => Vec::new(),
    };
    Ok(Proof { claim: record.claim, body, written: record.written })
}

/// A finished root query's record back as its result: each class it names
/// from its class record in `c` (found by `position_of` its answer), its gain
/// over its simple bound in `simple`; the total must be the simple total plus
/// the gains. (The proofs are checked with the whole certificate before it is written.)
fn reached_of(
    c: &DepthCheckpoint,
    record: &RootRecord,
    simple: &Simple,
    position_of: &dyn Fn(AnswerId) -> usize,
) -> Result<Reached> {
    let wrong = |what: String| invalid(format!("checkpoint: root query {}: {what}", record.rep));
    let mut raised = Vec::new();
    for named in &record.raised {
        let (class, i) = c
            .proved(named.position)
            .zip(simple.open.iter().position(|&(a, _)| a == named.answer && position_of(a) == named.position))
            .ok_or_else(|| wrong(format!("no class of answer {} at position {}", named.answer, named.position)))?;
        let bound = simple.bounds[i];
        if class.claim <= bound {
            return Err(wrong(format!("the class at position {} does not raise its bound {bound}", named.position)));
        }
        raised.push((named.position, class.claim - bound, proof_of(class, bound)?));
    }
    let total = simple.total + raised.iter().map(|c| c.1).sum::<u64>();
    if total != record.total {
        return Err(wrong(format!(
            "its total {} is not {total}, the simple total with its classes' gains",
            record.total
        )));
    }
    Ok((record.total, raised))
}

/// The nodes one depth-bound run has expanded so far (all its threads, no
/// other run's), for its memory check.
#[derive(Default)]
struct Expansion {
    nodes: std::sync::atomic::AtomicU64,
}

impl Expansion {
    /// Counts a node; every 4096 nodes of this run: an error once the
    /// process holds more than the memory budget (the kept proofs grow with
    /// the depth, exponentially).
    fn guard_memory(&self) -> Result<()> {
        let n = self.nodes.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if n.is_multiple_of(4096)
            && let Some(held) = crate::memory::resident_bytes()
        {
            let budget = crate::memory::budget_bytes();
            if held > budget {
                return Err(crate::error::Error::TooLarge(format!(
                    "the tree expanded for --depth-bound holds {} after {n} nodes, beyond the budget of {}; \
                 try a smaller depth",
                    crate::memory::human_bytes(held),
                    crate::memory::human_bytes(budget)
                )));
            }
        }
        Ok(())
    }
}
