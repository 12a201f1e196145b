//! serde support: positions as SFEN strings, moves as USI strings, games as records.
//!
//! [`Position`], [`Move`] and [`Game`] are core types, and their text forms belong to
//! notation, so the serde forms are given by wrappers here:
//!
//! - [`SfenPosition`] serialises as the canonical SFEN string and deserialises from any SFEN
//!   [`parse_sfen`] reads (aliases, `startpos`, an omitted ply), validating the position.
//! - [`UsiMove`] serialises as the canonical USI string. A move alone has no position, so it
//!   deserialises from the forms that mean the same move everywhere: the canonical form, `-`
//!   as the flip mark and the reference engine's `+L*3a` drops. A move without its mandatory
//!   flip mark needs the position to be read; a [`GameRecord`] reads it.
//! - [`GameRecord`] serialises a game as
//!   `{"variant": "kyoto", "start": <sfen>, "moves": [<usi>, ...], "sfen": <sfen>, "result": ...}`
//!   where `sfen` is the position after the moves and `result` is `null` while the game goes
//!   on, or the outcome (`{"win": {"winner": "black", "reason": "checkmate"}}`,
//!   `{"draw": {"reason": "repetition"}}`). Deserialising replays the moves with the full
//!   rules, reading both USI dialects; `sfen` and `result` may be left out, and when given
//!   they must agree with the replayed game.
//!
//! Every error is a serde error whose message comes from the typed notation errors
//! ([`SfenError`], [`UsiError`], [`RecordError`]); nothing panics on any input.
//!
//! ```
//! use kshogi_notation::serde_support::{SfenPosition, UsiMove};
//! use kshogi_core::Position;
//! use kshogi_rules_kyoto::Kyoto;
//!
//! let start = SfenPosition(Position::<Kyoto>::start());
//! assert_eq!(serde_json::to_string(&start).unwrap(), r#""pgkst/5/5/5/TSKGP b - 1""#);
//! let back: SfenPosition<Kyoto> = serde_json::from_str(r#""startpos""#).unwrap();
//! assert_eq!(back, start);
//! let mv: UsiMove<Kyoto> = serde_json::from_str(r#""1e1d+""#).unwrap();
//! assert_eq!(mv.to_string(), "1e1d+");
//! ```

use crate::diagram::is_well_formed;
use crate::sfen::{parse_sfen, to_sfen, SfenError};
use crate::usi::{move_to_usi, parse_usi, read_usi_text, UsiError, UsiText};
use kshogi_core::{Game, GameError, Move, Outcome, Position, Variant};
use serde::de::Error as _;
use serde::ser::{Error as _, SerializeStruct as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

// ---------------------------------------------------------------------------------------
// Positions
// ---------------------------------------------------------------------------------------

/// A position whose serde form is its canonical SFEN string.
pub struct SfenPosition<V: Variant>(pub Position<V>);

impl<V: Variant> Clone for SfenPosition<V> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<V: Variant> Copy for SfenPosition<V> {}

impl<V: Variant> PartialEq for SfenPosition<V> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<V: Variant> Eq for SfenPosition<V> {}

impl<V: Variant> fmt::Debug for SfenPosition<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("SfenPosition").field(&self.0).finish()
    }
}

impl<V: Variant> From<Position<V>> for SfenPosition<V> {
    fn from(pos: Position<V>) -> Self {
        SfenPosition(pos)
    }
}

impl<V: Variant> fmt::Display for SfenPosition<V> {
    /// The canonical SFEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_sfen(&self.0))
    }
}

impl<V: Variant> FromStr for SfenPosition<V> {
    type Err = SfenError;
    /// Reads any SFEN [`parse_sfen`] reads.
    fn from_str(text: &str) -> Result<Self, SfenError> {
        parse_sfen(text).map(SfenPosition)
    }
}

impl<V: Variant> Serialize for SfenPosition<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&to_sfen(&self.0))
    }
}

impl<'de, V: Variant> Deserialize<'de> for SfenPosition<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse()
            .map_err(|e: SfenError| D::Error::custom(format_args!("SFEN `{text}`: {e}")))
    }
}

// ---------------------------------------------------------------------------------------
// Moves
// ---------------------------------------------------------------------------------------

