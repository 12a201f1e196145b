//! # kshogi-cli
//!
//! The `kshogi` command line for the small shogi variants of kshogi (every variant of the
//! registry, `kshogi variants`): `kshogi perft` counts the leaves of the legal-move tree, `kshogi moves`
//! lists the legal moves of a position, `kshogi show` draws it, `kshogi convert` reads and
//! writes KIF, `kshogi analyze` searches it, `kshogi review` judges every move of a game and
//! `kshogi usi` is a USI engine. Its interface
//! is stable: scripts rely on it. (`kshogi selfplay`, hidden from the help, plays engine
//! matches for `cargo xtask match`.)
//!
//! This crate only parses arguments, picks the variant, times the work and formats the
//! output. It must not contain rules or notation logic: positions, moves and SFEN/USI text
//! come from `kshogi-core`, the rules crates and `kshogi-notation`. The variants, their names
//! and board sizes come from `kshogi-registry`: after the variant is chosen, each command
//! dispatches once (`with_variant!`) to a generic function, so all hot code is
//! monomorphised per variant and no command names a variant.
//!
//! Exit codes: 0 on success; 1 when the input is wrong (position, move, depth), with one
//! line `error: <message>` on stderr and nothing on stdout; 2 for usage errors reported by
//! the argument parser (unknown option, unknown `--variant` name, missing argument); 130
//! when Ctrl-C interrupts `perft` (Ctrl-C during `analyze` prints the lines so far, exit 0).
//!
//! The USI loop of `kshogi usi` (and the engine text helpers it shares with `analyze` and
//! `selfplay`) is the crate `kshogi-usi`, and the analysis policy of `analyze` and `usi`
//! (search with df-pn, the perfect-play databases, the move to play) is `kshogi-analysis`;
//! the binary only calls them.
//!
//! `kshogi solve <variant>` builds (and with `--verify` checks) the perfect-play database
//! of a variant the solver (`kshogi-solver`) can index, which `kshogi analyze` and
//! `kshogi usi` then use for its positions; Ctrl-C during a build exits with status 130 and
//! leaves no file.

mod analyze_cmd;
mod bench_cmd;
mod convert_cmd;
mod databases;
mod db_path;
mod error;
mod format;
mod interrupt;
mod match_cmd;
mod moves_cmd;
mod output_path;
mod perft_cmd;
mod perft_diff_cmd;
mod perft_engine;
mod perft_suite_cmd;
mod progress;
mod review_cmd;
mod selfplay_cmd;
mod show_cmd;
mod solve_cmd;
mod svg_out;
mod units_cmd;
mod variant_select;

use clap::builder::TypedValueParser as _;
use clap::{Args, Parser, Subcommand};
use error::CliError;
// `crate::engine_text` stays the path the commands use.
use kshogi_registry::{with_variant, VariantKind};
use kshogi_usi as usi;
use kshogi_usi::engine_text;
use std::io::Write as _;
use std::process::ExitCode;

