//! `kshogi usi`: the USI protocol on standard input and output.
//!
//! The main thread reads commands; `go` starts the search on a thread of its own, which
//! prints the `info` lines and the one `bestmove` (or `checkmate`) answer of that `go`.
//! So `stop` and `isready` are answered while a search runs. Output lines are written
//! whole, under one lock, and flushed at once.
//!
//! A malformed line, an unknown command or a wrong `position` gets one line
//! `info string error: <what>` and changes nothing. End of input works as `quit`.

use crate::engine_text::{self, choose_move};
use crate::error::CliError;
use crate::time_manager;
use crate::usi_parse::{
    parse_go, parse_setoption, shorten, spin_value, GoParams, Input, LineReader, MateTime, MAX_LINE,
};
use crate::variant_select;
use clap::Args;
use kshogi_core::{Game, Position};
use kshogi_engine::mate::{self, MateResult};
use kshogi_engine::{Engine, Evaluate, Info, Limits};
use kshogi_notation::{move_to_usi, parse_game, VariantKind};
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;
use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// More help for `kshogi usi`, after the options.
pub const USI_HELP: &str = "\
Speaks USI on standard input and output, for GUIs and match runners. Commands: usi,
isready, usinewgame, setoption, position startpos|sfen <SFEN> [moves ...], go (btime
wtime byoyomi binc winc movetime depth nodes infinite ponder mate), stop, ponderhit,
gameover, quit. Options: USI_Variant (kyoto, micro, kinzoku; `kyotoshogi` and the like
also accepted), USI_Hash (MiB, 1-4096, default 16), MultiPV (1-32, default 1).

A malformed line gets `info string error: <what>` and changes nothing; lines longer than
64 KiB are rejected the same way. End of input ends the program like `quit`.
See docs/analysis.md.";

/// The default `USI_Hash`, in MiB.
pub const DEFAULT_HASH_MB: usize = 16;

/// The largest `USI_Hash`, in MiB.
pub const MAX_HASH_MB: u64 = 4096;

/// The largest `MultiPV`.
pub const MAX_MULTIPV: u64 = 32;

/// The arguments of `kshogi usi`.
#[derive(Debug, Args)]
pub struct UsiArgs {
    /// The variant to start with; `setoption name USI_Variant` changes it [default: kyoto]
    #[arg(long, value_name = "V", value_parser = variant_select::parse_variant_name)]
    pub variant: Option<VariantKind>,
}

/// Runs `kshogi usi` on standard input and output until `quit` or end of input.
pub fn run(args: &UsiArgs) -> Result<String, CliError> {
    let out: Out = Arc::new(Mutex::new(std::io::stdout()));
    let stdin = std::io::stdin();
    serve(
        stdin.lock(),
        &out,
        args.variant.unwrap_or(VariantKind::Kyoto),
    );
    Ok(String::new())
}

/// Where protocol output goes; shared by the reading thread and the search thread.
pub type Out = Arc<Mutex<dyn Write + Send>>;

/// Writes one line (a line end is added) and flushes. Write errors are ignored: a GUI that
/// went away also closes our input, which ends the session.
pub fn send(out: &Out, line: &str) {
    let mut w = out.lock().unwrap_or_else(PoisonError::into_inner);
    let _ = w.write_all(line.as_bytes());
    let _ = w.write_all(b"\n");
    let _ = w.flush();
}

/// The longest error message sent, in characters; longer ones are cut and end in `...`.
const MAX_ERROR_CHARS: usize = 300;

/// Writes `info string error: <message>` on one line: control characters (which may come
/// from the GUI's text quoted in the message) become `?`, and a long message is cut.
fn send_error(out: &Out, message: &str) {
    let mut text: String = message
        .chars()
        .take(MAX_ERROR_CHARS)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if message.chars().nth(MAX_ERROR_CHARS).is_some() {
        text.push_str("...");
    }
    send(out, &format!("info string error: {text}"));
}

