//! Static evaluation: the terms every variant shares (material on the board and in hand,
//! mobility, king safety, hanging pieces), their weights ([`EvalParams`]), and the weights
//! derived from a variant's piece table, which [`crate::PieceTableEval`] uses for any
//! variant.
//!
//! A tuned evaluation for one variant reuses these parts: it builds its own [`EvalParams`]
//! (with [`two_face_board`] and [`hand_values`] from values keyed by the variant's named
//! kinds, see [`face_values`]), calls [`common`] and adds its own terms through [`finish`].

use crate::Evaluator;
use kshogi_core::{
    Bitboard, Color, Geometry, Kind, Move, PieceDef, Position, Variant, MAX_KINDS, MAX_SLOTS,
};

/// Evaluations are kept inside this range, far from mate scores.
pub const EVAL_LIMIT: i32 = 20_000;

/// Bonus for having the move.
pub const TEMPO: i32 = 10;

/// The ordering value of a royal piece whose capture wins (a variant without the check rule).
pub const ROYAL_VALUE: i32 = 10_000;

/// The least gain in value that makes a flip a tactical move for the derived evaluation.
pub const TACTICAL_GAIN: i32 = 100;

/// A static evaluation split into its parts, every part from the side to move's point of
/// view, in centipawns.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct EvalBreakdown {
    /// Pieces on the board and in hand.
    pub material: i32,
    /// Squares attacked (own pieces' squares excluded).
    pub mobility: i32,
    /// Attacks on the squares around each king, defenders beside it, drop threats and safe
    /// drop checks; also the hanging pieces (the tactical term, counted with these).
    pub king_safety: i32,
    /// Variant-specific terms (Kinzoku: king advance and the bare-king countdown).
    pub variant: i32,
    /// The evaluation: the sum of the parts plus a small bonus for the side to move, clamped.
    pub total: i32,
}

/// The weights of one variant's shared terms.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// Value of a piece on the board by the face it shows (indexed by [`Kind`]).
    pub board: [i32; MAX_KINDS],
    /// Value of a piece in hand by hand slot.
    pub hand: [i32; MAX_SLOTS],
    /// Per attacked square.
    pub mobility: i32,
    /// Per square next to the enemy king that we attack.
    pub zone_attack: i32,
    /// Per own piece next to our king.
    pub zone_defend: i32,
    /// Per enemy piece in hand and empty square next to our king (drops that can hit it).
    pub hand_threat: i32,
    /// Per safe drop check against our king: an empty square where a piece the enemy holds
    /// in hand (either face) would give check and which we do not attack, or which the
    /// enemy also attacks (the dropped piece is defended).
    pub safe_check: i32,
    /// Per hanging piece of ours: a piece other than the king that the enemy attacks and
    /// we do not defend.
    pub hanging: i32,
    /// The weights of the variant's own terms, by the evaluator's
    /// [`Linear::extra_features`] (named by [`Linear::EXTRA_NAMES`]), fitted like the
    /// others; the slots a variant does not use are 0.
    pub extra: [i32; N_EXTRA],
}

/// The most terms of its own a variant's linear evaluation may have ([`EvalParams::extra`]).
pub const N_EXTRA: usize = 12;

/// Face values by kind from `(kind, value)` pairs, so that a tuned evaluation names the
/// variant's kinds instead of relying on their order in the piece table. Kinds not listed
/// are worth 0.
pub const fn face_values(values: &[(Kind, i32)]) -> [i32; MAX_KINDS] {
    let mut out = [0; MAX_KINDS];
    let mut i = 0;
    while i < values.len() {
        out[values[i].0 .0 as usize] = values[i].1;
        i += 1;
    }
    out
}

