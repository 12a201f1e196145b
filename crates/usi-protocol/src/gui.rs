//! Messages from the GUI to the engine.

use crate::error::{ErrorKind, ParseError};
use crate::{MAX_DEPTH, MAX_THINK_MS};
use std::fmt;
use std::str::FromStr;

/// One line a GUI sends to an engine, in USI or UCI.
///
/// Parsing splits the line at whitespace, so extra blanks are not kept: printing writes
/// single spaces. Option names and values, SFEN and FEN text and moves are words as sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GuiMessage {
    /// `usi`: switch to USI, name yourself and your options.
    Usi,
    /// `uci`: switch to UCI, name yourself and your options.
    Uci,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption name <id> [value <x>]`: the name and the value may contain spaces.
    SetOption {
        /// The option's name, as sent.
        name: String,
        /// The value, when `value` is given (possibly empty).
        value: Option<String>,
    },
    /// `usinewgame`.
    UsiNewGame,
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|sfen <SFEN>|fen <FEN> [moves ...]`.
    Position(PositionArgs),
    /// `go ...`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `gameover [win|lose|draw]`.
    GameOver(Option<GameResult>),
    /// `quit`.
    Quit,
}

/// The result `gameover` names, from the engine's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `win`.
    Win,
    /// `lose`.
    Lose,
    /// `draw`.
    Draw,
}

/// Where a `position` starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    /// `startpos`.
    Startpos,
    /// `sfen <SFEN>`: the words up to `moves`, joined by single spaces (possibly none).
    Sfen(String),
    /// `fen <FEN>`: the words up to `moves`, joined by single spaces (possibly none).
    Fen(String),
}

/// The arguments of `position`: the setup and the moves played from it, as words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionArgs {
    /// Where the game starts.
    pub setup: Setup,
    /// The moves after `moves`, as sent.
    pub moves: Vec<String>,
}

/// The clock fields of `go`, in milliseconds; `None` when absent.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Black's (sente's) remaining main time.
    pub btime: Option<u64>,
    /// White's (gote's) remaining main time.
    pub wtime: Option<u64>,
    /// The byoyomi period, the same for both sides.
    pub byoyomi: Option<u64>,
    /// Black's Fischer increment, added after each of Black's moves.
    pub binc: Option<u64>,
    /// White's Fischer increment.
    pub winc: Option<u64>,
    /// Think exactly this long.
    pub movetime: Option<u64>,
}

impl Clock {
    /// Whether the command gave any time information at all.
    pub fn is_set(&self) -> bool {
        self.btime.is_some()
            || self.wtime.is_some()
            || self.byoyomi.is_some()
            || self.binc.is_some()
            || self.winc.is_some()
            || self.movetime.is_some()
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

/// The arguments of `go`. A negative time (some GUIs send one when the clock has run out)
/// reads as 0, a clock reading too large for 64 bits as the largest; `movetime` and
/// `go mate`'s time are refused above [`MAX_THINK_MS`], `depth` and `perft` above
/// [`MAX_DEPTH`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
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
    /// `mate ...`: look for a mate instead of searching.
    pub mate: Option<MateTime>,
    /// `perft N`: count the leaves of the legal-move tree instead of searching.
    pub perft: Option<u32>,
    /// `movestogo N` (UCI): moves to the next time control.
    pub movestogo: Option<u32>,
    /// `searchmoves <move>...` (UCI): search only these moves (up to the next parameter).
    pub searchmoves: Vec<String>,
}

/// The words that start a parameter of `go`.
const GO_PARAMETERS: &[&str] = &[
    "btime",
    "wtime",
    "byoyomi",
    "binc",
    "winc",
    "movetime",
    "movestogo",
    "depth",
    "nodes",
    "perft",
    "infinite",
    "ponder",
    "mate",
    "searchmoves",
];

/// A time in milliseconds at word `at`.
fn time_value(key: &'static str, text: Option<&&str>, at: usize) -> Result<u64, ParseError> {
    let Some(&t) = text else {
        return Err(ParseError::new(ErrorKind::MissingMillis(key), at));
    };
    let digits = t.strip_prefix('-').unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::new(
            ErrorKind::BadMillis(key, t.to_string()),
            at,
        ));
    }
    if t.starts_with('-') {
        return Ok(0);
    }
    Ok(digits.parse().unwrap_or(u64::MAX))
}

/// Refuses a think time above [`MAX_THINK_MS`], naming the value.
fn check_think_time(
    key: &'static str,
    ms: u64,
    text: Option<&&str>,
    at: usize,
) -> Result<(), ParseError> {
    if ms > MAX_THINK_MS {
        let found = text.copied().unwrap_or("").to_string();
        return Err(ParseError::new(ErrorKind::ThinkTimeTooLong(key, found), at));
    }
    Ok(())
}

