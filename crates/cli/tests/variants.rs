//! The command line for the variants built in besides the three seed games (Minishogi and
//! Dobutsu), on positions worked out by hand from the rules (docs/rules.md), and
//! `kshogi variants`.

use std::process::Command;

fn ok(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_kshogi"))
        .args(args)
        .env("KSHOGI_DB", "/nonexistent/kshogi-tests/kinzoku.kdb")
        .output()
        .expect("the kshogi binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

#[test]
fn variants_lists_the_five_games_with_their_boards() {
    // The names and boards of the product's specification (RULES.md).
    let v = json(&ok(&["variants", "--json"]));
    let got: Vec<(String, String)> = v
        .as_array()
        .expect("an array")
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap().into(),
                e["board"].as_str().unwrap().into(),
            )
        })
        .collect();
    let want = [
        ("kyoto", "5x5"),
        ("micro", "4x5"),
        ("kinzoku", "3x5"),
        ("minishogi", "5x5"),
        ("dobutsu", "3x4"),
    ];
    for (name, board) in want {
        assert!(
            got.contains(&(name.to_string(), board.to_string())),
            "{name} {board} missing from {got:?}"
        );
    }
    let text = ok(&["variants"]);
    assert!(
        text.contains("どうぶつしょうぎ") && text.contains("5五将棋"),
        "{text}"
    );
}

#[test]
fn the_board_picks_minishogi_and_dobutsu() {
    // Published start counts: Minishogi 14/181/2512, Dobutsu 4/... (perft/reference.tsv).
    assert!(ok(&["perft", "rbsgk/4p/5/P4/KGSBR b - 1", "3"]).starts_with("nodes 2512\n"));
    assert!(ok(&["perft", "rkb/1p1/1P1/BKR b - 1", "3"]).starts_with("nodes 123\n"));
    // The reference engine's Dobutsu letters: lion L, giraffe G, elephant E, chick C.
    assert!(ok(&["perft", "gle/1c1/1C1/ELG b - 1", "1"]).starts_with("nodes 4\n"));
}

#[test]
fn dobutsu_capturing_the_lion_wins_at_once() {
    // White's lion on 3a, Black's giraffe beside it on 3b: taking it wins (no check rule,
    // so the position with White's lion attacked and Black to move is valid).
    let a = json(&ok(&[
        "analyze",
        "--json",
        "--depth",
        "3",
        "k2/R2/3/2K b - 1",
    ]));
    assert_eq!(a["lines"][0]["move"], "3b3a", "{a}");
    assert_eq!(a["lines"][0]["score"]["mate"], 1, "{a}");
    let after = ok(&["show", "--json", "k2/R2/3/2K b - 1 moves 3b3a"]);
    assert!(after.contains("capturing the king"), "{after}");
    assert_eq!(ok(&["moves", "k2/R2/3/2K b - 1 moves 3b3a"]), "");
}

#[test]
fn dobutsu_a_safe_try_wins_and_an_attacked_one_does_not() {
    // Black's lion on 1b, White's on 3c (not adjacent): 1b1a and 1b2a reach rank a where no
    // white piece attacks: the try wins at once.
    let a = json(&ok(&[
        "analyze",
        "--json",
        "--depth",
        "3",
        "3/2K/k2/3 b - 1",
    ]));
    let mv = a["lines"][0]["move"].as_str().unwrap().to_string();
    assert!(mv == "1b1a" || mv == "1b2a", "{a}");
    assert_eq!(a["lines"][0]["score"]["mate"], 1, "{a}");
    let done = json(&ok(&["show", "--json", "3/2K/k2/3 b - 1 moves 1b1a"]));
    assert!(done.to_string().contains("try"), "{done}");
    // White's lion on 3b attacks 2a: stepping there is an ordinary move, the game goes on.
    let on = ok(&["moves", "3/k1K/3/3 b - 1 moves 1b2a"]);
    assert!(
        !on.is_empty(),
        "the game should go on after an attacked try"
    );
}

#[test]
fn minishogi_promotion_is_a_choice_and_kif_says_so() {
    // A silver dropped on 2b may enter rank a promoted or not: both moves exist.
    let moves = ok(&[
        "moves",
        "--variant",
        "minishogi",
        "k4/5/5/5/4K b S 1 moves S*2b 5a5b",
    ]);
    for m in ["2b2a", "2b2a+", "2b1a", "2b1a+", "2b3a", "2b3a+"] {
        assert!(moves.lines().any(|l| l == m), "{m} missing from {moves}");
    }
    let kif = ok(&[
        "convert",
        "--to",
        "kif",
        "--variant",
        "minishogi",
        "k4/5/5/5/4K b S 1 moves S*2b 5a5b 2b2a",
    ]);
    assert!(kif.contains("手合割：5五将棋"), "{kif}");
    assert!(kif.contains("２一銀不成(22)"), "{kif}");
}

#[test]
fn a_refused_minishogi_drop_names_the_rule() {
    // White king 1a; Black gold 2c covers 1b and 2b, silver 3b covers 2a: P*1b would mate.
    let cases = [
        (
            "4k/2S2/3G1/5/K4 b P 1 moves P*1b",
            "a pawn drop may not give checkmate",
        ),
        (
            "4k/2S2/3G1/4P/K4 b P 1 moves P*1c",
            "unpromoted pawn on file 1 (nifu)",
        ),
        (
            "4k/2S2/3G1/5/K4 b P 1 moves P*3a",
            "a pawn dropped on 3a could never move",
        ),
    ];
    for (position, reason) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_kshogi"))
            .args(["moves", "--variant", "minishogi", position])
            .output()
            .expect("the kshogi binary runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{position}: {stderr}");
        assert!(stderr.contains(reason), "{position}: {stderr}");
    }
}
