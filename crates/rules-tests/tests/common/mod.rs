//! Helpers shared by the test files.
#![allow(dead_code)]

pub mod reference;

use kshogi_core::Variant;
use kshogi_core::{Game, Move, Outcome, Position};
use kshogi_notation::{move_to_usi, parse_sfen, parse_usi, to_sfen};

/// Parses an SFEN that the test expects to be valid.
pub fn pos<V: Variant>(sfen: &str) -> Position<V> {
    parse_sfen::<V>(sfen).unwrap_or_else(|e| panic!("{} `{sfen}`: {e}", V::NAME))
}

/// Parses a USI move that the test expects to be legal.
pub fn mv<V: Variant>(p: &Position<V>, text: &str) -> Move {
    parse_usi(p, text).unwrap_or_else(|e| panic!("{} in `{}`: {e}", text, to_sfen(p)))
}

/// The position after a legal move given in USI.
pub fn after<V: Variant>(p: &Position<V>, text: &str) -> Position<V> {
    p.after(mv(p, text))
}

/// The SFEN after a sequence of USI moves.
pub fn sfen_after<V: Variant>(sfen: &str, moves: &[&str]) -> String {
    let mut p = pos::<V>(sfen);
    for m in moves {
        p = after(&p, m);
    }
    to_sfen(&p)
}

/// Sorted canonical USI texts of the legal moves.
pub fn legal_usi<V: Variant>(p: &Position<V>) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|&m| move_to_usi::<V>(m))
        .collect();
    v.sort();
    v
}

/// Whether a move (canonical USI) is among the legal moves.
pub fn is_legal_usi<V: Variant>(p: &Position<V>, text: &str) -> bool {
    legal_usi(p).iter().any(|m| m == text)
}

/// Plays USI moves in a game, returning the outcome after each move.
pub fn play_all<V: Variant>(game: &mut Game<V>, moves: &[&str]) -> Vec<Option<Outcome>> {
    moves
        .iter()
        .map(|t| {
            let m = mv(game.position(), t);
            game.play(m)
                .unwrap_or_else(|e| panic!("{t} in `{}`: {e}", to_sfen(game.position())));
            game.outcome()
        })
        .collect()
}

/// The project's seeded generator, reproducible on every machine.
pub use kshogi_core::rng::SplitMix64 as Rng;

/// Draws of a given probability.
pub trait Chance {
    /// True with probability `num / den`.
    fn chance(&mut self, num: u64, den: u64) -> bool;
}

impl Chance for Rng {
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next_u64() % den < num
    }
}
