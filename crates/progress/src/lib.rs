//! # kshogi-progress
//!
//! The progress of a long job (`kshogi solve`, `review`, `match`, `perft --suite`, the
//! tuners' pipelines) on standard error, never on standard output, drawn the same way by
//! every program of kshogi:
//!
//! - on a terminal ([`Output::Bars`]), one `indicatif` bar per counted stage, redrawn at
//!   most a few times a second however often the workers report, and the other lines
//!   printed above it;
//! - elsewhere ([`Output::Lines`]: a pipe, a log file), one plain line at most every
//!   [`Progress::every`] (two seconds unless set), so that a log shows the job is alive
//!   without filling up; a job shorter than that prints only its forced lines;
//! - nothing at all when [`Output::Quiet`] (tests).
//!
//! [`Progress::count`] and [`Progress::line`] may be called from any thread, as often as the
//! workers like; the text of a line is made by a closure, and only when it is shown.
//!
//! ```
//! use kshogi_progress::{Output, Progress, Stage};
//!
//! let progress = Progress::new("kshogi", Output::HiddenBars);
//! let stage = Stage::new("match").counting("games");
//! progress.count(stage, 3, 10, || "+2 =0 -1".to_string());
//! assert_eq!(progress.bar(), Some(("match".to_string(), 3, 10)));
//! progress.count(stage, 10, 10, || "+7 =1 -2".to_string());
//! assert_eq!(progress.bar(), None); // finished at its total
//! ```
//!
//! This crate must not depend on any kshogi crate but notation (whose words for numbers and
//! durations the plain lines use), know a variant, or hold any policy of the jobs it shows:
//! what a stage is and what its line says are the caller's.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
pub use kshogi_notation::human::{group, human_time};
use std::io::IsTerminal as _;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How often a plain line is printed at most, unless [`Progress::every`] says otherwise.
pub const DEFAULT_EVERY: Duration = Duration::from_secs(2);

/// How often a bar's message is made again at most (making it may cost more than counting).
const MESSAGE_EVERY: Duration = Duration::from_millis(200);

/// Where progress goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// Nowhere (tests, a quiet run).
    Quiet,
    /// A plain line now and then (standard error is a pipe or a file).
    Lines,
    /// Bars on a terminal.
    Bars,
    /// Bars drawn nowhere, whose state [`Progress::bar`] reads back: for tests.
    HiddenBars,
}

impl Output {
    /// [`Output::Bars`] when standard error is a terminal, else [`Output::Lines`].
    pub fn detect() -> Output {
        if std::io::stderr().is_terminal() {
            Output::Bars
        } else {
            Output::Lines
        }
    }
}

/// A counted stage of a job: its key (a stage of another key finishes the bar before), and
/// how its bar and its plain line look.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Stage<'a> {
    key: &'a str,
    unit: Option<&'a str>,
    keep: bool,
}

impl<'a> Stage<'a> {
    /// A stage whose bar shows the percentage and the caller's line beside it, and whose
    /// plain line is the caller's line alone; its bar stays on the screen when finished.
    pub fn new(key: &'a str) -> Stage<'a> {
        Stage {
            key,
            unit: None,
            keep: true,
        }
    }

    /// The stage counts `unit`s (`"games"`, `"positions"`): its bar shows the key, the
    /// counts, the caller's message, the time taken and the time left, and its plain line
    /// says `key: done of total unit (percent), message, time elapsed`.
    pub fn counting(self, unit: &'a str) -> Stage<'a> {
        Stage {
            unit: Some(unit),
            ..self
        }
    }

    /// The stage's bar is erased when finished (a phase of many, such as one position of a
    /// review), instead of staying on the screen.
    pub fn erased(self) -> Stage<'a> {
        Stage {
            keep: false,
            ..self
        }
    }

    /// The stage's key.
    pub fn key(&self) -> &'a str {
        self.key
    }
}

impl<'a> From<&'a str> for Stage<'a> {
    fn from(key: &'a str) -> Stage<'a> {
        Stage::new(key)
    }
}

impl<'a> From<&'a String> for Stage<'a> {
    fn from(key: &'a String) -> Stage<'a> {
        Stage::new(key)
    }
}

/// The stage counting now.
struct Current {
    key: String,
    keep: bool,
    /// Its bar, until it is finished (at its total, or when `Output` draws none).
    bar: Option<ProgressBar>,
    /// When the bar's message was last made.
    message_at: Option<Instant>,
}

struct State {
    current: Option<Current>,
    /// When the last plain line (or line above the bar) was printed.
    last_line: Instant,
}

/// Progress on standard error; see the crate documentation.
pub struct Progress {
    program: &'static str,
    output: Output,
    every: Duration,
    started: Instant,
    state: Mutex<State>,
}

