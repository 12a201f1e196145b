//! `kshogi-nnue`: makes, measures and tries a variant's NNUE net (docs/nnue.md).
//!
//! - `kshogi-nnue train --variant V --seed S --games N --nodes N [--teacher NET] --out FILE`:
//!   self-play games with the engine and the linear evaluation (or the net `NET`), training
//!   of the float net on their quiet positions, quantisation, and the net file; the same
//!   options (and teacher file) give the same bytes;
//! - `kshogi-nnue pipeline --variant V --seed S [train's options] [--dir DIR] [--out FILE]`:
//!   `train` and a `match` read as an SPRT in one resumable run, the net written to the
//!   variant's file if the SPRT accepts it ([`pipeline`]);
//! - `kshogi-nnue speed --variant V --net FILE`: nanoseconds per evaluation, the net
//!   against the registered evaluation;
//! - `kshogi-nnue match --variant V --net FILE --games N --nodes N`: a fixed-node match of
//!   the net against the registered evaluation, or against another net file (`--base`).
//!
//! Bad arguments are a usage error (exit 2) naming the argument; a net file that does not
//! read is an error naming the field (exit 1). It must not name a variant: variants come
//! from the registry through `with_variant!`.

mod eval;
mod gen;
mod pipeline;
mod versus;

use eval::NnueEval;
use gen::Label;
use kshogi_core::rng::SplitMix64;
use kshogi_core::{Color, Position};
use kshogi_engine::Evaluator;
use kshogi_match::Sprt;
use kshogi_nnue::train::{self, sigmoid, FloatNet, Sample, TrainConfig};
use kshogi_nnue::{Layout, Network};
use kshogi_registry::{with_variant, Registered, VariantKind};
use kshogi_tune::args::{game_flag, number, value};
use kshogi_tune::data::GenConfig;
use kshogi_tune::openings::{max_pairs_at_fixed_nodes, read_openings};
use kshogi_tune::pipeline::{decide, pentanomial, SprtConfig, Verdict};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use versus::MatchConfig;

const USAGE: &str = "\
Usage: kshogi-nnue train --variant V [OPTIONS] --out FILE
       kshogi-nnue pipeline --variant V [OPTIONS] [PIPELINE OPTIONS]
       kshogi-nnue speed --variant V --net FILE [--positions N]
       kshogi-nnue match --variant V --net FILE [--base NET] [--games N]
                         [--nodes N | --movetime MS]
                         [--seed S | --openings FILE] [--threads N]
                         [--sprt ELO0,ELO1[,ALPHA,BETA]]

