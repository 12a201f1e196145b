//! Lexing KIF text: the byte order mark, numbered lines, what kind of line each is, and a
//! cursor over the characters of one line (columns count characters from 1).
//!
//! Decoding bytes (UTF-8 or Shift_JIS) is [`super::encoding`]'s; everything after this
//! works on one classified line at a time.

use super::error::KifError;
use super::text::{digit_value, is_space, trim};

/// The text without a leading byte order mark.
pub(crate) fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{FEFF}').unwrap_or(text)
}

/// What a line of a KIF record is, from its first characters.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum LineKind {
    /// Nothing but spaces.
    Blank,
    /// A comment (`*`, `#`) or a bookmark (`&`), kept whole.
    Comment,
    /// The start of a variation (`変化：`), which kshogi does not read.
    Variation,
    /// A move line or special move line: it starts with an ASCII digit (the move number).
    Move,
    /// The result line, `まで…`.
    Summary,
    /// Anything else: header fields, the board diagram, the `手数----指手--` line.
    Other,
}

/// One line of KIF text, classified.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Line<'a> {
    /// The line number, from 1.
    pub(crate) no: usize,
    /// The line without its line ending and trailing ASCII spaces and tabs.
    pub(crate) text: &'a str,
    /// [`Line::text`] without leading and trailing spaces (ASCII and full-width).
    pub(crate) trimmed: &'a str,
    /// How many spaces lead the line (so columns of `trimmed` can be given in the line).
    pub(crate) lead: usize,
    /// What the line is.
    pub(crate) kind: LineKind,
}

impl<'a> Line<'a> {
    /// Classifies line `no` (from 1), given without its `\n`.
    pub(crate) fn new(no: usize, raw: &'a str) -> Line<'a> {
        let text = raw.trim_end_matches(['\r', ' ', '\t']);
        let trimmed = trim(text);
        let lead = text.chars().take_while(|&c| is_space(c)).count();
        let kind = if trimmed.is_empty() {
            LineKind::Blank
        } else if trimmed.starts_with(['#', '*', '&']) {
            LineKind::Comment
        } else if trimmed.starts_with("変化：") || trimmed.starts_with("変化:") {
            LineKind::Variation
        } else if trimmed.starts_with(|c: char| c.is_ascii_digit()) {
            LineKind::Move
        } else if trimmed.starts_with("まで") {
            LineKind::Summary
        } else {
            LineKind::Other
        };
        Line {
            no,
            text,
            trimmed,
            lead,
            kind,
        }
    }
}

/// The lines of a text (a leading BOM skipped), numbered from 1 and classified.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    strip_bom(text)
        .split('\n')
        .enumerate()
        .map(|(i, raw)| Line::new(i + 1, raw))
}

/// A cursor over the characters of one line; columns count characters from 1.
pub(crate) struct Cursor {
    pub(crate) chars: Vec<char>,
    pub(crate) i: usize,
    pub(crate) line: usize,
}

impl Cursor {
    pub(crate) fn new(line_no: usize, text: &str) -> Cursor {
        Cursor {
            chars: text.chars().collect(),
            i: 0,
            line: line_no,
        }
    }

    pub(crate) fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    pub(crate) fn col(&self) -> usize {
        self.i + 1
    }

    pub(crate) fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    pub(crate) fn eat_str(&mut self, s: &str) -> bool {
        let n = s.chars().count();
        if self.chars.len() >= self.i + n
            && self.chars[self.i..self.i + n].iter().copied().eq(s.chars())
        {
            self.i += n;
            true
        } else {
            false
        }
    }

    pub(crate) fn skip_spaces(&mut self) -> usize {
        let start = self.i;
        while self.peek().is_some_and(is_space) {
            self.i += 1;
        }
        self.i - start
    }

    pub(crate) fn found(&self) -> String {
        match self.peek() {
            Some(c) => format!("`{c}`"),
            None => "the end of the line".into(),
        }
    }

    pub(crate) fn expected(&self, what: &str) -> KifError {
        KifError::syntax(
            self.line,
            self.col(),
            format!("expected {what}, found {}", self.found()),
        )
    }

    /// A run of digits (ASCII or full-width) as a number; `None` if there is none.
    pub(crate) fn number(&mut self) -> Option<u64> {
        let start = self.i;
        let mut n: u64 = 0;
        while let Some(d) = self.peek().and_then(digit_value) {
            n = n.saturating_mul(10).saturating_add(u64::from(d));
            self.i += 1;
        }
        (self.i > start).then_some(n)
    }

    /// A run of ASCII digits as a number (move numbers are never full-width).
    pub(crate) fn ascii_number(&mut self) -> Option<u64> {
        let start = self.i;
        let mut n: u64 = 0;
        while let Some(d) = self.peek().filter(char::is_ascii_digit) {
            n = n
                .saturating_mul(10)
                .saturating_add(u64::from(d as u32 - '0' as u32));
            self.i += 1;
        }
        (self.i > start).then_some(n)
    }

    pub(crate) fn rest(&self) -> String {
        self.chars[self.i.min(self.chars.len())..].iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_classified_by_their_start() {
        let text = "\u{FEFF}手合割：京都将棋\r\n*c\n\u{3000} \n   1 １四歩成(15)  \r\n\
                    まで1手で中断\n変化：2手\n&mark";
        let got: Vec<(usize, LineKind, &str, usize)> = lines(text)
            .map(|l| (l.no, l.kind, l.trimmed, l.lead))
            .collect();
        assert_eq!(
            got,
            [
                (1, LineKind::Other, "手合割：京都将棋", 0),
                (2, LineKind::Comment, "*c", 0),
                (3, LineKind::Blank, "", 1),
                (4, LineKind::Move, "1 １四歩成(15)", 3),
                (5, LineKind::Summary, "まで1手で中断", 0),
                (6, LineKind::Variation, "変化：2手", 0),
                (7, LineKind::Comment, "&mark", 0),
            ]
        );
        // The text keeps what a column count needs: leading spaces, not trailing ones.
        assert_eq!(lines("  x \t\r").next().map(|l| l.text), Some("  x"));
    }

    #[test]
    fn the_cursor_counts_characters() {
        let mut c = Cursor::new(4, "  12 ３四");
        assert_eq!(c.skip_spaces(), 2);
        assert_eq!(c.col(), 3);
        assert_eq!(c.ascii_number(), Some(12));
        assert!(c.eat(' '));
        assert_eq!(c.number(), Some(3), "full-width digits count as digits");
        assert!(c.eat_str("四"));
        assert_eq!(c.peek(), None);
        let e = c.expected("a piece");
        assert_eq!(
            e.to_string(),
            "line 4: column 8: expected a piece, found the end of the line"
        );
    }
}
