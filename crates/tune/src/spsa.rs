//! SPSA tuning of the search's numeric parameters (`kshogi-tune spsa`, docs/tuning.md).
//!
//! Simultaneous perturbation stochastic approximation: at iteration `k` every chosen
//! parameter `θᵢ` is moved by `±cₖ·stepᵢ` (the signs `Δᵢ` drawn at random, Rademacher), the
//! set `θ + cₖΔ` plays game pairs against `θ − cₖΔ` in process (each pair one opening, random
//! or the next of a file, played twice, each set Black once, both the variant's registered
//! engine at a fixed
//! number of nodes a move, [`crate::pipeline::play_game`]), and with `r` the first set's
//! points minus the second's (a win 1, a draw ½, over the iteration's games),
//!
//! ```text
//! θᵢ ← clamp(θᵢ + stepᵢ · aₖ · r · Δᵢ / (2 cₖ))
//! aₖ = a / (A + k + 1)^0.602        cₖ = c / (k + 1)^0.101
//! ```
//!
//! the usual gains (Spall's exponents). Everything is counted in each parameter's SPSA step
//! ([`kshogi_engine::SearchTuning::TABLE`]), so one `a` and one `c` serve parameters of any
//! scale: `c` = 1 perturbs by one step at first; `A` is a tenth of the planned iterations
//! and `a` is chosen so that `a₀ = a / (A + 1)^0.602` is [`DEFAULT_A0`] (a decisive game at
//! the first iteration moves each parameter a tenth of a step), unless given.
//!
//! The perturbation and the openings of iteration `k` come from the seed and `k` alone, so
//! a run is deterministic and the same on any number of threads. The state (the options
//! that decide the result, `θ`, every iteration's result) is written to the state file
//! after every iteration, through a temporary file and a rename: a stopped run loses at
//! most the iteration being played, and the same command resumes it to the same `θ` as a
//! run never stopped.

use crate::data::stream_rng;
use crate::openings::{read_openings, OpeningsError};
use crate::pipeline::{duration, play_batch, play_game, Progress};
use kshogi_core::{Color, Game, Position};
use kshogi_engine::selfplay::PlayConfig;
use kshogi_engine::{Engine, Evaluator, SearchTuning, TuningError};
use kshogi_registry::Registered;
use serde::{Deserialize, Serialize};
use std::cell::Cell;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The first gain `a₀` when `a` is not given: a decisive game moves a parameter a tenth of
/// its step at the first iteration (with `c` = 1).
pub const DEFAULT_A0: f64 = 0.2;
/// Exponent of the step gain `aₖ` (Spall).
pub const ALPHA: f64 = 0.602;
/// Exponent of the perturbation `cₖ` (Spall).
pub const GAMMA: f64 = 0.101;
/// The seed of the perturbations, apart from the openings'.
const DELTA_STREAM: u64 = 0x5350_5341_0000_0001;
/// The seed of the openings.
const OPENING_STREAM: u64 = 0x5350_5341_0000_0002;

/// A number of the state file written as the shortest decimal that reads back to the same
/// `f64` (a JSON number read back may differ in its last bit, and a resumed run must go on
/// from exactly the numbers it stopped with).
mod exact {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&x.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// [`exact`] for a list.
mod exact_vec {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(xs: &[f64], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(xs.iter().map(|x| x.to_string()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|x| x.parse().map_err(serde::de::Error::custom))
            .collect()
    }
}

/// One tuned parameter: its name and range, and the step that is its unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Param {
    /// The name (a field of [`SearchTuning`] for the search).
    pub name: String,
    /// The smallest value.
    pub min: i32,
    /// The largest value.
    pub max: i32,
    /// The unit of the perturbation and of the update.
    pub step: i32,
}

/// The gains.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gains {
    /// `a` of `aₖ = a / (A + k + 1)^0.602`.
    #[serde(with = "exact")]
    pub a: f64,
    /// `c` of `cₖ = c / (k + 1)^0.101`, in steps.
    #[serde(with = "exact")]
    pub c: f64,
    /// `A`, the stability constant.
    #[serde(with = "exact")]
    pub big_a: f64,
}

