//! Checking a database without the retrograde code that built it: its entries counted
//! against its header, a sample of entries checked against their successors (the Bellman
//! equations of perfect play), and short results checked by plain exhaustive search.
//!
//! [`verify`] returns a [`VerifyReport`]; how it is shown (text, JSON) is the caller's
//! business. Progress goes to a callback, so a front end can draw bars.

use crate::db::{Probe, Summary};
use crate::generic::{self, Indexed};
use crate::value::{Entry, Value};
use kshogi_core::rng::SplitMix64;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Entries the Bellman check takes by default.
pub const DEFAULT_SAMPLE: u64 = 1_000_000;
/// Positions of each kind (wins, losses, draws) checked by exhaustive search by default.
pub const DEFAULT_SEARCH_SAMPLE: u32 = 300;
/// Longest win (plies) checked by exhaustive search.
pub const SEARCH_MAX_WIN: u16 = 7;
/// Longest loss (plies) checked by exhaustive search.
pub const SEARCH_MAX_LOSS: u16 = 6;
/// Horizon (plies) within which a draw must have no forced result.
pub const SEARCH_HORIZON: u16 = 4;
/// Bellman mismatches kept per thread (all are counted).
const KEPT_PER_THREAD: usize = 1_000;

/// Which entries the Bellman check takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Sample {
    /// Every entry of the table, in order.
    All,
    /// This many entries drawn at random (with replacement) from the seed.
    Count(u64),
}

/// A `--sample` that is neither `all` nor a positive whole number.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a number of entries (a positive whole number, or `all`)")]
pub struct SampleError(pub String);

impl std::str::FromStr for Sample {
    type Err = SampleError;

    /// `all` (in any case) or a positive whole number.
    fn from_str(text: &str) -> Result<Sample, SampleError> {
        if text.eq_ignore_ascii_case("all") {
            return Ok(Sample::All);
        }
        match text.trim().parse::<u64>() {
            Ok(n) if n > 0 => Ok(Sample::Count(n)),
            _ => Err(SampleError(text.to_string())),
        }
    }
}

/// A seed for the samples from the clock (and the process), for a check that was given
/// none: two runs check different entries.
pub fn clock_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    SplitMix64::new(t.as_nanos() as u64 ^ u64::from(std::process::id())).next_u64()
}

/// What to check, and how.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct VerifyConfig {
    /// The Bellman check's entries; a count of at least the table's size means all.
    pub sample: Sample,
    /// Seed of both random samples: the same seed checks the same entries.
    pub seed: u64,
    /// Positions of each kind (wins, losses, draws) checked by exhaustive search.
    pub search_per_kind: u32,
    /// Threads to count and check on (at least 1).
    pub threads: usize,
}

/// The stages of [`verify`], as reported to the progress callback.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Counting every entry.
    Counting,
    /// The Bellman check of the sample.
    Bellman,
    /// Exhaustive search of short results.
    Search,
}

impl Stage {
    /// A short lowercase name (`"counting"`, `"bellman"`, `"search"`).
    pub fn name(self) -> &'static str {
        match self {
            Stage::Counting => "counting",
            Stage::Bellman => "bellman",
            Stage::Search => "search",
        }
    }

    /// What the stage's progress counts (`"entries"` or `"positions"`).
    pub fn unit(self) -> &'static str {
        match self {
            Stage::Counting | Stage::Bellman => "entries",
            Stage::Search => "positions",
        }
    }
}

/// An entry that disagrees with the Bellman check.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The entry's index.
    pub index: u64,
    /// What the table holds.
    pub stored: Entry,
    /// What its successors say it must hold; `None` when a successor has no value.
    pub expected: Option<Entry>,
}

/// What [`verify`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// Entries of the table.
    pub entries: u64,
    /// The counts the header states.
    pub header: Summary,
    /// The counts of the entries themselves.
    pub counted: Summary,
    /// The Bellman check's sample ([`Sample::All`] when the count asked reached the size).
    pub sample: Sample,
    /// The seed used.
    pub seed: u64,
    /// Entries the Bellman check took.
    pub checked: u64,
    /// Entries that disagree with their successors, by index (up to a thousand per thread
    /// are kept; [`VerifyReport::bellman_mismatches`] counts them all).
    pub bellman: Vec<Mismatch>,
    /// Every Bellman disagreement, kept or not.
    pub bellman_mismatches: u64,
    /// Positions checked by exhaustive search: wins, losses, draws.
    pub searched: [u64; 3],
    /// Stored values that exhaustive search contradicts, by index.
    pub search: Vec<(u64, Value)>,
    /// Time spent counting, on the Bellman check and on the search.
    pub times: [Duration; 3],
}

