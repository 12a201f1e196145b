//! Iterative deepening, principal-variation search, quiescence search and the root.

use crate::bounds::{INF, MATE, MATE_BOUND, MAX_PLY};
use crate::ordering::{self, is_capture};
use crate::tt::{Bound, Table};
use crate::{Evaluator, Info, Limits, Line, Score, SearchResult, SearchTuning};
use kshogi_core::Variant;
use kshogi_core::{Bundle, Color, Game, Move, Outcome, Position, MAX_MOVES};
use std::any::Any;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

/// The score of a draw.
const DRAW: i32 = 0;
/// Deepest iteration.
pub(crate) const MAX_DEPTH: u32 = 100;
/// Stride of the triangular PV array.
const W: usize = MAX_PLY + 1;
// Which selective techniques are on is the evaluator's `SEARCH` (`SearchParams`, read through
// `Evaluator::switches`): each is on by default only once a self-play SPRT has accepted it,
// and an evaluator turns one on or off for its variant when the SPRTs differ by variant
// (docs/strength.md, "Search changes", has every result). The techniques' numeric parameters are a `SearchTuning` (tuning.rs),
// copied into each searcher and read as plain fields.

/// A score in the public form.
pub(crate) fn to_score(s: i32) -> Score {
    if s >= MATE_BOUND {
        Score::Mate(MATE - s)
    } else if s <= -MATE_BOUND {
        Score::Mate(-(MATE + s))
    } else {
        Score::Cp(s)
    }
}

/// The score of a finished game for the side `stm` to move at `ply`, a draw scored by
/// `contempt` ([`draw_score`]).
#[inline(always)]
fn outcome_score(o: Outcome, stm: Color, ply: usize, contempt: i32) -> i32 {
    match o {
        Outcome::Win { winner, .. } if winner == stm => MATE - ply as i32,
        Outcome::Win { .. } => -(MATE - ply as i32),
        Outcome::Draw { .. } => draw_score(contempt, ply),
    }
}

/// The score of a draw for the side to move at `ply` under `contempt`
/// ([`SearchTuning::contempt`]): below zero for the root's side to move (even plies), above
/// for its opponent.
#[inline(always)]
fn draw_score(contempt: i32, ply: usize) -> i32 {
    if ply % 2 == 0 {
        DRAW - contempt
    } else {
        DRAW + contempt
    }
}

/// Buffers and tables that live as long as the engine, so that a search allocates nothing
/// per node.
pub(crate) struct State {
    ord: ordering::Tables,
    /// Move lists of every ply: ply `p` uses `moves[p * MAX_MOVES..]`.
    moves: Vec<Move>,
    /// Ordering scores, parallel to `moves`.
    scores: Vec<i32>,
    /// Triangular PV array: the line from ply `p` is `pv[p * W + p..p * W + pv_len[p]]`.
    pv: Vec<Move>,
    pv_len: [usize; W],
    /// Hashes of the game's positions from its start, then of the search path.
    keys: Vec<u64>,
    /// Whether the side to move was in check in each position of `keys`.
    checks: Vec<bool>,
    /// Quiet moves tried at each ply (for the history malus).
    quiets: Vec<Move>,
    /// For each ply, the index in `keys` of the position after the last null move of the
    /// path (0 when none): repetitions are not looked for across a null move, and no null
    /// move follows another.
    null_floor: [usize; W],
    /// The piece-to index of the move made at each ply of the path (continuation history;
    /// [`ordering::NO_PIECE_TO`] for a null move).
    piece_to: [usize; W],
    /// Late move reductions by depth and move number, both capped at 63 (see
    /// [`crate::SearchParams::log_reductions`]), made from `lmr_params`.
    lmr: Box<[[u8; 64]; 64]>,
    /// The `(lmr_base, lmr_divisor)` of [`SearchTuning`] that `lmr` was made from.
    lmr_params: (i32, i32),
    /// The static evaluation at each ply of the path (`-INF` where the side to move was in
    /// check or none was computed), for the improving test.
    evals: [i32; W],
    /// The move a singular-extension search at each ply leaves out ([`Move::NULL`] for
    /// none).
    excluded: [Move; W],
    /// The evaluator's state for this thread ([`crate::Evaluator::new_state`]).
    eval: Box<dyn Any + Send>,
    /// Correction history (see [`crate::SearchParams::correction_history`]): for each of
    /// the two keys of [`correction_keys`] and each side to move, a correction of the static
    /// evaluation in eighths of a centipawn.
    corr: Box<[[[i16; CORR_SIZE]; 2]; 2]>,
}

/// Entries of each correction table (a power of two).
const CORR_SIZE: usize = 1 << 14;
/// The largest correction an entry holds, eighths of a centipawn (128 cp).
const CORR_LIMIT: i32 = 1024;

/// The two correction-history indices of a position: its hands (both sides'), and the
/// squares each side occupies.
#[inline(always)]
fn correction_keys<V: Variant>(pos: &Position<V>) -> [usize; 2] {
    const M1: u64 = 0x9E37_79B9_7F4A_7C15;
    const M2: u64 = 0xC2B2_AE3D_27D4_EB4F;
    let b = u64::from_le_bytes(pos.hand_counts(Color::Black));
    let w = u64::from_le_bytes(pos.hand_counts(Color::White));
    let hands = (b.wrapping_mul(M1) ^ w.wrapping_mul(M2).rotate_left(29)).wrapping_mul(M1);
    let occ = (pos.color_bb(Color::Black).0.wrapping_mul(M2)
        ^ pos
            .color_bb(Color::White)
            .0
            .wrapping_mul(M1)
            .rotate_left(31))
    .wrapping_mul(M2);
    let shift = 64 - CORR_SIZE.trailing_zeros();
    [(hands >> shift) as usize, (occ >> shift) as usize]
}

/// Quiet moves remembered per node for the history malus.
const QUIETS: usize = 64;

impl State {
    pub fn new(eval: Box<dyn Any + Send>, tuning: &SearchTuning) -> Box<State> {
        let mut s = Box::new(State {
            eval,
            ord: ordering::Tables::new(),
            moves: vec![Move::NULL; W * MAX_MOVES],
            scores: vec![0; W * MAX_MOVES],
            pv: vec![Move::NULL; W * W],
            pv_len: [0; W],
            keys: Vec::new(),
            checks: Vec::new(),
            quiets: vec![Move::NULL; W * QUIETS],
            null_floor: [0; W],
            piece_to: [ordering::NO_PIECE_TO; W],
            evals: [-INF; W],
            excluded: [Move::NULL; W],
            lmr: Box::new([[0; 64]; 64]),
            lmr_params: (0, 0),
            corr: Box::new([[[0; CORR_SIZE]; 2]; 2]),
        });
        s.set_lmr(tuning);
        s
    }

