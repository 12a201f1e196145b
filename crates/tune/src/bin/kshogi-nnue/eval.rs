//! The engine's [`Evaluator`]s over the net installed for the run ([`install`]), both taking
//! everything but the score (search switches, piece values for move ordering, tactical
//! moves) from the variant's linear evaluation ([`LinearOf`]: the registered evaluator, or
//! a registered net's fallback), so that a match between a net and a linear registered
//! evaluation compares the evaluations alone:
//!
//! - [`NnueEval`]: the library's evaluator ([`kshogi_tuned_eval::nnue::NnueEval`]) with the
//!   accumulator stack driven by the search's make and unmake, over [`Installed`];
//! - [`TeacherEval`]: the same evaluator over the teacher's net ([`install_teacher`]), a
//!   slot of its own, so that one run can play its games with a teacher and then match
//!   the net it trained (`kshogi-nnue pipeline --teacher NET`);
//! - [`LastEval`]: the first form, kept to measure the stack against: each search thread
//!   keeps the last position it evaluated and its accumulator (allocated once per thread,
//!   never per node), and brings it to the next position by the squares and hand counts
//!   that differ ([`Network::update_between`]), refreshing when more than [`MAX_CHANGES`]
//!   squares do.

use kshogi_core::{Kind, Move, Position};
use kshogi_engine::{EvalBreakdown, Evaluator, SearchParams};
use kshogi_nnue::{Accumulator, Network};
use kshogi_registry::{LinearOf, Registered};
use kshogi_tuned_eval::nnue::NetSource;
use std::any::Any;
use std::cell::RefCell;
use std::sync::OnceLock;

/// Squares that may differ between the last evaluated position and the next for an update;
/// beyond, a refresh is cheaper (two rows a square against one row a piece).
pub const MAX_CHANGES: usize = 5;

/// The last position a thread evaluated with the net, and its accumulator.
struct Last<V: Registered> {
    pos: Position<V>,
    acc: Accumulator,
}

thread_local! {
    /// This thread's [`Last`], of whichever variant it evaluates.
    static LAST: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

/// The net's score of `pos`, through this thread's last accumulator.
#[inline]
fn evaluate_cached<V: Registered>(net: &Network<V>, pos: &Position<V>) -> i32 {
    LAST.with(|cell| {
        let Ok(mut slot) = cell.try_borrow_mut() else {
            return net.evaluate_position(pos);
        };
        if let Some(last) = slot.as_mut().and_then(|b| b.downcast_mut::<Last<V>>()) {
            net.update_between(&mut last.acc, &last.pos, pos, MAX_CHANGES);
            last.pos = *pos;
            return net.evaluate(&last.acc, pos.side_to_move());
        }
        let mut acc = Accumulator::default();
        net.refresh(pos, &mut acc);
        let score = net.evaluate(&acc, pos.side_to_move());
        *slot = Some(Box::new(Last { pos: *pos, acc }));
        score
    })
}

/// The installed net, of whichever variant the program runs.
static NET: OnceLock<Box<dyn Any + Send + Sync>> = OnceLock::new();

/// Installs `net` as the net of [`NnueEval`] for this run (once; a second call is an
/// error).
pub fn install<V: Registered>(net: Network<V>) -> Result<(), String> {
    NET.set(Box::new(net))
        .map_err(|_| "a net is already installed".to_string())
}

/// The installed net, if it is one for `V`.
#[inline(always)]
pub fn net<V: Registered>() -> Option<&'static Network<V>> {
    NET.get()?.downcast_ref::<Network<V>>()
}

/// The teacher's net, of whichever variant the program runs.
static TEACHER: OnceLock<Box<dyn Any + Send + Sync>> = OnceLock::new();

/// Installs `net` as the teacher of this run, the net of [`TeacherEval`] (once; a second
/// call is an error).
pub fn install_teacher<V: Registered>(net: Network<V>) -> Result<(), String> {
    TEACHER
        .set(Box::new(net))
        .map_err(|_| "a teacher is already installed".to_string())
}

