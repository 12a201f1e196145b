//! USI moves: `7g7f`, `2b3a+`, `T*3a`, and the reference engine's dialect.

use crate::illegal::{describe_illegal, Wording};
use crate::sfen::{face_letters, is_promoted_face, lookup_piece, piece_letters, Dialect};
use kshogi_core::{Color, FlipRequest, IllegalMove, Kind, Move, MoveRequest, Piece, Position};
use kshogi_core::{Square, Variant};

/// Why a USI move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UsiError {
    /// The text is not a move in USI form.
    #[error("`{text}` is not a USI move: {reason}")]
    Syntax {
        /// The text.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// The text is a well-formed move that is not legal in the position.
    #[error("`{text}` is not legal here: {reason}")]
    Illegal {
        /// The text.
        text: String,
        /// Why, in words.
        reason: String,
        /// Why, as core's typed reason, when the move was checked against a position
        /// ([`Position::resolve`]); `None` for a reason found otherwise (a game rule such as
        /// the ply limit, or a check without a position).
        why: Option<IllegalMove>,
    },
}

impl UsiError {
    /// Core's typed reason why the move is not legal, if it has one.
    pub fn reason(&self) -> Option<&IllegalMove> {
        match self {
            UsiError::Illegal { why, .. } => why.as_ref(),
            UsiError::Syntax { .. } => None,
        }
    }
}

/// The canonical USI text of a move: origin, destination and `+` when the piece flips or
/// promotes; drops as `<face letter>*<square>` (uppercase).
pub fn move_to_usi<V: Variant>(mv: Move) -> String {
    let g = V::GEOMETRY;
    match mv.from() {
        Some(from) => format!(
            "{}{}{}",
            g.name(from),
            g.name(mv.to()),
            if mv.is_flip() { "+" } else { "" }
        ),
        None => {
            let kind = mv.drop_kind().unwrap_or(Kind(0));
            format!(
                "{}*{}",
                piece_letters::<V>(Piece::new(Color::Black, kind)),
                g.name(mv.to())
            )
        }
    }
}

/// The USI text of a legal move of `pos` in `dialect`. [`Dialect::Canonical`] is
/// [`move_to_usi`]. [`Dialect::Fsf`] writes drops by the face's reference-engine letters
/// (`+L*3a` for a Kyoto tokin) and, on a move that flips, `-` instead of `+` when the piece
/// turns from a face the dialect writes promoted back to one it writes unpromoted (a Kyoto
/// rook, `+P`, becoming a pawn). The position is needed for that: a move does not say which
/// piece moves.
///
/// [`Dialect::Pychess`] is the [`Dialect::Fsf`] text in UCI coordinates (`e1e2+`, `+L@c3`),
/// as pychess-variants writes moves.
pub fn move_to_usi_in<V: Variant>(pos: &Position<V>, mv: Move, dialect: Dialect) -> String {
    if dialect == Dialect::Canonical {
        return move_to_usi::<V>(mv);
    }
    if dialect == Dialect::Pychess {
        let g = V::GEOMETRY;
        let fsf = move_to_usi_in(pos, mv, Dialect::Fsf);
        return crate::uci::usi_to_uci(&fsf, g.width, g.height).unwrap_or(fsf);
    }
    let g = V::GEOMETRY;
    match mv.from() {
        Some(from) => {
            let mark = if !mv.is_flip() {
                ""
            } else {
                let unpromotes = pos.piece_at(from).is_some_and(|p| {
                    let back = V::PIECES[p.kind.index()].flips_to;
                    is_promoted_face::<V>(p.kind, dialect)
                        && back.is_some_and(|k| !is_promoted_face::<V>(k, dialect))
                });
                if unpromotes {
                    "-"
                } else {
                    "+"
                }
            };
            format!("{}{}{mark}", g.name(from), g.name(mv.to()))
        }
        None => {
            let kind = mv.drop_kind().unwrap_or(Kind(0));
            format!("{}*{}", face_letters::<V>(kind, dialect), g.name(mv.to()))
        }
    }
}

fn syntax(text: &str, reason: impl Into<String>) -> UsiError {
    UsiError::Syntax {
        text: text.to_string(),
        reason: reason.into(),
    }
}

/// A USI move as written, checked for form but not against a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum UsiText {
    /// `<face>*<to>`.
    Drop {
        /// The face dropped.
        kind: Kind,
        /// The destination.
        to: Square,
    },
    /// `<from><to>`, with `mark` when a `+` or `-` flip mark follows.
    Board {
        /// The origin.
        from: Square,
        /// The destination.
        to: Square,
        /// Whether a flip mark was written.
        mark: bool,
    },
}

