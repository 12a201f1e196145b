//! Reference perft: every row of `perft/reference.tsv` (tab-separated `variant sfen depth
//! nodes`, `#` comments), a verbatim copy of the counts of independent implementations.

use crate::for_each_variant;
use kshogi_perft_suite::{parse_table, Layout, SuiteRow};
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

/// The data rows (read by `kshogi-perft-suite`, the library downstream variant crates use
/// too), and the table's error if it does not read.
fn rows() -> (Vec<SuiteRow>, Vec<String>) {
    match parse_table(
        TABLE,
        "perft/reference.tsv",
        Layout::Reference {
            quick_limit: QUICK_LIMIT,
        },
    ) {
        Ok(rows) => (rows, Vec::new()),
        Err(e) => (Vec::new(), vec![e.to_string()]),
    }
}

/// Checks the table's names, then runs the rows `select` picks for every registered variant.
fn check(test: &str, select: impl Fn(&SuiteRow) -> bool) {
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
        let mine: Vec<&SuiteRow> = rows
            .iter()
            .filter(|r| VariantKind::from_name(&r.variant) == Some(kind) && select(r))
            .collect();
        ran += with_variant!(kind, V => kshogi_conformance::perft::run_rows::<V>(&mine, f));
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
        let mine: Vec<&SuiteRow> = rows
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
