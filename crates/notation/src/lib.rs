//! # kshogi-notation
//!
//! Text in and out of kshogi: SFEN positions (canonical output, lenient input with the
//! reference engine's aliases), USI moves in both dialects, and the `POSITION` argument of
//! the command line (`startpos` or an SFEN, optionally followed by `moves ...`).
//!
//! It also draws text board diagrams for the terminal ([`diagram`]) and, with the default
//! `serde` feature, gives positions, moves and games their serde forms (SFEN strings, USI
//! strings and game records; see `serde_support`).
//!
//! Every parser returns a typed error that names what is wrong and where (the column, counted
//! in characters from 1), never panics.
//!
//! This crate depends on core and the rules crates; it must not depend on the CLI or on any
//! search or analysis crate. A new variant is registered here by implementing
//! [`VariantNotation`] for it.

mod diagram;
pub mod kif;
mod position_arg;
mod sfen;
mod usi;
mod variant;

#[cfg(feature = "serde")]
pub mod serde_support;

pub use diagram::{diagram, DiagramStyle};
pub use position_arg::{parse_game, PositionArgError};
pub use sfen::{board_shape, parse_sfen, to_sfen, SfenError, SfenErrorKind};
pub use usi::{move_to_usi, parse_usi, UsiError};
pub use variant::VariantKind;