/// A whole number from 1 to `max` at word `at`.
fn count_value(
    key: &'static str,
    text: Option<&&str>,
    max: u64,
    at: usize,
) -> Result<u64, ParseError> {
    let Some(&t) = text else {
        return Err(ParseError::new(ErrorKind::MissingCount(key), at));
    };
    match t.parse::<u64>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(ParseError::new(
            ErrorKind::BadCount(key, max, t.to_string()),
            at,
        )),
    }
}

impl Go {
    /// Reads the words after `go`; `first` is the index of `args[0]` in the line, for the
    /// error's word.
    fn parse_args(args: &[&str], first: usize) -> Result<Go, ParseError> {
        let mut p = Go::default();
        let mut i = 0;
        while i < args.len() {
            let word = args[i];
            let next = args.get(i + 1);
            let at = first + i;
            i += 1;
            let (key, slot) = match word {
                "btime" => ("btime", Some(&mut p.clock.btime)),
                "wtime" => ("wtime", Some(&mut p.clock.wtime)),
                "byoyomi" => ("byoyomi", Some(&mut p.clock.byoyomi)),
                "binc" => ("binc", Some(&mut p.clock.binc)),
                "winc" => ("winc", Some(&mut p.clock.winc)),
                "movetime" => ("movetime", Some(&mut p.clock.movetime)),
                _ => ("", None),
            };
            if let Some(slot) = slot {
                let ms = time_value(key, next, at + 1)?;
                // A think time is refused above the longest one, as a depth above the
                // deepest is; clock readings are the GUI's and stay accepted.
                if key == "movetime" {
                    check_think_time(key, ms, next, at + 1)?;
                }
                *slot = Some(ms);
                i += 1;
                continue;
            }
            match word {
                "depth" => {
                    let d = count_value("depth", next, u64::from(MAX_DEPTH), at + 1)?;
                    p.depth = Some(u32::try_from(d).unwrap_or(MAX_DEPTH));
                    i += 1;
                }
                "nodes" => {
                    p.nodes = Some(count_value("nodes", next, u64::MAX, at + 1)?);
                    i += 1;
                }
                "perft" => {
                    let d = count_value("perft", next, u64::from(MAX_DEPTH), at + 1)?;
                    p.perft = Some(u32::try_from(d).unwrap_or(MAX_DEPTH));
                    i += 1;
                }
                "movestogo" => {
                    let n = count_value("movestogo", next, u64::from(u32::MAX), at + 1)?;
                    p.movestogo = Some(u32::try_from(n).unwrap_or(u32::MAX));
                    i += 1;
                }
                "searchmoves" => {
                    let start = i;
                    while i < args.len() && !GO_PARAMETERS.contains(&args[i]) {
                        p.searchmoves.push(args[i].to_string());
                        i += 1;
                    }
                    if i == start {
                        return Err(ParseError::new(
                            ErrorKind::MissingMoves("searchmoves"),
                            first + i,
                        ));
                    }
                }
                "infinite" => p.infinite = true,
                "ponder" => p.ponder = true,
                "mate" => match next.copied() {
                    Some("infinite") => {
                        p.mate = Some(MateTime::Infinite);
                        i += 1;
                    }
                    Some(t) if t.bytes().all(|b| b.is_ascii_digit()) => {
                        let ms = time_value("mate", next, at + 1)?;
                        check_think_time("mate", ms, next, at + 1)?;
                        p.mate = Some(MateTime::Millis(ms));
                        i += 1;
                    }
                    Some(t) if t.starts_with('-') || t.starts_with('+') => {
                        return Err(ParseError::new(
                            ErrorKind::BadMateTime(t.to_string()),
                            at + 1,
                        ));
                    }
                    _ => p.mate = Some(MateTime::Infinite),
                },
                other => {
                    return Err(ParseError::new(
                        ErrorKind::UnknownGoParameter(other.to_string()),
                        at,
                    ))
                }
            }
        }
        Ok(p)
    }
}

