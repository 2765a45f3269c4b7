//! Thesis ch. 2–3 (pure Monte-Carlo agents on ESR, DSC and S(a,b); MC(∞) on
//! S(1,2) with asymmetry), recomputed exactly on the game-graph solver and
//! written to `results/tables/mc-agents.{md,json}` with CSV scans (results/data/) and SVG figures (results/figures/).
//! Published values are data from the thesis (OCR repaired as the reference
//! note ../shared/reference/seed002-ch1235.md §2.4–2.6 states, each repair noted); nothing is fitted.

use super::mc_report::{Fact, Report, Row24, Row214, fact, log_grid};
use crate::error::Result;
use crate::graph::mc_agents::{Agent, Duel, McSolver};
use crate::output::{Provenance, write_atomic, write_table};
use crate::two_player::nim::mc_games::{
    McGame, McState, dsc, esr, first_infinity_error, subtraction, subtraction_pattern,
};
use num_rational::BigRational;
use rayon::prelude::*;
use std::path::Path;
use std::time::Instant;

/// Table 2.4, ESR(5,6,1): k, simulated games, simulated (Hin, Rück, mean), exact (Hin, Rück, mean).
type Table24 = (u32, f64, [&'static str; 3], [&'static str; 3]);
const TABLE_2_4: [Table24; 7] = [
    (3, 1e8, ["0.3757581800", "0.3153726200", "0.3455654000"], ["0.3758100195", "0.3153747770", "0.3455923983"]),
    (5, 1e7, ["0.4038141000", "0.3243585000", "0.3640863000"], ["0.4037732550", "0.3242759771", "0.3640246161"]),
    (10, 1e7, ["0.4109209000", "0.3047928000", "0.3578568500"], ["0.4111841910", "0.3048624298", "0.3580233104"]),
    (15, 1e7, ["0.4197141000", "0.2896762000", "0.3546951500"], ["0.4196865181", "0.2893856412", "0.3545360797"]),
    (20, 1e7, ["0.4321263000", "0.2782291000", "0.3551777000"], ["0.4319218854", "0.2781711913", "0.3550465383"]),
    (25, 1e7, ["0.4453044000", "0.2688080000", "0.3570562000"], ["0.4454074238", "0.2688789094", "0.3571431666"]),
    (30, 1e7, ["0.4300287000", "0.2741187000", "0.3520737000"], ["0.4590431929", "0.2604627193", "0.3597529561"]),
];

/// Table 2.14: (a, b), the OCR of the pattern row, the reference's
/// reconstruction, the OCR of n*, the corrected n* (0 = none) and its source.
type Table214 = (i64, i64, &'static str, &'static str, &'static str, u32, &'static str);
const TABLE_2_14: [Table214; 6] = [
    (1, 2, "+ b — a b — a b — a b — a b —-— a b -", "+b−ab−ab−ab−ab−ab−", "4", 14, "text l. 823: n* = 14"),
    (1, 3, "+ B b = @ = &+ = F = F = F = F = -", "+bb−a−+−+−+−+−+−+−", "g9", 0, "text l. 825: S(1,3) is the exception"),
    (1, 4, "4+ b b _b — —a b — a — a b - a a", "+bbb−a−ab−+−ab−+−a", "59", 59, "OCR clear"),
    (2, 3, "4+ + b — — a + b — — a + b — — a + b", "++b−−a+b−−a+b−−a+b", "148", 148, "OCR clear; text l. 868"),
    (2, 5, "+ + b b b - — a_ a - b + -— - a — b", "++bbb−−aa−b+−−+a−b", "333", 333, "OCR clear; text l. 868"),
    (3, 4, "+ + + b - - — a + + b - — — a + + b", "+++b−−−a++b−−−a++b", "86", 816, "text l. 868: 816"),
];

fn fmt10(x: f64) -> String {
    format!("{x:.10}")
}

fn duel(s: &McSolver<McState, f64>, g: &McGame, k: u32) -> Result<Duel<f64>> {
    s.duel(g.start, Agent::Mc(k), Agent::Mc(2 * k))
}

