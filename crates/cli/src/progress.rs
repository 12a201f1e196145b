//! Progress of a long job (`kshogi solve`, `review`, `match`, `perft --suite`) on stderr,
//! never on stdout.
//!
//! On a terminal, one `indicatif` bar per phase, redrawn at most a few times a second
//! however often the workers report. Elsewhere (a pipe, a log file) one plain line every
//! [`PLAIN_EVERY`] at most, so that a log shows the job is alive without filling up; a job
//! shorter than that prints nothing.
//!
//! [`Reporter::update`] may be called from any thread, as often as the workers like.
//! [`RowProgress`] is the simpler bar of a suite run, one row at a time.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
pub use kshogi_notation::human::{group, human_time};
use kshogi_perft_suite::table::shorten;
use kshogi_perft_suite::SuiteRow;
use std::io::{IsTerminal as _, Write as _};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often the plain progress line is printed when stderr is not a terminal.
pub const PLAIN_EVERY: Duration = Duration::from_secs(10);

/// How progress is shown.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Bars on a terminal.
    Bars,
    /// A plain line now and then.
    Plain,
}

struct Current {
    /// The phase's name, shown before the bar.
    key: String,
    /// Whether the finished bar stays on the screen (else it is erased).
    keep: bool,
    bar: Option<ProgressBar>,
}

struct Inner {
    current: Option<Current>,
    last_plain: Instant,
}

/// Progress on stderr; see the module documentation.
pub struct Reporter {
    mode: Mode,
    start: Instant,
    inner: Mutex<Inner>,
}

impl Reporter {
    /// A reporter drawing bars when `terminal` (stderr is a terminal), plain lines otherwise.
    pub fn new(terminal: bool) -> Reporter {
        let now = Instant::now();
        Reporter {
            mode: if terminal { Mode::Bars } else { Mode::Plain },
            start: now,
            inner: Mutex::new(Inner {
                current: None,
                last_plain: now,
            }),
        }
    }

    /// Reports `done` of `total` `unit`s in the phase `key` (a new key starts a new bar and
    /// finishes the previous one; `keep` says whether this phase's bar stays on the screen
    /// when finished). `msg` is shown after the counts.
    pub fn update(&self, key: &str, keep: bool, done: u64, total: u64, unit: &str, msg: &str) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if inner.current.as_ref().map(|c| c.key.as_str()) != Some(key) {
            if let Some(old) = inner.current.take() {
                finish(old);
            }
            let bar = (self.mode == Mode::Bars).then(|| new_bar(key, total, unit));
            inner.current = Some(Current {
                key: key.to_string(),
                keep,
                bar,
            });
        }
        match self.mode {
            Mode::Bars => {
                if let Some(bar) = inner.current.as_ref().and_then(|c| c.bar.as_ref()) {
                    bar.set_length(total);
                    bar.set_position(done.min(total));
                    if !msg.is_empty() {
                        bar.set_message(msg.to_string());
                    }
                }
            }
            Mode::Plain => {
                if inner.last_plain.elapsed() >= PLAIN_EVERY {
                    inner.last_plain = Instant::now();
                    let pct = if total == 0 {
                        100.0
                    } else {
                        100.0 * done as f64 / total as f64
                    };
                    let msg = if msg.is_empty() {
                        String::new()
                    } else {
                        format!(", {msg}")
                    };
                    eprintln!(
                        "progress: {key}: {} of {} {unit} ({pct:.1}%){msg}, {} elapsed",
                        group(done),
                        group(total),
                        human_time(self.start.elapsed())
                    );
                }
            }
        }
    }

    /// Finishes the current bar (if any); on a terminal, then prints `line` (if any) on
    /// stderr, where the bars are.
    pub fn done(&self, line: Option<&str>) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = inner.current.take() {
            finish(old);
        }
        if let (Mode::Bars, Some(line)) = (self.mode, line) {
            eprintln!("{line}");
        }
    }
}

fn new_bar(key: &str, total: u64, unit: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let template = format!(
        "{{prefix:>10}} [{{bar:32}}] {{human_pos}}/{{human_len}} {unit} {{msg}} \
         ({{elapsed}}, eta {{eta}})"
    );
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(key.to_string());
    bar
}

fn finish(c: Current) {
    if let Some(bar) = c.bar {
        if c.keep {
            bar.finish();
        } else {
            bar.finish_and_clear();
        }
    }
}

/// The one-line progress bar of `kshogi perft --suite` on standard error, drawn only when it is a terminal (so logs and
/// CI output stay clean).
pub struct RowProgress {
    /// Whether standard error is a terminal.
    enabled: bool,
    /// Rows in the run.
    total: usize,
    /// Width of the last line drawn, to clear it.
    drawn: usize,
}

impl RowProgress {
    /// A progress bar for `total` rows.
    pub fn new(total: usize) -> RowProgress {
        RowProgress {
            enabled: std::io::stderr().is_terminal(),
            total,
            drawn: 0,
        }
    }

    /// Draws the bar before row `done` (0-based) runs.
    pub fn show(&mut self, done: usize, row: &SuiteRow) {
        if !self.enabled {
            return;
        }
        // About 70 columns at most, so that the line fits a terminal and `\r` can erase it.
        const BAR: usize = 20;
        const POSITION: usize = 24;
        let filled = BAR * done / self.total.max(1);
        let line = format!(
            "[{}{}] {}/{}  {} {} depth {}",
            "#".repeat(filled),
            "-".repeat(BAR - filled),
            done,
            self.total,
            row.variant,
            shorten(&row.sfen, POSITION),
            row.depth
        );
        self.drawn = line.chars().count();
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{line}");
        let _ = err.flush();
    }

    /// Erases the bar.
    pub fn clear(&mut self) {
        if !self.enabled || self.drawn == 0 {
            return;
        }
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{}\r", " ".repeat(self.drawn));
        let _ = err.flush();
        self.drawn = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_mode_is_quiet_at_first_and_phases_switch() {
        let r = Reporter::new(false);
        r.update("start", true, 1, 10, "entries", "");
        r.update("level 0", false, 5, 10, "positions", "resolved 3");
        r.done(Some("never printed in plain mode"));
        assert!(r.inner.lock().unwrap().current.is_none());
    }
}
