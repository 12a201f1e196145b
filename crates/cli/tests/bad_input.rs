//! A corpus of bad input for every `kshogi` subcommand (`perft`, `moves`, `show`, `convert`,
//! `analyze`, `solve`, and the arguments of `usi`, whose protocol errors are tested in
//! `usi.rs`): empty, huge, binary, wrong variant, wrong board sizes, illegal moves, absurd
//! counts, invalid UTF-8, KIF records cut off, files that do not exist or are directories,
//! database files that are not databases.
//!
//! Each case runs the binary in an empty directory of its own, with `RUST_BACKTRACE=1`, and
//! must:
//! - exit with status 1 (bad input) or 2 (usage error, from the argument parser), never by
//!   a signal or a panic's 101;
//! - print nothing on stdout;
//! - print one `error: ` line on stderr that names the problem (the case's `names` text).
//!   A usage error from the argument parser may add its usage hint (`Usage: ...`, `For more
//!   information, try '--help'.`) after that line, but still has exactly one `error:` line;
//! - print no panic message (`panicked`, `RUST_BACKTRACE`, nor the panic hook's `internal
//!   error ... this is a bug`);
//! - leave no file behind (kshogi writes only to stdout; a partial output file would show
//!   up in the directory). The default database directory (`KSHOGI_DB`) is that
//!   directory too, so neither `solve` nor `analyze` can touch a database of the machine.
//!
//! The small inputs are files in `tests/data/bad/`; the huge ones (10 MB) are made by the
//! test in its temporary directory. Arguments stay below Linux's limit for one argument
//! (128 KiB), so the huge SFEN and move lists given as arguments are 100 KB; 10 MB inputs go
//! through a file or standard input, which only `convert` reads.

use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// One bad input and what kshogi must say about it.
struct Case {
    /// A short name, for failure messages.
    what: String,
    /// The arguments after `kshogi`.
    args: Vec<OsString>,
    /// Bytes on standard input (`None`: nothing, and stdin is closed at once).
    stdin: Option<Vec<u8>>,
    /// Expected exit status: 1 for bad input, 2 for a usage error.
    code: i32,
    /// Text the error line must contain: the name of the problem.
    names: &'static str,
}

/// A case with text arguments.
fn case(what: &str, args: &[&str], code: i32, names: &'static str) -> Case {
    Case {
        what: what.to_string(),
        args: args.iter().map(OsString::from).collect(),
        stdin: None,
        code,
        names,
    }
}

/// A board shape (files, ranks) that no registered variant has, the first in reading order
/// from `wanted` on, with an empty board of that shape as an SFEN and the error's words:
/// the cases about unknown board sizes must hold whatever variants are registered.
fn unknown_shape(wanted: (u8, u8)) -> (&'static str, &'static str) {
    let shapes = (wanted.0..=9).flat_map(|w| (wanted.1..=9).map(move |h| (w, h)));
    let (w, h) = shapes
        .chain((2..=9).flat_map(|w| (2..=9).map(move |h| (w, h))))
        .find(|&(w, h)| kshogi_registry::VariantKind::with_shape(w, h).is_empty())
        .expect("some board of at most 9x9 belongs to no variant");
    let sfen = format!("{} b - 1", vec![w.to_string(); usize::from(h)].join("/"));
    let names = format!("no variant has a {w}x{h} board");
    (
        Box::leak(sfen.into_boxed_str()),
        Box::leak(names.into_boxed_str()),
    )
}

/// A case that reads `stdin` (the arguments name `-` as the input).
fn with_stdin(mut c: Case, stdin: Vec<u8>) -> Case {
    c.stdin = Some(stdin);
    c
}

/// A file of the committed corpus, `tests/data/bad/NAME`.
fn bad(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/bad")
        .join(name);
    assert!(path.is_file(), "missing corpus file {}", path.display());
    path.to_string_lossy().into_owned()
}

/// The test's scratch directory (under cargo's target directory).
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("bad_input")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch directory");
    dir
}

/// `n` reproducible pseudo-random bytes (a linear congruential generator).
fn noise(n: usize) -> Vec<u8> {
    let mut x: u64 = 0x6b73_686f_6769;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (x >> 56) as u8
        })
        .collect()
}

const TEN_MB: usize = 10 * 1024 * 1024;
/// Below Linux's limit of 128 KiB for one argument.
const ARG_BYTES: usize = 100_000;

