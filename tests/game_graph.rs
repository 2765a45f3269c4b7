//! The generic theorems of the game-graph solver on random small graphs
//! (../shared/reference/seed000-chess.md G1–G5; ../shared/reference/seed003-cgt.md T06, T07, T11, T19, T26, T27).

use renyi_search::graph::WinLossDraw::{self, *};
use renyi_search::graph::explicit::{ExplicitGraph, Node};
use renyi_search::graph::fixpoint::{is_kernel, iterate};
use renyi_search::graph::grundy::{HeapRule, graph_values, heap_values};
use renyi_search::graph::loopy::{Loopy, loopy_values};

/// A small deterministic generator (xorshift64*), enough for property tests.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545F4914F6CDD1D) >> 33) as usize % n
    }
}

/// Random edges on n vertices; `side` splits vertices for alternating graphs;
/// `acyclic` keeps edges going to smaller numbers.
fn random_edges(rng: &mut Rng, n: usize, density: usize, bipartite: bool, acyclic: bool) -> Vec<(usize, usize)> {
    let mut edges = Vec::new();
    for a in 0..n {
        for b in 0..n {
            let allowed = a != b && (!bipartite || a % 2 != b % 2) && (!acyclic || b < a);
            if allowed && rng.below(100) < density {
                edges.push((a, b));
            }
        }
    }
    edges
}

/// Random graph whose sinks are losses, draws (stalemates) or, for some, misère wins.
fn random_graph(rng: &mut Rng, n: usize, bipartite: bool, acyclic: bool) -> ExplicitGraph<usize> {
    let density = 15 + rng.below(20);
    let edges = random_edges(rng, n, density, bipartite, acyclic);
    let draw_sinks: Vec<bool> = (0..n).map(|_| rng.below(4) == 0).collect();
    let succ: Vec<Vec<usize>> = (0..n).map(|a| edges.iter().filter(|e| e.0 == a).map(|e| e.1).collect()).collect();
    ExplicitGraph::explore(0..n, |&v| match (succ[v].is_empty(), draw_sinks[v]) {
        (true, true) => Node::Terminal(Draw),
        _ => Node::Moves(succ[v].clone()),
    })
}

fn values(g: &ExplicitGraph<usize>) -> Vec<WinLossDraw> {
    let s = g.solve();
    (0..g.len()).map(|v| s.get(v).unwrap()).collect()
}

/// G1 + G3 + T27: the local equations S5.2 / S3.8 with depths, and the length bound.
#[test]
fn retrograde_values_satisfy_the_local_equations() {
    let mut rng = Rng(0x1234_5678);
    for round in 0..300 {
        let n = 2 + rng.below(30);
        let g = random_graph(&mut rng, n, round % 2 == 0, false);
        let val = values(&g);
        for v in 0..g.len() {
            let succ: Vec<WinLossDraw> = g.successors(v).iter().map(|&w| val[w as usize]).collect();
            let expected = match g.terminal(v) {
                Some(t) => t,
                None => succ.iter().map(|o| o.before_move()).reduce(WinLossDraw::best).unwrap(),
            };
            assert_eq!(val[v], expected, "round {round}, vertex {v}");
            if let Win(d) | Loss(d) = val[v] {
                assert!((d as usize) < n, "a won game visits each position at most once (HS3.3)");
            }
        }
    }
}

/// G4: the counter-based engine equals the plain Boolean iteration S5.3.
#[test]
fn retrograde_equals_the_fixed_point_iteration() {
    let mut rng = Rng(99);
    for round in 0..300 {
        let n = 1 + rng.below(25);
        let g = random_graph(&mut rng, n, false, round % 3 == 0);
        assert_eq!(values(&g), iterate(&g), "round {round}");
    }
}

