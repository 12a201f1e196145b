//! # kshogi-rules-dobutsu
//!
//! Dobutsu Shogi (どうぶつしょうぎ) as a [`kshogi_core::Variant`]: a 3x4 board; the lion
//! (king) steps one square in any direction, the giraffe one square orthogonally, the
//! elephant one square diagonally, and the chick one square forward. A chick that arrives on
//! its farthest rank by a move becomes a hen (mandatory), which moves as a gold; a chick
//! dropped there stays a chick and cannot move. Captured pieces go to hand unpromoted (a hen
//! becomes a chick) and may be dropped on any empty square.
//!
//! There is no check rule ([`Variant::CHECK_RULE`] is false): every move is legal, also one
//! that leaves the lion where it can be captured. The game ends, after any move, when a lion
//! has been captured (its owner loses), or when a side's lion stands on that side's farthest
//! rank and no enemy piece attacks it (the try: that side wins; both at once is a draw). A
//! side with no move loses; the fourth occurrence of a position is a draw.
//!
//! This crate depends on `kshogi-core` only; it must not depend on notation, the engine, the
//! registry or the CLI, and knows nothing of the other variants.

use kshogi_core::{
    Color, DrawReason, Geometry, GroupLimit, Kind, Movement, Outcome, PieceDef, Position,
    RepetitionRule, Setup, Square, StalemateRule, Tables, Variant, WinReason,
};

/// The lion, the royal piece (`K`; the reference engine writes `L`).
pub const KING: Kind = Kind(0);
/// The lion, by its own name (the same kind as [`KING`]).
pub const LION: Kind = KING;
/// The giraffe (`R`; `G` for the reference engine): one step orthogonally.
pub const ROOK: Kind = Kind(1);
/// The giraffe, by its own name (the same kind as [`ROOK`]).
pub const GIRAFFE: Kind = ROOK;
/// The elephant (`B`; `E` for the reference engine): one step diagonally.
pub const BISHOP: Kind = Kind(2);
/// The elephant, by its own name (the same kind as [`BISHOP`]).
pub const ELEPHANT: Kind = BISHOP;
/// The chick (`P`; `C` for the reference engine): one step forward.
pub const PAWN: Kind = Kind(3);
/// The chick, by its own name (the same kind as [`PAWN`]).
pub const CHICK: Kind = PAWN;
/// The hen, the promoted chick (`+P`; `+C` for the reference engine): moves as a gold.
pub const HEN: Kind = Kind(4);

const GIRAFFE_MOVES: Movement = Movement {
    steps: &[(0, 1), (0, -1), (1, 0), (-1, 0)],
    slides: &[],
    ranged: &[],
};
const ELEPHANT_MOVES: Movement = Movement {
    steps: &[(1, 1), (-1, 1), (1, -1), (-1, -1)],
    slides: &[],
    ranged: &[],
};

/// The piece table. Hand slots follow the canonical SFEN hand order: R, B, P. The hen shares
/// the chick's slot (a captured hen goes to hand as a chick; core never drops a promoted
/// face).
pub const PIECES: &[PieceDef] = &[
    PieceDef::new("lion", 'K', 'ラ', "ライオン", Movement::KING)
        .royal()
        .aliases(&["L"]),
    PieceDef::new("giraffe", 'R', 'き', "きりん", GIRAFFE_MOVES)
        .captured_to(0)
        .aliases(&["G"]),
    PieceDef::new("elephant", 'B', 'ぞ', "ぞう", ELEPHANT_MOVES)
        .captured_to(1)
        .aliases(&["E"]),
    PieceDef::new("chick", 'P', 'ひ', "ひよこ", Movement::PAWN)
        .flips_to(HEN)
        .captured_to(2)
        .aliases(&["C"]),
    PieceDef::new("hen", 'P', 'に', "にわとり", Movement::GOLD)
        .written_promoted()
        .captured_to(2)
        .aliases(&["+C"]),
];

const GEOMETRY: Geometry = Geometry::new(3, 4);

static TABLES: Tables = Tables::build(GEOMETRY, PIECES, 0x444F_4255_5453_0005);

