//! `kshogi perft --suite FILE`: runs a perft suite (the format of `perft/suite.tsv`, read by
//! `kshogi-perft-suite`) with kshogi itself or, with `--engine`, with another USI engine's
//! `go perft`, and compares every count with the suite's.
//!
//! It prints a table, then each failing row with both counts and its divide (and that
//! divide's difference from a baseline report's, when there is one), optionally writes a
//! JSON report (`--report`), and optionally compares the speed of each row with an earlier
//! report (`--baseline`, `--tolerance`). `--export-json` writes the suite itself as JSON for
//! other projects. See `docs/perft.md`.

use crate::error::CliError;
use crate::output_path::Output;
use crate::perft_engine::{EngineArgs, EngineCounter};
use crate::progress::RowProgress;
use clap::builder::TypedValueParser as _;
use clap::Args;
use kshogi_core::Variant;
use kshogi_notation::parse_game;
use kshogi_perft_suite::report::{
    compare_speed, count_rows, nodes_per_second, retime_slow_rows, Baseline, Count, Machine,
    Report, ReportRow, Totals, MIN_COMPARABLE_MS, REPORT_FORMAT, RETIMES,
};
use kshogi_perft_suite::run::run_row;
use kshogi_perft_suite::table::{
    describe_failure, describe_speed, format_mnps, format_ms, plural, shell_quote, table_header,
    table_row,
};
use kshogi_perft_suite::{parse_suite, select, RunOptions, SuiteRow, Tier};
use kshogi_registry::{with_variant, VariantKind};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The default `--tolerance`, in percent.
pub const DEFAULT_TOLERANCE_PCT: f64 = 25.0;

/// Version of the `--export-json` layout, written as `format`.
pub const EXPORT_FORMAT: u32 = 1;

/// The suite options of `kshogi perft`.
#[derive(Debug, Clone, Args)]
pub struct SuiteArgs {
    /// Run every row of this suite file (variant, SFEN, depth, nodes, tier; see docs/perft.md)
    /// instead of counting one POSITION
    #[arg(long, value_name = "FILE")]
    pub suite: Option<PathBuf>,
    /// With --suite: the rows to run, `quick`, `full` (quick and full rows) or `deep` (all
    /// rows, minutes of CPU) [default: quick]
    #[arg(long, value_name = "TIER", requires = "suite",
          value_parser = clap::builder::PossibleValuesParser::new(["quick", "full", "deep"])
              .map(|s| Tier::parse(&s).expect("a listed tier")))]
    pub tier: Option<Tier>,
    /// With --suite: write a JSON report of the run to FILE
    #[arg(long, value_name = "FILE", requires = "suite")]
    pub report: Option<PathBuf>,
    /// With --suite: compare speed (and divides) with an earlier --report; fail when a row is
    /// slower than the tolerance in the best of 3 runs (rows under 50 ms in the baseline are
    /// skipped as too noisy)
    #[arg(long, value_name = "FILE", requires = "suite")]
    pub baseline: Option<PathBuf>,
    /// With --baseline: the allowed slowdown, in percent
    #[arg(long, value_name = "PCT", default_value_t = DEFAULT_TOLERANCE_PCT,
          value_parser = parse_percent, requires = "baseline")]
    pub tolerance: f64,
    /// With --suite: record every row's divide in the report, not only a failing row's
    #[arg(long, requires = "suite")]
    pub with_divide: bool,
    /// With --suite: write the suite's rows (with where each count comes from and its
    /// counting convention) as JSON to FILE (`-`: standard output) and run nothing
    #[arg(long, value_name = "FILE", requires = "suite")]
    pub export_json: Option<PathBuf>,
    /// With --report or --export-json: replace FILE if it exists (a FIFO or device is
    /// written through, a symbolic link followed)
    #[arg(long, requires = "suite")]
    pub force: bool,
}

