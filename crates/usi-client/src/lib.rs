//! # kshogi-usi-client
//!
//! Drives a USI engine as a child process: spawns it from a command line (split by POSIX
//! shell word rules, without a shell), sends lines, and reads its answers with a deadline on
//! every read, so that an engine that hangs, crashes or prints garbage is an [`EngineError`]
//! naming what happened, never a hung or crashed caller. On top of that general core
//! ([`Engine::send`], [`Engine::read_until`]) sit the steps a test runner needs: the
//! handshake (`usi`/`usiok`, `isready`/`readyok`), `setoption`, `position` and `go perft`
//! ([`Engine::perft`], in the reference engine's output form: `move: count` lines, then
//! `Nodes searched: N`). The engine is killed when the [`Engine`] is dropped.
//!
//! Every line is written as a `GuiMessage` and read as an `EngineMessage` of
//! `kshogi-usi-protocol`, which alone parses and prints USI text.
//!
//! This crate uses the standard library, `shlex` and the protocol crate only: it depends on
//! no other kshogi crate and must not know a variant or a position; callers give it
//! positions and moves as text.

/// The protocol's messages, for callers that read the engine's lines themselves.
pub use kshogi_usi_protocol as protocol;
use kshogi_usi_protocol::{
    check_setoption, same_option_name, EngineMessage, Go, GuiMessage, OptionDecl, OptionError,
    OptionValue, PositionArgs, Setup,
};
mod error;
mod read;

pub use error::{BadCommand, EngineError, Garbage, SpawnFailure};
use read::{quote, read_capped, skip_line, Capped};
use std::collections::VecDeque;
use std::fmt;
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How many of the engine's last standard-error lines a crash report quotes.
const STDERR_KEPT: usize = 5;

/// The longest line read from the engine, in bytes without its line end: the limit
/// `kshogi usi` puts on the lines it reads (64 KiB). A longer line on standard output is
/// [`EngineError::Garbage`] and nothing more is read from that engine; a longer line on
/// standard error is kept cut. So a misbehaving engine cannot make the caller hold more than
/// this much of one line in memory.
pub const MAX_LINE: usize = 64 * 1024;

/// How long to wait for an engine to exit after its output ended, before calling it a crash
/// with an unknown status.
const EXIT_WAIT: Duration = Duration::from_millis(500);

/// Splits a command line into words by POSIX shell rules (quotes, backslashes), without
/// running a shell.
pub fn split_command(command: &str) -> Result<Vec<String>, EngineError> {
    let words = shlex::split(command)
        .ok_or_else(|| EngineError::BadCommand(BadCommand::Unsplittable(command.to_string())))?;
    if words.is_empty() {
        return Err(EngineError::BadCommand(BadCommand::Empty));
    }
    Ok(words)
}

/// What the engine said about itself in the handshake.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EngineInfo {
    /// `id name`, if given.
    pub name: Option<String>,
    /// `id author`, if given.
    pub author: Option<String>,
    /// Its `option name ...` lines, in order.
    pub options: Vec<OptionDecl>,
    /// Its `option` lines that do not parse, as it printed them: the options they name are
    /// set unchecked ([`EngineInfo::check_option`]).
    pub unread_options: Vec<String>,
}

impl EngineInfo {
    /// The names of its options, in order.
    pub fn option_names(&self) -> Vec<&str> {
        self.options.iter().map(|d| d.name.as_str()).collect()
    }

    /// Checks `setoption name NAME value VALUE` against the options the engine declared
    /// ([`protocol::check_setoption`]): a name it does not declare, or a value its type
    /// refuses, is [`EngineError::Option`], so that a caller can refuse it before the
    /// engine ignores it. An option named by one of the [`EngineInfo::unread_options`]
    /// lines passes unchecked (its value as text): its declaration could not be read, which
    /// does not make it unknown.
    pub fn check_option(&self, name: &str, value: &str) -> Result<OptionValue, EngineError> {
        match check_setoption(&self.options, name, Some(value)) {
            Err(OptionError::Undeclared { .. })
                if self.unread_options.iter().any(|l| names(l, name)) =>
            {
                Ok(OptionValue::Text(value.trim().to_string()))
            }
            checked => checked.map_err(EngineError::Option),
        }
    }
}

