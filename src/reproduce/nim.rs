//! The Nim material of seed003 (Eisermann, Kapitel C), recomputed: the
//! published tables (subtraction games, Lasker-Nim, Grundy's game) next to
//! ours, the theorems checked over ranges, and the games whose figures are
//! missing from the source (Cram, Chomp, Poker-Nim, Northcott) computed.

use crate::error::Result;
use crate::graph::WinLossDraw;
use crate::graph::grundy::{HeapRule, heap_values};
use crate::output::Align::Left;
use crate::output::{MarkdownTable, Provenance, write_table};
use crate::two_player::nim::boards::chomp_rectangle;
use crate::two_player::nim::cram::cram;
use crate::two_player::nim::heaps::subtraction_table;
use crate::two_player::nim::loopy_games::{northcott_graph, poker_nim_graph, solve_loopy};
use crate::two_player::nim::tictactoe;
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// A published row of numbers next to ours.
#[derive(Serialize)]
pub struct RowCheck {
    pub name: String,
    pub published: &'static str,
    pub ours: String,
    pub equal: bool,
}

/// A statement checked over a range, or a computed value without a published one.
#[derive(Serialize)]
pub struct Fact {
    pub statement: String,
    pub holds: bool,
}

/// Everything `reproduce nim` computes.
#[derive(Serialize)]
pub struct Report {
    pub provenance: Provenance,
    pub rows: Vec<RowCheck>,
    pub facts: Vec<Fact>,
    /// Grundy's game: heaps computed, P-positions found.
    pub grundy_game: (usize, Vec<usize>),
    /// Seconds Grundy's game took (run log only, not the results file).
    #[serde(skip)]
    pub grundy_seconds: f64,
}

fn join<T: ToString>(v: &[T]) -> String {
    v.iter().map(T::to_string).collect::<Vec<_>>().join(" ")
}

fn check(name: impl Into<String>, published: &'static str, ours: String) -> RowCheck {
    RowCheck { name: name.into(), equal: published == ours, published, ours }
}

const SUBTRACTION: [(&[usize], &str, &str, &str); 4] = [
    (
        &[1, 2],
        "1 0 1 1 0 1 1 0 1 1 0 1 1 0 1 1 0 1 1 0 1",
        "0 1 1 0 1 1 0 1 1 0 1 1 0 1 1 0 1 1 0 1 1",
        "0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2",
    ),
    (
        &[1, 2, 4],
        "1 0 1 1 0 1 1 0 1 1 0 1 1 0 1 1 0 1 1 0 1",
        "0 1 1 0 1 1 0 1 1 0 1 1 0 1 1 0 1 1 0 1 1",
        "0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2",
    ),
    (
        &[1, 3, 4],
        "1 0 1 0 1 1 1 1 0 1 0 1 1 1 1 0 1 0 1 1 1",
        "0 1 0 1 1 1 1 0 1 0 1 1 1 1 0 1 0 1 1 1 1",
        "0 1 0 1 2 3 2 0 1 0 1 2 3 2 0 1 0 1 2 3 2",
    ),
    (
        &[1, 3, 6],
        "1 0 1 0 1 0 1 1 1 1 0 1 0 1 0 1 1 1 1 0 1",
        "0 1 0 1 0 1 1 1 1 0 1 0 1 0 1 1 1 1 0 1 0",
        "0 1 0 1 0 1 2 3 2 0 1 0 1 0 1 2 3 2 0 1 0",
    ),
];

/// Computes everything and writes `nim.md` and `nim.json`; Grundy's game up to `grundy_upto` heaps.
pub fn reproduce(dir: &Path, grundy_upto: usize) -> Result<Report> {
    let clock = Instant::now();
    let mut rows = Vec::new();
    for (set, mu, nu, gamma) in SUBTRACTION {
        let t = subtraction_table(set, 20);
        rows.push(check(format!("S = {set:?}: μ (misère), x = 0..20"), mu, join(&t.misere)));
        rows.push(check(format!("S = {set:?}: ν (normal)"), nu, join(&t.normal)));
        rows.push(check(format!("S = {set:?}: γ"), gamma, join(&t.grundy)));
    }
    rows.push(check(
        "Lasker-Nim γ, x = 0..12 (C201)",
        "0 1 2 4 3 5 6 8 7 9 10 12 11",
        join(&heap_values(&HeapRule::Lasker, 12)),
    ));
    let timer = Instant::now();
    let grundy = heap_values(&HeapRule::GrundySplit, grundy_upto.max(20));
    let grundy_seconds = timer.elapsed().as_secs_f64();
    rows.push(check(
        "Grundy's game γ, x = 0..20 (C203)",
        "0 0 0 1 0 2 1 0 2 1 0 2 1 3 2 1 3 2 4 3 0",
        join(&grundy[..=20]),
    ));
    let p_positions: Vec<usize> = (0..grundy.len()).filter(|&x| grundy[x] == 0).collect();
    let facts = facts()?;
    let provenance = Provenance::stable("reproduce nim", clock.elapsed().as_secs_f64());
    let report = Report { provenance, rows, facts, grundy_game: (grundy.len() - 1, p_positions), grundy_seconds };
    write_table(dir, "nim", &report, &markdown(&report))?;
    Ok(report)
}

