//! # kshogi-engine
//!
//! Analysis for the kshogi variants: an iterative-deepening principal-variation alpha-beta
//! search with a transposition table, and a proof-number (df-pn) solver for forced mates.
//! Evaluation is per variant ([`Evaluate`]); everything is generic over the variant and
//! monomorphised, and the search does not allocate per node.
//!
//! This crate sits between notation and the command line: it may use core, the rules crates
//! and notation (for the variant list and text of moves), and must not depend on the CLI.
//!
//! API CONTRACT (written by the lead before the implementation; the types and signatures
//! below are what the CLI and the USI loop code against — keep them):

use kshogi_core::{Game, Move};
use kshogi_notation::VariantNotation;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A score from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// A forced win in `n` plies (`n > 0`) or a forced loss in `-n` plies (`n < 0`), counting
    /// plies from the current position to the end of the game (checkmate, king entry,
    /// countdown, perpetual check — any win the variant knows).
    Mate(i32),
}

/// When to stop searching. All set limits apply; the first one reached stops the search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Largest nominal depth (plies) of the iterative deepening.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Wall-clock budget.
    pub time: Option<Duration>,
    /// Stop as soon as a mate in at most this many plies is found (USI `go mate`).
    pub mate: Option<u32>,
    /// Search until stopped (USI `go infinite`); other limits except `stop` are ignored.
    pub infinite: bool,
}

/// One of the best moves with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The move.
    pub mv: Move,
    /// Its score.
    pub score: Score,
    /// The principal variation, starting with `mv`.
    pub pv: Vec<Move>,
    /// Depth of the iteration that produced it.
    pub depth: u32,
    /// Selective depth reached.
    pub seldepth: u32,
}

/// Progress reported during the search (after each completed iteration and line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Iteration depth.
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// 1-based index of the line (multi-PV).
    pub multipv: usize,
    /// Score of the line.
    pub score: Score,
    /// The line.
    pub pv: Vec<Move>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition-table fill, per mille.
    pub hashfull: u32,
}

/// What a finished search returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best lines, best first (at most the multi-PV count; empty if no legal move).
    pub lines: Vec<Line>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// Deepest completed iteration.
    pub depth: u32,
}

/// Per-variant evaluation, implemented in this crate for each variant kshogi knows.
pub trait Evaluate: VariantNotation {
    /// Static evaluation in centipawns from the side to move's point of view.
    fn evaluate(pos: &kshogi_core::Position<Self>) -> i32;
}

impl Evaluate for kshogi_rules_kyoto::Kyoto {
    fn evaluate(_pos: &kshogi_core::Position<Self>) -> i32 {
        0
    }
}
impl Evaluate for kshogi_rules_micro::Micro {
    fn evaluate(_pos: &kshogi_core::Position<Self>) -> i32 {
        0
    }
}
impl Evaluate for kshogi_rules_kinzoku::Kinzoku {
    fn evaluate(_pos: &kshogi_core::Position<Self>) -> i32 {
        0
    }
}

/// The searcher: owns the transposition table and the move-ordering tables.
pub struct Engine<V: Evaluate> {
    _v: core::marker::PhantomData<V>,
}

impl<V: Evaluate> Engine<V> {
    /// A searcher with a transposition table of at most `hash_mb` MiB.
    pub fn new(_hash_mb: usize) -> Engine<V> {
        Engine {
            _v: core::marker::PhantomData,
        }
    }

    /// Resizes (and clears) the transposition table; memory stays within `hash_mb` MiB.
    pub fn set_hash(&mut self, _hash_mb: usize) {}

    /// Forgets everything learnt (USI `usinewgame`).
    pub fn clear(&mut self) {}

    /// Searches the current position of `game` (its history feeds the repetition rule) for
    /// the `multipv` best moves within `limits`. Returns promptly once `stop` becomes true.
    /// Calls `on_info` after each completed iteration for each line. Deterministic for a
    /// fixed depth (no time or node limit): same input, same result.
    pub fn search(
        &mut self,
        _game: &Game<V>,
        _limits: &Limits,
        _multipv: usize,
        _stop: &AtomicBool,
        _on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        SearchResult {
            lines: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            depth: 0,
        }
    }
}

/// The df-pn mate solver.
pub mod mate {
    use kshogi_core::{Move, Position};
    use std::sync::atomic::AtomicBool;

    /// What the solver found.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum MateResult {
        /// The side to move mates (or wins by any variant win) in `plies`, with a main line.
        Mate {
            /// Plies to the end.
            plies: u32,
            /// The line, attacker and defender moves alternating.
            pv: Vec<Move>,
        },
        /// Proven: there is no forced win by checks.
        NoMate,
        /// The node limit or `stop` ended the search first.
        Unknown,
    }

    /// Looks for a forced win by the side to move where every attacking move gives check
    /// (or wins at once), within `max_nodes` nodes.
    pub fn solve<V: super::Evaluate>(
        _pos: &Position<V>,
        _max_nodes: u64,
        _stop: &AtomicBool,
    ) -> MateResult {
        MateResult::Unknown
    }
}

impl<V: Evaluate> core::fmt::Debug for Engine<V> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Engine")
    }
}
