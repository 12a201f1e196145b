//! Reading the USI protocol: input lines with a length limit, and the arguments of `go`
//! and `setoption`. Nothing here touches the engine; every function returns a message for
//! `info string error: ...` instead of failing.

use crate::time_manager::{Clock, MAX_THINK_MS};
use std::io::{BufRead, ErrorKind};

/// The longest input line accepted, in bytes (without the line end).
pub const MAX_LINE: usize = 64 * 1024;

/// The deepest `go depth` accepted.
pub const MAX_DEPTH: u32 = 100;

/// One read from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line, without its line end (`\n` or `\r\n`).
    Line(String),
    /// A line longer than [`MAX_LINE`] bytes (its length is given); it was read and dropped.
    TooLong(usize),
    /// A line that is not UTF-8; dropped.
    NotUtf8,
    /// End of input (or a read error): the session ends as on `quit`.
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

/// How long `go mate` may look for a mate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MateTime {
    /// Until `stop` (`go mate infinite`, or `go mate` alone).
    Infinite,
    /// This many milliseconds.
    Millis(u64),
}

/// The arguments of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// Clock fields.
    pub clock: Clock,
    /// `depth N`.
    pub depth: Option<u32>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `ponder`: search until `ponderhit` (then on the clock) or `stop`.
    pub ponder: bool,
    /// `mate ...`: run the mate solver instead of the search.
    pub mate: Option<MateTime>,
    /// `perft N`: count the leaves of the legal-move tree instead of searching.
    pub perft: Option<u32>,
}

/// A time in milliseconds. A negative value (some GUIs send one when the clock has run
/// out) counts as 0; a value too large for 64 bits counts as the largest.
fn time_value(key: &str, text: Option<&&str>) -> Result<u64, String> {
    let Some(&t) = text else {
        return Err(format!("`go {key}` needs a number of milliseconds"));
    };
    let digits = t.strip_prefix('-').unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "`go {key}` needs a number of milliseconds, found `{}`",
            shorten(t)
        ));
    }
    if t.starts_with('-') {
        return Ok(0);
    }
    Ok(digits.parse().unwrap_or(u64::MAX))
}

/// Refuses a think time (`movetime`, `go mate MS`) above [`MAX_THINK_MS`], naming the value.
fn check_think_time(key: &str, ms: u64, text: Option<&&str>) -> Result<(), String> {
    if ms > MAX_THINK_MS {
        return Err(format!(
            "`go {key}` needs a number of milliseconds from 0 to {MAX_THINK_MS} (a week), \
             found `{}`",
            shorten(text.copied().unwrap_or(""))
        ));
    }
    Ok(())
}

/// A positive whole number for `depth` and `nodes`.
fn count_value(key: &str, text: Option<&&str>, max: u64) -> Result<u64, String> {
    let Some(&t) = text else {
        return Err(format!("`go {key}` needs a number"));
    };
    match t.parse::<u64>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "`go {key}` needs a whole number from 1 to {max}, found `{}`",
            shorten(t)
        )),
    }
}

/// Parses the words after `go`.
pub fn parse_go(args: &[&str]) -> Result<GoParams, String> {
    let mut p = GoParams::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let next = args.get(i + 1);
        i += 1;
        let slot = match key {
            "btime" => Some(&mut p.clock.btime),
            "wtime" => Some(&mut p.clock.wtime),
            "byoyomi" => Some(&mut p.clock.byoyomi),
            "binc" => Some(&mut p.clock.binc),
            "winc" => Some(&mut p.clock.winc),
            "movetime" => Some(&mut p.clock.movetime),
            _ => None,
        };
        if let Some(slot) = slot {
            let ms = time_value(key, next)?;
            // A think time is refused above the longest one, as a depth above the deepest
            // is; clock readings are the GUI's and stay accepted (the allotment from them
            // is at most the same week).
            if key == "movetime" {
                check_think_time(key, ms, next)?;
            }
            *slot = Some(ms);
            i += 1;
            continue;
        }
        match key {
            "depth" => {
                let d = count_value(key, next, u64::from(MAX_DEPTH))?;
                p.depth = Some(u32::try_from(d).unwrap_or(MAX_DEPTH));
                i += 1;
            }
            "nodes" => {
                p.nodes = Some(count_value(key, next, u64::MAX)?);
                i += 1;
            }
            "perft" => {
                let d = count_value(key, next, u64::from(MAX_DEPTH))?;
                p.perft = Some(u32::try_from(d).unwrap_or(MAX_DEPTH));
                i += 1;
            }
            "infinite" => p.infinite = true,
            "ponder" => p.ponder = true,
            "mate" => match next.copied() {
                Some("infinite") => {
                    p.mate = Some(MateTime::Infinite);
                    i += 1;
                }
                Some(t) if t.bytes().all(|b| b.is_ascii_digit()) => {
                    let ms = time_value(key, next)?;
                    check_think_time(key, ms, next)?;
                    p.mate = Some(MateTime::Millis(ms));
                    i += 1;
                }
                Some(t) if t.starts_with('-') || t.starts_with('+') => {
                    return Err(format!(
                        "`go mate` needs a time in milliseconds from 0 to {MAX_THINK_MS} or \
                         `infinite`, found `{}`",
                        shorten(t)
                    ));
                }
                _ => p.mate = Some(MateTime::Infinite),
            },
            other => return Err(format!("`go`: unknown parameter `{}`", shorten(other))),
        }
    }
    Ok(p)
}

