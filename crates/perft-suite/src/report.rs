//! The machine-readable side of a suite run (`kshogi perft --suite`): the report file that
//! `--report FILE` writes (its rows, totals and machine), and the policies that compare it
//! with a `--baseline` report (speed within a tolerance, divides). [`crate::run::Report`]
//! is the in-memory result of running rows; this module's [`Report`] is the file.

use crate::run::{RowError, RowResult};
use crate::suite::SuiteRow;
use kshogi_notation::PositionArgError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Version of the report layout, written as `format`. Bump it when a field changes meaning.
pub const REPORT_FORMAT: u32 = 1;

/// Rows whose baseline time is below this many milliseconds are not compared for speed:
/// process scheduling and timer resolution make them too noisy.
pub const MIN_COMPARABLE_MS: f64 = 50.0;

/// One count of a row, by kshogi or an engine.
#[derive(Debug, Clone, PartialEq)]
pub struct Count {
    /// Leaves counted.
    pub nodes: u64,
    /// Leaves below each root move (canonical USI where kshogi reads the move), when asked
    /// for or when the counter gives it anyway (an engine's `go perft`).
    pub divide: Option<BTreeMap<String, u64>>,
    /// Counting time in milliseconds, fractional.
    pub time_ms: f64,
    /// Nodes per second.
    pub nps: u64,
}

/// The machine a report was made on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Machine {
    /// `std::env::consts::OS` (`linux`).
    pub os: String,
    /// `std::env::consts::ARCH` (`x86_64`).
    pub arch: String,
    /// Logical CPUs available to the process.
    pub cpus: usize,
    /// The engine command the rows ran on, when not kshogi itself (`--engine`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// `kshogi --version` output, if it ran.
    pub kshogi_version: Option<String>,
    /// Short git revision of the workspace, with `-dirty` for uncommitted changes to
    /// tracked files; `null` outside a git checkout.
    pub kshogi_revision: Option<String>,
}

impl Machine {
    /// This machine as a run on it reports it: its system, architecture and processors,
    /// the engine command counting (none when kshogi counts) and the program (`kshogi
    /// 0.1.0`); the revision is left for the caller that knows it.
    pub fn this(engine: Option<String>, program: String) -> Machine {
        Machine {
            os: std::env::consts::OS.to_string(),
            arch: std::env::consts::ARCH.to_string(),
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            engine,
            kshogi_version: Some(program),
            kshogi_revision: None,
        }
    }
}

/// One row of a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportRow {
    /// Line of the row in the suite file.
    pub line: usize,
    /// Variant name.
    pub variant: String,
    /// The position as written in the suite.
    pub sfen: String,
    /// Depth.
    pub depth: u32,
    /// The suite's count.
    pub expected: u64,
    /// Where the expected count comes from (the suite's `#: source:`), if it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The counting convention of the expected count (the suite's `#: convention:`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub convention: Option<String>,
    /// The count; `null` when the counter failed.
    pub nodes: Option<u64>,
    /// Whether the counter ran and its count equals `expected`.
    pub ok: bool,
    /// The counting time in milliseconds, fractional; `null` when the counter failed.
    pub time_ms: Option<f64>,
    /// Nodes per second; `null` when the counter failed.
    pub nps: Option<u64>,
    /// Why the counter failed on this row, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Leaves below each root move: for a mismatching row (from the `--divide` rerun), or
    /// for every row with `--with-divide`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub divide: Option<BTreeMap<String, u64>>,
}

impl ReportRow {
    /// The key that matches a row with a baseline row: variant, sfen and depth.
    pub fn key(&self) -> (&str, &str, u32) {
        (&self.variant, &self.sfen, self.depth)
    }

    /// The report entry of suite row `row` from its count (or why it could not be counted).
    /// The divide is kept for a row that failed, and for every row when `keep_divide`.
    pub fn of(row: &SuiteRow, result: &Result<Count, CountError>, keep_divide: bool) -> ReportRow {
        let (nodes, time_ms, nps, error) = match result {
            Ok(c) => (Some(c.nodes), Some(c.time_ms), Some(c.nps), None),
            Err(e) => (None, None, None, Some(e.to_string())),
        };
        let ok = nodes == Some(row.nodes);
        ReportRow {
            line: row.line,
            variant: row.variant.clone(),
            sfen: row.sfen.clone(),
            depth: row.depth,
            expected: row.nodes,
            source: row.source.clone(),
            convention: row.convention.clone(),
            nodes,
            ok,
            time_ms,
            nps,
            error,
            divide: result
                .as_ref()
                .ok()
                .and_then(|c| c.divide.clone())
                .filter(|_| keep_divide || !ok),
        }
    }
}

