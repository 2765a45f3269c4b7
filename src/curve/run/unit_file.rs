//! The files of a curve work-unit run ([`super::units`]): one JSON line per
//! finished unit after a header line with the run's identity. Every line
//! starts with a CRC-32 (`1a2b3c4d {…}`): the header's of its JSON, each
//! record's of the run's key and its JSON ([`super::run_key`]), so an edited,
//! damaged or foreign record is found and named, as is a unit recorded twice
//! in one file; a line cut off by a kill (the last one, without its newline)
//! is ignored and its unit evaluated again.
//!
//! A unit's record holds its step function exactly: every point as an exact
//! rational or as a certified enclosure together with the two partitions
//! whose Rényi entropies cross there, so that reading re-checks each
//! enclosure against its pair function and rebuilds points that order and
//! compare exactly like freshly computed ones.

use super::run_key::parse_keyed_line;
use crate::curve::crossing::PairFunction;
use crate::curve::interval::Interval;
use crate::curve::point::{Point, Root, Sides, Witness, descending};
use crate::curve::steps::{Domain, Span, Steps};
use crate::error::{Result, invalid};
use crate::output::sealed_lines::{SealedReading, for_each_sealed_line};
use crate::output::work_units::{ContentHash, Digest};
use crate::search::outcome::Outcome;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// What identifies a curve run (defined beside its key, [`super::run_key`]).
pub use super::run_key::CurveRunId;

/// One finished unit.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct UnitSteps {
    /// The unit's trail (queries and answers from the root) and sub-domain.
    pub key: String,
    pub codes: u64,
    /// Distinct points of the step function; spans refer to them by index.
    pub points: Vec<PointRecord>,
    /// Distinct outcomes of the step function; spans refer to them by index.
    pub values: Vec<ValueRecord>,
    pub steps: Vec<StepRecord>,
    /// Wall seconds the unit took (units run side by side, so they overlap).
    pub seconds: f64,
    /// Start of the session (Unix seconds) that evaluated the unit, and its
    /// wall seconds and counters (uncertified points, float-decided near
    /// ties) from that start to this record.
    pub session_started: f64,
    pub session_seconds: f64,
    pub session_uncertified: u64,
    pub session_float_ties: u64,
}

/// One span of a unit's step function: one point index (the span is that
/// point) or two (the open interval between them), then the value index.
pub type StepRecord = Vec<usize>;

/// An exact outcome: depth counts, penalty points and codes by penalty
/// points paid, each a space-separated list of integers or fractions p/q.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ValueRecord {
    pub counts: String,
    pub penalty: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub penalised: String,
}

/// A point: an exact α, or an enclosure [lo, hi] of a crossing of the pair (p, q).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum PointRecord {
    Exact {
        alpha: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        witness: Option<WitnessRecord>,
    },
    Root {
        /// The enclosure's ends, as shortest round-trip decimals.
        lo: String,
        hi: String,
        p: Vec<u64>,
        q: Vec<u64>,
        certified: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        witness: Option<WitnessRecord>,
    },
}

/// [`Witness`] in a file. Its partitions are left out when they are the
/// point's pair (`pair` = "pq": below is p, above is q; "qp": the reverse).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WitnessRecord {
    pub codes: u64,
    pub depth: usize,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub below: Vec<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub above: Vec<u64>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub pair: String,
    pub queries: (String, String),
}

impl WitnessRecord {
    fn of(w: &Witness, pair: Option<(&[u64], &[u64])>) -> WitnessRecord {
        let (below, above, order) = match &w.sides {
            Sides::OfPair { p_below } => (Vec::new(), Vec::new(), if *p_below { "pq" } else { "qp" }),
            Sides::Own { below, above } => {
                let (b, a) = (descending(below), descending(above));
                let order = pair.and_then(|(p, q)| {
                    let (p, q) = (descending(p), descending(q));
                    if b == p && a == q {
                        Some("pq")
                    } else if b == q && a == p {
                        Some("qp")
                    } else {
                        None
                    }
                });
                match order {
                    Some(order) => (Vec::new(), Vec::new(), order),
                    None => (below.clone(), above.clone(), ""),
                }
            }
        };
        WitnessRecord {
            codes: w.codes,
            depth: w.depth,
            below,
            above,
            pair: order.to_string(),
            queries: (w.queries.0.to_string(), w.queries.1.to_string()),
        }
    }

