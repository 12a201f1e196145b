//! The analysis of one position: [`analyze`] asks the analysis service of
//! `kshogi-analysis` (search and df-pn mate solver, or a perfect-play database where it
//! covers the position) and returns an [`Analysis`]: the status, the best lines in USI and
//! KIF, the totals, the mate solver's verdict and the database's exact result, or why there
//! is none. [`Analysis::to_text`] and [`Analysis::to_json`] are what `kshogi analyze`
//! prints.

use crate::{json_line, plies, status};
use kshogi_analysis::{Analyzer, DatabaseUse, MateSummary, PerfectPlay, Request, Source};
use kshogi_core::{Color, Game, Variant};
use kshogi_engine::{Info, Limits, Score};
use kshogi_notation::kif::kif_move_text;
use kshogi_notation::{
    game_diagram, move_to_usi_in, parse_game, to_sfen_in, DiagramStyle, Dialect, PositionArgError,
};
use kshogi_registry::Registered;
use kshogi_solver::report::{value_text, ValueJson};
use kshogi_solver::value::Value;
use kshogi_solver::DbError;
use kshogi_usi::engine_text::{self, ScoreJson};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The search time of an analysis when no limit is given (`kshogi analyze`).
pub const DEFAULT_TIME: Duration = Duration::from_secs(2);

/// The mate solver's node budget when none is given (`kshogi analyze` and `review`).
pub const DEFAULT_MATE_NODES: u64 = 200_000;

/// The search limits asked for: the `depth`, `nodes` and `time` given, or `default_time`
/// when none of them is. The one rule of the default time, for an analysis and a review.
pub fn limits_or_default(
    depth: Option<u32>,
    nodes: Option<u64>,
    time: Option<Duration>,
    default_time: Duration,
) -> Limits {
    let none = depth.is_none() && nodes.is_none() && time.is_none();
    Limits {
        depth,
        nodes,
        time: if none { Some(default_time) } else { time },
        ..Limits::default()
    }
}

/// What to search for, independent of the variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The search limits.
    pub limits: Limits,
    /// Number of lines.
    pub multipv: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Node budget of the mate solver; 0 skips it.
    pub mate_nodes: u64,
    /// Search threads.
    pub threads: usize,
    /// The dialect of the SFEN and the moves written.
    pub dialect: Dialect,
}

/// Why a position could not be analysed.
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeError {
    /// The position (SFEN or a move after it) is wrong.
    #[error("{0}")]
    Position(#[from] PositionArgError),
    /// The database could not be read, or a block of it is damaged.
    #[error("{source}")]
    Database {
        /// The database's error.
        source: DbError,
        /// The command that builds the file again, when the file is known.
        rebuild: Option<String>,
    },
}

/// Where the exact result of a position came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exact {
    /// A variant the solver has no index for: there is no database.
    NotApplicable,
    /// No database file at the default path (`None`: there is no default path).
    NoDatabase(Option<PathBuf>),
    /// The database does not cover the position (a sub-game's database).
    NotCovered {
        /// The database file.
        path: PathBuf,
        /// What it covers, in words.
        coverage: String,
    },
    /// The database's answer.
    Found {
        /// The database file.
        path: PathBuf,
        /// The value for the side to move.
        value: Value,
        /// Every move that keeps the value, in USI (none once the game is over).
        moves: Vec<String>,
        /// The same in KIF notation.
        moves_kif: Vec<String>,
    },
}

/// One line of the report, in text form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineReport {
    /// The move, canonical USI.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its score.
    pub score: ScoreJson,
    /// The principal variation in USI, starting with the move.
    pub pv: Vec<String>,
    /// The same in Japanese KIF move notation.
    pub pv_kif: Vec<String>,
    /// Iteration depth that produced the line.
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// Nodes of the whole search.
    pub nodes: u64,
    /// `search`, `mate solver` or `database`.
    pub source: &'static str,
}

/// The progress of the search, as it deepens (its first line only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The iteration depth.
    pub depth: u32,
    /// The score of the first line.
    pub score: Score,
    /// Its first move in the dialect asked for, `-` when there is none.
    pub best: String,
    /// Nodes so far.
    pub nodes: u64,
}

impl Progress {
    /// `depth D score S best M nodes N`, the line a terminal shows.
    pub fn text(&self) -> String {
        format!(
            "depth {} score {} best {} nodes {}",
            self.depth,
            engine_text::score_usi(self.score),
            self.best,
            self.nodes
        )
    }
}