const KYOTO: &str = "pgkst/5/5/5/TSKGP b - 1";
/// A Kinzoku position with the kings alone, which any database covers.
const KINZOKU: &str = "3/1K1/3/1k1/3 b - 1";
const KIF_HEAD: &str = "手合割：京都将棋\n手数----指手---------消費時間--\n";

/// The whole table, one case per row. Inputs that are generated (huge ones) are written
/// to `files` first.
#[rustfmt::skip]
fn cases(files: &Path) -> Vec<Case> {
    let (wide, high, square, small) = (
        unknown_shape((6, 5)),
        unknown_shape((5, 6)),
        unknown_shape((4, 4)),
        unknown_shape((3, 3)),
    );
    // Generated inputs: too big to commit.
    let huge_sfen_file = files.join("huge_sfen.txt");
    let mut sfen = String::from(KYOTO);
    while sfen.len() < TEN_MB {
        sfen.push_str(" moves 1e1d+");
    }
    std::fs::write(&huge_sfen_file, &sfen).expect("write huge SFEN");
    let huge_sfen_file = &*huge_sfen_file.to_string_lossy();
    let huge_binary_file = files.join("huge_binary.bin");
    std::fs::write(&huge_binary_file, noise(TEN_MB)).expect("write huge binary");
    let huge_binary_file = &*huge_binary_file.to_string_lossy();
    // A valid record up to a 10 MB comment, then an illegal move.
    let mut huge_kif = String::from(KIF_HEAD);
    huge_kif.push('*');
    huge_kif.push_str(&"あ".repeat(TEN_MB / 3));
    huge_kif.push_str("\n   1 １三歩成(15)\n");
    let huge_kif = huge_kif.into_bytes();
    let nonexistent = &*files
        .join("no_such_file.kif")
        .to_string_lossy()
        .into_owned();
    let directory = &*files.to_string_lossy();
    let garbage_db = files.join("garbage.kdb");
    std::fs::write(&garbage_db, noise(4096)).expect("write garbage database");
    let garbage_db = &*garbage_db.to_string_lossy();
    let fake_db = files.join("fake.kdb");
    let mut fake = b"KSHOGIDB".to_vec();
    fake.extend_from_slice(&noise(200));
    std::fs::write(&fake_db, fake).expect("write fake database");
    let fake_db = &*fake_db.to_string_lossy();
    let no_db = &*files.join("no_such.kdb").to_string_lossy().into_owned();

    // Huge arguments (100 KB).
    let long_board = &"p".repeat(ARG_BYTES);
    let long_rows = &format!("{}5", "5/".repeat(ARG_BYTES / 2));
    let long_moves = &format!(
        "startpos moves {}",
        "3e3d 3a3b 3d3e 3b3a ".repeat(ARG_BYTES / 20)
    );
    let long_garbage_moves = &format!("{KYOTO} moves {}", "x".repeat(ARG_BYTES));

    let mut v = vec![
        // ---- perft ------------------------------------------------------------------------
        // Empty position.
        case("perft empty", &["perft", "", "1"], 1, "empty position"),
        // Only spaces.
        case("perft blank", &["perft", "   ", "1"], 1, "empty position"),
        // Empty depth.
        case("perft empty depth", &["perft", KYOTO, ""], 1, "DEPTH"),
        // A negative depth.
        case("perft depth -1", &["perft", KYOTO, "-1"], 1, "DEPTH"),
        // A depth beyond u32, and one of 23 digits: a number, but too large (the maximum,
        // kshogi_core::MAX_PERFT_DEPTH, is 30).
        case("perft depth overflow", &["perft", KYOTO, "99999999999"], 1, "too large"),
        case("perft depth 23 digits", &["perft", KYOTO, "12345678901234567890123"], 1, "DEPTH `12345678901234567890123` is too large"),
        // Depths that once overflowed the stack (10000) or ran for ever (100): refused at
        // once, with the maximum.
        case("perft depth 10000", &["perft", KYOTO, "10000"], 1, "at most 30 plies"),
        case("perft depth 31", &["perft", KYOTO, "31"], 1, "too large"),
        // A depth that is not a number.
        case("perft depth text", &["perft", KYOTO, "three"], 1, "DEPTH"),
        // Control characters (valid UTF-8, but binary) as the position.
        case("perft binary", &["perft", "\u{1}\u{2}\u{7f}", "1"], 1, "unexpected character"),
        // A Kyoto SFEN read as Micro.
        case("perft wrong variant", &["perft", "--variant", "micro", KYOTO, "1"], 1, "longer than 4 squares"),
        // A Micro SFEN read as Kinzoku.
        case("perft micro as kinzoku", &["perft", "--variant", "kinzoku", "kbgs/p3/4/3P/SGBK b - 1", "1"], 1, "unknown piece"),
        // A board no registered variant has (6x5 while none is 6x5), wider than high and
        // higher than wide.
        case("perft wide board", &["perft", wide.0, "1"], 1, wide.1),
        case("perft high board", &["perft", high.0, "1"], 1, high.1),
        // Rows of different widths.
        case("perft ragged rows", &["perft", "5/4/5/5/5 b - 1", "1"], 1, "rank b has 4 squares, but rank a has 5"),
        // Wrong size for an explicit variant.
        case("perft short board", &["perft", "--variant", "kyoto", "pgkst/5/5/5 b - 1", "1"], 1, "5 ranks"),
        // A count no set holds.
        case("perft 999999999P", &["perft", "pgkst/5/5/5/TSKGP b 999999999P 1", "1"], 1, "999999999"),
        // A count of zero.
        case("perft 0P", &["perft", "k4/5/5/5/4K b 0P 1", "1"], 1, "count of 0"),
        // More pieces of a pair than the set has.
        case("perft 99P", &["perft", "k4/5/5/5/4K b 99P 1", "1"], 1, "99 pieces"),
        // An illegal move in the moves list.
        case("perft illegal move", &["perft", "--variant", "kyoto", "startpos moves 1e1c", "1"], 1, "move 1"),
        // A move of the wrong side.
        case("perft wrong side", &["perft", "--variant", "kyoto", "startpos moves 5a5b+", "1"], 1, "not black's"),
        // `startpos` without --variant.
        case("perft startpos", &["perft", "startpos", "1"], 1, "--variant"),
        // Both kings missing.
        case("perft no kings", &["perft", "5/5/5/5/5 b - 1", "1"], 1, "kings"),
        // The side not to move is in check.
        case("perft opponent in check", &["perft", "k4/R4/5/5/4K b - 1", "1"], 1, "in check"),
        // A ply beyond the limit.
        case("perft ply", &["perft", "pgkst/5/5/5/TSKGP b - 1000000001", "1"], 1, "ply"),
        // 100 KB of one rank.
        case("perft huge rank", &["perft", long_board, "1"], 1, "no board is 100000 by 1"),
        // 100 KB of ranks.
        case("perft huge board", &["perft", long_rows, "1"], 1, "no board"),
        // 100 KB moves list: the game ends by repetition long before its end.
        case("perft huge moves", &["perft", "--variant", "kyoto", long_moves, "1"], 1, "game ended"),
        // Unknown option: a usage error.
        case("perft unknown option", &["perft", "--depth", "3", KYOTO], 2, "--depth"),
        // Unknown variant name: a usage error.
        case("perft unknown variant", &["perft", "--variant", "chess", "startpos", "1"], 2, "chess"),
        // Missing DEPTH: a usage error.
        case("perft missing depth", &["perft", KYOTO], 2, "required arguments"),
        // Threads out of range: a usage error.
        case("perft threads 0", &["perft", "--threads", "0", KYOTO, "1"], 2, "--threads"),
        // ---- moves ------------------------------------------------------------------------
        case("moves empty", &["moves", ""], 1, "empty position"),
        // ESC and a non-ASCII letter as the position.
        case("moves binary", &["moves", "\u{1b}\u{ff}"], 1, "unexpected character"),
        // A Kyoto SFEN read as Kinzoku.
        case("moves wrong variant", &["moves", "--variant", "kinzoku", KYOTO], 1, "unknown piece"),
        // A square board no variant has (4x4 while none is).
        case("moves unknown board", &["moves", square.0], 1, square.1),
        // A count no set holds.
        case("moves 999999999P", &["moves", "k4/5/5/5/4K b 999999999P 1"], 1, "999999999"),
        // Hands in a variant without drops.
        case("moves kinzoku hand", &["moves", "cks/1i1/3/1I1/SKC b P 1"], 1, "no drops"),
        // A countdown that Kinzoku does not allow.
        case("moves bad countdown", &["moves", "k2/3/3/1S1/2K w - 30 b9"], 1, "countdown"),
        // The second move of the list is illegal (the pawn has become a rook).
        case("moves illegal move", &["moves", &format!("{KYOTO} moves 1e1d+ 1e1d")], 1, "move 2"),
        // A move that is not USI at all.
        case("moves not usi", &["moves", &format!("{KYOTO} moves 1e1d+ xyz")], 1, "not a USI move"),
        // A drop of a piece not in hand.
        case("moves drop", &["moves", &format!("{KYOTO} moves T*3c")], 1, "in hand"),
        // 100 KB of one move text.
        case("moves huge move", &["moves", long_garbage_moves], 1, "not a USI move"),
        // No POSITION: a usage error.
        case("moves missing position", &["moves"], 2, "required arguments"),
        // ---- show -------------------------------------------------------------------------
        case("show empty", &["show", ""], 1, "empty position"),
        // Bell and backspace as the position.
        case("show binary", &["show", "\u{7}\u{8}"], 1, "unexpected character"),
        // A Kyoto SFEN read as Micro.
        case("show wrong variant", &["show", "--variant", "micro", KYOTO], 1, "longer than 4 squares"),
        // A small board no variant has (3x3 while none is).
        case("show unknown board", &["show", small.0], 1, small.1),
        // A count no set holds, with --json.
        case("show 999999999P", &["show", "--json", "pgkst/5/5/5/TSKGP b 999999999P 1"], 1, "999999999"),
        // A Micro pawn cannot jump three ranks.
        case("show illegal move", &["show", "--variant", "micro", "startpos moves 1d1a"], 1, "move 1"),
        // 100 KB of one rank.
        case("show huge", &["show", long_board], 1, "no board"),
        // An unknown --color value: a usage error.
        case("show bad colour", &["show", "--color", "sometimes", KYOTO], 2, "sometimes"),
        // ---- convert --to kif (INPUT is a POSITION) ----------------------------------------
        case("convert kif empty", &["convert", "--to", "kif", ""], 1, "empty position"),
        // A KIF file given where a position is read: said so, with the command that reads it.
        case("convert kif of a file", &["convert", "--to", "kif", &bad("kif_kyoto_record.kif")], 1, "is a file, but convert --to kif takes a POSITION"),
        // Two digits in a row, and a ply with a leading zero.
        case("perft two digits", &["perft", "pgkst/14/5/5/TSKGP b - 1", "1"], 1, "digits `14` in a row"),
        case("perft ply 01", &["perft", "pgkst/5/5/5/TSKGP b - 01", "1"], 1, "leading zeros"),
        case("perft countdown b255", &["perft", "k2/3/3/1S1/2K w - 30 b255", "1"], 1, "1 to 5"),
        // A Kyoto SFEN read as Micro.
        case("convert kif wrong variant", &["convert", "--to", "kif", "--variant", "micro", KYOTO], 1, "longer than 4 squares"),
        // A count no set holds.
        case("convert kif 999999999P", &["convert", "--to", "kif", "pgkst/5/5/5/TSKGP b 999999999P 1"], 1, "999999999"),
        // An illegal move in the moves list.
        case("convert kif illegal move", &["convert", "--to", "kif", "--variant", "kyoto", "startpos moves 1e1c"], 1, "move 1"),
        // 100 KB of one rank.
        case("convert kif huge", &["convert", "--to", "kif", long_board], 1, "no board"),
        // ---- convert --to sfen / usi (INPUT is a KIF file or `-`) --------------------------
        // An empty file names no variant.
        with_stdin(case("convert empty stdin", &["convert", "--to", "sfen", "-"], 1, "手合割"), Vec::new()),
        // A file that does not exist.
        case("convert nonexistent", &["convert", "--to", "sfen", nonexistent], 1, "cannot read"),
        // A directory instead of a file.
        case("convert directory", &["convert", "--to", "usi", directory], 1, "cannot read"),
        // 10 MB of noise, as a file and on stdin.
        case("convert huge binary file", &["convert", "--to", "sfen", huge_binary_file], 1, "neither UTF-8 nor Shift_JIS"),
        with_stdin(case("convert huge binary stdin", &["convert", "--to", "usi", "-"], 1, "neither UTF-8 nor Shift_JIS"), noise(TEN_MB)),
        // A 10 MB SFEN is not a KIF record.
        case("convert huge sfen file", &["convert", "--to", "sfen", "--variant", "kyoto", huge_sfen_file], 1, "expected a header line"),
        // A 10 MB record whose last line is an illegal move.
        with_stdin(case("convert huge kif stdin", &["convert", "--to", "usi", "-"], 1, "line 4: column 6: illegal move"), huge_kif),
        // Every byte value, four times (binary, not text).
        case("convert binary", &["convert", "--to", "sfen", &bad("kif_binary.bin")], 1, "neither UTF-8 nor Shift_JIS"),
        // A Shift_JIS lead byte followed by a byte that cannot trail it.
        case("convert not shift_jis", &["convert", "--to", "sfen", &bad("kif_not_shift_jis.kif")], 1, "neither UTF-8 nor Shift_JIS"),
        // UTF-8 text with a stray 0xFF 0xFE in a move line.
        case("convert invalid utf-8", &["convert", "--to", "sfen", &bad("kif_invalid_utf8.kif")], 1, "not UTF-8"),
        // A KIF cut off in the middle of a move line.
        case("convert cut off mid-line", &["convert", "--to", "usi", &bad("kif_cut_off_mid_line.kif")], 1, "line 4: column 12: expected the origin"),
        // A KIF cut off in the middle of a UTF-8 character.
        case("convert cut off mid-character", &["convert", "--to", "usi", &bad("kif_cut_off_mid_char.kif")], 1, "cut off"),
        // NUL bytes where a move should be.
        case("convert nul bytes", &["convert", "--to", "usi", &bad("kif_nul_bytes.kif")], 1, "expected a destination"),
        // A Kyoto record read as Micro.
        case("convert wrong variant", &["convert", "--to", "sfen", "--variant", "micro", &bad("kif_kyoto_record.kif")], 1, "Kyoto Shogi"),
        // A record of standard shogi (`手合割：平手`).
        case("convert standard shogi", &["convert", "--to", "sfen", &bad("kif_standard_shogi.kif")], 1, "平手"),
        // A `手合割` no variant has.
        case("convert unknown variant", &["convert", "--to", "sfen", &bad("kif_unknown_variant.kif")], 1, "大局将棋"),
        // No `手合割` and no --variant.
        case("convert no variant", &["convert", "--to", "sfen", &bad("kif_no_variant.kif")], 1, "手合割"),
        // A 4-file diagram in a Kyoto record.
        case("convert board size", &["convert", "--to", "sfen", &bad("kif_wrong_board_size.kif")], 1, "file numbers"),
        // 99 pawns in hand.
        case("convert huge count", &["convert", "--to", "sfen", &bad("kif_huge_hand_count.kif")], 1, "99 pieces"),
        // A pawn moving two squares.
        case("convert illegal move", &["convert", "--to", "usi", &bad("kif_illegal_move.kif")], 1, "illegal move"),
        // A move after `投了`.
        case("convert move after resign", &["convert", "--to", "usi", &bad("kif_move_after_resign.kif")], 1, "投了"),
        // A record with variations (`+` and `変化：`).
        case("convert variations", &["convert", "--to", "usi", &bad("kif_variations.kif")], 1, "variations"),
        // A move number of 23 digits.
        case("convert huge move number", &["convert", "--to", "usi", &bad("kif_huge_move_number.kif")], 1, "too large"),
        // 99 seconds in a time column.
        case("convert bad time", &["convert", "--to", "usi", &bad("kif_bad_time.kif")], 1, "time column"),
        // A result line that contradicts the resignation.
        case("convert wrong result", &["convert", "--to", "usi", &bad("kif_wrong_result.kif")], 1, "result line"),
        // An SFEN given where a KIF record is expected.
        case("convert sfen as kif", &["convert", "--to", "sfen", "--variant", "kyoto", &bad("sfen_as_kif.kif")], 1, "expected a header line"),
        // Usage errors.
        case("convert unknown format", &["convert", "--to", "csa", "-"], 2, "csa"),
        // --all with --to usi: a usage error.
        case("convert --all with usi", &["convert", "--to", "usi", "--all", "-"], 2, "--all"),
        // No INPUT: a usage error.
        case("convert missing input", &["convert", "--to", "sfen"], 2, "required arguments"),
        // A subcommand that does not exist: a usage error.
        case("unknown subcommand", &["analyse", KYOTO], 2, "analyse"),
        // analyze: the same POSITION errors as the other subcommands, and bad limits.
        case("analyze empty", &["analyze", ""], 1, "empty position"),
        case("analyze unknown letter", &["analyze", "pgkst/5/5/5/TSKGX b - 1"], 1, "unknown piece `X`"),
        case("analyze illegal move", &["analyze", "--variant", "kyoto", "startpos moves 1e1c"], 1, "not legal here"),
        case("analyze startpos without variant", &["analyze", "startpos"], 1, "--variant"),
        case("analyze wrong variant", &["analyze", "--variant", "micro", KYOTO], 1, "longer than 4 squares"),
        case("analyze huge board", &["analyze", long_board], 1, "board"),
        case("analyze depth not a number", &["analyze", "--depth", "x", "--variant", "kyoto", "startpos"], 2, "--depth"),
        case("analyze multipv 0", &["analyze", "--multipv", "0", "--variant", "kyoto", "startpos"], 2, "--multipv"),
        case("analyze hash 0", &["analyze", "--hash", "0", "--variant", "kyoto", "startpos"], 2, "--hash"),
        // analyze --db: the file must be a usable Kinzoku database.
        case("analyze db directory", &["analyze", "--db", directory, KINZOKU], 1, "cannot read the database"),
        case("analyze db missing", &["analyze", "--db", no_db, KINZOKU], 1, "cannot read the database"),
        case("analyze db garbage", &["analyze", "--db", garbage_db, KINZOKU], 1, "not a usable database"),
        case("analyze db fake header", &["analyze", "--db", fake_db, KINZOKU], 1, "not a usable database"),
        case("analyze db empty name", &["analyze", "--db", "", KINZOKU], 2, "--db"),
        // solve: only Kinzoku, options in range, files that are databases.
        case("solve kyoto", &["solve", "kyoto"], 1, "far too many positions to solve"),
        case("solve micro", &["solve", "micro", "--max-pieces", "1"], 1, "far too many positions to solve"),
        case("solve dobutsu verify", &["solve", "dobutsu", "--verify"], 1, "no database at"),
        case("solve dobutsu bad pieces", &["solve", "dobutsu", "--pieces", "RX"], 2, "`X` in `RX`"),
        case("solve unknown variant", &["solve", "chess"], 2, "chess"),
        case("solve missing variant", &["solve"], 2, "required arguments"),
        case("solve threads 0", &["solve", "kinzoku", "--threads", "0"], 2, "--threads"),
        case("solve threads text", &["solve", "kinzoku", "--threads", "many"], 2, "--threads"),
        case("solve threads huge", &["solve", "kinzoku", "--threads", "99999"], 2, "--threads"),
        case("solve max-pieces 0", &["solve", "kinzoku", "--max-pieces", "0"], 2, "`0` is not a Kinzoku sub-game"),
        case("solve max-pieces 7", &["solve", "kinzoku", "--max-pieces", "7"], 2, "`7` is not a Kinzoku sub-game"),
        case("solve out directory", &["solve", "kinzoku", "--max-pieces", "1", "--out", directory], 1, "is a directory"),
        case("solve out existing", &["solve", "kinzoku", "--max-pieces", "1", "--out", garbage_db], 1, "--force"),
        case("solve out and verify", &["solve", "kinzoku", "--verify", "--out", no_db], 2, "cannot be used with"),
        case("solve sample without verify", &["solve", "kinzoku", "--sample", "5"], 2, "required arguments"),
        case("solve sample 0", &["solve", "kinzoku", "--verify", "--sample", "0"], 2, "--sample"),
        case("solve sample text", &["solve", "kinzoku", "--verify", "--sample", "some"], 2, "--sample"),
        case("solve verify missing", &["solve", "kinzoku", "--verify", "--db", no_db], 1, "no database at"),
        case("solve verify default missing", &["solve", "kinzoku", "--verify"], 1, "no database at"),
        case("solve verify directory", &["solve", "kinzoku", "--verify", "--db", directory], 1, "cannot read the database"),
        case("solve verify garbage", &["solve", "kinzoku", "--verify", "--db", garbage_db], 1, "not a usable database"),
        // usi: only the starting variant is an argument; everything else comes on stdin.
        case("usi unknown variant", &["usi", "--variant", "chess"], 2, "chess"),
    ];
    v.extend(invalid_utf8_arguments(&bad("kif_invalid_utf8.kif")));
    v
}

