//! A whole suite run, as `kshogi perft --suite` makes it: the rows chosen are counted one
//! by one with any counter (kshogi or another engine), the table grows as they finish,
//! rows slower than a baseline are timed again, then the totals, every failing row
//! explained, the speed comparison, and what went wrong, summed up for the exit status
//! ([`run_suite`]). The text goes to a [`SuiteObserver`] as it is made; the result is the
//! [`Report`] and the problems found. Also the suite exported as JSON ([`export_json`]) and
//! the command line that counts one row again ([`rerun_line`]).

use crate::engine::EngineConfig;
use crate::report::{
    compare_speed, count_rows, retime_slow_rows, Baseline, Count, CountError, Machine, Report,
    ReportRow, Totals, MIN_COMPARABLE_MS, REPORT_FORMAT, RETIMES,
};
use crate::suite::{SuiteRow, Tier};
use crate::table::{
    describe_failure, describe_speed, format_mnps, format_ms, plural, shell_quote, table_header,
    table_row,
};

/// Version of the [`export_json`] layout, written as `format`.
pub const EXPORT_FORMAT: u32 = 1;

/// The suite as [`export_json`] writes it.
#[derive(serde::Serialize)]
struct Export<'a> {
    format: u32,
    suite: &'a str,
    rows: &'a [SuiteRow],
}

/// The rows of the suite `origin` as pretty JSON (with where each count comes from and its
/// counting convention), ending in a newline, for other projects.
pub fn export_json(origin: &str, rows: &[SuiteRow]) -> Result<String, serde_json::Error> {
    let mut json = serde_json::to_string_pretty(&Export {
        format: EXPORT_FORMAT,
        suite: origin,
        rows,
    })?;
    json.push('\n');
    Ok(json)
}

