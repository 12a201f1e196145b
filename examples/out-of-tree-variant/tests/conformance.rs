//! kshogi's conformance suite on Pocket Shogi: its perft rows, seeded random games (SFEN,
//! USI and KIF round trips, make/unmake, the hash, outcomes), a search from the start, the
//! evaluation's colour symmetry and a USI session.

use pocket_shogi::Pocket;

#[test]
fn pocket_shogi_conforms() {
    let rows = kshogi_perft_suite::parse_suite(include_str!("../perft.tsv"), "perft.tsv")
        .expect("perft.tsv reads");
    if let Err(report) = kshogi_conformance::check_variant::<Pocket>(&rows) {
        panic!("{report}");
    }
}
