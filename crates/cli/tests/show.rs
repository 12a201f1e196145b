//! Runs `kshogi show` and checks its output against positions worked out by hand.

use std::process::{Command, Output};

fn kshogi_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kshogi"));
    cmd.args(args).env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the kshogi binary runs")
}

/// Runs a command that must succeed and returns its stdout.
fn ok_env(args: &[&str], env: &[(&str, &str)]) -> String {
    let out = kshogi_env(args, env);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    assert!(stderr.is_empty(), "{args:?} wrote to stderr: {stderr}");
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

fn ok(args: &[&str]) -> String {
    ok_env(args, &[])
}

/// Runs a command that must fail on bad input: exit code 1, nothing on stdout, exactly one
/// `error: ` line on stderr. Returns that line.
fn bad_input(args: &[&str]) -> String {
    let out = kshogi_env(args, &[]);
    let stderr = String::from_utf8(out.stderr).expect("stderr is UTF-8");
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    stderr.trim_end().to_string()
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

// Hand-checked Kyoto game: Black's Pawn 1e1d+ becomes a Rook, White's Pawn 5a5b+ likewise;
// Black's Rook takes the Tokin on 1a and turns back into a Pawn; White's Rook takes the Tokin
// on 5e and turns into a Pawn. Each side then holds a Tokin; Black is to move at ply 5.
const KYOTO_GAME: &str = "startpos moves 1e1d+ 5a5b+ 1d1a+ 5b5e+";

// Hand-checked: the Gold dropped on 5b checks White's King on 5a and covers 4a and 4b; the
// King can only take it (legal_moves 1). With Black's Silver on 4c guarding 5b it is mate.
const CHECK: &str = "k4/5/5/5/4K b G 9 moves G*5b";
const MATE: &str = "k4/5/1S3/5/4K b G 9 moves G*5b";

#[test]
fn start_position_text() {
    let out = ok(&["show", "--variant", "kyoto", "startpos"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "white hand: -");
    assert_eq!(lines[1], "   5   4   3   2   1");
    assert_eq!(lines[3], "|  p   g   k   s   t  | a");
    assert_eq!(lines[7], "|  T   S   K   G   P  | e");
    assert_eq!(lines[9], "black hand: -");
    assert_eq!(lines[10], "ply 1, black to move");
    assert_eq!(lines.len(), 11, "{out}");
    assert!(!out.contains("last move"), "{out}");
    assert!(!out.contains("status"), "{out}");
}

#[test]
fn midgame_text_shows_hands_and_last_move() {
    let out = ok(&["show", "--variant", "kyoto", KYOTO_GAME]);
    assert!(out.starts_with("white hand: t\n"), "{out}");
    assert!(out.contains("\n|  .   g   k   s   P  | a\n"), "{out}");
    assert!(out.contains("\n| [p]  S   K   G   .  | e\n"), "{out}");
    assert!(out.contains("\nblack hand: T\n"), "{out}");
    assert!(
        out.ends_with("ply 5, black to move\nlast move: 5b5e+\n"),
        "{out}"
    );
    // The board size alone picks the variant for an SFEN.
    let same = ok(&["show", "1gksP/5/5/5/pSKG1 b Tt 5"]);
    assert_eq!(
        same,
        out.replace("| [p]", "|  p ")
            .replace("last move: 5b5e+\n", "")
    );
}

#[test]
fn status_lines() {
    let out = ok(&["show", CHECK]);
    assert!(out.ends_with("last move: G*5b\nstatus: check\n"), "{out}");
    let out = ok(&["show", MATE]);
    assert!(
        out.ends_with("last move: G*5b\nstatus: black wins by checkmate\n"),
        "{out}"
    );
    // The start position occurs for the third time after two round trips of the kings.
    let out = ok(&[
        "show",
        "--variant",
        "kyoto",
        "startpos moves 3e3d 3a3b 3d3e 3b3a 3e3d 3a3b 3d3e 3b3a",
    ]);
    assert!(out.ends_with("status: draw by repetition\n"), "{out}");
    // Kinzoku: Black's countdown has run out and White's lone King can still move (to 3b,
    // 2b or 2a, none of which the Silver on 2d reaches), so White has won.
    let out = ok(&["show", "k2/3/3/1S1/2K w - 40 b0"]);
    assert!(
        out.ends_with(
            "countdown: expired, black did not win in time (b0)\n\
             status: white wins by bare king\n"
        ),
        "{out}"
    );
    let v = json(&ok(&["show", "--json", "k2/3/3/1S1/2K w - 40 b0"]));
    assert_eq!(v["legal_moves"], 0);
    assert_eq!(v["in_check"], false);
    // Kinzoku: taking White's last Soldier starts Black's countdown, and checks the King.
    let out = ok(&["show", "k2/1i1/1S1/3/2K b - 29 moves 2c2b"]);
    assert!(
        out.ends_with(
            "ply 30, white to move\n\
             countdown: black must win within its next 5 moves (b5)\n\
             last move: 2c2b\n\
             status: check\n"
        ),
        "{out}"
    );
}

#[test]
fn colour_follows_the_flag_and_no_color() {
    let args = |when: &'static str| ["show", "--color", when, "--variant", "kyoto", KYOTO_GAME];
    let never = ok(&args("never"));
    assert!(!never.contains("\x1b["), "{never}");
    let always = ok(&args("always"));
    assert!(always.contains("\x1b["), "{always}");
    assert_eq!(strip_ansi(&always), never);
    // auto: not a terminal here, and NO_COLOR set: no colour either way.
    let auto = ok_env(&args("auto"), &[("NO_COLOR", "1")]);
    assert_eq!(auto, never);
    let default = ok_env(
        &["show", "--variant", "kyoto", KYOTO_GAME],
        &[("NO_COLOR", "1")],
    );
    assert_eq!(default, never);
    // An explicit `always` wins over NO_COLOR.
    assert_eq!(ok_env(&args("always"), &[("NO_COLOR", "1")]), always);
}

#[test]
fn json_start_position() {
    let out = ok(&["show", "--json", "--variant", "micro", "startpos"]);
    assert_eq!(out.lines().count(), 1, "{out}");
    let v = json(&out);
    assert_eq!(
        v,
        serde_json::json!({
            "variant": "micro",
            "sfen": "kbgs/p3/4/3P/SGBK b - 1",
            "side_to_move": "black",
            "in_check": false,
            "status": "ongoing",
            "last_move": null,
            // perft depth 1 of the Micro start in perft/reference.tsv.
            "legal_moves": 9,
        })
    );
    let order = [
        "variant",
        "sfen",
        "side_to_move",
        "in_check",
        "status",
        "last_move",
        "legal_moves",
    ];
    let at: Vec<usize> = order
        .iter()
        .map(|f| out.find(&format!("\"{f}\":")).expect("field"))
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "field order in {out}");
    // JSON is never coloured.
    assert!(!ok(&[
        "show",
        "--json",
        "--color",
        "always",
        "--variant",
        "micro",
        "startpos"
    ])
    .contains('\x1b'));
}

#[test]
fn json_check_mate_and_midgame() {
    let v = json(&ok(&["show", "--json", CHECK]));
    assert_eq!(
        v,
        serde_json::json!({
            "variant": "kyoto",
            "sfen": "k4/G4/5/5/4K w - 10",
            "side_to_move": "white",
            "in_check": true,
            "status": "check",
            "last_move": "G*5b",
            "legal_moves": 1,
        })
    );
    let v = json(&ok(&["show", "--json", MATE]));
    assert_eq!(v["sfen"], "k4/G4/1S3/5/4K w - 10");
    assert_eq!(v["in_check"], true);
    assert_eq!(v["status"], "black wins by checkmate");
    assert_eq!(v["legal_moves"], 0);
    let v = json(&ok(&["show", "--json", "--variant", "kyoto", KYOTO_GAME]));
    assert_eq!(v["sfen"], "1gksP/5/5/5/pSKG1 b Tt 5");
    assert_eq!(v["last_move"], "5b5e+");
    assert_eq!(v["status"], "ongoing");
    // The moves list in the reference engine's dialect gives canonical output.
    let v = json(&ok(&[
        "show",
        "--json",
        "--variant",
        "kyoto",
        "startpos moves 1e1d 5a5b-",
    ]));
    assert_eq!(v["sfen"], "1gkst/r4/5/4R/TSKG1 b - 3");
    assert_eq!(v["last_move"], "5a5b+");
}

#[test]
fn bad_positions_are_one_error_line() {
    let err = bad_input(&["show", "pgkst/5/5/5/TSKGX b - 1"]);
    assert!(err.contains("column 17"), "{err}");
    let err = bad_input(&[
        "show",
        "--json",
        "--variant",
        "kyoto",
        "startpos moves 1e1c",
    ]);
    assert!(err.contains("1e1c"), "{err}");
    let err = bad_input(&["show", "startpos"]);
    assert!(err.contains("--variant"), "{err}");
    bad_input(&["show", ""]);
    bad_input(&["show", "--color", "always", "6/6/6/6/6 b - 1"]);
    // A move after the game ended.
    let err = bad_input(&["show", &format!("{MATE} 5a4a")]);
    assert!(err.contains("5a4a"), "{err}");
}

#[test]
fn usage_errors_and_help() {
    for args in [
        &[
            "show",
            "--color",
            "sometimes",
            "--variant",
            "kyoto",
            "startpos",
        ][..],
        &["show"][..],
        &["show", "--variant", "chess", "startpos"][..],
    ] {
        let out = kshogi_env(args, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let help = ok(&["show", "--help"]);
    for word in [
        "--variant",
        "--color",
        "--json",
        "NO_COLOR",
        "<POSITION>",
        "legal_moves",
        "status",
    ] {
        assert!(help.contains(word), "show --help lacks {word}");
    }
    assert!(ok(&["--help"]).contains("show"));
}
