//! # xtask
//!
//! Development automation for the kshogi workspace, run through the cargo alias in
//! `.cargo/config.toml` as `cargo xtask <TASK>`. It follows the
//! [cargo-xtask](https://github.com/matklad/cargo-xtask) convention: the automation is plain
//! Rust in the workspace, with no tool to install beyond the toolchain.
//!
//! `cargo xtask ci` is the project's whole test command: CI runs it (through `.ci/run`) and
//! so should a developer before asking for a merge. It runs the [`CI_STEPS`] in order and
//! stops at the first one that fails.
//!
//! This crate is a tool, not a library: it uses only `std`, is never published, and no crate
//! may depend on it.

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

/// One step of a task: a cargo command with its arguments and extra environment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Step {
    /// Short name, used in headers and in the failure message.
    name: &'static str,
    /// Arguments to `cargo`.
    args: &'static [&'static str],
    /// Environment variables set for this step only.
    env: &'static [(&'static str, &'static str)],
}

impl Step {
    /// The step as a shell-like command line, for headers and messages.
    fn command_line(&self) -> String {
        let mut line = String::new();
        for (key, value) in self.env {
            line.push_str(&format!("{key}=\"{value}\" "));
        }
        line.push_str("cargo");
        for arg in self.args {
            line.push(' ');
            line.push_str(arg);
        }
        line
    }
}

/// The steps of `cargo xtask ci`, in the order they run. To add a step, add an entry here.
const CI_STEPS: &[Step] = &[
    Step {
        name: "fmt",
        args: &["fmt", "--all", "--", "--check"],
        env: &[],
    },
    Step {
        name: "clippy",
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
    Step {
        // Deep perft tests are `#[ignore]`d for quick local runs; CI runs them, in release.
        name: "test",
        args: &[
            "test",
            "--workspace",
            "--release",
            "--",
            "--include-ignored",
        ],
        env: &[],
    },
    Step {
        name: "doc",
        args: &["doc", "--workspace", "--no-deps"],
        env: &[("RUSTDOCFLAGS", "-D warnings")],
    },
];

/// What the command line asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Task {
    /// Run every CI step.
    Ci,
}

impl Task {
    /// The steps the task runs, in order.
    fn steps(self) -> &'static [Step] {
        match self {
            Task::Ci => CI_STEPS,
        }
    }

    /// The name on the command line.
    fn name(self) -> &'static str {
        match self {
            Task::Ci => "ci",
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
    /// An argument after the task, which takes none.
    UnexpectedArgument(String),
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsageError::HelpRequested => Ok(()),
            UsageError::NoTask => write!(f, "no task given"),
            UsageError::UnknownTask(t) => write!(f, "unknown task `{t}`"),
            UsageError::UnexpectedArgument(a) => write!(f, "unexpected argument `{a}`"),
        }
    }
}

/// Reads the arguments after the program name.
fn parse_args<I, S>(args: I) -> Result<Task, UsageError>
where
    I: IntoIterator<Item = S>,
    S: Into<OsString>,
{
    let mut args = args.into_iter().map(Into::into);
    let Some(first) = args.next() else {
        return Err(UsageError::NoTask);
    };
    let task = match first.to_str() {
        Some("ci") => Task::Ci,
        Some("help" | "-h" | "--help") => return Err(UsageError::HelpRequested),
        _ => {
            return Err(UsageError::UnknownTask(
                first.to_string_lossy().into_owned(),
            ))
        }
    };
    if let Some(extra) = args.next() {
        return Err(UsageError::UnexpectedArgument(
            extra.to_string_lossy().into_owned(),
        ));
    }
    Ok(task)
}

/// The usage text, listing each task and its steps.
fn usage() -> String {
    let mut text = String::from(
        "Usage: cargo xtask <TASK>\n\
         \n\
         Tasks:\n\
         \x20 ci      run every check CI runs, in order, stopping at the first failure:\n",
    );
    for (i, step) in CI_STEPS.iter().enumerate() {
        text.push_str(&format!(
            "            {}. {:<7} {}\n",
            i + 1,
            step.name,
            step.command_line()
        ));
    }
    text.push_str("  help    print this text\n");
    text
}

