//! The `info` line: its fields, the score and the win/draw/loss chances.

use crate::error::{ErrorKind, ParseError};
use crate::words::{number, rest};
use std::fmt;

/// A score in an `info` line: its value and whether it is only a bound.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// The value.
    pub value: ScoreValue,
    /// `lowerbound` or `upperbound`, when the value is one.
    pub bound: Option<Bound>,
}

/// The value of a [`Score`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScoreValue {
    /// `cp N`: centipawns for the side to move.
    Cp(i32),
    /// `mate N`: plies to mate, negative when the side to move is mated.
    Mate(i32),
    /// `mate +` (`true`) or `mate -` (`false`): a mate of unknown length (USI).
    MateSign(bool),
}

/// A score that is only a bound.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// `lowerbound`.
    Lower,
    /// `upperbound`.
    Upper,
}

/// The win, draw and loss chances of `wdl W D L`, per mille.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Wins.
    pub win: u32,
    /// Draws.
    pub draw: u32,
    /// Losses.
    pub loss: u32,
}

/// The fields of an `info` line; printed in this order, absent ones left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `multipv`: the line's rank.
    pub multipv: Option<u32>,
    /// `score ...`.
    pub score: Option<Score>,
    /// `wdl W D L`.
    pub wdl: Option<Wdl>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `time`, in milliseconds.
    pub time: Option<u64>,
    /// `hashfull`, per mille.
    pub hashfull: Option<u32>,
    /// `currmove`.
    pub currmove: Option<String>,
    /// `pv ...`: up to `string` or the end of the line (empty: absent).
    pub pv: Vec<String>,
    /// `string ...`: the rest of the line, as sent.
    pub string: Option<String>,
}

impl Info {
    /// Reads the words of an `info` line (word 0 is `info`).
    pub(crate) fn parse_words(line: &str, ws: &[(usize, &str)]) -> Result<Info, ParseError> {
        let mut info = Info::default();
        let mut i = 1;
        while i < ws.len() {
            let key = ws[i].1;
            i += 1;
            match key {
                "depth" => info.depth = Some(number(ws, i, "info depth")?),
                "seldepth" => info.seldepth = Some(number(ws, i, "info seldepth")?),
                "multipv" => info.multipv = Some(number(ws, i, "info multipv")?),
                "nodes" => info.nodes = Some(number(ws, i, "info nodes")?),
                "nps" => info.nps = Some(number(ws, i, "info nps")?),
                "time" => info.time = Some(number(ws, i, "info time")?),
                "hashfull" => info.hashfull = Some(number(ws, i, "info hashfull")?),
                "currmove" => {
                    let Some(&(_, m)) = ws.get(i) else {
                        return Err(ParseError::new(ErrorKind::MissingValue("info currmove"), i));
                    };
                    info.currmove = Some(m.to_string());
                }
                "wdl" => {
                    info.wdl = Some(Wdl {
                        win: number(ws, i, "info wdl")?,
                        draw: number(ws, i + 1, "info wdl")?,
                        loss: number(ws, i + 2, "info wdl")?,
                    });
                    i += 2;
                }
                "score" => {
                    let value = match ws.get(i).map(|w| w.1) {
                        Some("cp") => ScoreValue::Cp(number(ws, i + 1, "info score cp")?),
                        Some("mate") => match ws.get(i + 1).map(|w| w.1) {
                            Some("+") => ScoreValue::MateSign(true),
                            Some("-") => ScoreValue::MateSign(false),
                            _ => ScoreValue::Mate(number(ws, i + 1, "info score mate")?),
                        },
                        Some(w) => {
                            return Err(ParseError::new(
                                ErrorKind::BadValue("info score", w.to_string()),
                                i,
                            ))
                        }
                        None => {
                            return Err(ParseError::new(ErrorKind::MissingValue("info score"), i))
                        }
                    };
                    i += 1;
                    let bound = match ws.get(i + 1).map(|w| w.1) {
                        Some("lowerbound") => Some(Bound::Lower),
                        Some("upperbound") => Some(Bound::Upper),
                        _ => None,
                    };
                    if bound.is_some() {
                        i += 1;
                    }
                    info.score = Some(Score { value, bound });
                }
                "pv" => {
                    while i < ws.len() && ws[i].1 != "string" {
                        info.pv.push(ws[i].1.to_string());
                        i += 1;
                    }
                    continue;
                }
                "string" => {
                    info.string = Some(rest(line, ws, i).to_string());
                    break;
                }
                // Unknown fields (`currmovenumber`, `refutation`, ...) are skipped.
                _ => continue,
            }
            i += 1;
        }
        Ok(info)
    }
}

impl fmt::Display for ScoreValue {
    /// `cp 35`, `mate -3`, `mate +`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScoreValue::Cp(n) => write!(f, "cp {n}"),
            ScoreValue::Mate(n) => write!(f, "mate {n}"),
            ScoreValue::MateSign(true) => f.write_str("mate +"),
            ScoreValue::MateSign(false) => f.write_str("mate -"),
        }
    }
}

impl fmt::Display for Score {
    /// The value, with ` lowerbound` or ` upperbound` after a bound.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)?;
        match self.bound {
            None => Ok(()),
            Some(Bound::Lower) => f.write_str(" lowerbound"),
            Some(Bound::Upper) => f.write_str(" upperbound"),
        }
    }
}

impl fmt::Display for Info {
    /// The whole `info` line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let num = |f: &mut fmt::Formatter<'_>, key: &str, v: Option<u64>| match v {
            Some(v) => write!(f, " {key} {v}"),
            None => Ok(()),
        };
        num(f, "depth", self.depth.map(u64::from))?;
        num(f, "seldepth", self.seldepth.map(u64::from))?;
        num(f, "multipv", self.multipv.map(u64::from))?;
        if let Some(s) = self.score {
            write!(f, " score {s}")?;
        }
        if let Some(w) = self.wdl {
            write!(f, " wdl {} {} {}", w.win, w.draw, w.loss)?;
        }
        num(f, "nodes", self.nodes)?;
        num(f, "nps", self.nps)?;
        num(f, "time", self.time)?;
        num(f, "hashfull", self.hashfull.map(u64::from))?;
        if let Some(m) = &self.currmove {
            write!(f, " currmove {m}")?;
        }
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        match &self.string {
            None => Ok(()),
            Some(s) if s.is_empty() => f.write_str(" string"),
            Some(s) => write!(f, " string {s}"),
        }
    }
}
