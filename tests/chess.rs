//! Ströhlein's endgame tables (../shared/reference/seed000-chess.md, test list C1–C13): every
//! number as an exact value, histograms included.

use renyi_search::graph::WinLossDraw;
use renyi_search::two_player::chess::board::{Piece, parse_square};
use renyi_search::two_player::chess::endgame::{MoveResult, move_to};
use renyi_search::two_player::chess::position::{Position, parse_position, quadrant_position_count};
use renyi_search::two_player::chess::table::SideSummary;
use renyi_search::two_player::chess::{Endgame, Metric, Table, Tablebase};
use std::collections::BTreeMap;
use std::sync::Arc;

fn histogram(text: &str) -> BTreeMap<u32, u64> {
    text.split_whitespace()
        .map(|kv| {
            let (k, v) = kv.split_once(':').unwrap();
            (k.parse().unwrap(), v.parse().unwrap())
        })
        .collect()
}

fn table(base: &mut Tablebase, name: &str, metric: Metric) -> Arc<Table> {
    base.table(Endgame::parse(name).unwrap(), metric)
}

fn probe(t: &Table, text: &str) -> WinLossDraw {
    let pos = parse_position(text, &t.endgame.pieces(), t.endgame.men(), true).unwrap();
    t.probe(&pos).unwrap()
}

/// (max, positions at max, classes at max) for White to move.
fn at_max(s: &SideSummary) -> (u32, u64, u64) {
    let m = s.max_won().unwrap();
    (m, s.won_by_depth[&m], s.won_classes_by_depth[&m])
}

/// C1–C4: the 3-man endings under DTM, with full histograms.
#[test]
fn three_man_endings() {
    let mut base = Tablebase::new();
    let krk = table(&mut base, "KRK", Metric::Dtm);
    let w = krk.summary(true);
    assert_eq!((w.legal, w.won), (175_168, 175_168), "C2: always won");
    assert_eq!(at_max(&w), (16, 916, 121), "C1");
    assert_eq!(
        w.won_by_depth,
        histogram(
            "1:1512 2:4676 3:3852 4:1900 5:4848 6:8708 7:11320 8:17172 9:20088 10:19016 11:20476 12:21480 13:17824 14:16136 15:5244 16:916"
        )
    );
    assert_eq!(probe(&krk, "Ka1 Tb2 / Kc3").winner_moves(), Some(16), "C3");
    assert_eq!(probe(&krk, "w Ka1 Th8, s Kd5").winner_moves(), Some(16), "C3");
    let b = krk.summary(false);
    assert_eq!((b.legal, b.lost, b.max_lost()), (223_944, 201_700, Some(16)));

    let kqk = table(&mut base, "KQK", Metric::Dtm);
    let w = kqk.summary(true);
    assert_eq!((w.legal, w.won), (144_508, 144_508));
    assert_eq!(at_max(&w), (10, 8, 1), "C4");
    assert_eq!(w.representatives_at_max, vec!["Ka1 Qb2 kf5"]);
    assert_eq!(probe(&kqk, "Ka1 Db2 / Ke6").winner_moves(), Some(10), "C4");
    assert_eq!(w.won_by_depth, histogram("1:2448 2:5012 3:9064 4:19964 5:26164 6:32064 7:32104 8:15000 9:2680 10:8"));
    let b = kqk.summary(false);
    assert_eq!((b.legal, b.lost, b.max_lost()), (223_944, 200_896, Some(10)));
}

