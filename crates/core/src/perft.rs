//! Perft: counting the leaves of the legal-move tree.

use crate::position::Position;
use crate::variant::Variant;
use crate::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

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

/// Like [`perft`], but gives up (returning `None`) soon after `stop` becomes true.
fn perft_until<V: Variant>(pos: &mut Position<V>, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 2 {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let snapshot = *pos;
    let mut n = 0;
    let mut stopped = false;
    snapshot.generate(|bundle| {
        snapshot.expand(bundle, |mv| {
            if stopped {
                return;
            }
            let undo = pos.make(mv);
            match perft_until(pos, depth - 1, stop) {
                Some(k) => n += k,
                None => stopped = true,
            }
            pos.unmake(mv, undo);
        });
        stopped
    });
    (!stopped).then_some(n)
}

/// Appends every position `plies` moves after `pos` as a work item of root move `root`.
fn push_items<V: Variant>(
    pos: &Position<V>,
    plies: u32,
    root: usize,
    items: &mut Vec<(usize, Position<V>)>,
) {
    if plies == 0 {
        items.push((root, *pos));
        return;
    }
    for &mv in pos.legal_moves().iter() {
        push_items(&pos.after(mv), plies - 1, root, items);
    }
}

/// [`divide`] computed by `threads` worker threads, which can be interrupted.
///
/// The work is split two or three plies deep (every position that far from the root is one
/// work item) and handed out from a shared counter, so that the threads stay busy even when one root move
/// has a much larger subtree than the others. When `stop` becomes true the workers give up
/// within a few milliseconds; root moves whose subtrees were not counted completely then
/// have `None`. The result is in move-generation order, the same as [`divide`].
pub fn divide_interruptible<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Vec<(Move, Option<u64>)> {
    if depth < 3 {
        return divide(&mut pos.clone(), depth)
            .into_iter()
            .map(|(mv, n)| (mv, Some(n)))
            .collect();
    }
    let roots = pos.legal_moves();
    // Split two plies deep, or three for deeper counts, so that there are hundreds or
    // thousands of items and the last ones to finish are small.
    let split = if depth >= 6 { 3 } else { 2 };
    let mut items: Vec<(usize, Position<V>)> = Vec::new();
    for (i, &mv) in roots.iter().enumerate() {
        push_items(&pos.after(mv), split - 1, i, &mut items);
    }
    let next = AtomicUsize::new(0);
    let counts: Vec<AtomicU64> = roots.iter().map(|_| AtomicU64::new(0)).collect();
    let done: Vec<AtomicUsize> = roots.iter().map(|_| AtomicUsize::new(0)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let j = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(root, mut p)) = items.get(j) else {
                    break;
                };
                if let Some(n) = perft_until(&mut p, depth - split, stop) {
                    counts[root].fetch_add(n, Ordering::Relaxed);
                    done[root].fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    let mut per_root = vec![0usize; roots.len()];
    for &(root, _) in &items {
        per_root[root] += 1;
    }
    roots
        .iter()
        .enumerate()
        .map(|(i, &mv)| {
            let complete = done[i].load(Ordering::Relaxed) == per_root[i];
            (mv, complete.then(|| counts[i].load(Ordering::Relaxed)))
        })
        .collect()
}

/// [`divide`] computed by `threads` worker threads (see [`divide_interruptible`]).
pub fn divide_parallel<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    threads: usize,
) -> Vec<(Move, u64)> {
    if threads <= 1 || depth < 3 {
        return divide(&mut pos.clone(), depth);
    }
    let never = AtomicBool::new(false);
    divide_interruptible(pos, depth, threads, &never)
        .into_iter()
        .map(|(mv, n)| (mv, n.unwrap_or(0)))
        .collect()
}

/// [`perft`] computed by `threads` worker threads (see [`divide_interruptible`]).
pub fn perft_parallel<V: Variant>(pos: &Position<V>, depth: u32, threads: usize) -> u64 {
    if threads <= 1 || depth < 3 {
        return perft(&mut pos.clone(), depth);
    }
    divide_parallel(pos, depth, threads)
        .iter()
        .map(|&(_, n)| n)
        .sum()
}
