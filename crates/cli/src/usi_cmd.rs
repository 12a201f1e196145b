//! `kshogi usi`: the USI protocol loop, on standard input and output or on any reader and
//! writer.
//!
//! In the threaded mode (what `kshogi usi` does), the main thread reads commands; `go`
//! starts the search on a thread of its own, which prints the `info` lines and the one
//! `bestmove` (or `checkmate`) answer of that `go`. So `stop` and `isready` are answered
//! while a search runs. In the bounded mode ([`SearchMode::Bounded`], for fuzzing and
//! tests) every `go` runs on the reading thread within a small budget. Output lines are
//! written whole, under one lock, and flushed at once.
//!
//! A malformed line, an unknown command or a wrong `position` gets one line
//! `info string error: <what>` and changes nothing. End of input works as `quit`.

use crate::engine_text::{self, choose_move};
use crate::time_manager;
use crate::usi_parse::{
    parse_go, parse_setoption, shorten, spin_value, GoParams, Input, LineReader, MateTime, MAX_LINE,
};
use kshogi_core::{Game, Position};
use kshogi_engine::mate::{self, MateResult};
use kshogi_engine::{Info, Limits};
use kshogi_notation::{move_to_usi, parse_game};
use kshogi_registry::{with_variant, EngineFor, Registered, VariantKind};
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
gameover, quit. Options: USI_Variant (a name that `kshogi variants` lists; `kyotoshogi`
and the like also accepted), USI_Hash (MiB, 1-4096, default 16), MultiPV (1-32, default 1).

A malformed line gets `info string error: <what>` and changes nothing; lines longer than
64 KiB are rejected the same way. End of input ends the program like `quit`.
See docs/analysis.md.";

/// The default `USI_Hash`, in MiB.
pub const DEFAULT_HASH_MB: usize = 16;

/// The largest `USI_Hash`, in MiB.
pub const MAX_HASH_MB: u64 = 4096;

/// The largest `MultiPV`.
pub const MAX_MULTIPV: u64 = 32;

/// Where protocol output goes; shared by the reading thread and the search thread. Any
/// writer will do: standard output for `kshogi usi`, a `Vec<u8>` to capture a session.
pub type Out = Arc<Mutex<dyn Write + Send>>;

/// How [`serve_with`] runs the searches that `go` asks for.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum SearchMode {
    /// What `kshogi usi` does: each `go` searches on a thread of its own, within the limits
    /// it names and the time the clock allows, while the loop goes on reading, so that
    /// `stop` and `isready` are answered during a search; `go infinite` answers after
    /// `stop`.
    #[default]
    Threaded,
    /// Deterministic and cheap, for fuzzing and tests: each `go` runs on the reading thread
    /// within the [`Budget`] and has printed its `info` lines before the next line is read.
    /// The clock fields are still read and the time allotted is computed, but only the
    /// budget ends a search, so the output depends on the input alone (except the `time`
    /// and `nps` fields of `info` lines). The answer to `go infinite` is held back until a
    /// command that ends a running search in the threaded mode (`stop`, a `go`,
    /// `usinewgame`, `gameover`, a new `USI_Hash`, a new `USI_Variant`, `quit` or the end of
    /// input), so the answers come in the same order as there. `ponderhit` does nothing.
    Bounded(Budget),
}

/// The most one `go` may search in [`SearchMode::Bounded`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Node budget of every search (a smaller `go nodes` still applies) and of the mate
    /// solver (`go mate`). The first root move of a search is always searched to the end, so a search may
    /// go somewhat beyond it.
    pub nodes: u64,
    /// Deepest iteration of every search (a smaller `go depth` still applies); at least 1.
    pub depth: u32,
    /// Largest transposition table, in MiB, whatever `USI_Hash` says; 0 keeps a single
    /// cluster of entries. (`usi` still shows the option as usual.)
    pub hash_mb: usize,
}

impl Budget {
    /// A budget small enough for a fuzzer to run thousands of sessions a second: 64 nodes,
    /// depth 2, the smallest transposition table.
    pub const TINY: Budget = Budget {
        nodes: 64,
        depth: 2,
        hash_mb: 0,
    };
}

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
    /// Threaded or bounded searches.
    mode: SearchMode,
    /// The variant at start-up (the `USI_Variant` default shown by `usi`).
    initial: VariantKind,
    /// The current variant.
    variant: VariantKind,
    /// `USI_Hash`.
    hash_mb: usize,
    /// `MultiPV`.
    multipv: usize,
}

