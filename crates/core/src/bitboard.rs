//! Sets of squares as 64-bit masks.

use crate::Square;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares: bit `i` stands for `Square(i)`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u64 << sq.0)
    }

    /// The first `n` squares (the whole board of `n` squares).
    #[inline(always)]
    pub const fn first(n: usize) -> Bitboard {
        if n >= 64 {
            Bitboard(u64::MAX)
        } else {
            Bitboard((1u64 << n) - 1)
        }
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.0 & 1 != 0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has two or more squares.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest-index square, if any.
    #[inline(always)]
    pub const fn lowest(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(self.0.trailing_zeros() as u8))
        }
    }

    /// The highest-index square, if any.
    #[inline(always)]
    pub const fn highest(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(63 - self.0.leading_zeros() as u8))
        }
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u64 << sq.0)
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u64 << sq.0))
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

macro_rules! bitop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_in_index_order() {
        let b = Bitboard(0b1010_0001);
        let v: Vec<u8> = b.map(|s| s.0).collect();
        assert_eq!(v, vec![0, 5, 7]);
        assert_eq!(b.count(), 3);
        assert_eq!(b.lowest(), Some(Square(0)));
        assert_eq!(b.highest(), Some(Square(7)));
        assert!(b.more_than_one());
        assert!(!Bitboard(8).more_than_one());
        assert_eq!(Bitboard::first(3), Bitboard(7));
        assert_eq!(Bitboard::first(64), Bitboard(u64::MAX));
    }
}
