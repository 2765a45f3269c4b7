//! `reproduce perfect` shows long searches (Bulls and Cows 4 of 10) from their
//! committed trees: the tree is replayed, its seal and totals checked, and a
//! missing tree is no row.

mod common;
use common::scratch_dir;
use renyi_search::certificate::{Header, build_certificate, write_certificate};
use renyi_search::games::GameSpec;
use renyi_search::games::bulls_and_cows::BullsAndCows;
use renyi_search::output::{layout, write_json};
use renyi_search::reproduce::perfect_committed::committed_row;
use renyi_search::search::perfect::solve_perfect;
use renyi_search::search::tree::{StrategyFile, export, verify};

#[test]
fn a_committed_tree_is_replayed_and_an_edited_one_refused() {
    let dir = scratch_dir("committed-tree");
    let bc = BullsAndCows::new(3, 6).unwrap();
    let published = Some(("test", "436"));
    assert!(committed_row(&bc, &dir, "bc36", published, Some(5), true).unwrap().is_none());
    let (result, search) = solve_perfect(&bc);
    let tree = export(&search, &bc).unwrap();
    let max_depth = verify(&bc, &tree).unwrap().max_depth;
    let file = StrategyFile {
        game: GameSpec::BullsAndCows { digits: 3, symbols: 6 },
        codes: result.codes,
        total: result.total,
        constraints: result.constraints,
        max_depth: Some(max_depth),
        program: "renyi-search".into(),
        version: "test".into(),
        tree,
        seal: None,
    };
    let path = layout::tree(&dir, "bc36.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    write_json(&path, &file.sealed()).unwrap();
    std::fs::write(layout::tree(&dir, "bc36.log"), "  total 436\n  nodes     54 in 0.01 s\n").unwrap();
    let row = committed_row(&bc, &dir, "bc36", published, Some(5), true).unwrap().unwrap();
    assert_eq!((row.total, row.max_depth, row.codes), (436, max_depth, 120));
    assert_eq!(row.published.as_ref().unwrap().1.mark(), "=");
    assert_eq!(row.run, "nodes     54 in 0.01 s");
    assert!(row.certificate.is_none());
    // With its certificate, checked in full; one for another total is refused.
    let cert = layout::tree(&dir, "bc36.cert");
    let (body, built) = build_certificate(&search, &bc, result.total).unwrap();
    let spec = GameSpec::BullsAndCows { digits: 3, symbols: 6 };
    write_certificate(&cert, Header::total(spec.clone(), 120, 436, built.nodes), &body).unwrap();
    let row = committed_row(&bc, &dir, "bc36", published, Some(5), true).unwrap().unwrap();
    assert_eq!(row.certificate.map(|c| c.bound), Some(436));
    let (weaker, built) = build_certificate(&search, &bc, 430).unwrap();
    write_certificate(&cert, Header::total(spec, 120, 430, built.nodes), &weaker).unwrap();
    let err = committed_row(&bc, &dir, "bc36", published, Some(5), true).err().expect("refused").to_string();
    assert!(err.contains("proves 430"), "{err}");
    std::fs::remove_file(&cert).unwrap();
    // An edited total breaks the seal.
    let mut value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    value["total"] = 435.into();
    std::fs::write(&path, value.to_string()).unwrap();
    let err = committed_row(&bc, &dir, "bc36", published, Some(5), true).err().expect("refused").to_string();
    assert!(err.contains("seal"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The committed Beams(6c,3p) bounds: each certificate's sealed bound (K = 1,
/// 2, 3) and the best H_α strategy's exact total (the proofs themselves are
/// checked in full by `reproduce perfect` and `verify --certificate`, minutes).
#[test]
fn the_committed_beams_6c3p_bounds() {
    use renyi_search::reproduce::perfect_committed::bounds_rows;
    let codes = scratch_dir("bounds-6c3p-codes");
    let rows =
        bounds_rows(std::path::Path::new("results"), Some(&codes), false, &renyi_search::progress::Progress::none())
            .unwrap();
    let found: Vec<(u32, u64, u64)> = rows.iter().map(|r| (r.depth, r.lower, r.nodes)).collect();
    assert_eq!(found, [(1, 895_482, 124), (2, 1_116_571, 16_048), (3, 1_318_812, 1_624_012)]);
    assert!(rows.iter().all(|r| (r.upper, r.codes) == (1_720_698, 223_920)));
    std::fs::remove_dir_all(&codes).unwrap();
}

/// The committed Bulls and Cows 4 of 10 optimum (docs/runs.md): every one of
/// the 5040 codes replays through the sealed tree to the published 26274
/// with worst case 7, and 6 queries do not suffice for every code.
#[test]
fn the_committed_bulls_and_cows_4_of_10_optimum() {
    use renyi_search::reproduce::perfect_committed::rows;
    use renyi_search::search::perfect::{Constraints, Objective, TableKeys, optimise};
    let rows = rows(std::path::Path::new("results"), false).unwrap();
    let bc = rows.iter().find(|r| r.codes == 5040).expect("the committed Bulls and Cows 4 of 10 row");
    assert_eq!((bc.total, bc.max_depth), (26_274, 7));
    assert_eq!(bc.published.as_ref().unwrap().1.mark(), "=");
    let bc = BullsAndCows::new(4, 10).unwrap();
    let within_6 = Constraints { max_depth: Some(6), possible_only: false };
    let progress = renyi_search::progress::Progress::none();
    let capped = optimise(&bc, within_6, Objective::Total, TableKeys::Exact, &progress).unwrap();
    assert!(capped.result.is_none(), "no strategy within 6 queries");
}