/// A move of variant `V` whose serde form is its canonical USI string.
///
/// Its [`Display`](fmt::Display) is the canonical USI text; a hand-made [`Move`] that names a
/// square off the board or a piece `V` does not have displays as the USI null move `0000`
/// and does not serialise (an error, not a panic).
pub struct UsiMove<V: Variant>(pub Move, PhantomData<V>);

impl<V: Variant> UsiMove<V> {
    /// Wraps a move of `V`.
    pub const fn new(mv: Move) -> Self {
        UsiMove(mv, PhantomData)
    }

    /// The move.
    pub const fn get(self) -> Move {
        self.0
    }

    /// The canonical USI text, or `None` for a move that cannot be named in `V`.
    pub fn to_usi(self) -> Option<String> {
        is_well_formed::<V>(self.0).then(|| move_to_usi::<V>(self.0))
    }

    /// Reads a move in `pos`, in either USI dialect (as [`parse_usi`] does), checking that it
    /// is legal there.
    pub fn parse_in(pos: &Position<V>, text: &str) -> Result<Self, UsiError> {
        parse_usi(pos, text).map(UsiMove::new)
    }
}

impl<V: Variant> Clone for UsiMove<V> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<V: Variant> Copy for UsiMove<V> {}

impl<V: Variant> PartialEq for UsiMove<V> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<V: Variant> Eq for UsiMove<V> {}

impl<V: Variant> std::hash::Hash for UsiMove<V> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<V: Variant> fmt::Debug for UsiMove<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UsiMove").field(&self.0).finish()
    }
}

impl<V: Variant> From<Move> for UsiMove<V> {
    fn from(mv: Move) -> Self {
        UsiMove::new(mv)
    }
}

impl<V: Variant> fmt::Display for UsiMove<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_usi() {
            Some(text) => f.write_str(&text),
            None => f.write_str("0000"),
        }
    }
}

impl<V: Variant> FromStr for UsiMove<V> {
    type Err = UsiError;

    /// Reads a move without a position: `<from><to>` with `+` or `-` when the piece flips
    /// or promotes and nothing when it does not, or a drop `<letter>*<to>` by either face's
    /// letter (or an alias such as `+L`). Whether the move is legal is not checked (there is
    /// no position); a move that is illegal everywhere (a king dropped, a piece moving onto
    /// its own square) is [`UsiError::Illegal`].
    fn from_str(text: &str) -> Result<Self, UsiError> {
        match read_usi_text::<V>(text)? {
            UsiText::Drop { kind, to } => Ok(UsiMove::new(Move::drop(kind, to))),
            UsiText::Board { from, to, .. } if from == to => Err(UsiError::Illegal {
                text: text.to_string(),
                reason: "a piece cannot move onto its own square".into(),
                why: None,
            }),
            UsiText::Board { from, to, mark } => Ok(UsiMove::new(Move::board(from, to, mark))),
        }
    }
}

impl<V: Variant> Serialize for UsiMove<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.to_usi() {
            Some(text) => serializer.serialize_str(&text),
            None => Err(S::Error::custom(format_args!(
                "{:?} is not a move of {}",
                self.0,
                V::DISPLAY_NAME
            ))),
        }
    }
}

impl<'de, V: Variant> Deserialize<'de> for UsiMove<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(|e: UsiError| D::Error::custom(e))
    }
}

// ---------------------------------------------------------------------------------------
// Games
// ---------------------------------------------------------------------------------------

/// A game whose serde form is a record:
/// `{"variant", "start", "moves", "sfen", "result"}` (see the [module documentation](self)).
pub struct GameRecord<V: Variant>(pub Game<V>);

impl<V: Variant> Clone for GameRecord<V> {
    fn clone(&self) -> Self {
        GameRecord(self.0.clone())
    }
}

impl<V: Variant> fmt::Debug for GameRecord<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("GameRecord").field(&self.0).finish()
    }
}

impl<V: Variant> PartialEq for GameRecord<V> {
    /// Records are equal when start, moves, current position and result are.
    fn eq(&self, other: &Self) -> bool {
        self.0.start() == other.0.start()
            && self.0.moves() == other.0.moves()
            && self.0.position() == other.0.position()
            && self.0.outcome() == other.0.outcome()
    }
}
impl<V: Variant> Eq for GameRecord<V> {}

