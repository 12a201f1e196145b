//! `kshogi review`'s review of a recorded game: the game read from a KIF record or a
//! POSITION ([`Input`], [`read_game`]), every move judged by the analysis service
//! ([`review()`], over `kshogi_analysis::review`, which decides the order of the searches, the
//! expected scores, the judgements and the accuracy), and the [`Report`] of one game with
//! its `--json` object, its text, the annotated KIF record, the evaluation graph and the
//! diagrams of the blunders. Progress goes to a callback the front end gives.

use crate::json_line;
use kshogi_analysis::review::{self, Judgement, PlyReview, Review, SideSummary, Thresholds};
use kshogi_analysis::{Analyzer, PerfectPlay, Request};
use kshogi_core::{Color, Game, Move, Position, Square};
use kshogi_engine::Score;
use kshogi_notation::human::human_time;
use kshogi_notation::kif::{
    annotate_move, decode_kif, kif_move_text, parse_kif_among, to_kif, KifError, KifEval,
    KifRecord, ReviewNote,
};
use kshogi_notation::{
    eval_graph_svg, move_to_usi_in, parse_game, svg, to_sfen_in, Dialect, EvalGraph, GraphMark,
    GraphMarkKind, PositionArgError, SvgStyle,
};
use kshogi_registry::{Registered, VariantKind};
use kshogi_solver::report::{value_text, ValueJson};
use kshogi_solver::DbError;
use kshogi_usi::engine_text::{self, ScoreJson};
use serde::Serialize;
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The search time per position when no limit is given.
pub const DEFAULT_TIME: Duration = Duration::from_millis(500);

/// How the text output names a game given as a POSITION argument.
pub const POSITION_LABEL: &str = "the POSITION";

/// One game to review, read but not yet replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// As the user named it (for messages): `` `FILE` ``, `standard input` or
    /// [`POSITION_LABEL`].
    pub label: String,
    /// The base of the output files' names.
    pub stem: String,
    /// The text: a KIF record or a POSITION.
    pub text: String,
    /// Whether `text` is a KIF record.
    pub kif: bool,
}

impl Input {
    /// A POSITION given as an argument (`startpos moves ...`, an SFEN with its moves), or
    /// `None` when `arg` does not look like one (no `startpos`, `sfen` or `/`), or looks
    /// like a file's path instead: its first word has a `.` (`games/one.kif`: no board has
    /// one) or starts with `/` or `~` (no board starts with an empty rank).
    pub fn position(arg: &str) -> Option<Input> {
        let t = arg.trim_start();
        let first = t.split_whitespace().next().unwrap_or("");
        let path_like = first.contains('.') || first.starts_with(['/', '~']);
        let looks_like_position =
            !path_like && (t.starts_with("startpos") || t.starts_with("sfen") || arg.contains('/'));
        looks_like_position.then(|| Input {
            label: POSITION_LABEL.into(),
            stem: "game".into(),
            text: arg.to_string(),
            kif: false,
        })
    }

    /// The contents of a file (or of standard input) named `label`: a KIF record (UTF-8
    /// with or without BOM, or Shift_JIS), or a POSITION when it holds one line that is not
    /// a KIF header (no `：` or `:`).
    pub fn from_bytes(bytes: &[u8], label: String, stem: String) -> Result<Input, KifError> {
        let text = decode_kif(bytes)?;
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let kif = !(lines.len() == 1 && !lines[0].contains('：') && !lines[0].contains(':'));
        let text = if kif {
            text
        } else {
            lines[0].trim().to_string()
        };
        Ok(Input {
            label,
            stem,
            text,
            kif,
        })
    }
}