train: plays self-play games of V with the engine and its linear evaluation (the registered
one, or a registered net's fallback), trains a net on their quiet positions (target: the
game's result mixed with the evaluation's score)
and writes the net file. The same options give the same bytes, whatever --threads.
  --teacher NET     play and score the games with the net file NET instead of the linear
                    evaluation (a net's next generation from its own games)
  --games N         self-play games (default 400)
  --nodes N         engine nodes per move (default 1000)
  --opening N       random plies at the start of each game (default 8)
  --openings FILE   start game i from line i of FILE (`startpos moves ...` or an SFEN with
                    optional moves, one a line, used again from the top), then play its
                    random plies: positions the engine would not reach from the start
  --max-plies N     plies after which a game is drawn (default 300)
  --seed S          seed of the openings, the starting weights and the order (default 1)
  --threads N       threads for the games and the training (default 1)
  --hidden N        hidden units per perspective, 1 to 128 (default 64)
  --epochs N        passes over the data (default 30)
  --batch N         samples per Adam step (default 1024)
  --rate R          Adam step size (default 0.005)
  --decay D         decoupled weight decay of the transformer's weights (default 0)
  --lambda L        weight of the evaluation's score in the target, 0 to 1 (default 0.5)
  --label leaf|search  the evaluation's score of a position: `leaf` (default) the teacher's
                    static evaluation of the quiet leaf of each position it moves in;
                    `search` the score of the teacher's search (--nodes) of each position
                    it moves in that is quiet itself (no mate scores)
  --out FILE        the net file to write (replaced atomically)
pipeline: train's games, training and net, then the net against the registered evaluation
read as a pentanomial SPRT (match's pairs), in one run that records each stage in DIR: the
same command again resumes where a run stopped; a DIR made with other options is an error.
It takes train's options (--out is optional) and:
  --dir DIR         the run's directory (default target/nnue/<variant>-<seed> in the
                    workspace)
  --out FILE        where an accepted net is written (default the variant's file,
                    crates/tuned-eval/src/weights/<variant>.nnue); an existing FILE is
                    replaced only if it is a net file of the variant
  --chunk N         games per chunk file of DIR (default 500)
  --data-from DIR2  take the chunks DIR lacks from the run DIR2 (copied, DIR2 only read),
                    if its games were played with the same --variant, --seed, --nodes,
                    --opening, --max-plies, --chunk and teacher: train again with other
                    training options, or go on to more --games, without playing again
  --sprt-nodes N    engine nodes per move in the SPRT (default --nodes)
  --sprt-openings FILE  the SPRT's pairs from the openings of FILE (as match --openings)
                    instead of --opening random plies: pair k plays line k, at most one
                    pair a line (so at most as many pairs as lines)
  --sprt-pairs N    most game pairs of the SPRT; undecided then keeps FILE (default 2000)
  --elo0 E --elo1 E the SPRT's hypotheses in Elo (default 0 and 10)
  --alpha P --beta P  its error rates (default 0.05 each)
  --no-sprt         write the net without an SPRT (as train does)
The net file is train's with the same options, byte for byte.
speed: times the net's evaluation (refreshed per call) and the registered one on positions
of random games.
match: the net against the registered evaluation at a fixed node count, pairs of games
from one random opening with colours swapped (defaults: 100 games, 5000 nodes, seed 1);
--movetime MS gives both sides MS milliseconds a move instead (an equal-time match).
--base NET: the opponent plays with the net file NET instead of the registered evaluation
(both nets with the registered evaluation's search switches): two net files compared with
no rebuild. The first line of the output names both nets with their checksums.
--openings FILE plays pair k from line k of FILE (`startpos moves ...` or an SFEN with
optional moves, one a line; blank lines and `#` comments skipped; docs/openings/ has
balanced ones) instead of random plies. At fixed nodes the match ends when every line has
been played with both colours (a repeat would replay the same games); with --movetime the
lines are used again from the top.
--sprt reads the pairs in order as a pentanomial SPRT (the tuning pipeline's) and prints
its verdict at the first pair that decides it, or undecided.
";

#[derive(Clone, Debug)]
enum Command {
    Train {
        gen: GenConfig,
        train: TrainConfig,
        hidden: usize,
        lambda: f32,
        teacher: Option<PathBuf>,
        label: Label,
        openings: Option<PathBuf>,
        out: PathBuf,
    },
    Speed {
        net: PathBuf,
        positions: usize,
    },
    Match {
        net: PathBuf,
        /// The opponent's net file (`--base`); `None`: the registered evaluation.
        base: Option<PathBuf>,
        cfg: MatchConfig,
        openings: Option<PathBuf>,
        sprt: Option<Sprt>,
    },
    Pipeline(Box<PipelineArgs>),
}

/// `pipeline`'s options before the variant is known (its defaults name the variant).
#[derive(Clone, Debug)]
struct PipelineArgs {
    cfg: pipeline::Config,
    dir: Option<PathBuf>,
    out: Option<PathBuf>,
}

/// The options that only `pipeline` takes.
const PIPELINE_ONLY: [&str; 11] = [
    "--dir",
    "--sprt-openings",
    "--data-from",
    "--chunk",
    "--sprt-nodes",
    "--sprt-pairs",
    "--elo0",
    "--elo1",
    "--alpha",
    "--beta",
    "--no-sprt",
];

/// `--sprt ELO0,ELO1[,ALPHA,BETA]` (alpha and beta 0.05 when left out).
fn parse_sprt(v: &str) -> Result<Sprt, String> {
    let parts: Vec<&str> = v.split(',').collect();
    let num = |s: &str| -> Result<f64, String> {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("`--sprt` needs numbers, found `{s}` in `{v}`"))
    };
    let (elo0, elo1, alpha, beta) = match parts.as_slice() {
        [a, b] => (num(a)?, num(b)?, 0.05, 0.05),
        [a, b, c, d] => (num(a)?, num(b)?, num(c)?, num(d)?),
        _ => {
            return Err(format!(
                "`--sprt` takes ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, found `{v}`"
            ))
        }
    };
    if elo1 <= elo0 {
        return Err(format!("`--sprt`: elo1 must be above elo0, found `{v}`"));
    }
    if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
        return Err(format!(
            "`--sprt`: alpha and beta must be between 0 and 0.5, found `{v}`"
        ));
    }
    Ok(Sprt {
        elo0,
        elo1,
        alpha,
        beta,
    })
}

fn parse(args: &[String]) -> Result<Option<(VariantKind, Command)>, String> {
    let mut it = args.iter();
    let Some(sub) = it.next() else {
        return Err("a command is needed: train, pipeline, speed or match".into());
    };
    if sub == "-h" || sub == "--help" {
        return Ok(None);
    }
    let mut variant = None;
    let mut gen = GenConfig {
        games: 400,
        nodes: 1000,
        opening: 8,
        max_plies: 300,
        seed: 1,
        threads: 1,
        starts: Vec::new(),
    };
    let mut tc = TrainConfig {
        epochs: 30,
        batch: 1024,
        learning_rate: 0.005,
        seed: 1,
        threads: 1,
        weight_clamp: 2.0,
        weight_decay: 0.0,
    };
    let (mut hidden, mut lambda) = (64usize, 0.5f32);
    let (mut out, mut net, mut positions) = (None, None, 2000usize);
    let mut games = None;
    let mut nodes = None;
    let mut movetime: Option<u64> = None;
    let mut sprt: Option<Sprt> = None;
    let mut teacher: Option<PathBuf> = None;
    let mut label = Label::Leaf;
    let (mut dir, mut chunk, mut no_sprt) = (None, 500u32, false);
    let mut data_from: Option<PathBuf> = None;
    let mut pipe_sprt = SprtConfig::default();
    let mut sprt_nodes: Option<u64> = None;
    let mut openings: Option<PathBuf> = None;
    let mut base: Option<PathBuf> = None;
    let mut sprt_openings: Option<PathBuf> = None;
    let mut pipeline_only: Option<&str> = None;
    while let Some(flag) = it.next() {
        if game_flag(flag, &mut it, &mut variant, &mut gen)? {
            continue;
        }
        if PIPELINE_ONLY.contains(&flag.as_str()) {
            pipeline_only.get_or_insert(flag.as_str());
        }
        match flag.as_str() {
            "-h" | "--help" => return Ok(None),
            "--games" => games = Some(number(flag, value(flag, &mut it)?)?),
            "--nodes" => nodes = Some(number(flag, value(flag, &mut it)?)?),
            "--hidden" => hidden = number(flag, value(flag, &mut it)?)?,
            "--epochs" => tc.epochs = number(flag, value(flag, &mut it)?)?,
            "--batch" => tc.batch = number(flag, value(flag, &mut it)?)?,
            "--rate" => tc.learning_rate = number(flag, value(flag, &mut it)?)?,
            "--decay" => tc.weight_decay = number(flag, value(flag, &mut it)?)?,
            "--lambda" => lambda = number(flag, value(flag, &mut it)?)?,
            "--out" => out = Some(PathBuf::from(value(flag, &mut it)?)),
            "--net" => net = Some(PathBuf::from(value(flag, &mut it)?)),
            "--teacher" => teacher = Some(PathBuf::from(value(flag, &mut it)?)),
            "--label" => label = Label::parse(value(flag, &mut it)?)?,
            "--base" => base = Some(PathBuf::from(value(flag, &mut it)?)),
            "--movetime" => movetime = Some(number(flag, value(flag, &mut it)?)?),
            "--positions" => positions = number(flag, value(flag, &mut it)?)?,
            "--sprt" => sprt = Some(parse_sprt(value(flag, &mut it)?)?),
            "--dir" => dir = Some(PathBuf::from(value(flag, &mut it)?)),
            "--data-from" => data_from = Some(PathBuf::from(value(flag, &mut it)?)),
            "--chunk" => chunk = number(flag, value(flag, &mut it)?)?,
            "--sprt-nodes" => sprt_nodes = Some(number(flag, value(flag, &mut it)?)?),
            "--sprt-openings" => sprt_openings = Some(PathBuf::from(value(flag, &mut it)?)),
            "--openings" => openings = Some(PathBuf::from(value(flag, &mut it)?)),
            "--sprt-pairs" => pipe_sprt.max_pairs = number(flag, value(flag, &mut it)?)?,
            "--elo0" => pipe_sprt.test.elo0 = number(flag, value(flag, &mut it)?)?,
            "--elo1" => pipe_sprt.test.elo1 = number(flag, value(flag, &mut it)?)?,
            "--alpha" => pipe_sprt.test.alpha = number(flag, value(flag, &mut it)?)?,
            "--beta" => pipe_sprt.test.beta = number(flag, value(flag, &mut it)?)?,
            "--no-sprt" => no_sprt = true,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    let variant = variant.ok_or("`--variant` is required")?;
    if let Some(flag) = pipeline_only.filter(|_| sub != "pipeline") {
        return Err(format!(
            "`{flag}` is an option of `pipeline`, not of `{sub}`"
        ));
    }
    if openings.is_some() && !["match", "train", "pipeline"].contains(&sub.as_str()) {
        return Err(format!(
            "`--openings` is an option of `train`, `pipeline` and `match`, not of `{sub}`"
        ));
    }
    if label != Label::Leaf && !["train", "pipeline"].contains(&sub.as_str()) {
        return Err(format!(
            "`--label` is an option of `train` and `pipeline`, not of `{sub}`"
        ));
    }
    if base.is_some() && sub != "match" {
        return Err(format!("`--base` is an option of `match`, not of `{sub}`"));
    }
    if sprt_openings.is_some() && no_sprt {
        return Err("`--sprt-openings` and `--no-sprt` do not go together".into());
    }
    if !(1..=kshogi_nnue::MAX_HIDDEN).contains(&hidden) {
        return Err(format!("`--hidden` must be from 1 to 128, found {hidden}"));
    }
    if !(0.0..=1.0).contains(&lambda) {
        return Err(format!("`--lambda` must be from 0 to 1, found {lambda}"));
    }
    if tc.batch == 0 || tc.epochs == 0 {
        return Err("`--batch` and `--epochs` must be at least 1".into());
    }
    if !(tc.weight_decay >= 0.0 && tc.weight_decay.is_finite()) {
        return Err("`--decay` must be a number from 0".into());
    }
    if !(tc.learning_rate > 0.0 && tc.learning_rate.is_finite()) {
        return Err("`--rate` must be a positive number".into());
    }
    tc.seed = gen.seed;
    tc.threads = gen.threads.max(1);
    let command = match sub.as_str() {
        "train" => {
            gen.games = games.unwrap_or(gen.games);
            gen.nodes = nodes.unwrap_or(gen.nodes);
            if gen.games == 0 {
                return Err("`--games` must be at least 1".into());
            }
            Command::Train {
                gen,
                train: tc,
                hidden,
                lambda,
                teacher,
                label,
                openings,
                out: out.ok_or("`train` needs `--out FILE`")?,
            }
        }
        "pipeline" => {
            gen.games = games.unwrap_or(gen.games);
            gen.nodes = nodes.unwrap_or(gen.nodes);
            if gen.games == 0 || gen.nodes == 0 {
                return Err("`--games` and `--nodes` must be at least 1".into());
            }
            if chunk == 0 {
                return Err("`--chunk` must be at least 1".into());
            }
            pipe_sprt
                .test
                .validate()
                .map_err(|e| format!("`--elo0`, `--elo1`, `--alpha`, `--beta`: {e}"))?;
            if pipe_sprt.max_pairs == 0 {
                return Err("`--sprt-pairs` must be at least 1".into());
            }
            pipe_sprt.nodes = sprt_nodes.unwrap_or(gen.nodes);
            if pipe_sprt.nodes == 0 {
                return Err("`--sprt-nodes` must be at least 1".into());
            }
            pipe_sprt.opening = gen.opening;
            pipe_sprt.max_plies = gen.max_plies;
            gen.threads = gen.threads.max(1);
            Command::Pipeline(Box::new(PipelineArgs {
                cfg: pipeline::Config {
                    gen,
                    chunk,
                    train: tc,
                    hidden,
                    lambda,
                    teacher,
                    label,
                    sprt: (!no_sprt).then_some(pipe_sprt),
                    sprt_openings,
                    openings,
                    dir: PathBuf::new(),
                    data_from,
                    out: PathBuf::new(),
                },
                dir,
                out,
            }))
        }
        "speed" => Command::Speed {
            net: net.ok_or("`speed` needs `--net FILE`")?,
            positions: positions.max(1),
        },
        "match" => Command::Match {
            net: net.ok_or("`match` needs `--net FILE`")?,
            base,
            cfg: MatchConfig {
                games: games.unwrap_or(100).max(1),
                nodes: nodes.unwrap_or(5000),
                movetime: movetime.map(std::time::Duration::from_millis),
                opening: gen.opening as usize,
                openings: Vec::new(),
                max_plies: gen.max_plies,
                seed: gen.seed,
                threads: gen.threads.max(1),
            },
            openings,
            sprt,
        },
        other => {
            return Err(format!(
                "unknown command `{other}`: train, pipeline, speed or match"
            ))
        }
    };
    Ok(Some((variant, command)))
}

fn load<V: Registered>(path: &Path) -> Result<Network<V>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Network::<V>::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The target for a position's side to move: its result mixed with the evaluation's.
fn target(result_black: f32, side: Color, eval: i32, scale: f32, lambda: f32) -> f32 {
    let r = if side == Color::Black {
        result_black
    } else {
        1.0 - result_black
    };
    (1.0 - lambda) * r + lambda * sigmoid(eval as f32 / scale)
}

/// The net of the file at `path` (read once, checked to be a net of `V`), the file named
/// with its checksum (`PATH (checksum X)`), and the checksum.
fn read_named<V: Registered>(path: &Path) -> Result<(Network<V>, String, u64), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let net = Network::<V>::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let checksum = kshogi_nnue::file::fnv1a(&bytes);
    Ok((
        net,
        format!("{} (checksum {checksum:016x})", path.display()),
        checksum,
    ))
}

/// The teacher of a run: who plays the games, its name for the summary and its file's
/// checksum (`None` for the linear evaluation). The teacher's file is read once, checked
/// to be a net of `V` and installed ([`eval::install_teacher`]).
pub(crate) fn teacher_of<V: Registered>(
    teacher: Option<&Path>,
) -> Result<(gen::Teacher, String, Option<u64>), String> {
    match teacher {
        Some(path) => {
            let (net, file, checksum) = read_named::<V>(path)?;
            eval::install_teacher(net)?;
            Ok((gen::Teacher::Net, format!("the net {file}"), Some(checksum)))
        }
        None => Ok((
            gen::Teacher::Linear,
            "the linear evaluation".to_string(),
            None,
        )),
    }
}

/// What the training of a net gave: the net file and its numbers.
#[derive(Clone, Debug)]
pub(crate) struct Trained {
    /// The quantised net's file.
    pub bytes: Vec<u8>,
    /// Training and held-out samples.
    pub samples: (usize, usize),
    /// Training and held-out loss of the starting net.
    pub before: (f64, f64),
    /// Training and held-out loss of the net kept.
    pub after: (f64, f64),
    /// The teacher's own scores' loss against the targets, training and held out.
    pub teacher_loss: (f64, f64),
    /// The epoch whose net is kept (the lowest held-out loss; 0 for the starting net).
    pub epoch: usize,
    /// Seconds the training took.
    pub seconds: f64,
}

/// Trains the float net on `records` (every tenth game held out, the target mixed by
/// `lambda`), keeps the epoch with the lowest held-out loss and quantises it: the one
/// training of `train` and `pipeline`, so that both give the same bytes.
pub(crate) fn train_net<V: Registered>(
    records: &[gen::Record<V>],
    games: u32,
    seed: u64,
    tc: &TrainConfig,
    hidden: usize,
    lambda: f32,
) -> Result<Trained, String> {
    let scale = V::WDL.scale as f32;
    let layout = Layout::of::<V>();
    let (mut train_set, mut held) = (Vec::new(), Vec::new());
    let (mut base_train, mut base_held) = (0.0f64, 0.0f64);
    for r in records {
        let t = target(r.result, r.pos.side_to_move(), r.eval, scale, lambda);
        let s = Sample::of(&layout, &r.pos, t);
        let base = f64::from(sigmoid(r.eval as f32 / scale) - t).powi(2);
        if r.game % 10 == 0 {
            base_held += base;
            held.push(s);
        } else {
            base_train += base;
            train_set.push(s);
        }
    }
    if train_set.is_empty() || held.is_empty() {
        return Err(format!(
            "{games} games gave {} training and {} held-out positions; play more games",
            train_set.len(),
            held.len()
        ));
    }
    base_train /= train_set.len() as f64;
    base_held /= held.len() as f64;
    let t1 = Instant::now();
    let mut net = FloatNet::new(layout.features(), hidden, seed ^ 0x4E4E_5545);
    let before = (
        net.loss(&train_set, tc.threads),
        net.loss(&held, tc.threads),
    );
    // The net of the epoch with the lowest held-out loss is kept (early stopping).
    let mut best = (before.1, 0usize, net.clone());
    train::train(&mut net, &train_set, tc, &mut |e, l, now| {
        let h = now.loss(&held, tc.threads);
        eprintln!(
            "  epoch {e}/{}: training loss {l:.5}, held out {h:.5}",
            tc.epochs
        );
        if h < best.0 {
            best = (h, e, now.clone());
        }
    });
    let (_, epoch, net) = best;
    let after = (
        net.loss(&train_set, tc.threads),
        net.loss(&held, tc.threads),
    );
    let seconds = t1.elapsed().as_secs_f64();
    let quantised = net
        .quantise::<V>(scale.round().clamp(1.0, 65535.0) as u16)
        .map_err(|e| e.to_string())?;
    Ok(Trained {
        bytes: quantised.to_bytes(),
        samples: (train_set.len(), held.len()),
        before,
        after,
        teacher_loss: (base_train, base_held),
        epoch,
        seconds,
    })
}

/// What the labels of a run are, for its summary.
pub(crate) fn label_words(label: Label) -> &'static str {
    match label {
        Label::Leaf => "the teacher's evaluation of each quiet leaf",
        Label::Search => "the teacher's search score of each quiet position it moved in",
    }
}

/// The line naming the variant's input layout, printed before a training.
fn layout_line<V: Registered>(hidden: usize) -> String {
    let layout = Layout::of::<V>();
    format!(
        "{}: {} features ({} board, {} hand), {hidden} hidden units, scale {} cp",
        V::NAME,
        layout.features(),
        2 * layout.kinds * layout.squares,
        2 * layout.hand_total,
        V::WDL.scale as f32
    )
}

fn run_train<V: Registered>(
    gen: &GenConfig,
    tc: &TrainConfig,
    (hidden, lambda): (usize, f32),
    (teacher, label): (Option<&Path>, Label),
    openings: Option<&Path>,
    out: &Path,
) -> Result<(), String> {
    // The start positions are read (every line checked) before anything is played.
    let mut gen = gen.clone();
    if let Some(file) = openings {
        gen.starts = read_openings::<V>(file).map_err(|e| e.to_string())?;
    }
    let gen = &gen;
    let (teacher_kind, teacher_name, _) = teacher_of::<V>(teacher)?;
    let scale = V::WDL.scale as f32;
    eprintln!("{}", layout_line::<V>(hidden));
    let t0 = Instant::now();
    let step = (gen.games / 10).max(1);
    let records = gen::generate::<V>(gen, teacher_kind, label, &|n| {
        if n % step == 0 || n == gen.games {
            eprintln!("  games {n}/{}", gen.games);
        }
    })?;
    let t_gen = t0.elapsed();
    let t = train_net::<V>(&records, gen.games, gen.seed, tc, hidden, lambda)?;
    // Through a temporary file, so that a failure leaves an earlier file whole.
    kshogi_tune::pipeline::write_atomic(out, &t.bytes).map_err(|e| e.to_string())?;
    println!("variant        {}", V::NAME);
    println!(
        "games          {} at {} nodes, seed {}{}",
        gen.games,
        gen.nodes,
        gen.seed,
        if gen.starts.is_empty() {
            String::new()
        } else {
            format!(", from {} start lines", gen.starts.len())
        }
    );
    println!("teacher        {teacher_name}");
    println!("labels         {}", label_words(label));
    println!(
        "samples        {} training, {} held out (every tenth game)",
        t.samples.0, t.samples.1
    );
    println!(
        "target         {:.2} result + {:.2} sigmoid(eval / {scale})",
        1.0 - lambda,
        lambda
    );
    println!(
        "loss           training {:.5} -> {:.5}, held out {:.5} -> {:.5} (epoch {} of {}, the lowest held out)",
        t.before.0, t.after.0, t.before.1, t.after.1, t.epoch, tc.epochs
    );
    println!(
        "teacher's loss training {:.5}, held out {:.5} (its scores against the same targets)",
        t.teacher_loss.0, t.teacher_loss.1
    );
    println!(
        "time           games {:.1}s, training {:.1}s",
        t_gen.as_secs_f64(),
        t.seconds
    );
    println!(
        "net            {} ({} bytes, checksum {:016x})",
        out.display(),
        t.bytes.len(),
        kshogi_nnue::file::fnv1a(&t.bytes)
    );
    Ok(())
}

/// `count` positions of random games from the start, the same every time (seed 42).
pub(crate) fn random_positions<V: Registered>(count: usize) -> Vec<Position<V>> {
    let mut rng = SplitMix64::new(42);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Position::<V>::start();
        for _ in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() || out.len() >= count {
                break;
            }
            pos = pos.after(moves[rng.below(moves.len())]);
            out.push(pos);
        }
    }
    out
}

