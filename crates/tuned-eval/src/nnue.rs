//! An [`Evaluator`] over an NNUE net ([`kshogi_nnue::Network`]) with an accumulator stack
//! driven by the search: [`NnueEval`].
//!
//! Where the net comes from is a [`NetSource`]: a net embedded in the program
//! ([`embedded_net!`](crate::embedded_net), for a variant whose registered evaluation is a
//! net, from `weights/<variant>.nnue`) or one installed at run time (the `kshogi-nnue`
//! program). Everything but the score (the search switches, the piece values of move
//! ordering, the tactical moves, the mate solver's rule) is the source's fallback
//! evaluator's, which also scores while the source has no net.
//!
//! ## The stack
//!
//! Each search thread has a [`Stack`] ([`Evaluator::new_state`]): one entry per ply of the
//! search path (allocated once with the thread's buffers, never per node), each with an
//! accumulator, the feature changes of the move that reached it and whether the
//! accumulator is computed. The root's accumulator is computed from scratch
//! ([`Evaluator::on_root`]); making a move records its changes in the next ply's entry,
//! marked not computed ([`Evaluator::on_make`]; a null move records none); an evaluation
//! at a ply computes the entries from the nearest computed one below, each from its parent
//! by the recorded changes ([`Network::apply_delta`]). Unmaking needs nothing: the next move
//! made from the same ply overwrites the entry above it. So a node that is never evaluated
//! (cut by the table, say) costs the recording of two feature changes, not an update.
//!
//! In debug builds, and whenever the source asks ([`NetSource::VERIFY`]), every stacked
//! evaluation checks its accumulator against one computed from scratch.

use core::marker::PhantomData;
use kshogi_core::{Kind, Move, Position, Variant};
use kshogi_engine::eval::Tunable;
use kshogi_engine::{EvalBreakdown, Evaluator, SearchParams, MAX_SEARCH_PLY};
/// The net type, for [`embedded_net!`](crate::embedded_net).
pub use kshogi_nnue::Network;
use kshogi_nnue::{Accumulator, Delta};
use std::any::Any;

/// Where [`NnueEval`] finds its net, and what it falls back on.
pub trait NetSource<V: Variant>: Copy + Default + Send + Sync + 'static {
    /// The evaluator whose search switches, piece values, tactical moves and mate-solver
    /// rule the net's evaluator uses, and whose score stands in while there is no net.
    type Fallback: Evaluator<V>;

    /// Whether every stacked evaluation is checked against a refresh, in release builds
    /// too (a test's source sets it; debug builds always check).
    const VERIFY: bool = false;

    /// The net, if there is one (called at every evaluation: keep it cheap).
    fn net() -> Option<&'static Network<V>>;
}

/// One ply of a [`Stack`].
#[derive(Clone)]
struct Entry {
    acc: Accumulator,
    /// The feature changes of the move from the ply below (none for a null move).
    delta: [Delta; 2],
    /// Whether `acc` is this ply's accumulator.
    computed: bool,
}

/// A search thread's accumulators, one per ply of the path (see the module documentation).
pub struct Stack<V: Variant> {
    entries: Vec<Entry>,
    _v: PhantomData<V>,
}

impl<V: Variant> Default for Stack<V> {
    fn default() -> Self {
        Stack {
            entries: vec![
                Entry {
                    acc: Accumulator::default(),
                    delta: [Delta::default(); 2],
                    computed: false,
                };
                MAX_SEARCH_PLY + 1
            ],
            _v: PhantomData,
        }
    }
}

impl<V: Variant> Stack<V> {
    /// The root's accumulator, from scratch.
    pub fn root(&mut self, net: &Network<V>, root: &Position<V>) {
        net.refresh(root, &mut self.entries[0].acc);
        self.entries[0].computed = true;
    }

    /// Records the move `mv` made in `before`, the position at `ply`.
    #[inline(always)]
    pub fn make(&mut self, net: &Network<V>, before: &Position<V>, mv: Move, ply: usize) {
        let e = &mut self.entries[ply + 1];
        e.delta = net.layout().delta(before, mv);
        e.computed = false;
    }

