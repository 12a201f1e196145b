//! `pocket`: kshogi's commands (`perft`, `moves`, `show`, `convert`, `analyze`, `review`,
//! `usi`, `match`) for Pocket Shogi alone.

use std::process::ExitCode;

fn main() -> ExitCode {
    kshogi_cli::run_single::<pocket_shogi::Pocket>("pocket", std::env::args_os().skip(1))
}
