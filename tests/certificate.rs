//! Optimality certificates (issue 27, item 1): built from the perfect
//! search, checked by the independent checker, equal to an exhaustive
//! minimisation written here (bit sets, every query at every node, no
//! bounds, no symmetry); tampered certificates are refused with the node named.

mod common;
use common::{bin, scratch_dir};
use renyi_search::certificate::{Certify, build_certificate, check_certificate};
use renyi_search::games::bulls_and_cows::BullsAndCows;
use renyi_search::games::mastermind::Mastermind;
use renyi_search::progress::Progress;
use renyi_search::search::CodeId;
use renyi_search::search::perfect::{Constraints, Objective, TableKeys, optimise, solve_perfect};
use std::collections::HashMap;

/// The least total of a game whose queries are its codes, exhaustively:
/// asking code q costs every code of the set one query; q's own class is solved.
fn brute(n: usize, answer: &dyn Fn(usize, usize) -> u16, set: u128, memo: &mut HashMap<u128, u64>) -> u64 {
    let size = u64::from(set.count_ones());
    if size == 1 {
        return 1;
    }
    if let Some(&t) = memo.get(&set) {
        return t;
    }
    let mut best = u64::MAX;
    for q in 0..n {
        let mut classes = [0u128; 64];
        let mut rest = set & !(1u128 << q);
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            classes[answer(q, c) as usize] |= 1 << c;
        }
        if classes.contains(&set) {
            continue; // no information
        }
        let total = size + classes.iter().filter(|&&c| c != 0).map(|&c| brute(n, answer, c, memo)).sum::<u64>();
        best = best.min(total);
    }
    memo.insert(set, best);
    best
}

/// The certificate of the search's optimum checks to exactly the exhaustive
/// optimum; a claim one above the optimum cannot be built.
fn certify_against_brute_force<P: Certify>(game: &P, answer: &dyn Fn(usize, usize) -> u16) -> Vec<u8> {
    let n = game.code_count();
    let all = if n == 128 { u128::MAX } else { (1u128 << n) - 1 };
    let expected = brute(n, answer, all, &mut HashMap::new());
    let (result, search) = solve_perfect(game);
    assert_eq!(result.total, expected, "{}", game.name());
    let (body, stats) = build_certificate(&search, game, result.total).unwrap();
    let report = check_certificate(game, &body).unwrap();
    assert_eq!((report.bound, report.nodes), (expected, stats.nodes), "{}", game.name());
    assert!(build_certificate(&search, game, result.total + 1).is_err(), "{}: no proof above the optimum", game.name());
    body
}

#[test]
fn a_fingerprint_table_finds_the_same_optimum_and_its_certificate_checks() {
    fingerprinted(&Mastermind::new(3, 4, false).unwrap());
    fingerprinted(&Mastermind::new(4, 5, false).unwrap());
    fingerprinted(&BullsAndCows::new(3, 6).unwrap());
}

/// The optimum of the fingerprint-keyed search must equal the one searched
/// with exact keys and be proven by its certificate.
fn fingerprinted<P: Certify>(game: &P) {
    let (exact, _) = solve_perfect(game);
    let o = optimise(game, Constraints::none(), Objective::Total, TableKeys::Fingerprint, &Progress::none()).unwrap();
    let total = o.result.unwrap().total;
    assert_eq!(total, exact.total, "{}", game.name());
    let (body, _) = build_certificate(&o.search, game, total).unwrap();
    assert_eq!(check_certificate(game, &body).unwrap().bound, total, "{}", game.name());
}

#[test]
fn certificates_prove_the_exhaustive_optimum() {
    for (pegs, colors) in [(2, 4), (3, 3), (3, 4)] {
        let mm = Mastermind::new(pegs, colors, false).unwrap();
        certify_against_brute_force(&mm, &|q, c| mm.answer(q as CodeId, c as CodeId));
    }
    let bc = BullsAndCows::new(3, 6).unwrap();
    certify_against_brute_force(&bc, &|q, c| {
        let (b, w) = bc.bulls_cows(q as CodeId, c as CodeId);
        (b * 4 + w) as u16
    });
}

