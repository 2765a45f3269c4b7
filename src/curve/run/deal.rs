//! A curve run whose shards deal themselves their units by their codes
//! (issue 53 item 3): no process lists the whole run. Each shard finds its
//! own units ([`shard_unit_domains`]) and writes them into its checkpoint's
//! identity ([`CurveRunId`] with a [`Deal`]: the run, the deal's shard count,
//! its shard and the units and codes dealt to it), so each record is keyed
//! to its run *and* its shard: a record of another run, or of another shard
//! copied into this one's file, fails its checksum where it stands.
//!
//! The run's totals are known to no shard. At the merge they are checked
//! three ways: the files must hold every shard of the deal, each shard's
//! records exactly its units and codes as its identity names them
//! ([`DealBooks`]); the merge walk meets every unit of the run and finds
//! each in a file with the codes of its node; and every record read must be
//! met by that walk (`unit_merge`). So the union of the shards is the run's
//! listing, unit for unit, without a listing.

use super::run_key::{CurveRunId, Deal, same_deal};
#[cfg(doc)]
use super::unit_list::shard_unit_domains;
use super::unit_merge::Digest;
use crate::error::{Result, invalid};
use crate::output::work_units::UnitTally;
use crate::search::units::Shard;
use std::collections::BTreeMap;
use std::path::Path;

/// The only deal rule: by codes ([`shard_unit_domains`]).
pub const BY_CODES: &str = "codes";

/// The identity of shard `shard` dealt by codes ([`shard_unit_domains`]),
/// given `id`, the run's identity with this shard's units as its units.
pub fn dealt_id(id: CurveRunId, shard: Shard) -> CurveRunId {
    let deal = Deal { by: BY_CODES.into(), shard: shard.index, shards: shard.count };
    CurveRunId { deal: Some(deal), ..id }
}

/// Refuses the file at `path` unless its identity `theirs` is a shard of the
/// dealt run `id` (any shard of the same deal).
pub(super) fn same_deal_or_refuse(path: &Path, theirs: &CurveRunId, id: &CurveRunId) -> Result<()> {
    if same_deal(theirs, id) {
        return Ok(());
    }
    let deal = |id: &CurveRunId| {
        id.deal.as_ref().map_or_else(|| "all units listed".into(), |d| format!("dealt by {} into {}", d.by, d.shards))
    };
    Err(invalid(format!(
        "{} belongs to another run ({} {} {} levels {}, {}, version {}); this run is {} {} {} levels {}, {}, version {}",
        path.display(),
        theirs.problem,
        theirs.tie_rule,
        theirs.domain,
        theirs.levels,
        deal(theirs),
        theirs.version,
        id.problem,
        id.tie_rule,
        id.domain,
        id.levels,
        deal(id),
        id.version
    )))
}

/// What the files of a dealt run say of its shards: each shard's units and
/// codes (from the identity of a file of it) and the shard of each file.
pub(super) struct DealBooks {
    shards: u64,
    dealt: BTreeMap<u64, (u64, u64)>,
    shard_of_file: BTreeMap<usize, u64>,
}

/// Where a run stands by its files: its units and codes as far as known,
/// the shards no file was given of, and whether every unit is known.
pub(super) struct Standing {
    pub(super) units: u64,
    pub(super) unit_codes: u64,
    pub(super) unseen_shards: u64,
    pub(super) complete: bool,
}

impl DealBooks {
    /// The books of the dealt run whose shard's identity is `id`, its
    /// checkpoint file number 0.
    pub(super) fn new(id: &CurveRunId) -> Result<DealBooks> {
        let deal = id.deal.as_ref().ok_or_else(|| invalid("not a dealt run"))?;
        let mut books = DealBooks { shards: deal.shards, dealt: BTreeMap::new(), shard_of_file: BTreeMap::new() };
        books.file(0, Path::new(""), id)?;
        Ok(books)
    }

    /// Notes that file number `file` at `path` is of the shard its identity
    /// `theirs` names; two files of one shard must name the same units.
    pub(super) fn file(&mut self, file: usize, path: &Path, theirs: &CurveRunId) -> Result<()> {
        let deal = theirs.deal.as_ref().ok_or_else(|| invalid(format!("{}: not a dealt run", path.display())))?;
        let dealt = (theirs.units, theirs.unit_codes);
        if *self.dealt.entry(deal.shard).or_insert(dealt) != dealt {
            return Err(invalid(format!(
                "{}: shard {}/{} of {} units of {} codes, but another file of that shard names {:?}",
                path.display(),
                deal.shard,
                deal.shards,
                theirs.units,
                theirs.unit_codes,
                self.dealt[&deal.shard]
            )));
        }
        self.shard_of_file.insert(file, deal.shard);
        Ok(())
    }

    /// Where the run stands with the records `known`: each shard seen must
    /// hold at most its units, and exactly its codes once it holds them all.
    pub(super) fn standing(&self, known: &UnitTally<Digest>) -> Result<Standing> {
        let mut held: BTreeMap<u64, (u64, u64)> = BTreeMap::new();
        for ((_, file), record) in known.files().zip(known.records()) {
            let shard = self.shard_of_file.get(&file).copied().unwrap_or(u64::MAX);
            let h = held.entry(shard).or_default();
            *h = (h.0 + 1, h.1 + record.codes);
        }
        let mut complete = self.dealt.len() as u64 == self.shards;
        for (shard, &(units, codes)) in &held {
            let Some(&(dealt, dealt_codes)) = self.dealt.get(shard) else {
                return Err(invalid("a record of a file of no shard of the deal"));
            };
            if units > dealt || (units == dealt && codes != dealt_codes) {
                return Err(invalid(format!(
                    "the files of shard {shard}/{} hold {units} units of {codes} codes, but it was dealt {dealt} of \
                     {dealt_codes}",
                    self.shards
                )));
            }
        }
        for (shard, &(units, _)) in &self.dealt {
            complete &= held.get(shard).is_some_and(|h| h.0 == units);
        }
        Ok(Standing {
            units: self.dealt.values().map(|d| d.0).sum(),
            unit_codes: self.dealt.values().map(|d| d.1).sum(),
            unseen_shards: self.shards - self.dealt.len() as u64,
            complete,
        })
    }
}