    /// The witness of a point, whose pair (if a root) is `pair`.
    fn witness(&self, pair: Option<(&[u64], &[u64])>) -> std::result::Result<Arc<Witness>, String> {
        let sides = match (self.pair.as_str(), pair) {
            ("", _) => Sides::Own { below: self.below.clone(), above: self.above.clone() },
            ("pq", Some(_)) => Sides::OfPair { p_below: true },
            ("qp", Some(_)) => Sides::OfPair { p_below: false },
            (other, _) => return Err(format!("witness pair {other:?} does not name the point's partitions")),
        };
        let queries =
            (crate::curve::point::shared_label(&self.queries.0), crate::curve::point::shared_label(&self.queries.1));
        Ok(Arc::new(Witness { codes: self.codes, depth: self.depth, sides, queries }))
    }
}

pub(crate) fn point_record(p: &Point) -> PointRecord {
    match p {
        Point::Exact { alpha, .. } => {
            PointRecord::Exact { alpha: alpha.to_string(), witness: p.witness().map(|w| WitnessRecord::of(w, None)) }
        }
        Point::Root { root, .. } => PointRecord::Root {
            lo: format!("{:?}", root.at.lo),
            hi: format!("{:?}", root.at.hi),
            p: root.pair.p.clone(),
            q: root.pair.q.clone(),
            certified: root.certified,
            witness: p.witness().map(|w| WitnessRecord::of(w, Some((&root.pair.p, &root.pair.q)))),
        },
    }
}

/// Largest relative width of a certified enclosure accepted on reading.
const MAX_WIDTH: f64 = 1e-12;

/// Rebuilds a point, re-checking an enclosure: its ends in order, a
/// certified one narrow, and its pair function's range on it holding 0.
pub(crate) fn point_of(r: &PointRecord) -> std::result::Result<Point, String> {
    match r {
        PointRecord::Exact { alpha, witness } => {
            let alpha = alpha.parse().map_err(|_| format!("point {alpha:?} is not an α"))?;
            let p = Point::exact(alpha);
            Ok(match witness {
                Some(w) => p.with_witness(w.witness(None)?),
                None => p,
            })
        }
        PointRecord::Root { lo, hi, p, q, certified, witness } => {
            let (lo, hi): (f64, f64) = match (lo.parse(), hi.parse()) {
                (Ok(lo), Ok(hi)) => (lo, hi),
                _ => return Err(format!("enclosure [{lo}, {hi}] does not parse")),
            };
            if !(lo.is_finite() && hi.is_finite() && 0.0 <= lo && lo <= hi) {
                return Err(format!("enclosure [{lo}, {hi}] is not an interval of [0, ∞)"));
            }
            if *certified && hi - lo > MAX_WIDTH * hi.max(1.0) {
                return Err(format!("certified enclosure [{lo}, {hi}] is wider than {MAX_WIDTH} (relative)"));
            }
            let pair = PairFunction::new(p, q).ok_or("its two partitions are equal")?;
            if p.iter().sum::<u64>() != q.iter().sum::<u64>() {
                return Err("its two partitions are of different sets".into());
            }
            let at = Interval::new(lo, hi);
            if *certified && !pair.eval(at, 0).contains_zero() {
                return Err(format!("the partitions' entropies do not cross in [{lo}, {hi}]"));
            }
            // Checked: the pair keeps only its partitions (a merge holds millions).
            let pair = Arc::new(pair.lean());
            let point = Point::Root { root: Arc::new(Root { at, pair, certified: *certified }), witness: None };
            Ok(match witness {
                Some(w) => point.with_witness(w.witness(Some((p, q)))?),
                None => point,
            })
        }
    }
}

