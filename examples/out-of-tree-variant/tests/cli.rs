//! The `pocket` binary: kshogi's commands for Pocket Shogi, driven as a user would. The
//! expected values are worked out from the rules (see perft.tsv for the start's counts).

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

fn pocket(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pocket"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("pocket runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8")
}

/// The moves of the start, worked out by hand (perft.tsv): the guard 3d-3c, the king to
/// 3c, 2c or 1c, the ferz 1d-2c; sorted by their text.
const START_MOVES: [&str; 5] = ["1d2c", "2d1c", "2d2c", "2d3c", "3d3c"];

#[test]
fn perft_counts_the_start() {
    // 15 leaves at depth 2: perft.tsv, by hand.
    let o = pocket(&["perft", "startpos", "2"]);
    assert!(o.status.success(), "{o:?}");
    assert_eq!(stdout(&o).lines().next(), Some("nodes 15"));
    // The variant may be named, in any case, by its name or alias.
    let o = pocket(&[
        "perft",
        "--variant",
        "PocketShogi",
        "--json",
        "startpos",
        "1",
    ]);
    assert!(o.status.success(), "{o:?}");
    assert!(
        stdout(&o)
            .starts_with(r#"{"variant":"pocket","sfen":"fkg/3/3/GKF b - 1","depth":1,"nodes":5,"#),
        "{}",
        stdout(&o)
    );
}

#[test]
fn moves_lists_the_start_moves() {
    let o = pocket(&["moves", "startpos"]);
    assert!(o.status.success(), "{o:?}");
    assert_eq!(stdout(&o).lines().collect::<Vec<_>>(), START_MOVES);
}

#[test]
fn show_draws_the_board() {
    let o = pocket(&["show", "--json", "startpos moves 2d2c"]);
    assert!(o.status.success(), "{o:?}");
    let text = stdout(&o);
    // After the king's step 2d-2c: White's rank a unchanged, the king on 2c, rank d without it.
    assert!(text.contains(r#""sfen":"fkg/3/1K1/G1F w - 2""#), "{text}");
    // The diagram: files 3 to 1, White's pieces in lowercase on rank a, Black's on rank d.
    let o = pocket(&["show", "startpos"]);
    assert!(o.status.success(), "{o:?}");
    let text = stdout(&o);
    assert!(text.contains("|  f   k   g  | a"), "{text}");
    assert!(text.contains("|  G   K   F  | d"), "{text}");
}

#[test]
fn analyze_gives_a_legal_best_move() {
    let o = pocket(&["analyze", "--depth", "4", "--json", "startpos"]);
    assert!(o.status.success(), "{o:?}");
    let text = stdout(&o);
    assert!(text.contains(r#""legal_moves":5"#), "{text}");
    assert!(
        START_MOVES
            .iter()
            .any(|m| text.contains(&format!(r#""pv":["{m}""#))),
        "{text}"
    );
}

#[test]
fn review_judges_every_move_of_a_game() {
    // One move played from the start, so the review has one ply, by the mover (Black).
    let o = pocket(&["review", "--depth", "2", "--json", "startpos moves 2d2c"]);
    assert!(o.status.success(), "{o:?}");
    let text = stdout(&o);
    assert!(text.contains(r#""variant":"pocket""#), "{text}");
    assert!(text.contains(r#""moves":1,"#), "{text}");
    assert!(text.contains(r#""side":"black","move":"2d2c""#), "{text}");
    // kshogi solves no database of a variant outside it: a usage error, exit status 2.
    let o = pocket(&["review", "--db", "pocket.kdb", "startpos"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--db: kshogi solves no database of pocket"), "{err}");
}

#[test]
fn usi_answers_go_with_a_legal_move() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pocket"))
        .arg("usi")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("pocket usi starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"usi\nisready\nposition startpos\ngo depth 2\n")
        .expect("commands sent");
    // End of input ends the engine once the search has answered.
    let o = child.wait_with_output().expect("pocket usi ends");
    assert!(o.status.success(), "{o:?}");
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.contains(
            &"option name USI_Variant type combo default pocket var pocket var pocketshogi"
        ),
        "{text}"
    );
    assert!(
        lines.contains(&"usiok") && lines.contains(&"readyok"),
        "{text}"
    );
    let best = lines
        .last()
        .and_then(|l| l.strip_prefix("bestmove "))
        .expect(&text);
    assert!(
        START_MOVES.contains(&best),
        "{best} is not a legal start move: {text}"
    );
}

#[test]
fn another_variant_and_bad_input_are_errors() {
    let o = pocket(&["perft", "--variant", "kyoto", "startpos", "1"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("kyoto") && err.contains("pocket"), "{err}");
    // A 5x5 board is no Pocket Shogi position: wrong input, exit status 1.
    let o = pocket(&["moves", "pgkst/5/5/5/TSKGP b - 1"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).starts_with("error: "),
        "{o:?}"
    );
    assert!(o.stdout.is_empty());
}
