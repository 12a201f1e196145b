//! `kshogi moves`: the legal moves of a position, in USI (canonical or the Fsf dialect).

use crate::error::CliError;
use crate::format::OutputFormat;
use crate::{variant_select, DialectArg, VariantArg};
use clap::Args;
use kshogi_core::Variant;
use kshogi_notation::{move_to_usi_in, parse_game, Dialect, PositionArgError};
use kshogi_registry::with_variant;

/// The legal moves of the position as USI text in `dialect`, sorted by that text.
pub fn legal_moves_in<V: Variant>(
    position: &str,
    dialect: Dialect,
) -> Result<Vec<String>, PositionArgError> {
    let game = parse_game::<V>(position)?;
    if game.outcome().is_some() {
        return Ok(Vec::new());
    }
    let pos = game.position();
    let mut moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&mv| move_to_usi_in(pos, mv, dialect))
        .collect();
    moves.sort_unstable();
    Ok(moves)
}

/// Runs `kshogi moves` for variant `V`: the text or (`json`) the JSON output, the moves
/// written in `dialect`.
pub fn moves<V: Variant>(
    position: &str,
    format: OutputFormat,
    dialect: Dialect,
) -> Result<String, CliError> {
    let list = legal_moves_in::<V>(position, dialect)?;
    format.render(&list, |list| {
        list.iter().map(|m| format!("{m}\n")).collect()
    })
}

#[derive(Debug, Args)]
/// The arguments of `kshogi moves`.
pub struct MovesArgs {
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

/// Runs `kshogi moves`: picks the variant and lists the moves.
pub fn run(args: &MovesArgs) -> Result<String, CliError> {
    let kind = variant_select::select(args.variant.variant, &args.position)?;
    let pos = args.position.as_str();
    with_variant!(kind, V => moves::<V>(pos, args.format, args.dialect.dialect))
}

/// Runs `moves` in the program of the one variant `V` ([`crate::run_single`]).
pub fn run_single<V: Variant>(args: &MovesArgs) -> Result<String, CliError> {
    moves::<V>(&args.position, args.format, args.dialect.dialect)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_rules_micro::Micro;

    #[test]
    fn micro_start_has_nine_sorted_moves() {
        // 9 = perft depth 1 of the Micro start in shared/reference/perft.tsv.
        let texts = legal_moves_in::<Micro>("startpos", Dialect::Canonical).unwrap();
        assert_eq!(texts.len(), 9);
        assert!(texts.windows(2).all(|w| w[0] < w[1]));
        let text = moves::<Micro>("startpos", OutputFormat::Text, Dialect::Canonical).unwrap();
        assert_eq!(text.lines().count(), 9);
        let json: Vec<String> = serde_json::from_str(
            &moves::<Micro>("startpos", OutputFormat::Json, Dialect::Canonical).unwrap(),
        )
        .unwrap();
        assert_eq!(json, texts);
    }
}
