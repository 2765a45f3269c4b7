//! The one-line texts of an outcome's histograms, as `analyze` and `merge` print them, and of a unit
//! computed again (`analyze … --recheck`, `curve … --recheck`).

/// "d:count" for every depth with a non-zero count, space-separated.
pub(crate) fn depth_histogram(counts: &[String]) -> String {
    counts.iter().enumerate().filter(|(_, c)| *c != "0").map(|(d, c)| format!("{d}:{c}")).collect::<Vec<_>>().join(" ")
}

/// "p points: count{unit}" for every penalty p > 0 with a non-zero count, comma-separated.
pub(crate) fn penalty_split(counts: &[String], unit: &str) -> String {
    counts
        .iter()
        .enumerate()
        .filter(|(p, c)| *p > 0 && *c != "0")
        .map(|(p, c)| format!("{p} points: {c}{unit}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "agrees exactly", or "DIFFERS{detail} in WHAT: recorded A, recomputed B; …".
pub(crate) fn recheck_verdict(agrees: bool, detail: &str, differences: &[(String, String, String)]) -> String {
    if agrees {
        return "agrees exactly".into();
    }
    let fields: Vec<String> =
        differences.iter().map(|(what, a, b)| format!("{what}: recorded {a}, recomputed {b}")).collect();
    format!("DIFFERS{detail} in {}", fields.join("; "))
}
