//! Why talking to the engine failed.

use std::fmt;
use std::time::Duration;

/// Why talking to the engine failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// The command line is empty or does not split into words (an open quote).
    BadCommand(String),
    /// The engine could not be started.
    Spawn {
        /// The program.
        program: String,
        /// The system's reason.
        message: String,
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
        reason: String,
    },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::BadCommand(m) => write!(f, "bad engine command: {m}"),
            EngineError::Spawn { program, message } => {
                write!(f, "cannot start the engine `{program}`: {message}")
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
        }
    }
}

impl std::error::Error for EngineError {}
