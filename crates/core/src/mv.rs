//! Compact moves.

use crate::{Kind, Square};

/// A move in two bytes: a board move (origin, destination, flip flag) or a drop (face,
/// destination).
///
/// Layout: bits 0-5 destination, bits 6-11 origin square (board move) or dropped kind
/// (drop), bit 12 the flip/promotion flag, bit 13 set for drops.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

const FLIP: u16 = 1 << 12;
const DROP: u16 = 1 << 13;

impl Move {
    /// A value that is no move (origin equals destination); used to fill lists.
    pub const NULL: Move = Move(0);

    /// A board move from `from` to `to`; `flip` when the piece turns over or promotes.
    #[inline(always)]
    pub const fn board(from: Square, to: Square, flip: bool) -> Move {
        Move(to.0 as u16 | (from.0 as u16) << 6 | if flip { FLIP } else { 0 })
    }

    /// A drop of a piece showing `kind` onto `to`.
    #[inline(always)]
    pub const fn drop(kind: Kind, to: Square) -> Move {
        Move(to.0 as u16 | (kind.0 as u16) << 6 | DROP)
    }

    /// The destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square((self.0 & 63) as u8)
    }

    /// The origin square of a board move (`None` for drops).
    #[inline(always)]
    pub const fn from(self) -> Option<Square> {
        if self.is_drop() {
            None
        } else {
            Some(Square((self.0 >> 6 & 63) as u8))
        }
    }

    /// The origin square of a move known to be a board move (bits 6-11, unchecked).
    #[inline(always)]
    pub(crate) const fn origin(self) -> Square {
        Square((self.0 >> 6 & 63) as u8)
    }

    /// The kind dropped (`None` for board moves).
    #[inline(always)]
    pub const fn drop_kind(self) -> Option<Kind> {
        if self.is_drop() {
            Some(Kind((self.0 >> 6 & 63) as u8))
        } else {
            None
        }
    }

    /// Whether this is a drop.
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.0 & DROP != 0
    }

    /// Whether the moving piece flips (or promotes).
    #[inline(always)]
    pub const fn is_flip(self) -> bool {
        self.0 & FLIP != 0
    }

    /// The raw 16-bit encoding (stable within one version; for hashing and tables).
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// A move from its raw encoding.
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }
}

impl core::fmt::Debug for Move {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.from() {
            Some(from) => write!(
                f,
                "Move({}->{}{})",
                from.0,
                self.to().0,
                if self.is_flip() { "+" } else { "" }
            ),
            None => write!(f, "Drop(kind {}->{})", self.0 >> 6 & 63, self.to().0),
        }
    }
}

/// The largest number of legal moves a position can have in a [`MoveList`].
pub const MAX_MOVES: usize = 1024;

/// A fixed-capacity list of moves that lives on the stack (no heap allocation per node).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// Removes every move.
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl core::ops::Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl core::ops::DerefMut for MoveList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl core::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        let m = Move::board(Square(24), Square(3), true);
        assert_eq!(m.from(), Some(Square(24)));
        assert_eq!(m.to(), Square(3));
        assert!(m.is_flip());
        assert!(!m.is_drop());
        let d = Move::drop(Kind(7), Square(12));
        assert!(d.is_drop());
        assert_eq!(d.drop_kind(), Some(Kind(7)));
        assert_eq!(d.from(), None);
        assert_eq!(d.to(), Square(12));
        assert_ne!(
            Move::board(Square(1), Square(2), false),
            Move::board(Square(1), Square(2), true)
        );
        assert_eq!(core::mem::size_of::<Move>(), 2);
    }
}
