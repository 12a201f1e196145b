//! The USI protocol loop (and its UCI mode), on standard input and output or on any reader
//! and writer.
//!
//! In the threaded mode (what `kshogi usi` does), the main thread reads commands; `go`
//! starts the analysis on a thread of its own, which prints the `info` lines and the one
//! `bestmove` (or `checkmate`) answer of that `go`. So `stop`, `ponderhit` and `isready`
//! are answered while a search runs. In the bounded mode ([`SearchMode::Bounded`], for
//! fuzzing and tests) every `go` runs on the reading thread within a small budget. Output
//! lines are written whole, under one lock, and flushed at once.
//!
//! Every `go` asks the analysis service (`kshogi-analysis`): search and mate solver
//! together, or the perfect-play database where one covers the position; `bestmove` is the
//! first move of the last `pv` reported for line 1.
//!
//! A malformed line, an unknown command or a wrong option gets one line
//! `info string error: <what>` and changes nothing. A rejected `position` leaves no
//! position: until the next valid one, `go` answers `bestmove resign`. End of input works
//! as `quit`.
//!
//! Every line is read as a `GuiMessage` and every answer written as an `EngineMessage` of
//! `kshogi-usi-protocol`; this module and its children only decide which call of the
//! analysis service a message is and which message answers it: `commands` runs the
//! commands other than `go`, `search` runs `go` (search, `go mate`, `go perft`, pondering)
//! beside the reading loop.

mod commands;
mod search;
mod settings;
#[cfg(test)]
mod tests;

use crate::options;
use crate::writing::info_string;
use kshogi_analysis::{Analyzer, Databases};
use kshogi_core::{Game, Position, VariantInfo};
use kshogi_notation::Dialect;
use kshogi_registry::{with_variant, Registered, VariantKind};
use kshogi_usi_protocol::{EngineMessage, Input, LineReader, MAX_LINE};
use search::{new_analyzer, SearchThread};
use settings::{Roster, Settings};
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex, PoisonError};

/// More help for `kshogi usi`: the commands, the options (from the one table of
/// options) and the errors.
pub fn usi_help() -> String {
    format!(
        "\
Speaks USI on standard input and output, for GUIs and match runners (and UCI after `uci`,
as pychess-variants speaks it to Fairy-Stockfish). Commands: usi, uci, isready,
usinewgame, ucinewgame, setoption, position startpos|sfen <SFEN>|fen <FEN> [moves ...], go
(btime wtime byoyomi binc winc movetime depth nodes infinite ponder mate perft), stop,
ponderhit, gameover, quit.

{}
The database of a variant that has one (see `kshogi solve <variant>`) is used when it is
installed: --db FILE, or the default path. A malformed line gets `info string error: <what>`
and changes nothing; a rejected `position` leaves no position (the next `go` answers
`bestmove resign`); lines longer than 64 KiB are rejected. End of input ends the program
like `quit`. See docs/analysis.md.",
        options::help_text()
    )
}

/// The mate solver's node budget during a `go` (at most N with `go nodes N`; in the bounded
/// mode: the budget's nodes): the analysis service's, which plans every `go`.
pub use kshogi_analysis::job::MATE_NODES;

/// Where protocol output goes; shared by the reading thread and the search thread. Any
/// writer will do: standard output for `kshogi usi`, a `Vec<u8>` to capture a session.
pub type Out = Arc<Mutex<dyn Write + Send>>;

/// How [`serve_with`] runs the searches that `go` asks for.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum SearchMode {
    /// What `kshogi usi` does: each `go` searches on a thread of its own, within the limits
    /// it names and the time the clock allows, while the loop goes on reading, so that
    /// `stop` and `isready` are answered during a search; `go infinite` answers after
    /// `stop`, `go ponder` after `stop` or `ponderhit`.
    #[default]
    Threaded,
    /// Deterministic and cheap, for fuzzing and tests: each `go` runs on the reading thread
    /// within the [`Budget`] and has printed its `info` lines before the next line is read.
    /// The clock fields are still read and the time allotted is computed, but only the
    /// budget ends a search, so the output depends on the input alone (except the `time`
    /// and `nps` fields of `info` lines). The answer to `go infinite` (and `go ponder`) is
    /// held back until a command that ends a running search in the threaded mode (`stop`,
    /// a `go`, `usinewgame`, `gameover`, a new `USI_Hash`, a new `USI_Variant`, `quit` or
    /// the end of input; for `go ponder` also `ponderhit`), so the answers come in the
    /// same order as there.
    Bounded(Budget),
}

