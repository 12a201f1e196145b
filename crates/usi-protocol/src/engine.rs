//! Messages from the engine to the GUI.

use crate::error::{ErrorKind, ParseError};
use crate::info::Info;
use crate::words::{number, rest, words};
use std::fmt;
use std::str::FromStr;

/// One line an engine sends to a GUI, in USI or UCI.
///
/// Reading is lenient where the protocol says to be: an `info` line's unknown fields are
/// skipped, and so are words after a `bestmove`'s move other than `ponder <move>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineMessage {
    /// `id name <text>`.
    IdName(String),
    /// `id author <text>`.
    IdAuthor(String),
    /// `option name <id> type ...`: an option the engine offers.
    Option(OptionDecl),
    /// `usiok`.
    UsiOk,
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `info ...`.
    Info(Info),
    /// `bestmove <move>|resign|win|(none) [ponder <move>]`.
    BestMove {
        /// The answer.
        best: BestMove,
        /// The move to ponder on.
        ponder: Option<String>,
    },
    /// `checkmate ...`: the answer to `go mate`.
    Checkmate(Checkmate),
    /// `<move>: <count>`: one root move of the answer to `go perft`, as the reference
    /// engine prints it.
    PerftMove {
        /// The move, as the engine wrote it.
        mv: String,
        /// The leaves below it.
        nodes: u64,
    },
    /// `Nodes searched: <count>`: the total of the answer to `go perft`.
    PerftTotal(u64),
}

/// The answer of `bestmove`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// A move, as the engine wrote it.
    Move(String),
    /// `resign`.
    Resign,
    /// `win`: the engine declares a win (USI).
    Win,
    /// `(none)`: no move (UCI, the game is over).
    NoMove,
}

/// The answer of `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checkmate {
    /// `checkmate <moves>`: a mating line.
    Mate(Vec<String>),
    /// `checkmate nomate`.
    NoMate,
    /// `checkmate timeout`.
    Timeout,
    /// `checkmate notimplemented`.
    NotImplemented,
}

/// An option the engine offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    /// The name, possibly with spaces (UCI).
    pub name: String,
    /// The type, with its default and range.
    pub kind: OptionType,
}

/// An option's type, default and range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionType {
    /// `check default true|false`.
    Check(bool),
    /// `spin default D min A max B`.
    Spin {
        /// The default.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// `combo default D var A var B ...`.
    Combo {
        /// The default.
        default: String,
        /// The choices.
        vars: Vec<String>,
    },
    /// `button`.
    Button,
    /// `string default D`.
    String(String),
    /// `filename default D`.
    Filename(String),
}

impl OptionDecl {
    /// Reads the words of an `option` line (word 0 is `option`).
    fn parse_words(line: &str, ws: &[(usize, &str)]) -> Result<OptionDecl, ParseError> {
        let form = |i| ParseError::new(ErrorKind::OptionForm, i);
        if ws.get(1).map(|w| w.1) != Some("name") {
            return Err(form(1));
        }
        let Some(t) = ws.iter().skip(2).position(|w| w.1 == "type").map(|p| p + 2) else {
            return Err(form(ws.len()));
        };
        if t == 2 {
            return Err(form(2));
        }
        let name = line[ws[2].0..ws[t - 1].0 + ws[t - 1].1.len()].to_string();
        // The value after `key` among the words after the type.
        let after = |key: &str| {
            ws[t + 2..]
                .iter()
                .position(|w| w.1 == key)
                .map(|p| p + t + 3)
        };
        let default_text =
            || after("default").map_or(String::new(), |i| rest(line, ws, i).to_string());
        let spin = |key: &'static str| -> Result<i64, ParseError> {
            match after(key) {
                Some(i) => number(ws, i, key),
                None => Err(ParseError::new(ErrorKind::MissingValue(key), ws.len())),
            }
        };
        let kind = match ws.get(t + 1).map(|w| w.1) {
            Some("check") => match after("default").and_then(|i| ws.get(i)).map(|w| w.1) {
                Some("true") => OptionType::Check(true),
                Some("false") => OptionType::Check(false),
                _ => {
                    return Err(ParseError::new(
                        ErrorKind::MissingValue("default"),
                        ws.len(),
                    ))
                }
            },
            Some("spin") => OptionType::Spin {
                default: spin("default")?,
                min: spin("min")?,
                max: spin("max")?,
            },
            Some("combo") => {
                let mut default = String::new();
                let mut vars = Vec::new();
                let mut i = t + 2;
                while i < ws.len() {
                    match (ws[i].1, ws.get(i + 1)) {
                        // An empty default (`combo default  var a ...`).
                        ("default", Some(w)) if w.1 == "var" => {
                            i += 1;
                            continue;
                        }
                        ("default", Some(w)) => default = w.1.to_string(),
                        ("var", Some(w)) => vars.push(w.1.to_string()),
                        _ => return Err(form(i)),
                    }
                    i += 2;
                }
                OptionType::Combo { default, vars }
            }
            Some("button") => OptionType::Button,
            Some("string") => OptionType::String(default_text()),
            Some("filename") => OptionType::Filename(default_text()),
            _ => return Err(form(t + 1)),
        };
        Ok(OptionDecl { name, kind })
    }
}

