//! Generalised Sprague-Grundy values for graphs with cycles (Smith 1966;
//! Fraenkel & Yesha 1986), which seed003 (§C2, Poker-Nim, Northcott) needs
//! and which its time-bounded certificates (C2A/C2B) cannot always provide.
//!
//! A position gets a finite value m or ∞(K), where K is the set of finite
//! values among its followers. WinLossDraw for the mover: 0 → loss; finite > 0 →
//! win; ∞(K) with 0 ∈ K → win; ∞(K) with 0 ∉ K → draw. On acyclic graphs the
//! function equals the ordinary Sprague-Grundy function.

use super::explicit::ExplicitGraph;
use super::value::WinLossDraw;
use serde::Serialize;

/// A generalised Sprague-Grundy value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Loopy {
    /// A finite value.
    Finite(u32),
    /// ∞(K): K is the sorted set of finite follower values.
    Infinite(Vec<u32>),
}

impl Loopy {
    /// Win / loss / draw for the mover (depths are not part of the value).
    pub fn outcome_kind(&self) -> WinLossDraw {
        match self {
            Loopy::Finite(0) => WinLossDraw::Loss(0),
            Loopy::Finite(_) => WinLossDraw::Win(0),
            Loopy::Infinite(k) if k.contains(&0) => WinLossDraw::Win(0),
            Loopy::Infinite(_) => WinLossDraw::Draw,
        }
    }

    /// Text: `3` or `∞{0,2}`.
    pub fn label(&self) -> String {
        match self {
            Loopy::Finite(v) => v.to_string(),
            Loopy::Infinite(k) => format!("∞{{{}}}", k.iter().map(u32::to_string).collect::<Vec<_>>().join(",")),
        }
    }
}

/// Generalised Sprague-Grundy values of every vertex. For m = 0, 1, …:
/// (1) repeatedly label m every unlabelled vertex with no follower labelled m
/// all of whose unlabelled-or-∞ followers have a follower labelled m;
/// (2) mark ∞ every unlabelled vertex with no follower labelled m.
/// Stops when every vertex is labelled; K sets are filled in at the end.
pub fn loopy_values<S>(graph: &ExplicitGraph<S>) -> Vec<Loopy> {
    let n = graph.len();
    let mut finite: Vec<Option<u32>> = vec![None; n];
    let mut infinite = vec![false; n];
    let mut m = 0u32;
    while (0..n).any(|v| finite[v].is_none() && !infinite[v]) {
        label_round(graph, m, &mut finite, &infinite);
        for v in 0..n {
            let has_m = graph.successors(v).iter().any(|&w| finite[w as usize] == Some(m));
            if finite[v].is_none() && !infinite[v] && !has_m {
                infinite[v] = true;
            }
        }
        m += 1;
    }
    (0..n)
        .map(|v| match finite[v] {
            Some(x) => Loopy::Finite(x),
            None => {
                let mut k: Vec<u32> = graph.successors(v).iter().filter_map(|&w| finite[w as usize]).collect();
                k.sort_unstable();
                k.dedup();
                Loopy::Infinite(k)
            }
        })
        .collect()
}

fn label_round<S>(graph: &ExplicitGraph<S>, m: u32, finite: &mut [Option<u32>], infinite: &[bool]) {
    loop {
        let mut changed = false;
        for v in 0..graph.len() {
            if finite[v].is_some() || infinite[v] {
                continue;
            }
            let followers = graph.successors(v);
            let has_m = followers.iter().any(|&w| finite[w as usize] == Some(m));
            let answered = followers.iter().all(|&w| {
                let w = w as usize;
                finite[w].is_some() || graph.successors(w).iter().any(|&z| finite[z as usize] == Some(m))
            });
            if !has_m && answered {
                finite[v] = Some(m);
                changed = true;
            }
        }
        if !changed {
            return;
        }
    }
}

/// The generalised value of a disjunctive sum (Smith): finite values add by
/// XOR; finite a + ∞(K) = ∞(K ⊕ a); two infinite values give ∞(∅).
pub fn sum(a: &Loopy, b: &Loopy) -> Loopy {
    match (a, b) {
        (Loopy::Finite(x), Loopy::Finite(y)) => Loopy::Finite(x ^ y),
        (Loopy::Finite(x), Loopy::Infinite(k)) | (Loopy::Infinite(k), Loopy::Finite(x)) => {
            let mut shifted: Vec<u32> = k.iter().map(|v| v ^ x).collect();
            shifted.sort_unstable();
            Loopy::Infinite(shifted)
        }
        _ => Loopy::Infinite(Vec::new()),
    }
}
