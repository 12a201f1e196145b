//! # kshogi-rules-minishogi
//!
//! Minishogi (5五将棋) as a [`kshogi_core::Variant`]: standard shogi on a 5x5 board with
//! one of each piece per side (king, rook, bishop, gold, silver, pawn). The promotion zone is
//! the farthest rank: a move that starts or ends there may promote, and a pawn arriving there
//! must. Captured pieces go to hand unpromoted and may be dropped on any empty square, except
//! that a pawn may not be dropped on its farthest rank, on a file holding an unpromoted pawn
//! of the same side (nifu), or to give checkmate (uchifuzume; a pawn drop that checks without
//! mating is legal).
//!
//! All of this is declared with core's [`Variant::PROMOTION_ZONE`] and
//! [`Variant::DROP_RULES`]; the crate has no hand-written flip or drop rule.
//!
//! A stalemated side loses. The fourth occurrence of a position is a draw, except that a side
//! whose every move in the repetition gave check loses.
//!
//! This crate depends on `kshogi-core` only; it must not depend on notation, the engine, the
//! registry or the CLI, and knows nothing of the other variants.

use kshogi_core::{
    Color, DropRules, Geometry, GroupLimit, Kind, Movement, PieceDef, Position, RepetitionRule,
    Setup, Square, StalemateRule, Tables, Variant,
};

/// The king.
pub const KING: Kind = Kind(0);
/// Rook.
pub const ROOK: Kind = Kind(1);
/// Bishop.
pub const BISHOP: Kind = Kind(2);
/// Gold general.
pub const GOLD: Kind = Kind(3);
/// Silver general.
pub const SILVER: Kind = Kind(4);
/// Pawn.
pub const PAWN: Kind = Kind(5);
/// Dragon, the promoted rook, `+R`: a rook that also steps one square diagonally.
pub const DRAGON: Kind = Kind(6);
/// Horse, the promoted bishop, `+B`: a bishop that also steps one square orthogonally.
pub const HORSE: Kind = Kind(7);
/// Promoted silver, `+S`; moves as a gold.
pub const PRO_SILVER: Kind = Kind(8);
/// Tokin, the promoted pawn, `+P`; moves as a gold.
pub const TOKIN: Kind = Kind(9);

const DRAGON_MOVES: Movement = Movement {
    steps: &[(1, 1), (-1, 1), (1, -1), (-1, -1)],
    slides: Movement::ROOK.slides,
    ranged: &[],
};
const HORSE_MOVES: Movement = Movement {
    steps: &[(0, 1), (0, -1), (1, 0), (-1, 0)],
    slides: Movement::BISHOP.slides,
    ranged: &[],
};

/// The piece table. Hand slots follow the canonical SFEN hand order: R, B, G, S, P. A
/// promoted face shares its base piece's slot, so that a captured piece goes to hand
/// unpromoted (core never drops a promoted face).
pub const PIECES: &[PieceDef] = &[
    PieceDef::new("king", 'K', '玉', "玉", Movement::KING)
        .royal()
        .kif_aliases(&["王"]),
    PieceDef::new("rook", 'R', '飛', "飛", Movement::ROOK)
        .flips_to(DRAGON)
        .captured_to(0),
    PieceDef::new("bishop", 'B', '角', "角", Movement::BISHOP)
        .flips_to(HORSE)
        .captured_to(1),
    PieceDef::new("gold", 'G', '金', "金", Movement::GOLD).captured_to(2),
    PieceDef::new("silver", 'S', '銀', "銀", Movement::SILVER)
        .flips_to(PRO_SILVER)
        .captured_to(3),
    PieceDef::new("pawn", 'P', '歩', "歩", Movement::PAWN)
        .flips_to(TOKIN)
        .captured_to(4),
    PieceDef::new("dragon", 'R', '龍', "龍", DRAGON_MOVES)
        .written_promoted()
        .captured_to(0)
        .kif_aliases(&["竜"]),
    PieceDef::new("horse", 'B', '馬', "馬", HORSE_MOVES)
        .written_promoted()
        .captured_to(1),
    PieceDef::new("promoted silver", 'S', '全', "成銀", Movement::GOLD)
        .written_promoted()
        .captured_to(3),
    PieceDef::new("tokin", 'P', 'と', "と", Movement::GOLD)
        .written_promoted()
        .captured_to(4),
];

const GEOMETRY: Geometry = Geometry::new(5, 5);

/// Built at compile time. The seed only varies the hash keys between variants.
static TABLES: Tables = Tables::build(GEOMETRY, PIECES, 0x4D49_4E49_0000_0004);

/// Minishogi.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Minishogi;

impl Variant for Minishogi {
    const NAME: &'static str = "minishogi";
    const DISPLAY_NAME: &'static str = "Minishogi";
    const ALIASES: &'static [&'static str] = &["mini-shogi"];
    const KIF_NAMES: &'static [&'static str] = &["5五将棋", "五々将棋", "五々", "minishogi"];
    const GEOMETRY: Geometry = GEOMETRY;
    const PIECES: &'static [PieceDef] = PIECES;
    const STALEMATE: StalemateRule = StalemateRule::Loss;
    const REPETITION: RepetitionRule = RepetitionRule {
        occurrences: 4,
        perpetual_check_loses: true,
        repeater_loses: false,
    };
    const PROMOTION_ZONE: u8 = 1;
    const DROP_RULES: DropRules = DropRules::standard(PAWN);
    type Extra = ();

    #[inline(always)]
    fn tables() -> &'static Tables {
        &TABLES
    }

    fn start() -> Setup<Minishogi> {
        let mut s = Setup::empty();
        // Black's rank e, file 5 to file 1: K G S B R; pawn on 5d. White is the image.
        for (i, &k) in [KING, GOLD, SILVER, BISHOP, ROOK].iter().enumerate() {
            s.put(5 - i as u8, 4, Color::Black, k);
            s.put(1 + i as u8, 0, Color::White, k);
        }
        s.put(5, 3, Color::Black, PAWN);
        s.put(1, 1, Color::White, PAWN);
        s
    }

    /// Minishogi has no adjudication, and its drop targets are the default (the empty
    /// squares), so perft may count the replies to any move without making it.
    #[inline(always)]
    fn no_adjudication_after(
        _pos: &Position<Minishogi>,
        _from: Option<Square>,
        _to: Square,
        _now: Kind,
    ) -> bool {
        true
    }

    fn group_limit(_group: u8) -> GroupLimit {
        // Two of each piece in the set; one side may hold both.
        GroupLimit {
            total: 2,
            per_side: 2,
        }
    }
}