impl VerifyReport {
    /// Every disagreement: the header's counts (one), the Bellman mismatches and the search
    /// mismatches.
    pub fn failures(&self) -> u64 {
        u64::from(self.header != self.counted) + self.bellman_mismatches + self.search.len() as u64
    }
}

/// Checks `table`, whose header states `header`: counts every entry, checks a sample
/// against the successors' entries and short results by exhaustive search. `progress` is
/// called with the stage, the work done and the work in all, from any thread.
///
/// Meant for a table in memory ([`crate::Loaded`], [`crate::Table`]), whose entries are
/// read without error; an entry that cannot be read counts as illegal, so it shows up as
/// a disagreement.
pub fn verify<P: Probe>(
    table: &P,
    header: Summary,
    config: VerifyConfig,
    progress: &(dyn Fn(Stage, u64, u64) + Sync),
) -> VerifyReport {
    let threads = config.threads.max(1);
    let n = table.index().len();
    let t = Instant::now();
    let counted = count_entries(table, threads, progress);
    let count_time = t.elapsed();

    let t = Instant::now();
    let sample = match config.sample {
        Sample::Count(k) if k >= n => Sample::All,
        s => s,
    };
    let (bellman, bellman_mismatches, checked) =
        bellman_check(table, sample, config.seed, threads, progress);
    let bellman_time = t.elapsed();

    let t = Instant::now();
    let (searched, search) = search_check(
        table,
        config.search_per_kind,
        config.seed,
        threads,
        progress,
    );
    let search_time = t.elapsed();
    VerifyReport {
        entries: n,
        header,
        counted,
        sample,
        seed: config.seed,
        checked,
        bellman,
        bellman_mismatches,
        searched,
        search,
        times: [count_time, bellman_time, search_time],
    }
}

/// A 64-bit hash of `x`: the first output of the generator seeded with `x`.
fn hash(x: u64) -> u64 {
    SplitMix64::new(x).next_u64()
}

/// The `k`-th random entry of the sample with `seed`, of `n` entries.
fn random_entry(seed: u64, k: u64, n: u64) -> u64 {
    hash(seed ^ hash(k)) % n
}

/// Runs `f(thread)` on `threads` threads and collects the results in thread order.
fn on_threads<T: Send>(threads: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads).map(|t| s.spawn(move || f(t))).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    })
}

/// Adds one entry to the counts.
fn tally(c: &mut Summary, e: Entry) {
    match e {
        Entry::Illegal => c.illegal += 1,
        Entry::Value(Value::Draw) => c.draws += 1,
        Entry::Value(Value::Win(d)) => {
            c.wins += 1;
            c.longest_win = c.longest_win.max(u64::from(d));
        }
        Entry::Value(Value::Loss(d)) => {
            c.losses += 1;
            c.longest_loss = c.longest_loss.max(u64::from(d));
        }
    }
}

/// Counts wins, losses, draws and illegal entries of the whole table.
fn count_entries<P: Probe>(
    table: &P,
    threads: usize,
    progress: &(dyn Fn(Stage, u64, u64) + Sync),
) -> Summary {
    let n = table.index().len();
    let done = AtomicU64::new(0);
    let per = n.div_ceil(threads as u64);
    let parts = on_threads(threads, |t| {
        let mut c = Summary::default();
        let lo = (t as u64 * per).min(n);
        let hi = (lo + per).min(n);
        for i in lo..hi {
            tally(&mut c, table.entry(i).unwrap_or(Entry::Illegal));
            if (i - lo) % (1 << 20) == (1 << 20) - 1 {
                let d = done.fetch_add(1 << 20, Ordering::Relaxed) + (1 << 20);
                progress(Stage::Counting, d, n);
            }
        }
        c
    });
    let mut total = Summary::default();
    for c in parts {
        total.wins += c.wins;
        total.losses += c.losses;
        total.draws += c.draws;
        total.illegal += c.illegal;
        total.longest_win = total.longest_win.max(c.longest_win);
        total.longest_loss = total.longest_loss.max(c.longest_loss);
    }
    progress(Stage::Counting, n, n);
    total
}