/// The result of an analysis, ready to render.
#[derive(Clone, Debug)]
pub struct Analysis<V: Registered> {
    /// The game (position after the moves list).
    pub game: Game<V>,
    /// `ongoing`, `check`, or the result.
    pub status: String,
    /// Legal moves (0 when the game is over).
    pub legal_moves: usize,
    /// The best lines, best first.
    pub lines: Vec<LineReport>,
    /// Nodes searched.
    pub nodes: u64,
    /// Search time.
    pub time: Duration,
    /// Deepest completed iteration.
    pub depth: u32,
    /// The mate solver's verdict.
    pub mate: MateSummary,
    /// Whether the stop flag ended the search early.
    pub interrupted: bool,
    /// The exact result from the variant's database, or why there is none.
    pub exact: Exact,
    /// The dialect of the SFEN written (the lines are already text in it).
    pub dialect: Dialect,
}

/// Analyses `position` (`startpos` or an SFEN, optionally followed by ` moves ...`) for
/// variant `V` with the analysis service: the search (within `settings.limits`) and the
/// mate solver side by side, both stopped early by `stop`, or the database `db` (with its
/// file) where it covers the position. `on_progress` hears the search's first line as it
/// deepens.
pub fn analyze<V: Registered>(
    position: &str,
    settings: &Settings,
    db: Option<(&dyn PerfectPlay<V>, PathBuf)>,
    stop: &AtomicBool,
    on_progress: &mut dyn FnMut(&Progress),
) -> Result<Analysis<V>, AnalyzeError> {
    let game = parse_game::<V>(position)?;
    let pos = *game.position();
    let status = status(&game);
    let legal_moves = if game.outcome().is_some() {
        0
    } else {
        pos.legal_moves().len()
    };
    let request = Request {
        limits: settings.limits.clone(),
        multipv: settings.multipv,
        mate_nodes: settings.mate_nodes,
    };
    let mut service = Analyzer::<V, V::Eval>::new(settings.hash_mb);
    service.set_threads(settings.threads);
    let dialect = settings.dialect;
    let mut on_info = |info: &Info, source: Source| {
        if info.multipv == 1 && source == Source::Search {
            on_progress(&Progress {
                depth: info.depth,
                score: info.score,
                best: info
                    .pv
                    .first()
                    .map_or_else(|| "-".to_string(), |&m| move_to_usi_in(&pos, m, dialect)),
                nodes: info.nodes,
            });
        }
    };
    let (book, path) = match db {
        Some((d, p)) => (Some(d), Some(p)),
        None => (None, None),
    };
    // A block found damaged while reading: how to build the file again.
    let rebuild = path.as_ref().map(|p| {
        format!(
            "kshogi solve {} --out {} --force",
            <V as Variant>::NAME,
            p.display()
        )
    });
    let result = service
        .analyse(&game, &request, book, stop, &mut on_info)
        .map_err(|source| AnalyzeError::Database { source, rebuild })?;
    let prev = game.moves().last().map(|m| m.to());
    let reports = result
        .lines
        .iter()
        .map(|l| LineReport {
            mv: move_to_usi_in(&pos, l.line.mv, dialect),
            score: l.line.score.into(),
            pv: engine_text::pv_usi_in(&pos, &l.line.pv, dialect),
            pv_kif: engine_text::pv_kif(&pos, &l.line.pv, prev),
            depth: l.line.depth,
            seldepth: l.line.seldepth,
            nodes: result.nodes,
            source: l.source.name(),
        })
        .collect();
    let exact = match (result.database, path) {
        (DatabaseUse::Exact { value, optimal }, Some(path)) => Exact::Found {
            path,
            value,
            moves: optimal
                .iter()
                .map(|&m| move_to_usi_in(&pos, m, dialect))
                .collect(),
            moves_kif: optimal
                .iter()
                .map(|&m| kif_move_text(&pos, m, prev))
                .collect(),
        },
        (DatabaseUse::NotCovered { coverage }, Some(path)) => Exact::NotCovered { path, coverage },
        _ => Exact::NotApplicable,
    };
    Ok(Analysis {
        dialect,
        game,
        status,
        legal_moves,
        lines: reports,
        nodes: result.nodes,
        time: result.time,
        depth: result.depth,
        mate: result.mate,
        interrupted: stop.load(Ordering::SeqCst),
        exact,
    })
}

/// The JSON form. Serialised with the fields in this order.
#[derive(Serialize)]
#[serde(bound = "")]
struct AnalyzeJson<'a, V: Registered> {
    #[serde(skip)]
    _variant: core::marker::PhantomData<V>,
    variant: &'static str,
    sfen: String,
    status: &'a str,
    legal_moves: usize,
    lines: &'a [LineReport],
    nps: u64,
    nodes: u64,
    time_ms: u64,
    depth: u32,
    side_to_move: Color,
    game_over: bool,
    mate_search: &'static str,
    interrupted: bool,
    exact: Option<ExactJson>,
    database: Option<String>,
}

