//! The command line's progress observer: an indicatif bar on a terminal
//! (at once with `--progress`; without it only once a job has run for
//! [`AUTO_BAR_AFTER`], so that a long job never runs silently), plain lines
//! on stderr for notes. Off a terminal (a log file, a batch job) a command
//! that would draw a bar writes a dated progress line instead, at most once
//! per [`LOG_EVERY`] and only for phases that run that long, so short jobs
//! stay quiet and long ones leave their progress and ETA in the log.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use renyi_search::progress::{Observer, Progress};
use std::io::IsTerminal;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

/// How long a job runs on a terminal before its bar appears without `--progress`.
pub(super) const AUTO_BAR_AFTER: Duration = Duration::from_secs(3);

/// Off a terminal: the least time between two progress lines of a phase.
pub(super) const LOG_EVERY: Duration = Duration::from_secs(60);

/// When a bar is drawn.
#[derive(Clone, Copy)]
enum BarMode {
    Off,
    Now,
    /// Hidden until the job has run this long.
    After(Duration),
}

/// Draws the library's reports: phases as a bar (per [`BarMode`], only on a
/// terminal), notes as lines (if `notes`).
struct Terminal {
    mode: BarMode,
    notes: bool,
    started: Instant,
    bar: RwLock<Option<ProgressBar>>,
}

impl Terminal {
    /// Draws a hidden bar once the job has run long enough.
    fn reveal_if_due(&self, bar: &ProgressBar) {
        if let BarMode::After(delay) = self.mode
            && bar.is_hidden()
            && self.started.elapsed() >= delay
        {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
}

impl Observer for Terminal {
    fn begin(&self, what: &str, total: Option<u64>) {
        let target = match self.mode {
            BarMode::Off => return,
            BarMode::Now => ProgressDrawTarget::stderr(),
            BarMode::After(_) => ProgressDrawTarget::hidden(),
        };
        let bar = ProgressBar::with_draw_target(total, target);
        self.reveal_if_due(&bar);
        let template = match total {
            Some(_) => format!("{{spinner}} {what} {{pos}}/{{len}} [{{elapsed_precise}}, ETA {{eta}}] {{msg}}"),
            None => "{spinner} {msg} [{elapsed_precise}]".to_string(),
        };
        bar.set_style(ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()));
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        if let Some(old) = self.bar.write().unwrap_or_else(|e| e.into_inner()).replace(bar) {
            old.finish_and_clear();
        }
    }
    fn advance(&self, n: u64) {
        if let Some(bar) = &*self.bar.read().unwrap_or_else(|e| e.into_inner()) {
            bar.inc(n);
            self.reveal_if_due(bar);
        }
    }
    fn status(&self, text: &str) {
        if let Some(bar) = &*self.bar.read().unwrap_or_else(|e| e.into_inner()) {
            bar.set_message(text.to_string());
            self.reveal_if_due(bar);
        }
    }
    fn note(&self, text: &str) {
        if !self.notes {
            return;
        }
        match &*self.bar.read().unwrap_or_else(|e| e.into_inner()) {
            Some(bar) => bar.suspend(|| eprintln!("{text}")),
            None => eprintln!("{text}"),
        }
    }
    fn end(&self) {
        if let Some(bar) = self.bar.write().unwrap_or_else(|e| e.into_inner()).take() {
            bar.finish_and_clear();
        }
    }
}

fn terminal(mode: BarMode, notes: bool) -> Progress {
    let tty = std::io::stderr().is_terminal();
    if !tty && matches!(mode, BarMode::Now) {
        return Progress::to(Arc::new(LogLines { notes, phase: Mutex::new(None) }));
    }
    let mode = if tty { mode } else { BarMode::Off };
    Progress::to(Arc::new(Terminal { mode, notes, started: Instant::now(), bar: RwLock::new(None) }))
}

/// The phase a [`LogLines`] observer is in.
struct Phase {
    what: String,
    total: Option<u64>,
    done: u64,
    message: String,
    started: Instant,
    printed: Instant,
}

impl Phase {
    /// "2026-11-26T04:10:06Z queries at the root 3/15 [0:41:07, ETA 2:17:03] msg"
    fn line(&self) -> String {
        let elapsed = self.started.elapsed();
        let count = match self.total {
            Some(total) => format!("{}/{total}", self.done),
            None => self.done.to_string(),
        };
        let eta = match self.total {
            Some(total) if self.done > 0 && total >= self.done => {
                let left = elapsed.as_secs_f64() * (total - self.done) as f64 / self.done as f64;
                Duration::try_from_secs_f64(left).map_or(String::new(), |left| format!(", ETA {}", clock(left)))
            }
            _ => String::new(),
        };
        let now = renyi_search::output::iso_utc(std::time::SystemTime::now());
        format!("{now} {} {count} [{}{eta}] {}", self.what, clock(elapsed), self.message).trim_end().to_string()
    }
}

/// A duration as h:mm:ss.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Progress as dated lines on stderr, for logs (see the module comment).
struct LogLines {
    notes: bool,
    phase: Mutex<Option<Phase>>,
}

impl LogLines {
    /// Writes the phase's line if it has run [`LOG_EVERY`] since the last one.
    fn line_if_due(phase: &mut Phase) {
        if phase.printed.elapsed() >= LOG_EVERY {
            eprintln!("{}", phase.line());
            phase.printed = Instant::now();
        }
    }

