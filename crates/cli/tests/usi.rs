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

#[test]
fn scripted_session() {
    let mut usi = Usi::start(&[]);
    handshake(&mut usi, "kyoto");
    usi.send("setoption name USI_Hash value 8");
    usi.send("usinewgame");

    // Garbage of several kinds: each gets one error line.
    usi.send("hello world");
    assert!(usi.expect_error().contains("unknown command `hello`"));
    usi.send_bytes(b"\xff\xfe garbage\n");
    assert!(usi.expect_error().contains("UTF-8"));
    let long = format!("position startpos moves {}", "1e1d+ ".repeat(12_000));
    usi.send(&long);
    assert!(usi.expect_error().contains("bytes ignored"));
    usi.send("setoption name NoSuchOption value 3");
    assert!(usi.expect_error().contains("unknown option"));
    usi.send("setoption name MultiPV value 99");
    usi.expect_error();
    usi.send("setoption USI_Hash 3");
    usi.expect_error();
    usi.send("go depth two");
    usi.expect_error();
    usi.send("go wtime 1000 btime 1000 sideways");
    usi.expect_error();
    usi.send("isready now");
    usi.expect_error();

    // A good position, then bad ones: each is an error and leaves no position, so `go`
    // answers `bestmove resign`; the next good position is used again.
    let good = "startpos moves 1e1d+";
    let white_moves = legal_moves("kyoto", good);
    usi.send(&format!("position {good}"));
    usi.send("position startpos moves 1e1d+ 9z9z");
    let e = usi.expect_error();
    assert!(e.contains("9z9z") && e.contains("column 31"), "{e}");
    usi.send("position sfen pgkst/5/5/5/TSKGX b - 1");
    usi.expect_error();
    usi.send("position startpos moves 1e1d+ 5a5b+ 5a5b+");
    usi.expect_error();
    usi.send("position");
    usi.expect_error();
    usi.send("position fen whatever");
    usi.expect_error();
    usi.send("go depth 1");
    assert!(usi.expect_error().contains("no position"));
    assert_eq!(usi.bestmove(), "resign");
    usi.send(&format!("position {good}"));
    usi.send("go depth 1");
    let mv = usi.bestmove();
    assert!(
        white_moves.contains(&mv),
        "{mv} is not a White move after 1e1d+"
    );
    usi.send("setoption name MultiPV value 2");
    usi.send("go depth 2");
    let mv = usi.bestmove();
    assert!(white_moves.contains(&mv), "{mv}");
    usi.send("setoption name MultiPV value 1");

    // `go infinite`: no answer until `stop`; `isready` is answered meanwhile.
    usi.send("position startpos");
    usi.send("go infinite");
    usi.send("isready");
    usi.expect(&["readyok"]);
    usi.expect_silence(Duration::from_millis(300));
    let sent = Instant::now();
    usi.send("stop");
    let mv = usi.bestmove();
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "{:?}",
        sent.elapsed()
    );
    assert!(legal_moves("kyoto", "startpos").contains(&mv), "{mv}");
    // `stop` with nothing running and `ponderhit` say nothing.
    usi.send("stop");
    usi.send("ponderhit");
    usi.expect_silence(Duration::from_millis(100));

    // Games that are over: resign when lost, win when already won.
    usi.send("position sfen 4k/2S2/3G1/5/K4 w - 1");
    usi.send("go depth 1");
    assert_eq!(usi.bestmove(), "resign");
    usi.send("position sfen k4/5/1S3/5/4K b G 9 moves G*5b");
    usi.send("go btime 1000 wtime 1000 byoyomi 1000");
    assert_eq!(usi.bestmove(), "resign");
    usi.send("setoption name USI_Variant value kinzokushogi");
    usi.send("position sfen K1k/3/3/3/3 b - 1");
    usi.send("go depth 1");
    assert_eq!(usi.bestmove(), "win");
    usi.send("go mate 500");
    usi.expect(&["checkmate nomate"]);

    // The variant switch took: Kinzoku moves from its start.
    usi.send("position startpos");
    usi.send("go depth 1");
    let mv = usi.bestmove();
    assert!(legal_moves("kinzoku", "startpos").contains(&mv), "{mv}");
    usi.send("setoption name USI_Variant value chess");
    usi.expect_error();
    usi.send("gameover win");
    usi.send("quit");
    let (status, rest, stderr) = usi.finish();
    assert!(status.success(), "{status:?} {stderr}");
    assert!(rest.is_empty(), "{rest:?}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn each_go_gets_one_bestmove_and_eof_quits() {
    let mut usi = Usi::start(&["--variant", "micro"]);
    handshake(&mut usi, "micro");
    usi.send("position startpos");
    // Two `go` in a row: the second finishes the first, so two answers.
    usi.send("go depth 2");
    usi.send("go depth 1");
    usi.bestmove();
    usi.bestmove();
    // End of input during `go infinite`: the search is stopped, answered, and the program
    // exits.
    usi.send("go infinite");
    let (status, rest, stderr) = usi.finish();
    assert!(status.success(), "{status:?} {stderr}");
    let answers: Vec<&String> = rest
        .iter()
        .filter(|l| !l.starts_with("info ") || l.starts_with("info string"))
        .collect();
    assert_eq!(answers.len(), 1, "{rest:?}");
    assert!(answers[0].starts_with("bestmove "), "{rest:?}");
}

