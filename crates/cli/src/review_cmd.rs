//! `kshogi review`: every move of a recorded game judged, with an evaluation graph. The
//! review and its report (text, JSON, annotated KIF, graph, diagrams) are
//! `kshogi_report::review`, its inputs and `--out` files `kshogi_report::review_files`.
//! This command picks the variant and its database, shows the progress and prints.

use crate::analyze_cmd::parse_seconds;
use crate::db_path;
use crate::error::CliError;
use crate::format::OutputFormat;
use crate::interrupt;
use crate::progress::Reporter;
use crate::variant_select;
use clap::Args;
use kshogi_progress::Stage;
use kshogi_registry::{kif_variant, with_variant, Registered, VariantKind};
use kshogi_report::analysis::DEFAULT_MATE_NODES;
use kshogi_report::databases::{self, DbChoice, OpenError};
use kshogi_report::review::{self, Input, ReviewError, Settings};
use kshogi_report::review_files::{self, OutDir};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// More help for `kshogi review`, after the options.
pub const REVIEW_HELP: &str = concat!(
    "\
INPUT is a KIF file (UTF-8 with or without BOM, or Shift_JIS), `-` for standard input, or
a POSITION with its moves ('startpos moves 1e1d+ ...'); a file holding one line that is not
KIF is read as a POSITION too. Several INPUTs are reviewed one after the other.

Every position of the game is analysed (by the analysis service of `kshogi analyze`:
search and mate solver, or the perfect-play database where one covers the position), from
the last one back to the first so that the search's table helps. Each move is judged by
what it cost the player in expected score (a win 1, a draw 1/2, from the variant's
win/draw/loss model): at least 5 points an inaccuracy, 10 a mistake, 15 a blunder
(lichess's and lishogi's thresholds). The best move is never judged. Where the database
covers both positions the judgement is exact: a move that turns a win into a draw or a
loss, or a draw into a loss, is a blunder, and nothing else is judged.

Limits per position: --depth, --time and --nodes (the first reached stops the search);
without any, 0.5 s. A review with --depth or --nodes, one thread and no --time is
reproducible.

Text output: for each game, one line per judged move and a summary per side: moves,
inaccuracies, mistakes, blunders, the average loss in points and the accuracy (lichess's
curve of the loss, 100 for a perfect game, averaged over the side's moves).
JSON output (--json): one object per game and line, {\"input\", \"variant\", \"start\",
\"moves\", \"interrupted\", \"plies\": [{\"number\", \"side\", \"move\", \"move_kif\",
\"best\", \"best_line\", \"best_line_kif\", \"before\", \"after\", \"expected_before\",
\"expected_after\", \"loss\", \"judgement\", \"exact_before\", \"exact_after\", \"depth\",
\"source\"} or null where not analysed], \"summary\": {\"black\": {...}, \"white\": {...}},
\"time_ms\"}.

--out DIR writes for each game <NAME>.review.kif (the record with a `*` comment on every
judged move, as lishogi writes them), <NAME>.review.json and <NAME>.review.svg (the
evaluation graph), and with --diagrams <NAME>.blunder-<N>.svg (the position before each
blunder, with an arrow for the better move); NAME is the file's name without its
extension (`game` for a POSITION, `stdin` for `-`). No file is replaced without --force.

Ctrl-C stops the review: the moves judged so far (the end of the game first) are printed and
written, and the exit status is 130. On a terminal, stderr shows a progress bar per game
with the time left.

Databases: as for `kshogi analyze`: --db FILE, else
",
    db_path::db_path_help!(),
    "
See docs/analysis.md."
);

/// The arguments of `kshogi review`.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    #[arg(long, value_name = "V", value_parser = variant_select::parse_variant_name,
          help = format!("The variant: {} [default: from the `手合割` header of a KIF record, \
                          or from the board of a POSITION]", VariantKind::names()))]
    pub variant: Option<VariantKind>,
    /// Largest search depth per position in plies (1-100)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Search time per position in seconds [default: 0.5 when no limit is given]
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub time: Option<Duration>,
    /// Node budget of the search per position
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Search threads (1-512, Lazy SMP; the mate solver runs on one more)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=512))]
    pub threads: u16,
    /// Transposition table size in MiB (1-4096), kept over the whole game
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub hash: u16,
    /// Node budget of the mate solver per position (0: do not run it)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MATE_NODES)]
    pub mate_nodes: u64,
    /// The database to judge from [default: see below, if the file is there]
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Print one JSON object per game instead of text
    #[arg(long = "json", id = "json", action = clap::ArgAction::SetTrue,
          value_parser = crate::format::OutputFormat::flag())]
    pub format: crate::format::OutputFormat,
    /// Write the annotated KIF, the JSON and the evaluation graph of each game to DIR
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// With --out: also an SVG board diagram of the position before each blunder
    #[arg(long, requires = "out")]
    pub diagrams: bool,
    /// With --out: replace files that exist
    #[arg(long, requires = "out")]
    pub force: bool,
    /// The dialect of the SFEN and the moves written (text and JSON)
    #[command(flatten)]
    pub dialect: crate::DialectArg,
    /// KIF files, `-` for standard input, or POSITIONs with moves
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<String>,
}

