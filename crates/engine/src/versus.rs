//! The engine against a simple opponent over many games: the match of `kshogi selfplay`
//! (and so of the `cargo xtask match` strength check), played with [`crate::selfplay`].
//!
//! Every game starts from the variant's start position; the engine takes Black in the
//! even-numbered games (0, 2, ...) and White in the others. A game ends by the rules (the
//! game's outcome, repetition included) or, after [`VersusConfig::max_plies`] plies,
//! unfinished (a draw). All randomness comes from the seed and the game number
//! ([`game_rng`]), so a fixed-depth match is reproducible whatever the number of threads.

use crate::selfplay::{self, GreedyPlayer, PlayConfig, Player, RandomPlayer, SearchPlayer, Sides};
use crate::{Engine, Evaluator, Limits};
use kshogi_core::rng::SplitMix64;
use kshogi_core::{Color, Game, Move, Position, Variant};
use std::collections::HashSet;

/// The engine's opponent.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// A uniformly random legal move ([`RandomPlayer`]).
    Random,
    /// The best move one ply deep by the engine's own static evaluation ([`GreedyPlayer`]).
    Greedy,
}

impl Opponent {
    /// The opponent's name: `random` or `greedy`.
    pub fn name(self) -> &'static str {
        match self {
            Opponent::Random => "random",
            Opponent::Greedy => "greedy",
        }
    }
}

/// The settings of a match, independent of the variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersusConfig {
    /// The opponent.
    pub opponent: Opponent,
    /// Number of games.
    pub games: u32,
    /// The engine's limits per move.
    pub limits: Limits,
    /// Seed of every random choice.
    pub seed: u64,
    /// Plies after which a game stops unfinished (a draw).
    pub max_plies: usize,
    /// Plies at the start of each game played at random by both sides.
    pub random_opening: usize,
    /// Hash size of each engine, in MiB.
    pub hash_mb: usize,
    /// Games played at the same time, each on its own thread with its own engine.
    pub threads: usize,
}

/// The random-number generator of game `index` of a match with `seed`.
pub fn game_rng(seed: u64, index: u32) -> SplitMix64 {
    let mut r = SplitMix64::new(seed ^ u64::from(index).wrapping_mul(0xD1B5_4A32_D192_ED03));
    r.next_u64();
    r
}

/// The engine's result in one game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The engine won.
    Win,
    /// Nobody won (by the rules, or by the length limit).
    Draw,
    /// The opponent won.
    Loss,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct Played {
    /// Game number from 0.
    pub index: u32,
    /// The engine's colour.
    pub engine: Color,
    /// The engine's result.
    pub result: GameResult,
    /// How the game ended: the outcome, or the length limit.
    pub ending: String,
    /// The moves from the start position.
    pub moves: Vec<Move>,
}

impl GameResult {
    /// The result of `game` (finished, or stopped by a length limit: a draw) for `color`.
    pub fn of<V: Variant>(game: &Game<V>, color: Color) -> GameResult {
        match game.outcome().and_then(|o| o.winner()) {
            Some(c) if c == color => GameResult::Win,
            Some(_) => GameResult::Loss,
            None => GameResult::Draw,
        }
    }
}

/// Plays one game from `V`'s start between `player`, with `color`, and `opponent` (any two
/// players: the engine against a simple opponent, or two engines), as [`selfplay::play`]
/// does with `config` and `rng`, and returns it.
pub fn play_against<V: Variant>(
    player: &mut dyn Player<V>,
    opponent: &mut dyn Player<V>,
    color: Color,
    config: PlayConfig,
    rng: &mut SplitMix64,
) -> Game<V> {
    play_against_from(
        Game::new(Position::<V>::start()),
        player,
        opponent,
        color,
        config,
        rng,
    )
}

/// [`play_against`] on from `start` (a position and the moves that led to it, for example
/// an opening of a file): the game's record keeps `start`'s moves, so repetitions through
/// them count, and they count toward `config`'s plies (the random ones and the limit).
pub fn play_against_from<V: Variant>(
    start: Game<V>,
    player: &mut dyn Player<V>,
    opponent: &mut dyn Player<V>,
    color: Color,
    config: PlayConfig,
    rng: &mut SplitMix64,
) -> Game<V> {
    let mut game = start;
    match color {
        Color::Black => {
            let mut sides = Sides {
                black: player,
                white: opponent,
            };
            selfplay::play(&mut game, &mut sides, config, rng, &mut |_| {});
        }
        Color::White => {
            let mut sides = Sides {
                black: opponent,
                white: player,
            };
            selfplay::play(&mut game, &mut sides, config, rng, &mut |_| {});
        }
    }
    game
}

