//! Strategy trees as data: exported from a perfect search, written as JSON, and
//! checked by replaying every secret code through the tree one at a time with
//! the game's per-code answer function — independent of the set machinery that
//! produced the tree.

use super::delegate::{Delegate, delegating_trait};
use super::perfect::{Left, PerfectSearch, child_left};
use super::problem::{AnswerId, CodeId, QueryId, Rules, SearchProblem};
use crate::error::{Result, invalid};
use num_traits::ToPrimitive;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A node of a strategy tree.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum TreeNode {
    /// Ask `query`; continue with the child of the answer.
    Ask { query: QueryId, label: String, children: Vec<(AnswerId, TreeNode)> },
    /// Stop with these codes left (Mastermind: one code, still to be played).
    Stop { codes: Vec<CodeId> },
}

delegating_trait! {
    /// Games whose codes can be replayed one at a time. A [`Delegate`] with
    /// the same `State` and `Set` replays through the game it stands for.
    pub trait Replay: SearchProblem;
    delegated where {
        D: SearchProblem + Delegate,
        D: Rules<State = <<D as Delegate>::To as Rules>::State, Set = <<D as Delegate>::To as Rules>::Set>,
        <D as Delegate>::To: Replay,
    }
    required {
        /// The answer to `query` if `code` is the secret (computed per code).
        fn replay_answer(&self, query: QueryId, code: CodeId) -> AnswerId;
        /// The set consisting of these codes (sorted ids).
        fn set_of(&self, codes: &[CodeId]) -> Self::Set;
        /// The codes of a set, sorted.
        fn codes_of(&self, set: &Self::Set) -> Vec<CodeId>;
    }
    provided {
        /// The code a query names, for games whose queries are codes (hard mode
        /// is checked with it); `None` by default.
        fn code_of_query(&self, _query: QueryId) -> Option<CodeId> {
            None
        }
    }
}

/// Exports the perfect strategy found by `search` (its last root search) as a tree.
pub fn export<P: Replay>(search: &PerfectSearch<'_, P>, problem: &P) -> Result<TreeNode> {
    export_node(search, problem, &problem.initial_state(), &problem.full_set(), search.root_left())
}

fn export_node<P: Replay>(
    search: &PerfectSearch<'_, P>,
    problem: &P,
    state: &P::State,
    set: &P::Set,
    left: Left,
) -> Result<TreeNode> {
    if problem.set_size(set) == 1 {
        return Ok(TreeNode::Stop { codes: problem.codes_of(set) });
    }
    let Some(q) = search.best_query(state, set, left) else {
        return Ok(TreeNode::Stop { codes: problem.codes_of(set) });
    };
    let next = problem.next_state(state, q);
    let solving = problem.solving_answer(q);
    let mut children = Vec::new();
    for (a, class) in problem.split(q, set) {
        if Some(a) != solving {
            children.push((a, export_node(search, problem, &next, &class, child_left(left))?));
        }
    }
    Ok(TreeNode::Ask { query: q, label: problem.query_label(q), children })
}

pub use super::strategy_file::{Seal, SealCheck, StrategyFile, read_strategy_file};

/// The result of replaying every code through a tree.
#[derive(Clone, Debug, Serialize)]
pub struct Verified {
    pub codes: u64,
    pub total: u64,
    pub max_depth: u64,
    /// Whether every query asked is a possible secret where it is asked
    /// (consistent with every answer on its path): a hard-mode strategy.
    pub all_possible: bool,
}

/// Replays every code of `problem` through `tree` and returns the exact total,
/// or an error naming the first secret the tree does not solve. Each leaf must
/// list exactly the codes that reach it; its cost is the game's terminal cost.
pub fn verify<P: Replay>(problem: &P, tree: &TreeNode) -> Result<Verified> {
    let (mut total, mut max_depth) = (0u64, 0u64);
    let mut arrivals: HashMap<*const TreeNode, (&Vec<CodeId>, Vec<CodeId>)> = HashMap::new();
    let mut depths = Vec::with_capacity(problem.code_count());
    for code in 0..problem.code_count() as CodeId {
        let (depth, leaf) = replay(problem, tree, code)?;
        total += depth;
        max_depth = max_depth.max(depth);
        depths.push(depth);
        if let Some(TreeNode::Stop { codes }) = leaf {
            arrivals.entry(leaf.unwrap() as *const TreeNode).or_insert((codes, Vec::new())).1.push(code);
        }
    }
    for (declared, arrived) in arrivals.values() {
        let mut listed = (*declared).clone();
        listed.sort_unstable();
        if listed != *arrived {
            return Err(invalid(format!("a leaf lists codes {listed:?} but codes {arrived:?} reach it")));
        }
        let t = problem.terminal(&problem.set_of(arrived));
        let penalty = t.penalty_total.to_integer().to_u64().filter(|_| t.penalty_total.is_integer());
        total += t.queries_per_code as u64 * arrived.len() as u64
            + penalty.ok_or_else(|| invalid("a leaf penalty is not a whole number"))?;
        let deepest = arrived.iter().map(|&c| depths[c as usize]).max().unwrap_or(0);
        max_depth = max_depth.max(deepest + t.queries_per_code as u64);
    }
    let all_possible = first_impossible_query(problem, tree, &mut Vec::new()).is_none();
    Ok(Verified { codes: problem.code_count() as u64, total, max_depth, all_possible })
}

/// The first query (label, depth) of the tree that is not a possible secret
/// where it is asked: its code would not have given the answers on its path.
/// Every query is one if the game's queries are not codes.
pub fn first_impossible_query<P: Replay>(
    problem: &P,
    node: &TreeNode,
    path: &mut Vec<(QueryId, AnswerId)>,
) -> Option<(String, usize)> {
    let TreeNode::Ask { query, children, .. } = node else { return None };
    let consistent = problem
        .code_of_query(*query)
        .is_some_and(|code| path.iter().all(|&(q, a)| problem.replay_answer(q, code) == a));
    if !consistent {
        return Some((problem.query_label(*query), path.len() + 1));
    }
    children.iter().find_map(|(a, child)| {
        path.push((*query, *a));
        let found = first_impossible_query(problem, child, path);
        path.pop();
        found
    })
}

/// Follows one secret through the tree: the queries asked, and the leaf reached
/// (`None` if a query was the secret itself).
fn replay<'t, P: Replay>(problem: &P, tree: &'t TreeNode, code: CodeId) -> Result<(u64, Option<&'t TreeNode>)> {
    let mut node = tree;
    let mut depth = 0u64;
    let mut state = problem.initial_state();
    loop {
        match node {
            TreeNode::Ask { query, children, .. } => {
                if *query as usize >= problem.query_count() || !problem.is_admissible(&state, *query) {
                    return Err(invalid(format!(
                        "secret {code}: query {query} at depth {depth} is unknown or not admissible"
                    )));
                }
                depth += 1;
                let answer = problem.replay_answer(*query, code);
                if problem.solving_answer(*query) == Some(answer) {
                    return Ok((depth, None));
                }
                state = problem.next_state(&state, *query);
                node = match children.iter().find(|(a, _)| *a == answer) {
                    Some((_, child)) => child,
                    None => {
                        let label = problem.query_label(*query);
                        return Err(invalid(format!(
                            "secret {code}: the answer {answer} to {label} at depth {depth} has no branch"
                        )));
                    }
                };
            }
            TreeNode::Stop { codes } => {
                if !codes.contains(&code) {
                    return Err(invalid(format!("secret {code} ends at a leaf that does not contain it ({codes:?})")));
                }
                return Ok((depth, Some(node)));
            }
        }
    }
}
