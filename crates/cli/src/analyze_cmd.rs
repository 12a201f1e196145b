//! `kshogi analyze`: the status of a position and its best lines, from the analysis
//! service of `kshogi-analysis` (search and df-pn mate solver, or the perfect-play database
//! that `kshogi solve <variant>` builds, where it is installed and covers the position).
//! This command only opens the database, renders the answer and shows the progress.

use crate::db_path;
use crate::error::CliError;
use crate::format::OutputFormat;
use crate::interrupt;
use crate::show_cmd::{self, ColorChoice};
use crate::variant_select;
use clap::Args;
use kshogi_analysis::PerfectPlay;
use kshogi_notation::{parse_game, parse_usi, svg, DiagramStyle};
use kshogi_registry::{with_variant, Registered, VariantKind};
pub use kshogi_report::analysis::Settings;
use kshogi_report::analysis::{self, Analysis, AnalyzeError, Exact, Progress};
use kshogi_report::analysis::{DEFAULT_MATE_NODES, DEFAULT_TIME};
use kshogi_report::databases::{self, DbChoice, OpenError};
use std::io::{IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// More help for `kshogi analyze`, after the options.
pub const ANALYZE_HELP: &str = concat!(
    "\
Limits: --depth, --time and --nodes may be combined; the first one reached stops the
search. Without any, the search runs for 2 seconds. Alongside the search, the df-pn mate
solver looks for a forced win by checks (--mate-nodes nodes, 0 to skip it; with --time, or
the default time, it stops with the search); a mate it proves is preferred to the search's first line when the search did not find a mate as
short. Ctrl-C stops the search and prints the lines found so far (a second Ctrl-C exits).
On a terminal, stderr shows the progress: depth, score and best move (in the --dialect).

Scores are from the side to move's point of view: `cp N` in centipawns (100 = about a
pawn), or `mate N`: a forced win in N plies (checkmate, or any win the variant knows, such
as Kinzoku's king entry), negative when the side to move is the one that loses.

Text output: the diagram (as `kshogi show` draws it), `status: <status>` (ongoing, check,
or the result of a game that is over), `legal moves: <N>`, then for each line
`line <K>: <score> (depth D, seldepth S)` with the moves in USI and in KIF notation, and
the totals `nodes <N>, time <seconds> s, nps <N>`.

JSON output (--json): exactly one object on one line,
  {\"variant\": \"kyoto\", \"sfen\": \"<SFEN>\", \"status\": \"ongoing\", \"legal_moves\": 12,
   \"lines\": [{\"move\": \"1e1d+\", \"score\": {\"cp\": 35}, \"pv\": [\"1e1d+\", ...],
              \"pv_kif\": [\"１四歩成(15)\", ...], \"depth\": 8, \"seldepth\": 12,
              \"nodes\": 123456, \"source\": \"search\"}],
   \"nps\": 600000, \"nodes\": 123456, \"time_ms\": 2001, \"depth\": 8,
   \"side_to_move\": \"black\", \"game_over\": false, \"mate_search\": \"nomate\",
   \"interrupted\": false}
where `score` is {\"cp\": N} or {\"mate\": N}, `source` is `search` or `mate solver`,
`mate_search` is `mate`, `nomate` (no forced win by checks), `unknown` (budget spent) or
`off`, and a game that is over has its result in `status` and `\"lines\": []`.

Databases: with the database that `kshogi solve <variant>` builds (Kinzoku, Dobutsu), a
position of that variant is not searched but looked up: the text says `exact: win in N plies` (or
`loss in N plies`, or `draw`; from the side to move) and `optimal moves:` (every move that
keeps that result), and the lines are the --multipv best moves by their exact results,
each followed by best play (to the end of the game; drawn lines for 16 plies), scored
`mate N`, `mate -N` or `cp 0`, with `\"source\": \"database\"`. The JSON object ends
with `\"exact\": {\"result\": \"win\"|\"loss\"|\"draw\", \"plies\": N or null,
\"moves\": [\"<usi>\", ...]}` and `\"database\": \"<path>\"`. Without a database (or one
that does not cover the position) the position is searched as usual and the text says so;
`exact` and `database` are then null (always null for a variant without a database). The
database knows positions, not game histories: only a repetition that already ended the
game counts. --db FILE names the database (it must be a usable database file of the
position's variant). Without --db:
",
    db_path::db_path_help!(),
    "
A damaged database file (or a file of another variant or format version) is an error with
exit status 1, never a wrong answer, and the position is not searched instead.

--svg draws the position as `kshogi show --svg` does, with an arrow for the best move (the
first line's), on stdout; with -o FILE to FILE (never over an existing file without
--force), and then the text or --json output on stdout.
See docs/analysis.md."
);

/// The arguments of `kshogi analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    #[arg(long, value_name = "V", value_parser = variant_select::parse_variant_name,
          help = variant_select::variant_help())]
    pub variant: Option<VariantKind>,
    /// Largest search depth in plies (1-100)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Search time in seconds, e.g. 0.5 [default: 2 when no limit is given]
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub time: Option<Duration>,
    /// Node budget of the search
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Number of best lines to show (1-32)
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=32))]
    pub multipv: u16,
    /// Transposition table size in MiB (1-4096)
    #[arg(long, value_name = "MB", default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub hash: u16,
    /// Node budget of the mate solver (0: do not run it)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MATE_NODES)]
    pub mate_nodes: u64,
    /// Search threads (1-512, Lazy SMP; the mate solver runs on one more)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=512))]
    pub threads: u16,
    /// When to colour the diagram
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Print one JSON object instead of text
    #[arg(long = "json", id = "json", action = clap::ArgAction::SetTrue,
          value_parser = crate::format::OutputFormat::flag())]
    pub format: crate::format::OutputFormat,
    /// The dialect of the SFEN and the moves written (text and JSON)
    #[command(flatten)]
    pub dialect: crate::DialectArg,
    #[command(flatten)]
    pub svg: crate::svg_out::SvgArgs,
    /// The database to answer from [default: see below, if the file is there]
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// `startpos` or an SFEN, optionally followed by ` moves <usi> ...` (one argument)
    #[arg(value_name = "POSITION")]
    pub position: String,
}

