//! `cargo xtask perft`: runs the perft suite against the release `kshogi` binary.
//!
//! Each selected row of the suite file becomes one `kshogi perft --json --variant V
//! '<sfen>' <depth>` process; its count is compared with the row's. The runner prints a
//! table, reruns every mismatching row with `--divide` and prints that divide (and its
//! difference from a baseline report's divide for the row, when there is one), optionally
//! writes a JSON report, and optionally compares the speed of each row with an earlier
//! report. See `docs/perft.md`.

pub mod report;
pub mod suite;

use crate::util::{build_kshogi, capture, display_path, git_revision, unix_now};
use report::{
    compare_speed, divide_difference, precise_ms, Baseline, KshogiPerft, Machine, Report,
    ReportRow, SpeedCheck, Totals, MIN_COMPARABLE_MS, REPORT_FORMAT,
};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use suite::{parse_suite, select, SuiteRow, Tier};

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
  perft [OPTIONS]    run the perft suite with the release `kshogi` and compare counts
      --tier quick|full   rows to run: `quick` (default) or `full` (all rows)
      --variant V         only the rows of variant V
      --json FILE         write a machine-readable report to FILE
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
                    opts.tier = Tier::parse(&v)
                        .ok_or_else(|| format!("`--tier` is `quick` or `full`, not `{v}`"))?;
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

/// The result of one suite row.
struct Outcome<'a> {
    /// The row.
    row: &'a SuiteRow,
    /// Its report entry.
    report: ReportRow,
    /// The `--divide` rerun of a mismatching row, or its failure.
    rerun: Option<Result<KshogiPerft, String>>,
}

