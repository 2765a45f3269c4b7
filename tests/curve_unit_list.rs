//! A curve run's unit list (issue 53 item 3): written once, read by every
//! shard instead of listing the units; it holds the listing's units exactly,
//! every unit falls in exactly one shard, shards that read it give the curve
//! of one process, and a list of another run, an edited or cut-off list and
//! a shard count above the number of units are refused. A shard that lists
//! only its own units (dealt by their codes) finds exactly its part of the
//! whole listing.

mod common;
use common::{bin, one_line_error, scratch_dir as scratch};

use renyi_search::curve::crossing::{PairFunction, RootFound, SearchEnd};
use renyi_search::curve::interval::Interval;
use renyi_search::curve::point::Root;
use renyi_search::curve::run::deal_cache::{cache_path, cached_shard_units};
use renyi_search::curve::run::run_key::UnitCut;
use renyi_search::curve::run::unit_list::{ListedUnit, read_unit_list, shard_unit_domains, write_unit_list};
use renyi_search::curve::run::units::{
    CurveUnitRun, CurveUnits, list_unit_domains, list_units, run_curve_units, run_id, shard_units,
};
use renyi_search::curve::walk::{domain_key, domain_text};
use renyi_search::curve::{Curve, Domain, Point, curve};
use renyi_search::games::beams::game::{Beams, Penalty, QueryOrder};
use renyi_search::games::beams::patterns::enumerate;
use renyi_search::games::mastermind::Mastermind;
use renyi_search::progress::Progress;
use renyi_search::renyi::alpha::Alpha;
use renyi_search::search::units::Shard;
use renyi_search::search::{SearchProblem, TieRule};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The program's `base` command with `extra`, which must succeed: its stdout.
fn curve_ok(base: &[&str], extra: &[&str]) -> String {
    let args: Vec<&str> = base.iter().chain(extra).copied().collect();
    let out = bin(&args);
    assert!(out.status.success(), "{extra:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// The rows of a curve CSV, without its comment lines.
fn csv_rows(path: &str) -> Vec<String> {
    std::fs::read_to_string(path).unwrap().lines().filter(|l| !l.starts_with('#')).map(String::from).collect()
}

/// A curve JSON without what differs between processes (provenance, nodes walked).
fn curve_json(path: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("provenance");
    o.remove("nodes_evaluated");
    v
}

fn full() -> Domain {
    Domain::closed(Point::zero(), Point::infinity())
}

/// Every segment: its span as text, its exact total and its first queries.
fn fingerprint(c: &Curve) -> Vec<String> {
    let span = |s: &renyi_search::curve::Span| match s {
        renyi_search::curve::Span::At(p) => format!("at {p}"),
        renyi_search::curve::Span::Open(a, b) => format!("({a}, {b})"),
    };
    c.segments.iter().map(|s| format!("{} {} {:?}", span(&s.span), s.total(), s.first_queries)).collect()
}

fn run(tie: TieRule, cut: UnitCut, shard: &str, file: &Path, with: &[PathBuf], units: &Path) -> CurveUnits {
    mm_run(tie, cut, shard.parse::<Shard>().unwrap(), (file, with), Some(units)).unwrap()
}

/// A shard of MM(4,6): reading the unit list `units`, or (`None`) dealt its units by codes.
fn mm_run(
    tie: TieRule,
    cut: impl Into<UnitCut>,
    shard: Shard,
    (file, with): (&Path, &[PathBuf]),
    units: Option<&Path>,
) -> Result<CurveUnits, String> {
    let mm = Mastermind::new(4, 6, false).unwrap();
    let UnitCut { levels, split_above } = cut.into();
    let by_codes = units.is_none();
    let run = CurveUnitRun { levels, split_above, shard, checkpoint: file, with, known_only: false, units, by_codes };
    run_curve_units(&mm, tie, &full(), &run, &Progress::none()).map_err(|e| e.to_string())
}

#[test]
fn shards_reading_the_unit_list_give_the_one_process_curve() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    for tie in [TieRule::lex(), TieRule::mix()] {
        let whole = curve(&mm, tie, &full(), None);
        for cut in cuts() {
            let levels = cut.levels;
            let dir = scratch(&format!("list-{tie}-{levels}-{}", cut.split_above.unwrap_or(0)));
            let units = list_unit_domains(&mm, tie, &full(), cut).unwrap();
            let list = dir.join("run.list");
            write_unit_list(&list, &run_id(&mm, tie, &full(), cut, &units), &units).unwrap();
            // The list read back: the listing's keys, codes and sub-domains, in order.
            let id = run_id(&mm, tie, &full(), cut, &[]);
            let (read_id, read) = read_unit_list(&list, &id).unwrap();
            assert_eq!(read_id, run_id(&mm, tie, &full(), cut, &units));
            let text = |u: &[renyi_search::curve::run::unit_list::ListedUnit]| -> Vec<String> {
                u.iter().map(|u| format!("{} {} {}", u.key, u.codes, domain_text(&u.domain))).collect()
            };
            assert_eq!(text(&read), text(&units));
            let keys: Vec<(String, u64)> = list_units(&mm, tie, &full(), cut).unwrap();
            assert_eq!(keys, units.iter().map(|u| (u.key.clone(), u.codes)).collect::<Vec<_>>());
            // Keys name their sub-domain's ends exactly: p/q or a crossing by pair and ordinal, no digits printed.
            let ends: Vec<&str> = units.iter().map(|u| u.key.rsplit_once(" @ ").unwrap().1).collect();
            assert!(ends.iter().all(|e| !e.contains('.') && !e.contains('~')), "{ends:?}");
            assert!(ends.iter().any(|e| e.contains("root(")), "{tie} {cut:?}: {ends:?}");
            // Every unit in exactly one shard, for several shard counts.
            let n = units.len() as u64;
            assert!(n > 6, "{tie} {cut:?}: {n} units");
            for count in [1, 2, 3, 5, n] {
                let mut seen: Vec<&str> = Vec::new();
                for index in 0..count {
                    let mine = shard_units(&read, Shard { index, count }).unwrap();
                    assert!(!mine.is_empty(), "shard {index}/{count}");
                    seen.extend(mine.iter().map(|u| u.key.as_str()));
                }
                seen.sort_unstable();
                let mut all: Vec<&str> = read.iter().map(|u| u.key.as_str()).collect();
                all.sort_unstable();
                assert_eq!(seen, all, "{count} shards");
            }
            let err = shard_units(&read, Shard { index: 0, count: n + 1 }).expect_err("more shards than units");
            assert!(err.to_string().contains(&format!("the run has {n} units")), "{err}");
            // Three shards from the list, then a merge: the one-process curve.
            let files: Vec<PathBuf> = (0..3).map(|i| dir.join(format!("s{i}.units"))).collect();
            for (i, f) in files.iter().enumerate() {
                match run(tie, cut, &format!("{i}/3"), f, &[], &list) {
                    CurveUnits::Incomplete { known, evaluated, .. } => assert_eq!(known, evaluated),
                    CurveUnits::Complete { .. } => panic!("one shard of three cannot complete"),
                }
            }
            match run(tie, cut, "0/3", &files[0], &files[1..], &list) {
                CurveUnits::Complete { curve, evaluated, .. } => {
                    assert_eq!(evaluated, 0);
                    assert_eq!(fingerprint(&curve), fingerprint(&whole), "{tie} {cut:?}");
                }
                CurveUnits::Incomplete { known, units, .. } => panic!("incomplete: {known} of {units}"),
            }
        }
    }
}

#[test]
fn foreign_edited_or_cut_off_unit_lists_are_refused() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    let tie = TieRule::lex();
    let dir = scratch("list-refused");
    let units = list_unit_domains(&mm, tie, &full(), 1).unwrap();
    let list = dir.join("run.list");
    write_unit_list(&list, &run_id(&mm, tie, &full(), 1, &units), &units).unwrap();
    let refused = |path: &Path, levels: usize| -> String {
        let id = run_id(&mm, tie, &full(), levels, &[]);
        read_unit_list(path, &id).expect_err("refused").to_string()
    };
    assert!(refused(&list, 2).contains("unit list of another run"));
    let text = std::fs::read_to_string(&list).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let edited = dir.join("edited.list");
    std::fs::write(&edited, text.replacen("\"codes\":", "\"codes\": ", 1)).unwrap();
    assert!(refused(&edited, 1).contains("fails its checksum"), "{}", refused(&edited, 1));
    let cut = dir.join("cut.list");
    std::fs::write(&cut, lines[..lines.len() - 1].join("\n") + "\n").unwrap();
    assert!(refused(&cut, 1).contains("its header names"), "{}", refused(&cut, 1));
    let swapped = dir.join("swapped.list");
    let mut order = lines.clone();
    order.swap(1, 2);
    std::fs::write(&swapped, order.join("\n") + "\n").unwrap();
    assert!(refused(&swapped, 1).contains("not in key order"), "{}", refused(&swapped, 1));
}

