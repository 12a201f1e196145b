//! Every row of the shared reference perft table (`perft/reference.tsv`, a verbatim copy of
//! the counts computed by independent implementations).
//!
//! Rows up to `QUICK_LIMIT` nodes run in the default test run; the rest are `#[ignore]` and
//! run in release mode in CI (`cargo test --release -- --include-ignored`).

use kshogi_core::perft;
use kshogi_core::Variant;
use kshogi_notation::parse_sfen;
use kshogi_rules_dobutsu::Dobutsu;
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;
use kshogi_rules_minishogi::Minishogi;

const QUICK_LIMIT: u64 = 100_000;

struct Row {
    line: usize,
    variant: String,
    sfen: String,
    depth: u32,
    nodes: u64,
}

fn rows() -> Vec<Row> {
    let text = include_str!("../../../perft/reference.tsv");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "line {}: four tab-separated fields", i + 1);
            Row {
                line: i + 1,
                variant: f[0].to_string(),
                sfen: f[1].to_string(),
                depth: f[2].parse().expect("depth"),
                nodes: f[3].parse().expect("nodes"),
            }
        })
        .collect()
}

fn run<V: Variant>(row: &Row) -> u64 {
    let mut pos = parse_sfen::<V>(&row.sfen)
        .unwrap_or_else(|e| panic!("line {}: {}: {e}", row.line, row.sfen));
    perft(&mut pos, row.depth)
}

fn check(select: impl Fn(&Row) -> bool) {
    let mut failures = Vec::new();
    let mut ran = 0;
    for row in rows().iter().filter(|r| select(r)) {
        let got = match row.variant.as_str() {
            "kyoto" => run::<Kyoto>(row),
            "micro" => run::<Micro>(row),
            "kinzoku" => run::<Kinzoku>(row),
            "minishogi" => run::<Minishogi>(row),
            "dobutsu" => run::<Dobutsu>(row),
            v => panic!("line {}: unknown variant {v}", row.line),
        };
        ran += 1;
        if got != row.nodes {
            failures.push(format!(
                "line {}: {} `{}` depth {}: expected {}, got {}",
                row.line, row.variant, row.sfen, row.depth, row.nodes, got
            ));
        }
    }
    assert!(ran > 0, "no rows selected");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn reference_rows_quick() {
    check(|r| r.nodes <= QUICK_LIMIT);
}

#[test]
#[ignore = "deep: run in release mode (CI does)"]
fn reference_rows_deep() {
    check(|r| r.nodes > QUICK_LIMIT);
}

#[test]
fn table_has_all_the_rows() {
    assert_eq!(rows().len(), 236, "data rows in perft/reference.tsv");
}
