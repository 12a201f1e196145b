//! Perft rows: each row of a perft suite (read by `kshogi-perft-suite`) counted with the
//! variant's move generator, every mismatch recorded with its divide.

use crate::Failures;
use kshogi_core::Variant;
use kshogi_perft_suite::SuiteRow;

/// Counts `rows` (rows of `V`) and records each count that differs, or each row that does
/// not run, with the row's line, position, depth and divide; returns how many rows ran.
pub fn run_rows<V: Variant>(rows: &[&SuiteRow], f: &mut Failures) -> usize {
    let report = kshogi_perft_suite::run_rows::<V>(rows.iter().copied());
    for r in report.mismatches() {
        let row = &r.row;
        let what = match &r.got {
            Ok(got) => format!("expected {} nodes, got {got}", row.nodes),
            Err(e) => e.to_string(),
        };
        let divide: Vec<String> = r
            .divide
            .iter()
            .flatten()
            .map(|(mv, n)| format!("{mv} {n}"))
            .collect();
        f.fail(format!(
            "line {}: position `{}` depth {}: {what}{}",
            row.line,
            row.sfen,
            row.depth,
            if divide.is_empty() {
                String::new()
            } else {
                format!(" (divide: {})", divide.join(", "))
            }
        ));
    }
    rows.len()
}
