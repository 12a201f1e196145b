//! Static exchange evaluation: what a move wins or loses on its destination square when both
//! sides then capture there, cheapest piece first, each side free to stop.
//!
//! Drop games differ from chess in three ways, and this is how they are counted:
//!
//! - **A drop** is an exchange whose first move captures nothing: its value is 0, or minus
//!   the dropped piece when the opponent can take it for less.
//! - **Captured pieces go to hand.** Only the board values of the evaluator
//!   ([`Evaluator::piece_value`]) are exchanged, not the hand values as well: a capture in a
//!   drop game swings about twice the value of the piece (off the opponent's board, into our
//!   hand), but every capture of the sequence does, so the sign of the exchange, which is
//!   all the search asks, is the same.
//! - **Pieces change face as they capture** (Micro flips on every capture, Kyoto on every
//!   move, a promotion zone may allow it): a flip is part of what a move wins or loses (a
//!   Micro gold that captures becomes a rook), and the piece left on the square is valued by
//!   the face it shows after its capture, the better face where the flip is optional.
//!
//! A king captures only as the last capturer, when the opponent has nothing left to retake
//! (in a variant with the check rule; where capturing the king wins, the king is worth
//! [`crate::eval::ROYAL_VALUE`] and is exchanged like any piece). Pins are not looked at.

use crate::Evaluator;
use kshogi_core::{Bitboard, Flip, Kind, Move, Position, Variant};

/// The most captures an exchange on one square can have (every piece of the largest board).
const MAX_SWAPS: usize = 64;

/// The face a piece of `kind` and color `c` shows after capturing on `to` from `from`.
#[inline(always)]
fn after_capture<V: Variant, E: Evaluator<V>>(
    kind: Kind,
    c: kshogi_core::Color,
    from: kshogi_core::Square,
    to: kshogi_core::Square,
) -> Kind {
    let other = V::PIECES[kind.index()].flips_to;
    match (V::flip(kind, c, from, to, true), other) {
        (Flip::Always, Some(o)) => o,
        (Flip::Optional, Some(o)) if E::piece_value(o) > E::piece_value(kind) => o,
        _ => kind,
    }
}

