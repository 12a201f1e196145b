//! Dobutsu Shogi: one test per rule of RULES.md, with positions worked out by hand.
//!
//! Board diagrams are as SFEN reads them: rank a at the top, file 3 on the left, uppercase
//! Black (moving up, toward rank a). K lion, R giraffe, B elephant, P chick, +P hen.

mod common;

use common::{after, is_legal_usi, legal_usi, pos};
use kshogi_core::{
    perft, Color, DrawReason, Game, Outcome, Position, RepetitionRule, StalemateRule, Variant,
    WinReason,
};
use kshogi_notation::{parse_sfen, to_sfen};
use kshogi_rules_dobutsu::Dobutsu;

type P = Position<Dobutsu>;

fn p(sfen: &str) -> P {
    pos::<Dobutsu>(sfen)
}

#[test]
fn start_position_and_reference_letters() {
    let start = P::start();
    assert_eq!(to_sfen(&start), "rkb/1p1/1P1/BKR b - 1");
    // The reference engine's letters read as the same position.
    assert_eq!(
        to_sfen(&p("gle/1c1/1C1/ELG b - 1")),
        "rkb/1p1/1P1/BKR b - 1"
    );
    assert_eq!(to_sfen(&p("1l1/3/1+C1/1L1 b - 1")), "1k1/3/1+P1/1K1 b - 1");
    assert_eq!(perft(&mut start.clone(), 1), 4);
}

#[test]
fn the_lion_may_step_into_attack() {
    // White lion 1a, giraffe 3b (attacks 3c); Black lion 2d. All five lion moves are legal,
    // 3c included.
    let q = p("2k/r2/3/1K1 b - 1");
    assert_eq!(legal_usi(&q), vec!["2d1c", "2d1d", "2d2c", "2d3c", "2d3d"]);
    // A lion already attacked need not escape: a chick move is legal too.
    let q = p("2k/3/1r1/PK1 b - 1");
    assert!(is_legal_usi(&q, "3d3c"));
    assert_eq!(q.outcome(), None);
}

#[test]
fn capturing_the_lion_ends_the_game() {
    let q = p("2k/r2/3/1K1 b - 1");
    let mut game = Game::new(q);
    let m = common::mv(game.position(), "2d3c");
    game.play(m).unwrap();
    assert_eq!(game.outcome(), None);
    let before = *game.position();
    let take = common::mv(game.position(), "3b3c");
    game.play(take).unwrap();
    let won = Some(Outcome::Win {
        winner: Color::White,
        reason: WinReason::RoyalCaptured,
    });
    assert_eq!(game.outcome(), won);
    let end = *game.position();
    assert_eq!(end.outcome(), won);
    assert!(end.legal_moves().is_empty());
    assert_eq!(end.count_legal(), 0);
    assert_eq!(perft(&mut end.clone(), 1), 0);
    assert_eq!(perft(&mut end.clone(), 3), 0);
    assert!(!end.in_check());
    // The position before the capture has it among its moves, and make/unmake restores it.
    let mut back = before;
    let undo = back.make(take);
    assert_eq!(back.hash(), back.compute_hash());
    back.unmake(take, undo);
    assert_eq!(back, before);
    assert_eq!(back.hash(), before.hash());
    assert_eq!(perft(&mut back.clone(), 2), perft(&mut before.clone(), 2));
}

#[test]
fn a_try_wins_only_when_the_lion_is_not_attacked() {
    // Black lion 2b, White lion 3c. 2b2a: nothing attacks 2a, so Black wins by the try.
    let q = p("3/1K1/k2/3 b - 1");
    let t = after(&q, "2b2a");
    assert_eq!(
        t.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Try
        })
    );
    assert!(t.legal_moves().is_empty());
    // With a White elephant on 3b, 2a is attacked: an ordinary move, and the elephant may
    // take the lion.
    let q = p("3/bK1/k2/3 b - 1");
    let t = after(&q, "2b2a");
    assert_eq!(t.outcome(), None);
    assert!(is_legal_usi(&t, "3b2a"));
    assert_eq!(
        after(&t, "3b2a").outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::RoyalCaptured
        })
    );
    // A try position given as a setup is valid and finished.
    let done = p("1K1/3/k2/3 w - 2");
    assert!(done.legal_moves().is_empty());
    assert_eq!(done.outcome().and_then(Outcome::winner), Some(Color::Black));
}