/// Positions of the claims of the root and of its first inline child in a body.
fn claim_offsets(body: &[u8]) -> (usize, usize) {
    let mut pos = 0;
    let varint = |pos: &mut usize| {
        let (mut v, mut shift) = (0u64, 0);
        loop {
            let b = body[*pos];
            *pos += 1;
            v |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                return v;
            }
        }
    };
    varint(&mut pos); // root claim
    for _ in 0..varint(&mut pos) {
        let len = varint(&mut pos) as usize;
        pos += len;
    }
    assert!(varint(&mut pos) > 0, "the root has children");
    varint(&mut pos); // gap
    assert_eq!(varint(&mut pos), 0, "the first child is inline");
    (0, pos)
}

/// Re-encodes the varint at `at` as `value` (same length assumed small values).
fn set_varint(body: &[u8], at: usize, delta: i64) -> Vec<u8> {
    let end = (at..).find(|&i| body[i] & 0x80 == 0).unwrap() + 1;
    let (mut v, mut shift) = (0u64, 0);
    for &b in &body[at..end] {
        v |= u64::from(b & 0x7f) << shift;
        shift += 7;
    }
    let mut v = (v as i64 + delta) as u64;
    let mut out = body[..at].to_vec();
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            break;
        }
        out.push(byte | 0x80);
    }
    out.extend_from_slice(&body[end..]);
    out
}

#[test]
fn tampered_certificates_name_the_first_bad_node() {
    let mm = Mastermind::new(3, 4, false).unwrap();
    let body = certify_against_brute_force(&mm, &|q, c| mm.answer(q as CodeId, c as CodeId));
    let (root, child) = claim_offsets(&body);
    // A root claim above the optimum: the root's own inequality fails.
    let err = check_certificate(&mm, &set_varint(&body, root, 1)).unwrap_err().to_string();
    assert!(err.contains("certificate node 0 (after the root)") && err.contains("claims 207"), "{err}");
    // A child claim raised: that child fails, named by its path.
    let err = check_certificate(&mm, &set_varint(&body, child, 1)).unwrap_err().to_string();
    assert!(err.contains("certificate node 1 (after ") && err.contains("answer"), "{err}");
    // A child claim lowered: the root no longer reaches its claim.
    let err = check_certificate(&mm, &set_varint(&body, child, -1)).unwrap_err().to_string();
    assert!(err.contains("certificate node 0") && err.contains("only bounded by 205"), "{err}");
    // Truncated and trailing bytes.
    let err = check_certificate(&mm, &body[..body.len() - 1]).unwrap_err().to_string();
    assert!(err.contains("the file ends inside the node"), "{err}");
    let err = check_certificate(&mm, &[&body[..], &[0]].concat()).unwrap_err().to_string();
    assert!(err.contains("after the last node"), "{err}");
}

/// Symmetry words: a generator swap is accepted, an unknown generator refused.
#[test]
fn false_symmetry_witnesses_are_refused() {
    let mm = Mastermind::new(3, 4, false).unwrap();
    // Root claim 1, one word (generator 2: swap colours A and B), no children.
    let ok = [1u8, 1, 1, 2, 0];
    assert_eq!(check_certificate(&mm, &ok).unwrap().bound, 1);
    let bad_gen = [1u8, 1, 1, 200, 0];
    let err = check_certificate(&mm, &bad_gen).unwrap_err().to_string();
    assert!(err.contains("unknown generator"), "{err}");
}

