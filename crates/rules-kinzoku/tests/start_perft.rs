//! Perft from the start position against ../shared/reference/perft.tsv.
use kshogi_core::{perft, Position};
use kshogi_rules_kinzoku::Kinzoku;

#[test]
fn start_perft_shallow() {
    let mut pos = Position::<Kinzoku>::start();
    for (d, n) in [(1, 7), (2, 49), (3, 335), (4, 2115), (5, 14494), (6, 96700)] {
        assert_eq!(perft(&mut pos, d), n, "depth {d}");
    }
}