/// The `exact` object of the JSON form.
#[derive(Serialize)]
struct ExactJson {
    #[serde(flatten)]
    value: ValueJson,
    moves: Vec<String>,
}

impl<V: Registered> Analysis<V> {
    /// Nodes per second of the search.
    pub fn nps(&self) -> u64 {
        kshogi_core::nodes_per_second(self.nodes, self.time)
    }

    /// The JSON form: one object on one line.
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        let pos = self.game.position();
        let report = AnalyzeJson::<V> {
            _variant: core::marker::PhantomData,
            variant: V::NAME,
            sfen: to_sfen_in(pos, self.dialect),
            status: &self.status,
            legal_moves: self.legal_moves,
            lines: &self.lines,
            nps: self.nps(),
            nodes: self.nodes,
            time_ms: engine_text::millis(self.time),
            depth: self.depth,
            side_to_move: pos.side_to_move(),
            game_over: self.game.outcome().is_some(),
            mate_search: self.mate.word(),
            interrupted: self.interrupted,
            exact: match &self.exact {
                Exact::Found { value, moves, .. } => Some(ExactJson {
                    value: (*value).into(),
                    moves: moves.clone(),
                }),
                _ => None,
            },
            database: match &self.exact {
                Exact::Found { path, .. } => Some(path.display().to_string()),
                _ => None,
            },
        };
        json_line(&report)
    }

    /// The text form: the diagram in `style`, the status, the exact result and the lines.
    pub fn to_text(&self, style: DiagramStyle) -> String {
        let mut out = game_diagram(&self.game, style, self.dialect);
        let _ = writeln!(out, "status: {}", self.status);
        let _ = writeln!(out, "legal moves: {}", self.legal_moves);
        let over = self.game.outcome().is_some();
        self.exact_text(&mut out, over);
        if over {
            out.push_str("the game is over: nothing to search\n");
            return out;
        }
        if let Exact::Found { .. } = self.exact {
            self.lines_text(&mut out);
            let _ = writeln!(
                out,
                "time {:.3} s (database lookups, no search)",
                self.time.as_secs_f64()
            );
            return out;
        }
        if self.lines.is_empty() {
            out.push_str("no line: the game is over\n");
        }
        self.lines_text(&mut out);
        let _ = writeln!(
            out,
            "nodes {}, time {:.3} s, nps {}",
            self.nodes,
            self.time.as_secs_f64(),
            self.nps()
        );
        let mate = match self.mate {
            MateSummary::Off => None,
            MateSummary::Mate(n) => Some(format!(
                "forced win in {}",
                plies(i32::try_from(n).unwrap_or(i32::MAX))
            )),
            MateSummary::NoMate => Some("no forced win by checks".to_string()),
            MateSummary::Unknown => Some("unknown (node budget spent)".to_string()),
        };
        if let Some(m) = mate {
            let _ = writeln!(out, "mate search: {m}");
        }
        if self.interrupted {
            out.push_str("interrupted: the search was stopped early\n");
        }
        out
    }

    /// The `exact:` lines of the text form (variants with a database only).
    fn exact_text(&self, out: &mut String, over: bool) {
        let searched = if over { "" } else { "searched instead; " };
        let name = <V as Variant>::NAME;
        match &self.exact {
            Exact::NotApplicable => {}
            Exact::NoDatabase(Some(path)) => {
                let _ = writeln!(
                    out,
                    "exact: no database at {} ({searched}build it with `kshogi solve {name}`)",
                    path.display()
                );
            }
            Exact::NoDatabase(None) => {
                let _ = writeln!(
                    out,
                    "exact: no database ({searched}no default path, as none of KSHOGI_DB, \
                     XDG_DATA_HOME and HOME is set; give --db FILE)"
                );
            }
            Exact::NotCovered { path, coverage } => {
                let _ = writeln!(
                    out,
                    "exact: the database {} covers {coverage} ({searched}the whole game needs \
                     `kshogi solve {name}`)",
                    path.display()
                );
            }
            Exact::Found {
                value,
                moves,
                moves_kif,
                ..
            } => {
                let over = if over { " (the game is over)" } else { "" };
                let _ = writeln!(out, "exact: {}{over}", value_text(*value));
                if !moves.is_empty() {
                    let _ = writeln!(out, "optimal moves: {}", moves.join(" "));
                    let _ = writeln!(out, "  kif: {}", moves_kif.join(" "));
                }
            }
        }
    }

    /// The `line K:` entries of the text form.
    fn lines_text(&self, out: &mut String) {
        for (i, l) in self.lines.iter().enumerate() {
            let database = l.source == "database";
            let score = match l.score {
                ScoreJson::Cp(0) if database => "cp 0 (a draw with best play)".to_string(),
                ScoreJson::Cp(n) => format!("cp {n}"),
                ScoreJson::Mate(n) if n >= 0 => {
                    format!("mate {n} (the side to move wins in {})", plies(n))
                }
                ScoreJson::Mate(n) => {
                    format!("mate {n} (the side to move loses in {})", plies(-n))
                }
            };
            if database {
                let _ = writeln!(out, "line {}: {score} (from the database)", i + 1);
            } else {
                let _ = writeln!(
                    out,
                    "line {}: {score} (depth {}, seldepth {}{})",
                    i + 1,
                    l.depth,
                    l.seldepth,
                    if l.source == "search" {
                        ""
                    } else {
                        ", proven by the mate solver"
                    }
                );
            }
            let _ = writeln!(out, "  usi: {}", l.pv.join(" "));
            let _ = writeln!(out, "  kif: {}", l.pv_kif.join(" "));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_rules_kyoto::Kyoto;

    #[test]
    fn the_default_time_applies_only_when_no_limit_is_given() {
        let second = Duration::from_secs(1);
        let none = limits_or_default(None, None, None, second);
        assert_eq!(
            (none.depth, none.nodes, none.time),
            (None, None, Some(second))
        );
        let depth = limits_or_default(Some(3), None, None, second);
        assert_eq!((depth.depth, depth.time), (Some(3), None));
        let nodes = limits_or_default(None, Some(10), None, second);
        assert_eq!((nodes.nodes, nodes.time), (Some(10), None));
        let time = limits_or_default(None, None, Some(DEFAULT_TIME), second);
        assert_eq!(time.time, Some(Duration::from_secs(2)));
    }

    fn quick() -> Settings {
        Settings {
            limits: Limits {
                depth: Some(1),
                ..Limits::default()
            },
            multipv: 1,
            hash_mb: 1,
            mate_nodes: 1_000,
            threads: 1,
            dialect: Dialect::Canonical,
        }
    }

    #[test]
    fn finished_game_has_no_lines() {
        // Hand-checked mate: G*5b with the Silver on 4c guarding it; the king on 5a has
        // no square left and cannot take the gold.
        let stop = AtomicBool::new(false);
        let mut heard = 0;
        let a = analyze::<Kyoto>(
            "k4/5/1S3/5/4K b G 9 moves G*5b",
            &quick(),
            None,
            &stop,
            &mut |_| heard += 1,
        )
        .unwrap();
        assert_eq!(a.status, "black wins by checkmate");
        assert_eq!(a.legal_moves, 0);
        assert!(a.lines.is_empty());
        assert_eq!(a.mate, MateSummary::Off);
        assert_eq!(heard, 0, "nothing is searched once the game is over");
        let text = a.to_text(DiagramStyle::PLAIN);
        assert!(text.contains("status: black wins by checkmate\n"), "{text}");
        assert!(text.contains("legal moves: 0\n"), "{text}");
        assert!(
            text.contains("the game is over: nothing to search\n"),
            "{text}"
        );
        let json: serde_json::Value = serde_json::from_str(&a.to_json().unwrap()).unwrap();
        assert_eq!(json["game_over"], true);
        assert_eq!(json["lines"], serde_json::json!([]));
        assert_eq!(json["exact"], serde_json::Value::Null);
    }

    #[test]
    fn a_search_reports_its_progress_and_a_legal_first_move() {
        // Depth 1 from the start: one iteration is heard, and the line's move is one of the
        // start position's legal moves (listed independently by core).
        let stop = AtomicBool::new(false);
        let mut heard = Vec::new();
        let a = analyze::<Kyoto>("startpos", &quick(), None, &stop, &mut |p| {
            heard.push(p.clone())
        })
        .unwrap();
        assert!(!heard.is_empty());
        assert!(heard.iter().all(|p| p.depth == 1));
        assert!(
            heard[0].text().starts_with("depth 1 score "),
            "{}",
            heard[0].text()
        );
        let game = parse_game::<Kyoto>("startpos").unwrap();
        let legal: Vec<String> = game
            .position()
            .legal_moves()
            .iter()
            .map(|&m| move_to_usi_in(game.position(), m, Dialect::Canonical))
            .collect();
        assert_eq!(a.legal_moves, legal.len());
        assert_eq!(a.lines.len(), 1);
        assert!(legal.contains(&a.lines[0].mv), "{}", a.lines[0].mv);
        assert_eq!(a.exact, Exact::NotApplicable);
        assert!(!a.interrupted);
    }

    #[test]
    fn a_wrong_position_is_a_position_error() {
        let stop = AtomicBool::new(false);
        let e = analyze::<Kyoto>("startpos moves 9z9y", &quick(), None, &stop, &mut |_| {})
            .unwrap_err();
        assert!(matches!(e, AnalyzeError::Position(_)), "{e:?}");
    }
}
