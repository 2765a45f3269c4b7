//! Thesis Table 4.5 and the statements around it (../shared/reference/seed002-ch4.md §2.3–2.4,
//! test ids B1–B4, C1–C7), asserted exactly.

use renyi_search::games::mastermind::Mastermind;
use renyi_search::renyi::alpha::Alpha;
use renyi_search::reproduce::table_4_5::first_guess_crossover;
use renyi_search::search::strategy::class_sizes;
use renyi_search::search::{Analysis, Presentation, Rules, RunOptions, Strategy, TieRule, analyze};
use std::collections::BTreeSet;
use std::sync::OnceLock;

fn mm1296() -> &'static Mastermind {
    static MM: OnceLock<Mastermind> = OnceLock::new();
    MM.get_or_init(|| Mastermind::new(4, 6, false).unwrap())
}

fn mm360() -> &'static Mastermind {
    static MM: OnceLock<Mastermind> = OnceLock::new();
    MM.get_or_init(|| Mastermind::new(4, 6, true).unwrap())
}

fn run(mm: &Mastermind, alpha: &str, tie: TieRule) -> Analysis {
    analyze(mm, Strategy::new(alpha.parse().unwrap(), tie), RunOptions::default())
}

#[test]
fn b1_feedback_example() {
    let mm = mm1296();
    let (g, s) = (mm.code_by_label("AABB").unwrap(), mm.code_by_label("ABAA").unwrap());
    assert_eq!(mm.black_white(g, s), (1, 2));
}

#[test]
fn b2_b3_answer_alphabets() {
    let answers = |mm: &Mastermind| -> BTreeSet<(usize, usize)> {
        let n = mm.code_count() as u32;
        (0..n).flat_map(|g| (0..n).map(move |s| (g, s))).map(|(g, s)| mm.black_white(g, s)).collect()
    };
    let full = answers(mm1296());
    assert_eq!(full.len(), 14);
    assert!(!full.contains(&(3, 1)));
    let junior: Vec<(usize, usize)> = answers(mm360()).into_iter().collect();
    assert_eq!(junior, vec![(0, 2), (0, 3), (0, 4), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1), (2, 2), (3, 0), (4, 0)]);
}

#[test]
fn b4_first_guess_partitions() {
    let sizes = |mm: &Mastermind, label: &str| -> Vec<u64> {
        let all: Vec<u32> = (0..mm.code_count() as u32).collect();
        let mut counts = vec![0; mm.answer_count()];
        let mut s = class_sizes(mm, mm.code_by_label(label).unwrap(), &all, &mut counts);
        s.sort_unstable();
        s
    };
    let sorted = |mut v: Vec<u64>| {
        v.sort_unstable();
        v
    };
    let mm = mm1296();
    assert_eq!(sizes(mm, "AAAA"), sorted(vec![625, 500, 150, 20, 1]));
    assert_eq!(sizes(mm, "AAAB"), sorted(vec![256, 308, 61, 317, 156, 27, 123, 24, 3, 20, 1]));
    assert_eq!(sizes(mm, "AABB"), sorted(vec![256, 256, 96, 16, 1, 256, 208, 36, 114, 32, 4, 20, 1]));
    assert_eq!(sizes(mm, "AABC"), sorted(vec![81, 276, 222, 44, 2, 182, 230, 84, 4, 105, 40, 5, 20, 1]));
    assert_eq!(sizes(mm, "ABCD"), sorted(vec![16, 152, 312, 136, 9, 108, 252, 132, 8, 96, 48, 6, 20, 1]));
    assert_eq!(sizes(mm360(), "ABCD"), sorted(vec![84, 88, 9, 48, 72, 8, 12, 24, 6, 8, 1]));
}

/// C1, C2: the LEX columns and the first guesses.
#[test]
fn c1_c2_lex_totals() {
    let cases = [
        (mm1296(), "0", "5668", "AABC"),
        (mm1296(), "1", "5722", "ABCD"),
        (mm1296(), "2", "5696", "AABC"),
        (mm1296(), "inf", "5801", "AABB"),
        (mm360(), "0", "1457", "ABCD"),
        (mm360(), "1", "1450", "ABCD"),
        (mm360(), "2", "1459", "ABCD"),
        (mm360(), "inf", "1490", "ABCD"),
    ];
    for (mm, alpha, total, first) in cases {
        let r = run(mm, alpha, TieRule::lex());
        assert_eq!((r.total.as_str(), r.first_queries[0].as_str()), (total, first), "{} H_{alpha}", mm.name());
        assert_eq!(r.float_decided_near_ties, 0);
    }
}

