//! # kshogi-solver
//!
//! Small variants solved outright by retrograde analysis: win, loss or draw and the
//! distance to the end in plies under perfect play, for every position. [`generic`] is the
//! solver for any variant whose positions can be indexed ([`generic::Indexed`]: the index
//! with its symmetries, and un-moves); [`dobutsu`] indexes Dobutsu Shogi (drops), and
//! [`index::Layout`] Kinzoku Shogi (the bare-king countdown as part of the state). The
//! Kinzoku-only solver below ([`retro`]) and its database file are still the ones
//! `kshogi solve kinzoku` uses; the generic solver gives the same entries (tested).
//!
//! - [`generic`]: the generic solver, the Bellman check, exhaustive search, reachability.
//! - [`dobutsu`]: the Dobutsu index and un-moves.
//! - [`index`]: a perfect index of the positions with Black to move (White to move is the
//!   colour-swapped, rotated image).
//! - [`retro`]: the solver ([`solve`]), with un-move generation.
//! - [`reachable`]: the positions reachable from a start, counted under several conventions
//!   (side to move and mirror images distinguished or not; every move, or king captures first).
//! - [`reach`]: the positions reachable from the start, and optimal lines.
//! - [`db`]: the versioned, checksummed database file, and lookups ([`Database`]).
//! - [`verify`]: checks that do not use the retrograde code: the Bellman check (every value
//!   agrees with the values of the successors, by forward move generation) and exhaustive
//!   search to the stated distance.
//!
//! This crate depends on `kshogi-core` and the rules crates of the variants it indexes
//! (`kshogi-rules-kinzoku`, `kshogi-rules-dobutsu`) only; it must not depend on notation or
//! the command line, which turn its values into text.

pub mod db;
pub mod dobutsu;
pub mod generic;
pub mod index;
pub mod reach;
pub mod reachable;
pub mod retro;
pub mod value;
pub mod verify;

pub use db::{Database, DbError, Probe};
pub use index::{Compact, Layout};
pub use reach::{optimal_line, reachable, Reach};
pub use retro::{solve, Options, Phase, Progress, Solved, Stats};
pub use value::{Entry, Value};
