//! Unit tests of KIF reading and writing: forms accepted, errors with their lines, and
//! round trips of the parts a record keeps. Expected positions are worked out by hand from
//! the rules (docs/rules.md) and written as SFEN.

use super::*;
use crate::{parse_game, parse_sfen, to_sfen};
use kshogi_core::{Color, Position};
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;

const KYOTO_HEAD: &str = "手合割：京都将棋\n手数----指手---------消費時間--\n";
const MICRO_HEAD: &str = "手合割：五分摩訶将棋\n手数----指手---------消費時間--\n";

fn kyoto(moves: &str) -> Result<KifRecord<Kyoto>, KifError> {
    parse_kif::<Kyoto>(&format!("{KYOTO_HEAD}{moves}"))
}

fn micro(moves: &str) -> Result<KifRecord<Micro>, KifError> {
    parse_kif::<Micro>(&format!("{MICRO_HEAD}{moves}"))
}

/// Asserts an error's line (and column, if given) and that its message contains `part`.
fn assert_err(e: &KifError, line: usize, column: Option<usize>, part: &str) {
    assert_eq!(e.line, line, "{e}");
    if column.is_some() {
        assert_eq!(e.column, column, "{e}");
    }
    assert!(e.to_string().contains(part), "`{part}` not in: {e}");
    assert!(e.to_string().starts_with(&format!("line {line}: ")), "{e}");
}

#[test]
fn start_position_from_the_header_alone() {
    let r = parse_kif::<Kyoto>("手合割：京都将棋\n").unwrap();
    assert_eq!(*r.start(), Position::start());
    assert!(r.moves().is_empty());
    let r = parse_kif::<Micro>("手合割：五分摩訶将棋　　\n").unwrap();
    assert_eq!(to_sfen(r.start()), "kbgs/p3/4/3P/SGBK b - 1");
    let r = parse_kif::<Kinzoku>("\u{FEFF}手合割：金属将棋\r\n").unwrap();
    assert_eq!(to_sfen(r.start()), "cks/1i1/3/1I1/SKC b - 1");
}

#[test]
fn kyoto_flip_mark_may_be_left_out_but_not_contradicted() {
    // 1e1d: the pawn on １五 steps to １四 and must turn into a rook.
    let with = kyoto("   1 １四歩成(15)\n").unwrap();
    let without = kyoto("   1 １四歩(15)\n").unwrap();
    assert_eq!(with.moves()[0].mv(), without.moves()[0].mv());
    assert!(with.moves()[0].mv().is_flip());
    assert_eq!(to_sfen(without.position()), "pgkst/5/5/4R/TSKG1 w - 2");
    let e = kyoto("   1 １四歩不成(15)\n").unwrap_err();
    assert_err(&e, 3, Some(9), "`不成` but the pawn must flip");
    // The king never flips.
    let e = kyoto("   1 ３四玉成(35)\n").unwrap_err();
    assert_err(&e, 3, Some(9), "`成` but the king does not flip");
    // `王` is accepted for the king, and `不成` on a move that does not flip is accepted.
    let r = kyoto("   1 ３四王(35)\n   2 ３二玉不成(31)\n").unwrap();
    assert_eq!(to_sfen(r.position()), "pg1st/2k2/5/2K2/TS1GP b - 3");
}

#[test]
fn micro_flips_only_on_captures() {
    // 1d1c moves the pawn without capturing: no flip, and `成` is wrong.
    let e = micro("   1 １三歩成(14)\n").unwrap_err();
    assert_err(&e, 3, Some(9), "`成` but the pawn does not flip");
    let r = micro("   1 １三歩(14)\n").unwrap();
    assert!(!r.moves()[0].mv().is_flip());
}

#[test]
fn the_piece_named_must_stand_on_the_origin() {
    let e = kyoto("   1 １四金(15)\n").unwrap_err();
    assert_err(&e, 3, Some(6), "the piece on １五 is a pawn (歩), not 金");
    let e = kyoto("   1 １四歩成(14)\n").unwrap_err();
    assert_err(&e, 3, Some(6), "there is no piece on １四");
    let e = kyoto("   1 ５二歩成(51)\n").unwrap_err();
    assert_err(&e, 3, Some(6), "is white's, and black is to move");
    // The gold on ２五 moves one step: ２三 is out of its reach.
    let e = kyoto("   1 ２三金成(25)\n").unwrap_err();
    assert_err(
        &e,
        3,
        Some(6),
        "illegal move `２三金成(25)`: the gold on ２五 cannot go",
    );
}

