//! Position validity (RULES.md): every invalid position is an error, never a panic.

mod common;

use common::Rng;
use kshogi_core::{Color, Kind, Piece, Position, PositionError, Setup, Square, Variant};
use kshogi_notation::{parse_sfen, parse_usi, to_sfen, SfenErrorKind};
use kshogi_rules_dobutsu::Dobutsu;
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;
use kshogi_rules_minishogi::Minishogi;

/// The error kind of an SFEN the test expects to be rejected.
fn rejected<V: Variant>(sfen: &str) -> SfenErrorKind {
    match parse_sfen::<V>(sfen) {
        Ok(p) => panic!("{} accepts `{sfen}` as {}", V::NAME, to_sfen(&p)),
        Err(e) => {
            assert!(!e.to_string().is_empty());
            e.kind
        }
    }
}

fn accepted<V: Variant>(sfen: &str) {
    if let Err(e) = parse_sfen::<V>(sfen) {
        panic!("{} rejects `{sfen}`: {e}", V::NAME);
    }
}

#[test]
fn wrong_board_size() {
    for s in [
        "pgkst/5/5/TSKGP b - 1",
        "pgkst/5/5/5/5/TSKGP b - 1",
        "pgkst b - 1",
    ] {
        assert!(
            matches!(rejected::<Kyoto>(s), SfenErrorKind::Board(_)),
            "{s}"
        );
    }
    // A Kyoto board is not a Micro or Kinzoku board, and the other way round.
    assert!(matches!(
        rejected::<Micro>("pgkst/5/5/5/TSKGP b - 1"),
        SfenErrorKind::Board(_)
    ));
    assert!(matches!(
        rejected::<Kinzoku>("kbgs/p3/4/3P/SGBK b - 1"),
        SfenErrorKind::Board(_)
    ));
    assert!(matches!(
        rejected::<Kyoto>("cks/1i1/3/1I1/SKC b - 1"),
        SfenErrorKind::Board(_)
    ));
}

#[test]
fn rows_too_long_or_too_short() {
    for s in [
        "pgkst/6/5/5/TSKGP b - 1",
        "pgkst/5/5/5/TSKGPP b - 1",
        "pgkst/1p4/5/5/TSKG1 b - 1",
        "pgkst/4/5/5/TSKGP b - 1",
        "pgks/5/5/5/TSKGP b - 1",
        "pgkst//5/5/TSKGP b - 1",
        "pgkst/05/5/5/TSKGP b - 1",
    ] {
        assert!(
            matches!(rejected::<Kyoto>(s), SfenErrorKind::Board(_)),
            "{s}"
        );
    }
    for s in ["kbgs/p4/4/3P/SGBK b - 1", "kbgs/p2/4/3P/SGBK b - 1"] {
        assert!(
            matches!(rejected::<Micro>(s), SfenErrorKind::Board(_)),
            "{s}"
        );
    }
    for s in ["cks/1i2/3/1I1/SKC b - 1", "cks/1i/3/1I1/SKC b - 1"] {
        assert!(
            matches!(rejected::<Kinzoku>(s), SfenErrorKind::Board(_)),
            "{s}"
        );
    }
}

#[test]
fn unknown_letters() {
    for s in [
        "pgkst/5/5/5/TSKGX b - 1",
        "pgkst/5/5/5/TSKG* b - 1",
        "pgkst/5/5/5/TS+KGP b - 1",
        "pgkst/5/5/5/TSKG+T b - 1",
        "pgkst/5/2C2/5/TSKGP b - 1",
    ] {
        assert!(
            matches!(rejected::<Kyoto>(s), SfenErrorKind::Board(_)),
            "{s}"
        );
    }
    assert!(matches!(
        rejected::<Micro>("kbgs/p3/4/3C/SGBK b - 1"),
        SfenErrorKind::Board(_)
    ));
    for s in ["cks/1i1/3/1P1/SKC b - 1", "cks/1i1/3/1+S1/SKC b - 1"] {
        assert!(
            matches!(rejected::<Kinzoku>(s), SfenErrorKind::Board(_)),
            "{s}"
        );
    }
    // A king or an unknown letter in hand.
    for s in [
        "k4/5/5/5/4K b K 1",
        "k4/5/5/5/4K b X 1",
        "k4/5/5/5/4K b C 1",
    ] {
        assert!(
            matches!(rejected::<Kyoto>(s), SfenErrorKind::Hands(_)),
            "{s}"
        );
    }
}

