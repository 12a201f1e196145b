//! # kshogi-match
//!
//! A match runner and referee for USI engines in every registered variant: two engines
//! (each with its command, USI options, `USI_Variant` name, notation dialect and extra
//! start-up commands) play games from openings (random plies from a seed, or a list of
//! positions), each opening with both colours, under a time control (time per move, a clock
//! with byoyomi or increment, or a fixed number of nodes per move for tests on a loaded
//! machine), a fixed number of games or until an SPRT decides,
//! several games at once. kshogi's own rules referee every game ([`kshogi_core::Game`]:
//! repetition, the Kinzoku countdown, Dobutsu's try and the rest); a game that reaches the
//! ply limit is a draw by adjudication. An engine that crashes, does not answer in time,
//! prints garbage or plays an illegal move loses that game, with the reason recorded, and
//! is started again for its next game; the runner itself never waits without a deadline.
//! Every game can be written as a KIF record, and the [`Summary`] gives wins, draws,
//! losses, score, Elo with its error margin, the SPRT's LLR and the endings by reason
//! ([`stats`] has the formulas).
//!
//! Entry point: [`run_match`] with a [`MatchConfig`]. The `kshogi match` command is a thin
//! front end over it: [`spec`] reads its words (an SPRT, a shard, an openings file, a USI
//! option) into the values of the configuration.
//!
//! The runner is generic over the variant: a [`MatchConfig`] names its variant by a
//! [`MatchVariant`], either a registered variant chosen at run time ([`VariantKind`],
//! dispatched once to the generic code) or a type implementing [`kshogi_core::Variant`]
//! ([`Typed`]), which may be a variant of a crate outside kshogi.
//!
//! This crate sits above the variant list (`kshogi-variants`), notation and the USI client;
//! it must not depend on the command line, the registry, the engine's search or the solver
//! (the engines are other processes), and `cargo xtask tidy` checks that it pulls in none of
//! them.

mod game;
mod play;
mod runner;
pub mod shard;
pub mod spec;
pub mod stats;
mod summary;

pub use play::{go, GoAnswer};
pub use runner::run_match;
pub use shard::{merge, merge_of, MergedMatch, Shard};
pub use spec::SpecError;
pub use stats::{Sprt, SprtDecision, SprtError};
pub use summary::{GameReport, ReasonCount, SprtReport, Summary};

use kshogi_core::Variant;
use kshogi_notation::Dialect;
use kshogi_variants::VariantKind;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The default ply limit: a game still running after this many plies (the opening's
/// included) is adjudicated a draw. The small variants' games are short (a few dozen
/// plies); 300 is what the reference engine's runner and `kshogi selfplay` use.
pub const DEFAULT_MAX_PLIES: u32 = 300;

/// The default margin an engine may exceed its time by before it loses on time.
pub const DEFAULT_MARGIN: Duration = Duration::from_millis(1000);

/// The default deadline of the handshake (`usiok`, `readyok`).
pub const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// One engine of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The command line, split by shell word rules (no shell runs).
    pub command: String,
    /// The name in records and the summary.
    pub name: String,
    /// `setoption` pairs (name, value), sent before `USI_Variant` (an option such as the
    /// reference engine's `VariantPath` may define the variant it names).
    pub options: Vec<(String, String)>,
    /// The `USI_Variant` value; `None` for the registry's name of the variant (`kyoto`).
    pub variant_name: Option<String>,
    /// The dialect of the SFEN and moves it is sent (it may answer in either).
    pub dialect: Dialect,
    /// Lines sent after `usiok`, before the options (`load kinzoku.ini`).
    pub init: Vec<String>,
}

impl EngineSpec {
    /// An engine with default settings: its command as its name, the canonical dialect.
    pub fn new(command: &str) -> EngineSpec {
        EngineSpec {
            command: command.to_string(),
            name: command.to_string(),
            options: Vec::new(),
            variant_name: None,
            dialect: Dialect::Canonical,
            init: Vec::new(),
        }
    }
}

/// The time a move may take under [`TimeControl::Nodes`] before the margin: an engine
/// that has not answered `go nodes N` after this (plus the margin) loses on time.
pub const NODES_MOVE_TIME: Duration = Duration::from_secs(10);

/// How much time an engine has.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A fixed time per move: `go movetime MS`.
    MoveTime(Duration),
    /// A fixed number of nodes per move: `go nodes N`, no clock. The result of a move then
    /// does not depend on the machine's load (for an engine whose `go nodes` is
    /// deterministic, as kshogi's is), which makes it the time control of SPRTs on a shared
    /// machine. The time-forfeit deadline is a generous [`NODES_MOVE_TIME`] plus the margin.
    Nodes(u64),
    /// A clock: `go btime .. wtime .. byoyomi ..` or `binc .. winc ..`. An engine loses on
    /// time when a move takes more than its remaining time plus byoyomi plus the margin.
    Clock {
        /// Each side's time at the start of the game.
        base: Duration,
        /// Time added after each move.
        increment: Duration,
        /// Time per move once the clock is empty.
        byoyomi: Duration,
    },
}

/// Where the games start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// From the variant's start, `plies` uniformly random legal plies, reproducible from
    /// `seed` (an opening that ends the game is drawn again).
    Random {
        /// Random plies.
        plies: u32,
        /// The seed.
        seed: u64,
    },
    /// Positions in order (`sfen ... [moves ...]` or an SFEN, as `kshogi` position
    /// arguments), each with a label for messages (`file.txt:3`); used again from the first
    /// when the match needs more.
    List(Vec<(String, String)>),
}

mod sealed {
    /// Keeps [`MatchVariant`](super::MatchVariant) to this crate's two kinds.
    pub trait Sealed {}
}

