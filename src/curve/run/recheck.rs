//! Curve units computed again ([`crate::output::work_units::recheck`], as
//! analyze runs' are): the units recorded in a run's files (its checkpoint
//! and the files given with it, read as a merge reads them), a seeded draw of
//! them rebuilt from their trails and sub-domains and evaluated as a shard
//! would, each compared with its record by content hash (its step function:
//! points, values, steps).

use super::unit_file::{UnitSteps, digest_of, for_each_record, unit_record};
use super::unit_list::{ListedUnit, queries_by_label, unit_at};
use super::units::{CurveUnitRun, listed_units, read_run_files, run_files};
use crate::curve::Verification;
use crate::curve::steps::Domain;
use crate::curve::walk::unit_steps_at;
use crate::error::{Result, invalid};
use crate::output::work_units::{Digest, Pick, Rechecked, Recompute, Twice, UnitTally, recheck};
use crate::progress::Progress;
use crate::search::problem::QueryId;
use crate::search::{SearchProblem, TieRule};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

/// The recorded units of a curve run, to be computed again.
struct RecordedCurve<'a, P> {
    problem: &'a P,
    tie: TieRule,
    units: HashMap<String, ListedUnit>,
    files: Vec<PathBuf>,
    /// The file (number in `files`) each recorded unit is read from (its first record).
    file_of: BTreeMap<String, usize>,
    labels: HashMap<String, QueryId>,
    verification: Verification,
}

/// A record with its digest, to be compared by content hash.
type Recorded = Digest<String, UnitSteps>;

/// `r` with its digest.
fn recorded(r: UnitSteps) -> Recorded {
    let digest = digest_of(&r, ());
    Digest { key: digest.key, codes: digest.codes, content: digest.content, kept: r }
}

impl<P: SearchProblem> Recompute for RecordedCurve<'_, P> {
    type Record = Recorded;

    fn source(&self) -> String {
        "the run's files".into()
    }

    fn records(&self, units: &[String]) -> Result<Vec<(String, Recorded)>> {
        let mut found: HashMap<String, (String, Recorded)> = HashMap::new();
        for (number, path) in self.files.iter().enumerate() {
            let wanted = |key: &str| self.file_of.get(key) == Some(&number) && units.iter().any(|u| u == key);
            if units.iter().all(|u| self.file_of.get(u) != Some(&number)) {
                continue;
            }
            for_each_record(
                path,
                |_| Ok(()),
                |r| {
                    if wanted(&r.key) {
                        found.insert(r.key.clone(), (path.display().to_string(), recorded(r)));
                    }
                    Ok(())
                },
            )?;
        }
        let missing = |key: &String| invalid(format!("unit {key:?}: its record is no longer in the run's files"));
        units.iter().map(|key| found.remove(key).ok_or_else(|| missing(key))).collect()
    }

    fn recompute(&self, recorded: &Recorded) -> Result<Recorded> {
        let bad = |why: String| invalid(format!("unit {:?}: {why}", recorded.key));
        let unit = self.units.get(&recorded.key).ok_or_else(|| bad("no unit of this run has this key".into()))?;
        let (state, set, depth) = unit_at(self.problem, &self.labels, unit).map_err(bad)?;
        let steps = unit_steps_at(self.problem, self.tie, (&state, &set), depth, &unit.domain, &self.verification);
        Ok(self::recorded(unit_record(&unit.key, unit.codes, &steps)))
    }

    fn differences(&self, recorded: &Recorded, again: &Recorded) -> Vec<(String, String, String)> {
        let spans = |r: &UnitSteps| -> Vec<String> {
            let text = |i: usize, all: &[String]| all.get(i).cloned().unwrap_or_default();
            let points: Vec<String> = r.points.iter().map(|p| serde_json::to_string(p).unwrap_or_default()).collect();
            let values: Vec<String> = r.values.iter().map(|v| format!("{} | {}", v.counts, v.penalty)).collect();
            let span = |s: &Vec<usize>| match s[..] {
                [.., v] => {
                    s[..s.len() - 1].iter().map(|&i| text(i, &points)).collect::<Vec<_>>().join(" ")
                        + " → "
                        + &text(v, &values)
                }
                [] => String::new(),
            };
            r.steps.iter().map(span).collect()
        };
        let (a, b) = (spans(&recorded.kept), spans(&again.kept));
        let Some(i) = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)) else {
            return vec![("step function".into(), "its JSON".into(), "other JSON of equal spans".into())];
        };
        let at = |s: &[String]| s.get(i).cloned().unwrap_or_else(|| "none".into());
        vec![(format!("span {i} of {} recorded, {} recomputed", a.len(), b.len()), at(&a), at(&b))]
    }
}

/// Computes `pick` of the units recorded in `run`'s files (its checkpoint and
/// the files given with it, read and checked as a merge reads them; nothing
/// is locked, evaluated or written) again, each rebuilt from its trail and
/// sub-domain, and compares it with its record by content hash; `each` gets
/// every unit as it is done. Returns the units recorded and the units
/// computed again; a unit that differs is an error naming its file and key.
pub fn recheck_curve_units<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    run: &CurveUnitRun,
    pick: &Pick<String>,
    progress: &Progress,
    mut each: impl FnMut(&Rechecked<Digest<String, UnitSteps>>),
) -> Result<(usize, usize)> {
    let (id, units) = listed_units(problem, tie, domain, run, progress)?;
    let files = run_files(run)?;
    let mut known = UnitTally::new(units.iter().map(|u| (u.key.clone(), Some(u.codes))), Twice::IfEqual);
    progress.begin("run files read", Some(files.len() as u64));
    let read = read_run_files(&files, 0, &id, &mut known, None, progress);
    progress.end();
    read?;
    let file_of: BTreeMap<String, usize> = known.files().map(|(key, file)| (key.clone(), file)).collect();
    let recorded: Vec<String> = file_of.keys().cloned().collect();
    if recorded.is_empty() {
        return Err(invalid("no unit of the run is recorded in its files: nothing to compute again"));
    }
    let units = units.into_iter().map(|u| (u.key.clone(), u)).collect();
    let labels = queries_by_label(problem);
    let run = RecordedCurve { problem, tie, units, files, file_of, labels, verification: Verification::new() };
    progress.begin("units computed again", None);
    let done = recheck(&run, &recorded, pick, |check| {
        progress.advance(1);
        each(check);
    });
    progress.end();
    Ok((recorded.len(), done?))
}
