//! `Position::gives_check`, the check test without making the move, against making it: in
//! every position of seeded random games of every variant, for every legal move, it must
//! say what `in_check` says of the position after the move.
//!
//! Games start from the start position and from positions with every piece in hand or
//! sliders near the kings, where drops, flips and discovered checks are frequent.

mod common;

use common::Rng;
use kshogi_core::{Position, Variant};
use kshogi_notation::{move_to_usi, parse_sfen, to_sfen};
use kshogi_rules_dobutsu::Dobutsu;
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;
use kshogi_rules_minishogi::Minishogi;

/// Plays `games` random games of at most `plies` plies from `start` (the start position
/// when `None`); returns how many moves were checked and how many of them gave check.
fn check<V: Variant>(start: Option<&str>, games: usize, plies: usize, seed: u64) -> (u64, u64) {
    let mut rng = Rng::new(seed);
    let first = match start {
        Some(s) => parse_sfen::<V>(s).expect("a valid start"),
        None => Position::<V>::start(),
    };
    let (mut moves, mut checks) = (0, 0);
    for _ in 0..games {
        let mut pos = first;
        for _ in 0..plies {
            if pos.outcome().is_some() {
                break;
            }
            let list = pos.legal_moves();
            if list.is_empty() {
                break;
            }
            for &m in list.iter() {
                let after = pos.after(m).in_check();
                assert_eq!(
                    pos.gives_check(m),
                    after,
                    "gives_check of `{}` in `{}`",
                    move_to_usi::<V>(m),
                    to_sfen(&pos)
                );
                moves += 1;
                checks += u64::from(after);
            }
            pos = pos.after(list[rng.below(list.len())]);
        }
    }
    (moves, checks)
}

/// Checks every start and that the games reached enough checks to mean something.
fn each<V: Variant>(starts: &[Option<&str>], seed: u64) {
    let (mut moves, mut checks) = (0, 0);
    for (i, &s) in starts.iter().enumerate() {
        let (m, c) = check::<V>(s, 40, 60, seed + i as u64);
        moves += m;
        checks += c;
    }
    assert!(moves > 10_000, "{moves} moves");
    assert!(checks > 200, "{checks} checks of {moves} moves");
}

#[test]
fn kyoto() {
    each::<Kyoto>(
        &[
            None,
            Some("4k/5/5/5/K4 b TGSPtgsp 1"),
            Some("l1k1b/1r3/5/3R1/B1K1L w Gg 1"),
        ],
        1,
    );
}

#[test]
fn micro() {
    each::<Micro>(
        &[
            None,
            Some("k3/4/4/4/3K b BGSPbgsp 1"),
            Some("l1k1/3r/4/2R1/1K1L w Bb 1"),
        ],
        2,
    );
}

#[test]
fn kinzoku() {
    each::<Kinzoku>(&[None, None], 3);
}

#[test]
fn minishogi() {
    each::<Minishogi>(&[None, Some("4k/5/1B3/5/KR3 b GSPgsp 1")], 4);
}

#[test]
fn dobutsu() {
    each::<Dobutsu>(&[None, Some("1k1/3/3/1K1 b BRPbrp 1")], 5);
}
