//! Static evaluation per variant: material (board and hand), mobility, king safety, and for
//! Kinzoku the king's advance toward its entry rank and the bare-king countdown.

use crate::Evaluate;
use kshogi_core::{Color, Move, PieceDef, Position, Variant, MAX_KINDS, MAX_SLOTS};
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;

/// Evaluations are kept inside this range, far from mate scores.
pub(crate) const EVAL_LIMIT: i32 = 20_000;

/// Bonus for having the move.
const TEMPO: i32 = 10;

/// A static evaluation split into its parts, every part from the side to move's point of
/// view, in centipawns.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct EvalBreakdown {
    /// Pieces on the board and in hand.
    pub material: i32,
    /// Squares attacked (own pieces' squares excluded).
    pub mobility: i32,
    /// Attacks on the squares around each king, defenders beside it, drop threats.
    pub king_safety: i32,
    /// Variant-specific terms (Kinzoku: king advance and the bare-king countdown).
    pub variant: i32,
    /// The evaluation: the sum of the parts plus a small bonus for the side to move, clamped.
    pub total: i32,
}

/// The weights of one variant.
struct Params {
    /// Value of a piece on the board by the face it shows.
    board: [i32; MAX_KINDS],
    /// Value of a piece in hand by hand slot.
    hand: [i32; MAX_SLOTS],
    /// Per attacked square.
    mobility: i32,
    /// Per square next to the enemy king that we attack.
    zone_attack: i32,
    /// Per own piece next to our king.
    zone_defend: i32,
    /// Per enemy piece in hand and empty square next to our king (drops that can hit it).
    hand_threat: i32,
}

/// Board values for a variant whose pieces have two faces: `(w_cur * current + w_other *
/// other) / (w_cur + w_other)`; `upside_only` instead adds a share `w_other / w_cur` of the
/// other face's extra worth only when it is worth more.
const fn two_face_board(
    pieces: &[PieceDef],
    face: &[i32],
    w_cur: i32,
    w_other: i32,
    upside_only: bool,
) -> [i32; MAX_KINDS] {
    let mut out = [0; MAX_KINDS];
    let mut k = 0;
    while k < pieces.len() {
        let cur = face[k];
        let other = match pieces[k].flips_to {
            Some(o) => face[o.0 as usize],
            None => cur,
        };
        out[k] = if upside_only {
            let up = if other > cur { other - cur } else { 0 };
            cur + up * w_other / w_cur
        } else {
            (w_cur * cur + w_other * other) / (w_cur + w_other)
        };
        k += 1;
    }
    out
}

/// Hand values: the best board value among the faces of the slot, times `pct` percent.
const fn hand_values(pieces: &[PieceDef], board: &[i32; MAX_KINDS], pct: i32) -> [i32; MAX_SLOTS] {
    let mut out = [0; MAX_SLOTS];
    let mut k = 0;
    while k < pieces.len() {
        if let Some(slot) = pieces[k].hand_slot {
            let v = board[k] * pct / 100;
            if v > out[slot as usize] {
                out[slot as usize] = v;
            }
        }
        k += 1;
    }
    out
}

// Kyoto faces by kind: K, tokin, lance, silver, bishop, gold, knight, pawn, rook.
const KYOTO_FACES: [i32; 9] = [0, 520, 300, 480, 640, 520, 260, 100, 780];
const KYOTO_BOARD: [i32; MAX_KINDS] =
    two_face_board(kshogi_rules_kyoto::PIECES, &KYOTO_FACES, 2, 1, false);
static KYOTO: Params = Params {
    board: KYOTO_BOARD,
    hand: hand_values(kshogi_rules_kyoto::PIECES, &KYOTO_BOARD, 110),
    mobility: 5,
    zone_attack: 14,
    zone_defend: 10,
    hand_threat: 4,
};

// Micro faces by kind: K, bishop, tokin, gold, rook, silver, lance, pawn, knight.
const MICRO_FACES: [i32; 9] = [0, 600, 520, 520, 760, 450, 300, 100, 280];
const MICRO_BOARD: [i32; MAX_KINDS] =
    two_face_board(kshogi_rules_micro::PIECES, &MICRO_FACES, 4, 1, true);
static MICRO: Params = Params {
    board: MICRO_BOARD,
    hand: hand_values(kshogi_rules_micro::PIECES, &MICRO_BOARD, 105),
    mobility: 5,
    zone_attack: 14,
    zone_defend: 10,
    hand_threat: 4,
};