/// The record of a unit's step function (`session_*` and `seconds` filled by the caller).
pub fn unit_record(key: &str, codes: u64, steps: &Steps<Arc<Outcome>>) -> UnitSteps {
    let mut points: Vec<PointRecord> = Vec::new();
    let mut point_index: HashMap<String, usize> = HashMap::new();
    let mut point_id = |p: &Point| {
        let record = point_record(p);
        let text = serde_json::to_string(&record).unwrap_or_default();
        *point_index.entry(text).or_insert_with(|| {
            points.push(record);
            points.len() - 1
        })
    };
    let mut values: Vec<ValueRecord> = Vec::new();
    let mut value_index: HashMap<(String, String, String), usize> = HashMap::new();
    let mut value_id = |o: &Outcome| {
        let (counts, penalty) = o.to_strings();
        let key = (counts.join(" "), penalty, o.penalised_strings().join(" "));
        *value_index.entry(key.clone()).or_insert_with(|| {
            values.push(ValueRecord { counts: key.0, penalty: key.1, penalised: key.2 });
            values.len() - 1
        })
    };
    let steps = steps
        .iter()
        .map(|(span, outcome)| {
            let mut record = match span {
                Span::At(p) => vec![point_id(p)],
                Span::Open(a, b) => vec![point_id(a), point_id(b)],
            };
            record.push(value_id(outcome));
            record
        })
        .collect();
    UnitSteps {
        key: key.to_string(),
        codes,
        points,
        values,
        steps,
        seconds: 0.0,
        session_started: 0.0,
        session_seconds: 0.0,
        session_uncertified: 0,
        session_float_ties: 0,
    }
}

/// The step function of a record, every point re-checked, every value exact;
/// the codes of each span's outcome must be the unit's codes.
pub fn unit_steps(r: &UnitSteps) -> std::result::Result<Steps<Arc<Outcome>>, String> {
    let points: Vec<Point> = r.points.iter().map(point_of).collect::<std::result::Result<_, _>>()?;
    let get = |i: usize| points.get(i).cloned().ok_or(format!("point index {i} out of range"));
    let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    let codes = crate::search::outcome::Exact::from_integer(r.codes.into());
    let values: Vec<Arc<Outcome>> = r
        .values
        .iter()
        .map(|v| {
            let o = Outcome::from_strings(&words(&v.counts), &v.penalty, &words(&v.penalised))
                .ok_or("a value does not parse as exact")?;
            if o.codes() != codes {
                return Err(format!(
                    "a value's depth counts add up to {}, not the unit's {} codes",
                    o.codes(),
                    r.codes
                ));
            }
            Ok(Arc::new(o))
        })
        .collect::<std::result::Result<_, String>>()?;
    let value = |i: usize| values.get(i).cloned().ok_or(format!("value index {i} out of range"));
    let mut out = Vec::with_capacity(r.steps.len());
    for s in &r.steps {
        let (span, v) = step_span(s, &get)?;
        out.push((span, value(v)?));
    }
    Ok(out)
}

/// A step record's span (its points by `point`) and its value index.
fn step_span(
    s: &StepRecord,
    point: &dyn Fn(usize) -> std::result::Result<Point, String>,
) -> std::result::Result<(Span, usize), String> {
    match s[..] {
        [i, v] => Ok((Span::At(point(i)?), v)),
        [i, j, v] => Ok((Span::Open(point(i)?, point(j)?), v)),
        _ => Err("a step has neither one nor two points and a value".into()),
    }
}

/// The sub-domain a unit's record covers, from its first span to its last,
/// without building the steps.
pub fn record_domain(r: &UnitSteps) -> std::result::Result<Domain, String> {
    let point = |i: usize| r.points.get(i).ok_or(format!("point index {i} out of range")).and_then(point_of);
    let (Some(first), Some(last)) = (r.steps.first(), r.steps.last()) else {
        return Err("a record without steps".into());
    };
    Ok(Domain::of_run(&step_span(first, &point)?.0, &step_span(last, &point)?.0))
}

/// A record's line packed to be kept until a merge needs it: raw deflate at
/// the fastest level, so a merge holds its units' records at a fraction of
/// their text and builds each step function only when the walk reaches it.
pub struct PackedRecord(Box<[u8]>, Box<str>);

