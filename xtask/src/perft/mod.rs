//! `cargo xtask perft`: runs the perft suite with the release `kshogi` binary.
//!
//! A thin wrapper over the product's own runner: it builds `kshogi` in release mode and runs
//! `kshogi perft --suite perft/suite.tsv` with the options given (`--json FILE` becomes
//! `--report FILE`), so that the table, the reports, the baseline comparison and the exit
//! status are those every user of `kshogi perft --suite` gets. It adds only what needs the
//! workspace: the git revision, written into the report. See `docs/perft.md`.

use crate::util::{build_kshogi, describe_status, display_path, git_revision};
/// Which rows a run takes: the perft suite's own tier type (`kshogi perft --tier`).
pub use kshogi_perft_suite::Tier;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The suite used when `--suite` is not given, relative to the workspace root.
pub const DEFAULT_SUITE: &str = "perft/suite.tsv";

/// The default `--tolerance`, in percent.
pub const DEFAULT_TOLERANCE_PCT: f64 = 25.0;

/// The options of `cargo xtask perft`.
#[derive(Debug, Clone, PartialEq)]
pub struct PerftOptions {
    /// `--tier`: which rows to run.
    pub tier: Tier,
    /// `--variant`: only this variant's rows.
    pub variant: Option<String>,
    /// `--json`: where to write the report.
    pub json: Option<PathBuf>,
    /// `--baseline`: an earlier report to compare speed (and divides) with.
    pub baseline: Option<PathBuf>,
    /// `--tolerance`: how much slower than the baseline a row may be, in percent.
    pub tolerance_pct: f64,
    /// `--threads`: passed on to `kshogi perft` when above 1.
    pub threads: u32,
    /// `--suite`: the suite file; [`DEFAULT_SUITE`] when `None`.
    pub suite: Option<PathBuf>,
    /// `--with-divide`: record every row's divide in the report.
    pub with_divide: bool,
}

impl Default for PerftOptions {
    fn default() -> Self {
        PerftOptions {
            tier: Tier::Quick,
            variant: None,
            json: None,
            baseline: None,
            tolerance_pct: DEFAULT_TOLERANCE_PCT,
            threads: 1,
            suite: None,
            with_divide: false,
        }
    }
}

/// The option summary for the usage text.
pub const USAGE: &str = "\
  perft [OPTIONS]    run the perft suite with the release `kshogi perft --suite`
      --tier T            rows to run: `quick` (default), `full` or `deep` (all rows)
      --variant V         only the rows of variant V
      --json FILE         write a machine-readable report to FILE (`kshogi perft --report`)
      --baseline FILE     compare speed with an earlier report; fail when a row is slower
                          than the tolerance in the best of 3 runs (rows under 50 ms in
                          the baseline are skipped as too noisy)
      --tolerance PCT     allowed slowdown against the baseline, in percent [default: 25]
      --threads N         pass `--threads N` to `kshogi perft` (only when N > 1)
      --suite FILE        the suite file [default: perft/suite.tsv]
      --with-divide       also record each row's divide in the report (one more run per row)
";

impl PerftOptions {
    /// Reads the arguments after `perft`. `Err` is a usage message.
    pub fn parse(args: &[String]) -> Result<PerftOptions, String> {
        let mut opts = PerftOptions::default();
        let mut i = 0;
        while i < args.len() {
            let arg = &args[i];
            let (name, inline) = match arg.split_once('=') {
                Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
                _ => (arg.as_str(), None),
            };
            let mut value = || -> Result<String, String> {
                if let Some(v) = inline.clone() {
                    return Ok(v);
                }
                i += 1;
                args.get(i)
                    .cloned()
                    .ok_or_else(|| format!("`{name}` needs a value"))
            };
            match name {
                "--tier" => {
                    let v = value()?;
                    opts.tier = Tier::parse(&v).ok_or_else(|| {
                        format!("`--tier` is `quick`, `full` or `deep`, not `{v}`")
                    })?;
                }
                "--variant" | "-v" => opts.variant = Some(value()?),
                "--json" => opts.json = Some(PathBuf::from(value()?)),
                "--baseline" => opts.baseline = Some(PathBuf::from(value()?)),
                "--suite" => opts.suite = Some(PathBuf::from(value()?)),
                "--tolerance" => {
                    let v = value()?;
                    opts.tolerance_pct = parse_percent(&v).ok_or_else(|| {
                        format!("`--tolerance` is a percentage such as 25, not `{v}`")
                    })?;
                }
                "--threads" => {
                    let v = value()?;
                    opts.threads =
                        v.parse().ok().filter(|&n: &u32| n >= 1).ok_or_else(|| {
                            format!("`--threads` is a whole number >= 1, not `{v}`")
                        })?;
                }
                "--with-divide" if inline.is_none() => opts.with_divide = true,
                _ => return Err(format!("unexpected argument `{arg}` for `perft`")),
            }
            i += 1;
        }
        Ok(opts)
    }
}

/// Reads a non-negative percentage, with or without a trailing `%`.
fn parse_percent(text: &str) -> Option<f64> {
    let number = text.strip_suffix('%').unwrap_or(text);
    number
        .parse::<f64>()
        .ok()
        .filter(|p| p.is_finite() && *p >= 0.0)
}

