//! Board geometry and squares with USI names.

use core::fmt;

/// The largest number of squares a board may have (one bit each in a [`crate::Bitboard`]).
pub const MAX_SQUARES: usize = 64;

/// A square, as an index `rank * width + (file - 1)`.
///
/// Rank 0 is rank `a`, White's back rank at the top; file 1 is the rightmost file seen from
/// Black. A square alone does not know the board width: use a [`Geometry`] to name it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Square(pub u8);

impl Square {
    /// The square with index `i`.
    #[inline(always)]
    pub const fn new(i: u8) -> Square {
        Square(i)
    }

    /// The index of the square, for array lookups.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The shape of a board: `width` files by `height` ranks, at most 64 squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// Number of files (columns), 1 to 9.
    pub width: u8,
    /// Number of ranks (rows), 1 to 26.
    pub height: u8,
}

impl Geometry {
    /// A geometry; panics at compile time (in const contexts) when it does not fit 64 squares.
    pub const fn new(width: u8, height: u8) -> Geometry {
        assert!(width >= 1 && width <= 9, "width must be 1..=9");
        assert!(height >= 1 && height <= 26, "height must be 1..=26");
        assert!((width as usize) * (height as usize) <= MAX_SQUARES);
        Geometry { width, height }
    }

    /// Number of squares.
    #[inline(always)]
    pub const fn squares(self) -> usize {
        self.width as usize * self.height as usize
    }

    /// The square at `file` (1 = rightmost) and `rank` (0 = rank `a`), if on the board.
    #[inline(always)]
    pub const fn square(self, file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= self.width && rank < self.height {
            Some(Square(rank * self.width + (file - 1)))
        } else {
            None
        }
    }

    /// The file of a square, 1 = rightmost.
    #[inline(always)]
    pub const fn file(self, sq: Square) -> u8 {
        sq.0 % self.width + 1
    }

    /// The rank of a square, 0 = rank `a` (top).
    #[inline(always)]
    pub const fn rank(self, sq: Square) -> u8 {
        sq.0 / self.width
    }

    /// Whether `sq` lies on this board.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        (sq.0 as usize) < self.squares()
    }

    /// The square as seen by the other player (180-degree rotation).
    #[inline(always)]
    pub const fn rotate(self, sq: Square) -> Square {
        Square((self.squares() - 1 - sq.0 as usize) as u8)
    }

    /// The USI name of a square, such as `3c`.
    pub fn name(self, sq: Square) -> SquareName {
        SquareName {
            file: self.file(sq),
            rank: self.rank(sq),
        }
    }

    /// Parses a USI square name (`3c`): a file digit then a rank letter.
    pub fn parse_square(self, text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 || !b[0].is_ascii_digit() || !b[1].is_ascii_lowercase() {
            return None;
        }
        self.square(b[0] - b'0', b[1] - b'a')
    }

    /// All squares of the board, in index order.
    pub fn all_squares(self) -> impl Iterator<Item = Square> {
        (0..self.squares() as u8).map(Square)
    }
}

/// A printable USI square name; see [`Geometry::name`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SquareName {
    /// File number, 1 = rightmost.
    pub file: u8,
    /// Rank index, 0 = `a`.
    pub rank: u8,
}

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file, (b'a' + self.rank) as char)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_names_follow_the_convention() {
        let g = Geometry::new(5, 5);
        // File 1 is the rightmost file; rank a the top.
        assert_eq!(g.name(g.square(1, 0).unwrap()).to_string(), "1a");
        assert_eq!(g.name(g.square(5, 4).unwrap()).to_string(), "5e");
        assert_eq!(g.parse_square("3c"), g.square(3, 2));
        assert_eq!(g.parse_square("6a"), None);
        assert_eq!(g.parse_square("1f"), None);
        assert_eq!(g.parse_square("1"), None);
        for sq in g.all_squares() {
            assert_eq!(g.parse_square(&g.name(sq).to_string()), Some(sq));
            assert_eq!(g.rotate(g.rotate(sq)), sq);
        }
    }

    #[test]
    fn rotation_maps_corners() {
        let g = Geometry::new(4, 5);
        assert_eq!(g.rotate(g.square(1, 0).unwrap()), g.square(4, 4).unwrap());
    }
}
