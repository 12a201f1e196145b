//! The summary of a match: results from engine A's point of view, Elo, SPRT, endings.

use crate::stats::{self, Sprt, SprtDecision};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One game, as the summary lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameReport {
    /// The game's number, from 1.
    pub game: u32,
    /// Where the opening came from (`random 3`, `openings.txt:7`).
    pub opening: String,
    /// Engine A's colour: `black` or `white`.
    pub a_color: &'static str,
    /// The result for engine A: `win`, `draw` or `loss`.
    pub result: &'static str,
    /// How the game ended (`checkmate`, `time forfeit`, ...).
    pub reason: String,
    /// For a failure, what happened (the engine's error, the illegal move).
    pub detail: String,
    /// The loser's name for a failure, else empty.
    pub fault_by: String,
    /// Plies played, the opening's included.
    pub plies: usize,
    /// The KIF record's path, if written.
    pub file: Option<String>,
}

/// How many games ended for one reason, by engine A's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReasonCount {
    /// The reason.
    pub reason: String,
    /// Games A won so.
    pub wins: u64,
    /// Games drawn so.
    pub draws: u64,
    /// Games A lost so.
    pub losses: u64,
}

/// The SPRT's state.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtReport {
    /// The test.
    #[serde(flatten)]
    pub test: Sprt,
    /// The model of the samples: `pentanomial` (game pairs).
    pub model: &'static str,
    /// The log-likelihood ratio over the complete pairs.
    pub llr: f64,
    /// The lower bound, `ln(beta / (1 - alpha))`.
    pub lower: f64,
    /// The upper bound, `ln((1 - beta) / alpha)`.
    pub upper: f64,
    /// The decision.
    pub decision: SprtDecision,
}

/// The summary of a match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The variant's name.
    pub variant: &'static str,
    /// Engine A's name.
    pub engine_a: String,
    /// Engine B's name.
    pub engine_b: String,
    /// Games played.
    pub games: u64,
    /// A's wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// A's losses.
    pub losses: u64,
    /// A's points (a win 1, a draw 1/2).
    pub points: f64,
    /// A's score in percent.
    pub score_percent: f64,
    /// A's Elo over B (logistic), when finite.
    pub elo: Option<f64>,
    /// The 95% error margin of the Elo, when finite.
    pub elo_margin: Option<f64>,
    /// Complete game pairs (one opening, both colours) by A's points in the pair:
    /// 0, 1/2, 1, 3/2, 2.
    pub pairs: [u64; 5],
    /// The SPRT, if one runs.
    pub sprt: Option<SprtReport>,
    /// Games by how they ended.
    pub endings: Vec<ReasonCount>,
    /// Why the match stopped before its number of games (the SPRT decided, interrupted).
    pub stopped_early: Option<String>,
    /// Every game, in order.
    pub game_list: Vec<GameReport>,
}

impl Summary {
    /// An empty summary.
    pub(crate) fn new(variant: &'static str, a: &str, b: &str, sprt: Option<Sprt>) -> Summary {
        let mut s = Summary {
            variant,
            engine_a: a.to_string(),
            engine_b: b.to_string(),
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            points: 0.0,
            score_percent: 0.0,
            elo: None,
            elo_margin: None,
            pairs: [0; 5],
            sprt: None,
            endings: Vec::new(),
            stopped_early: None,
            game_list: Vec::new(),
        };
        s.sprt = sprt.map(|test| {
            let (lower, upper) = stats::sprt_bounds(test.alpha, test.beta);
            SprtReport {
                test,
                model: "pentanomial",
                llr: 0.0,
                lower,
                upper,
                decision: SprtDecision::Undecided,
            }
        });
        s
    }

    /// Adds a game and brings every figure up to date.
    pub(crate) fn add(&mut self, report: GameReport) {
        let at = self.game_list.partition_point(|g| g.game < report.game);
        self.game_list.insert(at, report);
        self.recompute();
    }

    /// Adds many games at once (in any order) and brings every figure up to date once.
    pub(crate) fn add_all(&mut self, reports: Vec<GameReport>) {
        self.game_list.extend(reports);
        self.game_list.sort_by_key(|g| g.game);
        self.recompute();
    }

    fn recompute(&mut self) {
        let (mut w, mut d, mut l) = (0, 0, 0);
        let mut endings: BTreeMap<String, [u64; 3]> = BTreeMap::new();
        let mut halves: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
        for g in &self.game_list {
            let (slot, half) = match g.result {
                "win" => (0, 2),
                "draw" => (1, 1),
                _ => (2, 0),
            };
            match slot {
                0 => w += 1,
                1 => d += 1,
                _ => l += 1,
            }
            endings.entry(g.reason.clone()).or_default()[slot] += 1;
            halves.entry((g.game - 1) / 2).or_default().push(half);
        }
        self.games = w + d + l;
        (self.wins, self.draws, self.losses) = (w, d, l);
        self.points = w as f64 + d as f64 / 2.0;
        self.score_percent = if self.games == 0 {
            0.0
        } else {
            100.0 * self.points / self.games as f64
        };
        let (elo, margin) = stats::elo_with_margin(w, d, l);
        self.elo = (self.games > 0 && elo.is_finite()).then_some(elo + 0.0);
        self.elo_margin = margin;
        self.pairs = [0; 5];
        for pair in halves.values().filter(|p| p.len() == 2) {
            let total = usize::try_from(pair[0] + pair[1]).unwrap_or(0);
            self.pairs[total.min(4)] += 1;
        }
        if let Some(s) = &mut self.sprt {
            s.llr = stats::llr_pentanomial(s.test.elo0, s.test.elo1, self.pairs);
            // A decision stands once taken (the match stopped on it; games still being
            // played then are counted but do not undo it), and none is taken on fewer
            // than `MIN_SPRT_PAIRS` pairs.
            if s.decision == SprtDecision::Undecided
                && self.pairs.iter().sum::<u64>() >= stats::MIN_SPRT_PAIRS
            {
                s.decision = s.test.decide(s.llr);
            }
        }
        self.endings = endings
            .into_iter()
            .map(|(reason, [wins, draws, losses])| ReasonCount {
                reason,
                wins,
                draws,
                losses,
            })
            .collect();
    }