    /// Makes the late move reductions' table for `tuning` unless it is made already (a
    /// search calls it before it starts, never per node).
    pub fn set_lmr(&mut self, tuning: &SearchTuning) {
        let params = (tuning.lmr_base, tuning.lmr_divisor);
        if params == self.lmr_params {
            return;
        }
        self.lmr_params = params;
        let base = f64::from(params.0) / 100.0;
        let divisor = f64::from(params.1) / 100.0;
        for (d, row) in self.lmr.iter_mut().enumerate() {
            for (i, r) in row.iter_mut().enumerate() {
                *r = if d == 0 || i == 0 {
                    0
                } else {
                    let x = base + (d as f64).ln() * (i as f64).ln() / divisor;
                    x.clamp(0.0, 63.0) as u8
                };
            }
        }
    }

    pub fn clear(&mut self) {
        self.ord.clear();
        for t in self.corr.iter_mut().flatten() {
            t.fill(0);
        }
    }

    /// `eval` corrected by the correction history at `keys` for the side `stm`, kept
    /// short of the mate scores.
    #[inline(always)]
    fn corrected(&self, eval: i32, stm: usize, keys: [usize; 2], weight: i32) -> i32 {
        let sum = i32::from(self.corr[0][stm][keys[0]]) + i32::from(self.corr[1][stm][keys[1]]);
        (eval + sum * weight / 1600).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Moves the corrections at `keys` towards `diff` (the search's result minus the static
    /// evaluation, centipawns), the more the deeper the search.
    #[inline(always)]
    fn learn_correction(&mut self, stm: usize, keys: [usize; 2], diff: i32, depth: i32) {
        let bonus = (diff * depth).clamp(-CORR_LIMIT / 4, CORR_LIMIT / 4);
        for (table, &k) in self.corr.iter_mut().zip(&keys) {
            let e = &mut table[stm][k];
            let v = i32::from(*e);
            *e = (v + bonus - v * bonus.abs() / CORR_LIMIT) as i16;
        }
    }
}

/// What the move loop learns of one move before making it: whether it gives check and its
/// static exchange value, each computed on first use and kept, since the pruning tests and
/// the check extension may all ask.
#[derive(Default)]
struct MoveFacts {
    check: Option<bool>,
    see: Option<i32>,
}

impl MoveFacts {
    #[inline(always)]
    fn gives_check<V: Variant>(&mut self, pos: &Position<V>, mv: Move) -> bool {
        *self.check.get_or_insert_with(|| pos.gives_check(mv))
    }

    #[inline(always)]
    fn see<V: Variant, E: Evaluator<V>>(&mut self, pos: &Position<V>, mv: Move) -> i32 {
        *self
            .see
            .get_or_insert_with(|| crate::see::see::<V, E>(pos, mv))
    }
}

/// A root move and what the iterations learnt of it.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    /// Score of the current iteration (`-INF` until searched, a bound after a fail-low).
    score: i32,
    /// Score of the last completed iteration (aspiration centre).
    prev: i32,
    /// Whether `score` is exact (searched to the end inside the window).
    exact: bool,
    pv: Vec<Move>,
    seldepth: usize,
}

/// One search.
struct Searcher<'a, V: Variant, E: Evaluator<V>> {
    /// The numeric parameters of the selective techniques.
    tn: SearchTuning,
    tt: &'a Table,
    st: &'a mut State,
    root_index: usize,
    root_depth: i32,
    nodes: u64,
    seldepth: usize,
    stop: &'a AtomicBool,
    aborted: bool,
    can_abort: bool,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    /// No null move above this ply (set during a null-move verification search).
    nmp_min_ply: usize,
    /// Lazy SMP: the nodes all threads have counted so far, each adding its count in steps
    /// of 1024 (and a helper the rest when it stops).
    shared_nodes: &'a AtomicU64,
    /// Whether this searcher is a helper thread rather than the main one.
    helper: bool,
    /// The other threads' nodes at this thread's last step of 1024.
    others: u64,
    _v: core::marker::PhantomData<(V, E)>,
}

