//! Positions and records as other tools write them (issue 33): the finished Dobutsu position
//! after a lion capture, lishogi's Dobutsu KIF with `手合割：平手`, lishogi analysis URLs,
//! pychess FEN with UCI-coordinate moves, and `--dialect pychess`.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

fn kshogi(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kshogi"))
        .args(args)
        .env("KSHOGI_DB", std::env::temp_dir().join("kshogi-no-db-here"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        let mut pipe = child.stdin.take().unwrap();
        if let Some(bytes) = stdin {
            pipe.write_all(bytes).unwrap();
        }
    }
    child.wait_with_output().unwrap()
}

/// Success: stdout and stderr.
fn ok(args: &[&str], stdin: Option<&[u8]>) -> (String, String) {
    let o = kshogi(args, stdin);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{args:?} failed: {err}");
    (String::from_utf8(o.stdout).unwrap(), err)
}

/// Exit status 1, nothing on stdout: the error line.
fn refused(args: &[&str]) -> String {
    let o = kshogi(args, None);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}");
    err
}

/// Black's lion on 1b has just taken White's; White, to move, has no lion (the position of
/// issue 33, which the reference engine and lishogi read as a finished game).
const LION_TAKEN: &str = "r1b/1pK/1P1/B1R w - 4";

#[test]
fn the_finished_dobutsu_position_reads_in_every_command() {
    let (show, _) = ok(&["show", LION_TAKEN], None);
    assert!(show.contains("black wins by capturing the king"), "{show}");
    let (moves, _) = ok(&["moves", LION_TAKEN], None);
    assert_eq!(moves, "");
    let (json, _) = ok(&["moves", "--json", LION_TAKEN], None);
    assert_eq!(json.trim(), "[]");
    let (analyze, _) = ok(&["analyze", "--depth", "3", LION_TAKEN], None);
    assert!(analyze.contains("the game is over"), "{analyze}");
    // Perft: 1 at depth 0 (the position itself), 0 below (a finished game has no moves,
    // RULES.md), even at the deepest depth accepted.
    for (depth, nodes) in [("0", "nodes 1"), ("1", "nodes 0"), ("30", "nodes 0")] {
        let (out, _) = ok(&["perft", LION_TAKEN, depth], None);
        assert!(out.starts_with(nodes), "depth {depth}: {out}");
    }
    // A KIF record of it, read back to the same SFEN.
    let (kif, _) = ok(&["convert", "--to", "kif", LION_TAKEN], None);
    assert!(kif.contains("先手の勝ち"), "{kif}");
    let (sfen, _) = ok(&["convert", "--to", "sfen", "-"], Some(kif.as_bytes()));
    assert_eq!(sfen.trim(), LION_TAKEN);
    // The side not to move without its lion, or a side with two, is still refused.
    let e = refused(&["show", "r1b/1pK/1P1/B1R b - 4"]);
    assert!(e.contains("white has 0 kings"), "{e}");
    let e = refused(&["show", "rkb/kpK/1P1/B1R w - 4"]);
    assert!(e.contains("white has 2 kings"), "{e}");
}

/// A Dobutsu record as lishogi's rules library writes it: `手合割：平手` for the even game.
/// The moves, worked out square by square from the start `rkb/1p1/1P1/BKR`: Black's chick
/// 2c takes White's on 2b (２二ひよこ(23)), White's lion 2a takes it back (同　ライオン(21)),
/// Black's giraffe steps 1d-1c (１三きりん(14)). Then: giraffe 3a and elephant 1a, lion 2b,
/// Black's giraffe 1c, elephant 3d and lion 2d, a chick in each hand, White to move at ply
/// 4: `r1b/1k1/2R/BK1 w Pp 4`.
const LISHOGI_DOBUTSU: &str = "\
#KIF version=2.0 encoding=UTF-8
開始日時：2026/01/02 03:04:05
先手：a
後手：b
手合割：平手
手数----指手---------消費時間--
   1 ２二ひよこ(23)
   2 同　ライオン(21)
   3 １三きりん(14)
