//! What `kshogi review` makes of one reviewed game: the `--json` object, the text summary,
//! the annotated KIF record, the evaluation graph and the diagrams of the blunders. The
//! judgements come from `kshogi_analysis::review`; this module only renders them.

use crate::engine_text::{self, ScoreJson};
use crate::error::CliError;
use crate::format::OutputFormat;
use crate::progress::human_time;
use crate::solve_cmd::{self, ValueJson};
use kshogi_analysis::review::{Judgement, PlyReview, Review, SideSummary};
use kshogi_core::{Color, Game, Move, Position, Square};
use kshogi_engine::Score;
use kshogi_notation::kif::{annotate_move, kif_move_text, to_kif, KifEval, KifRecord, ReviewNote};
use kshogi_notation::{
    eval_graph_svg, move_to_usi_in, svg, to_sfen_in, Dialect, EvalGraph, GraphMark, GraphMarkKind,
    SvgStyle,
};
use kshogi_registry::Registered;
use serde::Serialize;
use std::fmt::Write as _;
use std::time::Duration;

/// How the text output names a game given as a POSITION argument.
pub(crate) const POSITION_LABEL: &str = "the POSITION";

/// One game to review, read but not yet replayed.
pub(crate) struct Input {
    /// As the user named it (for messages).
    pub(crate) label: String,
    /// The base of the output files' names.
    pub(crate) stem: String,
    /// The text: a KIF record or a POSITION.
    pub(crate) text: String,
    /// Whether `text` is a KIF record.
    pub(crate) kif: bool,
}

/// A score from Black's point of view, for the annotated KIF.
fn black_eval(score: Score, side: Color) -> KifEval {
    let flip = side == Color::White;
    match score {
        Score::Cp(cp) => KifEval::Cp(if flip { -cp } else { cp }),
        Score::Mate(n) => KifEval::Mate(if flip { -n } else { n }),
    }
}

/// `black` or `white`.
fn side_word(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The words for a score: `cp 35`, `mate 3`.
fn score_words(s: Score) -> String {
    engine_text::score_usi(s)
}

/// Everything the outputs of one game are made from.
pub(crate) struct Report<'a, V: Registered> {
    pub(crate) input: &'a Input,
    pub(crate) game: &'a Game<V>,
    pub(crate) review: &'a Review,
    pub(crate) dialect: Dialect,
    pub(crate) db_file: Option<String>,
    pub(crate) elapsed: Duration,
    pub(crate) settings: String,
}

/// One side's summary in the JSON output.
#[derive(Serialize)]
struct SideJson {
    moves: usize,
    inaccuracies: usize,
    mistakes: usize,
    blunders: usize,
    average_loss: f64,
    accuracy: f64,
}

impl From<&SideSummary> for SideJson {
    fn from(s: &SideSummary) -> SideJson {
        SideJson {
            moves: s.moves,
            inaccuracies: s.count(Judgement::Inaccuracy),
            mistakes: s.count(Judgement::Mistake),
            blunders: s.count(Judgement::Blunder),
            average_loss: round(s.average_loss * 100.0, 2),
            accuracy: round(s.accuracy, 1),
        }
    }
}

/// `x` rounded to `d` decimals.
fn round(x: f64, d: i32) -> f64 {
    let f = 10f64.powi(d);
    (x * f).round() / f
}

/// One ply in the JSON output.
#[derive(Serialize)]
struct PlyJson {
    number: u64,
    side: &'static str,
    #[serde(rename = "move")]
    mv: String,
    move_kif: String,
    best: Option<String>,
    best_line: Vec<String>,
    best_line_kif: Vec<String>,
    before: ScoreJson,
    after: ScoreJson,
    expected_before: f64,
    expected_after: f64,
    loss: f64,
    judgement: Option<&'static str>,
    exact_before: Option<ValueJson>,
    exact_after: Option<ValueJson>,
    depth: u32,
    source: &'static str,
}

#[derive(Serialize)]
struct SummaryJson {
    black: SideJson,
    white: SideJson,
}

