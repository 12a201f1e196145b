//! The words for why a move is not legal: core's typed [`IllegalMove`], told in the
//! notation the move was written in (USI squares `2e`, or KIF squares `２五`).
//!
//! Both move readers (USI, [`crate::parse_usi`]; KIF, [`crate::kif`]) ask core's one query,
//! [`kshogi_core::Position::resolve`], and word its answer here, so that the same reason
//! reads the same in both.

use crate::kif::text::{kanji_of, kif_square};
use kshogi_core::{DropRule, IllegalMove, Kind, Square, Variant};

/// The notation a reason is worded in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Wording {
    /// USI: squares as `2e`, the flip mark `+`.
    Usi,
    /// KIF: squares as `２五`, the marks `成` and `不成`, origins `(25)`, and the kanji of a
    /// piece in hand.
    Kif,
}

fn name<V: Variant>(kind: Kind) -> &'static str {
    V::PIECES[kind.index()].name
}

/// A or an, before a piece name.
fn a(name: &str) -> &'static str {
    if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

impl Wording {
    fn square<V: Variant>(self, sq: Square) -> String {
        match self {
            Wording::Usi => V::GEOMETRY.name(sq).to_string(),
            Wording::Kif => kif_square::<V>(sq),
        }
    }

    /// A piece named in a sentence about a hand: `silver (銀)` in KIF, `silver` in USI.
    fn hand_piece<V: Variant>(self, kind: Kind) -> String {
        match self {
            Wording::Usi => name::<V>(kind).to_string(),
            Wording::Kif => format!("{} ({})", name::<V>(kind), kanji_of::<V>(kind)),
        }
    }

    /// An origin as the notation writes it: `2e`, `(25)`.
    fn origin<V: Variant>(self, sq: Square) -> String {
        match self {
            Wording::Usi => V::GEOMETRY.name(sq).to_string(),
            Wording::Kif => {
                let g = V::GEOMETRY;
                format!("({}{})", g.file(sq), g.rank(sq) + 1)
            }
        }
    }
}

