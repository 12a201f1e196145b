//! `kshogi analyze`: the status of a position and its best lines, from the search and the
//! df-pn mate solver of `kshogi-engine`.

use crate::engine_text::{self, ScoreJson};
use crate::error::CliError;
use crate::interrupt;
use crate::show_cmd::{self, ColorChoice};
use crate::variant_select;
use clap::Args;
use kshogi_core::{Color, Game};
use kshogi_engine::mate::{self, MateResult};
use kshogi_engine::{Engine, Evaluate, Info, Limits, Line, Score};
use kshogi_notation::serde_support::SfenPosition;
use kshogi_notation::{diagram, move_to_usi, parse_game, DiagramStyle, VariantKind};
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;
use serde::Serialize;
use std::fmt::Write as _;
use std::io::{IsTerminal as _, Write as _};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The search time when no limit is given.
pub const DEFAULT_TIME: Duration = Duration::from_secs(2);

/// The mate solver's node budget when `--mate-nodes` is not given.
pub const DEFAULT_MATE_NODES: u64 = 200_000;

/// More help for `kshogi analyze`, after the options.
pub const ANALYZE_HELP: &str = "\
Limits: --depth, --time and --nodes may be combined; the first one reached stops the
search. Without any, the search runs for 2 seconds. Alongside the search, the df-pn mate
solver looks for a forced win by checks (--mate-nodes nodes, 0 to skip it); a mate it
proves is preferred to the search's first line when the search did not find a mate as
short. Ctrl-C stops the search and prints the lines found so far (a second Ctrl-C exits).
On a terminal, stderr shows the progress: depth, score and best move.

Scores are from the side to move's point of view: `cp N` in centipawns (100 = about a
pawn), or `mate N`: a forced win in N plies (checkmate, or any win the variant knows, such
as Kinzoku's king entry), negative when the side to move is the one that loses.

Text output: the diagram (as `kshogi show` draws it), `status: <status>` (ongoing, check,
or the result of a game that is over), `legal moves: <N>`, then for each line
`line <K>: <score> (depth D, seldepth S)` with the moves in USI and in KIF notation, and
the totals `nodes <N>, time <seconds> s, nps <N>`.

JSON output (--json): exactly one object on one line,
  {\"variant\": \"kyoto\", \"sfen\": \"<SFEN>\", \"status\": \"ongoing\", \"legal_moves\": 12,
   \"lines\": [{\"move\": \"1e1d+\", \"score\": {\"cp\": 35}, \"pv\": [\"1e1d+\", ...],
              \"pv_kif\": [\"１四歩成(15)\", ...], \"depth\": 8, \"seldepth\": 12,
              \"nodes\": 123456, \"source\": \"search\"}],
   \"nps\": 600000, \"nodes\": 123456, \"time_ms\": 2001, \"depth\": 8,
   \"side_to_move\": \"black\", \"game_over\": false, \"mate_search\": \"nomate\",
   \"interrupted\": false}
where `score` is {\"cp\": N} or {\"mate\": N}, `source` is `search` or `mate solver`,
`mate_search` is `mate`, `nomate` (no forced win by checks), `unknown` (budget spent) or
`off`, and a game that is over has its result in `status` and `\"lines\": []`.
See docs/analysis.md.";

/// The arguments of `kshogi analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// The variant: kyoto, micro or kinzoku [default: from the board size]
    #[arg(long, value_name = "V", value_parser = variant_select::parse_variant_name)]
    pub variant: Option<VariantKind>,
    /// Largest search depth in plies (1-100)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Search time in seconds, e.g. 0.5 [default: 2 when no limit is given]
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub time: Option<Duration>,
    /// Node budget of the search
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Number of best lines to show (1-32)
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=32))]
    pub multipv: u16,
    /// Transposition table size in MiB (1-4096)
    #[arg(long, value_name = "MB", default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub hash: u16,
    /// Node budget of the mate solver (0: do not run it)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MATE_NODES)]
    pub mate_nodes: u64,
    /// When to colour the diagram
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
    /// `startpos` or an SFEN, optionally followed by ` moves <usi> ...` (one argument)
    #[arg(value_name = "POSITION")]
    pub position: String,
}

