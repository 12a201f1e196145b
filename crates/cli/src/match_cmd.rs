//! `kshogi match`: a match between two USI engines, refereed by kshogi's rules. The work is
//! `kshogi-match`'s ([`kshogi_match::run_match`]); this module reads the arguments, shows
//! the progress on stderr and prints the summary.

use crate::error::CliError;
use crate::progress::Reporter;
use crate::variant_select;
use clap::builder::TypedValueParser as _;
use clap::Args;
use kshogi_core::Variant;
use kshogi_match::spec::{self, parse_option, parse_shard, parse_sprt};
use kshogi_match::{EngineSpec, MatchConfig, MatchVariant, Openings, Sprt, Typed};
use kshogi_notation::Dialect;
use kshogi_progress::Stage;
use kshogi_registry::VariantKind;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The help after the options.
pub const MATCH_HELP: &str = "\
Each opening is played twice, engine A taking Black in the odd-numbered games. The referee is
kshogi's rules (repetition, the Kinzoku countdown, Dobutsu's try, ...); a game longer than
--max-plies plies is a draw by adjudication. An engine that crashes, answers later than its
time plus --margin, prints a `bestmove` without a move or plays an illegal move loses the
game (the reason is recorded) and is restarted for its next game.

Example, kshogi against the reference engine in Kyoto Shogi, 100 ms a move:
  kshogi match --variant kyoto --games 20 --movetime 100 --engine-a 'kshogi usi' \\
    --engine-b /path/to/stockfish --b-variant kyotoshogi --b-dialect fsf --out games/

Output: the summary as text (or one JSON object with --json): games, A's wins, draws and
losses, score, Elo of A over B with its 95% margin, game pairs by A's points, the SPRT's
LLR and bounds, the endings by reason, each failure. See docs/strength.md.

