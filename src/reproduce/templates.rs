//! The prose of the reproduced reports: markdown paragraphs kept as files
//! under `src/reproduce/templates/` and built into the program
//! (`include_str!`), so that a report's text reads and diffs as markdown,
//! not as string literals (issue 49 item 7). A template's `{name}` is filled
//! by [`fill`]; the others are used as they are. Each file holds exactly the
//! bytes the report writes (results/ unchanged by the move).

/// Beams(6c,6p) full cells: what the run-time columns mean (table 4.10).
pub const BEAMS_RUN_TIME: &str = include_str!("templates/beams-run-time.md");
/// The work-unit cells where the thesis has Monte-Carlo estimates; `{bound}`: its 2σ bound.
pub const BEAMS_WORK_UNITS: &str = include_str!("templates/beams-work-units.md");
/// Table 4.10: the cell not computed by `reproduce`.
pub const TABLE_4_10_NOT_COMPUTED: &str = include_str!("templates/table-4-10-not-computed.md");
/// Fig. 4.12 of Beams(6c,6p): what each merged run's overview shows.
pub const FIG_4_12_OVERVIEWS: &str = include_str!("templates/fig-4-12-overviews.md");
/// Perfect play: notes below the table (Beams(3c,6p), MM(5,5), trees, certificates).
pub const PERFECT_NOTES: &str = include_str!("templates/perfect-notes.md");
/// Perfect play: the certified bounds of games out of the search's reach.
pub const PERFECT_DEPTH_BOUNDS: &str = include_str!("templates/perfect-depth-bounds.md");
/// Perfect play: the long searches replayed from committed trees.
pub const PERFECT_LONG_SEARCHES: &str = include_str!("templates/perfect-long-searches.md");
/// Perfect play under constraints (depth caps, lexicographic objectives, hard mode).
pub const PERFECT_CONSTRAINTS: &str = include_str!("templates/perfect-constraints.md");
/// Monte-Carlo agents, Table 2.4 (ESR(5,6,1), MC(k) against MC(2k)).
pub const MC_TABLE_2_4: &str = include_str!("templates/mc-table-2-4.md");
/// Monte-Carlo agents, Table 2.14 (two-move subtraction games).
pub const MC_TABLE_2_14: &str = include_str!("templates/mc-table-2-14.md");

/// `template` with every `{name}` replaced by its value, for each
/// (name, value) of `values`; each name must occur in the template.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (name, value) in values {
        let placeholder = format!("{{{name}}}");
        debug_assert!(out.contains(&placeholder), "template without {placeholder}");
        out = out.replace(&placeholder, value);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_replaces_each_placeholder() {
        assert_eq!(fill("a {x} b {y} {x}", &[("x", "1"), ("y", "two")]), "a 1 b two 1");
        assert_eq!(fill("no placeholder", &[]), "no placeholder");
    }

    #[test]
    fn every_placeholder_is_filled_where_used() {
        // Only BEAMS_WORK_UNITS has a placeholder; the others are written as they are.
        let plain = [
            BEAMS_RUN_TIME,
            TABLE_4_10_NOT_COMPUTED,
            FIG_4_12_OVERVIEWS,
            PERFECT_NOTES,
            PERFECT_DEPTH_BOUNDS,
            PERFECT_LONG_SEARCHES,
            PERFECT_CONSTRAINTS,
            MC_TABLE_2_4,
            MC_TABLE_2_14,
        ];
        assert!(plain.iter().all(|t| !t.contains('{') && t.ends_with('\n')));
        let filled = fill(BEAMS_WORK_UNITS, &[("bound", "0.05")]);
        assert!(!filled.contains('{') && filled.contains("2σ bound of ±0.05."));
    }
}
