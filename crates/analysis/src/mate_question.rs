//! The answer to a mate question (`go mate`): is there a forced win by checks from a game's
//! position, and which line. The front end only writes the answer.

use crate::legal_prefix;
use kshogi_core::{Game, Move, Variant};
use kshogi_engine::mate::{self, MateResult};
use kshogi_engine::Evaluator;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;

/// What [`solve_mate`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateAnswer {
    /// A forced win, as a legal line from the position (attacker and defender alternating;
    /// never empty).
    Mate(Vec<Move>),
    /// Proven: no forced win by checks, or the game is already over.
    NoMate,
    /// Not decided: the node budget or the stop flag ended the solver first, or the line
    /// it found was not legal from its first move (a bug the caller survives).
    Unknown,
}

/// Runs the df-pn mate solver on `game`'s position within `max_nodes` nodes, until `stop`
/// is raised. A finished game has no mate to find; a solver that panics is
/// [`MateAnswer::Unknown`]; a line is cut at its first move that is not legal.
pub fn solve_mate<V: Variant, E: Evaluator<V>>(
    game: &Game<V>,
    max_nodes: u64,
    stop: &AtomicBool,
) -> MateAnswer {
    if game.outcome().is_some() {
        return MateAnswer::NoMate;
    }
    let pos = game.position();
    let result = catch_unwind(AssertUnwindSafe(|| {
        mate::solve::<V, E>(pos, max_nodes, stop)
    }))
    .unwrap_or(MateResult::Unknown);
    match result {
        MateResult::Mate { pv, .. } => {
            let pv = legal_prefix(pos, &pv);
            if pv.is_empty() {
                MateAnswer::Unknown
            } else {
                MateAnswer::Mate(pv)
            }
        }
        MateResult::NoMate => MateAnswer::NoMate,
        MateResult::Unknown => MateAnswer::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_notation::{parse_game, parse_usi};
    use kshogi_registry::types::Kyoto;
    use kshogi_registry::Registered;

    type Eval = <Kyoto as Registered>::Eval;

    #[test]
    fn a_mate_in_one_and_a_finished_game() {
        // Kyoto, Black to move with a gold in hand: G*5b mates at once (hand-checked in the
        // USI loop's tests: after it White has no legal move), so the solver finds a mate
        // in one; whichever it gives, the game must be won by Black after it.
        let game = parse_game::<Kyoto>("k4/5/1S3/5/4K b G 9").unwrap();
        let never = AtomicBool::new(false);
        let MateAnswer::Mate(pv) = solve_mate::<Kyoto, Eval>(&game, 100_000, &never) else {
            panic!("no mate found");
        };
        assert_eq!(pv.len(), 1, "{pv:?}");
        let mut after = game.clone();
        after.play(pv[0]).unwrap();
        let black = game.position().side_to_move();
        assert_eq!(after.outcome().and_then(|o| o.winner()), Some(black));
        assert!(parse_usi(game.position(), "G*5b").is_ok());
        // After the mate the game is over: nothing to find.
        let over = parse_game::<Kyoto>("k4/5/1S3/5/4K b G 9 moves G*5b").unwrap();
        assert_eq!(
            solve_mate::<Kyoto, Eval>(&over, 100_000, &never),
            MateAnswer::NoMate
        );
    }
}