/// Whether an `option` line that does not parse names the option `name`: the words after
/// `name`, up to `type` or the line's end.
fn names(line: &str, name: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.get(1) != Some(&"name") {
        return false;
    }
    let end = words
        .iter()
        .position(|w| *w == "type")
        .unwrap_or(words.len());
    same_option_name(&words[2..end.max(2)].join(" "), name)
}

/// The answer to `go perft N`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftAnswer {
    /// Each root move as the engine wrote it, with the count below it, in its order.
    pub divide: Vec<(String, u64)>,
    /// The `Nodes searched` total.
    pub nodes: u64,
}

/// A running engine. Dropping it kills the process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Capped>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// The program (first word of the command), for messages.
    program: String,
    /// The deadline of each handshake read and of commands other than `go`.
    pub timeout: Duration,
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("program", &self.program)
            .field("pid", &self.child.id())
            .finish()
    }
}

/// The instant `wait` from now. A wait too large for an [`Instant`] (a
/// [`Engine::timeout`] or a clock of `Duration::MAX`, or a huge increment added move after
/// move) is a deadline a century away instead of an overflow panic.
pub fn deadline_in(wait: Duration) -> Instant {
    const CENTURY: Duration = Duration::from_secs(100 * 365 * 24 * 3600);
    let now = Instant::now();
    now.checked_add(wait)
        .or_else(|| now.checked_add(CENTURY))
        .unwrap_or(now)
}

/// An exit status as text.
fn describe_status(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exit status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    status.to_string()
}

impl Engine {
    /// Starts the engine `command` (split with [`split_command`]); `timeout` bounds each
    /// read of [`Engine::read_line`] callers that use [`Engine::timeout`].
    pub fn spawn(command: &str, timeout: Duration) -> Result<Engine, EngineError> {
        let words = split_command(command)?;
        Engine::spawn_argv(&words, timeout)
    }

