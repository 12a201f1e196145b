//! The tuning pipeline: from one command, self-play data in chunks, the fit, a fixed-node
//! SPRT of the fitted weights against the current ones, and the weights file written where
//! the registry picks it up when the SPRT accepts them, with a summary.
//!
//! Every stage records what it finished in the run's directory, so that running the same
//! command again continues where it stopped:
//!
//! - `params.json`: the parameters that decide the results (not `--threads`, which does
//!   not change them) and the weights the games are played with. A directory made with
//!   other parameters is an error, never mixed.
//! - `data/chunk-NNNNN.json`: the games of one chunk with their samples, the digest of the
//!   parameters and of its own content; a chunk whose file is missing or does not check
//!   is played again.
//! - `fit.json`: the fitted weights, the weights file and the fit's numbers.
//! - `sprt.json`: the SPRT's game pairs played so far, in order (each pair's points for
//!   the fitted weights, 0 to 4 half points).
//! - `summary.json`: every stage's numbers and time.
//!
//! Every file is written to a temporary file and renamed, so stopping the run at any
//! moment (Ctrl-C) leaves each file whole or absent. The games, the fit and the SPRT
//! depend on the parameters and the seed only: the same on any number of threads, in one
//! run or resumed.

use crate::candidate::{with_weights, Candidate};
use crate::data::{self, stream_rng, GameData, GenConfig, Sample};
use crate::fit::FitConfig;
use crate::{tune_games, weights_source, weights_table, GENERATED_HEADER};
use kshogi_core::rng::SplitMix64;
use kshogi_core::{Color, Game, Position, Variant};
use kshogi_engine::eval::{EvalParams, Linear, N_WEIGHTS};
use kshogi_engine::selfplay::{self, PlayConfig, SearchPlayer, Sides};
use kshogi_engine::{Engine, Evaluator, Limits};
use kshogi_match::stats::{
    elo_of_score, llr_pentanomial, sprt_bounds, Sprt, SprtDecision, MIN_SPRT_PAIRS,
};
use kshogi_registry::{LinearOf, Registered};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The SPRT stage's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtConfig {
    /// The test: hypotheses in Elo and error rates.
    pub test: Sprt,
    /// Engine nodes per move.
    pub nodes: u64,
    /// Most game pairs; a test still undecided then keeps the current weights.
    pub max_pairs: u32,
    /// Random plies at the start of each pair's opening (both games the same).
    pub opening: u32,
    /// Plies after which a game is a draw.
    pub max_plies: usize,
}

impl Default for SprtConfig {
    fn default() -> Self {
        SprtConfig {
            test: Sprt {
                elo0: 0.0,
                elo1: 10.0,
                alpha: 0.05,
                beta: 0.05,
            },
            nodes: 2000,
            max_plies: 300,
            max_pairs: 2000,
            opening: 6,
        }
    }
}

/// Everything a pipeline run is made of.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The self-play data (its `threads` plays games and SPRT pairs at once).
    pub gen: GenConfig,
    /// Games per chunk file.
    pub chunk: u32,
    /// The fit.
    pub fit: FitConfig,
    /// The SPRT, or `None` to accept the fit without one.
    pub sprt: Option<SprtConfig>,
    /// The run's directory.
    pub dir: PathBuf,
    /// Where an accepted fit is written.
    pub out: PathBuf,
}

/// Why a run stopped.
#[derive(Debug)]
pub enum PipelineError {
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        error: std::io::Error,
    },
    /// A file of the run's directory is not what the pipeline wrote.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// The directory was made with other parameters.
    Mismatch {
        /// The directory.
        dir: PathBuf,
        /// Each parameter that differs: name, value in the directory, value now.
        fields: Vec<(String, String, String)>,
    },
    /// The output file exists and the tuner did not write it.
    NotGenerated {
        /// The file.
        path: PathBuf,
    },
    /// The output file exists and is not of the kind the run writes (an NNUE run's
    /// `--out` that is not a net file of its variant).
    NotOurs {
        /// The file.
        path: PathBuf,
        /// Why it is not.
        why: String,
    },
}

impl fmt::Display for PipelineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PipelineError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            PipelineError::Corrupt { path, why } => write!(
                f,
                "{}: {why}; it is not a file of this pipeline (remove it to redo its stage)",
                path.display()
            ),
            PipelineError::Mismatch { dir, fields } => {
                write!(
                    f,
                    "{} was made with other parameters:{} run with the same options to \
                     resume it, or choose another --dir",
                    dir.display(),
                    differences_text(fields)
                )
            }
            PipelineError::NotGenerated { path } => write!(
                f,
                "{} exists and was not written by kshogi-tune (its first line is not `{}`); \
                 not overwriting it",
                path.display(),
                GENERATED_HEADER
            ),
            PipelineError::NotOurs { path, why } => {
                write!(f, "{} exists and {why}; not overwriting it", path.display())
            }
        }
    }
}

impl std::error::Error for PipelineError {}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> PipelineError + '_ {
    move |error| PipelineError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Writes `text` (text or bytes) to `path` through a temporary file in the same directory,
/// creating the directory if needed, so that the file is whole or as it was.
pub fn write_atomic(path: &Path, text: impl AsRef<[u8]>) -> Result<(), PipelineError> {
    if let Some(parent) = path.parent() {
        if !parent.as_os_str().is_empty() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text).map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))
}