/// Why a game could not be reviewed.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The KIF record of the input named `label` is wrong.
    #[error("{label}: {source}")]
    Kif {
        /// The input, as the user named it.
        label: String,
        /// What is wrong, with its line and column.
        source: KifError,
    },
    /// The POSITION (or a move after it) is wrong.
    #[error("{0}")]
    Position(#[from] PositionArgError),
    /// The database could not be read, or a block of it is damaged.
    #[error("{0}")]
    Database(#[from] DbError),
}

/// How every position of a game is analysed.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The largest depth per position.
    pub depth: Option<u32>,
    /// The search time per position ([`DEFAULT_TIME`] when no limit is given).
    pub time: Option<Duration>,
    /// The node budget per position.
    pub nodes: Option<u64>,
    /// Search threads.
    pub threads: usize,
    /// The transposition table's size in MiB, kept over the whole game.
    pub hash_mb: usize,
    /// The mate solver's node budget per position (0: not run).
    pub mate_nodes: u64,
    /// The dialect of the SFEN and the moves written.
    pub dialect: Dialect,
}

impl Settings {
    /// The request to the analysis service: the limits given, or [`DEFAULT_TIME`].
    pub fn request(&self) -> Request {
        Request {
            limits: crate::analysis::limits_or_default(
                self.depth,
                self.nodes,
                self.time,
                DEFAULT_TIME,
            ),
            multipv: 1,
            mate_nodes: self.mate_nodes,
        }
    }

    /// The limits in words, for the text output: `0.5 s per position, 1 thread`.
    pub fn text(&self) -> String {
        let r = self.request();
        let mut parts = Vec::new();
        if let Some(t) = r.limits.time {
            parts.push(format!("{} s", t.as_secs_f64()));
        }
        if let Some(d) = r.limits.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = r.limits.nodes {
            parts.push(format!("{n} nodes"));
        }
        format!(
            "{} per position, {} thread{}",
            parts.join(", "),
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        )
    }
}

/// A game read for review: its record (kept for the annotated KIF) and the game.
pub struct GameRecord<V: Registered> {
    /// The record: the KIF read, or one made from the POSITION.
    pub record: KifRecord<V>,
    /// The game replayed.
    pub game: Game<V>,
}

/// Reads `input` as a game of `V`: its KIF record (among the registered variants'
/// handicap names) or its POSITION.
pub fn read_game<V: Registered>(input: &Input) -> Result<GameRecord<V>, ReviewError> {
    if input.kif {
        let record = parse_kif_among::<V>(&input.text, VariantKind::infos()).map_err(|source| {
            ReviewError::Kif {
                label: input.label.clone(),
                source,
            }
        })?;
        let game = record.game().clone();
        Ok(GameRecord { record, game })
    } else {
        let game = parse_game::<V>(&input.text)?;
        Ok(GameRecord {
            record: KifRecord::from_game(&game),
            game,
        })
    }
}

