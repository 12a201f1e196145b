//! Kinzoku Shogi: one test per rule of the seed and per Decision of RULES.md.
//!
//! Board diagrams in comments are drawn as SFEN reads: rank a at the top, file 3 on the
//! left, uppercase Black (moving up, toward rank a). Black's farthest rank is a, White's e.

mod common;

use common::{after, is_legal_usi, legal_usi, play_all, pos, sfen_after};
use kshogi_core::{
    perft, Color, DrawReason, Game, Outcome, Position, RepetitionRule, StalemateRule, Variant,
    WinReason,
};
use kshogi_notation::{parse_sfen, parse_usi, to_sfen};
use kshogi_rules_kinzoku::Kinzoku;

type P = Position<Kinzoku>;

fn moves_from(p: &P, square: &str) -> Vec<String> {
    legal_usi(p)
        .into_iter()
        .filter(|m| m.starts_with(square))
        .collect()
}

fn win(winner: Color, reason: WinReason) -> Option<Outcome> {
    Some(Outcome::Win { winner, reason })
}

fn assert_finished(p: &P, outcome: Option<Outcome>) {
    assert_eq!(p.outcome(), outcome, "{}", to_sfen(p));
    assert!(p.legal_moves().is_empty(), "{}", to_sfen(p));
    assert_eq!(p.count_legal(), 0);
    assert_eq!(perft(&mut p.clone(), 1), 0);
    assert_eq!(perft(&mut p.clone(), 3), 0);
}

#[test]
fn start_position_follows_the_square_naming_decision() {
    // Seed: Black Copper c5, King b5, Silver a5, Soldier b4; White Copper a1, King b1,
    // Silver c1, Soldier b2. Decision: column a = file 3, column c = file 1, rank 1 = a.
    let p = P::start();
    assert_eq!(to_sfen(&p), "cks/1i1/3/1I1/SKC b - 1");
    let g = Kinzoku::GEOMETRY;
    let at = |sq: &str| {
        let pc = p.piece_at(g.parse_square(sq).unwrap()).unwrap();
        let l = Kinzoku::PIECES[pc.kind.index()].letter;
        if pc.color == Color::Black {
            l
        } else {
            l.to_ascii_lowercase()
        }
    };
    assert_eq!(
        [at("1e"), at("2e"), at("3e"), at("2d")],
        ['C', 'K', 'S', 'I']
    );
    assert_eq!(
        [at("3a"), at("2a"), at("1a"), at("2b")],
        ['c', 'k', 's', 'i']
    );
}

#[test]
fn pieces_move_as_the_seed_says() {
    // Copper: straight forward, straight back, diagonally forward.
    let p = pos::<Kinzoku>("k2/3/1C1/3/2K b - 1");
    assert_eq!(moves_from(&p, "2c"), ["2c1b", "2c2b", "2c2d", "2c3b"]);
    // White's copper moves the other way.
    let p = pos::<Kinzoku>("k2/3/1c1/3/2K w - 1");
    assert_eq!(moves_from(&p, "2c"), ["2c1d", "2c2b", "2c2d", "2c3d"]);
    // Soldier: straight forward or sideways.
    let p = pos::<Kinzoku>("k2/3/1I1/3/2K b - 1");
    assert_eq!(moves_from(&p, "2c"), ["2c1c", "2c2b", "2c3c"]);
    // Silver: forward and the four diagonals.
    let p = pos::<Kinzoku>("k2/3/1S1/3/2K b - 1");
    assert_eq!(
        moves_from(&p, "2c"),
        ["2c1b", "2c1d", "2c2b", "2c3b", "2c3d"]
    );
    // Promoted soldier: as a gold.
    let p = pos::<Kinzoku>("k2/3/1+I1/3/2K b - 1");
    assert_eq!(
        moves_from(&p, "2c"),
        ["2c1b", "2c1c", "2c2b", "2c2d", "2c3b", "2c3c"]
    );
}

#[test]
fn a_soldier_promotes_on_its_farthest_rank() {
    //   . . k
    //   I . .      The soldier on 3b steps to 3a: it must promote.
    //   . . .
    //   . . .
    //   . K .
    let p = pos::<Kinzoku>("2k/I2/3/3/1K1 b - 1");
    assert_eq!(moves_from(&p, "3b"), ["3b2b", "3b3a+"]);
    assert!(!is_legal_usi(&p, "3b3a"), "no unpromoted arrival");
    assert_eq!(to_sfen(&after(&p, "3b3a+")), "+I1k/3/3/3/1K1 w - 2");
    // The mark may be left out when reading (the promotion is mandatory).
    assert_eq!(parse_usi(&p, "3b3a"), parse_usi(&p, "3b3a+"));
    // A sideways step on another rank does not promote.
    assert_eq!(to_sfen(&after(&p, "3b2b")), "2k/1I1/3/3/1K1 w - 2");
    // White's soldier promotes on rank e (and here gives check from 2e to 3e).
    let p = pos::<Kinzoku>("2k/3/3/1i1/K2 w - 1");
    assert_eq!(moves_from(&p, "2d"), ["2d1d", "2d2e+", "2d3d"]);
    let q = after(&p, "2d2e+");
    assert_eq!(to_sfen(&q), "2k/3/3/3/K+i1 b - 2");
    assert!(q.in_check());
}

