//! # kshogi-rules-tori
//!
//! Tori Shogi (禽将棋, "bird shogi") as a [`kshogi_core::Variant`]: a 7x7 board with birds
//! for pieces, sixteen a side. Each side has a phoenix (the king), a falcon, two cranes, two
//! pheasants, a left and a right quail and eight swallows. The pieces move as the reference
//! engine (Fairy-Stockfish, `torishogi`) and the published rules describe them, from Black's
//! side:
//!
//! - phoenix `K` (鵬): one step in any direction;
//! - falcon `F` (鷹): one step in any direction but straight back; promotes to the eagle;
//! - crane `C` (鶴): one step straight forward or back or diagonally;
//! - pheasant `P` (雉): a jump two squares straight forward, or a step diagonally back;
//! - left quail `L` (左鶉): slides straight forward or diagonally back to its right, steps
//!   diagonally back to its left; the right quail `R` (右鶉) is its mirror image;
//! - swallow `S` (燕): one step forward; promotes to the goose;
//! - goose `+S` (鴈): jumps two squares diagonally forward or two squares straight back;
//! - eagle `+F` (鵰): one step in any direction, slides diagonally forward and straight
//!   back, and moves up to two squares diagonally back (a ranged slide, blocked like any
//!   slide).
//!
//! The promotion zone is the two farthest ranks, and promotion is compulsory: a swallow or
//! falcon whose move starts or ends in the zone promotes. Captured pieces go to hand
//! unpromoted and may be dropped on any empty square, except that a swallow may not be
//! dropped on its farthest rank, on a file that already holds two unpromoted swallows of its
//! side, or to give checkmate (a swallow drop that only checks is legal). A stalemated side
//! loses. Repetition: the fourth occurrence of a position ends the game, lost by the side that
//! completed it; a side whose every move in the repetition gave check loses instead.
//!
//! All of this is declared with core's [`Variant::PROMOTION_ZONE`],
//! [`Variant::PROMOTION_COMPULSORY`], [`Variant::DROP_RULES`], [`Movement::ranged`] and
//! [`RepetitionRule::repeater_loses`]; the crate has no hand-written rule.
//!
//! This crate depends on `kshogi-core` only; it must not depend on notation, the engine, the
//! registry or the CLI, and knows nothing of the other variants.

use kshogi_core::{
    Color, DropRules, Geometry, GroupLimit, Kind, Movement, PieceDef, RepetitionRule, Setup,
    StalemateRule, Tables, Variant,
};

/// The phoenix, the king.
pub const PHOENIX: Kind = Kind(0);
/// Falcon; promotes to the eagle.
pub const FALCON: Kind = Kind(1);
/// Crane.
pub const CRANE: Kind = Kind(2);
/// Pheasant.
pub const PHEASANT: Kind = Kind(3);
/// Left quail (Black's starts on file 7).
pub const LEFT_QUAIL: Kind = Kind(4);
/// Right quail (Black's starts on file 1).
pub const RIGHT_QUAIL: Kind = Kind(5);
/// Swallow, the pawn; promotes to the goose.
pub const SWALLOW: Kind = Kind(6);
/// Goose, the promoted swallow, `+S`.
pub const GOOSE: Kind = Kind(7);
/// Eagle, the promoted falcon, `+F`.
pub const EAGLE: Kind = Kind(8);

const FALCON_MOVES: Movement = Movement {
    steps: &[(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0), (1, -1), (-1, -1)],
    slides: &[],
    ranged: &[],
};
const CRANE_MOVES: Movement = Movement {
    steps: &[(0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)],
    slides: &[],
    ranged: &[],
};
const PHEASANT_MOVES: Movement = Movement {
    steps: &[(0, 2), (1, -1), (-1, -1)],
    slides: &[],
    ranged: &[],
};
// Offsets have dx > 0 toward the higher-numbered files, Black's left.
const LEFT_QUAIL_MOVES: Movement = Movement {
    steps: &[(1, -1)],
    slides: &[(0, 1), (-1, -1)],
    ranged: &[],
};
const RIGHT_QUAIL_MOVES: Movement = Movement {
    steps: &[(-1, -1)],
    slides: &[(0, 1), (1, -1)],
    ranged: &[],
};
const GOOSE_MOVES: Movement = Movement {
    steps: &[(2, 2), (-2, 2), (0, -2)],
    slides: &[],
    ranged: &[],
};
const EAGLE_MOVES: Movement = Movement {
    steps: &[(0, 1), (1, 0), (-1, 0)],
    slides: &[(1, 1), (-1, 1), (0, -1)],
    ranged: &[((1, -1), 2), ((-1, -1), 2)],
};

