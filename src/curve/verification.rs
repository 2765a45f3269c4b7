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

/// Counts one uncertified event into the context current on this thread.
pub(crate) fn count_uncertified() {
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

    #[test]
    fn each_context_counts_only_its_own_events() {
        let (a, b) = (Verification::new(), Verification::new());
        let start = Barrier::new(2);
        std::thread::scope(|s| {
            s.spawn(|| {
                a.within(|| {
                    start.wait();
                    (0..3000).into_par_iter().for_each(|_| a.within(count_uncertified))
                })
            });
            s.spawn(|| {
                b.within(|| {
                    start.wait();
                    (0..5000).into_par_iter().for_each(|_| b.within(count_uncertified))
                })
            });
        });
        assert_eq!((a.uncertified(), b.uncertified()), (3000, 5000));
        // Nested: the inner context counts while current, the outer one after it.
        a.within(|| {
            b.within(count_uncertified);
            count_uncertified();
        });
        assert_eq!((a.uncertified(), b.uncertified()), (3001, 5001));
        // Outside every context nothing is counted.
        count_uncertified();
        assert_eq!((a.uncertified(), b.uncertified()), (3001, 5001));
    }
}
