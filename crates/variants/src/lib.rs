//! # kshogi-variants
//!
//! The one list of kshogi's variants, and the dispatch to them. Each variant is one line of
//! the list in [`__variant_list!`] below: the name of its [`VariantKind`], its type (a rules
//! crate's [`kshogi_core::Variant`]), and what the engine-level registry
//! (`kshogi-registry`) attaches to it: its evaluator, for a variant the solver can index
//! `index` and the solver's index type, and its win/draw/loss model `wdl(scale, margin)`.
//! This crate reads only the name, the type and whether there is an index; the rest of the
//! line is handed to the registry, which reads it in its own crate.
//!
//! - [`VariantKind`]: a variant chosen at run time, with its names, aliases, KIF handicap
//!   names and board shape ([`VariantKind::info`]), found by name ([`VariantKind::parse`]);
//! - [`with_variant!`]: the one dispatch from a runtime [`VariantKind`] to code monomorphised
//!   for the variant's type, so that no front end matches on the list of variants;
//! - [`VariantKind::SOLVABLE`]: the variants whose line has an index (the registry's
//!   `with_index!` gives the index type).
//!
//! ```
//! use kshogi_core::{perft, Position};
//! use kshogi_variants::{with_variant, VariantKind};
//!
//! let kind = VariantKind::parse("kyotoshogi").unwrap();
//! let nodes = with_variant!(kind, V => perft(&mut Position::<V>::start(), 2));
//! assert_eq!(nodes, 137); // the reference count (perft/reference.tsv)
//! ```
//!
//! The crate sits just above core and the rules crates, so that a crate that needs only the
//! list and the dispatch (the match runner) compiles nothing more. It must not depend on
//! notation, the engine, the tuned evaluations, the solver or any front end (`cargo xtask
//! tidy` checks that it pulls in none of the engine, the tuned evaluations or the solver);
//! choosing a variant from a position or a KIF header, which needs notation, is the
//! registry's (`kshogi_registry::select`, `kshogi_registry::kif_variant`).

use kshogi_core::VariantInfo;

/// The registered variants, one line each, handed to a macro: `__variant_list!(m!(tokens))`
/// expands to `m! { tokens <the lines> }`. This crate reads the list with `variants!` below
/// and `kshogi-registry` with its own macro; that is how one line here registers a variant
/// for both. A line is
///
/// `Name => rules_crate::Type, evaluator type [, index solver index type] [, wdl(scale,
/// margin)];`
///
/// with doc comments before it. The evaluator, the index and the WDL model are paths and
/// numbers that only `kshogi-registry` resolves; this crate never names them in code.
#[doc(hidden)]
#[macro_export]
macro_rules! __variant_list {
    ($callback:ident ! ( $($before:tt)* )) => {
        // The `wdl(scale, margin)` of each line is the win/draw/loss model fitted by the
        // tuner to self-play results (`cargo xtask tune --variant V --games N`,
        // docs/tuning.md).
        $callback! { $($before)*
            /// Kyoto Shogi, 5x5: every move of a piece turns it over.
            Kyoto => kshogi_rules_kyoto::Kyoto, kshogi_tuned_eval::KyotoNnueEval, wdl(534.0, 30.0);
            /// Micro Shogi, 4x5: a piece turns over when it captures.
            Micro => kshogi_rules_micro::Micro, kshogi_tuned_eval::MicroNnueEval, wdl(435.0, 36.0);
            /// Kinzoku Shogi, 3x5: no drops, king entry and the bare-king countdown.
            Kinzoku => kshogi_rules_kinzoku::Kinzoku, kshogi_tuned_eval::KinzokuEval,
                index kshogi_solver::KinzokuIndex, wdl(97.0, 219.0);
            /// Minishogi (5五将棋), 5x5: standard shogi pieces, promotion and drop rules.
            Minishogi => kshogi_rules_minishogi::Minishogi, kshogi_tuned_eval::MinishogiNnueEval,
                wdl(700.0, 45.0);
            /// Dobutsu Shogi, 3x4: no check rule; capture the lion or complete a try.
            Dobutsu => kshogi_rules_dobutsu::Dobutsu, kshogi_tuned_eval::DobutsuEval,
                index kshogi_solver::DobutsuIndex, wdl(542.0, 553.0);
            /// Tori Shogi (禽将棋), 7x7: birds, ranged slides, compulsory promotion, and the
            /// side completing a repetition loses.
            Tori => kshogi_rules_tori::Tori, kshogi_engine::PieceTableEval;
        }
    };
}

