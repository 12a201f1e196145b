//! Move lines: the move number, the move text (destination or `同`, the piece, `成` or
//! `不成`, the origin `(35)` or `打`), the time columns and a comment after the move, read
//! into a [`MoveLine`] and turned into core's [`MoveRequest`] (no rules yet: that is
//! [`super::replay`]'s).

use super::error::{KifError, KifErrorKind};
use super::lex::Cursor;
use super::record::{KifSpecial, KifTime};
use super::text::{
    digit_value, full_width_digit, is_space, kanji_digit, kanji_list, kind_by_name, rank_kanji,
};
use kshogi_core::{FlipRequest, Kind, MoveRequest, Square, Variant};

/// A flip mark after the piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    /// No mark.
    None,
    /// `成`.
    Flip,
    /// `不成`.
    NoFlip,
}

/// Where the moving piece comes from, as written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// `(35)`: file and rank digits, as written (not yet checked against the board).
    Square(u8, u8),
    /// `打`: a drop.
    Drop,
    /// Nothing: the piece that can go there (KI2 style), or a drop when none can.
    Unwritten,
}

/// A move line's move, read but not yet checked against the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MoveText {
    /// Destination (file, rank from 1) and its column, or `None` for `同`.
    pub(crate) dest: Option<(u8, u8)>,
    pub(crate) dest_col: usize,
    /// The piece as it stood before the move (the face dropped, for a drop).
    pub(crate) kind: Kind,
    pub(crate) mark: Mark,
    pub(crate) mark_col: usize,
    pub(crate) origin: Origin,
    pub(crate) origin_col: usize,
}

/// What follows the move number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Body {
    /// A special move (`投了`, ...).
    Special(KifSpecial),
    /// A move.
    Move(MoveText),
}

/// A move line, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MoveLine {
    pub(crate) number: u64,
    pub(crate) number_col: usize,
    pub(crate) body: Body,
    /// The move as written, without number and time.
    pub(crate) body_text: String,
    pub(crate) body_col: usize,
    pub(crate) time: Option<KifTime>,
    /// A comment after the move on the same line (`* text`), kept as a comment line.
    pub(crate) comment: Option<String>,
}

/// Whether the `(` under the cursor, right after the piece, opens an origin `(35)` rather
/// than the time columns `( 0:03/00:00:03)`: a digit follows that is not the minutes of a
/// time (`(0:03/…)`).
fn is_origin(c: &Cursor) -> bool {
    let at = |k: usize| c.chars.get(c.i + k).copied();
    at(1).is_some_and(|d| digit_value(d).is_some()) && at(2) != Some(':')
}

/// Reads the time columns `( 0:03/00:00:03)`, the cursor on `(`.
fn parse_time(c: &mut Cursor) -> Result<KifTime, KifError> {
    const FORM: &str = "a time column such as `( 0:03/00:00:03)` (minutes:seconds of the \
                        move / hours:minutes:seconds in total)";
    let start_col = c.col();
    let bad = |c: &Cursor| {
        KifError::syntax(
            c.line,
            start_col,
            format!("expected {FORM}, found {} at column {}", c.found(), c.col()),
        )
    };
    c.eat('(');
    c.skip_spaces();
    let m = c.number().ok_or_else(|| bad(c))?;
    if !c.eat(':') {
        return Err(bad(c));
    }
    let s = c.number().filter(|&s| s < 60).ok_or_else(|| bad(c))?;
    c.skip_spaces();
    if !c.eat('/') {
        return Err(bad(c));
    }
    c.skip_spaces();
    let th = c.number().ok_or_else(|| bad(c))?;
    if !c.eat(':') {
        return Err(bad(c));
    }
    let tm = c.number().filter(|&x| x < 60).ok_or_else(|| bad(c))?;
    if !c.eat(':') {
        return Err(bad(c));
    }
    let ts = c.number().filter(|&x| x < 60).ok_or_else(|| bad(c))?;
    c.skip_spaces();
    if !c.eat(')') {
        return Err(bad(c));
    }
    let secs = |x: u64| u32::try_from(x).unwrap_or(u32::MAX);
    Ok(KifTime {
        move_seconds: secs(m.saturating_mul(60).saturating_add(s)),
        total_seconds: secs(
            th.saturating_mul(3600)
                .saturating_add(tm * 60)
                .saturating_add(ts),
        ),
    })
}

