//! Pieces: kinds defined by a variant's table, colors, and their movement.

use crate::Color;

/// The largest number of piece kinds (faces) a variant may define.
pub const MAX_KINDS: usize = 16;
/// The largest number of hand slots (pairs that can be held in hand) a variant may define.
pub const MAX_SLOTS: usize = 8;

/// A piece kind: an index into the variant's [`crate::Variant::PIECES`] table.
///
/// A two-faced piece is two kinds, one for each face, linked by [`PieceDef::flips_to`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Kind(pub u8);

impl Kind {
    /// The index of the kind, for array lookups.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A piece on the board: a kind and a color.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Face shown.
    pub kind: Kind,
}

impl Piece {
    /// A piece of `color` showing `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }
}

/// How a piece moves, written from Black's point of view.
///
/// An offset `(dx, dy)` has `dy > 0` forward (toward rank `a` for Black) and `dx > 0`
/// toward the higher-numbered files (Black's left). White's moves are the 180-degree image.
#[derive(Copy, Clone, Debug)]
pub struct Movement {
    /// Single steps (or jumps, such as a knight's): the piece reaches `from + offset`.
    pub steps: &'static [(i8, i8)],
    /// Slides: the piece moves any number of squares along each unit direction until the
    /// edge or the first occupied square (which it may capture if it is an enemy).
    pub slides: &'static [(i8, i8)],
    /// Slides of limited range: `((dx, dy), n)` moves up to `n` squares along the unit
    /// direction `(dx, dy)`, stopping at the edge or the first occupied square (which it may
    /// capture if it is an enemy), like a slide. Tori Shogi's eagle moves up to two squares
    /// diagonally backward: `&[((1, -1), 2), ((-1, -1), 2)]`. A direction is either a slide
    /// or a ranged slide of a piece, never both.
    pub ranged: &'static [((i8, i8), u8)],
}

impl Movement {
    /// One step in each of the eight directions.
    pub const KING: Movement = Movement {
        steps: &[
            (0, 1),
            (1, 1),
            (-1, 1),
            (1, 0),
            (-1, 0),
            (0, -1),
            (1, -1),
            (-1, -1),
        ],
        slides: &[],
        ranged: &[],
    };
    /// Gold general (also tokin and other gold-movers).
    pub const GOLD: Movement = Movement {
        steps: &[(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0), (0, -1)],
        slides: &[],
        ranged: &[],
    };
    /// Silver general.
    pub const SILVER: Movement = Movement {
        steps: &[(0, 1), (1, 1), (-1, 1), (1, -1), (-1, -1)],
        slides: &[],
        ranged: &[],
    };
    /// Pawn.
    pub const PAWN: Movement = Movement {
        steps: &[(0, 1)],
        slides: &[],
        ranged: &[],
    };
    /// Knight: two forward and one sideways, jumping.
    pub const KNIGHT: Movement = Movement {
        steps: &[(1, 2), (-1, 2)],
        slides: &[],
        ranged: &[],
    };
    /// Lance: slides straight forward.
    pub const LANCE: Movement = Movement {
        steps: &[],
        slides: &[(0, 1)],
        ranged: &[],
    };
    /// Bishop: slides diagonally.
    pub const BISHOP: Movement = Movement {
        steps: &[],
        slides: &[(1, 1), (-1, 1), (1, -1), (-1, -1)],
        ranged: &[],
    };
    /// Rook: slides orthogonally.
    pub const ROOK: Movement = Movement {
        steps: &[],
        slides: &[(0, 1), (0, -1), (1, 0), (-1, 0)],
        ranged: &[],
    };
}

