//! # pocket-shogi
//!
//! Pocket Shogi, a toy variant that lives outside kshogi: a 3x4 board, and each side a
//! king, a guard (one step orthogonally) and a ferz (one step diagonally). Captured guards
//! and ferzes go to hand and may be dropped on any empty square; nothing promotes. A side
//! that has no legal move loses; the third occurrence of a position is a draw.
//!
//! The variant is core's [`Variant`] trait and a [`Registered`] impl (the evaluation the
//! search uses and its win/draw/loss model); nothing in kshogi names it.

use kshogi_core::{
    Color, Geometry, GroupLimit, Kind, Movement, PieceDef, RepetitionRule, Setup, StalemateRule,
    Tables, Variant,
};
use kshogi_engine::{PieceTableEval, WdlModel};
use kshogi_registry::Registered;

/// The king.
pub const KING: Kind = Kind(0);
/// The guard: one step forward, back or sideways.
pub const GUARD: Kind = Kind(1);
/// The ferz: one step diagonally.
pub const FERZ: Kind = Kind(2);

const GUARD_MOVES: Movement = Movement {
    steps: &[(0, 1), (0, -1), (1, 0), (-1, 0)],
    slides: &[],
    ranged: &[],
};
const FERZ_MOVES: Movement = Movement {
    steps: &[(1, 1), (-1, 1), (1, -1), (-1, -1)],
    slides: &[],
    ranged: &[],
};

/// The piece table: hand slot 0 holds guards, slot 1 ferzes.
pub const PIECES: &[PieceDef] = &[
    PieceDef::new("king", 'K', '玉', "玉", Movement::KING).royal(),
    PieceDef::new("guard", 'G', '衛', "衛", GUARD_MOVES).captured_to(0),
    PieceDef::new("ferz", 'F', '仕', "仕", FERZ_MOVES).captured_to(1),
];

const GEOMETRY: Geometry = Geometry::new(3, 4);

/// Built at compile time. The seed only varies the hash keys between variants.
static TABLES: Tables = Tables::build(GEOMETRY, PIECES, 0x504F_434B_4554_0001);

/// Pocket Shogi.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pocket;

impl Variant for Pocket {
    const NAME: &'static str = "pocket";
    const DISPLAY_NAME: &'static str = "Pocket Shogi";
    const ALIASES: &'static [&'static str] = &["pocketshogi"];
    const KIF_NAMES: &'static [&'static str] = &["ポケット将棋"];
    const GEOMETRY: Geometry = GEOMETRY;
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

    fn start() -> Setup<Pocket> {
        let mut s = Setup::empty();
        // Black's rank d, file 3 to file 1: guard, king, ferz; White is the image.
        for (i, &k) in [GUARD, KING, FERZ].iter().enumerate() {
            s.put(3 - i as u8, 3, Color::Black, k);
            s.put(1 + i as u8, 0, Color::White, k);
        }
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

impl Registered for Pocket {
    type Eval = PieceTableEval;
    const WDL: WdlModel = WdlModel::DEFAULT;
}
