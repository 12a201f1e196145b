//! Progress of a long job (`kshogi solve`, `review`, `match`, `perft --suite`) on stderr,
//! never on stdout.
//!
//! [`Reporter`] is the `kshogi-progress` crate's [`Progress`], as the tuners draw theirs: on
//! a terminal, one bar per phase; elsewhere (a pipe, a log file) one plain line
//! (`progress: ...`) every [`PLAIN_EVERY`] at most, so that a log shows the job is alive
//! without filling up; a job shorter than that prints nothing. [`RowProgress`] is the simpler
//! bar of a suite run, one row at a time, erased before each row's line on stdout.

use kshogi_perft_suite::table::shorten;
use kshogi_perft_suite::SuiteRow;
use kshogi_progress::{Output, Progress};
use std::io::{IsTerminal as _, Write as _};
use std::time::Duration;

/// How often the plain progress line is printed when stderr is not a terminal.
pub const PLAIN_EVERY: Duration = Duration::from_secs(10);

/// The progress of `solve`, `review` and `match` on stderr (see the module documentation).
pub struct Reporter(Progress);

impl Reporter {
    /// Bars when stderr is a terminal, a plain line every [`PLAIN_EVERY`] otherwise.
    pub fn new() -> Reporter {
        Reporter(Progress::new("progress", Output::detect()).every(PLAIN_EVERY))
    }
}

impl Default for Reporter {
    fn default() -> Reporter {
        Reporter::new()
    }
}

impl std::ops::Deref for Reporter {
    type Target = Progress;
    fn deref(&self) -> &Progress {
        &self.0
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
    use kshogi_progress::Stage;

    #[test]
    fn the_reporter_prints_plain_lines_every_ten_seconds_at_most() {
        let r = Reporter::new();
        // Not a terminal under the test harness: no bar, and no line before ten seconds.
        if r.output() == Output::Lines {
            let made = std::cell::Cell::new(0);
            r.count(Stage::new("match").counting("games"), 1, 10, || {
                made.set(made.get() + 1);
                String::new()
            });
            assert_eq!(made.get(), 0);
            assert_eq!(r.bar(), None);
        }
        r.finish();
    }
}
