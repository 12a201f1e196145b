//! Training data: self-play games of the engine with the variant's current evaluation, and
//! the quiet positions of those games labelled with the final result.
//!
//! Each game starts with a few random plies (from a seed, so a run is reproducible), then
//! the engine plays both sides at a fixed node budget. From every position the engine moves
//! in (not in check), a capture-only quiescence search with the current evaluation finds the
//! quiet position at the end of its best line; that position's [`linear_features`] are recorded,
//! unless it is in check or the line ends the game. When the game ends, every recorded
//! position gets its result: 1 for a Black win, 0 for a White win, 1/2 for a draw (by the
//! rules, or by the length limit).

use kshogi_core::{Color, Game, Move, Position, Variant};
use kshogi_engine::eval::{linear_features, Linear, Tunable, N_WEIGHTS, TEMPO};
use kshogi_engine::selfplay::{self, PlayConfig, SearchPlayer};
use kshogi_engine::{Engine, Evaluator, Limits, Score};

use kshogi_core::rng::SplitMix64;

/// The generator of stream `stream` (a game) of a run seeded with `seed`: the same seed
/// gives the same games on every machine.
pub fn stream_rng(seed: u64, stream: u64) -> SplitMix64 {
    let mut r = SplitMix64::new(seed ^ stream.wrapping_mul(0xA076_1D64_78BD_642F));
    r.next_u64();
    r
}

/// One labelled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// [`linear_features`] of the quiet position.
    pub features: [i32; N_WEIGHTS],
    /// The evaluation's part outside the weights, from Black's view, with [`TEMPO`] for the
    /// side to move included ([`Linear::untuned`] plus or minus [`TEMPO`]).
    pub offset: i32,
    /// The game's result for Black: 1, 1/2 or 0.
    pub result: f64,
    /// The game it comes from (held-out sets are whole games).
    pub game: u32,
}

/// How to generate the data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenConfig {
    /// Games to play.
    pub games: u32,
    /// Engine nodes per move.
    pub nodes: u64,
    /// Random plies at the start of each game.
    pub opening: u32,
    /// Plies after which a game is a draw.
    pub max_plies: usize,
    /// Seed of the random openings.
    pub seed: u64,
    /// Games played at once (the data do not depend on it).
    pub threads: usize,
    /// The positions the games start from (`startpos moves ...` or SFEN lines, each read
    /// and checked already, [`crate::openings::read_openings`]): game `i` starts from line
    /// `i` modulo their number, then plays its random plies. Empty: the start position.
    pub starts: Vec<String>,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            games: 2000,
            nodes: 2000,
            opening: 6,
            max_plies: 300,
            seed: 1,
            threads: 1,
            starts: Vec::new(),
        }
    }
}

/// What one game gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameData {
    /// Its samples.
    pub samples: Vec<Sample>,
    /// Plies played.
    pub plies: usize,
    /// Black's result.
    pub result: f64,
}

/// The deepest capture sequence the quiescence search follows.
const QS_DEPTH: u32 = 12;
/// A score beyond every evaluation: a line that ends the game.
const GAME_OVER: i32 = 1_000_000;

fn is_capture<V: Variant>(pos: &Position<V>, mv: Move) -> bool {
    !mv.is_drop() && pos.piece_at(mv.to()).is_some()
}

/// Capture-only quiescence search with stand-pat: the score for the side to move and the
/// quiet position at the end of the best line (`None` when the best line ends the game).
fn qsearch<V: Variant, E: Evaluator<V>>(
    pos: &Position<V>,
    mut alpha: i32,
    beta: i32,
    depth: u32,
) -> (i32, Option<Position<V>>) {
    let stand = E::evaluate(pos);
    let mut best = (stand, Some(*pos));
    if stand >= beta || depth == 0 {
        return best;
    }
    alpha = alpha.max(stand);
    let mut captures: Vec<(i32, Move)> = pos
        .legal_moves()
        .iter()
        .filter(|&&mv| is_capture(pos, mv))
        .map(|&mv| {
            let victim = pos.piece_at(mv.to()).map_or(0, |p| E::piece_value(p.kind));
            let attacker = mv
                .from()
                .and_then(|f| pos.piece_at(f))
                .map_or(0, |p| E::piece_value(p.kind));
            (victim * 16 - attacker, mv)
        })
        .collect();
    captures.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
    for (_, mv) in captures {
        let next = pos.after(mv);
        let (score, leaf) = match next.outcome() {
            Some(o) => match o.winner() {
                Some(w) if w == pos.side_to_move() => (GAME_OVER, None),
                Some(_) => (-GAME_OVER, None),
                None => (0, None),
            },
            None => {
                let (s, leaf) = qsearch::<V, E>(&next, -beta, -alpha, depth - 1);
                (-s, leaf)
            }
        };
        if score > best.0 {
            best = (score, leaf);
            if score >= beta {
                break;
            }
            alpha = alpha.max(score);
        }
    }
    best
}

