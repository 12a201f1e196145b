//! Helpers shared by the tasks: where the workspace is, running cargo, git and rustc, building
//! the `kshogi` binary, and the date.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The workspace root: the parent of this crate's directory.
pub fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().unwrap_or(manifest_dir).to_path_buf()
}

/// The cargo that runs us (`$CARGO`), or `cargo` from the `PATH`.
pub fn cargo() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"))
}

/// Formats a duration as seconds with one decimal.
pub fn seconds(d: Duration) -> String {
    format!("{:.1}s", d.as_secs_f64())
}

/// `path` relative to `base` when it lies below it, else `path` as given; for messages.
pub fn display_path(path: &Path, base: &Path) -> String {
    path.strip_prefix(base)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// Describes how a finished process ended, for messages: `exit code 1` or the signal.
pub fn describe_status(status: std::process::ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("exit code {code}"),
        None => status.to_string(),
    }
}

/// Runs `program args` in `dir` and returns its standard output when it succeeds; `Err`
/// carries the reason (spawn error, or exit status with the first line of standard error).
pub fn capture(program: &str, args: &[&str], dir: &Path) -> Result<String, String> {
    let output = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("could not run `{program}`: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let first = stderr.lines().next().unwrap_or("").trim();
        return Err(format!(
            "`{program} {}` failed ({}){}{}",
            args.join(" "),
            describe_status(output.status),
            if first.is_empty() { "" } else { ": " },
            first
        ));
    }
    String::from_utf8(output.stdout).map_err(|_| format!("`{program}` printed invalid UTF-8"))
}

/// The short git revision of `HEAD` in `dir`, with `-dirty` when tracked files differ from
/// it; `None` when git is not available or `dir` is not in a repository.
pub fn git_revision(dir: &Path) -> Option<String> {
    let rev = capture("git", &["rev-parse", "--short=12", "HEAD"], dir).ok()?;
    let rev = rev.trim().to_string();
    let dirty = capture(
        "git",
        &["status", "--porcelain", "--untracked-files=no"],
        dir,
    )
    .map(|s| !s.trim().is_empty())
    .unwrap_or(false);
    Some(if dirty { format!("{rev}-dirty") } else { rev })
}

/// The host target triple from `rustc -vV` (`$RUSTC` if set), such as
/// `x86_64-unknown-linux-gnu`.
pub fn host_triple(dir: &Path) -> Result<String, String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let text = capture(&rustc, &["-vV"], dir)?;
    parse_host_triple(&text).ok_or_else(|| format!("`{rustc} -vV` printed no `host:` line"))
}

/// The value of the `host:` line of `rustc -vV` output.
pub fn parse_host_triple(rustc_vv: &str) -> Option<String> {
    rustc_vv
        .lines()
        .find_map(|l| l.strip_prefix("host:"))
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
}

/// The `cargo build` arguments that build the `kshogi` binary in release mode.
pub const BUILD_KSHOGI_ARGS: &[&str] = &[
    "build",
    "--release",
    "-p",
    "kshogi-cli",
    "--message-format=json-render-diagnostics",
];

/// Builds `kshogi` in release mode from `root` and returns the path of the binary.
///
/// Cargo's progress and diagnostics go to our standard error as usual; the JSON messages on
/// its standard output say where the binary is, so a `CARGO_TARGET_DIR` is honoured.
pub fn build_kshogi(root: &Path) -> Result<PathBuf, String> {
    build_binary(root, BUILD_KSHOGI_ARGS, None, "kshogi")
}