/// Writes a weights file, refusing to replace a file the tuner did not write (its first
/// line is not [`GENERATED_HEADER`]), through a temporary file.
pub fn write_weights(path: &Path, text: &str) -> Result<(), PipelineError> {
    if path.exists() {
        let old = std::fs::read_to_string(path).map_err(io(path))?;
        if !old.starts_with(GENERATED_HEADER) {
            return Err(PipelineError::NotGenerated {
                path: path.to_path_buf(),
            });
        }
    }
    write_atomic(path, text)
}

/// Reads a JSON file of the run, `None` when it does not exist; one that does not read is
/// [`PipelineError::Corrupt`].
pub fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Option<T>, PipelineError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(path)(e)),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| PipelineError::Corrupt {
            path: path.to_path_buf(),
            why: e.to_string(),
        })
}

/// `value` as pretty JSON with a final newline, as the run's files hold it.
pub fn to_json<T: Serialize>(value: &T) -> String {
    // Serialising these plain structs cannot fail.
    serde_json::to_string_pretty(value).unwrap_or_default() + "\n"
}

/// FNV-1a, 64 bits, as 16 hex digits: the digest of a chunk's games and of the parameters.
pub fn digest(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The parameters that decide a run's results, as `params.json` holds them.
fn params_value<V: Registered>(cfg: &Config) -> Value {
    let g = &cfg.gen;
    let base = <LinearOf<V> as Linear<V>>::params().to_weights();
    json!({
        "variant": V::NAME,
        "seed": g.seed,
        "games": g.games,
        "nodes": g.nodes,
        "opening": g.opening,
        "max_plies": g.max_plies,
        "chunk": cfg.chunk,
        "iterations": cfg.fit.iterations,
        "rate": cfg.fit.rate,
        "only": cfg.fit.only,
        "base_weights": base.to_vec(),
        "sprt": cfg.sprt.as_ref().map(|s| json!({
            "elo0": s.test.elo0,
            "elo1": s.test.elo1,
            "alpha": s.test.alpha,
            "beta": s.test.beta,
            "nodes": s.nodes,
            "max_pairs": s.max_pairs,
            "opening": s.opening,
            "max_plies": s.max_plies,
        })),
    })
}

/// The parameters that differ between two `params.json` values: name, old, new.
pub fn differences(was: &Value, now: &Value) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let (Some(a), Some(b)) = (was.as_object(), now.as_object()) else {
        return vec![("parameters".into(), was.to_string(), now.to_string())];
    };
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    for k in keys {
        let (x, y) = (a.get(k), b.get(k));
        if x != y {
            let show = |v: Option<&Value>| v.map_or("(none)".to_string(), |v| v.to_string());
            let name = if k == "base_weights" {
                "the weights the games are played with (the evaluator changed since)".into()
            } else {
                k.clone()
            };
            out.push((name, show(x), show(y)));
        }
    }
    out
}

/// The differences of [`differences`] as the error messages list them: ` name X there, Y
/// now;` for each, in order.
pub fn differences_text(fields: &[(String, String, String)]) -> String {
    fields
        .iter()
        .map(|(name, there, now)| format!(" {name} {there} there, {now} now;"))
        .collect()
}

/// Creates the run's directory with `params.json`, or checks that an existing one was
/// made with the same parameters. Returns the parameters' digest.
pub fn open_dir<V: Registered>(cfg: &Config) -> Result<String, PipelineError> {
    open_params(&cfg.dir, &params_value::<V>(cfg))
}

/// Creates `dir` with `params.json` holding `now` (an object: parameter name to value), or
/// checks that an existing one holds the same, else [`PipelineError::Mismatch`] naming
/// each parameter that differs (the file is left as it is). Returns the parameters'
/// digest, which every file of the run records.
pub fn open_params(dir: &Path, now: &Value) -> Result<String, PipelineError> {
    let path = dir.join("params.json");
    match read_json::<Value>(&path)? {
        Some(was) => {
            let fields = differences(&was, now);
            if !fields.is_empty() {
                return Err(PipelineError::Mismatch {
                    dir: dir.to_path_buf(),
                    fields,
                });
            }
        }
        None => write_atomic(&path, to_json(now))?,
    }
    Ok(digest(&now.to_string()))
}

/// A sample as a chunk file stores it (its game and result are the game's).
#[derive(Serialize, Deserialize)]
struct StoredSample {
    f: Vec<i32>,
    o: i32,
}

/// A game as a chunk file stores it.
#[derive(Serialize, Deserialize)]
struct StoredGame {
    plies: usize,
    result: f64,
    samples: Vec<StoredSample>,
}

/// One chunk file.
#[derive(Serialize, Deserialize)]
struct ChunkFile {
    params: String,
    first: u32,
    games: Vec<StoredGame>,
    digest: String,
    seconds: f64,
}

fn store(games: &[GameData]) -> Vec<StoredGame> {
    games
        .iter()
        .map(|g| StoredGame {
            plies: g.plies,
            result: g.result,
            samples: g
                .samples
                .iter()
                .map(|s| StoredSample {
                    f: s.features.to_vec(),
                    o: s.offset,
                })
                .collect(),
        })
        .collect()
}

