//! Perft: counting the leaves of the legal-move tree.

use crate::position::Position;
use crate::variant::Variant;
use crate::Move;

/// Number of leaves of the legal-move tree of depth `depth` (1 for depth 0). The last ply
/// is counted without making moves. Repetition is ignored, as the perft convention says.
pub fn perft<V: Variant>(pos: &mut Position<V>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            // Generate from a snapshot while making moves on `pos`: no move list to fill.
            let snapshot = *pos;
            let mut n = 0;
            snapshot.generate(|bundle| {
                snapshot.expand(bundle, |mv| {
                    let undo = pos.make(mv);
                    n += perft(pos, depth - 1);
                    pos.unmake(mv, undo);
                });
                false
            });
            n
        }
    }
}

/// Perft split by the root moves: each legal move with its subtree count at `depth - 1`.
/// `depth` 0 gives an empty list.
pub fn divide<V: Variant>(pos: &mut Position<V>, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&mv| {
            let undo = pos.make(mv);
            let n = perft(pos, depth - 1);
            pos.unmake(mv, undo);
            (mv, n)
        })
        .collect()
}
