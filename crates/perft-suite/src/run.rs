//! Running suite rows against a [`Variant`] type in-process: the library call for a variant
//! crate's own `cargo test`.

use crate::suite::SuiteRow;
use kshogi_core::{divide_parallel, perft_parallel, Variant};
use kshogi_notation::{move_to_usi, parse_game, PositionArgError};
use std::fmt;
use std::time::{Duration, Instant};

/// How rows are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunOptions {
    /// Worker threads per count (1: no thread is started).
    pub threads: usize,
    /// Whether every row's divide is recorded, not only a mismatching row's.
    pub always_divide: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            threads: 1,
            always_divide: false,
        }
    }
}

/// Why a row could not be counted in-process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowError {
    /// The row is of another variant than the one counting it.
    OtherVariant {
        /// The row's variant column.
        row: String,
        /// The counting variant's [`Variant::NAME`].
        counted: &'static str,
    },
    /// The row's position does not read.
    Position(PositionArgError),
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RowError::OtherVariant { row, counted } => {
                write!(f, "the row is of variant `{row}`, counted as `{counted}`")
            }
            RowError::Position(e) => write!(f, "the position does not read: {e}"),
        }
    }
}

impl std::error::Error for RowError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RowError::Position(e) => Some(e),
            RowError::OtherVariant { .. } => None,
        }
    }
}

/// The result of one row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowResult {
    /// The row.
    pub row: SuiteRow,
    /// The count, or why the row could not be counted (its position does not read, or it
    /// names another variant).
    pub got: Result<u64, RowError>,
    /// Leaves below each root move, by canonical USI text, sorted: for a mismatching row,
    /// or for every row with [`RunOptions::always_divide`].
    pub divide: Option<Vec<(String, u64)>>,
    /// Time spent counting (without the divide).
    pub elapsed: Duration,
}

impl RowResult {
    /// Whether the count equals the row's.
    pub fn ok(&self) -> bool {
        self.got.as_ref().is_ok_and(|&n| n == self.row.nodes)
    }
}

/// The results of a run, in row order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Report {
    /// One result per row.
    pub results: Vec<RowResult>,
}

impl Report {
    /// The rows whose count differs or that could not be counted.
    pub fn mismatches(&self) -> impl Iterator<Item = &RowResult> {
        self.results.iter().filter(|r| !r.ok())
    }

    /// Whether every row gave its count.
    pub fn is_ok(&self) -> bool {
        self.mismatches().next().is_none()
    }

    /// Panics with the report (every mismatch and its divide) unless every row passed: the
    /// one line a variant crate's test needs.
    #[track_caller]
    pub fn assert_ok(&self) {
        assert!(self.is_ok(), "{self}");
    }
}

impl fmt::Display for Report {
    /// `N of M rows passed`, then each failing row: its line, variant, position and depth,
    /// both counts, and the divide (`<usi>: <count>`, one per line).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let failed = self.mismatches().count();
        writeln!(
            f,
            "perft: {} of {} rows passed",
            self.results.len() - failed,
            self.results.len()
        )?;
        for r in self.mismatches() {
            let row = &r.row;
            match &r.got {
                Ok(n) => writeln!(
                    f,
                    "line {}: {} `{}` depth {}: expected {}, got {n} ({:+})",
                    row.line,
                    row.variant,
                    row.sfen,
                    row.depth,
                    row.nodes,
                    i128::from(*n) - i128::from(row.nodes)
                )?,
                Err(e) => writeln!(
                    f,
                    "line {}: {} `{}` depth {}: {e}",
                    row.line, row.variant, row.sfen, row.depth
                )?,
            }
            for (mv, n) in r.divide.iter().flatten() {
                writeln!(f, "    {mv}: {n}")?;
            }
        }
        Ok(())
    }
}

/// Counts each row with variant `V` and compares with the row's count. Rows of another
/// variant than [`Variant::NAME`] fail with that reason (select the rows first, e.g. with
/// [`rows_of`]).
pub fn run_rows<'a, V: Variant>(rows: impl IntoIterator<Item = &'a SuiteRow>) -> Report {
    run_rows_with::<V>(rows, &RunOptions::default())
}

/// [`run_rows`] with options.
pub fn run_rows_with<'a, V: Variant>(
    rows: impl IntoIterator<Item = &'a SuiteRow>,
    options: &RunOptions,
) -> Report {
    Report {
        results: rows
            .into_iter()
            .map(|row| run_row::<V>(row, options))
            .collect(),
    }
}

