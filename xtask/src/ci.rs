//! `cargo xtask ci`: every check CI runs, in order, stopping at the first failure.

use crate::util::{cargo, describe_status, seconds};
use std::fmt;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// What a step runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// `cargo ARGS`, with extra environment variables.
    Cargo {
        /// Arguments to `cargo`.
        args: &'static [&'static str],
        /// Environment variables set for this step only.
        env: &'static [(&'static str, &'static str)],
    },
    /// Another xtask task, run in this process: `cargo xtask ARGS`.
    Xtask {
        /// The task's arguments (`perft --tier full`).
        args: &'static [&'static str],
    },
}

/// One step of a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// Short name, used in headers and in the failure message.
    pub name: &'static str,
    /// What it runs.
    pub action: Action,
}

impl Step {
    /// The step as a shell-like command line, for headers and messages.
    pub fn command_line(&self) -> String {
        let mut line = String::new();
        let args = match self.action {
            Action::Cargo { args, env } => {
                for (key, value) in env {
                    line.push_str(&format!("{key}=\"{value}\" "));
                }
                line.push_str("cargo");
                args
            }
            Action::Xtask { args } => {
                line.push_str("cargo xtask");
                args
            }
        };
        for arg in args {
            line.push(' ');
            line.push_str(arg);
        }
        line
    }
}

/// The manifest of the example variant crate outside the workspace.
pub const EXAMPLE_MANIFEST: &str = "examples/out-of-tree-variant/Cargo.toml";

/// The steps of `cargo xtask ci`, in the order they run. To add a step, add an entry here.
///
/// The perft step runs the full tier: on the 2-core reference machine the whole suite takes
/// about a second of counting once `kshogi` is built (see `docs/perft.md`), far inside CI's
/// time limit.
pub const CI_STEPS: &[Step] = &[
    Step {
        name: "fmt",
        action: Action::Cargo {
            args: &["fmt", "--all", "--", "--check"],
            env: &[],
        },
    },
    Step {
        // Layering rules on manifests and sources: quick, and before the long builds.
        name: "tidy",
        action: Action::Xtask { args: &["tidy"] },
    },
    Step {
        // The release dry run: every crate that may be published is packaged, in dependency
        // order, against the packages of the crates before it, as crates.io would take them
        // (a dependency cycle or an unpublished dependency fails here). Without the build
        // that verifies each package: that is a second full build of the workspace (11
        // minutes on the loaded 2-core reference machine, against seconds for this step);
        // tidy checks the manifests' fields and dependencies.
        name: "package",
        action: Action::Cargo {
            args: &["publish", "--workspace", "--dry-run", "--no-verify"],
            env: &[],
        },
    },
    Step {
        name: "clippy",
        action: Action::Cargo {
            args: &[
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ],
            env: &[],
        },
    },
    Step {
        // Deep perft tests and the slow xtask tests are `#[ignore]`d for quick local runs;
        // CI runs them, in release.
        name: "test",
        action: Action::Cargo {
            args: &[
                "test",
                "--workspace",
                "--release",
                "--",
                "--include-ignored",
            ],
            env: &[],
        },
    },
    Step {
        // The variant outside the workspace (docs/adding-a-variant.md): its own crate and
        // lock file, built against the crates of this tree as an outside crate is, its
        // tests run. It shares the workspace's target directory, and with CI's profile its
        // dependencies are the ones the test step built.
        name: "example",
        action: Action::Cargo {
            args: &[
                "test",
                "--manifest-path",
                EXAMPLE_MANIFEST,
                "--target-dir",
                "target",
                "--locked",
                "--release",
                "--",
                "--include-ignored",
            ],
            env: &[],
        },
    },
    Step {
        name: "perft",
        action: Action::Xtask {
            args: &["perft", "--tier", "full"],
        },
    },
    Step {
        // The search's signature: any change of its behaviour must be recorded on purpose.
        name: "bench",
        action: Action::Xtask { args: &["bench"] },
    },
    Step {
        name: "doc",
        action: Action::Cargo {
            args: &["doc", "--workspace", "--no-deps"],
            env: &[("RUSTDOCFLAGS", "-D warnings")],
        },
    },
];

/// The release profile of CI's builds, set through Cargo's environment overrides by
/// `cargo xtask ci` and `cargo xtask slurm` (unless the caller sets them): the same
/// optimisation level as the shipped profile, but without link-time optimisation and with
/// 16 code generation units, so that the many test binaries and the `kshogi` binary build
/// in parallel and link quickly on the 2-core CI machine. Search results do not depend on
/// it (the bench signature is the same); only speed does, and CI measures no speed. The
/// shipped binaries (`cargo xtask release`, `cargo build --release`) keep the workspace's
/// profile.
pub const CI_BUILD_ENV: &[(&str, &str)] = &[
    ("CARGO_PROFILE_RELEASE_LTO", "false"),
    ("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16"),
];