/// Dobutsu Shogi.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dobutsu;

impl Variant for Dobutsu {
    const NAME: &'static str = "dobutsu";
    const DISPLAY_NAME: &'static str = "Dobutsu Shogi";
    const ALIASES: &'static [&'static str] = &["dobutsushogi", "dobutsu-shogi"];
    const KIF_NAMES: &'static [&'static str] = &["どうぶつしょうぎ", "dobutsu"];
    const GEOMETRY: Geometry = GEOMETRY;
    const PIECES: &'static [PieceDef] = PIECES;
    const STALEMATE: StalemateRule = StalemateRule::Loss;
    const REPETITION: RepetitionRule = RepetitionRule {
        occurrences: 4,
        perpetual_check_loses: false,
        repeater_loses: false,
    };
    const CHECK_RULE: bool = false;
    /// The chick promotes on arrival at the farthest rank, where it could never move again,
    /// so the promotion is forced.
    const PROMOTION_ZONE: u8 = 1;
    /// Only the chick promotes, and only by arriving on the farthest rank, where promotion is
    /// forced: no move has a choice.
    const NO_OPTIONAL_FLIPS: bool = true;
    const HAS_ADJUDICATION: bool = true;
    type Extra = ();

    #[inline(always)]
    fn tables() -> &'static Tables {
        &TABLES
    }

    fn start() -> Setup<Dobutsu> {
        let mut s = Setup::empty();
        // Black's rank d, file 3 to file 1: elephant, lion, giraffe; chick on 2c. White is
        // the image.
        for (i, &k) in [ELEPHANT, LION, GIRAFFE].iter().enumerate() {
            s.put(3 - i as u8, 3, Color::Black, k);
            s.put(1 + i as u8, 0, Color::White, k);
        }
        s.put(2, 2, Color::Black, CHICK);
        s.put(2, 1, Color::White, CHICK);
        s
    }

    fn group_limit(_group: u8) -> GroupLimit {
        // Two of each kind in the set; one side may hold both.
        GroupLimit {
            total: 2,
            per_side: 2,
        }
    }

    /// The try: a lion on its own farthest rank that no enemy piece attacks wins; both at once
    /// is a draw. (Core has already ended the game if a lion was captured.)
    #[inline(always)]
    fn adjudicate(pos: &Position<Dobutsu>) -> Option<Outcome> {
        let lions = pos.kind_bb(LION);
        let home = (lions & pos.color_bb(Color::Black) & TABLES.farthest_rank[0])
            | (lions & pos.color_bb(Color::White) & TABLES.farthest_rank[1]);
        if home.is_empty() {
            return None;
        }
        let occ = pos.occupied();
        let mut tried = [false; 2];
        for c in Color::ALL {
            if let Some(sq) = (pos.pieces(c, LION) & TABLES.farthest_rank[c.index()]).lowest() {
                tried[c.index()] = !pos.is_attacked(sq, !c, occ);
            }
        }
        match tried {
            [true, true] => Some(Outcome::Draw {
                reason: DrawReason::BothTries,
            }),
            [true, false] => Some(Outcome::Win {
                winner: Color::Black,
                reason: WinReason::Try,
            }),
            [false, true] => Some(Outcome::Win {
                winner: Color::White,
                reason: WinReason::Try,
            }),
            [false, false] => None,
        }
    }

    /// The try needs a lion on its own farthest rank: after a move, only the mover's lion if
    /// it arrives there or stood there already, or the opponent's if it stands there.
    #[inline(always)]
    fn no_adjudication_after(
        pos: &Position<Dobutsu>,
        _from: Option<Square>,
        to: Square,
        now: Kind,
    ) -> bool {
        let us = pos.side_to_move();
        let ours_home = if now == LION {
            TABLES.farthest_rank[us.index()].has(to)
        } else {
            (pos.pieces(us, LION) & TABLES.farthest_rank[us.index()]).any()
        };
        !ours_home && (pos.pieces(!us, LION) & TABLES.farthest_rank[(!us).index()]).is_empty()
    }
}
