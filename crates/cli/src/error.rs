//! The one error type of the command line: every way the input can be wrong.

use kshogi_notation::kif::KifError;
use kshogi_notation::PositionArgError;
use kshogi_registry::{SelectError, VariantKind};

/// Why a command could not run. Its `Display` is the one-line message printed after
/// `error: `; the typed errors of notation already name the column.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The variant could not be chosen from the position (its board could not be read, no
    /// variant has its size, or it is `startpos` without `--variant`).
    #[error("{}", select_message(.0))]
    Select(#[from] SelectError),
    /// The position argument (SFEN or a move after it) is wrong.
    #[error("{0}")]
    Position(#[from] PositionArgError),
    /// `DEPTH` is not a whole number from 0 to [`kshogi_core::MAX_PERFT_DEPTH`].
    #[error("{0}")]
    Depth(#[from] kshogi_perft_suite::perft::DepthError),
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
    /// A game record (`kshogi convert --to sfen FILE`) could not be read, or is larger than
    /// a record can be ([`kshogi_report::game_file`]); the message names the file.
    #[error("{0}")]
    GameFile(#[from] kshogi_report::game_file::GameFileError),
    /// An INPUT of `kshogi review` could not be read.
    #[error("{0}")]
    ReviewInput(#[from] kshogi_report::review_files::InputError),
    /// Ctrl-C ended the work early; `partial` is what was finished (printed on stdout) and
    /// the process exits with status 130.
    #[error("{message}")]
    Interrupted {
        /// The finished part of the output.
        partial: String,
        /// What was done and what was not.
        message: String,
    },
    /// `kshogi perft --diff` found where the two move generators differ: `report` (printed
    /// on stdout) says where; the process exits with status 1, as a failing suite row does.
    #[error("{message}")]
    Differs {
        /// The divergence report.
        report: String,
        /// One line for stderr.
        message: String,
    },
    /// The Kinzoku database cannot be used: missing where it must be, unreadable, damaged,
    /// or of another format. The message names the file.
    #[error("{0}")]
    Database(String),
    /// A perfect-play database that cannot be used ([`kshogi_report::databases`]); the
    /// message names the file.
    #[error("{0}")]
    Open(#[from] kshogi_report::databases::OpenError),
    /// An output file cannot (or will not) be written (`kshogi solve`, `-o FILE`); the
    /// message names it.
    #[error("{0}")]
    Output(String),
    /// An output file that the output rules refuse, or whose write failed
    /// ([`kshogi_report::output`]); the message names the option and the file.
    #[error("{0}")]
    OutputFile(#[from] kshogi_report::output::OutputError),
    /// Options that cannot go together, found after parsing; exits with status 2 like the
    /// argument parser's usage errors.
    #[error("{0}")]
    Usage(String),
    /// `kshogi solve` was asked for a variant it cannot solve.
    #[error("{0}")]
    NotSolvable(String),
    /// `kshogi solve --verify` found entries that disagree with the rules (the report is
    /// already on stdout).
    #[error("{0}")]
    Verify(String),
    /// `kshogi perft --suite` or `--diff` could not run, or rows failed (the report is
    /// already on stdout); the message names the suite file and lines.
    #[error("{0}")]
    Suite(String),
    /// `kshogi match` could not play (bad settings, an engine that cannot start, an
    /// output that cannot be written); the message says which.
    #[error("{0}")]
    Match(String),
    /// `kshogi perft-units` could not split, count or merge
    /// ([`kshogi_perft_suite::units::UnitsError`]): the message names the manifest line,
    /// unit or result file that is wrong.
    #[error("{0}")]
    Units(#[from] kshogi_perft_suite::units::UnitsError),
    /// `kshogi perft-units count` does not know which unit to count
    /// ([`kshogi_perft_suite::units::TaskIndexError`]).
    #[error("{0}")]
    TaskIndex(#[from] kshogi_perft_suite::units::TaskIndexError),
    /// `kshogi perft-units` was given a split depth or a manifest's variant it cannot use;
    /// the message says which.
    #[error("{0}")]
    UnitsArgs(String),
    /// A file name was given where a position is read (`convert --to kif game.kif`); the
    /// message says which command reads the file.
    #[error("{0}")]
    FileAsPosition(String),
    /// Serialising the JSON output failed (not expected to happen).
    #[error("could not write JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// The message of a [`CliError::Select`]: the registry's, with the hint to give `--variant`
/// where that is the way out.
fn select_message(e: &SelectError) -> String {
    match e {
        SelectError::Sfen(e) => e.to_string(),
        SelectError::NoBoard => format!(
            "`startpos` does not say which variant it is; give --variant (one of {})",
            VariantKind::names()
        ),
        SelectError::UnknownShape { .. }
        | SelectError::Url(_)
        | SelectError::UnknownLishogiVariant { .. } => e.to_string(),
    }
}

/// A panic is a bug, but even then the user gets one `error:` line, not a backtrace.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("unknown cause");
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let msg = msg.replace('\n', " ");
        eprintln!("error: internal error{place}: {msg} (this is a bug in kshogi)");
    }));
}

/// The longest quotation (text between backticks) printed in an error, in characters.
const MAX_QUOTE_CHARS: usize = 60;
/// The longest error message printed, in characters; the rest is summarised.
const MAX_MESSAGE_CHARS: usize = 300;

/// An error message made safe for a terminal and kept to one readable line: control
/// characters (which the input may carry) are shown escaped, line breaks become spaces, a
/// quotation of a huge input (between backticks) is cut short, and so is the whole message.
pub fn printable(message: &str) -> String {
    let mut out = String::new();
    let mut in_quote = false;
    let mut quoted = 0usize;
    let mut skipped = 0usize;
    for c in message.chars() {
        if c == '`' {
            if in_quote && skipped > 0 {
                out.push_str(&format!("… ({skipped} more characters)"));
            }
            in_quote = !in_quote;
            quoted = 0;
            skipped = 0;
            out.push(c);
            continue;
        }
        if in_quote {
            quoted += 1;
            if quoted > MAX_QUOTE_CHARS {
                skipped += 1;
                continue;
            }
        }
        match c {
            '\n' => out.push(' '),
            c if c.is_control() => out.extend(c.escape_debug()),
            c => out.push(c),
        }
    }
    if in_quote && skipped > 0 {
        out.push_str(&format!("… ({skipped} more characters)"));
    }
    let total = out.chars().count();
    if total > MAX_MESSAGE_CHARS {
        let mut cut: String = out.chars().take(MAX_MESSAGE_CHARS).collect();
        cut.push_str(&format!(
            "… ({} more characters)",
            total - MAX_MESSAGE_CHARS
        ));
        return cut;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_long_messages_cut() {
        assert_eq!(printable("a\u{1b}[2Jb\rc\nd"), "a\\u{1b}[2Jb\\rc d");
        let long = "x".repeat(1000);
        let p = printable(&long);
        assert!(p.starts_with(&"x".repeat(MAX_MESSAGE_CHARS)));
        assert!(p.ends_with("… (700 more characters)"), "{p}");
        let quoted = format!("move 1: `{}` is not a USI move", "y".repeat(500));
        assert_eq!(
            printable(&quoted),
            format!(
                "move 1: `{}… (440 more characters)` is not a USI move",
                "y".repeat(MAX_QUOTE_CHARS)
            )
        );
        assert_eq!(printable("column 3: bad"), "column 3: bad");
    }
}
