//! Reading protocol lines with a length limit, from either side.

use std::io::{BufRead, ErrorKind};

/// The longest input line accepted, in bytes (without the line end).
pub const MAX_LINE: usize = 64 * 1024;

/// One read of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line, without its line end (`\n` or `\r\n`).
    Line(String),
    /// A line longer than [`MAX_LINE`] bytes (its length is given); it was read and dropped.
    TooLong(usize),
    /// A line that is not UTF-8; dropped.
    NotUtf8,
    /// End of input (or a read error): for an engine, the session ends as on `quit`.
    Eof,
}

/// Reads lines of at most [`MAX_LINE`] bytes without ever holding more than that in
/// memory: a longer line is consumed up to its end and reported as [`Input::TooLong`].
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// A reader over `inner`.
    pub fn new(inner: R) -> LineReader<R> {
        LineReader {
            inner,
            buf: Vec::new(),
        }
    }

    /// The next line.
    pub fn next_line(&mut self) -> Input {
        self.buf.clear();
        let mut total = 0usize;
        let mut too_long = false;
        let mut saw_any = false;
        let mut last = None;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => return Input::Eof,
            };
            if chunk.is_empty() {
                if !saw_any {
                    return Input::Eof;
                }
                break;
            }
            saw_any = true;
            let (part_len, used, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i, i + 1, true),
                None => (chunk.len(), chunk.len(), false),
            };
            total = total.saturating_add(part_len);
            if part_len > 0 {
                last = Some(chunk[part_len - 1]);
            }
            if !too_long {
                if self.buf.len() + part_len > MAX_LINE + 1 {
                    too_long = true;
                    self.buf = Vec::new();
                } else {
                    self.buf.extend_from_slice(&chunk[..part_len]);
                }
            }
            self.inner.consume(used);
            if done {
                break;
            }
        }
        if last == Some(b'\r') {
            total -= 1;
            if !too_long {
                self.buf.pop();
            }
        }
        if too_long || total > MAX_LINE {
            self.buf = Vec::new();
            return Input::TooLong(total);
        }
        match String::from_utf8(std::mem::take(&mut self.buf)) {
            Ok(s) => Input::Line(s),
            Err(_) => Input::NotUtf8,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(bytes: &[u8]) -> Vec<Input> {
        // A tiny buffer, so that lines arrive in many chunks.
        let mut r = LineReader::new(std::io::BufReader::with_capacity(7, bytes));
        let mut out = Vec::new();
        loop {
            let i = r.next_line();
            if i == Input::Eof {
                return out;
            }
            out.push(i);
        }
    }

    #[test]
    fn lines_and_line_ends() {
        let got = read_all(b"usi\r\nisready\n\n  go depth 2\nquit");
        assert_eq!(
            got,
            [
                Input::Line("usi".into()),
                Input::Line("isready".into()),
                Input::Line(String::new()),
                Input::Line("  go depth 2".into()),
                Input::Line("quit".into()),
            ]
        );
        assert_eq!(read_all(b""), []);
    }

    #[test]
    fn long_lines_are_dropped_and_reading_goes_on() {
        let mut input = vec![b'x'; MAX_LINE];
        input.extend_from_slice(b"\n");
        input.extend(vec![b'y'; MAX_LINE + 1]);
        input.extend_from_slice(b"\r\nisready\n");
        input.extend(vec![b'z'; 3 * MAX_LINE]);
        let got = read_all(&input);
        assert_eq!(got.len(), 4);
        assert_eq!(got[0], Input::Line("x".repeat(MAX_LINE)));
        assert_eq!(got[1], Input::TooLong(MAX_LINE + 1));
        assert_eq!(got[2], Input::Line("isready".into()));
        assert_eq!(got[3], Input::TooLong(3 * MAX_LINE));
        assert_eq!(read_all(b"\xff\xfe\nusi\n")[0], Input::NotUtf8);
    }
}