impl<V: Variant> From<Game<V>> for GameRecord<V> {
    fn from(game: Game<V>) -> Self {
        GameRecord(game)
    }
}

/// Why a game record could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The record is of another variant.
    #[error("variant `{found}` is not {expected}")]
    Variant {
        /// The variant named in the record.
        found: String,
        /// The variant being read.
        expected: &'static str,
    },
    /// The start position is wrong.
    #[error("start: {0}")]
    Start(SfenError),
    /// A move is malformed or illegal where it is played.
    #[error("move {number}: {error}")]
    Move {
        /// 1-based number of the move in `moves`.
        number: usize,
        /// What is wrong with it.
        error: UsiError,
    },
    /// A move comes after the game has ended.
    #[error("move {number} `{text}` comes after the game ended ({outcome})")]
    GameOver {
        /// 1-based number of the move in `moves`.
        number: usize,
        /// The move text.
        text: String,
        /// How the game ended.
        outcome: Outcome,
    },
    /// The `sfen` field is not an SFEN.
    #[error("sfen: {0}")]
    Sfen(SfenError),
    /// The `sfen` field is not the position after the moves.
    #[error("sfen `{given}` is not the position after the moves, `{actual}`")]
    SfenMismatch {
        /// The `sfen` field.
        given: String,
        /// The canonical SFEN of the position after the moves.
        actual: String,
    },
    /// The `result` field disagrees with the game.
    #[error("result says {}, but the moves give {}", describe(*.given), describe(*.actual))]
    ResultMismatch {
        /// The `result` field.
        given: Option<Outcome>,
        /// The result of the game replayed.
        actual: Option<Outcome>,
    },
}

fn describe(outcome: Option<Outcome>) -> String {
    match outcome {
        Some(o) => o.to_string(),
        None => "a game still going on".to_string(),
    }
}

impl<V: Variant> Serialize for GameRecord<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let game = &self.0;
        let moves: Vec<UsiMove<V>> = game.moves().iter().map(|&m| UsiMove::new(m)).collect();
        let mut record = serializer.serialize_struct("GameRecord", 5)?;
        record.serialize_field("variant", V::NAME)?;
        record.serialize_field("start", &SfenPosition(*game.start()))?;
        record.serialize_field("moves", &moves)?;
        // Written as an option (the same JSON) so that formats that are not self-describing
        // read back what they wrote: `sfen` is optional when reading.
        record.serialize_field("sfen", &Some(SfenPosition(*game.position())))?;
        record.serialize_field("result", &game.outcome())?;
        record.end()
    }
}

/// The record as text, before it is checked.
#[derive(Deserialize)]
#[serde(expecting = "a game record: {\"variant\", \"start\", \"moves\", ...}")]
struct RawRecord {
    variant: String,
    start: String,
    moves: Vec<String>,
    #[serde(default)]
    sfen: Option<String>,
    /// Absent: not checked; `null`: the game must go on; an outcome: it must be the game's.
    #[serde(default, deserialize_with = "present")]
    result: Option<Option<Outcome>>,
}

/// Marks a field that is present (even as `null`) as `Some`.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<Outcome>>, D::Error> {
    Option::<Outcome>::deserialize(d).map(Some)
}