/// C3: the negative control — pure lexicographic order without preferring
/// possible secrets does not reproduce the thesis.
#[test]
fn c3_pure_lex_is_not_the_thesis_rule() {
    let pure = TieRule { possible_secrets_first: false, ..TieRule::lex() };
    assert_eq!(run(mm1296(), "1", pure).total, "6017");
    assert_eq!(run(mm360(), "1", pure).total, "1546");
}

/// C4: MM-360 MIX.
#[test]
fn c4_mm360_mix() {
    for (alpha, total) in [("1", "1450"), ("2", "4375/3"), ("0", "5030491/3465"), ("inf", "3026689/2040")] {
        assert_eq!(run(mm360(), alpha, TieRule::mix()).total, total, "H_{alpha}");
    }
    let all_ties = TieRule { possible_secrets_first: false, ..TieRule::mix() };
    let wrong = run(mm360(), "1", all_ties);
    assert_eq!(format!("{:.2}", wrong.total_decimal), "1548.49");
}

/// C5: MM-1296 MIX (H_1, H_2, H_∞); root classes make no difference here.
#[test]
fn c5_mm1296_mix() {
    let cases = [("1", "11445/2"), ("2", "5256409/924"), ("inf", "841050862841484413/145223679454560")];
    for (alpha, total) in cases {
        assert_eq!(run(mm1296(), alpha, TieRule::mix()).total, total, "H_{alpha}");
    }
    assert_eq!(run(mm1296(), "1", TieRule::mix_by_root_class()).total, "11445/2");
}

/// C6: H_0-MIX on MM-1296 ties AABC- and ABCD-type first guesses; the thesis value
/// is the uniform mean over the two classes, the code-weighted mean is not.
#[test]
fn c6_mm1296_h0_mix_root_classes() {
    let by_class = run(mm1296(), "0", TieRule::mix_by_root_class());
    assert_eq!(by_class.total, "341430390503053589813/59826988172952000");
    assert_eq!(format!("{:.2}", by_class.total_decimal), "5706.96");
    let by_query = run(mm1296(), "0", TieRule::mix());
    assert_eq!(format!("{:.4}", by_query.total_decimal), "5697.7612");
}

/// C7: H_α-LEX at intermediate α (Fig. 4.6, Table 4.18).
#[test]
fn c7_intermediate_alpha() {
    let cases = [
        (mm1296(), "0.85", "5721", "ABCD"),
        (mm1296(), "1.34", "5680", "AABC"),
        (mm1296(), "1.32", "5732", "ABCD"),
        (mm1296(), "2.0", "5696", "AABC"),
        (mm360(), "0.68", "1450", "ABCD"),
    ];
    for (mm, alpha, total, first) in cases {
        let r = run(mm, alpha, TieRule::lex());
        assert_eq!((r.total.as_str(), r.first_queries[0].as_str()), (total, first), "{} α={alpha}", mm.name());
    }
}

/// The first guess is ABCD below α* ≈ 1.33789992 and AABC above (thesis: "α ≳ 1.33789").
#[test]
fn first_guess_crossover_alpha() {
    let c = first_guess_crossover(mm1296());
    assert_eq!((c.below.as_str(), c.above.as_str()), ("ABCD", "AABC"));
    assert!((c.alpha_star - 1.3378999217).abs() < 1e-9, "{}", c.alpha_star);
    let just_below = Alpha::ratio(133789, 100000).unwrap();
    assert_eq!(run(mm1296(), &just_below.to_string(), TieRule::lex()).first_queries, vec!["ABCD"]);
}

/// Depth histogram and maximum of H_1-LEX on MM-1296 sum to the total.
#[test]
fn histogram_is_consistent() {
    let r = run(mm1296(), "1", TieRule::lex());
    let counts: Vec<u64> = r.depth_histogram.iter().map(|c| c.parse().unwrap()).collect();
    assert_eq!(counts.iter().sum::<u64>(), 1296);
    assert_eq!(counts.iter().enumerate().map(|(d, c)| d as u64 * c).sum::<u64>(), 5722);
    assert_eq!(r.max_depth, 6);
    assert_eq!(counts[1], 1);
}
