//! Move ordering: hash move, captures by most valuable victim / least valuable attacker,
//! the variant's tactical moves, killers, then the history heuristic.

use crate::search::MAX_PLY;
use crate::Evaluator;
use kshogi_core::Variant;
use kshogi_core::{Move, Position};

/// Ordering score of the hash move.
pub(crate) const HASH_MOVE: i32 = 4_000_000;
/// Base of capture scores.
pub(crate) const CAPTURE: i32 = 2_000_000;
/// Score of tactical non-captures (promotions, entry moves).
pub(crate) const TACTICAL: i32 = 1_500_000;
/// Scores of the two killers.
pub(crate) const KILLER: [i32; 2] = [1_000_000, 990_000];
/// History scores stay within `-HISTORY_MAX..=HISTORY_MAX`.
const HISTORY_MAX: i32 = 1 << 14;

/// Index of a move in the history table (its 14 meaningful bits).
#[inline(always)]
fn hindex(mv: Move) -> usize {
    (mv.bits() & 0x3FFF) as usize
}

/// Killers and history; survives between searches except where cleared.
pub(crate) struct Tables {
    pub killers: [[Move; 2]; MAX_PLY + 1],
    history: Box<[[i32; 1 << 14]; 2]>,
}

impl Tables {
    pub fn new() -> Tables {
        Tables {
            killers: [[Move::NULL; 2]; MAX_PLY + 1],
            history: Box::new([[0; 1 << 14]; 2]),
        }
    }

    pub fn clear(&mut self) {
        self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
        for h in self.history.iter_mut() {
            h.fill(0);
        }
    }

    /// History value of a quiet move for the side `color` (0 or 1).
    #[inline(always)]
    pub fn history(&self, color: usize, mv: Move) -> i32 {
        self.history[color][hindex(mv)]
    }

    /// Rewards a quiet move that caused a cutoff and punishes the quiets tried before it.
    #[inline]
    pub fn reward(&mut self, color: usize, ply: usize, mv: Move, depth: i32, tried: &[Move]) {
        let bonus = (depth * depth).min(400);
        let h = &mut self.history[color];
        let upd = |v: &mut i32, b: i32| {
            *v += b - *v * b.abs() / HISTORY_MAX;
            *v = (*v).clamp(-HISTORY_MAX, HISTORY_MAX);
        };
        upd(&mut h[hindex(mv)], bonus);
        for &m in tried {
            if m != mv {
                upd(&mut h[hindex(m)], -bonus);
            }
        }
        let k = &mut self.killers[ply];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
    }
}

/// Whether `mv` captures in `pos`.
#[inline(always)]
pub(crate) fn is_capture<V: Variant>(pos: &Position<V>, mv: Move) -> bool {
    !mv.is_drop() && pos.piece_at(mv.to()).is_some()
}

/// The ordering score of a capture: victim value first, then the cheaper attacker.
#[inline(always)]
pub(crate) fn capture_score<V: Variant, E: Evaluator<V>>(pos: &Position<V>, mv: Move) -> i32 {
    let victim = pos.piece_at(mv.to()).map_or(0, |p| E::piece_value(p.kind));
    let attacker = mv
        .from()
        .and_then(|f| pos.piece_at(f))
        .map_or(0, |p| E::piece_value(p.kind));
    CAPTURE + victim * 16 - attacker
}

/// Ordering score of any move at a full-width node.
#[inline(always)]
pub(crate) fn score_move<V: Variant, E: Evaluator<V>>(
    pos: &Position<V>,
    tables: &Tables,
    ply: usize,
    mv: Move,
    hash_move: Move,
) -> i32 {
    if mv == hash_move {
        HASH_MOVE
    } else if is_capture(pos, mv) {
        capture_score::<V, E>(pos, mv)
    } else if E::is_tactical(pos, mv) {
        TACTICAL
    } else if mv == tables.killers[ply][0] {
        KILLER[0]
    } else if mv == tables.killers[ply][1] {
        KILLER[1]
    } else {
        tables.history(pos.side_to_move().index(), mv)
    }
}

/// Moves the best-scored move of `moves[i..]` (by `scores`) to index `i`.
#[inline(always)]
pub(crate) fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
}
