//! Recomputes the thesis' published tables and writes them to `results/`:
//! our exact value next to the published one, each marked equal or not.
//! Published values are data from the thesis; nothing is fitted to them.

pub mod beams_markdown;
pub mod beams_runs;
pub mod bridg_it;
pub mod bridg_it_agents;
pub mod bridg_it_checkpoint;
pub mod bridg_it_temperature;
pub mod chess;
pub mod curves;
pub mod curves_replay;
pub mod fig_4_12;
pub mod hex;
pub mod hex_checkpoint;
pub mod hex_map;
pub mod hex_markdown;
pub mod hex_witness;
pub mod mc_agents;
pub mod mc_chapter3;
pub mod mc_figures;
pub mod mc_markdown;
pub mod mc_report;
pub mod mc_scans;
pub mod mc_theorems;
pub mod nim;
pub mod perfect;
pub mod perfect_certificates;
pub mod perfect_committed;
pub mod perfect_constrained;
pub mod run;
pub mod sealed;
pub mod summary;
pub mod table_4_10;
pub mod table_4_18;
pub mod table_4_5;
pub mod templates;
pub mod wurzel_free;

use crate::search::outcome::{Exact, exact_decimal, exact_string};
use num_bigint::BigInt;
use serde::Serialize;
use std::str::FromStr;

/// A value as the thesis prints it: an integer, a fraction (`11445/2`) or a
/// rounded decimal (`5706.96`).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Published(pub &'static str);

impl Published {
    /// Whether our exact value equals the published one: exactly for integers and
    /// fractions; after rounding to the printed digits for decimals.
    pub fn matches(&self, ours: &Exact) -> bool {
        let text = self.0;
        if let Some((n, d)) = text.split_once('/') {
            let (Ok(n), Ok(d)) = (BigInt::from_str(n), BigInt::from_str(d)) else { return false };
            return *ours == Exact::new(n, d);
        }
        match text.split_once('.') {
            Some((_, frac)) => exact_decimal(ours, frac.len() as u32) == text,
            None => BigInt::from_str(text).is_ok_and(|n| *ours == Exact::from_integer(n)),
        }
    }

    /// Number of decimals printed (0 for integers and fractions).
    pub fn digits(&self) -> u32 {
        self.0.split_once('.').map_or(0, |(_, f)| f.len() as u32)
    }
}

/// One compared number.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    pub ours_exact: String,
    pub ours: String,
    pub published: &'static str,
    pub equal: bool,
}

impl Comparison {
    /// Compares `ours` with `published`, printing ours with `digits` decimals
    /// (or the published precision if that is larger).
    pub fn new(ours: &Exact, published: Published, digits: u32) -> Comparison {
        Comparison {
            ours_exact: exact_string(ours),
            ours: exact_decimal(ours, digits.max(published.digits())),
            published: published.0,
            equal: published.matches(ours),
        }
    }

    /// `=` or `≠` for tables.
    pub fn mark(&self) -> &'static str {
        if self.equal { "=" } else { "≠" }
    }
}

/// Serialises an analysis without its run time and its count of evaluated
/// nodes: results files hold what every run reproduces (issue 52 item 3), and
/// the parallel walk's node count varies by a few from run to run (Beams(6c,3p)
/// MIX: 289102, then 289107).
pub fn untimed_analysis<S: serde::Serializer>(
    a: &crate::search::Analysis,
    serializer: S,
) -> std::result::Result<S::Ok, S::Error> {
    let mut value = serde_json::to_value(a).map_err(serde::ser::Error::custom)?;
    if let Some(fields) = value.as_object_mut() {
        fields.remove("seconds");
        fields.remove("nodes_evaluated");
    }
    value.serialize(serializer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_forms() {
        let half = Exact::new(11445.into(), 2.into());
        assert!(Published("11445/2").matches(&half));
        assert!(Published("5722.5").matches(&half));
        assert!(!Published("5722").matches(&half));
        assert!(Published("5668").matches(&Exact::from_integer(5668.into())));
        assert!(!Published("5668").matches(&Exact::from_integer(5669.into())));
        assert!(Published("1451.80").matches(&Exact::new(5030491.into(), 3465.into())));
    }
}
