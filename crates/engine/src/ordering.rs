//! Move ordering: hash move, captures by most valuable victim / least valuable attacker,
//! the variant's tactical moves, killers, then the history heuristic.

use crate::bounds::MAX_PLY;
use crate::Evaluator;
use kshogi_core::Variant;
use kshogi_core::{Kind, Move, Position, Square, MAX_KINDS, MAX_SQUARES};

/// Ordering score of the hash move.
pub(crate) const HASH_MOVE: i32 = 4_000_000;
/// Base of capture scores.
pub(crate) const CAPTURE: i32 = 2_000_000;
/// Base of the scores of captures that lose material by static exchange evaluation, when
/// they are tried after the quiet moves (below every history score).
pub(crate) const BAD_CAPTURE: i32 = -2_000_000;
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

/// "No move" for the piece-to indices of continuation history (the root's predecessors, a
/// null move).
pub(crate) const NO_PIECE_TO: usize = usize::MAX;
/// Piece-to indices of a move without its colour: kind × square.
const PIECE_TO: usize = MAX_KINDS * MAX_SQUARES;

/// The piece-to index of a move by `color` of a piece of `kind` (the face it showed before
/// moving, or the dropped kind) to `to`, colour included (for the move a continuation
/// follows).
#[inline(always)]
pub(crate) fn piece_to(color: usize, kind: Kind, to: Square) -> usize {
    color * PIECE_TO + kind.index() * MAX_SQUARES + to.index()
}

/// The piece-to index (colour included) of `mv` in `pos`, before it is made.
#[inline(always)]
pub(crate) fn move_piece_to<V: Variant>(pos: &Position<V>, mv: Move) -> usize {
    let kind = match mv.from() {
        Some(f) => pos.piece_at(f).map_or(Kind(0), |p| p.kind),
        None => mv.drop_kind().unwrap_or(Kind(0)),
    };
    piece_to(pos.side_to_move().index(), kind, mv.to())
}

/// Killers, history and continuation history; survives between searches except where
/// cleared.
pub(crate) struct Tables {
    pub killers: [[Move; 2]; MAX_PLY + 1],
    history: Box<[[i32; 1 << 14]; 2]>,
    /// Continuation history: how good a quiet move (its piece-to index without colour) has
    /// been after a move (its piece-to index with colour), one or two plies before it.
    cont: Box<[i16]>,
}

impl Tables {
    pub fn new() -> Tables {
        Tables {
            killers: [[Move::NULL; 2]; MAX_PLY + 1],
            history: Box::new([[0; 1 << 14]; 2]),
            cont: vec![0; 2 * PIECE_TO * PIECE_TO].into_boxed_slice(),
        }
    }

    pub fn clear(&mut self) {
        self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
        for h in self.history.iter_mut() {
            h.fill(0);
        }
        self.cont.fill(0);
    }

    /// The continuation history of the quiet move `cur` (piece-to index with colour) after
    /// the move `prev`.
    #[inline(always)]
    pub fn cont(&self, prev: usize, cur: usize) -> i32 {
        if prev == NO_PIECE_TO {
            0
        } else {
            i32::from(self.cont[prev * PIECE_TO + cur % PIECE_TO])
        }
    }

    /// Rewards the quiet move `best` after each of `prevs` and punishes the other quiets
    /// tried before it (all piece-to indices with colour).
    #[inline]
    pub fn reward_cont(&mut self, prevs: [usize; 2], best: usize, tried: &[usize], depth: i32) {
        let bonus = (depth * depth).min(400);
        for prev in prevs {
            if prev == NO_PIECE_TO {
                continue;
            }
            let row = &mut self.cont[prev * PIECE_TO..(prev + 1) * PIECE_TO];
            let upd = |v: &mut i16, b: i32| {
                let x = i32::from(*v);
                let x = (x + b - x * b.abs() / HISTORY_MAX).clamp(-HISTORY_MAX, HISTORY_MAX);
                *v = x as i16;
            };
            upd(&mut row[best % PIECE_TO], bonus);
            for &t in tried {
                if t != best {
                    upd(&mut row[t % PIECE_TO], -bonus);
                }
            }
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
    prevs: [usize; 2],
) -> i32 {
    if mv == hash_move {
        HASH_MOVE
    } else if is_capture(pos, mv) {
        let s = capture_score::<V, E>(pos, mv);
        if E::switches().see_ordering && crate::see::see::<V, E>(pos, mv) < 0 {
            s - CAPTURE + BAD_CAPTURE
        } else {
            s
        }
    } else if E::is_tactical(pos, mv) {
        TACTICAL
    } else if mv == tables.killers[ply][0] {
        KILLER[0]
    } else if mv == tables.killers[ply][1] {
        KILLER[1]
    } else if E::switches().continuation_history {
        let pt = move_piece_to(pos, mv);
        tables.history(pos.side_to_move().index(), mv)
            + tables.cont(prevs[0], pt)
            + tables.cont(prevs[1], pt)
    } else {
        tables.history(pos.side_to_move().index(), mv)
    }
}

/// Moves the best-scored move of `moves[i..]` (by `scores`) to index `i`.
#[inline(always)]
pub(crate) fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) {
    let Some((&first, rest)) = scores.get(i..).and_then(|t| t.split_first()) else {
        return;
    };
    // The first of the best scores, as a selection sort takes it (iterators, so that the
    // inner loop of every node has no bounds checks).
    let mut best = i;
    let mut top = first;
    for (j, &s) in rest.iter().enumerate() {
        if s > top {
            top = s;
            best = i + 1 + j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
}
