//! Errors of KIF reading: every one names the line (and the column where it helps).

use kshogi_core::{IllegalMove, Outcome, PositionError};

/// What is wrong with a KIF record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KifErrorKind {
    /// The bytes are neither UTF-8 nor Shift_JIS (or a UTF-8 file is damaged).
    #[error("{0}")]
    Encoding(String),
    /// A line does not have the expected form.
    #[error("{0}")]
    Syntax(String),
    /// The `手合割` header is missing, unknown, or names another variant.
    #[error("{0}")]
    Variant(String),
    /// The board diagram is malformed or does not fit the variant.
    #[error("board diagram: {0}")]
    Diagram(String),
    /// The board diagram is well-formed but not a valid position.
    #[error("invalid position: {0}")]
    Position(PositionError),
    /// A well-formed move that is not legal in the position.
    #[error("illegal move `{text}`: {reason}")]
    IllegalMove {
        /// The move as written (without number and time).
        text: String,
        /// Why it is not legal, in words.
        reason: String,
        /// Why, as core's typed reason ([`kshogi_core::Position::resolve`]); `None` for a
        /// reason of the game rather than the position (the ply limit).
        why: Option<IllegalMove>,
    },
    /// A move after the game has ended by the rules (checkmate, repetition, ...).
    #[error("move `{text}` comes after the game ended ({outcome})")]
    GameOver {
        /// The move as written.
        text: String,
        /// How the game had ended.
        outcome: Outcome,
    },
    /// The result (special move line or `まで…` line) disagrees with the moves.
    #[error("{0}")]
    Result(String),
    /// A part of the KIF format that kshogi does not read (variations).
    #[error("{0}")]
    Unsupported(String),
}

/// A KIF error with its place: the line (from 1) and, where it helps, the column (in
/// characters from 1).
///
/// Displayed as `line 7: column 6: ...`, or `line 7: ...` without a column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {}{kind}", column.map(|c| format!("column {c}: ")).unwrap_or_default())]
pub struct KifError {
    /// Line number, counting from 1.
    pub line: usize,
    /// Column in characters, counting from 1, when the problem is at a precise place.
    pub column: Option<usize>,
    /// What is wrong.
    pub kind: KifErrorKind,
}

impl KifError {
    pub(crate) fn at(line: usize, column: Option<usize>, kind: KifErrorKind) -> KifError {
        KifError { line, column, kind }
    }

    pub(crate) fn syntax(line: usize, column: usize, msg: impl Into<String>) -> KifError {
        KifError::at(line, Some(column), KifErrorKind::Syntax(msg.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_line_then_column() {
        let e = KifError::syntax(7, 6, "expected a piece");
        assert_eq!(e.to_string(), "line 7: column 6: expected a piece");
        let e = KifError::at(3, None, KifErrorKind::Variant("no 手合割".into()));
        assert_eq!(e.to_string(), "line 3: no 手合割");
    }
}
