//! # kshogi-conformance
//!
//! The conformance suite: what every variant must satisfy, as generic checks over a
//! variant type, from perft to USI sessions. Its own tests (`tests/conformance.rs`) run
//! every check for each entry of the variant list through the dispatch, so that a newly
//! registered variant is covered without an edit to the suite; a crate outside kshogi runs
//! the same checks on its own variant with [`check_variant`] (see
//! `docs/adding-a-variant.md`).
//!
//! - **Perft rows** ([`perft`]): rows of a perft suite (counts of independent
//!   implementations) give the same count.
//! - **Random games** ([`games`]): seeded random games from the start and from positions
//!   after random moves. At every position: the SFEN round trip (equal position, hash and
//!   text), the incremental hash against the hash from scratch, the move count against the
//!   move list, every move's canonical USI text read back to the same move (and no two moves
//!   sharing a text), make/unmake restoring position and hash, perft 2 against making each
//!   move and counting the replies, and "no legal move" exactly when there is an outcome.
//!   Each game: the KIF round trip (start, moves, final position, outcome) and the game's
//!   outcome against the last position's or a repetition.
//! - **USI** ([`usi`]): bounded in-process sessions of the USI loop (`usi`, `isready`,
//!   `go depth 2` from the start, `go nodes 200` after the answer); every `bestmove` must be
//!   legal.
//! - **Engine** ([`engine`]): a depth-2 search from the start gives legal lines, and the
//!   evaluation of the start equals that of its colour-mirrored position.
//!
//! Every failure names the variant, the position (SFEN) and the move where there is one;
//! the checks collect all failures in a [`Failures`] before anything panics.
//!
//! This crate names no variant: it is generic over [`kshogi_registry::Registered`] (a
//! variant with its evaluator), which a variant outside the registry implements too. It
//! must not depend on the command line, and nothing in kshogi depends on it but its own
//! tests.

pub mod engine;
pub mod games;
pub mod perft;
pub mod usi;

use kshogi_core::rng::SplitMix64;
use kshogi_perft_suite::SuiteRow;
use kshogi_registry::Registered;

/// The most failures printed per variant (all are counted).
const MAX_SHOWN: usize = 25;

/// The failures of one variant in one test: the error of [`check_variant`], whose text
/// (`Display`) is [`Failures::report`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failures {
    variant: &'static str,
    count: usize,
    shown: Vec<String>,
}

impl Failures {
    /// No failures yet, of the variant named `variant`.
    pub fn new(variant: &'static str) -> Failures {
        Failures {
            variant,
            count: 0,
            shown: Vec::new(),
        }
    }

    /// Records a failure.
    pub fn fail(&mut self, message: impl Into<String>) {
        self.count += 1;
        if self.shown.len() < MAX_SHOWN {
            self.shown.push(message.into());
        }
    }

    /// Records the failure `message()` unless `ok`.
    pub fn check(&mut self, ok: bool, message: impl FnOnce() -> String) {
        if !ok {
            self.fail(message());
        }
    }

    /// The failures recorded, at most the first 25 ([`Failures::count`] counts them all).
    pub fn shown(&self) -> &[String] {
        &self.shown
    }

    /// The number of failures so far.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The failures as text: a line naming the variant and the count, then one line per
    /// failure shown; empty when there is none.
    pub fn report(&self) -> String {
        let mut report = String::new();
        append(&mut report, self);
        report
    }
}

impl std::fmt::Display for Failures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.report())
    }
}

impl std::error::Error for Failures {}

/// Appends the failures of one variant to a report.
fn append(report: &mut String, f: &Failures) {
    if f.count == 0 {
        return;
    }
    report.push_str(&format!("variant {}: {} failures\n", f.variant, f.count));
    for m in &f.shown {
        report.push_str(&format!("  [{}] {m}\n", f.variant));
    }
    if f.count > f.shown.len() {
        report.push_str(&format!(
            "  [{}] ... and {} more\n",
            f.variant,
            f.count - f.shown.len()
        ));
    }
}

/// The project's generator ([`SplitMix64`]) for one variant's random games: the seed mixed
/// with the variant's name (FNV-1a), so that each variant plays its own games without the
/// suite naming any, and the same seed gives the same games everywhere.
pub fn variant_rng(seed: u64, name: &str) -> SplitMix64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    SplitMix64::new(seed ^ h)
}

/// Runs the whole suite on `V`: its rows of `rows` (the rows whose variant column is
/// `V::NAME`; there must be at least one), the random games, the search from the start,
/// the evaluation's colour symmetry and a USI session of `V` alone. Returns the failures
/// when there is any (their text is one report, see [`Failures::report`]).
///
/// In a variant crate's tests (`examples/out-of-tree-variant/tests/conformance.rs`), here
/// with the first registered variant standing in for the variant's own type:
///
/// ```no_run
/// use kshogi_registry::{with_variant, VariantKind};
///
/// let rows = kshogi_perft_suite::parse_suite("", "perft.tsv").expect("perft.tsv reads");
/// with_variant!(VariantKind::ALL[0], MyVariant => {
///     if let Err(report) = kshogi_conformance::check_variant::<MyVariant>(&rows) {
///         panic!("{report}");
///     }
/// });
/// ```
pub fn check_variant<V: Registered>(rows: &[SuiteRow]) -> Result<(), Failures> {
    let mut f = Failures::new(V::NAME);
    let mine: Vec<&SuiteRow> = kshogi_perft_suite::rows_of::<V>(rows).collect();
    f.check(!mine.is_empty(), || {
        format!(
            "no perft row names `{}`: add rows with counts from an independent \
             implementation",
            V::NAME
        )
    });
    perft::run_rows::<V>(&mine, &mut f);
    games::random_games::<V>(&mut f);
    engine::search_from_start::<V>(&mut f);
    engine::mirror_evaluates_the_same::<V>(&mut f);
    usi::usi_session::<V>(&mut f);
    if f.count() == 0 {
        Ok(())
    } else {
        Err(f)
    }
}
