//! # kshogi-solver
//!
//! Small variants solved outright by retrograde analysis: win, loss or draw and the
//! distance to the end in plies under perfect play, for every position. There is one
//! solver, [`generic`], for any variant whose positions can be indexed; what it needs to
//! know about a variant is an [`Indexed`] implementation (a perfect index of the positions
//! with their symmetries, and un-move generation), which lives beside the solver, one
//! module per variant.
//!
//! - [`generic`]: the [`Indexed`] trait, the solver ([`solve`]: level-by-level propagation
//!   of wins and losses in parallel, draws where nothing is resolved), the Bellman check
//!   (every value agrees with its successors' by forward move generation), exhaustive
//!   search on small positions, and the positions reachable from the start.
//! - [`kinzoku`]: the Kinzoku Shogi index (the bare-king countdown is part of the state)
//!   and its un-moves.
//! - [`dobutsu`]: the Dobutsu Shogi index (pieces in hand) and its un-moves.
//! - [`reachable`]: the positions reachable from a start, counted under several
//!   conventions (side to move and mirror images distinguished or not; every move, or king
//!   captures first).
//! - [`db`]: the versioned, checksummed database file of any index ([`Database`]), written
//!   from a solved [`Table`], and lookups through [`Probe`].
//! - [`value`]: game values and their file codes.
//! - [`report`]: a database built and written ([`report::build`]) or read and checked
//!   ([`report::check`]) as a report with its JSON and text forms, progress to an observer.
//! - [`verify`]: a database checked without the code that built it (counts against the
//!   header, the Bellman check on a sample, exhaustive search of short results), as a
//!   report.
//!
//! The front ends name no variant: the registry (`kshogi-registry`) says which variants have
//! an index here.
//!
//! This crate depends on `kshogi-core`, the rules crates of the variants it indexes
//! (`kshogi-rules-kinzoku`, `kshogi-rules-dobutsu`) and `kshogi-notation` (the SFEN and USI
//! of its reports) only; it must not depend on the registry, the engine or the command
//! line, which choose the variant and print the reports.

pub mod db;
pub mod dobutsu;
pub mod generic;
pub mod kinzoku;
pub mod reachable;
pub mod report;
pub mod value;
pub mod verify;

pub use db::{optimal_line, Database, DbError, Loaded, Probe, Unusable};
pub use dobutsu::DobutsuIndex;
pub use generic::{solve, Indexed, Phase, Progress, Stats, SubGameError, Table};
pub use kinzoku::KinzokuIndex;
pub use value::{Entry, Value};

/// Bytes a build with `threads` threads holds at most for an index of `entries` entries,
/// an upper bound stated before it starts: two bytes per entry for the table, held
/// throughout; while solving, the two level buffers ([`generic::level_capacity`] positions of four
/// bytes each); while writing the file (the level buffers are freed by then), the blocks
/// waiting to be written ([`db::write_memory`]); then, when `reach` is set, the
/// bitsets of the reachability count ([`reachable::reach_memory`]); the Bellman
/// check holds nothing per entry. Plus 64 MiB for the program, the threads' stacks and
/// small buffers.
pub fn memory_estimate(entries: u64, reach: bool, threads: usize) -> u64 {
    let solve = 8 * generic::level_capacity(entries);
    let write = db::write_memory(entries, threads);
    let after = if reach {
        reachable::reach_memory(entries)
    } else {
        0
    };
    2 * entries + solve.max(write).max(after) + (64 << 20)
}

/// Every position reachable from `start` by the moves `rule` follows, counted with the
/// values of the solved table `t` (see [`reachable::count`], which also runs
/// without a table). Memory: [`reachable::reach_memory`].
pub fn count_reachable<I: Indexed>(
    t: &Table<I>,
    start: &kshogi_core::Position<I::V>,
    rule: reachable::Rule,
    threads: usize,
    progress: &(dyn Fn(usize, u64) + Sync),
) -> Option<reachable::ReachCount> {
    reachable::count(t.index(), Some(t), start, rule, threads, progress)
}