/// Why a suite row has no count: its text is the report's `error` field and the message
/// the command line prints.
#[derive(Debug)]
#[non_exhaustive]
pub enum CountError {
    /// The row's position does not read.
    Position(PositionArgError),
    /// The engine counting the row failed (it could not be started, crashed, timed out or
    /// answered garbage).
    Engine(kshogi_usi_client::EngineError),
    /// The row is of another variant than the one counting it.
    OtherVariant {
        /// The row's variant column.
        row: String,
        /// The counting variant's name.
        counted: &'static str,
    },
    /// The counter knows no variant of the row's name.
    UnknownVariant {
        /// The row's variant column.
        variant: String,
        /// The variants the counter knows, for the message (`kyoto, micro, ...`).
        known: String,
    },
}

impl std::fmt::Display for CountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CountError::Position(e) => write!(f, "the position does not read: {e}"),
            CountError::Engine(e) => write!(f, "{e}"),
            CountError::OtherVariant { row, counted } => write!(
                f,
                "{}",
                RowError::OtherVariant {
                    row: row.clone(),
                    counted
                }
            ),
            CountError::UnknownVariant { variant, known } => write!(
                f,
                "kshogi does not know the variant `{variant}` (known: {known})"
            ),
        }
    }
}

impl std::error::Error for CountError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CountError::Engine(e) => Some(e),
            CountError::Position(e) => Some(e),
            _ => None,
        }
    }
}

impl From<kshogi_usi_client::EngineError> for CountError {
    fn from(e: kshogi_usi_client::EngineError) -> CountError {
        CountError::Engine(e)
    }
}

impl From<RowError> for CountError {
    fn from(e: RowError) -> CountError {
        match e {
            RowError::OtherVariant { row, counted } => CountError::OtherVariant { row, counted },
            RowError::Position(e) => CountError::Position(e),
        }
    }
}

impl Count {
    /// The count of a row counted in-process ([`crate::run::run_row`]), or why it could not
    /// be counted.
    pub fn of_result(result: RowResult) -> Result<Count, CountError> {
        let nodes = result.got?;
        let time_ms = result.elapsed.as_secs_f64() * 1000.0;
        Ok(Count {
            nodes,
            divide: result.divide.map(|d| d.into_iter().collect()),
            time_ms,
            nps: nodes_per_second(nodes, time_ms),
        })
    }
}

/// Counts `rows` in order with `count` (which is asked for the divide when `keep_divide`)
/// and returns their report entries. `each` is called before a row is counted (with
/// `None`) and after (with its entry), so that a front end can draw progress and print the
/// table as rows finish.
pub fn count_rows(
    rows: &[&SuiteRow],
    keep_divide: bool,
    count: &mut dyn FnMut(&SuiteRow, bool) -> Result<Count, CountError>,
    each: &mut dyn FnMut(usize, &SuiteRow, Option<&ReportRow>),
) -> Vec<ReportRow> {
    let mut out = Vec::with_capacity(rows.len());
    for (i, row) in rows.iter().enumerate() {
        each(i, row, None);
        let entry = ReportRow::of(row, &count(row, keep_divide), keep_divide);
        each(i, row, Some(&entry));
        out.push(entry);
    }
    out
}

/// How many more times [`retime_slow_rows`] times a row that looks too slow.
pub const RETIMES: usize = 2;

/// Times each row of `entries` (counted from `rows`, in the same order) that looks slower
/// than the baseline by more than `tolerance_pct` [`RETIMES`] more times with `count`, and
/// keeps its best time: noise from other processes only ever adds time, so the minimum is
/// the fairer measure, and one unlucky run does not fail the comparison. A recount with a
/// wrong count or an error is ignored. `announce` is told how many rows are timed again
/// before it starts (not called when none is). Returns that number.
pub fn retime_slow_rows(
    entries: &mut [ReportRow],
    rows: &[&SuiteRow],
    baseline: &Baseline,
    tolerance_pct: f64,
    count: &mut dyn FnMut(&SuiteRow, bool) -> Result<Count, CountError>,
    announce: &mut dyn FnMut(usize),
) -> usize {
    let first = compare_speed(entries, baseline, tolerance_pct, MIN_COMPARABLE_MS);
    let slow: Vec<usize> = first.too_slow().map(|s| s.index).collect();
    if slow.is_empty() {
        return 0;
    }
    announce(slow.len());
    for &index in &slow {
        let row = rows[index];
        for _ in 0..RETIMES {
            let Ok(out) = count(row, false) else {
                continue;
            };
            let best = &mut entries[index];
            if out.nodes == row.nodes && best.time_ms.is_some_and(|t| out.time_ms < t) {
                best.time_ms = Some(out.time_ms);
                best.nps = Some(out.nps);
            }
        }
    }
    slow.len()
}

