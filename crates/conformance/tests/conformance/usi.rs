//! Bounded USI sessions: the protocol loop of `kshogi usi`, run in-process with a tiny
//! search budget, driven one command at a time and every answer checked.

use crate::{for_each_variant, Failures};
use kshogi_core::{Position, Variant};
use kshogi_notation::{move_to_usi, parse_usi};
use kshogi_registry::{with_variant, VariantKind};
use kshogi_usi::{serve_with, Budget, Out, SearchMode};
use std::io::{BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long any answer may take before the test gives up on it instead of hanging.
const PATIENCE: Duration = Duration::from_secs(30);

/// The loop's input: the lines the test sends, as bytes; the end of input once the test
/// drops its sender.
struct Commands {
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
struct Driver<'f> {
    tx: Option<Sender<String>>,
    rx: Receiver<String>,
    /// Everything sent and received so far, for failure messages.
    log: Vec<String>,
    f: &'f mut Failures,
    /// Set once an answer did not come: the rest of the session is skipped.
    broken: bool,
}

impl Driver<'_> {
    fn send(&mut self, line: &str) {
        self.log.push(format!("> {line}"));
        if let Some(tx) = &self.tx {
            let _ = tx.send(format!("{line}\n"));
        }
    }

    /// The next line that is not an `info` line; an `info string error:` line (the loop
    /// rejecting a command) fails.
    fn next(&mut self, waiting_for: &str) -> Option<String> {
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
    fn expect(&mut self, want: &str) {
        if let Some(l) = self.next(want) {
            if l != want {
                let log = self.transcript();
                self.f.fail(format!("expected `{want}`, got `{l}`\n{log}"));
            }
        }
    }

    /// Expects a `bestmove` that is one of the legal moves of `pos`, and returns it.
    fn bestmove<V: Variant>(&mut self, pos: &Position<V>, position_cmd: &str) -> Option<String> {
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

    fn transcript(&self) -> String {
        let start = self.log.len().saturating_sub(30);
        self.log[start..].join("\n")
    }
}

/// Runs `script` against the loop started in `initial`, in the bounded mode.
fn session(initial: VariantKind, f: &mut Failures, script: impl FnOnce(&mut Driver<'_>)) {
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
        let server = s.spawn(move || {
            serve_with(input, out, initial, SearchMode::Bounded(Budget::TINY));
        });
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

/// `usi`: the `USI_Variant` option lists `name` (and every registered variant), then `usiok`.
fn check_usi(d: &mut Driver<'_>, name: &str) {
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
            let all = VariantKind::ALL.iter().all(|k| vars.contains(&k.name()));
            d.f.check(vars.contains(&name) && all, || {
                format!("`{l}` does not list `{name}` and every registered variant\n{log}")
            });
        }
    }
}

/// `position startpos`, `go depth 2`, then the answer played and `go nodes 200`.
fn play_two<V: Variant>(d: &mut Driver<'_>) {
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

fn started_in<V: Variant>(kind: VariantKind, f: &mut Failures) {
    session(kind, f, |d| {
        check_usi(d, kind.name());
        d.send("isready");
        d.expect("readyok");
        play_two::<V>(d);
    });
}

fn switched_to<V: Variant>(kind: VariantKind, f: &mut Failures) {
    // Start in the next variant of the registry (the same one if it is the only one).
    let i = VariantKind::ALL
        .iter()
        .position(|&k| k == kind)
        .unwrap_or(0);
    let other = VariantKind::ALL[(i + 1) % VariantKind::ALL.len()];
    session(other, f, |d| {
        d.send("isready");
        d.expect("readyok");
        d.send(&format!("setoption name USI_Variant value {}", kind.name()));
        check_usi(d, kind.name());
        d.send("isready");
        d.expect("readyok");
        play_two::<V>(d);
    });
}

#[test]
fn usi_session_in_each_variant() {
    for_each_variant("usi_session_in_each_variant", |kind, f| {
        with_variant!(kind, V => started_in::<V>(kind, f));
    });
}

#[test]
fn usi_session_switching_to_each_variant() {
    for_each_variant("usi_session_switching_to_each_variant", |kind, f| {
        with_variant!(kind, V => switched_to::<V>(kind, f));
    });
}
