//! The one bookkeeping of work-unit runs: analyze runs (`search::units`),
//! curve runs (`curve::run`), depth-bound certificates
//! (`certificate::depth_checkpoint`) and the Hex and Bridg-It checkpoints of
//! `reproduce`. Their files are sealed lines ([`super::sealed_lines`]); what
//! every run does with them is here, generic over its identity and records:
//!
//! - [`open_checkpoint`]: a run's checkpoint locked (a second process on it is
//!   refused), read (its identity must be this run's; each record, checked
//!   and not recorded twice in the file, goes to the caller) and made ready
//!   to append to (a line cut off by a kill is cut, a new file gets the
//!   identity line);
//! - [`WorkUnit`]: what a run needs of a unit's record: the unit it is of,
//!   its codes, and a hash of its content, by which two records of one unit
//!   compare;
//! - [`UnitTally`]: the units met in a run's files (checkpoints, shard files)
//!   against the units of the run: a record of no unit of the run, one with
//!   other codes than its unit, a unit recorded in two files (refused, or
//!   accepted when both records hold the same), and the units still missing;
//! - [`Recompute`] and [`recheck`]: recorded units computed again (listed, or
//!   a seeded draw, [`Pick`]) and compared with their records by content hash.

use super::sealed_lines::{SealedLog, SealedReading, for_each_sealed_line, lock};
use crate::error::{Error, Result, invalid};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::path::Path;

/// Creates the folder a checkpoint goes in, if it has one and it is missing.
pub fn make_parent(path: &Path) -> Result<()> {
    match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(parent) => {
            std::fs::create_dir_all(parent).map_err(|e| Error::Io { path: path.display().to_string(), source: e })
        }
        None => Ok(()),
    }
}

/// Opens the checkpoint of run `id` at `path`: locks it (made if missing),
/// reads it as `reading` says (its identity checked before any record, each
/// record handed to `each` with its line and the run's key) and returns it
/// ready to append this run's records to. A missing or empty file is a new
/// checkpoint.
pub fn open_checkpoint<I, T, U>(
    path: &Path,
    id: &I,
    reading: SealedReading<I, T, U>,
    each: impl FnMut(&str, &str, T) -> Result<()>,
) -> Result<SealedLog>
where
    I: Serialize + DeserializeOwned,
    T: DeserializeOwned,
    U: std::hash::Hash + Eq + std::fmt::Debug,
{
    // Locked before it is read, so that a second run on the same file is
    // refused instead of appending units twice.
    let file = lock(path)?;
    for_each_sealed_line(path, reading, each)?;
    SealedLog::open(file, path, id)
}

/// Length, CRC-32 and SipHash of a record's content as text: two records of
/// one unit hold the same if they agree in all three.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ContentHash {
    pub len: usize,
    pub crc: u32,
    pub sip: u64,
}

impl ContentHash {
    /// The hash of `text`.
    pub fn of_text(text: &str) -> ContentHash {
        use std::hash::{DefaultHasher, Hasher};
        let mut sip = DefaultHasher::new();
        sip.write(text.as_bytes());
        ContentHash { len: text.len(), crc: crc32fast::hash(text.as_bytes()), sip: sip.finish() }
    }

    /// The hash of `value`'s JSON.
    pub fn of_json<T: Serialize>(value: &T) -> ContentHash {
        ContentHash::of_text(&serde_json::to_string(value).unwrap_or_default())
    }
}

/// What a run needs of the record of one unit.
pub trait WorkUnit {
    /// What names the unit in its run (its number, its trail and sub-domain, …).
    type Key: Clone + Ord + std::fmt::Debug;
    /// The unit the record is of.
    fn unit(&self) -> Self::Key;
    /// The codes below the unit.
    fn codes(&self) -> u64;
    /// The hash of the record's result (not of when or how fast it was
    /// computed): two records of one unit must agree in it.
    fn content(&self) -> ContentHash;
}

impl<R: WorkUnit> WorkUnit for &R {
    type Key = R::Key;
    fn unit(&self) -> R::Key {
        (**self).unit()
    }
    fn codes(&self) -> u64 {
        (**self).codes()
    }
    fn content(&self) -> ContentHash {
        (**self).content()
    }
}