Shards, for batch systems (see docs/scale.md): `--shard I/N --results DIR` plays the
opening pairs k with k % N == I and appends each finished pair to DIR/shard-I-of-N.jsonl
(`--shards N` takes I from $SLURM_ARRAY_TASK_ID or $JOB_COMPLETION_INDEX); run again, a
shard plays only the pairs its file lacks. With --sprt and one DIR shared by all shards,
a shard starts no pair once the LLR over all shards' pairs has decided. `kshogi match
--merge DIR...` prints the summary of all shards' games, as one process playing them would,
and for an SPRT when it decided and how many games were played past it.";

fn dialect_parser() -> impl clap::builder::TypedValueParser<Value = Dialect> {
    clap::builder::PossibleValuesParser::new(["canonical", "fsf"])
        .map(|s| s.parse::<Dialect>().expect("a listed dialect"))
}

/// The most milliseconds any time option takes: a day, as for `--time` (larger values,
/// added move after move, once overflowed the clock).
const MAX_MS: u64 = 86_400_000;

/// The arguments of `kshogi match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    #[arg(long, value_name = "V", value_parser = variant_select::parse_variant_name,
          required_unless_present = "merge",
          help = format!("The variant: {}", VariantKind::names()))]
    variant: Option<VariantKind>,
    /// Engine A's command line (split like a shell does, no shell runs)
    #[arg(long, value_name = "CMD", required_unless_present = "merge")]
    engine_a: Option<String>,
    /// Engine B's command line
    #[arg(long, value_name = "CMD", required_unless_present = "merge")]
    engine_b: Option<String>,
    /// Engine A's name in records [default: its command]
    #[arg(long, value_name = "NAME")]
    a_name: Option<String>,
    /// Engine B's name in records [default: its command]
    #[arg(long, value_name = "NAME")]
    b_name: Option<String>,
    /// A USI option of engine A, NAME=VALUE (repeatable)
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_option)]
    a_option: Vec<(String, String)>,
    /// A USI option of engine B, NAME=VALUE (repeatable)
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_option)]
    b_option: Vec<(String, String)>,
    /// Engine A's USI_Variant value [default: the variant's name]
    #[arg(long, value_name = "NAME")]
    a_variant: Option<String>,
    /// Engine B's USI_Variant value (the reference engine: kyotoshogi, micro, ...)
    #[arg(long, value_name = "NAME")]
    b_variant: Option<String>,
    /// The dialect engine A is sent positions and moves in
    #[arg(long, value_name = "D", default_value = "canonical", value_parser = dialect_parser())]
    a_dialect: Dialect,
    /// The dialect engine B is sent positions and moves in
    #[arg(long, value_name = "D", default_value = "canonical", value_parser = dialect_parser())]
    b_dialect: Dialect,
    /// A line sent to engine A after `usiok`, before the options (repeatable)
    #[arg(long, value_name = "LINE")]
    a_init: Vec<String>,
    /// A line sent to engine B after `usiok`, before the options (repeatable), e.g.
    /// 'load crates/notation/tests/data/fsf/kinzoku.ini'
    #[arg(long, value_name = "LINE")]
    b_init: Vec<String>,
    /// Number of games (rounded up to even); with --sprt, the most games played
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    games: u32,
    /// Time per move in milliseconds (the default time control: 100 ms)
    #[arg(long, value_name = "MS", conflicts_with = "time",
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    movetime: Option<u64>,
    /// A fixed number of nodes per move instead: `go nodes N`, no clock (for SPRTs on a
    /// loaded machine: the games do not depend on its load). An engine then loses on time
    /// only after 10 s plus --margin
    #[arg(long, value_name = "N", conflicts_with_all = ["movetime", "time"],
          value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// A clock instead: each side's time for the game, in milliseconds
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(0..=MAX_MS))]
    time: Option<u64>,
    /// With --time: milliseconds added after each move (binc/winc)
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 0,
        requires = "time",
        conflicts_with = "byoyomi",
        value_parser = clap::value_parser!(u64).range(0..=MAX_MS)
    )]
    inc: u64,
    /// With --time: milliseconds per move once the clock is empty
    #[arg(long, value_name = "MS", default_value_t = 0, requires = "time",
          value_parser = clap::value_parser!(u64).range(0..=MAX_MS))]
    byoyomi: u64,
    /// Milliseconds an engine may exceed its time by before it loses on time
    #[arg(long, value_name = "MS", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(0..=MAX_MS))]
    margin: u64,
    /// Milliseconds an engine has for `usiok` and `readyok`
    #[arg(long, value_name = "MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(0..=MAX_MS))]
    handshake_timeout: u64,
    /// Random plies from the start position for each opening
    #[arg(
        long,
        value_name = "N",
        default_value_t = 4,
        conflicts_with = "openings"
    )]
    random_plies: u32,
    /// Seed of the random openings
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// A file of openings, one position per line (an SFEN, optionally with ` moves ...`);
    /// blank lines and lines starting with `#` are skipped. Used again from the top when
    /// the match needs more, except with --nodes, where the match ends when every
    /// opening has been played with both colours (a repeat would replay the same games)
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Stop when an SPRT decides: ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA (alpha and beta default to 0.05)
    #[arg(long, value_name = "E0,E1[,A,B]", value_parser = parse_sprt)]
    sprt: Option<Sprt>,
    /// Games played at once (each with its own two engine processes)
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=256))]
    concurrency: u16,
    /// Plies after which a game is adjudicated a draw
    #[arg(long, value_name = "N", default_value_t = kshogi_match::DEFAULT_MAX_PLIES,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_plies: u32,
    /// Write every game as KIF here (`game-0001.kif`, ...); the directory must be new or
    /// empty
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Play shard I of N: the opening pairs k with k % N == I (I from 0), appending each
    /// finished pair to RESULTS/shard-I-of-N.jsonl (needs --results)
    #[arg(long, value_name = "I/N", value_parser = parse_shard, requires = "results",
          conflicts_with = "shards")]
    shard: Option<(u32, u32)>,
    /// Play shard I of N, I taken from $SLURM_ARRAY_TASK_ID, else $JOB_COMPLETION_INDEX
    #[arg(long, value_name = "N", requires = "results",
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    shards: Option<u32>,
    /// The results directory of the shards (shared by all shards for an SPRT)
    #[arg(long, value_name = "DIR")]
    results: Option<PathBuf>,
    /// Merge the shards' results files in these directories into one summary (no game is
    /// played)
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with_all = ["shard", "shards", "engine_a", "engine_b"])]
    merge: Vec<PathBuf>,
    /// Print one JSON object instead of text
    #[arg(long = "json", id = "json", action = clap::ArgAction::SetTrue,
          value_parser = crate::format::OutputFormat::flag())]
    format: crate::format::OutputFormat,
}

