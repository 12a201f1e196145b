//! `kshogi convert`: runs the binary on positions and KIF records whose expected output was
//! worked out by hand from the rules (the games are those of
//! `crates/notation/tests/data/kif/`, where each move is explained).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn kshogi(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kshogi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kshogi binary runs");
    {
        let mut pipe = child.stdin.take().expect("stdin");
        if let Some(bytes) = stdin {
            pipe.write_all(bytes).expect("write stdin");
        }
    }
    child.wait_with_output().expect("kshogi finishes")
}

fn ok(args: &[&str], stdin: Option<&[u8]>) -> String {
    let out = kshogi(args, stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    assert!(stderr.is_empty(), "{args:?} wrote to stderr: {stderr}");
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// Exit status 1, nothing on stdout, one `error: ` line on stderr; returns the line.
fn bad_input(args: &[&str], stdin: Option<&[u8]>) -> String {
    let out = kshogi(args, stdin);
    let stderr = String::from_utf8(out.stderr).expect("stderr is UTF-8");
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    stderr.trim_end().to_string()
}

/// Writes `text` to a file of its own in the test's temporary directory.
fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, bytes).expect("write temp file");
    path
}

fn notation_data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../notation/tests/data/kif")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

const KYOTO_MOVES: &str = "1e1d+ 5a5b+ 1d1a+ 2a1b+ 4e3d+ 1b3d+ 3e3d 5b5e+ 3d3c 4a4b+ T*3b";

/// The Kyoto game in KIF: destination, the piece before the move, `成` on every non-king
/// move, the origin; `同　` where a move lands on the previous destination; the drop of a
/// tokin; Black mates with move 11.
const KYOTO_KIF: &str = "\
#KIF version=2.0 encoding=UTF-8
手合割：京都将棋
手数----指手---------消費時間--
   1 １四歩成(15)
   2 ５二歩成(51)
   3 １一飛成(14)
   4 １二銀成(21)
   5 ３四銀成(45)
   6 同　角成(12)
   7 同　玉(35)
   8 ５五飛成(52)
   9 ３三玉(34)
  10 ４二金成(41)
  11 ３二と打
まで11手で先手の勝ち
";

#[test]
fn to_kif_from_startpos() {
    let out = ok(
        &[
            "convert",
            "--to",
            "kif",
            "--variant",
            "kyoto",
            &format!("startpos moves {KYOTO_MOVES}"),
        ],
        None,
    );
    assert_eq!(out, KYOTO_KIF);
}

#[test]
fn to_kif_from_an_sfen_writes_a_diagram() {
    // Kinzoku (3x5, picked by the board size): Black's silver on 2d steps to 2c; White's
    // lone king on 3a then has no move and is not in check (2a is the copper's, 2b and 3b
    // the silver's): a stalemate, which Kinzoku scores as a draw.
    let out = ok(
        &["convert", "--to", "kif", "k2/2C/3/1S1/2K b - 1 moves 2d2c"],
        None,
    );
    assert_eq!(
        out,
        "#KIF version=2.0 encoding=UTF-8\n手合割：金属将棋\n後手の持駒：なし\n  ３ ２ １\n\
         +---------+\n|v玉 ・ ・|一\n| ・ ・ 銅|二\n| ・ ・ ・|三\n| ・ 銀 ・|四\n\
         | ・ ・ 玉|五\n+---------+\n先手の持駒：なし\n手数----指手---------消費時間--\n\
         \u{20}  1 ２三銀(24)\nまで1手で引き分け\n"
    );
}