    /// Starts the engine: program `argv[0]` with the other words as its arguments.
    pub fn spawn_argv(argv: &[String], timeout: Duration) -> Result<Engine, EngineError> {
        let Some((program, args)) = argv.split_first() else {
            return Err(EngineError::BadCommand(BadCommand::Empty));
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| EngineError::Spawn {
                program: program.clone(),
                failure: SpawnFailure::from(&e),
            })?;
        let stdin = child.stdin.take();
        let (tx, lines) = channel();
        if let Some(out) = child.stdout.take() {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(out);
                let mut buf = Vec::new();
                while let Some(line) = read_capped(&mut reader, &mut buf) {
                    // After a line over the limit the engine is faulty: read no more.
                    let last = matches!(line, Capped::TooLong(..));
                    if tx.send(line).is_err() || last {
                        break;
                    }
                }
            });
        }
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        if let Some(err) = child.stderr.take() {
            let kept = Arc::clone(&stderr);
            std::thread::spawn(move || {
                let mut reader = BufReader::new(err);
                let mut buf = Vec::new();
                while let Some(line) = read_capped(&mut reader, &mut buf) {
                    let (line, rest) = match line {
                        Capped::Line(l) => (l, false),
                        Capped::TooLong(l, rest) => (l, rest),
                    };
                    if let Ok(mut k) = kept.lock() {
                        if k.len() == STDERR_KEPT {
                            k.pop_front();
                        }
                        k.push_back(quote(line.trim_end()));
                    }
                    if rest && !skip_line(&mut reader) {
                        break;
                    }
                }
            });
        }
        Ok(Engine {
            child,
            stdin,
            lines,
            stderr,
            program: program.clone(),
            timeout,
        })
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// The error for an engine whose output ended while awaiting `waiting_for`.
    fn crashed(&mut self, waiting_for: &str) -> EngineError {
        let until = Instant::now() + EXIT_WAIT;
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break describe_status(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(10)),
                Ok(None) => break "its output closed, still running".to_string(),
                Err(e) => break format!("status unknown: {e}"),
            }
        };
        // Let the stderr reader catch up with the last lines.
        std::thread::sleep(Duration::from_millis(20));
        let stderr = self
            .stderr
            .lock()
            .map(|k| k.iter().cloned().collect())
            .unwrap_or_default();
        EngineError::Crashed {
            waiting_for: waiting_for.to_string(),
            status,
            stderr,
        }
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let ok = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}")
                .and_then(|()| stdin.flush())
                .is_ok(),
            None => false,
        };
        if ok {
            Ok(())
        } else {
            self.stdin = None;
            Err(self.crashed(&format!("`{}` to be read", quote(line))))
        }
    }

    /// The next line, waiting until `deadline` at most.
    pub fn read_line(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
    ) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(Capped::Line(line)) => Ok(line),
            Ok(Capped::TooLong(start, _)) => Err(EngineError::Garbage {
                waiting_for: waiting_for.to_string(),
                line: quote(&start),
                reason: Garbage::TooLong,
            }),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout {
                waiting_for: waiting_for.to_string(),
                waited: left,
            }),
            Err(RecvTimeoutError::Disconnected) => Err(self.crashed(waiting_for)),
        }
    }

    /// Sends one message.
    pub fn send_message(&mut self, message: &GuiMessage) -> Result<(), EngineError> {
        self.send(&message.to_string())
    }

    /// Reads lines until one satisfies `done` (which may also reject a line as garbage by
    /// returning `Err(reason)`, which the error carries), all before `deadline`. Returns the lines read, the
    /// matching one last.
    pub fn read_until(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
        mut done: impl FnMut(&str) -> Result<bool, Garbage>,
    ) -> Result<Vec<String>, EngineError> {
        let start = Instant::now();
        let mut lines = Vec::new();
        loop {
            let line = self.read_line(deadline, waiting_for).map_err(|e| match e {
                EngineError::Timeout { waiting_for, .. } => EngineError::Timeout {
                    waiting_for,
                    waited: start.elapsed(),
                },
                e => e,
            })?;
            match done(&line) {
                Ok(true) => {
                    lines.push(line);
                    return Ok(lines);
                }
                Ok(false) => lines.push(line),
                Err(reason) => {
                    return Err(EngineError::Garbage {
                        waiting_for: waiting_for.to_string(),
                        line: quote(&line),
                        reason,
                    })
                }
            }
        }
    }

    /// `usi` ... `usiok`: what the engine says about itself. Lines that are not messages
    /// are skipped, as USI says.
    pub fn handshake(&mut self) -> Result<EngineInfo, EngineError> {
        self.send_message(&GuiMessage::Usi)?;
        let deadline = deadline_in(self.timeout);
        let mut info = EngineInfo::default();
        self.read_until(deadline, "`usiok`", |l| {
            match l.parse::<EngineMessage>() {
                Ok(EngineMessage::UsiOk) => return Ok(true),
                Ok(EngineMessage::IdName(name)) => info.name = Some(name.trim().to_string()),
                Ok(EngineMessage::IdAuthor(a)) => info.author = Some(a.trim().to_string()),
                Ok(EngineMessage::Option(decl)) => info.options.push(decl),
                Err(_) if l.split_whitespace().next() == Some("option") => {
                    info.unread_options.push(l.to_string());
                }
                _ => {}
            }
            Ok(false)
        })?;
        Ok(info)
    }

    /// `isready` ... `readyok`.
    pub fn is_ready(&mut self) -> Result<(), EngineError> {
        self.send_message(&GuiMessage::IsReady)?;
        let deadline = deadline_in(self.timeout);
        self.read_until(deadline, "`readyok`", |l| {
            Ok(l.parse::<EngineMessage>() == Ok(EngineMessage::ReadyOk))
        })?;
        Ok(())
    }

    /// `setoption name NAME value VALUE`.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.send_message(&GuiMessage::SetOption {
            name: name.to_string(),
            value: Some(value.to_string()),
        })
    }

    /// `position sfen SFEN` (with ` moves ...` when `moves` is not empty).
    pub fn position(&mut self, sfen: &str, moves: &[String]) -> Result<(), EngineError> {
        self.send_message(&GuiMessage::Position(PositionArgs {
            setup: Setup::Sfen(sfen.to_string()),
            moves: moves.to_vec(),
        }))
    }

    /// `go perft DEPTH` on the position set last, waiting until `deadline`: the divide
    /// (`move: count` lines) and the `Nodes searched: N` total, which must add up. Blank
    /// lines and `info` lines are skipped; any other line is garbage.
    pub fn perft(&mut self, depth: u32, deadline: Instant) -> Result<PerftAnswer, EngineError> {
        self.send_message(&GuiMessage::Go(Go {
            perft: Some(depth),
            ..Go::default()
        }))?;
        let mut divide = Vec::new();
        let mut nodes = None;
        self.read_until(deadline, "the perft count", |line| {
            if line.trim().is_empty() {
                return Ok(false);
            }
            match line.parse::<EngineMessage>() {
                Ok(EngineMessage::Info(_)) => Ok(false),
                Ok(EngineMessage::PerftTotal(n)) => {
                    nodes = Some(n);
                    Ok(true)
                }
                Ok(EngineMessage::PerftMove { mv, nodes }) => {
                    divide.push((mv, nodes));
                    Ok(false)
                }
                Ok(_) => Err(Garbage::Unexpected {
                    expected: PERFT_LINES,
                    error: None,
                }),
                Err(e) => Err(Garbage::Unexpected {
                    expected: PERFT_LINES,
                    error: Some(e),
                }),
            }
        })?;
        let nodes = nodes.unwrap_or(0);
        // The engine's counts may add up past u64 (garbage, not a panic).
        let sum = divide
            .iter()
            .try_fold(0u64, |sum, (_, n)| sum.checked_add(*n));
        if depth > 0 && sum != Some(nodes) {
            return Err(EngineError::Garbage {
                waiting_for: "the perft count".into(),
                line: EngineMessage::PerftTotal(nodes).to_string(),
                reason: Garbage::DivideSum(sum),
            });
        }
        Ok(PerftAnswer { divide, nodes })
    }

    /// Sends `quit` and waits up to `wait` for the engine to exit; kills it otherwise.
    pub fn quit(mut self, wait: Duration) -> Option<ExitStatus> {
        let _ = self.send_message(&GuiMessage::Quit);
        self.stdin = None;
        let until = deadline_in(wait);
        while Instant::now() < until {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }
}