fn load(first: u32, games: &[StoredGame]) -> Option<Vec<GameData>> {
    let mut out = Vec::with_capacity(games.len());
    for (i, g) in games.iter().enumerate() {
        let mut samples = Vec::with_capacity(g.samples.len());
        for s in &g.samples {
            let features: [i32; N_WEIGHTS] = s.f.as_slice().try_into().ok()?;
            samples.push(Sample {
                features,
                offset: s.o,
                result: g.result,
                game: first + i as u32,
            });
        }
        out.push(GameData {
            samples,
            plies: g.plies,
            result: g.result,
        });
    }
    Some(out)
}

/// The games of a chunk file if it is whole and of these parameters, else `None` (to be
/// played again).
fn read_chunk(
    path: &Path,
    params: &str,
    range: &std::ops::Range<u32>,
) -> Option<(Vec<GameData>, f64)> {
    let c: ChunkFile = read_json(path).ok()??;
    let body = serde_json::to_string(&c.games).ok()?;
    if c.params != params
        || c.first != range.start
        || c.games.len() != range.len()
        || digest(&body) != c.digest
    {
        return None;
    }
    Some((load(c.first, &c.games)?, c.seconds))
}

pub use kshogi_progress::{Output, Progress};

/// The tuners' progress on stderr (`kshogi-progress`): lines starting with `program`, at
/// most one every two seconds (and the forced ones); on a terminal, the stages that count
/// (the data's games, the SPRT's pairs) draw a bar with their line beside it and the other
/// lines print above it; nothing when `quiet` (tests).
pub fn progress(program: &'static str, quiet: bool) -> Progress {
    let output = if quiet {
        Output::Quiet
    } else {
        Output::detect()
    };
    Progress::new(program, output)
}

/// `1h02m`, `3m20s`, `12s`.
pub fn duration(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// The data stage's numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct DataStage {
    /// The games in order.
    pub games: Vec<GameData>,
    /// Chunks played in this run and found finished.
    pub chunks: (u32, u32),
    /// Seconds the chunks took when they were played (this run's and earlier ones').
    pub seconds: f64,
}

/// Stage (a): plays the chunks not yet finished and returns every game.
pub fn data_stage<V: Registered>(
    cfg: &Config,
    params: &str,
    progress: &Progress,
) -> Result<DataStage, PipelineError> {
    let g = &cfg.gen;
    let chunk = cfg.chunk.max(1);
    let n_chunks = g.games.div_ceil(chunk);
    let mut all = Vec::with_capacity(g.games as usize);
    let (mut played, mut found) = (0, 0);
    let mut seconds = 0.0;
    let mut fresh_games = 0u32;
    let fresh_start = Instant::now();
    for c in 0..n_chunks {
        let range = c * chunk..((c + 1) * chunk).min(g.games);
        let path = cfg.dir.join("data").join(format!("chunk-{c:05}.json"));
        if let Some((games, secs)) = read_chunk(&path, params, &range) {
            all.extend(games);
            seconds += secs;
            found += 1;
            continue;
        }
        let start = Instant::now();
        let before = all.len() as u32;
        let report = |done: u32| {
            progress.count("data", u64::from(before + done), u64::from(g.games), || {
                let fresh = fresh_games + done;
                let rate = f64::from(fresh) / fresh_start.elapsed().as_secs_f64().max(1e-9);
                let left = g.games - before - done;
                format!(
                    "data: {}/{} games (chunk {}/{}), {:.2} games/s, ETA {}",
                    before + done,
                    g.games,
                    c + 1,
                    n_chunks,
                    rate,
                    duration(f64::from(left) / rate.max(1e-9))
                )
            })
        };
        let games = data::generate_range::<V, V::Eval>(g, range.clone(), &report);
        let secs = start.elapsed().as_secs_f64();
        let stored = store(&games);
        let body = serde_json::to_string(&stored).unwrap_or_default();
        let file = ChunkFile {
            params: params.to_string(),
            first: range.start,
            games: stored,
            digest: digest(&body),
            seconds: secs,
        };
        write_atomic(
            &path,
            &(serde_json::to_string(&file).unwrap_or_default() + "\n"),
        )?;
        fresh_games += range.len() as u32;
        seconds += secs;
        played += 1;
        all.extend(games);
        progress.line(true, || {
            format!(
                "data: {}/{} games, chunk {}/{} written",
                all.len(),
                g.games,
                c + 1,
                n_chunks
            )
        });
    }
    Ok(DataStage {
        games: all,
        chunks: (played, found),
        seconds,
    })
}

/// What the fit stage keeps in `fit.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitStage {
    params: String,
    /// The fitted weights ([`EvalParams::to_weights`] order).
    pub after: Vec<i32>,
    /// The weights file for them.
    pub source: String,
    /// The tuner's summary of the fit.
    pub summary: String,
    /// The weights table, before and after.
    pub table: String,
    /// `K` of the logistic model.
    pub k: f64,
    /// Mean squared error on the fitted samples, before and after.
    pub train_loss: (f64, f64),
    /// Mean squared error on the held-out games, before and after.
    pub held_out_loss: (f64, f64),
    /// Samples fitted and held out.
    pub samples: (usize, usize),
    /// Black wins, draws, White wins.
    pub results: [u32; 3],
    /// The fitted win/draw/loss model with the weights before and after: scale, margin.
    pub wdl: ((f64, f64), (f64, f64)),
    /// Seconds the fit took.
    pub seconds: f64,
}

impl FitStage {
    /// The fitted weights.
    pub fn params(&self) -> EvalParams {
        let mut w = [0; N_WEIGHTS];
        for (x, &y) in w.iter_mut().zip(&self.after) {
            *x = y;
        }
        EvalParams::from_weights(&w)
    }
}

