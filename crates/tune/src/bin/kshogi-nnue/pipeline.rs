//! `kshogi-nnue pipeline`: the net from one command, resumable (docs/nnue.md, "The
//! pipeline"). The stages are `train`'s and `match`'s, each recorded in the run's
//! directory so that the same command again continues where a run stopped:
//!
//! - `params.json`: the parameters that decide the results (not `--threads`, which changes
//!   none), with the teacher's checksum and the linear evaluation's weights; a directory
//!   made with other parameters is an error naming them ([`PipelineError::Mismatch`]);
//! - `data/chunk-NNNNN.json`: the records of games `[k * chunk, (k + 1) * chunk)` (each
//!   game depends on its index only): per game its result and, per quiet position, its
//!   SFEN and the teacher's score, with the digest of the parameters and of the games; a
//!   chunk missing or not checking is taken from `--data-from`'s run if that has it
//!   (played with the same [`GAME_FIELDS`]), else played again;
//! - `net.nnue` and `train.json`: the trained net (exactly `train`'s: the chunks' records
//!   joined in order are `train`'s games) and its numbers with its checksum;
//! - `sprt.json`: the pairs of the SPRT of the net against the registered evaluation so
//!   far, in order (the net's half points in each, 0 to 4);
//! - `summary.json`: every stage's numbers and times.
//!
//! The files are written through temporary files ([`write_atomic`]) and the directory's
//! record, digests, SPRT decision and progress lines are the linear tuner's
//! ([`kshogi_tune::pipeline`]).