/// G2: K1 = L ∪ D_w and K2 = L ∪ D_s are kernels (S6.3) and every kernel K
/// satisfies L ⊆ K ⊆ L ∪ D (S6.4), by brute force over all subsets.
#[test]
fn kernels_lie_between_losses_and_losses_plus_draws() {
    let mut rng = Rng(7);
    let mut with_draws = 0;
    for _ in 0..200 {
        let n = 2 + rng.below(11);
        let edges = random_edges(&mut rng, n, 30, true, false);
        let g = ExplicitGraph::from_edges(n, &edges, Loss(0));
        let val = values(&g);
        let lost: Vec<bool> = val.iter().map(|o| o.is_loss()).collect();
        let drawn: Vec<bool> = val.iter().map(|o| *o == Draw).collect();
        with_draws += drawn.iter().any(|&d| d) as usize;
        let k1: Vec<bool> = (0..n).map(|v| lost[v] || drawn[v] && v % 2 == 0).collect();
        let k2: Vec<bool> = (0..n).map(|v| lost[v] || drawn[v] && v % 2 == 1).collect();
        assert!(is_kernel(&g, &k1) && is_kernel(&g, &k2));
        for mask in 0u32..1 << n {
            let set: Vec<bool> = (0..n).map(|v| mask >> v & 1 == 1).collect();
            if is_kernel(&g, &set) {
                assert!((0..n).all(|v| (!lost[v] || set[v]) && (!set[v] || lost[v] || drawn[v])));
            }
        }
    }
    assert!(with_draws > 20, "the random graphs must exercise draws");
}

/// G5: a stalemate encoded as a terminal draw gives the same values as
/// Ströhlein's encoding by an edge into an extra 2-cycle p* ↔ q*.
#[test]
fn terminal_draws_equal_the_two_cycle_encoding() {
    let mut rng = Rng(2024);
    for _ in 0..200 {
        let n = 2 + rng.below(20);
        let g = random_graph(&mut rng, n, false, false);
        let (p, q) = (g.len(), g.len() + 1);
        let mut edges = vec![(p, q), (q, p)];
        for v in 0..g.len() {
            match g.terminal(v) {
                Some(Draw) => edges.push((v, p)),
                _ => edges.extend(g.successors(v).iter().map(|&w| (v, w as usize))),
            }
        }
        let encoded = ExplicitGraph::from_edges(g.len() + 2, &edges, Loss(0));
        let with_draws = values(&g);
        let via_cycle = values(&encoded);
        for v in 0..g.len() {
            let expected = if g.terminal(v) == Some(Draw) { Draw } else { with_draws[v] };
            assert_eq!(via_cycle[v], expected);
        }
    }
}

/// T06, T07, T19 on random DAGs: ν = γ ∧ 1, the mex conditions, strategy stealing.
#[test]
fn grundy_values_on_random_dags() {
    let mut rng = Rng(5);
    for _ in 0..300 {
        let n = 1 + rng.below(30);
        let edges = random_edges(&mut rng, n, 25, false, true);
        let g = ExplicitGraph::from_edges(n, &edges, Loss(0));
        let gamma = graph_values(&g).unwrap();
        let val = values(&g);
        for x in 0..n {
            let followers: Vec<u32> = g.successors(x).iter().map(|&y| gamma[y as usize]).collect();
            assert_eq!(val[x].is_loss(), gamma[x] == 0, "T06");
            assert!(!followers.contains(&gamma[x]) && (0..gamma[x]).all(|m| followers.contains(&m)), "T07");
            for &y in g.successors(x) {
                let sy = g.successors(y as usize);
                if !sy.is_empty() && sy.iter().all(|z| g.successors(x).contains(z)) {
                    assert!(val[x].is_win(), "T19 strategy stealing");
                }
            }
        }
    }
}

/// T11: the value of a sum (subtraction pile + Lasker pile + Grundy pile) is the
/// XOR of the component values, checked against the explicit product graph.
#[test]
fn sums_are_xors_of_components() {
    let rules = [HeapRule::Subtraction(vec![1, 3, 4]), HeapRule::Lasker, HeapRule::GrundySplit];
    let tables: Vec<Vec<u32>> = rules.iter().map(|r| heap_values(r, 12)).collect();
    // A state: a sorted multiset of (rule index, heap size).
    let expand = |s: &Vec<(usize, usize)>| {
        let mut next = Vec::new();
        for (i, &(rule, heap)) in s.iter().enumerate() {
            for leaves in rules[rule].options(heap) {
                let mut t = s.clone();
                t.remove(i);
                t.extend(leaves.into_iter().map(|h| (rule, h)));
                t.sort();
                next.push(t);
            }
        }
        Node::Moves(next)
    };
    for (a, b, c) in [(7, 9, 8), (12, 5, 11), (3, 12, 10), (10, 10, 12)] {
        let start = vec![(0, a), (1, b), (2, c)];
        let g = ExplicitGraph::explore([start.clone()], expand);
        let gamma = graph_values(&g).unwrap();
        assert_eq!(gamma[g.index_of(&start).unwrap()], tables[0][a] ^ tables[1][b] ^ tables[2][c]);
    }
}

