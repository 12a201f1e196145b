//! The search's numeric parameters: the margins, depths and constants of its selective
//! techniques, declared once in one table.
//!
//! Each parameter is a plain `i32` field of [`SearchTuning`], which the search copies once
//! per search and reads as a field (no lookup by name, no allocation per node). The same
//! declaration gives [`SearchTuning::TABLE`]: each parameter's name, default, range and
//! SPSA step, which the tuner (`kshogi-tune spsa`) perturbs and which
//! [`SearchTuning::validate`] checks. A variant's values are part of its evaluator's
//! [`crate::SearchParams`] (the field `tuning`), beside the switches; an engine can be given
//! others at run time ([`crate::Engine::set_tuning`]), which is how the tuner plays one set
//! against another in one process.
//!
//! The defaults are the constants the search had before they became parameters, each
//! chosen by hand or by the SPRTs of docs/strength.md; [`SearchTuning::DEFAULT`] searches
//! exactly as that search did (the bench signature is the same).

use std::fmt;

/// One numeric parameter of the search, as [`SearchTuning::TABLE`] declares it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Tunable {
    /// Its name: the field of [`SearchTuning`].
    pub name: &'static str,
    /// The default ([`SearchTuning::DEFAULT`]).
    pub default: i32,
    /// The smallest value the search accepts.
    pub min: i32,
    /// The largest value the search accepts.
    pub max: i32,
    /// The SPSA step: a change of the value that should make a small but measurable
    /// difference (the tuner's perturbation at its first iteration, with `c` = 1).
    pub step: i32,
    /// What it is.
    pub doc: &'static str,
}

impl Tunable {
    /// `value` if it is within this parameter's range, else the error naming both.
    pub fn check(&self, value: i32) -> Result<i32, TuningError> {
        if value < self.min || value > self.max {
            return Err(TuningError::OutOfRange {
                name: self.name,
                value,
                min: self.min,
                max: self.max,
            });
        }
        Ok(value)
    }
}

/// Why a set of search parameters is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TuningError {
    /// No parameter has this name.
    Unknown {
        /// The name given.
        name: String,
    },
    /// A value outside its parameter's range.
    OutOfRange {
        /// The parameter.
        name: &'static str,
        /// The value given.
        value: i32,
        /// The smallest value allowed.
        min: i32,
        /// The largest value allowed.
        max: i32,
    },
}

impl fmt::Display for TuningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuningError::Unknown { name } => {
                let all: Vec<&str> = SearchTuning::TABLE.iter().map(|t| t.name).collect();
                write!(
                    f,
                    "unknown search parameter `{name}` (one of {})",
                    all.join(", ")
                )
            }
            TuningError::OutOfRange {
                name,
                value,
                min,
                max,
            } => write!(
                f,
                "search parameter `{name}` is {value}, outside its range {min}..={max}"
            ),
        }
    }
}

impl std::error::Error for TuningError {}

/// Declares [`SearchTuning`], its default and its table from one list.
macro_rules! search_tuning {
    ($( $(#[doc = $doc:literal])+ $name:ident: $default:expr, $min:expr, $max:expr, $step:expr; )*) => {
        /// The search's numeric parameters (see the [module](self) documentation): the
        /// margins and depths of its selective techniques. A parameter of a technique that
        /// is off ([`crate::SearchParams`]) changes nothing.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub struct SearchTuning {
            $( $(#[doc = $doc])+ pub $name: i32, )*
        }

        impl SearchTuning {
            /// The values every variant uses unless its evaluator says otherwise: the
            /// constants of the search before they were parameters.
            pub const DEFAULT: SearchTuning = SearchTuning { $( $name: $default, )* };

            /// Every parameter, in the order of the fields: name, default, range, SPSA
            /// step.
            pub const TABLE: &'static [Tunable] = &[ $( Tunable {
                name: stringify!($name),
                default: $default,
                min: $min,
                max: $max,
                step: $step,
                doc: concat!($($doc),+),
            }, )* ];

            /// The values in the order of [`SearchTuning::TABLE`].
            pub fn values(&self) -> Vec<i32> {
                vec![ $( self.$name ),* ]
            }

            /// The value of the parameter called `name`, if there is one.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $( stringify!($name) => Some(self.$name), )*
                    _ => None,
                }
            }

            /// These values with the parameter `name` set to `value` (checked against its
            /// range).
            pub fn with(mut self, name: &str, value: i32) -> Result<SearchTuning, TuningError> {
                let spec = Self::spec(name)?;
                spec.check(value)?;
                match name {
                    $( stringify!($name) => self.$name = value, )*
                    _ => unreachable!("`spec` found the name"),
                }
                Ok(self)
            }
        }
    };
}

