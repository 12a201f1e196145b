//! The candidate evaluation of the pipeline's SPRT: a variant's registered evaluator `E`
//! with other weights, set at run time, so that the fitted weights can play against the
//! ones they would replace without building the program again.
//!
//! [`Candidate<E>`] evaluates exactly as `E` does (the shared terms, `E`'s own untuned
//! terms, the tempo), with the weights of the calling thread ([`with_weights`]) in place
//! of `E`'s; capture ordering, the quiescence search's tactical moves and the search
//! switches stay `E`'s, so that the match measures the weights alone. The weights are a
//! thread-local copy: reading them allocates nothing.

use kshogi_core::{Kind, Move, Position, Variant};
use kshogi_engine::eval::{
    common, extra_terms, finish, EvalBreakdown, EvalParams, Linear, N_EXTRA,
};
use kshogi_engine::{Evaluator, SearchParams};
use std::cell::Cell;
use std::marker::PhantomData;

thread_local! {
    /// The weights of [`Candidate`] on this thread; `None`: the base evaluator's.
    static WEIGHTS: Cell<Option<EvalParams>> = const { Cell::new(None) };
}

/// Runs `f` with [`Candidate`]'s weights set to `params` on this thread, and restores the
/// weights it had before.
pub fn with_weights<R>(params: EvalParams, f: impl FnOnce() -> R) -> R {
    let before = WEIGHTS.with(|w| w.replace(Some(params)));
    let r = f();
    WEIGHTS.with(|w| w.set(before));
    r
}

/// The evaluator `E` with the weights of [`with_weights`] (outside it, `E`'s own).
pub struct Candidate<E>(PhantomData<fn() -> E>);

impl<E> Clone for Candidate<E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for Candidate<E> {}

impl<E> Default for Candidate<E> {
    fn default() -> Self {
        Candidate(PhantomData)
    }
}

impl<V: Variant, E: Linear<V>> Evaluator<V> for Candidate<E> {
    const SEARCH: SearchParams = E::SEARCH;

    #[inline(always)]
    fn piece_value(kind: Kind) -> i32 {
        E::piece_value(kind)
    }

    #[inline(always)]
    fn is_tactical(pos: &Position<V>, mv: Move) -> bool {
        E::is_tactical(pos, mv)
    }

    #[inline(always)]
    fn attacker_unrestricted(pos: &Position<V>) -> bool {
        E::attacker_unrestricted(pos)
    }

    #[inline]
    fn breakdown(pos: &Position<V>) -> EvalBreakdown {
        let p = <Self as Linear<V>>::params();
        let (m, mo, ks) = common(pos, &p);
        let own = extra_terms(&p, &E::extra_features(pos));
        finish(pos, m, mo, ks, own + E::untuned(pos))
    }
}

impl<V: Variant, E: Linear<V>> Linear<V> for Candidate<E> {
    fn params() -> EvalParams {
        WEIGHTS.with(Cell::get).unwrap_or_else(E::params)
    }

    const EXTRA_NAMES: &'static [&'static str] = E::EXTRA_NAMES;

    #[inline(always)]
    fn extra_features(pos: &Position<V>) -> [i32; N_EXTRA] {
        E::extra_features(pos)
    }

    #[inline(always)]
    fn untuned(pos: &Position<V>) -> i32 {
        E::untuned(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::stream_rng;
    use kshogi_core::Game;
    use kshogi_engine::eval::linear_evaluate;
    use kshogi_registry::{with_variant, LinearOf, Registered, VariantKind};

    /// On positions of random games: with the base weights the candidate is the base
    /// evaluator itself; with other weights it is their feature form (the Linear contract,
    /// an independent computation: the dot product of the features).
    fn check<V: Registered>() -> usize {
        let base = <LinearOf<V> as Linear<V>>::params();
        let mut other = base;
        other.mobility += 7;
        other.zone_defend -= 3;
        let mut n = 0;
        for g in 0..5 {
            let mut rng = stream_rng(11, g);
            let mut game = Game::new(Position::<V>::start());
            while game.outcome().is_none() && game.moves().len() < 80 {
                let pos = game.position();
                assert_eq!(
                    <Candidate<LinearOf<V>> as Evaluator<V>>::evaluate(pos),
                    <LinearOf<V> as Evaluator<V>>::evaluate(pos)
                );
                let got = with_weights(other, || {
                    <Candidate<LinearOf<V>> as Evaluator<V>>::evaluate(pos)
                });
                assert_eq!(
                    got,
                    linear_evaluate::<V, LinearOf<V>>(pos, &other.to_weights())
                );
                n += 1;
                let moves = pos.legal_moves();
                game.play(moves[rng.below(moves.len())]).unwrap();
            }
        }
        n
    }

    #[test]
    fn candidate_is_the_base_evaluator_with_other_weights() {
        for &kind in VariantKind::ALL {
            assert!(with_variant!(kind, V => check::<V>()) > 20);
        }
        // Outside `with_weights` the base weights are back.
        type V = kshogi_registry::types::Kyoto;
        assert_eq!(
            <Candidate<LinearOf<V>> as Linear<V>>::params(),
            <LinearOf<V> as Linear<V>>::params()
        );
    }
}
