//! Perft: counting the leaves of the legal-move tree.

use crate::movegen::{
    expand_with, flip_range, generate_given, generate_with, replies_derivable, steppers_derivable,
    Replies, StepAttacks, StepperMoves, Threats,
};
use crate::position::Position;
use crate::variant::{Derived, Variant};
use crate::{Bitboard, Bundle, Kind, Move, Square};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// The deepest perft the front ends accept (`kshogi perft`, perft suites). From a start
/// position no count of that depth could finish: even Kinzoku's start, the slowest-growing
/// tree, has some 3e7 leaves at depth 9 and grows about sixfold a ply, so depth 30 is
/// beyond 1e20 leaves (near the range of a `u64` count). The recursion is one frame per
/// ply, so this depth is also far from any stack limit.
pub const MAX_PERFT_DEPTH: u32 = 30;

/// Number of leaves of the legal-move tree of depth `depth` (1 for depth 0). The last ply
/// is counted without making moves. Repetition is ignored, as the perft convention says.
pub fn perft<V: Variant>(pos: &mut Position<V>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_leaves(),
        _ => perft_interior(pos, depth, None),
    }
}

/// [`perft`] for `depth >= 2`: makes and takes back each move in `pos` itself, straight from
/// the generated bundles (no move list, no copy of the position), and counts the last ply
/// with popcounts, inlined here. `known` are the threats to the side to move, when the
/// parent derived them (see [`generate_given`](crate::movegen::generate_given)).
fn perft_interior<V: Variant>(pos: &mut Position<V>, depth: u32, known: Option<Threats>) -> u64 {
    if pos.royal_captured() || (V::HAS_ADJUDICATION && V::adjudicate(pos).is_some()) {
        return 0;
    }
    // The threats of the steps to each child follow from the step attacks of the side to
    // move here, summed up once (see `StepAttacks`), instead of being found in every child
    // (with sliders, the child still looks at the slides).
    // Only with the check rule: without it there are no threats to derive. (`derive` is
    // a const, not a local: the closure below is not always inlined, and a captured local
    // would be tested at run time.)
    let last_but_one = depth == 2;
    let steps = if !derive::<V>() {
        StepAttacks::default()
    } else {
        pos.step_attacks()
    };
    // Without the check rule and sliders, the board moves of each child follow from those
    // of the opponent here, counted once (see `Replies`).
    let replies = if replies_derivable::<V>() && last_but_one {
        pos.replies()
    } else {
        Replies::default()
    };
    // With the check rule and sliders, the moves of the opponent's plain steppers in each
    // child follow from those here, summed up once (see `StepperMoves`).
    // (An `Option`, so that a variant without them stores nothing here but its tag.)
    let stepped = (steppers_derivable::<V>() && last_but_one)
        .then(|| (pos.stepper_moves(), pos.slider_squares(pos.side_to_move())));
    let (us, enemy_king) = (pos.side_to_move(), pos.king(!pos.side_to_move()));
    let mut n = 0;
    generate_given(pos, known, |pos: &mut &mut Position<V>, bundle| {
        let (steppers, our_sliders): (StepperMoves, Bitboard) = stepped.unwrap_or_default();
        // The moves of the bundle, each made, counted and taken back, with no closure per
        // move, so that making the move and counting the last ply are inlined here.
        match bundle {
            Bundle::Board {
                from,
                kind,
                targets,
            } => {
                let occ = pos.occupied();
                for to in targets {
                    let (mut flip, last) = flip_range::<V>(kind, us, from, to, occ);
                    loop {
                        if unmade::<V>(last_but_one) {
                            let now = if flip {
                                V::FLIPS_TO[kind.index()]
                            } else {
                                kind
                            };
                            if V::no_adjudication_after(pos, Some(from), to, now) {
                                n += pos.count_replies_unmade(replies, Some(from), to, now);
                                if flip == last {
                                    break;
                                }
                                flip = true;
                                continue;
                            }
                        }
                        if quiet::<V>(last_but_one) && !occ.has(to) {
                            let now = if flip {
                                V::FLIPS_TO[kind.index()]
                            } else {
                                kind
                            };
                            if V::no_adjudication_after(pos, Some(from), to, now) {
                                let threats =
                                    steps.after::<V>(us, Some((from, kind)), to, now, enemy_king);
                                let sliders = slid::<V>(our_sliders.without(from), to, now);
                                let count = pos.count_replies_quiet(
                                    threats,
                                    sliders,
                                    steppers,
                                    Some(from),
                                    to,
                                    now,
                                );
                                if let Some(count) = count {
                                    n += count;
                                    if flip == last {
                                        break;
                                    }
                                    flip = true;
                                    continue;
                                }
                            }
                        }
                        let mv = Move::board(from, to, flip);
                        let undo = pos.make_unhashed(mv);
                        let threats = derive::<V>().then(|| {
                            let now = if flip {
                                V::FLIPS_TO[kind.index()]
                            } else {
                                kind
                            };
                            steps.after::<V>(us, Some((from, kind)), to, now, enemy_king)
                        });
                        n += if !last_but_one {
                            perft_interior(pos, depth - 1, threats)
                        } else if replies_derivable::<V>() {
                            let captured = undo.captured().map(|p| (to, p.kind));
                            pos.count_leaves_after(replies, captured)
                        } else if let (true, Some(threats)) = (steppers_derivable::<V>(), threats) {
                            let captured = undo.captured().map(|p| (to, p.kind));
                            let now = if flip {
                                V::FLIPS_TO[kind.index()]
                            } else {
                                kind
                            };
                            let sliders = slid::<V>(our_sliders.without(from), to, now);
                            pos.count_leaves_stepped(threats, sliders, steppers, captured)
                        } else {
                            pos.count_leaves_given(threats)
                        };
                        pos.unmake_inlined(mv, undo);
                        if flip == last {
                            break;
                        }
                        flip = true;
                    }
                }
            }
            Bundle::Drop { kind, targets } => {
                for to in targets {
                    if unmade::<V>(last_but_one) && V::no_adjudication_after(pos, None, to, kind) {
                        n += pos.count_replies_unmade(replies, None, to, kind);
                        continue;
                    }
                    if quiet::<V>(last_but_one) && V::no_adjudication_after(pos, None, to, kind) {
                        let threats = steps.after::<V>(us, None, to, kind, enemy_king);
                        let sliders = slid::<V>(our_sliders, to, kind);
                        let count =
                            pos.count_replies_quiet(threats, sliders, steppers, None, to, kind);
                        if let Some(count) = count {
                            n += count;
                            continue;
                        }
                    }
                    let mv = Move::drop(kind, to);
                    let undo = pos.make_unhashed(mv);
                    let threats =
                        derive::<V>().then(|| steps.after::<V>(us, None, to, kind, enemy_king));
                    n += if !last_but_one {
                        perft_interior(pos, depth - 1, threats)
                    } else if replies_derivable::<V>() {
                        pos.count_leaves_after(replies, None)
                    } else if let (true, Some(threats)) = (steppers_derivable::<V>(), threats) {
                        let sliders = slid::<V>(our_sliders, to, kind);
                        pos.count_leaves_stepped(threats, sliders, steppers, None)
                    } else {
                        pos.count_leaves_given(threats)
                    };
                    pos.unmake_inlined(mv, undo);
                }
            }
        }
        false
    });
    n
}

