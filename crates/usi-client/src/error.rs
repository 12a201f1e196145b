//! Why talking to the engine failed.

use crate::MAX_LINE;
use kshogi_usi_protocol::{OptionError, ParseError};
use std::fmt;
use std::io;
use std::time::Duration;

/// Why a line the engine printed is not what the protocol allows where it came: what
/// [`EngineError::Garbage`] says, and what a reader of lines ([`crate::Engine::read_until`])
/// answers for a line it refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Garbage {
    /// The line is longer than the protocol's limit ([`MAX_LINE`] bytes).
    TooLong,
    /// The line is not a message: the protocol's reason.
    NotAMessage(ParseError),
    /// The line is not one of the messages awaited (`expected`, in words); with the
    /// protocol's reason when it is no message at all.
    Unexpected {
        /// The messages awaited, in words (`` `move: count` or `Nodes searched: N` ``).
        expected: &'static str,
        /// Why the line is not a message, if it is not one.
        error: Option<ParseError>,
    },
    /// A perft divide whose counts do not add up to the total it ends with: their sum,
    /// `None` when it is over `u64::MAX`.
    DivideSum(Option<u64>),
}

impl fmt::Display for Garbage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Garbage::TooLong => write!(f, "the line is longer than {MAX_LINE} bytes"),
            Garbage::NotAMessage(e) => write!(f, "{e}"),
            Garbage::Unexpected {
                expected,
                error: None,
            } => write!(f, "expected {expected}"),
            Garbage::Unexpected {
                expected,
                error: Some(e),
            } => write!(f, "expected {expected} ({e})"),
            Garbage::DivideSum(Some(sum)) => write!(f, "its divide adds up to {sum}"),
            Garbage::DivideSum(None) => f.write_str("its divide adds up to more than 2^64 - 1"),
        }
    }
}

/// Why an engine's command line names no program to start ([`EngineError::BadCommand`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BadCommand {
    /// The command line has no words.
    Empty,
    /// The command line does not split into words by shell rules (an unclosed quote): the
    /// command line as given.
    Unsplittable(String),
}

impl fmt::Display for BadCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadCommand::Empty => f.write_str("the command is empty"),
            BadCommand::Unsplittable(command) => write!(
                f,
                "`{command}` does not split into words (an unclosed quote?)"
            ),
        }
    }
}

/// Why the system did not start a program ([`EngineError::Spawn`]): the kind of the
/// system's error and, when the system gave one, its error number, from which the
/// system's own words come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpawnFailure {
    /// The kind of error (`NotFound`, `PermissionDenied`, ...).
    pub kind: io::ErrorKind,
    /// The operating system's error number, if the error came from the system.
    pub os_error: Option<i32>,
}

impl From<&io::Error> for SpawnFailure {
    fn from(e: &io::Error) -> SpawnFailure {
        SpawnFailure {
            kind: e.kind(),
            os_error: e.raw_os_error(),
        }
    }
}

/// The system's words for the error (`No such file or directory (os error 2)`), or the
/// kind's when there is no error number.
impl fmt::Display for SpawnFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.os_error {
            Some(code) => write!(f, "{}", io::Error::from_raw_os_error(code)),
            None => write!(f, "{}", self.kind),
        }
    }
}

/// Why talking to the engine failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// The command line is empty or does not split into words (an open quote).
    BadCommand(BadCommand),
    /// The engine could not be started.
    Spawn {
        /// The program.
        program: String,
        /// The system's reason.
        failure: SpawnFailure,
    },
    /// The engine's output ended (it exited or closed it) while an answer was awaited.
    Crashed {
        /// What was awaited (`usiok`, `the perft count`).
        waiting_for: String,
        /// Its exit status as text (`exit status 3`, `signal 9`), or `still running`.
        status: String,
        /// Its last lines on standard error, if any.
        stderr: Vec<String>,
    },
    /// No answer came in time.
    Timeout {
        /// What was awaited.
        waiting_for: String,
        /// How long it was awaited.
        waited: Duration,
    },
    /// The engine printed a line that is not what the protocol allows here.
    Garbage {
        /// What was awaited.
        waiting_for: String,
        /// The line (cut to a few hundred characters).
        line: String,
        /// What is wrong with it.
        reason: Garbage,
    },
    /// An option the caller would set that the engine's handshake does not allow: a name it
    /// does not declare, or a value its declared type refuses
    /// ([`crate::EngineInfo::check_option`]). Nothing was sent.
    Option(OptionError),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::BadCommand(why) => write!(f, "bad engine command: {why}"),
            EngineError::Spawn { program, failure } => {
                write!(f, "cannot start the engine `{program}`: {failure}")
            }
            EngineError::Crashed {
                waiting_for,
                status,
                stderr,
            } => {
                write!(
                    f,
                    "the engine ended ({status}) while awaiting {waiting_for}"
                )?;
                if !stderr.is_empty() {
                    write!(f, "; its last error output: {}", stderr.join(" / "))?;
                }
                Ok(())
            }
            EngineError::Timeout {
                waiting_for,
                waited,
            } => write!(
                f,
                "the engine did not answer within {:.1} s (awaiting {waiting_for})",
                waited.as_secs_f64()
            ),
            EngineError::Garbage {
                waiting_for,
                line,
                reason,
            } => write!(
                f,
                "the engine printed `{line}` while awaiting {waiting_for}: {reason}"
            ),
            EngineError::Option(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for EngineError {}