    /// Records a null move made at `ply`.
    #[inline(always)]
    pub fn null_move(&mut self, ply: usize) {
        let e = &mut self.entries[ply + 1];
        e.delta = [Delta::default(); 2];
        e.computed = false;
    }

    /// The accumulator of the position at `ply`, computed from the nearest computed entry
    /// below it.
    #[inline]
    pub fn accumulator(&mut self, net: &Network<V>, ply: usize) -> &Accumulator {
        let mut k = ply;
        while !self.entries[k].computed {
            // The root is always computed: a search calls `root` first.
            debug_assert!(k > 0, "the accumulator stack has no computed root");
            k -= 1;
        }
        for j in k + 1..=ply {
            let (below, above) = self.entries.split_at_mut(j);
            let e = &mut above[0];
            net.apply_delta(&below[j - 1].acc, &mut e.acc, &e.delta);
            e.computed = true;
        }
        &self.entries[ply].acc
    }
}

/// Evaluates with the net of `S` through the search's accumulator stack, and takes
/// everything else from `S::Fallback` (see the module documentation).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct NnueEval<S>(PhantomData<S>);

impl<V: Variant, S: NetSource<V>> Evaluator<V> for NnueEval<S> {
    const SEARCH: SearchParams = <S::Fallback as Evaluator<V>>::SEARCH;

    /// The net's score from an accumulator computed from scratch (the search uses the
    /// stack, [`Evaluator::evaluate_at`]).
    #[inline]
    fn evaluate(pos: &Position<V>) -> i32 {
        match S::net() {
            Some(net) => net.evaluate_position(pos),
            None => <S::Fallback as Evaluator<V>>::evaluate(pos),
        }
    }

    #[inline(always)]
    fn piece_value(kind: Kind) -> i32 {
        <S::Fallback as Evaluator<V>>::piece_value(kind)
    }

    #[inline(always)]
    fn is_tactical(pos: &Position<V>, mv: Move) -> bool {
        <S::Fallback as Evaluator<V>>::is_tactical(pos, mv)
    }

    #[inline(always)]
    fn attacker_unrestricted(pos: &Position<V>) -> bool {
        <S::Fallback as Evaluator<V>>::attacker_unrestricted(pos)
    }

    /// The fallback evaluation's parts with the net's total.
    fn breakdown(pos: &Position<V>) -> EvalBreakdown {
        EvalBreakdown {
            total: <Self as Evaluator<V>>::evaluate(pos),
            ..<S::Fallback as Evaluator<V>>::breakdown(pos)
        }
    }

    fn new_state() -> Box<dyn Any + Send> {
        Box::new(Stack::<V>::default())
    }

    #[inline]
    fn on_root(state: &mut dyn Any, root: &Position<V>) {
        if let (Some(net), Some(stack)) = (S::net(), state.downcast_mut::<Stack<V>>()) {
            stack.root(net, root);
        }
    }

    #[inline(always)]
    fn on_make(state: &mut dyn Any, before: &Position<V>, mv: Move, ply: usize) {
        if let (Some(net), Some(stack)) = (S::net(), state.downcast_mut::<Stack<V>>()) {
            stack.make(net, before, mv, ply);
        }
    }

    #[inline(always)]
    fn on_null_move(state: &mut dyn Any, ply: usize) {
        if let Some(stack) = state.downcast_mut::<Stack<V>>() {
            stack.null_move(ply);
        }
    }

    #[inline]
    fn evaluate_at(state: &mut dyn Any, pos: &Position<V>, ply: usize) -> i32 {
        let (Some(net), Some(stack)) = (S::net(), state.downcast_mut::<Stack<V>>()) else {
            return <Self as Evaluator<V>>::evaluate(pos);
        };
        let acc = stack.accumulator(net, ply);
        if S::VERIFY || cfg!(debug_assertions) {
            let mut fresh = Accumulator::default();
            net.refresh(pos, &mut fresh);
            let h = net.hidden();
            for side in 0..2 {
                assert_eq!(
                    acc.values[side][..h],
                    fresh.values[side][..h],
                    "the stacked accumulator at ply {ply} differs from a refresh"
                );
            }
        }
        net.evaluate(acc, pos.side_to_move())
    }
}

