//! # kshogi-tuned-eval
//!
//! Evaluations of the three seed variants, each an [`Evaluator`] for one variant:
//! [`KyotoEval`], [`MicroEval`] and [`KinzokuEval`]. The weights of Kyoto and Micro are
//! fitted to self-play games by the evaluation tuner (`cargo xtask tune`, crate
//! `kshogi-tune`) and included from the files it writes (`src/weights/`); Kinzoku's are set
//! by hand (it is solved). Any other variant is searched with the engine's
//! [`PieceTableEval`](kshogi_engine::PieceTableEval), derived from its piece table; the
//! registry of variants pairs each variant with its evaluator.
//!
//! The weights name the rules crates' kinds (`kshogi_rules_kyoto::PAWN`), never positions in
//! a piece table, so that reordering a table cannot silently change an evaluation.
//!
//! This crate depends on core, the engine and the rules crates of the variants it tunes; it
//! must not depend on notation, the registry or the command line.

use kshogi_core::{Color, Kind, Move, Position, Variant};
use kshogi_engine::eval::{common, face_values, finish, EvalBreakdown, EvalParams, Linear};
use kshogi_engine::{Evaluator, SearchParams};
use kshogi_rules_kinzoku::{self as kinzoku, Kinzoku};
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;

/// The weights fitted by the evaluation tuner (`cargo xtask tune`, crates/tune) to the
/// results of self-play games: generated files, each an `EvalParams` expression naming the
/// rules crate's kinds. Re-run the tuner to change them (docs/tuning.md).
mod fitted {
    /// Kyoto Shogi.
    pub mod kyoto {
        use kshogi_engine::eval::{face_values, slot_values, EvalParams};
        use kshogi_rules_kyoto::*;
        /// The weights.
        pub static PARAMS: EvalParams = include!("weights/kyoto.rs");
    }
    /// Micro Shogi.
    pub mod micro {
        use kshogi_engine::eval::{face_values, slot_values, EvalParams};
        use kshogi_rules_micro::*;
        /// The weights.
        pub static PARAMS: EvalParams = include!("weights/micro.rs");
    }
}

/// Kyoto: every face's value on the board and each pair's value in hand fitted (a piece on
/// the board also counts through the squares it attacks, the mobility term).
static KYOTO: EvalParams = fitted::kyoto::PARAMS;

/// Micro: every weight fitted by the tuner (`src/weights/micro.rs`), the last round with the
/// safe-drop-check and hanging-piece terms (docs/tuning.md, docs/strength.md).
static MICRO: EvalParams = fitted::micro::PARAMS;

static KINZOKU: EvalParams = EvalParams {
    board: face_values(&[
        (kinzoku::SILVER, 450),
        (kinzoku::COPPER, 380),
        (kinzoku::SOLDIER, 200),
        (kinzoku::GOLD, 520),
    ]),
    hand: [0; kshogi_core::MAX_SLOTS],
    mobility: 6,
    zone_attack: 16,
    zone_defend: 12,
    hand_threat: 0,
    safe_check: 0,
    hanging: 0,
};

/// Bonus by the Kinzoku king's distance (in ranks) from its entry rank.
const KINZOKU_ADVANCE: [i32; 5] = [0, 220, 90, 30, 0];

/// The search of the two flipping drop games, Kyoto and Micro: logarithmic late move
/// reductions with the improving test, node type and history; only the checks that do not
/// lose material by static exchange extended, the others reduced like quiet moves, as are
/// the moves of a node in check; losing captures tried after the quiet moves; reductions
/// from depth 2; the safe checks at the quiescence search's first ply (a drop next to the
/// king, which captures alone miss); losing checks pruned like quiet moves. Drop games need
/// this because nearly every drop next to the king checks: half the nodes of a Micro search
/// were in check. Found step by step in Micro (+46, +52, +22, +37, +49 Elo in self-play;
/// 43% to 56% against the reference engine), then tried whole in Kyoto (+47 Elo in
/// self-play; 63% to 70% against the reference engine). docs/strength.md has every SPRT.
pub const DROP_GAME_SEARCH: SearchParams = SearchParams {
    log_reductions: true,
    lmr_extras: true,
    improving: true,
    history_pruning: true,
    check_extension: false,
    safe_check_extension: true,
    reduce_checks: true,
    see_ordering: true,
    early_reductions: true,
    qsearch_checks: true,
    prune_unsafe_checks: true,
    ..SearchParams::DEFAULT
};