#[test]
fn the_command_line_writes_checks_and_refuses_edited_certificates() {
    let dir = scratch_dir("cert-cli");
    let (tree, cert) = (dir.join("t.json"), dir.join("c.cert"));
    let (tree, cert) = (tree.to_str().unwrap(), cert.to_str().unwrap());
    let mm = ["perfect", "mastermind", "--pegs", "3", "--colors", "4"];
    let out = bin(&[&mm[..], &["--tree", tree, "--certificate", cert]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = bin(&["verify", tree, "--certificate", cert]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("at least 206") && text.contains("optimal"), "{text}");
    // Certificates are for the plain optimum only.
    let out = bin(&[&mm[..], &["--max-depth", "4", "--certificate", cert]].concat());
    assert_eq!(out.status.code(), Some(2));
    // An edited body: the node is named, and the broken seal too.
    let raw = std::fs::read(cert).unwrap();
    let mut data = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&raw[..]), &mut data).unwrap();
    let body_start = data.iter().enumerate().filter(|(_, b)| **b == b'\n').nth(1).unwrap().0 + 1;
    let (_, child) = claim_offsets(&data[body_start..]);
    let edited = [&data[..body_start], &set_varint(&data[body_start..], child, 1)[..]].concat();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, &edited).unwrap();
    std::fs::write(cert, gz.finish().unwrap()).unwrap();
    let out = bin(&["verify", "--certificate", cert]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("certificate node 1") && err.contains("CRC-32") && err.lines().count() == 1, "{err}");
    assert!(!err.contains("panicked"));
    // Not a certificate at all.
    std::fs::write(cert, b"garbage").unwrap();
    let out = bin(&["verify", "--certificate", cert]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a certificate file"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The committed certificates of MM-360 and MM-1296 (`reproduce perfect`)
/// check, intact, to the totals of the committed trees (MM(4,7)'s and
/// Beams(3c,6p)'s take ≈ 10 s each and are checked by `reproduce perfect`).
#[test]
fn committed_certificates_prove_the_committed_trees_optimal() {
    use renyi_search::certificate::read_certificate;
    use renyi_search::games::GameSpec;
    use renyi_search::search::tree::read_strategy_file;
    let trees = common::root().join("results/data/trees");
    for (name, distinct) in [("perfect-mm360", true), ("perfect-mm1296", false)] {
        let file = read_certificate::<GameSpec>(&trees.join(format!("{name}.cert"))).unwrap();
        assert!(file.broken.is_empty(), "{name}: seal");
        assert_eq!(file.header.game, GameSpec::Mastermind { pegs: 4, colors: 6, distinct });
        let report = check_certificate(&Mastermind::new(4, 6, distinct).unwrap(), &file.body).unwrap();
        let text = std::fs::read_to_string(trees.join(format!("{name}.json"))).unwrap();
        let (tree, _) = read_strategy_file::<GameSpec>(&text).unwrap();
        assert_eq!((report.bound, file.header.bound), (tree.total, tree.total), "{name}");
    }
}

/// Beams has no solving answer: the checker's leaf bound (δ from every pair
/// of codes) proves the search's optimum of Beams(2c,9p), 1080.
#[test]
fn a_beams_certificate_proves_the_optimum_with_the_leaf_bound() {
    use renyi_search::games::beams::game::{Beams, Penalty, QueryOrder};
    use renyi_search::games::beams::patterns::load_or_build;
    let dir = scratch_dir("cert-beams");
    let (patterns, _) = load_or_build("2c9p".parse().unwrap(), Some(&dir)).unwrap();
    let game = Beams::new(patterns, QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    let (result, search) = solve_perfect(&game);
    assert_eq!(result.total, 1080);
    let (body, _) = build_certificate(&search, &game, result.total).unwrap();
    assert_eq!(check_certificate(&game, &body).unwrap().bound, 1080);
    assert!(build_certificate(&search, &game, 1081).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `perfect --depth-bound`: the lower bound of the tree expanded k queries
/// deep never passes the exhaustive optimum, grows with k, reaches the
/// optimum on these small games, and its certificate checks to it.
#[test]
fn depth_bounds_grow_to_the_exhaustive_optimum() {
    use renyi_search::certificate::depth_bound_certificate;
    use renyi_search::search::{Presentation, Rules};
    fn bounds<P: Certify + Sync>(game: &P, depths: u32) -> Vec<u64>
    where
        P::State: Send + Sync,
    {
        (0..=depths)
            .map(|k| {
                let (bound, body, _) = depth_bound_certificate(game, k, None, &Progress::none()).unwrap();
                assert_eq!(check_certificate(game, &body).unwrap().bound, bound, "{} depth {k}", game.name());
                bound
            })
            .collect()
    }
    for (pegs, colors, expected) in [(2, 4, vec![43, 45, 45]), (3, 3, vec![72, 73, 73]), (3, 4, vec![194, 206, 206])] {
        let mm = Mastermind::new(pegs, colors, false).unwrap();
        let n = mm.code_count();
        let optimum = brute(n, &|q, c| mm.answer(q as CodeId, c as CodeId), (1u128 << n) - 1, &mut HashMap::new());
        assert_eq!(*expected.last().unwrap(), optimum);
        assert_eq!(bounds(&mm, 2), expected, "{}", mm.name());
    }
    let bc = BullsAndCows::new(3, 6).unwrap();
    assert_eq!(bounds(&bc, 3), vec![413, 430, 436, 436]);
    // A game without a solving answer (the leaf bound below the expanded levels).
    use renyi_search::games::beams::game::{Beams, Penalty, QueryOrder};
    use renyi_search::games::beams::patterns::load_or_build;
    let dir = scratch_dir("depth-bound-beams");
    let (patterns, _) = load_or_build("2c9p".parse().unwrap(), Some(&dir)).unwrap();
    let game = Beams::new(patterns, QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    let found = bounds(&game, 2);
    assert!(found.windows(2).all(|w| w[0] <= w[1]) && found[2] <= 1080, "{found:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `perfect --depth-bound K --checkpoint F`: a run stopped part-way (its
/// checkpoint cut after two finished root queries, with a fragment of the
/// next line) resumes with the others and gives the same bound and the same
/// certificate bytes as a run without a checkpoint; a root query's record
/// without the class records it names is refused; the CLI refuses
/// --checkpoint without --depth-bound.
#[test]
fn depth_bound_runs_resume_from_their_checkpoint() {
    use renyi_search::certificate::depth_bound_certificate;
    let dir = scratch_dir("depth-bound-checkpoint");
    std::fs::create_dir_all(&dir).unwrap();
    let game = Mastermind::new(4, 4, false).unwrap();
    let (bound, body, _) = depth_bound_certificate(&game, 2, None, &Progress::none()).unwrap();
    let path = dir.join("mm256.ckpt");
    let (first, first_body, _) = depth_bound_certificate(&game, 2, Some(&path), &Progress::none()).unwrap();
    assert_eq!((first, &first_body), (bound, &body));
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let roots: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].contains("{\"root\":")).collect();
    assert!(roots.len() > 3, "{} root queries", roots.len());
    // Up to the second finished root query (with the class records before it) and a fragment.
    let kept = lines[..=roots[1]].join("\n");
    std::fs::write(&path, format!("{kept}\n{}", &lines[roots[1] + 1][..20])).unwrap();
    let (again, again_body, _) = depth_bound_certificate(&game, 2, Some(&path), &Progress::none()).unwrap();
    assert_eq!((again, &again_body), (bound, &body));
    let again_text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(again_text.lines().filter(|l| l.contains("{\"root\":")).count(), roots.len());
    // A root query's record without the class records it rests on is refused.
    let raised = roots.iter().find(|&&i| lines[i].contains("\"raised\":[{")).expect("a query with raised classes");
    let without: Vec<&str> = lines[..=*raised].iter().copied().filter(|l| !l.contains("{\"class\":")).collect();
    std::fs::write(&path, without.join("\n") + "\n").unwrap();
    let err = depth_bound_certificate(&game, 2, Some(&path), &Progress::none()).err().unwrap().to_string();
    assert!(err.contains("which has no class record"), "{err}");
    // Another depth is another run.
    let err = depth_bound_certificate(&game, 1, Some(&path), &Progress::none()).err().unwrap().to_string();
    assert!(err.contains("identity"), "{err}");
    let ckpt = dir.join("x.ckpt");
    let out =
        bin(&["perfect", "--checkpoint", ckpt.to_str().unwrap(), "bulls-and-cows", "--digits", "3", "--symbols", "6"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--depth-bound"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A `--depth-bound` run stopped inside a root query (its checkpoint cut to
/// three proved classes of the first and a fragment of a fourth) proves only
/// the rest and gives the uninterrupted certificate byte for byte, on one
/// thread (where the resumed file ends with the uninterrupted run's records)
/// and on three (classes in parallel). A class record of another run, and
/// records of a root query or class the run does not have, are refused.
#[test]
fn depth_bound_runs_resume_inside_a_root_query() {
    use renyi_search::certificate::depth_bound_certificate;
    use renyi_search::certificate::depth_checkpoint::{ClassRecord, DepthRecord};
    use renyi_search::output::sealed_lines::keyed_line;
    use std::path::Path;
    let dir = scratch_dir("depth-bound-classes");
    let game = Mastermind::new(4, 4, false).unwrap();
    let pool = |threads| rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    let (one, three) = (pool(1), pool(3));
    let run = |pool: &rayon::ThreadPool, path: Option<&Path>| {
        pool.install(|| depth_bound_certificate(&game, 2, path, &Progress::none()))
    };
    let (bound, body, _) = run(&one, None).unwrap();
    assert_eq!(run(&three, None).unwrap().1, body);
    let path = dir.join("mm256.ckpt");
    assert_eq!(run(&one, Some(&path)).unwrap().1, body);
    let whole = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = whole.lines().collect();
    assert!(lines[1..5].iter().all(|l| l.contains("{\"class\":{\"rep\":")), "{}", &whole[..300]);
    let kept = lines[..4].join("\n") + "\n";
    let cut = format!("{kept}{}", &lines[4][..30]);
    std::fs::write(&path, &cut).unwrap();
    let (again, again_body, _) = run(&one, Some(&path)).unwrap();
    assert_eq!((again, &again_body), (bound, &body));
    let sorted = |text: &str| {
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        lines.sort();
        lines
    };
    assert_eq!(sorted(&std::fs::read_to_string(&path).unwrap()), sorted(&whole));
    std::fs::write(&path, &cut).unwrap();
    assert_eq!(run(&three, Some(&path)).unwrap().1, body);
    assert_eq!(run(&three, Some(&path)).unwrap().1, body, "the resumed file reads back (no record twice)");
    // A class record of another run (depth 1) is refused where it stands.
    let other = dir.join("depth1.ckpt");
    depth_bound_certificate(&game, 1, Some(&other), &Progress::none()).unwrap();
    let other_text = std::fs::read_to_string(&other).unwrap();
    let foreign = other_text.lines().find(|l| l.contains("{\"class\":")).unwrap();
    std::fs::write(&path, format!("{kept}{foreign}\n")).unwrap();
    let err = run(&one, Some(&path)).err().unwrap().to_string();
    assert!(err.contains("line 5") && err.contains("another run"), "{err}");
    // Sealed with this run's key, but of a root query or class it does not have.
    let key = &lines[0][..8];
    for (rep, position, message) in [(5, 0, "root query 5 is beyond the run's 5"), (0, 9999, "no class of two or more")]
    {
        let wrong =
            ClassRecord { rep, answer: 0, position, claim: 3, written: 1, digest: String::new(), body: String::new() };
        let line = keyed_line(key, &DepthRecord::Class(wrong));
        std::fs::write(&path, format!("{kept}{line}\n")).unwrap();
        let err = run(&one, Some(&path)).err().unwrap().to_string();
        assert!(err.contains(message), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