/// A step that did not succeed.
#[derive(Debug)]
struct StepFailure {
    /// Position of the step in its task, from 1.
    number: usize,
    /// Number of steps in the task.
    total: usize,
    /// The step.
    step: Step,
    /// What went wrong: an exit status or a spawn error.
    reason: String,
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

/// The workspace root: the parent of this crate's directory.
fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().unwrap_or(manifest_dir).to_path_buf()
}

/// The cargo that runs us (`$CARGO`), or `cargo` from the `PATH`.
fn cargo() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"))
}

/// Formats a duration as seconds with one decimal.
fn seconds(d: Duration) -> String {
    format!("{:.1}s", d.as_secs_f64())
}

/// Runs one step with cargo from `root`, its output going straight to the terminal.
/// `Err` says why it failed.
fn run_cargo(step: &Step, root: &Path) -> Result<(), String> {
    let mut command = Command::new(cargo());
    command.args(step.args).current_dir(root);
    for (key, value) in step.env {
        command.env(key, value);
    }
    match command.status() {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(match status.code() {
            Some(code) => format!("exit code {code}"),
            None => status.to_string(),
        }),
        Err(e) => Err(format!("could not start cargo: {e}")),
    }
}

/// Runs `steps` in order with `exec`, each under a header, stopping at the first failure.
fn run_steps(
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
    let root = workspace_root();
    match run_steps(task.name(), task.steps(), |step| run_cargo(step, &root)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!();
            eprintln!("xtask {}: FAILED: {failure}", task.name());
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ci() {
        assert_eq!(parse_args(["ci"]), Ok(Task::Ci));
    }

    #[test]
    fn help_and_bad_input_are_usage_errors() {
        for help in ["help", "-h", "--help"] {
            assert_eq!(parse_args([help]), Err(UsageError::HelpRequested));
        }
        assert_eq!(parse_args(Vec::<String>::new()), Err(UsageError::NoTask));
        assert_eq!(
            parse_args(["lint"]),
            Err(UsageError::UnknownTask("lint".into()))
        );
        assert_eq!(
            parse_args(["ci", "--fast"]),
            Err(UsageError::UnexpectedArgument("--fast".into()))
        );
    }

    #[test]
    fn ci_steps_run_in_the_documented_order() {
        let names: Vec<_> = Task::Ci.steps().iter().map(|s| s.name).collect();
        assert_eq!(names, ["fmt", "clippy", "test", "doc"]);
        let lines: Vec<_> = CI_STEPS.iter().map(Step::command_line).collect();
        assert_eq!(
            lines,
            [
                "cargo fmt --all -- --check",
                "cargo clippy --workspace --all-targets -- -D warnings",
                "cargo test --workspace --release -- --include-ignored",
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
    fn usage_lists_every_step() {
        let text = usage();
        assert!(text.starts_with("Usage: cargo xtask <TASK>"));
        for step in CI_STEPS {
            assert!(text.contains(&step.command_line()), "{text}");
        }
    }

    #[test]
    fn failure_message_names_the_step() {
        let failure = StepFailure {
            number: 2,
            total: 4,
            step: CI_STEPS[1],
            reason: "exit code 101".into(),
        };
        assert_eq!(
            failure.to_string(),
            "step 2/4 `clippy` failed (exit code 101): \
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
        assert_eq!(ran, ["fmt", "clippy"]);
        assert_eq!((failure.number, failure.total), (2, 4));
        assert_eq!(failure.step.name, "clippy");
        assert_eq!(failure.reason, "exit code 101");

        let mut ran = Vec::new();
        let all = run_steps("ci", CI_STEPS, |step| {
            ran.push(step.name);
            Ok(())
        });
        assert!(all.is_ok());
        assert_eq!(ran, ["fmt", "clippy", "test", "doc"]);
    }
}