/// Reviews the game `read` of `input`: every position analysed with `settings` (from the
/// last back to the first, by `kshogi_analysis::review`), judged exactly where the
/// database `db` (with its file's name) covers it, with lichess's thresholds; `stop` ends
/// it early (the moves judged so far are kept), and `on_progress` hears each position done.
pub fn review<V: Registered>(
    input: &Input,
    read: GameRecord<V>,
    settings: &Settings,
    db: Option<(&dyn PerfectPlay<V>, String)>,
    stop: &AtomicBool,
    on_progress: &mut dyn FnMut(review::Progress),
) -> Result<Report<V>, ReviewError> {
    let mut analyzer = Analyzer::<V, V::Eval>::new(settings.hash_mb);
    analyzer.set_threads(settings.threads);
    let req = settings.request();
    let started = Instant::now();
    let (db, db_file) = match db {
        Some((d, f)) => (Some(d), Some(f)),
        None => (None, None),
    };
    let result = review::review(
        &mut analyzer,
        &read.game,
        &req,
        db,
        &V::WDL,
        &Thresholds::DEFAULT,
        stop,
        on_progress,
    )?;
    Ok(Report {
        input: input.clone(),
        record: read.record,
        game: read.game,
        review: result,
        dialect: settings.dialect,
        db_file,
        elapsed: started.elapsed(),
        settings: settings.text(),
    })
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

/// The review of one game, ready to render: everything its outputs are made from.
pub struct Report<V: Registered> {
    /// The input, as read.
    pub input: Input,
    /// The record read (or made from the POSITION).
    pub record: KifRecord<V>,
    /// The game.
    pub game: Game<V>,
    /// The judgements.
    pub review: Review,
    /// The dialect of the SFEN and the moves written.
    pub dialect: Dialect,
    /// The database's file, where one was used.
    pub db_file: Option<String>,
    /// The time the review took.
    pub elapsed: Duration,
    /// The limits in words ([`Settings::text`]).
    pub settings: String,
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

impl<V: Registered> Report<V> {
    /// Whether the review was stopped before the first move.
    pub fn interrupted(&self) -> bool {
        self.review.interrupted
    }

    /// How many moves were judged (all of them unless interrupted).
    pub fn judged(&self) -> usize {
        self.review.plies.iter().flatten().count()
    }

    /// How many moves the game has.
    pub fn moves(&self) -> usize {
        self.game.moves().len()
    }

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
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
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
        json_line(&g)
    }

    /// The text output.
    pub fn to_text(&self) -> String {
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
                    let _ = write!(line, ", exact {} -> {}", value_text(b), value_text(a));
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
    pub fn annotated_kif(&self) -> String {
        let mut record = self.record.clone();
        for p in self.review.plies.iter().flatten() {
            let Some(j) = p.judgement else { continue };
            let before_side = p.mover;
            let note = ReviewNote {
                judgement: j.title(),
                before: black_eval(p.before, before_side),
                after: black_eval(p.after, before_side),
                expected: (p.expected_before, p.expected_after),
                best_line: &p.best_line,
                exact: p.exact.map(|(b, a)| (value_text(b), value_text(a))),
            };
            annotate_move(&mut record, p.index, &note);
        }
        to_kif(&record)
    }

    /// The evaluation graph.
    pub fn graph(&self) -> String {
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
    pub fn blunder_diagrams(&self) -> Vec<(u64, String)> {
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

#[cfg(test)]
mod input_tests {
    use super::*;

    fn settings() -> Settings {
        Settings {
            depth: None,
            time: None,
            nodes: None,
            threads: 1,
            hash_mb: 1,
            mate_nodes: 0,
            dialect: Dialect::default(),
        }
    }

    #[test]
    fn a_position_argument_is_told_from_a_missing_file() {
        let input = Input::position("startpos moves 1e1d").expect("a POSITION");
        assert_eq!(input.label, POSITION_LABEL);
        assert_eq!(input.stem, "game");
        assert!(!input.kif);
        // No `startpos`, `sfen` or `/`: a file name that does not exist.
        assert_eq!(Input::position("game.kif"), None);
        // Paths with a `/` are paths too, not boards.
        for path in [
            "games/one.kif",
            "/home/user/one.kif",
            "../one",
            "~/one",
            "./x/y",
        ] {
            assert_eq!(Input::position(path), None, "{path}");
        }
        // Boards and SFEN with their moves are positions.
        for position in [
            "sfen p+nks/5/5/5/SKN+P b - 1",
            "p+nks/5/5/5/SKN+P b - 1 moves 1e1d",
            "startpos",
        ] {
            assert!(Input::position(position).is_some(), "{position}");
        }
    }

    #[test]
    fn a_file_of_one_line_without_a_header_is_a_position() {
        let one = Input::from_bytes(b"\n startpos moves 1e1d \n", "`a`".into(), "a".into());
        let one = one.unwrap();
        assert!(!one.kif);
        assert_eq!(one.text, "startpos moves 1e1d");
        // A KIF header line (`key：value`) makes it a record, kept whole.
        let kif = "手合割：京都将棋\n";
        let rec = Input::from_bytes(kif.as_bytes(), "`b`".into(), "b".into()).unwrap();
        assert!(rec.kif);
        assert_eq!(rec.text, kif);
    }

    #[test]
    fn the_settings_fall_back_to_the_default_time_and_are_worded() {
        // No limit given: DEFAULT_TIME, 500 ms, is 0.5 s.
        assert_eq!(settings().request().limits.time, Some(DEFAULT_TIME));
        assert_eq!(settings().text(), "0.5 s per position, 1 thread");
        // A depth alone is the only limit; two threads are plural.
        let s = Settings {
            depth: Some(3),
            threads: 2,
            ..settings()
        };
        assert_eq!(s.request().limits.time, None);
        assert_eq!(s.text(), "depth 3 per position, 2 threads");
    }
}
