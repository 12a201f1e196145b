//! Property tests (proptest) over random games in every variant.
//!
//! A game is a start position and a list of move choices: each choice picks one of the legal
//! moves of the current position (by index, so that it works for any position), and the game
//! stops early when the position has no legal move. The starts are each variant's start
//! position, the positions of the shared perft table (`perft/reference.tsv`, counts from
//! independent engines) and a few positions that the start rarely leads to (full hands,
//! sliders next to the kings, a running countdown). Proptest draws the games and, when a
//! property fails, shrinks the game to a short one that still fails and prints it.
//!
//! On every position visited:
//! - making and unmaking each legal move restores the position and its hash;
//! - the incremental hash equals the hash computed from scratch (before and after each move);
//! - the canonical USI text of every legal move parses back to the same move;
//! - perft(d) equals the sum of divide(d), for d = 1 and 2;
//! - no legal move leaves the mover's king attacked;
//! - core's legal moves are exactly those of the slow, independent reference generator of
//!   `common/reference.rs`, compared as sorted USI texts.
//!
//! The number of games per property is `CASES` (override with the `PROPTEST_CASES`
//! environment variable); the default keeps a debug `cargo test` of this file within a few
//! seconds per property. `cargo xtask ci` runs it in release like every other test.

mod common;

use common::reference::{RefPos, Rv};
use kshogi_core::Variant;
use kshogi_core::{divide, perft, Position};
use kshogi_notation::{move_to_usi, parse_game, parse_usi, to_sfen};
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, FileFailurePersistence, TestCaseError};

/// Games per property and variant (the `PROPTEST_CASES` environment variable overrides it).
const CASES: u32 = 4096;
/// Longest game, in plies.
const MAX_PLIES: usize = 40;

/// Positions that the start position rarely leads to: every piece in hand (every drop),
/// sliders next to the kings (pins, discovered checks, interpositions), a countdown.
const EXTRA_STARTS: &[(&str, &str)] = &[
    ("kyoto", "4k/5/5/5/K4 b TGSPtgsp 1"),
    ("kyoto", "k4/5/5/5/4K w 2T2G2S2P 1"),
    ("kyoto", "l1k1b/1r3/5/3R1/B1K1L w Gg 1"),
    ("micro", "k3/4/4/4/3K b BGSPbgsp 1"),
    ("micro", "l1k1/3r/4/2R1/1K1L w Bb 1"),
    ("kinzoku", "ks1/c1i/3/I1C/1SK b - 1"),
    ("kinzoku", "2k/3/1s1/1SC/2K b - 1"),
    ("kinzoku", "2k/3/1S1/3/K2 w - 7 b5"),
];

/// The start positions of variant `V`: its start, the distinct positions of the shared perft
/// table, and its [`EXTRA_STARTS`].
fn starts<V: Variant>() -> Vec<Position<V>> {
    let table = include_str!("../../../perft/reference.tsv");
    let mut texts: Vec<&str> = vec!["startpos"];
    for line in table.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        if fields[0] == V::NAME && !texts.contains(&fields[1]) {
            texts.push(fields[1]);
        }
    }
    for &(variant, sfen) in EXTRA_STARTS {
        if variant == V::NAME {
            texts.push(sfen);
        }
    }
    texts
        .iter()
        .map(|text| {
            *parse_game::<V>(text)
                .unwrap_or_else(|e| panic!("{} `{text}`: {e}", V::NAME))
                .position()
        })
        .collect()
}

/// A random game: which start, and the move choices.
fn game() -> impl Strategy<Value = (Index, Vec<Index>)> {
    (
        any::<Index>(),
        prop::collection::vec(any::<Index>(), 0..=MAX_PLIES),
    )
}

fn config() -> Config {
    // An explicit `cases` would hide the environment variable, so read it here.
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(CASES);
    Config {
        cases,
        // A failure is printed, shrunk, with the game that shows it; it is not written to a
        // file next to the test (add it to a test by hand instead).
        failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
        ..Config::default()
    }
}

/// Plays the game from its start and runs `check` on every position visited, the start
/// included.
fn visit<V: Variant>(
    starts: &[Position<V>],
    (start, picks): &(Index, Vec<Index>),
    mut check: impl FnMut(&Position<V>) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    let mut pos = *start.get(starts);
    check(&pos)?;
    for pick in picks {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.make(*pick.get(&moves));
        check(&pos)?;
    }
    Ok(())
}