impl Gains {
    /// The defaults for a run of `iterations`: `c` = 1, `A` a tenth of the iterations, `a`
    /// such that `a₀` is [`DEFAULT_A0`].
    pub fn for_iterations(iterations: u32) -> Gains {
        let big_a = (f64::from(iterations) / 10.0).round();
        Gains {
            a: DEFAULT_A0 * (big_a + 1.0).powf(ALPHA),
            c: 1.0,
            big_a,
        }
    }

    /// `aₖ`.
    pub fn a_k(&self, k: u32) -> f64 {
        self.a / (self.big_a + f64::from(k) + 1.0).powf(ALPHA)
    }

    /// `cₖ` (steps).
    pub fn c_k(&self, k: u32) -> f64 {
        self.c / (f64::from(k) + 1.0).powf(GAMMA)
    }
}

/// The two sets one iteration plays.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// The iteration.
    pub k: u32,
    /// The signs, +1 or -1 for each parameter.
    pub delta: Vec<i8>,
    /// `θ + cₖΔ`, rounded and within range.
    pub plus: Vec<i32>,
    /// `θ − cₖΔ`, rounded and within range.
    pub minus: Vec<i32>,
}

/// What the state file holds: the options that decide the result, and the run so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaState {
    /// The variant's name.
    pub variant: String,
    /// The tuned parameters.
    pub params: Vec<Param>,
    /// Their values at the start.
    pub start: Vec<i32>,
    /// The gains.
    pub gains: Gains,
    /// The seed of the perturbations and openings.
    pub seed: u64,
    /// Engine nodes per move.
    pub nodes: u64,
    /// Game pairs per iteration.
    pub pairs: u32,
    /// Random plies at the start of each pair's opening.
    pub opening: u32,
    /// The openings of the file `--openings` (`startpos moves ...` lines, in order), or
    /// none: random openings. Pair `j` of iteration `k` plays line `k * pairs + j`, from
    /// the top again after the last.
    #[serde(default)]
    pub openings: Vec<String>,
    /// Plies after which a game is a draw.
    pub max_plies: usize,
    /// Transposition table of each engine, MiB.
    pub hash_mb: usize,
    /// `θ` after the iterations done.
    #[serde(with = "exact_vec")]
    pub theta: Vec<f64>,
    /// Each finished iteration's `r`, in half points (the plus set's half points minus the
    /// minus set's).
    pub results: Vec<i32>,
    /// Seconds the iterations took.
    pub seconds: f64,
}

/// Why an SPSA run cannot go on.
#[derive(Debug)]
pub enum SpsaError {
    /// The state file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        error: std::io::Error,
    },
    /// The state file is not one this tuner wrote.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The state file was made with other options.
    Mismatch {
        /// The file.
        path: PathBuf,
        /// Each option that differs: name, value in the file, value now.
        fields: Vec<(String, String, String)>,
    },
    /// A parameter is unknown or its value out of range.
    Param(TuningError),
    /// A parameter is named twice.
    Duplicate {
        /// The parameter.
        name: String,
    },
    /// No parameter to tune.
    NoParams,
    /// The openings file cannot be used.
    Openings(OpeningsError),
}

