//! The command line's progress observer: an indicatif bar on a terminal
//! (at once with `--progress`; without it only once a job has run for
//! [`AUTO_BAR_AFTER`], so that a long job never runs silently), plain lines
//! on stderr for notes.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use renyi_search::progress::{Observer, Progress};
use std::io::IsTerminal;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

/// How long a job runs on a terminal before its bar appears without `--progress`.
pub(super) const AUTO_BAR_AFTER: Duration = Duration::from_secs(3);

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
    let mode = if std::io::stderr().is_terminal() { mode } else { BarMode::Off };
    Progress::to(Arc::new(Terminal { mode, notes, started: Instant::now(), bar: RwLock::new(None) }))
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
