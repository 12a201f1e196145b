//! # kshogi-cli (library part)
//!
//! The package `kshogi-cli` builds the `kshogi` command line (`src/main.rs`). This library
//! holds the part of it that is worth running in-process: the USI protocol loop of
//! `kshogi usi` ([`usi`]), so that tests and the `usi_protocol` fuzz target (`fuzz/`) can
//! feed it any bytes and read what it answers, with a bounded, deterministic search
//! ([`usi::SearchMode::Bounded`]). The binary runs the very same loop on standard input and
//! output ([`usi::serve_stdio`]). [`engine_text`] holds the helpers the loop shares with the
//! binary's `analyze` and `selfplay` commands.
//!
//! This crate is the top layer of the workspace: it may use every library crate below it
//! (core, the rules crates, notation, the engine), and no workspace crate may depend on it
//! (only the fuzz crate, which stands outside the workspace, and this package's own binary
//! and tests do). It must not depend on `xtask` or `kshogi-rules-tests`, and it contains no
//! rules, notation or search logic of its own: positions, moves, SFEN/USI text and searches
//! come from the crates below. Only the USI loop is a library; everything else of the command line
//! (argument parsing, the other subcommands, exit codes) stays in the binary. Apart from
//! [`usi`], nothing here is a stable API.

pub mod engine_text;
mod time_manager;
mod usi_cmd;
mod usi_parse;

pub mod usi {
    //! The USI protocol loop of `kshogi usi`, on any reader and writer.
    //!
    //! [`serve`] (threaded searches, as the binary runs them) and [`serve_with`] read USI
    //! commands from a [`BufRead`](std::io::BufRead) until `quit` or end of input and write
    //! the answers to an [`Out`], a shared writer. [`SearchMode::Bounded`] runs every `go`
    //! on the reading thread within a [`Budget`], so that a session costs little and its
    //! answers depend only on its input; the fuzz target `usi_protocol` runs the loop so.
    //! The protocol itself (commands, options, errors) is described in
    //! `docs/analysis.md`.

    pub use crate::usi_cmd::{
        serve, serve_stdio, serve_with, Budget, Out, SearchMode, DEFAULT_HASH_MB, MAX_HASH_MB,
        MAX_MULTIPV, USI_HELP,
    };
    pub use crate::usi_parse::{MAX_DEPTH, MAX_LINE};
    pub use kshogi_registry::VariantKind;
}
