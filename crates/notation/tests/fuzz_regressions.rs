//! Regression tests from fuzzing: the inputs of `tests/data/fuzz/` run through the same
//! property checks as the fuzz targets (`fuzz/src/props.rs`, included below), so a committed
//! input is checked by exactly the code that fuzzes, in every `cargo test`.
//!
//! - `tests/data/fuzz/<target>/`: the seed inputs the fuzzers start from and the inputs that
//!   once found a problem that is now fixed. Every file must pass.
//! - `tests/data/fuzz/bugs/<target>_<bug>/`: inputs that find a known, reported bug. They
//!   pass the target's property (which exempts known bugs so that fuzzing can go on) and
//!   fail the strict one in an ignored test below, until the bug is fixed; then move them to
//!   `tests/data/fuzz/<target>/`, remove the exemption in `props.rs` and the ignored test.
//!
//! To add an input that a fuzzer found (`fuzz/artifacts/<target>/crash-...`): minimise it
//! with `cargo fuzz tmin`, copy it to `tests/data/fuzz/<target>/` under a name that says
//! what it is, and run this test. See docs/testing.md.

#[allow(dead_code)]
#[path = "../../../fuzz/src/props.rs"]
mod props;

use std::path::{Path, PathBuf};

/// The files of `tests/data/fuzz/<dir>`, sorted, with their bytes.
fn inputs(dir: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fuzz")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).expect("read input");
            (path, bytes)
        })
        .collect()
}

/// Runs `check` on every input of `dir`, naming the file of the first that fails.
fn run_all(dir: &str, check: fn(&[u8])) -> usize {
    let files = inputs(dir);
    for (path, bytes) in &files {
        let result = std::panic::catch_unwind(|| check(bytes));
        if let Err(e) = result {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("{}: {msg}", path.display());
        }
    }
    files.len()
}

#[test]
fn sfen_inputs() {
    assert!(run_all("sfen", props::sfen_roundtrip) > 10);
}

#[test]
fn usi_move_inputs() {
    assert!(run_all("usi_move", props::usi_move) > 10);
}

#[test]
fn kif_inputs() {
    assert!(run_all("kif", props::kif_roundtrip) > 10);
}

/// Known bugs still pass the fuzz target's property (it exempts them, so that fuzzing goes
/// on and finds other problems) and never panic.
#[test]
fn known_bug_inputs_pass_the_exempting_property() {
    assert!(run_all("bugs/sfen_max_ply", props::sfen_roundtrip) > 0);
    assert!(run_all("bugs/kif_header_cr", props::kif_roundtrip) > 0);
    assert!(run_all("bugs/kif_comment_trim", props::kif_roundtrip) > 0);
}

/// A `POSITION` can go past the largest ply, found by the `sfen` target after 9.3 million
/// runs.
///
/// `bugs/sfen_max_ply/ply-past-max-after-moves` is `cks/1i1/3/1I1/SKC b - 1000000000 moves
/// 2d2c` (the fuzzer's own find, `crash-8f6862ad-ply-past-max`, is `s1c/1k+i/3/1SI/1CK b -
/// 1000000000 moves 2d2c 1b2c`). `parse_sfen` accepts ply 1000000000 (`MAX_PLY`), and
/// `parse_game` then plays the move, so the game's position has ply 1000000001; `to_sfen`
/// prints `cks/1i1/1I1/3/SKC w - 1000000001`, which `parse_sfen` rejects: `column 23: ply
/// must be a whole number from 1 to 1000000000, found `1000000001``. The command line shows
/// it too: `kshogi show --json '<that POSITION>'` prints that SFEN, and `kshogi moves '<that
/// SFEN>'` refuses it (exit 1). Expected: every position kshogi prints parses again; for
/// example `parse_game` refuses a move that would take the ply past `MAX_PLY`, as the KIF
/// reader already does (`move number ... is too large`), or core's `Game::play` does.
#[test]
fn position_with_moves_stays_within_the_largest_ply() {
    assert!(run_all("bugs/sfen_max_ply", props::sfen_roundtrip_strict) > 0);
}

/// KIF writing loses a header key with a carriage return in it, found by the `kif` target
/// in its first seconds.
///
/// `bugs/kif_header_cr/header-key-only-cr.kif` is the bytes `0D EF BC 9A 0A` (`\r：\n`):
/// read as Kyoto it gives a record with the header field key `"\r"`, value `""`. `to_kif`
/// writes that line as ` ：` (the CR turned into a space), and `parse_kif` rejects its own
/// output: `line 2: column 2: a header line needs a key before `：``. Expected: the written
/// record reads back (the key kept, or the line dropped or written so that it reads back).
///
/// `bugs/kif_header_cr/header-key-leading-cr.kif` is `0D 78 EF BC 9A 79 0A` (`\rx：y\n`):
/// key `"\rx"` is written ` x：y`, which reads back as key `x`, written `x：y`; writing is
/// not stable. Expected: `to_kif(parse_kif(to_kif(r))) == to_kif(r)`.
///
/// Cause: `kif::write::one_line` turns `\r` into a space, and the reader's `trim` (spaces,
/// tabs, full-width spaces) then drops it from the key; the reader itself keeps a CR that
/// is not at the end of a line.
#[test]
fn kif_header_key_with_carriage_return_round_trips() {
    assert!(run_all("bugs/kif_header_cr", props::kif_roundtrip_strict) > 0);
}

/// Reading a KIF comment twice can change it, found by the `kif` target after 3.0 million
/// runs.
///
/// `bugs/kif_comment_trim/comment-tab-before-fullwidth-space.kif` is `23 61 09 E3 80 80 0A`
/// (`#a<TAB><FULL-WIDTH SPACE>`). The reader trims a line's trailing CRs, spaces and tabs,
/// then spaces, tabs and full-width spaces at both ends, so the comment it keeps is `#a\t`;
/// `to_kif` writes `#a\t`, which reads back as `#a`, written `#a`: writing the record read
/// back does not give the text written first (`to_kif(parse_kif(to_kif(r))) != to_kif(r)`).
/// The fuzzer's find, `crash-58ef9598-comment-cr-fullwidth-space.kif`, is the same with a
/// CR: `#\t\t\t\t４\t\t　 　\r　\t`. The same holds for the result line (`まで…`).
/// Expected: trimming that gives the same result when applied again (trim all of `\r`,
/// space, tab and full-width space in one pass), so that a comment read back is the
/// comment written.
#[test]
fn kif_comment_reads_back_unchanged() {
    assert!(run_all("bugs/kif_comment_trim", props::kif_roundtrip_strict) > 0);
}
