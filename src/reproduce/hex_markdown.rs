//! The pages of `reproduce hex`: the markdown table of the opening maps and the seed's checks
//! (results/tables/hex.md), the same as JSON, and the figure of the maps
//! (results/figures/hex-openings.svg); sealed under `--full`.

use super::hex::{FILES, OpeningMap, SeedChecks};
use crate::error::{Result, invalid};
use crate::output::write_atomic;
use std::path::Path;

/// Writes the maps and checks of [`super::hex::reproduce`] into `dir` ([`FILES`]), and seals them
/// when `seal` (`--full`: the largest map solved, not replayed).
pub fn write(dir: &Path, maps: &[OpeningMap], checks: &SeedChecks, seal: bool) -> Result<()> {
    let json = serde_json::to_string_pretty(&(maps, checks)).map_err(|e| invalid(e.to_string()))?;
    write_atomic(&dir.join(FILES[0]), json.as_bytes())?;
    write_atomic(&dir.join(FILES[1]), markdown(maps, checks).as_bytes())?;
    write_atomic(&dir.join(FILES[2]), svg(maps).as_bytes())?;
    if seal {
        let files: Vec<String> = FILES.iter().map(|f| f.to_string()).collect();
        super::sealed::write_seal(dir, "hex", &files)?;
    }
    Ok(())
}
use crate::two_player::connection::hex::seed_checks as checks;

/// The opening maps drawn as rhombi of hexagons: dark = Black wins with this opening.
pub fn svg(maps: &[OpeningMap]) -> String {
    let r = 10.0f64;
    let w = r * 3f64.sqrt();
    let mut x0 = 10.0;
    let mut body = String::new();
    for map in maps {
        for (cell, &win) in map.black_wins.iter().enumerate() {
            let (x, y) = ((cell % map.n) as f64, (cell / map.n) as f64);
            let (cx, cy) = (x0 + w * (x + y / 2.0) + w / 2.0, 30.0 + 1.5 * r * y + r);
            let points: Vec<String> = (0..6)
                .map(|k| {
                    let a = std::f64::consts::PI / 3.0 * k as f64 + std::f64::consts::PI / 6.0;
                    format!("{:.1},{:.1}", cx + r * a.cos(), cy + r * a.sin())
                })
                .collect();
            let fill = if win { "#222" } else { "#eee" };
            body.push_str(&format!("<polygon points=\"{}\" fill=\"{fill}\" stroke=\"#888\"/>\n", points.join(" ")));
        }
        body.push_str(&format!("<text x=\"{x0:.0}\" y=\"18\" font-size=\"12\">{0}×{0}</text>\n", map.n));
        x0 += w * (map.n as f64 * 1.5) + 20.0;
    }
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{:.0}\">\n\
         <title>Hex openings: dark = the first player (Black, top–bottom) wins</title>\n{body}</svg>\n",
        x0,
        60.0 + 1.5 * r * maps.last().map_or(1, |m| m.n) as f64
    )
}