/// What a run keeps of a checked record: its unit, codes and content hash,
/// and `kept`, what else it needs of it (a curve merge: the session's
/// counters; a recheck: the whole record).
#[derive(Clone, Debug)]
pub struct Digest<K, X> {
    pub key: K,
    pub codes: u64,
    pub content: ContentHash,
    pub kept: X,
}

impl<K: Clone + Ord + std::fmt::Debug, X> WorkUnit for Digest<K, X> {
    type Key = K;
    fn unit(&self) -> K {
        self.key.clone()
    }
    fn codes(&self) -> u64 {
        self.codes
    }
    fn content(&self) -> ContentHash {
        self.content
    }
}

/// What a run does with a unit met in a second file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Twice {
    /// Refused, whatever it holds (every unit is in exactly one shard file).
    Refused,
    /// Accepted if it holds the same as the first record (checkpoints of
    /// several processes may overlap), refused otherwise.
    IfEqual,
}

/// Why a record was not added to a [`UnitTally`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No unit of the run is this record's unit.
    Foreign,
    /// The record's unit has `unit` codes, not the record's.
    Codes { recorded: u64, unit: u64 },
    /// The unit is already recorded in file `first` (under [`Twice::Refused`]).
    Twice { first: usize },
    /// The unit is recorded in file `first` with another content.
    Differs { first: usize },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Foreign => write!(f, "no unit of this run has this key"),
            Refusal::Codes { recorded, unit } => write!(f, "recorded with {recorded} codes; the unit has {unit}"),
            Refusal::Twice { .. } => write!(f, "recorded a second time"),
            Refusal::Differs { .. } => write!(f, "recorded twice with different results"),
        }
    }
}

/// The units of a run met so far in its files, each with its first record
/// and the number of the file it came from.
pub struct UnitTally<R: WorkUnit> {
    /// The run's units, with their codes where the run's list gives them.
    units: BTreeMap<R::Key, Option<u64>>,
    known: BTreeMap<R::Key, (R, usize)>,
    twice: Twice,
}

impl<R: WorkUnit> UnitTally<R> {
    /// A tally of the run whose units are `units` (each with its codes, if known).
    pub fn new(units: impl IntoIterator<Item = (R::Key, Option<u64>)>, twice: Twice) -> UnitTally<R> {
        UnitTally { units: units.into_iter().collect(), known: BTreeMap::new(), twice }
    }

    /// Whether `unit` is a unit of the run, with `codes` codes if the run knows its codes.
    pub fn check(&self, unit: &R::Key, codes: u64) -> std::result::Result<(), Refusal> {
        match self.units.get(unit) {
            None => Err(Refusal::Foreign),
            Some(Some(n)) if *n != codes => Err(Refusal::Codes { recorded: codes, unit: *n }),
            Some(_) => Ok(()),
        }
    }

    /// Adds the record of file number `file` ([`UnitTally::check`], then a
    /// second record of its unit as [`Twice`] says); `true` if its unit was
    /// not known before.
    pub fn add(&mut self, record: R, file: usize) -> std::result::Result<bool, Refusal> {
        let unit = record.unit();
        self.check(&unit, record.codes())?;
        if let Some((earlier, first)) = self.known.get(&unit) {
            return match self.twice {
                Twice::Refused => Err(Refusal::Twice { first: *first }),
                Twice::IfEqual if earlier.content() == record.content() => Ok(false),
                Twice::IfEqual => Err(Refusal::Differs { first: *first }),
            };
        }
        self.known.insert(unit, (record, file));
        Ok(true)
    }

    /// Takes `unit` as a unit of the run (its codes unknown), unless it is
    /// one: a run whose processes each know only their own units (a curve
    /// run dealt by codes) learns the others' from their files.
    pub fn admit(&mut self, unit: R::Key) {
        self.units.entry(unit).or_insert(None);
    }

    /// Whether `unit` is known.
    pub fn contains(&self, unit: &R::Key) -> bool {
        self.known.contains_key(unit)
    }

    /// Units of the run.
    pub fn units(&self) -> usize {
        self.units.len()
    }

    /// Units known.
    pub fn len(&self) -> usize {
        self.known.len()
    }

    /// Whether no unit is known yet.
    pub fn is_empty(&self) -> bool {
        self.known.is_empty()
    }

    /// The records known, in key order.
    pub fn records(&self) -> impl Iterator<Item = &R> {
        self.known.values().map(|(r, _)| r)
    }