fn time_per_eval<V: Registered, E: Evaluator<V>>(positions: &[Position<V>]) -> f64 {
    let reps = (2_000_000 / positions.len()).max(1);
    let t = Instant::now();
    let mut sum = 0i64;
    for _ in 0..reps {
        for p in positions {
            sum = sum.wrapping_add(i64::from(E::evaluate(std::hint::black_box(p))));
        }
    }
    std::hint::black_box(sum);
    t.elapsed().as_nanos() as f64 / (reps * positions.len()) as f64
}

/// Nodes a second of fixed-node searches (`nodes` each, one thread) from each of `roots`
/// with evaluator `E`.
fn search_nps<V: Registered, E: Evaluator<V>>(roots: &[Position<V>], nodes: u64) -> f64 {
    let mut engine = kshogi_engine::Engine::<V, E>::new(16);
    let limits = kshogi_engine::Limits {
        nodes: Some(nodes),
        ..kshogi_engine::Limits::default()
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (mut searched, mut seconds) = (0u64, 0f64);
    for root in roots {
        let game = kshogi_core::Game::new(*root);
        let t = Instant::now();
        let r = engine.search(&game, &limits, 1, &stop, &mut |_| {});
        seconds += t.elapsed().as_secs_f64();
        searched += r.nodes;
    }
    searched as f64 / seconds.max(1e-9)
}

fn run_speed<V: Registered>(path: &Path, positions: usize) -> Result<(), String> {
    let net = load::<V>(path)?;
    eval::install(net)?;
    let net = eval::net::<V>().ok_or("the net did not install")?;
    let pos = random_positions::<V>(positions);
    let linear = time_per_eval::<V, V::Eval>(&pos);
    let nnue = {
        let reps = (2_000_000 / pos.len()).max(1);
        let t = Instant::now();
        let mut sum = 0i64;
        for _ in 0..reps {
            for p in &pos {
                sum = sum.wrapping_add(i64::from(net.evaluate_position(std::hint::black_box(p))));
            }
        }
        std::hint::black_box(sum);
        t.elapsed().as_nanos() as f64 / (reps * pos.len()) as f64
    };
    // The start and four positions of random games (with legal moves), each searched to
    // 250,000 nodes; the three evaluators take turns three times and the best round of
    // each is kept, so that a load on the machine hurts them alike.
    let roots: Vec<Position<V>> = core::iter::once(Position::<V>::start())
        .chain(
            pos.iter()
                .filter(|p| p.outcome().is_none() && !p.legal_moves().is_empty())
                .step_by(7)
                .take(4)
                .copied(),
        )
        .collect();
    let (mut nps_linear, mut nps_stack, mut nps_last) = (0f64, 0f64, 0f64);
    let (mut start_linear, mut start_stack, mut start_last) = (0f64, 0f64, 0f64);
    for _ in 0..3 {
        nps_linear = nps_linear.max(search_nps::<V, V::Eval>(&roots, 250_000));
        nps_stack = nps_stack.max(search_nps::<V, NnueEval>(&roots, 250_000));
        nps_last = nps_last.max(search_nps::<V, eval::LastEval>(&roots, 250_000));
        start_linear = start_linear.max(search_nps::<V, V::Eval>(&roots[..1], 1_000_000));
        start_stack = start_stack.max(search_nps::<V, NnueEval>(&roots[..1], 1_000_000));
        start_last = start_last.max(search_nps::<V, eval::LastEval>(&roots[..1], 1_000_000));
    }
    // The incremental form: from a position's accumulator, update by one of its moves and
    // evaluate (what a search with an accumulator stack would do per node).
    let mut rng = SplitMix64::new(7);
    let cases: Vec<(Position<V>, kshogi_core::Move, kshogi_nnue::Accumulator)> = pos
        .iter()
        .filter_map(|p| {
            let moves = p.legal_moves();
            if moves.is_empty() {
                return None;
            }
            let mut acc = kshogi_nnue::Accumulator::default();
            net.refresh(p, &mut acc);
            Some((*p, moves[rng.below(moves.len())], acc))
        })
        .collect();
    let reps = (2_000_000 / cases.len().max(1)).max(1);
    let t = Instant::now();
    let mut sum = 0i64;
    for _ in 0..reps {
        for (p, mv, acc) in &cases {
            let mut a = *acc;
            net.update(&mut a, std::hint::black_box(p), *mv);
            sum = sum.wrapping_add(i64::from(net.evaluate(&a, !p.side_to_move())));
        }
    }
    std::hint::black_box(sum);
    let incremental = t.elapsed().as_nanos() as f64 / (reps * cases.len().max(1)) as f64;
    println!("variant                 {}", V::NAME);
    println!("positions               {} (random games)", pos.len());
    println!("registered evaluation   {linear:.1} ns");
    println!("net, refreshed          {nnue:.1} ns");
    println!("net, updated by a move  {incremental:.1} ns (copy, update and evaluate)");
    println!(
        "search, {} roots x 250k nodes (best of 3 rounds): {:.0} knodes/s registered, {:.0} knodes/s net with the accumulator stack, {:.0} knodes/s net with the thread's last accumulator",
        roots.len(),
        nps_linear / 1000.0,
        nps_stack / 1000.0,
        nps_last / 1000.0
    );
    println!(
        "search, the start x 1M nodes (best of 3 rounds): {:.0} knodes/s registered, {:.0} knodes/s net with the accumulator stack, {:.0} knodes/s net with the thread's last accumulator",
        start_linear / 1000.0,
        start_stack / 1000.0,
        start_last / 1000.0
    );
    Ok(())
}

fn run_match<V: Registered>(
    path: &Path,
    base: Option<&Path>,
    cfg: &MatchConfig,
    openings: Option<&Path>,
    sprt: Option<Sprt>,
) -> Result<(), String> {
    let mut cfg = cfg.clone();
    if let Some(file) = openings {
        cfg.openings = read_openings::<V>(file).map_err(|e| e.to_string())?;
        let most = max_pairs_at_fixed_nodes(cfg.openings.len()).saturating_mul(2);
        if cfg.movetime.is_none() && cfg.games > most {
            eprintln!(
                "{}: {} openings, so {most} games, not {}: at fixed nodes a repeated opening \
                 replays its games",
                file.display(),
                cfg.openings.len(),
                cfg.games
            );
            cfg.games = most;
        }
    }
    let cfg = &cfg;
    let (net, name, _) = read_named::<V>(path)?;
    eval::install(net)?;
    // The opponent's net goes to the teacher's slot, which a match does not otherwise use.
    let opponent = match base {
        Some(_) => teacher_of::<V>(base)?.1,
        None => "registered evaluation".to_string(),
    };
    println!("net: {name}; opponent: {opponent}");
    let t = Instant::now();
    let step = (cfg.games / 10).max(1);
    let progress = |n: u32| {
        if n % step == 0 {
            eprintln!("  games {n}");
        }
    };
    let (tally, results) = match base {
        Some(_) => versus::play_against::<V, eval::TeacherEval>(cfg, &progress),
        None => versus::play::<V>(cfg, &progress),
    };
    let limit = match cfg.movetime {
        Some(t) => format!("{} ms", t.as_millis()),
        None => format!("{} nodes", cfg.nodes),
    };
    println!(
        "{}: net vs {}, {limit} a move, {} games: +{} ={} -{}, score {:.1}% ({:+.0} Elo), {:.0}s",
        V::NAME,
        if base.is_some() {
            "base net"
        } else {
            "registered evaluation"
        },
        tally.wins + tally.draws + tally.losses,
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * tally.score(),
        tally.elo(),
        t.elapsed().as_secs_f64()
    );
    if let Some(test) = sprt {
        // The SPRT read over the pairs in order, stopping at the first that decides it:
        // what a sequential test over the same games would have concluded.
        let pairs = versus::pairs(&results);
        let cfg = SprtConfig {
            test,
            max_pairs: pairs.len() as u32,
            ..SprtConfig::default()
        };
        let mut used = pairs.len();
        for n in 1..=pairs.len() {
            if decide(&cfg, &pairs[..n]).0 != Verdict::Running {
                used = n;
                break;
            }
        }
        let (verdict, llr) = decide(&cfg, &pairs[..used]);
        let (lower, upper) = kshogi_match::stats::sprt_bounds(test.alpha, test.beta);
        let verdict = match verdict {
            Verdict::Accepted => "H1 accepted: the net gains",
            Verdict::Rejected => "H0 accepted: the net does not gain",
            _ => "undecided",
        };
        println!(
            "SPRT elo0 {} elo1 {} alpha {} beta {}: {verdict} after {used} of {} pairs (pentanomial {:?}), LLR {llr:.2} in ({lower:.2}, {upper:.2})",
            test.elo0,
            test.elo1,
            test.alpha,
            test.beta,
            pairs.len(),
            pentanomial(&pairs[..used]),
        );
        if used < pairs.len() {
            // The whole match as well: in these variants most pairs split (each side wins
            // the opening's better colour), and a first run of split pairs has almost no
            // variance, which can end the sequential read early.
            let (_, llr) = decide(&cfg, &pairs);
            println!(
                "all {} pairs: pentanomial {:?}, LLR {llr:.2}",
                pairs.len(),
                pentanomial(&pairs),
            );
        }
    }
    Ok(())
}

/// The workspace this program was built in (the default directory and net files are
/// there).
fn workspace() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .nth(2)
        .unwrap_or(manifest)
        .to_path_buf()
}

