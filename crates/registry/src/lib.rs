//! # kshogi-registry
//!
//! The variants as the engine-level front ends see them: the list of `kshogi-variants`
//! (re-exported here: [`VariantKind`], [`with_variant!`], [`VariantKind::SOLVABLE`]) joined
//! with what each variant's line attaches to it, which needs the engine, the tuned
//! evaluations and the solver. A variant is registered by one line in
//! `kshogi-variants` (`crates/variants/src/lib.rs`): its name, its type, its evaluator (a
//! tuned one, or the engine's [`PieceTableEval`](kshogi_engine::PieceTableEval) derived from
//! the piece table), for a variant the solver can index `index` and the solver's index type,
//! and its `wdl(scale, margin)`. This crate reads the same line:
//!
//! - [`Registered`]: what every registered variant offers beyond [`kshogi_core::Variant`]
//!   (its evaluator and its win/draw/loss model), and [`EngineFor`], the engine of a variant
//!   with that evaluator; [`wdl`], the model of a runtime [`VariantKind`];
//! - [`with_index!`]: the solver's index of the variants in [`VariantKind::SOLVABLE`]
//!   (`kshogi_solver::Indexed`), so that `kshogi solve` and the database lookups name no
//!   variant;
//! - [`select`] and [`kif_variant`]: a variant chosen from a position (by its board size,
//!   then by which variants read it) or from a KIF header, which need notation.
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
//! The registry sits above the variant list, notation, the engine, the tuned evaluations and
//! the solver (for the index types only), and below the front ends (the command line, the
//! USI loop, the tuner, the fuzz targets). It must not depend on the command line or the USI
//! loop, and no crate below it may depend on it. A crate that needs only the list and the
//! dispatch (the match runner) depends on `kshogi-variants` instead, and compiles neither
//! the engine nor the solver.

pub use kshogi_variants::{types, with_variant, UnknownVariant, VariantKind};

use kshogi_engine::eval::Tunable;
use kshogi_engine::{Engine, WdlModel};
use kshogi_notation::kif::KifError;
use kshogi_notation::{board_shape, lishogi_url, parse_game, SfenError};

/// What a registered variant offers beyond its rules: the evaluator its searches use.
pub trait Registered: kshogi_core::Variant {
    /// The evaluation of this variant's searches: an [`Evaluator`](kshogi_engine::Evaluator)
    /// with the linear evaluation that the evaluation tuner (`kshogi-tune`) fits
    /// ([`Tunable::Linear`], [`LinearOf`]): itself for a linear evaluator, the fallback of a
    /// learned net.
    type Eval: Tunable<Self>;
    /// The variant's win/draw/loss model for its evaluator's scores: the one model that
    /// `UCI_ShowWDL`, game review and the tuner share. Fitted by the tuner to self-play
    /// results and written in the variant's line as `wdl(scale, draw_margin)`;
    /// [`WdlModel::DEFAULT`] for a variant whose line has none.
    const WDL: WdlModel;
}

/// The search engine of a registered variant, with the variant's evaluator.
pub type EngineFor<V> = Engine<V, <V as Registered>::Eval>;

/// The linear evaluation of a registered variant that the evaluation tuner fits: its
/// evaluator itself when that is linear, the net's fallback when it is a net.
pub type LinearOf<V> = <<V as Registered>::Eval as Tunable<V>>::Linear;

/// Reads the list of `kshogi-variants` (one line per variant): the [`Registered`] impls
/// and the [`with_index!`] macro. The variant's type is taken from the list crate's
/// `types`, so this crate needs no rules crate of its own.
///
/// The first token is `$`, passed through so that the macro can define a macro.
macro_rules! registry {
    ($d:tt $( $(#[doc = $doc:literal])* $id:ident => $ty:ty, $eval:ty $(, index $ix:ty)? $(, wdl($scale:literal, $margin:literal))?; )*) => {
        $( impl Registered for kshogi_variants::types::$id {
            type Eval = $eval;
            const WDL: WdlModel = __wdl_or_default!($($scale, $margin)?);
        } )*

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
    };
}

/// The model of a variant's line: its `wdl(scale, margin)`, or [`WdlModel::DEFAULT`].
macro_rules! __wdl_or_default {
    () => {
        WdlModel::DEFAULT
    };
    ($scale:literal, $margin:literal) => {
        WdlModel::new($scale, $margin)
    };
}

kshogi_variants::__variant_list!(registry!($));

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

/// The win/draw/loss model of a registered variant ([`Registered::WDL`]).
pub fn wdl(kind: VariantKind) -> WdlModel {
    with_variant!(kind, V => <V as Registered>::WDL)
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
    /// A pasted lishogi URL is wrong.
    #[error(transparent)]
    Url(#[from] kshogi_notation::PositionArgError),
    /// A pasted lishogi URL names a variant kshogi does not play (`key`, lishogi's name).
    #[error(
        "lishogi address: lishogi's variant `{key}` is not one kshogi plays ({})",
        VariantKind::names()
    )]
    UnknownLishogiVariant {
        /// lishogi's variant key in the address.
        key: String,
    },
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
                return VariantKind::from_name(key)
                    .ok_or_else(|| SelectError::UnknownLishogiVariant { key: key.clone() });
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
    kshogi_notation::kif::kif_variant(text, VariantKind::infos()).map(|i| VariantKind::ALL[i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_core::Variant;

    #[test]
    fn every_variant_has_a_usable_win_draw_loss_model() {
        for &kind in VariantKind::ALL {
            let m = wdl(kind);
            assert!(m.is_valid(), "{kind}: {m:?}");
            // A lead of a rook's worth of material must be better than even in every variant.
            let e = m.expected_score(kshogi_engine::Score::Cp(500));
            assert!(e > 0.6 && e < 1.0, "{kind}: {e}");
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
        // A lishogi address of a variant kshogi does not play is refused by its key.
        let e = select(None, "https://lishogi.org/analysis/chushogi/x_b_-_1").unwrap_err();
        assert_eq!(
            e,
            SelectError::UnknownLishogiVariant {
                key: "chushogi".into()
            }
        );
        assert_eq!(
            e.to_string(),
            format!(
                "lishogi address: lishogi's variant `chushogi` is not one kshogi plays ({})",
                VariantKind::names()
            )
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