/// The quiet position the quiescence search reaches from `pos`, or `None` when it is in
/// check or the best capture line ends the game.
pub fn quiet_leaf<V: Variant, E: Evaluator<V>>(pos: &Position<V>) -> Option<Position<V>> {
    if pos.in_check() {
        return None;
    }
    let (_, leaf) = qsearch::<V, E>(pos, -GAME_OVER - 1, GAME_OVER + 1, QS_DEPTH);
    leaf.filter(|l| !l.in_check())
}

/// A sample of `pos` (its result still unknown).
pub fn sample_of<V: Variant, E: Linear<V>>(pos: &Position<V>, game: u32) -> Sample {
    let tempo = if pos.side_to_move() == Color::Black {
        TEMPO
    } else {
        -TEMPO
    };
    Sample {
        features: linear_features::<V, E>(pos),
        offset: E::untuned(pos) + tempo,
        result: 0.5,
        game,
    }
}

/// What one self-play game of a run gave ([`play_quiet`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QuietGame<T> {
    /// What the caller made of the quiet leaf of each position the engine moved in.
    pub records: Vec<T>,
    /// Plies played.
    pub plies: usize,
    /// Black's result: 1, 1/2 (a draw, or the length limit) or 0.
    pub result: f64,
}

/// A [`SearchPlayer`] that keeps the score of each of its searches, in order.
struct ScoringPlayer<'a, V: Variant, E: Evaluator<V>> {
    player: SearchPlayer<'a, V, E>,
    scores: Vec<Option<Score>>,
}

impl<V: Variant, E: Evaluator<V>> selfplay::Player<V> for ScoringPlayer<'_, V, E> {
    fn choose(&mut self, game: &Game<V>, _: &mut SplitMix64) -> Option<Move> {
        let (mv, score) = self.player.choose_scored(game);
        self.scores.push(score);
        mv
    }
}

/// The one self-play loop of the training data, shared by [`play_quiet`] and
/// [`play_scored`] (whose docs say how a game is played). `before_move` sees each position
/// the engine moves in, before its search; returned with the game's plies and result are
/// what it made of each, in order, beside the score of the search that followed.
fn play_searched<V: Variant, E: Evaluator<V>, T>(
    engine: &mut Engine<V, E>,
    cfg: &GenConfig,
    index: u32,
    before_move: &mut dyn FnMut(&Position<V>) -> T,
) -> QuietGame<(T, Option<Score>)> {
    let mut rng = stream_rng(cfg.seed, u64::from(index));
    let mut game = start_of::<V>(cfg, index);
    engine.clear();
    let mut player = ScoringPlayer {
        player: SearchPlayer {
            engine,
            limits: Limits {
                nodes: Some(cfg.nodes),
                ..Limits::default()
            },
        },
        scores: Vec::new(),
    };
    let config = PlayConfig {
        random_opening: cfg.opening as usize,
        max_plies: cfg.max_plies,
    };
    let mut seen = Vec::new();
    selfplay::play(&mut game, &mut player, config, &mut rng, &mut |g| {
        seen.push(before_move(g.position()));
    });
    let result = match game.outcome().and_then(|o| o.winner()) {
        Some(Color::Black) => 1.0,
        Some(Color::White) => 0.0,
        None => 0.5,
    };
    // One score a search, one search after each position seen.
    let records = seen.into_iter().zip(player.scores).collect();
    QuietGame {
        records,
        plies: game.moves().len(),
        result,
    }
}

/// One self-play game of the training data: game `index` of the run `cfg`, from its start
/// ([`start_of`]) and its seeded random opening ([`stream_rng`]), the engine (cleared first)
/// playing both sides at `cfg.nodes` nodes a move; `record` gets the quiet leaf
/// ([`quiet_leaf`], by `E`) of each position the engine moves in that has one.
pub fn play_quiet<V: Variant, E: Evaluator<V>, T>(
    engine: &mut Engine<V, E>,
    cfg: &GenConfig,
    index: u32,
    record: &mut dyn FnMut(&Position<V>) -> T,
) -> QuietGame<T> {
    let game = play_searched(engine, cfg, index, &mut |pos| {
        quiet_leaf::<V, E>(pos).map(|leaf| record(&leaf))
    });
    QuietGame {
        records: game.records.into_iter().filter_map(|(r, _)| r).collect(),
        plies: game.plies,
        result: game.result,
    }
}