#[test]
fn kif_to_sfen_usi_and_all() {
    let path = temp_file("kyoto_game.kif", KYOTO_KIF.as_bytes());
    let path = path.to_str().expect("UTF-8 path");
    // Final position (worked out in notation's kif_read.rs): White mated, to move.
    assert_eq!(
        ok(&["convert", "--to", "sfen", path], None),
        "2k1P/1nT2/2K2/5/p2G1 w Sts 12\n"
    );
    assert_eq!(
        ok(&["convert", "--to", "usi", path], None),
        format!("sfen pgkst/5/5/5/TSKGP b - 1 moves {KYOTO_MOVES}\n")
    );
    let all = ok(&["convert", "--to", "sfen", "--all", path], None);
    let lines: Vec<&str> = all.lines().collect();
    assert_eq!(lines.len(), 12, "{all}");
    // Start, after 1e1d+ (the pawn is a rook on 1d), after 5a5b+, ..., the final position.
    assert_eq!(lines[0], "pgkst/5/5/5/TSKGP b - 1");
    assert_eq!(lines[1], "pgkst/5/5/4R/TSKG1 w - 2");
    assert_eq!(lines[2], "1gkst/r4/5/4R/TSKG1 b - 3");
    // After 1d1a+: the rook takes the tokin on 1a and is a pawn again; Black holds a tokin.
    assert_eq!(lines[3], "1gksP/r4/5/5/TSKG1 w T 4");
    assert_eq!(lines[11], "2k1P/1nT2/2K2/5/p2G1 w Sts 12");
}

#[test]
fn kif_from_stdin_and_in_shift_jis() {
    assert_eq!(
        ok(
            &["convert", "--to", "sfen", "-"],
            Some(KYOTO_KIF.as_bytes())
        ),
        "2k1P/1nT2/2K2/5/p2G1 w Sts 12\n"
    );
    let sjis = notation_data("kyoto_site_export_sjis.kif");
    assert_eq!(
        ok(&["convert", "--to", "sfen", &sjis], None),
        "2k1P/1nT2/2K2/5/p2G1 w Sts 12\n"
    );
    let bytes = std::fs::read(&sjis).expect("data file");
    assert_eq!(
        ok(&["convert", "--to", "usi", "-"], Some(&bytes)),
        format!("sfen pgkst/5/5/5/TSKGP b - 1 moves {KYOTO_MOVES}\n")
    );
}

#[test]
fn variant_from_the_header_or_the_option() {
    // No `手合割`: the Micro start and one pawn move (1d1c, no capture, no flip).
    let text = "手数----指手---------消費時間--\n   1 １三歩(14)\n";
    let e = bad_input(&["convert", "--to", "sfen", "-"], Some(text.as_bytes()));
    assert!(e.starts_with("error: line 1: no `手合割` header"), "{e}");
    assert_eq!(
        ok(
            &["convert", "--to", "sfen", "--variant", "micro", "-"],
            Some(text.as_bytes())
        ),
        "kbgs/p3/3P/4/SGBK w - 2\n"
    );
    // The option cannot contradict the header.
    let e = bad_input(
        &["convert", "--to", "sfen", "--variant", "micro", "-"],
        Some(KYOTO_KIF.as_bytes()),
    );
    assert!(
        e.starts_with("error: line 2: column 5: `手合割：京都将棋` is Kyoto Shogi"),
        "{e}"
    );
    let e = bad_input(
        &["convert", "--to", "usi", "-"],
        Some("手合割：平手\n".as_bytes()),
    );
    assert!(
        e.starts_with("error: line 1: column 5: `手合割：平手` is not"),
        "{e}"
    );
}

