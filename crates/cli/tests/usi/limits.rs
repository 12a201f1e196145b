//! Limits: many threads, a large table, a mate that ends the deepening.

use super::*;

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
