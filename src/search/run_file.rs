//! The records of a work-unit run ([`super::units`]): the run's identity
//! ([`RunHeader`]), one record per finished unit ([`UnitRecord`]), a finished
//! shard ([`ShardFile`]), and the exact merge of finished shards (same run,
//! every unit once). The checkpoint is in [`super::checkpoint`], the file of a
//! finished shard in [`super::shard_file`]; both are sealed lines.
//!
//! Integrity: the CRCs are those of the sealed line format
//! (`output::sealed_lines`, docs/runs.md "File formats"): the header's is the
//! run's key, the CRC-32 of its JSON without the field; a record's the CRC-32
//! of the key and its JSON without the field. A checkpoint carries them in
//! front of its lines; read back, a header and its records carry them as
//! `crc`, and a merge checks them again. So an edited header, an edited
//! record and a record of another run are each refused; a header or record
//! without its CRC is refused too (the committed checkpoints and shard files
//! were converted once, re-verified: tests/run_upgrade.rs). α is written as its
//! exact rational text (`p/q`, an integer as `p`, ∞ as `inf`; [`alpha_text`])
//! and compared as the [`Alpha`] it parses to.

use super::outcome::{Outcome, parse_exact};
use super::problem::{AnswerId, QueryId};
use super::strategy::{Strategy, TieBreak, TieRule};
use crate::error::{Error, Result, invalid};
use crate::output::sealed_lines;
use crate::output::work_units::{ContentHash, Refusal, Twice, UnitTally, WorkUnit};
use crate::renyi::alpha::Alpha;
use serde::{Deserialize, Serialize};

/// What identifies a run: units of different runs must never be mixed. α,
/// the tie rule and the penalty split are typed; in the file they keep the
/// texts of earlier versions (α exact as [`alpha_text`], the tie rule as it
/// displays, the split's name), so committed files parse and seal byte for byte.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunHeader {
    pub program: String,
    pub version: String,
    pub problem: String,
    #[serde(with = "exact_alpha_text")]
    pub alpha: Alpha,
    #[serde(with = "tie_rule_text")]
    pub tie_rule: TieRule,
    pub levels: usize,
    /// MIX runs: how the split of the penalty over the codes reads a tie
    /// between best codes laid; absent in LEX runs and in MIX runs of
    /// versions that laid the first best code (their split was not exact
    /// under the MIX walk's symmetry merging; their depth counts and penalty
    /// points are).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penalty_split: Option<PenaltySplit>,
    /// CRC-32 (hex) of the header's JSON without this field, set by
    /// [`RunHeader::new`]; it also keys the records' checksums
    /// ([`RunHeader::record_key`]). Required on reading ([`RunHeader::check`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crc: Option<String>,
}

/// How a MIX run splits the penalty over the codes when best codes tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PenaltySplit {
    /// A best code drawn uniformly ([`crate::search::Terminal::penalised_uniform`]).
    #[serde(rename = "uniform over the best codes")]
    UniformOverBestCodes,
}

/// α as exact rational text: `inf`, `p` for a whole number, else `p/q` in
/// lowest terms. [`Alpha`] parses it back to the same value, whatever its
/// `Display` prints (a decimal display of 4503599627370497.5 and
/// 4503599627370498.5 may coincide; their texts here do not).
pub fn alpha_text(alpha: Alpha) -> String {
    match alpha {
        Alpha::Infinity => "inf".into(),
        Alpha::Finite { num, den: 1 } => num.to_string(),
        Alpha::Finite { num, den } => format!("{num}/{den}"),
    }
}

/// The α of an exact text ([`alpha_text`]); `None` for any other text
/// (a decimal, a fraction not in lowest terms, spaces).
pub fn parse_alpha_text(text: &str) -> Option<Alpha> {
    let alpha: Alpha = text.parse().ok()?;
    (alpha_text(alpha) == text).then_some(alpha)
}

/// The tie rule whose display is `text` (the inverse of `TieRule`'s
/// `Display`, tried over every rule); `None` for any other text.
pub fn parse_tie_rule(text: &str) -> Option<TieRule> {
    let kinds = [TieBreak::Lex, TieBreak::Mix];
    let rules = kinds.into_iter().flat_map(|kind| {
        [(true, false), (false, false), (true, true), (false, true)]
            .map(|(possible_secrets_first, root_by_class)| TieRule { kind, possible_secrets_first, root_by_class })
    });
    rules.into_iter().find(|r| r.to_string() == text)
}

