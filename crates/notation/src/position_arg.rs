//! The `POSITION` argument: `startpos` or an SFEN, optionally followed by `moves <usi>...`.

use crate::sfen::{parse_sfen, words, SfenError};
use crate::usi::{parse_usi, UsiError};
use kshogi_core::Variant;
use kshogi_core::{Game, GameError, Outcome};

/// Why a `POSITION` argument was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionArgError {
    /// The position part is wrong.
    #[error(transparent)]
    Sfen(#[from] SfenError),
    /// A move of the `moves` list is wrong.
    #[error("column {column}: move {number}: {error}")]
    Move {
        /// 1-based number of the move in the list.
        number: usize,
        /// Column of the move text.
        column: usize,
        /// What is wrong with it.
        error: UsiError,
    },
    /// A move comes after the game has ended.
    #[error("column {column}: move {number} `{text}` comes after the game ended ({outcome})")]
    GameOver {
        /// 1-based number of the move in the list.
        number: usize,
        /// Column of the move text.
        column: usize,
        /// The move text.
        text: String,
        /// How the game ended.
        outcome: Outcome,
    },
    /// `moves` with nothing after it is fine, but `moves` must be a word of its own.
    #[error("column {0}: `moves` must be followed by USI moves")]
    Moves(usize),
}

/// Parses a `POSITION` argument into a game: the position, then every listed move played
/// with the variant's rules (repetition included).
pub fn parse_game<V: Variant>(text: &str) -> Result<Game<V>, PositionArgError> {
    let ws = words(text);
    let split = ws.iter().position(|w| w.1 == "moves");
    let (pos_text, moves) = match split {
        Some(i) => {
            // Byte offset of the `moves` word: find it by walking columns.
            let byte = text
                .char_indices()
                .nth(ws[i].0 - 1)
                .map(|(b, _)| b)
                .unwrap_or(text.len());
            (&text[..byte], &ws[i + 1..])
        }
        None => (text, &ws[ws.len()..]),
    };
    let start = parse_sfen::<V>(pos_text)?;
    let mut game = Game::new(start);
    for (n, &(column, mv_text)) in moves.iter().enumerate() {
        let number = n + 1;
        if let Some(outcome) = game.outcome() {
            return Err(PositionArgError::GameOver {
                number,
                column,
                text: mv_text.to_string(),
                outcome,
            });
        }
        let mv = parse_usi(game.position(), mv_text).map_err(|error| PositionArgError::Move {
            number,
            column,
            error,
        })?;
        match game.play(mv) {
            Ok(()) => {}
            Err(GameError::GameOver(outcome)) => {
                return Err(PositionArgError::GameOver {
                    number,
                    column,
                    text: mv_text.to_string(),
                    outcome,
                })
            }
            Err(e @ (GameError::IllegalMove | GameError::PlyLimit)) => {
                return Err(PositionArgError::Move {
                    number,
                    column,
                    error: UsiError::Illegal {
                        text: mv_text.to_string(),
                        reason: e.to_string(),
                        why: None,
                    },
                })
            }
        }
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::to_sfen;
    use kshogi_rules_kyoto::Kyoto;

    #[test]
    fn startpos_with_moves() {
        let g = parse_game::<Kyoto>("startpos moves 1e1d+ 5a5b+").unwrap();
        assert_eq!(g.moves().len(), 2);
        assert_eq!(to_sfen(g.position()), "1gkst/r4/5/4R/TSKG1 b - 3");
    }

    #[test]
    fn sfen_with_moves_and_errors_name_the_move() {
        let g = parse_game::<Kyoto>("sfen pgkst/5/5/5/TSKGP b - 1 moves 1e1d");
        assert!(g.is_ok());
        let e = parse_game::<Kyoto>("pgkst/5/5/5/TSKGP b - 1 moves 1e1d+ 1e1d").unwrap_err();
        match e {
            PositionArgError::Move { number, column, .. } => {
                assert_eq!(number, 2);
                assert_eq!(column, 37);
            }
            other => panic!("unexpected {other:?}"),
        }
        assert!(parse_game::<Kyoto>("startpos moves").is_ok());
    }

    #[test]
    fn fen_and_underscore_forms_before_moves() {
        // After 1e1d+ the pawn on 1e stands on 1d as a rook; White to move at ply 2.
        let g = parse_game::<Kyoto>("p+nks+l/5/5/5/+LSK+NP[] w - - 0 1 moves 1e1d+").unwrap();
        assert_eq!(to_sfen(g.position()), "pgkst/5/5/4R/TSKG1 w - 2");
        let g = parse_game::<Kyoto>("pgkst/5/5/5/TSKGP_b_-_1 moves 1e1d+").unwrap();
        assert_eq!(to_sfen(g.position()), "pgkst/5/5/4R/TSKG1 w - 2");
        let e = parse_game::<Kyoto>("p+nks+l/5/5/5/+LSK+NP[] b - - 0 1 moves 1e1d+").unwrap_err();
        match e {
            PositionArgError::Move { number, column, .. } => {
                assert_eq!((number, column), (1, 41));
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}
