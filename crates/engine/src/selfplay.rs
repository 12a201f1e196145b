//! Self-play: one game loop for every program that plays the engine against itself or a
//! simple opponent (the tuner's data generation, `kshogi selfplay`).
//!
//! A game is played by two [`Player`]s from a start, with the first plies at random (to
//! vary the games), up to a length limit. Everything random comes from one seeded
//! [`SplitMix64`], so a seed gives the same game on every machine.

use crate::{Engine, Evaluator, Limits, Score};
use kshogi_core::rng::SplitMix64;
use kshogi_core::{Color, Game, Move, Position, Variant};
use std::marker::PhantomData;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Mutex, PoisonError};

/// Someone who chooses moves.
pub trait Player<V: Variant> {
    /// The move to play in `game`, which is not finished; `None` ends the game early.
    fn choose(&mut self, game: &Game<V>, rng: &mut SplitMix64) -> Option<Move>;
}

impl<V: Variant, P: Player<V> + ?Sized> Player<V> for &mut P {
    fn choose(&mut self, game: &Game<V>, rng: &mut SplitMix64) -> Option<Move> {
        (**self).choose(game, rng)
    }
}

/// Two players, one for each side: the side to move chooses.
#[derive(Copy, Clone, Debug, Default)]
pub struct Sides<B, W> {
    /// Black's player.
    pub black: B,
    /// White's player.
    pub white: W,
}

impl<V: Variant, B: Player<V>, W: Player<V>> Player<V> for Sides<B, W> {
    fn choose(&mut self, game: &Game<V>, rng: &mut SplitMix64) -> Option<Move> {
        match game.position().side_to_move() {
            Color::Black => self.black.choose(game, rng),
            Color::White => self.white.choose(game, rng),
        }
    }
}

/// A uniformly random legal move.
pub fn random_move<V: Variant>(pos: &Position<V>, rng: &mut SplitMix64) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    Some(moves[rng.below(moves.len())])
}

/// The greedy player's move: the best position one ply deep for the mover by `E`'s static
/// evaluation (an immediate win best, an immediate loss worst, a draw 0, otherwise minus
/// the opponent's evaluation), ties broken at random.
pub fn greedy_move<V: Variant, E: Evaluator<V>>(
    game: &Game<V>,
    rng: &mut SplitMix64,
) -> Option<Move> {
    const WIN: i64 = 1 << 40;
    let mover = game.position().side_to_move();
    let mut best: Vec<Move> = Vec::new();
    let mut best_score = i64::MIN;
    for &mv in game.position().legal_moves().iter() {
        let mut g = game.clone();
        if g.play(mv).is_err() {
            continue;
        }
        let score = match g.outcome() {
            Some(o) => match o.winner() {
                Some(c) if c == mover => WIN,
                Some(_) => -WIN,
                None => 0,
            },
            None => -i64::from(E::evaluate(g.position())),
        };
        if score > best_score {
            best_score = score;
            best.clear();
        }
        if score == best_score {
            best.push(mv);
        }
    }
    if best.is_empty() {
        return None;
    }
    Some(best[rng.below(best.len())])
}

/// Plays a uniformly random legal move.
#[derive(Copy, Clone, Debug, Default)]
pub struct RandomPlayer;

impl<V: Variant> Player<V> for RandomPlayer {
    fn choose(&mut self, game: &Game<V>, rng: &mut SplitMix64) -> Option<Move> {
        random_move(game.position(), rng)
    }
}

/// Plays [`greedy_move`] by the evaluation `E`.
#[derive(Copy, Clone, Debug, Default)]
pub struct GreedyPlayer<E>(PhantomData<E>);

impl<V: Variant, E: Evaluator<V>> Player<V> for GreedyPlayer<E> {
    fn choose(&mut self, game: &Game<V>, rng: &mut SplitMix64) -> Option<Move> {
        greedy_move::<V, E>(game, rng)
    }
}

/// Plays the first move of the engine's best line within `limits`; with no line, the first
/// legal move.
pub struct SearchPlayer<'a, V: Variant, E: Evaluator<V>> {
    /// The engine (its hash table carries over from move to move).
    pub engine: &'a mut Engine<V, E>,
    /// The limits of each search.
    pub limits: Limits,
}

