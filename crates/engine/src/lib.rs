//! # kshogi-engine
//!
//! Analysis for the kshogi variants: an iterative-deepening principal-variation alpha-beta
//! search with a transposition table, and a proof-number (df-pn) solver for forced mates.
//! Evaluation is per variant ([`Evaluator`]; [`PieceTableEval`] for any variant); everything is generic over the variant and
//! monomorphised, and the search does not allocate per node.
//!
//! This crate depends on core only: it must not depend on any rules crate, on notation, the
//! registry or the CLI, and it names no variant. The registry pairs each variant with its
//! evaluator (tuned ones live in `kshogi-tuned-eval`).
//!
//! API CONTRACT: the types and signatures below ([`Score`], [`Limits`], [`Line`], [`Info`],
//! [`SearchResult`], [`Evaluator`], [`Engine::new`], [`Engine::set_hash`], [`Engine::clear`],
//! [`Engine::search`], [`mate::MateResult`], [`mate::solve`]) are what the CLI and the USI
//! loop code against; they were fixed before the implementation and must be kept. Items may
//! be added, not renamed or removed.
//!
//! ## Design
//!
//! * **Search** (`search.rs`): iterative deepening over a negamax principal-variation search
//!   with aspiration windows from depth 5, check extension (of every check, or where the
//!   evaluator asks of the checks that do not lose by static exchange), a quiescence search (captures and
//!   the variant's tactical moves; every evasion when in check), mate-distance pruning and
//!   late-move reductions (never for captures or killers; checks and evasions only where
//!   the evaluator asks), futility and late move pruning of quiet moves;
//!   which selective techniques are on is each evaluator's [`Evaluator::SEARCH`]
//!   ([`SearchParams`]), each proven by an SPRT (docs/strength.md; null-move and reverse
//!   futility pruning, static-exchange pruning, continuation history, internal iterative
//!   reduction, a quiescence table probe and the pruning of losing checks are written but
//!   off). [`bench`](mod@bench) is the search's fixed workload and node-count signature. A quiet move that futility or late move pruning skips is skipped
//!   before it is made ([`kshogi_core::Position::gives_check`] says whether it would check).
//!   Scores are centipawns or mate distances counted in plies from the root; a game end of any kind the
//!   variant knows ([`kshogi_core::Position::outcome`]: checkmate, stalemate by the variant's
//!   rule, Kinzoku king entry and countdown) scores as a win or loss at its ply.
//! * **Repetition**: the hashes of the game's history and of the search path form one list. A
//!   position that repeats one inside the search path (or the root), or that reaches the
//!   variant's occurrence count with the history, ends the line: a draw, or for a variant
//!   whose perpetual check loses (Micro) a loss for the side that checked with every move of
//!   the cycle.
//! * **Transposition table** (`tt.rs`): clusters of four 12-byte entries (32-bit key check,
//!   move, score with mate scores stored relative to the node, depth, bound, generation);
//!   its size never exceeds the MiB given to [`Engine::new`] / [`Engine::set_hash`].
//! * **Move ordering** (`ordering.rs`): hash move, captures by victim value (MVV-LVA), the
//!   variant's tactical moves, two killers per ply, then a history table (and, when on,
//!   continuation history).
//! * **Static exchange evaluation** (`see.rs`): what a capture or drop wins on its square,
//!   counting the flips of the capturing pieces, for the switches that use it.
//! * **Evaluation** (`eval.rs`, [`Evaluator`]): material on the board and in hand, mobility
//!   (attacked squares) and king safety (attacks on and defenders around the king, pieces in
//!   the enemy's hand), with weights per variant; [`PieceTableEval`] derives them from the
//!   piece table ([`eval::EvalParams::derive`]), a tuned evaluator sets its own and may add
//!   terms (the Kinzoku king's advance and countdown). An evaluator may keep state per
//!   search thread ([`Evaluator::new_state`], made once per thread), told of the root and of
//!   every move and null move the search makes, and asked for the static evaluation at a
//!   ply ([`Evaluator::evaluate_at`]): an NNUE net's accumulator stack. The hooks' defaults
//!   do nothing, so an evaluator that does not use them searches as before.
//! * **Threads** ([`Engine::set_threads`]): Lazy SMP. Helper threads run their own
//!   iterative deepening of the same root (odd ones a ply ahead) with their own ordering
//!   tables and share only the transposition table, whose entries are written and read
//!   without locks (an entry torn by two writers fails its key check). The main thread
//!   alone reports and answers; the helpers stop when it does.
//! * **Mate solver** ([`mate`]): df-pn with a bounded (pn, dn) table over checks and moves
//!   that win at once; a proof is then shortened by an exact iterative-deepening search over
//!   the same moves, so the reported distance is the shortest mate by such moves.
//! * **Win/draw/loss model** ([`wdl`]): the chances of each result that a score stands for,
//!   one [`WdlModel`] per variant (given by the registry, fitted by the tuner).
//! * **No allocation per node**: move lists of every ply live in one buffer allocated with
//!   the engine, the principal variation in a triangular array; only the root allocates.
//!
//! A search without a time limit (and not `infinite`) starts from an empty transposition
//! table and empty ordering tables, so that the same game and limits give the same result.