use crate::gen::{self, Record};
use crate::versus::{self, MatchConfig};
use crate::{eval, layout_line, teacher_of, train_net};
use kshogi_engine::eval::Linear;
use kshogi_match::stats::{elo_of_score, sprt_bounds};
use kshogi_nnue::train::TrainConfig;
use kshogi_nnue::Network;
use kshogi_notation::{parse_sfen, to_sfen};
use kshogi_registry::{LinearOf, Registered};
use kshogi_tune::data::GenConfig;
use kshogi_tune::openings::{max_pairs_at_fixed_nodes, read_openings};
use kshogi_tune::pipeline::{
    decide, digest, duration, open_params, pentanomial, read_json, sprt_json, to_json,
    write_atomic, PipelineError, Progress, SprtConfig, Verdict, SPRT_STREAM,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Everything a pipeline run is made of.
#[derive(Clone, Debug)]
pub struct Config {
    /// The self-play games (its `threads` also plays the SPRT's pairs and trains).
    pub gen: GenConfig,
    /// Games per chunk file.
    pub chunk: u32,
    /// The training (its `threads` and `seed` are the run's).
    pub train: TrainConfig,
    /// Hidden units per perspective.
    pub hidden: usize,
    /// The evaluation's weight in the target.
    pub lambda: f32,
    /// The teacher's net file, or `None` for the linear evaluation.
    pub teacher: Option<PathBuf>,
    /// What the positions' evaluation labels are (`--label`).
    pub label: gen::Label,
    /// The SPRT, or `None` to write the net without one.
    pub sprt: Option<SprtConfig>,
    /// A file of openings for the SPRT's pairs (`--sprt-openings`), instead of random ones.
    pub sprt_openings: Option<PathBuf>,
    /// A file of positions the self-play games start from (`--openings`), read into
    /// `gen.starts` when the run starts.
    pub openings: Option<PathBuf>,
    /// The run's directory.
    pub dir: PathBuf,
    /// Another run's directory whose chunks this run may take (`--data-from`).
    pub data_from: Option<PathBuf>,
    /// Where an accepted net is written.
    pub out: PathBuf,
}

/// An `f32` option as JSON, as it was written (`0.005`, not `0.004999...`).
fn num(x: f32) -> Value {
    x.to_string()
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

/// The parameters that decide a run's results, as `params.json` holds them.
fn params_value<V: Registered>(cfg: &Config, teacher: Option<u64>, openings: &[String]) -> Value {
    let g = &cfg.gen;
    let t = &cfg.train;
    let linear = <LinearOf<V> as Linear<V>>::params().to_weights();
    let mut v = json!({
        "variant": V::NAME,
        "seed": g.seed,
        "games": g.games,
        "nodes": g.nodes,
        "opening": g.opening,
        "max_plies": g.max_plies,
        "chunk": cfg.chunk,
        "teacher": teacher.map_or("the linear evaluation".to_string(), |c| format!("net {c:016x}")),
        "linear_weights": linear.to_vec(),
        "registered_evaluation": registered_fingerprint::<V>(),
        "hidden": cfg.hidden,
        "epochs": t.epochs,
        "batch": t.batch,
        "rate": num(t.learning_rate),
        "decay": num(t.weight_decay),
        "lambda": num(cfg.lambda),
        "sprt": cfg.sprt.as_ref().map(|s| json!({
            "elo0": s.test.elo0,
            "elo1": s.test.elo1,
            "alpha": s.test.alpha,
            "beta": s.test.beta,
            "nodes": s.nodes,
            "max_pairs": s.max_pairs,
        })),
    });
    // Only when not the default, so that the runs made before the option keep their
    // parameters.
    if cfg.label == gen::Label::Search {
        v["label"] = json!("search");
    }
    // Only with a file, so that the runs made before the option keep their parameters.
    if !g.starts.is_empty() {
        v["starts"] = json!({
            "lines": g.starts.len(),
            "digest": digest(&g.starts.join("\n")),
        });
    }
    if !openings.is_empty() {
        v["sprt"]["openings"] = json!({
            "lines": openings.len(),
            "digest": digest(&openings.join("\n")),
        });
    }
    v
}

/// The parameters of `params.json` that decide the games of a chunk, and nothing else
/// does: a run with other training or SPRT options, or more games, may take another run's
/// chunks when these agree (`--data-from`). `games` is not one of them: game `i` depends on
/// `i` only, and the chunks of the games one run has and another lacks are played.
pub const GAME_FIELDS: [&str; 10] = [
    "variant",
    "seed",
    "nodes",
    "opening",
    "max_plies",
    "chunk",
    "teacher",
    "linear_weights",
    "starts",
    "label",
];

/// The [`GAME_FIELDS`] of a `params.json` value.
fn game_fields(params: &Value) -> Value {
    let mut out = serde_json::Map::new();
    for k in GAME_FIELDS {
        if let Some(v) = params.get(k) {
            out.insert(k.to_string(), v.clone());
        }
    }
    Value::Object(out)
}

/// The run `--data-from` names: its directory and its parameters' digest (which its chunks
/// record), if its games were played with this run's [`GAME_FIELDS`]; else why not. Reads
/// only.
fn open_source(dir: &Path, now: &Value) -> Result<(PathBuf, String), String> {
    let was: Value = match read_json::<Value>(&dir.join("params.json")) {
        Ok(Some(v)) => v,
        Ok(None) => {
            return Err(format!(
                "--data-from {}: no params.json there: not a pipeline run's directory",
                dir.display()
            ))
        }
        Err(e) => return Err(format!("--data-from {}: {e}", dir.display())),
    };
    let fields = kshogi_tune::pipeline::differences(&game_fields(&was), &game_fields(now));
    if !fields.is_empty() {
        return Err(format!(
            "--data-from {}: its games were played with other parameters:{} its chunks \
             would not be this run's games",
            dir.display(),
            kshogi_tune::pipeline::differences_text(&fields)
        ));
    }
    Ok((dir.to_path_buf(), digest(&was.to_string())))
}

/// A fingerprint of the registered evaluation, the SPRT's opponent: the checksum of its
/// scores of 256 positions of seeded random games. Nothing else names a registered net or
/// its weights, and a run resumed after they changed must not mix its SPRT pairs.
fn registered_fingerprint<V: Registered>() -> String {
    use kshogi_engine::Evaluator;
    let mut bytes = Vec::new();
    for pos in crate::random_positions::<V>(256) {
        bytes.extend_from_slice(&V::Eval::evaluate(&pos).to_le_bytes());
    }
    format!("{:016x}", kshogi_nnue::file::fnv1a(&bytes))
}

/// A game as a chunk file stores it.
#[derive(Serialize, Deserialize)]
struct StoredGame {
    /// Black's result: 1, 1/2 or 0.
    result: f32,
    /// Its quiet positions: SFEN and the teacher's score for the side to move.
    positions: Vec<(String, i32)>,
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

/// The games of `range` (records in game order) as a chunk stores them.
fn store<V: Registered>(records: &[Record<V>], range: &std::ops::Range<u32>) -> Vec<StoredGame> {
    let mut games: Vec<StoredGame> = range
        .clone()
        .map(|_| StoredGame {
            result: 0.5,
            positions: Vec::new(),
        })
        .collect();
    for r in records {
        let g = &mut games[(r.game - range.start) as usize];
        g.result = r.result;
        g.positions.push((to_sfen(&r.pos), r.eval));
    }
    games
}

/// The records of a chunk's games, or why they do not read.
fn load<V: Registered>(first: u32, games: &[StoredGame]) -> Result<Vec<Record<V>>, String> {
    let mut out = Vec::new();
    for (i, g) in games.iter().enumerate() {
        if ![0.0, 0.5, 1.0].contains(&g.result) {
            return Err(format!("game {} has result {}", first + i as u32, g.result));
        }
        for (sfen, eval) in &g.positions {
            let pos = parse_sfen::<V>(sfen)
                .map_err(|e| format!("game {}: `{sfen}`: {e}", first + i as u32))?;
            out.push(Record {
                pos,
                eval: *eval,
                result: g.result,
                game: first + i as u32,
            });
        }
    }
    Ok(out)
}

/// The records of a chunk file and the file itself if it is whole and of these
/// parameters, `Ok(None)` if it does not exist, else why it is to be played again.
#[allow(clippy::type_complexity)]
fn read_chunk<V: Registered>(
    path: &Path,
    params: &str,
    range: &std::ops::Range<u32>,
) -> Result<Option<(Vec<Record<V>>, ChunkFile)>, String> {
    let c: ChunkFile = match read_json(path) {
        Ok(Some(c)) => c,
        Ok(None) => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    let body = serde_json::to_string(&c.games).map_err(|e| e.to_string())?;
    if c.params != params {
        return Err("made with other parameters".into());
    }
    if c.first != range.start || c.games.len() != range.len() {
        return Err(format!(
            "holds {} games from {}, not {} from {}",
            c.games.len(),
            c.first,
            range.len(),
            range.start
        ));
    }
    if digest(&body) != c.digest {
        return Err("its games do not match its digest".into());
    }
    Ok(Some((load(c.first, &c.games)?, c)))
}

/// The data stage's numbers.
struct DataStage<V: Registered> {
    records: Vec<Record<V>>,
    /// Chunks played in this run, found finished, and taken from `--data-from`'s run.
    chunks: (u32, u32, u32),
    /// Seconds the chunks took when they were played (this run's and earlier ones').
    seconds: f64,
}

/// Stage 1: plays the chunks not yet finished and returns every record in game order.
fn data_stage<V: Registered>(
    cfg: &Config,
    params: &str,
    teacher: gen::Teacher,
    source: Option<&(PathBuf, String)>,
    progress: &Progress,
) -> Result<DataStage<V>, String> {
    let g = &cfg.gen;
    let chunk = cfg.chunk.max(1);
    let n_chunks = g.games.div_ceil(chunk);
    let mut records = Vec::new();
    let (mut played, mut found, mut copied, mut seconds) = (0, 0, 0, 0.0);
    let (fresh_start, mut fresh_games) = (Instant::now(), 0u32);
    for c in 0..n_chunks {
        let range = c * chunk..((c + 1) * chunk).min(g.games);
        let name = format!("chunk-{c:05}.json");
        let path = cfg.dir.join("data").join(&name);
        let again = |path: &Path, why: String| {
            progress.line(true, || {
                format!("data: {}: {why}; playing it again", path.display())
            })
        };
        match read_chunk::<V>(&path, params, &range) {
            Ok(Some((r, file))) => {
                records.extend(r);
                seconds += file.seconds;
                found += 1;
                continue;
            }
            Ok(None) => {}
            Err(why) => match source {
                Some((dir, _)) => progress.line(true, || {
                    format!(
                        "data: {}: {why}; taking it from {} or playing it again",
                        path.display(),
                        dir.display()
                    )
                }),
                None => again(&path, why),
            },
        }
        if let Some((dir, digest)) = source {
            let from = dir.join("data").join(&name);
            match read_chunk::<V>(&from, digest, &range) {
                Ok(Some((r, file))) => {
                    // This run's own copy, stamped with its parameters: it resumes alone.
                    let file = ChunkFile {
                        params: params.to_string(),
                        ..file
                    };
                    let text = serde_json::to_string(&file).map_err(|e| e.to_string())? + "\n";
                    write_atomic(&path, text).map_err(|e| e.to_string())?;
                    records.extend(r);
                    seconds += file.seconds;
                    copied += 1;
                    continue;
                }
                Ok(None) => {}
                Err(why) => again(&from, why),
            }
        }
        let start = Instant::now();
        let report = |done: u32| {
            progress.count(
                "data",
                u64::from(range.start + done),
                u64::from(g.games),
                || {
                    let fresh = fresh_games + done;
                    let rate = f64::from(fresh) / fresh_start.elapsed().as_secs_f64().max(1e-9);
                    let left = g.games - range.start - done;
                    format!(
                        "data: {}/{} games (chunk {}/{n_chunks}), {rate:.2} games/s, ETA {}",
                        range.start + done,
                        g.games,
                        c + 1,
                        duration(f64::from(left) / rate.max(1e-9))
                    )
                },
            )
        };
        let fresh = gen::generate_range::<V>(g, teacher, cfg.label, range.clone(), &report)?;
        let secs = start.elapsed().as_secs_f64();
        let games = store(&fresh, &range);
        let body = serde_json::to_string(&games).map_err(|e| e.to_string())?;
        // The records as a resumed run reads them, so that a run stopped or not trains on
        // the same positions.
        let again = load::<V>(range.start, &games)?;
        let file = ChunkFile {
            params: params.to_string(),
            first: range.start,
            games,
            digest: digest(&body),
            seconds: secs,
        };
        let text = serde_json::to_string(&file).map_err(|e| e.to_string())? + "\n";
        write_atomic(&path, text).map_err(|e| e.to_string())?;
        records.extend(again);
        fresh_games += range.len() as u32;
        seconds += secs;
        played += 1;
        progress.line(true, || {
            format!(
                "data: {}/{} games, chunk {}/{n_chunks} written",
                range.end,
                g.games,
                c + 1
            )
        });
    }
    Ok(DataStage {
        records,
        chunks: (played, found, copied),
        seconds,
    })
}

/// What `train.json` keeps.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct TrainStage {
    params: String,
    /// The checksum of `net.nnue` (FNV-1a of the file, as in the summary of `train`).
    checksum: String,
    /// Bytes of `net.nnue`.
    bytes: usize,
    /// Training and held-out samples.
    samples: (usize, usize),
    /// Training and held-out loss, before and after.
    train_loss: (f64, f64),
    held_out_loss: (f64, f64),
    /// The teacher's loss against the same targets, training and held out.
    teacher_loss: (f64, f64),
    /// The epoch kept, of `epochs`.
    epoch: usize,
    epochs: usize,
    seconds: f64,
}

/// Stage 2: the net `train.json` and `net.nnue` recorded, or the one trained now.
fn train_stage<V: Registered>(
    cfg: &Config,
    params: &str,
    records: &[Record<V>],
    progress: &Progress,
) -> Result<(TrainStage, Vec<u8>, bool), String> {
    let path = cfg.dir.join("train.json");
    let net_path = cfg.dir.join("net.nnue");
    if let Ok(Some(t)) = read_json::<TrainStage>(&path) {
        if t.params == params {
            if let Ok(bytes) = std::fs::read(&net_path) {
                if format!("{:016x}", kshogi_nnue::file::fnv1a(&bytes)) == t.checksum
                    && Network::<V>::from_bytes(&bytes).is_ok()
                {
                    return Ok((t, bytes, false));
                }
            }
        }
    }
    progress.line(true, || {
        format!(
            "train: {} epochs on the positions of {} games; {}",
            cfg.train.epochs,
            cfg.gen.games,
            layout_line::<V>(cfg.hidden)
        )
    });
    let g = &cfg.gen;
    let t = train_net::<V>(records, g.games, g.seed, &cfg.train, cfg.hidden, cfg.lambda)?;
    let stage = TrainStage {
        params: params.to_string(),
        checksum: format!("{:016x}", kshogi_nnue::file::fnv1a(&t.bytes)),
        bytes: t.bytes.len(),
        samples: t.samples,
        train_loss: (t.before.0, t.after.0),
        held_out_loss: (t.before.1, t.after.1),
        teacher_loss: t.teacher_loss,
        epoch: t.epoch,
        epochs: cfg.train.epochs,
        seconds: t.seconds,
    };
    // The net first: a record names a net that is there.
    write_atomic(&net_path, &t.bytes).map_err(|e| e.to_string())?;
    write_atomic(&path, to_json(&stage)).map_err(|e| e.to_string())?;
    Ok((stage, t.bytes, true))
}

/// What `sprt.json` keeps.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct SprtStage {
    params: String,
    /// The pairs in order: the net's half points in each (0 to 4).
    pairs: Vec<u8>,
    /// Seconds the pairs took.
    seconds: f64,
}

/// The match the SPRT plays: `match`'s games, the openings seeded apart from the data's, or
/// the lines of `--sprt-openings`.
fn match_config(cfg: &Config, sprt: &SprtConfig, openings: &[String]) -> MatchConfig {
    MatchConfig {
        games: 2 * sprt.max_pairs,
        nodes: sprt.nodes,
        movetime: None,
        opening: cfg.gen.opening as usize,
        openings: openings.to_vec(),
        max_plies: cfg.gen.max_plies,
        seed: cfg.gen.seed ^ SPRT_STREAM,
        threads: cfg.gen.threads.max(1),
    }
}

/// Stage 3: the SPRT of the net (installed) against the registered evaluation, from the
/// pairs `sprt.json` recorded on; each batch of pairs is recorded as it ends, and the test
/// stops at the first pair that decides it, whatever the threads.
fn sprt_stage<V: Registered>(
    cfg: &Config,
    sprt: &SprtConfig,
    openings: &[String],
    params: &str,
    progress: &Progress,
) -> Result<(SprtStage, Verdict, f64), String> {
    let path = cfg.dir.join("sprt.json");
    let mut st = match read_json::<SprtStage>(&path) {
        Ok(Some(s)) if s.params == params && s.pairs.iter().all(|&p| p <= 4) => s,
        _ => SprtStage {
            params: params.to_string(),
            ..SprtStage::default()
        },
    };
    let (lower, upper) = sprt_bounds(sprt.test.alpha, sprt.test.beta);
    let mc = match_config(cfg, sprt, openings);
    loop {
        let (verdict, llr) = decide(sprt, &st.pairs);
        if verdict != Verdict::Running {
            return Ok((st, verdict, llr));
        }
        let first = st.pairs.len() as u32;
        // Two pairs a thread, so that the threads stay busy while games differ in length.
        let batch = (2 * mc.threads as u32).min(sprt.max_pairs - first);
        let start = Instant::now();
        let results = versus::play_range::<V>(&mc, 2 * first..2 * (first + batch), &|_| {});
        for p in versus::pairs(&results) {
            st.pairs.push(p);
            if decide(sprt, &st.pairs).0 != Verdict::Running {
                break;
            }
        }
        st.seconds += start.elapsed().as_secs_f64();
        write_atomic(&path, to_json(&st)).map_err(|e| e.to_string())?;
        let (_, llr) = decide(sprt, &st.pairs);
        let total = u64::from(sprt.max_pairs);
        progress.count("sprt", st.pairs.len() as u64, total, || {
            let rate = st.pairs.len() as f64 / st.seconds.max(1e-9);
            let left = sprt.max_pairs as usize - st.pairs.len();
            format!(
                "sprt: {} pairs (pentanomial {:?}), LLR {llr:.2} in ({lower:.2}, {upper:.2}), \
                 {rate:.2} pairs/s, at most {left} pairs left ({} at most)",
                st.pairs.len(),
                pentanomial(&st.pairs),
                duration(left as f64 / rate.max(1e-9))
            )
        });
    }
}

/// The SPRT as it is played with `openings`: at most one pair an opening, since at a fixed
/// node count a repeated opening replays the same two games (and would count them twice).
fn with_openings(sprt: &SprtConfig, openings: &[String]) -> SprtConfig {
    let mut s = sprt.clone();
    if !openings.is_empty() {
        s.max_pairs = s.max_pairs.min(max_pairs_at_fixed_nodes(openings.len()));
    }
    s
}

/// Checks that `out` may be replaced by a net of `V`: absent, or a net file of `V`.
pub fn check_out<V: Registered>(out: &Path) -> Result<(), String> {
    match std::fs::read(out) {
        Ok(bytes) => Network::<V>::from_bytes(&bytes).map(|_| ()).map_err(|e| {
            PipelineError::NotOurs {
                path: out.to_path_buf(),
                why: format!("is not a {} net file ({e})", V::NAME),
            }
            .to_string()
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("{}: {e}", out.display())),
    }
}

/// Runs every stage for `V` (skipping what the directory says is done), prints the
/// summary and writes `summary.json`.
pub fn run<V: Registered>(cfg: &Config, progress: &Progress) -> Result<(), String> {
    // The output is checked first, so that a run that could not write it plays nothing.
    check_out::<V>(&cfg.out)?;
    // The files of start positions and of the SPRT's openings are read (every line checked)
    // before anything is played or made.
    let mut cfg = cfg.clone();
    if let Some(path) = &cfg.openings {
        cfg.gen.starts = read_openings::<V>(path).map_err(|e| e.to_string())?;
    }
    let cfg = &cfg;
    let (teacher, teacher_name, checksum) = teacher_of::<V>(cfg.teacher.as_deref())?;
    let openings = match (&cfg.sprt_openings, &cfg.sprt) {
        (Some(path), Some(_)) => read_openings::<V>(path).map_err(|e| e.to_string())?,
        _ => Vec::new(),
    };
    let value = params_value::<V>(cfg, checksum, &openings);
    // The source is checked before this run's directory is made: a refused run writes nothing.
    let source = match &cfg.data_from {
        Some(dir) => Some(open_source(dir, &value)?),
        None => None,
    };
    let params = open_params(&cfg.dir, &value).map_err(|e| e.to_string())?;
    progress.line(true, || {
        format!("{}: run directory {}", V::NAME, cfg.dir.display())
    });
    let data = data_stage::<V>(cfg, &params, teacher, source.as_ref(), progress)?;
    let (tr, bytes, trained_now) = train_stage::<V>(cfg, &params, &data.records, progress)?;
    let (sprt_json, verdict, sprt_text) = match &cfg.sprt {
        None => (
            Value::Null,
            Verdict::Skipped,
            "sprt:  skipped (--no-sprt)\n".to_string(),
        ),
        Some(s) => {
            let s = &with_openings(s, &openings);
            let net = Network::<V>::from_bytes(&bytes).map_err(|e| e.to_string())?;
            eval::install(net)?;
            let (st, verdict, llr) = sprt_stage::<V>(cfg, s, &openings, &params, progress)?;
            let p = pentanomial(&st.pairs);
            let points: u64 = st.pairs.iter().map(|&x| u64::from(x)).sum();
            let score = points as f64 / (4 * st.pairs.len()).max(1) as f64;
            let (lower, upper) = sprt_bounds(s.test.alpha, s.test.beta);
            let word = match verdict {
                Verdict::Accepted => "H1 accepted: the net gains",
                Verdict::Rejected => "H0 accepted: the net does not gain",
                _ => "undecided",
            };
            let text = format!(
                "sprt:  the net against the registered evaluation, {} pairs at {} nodes a move{}, \
                 pentanomial {p:?}, score {:.1}% ({:+.1} Elo), LLR {llr:.2} in ({lower:.2}, \
                 {upper:.2}) for elo0 {} elo1 {}: {word}; {}\n",
                st.pairs.len(),
                s.nodes,
                match &cfg.sprt_openings {
                    Some(path) if !openings.is_empty() => format!(
                        " from the {} openings of {} (at most {} pairs)",
                        openings.len(),
                        path.display(),
                        s.max_pairs
                    ),
                    _ => String::new(),
                },
                100.0 * score,
                elo_of_score(score),
                s.test.elo0,
                s.test.elo1,
                duration(st.seconds)
            );
            let json = sprt_json(s, &st.pairs, verdict, llr, st.seconds);
            (json, verdict, text)
        }
    };
    let accept = matches!(verdict, Verdict::Accepted | Verdict::Skipped);
    let out = cfg.out.display();
    let (written, write_text) = if !accept {
        (
            false,
            format!(
                "write: {out} left as it is (the net was not accepted; it is in {})\n",
                cfg.dir.join("net.nnue").display()
            ),
        )
    } else if std::fs::read(&cfg.out).ok().as_deref() == Some(bytes.as_slice()) {
        (false, format!("write: {out} already holds the net\n"))
    } else {
        check_out::<V>(&cfg.out)?;
        write_atomic(&cfg.out, &bytes).map_err(|e| e.to_string())?;
        (true, format!("write: wrote {out}; rebuild to use it\n"))
    };
    let g = &cfg.gen;
    let samples = data.records.len();
    let text = format!(
        "data:  {} games at {} nodes a move, seed {}{}, teacher {teacher_name}, labels: {}, {samples} positions; \
         {} chunks played now, {} found done{}; {}\n\
         train: {} training and {} held-out positions, loss training {:.5} -> {:.5}, held out \
         {:.5} -> {:.5} (epoch {} of {}), teacher's {:.5} / {:.5}; net {} bytes, checksum {}; {}{}\n\
         {sprt_text}{write_text}",
        g.games,
        g.nodes,
        g.seed,
        match &cfg.openings {
            Some(path) => format!(", from the {} lines of {}", g.starts.len(), path.display()),
            None => String::new(),
        },
        crate::label_words(cfg.label),
        data.chunks.0,
        data.chunks.1,
        source.as_ref().map_or(String::new(), |(dir, _)| format!(
            ", {} taken from {}",
            data.chunks.2,
            dir.display()
        )),
        duration(data.seconds),
        tr.samples.0,
        tr.samples.1,
        tr.train_loss.0,
        tr.train_loss.1,
        tr.held_out_loss.0,
        tr.held_out_loss.1,
        tr.epoch,
        tr.epochs,
        tr.teacher_loss.0,
        tr.teacher_loss.1,
        tr.bytes,
        tr.checksum,
        duration(tr.seconds),
        if trained_now { "" } else { " (recorded)" },
    );
    let json = json!({
        "variant": V::NAME,
        "dir": cfg.dir.display().to_string(),
        "data": {
            "games": g.games,
            "nodes": g.nodes,
            "seed": g.seed,
            "teacher": teacher_name,
            "labels": crate::label_words(cfg.label),
            "positions": samples,
            "chunks_played": data.chunks.0,
            "chunks_found": data.chunks.1,
            "chunks_taken": data.chunks.2,
            "seconds": data.seconds,
        },
        "train": {
            "samples": [tr.samples.0, tr.samples.1],
            "train_loss": [tr.train_loss.0, tr.train_loss.1],
            "held_out_loss": [tr.held_out_loss.0, tr.held_out_loss.1],
            "teacher_loss": [tr.teacher_loss.0, tr.teacher_loss.1],
            "epoch": tr.epoch,
            "epochs": tr.epochs,
            "checksum": tr.checksum,
            "bytes": tr.bytes,
            "trained_now": trained_now,
            "seconds": tr.seconds,
        },
        "sprt": sprt_json,
        "write": {
            "out": cfg.out.display().to_string(),
            "accepted": accept,
            "written": written,
        },
        "seconds": progress.elapsed().as_secs_f64(),
    });
    write_atomic(&cfg.dir.join("summary.json"), to_json(&json)).map_err(|e| e.to_string())?;
    progress.finish();
    print!("{text}");
    println!(
        "summary: {} ({:.1} s in this run)",
        cfg.dir.join("summary.json").display(),
        progress.elapsed().as_secs_f64()
    );
    Ok(())
}
