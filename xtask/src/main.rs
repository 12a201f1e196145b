//! # xtask
//!
//! Development automation for the kshogi workspace, run through the cargo alias in
//! `.cargo/config.toml` as `cargo xtask <TASK>`. It follows the
//! [cargo-xtask](https://github.com/matklad/cargo-xtask) convention: the automation is plain
//! Rust in the workspace, with no tool to install beyond the toolchain.
//!
//! Tasks:
//!
//! - `cargo xtask ci` is the project's whole test command: CI runs it (through `.ci/run`)
//!   and so should a developer before asking for a merge. It runs the [`ci::CI_STEPS`] in
//!   order and stops at the first one that fails.
//! - `cargo xtask tidy` checks the workspace's layering rules on the manifests (read with
//!   `cargo metadata`) and on the sources read as text: rules crates depend on core only,
//!   notation and the engine neither depend on nor name a variant, only the registry
//!   matches on the variant list, every crate root says what the crate must not do, and
//!   `docs/ARCHITECTURE.md` mentions every package ([`tidy`], "Tidy" in that document).
//!   Each violation is printed as `path:line: rule: message`.
//! - `cargo xtask perft` runs the perft suite (`perft/suite.tsv`) against the release
//!   `kshogi` binary: a table, a JSON report, speed comparison with a baseline report
//!   ([`perft`], `docs/perft.md`).
//! - `cargo xtask release <VERSION>` sets the version, dates the changelog and writes the
//!   release archive with its checksum ([`release`]).
//! - `cargo xtask match` plays the engine against a random mover and a one-ply greedy
//!   player in each variant through the hidden `kshogi selfplay` ([`selfplay`]).
//! - `cargo xtask tune --variant V` runs the evaluation tuner, the `kshogi-tune` binary,
//!   in release mode ([`tune`], `docs/tuning.md`).
//! - `cargo xtask nnue pipeline --variant V` makes a variant's NNUE net in one resumable
//!   run, the `kshogi-nnue` binary in release mode ([`nnue`], `docs/nnue.md`).
//!   `cargo xtask nnue replay --variant V` makes a registered net again from nothing,
//!   generation by generation with the builds that made them, and checks it byte for byte
//!   ([`replay`]).
//! - `cargo xtask slurm` installs Slurm and MUNGE, starts a one-node cluster and runs a perft
//!   split into work units and a sharded match as job arrays, checking their merges
//!   ([`slurm`], `docs/scale.md`).
//! - `cargo xtask bench` runs `kshogi bench` and fails unless each variant's node count, the
//!   search's signature, equals its line in `xtask/bench-signature.txt` ([`bench`](mod@bench)).
//!
//! This crate is a tool, not a library: it is never published, no crate may depend on it,
//! and it depends on no workspace crate (it drives the `kshogi`, `kshogi-tune` and
//! `kshogi-nnue` binaries as subprocesses, and the tidy reads `cargo metadata` and the sources as text). Its
//! dependencies are tool dependencies: `serde`/`serde_json` for the perft reports and
//! `cargo metadata`, `toml_edit` to edit manifests without losing their formatting, and
//! `tar`, `flate2` and `sha2` for the release archive and its checksum.

mod bench;
mod ci;
mod import_graph;
mod nnue;
mod perft;
mod release;
mod replay;
mod selfplay;
mod slurm;
mod tidy;
mod tune;
mod util;

use bench::BenchOptions;
use nnue::NnueOptions;
use perft::PerftOptions;
use release::ReleaseOptions;
use selfplay::MatchOptions;
use std::ffi::OsString;
use std::fmt;
use std::process::ExitCode;
use tune::TuneOptions;

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
enum Task {
    /// Run every CI step.
    Ci,
    /// Check the layering rules.
    Tidy,
    /// Run the perft suite.
    Perft(PerftOptions),
    /// Make a release.
    Release(ReleaseOptions),
    /// Engine self-play matches.
    Match(MatchOptions),
    /// The evaluation tuner.
    Tune(TuneOptions),
    /// The NNUE net's program.
    Nnue(NnueOptions),
    /// The search's bench signature.
    Bench(BenchOptions),
    /// Work units on a one-node Slurm cluster.
    Slurm,
}

impl Task {
    /// The name on the command line.
    fn name(&self) -> &'static str {
        match self {
            Task::Ci => "ci",
            Task::Tidy => "tidy",
            Task::Perft(_) => "perft",
            Task::Release(_) => "release",
            Task::Match(_) => "match",
            Task::Tune(_) => "tune",
            Task::Nnue(_) => "nnue",
            Task::Bench(_) => "bench",
            Task::Slurm => "slurm",
        }
    }
}