impl Settings {
    /// The size of the transposition table: `USI_Hash`, capped by the budget in the bounded
    /// mode.
    fn table_mb(&self) -> usize {
        match self.mode {
            SearchMode::Threaded => self.hash_mb,
            SearchMode::Bounded(b) => self.hash_mb.min(b.hash_mb),
        }
    }
}

/// What ends a [`Session`].
enum Next {
    /// `quit` or end of input.
    Quit,
    /// `setoption name USI_Variant` named another variant.
    Switch(VariantKind),
}

/// Runs `kshogi usi`: the protocol on standard input and output, with threaded searches,
/// until `quit` or end of input.
pub fn serve_stdio(variant: VariantKind) {
    let out: Out = Arc::new(Mutex::new(std::io::stdout()));
    let stdin = std::io::stdin();
    serve(stdin.lock(), &out, variant);
}

/// Runs the protocol on `input`, writing to `out`, with threaded searches (as `kshogi usi`
/// does), until `quit` or end of input; `variant` is the variant to start with. Every
/// search started is finished (and has printed its answer) when this returns.
pub fn serve<R: BufRead>(input: R, out: &Out, variant: VariantKind) {
    serve_with(input, out, variant, SearchMode::Threaded);
}

/// Runs the protocol on `input`, writing to `out`, until `quit` or end of input, running
/// the searches as `mode` says; `variant` is the variant to start with. Every search
/// started is finished (and has printed its answer) when this returns.
///
/// ```
/// use kshogi_cli::usi::{serve_with, Budget, Out, SearchMode, VariantKind};
/// use std::sync::{Arc, Mutex};
///
/// let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
/// let out: Out = buf.clone();
/// let script = "isready\nposition startpos moves 1e1d+\ngo depth 3\nquit\n";
/// serve_with(script.as_bytes(), &out, VariantKind::Kyoto, SearchMode::Bounded(Budget::TINY));
/// let text = String::from_utf8(buf.lock().unwrap().clone()).unwrap();
/// assert!(text.starts_with("readyok\n"));
/// assert!(text.lines().last().unwrap().starts_with("bestmove "));
/// ```
pub fn serve_with<R: BufRead>(input: R, out: &Out, variant: VariantKind, mode: SearchMode) {
    let mut reader = LineReader::new(input);
    let mut settings = Settings {
        mode,
        initial: variant,
        variant,
        hash_mb: DEFAULT_HASH_MB,
        multipv: 1,
    };
    loop {
        let next = with_variant!(settings.variant, V => {
            Session::<V>::new(out, &settings).run(&mut reader, &mut settings)
        });
        match next {
            Next::Quit => return,
            Next::Switch(kind) => settings.variant = kind,
        }
    }
}

/// A search that has not answered yet.
enum Running<V: Registered> {
    /// Threaded mode: a search on its own thread.
    Thread(SearchThread<V>),
    /// Bounded mode: the answer of a finished `go infinite`, held back until the search
    /// is ended.
    Held(String),
}

/// A search running on its own thread.
struct SearchThread<V: Registered> {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<EngineFor<V>>,
    /// The answer to print if the thread dies without answering (a bug), so that every
    /// `go` still gets one answer.
    last_resort: String,
}

/// The protocol state for one variant: the position, the engine (away on the search
/// thread while a search runs; `None` until the first `go` in the bounded mode) and the
/// running search.
struct Session<'o, V: Registered> {
    out: &'o Out,
    game: Game<V>,
    engine: Option<EngineFor<V>>,
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
    Mate {
        time: Option<Duration>,
        /// The solver's node budget.
        max_nodes: u64,
    },
}