/// Runs `cargo args` (a build with `--message-format=json-render-diagnostics`) in `dir`,
/// with `CARGO_TARGET_DIR` set to `target` if given, and returns the path of binary `name`
/// that it reports. Cargo's progress and diagnostics go to our standard error.
pub fn build_binary(
    dir: &Path,
    args: &[&str],
    target: Option<&Path>,
    name: &str,
) -> Result<PathBuf, String> {
    let line = format!("cargo {}", args.join(" "));
    eprintln!("==> {line}");
    let mut cmd = Command::new(cargo());
    cmd.args(args);
    if let Some(target) = target {
        cmd.env("CARGO_TARGET_DIR", target);
    }
    let output = cmd
        .current_dir(dir)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("could not start cargo: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "`{line}` failed ({})",
            describe_status(output.status)
        ));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    find_executable(&stdout, name)
        .ok_or_else(|| format!("`{line}` succeeded but reported no `{name}` binary"))
}

/// Finds the executable of binary target `name` in cargo's `--message-format=json` output.
pub fn find_executable(messages: &str, name: &str) -> Option<PathBuf> {
    messages.lines().rev().find_map(|line| {
        let v: serde_json::Value = serde_json::from_str(line).ok()?;
        if v["reason"] != "compiler-artifact" || v["target"]["name"] != name {
            return None;
        }
        let is_bin = v["target"]["kind"]
            .as_array()
            .is_some_and(|kinds| kinds.iter().any(|k| k == "bin"));
        if !is_bin {
            return None;
        }
        v["executable"].as_str().map(PathBuf::from)
    })
}

/// Seconds since the Unix epoch, now.
pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Today's date in UTC as `YYYY-MM-DD`.
pub fn utc_today() -> String {
    date_of_unix(unix_now())
}

/// The UTC date of a Unix time as `YYYY-MM-DD`.
pub fn date_of_unix(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(i64::MAX);
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
    let mp = (5 * doy + 2) / 153; // [0, 11]
    let d = doy - (153 * mp + 2) / 5 + 1; // [1, 31]
    let m = if mp < 10 { mp + 3 } else { mp - 9 }; // [1, 12]
    let y = if m <= 2 { y + 1 } else { y };
    // d and m are in small positive ranges, so the casts cannot truncate.
    (y, m as u32, d as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(date_of_unix(951_782_400), "2000-02-29");
        assert_eq!(date_of_unix(951_868_799), "2000-02-29");
        assert_eq!(date_of_unix(951_868_800), "2000-03-01");
        assert_eq!(date_of_unix(1_735_689_599), "2024-12-31");
        assert_eq!(date_of_unix(1_735_689_600), "2025-01-01");
        assert_eq!(date_of_unix(4_107_542_400), "2100-03-01");
    }

    #[test]
    fn host_triple_from_rustc_output() {
        let text = "rustc 1.95.0 (59807616e 2026-04-14)\nbinary: rustc\n\
                    host: x86_64-unknown-linux-gnu\nrelease: 1.95.0\n";
        assert_eq!(
            parse_host_triple(text).as_deref(),
            Some("x86_64-unknown-linux-gnu")
        );
        assert_eq!(parse_host_triple("rustc 1.0\n"), None);
        assert_eq!(parse_host_triple("host: \n"), None);
    }

    #[test]
    fn executable_from_cargo_messages() {
        let messages = concat!(
            r#"{"reason":"compiler-artifact","target":{"name":"kshogi_core","kind":["lib"]},"executable":null}"#,
            "\n",
            "not json\n",
            r#"{"reason":"compiler-artifact","target":{"name":"kshogi","kind":["bin"]},"executable":"/t/release/kshogi"}"#,
            "\n",
            r#"{"reason":"build-finished","success":true}"#,
            "\n"
        );
        assert_eq!(
            find_executable(messages, "kshogi"),
            Some(PathBuf::from("/t/release/kshogi"))
        );
        assert_eq!(find_executable(messages, "other"), None);
        assert_eq!(find_executable("", "kshogi"), None);
    }

    #[test]
    fn paths_are_shown_relative_to_the_root() {
        let root = Path::new("/w");
        assert_eq!(
            display_path(Path::new("/w/perft/suite.tsv"), root),
            "perft/suite.tsv"
        );
        assert_eq!(display_path(Path::new("/tmp/s.tsv"), root), "/tmp/s.tsv");
    }
}