/// Why the command line does not name a task to run.
#[derive(Debug, Clone, PartialEq, Eq)]
enum UsageError {
    /// `help`, `-h` or `--help`.
    HelpRequested,
    /// No task given.
    NoTask,
    /// A task name that does not exist.
    UnknownTask(String),
    /// An argument that is not UTF-8.
    NotUnicode(String),
    /// A task's own arguments are wrong.
    BadArguments(String),
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsageError::HelpRequested => Ok(()),
            UsageError::NoTask => write!(f, "no task given"),
            UsageError::UnknownTask(t) => write!(f, "unknown task `{t}`"),
            UsageError::NotUnicode(a) => write!(f, "argument `{a}` is not valid UTF-8"),
            UsageError::BadArguments(message) => f.write_str(message),
        }
    }
}

/// Reads the arguments after the program name.
fn parse_args<I, S>(args: I) -> Result<Task, UsageError>
where
    I: IntoIterator<Item = S>,
    S: Into<OsString>,
{
    let args: Vec<String> = args
        .into_iter()
        .map(|a| {
            let a: OsString = a.into();
            a.into_string()
                .map_err(|bad| UsageError::NotUnicode(bad.to_string_lossy().into_owned()))
        })
        .collect::<Result<_, _>>()?;
    let Some((first, rest)) = args.split_first() else {
        return Err(UsageError::NoTask);
    };
    if rest.iter().any(|a| a == "-h" || a == "--help") {
        return Err(UsageError::HelpRequested);
    }
    match first.as_str() {
        "ci" => match rest.first() {
            None => Ok(Task::Ci),
            Some(extra) => Err(UsageError::BadArguments(format!(
                "unexpected argument `{extra}` for `ci`"
            ))),
        },
        "tidy" => match rest.first() {
            None => Ok(Task::Tidy),
            Some(extra) => Err(UsageError::BadArguments(format!(
                "unexpected argument `{extra}` for `tidy`"
            ))),
        },
        "perft" => PerftOptions::parse(rest)
            .map(Task::Perft)
            .map_err(UsageError::BadArguments),
        "release" => ReleaseOptions::parse(rest)
            .map(Task::Release)
            .map_err(UsageError::BadArguments),
        "match" => MatchOptions::parse(rest)
            .map(Task::Match)
            .map_err(UsageError::BadArguments),
        "tune" => TuneOptions::parse(rest)
            .map(Task::Tune)
            .map_err(UsageError::BadArguments),
        "nnue" => NnueOptions::parse(rest)
            .map(Task::Nnue)
            .map_err(UsageError::BadArguments),
        "bench" => BenchOptions::parse(rest)
            .map(Task::Bench)
            .map_err(UsageError::BadArguments),
        "slurm" => match rest.first() {
            None => Ok(Task::Slurm),
            Some(extra) => Err(UsageError::BadArguments(format!(
                "unexpected argument `{extra}` for `slurm`"
            ))),
        },
        "help" | "-h" | "--help" => Err(UsageError::HelpRequested),
        other => Err(UsageError::UnknownTask(other.to_string())),
    }
}

/// The usage text, listing each task, its options and the CI steps.
fn usage() -> String {
    let mut text = String::from(
        "Usage: cargo xtask <TASK> [OPTIONS]\n\
         \n\
         Tasks:\n\
         \x20 ci                 run every check CI runs, in order, stopping at the first failure:\n",
    );
    for (i, step) in ci::CI_STEPS.iter().enumerate() {
        text.push_str(&format!(
            "                       {}. {:<7} {}\n",
            i + 1,
            step.name,
            step.command_line()
        ));
    }
    text.push_str(tidy::USAGE);
    text.push_str(perft::USAGE);
    text.push_str(release::USAGE);
    text.push_str(selfplay::USAGE);
    text.push_str(tune::USAGE);
    text.push_str(nnue::USAGE);
    text.push_str(replay::USAGE);
    text.push_str(bench::USAGE);
    text.push_str(slurm::USAGE);
    text.push_str("  help               print this text\n");
    text
}

/// Runs a task from the workspace root. `Err` is the failure message.
fn run(task: &Task) -> Result<(), String> {
    let root = util::workspace_root();
    match task {
        Task::Ci => {
            announce_ci_profile();
            ci_steps(&root)
        }
        Task::Tidy => tidy::run(&root),
        Task::Perft(opts) => perft::run(opts, &root),
        Task::Release(opts) => release::run(opts, &root),
        Task::Match(opts) => selfplay::run(opts, &root),
        Task::Tune(opts) => tune::run(opts, &root),
        Task::Nnue(opts) => nnue::run(opts, &root),
        Task::Bench(opts) => bench::run(opts, &root),
        Task::Slurm => {
            announce_ci_profile();
            slurm::run_task(&root)
        }
    }
}

