//! The engine's options, each declared once in [`OPTIONS`]: its name in USI mode and in UCI
//! mode, its type, range and default, and what it changes. The answer to `usi`/`uci`
//! ([`handshake`]), the reading of `setoption` ([`find`], [`Decl::read`], which reads a
//! value by the protocol crate's rules for its type) and the option list of `kshogi usi
//! --help` ([`help_text`]) all come from this table; what a value does to the session is
//! applied in one `match` over [`Opt`] in the session.

use crate::time_manager;
use kshogi_core::VariantInfo;
use kshogi_notation::Dialect;
use kshogi_usi_protocol::{
    same_option_name, EngineMessage, OptionDecl, OptionError, OptionType, OptionValue, Protocol,
};
use std::fmt::Write as _;

/// The default `USI_Hash`, in MiB.
pub const DEFAULT_HASH_MB: usize = 16;

/// The largest `USI_Hash`, in MiB.
pub const MAX_HASH_MB: u64 = 4096;

/// The largest `MultiPV`.
pub const MAX_MULTIPV: u64 = 32;

/// The largest `Threads` accepted (as the reference engine).
pub const MAX_THREADS: u64 = 512;

/// The full-strength `Skill_Level` (the default), the top of the reference engine's range.
pub const MAX_SKILL: i64 = 20;

/// The weakest `Skill_Level`, the bottom of the reference engine's range.
pub const MIN_SKILL: i64 = -20;

/// The smallest `UCI_Elo` (the reference engine's range).
pub const MIN_ELO: i64 = 500;

/// The default `UCI_Elo` (the reference engine's).
pub const DEFAULT_ELO: i64 = 1350;

/// The largest `UCI_Elo` (the reference engine's range).
pub const MAX_ELO: i64 = 2850;

/// The default `Contempt`, in centipawns: draws are even.
pub const DEFAULT_CONTEMPT: i64 = 0;

/// The range of `Contempt` (the search parameter's, [`kshogi_engine::SearchTuning::contempt`]).
pub const CONTEMPT_RANGE: (i64, i64) = (-200, 200);

/// Which option a declaration is: what the session applies a value to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Opt {
    /// `USI_Variant` / `UCI_Variant`.
    Variant,
    /// `USI_Hash` / `Hash`.
    Hash,
    /// `USI_MultiPV` / `MultiPV`.
    MultiPv,
    /// `Threads`.
    Threads,
    /// `Move_Overhead` / `Move Overhead`.
    MoveOverhead,
    /// `USI_Ponder` / `Ponder`.
    Ponder,
    /// `Dialect`.
    Dialect,
    /// `Clear_Hash` / `Clear Hash`.
    ClearHash,
    /// `USI_AnalyseMode` / `UCI_AnalyseMode`.
    AnalyseMode,
    /// `Skill_Level` / `Skill Level`.
    SkillLevel,
    /// `UCI_LimitStrength`.
    LimitStrength,
    /// `UCI_Elo`.
    Elo,
    /// `UCI_ShowWDL`.
    ShowWdl,
    /// `Contempt`.
    Contempt,
    /// `UCI_Chess960`.
    Chess960,
    /// `VariantPath`.
    VariantPath,
}

/// An option's type, with its range and default where they are fixed.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Type {
    /// `true` or `false`.
    Check(bool),
    /// A whole number in `min..=max`.
    Spin {
        /// The default.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// One word of a list that depends on the session ([`Shown`]).
    Combo(fn(&Shown) -> (String, Vec<String>)),
    /// A command without a value.
    Button,
    /// Free text (its default).
    Text(&'static str),
}

/// One option.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Decl {
    /// What it is.
    pub opt: Opt,
    /// Its name in USI mode.
    pub usi: &'static str,
    /// Its name in UCI mode.
    pub uci: &'static str,
    /// Its type, range and default.
    pub ty: Type,
    /// What it changes, for the help text.
    pub help: &'static str,
}

/// What the handshake shows that depends on the session: the start-up variant, the
/// variants the session can play and the dialect the protocol writes by default.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Shown<'a> {
    /// The `USI_Variant` default.
    pub variant: VariantInfo,
    /// The variants `USI_Variant` can name: every registered one, or the one variant of a
    /// session that plays a single variant.
    pub roster: &'a [VariantInfo],
    /// The `Dialect` default.
    pub dialect: Dialect,
}