/// C5, C5b, C6, C8, C9, C10, C11: the 4-man endings under all three metrics.
#[test]
fn four_man_endings() {
    let mut base = Tablebase::new();
    let krkb = table(&mut base, "KRKB", Metric::Stroehlein);
    let w = krkb.summary(true);
    assert_eq!((w.legal, w.won), (10_780_728, 3_787_160));
    assert_eq!(at_max(&w), (18, 232, 29), "C5b: 232/29 (thesis prints 224/28; see results/tables/chess.md)");
    assert!(w.representatives_at_max.contains(&"Kd1 Rc3 kg1 bf1".to_string()));
    assert_eq!(probe(&krkb, "Ka4 Tc3 / Ka7 La6").winner_moves(), Some(18), "C5");
    assert_eq!(
        w.won_by_depth,
        histogram(
            "1:2981336 2:640432 3:58664 4:25376 5:17096 6:14200 7:11496 8:8416 9:6552 10:6168 11:6120 12:4224 13:2336 14:1568 15:1272 16:1256 17:416 18:232"
        )
    );
    let b = krkb.summary(false);
    assert_eq!((b.legal, b.lost, b.max_lost()), (11_832_464, 381_888, Some(18)), "C11");

    let krkn = table(&mut base, "KRKN", Metric::Stroehlein);
    let w = krkn.summary(true);
    assert_eq!(at_max(&w), (27, 16, 2), "C6");
    assert_eq!(w.representatives_at_max, vec!["Kc1 Rf8 ka3 ne2", "Kd1 Rh1 kb1 ng4"]);
    assert_eq!(probe(&krkn, "Kd1 Th1 / Kb1 Sg4").winner_moves(), Some(27));
    assert_eq!(
        w.won_by_depth,
        histogram(
            "1:2981336 2:782680 3:381128 4:251540 5:161080 6:122696 7:95856 8:76980 9:68660 10:61068 11:51068 12:43360 13:33280 14:26808 15:18284 16:13204 17:10596 18:8444 19:6212 20:4608 21:3992 22:3008 23:2496 24:1488 25:888 26:144 27:16"
        )
    );
    let b = krkn.summary(false);
    assert_eq!((b.legal, b.lost, b.max_lost()), (12_535_256, 1_364_800, Some(27)), "C11");

    let kqkr = table(&mut base, "KQKR", Metric::Stroehlein);
    let w = kqkr.summary(true);
    assert_eq!((w.legal, w.won), (8_952_608, 8_863_768));
    assert_eq!(at_max(&w), (31, 32, 4), "C8");
    assert_eq!(probe(&kqkr, "Ka2 Da3 / Ke4 Th2").winner_moves(), Some(31), "C8");
    assert_eq!(
        w.won_by_depth,
        histogram(
            "1:3503976 2:1501344 3:346944 4:220632 5:184168 6:127424 7:85236 8:63232 9:50176 10:48784 11:55348 12:66616 13:77428 14:88892 15:98424 16:121956 17:144244 18:169120 19:194476 20:223952 21:261204 22:273836 23:279780 24:246856 25:191940 26:126104 27:70712 28:31096 29:8788 30:1048 31:32"
        )
    );
    let b = kqkr.summary(false);
    assert_eq!((b.legal, b.lost, b.max_lost()), (10_780_728, 7_062_680, Some(31)), "C11");

    let dtc = table(&mut base, "KQKR", Metric::Dtc);
    assert_eq!(at_max(&dtc.summary(true)), (31, 16, 2), "C9: plain DTC");
    assert_eq!(probe(&dtc, "Ka2 Qa3 / Ke4 Rh2").winner_moves(), Some(30), "C9");
    assert_eq!(at_max(&table(&mut base, "KRKB", Metric::Dtc).summary(true)), (18, 232, 29), "C10");
    assert_eq!(at_max(&table(&mut base, "KRKN", Metric::Dtc).summary(true)).0, 27, "C10");

    let dtm = table(&mut base, "KQKR", Metric::Dtm);
    assert_eq!(at_max(&dtm.summary(true)), (35, 80, 10), "C10");
    assert_eq!(probe(&dtm, "Ka2 Qa3 / Ke4 Rh2").winner_moves(), Some(35));
    let krkn_dtm = table(&mut base, "KRKN", Metric::Dtm);
    assert_eq!(at_max(&krkn_dtm.summary(true)), (40, 8, 1), "C10");
    assert_eq!(krkn_dtm.summary(true).representatives_at_max, vec!["Kd3 Rc7 kh4 ne1"]);
    assert_eq!(at_max(&table(&mut base, "KRKB", Metric::Dtm).summary(true)), (29, 232, 29), "C10");
}

/// The tables satisfy the minimax equations, re-derived by forward move
/// generation (no un-moves, no symmetry weights), and C12: all 8 images of a
/// position get the same value.
#[test]
fn tables_pass_the_forward_check() {
    let mut base = Tablebase::new();
    for (name, metric) in
        [("KRK", Metric::Dtm), ("KQK", Metric::Stroehlein), ("KRKN", Metric::Stroehlein), ("KQKR", Metric::Dtm)]
    {
        let t = table(&mut base, name, metric);
        assert_eq!(t.verify(&base), 0, "{name} {metric:?}");
    }
    let t = table(&mut base, "KRKN", Metric::Stroehlein);
    let pos = parse_position("Kd1 Rh1 / Kb1 Ng4", &t.endgame.pieces(), 4, true).unwrap();
    let g = renyi_search::two_player::chess::board::Geometry::get();
    for s in 0..8 {
        let mut image = pos;
        image.men.iter_mut().for_each(|m| *m = g.transform(s, *m));
        assert_eq!(t.probe(&image), t.probe(&pos));
    }
}

