//! # kshogi-rules-micro
//!
//! Micro Shogi as a [`kshogi_core::Variant`]: a 4x5 board with pieces that are pairs of faces
//! (silver/lance, bishop/tokin, gold/rook, pawn/knight). There is no promotion zone: a
//! non-king piece that captures turns over (mandatory), and a move that captures nothing
//! never turns it. Captured pieces go to hand as pairs and may be dropped with either face
//! up on any empty square: two pawns on a file, pawn-drop mate and trapped pieces are legal.
//!
//! A stalemated side loses. The fourth occurrence of a position (board, hands, side to move)
//! is a draw, except that a side whose every move in the repetition gave check loses.
//!
//! This crate depends on `kshogi-core` only; it must not depend on notation, the engine, the
//! registry or the CLI, and knows nothing of the other variants.

use kshogi_core::{
    Color, Flip, Geometry, GroupLimit, Kind, Movement, PieceDef, Position, RepetitionRule, Setup,
    Square, StalemateRule, Tables, Variant,
};

/// The king.
pub const KING: Kind = Kind(0);
/// Bishop (face A of the bishop/tokin pair).
pub const BISHOP: Kind = Kind(1);
/// Tokin (face B of the bishop/tokin pair); moves as a gold.
pub const TOKIN: Kind = Kind(2);
/// Gold general (face A of the gold/rook pair).
pub const GOLD: Kind = Kind(3);
/// Rook (face B of the gold/rook pair).
pub const ROOK: Kind = Kind(4);
/// Silver general (face A of the silver/lance pair).
pub const SILVER: Kind = Kind(5);
/// Lance (face B of the silver/lance pair).
pub const LANCE: Kind = Kind(6);
/// Pawn (face A of the pawn/knight pair).
pub const PAWN: Kind = Kind(7);
/// Knight (face B of the pawn/knight pair).
pub const KNIGHT: Kind = Kind(8);

/// The piece table. Hand slots follow the canonical SFEN hand order: B, G, S, P.
pub const PIECES: &[PieceDef] = &[
    PieceDef::new("king", 'K', '玉', "玉", Movement::KING)
        .royal()
        .kif_aliases(&["王"]),
    PieceDef::new("bishop", 'B', '角', "角", Movement::BISHOP)
        .flips_to(TOKIN)
        .captured_to(0),
    PieceDef::new("tokin", 'T', 'と', "と", Movement::GOLD)
        .flips_to(BISHOP)
        .captured_to(0)
        .aliases(&["+B"]),
    PieceDef::new("gold", 'G', '金', "金", Movement::GOLD)
        .flips_to(ROOK)
        .captured_to(1)
        .aliases(&["+R"]),
    PieceDef::new("rook", 'R', '飛', "飛", Movement::ROOK)
        .flips_to(GOLD)
        .captured_to(1),
    PieceDef::new("silver", 'S', '銀', "銀", Movement::SILVER)
        .flips_to(LANCE)
        .captured_to(2)
        .aliases(&["+L"]),
    PieceDef::new("lance", 'L', '香', "香", Movement::LANCE)
        .flips_to(SILVER)
        .captured_to(2),
    PieceDef::new("pawn", 'P', '歩', "歩", Movement::PAWN)
        .flips_to(KNIGHT)
        .captured_to(3),
    PieceDef::new("knight", 'N', '桂', "桂", Movement::KNIGHT)
        .flips_to(PAWN)
        .captured_to(3)
        .aliases(&["+P"]),
];

static TABLES: Tables = Tables::build(Geometry::new(4, 5), PIECES, 0x4D49_4352_4F00_0002);

/// Micro Shogi.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Micro;

impl Variant for Micro {
    const NAME: &'static str = "micro";
    const DISPLAY_NAME: &'static str = "Micro Shogi";
    const ALIASES: &'static [&'static str] = &["microshogi", "micro-shogi"];
    const KIF_NAMES: &'static [&'static str] = &["五分摩訶将棋", "microshogi"];
    const GEOMETRY: Geometry = Geometry::new(4, 5);
    const PIECES: &'static [PieceDef] = PIECES;
    const STALEMATE: StalemateRule = StalemateRule::Loss;
    const REPETITION: RepetitionRule = RepetitionRule {
        occurrences: 4,
        perpetual_check_loses: true,
        repeater_loses: false,
    };
    type Extra = ();

    #[inline(always)]
    fn tables() -> &'static Tables {
        &TABLES
    }

    fn start() -> Setup<Micro> {
        let mut s = Setup::empty();
        // Black's first rank, file 4 to file 1: S G B K; pawn on 1d. White is the image.
        let back = [SILVER, GOLD, BISHOP, KING];
        for (i, &k) in back.iter().enumerate() {
            s.put(4 - i as u8, 4, Color::Black, k);
            s.put(1 + i as u8, 0, Color::White, k);
        }
        s.put(1, 3, Color::Black, PAWN);
        s.put(4, 1, Color::White, PAWN);
        s
    }

    #[inline(always)]
    fn flip(kind: Kind, _: Color, _: Square, _: Square, capture: bool) -> Flip {
        if capture && kind != KING {
            Flip::Always
        } else {
            Flip::Never
        }
    }

    /// Micro Shogi has no adjudication, and its drop targets are the default (the empty
    /// squares), so perft may count the replies to any move without making it.
    #[inline(always)]
    fn no_adjudication_after(
        _pos: &Position<Micro>,
        _from: Option<Square>,
        _to: Square,
        _now: Kind,
    ) -> bool {
        true
    }

    fn group_limit(_group: u8) -> GroupLimit {
        GroupLimit {
            total: 2,
            per_side: 2,
        }
    }
}