まで3手で中断
";

#[test]
fn a_lishogi_dobutsu_record_with_the_even_game_header_reads_with_variant() {
    let (sfen, warning) = ok(
        &["convert", "--to", "sfen", "--variant", "dobutsu", "-"],
        Some(LISHOGI_DOBUTSU.as_bytes()),
    );
    assert_eq!(sfen, "r1b/1k1/2R/BK1 w Pp 4\n");
    assert!(
        warning.starts_with("warning: line 5: `手合割：平手`") && warning.contains("Dobutsu"),
        "{warning}"
    );
    assert_eq!(warning.lines().count(), 1, "{warning}");
    // Without --variant the header is refused, with the way out.
    let o = kshogi(
        &["convert", "--to", "sfen", "-"],
        Some(LISHOGI_DOBUTSU.as_bytes()),
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err.contains("`手合割：平手`") && err.contains("name the variant explicitly"),
        "{err}"
    );
    // A header naming another variant stays an error with --variant.
    let kyoto = LISHOGI_DOBUTSU.replace("平手", "京都将棋");
    let o = kshogi(
        &["convert", "--to", "sfen", "--variant", "dobutsu", "-"],
        Some(kyoto.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(1));
    // The variant's own header gives no warning.
    let own = LISHOGI_DOBUTSU.replace("平手", "どうぶつしょうぎ");
    let (sfen, warning) = ok(
        &["convert", "--to", "sfen", "--variant", "dobutsu", "-"],
        Some(own.as_bytes()),
    );
    assert_eq!(sfen, "r1b/1k1/2R/BK1 w Pp 4\n");
    assert_eq!(warning, "");
}

/// The show --json SFEN of a position argument (canonical).
fn sfen_of(args: &[&str]) -> String {
    let (json, _) = ok(args, None);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["sfen"].as_str().unwrap().to_string()
}

#[test]
fn lishogi_analysis_urls_are_positions() {
    // After Black's pawn 1e goes to 1d and turns into a rook, White is to move at ply 2
    // (the position of notation's own unit test, `pgkst/5/5/4R/TSKG1 w - 2`).
    let after = "pgkst/5/5/4R/TSKG1 w - 2";
    for url in [
        "https://lishogi.org/analysis/kyotoshogi/pgkst/5/5/5/TSKGP_b_-_1?moves=1e1d%2B",
        "https://lishogi.org/analysis/kyotoshogi/pgkst/5/5/5/TSKGP_b_-_1?moves=1e1d+#1",
        "https://lishogi.org/analysis/kyotoshogi?moves=1e1d%2B",
        "https://lishogi.org/analysis/pgkst/5/5/4R/TSKG1_w_-_2",
        "https://lishogi.org/analysis/kyotoshogi/pgkst%2F5%2F5%2F4R%2FTSKG1%20w%20-%202",
        "http://www.lishogi.org/editor/kyotoshogi/pgkst/5/5/4R/TSKG1_w_-_2",
    ] {
        assert_eq!(sfen_of(&["show", "--json", url]), after, "{url}");
    }
    // Minishogi by lishogi's key: the start, then Black's rook 1e-1d.
    assert_eq!(
        sfen_of(&[
            "show",
            "--json",
            "https://lishogi.org/analysis/minishogi/rbsgk/4p/5/P4/KGSBR_b_-_1?moves=1e1d"
        ]),
        "rbsgk/4p/5/P3R/KGSB1 w - 2"
    );
    // A variant kshogi does not play, and a key against --variant, are refused by name.
    let e = refused(&["show", "https://lishogi.org/analysis/chushogi/x_b_-_1"]);
    assert!(e.contains("`chushogi` is not one kshogi plays"), "{e}");
    let e = refused(&[
        "moves",
        "--variant",
        "micro",
        "https://lishogi.org/analysis/kyotoshogi/pgkst/5/5/5/TSKGP_b_-_1",
    ]);
    assert!(e.contains("`kyotoshogi`") && e.contains("Micro"), "{e}");
    // An address of another page of lishogi is not a position.
    let e = refused(&["show", "https://lishogi.org/@/someone"]);
    assert!(e.contains("not a lishogi analysis"), "{e}");
}

#[test]
fn a_pychess_fen_with_uci_moves_reads() {
    // UCI `e1e2+` is USI `1e1d+` on a 5x5 board (file e is file 1, rank 1 is rank e): the
    // same position as above.
    assert_eq!(
        sfen_of(&[
            "show",
            "--json",
            "p+nks+l/5/5/5/+LSK+NP[-] w 0 1 moves e1e2+"
        ]),
        "pgkst/5/5/4R/TSKG1 w - 2"
    );
    // A drop in UCI: White's hand gold dropped on c3 (USI `g*3c`), White to move.
    assert_eq!(
        sfen_of(&["show", "--json", "k4/5/5/5/4K[g] b 0 1 moves G@c3"]),
        "k4/5/2g2/5/4K b - 3"
    );
    // Canonical USI moves keep working after a bracket FEN.
    assert_eq!(
        sfen_of(&[
            "show",
            "--json",
            "p+nks+l/5/5/5/+LSK+NP[-] w 0 1 moves 1e1d+"
        ]),
        "pgkst/5/5/4R/TSKG1 w - 2"
    );
}

#[test]
fn dialect_pychess_writes_fen_and_uci_moves() {
    // Dobutsu start (3x4): file 1 is `c`, file 3 `a`; rank d is `1`, rank a `4`. The legal
    // moves 1d1c, 2c2b, 2d1c, 2d3c are c1c2, b2b3, b1c2, b1a2, sorted as text.
    let (moves, _) = ok(
        &[
            "moves",
            "--dialect",
            "pychess",
            "--variant",
            "dobutsu",
            "startpos",
        ],
        None,
    );
    assert_eq!(moves, "b1a2\nb1c2\nb2b3\nc1c2\n");
    // The reference engine's letters for the board (NOTATION.md), the hand in brackets,
    // `b` for White to move at ply 2, move 1.
    let (json, _) = ok(
        &[
            "show",
            "--json",
            "--dialect",
            "pychess",
            "--variant",
            "kyoto",
            "startpos moves 1e1d+",
        ],
        None,
    );
    assert!(
        json.contains("\"sfen\":\"p+nks+l/5/5/4+P/+LSK+N1[-] b 0 1\""),
        "{json}"
    );
    assert!(json.contains("\"last_move\":\"e1e2+\""), "{json}");
    // convert: the record as `<FEN> moves <uci> ...`, which reads back to the same game.
    let (kif, _) = ok(
        &[
            "convert",
            "--to",
            "kif",
            "--variant",
            "dobutsu",
            "startpos moves 2c2b 2a2b 1d1c",
        ],
        None,
    );
    let (line, _) = ok(
        &["convert", "--to", "usi", "--dialect", "pychess", "-"],
        Some(kif.as_bytes()),
    );
    assert_eq!(line, "gle/1c1/1C1/ELG[-] w 0 1 moves b2b3 b4b3 c1c2\n");
    assert_eq!(
        sfen_of(&["show", "--json", line.trim()]),
        "r1b/1k1/2R/BK1 w Pp 4"
    );
    // analyze writes its lines in UCI coordinates too.
    let (text, _) = ok(
        &[
            "analyze",
            "--depth",
            "2",
            "--dialect",
            "pychess",
            "--variant",
            "dobutsu",
            "startpos",
        ],
        None,
    );
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("usi:"))
        .unwrap();
    let first = line.split_whitespace().nth(1).unwrap();
    assert!(["b1a2", "b1c2", "b2b3", "c1c2"].contains(&first), "{text}");
}
