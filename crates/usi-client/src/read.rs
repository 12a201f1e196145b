//! Reading the engine's lines with a length limit.

use crate::MAX_LINE;
use std::io::{BufRead, Read};

/// The longest line quoted in an error, in characters.
pub(crate) const QUOTE_MAX: usize = 200;

/// `text` cut to [`QUOTE_MAX`] characters.
pub(crate) fn quote(text: &str) -> String {
    if text.chars().count() <= QUOTE_MAX {
        return text.to_string();
    }
    let cut: String = text.chars().take(QUOTE_MAX).collect();
    format!("{cut}...")
}

/// One line read with [`read_capped`].
#[derive(Debug)]
pub(crate) enum Capped {
    /// A line without its line end (`\n` or `\r\n`), bad UTF-8 replaced.
    Line(String),
    /// A line of more than [`MAX_LINE`] bytes: its first [`MAX_LINE`] bytes (lossy UTF-8),
    /// and whether the rest of it is still unread.
    TooLong(String, bool),
}

/// Reads one line of at most [`MAX_LINE`] bytes into `buf` (cleared first); `None` at the
/// end of the output (or on a read error).
pub(crate) fn read_capped(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> Option<Capped> {
    buf.clear();
    // The line end may take two bytes (`\r\n`) past the limit.
    let limit = MAX_LINE as u64 + 2;
    match Read::take(&mut *reader, limit).read_until(b'\n', buf) {
        Ok(0) | Err(_) => return None,
        Ok(_) => {}
    }
    let ended = buf.last() == Some(&b'\n');
    if ended {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    }
    if buf.len() > MAX_LINE || (!ended && buf.len() as u64 == limit) {
        buf.truncate(MAX_LINE);
        return Some(Capped::TooLong(
            String::from_utf8_lossy(buf).into_owned(),
            !ended,
        ));
    }
    Some(Capped::Line(String::from_utf8_lossy(buf).into_owned()))
}

/// Skips the rest of a line cut by [`read_capped`], without holding it; `false` at the end
/// of the output.
pub(crate) fn skip_line(reader: &mut impl BufRead) -> bool {
    loop {
        let (used, done) = match reader.fill_buf() {
            Ok([]) | Err(_) => return false,
            Ok(bytes) => match bytes.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (bytes.len(), false),
            },
        };
        reader.consume(used);
        if done {
            return true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_up_to_the_limit_and_no_further() {
        let mut input = "x".repeat(MAX_LINE).into_bytes();
        input.extend(b"\r\nshort\n");
        input.extend(vec![b'y'; MAX_LINE + 1]);
        input.extend(b"\nnext\n");
        input.extend(vec![b'z'; 3 * MAX_LINE]);
        input.extend(b"\nafter\nlast");
        let mut r = std::io::Cursor::new(input);
        let mut buf = Vec::new();
        let mut next = || read_capped(&mut r, &mut buf);
        assert!(matches!(next(), Some(Capped::Line(l)) if l.len() == MAX_LINE));
        assert!(matches!(next(), Some(Capped::Line(l)) if l == "short"));
        // Its end was read with it.
        assert!(matches!(next(), Some(Capped::TooLong(l, false)) if l.len() == MAX_LINE));
        assert!(matches!(next(), Some(Capped::Line(l)) if l == "next"));
        assert!(matches!(next(), Some(Capped::TooLong(l, true)) if l.len() == MAX_LINE));
        // The rest of this one is unread; skipping it finds the next line.
        assert!(skip_line(&mut r));
        let mut next = || read_capped(&mut r, &mut buf);
        assert!(matches!(next(), Some(Capped::Line(l)) if l == "after"));
        assert!(matches!(next(), Some(Capped::Line(l)) if l == "last"));
        assert!(next().is_none());
    }

    #[test]
    fn long_lines_are_cut_in_messages() {
        let long = "x".repeat(QUOTE_MAX + 10);
        assert_eq!(quote(&long).chars().count(), QUOTE_MAX + 3);
        assert_eq!(quote("short"), "short");
    }
}
