//! A fixed-node match between the net ([`NnueEval`]) and the variant's registered
//! evaluation (or another evaluator, such as a second net file through
//! [`crate::eval::TeacherEval`]:
//! [`play_against`]), both searching with the same switches: pairs of games from the same opening
//! (seeded random plies, or a line of an openings file), the net Black in the first game
//! of a pair and White in the second. The games are the engine's
//! ([`kshogi_engine::versus::play_against_from`] on
//! [`kshogi_engine::selfplay::run_games`]), the sums its [`Tally`].

use crate::eval::NnueEval;
use kshogi_core::{Color, Game, Position};
use kshogi_engine::selfplay::{run_games, PlayConfig, SearchPlayer};
use kshogi_engine::versus::{play_against_from, GameResult, Tally};
use kshogi_engine::{Engine, Evaluator, Limits};
use kshogi_registry::Registered;
use kshogi_tune::data::stream_rng;

/// How to play the match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Games (rounded up to pairs).
    pub games: u32,
    /// Nodes per move for both sides.
    pub nodes: u64,
    /// Time per move for both sides instead of a node count (an equal-time match).
    pub movetime: Option<std::time::Duration>,
    /// Random plies of each opening (unused with `openings`).
    pub opening: usize,
    /// The openings of a file (`startpos moves ...` or SFEN lines, each read as a position
    /// of the variant when the file was read): pair `k` plays line `k` mod their number,
    /// with no random plies. Empty: random openings.
    pub openings: Vec<String>,
    /// Plies after which a game is a draw.
    pub max_plies: usize,
    /// Seed of the openings.
    pub seed: u64,
    /// Games at once.
    pub threads: usize,
}

/// Plays game `index`: the opening of pair `index / 2`, the net Black when `index` is even.
/// Returns the net's result.
fn play_one<V: Registered, B: Evaluator<V>>(
    net: &mut Engine<V, NnueEval>,
    base: &mut Engine<V, B>,
    cfg: &MatchConfig,
    index: u32,
) -> GameResult {
    let mut rng = stream_rng(cfg.seed, u64::from(index / 2));
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
    let mut net_player = SearchPlayer {
        engine: net,
        limits: limits.clone(),
    };
    let mut base_player = SearchPlayer {
        engine: base,
        limits,
    };
    let (start, random_opening) = match opening_of::<V>(cfg, index / 2) {
        Some(game) => (game, 0),
        None => (Game::new(Position::<V>::start()), cfg.opening),
    };
    let config = PlayConfig {
        random_opening,
        max_plies: cfg.max_plies,
    };
    let net_color = if index % 2 == 0 {
        Color::Black
    } else {
        Color::White
    };
    let game = play_against_from(
        start,
        &mut net_player,
        &mut base_player,
        net_color,
        config,
        &mut rng,
    );
    GameResult::of(&game, net_color)
}

/// The opening of pair `pair` from the file's lines (line `pair` mod their number), or
/// `None` without a file. Every line was read as a position of `V` when the file was read
/// (`kshogi_tune::openings::read_openings`), so a line that no longer parses (which cannot
/// happen) falls back to random plies rather than stopping the match.
fn opening_of<V: Registered>(cfg: &MatchConfig, pair: u32) -> Option<Game<V>> {
    let n = cfg.openings.len();
    if n == 0 {
        return None;
    }
    kshogi_notation::parse_game::<V>(&cfg.openings[pair as usize % n]).ok()
}

/// The net's half points in each pair of games (0 to 4), pairs in order, from the net's
/// results in game order.
pub fn pairs(results: &[GameResult]) -> Vec<u8> {
    results
        .chunks(2)
        .map(|pair| {
            pair.iter()
                .map(|r| match r {
                    GameResult::Win => 2,
                    GameResult::Draw => 1,
                    GameResult::Loss => 0,
                })
                .sum()
        })
        .collect()
}

/// Plays the match on `cfg.threads` threads; `progress` gets the games done. Returns the
/// net's tally and its result in each game, in game order.
pub fn play<V: Registered>(
    cfg: &MatchConfig,
    progress: &(dyn Fn(u32) + Sync),
) -> (Tally, Vec<GameResult>) {
    play_against::<V, V::Eval>(cfg, progress)
}

/// [`play`] with the opponent evaluating with `B` instead of the registered evaluation
/// (`kshogi-nnue match --base NET`: [`crate::eval::TeacherEval`] over a second net file).
pub fn play_against<V: Registered, B: Evaluator<V>>(
    cfg: &MatchConfig,
    progress: &(dyn Fn(u32) + Sync),
) -> (Tally, Vec<GameResult>) {
    let games = cfg.games.div_ceil(2) * 2;
    let results = play_range_against::<V, B>(cfg, 0..games, progress);
    (Tally::of(&results), results)
}

/// The net's results in the games of indices `range` of the match (each depends on its
/// index only), in order: the pipeline's SPRT plays its pairs so, a batch at a time.
pub fn play_range<V: Registered>(
    cfg: &MatchConfig,
    range: std::ops::Range<u32>,
    progress: &(dyn Fn(u32) + Sync),
) -> Vec<GameResult> {
    play_range_against::<V, V::Eval>(cfg, range, progress)
}

/// [`play_range`] with the opponent evaluating with `B`.
fn play_range_against<V: Registered, B: Evaluator<V>>(
    cfg: &MatchConfig,
    range: std::ops::Range<u32>,
    progress: &(dyn Fn(u32) + Sync),
) -> Vec<GameResult> {
    run_games(
        cfg.threads,
        range,
        &|| (Engine::<V, NnueEval>::new(4), Engine::<V, B>::new(4)),
        &|(net, base), index| play_one(net, base, cfg, index),
        progress,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_count_the_net_s_half_points_of_each_opening() {
        use GameResult::{Draw, Loss, Win};
        // Games 0 and 1 share an opening: win + loss is 2 + 0 half points; draw + win is
        // 1 + 2; loss + loss is 0.
        let results = [Win, Loss, Draw, Win, Loss, Loss];
        assert_eq!(pairs(&results), vec![2, 3, 0]);
    }

    fn config(openings: &[&str]) -> MatchConfig {
        MatchConfig {
            games: 2,
            nodes: 200,
            movetime: None,
            opening: 8,
            openings: openings.iter().map(|s| s.to_string()).collect(),
            max_plies: 300,
            seed: 1,
            threads: 1,
        }
    }

    #[test]
    fn pair_k_plays_line_k_of_the_openings_and_wraps() {
        type K = kshogi_registry::types::Kyoto;
        let cfg = config(&["startpos moves 5e5d+", "startpos moves 5e4d+ 4a5b+"]);
        let moves = |pair| {
            let game = opening_of::<K>(&cfg, pair).expect("a file's line");
            game.moves().len()
        };
        assert_eq!((moves(0), moves(1), moves(2), moves(3)), (1, 2, 1, 2));
        assert!(opening_of::<K>(&config(&[]), 0).is_none());
    }

    #[test]
    fn the_games_start_from_the_opening() {
        // After the line's last move White is checkmated (Kyoto: a gold dropped beside the
        // bare king, defended by the silver): the net wins as Black and loses as White,
        // without a move searched, which random plies from the start could not give.
        type K = kshogi_registry::types::Kyoto;
        let cfg = config(&["sfen k4/5/1S3/5/4K b G 9 moves G*5b"]);
        let results = play_range::<K>(&cfg, 0..2, &|_| {});
        assert_eq!(results, vec![GameResult::Win, GameResult::Loss]);
        assert_eq!(pairs(&results), vec![2]);
    }
}