#[test]
fn both_tries_at_once_draw() {
    // Black lion 2a (attacked by the elephant 1b), White lion 1d (attacked by the giraffe
    // 1c). The giraffe takes the elephant: neither lion is attacked any more.
    let q = p("1K1/2b/2R/2k b - 1");
    assert_eq!(q.outcome(), None);
    let t = after(&q, "1c1b");
    assert_eq!(
        t.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::BothTries
        })
    );
    assert_eq!(t.count_legal(), 0);
}

#[test]
fn a_chick_promotes_on_arrival_and_a_dropped_chick_stays_one() {
    // Chick 2b to 2a: only the promoting move.
    let q = p("k2/1P1/3/2K b - 1");
    let chick: Vec<String> = legal_usi(&q)
        .into_iter()
        .filter(|m| m.starts_with("2b"))
        .collect();
    assert_eq!(chick, vec!["2b2a+"]);
    assert_eq!(to_sfen(&after(&q, "2b2a+")), "k+P1/3/3/2K w - 2");
    // A chick in hand may be dropped on every empty square, the farthest rank included,
    // and stays a chick there, with no move.
    let q = p("k2/3/3/2K b P 1");
    let drops: Vec<String> = legal_usi(&q)
        .into_iter()
        .filter(|m| m.contains('*'))
        .collect();
    assert_eq!(drops.len(), 10, "{drops:?}");
    let d = after(&q, "P*2a");
    assert_eq!(to_sfen(&d), "kP1/3/3/2K w - 2");
    let d = after(&d, "3a3b");
    assert!(legal_usi(&d).iter().all(|m| !m.starts_with("2a")));
}

#[test]
fn a_captured_hen_goes_to_hand_as_a_chick() {
    // The Black lion on 2d takes a hen on 2c.
    let q = p("k2/3/1+p1/1K1 b - 1");
    let t = after(&q, "2d2c");
    assert_eq!(to_sfen(&t), "k2/3/1K1/3 w P 2");
    // Only chick drops, no hen drops.
    let t = after(&t, "3a3b");
    let drops: Vec<String> = legal_usi(&t)
        .into_iter()
        .filter(|m| m.contains('*'))
        .collect();
    assert!(!drops.is_empty() && drops.iter().all(|m| m.starts_with("P*")));
}

#[test]
fn setup_validity() {
    // The side not to move may be "in check": Black to move can take the lion.
    let q = p("1k1/1R1/3/1K1 b - 1");
    assert!(is_legal_usi(&q, "2b2a"));
    // Exactly one lion per side, two pieces per kind.
    assert!(parse_sfen::<Dobutsu>("3/3/3/1K1 b - 1").is_err());
    assert!(parse_sfen::<Dobutsu>("k1k/3/3/1K1 b - 1").is_err());
    assert!(parse_sfen::<Dobutsu>("k2/3/3/1K1 b 3P 1").is_err());
    assert!(parse_sfen::<Dobutsu>("k2/3/PP1/1K1 b P 1").is_err());
    // A chick on its farthest rank is a valid setup (it may have been dropped there).
    assert!(parse_sfen::<Dobutsu>("P1k/3/3/K2 w - 1").is_ok());
    // The board is 3x4.
    assert!(parse_sfen::<Dobutsu>("rkb/1p1/1P1/1P1/BKR b - 1").is_err());
}

#[test]
fn no_move_loses_and_repetition_rule() {
    const { assert!(!Dobutsu::CHECK_RULE) };
    assert_eq!(Dobutsu::STALEMATE, StalemateRule::Loss);
    assert_eq!(
        Dobutsu::REPETITION,
        RepetitionRule {
            occurrences: 4,
            perpetual_check_loses: false,
            repeater_loses: false
        }
    );
    // Lions shuffle: the fourth occurrence of the start is a draw.
    let mut game = Game::new(p("k2/3/3/2K b - 1"));
    let cycle = ["1d1c", "3a3b", "1c1d", "3b3a"];
    for round in 0..3 {
        for m in cycle {
            let mv = common::mv(game.position(), m);
            game.play(mv).unwrap();
        }
        let expect = (round == 2).then_some(Outcome::Draw {
            reason: DrawReason::Repetition,
        });
        assert_eq!(game.outcome(), expect, "round {round}");
    }
}
