//! `pocket convert`: Pocket Shogi's games between a position with moves and a KIF record,
//! with kshogi's reader and writer and no list of kshogi's variants. The positions are
//! worked out from the rules (src/lib.rs): the start is `fkg/3/3/GKF b - 1` (files 3 to 1;
//! White's guard on 1a, king on 2a, ferz on 3a; Black's the image on rank d).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn pocket(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pocket"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pocket runs");
    let mut input = child.stdin.take().expect("stdin");
    input
        .write_all(stdin.unwrap_or("").as_bytes())
        .expect("write stdin");
    drop(input);
    child.wait_with_output().expect("pocket ends")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

/// A record written by hand: Black's king 2d-2c (`２三玉(24)`), White's guard 1a-1b
/// (`１二衛(11)`).
const RECORD: &str = "手合割：ポケット将棋\n手数----指手---------消費時間--\n   1 ２三玉(24)\n   2 １二衛(11)\n";

/// The same game in USI: the king's step, then the guard's.
const USI: &str = "sfen fkg/3/3/GKF b - 1 moves 2d2c 1a1b\n";

#[test]
fn a_kif_record_of_the_variant_converts_to_usi_and_sfen() {
    let o = pocket(&["convert", "--to", "usi", "-"], Some(RECORD));
    assert!(o.status.success(), "{o:?}");
    assert_eq!(text(&o.stdout), USI);
    // Every position: the start, the king on 2c, then White's guard on 1b.
    let o = pocket(&["convert", "--to", "sfen", "--all", "-"], Some(RECORD));
    assert!(o.status.success(), "{o:?}");
    assert_eq!(
        text(&o.stdout),
        "fkg/3/3/GKF b - 1\nfkg/3/1K1/G1F w - 2\nfk1/2g/1K1/G1F b - 3\n"
    );
}

#[test]
fn a_position_converts_to_kif_and_back() {
    let o = pocket(&["convert", "--to", "kif", "startpos moves 2d2c 1a1b"], None);
    assert!(o.status.success(), "{o:?}");
    let kif = text(&o.stdout);
    assert!(kif.contains("手合割：ポケット将棋\n"), "{kif}");
    assert!(kif.contains("   1 ２三玉(24)"), "{kif}");
    assert!(kif.contains("   2 １二衛(11)"), "{kif}");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("convert");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let file = dir.join("game.kif");
    std::fs::write(&file, &kif).expect("write the record");
    let o = pocket(&["convert", "--to", "usi", file.to_str().unwrap()], None);
    assert!(o.status.success(), "{o:?}");
    assert_eq!(text(&o.stdout), USI);
}

#[test]
fn another_variants_record_is_refused_and_an_even_game_needs_the_variant() {
    // A record of kshogi's Kyoto Shogi is not read as Pocket Shogi.
    let kyoto = RECORD.replace("ポケット将棋", "京都将棋");
    let o = pocket(&["convert", "--to", "usi", "-"], Some(&kyoto));
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let err = text(&o.stderr);
    assert!(err.starts_with("error: line 1:"), "{err}");
    assert!(err.contains("Kyoto Shogi") && err.contains("Pocket Shogi"), "{err}");
    assert!(o.stdout.is_empty());
    // Standard shogi's even game: an error, unless --variant names the variant, which
    // reads it as Pocket Shogi's with a warning.
    let even = RECORD.replace("ポケット将棋", "平手");
    let o = pocket(&["convert", "--to", "usi", "-"], Some(&even));
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(text(&o.stderr).contains("standard shogi"), "{o:?}");
    let o = pocket(
        &["convert", "--variant", "pocket", "--to", "usi", "-"],
        Some(&even),
    );
    assert!(o.status.success(), "{o:?}");
    assert_eq!(text(&o.stdout), USI);
    assert!(text(&o.stderr).starts_with("warning: line 1:"), "{o:?}");
}
