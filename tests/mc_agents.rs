//! Monte-Carlo agents on the game-graph solver (thesis ch. 2): values from the
//! reference note ../shared/reference/seed002-ch1235.md §2 (assertions 2.3–2.17). [T] values are
//! printed in the thesis, [R] values were computed by the note's independent
//! Python code; both are cross-checks, not our own output.

use num_rational::BigRational;
use renyi_search::graph::mc_agents::{Agent, McSolver};
use renyi_search::graph::mc_select::{McFloat, binomial_table, select_direct, select_exact, select_incremental};
use renyi_search::graph::scalar::Scalar;
use renyi_search::two_player::nim::mc_games::{
    McState, dsc, esr, esr_position_counts, first_infinity_error, subtraction, subtraction_pattern,
};

fn close(ours: f64, published: f64, tol: f64) {
    assert!((ours - published).abs() <= tol, "ours {ours:.12} vs published {published:.12}");
}

/// Table 2.4, the seven exact ("∞") rows [T+R]: k, Hinspiel, Rückspiel, mean.
const TABLE_2_4: [(u32, f64, f64, f64); 7] = [
    (3, 0.3758100195, 0.3153747770, 0.3455923983),
    (5, 0.4037732550, 0.3242759771, 0.3640246161),
    (10, 0.4111841910, 0.3048624298, 0.3580233104),
    (15, 0.4196865181, 0.2893856412, 0.3545360797),
    (20, 0.4319218854, 0.2781711913, 0.3550465383),
    (25, 0.4454074238, 0.2688789094, 0.3571431666),
    (30, 0.4590431929, 0.2604627193, 0.3597529561),
];

#[test]
fn table_2_4_exact_rows_and_the_k2_valley() {
    // Assertions 2.1, 2.2 (Example 2.2): L = 462, 21 434 admissible pairs.
    assert_eq!(esr_position_counts(5, 6), (462, 21434));
    let g = esr(5, 6, 1).unwrap();
    let s: McSolver<_, f64> = McSolver::new(&g.graph).unwrap();
    for (k, hin, rueck, mean) in TABLE_2_4 {
        let d = s.duel(g.start, Agent::Mc(k), Agent::Mc(2 * k)).unwrap();
        // Printed to 10 digits: the rounding interval is ±5e-11.
        close(d.first, hin, 5.1e-11);
        close(d.second, rueck, 5.1e-11);
        close(d.mean(), mean, 5.1e-11);
    }
    // [R] k = 1 and k = 2; k = 2 is the minimum of the small valley (thesis l. 376).
    let m1 = s.duel(g.start, Agent::Mc(1), Agent::Mc(2)).unwrap();
    let m2 = s.duel(g.start, Agent::Mc(2), Agent::Mc(4)).unwrap();
    close(m1.first, 0.3490099567, 1e-10);
    close(m1.second, 0.3182987554, 1e-10);
    close(m2.first, 0.3471573726, 1e-10);
    close(m2.second, 0.3025239175, 1e-10);
    assert!(m1.mean() > m2.mean() && m2.mean() < TABLE_2_4[0].3);
}

/// A fixed-seed generator for random test inputs.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[test]
fn three_selection_methods_agree() {
    // Assertion 2.7: fast (§2.4.6) vs direct (2.1), random p, m ≤ 8, N ≤ 200; and
    // the production float path (grouping + quadrature) against both.
    let mut rng = Lcg(2024);
    for case in 0..40 {
        let m = 2 + case % 7;
        let n = [1, 2, 3, 7, 20, 64, 200][case % 7];
        let mut ps: Vec<f64> = (0..m).map(|_| rng.next()).collect();
        if case % 3 == 0 {
            ps[1] = ps[0]; // identical candidates (same successor)
        }
        if case % 5 == 0 {
            ps[m - 1] = 1.0; // an immediate win
        }
        let tables: Vec<_> = ps.iter().map(|p| binomial_table(n, p)).collect();
        let direct = select_direct(&tables);
        let fast = select_incremental(&tables);
        let float = McFloat::new(n).unwrap().select(&ps);
        for i in 0..m {
            close(fast[i], direct[i], 1e-12);
            close(float[i], direct[i], 1e-12);
        }
        close(direct.iter().sum(), 1.0, 1e-12);
    }
    // Assertion 2.6: identical p give 1/m each, exactly.
    let f = select_exact(5, &vec![BigRational::ratio(2, 7); 4]);
    assert!(f.iter().all(|x| *x == BigRational::ratio(1, 4)));
    // Exact rationals: direct (2.1) and incremental are the same number.
    let ps = [BigRational::ratio(1, 3), BigRational::ratio(1, 2), BigRational::ratio(5, 6), BigRational::ratio(1, 2)];
    let tables: Vec<_> = ps.iter().map(|p| binomial_table(6, p)).collect();
    assert_eq!(select_direct(&tables), select_incremental(&tables));
}