/// The registered variants for people: `Kyoto Shogi (5x5), ...`.
fn variant_list() -> String {
    VariantKind::ALL
        .iter()
        .map(|k| {
            let (w, h) = k.shape();
            format!("{} ({w}x{h})", k.display_name())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The help on the `POSITION` argument, with the registry's board sizes.
fn position_help() -> String {
    let shapes: Vec<String> = VariantKind::ALL
        .iter()
        .map(|k| {
            let (w, h) = k.shape();
            format!("{w}x{h} {}", k.name())
        })
        .collect();
    format!(
        "\
POSITION is one argument (quote it): `startpos`, or an SFEN such as
'pgkst/5/5/5/TSKGP b - 1' (a leading word `sfen` is allowed), optionally followed in the
same argument by ` moves <usi> <usi> ...`, which are played first, e.g.
'startpos moves 1e1d+'.

Without --variant the board size of the SFEN picks the variant ({}); where
several variants share a size, the one in which the position is valid; `startpos` has no
board, so it needs --variant.",
        shapes.join(", ")
    )
}

const EXIT_HELP: &str = "\
Exit status: 0 on success; 1 when the position, a move or DEPTH is wrong (one line
`error: <message>` on stderr, nothing on stdout); 2 for usage errors (unknown option,
missing argument, unknown --variant name); 130 when Ctrl-C interrupts perft.";

const PERFT_HELP: &str = "\
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

/// Perft, legal moves, diagrams, KIF, analysis and a USI engine for small shogi variants.
#[derive(Debug, Parser)]
#[command(
    name = "kshogi",
    version,
    about,
    long_about = format!("Perft, legal moves, diagrams, KIF records, analysis and a USI engine \
                  for small shogi variants:\n{}.", variant_list()),
    after_long_help = format!("{}\n\n{EXIT_HELP}", position_help()),
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaves of the legal-move tree of a position (perft).
    #[command(
        long_about = "Count the leaves of the legal-move tree of depth DEPTH from POSITION \
                      (perft).\nRepetition is ignored while counting, as the perft \
                      convention says; depth 0 counts 1.",
        after_long_help = format!("{}\n\n{PERFT_HELP}\n\n{EXIT_HELP}", position_help())
    )]
    Perft(PerftArgs),
    /// Perft as work units for batch systems: split a count, count one unit, merge.
    #[command(
        name = "perft-units",
        long_about = "Perft as work units for batch systems (Slurm job arrays, Kubernetes \
                      Indexed Jobs, GNU parallel): split a count into units, count one unit \
                      into a result file, and merge the results into the total and the \
                      divide at the root.",
        after_long_help = format!("{}\n\n{}\n\n{EXIT_HELP}", units_cmd::UNITS_HELP, position_help())
    )]
    PerftUnits(units_cmd::UnitsArgs),
    /// List the legal moves of a position in canonical USI, sorted.
    #[command(
        long_about = "List the legal moves of POSITION in canonical USI, one per line, \
                      sorted by their text.\nA game that is over (checkmate, king entry, \
                      a repetition reached by the moves list, ...)\nhas no legal moves: \
                      nothing is printed, or `[]` with --json.",
        after_long_help = format!("{}\n\n{EXIT_HELP}", position_help())
    )]
    Moves(MovesArgs),
    /// Print the board diagram of a position (or a JSON summary of it).
    #[command(
        long_about = "Print the board diagram of POSITION after its moves list, with the \
                      last move of the list\nhighlighted, and the game status when the side \
                      to move is in check or the game is over.",
        after_long_help = format!("{}\n\n{}\n\n{EXIT_HELP}", position_help(), show_cmd::SHOW_HELP)
    )]
    Show(show_cmd::ShowArgs),
    /// Convert a position to a KIF record, or a KIF record to SFEN or USI.
    #[command(
        long_about = "Convert POSITION and its moves list to a KIF record (--to kif), or \
                      read a KIF record\nand print the SFEN of its final position (--to sfen) \
                      or its USI position (--to usi).",
        after_long_help = format!("{}\n\n{}\n\n{EXIT_HELP}", position_help(), convert_cmd::CONVERT_HELP)
    )]
    Convert(convert_cmd::ConvertArgs),
    /// Analyse a position: status, legal moves and the best lines with their scores.
    #[command(
        long_about = "Analyse POSITION: the diagram, its status, the number of legal moves, \
                      and the best lines\n(score, principal variation in USI and KIF, depth, \
                      nodes, nodes per second), found by the\nsearch and the mate solver.",
        after_long_help = format!("{}\n\n{}\n\n{EXIT_HELP}", position_help(), analyze_cmd::ANALYZE_HELP)
    )]
    Analyze(analyze_cmd::AnalyzeArgs),
    /// Review games: every move judged, with a summary, an annotated KIF and a graph.
    #[command(
        long_about = "Review recorded games: analyse every position, judge every move by the \
                      expected score it lost\n(inaccuracy, mistake, blunder; exactly from a \
                      perfect-play database), and print a summary per side;\nwith --out, \
                      write an annotated KIF record, JSON and an SVG evaluation graph.",
        after_long_help = format!("{}\n\n{}\n\n{EXIT_HELP}", position_help(), review_cmd::REVIEW_HELP)
    )]
    Review(review_cmd::ReviewArgs),
    /// Solve a small variant: build (or --verify) the database of every position.
    #[command(
        long_about = "Solve a small variant by retrograde analysis: build the database of the \
                      exact result (win, loss or draw,\nand the distance in plies) of every \
                      position, which `kshogi analyze` and `kshogi usi` use; or check one \
                      (--verify).",
        after_long_help = format!("{}\n\n{EXIT_HELP}", solve_cmd::solve_help())
    )]
    Solve(solve_cmd::SolveArgs),
    /// Run as a USI engine on standard input and output.
    #[command(
        long_about = "Run as a USI engine: read USI commands on standard input and answer \
                      on standard output.",
        after_long_help = usi::usi_help()
    )]
    Usi(UsiArgs),
    /// List the variants kshogi knows, with their names, aliases and board sizes.
    #[command(
        long_about = "List the variants kshogi knows: the name to give --variant and \
                      USI_Variant, other names accepted, the board (files x ranks) and the \
                      KIF handicap (手合割) names read and written.\nJSON output (--json): \
                      one array of objects {\"name\", \"display_name\", \"aliases\", \
                      \"board\", \"width\", \"height\", \"kif_names\"}."
    )]
    Variants(VariantsArgs),
    /// Play a match between two USI engines, refereed by kshogi's rules.
    #[command(
        long_about = "Play a match between two USI engines (time per move or a clock, \
                      random or listed openings, a number of games or an SPRT), refereed by \
                      kshogi's rules; write every game as KIF and print a summary with Elo.",
        after_long_help = match_cmd::MATCH_HELP
    )]
    Match(Box<match_cmd::MatchArgs>),
    /// Play engine matches against a random or greedy player (for `cargo xtask match`).
    #[command(hide = true)]
    Selfplay(selfplay_cmd::SelfplayArgs),
    /// Run the search's fixed workload and print its node-count signature.
    #[command(
        long_about = "Search a fixed set of positions of every variant (or one) to a fixed \
                      depth and print the nodes, the time and the total node count, the \
                      search's signature.",
        after_long_help = bench_cmd::BENCH_HELP
    )]
    Bench(bench_cmd::BenchArgs),
}

