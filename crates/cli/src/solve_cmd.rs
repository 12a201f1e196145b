//! `kshogi solve <variant>`: builds the perfect-play database of a variant the solver can
//! index (the registry's [`VariantKind::SOLVABLE`]) with the generic retrograde solver of
//! `kshogi-solver`, with progress on stderr and a summary on stdout; or, with `--verify`,
//! checks an existing database without the retrograde code. Nothing here names a variant:
//! `with_index!` gives the variant's index type.

use crate::db_path::{self, DB_PATH_HELP};
use crate::error::CliError;
use crate::interrupt;
use crate::progress::Reporter;
use crate::variant_select;
use clap::Args;
use kshogi_core::Variant;
use kshogi_progress::Stage;
use kshogi_registry::{with_index, VariantKind};
use kshogi_report::databases::{solvable_names, OpenError};
use kshogi_report::output::Output;
use kshogi_solver::db;
use kshogi_solver::generic::Indexed;
use kshogi_solver::reachable::Rule;
use kshogi_solver::report::{self, BuildSpec, Observer};
use std::io::Write as _;
use std::path::PathBuf;

use kshogi_solver::verify::{
    self, Sample, VerifyConfig, DEFAULT_SAMPLE, DEFAULT_SEARCH_SAMPLE, SEARCH_HORIZON,
    SEARCH_MAX_LOSS, SEARCH_MAX_WIN,
};

/// The CLI's progress on stderr is where a build or a check reports.
impl Observer for Reporter {
    fn line(&self, text: &str) {
        eprintln!("{text}");
    }
    fn update(&self, key: &str, keep: bool, done: u64, total: u64, unit: &str, msg: &str) {
        let stage = Stage::new(key).counting(unit);
        let stage = if keep { stage } else { stage.erased() };
        self.count(stage, done, total, || msg.to_string());
    }
    fn done(&self, line: Option<&str>) {
        match line {
            Some(line) => self.finish_with(line),
            None => self.finish(),
        }
    }
}

/// More help for `kshogi solve`, after the options.
pub fn solve_help() -> String {
    format!(
        "\
Builds the database of every position of a variant small enough to solve ({names}): win,
loss or draw under perfect play and the distance to the end in plies, with the generic
retrograde solver; the other variants are refused. Before the build it states the memory it
needs. Kinzoku Shogi (1.24 billion entries, with the bare-king countdown) takes about 3 to 4
minutes of processor time per core on 2 cores and 3 GiB, and its file is about 55 MiB;
Dobutsu Shogi (1.05 billion entries, pieces in hand) about 17 minutes of processor time (9
to 10 minutes on 2 cores) and 2.5 GiB, and its file is about 99 MiB (see
docs/kinzoku-solution.md and docs/dobutsu-solution.md).

{DB_PATH_HELP}

An existing file is never replaced without --force; with --force it is replaced only when
the new database is complete (written beside it, then renamed). Ctrl-C stops at once (exit
status 130) and leaves no file behind.

Progress: bars on stderr when it is a terminal; otherwise a plain line every 10 seconds.
When the solve is done, the value of the start position and of each first move on stderr.
At the end, a summary on stdout (one JSON object with --json): entries, valid positions,
wins, losses and draws (stalemates among them), entries that hold no position, the longest
win and loss with a position having each, the value of the start position and of each first
move, the time of each phase, the memory stated and the peak, the file and its size.
--reach[=every|capture-first] also counts the positions reachable from the start (a forward
search over the legal moves; capture-first, the default, follows only the king capture
where one is possible, as Tanaka counted Dobutsu), under four conventions of identity
(mirror images and colour-swapped images distinguished or not); it needs the bitsets stated
before the build, and for the whole game many minutes more.

--verify checks an existing database (--db FILE, else the path above) instead: it reads
and checksums every block, compares the header's counts with the entries, runs the Bellman
check (each entry agrees with its successors, by forward move generation) on --sample N
random entries (default {DEFAULT_SAMPLE}; `all`: every entry, about 4 minutes for the whole Kinzoku game),
and confirms about {DEFAULT_SEARCH_SAMPLE} random short results of each kind by exhaustive
search (wins within {SEARCH_MAX_WIN} plies, losses within {SEARCH_MAX_LOSS}, draws: no forced \
result within {SEARCH_HORIZON} plies).
Exit status 1 when anything disagrees; --seed N repeats a sample.

kshogi analyze and kshogi usi answer the positions of a variant from its database (see
`kshogi analyze --help`).",
        names = solvable_names()
    )
}

