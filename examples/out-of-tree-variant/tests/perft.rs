//! The perft rows of `perft.tsv`, checked twice: against a brute-force mover written from
//! the rules alone (`tests/common`), and against kshogi's move generator through
//! `kshogi-perft-suite`, the library the conformance suite reads its rows with.

mod common;

use kshogi_perft_suite::{parse_suite, rows_of, run_rows, SuiteRow};
use pocket_shogi::Pocket;

fn rows() -> Vec<SuiteRow> {
    parse_suite(include_str!("../perft.tsv"), "perft.tsv").expect("perft.tsv reads")
}

#[test]
fn the_rows_are_the_brute_force_counts() {
    let rows = rows();
    assert!(rows.len() >= 8, "the suite has its rows");
    for row in &rows {
        assert_eq!(row.variant, "pocket", "line {}", row.line);
        let count = common::Pos::parse(&row.sfen).perft(row.depth);
        assert_eq!(
            count, row.nodes,
            "line {}: `{}` depth {}",
            row.line, row.sfen, row.depth
        );
    }
}

#[test]
fn kshogi_counts_the_rows() {
    let rows = rows();
    run_rows::<Pocket>(rows_of::<Pocket>(&rows)).assert_ok();
}
