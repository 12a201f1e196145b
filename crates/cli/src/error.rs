//! The one error type of the command line: every way the input can be wrong.

use kshogi_notation::kif::KifError;
use kshogi_notation::{PositionArgError, SfenError};

/// Why a command could not run. Its `Display` is the one-line message printed after
/// `error: `; the typed errors of notation already name the column.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The board size could not be read to pick the variant (this includes `startpos`
    /// without `--variant`).
    #[error("{0}")]
    Shape(#[from] SfenError),
    /// No variant has the board size of the position.
    #[error("no variant has a {width}x{height} board (kyoto is 5x5, micro 4x5, kinzoku 3x5)")]
    UnknownShape {
        /// Board width (files).
        width: u8,
        /// Board height (ranks).
        height: u8,
    },
    /// Several variants share the board size of the position.
    #[error("a {width}x{height} board fits {candidates}; give --variant")]
    AmbiguousShape {
        /// Board width (files).
        width: u8,
        /// Board height (ranks).
        height: u8,
        /// The variants that fit, comma separated.
        candidates: String,
    },
    /// The position argument (SFEN or a move after it) is wrong.
    #[error("{0}")]
    Position(#[from] PositionArgError),
    /// `DEPTH` is not a non-negative whole number.
    #[error("DEPTH must be a non-negative whole number, found `{0}`")]
    Depth(String),
    /// A KIF record is wrong; the message starts with `line N:`.
    #[error("{0}")]
    Kif(#[from] KifError),
    /// The input file (or standard input) could not be read.
    #[error("cannot read {path}: {message}")]
    Input {
        /// The file, quoted, or `standard input`.
        path: String,
        /// The system's reason.
        message: String,
    },
    /// Ctrl-C ended the work early; `partial` is what was finished (printed on stdout) and
    /// the process exits with status 130.
    #[error("{message}")]
    Interrupted {
        /// The finished part of the output.
        partial: String,
        /// What was done and what was not.
        message: String,
    },
    /// The Kinzoku database cannot be used: missing where it must be, unreadable, damaged,
    /// or of another format. The message names the file.
    #[error("{0}")]
    Database(String),
    /// `kshogi solve` cannot (or will not) write its output file; the message names it.
    #[error("{0}")]
    Output(String),
    /// `kshogi solve` was asked for a variant it cannot solve.
    #[error("only Kinzoku Shogi is small enough to solve: {0} has far too many positions; use `kshogi solve kinzoku`")]
    NotSolvable(String),
    /// `kshogi solve --verify` found entries that disagree with the rules (the report is
    /// already on stdout).
    #[error("{0}")]
    Verify(String),
    /// Serialising the JSON output failed (not expected to happen).
    #[error("could not write JSON: {0}")]
    Json(#[from] serde_json::Error),
}
