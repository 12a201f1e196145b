//! The two sides.

use core::fmt;
use core::ops::Not;

/// A side. Black (sente) moves first and sits at the bottom; White (gote) sits at the top.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Color {
    /// The first player (sente), uppercase letters in SFEN.
    Black = 0,
    /// The second player (gote), lowercase letters in SFEN.
    White = 1,
}

impl Color {
    /// Both colors, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// 0 for Black, 1 for White; handy for indexing arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The color with the given index (0 Black, anything else White).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Color {
        if i == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The SFEN side-to-move letter: `b` or `w`.
    pub const fn sfen_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_swaps() {
        assert_eq!(!Color::Black, Color::White);
        assert_eq!(!Color::White, Color::Black);
        assert_eq!(Color::from_index(Color::White.index()), Color::White);
    }
}