use kshogi_core::{Game, Kind, Move, Position, Variant};
use std::any::Any;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub mod bench;
mod bounds;
pub mod eval;
pub mod mate;
mod ordering;
mod search;
mod see;
pub mod selfplay;
mod tt;
pub mod tuning;
pub mod versus;
pub mod wdl;

pub use eval::EvalBreakdown;
pub use tuning::{SearchTuning, Tunable, TuningError};

/// The plies of a search path are below this: a search evaluates positions at plies
/// `0..MAX_SEARCH_PLY` and makes moves from plies `0..MAX_SEARCH_PLY - 1`, so an incremental
/// evaluator's stack of [`MAX_SEARCH_PLY`] entries, one per ply, holds every position of the
/// path (see [`Evaluator::new_state`]).
pub const MAX_SEARCH_PLY: usize = bounds::MAX_PLY;
pub use wdl::{Wdl, WdlModel};

/// A score from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// A forced win in `n` plies (`n > 0`) or a forced loss in `-n` plies (`n < 0`), counting
    /// plies from the current position to the end of the game (checkmate, king entry,
    /// countdown, perpetual check — any win the variant knows).
    Mate(i32),
}

impl Score {
    /// A number that orders scores: larger is better for the side to move (mates beyond every
    /// centipawn score, shorter wins and longer losses better).
    pub fn sort_key(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => bounds::MATE - n,
            Score::Mate(n) => -bounds::MATE - n,
        }
    }
}

/// When to stop searching. All set limits apply; the first one reached stops the search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Largest nominal depth (plies) of the iterative deepening.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Wall-clock budget: the search stops when it is spent, inside an iteration if need be.
    pub time: Option<Duration>,
    /// Wall-clock time after which no new iteration starts (a clock's optimum time, below
    /// [`Limits::time`]): an iteration that ends after it is the last, and a root with one
    /// legal move ends after the first. The search still stops at [`Limits::time`] at the
    /// latest. Ignored without `time` or with `infinite`.
    pub soft_time: Option<Duration>,
    /// Stop as soon as a mate in at most this many plies is found (USI `go mate`).
    pub mate: Option<u32>,
    /// Search until stopped (USI `go infinite`); other limits except `stop` are ignored.
    pub infinite: bool,
}

/// One of the best moves with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The move.
    pub mv: Move,
    /// Its score.
    pub score: Score,
    /// The principal variation, starting with `mv`.
    pub pv: Vec<Move>,
    /// Depth of the iteration that produced it.
    pub depth: u32,
    /// Selective depth reached.
    pub seldepth: u32,
}