/// Beams 6c3p LEX-c on [1, 2]: the list written once, three shards reading
/// it and a merge give the CSV and JSON of one process (every field but the
/// provenance and the nodes the process walked); a shard count above the
/// number of units, and a list of another run, exit 2 with one line and
/// write no checkpoint; so does a cold shard dealt by codes that sees a
/// shard left without a unit, and it writes no cache of the line either.
#[test]
fn beams_shards_from_the_unit_list_write_the_one_process_curve() {
    let dir = scratch("list-beams");
    let p = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let base = ["curve", "beams", "6c3p", "--from", "1", "--to", "2"];
    let ok = |extra: &[&str]| curve_ok(&base, extra);
    ok(&["--csv", &p("one.csv"), "--json", &p("one.json")]);
    let listed = ok(&["--levels", "2", "--list-units", "--units", &p("run.list")]);
    assert!(listed.starts_with("175 units"), "{listed}");
    for i in 0..3 {
        ok(&[
            "--levels",
            "2",
            "--units",
            &p("run.list"),
            "--shard",
            &format!("{i}/3"),
            "--checkpoint",
            &p(&format!("s{i}")),
        ]);
    }
    let (s1, s2) = (p("s1"), p("s2"));
    let merge = ["--levels", "2", "--units", &p("run.list"), "--checkpoint", &p("s0"), "--with", &s1, "--with", &s2];
    ok(&[&merge[..], &["--csv", &p("merged.csv"), "--json", &p("merged.json")]].concat());
    let rows = |name: &str| csv_rows(&p(name));
    assert_eq!(rows("merged.csv"), rows("one.csv"));
    assert_eq!(rows("one.csv").len(), 1394);
    let json = |name: &str| curve_json(&p(name));
    assert_eq!(json("merged.json"), json("one.json"));
    // Bad shards and a foreign list: one line, exit 2, no checkpoint.
    let (bad, list) = (p("bad.units"), p("run.list"));
    for (extra, needle) in [
        (vec!["--levels", "2", "--shard", "0/176"], "the run has 175 units"),
        (vec!["--levels", "2", "--shard", "3/3"], "0 ≤ i < N"),
        (vec!["--levels", "1", "--shard", "0/2"], "unit list of another run"),
    ] {
        let args: Vec<&str> =
            base.iter().copied().chain(extra).chain(["--units", &list, "--checkpoint", &bad]).collect();
        let err = one_line_error(&args);
        assert!(err.contains(needle), "{err}");
        assert!(!Path::new(&bad).exists(), "{err}");
    }
    // Dealt by codes without a unit list, cold: the shard sees a shard left without a unit (or more shards than
    // codes) and refuses before its checkpoint or the line's cache is written.
    let caches = || {
        std::fs::read_dir(&dir)
            .unwrap()
            .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().starts_with("curve-deal"))
    };
    for (shards, needle) in
        [("0/100000", "no unit of the run falls to shard 1 "), ("0/10000000", "codes, so fewer units")]
    {
        let deal = ["--levels", "2", "--deal", "codes", "--shard", shards, "--checkpoint", &bad];
        let err = one_line_error(&base.iter().copied().chain(deal).collect::<Vec<_>>());
        assert!(err.contains(needle), "{err}");
        assert!(!Path::new(&bad).exists(), "{err}");
        assert_eq!(caches().count(), 0, "{err}");
    }
}