impl fmt::Display for OptionDecl {
    /// The whole `option` line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionType::Check(d) => write!(f, "check default {d}"),
            OptionType::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionType::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                for v in vars {
                    write!(f, " var {v}")?;
                }
                Ok(())
            }
            OptionType::Button => f.write_str("button"),
            OptionType::String(d) => write!(f, "string default {d}"),
            OptionType::Filename(d) => write!(f, "filename default {d}"),
        }
    }
}

impl fmt::Display for BestMove {
    /// The move, `resign`, `win` or `(none)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BestMove::Move(m) => f.write_str(m),
            BestMove::Resign => f.write_str("resign"),
            BestMove::Win => f.write_str("win"),
            BestMove::NoMove => f.write_str("(none)"),
        }
    }
}

impl FromStr for EngineMessage {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<EngineMessage, ParseError> {
        let ws = words(line);
        let Some(&(_, cmd)) = ws.first() else {
            return Err(ParseError::new(ErrorKind::Empty, 0));
        };
        let only = |m: EngineMessage| {
            if ws.len() == 1 {
                Ok(m)
            } else {
                Err(ParseError::new(
                    ErrorKind::UnexpectedArguments(match m {
                        EngineMessage::UsiOk => "usiok",
                        EngineMessage::UciOk => "uciok",
                        _ => "readyok",
                    }),
                    1,
                ))
            }
        };
        match cmd {
            "usiok" => only(EngineMessage::UsiOk),
            "uciok" => only(EngineMessage::UciOk),
            "readyok" => only(EngineMessage::ReadyOk),
            "id" => match ws.get(1).map(|w| w.1) {
                Some("name") => Ok(EngineMessage::IdName(rest(line, &ws, 2).to_string())),
                Some("author") => Ok(EngineMessage::IdAuthor(rest(line, &ws, 2).to_string())),
                Some(w) => Err(ParseError::new(ErrorKind::BadValue("id", w.to_string()), 1)),
                None => Err(ParseError::new(ErrorKind::MissingValue("id"), 1)),
            },
            "option" => OptionDecl::parse_words(line, &ws).map(EngineMessage::Option),
            "info" => Info::parse_words(line, &ws).map(EngineMessage::Info),
            "bestmove" => {
                let best = match ws.get(1).map(|w| w.1) {
                    None => return Err(ParseError::new(ErrorKind::MissingValue("bestmove"), 1)),
                    Some("resign") => BestMove::Resign,
                    Some("win") => BestMove::Win,
                    Some("(none)") => BestMove::NoMove,
                    Some(m) => BestMove::Move(m.to_string()),
                };
                let ponder = match (ws.get(2).map(|w| w.1), ws.get(3)) {
                    (Some("ponder"), Some(w)) => Some(w.1.to_string()),
                    _ => None,
                };
                Ok(EngineMessage::BestMove { best, ponder })
            }
            "checkmate" => match ws.get(1).map(|w| w.1) {
                None => Err(ParseError::new(ErrorKind::MissingValue("checkmate"), 1)),
                Some("nomate") => Ok(EngineMessage::Checkmate(Checkmate::NoMate)),
                Some("timeout") => Ok(EngineMessage::Checkmate(Checkmate::Timeout)),
                Some("notimplemented") => Ok(EngineMessage::Checkmate(Checkmate::NotImplemented)),
                Some(_) => Ok(EngineMessage::Checkmate(Checkmate::Mate(
                    ws[1..].iter().map(|w| w.1.to_string()).collect(),
                ))),
            },
            "Nodes" if ws.get(1).map(|w| w.1) == Some("searched:") => {
                if ws.len() > 3 {
                    return Err(ParseError::new(
                        ErrorKind::BadValue("Nodes searched:", ws[3].1.to_string()),
                        3,
                    ));
                }
                number(&ws, 2, "Nodes searched:").map(EngineMessage::PerftTotal)
            }
            _ => {
                // `<move>: <count>`: the move is one word ending in `:` or followed by one.
                let trimmed = line.trim();
                if let Some((mv, n)) = trimmed.split_once(':') {
                    let (mv, n) = (mv.trim(), n.trim());
                    if !mv.is_empty() && !mv.contains(char::is_whitespace) {
                        return n
                            .parse()
                            .map(|nodes| EngineMessage::PerftMove {
                                mv: mv.to_string(),
                                nodes,
                            })
                            .map_err(|_| {
                                ParseError::new(
                                    ErrorKind::BadValue("perft count", n.to_string()),
                                    1,
                                )
                            });
                    }
                }
                Err(ParseError::new(
                    ErrorKind::UnknownCommand(cmd.to_string()),
                    0,
                ))
            }
        }
    }
}