/// Invalid UTF-8 as an argument: the argument parser refuses it (a usage error).
#[cfg(unix)]
fn invalid_utf8_arguments(kif: &str) -> Vec<Case> {
    use std::os::unix::ffi::OsStringExt as _;
    let bad = |bytes: &[u8]| OsString::from_vec(bytes.to_vec());
    let sfen = bad(b"pgkst/5/5/5/TSKG\xff b - 1");
    let mk = |what: &str, args: Vec<OsString>| Case {
        what: what.to_string(),
        args,
        stdin: None,
        code: 2,
        names: "invalid UTF-8",
    };
    vec![
        mk(
            "perft invalid utf-8 arg",
            vec!["perft".into(), sfen.clone(), "1".into()],
        ),
        mk(
            "moves invalid utf-8 arg",
            vec!["moves".into(), sfen.clone()],
        ),
        mk("show invalid utf-8 arg", vec!["show".into(), sfen.clone()]),
        mk(
            "convert invalid utf-8 arg",
            vec!["convert".into(), "--to".into(), "kif".into(), sfen],
        ),
        mk(
            "convert invalid utf-8 path",
            vec![
                "convert".into(),
                "--to".into(),
                "sfen".into(),
                bad(b"\xff.kif"),
            ],
        ),
        // The file itself is fine to name; its content is checked above.
        Case {
            what: "convert invalid utf-8 file".into(),
            args: vec!["convert".into(), "--to".into(), "usi".into(), kif.into()],
            stdin: None,
            code: 1,
            names: "not UTF-8",
        },
    ]
}