/// Declares the registered variants from the list: the [`VariantKind`] enum, the variants'
/// summaries and the [`with_variant!`] macro. The evaluator, the index type and the WDL
/// model are matched as tokens and never used here.
///
/// The first token is `$`, passed through so that the macro can define a macro.
macro_rules! variants {
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

            /// The variants the solver has an index for (`kshogi solve` builds their
            /// databases; the registry's `with_index!` gives the index type), in the order
            /// of the registry.
            pub const SOLVABLE: &'static [VariantKind] = &[ $( $( { let _ = stringify!($ix); VariantKind::$id }, )? )* ];
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

__variant_list!(variants!($));

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

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_core::Variant;

    #[test]
    fn names_and_aliases() {
        assert_eq!(VariantKind::parse("kyoto"), Ok(VariantKind::Kyoto));
        assert_eq!(VariantKind::parse("KinzokuShogi"), Ok(VariantKind::Kinzoku));
        assert_eq!(VariantKind::parse("micro-shogi"), Ok(VariantKind::Micro));
        let e = VariantKind::parse("chess").unwrap_err();
        for kind in VariantKind::ALL {
            assert!(e.to_string().contains(kind.name()), "{kind}: {e}");
        }
        assert_eq!("dobutsu".parse(), Ok(VariantKind::Dobutsu));
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
    fn dispatch_reaches_each_variant() {
        for &kind in VariantKind::ALL {
            let name = with_variant!(kind, V => <V as Variant>::NAME);
            assert_eq!(name, kind.name());
        }
    }

    #[test]
    fn shapes_come_from_the_rules_crates() {
        // The board sizes of docs/rules.md: Kyoto and Minishogi 5x5, Micro 4x5, Kinzoku
        // 3x5, Dobutsu 3x4.
        assert_eq!(VariantKind::Kyoto.shape(), (5, 5));
        assert_eq!(VariantKind::Micro.shape(), (4, 5));
        assert_eq!(VariantKind::Kinzoku.shape(), (3, 5));
        assert_eq!(VariantKind::Dobutsu.shape(), (3, 4));
        // Kyoto and Minishogi share 5x5, in the registry's order; other variants may be
        // registered with that size too.
        let five = VariantKind::with_shape(5, 5);
        let at = |k| five.iter().position(|&f| f == k);
        assert!(
            at(VariantKind::Kyoto) < at(VariantKind::Minishogi),
            "{five:?}"
        );
        assert!(at(VariantKind::Kyoto).is_some(), "{five:?}");
        // Every variant is listed under its own size and no other, in the registry's order,
        // and some size up to 9x9 has none (so that a board no variant has is found, not
        // named, by the tests that need one).
        let mut listed = 0;
        let mut none = 0;
        for w in 1..=9 {
            for h in 1..=9 {
                let kinds = VariantKind::with_shape(w, h);
                assert!(kinds.iter().all(|k| k.shape() == (w, h)), "{w}x{h}");
                assert!(kinds.windows(2).all(|p| (p[0] as usize) < (p[1] as usize)));
                listed += kinds.len();
                none += usize::from(kinds.is_empty());
            }
        }
        assert_eq!(listed, VariantKind::ALL.len());
        assert!(none > 0);
    }

    #[test]
    fn the_solvable_variants_are_the_lines_with_an_index() {
        // Kinzoku and Dobutsu, the two variants the solver indexes (docs/kinzoku-solution.md,
        // docs/dobutsu-solution.md).
        assert_eq!(
            VariantKind::SOLVABLE,
            [VariantKind::Kinzoku, VariantKind::Dobutsu]
        );
    }
}