#[test]
fn same_square_forms() {
    // Kyoto: 1. 1e1d+ 2. 5a5b+ 3. 1d1a+ (the rook takes the tokin on １一 and turns into a
    // pawn) 4. 2a1b+ (the silver turns into a bishop) 5. 4e3d+ (Black's silver turns into a
    // bishop on ３四) 6. 1b3d+ (同: the bishop takes it and turns into a silver) 7. 3e3d
    // (同: the king takes the silver).
    let forms = ["同　角成(12)", "同 角成(12)", "同角成(12)", "３四角成(12)"];
    for form in forms {
        let text = format!(
            "1 １四歩成(15)\n2 ５二歩成(51)\n3 １一飛成(14)\n4 １二銀成(21)\n\
             5 ３四銀成(45)\n6 {form}\n7 同　玉(35)\n"
        );
        let r = kyoto(&text).unwrap_or_else(|e| panic!("{form}: {e}"));
        // Board: rank a: White's gold 4a and king 3a, Black's pawn 1a; White's rook on 5b;
        // Black's king on 3d; Black's tokin 5e and gold 2e. White took Black's bishop (a
        // silver/bishop pair) and lost its silver to the king, so each side holds one
        // silver/bishop pair; Black also holds the tokin/lance pair taken on １一.
        assert_eq!(
            to_sfen(r.position()),
            "1gk1P/r4/5/2K2/T2G1 w TSs 8",
            "{form}"
        );
    }
    let e = kyoto("   1 同　歩成(15)\n").unwrap_err();
    assert_err(
        &e,
        3,
        Some(6),
        "`同` (the square of the last move) needs a move before",
    );
}

#[test]
fn drops_name_the_face() {
    // After 1e1d+ 5a5b+ 1d1a+ (Black takes the tokin/lance pair), Black may drop either
    // face: a lance (香) or a tokin (と).
    let base = "1 １四歩成(15)\n2 ５二歩成(51)\n3 １一飛成(14)\n4 ５一飛成(52)\n";
    let r = kyoto(&format!("{base}5 ３三香打\n")).unwrap();
    assert_eq!(to_sfen(r.position()), "pgksP/5/2L2/5/TSKG1 w - 6");
    let r = kyoto(&format!("{base}5 ３三と打\n")).unwrap();
    assert_eq!(to_sfen(r.position()), "pgksP/5/2T2/5/TSKG1 w - 6");
    let e = kyoto(&format!("{base}5 ３三銀打\n")).unwrap_err();
    assert_err(&e, 7, Some(3), "black has no silver (銀) in hand");
    let e = kyoto(&format!("{base}5 ２五と打\n")).unwrap_err();
    assert_err(&e, 7, Some(3), "２五 is occupied");
    let e = kyoto(&format!("{base}5 ３三と成打\n")).unwrap_err();
    assert_err(&e, 7, Some(6), "a drop (`打`) cannot have `成`");
    let e = parse_kif::<Kinzoku>("1 ２三銀打\n").unwrap_err();
    assert_err(&e, 1, Some(3), "Kinzoku Shogi has no drops");
}

#[test]
fn malformed_move_lines_name_line_and_column() {
    let cases: [(&str, usize, &str); 10] = [
        ("   1 １四龍(15)\n", 8, "unknown piece `龍` for Kyoto Shogi"),
        (
            "   1 ６四歩(15)\n",
            6,
            "destination `６四` is off the 5x5 board",
        ),
        ("   1 １Ｘ歩(15)\n", 7, "expected a kanji rank numeral"),
        ("   1 Ｘ四歩(15)\n", 6, "expected a destination"),
        (
            "   1 １四歩成(1\n",
            12,
            "the origin as a file digit and a rank digit",
        ),
        ("   1 １四歩成(15\n", 13, "expected `)`"),
        (
            "   1 １四歩成x\n",
            10,
            "the origin such as `(35)`, `打` for a drop, or the end",
        ),
        (
            "   1 １四\n",
            8,
            "expected a piece kanji, found the end of the line",
        ),
        ("   1 １四歩成(15) x\n", 15, "unexpected `x` after the move"),
        ("   1１四歩成(15)\n", 5, "a space after the move number"),
    ];
    for (line, col, part) in cases {
        let e = kyoto(line).unwrap_err();
        assert_err(&e, 3, Some(col), part);
    }
    let e = kyoto("   1 １四歩成(69)\n").unwrap_err();
    assert_err(&e, 3, Some(10), "origin `(69)` is off the 5x5 board");
    let e = kyoto("   2 １四歩成(15)\n").unwrap_err();
    assert_err(&e, 3, Some(4), "expected move number 1, found 2");
}