#[test]
fn exactly_one_king_per_side() {
    let king_count =
        |k: SfenErrorKind| matches!(k, SfenErrorKind::Invalid(PositionError::KingCount { .. }));
    for s in [
        "pg1st/5/5/5/TSKGP b - 1",
        "pgkst/5/5/5/TS1GP b - 1",
        "pgkst/5/5/K4/TSKGP b - 1",
        "pgkst/k4/5/5/TSKGP b - 1",
        "5/5/5/5/5 b - 1",
    ] {
        assert!(king_count(rejected::<Kyoto>(s)), "{s}");
    }
    assert!(king_count(rejected::<Micro>("kbgs/p3/4/3P/SGB1 b - 1")));
    assert!(king_count(rejected::<Kinzoku>("cks/1i1/3/1I1/SKK b - 1")));
}

#[test]
fn no_more_pieces_of_a_pair_than_the_set_holds() {
    let too_many = |k: SfenErrorKind| {
        matches!(
            k,
            SfenErrorKind::Invalid(PositionError::TooManyPieces { .. })
        )
    };
    // Kyoto: two pieces per pair, counted over the board and both hands.
    for s in [
        "k4/5/5/5/P3K b PR 1",
        "k4/5/5/5/P3K b Pp 1",
        "k4/5/5/r4/P3K b R 1",
        "k4/5/5/5/4K b 3P 1",
        "k4/5/5/5/RRR1K b - 1",
        "k4/5/5/5/GNG1K b - 1",
        "k4/5/5/5/4K b TL2l 1",
    ] {
        assert!(too_many(rejected::<Kyoto>(s)), "{s}");
    }
    // Two per pair is fine, on either side or split.
    accepted::<Kyoto>("k4/5/5/5/P3K b R 1");
    accepted::<Kyoto>("k4/5/5/5/4K b Pr 1");
    // Micro: likewise.
    for s in [
        "k3/4/4/GGR1/3K b - 1",
        "k3/4/4/4/3K b 2Nn 1",
        "k3/4/4/1p2/3K b Pn 1",
    ] {
        assert!(too_many(rejected::<Micro>(s)), "{s}");
    }
    accepted::<Micro>("k3/4/4/1p2/3K b N 1");
    // Kinzoku: one silver, one copper, one soldier (promoted or not) per side.
    for s in [
        "k2/3/3/3/SSK b - 1",
        "k2/3/3/C2/CK1 b - 1",
        "k2/3/1+I1/1I1/2K b - 1",
        "k2/3/+I2/+I2/2K b - 1",
        "k2/3/1i1/i2/2K b - 1",
    ] {
        assert!(too_many(rejected::<Kinzoku>(s)), "{s}");
    }
    accepted::<Kinzoku>("k2/s2/1+I1/S2/2K b - 1");
}

#[test]
fn no_hand_pieces_in_kinzoku() {
    for s in [
        "cks/1i1/3/1I1/SKC b S 1",
        "cks/1i1/3/1I1/SKC b c 1",
        "cks/1i1/3/1I1/SKC b 2I 1",
        "cks/1i1/3/1I1/SKC b P 1",
    ] {
        let k = rejected::<Kinzoku>(s);
        assert!(
            matches!(
                k,
                SfenErrorKind::Hands(_)
                    | SfenErrorKind::Invalid(PositionError::NoDrops {
                        variant: "Kinzoku Shogi"
                    })
            ),
            "{s}: {k:?}"
        );
    }
    accepted::<Kinzoku>("cks/1i1/3/1I1/SKC b - 1");
}

