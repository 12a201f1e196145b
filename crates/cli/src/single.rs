//! The command line of a program that plays one variant of its own ([`run_single`]): the
//! commands of `kshogi` whose bodies are generic over the variant, with the variant fixed.

use crate::{
    analyze_cmd, convert_cmd, error, finish, match_cmd, moves_cmd, perft_cmd, review_cmd, show_cmd,
    usi_cmd,
};
use clap::builder::PossibleValuesParser;
use clap::Subcommand;
use kshogi_registry::Registered;
use std::ffi::OsString;
use std::process::ExitCode;

/// The commands of a one-variant program.
#[derive(Debug, Subcommand)]
enum SingleCommand {
    /// Count the leaves of the legal-move tree of a position (perft).
    Perft(perft_cmd::PerftArgs),
    /// List the legal moves of a position in canonical USI, sorted.
    Moves(moves_cmd::MovesArgs),
    /// Print the board diagram of a position (or a JSON summary of it).
    Show(show_cmd::ShowArgs),
    /// Convert between a position with moves and a KIF game record (KIF, SFEN or USI).
    #[command(after_long_help = convert_cmd::CONVERT_HELP)]
    Convert(convert_cmd::ConvertArgs),
    /// Analyse a position: status, legal moves and the best lines with their scores.
    Analyze(analyze_cmd::AnalyzeArgs),
    /// Review a recorded game: every move judged, with an evaluation graph.
    Review(review_cmd::ReviewArgs),
    /// Run as a USI engine on standard input and output.
    Usi(usi_cmd::UsiArgs),
    /// Play a match between two USI engines (this program's own: `PROGRAM usi`), refereed
    /// by the variant's rules.
    #[command(after_long_help = SINGLE_MATCH_HELP)]
    Match(Box<match_cmd::MatchArgs>),
}

/// The help of `match` after the options: `kshogi match`'s, for this program's variant.
const SINGLE_MATCH_HELP: &str = "\
As `kshogi match` (see its help and docs/strength.md), in this program's variant: --variant
may be left out. This program's own engine is its `usi` command, e.g. --engine-a 'PROGRAM
usi' (PROGRAM: the path of this program). `--merge DIR...` reads only results files of
this variant.";

/// The names of the commands, each of which has a `--variant` option.
const COMMANDS: &[&str] = &[
    "perft", "moves", "show", "convert", "analyze", "review", "usi", "match",
];

/// The command line of `program`, a program that plays the one variant `V` (a type of a
/// crate outside kshogi that implements [`Registered`], or a registered variant): it
/// parses `args` (the arguments after the program's name, such as
/// `std::env::args_os().skip(1)`) and runs `perft`, `moves`, `show`, `convert`, `analyze`,
/// `review`, `usi` or `match` exactly as `kshogi` runs them for a variant it has chosen: the same options, output,
/// errors and exit status (0, 1 for wrong input, 2 for a usage error, 130 after Ctrl-C). A
/// `POSITION` is read as `V`'s (`startpos` is `V`'s start); `--variant` may be given as
/// `V`'s name or an alias, and any other name is a usage error. What needs kshogi's list
/// of variants is left out: `perft --suite` (a variant's own rows run in its tests with
/// `kshogi_perft_suite`) and `--db` (kshogi solves no database of an outside variant).
///
/// A variant's `main.rs` (`examples/out-of-tree-variant/src/main.rs`), here with the first
/// registered variant standing in for the variant's own type:
///
/// ```no_run
/// use kshogi_registry::{with_variant, VariantKind};
///
/// fn main() -> std::process::ExitCode {
///     let args = std::env::args_os().skip(1);
///     with_variant!(VariantKind::ALL[0], MyVariant => {
///         kshogi_cli::run_single::<MyVariant>("my-variant", args)
///     })
/// }
/// ```
pub fn run_single<V: Registered>(
    program: &'static str,
    args: impl IntoIterator<Item = impl Into<OsString>>,
) -> ExitCode {
    error::install_panic_hook();
    let argv = std::iter::once(OsString::from(program)).chain(args.into_iter().map(Into::into));
    let mut matches = match command::<V>(program).try_get_matches_from(argv) {
        Ok(m) => m,
        Err(e) => return usage_exit(&e),
    };
    // `--variant` was checked against `V`'s names; the commands' own field (a registered
    // variant) stays empty.
    let Some((name, mut sub)) = matches.remove_subcommand() else {
        // The parser requires a command.
        return ExitCode::from(2);
    };
    let chosen = sub.remove_one::<String>("variant").is_some();
    let result = match name.as_str() {
        "perft" => parse(&sub).map(|a| perft_cmd::run_single::<V>(&a)),
        "moves" => parse(&sub).map(|a| moves_cmd::run_single::<V>(&a)),
        "show" => parse(&sub).map(|a| show_cmd::run_single::<V>(&a)),
        "convert" => parse(&sub).map(|a| convert_cmd::run_single::<V>(&a, chosen)),
        "analyze" => parse(&sub).map(|a| analyze_cmd::run_single::<V>(&a)),
        "review" => parse(&sub).map(|a| review_cmd::run_single::<V>(&a)),
        "usi" => parse(&sub).map(|a| usi_cmd::run_single::<V>(&a)),
        "match" => parse(&sub).map(|a| match_cmd::run_single::<V>(&a)),
        // The parser knows no other command.
        _ => return ExitCode::from(2),
    };
    match result {
        Ok(result) => finish(result),
        Err(e) => usage_exit(&e),
    }
}

