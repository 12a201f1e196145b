//! `kshogi perft`: count the leaves of the legal-move tree, optionally split by root move.

use crate::engine_text::nodes_per_second;
use crate::error::CliError;
use crate::format::OutputFormat;
use crate::perft_engine::EngineArgs;
use crate::perft_suite_cmd::SuiteArgs;
use crate::{interrupt, perft_diff_cmd, perft_suite_cmd, variant_select, DialectArg, VariantArg};
use clap::Args;
use kshogi_core::Variant;
use kshogi_core::{divide_interruptible, MAX_PERFT_DEPTH};
use kshogi_notation::{move_to_usi_in, parse_game, to_sfen_in, Dialect};
use kshogi_registry::with_variant;
use serde::{Serialize, Serializer};
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The result of a perft run. Serialised as the `--json` output, with the fields in this
/// order; `divide` is present only with `--divide`.
#[derive(Clone, Debug, Serialize)]
#[serde(bound = "")]
pub struct PerftReport<V: Variant> {
    /// Short name of the variant (`kyoto`).
    pub variant: &'static str,
    /// The position perft ran on (after the `moves` list), as its SFEN in the chosen
    /// dialect (canonical by default).
    pub sfen: String,
    /// The depth counted.
    pub depth: u32,
    /// Leaves of the legal-move tree of that depth (1 at depth 0).
    pub nodes: u64,
    /// Leaves below each root move, sorted by the move's USI text in the chosen dialect and
    /// serialised as an object keyed by it; only with `--divide`. Empty at depth 0.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "divide_as_object"
    )]
    pub divide: Option<Vec<(String, u64)>>,
    /// Wall-clock time of the count, in whole milliseconds (rounded down).
    pub time_ms: u64,
    /// Nodes per second (integer, 0 when the time measured is 0).
    pub nps: u64,
    /// Wall-clock time of the count, at full precision (not serialised).
    #[serde(skip)]
    pub elapsed: Duration,
    /// The variant (not serialised).
    #[serde(skip)]
    pub _variant: std::marker::PhantomData<V>,
}

/// Serialises the divide list as one JSON object, `{"<usi>": <count>, ...}`, in list order.
fn divide_as_object<S: Serializer>(
    divide: &Option<Vec<(String, u64)>>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match divide {
        Some(list) => serializer.collect_map(list.iter().map(|(mv, n)| (mv, n))),
        None => serializer.serialize_none(),
    }
}

/// Reads `DEPTH`: a non-negative whole number of plies (no sign), at most
/// [`MAX_PERFT_DEPTH`].
pub fn parse_depth(text: &str) -> Result<u32, CliError> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CliError::Depth(text.to_string()));
    }
    match t.parse::<u32>() {
        Ok(d) if d <= MAX_PERFT_DEPTH => Ok(d),
        // Any run of digits that is not a small number is too large (a 23-digit depth too).
        _ => Err(CliError::DepthTooLarge(text.to_string())),
    }
}

/// Runs perft for variant `V` on the `POSITION` argument (`startpos` or an SFEN, optionally
/// followed by `moves ...`, which are played first).
///
/// This is the single point where the command line enters generic code: everything below it
/// is monomorphised for `V`. Repetition is ignored while counting (perft convention), but
/// the `moves` list itself is played with the full rules, so a move after the game has ended
/// is an error.
pub fn run_perft<V: Variant>(
    position: &str,
    depth: u32,
    with_divide: bool,
    threads: usize,
    stop: &AtomicBool,
    dialect: Dialect,
) -> Result<PerftReport<V>, CliError> {
    let game = parse_game::<V>(position)?;
    let pos = *game.position();
    let sfen = to_sfen_in(&pos, dialect);
    let start = Instant::now();
    let split = divide_interruptible(&pos, depth, threads, stop);
    let mut keyed: Vec<(String, Option<u64>)> = split
        .iter()
        .map(|&(mv, n)| (move_to_usi_in(&pos, mv, dialect), n))
        .collect();
    keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    if keyed.iter().any(|(_, n)| n.is_none()) {
        let done: Vec<(&str, u64)> = keyed
            .iter()
            .filter_map(|(text, n)| n.map(|n| (text.as_str(), n)))
            .collect();
        let partial: String = done.iter().map(|(t, n)| format!("{t}: {n}\n")).collect();
        return Err(CliError::Interrupted {
            partial,
            message: format!(
                "perft interrupted: {} of {} root moves counted completely ({} nodes below them)",
                done.len(),
                keyed.len(),
                done.iter().map(|(_, n)| n).sum::<u64>()
            ),
        });
    }
    // At depth 0 there is no root move, but the count is still 1.
    let nodes = if depth == 0 {
        1
    } else {
        keyed.iter().map(|(_, n)| n.unwrap_or(0)).sum()
    };
    let divide_map = with_divide.then(|| {
        keyed
            .into_iter()
            .map(|(text, n)| (text, n.unwrap_or(0)))
            .collect::<Vec<(String, u64)>>()
    });
    let elapsed = start.elapsed();
    Ok(PerftReport {
        variant: V::NAME,
        sfen,
        depth,
        nodes,
        divide: divide_map,
        time_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
        nps: nodes_per_second(nodes, elapsed),
        elapsed,
        _variant: std::marker::PhantomData,
    })
}

