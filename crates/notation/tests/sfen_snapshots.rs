//! SFEN printing: the start positions, rows of the reference perft table, and lenient inputs
//! with their canonical forms. Besides the snapshot, each printed SFEN is checked against an
//! independent expectation: a canonical input prints as itself, and the canonical form of
//! each lenient input is written out by hand.

use kshogi_core::Position;
use kshogi_core::Variant;
use kshogi_notation::{parse_sfen, to_sfen};
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;
use kshogi_variants::{with_variant, VariantKind};
use std::fmt::Write as _;

fn print(kind: VariantKind, text: &str) -> String {
    fn go<V: Variant>(text: &str) -> String {
        let pos = parse_sfen::<V>(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        to_sfen(&pos)
    }
    with_variant!(kind, V => go::<V>(text))
}

/// Distinct (variant, SFEN) pairs of `perft/reference.tsv`, in file order.
fn reference_positions() -> Vec<(VariantKind, String)> {
    let text = include_str!("../../../perft/reference.tsv");
    let mut out: Vec<(VariantKind, String)> = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let kind = VariantKind::from_name(fields[0]).expect("a registered variant");
        let entry = (kind, fields[1].to_string());
        if !out.contains(&entry) {
            out.push(entry);
        }
    }
    out
}

#[test]
fn start_positions_and_reference_rows() {
    let mut snap = String::new();
    // The start positions as the spec writes them.
    let starts = [
        (
            to_sfen(&Position::<Kyoto>::start()),
            "pgkst/5/5/5/TSKGP b - 1",
        ),
        (
            to_sfen(&Position::<Micro>::start()),
            "kbgs/p3/4/3P/SGBK b - 1",
        ),
        (
            to_sfen(&Position::<Kinzoku>::start()),
            "cks/1i1/3/1I1/SKC b - 1",
        ),
    ];
    for (printed, expected) in &starts {
        assert_eq!(printed, expected);
        let _ = writeln!(snap, "{:<8}{printed}", "start");
    }
    // Every reference row is canonical, so it prints as itself.
    let rows = reference_positions();
    assert!(rows.len() >= 10, "{} rows", rows.len());
    for (kind, sfen) in &rows {
        assert_eq!(&print(*kind, sfen), sfen, "{kind}");
    }
    // Ten that are not start positions go in the snapshot: the first four Kyoto rows and
    // the first three of Micro and of Kinzoku.
    for (variant, count) in [
        (VariantKind::Kyoto, 4),
        (VariantKind::Micro, 3),
        (VariantKind::Kinzoku, 3),
    ] {
        for (kind, sfen) in rows
            .iter()
            .filter(|(k, s)| *k == variant && !starts.iter().any(|(p, _)| p == s))
            .take(count)
        {
            let _ = writeln!(snap, "{:<8}{}", kind.name(), print(*kind, sfen));
        }
    }
    insta::assert_snapshot!("sfen_printed", snap);
}

#[test]
fn lenient_inputs_print_canonically() {
    // (variant, input, canonical output worked out by hand from NOTATION.md)
    let cases = [
        // Reference-engine aliases: Kyoto +N = G, +L = T; Micro +R = G, +L = S.
        (
            VariantKind::Kyoto,
            "p+nks+l/5/5/5/+LSK+NP b - 1",
            "pgkst/5/5/5/TSKGP b - 1",
        ),
        (
            VariantKind::Micro,
            "kb+r+l/p3/4/3P/+L+RBK b - 1",
            "kbgs/p3/4/3P/SGBK b - 1",
        ),
        // `startpos`, the word `sfen`, an omitted ply.
        (VariantKind::Kyoto, "startpos", "pgkst/5/5/5/TSKGP b - 1"),
        (
            VariantKind::Micro,
            "sfen kbgs/p3/4/3P/SGBK w -",
            "kbgs/p3/4/3P/SGBK w - 1",
        ),
        // Hand letters of either face, any order: Kyoto r = pawn pair, L = tokin pair;
        // canonical order T G S P, Black's first.
        (
            VariantKind::Kyoto,
            "k4/5/5/5/4K b rLg 7",
            "k4/5/5/5/4K b Tgp 7",
        ),
        (
            VariantKind::Kyoto,
            "4k/5/5/5/K4 w p2g2TS 30",
            "4k/5/5/5/K4 w 2TS2gp 30",
        ),
        // Micro: n = pawn pair, l = silver pair; canonical order B G S P.
        (
            VariantKind::Micro,
            "k3/4/4/4/3K b nlB 12",
            "k3/4/4/4/3K b Bsp 12",
        ),
        // Kinzoku countdown, with and without the ply; `b0` once it has run out.
        (
            VariantKind::Kinzoku,
            "k2/3/3/1S1/2K w - b4",
            "k2/3/3/1S1/2K w - 1 b4",
        ),
        (
            VariantKind::Kinzoku,
            "k2/3/3/1S1/2K w - 40 b0",
            "k2/3/3/1S1/2K w - 40 b0",
        ),
        // Extra whitespace between fields.
        (
            VariantKind::Kinzoku,
            "  cks/1i1/3/1I1/SKC   b  -  1 ",
            "cks/1i1/3/1I1/SKC b - 1",
        ),
    ];
    let mut snap = String::new();
    for (kind, input, expected) in cases {
        let printed = print(kind, input);
        assert_eq!(printed, expected, "{kind} {input:?}");
        // Printing what was parsed from the canonical text gives it back.
        assert_eq!(print(kind, &printed), printed);
        let _ = writeln!(snap, "{:<8}{input:?}\n        -> {printed}", kind.name());
    }
    insta::assert_snapshot!("sfen_lenient", snap);
}