#[derive(Serialize)]
struct GameJson<'a> {
    input: &'a str,
    variant: &'static str,
    start: String,
    moves: usize,
    settings: &'a str,
    database: Option<&'a str>,
    interrupted: bool,
    plies: Vec<Option<PlyJson>>,
    summary: SummaryJson,
    time_ms: u64,
}

impl<V: Registered> Report<'_, V> {
    /// The position before move `index` and the destination of the move before it.
    fn before(&self, index: usize) -> (Position<V>, Option<Square>) {
        let mut pos = *self.game.start();
        let mut prev = None;
        for &mv in &self.game.moves()[..index] {
            prev = Some(mv.to());
            pos.make(mv);
        }
        (pos, prev)
    }

    /// The number a KIF record gives move `index` (from 0).
    fn number(&self, index: usize) -> u64 {
        u64::from(self.game.start().ply()) + index as u64
    }

    fn ply_json(&self, p: &PlyReview) -> PlyJson {
        let (pos, prev) = self.before(p.index);
        let d = self.dialect;
        let before = self.review.positions[p.index].as_ref();
        let first = before.and_then(|b| b.analysis.lines.first());
        PlyJson {
            number: self.number(p.index),
            side: side_word(p.mover),
            mv: move_to_usi_in(&pos, p.played, d),
            move_kif: kif_move_text(&pos, p.played, prev),
            best: p.best.map(|m| move_to_usi_in(&pos, m, d)),
            best_line: engine_text::pv_usi_in(&pos, &p.best_line, d),
            best_line_kif: engine_text::pv_kif(&pos, &p.best_line, prev),
            before: p.before.into(),
            after: p.after.into(),
            expected_before: round(p.expected_before, 4),
            expected_after: round(p.expected_after, 4),
            loss: round(p.loss, 4),
            judgement: p.judgement.map(Judgement::word),
            exact_before: p.exact.map(|(b, _)| b.into()),
            exact_after: p.exact.map(|(_, a)| a.into()),
            depth: first.map_or(0, |l| l.line.depth),
            source: first.map_or("none", |l| l.source.name()),
        }
    }

    /// The `--json` output: one object on one line.
    pub(crate) fn to_json(&self) -> Result<String, CliError> {
        let g = GameJson {
            input: if self.input.label == POSITION_LABEL {
                &self.input.text
            } else {
                self.input.label.trim_matches('`')
            },
            variant: V::NAME,
            start: to_sfen_in(self.game.start(), self.dialect),
            moves: self.game.moves().len(),
            settings: &self.settings,
            database: self.db_file.as_deref(),
            interrupted: self.review.interrupted,
            plies: self
                .review
                .plies
                .iter()
                .map(|p| p.as_ref().map(|p| self.ply_json(p)))
                .collect(),
            summary: SummaryJson {
                black: (&self.review.summary(Color::Black)).into(),
                white: (&self.review.summary(Color::White)).into(),
            },
            time_ms: engine_text::millis(self.elapsed),
        };
        OutputFormat::json_line(&g)
    }

    /// The text output.
    pub(crate) fn to_text(&self) -> String {
        let mut out = String::new();
        let n = self.game.moves().len();
        let _ = writeln!(
            out,
            "review of {} ({}, {} moves; {})",
            self.input.label,
            V::NAME,
            n,
            self.settings
        );
        if let Some(db) = &self.db_file {
            let _ = writeln!(out, "database: {db}");
        }
        for p in self.review.plies.iter().flatten() {
            let Some(j) = p.judgement else { continue };
            let (pos, prev) = self.before(p.index);
            let d = self.dialect;
            let mut line = format!(
                "move {} ({}) {} {}: {}, expected score {:.0}% -> {:.0}% ({:+.1})",
                self.number(p.index),
                side_word(p.mover),
                move_to_usi_in(&pos, p.played, d),
                kif_move_text(&pos, p.played, prev),
                j.word(),
                p.expected_before * 100.0,
                p.expected_after * 100.0,
                (p.expected_after - p.expected_before) * 100.0,
            );
            match p.exact {
                Some((b, a)) => {
                    let _ = write!(
                        line,
                        ", exact {} -> {}",
                        solve_cmd::value_text(b),
                        solve_cmd::value_text(a)
                    );
                }
                None => {
                    let _ = write!(
                        line,
                        ", {} -> {}",
                        score_words(p.before),
                        score_words(p.after)
                    );
                }
            }
            let _ = writeln!(out, "{line}");
            if !p.best_line.is_empty() {
                let usi = engine_text::pv_usi_in(&pos, &p.best_line, d);
                let kif = engine_text::pv_kif(&pos, &p.best_line, prev);
                let _ = writeln!(out, "  better: {}  ({})", usi.join(" "), kif.join(" "));
            }
        }
        for side in [Color::Black, Color::White] {
            let s = self.review.summary(side);
            let _ = writeln!(
                out,
                "{}: {} moves; inaccuracies {}, mistakes {}, blunders {}; average loss {:.1} \
                 points; accuracy {:.1}",
                side_word(side),
                s.moves,
                s.count(Judgement::Inaccuracy),
                s.count(Judgement::Mistake),
                s.count(Judgement::Blunder),
                s.average_loss * 100.0,
                s.accuracy
            );
        }
        let judged = self.review.plies.iter().flatten().count();
        if self.review.interrupted {
            let _ = writeln!(
                out,
                "interrupted: {judged} of {n} moves judged (from the end of the game)"
            );
        }
        let _ = writeln!(out, "time {}", human_time(self.elapsed));
        out
    }

    /// The record with a comment on every judged move.
    pub(crate) fn annotated_kif(&self, mut record: KifRecord<V>) -> String {
        for p in self.review.plies.iter().flatten() {
            let Some(j) = p.judgement else { continue };
            let before_side = p.mover;
            let note = ReviewNote {
                judgement: j.title(),
                before: black_eval(p.before, before_side),
                after: black_eval(p.after, before_side),
                expected: (p.expected_before, p.expected_after),
                best_line: &p.best_line,
                exact: p
                    .exact
                    .map(|(b, a)| (solve_cmd::value_text(b), solve_cmd::value_text(a))),
            };
            annotate_move(&mut record, p.index, &note);
        }
        to_kif(&record)
    }

    /// The evaluation graph.
    pub(crate) fn graph(&self) -> String {
        let marks = self
            .review
            .plies
            .iter()
            .flatten()
            .filter_map(|p| {
                p.judgement.map(|j| GraphMark {
                    index: p.index + 1,
                    kind: match j {
                        Judgement::Inaccuracy => GraphMarkKind::Inaccuracy,
                        Judgement::Mistake => GraphMarkKind::Mistake,
                        Judgement::Blunder => GraphMarkKind::Blunder,
                    },
                    mover: p.mover,
                })
            })
            .collect();
        let name = if self.input.label == POSITION_LABEL {
            "game"
        } else {
            self.input.label.trim_matches('`')
        };
        eval_graph_svg(&EvalGraph {
            title: format!("{} ({}): expected score for Black", name, V::DISPLAY_NAME),
            first_move: u64::from(self.game.start().ply()) - 1,
            points: self.review.black_expected(self.game.start().side_to_move()),
            marks,
        })
    }

    /// `(move number, SVG)` for each blunder: the position before it, the move before it
    /// marked, an arrow for the better move.
    pub(crate) fn blunder_diagrams(&self) -> Vec<(u64, String)> {
        let mut out = Vec::new();
        for p in self.review.plies.iter().flatten() {
            if p.judgement != Some(Judgement::Blunder) {
                continue;
            }
            let (pos, _) = self.before(p.index);
            let last: Option<Move> = p.index.checked_sub(1).map(|i| self.game.moves()[i]);
            let picture = svg(&pos, last, p.best, SvgStyle::DEFAULT);
            out.push((self.number(p.index), picture));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluations_turn_to_black() {
        assert_eq!(black_eval(Score::Cp(35), Color::White), KifEval::Cp(-35));
        assert_eq!(black_eval(Score::Mate(3), Color::Black), KifEval::Mate(3));
        assert_eq!(black_eval(Score::Mate(3), Color::White), KifEval::Mate(-3));
    }
}