#[test]
fn the_side_not_to_move_may_not_be_in_check() {
    let opp = |k: SfenErrorKind| {
        matches!(
            k,
            SfenErrorKind::Invalid(PositionError::OpponentInCheck(Color::White))
        )
    };
    // Black's rook on 5b checks White's king on 5a: fine with White to move, invalid with
    // Black to move.
    assert!(opp(rejected::<Kyoto>("k4/R4/5/5/4K b - 1")));
    accepted::<Kyoto>("k4/R4/5/5/4K w - 1");
    // A knight check in Kyoto.
    assert!(opp(rejected::<Kyoto>("k4/5/1N3/5/4K b - 1")));
    assert!(opp(rejected::<Micro>("k3/R3/4/4/3K b - 1")));
    accepted::<Micro>("k3/R3/4/4/3K w - 1");
    assert!(opp(rejected::<Kinzoku>("k2/S2/3/3/2K b - 1")));
    accepted::<Kinzoku>("k2/S2/3/3/2K w - 1");
    // And the other way round.
    assert!(matches!(
        rejected::<Kyoto>("k4/5/5/r4/K4 w - 1"),
        SfenErrorKind::Invalid(PositionError::OpponentInCheck(Color::Black))
    ));
}

#[test]
fn bad_side_to_move_or_ply() {
    for side in ["x", "B", "W", "bw", "-", "1"] {
        let s = format!("pgkst/5/5/5/TSKGP {side} - 1");
        assert!(
            matches!(rejected::<Kyoto>(&s), SfenErrorKind::Side(_)),
            "{s}"
        );
    }
    for ply in ["0", "-1", "abc", "1.5", "+3", "99999999999", "0x10"] {
        let s = format!("pgkst/5/5/5/TSKGP b - {ply}");
        assert!(
            matches!(rejected::<Kyoto>(&s), SfenErrorKind::Ply(_)),
            "{s}"
        );
        let s = format!("kbgs/p3/4/3P/SGBK b - {ply}");
        assert!(
            matches!(rejected::<Micro>(&s), SfenErrorKind::Ply(_)),
            "{s}"
        );
    }
    // Kinzoku: a field starting with b or w is read as the countdown.
    for ply in ["0", "-1", "abc", "1.5"] {
        let s = format!("cks/1i1/3/1I1/SKC b - {ply}");
        assert!(
            matches!(rejected::<Kinzoku>(&s), SfenErrorKind::Ply(_)),
            "{s}"
        );
    }
    // Missing and surplus fields.
    for s in [
        "",
        "pgkst/5/5/5/TSKGP",
        "pgkst/5/5/5/TSKGP b",
        "pgkst/5/5/5/TSKGP b - 1 2",
        "pgkst/5/5/5/TSKGP b - 1 b5",
    ] {
        assert!(parse_sfen::<Kyoto>(s).is_err(), "{s}");
    }
    accepted::<Kyoto>("pgkst/5/5/5/TSKGP b -");
    accepted::<Kyoto>("sfen pgkst/5/5/5/TSKGP b - 1");
}

#[test]
fn the_setup_constructor_rejects_what_text_cannot_express() {
    // Off the board: square 25 on a 5x5 board.
    let mut s = Setup::<Kyoto>::empty();
    s.put(5, 0, Color::White, kshogi_rules_kyoto::KING);
    s.put(1, 4, Color::Black, kshogi_rules_kyoto::KING);
    assert!(Position::from_setup(&s).is_ok());
    let mut off = s.clone();
    off.board[25] = Some(Piece::new(Color::Black, kshogi_rules_kyoto::PAWN));
    assert!(matches!(
        Position::from_setup(&off),
        Err(PositionError::OffBoard(25))
    ));
    // An unknown kind.
    let mut unknown = s.clone();
    unknown.board[Square(12).index()] = Some(Piece::new(Color::Black, Kind(15)));
    assert!(matches!(
        Position::from_setup(&unknown),
        Err(PositionError::UnknownKind(15))
    ));
    // Ply 0.
    let mut ply = s.clone();
    ply.ply = 0;
    assert!(matches!(
        Position::from_setup(&ply),
        Err(PositionError::BadPly(0))
    ));
    // Hand counts far beyond the set, and a slot that does not exist.
    let mut hand = s.clone();
    hand.hands[0][3] = 200;
    let e = Position::from_setup(&hand).unwrap_err();
    assert_eq!(
        e,
        PositionError::HandCount {
            color: Color::Black,
            count: 200
        }
    );
    assert_eq!(e.to_string(), "black holds 200 pieces of one kind in hand");
    let mut slot = s.clone();
    slot.hands[1][7] = 1;
    let e = Position::from_setup(&slot).unwrap_err();
    assert_eq!(e, PositionError::NoHandSlot { slot: 7 });
    assert_eq!(e.to_string(), "hand slot 7 does not exist");
    // Kinzoku: any hand at all.
    let mut k = <Kinzoku as Variant>::start();
    k.hands[0][0] = 1;
    let e = Position::from_setup(&k).unwrap_err();
    assert_eq!(
        e,
        PositionError::NoDrops {
            variant: "Kinzoku Shogi"
        }
    );
    assert_eq!(
        e.to_string(),
        "Kinzoku Shogi has no drops, so hands must be empty"
    );
}