/// Table 2.4 with the k = 1, 2 valley.
fn table_2_4(facts: &mut Vec<Fact>) -> Result<Vec<Row24>> {
    let g = esr(5, 6, 1)?;
    let s: McSolver<_, f64> = McSolver::new(&g.graph)?;
    let mut rows = Vec::new();
    for (k, games, sim, exact) in TABLE_2_4 {
        let clock = Instant::now();
        let d = duel(&s, &g, k)?;
        let seconds = clock.elapsed().as_secs_f64();
        let ours = [fmt10(d.first), fmt10(d.second), fmt10(d.mean())];
        let equal = [ours[0] == exact[0], ours[1] == exact[1], ours[2] == exact[2]];
        let sigma = |sim: &str, p: f64| (sim.parse::<f64>().unwrap_or(f64::NAN) - p) / (p * (1.0 - p) / games).sqrt();
        let simulation_sigmas = [sigma(sim[0], d.first), sigma(sim[1], d.second)];
        rows.push(Row24 {
            k,
            published_exact: exact,
            ours,
            equal,
            simulated_games: games,
            published_simulated: sim,
            simulation_sigmas,
            seconds,
        });
    }
    let (l, admissible) = crate::two_player::nim::mc_games::esr_position_counts(5, 6);
    facts.push(fact(
        "ESR(5,6,·), Example 2.2: positions per player L, admissible pairs; states of our graph (mover-relative, sorted lanes, terminals merged)",
        "L = 462, 21 434 admissible pairs",
        format!("L = {l}, {admissible} admissible pairs; {} graph states", g.graph.len()),
        (l, admissible) == (462, 21434),
    ));
    let m: Vec<f64> = (1..=3).map(|k| duel(&s, &g, k).map(|d| d.mean())).collect::<Result<_>>()?;
    facts.push(fact(
        "ESR(5,6,1): the small valley for k < 5 has its minimum at k = 2 (l. 376); means for k = 1, 2, 3",
        "minimum at k = 2 (reference [R]: 0.3336543560, 0.3248406450, 0.3455923983)",
        format!("{}, {}, {}", fmt10(m[0]), fmt10(m[1]), fmt10(m[2])),
        m[1] < m[0] && m[1] < m[2],
    ));
    Ok(rows)
}

fn table_2_14() -> Result<Vec<Row214>> {
    TABLE_2_14
        .par_iter()
        .map(|&(a, b, ocr, reference, n_ocr, n_pub, source)| {
            let ours: String = subtraction_pattern(a, b, 18)?.into_iter().collect();
            let limit = if n_pub == 0 { 1200 } else { 1000 };
            let first = first_infinity_error(a, b, limit)?;
            let n_star_ours = match first {
                Some((n, strict)) => format!("{n}{}", if strict { "" } else { " (tie)" }),
                None => format!("none ≤ {limit}"),
            };
            let n_star_equal = first.map_or(0, |f| f.0) == n_pub;
            Ok(Row214 {
                game: format!("S({a},{b})"),
                pattern_ocr: ocr,
                pattern_reference: reference,
                pattern_equal: ours == reference,
                pattern_ours: ours,
                n_star_ocr: n_ocr,
                n_star_published: if n_pub == 0 { "none".into() } else { n_pub.to_string() },
                n_star_source: source,
                n_star_ours,
                n_star_equal,
                searched_up_to: limit as u32,
            })
        })
        .collect()
}

fn dsc_facts(facts: &mut Vec<Fact>) -> Result<()> {
    let g = dsc(10)?;
    let exact: McSolver<_, BigRational> = McSolver::new(&g.graph)?;
    let p = exact.candidates(g.start);
    let pct = |x: &BigRational| format!("{} = {:.4} %", x, 100.0 * crate::graph::scalar::rational_to_f64(x));
    facts.push(fact(
        "DSC(10), random games after the first player's single / double step: first player's win rate (l. 673)",
        "53.1 % / 55.5 %",
        format!("{} / {}", pct(&p[0]), pct(&p[1])),
        // Printed to 0.1 %: exact |p − printed| ≤ 0.05 %.
        [(&p[0], 531), (&p[1], 555)].iter().all(|(x, per_mille)| {
            num_traits::Signed::abs(&(*x - BigRational::new((*per_mille).into(), 1000.into())))
                <= BigRational::new(1.into(), 2000.into())
        }),
    ));
    let mut first_err = None;
    for n in 1..=12 {
        let g = dsc(n)?;
        if !McSolver::<_, BigRational>::new(&g.graph)?.infinity_errors().is_empty() {
            first_err = Some(n);
            break;
        }
    }
    let errs = exact.infinity_errors();
    facts.push(fact(
        "smallest DSC(n) where MC(∞) errs, and where (l. 683)",
        "n = 10 (the start: double step instead of single)",
        format!(
            "n = {}; {} erring state(s) in DSC(10), the start: {}",
            first_err.map_or("none".into(), |n| n.to_string()),
            errs.len(),
            errs.iter().any(|e| g.graph.state(e.state) == &McState::Crash(0, 0))
        ),
        first_err == Some(10) && errs.len() == 1,
    ));
    let s: McSolver<_, f64> = McSolver::new(&g.graph)?;
    let means: Vec<(u32, f64)> = (1..=200).map(|k| duel(&s, &g, k).map(|d| (k, d.mean()))).collect::<Result<_>>()?;
    let first_above = means.iter().find(|m| m.1 > 0.5).map(|m| m.0);
    facts.push(fact(
        "DSC(10), MC(k) vs MC(2k): first k with a mean above 50 % (l. 701), means at k = 146, 147",
        "k = 147 (reference [T+R]: 0.499877, 0.500213)",
        format!(
            "k = {}; {:.6}, {:.6}",
            first_above.map_or("none ≤ 200".into(), |k| k.to_string()),
            means[145].1,
            means[146].1
        ),
        first_above == Some(147),
    ));
    let mut constant = true;
    for n in 1..=3 {
        let g = dsc(n)?;
        let s: McSolver<_, f64> = McSolver::new(&g.graph)?;
        for k in 1..=300 {
            constant &= (duel(&s, &g, k)?.mean() - 0.5).abs() < 1e-12;
        }
    }
    facts.push(fact(
        "DSC(n), n = 1, 2, 3: mean exactly 50 % for every k (l. 693), k ≤ 300",
        "50 %",
        "50 % (|Δ| < 1e-12)",
        constant,
    ));
    Ok(())
}