/// Stage (b): the fit of `games`, or the one `fit.json` recorded.
pub fn fit_stage<V: Registered>(
    cfg: &Config,
    params: &str,
    games: &[GameData],
    progress: &Progress,
) -> Result<(FitStage, bool), PipelineError> {
    let path = cfg.dir.join("fit.json");
    if let Some(f) = read_json::<FitStage>(&path)? {
        if f.params == params && f.after.len() == N_WEIGHTS {
            return Ok((f, false));
        }
    }
    progress.line(true, || {
        format!(
            "fit: {} iterations on the samples of {} games",
            cfg.fit.iterations,
            games.len()
        )
    });
    let start = Instant::now();
    let r = tune_games::<V>(&cfg.gen, &cfg.fit, games);
    let f = FitStage {
        params: params.to_string(),
        after: r.after.to_weights().to_vec(),
        source: weights_source::<V>(&r),
        summary: crate::summary(&r),
        table: weights_table::<V>(&r),
        k: r.k,
        train_loss: r.train_loss,
        held_out_loss: r.held_out_loss,
        samples: r.samples,
        results: r.results,
        wdl: (
            (r.wdl.0.scale, r.wdl.0.draw_margin),
            (r.wdl.1.scale, r.wdl.1.draw_margin),
        ),
        seconds: start.elapsed().as_secs_f64(),
    };
    write_atomic(&path, to_json(&f))?;
    Ok((f, true))
}

/// What the SPRT concluded about the fitted weights.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// H1 accepted: the fitted weights are written.
    Accepted,
    /// H0 accepted: the current weights stay.
    Rejected,
    /// Neither bound by the last pair: the current weights stay.
    Undecided,
    /// Not decided yet: more pairs to play.
    Running,
    /// No SPRT (`--no-sprt`): the fit is written.
    Skipped,
}

/// The decision after `pairs` (each pair's half points for the fitted weights, 0 to 4):
/// the LLR of the pairs (the match runner's pentanomial GSPRT) against the test's
/// bounds, from [`MIN_SPRT_PAIRS`] pairs on; [`Verdict::Undecided`] at `max_pairs`.
pub fn decide(cfg: &SprtConfig, pairs: &[u8]) -> (Verdict, f64) {
    let llr = llr_pentanomial(cfg.test.elo0, cfg.test.elo1, pentanomial(pairs));
    let verdict = if pairs.len() as u64 >= MIN_SPRT_PAIRS {
        match cfg.test.decide(llr) {
            SprtDecision::H1 => Verdict::Accepted,
            SprtDecision::H0 => Verdict::Rejected,
            SprtDecision::Undecided => Verdict::Running,
        }
    } else {
        Verdict::Running
    };
    if verdict == Verdict::Running && pairs.len() >= cfg.max_pairs as usize {
        return (Verdict::Undecided, llr);
    }
    (verdict, llr)
}

/// The pairs counted by their half points (0 to 4).
pub fn pentanomial(pairs: &[u8]) -> [u64; 5] {
    let mut p = [0u64; 5];
    for &x in pairs {
        p[usize::from(x.min(4))] += 1;
    }
    p
}

/// The SPRT stage's numbers as `summary.json` gives them (both pipelines'): the pairs'
/// count and pentanomial counts, the score, the LLR with its bounds, the hypotheses, the
/// nodes a move, the verdict and the seconds.
pub fn sprt_json(s: &SprtConfig, pairs: &[u8], verdict: Verdict, llr: f64, seconds: f64) -> Value {
    let points: u64 = pairs.iter().map(|&x| u64::from(x)).sum();
    let score = points as f64 / (4 * pairs.len()).max(1) as f64;
    let (lower, upper) = sprt_bounds(s.test.alpha, s.test.beta);
    json!({
        "pairs": pairs.len(),
        "nodes": s.nodes,
        "pentanomial": pentanomial(pairs),
        "score": score,
        "llr": llr,
        "bounds": [lower, upper],
        "elo0": s.test.elo0,
        "elo1": s.test.elo1,
        "verdict": verdict,
        "seconds": seconds,
    })
}

/// What `sprt.json` keeps.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SprtStage {
    params: String,
    /// The pairs in order: the fitted weights' half points in each (0 to 4).
    pub pairs: Vec<u8>,
    /// Seconds the pairs took.
    pub seconds: f64,
}

/// The seed of the SPRT's openings, apart from the data's: the run's seed XOR this.
pub const SPRT_STREAM: u64 = 0x5350_5254_0000_0000;

/// Plays pair `index`: the same random opening twice, the fitted weights (`candidate`)
/// Black in the first game and White in the second, against the registered evaluator.
/// Returns the candidate's half points.
pub fn play_pair<V: Registered>(
    cand: &mut Engine<V, Candidate<LinearOf<V>>>,
    base: &mut Engine<V, LinearOf<V>>,
    cfg: &SprtConfig,
    seed: u64,
    index: u32,
) -> u8 {
    let play = PlayConfig {
        random_opening: cfg.opening as usize,
        max_plies: cfg.max_plies,
    };
    let mut points = 0;
    for cand_color in [Color::Black, Color::White] {
        let mut rng = stream_rng(seed ^ SPRT_STREAM, u64::from(index));
        let start = Game::new(Position::<V>::start());
        points += play_game(cand, base, start, cand_color, cfg.nodes, play, &mut rng);
    }
    points
}