// Kinzoku by kind: K, silver, copper, soldier, promoted soldier.
static KINZOKU: Params = Params {
    board: [0, 450, 380, 200, 520, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    hand: [0; MAX_SLOTS],
    mobility: 6,
    zone_attack: 16,
    zone_defend: 12,
    hand_threat: 0,
};

/// Bonus by the Kinzoku king's distance (in ranks) from its entry rank.
const KINZOKU_ADVANCE: [i32; 5] = [0, 220, 90, 30, 0];

/// Material, mobility and king safety, each from Black's point of view.
#[inline(always)]
fn common<V: Variant>(pos: &Position<V>, p: &Params) -> (i32, i32, i32) {
    let t = V::tables();
    let occ = pos.occupied();
    let mut material = 0;
    let mut mobility = 0;
    let mut safety = 0;
    let mut attacks = [kshogi_core::Bitboard::EMPTY; 2];
    let mut in_hand = [0i32; 2];
    for c in Color::ALL {
        let sign = if c == Color::Black { 1 } else { -1 };
        let own = pos.color_bb(c);
        let mut m = 0;
        for k in 0..t.kinds {
            let v = p.board[k];
            if v != 0 {
                m += v * (pos.kind_bb(kshogi_core::Kind(k as u8)) & own).count() as i32;
            }
        }
        for slot in 0..t.slots {
            let n = pos.hand(c, slot) as i32;
            m += p.hand[slot] * n;
            in_hand[c.index()] += n;
        }
        material += sign * m;
        attacks[c.index()] = pos.attacked_squares(c, occ);
        mobility += sign * p.mobility * (attacks[c.index()] & !own).count() as i32;
    }
    for c in Color::ALL {
        let sign = if c == Color::Black { 1 } else { -1 };
        let ksq = pos.king(c);
        let zone = t.step[c.index()][t.king.index()][ksq.index()];
        let enemy = !c;
        let attacked = (attacks[enemy.index()] & zone).count() as i32;
        let defenders = (pos.color_bb(c) & zone).count() as i32;
        let empty = (zone & !occ).count() as i32;
        let s = defenders * p.zone_defend
            - attacked * p.zone_attack
            - in_hand[enemy.index()] * empty * p.hand_threat;
        safety += sign * s;
    }
    (material, mobility, safety)
}

/// Adds the parts (given from Black's view) into a breakdown from the side to move's view.
#[inline(always)]
fn finish<V: Variant>(pos: &Position<V>, m: i32, mo: i32, ks: i32, var: i32) -> EvalBreakdown {
    let sign = if pos.side_to_move() == Color::Black {
        1
    } else {
        -1
    };
    let total = (sign * (m + mo + ks + var) + TEMPO).clamp(-EVAL_LIMIT, EVAL_LIMIT);
    EvalBreakdown {
        material: sign * m,
        mobility: sign * mo,
        king_safety: sign * ks,
        variant: sign * var,
        total,
    }
}

impl Evaluate for Kyoto {
    #[inline]
    fn evaluate(pos: &Position<Self>) -> i32 {
        Self::breakdown(pos).total
    }

    #[inline(always)]
    fn piece_value(kind: kshogi_core::Kind) -> i32 {
        KYOTO.board[kind.index()]
    }

    #[inline(always)]
    fn breakdown(pos: &Position<Self>) -> EvalBreakdown {
        let (m, mo, ks) = common(pos, &KYOTO);
        finish(pos, m, mo, ks, 0)
    }
}

impl Evaluate for Micro {
    #[inline]
    fn evaluate(pos: &Position<Self>) -> i32 {
        Self::breakdown(pos).total
    }

    #[inline(always)]
    fn piece_value(kind: kshogi_core::Kind) -> i32 {
        MICRO.board[kind.index()]
    }

    #[inline(always)]
    fn breakdown(pos: &Position<Self>) -> EvalBreakdown {
        let (m, mo, ks) = common(pos, &MICRO);
        finish(pos, m, mo, ks, 0)
    }
}

/// Kinzoku's own terms from Black's view: each king's advance toward its entry rank, and
/// the countdown (the counting side's chances fade with its moves left, and vanish when its
/// king is farther from the entry rank than it has moves).
#[inline(always)]
fn kinzoku_terms(pos: &Position<Kinzoku>) -> i32 {
    let g = Kinzoku::GEOMETRY;
    let mut s = 0;
    for c in Color::ALL {
        let rank = g.rank(pos.king(c)) as usize;
        let dist = if c == Color::Black {
            rank
        } else {
            g.height as usize - 1 - rank
        };
        let v = KINZOKU_ADVANCE[dist.min(KINZOKU_ADVANCE.len() - 1)];
        s += if c == Color::Black { v } else { -v };
    }
    if let Some(cd) = pos.extra() {
        // The counting side must win within `m` moves or lose, so its material is worth
        // little: what matters is whether its king can still reach the entry rank in time
        // (the search finds mates by itself). Starting a countdown is no bonus in itself.
        let m = cd.moves_left as i32;
        let rank = g.rank(pos.king(cd.side)) as i32;
        let dist = if cd.side == Color::Black {
            rank
        } else {
            g.height as i32 - 1 - rank
        };
        let used = kshogi_rules_kinzoku::COUNTDOWN_MOVES as i32 - m;
        // Material the counting side still has (the lone king has none): worth a quarter.
        let mut material = 0;
        for k in 1..Kinzoku::PIECES.len() {
            let kind = kshogi_core::Kind(k as u8);
            material += KINZOKU.board[k] * pos.pieces(cd.side, kind).count() as i32;
        }
        let v = -material * 3 / 4
            + if dist > m {
                -900 - 150 * (dist - m)
            } else {
                -60 * used
            };
        s += if cd.side == Color::Black { v } else { -v };
    }
    s
}

impl Evaluate for Kinzoku {
    #[inline]
    fn evaluate(pos: &Position<Self>) -> i32 {
        Self::breakdown(pos).total
    }

    #[inline(always)]
    fn piece_value(kind: kshogi_core::Kind) -> i32 {
        KINZOKU.board[kind.index()]
    }

    #[inline(always)]
    fn is_tactical(pos: &Position<Self>, mv: Move) -> bool {
        let us = pos.side_to_move();
        mv.is_flip()
            || (mv.from() == Some(pos.king(us))
                && Self::tables().farthest_rank[us.index()].has(mv.to()))
    }

    #[inline(always)]
    fn attacker_unrestricted(pos: &Position<Self>) -> bool {
        matches!(pos.extra(), Some(cd) if cd.side != pos.side_to_move() && cd.moves_left > 0)
    }

    #[inline(always)]
    fn breakdown(pos: &Position<Self>) -> EvalBreakdown {
        let (m, mo, ks) = common(pos, &KINZOKU);
        finish(pos, m, mo, ks, kinzoku_terms(pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_core::{Position, Setup};
    use kshogi_notation::parse_sfen;

    /// The position turned 180 degrees with colors (and hands, side, countdown) swapped.
    fn mirrored<V: Variant>(pos: &Position<V>, extra: V::Extra) -> Position<V> {
        let s = pos.to_setup();
        let mut m = Setup::<V>::empty();
        let g = V::GEOMETRY;
        for sq in g.all_squares() {
            if let Some(p) = s.board[sq.index()] {
                m.board[g.rotate(sq).index()] = Some(kshogi_core::Piece::new(!p.color, p.kind));
            }
        }
        m.hands = [s.hands[1], s.hands[0]];
        m.side = !s.side;
        m.extra = extra;
        Position::from_setup(&m).expect("mirror is valid")
    }

    #[test]
    fn kyoto_values_mix_faces() {
        // pawn showing: (2*100 + 780) / 3; rook showing: (2*780 + 100) / 3.
        assert_eq!(KYOTO.board[kshogi_rules_kyoto::PAWN.index()], 326);
        assert_eq!(KYOTO.board[kshogi_rules_kyoto::ROOK.index()], 553);
        // A pawn/rook pair in hand is worth its best face on the board plus 10%.
        assert_eq!(KYOTO.hand[3], 553 * 110 / 100);
    }

    #[test]
    fn micro_values_add_upside() {
        // gold 520 with rook 760 behind it: 520 + 240 / 4.
        assert_eq!(MICRO.board[kshogi_rules_micro::GOLD.index()], 580);
        assert_eq!(MICRO.board[kshogi_rules_micro::ROOK.index()], 760);
    }

    #[test]
    fn start_positions_are_balanced_up_to_tempo() {
        assert_eq!(Kyoto::evaluate(&Position::<Kyoto>::start()), TEMPO);
        assert_eq!(Micro::evaluate(&Position::<Micro>::start()), TEMPO);
        assert_eq!(Kinzoku::evaluate(&Position::<Kinzoku>::start()), TEMPO);
    }

    #[test]
    fn evaluation_is_color_symmetric() {
        for sfen in ["p1k1t/2g2/2S2/5/T1KG1 b Ps 1", "pgk2/5/1s1t1/5/TSKGP w - 1"] {
            let pos = parse_sfen::<Kyoto>(sfen).unwrap();
            assert_eq!(Kyoto::evaluate(&pos), Kyoto::evaluate(&mirrored(&pos, ())));
        }
        let pos = parse_sfen::<Micro>("kb1s/p3/2G1/3P/S1BK b g 1").unwrap();
        assert_eq!(Micro::evaluate(&pos), Micro::evaluate(&mirrored(&pos, ())));
        let pos = parse_sfen::<Kinzoku>("1ks/3/1K1/1I1/S1C b - 1").unwrap();
        assert_eq!(
            Kinzoku::evaluate(&pos),
            Kinzoku::evaluate(&mirrored(&pos, None))
        );
    }

    #[test]
    fn material_counts_for_the_side_to_move() {
        // Black has an extra silver/bishop pair in hand.
        let pos = parse_sfen::<Kyoto>("pgk1t/5/5/5/TSKGP b S 1").unwrap();
        let b = Kyoto::breakdown(&pos);
        assert!(b.material > 500, "{b:?}");
        let pos = parse_sfen::<Kyoto>("pgk1t/5/5/5/TSKGP w S 1").unwrap();
        assert!(Kyoto::breakdown(&pos).material < -500);
    }

    #[test]
    fn kinzoku_values_king_advance() {
        let home = parse_sfen::<Kinzoku>("cks/1i1/3/1I1/SKC b - 1").unwrap();
        let up = parse_sfen::<Kinzoku>("cks/1i1/1K1/1I1/S1C b - 1").unwrap();
        assert!(Kinzoku::breakdown(&up).variant > Kinzoku::breakdown(&home).variant);
    }
}