impl fmt::Display for SpsaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpsaError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            SpsaError::Corrupt { path, why } => write!(
                f,
                "{}: {why}; it is not a state file of kshogi-tune spsa",
                path.display()
            ),
            SpsaError::Mismatch { path, fields } => {
                write!(
                    f,
                    "{} was made with other options:{} run with the same options to \
                     resume it, or choose another --state",
                    path.display(),
                    crate::pipeline::differences_text(fields)
                )
            }
            SpsaError::Param(e) => write!(f, "{e}"),
            SpsaError::Duplicate { name } => write!(f, "parameter `{name}` is named twice"),
            SpsaError::NoParams => write!(f, "no parameter to tune"),
            SpsaError::Openings(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SpsaError {}

impl From<TuningError> for SpsaError {
    fn from(e: TuningError) -> Self {
        SpsaError::Param(e)
    }
}

/// The options of a run (what is not in them, `--threads`, changes no result).
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaConfig {
    /// The parameters to tune, by name ([`SearchTuning::TABLE`]).
    pub params: Vec<String>,
    /// Iterations in all (a resumed run plays those that are missing).
    pub iterations: u32,
    /// Game pairs per iteration.
    pub pairs: u32,
    /// Engine nodes per move.
    pub nodes: u64,
    /// Seed.
    pub seed: u64,
    /// Random plies at the start of each pair (0 with `openings`).
    pub opening: u32,
    /// A file of openings, one `startpos moves ...` (or SFEN) line each, `#` comments and
    /// blank lines skipped: the pairs' openings instead of random ones.
    pub openings: Option<PathBuf>,
    /// Plies after which a game is a draw.
    pub max_plies: usize,
    /// Transposition table of each engine, MiB.
    pub hash_mb: usize,
    /// `a`, `c`, `A` if given; a new run takes the rest from
    /// [`Gains::for_iterations`], a resumed one from its state.
    pub a: Option<f64>,
    /// See `a`.
    pub c: Option<f64>,
    /// See `a`.
    pub big_a: Option<f64>,
    /// Games played at once.
    pub threads: usize,
    /// The state file.
    pub state: PathBuf,
}

impl SpsaState {
    /// A new run of `cfg` from `start` (the variant's values), before any iteration.
    pub fn new(
        variant: &str,
        cfg: &SpsaConfig,
        start: &SearchTuning,
    ) -> Result<SpsaState, SpsaError> {
        if cfg.params.is_empty() {
            return Err(SpsaError::NoParams);
        }
        let mut params = Vec::new();
        let mut values = Vec::new();
        for name in &cfg.params {
            if params.iter().any(|p: &Param| &p.name == name) {
                return Err(SpsaError::Duplicate { name: name.clone() });
            }
            let spec = SearchTuning::spec(name)?;
            params.push(Param {
                name: spec.name.to_string(),
                min: spec.min,
                max: spec.max,
                step: spec.step,
            });
            values.push(start.get(name).unwrap_or(spec.default));
        }
        let mut gains = Gains::for_iterations(cfg.iterations);
        gains.c = cfg.c.unwrap_or(gains.c);
        gains.big_a = cfg.big_a.unwrap_or(gains.big_a);
        gains.a = cfg
            .a
            .unwrap_or(DEFAULT_A0 * (gains.big_a + 1.0).powf(ALPHA));
        Ok(SpsaState {
            variant: variant.to_string(),
            params,
            theta: values.iter().map(|&v| f64::from(v)).collect(),
            start: values,
            gains,
            seed: cfg.seed,
            nodes: cfg.nodes,
            pairs: cfg.pairs,
            opening: cfg.opening,
            openings: Vec::new(),
            max_plies: cfg.max_plies,
            hash_mb: cfg.hash_mb,
            results: Vec::new(),
            seconds: 0.0,
        })
    }

    /// Iterations done.
    pub fn done(&self) -> u32 {
        self.results.len() as u32
    }

    /// `θ` rounded to the parameters' integers.
    pub fn values(&self) -> Vec<i32> {
        self.theta
            .iter()
            .zip(&self.params)
            .map(|(&t, p)| (t.round() as i32).clamp(p.min, p.max))
            .collect()
    }

    /// The sets of the next iteration (number [`SpsaState::done`]).
    pub fn perturbation(&self) -> Perturbation {
        let k = self.done();
        let mut rng = stream_rng(self.seed ^ DELTA_STREAM, u64::from(k));
        let c_k = self.gains.c_k(k);
        let mut p = Perturbation {
            k,
            delta: Vec::new(),
            plus: Vec::new(),
            minus: Vec::new(),
        };
        for (param, &t) in self.params.iter().zip(&self.theta) {
            let d: i8 = if rng.next_u64() & 1 == 0 { 1 } else { -1 };
            let shift = c_k * f64::from(param.step) * f64::from(d);
            let at = |x: f64| (x.round() as i32).clamp(param.min, param.max);
            p.delta.push(d);
            p.plus.push(at(t + shift));
            p.minus.push(at(t - shift));
        }
        p
    }

    /// The update of iteration `p.k` with its result `r` (half points, the plus set's minus
    /// the minus set's): `θᵢ += stepᵢ · aₖ · (r/2) · Δᵢ / (2 cₖ)`, within range.
    pub fn update(&mut self, p: &Perturbation, r: i32) {
        debug_assert_eq!(p.k, self.done());
        let a_k = self.gains.a_k(p.k);
        let c_k = self.gains.c_k(p.k);
        let games_diff = f64::from(r) / 2.0;
        for ((t, param), &d) in self.theta.iter_mut().zip(&self.params).zip(&p.delta) {
            let g = games_diff * f64::from(d) / (2.0 * c_k);
            *t = (*t + f64::from(param.step) * a_k * g)
                .clamp(f64::from(param.min), f64::from(param.max));
        }
        self.results.push(r);
    }

    /// `base` with the tuned parameters set to `values`.
    pub fn tuning_of(
        &self,
        base: &SearchTuning,
        values: &[i32],
    ) -> Result<SearchTuning, TuningError> {
        let mut t = *base;
        for (p, &v) in self.params.iter().zip(values) {
            t = t.with(&p.name, v)?;
        }
        Ok(t)
    }

    /// The options of the file that a resumed run must keep: name, value.
    fn identity(&self) -> Vec<(String, String)> {
        let names: Vec<&str> = self.params.iter().map(|p| p.name.as_str()).collect();
        vec![
            ("variant".into(), self.variant.clone()),
            ("params".into(), names.join(",")),
            ("start".into(), format!("{:?}", self.start)),
            ("seed".into(), self.seed.to_string()),
            ("nodes".into(), self.nodes.to_string()),
            ("pairs".into(), self.pairs.to_string()),
            ("opening".into(), self.opening.to_string()),
            (
                "openings".into(),
                format!(
                    "({} lines, digest {})",
                    self.openings.len(),
                    crate::pipeline::digest(&self.openings.join("\n"))
                ),
            ),
            ("max-plies".into(), self.max_plies.to_string()),
            ("hash".into(), self.hash_mb.to_string()),
        ]
    }

    /// The differences between this state's options and those of `cfg` (the gains only
    /// where `cfg` gives them) and `fresh`, the state `cfg` would start.
    fn mismatches(&self, cfg: &SpsaConfig, fresh: &SpsaState) -> Vec<(String, String, String)> {
        let mut out: Vec<(String, String, String)> = self
            .identity()
            .into_iter()
            .zip(fresh.identity())
            .filter(|((_, a), (_, b))| a != b)
            .map(|((n, a), (_, b))| (format!("--{n}"), a, b))
            .collect();
        for (name, given, have) in [
            ("--a", cfg.a, self.gains.a),
            ("--c", cfg.c, self.gains.c),
            ("--stability", cfg.big_a, self.gains.big_a),
        ] {
            if let Some(g) = given {
                if g != have {
                    out.push((name.into(), have.to_string(), g.to_string()));
                }
            }
        }
        out
    }
}

/// Runs the iterations that `state` lacks up to `iterations`, each one's result from
/// `measure` (the perturbation and its iteration's pairs; returns `r` in half points),
/// calling `after` with the state after each. The SPSA loop, without games or files.
pub fn iterate(
    state: &mut SpsaState,
    iterations: u32,
    measure: &mut dyn FnMut(&Perturbation) -> Result<i32, SpsaError>,
    after: &mut dyn FnMut(&mut SpsaState) -> Result<(), SpsaError>,
) -> Result<(), SpsaError> {
    while state.done() < iterations {
        let p = state.perturbation();
        let r = measure(&p)?;
        state.update(&p, r);
        after(state)?;
    }
    Ok(())
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> SpsaError + '_ {
    move |error| SpsaError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Reads the state file, `None` when there is none.
pub fn load(path: &Path) -> Result<Option<SpsaState>, SpsaError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(path)(e)),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| SpsaError::Corrupt {
            path: path.to_path_buf(),
            why: e.to_string(),
        })
}