/// Settings that outlive a change of variant.
#[derive(Clone, Debug)]
struct Settings {
    /// The variant at start-up (the `USI_Variant` default shown by `usi`).
    initial: VariantKind,
    /// The current variant.
    variant: VariantKind,
    /// `USI_Hash`.
    hash_mb: usize,
    /// `MultiPV`.
    multipv: usize,
}

/// What ends a [`Session`].
enum Next {
    /// `quit` or end of input.
    Quit,
    /// `setoption name USI_Variant` named another variant.
    Switch(VariantKind),
}

/// Runs the protocol on `input`, writing to `out`, until `quit` or end of input. Every
/// search started is finished (and has printed its answer) when this returns.
pub fn serve<R: BufRead>(input: R, out: &Out, variant: VariantKind) {
    let mut reader = LineReader::new(input);
    let mut settings = Settings {
        initial: variant,
        variant,
        hash_mb: DEFAULT_HASH_MB,
        multipv: 1,
    };
    loop {
        let next = match settings.variant {
            VariantKind::Kyoto => {
                Session::<Kyoto>::new(out, &settings).run(&mut reader, &mut settings)
            }
            VariantKind::Micro => {
                Session::<Micro>::new(out, &settings).run(&mut reader, &mut settings)
            }
            VariantKind::Kinzoku => {
                Session::<Kinzoku>::new(out, &settings).run(&mut reader, &mut settings)
            }
        };
        match next {
            Next::Quit => return,
            Next::Switch(kind) => settings.variant = kind,
        }
    }
}

/// A search running on its own thread.
struct Running<V: Evaluate> {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Engine<V>>,
    /// The answer to print if the thread dies without answering (a bug), so that every
    /// `go` still gets one answer.
    last_resort: String,
}

/// The protocol state for one variant: the position, the engine (away on the search
/// thread while a search runs) and the running search.
struct Session<'o, V: Evaluate> {
    out: &'o Out,
    game: Game<V>,
    engine: Option<Engine<V>>,
    running: Option<Running<V>>,
}

/// What a `go` asks the search thread to do.
#[derive(Clone, Debug)]
enum Job {
    /// Search and answer `bestmove`.
    Search {
        limits: Limits,
        multipv: usize,
        /// `go infinite`: answer only after `stop`.
        infinite: bool,
    },
    /// Run the mate solver and answer `checkmate ...`.
    Mate { time: Option<Duration> },
}

impl<'o, V: Evaluate> Session<'o, V> {
    fn new(out: &'o Out, settings: &Settings) -> Session<'o, V> {
        Session {
            out,
            game: Game::new(Position::start()),
            engine: Some(Engine::new(settings.hash_mb)),
            running: None,
        }
    }

    fn error(&self, message: &str) {
        send_error(self.out, message);
    }

    /// Reads and runs commands until the session ends; the search is finished first.
    fn run<R: BufRead>(mut self, reader: &mut LineReader<R>, settings: &mut Settings) -> Next {
        loop {
            let next = match reader.next_line() {
                Input::Eof => Some(Next::Quit),
                Input::TooLong(n) => {
                    self.error(&format!(
                        "line of {n} bytes ignored: the limit is {MAX_LINE} bytes"
                    ));
                    None
                }
                Input::NotUtf8 => {
                    self.error("line ignored: it is not UTF-8 text");
                    None
                }
                Input::Line(line) => self.command(&line, settings),
            };
            if let Some(next) = next {
                self.finish_search();
                return next;
            }
        }
    }

    /// Runs one command line.
    fn command(&mut self, line: &str, settings: &mut Settings) -> Option<Next> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (&cmd, args) = words.split_first()?;
        let out = self.out;
        let no_args = |name: &str| {
            if args.is_empty() {
                true
            } else {
                send_error(out, &format!("`{name}` takes no arguments"));
                false
            }
        };
        match cmd {
            "usi" => {
                if no_args(cmd) {
                    self.usi(settings);
                }
            }
            "isready" => {
                if no_args(cmd) {
                    send(self.out, "readyok");
                }
            }
            "usinewgame" => {
                if no_args(cmd) {
                    self.finish_search();
                    if let Some(e) = self.engine.as_mut() {
                        e.clear();
                    }
                }
            }
            "setoption" => return self.setoption(args, settings),
            "position" => self.position(line, args),
            "go" => self.go(args, settings),
            "stop" => {
                if no_args(cmd) {
                    self.finish_search();
                }
            }
            // The search already runs with the time limits of its `go`.
            "ponderhit" => {
                let _ = no_args(cmd);
            }
            "gameover" => match args {
                [] | ["win" | "lose" | "draw"] => self.finish_search(),
                _ => self.error("`gameover` takes one of win, lose, draw"),
            },
            "quit" => {
                if no_args(cmd) {
                    return Some(Next::Quit);
                }
            }
            other => self.error(&format!("unknown command `{}`", shorten(other))),
        }
        None
    }