#[test]
fn an_unpromoted_soldier_on_its_farthest_rank_is_invalid() {
    assert!(parse_sfen::<Kinzoku>("I1k/3/3/3/1K1 b - 1").is_err());
    assert!(parse_sfen::<Kinzoku>("2k/3/3/3/i1K b - 1").is_err());
    // A soldier on its own back rank is fine, and a promoted one anywhere.
    assert!(parse_sfen::<Kinzoku>("i1k/3/3/3/1K1 b - 1").is_ok());
    assert!(parse_sfen::<Kinzoku>("+I1k/3/3/3/1K1 w - 1").is_ok());
}

#[test]
fn no_drops_and_captured_pieces_vanish() {
    assert!(parse_sfen::<Kinzoku>("cks/1i1/3/1I1/SKC b S 1").is_err());
    assert!(parse_sfen::<Kinzoku>("cks/1i1/3/1I1/SKC b c 1").is_err());
    //   c . k
    //   . . .
    //   . s .      The soldier takes the silver; the silver leaves the game.
    //   . I .
    //   . K .
    let p = pos::<Kinzoku>("c1k/3/1s1/1I1/1K1 b - 1");
    let q = after(&p, "2d2c");
    assert_eq!(to_sfen(&q), "c1k/3/1I1/3/1K1 w - 2");
    assert!(!legal_usi(&q).iter().any(|m| m.contains('*')));
    let r = after(&q, "3a3b");
    assert!(!legal_usi(&r).iter().any(|m| m.contains('*')));
    assert!(parse_usi(&r, "S*2d").is_err());
}

#[test]
fn king_entry_wins_at_once_and_ends_the_game() {
    //   . . .
    //   . K .      Black's king steps onto rank a.
    //   . . .
    //   . . k
    //   S . .
    let p = pos::<Kinzoku>("3/1K1/3/2k/S2 b - 1");
    let q = after(&p, "2b2a");
    assert_eq!(to_sfen(&q), "1K1/3/3/2k/S2 w - 2");
    assert_finished(&q, win(Color::Black, WinReason::KingEntry));
    let mut game = Game::new(p);
    assert_eq!(
        play_all(&mut game, &["2b2a"]),
        [win(Color::Black, WinReason::KingEntry)]
    );
    assert!(game.play(parse_usi(&p, "2b1a").unwrap()).is_err());
    // White enters on rank e.
    let p = pos::<Kinzoku>("3/1K1/3/2k/S2 w - 1");
    assert_finished(&after(&p, "1d1e"), win(Color::White, WinReason::KingEntry));
    // A position with a king already on its farthest rank is finished.
    assert_finished(
        &pos::<Kinzoku>("1K1/3/3/2k/S2 w - 2"),
        win(Color::Black, WinReason::KingEntry),
    );
}

#[test]
fn a_king_cannot_enter_onto_an_attacked_square() {
    //   i . .      The white soldier on 3a covers 2a (sideways); 1a is free, and the king
    //   . K .      may take the soldier on 3a (not defended), entering there.
    //   . . .
    //   . . k
    //   S . .
    let p = pos::<Kinzoku>("i2/1K1/3/2k/S2 b - 1");
    let king = moves_from(&p, "2b");
    assert!(!king.contains(&"2b2a".to_string()), "{king:?}");
    assert!(king.contains(&"2b1a".to_string()) && king.contains(&"2b3a".to_string()));
    assert!(parse_usi(&p, "2b2a").is_err());
    assert_eq!(
        after(&p, "2b3a").outcome(),
        win(Color::Black, WinReason::KingEntry)
    );
}