#[test]
fn kif_errors_name_the_line() {
    // Move 3 is wrong: the gold on ２五 cannot reach ２三.
    let text = KYOTO_KIF.replace("１一飛成(14)", "２三金成(25)");
    let e = bad_input(&["convert", "--to", "sfen", "-"], Some(text.as_bytes()));
    assert_eq!(
        e,
        "error: line 6: column 6: illegal move `２三金成(25)`: the gold on ２五 cannot go to \
         ２三 here"
    );
    // Cut off in the middle of a line.
    let text = &KYOTO_KIF[..KYOTO_KIF.find("(45)").expect("move 5") + 2];
    let e = bad_input(&["convert", "--to", "usi", "-"], Some(text.as_bytes()));
    assert!(
        e.starts_with("error: line 8: column 12: expected the origin"),
        "{e}"
    );
    // Not text at all.
    let e = bad_input(&["convert", "--to", "sfen", "-"], Some(b"\xFF\xFE\x00"));
    assert!(e.starts_with("error: line 1: "), "{e}");
    let e = bad_input(&["convert", "--to", "sfen", "/nonexistent/game.kif"], None);
    assert!(
        e.starts_with("error: cannot read `/nonexistent/game.kif`"),
        "{e}"
    );
    // A bad POSITION for --to kif is reported as for perft.
    let e = bad_input(
        &[
            "convert",
            "--to",
            "kif",
            "--variant",
            "kyoto",
            "startpos moves 1e1c",
        ],
        None,
    );
    assert!(e.contains("move 1"), "{e}");
}