/// The `--out DIR` of the arguments.
fn out_dir(args: &ReviewArgs) -> Option<OutDir<'_>> {
    args.out.as_deref().map(|dir| OutDir {
        dir,
        force: args.force,
    })
}

/// Runs `kshogi review`.
pub fn run(args: &ReviewArgs) -> Result<String, CliError> {
    run_with(args, &|input, stop, reporter| {
        let kind = match (args.variant, input.kif) {
            (Some(kind), _) => kind,
            (None, true) => kif_variant(&input.text)?,
            (None, false) => variant_select::select(None, &input.text)?,
        };
        with_variant!(kind, V => review_one::<V>(Some(kind), input, args, stop, reporter))
    })
}

/// Runs `review` in the program of the one variant `V` ([`crate::run_single`]): every
/// input read as a game of `V`, judged by the search and the mate solver (kshogi solves no
/// database of an outside variant, so `--db` is a usage error).
pub fn run_single<V: Registered>(args: &ReviewArgs) -> Result<String, CliError> {
    if args.db.is_some() {
        return Err(CliError::Usage(format!(
            "--db: kshogi solves no database of {}",
            V::NAME
        )));
    }
    run_with(args, &|input, stop, reporter| {
        review_one::<V>(None, input, args, stop, reporter)
    })
}

/// How one game is reviewed once read: with the variant chosen and its database.
type ReviewOne<'a> = dyn Fn(&Input, &AtomicBool, &Reporter) -> Result<Done, CliError> + 'a;

/// Reads the inputs, checks the output files, and reviews the games one after the other
/// with `review_one`.
fn run_with(args: &ReviewArgs, review_one: &ReviewOne<'_>) -> Result<String, CliError> {
    let mut inputs = Vec::with_capacity(args.inputs.len());
    let mut input_files = Vec::new();
    for arg in &args.inputs {
        let (input, path) = review_files::read_input(arg)?;
        inputs.push(input);
        input_files.extend(path);
    }
    if let Some(out) = out_dir(args) {
        out.prepare(&mut inputs, &input_files)?;
    }
    let stop = interrupt::stop_flag();
    let reporter = Reporter::new();
    let mut out = String::new();
    let total = inputs.len();
    for (k, input) in inputs.iter().enumerate() {
        let done = review_one(input, stop, &reporter)?;
        out.push_str(&done.stdout);
        if done.interrupted {
            let left = total - k - 1;
            let rest = if left > 0 {
                format!("; {left} more input(s) not reviewed")
            } else {
                String::new()
            };
            return Err(CliError::Interrupted {
                partial: out,
                message: format!(
                    "interrupted: {} reviewed in part ({} of {} moves judged){rest}",
                    input.label, done.judged, done.moves
                ),
            });
        }
    }
    Ok(out)
}

/// What one game's review gave.
struct Done {
    stdout: String,
    interrupted: bool,
    judged: usize,
    moves: usize,
}

/// The settings of the review.
fn settings(args: &ReviewArgs) -> Settings {
    Settings {
        depth: args.depth,
        time: args.time,
        nodes: args.nodes,
        threads: usize::from(args.threads),
        hash_mb: usize::from(args.hash),
        mate_nodes: args.mate_nodes,
        dialect: args.dialect.dialect,
    }
}

/// The message of a review that failed, as the other commands word it.
fn review_error(e: ReviewError) -> CliError {
    match e {
        ReviewError::Kif { label, source } => CliError::Input {
            path: label,
            message: source.to_string(),
        },
        ReviewError::Position(e) => CliError::Position(e),
        ReviewError::Database(source) => OpenError::Db {
            source,
            rebuild: None,
        }
        .into(),
    }
}

/// Reviews one game of variant `V` and writes its files; `kind` is the registered variant
/// whose database may judge it (none for a variant outside the registry).
fn review_one<V: Registered>(
    kind: Option<VariantKind>,
    input: &Input,
    args: &ReviewArgs,
    stop: &AtomicBool,
    reporter: &Reporter,
) -> Result<Done, CliError> {
    let read = review::read_game::<V>(input).map_err(review_error)?;
    let dbs = match kind.map(|k| databases::for_kind(k, args.db.as_deref())) {
        Some(Ok(DbChoice::Open(dbs))) => Some(dbs),
        Some(Err(e)) => return Err(e.into()),
        None | Some(Ok(DbChoice::NotApplicable | DbChoice::Missing(_))) => None,
    };
    let db = dbs.as_ref().and_then(|d| {
        let file = d.path_for::<V>().map(|p| p.display().to_string());
        d.for_variant::<V>().zip(file)
    });
    let key = input.stem.clone();
    let mut progress = |p: kshogi_analysis::review::Progress| {
        let stage = Stage::new(&key).counting("positions").erased();
        reporter.count(stage, p.done as u64, p.total as u64, String::new);
    };
    let report = review::review(input, read, &settings(args), db, stop, &mut progress)
        .map_err(review_error)?;
    reporter.finish();
    let json = report.to_json()?;
    let stdout = match args.format {
        OutputFormat::Json => json.clone(),
        OutputFormat::Text => report.to_text(),
    };
    if let Some(out) = out_dir(args) {
        out.write(&input.stem, &report, &json, args.diagrams)?;
    }
    Ok(Done {
        stdout,
        interrupted: report.interrupted(),
        judged: report.judged(),
        moves: report.moves(),
    })
}
