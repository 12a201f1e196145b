//! # kshogi-notation
//!
//! Text in and out of kshogi: SFEN positions (canonical output, lenient input with the
//! reference engine's aliases), USI moves in both dialects, and the `POSITION` argument of
//! the command line (`startpos` or an SFEN, optionally followed by `moves ...`).
//!
//! Every parser returns a typed error that names what is wrong and where (the column, counted
//! in characters from 1), never panics.
//!
//! This crate depends on core and the rules crates; it must not depend on the CLI or on any
//! search or analysis crate. A new variant is registered here by implementing
//! [`VariantNotation`] for it.

mod position_arg;
mod sfen;
mod usi;
mod variant;

pub use position_arg::{parse_game, PositionArgError};
pub use sfen::{board_shape, parse_sfen, to_sfen, SfenError, SfenErrorKind};
pub use usi::{move_to_usi, parse_usi, UsiError};
pub use variant::{VariantKind, VariantNotation};