/// Reads `--time`: a positive number of seconds, at most a week.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(secs.is_finite() && secs > 0.0 && secs <= 7.0 * 24.0 * 3600.0) {
        return Err(format!(
            "the time must be more than 0 and at most a week, found `{text}`"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
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
}

impl AnalyzeArgs {
    /// The settings the arguments ask for; [`DEFAULT_TIME`] when no limit is given.
    pub fn settings(&self) -> Settings {
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            time: self.time,
            ..Limits::default()
        };
        if limits.depth.is_none() && limits.nodes.is_none() && limits.time.is_none() {
            limits.time = Some(DEFAULT_TIME);
        }
        Settings {
            limits,
            multipv: usize::from(self.multipv),
            hash_mb: usize::from(self.hash),
            mate_nodes: self.mate_nodes,
        }
    }
}

/// Runs `kshogi analyze`: picks the variant, installs the Ctrl-C handler, analyses and
/// renders.
pub fn run(args: &AnalyzeArgs) -> Result<String, CliError> {
    let kind = variant_select::select(args.variant, &args.position)?;
    let stop = interrupt::stop_flag();
    let progress = std::io::stderr().is_terminal();
    let style = DiagramStyle {
        color: show_cmd::use_color(
            args.color,
            std::env::var_os("NO_COLOR").as_deref(),
            std::io::stdout().is_terminal(),
        ),
        ..DiagramStyle::PLAIN
    };
    let settings = args.settings();
    let pos = args.position.as_str();
    match kind {
        VariantKind::Kyoto => {
            analyze::<Kyoto>(pos, &settings, stop, progress)?.render(args.json, style)
        }
        VariantKind::Micro => {
            analyze::<Micro>(pos, &settings, stop, progress)?.render(args.json, style)
        }
        VariantKind::Kinzoku => {
            analyze::<Kinzoku>(pos, &settings, stop, progress)?.render(args.json, style)
        }
    }
}

/// What the mate solver said.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MateSummary {
    /// Not run (`--mate-nodes 0`, or the game is over).
    Off,
    /// A forced win in this many plies was proven.
    Mate(u32),
    /// Proven: no forced win by checks.
    NoMate,
    /// The node budget or Ctrl-C ended it first.
    Unknown,
}

impl MateSummary {
    /// The JSON word: `mate`, `nomate`, `unknown` or `off`.
    fn word(self) -> &'static str {
        match self {
            MateSummary::Off => "off",
            MateSummary::Mate(_) => "mate",
            MateSummary::NoMate => "nomate",
            MateSummary::Unknown => "unknown",
        }
    }
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
    /// `search` or `mate solver`.
    pub source: &'static str,
}

/// The result of an analysis, ready to render.
#[derive(Clone, Debug)]
pub struct Analysis<V: Evaluate> {
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
    /// Whether Ctrl-C stopped the search.
    pub interrupted: bool,
}

/// Analyses the position given by the `POSITION` argument for variant `V`: the search
/// (within `settings.limits`) and the mate solver run side by side on two threads, both
/// stopped early by `stop`. With `progress`, stderr shows the current depth, score and
/// best move on one line, rewritten as the search deepens.
pub fn analyze<V: Evaluate>(
    position: &str,
    settings: &Settings,
    stop: &AtomicBool,
    progress: bool,
) -> Result<Analysis<V>, CliError> {
    let game = parse_game::<V>(position)?;
    let pos = *game.position();
    let status = show_cmd::status(&game);
    if game.outcome().is_some() {
        return Ok(Analysis {
            game,
            status,
            legal_moves: 0,
            lines: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            depth: 0,
            mate: MateSummary::Off,
            interrupted: false,
        });
    }
    let legal_moves = pos.legal_moves().len();
    let mut engine = Engine::<V>::new(settings.hash_mb);
    let mut shown = false;
    let start = Instant::now();
    let (result, mate) = std::thread::scope(|s| {
        let solver = (settings.mate_nodes > 0)
            .then(|| s.spawn(|| mate::solve(&pos, settings.mate_nodes, stop)));
        let mut on_info = |info: &Info| {
            if progress && info.multipv == 1 {
                show_progress::<V>(info);
                shown = true;
            }
        };
        let result = engine.search(
            &game,
            &settings.limits,
            settings.multipv,
            stop,
            &mut on_info,
        );
        let mate = solver.map(|h| h.join().unwrap_or(MateResult::Unknown));
        (result, mate)
    });
    let wall = start.elapsed();
    if shown {
        eprint!("\r\x1b[2K");
        let _ = std::io::stderr().flush();
    }
    let time = if result.time.is_zero() {
        wall
    } else {
        result.time
    };
    let mut lines = merge_mate(&game, &result.lines, mate.as_ref(), result.depth);
    lines.truncate(settings.multipv);
    let prev = game.moves().last().map(|m| m.to());
    let reports = lines
        .iter()
        .map(|l| LineReport {
            mv: move_to_usi::<V>(l.mv),
            score: l.score.into(),
            pv: engine_text::pv_usi::<V>(&l.pv),
            pv_kif: engine_text::pv_kif(&pos, &l.pv, prev),
            depth: l.depth,
            seldepth: l.seldepth,
            nodes: result.nodes,
            source: if result.lines.contains(l) {
                "search"
            } else {
                "mate solver"
            },
        })
        .collect();
    let mate = match mate {
        None => MateSummary::Off,
        Some(MateResult::Mate { plies, .. }) => MateSummary::Mate(plies),
        Some(MateResult::NoMate) => MateSummary::NoMate,
        Some(MateResult::Unknown) => MateSummary::Unknown,
    };
    Ok(Analysis {
        game,
        status,
        legal_moves,
        lines: reports,
        nodes: result.nodes,
        time,
        depth: result.depth,
        mate,
        interrupted: stop.load(Ordering::SeqCst),
    })
}

