//! Ströhlein's Boolean fixed-point iteration (1970, S5.3) and kernels (§6),
//! on explicit graphs. The iteration recomputes the won and lost sets from
//! scratch in every round, with no counters and no incremental update, so it
//! is an independent oracle for [`super::retrograde`] (test G4).

use super::explicit::ExplicitGraph;
use super::value::WinLossDraw;

/// Values by plain iteration: round k computes "won within k plies" as "some
/// move reaches a position lost within k−1 plies" and "lost within k plies" as
/// "every move reaches a position won within k−1 plies" (S5.3, S3.8), until
/// nothing changes. Terminal values enter at their own depth.
pub fn iterate<S>(graph: &ExplicitGraph<S>) -> Vec<WinLossDraw> {
    let n = graph.len();
    let mut value: Vec<Option<WinLossDraw>> = vec![None; n];
    let max_terminal =
        (0..n).filter_map(|v| graph.terminal(v)).filter_map(|o| o.winner_moves().map(|_| depth(o))).max().unwrap_or(0);
    let mut k = 0u32;
    loop {
        let previous = value.clone();
        let won = |v: usize| matches!(previous[v], Some(WinLossDraw::Win(d)) if d < k);
        let lost = |v: usize| matches!(previous[v], Some(WinLossDraw::Loss(d)) if d < k);
        let mut changed = false;
        for (v, slot) in value.iter_mut().enumerate() {
            if slot.is_some() {
                continue;
            }
            let next = match graph.terminal(v) {
                Some(t) => (t != WinLossDraw::Draw && depth(t) == k).then_some(t),
                None if graph.successors(v).iter().any(|&w| lost(w as usize)) => Some(WinLossDraw::Win(k)),
                None if graph.successors(v).iter().all(|&w| won(w as usize)) => Some(WinLossDraw::Loss(k)),
                None => None,
            };
            if next.is_some() {
                *slot = next;
                changed = true;
            }
        }
        if !changed && k > max_terminal && k > 0 {
            break;
        }
        k += 1;
    }
    value.into_iter().map(|v| v.unwrap_or(WinLossDraw::Draw)).collect()
}

fn depth(o: WinLossDraw) -> u32 {
    match o {
        WinLossDraw::Win(d) | WinLossDraw::Loss(d) => d,
        WinLossDraw::Draw => 0,
    }
}

/// Whether `set` (a membership vector) is a kernel of the graph (Ströhlein
/// D1.4): x ∉ K ⇔ some move of x reaches K.
pub fn is_kernel<S>(graph: &ExplicitGraph<S>, set: &[bool]) -> bool {
    (0..graph.len()).all(|x| set[x] != graph.successors(x).iter().any(|&y| set[y as usize]))
}