/// Whether perft may count the replies to a move at the last ply but one without making it
/// (see [`Position::count_replies_unmade`]), when [`Variant::no_adjudication_after`] agrees:
/// where the replies follow from the parent, and the drops need no drop limits.
#[inline(always)]
fn unmade<V: Variant>(last_but_one: bool) -> bool {
    replies_derivable::<V>() && !V::DROP_LIMITS && last_but_one
}

/// `sliders`, the pieces of a side whose kind slides, with a piece showing `now` arrived on
/// `to`.
#[inline(always)]
fn slid<V: Variant>(sliders: Bitboard, to: Square, now: Kind) -> Bitboard {
    if V::tables().sliders & (1 << now.index()) != 0 {
        sliders.with(to)
    } else {
        sliders
    }
}

/// Whether perft may count the replies to a move that captures nothing at the last ply but
/// one without making it (see [`Position::count_replies_quiet`]), when
/// [`Variant::no_adjudication_after`] agrees: where the moves of the plain steppers follow
/// from the parent.
#[inline(always)]
fn quiet<V: Variant>(last_but_one: bool) -> bool {
    steppers_derivable::<V>() && last_but_one
}

/// Whether perft derives the threats of the steps to each child from the parent (see
/// `StepAttacks`): with the check rule.
#[inline(always)]
const fn derive<V: Variant>() -> bool {
    V::CHECK_RULE
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
    if pos.royal_captured() || (V::HAS_ADJUDICATION && V::adjudicate(pos).is_some()) {
        return Some(0);
    }
    let mut n = 0;
    let stopped = generate_with(pos, |pos: &mut &mut Position<V>, bundle| {
        let mut stopped = false;
        expand_with(pos, bundle, |pos: &mut &mut Position<V>, mv| {
            if stopped {
                return;
            }
            let undo = pos.make_inlined(mv);
            match perft_until(pos, depth - 1, stop) {
                Some(k) => n += k,
                None => stopped = true,
            }
            pos.unmake_inlined(mv, undo);
        });
        stopped
    });
    (!stopped).then_some(n)
}

/// The fewest work items per thread that [`divide_interruptible`] aims for.
const ITEMS_PER_THREAD: usize = 256;

/// The fewest plies left below a work item: items this deep or deeper check the stop flag,
/// and are big enough that handing them out costs nothing in comparison.
const MIN_ITEM_DEPTH: u32 = 3;

/// The work list of [`divide_interruptible`].
struct WorkList<V: Variant> {
    /// The positions `split` plies below the root, each with the index of its root move.
    items: Vec<(usize, Position<V>)>,
    /// How many plies below the root the items are.
    split: u32,
}