/// `--dialect canonical|fsf|pychess`: the form of the SFEN and USI text written, shared by
/// every command that prints positions or moves.
#[derive(Debug, Args)]
pub(crate) struct DialectArg {
    /// Write SFEN and USI moves as kshogi does (canonical), as Fairy-Stockfish does (fsf), or
    /// as pychess-variants does (pychess: its FEN with the hand in brackets, UCI moves)
    #[arg(long, value_name = "D", default_value = "canonical",
          value_parser = clap::builder::PossibleValuesParser::new(
              kshogi_notation::Dialect::WRITTEN.map(kshogi_notation::Dialect::name))
              .map(|s| kshogi_notation::Dialect::WRITTEN
                  .into_iter()
                  .find(|d| d.name() == s)
                  .expect("a listed dialect")))]
    pub(crate) dialect: kshogi_notation::Dialect,
}

#[derive(Debug, Args)]
struct VariantArg {
    #[arg(long, value_name = "V", value_parser = variant_select::parse_variant_name,
          help = variant_select::variant_help())]
    variant: Option<VariantKind>,
}

#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
struct PerftArgs {
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
    suite: perft_suite_cmd::SuiteArgs,
    #[command(flatten)]
    engine: perft_engine::EngineArgs,
    /// `startpos` or an SFEN, optionally followed by ` moves <usi> ...` (one argument)
    #[arg(value_name = "POSITION", required_unless_present = "suite")]
    position: Option<String>,
    /// Number of plies to count: a whole number from 0 to 30
    #[arg(value_name = "DEPTH", required_unless_present = "suite")]
    depth: Option<String>,
}

#[derive(Debug, Args)]
struct MovesArgs {
    #[command(flatten)]
    variant: VariantArg,
    #[command(flatten)]
    dialect: DialectArg,
    /// Print one JSON array of strings instead of one move per line
    #[arg(long = "json", id = "json", action = clap::ArgAction::SetTrue,
          value_parser = crate::format::OutputFormat::flag())]
    format: crate::format::OutputFormat,
    /// `startpos` or an SFEN, optionally followed by ` moves <usi> ...` (one argument)
    #[arg(value_name = "POSITION")]
    position: String,
}

/// The arguments of `kshogi variants`.
#[derive(Debug, Args)]
struct VariantsArgs {
    /// Print one JSON array instead of a table
    #[arg(long = "json", id = "json", action = clap::ArgAction::SetTrue,
          value_parser = crate::format::OutputFormat::flag())]
    format: crate::format::OutputFormat,
}

/// One variant in the `--json` output of `kshogi variants`.
#[derive(serde::Serialize)]
struct VariantEntry {
    name: &'static str,
    display_name: &'static str,
    aliases: &'static [&'static str],
    board: String,
    width: u8,
    height: u8,
    kif_names: &'static [&'static str],
}

