//! The bench (`kshogi_engine::bench`): deterministic, along its own game, deeper costs more.

use kshogi_engine::bench::bench;
use kshogi_engine::PieceTableEval;
use kshogi_rules_kinzoku::Kinzoku;

#[test]
fn the_bench_is_deterministic_and_follows_its_own_game() {
    let a = bench::<Kinzoku, PieceTableEval>(4, 3);
    let b = bench::<Kinzoku, PieceTableEval>(4, 3);
    assert_eq!(a.positions, b.positions);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.positions.len(), 3);
    assert_eq!(a.nodes, a.positions.iter().map(|p| p.nodes).sum::<u64>());
    // Each position is the one before plus the move chosen there.
    for w in a.positions.windows(2) {
        let mut expected = w[0].moves.clone();
        expected.push(w[0].best);
        assert_eq!(w[1].moves, expected);
    }
    assert!(a.positions[0].moves.is_empty());
    // A deeper search counts more nodes on the start position.
    let deeper = bench::<Kinzoku, PieceTableEval>(5, 1);
    assert!(deeper.nodes > a.positions[0].nodes);
}