/// How a [`MatchConfig`] names its variant: a registered variant chosen at run time
/// ([`VariantKind`]) or a variant's type ([`Typed`]). Implemented by these two alone.
pub trait MatchVariant: Copy + std::fmt::Debug + Send + Sync + sealed::Sealed {
    /// The variant's name (`kyoto`): the engines' default `USI_Variant`, the summary's
    /// variant and the results files' header.
    fn name(&self) -> &'static str;

    /// The name of the variant called `name` among those of this kind (for the header of
    /// a results file read back by [`merge_of`]), or `None` when there is none.
    fn known(name: &str) -> Option<&'static str>;

    /// Plays the match `cfg` with the variant's type: what [`run_match`] does once its
    /// settings are checked.
    #[doc(hidden)]
    fn run_checked(
        cfg: &MatchConfig<Self>,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Summary, u64),
    ) -> Result<Summary, MatchError>;
}

impl sealed::Sealed for VariantKind {}

impl MatchVariant for VariantKind {
    fn name(&self) -> &'static str {
        VariantKind::name(*self)
    }

    fn known(name: &str) -> Option<&'static str> {
        VariantKind::from_name(name).map(VariantKind::name)
    }

    fn run_checked(
        cfg: &MatchConfig<Self>,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Summary, u64),
    ) -> Result<Summary, MatchError> {
        kshogi_variants::with_variant!(cfg.variant, V => runner::run_typed::<V, _>(cfg, stop, progress))
    }
}

/// A variant given by its type `V` (any [`Variant`], registered or not): the
/// [`MatchVariant`] of a program that plays one variant of its own.
pub struct Typed<V>(PhantomData<fn() -> V>);

impl<V> Typed<V> {
    /// The variant `V`.
    pub const fn new() -> Typed<V> {
        Typed(PhantomData)
    }
}

impl<V> Default for Typed<V> {
    fn default() -> Typed<V> {
        Typed::new()
    }
}

impl<V> Clone for Typed<V> {
    fn clone(&self) -> Typed<V> {
        *self
    }
}

impl<V> Copy for Typed<V> {}

impl<V: Variant> std::fmt::Debug for Typed<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Typed<{}>", V::NAME)
    }
}

impl<V> sealed::Sealed for Typed<V> {}

impl<V: Variant> MatchVariant for Typed<V> {
    fn name(&self) -> &'static str {
        V::NAME
    }

    fn known(name: &str) -> Option<&'static str> {
        (name == V::NAME).then_some(V::NAME)
    }

    fn run_checked(
        cfg: &MatchConfig<Self>,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Summary, u64),
    ) -> Result<Summary, MatchError> {
        runner::run_typed::<V, _>(cfg, stop, progress)
    }
}

/// A whole match, in the variant named by `K` (a registered variant by default).
#[derive(Clone, Debug)]
pub struct MatchConfig<K = VariantKind> {
    /// The variant.
    pub variant: K,
    /// Engine A (whose score the summary gives) and engine B.
    pub engines: [EngineSpec; 2],
    /// The time control.
    pub time: TimeControl,
    /// How much an engine may exceed its time before it loses on time.
    pub margin: Duration,
    /// The deadline of `usiok` and `readyok`.
    pub handshake_timeout: Duration,
    /// The openings.
    pub openings: Openings,
    /// The number of games (with an SPRT, the most games played). Rounded up to even so
    /// that every opening is played with both colours.
    pub games: u32,
    /// An SPRT that stops the match when decided.
    pub sprt: Option<Sprt>,
    /// Games played at once.
    pub concurrency: usize,
    /// The ply limit (see [`DEFAULT_MAX_PLIES`]).
    pub max_plies: u32,
    /// The directory the KIF records are written to (see [`run_match`]); `None` for none.
    pub out_dir: Option<PathBuf>,
    /// The share of the opening pairs this process plays, and its results file (see
    /// [`shard`]); `None` to play them all.
    pub shard: Option<Shard>,
}

impl<K: MatchVariant> MatchConfig<K> {
    /// A match of `games` games between `a` and `b`, with the defaults: random 4-ply
    /// openings from seed 1, 100 ms per move, one game at a time, no records.
    pub fn new(variant: K, a: EngineSpec, b: EngineSpec, games: u32) -> MatchConfig<K> {
        MatchConfig {
            variant,
            engines: [a, b],
            time: TimeControl::MoveTime(Duration::from_millis(100)),
            margin: DEFAULT_MARGIN,
            handshake_timeout: DEFAULT_HANDSHAKE_TIMEOUT,
            openings: Openings::Random { plies: 4, seed: 1 },
            games,
            sprt: None,
            concurrency: 1,
            max_plies: DEFAULT_MAX_PLIES,
            out_dir: None,
            shard: None,
        }
    }
}

/// Why a match could not be played (a game lost by an engine is not an error).
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A setting is out of range.
    #[error("{0}")]
    Config(String),
    /// An opening could not be read or played.
    #[error("opening {label}: {message}")]
    Opening {
        /// Where it came from (`file:line`, or `random opening 3`).
        label: String,
        /// What is wrong.
        message: String,
    },
    /// An engine cannot be started at all (no such program, a bad command line, an option it
    /// does not declare or a value it refuses).
    #[error("engine {name}: {message}")]
    Engine {
        /// The engine's name.
        name: String,
        /// The reason.
        message: String,
    },
    /// The output directory cannot be used, or a record cannot be written.
    #[error("{path}: {message}")]
    Output {
        /// The path.
        path: PathBuf,
        /// The reason.
        message: String,
    },
}
