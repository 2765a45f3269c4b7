//! `results/tables/mc-agents.md`: the Monte-Carlo agent tables (thesis ch. 2–3),
//! ours next to the thesis'.

use super::mc_report::{Fact, Report};
use super::templates;
use crate::output::Align::Left;
use crate::output::MarkdownTable;

fn mark(b: bool) -> &'static str {
    if b { "=" } else { "≠" }
}

fn facts(s: &mut String, list: &[Fact]) {
    let mut table = MarkdownTable::new([("statement", Left), ("thesis / reference", Left), ("ours", Left), ("", Left)]);
    for f in list {
        let holds = if f.holds { "holds" } else { "**does not hold**" };
        table.row([f.statement.clone(), f.published.to_string(), f.ours.clone(), holds.to_string()]);
    }
    s.push_str(&table.to_string());
}

/// The report as Markdown.
// Long: one markdown document written top to bottom (Tables 2.4, 2.14, then the statements)
pub fn markdown(r: &Report) -> String {
    let mut s = String::from("# Pure Monte-Carlo agents (thesis ch. 2–3), recomputed exactly\n\n");
    s += &format!(
        "{}. Method: backward induction on the game graph (src/graph/stochastic.rs), MC(N) selection \
probabilities by formula (2.1) / §2.4.6 (see docs/mc-agents.md).\n\n",
        r.provenance.produced_by("")
    );
    s += "## Table 2.4: ESR(5,6,1), MC(k) against MC(2k)\n\n";
    s += templates::MC_TABLE_2_4;
    let mut table = MarkdownTable::new(
        [
            "k",
            "thesis exact Hin",
            "ours",
            "",
            "thesis exact Rück",
            "ours",
            "",
            "thesis exact mean",
            "ours",
            "",
            "simulated (games) Hin / Rück / mean",
            "σ Hin / Rück",
        ]
        .map(|title| (title, Left)),
    );
    for row in &r.table_2_4 {
        let simulated = format!(
            "{} / {} / {} ({:.0e})",
            row.published_simulated[0], row.published_simulated[1], row.published_simulated[2], row.simulated_games
        );
        table.row([
            row.k.to_string(),
            row.published_exact[0].to_string(),
            row.ours[0].to_string(),
            mark(row.equal[0]).to_string(),
            row.published_exact[1].to_string(),
            row.ours[1].to_string(),
            mark(row.equal[1]).to_string(),
            row.published_exact[2].to_string(),
            row.ours[2].to_string(),
            mark(row.equal[2]).to_string(),
            simulated,
            format!("{:+.1} / {:+.1}", row.simulation_sigmas[0], row.simulation_sigmas[1]),
        ]);
    }
    s += &table.to_string();
    let equal = r.table_2_4.iter().map(|row| row.equal.iter().filter(|e| **e).count()).sum::<usize>();
    s += &format!(
        "\n{equal} of {} exact values equal to all 10 printed digits. The k = 30 simulated Hinspiel (0.4300287) lies \
far outside its sampling error; its row is internally consistent, so it is a thesis error or another run.\n\n",
        3 * r.table_2_4.len()
    );
    s += "## Table 2.14: two-move subtraction games S(a,b)\n\n";
    s += templates::MC_TABLE_2_14;
    let mut table = MarkdownTable::new(
        [
            "game",
            "pattern (OCR)",
            "pattern (reconstructed)",
            "ours",
            "",
            "n* (OCR)",
            "n* (corrected; source)",
            "ours",
            "",
        ]
        .map(|title| (title, Left)),
    );
    for row in &r.table_2_14 {
        table.row([
            row.game.to_string(),
            format!("`{}`", row.pattern_ocr),
            format!("`{}`", row.pattern_reference),
            format!("`{}`", row.pattern_ours),
            mark(row.pattern_equal).to_string(),
            row.n_star_ocr.to_string(),
            format!("{} ({})", row.n_star_published, row.n_star_source),
            row.n_star_ours.to_string(),
            mark(row.n_star_equal).to_string(),
        ]);
    }
    s += &table.to_string();
    s += "\n## Further statements of chapter 2 (ESR valley, DSC, Figs. 2.15/2.16)\n\n";
    facts(&mut s, &r.facts);
    s += "\n## Chapter 3: MC(∞) on S(1,2) with asymmetric random games\n\n";
    facts(&mut s, &r.chapter_3);
    s += "\n## Files\n\n";
    for f in &r.files {
        s += &format!("- `{f}`\n");
    }
    s
}
