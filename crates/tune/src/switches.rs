//! Choosing a variant's search switches by SPRT (`kshogi-tune switches`, docs/tuning.md):
//! the selective techniques of [`SearchParams`] tried one at a time, each kept only when a
//! fixed-node self-play SPRT accepts it, so that a new variant gets the switches of its own
//! game without an engine developer.
//!
//! The run starts from the registered evaluator's switches or from the ones every variant
//! gets by default ([`SearchParams::for_variant`]). For each switch in turn (the order of
//! [`SearchParams::SWITCHES`], or the ones asked for), the current switches with that one
//! flipped play the current ones in game pairs at a fixed number of nodes a move; the flip
//! is kept when the SPRT accepts it (H1), and the next switch is tried from the switches
//! kept so far. The evaluation stays the registered one (nets included), as do the numeric
//! parameters ([`kshogi_engine::SearchTuning`]), so that the SPRTs measure the switches
//! alone.
//!
//! Both sides are the registered evaluator behind [`Switched`], which reads its switches
//! from the playing thread ([`with_switches`]) instead of the evaluator's constant: the two
//! sets play in one program, and both searches pay the same small cost for it.
//!
//! The state file records every pair as it ends; the same command resumes a stopped run, and
//! a state file made with other settings (or by another build's switches) is refused, never
//! mixed. The games depend on the settings and the seed only, not on the threads. The result
//! is a Rust expression ([`source`]) for the variant's line in `kshogi-tuned-eval`.

use crate::data::stream_rng;
use crate::pipeline::{
    decide, duration, pentanomial, play_batch, play_game, to_json, write_atomic, Progress,
    SprtConfig, Verdict, SPRT_STREAM,
};
use kshogi_core::{Color, Game, Kind, Move, Position, Variant};
use kshogi_engine::eval::EvalBreakdown;
use kshogi_engine::selfplay::PlayConfig;
use kshogi_engine::{Engine, Evaluator, SearchParams, SearchTuning};
use kshogi_match::stats::{elo_of_score, sprt_bounds};
use kshogi_registry::Registered;
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::time::Instant;

thread_local! {
    /// The switches of [`Switched`]`<_, 0>` and `<_, 1>` on this thread; `None`: the base
    /// evaluator's.
    static SWITCHES: [Cell<Option<SearchParams>>; 2] = const { [Cell::new(None), Cell::new(None)] };
}

/// Runs `f` with the switches of [`Switched`]`<_, 0>` set to `first` and those of
/// `Switched<_, 1>` to `second` on this thread, and restores what they were before.
pub fn with_switches<R>(first: SearchParams, second: SearchParams, f: impl FnOnce() -> R) -> R {
    let before = SWITCHES.with(|s| [s[0].replace(Some(first)), s[1].replace(Some(second))]);
    let r = f();
    SWITCHES.with(|s| {
        s[0].set(before[0]);
        s[1].set(before[1]);
    });
    r
}

/// The evaluator `E` searched with the switches of slot `SLOT` (0 or 1) of
/// [`with_switches`] (outside it, `E`'s own): everything else is `E`'s, the incremental
/// evaluation's hooks included. The switches are the searching thread's, so an engine of
/// it searches with one thread (the tuner's games do): a Lazy SMP helper thread would read
/// its own thread's, `E`'s.
pub struct Switched<E, const SLOT: usize>(PhantomData<fn() -> E>);

impl<E, const SLOT: usize> Clone for Switched<E, SLOT> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E, const SLOT: usize> Copy for Switched<E, SLOT> {}

impl<E, const SLOT: usize> Default for Switched<E, SLOT> {
    fn default() -> Self {
        Switched(PhantomData)
    }
}

impl<V: Variant, E: Evaluator<V>, const SLOT: usize> Evaluator<V> for Switched<E, SLOT> {
    const SEARCH: SearchParams = E::SEARCH;

    #[inline(always)]
    fn switches() -> SearchParams {
        SWITCHES.with(|s| s[SLOT].get()).unwrap_or_else(E::switches)
    }

    #[inline(always)]
    fn evaluate(pos: &Position<V>) -> i32 {
        E::evaluate(pos)
    }

    #[inline(always)]
    fn piece_value(kind: Kind) -> i32 {
        E::piece_value(kind)
    }

