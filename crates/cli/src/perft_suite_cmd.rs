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
use crate::perft_engine::{EngineArgs, EngineCounter};
use crate::progress::RowProgress;
use clap::builder::TypedValueParser as _;
use clap::Args;
use kshogi_core::Variant;
use kshogi_perft_suite::report::{Baseline, Count, CountError, Machine};
use kshogi_perft_suite::run::run_row;
use kshogi_perft_suite::session;
use kshogi_perft_suite::{
    export_json, parse_suite, run_suite, select, RunOptions, SuiteObserver, SuiteRow, SuiteSpec,
    Tier,
};
use kshogi_registry::{with_variant, VariantKind};
use kshogi_report::output::Output;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The default `--tolerance`, in percent.
pub const DEFAULT_TOLERANCE_PCT: f64 = 25.0;

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

/// What counts the rows: kshogi itself, or an engine.
enum Counter {
    Kshogi { threads: usize },
    Engine(Box<EngineCounter>),
}

impl Counter {
    /// Counts a row (with its divide when `divide`; an engine always gives it).
    fn count(&mut self, row: &SuiteRow, divide: bool) -> Result<Count, CountError> {
        let kind =
            VariantKind::from_name(&row.variant).ok_or_else(|| CountError::UnknownVariant {
                variant: row.variant.clone(),
                known: VariantKind::names(),
            })?;
        match self {
            Counter::Kshogi { threads } => {
                let threads = *threads;
                with_variant!(kind, V => kshogi_count::<V>(row, threads, divide))
            }
            Counter::Engine(engine) => with_variant!(kind, V => engine.count_row::<V>(row)),
        }
    }
}

/// A row counted by kshogi.
fn kshogi_count<V: Variant>(
    row: &SuiteRow,
    threads: usize,
    divide: bool,
) -> Result<Count, CountError> {
    let options = RunOptions {
        threads,
        always_divide: divide,
    };
    Count::of_result(run_row::<V>(row, &options))
}

/// Prints a line on standard output at once (the table grows as rows finish).
fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}

/// The run's text on standard output, its progress bar on standard error.
impl SuiteObserver for RowProgress {
    fn line(&mut self, text: &str) {
        say(text);
    }
    fn block(&mut self, text: &str) {
        print!("{text}");
    }
    fn row_started(&mut self, index: usize, row: &SuiteRow) {
        self.show(index, row);
    }
    fn row_finished(&mut self) {
        self.clear();
    }
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
        let json = export_json(&origin, &rows)?;
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
            session::one_variant(&chosen, &origin).map_err(|e| CliError::Suite(e.to_string()))?;
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
    let program = format!("kshogi {}", env!("CARGO_PKG_VERSION"));
    let machine = Machine::this(engine.engines.first().cloned(), program);
    let started_unix = session::unix_now();
    let config = engine.config(0);
    let spec = SuiteSpec {
        origin: &origin,
        suite_rows: rows.len(),
        chosen: &chosen,
        tier,
        variant: variant.map(VariantKind::name),
        threads,
        counted_by: &counted_by,
        engine: config.as_ref(),
        with_divide: args.with_divide,
        baseline: baseline.as_ref(),
        tolerance: args.tolerance,
        machine,
        started_unix,
    };
    let mut progress = RowProgress::new(chosen.len());
    let mut count = |row: &SuiteRow, divide: bool| counter.count(row, divide);
    let outcome = run_suite(spec, &mut count, &mut progress);

    if let Some(path) = &args.report {
        let mut text = serde_json::to_string_pretty(&outcome.report)?;
        text.push('\n');
        args.report_output()
            .expect("--report given")
            .write(text.as_bytes())?;
        say("");
        say(&format!("perft: report written to {}", path.display()));
    }
    let _ = std::io::stdout().flush();
    if outcome.problems.is_empty() {
        Ok(String::new())
    } else {
        Err(CliError::Suite(outcome.problems.join("; ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages() {
        assert_eq!(parse_percent("10%"), Ok(10.0));
        assert_eq!(parse_percent("0"), Ok(0.0));
        assert!(parse_percent("-5").is_err());
        assert!(parse_percent("x").is_err());
    }
}