impl SuiteArgs {
    /// The report output, when `--report` is given.
    fn report_output(&self) -> Option<Output<'_>> {
        self.report.as_deref().map(|path| Output {
            option: "--report",
            path,
            force: self.force,
        })
    }

    /// The export output, when `--export-json` names a file (not `-`).
    fn export_output(&self) -> Option<Output<'_>> {
        self.export_json
            .as_deref()
            .filter(|p| p.as_os_str() != "-")
            .map(|path| Output {
                option: "--export-json",
                path,
                force: self.force,
            })
    }

    /// Checks every output path before anything is read or run: none is the suite or the
    /// baseline, none exists without `--force`, each can be written.
    fn check_outputs(&self) -> Result<(), CliError> {
        let mut inputs: Vec<(&str, &Path)> = Vec::new();
        if let Some(suite) = &self.suite {
            inputs.push(("the suite", suite));
        }
        if let Some(base) = &self.baseline {
            inputs.push(("the baseline", base));
        }
        for out in [self.report_output(), self.export_output()]
            .into_iter()
            .flatten()
        {
            out.check(&inputs)?;
        }
        Ok(())
    }
}

/// Reads a non-negative percentage, with or without a trailing `%`.
fn parse_percent(text: &str) -> Result<f64, String> {
    let number = text.strip_suffix('%').unwrap_or(text);
    number
        .parse::<f64>()
        .ok()
        .filter(|p| p.is_finite() && *p >= 0.0)
        .ok_or_else(|| format!("`{text}` is not a percentage such as 25"))
}

/// The suite as `--export-json` writes it.
#[derive(serde::Serialize)]
struct Export<'a> {
    format: u32,
    suite: &'a str,
    rows: &'a [SuiteRow],
}

/// What counts the rows: kshogi itself, or an engine.
enum Counter {
    Kshogi { threads: usize },
    Engine(Box<EngineCounter>),
}

impl Counter {
    /// Counts a row (with its divide when `divide`; an engine always gives it).
    fn count(&mut self, row: &SuiteRow, divide: bool) -> Result<Count, String> {
        let kind = VariantKind::from_name(&row.variant).ok_or_else(|| {
            format!(
                "kshogi does not know the variant `{}` (known: {})",
                row.variant,
                VariantKind::names()
            )
        })?;
        match self {
            Counter::Kshogi { threads } => {
                let threads = *threads;
                with_variant!(kind, V => kshogi_count::<V>(row, threads, divide))
            }
            Counter::Engine(engine) => with_variant!(kind, V => engine_count::<V>(engine, row)),
        }
    }
}

/// A row counted by kshogi.
fn kshogi_count<V: Variant>(row: &SuiteRow, threads: usize, divide: bool) -> Result<Count, String> {
    let options = RunOptions {
        threads,
        always_divide: divide,
    };
    Count::of_result(run_row::<V>(row, &options))
}

/// A row counted by the engine.
fn engine_count<V: Variant>(engine: &mut EngineCounter, row: &SuiteRow) -> Result<Count, String> {
    let game =
        parse_game::<V>(&row.sfen).map_err(|e| format!("the position does not read: {e}"))?;
    let (divide, nodes, elapsed) = engine.count(game.position(), row.depth)?;
    let time_ms = elapsed.as_secs_f64() * 1000.0;
    Ok(Count {
        nodes,
        divide: Some(divide.into_iter().collect()),
        time_ms,
        nps: nodes_per_second(nodes, time_ms),
    })
}

/// Prints a line on standard output at once (the table grows as rows finish).
fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}

