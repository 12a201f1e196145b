//! `kshogi selfplay` (hidden from `--help`): the engine plays games against a random mover
//! or a one-ply greedy player, for the `cargo xtask match` strength check.
//!
//! Every game starts from the variant's start position; the engine takes Black in the
//! even-numbered games (0, 2, ...) and White in the others. A game ends by the rules (the
//! game's outcome, repetition included) or, after `--max-plies` plies, as a draw. The
//! result is the engine's wins, draws and losses; the exit status is 0 whatever they are.
//!
//! The opponents:
//! - random: a uniformly random legal move;
//! - greedy: the legal move whose resulting position is best for it by the engine's static
//!   evaluation ([`kshogi_engine::Evaluator::evaluate`]) one ply deep, where a move that wins at once is
//!   best and one that loses at once is worst (a draw counts 0); ties are broken at random.
//!
//! All randomness comes from `--seed` and the game number, so a fixed-depth match is
//! reproducible; with `--movetime` the engine's moves depend on the machine's speed.

use crate::engine_text;
use crate::error::CliError;
use crate::variant_select;
use clap::{Args, ValueEnum};
use kshogi_core::rng::SplitMix64;
use kshogi_core::{Color, Game, Position};
use kshogi_engine::selfplay::{
    self, GreedyPlayer, PlayConfig, Player, RandomPlayer, SearchPlayer, Sides,
};
use kshogi_engine::Limits;
use kshogi_registry::{with_variant, EngineFor, Registered, VariantKind};
use serde::Serialize;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The engine's time per move when neither `--movetime` nor `--depth` is given, in ms.
pub const DEFAULT_MOVETIME_MS: u64 = 20;

/// How many games that the engine did not win are listed in full in the JSON output.
const MAX_LISTED: usize = 20;

/// The engine's opponent.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Opponent {
    /// A uniformly random legal move.
    Random,
    /// The best move one ply deep by the engine's static evaluation.
    Greedy,
}

impl Opponent {
    fn name(self) -> &'static str {
        match self {
            Opponent::Random => "random",
            Opponent::Greedy => "greedy",
        }
    }
}

/// The arguments of `kshogi selfplay`.
#[derive(Debug, Args)]
pub struct SelfplayArgs {
    #[arg(long, value_name = "V", value_parser = variant_select::parse_variant_name,
          help = format!("The variant: {}", kshogi_registry::VariantKind::names()))]
    pub variant: VariantKind,
    /// The engine's opponent
    #[arg(long, value_name = "KIND", value_enum)]
    pub opponent: Opponent,
    /// Number of games; the engine alternates colours, Black first
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    /// The engine's time per move in milliseconds [default: 20 without --depth]
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub movetime: Option<u64>,
    /// The engine's search depth per move (with --movetime too, the first limit reached
    /// stops the search)
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Seed of the random choices
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Plies after which a game is adjudicated a draw
    #[arg(long, value_name = "N", default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_plies: u32,
    /// Number of plies at the start of each game played at random by both sides, to vary
    /// the games
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub random_opening: u32,
    /// The engine's transposition table size in MiB
    #[arg(long, value_name = "MB", default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub hash: u16,
    /// Games played at the same time, each on its own thread with its own engine
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Print one JSON object instead of text
    #[arg(long = "json", id = "json", action = clap::ArgAction::SetTrue,
          value_parser = crate::format::OutputFormat::flag())]
    pub format: crate::format::OutputFormat,
}

/// The match settings, independent of the variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The opponent.
    pub opponent: Opponent,
    /// Number of games.
    pub games: u32,
    /// The engine's limits per move.
    pub limits: Limits,
    /// Seed.
    pub seed: u64,
    /// Adjudication length.
    pub max_plies: usize,
    /// Random plies at the start.
    pub random_opening: usize,
    /// Hash size of each engine, in MiB.
    pub hash_mb: usize,
    /// Worker threads.
    pub threads: usize,
}

impl SelfplayArgs {
    /// The match settings the arguments ask for.
    pub fn config(&self) -> Config {
        let movetime = match (self.movetime, self.depth) {
            (None, None) => Some(DEFAULT_MOVETIME_MS),
            (m, _) => m,
        };
        Config {
            opponent: self.opponent,
            games: self.games,
            limits: Limits {
                depth: self.depth,
                time: movetime.map(Duration::from_millis),
                ..Limits::default()
            },
            seed: self.seed,
            max_plies: usize::try_from(self.max_plies).unwrap_or(usize::MAX),
            random_opening: usize::try_from(self.random_opening).unwrap_or(usize::MAX),
            hash_mb: usize::from(self.hash),
            threads: usize::from(self.threads),
        }
    }
}

/// Runs `kshogi selfplay`.
pub fn run(args: &SelfplayArgs) -> Result<String, CliError> {
    let cfg = args.config();
    let report = with_variant!(args.variant, V => play_match::<V>(&cfg));
    args.format.render(&report, |r| r.to_text())
}