/// Sets [`CI_BUILD_ENV`] in this process's environment, for every cargo it starts, except
/// the variables the caller has set already. Returns the ones it set.
pub fn use_ci_build_profile() -> Vec<&'static str> {
    let mut set = Vec::new();
    for &(key, value) in CI_BUILD_ENV {
        if std::env::var_os(key).is_none() {
            std::env::set_var(key, value);
            set.push(key);
        }
    }
    set
}

/// A step that did not succeed.
#[derive(Debug)]
pub struct StepFailure {
    /// Position of the step in its task, from 1.
    pub number: usize,
    /// Number of steps in the task.
    pub total: usize,
    /// The step.
    pub step: Step,
    /// What went wrong: an exit status, a spawn error, or the xtask task's failure.
    pub reason: String,
}

impl fmt::Display for StepFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "step {}/{} `{}` failed ({}): {}",
            self.number,
            self.total,
            self.step.name,
            self.reason,
            self.step.command_line()
        )
    }
}

/// Runs a cargo step from `root`, its output going straight to the terminal. `Err` says
/// why it failed.
pub fn run_cargo(args: &[&str], env: &[(&str, &str)], root: &Path) -> Result<(), String> {
    let mut command = Command::new(cargo());
    command.args(args).current_dir(root);
    for (key, value) in env {
        command.env(key, value);
    }
    match command.status() {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(describe_status(status)),
        Err(e) => Err(format!("could not start cargo: {e}")),
    }
}

/// Runs `steps` in order with `exec`, each under a header, stopping at the first failure.
pub fn run_steps(
    task: &str,
    steps: &[Step],
    mut exec: impl FnMut(&Step) -> Result<(), String>,
) -> Result<(), StepFailure> {
    let total = steps.len();
    let started = Instant::now();
    for (i, step) in steps.iter().enumerate() {
        let number = i + 1;
        println!();
        println!("==> xtask {task}: step {number}/{total} `{}`", step.name);
        println!("==> {}", step.command_line());
        let step_started = Instant::now();
        if let Err(reason) = exec(step) {
            return Err(StepFailure {
                number,
                total,
                step: *step,
                reason,
            });
        }
        println!(
            "==> step `{}` passed in {}",
            step.name,
            seconds(step_started.elapsed())
        );
    }
    println!();
    println!(
        "==> xtask {task}: all {total} steps passed in {}",
        seconds(started.elapsed())
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ci_steps_run_in_the_documented_order() {
        let names: Vec<_> = CI_STEPS.iter().map(|s| s.name).collect();
        assert_eq!(
            names,
            ["fmt", "tidy", "package", "clippy", "test", "example", "perft", "bench", "doc"]
        );
        let lines: Vec<_> = CI_STEPS.iter().map(Step::command_line).collect();
        assert_eq!(
            lines,
            [
                "cargo fmt --all -- --check",
                "cargo xtask tidy",
                "cargo publish --workspace --dry-run --no-verify",
                "cargo clippy --workspace --all-targets -- -D warnings",
                "cargo test --workspace --release -- --include-ignored",
                "cargo test --manifest-path examples/out-of-tree-variant/Cargo.toml \
                 --target-dir target --locked --release -- --include-ignored",
                "cargo xtask perft --tier full",
                "cargo xtask bench",
                "RUSTDOCFLAGS=\"-D warnings\" cargo doc --workspace --no-deps",
            ]
        );
    }

    #[test]
    fn step_names_are_unique() {
        for (i, a) in CI_STEPS.iter().enumerate() {
            for b in &CI_STEPS[i + 1..] {
                assert_ne!(a.name, b.name);
            }
        }
    }

    #[test]
    fn failure_message_names_the_step() {
        let failure = StepFailure {
            number: 4,
            total: 9,
            step: CI_STEPS[3],
            reason: "exit code 101".into(),
        };
        assert_eq!(
            failure.to_string(),
            "step 4/9 `clippy` failed (exit code 101): \
             cargo clippy --workspace --all-targets -- -D warnings"
        );
    }

    #[test]
    fn run_steps_runs_in_order_and_stops_at_the_first_failure() {
        let mut ran = Vec::new();
        let failure = run_steps("ci", CI_STEPS, |step| {
            ran.push(step.name);
            if step.name == "clippy" {
                Err("exit code 101".into())
            } else {
                Ok(())
            }
        })
        .unwrap_err();
        assert_eq!(ran, ["fmt", "tidy", "package", "clippy"]);
        assert_eq!((failure.number, failure.total), (4, 9));
        assert_eq!(failure.step.name, "clippy");
        assert_eq!(failure.reason, "exit code 101");

        let mut ran = Vec::new();
        let all = run_steps("ci", CI_STEPS, |step| {
            ran.push(step.name);
            Ok(())
        });
        assert!(all.is_ok());
        assert_eq!(
            ran,
            ["fmt", "tidy", "package", "clippy", "test", "example", "perft", "bench", "doc"]
        );
    }
}