/// Progress reported during the search (after each completed iteration and line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Iteration depth.
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// 1-based index of the line (multi-PV).
    pub multipv: usize,
    /// Score of the line.
    pub score: Score,
    /// The line.
    pub pv: Vec<Move>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition-table fill, per mille.
    pub hashfull: u32,
}

/// What a finished search returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best lines, best first (at most the multi-PV count; empty if no legal move).
    pub lines: Vec<Line>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// Deepest completed iteration.
    pub depth: u32,
}

/// Which selective techniques the search uses for a variant: [`Evaluator::SEARCH`].
///
/// A technique is on in [`SearchParams::DEFAULT`] only once a self-play SPRT has accepted
/// it; an evaluator may differ from the default for its variant where the SPRTs of the
/// variants differ (docs/strength.md, "Search changes", has every result). The search reads
/// the switches as constants of the monomorphised code, so a technique that is off costs
/// nothing. The numbers in their descriptions (margins, depths) are the defaults of
/// [`SearchParams::tuning`], the techniques' numeric parameters ([`SearchTuning`]), which an
/// engine copies and the search reads as plain fields.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Null-move pruning (not when the side to move has only its king, on the board and in
    /// hand; verified by a reduced search from depth 10).
    pub null_move: bool,
    /// Reverse futility pruning: at depth 6 and less, a static evaluation more than
    /// 100 cp per ply of depth above beta returns it.
    pub reverse_futility: bool,
    /// Futility pruning: at depth 3 and less, quiet moves that do not give check are
    /// skipped when the static evaluation plus 150 cp per ply of depth is at most alpha
    /// (only where beta is within [`SearchTuning::prune_beta_limit`] of a draw).
    pub futility: bool,
    /// Late move pruning: at depth 4 and less, the quiet moves that do not give check after
    /// the first `3 + depth * depth` are skipped.
    pub late_move_pruning: bool,
    /// Late move reductions of `0.75 + ln depth * ln n / 2.25` plies for the `n`-th move
    /// (one less at PV nodes, at least one) instead of one ply (two for the ninth move on
    /// from depth 6).
    pub log_reductions: bool,
    /// A node whose side to move is in check is searched one ply deeper (within the first
    /// `2 * iteration depth + 4` plies of the path).
    pub check_extension: bool,
    /// The quiescence search skips captures that lose material by static exchange
    /// evaluation (`see`, drops and captured pieces going to hand counted as it says).
    pub see_qsearch: bool,
    /// Captures that lose material by static exchange evaluation are tried after the quiet
    /// moves instead of before them.
    pub see_ordering: bool,
    /// At depth 6 and less, at non-PV nodes, captures whose exchange loses more than
    /// 100 cp per ply of depth and quiet moves (drops included) that lose more than
    /// 25 cp per square of depth are skipped, unless they give check.
    pub see_pruning: bool,
    /// The quiescence search probes the transposition table for cutoffs and its best move,
    /// and stores its results at depth 0.
    pub qsearch_tt: bool,
    /// Internal iterative reduction: from depth 4, a node without a move from the
    /// transposition table is searched one ply shallower.
    pub iir: bool,
    /// Continuation history: quiet moves are also ordered by how well they did after the
    /// same move one and two plies before.
    pub continuation_history: bool,
    /// Late move reductions that also follow the node's expected type and the move's
    /// history: one ply more at an expected cut node (a node searched with a null window
    /// whose parent expects it to fail high), one ply less for a quiet move with a good
    /// history and one more for a bad one (only with `log_reductions`).
    pub lmr_extras: bool,
    /// The "improving" test: whether the static evaluation is above the one of two plies
    /// before (the same side to move). A node that is not improving is pruned harder: late
    /// move pruning keeps half as many quiet moves, and late move reductions (with
    /// `log_reductions`) reduce one ply more. (Reverse futility pruning does not use it:
    /// with its margin lowered for improving nodes, it hid a king entry in 3 of the engine's
    /// mate tests.)
    pub improving: bool,
    /// History pruning: at depth 3 and less, at non-PV nodes, quiet moves that do not give
    /// check and whose history is below `-2000 * depth` are skipped.
    pub history_pruning: bool,
    /// Late move reductions also reduce moves that give check and the moves of a node in
    /// check (drop games are full of checks: most of them are not dangerous).
    pub reduce_checks: bool,
    /// A move that gives check and does not lose material by static exchange is searched
    /// one ply deeper (within the first `2 * iteration depth + 4` plies of the path); an
    /// alternative to `check_extension`, which extends every check.
    pub safe_check_extension: bool,
    /// Futility, late move and history pruning also skip quiet moves that give check but
    /// lose material by static exchange (a piece dropped next to the king where it is
    /// taken for nothing).
    pub prune_unsafe_checks: bool,
    /// Late move reductions start earlier: from depth 2 instead of 3, and from the third
    /// move instead of the fourth at non-PV nodes.
    pub early_reductions: bool,
    /// Singular extension: from depth 6, a hash move whose stored lower bound is not
    /// approached by any other move in a search of half the depth (with a margin of 2 cp
    /// per ply) is searched one ply deeper; when the other moves beat beta too, the node
    /// returns (multi-cut).
    pub singular_extension: bool,
    /// The static evaluation used by futility pruning is replaced by the transposition
    /// table's score when the score's bound says it is closer to the truth.
    pub tt_eval: bool,
    /// Late move reductions also reduce captures that lose material by static exchange
    /// (only with `see_ordering`, which orders them last).
    pub reduce_bad_captures: bool,
    /// The first ply of the quiescence search also tries the quiet moves (drops included)
    /// that give check without losing material by static exchange: the start of a mate by
    /// drops that captures alone do not see.
    pub qsearch_checks: bool,
    /// Late move reductions at the root too: from the fourth root move on, a quiet move
    /// that gives no check is searched first with the PV node's reduction, and again at
    /// full depth if it beats the best so far.
    pub root_reductions: bool,
    /// Correction history: the static evaluation is corrected by how far the searches of
    /// similar positions ended from their own static evaluations, learned during the
    /// search in two tables per side to move, one indexed by the hands, one by the squares
    /// each side occupies (`correction_weight` percent of the two tables' mean; nodes in
    /// check, whose evaluation is not used, learn nothing).
    pub correction_history: bool,
    /// The techniques' numeric parameters (margins, depths, the reduction formula), the
    /// values an engine starts with ([`Engine::set_tuning`] changes them at run time).
    pub tuning: SearchTuning,
}

