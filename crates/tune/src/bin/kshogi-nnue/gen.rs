//! Training positions from self-play: the engine with the variant's linear evaluation (the
//! registered one, or the fallback of a registered net: [`LinearOf`]) plays games at a fixed
//! node budget from seeded random openings (the tuner's
//! [`kshogi_tune::data::stream_rng`]), and the quiet position the quiescence search reaches
//! from each position it moves in ([`kshogi_tune::data::quiet_leaf`]) is kept with the
//! linear evaluation's score of it and, once the game ends, the result. A net is taught by
//! the linear evaluation, never by an earlier net, so that the same options give the same
//! net whichever evaluation is registered.

use kshogi_core::{Color, Game, Position};
use kshogi_engine::selfplay::{self, PlayConfig, SearchPlayer};
use kshogi_engine::{Engine, Evaluator, Limits};
use kshogi_registry::{LinearOf, Registered};
use kshogi_tune::data::{quiet_leaf, stream_rng};
use std::sync::atomic::{AtomicU32, Ordering};

/// How to play the games.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Games.
    pub games: u32,
    /// Engine nodes per move.
    pub nodes: u64,
    /// Random plies at the start of each game.
    pub opening: usize,
    /// Plies after which a game stops as a draw.
    pub max_plies: usize,
    /// Seed of the openings.
    pub seed: u64,
    /// Games at once (the data do not depend on it).
    pub threads: usize,
}

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

fn play_one<V: Registered>(
    engine: &mut Engine<V, LinearOf<V>>,
    cfg: &GenConfig,
    index: u32,
) -> Vec<Record<V>> {
    let mut rng = stream_rng(cfg.seed, u64::from(index));
    let mut game = Game::new(Position::<V>::start());
    engine.clear();
    let mut player = SearchPlayer {
        engine,
        limits: Limits {
            nodes: Some(cfg.nodes),
            ..Limits::default()
        },
    };
    let config = PlayConfig {
        random_opening: cfg.opening,
        max_plies: cfg.max_plies,
    };
    let mut out = Vec::new();
    selfplay::play(&mut game, &mut player, config, &mut rng, &mut |g| {
        if let Some(leaf) = quiet_leaf::<V, LinearOf<V>>(g.position()) {
            out.push(Record {
                pos: leaf,
                eval: <LinearOf<V> as Evaluator<V>>::evaluate(&leaf),
                result: 0.5,
                game: index,
            });
        }
    });
    let result = match game.outcome().and_then(|o| o.winner()) {
        Some(Color::Black) => 1.0,
        Some(Color::White) => 0.0,
        None => 0.5,
    };
    for r in &mut out {
        r.result = result;
    }
    out
}

/// Plays the games on `cfg.threads` threads and returns their records in game order;
/// `progress` gets the number of games done after each game.
pub fn generate<V: Registered>(cfg: &GenConfig, progress: &(dyn Fn(u32) + Sync)) -> Vec<Record<V>> {
    let threads = cfg.threads.max(1);
    let done = AtomicU32::new(0);
    let mut games: Vec<(u32, Vec<Record<V>>)> = Vec::new();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let done = &done;
                scope.spawn(move || {
                    let mut engine = Engine::<V, LinearOf<V>>::new(1);
                    let mut out = Vec::new();
                    let mut index = t as u32;
                    while index < cfg.games {
                        out.push((index, play_one(&mut engine, cfg, index)));
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                        index += threads as u32;
                    }
                    out
                })
            })
            .collect();
        for h in handles {
            games.extend(h.join().unwrap_or_default());
        }
    });
    games.sort_by_key(|(i, _)| *i);
    games.into_iter().flat_map(|(_, r)| r).collect()
}