/// The installed teacher, if it is one for `V`.
#[inline(always)]
pub fn teacher<V: Registered>() -> Option<&'static Network<V>> {
    TEACHER.get()?.downcast_ref::<Network<V>>()
}

/// The teacher installed for the run ([`install_teacher`]) as a [`NetSource`], with the
/// variant's linear evaluation as its fallback.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TeacherNet;

impl<V: Registered> NetSource<V> for TeacherNet {
    type Fallback = LinearOf<V>;

    #[inline(always)]
    fn net() -> Option<&'static Network<V>> {
        teacher::<V>()
    }
}

/// Evaluates with the teacher's net through the search's accumulator stack.
pub type TeacherEval = kshogi_tuned_eval::nnue::NnueEval<TeacherNet>;

/// The net installed for the run ([`install`]), as a [`NetSource`] whose fallback is the
/// variant's linear evaluation ([`LinearOf`]: the registered evaluator, or a registered
/// net's fallback).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Installed;

impl<V: Registered> NetSource<V> for Installed {
    type Fallback = LinearOf<V>;

    #[inline(always)]
    fn net() -> Option<&'static Network<V>> {
        net::<V>()
    }
}

/// Evaluates with the installed net through the search's accumulator stack (the linear
/// evaluation while none is installed).
pub type NnueEval = kshogi_tuned_eval::nnue::NnueEval<Installed>;

/// Evaluates with the installed net through the thread's last accumulator (the linear
/// evaluation while none is installed).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LastEval;

impl<V: Registered> Evaluator<V> for LastEval {
    const SEARCH: SearchParams = <LinearOf<V> as Evaluator<V>>::SEARCH;

    #[inline]
    fn evaluate(pos: &Position<V>) -> i32 {
        match net::<V>() {
            Some(n) => evaluate_cached(n, pos),
            None => <LinearOf<V> as Evaluator<V>>::evaluate(pos),
        }
    }

    #[inline(always)]
    fn piece_value(kind: Kind) -> i32 {
        <LinearOf<V> as Evaluator<V>>::piece_value(kind)
    }

    #[inline(always)]
    fn is_tactical(pos: &Position<V>, mv: Move) -> bool {
        <LinearOf<V> as Evaluator<V>>::is_tactical(pos, mv)
    }

    #[inline(always)]
    fn attacker_unrestricted(pos: &Position<V>) -> bool {
        <LinearOf<V> as Evaluator<V>>::attacker_unrestricted(pos)
    }

    /// The linear evaluation's parts with the net's total.
    fn breakdown(pos: &Position<V>) -> EvalBreakdown {
        EvalBreakdown {
            total: <Self as Evaluator<V>>::evaluate(pos),
            ..<LinearOf<V> as Evaluator<V>>::breakdown(pos)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_core::rng::SplitMix64;
    use kshogi_nnue::{FloatNet, Layout};
    use kshogi_registry::types::Minishogi;

    #[test]
    fn the_cached_evaluation_equals_a_fresh_one() {
        let net: Network<Minishogi> = FloatNet::new(Layout::of::<Minishogi>().features(), 16, 2)
            .quantise(700)
            .expect("valid");
        install(net.clone()).expect("first install");
        let mut rng = SplitMix64::new(4);
        let mut pos = Position::<Minishogi>::start();
        let mut seen = vec![pos];
        for _ in 0..300 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                pos = Position::start();
                continue;
            }
            pos = pos.after(moves[rng.below(moves.len())]);
            seen.push(pos);
            // Now and then a position far from the last one.
            let p = if rng.below(4) == 0 {
                seen[rng.below(seen.len())]
            } else {
                pos
            };
            assert_eq!(
                <LastEval as Evaluator<Minishogi>>::evaluate(&p),
                net.evaluate_position(&p)
            );
        }
    }
}
