//! H-search derivations in Hex proofs (proof version 5, `derive.rs`): the
//! checker verifies each rule application of Def 3.1 instead of playing the
//! game on the carrier; it accepts the solver's derived proofs and refuses
//! forged derivations.

use renyi_search::two_player::connection::hex::board::{Board, Colour};
use renyi_search::two_player::connection::hex::check::check_proof;
use renyi_search::two_player::connection::hex::hsearch::Limits;
use renyi_search::two_player::connection::hex::plain::board_winner;
use renyi_search::two_player::connection::hex::proof::{Proof, ProofStep};
use renyi_search::two_player::connection::hex::seed_checks::{Rng, random_positions};
use renyi_search::two_player::connection::hex::solver::Solver;

const WIDE: Limits = Limits { max_or: 8, max_carrier: 16, max_per_pair: 32, ..Limits::SOLVER };

/// The solver's proofs on random 4×4, 5×5 and 6×6 positions (both movers, the
/// solver's and wider edge limits) carry derivations; the checker accepts
/// them (and the same proofs without derivations, by the carrier games).
#[test]
fn derived_proofs_on_random_positions_check() {
    let mut rng = Rng::new(51);
    let mut positions = random_positions(&Board::new(4, 4).unwrap(), 4, 10, &mut rng);
    positions.extend(random_positions(&Board::new(5, 5).unwrap(), 9, 10, &mut rng));
    positions.extend(random_positions(&Board::new(6, 6).unwrap(), 14, 6, &mut rng));
    let (mut derived, mut checked) = (0, 0);
    for (i, p) in positions.into_iter().enumerate() {
        for mover in [Colour::Black, Colour::White] {
            let p = renyi_search::two_player::connection::hex::position::Position { to_move: mover, ..p.clone() };
            let mut solver = Solver::baseline(p.board.clone());
            if i % 2 == 1 {
                solver.edge_limits = WIDE;
            }
            let proof = solver.proof(&p).unwrap();
            if p.board.cells() <= 25 {
                assert_eq!(proof.winner, board_winner(&p), "{}", p.diagram());
            }
            let again = Proof::from_text(&proof.to_text()).unwrap();
            assert_eq!((&again.steps, &again.derivations), (&proof.steps, &proof.derivations));
            let report = check_proof(&again).unwrap();
            let by = proof.steps.iter().filter(|s| matches!(s.3, ProofStep::Carrier(_, Some(_)))).count();
            assert_eq!(report.derived, by);
            derived += report.derived;
            let mut plain = again.clone();
            for s in &mut plain.steps {
                if let ProofStep::Carrier(c, _) = s.3 {
                    s.3 = ProofStep::Carrier(c, None);
                }
            }
            assert_eq!(check_proof(&plain).unwrap().derived, 0);
            checked += 1;
        }
    }
    assert_eq!(checked, 52);
    assert!(derived >= 30, "{derived} carriers accepted by their derivations");
}

/// Forged derivations in the solver's proofs: a cell taken out of a derived
/// carrier (the step's, or the line's own) is refused.
#[test]
fn a_carrier_cell_removed_is_refused() {
    let mut rng = Rng::new(5);
    let mut forged = 0;
    for p in random_positions(&Board::new(5, 5).unwrap(), 7, 12, &mut rng) {
        let mut solver = Solver::baseline(p.board.clone());
        solver.edge_limits = WIDE;
        let proof = solver.proof(&p).unwrap();
        let Some(i) = proof.steps.iter().position(|s| matches!(s.3, ProofStep::Carrier(c, Some(_)) if c != 0)) else {
            continue;
        };
        let ProofStep::Carrier(c, Some(line)) = proof.steps[i].3 else { unreachable!() };
        let cell = proof.derivations[line].carrier.trailing_zeros();
        // The step's carrier without a cell of the derivation's.
        let mut a = proof.clone();
        a.steps[i].3 = ProofStep::Carrier(c & !(1 << cell), Some(line));
        assert!(check_proof(&a).is_err(), "{}", a.to_text());
        // The line's carrier without it (its rule no longer gives that carrier).
        let mut b = proof.clone();
        b.derivations[line].carrier &= !(1 << cell);
        b.steps[i].3 = ProofStep::Carrier(c & !(1 << cell), Some(line));
        let err = check_proof(&b).unwrap_err().to_string();
        assert!(err.contains(&format!("derivation line {line}")), "{err}");
        forged += 1;
    }
    assert!(forged >= 5, "{forged} forged proofs");
}

