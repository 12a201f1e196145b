//! # kshogi-core
//!
//! The variant-independent machinery of kshogi: board geometry (up to 64 squares), colors,
//! squares with USI names, bitboards, a piece model in which a piece may have two faces,
//! compact moves, validated positions with an incremental Zobrist hash, legal move
//! generation (checks, pins, drops) as bitboard bundles, make/unmake, game status, games
//! with each variant's repetition rule, and perft; and the one query every move reader asks
//! ([`Position::resolve`]): which legal move a [`MoveRequest`] names, or, as an
//! [`IllegalMove`], why none.
//!
//! A variant plugs in by implementing [`Variant`] in a crate of its own. Everything here is
//! generic over that trait and monomorphised per variant, so the hot path has no dynamic
//! dispatch and no heap allocation per node.
//!
//! This crate must not depend on any variant, on notation, or on the command line: it knows
//! no variant by name.
//!
//! ```
//! # use kshogi_core::*;
//! fn count<V: Variant>() -> u64 {
//!     let mut pos = Position::<V>::start();
//!     perft(&mut pos, 2)
//! }
//! ```

mod bitboard;
mod color;
mod game;
mod movegen;
mod mv;
mod perft;
mod piece;
mod position;
mod resolve;
pub mod rng;
mod square;
pub mod tables;
mod variant;

pub use bitboard::Bitboard;
pub use color::Color;
pub use game::{Game, GameError};
pub use movegen::Bundle;
pub use mv::{Move, MoveList, MAX_MOVES};
pub use perft::{
    divide, divide_interruptible, divide_parallel, nodes_per_second, perft, perft_parallel,
    MAX_PERFT_DEPTH,
};
pub use piece::{Kind, Movement, Piece, PieceDef, MAX_KINDS, MAX_SLOTS};
pub use position::{Position, PositionError, Setup, Undo, MAX_PLY};
pub use resolve::{DropRule, FlipRequest, IllegalMove, MoveRequest};
pub use square::{Geometry, Square, SquareName, MAX_SQUARES};
pub use tables::Tables;
pub use variant::{
    has_drops, DrawReason, DropRules, ExtraError, Flip, GroupLimit, Outcome, RepetitionRule,
    StalemateRule, Variant, VariantInfo, WinReason,
};