/// The Bellman check of the sample, split over the threads: (mismatches kept, mismatches
/// in all, entries checked).
fn bellman_check<P: Probe>(
    table: &P,
    sample: Sample,
    seed: u64,
    threads: usize,
    progress: &(dyn Fn(Stage, u64, u64) + Sync),
) -> (Vec<Mismatch>, u64, u64) {
    let n = table.index().len();
    let total = match sample {
        Sample::All => n,
        Sample::Count(k) => k,
    };
    let done = AtomicU64::new(0);
    let parts = on_threads(threads, |t| {
        let mut bad = Vec::new();
        let mut bad_count = 0u64;
        let mut checked = 0u64;
        for k in (t as u64..total).step_by(threads) {
            checked += 1;
            if checked % 1024 == 0 {
                let d = done.fetch_add(1024, Ordering::Relaxed) + 1024;
                progress(Stage::Bellman, d, total);
            }
            let i = match sample {
                Sample::All => k,
                Sample::Count(_) => random_entry(seed, k, n),
            };
            let stored = table.entry(i).unwrap_or(Entry::Illegal);
            let expected =
                generic::expected_entry(table.index(), i, |p| table.value(p).ok().flatten());
            if expected != Some(stored) {
                bad_count += 1;
                if bad.len() < KEPT_PER_THREAD {
                    bad.push(Mismatch {
                        index: i,
                        stored,
                        expected,
                    });
                }
            }
        }
        (bad, bad_count, checked)
    });
    progress(Stage::Bellman, total, total);
    let mut bad = Vec::new();
    let mut bad_count = 0;
    let mut checked = 0;
    for (b, c, k) in parts {
        bad.extend(b);
        bad_count += c;
        checked += k;
    }
    bad.sort_by_key(|m| m.index);
    (bad, bad_count, checked)
}