#[test]
fn time_columns() {
    let r = kyoto("   1 １四歩成(15)   ( 1:05/01:02:03)\n").unwrap();
    assert_eq!(
        r.moves()[0].time,
        Some(KifTime {
            move_seconds: 65,
            total_seconds: 3723
        })
    );
    // Without the padding, and with spaces inside.
    let r = kyoto("   1 １四歩成(15)( 0:03 / 0:00:03 )\n").unwrap();
    assert_eq!(r.moves()[0].time.map(|t| t.total_seconds), Some(3));
    let e = kyoto("   1 １四歩成(15)   ( 0:3x/00:00:03)\n").unwrap_err();
    assert_err(&e, 3, Some(17), "a time column such as `( 0:03/00:00:03)`");
    let e = kyoto("   1 １四歩成(15)   ( 0:03/00:00:03\n").unwrap_err();
    assert_err(&e, 3, Some(17), "found the end of the line at column 32");
}

#[test]
fn special_move_lines_and_results() {
    let r = kyoto("   1 １四歩成(15)\n   2 投了\nまで1手で先手の勝ち\n").unwrap();
    assert_eq!(r.end.as_ref().map(|e| e.special), Some(KifSpecial::Resign));
    assert_eq!(r.result(), Some(KifResult::Win(Color::Black)));
    let r = kyoto("   1 中断\nまで0手で中断\n").unwrap();
    assert_eq!(r.result(), Some(KifResult::Suspended));
    // The result line must agree with the resignation.
    let e = kyoto("   1 １四歩成(15)\n   2 投了\nまで1手で後手の勝ち\n").unwrap_err();
    assert_err(&e, 5, None, "`投了` on line 4 means 先手 (black) wins");
    // ... count the moves,
    let e = kyoto("   1 １四歩成(15)\nまで2手で先手の勝ち\n").unwrap_err();
    assert_err(
        &e,
        4,
        Some(3),
        "counts 2 moves, but the last move is number 1",
    );
    // ... and nothing but comments may follow it.
    let e = kyoto("まで0手で中断\n   1 １四歩成(15)\n").unwrap_err();
    assert_err(&e, 4, Some(1), "only comments may follow the result line");
    let e = kyoto("   1 投了\n   2 ５二歩成(51)\n").unwrap_err();
    assert_err(&e, 4, Some(1), "no move may follow `投了` (line 3)");
    let e = kyoto("まで手で先手の勝ち\n").unwrap_err();
    assert_err(&e, 3, Some(1), "expected a result line such as");
}

#[test]
fn the_result_line_must_agree_with_the_rules() {
    // The Kyoto mate of tests/data/kif/kyoto_site_export.kif: after 11 moves White is
    // checkmated, so Black wins; a record saying White won is wrong, and so is a move
    // after the mate.
    let moves = "1 １四歩成(15)\n2 ５二歩成(51)\n3 １一飛成(14)\n4 １二銀成(21)\n\
                 5 ３四銀成(45)\n6 同　角成(12)\n7 同　玉(35)\n8 ５五飛成(52)\n\
                 9 ３三玉(34)\n10 ４二金成(41)\n11 ３二と打\n";
    let r = kyoto(&format!("{moves}まで11手で先手の勝ち\n")).unwrap();
    assert_eq!(r.result(), Some(KifResult::Win(Color::Black)));
    let e = kyoto(&format!("{moves}まで11手で後手の勝ち\n")).unwrap_err();
    assert_err(&e, 14, None, "by the rules black wins by checkmate");
    let e = kyoto(&format!("{moves}12 ２二玉(31)\n")).unwrap_err();
    assert_err(
        &e,
        14,
        Some(4),
        "comes after the game ended (black wins by checkmate)",
    );
    // Resigning when mated agrees with the mate; claiming a win does not.
    assert!(kyoto(&format!("{moves}12 投了\nまで11手で先手の勝ち\n")).is_ok());
    let e = kyoto(&format!("{moves}12 入玉勝ち\n")).unwrap_err();
    assert_err(&e, 14, Some(4), "the game had already ended");
}