/// The tuned evaluation of Kyoto Shogi: material (both faces mixed), mobility, king safety.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct KyotoEval;

impl Evaluator<Kyoto> for KyotoEval {
    /// The drop games' search ([`DROP_GAME_SEARCH`]); Kyoto had the default until its
    /// self-play SPRT of the whole set (+47 Elo at 100,000 nodes a move).
    const SEARCH: SearchParams = DROP_GAME_SEARCH;

    #[inline(always)]
    fn piece_value(kind: Kind) -> i32 {
        KYOTO.board[kind.index()]
    }

    #[inline(always)]
    fn is_tactical(_pos: &Position<Kyoto>, _mv: Move) -> bool {
        false
    }

    #[inline(always)]
    fn breakdown(pos: &Position<Kyoto>) -> EvalBreakdown {
        let (m, mo, ks) = common(pos, &KYOTO);
        finish(pos, m, mo, ks, 0)
    }
}

impl Linear<Kyoto> for KyotoEval {
    fn params() -> EvalParams {
        KYOTO
    }
}

/// The tuned evaluation of Micro Shogi: material (face plus upside), mobility, king safety.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct MicroEval;

impl Evaluator<Micro> for MicroEval {
    /// The drop games' search ([`DROP_GAME_SEARCH`]), found in Micro step by step.
    const SEARCH: SearchParams = DROP_GAME_SEARCH;

    #[inline(always)]
    fn piece_value(kind: Kind) -> i32 {
        MICRO.board[kind.index()]
    }

    #[inline(always)]
    fn is_tactical(_pos: &Position<Micro>, _mv: Move) -> bool {
        false
    }

    #[inline(always)]
    fn breakdown(pos: &Position<Micro>) -> EvalBreakdown {
        let (m, mo, ks) = common(pos, &MICRO);
        finish(pos, m, mo, ks, 0)
    }
}