#[test]
fn bare_king_countdown_runs_on_the_capturers_moves_and_the_lone_king_wins() {
    //   . . k
    //   . . .
    //   i . .      The copper takes White's last piece: Black must win within five moves.
    //   C . .
    //   . S K
    let start = "2k/3/i2/C2/1SK b - 1";
    let moves = [
        "3d3c", "1a1b", "1e1d", "1b1a", "1d1e", "1a1b", "1e1d", "1b1a", "1d1e", "1a1b", "1e1d",
    ];
    let expected = [
        "2k/3/C2/3/1SK w - 2 b5",
        "3/2k/C2/3/1SK b - 3 b5",
        "3/2k/C2/2K/1S1 w - 4 b4",
        "2k/3/C2/2K/1S1 b - 5 b4",
        "2k/3/C2/3/1SK w - 6 b3",
        "3/2k/C2/3/1SK b - 7 b3",
        "3/2k/C2/2K/1S1 w - 8 b2",
        "2k/3/C2/2K/1S1 b - 9 b2",
        "2k/3/C2/3/1SK w - 10 b1",
        "3/2k/C2/3/1SK b - 11 b1",
        "3/2k/C2/2K/1S1 w - 12 b0",
    ];
    let mut game = Game::new(pos::<Kinzoku>(start));
    for (i, (m, sfen)) in moves.iter().zip(expected).enumerate() {
        let out = play_all(&mut game, &[m]);
        assert_eq!(to_sfen(game.position()), sfen, "after move {}", i + 1);
        assert_eq!(&pos::<Kinzoku>(sfen), game.position(), "{sfen} reads back");
        if i < 10 {
            // In particular after move 9 the board and side of moves 1 and 5 recur, but
            // the countdown differs, so this is no threefold repetition.
            assert_eq!(out, [None], "after move {}", i + 1);
        } else {
            assert_eq!(out, [win(Color::White, WinReason::BareKing)]);
        }
    }
    assert_finished(game.position(), win(Color::White, WinReason::BareKing));
    // The expired position reads back.
    let p = pos::<Kinzoku>("3/2k/C2/2K/1S1 w - 12 b0");
    assert_eq!(&p, game.position());
    assert_finished(&p, win(Color::White, WinReason::BareKing));
}

#[test]
fn a_checkmate_on_the_fifth_move_wins_for_the_capturer() {
    //   . . k      Countdown b1: Black's last move. 1c1b mates (the king on 2c guards 1b).
    //   . . .
    //   . K +I
    //   . . .
    //   . . .
    let sfen = "2k/3/1K+I/3/3 b - 20 b1";
    let p = pos::<Kinzoku>(sfen);
    assert_eq!(to_sfen(&p), sfen);
    assert_eq!(p.outcome(), None);
    let mut game = Game::new(p);
    assert_eq!(
        play_all(&mut game, &["1c1b"]),
        [win(Color::Black, WinReason::Checkmate)]
    );
    assert_eq!(to_sfen(game.position()), "2k/2+I/1K1/3/3 w - 21 b0");
    assert_finished(game.position(), win(Color::Black, WinReason::Checkmate));
    // Any other fifth move lets the lone king win.
    let mut game = Game::new(p);
    assert_eq!(
        play_all(&mut game, &["2c2d"]),
        [win(Color::White, WinReason::BareKing)]
    );
}

#[test]
fn a_stalemate_on_the_fifth_move_is_a_draw() {
    //   . . k      Countdown b1: 3c3b leaves White's king without a move, not in check.
    //   . . .
    //   S +I .
    //   . . .
    //   K . .
    let p = pos::<Kinzoku>("2k/3/S+I1/3/K2 b - 20 b1");
    let q = after(&p, "3c3b");
    assert_eq!(to_sfen(&q), "2k/S2/1+I1/3/K2 w - 21 b0");
    assert_finished(
        &q,
        Some(Outcome::Draw {
            reason: DrawReason::Stalemate,
        }),
    );
}

#[test]
fn countdown_fields_parse() {
    for cd in ["b1", "b2", "b3", "b4", "b5", "w1", "w5"] {
        let side = if cd.starts_with('b') { "w" } else { "b" };
        // The lone king belongs to the side that is not counting down.
        let board = if cd.starts_with('b') {
            "2k/3/1S1/3/K2"
        } else {
            "2k/3/1s1/3/K2"
        };
        let sfen = format!("{board} {side} - 7 {cd}");
        let p = pos::<Kinzoku>(&sfen);
        assert_eq!(to_sfen(&p), sfen);
        assert_eq!(p.outcome(), None, "{sfen}");
    }
    // Out of range, or a countdown although the other side has more than its king.
    assert!(parse_sfen::<Kinzoku>("2k/3/1S1/3/K2 w - 7 b6").is_err());
    assert!(parse_sfen::<Kinzoku>("2k/3/1S1/3/K2 w - 7 x3").is_err());
    assert!(parse_sfen::<Kinzoku>("2k/s2/1S1/3/K2 w - 7 b3").is_err());
}

