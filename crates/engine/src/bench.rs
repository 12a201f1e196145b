//! The bench: a fixed, deterministic workload of the search whose node count is the search's
//! signature.
//!
//! [`bench()`] plays a short game from a variant's start position with the search itself:
//! at each of the first `positions` positions it searches to a fixed depth (one thread, a
//! transposition table of [`BENCH_HASH_MB`] MiB cleared before each search, no time or node
//! limit), records the nodes and plays the best move. A search at fixed depth with one
//! thread is deterministic, so the total number of nodes changes exactly when the search's
//! behaviour (move ordering, pruning, evaluation, hashing, the rules' move generation)
//! changes, whatever the machine. That makes the total a *signature*, as Stockfish's
//! `bench` is: a change meant to be a pure speed-up must keep it, and a change of the search
//! changes it and says so (`cargo xtask ci` compares it with the recorded one). It is a
//! change detector, not a correctness test: the recorded value is the search's own output.
//!
//! The positions come from the search's own game, not from a list, so every registered
//! variant has a bench without data of its own, and the module names no variant.

use crate::{Engine, Evaluator, Limits};
use kshogi_core::{Game, Move, Position, Variant};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Depth of every bench search unless told otherwise.
pub const BENCH_DEPTH: u32 = 9;
/// Number of positions searched per variant unless told otherwise.
pub const BENCH_POSITIONS: usize = 6;
/// Transposition-table size of the bench's engine, in MiB (USI's default `USI_Hash`).
pub const BENCH_HASH_MB: usize = 16;

/// One searched position of a bench.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchPosition {
    /// The moves played from the start position to reach it.
    pub moves: Vec<Move>,
    /// Nodes the search counted.
    pub nodes: u64,
    /// The move the search chose (played to reach the next position).
    pub best: Move,
}

/// What [`bench()`] measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// The searched positions, in the order of the game.
    pub positions: Vec<BenchPosition>,
    /// Nodes of all the searches: the signature.
    pub nodes: u64,
    /// Time of all the searches.
    pub time: Duration,
}

/// Runs the bench of variant `V` with evaluator `E`: up to `positions` searches to `depth`,
/// along the game the search plays from the start position (fewer when that game ends).
pub fn bench<V: Variant, E: Evaluator<V>>(depth: u32, positions: usize) -> BenchResult {
    let mut engine = Engine::<V, E>::new(BENCH_HASH_MB);
    let mut game = Game::new(Position::<V>::start());
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut out = BenchResult {
        positions: Vec::with_capacity(positions),
        nodes: 0,
        time: Duration::ZERO,
    };
    // A search with a depth limit alone is reproducible: it clears the table and the
    // ordering tables itself, so nothing is cleared here.
    for _ in 0..positions {
        let start = Instant::now();
        let r = engine.search(&game, &limits, 1, &stop, &mut |_| {});
        out.time += start.elapsed();
        let Some(best) = r.lines.first().map(|l| l.mv) else {
            break;
        };
        out.nodes += r.nodes;
        out.positions.push(BenchPosition {
            moves: game.moves().to_vec(),
            nodes: r.nodes,
            best,
        });
        if game.play(best).is_err() || game.outcome().is_some() {
            break;
        }
    }
    out
}
