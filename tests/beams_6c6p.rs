//! Beams(6c,6p), the standard game (../shared/reference/seed002-ch4.md §3; thesis Table 4.10): a
//! smoke test of the bit-row core on all 3 048 812 640 codes, and the
//! committed full-scale runs (results/runs/beams-6c6p/) recomputed unit by
//! unit by the current code.

mod common;

use renyi_search::games::beams::Variant;
use renyi_search::games::beams::game::{Beams, ColourOffer, Penalty, QueryOrder};
use renyi_search::games::beams::patterns::enumerate;
use renyi_search::renyi::score::RenyiScore;
use renyi_search::search::{Rules, RunOptions, SpeedHooks, Strategy, TieRule, analyze};

fn v(s: &str) -> Variant {
    s.parse().unwrap()
}

/// A unit's depth counts from its subtree root, and a unit record's (which
/// counts from the game's root, two queries above), padded with zeros to one
/// length so that they compare.
fn from_root(subtree: Vec<String>, recorded: &[String]) -> (Vec<String>, Vec<String>) {
    let mut mine: Vec<String> = ["0", "0"].iter().map(|z| z.to_string()).chain(subtree).collect();
    let mut recorded = recorded.to_vec();
    let len = mine.len().max(recorded.len());
    mine.resize(len, "0".into());
    recorded.resize(len, "0".into());
    (mine, recorded)
}