/// The rows of variant `V` (by [`Variant::NAME`]).
pub fn rows_of<V: Variant>(rows: &[SuiteRow]) -> impl Iterator<Item = &SuiteRow> {
    rows.iter().filter(|r| r.variant == V::NAME)
}

/// Counts one row.
pub fn run_row<V: Variant>(row: &SuiteRow, options: &RunOptions) -> RowResult {
    let fail = |e: RowError| RowResult {
        row: row.clone(),
        got: Err(e),
        divide: None,
        elapsed: Duration::ZERO,
    };
    if row.variant != V::NAME {
        return fail(RowError::OtherVariant {
            row: row.variant.clone(),
            counted: V::NAME,
        });
    }
    let game = match parse_game::<V>(&row.sfen) {
        Ok(g) => g,
        Err(e) => return fail(RowError::Position(e)),
    };
    let pos = *game.position();
    let threads = options.threads.max(1);
    let start = Instant::now();
    let nodes = perft_parallel(&pos, row.depth, threads);
    let elapsed = start.elapsed();
    let divide = (nodes != row.nodes || options.always_divide)
        .then(|| divide_texts::<V>(&pos, row.depth, threads));
    RowResult {
        row: row.clone(),
        got: Ok(nodes),
        divide,
        elapsed,
    }
}

/// The divide of `pos` at `depth` keyed by canonical USI text, sorted by it.
pub fn divide_texts<V: Variant>(
    pos: &kshogi_core::Position<V>,
    depth: u32,
    threads: usize,
) -> Vec<(String, u64)> {
    let mut list: Vec<(String, u64)> = divide_parallel(pos, depth, threads)
        .into_iter()
        .map(|(mv, n)| (move_to_usi::<V>(mv), n))
        .collect();
    list.sort_unstable();
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::parse_suite;
    use kshogi_rules_kinzoku::Kinzoku;

    // Kinzoku start: 7, 49, 335 (shared/reference/perft.tsv).
    const SUITE: &str = "kinzoku\tstartpos\t1\t7\tquick\n\
                         kinzoku\tstartpos\t2\t49\tquick\n\
                         kinzoku\tstartpos\t3\t336\tquick\n\
                         kinzoku\tstartpos moves 9z9y\t1\t1\tquick\n\
                         kyoto\tstartpos\t1\t12\tquick\n";

    #[test]
    fn mismatches_come_with_their_divide() {
        let rows = parse_suite(SUITE, "s").unwrap();
        let report = run_rows::<Kinzoku>(&rows);
        let bad: Vec<usize> = report.mismatches().map(|r| r.row.line).collect();
        assert_eq!(bad, [3, 4, 5]);
        let third = &report.results[2];
        assert_eq!(third.got, Ok(335));
        let divide = third.divide.as_ref().unwrap();
        assert_eq!(divide.len(), 7);
        assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 335);
        assert!(report.results[0].divide.is_none());
        let unread = report.results[3].got.as_ref().unwrap_err();
        assert!(matches!(unread, RowError::Position(_)), "{unread:?}");
        assert!(unread
            .to_string()
            .starts_with("the position does not read: "));
        let other = report.results[4].got.as_ref().unwrap_err();
        assert_eq!(
            other,
            &RowError::OtherVariant {
                row: "kyoto".into(),
                counted: "kinzoku"
            }
        );
        assert_eq!(
            other.to_string(),
            "the row is of variant `kyoto`, counted as `kinzoku`"
        );
        let text = report.to_string();
        assert!(text.starts_with("perft: 2 of 5 rows passed\n"), "{text}");
        assert!(
            text.contains("line 3: kinzoku `startpos` depth 3: expected 336, got 335 (-1)\n"),
            "{text}"
        );
    }

    #[test]
    fn rows_of_selects_by_name_and_a_clean_run_passes() {
        let rows = parse_suite(SUITE, "s").unwrap();
        let mine: Vec<&SuiteRow> = rows_of::<Kinzoku>(&rows).take(2).collect();
        let report = run_rows_with::<Kinzoku>(
            mine,
            &RunOptions {
                threads: 2,
                always_divide: true,
            },
        );
        report.assert_ok();
        assert_eq!(report.results[1].divide.as_ref().unwrap().len(), 7);
    }
}
