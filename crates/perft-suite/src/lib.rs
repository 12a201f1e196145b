//! # kshogi-perft-suite
//!
//! Perft regression suites for shogi variants, as a library:
//!
//! - [`suite`]: the suite file format of `perft/suite.tsv` (tab-separated `variant sfen depth
//!   nodes tier` rows, `#` comments, `#: source:` and `#: convention:` lines saying where the
//!   counts come from), read with errors that name the file, line and column;
//! - [`perft`]: one count as `kshogi perft` makes it (the `DEPTH` argument, the count of
//!   a position argument with its divide, interruptible, and its text and JSON report);
//! - [`run`]: counting rows against a [`kshogi_core::Variant`] type in-process, with the
//!   divide of every mismatching row: the call a variant crate makes in its own `cargo test`
//!   ([`run_rows`]; see `docs/adding-a-variant.md`);
//! - [`diverge`]: the divergence finder, which walks down the divides of two move generators
//!   (kshogi's and another engine's, behind [`DivideSource`]) to the first position where
//!   their legal move lists differ; [`diff_text`], the text report of what it found;
//! - [`report`]: the report file of a suite run (`kshogi perft --suite --report`), the
//!   loop that counts rows with any counter (kshogi or another engine) into it, and its
//!   comparison with a baseline report (speed within a tolerance, best of three, divides);
//! - [`session`]: a whole suite run as `kshogi perft --suite` makes it ([`run_suite`]:
//!   the rows counted with any counter, the table, retiming against a baseline, failures
//!   explained, what went wrong summed up), its text shown through a [`SuiteObserver`];
//!   the suite exported as JSON;
//! - [`engine`]: another USI engine as a counter ([`EngineCounter`]: started when needed,
//!   its `go perft` answers read back in either dialect), for suite rows and the
//!   divergence finder;
//! - [`table`]: the terminal text of a suite run (its table, a failing row explained, the
//!   speed comparison);
//! - [`units`]: perft as work units for batch systems: a job split into units at a chosen
//!   depth, its manifest, one result file per unit, and the merge that checks and adds them.
//!
//! ```
//! use kshogi_perft_suite::{parse_suite, rows_of, run_rows};
//! use kshogi_rules_kinzoku::Kinzoku;
//!
//! // Kinzoku Shogi from the start: 7 moves, 49 two-ply lines (the reference engine's counts).
//! let suite = "#: source: reference engine\n\
//!              kinzoku\tstartpos\t1\t7\tquick\n\
//!              kinzoku\tstartpos\t2\t49\tquick\n";
//! let rows = parse_suite(suite, "my-suite.tsv").unwrap();
//! run_rows::<Kinzoku>(rows_of::<Kinzoku>(&rows)).assert_ok();
//! ```
//!
//! This crate depends on core, notation and the USI client only: it names no variant, and
//! must not depend on a rules crate, the registry, the engine or the command line, which
//! chooses the variant of each row and prints what a run shows.

pub mod diff_text;
pub mod diverge;
pub mod engine;
pub mod perft;
pub mod report;
pub mod run;
pub mod session;
pub mod suite;
pub mod table;
pub mod units;

pub use diverge::{
    find_divergence, DiffError, Difference, Divergence, DivideError, DivideSource, Finding, Kshogi,
};
pub use engine::{EngineConfig, EngineCount, EngineCounter};
pub use report::CountError;
pub use run::{rows_of, run_rows, run_rows_with, Report, RowError, RowResult, RunOptions};
pub use session::{
    export_json, rerun_line, run_suite, SuiteObserver, SuiteOutcome, SuiteSpec, EXPORT_FORMAT,
};
pub use suite::{
    parse_suite, parse_table, select, Layout, SelectError, SuiteError, SuiteProblem, SuiteRow, Tier,
};
pub use units::{
    merge, read_results, run_unit, task_units, Job, Merged, UnitOutcome, UnitResult, UnitsError,
};