/// Smoke test of the standard game Beams(6c,6p) with the bit-row core: the H_1
/// root decision over all 3 048 812 640 codes, the counts of the bit rows
/// against per-code answers on a subset of patterns, and a reduced instance
/// analysed exactly and played code by code.
#[test]
fn beams_6c6p_root_smoke() {
    let g = Beams::new(enumerate(v("6c6p")), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    let all = g.full_set();
    assert_eq!(all.size, 3_048_812_640);
    let ties = renyi_search::search::strategy::best_queries(
        &g,
        &RenyiScore::new(renyi_search::renyi::alpha::Alpha::integer(1)),
        &g.initial_state(),
        &all,
    );
    let offsets: Vec<u32> = ties.iter().map(|&q| g.board.diagonal_offset[g.decode_query(q).1]).collect();
    assert_eq!(offsets, vec![1; 6], "H_1 opens on the six lines next to the centre (one symmetry orbit)");
    let mut counts = vec![0u64; g.answer_count()];
    for d in 0..g.board.diagonals.len() {
        g.count_answers(g.query_id(0, d), &all, &mut counts);
        assert_eq!(counts.iter().sum::<u64>(), 3_048_812_640);
    }
    // first 300 patterns: bit rows against per-code answers for every query
    let mut subset = renyi_search::games::beams::codeset::CodeSet::empty();
    let row = renyi_search::games::beams::codeset::CodeSet::full(1, 720).words().to_vec();
    (0..300).for_each(|t| subset.push_row(t, &row));
    for q in (0..g.query_count() as u32).step_by(5) {
        g.count_answers(q, &subset, &mut counts);
        let mut expected = vec![0u64; g.answer_count()];
        (0..300 * 720).for_each(|c| expected[g.answer_of(q, c) as usize] += 1);
        assert_eq!(counts, expected, "query {q}");
    }
    // The batched class sizes (dense path and the code walk of small sets), the
    // one-pass filter, and code labels, against the per-code answers.
    let queries: Vec<u32> = (0..g.query_count() as u32).collect();
    let mut small = renyi_search::games::beams::codeset::CodeSet::empty();
    let sparse: Vec<u64> = (0..12).map(|w| if w == 3 { 0b1001_0001 } else { 0 }).collect();
    (1000..1012).for_each(|t| small.push_row(t, &sparse));
    // Sparse rows as deep in the tree: mostly one code per row (looked up code
    // by code), some rows with several codes (popcount path), > 48 codes; its
    // class sizes are tallied code by code (≤ 255 codes, ≤ 3 a row on average).
    let mut scattered = renyi_search::games::beams::codeset::CodeSet::empty();
    for t in 0..90u32 {
        let mut mask = vec![0u64; 12];
        mask[(t as usize * 7) % 11] |= 1 << (t % 64);
        if t % 9 == 0 {
            mask[(t as usize * 5 + 1) % 11] |= 0b1011 << (t % 50);
        }
        scattered.push_row(t * 4_001, &mask);
    }
    assert!(scattered.size > 90 && scattered.size < 200);
    for (answer, class) in g.split(g.query_id(3, 11), &scattered) {
        let want: Vec<(u32, usize)> =
            scattered.codes(12).filter(|&(t, s)| g.answer_of(g.query_id(3, 11), g.code_id(t, s)) == answer).collect();
        assert_eq!(class.codes(12).collect::<Vec<_>>(), want, "split of sparse rows, answer {answer}");
    }
    for set in [&subset, &small, &scattered] {
        // Batched answer counts (row pass, or code by code for small sets) = one query at a time.
        let a = g.answer_count();
        let mut batched = vec![0u64; queries.len() * a];
        g.count_answers_batch(&queries, set, &mut batched);
        for (i, &q) in queries.iter().enumerate() {
            g.count_answers(q, set, &mut counts);
            assert_eq!(&batched[i * a..(i + 1) * a], &counts[..], "batched counts, query {q}, |M| = {}", set.size);
        }
        let sizes = g.class_sizes_batch(&queries, set);
        for (i, &q) in queries.iter().enumerate() {
            g.count_answers(q, set, &mut counts);
            let mut dense: Vec<u64> = counts.iter().copied().filter(|&c| c > 0).collect();
            let mut batch = sizes.get(i).to_vec();
            dense.sort_unstable();
            batch.sort_unstable();
            assert_eq!(batch, dense, "query {q}");
        }
    }
    let q = g.query_id(2, 7);
    for (answer, class) in g.split(q, &subset) {
        assert_eq!(g.restrict(q, answer, &subset), class);
    }
    use renyi_search::search::tree::Replay;
    for code in g.codes_of(&small) {
        assert_eq!(g.code_from_label(&g.code_label(code)).unwrap(), code);
    }
    // A reduced instance: 43 patterns spread over the table, every colouring.
    // The exact tree analysis (bit rows, batched counting, pair shortcut) equals
    // playing every secret with per-code answers (thesis-style evaluation).
    let mut spread = renyi_search::games::beams::codeset::CodeSet::empty();
    (0..g.pattern_count() as u32).step_by(100_000).for_each(|t| spread.push_row(t, &row));
    let sub = renyi_search::search::subproblem::Subproblem { inner: &g, state: g.initial_state(), set: spread.clone() };
    let lex = Strategy::new("1".parse().unwrap(), TieRule::lex());
    let analysis = analyze(&sub, lex, RunOptions::default());
    let book = renyi_search::search::play::OpeningBook::new();
    let mut rng = renyi_search::search::play::Rng::new(5);
    let played: u64 = sub
        .codes_of(&spread)
        .into_iter()
        .map(|c| {
            let (q, p) = renyi_search::search::play::play_out(&sub, lex, &book, c, &mut rng);
            q as u64 + p
        })
        .sum();
    assert_eq!(analysis.total, played.to_string());
}

/// The committed full-scale run (results/runs/beams-6c6p/, H_1-LEX-c over all
/// 3 048 812 640 codes) adds up to its reported total, and units of it are
/// recomputed from scratch by the current code with identical exact counts
/// (the units of the last root class: its subtrees are small).
#[test]
fn beams_6c6p_committed_run_units_recompute() {
    use renyi_search::search::strategy::decide;
    use renyi_search::search::subproblem::Subproblem;
    use renyi_search::search::units::{merge, read_shard};
    let run = read_shard(&common::root().join("results/runs/beams-6c6p/beams-6c6p-h1-lex-c.json")).unwrap();
    let (_, merged) = merge(std::slice::from_ref(&run)).unwrap();
    assert_eq!(merged.total().to_string(), "31350697259");
    assert_eq!(run.codes_total, 3_048_812_640);

    let g = Beams::new(enumerate(v("6c6p")), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    let lex = Strategy::new("1".parse().unwrap(), TieRule::lex());
    let (state, all) = (g.initial_state(), g.full_set());
    let (_, first) = decide(&g, &lex, &state, &all)[0];
    let last_class = run.units.last().unwrap().path[0];
    let class = g.restrict(first, last_class, &all);
    let state1 = g.next_state(&state, first);
    let (_, second) = decide(&g, &lex, &state1, &class)[0];
    let state2 = g.next_state(&state1, second);
    let mut checked = 0;
    for unit in run.units.iter().filter(|u| u.path.len() == 2 && u.path[0] == last_class && u.codes <= 20_000) {
        let set = g.restrict(second, unit.path[1], &class);
        assert_eq!(set.size, unit.codes);
        let sub = Subproblem { inner: &g, state: state2, set };
        let (counts, penalty) = analyze(&sub, lex, RunOptions::default()).outcome.to_strings();
        let (mine, recorded) = from_root(counts, &unit.depth_counts);
        assert_eq!((mine, penalty), (recorded, unit.penalty.clone()), "unit {} {:?}", unit.index, unit.path);
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} units checked");
}

/// Small committed MIX units of Beams(6c,6p) — H_1-MIX, H_2-MIX and the
/// reduced-list MIX runs (H_2: the thesis' 10.4628; H_1: 10.2827) — recompute exactly with
/// the current code (memo with reduced states and residual keys): depth counts,
/// penalty, penalised codes.
#[test]
fn beams_6c6p_committed_mix_units_recompute() {
    use renyi_search::search::subproblem::Subproblem;
    use renyi_search::search::units::read_shard;
    let dir = common::root().join("results/runs/beams-6c6p");
    let patterns = enumerate(v("6c6p"));
    let mut checked = 0;
    let runs = [
        ("beams-6c6p-h1-mix.json", "1", ColourOffer::ReducedWeighted),
        ("beams-6c6p-h2-mix.json", "2", ColourOffer::ReducedWeighted),
        ("beams-6c6p-h2-mix-reduced.json", "2", ColourOffer::ReducedUnweighted),
        ("beams-6c6p-h1-mix-reduced.json", "1", ColourOffer::ReducedUnweighted),
    ];
    for (file, alpha, offer) in runs {
        let run = read_shard(&dir.join(file)).unwrap();
        let g = Beams::new(patterns.clone(), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap().with_offer(offer);
        let all = g.full_set();
        let mix = Strategy::new(alpha.parse().unwrap(), TieRule::mix());
        let small: Vec<_> = run.units.iter().filter(|u| u.path.len() == 2 && u.codes <= 50_000).take(6).collect();
        for unit in small {
            let (q0, q1) = (unit.queries[0], unit.queries[1]);
            let class = g.restrict(q0, unit.path[0], &all);
            let state = g.next_state(&g.next_state(&g.initial_state(), q0), q1);
            let sub = Subproblem { inner: &g, state, set: g.restrict(q1, unit.path[1], &class) };
            assert_eq!(sub.set.size, unit.codes);
            let outcome = analyze(&sub, mix, RunOptions::default()).outcome;
            let (counts, penalty) = outcome.to_strings();
            let (mine, recorded) = from_root(counts, &unit.depth_counts);
            assert_eq!((mine, penalty), (recorded, unit.penalty.clone()), "{file} unit {} {:?}", unit.index, unit.path);
            if let Some(penalised) = &unit.penalised {
                assert_eq!(&outcome.penalised_strings(), penalised, "{file} unit {}", unit.index);
            }
            checked += 1;
        }
    }
    assert!(checked >= 24, "only {checked} units checked");
}

/// The committed full-scale checkpoints (results/runs/beams-6c6p/) were
/// written by earlier versions of the unit walk; the current walk numbers the
/// units identically (same index, answers and queries), so those checkpoints
/// resume and merge correctly.
#[test]
fn beams_6c6p_committed_unit_numbering_is_stable() {
    use renyi_search::games::beams::rule::BeamsRule;
    use renyi_search::search::checkpoint::read_checkpoint_file;
    use renyi_search::search::units::unit_paths;
    for (file, alpha, column) in
        [("beams-6c6p-h1-mix.jsonl", "1", BeamsRule::Mix), ("beams-6c6p-hinf-lex-d.jsonl", "inf", BeamsRule::LexD)]
    {
        let path = common::root().join("results/runs/beams-6c6p").join(file);
        let (_, records) = read_checkpoint_file(&path).unwrap().unwrap();
        assert!(records.len() >= 50, "{file}: {} records", records.len());
        let g = column.game(enumerate(v("6c6p"))).unwrap();
        let listed = unit_paths(&g, Strategy::new(alpha.parse().unwrap(), column.tie_rule()), 2).unwrap();
        for r in &records {
            assert_eq!(listed[r.index as usize], (r.path.clone(), r.queries.clone()), "{file}: unit {}", r.index);
        }
    }
}