/// A crossing's identity in a unit key does not depend on its enclosure:
/// two enclosures of one root (the certified one, and one 10⁻¹³ wider on
/// each side), which print differently, give one key; the pair scaled by 3
/// (the same reduced pair) too; a root below 1 counts downward, and the
/// exact end is its p/q text.
#[test]
fn crossing_keys_do_not_depend_on_printing() {
    let root = |p: &[u64], q: &[u64], from: f64, to: f64, widen: f64| {
        let pair = Arc::new(PairFunction::new(p, q).unwrap());
        let found = pair.first_root(SearchEnd::plain(from), SearchEnd::plain(to));
        let Some(RootFound::Certified(lo, hi)) = found else { panic!("{found:?}") };
        Point::Root {
            root: Arc::new(Root { at: Interval::new(lo - widen, hi + widen), pair, certified: true }),
            witness: None,
        }
    };
    let (p, q) = ([4u64, 5, 5, 6], [1u64, 1, 2, 3, 3, 10]);
    let narrow = root(&p, &q, 1.1, 1.3, 0.0);
    let wide = root(&p, &q, 1.1, 1.3, 1e-13);
    let scaled = root(&p.map(|x| 3 * x), &q.map(|x| 3 * x), 1.1, 1.3, 0.0);
    assert_ne!(narrow.to_string(), wide.to_string());
    assert_eq!(narrow.identity().unwrap(), "root(1,1,2,3,3,10|4,5,5,6)+1");
    assert_eq!(wide.identity().unwrap(), narrow.identity().unwrap());
    assert_eq!(scaled.identity().unwrap(), narrow.identity().unwrap());
    let half: Point = Point::exact("0.5".parse().unwrap());
    let d = Domain { lo: half, lo_closed: false, hi: wide, hi_closed: true };
    assert_eq!(domain_key(&d).unwrap(), "(1/2, root(1,1,2,3,3,10|4,5,5,6)+1]");
    // A pair crossing below 1, at 0.44… ({1,1,1,1,8} against {3,3,3,3}).
    let below = root(&[1, 1, 1, 1, 8], &[3, 3, 3, 3], 0.2, 0.9, 0.0);
    let below_wide = root(&[1, 1, 1, 1, 8], &[3, 3, 3, 3], 0.2, 0.9, 1e-13);
    assert_eq!(below.identity().unwrap(), below_wide.identity().unwrap());
    assert!(below.identity().unwrap().ends_with(")-1"), "{}", below.identity().unwrap());
    // An enclosure that holds α = 1, where every D vanishes: no ordinal, so
    // no identity — a one-line refusal, never the printed enclosure.
    let Point::Root { root: found, .. } = &narrow else { unreachable!() };
    let at_one = Point::Root {
        root: Arc::new(Root { at: Interval::new(0.999, 1.001), pair: found.pair.clone(), certified: false }),
        witness: None,
    };
    let why = at_one.identity().expect_err("no ordinal, no identity");
    assert!(why.starts_with("the crossing root(1,1,2,3,3,10|4,5,5,6) at ") && !why.contains('\n'), "{why}");
    let d = Domain { lo: Point::exact("0.5".parse().unwrap()), lo_closed: true, hi: at_one, hi_closed: false };
    assert_eq!(domain_key(&d), Err(why));
}

/// A unit as text: key, codes and exact sub-domain.
fn unit_text(u: &ListedUnit) -> String {
    format!("{} {} {}", u.key, u.codes, domain_key(&u.domain).unwrap())
}

/// The shards' own listings of `n` shards, or the first shard refused.
fn dealt<P: SearchProblem>(p: &P, tie: TieRule, d: &Domain, cut: UnitCut, n: u64) -> Result<Vec<Vec<String>>, String> {
    let shard = |index| shard_unit_domains(p, tie, d, cut, Shard { index, count: n });
    (0..n).map(|i| Ok(shard(i).map_err(|e| e.to_string())?.iter().map(unit_text).collect())).collect()
}

/// Over shard counts from 1 to beyond the number of units: the shards'
/// units together are the whole listing unit for unit, each in one shard,
/// every shard's in key order; a shard given nothing is refused in one line.
fn shards_make_the_listing<P: SearchProblem>(p: &P, tie: TieRule, d: &Domain, cut: impl Into<UnitCut>) -> usize {
    let cut: UnitCut = cut.into();
    let levels = format!("{}{}", cut.levels, cut.split_above.map_or(String::new(), |t| format!(" split above {t}")));
    let whole: Vec<String> = list_unit_domains(p, tie, d, cut).unwrap().iter().map(unit_text).collect();
    let mut refused = 0;
    for n in [1, 2, 3, 5, 16, whole.len() as u64 + 1] {
        match dealt(p, tie, d, cut, n) {
            Ok(shards) => {
                let mut union: Vec<String> = shards.iter().flatten().cloned().collect();
                for s in &shards {
                    assert!(s.windows(2).all(|w| w[0] < w[1]), "{tie} levels {levels} {n} shards: order");
                }
                union.sort();
                assert_eq!(union, whole, "{tie} levels {levels}, {n} shards");
                assert!(n <= whole.len().max(1) as u64, "{n} shards of {} units", whole.len());
            }
            Err(e) => {
                assert!(e.contains("no unit of the run falls to"), "{e}");
                assert_eq!(e.lines().count(), 1, "{e}");
                refused += 1;
            }
        }
    }
    // More shards than units always leaves one without a unit.
    assert!(refused >= 1, "{tie} levels {levels}");
    whole.len()
}