/// Reads `--time`: a positive number of seconds, at most a week.
pub(crate) fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(secs.is_finite() && secs > 0.0 && secs <= 7.0 * 24.0 * 3600.0) {
        return Err(format!(
            "the time must be more than 0 and at most a week, found `{text}`"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

impl AnalyzeArgs {
    /// The settings the arguments ask for; [`DEFAULT_TIME`] when no limit is given.
    pub fn settings(&self) -> Settings {
        Settings {
            limits: analysis::limits_or_default(self.depth, self.nodes, self.time, DEFAULT_TIME),
            multipv: usize::from(self.multipv),
            hash_mb: usize::from(self.hash),
            mate_nodes: self.mate_nodes,
            threads: usize::from(self.threads),
            dialect: self.dialect.dialect,
        }
    }
}

/// Runs `kshogi analyze`: picks the variant, installs the Ctrl-C handler, analyses and
/// renders.
pub fn run(args: &AnalyzeArgs) -> Result<String, CliError> {
    let db_input = args.db.as_deref().map(|db| ("the database", db));
    args.svg.check(args.format, db_input.as_slice())?;
    let kind = variant_select::select(args.variant, &args.position)?;
    let (stop, progress, style) = prepare(args);
    let settings = args.settings();
    let pos = args.position.as_str();
    let db = args.db.as_deref();
    with_variant!(kind, V => {
        emit(&analyze_with_db::<V>(kind, pos, &settings, db, stop, progress)?, args, style)
    })
}

/// Runs `analyze` in the program of the one variant `V` ([`crate::run_single`]): the
/// search and the mate solver, as for a registered variant the solver has no database of.
pub fn run_single<V: Registered>(args: &AnalyzeArgs) -> Result<String, CliError> {
    if args.db.is_some() {
        return Err(CliError::Usage(format!(
            "--db: kshogi solves no database of {}",
            V::NAME
        )));
    }
    args.svg.check(args.format, &[])?;
    let (stop, progress, style) = prepare(args);
    emit(
        &analyze::<V>(&args.position, &args.settings(), None, stop, progress)?,
        args,
        style,
    )
}

/// The Ctrl-C stop flag (installed), whether to show progress, and the diagram's style.
fn prepare(args: &AnalyzeArgs) -> (&'static AtomicBool, bool, DiagramStyle) {
    let stop = interrupt::stop_flag();
    let progress = std::io::stderr().is_terminal();
    let style = DiagramStyle {
        color: show_cmd::use_color(
            args.color,
            std::env::var_os("NO_COLOR").as_deref(),
            std::io::stdout().is_terminal(),
        ),
        ..DiagramStyle::PLAIN
    };
    (stop, progress, style)
}

/// Analyses the position for variant `V` (of `kind`), with its database when the solver
/// has one for it: `--db FILE`, else the file at the default path if there is one.
fn analyze_with_db<V: Registered>(
    kind: VariantKind,
    position: &str,
    settings: &Settings,
    explicit: Option<&Path>,
    stop: &AtomicBool,
    progress: bool,
) -> Result<Analysis<V>, CliError> {
    // A wrong position is reported before anything about the database.
    parse_game::<V>(position)?;
    match databases::for_kind(kind, explicit)? {
        DbChoice::NotApplicable => analyze::<V>(position, settings, None, stop, progress),
        DbChoice::Open(dbs) => {
            let db = dbs.for_variant::<V>();
            let path = dbs.path_for::<V>().map(Path::to_path_buf);
            analyze::<V>(position, settings, db.zip(path), stop, progress)
        }
        DbChoice::Missing(path) => {
            let mut a = analyze::<V>(position, settings, None, stop, progress)?;
            a.exact = Exact::NoDatabase(path);
            Ok(a)
        }
    }
}

/// [`kshogi_report::analysis::analyze`], with the progress on one line of stderr (rewritten
/// as the search deepens, cleared at the end) when `progress` is set.
fn analyze<V: Registered>(
    position: &str,
    settings: &Settings,
    db: Option<(&dyn PerfectPlay<V>, PathBuf)>,
    stop: &AtomicBool,
    progress: bool,
) -> Result<Analysis<V>, CliError> {
    let mut shown = false;
    let mut on_progress = |p: &Progress| {
        if progress {
            eprint!("\r\x1b[2K{}", p.text());
            let _ = std::io::stderr().flush();
            shown = true;
        }
    };
    let result = analysis::analyze::<V>(position, settings, db, stop, &mut on_progress);
    if shown {
        eprint!("\r\x1b[2K");
        let _ = std::io::stderr().flush();
    }
    result.map_err(|e| match e {
        AnalyzeError::Position(e) => CliError::Position(e),
        AnalyzeError::Database { source, rebuild } => OpenError::Db { source, rebuild }.into(),
    })
}

/// The output the arguments ask for: the analysis's text or JSON form, or with `--svg` the
/// picture with an arrow for the best move (the first line's), to stdout or to `-o FILE`
/// (and then the text or JSON to stdout).
fn emit<V: Registered>(
    a: &Analysis<V>,
    args: &AnalyzeArgs,
    style: DiagramStyle,
) -> Result<String, CliError> {
    let render = || -> Result<String, CliError> {
        Ok(match args.format {
            OutputFormat::Json => a.to_json()?,
            OutputFormat::Text => a.to_text(style),
        })
    };
    if !args.svg.svg {
        return render();
    }
    let pos = a.game.position();
    let best = a.lines.first().and_then(|l| parse_usi(pos, &l.mv).ok());
    let picture = svg(pos, a.game.moves().last().copied(), best, args.svg.style());
    let otherwise = match args.svg.output {
        Some(_) => render()?,
        None => String::new(),
    };
    args.svg.deliver(picture, otherwise)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_notation::Dialect;

    #[test]
    fn default_limit_is_a_few_seconds() {
        let args = AnalyzeArgs {
            variant: None,
            depth: None,
            time: None,
            nodes: None,
            multipv: 1,
            hash: 16,
            mate_nodes: DEFAULT_MATE_NODES,
            threads: 1,
            dialect: crate::DialectArg {
                dialect: Dialect::Canonical,
            },
            color: ColorChoice::Never,
            format: crate::format::OutputFormat::Text,
            svg: crate::svg_out::SvgArgs::default(),
            db: None,
            position: "startpos".into(),
        };
        assert_eq!(args.settings().limits.time, Some(DEFAULT_TIME));
        let args = AnalyzeArgs {
            depth: Some(3),
            ..args
        };
        assert_eq!(args.settings().limits.time, None);
        assert_eq!(args.settings().limits.depth, Some(3));
    }

    #[test]
    fn seconds_parser() {
        assert_eq!(parse_seconds("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_seconds("2"), Ok(Duration::from_secs(2)));
        for bad in ["0", "-1", "x", "NaN", "inf", "1e9"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }
}
