//! Runs `kshogi analyze` (and the hidden `kshogi selfplay`) and checks the output against
//! positions worked out by hand. Tests that need a working search say so in `#[ignore]`;
//! the others pass with any correct engine.

use std::process::{Command, Output};

fn kshogi(args: &[&str]) -> Output {
    // These tests are about the search: a Kinzoku database installed on the machine (see
    // `kshogi solve`) must not answer for it. tests/solve/ tests the database.
    Command::new(env!("CARGO_BIN_EXE_kshogi"))
        .args(args)
        .env("KSHOGI_DB", "/nonexistent/kshogi-tests/kinzoku.kdb")
        .env_remove("NO_COLOR")
        .output()
        .expect("the kshogi binary runs")
}

/// Runs a command that must succeed and returns its stdout.
fn ok(args: &[&str]) -> String {
    let out = kshogi(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    assert!(stderr.is_empty(), "{args:?} wrote to stderr: {stderr}");
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// Runs a command that must fail on bad input: exit 1, one `error:` line, no stdout.
fn bad_input(args: &[&str]) -> String {
    let out = kshogi(args);
    let stderr = String::from_utf8(out.stderr).expect("stderr is UTF-8");
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    stderr.trim_end().to_string()
}

fn json(text: &str) -> serde_json::Value {
    assert_eq!(text.lines().count(), 1, "one line of JSON expected: {text}");
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// The fields of a JSON object, in order.
fn keys(text: &str) -> Vec<String> {
    // serde_json's Value sorts keys, so read the order from the text: every `"key":` at
    // nesting depth 1.
    let mut out = Vec::new();
    let mut depth = 0;
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            '"' => {
                let start = i + 1;
                let mut end = text.len();
                while let Some((j, d)) = chars.next() {
                    if d == '\\' {
                        chars.next();
                    } else if d == '"' {
                        end = j;
                        break;
                    }
                }
                if depth == 1 && text[end..].starts_with("\":") {
                    out.push(text[start..end].to_string());
                }
            }
            _ => {}
        }
    }
    out
}

// Hand-checked Kyoto checkmate (the same as in the `show` tests): after G*5b White's King on
// 5a is in check from the Gold, which covers 4a and 4b; 5b is guarded by Black's Silver on 4c,
// so the King cannot take it. White has no hand. Black wins by checkmate.
const MATE: &str = "k4/5/1S3/5/4K b G 9 moves G*5b";

// Hand-checked Kyoto stalemate: White (to move) has only its King on 1a and an empty hand.
// Its squares 2a (Silver on 3b, diagonally forward), 1b and 2b (Gold on 2c, diagonally
// forward and forward) are covered; nothing attacks 1a. No legal move and not in check: in
// Kyoto the side to move loses, so Black wins by stalemate.
const STALEMATE: &str = "4k/2S2/3G1/5/K4 w - 1";

// Kinzoku: Black's King already stands on 3a, its farthest rank: Black has won by king entry
// (a position with a king on its farthest rank is terminal). The Kings are two files apart.
const ENTERED: &str = "K1k/3/3/3/3 w - 1";

// Kyoto, Black to move with a Gold in hand: G*5b mates at once (see MATE), so the best line
// is a mate in 1 ply.
const MATE_IN_ONE: &str = "k4/5/1S3/5/4K b G 9";

#[test]
fn finished_games_report_the_result_and_no_lines() {
    let cases = [
        (MATE, "kyoto", "black wins by checkmate"),
        (STALEMATE, "kyoto", "black wins by stalemate"),
        (ENTERED, "kinzoku", "black wins by king entry"),
    ];
    for (pos, variant, status) in cases {
        // `show` agrees on the status.
        let shown = json(&ok(&["show", "--json", pos]));
        assert_eq!(shown["status"], status, "{pos}");
        let text = ok(&["analyze", "--json", "--depth", "3", pos]);
        let v = json(&text);
        assert_eq!(v["variant"], variant, "{pos}");
        assert_eq!(v["status"], status, "{pos}");
        assert_eq!(v["legal_moves"], 0, "{pos}");
        assert_eq!(v["lines"], serde_json::json!([]), "{pos}");
        assert_eq!(v["game_over"], true, "{pos}");
        assert_eq!(v["sfen"], shown["sfen"], "{pos}");
        // Without a limit the answer is immediate too.
        let text = ok(&["analyze", "--color", "never", pos]);
        assert!(text.contains(&format!("\nstatus: {status}\n")), "{text}");
        assert!(text.contains("\nlegal moves: 0\n"), "{text}");
        assert!(!text.contains("line 1:"), "{text}");
    }
}

#[test]
fn json_has_the_documented_fields_in_order() {
    let text = ok(&[
        "analyze",
        "--json",
        "--variant",
        "micro",
        "--depth",
        "2",
        "--mate-nodes",
        "1000",
        "startpos",
    ]);
    let v = json(&text);
    let k = keys(&text);
    assert_eq!(
        &k[..6],
        ["variant", "sfen", "status", "legal_moves", "lines", "nps"],
        "{text}"
    );
    assert_eq!(v["variant"], "micro");
    assert_eq!(v["sfen"], "kbgs/p3/4/3P/SGBK b - 1");
    assert_eq!(v["status"], "ongoing");
    // 9 = perft depth 1 of the Micro start.
    assert_eq!(v["legal_moves"], 9);
    assert_eq!(v["game_over"], false);
    assert!(v["nps"].is_u64() && v["nodes"].is_u64() && v["time_ms"].is_u64());
    let word = v["mate_search"].as_str().unwrap();
    assert!(["mate", "nomate", "unknown"].contains(&word), "{word}");
}

/// Every line (if the engine gave any) is well formed: the move starts the PV, the PV is a
/// legal sequence from the position, the KIF PV has one entry per move, and the score is
/// `{"cp": n}` or `{"mate": n}`.
fn check_lines(variant: &str, pos: &str, v: &serde_json::Value) {
    let lines = v["lines"].as_array().expect("lines is an array");
    for line in lines {
        let pv: Vec<&str> = line["pv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert!(!pv.is_empty(), "{line}");
        assert_eq!(line["move"], pv[0], "{line}");
        assert_eq!(line["pv_kif"].as_array().unwrap().len(), pv.len(), "{line}");
        let score = line["score"].as_object().unwrap();
        assert_eq!(score.len(), 1, "{line}");
        assert!(
            score.get("cp").is_some_and(|n| n.is_i64())
                || score.get("mate").is_some_and(|n| n.is_i64()),
            "{line}"
        );
        assert!(line["depth"].is_u64() && line["nodes"].is_u64(), "{line}");
        // The moves replay legally (`show` rejects an illegal move with exit 1).
        let replay = if pos.contains(" moves") {
            format!("{pos} {}", pv.join(" "))
        } else {
            format!("{pos} moves {}", pv.join(" "))
        };
        ok(&["show", "--json", "--variant", variant, &replay]);
    }
    // The lines start with different moves.
    let mut firsts: Vec<&str> = lines.iter().map(|l| l["move"].as_str().unwrap()).collect();
    firsts.sort_unstable();
    firsts.dedup();
    assert_eq!(firsts.len(), lines.len(), "{v}");
}

#[test]
fn lines_are_well_formed() {
    for (pos, variant) in [
        ("startpos", "kyoto"),
        ("startpos moves 1e1d+", "kyoto"),
        ("startpos", "micro"),
        ("startpos", "kinzoku"),
        (MATE_IN_ONE, "kyoto"),
    ] {
        let text = ok(&[
            "analyze",
            "--json",
            "--variant",
            variant,
            "--depth",
            "2",
            "--multipv",
            "3",
            "--mate-nodes",
            "2000",
            pos,
        ]);
        let v = json(&text);
        assert!(v["lines"].as_array().unwrap().len() <= 3, "{text}");
        check_lines(variant, pos, &v);
    }
}

#[test]
fn text_output_has_diagram_status_and_totals() {
    let text = ok(&[
        "analyze",
        "--variant",
        "kyoto",
        "--depth",
        "1",
        "--color",
        "never",
        "startpos moves 1e1d+",
    ]);
    assert!(text.starts_with("white hand: -\n"), "{text}");
    assert!(text.contains("ply 2, white to move\n"), "{text}");
    assert!(text.contains("last move: 1e1d+\n"), "{text}");
    assert!(text.contains("\nstatus: ongoing\n"), "{text}");
    assert!(text.contains("\nlegal moves: "), "{text}");
    assert!(text.contains("\nnodes "), "{text}");
}

#[test]
fn bad_input_is_one_error_line() {
    let e = bad_input(&["analyze", "--variant", "kyoto", "startpos moves 9z9z"]);
    assert!(e.contains("9z9z"), "{e}");
    let e = bad_input(&["analyze", "startpos"]);
    assert!(e.contains("--variant"), "{e}");
    bad_input(&["analyze", "pgkst/5/5/5/TSKGX b - 1"]);
    // Limits out of range are usage errors (exit 2), as for the other commands.
    for args in [
        &["analyze", "--depth", "0", "startpos"][..],
        &["analyze", "--time", "-1", "startpos"],
        &["analyze", "--multipv", "0", "startpos"],
        &["analyze", "--hash", "0", "startpos"],
        &["analyze", "--nodes", "x", "startpos"],
    ] {
        let out = kshogi(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn help_mentions_the_schema_and_selfplay_is_hidden() {
    let help = ok(&["analyze", "--help"]);
    for word in [
        "--depth",
        "--time",
        "--nodes",
        "--multipv",
        "--hash",
        "--json",
        "\"lines\"",
        "mate N",
        "side to move",
    ] {
        assert!(help.contains(word), "analyze --help lacks {word}");
    }
    let help = ok(&["--help"]);
    assert!(help.contains("analyze") && help.contains("usi"), "{help}");
    assert!(!help.contains("selfplay"), "{help}");
}

#[test]
fn selfplay_counts_add_up() {
    let text = ok(&[
        "selfplay",
        "--variant",
        "kinzoku",
        "--opponent",
        "random",
        "--games",
        "2",
        "--depth",
        "1",
        "--max-plies",
        "30",
        "--json",
    ]);
    let v = json(&text);
    assert_eq!(v["games"], 2);
    let sum =
        v["wins"].as_u64().unwrap() + v["draws"].as_u64().unwrap() + v["losses"].as_u64().unwrap();
    assert_eq!(sum, 2, "{text}");
    assert_eq!(
        v["as_black"]["wins"].as_u64().unwrap()
            + v["as_black"]["draws"].as_u64().unwrap()
            + v["as_black"]["losses"].as_u64().unwrap(),
        1
    );
    let text = ok(&[
        "selfplay",
        "--variant",
        "micro",
        "--opponent",
        "greedy",
        "--games",
        "1",
        "--depth",
        "1",
        "--max-plies",
        "10",
    ]);
    assert!(
        text.starts_with("micro: engine vs greedy, 1 games"),
        "{text}"
    );
}

#[test]
fn mate_in_one_is_found() {
    let text = ok(&[
        "analyze",
        "--json",
        "--depth",
        "3",
        "--mate-nodes",
        "10000",
        MATE_IN_ONE,
    ]);
    let v = json(&text);
    let line = &v["lines"][0];
    assert_eq!(line["score"], serde_json::json!({"mate": 1}), "{text}");
    // The move wins at once (G*5b mates; a drop on 3a stalemates, also a win in Kyoto).
    let after = format!("{MATE_IN_ONE} moves {}", line["move"].as_str().unwrap());
    let shown = json(&ok(&["show", "--json", &after]));
    assert!(
        shown["status"].as_str().unwrap().starts_with("black wins"),
        "{shown}"
    );
}

#[test]
fn multipv_gives_that_many_lines() {
    let text = ok(&[
        "analyze",
        "--json",
        "--variant",
        "kyoto",
        "--depth",
        "3",
        "--multipv",
        "4",
        "startpos",
    ]);
    let v = json(&text);
    assert_eq!(v["lines"].as_array().unwrap().len(), 4, "{text}");
    check_lines("kyoto", "startpos", &v);
}

/// Ctrl-C during a long analysis prints the lines so far (exit 0) instead of dying.
#[cfg(unix)]
#[test]
fn ctrl_c_ends_the_search_and_prints_the_result() {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_kshogi"))
        .args([
            "analyze",
            "--json",
            "--time",
            "60",
            "--variant",
            "kyoto",
            "startpos",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(800));
    let running = child.try_wait().unwrap().is_none();
    let sent = Instant::now();
    if running {
        let status = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        sent.elapsed() < Duration::from_secs(10),
        "{:?}",
        sent.elapsed()
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let v = json(&String::from_utf8(out.stdout).unwrap());
    // With a real search the 60 s run was still going and was interrupted; a search that
    // ended by itself first is fine too.
    if running {
        assert_eq!(v["interrupted"], true, "{v}");
    }
    check_lines("kyoto", "startpos", &v);
}

/// Ctrl-C during perft: the root moves counted completely on stdout, one clear error line
/// saying how far it got, and exit status 130.
#[cfg(unix)]
#[test]
fn ctrl_c_during_perft_exits_130() {
    use std::process::Stdio;
    use std::time::Duration;
    // Kyoto depth 12 runs far longer than this test.
    let child = Command::new(env!("CARGO_BIN_EXE_kshogi"))
        .args(["perft", "--variant", "kyoto", "startpos", "12"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(800));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    for line in stdout.lines() {
        let (mv, n) = line.split_once(": ").expect("`<usi>: <count>` lines");
        assert!(mv.len() >= 4 && n.parse::<u64>().is_ok(), "{line}");
    }
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: perft interrupted: "), "{stderr}");
    assert!(stderr.contains("of 12 root moves"), "{stderr}");
}