/// Plays game `index` of the match with `engine` (cleared first) against `cfg.opponent`,
/// which for [`Opponent::Greedy`] judges by the engine's evaluation `E`.
pub fn play_game<V: Variant, E: Evaluator<V>>(
    engine: &mut Engine<V, E>,
    cfg: &VersusConfig,
    index: u32,
) -> Played {
    let engine_color = if index % 2 == 0 {
        Color::Black
    } else {
        Color::White
    };
    let mut rng = game_rng(cfg.seed, index);
    engine.clear();
    let mut searcher = SearchPlayer {
        engine,
        limits: cfg.limits.clone(),
    };
    let (mut random, mut greedy) = (RandomPlayer, GreedyPlayer::<E>::default());
    let opponent: &mut dyn Player<V> = match cfg.opponent {
        Opponent::Random => &mut random,
        Opponent::Greedy => &mut greedy,
    };
    let config = PlayConfig {
        random_opening: cfg.random_opening,
        max_plies: cfg.max_plies,
    };
    let game = play_against(&mut searcher, opponent, engine_color, config, &mut rng);
    let ending = match game.outcome() {
        Some(o) => o.to_string(),
        None => format!("draw by the length limit ({} plies)", game.moves().len()),
    };
    Played {
        index,
        engine: engine_color,
        result: GameResult::of(&game, engine_color),
        ending,
        moves: game.moves().to_vec(),
    }
}

/// Plays the match's games on `cfg.threads` threads (each with its own engine of
/// `cfg.hash_mb` MiB, [`selfplay::run_games`]) and returns them in game order.
pub fn play_games<V: Variant, E: Evaluator<V>>(cfg: &VersusConfig) -> Vec<Played> {
    selfplay::run_games(
        cfg.threads,
        0..cfg.games,
        &|| Engine::<V, E>::new(cfg.hash_mb),
        &|engine, i| play_game(engine, cfg, i),
        &|_| {},
    )
}

/// Wins, draws and losses of the engine.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Engine wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Engine losses.
    pub losses: u32,
}

impl Tally {
    /// Counts one more game.
    pub fn add(&mut self, r: GameResult) {
        match r {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }

    /// The tally of `results`.
    pub fn of(results: &[GameResult]) -> Tally {
        let mut t = Tally::default();
        for &r in results {
            t.add(r);
        }
        t
    }

    /// The games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The engine's score, from 0 to 1 (a win 1, a draw 1/2); 0 without games.
    pub fn score(&self) -> f64 {
        let n = f64::from(self.games()).max(1.0);
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n
    }

    /// The Elo difference the score stands for (infinite at a score of 0 or 1).
    pub fn elo(&self) -> f64 {
        -400.0 * (1.0 / self.score() - 1.0).log10()
    }
}

/// The sums of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Every game.
    pub total: Tally,
    /// The games with the engine as Black.
    pub as_black: Tally,
    /// The games with the engine as White.
    pub as_white: Tally,
    /// Mean game length in plies (0 without games).
    pub average_plies: f64,
    /// How many games differ in their moves.
    pub distinct_games: usize,
}