/// The most one `go` may search in [`SearchMode::Bounded`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Node budget of every search (a smaller `go nodes` still applies) and of the mate
    /// solver (`go mate`, and the one beside each search). The first root move of a search
    /// is always searched to the end, so a search may go somewhat beyond it.
    pub nodes: u64,
    /// Deepest iteration of every search (a smaller `go depth` still applies), and the
    /// deepest `go perft`; at least 1.
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

/// What a session starts with.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// The variant to start with (the `USI_Variant` default).
    pub variant: Option<VariantKind>,
    /// Threaded or bounded searches.
    pub mode: SearchMode,
    /// The perfect-play databases to follow where they cover the position.
    pub databases: Databases,
    /// The `Dialect` to start with (`kshogi usi --dialect`), for clients that cannot set
    /// options; `None`: the protocol's default (canonical in USI mode, fsf in UCI mode).
    pub dialect: Option<Dialect>,
}

/// Writes one message (a line end is added) and flushes.
fn send_message(out: &Out, message: &EngineMessage) {
    send(out, &message.to_string());
}

/// Writes text of whole protocol lines (a line end is added) and flushes, under one lock.
/// Write errors are ignored: a GUI that went away also closes our input, which ends the
/// session.
fn send(out: &Out, line: &str) {
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
    send_message(out, &info_string(format!("error: {text}")));
}

/// What ends a [`Session`].
enum Next {
    /// `quit` or end of input.
    Quit,
    /// `setoption name USI_Variant` named another variant of the roster.
    Switch(VariantInfo),
}

/// Runs `kshogi usi`: the protocol on standard input and output, with threaded searches,
/// until `quit` or end of input.
pub fn serve_stdio(config: &Config) {
    let out: Out = Arc::new(Mutex::new(std::io::stdout()));
    let stdin = std::io::stdin();
    serve_config(stdin.lock(), &out, config);
}

/// Runs the protocol on `input`, writing to `out`, with threaded searches (as `kshogi usi`
/// does), until `quit` or end of input; `variant` is the variant to start with. Every
/// search started is finished (and has printed its answer) when this returns.
pub fn serve<R: BufRead>(input: R, out: &Out, variant: VariantKind) {
    serve_with(input, out, variant, SearchMode::Threaded);
}

/// Runs the protocol on `input`, writing to `out`, until `quit` or end of input, running
/// the searches as `mode` says, without databases; `variant` is the variant to start with.
/// Every search started is finished (and has printed its answer) when this returns.
///
/// ```
/// use kshogi_usi::{serve_with, Budget, Out, SearchMode, VariantKind};
/// use std::sync::{Arc, Mutex};
///
/// let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
/// let out: Out = buf.clone();
/// let script = "isready\nposition startpos moves 1e1d+\ngo depth 3\nquit\n";
/// let kyoto = VariantKind::from_name("kyoto").unwrap();
/// serve_with(script.as_bytes(), &out, kyoto, SearchMode::Bounded(Budget::TINY));
/// let text = String::from_utf8(buf.lock().unwrap().clone()).unwrap();
/// assert!(text.starts_with("readyok\n"));
/// assert!(text.lines().last().unwrap().starts_with("bestmove "));
/// ```
pub fn serve_with<R: BufRead>(input: R, out: &Out, variant: VariantKind, mode: SearchMode) {
    let config = Config {
        variant: Some(variant),
        mode,
        databases: Databases::none(),
        dialect: None,
    };
    serve_config(input, out, &config);
}

/// Runs the protocol on `input`, writing to `out`, until `quit` or end of input, as
/// `config` says. Every search started is finished (and has printed its answer) when this
/// returns.
pub fn serve_config<R: BufRead>(input: R, out: &Out, config: &Config) {
    let mut reader = LineReader::new(input);
    let mut kind = config.variant.unwrap_or(VariantKind::ALL[0]);
    let mut settings = Settings::new(
        config.mode,
        *kind.info(),
        Roster::Registered,
        config.databases.clone(),
    );
    settings.dialect = config.dialect;
    loop {
        let next = with_variant!(kind, V => {
            Session::<V>::new(out, &settings).run(&mut reader, &mut settings)
        });
        match next {
            Next::Quit => return,
            Next::Switch(info) => match VariantKind::from_name(info.name) {
                Some(k) => {
                    kind = k;
                    settings.variant = info;
                }
                // The roster is the registry's: every name in it is registered.
                None => return,
            },
        }
    }
}