impl PackedRecord {
    /// Packs a line of the run whose records are sealed with `key`.
    pub fn pack(line: &str, key: &str) -> PackedRecord {
        use std::io::Write;
        let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        // Writing to a Vec cannot fail.
        let packed = z.write_all(line.as_bytes()).and_then(|()| z.finish()).unwrap_or_default();
        PackedRecord(packed.into_boxed_slice(), Box::from(key))
    }

    /// The record again; its line's checksum is checked once more.
    pub fn unpack(&self) -> std::result::Result<UnitSteps, String> {
        use std::io::Read;
        let mut line = String::new();
        flate2::read::DeflateDecoder::new(&self.0[..])
            .read_to_string(&mut line)
            .map_err(|e| format!("a kept record does not unpack: {e}"))?;
        parse_keyed_line(&self.1, &line).ok_or_else(|| "a kept record fails its checksum".to_string())
    }

    pub fn bytes(&self) -> usize {
        self.0.len()
    }
}

/// Reads a run file (plain, gzip- or xz-compressed): its identity and its records (a damaged record is an
/// error naming the file and line, except a last line cut off by a kill).
/// An empty or missing file gives `None`.
pub fn read_run_file(path: &Path) -> Result<Option<(CurveRunId, Vec<UnitSteps>)>> {
    let mut records = Vec::new();
    let id = for_each_record(
        path,
        |_| Ok(()),
        |r| {
            records.push(r);
            Ok(())
        },
    )?;
    Ok(id.map(|id| (id, records)))
}

/// Streams a run file as [`read_run_file`] reads it, handing its identity to
/// `header` (which may refuse the file before any record is read) and each
/// record to `each` in file order, keeping none: a run of several GB of records is
/// checked and merged without holding its text or its records at once.
/// Returns the file's identity, or `None` for an empty or missing file.
pub fn for_each_record(
    path: &Path,
    header: impl FnOnce(&CurveRunId) -> Result<()>,
    mut each: impl FnMut(UnitSteps) -> Result<()>,
) -> Result<Option<CurveRunId>> {
    for_each_line(path, header, |_, _, r| each(r))
}

/// [`for_each_record`], handing `each` the record's whole line (checksum and
/// JSON, without its line break) and the run's key beside the record. A file
/// whose records are not keyed (the older format) is refused, naming it.
pub fn for_each_line(
    path: &Path,
    header: impl FnOnce(&CurveRunId) -> Result<()>,
    each: impl FnMut(&str, &str, UnitSteps) -> Result<()>,
) -> Result<Option<CurveRunId>> {
    Ok(for_each_sealed_line(path, reading(path, header), each)?.map(|(id, _)| id))
}

/// How the run file at `path` is read: its identity must be keyed and pass
/// `header`; its records are named by their keys.
pub(crate) fn reading<'a>(
    path: &'a Path,
    header: impl FnOnce(&CurveRunId) -> Result<()> + 'a,
) -> SealedReading<'a, CurveRunId, UnitSteps, String> {
    let identity = move |id: &CurveRunId| {
        if !id.keyed {
            return Err(invalid(format!(
                "{}: its records are not keyed to their run (the older format of the parts committed before \
                 issue 48, which this program no longer reads): compute its units again and check them against \
                 the run's NAME.units.tsv (docs/runs.md)",
                path.display()
            )));
        }
        header(id)
    };
    SealedReading { what: "curve run", identity: Box::new(identity), unit_of: |r: &UnitSteps| r.key.clone() }
}

/// A record's unit (its key: trail and sub-domain), codes and content hash
/// (of its step function: points, values, steps as JSON; not of when or how
/// fast it was computed), with `kept`: two records of one unit must agree in it.
pub fn digest_of<X>(r: &UnitSteps, kept: X) -> Digest<String, X> {
    let content = ContentHash::of_json(&(&r.points, &r.values, &r.steps));
    Digest { key: r.key.clone(), codes: r.codes, content, kept }
}
