//! # kshogi-usi-protocol
//!
//! The USI protocol (and its UCI mode, as pychess-style clients speak it) as Rust types:
//! what a GUI sends to an engine ([`GuiMessage`]) and what an engine answers
//! ([`EngineMessage`]), each parsed (`str::parse`, [`FromStr`](std::str::FromStr)) and
//! printed ([`Display`](std::fmt::Display)) in exactly one place, so that the engine loop
//! (`kshogi-usi`), the client (`kshogi-usi-client`) and the match runner (`kshogi-match`)
//! read and write the same text. A line that does not parse is a [`ParseError`] naming what
//! is wrong and at which word; no input makes the parser panic. [`LineReader`] reads lines of
//! at most [`MAX_LINE`] bytes from any reader.
//!
//! ```
//! use kshogi_usi_protocol::{EngineMessage, GuiMessage, Go};
//!
//! let go: GuiMessage = "go btime 1000 wtime 2000 byoyomi 300".parse().unwrap();
//! let GuiMessage::Go(Go { clock, .. }) = &go else { unreachable!() };
//! assert_eq!(clock.byoyomi, Some(300));
//! assert_eq!(go.to_string(), "go btime 1000 wtime 2000 byoyomi 300");
//!
//! let answer: EngineMessage = "bestmove 1e1d+ ponder 5a4b".parse().unwrap();
//! assert_eq!(answer.to_string(), "bestmove 1e1d+ ponder 5a4b");
//! ```
//!
//! A `setoption` value is read against the type its option declares in one place too
//! ([`OptionType::read_value`], and [`check_setoption`] against an engine's handshake), for
//! the engine that declares the options and for the runner that sets them.
//!
//! This crate is text only and depends on nothing but the standard library: moves and
//! positions stay words here, which the notation crate interprets, and what an option does
//! is the engine's. It must not depend on any kshogi crate, know a variant, or hold any policy
//! (what to search, how long to think).

mod engine;
mod error;
mod gui;
mod info;
mod line;
mod option_value;
mod words;

pub use engine::{BestMove, Checkmate, EngineMessage, OptionDecl, OptionType};
pub use error::{ErrorKind, ParseError};
pub use gui::{Clock, GameResult, Go, GuiMessage, MateTime, PositionArgs, Setup};
pub use info::{Bound, Info, Score, ScoreValue, Wdl};
pub use line::{Input, LineReader, MAX_LINE};
pub use option_value::{check_setoption, same_option_name, OptionError, OptionValue};

/// The deepest `go depth` (and `go perft`) accepted.
pub const MAX_DEPTH: u32 = 100;

/// The longest think time accepted in `go movetime` and `go mate`, in milliseconds: a week.
pub const MAX_THINK_MS: u64 = 7 * 24 * 3600 * 1000;

/// The protocol spoken: USI (the default) or UCI (after `uci`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// USI: `usi`, `usiok`, `usinewgame`, SFEN positions.
    #[default]
    Usi,
    /// UCI: `uci`, `uciok`, `ucinewgame`, FEN positions.
    Uci,
}

/// Text from the other side, made safe to quote in one line of a message: at most 40
/// characters, control characters replaced by `?`, `...` after a cut.
pub fn shorten(text: &str) -> String {
    let mut s: String = text
        .chars()
        .take(40)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().count() > 40 {
        s.push_str("...");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorten_cuts_and_cleans() {
        // 41 characters: the first 40 and `...`.
        let long = "a".repeat(41);
        assert_eq!(shorten(&long), format!("{}...", "a".repeat(40)));
        assert_eq!(shorten("a\u{1b}b"), "a?b");
        assert_eq!(shorten(""), "");
    }
}