#[cfg(not(unix))]
fn invalid_utf8_arguments(_kif: &str) -> Vec<Case> {
    Vec::new()
}

/// Runs kshogi in `dir` with `args` and `stdin`.
fn run(dir: &Path, args: &[OsString], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kshogi"))
        .args(args)
        .current_dir(dir)
        .env("KSHOGI_DB", dir)
        .env("RUST_BACKTRACE", "1")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kshogi binary runs");
    let mut pipe = child.stdin.take().expect("stdin");
    let bytes = stdin.unwrap_or_default().to_vec();
    // Feed stdin from a thread: kshogi may stop reading (and exit) before the end.
    let feeder = std::thread::spawn(move || {
        let _ = pipe.write_all(&bytes);
    });
    let out = child.wait_with_output().expect("kshogi finishes");
    let _ = feeder.join();
    out
}

/// `s`, cut to about `n` bytes (at a character boundary) for messages.
fn clip(s: &str, n: usize) -> String {
    if s.len() <= n {
        return s.to_string();
    }
    let mut end = n;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &s[..end], s.len())
}

/// Checks one case; returns what is wrong with kshogi's answer, if anything.
fn check(c: &Case, dir: &Path) -> Result<(), String> {
    let out = run(dir, &c.args, c.stdin.as_deref());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let shown = clip(&stderr, 400);
    let mut problems = Vec::new();
    if out.status.code() != Some(c.code) {
        problems.push(format!("exit status {:?}, expected {}", out.status, c.code));
    }
    if !out.stdout.is_empty() {
        problems.push(format!("{} bytes on stdout", out.stdout.len()));
    }
    for panic_sign in [
        "panicked",
        "RUST_BACKTRACE",
        "internal error",
        "this is a bug",
    ] {
        if stderr.contains(panic_sign) {
            problems.push(format!("panic message (`{panic_sign}`)"));
        }
    }
    let first = stderr.lines().next().unwrap_or("");
    if !first.starts_with("error: ") {
        problems.push("stderr does not start with `error: `".into());
    }
    let error_lines = stderr.lines().filter(|l| l.starts_with("error")).count();
    if error_lines != 1 {
        problems.push(format!("{error_lines} `error` lines"));
    }
    if c.code == 1 && stderr.lines().count() != 1 {
        problems.push(format!(
            "{} lines on stderr, expected one",
            stderr.lines().count()
        ));
    }
    if !first.contains(c.names) {
        problems.push(format!("the error line does not name `{}`", c.names));
    }
    let left: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.file_name()).collect())
        .unwrap_or_default();
    if !left.is_empty() {
        problems.push(format!("files left behind: {left:?}"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}: {}\n    args: {:?}\n    stderr: {shown}",
            c.what,
            problems.join("; "),
            c.args
                .iter()
                .map(|a| clip(&a.to_string_lossy(), 80))
                .collect::<Vec<_>>()
        ))
    }
}