/// Seconds since the Unix epoch.
fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// How to run a row again by hand, for the failure report.
fn rerun_line(row: &SuiteRow, threads: usize, engine: &EngineArgs) -> String {
    let mut words = vec!["kshogi".to_string(), "perft".to_string()];
    if let Some(config) = engine.config(0) {
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

/// Runs `kshogi perft --suite`: `variant` and `threads` are the `--variant` and `--threads`
/// of `kshogi perft`. Prints as it goes; `Err` says what failed (mismatching rows, rows
/// slower than the baseline, or an error before the run), for exit status 1.
pub fn run(
    args: &SuiteArgs,
    variant: Option<VariantKind>,
    threads: usize,
    engine: &EngineArgs,
) -> Result<String, CliError> {
    let path = args.suite.as_ref().expect("run only with --suite");
    args.check_outputs()?;
    let origin = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| CliError::Input {
        path: format!("the suite `{origin}`"),
        message: e.to_string(),
    })?;
    let rows = parse_suite(&text, &origin).map_err(|e| CliError::Suite(e.to_string()))?;
    if let Some(out) = &args.export_json {
        let mut json = serde_json::to_string_pretty(&Export {
            format: EXPORT_FORMAT,
            suite: &origin,
            rows: &rows,
        })?;
        json.push('\n');
        if out.as_os_str() == "-" {
            return Ok(json);
        }
        args.export_output()
            .expect("not standard output")
            .write(json.as_bytes())?;
        return Ok(format!(
            "perft: {} rows of {origin} written to {}\n",
            rows.len(),
            out.display()
        ));
    }
    let tier = args.tier.unwrap_or(Tier::Quick);
    let chosen = select(&rows, tier, variant.map(VariantKind::name), &origin)
        .map_err(|e| CliError::Suite(e.to_string()))?;
    engine.check().map_err(CliError::Suite)?;
    if engine.engines.len() > 1 {
        return Err(CliError::Suite(
            "--suite runs one --engine at a time (two engines are for --diff)".into(),
        ));
    }
    let mut counter = match engine.config(0) {
        Some(config) => {
            let variants: std::collections::BTreeSet<&str> =
                chosen.iter().map(|r| r.variant.as_str()).collect();
            if variants.len() > 1 {
                return Err(CliError::Suite(format!(
                    "the selected rows of {origin} are of {} variants ({}); an engine plays \
                     one: give --variant",
                    variants.len(),
                    variants.into_iter().collect::<Vec<_>>().join(", ")
                )));
            }
            Counter::Engine(Box::new(EngineCounter::new(config)))
        }
        None => Counter::Kshogi { threads },
    };
    let baseline = match &args.baseline {
        Some(path) => {
            let name = path.display().to_string();
            let text = std::fs::read_to_string(path).map_err(|e| CliError::Input {
                path: format!("the baseline `{name}`"),
                message: e.to_string(),
            })?;
            Some((
                Baseline::parse(&text, &name).map_err(|e| CliError::Suite(e.to_string()))?,
                name,
            ))
        }
        None => None,
    };
    let counted_by = match engine.engines.first() {
        Some(command) => format!("the engine `{command}`"),
        None => format!("kshogi {}", env!("CARGO_PKG_VERSION")),
    };
    let machine = Machine {
        os: std::env::consts::OS.to_string(),
        arch: std::env::consts::ARCH.to_string(),
        cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
        engine: engine.engines.first().cloned(),
        kshogi_version: Some(format!("kshogi {}", env!("CARGO_PKG_VERSION"))),
        kshogi_revision: None,
    };
    let started_unix = unix_now();

    say(&format!(
        "perft: {} of {} rows of {origin} (tier {tier}{}{}) with {counted_by}",
        chosen.len(),
        rows.len(),
        variant
            .map(|v| format!(", variant {}", v.name()))
            .unwrap_or_default(),
        if threads > 1 && engine.engines.is_empty() {
            format!(", {threads} threads")
        } else {
            String::new()
        },
    ));
    say("");
    say(&table_header());

    let mut progress = RowProgress::new(chosen.len());
    let mut count = |row: &SuiteRow, divide: bool| counter.count(row, divide);
    let mut report_rows = count_rows(
        &chosen,
        args.with_divide,
        &mut count,
        &mut |i, row, done| match done {
            None => progress.show(i, row),
            Some(report) => {
                progress.clear();
                say(&table_row(row, report));
            }
        },
    );
    progress.clear();

    if let Some((base, _)) = &baseline {
        retime_slow_rows(
            &mut report_rows,
            &chosen,
            base,
            args.tolerance,
            &mut count,
            &mut |n| {
                say("");
                say(&format!(
                    "perft: {n} row{} slower than the baseline; timing {} {RETIMES} more times, \
                 the best time counts",
                    plural(n),
                    if n == 1 { "it" } else { "each" }
                ));
            },
        );
    }
    let totals = Totals::of(&report_rows);
    say("");
    say(&format!(
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
        say("");
        say(&format!(
            "{} row{} of {origin} failed:",
            failures.len(),
            plural(failures.len())
        ));
        for (row, report) in &failures {
            say("");
            let text = describe_failure(
                row,
                report,
                &origin,
                &rerun_line(row, threads, engine),
                baseline.as_ref(),
            );
            print!("{text}");
        }
    }

    let speed = baseline.as_ref().map(|(base, name)| {
        let check = compare_speed(&report_rows, base, args.tolerance, MIN_COMPARABLE_MS);
        say("");
        print!(
            "{}",
            describe_speed(&check, &report_rows, base, name, &machine, args.tolerance)
        );
        check
    });

    if let Some(path) = &args.report {
        let report = Report {
            format: REPORT_FORMAT,
            suite: origin.clone(),
            tier: tier.name().to_string(),
            variant: variant.map(|v| v.name().to_string()),
            threads: u32::try_from(threads).unwrap_or(u32::MAX),
            started_unix,
            machine,
            totals,
            rows: report_rows.clone(),
        };
        let mut text = serde_json::to_string_pretty(&report)?;
        text.push('\n');
        args.report_output()
            .expect("--report given")
            .write(text.as_bytes())?;
        say("");
        say(&format!("perft: report written to {}", path.display()));
    }

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
                args.tolerance,
                slow.join(", ")
            ));
        }
    }
    let _ = std::io::stdout().flush();
    if problems.is_empty() {
        Ok(String::new())
    } else {
        Err(CliError::Suite(problems.join("; ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> SuiteRow {
        SuiteRow {
            line: 7,
            variant: "kyoto".into(),
            sfen: "pgkst/5/5/5/TSKGP b - 1".into(),
            depth: 2,
            nodes: 138,
            tier: Tier::Quick,
            source: Some("made up for the test".into()),
            convention: None,
        }
    }

    #[test]
    fn rerun_lines_count_again_or_find_the_divergence() {
        let r = row();
        let none = EngineArgs {
            engines: vec![],
            variants: vec![],
            dialects: vec![],
            options: vec![],
            init: vec![],
            timeout: 1.0,
        };
        assert_eq!(
            rerun_line(&r, 2, &none),
            "kshogi perft --divide --threads 2 --variant kyoto 'pgkst/5/5/5/TSKGP b - 1' 2"
        );
        let fsf = EngineArgs {
            engines: vec!["/opt/fsf/stockfish".into()],
            variants: vec!["kyotoshogi".into()],
            dialects: vec![kshogi_notation::Dialect::Fsf],
            options: vec![("Threads".into(), "1".into())],
            init: vec!["load /x/y.ini".into()],
            timeout: 1.0,
        };
        assert_eq!(
            rerun_line(&r, 1, &fsf),
            "kshogi perft --diff --engine /opt/fsf/stockfish --engine-variant kyotoshogi \
             --engine-dialect fsf --engine-init 'load /x/y.ini' --engine-option Threads=1 \
             --variant kyoto 'pgkst/5/5/5/TSKGP b - 1' 2"
        );
    }

    #[test]
    fn percentages() {
        assert_eq!(parse_percent("10%"), Ok(10.0));
        assert_eq!(parse_percent("0"), Ok(0.0));
        assert!(parse_percent("-5").is_err());
        assert!(parse_percent("x").is_err());
    }
}