/// The piece table. Hand slots follow the canonical SFEN hand order: F C P L R S. A promoted
/// face shares its base piece's slot, so that a captured piece goes to hand unpromoted.
pub const PIECES: &[PieceDef] = &[
    PieceDef::new("phoenix", 'K', '鵬', "鵬", Movement::KING).royal(),
    PieceDef::new("falcon", 'F', '鷹', "鷹", FALCON_MOVES)
        .flips_to(EAGLE)
        .captured_to(0),
    PieceDef::new("crane", 'C', '鶴', "鶴", CRANE_MOVES).captured_to(1),
    PieceDef::new("pheasant", 'P', '雉', "雉", PHEASANT_MOVES).captured_to(2),
    PieceDef::new("left quail", 'L', '左', "左鶉", LEFT_QUAIL_MOVES).captured_to(3),
    PieceDef::new("right quail", 'R', '右', "右鶉", RIGHT_QUAIL_MOVES).captured_to(4),
    PieceDef::new("swallow", 'S', '燕', "燕", Movement::PAWN)
        .flips_to(GOOSE)
        .captured_to(5),
    PieceDef::new("goose", 'S', '鴈', "鴈", GOOSE_MOVES)
        .written_promoted()
        .captured_to(5)
        .kif_aliases(&["雁"]),
    PieceDef::new("eagle", 'F', '鵰', "鵰", EAGLE_MOVES)
        .written_promoted()
        .captured_to(0),
];

const GEOMETRY: Geometry = Geometry::new(7, 7);

/// Built at compile time. The seed only varies the hash keys between variants.
static TABLES: Tables = Tables::build(GEOMETRY, PIECES, 0x544F_5249_0000_0006);

/// Tori Shogi.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tori;

impl Variant for Tori {
    const NAME: &'static str = "tori";
    const DISPLAY_NAME: &'static str = "Tori Shogi";
    const ALIASES: &'static [&'static str] = &["torishogi", "tori-shogi"];
    const KIF_NAMES: &'static [&'static str] = &["禽将棋", "tori"];
    const GEOMETRY: Geometry = GEOMETRY;
    const PIECES: &'static [PieceDef] = PIECES;
    const STALEMATE: StalemateRule = StalemateRule::Loss;
    const REPETITION: RepetitionRule = RepetitionRule {
        occurrences: 4,
        perpetual_check_loses: true,
        repeater_loses: true,
    };
    const PROMOTION_ZONE: u8 = 2;
    const PROMOTION_COMPULSORY: bool = true;
    const DROP_RULES: DropRules = DropRules::standard(SWALLOW).pawns_per_file(2);
    type Extra = ();

    #[inline(always)]
    fn tables() -> &'static Tables {
        &TABLES
    }

    fn start() -> Setup<Tori> {
        let mut s = Setup::empty();
        // Black's back rank g, file 7 to file 1: L P C K C P R; White's is the image.
        let back = [
            LEFT_QUAIL,
            PHEASANT,
            CRANE,
            PHOENIX,
            CRANE,
            PHEASANT,
            RIGHT_QUAIL,
        ];
        for (i, &k) in back.iter().enumerate() {
            s.put(7 - i as u8, 6, Color::Black, k);
            s.put(1 + i as u8, 0, Color::White, k);
        }
        s.put(4, 5, Color::Black, FALCON);
        s.put(4, 1, Color::White, FALCON);
        for file in 1..=7 {
            s.put(file, 4, Color::Black, SWALLOW);
            s.put(file, 2, Color::White, SWALLOW);
        }
        // The eighth swallows: Black's on 3d, White's on 5d.
        s.put(3, 3, Color::Black, SWALLOW);
        s.put(5, 3, Color::White, SWALLOW);
        s
    }

    fn group_limit(group: u8) -> GroupLimit {
        // Groups are hand slot + 1: falcon/eagle, crane, pheasant, left quail, right quail,
        // swallow/goose. One side may hold every piece of a kind.
        let total = match group {
            1 | 4 | 5 => 2,
            2 | 3 => 4,
            _ => 16,
        };
        GroupLimit {
            total,
            per_side: total,
        }
    }
}