    /// The codes of the units known (by their records).
    pub fn known_codes(&self) -> u64 {
        self.records().map(|r| r.codes()).sum()
    }

    /// How many units of the run are missing, and the first of them in key order.
    pub fn missing(&self) -> (usize, Option<&R::Key>) {
        let mut missing = self.units.keys().filter(|k| !self.known.contains_key(*k));
        let first = missing.next();
        (first.map_or(0, |_| 1 + missing.count()), first)
    }

    /// The units known, each with the number of the file its record came from, in key order.
    pub fn files(&self) -> impl Iterator<Item = (&R::Key, usize)> {
        self.known.iter().map(|(k, (_, file))| (k, *file))
    }

    /// The records known, by unit.
    pub fn into_records(self) -> BTreeMap<R::Key, R> {
        self.known.into_iter().map(|(k, (r, _))| (k, r)).collect()
    }
}

/// Which recorded units a recheck computes again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pick<K> {
    /// These units, in the order given (each must be recorded).
    Units(Vec<K>),
    /// `count` of the recorded units ([`draw`] with `seed`; all of them if
    /// fewer), in key order.
    Sample { count: usize, seed: u64 },
}

impl<K: Clone + Ord> Pick<K> {
    /// The units picked among `recorded` (the recorded units in key order), or
    /// the first listed unit that is not recorded.
    pub fn of(&self, recorded: &[K]) -> std::result::Result<Vec<K>, K> {
        match self {
            Pick::Units(keys) => match keys.iter().find(|k| recorded.binary_search(k).is_err()) {
                Some(absent) => Err(absent.clone()),
                None => Ok(keys.clone()),
            },
            Pick::Sample { count, seed } => {
                Ok(draw(recorded.len(), *count, *seed).into_iter().map(|i| recorded[i].clone()).collect())
            }
        }
    }
}