/// Reads the form of a USI move: squares on the board, a known piece letter for drops, at
/// most one flip mark. A drop of a piece that is never dropped (a king) is
/// [`UsiError::Illegal`]; everything else wrong is [`UsiError::Syntax`].
pub(crate) fn read_usi_text<V: Variant>(text: &str) -> Result<UsiText, UsiError> {
    let g = V::GEOMETRY;
    if text.is_empty() {
        return Err(syntax(text, "empty"));
    }
    if !text.is_ascii() {
        return Err(syntax(
            text,
            "only ASCII letters, digits, `*`, `+` and `-` appear in moves",
        ));
    }
    if let Some((piece, square)) = text.split_once('*') {
        let Some(p) = lookup_piece::<V>(piece) else {
            return Err(syntax(
                text,
                format!("`{piece}` is not a {} piece letter", V::DISPLAY_NAME),
            ));
        };
        let Some(to) = g.parse_square(square) else {
            return Err(syntax(
                text,
                format!(
                    "`{square}` is not a square of the {}x{} board",
                    g.width, g.height
                ),
            ));
        };
        if V::PIECES[p.kind.index()].hand_slot.is_none() {
            let why = IllegalMove::NeverDropped {
                kind: p.kind,
                instead: None,
            };
            return Err(rejected::<V>(text, why));
        }
        return Ok(UsiText::Drop { kind: p.kind, to });
    }
    let (body, mark) = match text.as_bytes()[text.len() - 1] {
        b'+' | b'-' => (&text[..text.len() - 1], true),
        _ => (text, false),
    };
    if body.len() != 4 {
        return Err(syntax(
            text,
            "expected `<from><to>` such as `2e2d`, or a drop such as `P*3c`",
        ));
    }
    let (Some(from), Some(to)) = (g.parse_square(&body[..2]), g.parse_square(&body[2..])) else {
        return Err(syntax(
            text,
            format!(
                "squares are a file 1-{} then a rank a-{}",
                g.width,
                (b'a' + g.height - 1) as char
            ),
        ));
    };
    Ok(UsiText::Board { from, to, mark })
}

/// Parses a USI move in `pos`, returning the legal move it names.
///
/// Accepts `+` or `-` as the flip mark on a move that flips, and no mark at all (every flip
/// in these variants is mandatory; in Minishogi no mark means no promotion); drops by either
/// face's letter (upper- or lowercase) and the reference engine's `+L*3a` form. A flip mark
/// on a move that does not flip is an error.
///
/// The move is found by core's [`Position::resolve`]; when it is not legal, the error
/// carries core's typed reason ([`UsiError::reason`]) and its words ([`describe_illegal`]).
pub fn parse_usi<V: Variant>(pos: &Position<V>, text: &str) -> Result<Move, UsiError> {
    let request = match read_usi_text::<V>(text)? {
        UsiText::Drop { kind, to } => MoveRequest::Drop { kind, to },
        UsiText::Board { from, to, mark } => MoveRequest::Board {
            from,
            to,
            kind: None,
            flip: if mark {
                FlipRequest::Flip
            } else {
                FlipRequest::Unmarked
            },
        },
    };
    pos.resolve(&request)
        .map_err(|why| rejected::<V>(text, why))
}