/// Random mutations of valid SFENs and random USI texts: errors are fine, panics are not;
/// whatever is accepted prints and parses back to itself.
fn fuzz<V: Variant>(seeds: &[&str], rng: &mut Rng) -> usize {
    let mut accepted = 0;
    const ALPHABET: &[char] = &[
        'k', 'K', 'p', 'P', 'g', 'G', 's', 'S', 't', 'T', 'l', 'L', 'b', 'B', 'n', 'N', 'r', 'R',
        'c', 'C', 'i', 'I', 'x', 'X', '+', '-', '*', '/', ' ', '0', '1', '2', '3', '4', '5', '6',
        '7', '8', '9', 'b', 'w', '\t', 'é', '１', '王',
    ];
    for round in 0..4000 {
        let base = seeds[round % seeds.len()];
        let mut bytes: Vec<char> = base.chars().collect();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(bytes.len() + 1);
            let c = ALPHABET[rng.below(ALPHABET.len())];
            match rng.below(3) {
                0 if at < bytes.len() => bytes[at] = c,
                1 => bytes.insert(at, c),
                _ if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => bytes.push(c),
            }
        }
        let text: String = bytes.into_iter().collect();
        // The other readers of text must not panic either.
        let _ = kshogi_notation::board_shape(&text);
        let _ = kshogi_notation::parse_game::<V>(&text);
        let _ = kshogi_notation::parse_game::<V>(&format!("{text} moves 1e1d+ 2d2c P*3c"));
        if let Ok(p) = parse_sfen::<V>(&text) {
            accepted += 1;
            let printed = to_sfen(&p);
            let back = parse_sfen::<V>(&printed)
                .unwrap_or_else(|e| panic!("`{text}` prints as `{printed}`, which fails: {e}"));
            assert!(back == p, "`{text}` -> `{printed}`");
            assert_eq!(p.hash(), p.compute_hash());
            let _ = p.outcome();
            let moves = p.legal_moves();
            // Random raw moves: only legal ones are accepted by a game.
            for _ in 0..4 {
                let m = kshogi_core::Move::from_bits(rng.next_u64() as u16 & 0x3fff);
                let legal = moves.contains(&m);
                assert_eq!(p.is_legal(m), legal, "{m:?} in `{printed}`");
                let mut game = kshogi_core::Game::new(p);
                assert_eq!(game.play(m).is_ok(), legal && p.outcome().is_none());
            }
            // Random move texts in the accepted position.
            for _ in 0..4 {
                let len = 1 + rng.below(6);
                let t: String = (0..len)
                    .map(|_| ALPHABET[rng.below(ALPHABET.len())])
                    .collect();
                if let Ok(m) = parse_usi(&p, &t) {
                    assert!(moves.contains(&m), "`{t}` parsed to an illegal move");
                }
            }
        }
    }
    accepted
}

#[test]
fn mutated_text_never_panics() {
    let mut rng = Rng::new(0x5EED_F022);
    let mut accepted = 0;
    accepted += fuzz::<Kyoto>(
        &[
            "pgkst/5/5/5/TSKGP b - 1",
            "k4/2S2/1G3/5/4K b P 1",
            "k4/5/5/5/4K b TGSP 9",
        ],
        &mut rng,
    );
    accepted += fuzz::<Micro>(
        &["kbgs/p3/4/3P/SGBK b - 1", "k3/4/1R2/4/3K b BgS 12"],
        &mut rng,
    );
    accepted += fuzz::<Kinzoku>(
        &[
            "cks/1i1/3/1I1/SKC b - 1",
            "2k/3/C2/3/1SK w - 2 b5",
            "2k/3/1K+I/3/3 b - 20 b1",
        ],
        &mut rng,
    );
    // Some mutations are still valid positions, and those were exercised too.
    assert!(accepted > 300, "{accepted}");
}