/// Sums over the rows of a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Totals {
    /// Rows run.
    pub rows: usize,
    /// Rows whose count matched.
    pub passed: usize,
    /// Rows that mismatched or failed to run.
    pub failed: usize,
    /// Sum of the counts.
    pub nodes: u64,
    /// Sum of the counting times, in milliseconds.
    pub time_ms: f64,
    /// `nodes` per second of `time_ms`; 0 when no time was measured.
    pub nps: u64,
}

impl Totals {
    /// The totals of `rows`.
    pub fn of(rows: &[ReportRow]) -> Totals {
        let passed = rows.iter().filter(|r| r.ok).count();
        let nodes = rows.iter().filter_map(|r| r.nodes).sum();
        let time_ms: f64 = rows.iter().filter_map(|r| r.time_ms).sum();
        Totals {
            rows: rows.len(),
            passed,
            failed: rows.len() - passed,
            nodes,
            time_ms,
            nps: nodes_per_second(nodes, time_ms),
        }
    }
}

/// Nodes per second of `nodes` in `time_ms` milliseconds (the suite's times are
/// fractional milliseconds), by [`kshogi_core::nodes_per_second`]; 0 when no time was
/// measured (zero, negative or not a number).
pub fn nodes_per_second(nodes: u64, time_ms: f64) -> u64 {
    let elapsed = std::time::Duration::try_from_secs_f64(time_ms / 1000.0);
    elapsed.map_or(0, |d| kshogi_core::nodes_per_second(nodes, d))
}

/// The report written by `--report FILE` and read by `--baseline FILE`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// [`REPORT_FORMAT`].
    pub format: u32,
    /// The suite file, as given or relative to the workspace.
    pub suite: String,
    /// `quick` or `full`.
    pub tier: String,
    /// The `--variant` filter, if any.
    pub variant: Option<String>,
    /// `--threads` (1 when not given).
    pub threads: u32,
    /// When the run started, in seconds since the Unix epoch.
    pub started_unix: u64,
    /// The machine.
    pub machine: Machine,
    /// The rows, in suite order.
    pub rows: Vec<ReportRow>,
    /// Sums over the rows.
    pub totals: Totals,
}

/// A row of a baseline report: only what the comparisons need, so that reports of other
/// versions still load.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct BaselineRow {
    /// Variant name.
    pub variant: String,
    /// The position as written in the suite.
    pub sfen: String,
    /// Depth.
    pub depth: u32,
    /// Whether the row passed in the baseline run.
    #[serde(default)]
    pub ok: Option<bool>,
    /// Its time in milliseconds.
    #[serde(default)]
    pub time_ms: Option<f64>,
    /// Its divide, if recorded.
    #[serde(default)]
    pub divide: Option<BTreeMap<String, u64>>,
}

/// A baseline report: its rows and, when present, its machine.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Baseline {
    /// The rows.
    pub rows: Vec<BaselineRow>,
    /// The machine it ran on.
    #[serde(default)]
    pub machine: Option<Machine>,
}

impl Baseline {
    /// Reads a baseline report; `origin` names the file in the error.
    pub fn parse(text: &str, origin: &str) -> Result<Baseline, BaselineError> {
        serde_json::from_str(text).map_err(|error| BaselineError {
            origin: origin.to_string(),
            error,
        })
    }

    /// The baseline row for a variant, sfen and depth.
    pub fn find(&self, (variant, sfen, depth): (&str, &str, u32)) -> Option<&BaselineRow> {
        self.rows
            .iter()
            .find(|b| b.variant == variant && b.sfen == sfen && b.depth == depth)
    }
}

/// Why a baseline report could not be read: the file and the JSON error.
#[derive(Debug)]
pub struct BaselineError {
    /// The file as named by the caller.
    pub origin: String,
    /// What the JSON reader found wrong, with its line and column.
    pub error: serde_json::Error,
}

