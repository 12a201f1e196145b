//! `cargo xtask nnue`: the NNUE net's program, `kshogi-nnue` (crates/tune, docs/nnue.md),
//! built in release mode and run with the given arguments: `cargo xtask nnue pipeline
//! --variant V --seed S ...` makes a net in one resumable run, and `train`, `match` and
//! `speed` are there too. `cargo xtask nnue replay --variant V` makes a registered net
//! again from nothing and checks it byte for byte ([`crate::replay`]).
//!
//! Every argument is passed through; the program checks them (a bad one prints its usage).
//! A relative `--out` or `--dir` is relative to the directory `cargo
//! xtask` was started in.

use crate::replay::{self, ReplayOptions};
use crate::tune;
use std::path::Path;

/// The usage lines of this task.
pub const USAGE: &str = "  nnue pipeline --variant V --seed S [--dir DIR] [OPTIONS]
                     the NNUE net's pipeline (kshogi-nnue, docs/nnue.md): self-play
                     data in chunks, the training, a fixed-node SPRT of the net against
                     the registered evaluation, the net file written if accepted; resumes
                     from DIR (default target/nnue/<variant>-<seed>); options are
                     kshogi-nnue's: --games N --nodes N --chunk N --threads N --teacher NET
                     --epochs N --hidden N --lambda L --data-from DIR2 --sprt-pairs N
                     --no-sprt --out FILE
  nnue train|match|speed ...
                     kshogi-nnue's other commands, run in release mode
";

/// Options of `cargo xtask nnue`: the program's arguments, unread, or a replay's.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NnueOptions {
    /// Passed to `kshogi-nnue` as they are.
    pub args: Vec<String>,
    /// `nnue replay ...`, which xtask runs itself.
    pub replay: Option<ReplayOptions>,
}

impl NnueOptions {
    /// Takes the arguments after `nnue`; the program checks them.
    pub fn parse(args: &[String]) -> Result<NnueOptions, String> {
        if args.is_empty() {
            return Err(
                "`nnue` needs a command: pipeline, train, match, speed or replay (see `cargo xtask nnue --help`)"
                    .into(),
            );
        }
        let replay = match args[0].as_str() {
            "replay" => Some(ReplayOptions::parse(&args[1..])?),
            _ => None,
        };
        Ok(NnueOptions {
            args: args.to_vec(),
            replay,
        })
    }
}

/// Builds and runs `kshogi-nnue` (from the current directory, so a relative `--out` means
/// what the user meant).
pub fn run(opts: &NnueOptions, root: &Path) -> Result<(), String> {
    if let Some(replay) = &opts.replay {
        return replay::run(replay, root);
    }
    tune::run_bin(root, "kshogi-nnue", &opts.args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_the_arguments_through() {
        assert!(NnueOptions::parse(&[]).is_err());
        let o =
            NnueOptions::parse(&["pipeline".into(), "--variant".into(), "micro".into()]).unwrap();
        let args = tune::bin_args(Path::new("/ws"), "kshogi-nnue", &o.args);
        assert_eq!(&args[..2], ["run", "--release"]);
        assert!(args.contains(&"/ws/Cargo.toml".to_string()));
        let bin = args.iter().position(|a| a == "--bin").unwrap();
        assert_eq!(args[bin + 1], "kshogi-nnue");
        assert_eq!(
            &args[args.len() - 4..],
            ["--", "pipeline", "--variant", "micro"]
        );
    }
}