/// Means of MC(k) vs MC(2k) for S(a,b), every heap 1..=max_n, for the given k.
fn subtraction_means(a: i64, b: i64, max_n: i64, ks: &[u32]) -> Result<Vec<Vec<f64>>> {
    let g = subtraction(a, b, max_n)?;
    let s: McSolver<_, f64> = McSolver::new(&g.graph)?;
    let index: Vec<usize> = (1..=max_n).map(|n| g.graph.index_of(&McState::Heap(n as u32)).expect("heap")).collect();
    let pairs: Vec<(Agent, Agent)> = ks.iter().map(|&k| (Agent::Mc(k), Agent::Mc(2 * k))).collect();
    s.scan(&pairs, |v| index.iter().map(|&i| (v.first[i].expect("heap") + v.second[i].expect("heap")) / 2.0).collect())
}

/// Claims about Figs. 2.15/2.16 (l. 855–868) over heaps 3..=50 and k ≤ 4000.
fn subtraction_scan(dir: &Path, facts: &mut Vec<Fact>, files: &mut Vec<String>) -> Result<()> {
    let ks: Vec<u32> = (1..=4000).collect();
    let mut csv = String::from("game,n,k,mean\n");
    let grid: Vec<u32> = log_grid(1, 4000, 120);
    let shown = [4usize, 6, 8, 10, 12, 14, 17, 20, 30, 50];
    for (a, b, _, _, _, n_star, _) in TABLE_2_14 {
        let means = subtraction_means(a, b, 50, &ks)?;
        let over = |k: usize, t: f64| (3..=50).find(|&n| means[k][n - 1] > 0.5 + t);
        let first = |t: f64| (0..ks.len()).find_map(|k| over(k, t).map(|n| (ks[k], n)));
        let max_2500 =
            (0..2500).flat_map(|k| (3..=50).map(move |n| (k, n))).map(|(k, n)| means[k][n - 1]).fold(0.0, f64::max);
        let show = |f: Option<(u32, usize)>| f.map_or("never".into(), |(k, n)| format!("k = {k} (n = {n})"));
        facts.push(fact(
            format!(
                "S({a},{b}), 3 ≤ n ≤ 50: largest mean for k ≤ 2500; first k above 50 % + 1e-9 and + 1e-3 (k ≤ 4000)"
            ),
            if (a, b) == (1, 2) || (a, b) == (1, 4) {
                "above 50 % only for k > 2500 (l. 863)"
            } else {
                "never above 50 % (l. 863)"
            },
            format!("{max_2500:.6}; {}; {}", show(first(1e-9)), show(first(1e-3))),
            match (a, b) {
                (1, 2) | (1, 4) => max_2500 <= 0.5 + 1e-3 && first(1e-3).is_some_and(|f| f.0 > 2500),
                _ => first(1e-9).is_none(),
            },
        ));
        for &n in &shown {
            for &k in &grid {
                csv += &format!("S({a};{b}),{n},{k},{:.12}\n", means[k as usize - 1][n - 1]);
            }
        }
        let n_star = if n_star == 0 { "none".to_string() } else { n_star.to_string() };
        super::mc_scans::subtraction_figure(dir, (a, b), &n_star, &grid, &shown, &means, files)?;
    }
    write_atomic(&crate::output::layout::data(dir, "mc-subtraction-scan.csv"), csv.as_bytes())?;
    files.push("mc-subtraction-scan.csv".into());
    Ok(())
}

/// Computes everything and writes `mc-agents.md`, `mc-agents.json`, CSVs and figures.
pub fn reproduce(dir: &Path) -> Result<Report> {
    let clock = Instant::now();
    let mut facts = Vec::new();
    let mut files = Vec::new();
    let table_2_4 = table_2_4(&mut facts)?;
    let table_2_14 = table_2_14()?;
    dsc_facts(&mut facts)?;
    subtraction_scan(dir, &mut facts, &mut files)?;
    super::mc_scans::esr_figures(dir, &mut files)?;
    super::mc_scans::dsc_figures(dir, &mut facts, &mut files)?;
    let chapter_3 = super::mc_chapter3::facts()?;
    let provenance = Provenance::stable("reproduce mc-agents", clock.elapsed().as_secs_f64());
    let report = Report { provenance, table_2_4, table_2_14, facts, chapter_3, files };
    write_table(dir, "mc-agents", &report, &super::mc_markdown::markdown(&report))?;
    Ok(report)
}