/// Picks random entries with short results (wins within [`SEARCH_MAX_WIN`] plies, losses
/// within [`SEARCH_MAX_LOSS`], draws), spread over the distances, and checks each by
/// exhaustive search. Returns the positions checked of each kind and the mismatches.
fn search_check<P: Probe>(
    table: &P,
    per_kind: u32,
    seed: u64,
    threads: usize,
    progress: &(dyn Fn(Stage, u64, u64) + Sync),
) -> ([u64; 3], Vec<(u64, Value)>) {
    let ix = table.index();
    let n = ix.len();
    // Buckets: wins 0..=7, losses 0..=6, draws; each kind's quota split over its distances.
    let win_buckets = usize::from(SEARCH_MAX_WIN) + 1;
    let loss_buckets = usize::from(SEARCH_MAX_LOSS) + 1;
    let quota = |buckets: usize| (per_kind as usize).div_ceil(buckets);
    let mut picked: Vec<Vec<(u64, Value)>> = vec![Vec::new(); win_buckets + loss_buckets + 1];
    let caps: Vec<usize> = (0..picked.len())
        .map(|b| {
            if b < win_buckets {
                quota(win_buckets)
            } else if b < win_buckets + loss_buckets {
                quota(loss_buckets)
            } else {
                per_kind as usize
            }
        })
        .collect();
    let max_tries = n.saturating_mul(20).min(20_000_000);
    let seed = hash(seed ^ 0x005E_A2C4);
    for k in 0..max_tries {
        if picked.iter().zip(&caps).all(|(p, &c)| p.len() >= c) {
            break;
        }
        let i = random_entry(seed, k, n);
        let Ok(Entry::Value(v)) = table.entry(i) else {
            continue;
        };
        let b = match v {
            Value::Win(d) if d <= SEARCH_MAX_WIN => usize::from(d),
            Value::Loss(d) if d <= SEARCH_MAX_LOSS => win_buckets + usize::from(d),
            Value::Draw => win_buckets + loss_buckets,
            _ => continue,
        };
        if picked[b].len() < caps[b] && !picked[b].iter().any(|&(j, _)| j == i) {
            picked[b].push((i, v));
        }
    }
    let mut kinds = [0u64; 3];
    for (b, p) in picked.iter().enumerate() {
        let kind = if b < win_buckets {
            0
        } else if b < win_buckets + loss_buckets {
            1
        } else {
            2
        };
        kinds[kind] += p.len() as u64;
    }
    let all: Vec<(u64, Value)> = picked.into_iter().flatten().collect();
    let total = all.len() as u64;
    let next = AtomicU64::new(0);
    let bad = Mutex::new(Vec::new());
    on_threads(threads, |_| loop {
        let k = next.fetch_add(1, Ordering::Relaxed);
        if k >= total {
            break;
        }
        let (i, v) = all[k as usize];
        let agrees = ix
            .position(i)
            .is_some_and(|pos| generic::search_agrees(&pos, v, SEARCH_HORIZON));
        if !agrees {
            bad.lock().unwrap_or_else(|e| e.into_inner()).push((i, v));
        }
        progress(Stage::Search, k + 1, total);
    });
    let mut bad = bad.into_inner().unwrap_or_else(|e| e.into_inner());
    bad.sort_by_key(|&(i, _)| i);
    (kinds, bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_is_all_or_a_positive_count() {
        assert_eq!("all".parse::<Sample>(), Ok(Sample::All));
        assert_eq!("ALL".parse::<Sample>(), Ok(Sample::All));
        assert_eq!(" 12 ".parse::<Sample>(), Ok(Sample::Count(12)));
        for bad in ["0", "-3", "x", "", "1.5"] {
            assert_eq!(bad.parse::<Sample>(), Err(SampleError(bad.into())), "{bad}");
        }
        assert_eq!(
            SampleError("x".into()).to_string(),
            "`x` is not a number of entries (a positive whole number, or `all`)"
        );
        // Two seeds from the clock differ (nanoseconds apart, mixed).
        assert_ne!(clock_seed(), clock_seed());
    }
    use crate::dobutsu::DobutsuIndex;
    use crate::generic::{solve, Progress};

    fn quiet(_: Progress) {}

    fn no_progress(_: Stage, _: u64, _: u64) {}

    /// The counts of a solved table, taken one entry at a time on one thread: the
    /// reference for the threaded split of the count.
    fn plain_counts<P: Probe>(t: &P) -> Summary {
        let mut c = Summary::default();
        for i in 0..t.index().len() {
            tally(&mut c, t.entry(i).unwrap());
        }
        c
    }

    #[test]
    fn a_correct_table_passes_and_a_damaged_one_is_caught() {
        // A Dobutsu sub-game small enough to solve here: lions and chicks only.
        let table = solve(DobutsuIndex::with_kinds([false, false, true]), 2, &quiet);
        let header = plain_counts(&table);
        let config = VerifyConfig {
            sample: Sample::All,
            seed: 5,
            search_per_kind: 20,
            threads: 2,
        };
        let r = verify(&table, header, config, &no_progress);
        assert_eq!(r.counted, header);
        assert_eq!(r.checked, r.entries);
        assert_eq!(r.failures(), 0, "{r:?}");
        assert!(r.searched.iter().sum::<u64>() > 0);

        // A header that claims one win too many is one failure.
        let mut wrong = header;
        wrong.wins += 1;
        let r = verify(&table, wrong, config, &no_progress);
        assert_eq!(r.failures(), 1);
    }

    /// A table with one entry changed.
    struct Damaged<'a, P: Probe> {
        table: &'a P,
        at: u64,
        entry: Entry,
    }

    impl<P: Probe> Probe for Damaged<'_, P> {
        type I = P::I;
        fn index(&self) -> &P::I {
            self.table.index()
        }
        fn entry(&self, index: u64) -> Result<Entry, crate::DbError> {
            if index == self.at {
                Ok(self.entry)
            } else {
                self.table.entry(index)
            }
        }
    }

    #[test]
    fn a_changed_entry_is_named_by_the_bellman_check() {
        let table = solve(DobutsuIndex::with_kinds([false, false, true]), 2, &quiet);
        // The first won position, turned into a draw: its successors still say it wins.
        let at = (0..table.index().len())
            .find(|&i| matches!(table.entry(i), Entry::Value(Value::Win(_))))
            .unwrap();
        let damaged = Damaged {
            table: &table,
            at,
            entry: Entry::Value(Value::Draw),
        };
        let header = plain_counts(&damaged);
        let config = VerifyConfig {
            sample: Sample::Count(u64::MAX),
            seed: 1,
            search_per_kind: 0,
            threads: 3,
        };
        let r = verify(&damaged, header, config, &no_progress);
        assert_eq!(r.sample, Sample::All);
        assert!(r.bellman.iter().any(|m| m.index == at
            && m.stored == Entry::Value(Value::Draw)
            && matches!(m.expected, Some(Entry::Value(Value::Win(_))))));
        assert_eq!(r.bellman_mismatches, r.bellman.len() as u64);
        assert!(r.failures() >= 1);
    }

    #[test]
    fn the_same_seed_samples_the_same_entries() {
        let a: Vec<u64> = (0..50).map(|k| random_entry(9, k, 1000)).collect();
        let b: Vec<u64> = (0..50).map(|k| random_entry(9, k, 1000)).collect();
        let c: Vec<u64> = (0..50).map(|k| random_entry(10, k, 1000)).collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.iter().all(|&i| i < 1000));
    }
}
