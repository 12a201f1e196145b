//! Why a line is not a protocol message.

use crate::{shorten, MAX_THINK_MS};
use std::fmt;

/// A line that is not a message: what is wrong ([`ErrorKind`]) and the word where it was
/// found. Its text (`Display`) is one sentence that quotes the other side's words through
/// [`shorten`], so that it is safe to echo in an `info string` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong.
    pub kind: ErrorKind,
    /// The word of the line (counted from 0, the command word) where it was found; the
    /// number of words when something is missing at the end.
    pub word: usize,
}

/// What is wrong with a line. Words quoted from the line are kept as they were sent.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The line has no words.
    Empty,
    /// The first word is not a command of the protocol.
    UnknownCommand(String),
    /// A command that takes no arguments was given some.
    UnexpectedArguments(&'static str),
    /// `gameover` with something other than `win`, `lose` or `draw`.
    GameOverResult,
    /// `setoption` not followed by `name`.
    SetOptionForm,
    /// `setoption name` without a name.
    SetOptionNameMissing,
    /// `position` not followed by `startpos`, `sfen` or `fen`.
    PositionForm,
    /// `position startpos` followed by a word other than `moves`.
    StartposExtra(String),
    /// A `go` time field without its number.
    MissingMillis(&'static str),
    /// A `go` time field whose value is not a number of milliseconds.
    BadMillis(&'static str, String),
    /// `go movetime` or `go mate` above [`MAX_THINK_MS`].
    ThinkTimeTooLong(&'static str, String),
    /// A `go` count (`depth`, `nodes`, `perft`) without its number.
    MissingCount(&'static str),
    /// A `go` count outside `1..=max`.
    BadCount(&'static str, u64, String),
    /// A `go` parameter that takes moves without any.
    MissingMoves(&'static str),
    /// `go mate` with a signed number.
    BadMateTime(String),
    /// A `go` parameter that is not one.
    UnknownGoParameter(String),
    /// An engine message's field without its value (`info depth` at the end of the line).
    MissingValue(&'static str),
    /// An engine message's field whose value is not what the field takes.
    BadValue(&'static str, String),
    /// `option` without a name or a type the protocol knows.
    OptionForm,
}

impl ParseError {
    /// An error of `kind` at word `word`.
    pub fn new(kind: ErrorKind, word: usize) -> ParseError {
        ParseError { kind, word }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::Empty => write!(f, "the line is empty"),
            ErrorKind::UnknownCommand(w) => write!(f, "unknown command `{}`", shorten(w)),
            ErrorKind::UnexpectedArguments(c) => write!(f, "`{c}` takes no arguments"),
            ErrorKind::GameOverResult => write!(f, "`gameover` takes one of win, lose, draw"),
            ErrorKind::SetOptionForm => {
                write!(f, "`setoption` must be followed by `name <id> [value <x>]`")
            }
            ErrorKind::SetOptionNameMissing => write!(f, "`setoption`: the option name is missing"),
            ErrorKind::PositionForm => write!(
                f,
                "`position` must be followed by `startpos`, `sfen <SFEN>` or `fen <FEN>`; \
                 no position until the next valid one"
            ),
            ErrorKind::StartposExtra(w) => write!(
                f,
                "position rejected: `startpos` must be followed by `moves` or nothing, found \
                 `{}`; no position until the next valid one",
                shorten(w)
            ),
            ErrorKind::MissingMillis(k) => write!(f, "`go {k}` needs a number of milliseconds"),
            ErrorKind::BadMillis(k, w) => write!(
                f,
                "`go {k}` needs a number of milliseconds, found `{}`",
                shorten(w)
            ),
            ErrorKind::ThinkTimeTooLong(k, w) => write!(
                f,
                "`go {k}` needs a number of milliseconds from 0 to {MAX_THINK_MS} (a week), \
                 found `{}`",
                shorten(w)
            ),
            ErrorKind::MissingCount(k) => write!(f, "`go {k}` needs a number"),
            ErrorKind::BadCount(k, max, w) => write!(
                f,
                "`go {k}` needs a whole number from 1 to {max}, found `{}`",
                shorten(w)
            ),
            ErrorKind::MissingMoves(k) => write!(f, "`go {k}` needs at least one move"),
            ErrorKind::BadMateTime(w) => write!(
                f,
                "`go mate` needs a time in milliseconds from 0 to {MAX_THINK_MS} or \
                 `infinite`, found `{}`",
                shorten(w)
            ),
            ErrorKind::UnknownGoParameter(w) => {
                write!(f, "`go`: unknown parameter `{}`", shorten(w))
            }
            ErrorKind::MissingValue(field) => write!(f, "`{field}` needs a value"),
            ErrorKind::BadValue(field, w) => {
                write!(f, "`{field}` cannot take `{}`", shorten(w))
            }
            ErrorKind::OptionForm => write!(
                f,
                "`option` must be `option name <id> type check|spin|combo|button|string|filename ...`"
            ),
        }
    }
}

impl std::error::Error for ParseError {}
