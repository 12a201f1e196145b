//! USI moves: `7g7f`, `2b3a+`, `T*3a`, and the reference engine's dialect.

use crate::sfen::{face_letters, is_promoted_face, lookup_piece, piece_letters, Dialect};
use kshogi_core::{Color, Kind, Move, Piece, Position, Square, Variant};

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
        /// Why.
        reason: String,
    },
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
pub fn move_to_usi_in<V: Variant>(pos: &Position<V>, mv: Move, dialect: Dialect) -> String {
    if dialect == Dialect::Canonical {
        return move_to_usi::<V>(mv);
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

fn illegal(text: &str, reason: impl Into<String>) -> UsiError {
    UsiError::Illegal {
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
        let def = &V::PIECES[p.kind.index()];
        if def.hand_slot.is_none() {
            return Err(illegal(text, format!("a {} is never dropped", def.name)));
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

/// Why a drop of `kind` onto the empty square `to`, with the piece in hand, is not legal:
/// one of the variant's declared drop rules, or else the check rule.
fn drop_reason<V: Variant>(pos: &Position<V>, kind: kshogi_core::Kind, to: Square) -> String {
    let g = V::GEOMETRY;
    let us = pos.side_to_move();
    let rules = V::DROP_RULES;
    let name = V::PIECES[kind.index()].name;
    if rules.no_dead_drops && V::tables().dead[us.index()][kind.index()].has(to) {
        return format!("a {name} dropped on {} could never move", g.name(to));
    }
    if rules.pawn == Some(kind) {
        let file = V::tables().file[to.index()];
        if rules.nifu && (pos.pieces(us, kind) & file).any() {
            return format!(
                "{us} already has an unpromoted {name} on file {} (nifu)",
                g.file(to)
            );
        }
        if rules.no_pawn_drop_mate && !pos.in_check() {
            let after = pos.after(Move::drop(kind, to));
            if after.in_check() && !after.has_legal_move_unadjudicated() {
                return format!("a {name} drop may not give checkmate");
            }
        }
    }
    "the drop leaves the king in check".to_string()
}

/// Parses a USI move in `pos`, returning the legal move it names.
///
/// Accepts `+` or `-` as the flip mark on a move that flips, and no mark at all (every flip
/// in these variants is mandatory); drops by either face's letter (upper- or lowercase) and
/// the reference engine's `+L*3a` form. A flip mark on a move that does not flip is an error.
pub fn parse_usi<V: Variant>(pos: &Position<V>, text: &str) -> Result<Move, UsiError> {
    let g = V::GEOMETRY;
    let (from, to, mark) = match read_usi_text::<V>(text)? {
        UsiText::Drop { kind, to } => {
            let mv = Move::drop(kind, to);
            if pos.is_legal(mv) {
                return Ok(mv);
            }
            let def = &V::PIECES[kind.index()];
            let slot = def.hand_slot.map(usize::from).unwrap_or(0);
            let reason = if pos.hand(pos.side_to_move(), slot) == 0 {
                format!("{} has no {} in hand", pos.side_to_move(), def.name)
            } else if pos.piece_at(to).is_some() {
                format!("{} is occupied", g.name(to))
            } else {
                drop_reason(pos, kind, to)
            };
            return Err(illegal(text, reason));
        }
        UsiText::Board { from, to, mark } => (from, to, mark),
    };
    let legal = pos.legal_moves();
    let candidates: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| m.from() == Some(from) && m.to() == to)
        .collect();
    if candidates.is_empty() {
        let reason = match pos.piece_at(from) {
            None => format!("no piece on {}", g.name(from)),
            Some(p) if p.color != pos.side_to_move() => {
                format!(
                    "the piece on {} is not {}'s",
                    g.name(from),
                    pos.side_to_move()
                )
            }
            Some(p) => format!(
                "the {} on {} cannot go to {}",
                V::PIECES[p.kind.index()].name,
                g.name(from),
                g.name(to)
            ),
        };
        return Err(illegal(text, reason));
    }
    if mark {
        candidates
            .iter()
            .copied()
            .find(|m| m.is_flip())
            .ok_or_else(|| {
                illegal(
                    text,
                    "the piece does not flip or promote on this move, so it takes no mark",
                )
            })
    } else {
        // With a mandatory flip the only candidate flips; with an optional one, no mark
        // means no flip.
        Ok(candidates
            .iter()
            .copied()
            .find(|m| !m.is_flip())
            .unwrap_or(candidates[0]))
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
}