/// Writes the state file through a temporary file and a rename.
pub fn save(path: &Path, state: &SpsaState) -> Result<(), SpsaError> {
    if let Some(parent) = path.parent() {
        if !parent.as_os_str().is_empty() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
    }
    let text = serde_json::to_string_pretty(state).unwrap_or_default() + "\n";
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text).map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))
}

/// The state of `cfg`'s run for `V`: the file's, if it was made with the same options, or a
/// new one from the registered evaluator's values.
pub fn open<V: Registered>(cfg: &SpsaConfig) -> Result<SpsaState, SpsaError> {
    let mut fresh = SpsaState::new(V::NAME, cfg, &<V::Eval as Evaluator<V>>::SEARCH.tuning)?;
    if let Some(path) = &cfg.openings {
        fresh.openings = read_openings::<V>(path).map_err(SpsaError::Openings)?;
    }
    match load(&cfg.state)? {
        None => Ok(fresh),
        Some(s) => {
            let fields = s.mismatches(cfg, &fresh);
            if !fields.is_empty() {
                return Err(SpsaError::Mismatch {
                    path: cfg.state.clone(),
                    fields,
                });
            }
            if s.theta.len() != s.params.len() {
                return Err(SpsaError::Corrupt {
                    path: cfg.state.clone(),
                    why: "as many values as parameters expected".into(),
                });
            }
            Ok(s)
        }
    }
}