/// Reads an openings file (`kshogi_match::spec::read_openings`).
fn read_openings(path: &Path) -> Result<Vec<(String, String)>, CliError> {
    kshogi_match::spec::read_openings(path).map_err(|e| CliError::Input {
        path: format!("`{}`", path.display()),
        message: e.to_string(),
    })
}

fn spec(
    cmd: &str,
    name: &Option<String>,
    options: &[(String, String)],
    variant: &Option<String>,
    dialect: Dialect,
    init: &[String],
) -> EngineSpec {
    EngineSpec {
        command: cmd.to_string(),
        name: name.clone().unwrap_or_else(|| cmd.to_string()),
        options: options.to_vec(),
        variant_name: variant.clone(),
        dialect,
        init: init.to_vec(),
    }
}

/// Runs `kshogi match`.
pub fn run(args: &MatchArgs) -> Result<String, CliError> {
    if !args.merge.is_empty() {
        let merged =
            kshogi_match::merge(&args.merge).map_err(|e| CliError::Match(e.to_string()))?;
        return args.format.render(&merged, |m| m.to_text());
    }
    match args.variant {
        Some(variant) => play(args, variant),
        None => Err(needs()),
    }
}

/// Runs the `match` command of a program that plays the one variant `V` (`run_single`):
/// as `kshogi match` with `--variant V`; `--merge` reads only results files of `V`.
pub fn run_single<V: Variant>(args: &MatchArgs) -> Result<String, CliError> {
    if !args.merge.is_empty() {
        let merged = kshogi_match::merge_of::<Typed<V>>(&args.merge)
            .map_err(|e| CliError::Match(e.to_string()))?;
        return args.format.render(&merged, |m| m.to_text());
    }
    play(args, Typed::<V>::new())
}

/// The usage error of a match without its variant or engines.
fn needs() -> CliError {
    CliError::Usage("a match needs --variant, --engine-a and --engine-b".into())
}

/// Plays the match of `args` in `variant`.
fn play<K: MatchVariant>(args: &MatchArgs, variant: K) -> Result<String, CliError> {
    let (Some(engine_a), Some(engine_b)) = (args.engine_a.as_deref(), args.engine_b.as_deref())
    else {
        return Err(needs());
    };
    let a = spec(
        engine_a,
        &args.a_name,
        &args.a_option,
        &args.a_variant,
        args.a_dialect,
        &args.a_init,
    );
    let b = spec(
        engine_b,
        &args.b_name,
        &args.b_option,
        &args.b_variant,
        args.b_dialect,
        &args.b_init,
    );
    let mut cfg = MatchConfig::new(variant, a, b, args.games);
    cfg.time = spec::time_control(args.nodes, args.time, args.inc, args.byoyomi, args.movetime);
    cfg.margin = Duration::from_millis(args.margin);
    cfg.handshake_timeout = Duration::from_millis(args.handshake_timeout);
    cfg.openings = match &args.openings {
        Some(path) => Openings::List(read_openings(path)?),
        None => Openings::Random {
            plies: args.random_plies,
            seed: args.seed,
        },
    };
    cfg.sprt = args.sprt;
    cfg.concurrency = usize::from(args.concurrency);
    cfg.max_plies = args.max_plies;
    cfg.out_dir = args.out.clone();
    let results = args.results.as_deref();
    cfg.shard = spec::shard_of(args.shard, args.shards, results, |v| std::env::var(v).ok())
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let reporter = Reporter::new();
    let stop = crate::interrupt::stop_flag();
    let summary = kshogi_match::run_match(&cfg, stop, &mut |s, total| {
        let stage = Stage::new("match").counting("games");
        reporter.count(stage, s.games, total, || s.progress_line());
    })
    .map_err(|e| CliError::Match(e.to_string()))?;
    reporter.finish();
    args.format.render(&summary, |s| s.to_text())
}