#[test]
fn minishogi_pawn_placement_and_nifu() {
    // An unpromoted pawn on its farthest rank (Black on rank a, White on rank e).
    assert!(matches!(
        rejected::<Minishogi>("P3k/5/5/5/K4 b - 1"),
        SfenErrorKind::Invalid(PositionError::BadPlacement { .. })
    ));
    assert!(matches!(
        rejected::<Minishogi>("4k/5/5/5/K3p b - 1"),
        SfenErrorKind::Invalid(PositionError::BadPlacement { .. })
    ));
    // A tokin there is fine.
    accepted::<Minishogi>("+P3k/5/5/5/K4 b - 1");
    // Two unpromoted Black pawns on file 5; a pawn and a tokin are fine; pawns of both sides
    // on a file are fine.
    assert!(matches!(
        rejected::<Minishogi>("4k/P4/P4/5/K4 b - 1"),
        SfenErrorKind::Invalid(PositionError::TwoPawnsOnFile {
            color: Color::Black,
            file: 5
        })
    ));
    accepted::<Minishogi>("4k/+P4/P4/5/K4 b - 1");
    accepted::<Minishogi>("4k/p4/P4/5/K4 b - 1");
    // Set limits: two pawns in all.
    assert!(matches!(
        rejected::<Minishogi>("4k/P4/1P3/5/K4 b P 1"),
        SfenErrorKind::Invalid(PositionError::TooManyPieces { .. })
    ));
}

#[test]
fn side_not_to_move_in_check_minishogi_rejects_dobutsu_accepts() {
    // Black's rook on 1b attacks White's king on 1a, and Black is to move.
    assert!(matches!(
        rejected::<Minishogi>("4k/4R/5/5/K4 b - 1"),
        SfenErrorKind::Invalid(PositionError::OpponentInCheck(Color::White))
    ));
    // Dobutsu has no check rule: Black's giraffe on 2b may take the lion on 2a.
    accepted::<Dobutsu>("1k1/1R1/3/1K1 b - 1");
    // A dropped chick on the farthest rank is allowed in Dobutsu.
    accepted::<Dobutsu>("P1k/3/3/K2 w - 1");
    // One lion per side is still required.
    assert!(matches!(
        rejected::<Dobutsu>("kk1/3/3/1K1 b - 1"),
        SfenErrorKind::Invalid(PositionError::KingCount { .. })
    ));
}

#[test]
fn a_dobutsu_position_whose_side_to_move_lost_its_lion_is_a_finished_game() {
    use kshogi_core::{perft, Outcome, WinReason};
    // RULES.md, position validity: in a capture-the-royal variant the side to move may have
    // no royal (it was just captured); the game is over, won by the other side, with no
    // moves. Black's lion on 1b has just taken White's (the reference engine's and
    // lishogi's reading of this position, quoted in issue 33).
    let mut p = parse_sfen::<Dobutsu>("r1b/1pK/1P1/B1R w - 4").unwrap();
    assert_eq!(to_sfen(&p), "r1b/1pK/1P1/B1R w - 4");
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::RoyalCaptured
        })
    );
    assert!(p.legal_moves().is_empty());
    assert!(!p.in_check());
    // Perft: 1 at depth 0 (the position itself), 0 below, as for any finished game.
    assert_eq!(perft(&mut p, 0), 1);
    assert_eq!(perft(&mut p, 1), 0);
    assert_eq!(perft(&mut p, 3), 0);
    // The side not to move must still have its lion, and nobody may have two or none.
    for bad in [
        "r1b/1pK/1P1/B1R b - 4",
        "r1b/1p1/1P1/B1R w - 4",
        "r1b/1p1/1P1/B1R b - 4",
        "rkb/kpK/1P1/B1R w - 4",
    ] {
        assert!(
            matches!(
                rejected::<Dobutsu>(bad),
                SfenErrorKind::Invalid(PositionError::KingCount { .. })
            ),
            "{bad}"
        );
    }
    // With the check rule a missing king stays an error, whoever is to move.
    assert!(matches!(
        rejected::<Minishogi>("5/5/5/5/K4 w - 1"),
        SfenErrorKind::Invalid(PositionError::KingCount { .. })
    ));
    assert!(matches!(
        rejected::<Kyoto>("5/5/5/5/4K w - 1"),
        SfenErrorKind::Invalid(PositionError::KingCount { .. })
    ));
}