fn markdown(maps: &[OpeningMap], checks: &SeedChecks) -> String {
    let mut md = String::from("# Hex (seed 004): opening maps and the seed's checks\n\n");
    md.push_str("Black moves first and connects top and bottom; `B` = the opening wins for Black, `.` = it loses.\n");
    md.push_str(
        "Nodes: positions searched per opening (fresh table); every proof replayed by the independent checker.\n",
    );
    let solver = maps.last().map_or("", |m| m.solver.as_str());
    md.push_str(&format!("Solver: {solver}.\n\n"));
    for m in maps {
        md.push_str(&format!(
            "## {0}×{0}: {1} of {2} openings win; proofs checked: {3}\n\n```\n",
            m.n,
            m.black_wins.iter().filter(|&&w| w).count(),
            m.black_wins.len(),
            m.proofs_checked
        ));
        for y in 0..m.n {
            let row: Vec<&str> = (0..m.n).map(|x| if m.black_wins[y * m.n + x] { "B" } else { "." }).collect();
            md.push_str(&format!("{}{}\n", " ".repeat(y), row.join(" ")));
        }
        md.push_str(&format!("```\n\nnodes per opening: {:?}; proof steps: {:?}\n\n", m.nodes, m.proof_steps));
    }
    md.push_str(
        "## Satz 4.6 / Kor 4.7: the Figure 4 graph (rebuilt, seed §4.4)\n\n| check | ours | verdict |\n|---|---|---|\n",
    );
    for (what, ours, ok) in &checks.figure_4 {
        md.push_str(&format!("| {what} | {ours} | {} |\n", if *ok { "holds" } else { "FAILS" }));
    }
    md.push_str("\n## Satz 4.1: soundness (every derived VC/SC decided by exact play on its carrier)\n\n");
    md.push_str("| positions | checked | VCs | SCs | unsound | verdict |\n|---|---|---|---|---|---|\n");
    for (name, s) in &checks.soundness {
        let verdict = if s.unsound == 0 { "holds" } else { "FAILS" };
        md.push_str(&format!("| {name} | {} | {} | {} | {} | {verdict} |\n", s.positions, s.vcs, s.scs, s.unsound));
    }
    let (g, eq) = checks.satz_5_4;
    md.push_str(&format!(
        "\n## Satz 5.4: AV₊ never needed\n\n{eq} of {g} random Hex graphs (9–11 nodes, 3 occupied) give the same minimal VC carriers with and without AV₊: {}.\n",
        if eq == g { "holds" } else { "FAILS" }
    ));
    let (g, pairs, differ) = checks.dvls;
    md.push_str(&format!(
        "\n## Kor 6.11 / Alg 6.13: DVLS against H-search\n\n{g} random Hex graphs (7–9 nodes; half all free, every pair compared; half with two occupied nodes x, y, that pair compared), {pairs} pairs: {differ} disagreements: {}.\n",
        if differ == 0 { "holds" } else { "FAILS" }
    ));
    md.push_str(&dvls_boards_markdown(&checks.dvls_boards));
    md.push_str(&format!(
        "\n## Smallest board positions won for the connecting player without an edge-to-edge VC (§9.16)\n\nBoards of up to {} cells searched (all reachable positions, opponent to move, exact winner by plain minimax, exhaustive H-search).\n\n",
        checks.smallest_cells_searched
    ));
    if checks.smallest_unproved.is_empty() {
        md.push_str(
            "None on these boards: H-search proves every won position of them. Larger boards: \
             results/tables/hex-witness.md (`reproduce --full hex-witness`).\n",
        );
    }
    for d in &checks.smallest_unproved {
        md.push_str(&format!("```\n{d}```\n\n"));
    }
    let (pairs, with, bad) = checks.vvls;
    md.push_str(&format!(
        "\n## Satz 7.2 (QBF reduction)\n\nBuilt from the text: the forward-connecting local strategies of §7.1 (VVLS, Def 7.1) and its statement that every VVLS is a DVLS (l. 728), on the Kor 6.11 random graphs and the edge pairs of the empty boards above: {pairs} pairs, {with} with a VVLS, {bad} of those without a DVLS: {}.\n\nNot built: the gadgets' geometry is lost with the figures (seed §7.2, §9.17); the text fixes only partial adjacencies, and nothing is invented here.\n",
        if bad == 0 { "holds" } else { "FAILS" }
    ));
    md
}

/// The real-board part of the Kor 6.11 check: the empty boards' edge pairs where exhaustive
/// H-search and the DVLS recursion disagree (docs/hex.md, session 28).
fn dvls_boards_markdown(rows: &[checks::EdgeDvls]) -> String {
    let differ: Vec<&checks::EdgeDvls> = rows.iter().filter(|r| r.h_search != r.dvls).collect();
    let mut md = format!(
        "\nOn real boards (only the two edges occupied, Alg 6.13's precondition): the edge pair of each player on every empty board with both sides ≥ 2 and at most 12 cells, {} pairs: {} disagreements: {}.\n",
        rows.len(),
        differ.len(),
        if differ.is_empty() { "holds" } else { "FAILS (Kor 6.11 as stated)" }
    );
    if !differ.is_empty() {
        md.push_str("\n| board | player | H-search edge VC | DVLS |\n|---|---|---|---|\n");
        for r in differ {
            md.push_str(&format!("| {} | {} | {} | {} |\n", r.board, r.player, r.h_search, r.dvls));
        }
        md.push_str("\nWhat these are and why: docs/hex.md, session 28 (\"Kor 6.11 on real boards\").\n");
    }
    md
}
