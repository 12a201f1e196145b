//! Game values and their encodings.

use core::fmt;

/// The value of a position under perfect play, from the side to move's point of view.
///
/// Distances are in plies to the end of the game: the winner ends it as soon as it can, the
/// loser as late as it can. A position whose game is already over has distance 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins in this many plies.
    Win(u16),
    /// The side to move loses in this many plies.
    Loss(u16),
    /// Neither side can force a win: the game is drawn by stalemate or repetition.
    Draw,
}

impl Value {
    /// The value one ply earlier, for the side that moved into this position.
    pub fn back(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// `"win"`, `"loss"` or `"draw"`.
    pub fn result(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        }
    }

    /// Plies to the end, or `None` for a draw.
    pub fn plies(self) -> Option<u16> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// Orders values for the side to move: a shorter win is better, a longer loss is better
    /// than a shorter one, and a draw lies between.
    pub fn rank(self) -> i32 {
        match self {
            Value::Win(d) => 100_000 - d as i32,
            Value::Draw => 0,
            Value::Loss(d) => -100_000 + d as i32,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d} plies"),
            Value::Loss(d) => write!(f, "loss in {d} plies"),
            Value::Draw => write!(f, "draw"),
        }
    }
}

/// A stored entry: the position is illegal (not a valid setup), or its value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// The entry's arrangement is not a valid position.
    Illegal,
    /// The position's value.
    Value(Value),
}

/// Code of an illegal entry in the database file.
pub const CODE_ILLEGAL: u16 = 0;
/// Code of a draw.
pub const CODE_DRAW: u16 = 1;

/// The file code of an entry: 0 illegal, 1 draw, `2 + 2d` loss in `d`, `3 + 2d` win in `d`.
pub fn encode(e: Entry) -> u16 {
    match e {
        Entry::Illegal => CODE_ILLEGAL,
        Entry::Value(Value::Draw) => CODE_DRAW,
        Entry::Value(Value::Loss(d)) => 2 + 2 * d,
        Entry::Value(Value::Win(d)) => 3 + 2 * d,
    }
}

/// The entry of a file code.
pub fn decode(code: u16) -> Entry {
    match code {
        CODE_ILLEGAL => Entry::Illegal,
        CODE_DRAW => Entry::Value(Value::Draw),
        c if c % 2 == 0 => Entry::Value(Value::Loss((c - 2) / 2)),
        c => Entry::Value(Value::Win((c - 3) / 2)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for e in [
            Entry::Illegal,
            Entry::Value(Value::Draw),
            Entry::Value(Value::Win(0)),
            Entry::Value(Value::Win(1)),
            Entry::Value(Value::Loss(0)),
            Entry::Value(Value::Loss(126)),
            Entry::Value(Value::Win(126)),
        ] {
            assert_eq!(decode(encode(e)), e);
        }
        assert_eq!(encode(Entry::Value(Value::Win(126))), 255);
    }

    #[test]
    fn ranking_prefers_short_wins_and_long_losses() {
        assert!(Value::Win(1).rank() > Value::Win(3).rank());
        assert!(Value::Win(99).rank() > Value::Draw.rank());
        assert!(Value::Draw.rank() > Value::Loss(99).rank());
        assert!(Value::Loss(10).rank() > Value::Loss(2).rank());
        assert_eq!(Value::Loss(4).back(), Value::Win(5));
    }
}