search_tuning! {
    /// Reverse futility pruning: up to this depth, a node whose static evaluation exceeds
    /// beta by `rfp_margin` per ply of depth returns it.
    rfp_depth: 6, 1, 16, 1;
    /// Reverse futility pruning's margin, centipawns per ply of depth.
    rfp_margin: 100, 10, 600, 10;
    /// Null-move pruning: the reduction is `null_base + depth / null_depth_div` plies, plus
    /// one per `null_eval_div` centipawns of static evaluation above beta (at most two).
    null_base: 3, 1, 8, 1;
    /// See `null_base`.
    null_depth_div: 4, 1, 16, 1;
    /// See `null_base` (centipawns).
    null_eval_div: 200, 20, 1000, 20;
    /// From this depth on, a null-move cutoff is verified by a reduced search without null
    /// moves.
    null_verify_depth: 10, 2, 40, 1;
    /// Reverse futility and null-move pruning only at nodes whose beta lies within this
    /// many centipawns of a draw (either way): beyond it the game is decided, and the search
    /// looks for the mate instead of trusting the static evaluation, which cannot tell a
    /// lost position from a mated one. The default leaves only mate scores out. Futility
    /// pruning stops beyond it too (the default, above every score, never stops it).
    prune_beta_limit: 32000, 200, 32000, 100;
    /// Futility pruning: up to this depth, a quiet move that does not give check is skipped
    /// when the static evaluation plus `futility_margin` per ply of depth is at most alpha.
    futility_depth: 3, 0, 12, 1;
    /// Futility pruning's margin, centipawns per ply of depth.
    futility_margin: 150, 10, 800, 10;
    /// Late move pruning: up to this depth, the quiet moves that do not give check after
    /// the first `lmp_base + depth * depth` quiet ones are skipped.
    lmp_depth: 4, 0, 12, 1;
    /// See `lmp_depth`.
    lmp_base: 3, 0, 20, 1;
    /// Logarithmic late move reductions: `lmr_base / 100 + ln depth * ln n / (lmr_divisor /
    /// 100)` plies for the `n`-th move (hundredths of a ply).
    lmr_base: 75, -100, 300, 10;
    /// See `lmr_base` (hundredths).
    lmr_divisor: 225, 50, 800, 15;
    /// Late move reductions with `lmr_extras`: a quiet move's reduction changes by one ply
    /// per this much history (at most two plies either way).
    history_reduction_unit: 6000, 500, 40000, 500;
    /// History pruning: up to this depth, quiet moves with a bad history are skipped.
    history_prune_depth: 3, 0, 12, 1;
    /// History pruning: the history below which a quiet move is skipped, per ply of depth.
    history_prune_margin: 2000, 100, 20000, 200;
    /// Static-exchange pruning: up to this depth, at non-PV nodes, moves that lose material
    /// by static exchange evaluation are skipped.
    see_depth: 6, 0, 16, 1;
    /// Static-exchange pruning: captures are skipped when their exchange loses more than
    /// this per ply of depth (centipawns).
    see_capture_margin: 100, 10, 600, 10;
    /// Static-exchange pruning: quiet moves are skipped when their exchange loses more than
    /// this per square of depth (centipawns).
    see_quiet_margin: 25, 1, 200, 3;
    /// Internal iterative reduction from this depth on.
    iir_depth: 4, 2, 16, 1;
    /// Singular extension from this depth on.
    singular_depth: 6, 2, 20, 1;
    /// The singular search's margin below the stored score, per ply of depth (centipawns).
    singular_margin: 2, 0, 20, 1;
    /// Correction history (with `correction_history`): the share, in percent, of the mean
    /// of the two tables' corrections added to the static evaluation.
    correction_weight: 100, 0, 400, 10;
    /// Aspiration windows from this iteration depth on.
    aspiration_depth: 5, 1, 20, 1;
    /// The aspiration window's first half width (centipawns), doubled at each fail.
    aspiration_delta: 25, 5, 300, 5;
    /// Contempt: a draw (by repetition or by the rules) is worth this much less than an
    /// even position to the side to move at the root, and as much more to its opponent
    /// (centipawns; 0 scores every draw as even, below 0 the root's side plays for it).
    contempt: 0, -200, 200, 5;
}