/// One progress line on stderr, overwriting the previous one.
fn show_progress<V: Evaluate>(info: &Info) {
    let best = info
        .pv
        .first()
        .map_or_else(|| "-".to_string(), |&m| move_to_usi::<V>(m));
    eprint!(
        "\r\x1b[2Kdepth {} score {} best {} nodes {}",
        info.depth,
        engine_text::score_usi(info.score),
        best,
        info.nodes
    );
    let _ = std::io::stderr().flush();
}

/// The lines to report: the search's lines with their principal variations checked (each
/// cut at its first illegal move, and dropped when even its first move is illegal), and
/// the mate solver's line first when it proved a win that the search's first line does not
/// match (a mate at most as short). A search line with the solver's move is then dropped.
pub fn merge_mate<V: Evaluate>(
    game: &Game<V>,
    lines: &[Line],
    mate: Option<&MateResult>,
    depth: u32,
) -> Vec<Line> {
    let pos = game.position();
    let mut out: Vec<Line> = lines
        .iter()
        .filter_map(|l| {
            let pv = if l.pv.first() == Some(&l.mv) {
                engine_text::legal_prefix(pos, &l.pv)
            } else {
                engine_text::legal_prefix(pos, &[l.mv])
            };
            (!pv.is_empty()).then(|| Line { pv, ..l.clone() })
        })
        .collect();
    let Some(MateResult::Mate { plies, pv }) = mate else {
        return out;
    };
    let pv = engine_text::legal_prefix(pos, pv);
    let Some(&first) = pv.first() else {
        return out;
    };
    let plies_i = i32::try_from(*plies).unwrap_or(i32::MAX);
    let search_has_it = matches!(
        out.first(),
        Some(Line { score: Score::Mate(n), .. }) if *n > 0 && *n <= plies_i
    );
    if search_has_it {
        return out;
    }
    out.retain(|l| l.mv != first);
    out.insert(
        0,
        Line {
            mv: first,
            score: Score::Mate(plies_i),
            seldepth: u32::try_from(pv.len()).unwrap_or(u32::MAX),
            pv,
            depth,
        },
    );
    out
}

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
struct AnalyzeReport<'a, V: Evaluate> {
    variant: &'static str,
    sfen: SfenPosition<V>,
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
}

impl<V: Evaluate> Analysis<V> {
    /// Nodes per second of the search.
    pub fn nps(&self) -> u64 {
        engine_text::nodes_per_second(self.nodes, self.time)
    }

    /// The output: one JSON object (`json`), or the diagram and the lines as text.
    pub fn render(&self, json: bool, style: DiagramStyle) -> Result<String, CliError> {
        if json {
            self.to_json()
        } else {
            Ok(self.to_text(style))
        }
    }

    /// The `--json` output: one object on one line.
    pub fn to_json(&self) -> Result<String, CliError> {
        let pos = self.game.position();
        let report = AnalyzeReport::<V> {
            variant: V::NAME,
            sfen: SfenPosition(*pos),
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
        };
        let mut s = serde_json::to_string(&report)?;
        s.push('\n');
        Ok(s)
    }

