//! Perft from the start position against ../shared/reference/perft.tsv.
use kshogi_core::{perft, Position};
use kshogi_rules_kyoto::Kyoto;

#[test]
fn start_perft_shallow() {
    let mut pos = Position::<Kyoto>::start();
    for (d, n) in [(1, 12), (2, 137), (3, 1636), (4, 18268)] {
        assert_eq!(perft(&mut pos, d), n, "depth {d}");
    }
}
