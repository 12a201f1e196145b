//! `kshogi convert`: a position and moves to a KIF record, and a KIF record to SFEN or USI.

use crate::error::CliError;
use crate::variant_select;
use clap::{Args, ValueEnum};
use kshogi_core::{Variant, VariantInfo};
use kshogi_notation::kif::{parse_kif_among, parse_kif_chosen, to_kif, KifRecord};
use kshogi_notation::{parse_game, to_sfen_in, Dialect};
use kshogi_registry::{kif_variant, with_variant, VariantKind};
use kshogi_report::review_files::read_input;

/// More help for `kshogi convert`, after the options.
pub const CONVERT_HELP: &str = "\
--to kif: INPUT is a POSITION (as for perft); prints a KIF record (UTF-8) of the position
and the moves of its moves list: the header `手合割：<variant>`, a board diagram when the
position is not the start position, the moves, and the result line when the game is over.

--to sfen: INPUT is a KIF file, or `-` for standard input (UTF-8 with or without BOM, or
Shift_JIS), or a POSITION; prints the SFEN of the position after the last move, or with
--all the SFEN before the first move and after every move, one per line.

--to usi: INPUT is a KIF file, `-` or a POSITION; prints one line `sfen <start SFEN> moves
<usi> ...` (without ` moves` when there are no moves; with --dialect pychess, `<FEN> moves
<uci> ...`, the form pychess-variants reads).

With --to sfen and --to usi a POSITION may be written in any dialect kshogi reads (the
reference engine's SFEN and moves, a pychess-variants FEN), so `convert --to sfen
--dialect fsf POSITION` rewrites a position in another dialect. An INPUT that is an
existing file, or `-`, is read as a file (a file of one line that is no KIF header holds a
POSITION).

The variant of a KIF record comes from its `手合割` header (`kshogi variants` lists the
names read); --variant is needed when the header is missing, and overrides a `手合割：平手`
header (standard shogi's even game, which lishogi writes for Dobutsu records too) with a
warning on stderr; a header naming another variant stays an error.
An error in a KIF record is reported as `error: line <N>: ...`. At most 64 MiB of input is
read.";

/// What `kshogi convert` produces.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// A KIF record, from a POSITION.
    Kif,
    /// SFEN, from a KIF record or a POSITION.
    Sfen,
    /// A USI position (`sfen ... moves ...`), from a KIF record or a POSITION.
    Usi,
}

/// The arguments of `kshogi convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The output format
    #[arg(long, value_name = "FORMAT", value_enum)]
    pub to: Target,
    #[arg(long, value_name = "V", value_parser = variant_select::parse_variant_name,
          help = format!("The variant: {} [default: from the board of POSITION, or from the \
                          `手合割` header of a KIF record]", VariantKind::names()))]
    pub variant: Option<VariantKind>,
    /// With --to sfen: print the SFEN before the first move and after every move
    #[arg(long)]
    pub all: bool,
    /// With --to sfen and --to usi: the dialect of the SFEN and moves written
    #[command(flatten)]
    pub dialect: crate::DialectArg,
    /// A POSITION for --to kif; a KIF file (or `-` for standard input) or a POSITION for
    /// --to sfen and usi
    #[arg(value_name = "INPUT")]
    pub input: String,
}

/// Runs `kshogi convert`.
pub fn run(args: &ConvertArgs) -> Result<String, CliError> {
    check_all(args);
    match args.to {
        Target::Kif => {
            let result = variant_select::select(args.variant, &args.input)
                .and_then(|kind| with_variant!(kind, V => position_to_kif::<V>(&args.input)));
            explain_file_as_position(result, &args.input)
        }
        Target::Sfen | Target::Usi => {
            let (input, _) = read_input(&args.input)?;
            if !input.kif {
                let kind = variant_select::select(args.variant, &input.text)?;
                return with_variant!(kind, V => position_to::<V>(args, &input.text));
            }
            let kind = match args.variant {
                Some(kind) => kind,
                None => kif_variant(&input.text)?,
            };
            let chosen = args.variant.is_some();
            with_variant!(kind, V => convert_kif::<V>(args, &input.text, chosen, VariantKind::infos()))
        }
    }
}

/// Runs `convert` in the program of the one variant `V` ([`crate::run_single`]): a
/// POSITION is `V`'s, and a KIF record is read as `V`'s (`chosen`: `--variant` was given,
/// which overrides a `手合割：平手` header as in `kshogi convert`). A `手合割` header naming
/// one of kshogi's variants other than `V` is an error naming it.
pub fn run_single<V: Variant>(args: &ConvertArgs, chosen: bool) -> Result<String, CliError> {
    check_all(args);
    match args.to {
        Target::Kif => explain_file_as_position(position_to_kif::<V>(&args.input), &args.input),
        Target::Sfen | Target::Usi => {
            let (input, _) = read_input(&args.input)?;
            if input.kif {
                convert_kif::<V>(args, &input.text, chosen, VariantKind::infos())
            } else {
                position_to::<V>(args, &input.text)
            }
        }
    }
}

