//! `kshogi moves`: the legal moves of a position, in canonical USI.

use crate::error::CliError;
use kshogi_notation::{move_to_usi, parse_game, PositionArgError, VariantNotation};

/// The legal moves of the position given by the `POSITION` argument, as canonical USI
/// texts sorted by their text. A game that is over (checkmate, king entry, a repetition
/// reached by the `moves` list, ...) has none.
pub fn legal_moves<V: VariantNotation>(position: &str) -> Result<Vec<String>, PositionArgError> {
    let game = parse_game::<V>(position)?;
    if game.outcome().is_some() {
        return Ok(Vec::new());
    }
    let mut texts: Vec<String> = game
        .position()
        .legal_moves()
        .iter()
        .map(|&mv| move_to_usi::<V>(mv))
        .collect();
    texts.sort_unstable();
    Ok(texts)
}

/// The text output: one move per line (nothing at all when there is no move).
pub fn to_text(moves: &[String]) -> String {
    let mut out = String::new();
    for m in moves {
        out.push_str(m);
        out.push('\n');
    }
    out
}

/// The `--json` output: one JSON array of strings on one line.
pub fn to_json(moves: &[String]) -> Result<String, CliError> {
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
        assert!(moves.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(to_text(&moves).lines().count(), 9);
        assert_eq!(to_text(&[]), "");
        assert_eq!(to_json(&[]).unwrap(), "[]\n");
    }
}