#[test]
fn shards_dealt_by_codes_list_exactly_the_whole_run() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    let mut sizes = Vec::new();
    for tie in [TieRule::lex(), TieRule::mix()] {
        for levels in [1, 2] {
            sizes.push(shards_make_the_listing(&mm, tie, &full(), levels));
        }
    }
    let beams = Beams::new(enumerate("3c6p".parse().unwrap()), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    let one_two = Domain::closed(Point::exact(Alpha::integer(1)), Point::exact(Alpha::integer(2)));
    for d in [full(), one_two] {
        for levels in [1, 2] {
            sizes.push(shards_make_the_listing(&beams, TieRule::lex(), &d, levels));
        }
    }
    // Runs of some size, so that the deal is tested on many units.
    assert!(sizes.iter().filter(|&&n| n >= 40).count() >= 4, "{sizes:?}");
}

/// Beams counts the set of all codes from its hit table, without a pass over
/// the set (the root of every walk and a streaming shard's first step): the
/// same answer counts, batch counts and class sizes as its classes give; so
/// does the one row that stands for it in the root's decision of a dealt
/// shard (`counted_full_set`, which makes no set of all codes).
#[test]
fn beams_counts_the_set_of_all_codes_as_its_classes() {
    use renyi_search::search::{QueryId, Rules, SpeedHooks};
    for variant in ["3c6p", "6c3p"] {
        let g = Beams::new(enumerate(variant.parse().unwrap()), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
        let (all, counted) = (g.full_set(), g.counted_full_set());
        assert_eq!(g.set_size(&counted), g.set_size(&all));
        assert!(counted.bits.len() < all.bits.len() / 100, "{variant}: the root decides without the whole set");
        let answers = g.answer_count();
        let queries: Vec<QueryId> = (0..g.query_count() as QueryId).collect();
        for set in [&all, &counted] {
            let mut batch = vec![0u64; queries.len() * answers];
            g.count_answers_batch(&queries, set, &mut batch);
            let sizes = g.class_sizes_batch(&queries, set);
            for (i, &q) in queries.iter().enumerate() {
                let mut by_split = vec![0u64; answers];
                for (a, class) in g.split(q, &all) {
                    by_split[usize::from(a)] = g.set_size(&class);
                }
                let mut one = vec![0u64; answers];
                g.count_answers(q, set, &mut one);
                assert_eq!(one, by_split, "{variant} query {q}");
                assert_eq!(&batch[i * answers..(i + 1) * answers], &by_split[..], "{variant} query {q}");
                let listed: Vec<u64> = by_split.iter().copied().filter(|&x| x > 0).collect();
                assert_eq!(sizes.get(i), &listed[..], "{variant} query {q}");
            }
        }
    }
}

/// A class one query below the root, as the stand-in a dealt shard lists it
/// from (`counted_class`, counted from the tables a stretch of patterns at a
/// time, never made): the same answer counts, batch counts and class sizes
/// as the class itself (`restrict_full`), for every query on it; its rows
/// cannot be walked (a split or filter of it is a bug, refused).
#[test]
fn beams_counts_a_class_below_the_root_from_its_stand_in() {
    use renyi_search::search::{QueryId, Rules, SpeedHooks};
    let g = Beams::new(enumerate("6c3p".parse().unwrap()), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    let answers = g.answer_count();
    let queries: Vec<QueryId> = (0..g.query_count() as QueryId).collect();
    let all = g.full_set();
    let mut stood_in = 0;
    for q in [0, 1, 5, g.query_count() as QueryId - 1] {
        for (a, class) in g.split(q, &all) {
            let codes = g.set_size(&class);
            assert_eq!(g.restrict_full(q, a).as_ref(), Some(&class), "query {q} answer {a}");
            let Some(counted) = g.counted_class(q, a, codes) else {
                assert!(codes <= 1024, "query {q} answer {a}: {codes} codes and no stand-in");
                continue;
            };
            stood_in += 1;
            assert_eq!(g.set_size(&counted), codes);
            let mut real = vec![0u64; queries.len() * answers];
            let mut standing = vec![0u64; queries.len() * answers];
            g.count_answers_batch(&queries, &class, &mut real);
            g.count_answers_batch(&queries, &counted, &mut standing);
            assert_eq!(standing, real, "query {q} answer {a}");
            let (sizes, counted_sizes) =
                (g.class_sizes_batch(&queries, &class), g.class_sizes_batch(&queries, &counted));
            for (i, &r) in queries.iter().enumerate() {
                assert_eq!(counted_sizes.get(i), sizes.get(i), "query {q} answer {a}, then {r}");
                let mut one = vec![0u64; answers];
                g.count_answers(r, &counted, &mut one);
                assert_eq!(&one[..], &real[i * answers..(i + 1) * answers], "query {q} answer {a}, then {r}");
            }
            let walked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| g.split(queries[1], &counted)));
            assert!(walked.is_err(), "a stand-in was split");
        }
    }
    assert!(stood_in >= 8, "{stood_in} classes stood in for");
}