    /// Ends the phase, with a last line if it ran long enough to have any.
    fn close(phase: Option<Phase>) {
        if let Some(phase) = phase
            && phase.started.elapsed() >= LOG_EVERY
        {
            eprintln!("{} (done)", phase.line());
        }
    }
}

impl Observer for LogLines {
    fn begin(&self, what: &str, total: Option<u64>) {
        let now = Instant::now();
        let phase =
            Phase { what: what.to_string(), total, done: 0, message: String::new(), started: now, printed: now };
        Self::close(self.phase.lock().unwrap_or_else(|e| e.into_inner()).replace(phase));
    }
    fn advance(&self, n: u64) {
        if let Some(phase) = &mut *self.phase.lock().unwrap_or_else(|e| e.into_inner()) {
            phase.done += n;
            Self::line_if_due(phase);
        }
    }
    fn status(&self, text: &str) {
        if let Some(phase) = &mut *self.phase.lock().unwrap_or_else(|e| e.into_inner()) {
            phase.message = text.to_string();
            Self::line_if_due(phase);
        }
    }
    fn note(&self, text: &str) {
        if self.notes {
            eprintln!("{text}");
        }
    }
    fn end(&self) {
        Self::close(self.phase.lock().unwrap_or_else(|e| e.into_inner()).take());
    }
}

/// Progress for a command: notes on stderr, and a bar if `show_bar` and
/// stderr is a terminal.
pub(super) fn progress(show_bar: bool) -> Progress {
    terminal(if show_bar { BarMode::Now } else { BarMode::Off }, true)
}

/// With `flag` (`--progress`): [`progress`] with a bar. Without it: no notes,
/// and a bar only on a terminal once the job has run [`AUTO_BAR_AFTER`].
pub(super) fn progress_if(flag: bool) -> Progress {
    match (flag, std::io::stderr().is_terminal()) {
        (true, _) => progress(true),
        (false, true) => terminal(BarMode::After(AUTO_BAR_AFTER), false),
        (false, false) => Progress::none(),
    }
}

/// For commands without `--progress` that can run long (Cram, heap games):
/// on a terminal a bar once the job has run [`AUTO_BAR_AFTER`]; off it, dated
/// lines once a phase has run [`LOG_EVERY`], so a short job stays quiet and a
/// long one leaves its progress and ETA in the log.
pub(super) fn progress_auto() -> Progress {
    if std::io::stderr().is_terminal() { progress_if(false) } else { progress(true) }
}

/// A bar for a command that reports through its own callbacks: drawn at once
/// with `--progress`, after [`AUTO_BAR_AFTER`] without it (call
/// [`CallbackBar::update`]), never off a terminal.
pub(super) struct CallbackBar {
    pub bar: ProgressBar,
    reveal_at: Option<Instant>,
}

impl CallbackBar {
    pub(super) fn new(flag: bool) -> CallbackBar {
        let tty = std::io::stderr().is_terminal();
        let bar = ProgressBar::new(0);
        if !(flag && tty) {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        let reveal_at = (!flag && tty).then(|| Instant::now() + AUTO_BAR_AFTER);
        CallbackBar { bar, reveal_at }
    }

    /// Sets position k of n, and draws the bar once it is due.
    pub(super) fn update(&self, k: u64, n: u64) {
        self.bar.set_length(n);
        self.bar.set_position(k);
        if self.reveal_at.is_some_and(|t| Instant::now() >= t) && self.bar.is_hidden() {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Phase, clock};
    use std::time::{Duration, Instant};

    /// A log line carries the phase, its count, the time so far and the ETA
    /// from the mean pace (3 of 15 done in 2 h: 8 h left).
    #[test]
    fn log_lines_state_count_elapsed_and_eta() {
        let two_hours = Duration::from_secs(7200);
        let started = Instant::now().checked_sub(two_hours).expect("the clock runs longer than two hours");
        let phase = Phase {
            what: "queries at the root".into(),
            total: Some(15),
            done: 3,
            message: "5 nodes".into(),
            started,
            printed: started,
        };
        let line = phase.line();
        let (stamp, rest) = line.split_once(' ').unwrap();
        assert!(stamp.ends_with('Z') && stamp.len() == 20, "{line}");
        assert_eq!(rest, "queries at the root 3/15 [2:00:00, ETA 8:00:00] 5 nodes");
        assert_eq!(clock(Duration::from_secs(36 * 3600 + 61)), "36:01:01");
        let unknown = Phase { total: None, message: String::new(), ..phase };
        assert!(unknown.line().ends_with("queries at the root 3 [2:00:00]"), "{}", unknown.line());
    }
}