impl std::fmt::Display for BaselineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: not a perft report (as written by `kshogi perft --suite FILE --report FILE`): {}",
            self.origin, self.error
        )
    }
}

impl std::error::Error for BaselineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// The speed comparison of one row with its baseline.
#[derive(Debug, Clone, PartialEq)]
pub struct SpeedRow {
    /// Index of the row in the current report.
    pub index: usize,
    /// Baseline time, ms.
    pub baseline_ms: f64,
    /// Current time, ms.
    pub current_ms: f64,
    /// Change in percent (positive: slower).
    pub change_pct: f64,
    /// Whether the slowdown exceeds the tolerance.
    pub too_slow: bool,
}

/// The outcome of comparing a run's speed with a baseline.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SpeedCheck {
    /// Rows compared, in report order.
    pub compared: Vec<SpeedRow>,
    /// Rows not compared because the baseline time is under [`MIN_COMPARABLE_MS`].
    pub too_fast: usize,
    /// Rows with no timed, passing counterpart in the baseline.
    pub missing: usize,
    /// Rows not compared because they failed in this run.
    pub failed: usize,
}

impl SpeedCheck {
    /// The rows slower than the tolerance.
    pub fn too_slow(&self) -> impl Iterator<Item = &SpeedRow> {
        self.compared.iter().filter(|s| s.too_slow)
    }
}

/// Compares each passing row's time with the baseline's: a row is too slow when its time
/// exceeds the baseline's by more than `tolerance_pct` percent. Rows whose baseline time is
/// under `min_ms` are skipped as too noisy.
pub fn compare_speed(
    rows: &[ReportRow],
    baseline: &Baseline,
    tolerance_pct: f64,
    min_ms: f64,
) -> SpeedCheck {
    let mut check = SpeedCheck::default();
    for (index, row) in rows.iter().enumerate() {
        let Some(current_ms) = row.time_ms.filter(|_| row.ok) else {
            check.failed += 1;
            continue;
        };
        let base = baseline
            .find(row.key())
            .filter(|b| b.ok != Some(false))
            .and_then(|b| b.time_ms);
        let Some(baseline_ms) = base else {
            check.missing += 1;
            continue;
        };
        if baseline_ms < min_ms {
            check.too_fast += 1;
            continue;
        }
        let change_pct = (current_ms / baseline_ms - 1.0) * 100.0;
        check.compared.push(SpeedRow {
            index,
            baseline_ms,
            current_ms,
            change_pct,
            too_slow: change_pct > tolerance_pct,
        });
    }
    check
}

/// One root move whose count differs between two divides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DivideDifference {
    /// The move in USI.
    pub mv: String,
    /// Count in the baseline (`None`: the move is not there).
    pub baseline: Option<u64>,
    /// Count now (`None`: the move is not legal now).
    pub current: Option<u64>,
}

