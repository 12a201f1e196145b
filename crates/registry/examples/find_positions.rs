//! Finds positions for the tests in random games, with the brute-force verifier of the
//! tests (`tests/common`): forced wins at an exact distance (`tests/mates.rs`) and positions
//! where only one move keeps material (`tests/search.rs`).
//!
//! `cargo run --release -p kshogi-registry --example find_positions [mates|kinzoku|special|only]`

#[path = "../tests/common/mod.rs"]
mod common;

use common::{win_distance, Moves, Rules};
use kshogi_core::rng::SplitMix64;
use kshogi_core::{Outcome, Position, WinReason};
use kshogi_notation::to_sfen;
use kshogi_registry::Registered;
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;

fn scan<V: Rules + Registered>(seed: u64, games: usize, want: &[u32], per: usize) {
    let mut rng = SplitMix64::new(seed);
    let mut found = vec![0usize; want.len()];
    for _ in 0..games {
        let mut pos = Position::<V>::start();
        for _ply in 0..80 {
            if pos.outcome().is_some() {
                break;
            }
            if let Some(d) = win_distance(&pos, 5, Moves::All) {
                if let Some(i) = want.iter().position(|&w| w == d) {
                    let dc = win_distance(&pos, d, Moves::Checks);
                    if found[i] < per && dc == Some(d) {
                        found[i] += 1;
                        println!("{} mate {d} (checks {dc:?}): {}", V::NAME, to_sfen(&pos));
                    }
                }
            }
            let moves = pos.legal_moves();
            let m = moves[rng.below(moves.len())];
            pos.make(m);
        }
        if found.iter().all(|&f| f >= per) {
            break;
        }
    }
}

/// Kinzoku positions whose forced win ends in king entry or the countdown.
fn scan_kinzoku_special(seed: u64, games: usize) {
    let mut rng = SplitMix64::new(seed);
    for _ in 0..games {
        let mut pos = Position::<Kinzoku>::start();
        let mut history = vec![pos];
        for _ply in 0..80 {
            if let Some(o) = pos.outcome() {
                if let Outcome::Win { reason, .. } = o {
                    if matches!(reason, WinReason::KingEntry | WinReason::BareKing) {
                        // Look back a few plies for a forced win ending this way.
                        for back in 1..=4usize.min(history.len() - 1) {
                            let p = history[history.len() - 1 - back];
                            if let Some(d) = win_distance(&p, 5, Moves::All) {
                                println!("kinzoku {reason:?} win {d}: {}", to_sfen(&p));
                            }
                        }
                    }
                }
                break;
            }
            let moves = pos.legal_moves();
            let m = moves[rng.below(moves.len())];
            pos.make(m);
            history.push(pos);
        }
    }
}

/// Kinzoku positions without a countdown where the side to move checkmates by force at an
/// exact distance.
fn scan_kinzoku_checkmates(seed: u64, games: usize) {
    let mut rng = SplitMix64::new(seed);
    let mate = |r: WinReason| r == WinReason::Checkmate;
    let mut found = [0; 6];
    for _ in 0..games {
        let mut pos = Position::<Kinzoku>::start();
        for _ply in 0..80 {
            if pos.outcome().is_some() {
                break;
            }
            if pos.extra().is_none() {
                if let Some(d) =
                    (1..=5).find(|&k| common::wins_within_by(&pos, k, Moves::All, &mate))
                {
                    let any = win_distance(&pos, d, Moves::All);
                    let checks = win_distance(&pos, d, Moves::Checks);
                    if d % 2 == 1 && found[d as usize] < 4 && any == Some(d) && checks == Some(d) {
                        found[d as usize] += 1;
                        println!("kinzoku checkmate {d}: {}", to_sfen(&pos));
                    }
                }
            }
            let moves = pos.legal_moves();
            let m = moves[rng.below(moves.len())];
            pos.make(m);
        }
    }
}