/// The arguments of `kshogi solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The variant to solve (one small enough: see below)
    #[arg(value_name = "VARIANT", value_parser = variant_select::parse_variant_name)]
    pub variant: VariantKind,
    /// Where to write the database [default: see below]
    #[arg(long, value_name = "FILE", conflicts_with = "verify")]
    pub out: Option<PathBuf>,
    /// Worker threads [default: the number of processors]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Replace the output file if it exists
    #[arg(long, conflicts_with = "verify")]
    pub force: bool,
    /// Print one JSON object instead of text
    #[arg(long = "json", id = "json", action = clap::ArgAction::SetTrue,
          value_parser = crate::format::OutputFormat::flag())]
    pub format: crate::format::OutputFormat,
    /// After the build, count the positions reachable from the start, following every
    /// legal move or (capture-first, as Tanaka counted Dobutsu) only the king capture where
    /// one is possible
    #[arg(long, value_enum, value_name = "RULE", num_args = 0..=1,
          default_missing_value = "capture-first", conflicts_with = "verify")]
    pub reach: Option<ReachRule>,
    /// Check an existing database instead of building one
    #[arg(long)]
    pub verify: bool,
    /// With --verify: the database to check [default: see below]
    #[arg(long, value_name = "FILE", requires = "verify")]
    pub db: Option<PathBuf>,
    /// With --verify: entries for the Bellman check, a number or `all` [default: 1000000]
    #[arg(long, value_name = "N", requires = "verify", value_parser = clap::value_parser!(Sample))]
    pub sample: Option<Sample>,
    /// With --verify: seed of the random samples [default: from the clock]
    #[arg(long, value_name = "N", requires = "verify")]
    pub seed: Option<u64>,
    /// With --verify: positions of each kind checked by exhaustive search
    #[arg(long, value_name = "N", hide = true, default_value_t = DEFAULT_SEARCH_SAMPLE, requires = "verify")]
    pub search_sample: u32,
    /// Build a sub-game closed under moves, as the variant's index names it (Kinzoku: the
    /// most pieces besides the kings, 1-6; Dobutsu: the letters R, B, P of the pieces kept)
    #[arg(
        long = "sub-game",
        visible_alias = "max-pieces",
        alias = "pieces",
        value_name = "WHAT",
        hide = true,
        conflicts_with = "verify"
    )]
    pub sub_game: Option<String>,
}

/// Runs `kshogi solve`.
pub fn run(args: &SolveArgs) -> Result<String, CliError> {
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let done = with_index!(args.variant, I => {
        if args.verify {
            verify_database::<I>(args, threads)
        } else {
            build::<I>(args, threads)
        }
    });
    done.unwrap_or_else(|| {
        Err(CliError::NotSolvable(format!(
            "{} has far too many positions to solve; the variants kshogi solves are {}",
            args.variant.name(),
            solvable_names()
        )))
    })
}

// ---- building ---------------------------------------------------------------------------

/// The move rule of `--reach`.
#[derive(Copy, Clone, Debug, clap::ValueEnum)]
pub enum ReachRule {
    /// Every legal move.
    Every,
    /// Only the king capture where one is possible.
    CaptureFirst,
}

impl From<ReachRule> for Rule {
    fn from(r: ReachRule) -> Rule {
        match r {
            ReachRule::Every => Rule::Every,
            ReachRule::CaptureFirst => Rule::CaptureFirst,
        }
    }
}

/// Builds the database of index `I` (the whole game, or `--sub-game`) and writes it.
fn build<I: Indexed>(args: &SolveArgs, threads: usize) -> Result<String, CliError> {
    let name = <I::V as Variant>::NAME;
    let ix = match &args.sub_game {
        Some(text) => I::sub_game(text).map_err(|e| CliError::Usage(e.to_string()))?,
        None => I::full(),
    };
    let path = match &args.out {
        Some(p) => p.clone(),
        None => db_path::default_path_or_error(name, "--out").map_err(CliError::Output)?,
    };
    let out = Output {
        option: "--out",
        path: &path,
        force: args.force,
    };
    let path = out.prepare_database()?;
    let tmp = db::temp_path(&path);
    interrupt::exit_on_interrupt("the database was not written", move || {
        let _ = std::fs::remove_file(&tmp);
    });
    let spec = BuildSpec {
        path: &path,
        threads,
        reach: args.reach.map(Rule::from),
    };
    let reporter = Reporter::new();
    let report = report::build(ix, &spec, &reporter)
        .map_err(|e| CliError::Output(format!("cannot write the database: {e}")))?;
    args.format.render(&report, report::BuildReport::text)
}

// ---- verifying --------------------------------------------------------------------------

/// `kshogi solve <variant> --verify`.
fn verify_database<I: Indexed + Clone>(
    args: &SolveArgs,
    threads: usize,
) -> Result<String, CliError> {
    let name = <I::V as Variant>::NAME;
    let (path, rebuild) = match &args.db {
        Some(p) => (p.clone(), format!("kshogi solve {name} --out FILE --force")),
        None => (
            db_path::default_path_or_error(name, "--db").map_err(CliError::Database)?,
            format!("kshogi solve {name} --force"),
        ),
    };
    if path.symlink_metadata().is_err() {
        let build = if args.db.is_some() {
            format!("kshogi solve {name} --out FILE")
        } else {
            format!("kshogi solve {name}")
        };
        return Err(CliError::Database(format!(
            "no database at {}; build it with `{build}`",
            path.display()
        )));
    }
    interrupt::exit_on_interrupt("the database was not fully checked", || {});
    let reporter = Reporter::new();
    let config = VerifyConfig {
        sample: args.sample.unwrap_or(Sample::Count(DEFAULT_SAMPLE)),
        seed: args.seed.unwrap_or_else(verify::clock_seed),
        search_per_kind: args.search_sample,
        threads,
    };
    let report = report::check::<I>(&path, config, &reporter).map_err(|source| OpenError::Db {
        source,
        rebuild: Some(rebuild),
    })?;
    let out = args.format.render(&report, report::CheckReport::text)?;
    let failures = report.failures;
    if failures == 0 {
        return Ok(out);
    }
    // The report goes to stdout all the same; then one error line and exit status 1.
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush());
    Err(CliError::Verify(format!(
        "the database {} failed verification: {failures} disagreement{} (see the report)",
        path.display(),
        if failures == 1 { "" } else { "s" }
    )))
}
