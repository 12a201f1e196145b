//! `cargo xtask tune`: the evaluation tuner's pipeline, `kshogi-tune` (crates/tune), built
//! in release mode and run with the given options.
//!
//! The tuner plays the engine in process, so it is its own binary rather than part of
//! xtask, which depends on no workspace crate. Every option is passed through; the tuner
//! checks them (`cargo xtask tune --help` shows its usage). A relative `--out` is relative
//! to the directory `cargo xtask` was started in.

use crate::util;
use std::path::Path;
use std::process::{Command, Stdio};

/// The usage lines of this task.
pub const USAGE: &str = "  tune --variant V --seed S [--dir DIR] [OPTIONS]
                     the tuning pipeline (kshogi-tune, docs/tuning.md): self-play data,
                     the fit, a fixed-node SPRT against the current weights, the weights
                     file written if accepted; resumes from DIR (default
                     target/tune/<variant>-<seed>); options are the tuner's: --games N
                     --nodes N --chunk N --threads N --sprt-pairs N --no-sprt --out FILE
  tune spsa --variant V --params P,P [OPTIONS]
                     SPSA tuning of the search's numeric parameters (kshogi-tune spsa,
                     docs/tuning.md); resumes from --state FILE
  tune switches --variant V [--from registered|default] [OPTIONS]
                     the search's switches chosen by SPRT, one at a time (kshogi-tune
                     switches, docs/tuning.md); resumes from --state FILE
";

/// Options of `cargo xtask tune`: the tuner's arguments, unread.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TuneOptions {
    /// Passed to `kshogi-tune` as they are.
    pub args: Vec<String>,
}

impl TuneOptions {
    /// Takes the arguments after `tune`; the tuner checks them.
    pub fn parse(args: &[String]) -> Result<TuneOptions, String> {
        if args.is_empty() {
            return Err("`tune` needs `--variant V` (see `cargo xtask tune --help`)".into());
        }
        Ok(TuneOptions {
            args: args.to_vec(),
        })
    }
}

/// The cargo arguments that build binary `bin` of kshogi-tune in release mode and run it
/// with `args`.
pub fn bin_args(root: &Path, bin: &str, args: &[String]) -> Vec<String> {
    let mut out: Vec<String> = [
        "run",
        "--release",
        "--quiet",
        "--manifest-path",
        &root.join("Cargo.toml").to_string_lossy(),
        "-p",
        "kshogi-tune",
        "--bin",
        bin,
        "--",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    out.extend(args.iter().cloned());
    out
}

/// Builds and runs the tuner (from the current directory, so a relative `--out` means what
/// the user meant).
pub fn run(opts: &TuneOptions, root: &Path) -> Result<(), String> {
    run_bin(root, "kshogi-tune", &opts.args)
}

/// Builds binary `bin` of kshogi-tune in release mode and runs it with `args` from the
/// current directory.
pub fn run_bin(root: &Path, bin: &str, args: &[String]) -> Result<(), String> {
    eprintln!(
        "==> cargo run --release -p kshogi-tune --bin {bin} -- {}",
        args.join(" ")
    );
    let status = Command::new(util::cargo())
        .args(bin_args(root, bin, args))
        .stdin(Stdio::null())
        .status()
        .map_err(|e| format!("could not start cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{bin} failed ({})", util::describe_status(status)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_the_options_through() {
        assert!(TuneOptions::parse(&[]).is_err());
        let o = TuneOptions::parse(&["--variant".into(), "kyoto".into()]).unwrap();
        let args = bin_args(Path::new("/ws"), "kshogi-tune", &o.args);
        assert_eq!(&args[..2], ["run", "--release"]);
        assert!(args.contains(&"/ws/Cargo.toml".to_string()));
        assert_eq!(&args[args.len() - 3..], ["--", "--variant", "kyoto"]);
    }
}