    #[inline(always)]
    fn is_tactical(pos: &Position<V>, mv: Move) -> bool {
        E::is_tactical(pos, mv)
    }

    #[inline(always)]
    fn attacker_unrestricted(pos: &Position<V>) -> bool {
        E::attacker_unrestricted(pos)
    }

    #[inline]
    fn breakdown(pos: &Position<V>) -> EvalBreakdown {
        E::breakdown(pos)
    }

    fn new_state() -> Box<dyn Any + Send> {
        E::new_state()
    }

    #[inline(always)]
    fn on_root(state: &mut dyn Any, root: &Position<V>) {
        E::on_root(state, root)
    }

    #[inline(always)]
    fn on_make(state: &mut dyn Any, before: &Position<V>, mv: Move, ply: usize) {
        E::on_make(state, before, mv, ply)
    }

    #[inline(always)]
    fn on_null_move(state: &mut dyn Any, ply: usize) {
        E::on_null_move(state, ply)
    }

    #[inline(always)]
    fn evaluate_at(state: &mut dyn Any, pos: &Position<V>, ply: usize) -> i32 {
        E::evaluate_at(state, pos, ply)
    }
}

/// Where a run starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Start {
    /// The registered evaluator's switches ([`Evaluator::SEARCH`]).
    Registered,
    /// The switches a variant gets when its evaluator does not choose
    /// ([`SearchParams::for_variant`]): the start of a new variant.
    Default,
}

impl Start {
    /// The word of `--from`.
    pub fn name(self) -> &'static str {
        match self {
            Start::Registered => "registered",
            Start::Default => "default",
        }
    }

    /// The switches of `V` this start means, with the registered evaluator's numeric
    /// parameters.
    pub fn switches<V: Registered>(self) -> SearchParams {
        let registered = <V::Eval as Evaluator<V>>::SEARCH;
        match self {
            Start::Registered => registered,
            Start::Default => SearchParams {
                tuning: registered.tuning,
                ..SearchParams::for_variant::<V>()
            },
        }
    }
}

/// A run's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct SwitchConfig {
    /// The SPRT of each switch: hypotheses, nodes a move, most pairs, random plies of each
    /// pair's opening, plies after which a game is drawn.
    pub sprt: SprtConfig,
    /// The seed of the openings.
    pub seed: u64,
    /// Pairs played at once (the results do not depend on it).
    pub threads: usize,
    /// Hash of each engine, MiB.
    pub hash_mb: usize,
    /// The switches the run starts from.
    pub start: Start,
    /// The switches to try, in order; empty: all ([`SearchParams::SWITCHES`]).
    pub only: Vec<String>,
    /// The pairs' openings (`startpos moves ...` lines of an openings file, pair `j`
    /// playing line `j` modulo their number, followed by `sprt.opening` random plies), or
    /// none: random openings of `sprt.opening` plies from the start. With a file and no
    /// random plies, the caller caps `sprt.max_pairs` at the lines
    /// ([`crate::openings::max_pairs_at_fixed_nodes`]).
    pub openings: Vec<String>,
    /// The state file.
    pub state: PathBuf,
}

impl Default for SwitchConfig {
    fn default() -> Self {
        SwitchConfig {
            sprt: SprtConfig {
                nodes: 10_000,
                max_pairs: 500,
                ..SprtConfig::default()
            },
            seed: 1,
            threads: 1,
            hash_mb: 4,
            start: Start::Registered,
            only: Vec::new(),
            openings: Vec::new(),
            state: PathBuf::new(),
        }
    }
}

/// Why a run stopped.
#[derive(Debug)]
pub enum SwitchError {
    /// `--only` names no switch.
    UnknownSwitch(String),
    /// `--only` names a switch twice.
    Duplicate(String),
    /// The state file was made with other settings.
    OtherSettings {
        /// The file.
        path: PathBuf,
    },
    /// The state file could not be read, parsed or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

impl fmt::Display for SwitchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwitchError::UnknownSwitch(name) => write!(
                f,
                "unknown search switch `{name}` (`kshogi-tune switches --list` lists them)"
            ),
            SwitchError::Duplicate(name) => write!(f, "search switch `{name}` named twice"),
            SwitchError::OtherSettings { path } => write!(
                f,
                "{}: the state file was made with other settings or another build's \
                 switches; give another `--state`, or remove it to start again",
                path.display()
            ),
            SwitchError::Io { path, message } => write!(f, "{}: {message}", path.display()),
        }
    }
}