#[test]
fn clock_times_are_respected() {
    let mut usi = Usi::start(&[]);
    handshake(&mut usi, "kyoto");
    usi.send("position startpos moves 1e1d+");
    // One second left and no byoyomi: the engine must answer well within it.
    let sent = Instant::now();
    usi.send("go btime 1000 wtime 1000");
    usi.bestmove();
    assert!(
        sent.elapsed() < Duration::from_millis(1000),
        "{:?}",
        sent.elapsed()
    );
    // Byoyomi only.
    let sent = Instant::now();
    usi.send("go btime 0 wtime 0 byoyomi 2000");
    usi.bestmove();
    assert!(
        sent.elapsed() < Duration::from_millis(2000),
        "{:?}",
        sent.elapsed()
    );
    // movetime: the engine aims at 10 ms less (Move_Overhead); allow more than that here, as the
    // test measures a debug build end to end on a machine that may be busy.
    let sent = Instant::now();
    usi.send("go movetime 500");
    usi.bestmove();
    assert!(
        sent.elapsed() < Duration::from_millis(650),
        "{:?}",
        sent.elapsed()
    );
    // go mate with a time limit answers within it.
    let sent = Instant::now();
    usi.send("go mate 500");
    let answer = usi.next();
    assert!(
        sent.elapsed() < Duration::from_millis(1500),
        "{:?}",
        sent.elapsed()
    );
    assert!(answer.starts_with("checkmate "), "{answer}");
    if !matches!(answer.as_str(), "checkmate nomate" | "checkmate timeout") {
        let moves = answer.strip_prefix("checkmate ").unwrap();
        let line = format!("startpos moves 1e1d+ {moves}");
        assert!(legal_moves("kyoto", &line).is_empty(), "{answer}");
    }
    usi.send("quit");
    let (status, _, stderr) = usi.finish();
    assert!(status.success(), "{stderr}");
}

#[test]
fn mate_in_one_over_usi() {
    let mut usi = Usi::start(&[]);
    handshake(&mut usi, "kyoto");
    // Black to move with a Gold in hand: G*5b mates (hand-checked; see tests/analyze.rs), and
    // a drop on 3a stalemates, also a win: the search scores its move `mate 1`.
    let pos = "sfen k4/5/1S3/5/4K b G 9";
    usi.send(&format!("position {pos}"));
    usi.send("go depth 3");
    let mut last_info = String::new();
    let mv = loop {
        let l = usi.lines.recv_timeout(PATIENCE).expect("output");
        if let Some(mv) = l.strip_prefix("bestmove ") {
            break mv.to_string();
        }
        if l.starts_with("info depth") {
            last_info = l;
        }
    };
    assert!(last_info.contains(" score mate 1 "), "{last_info}");
    let after = format!("k4/5/1S3/5/4K b G 9 moves {mv}");
    assert!(
        legal_moves("kyoto", &after).is_empty(),
        "{mv} does not win at once"
    );
    usi.send("go mate 5000");
    let answer = usi.next();
    let moves = answer
        .strip_prefix("checkmate ")
        .unwrap_or_else(|| panic!("{answer}"));
    assert_ne!(moves, "nomate");
    assert_ne!(moves, "timeout");
    let after = format!("k4/5/1S3/5/4K b G 9 moves {moves}");
    assert!(legal_moves("kyoto", &after).is_empty(), "{answer}");
    usi.send("quit");
    let (status, _, _) = usi.finish();
    assert!(status.success());
}

#[test]
fn a_database_that_cannot_be_used_is_an_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_kshogi"))
        .args(["usi", "--db", "/nonexistent/kshogi-tests/none.kdb"])
        .stdin(Stdio::null())
        .output()
        .expect("the kshogi binary runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: "), "{stderr}");
}