/// `pipeline`, with the defaults that name the variant.
fn run_pipeline<V: Registered>(p: &PipelineArgs) -> Result<(), String> {
    let root = workspace();
    let mut cfg = p.cfg.clone();
    cfg.dir = p.dir.clone().unwrap_or_else(|| {
        root.join("target/nnue")
            .join(format!("{}-{}", V::NAME, cfg.gen.seed))
    });
    cfg.out = p.out.clone().unwrap_or_else(|| {
        root.join("crates/tuned-eval/src/weights")
            .join(format!("{}.nnue", V::NAME))
    });
    let progress = kshogi_tune::pipeline::progress("kshogi-nnue", false);
    let result = pipeline::run::<V>(&cfg, &progress);
    // An error below the last bar.
    progress.finish();
    result
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (kind, command) = match parse(&args) {
        Ok(Some(x)) => x,
        Ok(None) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let result = with_variant!(kind, V => match &command {
        Command::Train { gen, train, hidden, lambda, teacher, label, openings, out } => run_train::<V>(
            gen,
            train,
            (*hidden, *lambda),
            (teacher.as_deref(), *label),
            openings.as_deref(),
            out,
        ),
        Command::Speed { net, positions } => run_speed::<V>(net, *positions),
        Command::Match {
            net,
            base,
            cfg,
            openings,
            sprt,
        } => run_match::<V>(net, base.as_deref(), cfg, openings.as_deref(), *sprt),
        Command::Pipeline(p) => run_pipeline::<V>(p),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod sprt_tests {
    use super::parse_sprt;

    #[test]
    fn sprt_options_are_read_and_checked() {
        let s = parse_sprt("0,10").expect("two numbers");
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 10.0, 0.05, 0.05));
        let s = parse_sprt("-5,5,0.1,0.2").expect("four numbers");
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-5.0, 5.0, 0.1, 0.2));
        for bad in ["10", "10,0", "0,x", "0,10,0.6,0.05", "0,10,0.05"] {
            let e = parse_sprt(bad).expect_err(bad);
            assert!(e.contains("--sprt"), "{e}");
        }
    }
}
