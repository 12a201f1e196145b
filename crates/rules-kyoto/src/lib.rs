//! # kshogi-rules-kyoto
//!
//! Kyoto Shogi as a [`kshogi_core::Variant`]: a 5x5 board, every piece but the king is a
//! pair of faces (tokin/lance, silver/bishop, gold/knight, pawn/rook), and every move of a
//! non-king piece turns it over. Captured pieces go to hand as pairs and may be dropped with
//! either face up, on any empty square, with no further restriction.
//!
//! Decisions of the project: a stalemated side loses; the third occurrence of a position
//! (board, hands, side to move) is a draw, with no perpetual-check exception.
//!
//! This crate depends on `kshogi-core` only; it must not depend on notation, the engine, the
//! registry or the CLI, and knows nothing of the other variants.

use kshogi_core::{
    Color, Flip, Geometry, GroupLimit, Kind, Movement, PieceDef, Position, RepetitionRule, Setup,
    Square, StalemateRule, Tables, Variant,
};

/// The king.
pub const KING: Kind = Kind(0);
/// Tokin (face A of the tokin/lance pair); moves as a gold.
pub const TOKIN: Kind = Kind(1);
/// Lance (face B of the tokin/lance pair).
pub const LANCE: Kind = Kind(2);
/// Silver general (face A of the silver/bishop pair).
pub const SILVER: Kind = Kind(3);
/// Bishop (face B of the silver/bishop pair).
pub const BISHOP: Kind = Kind(4);
/// Gold general (face A of the gold/knight pair).
pub const GOLD: Kind = Kind(5);
/// Knight (face B of the gold/knight pair).
pub const KNIGHT: Kind = Kind(6);
/// Pawn (face A of the pawn/rook pair).
pub const PAWN: Kind = Kind(7);
/// Rook (face B of the pawn/rook pair).
pub const ROOK: Kind = Kind(8);

/// The piece table. Hand slots follow the canonical SFEN hand order: T, G, S, P.
pub const PIECES: &[PieceDef] = &[
    PieceDef::new("king", 'K', '玉', "玉", Movement::KING)
        .royal()
        .kif_aliases(&["王"]),
    PieceDef::new("tokin", 'T', 'と', "と", Movement::GOLD)
        .flips_to(LANCE)
        .captured_to(0)
        .aliases(&["+L"]),
    PieceDef::new("lance", 'L', '香', "香", Movement::LANCE)
        .flips_to(TOKIN)
        .captured_to(0),
    PieceDef::new("silver", 'S', '銀', "銀", Movement::SILVER)
        .flips_to(BISHOP)
        .captured_to(2),
    PieceDef::new("bishop", 'B', '角', "角", Movement::BISHOP)
        .flips_to(SILVER)
        .captured_to(2)
        .aliases(&["+S"]),
    PieceDef::new("gold", 'G', '金', "金", Movement::GOLD)
        .flips_to(KNIGHT)
        .captured_to(1)
        .aliases(&["+N"]),
    PieceDef::new("knight", 'N', '桂', "桂", Movement::KNIGHT)
        .flips_to(GOLD)
        .captured_to(1),
    PieceDef::new("pawn", 'P', '歩', "歩", Movement::PAWN)
        .flips_to(ROOK)
        .captured_to(3),
    PieceDef::new("rook", 'R', '飛', "飛", Movement::ROOK)
        .flips_to(PAWN)
        .captured_to(3)
        .aliases(&["+P"]),
];

static TABLES: Tables = Tables::build(Geometry::new(5, 5), PIECES, 0x4B59_4F54_4F00_0001);

/// Kyoto Shogi.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Kyoto;

impl Variant for Kyoto {
    const NAME: &'static str = "kyoto";
    const DISPLAY_NAME: &'static str = "Kyoto Shogi";
    const ALIASES: &'static [&'static str] = &["kyotoshogi", "kyoto-shogi"];
    const KIF_NAMES: &'static [&'static str] = &["京都将棋", "京都", "kyotoshogi"];
    const GEOMETRY: Geometry = Geometry::new(5, 5);
    const PIECES: &'static [PieceDef] = PIECES;
    const STALEMATE: StalemateRule = StalemateRule::Loss;
    const REPETITION: RepetitionRule = RepetitionRule {
        occurrences: 3,
        perpetual_check_loses: false,
        repeater_loses: false,
    };
    type Extra = ();

    #[inline(always)]
    fn tables() -> &'static Tables {
        &TABLES
    }

    fn start() -> Setup<Kyoto> {
        let mut s = Setup::empty();
        let back = [TOKIN, SILVER, KING, GOLD, PAWN];
        for (i, &k) in back.iter().enumerate() {
            // Black's rank e from file 5 to 1; White's rank a is the 180-degree image.
            s.put(5 - i as u8, 4, Color::Black, k);
            s.put(1 + i as u8, 0, Color::White, k);
        }
        s
    }

    #[inline(always)]
    fn flip(kind: Kind, _: Color, _: Square, _: Square, _: bool) -> Flip {
        if kind == KING {
            Flip::Never
        } else {
            Flip::Always
        }
    }

    /// Kyoto Shogi has no adjudication, and its drop targets are the default (the empty
    /// squares), so perft may count the replies to any move without making it.
    #[inline(always)]
    fn no_adjudication_after(
        _pos: &Position<Kyoto>,
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