/// [`play_quiet`]'s game, labelled by the searches instead of the quiet leaves: the records
/// are the positions the engine moved in that are quiet themselves (not in check, and the
/// capture-only quiescence search by `E` stands pat: the position is its own
/// [`quiet_leaf`]), each with the score of the engine's search of it at `cfg.nodes` nodes,
/// for its side to move. A position whose search found a mate is left out: a mate score is
/// no evaluation to learn. The games are [`play_quiet`]'s, move for move.
pub fn play_scored<V: Variant, E: Evaluator<V>>(
    engine: &mut Engine<V, E>,
    cfg: &GenConfig,
    index: u32,
) -> QuietGame<(Position<V>, i32)> {
    let game = play_searched(engine, cfg, index, &mut |pos| {
        quiet_leaf::<V, E>(pos).filter(|leaf| leaf == pos)
    });
    QuietGame {
        records: game
            .records
            .into_iter()
            .filter_map(|r| match r {
                (Some(pos), Some(Score::Cp(cp))) => Some((pos, cp)),
                _ => None,
            })
            .collect(),
        plies: game.plies,
        result: game.result,
    }
}

/// Where game `index` of the run `cfg` starts: line `index` modulo their number of
/// `cfg.starts` (with its moves, so that repetitions count from its first position), or the
/// start position without lines. A line that does not parse (each was checked when it was
/// read, so it cannot happen) starts from the start position rather than stopping the run.
pub fn start_of<V: Variant>(cfg: &GenConfig, index: u32) -> Game<V> {
    if cfg.starts.is_empty() {
        return Game::new(Position::<V>::start());
    }
    let line = &cfg.starts[index as usize % cfg.starts.len()];
    kshogi_notation::parse_game::<V>(line).unwrap_or_else(|_| Game::new(Position::<V>::start()))
}

/// Plays game `index` of a run and returns its samples.
pub fn play_game<V: Variant, E: Tunable<V>>(
    engine: &mut Engine<V, E>,
    cfg: &GenConfig,
    index: u32,
) -> GameData {
    let game = play_quiet(engine, cfg, index, &mut |leaf| {
        sample_of::<V, E::Linear>(leaf, index)
    });
    let mut samples = game.records;
    for s in &mut samples {
        s.result = game.result;
    }
    GameData {
        samples,
        plies: game.plies,
        result: game.result,
    }
}

/// Plays `cfg.games` games on `cfg.threads` threads and returns them in game order (the
/// same data whatever the number of threads). `progress` is called after each game with
/// the number of games done.
pub fn generate<V: Variant, E: Tunable<V>>(
    cfg: &GenConfig,
    progress: &(dyn Fn(u32) + Sync),
) -> Vec<GameData> {
    generate_range::<V, E>(cfg, 0..cfg.games, progress)
}