/// The lines of a `go perft` answer, in words.
const PERFT_LINES: &str = "`move: count` or `Nodes searched: N`";

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_like_a_shell() {
        assert_eq!(
            split_command("'/opt/my engine/bin' --threads 1 \"a b\"").unwrap(),
            ["/opt/my engine/bin", "--threads", "1", "a b"]
        );
        assert!(matches!(
            split_command("engine 'open"),
            Err(EngineError::BadCommand(_))
        ));
        assert!(matches!(
            split_command("  "),
            Err(EngineError::BadCommand(_))
        ));
        // The reason is data; the words are those the command line has always printed.
        let e = split_command("engine 'open").unwrap_err();
        assert_eq!(
            e,
            EngineError::BadCommand(BadCommand::Unsplittable("engine 'open".into()))
        );
        assert_eq!(
            e.to_string(),
            "bad engine command: `engine 'open` does not split into words (an unclosed quote?)"
        );
        let e = split_command("").unwrap_err();
        assert_eq!(e, EngineError::BadCommand(BadCommand::Empty));
        assert_eq!(e.to_string(), "bad engine command: the command is empty");
    }

    #[test]
    fn a_missing_program_is_a_spawn_error() {
        let e = Engine::spawn("/nonexistent/engine-xyz", Duration::from_secs(1)).unwrap_err();
        assert!(
            matches!(&e, EngineError::Spawn { program, .. } if program == "/nonexistent/engine-xyz"),
            "{e}"
        );
        let EngineError::Spawn { failure, .. } = &e else {
            unreachable!()
        };
        assert_eq!(failure.kind, std::io::ErrorKind::NotFound);
        // The system's own words for its error number (ENOENT), as the message has always
        // had them.
        #[cfg(target_os = "linux")]
        assert_eq!(
            e.to_string(),
            "cannot start the engine `/nonexistent/engine-xyz`: No such file or directory \
             (os error 2)"
        );
    }
}