    /// The text output.
    pub fn to_text(&self, style: DiagramStyle) -> String {
        let pos = self.game.position();
        let mut out = diagram(pos, self.game.moves().last().copied(), style);
        let _ = writeln!(out, "status: {}", self.status);
        let _ = writeln!(out, "legal moves: {}", self.legal_moves);
        if self.game.outcome().is_some() {
            out.push_str("the game is over: nothing to search\n");
            return out;
        }
        if self.lines.is_empty() {
            out.push_str("no line: the search stopped before its first iteration ended\n");
        }
        for (i, l) in self.lines.iter().enumerate() {
            let score = match l.score {
                ScoreJson::Cp(n) => format!("cp {n}"),
                ScoreJson::Mate(n) if n >= 0 => {
                    format!("mate {n} (the side to move wins in {})", plies(n))
                }
                ScoreJson::Mate(n) => {
                    format!("mate {n} (the side to move loses in {})", plies(-n))
                }
            };
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
            let _ = writeln!(out, "  usi: {}", l.pv.join(" "));
            let _ = writeln!(out, "  kif: {}", l.pv_kif.join(" "));
        }
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_core::Move;
    use kshogi_notation::parse_usi;

    fn usi_list<V: Evaluate>(pv: &[Move]) -> Vec<String> {
        engine_text::pv_usi::<V>(pv)
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
        }
    }

    #[test]
    fn finished_game_has_no_lines() {
        // Hand-checked mate (see show_cmd's tests): G*5b with the Silver on 4c.
        let stop = AtomicBool::new(false);
        let a = analyze::<Kyoto>("k4/5/1S3/5/4K b G 9 moves G*5b", &quick(), &stop, false).unwrap();
        assert_eq!(a.status, "black wins by checkmate");
        assert_eq!(a.legal_moves, 0);
        assert!(a.lines.is_empty());
        assert_eq!(a.mate, MateSummary::Off);
        let text = a.to_text(DiagramStyle::PLAIN);
        assert!(text.contains("status: black wins by checkmate\n"), "{text}");
        assert!(text.contains("legal moves: 0\n"), "{text}");
    }

    #[test]
    fn default_limit_is_a_few_seconds() {
        let args = AnalyzeArgs {
            variant: None,
            depth: None,
            time: None,
            nodes: None,
            multipv: 1,
            hash: 16,
            mate_nodes: DEFAULT_MATE_NODES,
            color: ColorChoice::Never,
            json: false,
            position: "startpos".into(),
        };
        assert_eq!(args.settings().limits.time, Some(DEFAULT_TIME));
        let args = AnalyzeArgs {
            depth: Some(3),
            ..args
        };
        assert_eq!(args.settings().limits.time, None);
        assert_eq!(args.settings().limits.depth, Some(3));
    }

    #[test]
    fn seconds_parser() {
        assert_eq!(parse_seconds("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_seconds("2"), Ok(Duration::from_secs(2)));
        for bad in ["0", "-1", "x", "NaN", "inf", "1e9"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_proven_mate_goes_first() {
        // Mate in 1 by G*5b (see above); the search's line says cp.
        let game = parse_game::<Kyoto>("k4/5/1S3/5/4K b G 9").unwrap();
        let pos = *game.position();
        let mate_mv = parse_usi(&pos, "G*5b").unwrap();
        let other = parse_usi(&pos, "1e2e").unwrap();
        let line = |mv: Move, score| Line {
            mv,
            score,
            pv: vec![mv],
            depth: 3,
            seldepth: 4,
        };
        let search = vec![line(other, Score::Cp(500)), line(mate_mv, Score::Cp(400))];
        let solved = MateResult::Mate {
            plies: 1,
            pv: vec![mate_mv],
        };
        let merged = merge_mate(&game, &search, Some(&solved), 3);
        assert_eq!(merged.len(), 2);
        assert_eq!(merged[0].mv, mate_mv);
        assert_eq!(merged[0].score, Score::Mate(1));
        assert_eq!(usi_list::<Kyoto>(&merged[0].pv), ["G*5b"]);
        assert_eq!(merged[1].mv, other);
        // A search that already has the mate keeps its lines.
        let search = vec![line(mate_mv, Score::Mate(1))];
        assert_eq!(merge_mate(&game, &search, Some(&solved), 3), search);
        // No search line at all (stopped at once): the solver's line alone.
        assert_eq!(merge_mate(&game, &[], Some(&solved), 0).len(), 1);
        // Illegal engine output is dropped, never printed.
        let white_move = parse_usi(&pos.after(other), "5a4a").unwrap();
        let bogus = vec![line(white_move, Score::Cp(0))];
        assert!(merge_mate(&game, &bogus, None, 1).is_empty());
    }
}