impl<V: Variant, E: Evaluator<V>> SearchPlayer<'_, V, E> {
    /// The move [`Player::choose`] plays in `game`, with the score of the search's best
    /// line for the side to move (`None` when the search gave no line and the first legal
    /// move is played).
    pub fn choose_scored(&mut self, game: &Game<V>) -> (Option<Move>, Option<Score>) {
        let never = AtomicBool::new(false);
        let result = self
            .engine
            .search(game, &self.limits, 1, &never, &mut |_| {});
        match result.lines.first() {
            Some(line) if game.position().is_legal(line.mv) => (Some(line.mv), Some(line.score)),
            _ => (game.position().legal_moves().iter().next().copied(), None),
        }
    }
}

impl<V: Variant, E: Evaluator<V>> Player<V> for SearchPlayer<'_, V, E> {
    fn choose(&mut self, game: &Game<V>, _: &mut SplitMix64) -> Option<Move> {
        self.choose_scored(game).0
    }
}

/// How a game of [`play`] is played.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlayConfig {
    /// Plies at the start played at random by both sides.
    pub random_opening: usize,
    /// Plies after which the game stops unfinished.
    pub max_plies: usize,
}

/// Plays `game` on: the first [`PlayConfig::random_opening`] plies of the game at random,
/// then `player`'s moves (for both sides; [`Sides`] gives each side its own), until the
/// game ends, reaches [`PlayConfig::max_plies`] plies, or the player has no move.
/// `before_move` sees the game before each move the player chooses (not the random
/// opening's).
pub fn play<V: Variant>(
    game: &mut Game<V>,
    player: &mut dyn Player<V>,
    config: PlayConfig,
    rng: &mut SplitMix64,
    before_move: &mut dyn FnMut(&Game<V>),
) {
    while game.outcome().is_none() && game.moves().len() < config.max_plies {
        let mv = if game.moves().len() < config.random_opening {
            random_move(game.position(), rng)
        } else {
            before_move(game);
            player.choose(game, rng)
        };
        // A player's move is legal; a failure would only end the game early.
        match mv {
            Some(mv) if game.play(mv).is_ok() => {}
            _ => break,
        }
    }
}

