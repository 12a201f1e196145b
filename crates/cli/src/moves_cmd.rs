//! `kshogi moves`: the legal moves of a position, in USI (canonical or the Fsf dialect).

use crate::error::CliError;
use crate::format::OutputFormat;
use kshogi_core::Variant;
use kshogi_notation::{move_to_usi_in, parse_game, Dialect, PositionArgError};

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
pub fn run<V: Variant>(
    position: &str,
    format: OutputFormat,
    dialect: Dialect,
) -> Result<String, CliError> {
    let list = legal_moves_in::<V>(position, dialect)?;
    format.render(&list, |list| {
        list.iter().map(|m| format!("{m}\n")).collect()
    })
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
        let text = run::<Micro>("startpos", OutputFormat::Text, Dialect::Canonical).unwrap();
        assert_eq!(text.lines().count(), 9);
        let json: Vec<String> = serde_json::from_str(
            &run::<Micro>("startpos", OutputFormat::Json, Dialect::Canonical).unwrap(),
        )
        .unwrap();
        assert_eq!(json, texts);
    }
}