#[test]
fn handicap_names() {
    let text = "手合割：京都将棋\n下手：Alice\n上手：Bob\n1 １四歩成(15)\n2 投了\n\
                まで1手で下手の勝ち\n";
    let r = parse_kif::<Kyoto>(text).unwrap();
    assert_eq!(r.names, SideNames::ShitateUwate);
    assert_eq!(r.result(), Some(KifResult::Win(Color::Black)));
    // The result line of a game built from moves uses the record's names.
    let game = parse_game::<Kyoto>(
        "startpos moves 1e1d+ 5a5b+ 1d1a+ 2a1b+ 4e3d+ 1b3d+ 3e3d 5b5e+ 3d3c 4a4b+ T*3b",
    )
    .unwrap();
    let mut rec = KifRecord::from_game(&game);
    assert_eq!(rec.summary.as_deref(), Some("まで11手で先手の勝ち"));
    rec.names = SideNames::ShitateUwate;
    rec.summary = game
        .outcome()
        .map(|o| summary_line(11, o, SideNames::ShitateUwate));
    assert_eq!(rec.summary.as_deref(), Some("まで11手で下手の勝ち"));
    // A diagram with 上手/下手 hands and side lines.
    let text = "手合割：京都将棋\n上手の持駒：なし\n  ５ ４ ３ ２ １\n+---------------+\n\
                |v歩v金v玉v銀vと|一\n| ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・|三\n\
                | ・ ・ ・ ・ ・|四\n| と 銀 玉 金 歩|五\n+---------------+\n\
                下手の持駒：なし\n上手番\n";
    let r = parse_kif::<Kyoto>(text).unwrap();
    assert_eq!(to_sfen(r.start()), "pgkst/5/5/5/TSKGP w - 1");
    assert_eq!(r.names, SideNames::ShitateUwate);
    let out = to_kif(&r);
    assert!(out.contains("上手の持駒：なし\n"), "{out}");
    assert!(out.contains("下手の持駒：なし\n上手番\n"), "{out}");
}

#[test]
fn diagrams_read_hands_with_counts_and_either_face() {
    // Kyoto: kings on 3a and 3e only; Black holds two pawn/rook pieces (one written as a
    // rook) and a gold/knight; White holds two tokin/lance pieces and two silver/bishops.
    let text = "手合割：京都将棋\n後手の持駒：と二　角２\n  ５ ４ ３ ２ １\n\
                +---------------+\n| ・ ・v玉 ・ ・|一\n| ・ ・ ・ ・ ・|二\n\
                | ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・|四\n| ・ ・ 玉 ・ ・|五\n\
                +---------------+\n先手の持駒：歩 飛　桂\n手数＝40\n";
    let r = parse_kif::<Kyoto>(text).unwrap();
    assert_eq!(to_sfen(r.start()), "2k2/5/5/5/2K2 b G2P2t2s 41");
    let out = to_kif(&r);
    assert!(out.contains("後手の持駒：と二　銀二\n"), "{out}");
    assert!(out.contains("先手の持駒：金　歩二\n"), "{out}");
    assert!(out.contains("手数＝40\n"), "{out}");
    let again = parse_kif::<Kyoto>(&out).unwrap();
    assert_eq!(again.start(), r.start());
}

#[test]
fn diagram_errors_name_their_line() {
    let good = [
        "手合割：京都将棋",
        "後手の持駒：なし",
        "  ５ ４ ３ ２ １",
        "+---------------+",
        "|v歩v金v玉v銀vと|一",
        "| ・ ・ ・ ・ ・|二",
        "| ・ ・ ・ ・ ・|三",
        "| ・ ・ ・ ・ ・|四",
        "| と 銀 玉 金 歩|五",
        "+---------------+",
        "先手の持駒：なし",
    ];
    assert_eq!(
        to_sfen(parse_kif::<Kyoto>(&good.join("\n")).unwrap().start()),
        "pgkst/5/5/5/TSKGP b - 1"
    );
    let with = |i: usize, line: &str| {
        let mut lines = good.to_vec();
        lines[i] = line;
        parse_kif::<Kyoto>(&lines.join("\n")).unwrap_err()
    };
    let e = with(5, "| ・ ・ ・ ・|二");
    assert_err(
        &e,
        6,
        Some(10),
        "the row has 4 squares; Kyoto Shogi has 5 files",
    );
    let e = with(5, "| ・ ・ ・ ・ ・ ・|二");
    assert_err(&e, 6, Some(12), "more than 5 squares");
    let e = with(4, "|v歩v金v玉v銀v龍|一");
    assert_err(&e, 5, Some(11), "unknown piece `龍`");
    let e = with(6, "| ・ ・ ・ ・ ・|四");
    assert_err(
        &e,
        7,
        Some(13),
        "expected the rank numeral `三` of row 3, found `四`",
    );
    let e = with(3, "+------------+");
    assert_err(&e, 4, Some(1), "the frame is 12 dashes wide");
    let e = with(2, "  ４ ３ ２ １");
    assert_err(&e, 3, Some(3), "expected the file numbers `５ ４ ３ ２ １`");
    let e = with(1, "後手の持駒：銅");
    assert_err(&e, 2, Some(7), "unknown piece `銅` in hand");
    let e = with(10, "先手の持駒：玉");
    assert_err(&e, 11, Some(7), "a king (玉) is never in hand");
    let e = with(10, "先手の持駒：歩百");
    assert!(e.to_string().contains("line 11: column 8"), "{e}");
    // A missing row: the error is on the diagram's last line.
    let mut lines = good.to_vec();
    lines.remove(8);
    let e = parse_kif::<Kyoto>(&lines.join("\n")).unwrap_err();
    assert_err(
        &e,
        10,
        None,
        "the board has 4 rows; Kyoto Shogi has 5 ranks",
    );
    // Well-formed, but not a position: three kings... here, two Black kings.
    let e = with(6, "| ・ ・ 玉 ・ ・|三");
    assert_err(&e, 2, None, "invalid position: black has 2 kings");
    // Kinzoku has no hands.
    let e = parse_kif::<Kinzoku>("後手の持駒：銀\n").unwrap_err();
    assert_err(&e, 1, Some(7), "Kinzoku Shogi has no pieces in hand");
}