impl<V: Variant> GameRecord<V> {
    /// Checks a record read as text and replays it: the variant, the start position, every
    /// move (either USI dialect, legal where it is played, not after the end), and the
    /// `sfen` and `result` fields when given.
    fn from_raw(raw: RawRecord) -> Result<Self, RecordError> {
        if !kshogi_core::VariantInfo::of::<V>().is_named(&raw.variant) {
            return Err(RecordError::Variant {
                found: raw.variant,
                expected: V::NAME,
            });
        }
        let start = parse_sfen::<V>(&raw.start).map_err(RecordError::Start)?;
        let mut game = Game::new(start);
        for (i, text) in raw.moves.iter().enumerate() {
            let number = i + 1;
            if let Some(outcome) = game.outcome() {
                return Err(RecordError::GameOver {
                    number,
                    text: text.clone(),
                    outcome,
                });
            }
            let mv = parse_usi(game.position(), text)
                .map_err(|error| RecordError::Move { number, error })?;
            game.play(mv).map_err(|e| match e {
                GameError::GameOver(outcome) => RecordError::GameOver {
                    number,
                    text: text.clone(),
                    outcome,
                },
                e @ (GameError::IllegalMove | GameError::PlyLimit) => RecordError::Move {
                    number,
                    error: UsiError::Illegal {
                        text: text.clone(),
                        reason: e.to_string(),
                        why: None,
                    },
                },
            })?;
        }
        if let Some(sfen) = raw.sfen {
            let given = parse_sfen::<V>(&sfen).map_err(RecordError::Sfen)?;
            if given != *game.position() {
                return Err(RecordError::SfenMismatch {
                    given: sfen,
                    actual: to_sfen(game.position()),
                });
            }
        }
        if let Some(given) = raw.result {
            if given != game.outcome() {
                return Err(RecordError::ResultMismatch {
                    given,
                    actual: game.outcome(),
                });
            }
        }
        Ok(GameRecord(game))
    }
}

impl<'de, V: Variant> Deserialize<'de> for GameRecord<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = RawRecord::deserialize(deserializer)?;
        GameRecord::from_raw(raw).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_core::{Kind, Square};
    use kshogi_rules_kinzoku::Kinzoku;
    use kshogi_rules_kyoto::Kyoto;
    use kshogi_rules_micro::Micro;

    fn usi<V: Variant>(text: &str) -> Result<Move, UsiError> {
        text.parse::<UsiMove<V>>().map(UsiMove::get)
    }

    #[test]
    fn context_free_moves_read_both_flip_marks_and_engine_drops() {
        let g = Kyoto::GEOMETRY;
        let sq = |name: &str| g.parse_square(name).unwrap();
        assert_eq!(
            usi::<Kyoto>("1e1d+"),
            Ok(Move::board(sq("1e"), sq("1d"), true))
        );
        assert_eq!(
            usi::<Kyoto>("1e1d-"),
            Ok(Move::board(sq("1e"), sq("1d"), true))
        );
        assert_eq!(
            usi::<Kyoto>("3e3d"),
            Ok(Move::board(sq("3e"), sq("3d"), false))
        );
        // Kyoto kinds: 1 tokin, 2 lance (see the rules crate).
        assert_eq!(usi::<Kyoto>("T*3a"), Ok(Move::drop(Kind(1), sq("3a"))));
        assert_eq!(usi::<Kyoto>("+L*3a"), Ok(Move::drop(Kind(1), sq("3a"))));
        assert_eq!(usi::<Kyoto>("L*3a"), Ok(Move::drop(Kind(2), sq("3a"))));
        assert_eq!(usi::<Kyoto>("l*3a"), Ok(Move::drop(Kind(2), sq("3a"))));
    }

    #[test]
    fn context_free_errors() {
        for bad in [
            "", "1e1", "1e1d++", "6e1d", "1f1d", "X*3a", "T*6a", "T*", "*", "１e1d", "1e1d*",
        ] {
            assert!(
                matches!(usi::<Kyoto>(bad), Err(UsiError::Syntax { .. })),
                "{bad:?}: {:?}",
                usi::<Kyoto>(bad)
            );
        }
        for bad in ["K*3a", "1e1e", "1e1e+"] {
            assert!(
                matches!(usi::<Kyoto>(bad), Err(UsiError::Illegal { .. })),
                "{bad:?}"
            );
        }
        // Kinzoku has no drops at all.
        assert!(usi::<Kinzoku>("S*2c").is_err());
        assert!(usi::<Micro>("4e1a").is_ok());
        assert!(usi::<Micro>("5e1a").is_err());
    }

    #[test]
    fn malformed_moves_do_not_serialise_and_display_as_null_move() {
        let bad = UsiMove::<Micro>::new(Move::board(Square(3), Square(50), false));
        assert_eq!(bad.to_string(), "0000");
        assert!(serde_json::to_string(&bad).is_err());
        let bad = UsiMove::<Micro>::new(Move::drop(Kind(40), Square(1)));
        assert!(serde_json::to_string(&bad).is_err());
    }
}