/// `count` of the numbers `0..n` without repetition (all of them if
/// `count >= n`), ascending: a partial Fisher–Yates shuffle driven by
/// SplitMix64 from `seed`, so the same on every machine and in every version.
pub fn draw(n: usize, count: usize, seed: u64) -> Vec<usize> {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let z = (state ^ (state >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut all: Vec<usize> = (0..n).collect();
    let count = count.min(n);
    for i in 0..count {
        // An exact share of 2^64 (no modulo bias): j uniform in i..n.
        let j = i + ((u128::from(next()) * (n - i) as u128) >> 64) as usize;
        all.swap(i, j);
    }
    all.truncate(count);
    all.sort_unstable();
    all
}

/// A run whose recorded units can be computed again: analyze runs
/// (`search::recheck`), curve runs (`curve::run::recheck`).
pub trait Recompute {
    type Record: WorkUnit;
    /// Where the records are, for a message ("FILE", "the run's files").
    fn source(&self) -> String;
    /// The records of `units` (recorded units of the run), each with the file it was read from.
    fn records(&self, units: &[<Self::Record as WorkUnit>::Key]) -> Result<Vec<(String, Self::Record)>>;
    /// The unit of `recorded` computed again, as a record of it holds it
    /// (the same fields its content hash covers).
    fn recompute(&self, recorded: &Self::Record) -> Result<Self::Record>;
    /// Where two records of one unit differ, for the report: (what, recorded, recomputed).
    fn differences(&self, recorded: &Self::Record, again: &Self::Record) -> Vec<(String, String, String)>;
}

/// One unit computed again.
pub struct Rechecked<R> {
    /// The file its record was read from.
    pub file: String,
    pub recorded: R,
    pub again: R,
    /// Equal content hashes.
    pub agrees: bool,
    /// Where they differ ([`Recompute::differences`]), when they do.
    pub differences: Vec<(String, String, String)>,
    pub seconds: f64,
}

/// Computes the units `pick` names among the recorded units `recorded` (in
/// key order) again and compares each with its record by content hash;
/// `each` gets every unit as it is done. Returns how many were computed; a
/// unit that differs is an error once all are done (how many differ, the
/// first named by file and key), as is a listed unit that is not recorded.
pub fn recheck<R: Recompute>(
    run: &R,
    recorded: &[<R::Record as WorkUnit>::Key],
    pick: &Pick<<R::Record as WorkUnit>::Key>,
    mut each: impl FnMut(&Rechecked<R::Record>),
) -> Result<usize> {
    let units = pick.of(recorded).map_err(|absent| invalid(format!("{} holds no unit {absent:?}", run.source())))?;
    let mut first_difference = None;
    let mut differing = 0;
    for (file, recorded) in run.records(&units)? {
        let clock = std::time::Instant::now();
        let again = run.recompute(&recorded).map_err(|e| e.at(&file))?;
        let agrees = again.content() == recorded.content();
        let differences = if agrees { Vec::new() } else { run.differences(&recorded, &again) };
        let done = Rechecked { file, recorded, again, agrees, differences, seconds: clock.elapsed().as_secs_f64() };
        each(&done);
        if !agrees {
            differing += 1;
            first_difference.get_or_insert((done.file, done.recorded.unit()));
        }
    }
    match first_difference {
        Some((file, unit)) => Err(invalid(format!(
            "{differing} of {} units differ from their records (the first: {file}: unit {unit:?})",
            units.len()
        ))),
        None => Ok(units.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit numbered `.0` with `.1` codes and result `.2`.
    struct Rec(u64, u64, &'static str);

    impl WorkUnit for Rec {
        type Key = u64;
        fn unit(&self) -> u64 {
            self.0
        }
        fn codes(&self) -> u64 {
            self.1
        }
        fn content(&self) -> ContentHash {
            ContentHash::of_text(self.2)
        }
    }

    #[test]
    fn tally_refuses_foreign_other_codes_and_twice() {
        let units = [(0, Some(5)), (1, Some(7)), (2, None)];
        let mut tally = UnitTally::new(units, Twice::IfEqual);
        assert_eq!(tally.add(Rec(3, 1, "a"), 0), Err(Refusal::Foreign));
        assert_eq!(tally.add(Rec(0, 4, "a"), 0), Err(Refusal::Codes { recorded: 4, unit: 5 }));
        assert_eq!(tally.add(Rec(0, 5, "a"), 0), Ok(true));
        assert_eq!(tally.add(Rec(0, 5, "a"), 1), Ok(false));
        assert_eq!(tally.add(Rec(0, 5, "b"), 1), Err(Refusal::Differs { first: 0 }));
        assert_eq!(tally.missing(), (2, Some(&1)));
        assert_eq!(tally.add(Rec(2, 99, "c"), 2), Ok(true), "a unit whose codes the run does not list");
        assert_eq!((tally.len(), tally.known_codes(), tally.missing()), (2, 104, (1, Some(&1))));
        let mut strict = UnitTally::new([(0, None)], Twice::Refused);
        assert_eq!(strict.add(Rec(0, 5, "a"), 3), Ok(true));
        assert_eq!(strict.add(Rec(0, 5, "a"), 4), Err(Refusal::Twice { first: 3 }));
        assert_eq!(strict.missing(), (0, None));
    }

    #[test]
    fn draws_are_seeded_distinct_and_in_order() {
        let a = draw(1000, 10, 7);
        assert_eq!(a, draw(1000, 10, 7));
        assert_ne!(a, draw(1000, 10, 8));
        assert!(a.windows(2).all(|w| w[0] < w[1]) && a.len() == 10 && a[9] < 1000);
        assert_eq!(draw(4, 9, 1), vec![0, 1, 2, 3]);
        assert_eq!(draw(0, 3, 1), Vec::<usize>::new());
        // Pinned: a recheck draws the same units on every machine and in every
        // version. Values from an independent implementation of the documented
        // rule (SplitMix64, whose first output from seed 0 is the reference
        // 0xe220a8397b1dcdaf; j = i + ⌊x·(n − i) / 2^64⌋).
        assert_eq!(draw(1000, 5, 1), vec![3, 446, 566, 746, 971]);
        assert_eq!(draw(6063, 8, 1), vec![3, 2695, 3174, 3435, 4521, 4626, 5320, 5887]);
        let keys = [2u64, 3, 5, 8];
        assert_eq!(Pick::Units(vec![5, 2]).of(&keys), Ok(vec![5, 2]));
        assert_eq!(Pick::Units(vec![5, 4]).of(&keys), Err(4));
        assert_eq!(Pick::Sample { count: 9, seed: 3 }.of(&keys), Ok(keys.to_vec()));
    }
}