#[test]
fn kinzoku_countdown_survives_a_diagram_round_trip() {
    // White has only its king; Black's countdown runs with 4 moves left (SFEN field 5).
    let pos = parse_sfen::<Kinzoku>("k2/3/3/1S1/2K w - 30 b4").unwrap();
    let rec = KifRecord::new(pos);
    let out = to_kif(&rec);
    assert!(
        out.contains("後手番\n手数＝29\nカウントダウン：b4\n"),
        "{out}"
    );
    let back = parse_kif::<Kinzoku>(&out).unwrap();
    assert_eq!(to_sfen(back.start()), "k2/3/3/1S1/2K w - 30 b4");
    let e = parse_kif::<Kyoto>("カウントダウン：b4\n").unwrap_err();
    assert_err(&e, 1, Some(9), "Kyoto Shogi has no variant state");
}

#[test]
fn the_variant_header() {
    use kshogi_core::VariantInfo;
    static KNOWN: [VariantInfo; 3] = [
        VariantInfo::of::<Kyoto>(),
        VariantInfo::of::<kshogi_rules_micro::Micro>(),
        VariantInfo::of::<Kinzoku>(),
    ];
    let kif_variant = |text: &str| super::kif_variant(text, &KNOWN);
    assert_eq!(kif_variant("# x\n手合割：五分摩訶将棋\n").unwrap(), 1);
    assert_eq!(kif_variant("手合割：金属将棋　\n").unwrap(), 2);
    assert_eq!(kif_variant("手合割：京都\n").unwrap(), 0);
    let e = kif_variant("先手：A\n手合割：平手\n").unwrap_err();
    assert_err(
        &e,
        2,
        Some(5),
        "`手合割：平手` is not a variant kshogi reads",
    );
    let e = kif_variant("先手：A\n後手：B\n   1 １四歩(15)\n手合割：京都将棋\n").unwrap_err();
    assert_err(&e, 3, None, "no `手合割` header");
    let e = kif_variant("").unwrap_err();
    assert_eq!(e.line, 1);
    // Reading as a variant: another known variant or standard shogi is an error; an
    // unknown name is accepted (the caller chose the variant) and written back corrected.
    let e = super::parse_kif_among::<Kyoto>("手合割：五分摩訶将棋\n", &KNOWN).unwrap_err();
    assert_err(
        &e,
        1,
        Some(5),
        "is Micro Shogi, but the record is read as Kyoto Shogi",
    );
    let e = parse_kif::<Kyoto>("手合割：香落ち\n").unwrap_err();
    assert_err(&e, 1, Some(5), "standard shogi");
    let r = parse_kif::<Kyoto>("手合割：京都将棋（81Dojo）\n").unwrap();
    assert!(to_kif(&r).contains("手合割：京都将棋\n"));
}

#[test]
fn headers_and_other_lines() {
    let e = parse_kif::<Kyoto>("手合割：京都将棋\nこれは見出しではない\n").unwrap_err();
    assert_err(&e, 2, Some(1), "expected a header line `key：value`");
    let e = parse_kif::<Kyoto>("：値\n").unwrap_err();
    assert_err(&e, 1, Some(1), "needs a key");
    let e = kyoto("   1 １四歩成(15)\n先手：A\n").unwrap_err();
    assert_err(&e, 4, Some(1), "expected a move line");
    let e = kyoto("   1 １四歩成(15)\n変化：1手\n").unwrap_err();
    assert_err(&e, 4, None, "variations (`変化：`) are not supported");
    let e = kyoto("   1 １四歩成(15)   ( 0:01/00:00:01)+\n").unwrap_err();
    assert_err(&e, 3, Some(33), "`+` marks a move with variations");
}