/// The variants: kshogi's names, then the reference engine's one-word names (pychess and
/// lishogi send those).
fn variant_combo(shown: &Shown) -> (String, Vec<String>) {
    let mut vars = Vec::new();
    for v in shown.roster {
        vars.push(v.name.to_string());
        for alias in v.aliases.iter().filter(|a| !a.contains('-')) {
            vars.push((*alias).to_string());
        }
    }
    (shown.variant.name.to_string(), vars)
}

/// The dialects.
fn dialect_combo(shown: &Shown) -> (String, Vec<String>) {
    (
        shown.dialect.to_string(),
        vec!["canonical".to_string(), "fsf".to_string()],
    )
}

/// Every option, in the order `usi` and `uci` print them.
pub(crate) const OPTIONS: &[Decl] = &[
    Decl {
        opt: Opt::Variant,
        usi: "USI_Variant",
        uci: "UCI_Variant",
        ty: Type::Combo(variant_combo),
        help: "the variant: a name `kshogi variants` lists or an alias, the reference \
               engine's names (kyotoshogi, minishogi, dobutsu, ...) included; a change \
               finishes the search and resets the position",
    },
    Decl {
        opt: Opt::Hash,
        usi: "USI_Hash",
        uci: "Hash",
        ty: Type::Spin {
            default: DEFAULT_HASH_MB as i64,
            min: 1,
            max: MAX_HASH_MB as i64,
        },
        help: "transposition table size in MiB; a change clears the table",
    },
    Decl {
        opt: Opt::MultiPv,
        usi: "USI_MultiPV",
        uci: "MultiPV",
        ty: Type::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV as i64,
        },
        help: "lines searched and reported",
    },
    Decl {
        opt: Opt::Threads,
        usi: "Threads",
        uci: "Threads",
        ty: Type::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS as i64,
        },
        help: "search threads (Lazy SMP; at most the machine's hardware threads run, and \
               the mate solver runs on one more)",
    },
    Decl {
        opt: Opt::MoveOverhead,
        usi: "Move_Overhead",
        uci: "Move Overhead",
        ty: Type::Spin {
            default: time_manager::DEFAULT_OVERHEAD_MS as i64,
            min: 0,
            max: time_manager::MAX_OVERHEAD_MS as i64,
        },
        help: "ms kept back from every clock allotment for the round trip (movetime is \
               searched in full)",
    },
    Decl {
        opt: Opt::Ponder,
        usi: "USI_Ponder",
        uci: "Ponder",
        ty: Type::Check(false),
        help: "bestmove names the move to ponder on",
    },
    Decl {
        opt: Opt::Dialect,
        usi: "Dialect",
        uci: "Dialect",
        ty: Type::Combo(dialect_combo),
        help: "the letters of the moves written: canonical (default in USI mode) or fsf \
               (the reference engine's, default in UCI mode)",
    },
    Decl {
        opt: Opt::ClearHash,
        usi: "Clear_Hash",
        uci: "Clear Hash",
        ty: Type::Button,
        help: "clears the transposition table",
    },
    Decl {
        opt: Opt::AnalyseMode,
        usi: "USI_AnalyseMode",
        uci: "UCI_AnalyseMode",
        ty: Type::Check(false),
        help: "true: the searches score every draw as even whatever Contempt says, as \
               for analysis (default false)",
    },
    Decl {
        opt: Opt::SkillLevel,
        usi: "Skill_Level",
        uci: "Skill Level",
        ty: Type::Spin {
            default: MAX_SKILL,
            min: MIN_SKILL,
            max: MAX_SKILL,
        },
        help: "below 20, plays weaker: a node budget 3/2 times larger at each level (128 \
               nodes at level 0), whatever the clock allows, and below level 10 a seeded \
               random choice among the moves within a margin of the best, wider as the level \
               drops",
    },
    Decl {
        opt: Opt::LimitStrength,
        usi: "USI_LimitStrength",
        uci: "UCI_LimitStrength",
        ty: Type::Check(false),
        help: "plays at the level UCI_Elo (USI_Elo) names instead of Skill_Level",
    },
    Decl {
        opt: Opt::Elo,
        usi: "USI_Elo",
        uci: "UCI_Elo",
        ty: Type::Spin {
            default: DEFAULT_ELO,
            min: MIN_ELO,
            max: MAX_ELO,
        },
        help: "with UCI_LimitStrength: a strength, played at the skill level whose measured \
               rating is nearest (2850 is full strength)",
    },
    Decl {
        opt: Opt::ShowWdl,
        usi: "USI_ShowWDL",
        uci: "UCI_ShowWDL",
        ty: Type::Check(false),
        help: "info lines add `wdl W D L`: win, draw and loss per mille for the side to \
               move, from the variant's model",
    },
    Decl {
        opt: Opt::Chess960,
        usi: "USI_Chess960",
        uci: "UCI_Chess960",
        ty: Type::Check(false),
        help: "accepted for pychess's client, which always sends it; only false (no \
               variant has castling)",
    },
    Decl {
        opt: Opt::VariantPath,
        usi: "VariantPath",
        uci: "VariantPath",
        ty: Type::Text("<empty>"),
        help: "accepted for the reference engine's clients and ignored: the variants are \
               built in",
    },
    Decl {
        opt: Opt::Contempt,
        usi: "Contempt",
        uci: "Contempt",
        ty: Type::Spin {
            default: DEFAULT_CONTEMPT,
            min: CONTEMPT_RANGE.0,
            max: CONTEMPT_RANGE.1,
        },
        help: "centipawns a draw is worth less than an even position to the engine's side \
               (more to its opponent's) in its searches; below 0 it plays for the draw; \
               off with USI_AnalyseMode",
    },
];

