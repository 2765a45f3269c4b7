//! What one curve walk could not certify, counted for that walk alone.
//!
//! A walk (or a model curve, or a work-unit session) owns a [`Verification`]
//! and makes it current on every thread while that thread works for it
//! ([`Verification::within`]: the walk's own thread and each closure it hands to
//! rayon). The places that meet an uncertified event — two crossings whose
//! enclosures overlap and that can be neither proven one point nor ordered by
//! narrowing, an exact α that cannot be placed against a crossing, a crossing
//! whose root could not be certified, a piece too narrow for u64 fractions
//! (docs/curves.md) — call [`count_uncertified`], which counts into the
//! context current on their thread. So walks running side by side (in one
//! rayon pool, stealing each other's jobs while they wait) each report exactly
//! their own events, where the process-wide counter read as a before/after
//! difference counted every walk's events into every other's (issue 49 item 6).
//!
//! Invariant: every event met while some walk's context is current on the
//! thread is counted in that walk's context and in no other; an event met
//! outside every walk (ordering points while merging unit files or reading an
//! overview) is counted nowhere, as before it was counted by no report.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::AtomicU64 as Counter;
use std::sync::atomic::{AtomicU64, Ordering};

/// The counters of one walk (expected to stay 0; reported with every curve).
#[derive(Debug, Default)]
pub struct Verification {
    uncertified: Arc<AtomicU64>,
}

thread_local! {
    /// The counters of the walk this thread currently works for, if any.
    static CURRENT: RefCell<Option<Arc<AtomicU64>>> = const { RefCell::new(None) };
}

/// Puts back the thread's previous context when a [`Verification::within`]
/// ends, also when it unwinds.
struct Restore(Option<Arc<AtomicU64>>);

impl Drop for Restore {
    fn drop(&mut self) {
        let previous = self.0.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

impl Verification {
    pub fn new() -> Verification {
        Verification::default()
    }

    /// Uncertified events counted so far in this context.
    pub fn uncertified(&self) -> u64 {
        self.uncertified.load(Ordering::Relaxed)
    }

    /// Runs `f` with this context current on this thread (nested calls and
    /// other walks' contexts are put back afterwards).
    pub fn within<R>(&self, f: impl FnOnce() -> R) -> R {
        // The common case (rayon runs most closures on the thread that made
        // them): already current, nothing to set or put back.
        let current = CURRENT.with(|c| c.borrow().as_ref().is_some_and(|n| Arc::ptr_eq(n, &self.uncertified)));
        if current {
            return f();
        }
        let previous = CURRENT.with(|c| c.borrow_mut().replace(self.uncertified.clone()));
        let _restore = Restore(previous);
        f()
    }
}

/// What could not be certified: the kind of an uncertified event, counted
/// process-wide beside the walk's own count so that a command can say why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uncertified {
    /// Two crossings with overlapping enclosures neither proven one point nor ordered.
    CrossingsOverlap,
    /// An exact α that could not be placed against a crossing.
    ExactAgainstCrossing,
    /// A crossing whose root could not be certified (a tangency, or a root too
    /// close to a known one).
    RootNotCertified,
    /// Two partitions whose H could not be ordered at a crossing of another pair.
    OrderAtCrossing,
    /// A piece between two points too close for a u64 fraction, decided at its middle.
    PieceTooNarrow,
}

impl Uncertified {
    pub const ALL: [Uncertified; 5] = [
        Uncertified::CrossingsOverlap,
        Uncertified::ExactAgainstCrossing,
        Uncertified::RootNotCertified,
        Uncertified::OrderAtCrossing,
        Uncertified::PieceTooNarrow,
    ];

    /// A short description for a summary line.
    pub fn describe(self) -> &'static str {
        match self {
            Uncertified::CrossingsOverlap => "overlapping crossings not ordered",
            Uncertified::ExactAgainstCrossing => "rational alpha not placed against a crossing",
            Uncertified::RootNotCertified => "crossing not certified",
            Uncertified::OrderAtCrossing => "partitions not ordered at a crossing",
            Uncertified::PieceTooNarrow => "piece too narrow for a rational probe",
        }
    }
}

/// Events of each kind in this process, in every walk and outside them.
static BY_KIND: [Counter; 5] = [const { Counter::new(0) }; 5];

/// Uncertified events of each kind met in this process so far (kinds with
/// none left out): the reason behind a walk's count, for the command to show.
pub fn uncertified_by_kind() -> Vec<(Uncertified, u64)> {
    Uncertified::ALL
        .iter()
        .zip(&BY_KIND)
        .map(|(&k, c)| (k, c.load(Ordering::Relaxed)))
        .filter(|&(_, n)| n > 0)
        .collect()
}

/// Counts one uncertified event of `kind` into the context current on this
/// thread (and into the process's count of that kind).
pub(crate) fn count_uncertified(kind: Uncertified) {
    BY_KIND[kind as usize].fetch_add(1, Ordering::Relaxed);
    CURRENT.with(|c| {
        if let Some(counter) = c.borrow().as_ref() {
            counter.fetch_add(1, Ordering::Relaxed);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;
    use std::sync::Barrier;

    fn overlap() {
        count_uncertified(Uncertified::CrossingsOverlap)
    }

    #[test]
    fn each_context_counts_only_its_own_events() {
        let (a, b) = (Verification::new(), Verification::new());
        let start = Barrier::new(2);
        std::thread::scope(|s| {
            s.spawn(|| {
                a.within(|| {
                    start.wait();
                    (0..3000).into_par_iter().for_each(|_| a.within(overlap))
                })
            });
            s.spawn(|| {
                b.within(|| {
                    start.wait();
                    (0..5000).into_par_iter().for_each(|_| b.within(overlap))
                })
            });
        });
        assert_eq!((a.uncertified(), b.uncertified()), (3000, 5000));
        // Nested: the inner context counts while current, the outer one after it.
        a.within(|| {
            b.within(overlap);
            overlap();
        });
        assert_eq!((a.uncertified(), b.uncertified()), (3001, 5001));
        // Outside every context nothing is counted (but the kind is).
        overlap();
        assert_eq!((a.uncertified(), b.uncertified()), (3001, 5001));
        // Every event counted by kind, in a context or not (other tests may add more).
        let overlaps = uncertified_by_kind().iter().find(|k| k.0 == Uncertified::CrossingsOverlap).map_or(0, |k| k.1);
        assert!(overlaps >= 8003, "{overlaps}");
    }
}