/// A proof of the empty 4×4 board (Black to move) whose only step is a carrier
/// derived by the lines `body` (then the edge1–edge2 line `or N N` over the last).
fn hand_proof(body: &[&str]) -> Proof {
    let mut text = String::from("hex-proof 5\nboard 4x4\nblack\nwhite\nto-move black\nwinner black\n");
    let top = body.len();
    text.push_str(&format!("{:032x} {:032x} b carrier a1,b1,c1,d1,a2,b2,c2,d2,a3,b3,c3,d3 by {top}\n", 0, 0));
    for (i, line) in body.iter().enumerate() {
        text.push_str(&format!("d {i} {line}\n"));
    }
    let last = top - 1;
    text.push_str(&format!("d {top} vc edge1 edge2 a1,b1,c1,d1,a2,b2,c2,d2,a3,b3,c3,d3 or {last} {last}\n"));
    Proof::from_text(&text).unwrap()
}

/// The bridge VC (a1, {b1, a2}, b2) and the VC (b2, {a2, b3}, a3) on the empty 4×4 board, Black's view.
const LINES: [&str; 13] = [
    "vc a1 b1 - base",
    "vc b1 b2 - base",
    "sc a1 b2 b1 and 0 1",
    "vc a1 a2 - base",
    "vc a2 b2 - base",
    "sc a1 b2 a2 and 3 4",
    "vc a1 b2 b1,a2 or 2 5",
    "vc a2 a3 - base",
    "sc b2 a3 a2 and 4 7",
    "vc b2 b3 - base",
    "vc b3 a3 - base",
    "sc b2 a3 b3 and 9 10",
    "vc b2 a3 a2,b3 or 8 11",
];

/// Def 3.1 in the checker: an AND of two VCs whose carriers overlap (a2) and
/// an OR of SCs with a common cell are refused at their own line; the same
/// lines with disjoint parts pass (the refusal moves to the top line `or N N`).
#[test]
fn overlapping_and_parts_and_a_non_empty_or_intersection_are_refused() {
    let error = |extra: &[&str]| {
        let lines: Vec<&str> = LINES.iter().chain(extra).copied().collect();
        check_proof(&hand_proof(&lines)).unwrap_err().to_string()
    };
    // AND of (a1, {b1, a2}, b2) and (b2, {a2, b3}, a3): the parts share a2.
    assert!(error(&["sc a1 a3 b1,a2,b2,b3 and 6 12"]).contains("derivation line 13:"));
    // AND of (a1, {b1, a2}, b2) and (b2, ∅, b3): disjoint, an SC; only the top line is refused.
    assert!(error(&["sc a1 b3 b1,a2,b2 and 6 9"]).contains("derivation line 14:"));
    // A wrong carrier for a correct AND.
    assert!(error(&["sc a1 b3 b1,a2 and 6 9"]).contains("derivation line 13:"));
    // OR of (b2, {a2}, a3) with itself: the intersection {a2} is not empty.
    assert!(error(&["vc b2 a3 a2 or 8 8"]).contains("derivation line 13:"));
    // OR of (b2, {a2}, a3) and (b2, {b3}, a3) again as line 13: it passes.
    assert!(error(&["vc b2 a3 a2,b3 or 8 11"]).contains("derivation line 14:"));
    // A base line between cells that are not adjacent.
    assert!(error(&["vc a1 c1 - base"]).contains("derivation line 13:"));
}