impl SearchParams {
    /// What a variant without drops uses unless its evaluator says otherwise (see
    /// [`SearchParams::for_variant`]): futility and late move pruning and the check
    /// extension.
    pub const DEFAULT: SearchParams = SearchParams {
        null_move: false,
        reverse_futility: false,
        futility: true,
        late_move_pruning: true,
        log_reductions: false,
        check_extension: true,
        see_qsearch: false,
        see_ordering: false,
        see_pruning: false,
        qsearch_tt: false,
        iir: false,
        continuation_history: false,
        lmr_extras: false,
        improving: false,
        history_pruning: false,
        reduce_checks: false,
        safe_check_extension: false,
        prune_unsafe_checks: false,
        early_reductions: false,
        singular_extension: false,
        tt_eval: false,
        reduce_bad_captures: false,
        qsearch_checks: false,
        root_reductions: false,
        correction_history: false,
        tuning: SearchTuning::DEFAULT,
    };

    /// The search of the drop games (Kyoto, Micro, Minishogi, Tori, and any variant with drops
    /// whose evaluator does not choose, [`SearchParams::for_variant`]): logarithmic late move
    /// reductions with the improving test, node type and history; only the checks that do not
    /// lose material by static exchange extended, the others reduced like quiet moves, as are
    /// the moves of a node in check; losing captures tried after the quiet moves; reductions
    /// from depth 2; the safe checks at the quiescence search's first ply (a drop next to the
    /// king, which captures alone miss); losing checks pruned like quiet moves. Drop games need
    /// this because nearly every drop next to the king checks: half the nodes of a Micro search
    /// were in check. Found step by step in Micro (+46, +52, +22, +37, +49 Elo in self-play;
    /// 43% to 56% against the reference engine), then tried whole in Kyoto (+47 Elo in
    /// self-play; 63% to 70% against the reference engine) and in Minishogi (+55 Elo in
    /// self-play over 858 games at 40,000 nodes), and made the default of the variants with drops
    /// after Tori's SPRT with its derived evaluation (docs/strength.md has every SPRT).
    pub const DROP_GAME: SearchParams = SearchParams {
        log_reductions: true,
        lmr_extras: true,
        improving: true,
        history_pruning: true,
        check_extension: false,
        safe_check_extension: true,
        reduce_checks: true,
        see_ordering: true,
        early_reductions: true,
        qsearch_checks: true,
        prune_unsafe_checks: true,
        ..SearchParams::DEFAULT
    };