/// Sets CI's build profile ([`ci::CI_BUILD_ENV`]) and says so.
fn announce_ci_profile() {
    let set = ci::use_ci_build_profile();
    if !set.is_empty() {
        println!(
            "==> release builds use CI's profile: {} (see docs/testing.md)",
            ci::CI_BUILD_ENV
                .iter()
                .filter(|(k, _)| set.contains(k))
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
}

/// The steps of `cargo xtask ci`.
fn ci_steps(root: &std::path::Path) -> Result<(), String> {
    ci::run_steps("ci", ci::CI_STEPS, |step| match step.action {
        ci::Action::Cargo { args, env } => ci::run_cargo(args, env, root),
        ci::Action::Xtask { args } => {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            match parse_args(&args) {
                Ok(inner) => run(&inner),
                Err(e) => Err(format!("bad step: {e}")),
            }
        }
    })
    .map_err(|failure| failure.to_string())
}

fn main() -> ExitCode {
    let task = match parse_args(std::env::args_os().skip(1)) {
        Ok(task) => task,
        Err(UsageError::HelpRequested) => {
            print!("{}", usage());
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("xtask: error: {e}\n");
            eprint!("{}", usage());
            return ExitCode::from(2);
        }
    };
    match run(&task) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!();
            eprintln!("xtask {}: FAILED: {message}", task.name());
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_each_task() {
        assert_eq!(parse_args(["ci"]), Ok(Task::Ci));
        assert_eq!(parse_args(["tidy"]), Ok(Task::Tidy));
        assert_eq!(parse_args(["slurm"]), Ok(Task::Slurm));
        assert_eq!(
            parse_args(["perft"]),
            Ok(Task::Perft(PerftOptions::default()))
        );
        let Ok(Task::Perft(opts)) = parse_args(["perft", "--tier", "full", "--threads", "2"])
        else {
            panic!("perft options")
        };
        assert_eq!((opts.tier, opts.threads), (perft::Tier::Full, 2));
        assert_eq!(
            parse_args(["release", "0.2.0", "--dry-run"]),
            Ok(Task::Release(ReleaseOptions {
                version: "0.2.0".into(),
                dry_run: true,
                allow_dirty: false,
            }))
        );
    }

    #[test]
    fn help_and_bad_input_are_usage_errors() {
        for help in ["help", "-h", "--help"] {
            assert_eq!(parse_args([help]), Err(UsageError::HelpRequested));
        }
        assert_eq!(
            parse_args(["perft", "--help"]),
            Err(UsageError::HelpRequested)
        );
        assert_eq!(parse_args(Vec::<String>::new()), Err(UsageError::NoTask));
        assert_eq!(
            parse_args(["lint"]),
            Err(UsageError::UnknownTask("lint".into()))
        );
        assert_eq!(
            parse_args(["ci", "--fast"]),
            Err(UsageError::BadArguments(
                "unexpected argument `--fast` for `ci`".into()
            ))
        );
        assert_eq!(
            parse_args(["tidy", "--fix"]),
            Err(UsageError::BadArguments(
                "unexpected argument `--fix` for `tidy`".into()
            ))
        );
        assert_eq!(
            parse_args(["tidy", "--help"]),
            Err(UsageError::HelpRequested)
        );
        assert_eq!(
            parse_args(["perft", "--tier", "slow"]),
            Err(UsageError::BadArguments(
                "`--tier` is `quick`, `full` or `deep`, not `slow`".into()
            ))
        );
        assert_eq!(
            parse_args(["release"]),
            Err(UsageError::BadArguments(
                "`release` needs a VERSION such as 0.2.0".into()
            ))
        );
    }

    #[test]
    fn usage_lists_every_task_and_step() {
        let text = usage();
        assert!(text.starts_with("Usage: cargo xtask <TASK>"));
        for step in ci::CI_STEPS {
            assert!(text.contains(&step.command_line()), "{text}");
        }
        for word in [
            "tidy ",
            "path:line: rule: message",
            "perft [OPTIONS]",
            "--baseline FILE",
            "release <VERSION>",
            "--dry-run",
            "tune --variant V",
            "nnue pipeline --variant V",
            "bench ",
            "--update",
        ] {
            assert!(text.contains(word), "{word}: {text}");
        }
    }

    #[test]
    fn the_ci_perft_step_is_a_valid_task() {
        for step in ci::CI_STEPS {
            if let ci::Action::Xtask { args } = step.action {
                assert!(parse_args(args.iter().copied()).is_ok(), "{args:?}");
            }
        }
    }
}