impl fmt::Display for Go {
    /// The whole `go` line: `go` and the fields given, in a fixed order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        let c = &self.clock;
        for (key, v) in [
            ("btime", c.btime),
            ("wtime", c.wtime),
            ("byoyomi", c.byoyomi),
            ("binc", c.binc),
            ("winc", c.winc),
            ("movetime", c.movetime),
        ] {
            if let Some(v) = v {
                write!(f, " {key} {v}")?;
            }
        }
        if let Some(n) = self.movestogo {
            write!(f, " movestogo {n}")?;
        }
        if let Some(d) = self.depth {
            write!(f, " depth {d}")?;
        }
        if let Some(n) = self.nodes {
            write!(f, " nodes {n}")?;
        }
        if let Some(d) = self.perft {
            write!(f, " perft {d}")?;
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        if self.ponder {
            f.write_str(" ponder")?;
        }
        match self.mate {
            None => {}
            Some(MateTime::Infinite) => f.write_str(" mate infinite")?,
            Some(MateTime::Millis(ms)) => write!(f, " mate {ms}")?,
        }
        if !self.searchmoves.is_empty() {
            write!(f, " searchmoves {}", self.searchmoves.join(" "))?;
        }
        Ok(())
    }
}

impl PositionArgs {
    /// Reads the words after `position` (`args[0]` is word 1 of the line).
    fn parse_args(args: &[&str]) -> Result<PositionArgs, ParseError> {
        let split = args.iter().position(|&w| w == "moves");
        let (head, moves) = match split {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let setup = match head.split_first() {
            Some((&"startpos", [])) => Setup::Startpos,
            Some((&"startpos", [extra, ..])) => {
                return Err(ParseError::new(
                    ErrorKind::StartposExtra((*extra).to_string()),
                    2,
                ))
            }
            Some((&"sfen", rest)) => Setup::Sfen(rest.join(" ")),
            Some((&"fen", rest)) => Setup::Fen(rest.join(" ")),
            _ => return Err(ParseError::new(ErrorKind::PositionForm, 1)),
        };
        Ok(PositionArgs {
            setup,
            moves: moves.iter().map(|m| (*m).to_string()).collect(),
        })
    }
}

impl fmt::Display for PositionArgs {
    /// The words after `position`: `startpos`, `sfen <SFEN>` or `fen <FEN>`, then
    /// ` moves ...` when there are moves.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.setup {
            Setup::Startpos => f.write_str("startpos")?,
            Setup::Sfen(s) if s.is_empty() => f.write_str("sfen")?,
            Setup::Sfen(s) => write!(f, "sfen {s}")?,
            Setup::Fen(s) if s.is_empty() => f.write_str("fen")?,
            Setup::Fen(s) => write!(f, "fen {s}")?,
        }
        if !self.moves.is_empty() {
            write!(f, " moves {}", self.moves.join(" "))?;
        }
        Ok(())
    }
}

/// `Ok` when `args` is empty, otherwise the error for command `cmd`.
fn no_args(cmd: &'static str, args: &[&str]) -> Result<(), ParseError> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(ParseError::new(ErrorKind::UnexpectedArguments(cmd), 1))
    }
}

impl FromStr for GuiMessage {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<GuiMessage, ParseError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else {
            return Err(ParseError::new(ErrorKind::Empty, 0));
        };
        let simple = |cmd: &'static str, m: GuiMessage| no_args(cmd, args).map(|()| m);
        match cmd {
            "usi" => simple("usi", GuiMessage::Usi),
            "uci" => simple("uci", GuiMessage::Uci),
            "isready" => simple("isready", GuiMessage::IsReady),
            "usinewgame" => simple("usinewgame", GuiMessage::UsiNewGame),
            "ucinewgame" => simple("ucinewgame", GuiMessage::UciNewGame),
            "stop" => simple("stop", GuiMessage::Stop),
            "ponderhit" => simple("ponderhit", GuiMessage::PonderHit),
            "quit" => simple("quit", GuiMessage::Quit),
            "gameover" => match args {
                [] => Ok(GuiMessage::GameOver(None)),
                ["win"] => Ok(GuiMessage::GameOver(Some(GameResult::Win))),
                ["lose"] => Ok(GuiMessage::GameOver(Some(GameResult::Lose))),
                ["draw"] => Ok(GuiMessage::GameOver(Some(GameResult::Draw))),
                _ => Err(ParseError::new(ErrorKind::GameOverResult, 1)),
            },
            "setoption" => {
                if args.first() != Some(&"name") {
                    return Err(ParseError::new(ErrorKind::SetOptionForm, 1));
                }
                let rest = &args[1..];
                let split = rest.iter().position(|&w| w == "value");
                let (name, value) = match split {
                    Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
                    None => (rest, None),
                };
                if name.is_empty() {
                    return Err(ParseError::new(ErrorKind::SetOptionNameMissing, 2));
                }
                Ok(GuiMessage::SetOption {
                    name: name.join(" "),
                    value,
                })
            }
            "position" => PositionArgs::parse_args(args).map(GuiMessage::Position),
            "go" => Go::parse_args(args, 1).map(GuiMessage::Go),
            other => Err(ParseError::new(
                ErrorKind::UnknownCommand(other.to_string()),
                0,
            )),
        }
    }
}