    /// The switches' names, in the order of the fields: the words `kshogi-tune switches`
    /// and the generated switch files use.
    pub const SWITCHES: &'static [&'static str] = &[
        "null_move",
        "reverse_futility",
        "futility",
        "late_move_pruning",
        "log_reductions",
        "check_extension",
        "see_qsearch",
        "see_ordering",
        "see_pruning",
        "qsearch_tt",
        "iir",
        "continuation_history",
        "lmr_extras",
        "improving",
        "history_pruning",
        "reduce_checks",
        "safe_check_extension",
        "prune_unsafe_checks",
        "early_reductions",
        "singular_extension",
        "tt_eval",
        "reduce_bad_captures",
        "qsearch_checks",
        "root_reductions",
        "correction_history",
    ];

    /// The switch called `name` (one of [`SearchParams::SWITCHES`]), to read or set; `None`
    /// if there is no such switch.
    pub fn switch_mut(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "null_move" => &mut self.null_move,
            "reverse_futility" => &mut self.reverse_futility,
            "futility" => &mut self.futility,
            "late_move_pruning" => &mut self.late_move_pruning,
            "log_reductions" => &mut self.log_reductions,
            "check_extension" => &mut self.check_extension,
            "see_qsearch" => &mut self.see_qsearch,
            "see_ordering" => &mut self.see_ordering,
            "see_pruning" => &mut self.see_pruning,
            "qsearch_tt" => &mut self.qsearch_tt,
            "iir" => &mut self.iir,
            "continuation_history" => &mut self.continuation_history,
            "lmr_extras" => &mut self.lmr_extras,
            "improving" => &mut self.improving,
            "history_pruning" => &mut self.history_pruning,
            "reduce_checks" => &mut self.reduce_checks,
            "safe_check_extension" => &mut self.safe_check_extension,
            "prune_unsafe_checks" => &mut self.prune_unsafe_checks,
            "early_reductions" => &mut self.early_reductions,
            "singular_extension" => &mut self.singular_extension,
            "tt_eval" => &mut self.tt_eval,
            "reduce_bad_captures" => &mut self.reduce_bad_captures,
            "qsearch_checks" => &mut self.qsearch_checks,
            "root_reductions" => &mut self.root_reductions,
            "correction_history" => &mut self.correction_history,
            _ => return None,
        })
    }

    /// Whether the switch called `name` is on; `None` if there is no such switch.
    pub fn switch(&self, name: &str) -> Option<bool> {
        let mut copy = *self;
        copy.switch_mut(name).map(|on| *on)
    }

    /// The switches an evaluator of `V` uses unless it chooses (the default of
    /// [`Evaluator::SEARCH`]): [`SearchParams::DROP_GAME`] when `V` has drops (nearly every
    /// drop next to the king checks, and the drop games' search was proven on that),
    /// [`SearchParams::DEFAULT`] otherwise.
    pub const fn for_variant<V: Variant>() -> SearchParams {
        if kshogi_core::has_drops::<V>() {
            SearchParams::DROP_GAME
        } else {
            SearchParams::DEFAULT
        }
    }
}

