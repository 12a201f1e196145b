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

/// A small seeded pseudo-random generator (SplitMix64): no dependency, reproducible.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next_u64() % den < num
    }
}