/// How to count `row` again by hand: with kshogi's divide (on `threads` threads), or, with
/// an engine, the divergence finder against it; one shell line, words quoted.
pub fn rerun_line(row: &SuiteRow, threads: usize, engine: Option<&EngineConfig>) -> String {
    let mut words = vec!["kshogi".to_string(), "perft".to_string()];
    if let Some(config) = engine {
        words.push("--diff".into());
        words.push("--engine".into());
        words.push(config.command.clone());
        if let Some(v) = &config.variant {
            words.push("--engine-variant".into());
            words.push(v.clone());
        }
        words.push("--engine-dialect".into());
        words.push(config.dialect.to_string());
        for line in &config.init {
            words.push("--engine-init".into());
            words.push(line.clone());
        }
        for (name, value) in &config.options {
            words.push("--engine-option".into());
            words.push(format!("{name}={value}"));
        }
    } else {
        words.push("--divide".into());
        if threads > 1 {
            words.push("--threads".into());
            words.push(threads.to_string());
        }
    }
    words.push("--variant".into());
    words.push(row.variant.clone());
    words.push(row.sfen.clone());
    words.push(row.depth.to_string());
    words
        .iter()
        .map(|w| shell_quote(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where a suite run's text and progress go.
pub trait SuiteObserver {
    /// One line of the run's text (without its newline), to show at once.
    fn line(&mut self, text: &str);
    /// A block of the run's text, whole lines each ending in a newline.
    fn block(&mut self, text: &str);
    /// Row `index` (from 0) of the chosen rows is about to be counted.
    fn row_started(&mut self, index: usize, row: &SuiteRow);
    /// The row being counted is done (before its line of the table is shown).
    fn row_finished(&mut self);
}

/// What a suite run is.
pub struct SuiteSpec<'a> {
    /// The suite's name in messages (its path).
    pub origin: &'a str,
    /// Rows of the suite.
    pub suite_rows: usize,
    /// The rows to count.
    pub chosen: &'a [&'a SuiteRow],
    /// The tier chosen.
    pub tier: Tier,
    /// The variant chosen, if one was.
    pub variant: Option<&'a str>,
    /// Threads kshogi counts with.
    pub threads: usize,
    /// Who counts, in words (`kshogi 0.1.0`, the engine `...`).
    pub counted_by: &'a str,
    /// The engine counting, if not kshogi.
    pub engine: Option<&'a EngineConfig>,
    /// Whether every row's divide is kept in the report.
    pub with_divide: bool,
    /// An earlier report to compare speed and divides with, and its name.
    pub baseline: Option<&'a (Baseline, String)>,
    /// The allowed slowdown against the baseline, in percent.
    pub tolerance: f64,
    /// The machine the run is on.
    pub machine: Machine,
    /// When the run started, in seconds since the Unix epoch.
    pub started_unix: u64,
}

/// What a suite run found.
pub struct SuiteOutcome {
    /// The report of the run (`--report` writes it as JSON).
    pub report: Report,
    /// What failed: rows with a wrong count or an error, rows slower than the baseline;
    /// empty when all is well.
    pub problems: Vec<String>,
}

/// Runs the suite `spec` describes, counting each row with `count` (the row, and whether
/// its divide is wanted), and shows its text through `obs`; see the module documentation.
pub fn run_suite(
    spec: SuiteSpec<'_>,
    count: &mut dyn FnMut(&SuiteRow, bool) -> Result<Count, CountError>,
    obs: &mut dyn SuiteObserver,
) -> SuiteOutcome {
    let origin = spec.origin;
    let chosen = spec.chosen;
    let threads = spec.threads;
    obs.line(&format!(
        "perft: {} of {} rows of {origin} (tier {}{}{}) with {}",
        chosen.len(),
        spec.suite_rows,
        spec.tier,
        spec.variant
            .map(|v| format!(", variant {v}"))
            .unwrap_or_default(),
        if threads > 1 && spec.engine.is_none() {
            format!(", {threads} threads")
        } else {
            String::new()
        },
        spec.counted_by,
    ));
    obs.line("");
    obs.line(&table_header());

    let mut report_rows = count_rows(
        chosen,
        spec.with_divide,
        count,
        &mut |i, row, done| match done {
            None => obs.row_started(i, row),
            Some(report) => {
                obs.row_finished();
                obs.line(&table_row(row, report));
            }
        },
    );
    obs.row_finished();

    if let Some((base, _)) = spec.baseline {
        retime_slow_rows(
            &mut report_rows,
            chosen,
            base,
            spec.tolerance,
            count,
            &mut |n| {
                obs.line("");
                obs.line(&format!(
                    "perft: {n} row{} slower than the baseline; timing {} {RETIMES} more times, \
                 the best time counts",
                    plural(n),
                    if n == 1 { "it" } else { "each" }
                ));
            },
        );
    }
    let totals = Totals::of(&report_rows);
    obs.line("");
    obs.line(&format!(
        "perft: {} rows, {} passed, {} failed; {} nodes in {} ({} Mnps)",
        totals.rows,
        totals.passed,
        totals.failed,
        totals.nodes,
        format_ms(Some(totals.time_ms)),
        format_mnps(Some(totals.nps)),
    ));

    let failures: Vec<(&SuiteRow, &ReportRow)> = chosen
        .iter()
        .copied()
        .zip(&report_rows)
        .filter(|(_, r)| !r.ok)
        .collect();
    if !failures.is_empty() {
        obs.line("");
        obs.line(&format!(
            "{} row{} of {origin} failed:",
            failures.len(),
            plural(failures.len())
        ));
        for (row, report) in &failures {
            obs.line("");
            let text = describe_failure(
                row,
                report,
                origin,
                &rerun_line(row, threads, spec.engine),
                spec.baseline,
            );
            obs.block(&text);
        }
    }

    let speed = spec.baseline.map(|(base, name)| {
        let check = compare_speed(&report_rows, base, spec.tolerance, MIN_COMPARABLE_MS);
        obs.line("");
        obs.block(&describe_speed(
            &check,
            &report_rows,
            base,
            name,
            &spec.machine,
            spec.tolerance,
        ));
        check
    });

    let mut problems = Vec::new();
    if !failures.is_empty() {
        let lines: Vec<String> = failures
            .iter()
            .map(|(row, _)| format!("{origin}:{}", row.line))
            .collect();
        problems.push(format!(
            "{} row{} with a wrong count or an error ({})",
            failures.len(),
            plural(failures.len()),
            lines.join(", ")
        ));
    }
    if let Some(check) = &speed {
        let slow: Vec<String> = check
            .too_slow()
            .map(|s| format!("{origin}:{}", report_rows[s.index].line))
            .collect();
        if !slow.is_empty() {
            problems.push(format!(
                "{} row{} slower than the baseline by more than {}% ({})",
                slow.len(),
                plural(slow.len()),
                spec.tolerance,
                slow.join(", ")
            ));
        }
    }
    let report = Report {
        format: REPORT_FORMAT,
        suite: origin.to_string(),
        tier: spec.tier.name().to_string(),
        variant: spec.variant.map(str::to_string),
        threads: u32::try_from(threads).unwrap_or(u32::MAX),
        started_unix: spec.started_unix,
        machine: spec.machine,
        totals,
        rows: report_rows,
    };
    SuiteOutcome { report, problems }
}

/// The selected rows of a suite are of several variants, and an engine plays one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the selected rows of {origin} are of {} variants ({}); an engine plays one: give \
     --variant",
    .variants.len(),
    .variants.join(", ")
)]
pub struct SeveralVariants {
    /// The suite's name.
    pub origin: String,
    /// The variants of the rows, sorted.
    pub variants: Vec<String>,
}

/// Checks that the rows `chosen` of the suite `origin` are of one variant, as a run by
/// another engine needs (an engine plays one variant).
pub fn one_variant(chosen: &[&SuiteRow], origin: &str) -> Result<(), SeveralVariants> {
    let variants: std::collections::BTreeSet<&str> =
        chosen.iter().map(|r| r.variant.as_str()).collect();
    if variants.len() > 1 {
        return Err(SeveralVariants {
            origin: origin.to_string(),
            variants: variants.into_iter().map(str::to_string).collect(),
        });
    }
    Ok(())
}

