//! # kshogi-registry
//!
//! The one place that lists kshogi's variants. Each variant is one line of the
//! `registry!` invocation below: the name of its [`VariantKind`], its type (a rules crate's
//! [`kshogi_core::Variant`]), its evaluator (a tuned one, or the engine's
//! [`PieceTableEval`](kshogi_engine::PieceTableEval) derived from the piece table) and, for a
//! variant the solver can index, `index` and the solver's index type.
//! Everything a front end needs to stay generic comes from here:
//!
//! - [`VariantKind`]: a variant chosen at run time, with its names, aliases, KIF handicap
//!   names and board shape ([`VariantKind::info`]), found by name ([`VariantKind::parse`]),
//!   by the board of a position ([`select`]) or by a KIF header ([`kif_variant`]);
//! - [`with_variant!`]: the one dispatch from a runtime [`VariantKind`] to code monomorphised
//!   for the variant's type, so that no front end matches on the list of variants;
//! - [`Registered`]: what every registered variant offers beyond [`kshogi_core::Variant`]
//!   (its evaluator), and [`EngineFor`], the engine of a variant with that evaluator;
//! - [`with_index!`] and [`VariantKind::SOLVABLE`]: the variants small enough for the
//!   retrograde solver, each with its index (`kshogi_solver::Indexed`), so that `kshogi solve`
//!   and the database lookups name no variant.
//!
//! ```
//! use kshogi_core::{perft, Position};
//! use kshogi_registry::{with_variant, VariantKind};
//!
//! let kind = VariantKind::parse("kyotoshogi").unwrap();
//! let nodes = with_variant!(kind, V => perft(&mut Position::<V>::start(), 2));
//! assert_eq!(nodes, 137); // the reference count (perft/reference.tsv)
//! ```
//!
//! The registry sits above the rules crates, notation, the engine and the solver (for the
//! index types only), and below the front ends (the command line, the USI loop, the fuzz
//! targets). It must not depend on the command line or the USI loop, and no crate below it
//! may depend on it.

use kshogi_core::{Variant, VariantInfo};
use kshogi_engine::eval::Linear;
use kshogi_engine::{Engine, WdlModel};
use kshogi_notation::kif::KifError;
use kshogi_notation::{board_shape, lishogi_url, parse_game, SfenError};

/// What a registered variant offers beyond its rules: the evaluator its searches use.
pub trait Registered: Variant {
    /// The evaluation of this variant: an [`Evaluator`](kshogi_engine::Evaluator) in the
    /// linear form that the evaluation tuner (`kshogi-tune`) fits.
    type Eval: Linear<Self>;
    /// The variant's win/draw/loss model for its evaluator's scores: the one model that
    /// `UCI_ShowWDL`, game review and the tuner share. Fitted by the tuner to self-play
    /// results and written in the registry line as `wdl(scale, draw_margin)`;
    /// [`WdlModel::DEFAULT`] for a variant whose line has none.
    const WDL: WdlModel;
}

/// The search engine of a registered variant, with the variant's evaluator.
pub type EngineFor<V> = Engine<V, <V as Registered>::Eval>;