/// Serde of α as exact text ([`alpha_text`]); other text is refused.
pub mod exact_alpha_text {
    use crate::renyi::alpha::Alpha;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(alpha: &Alpha, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::alpha_text(*alpha))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Alpha, D::Error> {
        let text = String::deserialize(d)?;
        super::parse_alpha_text(&text)
            .ok_or_else(|| D::Error::custom(format!("α {text:?} is not an exact α (p/q, p or inf)")))
    }
}

/// Serde of a tie rule as its display (`LEX`, `MIX`, `MIX (root uniform over
/// symmetry classes)`, …); other text is refused.
pub mod tie_rule_text {
    use crate::search::TieRule;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(tie: &TieRule, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(tie)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<TieRule, D::Error> {
        let text = String::deserialize(d)?;
        super::parse_tie_rule(&text).ok_or_else(|| D::Error::custom(format!("{text:?} is not a tie rule")))
    }
}

impl RunHeader {
    /// The header of a run of this program version: `strategy` on the problem
    /// named `problem`, cut into units `levels` queries below the root.
    pub fn new(problem: String, strategy: Strategy, levels: usize) -> RunHeader {
        let bare = RunHeader {
            program: "renyi-search".into(),
            version: crate::VERSION.into(),
            problem,
            alpha: strategy.score.alpha(),
            tie_rule: strategy.tie,
            levels,
            penalty_split: (strategy.tie.kind == TieBreak::Mix).then_some(PenaltySplit::UniformOverBestCodes),
            crc: None,
        };
        bare.sealed()
    }

    /// The header with its checksum set over its other fields.
    pub fn sealed(self) -> RunHeader {
        let crc = Some(RunHeader { crc: None, ..self.clone() }.checksum());
        RunHeader { crc, ..self }
    }

    /// The run's identity without its checksum (what two headers of one run
    /// share; α compares by value, as the [`Alpha`] it is).
    pub fn identity(&self) -> RunHeader {
        RunHeader { crc: None, ..self.clone() }
    }

    /// The CRC-32 (hex) of the header's JSON without its `crc` field: the
    /// run's key ([`sealed_lines::run_key`] of its identity).
    fn checksum(&self) -> String {
        sealed_lines::run_key(&self.identity())
    }

    /// Checks the header's checksum (an edited header, such as another α, tie
    /// rule or variant, would relabel every record; a header without one is
    /// refused). That α is exact text was checked when it was read.
    pub fn check(&self) -> Result<()> {
        match &self.crc {
            None => Err(invalid(
                "the run header has no checksum (an unsealed file: this program writes and reads only sealed run files)",
            )),
            Some(crc) if *crc != self.checksum() => Err(invalid(format!(
                "the run header's checksum {crc} does not match its contents ({}): the header was altered",
                self.checksum()
            ))),
            Some(_) => Ok(()),
        }
    }

    /// The key the records of this run are sealed with: the header's checksum
    /// (empty for a header without one, which [`RunHeader::check`] refuses).
    pub fn record_key(&self) -> &str {
        self.crc.as_deref().unwrap_or_default()
    }

    /// Whether the records' penalty split follows this version's definition
    /// (always under LEX; under MIX only with [`PenaltySplit::UniformOverBestCodes`]).
    pub fn split_is_current(&self) -> bool {
        self.tie_rule.kind != TieBreak::Mix || self.penalty_split == Some(PenaltySplit::UniformOverBestCodes)
    }

    /// Whether `other` is the same run up to the penalty-split definition
    /// (its totals and depth counts are then valid here).
    pub fn same_run_as(&self, other: &RunHeader) -> bool {
        RunHeader { penalty_split: None, ..self.identity() } == RunHeader { penalty_split: None, ..other.identity() }
    }
}

/// One finished unit.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct UnitRecord {
    pub index: u64,
    /// Answers from the root to the unit.
    pub path: Vec<AnswerId>,
    /// The query before each answer of `path` (empty in records of older versions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub queries: Vec<QueryId>,
    /// MIX: the exact probability of the tie choices that lead to the unit;
    /// absent (= 1) under LEX. The unit's share of the result is `weight` × its outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<String>,
    pub codes: u64,
    /// Exact per-depth counts (depths from the root) and penalty.
    pub depth_counts: Vec<String>,
    pub penalty: String,
    /// Wall seconds from the unit's start to its end (0 in records of older
    /// versions). Large units run alone on all threads; small units share the
    /// threads with each other, so their seconds overlap.
    #[serde(default)]
    pub seconds: f64,
    /// Codes by penalty points paid (index p; see [`Outcome::penalised`]);
    /// `None` in records of versions that did not keep it.
    #[serde(default)]
    pub penalised: Option<Vec<String>>,
    /// The session (process) that evaluated the unit and when it recorded it;
    /// `None` in records of older versions (see [`sessions_wall_seconds`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<SessionTime>,
    /// CRC-32 (hex) of the run's record key and the record's JSON without
    /// this field ([`UnitRecord::sealed`]); required on reading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crc: Option<String>,
}

