//! What ties a curve run file's records to their run (issue 48 item 4).
//!
//! Every line of a run file starts with a CRC-32 (hex) and a space. The
//! header line's CRC covers its JSON ([`CurveRunId`]); that CRC is the run's
//! *key* ([`run_key`]), and each record line's CRC covers the key and the
//! record's JSON ([`keyed_line`]), so a record spliced from another run
//! (another variant, tie rule, order, levels or α-range) fails its checksum
//! where it stands, and the file and line are named.
//!
//! Parts written before records were keyed (the committed Beams(6c,6p)
//! parts in git history, CRC over the record alone) are read by nothing:
//! every reader of run files refuses them, naming the file. Their units are
//! named in the runs' per-unit manifests (`NAME.units.tsv`, exact keys and
//! content hashes, docs/runs.md), so any unit can be rebuilt by computing it
//! again and checked.

use crate::curve::point::Point;
use crate::curve::steps::Domain;
use crate::renyi::alpha::Alpha;
use crate::search::TieRule;
use crate::search::run_file::alpha_text;
use serde::{Deserialize, Serialize};

/// What identifies a curve run: units of different runs never mix.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurveRunId {
    pub program: String,
    pub version: String,
    pub problem: String,
    /// The tie rule, in the file as it displays (`LEX`, `MIX`, …).
    #[serde(with = "crate::search::run_file::tie_rule_text")]
    pub tie_rule: TieRule,
    /// The α-domain, e.g. `[0, inf]`.
    pub domain: String,
    pub levels: usize,
    /// Nodes at the cut of more than this many codes are cut one query
    /// deeper ([`UnitCut`]). Absent (and not written) in runs cut at
    /// `levels` alone, so their identities and keys are those of before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split_above: Option<u64>,
    /// Units of the run and the codes they hold; with a [`Deal`], the units
    /// dealt to this shard (the run's totals are checked at the merge).
    pub units: u64,
    pub unit_codes: u64,
    /// Whether the records' checksums cover the run's key: true in every
    /// file this version writes; false (absent) only in parts written
    /// before, which every reader refuses.
    #[serde(default)]
    pub keyed: bool,
    /// A shard that dealt itself its units by their codes, without the
    /// run's listing ([`super::unit_list::shard_unit_domains`]): the deal and
    /// this shard. Absent (and not written) in runs that list every unit, so
    /// their identities and keys are those of before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<Deal>,
}

/// How a shard's units were dealt without the run's listing: `by` codes
/// (the only rule), shard `shard` of `shards`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    pub by: String,
    pub shard: u64,
    pub shards: u64,
}

/// Where a unit run cuts the curve walk: `levels` queries below the root,
/// and a node there of more than `split_above` codes one query deeper, again
/// until it holds at most that many (Beams(6c,6p) on [5/2, ∞]: a level-2 node of
/// 153 M codes is more than a session's work; its units one level down are not).
/// The rule depends on the node alone, so every walk (listing, deal, merge)
/// meets the same units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitCut {
    pub levels: usize,
    pub split_above: Option<u64>,
}

impl From<usize> for UnitCut {
    fn from(levels: usize) -> UnitCut {
        UnitCut { levels, split_above: None }
    }
}

pub use crate::output::sealed_lines::{keyed_line, parse_keyed_line, run_key};

/// A domain as exact text: its ends by [`alpha_text`] (`[1/2, 1]`, `[2, inf]`).
pub fn exact_domain_text(d: &Domain) -> String {
    let (open, close) = (if d.lo_closed { '[' } else { '(' }, if d.hi_closed { ']' } else { ')' });
    let end = |p: &Point| p.alpha().map_or_else(|| p.to_string(), alpha_text);
    format!("{open}{}, {}{close}", end(&d.lo), end(&d.hi))
}

/// A domain text (exact, or the decimal text of older headers) as its
/// closedness and exact ends; `None` if it is not one.
pub fn parse_domain_text(text: &str) -> Option<(bool, Alpha, Alpha, bool)> {
    let lo_closed = match text.chars().next()? {
        '[' => true,
        '(' => false,
        _ => return None,
    };
    let hi_closed = match text.chars().last()? {
        ']' => true,
        ')' => false,
        _ => return None,
    };
    let inner = text.get(1..text.len() - 1)?;
    let (lo, hi) = inner.split_once(',')?;
    Some((lo_closed, lo.trim().parse().ok()?, hi.trim().parse().ok()?, hi_closed))
}

/// Whether `a` and `b` name the same run (and, if dealt by codes, the same
/// shard): every field equal, the α-range compared by value (an older
/// header's `[0.5, 1]` is `[1/2, 1]`).
pub fn same_run(a: &CurveRunId, b: &CurveRunId) -> bool {
    let domain = |id: &CurveRunId| parse_domain_text(&id.domain);
    let same_domain = domain(a).is_some() && domain(a) == domain(b);
    same_domain
        && CurveRunId { domain: String::new(), keyed: false, ..a.clone() }
            == CurveRunId { domain: String::new(), keyed: false, ..b.clone() }
}

/// Whether `a` and `b` are shards of one run dealt by codes into the same
/// number of shards: [`same_run`] but for the shard and its units.
pub fn same_deal(a: &CurveRunId, b: &CurveRunId) -> bool {
    let shard_of = |id: &CurveRunId| {
        let deal = id.deal.as_ref().map(|d| Deal { shard: 0, ..d.clone() });
        CurveRunId { units: 0, unit_codes: 0, deal, ..id.clone() }
    };
    a.deal.is_some() && same_run(&shard_of(a), &shard_of(b))
}