/// The generator of game `index` of a match with `seed`.
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
    /// The moves in canonical USI.
    pub moves: Vec<String>,
}

/// Plays game `index` of the match.
pub fn play_game<V: Registered>(engine: &mut EngineFor<V>, cfg: &Config, index: u32) -> Played {
    let engine_color = if index % 2 == 0 {
        Color::Black
    } else {
        Color::White
    };
    let mut rng = game_rng(cfg.seed, index);
    let mut game = Game::new(Position::<V>::start());
    engine.clear();
    let mut searcher = SearchPlayer {
        engine,
        limits: cfg.limits.clone(),
    };
    let mut opponent: Box<dyn Player<V>> = match cfg.opponent {
        Opponent::Random => Box::new(RandomPlayer),
        Opponent::Greedy => Box::new(GreedyPlayer::<V::Eval>::default()),
    };
    let config = PlayConfig {
        random_opening: cfg.random_opening,
        max_plies: cfg.max_plies,
    };
    let (engine_side, opponent_side): (&mut dyn Player<V>, &mut dyn Player<V>) =
        (&mut searcher, &mut *opponent);
    let mut sides = if engine_color == Color::Black {
        Sides {
            black: engine_side,
            white: opponent_side,
        }
    } else {
        Sides {
            black: opponent_side,
            white: engine_side,
        }
    };
    selfplay::play(&mut game, &mut sides, config, &mut rng, &mut |_| {});
    let (result, ending) = match game.outcome() {
        Some(o) => {
            let r = match o.winner() {
                Some(c) if c == engine_color => GameResult::Win,
                Some(_) => GameResult::Loss,
                None => GameResult::Draw,
            };
            (r, o.to_string())
        }
        None => (
            GameResult::Draw,
            format!("draw by the length limit ({} plies)", game.moves().len()),
        ),
    };
    Played {
        index,
        engine: engine_color,
        result,
        ending,
        moves: engine_text::pv_usi::<V>(game.moves()),
    }
}

/// Wins, draws and losses.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Engine wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Engine losses.
    pub losses: u32,
}

impl Tally {
    fn add(&mut self, r: GameResult) {
        match r {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }
}

/// A game the engine did not win, for the report.
#[derive(Clone, Debug, Serialize)]
pub struct NotWon {
    /// Game number from 0.
    pub game: u32,
    /// The engine's colour.
    pub engine: Color,
    /// How it ended.
    pub result: String,
    /// The game as a `POSITION` argument: `startpos moves ...`.
    pub moves: String,
}

/// The match result. Serialised as the `--json` output, in this field order.
#[derive(Clone, Debug, Serialize)]
pub struct MatchReport {
    /// Variant name.
    pub variant: &'static str,
    /// `random` or `greedy`.
    pub opponent: &'static str,
    /// Games played.
    pub games: u32,
    /// Engine wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Engine losses.
    pub losses: u32,
    /// Wins / games.
    pub win_rate: f64,
    /// The games with the engine as Black.
    pub as_black: Tally,
    /// The games with the engine as White.
    pub as_white: Tally,
    /// Mean game length in plies.
    pub average_plies: f64,
    /// How many games differ in their moves.
    pub distinct_games: usize,
    /// The engine's limits, as text.
    pub limits: String,
    /// The seed.
    pub seed: u64,
    /// Wall-clock time in milliseconds.
    pub time_ms: u64,
    /// The first games the engine did not win (at most 20).
    pub not_won: Vec<NotWon>,
}

impl MatchReport {
    /// The text output.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{}: engine vs {}, {} games ({}, seed {})",
            self.variant, self.opponent, self.games, self.limits, self.seed
        );
        let _ = writeln!(
            s,
            "engine: {} wins, {} draws, {} losses ({:.1}% wins)",
            self.wins,
            self.draws,
            self.losses,
            self.win_rate * 100.0
        );
        for (side, t) in [("black", self.as_black), ("white", self.as_white)] {
            let _ = writeln!(
                s,
                "as {side}: {} wins, {} draws, {} losses",
                t.wins, t.draws, t.losses
            );
        }
        let _ = writeln!(
            s,
            "average length {:.1} plies, {} distinct games, time {:.3} s",
            self.average_plies,
            self.distinct_games,
            self.time_ms as f64 / 1000.0
        );
        for g in &self.not_won {
            let _ = writeln!(
                s,
                "not won: game {} (engine {}): {}: {}",
                g.game, g.engine, g.result, g.moves
            );
        }
        s
    }
}

fn limits_text(limits: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(d) = limits.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(t) = limits.time {
        parts.push(format!("movetime {} ms", t.as_millis()));
    }
    parts.join(", ")
}