/// The value of the exchange that `mv` (a legal move of the side to move) starts on its
/// destination, in the evaluator's piece values, from the mover's point of view.
pub(crate) fn see<V: Variant, E: Evaluator<V>>(pos: &Position<V>, mv: Move) -> i32 {
    let to = mv.to();
    let us = pos.side_to_move();
    let to_bb = Bitboard::from_square(to);
    let mut occ = pos.occupied() | to_bb;
    // The piece moved and the piece standing on `to` once the move is made.
    let (moved, on) = match mv.from() {
        Some(from) => {
            let Some(p) = pos.piece_at(from) else {
                return 0;
            };
            occ &= !Bitboard::from_square(from);
            match (mv.is_flip(), V::PIECES[p.kind.index()].flips_to) {
                (true, Some(o)) => (p.kind, o),
                _ => (p.kind, p.kind),
            }
        }
        None => match mv.drop_kind() {
            Some(k) => (k, k),
            None => return 0,
        },
    };
    let victim = if mv.is_drop() {
        0
    } else {
        pos.piece_at(to).map_or(0, |p| E::piece_value(p.kind))
    };
    let mut gain = [0i32; MAX_SWAPS];
    let mut on_value = E::piece_value(on);
    // A flip is part of what a move gains: the moved piece is worth `on_value` now.
    gain[0] = victim + on_value - E::piece_value(moved);
    let mut side = !us;
    let mut d = 0;
    while d + 1 < MAX_SWAPS {
        let att = pos.attackers_to(to, side, occ) & occ;
        if att.is_empty() {
            break;
        }
        // The cheapest attacker.
        let mut best_sq = None;
        let mut best_value = i32::MAX;
        for sq in att {
            if let Some(p) = pos.piece_at(sq) {
                let v = E::piece_value(p.kind);
                if v < best_value {
                    best_value = v;
                    best_sq = Some((sq, p.kind));
                }
            }
        }
        let Some((sq, kind)) = best_sq else {
            break;
        };
        let sq_bb = Bitboard::from_square(sq);
        if V::CHECK_RULE && sq == pos.king(side) {
            // The king may take only when nothing can take it back.
            let rest = occ & !sq_bb;
            if (pos.attackers_to(to, !side, rest) & rest).any() {
                break;
            }
        }
        let capturer = E::piece_value(kind);
        let flipped = E::piece_value(after_capture::<V, E>(kind, side, sq, to));
        d += 1;
        gain[d] = on_value + flipped - capturer - gain[d - 1];
        // Neither side can gain by going on: stop early.
        if (-gain[d - 1]).max(gain[d]) < 0 {
            break;
        }
        occ &= !sq_bb;
        on_value = flipped;
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::see;
    use crate::{Evaluator, PieceTableEval};
    use kshogi_core::{Color, Kind, Move, Position, Setup, Variant};
    use kshogi_rules_micro::{self as micro, Micro};

    fn v(k: Kind) -> i32 {
        <PieceTableEval as Evaluator<Micro>>::piece_value(k)
    }

    /// Kings on 1a (White) and `black_king`, Black to move, plus `pieces`.
    fn micro(black_king: (u8, u8), pieces: &[(u8, u8, Color, Kind)]) -> Setup<Micro> {
        let mut s = Setup::empty();
        s.put(1, 0, Color::White, micro::KING);
        s.put(black_king.0, black_king.1, Color::Black, micro::KING);
        for &(f, r, c, k) in pieces {
            s.put(f, r, c, k);
        }
        s.side = Color::Black;
        s
    }

    /// The legal move from `from` (or the drop of `drop`) to `to`, squares named as in USI.
    fn find(pos: &Position<Micro>, from: Option<&str>, drop: Option<Kind>, to: &str) -> Move {
        let g = Micro::GEOMETRY;
        let to = g.parse_square(to).unwrap();
        let from = from.map(|f| g.parse_square(f).unwrap());
        pos.legal_moves()
            .iter()
            .copied()
            .find(|m| m.to() == to && m.from() == from && (from.is_some() || m.drop_kind() == drop))
            .expect("the move is legal")
    }

    fn see_of(setup: &Setup<Micro>, from: Option<&str>, drop: Option<Kind>, to: &str) -> i32 {
        let pos = Position::from_setup(setup).unwrap();
        let mv = find(&pos, from, drop, to);
        see::<Micro, PieceTableEval>(&pos, mv)
    }

    const W: Color = Color::White;
    const B: Color = Color::Black;

    #[test]
    fn an_undefended_piece_is_won_whole_and_the_flip_counts() {
        // The silver takes and becomes a lance.
        let s = micro((1, 4), &[(2, 3, B, micro::SILVER), (2, 2, W, micro::PAWN)]);
        assert_eq!(
            see_of(&s, Some("2d"), None, "2c"),
            v(micro::PAWN) + v(micro::LANCE) - v(micro::SILVER)
        );
    }

    #[test]
    fn the_capturer_is_lost_by_the_face_it_flips_to() {
        // Silver takes the pawn and becomes a lance, which the gold on 2b takes, becoming a
        // rook: Black is down the silver, and White's gold has become a rook.
        let s = micro(
            (1, 4),
            &[
                (2, 3, B, micro::SILVER),
                (2, 2, W, micro::PAWN),
                (2, 1, W, micro::GOLD),
            ],
        );
        let expected = v(micro::PAWN) - v(micro::SILVER) - (v(micro::ROOK) - v(micro::GOLD));
        assert!(expected < 0);
        assert!(v(micro::LANCE) < v(micro::SILVER) && v(micro::GOLD) < v(micro::ROOK));
        assert_eq!(see_of(&s, Some("2d"), None, "2c"), expected);
    }

    #[test]
    fn a_recapture_that_loses_more_is_not_made() {
        // The king on 3d would take the gold once it takes and becomes a rook, which costs
        // White more than the lance it wins: White stops.
        let s = micro(
            (3, 3),
            &[
                (2, 3, B, micro::SILVER),
                (2, 2, W, micro::PAWN),
                (2, 1, W, micro::GOLD),
            ],
        );
        assert_eq!(
            see_of(&s, Some("2d"), None, "2c"),
            v(micro::PAWN) + v(micro::LANCE) - v(micro::SILVER)
        );
    }

    #[test]
    fn the_king_does_not_take_a_defended_piece() {
        // With a rook on 2a behind the gold, the king cannot retake, so the gold takes freely.
        let s = micro(
            (3, 3),
            &[
                (2, 3, B, micro::SILVER),
                (2, 2, W, micro::PAWN),
                (2, 1, W, micro::GOLD),
                (2, 0, W, micro::ROOK),
            ],
        );
        assert_eq!(
            see_of(&s, Some("2d"), None, "2c"),
            v(micro::PAWN) - v(micro::SILVER) - (v(micro::ROOK) - v(micro::GOLD))
        );
    }

    #[test]
    fn a_slider_behind_the_capturer_joins_in() {
        // The rook takes and becomes a gold; the gold on 2b takes it and becomes a rook.
        // With a lance on 2e, behind the rook, that rook would be taken back: White stops.
        let base = [
            (2, 3, B, micro::ROOK),
            (2, 2, W, micro::PAWN),
            (2, 1, W, micro::GOLD),
        ];
        let without = micro((1, 4), &base);
        let first = v(micro::PAWN) + v(micro::GOLD) - v(micro::ROOK);
        assert_eq!(
            see_of(&without, Some("2d"), None, "2c"),
            first - v(micro::ROOK)
        );
        let mut with = base.to_vec();
        with.push((2, 4, B, micro::LANCE));
        let with = micro((1, 4), &with);
        assert_eq!(see_of(&with, Some("2d"), None, "2c"), first);
    }

    #[test]
    fn a_drop_onto_an_attacked_square_loses_the_piece() {
        let mut s = micro((1, 4), &[(2, 1, W, micro::PAWN)]);
        // Hand slots: bishop, gold, silver, pawn.
        s.hands[Color::Black.index()][2] = 1;
        // The pawn takes and becomes a knight.
        assert_eq!(
            see_of(&s, None, Some(micro::SILVER), "2c"),
            -(v(micro::SILVER) + v(micro::KNIGHT) - v(micro::PAWN))
        );
        assert_eq!(see_of(&s, None, Some(micro::SILVER), "3c"), 0);
    }
}