impl Summary {
    /// The sums of `played`.
    pub fn of(played: &[Played]) -> Summary {
        let mut s = Summary {
            total: Tally::default(),
            as_black: Tally::default(),
            as_white: Tally::default(),
            average_plies: 0.0,
            distinct_games: 0,
        };
        let mut plies = 0usize;
        let mut distinct = HashSet::new();
        for p in played {
            s.total.add(p.result);
            match p.engine {
                Color::Black => s.as_black.add(p.result),
                Color::White => s.as_white.add(p.result),
            }
            plies += p.moves.len();
            distinct.insert(&p.moves);
        }
        s.average_plies = plies as f64 / played.len().max(1) as f64;
        s.distinct_games = distinct.len();
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PieceTableEval;
    use kshogi_rules_micro::Micro;

    fn cfg(opponent: Opponent, games: u32) -> VersusConfig {
        VersusConfig {
            opponent,
            games,
            limits: Limits {
                depth: Some(1),
                ..Limits::default()
            },
            seed: 7,
            max_plies: 40,
            random_opening: 0,
            hash_mb: 1,
            threads: 2,
        }
    }

    #[test]
    fn rng_is_deterministic_and_in_range() {
        let mut a = game_rng(1, 3);
        let mut b = game_rng(1, 3);
        for _ in 0..100 {
            let x = a.below(7);
            assert_eq!(x, b.below(7));
            assert!(x < 7);
        }
        assert_ne!(game_rng(1, 3).next_u64(), game_rng(1, 4).next_u64());
    }

    #[test]
    fn a_small_match_adds_up_alternates_colours_and_replays() {
        for opponent in [Opponent::Random, Opponent::Greedy] {
            let played = play_games::<Micro, PieceTableEval>(&cfg(opponent, 4));
            assert_eq!(
                played.iter().map(|p| p.index).collect::<Vec<_>>(),
                [0, 1, 2, 3]
            );
            let s = Summary::of(&played);
            let (t, b, w) = (s.total, s.as_black, s.as_white);
            assert_eq!(t.wins + t.draws + t.losses, 4);
            assert_eq!(b.wins + b.draws + b.losses, 2);
            assert_eq!(w.wins + w.draws + w.losses, 2);
            assert!(s.average_plies <= 40.0 && s.distinct_games <= 4);
            for p in &played {
                // Even games Black, odd games White; the moves replay legally, and the
                // result agrees with the replayed game.
                let black = p.index % 2 == 0;
                assert_eq!(p.engine == Color::Black, black);
                let mut game = Game::new(Position::<Micro>::start());
                for &mv in &p.moves {
                    game.play(mv).unwrap();
                }
                let expected = match game.outcome().and_then(|o| o.winner()) {
                    Some(c) if c == p.engine => GameResult::Win,
                    Some(_) => GameResult::Loss,
                    None => GameResult::Draw,
                };
                assert_eq!(p.result, expected);
            }
            // The same settings play the same games, whatever the threads.
            let again = play_games::<Micro, PieceTableEval>(&VersusConfig {
                threads: 1,
                ..cfg(opponent, 4)
            });
            let moves = |ps: &[Played]| ps.iter().map(|p| p.moves.clone()).collect::<Vec<_>>();
            assert_eq!(moves(&played), moves(&again));
        }
    }

    #[test]
    fn the_summary_counts_by_hand() {
        let game = |index: u32, engine: Color, result: GameResult, moves: Vec<Move>| Played {
            index,
            engine,
            result,
            ending: String::new(),
            moves,
        };
        let m = Position::<Micro>::start()
            .legal_moves()
            .iter()
            .next()
            .copied()
            .unwrap();
        let played = [
            game(0, Color::Black, GameResult::Win, vec![m]),
            game(1, Color::White, GameResult::Loss, vec![m]),
            game(2, Color::Black, GameResult::Draw, vec![]),
        ];
        let s = Summary::of(&played);
        // Three games: one of each result; two as Black (a win, a draw), one as White (a
        // loss); 1 + 1 + 0 plies over 3 games; two different move lists.
        assert_eq!((s.total.wins, s.total.draws, s.total.losses), (1, 1, 1));
        assert_eq!(
            (s.as_black.wins, s.as_black.draws, s.as_black.losses),
            (1, 1, 0)
        );
        assert_eq!(
            (s.as_white.wins, s.as_white.draws, s.as_white.losses),
            (0, 0, 1)
        );
        assert!((s.average_plies - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(s.distinct_games, 2);
    }

    #[test]
    fn a_tally_scores_by_hand() {
        use GameResult::{Draw, Loss, Win};
        let t = Tally::of(&[Win, Win, Draw, Loss]);
        assert_eq!((t.wins, t.draws, t.losses, t.games()), (2, 1, 1, 4));
        // 2.5 points of 4.
        assert!((t.score() - 0.625).abs() < 1e-12);
        // -400 log10(1 / 0.625 - 1) = -400 log10(0.6) = 88.7 Elo.
        assert!((t.elo() - 88.74).abs() < 0.01, "{}", t.elo());
        let even = Tally::of(&[Win, Loss]);
        assert!(even.elo().abs() < 1e-9);
        assert_eq!(Tally::default().score(), 0.0);
        assert_eq!(Tally::of(&[Win]).elo(), f64::INFINITY);
    }
}
