//! A line as words with their offsets, and the field readers the message parsers share.

use crate::error::{ErrorKind, ParseError};
use std::str::FromStr;

/// The words of `line` with their byte offsets.
pub(crate) fn words(line: &str) -> Vec<(usize, &str)> {
    let base = line.as_ptr() as usize;
    line.split_whitespace()
        .map(|w| (w.as_ptr() as usize - base, w))
        .collect()
}

/// The rest of `line` from word `i` (empty when there is none).
pub(crate) fn rest<'a>(line: &'a str, ws: &[(usize, &str)], i: usize) -> &'a str {
    ws.get(i).map_or("", |&(at, _)| &line[at..])
}

/// A number of type `T` in word `i`, for field `field`.
pub(crate) fn number<T: FromStr>(
    ws: &[(usize, &str)],
    i: usize,
    field: &'static str,
) -> Result<T, ParseError> {
    let Some(&(_, w)) = ws.get(i) else {
        return Err(ParseError::new(ErrorKind::MissingValue(field), i));
    };
    w.parse()
        .map_err(|_| ParseError::new(ErrorKind::BadValue(field, w.to_string()), i))
}
