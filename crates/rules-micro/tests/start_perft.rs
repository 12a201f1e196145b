//! Perft from the start position against ../shared/reference/perft.tsv.
use kshogi_core::{perft, Position};
use kshogi_rules_micro::Micro;

#[test]
fn start_perft_shallow() {
    let mut pos = Position::<Micro>::start();
    for (d, n) in [(1, 9), (2, 80), (3, 767), (4, 7256), (5, 71328)] {
        assert_eq!(perft(&mut pos, d), n, "depth {d}");
    }
}
