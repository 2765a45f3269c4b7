//! The command line's progress observer: an indicatif bar on a terminal
//! (with `--progress`), plain lines on stderr for notes.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use renyi_search::progress::{Observer, Progress};
use std::io::IsTerminal;
use std::sync::{Arc, RwLock};

/// Draws the library's reports: phases as a bar (only if `show_bar` and
/// stderr is a terminal), notes as lines (always).
struct Terminal {
    show_bar: bool,
    bar: RwLock<Option<ProgressBar>>,
}

impl Observer for Terminal {
    fn begin(&self, what: &str, total: Option<u64>) {
        if !self.show_bar {
            return;
        }
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
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
        }
    }
    fn status(&self, text: &str) {
        if let Some(bar) = &*self.bar.read().unwrap_or_else(|e| e.into_inner()) {
            bar.set_message(text.to_string());
        }
    }
    fn note(&self, text: &str) {
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

/// Progress for a command: notes on stderr, and a bar if `show_bar` and
/// stderr is a terminal.
pub(super) fn progress(show_bar: bool) -> Progress {
    Progress::to(Arc::new(Terminal { show_bar: show_bar && std::io::stderr().is_terminal(), bar: RwLock::new(None) }))
}

/// [`progress`] with a bar if `flag` (`--progress`), else nothing at all.
pub(super) fn progress_if(flag: bool) -> Progress {
    if flag { progress(true) } else { Progress::none() }
}