#[test]
fn comments_stay_where_they_were() {
    let text = "#KIF version=2.0 encoding=Shift_JIS\n*about the game\n手合割：京都将棋\n\
                先手：Alice\n&bookmark\n後手：Bob\n手数----指手---------消費時間--\n\
                *on the start\n   1 １四歩成(15)\n*on move 1\n#also on move 1\n\
                \u{20}  2 投了\n*on the resignation\nまで1手で先手の勝ち\n*after all\n";
    let r = parse_kif::<Kyoto>(text).unwrap();
    assert_eq!(r.headers.len(), 6);
    assert_eq!(
        r.headers[1],
        KifHeaderLine::Comment("*about the game".into())
    );
    assert_eq!(r.start_comments, ["*on the start"]);
    assert_eq!(r.moves()[0].comments, ["*on move 1", "#also on move 1"]);
    assert_eq!(
        r.end.as_ref().map(|e| e.comments.clone()),
        Some(vec!["*on the resignation".to_string()])
    );
    assert_eq!(r.trailing_comments, ["*after all"]);
    // Written back as read, except that the output is UTF-8 and says so.
    let out = to_kif(&r);
    let expected = text.replace("encoding=Shift_JIS", "encoding=UTF-8");
    assert_eq!(out, expected);
}

#[test]
fn writer_places_the_variant_header_before_the_first_field() {
    let mut r = KifRecord::<Micro>::new(Position::start());
    r.headers = vec![
        KifHeaderLine::Comment("#KIF version=2.0 encoding=UTF-8".into()),
        KifHeaderLine::Field {
            key: "先手".into(),
            value: "A".into(),
        },
        // Keys the reader takes as diagram lines are not written from the headers.
        KifHeaderLine::Field {
            key: "先手の持駒".into(),
            value: "歩".into(),
        },
    ];
    assert_eq!(
        to_kif(&r),
        "#KIF version=2.0 encoding=UTF-8\n手合割：五分摩訶将棋\n先手：A\n\
         手数----指手---------消費時間--\n"
    );
}

#[test]
fn repetition_draw_gets_the_special_line() {
    // Kings step out and back twice: the start position occurs for the third time after
    // move 8, a draw by repetition in Kyoto.
    let game =
        parse_game::<Kyoto>("startpos moves 3e3d 3a3b 3d3e 3b3a 3e3d 3a3b 3d3e 3b3a").unwrap();
    let out = to_kif(&KifRecord::from_game(&game));
    assert!(
        out.ends_with("   8 ３一玉(32)\n   9 千日手\nまで8手で千日手\n"),
        "{out}"
    );
    let back = parse_kif::<Kyoto>(&out).unwrap();
    assert_eq!(back.result(), Some(KifResult::Draw));
    assert_eq!(back.moves().len(), 8);
}

#[test]
fn kinzoku_stalemate_is_written_as_a_draw() {
    // Black's silver steps to 2c: White's lone king on 3a has no move (2a is covered by the
    // copper, 2b and 3b by the silver) and is not in check: a draw in Kinzoku.
    let game = parse_game::<Kinzoku>("k2/2C/3/1S1/2K b - 1 moves 2d2c").unwrap();
    let out = to_kif(&KifRecord::from_game(&game));
    assert!(
        out.ends_with("   1 ２三銀(24)\nまで1手で引き分け\n"),
        "{out}"
    );
    let back = parse_kif::<Kinzoku>(&out).unwrap();
    assert_eq!(back.result(), Some(KifResult::Draw));
    assert_eq!(to_sfen(back.position()), "k2/2C/1S1/3/2K w - 2");
}

#[test]
fn read_kif_decodes_first() {
    let sjis = encoding_rs::SHIFT_JIS
        .encode("手合割：京都将棋\n   1 １四歩成(15)\n")
        .0;
    let r = read_kif::<Kyoto>(&sjis).unwrap();
    assert_eq!(to_sfen(r.position()), "pgkst/5/5/4R/TSKG1 w - 2");
}