impl UnitRecord {
    /// The CRC-32 (hex) of `key` ([`RunHeader::record_key`]) and the
    /// record's JSON without its `crc` field.
    fn checksum(&self, key: &str) -> String {
        sealed_lines::keyed_crc_hex(key, &UnitRecord { crc: None, ..self.clone() })
    }

    /// The record with its checksum set under the run's `key` (done once it
    /// is complete, before it is written).
    pub fn sealed(self, key: &str) -> UnitRecord {
        let crc = Some(self.checksum(key));
        UnitRecord { crc, ..self }
    }

    /// Checks the record in the run whose record key is `key`: its checksum
    /// (a record without one is refused), that its depth counts add up to its
    /// codes, and that its penalty split adds up to its penalty points. An
    /// edited record, or one of another run, fails here with its unit named.
    pub fn check(&self, key: &str) -> Result<()> {
        let bad = |what: &str| Err(invalid(format!("unit {}: {what} (the record was altered or damaged)", self.index)));
        let Some(crc) = &self.crc else {
            return bad("the record has no checksum");
        };
        if *crc != self.checksum(key) {
            return bad(&format!(
                "checksum {crc} does not match its contents and its run's header ({}; a record of another run does not match either)",
                self.checksum(key)
            ));
        }
        let parse = |s: &String| parse_exact(s);
        let counts: Option<Vec<_>> = self.depth_counts.iter().map(parse).collect();
        let Some(counts) = counts else { return bad("unreadable depth counts") };
        let codes: num_rational::BigRational = counts.iter().sum();
        if codes != num_rational::BigRational::from_integer(self.codes.into()) {
            return bad(&format!("its depth counts add up to {codes}, not to its {} codes", self.codes));
        }
        if let Some(split) = &self.penalised {
            let points: Option<Vec<_>> = split.iter().map(parse).collect();
            let Some(points) = points else { return bad("unreadable penalty split") };
            let sum: num_rational::BigRational = points
                .iter()
                .enumerate()
                .map(|(p, n)| n * num_rational::BigRational::from_integer((p as u64).into()))
                .sum();
            if Some(&sum) != parse_exact(&self.penalty).as_ref() {
                return bad(&format!("its penalty split adds up to {sum} points, not to {}", self.penalty));
            }
        }
        Ok(())
    }
}

/// A unit of an analyze run: its number, its codes, and as its content what
/// it was found to hold (not when or how fast).
impl WorkUnit for UnitRecord {
    type Key = u64;
    fn unit(&self) -> u64 {
        self.index
    }
    fn codes(&self) -> u64 {
        self.codes
    }
    fn content(&self) -> ContentHash {
        let r = self;
        ContentHash::of_json(&(&r.path, &r.queries, &r.weight, r.codes, &r.depth_counts, &r.penalty, &r.penalised))
    }
}

/// When a unit was recorded: the start of its session (Unix seconds, to the
/// microsecond, which tells sessions apart) and the wall seconds from that
/// start to the record.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionTime {
    pub started: f64,
    pub at: f64,
}

/// Wall time of a run over all its sessions: for each session, the time from
/// its start to its last recorded unit, summed. Work a killed session did on
/// units it did not finish is not counted (those units are redone and counted
/// in a later session), so this is what an uninterrupted run would have taken,
/// up to the differing load. `None` if some record lacks its session.
pub fn sessions_wall_seconds(records: &[UnitRecord]) -> Option<f64> {
    let mut latest: std::collections::BTreeMap<u64, f64> = std::collections::BTreeMap::new();
    for r in records {
        let t = r.session?;
        let at = latest.entry(t.started.to_bits()).or_insert(0.0);
        *at = at.max(t.at);
    }
    Some(latest.values().sum())
}

/// A finished shard of a run: its records and totals (its file, sealed
/// lines, is written and read by [`super::shard_file`]).
#[derive(Clone, Debug)]
pub struct ShardFile {
    pub header: RunHeader,
    pub shard: (u64, u64),
    pub units_total: u64,
    pub codes_total: u64,
    pub seconds: f64,
    /// Peak resident memory of the process that wrote the file, in bytes
    /// (absent where not reported, and in files of older versions).
    pub peak_memory_bytes: Option<u64>,
    /// Units of this shard taken from the checkpoint rather than evaluated by
    /// this process: 0 means the run went from scratch (absent in older files).
    pub resumed_units: Option<u64>,
    pub units: Vec<UnitRecord>,
}