/// Declares the registered variants: the [`VariantKind`] enum, the variants' summaries, their
/// [`Registered`] impls and the [`with_variant!`] macro, all from one list.
///
/// The first token is `$`, passed through so that the macro can define a macro.
macro_rules! registry {
    ($d:tt $( $(#[doc = $doc:literal])* $id:ident => $ty:ty, $eval:ty $(, index $ix:ty)? $(, wdl($scale:literal, $margin:literal))?; )*) => {
        /// A registered variant, chosen at run time. [`with_variant!`] turns it into the
        /// variant's type.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum VariantKind {
            $( $(#[doc = $doc])* $id, )*
        }

        /// The variants' types by the names of their [`VariantKind`]s, for [`with_variant!`].
        #[doc(hidden)]
        pub mod types {
            $( #[doc = concat!("`", stringify!($ty), "`")] pub type $id = $ty; )*
        }

        /// The summaries of the variants, in the order of [`VariantKind::ALL`].
        static INFOS: &[VariantInfo] = &[ $( VariantInfo::of::<$ty>(), )* ];

        impl VariantKind {
            /// Every registered variant, in the order of the registry.
            pub const ALL: &'static [VariantKind] = &[ $( VariantKind::$id, )* ];
        }

        $( impl Registered for $ty {
            type Eval = $eval;
            const WDL: WdlModel = __wdl_or_default!($($scale, $margin)?);
        } )*

        impl VariantKind {
            /// The variants the solver has an index for (`kshogi solve` builds their
            /// databases), in the order of the registry.
            pub const SOLVABLE: &'static [VariantKind] = &[ $( $( { let _ = stringify!($ix); VariantKind::$id }, )? )* ];
        }

        /// Runs an expression with a type alias for the solver's index
        /// ([`kshogi_solver::Indexed`]) of the variant of a [`VariantKind`]:
        /// `with_index!(kind, I => build::<I>(args))` is `Some` of the expression for a
        /// variant in [`VariantKind::SOLVABLE`], `None` for the others.
        #[macro_export]
        macro_rules! with_index {
            ($d kind:expr, $d i:ident => $d body:expr) => {
                match $d kind {
                    $( $d crate::VariantKind::$id => $d crate::__index_arm!([$($ix)?] $d i => $d body), )*
                }
            };
        }

        /// Runs an expression with a type alias for the variant of a [`VariantKind`]:
        /// `with_variant!(kind, V => run::<V>(args))`. The expression is monomorphised for
        /// each registered variant; the match on `kind` is the only dispatch.
        #[macro_export]
        macro_rules! with_variant {
            ($d kind:expr, $d v:ident => $d body:expr) => {
                match $d kind {
                    $( $d crate::VariantKind::$id => {
                        #[allow(dead_code)]
                        type $d v = $d crate::types::$id;
                        $d body
                    } )*
                }
            };
        }
    };
}

/// The model of a registry line: its `wdl(scale, margin)`, or [`WdlModel::DEFAULT`].
macro_rules! __wdl_or_default {
    () => {
        WdlModel::DEFAULT
    };
    ($scale:literal, $margin:literal) => {
        WdlModel::new($scale, $margin)
    };
}

// The `wdl(scale, margin)` of each line is the win/draw/loss model fitted by the tuner to
// self-play results (`cargo xtask tune --variant V --games N`, docs/tuning.md).
registry! { $
    /// Kyoto Shogi, 5x5: every move of a piece turns it over.
    Kyoto => kshogi_rules_kyoto::Kyoto, kshogi_tuned_eval::KyotoEval, wdl(534.0, 30.0);
    /// Micro Shogi, 4x5: a piece turns over when it captures.
    Micro => kshogi_rules_micro::Micro, kshogi_tuned_eval::MicroEval, wdl(435.0, 36.0);
    /// Kinzoku Shogi, 3x5: no drops, king entry and the bare-king countdown.
    Kinzoku => kshogi_rules_kinzoku::Kinzoku, kshogi_tuned_eval::KinzokuEval,
        index kshogi_solver::KinzokuIndex, wdl(82.0, 181.0);
    /// Minishogi (5五将棋), 5x5: standard shogi pieces, promotion and drop rules.
    Minishogi => kshogi_rules_minishogi::Minishogi, kshogi_engine::PieceTableEval,
        wdl(700.0, 45.0);
    /// Dobutsu Shogi, 3x4: no check rule; capture the lion or complete a try.
    Dobutsu => kshogi_rules_dobutsu::Dobutsu, kshogi_engine::PieceTableEval,
        index kshogi_solver::DobutsuIndex, wdl(395.0, 351.0);
}

/// One arm of [`with_index!`]: `None` for a variant without an index.
#[doc(hidden)]
#[macro_export]
macro_rules! __index_arm {
    ([] $i:ident => $body:expr) => {
        None
    };
    ([$ix:ty] $i:ident => $body:expr) => {{
        #[allow(dead_code)]
        type $i = $ix;
        Some($body)
    }};
}

/// A name that no registered variant has.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant `{name}`; expected one of {}", VariantKind::names())]
pub struct UnknownVariant {
    /// The name given.
    pub name: String,
}

impl VariantKind {
    /// The summaries of every registered variant (names, aliases, KIF names, board shape),
    /// in the order of [`VariantKind::ALL`], as notation's run-time choices take them.
    pub fn infos() -> &'static [VariantInfo] {
        INFOS
    }

    /// The summary of this variant.
    pub fn info(self) -> &'static VariantInfo {
        &INFOS[self as usize]
    }

    /// The short name (`kyoto`), as on the command line and in `USI_Variant`.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The name for people (`Kyoto Shogi`).
    pub fn display_name(self) -> &'static str {
        self.info().display_name
    }

    /// The variant's win/draw/loss model ([`Registered::WDL`]).
    pub fn wdl(self) -> WdlModel {
        with_variant!(self, V => <V as Registered>::WDL)
    }

    /// Board (width, height).
    pub fn shape(self) -> (u8, u8) {
        let g = self.info().geometry;
        (g.width, g.height)
    }

    /// The variant with this name or alias (`kyoto`, `KyotoShogi`, `kyoto-shogi`), ignoring
    /// ASCII case.
    pub fn from_name(name: &str) -> Option<VariantKind> {
        Self::ALL.iter().copied().find(|k| k.info().is_named(name))
    }

    /// [`VariantKind::from_name`], with an error that lists the known names.
    pub fn parse(name: &str) -> Result<VariantKind, UnknownVariant> {
        Self::from_name(name).ok_or_else(|| UnknownVariant {
            name: name.to_string(),
        })
    }

    /// The short names of every variant, joined by `, ` (for help texts and messages).
    pub fn names() -> String {
        Self::ALL
            .iter()
            .map(|k| k.name())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The variants with this board shape.
    pub fn with_shape(width: u8, height: u8) -> Vec<VariantKind> {
        Self::ALL
            .iter()
            .copied()
            .filter(|k| k.shape() == (width, height))
            .collect()
    }
}

impl core::fmt::Display for VariantKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for VariantKind {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<VariantKind, UnknownVariant> {
        VariantKind::parse(s)
    }
}

/// Why [`select`] could not choose a variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelectError {
    /// The board of the position could not be read.
    #[error(transparent)]
    Sfen(#[from] SfenError),
    /// `startpos` names no board.
    #[error("`startpos` does not say which variant it is")]
    NoBoard,
    /// A pasted lishogi URL is wrong, or names a variant kshogi does not play.
    #[error(transparent)]
    Url(#[from] kshogi_notation::PositionArgError),
    /// No registered variant has a board of this size.
    #[error(
        "no variant has a {width}x{height} board; the known variants are {}",
        known_shapes()
    )]
    UnknownShape {
        /// Files.
        width: u8,
        /// Ranks.
        height: u8,
    },
}

fn known_shapes() -> String {
    VariantKind::ALL
        .iter()
        .map(|k| {
            let (w, h) = k.shape();
            format!("{} ({w}x{h})", k.name())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The variant of a position argument (`startpos` or an SFEN, optionally followed by
/// `moves ...`): `explicit` when given, otherwise the only variant whose board has the size
/// of the SFEN. When several variants share the size, the first of them in the registry's
/// order ([`VariantKind::ALL`]) in which the whole argument reads as a valid position and
/// moves: a 5x5 position is Kyoto when it is a valid Kyoto position (as it always was), and
/// Minishogi when only Minishogi reads it (its start, anything with promoted pieces or more
/// pieces than Kyoto's set holds). When none of them reads it, the first of them, so that the
/// command reports what is wrong with the position as that variant reads it.
pub fn select(explicit: Option<VariantKind>, position: &str) -> Result<VariantKind, SelectError> {
    if let Some(kind) = explicit {
        return Ok(kind);
    }
    // A lishogi URL: its variant key when it has one, else the board of its SFEN.
    let url = match lishogi_url(position).transpose()? {
        Some(url) => {
            if let Some(key) = &url.variant {
                return VariantKind::from_name(key).ok_or_else(|| {
                    SelectError::Url(kshogi_notation::PositionArgError::Url(format!(
                        "lishogi's variant `{key}` is not one kshogi plays ({})",
                        VariantKind::names()
                    )))
                });
            }
            Some(url.position)
        }
        None => None,
    };
    let position = url.as_deref().unwrap_or(position);
    let first = position.split_whitespace().next().unwrap_or("");
    if first == "startpos" {
        return Err(SelectError::NoBoard);
    }
    let (width, height) = board_shape(position)?;
    let fits = VariantKind::with_shape(width, height);
    let reads = |k: &&VariantKind| with_variant!(**k, V => parse_game::<V>(position).is_ok());
    match fits.as_slice() {
        [] => Err(SelectError::UnknownShape { width, height }),
        [one] => Ok(*one),
        many => Ok(many.iter().find(reads).copied().unwrap_or(many[0])),
    }
}

/// The variant a KIF record is for, from its `手合割` header (see
/// [`kshogi_notation::kif::kif_variant`]), among the registered variants.
pub fn kif_variant(text: &str) -> Result<VariantKind, KifError> {
    kshogi_notation::kif::kif_variant(text, INFOS).map(|i| VariantKind::ALL[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_a_usable_win_draw_loss_model() {
        for &kind in VariantKind::ALL {
            let m = kind.wdl();
            assert!(m.is_valid(), "{kind}: {m:?}");
            assert_eq!(m, with_variant!(kind, V => <V as Registered>::WDL));
            // A lead of a rook's worth of material must be better than even in every variant.
            let e = m.expected_score(kshogi_engine::Score::Cp(500));
            assert!(e > 0.6 && e < 1.0, "{kind}: {e}");
        }
    }

    #[test]
    fn names_and_aliases() {
        assert_eq!(VariantKind::parse("kyoto"), Ok(VariantKind::Kyoto));
        assert_eq!(VariantKind::parse("KinzokuShogi"), Ok(VariantKind::Kinzoku));
        assert_eq!(VariantKind::parse("micro-shogi"), Ok(VariantKind::Micro));
        let e = VariantKind::parse("chess").unwrap_err();
        assert!(e.to_string().contains("kyoto, micro, kinzoku"), "{e}");
    }

    #[test]
    fn every_variant_has_a_unique_name_and_kif_name() {
        for (i, a) in VariantKind::ALL.iter().enumerate() {
            assert_eq!(VariantKind::from_name(a.name()), Some(*a));
            assert_eq!(*a as usize, i);
            assert!(!a.info().kif_names.is_empty(), "{a}");
            for b in &VariantKind::ALL[i + 1..] {
                assert!(!b.info().is_named(a.name()), "{a} and {b}");
                for k in a.info().kif_names {
                    assert!(!b.info().is_kif_name(k), "{a} and {b} share {k}");
                }
            }
        }
    }

    #[test]
    fn board_size_picks_the_variant() {
        let cases = [
            ("pgkst/5/5/5/TSKGP b - 1", VariantKind::Kyoto),
            ("sfen kbgs/p3/4/3P/SGBK b - 1", VariantKind::Micro),
            ("cks/1i1/3/1I1/SKC b - 1 moves 2e3d", VariantKind::Kinzoku),
        ];
        for (text, kind) in cases {
            assert_eq!(select(None, text), Ok(kind), "{text}");
        }
        assert_eq!(
            select(Some(VariantKind::Micro), "startpos"),
            Ok(VariantKind::Micro)
        );
        assert_eq!(
            select(None, "startpos moves 1e1d+"),
            Err(SelectError::NoBoard)
        );
        // 5x5 is shared: the Minishogi start has more pawns and rooks than Kyoto's set, so
        // only Minishogi reads it; a position both read is Kyoto, the first registered.
        assert_eq!(
            select(None, "rbsgk/4p/5/P4/KGSBR b - 1"),
            Ok(VariantKind::Minishogi)
        );
        assert_eq!(select(None, "k4/5/1S3/5/4K b G 9"), Ok(VariantKind::Kyoto));
        assert_eq!(
            select(None, "rbsgk/4p/5/P4/KGSB+R b - 1"),
            Ok(VariantKind::Minishogi)
        );
        // Valid in neither: the first registered, whose error the command then reports.
        assert_eq!(
            select(None, "kkkkk/5/5/5/KKKKK b - 1"),
            Ok(VariantKind::Kyoto)
        );
        assert_eq!(
            select(None, "rkb/1p1/1P1/BKR b - 1"),
            Ok(VariantKind::Dobutsu)
        );
        assert_eq!(
            select(None, "6/6/6/6/6 b - 1"),
            Err(SelectError::UnknownShape {
                width: 6,
                height: 5
            })
        );
    }

    #[test]
    fn dispatch_reaches_each_variant() {
        for &kind in VariantKind::ALL {
            let name = with_variant!(kind, V => <V as Variant>::NAME);
            assert_eq!(name, kind.name());
        }
    }

    #[test]
    fn solvable_variants_have_an_index_of_their_own_variant() {
        assert_eq!(
            VariantKind::SOLVABLE
                .iter()
                .map(|k| k.name())
                .collect::<Vec<_>>(),
            ["kinzoku", "dobutsu"]
        );
        for &kind in VariantKind::ALL {
            let name = with_index!(kind, I => <<I as kshogi_solver::Indexed>::V as Variant>::NAME);
            assert_eq!(
                name.is_some(),
                VariantKind::SOLVABLE.contains(&kind),
                "{kind}"
            );
            if let Some(name) = name {
                assert_eq!(name, kind.name());
            }
        }
    }

    #[test]
    fn kif_headers_name_variants() {
        assert_eq!(
            kif_variant("# x\n手合割：五分摩訶将棋\n"),
            Ok(VariantKind::Micro)
        );
        assert_eq!(kif_variant("手合割：京都\n"), Ok(VariantKind::Kyoto));
        assert!(kif_variant("手合割：平手\n").is_err());
    }
}
