//! Training positions from self-play: the tuner's games ([`kshogi_tune::data::play_quiet`]:
//! the engine with the variant's linear evaluation, the registered one or the fallback of a
//! registered net ([`LinearOf`]), at a fixed node budget from seeded random openings), and
//! the quiet position the quiescence search reaches from each position it moves in, kept
//! with the linear evaluation's score of it and, once the game ends, the result. A net is
//! taught by the linear evaluation, never by an earlier net, so that the same options give
//! the same net whichever evaluation is registered.

use kshogi_core::Position;
use kshogi_engine::selfplay::run_games;
use kshogi_engine::{Engine, Evaluator};
use kshogi_registry::{LinearOf, Registered};
use kshogi_tune::data::{play_quiet, GenConfig};

/// A quiet position of a game.
#[derive(Clone, Debug)]
pub struct Record<V: Registered> {
    /// The position.
    pub pos: Position<V>,
    /// The linear evaluation of it, for its side to move.
    pub eval: i32,
    /// Black's result of the game: 1, 1/2 or 0.
    pub result: f32,
    /// The game's index.
    pub game: u32,
}

/// Plays the games on `cfg.threads` threads and returns their records in game order;
/// `progress` gets the number of games done after each game.
pub fn generate<V: Registered>(cfg: &GenConfig, progress: &(dyn Fn(u32) + Sync)) -> Vec<Record<V>> {
    let games = run_games(
        cfg.threads,
        0..cfg.games,
        &|| Engine::<V, LinearOf<V>>::new(1),
        &|engine, index| {
            let game = play_quiet(engine, cfg, index, &mut |leaf: &Position<V>| {
                (*leaf, <LinearOf<V> as Evaluator<V>>::evaluate(leaf))
            });
            let result = game.result as f32;
            game.records
                .into_iter()
                .map(|(pos, eval)| Record {
                    pos,
                    eval,
                    result,
                    game: index,
                })
                .collect::<Vec<_>>()
        },
        progress,
    );
    games.into_iter().flatten().collect()
}
