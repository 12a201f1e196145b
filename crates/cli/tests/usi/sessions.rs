//! Scripted sessions: the protocol, clocks, mates and databases.

use super::*;

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