/// Everything core needs to know about one piece kind (one face).
#[derive(Copy, Clone, Debug)]
pub struct PieceDef {
    /// English name, lowercase (`"tokin"`).
    pub name: &'static str,
    /// Black's SFEN letter, uppercase (`'T'`); White's is the lowercase letter. A promoted
    /// face that has no letter of its own is written with `+` and the base letter, and then
    /// `letter` is the base letter and [`PieceDef::promoted`] is true.
    pub letter: char,
    /// Whether this face is written `+<letter>` (a promoted face without a letter of its own).
    pub promoted: bool,
    /// The one character that names the piece on a KIF board diagram (`'と'`, Dobutsu's
    /// lion `'ラ'`).
    pub kanji: char,
    /// The name of the piece in KIF move text, written and read (`"と"`, `"成銀"`,
    /// `"ライオン"`); for most pieces the same as [`PieceDef::kanji`].
    pub kif_name: &'static str,
    /// Other names read in KIF moves and diagrams but never written (`"竜"` for a dragon).
    pub kif_aliases: &'static [&'static str],
    /// How the piece moves.
    pub movement: Movement,
    /// Whether this is the king. Each side has exactly one royal piece.
    pub royal: bool,
    /// The other face: the kind this piece turns into when it flips or promotes.
    pub flips_to: Option<Kind>,
    /// The hand slot a captured piece of this kind goes to, or `None` when captured pieces
    /// leave the game (or for the king).
    pub hand_slot: Option<u8>,
    /// Set group: kinds sharing a group are faces of the same physical pieces, counted
    /// together against [`crate::Variant::group_limit`].
    pub group: u8,
    /// Other spellings accepted when reading text, such as `"+P"` for a Kyoto rook.
    pub aliases: &'static [&'static str],
}

impl PieceDef {
    /// A piece kind with its names and moves and nothing else: not royal, written with its
    /// own letter (not `+<letter>`), no other face, leaving the game when captured, set
    /// group 0, no other spellings. The other methods add the rest, one property each, so
    /// that a rules crate's piece table reads as a list of facts:
    ///
    /// ```
    /// use kshogi_core::{Kind, Movement, PieceDef};
    ///
    /// const TOKIN: Kind = Kind(2);
    /// const KING: PieceDef = PieceDef::new("king", 'K', '玉', "玉", Movement::KING)
    ///     .royal()
    ///     .kif_aliases(&["王"]);
    /// const PAWN: PieceDef = PieceDef::new("pawn", 'P', '歩', "歩", Movement::PAWN)
    ///     .flips_to(TOKIN)
    ///     .captured_to(3);
    /// assert!(KING.royal && KING.hand_slot.is_none() && KING.group == 0);
    /// assert_eq!((PAWN.flips_to, PAWN.hand_slot, PAWN.group), (Some(TOKIN), Some(3), 4));
    /// ```
    pub const fn new(
        name: &'static str,
        letter: char,
        kanji: char,
        kif_name: &'static str,
        movement: Movement,
    ) -> PieceDef {
        PieceDef {
            name,
            letter,
            promoted: false,
            kanji,
            kif_name,
            kif_aliases: &[],
            movement,
            royal: false,
            flips_to: None,
            hand_slot: None,
            group: 0,
            aliases: &[],
        }
    }

    /// The king: the royal piece (each side has exactly one).
    pub const fn royal(mut self) -> PieceDef {
        self.royal = true;
        self
    }

    /// A promoted face without a letter of its own, written `+<letter>`
    /// ([`PieceDef::promoted`]).
    pub const fn written_promoted(mut self) -> PieceDef {
        self.promoted = true;
        self
    }

    /// The other face, the kind this piece turns into when it flips or promotes.
    pub const fn flips_to(mut self, other: Kind) -> PieceDef {
        self.flips_to = Some(other);
        self
    }

    /// Captured pieces of this kind go to hand slot `slot`. The set group becomes
    /// `slot + 1`, the convention of every variant with drops: kinds sharing a slot are the
    /// faces of the same physical pieces, and group 0 is left to the king. Call
    /// [`PieceDef::group`] afterwards to choose another group.
    pub const fn captured_to(mut self, slot: u8) -> PieceDef {
        self.hand_slot = Some(slot);
        self.group = slot + 1;
        self
    }

    /// The set group ([`PieceDef::group`]): kinds sharing it are faces of the same
    /// physical pieces, counted together against [`crate::Variant::group_limit`].
    pub const fn group(mut self, group: u8) -> PieceDef {
        self.group = group;
        self
    }

    /// Other names read in KIF moves and diagrams but never written
    /// ([`PieceDef::kif_aliases`]).
    pub const fn kif_aliases(mut self, aliases: &'static [&'static str]) -> PieceDef {
        self.kif_aliases = aliases;
        self
    }

    /// Other spellings accepted when reading SFEN and USI text ([`PieceDef::aliases`]).
    pub const fn aliases(mut self, aliases: &'static [&'static str]) -> PieceDef {
        self.aliases = aliases;
        self
    }
}