impl Linear<Micro> for MicroEval {
    fn params() -> EvalParams {
        MICRO
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
        let used = kinzoku::COUNTDOWN_MOVES as i32 - m;
        // Material the counting side still has (the lone king has none): worth a quarter.
        let mut material = 0;
        for k in 0..Kinzoku::PIECES.len() {
            let kind = Kind(k as u8);
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

/// The tuned evaluation of Kinzoku Shogi: material, mobility, king safety, the kings'
/// advance toward their entry ranks, and the bare-king countdown.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct KinzokuEval;

impl Evaluator<Kinzoku> for KinzokuEval {
    #[inline(always)]
    fn piece_value(kind: Kind) -> i32 {
        KINZOKU.board[kind.index()]
    }

    #[inline(always)]
    fn is_tactical(pos: &Position<Kinzoku>, mv: Move) -> bool {
        let us = pos.side_to_move();
        mv.is_flip()
            || (mv.from() == Some(pos.king(us))
                && Kinzoku::tables().farthest_rank[us.index()].has(mv.to()))
    }

    #[inline(always)]
    fn attacker_unrestricted(pos: &Position<Kinzoku>) -> bool {
        matches!(pos.extra(), Some(cd) if cd.side != pos.side_to_move() && cd.moves_left > 0)
    }

    #[inline(always)]
    fn breakdown(pos: &Position<Kinzoku>) -> EvalBreakdown {
        let (m, mo, ks) = common(pos, &KINZOKU);
        finish(pos, m, mo, ks, kinzoku_terms(pos))
    }
}

impl Linear<Kinzoku> for KinzokuEval {
    fn params() -> EvalParams {
        KINZOKU
    }

    #[inline(always)]
    fn untuned(pos: &Position<Kinzoku>) -> i32 {
        kinzoku_terms(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_core::Setup;
    use kshogi_engine::eval::TEMPO;
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
    fn start_positions_are_balanced_up_to_tempo() {
        assert_eq!(KyotoEval::evaluate(&Position::<Kyoto>::start()), TEMPO);
        assert_eq!(MicroEval::evaluate(&Position::<Micro>::start()), TEMPO);
        assert_eq!(KinzokuEval::evaluate(&Position::<Kinzoku>::start()), TEMPO);
    }

    #[test]
    fn evaluation_is_color_symmetric() {
        for sfen in ["p1k1t/2g2/2S2/5/T1KG1 b Ps 1", "pgk2/5/1s1t1/5/TSKGP w - 1"] {
            let pos = parse_sfen::<Kyoto>(sfen).unwrap();
            assert_eq!(
                KyotoEval::evaluate(&pos),
                KyotoEval::evaluate(&mirrored(&pos, ()))
            );
        }
        let pos = parse_sfen::<Micro>("kb1s/p3/2G1/3P/S1BK b g 1").unwrap();
        assert_eq!(
            MicroEval::evaluate(&pos),
            MicroEval::evaluate(&mirrored(&pos, ()))
        );
        let pos = parse_sfen::<Kinzoku>("1ks/3/1K1/1I1/S1C b - 1").unwrap();
        assert_eq!(
            KinzokuEval::evaluate(&pos),
            KinzokuEval::evaluate(&mirrored(&pos, None))
        );
    }

    #[test]
    fn material_counts_for_the_side_to_move() {
        // Black has an extra silver/bishop pair in hand.
        let pos = parse_sfen::<Kyoto>("pgk1t/5/5/5/TSKGP b S 1").unwrap();
        let b = KyotoEval::breakdown(&pos);
        assert!(b.material > 500, "{b:?}");
        let pos = parse_sfen::<Kyoto>("pgk1t/5/5/5/TSKGP w S 1").unwrap();
        assert!(KyotoEval::breakdown(&pos).material < -500);
    }

    /// Positions of random games, each checked against the feature form of the evaluation
    /// (`linear_evaluate`), which the tuner fits.
    fn feature_form_matches<V: Variant, E: Linear<V>>(seed: u64) -> usize {
        use kshogi_engine::eval::linear_evaluate;
        let mut x = seed;
        let mut checked = 0;
        for _ in 0..15 {
            let mut game = kshogi_core::Game::new(Position::<V>::start());
            while game.outcome().is_none() && game.moves().len() < 150 {
                let pos = game.position();
                let w = E::params().to_weights();
                assert_eq!(E::evaluate(pos), linear_evaluate(pos, &w, E::untuned(pos)));
                checked += 1;
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let moves = pos.legal_moves();
                let mv = moves[(x >> 33) as usize % moves.len()];
                game.play(mv).unwrap();
            }
        }
        checked
    }

    #[test]
    fn evaluate_equals_the_feature_form() {
        assert!(feature_form_matches::<Kyoto, KyotoEval>(1) > 300);
        assert!(feature_form_matches::<Micro, MicroEval>(2) > 300);
        assert!(feature_form_matches::<Kinzoku, KinzokuEval>(3) > 300);
    }

    #[test]
    fn kinzoku_values_king_advance() {
        let home = parse_sfen::<Kinzoku>("cks/1i1/3/1I1/SKC b - 1").unwrap();
        let up = parse_sfen::<Kinzoku>("cks/1i1/1K1/1I1/S1C b - 1").unwrap();
        assert!(KinzokuEval::breakdown(&up).variant > KinzokuEval::breakdown(&home).variant);
    }
}