/// Board values for a variant whose pieces have two faces: `(w_cur * current + w_other *
/// other) / (w_cur + w_other)`; `upside_only` instead adds a share `w_other / w_cur` of the
/// other face's extra worth only when it is worth more.
pub const fn two_face_board(
    pieces: &[PieceDef],
    face: &[i32; MAX_KINDS],
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
pub const fn hand_values(
    pieces: &[PieceDef],
    board: &[i32; MAX_KINDS],
    pct: i32,
) -> [i32; MAX_SLOTS] {
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

/// Ten times the average number of squares a piece of this movement reaches from a square of
/// an empty board (Black's view; White's is the same by symmetry).
const fn mobility_x10(g: Geometry, def: &PieceDef) -> i32 {
    let w = g.width as i32;
    let h = g.height as i32;
    let mut total = 0;
    let mut r = 0;
    while r < h {
        let mut f = 0;
        while f < w {
            let steps = def.movement.steps;
            let mut i = 0;
            while i < steps.len() {
                let (nf, nr) = (f + steps[i].0 as i32, r - steps[i].1 as i32);
                if nf >= 0 && nf < w && nr >= 0 && nr < h {
                    total += 1;
                }
                i += 1;
            }
            let slides = def.movement.slides;
            let mut i = 0;
            while i < slides.len() {
                let (mut nf, mut nr) = (f + slides[i].0 as i32, r - slides[i].1 as i32);
                while nf >= 0 && nf < w && nr >= 0 && nr < h {
                    total += 1;
                    nf += slides[i].0 as i32;
                    nr -= slides[i].1 as i32;
                }
                i += 1;
            }
            let ranged = def.movement.ranged;
            let mut i = 0;
            while i < ranged.len() {
                let ((dx, dy), range) = ranged[i];
                let (mut nf, mut nr) = (f + dx as i32, r - dy as i32);
                let mut n = 0;
                while n < range && nf >= 0 && nf < w && nr >= 0 && nr < h {
                    total += 1;
                    nf += dx as i32;
                    nr -= dy as i32;
                    n += 1;
                }
                i += 1;
            }
            f += 1;
        }
        r += 1;
    }
    total * 10 / (w * h)
}

impl EvalParams {
    /// Weights derived from a piece table alone, for a variant with no tuned evaluation.
    ///
    /// A face is worth `50 + 9 * m` centipawns, where `m` is ten times the average number of
    /// squares it reaches on the empty board (a pawn on 5x5 about 120, a gold about 430, a
    /// rook about 770); a face that can turn into a better one gains a quarter of the
    /// difference; the king counts nothing (each side has one). A piece in hand is worth its
    /// best face plus 10%. Mobility, king-zone and drop-threat weights are those of the
    /// tuned seed variants.
    pub const fn derive(pieces: &[PieceDef], geometry: Geometry) -> EvalParams {
        let mut face = [0; MAX_KINDS];
        let mut k = 0;
        let mut drops = false;
        while k < pieces.len() {
            if !pieces[k].royal {
                face[k] = 50 + 9 * mobility_x10(geometry, &pieces[k]);
            }
            drops |= pieces[k].hand_slot.is_some();
            k += 1;
        }
        let board = two_face_board(pieces, &face, 4, 1, true);
        EvalParams {
            board,
            hand: hand_values(pieces, &board, 110),
            mobility: 5,
            zone_attack: 14,
            zone_defend: 10,
            hand_threat: if drops { 4 } else { 0 },
            safe_check: 0,
            hanging: 0,
            extra: [0; N_EXTRA],
        }
    }
}

/// [`EvalParams::derive`] for each variant, computed at compile time.
trait Derived: Variant {
    const PARAMS: EvalParams;
}

impl<V: Variant> Derived for V {
    const PARAMS: EvalParams = EvalParams::derive(V::PIECES, V::GEOMETRY);
}

/// The derived ordering value of a piece (see [`Evaluator::piece_value`]).
#[inline(always)]
pub fn derived_piece_value<V: Variant>(kind: Kind) -> i32 {
    match V::PIECES.get(kind.index()) {
        Some(def) if def.royal => ROYAL_VALUE,
        Some(_) => <V as Derived>::PARAMS.board[kind.index() % MAX_KINDS],
        None => 0,
    }
}

/// The derived tactical test (see [`Evaluator::is_tactical`]): a flip that gains at least
/// [`TACTICAL_GAIN`] by `E`'s piece values.
#[inline(always)]
pub fn derived_is_tactical<V: Variant, E: Evaluator<V>>(pos: &Position<V>, mv: Move) -> bool {
    if !mv.is_flip() {
        return false;
    }
    let Some(from) = mv.from() else { return false };
    let Some(p) = pos.piece_at(from) else {
        return false;
    };
    let Some(to) = V::PIECES[p.kind.index()].flips_to else {
        return false;
    };
    E::piece_value(to) - E::piece_value(p.kind) >= TACTICAL_GAIN
}

/// The derived evaluation (see [`Evaluator::breakdown`]).
#[inline]
pub fn derived_breakdown<V: Variant>(pos: &Position<V>) -> EvalBreakdown {
    let (m, mo, ks) = common(pos, &<V as Derived>::PARAMS);
    finish(pos, m, mo, ks, 0)
}

/// Material, mobility and king safety, each from Black's point of view.
#[inline(always)]
pub fn common<V: Variant>(pos: &Position<V>, p: &EvalParams) -> (i32, i32, i32) {
    let t = V::tables();
    let occ = pos.occupied();
    let mut material = 0;
    let mut mobility = 0;
    let mut safety = 0;
    let mut attacks = [Bitboard::EMPTY; 2];
    let mut in_hand = [0i32; 2];
    for c in Color::ALL {
        let sign = if c == Color::Black { 1 } else { -1 };
        let own = pos.color_bb(c);
        let mut m = 0;
        for k in 0..t.kinds {
            let v = p.board[k];
            if v != 0 {
                m += v * (pos.kind_bb(Kind(k as u8)) & own).count() as i32;
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
        let mut s = defenders * p.zone_defend
            - attacked * p.zone_attack
            - in_hand[enemy.index()] * empty * p.hand_threat;
        if p.safe_check != 0 {
            s -= p.safe_check * safe_drop_checks(pos, c, &attacks, in_hand[enemy.index()]);
        }
        if p.hanging != 0 {
            s -= p.hanging * hanging(pos, c, &attacks);
        }
        safety += sign * s;
    }
    (material, mobility, safety)
}

/// The number of safe drop checks against `c`'s king (see [`EvalParams::safe_check`]):
/// empty squares from which a piece the enemy holds in hand, with either face up, would
/// attack the king, where the enemy may drop it, and which `c` does not attack or the enemy
/// attacks too. `attacks` are each colour's attacked squares; `enemy_in_hand` the number of
/// pieces the enemy holds (0 skips the work).
#[inline(always)]
pub fn safe_drop_checks<V: Variant>(
    pos: &Position<V>,
    c: Color,
    attacks: &[Bitboard; 2],
    enemy_in_hand: i32,
) -> i32 {
    if enemy_in_hand == 0 {
        return 0;
    }
    let t = V::tables();
    let enemy = !c;
    let occ = pos.occupied();
    let ksq = pos.king(c);
    let mut checks = Bitboard::EMPTY;
    for slot in 0..t.slots {
        if pos.hand(enemy, slot) == 0 {
            continue;
        }
        for &k in &t.slot_faces[slot][..t.slot_faces_len[slot] as usize] {
            // A piece of the enemy's on `s` attacks the king exactly when one of ours on the
            // king's square attacks `s` (the two colours' moves are point-symmetric).
            checks |= t.attacks(c, k, ksq, occ) & !t.dead[enemy.index()][k.index()];
        }
    }
    let safe = !attacks[c.index()] | attacks[enemy.index()];
    (checks & safe & !occ & t.board).count() as i32
}

/// The number of `c`'s pieces other than the king that the enemy attacks and `c` does not
/// defend (see [`EvalParams::hanging`]).
#[inline(always)]
pub fn hanging<V: Variant>(pos: &Position<V>, c: Color, attacks: &[Bitboard; 2]) -> i32 {
    let t = V::tables();
    let ours = pos.color_bb(c) & !pos.pieces(c, t.king);
    (ours & attacks[(!c).index()] & !attacks[c.index()]).count() as i32
}

/// Adds the parts (given from Black's view) into a breakdown from the side to move's view,
/// with [`TEMPO`] for the side to move, clamped to [`EVAL_LIMIT`].
#[inline(always)]
pub fn finish<V: Variant>(pos: &Position<V>, m: i32, mo: i32, ks: i32, var: i32) -> EvalBreakdown {
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

/// Number of weights of an [`EvalParams`] seen as one vector ([`EvalParams::to_weights`]):
/// the board values by kind, the hand values by slot, then mobility, zone attack, zone
/// defence, hand threat, safe drop checks and hanging pieces, then the variant's own terms
/// ([`EvalParams::extra`]).
pub const N_WEIGHTS: usize = MAX_KINDS + MAX_SLOTS + 6 + N_EXTRA;

/// Index of the mobility weight in the weight vector.
pub const W_MOBILITY: usize = MAX_KINDS + MAX_SLOTS;
/// Index of the zone-attack weight in the weight vector.
pub const W_ZONE_ATTACK: usize = W_MOBILITY + 1;
/// Index of the zone-defence weight in the weight vector.
pub const W_ZONE_DEFEND: usize = W_MOBILITY + 2;
/// Index of the hand-threat weight in the weight vector.
pub const W_HAND_THREAT: usize = W_MOBILITY + 3;
/// Index of the safe-drop-check weight in the weight vector.
pub const W_SAFE_CHECK: usize = W_MOBILITY + 4;
/// Index of the hanging-piece weight in the weight vector.
pub const W_HANGING: usize = W_MOBILITY + 5;
/// Index of the first of the variant's own terms in the weight vector
/// ([`EvalParams::extra`]).
pub const W_EXTRA: usize = W_MOBILITY + 6;

impl EvalParams {
    /// The weights as one vector, in the order of [`features`] (see [`N_WEIGHTS`]).
    pub const fn to_weights(&self) -> [i32; N_WEIGHTS] {
        let mut w = [0; N_WEIGHTS];
        let mut k = 0;
        while k < MAX_KINDS {
            w[k] = self.board[k];
            k += 1;
        }
        let mut s = 0;
        while s < MAX_SLOTS {
            w[MAX_KINDS + s] = self.hand[s];
            s += 1;
        }
        w[W_MOBILITY] = self.mobility;
        w[W_ZONE_ATTACK] = self.zone_attack;
        w[W_ZONE_DEFEND] = self.zone_defend;
        w[W_HAND_THREAT] = self.hand_threat;
        w[W_SAFE_CHECK] = self.safe_check;
        w[W_HANGING] = self.hanging;
        let mut e = 0;
        while e < N_EXTRA {
            w[W_EXTRA + e] = self.extra[e];
            e += 1;
        }
        w
    }

    /// The weights from a vector in the order of [`EvalParams::to_weights`].
    pub const fn from_weights(w: &[i32; N_WEIGHTS]) -> EvalParams {
        let mut board = [0; MAX_KINDS];
        let mut k = 0;
        while k < MAX_KINDS {
            board[k] = w[k];
            k += 1;
        }
        let mut hand = [0; MAX_SLOTS];
        let mut s = 0;
        while s < MAX_SLOTS {
            hand[s] = w[MAX_KINDS + s];
            s += 1;
        }
        let mut extra = [0; N_EXTRA];
        let mut e = 0;
        while e < N_EXTRA {
            extra[e] = w[W_EXTRA + e];
            e += 1;
        }
        EvalParams {
            board,
            hand,
            mobility: w[W_MOBILITY],
            zone_attack: w[W_ZONE_ATTACK],
            zone_defend: w[W_ZONE_DEFEND],
            hand_threat: w[W_HAND_THREAT],
            safe_check: w[W_SAFE_CHECK],
            hanging: w[W_HANGING],
            extra,
        }
    }
}

/// Hand values by slot from `(kind, value)` pairs, each kind standing for its hand slot (so
/// that a tuned evaluation names the variant's kinds, not slot numbers). Slots not named
/// are worth 0; a kind without a hand slot is ignored.
pub const fn slot_values(pieces: &[PieceDef], values: &[(Kind, i32)]) -> [i32; MAX_SLOTS] {
    let mut out = [0; MAX_SLOTS];
    let mut i = 0;
    while i < values.len() {
        let k = values[i].0 .0 as usize;
        if k < pieces.len() {
            if let Some(slot) = pieces[k].hand_slot {
                out[slot as usize] = values[i].1;
            }
        }
        i += 1;
    }
    out
}

/// What [`common`] counts, from Black's point of view, in the order of
/// [`EvalParams::to_weights`]: `common(pos, p)` summed is exactly the dot product of
/// `p.to_weights()` with this vector. For the evaluation tuner; the search itself calls
/// [`common`], which skips the terms whose weight is 0.
///
/// Board and hand entries are Black's count minus White's; mobility is Black's attacked
/// squares (own pieces' squares excluded) minus White's; zone attack is the number of squares
/// next to the Black king that White attacks minus the same for the White king (so its
/// weight enters with a minus sign, as in [`common`]); zone defence counts defenders beside
/// each king; hand threat is minus (White's pieces in hand times the empty squares next to
/// the Black king) plus the same for White; safe drop checks ([`safe_drop_checks`]) and
/// hanging pieces ([`hanging`]) are minus Black's count plus White's.
pub fn features<V: Variant>(pos: &Position<V>) -> [i32; N_WEIGHTS] {
    let t = V::tables();
    let occ = pos.occupied();
    let mut f = [0; N_WEIGHTS];
    let mut attacks = [Bitboard::EMPTY; 2];
    let mut in_hand = [0i32; 2];
    for c in Color::ALL {
        let sign = if c == Color::Black { 1 } else { -1 };
        let own = pos.color_bb(c);
        for (k, fk) in f.iter_mut().enumerate().take(t.kinds) {
            *fk += sign * (pos.kind_bb(Kind(k as u8)) & own).count() as i32;
        }
        for slot in 0..t.slots {
            let n = pos.hand(c, slot) as i32;
            f[MAX_KINDS + slot] += sign * n;
            in_hand[c.index()] += n;
        }
        attacks[c.index()] = pos.attacked_squares(c, occ);
        f[W_MOBILITY] += sign * (attacks[c.index()] & !own).count() as i32;
    }
    for c in Color::ALL {
        let sign = if c == Color::Black { 1 } else { -1 };
        let zone = t.step[c.index()][t.king.index()][pos.king(c).index()];
        let enemy = !c;
        f[W_ZONE_ATTACK] -= sign * (attacks[enemy.index()] & zone).count() as i32;
        f[W_ZONE_DEFEND] += sign * (pos.color_bb(c) & zone).count() as i32;
        f[W_HAND_THREAT] -= sign * in_hand[enemy.index()] * (zone & !occ).count() as i32;
        f[W_SAFE_CHECK] -= sign * safe_drop_checks(pos, c, &attacks, in_hand[enemy.index()]);
        f[W_HANGING] -= sign * hanging(pos, c, &attacks);
    }
    f
}

/// An evaluator made of the shared terms ([`common`]) with fixed weights, plus a part the
/// weights do not cover: what the evaluation tuner fits.
///
/// Contract (checked by the tests of every implementation): for every position,
/// `Self::evaluate(pos)` equals [`linear_evaluate`]`::<V, Self>(pos,
/// &Self::params().to_weights())`.
pub trait Linear<V: Variant>: Evaluator<V> {
    /// The weights of the shared terms.
    fn params() -> EvalParams;

    /// The names of the variant's own fitted terms, one for each slot of
    /// [`EvalParams::extra`] it uses (at most [`N_EXTRA`]); none by default.
    const EXTRA_NAMES: &'static [&'static str] = &[];

    /// The variant's own terms from Black's point of view, one per name of
    /// [`Linear::EXTRA_NAMES`] (the other slots 0): what the weights
    /// [`EvalParams::extra`] multiply. All 0 by default.
    #[inline(always)]
    fn extra_features(_pos: &Position<V>) -> [i32; N_EXTRA] {
        [0; N_EXTRA]
    }

    /// The rest of the evaluation from Black's point of view, before [`TEMPO`]: what no
    /// weight multiplies; 0 by default.
    #[inline(always)]
    fn untuned(_pos: &Position<V>) -> i32 {
        0
    }
}

/// The variant's own terms weighed: the dot product of `p.extra` with `features`
/// ([`Linear::extra_features`]), from Black's point of view.
#[inline(always)]
pub fn extra_terms(p: &EvalParams, features: &[i32; N_EXTRA]) -> i32 {
    p.extra.iter().zip(features).map(|(w, x)| w * x).sum()
}

/// Every feature of a [`Linear`] evaluator `E`, in the order of
/// [`EvalParams::to_weights`]: [`features`] with `E`'s own terms
/// ([`Linear::extra_features`]) in their slots.
pub fn linear_features<V: Variant, E: Linear<V>>(pos: &Position<V>) -> [i32; N_WEIGHTS] {
    let mut f = features(pos);
    f[W_EXTRA..W_EXTRA + N_EXTRA].copy_from_slice(&E::extra_features(pos));
    f
}

/// An evaluator together with the [`Linear`] evaluation that the evaluation tuner fits for
/// it: a linear evaluator names itself (`impl Tunable<V> for MyEval { type Linear = Self; }`);
/// an evaluator that scores otherwise (a learned net) names the linear evaluation it falls
/// back on for everything but the score, and the tuner fits that one.
///
/// There is no blanket impl over [`Linear`]: it would keep a net's evaluator, which is not
/// linear, from naming its fallback.
pub trait Tunable<V: Variant>: Evaluator<V> {
    /// The linear evaluation the tuner fits and whose features its data record.
    type Linear: Linear<V>;
}

impl<V: Variant> Tunable<V> for crate::PieceTableEval {
    type Linear = Self;
}

impl<V: Variant> Linear<V> for crate::PieceTableEval {
    fn params() -> EvalParams {
        <V as Derived>::PARAMS
    }
}

/// The evaluation in the feature form: the dot product of `weights` with `E`'s features
/// ([`linear_features`]), plus `E`'s untuned part (Black's view), turned to the side to
/// move's view with [`TEMPO`] and clamped, as [`finish`] does. Equals
/// [`Evaluator::evaluate`] of the [`Linear`] evaluator `E` when these are its weights.
pub fn linear_evaluate<V: Variant, E: Linear<V>>(
    pos: &Position<V>,
    weights: &[i32; N_WEIGHTS],
) -> i32 {
    let untuned = E::untuned(pos);
    let f = linear_features::<V, E>(pos);
    let dot: i32 = weights.iter().zip(f.iter()).map(|(w, x)| w * x).sum();
    let sign = if pos.side_to_move() == Color::Black {
        1
    } else {
        -1
    };
    (sign * (dot + untuned) + TEMPO).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_core::Movement;

    fn def(name: &'static str, movement: Movement, royal: bool, slot: Option<u8>) -> PieceDef {
        let piece = PieceDef::new(name, 'X', 'X', "X", movement);
        match (royal, slot) {
            (true, _) => piece.royal(),
            (false, Some(s)) => piece.captured_to(s).group(1),
            (false, None) => piece.group(1),
        }
    }

    #[test]
    fn derived_values_follow_mobility() {
        // On a 5x5 board a pawn reaches 20 of 25 squares' forward neighbours: 0.8 squares on
        // average, so 50 + 9 * 8 = 122; a rook always reaches 8 squares: 50 + 9 * 80 = 770.
        let pieces = [
            def("king", Movement::KING, true, None),
            def("pawn", Movement::PAWN, false, Some(0)),
            def("rook", Movement::ROOK, false, Some(1)),
        ];
        let p = EvalParams::derive(&pieces, Geometry::new(5, 5));
        assert_eq!(p.board[0], 0);
        assert_eq!(p.board[1], 122);
        assert_eq!(p.board[2], 770);
        assert_eq!(p.hand[0], 122 * 110 / 100);
        assert_eq!(p.hand[1], 770 * 110 / 100);
        assert_eq!(p.hand_threat, 4);
    }

    /// Each colour's attacked squares, as `common` computes them.
    fn attacks_of<V: Variant>(pos: &Position<V>) -> [Bitboard; 2] {
        let occ = pos.occupied();
        [
            pos.attacked_squares(Color::Black, occ),
            pos.attacked_squares(Color::White, occ),
        ]
    }

    #[test]
    fn safe_drop_checks_are_counted_by_hand() {
        use kshogi_rules_micro::Micro;
        // White's king on 4a, Black's on 1e, Black holds the gold/rook pair. A gold dropped
        // on 3a, 3b or 4b, or a rook on 2a, 1a or 4b to 4e, checks: 8 squares. The White
        // king guards 3a, 3b and 4b, which Black does not attack: 5 safe drop checks.
        let pos = kshogi_notation::parse_sfen::<Micro>("k3/4/4/4/3K b G 1").unwrap();
        let a = attacks_of(&pos);
        assert_eq!(safe_drop_checks(&pos, Color::White, &a, 1), 5);
        assert_eq!(safe_drop_checks(&pos, Color::Black, &a, 0), 0);
        // A Black silver on 3c attacks 4b and 3b, so a piece dropped there is defended:
        // only 3a stays unsafe, 7 safe drop checks.
        let pos = kshogi_notation::parse_sfen::<Micro>("k3/4/1S2/4/3K b G 1").unwrap();
        let a = attacks_of(&pos);
        assert_eq!(safe_drop_checks(&pos, Color::White, &a, 1), 7);
        // The feature vector: minus Black's count plus White's.
        assert_eq!(features(&pos)[W_SAFE_CHECK], 7);
    }

    #[test]
    fn hanging_pieces_are_attacked_and_undefended() {
        use kshogi_rules_micro::Micro;
        // White's rook on 2a attacks Black's silver on 2c, which nothing defends (Black's
        // king on 1e guards 2d, 1d and 2e). White's rook is not attacked.
        let pos = kshogi_notation::parse_sfen::<Micro>("k1r1/4/2S1/4/3K b - 1").unwrap();
        let a = attacks_of(&pos);
        assert_eq!(hanging(&pos, Color::Black, &a), 1);
        assert_eq!(hanging(&pos, Color::White, &a), 0);
        assert_eq!(features(&pos)[W_HANGING], -1);
        // With the king on 1d the silver is defended.
        let pos = kshogi_notation::parse_sfen::<Micro>("k1r1/4/2S1/3K/4 b - 1").unwrap();
        assert_eq!(hanging(&pos, Color::Black, &attacks_of(&pos)), 0);
    }

    #[test]
    fn face_values_are_keyed_by_kind() {
        let v = face_values(&[(Kind(3), 40), (Kind(1), 7)]);
        assert_eq!(&v[..4], &[0, 7, 0, 40]);
    }
}