impl Progress {
    /// Progress whose lines start with `program` (`"kshogi-tune"`: `kshogi-tune: ...`),
    /// shown as `output` says.
    pub fn new(program: &'static str, output: Output) -> Progress {
        let now = Instant::now();
        Progress {
            program,
            output,
            every: DEFAULT_EVERY,
            started: now,
            state: Mutex::new(State {
                current: None,
                last_line: now,
            }),
        }
    }

    /// Prints a plain line at most every `every` (forced lines aside).
    pub fn every(self, every: Duration) -> Progress {
        Progress { every, ..self }
    }

    /// Where the progress goes.
    pub fn output(&self) -> Output {
        self.output
    }

    /// The time since the progress was made (the job's start).
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Prints `program: line` if [`Progress::every`] has passed since the last line, or if
    /// `force` (a stage's result); above the bar, if one is drawn. `line` is called only
    /// when the line is printed.
    pub fn line(&self, force: bool, line: impl FnOnce() -> String) {
        if self.output == Output::Quiet {
            return;
        }
        let mut state = self.state();
        self.print_line(&mut state, force, line);
    }

    fn print_line(&self, state: &mut State, force: bool, line: impl FnOnce() -> String) {
        let now = Instant::now();
        if !force && now.duration_since(state.last_line) < self.every {
            return;
        }
        state.last_line = now;
        let text = format!("{}: {}", self.program, line());
        match state.current.as_ref().and_then(|c| c.bar.as_ref()) {
            Some(bar) => bar.println(text),
            None if self.output == Output::HiddenBars => {}
            None => eprintln!("{text}"),
        }
    }

    /// Reports `done` of `total` in `stage`, with `message` (made only when shown) beside
    /// its bar or in its plain line. A stage of a new key finishes the bar before; reaching
    /// `total` finishes the stage's bar, and the stage's later reports are ignored until
    /// another key or [`Progress::finish`].
    pub fn count<'a>(
        &self,
        stage: impl Into<Stage<'a>>,
        done: u64,
        total: u64,
        message: impl FnOnce() -> String,
    ) {
        let stage = stage.into();
        if self.output == Output::Quiet {
            return;
        }
        let mut state = self.state();
        if state.current.as_ref().is_some_and(|c| c.key != stage.key) {
            if let Some(old) = state.current.take() {
                finish(old);
            }
        }
        let new = state.current.is_none();
        if new {
            let draw = match self.output {
                Output::Bars => Some(ProgressDrawTarget::stderr()),
                Output::HiddenBars => Some(ProgressDrawTarget::hidden()),
                Output::Lines | Output::Quiet => None,
            };
            state.current = Some(Current {
                key: stage.key.to_string(),
                keep: stage.keep,
                bar: draw.map(|d| new_bar(&stage, total, d)),
                message_at: None,
            });
        }
        let at_total = done >= total;
        if self.output == Output::Lines {
            let elapsed = self.started.elapsed();
            self.print_line(&mut state, false, || match stage.unit {
                Some(unit) => {
                    let pct = if total == 0 {
                        100.0
                    } else {
                        100.0 * done as f64 / total as f64
                    };
                    let text = message();
                    let text = if text.is_empty() {
                        text
                    } else {
                        format!(", {text}")
                    };
                    format!(
                        "{}: {} of {} {unit} ({pct:.1}%){text}, {} elapsed",
                        stage.key,
                        group(done),
                        group(total),
                        human_time(elapsed)
                    )
                }
                None => message(),
            });
            return;
        }
        let Some(current) = state.current.as_mut() else {
            return;
        };
        if let Some(bar) = current.bar.as_ref() {
            bar.set_length(total);
            bar.set_position(done.min(total));
            let now = Instant::now();
            if at_total
                || current
                    .message_at
                    .map_or(true, |t| now.duration_since(t) >= MESSAGE_EVERY)
            {
                current.message_at = Some(now);
                let text = message();
                bar.set_message(match stage.unit {
                    Some(_) => text,
                    None => format!("{}: {text}", self.program),
                });
            }
            if at_total {
                finish_bar(current);
            }
        }
    }

    /// Finishes the bar drawn, if any (a stage that stops before its total, the end of the
    /// job), so that what is printed next comes below it.
    pub fn finish(&self) {
        if let Some(old) = self.state().current.take() {
            finish(old);
        }
    }

    /// [`Progress::finish`], then on a terminal `note` below the bars (a summary that a
    /// log gets in another form).
    pub fn finish_with(&self, note: &str) {
        self.finish();
        if self.output == Output::Bars {
            eprintln!("{note}");
        }
    }

    /// The stage whose bar is drawn now, with its count and total.
    pub fn bar(&self) -> Option<(String, u64, u64)> {
        let state = self.state();
        let current = state.current.as_ref()?;
        let bar = current.bar.as_ref()?;
        Some((
            current.key.clone(),
            bar.position(),
            bar.length().unwrap_or(0),
        ))
    }
}

