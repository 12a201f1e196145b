//! `kshogi selfplay` (hidden from `--help`): the engine plays games against a random mover
//! or a one-ply greedy player, for the `cargo xtask match` strength check. The match is
//! [`kshogi_engine::versus`] (colours, game end, seeds); this command reads its arguments
//! and prints the engine's wins, draws and losses; the exit status is 0 whatever they are.
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
use kshogi_core::Color;
use kshogi_engine::versus::{self, GameResult, VersusConfig};
use kshogi_engine::Limits;
use kshogi_registry::{with_variant, Registered, VariantKind};
use serde::Serialize;
use std::fmt::Write as _;
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

impl From<Opponent> for versus::Opponent {
    fn from(o: Opponent) -> versus::Opponent {
        match o {
            Opponent::Random => versus::Opponent::Random,
            Opponent::Greedy => versus::Opponent::Greedy,
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

impl SelfplayArgs {
    /// The match settings the arguments ask for.
    pub fn config(&self) -> VersusConfig {
        let movetime = match (self.movetime, self.depth) {
            (None, None) => Some(DEFAULT_MOVETIME_MS),
            (m, _) => m,
        };
        VersusConfig {
            opponent: self.opponent.into(),
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

/// Wins, draws and losses, as the JSON output writes them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Engine wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Engine losses.
    pub losses: u32,
}

impl From<versus::Tally> for Tally {
    fn from(t: versus::Tally) -> Tally {
        Tally {
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
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

/// Plays the match and sums it up.
pub fn play_match<V: Registered>(cfg: &VersusConfig) -> MatchReport {
    let start = Instant::now();
    let played = versus::play_games::<V, V::Eval>(cfg);
    let sums = versus::Summary::of(&played);
    let not_won = played
        .iter()
        .filter(|p| p.result != GameResult::Win)
        .take(MAX_LISTED)
        .map(|p| NotWon {
            game: p.index,
            engine: p.engine,
            result: p.ending.clone(),
            moves: match engine_text::pv_usi::<V>(&p.moves).join(" ") {
                usi if usi.is_empty() => "startpos".to_string(),
                usi => format!("startpos moves {usi}"),
            },
        })
        .collect();
    let t = sums.total;
    MatchReport {
        variant: V::NAME,
        opponent: cfg.opponent.name(),
        games: u32::try_from(played.len()).unwrap_or(u32::MAX),
        wins: t.wins,
        draws: t.draws,
        losses: t.losses,
        win_rate: f64::from(t.wins) / played.len().max(1) as f64,
        as_black: sums.as_black.into(),
        as_white: sums.as_white.into(),
        average_plies: sums.average_plies,
        distinct_games: sums.distinct_games,
        limits: limits_text(&cfg.limits),
        seed: cfg.seed,
        time_ms: engine_text::millis(start.elapsed()),
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

    fn cfg(opponent: Opponent, games: u32) -> VersusConfig {
        VersusConfig {
            opponent: opponent.into(),
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
    fn greedy_takes_an_immediate_win() {
        // Hand-checked: G*5b mates at once (show_cmd's tests); G*3a covers 4a, the Silver
        // on 4c covers 4b and 5b, so White's King has no move and is not in check: a win
        // by stalemate in Kyoto. Whatever the evaluation says, greedy wins at once.
        let game = parse_game::<Kyoto>("k4/5/1S3/5/4K b G 9").unwrap();
        for seed in 0..8 {
            let mv = kshogi_engine::selfplay::greedy_move::<Kyoto, <Kyoto as Registered>::Eval>(
                &game,
                &mut versus::game_rng(seed, 0),
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