/// A static evaluation for variant `V`: what the search needs to know beyond the rules.
///
/// Every method has a default: [`PieceTableEval`] uses them all, so any variant can be searched
/// with no evaluation code of its own, from values derived from its piece table (see
/// [`eval::EvalParams::derive`]). A tuned evaluation is a zero-sized type implementing this
/// trait for one variant, overriding what it knows better; the registry of variants pairs
/// each variant with its evaluator.
pub trait Evaluator<V: Variant>: Copy + Default + Send + Sync + 'static {
    /// The selective techniques the search uses for this variant.
    ///
    /// The default is [`SearchParams::for_variant`]: the drop games' search for a variant
    /// with drops, [`SearchParams::DEFAULT`] otherwise.
    const SEARCH: SearchParams = SearchParams::for_variant::<V>();

    /// The switches the search reads at each node: [`Evaluator::SEARCH`]. Leave it: the
    /// constant is then folded into the monomorphised search, and a technique that is off
    /// costs nothing. Only a tool that plays a variant's switches against each other in one
    /// program overrides it (the tuner's `kshogi-tune switches`, whose evaluator reads them
    /// from its thread at run time); the numeric parameters stay the engine's
    /// ([`Engine::set_tuning`]).
    #[inline(always)]
    fn switches() -> SearchParams {
        Self::SEARCH
    }

    /// Static evaluation in centipawns from the side to move's point of view.
    #[inline]
    fn evaluate(pos: &Position<V>) -> i32 {
        Self::breakdown(pos).total
    }

    /// The value of a piece showing `kind` on the board, in centipawns, for move ordering
    /// (most valuable victim first). The default is the derived value of
    /// [`eval::EvalParams::derive`]; a royal piece of a variant without the check rule, whose
    /// capture wins, is worth [`eval::ROYAL_VALUE`].
    #[inline(always)]
    fn piece_value(kind: Kind) -> i32 {
        eval::derived_piece_value::<V>(kind)
    }

    /// Whether the quiescence search should also try this non-capturing legal move of the
    /// side to move (a promotion, a move that may win at once). The default: a flip that makes
    /// the piece worth at least [`eval::TACTICAL_GAIN`] more.
    #[inline(always)]
    fn is_tactical(pos: &Position<V>, mv: Move) -> bool {
        eval::derived_is_tactical::<V, Self>(pos, mv)
    }

    /// Whether the mate solver lets the attacker (the side to move in `pos`) play every legal
    /// move here rather than only checks and moves that win at once, because the rules force
    /// the game to end soon anyway (Kinzoku: the lone king while the countdown runs, whose
    /// survival wins). Default: no.
    #[inline(always)]
    fn attacker_unrestricted(_pos: &Position<V>) -> bool {
        false
    }

    /// The static evaluation with its parts, for display and tuning. The default: material,
    /// mobility and king safety with the derived weights of [`eval::EvalParams::derive`].
    #[inline]
    fn breakdown(pos: &Position<V>) -> EvalBreakdown {
        eval::derived_breakdown(pos)
    }
    /// The state an incremental evaluator keeps per search thread (an accumulator per ply
    /// of the path, say), made once with each thread's buffers, never per node, and handed
    /// back to the hooks below as `&mut dyn Any` (downcast it to the type made here). The
    /// search calls [`Evaluator::on_root`] before searching, [`Evaluator::on_make`] and
    /// [`Evaluator::on_null_move`] before each move it makes, and
    /// [`Evaluator::evaluate_at`] for its static evaluations; a move's unmaking needs no
    /// call, since the position at a ply is always the last one made to reach it. The
    /// default keeps nothing (a box of `()`, which allocates nothing) and every hook does
    /// nothing, so an evaluator that does not use them is searched exactly as before.
    fn new_state() -> Box<dyn Any + Send> {
        Box::new(())
    }

    /// A search starts from `root`, the position at ply 0.
    #[inline(always)]
    fn on_root(_state: &mut dyn Any, _root: &Position<V>) {}

    /// The search is about to make the legal move `mv` in `before`, the position at `ply`;
    /// the position after it is at `ply + 1` (below [`MAX_SEARCH_PLY`]).
    #[inline(always)]
    fn on_make(_state: &mut dyn Any, _before: &Position<V>, _mv: Move, _ply: usize) {}

    /// The search is about to pass (a null move) in the position at `ply`: the position at
    /// `ply + 1` has the same pieces and hands, the other side to move.
    #[inline(always)]
    fn on_null_move(_state: &mut dyn Any, _ply: usize) {}

    /// The static evaluation of `pos`, the position at `ply` of the search path (reached
    /// from the root by the moves announced to the hooks). The default is
    /// [`Evaluator::evaluate`]; an incremental evaluator must return the same value.
    #[inline(always)]
    fn evaluate_at(_state: &mut dyn Any, pos: &Position<V>, _ply: usize) -> i32 {
        Self::evaluate(pos)
    }
}