fn new_bar(stage: &Stage<'_>, total: u64, draw: ProgressDrawTarget) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), draw);
    let template = match stage.unit {
        Some(unit) => format!(
            "{{prefix:>10}} [{{bar:32}}] {{human_pos}}/{{human_len}} {unit} {{msg}} \
             ({{elapsed}}, eta {{eta}})"
        ),
        None => "{bar:30.cyan/blue} {percent:>3}% {msg}".to_string(),
    };
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(stage.key.to_string());
    bar
}

fn finish_bar(c: &mut Current) {
    if let Some(bar) = c.bar.take() {
        if c.keep {
            bar.finish();
        } else {
            bar.finish_and_clear();
        }
    }
}

fn finish(mut c: Current) {
    finish_bar(&mut c);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[test]
    fn a_counting_stage_draws_a_bar_to_its_total() {
        let p = Progress::new("kshogi-tune", Output::HiddenBars);
        assert_eq!(p.bar(), None);
        let made = AtomicU32::new(0);
        let line = || {
            made.fetch_add(1, Ordering::Relaxed);
            "data: ...".to_string()
        };
        p.count("data", 3, 10, line);
        assert_eq!(p.bar(), Some(("data".to_string(), 3, 10)));
        // The message is made at once (then at most five times a second).
        assert_eq!(made.load(Ordering::Relaxed), 1);
        p.count("data", 4, 10, line);
        assert_eq!(p.bar(), Some(("data".to_string(), 4, 10)));
        // Another stage replaces the bar, its message made at once; reaching the total
        // finishes it, with its last message made whenever the one before was.
        p.count("sprt", 1, 20, line);
        assert_eq!(p.bar(), Some(("sprt".to_string(), 1, 20)));
        let before = made.load(Ordering::Relaxed);
        assert!(before >= 2);
        p.count("sprt", 20, 20, line);
        assert_eq!(made.load(Ordering::Relaxed), before + 1);
        assert_eq!(p.bar(), None);
        // Reports of a finished stage are ignored; another key draws again.
        p.count("sprt", 20, 20, line);
        assert_eq!(p.bar(), None);
        assert_eq!(made.load(Ordering::Relaxed), before + 1);
        p.count(
            Stage::new("level 1").counting("positions").erased(),
            2,
            5,
            line,
        );
        assert_eq!(p.bar(), Some(("level 1".to_string(), 2, 5)));
        // A stage stopped before its total, finished by hand; then the same key again.
        p.finish();
        assert_eq!(p.bar(), None);
        p.count("level 1", 3, 5, line);
        assert_eq!(p.bar(), Some(("level 1".to_string(), 3, 5)));
        p.finish_with("never printed: the bars are hidden");
        assert_eq!(p.bar(), None);
    }

    #[test]
    fn quiet_and_plain_progress_draw_no_bar_and_make_lines_only_when_due() {
        let made = AtomicU32::new(0);
        let line = || {
            made.fetch_add(1, Ordering::Relaxed);
            String::new()
        };
        // Quiet: nothing is made, forced or not.
        let quiet = Progress::new("kshogi-tune", Output::Quiet);
        quiet.count("data", 1, 2, line);
        quiet.line(true, line);
        assert_eq!(quiet.bar(), None);
        assert_eq!(made.load(Ordering::Relaxed), 0);
        // Plain lines: none before `every` has passed since the start, unless forced.
        let plain = Progress::new("kshogi-tune", Output::Lines).every(Duration::from_secs(3600));
        plain.count(Stage::new("match").counting("games"), 1, 2, line);
        plain.line(false, line);
        assert_eq!(plain.bar(), None);
        assert_eq!(made.load(Ordering::Relaxed), 0);
        plain.line(true, line);
        assert_eq!(made.load(Ordering::Relaxed), 1);
        // Due at once with no interval.
        let due = Progress::new("kshogi", Output::Lines).every(Duration::ZERO);
        due.count(Stage::new("match").counting("games"), 1, 2, line);
        assert_eq!(made.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn stages_build_and_convert() {
        let s = Stage::new("sprt");
        assert_eq!(s, Stage::from("sprt"));
        assert_eq!(s.key(), "sprt");
        assert!(s.keep && s.unit.is_none());
        let t = s.counting("pairs").erased();
        assert_eq!((t.unit, t.keep), (Some("pairs"), false));
    }
}
