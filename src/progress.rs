//! Progress of long computations, reported to an observer the caller supplies.
//!
//! The library never prints. A computation that runs long reports through a
//! [`Progress`] handle: phases with a count (root subtrees, codes, games), a
//! changing status line (nodes evaluated, best total so far) and notes worth
//! keeping in a log (a finished table cell). The command line turns these into
//! an indicatif bar on a terminal and plain lines otherwise; a library user
//! passes [`Progress::none`] or an [`Observer`] of their own.

use std::fmt;
use std::sync::Arc;

/// Receives progress reports. Calls may come from several threads at once.
pub trait Observer: Send + Sync {
    /// A counted phase begins: what it counts and, if known, how many in all.
    fn begin(&self, what: &str, total: Option<u64>);
    /// `n` more units of the current phase are done.
    fn advance(&self, n: u64);
    /// The current phase's status line (replaces the previous one).
    fn status(&self, text: &str);
    /// A line worth keeping (a finished cell, a skipped run, a per-class summary).
    fn note(&self, text: &str);
    /// The current phase ends.
    fn end(&self);
}

/// A cheap, cloneable handle to an optional [`Observer`]; every report is a
/// no-op without one.
#[derive(Clone, Default)]
pub struct Progress(Option<Arc<dyn Observer>>);

impl Progress {
    /// Reports go nowhere.
    pub fn none() -> Self {
        Progress(None)
    }

    /// Reports go to `observer`.
    pub fn to(observer: Arc<dyn Observer>) -> Self {
        Progress(Some(observer))
    }

    /// Whether anyone listens (worth computing a status text for).
    pub fn is_observed(&self) -> bool {
        self.0.is_some()
    }

    /// See [`Observer::begin`].
    pub fn begin(&self, what: &str, total: Option<u64>) {
        if let Some(o) = &self.0 {
            o.begin(what, total);
        }
    }

    /// See [`Observer::advance`].
    pub fn advance(&self, n: u64) {
        if let Some(o) = &self.0 {
            o.advance(n);
        }
    }

    /// See [`Observer::status`].
    pub fn status(&self, text: &str) {
        if let Some(o) = &self.0 {
            o.status(text);
        }
    }

    /// See [`Observer::note`].
    pub fn note(&self, text: &str) {
        if let Some(o) = &self.0 {
            o.note(text);
        }
    }

    /// See [`Observer::end`].
    pub fn end(&self) {
        if let Some(o) = &self.0 {
            o.end();
        }
    }
}

impl fmt::Debug for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_observed() { "Progress(observed)" } else { "Progress(none)" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Log(Mutex<Vec<String>>);

    impl Observer for Log {
        fn begin(&self, what: &str, total: Option<u64>) {
            self.0.lock().unwrap().push(format!("begin {what} {total:?}"));
        }
        fn advance(&self, n: u64) {
            self.0.lock().unwrap().push(format!("advance {n}"));
        }
        fn status(&self, text: &str) {
            self.0.lock().unwrap().push(format!("status {text}"));
        }
        fn note(&self, text: &str) {
            self.0.lock().unwrap().push(format!("note {text}"));
        }
        fn end(&self) {
            self.0.lock().unwrap().push("end".into());
        }
    }

    #[test]
    fn reports_reach_the_observer_in_order_and_none_drops_them() {
        let log = Arc::new(Log::default());
        let p = Progress::to(log.clone());
        p.begin("codes", Some(3));
        p.advance(2);
        p.status("half");
        p.note("kept");
        p.end();
        Progress::none().note("dropped");
        assert_eq!(*log.0.lock().unwrap(), ["begin codes Some(3)", "advance 2", "status half", "note kept", "end"]);
    }
}
