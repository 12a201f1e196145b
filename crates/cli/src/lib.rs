//! # kshogi-cli
//!
//! The `kshogi` command line for the small shogi variants of kshogi (every variant of the
//! registry, `kshogi variants`): `kshogi perft` counts the leaves of the legal-move tree, `kshogi moves`
//! lists the legal moves of a position, `kshogi show` draws it, `kshogi convert` reads and
//! writes KIF, `kshogi analyze` searches it, `kshogi review` judges every move of a game and
//! `kshogi usi` is a USI engine. Its interface
//! is stable: scripts rely on it. (`kshogi selfplay`, hidden from the help, plays engine
//! matches for `cargo xtask match`.) The binary's `main` is [`kshogi_main`].
//!
//! The same commands serve a variant outside kshogi: [`run_single`] is the command line of
//! a program that plays one variant of its own (any type implementing
//! [`kshogi_registry::Registered`]), with `perft`, `moves`, `show`, `analyze` and `usi`
//! running the very bodies `kshogi` runs after choosing a variant.
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
mod db_path;
mod error;
mod format;
mod interrupt;
mod match_cmd;
mod moves_cmd;
mod perft_cmd;
mod perft_diff_cmd;
mod perft_engine;
mod perft_suite_cmd;
mod progress;
mod review_cmd;
mod selfplay_cmd;
mod show_cmd;
mod single;
mod solve_cmd;
mod svg_out;
mod units_cmd;
mod usi_cmd;
mod variant_select;
mod variants_cmd;

use clap::builder::TypedValueParser as _;
use clap::{Args, Parser, Subcommand};
use error::CliError;
use kshogi_registry::VariantKind;
use kshogi_usi as usi;
use std::io::Write as _;
use std::process::ExitCode;

pub use single::run_single;

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
        after_long_help = format!("{}\n\n{}\n\n{EXIT_HELP}", position_help(), perft_cmd::PERFT_HELP)
    )]
    Perft(perft_cmd::PerftArgs),
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
    Moves(moves_cmd::MovesArgs),
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
    Usi(usi_cmd::UsiArgs),
    /// List the variants kshogi knows, with their names, aliases and board sizes.
    #[command(
        long_about = "List the variants kshogi knows: the name to give --variant and \
                      USI_Variant, other names accepted, the board (files x ranks) and the \
                      KIF handicap (手合割) names read and written.\nJSON output (--json): \
                      one array of objects {\"name\", \"display_name\", \"aliases\", \
                      \"board\", \"width\", \"height\", \"kif_names\"}."
    )]
    Variants(variants_cmd::VariantsArgs),
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

/// `--variant V`, shared by the commands that read a position.
#[derive(Debug, Args)]
pub(crate) struct VariantArg {
    #[arg(long, value_name = "V", value_parser = variant_select::parse_variant_name,
          help = variant_select::variant_help())]
    pub(crate) variant: Option<VariantKind>,
}

/// The `kshogi` command line on the process's arguments: what the `kshogi` binary's `main`
/// does (parse, run the command, print its output, return the exit status).
pub fn kshogi_main() -> ExitCode {
    error::install_panic_hook();
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Perft(args) => perft_cmd::run(args),
        Command::PerftUnits(args) => units_cmd::run(args),
        Command::Moves(args) => moves_cmd::run(args),
        Command::Show(args) => show_cmd::run(args),
        Command::Convert(args) => convert_cmd::run(args),
        Command::Analyze(args) => analyze_cmd::run(args),
        Command::Review(args) => review_cmd::run(args),
        Command::Solve(args) => solve_cmd::run(args),
        Command::Usi(args) => usi_cmd::run(args),
        Command::Variants(args) => variants_cmd::run(args),
        Command::Match(args) => match_cmd::run(args),
        Command::Selfplay(args) => selfplay_cmd::run(args),
        Command::Bench(args) => bench_cmd::run(args),
    };
    finish(result)
}

/// Prints a command's output (or its error) and gives the exit status: 0, 1 for wrong
/// input, 2 for a usage error, 130 after Ctrl-C.
fn finish(result: Result<String, CliError>) -> ExitCode {
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
            eprintln!("error: {}", error::printable(&message));
            ExitCode::from(interrupt::INTERRUPTED_EXIT as u8)
        }
        Err(CliError::Differs { report, message }) => {
            let mut stdout = std::io::stdout().lock();
            let _ = stdout
                .write_all(report.as_bytes())
                .and_then(|()| stdout.flush());
            eprintln!("error: {}", error::printable(&message));
            ExitCode::FAILURE
        }
        Err(e @ CliError::Usage(_)) => {
            eprintln!("error: {}", error::printable(&e.to_string()));
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("error: {}", error::printable(&e.to_string()));
            ExitCode::FAILURE
        }
    }
}
