//! `results/tables/mc-agents.md`: the Monte-Carlo agent tables (thesis ch. 2–3),
//! ours next to the thesis'.

use super::mc_agents::{Fact, Report};

fn mark(b: bool) -> &'static str {
    if b { "=" } else { "≠" }
}

fn facts(s: &mut String, list: &[Fact]) {
    s.push_str("| statement | thesis / reference | ours | |\n|---|---|---|---|\n");
    for f in list {
        s.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            f.statement,
            f.published,
            f.ours,
            if f.holds { "holds" } else { "**does not hold**" }
        ));
    }
}

/// The report as Markdown.
pub fn markdown(r: &Report) -> String {
    let p = &r.provenance;
    let mut s = String::from("# Pure Monte-Carlo agents (thesis ch. 2–3), recomputed exactly\n\n");
    s += &format!(
        "Produced by {} {} (`{}`), started {}, {:.1} s on {} threads. Method: backward induction on the game \
graph (src/graph/stochastic.rs), MC(N) selection probabilities by formula (2.1) / §2.4.6 (see docs/mc-agents.md).\n\n",
        p.program, p.version, p.command, p.started, p.seconds, p.threads
    );
    s += "## Table 2.4: ESR(5,6,1), MC(k) against MC(2k)\n\n";
    s += "Win rates of MC(k). *Hin*: MC(k) moves first; *Rück*: MC(2k) moves first. The thesis' exact (\"∞\") \
rows next to ours (f64, error ≲ 1e-11), equal when ours rounds to the same 10 digits; the thesis' simulation \
rows beside, with their deviation from the exact value in standard errors.\n\n";
    s += "| k | thesis exact Hin | ours | | thesis exact Rück | ours | | thesis exact mean | ours | | \
simulated (games) Hin / Rück / mean | σ Hin / Rück | ours s |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for row in &r.table_2_4 {
        s += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} / {} / {} ({:.0e}) | {:+.1} / {:+.1} | {:.3} |\n",
            row.k,
            row.published_exact[0],
            row.ours[0],
            mark(row.equal[0]),
            row.published_exact[1],
            row.ours[1],
            mark(row.equal[1]),
            row.published_exact[2],
            row.ours[2],
            mark(row.equal[2]),
            row.published_simulated[0],
            row.published_simulated[1],
            row.published_simulated[2],
            row.simulated_games,
            row.simulation_sigmas[0],
            row.simulation_sigmas[1],
            row.seconds
        );
    }
    let equal = r.table_2_4.iter().map(|row| row.equal.iter().filter(|e| **e).count()).sum::<usize>();
    s += &format!(
        "\n{equal} of {} exact values equal to all 10 printed digits. The k = 30 simulated Hinspiel (0.4300287) lies \
far outside its sampling error; its row is internally consistent, so it is a thesis error or another run.\n\n",
        3 * r.table_2_4.len()
    );
    s += "## Table 2.14: two-move subtraction games S(a,b)\n\n";
    s += "Win/loss pattern for heaps n = 1..18 (`−` loss for the mover, `a`/`b` the winning move, `+` both win) \
and n*, the smallest heap where MC(∞) proposes a losing move in a winning position (exact rationals, exact ties). \
The OCR of the table is garbled; the pattern rows are compared with the reference note's reconstruction, n* with \
the value the text confirms.\n\n";
    s += "| game | pattern (OCR) | pattern (reconstructed) | ours | | n* (OCR) | n* (corrected; source) | ours | |\n\
|---|---|---|---|---|---|---|---|---|\n";
    for row in &r.table_2_14 {
        s += &format!(
            "| {} | `{}` | `{}` | `{}` | {} | {} | {} ({}) | {} | {} |\n",
            row.game,
            row.pattern_ocr,
            row.pattern_reference,
            row.pattern_ours,
            mark(row.pattern_equal),
            row.n_star_ocr,
            row.n_star_published,
            row.n_star_source,
            row.n_star_ours,
            mark(row.n_star_equal)
        );
    }
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
