//! The table of bad inputs, one case per row.

use super::*;

/// The whole table, one case per row. Inputs that are generated (huge ones) are written
/// to `files` first.
#[rustfmt::skip]
pub(super) fn cases(files: &Path) -> Vec<Case> {
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
        // A 10 MB POSITION in a file: its second `moves` is no move.
        case("convert huge sfen file", &["convert", "--to", "sfen", "--variant", "kyoto", huge_sfen_file], 1, "move 2: `moves` is not a USI move"),
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