/// Reads the form of a move line (no rules yet).
pub(crate) fn parse_move_line<V: Variant>(no: usize, line: &str) -> Result<MoveLine, KifError> {
    let mut c = Cursor::new(no, line);
    c.skip_spaces();
    let number_col = c.col();
    let number = c
        .ascii_number()
        .ok_or_else(|| c.expected("a move number"))?;
    if c.skip_spaces() == 0 {
        return Err(c.expected("a space after the move number"));
    }
    let body_col = c.col();
    let body_start = c.i;
    let body = if let Some(sp) = KifSpecial::ALL.into_iter().find(|sp| c.eat_str(sp.text())) {
        Body::Special(sp)
    } else {
        let dest_col = c.col();
        let dest = if c.eat('同') {
            c.skip_spaces();
            None
        } else {
            let file = c
                .peek()
                .and_then(digit_value)
                .filter(|d| (1..=9).contains(d))
                .ok_or_else(|| {
                    c.expected("a destination: a full-width file digit and a kanji rank such as `２四`, or `同　` for the square of the last move, or a special move such as `投了`")
                })?;
            c.i += 1;
            let rank = c.peek().and_then(kanji_digit).ok_or_else(|| {
                c.expected("a kanji rank numeral (一 to 九) after the file digit")
            })?;
            c.i += 1;
            Some((file as u8, rank as u8))
        };
        let piece_col = c.col();
        let (kind, len) = match c.peek() {
            None => return Err(c.expected("a piece kanji")),
            Some(k) => kind_by_name::<V>(&c.chars[c.i..]).ok_or_else(|| {
                KifError::syntax(
                    no,
                    piece_col,
                    format!(
                        "unknown piece `{k}` for {} (the pieces are {})",
                        V::DISPLAY_NAME,
                        kanji_list::<V>()
                    ),
                )
            })?,
        };
        c.i += len;
        let mark_col = c.col();
        let mark = if c.eat_str("不成") {
            Mark::NoFlip
        } else if c.eat('成') {
            Mark::Flip
        } else {
            Mark::None
        };
        let origin_col = c.col();
        let origin = if c.eat('打') {
            if mark != Mark::None {
                return Err(KifError::syntax(
                    no,
                    mark_col,
                    "a drop (`打`) cannot have `成` or `不成`",
                ));
            }
            Origin::Drop
        } else if c.peek() == Some('(') && is_origin(&c) {
            let form = "the origin as a file digit and a rank digit such as `(35)`";
            c.i += 1;
            let f = c
                .peek()
                .and_then(digit_value)
                .ok_or_else(|| c.expected(form))?;
            c.i += 1;
            let r = c
                .peek()
                .and_then(digit_value)
                .ok_or_else(|| c.expected(form))?;
            c.i += 1;
            if !c.eat(')') {
                return Err(c.expected("`)` after the two digits of the origin"));
            }
            Origin::Square(f as u8, r as u8)
        } else if c
            .peek()
            .map_or(true, |ch| is_space(ch) || ch == '(' || ch == '*')
        {
            Origin::Unwritten
        } else {
            return Err(
                c.expected("the origin such as `(35)`, `打` for a drop, or the end of the move")
            );
        };
        Body::Move(MoveText {
            dest,
            dest_col,
            kind,
            mark,
            mark_col,
            origin,
            origin_col,
        })
    };
    let body_text: String = c.chars[body_start..c.i].iter().collect();
    c.skip_spaces();
    let time = if c.peek() == Some('(') {
        Some(parse_time(&mut c)?)
    } else {
        None
    };
    c.skip_spaces();
    // A comment after the move on the same line, as lishogi's reader accepts: kept as the
    // comment line `*text` on the move.
    let comment = if c.eat('*') {
        let text = c.rest();
        c.i = c.chars.len();
        Some(format!("*{}", text.trim_start_matches(is_space)))
    } else {
        None
    };
    if c.peek() == Some('+') {
        return Err(KifError::at(
            no,
            Some(c.col()),
            KifErrorKind::Unsupported(
                "`+` marks a move with variations, which kshogi does not read; remove the \
                 variations and the mark"
                    .into(),
            ),
        ));
    }
    if c.peek().is_some() {
        return Err(KifError::syntax(
            no,
            c.col(),
            format!(
                "unexpected `{}` after the move; expected the time column, a comment `* …` \
                 or the end of the line",
                c.rest()
            ),
        ));
    }
    Ok(MoveLine {
        number,
        number_col,
        body,
        body_text,
        body_col,
        time,
        comment,
    })
}

