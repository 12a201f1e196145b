//! A scripted USI session with the `kshogi usi` binary: commands are written to its stdin one
//! at a time and every protocol answer is checked (search `info` lines, whose content
//! depends on the engine, are skipped). Tests that need a working search say so in
//! `#[ignore]`; the others pass with any correct engine.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any answer may take before the test fails instead of hanging.
const PATIENCE: Duration = Duration::from_secs(20);

struct Usi {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: std::thread::JoinHandle<String>,
}

impl Usi {
    fn start(args: &[&str]) -> Usi {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kshogi"))
            .arg("usi")
            .args(args)
            // An installed database must not answer for the search.
            .env("KSHOGI_DB", "/nonexistent/kshogi-tests/kinzoku.kdb")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the kshogi binary runs");
        let stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        });
        Usi {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            stderr,
        }
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// The next line that is not a search report (`info` without `string`), waiting at most
    /// `wait`; `None` on timeout or end of output.
    fn next_within(&self, wait: Duration) -> Option<String> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if l.starts_with("info ") && !l.starts_with("info string") => {
                    assert_search_info(&l);
                }
                Ok(l) => return Some(l),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    fn next(&self) -> String {
        self.next_within(PATIENCE)
            .expect("an answer from the engine in time")
    }

    /// Expects exactly these lines next.
    fn expect(&self, want: &[&str]) {
        for w in want {
            assert_eq!(self.next(), *w);
        }
    }

    /// Expects no protocol line for a while.
    fn expect_silence(&self, wait: Duration) {
        if let Some(l) = self.next_within(wait) {
            panic!("unexpected output: {l}");
        }
    }

    /// Expects one `info string error: ...` line and returns it.
    fn expect_error(&self) -> String {
        let l = self.next();
        assert!(l.starts_with("info string error: "), "{l}");
        l
    }

    /// Expects one `bestmove <move>` line and returns the move.
    fn bestmove(&self) -> String {
        let l = self.next();
        let mv = l
            .strip_prefix("bestmove ")
            .unwrap_or_else(|| panic!("expected bestmove, got {l}"));
        assert!(!mv.contains(' '), "{l}");
        mv.to_string()
    }

    /// Closes stdin and waits for the exit; returns the status and the remaining output.
    fn finish(mut self) -> (ExitStatus, Vec<String>, String) {
        drop(self.stdin.take());
        let started = Instant::now();
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            assert!(started.elapsed() < PATIENCE, "the engine does not exit");
            std::thread::sleep(Duration::from_millis(10));
        };
        let rest: Vec<String> = self.lines.try_iter().collect();
        let stderr = self.stderr.join().unwrap();
        (status, rest, stderr)
    }
}

/// A search report has the documented fields in order and a legal-looking PV.
fn assert_search_info(line: &str) {
    // A finished game's one line (the reference engine's).
    if line == "info depth 0 score mate 0" || line == "info depth 0 score cp 0" {
        return;
    }
    let words: Vec<&str> = line.split(' ').collect();
    let keys: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| w.chars().all(|c| c.is_ascii_lowercase()))
        .collect();
    let mut expected = vec![
        "info", "depth", "seldepth", "multipv", "score", "nodes", "nps", "time", "hashfull",
    ];
    // `score cp N` or `score mate N`.
    let kind = words
        .iter()
        .position(|&w| w == "score")
        .and_then(|i| words.get(i + 1))
        .copied()
        .unwrap_or("");
    assert!(kind == "cp" || kind == "mate", "{line}");
    expected.insert(5, kind);
    assert_eq!(&keys[..expected.len()], expected.as_slice(), "{line}");
}

/// The legal moves of a position, from `kshogi moves`.
fn legal_moves(variant: &str, position: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_kshogi"))
        .args(["moves", "--variant", variant, position])
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// ` var <name>` for each registered variant and its one-word aliases (the reference
/// engine's names are among them), in the registry's order (the list itself is the
/// registry's; the conformance suite checks each variant is offered).
fn registered_vars() -> String {
    kshogi_registry::VariantKind::ALL
        .iter()
        .flat_map(|k| {
            std::iter::once(k.name()).chain(
                k.info()
                    .aliases
                    .iter()
                    .copied()
                    .filter(|a| !a.contains('-')),
            )
        })
        .map(|n| format!(" var {n}"))
        .collect()
}

fn handshake(usi: &mut Usi, default_variant: &str) {
    usi.send("usi");
    usi.expect(&[
        &format!("id name kshogi {}", env!("CARGO_PKG_VERSION")),
        "id author The kshogi developers",
        &format!(
            "option name USI_Variant type combo default {default_variant}{}",
            registered_vars()
        ),
        "option name USI_Hash type spin default 16 min 1 max 4096",
        "option name USI_MultiPV type spin default 1 min 1 max 32",
        "option name Threads type spin default 1 min 1 max 512",
        "option name Move_Overhead type spin default 10 min 0 max 5000",
        "option name USI_Ponder type check default false",
        "option name Dialect type combo default canonical var canonical var fsf",
        "option name Clear_Hash type button",
        "option name USI_AnalyseMode type check default false",
        "option name Skill_Level type spin default 20 min -20 max 20",
        "option name USI_LimitStrength type check default false",
        "option name USI_Elo type spin default 1350 min 500 max 2850",
        "option name USI_ShowWDL type check default false",
        "option name USI_Chess960 type check default false",
        "option name VariantPath type string default <empty>",
        "usiok",
    ]);
    usi.send("isready");
    usi.expect(&["readyok"]);
}

mod limits;
mod sessions;