#[test]
fn push_plays_by_the_rules_and_clears_the_ending() {
    let mut r = kyoto("   1 中断\nまで0手で中断\n").unwrap();
    let pos = *r.position();
    let mv = crate::parse_usi(&pos, "1e1d+").unwrap();
    r.push(
        mv,
        Some(KifTime {
            move_seconds: 1,
            total_seconds: 1,
        }),
    )
    .unwrap();
    assert!(r.end.is_none() && r.summary.is_none());
    // The pawn now stands on 1d as a rook; a second pawn move from 1e is illegal.
    assert!(r.push(mv, None).is_err());
    assert_eq!(r.moves().len(), 1);
    assert!(to_kif(&r).ends_with("   1 １四歩成(15) ( 0:01/00:00:01)\n"));
}

#[test]
fn huge_move_numbers_are_errors_not_overflows() {
    let diagram = "手合割：京都将棋\n後手の持駒：なし\n+---------------+\n\
                   |v歩v金v玉v銀vと|一\n| ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・|三\n\
                   | ・ ・ ・ ・ ・|四\n| と 銀 玉 金 歩|五\n+---------------+\n\
                   先手の持駒：なし\n";
    let e = parse_kif::<Kyoto>(&format!("{diagram}4294967295 １四歩成(15)\n")).unwrap_err();
    assert_err(&e, 11, Some(1), "move number 4294967295 is too large");
    let e =
        parse_kif::<Kyoto>(&format!("{diagram}手数＝99999999999\n1 １四歩成(15)\n")).unwrap_err();
    assert_err(&e, 12, Some(1), "expected move number 1000000000, found 1");
    let e = kyoto("99999999999999999999999 １四歩成(15)\n").unwrap_err();
    assert_err(&e, 3, Some(1), "is too large");
}

#[test]
fn comment_after_the_move_on_the_same_line() {
    let r = kyoto("   1 １四歩成(15) * pawn up\n*own line\n").unwrap();
    assert_eq!(r.moves()[0].comments, ["*pawn up", "*own line"]);
    // After the time columns, and with no space before `*`.
    let r = kyoto("   1 １四歩成(15)   ( 0:03/00:00:03)*fast\n").unwrap();
    assert_eq!(r.moves()[0].comments, ["*fast"]);
    assert_eq!(r.moves()[0].time.map(|t| t.move_seconds), Some(3));
    // On a special move line: the comment belongs to it.
    let r = kyoto("   1 １四歩成(15)\n   2 投了 * gave up\n").unwrap();
    assert_eq!(r.end.as_ref().unwrap().comments, ["*gave up"]);
    // Written on its own line after the move, and read back the same.
    let r = kyoto("   1 １四歩成(15) * pawn up\n   2 ５二歩成(51)\n").unwrap();
    let out = to_kif(&r);
    assert!(
        out.ends_with("   1 １四歩成(15)\n*pawn up\n   2 ５二歩成(51)\n"),
        "{out}"
    );
    let again = parse_kif::<Kyoto>(&out).unwrap();
    assert_eq!(again.moves(), r.moves());
    // Only `*` starts a comment there; anything else after the move is an error.
    let e = kyoto("   1 １四歩成(15) # text\n").unwrap_err();
    assert_err(&e, 3, Some(15), "unexpected `# text` after the move");
    let e = kyoto("   1 １四歩成(15) ( 0:03/00:00:03) x *c\n").unwrap_err();
    assert_err(&e, 3, Some(32), "a comment `* …`");
}

/// Reads `moves` after the diagram of `sfen` (written by the writer, so the diagram is
/// right), and returns the error of the last line.
fn after_diagram<V: kshogi_core::Variant>(sfen: &str, moves: &str) -> KifError {
    let head = to_kif(&KifRecord::new(parse_sfen::<V>(sfen).unwrap()));
    let text = format!("{head}{moves}");
    let e = parse_kif::<V>(&text).unwrap_err();
    assert_eq!(e.line, text.lines().count(), "{e}");
    e
}

