//! The conformance suite over every registered variant: each generic check of the
//! `kshogi-conformance` library run for each entry of [`VariantKind::ALL`] through
//! [`with_variant!`], and what only the registry has (the reference table's variant names,
//! USI sessions that switch variants). Nothing here names a variant, so a newly registered
//! variant is covered without an edit to this suite.
//!
//! - **Reference perft** ([`reference`]): every row of `perft/reference.tsv` (counts of
//!   independent implementations) whose variant is registered gives the same count; a row
//!   naming an unknown variant, or a registered variant without rows, fails. Rows up to
//!   [`reference::QUICK_LIMIT`] nodes run by default; the rest are the `#[ignore]`d deep
//!   tier (`cargo test --release -p kshogi-conformance --test conformance -- --include-ignored`).
//! - **Random games**, **engine** and **USI**: the library's checks (see its
//!   documentation), and USI sessions of the registry's loop, started in each variant and
//!   switched to it with `setoption name USI_Variant`.
//!
//! A test collects all failures of all variants before it panics.

use kshogi_conformance::engine::{mirror_evaluates_the_same, search_from_start};
use kshogi_conformance::games::{random_games, GAMES, PLIES};
use kshogi_conformance::usi::{check_usi, play_two, session, usi_session};
use kshogi_conformance::{check_variant, Failures};
use kshogi_core::Variant;
use kshogi_registry::{with_variant, VariantKind};
use kshogi_usi::{serve_with, Budget, SearchMode};

#[path = "conformance/reference.rs"]
mod reference;

/// Runs `test` for every registered variant, then panics with every failure, by variant.
pub fn for_each_variant(test: &str, mut run: impl FnMut(VariantKind, &mut Failures)) {
    let mut report = String::new();
    let mut total = 0;
    for &kind in VariantKind::ALL {
        let mut f = Failures::new(kind.name());
        run(kind, &mut f);
        total += f.count();
        report.push_str(&f.report());
    }
    assert!(total == 0, "{test}: {total} failures\n{report}");
}

/// Every registered variant's name, as `USI_Variant` must list them.
fn all_names() -> Vec<&'static str> {
    VariantKind::ALL.iter().map(|k| k.name()).collect()
}

/// A session of the registry's loop (which switches variants), started in `initial`.
fn registry_session(
    initial: VariantKind,
    f: &mut Failures,
    script: impl FnOnce(&mut kshogi_conformance::usi::Driver<'_>),
) {
    session(
        f,
        |input, out| serve_with(input, out, initial, SearchMode::Bounded(Budget::TINY)),
        script,
    );
}

fn started_in<V: Variant>(kind: VariantKind, f: &mut Failures) {
    registry_session(kind, f, |d| {
        check_usi(d, kind.name(), &all_names());
        d.send("isready");
        d.expect("readyok");
        play_two::<V>(d);
    });
}

fn switched_to<V: Variant>(kind: VariantKind, f: &mut Failures) {
    // Start in the next variant of the registry (the same one if it is the only one).
    let i = VariantKind::ALL
        .iter()
        .position(|&k| k == kind)
        .unwrap_or(0);
    let other = VariantKind::ALL[(i + 1) % VariantKind::ALL.len()];
    registry_session(other, f, |d| {
        d.send("isready");
        d.expect("readyok");
        d.send(&format!("setoption name USI_Variant value {}", kind.name()));
        check_usi(d, kind.name(), &all_names());
        d.send("isready");
        d.expect("readyok");
        play_two::<V>(d);
    });
}

#[test]
fn usi_session_in_each_variant() {
    for_each_variant("usi_session_in_each_variant", |kind, f| {
        with_variant!(kind, V => started_in::<V>(kind, f));
    });
}

#[test]
fn usi_session_switching_to_each_variant() {
    for_each_variant("usi_session_switching_to_each_variant", |kind, f| {
        with_variant!(kind, V => switched_to::<V>(kind, f));
    });
}

/// The loop of one variant alone (`kshogi_usi::serve_variant`, what a variant outside the
/// registry gets), for each registered variant.
#[test]
fn usi_session_of_each_variant_alone() {
    for_each_variant("usi_session_of_each_variant_alone", |kind, f| {
        with_variant!(kind, V => usi_session::<V>(f));
    });
}

#[test]
fn random_games_keep_the_invariants() {
    for_each_variant("random_games_keep_the_invariants", |kind, f| {
        let t = with_variant!(kind, V => random_games::<V>(f));
        eprintln!(
            "{}: {GAMES} games (up to {PLIES} plies), {} finished ({} by repetition), {} positions, {} moves \
             made and unmade, {} final positions without an SFEN round trip (no valid setup)",
            kind.name(),
            t.finished,
            t.repetitions,
            t.positions,
            t.moves_checked,
            t.skipped_sfen
        );
    });
}

#[test]
fn search_from_the_start_gives_legal_lines() {
    for_each_variant("search_from_the_start_gives_legal_lines", |kind, f| {
        with_variant!(kind, V => search_from_start::<V>(f));
    });
}

#[test]
fn evaluation_is_colour_symmetric() {
    for_each_variant("evaluation_is_colour_symmetric", |kind, f| {
        let ran = with_variant!(kind, V => mirror_evaluates_the_same::<V>(f));
        if !ran {
            eprintln!(
                "{}: the colour-mirrored start is no valid position; mirror test skipped",
                kind.name()
            );
        }
    });
}

/// `check_variant`, what a crate outside the registry runs on its variant, fails without
/// rows of the variant and on a wrong count, and passes on a right one. Depth 0 counts the
/// one leaf of the root (the perft convention), so 1 is right and 2 is wrong.
#[test]
fn check_variant_needs_rows_and_right_counts() {
    let kind = VariantKind::ALL[0];
    let suite = |nodes: u64| {
        let text = format!("{}\tstartpos\t0\t{nodes}\tquick\n", kind.name());
        kshogi_perft_suite::parse_suite(&text, "rows.tsv").expect("a valid suite")
    };
    with_variant!(kind, V => {
        let e = check_variant::<V>(&[]).expect_err("no rows must fail");
        assert_eq!(e.count(), 1, "{e}");
        assert!(e.shown()[0].contains("no perft row names"), "{e}");
        assert!(e.to_string().contains("no perft row names"), "{e}");
        let e = check_variant::<V>(&suite(2)).expect_err("a wrong count must fail");
        assert!(e.to_string().contains("expected 2 nodes, got 1"), "{e}");
        if let Err(e) = check_variant::<V>(&suite(1)) {
            panic!("{e}");
        }
    });
}
