//! # kshogi-usi
//!
//! The USI protocol loop of `kshogi usi`, on any reader and writer, for every registered
//! variant: the commands and options that GUIs, lishogi-style analysis clients and match
//! runners send (`USI_Variant`, `USI_MultiPV`, `Dialect`, `go perft`, pondering, ...), and a
//! UCI mode (`uci`, `position fen`, chess-style coordinates) for pychess-style clients.
//! The protocol is described in `docs/analysis.md`.
//!
//! [`serve_config`] reads commands from a [`BufRead`](std::io::BufRead) until `quit` or end
//! of input and writes the answers to an [`Out`], a shared writer; [`serve`] and
//! [`serve_with`] are the same without databases. [`SearchMode::Bounded`] runs every `go`
//! on the reading thread within a [`Budget`], so that a session costs little and its
//! answers depend only on its input; the fuzz target `usi_protocol` runs the loop so. The
//! command line's `kshogi usi` runs [`serve_stdio`]. [`engine_text`] holds the helpers that
//! turn engine results into text, which the command line shares.
//!
//! This crate is a front end: it reads and writes the protocol through the types of
//! `kshogi-usi-protocol` (which alone parses and prints USI text) and leaves every decision of
//! analysis (what to search, the database, which lines to print, which move to play) to
//! `kshogi-analysis`, positions and moves to the rules and `kshogi-notation`, and the list
//! of variants to `kshogi-registry`. It must not depend on the command line, and it
//! contains no rules, notation or search logic of its own.

pub mod engine_text;
mod options;
mod session;
mod time_manager;
mod writing;

pub use kshogi_analysis::Databases;
pub use kshogi_registry::VariantKind;
pub use kshogi_usi_protocol::{MAX_DEPTH, MAX_LINE};
pub use options::{
    DEFAULT_ELO, DEFAULT_HASH_MB, MAX_ELO, MAX_HASH_MB, MAX_MULTIPV, MAX_SKILL, MAX_THREADS,
    MIN_ELO, MIN_SKILL,
};
pub use session::{
    serve, serve_config, serve_stdio, serve_variant, serve_variant_stdio, serve_with, usi_help,
    Budget, Config, Out, SearchMode, VariantConfig, MATE_NODES,
};
