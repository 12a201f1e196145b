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

/// [`divide`] computed by `threads` worker threads.
///
/// The work is split two plies deep (every reply to every root move is one work item) and
/// handed out from a shared counter, so that the threads stay busy even when one root move
/// has a much larger subtree than the others. The result is in move-generation order, the
/// same as [`divide`].
pub fn divide_parallel<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    threads: usize,
) -> Vec<(Move, u64)> {
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    let threads = threads.max(1);
    if threads == 1 || depth < 3 {
        return divide(&mut pos.clone(), depth);
    }
    let roots = pos.legal_moves();
    let mut items: Vec<(usize, Position<V>)> = Vec::new();
    for (i, &mv) in roots.iter().enumerate() {
        let child = pos.after(mv);
        for &reply in child.legal_moves().iter() {
            items.push((i, child.after(reply)));
        }
    }
    let next = AtomicUsize::new(0);
    let counts: Vec<AtomicU64> = roots.iter().map(|_| AtomicU64::new(0)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let j = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(root, mut p)) = items.get(j) else {
                    break;
                };
                let n = perft(&mut p, depth - 2);
                counts[root].fetch_add(n, Ordering::Relaxed);
            });
        }
    });
    roots
        .iter()
        .zip(counts)
        .map(|(&mv, n)| (mv, n.into_inner()))
        .collect()
}

/// [`perft`] computed by `threads` worker threads (see [`divide_parallel`]).
pub fn perft_parallel<V: Variant>(pos: &Position<V>, depth: u32, threads: usize) -> u64 {
    if threads <= 1 || depth < 3 {
        return perft(&mut pos.clone(), depth);
    }
    divide_parallel(pos, depth, threads)
        .iter()
        .map(|&(_, n)| n)
        .sum()
}
