//! A scripted USI session with the `kshogi usi` binary: commands are written to its stdin one
//! at a time and every protocol answer is checked (search `info` lines, whose content
//! depends on the engine, are skipped). Tests that need a working search say so in
//! `#[ignore]`; the others pass with any correct engine.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
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

/// The handshake as the USI library writes it for a session that starts in
/// `default_variant`: `kshogi_usi`'s own tests check it line by line against an expectation
/// written by hand (`session/tests/options.rs`); here the binary must print the same.
fn library_handshake(default_variant: &str) -> Vec<String> {
    let kind = kshogi_registry::VariantKind::from_name(default_variant)
        .unwrap_or_else(|| panic!("{default_variant} is not registered"));
    let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
    let out: kshogi_usi::Out = buf.clone();
    let config = kshogi_usi::Config {
        variant: Some(kind),
        // As the binary runs it; `usi` starts no search.
        mode: kshogi_usi::SearchMode::Threaded,
        databases: kshogi_usi::Databases::none(),
        dialect: None,
    };
    kshogi_usi::serve_config(&b"usi\n"[..], &out, &config);
    let bytes = buf.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// `usi` and `isready`: the binary answers with the library's handshake, in which what the
/// command line contributes shows: the program and its version, and the variant it was
/// started in (`--variant`, else the registry's first) as `USI_Variant`'s default, among
/// every registered variant.
fn handshake(usi: &mut Usi, default_variant: &str) {
    let expected = library_handshake(default_variant);
    assert_eq!(
        expected.first().map(String::as_str),
        Some(format!("id name kshogi {}", env!("CARGO_PKG_VERSION")).as_str())
    );
    let variant_line = format!(
        "option name USI_Variant type combo default {default_variant}{}",
        registered_vars()
    );
    assert!(expected.contains(&variant_line), "{expected:?}");
    assert_eq!(expected.last().map(String::as_str), Some("usiok"));
    usi.send("usi");
    let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
    usi.expect(&expected);
    usi.send("isready");
    usi.expect(&["readyok"]);
}

mod limits;
mod sessions;
