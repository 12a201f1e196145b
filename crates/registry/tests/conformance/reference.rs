//! Reference perft: every row of `perft/reference.tsv` (tab-separated `variant sfen depth
//! nodes`, `#` comments), a verbatim copy of the counts of independent implementations.

use crate::{for_each_variant, Failures};
use kshogi_core::{perft, Variant};
use kshogi_notation::parse_sfen;
use kshogi_registry::{with_variant, VariantKind};

/// Rows with at most this many nodes run in the default (debug) test; the rest are the deep
/// tier.
pub const QUICK_LIMIT: u64 = 100_000;

/// Variants that have reference rows but are not registered yet. Each entry must be a name
/// of the table that no registered variant has; a row naming any other unknown variant
/// fails. Keep it empty unless rows for a variant arrive before the variant does.
const VARIANTS_NOT_YET_REGISTERED: &[&str] = &[];

/// The table, read at compile time.
const TABLE: &str = include_str!("../../../../perft/reference.tsv");

/// One data row of the table.
struct Row {
    line: usize,
    variant: String,
    sfen: String,
    depth: u32,
    nodes: u64,
}

/// The data rows, and the lines that are not rows (`line N: what is wrong`).
fn rows() -> (Vec<Row>, Vec<String>) {
    let mut rows = Vec::new();
    let mut bad = Vec::new();
    for (i, l) in TABLE.lines().enumerate() {
        let line = i + 1;
        if l.trim().is_empty() || l.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = l.split('\t').collect();
        if f.len() != 4 {
            bad.push(format!("line {line}: {} fields, expected 4: {l}", f.len()));
            continue;
        }
        let (Ok(depth), Ok(nodes)) = (f[2].parse::<u32>(), f[3].parse::<u64>()) else {
            bad.push(format!(
                "line {line}: depth and nodes must be whole numbers: {l}"
            ));
            continue;
        };
        rows.push(Row {
            line,
            variant: f[0].to_string(),
            sfen: f[1].to_string(),
            depth,
            nodes,
        });
    }
    (rows, bad)
}

/// Runs rows of one variant; returns how many ran.
fn run<V: Variant>(rows: &[&Row], f: &mut Failures) -> usize {
    for row in rows {
        let mut pos = match parse_sfen::<V>(&row.sfen) {
            Ok(p) => p,
            Err(e) => {
                f.fail(format!(
                    "line {}: position `{}`: does not read: {e}",
                    row.line, row.sfen
                ));
                continue;
            }
        };
        let got = perft(&mut pos, row.depth);
        f.check(got == row.nodes, || {
            format!(
                "line {}: position `{}` depth {}: expected {} nodes, got {got}",
                row.line, row.sfen, row.depth, row.nodes
            )
        });
    }
    rows.len()
}

/// Checks the table's names, then runs the rows `select` picks for every registered variant.
fn check(test: &str, select: impl Fn(&Row) -> bool) {
    let (rows, bad) = rows();
    let unknown: Vec<String> = rows
        .iter()
        .filter(|r| VariantKind::from_name(&r.variant).is_none())
        .filter(|r| !VARIANTS_NOT_YET_REGISTERED.contains(&r.variant.as_str()))
        .map(|r| {
            format!(
                "line {}: variant `{}` is not registered (known: {}); register it or list it \
                 in VARIANTS_NOT_YET_REGISTERED",
                r.line,
                r.variant,
                VariantKind::names()
            )
        })
        .collect();
    let problems: Vec<String> = bad.into_iter().chain(unknown).collect();
    assert!(
        problems.is_empty(),
        "{test}: perft/reference.tsv:\n{}",
        problems.join("\n")
    );
    let mut ran = 0;
    for_each_variant(test, |kind, f| {
        let mine: Vec<&Row> = rows
            .iter()
            .filter(|r| VariantKind::from_name(&r.variant) == Some(kind) && select(r))
            .collect();
        ran += with_variant!(kind, V => run::<V>(&mine, f));
    });
    assert!(ran > 0, "{test}: no rows selected");
    eprintln!("{test}: {ran} rows ran");
}

#[test]
fn reference_perft_quick() {
    check("reference_perft_quick", |r| r.nodes <= QUICK_LIMIT);
}

#[test]
#[ignore = "deep tier of the reference perft: run in release with --include-ignored (CI does)"]
fn reference_perft_deep_tier() {
    check("reference_perft_deep_tier", |r| r.nodes > QUICK_LIMIT);
}

/// Every registered variant has reference rows, the list of variants not yet registered only
/// holds names of the table that are in fact unregistered, and both tiers have rows.
#[test]
fn reference_table_covers_every_variant() {
    let (rows, bad) = rows();
    assert!(bad.is_empty(), "perft/reference.tsv:\n{}", bad.join("\n"));
    for name in VARIANTS_NOT_YET_REGISTERED {
        assert!(
            VariantKind::from_name(name).is_none(),
            "VARIANTS_NOT_YET_REGISTERED lists `{name}`, which is registered: remove it"
        );
        assert!(
            rows.iter().any(|r| r.variant == *name),
            "VARIANTS_NOT_YET_REGISTERED lists `{name}`, which has no row in \
             perft/reference.tsv: remove it"
        );
    }
    for_each_variant("reference_table_covers_every_variant", |kind, f| {
        let mine: Vec<&Row> = rows
            .iter()
            .filter(|r| VariantKind::from_name(&r.variant) == Some(kind))
            .collect();
        f.check(!mine.is_empty(), || {
            format!(
                "registered variant `{}` has no rows in perft/reference.tsv (add reference \
                 counts from an independent implementation)",
                kind.name()
            )
        });
        f.check(mine.iter().any(|r| r.nodes <= QUICK_LIMIT), || {
            format!(
                "registered variant `{}` has no quick row (at most {QUICK_LIMIT} nodes) in \
                 perft/reference.tsv, so the default test run checks none of its counts",
                kind.name()
            )
        });
    });
}