/// The work list for perft of `depth` from `pos`, whose legal moves are `roots`: the positions
/// of the first ply with at least `target` of them (or of the deepest ply that leaves
/// [`MIN_ITEM_DEPTH`] plies to count). Positions without legal moves drop out on the way
/// down: their subtrees have no leaves.
fn work_list<V: Variant>(
    pos: &Position<V>,
    roots: &[Move],
    depth: u32,
    target: usize,
) -> WorkList<V> {
    let mut items: Vec<(usize, Position<V>)> = roots
        .iter()
        .enumerate()
        .map(|(i, &mv)| (i, pos.after(mv)))
        .collect();
    let mut split = 1;
    while items.len() < target && depth - split > MIN_ITEM_DEPTH {
        let mut deeper = Vec::with_capacity(items.len() * 8);
        for (root, p) in &items {
            for &mv in p.legal_moves().iter() {
                deeper.push((*root, p.after(mv)));
            }
        }
        items = deeper;
        split += 1;
    }
    WorkList { items, split }
}

/// [`divide`] computed by `threads` threads, which can be interrupted.
///
/// The work is split into hundreds or thousands of items, the positions a few plies below
/// the root (as deep as it takes to have 256 items per thread), which the threads take one
/// at a time from a shared counter, so that they stay busy to the end even when the subtrees
/// of the root moves differ widely in size. When `stop` becomes true the workers give up
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
    let threads = threads.max(1);
    let roots = pos.legal_moves();
    let list = work_list(pos, &roots, depth, ITEMS_PER_THREAD * threads);
    let next = AtomicUsize::new(0);
    let counts: Vec<AtomicU64> = roots.iter().map(|_| AtomicU64::new(0)).collect();
    let done: Vec<AtomicUsize> = roots.iter().map(|_| AtomicUsize::new(0)).collect();
    let work = || {
        while !stop.load(Ordering::Relaxed) {
            let j = next.fetch_add(1, Ordering::Relaxed);
            let Some(&(root, mut p)) = list.items.get(j) else {
                break;
            };
            if let Some(n) = perft_until(&mut p, depth - list.split, stop) {
                counts[root].fetch_add(n, Ordering::Relaxed);
                done[root].fetch_add(1, Ordering::Relaxed);
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(work);
        }
    });
    let mut per_root = vec![0usize; roots.len()];
    for &(root, _) in &list.items {
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

/// Nodes per second of `nodes` counted (or searched) in `elapsed`, rounded to the nearest
/// whole number (halves up); 0 when no time was measured, and `u64::MAX` when the rate is
/// beyond a `u64`. The one formula of the speeds the front ends print: perft reports and
/// suites, and the `nps` of the USI loop's `info` lines and of analyses.
pub fn nodes_per_second(nodes: u64, elapsed: std::time::Duration) -> u64 {
    let nanos = elapsed.as_nanos();
    if nanos == 0 {
        return 0;
    }
    // Both terms are below 2^95 (a `Duration` is below 2^64 seconds): no overflow.
    let nps = (u128::from(nodes) * 1_000_000_000 + nanos / 2) / nanos;
    u64::try_from(nps).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::nodes_per_second;
    use std::time::Duration;

    #[test]
    fn nodes_per_second_of_zero_time_is_zero() {
        assert_eq!(nodes_per_second(5, Duration::ZERO), 0);
        assert_eq!(nodes_per_second(0, Duration::ZERO), 0);
        assert_eq!(nodes_per_second(u64::MAX, Duration::ZERO), 0);
    }

    #[test]
    fn nodes_per_second_is_rounded_to_the_nearest() {
        assert_eq!(nodes_per_second(3, Duration::from_millis(1500)), 2);
        assert_eq!(nodes_per_second(0, Duration::from_secs(1)), 0);
        // 1000 nodes in half a millisecond.
        assert_eq!(
            nodes_per_second(1000, Duration::from_micros(500)),
            2_000_000
        );
        // 2 nodes in 1.5 ms: 1333.3; 21 in 400 ms: 52.5, a half, up; 1 in 3 s: 0.33.
        assert_eq!(nodes_per_second(2, Duration::from_micros(1500)), 1333);
        assert_eq!(nodes_per_second(21, Duration::from_millis(400)), 53);
        assert_eq!(nodes_per_second(1, Duration::from_secs(3)), 0);
        assert_eq!(nodes_per_second(2, Duration::from_secs(3)), 1);
    }

    #[test]
    fn huge_counts_and_times_do_not_overflow() {
        // 2^64 - 1 nodes in one second is exactly that rate.
        assert_eq!(nodes_per_second(u64::MAX, Duration::from_secs(1)), u64::MAX);
        // ... in a nanosecond, 10^9 times more: saturated.
        assert_eq!(
            nodes_per_second(u64::MAX, Duration::from_nanos(1)),
            u64::MAX
        );
        // A billion nodes in a millisecond: 10^12 a second.
        assert_eq!(
            nodes_per_second(1_000_000_000, Duration::from_millis(1)),
            1_000_000_000_000
        );
        // The longest duration there is.
        assert_eq!(nodes_per_second(u64::MAX, Duration::MAX), 1);
        assert_eq!(nodes_per_second(1, Duration::MAX), 0);
    }
}