/// `--all` without `--to sfen`: a usage error, reported like the argument parser's own
/// (exit status 2).
fn check_all(args: &ConvertArgs) {
    if args.all && args.to != Target::Sfen {
        clap::Error::raw(
            clap::error::ErrorKind::ArgumentConflict,
            "--all applies only to --to sfen\n",
        )
        .exit();
    }
}

/// A file name given as the position: says so, rather than report it as an SFEN.
fn explain_file_as_position(
    result: Result<String, CliError>,
    input: &str,
) -> Result<String, CliError> {
    result.map_err(|e| {
        if std::path::Path::new(input).is_file() {
            CliError::FileAsPosition(format!(
                "`{input}` is a file, but convert --to kif takes a POSITION (an SFEN and its \
                 moves); to read a KIF file use convert --to sfen FILE or --to usi FILE"
            ))
        } else {
            e
        }
    })
}

/// `--to sfen` or `--to usi` of a POSITION (`startpos moves ...`, an SFEN and its moves, in
/// any dialect kshogi reads): what the same game's KIF record would give.
fn position_to<V: Variant>(args: &ConvertArgs, position: &str) -> Result<String, CliError> {
    let game = parse_game::<V>(position)?;
    let record = KifRecord::from_game(&game);
    Ok(record_lines(
        &record,
        args.to == Target::Usi,
        args.all,
        args.dialect.dialect,
    ))
}

/// The output of `--to usi` (`usi`), `--to sfen --all` (`all`) or `--to sfen` for a record.
fn record_lines<V: Variant>(
    record: &KifRecord<V>,
    usi: bool,
    all: bool,
    dialect: Dialect,
) -> String {
    let mut lines = if usi {
        vec![record.usi_line(dialect)]
    } else if all {
        record.sfens(dialect)
    } else {
        vec![to_sfen_in(record.position(), dialect)]
    };
    lines.push(String::new());
    lines.join("\n")
}

/// `--to sfen` or `--to usi` of the KIF record `text`, read as `V`'s among `known`.
fn convert_kif<V: Variant>(
    args: &ConvertArgs,
    text: &str,
    chosen: bool,
    known: &[VariantInfo],
) -> Result<String, CliError> {
    let usi = args.to == Target::Usi;
    kif_to::<V>(text, usi, args.all, args.dialect.dialect, chosen, known)
}

/// The KIF record of a `POSITION` argument (position and moves list).
pub fn position_to_kif<V: Variant>(position: &str) -> Result<String, CliError> {
    let game = parse_game::<V>(position)?;
    Ok(to_kif(&KifRecord::from_game(&game)))
}

/// Reads a KIF record of variant `V` and prints its USI form (`usi`), or the SFEN of its
/// final position, or (`all`) of every position, in `dialect`. `chosen`: the variant was
/// named with `--variant`, which then overrides a `手合割：平手` header (with a warning on
/// stderr). `known`: the other variants a `手合割` header may name, an error then (kshogi's
/// registered variants, [`VariantKind::infos`]; a program of a variant outside kshogi
/// passes whatever list it knows).
pub fn kif_to<V: Variant>(
    text: &str,
    usi: bool,
    all: bool,
    dialect: Dialect,
    chosen: bool,
    known: &[VariantInfo],
) -> Result<String, CliError> {
    let record = if chosen {
        let (record, overridden) = parse_kif_chosen::<V>(text, known)?;
        if let Some(h) = overridden {
            eprintln!(
                "warning: line {}: `手合割：{}` is standard shogi's even game; read as {} \
                 because --variant says so",
                h.line,
                h.value,
                V::DISPLAY_NAME
            );
        }
        record
    } else {
        parse_kif_among::<V>(text, known)?
    };
    Ok(record_lines(&record, usi, all, dialect))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_rules_kyoto::Kyoto;

    #[test]
    fn kyoto_position_to_kif_and_back() {
        // Black's pawn 1e goes to 1d and turns into a rook; White's pawn 5a goes to 5b and
        // turns into a rook too.
        let kif = position_to_kif::<Kyoto>("startpos moves 1e1d+ 5a5b+").unwrap();
        assert!(kif.contains("手合割：京都将棋\n"), "{kif}");
        assert!(kif.contains("   1 １四歩成(15)\n"), "{kif}");
        assert!(kif.contains("   2 ５二歩成(51)\n"), "{kif}");
        let usi = kif_to::<Kyoto>(
            &kif,
            true,
            false,
            Dialect::Canonical,
            false,
            VariantKind::infos(),
        )
        .unwrap();
        assert_eq!(usi, "sfen pgkst/5/5/5/TSKGP b - 1 moves 1e1d+ 5a5b+\n");
        let all = kif_to::<Kyoto>(
            &kif,
            false,
            true,
            Dialect::Canonical,
            false,
            VariantKind::infos(),
        )
        .unwrap();
        assert_eq!(
            all,
            "pgkst/5/5/5/TSKGP b - 1\npgkst/5/5/4R/TSKG1 w - 2\n1gkst/r4/5/4R/TSKG1 b - 3\n"
        );
    }
}