/// No arguments at all: the argument parser prints the usage (not an `error:` line) on
/// stderr, exits with 2 and prints nothing on stdout.
#[test]
fn no_arguments_print_the_usage_on_stderr() {
    let dir = scratch("no-arguments");
    let out = run(&dir, &[], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(stderr.contains("Usage: kshogi <COMMAND>"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn every_bad_input_is_one_error_line_and_no_output() {
    let files = scratch("inputs");
    let cases = cases(&files);
    let subcommands = ["perft", "moves", "show", "convert", "solve"];
    for sub in subcommands {
        assert!(
            cases
                .iter()
                .filter(|c| c.args.first().is_some_and(|a| a == sub))
                .count()
                >= 5,
            "too few cases for `{sub}`"
        );
    }
    let mut failures = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let dir = scratch(&format!("run-{i}"));
        if let Err(e) = check(c, &dir) {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Runs a bad-input case and returns its stderr (after checking status 1 and no stdout).
fn stderr_of(what: &str, args: &[OsString]) -> String {
    let dir = scratch(what);
    let out = run(&dir, args, None);
    assert_eq!(out.status.code(), Some(1), "{what}");
    assert!(out.stdout.is_empty(), "{what}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Found while building the corpus above: error messages quote the offending text as it is,
/// control characters included. `kshogi perft $'\e[2J\e[31mred' 1` prints
/// ``error: column 1: board: unexpected character `<ESC>` `` with a raw ESC byte (a terminal
/// runs it as an escape sequence), and a KIF line with a carriage return in a move,
/// `   1 ２<CR>四歩成(15)`, gives ``... found `<CR>` `` whose CR sends the cursor back to
/// the start of the line, so the message no longer reads as one line. Expected: control
/// characters shown escaped (`\u{1b}`, `\r`), as `{:?}` would.
#[test]
fn errors_do_not_echo_control_characters() {
    let files = scratch("control-inputs");
    let kif = files.join("cr_in_move.kif");
    std::fs::write(&kif, format!("{KIF_HEAD}   1 ２\r四歩成(15)\n")).expect("write KIF");
    let cases: Vec<(&str, Vec<OsString>)> = vec![
        (
            "escape",
            vec!["perft".into(), "\u{1b}[2J\u{1b}[31mred".into(), "1".into()],
        ),
        ("bell", vec!["moves".into(), "\u{7}".into()]),
        (
            "cr in kif",
            vec!["convert".into(), "--to".into(), "usi".into(), kif.into()],
        ),
    ];
    for (what, args) in cases {
        let stderr = stderr_of(what, &args);
        let line = stderr.strip_suffix('\n').unwrap_or(&stderr);
        assert!(
            !line.chars().any(char::is_control),
            "{what}: control character in {line:?}"
        );
    }
}

/// Found while building the corpus above: error messages quote the whole offending field,
/// however long. A 100 KB ply number (`pgkst/5/5/5/TSKGP b - 111...1`) gives a 100 KB error
/// line, and so does a 100 KB `手合割` value in a KIF file (and a 10 MB value, 10 MB).
/// Expected: the quote cut to a readable length (the issue asks for bounded input lines).
#[test]
fn errors_do_not_echo_huge_input() {
    let files = scratch("long-inputs");
    let kif = files.join("long_handicap.kif");
    std::fs::write(&kif, format!("手合割：{}\n", "x".repeat(ARG_BYTES))).expect("write KIF");
    let ply = format!("{KYOTO}{}", "1".repeat(ARG_BYTES));
    let cases: Vec<(&str, Vec<OsString>)> = vec![
        ("long ply", vec!["perft".into(), ply.into(), "1".into()]),
        (
            "long handicap",
            vec!["convert".into(), "--to".into(), "sfen".into(), kif.into()],
        ),
    ];
    for (what, args) in cases {
        let stderr = stderr_of(what, &args);
        assert!(
            stderr.len() <= 1024,
            "{what}: {} bytes of error: {}",
            stderr.len(),
            clip(&stderr, 200)
        );
    }
}