    fn usi(&self, settings: &Settings) {
        let mut s = String::new();
        let _ = writeln!(s, "id name kshogi {}", env!("CARGO_PKG_VERSION"));
        let _ = writeln!(s, "id author The kshogi developers");
        let _ = write!(
            s,
            "option name USI_Variant type combo default {}",
            settings.initial.name()
        );
        for v in VariantKind::ALL {
            let _ = write!(s, " var {}", v.name());
        }
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "option name USI_Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        );
        let _ = writeln!(
            s,
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
        );
        s.push_str("usiok");
        send(self.out, &s);
    }

    fn setoption(&mut self, args: &[&str], settings: &mut Settings) -> Option<Next> {
        let (name, value) = match parse_setoption(args) {
            Ok(x) => x,
            Err(e) => {
                self.error(&e);
                return None;
            }
        };
        let value = value.as_deref();
        match name.to_ascii_lowercase().as_str() {
            "usi_variant" => match value.and_then(|v| VariantKind::from_name(v.trim())) {
                Some(kind) if kind == settings.variant => {}
                Some(kind) => return Some(Next::Switch(kind)),
                None => self.error(&format!(
                    "option USI_Variant takes kyoto, micro or kinzoku, found `{}`",
                    shorten(value.unwrap_or(""))
                )),
            },
            "usi_hash" => match spin_value("USI_Hash", value, 1, MAX_HASH_MB) {
                Ok(mb) => {
                    let mb = usize::try_from(mb).unwrap_or(DEFAULT_HASH_MB);
                    if mb != settings.hash_mb {
                        settings.hash_mb = mb;
                        self.finish_search();
                        if let Some(e) = self.engine.as_mut() {
                            e.set_hash(mb);
                        }
                    }
                }
                Err(e) => self.error(&e),
            },
            "multipv" => match spin_value("MultiPV", value, 1, MAX_MULTIPV) {
                Ok(k) => settings.multipv = usize::try_from(k).unwrap_or(1),
                Err(e) => self.error(&e),
            },
            // GUIs send it whether or not it is offered; pondering is not supported.
            "usi_ponder" => match value {
                Some("true" | "false") => {}
                _ => self.error("option USI_Ponder takes true or false"),
            },
            _ => self.error(&format!("unknown option `{}`", shorten(&name))),
        }
        None
    }

    /// `position startpos|sfen ... [moves ...]`: replaces the game, or reports the error
    /// and keeps it.
    fn position(&mut self, line: &str, args: &[&str]) {
        if !matches!(args.first(), Some(&"startpos" | &"sfen")) {
            self.error("`position` must be followed by `startpos` or `sfen <SFEN>`");
            return;
        }
        // Blank out the command word, so that the columns in error messages count from the
        // start of the line.
        let Some(at) = line.find("position") else {
            return;
        };
        let end = at + "position".len();
        let text: String = line[..end]
            .chars()
            .map(|_| ' ')
            .chain(line[end..].chars())
            .collect();
        match parse_game::<V>(&text) {
            Ok(game) => self.game = game,
            Err(e) => self.error(&format!("position not changed: {e}")),
        }
    }

