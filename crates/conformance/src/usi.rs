//! Bounded USI sessions: the protocol loop of `kshogi usi`, run in-process with a tiny
//! search budget, driven one command at a time and every answer checked.
//!
//! [`usi_session`] runs the session of one variant (the loop of
//! [`kshogi_usi::serve_variant`]); [`session`], [`check_usi`] and [`play_two`] are its
//! parts, for sessions of a loop started otherwise (the registry's, which switches
//! variants).

use crate::Failures;
use kshogi_core::{Position, Variant};
use kshogi_notation::{move_to_usi, parse_usi};
use kshogi_registry::Registered;
use kshogi_usi::{serve_variant, Budget, Out, SearchMode, VariantConfig};
use std::io::{BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long any answer may take before the test gives up on it instead of hanging.
const PATIENCE: Duration = Duration::from_secs(30);

/// The loop's input: the lines the test sends, as bytes; the end of input once the test
/// drops its sender.
pub struct Commands {
    rx: Receiver<String>,
    pending: Vec<u8>,
    at: usize,
}

impl Read for Commands {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.pending.len() {
            match self.rx.recv() {
                Ok(line) => {
                    self.pending = line.into_bytes();
                    self.at = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The loop's output, cut into lines for the test.
struct Answers {
    tx: Sender<String>,
    partial: Vec<u8>,
}

impl Write for Answers {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                let line = String::from_utf8_lossy(&self.partial).into_owned();
                self.partial.clear();
                let _ = self.tx.send(line);
            } else {
                self.partial.push(b);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The test's end of a session.
pub struct Driver<'f> {
    tx: Option<Sender<String>>,
    rx: Receiver<String>,
    /// Everything sent and received so far, for failure messages.
    log: Vec<String>,
    f: &'f mut Failures,
    /// Set once an answer did not come: the rest of the session is skipped.
    broken: bool,
}

impl Driver<'_> {
    /// Sends one line (the line end is added).
    pub fn send(&mut self, line: &str) {
        self.log.push(format!("> {line}"));
        if let Some(tx) = &self.tx {
            let _ = tx.send(format!("{line}\n"));
        }
    }

    /// The next line that is not an `info` line; an `info string error:` line (the loop
    /// rejecting a command) fails.
    pub fn next(&mut self, waiting_for: &str) -> Option<String> {
        if self.broken {
            return None;
        }
        loop {
            match self.rx.recv_timeout(PATIENCE) {
                Ok(l) => {
                    self.log.push(format!("< {l}"));
                    if l.starts_with("info string error") {
                        let log = self.transcript();
                        self.f.fail(format!("unexpected `{l}`\n{log}"));
                    } else if !l.starts_with("info ") {
                        return Some(l);
                    }
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                    let log = self.transcript();
                    self.f
                        .fail(format!("no answer while waiting for {waiting_for}\n{log}"));
                    self.broken = true;
                    return None;
                }
            }
        }
    }

    /// Expects exactly `want` as the next line.
    pub fn expect(&mut self, want: &str) {
        if let Some(l) = self.next(want) {
            if l != want {
                let log = self.transcript();
                self.f.fail(format!("expected `{want}`, got `{l}`\n{log}"));
            }
        }
    }

    /// Expects a `bestmove` that is one of the legal moves of `pos`, and returns it.
    pub fn bestmove<V: Variant>(
        &mut self,
        pos: &Position<V>,
        position_cmd: &str,
    ) -> Option<String> {
        let l = self.next("bestmove")?;
        let legal: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|&m| move_to_usi::<V>(m))
            .collect();
        let mv = l.strip_prefix("bestmove ").map(str::to_string);
        match mv {
            Some(mv) if legal.contains(&mv) && parse_usi(pos, &mv).is_ok() => Some(mv),
            _ => {
                let log = self.transcript();
                self.f.fail(format!(
                    "after `{position_cmd}` (position `{}`): `{l}` is not `bestmove` with one \
                     of the legal moves {}\n{log}",
                    kshogi_notation::to_sfen(pos),
                    legal.join(" ")
                ));
                None
            }
        }
    }

    /// The last lines sent and received, for a failure message.
    pub fn transcript(&self) -> String {
        let start = self.log.len().saturating_sub(30);
        self.log[start..].join("\n")
    }

    /// The failures of the session, to record more.
    pub fn failures(&mut self) -> &mut Failures {
        self.f
    }
}

/// Runs `script` against a USI loop that `serve` starts on the given input and output
/// (best in the bounded mode, [`Budget::TINY`], so that the session is quick and its
/// answers depend on its input alone), then sends `quit` and ends the input; a loop that
/// panics, or an answer that does not come within 30 seconds, is a failure.
pub fn session(
    f: &mut Failures,
    serve: impl FnOnce(BufReader<Commands>, &Out) + Send,
    script: impl FnOnce(&mut Driver<'_>),
) {
    let (cmd_tx, cmd_rx) = mpsc::channel::<String>();
    let (out_tx, out_rx) = mpsc::channel::<String>();
    let out: Out = Arc::new(Mutex::new(Answers {
        tx: out_tx,
        partial: Vec::new(),
    }));
    let input = BufReader::new(Commands {
        rx: cmd_rx,
        pending: Vec::new(),
        at: 0,
    });
    std::thread::scope(|s| {
        let out = &out;
        let server = s.spawn(move || serve(input, out));
        let mut d = Driver {
            tx: Some(cmd_tx),
            rx: out_rx,
            log: Vec::new(),
            f,
            broken: false,
        };
        script(&mut d);
        d.send("quit");
        // End of input as well, in case `quit` was not taken.
        d.tx = None;
        let log = d.transcript();
        if server.join().is_err() {
            d.f.fail(format!("the USI loop panicked\n{log}"));
        }
    });
}

/// `usi`: the `USI_Variant` option lists `name` and every name of `all`, then `usiok`.
pub fn check_usi(d: &mut Driver<'_>, name: &str, all: &[&str]) {
    d.send("usi");
    let mut option = None;
    loop {
        let Some(l) = d.next("usiok") else { return };
        if l == "usiok" {
            break;
        }
        if l.starts_with("option name USI_Variant ") {
            option = Some(l);
        }
    }
    let log = d.transcript();
    match option {
        None => {
            d.f.fail(format!("`usi` shows no USI_Variant option\n{log}"))
        }
        Some(l) => {
            let vars: Vec<&str> = l
                .split(" var ")
                .skip(1)
                .map(|v| v.split_whitespace().next().unwrap_or(""))
                .collect();
            let every = all.iter().all(|n| vars.contains(n));
            d.f.check(vars.contains(&name) && every, || {
                format!("`{l}` does not list `{name}` and every one of {all:?}\n{log}")
            });
        }
    }
}

/// `position startpos`, `go depth 2`, then the answer played and `go nodes 200`; each
/// `bestmove` must be legal.
pub fn play_two<V: Variant>(d: &mut Driver<'_>) {
    let start = Position::<V>::start();
    d.send("position startpos");
    d.send("go depth 2");
    let Some(mv) = d.bestmove(&start, "position startpos") else {
        return;
    };
    let Ok(m) = parse_usi(&start, &mv) else {
        return;
    };
    let cmd = format!("position startpos moves {mv}");
    d.send(&cmd);
    d.send("go nodes 200");
    d.bestmove(&start.after(m), &cmd);
}

/// The USI session of `V` alone ([`kshogi_usi::serve_variant`], bounded): `usi` lists `V`
/// as `USI_Variant`, `isready`, then [`play_two`]; every answer is checked and recorded in `f`.
pub fn usi_session<V: Registered>(f: &mut Failures) {
    let config = VariantConfig {
        mode: SearchMode::Bounded(Budget::TINY),
        ..VariantConfig::default()
    };
    session(
        f,
        |input, out| serve_variant::<V, _>(input, out, &config),
        |d| {
            check_usi(d, V::NAME, &[V::NAME]);
            d.send("isready");
            d.expect("readyok");
            play_two::<V>(d);
        },
    );
}