/// A command's arguments from its matches.
fn parse<A: clap::FromArgMatches>(matches: &clap::ArgMatches) -> Result<A, clap::Error> {
    A::from_arg_matches(matches)
}

/// The parser's error (or help) printed, as `kshogi` prints it: exit status 2 for an
/// error, 0 for `--help`.
fn usage_exit(e: &clap::Error) -> ExitCode {
    let _ = e.print();
    ExitCode::from(if e.use_stderr() { 2 } else { 0 })
}

/// The argument parser of the program: the commands of [`SingleCommand`], each with its
/// `--variant` taking only `V`'s name and aliases (in any case).
fn command<V: Registered>(program: &'static str) -> clap::Command {
    let (w, h) = (V::GEOMETRY.width, V::GEOMETRY.height);
    let mut cmd = SingleCommand::augment_subcommands(clap::Command::new(program))
        .about(format!(
            "Perft, legal moves, diagrams, analysis and a USI engine for {} ({w}x{h}), \
             with kshogi.",
            V::DISPLAY_NAME
        ))
        .subcommand_required(true)
        .arg_required_else_help(true);
    let names: Vec<&'static str> = std::iter::once(V::NAME)
        .chain(V::ALIASES.iter().copied())
        .collect();
    let help = format!(
        "The variant: {} (the only one this program plays) [default: {}]",
        V::NAME,
        V::NAME
    );
    for name in COMMANDS {
        let (names, help) = (names.clone(), help.clone());
        cmd = cmd.mut_subcommand(*name, move |c| {
            // A new argument of the same name: `kshogi match` requires its `--variant`,
            // which here has a default.
            c.mut_arg("variant", move |a| {
                clap::Arg::new(a.get_id().clone())
                    .long("variant")
                    .value_name("V")
                    .value_parser(PossibleValuesParser::new(names))
                    .ignore_case(true)
                    .help(help)
            })
        });
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_rules_micro::Micro;

    fn parse(args: &[&str]) -> Result<clap::ArgMatches, clap::Error> {
        command::<Micro>("micro-only")
            .try_get_matches_from(std::iter::once("micro-only").chain(args.iter().copied()))
    }

    #[test]
    fn variant_takes_only_the_programs_variant() {
        // Micro's name and aliases (crates/rules-micro), in any case.
        for name in ["micro", "MicroShogi", "micro-shogi"] {
            assert!(
                parse(&["moves", "--variant", name, "startpos"]).is_ok(),
                "{name}"
            );
        }
        let e = parse(&["perft", "--variant", "kyoto", "startpos", "1"]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::InvalidValue);
        assert!(e.to_string().contains("micro"), "{e}");
        // Commands of `kshogi` that need its list of variants are not there.
        let e = parse(&["variants"]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::InvalidSubcommand);
    }

    #[test]
    fn the_commands_arguments_read_without_a_variant() {
        let mut m = parse(&["perft", "--variant", "micro", "--divide", "startpos", "1"]).unwrap();
        let (name, mut sub) = m.remove_subcommand().unwrap();
        assert_eq!(name, "perft");
        let _ = sub.remove_one::<String>("variant");
        let args: perft_cmd::PerftArgs = super::parse(&sub).unwrap();
        // The Micro start has 9 legal moves (perft/reference.tsv, depth 1): the divide
        // lists each with 1 leaf, then the total.
        let text = perft_cmd::run_single::<Micro>(&args).unwrap();
        assert_eq!(
            text.lines().filter(|l| l.ends_with(": 1")).count(),
            9,
            "{text}"
        );
        assert!(text.contains("\nnodes 9\n"), "{text}");
    }
}