/// Plays the games numbered `games` on `threads` threads (at least one, at most one a
/// game), the one loop of every program that plays many games: each thread makes its own
/// state with `state` (its engines) and plays game `i` with `play(&mut state, i)`, taking
/// the next game not yet started; `progress` gets the number of games done after each
/// game. Returns what each game gave, in game order. When a game depends on its number
/// alone (its engines cleared first, its random numbers seeded by the number), the result
/// is the same whatever the number of threads.
pub fn run_games<S, T: Send>(
    threads: usize,
    games: Range<u32>,
    state: &(dyn Fn() -> S + Sync),
    play: &(dyn Fn(&mut S, u32) -> T + Sync),
    progress: &(dyn Fn(u32) + Sync),
) -> Vec<T> {
    let count = games.end.saturating_sub(games.start);
    let threads = threads.clamp(1, usize::try_from(count).unwrap_or(1).max(1));
    let next = AtomicU32::new(games.start);
    let done = AtomicU32::new(0);
    let results: Mutex<Vec<(u32, T)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut st = state();
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= games.end {
                        break;
                    }
                    let r = play(&mut st, i);
                    results
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push((i, r));
                    progress(done.fetch_add(1, Ordering::SeqCst) + 1);
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(PoisonError::into_inner);
    results.sort_by_key(|&(i, _)| i);
    results.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PieceTableEval;
    use kshogi_rules_micro::Micro;

    /// A player that counts its calls and always plays the first legal move.
    struct First(usize);

    impl<V: Variant> Player<V> for First {
        fn choose(&mut self, game: &Game<V>, _: &mut SplitMix64) -> Option<Move> {
            self.0 += 1;
            game.position().legal_moves().iter().next().copied()
        }
    }

    #[test]
    fn the_opening_is_random_and_the_players_take_turns() {
        let (mut b, mut w) = (First(0), First(0));
        let mut seen = 0;
        let mut game = Game::new(Position::<Micro>::start());
        let config = PlayConfig {
            random_opening: 4,
            max_plies: 10,
        };
        let mut rng = SplitMix64::new(3);
        let mut sides = Sides {
            black: &mut b,
            white: &mut w,
        };
        play(&mut game, &mut sides, config, &mut rng, &mut |_| seen += 1);
        // Ten plies unless the game ended: four at random, then three each.
        if game.outcome().is_none() {
            assert_eq!(game.moves().len(), 10);
            assert_eq!((b.0, w.0, seen), (3, 3, 6));
        }
        assert_eq!(b.0 + w.0, seen);
    }

    #[test]
    fn a_search_player_gives_the_score_of_the_move_it_plays() {
        // Black wins at once (a gold to 4b or 3b, guarded by the other).
        let pos = kshogi_notation::parse_sfen::<Micro>("k3/4/GG2/4/3K b - 1").unwrap();
        let game = Game::new(pos);
        let mut engine = Engine::<Micro, PieceTableEval>::new(1);
        let mut player = SearchPlayer {
            engine: &mut engine,
            limits: Limits {
                depth: Some(3),
                ..Limits::default()
            },
        };
        let (mv, score) = player.choose_scored(&game);
        assert_eq!(score, Some(crate::Score::Mate(1)));
        let mut after = pos;
        after.make(mv.unwrap());
        // The game is over: Black has won (by mate, or by leaving White no move).
        assert!(after.legal_moves().is_empty());
        assert_eq!(after.no_move_outcome().winner(), Some(Color::Black));
        // `choose` plays the same move.
        assert_eq!(player.choose(&game, &mut SplitMix64::new(1)), mv);
        // With no legal move there is no line: the score is `None`.
        let (_, none) = player.choose_scored(&Game::new(after));
        assert_eq!(none, None);
    }

    #[test]
    fn the_same_seed_plays_the_same_game() {
        let game_of = |seed| {
            let mut game = Game::new(Position::<Micro>::start());
            let config = PlayConfig {
                random_opening: 0,
                max_plies: 30,
            };
            let mut sides = Sides {
                black: RandomPlayer,
                white: GreedyPlayer::<PieceTableEval>::default(),
            };
            let mut rng = SplitMix64::new(seed);
            play(&mut game, &mut sides, config, &mut rng, &mut |_| {});
            game.moves().to_vec()
        };
        assert_eq!(game_of(1), game_of(1));
        assert_ne!(game_of(1), game_of(2));
    }

    #[test]
    fn greedy_takes_a_win_in_one_whenever_there_is_one() {
        // Random Micro games; wherever the mover has a move that ends the game in its
        // favour (by the rules' own outcome), the greedy player must play one of them.
        let mut found = 0;
        for seed in 0..200 {
            let mut rng = SplitMix64::new(seed);
            let mut game = Game::new(Position::<Micro>::start());
            while game.outcome().is_none() && game.moves().len() < 80 {
                let mover = game.position().side_to_move();
                let wins: Vec<Move> = game
                    .position()
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|&m| {
                        let mut g = game.clone();
                        g.play(m).is_ok() && g.outcome().and_then(|o| o.winner()) == Some(mover)
                    })
                    .collect();
                if !wins.is_empty() {
                    let mv = greedy_move::<Micro, PieceTableEval>(&game, &mut rng).unwrap();
                    assert!(wins.contains(&mv));
                    found += 1;
                }
                let mv = random_move(game.position(), &mut rng).unwrap();
                game.play(mv).unwrap();
            }
        }
        assert!(found > 0, "no position with a win in one was met");
    }

    #[test]
    fn run_games_gives_every_game_once_in_order_whatever_the_threads() {
        use std::sync::atomic::AtomicUsize;
        let states = AtomicUsize::new(0);
        let last = AtomicU32::new(0);
        for threads in [1, 3, 50] {
            states.store(0, Ordering::SeqCst);
            let got = run_games(
                threads,
                5..12,
                &|| {
                    states.fetch_add(1, Ordering::SeqCst);
                    Vec::<u32>::new()
                },
                &|seen: &mut Vec<u32>, i| {
                    seen.push(i);
                    i * 10
                },
                &|n| {
                    last.fetch_max(n, Ordering::SeqCst);
                },
            );
            assert_eq!(got, [50, 60, 70, 80, 90, 100, 110], "{threads} threads");
            // One state a thread, at most one thread a game.
            assert_eq!(states.load(Ordering::SeqCst), threads.min(7));
            assert_eq!(last.load(Ordering::SeqCst), 7);
        }
        let none: Vec<u32> = run_games(2, 3..3, &|| (), &|_, i| i, &|_| {});
        assert!(none.is_empty());
    }
}