impl fmt::Display for EngineMessage {
    /// The line, without its line end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineMessage::IdName(n) => write!(f, "id name {n}"),
            EngineMessage::IdAuthor(a) => write!(f, "id author {a}"),
            EngineMessage::Option(o) => o.fmt(f),
            EngineMessage::UsiOk => f.write_str("usiok"),
            EngineMessage::UciOk => f.write_str("uciok"),
            EngineMessage::ReadyOk => f.write_str("readyok"),
            EngineMessage::Info(i) => i.fmt(f),
            EngineMessage::BestMove { best, ponder } => {
                write!(f, "bestmove {best}")?;
                match ponder {
                    Some(p) => write!(f, " ponder {p}"),
                    None => Ok(()),
                }
            }
            EngineMessage::Checkmate(c) => match c {
                Checkmate::Mate(pv) => write!(f, "checkmate {}", pv.join(" ")),
                Checkmate::NoMate => f.write_str("checkmate nomate"),
                Checkmate::Timeout => f.write_str("checkmate timeout"),
                Checkmate::NotImplemented => f.write_str("checkmate notimplemented"),
            },
            EngineMessage::PerftMove { mv, nodes } => write!(f, "{mv}: {nodes}"),
            EngineMessage::PerftTotal(n) => write!(f, "Nodes searched: {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::info::{Bound, Score, ScoreValue, Wdl};

    fn parse(line: &str) -> EngineMessage {
        line.parse().unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    #[test]
    fn info_lines_as_kshogi_and_the_reference_engine_write_them() {
        // Fields written by hand from the line.
        let EngineMessage::Info(i) = parse(
            "info depth 7 seldepth 9 multipv 1 score cp -35 wdl 100 200 700 nodes 100 nps 5000 \
             time 20 hashfull 3 pv 1e1d+ 5a4b",
        ) else {
            panic!()
        };
        assert_eq!(
            (i.depth, i.seldepth, i.multipv),
            (Some(7), Some(9), Some(1))
        );
        assert_eq!(
            i.score,
            Some(Score {
                value: ScoreValue::Cp(-35),
                bound: None
            })
        );
        assert_eq!(
            i.wdl,
            Some(Wdl {
                win: 100,
                draw: 200,
                loss: 700
            })
        );
        assert_eq!(
            (i.nodes, i.nps, i.time, i.hashfull),
            (Some(100), Some(5000), Some(20), Some(3))
        );
        assert_eq!(i.pv, ["1e1d+", "5a4b"]);
        let EngineMessage::Info(i) =
            parse("info depth 3 currmovenumber 2 score mate -2 upperbound string  two  spaces")
        else {
            panic!()
        };
        assert_eq!(
            i.score,
            Some(Score {
                value: ScoreValue::Mate(-2),
                bound: Some(Bound::Upper)
            })
        );
        assert_eq!(i.string.as_deref(), Some("two  spaces"));
        let EngineMessage::Info(i) = parse("info score mate + pv 1a1b") else {
            panic!()
        };
        assert_eq!(i.score.map(|s| s.value), Some(ScoreValue::MateSign(true)));
        let e = "info depth x".parse::<EngineMessage>().unwrap_err();
        assert_eq!(
            (e.kind, e.word),
            (ErrorKind::BadValue("info depth", "x".into()), 2)
        );
        assert!("info score".parse::<EngineMessage>().is_err());
    }

    #[test]
    fn answers() {
        assert_eq!(
            parse("bestmove 1e1d+ ponder 5a4b"),
            EngineMessage::BestMove {
                best: BestMove::Move("1e1d+".into()),
                ponder: Some("5a4b".into())
            }
        );
        assert_eq!(
            parse("bestmove (none)"),
            EngineMessage::BestMove {
                best: BestMove::NoMove,
                ponder: None
            }
        );
        assert!("bestmove".parse::<EngineMessage>().is_err());
        assert_eq!(
            parse("checkmate nomate"),
            EngineMessage::Checkmate(Checkmate::NoMate)
        );
        assert_eq!(
            parse("checkmate G*2b 1a2b"),
            EngineMessage::Checkmate(Checkmate::Mate(vec!["G*2b".into(), "1a2b".into()]))
        );
        assert_eq!(
            parse("1e1d+: 14"),
            EngineMessage::PerftMove {
                mv: "1e1d+".into(),
                nodes: 14
            }
        );
        assert_eq!(
            parse("+N@c3: 1"),
            EngineMessage::PerftMove {
                mv: "+N@c3".into(),
                nodes: 1
            }
        );
        assert_eq!(parse("Nodes searched: 137"), EngineMessage::PerftTotal(137));
        assert!("1e1d+: x".parse::<EngineMessage>().is_err());
        assert!("hello world".parse::<EngineMessage>().is_err());
        assert!("usiok now".parse::<EngineMessage>().is_err());
    }

    #[test]
    fn handshake_lines() {
        assert_eq!(
            parse("id name kshogi 0.1.0"),
            EngineMessage::IdName("kshogi 0.1.0".into())
        );
        assert_eq!(
            parse("option name Move Overhead type spin default 10 min 0 max 5000"),
            EngineMessage::Option(OptionDecl {
                name: "Move Overhead".into(),
                kind: OptionType::Spin {
                    default: 10,
                    min: 0,
                    max: 5000
                }
            })
        );
        assert_eq!(
            parse("option name Dialect type combo default fsf var canonical var fsf"),
            EngineMessage::Option(OptionDecl {
                name: "Dialect".into(),
                kind: OptionType::Combo {
                    default: "fsf".into(),
                    vars: vec!["canonical".into(), "fsf".into()]
                }
            })
        );
        // A combo without a default, as the option line of an engine that has none prints.
        let empty = parse("option name Style type combo default  var Solid var Risky");
        assert_eq!(
            empty,
            EngineMessage::Option(OptionDecl {
                name: "Style".into(),
                kind: OptionType::Combo {
                    default: String::new(),
                    vars: vec!["Solid".into(), "Risky".into()]
                }
            })
        );
        assert_eq!(parse(&empty.to_string()), empty);
        assert_eq!(
            parse("option name VariantPath type string default <empty>"),
            EngineMessage::Option(OptionDecl {
                name: "VariantPath".into(),
                kind: OptionType::String("<empty>".into())
            })
        );
        assert_eq!(
            parse("option name Clear Hash type button"),
            EngineMessage::Option(OptionDecl {
                name: "Clear Hash".into(),
                kind: OptionType::Button
            })
        );
        for bad in [
            "option",
            "option name",
            "option name X",
            "option name type check default true",
            "option name X type dial",
            "option name X type spin default 1 min 0",
        ] {
            assert!(bad.parse::<EngineMessage>().is_err(), "{bad}");
        }
    }
}
