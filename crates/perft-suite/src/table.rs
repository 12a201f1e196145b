//! The terminal text of a suite run (`kshogi perft --suite`): the table of rows as they
//! finish, the explanation of a failing row (both counts, its divide, and the divide's
//! difference from a baseline's), and the speed comparison with a baseline. Front ends print
//! these strings; the values come from [`crate::report`].

use crate::report::{
    divide_difference, Baseline, Machine, ReportRow, SpeedCheck, MIN_COMPARABLE_MS,
};
use crate::SuiteRow;
use std::collections::BTreeMap;

/// The explanation of a failing row: where it is, both counts, and its divide.
pub fn describe_failure(
    row: &SuiteRow,
    report: &ReportRow,
    origin: &str,
    rerun: &str,
    baseline: Option<&(Baseline, String)>,
) -> String {
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
    if let Some(source) = &row.source {
        out.push_str(&format!("  the expected count comes from: {source}\n"));
    }
    if let Some(convention) = &row.convention {
        out.push_str(&format!("  counting convention: {convention}\n"));
    }
    out.push_str(&format!("  rerun: {rerun}\n"));
    if report.error.is_some() {
        return out;
    }
    let divide = report.divide.clone().unwrap_or_default();
    out.push_str(&format!(
        "  divide ({} root move{}, {} nodes):\n",
        divide.len(),
        plural(divide.len()),
        report.nodes.unwrap_or(0)
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
        Some((base, name)) => out.push_str(&describe_divide_difference(base, &divide, name)),
        None if baseline.is_some() => out.push_str(
            "  the baseline has no divide for this row (make one with \
             `--report FILE --with-divide`)\n",
        ),
        None => {}
    }
    out
}

/// `"s"` unless `n` is 1.
pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Quotes a word for a POSIX shell when it needs it, for command lines shown to the user.
pub fn shell_quote(word: &str) -> String {
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

/// Width of the position column.
pub const POSITION_WIDTH: usize = 30;

/// `text` cut to `width` characters, ending in `...` when cut.
pub fn shorten(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let kept: String = text.chars().take(width.saturating_sub(3)).collect();
    format!("{kept}...")
}

/// Milliseconds for the table with about three significant digits (`0.012 ms`, `4.56 ms`,
/// `23.4 ms`, `1234 ms`), seconds from 10 s on; `-` when unknown.
pub fn format_ms(ms: Option<f64>) -> String {
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
pub fn format_mnps(nps: Option<u64>) -> String {
    match nps {
        None | Some(0) => "-".to_string(),
        Some(nps) => format!("{:.1}", nps as f64 / 1e6),
    }
}

/// The table's header line.
pub fn table_header() -> String {
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
pub fn table_row(row: &SuiteRow, report: &ReportRow) -> String {
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

/// The per-move difference between a baseline divide and the current one.
pub fn describe_divide_difference(
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
pub fn describe_speed(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{BaselineRow, Count, CountError};
    use crate::Tier;

    fn row() -> SuiteRow {
        SuiteRow {
            line: 7,
            variant: "kyoto".into(),
            sfen: "pgkst/5/5/5/TSKGP b - 1".into(),
            depth: 2,
            nodes: 138,
            tier: Tier::Quick,
            source: Some("made up for the test".into()),
            convention: None,
        }
    }

    fn count(nodes: u64, divide: Option<&[(&str, u64)]>) -> Count {
        Count {
            nodes,
            divide: divide.map(|d| d.iter().map(|&(k, v)| (k.to_string(), v)).collect()),
            time_ms: 0.0,
            nps: 28_500_104,
        }
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
        let report = ReportRow::of(&r, &Ok(count(137, None)), false);
        assert!(!report.ok);
        let line = table_row(&r, &report);
        assert!(line.contains("138"), "{line}");
        assert!(line.contains("137"), "{line}");
        assert!(line.ends_with("MISMATCH"), "{line}");
        assert_eq!(
            table_header().len(),
            line.len() - "MISMATCH".len() + "result".len()
        );
        let crashed = CountError::Engine(kshogi_usi_client::EngineError::BadCommand(
            kshogi_usi_client::BadCommand::Empty,
        ));
        let failed = ReportRow::of(&r, &Err(crashed), false);
        assert!(table_row(&r, &failed).ends_with("ERROR"));
        assert_eq!(
            failed.error.as_deref(),
            Some("bad engine command: the command is empty")
        );
        assert_eq!(failed.source.as_deref(), Some("made up for the test"));
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
        let got = count(21, Some(&[("1e1d+", 11), ("2e2d+", 10)]));
        let report = ReportRow::of(&r, &Ok(got), false);
        let base = Baseline {
            rows: vec![BaselineRow {
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
            &r,
            &report,
            "perft/suite.tsv",
            "kshogi perft --divide --variant kyoto 'pgkst/5/5/5/TSKGP b - 1' 2",
            Some(&(base, "old.json".into())),
        );
        let expected = "\
perft/suite.tsv:7: kyoto 'pgkst/5/5/5/TSKGP b - 1' depth 2: expected 138, got 21 (-117)
  the expected count comes from: made up for the test
  rerun: kshogi perft --divide --variant kyoto 'pgkst/5/5/5/TSKGP b - 1' 2
  divide (2 root moves, 21 nodes):
    1e1d+  11
    2e2d+  10
  difference from the baseline's divide (old.json), 1 move:
    move       baseline          now       diff
    2e2d+            11           10         -1
";
        assert_eq!(text, expected);
    }
}