/// Runs `kshogi variants`: the registry's list.
fn variants(args: &VariantsArgs) -> Result<String, CliError> {
    let entries: Vec<VariantEntry> = VariantKind::ALL
        .iter()
        .map(|k| {
            let info = k.info();
            let (width, height) = k.shape();
            VariantEntry {
                name: info.name,
                display_name: info.display_name,
                aliases: info.aliases,
                board: format!("{width}x{height}"),
                width,
                height,
                kif_names: info.kif_names,
            }
        })
        .collect();
    args.format.render(&entries, |entries| {
        entries
            .iter()
            .map(|e| {
                format!(
                    "{:<10} {:<15} {:<5} aliases: {}; KIF: {}\n",
                    e.name,
                    e.display_name,
                    e.board,
                    e.aliases.join(", "),
                    e.kif_names.join(", ")
                )
            })
            .collect()
    })
}

/// The arguments of `kshogi usi`.
#[derive(Debug, Args)]
struct UsiArgs {
    #[arg(long, value_name = "V", value_parser = variant_select::parse_variant_name,
          help = format!("The variant to start with, one of {}; `setoption name USI_Variant` \
                          changes it [default: {}]", VariantKind::names(), VariantKind::ALL[0]))]
    variant: Option<VariantKind>,
    /// A database to play from, of the variant its header names [default: the default
    /// path of each variant, where the file is there]
    #[arg(long, value_name = "FILE")]
    db: Option<std::path::PathBuf>,
    /// The letters of the moves written, the `Dialect` option's default, for clients that
    /// cannot set options (lishogi's reads the reference engine's: fsf) [default: canonical
    /// in USI mode, fsf in UCI mode]
    #[arg(long, value_name = "D",
          value_parser = clap::builder::PossibleValuesParser::new(["canonical", "fsf"])
              .map(|s| s.parse::<kshogi_notation::Dialect>().expect("a listed dialect")))]
    dialect: Option<kshogi_notation::Dialect>,
}

fn perft(args: &PerftArgs) -> Result<String, CliError> {
    let threads = usize::from(args.threads);
    if args.suite.suite.is_some() {
        if args.position.is_some() {
            return Err(CliError::Suite(
                "--suite runs the suite's positions: give no POSITION or DEPTH".into(),
            ));
        }
        return perft_suite_cmd::run(&args.suite, args.variant.variant, threads, &args.engine);
    }
    let (position, depth) = (
        args.position.as_deref().unwrap_or_default(),
        args.depth.as_deref().unwrap_or_default(),
    );
    let depth = perft_cmd::parse_depth(depth)?;
    let kind = variant_select::select(args.variant.variant, position)?;
    if args.diff {
        return with_variant!(kind, V => perft_diff_cmd::run::<V>(position, depth, threads, &args.engine));
    }
    if !args.engine.engines.is_empty() {
        return Err(CliError::Suite(
            "--engine counts with --suite or --diff; without them `kshogi perft` counts with kshogi"
                .into(),
        ));
    }
    let stop = interrupt::stop_flag();
    let (pos, div) = (position, args.divide);
    with_variant!(kind, V => {
        perft_cmd::run_perft::<V>(pos, depth, div, threads, stop, args.dialect.dialect)?
            .render(args.format)
    })
}

/// Runs `kshogi usi` on standard input and output until `quit` or end of input.
/// The databases come from `--db FILE` (which must open, as a database of the variant its
/// header names), else from the default paths, one per variant the solver indexes, where a
/// usable file is there; a damaged file there is reported on stderr and the engine plays
/// that variant by search.
fn serve_usi(args: &UsiArgs) -> Result<String, CliError> {
    let databases = match &args.db {
        Some(path) => databases::open_named(path)?,
        None => databases::open_defaults(|path, e| {
            eprintln!(
                "warning: the database {} cannot be used ({e}); playing by search",
                path.display()
            );
        }),
    };
    usi::serve_stdio(&usi::Config {
        variant: args.variant,
        mode: usi::SearchMode::Threaded,
        databases,
        dialect: args.dialect,
    });
    Ok(String::new())
}

fn moves(args: &MovesArgs) -> Result<String, CliError> {
    let kind = variant_select::select(args.variant.variant, &args.position)?;
    let pos = args.position.as_str();
    with_variant!(kind, V => moves_cmd::run::<V>(pos, args.format, args.dialect.dialect))
}

/// A panic is a bug, but even then the user gets one `error:` line, not a backtrace.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("unknown cause");
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let msg = msg.replace('\n', " ");
        eprintln!("error: internal error{place}: {msg} (this is a bug in kshogi)");
    }));
}

