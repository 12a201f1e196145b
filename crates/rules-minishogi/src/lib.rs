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
    Color, DropRules, Geometry, GroupLimit, Kind, Movement, PieceDef, RepetitionRule, Setup,
    StalemateRule, Tables, Variant,
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
};
const HORSE_MOVES: Movement = Movement {
    steps: &[(0, 1), (0, -1), (1, 0), (-1, 0)],
    slides: Movement::BISHOP.slides,
};

#[allow(clippy::too_many_arguments)]
const fn def(
    name: &'static str,
    letter: char,
    promoted: bool,
    kanji: char,
    kif_name: &'static str,
    kif_aliases: &'static [&'static str],
    movement: Movement,
    flips_to: Option<Kind>,
    hand_slot: Option<u8>,
) -> PieceDef {
    PieceDef {
        name,
        letter,
        promoted,
        kanji,
        kif_name,
        kif_aliases,
        movement,
        royal: hand_slot.is_none(),
        flips_to,
        hand_slot,
        // Both faces of a physical piece share a group; the king has group 0.
        group: match hand_slot {
            Some(s) => s + 1,
            None => 0,
        },
        aliases: &[],
    }
}

/// The piece table. Hand slots follow the canonical SFEN hand order: R, B, G, S, P. A
/// promoted face shares its base piece's slot, so that a captured piece goes to hand
/// unpromoted (core never drops a promoted face).
pub const PIECES: &[PieceDef] = &[
    def(
        "king",
        'K',
        false,
        '玉',
        "玉",
        &["王"],
        Movement::KING,
        None,
        None,
    ),
    def(
        "rook",
        'R',
        false,
        '飛',
        "飛",
        &[],
        Movement::ROOK,
        Some(DRAGON),
        Some(0),
    ),
    def(
        "bishop",
        'B',
        false,
        '角',
        "角",
        &[],
        Movement::BISHOP,
        Some(HORSE),
        Some(1),
    ),
    def(
        "gold",
        'G',
        false,
        '金',
        "金",
        &[],
        Movement::GOLD,
        None,
        Some(2),
    ),
    def(
        "silver",
        'S',
        false,
        '銀',
        "銀",
        &[],
        Movement::SILVER,
        Some(PRO_SILVER),
        Some(3),
    ),
    def(
        "pawn",
        'P',
        false,
        '歩',
        "歩",
        &[],
        Movement::PAWN,
        Some(TOKIN),
        Some(4),
    ),
    def(
        "dragon",
        'R',
        true,
        '龍',
        "龍",
        &["竜"],
        DRAGON_MOVES,
        None,
        Some(0),
    ),
    def(
        "horse",
        'B',
        true,
        '馬',
        "馬",
        &[],
        HORSE_MOVES,
        None,
        Some(1),
    ),
    def(
        "promoted silver",
        'S',
        true,
        '全',
        "成銀",
        &[],
        Movement::GOLD,
        None,
        Some(3),
    ),
    def(
        "tokin",
        'P',
        true,
        'と',
        "と",
        &[],
        Movement::GOLD,
        None,
        Some(4),
    ),
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

    fn group_limit(_group: u8) -> GroupLimit {
        // Two of each piece in the set; one side may hold both.
        GroupLimit {
            total: 2,
            per_side: 2,
        }
    }
}