impl MoveText {
    /// The request for core's [`kshogi_core::Position::resolve`]: squares checked against
    /// the board of `V`, `同` taken as `prev` (the destination of the move before).
    pub(crate) fn request<V: Variant>(
        &self,
        no: usize,
        prev: Option<Square>,
    ) -> Result<MoveRequest, KifError> {
        let g = V::GEOMETRY;
        let to = match self.dest {
            None => prev.ok_or_else(|| {
                KifError::syntax(
                    no,
                    self.dest_col,
                    "`同` (the square of the last move) needs a move before it",
                )
            })?,
            Some((f, r)) => g.square(f, r - 1).ok_or_else(|| {
                KifError::syntax(
                    no,
                    self.dest_col,
                    format!(
                        "destination `{}{}` is off the {}x{} board of {}",
                        full_width_digit(f),
                        rank_kanji(r - 1),
                        g.width,
                        g.height,
                        V::DISPLAY_NAME
                    ),
                )
            })?,
        };
        let flip = match self.mark {
            Mark::None => FlipRequest::Unmarked,
            Mark::Flip => FlipRequest::Flip,
            Mark::NoFlip => FlipRequest::NoFlip,
        };
        Ok(match self.origin {
            Origin::Drop => MoveRequest::Drop {
                kind: self.kind,
                to,
            },
            Origin::Unwritten => MoveRequest::Piece {
                kind: self.kind,
                to,
                flip,
            },
            Origin::Square(f, r) => {
                let from = (r >= 1)
                    .then(|| g.square(f, r - 1))
                    .flatten()
                    .ok_or_else(|| {
                        KifError::syntax(
                            no,
                            self.origin_col,
                            format!(
                                "origin `({f}{r})` is off the {}x{} board",
                                g.width, g.height
                            ),
                        )
                    })?;
                MoveRequest::Board {
                    from,
                    to,
                    kind: Some(self.kind),
                    flip,
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_rules_kyoto::{self as kyoto, Kyoto};

    fn read(line: &str) -> Result<MoveLine, KifError> {
        parse_move_line::<Kyoto>(3, line)
    }

    fn sq(name: &str) -> Square {
        Kyoto::GEOMETRY.parse_square(name).unwrap()
    }

    #[test]
    fn a_move_line_in_parts() {
        let m = read("  12 ２三金成(25)   ( 0:03/00:00:07) * c").unwrap();
        assert_eq!((m.number, m.number_col, m.body_col), (12, 3, 6));
        assert_eq!(m.body_text, "２三金成(25)");
        assert_eq!(
            m.time.map(|t| (t.move_seconds, t.total_seconds)),
            Some((3, 7))
        );
        assert_eq!(m.comment.as_deref(), Some("*c"));
        let Body::Move(t) = m.body else {
            panic!("a move")
        };
        assert_eq!(
            t,
            MoveText {
                dest: Some((2, 3)),
                dest_col: 6,
                kind: kyoto::GOLD,
                mark: Mark::Flip,
                mark_col: 9,
                origin: Origin::Square(2, 5),
                origin_col: 10,
            }
        );
        assert_eq!(
            t.request::<Kyoto>(3, None),
            Ok(MoveRequest::Board {
                from: sq("2e"),
                to: sq("2c"),
                kind: Some(kyoto::GOLD),
                flip: FlipRequest::Flip,
            })
        );
        let m = read("5 投了").unwrap();
        assert_eq!(m.body, Body::Special(KifSpecial::Resign));
    }

    #[test]
    fn same_square_drops_and_unwritten_origins() {
        let request = |line: &str, prev: Option<Square>| match read(line).unwrap().body {
            Body::Move(t) => t.request::<Kyoto>(3, prev),
            Body::Special(_) => panic!("a move"),
        };
        assert_eq!(
            request("6 同　角不成(12)", Some(sq("3d"))),
            Ok(MoveRequest::Board {
                from: sq("1b"),
                to: sq("3d"),
                kind: Some(kyoto::BISHOP),
                flip: FlipRequest::NoFlip,
            })
        );
        assert_eq!(
            request("6 ３三と打", None),
            Ok(MoveRequest::Drop {
                kind: kyoto::TOKIN,
                to: sq("3c"),
            })
        );
        // No origin: before the time columns, a comment, or the end of the line.
        for line in [
            "1 １四歩",
            "1 １四歩 ( 0:01/00:00:01)",
            "1 １四歩( 0:01/00:00:01)",
            "1 １四歩*c",
        ] {
            assert_eq!(
                request(line, None),
                Ok(MoveRequest::Piece {
                    kind: kyoto::PAWN,
                    to: sq("1d"),
                    flip: FlipRequest::Unmarked,
                }),
                "{line}"
            );
        }
        let e = read("1 同　歩(15)").map(|m| match m.body {
            Body::Move(t) => t.request::<Kyoto>(3, None),
            Body::Special(_) => panic!("a move"),
        });
        assert!(matches!(e, Ok(Err(e)) if e.column == Some(3)));
    }

    #[test]
    fn malformed_origins() {
        let e = read("1 １四歩x").unwrap_err();
        assert_eq!(e.column, Some(6));
        assert!(e.to_string().contains("or the end of the move"), "{e}");
        let e = read("1 １四歩(1").unwrap_err();
        assert!(
            e.to_string()
                .contains("column 8: expected the origin as a file digit"),
            "{e}"
        );
        let e = read("1 １四歩成打").unwrap_err();
        assert!(
            e.to_string()
                .contains("column 6: a drop (`打`) cannot have"),
            "{e}"
        );
    }
}