#[test]
fn selection_matches_a_seeded_simulation() {
    // Brute force: play N play-outs per candidate, pick the most wins, ties uniform.
    let ps = [0.3, 0.45, 0.5, 0.5];
    let n = 5;
    let f = McFloat::new(n).unwrap().select(&ps);
    let mut rng = Lcg(7);
    let games = 200_000;
    let mut count = [0u32; 4];
    for _ in 0..games {
        let wins: Vec<u32> = ps.iter().map(|p| (0..n).filter(|_| rng.next() < *p).count() as u32).collect();
        let best = *wins.iter().max().unwrap();
        let tied: Vec<usize> = (0..4).filter(|&i| wins[i] == best).collect();
        count[tied[(rng.next() * tied.len() as f64) as usize]] += 1;
    }
    for i in 0..4 {
        let freq = count[i] as f64 / games as f64;
        let sigma = (f[i] * (1.0 - f[i]) / games as f64).sqrt();
        assert!((freq - f[i]).abs() < 5.0 * sigma, "candidate {i}: simulated {freq} vs {}", f[i]);
    }
}

#[test]
fn dsc_random_play_mc_infinity_error_and_the_147_crossing() {
    // Assertion 2.8 [T+R]: DSC(10), the first player's random-game win rate after a
    // single step 34803/65536 (53.1 %), after a double step 9097/16384 (55.5 %).
    let g = dsc(10).unwrap();
    let s: McSolver<_, BigRational> = McSolver::new(&g.graph).unwrap();
    let p = s.candidates(g.start);
    assert_eq!(p, vec![BigRational::ratio(34803, 65536), BigRational::ratio(9097, 16384)]);
    // Assertion 2.9: DSC(10) is the smallest instance where MC(∞) errs, only at the start.
    for n in 1..=9 {
        let g = dsc(n).unwrap();
        let s: McSolver<_, BigRational> = McSolver::new(&g.graph).unwrap();
        assert!(s.infinity_errors().is_empty(), "DSC({n})");
    }
    let errors = s.infinity_errors();
    assert_eq!(errors.len(), 1);
    assert_eq!(g.graph.state(errors[0].state), &McState::Crash(0, 0));
    // Assertion 2.10 [T+R]: mean 0.499877 at k = 146, 0.500213 at k = 147.
    let f: McSolver<_, f64> = McSolver::new(&g.graph).unwrap();
    let at = |k| f.duel(g.start, Agent::Mc(k), Agent::Mc(2 * k)).unwrap().mean();
    close(at(146), 0.499877, 1e-6);
    close(at(147), 0.500213, 1e-6);
    // [R] k = 1: 0.397719 / 0.488933.
    let d = f.duel(g.start, Agent::Mc(1), Agent::Mc(2)).unwrap();
    close(d.first, 0.397719, 1e-6);
    close(d.second, 0.488933, 1e-6);
    // Assertion 2.11: n = 1, 2, 3 give a mean of exactly ½ for every k.
    for n in 1..=3 {
        let g = dsc(n).unwrap();
        let f: McSolver<_, f64> = McSolver::new(&g.graph).unwrap();
        for k in [1, 2, 5, 40, 300] {
            close(f.duel(g.start, Agent::Mc(k), Agent::Mc(2 * k)).unwrap().mean(), 0.5, 1e-12);
        }
    }
}