#[test]
fn usage_errors_exit_with_2() {
    for args in [
        vec!["convert", "--to", "usi", "--all", "-"],
        vec!["convert", "--to", "csa", "-"],
        vec!["convert", "-"],
    ] {
        let out = kshogi(&args, Some(b""));
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn short_and_engine_handicap_names() {
    // `京都` and `kyotoshogi` name Kyoto as `京都将棋` does: the Kyoto start, then the pawn on
    // 1e steps to 1d and turns into a rook; White to move at ply 2.
    for name in ["京都", "kyotoshogi"] {
        let text = format!("手合割：{name}\n手数----指手---------消費時間--\n   1 １四歩成(15)\n");
        assert_eq!(
            ok(&["convert", "--to", "sfen", "-"], Some(text.as_bytes())),
            "pgkst/5/5/4R/TSKG1 w - 2\n",
            "{name}"
        );
    }
}

#[test]
fn suspended_after_a_mate_and_same_line_comments() {
    // Black mates with move 11; a result line claiming no result is still read.
    let text = KYOTO_KIF.replace("まで11手で先手の勝ち", "まで11手で中断");
    assert_eq!(
        ok(&["convert", "--to", "sfen", "-"], Some(text.as_bytes())),
        "2k1P/1nT2/2K2/5/p2G1 w Sts 12\n"
    );
    let text = KYOTO_KIF.replace("まで11手で先手の勝ち", "まで11手で後手の勝ち");
    let e = bad_input(&["convert", "--to", "sfen", "-"], Some(text.as_bytes()));
    assert!(e.starts_with("error: line 15: the result line says"), "{e}");
    let text = KYOTO_KIF.replace("１四歩成(15)", "１四歩成(15) * a comment");
    assert_eq!(
        ok(&["convert", "--to", "usi", "-"], Some(text.as_bytes())),
        format!("sfen pgkst/5/5/5/TSKGP b - 1 moves {KYOTO_MOVES}\n")
    );
}

#[test]
fn to_kif_from_a_fairy_stockfish_fen_and_an_underscore_sfen() {
    // The Kyoto start as pychess-variants writes it (`w`: the first player, Black, to move;
    // fullmove 1: ply 1), picked by its 5x5 board: the same record as from `startpos`.
    for pos in [
        "p+nks+l/5/5/5/+LSK+NP[] w - - 0 1",
        "pgkst/5/5/5/TSKGP_b_-_1",
    ] {
        let out = ok(
            &[
                "convert",
                "--to",
                "kif",
                &format!("{pos} moves {KYOTO_MOVES}"),
            ],
            None,
        );
        assert_eq!(out, KYOTO_KIF, "{pos}");
    }
    // `x` is no side letter (column 25, after the 23 characters of board and hand).
    let e = bad_input(
        &[
            "convert",
            "--to",
            "kif",
            "p+nks+l/5/5/5/+LSK+NP[] x - - 0 1",
        ],
        None,
    );
    assert!(
        e.starts_with("error: column 25: side to move must be `w`"),
        "{e}"
    );
}

#[cfg(unix)]
#[test]
fn an_endless_input_is_cut_at_the_stated_limit() {
    // /dev/zero never ends: convert reads at most 64 MiB
    // (`kshogi_report::game_file::MAX_GAME_FILE_BYTES`) and says so.
    if !std::path::Path::new("/dev/zero").exists() {
        return;
    }
    let e = bad_input(&["convert", "--to", "sfen", "/dev/zero"], None);
    assert!(
        e.contains("cannot read `/dev/zero`: more than 64 MiB"),
        "{e}"
    );
    // Standard input likewise: 64 MiB and one byte of zeros.
    let zeros = vec![0u8; (64 << 20) + 1];
    let e = bad_input(&["convert", "--to", "usi", "-"], Some(&zeros));
    assert!(
        e.contains("cannot read standard input: more than 64 MiB"),
        "{e}"
    );
}

#[test]
fn a_position_converts_to_sfen_and_usi() {
    // Black's pawn 1e goes to 1d and turns into a rook (`1e1d+`); White's pawn 5a goes to
    // 5b and turns into a rook too: worked out by hand from Kyoto's rules.
    let game = "startpos moves 1e1d+ 5a5b+";
    assert_eq!(
        ok(
            &["convert", "--to", "sfen", "--variant", "kyoto", game],
            None
        ),
        "1gkst/r4/5/4R/TSKG1 b - 3\n"
    );
    assert_eq!(
        ok(
            &[
                "convert",
                "--to",
                "sfen",
                "--all",
                "--variant",
                "kyoto",
                game
            ],
            None
        ),
        "pgkst/5/5/5/TSKGP b - 1\npgkst/5/5/4R/TSKG1 w - 2\n1gkst/r4/5/4R/TSKG1 b - 3\n"
    );
    // The board picks the variant, as for perft.
    assert_eq!(
        ok(
            &[
                "convert",
                "--to",
                "usi",
                "pgkst/5/5/5/TSKGP b - 1 moves 1e1d+"
            ],
            None
        ),
        "sfen pgkst/5/5/5/TSKGP b - 1 moves 1e1d+\n"
    );
    // Another tool's dialect in, kshogi's out, and back: the reference engine (Fairy-
    // Stockfish c19b5f6) prints `p+nks+l/5/5/4+P/+LSK+N1 w - 2` for Kyoto's start after
    // 1e1d+ (`position startpos moves 1e1d+`, then `d`).
    let fsf = "p+nks+l/5/5/4+P/+LSK+N1 w - 2";
    assert_eq!(
        ok(
            &["convert", "--to", "sfen", "--variant", "kyoto", fsf],
            None
        ),
        "pgkst/5/5/4R/TSKG1 w - 2\n"
    );
    assert_eq!(
        ok(
            &[
                "convert",
                "--to",
                "sfen",
                "--dialect",
                "fsf",
                "--variant",
                "kyoto",
                "startpos moves 1e1d+"
            ],
            None
        ),
        format!("{fsf}\n")
    );
    // A file of one line that is no KIF header holds a POSITION, as for review.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sfen_in_a_file.kif");
    assert_eq!(
        ok(
            &["convert", "--to", "usi", "--variant", "kyoto", file],
            None
        ),
        "sfen pgkst/5/5/5/TSKGP b - 1\n"
    );
    // A wrong move of a POSITION is reported as for perft; a name that is neither a file
    // nor a POSITION says both.
    let e = bad_input(
        &[
            "convert",
            "--to",
            "usi",
            "--variant",
            "kyoto",
            "startpos moves 1e1c",
        ],
        None,
    );
    assert!(e.starts_with("error: column 16: move 1: "), "{e}");
    let e = bad_input(&["convert", "--to", "sfen", "games/none.kif"], None);
    assert_eq!(
        e,
        "error: cannot read `games/none.kif`: no such file (and not a POSITION)"
    );
}