/// `i/N`: this process evaluates the units whose number is ≡ i mod N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl std::str::FromStr for Shard {
    type Err = Error;
    fn from_str(text: &str) -> Result<Shard> {
        let parsed = text.split_once('/').and_then(|(i, n)| Some((i.trim().parse().ok()?, n.trim().parse().ok()?)));
        match parsed {
            Some((index, count)) if count >= 1 && index < count => Ok(Shard { index, count }),
            _ => Err(invalid(format!("shard `{text}`: write i/N with 0 ≤ i < N, e.g. 0/4"))),
        }
    }
}

/// Whether every unit of the shard files recorded how its penalty points split
/// over the codes by this version's definition (records of older versions did
/// not, or under MIX laid the first best code), so that the merged
/// [`Outcome::penalised`] is complete and exact.
pub fn penalty_split_known(shards: &[ShardFile]) -> bool {
    shards.iter().all(|s| s.header.split_is_current() && s.units.iter().all(|u| u.penalised.is_some()))
}

/// Adds the units of complete shard files exactly. Errors if the files come
/// from different runs, a unit appears twice, or any unit is missing.
pub fn merge(shards: &[ShardFile]) -> Result<(RunHeader, Outcome)> {
    let named: Vec<(String, &ShardFile)> =
        shards.iter().enumerate().map(|(i, s)| (format!("shard file {}", i + 1), s)).collect();
    merge_named(&named)
}

/// [`merge`], each file with a name (its path) that the errors give: the
/// first file whose header, totals or record fails, or both files that hold
/// a unit twice.
pub fn merge_named(shards: &[(String, &ShardFile)]) -> Result<(RunHeader, Outcome)> {
    let Some(&(ref first_name, first)) = shards.first() else {
        return Err(invalid("merge needs at least one shard file"));
    };
    let mut tally = UnitTally::new((0..first.units_total).map(|i| (i, None)), Twice::Refused);
    let mut total = Outcome::empty();
    // Σ weight·codes over the units: every code once (under MIX, its tie
    // branches' weights add up to 1).
    let mut mass = num_rational::BigRational::from_integer(0.into());
    for (file, &(ref name, s)) in shards.iter().enumerate() {
        let at = |e: Error| e.at(name);
        s.header.check().map_err(at)?;
        if s.header.identity() != first.header.identity() || s.units_total != first.units_total {
            return Err(invalid(format!(
                "{name} (shard {}/{}) belongs to another run than {first_name} (shard {}/{})",
                s.shard.0, s.shard.1, first.shard.0, first.shard.1
            )));
        }
        for r in &s.units {
            match tally.add(r, file) {
                Err(Refusal::Twice { first: before }) => {
                    let before = &shards[before].0;
                    return Err(invalid(format!("unit {} appears twice: in {before} and in {name}", r.index)));
                }
                Err(_) => {
                    let units = first.units_total;
                    return Err(invalid(format!("{name}: unit {} is beyond the run's {units} units", r.index)));
                }
                Ok(_) => {}
            }
            r.check(s.header.record_key()).map_err(at)?;
            let unreadable = || invalid(format!("{name}: unit {} has unreadable values", r.index));
            let mut o = Outcome::from_strings(&r.depth_counts, &r.penalty, r.penalised.as_deref().unwrap_or(&[]))
                .ok_or_else(unreadable)?;
            let weight = match &r.weight {
                Some(w) => parse_exact(w).ok_or_else(unreadable)?,
                None => num_rational::BigRational::from_integer(1.into()),
            };
            if r.weight.is_some() {
                o = o.scaled(&weight);
            }
            mass += weight * num_rational::BigRational::from_integer(r.codes.into());
            total.add_shifted(&o, 0);
        }
    }
    if let (count, Some(missing)) = tally.missing() {
        return Err(invalid(format!(
            "{count} of {} units are missing (first: unit {missing}); merge every shard of the run",
            first.units_total
        )));
    }
    if mass != num_rational::BigRational::from_integer(first.codes_total.into()) {
        return Err(invalid(format!(
            "the units hold {mass} codes (weighted), the run {}: a unit's codes or weight were altered",
            first.codes_total
        )));
    }
    Ok((first.header.clone(), total))
}