#[test]
fn table_2_14_patterns_and_first_errors() {
    // Assertion 2.12: win/loss patterns n = 1..18 (reference §2.6, OCR repaired).
    let rows = [
        (1, 2, "+b−ab−ab−ab−ab−ab−"),
        (1, 3, "+bb−a−+−+−+−+−+−+−"),
        (1, 4, "+bbb−a−ab−+−ab−+−a"),
        (2, 3, "++b−−a+b−−a+b−−a+b"),
        (2, 5, "++bbb−−aa−b+−−+a−b"),
        (3, 4, "+++b−−−a++b−−−a++b"),
    ];
    for (a, b, pattern) in rows {
        let ours: String = subtraction_pattern(a, b, 18).unwrap().into_iter().collect();
        assert_eq!(ours, pattern, "S({a},{b})");
    }
    // Assertion 2.13: n* = 14, none, 59, 148, 333, 816 (text l. 823, 868); all strict.
    for (a, b, n_star) in [(1, 2, 14), (1, 4, 59), (2, 3, 148), (2, 5, 333), (3, 4, 816)] {
        assert_eq!(first_infinity_error(a, b, 900).unwrap(), Some((n_star, true)), "S({a},{b})");
    }
    assert_eq!(first_infinity_error(1, 3, 1200).unwrap(), None);
}

#[test]
fn subtraction_duel_exact_and_float() {
    // Assertion 2.17 [R, two independent codes]: S(1,2), n = 10, k = 3.
    let g = subtraction(1, 2, 10).unwrap();
    let f: McSolver<_, f64> = McSolver::new(&g.graph).unwrap();
    let d = f.duel(g.start, Agent::Mc(3), Agent::Mc(6)).unwrap();
    close(d.first, 0.4422775799, 1e-10);
    close(d.second, 0.4335906246, 1e-10);
    close(d.mean(), 0.4379341023, 1e-10);
    // The exact rational duel is the same number.
    let e: McSolver<_, BigRational> = McSolver::new(&g.graph).unwrap();
    let x = e.duel_exact(g.start, Agent::Mc(3), Agent::Mc(6));
    close(x.first.to_f64(), d.first, 1e-14);
    close(x.second.to_f64(), d.second, 1e-14);
}

#[test]
fn float_path_matches_exact_rationals() {
    // The production float path (windows, grouping, quadrature) against exact
    // rational f_N, including a tie group and an immediate win.
    let exact = [
        BigRational::ratio(1, 3),
        BigRational::ratio(2, 5),
        BigRational::ratio(3, 7),
        BigRational::ratio(2, 5),
        BigRational::ratio(1, 1),
    ];
    let floats: Vec<f64> = exact.iter().map(Scalar::to_f64).collect();
    for n in [1, 9, 60, 200] {
        let f = select_exact(n, &exact);
        let g = McFloat::new(n).unwrap().select(&floats);
        for i in 0..exact.len() {
            close(g[i], f[i].to_f64(), 1e-13);
        }
    }
}

#[test]
fn scans_share_selections_along_chains_and_equal_single_duels() {
    use renyi_search::graph::mc_agents::chains;
    // k = 1..40 against 2k: chains 1→2→4→…, 3→6→12→24, …; plus other opponents and a cycle.
    let mut pairs: Vec<(Agent, Agent)> = (1..=40).map(|k| (Agent::Mc(k), Agent::Mc(2 * k))).collect();
    pairs.extend([
        (Agent::Mc(5), Agent::Infinity),
        (Agent::Infinity, Agent::Random),
        (Agent::Mc(3), Agent::Mc(3)),
        (Agent::Mc(7), Agent::Mc(9)),
        (Agent::Mc(9), Agent::Mc(7)),
    ]);
    let cut = chains(&pairs);
    let mut seen: Vec<usize> = cut.concat();
    seen.sort_unstable();
    assert_eq!(seen, (0..pairs.len()).collect::<Vec<_>>(), "every pair in exactly one chain");
    for chain in &cut {
        for w in chain.windows(2) {
            assert_eq!(pairs[w[0]].1, pairs[w[1]].0, "a chain hands the opponent on");
        }
    }
    // The chain through k = 1 is 1, 2, 4, 8, 16, 32.
    let one = cut.iter().find(|c| c[0] == 0).expect("chain of k = 1");
    assert_eq!(one.iter().map(|&i| pairs[i].0).collect::<Vec<_>>(), [1, 2, 4, 8, 16, 32].map(Agent::Mc));
    let g = esr(3, 3, 1).unwrap();
    let s: McSolver<_, f64> = McSolver::new(&g.graph).unwrap();
    let scanned = s.duels(g.start, &pairs).unwrap();
    for (&(a, b), d) in pairs.iter().zip(&scanned) {
        let single = s.duel(g.start, a, b).unwrap();
        assert_eq!((d.first, d.second), (single.first, single.second), "{a} vs {b}");
    }
    // MC(k) vs itself from the start: the two seats' values are complementary, mean ½.
    let own = &scanned[42];
    close(own.first + own.second, 1.0, 1e-12);
}
