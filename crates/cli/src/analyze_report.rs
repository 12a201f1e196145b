//! What `kshogi analyze` prints: an [`Analysis`] as the `--json` object or as text (the
//! diagram, the status, the exact result and the best lines), or as a picture with `--svg`.

use crate::analyze_cmd::{Analysis, AnalyzeArgs, Exact, LineReport};
use crate::engine_text::{self, ScoreJson};
use crate::error::CliError;
use crate::format::OutputFormat;
use crate::solve_cmd::{self, ValueJson};
use kshogi_analysis::MateSummary;
use kshogi_core::{Color, Variant};
use kshogi_notation::{game_diagram, parse_usi, svg, to_sfen_in, DiagramStyle};
use kshogi_registry::Registered;
use serde::Serialize;
use std::fmt::Write as _;

/// `1 ply`, `3 plies`.
fn plies(n: i32) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// The `--json` output. Serialised with the fields in this order.
#[derive(Serialize)]
#[serde(bound = "")]
struct AnalyzeReport<'a, V: Registered> {
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

/// The `exact` object of the JSON output.
#[derive(Serialize)]
struct ExactJson {
    #[serde(flatten)]
    value: ValueJson,
    moves: Vec<String>,
}

impl<V: Registered> Analysis<V> {
    /// Nodes per second of the search.
    pub fn nps(&self) -> u64 {
        engine_text::nodes_per_second(self.nodes, self.time)
    }

    /// The output in `format`: one JSON object, or the diagram and the lines as text.
    pub fn render(&self, format: OutputFormat, style: DiagramStyle) -> Result<String, CliError> {
        match format {
            OutputFormat::Json => self.to_json(),
            OutputFormat::Text => Ok(self.to_text(style)),
        }
    }

    /// What the arguments ask for: [`Analysis::render`], or with `--svg` the picture with an
    /// arrow for the best move (the first line's), to stdout or to `-o FILE` (and then the
    /// rendered text or JSON to stdout).
    pub(crate) fn emit(&self, args: &AnalyzeArgs, style: DiagramStyle) -> Result<String, CliError> {
        if !args.svg.svg {
            return self.render(args.format, style);
        }
        let pos = self.game.position();
        let best = self.lines.first().and_then(|l| parse_usi(pos, &l.mv).ok());
        let picture = svg(
            pos,
            self.game.moves().last().copied(),
            best,
            args.svg.style(),
        );
        let otherwise = match args.svg.output {
            Some(_) => self.render(args.format, style)?,
            None => String::new(),
        };
        args.svg.deliver(picture, otherwise)
    }

    /// The `--json` output: one object on one line.
    pub fn to_json(&self) -> Result<String, CliError> {
        let pos = self.game.position();
        let report = AnalyzeReport::<V> {
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
        OutputFormat::json_line(&report)
    }

    /// The text output.
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

    /// The `exact:` lines of the text output (variants with a database only).
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
                let _ = writeln!(out, "exact: {}{over}", solve_cmd::value_text(*value));
                if !moves.is_empty() {
                    let _ = writeln!(out, "optimal moves: {}", moves.join(" "));
                    let _ = writeln!(out, "  kif: {}", moves_kif.join(" "));
                }
            }
        }
    }

    /// The `line K:` entries of the text output.
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
