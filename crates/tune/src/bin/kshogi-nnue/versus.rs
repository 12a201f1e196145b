//! A fixed-node match between the net ([`NnueEval`]) and the variant's registered
//! evaluation, both searching with the same switches: pairs of games from the same seeded
//! random opening, the net Black in the first game of a pair and White in the second.

use crate::eval::NnueEval;
use kshogi_core::rng::SplitMix64;
use kshogi_core::{Color, Game, Position};
use kshogi_engine::selfplay::{self, PlayConfig, SearchPlayer, Sides};
use kshogi_engine::{Engine, Limits};
use kshogi_registry::Registered;
use kshogi_tune::data::stream_rng;
use std::sync::atomic::{AtomicU32, Ordering};

/// How to play the match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Games (rounded up to pairs).
    pub games: u32,
    /// Nodes per move for both sides.
    pub nodes: u64,
    /// Time per move for both sides instead of a node count (an equal-time match).
    pub movetime: Option<std::time::Duration>,
    /// Random plies of each opening.
    pub opening: usize,
    /// Plies after which a game is a draw.
    pub max_plies: usize,
    /// Seed of the openings.
    pub seed: u64,
    /// Games at once.
    pub threads: usize,
}

/// The net's wins, draws and losses.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the net won.
    pub wins: u32,
    /// Drawn games (by the rules or the length limit).
    pub draws: u32,
    /// Games the net lost.
    pub losses: u32,
}

impl Tally {
    /// The net's score, from 0 to 1.
    pub fn score(&self) -> f64 {
        let n = f64::from(self.wins + self.draws + self.losses).max(1.0);
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n
    }

    /// The Elo difference the score stands for (infinite at 0 or 1).
    pub fn elo(&self) -> f64 {
        let s = self.score();
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Plays game `index`: the opening of pair `index / 2`, the net Black when `index` is even.
fn play_one<V: Registered>(
    net: &mut Engine<V, NnueEval>,
    base: &mut Engine<V, V::Eval>,
    cfg: &MatchConfig,
    index: u32,
) -> Option<bool> {
    let mut rng: SplitMix64 = stream_rng(cfg.seed, u64::from(index / 2));
    let mut game = Game::new(Position::<V>::start());
    net.clear();
    base.clear();
    let limits = match cfg.movetime {
        Some(t) => Limits {
            time: Some(t),
            ..Limits::default()
        },
        None => Limits {
            nodes: Some(cfg.nodes),
            ..Limits::default()
        },
    };
    let net_player = SearchPlayer {
        engine: net,
        limits: limits.clone(),
    };
    let base_player = SearchPlayer {
        engine: base,
        limits,
    };
    let config = PlayConfig {
        random_opening: cfg.opening,
        max_plies: cfg.max_plies,
    };
    let net_color = if index % 2 == 0 {
        Color::Black
    } else {
        Color::White
    };
    if net_color == Color::Black {
        let mut sides = Sides {
            black: net_player,
            white: base_player,
        };
        selfplay::play(&mut game, &mut sides, config, &mut rng, &mut |_| {});
    } else {
        let mut sides = Sides {
            black: base_player,
            white: net_player,
        };
        selfplay::play(&mut game, &mut sides, config, &mut rng, &mut |_| {});
    }
    game.outcome()
        .and_then(|o| o.winner())
        .map(|w| w == net_color)
}

/// The net's half points in each pair of games (0 to 4), pairs in order, from the results
/// of the games in index order (`Some(true)` a net win, `None` a draw).
pub fn pairs(results: &[Option<bool>]) -> Vec<u8> {
    results
        .chunks(2)
        .map(|pair| {
            pair.iter()
                .map(|r| match r {
                    Some(true) => 2,
                    Some(false) => 0,
                    None => 1,
                })
                .sum()
        })
        .collect()
}

/// Plays the match on `cfg.threads` threads; `progress` gets the games done. Returns the
/// tally and each game's result in index order (`Some(true)` a net win, `None` a draw).
pub fn play<V: Registered>(
    cfg: &MatchConfig,
    progress: &(dyn Fn(u32) + Sync),
) -> (Tally, Vec<Option<bool>>) {
    let games = cfg.games.div_ceil(2) * 2;
    let threads = cfg.threads.max(1);
    let done = AtomicU32::new(0);
    let mut tally = Tally::default();
    let mut all = vec![None; games as usize];
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let done = &done;
                scope.spawn(move || {
                    let mut net = Engine::<V, NnueEval>::new(4);
                    let mut base = Engine::<V, V::Eval>::new(4);
                    let mut results = Vec::new();
                    let mut index = t as u32;
                    while index < games {
                        results.push((index, play_one(&mut net, &mut base, cfg, index)));
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                        index += threads as u32;
                    }
                    results
                })
            })
            .collect();
        for h in handles {
            for (index, r) in h.join().unwrap_or_default() {
                all[index as usize] = r;
                match r {
                    Some(true) => tally.wins += 1,
                    Some(false) => tally.losses += 1,
                    None => tally.draws += 1,
                }
            }
        }
    });
    (tally, all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_count_the_net_s_half_points_of_each_opening() {
        // Games 0 and 1 share an opening: win + loss is 2 + 0 half points; draw + win is
        // 1 + 2; loss + loss is 0.
        let results = [
            Some(true),
            Some(false),
            None,
            Some(true),
            Some(false),
            Some(false),
        ];
        assert_eq!(pairs(&results), vec![2, 3, 0]);
    }
}