/// Plays one game on from `start` (a position and the moves that led to it) between two
/// engines, `a` with `a_color`, both cleared first and searching `nodes` nodes a move, the
/// first `play.random_opening` plies of the game random from `rng` (the pipeline's SPRT and
/// the SPSA tuner both play their games so). Returns
/// `a`'s half points: 2 for a win, 1 for a draw (by the rules or the length limit), 0 for a
/// loss.
pub fn play_game<V: Variant, A: Evaluator<V>, B: Evaluator<V>>(
    a: &mut Engine<V, A>,
    b: &mut Engine<V, B>,
    start: Game<V>,
    a_color: Color,
    nodes: u64,
    play: PlayConfig,
    rng: &mut SplitMix64,
) -> u8 {
    let mut game = start;
    a.clear();
    b.clear();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut pa = SearchPlayer {
        engine: a,
        limits: limits.clone(),
    };
    let mut pb = SearchPlayer { engine: b, limits };
    let mut sides = if a_color == Color::Black {
        Sides {
            black: &mut pa as &mut dyn selfplay::Player<V>,
            white: &mut pb as &mut dyn selfplay::Player<V>,
        }
    } else {
        Sides {
            black: &mut pb as &mut dyn selfplay::Player<V>,
            white: &mut pa as &mut dyn selfplay::Player<V>,
        }
    };
    selfplay::play(&mut game, &mut sides, play, rng, &mut |_| {});
    match game.outcome().and_then(|o| o.winner()) {
        Some(c) if c == a_color => 2,
        Some(_) => 0,
        None => 1,
    }
}

/// Plays the items `first..first + count` (game pairs, say) on at most `threads` threads
/// and returns their results in the items' order, whatever thread played each. Each thread
/// runs `worker` once, with `next`, which hands it the next item not yet taken (`None` when
/// none is left), and `done`, which records an item's result: the worker makes its own
/// state (engines, a thread-local setting) and plays items until `next` says none is left.
pub fn play_batch<R: Send>(
    threads: usize,
    first: u32,
    count: u32,
    worker: impl Fn(&dyn Fn() -> Option<u32>, &dyn Fn(u32, R)) + Sync,
) -> Vec<R> {
    let taken = AtomicU32::new(first);
    let results: Mutex<Vec<(u32, R)>> = Mutex::new(Vec::new());
    let next = || {
        let i = taken.fetch_add(1, Ordering::SeqCst);
        (i < first + count).then_some(i)
    };
    let done = |i: u32, r: R| {
        results
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push((i, r));
    };
    std::thread::scope(|s| {
        for _ in 0..(threads.max(1) as u32).min(count) {
            s.spawn(|| worker(&next, &done));
        }
    });
    let mut got = results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    got.sort_by_key(|&(i, _)| i);
    got.into_iter().map(|(_, r)| r).collect()
}

/// Stage (c): the SPRT of `fitted` against the registered weights, from the pairs
/// `sprt.json` recorded on; each batch of pairs (one per thread) is recorded as it ends,
/// in order, and the test stops at the first pair that decides it, whatever the threads.
pub fn sprt_stage<V: Registered>(
    cfg: &Config,
    sprt: &SprtConfig,
    params: &str,
    fitted: EvalParams,
    progress: &Progress,
) -> Result<(SprtStage, Verdict, f64), PipelineError> {
    let path = cfg.dir.join("sprt.json");
    let mut st = match read_json::<SprtStage>(&path)? {
        Some(s) if s.params == params => s,
        _ => SprtStage {
            params: params.to_string(),
            ..SprtStage::default()
        },
    };
    let (lower, upper) = sprt_bounds(sprt.test.alpha, sprt.test.beta);
    let threads = cfg.gen.threads.max(1);
    loop {
        let (verdict, llr) = decide(sprt, &st.pairs);
        if verdict != Verdict::Running {
            // A recorded run may hold pairs past the decision only if it was made with
            // other parameters, which `params` rules out.
            return Ok((st, verdict, llr));
        }
        let first = st.pairs.len() as u32;
        let batch = (threads as u32).min(sprt.max_pairs - first);
        let start = Instant::now();
        let got = play_batch(threads, first, batch, |next, done| {
            with_weights(fitted, || {
                let mut cand = Engine::<V, Candidate<LinearOf<V>>>::new(1);
                let mut base = Engine::<V, LinearOf<V>>::new(1);
                while let Some(i) = next() {
                    done(
                        i,
                        play_pair::<V>(&mut cand, &mut base, sprt, cfg.gen.seed, i),
                    );
                }
            })
        });
        for p in got {
            st.pairs.push(p);
            if decide(sprt, &st.pairs).0 != Verdict::Running {
                break;
            }
        }
        st.seconds += start.elapsed().as_secs_f64();
        write_atomic(&path, to_json(&st))?;
        let (_, llr) = decide(sprt, &st.pairs);
        let p = pentanomial(&st.pairs);
        let total = u64::from(sprt.max_pairs);
        progress.count("sprt", st.pairs.len() as u64, total, || {
            let rate = st.pairs.len() as f64 / st.seconds.max(1e-9);
            format!(
                "sprt: {} pairs (pentanomial {:?}), LLR {:.2} in ({:.2}, {:.2}), {:.2} pairs/s, at most {} pairs left ({} at most)",
                st.pairs.len(),
                p,
                llr,
                lower,
                upper,
                rate,
                sprt.max_pairs as usize - st.pairs.len(),
                duration((sprt.max_pairs as usize - st.pairs.len()) as f64 / rate.max(1e-9))
            )
        });
    }
}