/// The option a `setoption` names: by its USI or its UCI name, in either mode, compared as
/// the protocol crate compares names ([`same_option_name`]: any case, a space for `_`, the
/// `USI_`/`UCI_` prefix optional), the rule the match runner checks names by.
pub(crate) fn find(name: &str) -> Option<&'static Decl> {
    OPTIONS
        .iter()
        .find(|d| same_option_name(d.usi, name) || same_option_name(d.uci, name))
}

impl Decl {
    /// The option's name in the protocol spoken.
    pub fn name(&self, uci: bool) -> &'static str {
        if uci {
            self.uci
        } else {
            self.usi
        }
    }

    /// Reads a `setoption` value for this option; `name` is the name as sent, for the
    /// message. The protocol's reading of its type ([`OptionType::read_value`]), except that
    /// a combo takes any word here: the session checks it, knowing every name and alias.
    pub fn read(&self, name: &str, value: Option<&str>) -> Result<OptionValue, OptionError> {
        let ty = match self.ty {
            Type::Check(d) => OptionType::Check(d),
            Type::Spin { default, min, max } => OptionType::Spin { default, min, max },
            Type::Combo(_) | Type::Text(_) => OptionType::String(String::new()),
            Type::Button => OptionType::Button,
        };
        ty.read_value(name, value)
    }

    /// The option's declaration in the handshake.
    pub fn declaration(&self, uci: bool, shown: &Shown) -> OptionDecl {
        let kind = match self.ty {
            Type::Check(d) => OptionType::Check(d),
            Type::Spin { default, min, max } => OptionType::Spin { default, min, max },
            Type::Combo(choices) => {
                let (default, vars) = choices(shown);
                OptionType::Combo { default, vars }
            }
            Type::Button => OptionType::Button,
            Type::Text(d) => OptionType::String(d.to_string()),
        };
        OptionDecl {
            name: self.name(uci).to_string(),
            kind,
        }
    }

    /// The option's values as the help text shows them.
    fn values(&self) -> String {
        match self.ty {
            Type::Check(d) => format!("true or false, default {d}"),
            Type::Spin { default, min, max } => format!("{min} to {max}, default {default}"),
            Type::Combo(_) => "a word of the list `usi` shows".to_string(),
            Type::Button => "a button".to_string(),
            Type::Text(_) => "text".to_string(),
        }
    }
}

/// The answer to `usi` or `uci`: the `id` and `option` lines and `usiok` (or `uciok`).
pub(crate) fn handshake(protocol: Protocol, shown: &Shown) -> Vec<EngineMessage> {
    let uci = protocol == Protocol::Uci;
    let mut lines = vec![
        EngineMessage::IdName(format!("kshogi {}", env!("CARGO_PKG_VERSION"))),
        EngineMessage::IdAuthor("The kshogi developers".to_string()),
    ];
    lines.extend(
        OPTIONS
            .iter()
            .map(|d| EngineMessage::Option(d.declaration(uci, shown))),
    );
    lines.push(if uci {
        EngineMessage::UciOk
    } else {
        EngineMessage::UsiOk
    });
    lines
}

/// The option list of `kshogi usi --help`: each option's USI name (and UCI name when it
/// differs), its values and what it changes.
pub(crate) fn help_text() -> String {
    let mut s = String::from("Options (USI name / UCI name: values; effect):\n");
    for d in OPTIONS {
        let names = if d.usi == d.uci {
            d.usi.to_string()
        } else {
            format!("{} / {}", d.usi, d.uci)
        };
        let _ = writeln!(s, "  {names}: {}; {}", d.values(), d.help);
    }
    s
}

#[cfg(test)]
mod tests;
