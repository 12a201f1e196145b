//! The conformance suite: what every registered variant must satisfy, checked for each entry
//! of [`VariantKind::ALL`] through [`with_variant!`]. Nothing here names a variant, so a
//! newly registered variant is covered without an edit to this suite.
//!
//! - **Reference perft** ([`reference`]): every row of `perft/reference.tsv` (counts of
//!   independent implementations) whose variant is registered gives the same count; a row
//!   naming an unknown variant, or a registered variant without rows, fails. Rows up to
//!   [`reference::QUICK_LIMIT`] nodes run by default; the rest are the `#[ignore]`d deep
//!   tier (`cargo test --release -p kshogi-conformance --test conformance -- --include-ignored`).
//! - **Random games** ([`games`]): seeded random games from the start and from positions
//!   after random moves. At every position: the SFEN round trip (equal position, hash and
//!   text), the incremental hash against the hash from scratch, the move count against the
//!   move list, every move's canonical USI text read back to the same move (and no two moves
//!   sharing a text), make/unmake restoring position and hash, perft 2 against making each
//!   move and counting the replies, and "no legal move" exactly when there is an outcome.
//!   Each game: the KIF round trip (start, moves, final position, outcome) and the game's
//!   outcome against the last position's or a repetition.
//! - **USI** ([`usi`]): bounded in-process sessions of the USI loop (`usi`, `isready`,
//!   `go depth 2` from the start, `go nodes 200` after the answer), also after switching to
//!   the variant with `setoption name USI_Variant`; every `bestmove` must be legal.
//! - **Engine** ([`engine`]): a depth-2 search from the start gives legal lines, and the
//!   evaluation of the start equals that of its colour-mirrored position.
//!
//! Every failure names the variant, the position (SFEN) and the move where there is one;
//! a test collects all failures of all variants before it panics.

use kshogi_registry::VariantKind;

#[path = "conformance/engine.rs"]
mod engine;
#[path = "conformance/games.rs"]
mod games;
#[path = "conformance/reference.rs"]
mod reference;
#[path = "conformance/usi.rs"]
mod usi;

/// The most failures printed per variant (all are counted).
const MAX_SHOWN: usize = 25;

/// The failures of one variant in one test.
pub struct Failures {
    variant: &'static str,
    count: usize,
    shown: Vec<String>,
}

impl Failures {
    fn new(variant: &'static str) -> Failures {
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

    /// The number of failures so far.
    pub fn count(&self) -> usize {
        self.count
    }
}

/// Runs `test` for every registered variant, then panics with every failure, by variant.
pub fn for_each_variant(test: &str, mut run: impl FnMut(VariantKind, &mut Failures)) {
    let mut report = String::new();
    let mut total = 0;
    for &kind in VariantKind::ALL {
        let mut f = Failures::new(kind.name());
        run(kind, &mut f);
        total += f.count;
        append(&mut report, &f);
    }
    assert!(total == 0, "{test}: {total} failures\n{report}");
}

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

/// A small seeded generator (splitmix64): the same seed gives the same games everywhere.
pub struct Rng(u64);

impl Rng {
    /// A generator for one variant: the seed mixed with the variant's name, so that each
    /// variant plays its own games without the suite naming any.
    pub fn for_variant(seed: u64, name: &str) -> Rng {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in name.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        Rng(seed ^ h)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (which must not be 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
