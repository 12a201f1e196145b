//! The settings of a session (the options' values, which outlive a change of variant) and
//! the variants it can play.

use super::SearchMode;
use crate::options::{self, DEFAULT_HASH_MB};
use crate::time_manager;
use crate::writing::Writing;
use kshogi_analysis::{Databases, Skill};
use kshogi_core::VariantInfo;
use kshogi_notation::Dialect;
use kshogi_registry::VariantKind;
use kshogi_usi_protocol::Protocol;

/// The seed of weakened play's choice among candidate moves (mixed with each position's
/// hash), so that a session plays the same move in the same position at the same level.
const SKILL_SEED: u64 = 0x6b73_686f_6769;

/// Settings that outlive a change of variant.
#[derive(Clone, Debug)]
pub(super) struct Settings {
    /// Threaded or bounded searches.
    pub(super) mode: SearchMode,
    /// The variant at start-up (the `USI_Variant` default shown by `usi`).
    pub(super) initial: VariantInfo,
    /// The current variant.
    pub(super) variant: VariantInfo,
    /// The variants `USI_Variant` may name.
    pub(super) roster: Roster,
    /// `USI_Hash`.
    pub(super) hash_mb: usize,
    /// `MultiPV`.
    pub(super) multipv: usize,
    /// `Threads`.
    pub(super) threads: usize,
    /// `Move_Overhead`, in milliseconds.
    pub(super) overhead_ms: u64,
    /// `USI_Ponder`: `bestmove` names the move to ponder on.
    pub(super) ponder: bool,
    /// `Dialect`, when set; otherwise the protocol's default.
    pub(super) dialect: Option<Dialect>,
    /// `Skill_Level`.
    pub(super) skill_level: i64,
    /// `UCI_LimitStrength`: play at `UCI_Elo`'s level.
    pub(super) limit_strength: bool,
    /// `UCI_Elo`.
    pub(super) elo: i64,
    /// `UCI_ShowWDL`.
    pub(super) show_wdl: bool,
    /// `Contempt`, in centipawns.
    pub(super) contempt: i64,
    /// `USI_AnalyseMode`: no contempt.
    pub(super) analyse_mode: bool,
    /// USI or UCI.
    pub(super) protocol: Protocol,
    /// The perfect-play databases.
    pub(super) databases: Databases,
}

impl Settings {
    /// The settings at start-up: every option at its default.
    pub(super) fn new(
        mode: SearchMode,
        variant: VariantInfo,
        roster: Roster,
        databases: Databases,
    ) -> Settings {
        Settings {
            mode,
            initial: variant,
            variant,
            roster,
            hash_mb: DEFAULT_HASH_MB,
            multipv: 1,
            threads: 1,
            overhead_ms: time_manager::DEFAULT_OVERHEAD_MS,
            ponder: false,
            dialect: None,
            skill_level: options::MAX_SKILL,
            limit_strength: false,
            elo: options::DEFAULT_ELO,
            show_wdl: false,
            contempt: options::DEFAULT_CONTEMPT,
            analyse_mode: false,
            protocol: Protocol::Usi,
            databases,
        }
    }

    /// The size of the transposition table: `USI_Hash`, capped by the budget in the bounded
    /// mode.
    pub(super) fn table_mb(&self) -> usize {
        match self.mode {
            SearchMode::Threaded => self.hash_mb,
            SearchMode::Bounded(b) => self.hash_mb.min(b.hash_mb),
        }
    }

    /// The number of search threads: `Threads`, except in the bounded mode, whose searches
    /// must depend on the input alone (one thread).
    pub(super) fn search_threads(&self) -> usize {
        match self.mode {
            SearchMode::Threaded => self.threads,
            SearchMode::Bounded(_) => 1,
        }
    }

    /// The level to play at, when below full strength: with `UCI_LimitStrength` the level
    /// whose measured rating is nearest `UCI_Elo` ([`Skill::level_for_elo`]), otherwise
    /// `Skill_Level`.
    pub(super) fn skill(&self) -> Option<Skill> {
        let level = if self.limit_strength {
            Skill::level_for_elo(self.elo)
        } else {
            i32::try_from(self.skill_level).unwrap_or(Skill::FULL)
        };
        (level < Skill::FULL).then_some(Skill {
            level,
            seed: SKILL_SEED,
        })
    }

    /// The contempt the searches use: `Contempt`, or none with `USI_AnalyseMode`.
    pub(super) fn contempt(&self) -> i32 {
        if self.analyse_mode {
            0
        } else {
            i32::try_from(self.contempt).unwrap_or(0)
        }
    }

    /// How moves are written: the `Dialect` option, by default canonical in USI (lishogi's
    /// letters) and fsf in UCI (what pychess-variants reads from Fairy-Stockfish).
    pub(super) fn writing(&self) -> Writing {
        let dialect = self.dialect.unwrap_or(match self.protocol {
            Protocol::Usi => Dialect::Canonical,
            Protocol::Uci => Dialect::Fsf,
        });
        Writing {
            dialect,
            protocol: self.protocol,
        }
    }
}

/// The variants a session can play, which `USI_Variant` lists and accepts.
#[derive(Copy, Clone, Debug)]
pub(super) enum Roster {
    /// Every registered variant ([`serve_config`]).
    Registered,
    /// One variant only ([`serve_variant`]): a variant outside the registry, or one fixed.
    Single(VariantInfo),
}

impl Roster {
    /// The variants, in the order `usi` lists them.
    pub(super) fn infos(&self) -> &[VariantInfo] {
        match self {
            Roster::Registered => VariantKind::infos(),
            Roster::Single(info) => std::slice::from_ref(info),
        }
    }

    /// The variant `name` names (its name or an alias, in any case), if the roster has it.
    pub(super) fn find(&self, name: &str) -> Option<VariantInfo> {
        self.infos().iter().copied().find(|v| v.is_named(name))
    }

    /// What `USI_Variant` takes, for messages: `one of kyoto, micro, ... (or kyotoshogi
    /// and the like)`, or the one variant's name.
    pub(super) fn expected(&self) -> String {
        match self {
            Roster::Registered => format!(
                "one of {} (or kyotoshogi and the like)",
                VariantKind::names()
            ),
            Roster::Single(info) => format!(
                "only {} (or one of its aliases): this engine plays {} alone",
                info.name, info.display_name
            ),
        }
    }
}