/// Plays iteration `p`'s pairs for `V` on `threads` threads: pair `j` is the opening of
/// number `p.k * pairs + j` played twice, the plus set Black in the first game. Returns the
/// plus set's half points minus the minus set's.
pub fn play_iteration<V: Registered>(
    state: &SpsaState,
    p: &Perturbation,
    threads: usize,
) -> Result<i32, TuningError> {
    let base = <V::Eval as Evaluator<V>>::SEARCH.tuning;
    let plus = state.tuning_of(&base, &p.plus)?;
    let minus = state.tuning_of(&base, &p.minus)?;
    let games = 2 * state.pairs;
    let play = PlayConfig {
        random_opening: state.opening as usize,
        max_plies: state.max_plies,
    };
    let points = play_batch(threads, 0, games, |next, done| {
        let mut a = Engine::<V, V::Eval>::new(state.hash_mb);
        let mut b = Engine::<V, V::Eval>::new(state.hash_mb);
        // Both are in range: `tuning_of` checked them.
        let _ = a.set_tuning(plus);
        let _ = b.set_tuning(minus);
        while let Some(g) = next() {
            let opening = u64::from(p.k) * u64::from(state.pairs) + u64::from(g / 2);
            let mut rng = stream_rng(state.seed ^ OPENING_STREAM, opening);
            let start = if state.openings.is_empty() {
                Game::new(Position::<V>::start())
            } else {
                let n = state.openings.len() as u64;
                // Every line was read as a position of `V` when the run began.
                kshogi_notation::parse_game::<V>(&state.openings[(opening % n) as usize])
                    .unwrap_or_else(|_| Game::new(Position::<V>::start()))
            };
            let color = if g % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let points = play_game(&mut a, &mut b, start, color, state.nodes, play, &mut rng);
            done(g, i32::from(points));
        }
    });
    // The plus set's half points minus the minus set's: 2 - 2 * ... per game.
    Ok(points.iter().map(|&x| 2 * x - 2).sum())
}

/// The run of `cfg` for `V`: opens (or resumes) the state file, plays the missing
/// iterations, writing the state after each, and returns the final state.
pub fn run<V: Registered>(cfg: &SpsaConfig, progress: &Progress) -> Result<SpsaState, SpsaError> {
    let mut state = open::<V>(cfg)?;
    // What the games need of the state does not change from one iteration to the next.
    let setup = state.clone();
    let first = state.done();
    let started = Instant::now();
    let seconds = Cell::new(0.0);
    let last_r = Cell::new(0);
    let mut measure = |p: &Perturbation| {
        let t = Instant::now();
        let r = play_iteration::<V>(&setup, p, cfg.threads)?;
        seconds.set(t.elapsed().as_secs_f64());
        last_r.set(r);
        Ok(r)
    };
    let mut after = |state: &mut SpsaState| -> Result<(), SpsaError> {
        state.seconds += seconds.get();
        save(&cfg.state, state)?;
        let done = state.done() - first;
        progress.line(state.done() == cfg.iterations, || {
            let each = started.elapsed().as_secs_f64() / f64::from(done.max(1));
            format!(
                "spsa: iteration {}/{}, r {:+}, theta {}, {:.1} s an iteration, {} left",
                state.done(),
                cfg.iterations,
                f64::from(last_r.get()) / 2.0,
                theta_text(state),
                each,
                duration(each * f64::from(cfg.iterations - state.done()))
            )
        });
        Ok(())
    };
    iterate(&mut state, cfg.iterations, &mut measure, &mut after)?;
    Ok(state)
}

