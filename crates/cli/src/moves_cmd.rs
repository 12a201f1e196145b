//! `kshogi moves`: the legal moves of a position, in canonical USI.

use crate::error::CliError;
use kshogi_core::Variant;
use kshogi_notation::serde_support::UsiMove;
use kshogi_notation::{move_to_usi, parse_game, PositionArgError};

/// The legal moves of the position given by the `POSITION` argument, sorted by their
/// canonical USI text. A game that is over (checkmate, king entry, a repetition reached by
/// the `moves` list, ...) has none.
pub fn legal_moves<V: Variant>(position: &str) -> Result<Vec<UsiMove<V>>, PositionArgError> {
    let game = parse_game::<V>(position)?;
    if game.outcome().is_some() {
        return Ok(Vec::new());
    }
    let mut moves: Vec<(String, UsiMove<V>)> = game
        .position()
        .legal_moves()
        .iter()
        .map(|&mv| (move_to_usi::<V>(mv), UsiMove::new(mv)))
        .collect();
    moves.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Ok(moves.into_iter().map(|(_, mv)| mv).collect())
}

/// Runs `kshogi moves` for variant `V`: the text or (`json`) the JSON output.
pub fn run<V: Variant>(position: &str, json: bool) -> Result<String, CliError> {
    let list = legal_moves::<V>(position)?;
    if json {
        to_json(&list)
    } else {
        Ok(to_text(&list))
    }
}

/// The text output: one move per line (nothing at all when there is no move).
pub fn to_text<V: Variant>(moves: &[UsiMove<V>]) -> String {
    let mut out = String::new();
    for m in moves {
        out.push_str(&m.to_string());
        out.push('\n');
    }
    out
}

/// The `--json` output: one JSON array of strings on one line.
pub fn to_json<V: Variant>(moves: &[UsiMove<V>]) -> Result<String, CliError> {
    let mut s = serde_json::to_string(moves)?;
    s.push('\n');
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_rules_micro::Micro;

    #[test]
    fn micro_start_has_nine_sorted_moves() {
        // 9 = perft depth 1 of the Micro start in shared/reference/perft.tsv.
        let moves = legal_moves::<Micro>("startpos").unwrap();
        assert_eq!(moves.len(), 9);
        let texts: Vec<String> = moves.iter().map(ToString::to_string).collect();
        assert!(texts.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(to_text(&moves).lines().count(), 9);
        assert_eq!(to_text::<Micro>(&[]), "");
        assert_eq!(to_json::<Micro>(&[]).unwrap(), "[]\n");
        let json: Vec<String> = serde_json::from_str(&to_json(&moves).unwrap()).unwrap();
        assert_eq!(json, texts);
    }
}