/// Seconds since the Unix epoch now (0 on a clock before it), for a run's start.
pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_runs_rows_of_one_variant() {
        let mut other = row(2, 1);
        other.variant = "micro".into();
        let (a, b) = (row(1, 1), row(3, 1));
        assert_eq!(one_variant(&[&a, &b], "s.tsv"), Ok(()));
        assert_eq!(one_variant(&[], "s.tsv"), Ok(()));
        let e = one_variant(&[&a, &other, &b], "s.tsv").unwrap_err();
        assert_eq!(
            e.to_string(),
            "the selected rows of s.tsv are of 2 variants (kyoto, micro); an engine plays \
             one: give --variant"
        );
    }

    #[test]
    fn this_machine_is_named() {
        let m = Machine::this(Some("fsf".into()), "kshogi 9".into());
        assert_eq!(m.os, std::env::consts::OS);
        assert!(m.cpus >= 1);
        assert_eq!(
            (m.engine.as_deref(), m.kshogi_version.as_deref()),
            (Some("fsf"), Some("kshogi 9"))
        );
        assert_eq!(m.kshogi_revision, None);
        assert!(unix_now() > 1_700_000_000);
    }
    use kshogi_notation::Dialect;
    use std::time::Duration;

    fn row(line: usize, nodes: u64) -> SuiteRow {
        SuiteRow {
            line,
            variant: "kyoto".into(),
            sfen: "pgkst/5/5/5/TSKGP b - 1".into(),
            depth: 2,
            nodes,
            tier: Tier::Quick,
            source: Some("made up for the test".into()),
            convention: None,
        }
    }

    #[test]
    fn rerun_lines_count_again_or_find_the_divergence() {
        let r = row(7, 138);
        assert_eq!(
            rerun_line(&r, 2, None),
            "kshogi perft --divide --threads 2 --variant kyoto 'pgkst/5/5/5/TSKGP b - 1' 2"
        );
        let fsf = EngineConfig {
            command: "/opt/fsf/stockfish".into(),
            variant: Some("kyotoshogi".into()),
            dialect: Dialect::Fsf,
            options: vec![("Threads".into(), "1".into())],
            init: vec!["load /x/y.ini".into()],
            timeout: Duration::from_secs(1),
        };
        assert_eq!(
            rerun_line(&r, 1, Some(&fsf)),
            "kshogi perft --diff --engine /opt/fsf/stockfish --engine-variant kyotoshogi \
             --engine-dialect fsf --engine-init 'load /x/y.ini' --engine-option Threads=1 \
             --variant kyoto 'pgkst/5/5/5/TSKGP b - 1' 2"
        );
    }

    /// Records what a run shows.
    #[derive(Default)]
    struct Shown {
        lines: Vec<String>,
        started: Vec<usize>,
    }

    impl SuiteObserver for Shown {
        fn line(&mut self, text: &str) {
            self.lines.push(text.to_string());
        }
        fn block(&mut self, text: &str) {
            self.lines.extend(text.lines().map(str::to_string));
        }
        fn row_started(&mut self, index: usize, _: &SuiteRow) {
            self.started.push(index);
        }
        fn row_finished(&mut self) {}
    }

    /// Two rows counted by a counter that answers 138 for each: the row that expects 138
    /// passes, the row that expects 139 fails, and the problem names the failing row's line.
    #[test]
    fn a_run_shows_each_row_and_sums_up_the_failures() {
        let (good, bad) = (row(3, 138), row(9, 139));
        let chosen = [&good, &bad];
        let spec = SuiteSpec {
            origin: "t.tsv",
            suite_rows: 5,
            chosen: &chosen,
            tier: Tier::Quick,
            variant: Some("kyoto"),
            threads: 1,
            counted_by: "a test",
            engine: None,
            with_divide: false,
            baseline: None,
            tolerance: 25.0,
            machine: Machine::default(),
            started_unix: 42,
        };
        let mut count = |_: &SuiteRow, _: bool| {
            Ok(Count {
                nodes: 138,
                divide: None,
                time_ms: 1.0,
                nps: 138_000,
            })
        };
        let mut shown = Shown::default();
        let out = run_suite(spec, &mut count, &mut shown);
        assert_eq!(shown.started, [0, 1]);
        assert_eq!(
            shown.lines[0],
            "perft: 2 of 5 rows of t.tsv (tier quick, variant kyoto) with a test"
        );
        assert!(shown
            .lines
            .iter()
            .any(|l| l.starts_with("perft: 2 rows, 1 passed, 1 failed; 276 nodes")));
        assert!(shown.lines.iter().any(|l| l == "1 row of t.tsv failed:"));
        assert_eq!(
            out.problems,
            ["1 row with a wrong count or an error (t.tsv:9)"]
        );
        assert_eq!(out.report.rows.len(), 2);
        assert!(out.report.rows[0].ok && !out.report.rows[1].ok);
        assert_eq!(out.report.started_unix, 42);
    }

    #[test]
    fn the_export_names_its_format_and_rows() {
        let json = export_json("t.tsv", &[row(1, 5)]).unwrap();
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["format"], EXPORT_FORMAT);
        assert_eq!(v["suite"], "t.tsv");
        assert_eq!(v["rows"][0]["nodes"], 5);
        assert!(json.ends_with("}\n"));
    }
}