/// The tuner fits the fallback's linear evaluation: the net is made by `kshogi-nnue train`.
impl<V: Variant, S: NetSource<V>> Tunable<V> for NnueEval<S>
where
    S::Fallback: Tunable<V>,
{
    type Linear = <S::Fallback as Tunable<V>>::Linear;
}

/// Declares a [`NetSource`] over a net file embedded in the program: `embedded_net!(Name
/// for Variant = "path/to/file.nnue", fallback Evaluator);` (the path as `include_bytes!`
/// takes it). The file is read and checked on first use; a file that does not read as a
/// net of the variant stops the program at its first evaluation with the file's error
/// (the crate's tests read every embedded net, so that such a file never ships).
#[macro_export]
macro_rules! embedded_net {
    ($(#[$meta:meta])* $name:ident for $v:ty = $file:literal, fallback $fallback:ty;) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl $crate::nnue::NetSource<$v> for $name {
            type Fallback = $fallback;

            #[inline(always)]
            fn net() -> Option<&'static $crate::nnue::Network<$v>> {
                static CELL: std::sync::OnceLock<$crate::nnue::Network<$v>> =
                    std::sync::OnceLock::new();
                if let Some(net) = CELL.get() {
                    return Some(net);
                }
                match $crate::nnue::Network::<$v>::embedded(&CELL, include_bytes!($file)) {
                    Ok(net) => Some(net),
                    Err(e) => panic!("the embedded net {}: {e}", $file),
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MinishogiEval;
    use kshogi_core::rng::SplitMix64;
    use kshogi_core::Game;
    use kshogi_engine::{Engine, Limits};
    use kshogi_nnue::{FloatNet, Layout};
    use kshogi_rules_minishogi::Minishogi;
    use std::sync::atomic::AtomicBool;
    use std::sync::OnceLock;

    /// Minishogi's fitted evaluator with every selective technique that changes the path
    /// the stack must follow on: null moves (and their verification searches), the
    /// singular extension's searches of the same node, internal iterative reduction, the
    /// quiescence table and its checks.
    #[derive(Copy, Clone, Debug, Default)]
    struct Everything;

    impl Evaluator<Minishogi> for Everything {
        const SEARCH: SearchParams = SearchParams {
            null_move: true,
            reverse_futility: true,
            singular_extension: true,
            iir: true,
            qsearch_tt: true,
            qsearch_checks: true,
            improving: true,
            tt_eval: true,
            ..<MinishogiEval as Evaluator<Minishogi>>::SEARCH
        };

        fn evaluate(pos: &Position<Minishogi>) -> i32 {
            <MinishogiEval as Evaluator<Minishogi>>::evaluate(pos)
        }

        fn piece_value(kind: Kind) -> i32 {
            <MinishogiEval as Evaluator<Minishogi>>::piece_value(kind)
        }

        fn is_tactical(pos: &Position<Minishogi>, mv: Move) -> bool {
            <MinishogiEval as Evaluator<Minishogi>>::is_tactical(pos, mv)
        }
    }

    /// A random net (the accumulator's bookkeeping does not depend on trained weights),
    /// every stacked evaluation checked against a refresh.
    #[derive(Copy, Clone, Debug, Default)]
    struct Checked;

    impl NetSource<Minishogi> for Checked {
        type Fallback = Everything;
        const VERIFY: bool = true;

        fn net() -> Option<&'static Network<Minishogi>> {
            static NET: OnceLock<Network<Minishogi>> = OnceLock::new();
            Some(NET.get_or_init(|| {
                FloatNet::new(Layout::of::<Minishogi>().features(), 16, 3)
                    .quantise(700)
                    .expect("a valid net")
            }))
        }
    }

    /// Games of random moves from the start, for positions with pieces in hand.
    fn random_games(n: usize, plies: usize, seed: u64) -> Vec<Game<Minishogi>> {
        let mut rng = SplitMix64::new(seed);
        (0..n)
            .map(|_| {
                let mut g = Game::new(Position::<Minishogi>::start());
                for _ in 0..plies {
                    let moves = g.position().legal_moves();
                    if moves.is_empty() || g.outcome().is_some() {
                        break;
                    }
                    let mv = moves[rng.below(moves.len())];
                    if g.play(mv).is_err() || g.outcome().is_some() {
                        break;
                    }
                }
                g
            })
            .collect()
    }

    #[test]
    fn the_stacked_accumulator_equals_a_refresh_at_every_evaluated_node() {
        // `Checked` asserts at every evaluation of the search; with one thread and with
        // two (the helper has its own stack), from the start and from random positions.
        let stop = AtomicBool::new(false);
        for threads in [1, 2] {
            let mut engine = Engine::<Minishogi, NnueEval<Checked>>::new(4);
            engine.set_threads(threads);
            for g in random_games(6, 12, 7)
                .into_iter()
                .chain([Game::new(Position::start())])
            {
                let limits = Limits {
                    nodes: Some(20_000),
                    ..Limits::default()
                };
                let r = engine.search(&g, &limits, 1, &stop, &mut |_| {});
                if g.moves().is_empty() {
                    assert!(r.nodes > 1000, "the search ran ({} nodes)", r.nodes);
                }
            }
        }
    }

    crate::embedded_net!(
        /// A tiny net (4 hidden units) made by `kshogi-nnue train --variant minishogi
        /// --games 20 --nodes 200 --seed 1 --hidden 4 --epochs 2 --out FILE`.
        Tiny for Minishogi = "../tests/data/minishogi-tiny.nnue", fallback MinishogiEval;
    );

    #[test]
    fn an_embedded_net_is_read_and_searched_with() {
        let net = Tiny::net().expect("the embedded net reads");
        assert_eq!(net.hidden(), 4);
        // The same net every call (read once).
        assert!(core::ptr::eq(net, Tiny::net().expect("again")));
        let pos = Position::<Minishogi>::start();
        assert_eq!(
            <NnueEval<Tiny> as Evaluator<Minishogi>>::evaluate(&pos),
            net.evaluate_position(&pos)
        );
        let mut engine = Engine::<Minishogi, NnueEval<Tiny>>::new(1);
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        let r = engine.search(&Game::new(pos), &limits, 1, &stop, &mut |_| {});
        assert!(pos.legal_moves().contains(&r.lines[0].mv));
    }

    #[test]
    fn minishogi_s_embedded_net_reads() {
        // A net file that does not read would stop the program at its first evaluation.
        let net = crate::MinishogiNet::net().expect("the embedded net reads");
        assert_eq!(net.hidden(), 64);
        assert_eq!(
            net.layout().features(),
            Layout::of::<Minishogi>().features()
        );
    }

    #[test]
    fn a_stack_that_misses_a_move_is_caught() {
        // The check must be able to fail: an entry whose move was not recorded keeps its
        // parent's accumulator, which differs from the child's refresh.
        let net = Checked::net().expect("a net");
        let pos = Position::<Minishogi>::start();
        let mv = pos.legal_moves()[0];
        let mut stack = Stack::<Minishogi>::default();
        stack.root(net, &pos);
        stack.null_move(0); // Wrong: the move was made, not a null move.
        let after = pos.after(mv);
        let stale = *stack.accumulator(net, 1);
        let mut fresh = Accumulator::default();
        net.refresh(&after, &mut fresh);
        assert_ne!(stale, fresh);
        stack.make(net, &pos, mv, 0);
        assert_eq!(*stack.accumulator(net, 1), fresh);
    }

    #[test]
    fn the_net_evaluator_scores_with_the_net_and_orders_with_the_fallback() {
        // The score is the net's (from scratch) in the search and out of it; the piece
        // values are the fitted evaluator's.
        let net = Checked::net().expect("a net");
        for g in random_games(4, 10, 11) {
            let pos = *g.position();
            assert_eq!(
                <NnueEval<Checked> as Evaluator<Minishogi>>::evaluate(&pos),
                net.evaluate_position(&pos)
            );
        }
        for k in 0..10 {
            assert_eq!(
                <NnueEval<Checked> as Evaluator<Minishogi>>::piece_value(Kind(k)),
                <MinishogiEval as Evaluator<Minishogi>>::piece_value(Kind(k))
            );
        }
    }
}