#[test]
fn hundreds_of_threads_answer_within_the_time_given() {
    // 512 threads (the documented maximum, as the reference engine's) on a machine with a
    // few cores: `go movetime 200` answers within its time plus a reaction time (no answer
    // in 50 s before at most the machine's hardware threads were started), and `isready`
    // and `stop` are answered at once meanwhile.
    let mut usi = Usi::start(&[]);
    handshake(&mut usi, "kyoto");
    usi.send("setoption name Threads value 512");
    let sent = Instant::now();
    usi.send("isready");
    usi.expect(&["readyok"]);
    assert!(
        sent.elapsed() < Duration::from_millis(500),
        "{:?}",
        sent.elapsed()
    );
    usi.send("position startpos");
    let sent = Instant::now();
    usi.send("go movetime 200");
    usi.bestmove();
    // 200 ms and a reaction time allowed for a test build on a busy 2-core machine.
    assert!(
        sent.elapsed() < Duration::from_millis(700),
        "{:?}",
        sent.elapsed()
    );
    usi.send("go infinite");
    let sent = Instant::now();
    usi.send("isready");
    usi.expect(&["readyok"]);
    usi.send("stop");
    usi.bestmove();
    assert!(
        sent.elapsed() < Duration::from_millis(500),
        "{:?}",
        sent.elapsed()
    );
    usi.send("go infinite");
    let sent = Instant::now();
    let (status, _, stderr) = usi.finish();
    assert!(status.success(), "{stderr}");
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "{:?}",
        sent.elapsed()
    );
}

#[test]
fn a_large_hash_is_ready_at_once_and_perft_does_not_block_the_loop() {
    let mut usi = Usi::start(&[]);
    handshake(&mut usi, "kyoto");
    // 4 GiB of table: `isready` and the first searches answer without waiting for the
    // whole table to be written (the reference engine takes 26 s to answer this `isready`
    // on the development machine; kshogi's first `go` took 10 to 20 s).
    let sent = Instant::now();
    usi.send("setoption name USI_Hash value 4096");
    usi.send("setoption name USI_Variant value minishogi");
    usi.send("isready");
    usi.expect(&["readyok"]);
    assert!(
        sent.elapsed() < Duration::from_secs(1),
        "{:?}",
        sent.elapsed()
    );
    usi.send("position startpos");
    let sent = Instant::now();
    usi.send("go depth 2");
    usi.bestmove();
    usi.send("go movetime 100");
    usi.bestmove();
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "{:?}",
        sent.elapsed()
    );
    // `go perft 12` counts for hours: the loop still answers, and `stop` ends the count.
    usi.send("go perft 12");
    let sent = Instant::now();
    usi.send("isready");
    usi.expect(&["readyok"]);
    usi.send("stop");
    let l = usi.next();
    assert_eq!(
        l,
        "info string error: go perft 12 stopped before the count was complete"
    );
    assert!(
        sent.elapsed() < Duration::from_secs(1),
        "{:?}",
        sent.elapsed()
    );
    // And the end of input ends it too.
    usi.send("go perft 12");
    let sent = Instant::now();
    let (status, _, stderr) = usi.finish();
    assert!(status.success(), "{stderr}");
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "{:?}",
        sent.elapsed()
    );
}

#[test]
fn a_mate_found_ends_the_deepening() {
    // Black mates in one (G*5b, see `mate_in_one_over_usi`): with only a time limit the
    // search stops deepening once the mate is settled, instead of printing one line per
    // depth up to 100 in no time, and answers long before its time is up.
    let mut usi = Usi::start(&[]);
    handshake(&mut usi, "kyoto");
    usi.send("position sfen k4/5/1S3/5/4K b G 9");
    let sent = Instant::now();
    usi.send("go movetime 5000");
    let mut infos = 0;
    loop {
        let l = usi.lines.recv_timeout(PATIENCE).expect("output");
        if l.starts_with("bestmove ") {
            break;
        }
        if l.starts_with("info depth") {
            assert!(l.contains(" score mate 1 "), "{l}");
            infos += 1;
        }
    }
    assert!(infos <= 3, "{infos} info lines");
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "{:?}",
        sent.elapsed()
    );
    // A finished game: its score, then `bestmove resign` (the reference engine's answer).
    usi.send("position sfen k4/5/1S3/5/4K b G 9 moves G*5b");
    usi.send("go movetime 1000");
    assert_eq!(
        usi.lines.recv_timeout(PATIENCE).unwrap(),
        "info depth 0 score mate 0"
    );
    assert_eq!(usi.next(), "bestmove resign");
    // `go mate -5` names the value; a movetime above a week is refused as a depth above
    // 100 is.
    usi.send("go mate -5");
    let e = usi.expect_error();
    assert!(e.contains("`go mate`") && e.contains("`-5`"), "{e}");
    usi.send("go movetime 99999999999999");
    let e = usi.expect_error();
    assert!(e.contains("`99999999999999`"), "{e}");
    usi.send("quit");
    let (status, _, _) = usi.finish();
    assert!(status.success());
}
