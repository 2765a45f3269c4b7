//! The committed Beams(6c,6p) curve runs (results/runs/curves/beams-6c6p/)
//! agree with the committed Table 4.10 `analyze` runs — two independent
//! computations — wherever both exist (α = 0, 1, 2, ∞), and each overview's
//! own figures are consistent with each other.

mod common;

use renyi_search::games::beams::rule::BeamsRule;
use renyi_search::reproduce::beams_runs::full_run_total;
use renyi_search::search::outcome::exact_string;
use serde_json::Value;

fn overviews() -> Vec<(String, Value)> {
    let dir = common::root().join("results/runs/curves/beams-6c6p");
    let mut found: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(|e| {
                let e = e.ok()?;
                let stem = e.file_name().to_str()?.strip_suffix(".overview.json")?.to_string();
                let text = std::fs::read_to_string(e.path()).ok()?;
                Some((stem, serde_json::from_str(&text).expect("an overview is JSON")))
            })
            .collect()
        })
        .unwrap_or_default();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

#[test]
fn curve_overviews_equal_the_analyze_runs_where_both_exist() {
    let results = common::root().join("results");
    let mut compared = 0;
    let overviews = overviews();
    for (stem, o) in &overviews {
        let rule = BeamsRule::of_run_name(stem).unwrap_or_else(|| panic!("{stem}: no tie rule in the name"));
        for g in o["grid"].as_array().expect("a grid") {
            let alpha = g["alpha"].as_str().expect("α as text");
            if !["0", "1", "2", "inf"].contains(&alpha) {
                continue;
            }
            match full_run_total(&results, alpha, rule).expect("committed run files read") {
                Some(run) => {
                    assert_eq!(g["total"].as_str(), Some(exact_string(&run).as_str()), "{stem} at α = {alpha}");
                    compared += 1;
                }
                // Table 4.10's H_1 and H_2 LEX-c runs are committed: a LEX-c
                // curve through α = 1 or 2 must meet them, not skip them.
                None => assert!(
                    !(rule == BeamsRule::LexC && ["1", "2"].contains(&alpha)),
                    "{stem}: no finished analyze run at α = {alpha}"
                ),
            }
        }
    }
    // [0.5, 1] holds α = 1, [1, 2] both 1 and 2, [2, 2.5] α = 2.
    let known = [("lex-c-0.5-1", 1), ("lex-c-1-2", 2), ("lex-c-2-2.5", 1)];
    let expected: usize =
        overviews.iter().filter_map(|(s, _)| known.iter().find(|(k, _)| k == s).map(|(_, n)| n)).sum();
    assert!(compared >= expected, "only {compared} grid values compared for {expected} committed LEX-c runs");
}

#[test]
fn curve_overviews_are_consistent() {
    for (stem, o) in overviews() {
        let codes = o["codes"].as_u64().expect("codes");
        let best: u64 = o["best_total"].as_str().and_then(|t| t.parse().ok()).expect("a LEX best total");
        let pieces = o["pieces"].as_u64().expect("pieces");
        let intervals = o["intervals"].as_u64().expect("intervals");
        // Pieces alternate interval, point, interval, … on a closed range.
        assert!(
            pieces == 2 * intervals - 1 || pieces == 2 * intervals + 1,
            "{stem}: {pieces} pieces, {intervals} intervals"
        );
        for g in o["grid"].as_array().expect("a grid") {
            let total: u64 = g["total"].as_str().and_then(|t| t.parse().ok()).expect("a LEX total");
            assert!(total >= best, "{stem}: grid total {total} below the best {best}");
            assert!((g["mean"].as_f64().unwrap() - total as f64 / codes as f64).abs() < 1e-9);
        }
        for b in o["bins"].as_array().expect("bins") {
            let (least, greatest) = (b["least_mean"].as_f64().unwrap(), b["greatest_mean"].as_f64().unwrap());
            assert!(least <= greatest, "{stem}: bin {b}");
            assert!(least >= best as f64 / codes as f64 - 1e-12, "{stem}: a bin below the best");
        }
    }
}
