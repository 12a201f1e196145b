//! The engine's [`Evaluator`] over a net: [`NnueEval`] evaluates with the net installed for
//! the variant ([`install`]) and takes everything else (search switches, piece values for
//! move ordering, tactical moves) from the variant's registered evaluator, so that a match
//! between the two compares the evaluations alone.
//!
//! This first form refreshes the accumulator on the stack at every evaluation (no
//! allocation); the accumulator stack updated by the search's make and unmake is the next
//! step (docs/nnue.md).

use kshogi_core::{Kind, Move, Position};
use kshogi_engine::{EvalBreakdown, Evaluator, SearchParams};
use kshogi_nnue::Network;
use kshogi_registry::Registered;
use std::any::Any;
use std::sync::OnceLock;

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

/// Evaluates with the installed net (the registered evaluation while none is installed).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct NnueEval;

impl<V: Registered> Evaluator<V> for NnueEval {
    const SEARCH: SearchParams = <V::Eval as Evaluator<V>>::SEARCH;

    #[inline]
    fn evaluate(pos: &Position<V>) -> i32 {
        match net::<V>() {
            Some(n) => n.evaluate_position(pos),
            None => <V::Eval as Evaluator<V>>::evaluate(pos),
        }
    }

    #[inline(always)]
    fn piece_value(kind: Kind) -> i32 {
        <V::Eval as Evaluator<V>>::piece_value(kind)
    }

    #[inline(always)]
    fn is_tactical(pos: &Position<V>, mv: Move) -> bool {
        <V::Eval as Evaluator<V>>::is_tactical(pos, mv)
    }

    #[inline(always)]
    fn attacker_unrestricted(pos: &Position<V>) -> bool {
        <V::Eval as Evaluator<V>>::attacker_unrestricted(pos)
    }

    /// The registered evaluation's parts with the net's total.
    fn breakdown(pos: &Position<V>) -> EvalBreakdown {
        EvalBreakdown {
            total: <Self as Evaluator<V>>::evaluate(pos),
            ..<V::Eval as Evaluator<V>>::breakdown(pos)
        }
    }
}