/// A unit's set rebuilt from its trail in one pass over the tables
/// (`restrict_full_trail`: the patterns with codes found from their pieces
/// alone, then their rows made) is the set the walk reaches by splitting one
/// query at a time, for every class of trails of two and three steps asking
/// one, two or three colours (Beams(6c,3p)); a trail no code follows gives none.
#[test]
fn beams_rebuilds_a_unit_from_its_trail_as_the_walk_splits_it() {
    use renyi_search::search::{Rules, SpeedHooks};
    let g = Beams::new(enumerate("6c3p".parse().unwrap()), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    let all = g.full_set();
    let nd = g.board.diagonals.len();
    let q = |c: usize, d: usize| g.query_id(c, d % nd);
    let mut checked = 0;
    for [first, second, third] in [
        [q(0, 0), q(0, 3), q(0, 5)],
        [q(0, 2), q(1, 2), q(2, 4)],
        [q(1, 1), q(2, 6), q(2, 7)],
        [q(0, 1), q(1, 4), q(0, 8)],
    ] {
        for (a, one) in g.split(first, &all) {
            for (b, two) in g.split(second, &one) {
                let trail = [(first, a), (second, b)];
                assert_eq!(g.restrict_full_trail(&trail).as_ref(), Some(&two), "{trail:?}");
                for (c, three) in g.split(third, &two) {
                    let trail = [(first, a), (second, b), (third, c)];
                    assert_eq!(g.restrict_full_trail(&trail).as_ref(), Some(&three), "{trail:?}");
                    checked += 1;
                }
            }
        }
        let answers: Vec<_> = g.split(first, &all).into_iter().map(|(a, _)| a).take(2).collect();
        assert_eq!(g.restrict_full_trail(&[(first, answers[0]), (first, answers[1])]), None);
    }
    assert!(checked >= 100, "{checked} trails of three steps");
}

/// Beams(6c,3p), whose nodes one query below the root a dealt shard lists
/// from their stand-ins (LEX: one query per decision) or, where a decision
/// ties several queries (MIX), from the class made: the shards' units are
/// the whole listing's, unit for unit.
#[test]
fn beams_shards_listing_from_stand_ins_make_the_listing() {
    let beams = Beams::new(enumerate("6c3p".parse().unwrap()), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    let one_two = Domain::closed(Point::exact(Alpha::integer(1)), Point::exact(Alpha::integer(2)));
    let lex = shards_make_the_listing(&beams, TieRule::lex(), &one_two, 2);
    assert_eq!(lex, 175, "the units of the 6c3p LEX-c run on [1, 2]");
    shards_make_the_listing(&beams, TieRule::mix(), &one_two, 2);
}

/// A shard of MM(4,6) dealt its units by codes, evaluating them into `file`.
fn dealt_run(
    tie: TieRule,
    cut: impl Into<UnitCut>,
    shard: Shard,
    file: &Path,
    with: &[PathBuf],
) -> Result<CurveUnits, String> {
    mm_run(tie, cut, shard, (file, with), None)
}

/// Cuts at levels 1 and 2, and with nodes there over a size split deeper
/// (MM(4,6): level-1 nodes up to 256 codes, level-2 nodes up to about 60).
fn cuts() -> [UnitCut; 4] {
    let split = |levels, most| UnitCut { levels, split_above: Some(most) };
    [1.into(), 2.into(), split(1, 100), split(2, 20)]
}

/// Shards that deal themselves their units by codes (no listing, no unit
/// list) and evaluate them, then a merge: the one-process curve, for N = 1, 3
/// and 5, MM(4,6) LEX and MIX, levels 1 and 2, and the split cuts of [`cuts`]. Until every shard's file is
/// given the run is incomplete; a file of the listed run, of another deal, a
/// shard's checkpoint given as another's and a record moved between shards'
/// files are refused.
#[test]
fn shards_dealt_by_codes_evaluate_and_merge_to_the_one_process_curve() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    for tie in [TieRule::lex(), TieRule::mix()] {
        let whole = fingerprint(&curve(&mm, tie, &full(), None));
        for cut in cuts() {
            let units = list_unit_domains(&mm, tie, &full(), cut).unwrap();
            for n in [1u64, 3, 5] {
                let dir = scratch(&format!("deal-{tie}-{}-{}-{n}", cut.levels, cut.split_above.unwrap_or(0)));
                let files: Vec<PathBuf> = (0..n).map(|i| dir.join(format!("s{i}.units"))).collect();
                let mut evaluated = 0;
                for (i, f) in files.iter().enumerate().rev() {
                    match dealt_run(tie, cut, Shard { index: i as u64, count: n }, f, &[]).unwrap() {
                        CurveUnits::Incomplete { known, evaluated: e, units: u, unseen_shards, .. } => {
                            assert!(i > 0 || n > 1);
                            assert_eq!((known, unseen_shards), (e, n - 1), "shard {i}/{n}");
                            assert_eq!(u, e);
                            evaluated += e;
                        }
                        CurveUnits::Complete { curve, evaluated: e, .. } => {
                            assert_eq!(n, 1);
                            assert_eq!(fingerprint(&curve), whole, "{tie} {cut:?}, one shard");
                            evaluated += e;
                        }
                    }
                }
                assert_eq!(evaluated, units.len() as u64, "{tie} {cut:?} {n} shards");
                if n == 1 {
                    continue;
                }
                // All but the last shard's file: incomplete, that shard unseen.
                let some = dealt_run(tie, cut, Shard { index: 0, count: n }, &files[0], &files[1..n as usize - 1]);
                assert!(matches!(some.unwrap(), CurveUnits::Incomplete { unseen_shards: 1, .. }));
                match dealt_run(tie, cut, Shard { index: 0, count: n }, &files[0], &files[1..]).unwrap() {
                    CurveUnits::Complete { curve, evaluated, units: u, missing } => {
                        assert_eq!((evaluated, u, missing), (0, units.len() as u64, 0));
                        assert_eq!(fingerprint(&curve), whole, "{tie} {cut:?}, {n} shards");
                    }
                    CurveUnits::Incomplete { known, units, .. } => panic!("incomplete: {known} of {units}"),
                }
            }
        }
    }
    dealt_files_do_not_mix(&mm);
}

/// The units of every shard of `n` through the cached line at `cache` (run
/// `run`): written by the first, read and added to by the others.
fn cached<P: SearchProblem>(
    p: &P,
    (tie, d, levels): (TieRule, &Domain, usize),
    n: u64,
    cache: &Path,
) -> Vec<Vec<String>> {
    let run = run_id(p, tie, d, levels, &[]);
    let shard = |index| cached_shard_units(p, (tie, d, levels), Shard { index, count: n }, &run, cache).unwrap();
    (0..n).map(|i| shard(i).iter().map(unit_text).collect()).collect()
}

/// The line a deal lays its units on, kept in a cache file beside the
/// checkpoint: every shard gets the same units with it (written, then read
/// whole) as without it, on MM(4,6) LEX and MIX and Beams(3c,6p) LEX-c, levels
/// 1 and 2; once every node is cached, more shards than units are refused by
/// every shard; the cache of another run, an edited, shortened or cut-off cache is
/// refused in one line naming it, and never replaced.
#[test]
fn shards_with_the_cached_line_get_the_same_units_and_damage_is_refused() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    let beams = Beams::new(enumerate("3c6p".parse().unwrap()), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    let dir = scratch("deal-cache");
    let mut cases = 0;
    for (name, tie) in [("lex", TieRule::lex()), ("mix", TieRule::mix())] {
        for levels in [1, 2] {
            for n in [3u64, 5] {
                let cache = dir.join(format!("mm-{name}-{levels}-{n}.lines"));
                let plain = dealt(&mm, tie, &full(), levels.into(), n).unwrap();
                assert_eq!(cached(&mm, (tie, &full(), levels), n, &cache), plain, "written, {tie} {levels} {n}");
                assert_eq!(cached(&mm, (tie, &full(), levels), n, &cache), plain, "read, {tie} {levels} {n}");
                cases += 1;
            }
        }
    }
    for levels in [1, 2] {
        let cache = dir.join(format!("beams-{levels}.lines"));
        let plain = dealt(&beams, TieRule::lex(), &full(), levels.into(), 4).unwrap();
        assert_eq!(cached(&beams, (TieRule::lex(), &full(), levels), 4, &cache), plain, "Beams levels {levels}");
        assert_eq!(cached(&beams, (TieRule::lex(), &full(), levels), 4, &cache), plain, "Beams levels {levels}");
        cases += 1;
    }
    assert_eq!(cases, 10);
    // Every node's units are in the cache now: more shards than units are refused by every shard.
    let (run, cache) = (run_id(&mm, TieRule::lex(), &full(), 2, &[]), dir.join("mm-lex-2-5.lines"));
    let units = list_unit_domains(&mm, TieRule::lex(), &full(), 2).unwrap().len() as u64;
    let many = |index| Shard { index, count: units + 1 };
    let too_many = cached_shard_units(&mm, (TieRule::lex(), &full(), 2), many(units), &run, &cache);
    assert!(too_many.expect_err("refused").to_string().contains(&format!("the run has {units} units")));
    let (tie, levels) = (TieRule::lex(), 2);
    let run = run_id(&mm, tie, &full(), levels, &[]);
    let good = std::fs::read_to_string(dir.join("mm-lex-2-3.lines")).unwrap();
    assert!(good.lines().count() > 3, "{good}");
    assert!(cache_path(&dir.join("s0.units"), &run).starts_with(&dir));
    let refused = |text: &str, needle: &str| {
        let path = dir.join("damaged.lines");
        std::fs::write(&path, text).unwrap();
        let r = cached_shard_units(&mm, (tie, &full(), levels), Shard { index: 1, count: 3 }, &run, &path);
        let e = r.expect_err("refused").to_string();
        assert!(e.contains(needle) && e.contains("damaged.lines") && !e.contains('\n'), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "a refused cache is left as it was");
    };
    let mut lines: Vec<&str> = good.lines().collect();
    let edited = |line: usize| {
        let edit =
            |(i, l): (usize, &&str)| if i == line { l.replacen("\"codes\":", "\"codes\": ", 1) } else { l.to_string() };
        lines.iter().enumerate().map(edit).collect::<Vec<_>>().join("\n") + "\n"
    };
    refused(&edited(0), "checksum");
    refused(&edited(2), "checksum");
    refused(&good[..good.len() - 1], "cut off");
    let last = lines.pop().unwrap();
    refused(&(lines.join("\n") + "\n"), "header names");
    lines.insert(2, last);
    refused(&(lines.join("\n") + "\n"), "numbered");
    refused(&std::fs::read_to_string(dir.join("mm-mix-2-3.lines")).unwrap(), "another run");
    refused(&std::fs::read_to_string(dir.join("mm-lex-1-3.lines")).unwrap(), "another run");
}

/// A dealt run's files mixed with others' are refused, one line each.
fn dealt_files_do_not_mix(mm: &Mastermind) {
    let (tie, dir) = (TieRule::lex(), scratch("deal-refused"));
    let f = |name: &str| dir.join(name);
    let three = |i| Shard { index: i, count: 3 };
    for i in 0..3 {
        dealt_run(tie, 2, three(i), &f(&format!("s{i}")), &[]).unwrap();
    }
    let listed = CurveUnitRun {
        levels: 2,
        split_above: None,
        shard: Shard { index: 0, count: 1 },
        checkpoint: &f("listed"),
        with: &[],
        known_only: false,
        units: None,
        by_codes: false,
    };
    let whole = run_curve_units(mm, tie, &full(), &listed, &Progress::none()).unwrap();
    assert!(matches!(whole, CurveUnits::Complete { .. }));
    let refused = |r: Result<CurveUnits, String>, needle: &str| {
        let e = r.err().expect("refused");
        assert!(e.contains(needle) && !e.contains('\n'), "{e}");
    };
    // A listed run's file with a dealt shard, and a dealt shard's file with the listed run.
    refused(dealt_run(tie, 2, three(0), &f("s0"), &[f("listed")]), "belongs to another run");
    let with = [f("s1")];
    let r = run_curve_units(mm, tie, &full(), &CurveUnitRun { with: &with, ..listed }, &Progress::none());
    refused(r.map_err(|e| e.to_string()), "belongs to another run");
    // Another deal (two shards), another cut, and shard 1's checkpoint as shard 2's.
    refused(dealt_run(tie, 2, Shard { index: 0, count: 2 }, &f("s0"), &[]), "belongs to another run");
    refused(dealt_run(tie, 1, three(0), &f("s0"), &[]), "belongs to another run");
    refused(dealt_run(tie, 2, three(2), &f("s1"), &[]), "belongs to another run");
    // A record of shard 1 moved into shard 2's file fails its checksum there.
    let (one, two) = (std::fs::read_to_string(f("s1")).unwrap(), std::fs::read_to_string(f("s2")).unwrap());
    let moved = format!("{two}{}\n", one.lines().nth(1).unwrap());
    std::fs::write(f("moved"), moved).unwrap();
    refused(dealt_run(tie, 2, three(0), &f("s0"), &[f("s1"), f("moved")]), "checksum");
}

/// Beams 3c6p LEX-c on [0, ∞] from the CLI (144 units): N = 1, 3, 5 shards
/// dealt by codes and their merge write the one-process CSV and JSON (every
/// byte but the provenance and the nodes the process walked), all through one
/// cached line; a damaged cache, N above the units (known from the cache) and
/// a shard index out of range exit 2 in one line and write no checkpoint.
#[test]
fn beams_shards_dealt_by_codes_write_the_one_process_curve() {
    let dir = scratch("deal-beams");
    let p = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let base = ["curve", "beams", "3c6p"];
    let ok = |extra: &[&str]| curve_ok(&base, extra);
    ok(&["--csv", &p("one.csv"), "--json", &p("one.json")]);
    let rows = |name: &str| csv_rows(&p(name));
    let json = |name: &str| curve_json(&p(name));
    assert_eq!(rows("one.csv").len(), 54);
    let dealt = ["--levels", "2", "--deal", "codes"];
    for n in [1, 3, 5] {
        let file = |i: usize| p(&format!("n{n}-s{i}"));
        for i in 1..n {
            ok(&[&dealt[..], &["--shard", &format!("{i}/{n}"), "--checkpoint", &file(i)]].concat());
        }
        let mut merge: Vec<String> = ["--shard", &format!("0/{n}"), "--checkpoint", &file(0)].map(String::from).into();
        for i in 1..n {
            merge.extend(["--with".to_string(), file(i)]);
        }
        let (csv, js) = (format!("n{n}.csv"), format!("n{n}.json"));
        merge.extend(["--csv".to_string(), p(&csv), "--json".to_string(), p(&js)]);
        let merge: Vec<&str> = merge.iter().map(String::as_str).collect();
        ok(&[&dealt[..], &merge].concat());
        assert_eq!(rows(&csv), rows("one.csv"), "{n} shards");
        assert_eq!(json(&js), json("one.json"), "{n} shards");
    }
    // --recheck: a dealt shard computes its records again (all of them); another shard's file is not its run.
    let recorded = |i: usize| std::fs::read_to_string(p(&format!("n3-s{i}"))).unwrap().lines().count() - 1;
    for i in 0..3 {
        let (shard, file) = (format!("{i}/3"), p(&format!("n3-s{i}")));
        let out = ok(&[&dealt[..], &["--shard", &shard, "--checkpoint", &file, "--recheck", "1000"]].concat());
        let all = recorded(i);
        assert!(out.contains(&format!("{all} of {all} recorded units computed again: all agree exactly")), "{out}");
        assert_eq!(out.lines().filter(|l| l.contains("agrees exactly")).count(), all, "{out}");
    }
    let (s0, s1) = (p("n3-s0"), p("n3-s1"));
    let mixed: Vec<&str> = base.iter().copied().chain(dealt).chain(["--shard", "0/3", "--checkpoint", &s0]).collect();
    let err = one_line_error(&[&mixed[..], &["--with", &s1, "--recheck", "5"]].concat());
    assert!(err.contains("belongs to another run"), "{err}");
    let err = one_line_error(
        &[&base[..], &["--levels", "2", "--shard", "0/3", "--checkpoint", &s0, "--recheck", "5"]].concat(),
    );
    assert!(err.contains("only a shard dealt by codes"), "{err}");
    // One cache beside the checkpoints for the run, whatever the shard count.
    let caches: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|f| f.file_name().unwrap().to_string_lossy().starts_with("curve-deal-line-"))
        .collect();
    assert_eq!(caches.len(), 1, "{caches:?}");
    // A damaged cache: one line naming it, exit 2, no checkpoint written.
    let text = std::fs::read_to_string(&caches[0]).unwrap();
    std::fs::write(&caches[0], text.replacen("\"codes\":", "\"codes\": ", 1)).unwrap();
    let (cache, damaged) = (caches[0].to_str().unwrap(), p("damaged.units"));
    let args: Vec<&str> =
        base.iter().copied().chain(dealt).chain(["--shard", "1/3", "--checkpoint", &damaged]).collect();
    let err = one_line_error(&args);
    assert!(err.contains(cache) && err.contains("delete it to rebuild"), "{err}");
    assert!(!Path::new(&damaged).exists(), "{err}");
    std::fs::write(&caches[0], text).unwrap();
    let bad = p("bad.units");
    // The cache holds every node's units since the one-shard run: more shards than units are refused by any shard.
    for (shard, needle) in [("99999/100000", "the run has 144 units"), ("5/5", "0 ≤ i < N")] {
        let args: Vec<&str> =
            base.iter().copied().chain(dealt).chain(["--shard", shard, "--checkpoint", &bad]).collect();
        let err = one_line_error(&args);
        assert!(err.contains(needle), "{err}");
        assert!(!Path::new(&bad).exists(), "{err}");
    }
}