/// The longest quotation (text between backticks) printed in an error, in characters.
const MAX_QUOTE_CHARS: usize = 60;
/// The longest error message printed, in characters; the rest is summarised.
const MAX_MESSAGE_CHARS: usize = 300;

/// An error message made safe for a terminal and kept to one readable line: control
/// characters (which the input may carry) are shown escaped, line breaks become spaces, a
/// quotation of a huge input (between backticks) is cut short, and so is the whole message.
fn printable(message: &str) -> String {
    let mut out = String::new();
    let mut in_quote = false;
    let mut quoted = 0usize;
    let mut skipped = 0usize;
    for c in message.chars() {
        if c == '`' {
            if in_quote && skipped > 0 {
                out.push_str(&format!("… ({skipped} more characters)"));
            }
            in_quote = !in_quote;
            quoted = 0;
            skipped = 0;
            out.push(c);
            continue;
        }
        if in_quote {
            quoted += 1;
            if quoted > MAX_QUOTE_CHARS {
                skipped += 1;
                continue;
            }
        }
        match c {
            '\n' => out.push(' '),
            c if c.is_control() => out.extend(c.escape_debug()),
            c => out.push(c),
        }
    }
    if in_quote && skipped > 0 {
        out.push_str(&format!("… ({skipped} more characters)"));
    }
    let total = out.chars().count();
    if total > MAX_MESSAGE_CHARS {
        let mut cut: String = out.chars().take(MAX_MESSAGE_CHARS).collect();
        cut.push_str(&format!(
            "… ({} more characters)",
            total - MAX_MESSAGE_CHARS
        ));
        return cut;
    }
    out
}

fn main() -> ExitCode {
    install_panic_hook();
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Perft(args) => perft(args),
        Command::PerftUnits(args) => units_cmd::run(args),
        Command::Moves(args) => moves(args),
        Command::Show(args) => show_cmd::run(args),
        Command::Convert(args) => convert_cmd::run(args),
        Command::Analyze(args) => analyze_cmd::run(args),
        Command::Review(args) => review_cmd::run(args),
        Command::Solve(args) => solve_cmd::run(args),
        Command::Usi(args) => serve_usi(args),
        Command::Variants(args) => variants(args),
        Command::Match(args) => match_cmd::run(args),
        Command::Selfplay(args) => selfplay_cmd::run(args),
        Command::Bench(args) => bench_cmd::run(args),
    };
    match result {
        Ok(output) => {
            let mut stdout = std::io::stdout().lock();
            match stdout
                .write_all(output.as_bytes())
                .and_then(|()| stdout.flush())
            {
                Ok(()) => ExitCode::SUCCESS,
                // A closed pipe (`kshogi moves ... | head -1`) is not an error.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: cannot write output: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(CliError::Interrupted { partial, message }) => {
            let mut stdout = std::io::stdout().lock();
            let _ = stdout
                .write_all(partial.as_bytes())
                .and_then(|()| stdout.flush());
            eprintln!("error: {}", printable(&message));
            ExitCode::from(interrupt::INTERRUPTED_EXIT as u8)
        }
        Err(CliError::Differs { report, message }) => {
            let mut stdout = std::io::stdout().lock();
            let _ = stdout
                .write_all(report.as_bytes())
                .and_then(|()| stdout.flush());
            eprintln!("error: {}", printable(&message));
            ExitCode::FAILURE
        }
        Err(e @ CliError::Usage(_)) => {
            eprintln!("error: {}", printable(&e.to_string()));
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("error: {}", printable(&e.to_string()));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod printable_tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_long_messages_cut() {
        assert_eq!(printable("a\u{1b}[2Jb\rc\nd"), "a\\u{1b}[2Jb\\rc d");
        let long = "x".repeat(1000);
        let p = printable(&long);
        assert!(p.starts_with(&"x".repeat(MAX_MESSAGE_CHARS)));
        assert!(p.ends_with("… (700 more characters)"), "{p}");
        let quoted = format!("move 1: `{}` is not a USI move", "y".repeat(500));
        assert_eq!(
            printable(&quoted),
            format!(
                "move 1: `{}… (440 more characters)` is not a USI move",
                "y".repeat(MAX_QUOTE_CHARS)
            )
        );
        assert_eq!(printable("column 3: bad"), "column 3: bad");
    }
}