/// The reason `why`, in words, with squares and marks as `wording` writes them. The
/// sentence has no leading capital and no full stop; readers put it after the move text
/// (``illegal move `２三金成(25)`: the gold on ２五 cannot go to ２三 here``).
pub fn describe_illegal<V: Variant>(why: &IllegalMove, wording: Wording) -> String {
    let sq = |s: Square| wording.square::<V>(s);
    match *why {
        IllegalMove::GameOver(outcome) => format!("the game is over ({outcome})"),
        IllegalMove::NoPiece { from } => format!("there is no piece on {}", sq(from)),
        IllegalMove::NotYours { side, from, piece } => format!(
            "the {} on {} is not {side}'s: it is {}'s, and {side} is to move",
            name::<V>(piece.kind),
            sq(from),
            piece.color
        ),
        IllegalMove::WrongPiece { from, found, named } => match wording {
            Wording::Kif => format!(
                "the piece on {} is {} {} ({}), not {}",
                sq(from),
                a(name::<V>(found)),
                name::<V>(found),
                kanji_of::<V>(found),
                kanji_of::<V>(named)
            ),
            Wording::Usi => format!(
                "the piece on {} is {} {}, not {} {}",
                sq(from),
                a(name::<V>(found)),
                name::<V>(found),
                a(name::<V>(named)),
                name::<V>(named)
            ),
        },
        IllegalMove::CannotReach { from, to, kind } => format!(
            "the {} on {} cannot go to {} here",
            name::<V>(kind),
            sq(from),
            sq(to)
        ),
        IllegalMove::Blocked {
            from,
            to,
            kind,
            by,
            blocker,
        } => format!(
            "the {} on {} cannot go to {}: {}'s {} on {} is in the way",
            name::<V>(kind),
            sq(from),
            sq(to),
            blocker.color,
            name::<V>(blocker.kind),
            sq(by)
        ),
        IllegalMove::CaptureOwn {
            side,
            from,
            to,
            kind,
            target,
        } => format!(
            "the {} on {} cannot take {side}'s own {} on {}",
            name::<V>(kind),
            sq(from),
            name::<V>(target),
            sq(to)
        ),
        IllegalMove::LeavesKingInCheck {
            side,
            from,
            to,
            kind,
            checker,
        } => {
            let by = checker
                .map(|(s, k)| format!(" from the {} on {}", name::<V>(k), sq(s)))
                .unwrap_or_default();
            match from {
                Some(from) if V::PIECES[kind.index()].royal => format!(
                    "the {} on {} cannot go to {}: it would be in check there{by}",
                    name::<V>(kind),
                    sq(from),
                    sq(to)
                ),
                Some(from) => format!(
                    "the {} on {} cannot go to {}: it would leave {side}'s king in check{by}",
                    name::<V>(kind),
                    sq(from),
                    sq(to)
                ),
                None => format!(
                    "{} {} dropped on {} would leave {side}'s king in check{by}",
                    a(name::<V>(kind)),
                    name::<V>(kind),
                    sq(to)
                ),
            }
        }
        IllegalMove::FlipNotAllowed { kind, .. } => match wording {
            Wording::Kif => format!(
                "`成` but the {} does not flip or promote on this move",
                name::<V>(kind)
            ),
            Wording::Usi => format!(
                "the {} does not flip or promote on this move, so it takes no mark",
                name::<V>(kind)
            ),
        },
        IllegalMove::FlipRequired { kind, .. } => match wording {
            Wording::Kif => format!(
                "`不成` but the {} must flip or promote on this move",
                name::<V>(kind)
            ),
            Wording::Usi => format!("the {} must flip or promote on this move", name::<V>(kind)),
        },
        IllegalMove::NoDrops => format!("{} has no drops", V::DISPLAY_NAME),
        IllegalMove::NeverDropped { kind, instead } => {
            let n = name::<V>(kind);
            match instead {
                Some(base) => format!(
                    "{} {n} is never dropped: it goes to the hand as {} {} and is dropped as one",
                    a(n),
                    a(name::<V>(base)),
                    name::<V>(base)
                ),
                None => format!("{} {n} is never dropped", a(n)),
            }
        }
        IllegalMove::NotInHand { side, kind } => {
            format!("{side} has no {} in hand", wording.hand_piece::<V>(kind))
        }
        IllegalMove::DropOnOccupied { to, occupant } => format!(
            "{} is occupied by {}'s {}",
            sq(to),
            occupant.color,
            name::<V>(occupant.kind)
        ),
        IllegalMove::DropRefused {
            side,
            kind,
            to,
            rule,
        } => {
            let n = name::<V>(kind);
            match rule {
                DropRule::DeadDrop => {
                    format!("{} {n} dropped on {} could never move", a(n), sq(to))
                }
                DropRule::Nifu { pawn } if V::DROP_RULES.pawns_per_file > 1 => format!(
                    "{side} already has {} unpromoted {n}s on file {}, the most a file may hold: \
                     one is on {}",
                    V::DROP_RULES.pawns_per_file,
                    V::GEOMETRY.file(to),
                    sq(pawn)
                ),
                DropRule::Nifu { pawn } => format!(
                    "{side} already has an unpromoted {n} on file {} (nifu): the one on {}",
                    V::GEOMETRY.file(to),
                    sq(pawn)
                ),
                DropRule::PawnDropMate => format!("{} {n} drop may not give checkmate", a(n)),
                DropRule::Variant => format!(
                    "{} does not allow {} {n} to be dropped on {}",
                    V::DISPLAY_NAME,
                    a(n),
                    sq(to)
                ),
            }
        }
        IllegalMove::NoPieceOfKind {
            side,
            kind,
            in_hand,
        } => {
            if in_hand {
                format!(
                    "{side} has no {} on the board (a piece in hand is dropped, with no mark)",
                    wording.hand_piece::<V>(kind)
                )
            } else {
                format!(
                    "{side} has no {} on the board or in hand",
                    wording.hand_piece::<V>(kind)
                )
            }
        }
        IllegalMove::NoneCanReach { side, kind, to } => {
            format!("no {} of {side}'s can go to {}", name::<V>(kind), sq(to))
        }
        IllegalMove::Ambiguous { kind, to, origins } => {
            let list: Vec<String> = origins.into_iter().map(sq).collect();
            let first = origins
                .into_iter()
                .next()
                .map(|s| wording.origin::<V>(s))
                .unwrap_or_default();
            format!(
                "more than one {} can go to {} (from {}); write the origin, such as `{first}`",
                name::<V>(kind),
                sq(to),
                list.join(", ")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_core::{Color, Outcome, Piece, WinReason};
    use kshogi_rules_kyoto::{Kyoto, GOLD, KING, PAWN, ROOK, SILVER, TOKIN};

    fn sq(name: &str) -> Square {
        Kyoto::GEOMETRY.parse_square(name).unwrap()
    }

    // Each reason in both wordings; the expected texts are written out by hand.
    #[test]
    fn every_reason_in_both_wordings() {
        let black = Color::Black;
        let white = Color::White;
        let cases: Vec<(IllegalMove, &str, &str)> = vec![
            (
                IllegalMove::GameOver(Outcome::Win {
                    winner: black,
                    reason: WinReason::Checkmate,
                }),
                "the game is over (black wins by checkmate)",
                "the game is over (black wins by checkmate)",
            ),
            (
                IllegalMove::NoPiece { from: sq("1d") },
                "there is no piece on 1d",
                "there is no piece on １四",
            ),
            (
                IllegalMove::NotYours {
                    side: black,
                    from: sq("5a"),
                    piece: Piece::new(white, PAWN),
                },
                "the pawn on 5a is not black's: it is white's, and black is to move",
                "the pawn on ５一 is not black's: it is white's, and black is to move",
            ),
            (
                IllegalMove::WrongPiece {
                    from: sq("1e"),
                    found: PAWN,
                    named: GOLD,
                },
                "the piece on 1e is a pawn, not a gold",
                "the piece on １五 is a pawn (歩), not 金",
            ),
            (
                IllegalMove::CannotReach {
                    from: sq("2e"),
                    to: sq("2c"),
                    kind: GOLD,
                },
                "the gold on 2e cannot go to 2c here",
                "the gold on ２五 cannot go to ２三 here",
            ),
            (
                IllegalMove::Blocked {
                    from: sq("1d"),
                    to: sq("1a"),
                    kind: ROOK,
                    by: sq("1b"),
                    blocker: Piece::new(white, SILVER),
                },
                "the rook on 1d cannot go to 1a: white's silver on 1b is in the way",
                "the rook on １四 cannot go to １一: white's silver on １二 is in the way",
            ),
            (
                IllegalMove::CaptureOwn {
                    side: black,
                    from: sq("2e"),
                    to: sq("3e"),
                    kind: GOLD,
                    target: KING,
                },
                "the gold on 2e cannot take black's own king on 3e",
                "the gold on ２五 cannot take black's own king on ３五",
            ),
            (
                IllegalMove::LeavesKingInCheck {
                    side: black,
                    from: Some(sq("3e")),
                    to: sq("3d"),
                    kind: KING,
                    checker: Some((sq("3a"), ROOK)),
                },
                "the king on 3e cannot go to 3d: it would be in check there from the rook on 3a",
                "the king on ３五 cannot go to ３四: it would be in check there from the rook on ３一",
            ),
            (
                IllegalMove::LeavesKingInCheck {
                    side: black,
                    from: Some(sq("3d")),
                    to: sq("2c"),
                    kind: SILVER,
                    checker: Some((sq("3a"), ROOK)),
                },
                "the silver on 3d cannot go to 2c: it would leave black's king in check from \
                 the rook on 3a",
                "the silver on ３四 cannot go to ２三: it would leave black's king in check \
                 from the rook on ３一",
            ),
            (
                IllegalMove::LeavesKingInCheck {
                    side: black,
                    from: None,
                    to: sq("1c"),
                    kind: TOKIN,
                    checker: Some((sq("3a"), ROOK)),
                },
                "a tokin dropped on 1c would leave black's king in check from the rook on 3a",
                "a tokin dropped on １三 would leave black's king in check from the rook on ３一",
            ),
            (
                IllegalMove::FlipNotAllowed {
                    from: sq("3e"),
                    to: sq("3d"),
                    kind: KING,
                },
                "the king does not flip or promote on this move, so it takes no mark",
                "`成` but the king does not flip or promote on this move",
            ),
            (
                IllegalMove::FlipRequired {
                    from: sq("1e"),
                    to: sq("1d"),
                    kind: PAWN,
                },
                "the pawn must flip or promote on this move",
                "`不成` but the pawn must flip or promote on this move",
            ),
            (
                IllegalMove::NoDrops,
                "Kyoto Shogi has no drops",
                "Kyoto Shogi has no drops",
            ),
            (
                IllegalMove::NeverDropped {
                    kind: KING,
                    instead: None,
                },
                "a king is never dropped",
                "a king is never dropped",
            ),
            (
                IllegalMove::NeverDropped {
                    kind: ROOK,
                    instead: Some(PAWN),
                },
                "a rook is never dropped: it goes to the hand as a pawn and is dropped as one",
                "a rook is never dropped: it goes to the hand as a pawn and is dropped as one",
            ),
            (
                IllegalMove::NotInHand {
                    side: black,
                    kind: SILVER,
                },
                "black has no silver in hand",
                "black has no silver (銀) in hand",
            ),
            (
                IllegalMove::DropOnOccupied {
                    to: sq("2e"),
                    occupant: Piece::new(black, GOLD),
                },
                "2e is occupied by black's gold",
                "２五 is occupied by black's gold",
            ),
            (
                IllegalMove::DropRefused {
                    side: black,
                    kind: PAWN,
                    to: sq("3a"),
                    rule: DropRule::DeadDrop,
                },
                "a pawn dropped on 3a could never move",
                "a pawn dropped on ３一 could never move",
            ),
            (
                IllegalMove::DropRefused {
                    side: black,
                    kind: PAWN,
                    to: sq("1c"),
                    rule: DropRule::Nifu { pawn: sq("1d") },
                },
                "black already has an unpromoted pawn on file 1 (nifu): the one on 1d",
                "black already has an unpromoted pawn on file 1 (nifu): the one on １四",
            ),
            (
                IllegalMove::DropRefused {
                    side: black,
                    kind: PAWN,
                    to: sq("1b"),
                    rule: DropRule::PawnDropMate,
                },
                "a pawn drop may not give checkmate",
                "a pawn drop may not give checkmate",
            ),
            (
                IllegalMove::DropRefused {
                    side: black,
                    kind: PAWN,
                    to: sq("1b"),
                    rule: DropRule::Variant,
                },
                "Kyoto Shogi does not allow a pawn to be dropped on 1b",
                "Kyoto Shogi does not allow a pawn to be dropped on １二",
            ),
            (
                IllegalMove::NoPieceOfKind {
                    side: black,
                    kind: SILVER,
                    in_hand: false,
                },
                "black has no silver on the board or in hand",
                "black has no silver (銀) on the board or in hand",
            ),
            (
                IllegalMove::NoPieceOfKind {
                    side: black,
                    kind: SILVER,
                    in_hand: true,
                },
                "black has no silver on the board (a piece in hand is dropped, with no mark)",
                "black has no silver (銀) on the board (a piece in hand is dropped, with no mark)",
            ),
            (
                IllegalMove::NoneCanReach {
                    side: black,
                    kind: GOLD,
                    to: sq("5a"),
                },
                "no gold of black's can go to 5a",
                "no gold of black's can go to ５一",
            ),
            (
                IllegalMove::Ambiguous {
                    kind: GOLD,
                    to: sq("2d"),
                    origins: kshogi_core::Bitboard::from_square(sq("1e"))
                        .with(sq("3e")),
                },
                "more than one gold can go to 2d (from 1e, 3e); write the origin, such as `1e`",
                "more than one gold can go to ２四 (from １五, ３五); write the origin, such as \
                 `(15)`",
            ),
        ];
        for (why, usi, kif) in cases {
            assert_eq!(
                describe_illegal::<Kyoto>(&why, Wording::Usi),
                usi,
                "{why:?}"
            );
            assert_eq!(
                describe_illegal::<Kyoto>(&why, Wording::Kif),
                kif,
                "{why:?}"
            );
        }
    }
}