/// The evaluation derived from a variant's piece table, for any variant: the default of
/// every [`Evaluator`] method.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PieceTableEval;

impl<V: Variant> Evaluator<V> for PieceTableEval {}

/// The searcher: owns the transposition table and the move-ordering tables.
pub struct Engine<V: Variant, E: Evaluator<V> = PieceTableEval> {
    tt: tt::Table,
    state: Box<search::State>,
    /// The buffers and ordering tables of the Lazy SMP helper threads (threads - 1).
    helpers: Vec<search::State>,
    /// The numeric parameters of the search (from [`Evaluator::SEARCH`] until set).
    tuning: SearchTuning,
    _v: core::marker::PhantomData<(V, E)>,
}

impl<V: Variant, E: Evaluator<V>> Engine<V, E> {
    /// A searcher with a transposition table of at most `hash_mb` MiB (at least one cluster of
    /// 48 bytes when `hash_mb` is 0).
    pub fn new(hash_mb: usize) -> Engine<V, E> {
        debug_assert_eq!(E::SEARCH.tuning.validate(), Ok(()));
        Engine {
            tt: tt::Table::new(hash_mb),
            state: search::State::new(E::new_state(), &E::SEARCH.tuning),
            helpers: Vec::new(),
            tuning: E::SEARCH.tuning,
            _v: core::marker::PhantomData,
        }
    }

    /// Searches from now on with the numeric parameters `tuning` instead of the evaluator's
    /// ([`SearchParams::tuning`]); refused, and nothing changed, if a value is outside its
    /// range ([`SearchTuning::TABLE`]). The switches stay the evaluator's. This is how the
    /// SPSA tuner plays two sets of parameters against each other in one process.
    pub fn set_tuning(&mut self, tuning: SearchTuning) -> Result<(), TuningError> {
        tuning.validate()?;
        self.tuning = tuning;
        Ok(())
    }

    /// The numeric parameters the search uses.
    pub fn tuning(&self) -> &SearchTuning {
        &self.tuning
    }

    /// Resizes (and clears) the transposition table; memory stays within `hash_mb` MiB.
    pub fn set_hash(&mut self, hash_mb: usize) {
        self.tt = tt::Table::new(hash_mb);
    }