/// The trail of a unit's key (the key without its sub-domain).
fn trail_of(key: &str) -> &str {
    key.rsplit_once(" @ ").unwrap().0
}

/// A cut at `levels` with nodes over `most` codes split deeper lists the
/// units of the plain cut of at most `most` codes unchanged, and below every
/// larger one (by its trail) units one or more queries deeper, each of at
/// most `most` codes (none where its classes are under 16 codes, evaluated in
/// place); nothing else. The units deeper than `levels`.
fn split_below_the_large<P: SearchProblem>(p: &P, tie: TieRule, d: &Domain, levels: usize, most: u64) -> usize {
    let plain = list_unit_domains(p, tie, d, levels).unwrap();
    let split = list_unit_domains(p, tie, d, UnitCut { levels, split_above: Some(most) }).unwrap();
    let small: std::collections::BTreeSet<String> = plain.iter().filter(|u| u.codes <= most).map(unit_text).collect();
    let large: Vec<&str> = plain.iter().filter(|u| u.codes > most).map(|u| trail_of(&u.key)).collect();
    assert!(!large.is_empty(), "{tie} levels {levels}: no unit over {most} codes");
    let depth = |u: &ListedUnit| trail_of(&u.key).matches('/').count();
    let mut deeper = 0;
    for u in &split {
        assert!(u.codes <= most, "{tie} levels {levels}: {} codes in {}", u.codes, u.key);
        if small.contains(&unit_text(u)) {
            assert_eq!(depth(u), levels);
            continue;
        }
        assert!(depth(u) > levels, "{}", u.key);
        assert!(large.iter().any(|t| u.key.starts_with(&format!("{t}/"))), "{} is below no large unit", u.key);
        deeper += 1;
    }
    assert_eq!(split.len(), small.len() + deeper);
    deeper
}