impl<'o, V: Registered> Session<'o, V> {
    fn new(out: &'o Out, settings: &Settings) -> Session<'o, V> {
        Session {
            out,
            game: Game::new(Position::start()),
            // The threaded mode makes the engine (and its table) before the GUI's first
            // `go`; the bounded mode only when a `go` needs it, so that a session without
            // one costs nothing.
            engine: match settings.mode {
                SearchMode::Threaded => Some(EngineFor::<V>::new(settings.table_mb())),
                SearchMode::Bounded(_) => None,
            },
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
        for v in VariantKind::ALL.iter() {
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
                    "option USI_Variant takes one of {}, found `{}`",
                    VariantKind::names(),
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
                            e.set_hash(settings.table_mb());
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
    /// every `go` gets its own answer); in the bounded mode, runs the search.
    fn go(&mut self, args: &[&str], settings: &Settings) {
        let params = match parse_go(args) {
            Ok(p) => p,
            Err(e) => {
                self.error(&e);
                return;
            }
        };
        self.finish_search();
        let job = job_for(&params, &self.game, settings);
        let hash_mb = settings.table_mb();
        let mut engine = self
            .engine
            .take()
            .unwrap_or_else(|| EngineFor::<V>::new(hash_mb));
        // USI: after `go infinite` the answer waits for `stop`.
        let hold = matches!(job, Job::Search { infinite: true, .. });
        if let SearchMode::Bounded(_) = settings.mode {
            let never = Arc::new(AtomicBool::new(false));
            let answer = run_job(&mut engine, &self.game, &job, &never, self.out, hash_mb);
            self.engine = Some(engine);
            if hold {
                self.running = Some(Running::Held(answer));
            } else {
                send(self.out, &answer);
            }
            return;
        }
        let last_resort = match job {
            Job::Mate { .. } => "checkmate timeout".to_string(),
            Job::Search { .. } => format!("bestmove {}", fallback_answer(&self.game)),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let (game, out, flag) = (self.game.clone(), Arc::clone(self.out), Arc::clone(&stop));
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let answer = run_job(&mut engine, &game, &job, &flag, &out, hash_mb);
                if hold {
                    while !flag.load(Ordering::SeqCst) {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                }
                send(&out, &answer);
                engine
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running::Thread(SearchThread {
                    stop,
                    handle,
                    last_resort,
                }))
            }
            Err(e) => {
                self.error(&format!("cannot start the search: {e}"));
                send(self.out, &last_resort);
            }
        }
    }

    /// Stops the running search, if any, and waits for it (it prints its answer); in the
    /// bounded mode, prints the answer held back.
    fn finish_search(&mut self) {
        match self.running.take() {
            None => {}
            Some(Running::Held(answer)) => send(self.out, &answer),
            Some(Running::Thread(r)) => {
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
}

/// The job a `go` asks for, with the time allotted from the clock of the side to move (in
/// the bounded mode: with the budget's limits instead of the time).
fn job_for<V: Registered>(params: &GoParams, game: &Game<V>, settings: &Settings) -> Job {
    let budget = match settings.mode {
        SearchMode::Threaded => None,
        SearchMode::Bounded(b) => Some(b),
    };
    if let Some(m) = params.mate {
        let time = match m {
            MateTime::Infinite => None,
            MateTime::Millis(ms) => Some(Duration::from_millis(ms.min(time_manager::MAX_THINK_MS))),
        };
        return match budget {
            None => Job::Mate {
                time,
                max_nodes: u64::MAX,
            },
            Some(b) => Job::Mate {
                time: None,
                max_nodes: b.nodes,
            },
        };
    }
    let side = game.position().side_to_move();
    let time = time_manager::allocate(&params.clock, side);
    let limits = match budget {
        None => Limits {
            depth: params.depth,
            nodes: params.nodes,
            time,
            mate: None,
            infinite: params.infinite,
        },
        Some(b) => Limits {
            depth: Some(params.depth.map_or(b.depth, |d| d.min(b.depth))),
            nodes: Some(params.nodes.map_or(b.nodes, |n| n.min(b.nodes))),
            time: None,
            mate: None,
            infinite: false,
        },
    };
    Job::Search {
        limits,
        multipv: settings.multipv,
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
fn fallback_answer<V: Registered>(game: &Game<V>) -> String {
    if let Some(answer) = game_over_answer(game) {
        return answer.to_string();
    }
    match choose_move(game, &[]) {
        Some(mv) => move_to_usi::<V>(mv),
        None => "resign".to_string(),
    }
}

/// `win` or `resign` when the game is already over.
fn game_over_answer<V: Registered>(game: &Game<V>) -> Option<&'static str> {
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
fn info_line<V: Registered>(pos: &Position<V>, info: &Info) -> String {
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

/// The body of the search thread: runs the job, printing its `info` lines, and returns its
/// answer (`bestmove ...` or `checkmate ...`).
fn run_job<V: Registered>(
    engine: &mut EngineFor<V>,
    game: &Game<V>,
    job: &Job,
    stop: &Arc<AtomicBool>,
    out: &Out,
    hash_mb: usize,
) -> String {
    match job {
        Job::Mate { time, max_nodes } => {
            let _dog = time.map(|t| Watchdog::start(t, Arc::clone(stop)));
            let pos = game.position();
            let result = if game.outcome().is_some() {
                MateResult::NoMate
            } else {
                catch_unwind(AssertUnwindSafe(|| {
                    mate::solve::<V, V::Eval>(pos, *max_nodes, stop)
                }))
                .unwrap_or(MateResult::Unknown)
            };
            match result {
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
            }
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
                            *engine = EngineFor::<V>::new(hash_mb);
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
            format!("bestmove {answer}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_rules_kinzoku::Kinzoku;
    use kshogi_rules_kyoto::Kyoto;
    use kshogi_rules_micro::Micro;

    /// Runs a session on `script` and returns its output lines.
    fn session(script: &str, variant: VariantKind) -> Vec<String> {
        session_with(script, variant, SearchMode::Threaded)
    }

    /// Runs a session on `script` with searches run as `mode` says.
    fn session_with(script: &str, variant: VariantKind, mode: SearchMode) -> Vec<String> {
        let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
        let out: Out = buf.clone();
        serve_with(script.as_bytes(), &out, variant, mode);
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
        let vars: String = VariantKind::ALL
            .iter()
            .map(|k| format!(" var {}", k.name()))
            .collect();
        let variant_line = format!("option name USI_Variant type combo default micro{vars}");
        assert!(variant_line.contains(" var kyoto var micro var kinzoku"));
        assert_eq!(
            out,
            [
                format!("id name kshogi {}", env!("CARGO_PKG_VERSION")).as_str(),
                "id author The kshogi developers",
                variant_line.as_str(),
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

    const BOUNDED: SearchMode = SearchMode::Bounded(Budget::TINY);

    #[test]
    fn bounded_go_answers_before_the_next_line() {
        // `go` with no limit, a deep depth and a long clock: the budget ends each search.
        let out = session_with(
            "position startpos\n\
             go\n\
             isready\n\
             go depth 100 btime 600000 wtime 600000 byoyomi 60000\n\
             isready\n\
             go nodes 1\n",
            VariantKind::Micro,
            BOUNDED,
        );
        let p = protocol(&out);
        assert_eq!(p.len(), 5, "{p:#?}");
        assert_eq!((p[1], p[3]), ("readyok", "readyok"));
        for line in [p[0], p[2], p[4]] {
            let mv = line.strip_prefix("bestmove ").unwrap();
            assert!(
                parse_game::<Micro>(&format!("startpos moves {mv}")).is_ok(),
                "{mv}"
            );
        }
        // No iteration deeper than the budget's.
        for line in out.iter().filter(|l| l.starts_with("info depth ")) {
            let depth: u32 = line.split(' ').nth(2).unwrap().parse().unwrap();
            assert!(depth <= Budget::TINY.depth, "{line}");
        }
    }

    #[test]
    fn bounded_infinite_answers_when_the_search_ends() {
        let out = session_with(
            "go infinite\nisready\nposition startpos moves 1e1d+\nstop\nstop\n\
             go infinite\ngo mate infinite\ngo infinite\nquit\n",
            VariantKind::Kyoto,
            BOUNDED,
        );
        let p = protocol(&out);
        assert_eq!(p.len(), 5, "{p:#?}");
        assert_eq!(p[0], "readyok");
        // Each answer is for the position its `go` was given in.
        for (i, moves) in [(1, ""), (2, "1e1d+ "), (4, "1e1d+ ")] {
            let mv = p[i].strip_prefix("bestmove ").unwrap();
            assert!(
                parse_game::<Kyoto>(&format!("startpos moves {moves}{mv}")).is_ok(),
                "{mv}"
            );
        }
        assert!(p[3].starts_with("checkmate "), "{}", p[3]);
        // End of input ends a held search too, and a game that is over still answers.
        let out = session_with(
            "position sfen k4/5/1S3/5/4K b G 9 moves G*5b\ngo infinite\n",
            VariantKind::Kyoto,
            BOUNDED,
        );
        assert_eq!(protocol(&out), ["bestmove resign"]);
    }

    #[test]
    fn bounded_mode_caps_the_hash_and_keeps_the_options() {
        let out = session_with(
            "usi\nsetoption name USI_Hash value 4096\nsetoption name MultiPV value 3\n\
             go depth 1\n",
            VariantKind::Kinzoku,
            BOUNDED,
        );
        let p = protocol(&out);
        assert!(p.contains(&"option name USI_Hash type spin default 16 min 1 max 4096"));
        assert!(p.last().unwrap().starts_with("bestmove "), "{p:#?}");
        let multipv: Vec<&String> = out.iter().filter(|l| l.contains(" multipv ")).collect();
        assert_eq!(multipv.len(), 3, "{multipv:#?}");
        let settings = Settings {
            mode: BOUNDED,
            initial: VariantKind::Kyoto,
            variant: VariantKind::Kyoto,
            hash_mb: 4096,
            multipv: 1,
        };
        assert_eq!(settings.table_mb(), 0);
        let threaded = Settings {
            mode: SearchMode::Threaded,
            ..settings
        };
        assert_eq!(threaded.table_mb(), 4096);
    }
}
