//! Reading the hand-written KIF records of `tests/data/kif/`.
//!
//! Every game was composed from the rules (docs/rules.md) and every expected position below
//! was worked out by hand, move by move, in the comments; the program's output is never
//! the source of an expectation.

use kshogi_core::Color;
use kshogi_core::Variant;
use kshogi_notation::kif::{
    decode_kif, parse_kif, read_kif, to_kif, KifHeaderLine, KifRecord, KifResult, KifSpecial,
    KifTime, SideNames,
};
use kshogi_notation::{move_to_usi, to_sfen};
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;
use kshogi_variants::{with_variant, VariantKind};
use std::path::PathBuf;

/// The variant of a KIF record among the registered ones: notation's choice by the
/// `手合割` header over the list's summaries (what `kshogi_registry::kif_variant` does; the
/// registry sits above this crate).
fn kif_variant(text: &str) -> Result<VariantKind, kshogi_notation::kif::KifError> {
    kshogi_notation::kif::kif_variant(text, VariantKind::infos()).map(|i| VariantKind::ALL[i])
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/kif")
        .join(name)
}

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(data(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn text(name: &str) -> String {
    String::from_utf8(bytes(name)).expect("UTF-8 data file")
}

fn usi<V: Variant>(r: &KifRecord<V>) -> Vec<String> {
    r.moves().iter().map(|m| move_to_usi::<V>(m.mv())).collect()
}

// The Kyoto game of `kyoto_site_export.kif`, in USI. From the start
// `pgkst/5/5/5/TSKGP b - 1` (White: pawn 5a, gold 4a, king 3a, silver 2a, tokin 1a;
// Black: tokin 5e, silver 4e, king 3e, gold 2e, pawn 1e), every non-king move flips:
//  1. 1e1d+  Black's pawn steps to 1d and turns into a rook.
//  2. 5a5b+  White's pawn steps to 5b and turns into a rook.
//  3. 1d1a+  The rook runs up file 1 and takes the tokin on 1a, turning into a pawn;
//            Black holds a tokin/lance.
//  4. 2a1b+  White's silver steps to 1b and turns into a bishop.
//  5. 4e3d+  Black's silver steps to 3d and turns into a bishop (the bishop on 1b sees it
//            through 2c).
//  6. 1b3d+  The bishop takes it (同) and turns into a silver, checking the king on 3e;
//            White holds a silver/bishop.
//  7. 3e3d   The king takes the silver (同); nothing defends 3d. Black holds a silver.
//  8. 5b5e+  White's rook runs down file 5 and takes the tokin on 5e, turning into a pawn;
//            White holds a tokin/lance too.
//  9. 3d3c   The king steps up; 3c is attacked by nothing.
// 10. 4a4b+  White's gold steps to 4b and turns into a knight, leaving 4a and 3b bare.
// 11. T*3b   Black drops a tokin on 3b: check to the king on 3a, the tokin defended by the
//            king on 3c. The king's squares 2a, 4a (diagonally ahead of the tokin) and 2b
//            (beside it) are covered, 4b holds its own knight, the knight on 4b jumps only
//            to 3d and 5d, and the pawn on 5e cannot move: checkmate, Black wins.
const KYOTO_GAME: [&str; 11] = [
    "1e1d+", "5a5b+", "1d1a+", "2a1b+", "4e3d+", "1b3d+", "3e3d", "5b5e+", "3d3c", "4a4b+", "T*3b",
];
// After move 11: rank a: king 3a, Black's pawn 1a; rank b: White's knight 4b, Black's tokin
// 3b; rank c: Black's king 3c; rank e: White's pawn 5e, Black's gold 2e. Black holds a
// silver; White holds a tokin/lance and a silver/bishop. White to move, ply 12.
const KYOTO_FINAL: &str = "2k1P/1nT2/2K2/5/p2G1 w Sts 12";

#[test]
fn kyoto_record_as_the_site_exports_it() {
    let text = text("kyoto_site_export.kif");
    assert_eq!(kif_variant(&text).unwrap(), VariantKind::Kyoto);
    let r = parse_kif::<Kyoto>(&text).unwrap();
    assert_eq!(to_sfen(r.start()), "pgkst/5/5/5/TSKGP b - 1");
    assert_eq!(usi(&r), KYOTO_GAME);
    assert_eq!(to_sfen(r.position()), KYOTO_FINAL);
    assert_eq!(r.result(), Some(KifResult::Win(Color::Black)));
    assert_eq!(r.summary.as_deref(), Some("まで11手で先手の勝ち"));
    assert_eq!(r.names, SideNames::SenteGote);
    assert!(r.end.is_none());
    // Headers in order, unknown ones kept.
    let keys: Vec<&str> = r
        .headers
        .iter()
        .filter_map(|h| match h {
            KifHeaderLine::Field { key, .. } => Some(key.as_str()),
            KifHeaderLine::Comment(_) => None,
        })
        .collect();
    assert_eq!(
        keys,
        [
            "開始日時",
            "終了日時",
            "棋戦",
            "場所",
            "持ち時間",
            "手合割",
            "先手",
            "後手"
        ]
    );
    assert_eq!(
        r.headers[1],
        KifHeaderLine::Field {
            key: "開始日時".into(),
            value: "2023/01/01 12:00:00".into()
        }
    );
    // Times: move 10 took 30 s, and White had used 1:03 by then.
    assert_eq!(
        r.moves()[9].time,
        Some(KifTime {
            move_seconds: 30,
            total_seconds: 63
        })
    );
    assert_eq!(r.moves()[4].comments, ["*Alice offers the silver."]);
    // The file is written in kshogi's canonical layout, so writing gives it back exactly.
    assert_eq!(to_kif(&r), text);
}

#[test]
fn shift_jis_and_bom_give_the_same_record() {
    let utf8 = text("kyoto_site_export.kif");
    let reference = parse_kif::<Kyoto>(&utf8).unwrap();
    // The committed Shift_JIS file (made from the UTF-8 one with iconv, CP932, and its
    // `#KIF` line saying `encoding=Shift_JIS`).
    let sjis_file = bytes("kyoto_site_export_sjis.kif");
    assert!(std::str::from_utf8(&sjis_file).is_err(), "really not UTF-8");
    let decoded = decode_kif(&sjis_file).unwrap();
    assert_eq!(
        decoded,
        utf8.replace("encoding=UTF-8", "encoding=Shift_JIS")
    );
    // Shift_JIS made here with encoding_rs, with CRLF line ends as Windows writes them.
    let crlf = utf8.replace('\n', "\r\n");
    let (sjis, _, lossy) = encoding_rs::SHIFT_JIS.encode(&crlf);
    assert!(!lossy);
    // UTF-8 with a byte order mark.
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(utf8.as_bytes());
    for input in [sjis_file, sjis.into_owned(), bom] {
        let r = read_kif::<Kyoto>(&input).unwrap();
        assert_eq!(usi(&r), KYOTO_GAME);
        assert_eq!(to_sfen(r.position()), KYOTO_FINAL);
        assert_eq!(r.moves(), reference.moves());
        // Written back as UTF-8, saying so.
        assert_eq!(to_kif(&r), utf8);
    }
}

#[test]
fn kyoto_record_with_handicap_names() {
    // The first nine moves of the game above, written with 下手/上手, without `成` (every
    // Kyoto flip is mandatory), with `同` in its short forms, and without padding; then
    // 上手 (White), to move at move 10, resigns.
    let r = parse_kif::<Kyoto>(&text("kyoto_handicap_names.kif")).unwrap();
    assert_eq!(usi(&r), KYOTO_GAME[..9]);
    // After move 9: rank a: White's gold 4a and king 3a, Black's pawn 1a; Black's king
    // on 3c; White's pawn 5e and Black's gold 2e. Black holds the tokin/lance taken on 1a
    // and the silver taken on 3d; White the bishop (silver pair) taken on 3d and the
    // tokin taken on 5e. White to move, ply 10.
    assert_eq!(to_sfen(r.position()), "1gk1P/5/2K2/5/p2G1 w TSts 10");
    assert_eq!(r.names, SideNames::ShitateUwate);
    assert_eq!(r.end.as_ref().map(|e| e.special), Some(KifSpecial::Resign));
    assert_eq!(r.result(), Some(KifResult::Win(Color::Black)));
    let out = to_kif(&r);
    assert!(out.contains("下手：Alice\n上手：Bob\n"), "{out}");
    assert!(
        out.contains("   6 同　角成(12)\n   7 同　玉(35)\n"),
        "{out}"
    );
    assert!(out.ends_with("  10 投了\nまで9手で下手の勝ち\n"), "{out}");
}

#[test]
fn micro_game() {
    // Start `kbgs/p3/4/3P/SGBK b - 1`: White king 4a, bishop 3a, gold 2a, silver 1a, pawn
    // 4b; Black pawn 1d, silver 4e, gold 3e, bishop 2e, king 1e. Only captures flip.
    //  1. 1d1c   pawn steps, no flip.       2. 4b4c   pawn steps.
    //  3. 1c1b   pawn steps next to the silver.
    //  4. 1a1b+  the silver takes it (同) and turns into a lance, checking down file 1.
    //  5. 2e1d   the bishop interposes on 1d, no capture, no flip.
    //  6. 1b1d+  the lance takes it (同) and turns into a silver: check from 1d.
    //  7. 1e1d   the king takes the silver (同); White's bishop on 3a sees only 2b and 1c.
    //  8. P*2c   White drops the pawn it took on move 4.
    //  9. 3e4d   Black's gold steps aside, no capture.
    // 10. T*2d   White drops a tokin (the bishop pair taken on move 6) on 2d: check sideways
    //            to the king on 1d, defended by the pawn on 2c. 1c is seen by the bishop on
    //            3a, 1e and 2e by the tokin, 2c is defended by the tokin (straight back),
    //            2d by the pawn; nothing of Black's reaches 2d: checkmate, White wins.
    let r = parse_kif::<Micro>(&text("micro_game.kif")).unwrap();
    assert_eq!(
        usi(&r),
        ["1d1c", "4b4c", "1c1b", "1a1b+", "2e1d", "1b1d+", "1e1d", "P*2c", "3e4d", "T*2d"]
    );
    // Rank a: king, bishop, gold; rank c: pawns 4c and 2c; rank d: Black's gold 4d,
    // White's tokin 2d, Black's king 1d; rank e: Black's silver 4e. Black holds the silver
    // taken on move 7; White's hand is empty. Black to move, ply 11.
    assert_eq!(to_sfen(r.position()), "kbg1/4/p1p1/G1tK/S3 b S 11");
    assert_eq!(r.result(), Some(KifResult::Win(Color::White)));
    assert_eq!(
        r.game().outcome().map(|o| o.to_string()).as_deref(),
        Some("white wins by checkmate")
    );
    assert_eq!(
        r.moves()[3].comments,
        ["*The lance now gives check along file 1."]
    );
    assert_eq!(to_kif(&r), text("micro_game.kif"));
}

#[test]
fn kinzoku_game_with_a_promotion() {
    // Start `cks/1i1/3/1I1/SKC b - 1`. Soldiers step forward or sideways; Black's soldier
    // promotes (to a gold-mover, 金) on rank a; captured pieces leave the game.
    //  1. 2d3d  2. 2b1b  3. 3d3c  4. 1b1c  5. 3c3b  6. 1c1d (White's soldier now attacks
    //  the copper on 1e)  7. 3b3a+ (takes the copper and promotes: check from the side)
    //  8. 2a3a (同: the king takes it)  9. 1e1d (the copper takes the soldier)  10. White
    //  resigns.
    let r = parse_kif::<Kinzoku>(&text("kinzoku_promotion.kif")).unwrap();
    assert_eq!(
        usi(&r),
        ["2d3d", "2b1b", "3d3c", "1b1c", "3c3b", "1c1d", "3b3a+", "2a3a", "1e1d"]
    );
    assert!(r.moves()[6].mv().is_flip());
    // White: king 3a, silver 1a. Black: copper 1d, silver 3e, king 2e. White to move.
    assert_eq!(to_sfen(r.position()), "k1s/3/3/2C/SK1 w - 10");
    assert_eq!(r.result(), Some(KifResult::Win(Color::Black)));
    assert_eq!(to_kif(&r), text("kinzoku_promotion.kif"));
}

#[test]
fn kyoto_diagram_with_hands_and_white_to_move() {
    // The position after move 9 of the Kyoto game, set up as a diagram: White to move, and
    // the hands written in another order and by the other face (香 for the tokin/lance
    // pair). The moves go on from number 10, which sets the ply.
    let r = parse_kif::<Kyoto>(&text("kyoto_diagram_white_to_move.kif")).unwrap();
    assert_eq!(to_sfen(r.start()), "1gk1P/5/2K2/5/p2G1 w TSts 10");
    assert_eq!(usi(&r), KYOTO_GAME[9..]);
    assert_eq!(to_sfen(r.position()), KYOTO_FINAL);
    assert_eq!(
        r.start_comments,
        ["*White to move; Black threatens ３二と打."]
    );
    let out = to_kif(&r);
    // The hands come back in canonical order, by the first face; the ply as `手数＝9`.
    assert!(
        out.contains("後手の持駒：と　銀\n  ５ ４ ３ ２ １\n+---------------+\n"),
        "{out}"
    );
    assert!(
        out.contains("+---------------+\n先手の持駒：と　銀\n後手番\n手数＝9\n先手：Alice\n"),
        "{out}"
    );
    let again = parse_kif::<Kyoto>(&out).unwrap();
    assert_eq!(again.start(), r.start());
    assert_eq!(again.moves(), r.moves());
}

#[test]
fn errors_name_the_line() {
    let cases: [(&str, VariantKind, usize, Option<usize>, &str); 4] = [
        // The gold on ２五 moves one step; ２三 is two away.
        (
            "illegal_move.kif",
            VariantKind::Kyoto,
            7,
            Some(6),
            "illegal move `２三金成(25)`",
        ),
        // The file ends inside the origin `(4`.
        (
            "cut_off.kif",
            VariantKind::Micro,
            4,
            Some(11),
            "found the end of the line",
        ),
        (
            "unknown_piece.kif",
            VariantKind::Kyoto,
            4,
            Some(8),
            "unknown piece `龍`",
        ),
        // File 4 does not exist on the 3-file Kinzoku board.
        (
            "bad_destination.kif",
            VariantKind::Kinzoku,
            4,
            Some(6),
            "destination `４四` is off the 3x5 board",
        ),
    ];
    for (name, kind, line, column, part) in cases {
        let bytes = bytes(&format!("errors/{name}"));
        let text = decode_kif(&bytes).unwrap();
        assert_eq!(kif_variant(&text).unwrap(), kind, "{name}");
        let e = with_variant!(kind, V => read_kif::<V>(&bytes).map(|_| ())).unwrap_err();
        assert_eq!((e.line, e.column), (line, column), "{name}: {e}");
        assert!(e.to_string().contains(part), "{name}: {e}");
        assert!(e.to_string().starts_with(&format!("line {line}: ")), "{e}");
    }
}

#[test]
fn shift_jis_errors_name_the_line() {
    // Line 3 of an otherwise Shift_JIS file has a byte (0xFF) that Shift_JIS never uses.
    let (good, _, _) = encoding_rs::SHIFT_JIS.encode("手合割：京都将棋\n先手：A\n");
    let mut bytes = good.into_owned();
    bytes.extend_from_slice(b"\xFF\n");
    let e = read_kif::<Kyoto>(&bytes).unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    assert!(e.to_string().contains("neither UTF-8 nor Shift_JIS"), "{e}");
}

/// Damaged records give errors, never panics: every prefix of each file (cut anywhere,
/// even inside a character's bytes), and many random edits with characters that matter in
/// KIF.
#[test]
fn damaged_input_never_panics() {
    fn parse_all(bytes: &[u8]) {
        let _ = read_kif::<Kyoto>(bytes);
        let _ = read_kif::<Micro>(bytes);
        let _ = read_kif::<Kinzoku>(bytes);
        if let Ok(text) = decode_kif(bytes) {
            let _ = kif_variant(&text);
        }
    }
    let files = [
        "kyoto_site_export.kif",
        "kyoto_handicap_names.kif",
        "micro_game.kif",
        "kinzoku_promotion.kif",
        "kyoto_diagram_white_to_move.kif",
        "kyoto_site_export_sjis.kif",
    ];
    let alphabet: Vec<char> =
        "０１２３４５６７８９0123456789一二三四五六七八九十同成不打()（）：:/ 　\
                               \n|v・+-*#&まで手投了千日手玉王と香銀角金桂歩飛銅鉄番持駒＝なし"
            .chars()
            .collect();
    let mut generator = kshogi_core::rng::SplitMix64::new(0x5EED_F00D_D00D);
    let mut rng = move || generator.next_u64();
    for name in files {
        let original = bytes(name);
        for cut in 0..=original.len() {
            parse_all(&original[..cut]);
        }
        let Ok(text) = decode_kif(&original) else {
            continue;
        };
        for _ in 0..400 {
            let mut chars: Vec<char> = text.chars().collect();
            for _ in 0..1 + rng() % 3 {
                let at = (rng() % chars.len() as u64) as usize;
                let c = alphabet[(rng() % alphabet.len() as u64) as usize];
                match rng() % 3 {
                    0 => chars[at] = c,
                    1 => chars.insert(at, c),
                    _ => {
                        chars.remove(at);
                    }
                }
            }
            let damaged: String = chars.into_iter().collect();
            parse_all(damaged.as_bytes());
        }
    }
}

#[test]
fn suspended_after_a_finished_game() {
    // The game of `kyoto_site_export.kif` (Black mates with move 11), with the result line
    // `まで11手で中断`: a site that does not know the rules may call it suspended.
    let text = text("kyoto_suspended_after_mate.kif");
    let r = parse_kif::<Kyoto>(&text).unwrap();
    assert_eq!(usi(&r), KYOTO_GAME);
    assert_eq!(to_sfen(r.position()), KYOTO_FINAL);
    assert_eq!(r.summary.as_deref(), Some("まで11手で中断"));
    assert!(r.end.is_none());
    // The rules still know the game is over.
    assert!(r.game().outcome().is_some());
    assert_eq!(to_kif(&r), text);
    // The special move line `中断` and the result line after the mate are read too.
    let with_line = text.replace("まで11手で中断", "  12 中断\nまで11手で中断");
    let r = parse_kif::<Kyoto>(&with_line).unwrap();
    assert_eq!(r.end.as_ref().map(|e| e.special), Some(KifSpecial::Suspend));
    // A result that contradicts the rules stays an error: White was mated (line 24).
    let wrong = text.replace("まで11手で中断", "まで11手で後手の勝ち");
    let e = parse_kif::<Kyoto>(&wrong).unwrap_err();
    assert_eq!(e.line, 24, "{e}");
    assert!(
        e.to_string()
            .contains("the result line says 後手 (white) wins, but by the rules"),
        "{e}"
    );
}

#[test]
fn short_and_engine_handicap_names() {
    // The Kyoto start from the header alone, and one move: the pawn on 1e steps to 1d and
    // turns into a rook (Black), White to move at ply 2.
    for name in ["京都", "kyotoshogi"] {
        let text = format!("手合割：{name}\n手数----指手---------消費時間--\n   1 １四歩成(15)\n");
        assert_eq!(kif_variant(&text).unwrap(), VariantKind::Kyoto, "{name}");
        let r = parse_kif::<Kyoto>(&text).unwrap();
        assert_eq!(to_sfen(r.start()), "pgkst/5/5/5/TSKGP b - 1", "{name}");
        assert_eq!(to_sfen(r.position()), "pgkst/5/5/4R/TSKG1 w - 2", "{name}");
    }
    // A name no variant declares is still an error naming the line.
    let e = kif_variant("手合割：京都将\n").unwrap_err();
    assert_eq!(e.line, 1, "{e}");
}