/// The split cut (`UnitCut::split_above`): deeper exactly below the large
/// nodes (MM(4,6) LEX and MIX at levels 1 and 2, Beams(3c,6p) LEX-c), and
/// shards dealt by codes list exactly its units (the deal is the plain cut's,
/// each dealt unit over the size then split within its shard).
#[test]
fn a_split_cut_goes_deeper_exactly_below_the_large_nodes() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    let beams = Beams::new(enumerate("3c6p".parse().unwrap()), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    let mut deeper = Vec::new();
    for tie in [TieRule::lex(), TieRule::mix()] {
        deeper.push(split_below_the_large(&mm, tie, &full(), 1, 100));
        // Level-2 nodes over 20 codes: most of their classes are under 16 codes, evaluated in place.
        split_below_the_large(&mm, tie, &full(), 2, 20);
        for cut in &cuts()[2..] {
            shards_make_the_listing(&mm, tie, &full(), *cut);
        }
    }
    // Beams(3c,6p) at level 1: units of up to 368 codes.
    for most in [60, 100] {
        deeper.push(split_below_the_large(&beams, TieRule::lex(), &full(), 1, most));
        shards_make_the_listing(&beams, TieRule::lex(), &full(), UnitCut { levels: 1, split_above: Some(most) });
    }
    assert!(deeper.iter().all(|&n| n >= 4), "{deeper:?}");
}