    /// Forgets everything learnt (USI `usinewgame`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.state.clear();
        for h in &mut self.helpers {
            h.clear();
        }
    }

    /// Sets the number of search threads (at least 1; USI `Threads`). With more than one,
    /// the search is Lazy SMP: helper threads search the same position beside the main one,
    /// sharing the transposition table, and the main thread's result is the answer; node
    /// counts and limits are the sum over the threads. A search with one thread is
    /// deterministic at fixed depth; with more it is not (the threads race for the table).
    pub fn set_threads(&mut self, threads: usize) {
        let helpers = threads.max(1) - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            self.helpers
                .push(*search::State::new(E::new_state(), &self.tuning));
        }
    }

    /// The number of search threads (see [`Engine::set_threads`]).
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Transposition-table fill, per mille (sampled from the first thousand entries).
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Number of entries the transposition table holds.
    pub fn hash_entries(&self) -> usize {
        self.tt.entries()
    }

    /// Bytes the transposition table occupies (never more than the MiB asked for).
    pub fn hash_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Searches the current position of `game` (its history feeds the repetition rule) for
    /// the `multipv` best moves within `limits`. Returns promptly once `stop` becomes true.
    /// Calls `on_info` after each completed iteration for each line. Deterministic for a
    /// fixed depth (no time or node limit): same input, same result.
    ///
    /// Details: the first root move of the first iteration (depth 1) is always searched to
    /// the end, so a position with a legal move always gets at least one line; after it,
    /// the node limit, the clock and `stop` end the search even inside the first iteration,
    /// and the answer is then the best of the root moves searched so far (one line, depth 0
    /// in the result, reported to `on_info` as depth 1). A game that is over (including by repetition)
    /// gets no lines. With no depth, node, time or mate limit and not `infinite`, the search
    /// runs to its maximum depth (100) or until `stop`. With a `mate` limit alone, it also
    /// stops after completing depth `mate + 4`. When the search stops in the middle of an
    /// iteration, the lines of the last completed iteration are returned, except that with
    /// one line a different move that the unfinished iteration proved better (searched to
    /// the end with a full window) replaces the first line.
    pub fn search(
        &mut self,
        game: &Game<V>,
        limits: &Limits,
        multipv: usize,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        search::run::<V, E>(
            &self.tuning,
            &mut self.tt,
            &mut self.state,
            &mut self.helpers,
            game,
            limits,
            multipv,
            stop,
            on_info,
        )
    }
}

impl<V: Variant, E: Evaluator<V>> core::fmt::Debug for Engine<V, E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Engine")
            .field("hash_entries", &self.tt.entries())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every switch of [`SearchParams`] is named once, in the order of the fields, and its
    /// name reads and sets that field: a switch added to the struct and not to the list
    /// fails here (the Debug form lists the fields independently of the list).
    #[test]
    fn every_switch_is_named_in_order() {
        let shown = format!("{:?}", SearchParams::DEFAULT);
        let fields: Vec<&str> = shown
            .split([',', '{'])
            .filter_map(|f| {
                let (name, value) = f.split_once(':')?;
                matches!(value.trim(), "true" | "false").then_some(name.trim())
            })
            .collect();
        assert_eq!(fields, SearchParams::SWITCHES);
        for &name in SearchParams::SWITCHES {
            for base in [SearchParams::DEFAULT, SearchParams::DROP_GAME] {
                let was = base.switch(name).expect("a named switch");
                let mut flipped = base;
                *flipped.switch_mut(name).unwrap() = !was;
                assert_eq!(flipped.switch(name), Some(!was), "{name}");
                // Only that field changed.
                let differing = SearchParams::SWITCHES
                    .iter()
                    .filter(|&&n| flipped.switch(n) != base.switch(n))
                    .count();
                assert_eq!(differing, 1, "{name}");
                assert_ne!(format!("{flipped:?}"), format!("{base:?}"), "{name}");
            }
        }
        assert_eq!(SearchParams::DEFAULT.switch("no_such_switch"), None);
        assert_eq!(SearchParams::DROP_GAME.switch("log_reductions"), Some(true));
        assert_eq!(SearchParams::DEFAULT.switch("log_reductions"), Some(false));
    }
}
