//! Hex boards and positions: neighbours, names, chains, diagrams and SGF.

use renyi_search::two_player::connection::hex::board::{Board, Colour};
use renyi_search::two_player::connection::hex::position::Position;

#[test]
fn neighbours_and_names() {
    let b = Board::new(3, 3).unwrap();
    let centre = b.parse_cell("b2").unwrap();
    assert_eq!(centre, 4);
    assert_eq!(b.set_names(b.neighbours(centre)), "b1,c1,a2,c2,a3,b3");
    assert_eq!(b.set_names(b.neighbours(0)), "b1,a2");
    assert!(b.parse_cell("d1").is_err());
    assert!(b.parse_cell("a0").is_err());
    assert!(Board::new(12, 3).is_err());
    // a1-a2-a3 joins Black's top and bottom rows; White needs a column chain left to right.
    assert!(b.connects(Colour::Black, 1 | 1 << 3 | 1 << 6));
    assert!(!b.connects(Colour::White, 1 | 1 << 3 | 1 << 6));
    assert!(b.connects(Colour::White, 1 << 6 | 1 << 4 | 1 << 2));
}

#[test]
fn sgf_and_diagram_agree() {
    let sgf = "(;FF[4]GM[11]SZ[4]AP[HexGui:0.9];B[b2];W[c3];B[a4])";
    let p = Position::from_sgf(sgf).unwrap();
    assert_eq!(p.to_move, Colour::White);
    let d = Position::from_diagram(". . . .\n. B . .\n. . W .\nB . . .", Colour::White).unwrap();
    assert_eq!(p, d);
    assert!(Position::from_sgf("(;FF[4]SZ[4];B[b2])").is_err());
    assert!(Position::from_sgf("(;FF[4]GM[11]SZ[4];B[b2];W[b2])").is_err());
    assert!(Position::from_sgf("(;FF[4]GM[11]SZ[4];B[b2]").is_err());
    assert!(Position::from_sgf("(;FF[4]GM[11]SZ[4];B[e2])").is_err());
}