/// Kinzoku positions whose fastest forced win is by `reason` at an exact distance.
fn scan_kinzoku_reason(seed: u64, games: usize, reason: WinReason, dists: &[u32]) {
    let mut rng = SplitMix64::new(seed);
    let only = |r: WinReason| r == reason;
    let mut found = [0; 7];
    for _ in 0..games {
        let mut pos = Position::<Kinzoku>::start();
        for _ply in 0..80 {
            if pos.outcome().is_some() {
                break;
            }
            if let Some(d) = (1..=6).find(|&k| common::wins_within_by(&pos, k, Moves::All, &only)) {
                let any = win_distance(&pos, d, Moves::All);
                let checks = win_distance(&pos, d, Moves::Checks);
                if dists.contains(&d) && found[d as usize] < 3 && any == Some(d) {
                    found[d as usize] += 1;
                    println!(
                        "kinzoku {reason:?} {d} (checks {checks:?}): {}",
                        to_sfen(&pos)
                    );
                }
            }
            let moves = pos.legal_moves();
            let m = moves[rng.below(moves.len())];
            pos.make(m);
        }
    }
}

fn scan_kinzoku_mates() {
    scan_kinzoku_checkmates(5, 20000);
}

fn scan_kinzoku_entry_and_countdown() {
    scan_kinzoku_reason(6, 3000, WinReason::KingEntry, &[3, 5]);
    scan_kinzoku_reason(7, 3000, WinReason::BareKing, &[2, 4, 6]);
}

fn scan_random_games() {
    scan::<Kyoto>(1, 400, &[1, 3, 5], 4);
    scan::<Micro>(2, 400, &[1, 3, 5], 4);
    scan::<Kinzoku>(3, 2000, &[1, 3, 5], 4);
    scan_kinzoku_special(4, 300);
}

/// Pieces (board and hand, king excluded) of the side to move minus the opponent's.
fn count_diff<V: Rules>(pos: &Position<V>) -> i32 {
    let us = pos.side_to_move();
    let mut d = 0;
    for c in [us, !us] {
        let sign = if c == us { 1 } else { -1 };
        let t = V::tables();
        let board = (pos.color_bb(c) & !pos.kind_bb(t.king)).count() as i32;
        let hand: i32 = pos.hand_counts(c).iter().map(|&n| n as i32).sum();
        d += sign * (board + hand);
    }
    d
}

/// Piece-count minimax for the side to move over `plies` plies (a won game +100).
fn count_minimax<V: Rules>(pos: &Position<V>, plies: u32) -> i32 {
    if let Some(o) = pos.outcome() {
        return match o.winner() {
            Some(w) if w == pos.side_to_move() => 100,
            Some(_) => -100,
            None => 0,
        };
    }
    if plies == 0 {
        return count_diff(pos);
    }
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&m| -count_minimax(&pos.after(m), plies - 1))
        .max()
        .unwrap()
}

fn scan_only_move<V: Rules + Registered>(seed: u64, games: usize) {
    let mut rng = SplitMix64::new(seed);
    let mut found = 0;
    for _ in 0..games {
        let mut pos = Position::<V>::start();
        for _ply in 0..40 {
            if pos.outcome().is_some() {
                break;
            }
            let moves = pos.legal_moves();
            if !pos.in_check() && moves.len() <= 14 {
                let base = count_diff(&pos);
                let vals: Vec<i32> = moves
                    .iter()
                    .map(|&m| -count_minimax(&pos.after(m), 2))
                    .collect();
                let keep = vals.iter().filter(|&&v| v >= base).count();
                let worst_other = vals.iter().filter(|&&v| v < base).all(|&v| v <= base - 2);
                if keep == 1 && worst_other && vals.iter().all(|&v| v.abs() < 50) {
                    found += 1;
                    println!(
                        "{} only move: {} ({} moves)",
                        V::NAME,
                        to_sfen(&pos),
                        moves.len()
                    );
                    if found >= 6 {
                        return;
                    }
                }
            }
            let m = moves[rng.below(moves.len())];
            pos.make(m);
        }
    }
}

fn scan_only_moves() {
    scan_only_move::<Micro>(8, 3000);
    scan_only_move::<Kyoto>(9, 3000);
}

fn main() {
    let what = std::env::args().nth(1).unwrap_or_else(|| "mates".into());
    match what.as_str() {
        "mates" => scan_random_games(),
        "kinzoku" => scan_kinzoku_mates(),
        "special" => scan_kinzoku_entry_and_countdown(),
        "only" => scan_only_moves(),
        other => eprintln!("unknown scan `{other}`: mates, kinzoku, special or only"),
    }
}