/// T26: the tiny loopy graphs of seed003 §5.1 (W/L/D and generalised values).
#[test]
fn tiny_loopy_graphs() {
    // (vertex count, edges, expected outcomes, expected loopy values)
    type Case = (usize, Vec<(usize, usize)>, Vec<WinLossDraw>, Vec<Loopy>);
    let cases: Vec<Case> = vec![
        (2, vec![(0, 1), (1, 0)], vec![Draw, Draw], vec![Loopy::Infinite(vec![]), Loopy::Infinite(vec![])]),
        (
            3,
            vec![(0, 1), (1, 0), (0, 2), (1, 2)],
            vec![Win(1), Win(1), Loss(0)],
            vec![Loopy::Infinite(vec![0]), Loopy::Infinite(vec![0]), Loopy::Finite(0)],
        ),
        (
            3,
            vec![(0, 1), (1, 0), (0, 2)],
            vec![Win(1), Loss(2), Loss(0)],
            vec![Loopy::Finite(1), Loopy::Finite(0), Loopy::Finite(0)],
        ),
        (3, vec![(0, 1), (1, 0), (1, 2), (2, 1)], vec![Draw, Draw, Draw], vec![Loopy::Infinite(vec![]); 3]),
        (
            4,
            vec![(0, 1), (1, 0), (0, 2), (2, 3)],
            vec![Draw, Draw, Win(1), Loss(0)],
            vec![Loopy::Infinite(vec![1]), Loopy::Infinite(vec![]), Loopy::Finite(1), Loopy::Finite(0)],
        ),
    ];
    for (n, edges, outcomes, loopy) in cases {
        let g = ExplicitGraph::from_edges(n, &edges, Loss(0));
        assert_eq!(values(&g), outcomes, "{edges:?}");
        assert_eq!(loopy_values(&g), loopy, "{edges:?}");
    }
}

/// On acyclic graphs the generalised value is the ordinary Grundy value, and
/// the outcome it implies is the retrograde outcome on any graph.
#[test]
fn generalised_values_agree_with_grundy_and_retrograde() {
    let mut rng = Rng(31337);
    for round in 0..200 {
        let n = 1 + rng.below(20);
        let acyclic = round % 2 == 0;
        let edges = random_edges(&mut rng, n, 20, false, acyclic);
        let g = ExplicitGraph::from_edges(n, &edges, Loss(0));
        let loopy = loopy_values(&g);
        let val = values(&g);
        for v in 0..n {
            let kind = loopy[v].outcome_kind();
            assert_eq!(kind.is_win(), val[v].is_win());
            assert_eq!(kind.is_loss(), val[v].is_loss());
        }
        if acyclic {
            let gamma = graph_values(&g).unwrap();
            assert!((0..n).all(|v| loopy[v] == Loopy::Finite(gamma[v])));
        }
    }
}

/// T08: constant-sum games (C1H): u = c − min u(y); an affine payoff change
/// λv + κ gives λu + κ with sum λc + 2κ.
#[test]
fn constant_sum_win_functions() {
    use renyi_search::graph::payoff::constant_sum_values;
    let mut rng = Rng(77);
    for _ in 0..100 {
        let n = 2 + rng.below(20);
        let edges = random_edges(&mut rng, n, 25, false, true);
        let g = ExplicitGraph::from_edges(n, &edges, Loss(0));
        let v: Vec<f64> = (0..n).map(|_| rng.below(7) as f64 - 3.0).collect();
        let u = constant_sum_values(&g, |x| v[x], 1.0).unwrap();
        let (lambda, kappa) = (2.0, -1.0);
        let shifted = constant_sum_values(&g, |x| lambda * v[x] + kappa, lambda * 1.0 + 2.0 * kappa).unwrap();
        for x in 0..n {
            assert!((shifted[x] - (lambda * u[x] + kappa)).abs() < 1e-9);
        }
        // With payoff 0 at terminals and c = 1 the win function is the normal-play outcome.
        let normal = constant_sum_values(&g, |_| 0.0, 1.0).unwrap();
        let val = values(&g);
        assert!((0..n).all(|x| (normal[x] == 1.0) == val[x].is_win()));
    }
}