impl SearchTuning {
    /// The table's entry of the parameter called `name`.
    pub fn spec(name: &str) -> Result<&'static Tunable, TuningError> {
        Self::TABLE
            .iter()
            .find(|t| t.name == name)
            .ok_or_else(|| TuningError::Unknown {
                name: name.to_string(),
            })
    }

    /// Whether every value is within its range; the first that is not is the error.
    pub fn validate(&self) -> Result<(), TuningError> {
        for (spec, value) in Self::TABLE.iter().zip(self.values()) {
            spec.check(value)?;
        }
        Ok(())
    }

    /// The parameters whose values differ from `other`'s: name, this value, `other`'s.
    pub fn differences(&self, other: &SearchTuning) -> Vec<(&'static str, i32, i32)> {
        Self::TABLE
            .iter()
            .zip(self.values().into_iter().zip(other.values()))
            .filter(|(_, (a, b))| a != b)
            .map(|(t, (a, b))| (t.name, a, b))
            .collect()
    }
}

impl Default for SearchTuning {
    fn default() -> Self {
        SearchTuning::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_matches_the_fields_and_the_defaults_are_in_range() {
        let d = SearchTuning::DEFAULT;
        assert_eq!(SearchTuning::TABLE.len(), d.values().len());
        for (t, v) in SearchTuning::TABLE.iter().zip(d.values()) {
            assert_eq!(t.default, v, "{}", t.name);
            assert_eq!(d.get(t.name), Some(v), "{}", t.name);
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert!(t.step > 0 && t.step <= t.max - t.min, "{}", t.name);
            assert!(!t.doc.is_empty(), "{}", t.name);
        }
        assert_eq!(d.validate(), Ok(()));
        // The divisors of the search are never zero within the ranges.
        for name in ["null_depth_div", "null_eval_div", "lmr_divisor"] {
            assert!(SearchTuning::spec(name).unwrap().min > 0, "{name}");
        }
    }

    #[test]
    fn the_defaults_are_the_search_s_old_constants() {
        // The constants the search had before they were parameters (docs/strength.md
        // describes each with these numbers).
        let d = SearchTuning::DEFAULT;
        assert_eq!((d.rfp_depth, d.rfp_margin), (6, 100));
        assert_eq!((d.futility_depth, d.futility_margin), (3, 150));
        assert_eq!((d.lmp_depth, d.lmp_base), (4, 3));
        assert_eq!((d.lmr_base, d.lmr_divisor), (75, 225));
        assert_eq!(
            (d.see_depth, d.see_capture_margin, d.see_quiet_margin),
            (6, 100, 25)
        );
        assert_eq!((d.history_prune_depth, d.history_prune_margin), (3, 2000));
        assert_eq!(
            (
                d.null_base,
                d.null_depth_div,
                d.null_eval_div,
                d.null_verify_depth
            ),
            (3, 4, 200, 10)
        );
        assert_eq!((d.aspiration_depth, d.aspiration_delta), (5, 25));
    }

    #[test]
    fn set_by_name_checks_names_and_ranges() {
        let t = SearchTuning::DEFAULT.with("rfp_margin", 140).unwrap();
        assert_eq!(t.rfp_margin, 140);
        assert_eq!(
            t.differences(&SearchTuning::DEFAULT),
            vec![("rfp_margin", 140, 100)]
        );
        let e = SearchTuning::DEFAULT.with("nope", 1).unwrap_err();
        assert_eq!(
            e,
            TuningError::Unknown {
                name: "nope".into()
            }
        );
        assert!(e.to_string().contains("unknown search parameter `nope`"));
        assert!(e.to_string().contains("rfp_margin"));
        let e = SearchTuning::DEFAULT.with("lmr_divisor", 0).unwrap_err();
        assert!(matches!(
            e,
            TuningError::OutOfRange {
                name: "lmr_divisor",
                value: 0,
                ..
            }
        ));
        let bad = SearchTuning {
            futility_margin: -5,
            ..SearchTuning::DEFAULT
        };
        assert!(bad
            .validate()
            .unwrap_err()
            .to_string()
            .contains("`futility_margin` is -5"));
    }
}