impl std::error::Error for SwitchError {}

/// One switch's SPRT.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trial {
    /// The switch.
    pub switch: String,
    /// The value tried (the current switches had the other).
    pub on: bool,
    /// The pairs in order: the tried value's half points in each (0 to 4).
    pub pairs: Vec<u8>,
    /// Seconds the pairs took.
    pub seconds: f64,
}

impl Trial {
    /// The SPRT's verdict and LLR after the recorded pairs.
    pub fn verdict(&self, sprt: &SprtConfig) -> (Verdict, f64) {
        decide(sprt, &self.pairs)
    }

    /// The tried value's score (0 to 1) over the recorded pairs.
    pub fn score(&self) -> f64 {
        let points: u64 = self.pairs.iter().map(|&p| u64::from(p)).sum();
        points as f64 / (4 * self.pairs.len()).max(1) as f64
    }
}

/// What the state file keeps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SwitchState {
    /// The variant's short name.
    pub variant: String,
    /// The settings that decide the results (not the threads), as text.
    pub settings: String,
    /// The switches the run started from: the names of those on.
    pub start: Vec<String>,
    /// The switches to try, in order.
    pub order: Vec<String>,
    /// The SPRTs so far, in order (the last may be unfinished).
    pub trials: Vec<Trial>,
}

/// The names of the switches on in `sp`.
pub fn names_on(sp: &SearchParams) -> Vec<String> {
    SearchParams::SWITCHES
        .iter()
        .filter(|n| sp.switch(n) == Some(true))
        .map(|n| n.to_string())
        .collect()
}

impl SwitchState {
    /// The switches after the trials the SPRT accepted, from `start` (whose numeric
    /// parameters are kept).
    pub fn current(&self, start: &SearchParams, sprt: &SprtConfig) -> SearchParams {
        let mut sp = *start;
        for t in &self.trials {
            if t.verdict(sprt).0 == Verdict::Accepted {
                if let Some(s) = sp.switch_mut(&t.switch) {
                    *s = t.on;
                }
            }
        }
        sp
    }

    /// Seconds all the trials took.
    pub fn seconds(&self) -> f64 {
        self.trials.iter().map(|t| t.seconds).sum()
    }
}

/// The order of the switches to try: `only` checked, or all of them.
pub fn order(only: &[String]) -> Result<Vec<String>, SwitchError> {
    if only.is_empty() {
        return Ok(SearchParams::SWITCHES
            .iter()
            .map(|s| s.to_string())
            .collect());
    }
    let mut out: Vec<String> = Vec::new();
    for name in only {
        if SearchParams::DEFAULT.switch(name).is_none() {
            return Err(SwitchError::UnknownSwitch(name.clone()));
        }
        if out.contains(name) {
            return Err(SwitchError::Duplicate(name.clone()));
        }
        out.push(name.clone());
    }
    Ok(out)
}

/// The settings of `cfg` for `V` that decide the results, as the state file keeps them.
fn settings<V: Registered>(cfg: &SwitchConfig) -> String {
    let s = &cfg.sprt;
    format!(
        "variant {} from {} ({:?}); nodes {} hash {} MiB; sprt elo0 {} elo1 {} alpha {} beta {} \
         pairs {}; opening {} plies, drawn after {}; openings {} ({}); seed {}",
        V::NAME,
        cfg.start.name(),
        cfg.start.switches::<V>(),
        s.nodes,
        cfg.hash_mb,
        s.test.elo0,
        s.test.elo1,
        s.test.alpha,
        s.test.beta,
        s.max_pairs,
        s.opening,
        s.max_plies,
        cfg.openings.len(),
        crate::pipeline::digest(&cfg.openings.join("\n")),
        cfg.seed
    )
}