// Long: the list of the lecture's statements, one block per statement in the seed's order
fn facts() -> Result<Vec<Fact>> {
    let mut facts = Vec::new();
    let c1g = (2..=8usize).all(|n| {
        let t = subtraction_table(&(1..n).collect::<Vec<_>>(), 200);
        (0..=200).all(|x| {
            t.grundy[x] as usize == x % n && (t.normal[x] == 0) == (x % n == 0) && (t.misere[x] == 0) == (x % n == 1)
        })
    });
    facts.push(Fact {
        statement: "Satz C1G: S = {1..n−1}, n = 2..8, x ≤ 200: γ = x mod n, normal loss ⇔ x mod n = 0, misère loss ⇔ x mod n = 1".into(),
        holds: c1g,
    });
    let lasker = heap_values(&HeapRule::Lasker, 10_000);
    let rule = (1..=10_000usize).all(|x| {
        lasker[x] as usize
            == match x % 4 {
                1 | 2 => x,
                3 => x + 1,
                _ => x - 1,
            }
    });
    facts.push(Fact {
        statement: "Lasker-Nim rule (not in the source): γ(4k+1)=4k+1, γ(4k+2)=4k+2, γ(4k+3)=4k+4, γ(4k+4)=4k+3, for x ≤ 10 000".into(),
        holds: rule,
    });
    let squares = (2..=7).all(|n| chomp_rectangle(n, n).is_ok_and(|s| s.winning_moves == vec![(1, 1)]));
    facts.push(Fact {
        statement: "Satz C2E(1): Chomp(n×n), n = 2..7: the first player wins, and (1,1) is the only winning move"
            .into(),
        holds: squares,
    });
    let rectangles = (2..=7).all(|m| (2..=7).all(|n| chomp_rectangle(m, n).is_ok_and(|s| s.grundy != 0)));
    facts.push(Fact {
        statement: "Satz C2E(2): Chomp(m×n), 2 ≤ m, n ≤ 7: the first player wins".into(),
        holds: rectangles,
    });
    let c43 = chomp_rectangle(4, 3)?;
    facts.push(Fact {
        statement: format!(
            "Chomp(4×3) (figure missing in the source): γ = {}, winning moves {:?}",
            c43.grundy, c43.winning_moves
        ),
        holds: c43.grundy == 9,
    });
    let cram45 = cram(4, 5)?;
    facts.push(Fact {
        statement: format!(
            "Fliesentetris/Cram 4×5 (C205, figure missing): γ = {}, {} winning first moves",
            cram45.grundy,
            cram45.winning_moves.len()
        ),
        holds: cram45.grundy != 0,
    });
    let poker = poker_nim_graph(3, 3, 3);
    let (outcomes, _) = solve_loopy(&poker);
    let xor_rule = (0..poker.len()).all(|v| {
        outcomes[v] != WinLossDraw::Draw
            && outcomes[v].is_win() == (poker.state(v).piles.iter().fold(0, |a, &x| a ^ x) != 0)
    });
    facts.push(Fact {
        statement: format!(
            "Poker-Nim (≈C211), {} states (3 piles ≤ 3, stacks ≤ 3, all they reach): no draws, the mover wins ⇔ ⊕x ≠ 0",
            poker.len()
        ),
        holds: xor_rule,
    });
    let north = northcott_graph(3, 5);
    let (outcomes, _) = solve_loopy(&north);
    let gap_rule = (0..north.len())
        .all(|v| outcomes[v] != WinLossDraw::Draw && outcomes[v].is_win() == (north.state(v).gap_xor() != 0));
    facts.push(Fact {
        statement: format!("Northcott (≈C213, model of the reference notes), 3 columns × 5 rows, {} states: no draws, the mover wins ⇔ ⊕gaps ≠ 0", north.len()),
        holds: gap_rule,
    });
    let ttt = tictactoe::graph();
    let draw = ttt.solve().get(0) == Some(WinLossDraw::Draw);
    facts.push(Fact {
        statement: format!(
            "Tic-tac-toe ({} positions): the start is a draw (terminal draws are not losses)",
            ttt.len()
        ),
        holds: draw,
    });
    Ok(facts)
}

fn markdown(r: &Report) -> String {
    let p = &r.provenance;
    let mut s = String::from("# Combinatorial games of seed003 (Eisermann, Kapitel C), recomputed\n\n");
    s += &format!("{}.\n\n", p.produced_by(""));
    s += "## Published tables\n\n";
    let mut table = MarkdownTable::new([("table", Left), ("published", Left), ("ours", Left), ("", Left)]);
    for row in &r.rows {
        let mark = if row.equal { "=" } else { "≠" };
        table.row([row.name.to_string(), row.published.to_string(), row.ours.to_string(), mark.to_string()]);
    }
    s += &table.to_string();
    s += "\n## Statements checked and values computed\n\n";
    for f in &r.facts {
        s += &format!("- {} — {}\n", f.statement, if f.holds { "holds" } else { "**does not hold**" });
    }
    let (upto, zeros) = &r.grundy_game;
    s += &format!(
        "\n## Grundy's game\n\nValues of single heaps 0..={upto}. Heaps with value 0 (P-positions): {} of them, the largest {}; \
below 300: {}.\n",
        zeros.len(),
        zeros.last().map_or(0, |z| *z),
        join(&zeros.iter().filter(|&&z| z < 300).collect::<Vec<_>>())
    );
    s
}