impl fmt::Display for GuiMessage {
    /// The line, without its line end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GuiMessage::Usi => f.write_str("usi"),
            GuiMessage::Uci => f.write_str("uci"),
            GuiMessage::IsReady => f.write_str("isready"),
            GuiMessage::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    None => Ok(()),
                    Some(v) if v.is_empty() => f.write_str(" value"),
                    Some(v) => write!(f, " value {v}"),
                }
            }
            GuiMessage::UsiNewGame => f.write_str("usinewgame"),
            GuiMessage::UciNewGame => f.write_str("ucinewgame"),
            GuiMessage::Position(p) => write!(f, "position {p}"),
            GuiMessage::Go(g) => g.fmt(f),
            GuiMessage::Stop => f.write_str("stop"),
            GuiMessage::PonderHit => f.write_str("ponderhit"),
            GuiMessage::GameOver(None) => f.write_str("gameover"),
            GuiMessage::GameOver(Some(r)) => f.write_str(match r {
                GameResult::Win => "gameover win",
                GameResult::Lose => "gameover lose",
                GameResult::Draw => "gameover draw",
            }),
            GuiMessage::Quit => f.write_str("quit"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> Result<Go, ParseError> {
        match line.parse::<GuiMessage>()? {
            GuiMessage::Go(g) => Ok(g),
            other => panic!("not a go: {other:?}"),
        }
    }

    fn err(line: &str) -> String {
        line.parse::<GuiMessage>().unwrap_err().to_string()
    }

    #[test]
    fn go_parameters() {
        let p = go("go btime 1000 wtime 2000 byoyomi 300 binc 1 winc 2").unwrap();
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
        let p = go("go depth 3 nodes 500 infinite ponder").unwrap();
        assert_eq!(
            (p.depth, p.nodes, p.infinite, p.ponder),
            (Some(3), Some(500), true, true)
        );
        assert_eq!(go("go").unwrap(), Go::default());
        assert_eq!(go("go perft 3").unwrap().perft, Some(3));
        // UCI's parameters: the moves of `searchmoves` end at the next parameter.
        let p = go("go movestogo 20 searchmoves e2e4 d2d4 depth 5").unwrap();
        assert_eq!(p.movestogo, Some(20));
        assert_eq!(p.searchmoves, ["e2e4", "d2d4"]);
        assert_eq!(p.depth, Some(5));
        assert_eq!(go("go movetime -5").unwrap().clock.movetime, Some(0));
        assert_eq!(
            go("go btime 99999999999999999999999").unwrap().clock.btime,
            Some(u64::MAX)
        );
    }

    #[test]
    fn go_mate_forms() {
        assert_eq!(go("go mate").unwrap().mate, Some(MateTime::Infinite));
        assert_eq!(
            go("go mate infinite").unwrap().mate,
            Some(MateTime::Infinite)
        );
        assert_eq!(
            go("go mate 1500").unwrap().mate,
            Some(MateTime::Millis(1500))
        );
        let p = go("go mate depth 2").unwrap();
        assert_eq!((p.mate, p.depth), (Some(MateTime::Infinite), Some(2)));
        let e = go("go mate -5").unwrap_err();
        assert_eq!(
            (e.kind.clone(), e.word),
            (ErrorKind::BadMateTime("-5".into()), 2)
        );
        assert!(e.to_string().starts_with("`go mate` needs a time"), "{e}");
    }

    #[test]
    fn think_times_above_a_week_are_refused_as_depths_above_100_are() {
        // A week is 7 * 24 * 3600 * 1000 = 604800000 ms: accepted; one more is refused.
        assert!(go("go movetime 604800000").is_ok());
        let e = go("go movetime 604800001").unwrap_err().to_string();
        assert!(e.contains("`604800001`") && e.contains("604800000"), "{e}");
        assert!(go("go mate 604800001").is_err());
        assert!(go("go depth 101").is_err());
        assert!(go("go btime 99999999999999999999999").is_ok());
    }

    #[test]
    fn bad_go_parameters_name_the_word() {
        for (bad, word) in [
            // The value's word when it is wrong or missing (the count of words then),
            // the parameter's word when it is unknown.
            ("go depth", 2),
            ("go depth 0", 2),
            ("go depth 101", 2),
            ("go nodes -1", 2),
            ("go btime", 2),
            ("go btime 1.5", 2),
            ("go wtime --3", 2),
            ("go searchmoves", 2),
            ("go searchmoves depth 2", 2),
            ("go movestogo 0", 2),
            ("go perft 0", 2),
            ("go depth 2 banana", 3),
        ] {
            let e = go(bad).unwrap_err();
            assert_eq!(e.word, word, "{bad}: {e}");
        }
        assert_eq!(err("go banana"), "`go`: unknown parameter `banana`");
        assert_eq!(
            err("go depth x"),
            "`go depth` needs a whole number from 1 to 100, found `x`"
        );
        assert!(!err("go \u{1b}[31mred").contains('\u{1b}'));
    }

    #[test]
    fn commands_and_their_arguments() {
        assert_eq!("  isready ".parse(), Ok(GuiMessage::IsReady));
        assert_eq!(err("isready now"), "`isready` takes no arguments");
        assert_eq!(err("banana"), "unknown command `banana`");
        assert_eq!("".parse::<GuiMessage>().unwrap_err().kind, ErrorKind::Empty);
        assert_eq!("gameover".parse(), Ok(GuiMessage::GameOver(None)));
        assert_eq!(
            "gameover draw".parse(),
            Ok(GuiMessage::GameOver(Some(GameResult::Draw)))
        );
        assert_eq!(
            err("gameover tie"),
            "`gameover` takes one of win, lose, draw"
        );
    }

    #[test]
    fn setoption_forms() {
        let so = |n: &str, v: Option<&str>| GuiMessage::SetOption {
            name: n.into(),
            value: v.map(str::to_string),
        };
        assert_eq!(
            "setoption name USI_Hash value 64".parse(),
            Ok(so("USI_Hash", Some("64")))
        );
        assert_eq!(
            "setoption name Some Option value a b".parse(),
            Ok(so("Some Option", Some("a b")))
        );
        assert_eq!(
            "setoption name Clear Hash".parse(),
            Ok(so("Clear Hash", None))
        );
        assert_eq!("setoption name X value".parse(), Ok(so("X", Some(""))));
        assert!("setoption".parse::<GuiMessage>().is_err());
        assert!("setoption USI_Hash 64".parse::<GuiMessage>().is_err());
        assert_eq!(
            err("setoption name value 3"),
            "`setoption`: the option name is missing"
        );
    }

    #[test]
    fn position_forms() {
        let p = |setup: Setup, moves: &[&str]| {
            Ok(GuiMessage::Position(PositionArgs {
                setup,
                moves: moves.iter().map(|m| m.to_string()).collect(),
            }))
        };
        assert_eq!("position startpos".parse(), p(Setup::Startpos, &[]));
        assert_eq!(
            "position startpos moves 1e1d+ 5a4b".parse(),
            p(Setup::Startpos, &["1e1d+", "5a4b"])
        );
        assert_eq!(
            "position sfen k4/5/5/5/4K b T 1 moves T*3c".parse(),
            p(Setup::Sfen("k4/5/5/5/4K b T 1".into()), &["T*3c"])
        );
        assert_eq!(
            "position fen p1ks+l/5/5/5/+LSK+NP[N] w - - 0 1".parse(),
            p(Setup::Fen("p1ks+l/5/5/5/+LSK+NP[N] w - - 0 1".into()), &[])
        );
        // An SFEN left out is the notation's to reject.
        assert_eq!("position sfen".parse(), p(Setup::Sfen(String::new()), &[]));
        for bad in ["position", "position banana", "position moves 1e1d"] {
            let e = bad.parse::<GuiMessage>().unwrap_err();
            assert_eq!((e.kind, e.word), (ErrorKind::PositionForm, 1), "{bad}");
        }
        let e = "position startpos 1e1d".parse::<GuiMessage>().unwrap_err();
        assert_eq!(e.word, 2);
        assert!(
            e.to_string()
                .contains("no position until the next valid one"),
            "{e}"
        );
    }

    #[test]
    fn printing_writes_single_spaces() {
        for line in [
            "usi",
            "uci",
            "usinewgame",
            "ucinewgame",
            "setoption name Move Overhead value 30",
            "position startpos moves 1e1d+",
            "position sfen k4/5/5/5/4K b T 1",
            "go btime 1000 wtime 1000 byoyomi 100 depth 3 ponder",
            "go mate infinite",
            "gameover lose",
        ] {
            assert_eq!(line.parse::<GuiMessage>().unwrap().to_string(), line);
        }
        assert_eq!(
            "go  depth\t3".parse::<GuiMessage>().unwrap().to_string(),
            "go depth 3"
        );
    }
}