/// Opens the run of `cfg` for `V`: its state file if it exists (with the same settings),
/// a new state otherwise.
pub fn open<V: Registered>(cfg: &SwitchConfig) -> Result<SwitchState, SwitchError> {
    let order = order(&cfg.only)?;
    let settings = settings::<V>(cfg);
    let io = |message: String| SwitchError::Io {
        path: cfg.state.clone(),
        message,
    };
    match std::fs::read_to_string(&cfg.state) {
        Ok(text) => {
            let st: SwitchState = serde_json::from_str(&text)
                .map_err(|e| io(format!("not a state file of `kshogi-tune switches`: {e}")))?;
            if st.variant != V::NAME || st.settings != settings || st.order != order {
                return Err(SwitchError::OtherSettings {
                    path: cfg.state.clone(),
                });
            }
            Ok(st)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(SwitchState {
            variant: V::NAME.to_string(),
            settings,
            start: names_on(&cfg.start.switches::<V>()),
            order,
            trials: Vec::new(),
        }),
        Err(e) => Err(io(e.to_string())),
    }
}

/// Plays pair `index` of `cfg`'s openings: the same opening twice (line `index` of the
/// file, or random plies), the tried
/// switches (slot 1) Black in the first game and White in the second, against the current
/// ones (slot 0). Returns the tried switches' half points.
fn play_pair<V: Registered>(
    tried: &mut Engine<V, Switched<V::Eval, 1>>,
    current: &mut Engine<V, Switched<V::Eval, 0>>,
    cfg: &SwitchConfig,
    index: u32,
) -> u8 {
    let mut points = 0;
    for color in [Color::Black, Color::White] {
        let mut rng = stream_rng(cfg.seed ^ SPRT_STREAM, u64::from(index));
        let start = if cfg.openings.is_empty() {
            Game::new(Position::<V>::start())
        } else {
            let line = &cfg.openings[index as usize % cfg.openings.len()];
            // Every line was read as a position of `V` (`read_openings`).
            kshogi_notation::parse_game::<V>(line)
                .unwrap_or_else(|_| Game::new(Position::<V>::start()))
        };
        // The random plies follow the line's own moves (the self-play counts them from
        // the game's first move).
        let play = PlayConfig {
            random_opening: start.moves().len() + cfg.sprt.opening as usize,
            max_plies: cfg.sprt.max_plies,
        };
        points += play_game(tried, current, start, color, cfg.sprt.nodes, play, &mut rng);
    }
    points
}

/// Plays the pairs `first..first + count` of the tried switches against the current ones on
/// `cfg.threads` threads; returns their points in order.
fn play_pairs<V: Registered>(
    cfg: &SwitchConfig,
    current: SearchParams,
    tried: SearchParams,
    first: u32,
    count: u32,
) -> Vec<u8> {
    play_batch(cfg.threads, first, count, |next, done| {
        with_switches(current, tried, || {
            let mut a = Engine::<V, Switched<V::Eval, 1>>::new(cfg.hash_mb);
            let mut b = Engine::<V, Switched<V::Eval, 0>>::new(cfg.hash_mb);
            while let Some(i) = next() {
                done(i, play_pair::<V>(&mut a, &mut b, cfg, i));
            }
        })
    })
}

/// Writes the state file (whole or not at all).
fn save(path: &Path, st: &SwitchState) -> Result<(), SwitchError> {
    write_atomic(path, to_json(st)).map_err(|e| SwitchError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

/// The run of `cfg` for `V`: opens (or resumes) the state file, plays every switch's SPRT
/// still to play, recording each batch of pairs as it ends, and returns the final state.
pub fn run<V: Registered>(
    cfg: &SwitchConfig,
    progress: &Progress,
) -> Result<SwitchState, SwitchError> {
    let mut st = open::<V>(cfg)?;
    let start = cfg.start.switches::<V>();
    let (lower, upper) = sprt_bounds(cfg.sprt.test.alpha, cfg.sprt.test.beta);
    let order = st.order.clone();
    for (k, name) in order.iter().enumerate() {
        let current = {
            let before = SwitchState {
                trials: st.trials[..k.min(st.trials.len())].to_vec(),
                ..st.clone()
            };
            before.current(&start, &cfg.sprt)
        };
        let was = current.switch(name).unwrap_or(false);
        let mut tried = current;
        if let Some(s) = tried.switch_mut(name) {
            *s = !was;
        }
        if st.trials.len() <= k {
            st.trials.push(Trial {
                switch: name.clone(),
                on: !was,
                pairs: Vec::new(),
                seconds: 0.0,
            });
            save(&cfg.state, &st)?;
        }
        progress.line(true, || {
            format!(
                "switch {} of {}: {} {} (from {}), SPRT at {} nodes a move",
                k + 1,
                order.len(),
                if was { "off" } else { "on" },
                name,
                if was { "on" } else { "off" },
                cfg.sprt.nodes
            )
        });
        loop {
            let trial = &st.trials[k];
            if trial.verdict(&cfg.sprt).0 != Verdict::Running {
                break;
            }
            let first = trial.pairs.len() as u32;
            let count = (cfg.threads.max(1) as u32).min(cfg.sprt.max_pairs - first);
            let began = Instant::now();
            let got = play_pairs::<V>(cfg, current, tried, first, count);
            let trial = &mut st.trials[k];
            for p in got {
                trial.pairs.push(p);
                if trial.verdict(&cfg.sprt).0 != Verdict::Running {
                    break;
                }
            }
            trial.seconds += began.elapsed().as_secs_f64();
            save(&cfg.state, &st)?;
            let trial = &st.trials[k];
            let (_, llr) = trial.verdict(&cfg.sprt);
            progress.count(
                &format!("switch-{k}"),
                trial.pairs.len() as u64,
                u64::from(cfg.sprt.max_pairs),
                || {
                    format!(
                        "{name}: {} pairs (pentanomial {:?}), score {:.3}, LLR {:.2} in ({:.2}, {:.2}), {} so far",
                        trial.pairs.len(),
                        pentanomial(&trial.pairs),
                        trial.score(),
                        llr,
                        lower,
                        upper,
                        duration(trial.seconds)
                    )
                },
            );
        }
        progress.finish();
        let trial = &st.trials[k];
        let (verdict, llr) = trial.verdict(&cfg.sprt);
        progress.line(true, || {
            format!(
                "{name} {}: {:?} after {} pairs, score {:.3}, LLR {:.2}",
                if trial.on { "on" } else { "off" },
                verdict,
                trial.pairs.len(),
                trial.score(),
                llr
            )
        });
    }
    Ok(st)
}

/// The summary of a run: every SPRT, the switches changed and the time.
pub fn summary(st: &SwitchState, cfg: &SwitchConfig, start: &SearchParams) -> String {
    let mut out = format!(
        "switches: {} from the {} switches, {} nodes a move, SPRT elo0 {} elo1 {}, at most {} \
         pairs each, seed {} ({})\n",
        st.variant,
        cfg.start.name(),
        cfg.sprt.nodes,
        cfg.sprt.test.elo0,
        cfg.sprt.test.elo1,
        cfg.sprt.max_pairs,
        cfg.seed,
        duration(st.seconds())
    );
    out.push_str(
        "switch                  tried  pairs  pentanomial            score     Elo    LLR  verdict\n",
    );
    for t in &st.trials {
        let (verdict, llr) = t.verdict(&cfg.sprt);
        let elo = elo_of_score(t.score().clamp(0.001, 0.999));
        out.push_str(&format!(
            "{:<22} {:>6} {:>6}  {:<22} {:>5.3} {:>+7.1} {:>6.2}  {}\n",
            t.switch,
            if t.on { "on" } else { "off" },
            t.pairs.len(),
            format!("{:?}", pentanomial(&t.pairs)),
            t.score(),
            elo,
            llr,
            verdict_word(verdict)
        ));
    }
    let end = st.current(start, &cfg.sprt);
    let changed: Vec<String> = SearchParams::SWITCHES
        .iter()
        .filter(|n| end.switch(n) != start.switch(n))
        .map(|n| {
            format!(
                "{n} {}",
                if end.switch(n) == Some(true) {
                    "on"
                } else {
                    "off"
                }
            )
        })
        .collect();
    if changed.is_empty() {
        out.push_str("kept: no change; the start's switches stay\n");
    } else {
        out.push_str(&format!("kept: {}\n", changed.join(", ")));
    }
    out
}

/// The word of a verdict in the summary.
fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Accepted => "kept (H1)",
        Verdict::Rejected => "rejected (H0)",
        Verdict::Undecided => "undecided",
        Verdict::Running => "not finished",
        Verdict::Skipped => "skipped",
    }
}

/// `sp` as a Rust expression of [`SearchParams`] (every switch and every numeric parameter
/// written out), headed by [`crate::GENERATED_HEADER`] and `comment`'s lines: the file a
/// variant's line in `kshogi-tuned-eval` includes as its `search`.
pub fn source(sp: &SearchParams, comment: &str) -> String {
    let mut out = format!("{} switches\n", crate::GENERATED_HEADER);
    for line in comment.lines() {
        out.push_str(&format!("// {line}\n").replace("// \n", "//\n"));
    }
    out.push_str("SearchParams {\n");
    for name in SearchParams::SWITCHES {
        out.push_str(&format!(
            "    {name}: {},\n",
            sp.switch(name).unwrap_or(false)
        ));
    }
    out.push_str("    tuning: SearchTuning {\n");
    for (t, v) in SearchTuning::TABLE.iter().zip(sp.tuning.values()) {
        out.push_str(&format!("        {}: {v},\n", t.name));
    }
    out.push_str("    },\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_engine::Limits;
    use kshogi_registry::types::{Kyoto, Minishogi};
    use std::sync::atomic::AtomicBool;

    /// The best move and node count of a fixed-depth search of the start position.
    fn probe<V: Registered, E: Evaluator<V>>(depth: u32) -> (Move, u64) {
        let mut e = Engine::<V, E>::new(1);
        let game = Game::new(Position::<V>::start());
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let r = e.search(&game, &limits, 1, &AtomicBool::new(false), &mut |_| {});
        (r.lines[0].mv, r.nodes)
    }

    #[test]
    fn switched_searches_as_its_switches_say() {
        type E = <Kyoto as Registered>::Eval;
        let own = probe::<Kyoto, E>(6);
        // Outside `with_switches`, and inside with the evaluator's own switches in its slot:
        // the same search, node for node.
        assert_eq!(probe::<Kyoto, Switched<E, 0>>(6), own);
        let sp = E::SEARCH;
        assert_eq!(
            with_switches(sp, sp, || probe::<Kyoto, Switched<E, 1>>(6)),
            own
        );
        // A switch flipped in a slot changes that slot's search only.
        let mut no_null = sp;
        no_null.null_move = false;
        let mut fewer = no_null;
        fewer.log_reductions = false;
        let (slot0, slot1) = with_switches(no_null, fewer, || {
            (
                probe::<Kyoto, Switched<E, 0>>(6),
                probe::<Kyoto, Switched<E, 1>>(6),
            )
        });
        assert_ne!(slot0.1, own.1);
        assert_ne!(slot1.1, slot0.1);
        // Restored after.
        assert_eq!(probe::<Kyoto, Switched<E, 1>>(6), own);
    }

    #[test]
    fn the_default_start_is_a_new_variants_switches() {
        let reg = <<Minishogi as Registered>::Eval as Evaluator<Minishogi>>::SEARCH;
        let d = Start::Default.switches::<Minishogi>();
        assert_eq!(Start::Registered.switches::<Minishogi>(), reg);
        assert_eq!(
            SearchParams {
                tuning: SearchTuning::DEFAULT,
                ..d
            },
            SearchParams::DROP_GAME
        );
        assert_eq!(d.tuning, reg.tuning);
        // Minishogi's own switches are more than the drop games'.
        assert!(reg.null_move && !d.null_move);
    }

    #[test]
    fn only_names_switches_once() {
        assert_eq!(order(&[]).unwrap().len(), SearchParams::SWITCHES.len());
        let two = vec!["iir".to_string(), "null_move".to_string()];
        assert_eq!(order(&two).unwrap(), two);
        let e = order(&["nope".to_string()]).unwrap_err();
        assert!(
            e.to_string().contains("unknown search switch `nope`"),
            "{e}"
        );
        let e = order(&["iir".to_string(), "iir".to_string()]).unwrap_err();
        assert!(e.to_string().contains("`iir` named twice"), "{e}");
    }

    /// A small run: two switches of Kyoto, a few pairs each at few nodes.
    fn tiny(dir: &Path, threads: usize) -> SwitchConfig {
        SwitchConfig {
            sprt: SprtConfig {
                nodes: 300,
                max_pairs: 6,
                max_plies: 60,
                ..SprtConfig::default()
            },
            threads,
            hash_mb: 1,
            only: vec!["null_move".to_string(), "iir".to_string()],
            state: dir.join("switches.json"),
            ..SwitchConfig::default()
        }
    }

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("kshogi-switches-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_run_resumes_and_does_not_depend_on_threads() {
        let quiet = crate::pipeline::progress("kshogi-tune", true);
        let d1 = temp("one");
        let whole = run::<Kyoto>(&tiny(&d1, 1), &quiet).unwrap();
        assert_eq!(whole.trials.len(), 2);
        assert_eq!(whole.trials[0].switch, "null_move");
        // Kyoto's registered switches have null-move pruning on: the run tries it off.
        assert!(!whole.trials[0].on);
        assert!(whole.trials[1].on);
        for t in &whole.trials {
            // Too few pairs to decide (the SPRT needs more): every trial plays them all.
            assert_eq!(t.pairs.len(), 6, "{t:?}");
            assert!(t.pairs.iter().all(|&p| p <= 4));
        }
        // Two threads, stopped after the first trial's first pairs and resumed: the same.
        let d2 = temp("two");
        let cfg2 = tiny(&d2, 2);
        let mut partial = open::<Kyoto>(&cfg2).unwrap();
        partial.trials.push(Trial {
            pairs: whole.trials[0].pairs[..2].to_vec(),
            ..whole.trials[0].clone()
        });
        save(&cfg2.state, &partial).unwrap();
        let resumed = run::<Kyoto>(&cfg2, &quiet).unwrap();
        let strip = |s: &SwitchState| {
            s.trials
                .iter()
                .map(|t| (t.switch.clone(), t.on, t.pairs.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(strip(&resumed), strip(&whole));
        // The state file says the same; other settings are refused.
        let saved: SwitchState =
            serde_json::from_str(&std::fs::read_to_string(&cfg2.state).unwrap()).unwrap();
        assert_eq!(strip(&saved), strip(&whole));
        let mut other = cfg2.clone();
        other.sprt.nodes = 301;
        assert!(matches!(
            open::<Kyoto>(&other),
            Err(SwitchError::OtherSettings { .. })
        ));
        let text = summary(
            &whole,
            &tiny(&d1, 1),
            &Start::Registered.switches::<Kyoto>(),
        );
        assert!(text.contains("null_move"), "{text}");
        assert!(text.contains("kept: no change"), "{text}");
        let _ = std::fs::remove_dir_all(d1);
        let _ = std::fs::remove_dir_all(d2);
    }

    #[test]
    fn an_accepted_trial_changes_the_switches_for_the_next() {
        let sprt = SprtConfig {
            max_pairs: 400,
            ..SprtConfig::default()
        };
        let start = SearchParams::DEFAULT;
        let st = SwitchState {
            variant: "kyoto".into(),
            settings: String::new(),
            start: names_on(&start),
            order: vec!["iir".into(), "futility".into()],
            trials: vec![
                // All wins: accepted.
                Trial {
                    switch: "iir".into(),
                    on: true,
                    pairs: vec![4; 60],
                    seconds: 1.0,
                },
                // All losses: rejected.
                Trial {
                    switch: "futility".into(),
                    on: false,
                    pairs: vec![0; 60],
                    seconds: 2.0,
                },
            ],
        };
        assert_eq!(st.trials[0].verdict(&sprt).0, Verdict::Accepted);
        assert_eq!(st.trials[1].verdict(&sprt).0, Verdict::Rejected);
        let end = st.current(&start, &sprt);
        assert!(end.iir && end.futility);
        assert_eq!(SearchParams { iir: false, ..end }, start);
        let cfg = SwitchConfig {
            sprt,
            ..SwitchConfig::default()
        };
        let text = summary(&st, &cfg, &start);
        assert!(text.contains("kept: iir on"), "{text}");
        assert!(text.contains("rejected (H0)"), "{text}");
    }

    #[test]
    fn the_source_is_every_field_of_the_switches() {
        let sp = SearchParams::DROP_GAME;
        let text = source(&sp, "Kyoto, a test\n\nsecond line");
        assert!(text.starts_with(crate::GENERATED_HEADER));
        assert!(
            text.contains("// Kyoto, a test\n//\n// second line\n"),
            "{text}"
        );
        for name in SearchParams::SWITCHES {
            let line = format!("    {name}: {},\n", sp.switch(name).unwrap());
            assert!(text.contains(&line), "{line}");
        }
        for t in SearchTuning::TABLE {
            assert!(text.contains(&format!("        {}: {},\n", t.name, t.default)));
        }
    }
}
