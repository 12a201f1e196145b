//! # kshogi-solver
//!
//! Kinzoku Shogi solved outright: a retrograde analysis over every position of the game
//! (with the bare-king countdown as part of the state) computes win, loss or draw and the
//! distance to the end in plies under perfect play, and a database file keeps the result.
//!
//! - [`index`]: a perfect index of the positions with Black to move (White to move is the
//!   colour-swapped, rotated image).
//! - [`retro`]: the solver ([`solve`]), with un-move generation.
//! - [`reach`]: the positions reachable from the start, and optimal lines.
//! - [`db`]: the versioned, checksummed database file, and lookups ([`Database`]).
//! - [`verify`]: checks that do not use the retrograde code: the Bellman check (every value
//!   agrees with the values of the successors, by forward move generation) and exhaustive
//!   search to the stated distance.
//!
//! This crate depends on `kshogi-core` and `kshogi-rules-kinzoku` only; it must not depend on
//! notation or the command line, which turn its values into text.

pub mod db;
pub mod index;
pub mod reach;
pub mod retro;
pub mod value;
pub mod verify;

pub use db::{Database, DbError, Probe};
pub use index::{Compact, Layout};
pub use reach::{optimal_line, reachable, Reach};
pub use retro::{solve, Options, Phase, Progress, Solved, Stats};
pub use value::{Entry, Value};
