//! # kshogi-notation
//!
//! Text in and out of kshogi: SFEN positions (canonical output, lenient input with the
//! reference engine's aliases), USI moves in both dialects, and the `POSITION` argument of
//! the command line (`startpos` or an SFEN, optionally followed by `moves ...`).
//!
//! [`human`] words numbers, sizes and durations for the reports of every front end.
//!
//! It also draws board diagrams: text for the terminal ([`diagram`]) and self-contained SVG
//! pictures for pages and print ([`svg()`]), and the evaluation graph of a reviewed game
//! ([`eval_graph_svg`]); and, with the default
//! `serde` feature, gives positions, moves and games their serde forms (SFEN strings, USI
//! strings and game records; see `serde_support`).
//!
//! Every parser returns a typed error that names what is wrong and where (the column, counted
//! in characters from 1), never panics.
//!
//! Everything here is generic over [`kshogi_core::Variant`]: the letters, kanji and names
//! of a variant's pieces come from its piece table, its names and the text of its extra
//! state from its `Variant` impl. Code that chooses among variants at run time (the
//! `手合割` header of a KIF record, [`kif::kif_variant`]) is given the list of variants as
//! [`kshogi_core::VariantInfo`] values by its caller, normally the registry.
//!
//! This crate depends on core only; it must not depend on any rules crate (it names no
//! variant), on the registry, the engine, the solver or the command line.

mod diagram;
mod eval_graph;
pub mod human;
mod illegal;
pub mod kif;
mod position_arg;
mod sfen;
mod svg;
pub mod uci;
mod usi;

#[cfg(feature = "serde")]
pub mod serde_support;

pub use diagram::{diagram, game_diagram, DiagramStyle};
pub use eval_graph::{
    eval_graph_svg, graph_x, graph_y, EvalGraph, GraphMark, GraphMarkKind, GRAPH_HEIGHT,
    GRAPH_WIDTH, MARK_RADIUS, PLOT_BOTTOM, PLOT_LEFT, PLOT_RIGHT, PLOT_TOP,
};
pub use illegal::{describe_illegal, Wording};
pub use position_arg::{lishogi_url, parse_game, LishogiUrl, PositionArgError, UrlError};
pub use sfen::{
    board_shape, parse_sfen, to_sfen, to_sfen_in, Dialect, SfenError, SfenErrorKind, UnknownDialect,
};
pub use svg::{svg, RankLabels, SvgStyle};
pub use usi::{move_to_usi, move_to_usi_in, parse_usi, UsiError};