impl<V: Variant, E: Evaluator<V>> Searcher<'_, V, E> {
    #[inline(always)]
    fn count_node(&mut self, ply: usize) {
        self.nodes += 1;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.nodes & 1023 == 0 {
            let total = self.shared_nodes.fetch_add(1024, AtomicOrdering::Relaxed) + 1024;
            self.others = total - self.nodes;
            // A helper stops itself once the threads together reach the node limit, so that
            // the total stays bounded even while the main thread is not running.
            if self.helper && self.node_limit.is_some_and(|l| total >= l) {
                self.aborted = true;
                return;
            }
        }
        if !self.can_abort {
            return;
        }
        if let Some(limit) = self.node_limit {
            if self.nodes + self.others >= limit {
                self.aborted = true;
                return;
            }
        }
        if self.nodes & 1023 == 0
            && (self.stop.load(AtomicOrdering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
    }

    /// The static evaluation `raw` of `pos` corrected by the correction history at `keys`
    /// (the position's [`correction_keys`]), for its side to move.
    #[inline(always)]
    fn corrected_eval(&self, pos: &Position<V>, raw: i32, keys: [usize; 2]) -> i32 {
        let stm = pos.side_to_move().index();
        self.st.corrected(raw, stm, keys, self.tn.correction_weight)
    }

    /// Nodes of every thread of the search (the helpers' counted to the last 1024).
    fn total_nodes(&self) -> u64 {
        self.shared_nodes.load(AtomicOrdering::Relaxed) - (self.nodes & !1023) + self.nodes
    }

    /// One iteration's search of the root line `pv_idx` with an aspiration window around
    /// the last iteration's score, widened until the score falls inside it (or the search
    /// is stopped).
    fn aspiration(
        &mut self,
        pos: &mut Position<V>,
        depth: i32,
        pv_idx: usize,
        rms: &mut [RootMove],
    ) {
        let prev = rms[pv_idx].prev;
        let mut delta = self.tn.aspiration_delta;
        let (mut alpha, mut beta) = if depth >= self.tn.aspiration_depth && prev.abs() < MATE_BOUND
        {
            ((prev - delta).max(-INF), (prev + delta).min(INF))
        } else {
            (-INF, INF)
        };
        loop {
            let score = self.root_search(pos, depth, alpha, beta, pv_idx, rms);
            rms[pv_idx..].sort_by_key(|rm| -rm.score);
            if self.aborted {
                break;
            }
            if score <= alpha && alpha > -INF {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
            } else if score >= beta && beta < INF {
                beta = (score + delta).min(INF);
            } else {
                break;
            }
            delta += delta;
            if delta > 600 || alpha.abs() >= MATE_BOUND || beta.abs() >= MATE_BOUND {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// A Lazy SMP helper thread: iterative deepening of the best line only, sharing the
    /// transposition table with the main thread, until `stop` (set by the main thread when
    /// it is done). Odd helpers search one ply deeper than even ones, so that the threads
    /// do not all walk the same tree in step. Nothing a helper finds is reported: it helps
    /// through the table (moves to try first, bounds that cut).
    fn help(&mut self, pos: &mut Position<V>, rms: &mut [RootMove], max_depth: u32, id: usize) {
        E::on_root(&mut *self.st.eval, pos);
        let first = 1 + (id & 1) as u32;
        for depth in first..=max_depth.max(first) {
            self.root_depth = depth as i32;
            self.seldepth = 0;
            self.aspiration(pos, depth as i32, 0, rms);
            if self.aborted {
                break;
            }
            for rm in rms.iter_mut() {
                rm.prev = rm.score;
            }
        }
        self.shared_nodes
            .fetch_add(self.nodes & 1023, AtomicOrdering::Relaxed);
    }

    /// The repetition verdict for the position at `idx` (ply `ply`), if the line ends here:
    /// a repetition inside the search path (root included), or the variant's occurrence
    /// count reached with the game's history.
    #[inline]
    fn repetition(&self, idx: usize, ply: usize) -> Option<i32> {
        let keys = &self.st.keys;
        let key = keys[idx];
        let rule = V::REPETITION;
        let mut count = 1;
        let mut j = idx;
        let mut first = None;
        let floor = self.st.null_floor[ply];
        while j >= floor + 2 {
            j -= 2;
            if keys[j] == key {
                if j >= self.root_index {
                    return Some(self.cycle_verdict(j, idx, ply));
                }
                count += 1;
                first = Some(j);
            }
        }
        match first {
            Some(f) if count >= rule.occurrences as usize => Some(self.cycle_verdict(f, idx, ply)),
            _ => None,
        }
    }

    /// The result of the cycle from position `from` to position `to` (same position, same
    /// side to move): a draw, or with the perpetual-check rule a loss for the side all of
    /// whose moves in the cycle gave check (if only one side did), or where the side
    /// completing the repetition loses, a win for the side to move at `to`.
    fn cycle_verdict(&self, from: usize, to: usize, ply: usize) -> i32 {
        // The side to move at `to` did not complete the cycle.
        let otherwise = if V::REPETITION.repeater_loses {
            MATE - ply as i32
        } else {
            draw_score(self.tn.contempt, ply)
        };
        if !V::REPETITION.perpetual_check_loses {
            return otherwise;
        }
        // Move k leads from position k to k + 1 and gave check iff checks[k + 1]. Moves
        // from + 0, 2, ... are by the side to move at `to`; the others by its opponent.
        let mut mover_checks = true;
        let mut opponent_checks = true;
        for k in from..to {
            let check = self.st.checks[k + 1];
            if (k - from) % 2 == 0 {
                mover_checks &= check;
            } else {
                opponent_checks &= check;
            }
        }
        match (mover_checks, opponent_checks) {
            (true, false) => -(MATE - ply as i32),
            (false, true) => MATE - ply as i32,
            _ => otherwise,
        }
    }

    /// Writes the moves of `pos` into the buffer of `ply`; returns how many.
    #[inline(always)]
    fn generate_all(&mut self, pos: &Position<V>, ply: usize) -> usize {
        let buf = &mut self.st.moves[ply * MAX_MOVES..(ply + 1) * MAX_MOVES];
        let mut n = 0;
        pos.generate_unadjudicated(|b| {
            pos.expand(b, |m| {
                buf[n] = m;
                n += 1;
            });
            false
        });
        n
    }

    /// Writes the captures and tactical moves of `pos` into the buffer of `ply`; returns how
    /// many, and whether the side to move has any legal move at all.
    #[inline(always)]
    fn generate_tactical(&mut self, pos: &Position<V>, ply: usize) -> (usize, bool) {
        let buf = &mut self.st.moves[ply * MAX_MOVES..(ply + 1) * MAX_MOVES];
        let mut n = 0;
        let mut any = false;
        let enemy = pos.color_bb(!pos.side_to_move());
        pos.generate_unadjudicated(|b| {
            any = true;
            if let Bundle::Board { .. } = b {
                pos.expand(b, |m| {
                    if enemy.has(m.to()) || E::is_tactical(pos, m) {
                        buf[n] = m;
                        n += 1;
                    }
                });
            }
            false
        });
        (n, any)
    }

    #[inline(always)]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.st.pv_len[ply + 1].max(ply + 1);
        self.st.pv[ply * W + ply] = mv;
        for j in ply + 1..child_len {
            self.st.pv[ply * W + j] = self.st.pv[(ply + 1) * W + j];
        }
        self.st.pv_len[ply] = child_len;
    }

    /// Makes `mv` and records the new position in the path; returns the undo and whether
    /// the move gave check.
    #[inline(always)]
    fn make(
        &mut self,
        pos: &mut Position<V>,
        mv: Move,
        ply: usize,
    ) -> (kshogi_core::Undo<V>, bool) {
        if E::switches().continuation_history {
            self.st.piece_to[ply] = ordering::move_piece_to(pos, mv);
        }
        E::on_make(&mut *self.st.eval, pos, mv, ply);
        let undo = pos.make(mv);
        let check = pos.in_check();
        let idx = self.root_index + ply + 1;
        self.st.keys[idx] = pos.hash();
        self.st.checks[idx] = check;
        self.st.null_floor[ply + 1] = self.st.null_floor[ply];
        (undo, check)
    }

    /// Whether null-move pruning may be tried at `ply` (position `idx`): not right after a
    /// null move, not inside a verification search, and only when the side to move has
    /// something besides its king (on the board or in hand), where zugzwang is likeliest.
    #[inline(always)]
    fn null_allowed(&self, pos: &Position<V>, idx: usize, ply: usize) -> bool {
        if self.st.null_floor[ply] == idx || ply < self.nmp_min_ply {
            return false;
        }
        let us = pos.side_to_move();
        let others = pos.color_bb(us).count() > 1;
        others || pos.hand_counts(us).iter().any(|&n| n > 0)
    }

    /// The full-width search of a node below the root. `cut_node` says whether the node is
    /// expected to fail high (a null-window node whose parent expects it to refute the move;
    /// used only by the reductions).
    fn negamax(
        &mut self,
        pos: &mut Position<V>,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        self.st.pv_len[ply] = ply;
        let pv_node = beta - alpha > 1;
        let idx = self.root_index + ply;
        if let Some(s) = self.repetition(idx, ply) {
            return s;
        }
        if V::HAS_ADJUDICATION {
            if let Some(o) = V::adjudicate(pos) {
                return outcome_score(o, pos.side_to_move(), ply, self.tn.contempt);
            }
        }
        // Mate-distance pruning: nothing here beats a mate at the next ply or loses faster
        // than being mated now.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let in_check = self.st.checks[idx];
        let depth = if E::switches().check_extension
            && in_check
            && (ply as i32) < 2 * self.root_depth + 4
        {
            depth + 1
        } else {
            depth
        };
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.qsearch(pos, alpha, beta, ply, true);
        }
        self.count_node(ply);

        if self.aborted {
            return 0;
        }

        let key = pos.hash();
        let sp = E::switches();
        // In a singular-extension search the node is searched without one move: the table
        // (which knows the node with all its moves) is neither used nor written.
        let excluded = if sp.singular_extension {
            self.st.excluded[ply]
        } else {
            Move::NULL
        };
        let mut hash_move = Move::NULL;
        let mut tt_hit = None;
        if excluded == Move::NULL {
            if let Some(hit) = self.tt.probe(key, ply) {
                hash_move = hit.mv;
                if !pv_node && hit.depth >= depth && hit.cuts(alpha, beta) {
                    return hit.score;
                }
                tt_hit = Some(hit);
            }
        }

        // Internal iterative reduction: a node the table knows no move for is searched a
        // ply shallower (its move ordering is poor, and the next iteration comes back).
        let depth = if sp.iir
            && hash_move == Move::NULL
            && excluded == Move::NULL
            && depth >= self.tn.iir_depth
        {
            depth - 1
        } else {
            depth
        };
        // The static evaluation, only when a pruning that needs it is on.
        let corr_keys = if sp.correction_history && !in_check {
            correction_keys(pos)
        } else {
            [0; 2]
        };
        let static_eval =
            if in_check || !(sp.reverse_futility || sp.null_move || sp.futility || sp.improving) {
                -INF
            } else {
                let raw = E::evaluate_at(&mut *self.st.eval, pos, ply);
                if sp.correction_history {
                    self.corrected_eval(pos, raw, corr_keys)
                } else {
                    raw
                }
            };
        self.st.evals[ply] = static_eval;
        // The table's score, where its bound says the truth lies beyond the evaluation.
        let pruning_eval = match tt_hit {
            Some(h) if sp.tt_eval && static_eval > -INF && h.score.abs() < MATE_BOUND => {
                let better = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score > static_eval,
                    Bound::Upper => h.score < static_eval,
                };
                if better {
                    h.score
                } else {
                    static_eval
                }
            }
            _ => static_eval,
        };
        // Improving: the evaluation rose since the same side last moved (or, if it was in
        // check then, since the time before).
        let improving = sp.improving
            && !in_check
            && if ply >= 2 && self.st.evals[ply - 2] > -INF {
                static_eval > self.st.evals[ply - 2]
            } else if ply >= 4 && self.st.evals[ply - 4] > -INF {
                static_eval > self.st.evals[ply - 4]
            } else {
                true
            };
        // Mate scores are never pruned for: nothing below is tried when beta is one.
        let prunable = !pv_node
            && !in_check
            && beta.abs() < MATE_BOUND.min(self.tn.prune_beta_limit)
            && excluded == Move::NULL;

        // Reverse futility pruning: at low depth a static evaluation far above beta holds.
        if sp.reverse_futility
            && prunable
            && depth <= self.tn.rfp_depth
            && static_eval - self.tn.rfp_margin * depth >= beta
        {
            return static_eval;
        }

        // Null-move pruning: if passing still holds beta in a shallower search, a move will.
        // Drop games have little zugzwang: a piece in hand is almost always a useful move.
        if sp.null_move
            && prunable
            && depth >= 2
            && static_eval >= beta
            && self.null_allowed(pos, idx, ply)
        {
            let r = self.tn.null_base
                + depth / self.tn.null_depth_div
                + ((static_eval - beta) / self.tn.null_eval_div).min(2);
            self.st.piece_to[ply] = ordering::NO_PIECE_TO;
            E::on_null_move(&mut *self.st.eval, ply);
            pos.make_null();
            self.st.keys[idx + 1] = pos.hash();
            self.st.checks[idx + 1] = false;
            self.st.null_floor[ply + 1] = idx + 1;
            let score = -self.negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, !cut_node);
            pos.unmake_null();
            if self.aborted {
                return 0;
            }
            if score >= beta {
                let score = if score >= MATE_BOUND { beta } else { score };
                if depth < self.tn.null_verify_depth {
                    return score;
                }
                // Deep: verify with a reduced search of this node without null moves near it.
                let saved = self.nmp_min_ply;
                self.nmp_min_ply = ply + (3 * (depth - r) / 4).max(1) as usize;
                let v = self.negamax(pos, depth - r, beta - 1, beta, ply, false);
                self.nmp_min_ply = saved;
                if self.aborted {
                    return 0;
                }
                if v >= beta {
                    return score;
                }
            }
        }

        // The singular extension: the hash move is searched a ply deeper when no other move
        // comes near its stored lower bound in a search of half the depth. Decided before
        // this node's moves are generated, since that search uses the same move buffer.
        let mut singular = false;
        if let Some(h) = tt_hit {
            if sp.singular_extension
                && hash_move != Move::NULL
                && depth >= self.tn.singular_depth
                && h.depth >= depth - 3
                && h.bound != Bound::Upper
                && h.score.abs() < MATE_BOUND
                && (ply as i32) < 2 * self.root_depth + 4
            {
                let s_beta = h.score - self.tn.singular_margin * depth;
                self.st.excluded[ply] = hash_move;
                let v = self.negamax(pos, (depth - 1) / 2, s_beta - 1, s_beta, ply, cut_node);
                self.st.excluded[ply] = Move::NULL;
                if self.aborted {
                    return 0;
                }
                if v < s_beta {
                    singular = true;
                } else if s_beta >= beta {
                    // Multi-cut: without its best move the node still fails high.
                    return s_beta;
                }
                self.st.pv_len[ply] = ply;
            }
        }

        let n = self.generate_all(pos, ply);
        if n == 0 {
            return outcome_score(
                pos.no_move_outcome(),
                pos.side_to_move(),
                ply,
                self.tn.contempt,
            );
        }
        // The moves one and two plies before, for continuation history.
        let prevs = if sp.continuation_history {
            let back = |k: usize| {
                if ply >= k {
                    self.st.piece_to[ply - k]
                } else {
                    ordering::NO_PIECE_TO
                }
            };
            [back(1), back(2)]
        } else {
            [ordering::NO_PIECE_TO; 2]
        };
        let base = ply * MAX_MOVES;
        for i in 0..n {
            let mv = self.st.moves[base + i];
            self.st.scores[base + i] =
                ordering::score_move::<V, E>(pos, &self.st.ord, ply, mv, hash_move, prevs);
        }

        let stm = pos.side_to_move().index();
        let killers = self.st.ord.killers[ply];
        let mut best = -INF;
        let mut best_move = Move::NULL;
        let mut nq = 0;
        // Quiet moves searched or skipped so far (for late move pruning).
        let mut quiets_seen = 0;
        let orig_alpha = alpha;
        // Futility and late move pruning skip quiet moves at shallow non-PV nodes, once a
        // move has been searched and a line that is not mated exists.
        let shallow_prunable = !pv_node && !in_check;
        // Futility prunes on the static evaluation too: not where beta says the game is
        // decided (a quiet move there may start the mate). The default limit, above every
        // score, never stops it.
        let futile = sp.futility
            && shallow_prunable
            && beta.abs() < self.tn.prune_beta_limit
            && depth <= self.tn.futility_depth
            && pruning_eval + self.tn.futility_margin * depth <= alpha;
        let lmp_count = if sp.late_move_pruning && shallow_prunable && depth <= self.tn.lmp_depth {
            if sp.improving && !improving {
                (self.tn.lmp_base + depth * depth) / 2
            } else {
                self.tn.lmp_base + depth * depth
            }
        } else {
            i32::MAX
        };
        for i in 0..n {
            ordering::pick(
                &mut self.st.moves[base..base + n],
                &mut self.st.scores[base..base + n],
                i,
            );
            let mv = self.st.moves[base + i];
            if mv == excluded {
                continue;
            }
            let quiet = !is_capture(pos, mv) && !E::is_tactical(pos, mv);
            // The check test and the static exchange, each computed at most once a move.
            let mut facts = MoveFacts::default();
            // Whether the move loses too much by static exchange.
            let see_losing = sp.see_pruning
                && shallow_prunable
                && i > 0
                && depth <= self.tn.see_depth
                && best > -MATE_BOUND
                && facts.see::<V, E>(pos, mv)
                    < if quiet {
                        -self.tn.see_quiet_margin * depth * depth
                    } else {
                        -self.tn.see_capture_margin * depth
                    };
            // A move to skip is skipped before it is made, once the move generator's
            // check test says it gives no check.
            if see_losing && !facts.gives_check(pos, mv) {
                if quiet {
                    quiets_seen += 1;
                }
                continue;
            }
            // The ordering score of a quiet move that is not a killer is its history.
            let history = self.st.scores[base + i];
            if quiet {
                quiets_seen += 1;
                let bad_history = sp.history_pruning
                    && shallow_prunable
                    && depth <= self.tn.history_prune_depth
                    && history < -self.tn.history_prune_margin * depth;
                if i > 0
                    && best > -MATE_BOUND
                    && (futile || quiets_seen > lmp_count || bad_history)
                    && (!facts.gives_check(pos, mv)
                        || (sp.prune_unsafe_checks && facts.see::<V, E>(pos, mv) < 0))
                {
                    continue;
                }
            }
            // The safe check extension: a check that does not lose material by static
            // exchange is searched a ply deeper (decided before the move is made).
            let mut extend = sp.safe_check_extension
                && (ply as i32) < 2 * self.root_depth + 4
                && facts.gives_check(pos, mv)
                && facts.see::<V, E>(pos, mv) >= 0;
            if singular && mv == hash_move {
                extend = true;
            }
            let (undo, gives_check) = self.make(pos, mv, ply);
            let new_depth = depth - 1 + i32::from(extend);
            let mut score;
            if i == 0 {
                score = -self.negamax(
                    pos,
                    new_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    !pv_node && !cut_node,
                );
            } else {
                let (min_depth, min_index) = if sp.early_reductions && !pv_node {
                    (2, 2)
                } else if sp.early_reductions {
                    (2, 3)
                } else {
                    (3, 3)
                };
                // A capture ordered after the quiet moves loses by static exchange.
                let bad_capture = sp.reduce_bad_captures
                    && sp.see_ordering
                    && !quiet
                    && history < ordering::BAD_CAPTURE / 2;
                let reduce = depth >= min_depth
                    && i >= min_index
                    && (quiet || bad_capture)
                    && !extend
                    && (sp.reduce_checks || (!in_check && !gives_check))
                    && mv != killers[0]
                    && mv != killers[1];
                let r = if !reduce {
                    0
                } else if sp.log_reductions {
                    let mut r = i32::from(self.st.lmr[depth.min(63) as usize][(i + 1).min(63)])
                        - i32::from(pv_node);
                    if sp.lmr_extras {
                        r += i32::from(cut_node);
                        if quiet {
                            r -= (history / self.tn.history_reduction_unit).clamp(-2, 2);
                        }
                    }
                    if sp.improving && !improving {
                        r += 1;
                    }
                    r.clamp(1, (new_depth - 1).max(1))
                } else {
                    1 + i32::from(i >= 8 && depth >= 6)
                };
                score = if r > 0 {
                    -self.negamax(pos, new_depth - r, -alpha - 1, -alpha, ply + 1, true)
                } else {
                    -self.negamax(pos, new_depth, -alpha - 1, -alpha, ply + 1, !cut_node)
                };
                if score > alpha && r > 0 && !self.aborted {
                    score = -self.negamax(pos, new_depth, -alpha - 1, -alpha, ply + 1, !cut_node);
                }
                if score > alpha && score < beta && !self.aborted {
                    score = -self.negamax(pos, new_depth, -beta, -alpha, ply + 1, false);
                }
            }
            pos.unmake(mv, undo);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        if quiet {
                            let tried = &self.st.quiets[ply * QUIETS..ply * QUIETS + nq];
                            let tried: [Move; QUIETS] = {
                                let mut a = [Move::NULL; QUIETS];
                                a[..nq].copy_from_slice(tried);
                                a
                            };
                            self.st.ord.reward(stm, ply, mv, depth, &tried[..nq]);
                            if sp.continuation_history {
                                let mut pts = [0usize; QUIETS];
                                for (p, &m) in pts.iter_mut().zip(&tried[..nq]) {
                                    *p = ordering::move_piece_to(pos, m);
                                }
                                let best_pt = ordering::move_piece_to(pos, mv);
                                self.st.ord.reward_cont(prevs, best_pt, &pts[..nq], depth);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet && nq < QUIETS {
                self.st.quiets[ply * QUIETS + nq] = mv;
                nq += 1;
            }
        }
        if excluded == Move::NULL {
            let bound = Bound::of(best, orig_alpha, beta);
            // The correction history learns from a result the static evaluation missed: not
            // a bound on the evaluation's side of it, not a mate, not a capture's gain.
            if sp.correction_history
                && static_eval > -INF
                && best.abs() < MATE_BOUND
                && (best_move == Move::NULL
                    || (!is_capture(pos, best_move) && !E::is_tactical(pos, best_move)))
                && !(bound == Bound::Lower && best <= static_eval)
                && !(bound == Bound::Upper && best >= static_eval)
            {
                self.st
                    .learn_correction(stm, corr_keys, best - static_eval, depth);
            }
            self.tt.store(key, ply, best_move, best, depth, bound);
        }
        best
    }

    /// Quiescence search: stand pat, captures and tactical moves; every evasion in check.
    /// `first` says whether this is the quiescence search's first ply (where
    /// [`crate::SearchParams::qsearch_checks`] adds the safe checks).
    fn qsearch(
        &mut self,
        pos: &mut Position<V>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        first: bool,
    ) -> i32 {
        self.st.pv_len[ply] = ply;
        let idx = self.root_index + ply;
        if let Some(s) = self.repetition(idx, ply) {
            return s;
        }
        if V::HAS_ADJUDICATION {
            if let Some(o) = V::adjudicate(pos) {
                return outcome_score(o, pos.side_to_move(), ply, self.tn.contempt);
            }
        }
        if ply >= MAX_PLY - 1 {
            return E::evaluate_at(&mut *self.st.eval, pos, ply);
        }
        self.count_node(ply);
        if self.aborted {
            return 0;
        }
        let in_check = self.st.checks[idx];
        let sp = E::switches();
        let orig_alpha = alpha;
        let key = pos.hash();
        let mut hash_move = Move::NULL;
        if sp.qsearch_tt {
            if let Some(hit) = self.tt.probe(key, ply) {
                hash_move = hit.mv;
                if beta - alpha == 1 && hit.cuts(alpha, beta) {
                    return hit.score;
                }
            }
        }
        let mut best = -INF;
        if !in_check {
            let mut stand = E::evaluate_at(&mut *self.st.eval, pos, ply);
            if sp.correction_history {
                stand = self.corrected_eval(pos, stand, correction_keys(pos));
            }
            if stand >= beta {
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
        }
        let n = if in_check {
            let n = self.generate_all(pos, ply);
            if n == 0 {
                return outcome_score(
                    pos.no_move_outcome(),
                    pos.side_to_move(),
                    ply,
                    self.tn.contempt,
                );
            }
            n
        } else if sp.qsearch_checks && first {
            let all = self.generate_all(pos, ply);
            if all == 0 {
                return outcome_score(
                    pos.no_move_outcome(),
                    pos.side_to_move(),
                    ply,
                    self.tn.contempt,
                );
            }
            // Keep the captures, the tactical moves and the safe checks.
            let base = ply * MAX_MOVES;
            let mut n = 0;
            for i in 0..all {
                let mv = self.st.moves[base + i];
                let keep = is_capture(pos, mv)
                    || E::is_tactical(pos, mv)
                    || (pos.gives_check(mv) && crate::see::see::<V, E>(pos, mv) >= 0);
                if keep {
                    self.st.moves[base + n] = mv;
                    n += 1;
                }
            }
            n
        } else {
            let (n, any) = self.generate_tactical(pos, ply);
            if !any {
                return outcome_score(
                    pos.no_move_outcome(),
                    pos.side_to_move(),
                    ply,
                    self.tn.contempt,
                );
            }
            n
        };
        let mut best_move = Move::NULL;
        let base = ply * MAX_MOVES;
        for i in 0..n {
            let mv = self.st.moves[base + i];
            self.st.scores[base + i] = if mv == hash_move {
                ordering::HASH_MOVE
            } else if is_capture(pos, mv) {
                ordering::capture_score::<V, E>(pos, mv)
            } else if E::is_tactical(pos, mv) {
                ordering::TACTICAL
            } else {
                self.st.ord.history(pos.side_to_move().index(), mv)
            };
        }
        for i in 0..n {
            ordering::pick(
                &mut self.st.moves[base..base + n],
                &mut self.st.scores[base..base + n],
                i,
            );
            let mv = self.st.moves[base + i];
            if sp.see_qsearch
                && !in_check
                && is_capture(pos, mv)
                && crate::see::see::<V, E>(pos, mv) < 0
            {
                continue;
            }
            let (undo, _) = self.make(pos, mv, ply);
            let score = -self.qsearch(pos, -beta, -alpha, ply + 1, false);
            pos.unmake(mv, undo);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if sp.qsearch_tt {
            let bound = Bound::of(best, orig_alpha, beta);
            self.tt.store(key, ply, best_move, best, 0, bound);
        }
        best
    }

    /// Searches the root moves from `pv_idx` on (the earlier ones are the lines already
    /// chosen in this iteration) and records their scores and lines.
    fn root_search(
        &mut self,
        pos: &mut Position<V>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        pv_idx: usize,
        rms: &mut [RootMove],
    ) -> i32 {
        self.st.pv_len[0] = 0;
        for rm in rms[pv_idx..].iter_mut() {
            rm.score = -INF;
            rm.exact = false;
        }
        let mut best = -INF;
        for (i, rm) in rms.iter_mut().enumerate().skip(pv_idx) {
            // Between root moves `stop` and the clock are looked at every time, not only
            // every 1024 nodes, so that a short first iteration can end on them too.
            if i > pv_idx
                && self.can_abort
                && (self.stop.load(AtomicOrdering::Relaxed)
                    || self.deadline.is_some_and(|d| Instant::now() >= d))
            {
                self.aborted = true;
                return best;
            }
            let mv = rm.mv;
            // Root reductions: a late quiet move without check, with the PV node's reduction.
            let r = if E::switches().root_reductions
                && i >= pv_idx + 3
                && depth >= 3
                && !is_capture(pos, mv)
                && !E::is_tactical(pos, mv)
                && !pos.gives_check(mv)
            {
                (i32::from(self.st.lmr[depth.min(63) as usize][(i + 1 - pv_idx).min(63)]) - 1)
                    .clamp(0, depth - 2)
            } else {
                0
            };
            let (undo, _) = self.make(pos, mv, 0);
            let score = if i == pv_idx {
                -self.negamax(pos, depth - 1, -beta, -alpha, 1, false)
            } else {
                let mut s = -self.negamax(pos, depth - 1 - r, -alpha - 1, -alpha, 1, true);
                if r > 0 && s > alpha && !self.aborted {
                    s = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, 1, true);
                }
                if s > alpha && s < beta && !self.aborted {
                    -self.negamax(pos, depth - 1, -beta, -alpha, 1, false)
                } else {
                    s
                }
            };
            pos.unmake(mv, undo);
            if self.aborted {
                return best;
            }
            if i == pv_idx || score > alpha {
                rm.score = score;
                rm.exact = score > alpha && score < beta;
                rm.pv.clear();
                rm.pv.push(mv);
                let len = self.st.pv_len[1].max(1);
                rm.pv.extend_from_slice(&self.st.pv[W + 1..W + len]);
                rm.seldepth = self.seldepth;
            }
            if score > best {
                best = score;
            }
            // Once one root move has a score there is a move to answer with, so from here
            // on even the first iteration may stop (the node limit, the clock, `stop`).
            self.can_abort = true;
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }
}

/// A line of the public result from a root move.
fn line_of(rm: &RootMove, depth: u32) -> Line {
    Line {
        mv: rm.mv,
        score: to_score(rm.score),
        pv: rm.pv.clone(),
        depth,
        seldepth: rm.seldepth as u32,
    }
}

/// Calls `on_info` once for each of `lines`, the lines of an iteration to `depth`.
fn report(
    lines: &[Line],
    depth: u32,
    nodes: u64,
    start: Instant,
    hashfull: u32,
    on_info: &mut dyn FnMut(&Info),
) {
    let time = start.elapsed();
    for (i, l) in lines.iter().enumerate() {
        on_info(&Info {
            depth,
            seldepth: l.seldepth,
            multipv: i + 1,
            score: l.score,
            pv: l.pv.clone(),
            nodes,
            time,
            hashfull,
        });
    }
}

/// The whole search: see [`crate::Engine::search`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn run<V: Variant, E: Evaluator<V>>(
    tuning: &SearchTuning,
    tt: &mut Table,
    st: &mut State,
    helpers: &mut [State],
    game: &Game<V>,
    limits: &Limits,
    multipv: usize,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let start = Instant::now();
    let empty = |time: Duration| SearchResult {
        lines: Vec::new(),
        nodes: 0,
        time,
        depth: 0,
    };
    if game.outcome().is_some() {
        return empty(start.elapsed());
    }
    let pos = *game.position();
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return empty(start.elapsed());
    }

    // The game's history, then room for the search path.
    st.keys.clear();
    st.checks.clear();
    let mut p = *game.start();
    st.keys.push(p.hash());
    st.checks.push(p.in_check());
    for &m in game.moves() {
        p.make(m);
        st.keys.push(p.hash());
        st.checks.push(p.in_check());
    }
    let root_index = st.keys.len() - 1;
    st.keys.resize(root_index + W + 2, 0);
    st.checks.resize(root_index + W + 2, false);

    let reproducible = limits.time.is_none() && !limits.infinite;
    for h in helpers.iter_mut() {
        h.keys.clone_from(&st.keys);
        h.checks.clone_from(&st.checks);
    }
    for state in core::iter::once(&mut *st).chain(helpers.iter_mut()) {
        state.set_lmr(tuning);
        if reproducible {
            state.ord.clear();
        } else {
            state.ord.killers = [[Move::NULL; 2]; MAX_PLY + 1];
        }
    }
    if reproducible {
        tt.clear();
    }
    tt.new_search();
    let tt: &Table = tt;

    let mut max_depth = MAX_DEPTH;
    let mut deadline = None;
    let mut node_limit = None;
    if !limits.infinite {
        if let Some(d) = limits.depth {
            max_depth = d.clamp(1, MAX_DEPTH);
        }
        if let Some(m) = limits.mate {
            if limits.depth.is_none() && limits.nodes.is_none() && limits.time.is_none() {
                max_depth = max_depth.min(m.saturating_add(4).max(1));
            }
        }
        deadline = limits.time.map(|t| start + t);
        node_limit = limits.nodes;
    }
    // The optimum time: after it no new iteration starts, and a forced move is played after
    // the first iteration. Only with a hard time limit (a clock), never in `infinite`.
    let soft_deadline = match (limits.time, limits.soft_time) {
        (Some(_), Some(t)) if !limits.infinite => Some(start + t),
        _ => None,
    };

    // Root moves in a first order: captures, tactical moves, then the rest.
    let mut rms: Vec<RootMove> = legal
        .iter()
        .map(|&mv| RootMove {
            mv,
            score: -INF,
            prev: -INF,
            exact: false,
            pv: vec![mv],
            seldepth: 0,
        })
        .collect();
    rms.sort_by_key(|rm| {
        -ordering::score_move::<V, E>(
            &pos,
            &st.ord,
            0,
            rm.mv,
            Move::NULL,
            [ordering::NO_PIECE_TO; 2],
        )
    });
    let k = multipv.max(1).min(rms.len());

    let shared_nodes = AtomicU64::new(0);
    // Lazy SMP: the helpers (none with one thread) search the same root beside the main
    // thread until it is done.
    let helpers_stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for (i, h) in helpers.iter_mut().enumerate() {
            let (shared_nodes, helpers_stop) = (&shared_nodes, &helpers_stop);
            let mut rms = rms.clone();
            scope.spawn(move || {
                let mut pos = pos;
                let mut s = Searcher::<V, E> {
                    tn: *tuning,
                    tt,
                    st: h,
                    root_index,
                    root_depth: 1,
                    nodes: 0,
                    seldepth: 0,
                    stop: helpers_stop,
                    aborted: false,
                    can_abort: true,
                    deadline: None,
                    node_limit,
                    nmp_min_ply: 0,
                    shared_nodes,
                    helper: true,
                    others: 0,
                    _v: core::marker::PhantomData,
                };
                s.help(&mut pos, &mut rms, max_depth, i + 1);
            });
        }
        let result = iterate::<V, E>(
            tuning,
            tt,
            st,
            &shared_nodes,
            root_index,
            pos,
            rms,
            (deadline, node_limit, max_depth),
            soft_deadline,
            limits,
            k,
            stop,
            start,
            on_info,
        );
        helpers_stop.store(true, AtomicOrdering::Relaxed);
        result
    })
}