impl<V: Variant> PerftReport<V> {
    /// The text output: with `--divide`, `<usi>: <count>` per root move and a blank line;
    /// then `nodes <N>`, `time <seconds, 3 decimals> s` and `nps <N>`, one per line.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        if let Some(list) = &self.divide {
            for (usi, n) in list {
                let _ = writeln!(out, "{usi}: {n}");
            }
            out.push('\n');
        }
        let _ = writeln!(out, "nodes {}", self.nodes);
        let _ = writeln!(out, "time {:.3} s", self.elapsed.as_secs_f64());
        let _ = writeln!(out, "nps {}", self.nps);
        out
    }

    /// The output in `format`: one JSON object on one line, or [`PerftReport::to_text`].
    pub fn render(&self, format: OutputFormat) -> Result<String, CliError> {
        format.render(self, PerftReport::to_text)
    }
}

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
    Ok((position, parse_depth(depth)?))
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
    run_perft::<V>(
        position,
        depth,
        args.divide,
        threads,
        stop,
        args.dialect.dialect,
    )?
    .render(args.format)
}

#[cfg(test)]
mod tests {
    use super::*;

    static NEVER: AtomicBool = AtomicBool::new(false);
    use kshogi_rules_kinzoku::Kinzoku;
    use kshogi_rules_kyoto::Kyoto;

    #[test]
    fn depth_must_be_a_plain_number() {
        assert_eq!(parse_depth("0").unwrap(), 0);
        assert_eq!(parse_depth("12").unwrap(), 12);
        for bad in ["", "-1", "+3", "x", "1.5"] {
            assert!(matches!(parse_depth(bad), Err(CliError::Depth(_))), "{bad}");
        }
        // Digits above the limit are a number, only too large (issue 33: a 23-digit depth
        // was "not a non-negative whole number").
        assert_eq!(parse_depth("30").unwrap(), MAX_PERFT_DEPTH);
        for big in ["31", "99999999999", "12345678901234567890123"] {
            assert!(
                matches!(parse_depth(big), Err(CliError::DepthTooLarge(_))),
                "{big}"
            );
        }
    }

    #[test]
    fn divide_sums_to_nodes_and_depth_zero_is_one() {
        // Kinzoku start, depth 2: 49 (shared/reference/perft.tsv), 7 root moves.
        let r = run_perft::<Kinzoku>("startpos", 2, true, 1, &NEVER, Dialect::Canonical).unwrap();
        let list = r.divide.as_ref().unwrap();
        assert_eq!(list.len(), 7);
        assert_eq!(list.iter().map(|&(_, n)| n).sum::<u64>(), 49);
        assert_eq!(r.nodes, 49);
        let r = run_perft::<Kyoto>("startpos", 0, true, 2, &NEVER, Dialect::Canonical).unwrap();
        assert_eq!(r.nodes, 1);
        assert!(r.divide.unwrap().is_empty());
        assert_eq!(
            run_perft::<Kyoto>("startpos", 0, false, 2, &NEVER, Dialect::Canonical)
                .unwrap()
                .nodes,
            1
        );
    }

    #[test]
    fn text_and_json_layout() {
        let usi = |t: &str| t.to_string();
        let r = PerftReport::<Kyoto> {
            variant: "kyoto",
            sfen: "pgkst/5/5/5/TSKGP b - 1".to_string(),
            depth: 1,
            nodes: 2,
            divide: Some(vec![(usi("2e1d+"), 1), (usi("1e1d+"), 1)]),
            time_ms: 1,
            nps: 1000,
            elapsed: Duration::from_micros(1500),
            _variant: std::marker::PhantomData,
        };
        // The list order is kept (run_perft sorts it).
        assert_eq!(
            r.to_text(),
            "2e1d+: 1\n1e1d+: 1\n\nnodes 2\ntime 0.002 s\nnps 1000\n"
        );
        assert_eq!(
            r.render(OutputFormat::Json).unwrap(),
            "{\"variant\":\"kyoto\",\"sfen\":\"pgkst/5/5/5/TSKGP b - 1\",\"depth\":1,\
             \"nodes\":2,\"divide\":{\"2e1d+\":1,\"1e1d+\":1},\"time_ms\":1,\"nps\":1000}\n"
        );
        assert_eq!(r.render(OutputFormat::Text).unwrap(), r.to_text());
    }

    #[test]
    fn divide_is_sorted_by_text() {
        let r = run_perft::<Kyoto>("startpos", 1, true, 1, &NEVER, Dialect::Canonical).unwrap();
        let texts: Vec<String> = r.divide.unwrap().iter().map(|(mv, _)| mv.clone()).collect();
        let mut sorted = texts.clone();
        sorted.sort();
        assert_eq!(texts, sorted);
        assert_eq!(texts.len(), 12);
    }
}