/// T20: sets as games (≈C305): ∅ loses, {∅} wins, a set containing ∅ wins,
/// γ(von Neumann n) = n; ζ((1,1)) = {{∅}} loses.
#[test]
fn sets_as_games() {
    #[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
    struct Set(Vec<Set>);
    let numeral = |n: usize| {
        let mut all: Vec<Set> = Vec::new();
        for _ in 0..n {
            let next = Set(all.clone());
            all.push(next);
        }
        Set(all)
    };
    let expand = |s: &Set| Node::Moves(s.0.clone());
    for n in 0..7 {
        let start = numeral(n);
        let g = ExplicitGraph::explore([start.clone()], expand);
        assert_eq!(graph_values(&g).unwrap()[g.index_of(&start).unwrap()], n as u32);
    }
    let empty = Set(vec![]);
    let one = Set(vec![empty.clone()]);
    for (set, wins) in [
        (empty.clone(), false),
        (one.clone(), true),
        (Set(vec![empty.clone(), Set(vec![one.clone()])]), true),
        (Set(vec![one.clone()]), false),
    ] {
        let g = ExplicitGraph::explore([set.clone()], expand);
        assert_eq!(g.solve().get(g.index_of(&set).unwrap()).unwrap().is_win(), wins, "{set:?}");
    }
}

/// T24, T25: the retrograde depths give an extended win function (C2A); with
/// w = height, (γ, w) is an extended Grundy function (C2B) and on a sum
/// (γ1 ⊕ γ2, w1 + w2) is one too (Satz C2D).
#[test]
fn time_bounded_certificates() {
    let mut rng = Rng(4242);
    for _ in 0..60 {
        let parts: Vec<ExplicitGraph<usize>> = (0..2)
            .map(|_| {
                let n = 1 + rng.below(8);
                let edges = random_edges(&mut rng, n, 35, false, true);
                ExplicitGraph::from_edges(n, &edges, Loss(0))
            })
            .collect();
        for g in &parts {
            let val = values(g);
            let w: Vec<u32> = val.iter().map(|o| o.winner_moves().unwrap()).collect();
            for x in 0..g.len() {
                let succ = g.successors(x);
                if succ.is_empty() {
                    assert_eq!(w[x], 0);
                } else if val[x].is_loss() {
                    assert!(
                        w[x] >= 1 && succ.iter().all(|&y| val[y as usize].is_win() && w[y as usize] <= w[x]),
                        "(A0)"
                    );
                } else {
                    assert!(succ.iter().any(|&y| val[y as usize].is_loss() && w[y as usize] < w[x]), "(A1)");
                }
            }
        }
        let height = |g: &ExplicitGraph<usize>| {
            let mut h = vec![0u32; g.len()];
            for v in g.successors_first_order().unwrap() {
                h[v] = g.successors(v).iter().map(|&y| h[y as usize] + 1).max().unwrap_or(0);
            }
            h
        };
        let (g1, g2) = (&parts[0], &parts[1]);
        let (gamma1, gamma2) = (graph_values(g1).unwrap(), graph_values(g2).unwrap());
        let (h1, h2) = (height(g1), height(g2));
        for a in 0..g1.len() {
            for b in 0..g2.len() {
                let (gamma, w) = (gamma1[a] ^ gamma2[b], h1[a] + h2[b]);
                let moves: Vec<(u32, u32)> = g1
                    .successors(a)
                    .iter()
                    .map(|&y| (gamma1[y as usize] ^ gamma2[b], h1[y as usize] + h2[b]))
                    .chain(g2.successors(b).iter().map(|&y| (gamma1[a] ^ gamma2[y as usize], h1[a] + h2[y as usize])))
                    .collect();
                assert!(moves.iter().all(|&(g, wy)| g != gamma && wy <= w), "(A0) on the sum");
                assert!((0..gamma).all(|n| moves.iter().any(|&(g, wy)| g == n && wy < w)), "(A1) on the sum");
            }
        }
    }
}