/// Parses the words after `setoption`: `name <id...> [value <x...>]`. The name and the
/// value may contain spaces.
pub fn parse_setoption(args: &[&str]) -> Result<(String, Option<String>), String> {
    if args.first() != Some(&"name") {
        return Err("`setoption` must be followed by `name <id> [value <x>]`".to_string());
    }
    let rest = &args[1..];
    let split = rest.iter().position(|&w| w == "value");
    let (name, value) = match split {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err("`setoption`: the option name is missing".to_string());
    }
    Ok((name.join(" "), value))
}

/// Text from the GUI, made safe to echo in one `info string` line: at most 40 characters,
/// control characters replaced by `?`.
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

    #[test]
    fn go_parameters() {
        let p = parse_go(&[
            "btime", "1000", "wtime", "2000", "byoyomi", "300", "binc", "1", "winc", "2",
        ])
        .unwrap();
        assert_eq!(
            p.clock,
            Clock {
                btime: Some(1000),
                wtime: Some(2000),
                byoyomi: Some(300),
                binc: Some(1),
                winc: Some(2),
                movetime: None,
            }
        );
        let p = parse_go(&["depth", "3", "nodes", "500", "infinite", "ponder"]).unwrap();
        assert_eq!(
            (p.depth, p.nodes, p.infinite, p.ponder),
            (Some(3), Some(500), true, true)
        );
        assert_eq!(parse_go(&[]).unwrap(), GoParams::default());
        assert_eq!(parse_go(&["perft", "3"]).unwrap().perft, Some(3));
        assert_eq!(
            parse_go(&["movetime", "-5"]).unwrap().clock.movetime,
            Some(0)
        );
        assert_eq!(
            parse_go(&["btime", "99999999999999999999999"])
                .unwrap()
                .clock
                .btime,
            Some(u64::MAX)
        );
    }

    #[test]
    fn go_mate_forms() {
        assert_eq!(parse_go(&["mate"]).unwrap().mate, Some(MateTime::Infinite));
        assert_eq!(
            parse_go(&["mate", "infinite"]).unwrap().mate,
            Some(MateTime::Infinite)
        );
        assert_eq!(
            parse_go(&["mate", "1500"]).unwrap().mate,
            Some(MateTime::Millis(1500))
        );
        let p = parse_go(&["mate", "depth", "2"]).unwrap();
        assert_eq!((p.mate, p.depth), (Some(MateTime::Infinite), Some(2)));
        // A negative time is an error naming the value (it was an unknown parameter `-5`).
        let e = parse_go(&["mate", "-5"]).unwrap_err();
        assert!(
            e.starts_with("`go mate` needs a time") && e.contains("`-5`"),
            "{e}"
        );
    }

    #[test]
    fn think_times_above_a_week_are_refused_as_depths_above_100_are() {
        // A week is 7 * 24 * 3600 * 1000 = 604800000 ms: accepted; one more is refused.
        assert!(parse_go(&["movetime", "604800000"]).is_ok());
        let e = parse_go(&["movetime", "604800001"]).unwrap_err();
        assert!(e.contains("`604800001`") && e.contains("604800000"), "{e}");
        let e = parse_go(&["movetime", "99999999999999999999999"]).unwrap_err();
        assert!(e.contains("`99999999999999999999999`"), "{e}");
        assert!(parse_go(&["mate", "604800001"]).is_err());
        assert!(parse_go(&["depth", "101"]).is_err());
        // Clock readings are the GUI's: a huge one is still taken.
        assert!(parse_go(&["btime", "99999999999999999999999"]).is_ok());
    }

    #[test]
    fn bad_go_parameters() {
        for bad in [
            &["depth"][..],
            &["depth", "0"],
            &["depth", "101"],
            &["depth", "x"],
            &["nodes", "-1"],
            &["btime"],
            &["btime", "1.5"],
            &["wtime", "--3"],
            &["searchmoves", "1e1d+"],
            &["perft"],
            &["perft", "0"],
            &["perft", "x"],
            &["banana"],
        ] {
            assert!(parse_go(bad).is_err(), "{bad:?}");
        }
        let e = parse_go(&["\u{1b}[31mred"]).unwrap_err();
        assert!(!e.contains('\u{1b}'), "{e}");
    }

    #[test]
    fn setoption_forms() {
        assert_eq!(
            parse_setoption(&["name", "USI_Hash", "value", "64"]).unwrap(),
            ("USI_Hash".to_string(), Some("64".to_string()))
        );
        assert_eq!(
            parse_setoption(&["name", "Some", "Option", "value", "a", "b"]).unwrap(),
            ("Some Option".to_string(), Some("a b".to_string()))
        );
        assert_eq!(
            parse_setoption(&["name", "Clear", "Hash"]).unwrap(),
            ("Clear Hash".to_string(), None)
        );
        assert!(parse_setoption(&[]).is_err());
        assert!(parse_setoption(&["USI_Hash", "64"]).is_err());
        assert!(parse_setoption(&["name", "value", "3"]).is_err());
    }
}