    /// `go ...`: starts the search thread (after finishing the previous search, so that
    /// every `go` gets its own answer).
    fn go(&mut self, args: &[&str], settings: &Settings) {
        let params = match parse_go(args) {
            Ok(p) => p,
            Err(e) => {
                self.error(&e);
                return;
            }
        };
        self.finish_search();
        let job = job_for(&params, &self.game, settings.multipv);
        let last_resort = match job {
            Job::Mate { .. } => "checkmate timeout".to_string(),
            Job::Search { .. } => format!("bestmove {}", fallback_answer(&self.game)),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let mut engine = self
            .engine
            .take()
            .unwrap_or_else(|| Engine::new(settings.hash_mb));
        let (game, out, flag, hash_mb) = (
            self.game.clone(),
            Arc::clone(self.out),
            Arc::clone(&stop),
            settings.hash_mb,
        );
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                run_job(&mut engine, &game, &job, &flag, &out, hash_mb);
                engine
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    stop,
                    handle,
                    last_resort,
                })
            }
            Err(e) => {
                self.error(&format!("cannot start the search: {e}"));
                send(self.out, &last_resort);
            }
        }
    }

    /// Stops the running search, if any, and waits for it (it prints its answer).
    fn finish_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::SeqCst);
            // The thread catches the engine's panics and returns its engine. If it died
            // all the same, it has not answered: answer for it; a new engine is made on
            // the next `go`.
            self.engine = r.handle.join().ok();
            if self.engine.is_none() {
                send(self.out, &r.last_resort);
            }
        }
    }
}

/// The job a `go` asks for, with the time allotted from the clock of the side to move.
fn job_for<V: Evaluate>(params: &GoParams, game: &Game<V>, multipv: usize) -> Job {
    if let Some(m) = params.mate {
        return Job::Mate {
            time: match m {
                MateTime::Infinite => None,
                MateTime::Millis(ms) => {
                    Some(Duration::from_millis(ms.min(time_manager::MAX_THINK_MS)))
                }
            },
        };
    }
    let side = game.position().side_to_move();
    let limits = Limits {
        depth: params.depth,
        nodes: params.nodes,
        time: time_manager::allocate(&params.clock, side),
        mate: None,
        infinite: params.infinite,
    };
    Job::Search {
        limits,
        multipv,
        infinite: params.infinite,
    }
}

/// Raises a stop flag after a time, unless dropped first.
struct Watchdog {
    _cancel: mpsc::Sender<()>,
}

impl Watchdog {
    fn start(after: Duration, stop: Arc<AtomicBool>) -> Watchdog {
        let (tx, rx) = mpsc::channel::<()>();
        let _ = std::thread::Builder::new()
            .name("watchdog".into())
            .spawn(move || {
                if let Err(RecvTimeoutError::Timeout) = rx.recv_timeout(after) {
                    stop.store(true, Ordering::SeqCst);
                }
            });
        Watchdog { _cancel: tx }
    }
}

/// The answer when the game is over or no search result is usable: `win` when the side to
/// move has already won, `resign` when it has lost, drawn, or has no move; otherwise the
/// first legal move.
fn fallback_answer<V: Evaluate>(game: &Game<V>) -> String {
    if let Some(answer) = game_over_answer(game) {
        return answer.to_string();
    }
    match choose_move(game, &[]) {
        Some(mv) => move_to_usi::<V>(mv),
        None => "resign".to_string(),
    }
}

/// `win` or `resign` when the game is already over.
fn game_over_answer<V: Evaluate>(game: &Game<V>) -> Option<&'static str> {
    let outcome = game.outcome()?;
    Some(
        if outcome.winner() == Some(game.position().side_to_move()) {
            "win"
        } else {
            "resign"
        },
    )
}

