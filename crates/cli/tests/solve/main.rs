//! `kshogi solve <variant>` and `kshogi analyze` with its database, on small databases that
//! build in about a second: for Kinzoku `--max-pieces 2` (positions with at most two pieces
//! besides the kings, closed under moves, so a game of their own) and `--max-pieces 1`, for
//! Dobutsu `--pieces R` (the lions and the two giraffes).
//!
//! Every command runs with a scratch `HOME` and without `KSHOGI_DB` and `XDG_DATA_HOME`, so
//! a database installed on the machine is never read or overwritten. The positions whose
//! values are checked were worked out by hand (see each one); Kinzoku SFEN is 3 files by 5
//! ranks, Black moves up the board (its farthest rank is `a`), White down (`e`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// A scratch directory of this test binary, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("solve")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch directory");
    dir
}

/// Runs kshogi with `HOME` = `home` (its own scratch directory unless given), no
/// `KSHOGI_DB` or `XDG_DATA_HOME`, and the extra variables `env`.
fn run_in(home: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kshogi"));
    cmd.args(args)
        .env("HOME", home)
        .env_remove("KSHOGI_DB")
        .env_remove("XDG_DATA_HOME")
        .env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the kshogi binary runs")
}

/// A home directory with nothing in it.
fn empty_home() -> PathBuf {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| scratch("empty-home")).clone()
}

fn kshogi(args: &[&str]) -> Output {
    run_in(&empty_home(), args, &[])
}

/// Stdout of a command that must succeed (stderr may carry nothing but progress).
fn ok_out(out: Output, args: &[&str]) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    assert!(!stderr.contains("error"), "{args:?}: {stderr}");
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

fn ok(args: &[&str]) -> String {
    ok_out(kshogi(args), args)
}

/// The one `error:` line of a command that must fail with status `code`, printing nothing
/// on stdout unless `stdout_allowed`.
fn failure(out: Output, code: i32, args: &[&str], stdout_allowed: bool) -> String {
    let stderr = String::from_utf8(out.stderr).expect("stderr is UTF-8");
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    if !stdout_allowed {
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    }
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(!stderr.contains("internal error"), "{args:?}: {stderr}");
    let first = stderr.lines().next().unwrap_or_default().to_string();
    assert!(first.starts_with("error: "), "{args:?}: {stderr}");
    if code == 1 {
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
    first
}

fn json(text: &str) -> serde_json::Value {
    assert_eq!(text.lines().count(), 1, "one line of JSON expected: {text}");
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// The two-piece database, built once for all the tests, and its `--json` summary.
fn db2() -> &'static (PathBuf, serde_json::Value) {
    static DB: OnceLock<(PathBuf, serde_json::Value)> = OnceLock::new();
    DB.get_or_init(|| {
        let path = scratch("db2").join("k2.kdb");
        let p = path.to_str().unwrap();
        let args = [
            "solve",
            "kinzoku",
            "--max-pieces",
            "2",
            "--out",
            p,
            "--json",
        ];
        let summary = json(&ok(&args));
        (path, summary)
    })
}

fn db2_path() -> &'static str {
    db2().0.to_str().unwrap()
}

/// `analyze --json --db <two-piece database>` of `pos`.
fn exact(pos: &str) -> serde_json::Value {
    json(&ok(&["analyze", "--json", "--db", db2_path(), pos]))
}

/// The strings of a JSON array, sorted.
fn sorted(v: &serde_json::Value) -> Vec<String> {
    let mut s: Vec<String> = v
        .as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_str().expect("a string").to_string())
        .collect();
    s.sort();
    s
}

mod damaged;
mod dobutsu;
mod kinzoku;