/// The `kshogi` arguments of a run, from the workspace root.
fn kshogi_args(opts: &PerftOptions, suite: &Path) -> Vec<String> {
    let mut args = vec![
        "perft".to_string(),
        "--suite".to_string(),
        suite.to_string_lossy().into_owned(),
        "--tier".to_string(),
        opts.tier.name().to_string(),
    ];
    if let Some(v) = &opts.variant {
        args.extend(["--variant".to_string(), v.clone()]);
    }
    if let Some(path) = &opts.json {
        // `cargo xtask perft --json FILE` has always replaced FILE; `kshogi perft` now asks
        // for --force to do that.
        args.extend([
            "--report".to_string(),
            path.to_string_lossy().into_owned(),
            "--force".to_string(),
        ]);
    }
    if let Some(path) = &opts.baseline {
        args.extend([
            "--baseline".to_string(),
            path.to_string_lossy().into_owned(),
        ]);
        args.extend(["--tolerance".to_string(), opts.tolerance_pct.to_string()]);
    }
    if opts.threads > 1 {
        args.extend(["--threads".to_string(), opts.threads.to_string()]);
    }
    if opts.with_divide {
        args.push("--with-divide".to_string());
    }
    args
}

/// Runs the suite as `opts` says, from the workspace at `root`. `Err` says what failed
/// (`kshogi perft --suite` has printed the details).
pub fn run(opts: &PerftOptions, root: &Path) -> Result<(), String> {
    let suite = opts
        .suite
        .clone()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_SUITE));
    let exe = build_kshogi(root)?;
    let args = kshogi_args(opts, &suite);
    eprintln!("==> {} {}", display_path(&exe, root), args.join(" "));
    let status = Command::new(&exe)
        .args(&args)
        .current_dir(root)
        .status()
        .map_err(|e| format!("could not run {}: {e}", exe.display()))?;
    if let Some(path) = &opts.json {
        add_revision(&root.join(path), git_revision(root))?;
    }
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "kshogi perft --suite failed ({}); see above",
            describe_status(status)
        ))
    }
}

/// Writes the workspace's git revision into the report's `machine.kshogi_revision`.
fn add_revision(path: &Path, revision: Option<String>) -> Result<(), String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        // kshogi failed before writing a report; its message says why.
        return Ok(());
    };
    let mut report: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a JSON report: {e}", path.display()))?;
    if let Some(machine) = report.get_mut("machine").and_then(|m| m.as_object_mut()) {
        machine.insert("kshogi_revision".into(), revision.into());
    }
    let mut text = serde_json::to_string_pretty(&report)
        .map_err(|e| format!("cannot serialise the report: {e}"))?;
    text.push('\n');
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn options_parse() {
        assert_eq!(PerftOptions::parse(&[]).unwrap(), PerftOptions::default());
        let opts = PerftOptions::parse(&args(&[
            "--tier",
            "full",
            "--variant=micro",
            "--json",
            "r.json",
            "--baseline",
            "b.json",
            "--tolerance",
            "10%",
            "--threads",
            "2",
            "--suite",
            "s.tsv",
            "--with-divide",
        ]))
        .unwrap();
        assert_eq!(
            opts,
            PerftOptions {
                tier: Tier::Full,
                variant: Some("micro".into()),
                json: Some("r.json".into()),
                baseline: Some("b.json".into()),
                tolerance_pct: 10.0,
                threads: 2,
                suite: Some("s.tsv".into()),
                with_divide: true,
            }
        );
    }

    #[test]
    fn bad_options_are_usage_errors() {
        let cases: [(&[&str], &str); 7] = [
            (
                &["--tier", "slow"],
                "`--tier` is `quick`, `full` or `deep`, not `slow`",
            ),
            (&["--tier"], "`--tier` needs a value"),
            (
                &["--tolerance", "-5"],
                "`--tolerance` is a percentage such as 25, not `-5`",
            ),
            (
                &["--threads", "0"],
                "`--threads` is a whole number >= 1, not `0`",
            ),
            (&["--fast"], "unexpected argument `--fast` for `perft`"),
            (
                &["--with-divide=yes"],
                "unexpected argument `--with-divide=yes` for `perft`",
            ),
            (&["kyoto"], "unexpected argument `kyoto` for `perft`"),
        ];
        for (list, message) in cases {
            assert_eq!(
                PerftOptions::parse(&args(list)).unwrap_err(),
                message,
                "{list:?}"
            );
        }
    }

    #[test]
    fn options_become_kshogi_arguments() {
        let opts = PerftOptions::parse(&args(&[
            "--tier",
            "full",
            "--variant",
            "micro",
            "--json",
            "r.json",
            "--baseline",
            "b.json",
            "--tolerance",
            "10",
            "--threads",
            "2",
            "--with-divide",
        ]))
        .unwrap();
        assert_eq!(
            kshogi_args(&opts, Path::new("perft/suite.tsv")).join(" "),
            "perft --suite perft/suite.tsv --tier full --variant micro --report r.json \
             --force --baseline b.json --tolerance 10 --threads 2 --with-divide"
        );
        assert_eq!(
            kshogi_args(&PerftOptions::default(), Path::new("s.tsv")).join(" "),
            "perft --suite s.tsv --tier quick"
        );
    }

    #[test]
    fn the_revision_goes_into_the_report() {
        let dir = std::env::temp_dir().join(format!("xtask-perft-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.json");
        std::fs::write(
            &path,
            r#"{"machine": {"os": "linux", "kshogi_revision": null}}"#,
        )
        .unwrap();
        add_revision(&path, Some("abc123".into())).unwrap();
        let back: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(back["machine"]["kshogi_revision"], "abc123");
        assert_eq!(back["machine"]["os"], "linux");
        add_revision(&dir.join("absent.json"), None).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