#[test]
fn only_the_first_countdown_counts() {
    //   . . .      Countdown b3 runs. White's lone king takes Black's last piece: both
    //   . k .      sides now have a bare king, but no second countdown (w5) starts; Black's
    //   . S .      countdown goes on, and after three more Black moves White wins.
    //   . . .
    //   K . .
    let mut game = Game::new(pos::<Kinzoku>("3/1k1/1S1/3/K2 w - 10 b3"));
    let moves = ["2b2c", "3e2e", "2c2b", "2e3e", "2b2c", "3e2e"];
    let expected = [
        "3/3/1k1/3/K2 b - 11 b3",
        "3/3/1k1/3/1K1 w - 12 b2",
        "3/1k1/3/3/1K1 b - 13 b2",
        "3/1k1/3/3/K2 w - 14 b1",
        "3/3/1k1/3/K2 b - 15 b1",
        "3/3/1k1/3/1K1 w - 16 b0",
    ];
    for (i, (m, sfen)) in moves.iter().zip(expected).enumerate() {
        let out = play_all(&mut game, &[m]);
        assert_eq!(to_sfen(game.position()), sfen, "after {m}");
        assert_eq!(&pos::<Kinzoku>(sfen), game.position(), "{sfen} reads back");
        if i + 1 < moves.len() {
            assert_eq!(out, [None], "after {m}");
        } else {
            assert_eq!(out, [win(Color::White, WinReason::BareKing)]);
        }
    }
}

#[test]
fn stalemate_is_a_draw() {
    //   k . .      White to move: 2a is covered by the silver, 2b and 3b by the promoted
    //   . . S      soldier; 3a is not attacked.
    //   . +I .
    //   . . .
    //   . . K
    assert_eq!(Kinzoku::STALEMATE, StalemateRule::Draw);
    let p = pos::<Kinzoku>("k2/2S/1+I1/3/2K w - 1");
    assert!(!p.in_check());
    assert_finished(
        &p,
        Some(Outcome::Draw {
            reason: DrawReason::Stalemate,
        }),
    );
    assert_eq!(
        Game::new(p).outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::Stalemate
        })
    );
}

#[test]
fn threefold_repetition_is_a_draw() {
    assert_eq!(
        Kinzoku::REPETITION,
        RepetitionRule {
            occurrences: 3,
            perpetual_check_loses: false,
            repeater_loses: false
        }
    );
    let mut game = Game::new(P::start());
    let cycle = ["2e3d", "2a3b", "3d2e", "3b2a"];
    let moves: Vec<&str> = cycle.iter().cycle().take(8).copied().collect();
    let out = play_all(&mut game, &moves);
    assert_eq!(out[..7], [None; 7]);
    assert_eq!(
        out[7],
        Some(Outcome::Draw {
            reason: DrawReason::Repetition
        })
    );
}

#[test]
fn the_countdown_starts_only_on_a_capture_of_the_last_piece() {
    // White's soldier promotes on a quiet move and nothing is captured: no countdown.
    assert_eq!(
        sfen_after::<Kinzoku>("2k/3/3/1i1/K2 w - 1", &["2d2e+"]),
        "2k/3/3/3/K+i1 b - 2"
    );
    // Black takes one of White's two pieces: no countdown yet; then the second: b5.
    let p = pos::<Kinzoku>("2k/3/is1/CI1/2K b - 1");
    let q = after(&p, "2d2c");
    assert_eq!(to_sfen(&q), "2k/3/iI1/C2/2K w - 2");
    let r = after(&after(&q, "1a1b"), "3d3c");
    assert_eq!(to_sfen(&r), "3/2k/CI1/3/2K w - 4 b5");
}

#[test]
fn king_entry_during_the_countdown() {
    //   . . .      Countdown b1, Black's last move: entering on rank a wins by king entry,
    //   . K .      not as a failed countdown.
    //   . . .
    //   . . k
    //   S . .
    let p = pos::<Kinzoku>("3/1K1/3/2k/S2 b - 9 b1");
    let q = after(&p, "2b2a");
    assert_eq!(to_sfen(&q), "1K1/3/3/2k/S2 w - 10 b0");
    assert_finished(&q, win(Color::Black, WinReason::KingEntry));
    // Any other last move: the lone king wins.
    assert_finished(&after(&p, "2b3b"), win(Color::White, WinReason::BareKing));
    // The lone king may itself win by entering while the countdown runs.
    let p = pos::<Kinzoku>("3/1K1/3/2k/S2 w - 9 b3");
    let q = after(&p, "1d1e");
    assert_eq!(to_sfen(&q), "3/1K1/3/3/S1k b - 10 b3");
    assert_finished(&q, win(Color::White, WinReason::KingEntry));
}