/// Runs the suite as `opts` says, from the workspace at `root`. `Err` says what failed
/// (mismatching rows, rows slower than the baseline, or an error before the run).
pub fn run(opts: &PerftOptions, root: &Path) -> Result<(), String> {
    let (suite_path, origin) = match &opts.suite {
        Some(path) => (path.clone(), path.to_string_lossy().into_owned()),
        None => (root.join(DEFAULT_SUITE), DEFAULT_SUITE.to_string()),
    };
    let text = std::fs::read_to_string(&suite_path)
        .map_err(|e| format!("cannot read the suite {origin}: {e}"))?;
    let rows = parse_suite(&text, &origin)?;
    let chosen = select(&rows, opts.tier, opts.variant.as_deref(), &origin)?;
    let baseline = match &opts.baseline {
        Some(path) => {
            let name = path.to_string_lossy();
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read the baseline {name}: {e}"))?;
            Some((Baseline::parse(&text, &name)?, name.into_owned()))
        }
        None => None,
    };

    let exe = build_kshogi(root)?;
    let exe_shown = display_path(&exe, root);
    let kshogi_version = capture(&exe.to_string_lossy(), &["--version"], root)
        .ok()
        .map(|s| s.trim().to_string());
    let machine = Machine {
        os: std::env::consts::OS.to_string(),
        arch: std::env::consts::ARCH.to_string(),
        cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
        kshogi_version,
        kshogi_revision: git_revision(root),
    };
    let started_unix = unix_now();

    println!(
        "perft: {} of {} rows of {origin} (tier {}{}{}) with {exe_shown}{}",
        chosen.len(),
        rows.len(),
        opts.tier,
        opts.variant
            .as_deref()
            .map(|v| format!(", variant {v}"))
            .unwrap_or_default(),
        if opts.threads > 1 {
            format!(", {} threads", opts.threads)
        } else {
            String::new()
        },
        machine
            .kshogi_version
            .as_deref()
            .map(|v| format!(" ({v})"))
            .unwrap_or_default(),
    );
    println!();
    println!("{}", table_header());

    let mut progress = Progress::new(chosen.len());
    let mut outcomes = Vec::with_capacity(chosen.len());
    for (i, row) in chosen.iter().enumerate() {
        progress.show(i, row);
        let result = kshogi_perft(&exe, row, opts.threads, false, root);
        let mut report = report_row(row, &result);
        let mut rerun = None;
        if !report.ok || opts.with_divide {
            let divided = kshogi_perft(&exe, row, opts.threads, true, root);
            if let Ok(out) = &divided {
                report.divide = out.divide.clone();
            }
            if !report.ok {
                rerun = Some(divided);
            }
        }
        progress.clear();
        println!("{}", table_row(row, &report));
        let _ = std::io::stdout().flush();
        outcomes.push(Outcome { row, report, rerun });
    }
    progress.clear();

    let mut report_rows: Vec<ReportRow> = outcomes.iter().map(|o| o.report.clone()).collect();
    if let Some((base, _)) = &baseline {
        retime_slow_rows(&mut report_rows, &outcomes, base, opts, &exe, root);
    }
    let totals = Totals::of(&report_rows);
    println!();
    println!(
        "perft: {} rows, {} passed, {} failed; {} nodes in {} ({} Mnps)",
        totals.rows,
        totals.passed,
        totals.failed,
        totals.nodes,
        format_ms(Some(totals.time_ms)),
        format_mnps(Some(totals.nps)),
    );

    let failures: Vec<&Outcome> = outcomes.iter().filter(|o| !o.report.ok).collect();
    if !failures.is_empty() {
        println!();
        println!(
            "{} row{} of {origin} failed:",
            failures.len(),
            plural(failures.len())
        );
        for outcome in &failures {
            println!();
            print!(
                "{}",
                describe_failure(
                    outcome,
                    &origin,
                    &exe_shown,
                    opts.threads,
                    baseline.as_ref()
                )
            );
        }
    }

    let speed = baseline.as_ref().map(|(base, name)| {
        let check = compare_speed(&report_rows, base, opts.tolerance_pct, MIN_COMPARABLE_MS);
        println!();
        print!(
            "{}",
            describe_speed(
                &check,
                &report_rows,
                base,
                name,
                &machine,
                opts.tolerance_pct
            )
        );
        check
    });

    if let Some(path) = &opts.json {
        let report = Report {
            format: REPORT_FORMAT,
            suite: origin.clone(),
            tier: opts.tier.name().to_string(),
            variant: opts.variant.clone(),
            threads: opts.threads,
            started_unix,
            machine,
            totals,
            rows: report_rows.clone(),
        };
        let mut text = serde_json::to_string_pretty(&report)
            .map_err(|e| format!("cannot serialise the report: {e}"))?;
        text.push('\n');
        std::fs::write(path, text)
            .map_err(|e| format!("cannot write the report {}: {e}", path.display()))?;
        println!();
        println!("perft: report written to {}", path.display());
    }

    let mut problems = Vec::new();
    if !failures.is_empty() {
        let lines: Vec<String> = failures
            .iter()
            .map(|o| format!("{origin}:{}", o.row.line))
            .collect();
        problems.push(format!(
            "{} row{} with a wrong count or an error ({})",
            failures.len(),
            plural(failures.len()),
            lines.join(", ")
        ));
    }
    if let Some(check) = &speed {
        let slow: Vec<String> = check
            .too_slow()
            .map(|s| format!("{origin}:{}", report_rows[s.index].line))
            .collect();
        if !slow.is_empty() {
            problems.push(format!(
                "{} row{} slower than the baseline by more than {}% ({})",
                slow.len(),
                plural(slow.len()),
                opts.tolerance_pct,
                slow.join(", ")
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// How many more times a row that looks too slow against the baseline is timed.
const RETIMES: usize = 2;

/// Times each row that looks slower than the baseline [`RETIMES`] more times and keeps its
/// best time: noise from other processes only ever adds time, so the minimum is the fairer
/// measure, and one unlucky run does not fail the comparison.
fn retime_slow_rows(
    rows: &mut [ReportRow],
    outcomes: &[Outcome],
    baseline: &Baseline,
    opts: &PerftOptions,
    exe: &Path,
    root: &Path,
) {
    let first = compare_speed(rows, baseline, opts.tolerance_pct, MIN_COMPARABLE_MS);
    let slow: Vec<usize> = first.too_slow().map(|s| s.index).collect();
    if slow.is_empty() {
        return;
    }
    println!();
    println!(
        "perft: {} row{} slower than the baseline; timing {} {RETIMES} more times, \
         the best time counts",
        slow.len(),
        plural(slow.len()),
        if slow.len() == 1 { "it" } else { "each" }
    );
    for index in slow {
        let row = outcomes[index].row;
        for _ in 0..RETIMES {
            let Ok(out) = kshogi_perft(exe, row, opts.threads, false, root) else {
                continue;
            };
            let ms = precise_ms(&out);
            if out.nodes == row.nodes && rows[index].time_ms.is_some_and(|best| ms < best) {
                rows[index].time_ms = Some(ms);
                rows[index].nps = Some(out.nps);
            }
        }
    }
}

/// `"s"` unless `n` is 1.
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The `kshogi` arguments that count `row`.
fn kshogi_args(row: &SuiteRow, threads: u32, divide: bool) -> Vec<String> {
    let mut args = vec![
        "perft".to_string(),
        "--json".to_string(),
        "--variant".to_string(),
        row.variant.clone(),
    ];
    // Only when asked for, so that a kshogi without `--threads` still runs the suite.
    if threads > 1 {
        args.push("--threads".to_string());
        args.push(threads.to_string());
    }
    if divide {
        args.push("--divide".to_string());
    }
    args.push(row.sfen.clone());
    args.push(row.depth.to_string());
    args
}

/// Quotes a word for a POSIX shell when it needs it, for command lines shown to the user.
fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=+*:,".contains(&b));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Runs `kshogi perft --json` on a row and reads its answer.
fn kshogi_perft(
    exe: &Path,
    row: &SuiteRow,
    threads: u32,
    divide: bool,
    root: &Path,
) -> Result<KshogiPerft, String> {
    let output = Command::new(exe)
        .args(kshogi_args(row, threads, divide))
        .current_dir(root)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("could not run {}: {e}", exe.display()))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let message: Vec<&str> = stderr
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        return Err(format!(
            "kshogi failed ({}): {}",
            crate::util::describe_status(output.status),
            if message.is_empty() {
                "no message".to_string()
            } else {
                message.join(" / ")
            }
        ));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let out: KshogiPerft = serde_json::from_str(stdout.trim()).map_err(|e| {
        format!(
            "could not read kshogi's JSON output ({e}): {}",
            stdout.trim()
        )
    })?;
    if out.variant != row.variant || out.depth != row.depth {
        return Err(format!(
            "kshogi answered for variant {} depth {}, not {} depth {}",
            out.variant, out.depth, row.variant, row.depth
        ));
    }
    Ok(out)
}

/// The report entry of a row from kshogi's answer.
fn report_row(row: &SuiteRow, result: &Result<KshogiPerft, String>) -> ReportRow {
    let (nodes, time_ms, nps, error) = match result {
        Ok(out) => (Some(out.nodes), Some(precise_ms(out)), Some(out.nps), None),
        Err(e) => (None, None, None, Some(e.clone())),
    };
    ReportRow {
        line: row.line,
        variant: row.variant.clone(),
        sfen: row.sfen.clone(),
        depth: row.depth,
        expected: row.nodes,
        nodes,
        ok: nodes == Some(row.nodes),
        time_ms,
        nps,
        error,
        divide: None,
    }
}

/// Width of the position column.
const POSITION_WIDTH: usize = 30;

/// `text` cut to `width` characters, ending in `...` when cut.
fn shorten(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let kept: String = text.chars().take(width.saturating_sub(3)).collect();
    format!("{kept}...")
}

/// Milliseconds for the table with about three significant digits (`0.012 ms`, `4.56 ms`,
/// `23.4 ms`, `1234 ms`), seconds from 10 s on; `-` when unknown.
fn format_ms(ms: Option<f64>) -> String {
    match ms {
        None => "-".to_string(),
        Some(ms) if ms >= 10_000.0 => format!("{:.1} s", ms / 1000.0),
        Some(ms) if ms >= 1000.0 => format!("{ms:.0} ms"),
        Some(ms) if ms >= 10.0 => format!("{ms:.1} ms"),
        Some(ms) if ms >= 1.0 => format!("{ms:.2} ms"),
        Some(ms) => format!("{ms:.3} ms"),
    }
}

/// Millions of nodes per second with one decimal; `-` when unknown or unmeasured.
fn format_mnps(nps: Option<u64>) -> String {
    match nps {
        None | Some(0) => "-".to_string(),
        Some(nps) => format!("{:.1}", nps as f64 / 1e6),
    }
}

/// The table's header line.
fn table_header() -> String {
    format!(
        "{:>5}  {:<8} {:<w$} {:>5} {:>12} {:>12} {:>9} {:>7}  result",
        "line",
        "variant",
        "position",
        "depth",
        "expected",
        "got",
        "time",
        "Mnps",
        w = POSITION_WIDTH
    )
}

/// One line of the table.
fn table_row(row: &SuiteRow, report: &ReportRow) -> String {
    let status = match (&report.error, report.ok) {
        (Some(_), _) => "ERROR",
        (None, true) => "ok",
        (None, false) => "MISMATCH",
    };
    format!(
        "{:>5}  {:<8} {:<w$} {:>5} {:>12} {:>12} {:>9} {:>7}  {status}",
        row.line,
        row.variant,
        shorten(&row.sfen, POSITION_WIDTH),
        row.depth,
        row.nodes,
        report
            .nodes
            .map_or_else(|| "-".to_string(), |n| n.to_string()),
        format_ms(report.time_ms),
        format_mnps(report.nps),
        w = POSITION_WIDTH
    )
}

/// The explanation of a failing row: where it is, both counts, and its divide.
fn describe_failure(
    outcome: &Outcome,
    origin: &str,
    exe: &str,
    threads: u32,
    baseline: Option<&(Baseline, String)>,
) -> String {
    let row = outcome.row;
    let report = &outcome.report;
    let mut out = String::new();
    let place = format!(
        "{origin}:{}: {} {} depth {}",
        row.line,
        row.variant,
        shell_quote(&row.sfen),
        row.depth
    );
    match (&report.error, report.nodes) {
        (Some(error), _) => out.push_str(&format!("{place}: {error}\n")),
        (None, Some(got)) => {
            let diff = i128::from(got) - i128::from(row.nodes);
            out.push_str(&format!(
                "{place}: expected {}, got {got} ({diff:+})\n",
                row.nodes
            ));
        }
        (None, None) => out.push_str(&format!("{place}: no count\n")),
    }
    let mut rerun_args = kshogi_args(row, threads, true);
    rerun_args.retain(|a| a != "--json");
    let rerun_line: Vec<String> = rerun_args.iter().map(|a| shell_quote(a)).collect();
    out.push_str(&format!("  rerun: {exe} {}\n", rerun_line.join(" ")));
    if report.error.is_some() {
        return out;
    }
    match &outcome.rerun {
        None => {}
        Some(Err(e)) => out.push_str(&format!("  the --divide rerun failed: {e}\n")),
        Some(Ok(rerun)) => {
            let divide = rerun.divide.clone().unwrap_or_default();
            if Some(rerun.nodes) != report.nodes {
                out.push_str(&format!(
                    "  note: the --divide rerun counted {}, the first run {}: \
                     the count is not reproducible\n",
                    rerun.nodes,
                    report.nodes.unwrap_or(0)
                ));
            }
            out.push_str(&format!(
                "  divide of the rerun ({} root move{}, {} nodes):\n",
                divide.len(),
                plural(divide.len()),
                rerun.nodes
            ));
            let width = divide.keys().map(|k| k.len()).max().unwrap_or(0);
            for (mv, n) in &divide {
                out.push_str(&format!("    {mv:<width$}  {n}\n"));
            }
            let base_divide = baseline.and_then(|(base, name)| {
                base.find((&row.variant, &row.sfen, row.depth))
                    .and_then(|b| b.divide.as_ref())
                    .map(|d| (d, name))
            });
            match base_divide {
                Some((base, name)) => {
                    out.push_str(&describe_divide_difference(base, &divide, name));
                }
                None if baseline.is_some() => out.push_str(
                    "  the baseline has no divide for this row (make one with \
                     `--json FILE --with-divide`)\n",
                ),
                None => {}
            }
        }
    }
    out
}

/// The per-move difference between a baseline divide and the current one.
fn describe_divide_difference(
    base: &BTreeMap<String, u64>,
    current: &BTreeMap<String, u64>,
    name: &str,
) -> String {
    let diff = divide_difference(base, current);
    if diff.is_empty() {
        return format!("  the divide equals the baseline's ({name}) move for move\n");
    }
    let mut out = format!(
        "  difference from the baseline's divide ({name}), {} move{}:\n",
        diff.len(),
        plural(diff.len())
    );
    let width = diff.iter().map(|d| d.mv.len()).max().unwrap_or(4).max(4);
    out.push_str(&format!(
        "    {:<width$}  {:>12} {:>12} {:>10}\n",
        "move", "baseline", "now", "diff"
    ));
    let shown = |n: Option<u64>| n.map_or_else(|| "absent".to_string(), |n| n.to_string());
    for d in &diff {
        let delta = i128::from(d.current.unwrap_or(0)) - i128::from(d.baseline.unwrap_or(0));
        out.push_str(&format!(
            "    {:<width$}  {:>12} {:>12} {:>+10}\n",
            d.mv,
            shown(d.baseline),
            shown(d.current),
            delta
        ));
    }
    out
}

/// The speed comparison with the baseline, for the terminal.
fn describe_speed(
    check: &SpeedCheck,
    rows: &[ReportRow],
    baseline: &Baseline,
    name: &str,
    machine: &Machine,
    tolerance_pct: f64,
) -> String {
    let mut out = format!("speed against the baseline {name} (tolerance {tolerance_pct}%):\n");
    if let Some(base) = &baseline.machine {
        if (base.os.as_str(), base.arch.as_str(), base.cpus)
            != (machine.os.as_str(), machine.arch.as_str(), machine.cpus)
        {
            out.push_str(&format!(
                "  note: the baseline ran on {}/{} with {} CPUs, this run on {}/{} with {} CPUs\n",
                base.os, base.arch, base.cpus, machine.os, machine.arch, machine.cpus
            ));
        }
    }
    out.push_str(&format!(
        "  {} row{} compared; {} skipped because their baseline time is under {} ms \
         (too noisy to compare)",
        check.compared.len(),
        plural(check.compared.len()),
        check.too_fast,
        MIN_COMPARABLE_MS
    ));
    if check.missing > 0 {
        out.push_str(&format!(
            "; {} not in the baseline (or failed there)",
            check.missing
        ));
    }
    if check.failed > 0 {
        out.push_str(&format!("; {} failed in this run", check.failed));
    }
    out.push('\n');
    if check.compared.is_empty() {
        return out;
    }
    out.push_str(&format!(
        "  {:>5}  {:<8} {:<w$} {:>5} {:>10} {:>10} {:>8}\n",
        "line",
        "variant",
        "position",
        "depth",
        "baseline",
        "now",
        "change",
        w = POSITION_WIDTH
    ));
    for s in &check.compared {
        let row = &rows[s.index];
        out.push_str(&format!(
            "  {:>5}  {:<8} {:<w$} {:>5} {:>10} {:>10} {:>+7.1}%{}\n",
            row.line,
            row.variant,
            shorten(&row.sfen, POSITION_WIDTH),
            row.depth,
            format_ms(Some(s.baseline_ms)),
            format_ms(Some(s.current_ms)),
            s.change_pct,
            if s.too_slow { "  SLOWER" } else { "" },
            w = POSITION_WIDTH
        ));
    }
    out
}

/// A one-line progress bar on standard error, drawn only when it is a terminal (so logs and
/// CI output stay clean).
struct Progress {
    /// Whether standard error is a terminal.
    enabled: bool,
    /// Rows in the run.
    total: usize,
    /// Width of the last line drawn, to clear it.
    drawn: usize,
}

impl Progress {
    /// A progress bar for `total` rows.
    fn new(total: usize) -> Progress {
        Progress {
            enabled: std::io::stderr().is_terminal(),
            total,
            drawn: 0,
        }
    }

    /// Draws the bar before row `done` (0-based) runs.
    fn show(&mut self, done: usize, row: &SuiteRow) {
        if !self.enabled {
            return;
        }
        // About 70 columns at most, so that the line fits a terminal and `\r` can erase it.
        const BAR: usize = 20;
        const POSITION: usize = 24;
        let filled = BAR * done / self.total.max(1);
        let line = format!(
            "[{}{}] {}/{}  {} {} depth {}",
            "#".repeat(filled),
            "-".repeat(BAR - filled),
            done,
            self.total,
            row.variant,
            shorten(&row.sfen, POSITION),
            row.depth
        );
        self.drawn = line.chars().count();
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{line}");
        let _ = err.flush();
    }

    /// Erases the bar.
    fn clear(&mut self) {
        if !self.enabled || self.drawn == 0 {
            return;
        }
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{}\r", " ".repeat(self.drawn));
        let _ = err.flush();
        self.drawn = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn row() -> SuiteRow {
        SuiteRow {
            line: 7,
            variant: "kyoto".into(),
            sfen: "pgkst/5/5/5/TSKGP b - 1".into(),
            depth: 2,
            nodes: 138,
            tier: Tier::Quick,
        }
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
                "`--tier` is `quick` or `full`, not `slow`",
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
    fn threads_are_passed_on_only_above_one() {
        let r = row();
        assert_eq!(
            kshogi_args(&r, 1, false),
            [
                "perft",
                "--json",
                "--variant",
                "kyoto",
                "pgkst/5/5/5/TSKGP b - 1",
                "2"
            ]
        );
        assert_eq!(
            kshogi_args(&r, 4, true),
            [
                "perft",
                "--json",
                "--variant",
                "kyoto",
                "--threads",
                "4",
                "--divide",
                "pgkst/5/5/5/TSKGP b - 1",
                "2"
            ]
        );
    }

    #[test]
    fn table_cells() {
        assert_eq!(shorten("abc", 5), "abc");
        assert_eq!(shorten("abcdefgh", 6), "abc...");
        assert_eq!(format_ms(Some(0.0123)), "0.012 ms");
        assert_eq!(format_ms(Some(4.561)), "4.56 ms");
        assert_eq!(format_ms(Some(23.44)), "23.4 ms");
        assert_eq!(format_ms(Some(123.44)), "123.4 ms");
        assert_eq!(format_ms(Some(1234.4)), "1234 ms");
        assert_eq!(format_ms(Some(12_345.0)), "12.3 s");
        assert_eq!(format_ms(None), "-");
        assert_eq!(format_mnps(Some(119_377_218)), "119.4");
        assert_eq!(format_mnps(Some(0)), "-");
        let r = row();
        let report = report_row(
            &r,
            &Ok(KshogiPerft {
                variant: "kyoto".into(),
                sfen: r.sfen.clone(),
                depth: 2,
                nodes: 137,
                divide: None,
                time_ms: 0,
                nps: 28_500_104,
            }),
        );
        assert!(!report.ok);
        let line = table_row(&r, &report);
        assert!(line.contains("138"), "{line}");
        assert!(line.contains("137"), "{line}");
        assert!(line.ends_with("MISMATCH"), "{line}");
        assert_eq!(
            table_header().len(),
            line.len() - "MISMATCH".len() + "result".len()
        );
        let failed = report_row(&r, &Err("kshogi failed".into()));
        assert!(table_row(&r, &failed).ends_with("ERROR"));
        assert_eq!(failed.error.as_deref(), Some("kshogi failed"));
    }

    #[test]
    fn shell_quoting() {
        assert_eq!(shell_quote("--divide"), "--divide");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }

    #[test]
    fn a_failure_names_the_row_both_counts_and_the_divide_difference() {
        let r = row();
        let got: BTreeMap<String, u64> = [("1e1d+", 11), ("2e2d+", 10)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        let rerun = KshogiPerft {
            variant: "kyoto".into(),
            sfen: r.sfen.clone(),
            depth: 2,
            nodes: 21,
            divide: Some(got),
            time_ms: 0,
            nps: 0,
        };
        let mut report = report_row(&r, &Ok(rerun.clone()));
        report.divide = rerun.divide.clone();
        let outcome = Outcome {
            row: &r,
            report,
            rerun: Some(Ok(rerun)),
        };
        let base = Baseline {
            rows: vec![report::BaselineRow {
                variant: "kyoto".into(),
                sfen: r.sfen.clone(),
                depth: 2,
                ok: Some(true),
                time_ms: Some(1.0),
                divide: Some(
                    [("1e1d+", 11), ("2e2d+", 11)]
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), v))
                        .collect(),
                ),
            }],
            machine: None,
        };
        let text = describe_failure(
            &outcome,
            "perft/suite.tsv",
            "target/release/kshogi",
            1,
            Some(&(base, "old.json".into())),
        );
        let expected = "\
perft/suite.tsv:7: kyoto 'pgkst/5/5/5/TSKGP b - 1' depth 2: expected 138, got 21 (-117)
  rerun: target/release/kshogi perft --variant kyoto --divide 'pgkst/5/5/5/TSKGP b - 1' 2
  divide of the rerun (2 root moves, 21 nodes):
    1e1d+  11
    2e2d+  10
  difference from the baseline's divide (old.json), 1 move:
    move       baseline          now       diff
    2e2d+            11           10         -1
";
        assert_eq!(text, expected);
    }
}