/// One `info` line for a search report.
fn info_line<V: Evaluate>(pos: &Position<V>, info: &Info) -> String {
    let ms = engine_text::millis(info.time);
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth,
        info.multipv,
        engine_text::score_usi(info.score),
        info.nodes,
        engine_text::nodes_per_second(info.nodes, info.time),
        ms,
        info.hashfull
    );
    let pv = engine_text::legal_prefix(pos, &info.pv);
    if !pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&engine_text::pv_usi::<V>(&pv).join(" "));
    }
    s
}

/// The body of the search thread: runs the job and prints its answer.
fn run_job<V: Evaluate>(
    engine: &mut Engine<V>,
    game: &Game<V>,
    job: &Job,
    stop: &Arc<AtomicBool>,
    out: &Out,
    hash_mb: usize,
) {
    match job {
        Job::Mate { time } => {
            let _dog = time.map(|t| Watchdog::start(t, Arc::clone(stop)));
            let pos = game.position();
            let result = if game.outcome().is_some() {
                MateResult::NoMate
            } else {
                catch_unwind(AssertUnwindSafe(|| mate::solve(pos, u64::MAX, stop)))
                    .unwrap_or(MateResult::Unknown)
            };
            let answer = match result {
                MateResult::Mate { pv, .. } => {
                    let pv = engine_text::legal_prefix(pos, &pv);
                    if pv.is_empty() {
                        "checkmate timeout".to_string()
                    } else {
                        format!("checkmate {}", engine_text::pv_usi::<V>(&pv).join(" "))
                    }
                }
                MateResult::NoMate => "checkmate nomate".to_string(),
                MateResult::Unknown => "checkmate timeout".to_string(),
            };
            send(out, &answer);
        }
        Job::Search {
            limits,
            multipv,
            infinite,
        } => {
            let dog = match (limits.time, infinite) {
                (Some(t), false) => Some(Watchdog::start(t, Arc::clone(stop))),
                _ => None,
            };
            let answer = match game_over_answer(game) {
                Some(a) => a.to_string(),
                None => {
                    let pos = game.position();
                    let mut on_info = |info: &Info| send(out, &info_line(pos, info));
                    let searched = catch_unwind(AssertUnwindSafe(|| {
                        engine.search(game, limits, *multipv, stop, &mut on_info)
                    }));
                    let lines = match searched {
                        Ok(r) => r.lines,
                        Err(_) => {
                            *engine = Engine::new(hash_mb);
                            send_error(out, "the search failed; playing a legal move");
                            Vec::new()
                        }
                    };
                    match choose_move(game, &lines) {
                        Some(mv) => move_to_usi::<V>(mv),
                        None => "resign".to_string(),
                    }
                }
            };
            drop(dog);
            if *infinite {
                // USI: after `go infinite` the answer waits for `stop`.
                while !stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
            send(out, &format!("bestmove {answer}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a session on `script` and returns its output lines.
    fn session(script: &str, variant: VariantKind) -> Vec<String> {
        let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
        let out: Out = buf.clone();
        serve(script.as_bytes(), &out, variant);
        let bytes = buf.lock().unwrap().clone();
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// The lines that are not search reports (`info` lines other than `info string`).
    fn protocol(lines: &[String]) -> Vec<&str> {
        lines
            .iter()
            .map(String::as_str)
            .filter(|l| !l.starts_with("info ") || l.starts_with("info string"))
            .collect()
    }

    #[test]
    fn handshake() {
        let out = session("usi\nisready\nquit\n", VariantKind::Micro);
        assert_eq!(
            out,
            [
                format!("id name kshogi {}", env!("CARGO_PKG_VERSION")).as_str(),
                "id author The kshogi developers",
                "option name USI_Variant type combo default micro var kyoto var micro var kinzoku",
                "option name USI_Hash type spin default 16 min 1 max 4096",
                "option name MultiPV type spin default 1 min 1 max 32",
                "usiok",
                "readyok",
            ]
        );
    }

    #[test]
    fn game_over_answers() {
        // Kyoto checkmate (hand-checked in show_cmd): White to move, mated.
        let out = session(
            "position sfen k4/5/1S3/5/4K b G 9 moves G*5b\ngo depth 1\n",
            VariantKind::Kyoto,
        );
        assert_eq!(protocol(&out), ["bestmove resign"]);
        // Kinzoku: Black's King already stands on rank a with Black to move: Black has
        // won by king entry, so Black declares the win.
        let out = session(
            "setoption name USI_Variant value kinzokushogi\nposition sfen K1k/3/3/3/3 b - 1\ngo\n",
            VariantKind::Kyoto,
        );
        assert_eq!(protocol(&out), ["bestmove win"]);
        let out = session(
            "position sfen k4/5/1S3/5/4K b G 9 moves G*5b\ngo mate 100\n",
            VariantKind::Kyoto,
        );
        assert_eq!(protocol(&out), ["checkmate nomate"]);
    }

    #[test]
    fn errors_keep_the_state() {
        let out = session(
            "hello\n\
             position startpos moves 1e1d+\n\
             position startpos moves 1e1d+ 9z9z\n\
             position sfen 9/9 b - 1\n\
             position\n\
             go depth banana\n\
             setoption name USI_Hash value 0\n\
             setoption name Nope value 1\n\
             setoption name USI_Variant value chess\n\
             isready extra\n\
             go depth 1\n",
            VariantKind::Kyoto,
        );
        let p = protocol(&out);
        assert_eq!(p.len(), 10, "{p:#?}");
        assert!(p[0].starts_with("info string error: unknown command `hello`"));
        for line in &p[..9] {
            assert!(line.starts_with("info string error: "), "{line}");
        }
        // Column 31 of the line is where `9z9z` starts.
        assert!(p[1].contains("column 31"), "{}", p[1]);
        // The position is still the one after 1e1d+: White to move.
        let mv = p[9].strip_prefix("bestmove ").unwrap();
        let g = parse_game::<Kyoto>(&format!("startpos moves 1e1d+ {mv}"));
        assert!(g.is_ok(), "{mv} is not a White move after 1e1d+");
    }

    #[test]
    fn infinite_waits_for_stop_and_each_go_gets_one_answer() {
        let out = session(
            "position startpos\ngo infinite\nisready\nstop\ngo depth 1\ngo depth 1\nquit\n",
            VariantKind::Micro,
        );
        let p = protocol(&out);
        assert_eq!(p.len(), 4, "{p:#?}");
        assert_eq!(p[0], "readyok");
        for line in &p[1..] {
            assert!(line.starts_with("bestmove "), "{line}");
            let mv = line.strip_prefix("bestmove ").unwrap();
            assert!(
                parse_game::<Micro>(&format!("startpos moves {mv}")).is_ok(),
                "{mv}"
            );
        }
    }

    #[test]
    fn error_lines_are_one_short_line() {
        let long = format!("position sfen {}\u{1b}[2J b - 1\n", "p".repeat(5000));
        let out = session(&long, VariantKind::Kyoto);
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].starts_with("info string error: "), "{}", out[0]);
        assert!(!out[0].contains('\u{1b}'), "{}", out[0]);
        assert!(out[0].chars().count() < 400, "{}", out[0]);
    }

    #[test]
    fn variant_switch_resets_the_position() {
        let out = session(
            "position startpos moves 1e1d+\n\
             setoption name USI_Variant value kinzoku\n\
             go depth 1\n",
            VariantKind::Kyoto,
        );
        let p = protocol(&out);
        let mv = p[0].strip_prefix("bestmove ").unwrap();
        assert!(
            parse_game::<Kinzoku>(&format!("startpos moves {mv}")).is_ok(),
            "{mv}"
        );
    }
}