/// The [`UsiError::Illegal`] of a move that core's query refused.
pub(crate) fn rejected<V: Variant>(text: &str, why: IllegalMove) -> UsiError {
    UsiError::Illegal {
        text: text.to_string(),
        reason: describe_illegal::<V>(&why, Wording::Usi),
        why: Some(why),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_sfen;
    use kshogi_rules_kyoto::Kyoto;
    use kshogi_rules_micro::Micro;

    #[test]
    fn kyoto_moves_always_carry_the_mark() {
        let pos = Position::<Kyoto>::start();
        let mut texts: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|&m| move_to_usi::<Kyoto>(m))
            .collect();
        texts.sort();
        assert!(texts.contains(&"1e1d+".to_string()));
        assert!(texts.contains(&"3e3d".to_string()), "the king never flips");
        for t in &texts {
            assert_eq!(move_to_usi::<Kyoto>(parse_usi(&pos, t).unwrap()), *t);
        }
        // Dialects: no mark, and `-`.
        assert_eq!(
            move_to_usi::<Kyoto>(parse_usi(&pos, "1e1d").unwrap()),
            "1e1d+"
        );
        assert_eq!(
            move_to_usi::<Kyoto>(parse_usi(&pos, "1e1d-").unwrap()),
            "1e1d+"
        );
        assert!(matches!(
            parse_usi(&pos, "3e3d+"),
            Err(UsiError::Illegal { .. })
        ));
    }

    #[test]
    fn drops_by_either_face_and_engine_form() {
        let pos = parse_sfen::<Kyoto>("k4/5/5/5/4K b T 3").unwrap();
        assert_eq!(
            move_to_usi::<Kyoto>(parse_usi(&pos, "T*3c").unwrap()),
            "T*3c"
        );
        assert_eq!(
            move_to_usi::<Kyoto>(parse_usi(&pos, "L*3c").unwrap()),
            "L*3c"
        );
        assert_eq!(
            move_to_usi::<Kyoto>(parse_usi(&pos, "+L*3c").unwrap()),
            "T*3c"
        );
        assert_eq!(
            move_to_usi::<Kyoto>(parse_usi(&pos, "t*3c").unwrap()),
            "T*3c"
        );
        assert!(matches!(
            parse_usi(&pos, "P*3c"),
            Err(UsiError::Illegal { .. })
        ));
        assert!(matches!(
            parse_usi(&pos, "T*5a"),
            Err(UsiError::Illegal { .. })
        ));
        assert!(matches!(
            parse_usi(&pos, "X*3c"),
            Err(UsiError::Syntax { .. })
        ));
        assert!(matches!(
            parse_usi(&pos, "T*9c"),
            Err(UsiError::Syntax { .. })
        ));
    }

    #[test]
    fn micro_quiet_moves_take_no_mark() {
        let pos = Position::<Micro>::start();
        assert_eq!(
            move_to_usi::<Micro>(parse_usi(&pos, "1d1c").unwrap()),
            "1d1c"
        );
        assert!(matches!(
            parse_usi(&pos, "1d1c+"),
            Err(UsiError::Illegal { .. })
        ));
        assert!(matches!(
            parse_usi(&pos, "1d1b"),
            Err(UsiError::Illegal { .. })
        ));
        assert!(matches!(
            parse_usi(&pos, "1d1"),
            Err(UsiError::Syntax { .. })
        ));
        assert!(matches!(parse_usi(&pos, ""), Err(UsiError::Syntax { .. })));
        assert!(matches!(
            parse_usi(&pos, "１d1c"),
            Err(UsiError::Syntax { .. })
        ));
    }

    /// Every reason a USI move can have, in the words and with the typed reason from core.
    #[test]
    fn illegal_moves_say_why() {
        use kshogi_core::{DropRule, IllegalMove};
        use kshogi_rules_minishogi::Minishogi;
        fn check<V: Variant>(sfen: &str, text: &str, reason: &str) -> Option<IllegalMove> {
            let pos = parse_sfen::<V>(sfen).unwrap();
            let e = parse_usi(&pos, text).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("`{text}` is not legal here: {reason}"),
                "{sfen} {text}"
            );
            e.reason().copied()
        }
        let start = "pgkst/5/5/5/TSKGP b - 1";
        let cases = [
            (start, "1d1c", "there is no piece on 1d"),
            (
                start,
                "5a5b+",
                "the pawn on 5a is not black's: it is white's, and black is to move",
            ),
            (start, "2e2c+", "the gold on 2e cannot go to 2c here"),
            (
                start,
                "2e3e+",
                "the gold on 2e cannot take black's own king on 3e",
            ),
            (
                start,
                "3e3d+",
                "the king does not flip or promote on this move, so it takes no mark",
            ),
            (start, "T*3c", "black has no tokin in hand"),
            (
                "k4/5/5/p4/R3K b - 1",
                "5e5b+",
                "the rook on 5e cannot go to 5b: white's pawn on 5d is in the way",
            ),
            (
                "k1r2/5/5/2S2/2K2 b - 1",
                "3d2c+",
                "the silver on 3d cannot go to 2c: it would leave black's king in check from \
                 the rook on 3a",
            ),
            (
                "k1r2/5/5/5/1K3 b - 1",
                "4e3d",
                "the king on 4e cannot go to 3d: it would be in check there from the rook on 3a",
            ),
            (
                "k1r2/5/5/5/2K2 b T 1",
                "T*1c",
                "a tokin dropped on 1c would leave black's king in check from the rook on 3a",
            ),
            (
                "k4/5/5/5/4K b T 1",
                "T*1e",
                "1e is occupied by black's king",
            ),
            (
                "k4/G4/R4/5/4K w - 10",
                "5a4a",
                "the game is over (black wins by checkmate)",
            ),
        ];
        for (sfen, text, reason) in cases {
            assert!(check::<Kyoto>(sfen, text, reason).is_some());
        }
        let mate = "4k/2S2/3G1/5/K4 b P 1";
        assert_eq!(
            check::<Minishogi>(mate, "P*1b", "a pawn drop may not give checkmate"),
            Some(IllegalMove::DropRefused {
                side: Color::Black,
                kind: kshogi_rules_minishogi::PAWN,
                to: Minishogi::GEOMETRY.parse_square("1b").unwrap(),
                rule: DropRule::PawnDropMate,
            })
        );
        check::<Minishogi>(mate, "P*3a", "a pawn dropped on 3a could never move");
        check::<Minishogi>(
            "4k/2S2/3G1/4P/K4 b P 1",
            "P*1c",
            "black already has an unpromoted pawn on file 1 (nifu): the one on 1d",
        );
        check::<Minishogi>(
            "4k/5/5/5/K4 b R 1",
            "+R*3c",
            "a dragon is never dropped: it goes to the hand as a rook and is dropped as one",
        );
        // Refused before any position is consulted, with the same words.
        check::<Kyoto>(start, "K*3c", "a king is never dropped");
    }
}