/// Plays the games numbered `games` of the run `cfg` (a chunk of it) on `cfg.threads`
/// threads ([`selfplay::run_games`]) and returns them in game order: game `i` is the same
/// whichever chunk and however many threads play it. `progress` is called after each game
/// with the number of games of the range done.
pub fn generate_range<V: Variant, E: Tunable<V>>(
    cfg: &GenConfig,
    games: std::ops::Range<u32>,
    progress: &(dyn Fn(u32) + Sync),
) -> Vec<GameData> {
    selfplay::run_games(
        cfg.threads,
        games,
        &|| Engine::<V, E>::new(1),
        &|engine, index| play_game(engine, cfg, index),
        progress,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_engine::eval::linear_evaluate;
    use kshogi_registry::{with_variant, LinearOf, Registered, VariantKind};

    /// Black's evaluation in the feature form equals the engine's evaluation, turned to
    /// Black's view (no position here is near the clamp).
    fn check_sample<V: Registered>(pos: &Position<V>) {
        let s = sample_of::<V, LinearOf<V>>(pos, 0);
        let w = <LinearOf<V> as Linear<V>>::params().to_weights();
        let dot: i32 = w.iter().zip(s.features.iter()).map(|(a, b)| a * b).sum();
        let black = dot + s.offset;
        let stm = <LinearOf<V> as Evaluator<V>>::evaluate(pos);
        let expected = if pos.side_to_move() == Color::Black {
            stm
        } else {
            -stm
        };
        assert_eq!(black, expected);
        assert_eq!(linear_evaluate::<V, LinearOf<V>>(pos, &w), stm);
    }

    fn random_games<V: Registered>(games: u32) -> usize {
        let mut checked = 0;
        for g in 0..games {
            let mut rng = stream_rng(7, u64::from(g));
            let mut game = Game::new(Position::<V>::start());
            while game.outcome().is_none() && game.moves().len() < 120 {
                check_sample::<V>(game.position());
                checked += 1;
                let moves = game.position().legal_moves();
                let mv = moves[rng.below(moves.len())];
                game.play(mv).expect("legal move");
            }
        }
        checked
    }

    #[test]
    fn feature_form_equals_evaluate_in_every_variant() {
        for &kind in VariantKind::ALL {
            let n = with_variant!(kind, V => random_games::<V>(20));
            assert!(n > 200, "{kind:?}: only {n} positions");
        }
    }

    #[test]
    fn quiet_leaf_has_no_winning_capture_left() {
        // From random positions, the leaf of the quiescence search is never in check, and
        // standing pat there is at least as good as any single capture by static value.
        with_variant!(VariantKind::Kyoto, V => {
            let mut rng = stream_rng(3, 0);
            let mut game = Game::new(Position::<V>::start());
            let mut leaves = 0;
            while game.outcome().is_none() && game.moves().len() < 60 {
                if let Some(leaf) = quiet_leaf::<V, <V as Registered>::Eval>(game.position()) {
                    assert!(!leaf.in_check());
                    leaves += 1;
                }
                let moves = game.position().legal_moves();
                game.play(moves[rng.below(moves.len())]).unwrap();
            }
            assert!(leaves > 10);
        });
    }

    #[test]
    fn a_few_games_give_labelled_samples_reproducibly() {
        let cfg = GenConfig {
            games: 4,
            nodes: 300,
            opening: 4,
            max_plies: 120,
            seed: 5,
            threads: 2,
            starts: Vec::new(),
        };
        type V = kshogi_registry::types::Micro;
        let a = generate::<V, <V as Registered>::Eval>(&cfg, &|_| {});
        let b = generate::<V, <V as Registered>::Eval>(
            &GenConfig {
                threads: 1,
                ..cfg.clone()
            },
            &|_| {},
        );
        assert_eq!(a, b, "same seed, same data, whatever the threads");
        assert_eq!(a.len(), 4);
        for (i, g) in a.iter().enumerate() {
            assert!(g.plies > 4);
            assert!(!g.samples.is_empty());
            for s in &g.samples {
                assert_eq!(s.game, i as u32);
                assert_eq!(s.result, g.result);
            }
        }
    }

    #[test]
    fn scored_games_are_the_quiet_games_labelled_by_their_searches() {
        type V = kshogi_registry::types::Micro;
        type E = <V as Registered>::Eval;
        let cfg = GenConfig {
            games: 3,
            nodes: 400,
            opening: 4,
            max_plies: 120,
            seed: 11,
            threads: 1,
            starts: Vec::new(),
        };
        let (mut differ, mut total) = (0, 0);
        for index in 0..cfg.games {
            let quiet = play_quiet(&mut Engine::<V, E>::new(1), &cfg, index, &mut |leaf| *leaf);
            let scored = play_scored(&mut Engine::<V, E>::new(1), &cfg, index);
            // The same game, move for move.
            assert_eq!((scored.plies, scored.result), (quiet.plies, quiet.result));
            assert!(scored.records.len() <= quiet.plies);
            for (pos, score) in &scored.records {
                assert!(!pos.in_check());
                assert_eq!(quiet_leaf::<V, E>(pos).as_ref(), Some(pos));
                // Every quiet position the engine moved in is also its own quiet leaf.
                assert!(quiet.records.contains(pos));
                assert!(score.abs() < 20_000, "{score}: a mate is no label");
                total += 1;
                differ += usize::from(*score != E::evaluate(pos));
            }
        }
        assert!(total > 10, "{total} records");
        // The labels are the searches' scores, not the static evaluation.
        assert!(differ > total / 2, "{differ} of {total} differ");
    }

    #[test]
    fn games_start_from_the_given_lines_in_turn() {
        type V = kshogi_registry::types::Micro;
        let mated = "k3/G3/1G2/4/3K w - 1";
        let cfg = GenConfig {
            games: 4,
            nodes: 200,
            opening: 0,
            max_plies: 60,
            seed: 7,
            threads: 1,
            starts: vec!["startpos moves 1d1c 1a1b".into(), mated.into()],
        };
        // Line `i` modulo their number, with its moves.
        let g0 = start_of::<V>(&cfg, 0);
        assert_eq!(g0.moves().len(), 2);
        assert_eq!(start_of::<V>(&cfg, 2).position(), g0.position());
        assert_eq!(
            start_of::<V>(&cfg, 3).position().side_to_move(),
            Color::White
        );
        assert!(start_of::<V>(&cfg, 1).position().legal_moves().is_empty());
        // Without lines, the start position.
        let none = GenConfig {
            starts: Vec::new(),
            ..cfg.clone()
        };
        assert_eq!(start_of::<V>(&none, 1).position(), &Position::<V>::start());
        // The games are played from there: the odd ones are over before a move, won by
        // Black; the even ones go on from the line's two moves.
        let games = generate::<V, <V as Registered>::Eval>(&cfg, &|_| {});
        for (i, g) in games.iter().enumerate() {
            if i % 2 == 1 {
                assert_eq!((g.plies, g.result), (0, 1.0), "game {i}");
                assert!(g.samples.is_empty());
            } else {
                assert!(g.plies > 2, "game {i}");
            }
        }
    }
}
