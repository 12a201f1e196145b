//! A self-play run's report: [`play_match`] plays the engine against a random mover or a
//! one-ply greedy player ([`kshogi_engine::versus`]: colours, game end, seeds) and sums the
//! games up as a [`MatchReport`], whose JSON form is its serialisation and whose text form
//! is [`MatchReport::to_text`] (what `kshogi selfplay` prints).

use kshogi_core::Color;
use kshogi_engine::versus::{self, GameResult, VersusConfig};
use kshogi_engine::Limits;
use kshogi_registry::Registered;
use kshogi_usi::engine_text;
use serde::Serialize;
use std::fmt::Write as _;
use std::time::Instant;

/// How many games that the engine did not win are listed in full in the report.
pub const MAX_LISTED: usize = 20;

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

/// The engine's limits in words: `depth D`, `movetime T ms`, or both.
pub fn limits_text(limits: &Limits) -> String {
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

    fn cfg(opponent: versus::Opponent, games: u32) -> VersusConfig {
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
        let report = play_match::<Kinzoku>(&cfg(versus::Opponent::Random, 4));
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
    fn limits_in_words() {
        // Written by hand from the two limits' words.
        let mut limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        assert_eq!(limits_text(&limits), "depth 3");
        limits.time = Some(std::time::Duration::from_millis(20));
        assert_eq!(limits_text(&limits), "depth 3, movetime 20 ms");
        limits.depth = None;
        assert_eq!(limits_text(&limits), "movetime 20 ms");
    }
}