/// Whether deepening further would only repeat the answer: the search has no depth or node
/// limit (a search bounded by them deepens exactly as before, so that its result and node
/// count stay reproducible), and every line's score is a mate that the iteration has
/// settled: a mate in one (nothing is shorter), or a mate in n plies seen by an iteration of
/// depth 2n + 2 or more, deep enough that the reductions have let a shorter mate (or a
/// longer defence) show. Without this, a mate found early makes every later iteration end
/// at once on the table's entries, and the search printed a line per depth up to the
/// maximum in no time.
fn mate_settled(limits: &Limits, lines: &[Line], depth: u32) -> bool {
    if limits.depth.is_some() || limits.nodes.is_some() || lines.is_empty() {
        return false;
    }
    lines.iter().all(|l| match l.score {
        Score::Mate(1) => true,
        Score::Mate(n) => depth >= 2 * n.unsigned_abs() + 2,
        Score::Cp(_) => false,
    })
}

/// The main thread's iterative deepening: see [`crate::Engine::search`].
#[allow(clippy::too_many_arguments)]
fn iterate<V: Variant, E: Evaluator<V>>(
    tuning: &SearchTuning,
    tt: &Table,
    st: &mut State,
    shared_nodes: &AtomicU64,
    root_index: usize,
    mut pos: Position<V>,
    mut rms: Vec<RootMove>,
    (deadline, node_limit, max_depth): (Option<Instant>, Option<u64>, u32),
    soft_deadline: Option<Instant>,
    limits: &Limits,
    k: usize,
    stop: &AtomicBool,
    start: Instant,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let mut s = Searcher::<V, E> {
        tn: *tuning,
        tt,
        st,
        root_index,
        root_depth: 1,
        nodes: 0,
        seldepth: 0,
        stop,
        aborted: false,
        can_abort: false,
        deadline,
        node_limit,
        nmp_min_ply: 0,
        shared_nodes,
        helper: false,
        others: 0,
        _v: core::marker::PhantomData,
    };

    E::on_root(&mut *s.st.eval, &pos);
    let mut lines: Vec<Line> = Vec::new();
    let mut completed = 0;
    for depth in 1..=max_depth {
        s.root_depth = depth as i32;
        s.can_abort = depth > 1;
        s.seldepth = 0;
        let mut aborted_at = None;
        for pv_idx in 0..k {
            s.aspiration(&mut pos, depth as i32, pv_idx, &mut rms);
            if s.aborted {
                aborted_at = Some(pv_idx);
                break;
            }
        }
        if let Some(pv_idx) = aborted_at {
            if completed == 0 {
                // Stopped inside the first iteration, after at least one root move was
                // searched: the moves finished so far, best first, are the answer.
                let done = pv_idx.max(1);
                lines = rms[..done]
                    .iter()
                    .filter(|rm| rm.score > -INF)
                    .map(|rm| line_of(rm, depth))
                    .collect();
                report(
                    &lines,
                    depth,
                    s.total_nodes(),
                    start,
                    s.tt.hashfull(),
                    on_info,
                );
                break;
            }
            // A different first move that the unfinished iteration searched to the end with
            // a full window beats the last completed iteration's choice.
            if k == 1
                && pv_idx == 0
                && rms[0].exact
                && lines.first().is_some_and(|l| l.mv != rms[0].mv)
            {
                lines[0] = line_of(&rms[0], depth);
            }
            break;
        }
        completed = depth;
        // With several lines, a later line can score above an earlier one (each is searched
        // with its own window, and pruning depends on the window): the lines are reported
        // best first, as they were found when their scores tie.
        rms[..k].sort_by_key(|rm| -rm.score);
        for rm in rms.iter_mut() {
            rm.prev = rm.score;
        }
        lines = rms[..k].iter().map(|rm| line_of(rm, depth)).collect();
        report(
            &lines,
            depth,
            s.total_nodes(),
            start,
            s.tt.hashfull(),
            on_info,
        );
        if let (Some(m), Score::Mate(n)) = (limits.mate, lines[0].score) {
            if !limits.infinite && n > 0 && n as u32 <= m {
                break;
            }
        }
        if mate_settled(limits, &lines, depth) {
            break;
        }
        if limits.infinite {
            if stop.load(AtomicOrdering::Relaxed) {
                break;
            }
        } else if stop.load(AtomicOrdering::Relaxed)
            || deadline.is_some_and(|d| Instant::now() >= d)
            || node_limit.is_some_and(|l| s.total_nodes() >= l)
            || soft_deadline.is_some_and(|d| rms.len() == 1 || Instant::now() >= d)
        {
            break;
        }
    }
    SearchResult {
        lines,
        nodes: s.total_nodes(),
        time: start.elapsed(),
        depth: completed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> Box<State> {
        State::new(Box::new(()), &SearchTuning::DEFAULT)
    }

    #[test]
    fn the_correction_learns_the_error_and_stays_bounded() {
        let mut st = state();
        let keys = [3, 7];
        assert_eq!(st.corrected(40, 0, keys, 100), 40);
        // The searches of this kind of position keep ending 60 cp above the evaluation.
        for _ in 0..200 {
            st.learn_correction(0, keys, 60, 8);
        }
        let c = st.corrected(40, 0, keys, 100) - 40;
        assert!((40..=128).contains(&c), "correction {c}");
        // The other side to move and other keys learned nothing.
        assert_eq!(st.corrected(40, 1, keys, 100), 40);
        assert_eq!(st.corrected(40, 0, [4, 8], 100), 40);
        // However large the errors, an entry stays within its limit.
        for _ in 0..1000 {
            st.learn_correction(0, keys, 30_000, 60);
        }
        assert!(st.corrected(0, 0, keys, 100) <= CORR_LIMIT / 8);
        assert!(i32::from(st.corr[0][0][3]) <= CORR_LIMIT);
        // The weight scales it; zero switches it off.
        assert_eq!(st.corrected(40, 0, keys, 0), 40);
        // Never into the mate scores.
        assert!(st.corrected(MATE_BOUND + 500, 0, keys, 400) < MATE_BOUND);
        // A new game forgets it.
        st.clear();
        assert_eq!(st.corrected(40, 0, keys, 100), 40);
    }

    #[test]
    fn the_correction_keys_follow_the_hands_and_the_occupied_squares() {
        use kshogi_rules_micro::Micro;
        let keys =
            |sfen: &str| correction_keys(&kshogi_notation::parse_sfen::<Micro>(sfen).unwrap());
        let a = keys("k3/4/1S2/4/3K b G 1");
        // Another piece on the same squares: the same keys.
        assert_eq!(a, keys("k3/4/1G2/4/3K b G 1"));
        // The same hands, another square: only the board's key changes.
        let b = keys("k3/4/2S1/4/3K b G 1");
        assert_eq!(a[0], b[0]);
        assert_ne!(a[1], b[1]);
        // The same board, other hands: only the hands' key changes.
        let c = keys("k3/4/1S2/4/3K b S 1");
        assert_ne!(a[0], c[0]);
        assert_eq!(a[1], c[1]);
        // A piece in the other side's hand is another key.
        assert_ne!(a[0], keys("k3/4/1S2/4/3K b g 1")[0]);
        assert!(a.iter().all(|&k| k < CORR_SIZE));
    }
}