/// Beams 3c6p LEX-c on [0, ∞] from the CLI with `--levels 1 --split-above 60`: three
/// shards dealt by codes, their units split below the large nodes, and their
/// merge write the one-process CSV; a split shard's records computed again
/// agree (units three queries below the root rebuilt from their trails); a
/// file of the run without the split is refused, and so is `--split-above 0`.
#[test]
fn beams_split_shards_write_the_one_process_curve() {
    let dir = scratch("split-beams");
    let p = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let base = ["curve", "beams", "3c6p"];
    let ok = |extra: &[&str]| curve_ok(&base, extra);
    ok(&["--csv", &p("one.csv")]);
    // At level 1 units of up to 368 codes; split above 60, down to three queries below the root.
    let listed = ok(&["--levels", "1", "--list-units"]);
    let split = ok(&["--levels", "1", "--split-above", "60", "--list-units"]);
    assert_ne!(listed.lines().count(), split.lines().count());
    let dealt = ["--levels", "1", "--split-above", "60", "--deal", "codes"];
    let file = |i: usize| p(&format!("s{i}"));
    for i in 1..3 {
        ok(&[&dealt[..], &["--shard", &format!("{i}/3"), "--checkpoint", &file(i)]].concat());
    }
    let (s0, s1, s2, csv) = (file(0), file(1), file(2), p("merged.csv"));
    ok(&[&dealt[..], &["--shard", "0/3", "--checkpoint", &s0, "--with", &s1, "--with", &s2, "--csv", &csv]].concat());
    assert_eq!(csv_rows(&csv), csv_rows(&p("one.csv")));
    // Units three queries below the root, in the shards' records; each shard's computed again agree.
    let keys = |f: &str| -> Vec<String> {
        let text = std::fs::read_to_string(f).unwrap();
        let json =
            text.lines().skip(1).map(|l| serde_json::from_str::<serde_json::Value>(l.split_once(' ').unwrap().1));
        json.map(|v| v.unwrap()["key"].as_str().unwrap().to_string()).collect()
    };
    let deep = [&s0, &s1, &s2].iter().flat_map(|f| keys(f)).filter(|k| trail_of(k).matches('>').count() == 3).count();
    assert!(deep > 0, "no unit three queries below the root");
    for (i, f) in [&s0, &s1, &s2].iter().enumerate() {
        let out = ok(&[&dealt[..], &["--shard", &format!("{i}/3"), "--checkpoint", f, "--recheck", "1000"]].concat());
        assert!(out.contains("recorded units computed again: all agree exactly"), "{out}");
    }
    let plain = ["--levels", "1", "--deal", "codes", "--shard", "0/3", "--checkpoint", &s0];
    let err = one_line_error(&[&base[..], &plain].concat());
    assert!(err.contains("belongs to another run"), "{err}");
    let err = one_line_error(&[&base[..], &["--levels", "2", "--split-above", "0", "--list-units"]].concat());
    assert!(err.contains("--split-above 0"), "{err}");
}