/// What a run did, for the summary.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The summary as JSON (also in `summary.json`).
    pub json: Value,
    /// The summary as text.
    pub text: String,
    /// The SPRT's verdict.
    pub verdict: Verdict,
    /// Whether the weights file was written by this run.
    pub written: bool,
}

/// Runs every stage for `V` (skipping what the directory says is done) and writes
/// `summary.json`.
pub fn run<V: Registered>(cfg: &Config, progress: &Progress) -> Result<Outcome, PipelineError> {
    let params = open_dir::<V>(cfg)?;
    let data = data_stage::<V>(cfg, &params, progress)?;
    let games = &data.games;
    let samples: usize = games.iter().map(|g| g.samples.len()).sum();
    let (fit, fitted_now) = fit_stage::<V>(cfg, &params, games, progress)?;
    let fitted = fit.params();
    let before = <LinearOf<V> as Linear<V>>::params();
    let (sprt_json, verdict, sprt_text) = match &cfg.sprt {
        None => (
            Value::Null,
            Verdict::Skipped,
            "sprt: skipped (--no-sprt)\n".to_string(),
        ),
        Some(_) if fitted == before => {
            let text = "sprt: not played: the fit left every weight as it was\n".to_string();
            (json!({"played": false}), Verdict::Rejected, text)
        }
        Some(s) => {
            let (st, verdict, llr) = sprt_stage::<V>(cfg, s, &params, fitted, progress)?;
            let p = pentanomial(&st.pairs);
            let games = 2 * st.pairs.len() as u64;
            let points: u64 = st.pairs.iter().map(|&x| u64::from(x)).sum();
            let score = points as f64 / (2 * games).max(1) as f64;
            let (lower, upper) = sprt_bounds(s.test.alpha, s.test.beta);
            let text = format!(
                "sprt: {} pairs at {} nodes a move, pentanomial {:?}, score {:.1}% ({:+.1} Elo), \
                 LLR {:.2} in ({:.2}, {:.2}) for elo0 {} elo1 {}: {:?}, {}\n",
                st.pairs.len(),
                s.nodes,
                p,
                100.0 * score,
                elo_of_score(score),
                llr,
                lower,
                upper,
                s.test.elo0,
                s.test.elo1,
                verdict,
                duration(st.seconds)
            );
            let json = sprt_json(s, &st.pairs, verdict, llr, st.seconds);
            (json, verdict, text)
        }
    };
    let accept = matches!(verdict, Verdict::Accepted | Verdict::Skipped);
    let (written, write_text) = if !accept {
        (
            false,
            format!(
                "weights: {} left as it is (the fit was not accepted)\n",
                cfg.out.display()
            ),
        )
    } else if std::fs::read_to_string(&cfg.out).ok().as_deref() == Some(fit.source.as_str()) {
        (
            false,
            format!(
                "weights: {} already holds the fitted weights\n",
                cfg.out.display()
            ),
        )
    } else {
        let new = !cfg.out.exists();
        write_weights(&cfg.out, &fit.source)?;
        let note = if new {
            " (a new file: the variant's evaluation uses it once its line in \
             kshogi-tuned-eval names it, docs/adding-a-variant.md)"
        } else {
            "; rebuild to use it"
        };
        (
            true,
            format!("weights: wrote {}{note}\n", cfg.out.display()),
        )
    };
    let g = &cfg.gen;
    let text = format!(
        "data: {} games at {} nodes a move, seed {}, {} samples; {} chunks played now, {} found done; {}\n\
         fit: K {:.6}, loss fitted {:.6} -> {:.6}, held out {:.6} -> {:.6}; {}{}\n{sprt_text}{write_text}",
        games.len(),
        g.nodes,
        g.seed,
        samples,
        data.chunks.0,
        data.chunks.1,
        duration(data.seconds),
        fit.k,
        fit.train_loss.0,
        fit.train_loss.1,
        fit.held_out_loss.0,
        fit.held_out_loss.1,
        duration(fit.seconds),
        if fitted_now { "" } else { " (recorded)" },
    );
    let json = json!({
        "variant": V::NAME,
        "dir": cfg.dir.display().to_string(),
        "data": {
            "games": games.len(),
            "nodes": g.nodes,
            "seed": g.seed,
            "samples": samples,
            "results": fit.results,
            "chunks_played": data.chunks.0,
            "chunks_found": data.chunks.1,
            "seconds": data.seconds,
        },
        "fit": {
            "k": fit.k,
            "train_loss": [fit.train_loss.0, fit.train_loss.1],
            "held_out_loss": [fit.held_out_loss.0, fit.held_out_loss.1],
            "samples": [fit.samples.0, fit.samples.1],
            "wdl_before": [fit.wdl.0 .0, fit.wdl.0 .1],
            "wdl_after": [fit.wdl.1 .0, fit.wdl.1 .1],
            "weights_before": before.to_weights().to_vec(),
            "weights_after": fit.after,
            "seconds": fit.seconds,
        },
        "sprt": sprt_json,
        "write": {
            "out": cfg.out.display().to_string(),
            "accepted": accept,
            "written": written,
        },
        "seconds": progress.elapsed().as_secs_f64(),
    });
    write_atomic(&cfg.dir.join("summary.json"), to_json(&json))?;
    Ok(Outcome {
        json,
        text,
        verdict,
        written,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_registry::types::Micro;

    /// A fresh directory under the system's temporary directory.
    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("kshogi-tune-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// A tiny run of Micro: 12 games in chunks of 4 at 100 nodes, a short fit, at most 3
    /// SPRT pairs (fewer than an SPRT decides on, so it ends undecided).
    fn tiny(dir: &Path, threads: usize) -> Config {
        Config {
            gen: GenConfig {
                games: 12,
                nodes: 100,
                opening: 4,
                max_plies: 80,
                seed: 3,
                threads,
                starts: Vec::new(),
            },
            chunk: 4,
            fit: FitConfig {
                iterations: 30,
                rate: 2.0,
                only: Vec::new(),
            },
            sprt: Some(SprtConfig {
                nodes: 100,
                max_pairs: 3,
                opening: 4,
                max_plies: 80,
                ..SprtConfig::default()
            }),
            dir: dir.join("run"),
            out: dir.join("micro.rs"),
        }
    }

    /// What a run must give the same whether it was stopped or not.
    fn results(cfg: &Config) -> (Vec<i32>, String, Vec<u8>) {
        let fit: FitStage = read_json(&cfg.dir.join("fit.json")).unwrap().unwrap();
        let sprt: SprtStage = read_json(&cfg.dir.join("sprt.json")).unwrap().unwrap();
        (fit.after, fit.source, sprt.pairs)
    }

    #[test]
    fn a_batch_returns_every_item_once_in_order() {
        for threads in [1, 2, 5] {
            let workers = AtomicU32::new(0);
            let got = play_batch(threads, 10, 7, |next, done| {
                workers.fetch_add(1, Ordering::SeqCst);
                while let Some(i) = next() {
                    done(i, i * 3);
                }
            });
            assert_eq!(got, [30, 33, 36, 39, 42, 45, 48], "{threads} threads");
            // One worker a thread, never more than the items.
            assert_eq!(workers.into_inner(), threads.min(7) as u32);
        }
        assert!(play_batch(3, 4, 0, |next, done: &dyn Fn(u32, u8)| {
            while let Some(i) = next() {
                done(i, 1);
            }
        })
        .is_empty());
    }

    #[test]
    fn a_stopped_run_resumes_to_the_same_result() {
        let quiet = progress("kshogi-tune", true);
        let a = tiny(&temp("whole"), 2);
        let whole = run::<Micro>(&a, &quiet).unwrap();
        assert_eq!(whole.verdict, Verdict::Undecided);
        assert!(!whole.written && !a.out.exists());
        let expected = results(&a);
        assert_eq!(expected.2.len(), 3);

        // The same run on one thread, stopped at every stage: a chunk never written
        // (only its temporary file), a chunk cut short, no fit yet, one SPRT pair.
        let b = tiny(&temp("stopped"), 1);
        run::<Micro>(&b, &quiet).unwrap();
        let data = b.dir.join("data");
        std::fs::remove_file(data.join("chunk-00001.json")).unwrap();
        std::fs::write(data.join("chunk-00001.json.tmp"), "{\"par").unwrap();
        let c2 = data.join("chunk-00002.json");
        let text = std::fs::read_to_string(&c2).unwrap();
        std::fs::write(&c2, &text[..text.len() / 2]).unwrap();
        std::fs::remove_file(b.dir.join("fit.json")).unwrap();
        let mut sprt: SprtStage = read_json(&b.dir.join("sprt.json")).unwrap().unwrap();
        sprt.pairs.truncate(1);
        std::fs::write(b.dir.join("sprt.json"), to_json(&sprt)).unwrap();
        let resumed = run::<Micro>(&b, &quiet).unwrap();
        assert_eq!(results(&b), expected);
        assert_eq!(resumed.json["data"]["chunks_played"], 2);
        assert_eq!(resumed.json["data"]["chunks_found"], 1);

        // Run again as it is: nothing left to play.
        let again = run::<Micro>(&b, &quiet).unwrap();
        assert_eq!(again.json["data"]["chunks_played"], 0);
        assert_eq!(results(&b), expected);
        for d in [&a, &b] {
            std::fs::remove_dir_all(d.dir.parent().unwrap()).unwrap();
        }
    }

    #[test]
    fn other_parameters_are_refused_threads_are_not() {
        let root = temp("mismatch");
        let cfg = tiny(&root, 2);
        open_dir::<Micro>(&cfg).unwrap();
        // The number of threads changes no result: the same directory.
        open_dir::<Micro>(&Config {
            gen: GenConfig {
                threads: 1,
                ..cfg.gen.clone()
            },
            ..cfg.clone()
        })
        .unwrap();
        let other = Config {
            gen: GenConfig {
                games: 20,
                ..cfg.gen.clone()
            },
            chunk: 5,
            ..cfg.clone()
        };
        let e = open_dir::<Micro>(&other).unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, PipelineError::Mismatch { ref fields, .. } if fields.len() == 2));
        assert!(msg.contains("games 12 there, 20 now"), "{msg}");
        assert!(msg.contains("chunk 4 there, 5 now"), "{msg}");
        assert!(msg.contains("another --dir"), "{msg}");
        // The directory's record is untouched.
        open_dir::<Micro>(&cfg).unwrap();
        // A record that is not the pipeline's is named, not overwritten.
        std::fs::write(cfg.dir.join("params.json"), "not json").unwrap();
        let e = open_dir::<Micro>(&cfg).unwrap_err().to_string();
        assert!(
            e.contains("params.json") && e.contains("not a file of this pipeline"),
            "{e}"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_sprt_decides_by_the_pairs() {
        let cfg = SprtConfig {
            max_pairs: 30,
            ..SprtConfig::default()
        };
        // 30 pairs all won: far above the upper bound ln(0.95 / 0.05) = 2.94.
        assert_eq!(decide(&cfg, &[4; 30]).0, Verdict::Accepted);
        // All lost: far below the lower bound.
        assert_eq!(decide(&cfg, &[0; 30]).0, Verdict::Rejected);
        // Fewer pairs than the match runner decides on: still running.
        assert_eq!(decide(&cfg, &[4; 10]).0, Verdict::Running);
        // Pairs won and lost in turn: pair scores 1 and 0, smoothed by half a pair of each
        // outcome (kshogi_match::stats): frequencies 15.5, 0.5, 0.5, 0.5, 15.5 over 32.5,
        // mean 1/2, variance (2 * 15.5 / 4 + 2 * 0.5 / 16) / 32.5 = 0.240385, so with
        // s0 = 1/2 and s1 = L(10) = 0.51439 the LLR is n (s1 - s0) (2m - s0 - s1) / (2v) =
        // 30 * 0.01439 * (-0.01439) / 0.48077 = -0.0129: inside the bounds at the last pair.
        let mixed: Vec<u8> = (0..30).map(|i| if i % 2 == 0 { 4 } else { 0 }).collect();
        let (v, llr) = decide(&cfg, &mixed);
        assert_eq!(v, Verdict::Undecided);
        assert!((llr + 0.0129).abs() < 0.0002, "{llr}");
        assert_eq!(pentanomial(&mixed), [15, 0, 0, 0, 15]);
    }

    #[test]
    fn only_an_accepted_fit_is_written_and_only_over_a_generated_file() {
        let quiet = progress("kshogi-tune", true);
        let root = temp("write");
        // Without an SPRT the fit is written, as the one-shot tuner did.
        let cfg = Config {
            sprt: None,
            ..tiny(&root, 2)
        };
        let o = run::<Micro>(&cfg, &quiet).unwrap();
        assert_eq!(o.verdict, Verdict::Skipped);
        assert!(o.written);
        let text = std::fs::read_to_string(&cfg.out).unwrap();
        assert!(text.starts_with(GENERATED_HEADER));
        // The same weights as the one-shot tuner's, byte for byte: same games, same fit.
        let report = crate::tune::<Micro>(&cfg.gen, &cfg.fit, &|_| {});
        assert_eq!(text, weights_source::<Micro>(&report));
        // Again: already there, not written again.
        assert!(!run::<Micro>(&cfg, &quiet).unwrap().written);
        // A file the tuner did not write is never replaced, and the error names it.
        let mine = root.join("mine.rs");
        std::fs::write(&mine, "fn precious() {}\n").unwrap();
        let e = run::<Micro>(
            &Config {
                out: mine.clone(),
                ..cfg.clone()
            },
            &quiet,
        )
        .unwrap_err();
        assert!(matches!(e, PipelineError::NotGenerated { .. }), "{e}");
        assert_eq!(
            std::fs::read_to_string(&mine).unwrap(),
            "fn precious() {}\n"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    /// The whole pipeline as `cargo xtask tune` runs it, small: a few games, few nodes, a
    /// small SPRT that decides (its pairs are many at few nodes), the file written to a
    /// temporary `--out` only if accepted.
    #[test]
    #[ignore = "end-to-end smoke run (a few seconds in release mode, a minute in debug)"]
    fn smoke_run_end_to_end() {
        let root = temp("smoke");
        let out = root.join("kyoto.rs");
        std::fs::write(&out, format!("{GENERATED_HEADER}: the old file\n")).unwrap();
        let cfg = Config {
            gen: GenConfig {
                games: 60,
                nodes: 300,
                opening: 6,
                max_plies: 200,
                seed: 5,
                threads: 2,
                starts: Vec::new(),
            },
            chunk: 20,
            fit: FitConfig {
                iterations: 300,
                rate: 2.0,
                only: Vec::new(),
            },
            sprt: Some(SprtConfig {
                nodes: 300,
                max_pairs: 200,
                opening: 6,
                max_plies: 200,
                ..SprtConfig::default()
            }),
            dir: root.join("run"),
            out: out.clone(),
        };
        type K = kshogi_registry::types::Kyoto;
        let o = run::<K>(&cfg, &progress("kshogi-tune", false)).unwrap();
        eprintln!("{}", o.text);
        let text = std::fs::read_to_string(&out).unwrap();
        match o.verdict {
            Verdict::Accepted => assert!(o.written && text.contains("EvalParams {")),
            Verdict::Rejected | Verdict::Undecided => {
                assert!(!o.written && text.ends_with("the old file\n"))
            }
            v => panic!("unexpected verdict {v:?}"),
        }
        let summary: Value = read_json(&cfg.dir.join("summary.json")).unwrap().unwrap();
        assert_eq!(summary["data"]["games"], 60);
        assert!(summary["sprt"]["pairs"].as_u64().unwrap() >= 1);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