/// Making and unmaking each legal move restores the position (board, hands, side, ply,
/// variant state) and its hash.
fn unmake_restores<V: Variant>(pos: &Position<V>) -> Result<(), TestCaseError> {
    for &mv in pos.legal_moves().iter() {
        let mut p = *pos;
        let undo = p.make(mv);
        p.unmake(mv, undo);
        let usi = move_to_usi::<V>(mv);
        prop_assert!(p == *pos, "unmake of {usi} in `{}`", to_sfen(pos));
        prop_assert_eq!(
            p.hash(),
            pos.hash(),
            "hash after unmake of {} in `{}`",
            usi,
            to_sfen(pos)
        );
    }
    Ok(())
}

/// The incremental hash equals the hash computed from scratch, here and after each move.
fn hash_is_fresh<V: Variant>(pos: &Position<V>) -> Result<(), TestCaseError> {
    prop_assert_eq!(pos.hash(), pos.compute_hash(), "`{}`", to_sfen(pos));
    for &mv in pos.legal_moves().iter() {
        let p = pos.after(mv);
        prop_assert_eq!(
            p.hash(),
            p.compute_hash(),
            "after {} in `{}`",
            move_to_usi::<V>(mv),
            to_sfen(pos)
        );
    }
    Ok(())
}

/// The canonical USI text of every legal move parses back to the same move.
fn usi_round_trips<V: Variant>(pos: &Position<V>) -> Result<(), TestCaseError> {
    for &mv in pos.legal_moves().iter() {
        let usi = move_to_usi::<V>(mv);
        prop_assert_eq!(
            parse_usi(pos, &usi),
            Ok(mv),
            "{} in `{}`",
            usi,
            to_sfen(pos)
        );
    }
    Ok(())
}

/// perft(d) equals the sum of divide(d) for d = 1, 2; divide has one entry per legal move.
fn perft_is_divide_sum<V: Variant>(pos: &Position<V>) -> Result<(), TestCaseError> {
    let moves = pos.legal_moves();
    for depth in 1..=2 {
        let mut p = *pos;
        let total = perft(&mut p, depth);
        let parts = divide(&mut p, depth);
        prop_assert!(p == *pos, "perft/divide changed `{}`", to_sfen(pos));
        prop_assert_eq!(parts.len(), moves.len(), "`{}`", to_sfen(pos));
        let sum: u64 = parts.iter().map(|&(_, n)| n).sum();
        prop_assert_eq!(total, sum, "depth {} of `{}`", depth, to_sfen(pos));
    }
    Ok(())
}

/// No legal move leaves the mover's own king attacked.
fn king_safe<V: Variant>(pos: &Position<V>) -> Result<(), TestCaseError> {
    let mover = pos.side_to_move();
    for &mv in pos.legal_moves().iter() {
        let p = pos.after(mv);
        prop_assert!(
            !p.is_attacked(p.king(mover), !mover, p.occupied()),
            "{} leaves the mover's king attacked in `{}`",
            move_to_usi::<V>(mv),
            to_sfen(pos)
        );
    }
    Ok(())
}

/// Core's legal moves are exactly the reference generator's (sorted USI texts).
fn agrees_with_reference<V: Variant>(pos: &Position<V>) -> Result<(), TestCaseError> {
    let sfen = to_sfen(pos);
    let mut core: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| move_to_usi::<V>(m))
        .collect();
    core.sort();
    let reference = RefPos::from_sfen(Rv::from_name(V::NAME), &sfen).legal_usi();
    prop_assert_eq!(core, reference, "legal moves of `{}`", sfen);
    Ok(())
}

/// One proptest per variant for a property: `$name` runs `$check` on every position of
/// [`CASES`] random games of each variant.
macro_rules! property {
    ($name:ident, $check:ident) => {
        mod $name {
            use super::*;

            proptest! {
                #![proptest_config(config())]

                #[test]
                fn kyoto(g in game()) {
                    visit(&starts::<Kyoto>(), &g, $check::<Kyoto>)?;
                }

                #[test]
                fn micro(g in game()) {
                    visit(&starts::<Micro>(), &g, $check::<Micro>)?;
                }

                #[test]
                fn kinzoku(g in game()) {
                    visit(&starts::<Kinzoku>(), &g, $check::<Kinzoku>)?;
                }
            }
        }
    };
}

property!(unmake_restores_position_and_hash, unmake_restores);
property!(incremental_hash_equals_compute_hash, hash_is_fresh);
property!(every_legal_move_usi_parses_back, usi_round_trips);
property!(perft_equals_sum_of_divide, perft_is_divide_sum);
property!(no_legal_move_leaves_king_attacked, king_safe);
property!(movegen_agrees_with_reference, agrees_with_reference);

#[test]
fn every_variant_has_several_starts() {
    // The shared table has positions of each variant; a change that dropped them would
    // leave the properties running on the start position alone.
    assert!(starts::<Kyoto>().len() > 10);
    assert!(starts::<Micro>().len() > 10);
    assert!(starts::<Kinzoku>().len() > 10);
}