/// What a session of one variant ([`serve_variant`]) starts with.
#[derive(Clone, Debug, Default)]
pub struct VariantConfig {
    /// Threaded or bounded searches.
    pub mode: SearchMode,
    /// The perfect-play databases to follow where they cover the position (only the one
    /// for the session's variant is ever asked).
    pub databases: Databases,
    /// The `Dialect` to start with; `None`: the protocol's default.
    pub dialect: Option<Dialect>,
}

/// Runs the protocol for the one variant `V` on `input`, writing to `out`, until `quit` or
/// end of input, as `config` says: the same loop as [`serve_config`], with `USI_Variant`
/// listing and accepting only `V`'s name and aliases (another name is an error and changes
/// nothing). `V` need not be in the registry: a crate outside kshogi that implements
/// [`Registered`] for its own variant gets a USI engine with this call. Every search started
/// is finished (and has printed its answer) when this returns.
///
/// ```
/// use kshogi_registry::with_variant;
/// use kshogi_usi::{serve_variant, Budget, Out, SearchMode, VariantConfig, VariantKind};
/// use std::sync::{Arc, Mutex};
///
/// let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
/// let out: Out = buf.clone();
/// let config = VariantConfig {
///     mode: SearchMode::Bounded(Budget::TINY),
///     ..VariantConfig::default()
/// };
/// let script = "position startpos\ngo depth 2\n";
/// // Any type implementing `Registered` will do; here the first registered variant.
/// with_variant!(VariantKind::ALL[0], V => serve_variant::<V, _>(script.as_bytes(), &out, &config));
/// let text = String::from_utf8(buf.lock().unwrap().clone()).unwrap();
/// assert!(text.lines().last().unwrap().starts_with("bestmove "));
/// ```
pub fn serve_variant<V: Registered, R: BufRead>(input: R, out: &Out, config: &VariantConfig) {
    let mut reader = LineReader::new(input);
    let info = VariantInfo::of::<V>();
    let mut settings = Settings::new(
        config.mode,
        info,
        Roster::Single(info),
        config.databases.clone(),
    );
    settings.dialect = config.dialect;
    // A single roster never switches: `USI_Variant` naming `V` changes nothing.
    let _ = Session::<V>::new(out, &settings).run(&mut reader, &mut settings);
}

/// [`serve_variant`] on standard input and output, with threaded searches unless `config`
/// says otherwise: the USI engine of a variant's own program.
pub fn serve_variant_stdio<V: Registered>(config: &VariantConfig) {
    let out: Out = Arc::new(Mutex::new(std::io::stdout()));
    let stdin = std::io::stdin();
    serve_variant::<V, _>(stdin.lock(), &out, config);
}

/// The analysis service of a registered variant.
type AnalyzerFor<V> = Analyzer<V, <V as Registered>::Eval>;

/// A search that has not answered yet.
enum Running<V: Registered> {
    /// Threaded mode: a search on its own thread.
    Thread(SearchThread<V>),
    /// Bounded mode: the answer of a finished `go infinite` or `go ponder` (`true`), held
    /// back until the search is ended.
    Held(String, bool),
}

/// The protocol state for one variant: the position (`None` after a rejected `position`),
/// the analysis service (away on the search thread while a search runs; `None` until the
/// first `go` in the bounded mode) and the running search.
struct Session<'o, V: Registered> {
    out: &'o Out,
    game: Option<Game<V>>,
    analyzer: Option<AnalyzerFor<V>>,
    running: Option<Running<V>>,
}

impl<'o, V: Registered> Session<'o, V> {
    fn new(out: &'o Out, settings: &Settings) -> Session<'o, V> {
        Session {
            out,
            game: Some(Game::new(Position::start())),
            // The threaded mode makes the engine (and its table) before the GUI's first
            // `go`; the bounded mode only when a `go` needs it, so that a session without
            // one costs nothing.
            analyzer: match settings.mode {
                SearchMode::Threaded => Some(new_analyzer::<V>(
                    settings.table_mb(),
                    settings.search_threads(),
                )),
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
}