/// The root moves whose counts differ, sorted by move text.
pub fn divide_difference(
    baseline: &BTreeMap<String, u64>,
    current: &BTreeMap<String, u64>,
) -> Vec<DivideDifference> {
    let mut moves: Vec<&String> = baseline.keys().chain(current.keys()).collect();
    moves.sort();
    moves.dedup();
    moves
        .into_iter()
        .filter_map(|mv| {
            let (b, c) = (baseline.get(mv).copied(), current.get(mv).copied());
            (b != c).then(|| DivideDifference {
                mv: mv.clone(),
                baseline: b,
                current: c,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(line: usize, depth: u32, ok: bool, time_ms: Option<f64>) -> ReportRow {
        ReportRow {
            line,
            variant: "kyoto".into(),
            sfen: "startpos".into(),
            depth,
            expected: 10,
            nodes: time_ms.map(|_| if ok { 10 } else { 11 }),
            ok,
            time_ms,
            nps: time_ms.map(|_| 1000),
            error: None,
            divide: None,
            source: None,
            convention: None,
        }
    }

    fn baseline(rows: &[(u32, Option<f64>)]) -> Baseline {
        Baseline {
            rows: rows
                .iter()
                .map(|&(depth, time_ms)| BaselineRow {
                    variant: "kyoto".into(),
                    sfen: "startpos".into(),
                    depth,
                    ok: Some(true),
                    time_ms,
                    divide: None,
                })
                .collect(),
            machine: None,
        }
    }

    fn suite_row(line: usize, depth: u32) -> SuiteRow {
        SuiteRow {
            line,
            variant: "kyoto".into(),
            sfen: "startpos".into(),
            depth,
            nodes: 10,
            tier: crate::Tier::Quick,
            source: None,
            convention: None,
        }
    }

    fn counted(nodes: u64, time_ms: f64) -> Count {
        Count {
            nodes,
            divide: Some([("1e1d+".to_string(), nodes)].into_iter().collect()),
            time_ms,
            nps: 1,
        }
    }

    #[test]
    fn divides_are_kept_for_failures_or_when_asked() {
        let r = suite_row(7, 2);
        // The row expects 10 leaves: 10 passes, 9 fails.
        assert!(ReportRow::of(&r, &Ok(counted(10, 1.0)), false)
            .divide
            .is_none());
        assert!(ReportRow::of(&r, &Ok(counted(10, 1.0)), true)
            .divide
            .is_some());
        let failed = ReportRow::of(&r, &Ok(counted(9, 1.0)), false);
        assert!(!failed.ok && failed.divide.is_some());
        let unknown = CountError::UnknownVariant {
            variant: "chess".into(),
            known: "kyoto".into(),
        };
        let error = ReportRow::of(&r, &Err(unknown), false);
        assert_eq!(
            (error.ok, error.nodes, error.error.as_deref()),
            (
                false,
                None,
                Some("kshogi does not know the variant `chess` (known: kyoto)")
            )
        );
    }

    #[test]
    fn rows_are_counted_in_order_and_reported_before_and_after() {
        let (a, b) = (suite_row(1, 1), suite_row(2, 2));
        let mut events = Vec::new();
        // Both rows expect 10; the counter answers 10 at depth 1 and 12 at depth 2.
        let mut count = |r: &SuiteRow, divide: bool| {
            assert!(!divide);
            Ok(counted(if r.depth == 1 { 10 } else { 12 }, 1.0))
        };
        let entries = count_rows(&[&a, &b], false, &mut count, &mut |i, r, e| {
            events.push((i, r.line, e.map(|e| e.ok)));
        });
        assert_eq!(
            events,
            [
                (0, 1, None),
                (0, 1, Some(true)),
                (1, 2, None),
                (1, 2, Some(false))
            ]
        );
        assert_eq!(
            entries.iter().map(|e| e.nodes).collect::<Vec<_>>(),
            [Some(10), Some(12)]
        );
    }

    #[test]
    fn slow_rows_are_timed_again_and_keep_their_best_time() {
        let rows = [suite_row(1, 1), suite_row(2, 2)];
        let chosen: Vec<&SuiteRow> = rows.iter().collect();
        // Baseline 100 ms each; row 1 took 200 ms (100% slower), row 2 took 101 ms.
        let mut entries = vec![row(1, 1, true, Some(200.0)), row(2, 2, true, Some(101.0))];
        let base = baseline(&[(1, Some(100.0)), (2, Some(100.0))]);
        let times = std::cell::RefCell::new(vec![150.0, 120.0].into_iter());
        let mut recounts = 0;
        let mut count = |r: &SuiteRow, _: bool| {
            recounts += 1;
            assert_eq!(r.line, 1, "only the slow row is timed again");
            Ok(counted(10, times.borrow_mut().next().unwrap()))
        };
        let mut announced = None;
        let n = retime_slow_rows(&mut entries, &chosen, &base, 25.0, &mut count, &mut |n| {
            announced = Some(n)
        });
        assert_eq!((n, announced, recounts), (1, Some(1), RETIMES));
        // The best of 200, 150 and 120.
        assert_eq!(entries[0].time_ms, Some(120.0));
        assert_eq!(entries[1].time_ms, Some(101.0));
    }

    #[test]
    fn nodes_per_second_of_fractional_milliseconds() {
        assert_eq!(nodes_per_second(1000, 0.5), 2_000_000);
        assert_eq!(nodes_per_second(1000, 0.0), 0);
        assert_eq!(nodes_per_second(1000, -1.0), 0);
        assert_eq!(nodes_per_second(1000, f64::NAN), 0);
        // Totals sum fractional times: 21 nodes in 400 ms is 52.5, rounded up.
        assert_eq!(nodes_per_second(21, 400.0), 53);
    }

    #[test]
    fn totals_sum_the_rows() {
        let rows = [
            row(1, 1, true, Some(100.0)),
            row(2, 2, false, Some(300.0)),
            {
                let mut r = row(3, 3, false, None);
                r.error = Some("kshogi failed".into());
                r
            },
        ];
        let t = Totals::of(&rows);
        assert_eq!(
            t,
            Totals {
                rows: 3,
                passed: 1,
                failed: 2,
                nodes: 21,
                time_ms: 400.0,
                nps: 53,
            }
        );
        assert_eq!(Totals::of(&[]).nps, 0);
    }

    #[test]
    fn speed_is_compared_above_the_noise_floor_only() {
        let rows = [
            row(1, 1, true, Some(130.0)), // 100 -> 130: 30% slower
            row(2, 2, true, Some(120.0)), // 100 -> 120: within 25%
            row(3, 3, true, Some(200.0)), // baseline 40 ms: too fast to compare
            row(4, 4, true, Some(200.0)), // not in the baseline
            row(5, 5, false, Some(90.0)), // mismatch: not compared
            row(6, 6, true, Some(50.0)),  // 200 -> 50: faster
        ];
        let base = baseline(&[
            (1, Some(100.0)),
            (2, Some(100.0)),
            (3, Some(40.0)),
            (5, Some(100.0)),
            (6, Some(200.0)),
        ]);
        let check = compare_speed(&rows, &base, 25.0, MIN_COMPARABLE_MS);
        assert_eq!(check.too_fast, 1);
        assert_eq!(check.missing, 1);
        assert_eq!(check.failed, 1);
        let compared: Vec<(usize, bool)> = check
            .compared
            .iter()
            .map(|s| (s.index, s.too_slow))
            .collect();
        assert_eq!(compared, [(0, true), (1, false), (5, false)]);
        assert!((check.compared[0].change_pct - 30.0).abs() < 1e-9);
        assert!((check.compared[2].change_pct + 75.0).abs() < 1e-9);
        assert_eq!(check.too_slow().count(), 1);
        // A looser tolerance accepts the 30% row.
        assert_eq!(
            compare_speed(&rows, &base, 35.0, MIN_COMPARABLE_MS)
                .too_slow()
                .count(),
            0
        );
    }

    #[test]
    fn a_failed_baseline_row_is_no_reference() {
        let rows = [row(1, 1, true, Some(500.0))];
        let mut base = baseline(&[(1, Some(100.0))]);
        base.rows[0].ok = Some(false);
        let check = compare_speed(&rows, &base, 25.0, MIN_COMPARABLE_MS);
        assert_eq!((check.missing, check.compared.len()), (1, 0));
    }

    #[test]
    fn divide_difference_lists_changed_added_and_missing_moves() {
        let base: BTreeMap<String, u64> = [("a", 5), ("b", 7), ("c", 1)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        let now: BTreeMap<String, u64> = [("a", 5), ("b", 8), ("d", 2)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        let diff = divide_difference(&base, &now);
        assert_eq!(
            diff,
            [
                DivideDifference {
                    mv: "b".into(),
                    baseline: Some(7),
                    current: Some(8)
                },
                DivideDifference {
                    mv: "c".into(),
                    baseline: Some(1),
                    current: None
                },
                DivideDifference {
                    mv: "d".into(),
                    baseline: None,
                    current: Some(2)
                },
            ]
        );
        assert!(divide_difference(&base, &base).is_empty());
    }

    #[test]
    fn reports_round_trip_and_load_as_baselines() {
        let rows = vec![row(1, 1, true, Some(100.0))];
        let report = Report {
            format: REPORT_FORMAT,
            suite: "perft/suite.tsv".into(),
            tier: "quick".into(),
            variant: None,
            threads: 1,
            started_unix: 0,
            machine: Machine::default(),
            totals: Totals::of(&rows),
            rows,
        };
        let text = serde_json::to_string_pretty(&report).unwrap();
        assert!(!text.contains("\"error\""), "{text}");
        let back: Report = serde_json::from_str(&text).unwrap();
        assert_eq!(back, report);
        let base = Baseline::parse(&text, "r.json").unwrap();
        assert_eq!(
            base.find(("kyoto", "startpos", 1)).unwrap().time_ms,
            Some(100.0)
        );
        assert!(base.find(("kyoto", "startpos", 2)).is_none());
        let err = Baseline::parse("{\"rows\": 3}", "r.json").unwrap_err();
        assert!(
            err.to_string().starts_with("r.json: not a perft report"),
            "{err}"
        );
    }
}