/// C7: Ströhlein's KRKN game (with 9…Ka4) is value-optimal at every ply and
/// the knight falls on White's 27th move.
#[test]
fn stroehlein_krkn_game_is_optimal() {
    let mut base = Tablebase::new();
    let t = table(&mut base, "KRKN", Metric::Stroehlein);
    let pieces = t.endgame.pieces();
    let game = "Th4 Se5 Te4 Sf7 Tb4 Ka2 Kc2 Ka3 Kc3 Sd6 Tb6 Se4 Kd3 Sf2 Kc4 Sd1 Tb3 Ka4 Tf3 Sb2 Kc3 Ka3 Tg3 Sa4 \
                Kc4 Ka2 Kb4 Sb2 Tg4 Sd3 Kc3 Sc5 Tc4 Se6 Ta4 Kb1 Ta5 Sg7 Te5 Ka2 Kd4 Kb3 Kd5 Kc3 Kc6 Kd4 Kd6 Kd3 Ke7 Kd4 Tg5";
    let mut pos: Position = parse_position("Kd1 Th1 / Kb1 Sg4", &pieces, 4, true).unwrap();
    for (ply, token) in game.split_whitespace().enumerate() {
        let piece = Piece::from_letter(token.chars().next().unwrap()).unwrap();
        let to = parse_square(&token[1..]).unwrap();
        let best = t.moves(&pos, &base).into_iter().map(|(_, v)| v).reduce(WinLossDraw::best).unwrap();
        let Some(MoveResult::Quiet(next)) = move_to(&pieces, &pos, piece, to).map(|m| m.result) else {
            panic!("ply {ply}: {token} is not a quiet legal move")
        };
        let played = t.probe(&next).unwrap().before_move();
        assert_eq!(played, best, "ply {ply}: {token} is not optimal");
        pos = next;
    }
    assert_eq!(t.probe(&pos).unwrap().winner_moves(), Some(1), "after 26.Tg5 the knight falls on move 27");
}

/// C13: Ströhlein's position count (wK in a quadrant, incidences and touching kings excluded).
#[test]
fn quadrant_count() {
    assert_eq!(quadrant_position_count(), 3_415_146);
    assert_eq!(16 * 64u64.pow(3), 4_194_304);
}

/// Move generation and legality checked against an independent chess library
/// (cozy-chess): on sampled legal positions of every endgame, both sides to
/// move, the number of legal moves and the check status agree; FEN round-trips.
#[test]
fn move_generation_agrees_with_cozy_chess() {
    use renyi_search::two_player::chess::endgame::for_each_move;
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for name in ["KRK", "KQK", "KRKB", "KRKN", "KQKR", "KBKN", "KNKQ"] {
        let endgame = Endgame::parse(name).unwrap();
        let pieces = endgame.pieces();
        let mut checked = 0;
        while checked < 4000 {
            let r = next();
            let mut men = [0u8; 4];
            for (i, m) in men.iter_mut().enumerate().take(endgame.men()) {
                *m = (r >> (6 * i) & 63) as u8;
            }
            let pos = Position { men, count: endgame.men(), white_to_move: r >> 40 & 1 == 0 };
            if !pos.is_legal(&pieces) {
                continue;
            }
            checked += 1;
            let fen = pos.fen(&pieces);
            let board: cozy_chess::Board = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e:?}"));
            let mut theirs = 0;
            board.generate_moves(|moves| {
                theirs += moves.len();
                false
            });
            let mut ours = 0;
            for_each_move(&pieces, &pos, |_| ours += 1);
            assert_eq!(ours, theirs, "{name} {fen}");
            assert_eq!(pos.in_check(&pieces), !board.checkers().is_empty(), "{name} {fen}");
            assert_eq!(parse_position(&fen, &pieces, endgame.men(), true).unwrap(), pos);
        }
    }
}