#[test]
fn every_reason_core_gives_reads_in_kif_squares() {
    use kshogi_core::{DropRule, IllegalMove};
    use kshogi_rules_minishogi::Minishogi;
    let why = |e: &KifError| match &e.kind {
        KifErrorKind::IllegalMove { why, .. } => *why,
        _ => None,
    };
    // From the Kyoto start.
    let cases: [(&str, &str); 4] = [
        (
            "   1 ２五金(35)\n",
            "the piece on ３五 is a king (玉), not 金",
        ),
        (
            "   1 ３五金(25)\n",
            "the gold on ２五 cannot take black's own king on ３五",
        ),
        ("   1 ３三玉打\n", "a king is never dropped"),
        (
            "   1 ５二歩成(51)\n",
            "the pawn on ５一 is not black's: it is white's, and black is to move",
        ),
    ];
    for (line, reason) in cases {
        let e = kyoto(line).unwrap_err();
        assert_err(&e, 3, Some(6), reason);
        assert!(why(&e).is_some(), "{e}");
    }
    // Blocked: Black's rook on ５五 and White's pawn on ５四.
    let e = after_diagram::<Kyoto>("k4/5/5/p4/R3K b - 1", "   1 ５二飛成(55)\n");
    assert!(
        e.to_string()
            .contains("the rook on ５五 cannot go to ５二: white's pawn on ５四 is in the way"),
        "{e}"
    );
    // Pinned: the silver on ３四 may not leave the file of White's rook on ３一.
    let e = after_diagram::<Kyoto>("k1r2/5/5/2S2/2K2 b - 1", "   1 ２三銀成(34)\n");
    assert!(
        e.to_string().contains(
            "column 6: illegal move `２三銀成(34)`: the silver on ３四 cannot go to ２三: it \
             would leave black's king in check from the rook on ３一"
        ),
        "{e}"
    );
    // In check, a drop must block.
    let e = after_diagram::<Kyoto>("k1r2/5/5/5/2K2 b T 1", "   1 １三と打\n");
    assert!(
        e.to_string().contains(
            "a tokin dropped on １三 would leave black's king in check from the rook on ３一"
        ),
        "{e}"
    );
    // Minishogi's drop rules are named (White king １一, Black's gold ２三, silver ３二).
    let mate = "4k/2S2/3G1/5/K4 b P 1";
    let e = after_diagram::<Minishogi>(mate, "   1 １二歩打\n");
    assert!(
        e.to_string().contains("a pawn drop may not give checkmate"),
        "{e}"
    );
    assert!(matches!(
        why(&e),
        Some(IllegalMove::DropRefused {
            rule: DropRule::PawnDropMate,
            ..
        })
    ));
    let e = after_diagram::<Minishogi>(mate, "   1 ３一歩打\n");
    assert!(
        e.to_string()
            .contains("a pawn dropped on ３一 could never move"),
        "{e}"
    );
    let e = after_diagram::<Minishogi>("4k/2S2/3G1/4P/K4 b P 1", "   1 １三歩打\n");
    assert!(
        e.to_string()
            .contains("black already has an unpromoted pawn on file 1 (nifu): the one on １四"),
        "{e}"
    );
    // A captured dragon is a rook in hand, dropped as a rook.
    let e = after_diagram::<Minishogi>("4k/5/5/5/K4 b R 1", "   1 ３三龍打\n");
    assert!(e.to_string().contains("a dragon is never dropped"), "{e}");
    // After the game ended by the rules: the typed game-over error.
    let e = after_diagram::<Kyoto>("k4/G4/R4/5/4K w - 10", "  10 ４一玉(51)\n");
    assert!(matches!(e.kind, KifErrorKind::GameOver { .. }), "{e}");
}

#[test]
fn moves_without_origin_are_read_when_only_one_piece_fits() {
    // From the start: the pawn (the only one) and the gold.
    let r = kyoto("   1 １四歩\n   2 ４二金\n").unwrap();
    assert_eq!(to_sfen(r.position()), "p1kst/1n3/5/4R/TSKG1 b - 3");
    // The writer adds the origins back.
    assert!(
        to_kif(&r).ends_with("   1 １四歩成(15)\n   2 ４二金成(41)\n"),
        "{}",
        to_kif(&r)
    );
    // A piece that is only in hand is dropped.
    let head = "   1 １四歩成(15)\n   2 ５二歩成(51)\n   3 １一飛成(14)\n   4 ５一飛成(52)\n";
    let r = kyoto(&format!("{head}   5 ３三と\n")).unwrap();
    assert_eq!(to_sfen(r.position()), "pgksP/5/2T2/5/TSKG1 w - 6");
    // Two golds that both reach ４四: the origins are listed and the line is an error.
    let e = after_diagram::<Kyoto>("k4/5/5/5/G1G1K b - 1", "   1 ４四金\n");
    assert!(
        e.to_string().contains(
            "column 6: illegal move `４四金`: more than one gold can go to ４四 (from ３五, \
             ５五); write the origin, such as `(35)`"
        ),
        "{e}"
    );
    let e = kyoto("   1 ２三金\n").unwrap_err();
    assert_err(&e, 3, Some(6), "no gold of black's can go to ２三");
    let e = kyoto("   1 ２三飛\n").unwrap_err();
    assert_err(
        &e,
        3,
        Some(6),
        "black has no rook (飛) on the board or in hand",
    );
}