/// Plays the match on `cfg.threads` threads and sums it up.
pub fn play_match<V: Registered>(cfg: &Config) -> MatchReport {
    let start = Instant::now();
    let next = AtomicU32::new(0);
    let results: Mutex<Vec<Played>> = Mutex::new(Vec::new());
    let threads = cfg
        .threads
        .clamp(1, usize::try_from(cfg.games).unwrap_or(1).max(1));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut engine = EngineFor::<V>::new(cfg.hash_mb);
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= cfg.games {
                        break;
                    }
                    let played = play_game(&mut engine, cfg, i);
                    results
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push(played);
                }
            });
        }
    });
    let mut played = results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    played.sort_by_key(|p| p.index);
    summarise::<V>(cfg, &played, start.elapsed())
}

fn summarise<V: Registered>(cfg: &Config, played: &[Played], elapsed: Duration) -> MatchReport {
    let mut total = Tally::default();
    let (mut as_black, mut as_white) = (Tally::default(), Tally::default());
    let mut plies = 0usize;
    let mut distinct = HashSet::new();
    let mut not_won = Vec::new();
    for p in played {
        total.add(p.result);
        match p.engine {
            Color::Black => as_black.add(p.result),
            Color::White => as_white.add(p.result),
        }
        plies += p.moves.len();
        distinct.insert(p.moves.clone());
        if p.result != GameResult::Win && not_won.len() < MAX_LISTED {
            let moves = if p.moves.is_empty() {
                "startpos".to_string()
            } else {
                format!("startpos moves {}", p.moves.join(" "))
            };
            not_won.push(NotWon {
                game: p.index,
                engine: p.engine,
                result: p.ending.clone(),
                moves,
            });
        }
    }
    let n = played.len().max(1) as f64;
    MatchReport {
        variant: V::NAME,
        opponent: cfg.opponent.name(),
        games: u32::try_from(played.len()).unwrap_or(u32::MAX),
        wins: total.wins,
        draws: total.draws,
        losses: total.losses,
        win_rate: f64::from(total.wins) / n,
        as_black,
        as_white,
        average_plies: plies as f64 / n,
        distinct_games: distinct.len(),
        limits: limits_text(&cfg.limits),
        seed: cfg.seed,
        time_ms: engine_text::millis(elapsed),
        not_won,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_notation::{move_to_usi, parse_game};
    use kshogi_rules_kinzoku::Kinzoku;
    use kshogi_rules_kyoto::Kyoto;

    fn usi<V: Registered>(mv: kshogi_core::Move) -> String {
        move_to_usi::<V>(mv)
    }

    fn cfg(opponent: Opponent, games: u32) -> Config {
        Config {
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
    fn greedy_takes_an_immediate_win() {
        // Hand-checked: G*5b mates at once (show_cmd's tests); G*3a covers 4a, the Silver
        // on 4c covers 4b and 5b, so White's King has no move and is not in check: a win
        // by stalemate in Kyoto. Whatever the evaluation says, greedy wins at once.
        let game = parse_game::<Kyoto>("k4/5/1S3/5/4K b G 9").unwrap();
        for seed in 0..8 {
            let mv = selfplay::greedy_move::<Kyoto, <Kyoto as Registered>::Eval>(
                &game,
                &mut game_rng(seed, 0),
            )
            .unwrap();
            let mut g = game.clone();
            g.play(mv).unwrap();
            assert_eq!(
                g.outcome().and_then(|o| o.winner()),
                Some(Color::Black),
                "{}",
                usi::<Kyoto>(mv)
            );
        }
    }

    #[test]
    fn a_small_match_adds_up_and_alternates_colours() {
        let report = play_match::<Kinzoku>(&cfg(Opponent::Random, 4));
        assert_eq!(report.games, 4);
        assert_eq!(report.wins + report.draws + report.losses, 4);
        let b = report.as_black;
        let w = report.as_white;
        assert_eq!(b.wins + b.draws + b.losses, 2);
        assert_eq!(w.wins + w.draws + w.losses, 2);
        assert!(report.average_plies <= 40.0);
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["variant"], "kinzoku");
        assert_eq!(json["opponent"], "random");
        // Every listed game replays legally.
        for g in &report.not_won {
            assert!(parse_game::<Kinzoku>(&g.moves).is_ok(), "{}", g.moves);
        }
    }

    #[test]
    fn default_limits() {
        let args = SelfplayArgs {
            variant: VariantKind::Kyoto,
            opponent: Opponent::Greedy,
            games: 10,
            movetime: None,
            depth: None,
            seed: 1,
            max_plies: 300,
            random_opening: 0,
            hash: 16,
            threads: 1,
            format: crate::format::OutputFormat::Text,
        };
        assert_eq!(
            args.config().limits.time,
            Some(Duration::from_millis(DEFAULT_MOVETIME_MS))
        );
        let args = SelfplayArgs {
            depth: Some(3),
            ..args
        };
        assert_eq!(args.config().limits.time, None);
        assert_eq!(limits_text(&args.config().limits), "depth 3");
    }
}
