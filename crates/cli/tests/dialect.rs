//! `--dialect fsf`: the reference engine's letters and marks (expectations from
//! NOTATION.md: the Kyoto start in that dialect is `p+nks+l/5/5/5/+LSK+NP b - 1`).

use std::process::Command;

fn kshogi(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kshogi"))
        .args(args)
        .output()
        .unwrap();
    (out.status.success(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn perft_writes_the_sfen_and_divide_keys_in_the_dialect() {
    let (ok, out) = kshogi(&[
        "perft",
        "--variant",
        "kyoto",
        "--dialect",
        "fsf",
        "--json",
        "--divide",
        "startpos",
        "1",
    ]);
    assert!(ok);
    assert!(
        out.contains("\"sfen\":\"p+nks+l/5/5/5/+LSK+NP b - 1\""),
        "{out}"
    );
    // The gold (`+N`) turning into a knight is an unpromotion; the pawn promotes.
    assert!(
        out.contains("\"2e1d-\":1") && out.contains("\"1e1d+\":1"),
        "{out}"
    );
    let (ok, out) = kshogi(&["perft", "--variant", "kyoto", "--divide", "startpos", "1"]);
    assert!(ok);
    assert!(
        out.contains("2e1d+: 1"),
        "canonical stays the default: {out}"
    );
}

#[test]
fn moves_in_the_dialect() {
    let (ok, out) = kshogi(&["moves", "--dialect", "fsf", "k4/5/5/5/4K b T 3"]);
    assert!(ok);
    assert!(
        out.lines().any(|l| l == "+L*3c") && out.lines().any(|l| l == "L*3c"),
        "{out}"
    );
    let (ok, out) = kshogi(&[
        "moves",
        "--dialect",
        "fsf",
        "--variant",
        "dobutsu",
        "startpos",
    ]);
    assert!(ok);
    assert_eq!(out, "1d1c\n2c2b\n2d1c\n2d3c\n");
    let (ok, _) = kshogi(&["moves", "--dialect", "lishogi", "startpos"]);
    assert!(!ok);
}

#[test]
fn convert_writes_positions_and_moves_of_a_record_in_the_dialect() {
    let dir = std::env::temp_dir().join(format!("kshogi-dialect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.kif");
    let (ok, kif) = kshogi(&[
        "convert",
        "--to",
        "kif",
        "--variant",
        "kyoto",
        "startpos moves 1e1d+",
    ]);
    assert!(ok);
    std::fs::write(&file, kif).unwrap();
    let path = file.to_str().unwrap();
    // The pawn on 1e moves to 1d and turns into a rook, which the reference engine writes
    // `+P`: a promotion, so the move keeps its `+`.
    let (ok, usi) = kshogi(&["convert", "--to", "usi", "--dialect", "fsf", path]);
    assert!(ok);
    assert_eq!(usi, "sfen p+nks+l/5/5/5/+LSK+NP b - 1 moves 1e1d+\n");
    let (ok, sfen) = kshogi(&["convert", "--to", "sfen", "--dialect", "fsf", path]);
    assert!(ok);
    assert_eq!(sfen, "p+nks+l/5/5/4+P/+LSK+N1 w - 2\n");
    let (ok, canonical) = kshogi(&["convert", "--to", "sfen", path]);
    assert!(ok);
    assert_eq!(canonical, "pgkst/5/5/4R/TSKG1 w - 2\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn show_json_writes_the_sfen_and_last_move_in_the_dialect() {
    // White's silver 2a takes the step to 1b and becomes a bishop (`+s`); Black's rook on
    // 1d is `+P`, the tokin `+L`, the gold `+N` (NOTATION.md's aliases).
    let (ok, out) = kshogi(&[
        "show",
        "--json",
        "--dialect",
        "fsf",
        "--variant",
        "kyoto",
        "startpos moves 1e1d+ 2a1b+",
    ]);
    assert!(ok);
    assert!(
        out.contains("\"sfen\":\"p+nk1+l/4+s/5/4+P/+LSK+N1 b - 3\""),
        "{out}"
    );
    assert!(out.contains("\"last_move\":\"2a1b+\""), "{out}");
}

#[test]
fn show_text_writes_the_last_move_in_the_dialect() {
    // 1e1d+ makes Black's pawn a rook (`+P` to the reference engine); 1d1c turns it back
    // into a pawn, which that dialect marks `-` (NOTATION.md), kshogi's own form `+`.
    let game = "startpos moves 1e1d+ 5a5b+ 1d1c";
    for (dialect, line) in [
        ("fsf", "last move: 1d1c-"),
        ("canonical", "last move: 1d1c+"),
    ] {
        let (ok, out) = kshogi(&[
            "show",
            "--color",
            "never",
            "--dialect",
            dialect,
            "--variant",
            "kyoto",
            game,
        ]);
        assert!(ok);
        assert!(out.lines().any(|l| l == line), "{dialect}: {out}");
    }
    let (ok, out) = kshogi(&["show", "--color", "never", "--variant", "kyoto", game]);
    assert!(ok);
    assert!(
        out.lines().any(|l| l == "last move: 1d1c+"),
        "default: {out}"
    );
}

#[test]
fn analyze_writes_its_lines_and_sfen_in_the_dialect() {
    // Black mates with a gold drop; the reference engine writes the gold as `+N` (a promoted
    // knight), so the drop is `+N*..`, and the gold/knight pair in hand as `N`.
    let (ok, out) = kshogi(&[
        "analyze",
        "--json",
        "--dialect",
        "fsf",
        "--depth",
        "3",
        "k4/5/1S3/5/4K b G 9",
    ]);
    assert!(ok, "{out}");
    assert!(out.contains("\"sfen\":\"k4/5/1S3/5/4K b N 9\""), "{out}");
    assert!(out.contains("\"move\":\"+N*"), "{out}");
    assert!(out.contains("\"score\":{\"mate\":1}"), "{out}");
}