    /// A one-line state for a progress bar: `+5 =2 -3, 60.0%, LLR 0.41`.
    pub fn progress_line(&self) -> String {
        let mut s = format!(
            "+{} ={} -{}, {:.1}%",
            self.wins, self.draws, self.losses, self.score_percent
        );
        if let Some(sprt) = &self.sprt {
            let _ = write!(s, ", LLR {:.2}", sprt.llr);
        }
        s
    }

    /// The summary for people, several lines.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} games of {}: A = {}, B = {}",
            self.games, self.variant, self.engine_a, self.engine_b
        );
        let _ = writeln!(
            s,
            "A: {} wins, {} draws, {} losses; score {}/{} = {:.1}%",
            self.wins, self.draws, self.losses, self.points, self.games, self.score_percent
        );
        let elo = match (self.elo, self.elo_margin) {
            (Some(e), Some(m)) => format!("{:+.1} +/- {m:.1} (95%)", e + 0.0),
            (Some(e), None) => format!("{e:+.1} (margin not finite)"),
            (None, _) if self.games > 0 && self.points > 0.0 => "+inf".to_string(),
            (None, _) if self.games > 0 => "-inf".to_string(),
            (None, _) => "none (no game)".to_string(),
        };
        let _ = writeln!(s, "Elo of A over B: {elo}");
        let p = self.pairs;
        let _ = writeln!(
            s,
            "pairs by A's points (0, 1/2, 1, 3/2, 2): {} {} {} {} {}",
            p[0], p[1], p[2], p[3], p[4]
        );
        if let Some(sprt) = &self.sprt {
            let decision = match sprt.decision {
                SprtDecision::H0 => "H0 accepted (elo0)",
                SprtDecision::H1 => "H1 accepted (elo1)",
                SprtDecision::Undecided => "undecided",
            };
            let _ = writeln!(
                s,
                "SPRT elo0 {} elo1 {} alpha {} beta {} ({}): LLR {:.2} ({:.2}, {:.2}): {decision}",
                sprt.test.elo0,
                sprt.test.elo1,
                sprt.test.alpha,
                sprt.test.beta,
                sprt.model,
                sprt.llr,
                sprt.lower,
                sprt.upper
            );
        }
        if let Some(why) = &self.stopped_early {
            let _ = writeln!(s, "stopped early: {why}");
        }
        let _ = writeln!(s, "endings (A won / drawn / A lost):");
        for e in &self.endings {
            let _ = writeln!(
                s,
                "  {:<30} {:>4} / {:>4} / {:>4}",
                e.reason, e.wins, e.draws, e.losses
            );
        }
        let faults: Vec<&GameReport> = self
            .game_list
            .iter()
            .filter(|g| !g.fault_by.is_empty())
            .collect();
        if !faults.is_empty() {
            let _ = writeln!(s, "failures:");
            for g in faults {
                let _ = writeln!(
                    s,
                    "  game {}: {} by {}: {}",
                    g.game, g.reason, g.fault_by, g.detail
                );
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(n: u32, result: &'static str, reason: &str) -> GameReport {
        GameReport {
            game: n,
            opening: String::new(),
            a_color: if n % 2 == 1 { "black" } else { "white" },
            result,
            reason: reason.into(),
            detail: String::new(),
            fault_by: String::new(),
            plies: 10,
            file: None,
        }
    }

    #[test]
    fn pairs_and_counts() {
        let mut s = Summary::new("kyoto", "a", "b", None);
        s.add(game(2, "draw", "repetition"));
        s.add(game(1, "win", "checkmate"));
        s.add(game(3, "loss", "checkmate"));
        assert_eq!((s.wins, s.draws, s.losses, s.games), (1, 1, 1, 3));
        // Only pair 1 (games 1 and 2: 1.5 points) is complete.
        assert_eq!(s.pairs, [0, 0, 0, 1, 0]);
        assert_eq!(s.points, 1.5);
        assert_eq!(s.endings[0].reason, "checkmate");
        assert_eq!((s.endings[0].wins, s.endings[0].losses), (1, 1));
        assert_eq!(
            s.game_list.iter().map(|g| g.game).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        let text = s.to_text();
        assert!(text.contains("score 1.5/3 = 50.0%"), "{text}");
    }
}