/// `name=value` for each parameter, `θ` to one decimal.
pub fn theta_text(state: &SpsaState) -> String {
    state
        .params
        .iter()
        .zip(&state.theta)
        .map(|(p, t)| format!("{}={:.1}", p.name, t))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The summary of a run: each parameter from its start to `θ`, the results, and the values
/// to paste into the variant's search parameters.
pub fn summary(state: &SpsaState) -> String {
    let mut out = String::new();
    let wins = state.results.iter().filter(|&&r| r > 0).count();
    let losses = state.results.iter().filter(|&&r| r < 0).count();
    out.push_str(&format!(
        "spsa: {} after {} iterations of {} pair(s) at {} nodes a move, seed {} ({}): \
         the plus set ahead in {}, behind in {}, level in {}\n",
        state.variant,
        state.done(),
        state.pairs,
        state.nodes,
        state.seed,
        duration(state.seconds),
        wins,
        losses,
        state.results.len() - wins - losses,
    ));
    out.push_str("parameter              start      theta  value\n");
    for ((p, &s), (&t, v)) in state
        .params
        .iter()
        .zip(&state.start)
        .zip(state.theta.iter().zip(state.values()))
    {
        out.push_str(&format!("{:<20} {:>7} {:>10.2} {:>6}\n", p.name, s, t, v));
    }
    out.push_str("the values, for the variant's `SearchParams { tuning: SearchTuning { .. } }`:\n");
    for (p, v) in state.params.iter().zip(state.values()) {
        out.push_str(&format!("    {}: {},\n", p.name, v));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_registry::types::Kyoto;

    /// A state over `n` synthetic parameters, each in -100..=100 with step 1, from 0.
    fn synthetic(n: usize, iterations: u32, seed: u64) -> SpsaState {
        SpsaState {
            variant: "synthetic".into(),
            params: (0..n)
                .map(|i| Param {
                    name: format!("p{i}"),
                    min: -100,
                    max: 100,
                    step: 1,
                })
                .collect(),
            start: vec![0; n],
            gains: Gains::for_iterations(iterations),
            seed,
            nodes: 0,
            pairs: 1,
            opening: 0,
            openings: Vec::new(),
            max_plies: 0,
            hash_mb: 0,
            theta: vec![0.0; n],
            results: Vec::new(),
            seconds: 0.0,
        }
    }

    /// A noisy match between two sets on the objective `-0.01 Σ (x - opt)²`: two games,
    /// each won by the plus set with probability `sigmoid(f(plus) - f(minus))`, drawn
    /// from the seed and the iteration (so a resumed run sees the same games).
    fn quadratic(
        opt: &[f64],
        seed: u64,
    ) -> impl FnMut(&Perturbation) -> Result<i32, SpsaError> + '_ {
        move |p: &Perturbation| {
            let f = |x: &[i32]| -> f64 {
                -0.01
                    * x.iter()
                        .zip(opt)
                        .map(|(&v, o)| (f64::from(v) - o).powi(2))
                        .sum::<f64>()
            };
            let win = 1.0 / (1.0 + (f(&p.minus) - f(&p.plus)).exp());
            let mut rng = stream_rng(seed, u64::from(p.k));
            let mut r = 0;
            for _ in 0..2 {
                let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                r += if u < win { 2 } else { -2 };
            }
            Ok(r)
        }
    }

    fn distance(theta: &[f64], opt: &[f64]) -> f64 {
        theta
            .iter()
            .zip(opt)
            .map(|(t, o)| (t - o).powi(2))
            .sum::<f64>()
            .sqrt()
    }

    #[test]
    fn the_gains_follow_the_formulas() {
        let g = Gains::for_iterations(200);
        assert_eq!(g.big_a, 20.0);
        assert_eq!(g.c, 1.0);
        assert!((g.a_k(0) - DEFAULT_A0).abs() < 1e-12);
        assert!((g.a_k(10) - g.a / 31f64.powf(0.602)).abs() < 1e-12);
        assert!((g.c_k(9) - 1.0 / 10f64.powf(0.101)).abs() < 1e-12);
        assert!(g.a_k(100) < g.a_k(10) && g.c_k(100) < g.c_k(10));
    }

    #[test]
    fn the_update_moves_toward_the_winner_and_stays_in_range() {
        let mut s = synthetic(2, 100, 3);
        let p = s.perturbation();
        assert_eq!(p.plus.len(), 2);
        for i in 0..2 {
            assert_eq!(p.plus[i] - p.minus[i], 2 * i32::from(p.delta[i]));
        }
        // The plus set won both games: each parameter moves toward its plus value by
        // a_0 * 2 / (2 c_0) steps.
        s.update(&p, 4);
        for i in 0..2 {
            let want = f64::from(p.delta[i]) * s.gains.a_k(0) * 2.0 / 2.0;
            assert!((s.theta[i] - want).abs() < 1e-12, "{} {want}", s.theta[i]);
        }
        s.theta = vec![100.0, -100.0];
        let p = s.perturbation();
        assert!(p
            .plus
            .iter()
            .chain(&p.minus)
            .all(|v| (-100..=100).contains(v)));
        s.update(&p, 4);
        s.update(&s.perturbation(), -4);
        assert!(s.theta.iter().all(|t| (-100.0..=100.0).contains(t)));
    }

    #[test]
    fn converges_toward_the_optimum_of_a_noisy_quadratic() {
        let opt = [20.0, -15.0, 8.0];
        for seed in [1, 2, 3] {
            let mut s = synthetic(3, 2000, seed);
            let before = distance(&s.theta, &opt);
            iterate(&mut s, 2000, &mut quadratic(&opt, seed), &mut |_| Ok(())).unwrap();
            let after = distance(&s.theta, &opt);
            assert!(
                after < 5.0 && after < before / 4.0,
                "seed {seed}: {before:.1} -> {after:.1}, theta {:?}",
                s.theta
            );
        }
        // And it does not drift where nothing matters: a flat objective leaves θ near the
        // start (the results are pure noise).
        let mut s = synthetic(3, 2000, 9);
        let mut coin = |p: &Perturbation| {
            let mut rng = stream_rng(99, u64::from(p.k));
            Ok(if rng.next_u64() & 1 == 0 { 2 } else { -2 })
        };
        iterate(&mut s, 2000, &mut coin, &mut |_| Ok(())).unwrap();
        assert!(distance(&s.theta, &[0.0; 3]) < 10.0, "{:?}", s.theta);
    }

    fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("kshogi-spsa-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_resumed_run_ends_where_an_uninterrupted_one_does() {
        let opt = [20.0, -15.0, 8.0];
        let dir = temp("resume");
        let path = dir.join("state.json");
        let mut whole = synthetic(3, 300, 5);
        iterate(&mut whole, 300, &mut quadratic(&opt, 5), &mut |_| Ok(())).unwrap();
        // Stopped after 120 iterations (the file written after each), then resumed.
        let mut first = synthetic(3, 300, 5);
        let mut saves = 0;
        iterate(&mut first, 120, &mut quadratic(&opt, 5), &mut |s| {
            saves += 1;
            save(&path, s)
        })
        .unwrap();
        assert_eq!(saves, 120);
        let mut resumed = load(&path).unwrap().unwrap();
        assert_eq!(resumed, first);
        iterate(&mut resumed, 300, &mut quadratic(&opt, 5), &mut |s| {
            save(&path, s)
        })
        .unwrap();
        assert_eq!(resumed.theta, whole.theta);
        assert_eq!(resumed.results, whole.results);
        assert_eq!(load(&path).unwrap().unwrap(), resumed);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn config(state: PathBuf, params: &[&str]) -> SpsaConfig {
        SpsaConfig {
            params: params.iter().map(|s| s.to_string()).collect(),
            iterations: 2,
            pairs: 1,
            nodes: 150,
            seed: 7,
            opening: 4,
            openings: None,
            max_plies: 120,
            hash_mb: 1,
            a: None,
            c: None,
            big_a: None,
            threads: 1,
            state,
        }
    }

    #[test]
    fn bad_parameters_and_other_options_are_clear_errors() {
        let dir = temp("errors");
        let path = dir.join("s.json");
        let err = |params: &[&str]| open::<Kyoto>(&config(path.clone(), params)).unwrap_err();
        assert!(matches!(err(&[]), SpsaError::NoParams));
        let e = err(&["rfp_margin", "nope"]);
        assert!(
            e.to_string().contains("unknown search parameter `nope`"),
            "{e}"
        );
        let e = err(&["rfp_margin", "rfp_margin"]);
        assert_eq!(e.to_string(), "parameter `rfp_margin` is named twice");
        // A state file of another run is refused, naming each difference.
        let cfg = config(path.clone(), &["futility_margin", "lmp_base"]);
        save(&path, &open::<Kyoto>(&cfg).unwrap()).unwrap();
        let other = SpsaConfig {
            nodes: 300,
            c: Some(2.0),
            ..cfg.clone()
        };
        let e = open::<Kyoto>(&other).unwrap_err().to_string();
        assert!(e.contains("--nodes 150 there, 300 now"), "{e}");
        assert!(e.contains("--c 1 there, 2 now"), "{e}");
        // More iterations and other threads resume it.
        let more = SpsaConfig {
            iterations: 9,
            threads: 2,
            ..cfg
        };
        assert!(open::<Kyoto>(&more).is_ok());
        std::fs::write(&path, "{").unwrap();
        assert!(matches!(
            open::<Kyoto>(&more).unwrap_err(),
            SpsaError::Corrupt { .. }
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn games_played_for_real_resume_to_the_same_theta_on_any_threads() {
        let dir = temp("games");
        let params = ["futility_margin", "lmp_base"];
        let quiet = crate::pipeline::progress("kshogi-tune", true);
        let whole = run::<Kyoto>(
            &SpsaConfig {
                iterations: 3,
                ..config(dir.join("whole.json"), &params)
            },
            &quiet,
        )
        .unwrap();
        assert_eq!(whole.done(), 3);
        let parts = dir.join("parts.json");
        let two = run::<Kyoto>(&config(parts.clone(), &params), &quiet).unwrap();
        assert_eq!(two.done(), 2);
        let three = run::<Kyoto>(
            &SpsaConfig {
                iterations: 3,
                threads: 2,
                ..config(parts, &params)
            },
            &quiet,
        )
        .unwrap();
        assert_eq!(three.theta, whole.theta);
        assert_eq!(three.results, whole.results);
        // The start is Kyoto's registered values, and something was played.
        let kyoto = <<Kyoto as Registered>::Eval as Evaluator<Kyoto>>::SEARCH.tuning;
        assert_eq!(whole.start, vec![kyoto.futility_margin, kyoto.lmp_base]);
        assert!(summary(&whole).contains("futility_margin"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn openings_come_from_a_file_when_given() {
        let dir = temp("openings");
        let file = dir.join("o.txt");
        std::fs::write(
            &file,
            "# two openings\n\nstartpos moves 1e1d\nstartpos moves 2e2d 4a4b\n",
        )
        .unwrap();
        let cfg = SpsaConfig {
            iterations: 1,
            opening: 0,
            openings: Some(file.clone()),
            ..config(dir.join("s.json"), &["lmp_base"])
        };
        let s = run::<Kyoto>(&cfg, &crate::pipeline::progress("kshogi-tune", true)).unwrap();
        assert_eq!(
            s.openings,
            ["startpos moves 1e1d", "startpos moves 2e2d 4a4b"]
        );
        assert_eq!(load(&cfg.state).unwrap().unwrap(), s);
        // Another file is another run.
        std::fs::write(&file, "startpos moves 1e1d\n").unwrap();
        let e = open::<Kyoto>(&cfg).unwrap_err().to_string();
        assert!(e.contains("--openings (2 lines"), "{e}");
        std::fs::write(&file, "startpos moves 1e1d\nstartpos moves 9z9z\n").unwrap();
        let e = open::<Kyoto>(&cfg).unwrap_err().to_string();
        assert!(e.contains("o.txt:2:"), "{e}");
        std::fs::write(&file, "# nothing\n").unwrap();
        assert!(matches!(
            open::<Kyoto>(&cfg).unwrap_err(),
            SpsaError::Openings(OpeningsError::Empty { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
