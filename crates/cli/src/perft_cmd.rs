//! `kshogi perft`: count the leaves of the legal-move tree, optionally split by root move.
//! The count and its report are `kshogi_perft_suite::perft`'s; this module parses and prints.

use crate::error::CliError;
use crate::perft_engine::EngineArgs;
use crate::perft_suite_cmd::SuiteArgs;
use crate::{interrupt, perft_diff_cmd, perft_suite_cmd, variant_select, DialectArg, VariantArg};
use clap::Args;
use kshogi_core::Variant;
use kshogi_perft_suite::perft::{self, PerftError, PerftReport};
use kshogi_registry::with_variant;

/// More help for `kshogi perft`: its output, DEPTH, `--suite` and `--diff`.
pub const PERFT_HELP: &str = "\
Text output: with --divide, one line `<usi>: <count>` per legal root move, sorted by the
USI text, then a blank line; then `nodes <N>`, `time <seconds, 3 decimals> s` and
`nps <nodes per second>`, one per line.

JSON output (--json): exactly one object on one line,
  {\"variant\": \"kyoto\", \"sfen\": \"<SFEN>\", \"depth\": 3, \"nodes\": 1636,
   \"divide\": {\"<usi>\": <count>, ...}, \"time_ms\": <ms>, \"nps\": <nodes per second>}
where `sfen` is the canonical SFEN of the position counted (after the moves list),
`divide` is present only with --divide (keys sorted; empty at depth 0, where nodes is 1),
`time_ms` is the wall-clock time in whole milliseconds and `nps` is 0 when no time was
measured.

DEPTH is at most 30: the count grows roughly tenfold per ply, so no deeper count could
finish (depth 10 already takes minutes to hours).

With --suite FILE, every row of a suite file is counted (by kshogi, or by a USI engine's
`go perft` with --engine) and compared; a table, the failing rows with their divides, and
with --report a JSON report; exit status 1 when a row fails. With --diff, kshogi and
--engine (or two engines) are compared on POSITION and DEPTH down to the first position
whose legal move lists differ; exit status 1 when they differ. See docs/perft.md.";

#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
/// The arguments of `kshogi perft`.
pub struct PerftArgs {
    #[command(flatten)]
    variant: VariantArg,
    #[command(flatten)]
    dialect: DialectArg,
    /// Also print the count below each legal root move
    #[arg(long, conflicts_with_all = ["suite", "diff"])]
    divide: bool,
    /// Print one JSON object instead of text
    #[arg(long = "json", id = "json", action = clap::ArgAction::SetTrue,
          value_parser = crate::format::OutputFormat::flag(), conflicts_with_all = ["suite", "diff"])]
    format: crate::format::OutputFormat,
    /// Worker threads; the work is split over the root moves and their replies
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Find the first position where kshogi and --engine (or two engines) disagree: descend
    /// the divides of POSITION to where their legal move lists differ
    #[arg(long, requires = "engines", conflicts_with = "suite")]
    diff: bool,
    #[command(flatten)]
    suite: SuiteArgs,
    #[command(flatten)]
    engine: EngineArgs,
    /// `startpos` or an SFEN, optionally followed by ` moves <usi> ...` (one argument)
    #[arg(value_name = "POSITION", required_unless_present = "suite")]
    position: Option<String>,
    /// Number of plies to count: a whole number from 0 to 30
    #[arg(value_name = "DEPTH", required_unless_present = "suite")]
    depth: Option<String>,
}

/// Runs `kshogi perft`: one count, `--suite` or `--diff`.
pub fn run(args: &PerftArgs) -> Result<String, CliError> {
    let threads = usize::from(args.threads);
    if args.suite.suite.is_some() {
        if args.position.is_some() {
            return Err(CliError::Suite(
                "--suite runs the suite's positions: give no POSITION or DEPTH".into(),
            ));
        }
        return perft_suite_cmd::run(&args.suite, args.variant.variant, threads, &args.engine);
    }
    let (position, depth) = position_and_depth(args)?;
    let kind = variant_select::select(args.variant.variant, position)?;
    with_variant!(kind, V => count::<V>(args, position, depth))
}

/// Runs `perft` in the program of the one variant `V` ([`crate::run_single`]): one count or
/// `--diff`, as `kshogi perft` does for a registered variant. `--suite` is the registry's
/// (its rows name registered variants); a variant's own rows run in its tests.
pub fn run_single<V: Variant>(args: &PerftArgs) -> Result<String, CliError> {
    if args.suite.suite.is_some() {
        return Err(CliError::Usage(format!(
            "--suite runs suites of kshogi's variants; run the rows of {} with \
             kshogi_perft_suite::run_rows in its tests",
            V::NAME
        )));
    }
    let (position, depth) = position_and_depth(args)?;
    count::<V>(args, position, depth)
}

/// The `POSITION` and the checked `DEPTH` of a count.
fn position_and_depth(args: &PerftArgs) -> Result<(&str, u32), CliError> {
    let (position, depth) = (
        args.position.as_deref().unwrap_or_default(),
        args.depth.as_deref().unwrap_or_default(),
    );
    Ok((position, perft::parse_depth(depth)?))
}

/// One count of `V` (or, with `--diff`, the comparison with another engine).
fn count<V: Variant>(args: &PerftArgs, position: &str, depth: u32) -> Result<String, CliError> {
    let threads = usize::from(args.threads);
    if args.diff {
        return perft_diff_cmd::run::<V>(position, depth, threads, &args.engine);
    }
    if !args.engine.engines.is_empty() {
        return Err(CliError::Suite(
            "--engine counts with --suite or --diff; without them `kshogi perft` counts with kshogi"
                .into(),
        ));
    }
    let stop = interrupt::stop_flag();
    let dialect = args.dialect.dialect;
    match perft::count::<V>(position, depth, args.divide, threads, stop, dialect) {
        Ok(report) => args.format.render(&report, PerftReport::to_text),
        Err(PerftError::Position(e)) => Err(e.into()),
        Err(PerftError::Interrupted(i)) => Err(CliError::Interrupted {
            partial: i.partial(),
            message: i.to_string(),
        }),
    }
}
