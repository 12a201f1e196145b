//! `kshogi-tune`: the evaluation tuner's command line (run it through `cargo xtask tune`).
//!
//! Plays self-play games of one variant, fits its evaluation's weights, prints the summary
//! and the weights table, and writes the weights file with `--out`. Bad arguments are a
//! usage error (exit 2); a file that the tuner did not write is never overwritten.
//!
//! `kshogi-tune spsa ...` tunes the search's numeric parameters instead
//! ([`kshogi_tune::spsa`]), and `kshogi-tune switches ...` chooses the search's switches
//! by SPRT ([`kshogi_tune::switches`]).

use kshogi_registry::{with_variant, VariantKind};
use kshogi_tune::args::{game_flag, number, sprt_flag, value};
use kshogi_tune::data::GenConfig;
use kshogi_tune::fit::FitConfig;
use kshogi_tune::initial_source;
use kshogi_tune::pipeline::{self, SprtConfig};
use kshogi_tune::spsa::{self, SpsaConfig};
use kshogi_tune::switches::{self, Start, SwitchConfig};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "\
Usage: kshogi-tune --variant V [OPTIONS]

The tuning pipeline, in one run: plays self-play games of variant V with the engine and
its current evaluation (in chunks), fits the evaluation's linear weights to the games'
results (Texel-style logistic regression), plays a fixed-node SPRT of the fitted weights
against the current ones, and when the SPRT accepts them writes the weights file that
kshogi-tuned-eval includes. Every stage is recorded in DIR: the same command again
resumes where a run stopped; a DIR made with other options is an error.

Options:
  --variant V       the variant (required)
  --seed S          seed of the games and the SPRT's openings (default 1)
  --dir DIR         the run's directory (default target/tune/<variant>-<seed> in the
                    workspace)
  --out FILE        where an accepted fit is written (default the variant's file,
                    crates/tuned-eval/src/weights/<variant>.rs); an existing FILE is
                    replaced only if the tuner wrote it
  --games N         self-play games (default 2000)
  --chunk N         games per chunk file of DIR (default 100)
  --nodes N         engine nodes per move (default 2000)
  --opening N       random plies at the start of each game (default 6)
  --max-plies N     plies after which a game is drawn (default 300)
  --threads N       games played at once; no result depends on it (default 2)
  --iterations N    Adam steps of the fit (default 2000)
  --rate R          Adam step size in centipawns (default 2)
  --only W,W        fit only these weights, keeping the piece values and the rest: the
                    shared mobility, zone_attack, zone_defend, hand_threat, safe_check,
                    hanging, and the variant's own terms (`_` for a space; `own` for all
                    of them: Kinzoku's advance_1, ..., countdown_used, ...)
  --sprt-nodes N    engine nodes per move in the SPRT (default --nodes)
  --sprt-pairs N    most game pairs of the SPRT; undecided then keeps the weights
                    (default 2000)
  --elo0 E --elo1 E the SPRT's hypotheses in Elo (default 0 and 10)
  --alpha P --beta P  its error rates (default 0.05 each)
  --no-sprt         write the fit without an SPRT (the tuner before the pipeline)
  --init            play and fit nothing: write the current evaluation's weights as they
                    are to --out (the first weights file of a variant)

       kshogi-tune spsa --variant V --params P,P [OPTIONS]   (see `kshogi-tune spsa --help`)
       kshogi-tune switches --variant V [OPTIONS]           (see `kshogi-tune switches --help`)
";

const SWITCHES_USAGE: &str = "\
Usage: kshogi-tune switches --variant V [OPTIONS]
       kshogi-tune switches --list

Chooses the search's switches (its selective techniques) for variant V by SPRT: from the
start's switches, each switch in turn is flipped and the flipped set plays the current one
in game pairs (random openings, each side Black once) at a fixed number of nodes a move,
with the registered evaluation; a flip the SPRT accepts is kept, and the next switch is
tried from the switches kept so far. Prints a table of the SPRTs and the switches kept, and
writes them with --out as the Rust expression a variant's line in kshogi-tuned-eval takes
as its `search`. The state is written to FILE after every batch of pairs: the same command
resumes a stopped run; a FILE made with other options is an error. Deterministic from the
seed, on any threads.

Options:
  --variant V       the variant (required)
  --from W          the switches to start from: `registered` (the variant's evaluator's,
                    the default) or `default` (what a new variant gets: the drop games'
                    search if it has drops, the default search otherwise)
  --only S,S        the switches to try, in this order (default all; `--list` shows them)
  --nodes N         engine nodes per move (default 10000)
  --pairs N         most game pairs of each switch's SPRT; undecided then keeps the
                    switch as it was (default 500)
  --elo0 E --elo1 E the SPRTs' hypotheses in Elo (default 0 and 10)
  --alpha P --beta P  their error rates (default 0.05 each)
  --seed S          seed of the openings (default 1)
  --opening N       random plies at the start of each pair (default 6)
  --openings FILE   the pairs' openings instead, one `startpos moves ...` line each (the
                    balanced files of docs/openings): pair j plays line j, and each SPRT
                    has at most as many pairs as the file has lines; with `--opening N`
                    too, N random plies follow the line (other ones for each pair) and
                    the lines are used again from the top, with no such cap
  --max-plies N     plies after which a game is drawn (default 300)
  --hash MB         transposition table of each engine (default 4)
  --threads N       pairs played at once; no result depends on it (default 2)
  --state FILE      the state file (default target/tune/switches-<variant>-<from>-<seed>.json
                    in the workspace)
  --out FILE        write the switches kept as a Rust expression; an existing FILE is
                    replaced only if the tuner wrote it (a built-in variant's file is
                    crates/tuned-eval/src/search/<variant>.rs)
  --init            play nothing: write the registered switches as they are to --out (the
                    first switch file of a variant)
  --list            print every switch with its value in each variant's evaluator
";

const SPSA_USAGE: &str = "\
Usage: kshogi-tune spsa --variant V --params P,P [OPTIONS]
       kshogi-tune spsa --list

SPSA tuning of the search's numeric parameters for variant V: each iteration perturbs the
parameters P by +/- c_k steps (random signs), plays game pairs in process between the two
sets (random openings, each set Black once) at a fixed number of nodes a move, and moves
the parameters toward the set that scored more (a_k = a / (A + k + 1)^0.602,
c_k = c / (k + 1)^0.101, in steps of each parameter). The state is written to FILE after
every iteration: the same command resumes a stopped run (a larger --iterations goes on);
a FILE made with other options is an error. Deterministic from the seed, on any threads.

Options:
  --variant V       the variant (required)
  --params P,P      the parameters to tune (required; `--list` shows them all)
  --iterations K    iterations in all (default 200)
  --pairs N         game pairs per iteration (default 1)
  --nodes N         engine nodes per move (default 40000)
  --seed S          seed of the perturbations and openings (default 1)
  --state FILE      the state file (default target/tune/spsa-<variant>-<seed>.json in the
                    workspace)
  --opening N       random plies at the start of each pair (default 6)
  --openings FILE   the pairs' openings instead, one `startpos moves ...` line each (the
                    balanced files of docs/openings), from the top again after the last
  --max-plies N     plies after which a game is drawn (default 300)
  --hash MB         transposition table of each engine (default 16)
  --threads N       games played at once; no result depends on it (default 2)
  --a A             the step gain's a (default: a_0 = 0.2 steps per decisive game)
  --c C             the perturbation's c, in steps (default 1)
  --stability A     the step gain's A (default a tenth of --iterations)
  --list            print every parameter with its default, range and step
";

struct Args {
    variant: VariantKind,
    gen: GenConfig,
    fit: FitConfig,
    out: Option<PathBuf>,
    init: bool,
    dir: Option<PathBuf>,
    chunk: u32,
    sprt: Option<SprtConfig>,
}

fn parse(args: &[String]) -> Result<Option<Args>, String> {
    let mut variant = None;
    let mut gen = GenConfig {
        threads: 2,
        ..GenConfig::default()
    };
    let mut fit = FitConfig::default();
    let mut out = None;
    let mut init = false;
    let mut dir = None;
    let mut chunk = 100;
    let mut sprt = SprtConfig::default();
    let mut sprt_nodes = None;
    let mut no_sprt = false;
    let mut only = Vec::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        if game_flag(flag, &mut it, &mut variant, &mut gen)? {
            continue;
        }
        if sprt_flag(flag, &mut it, &mut sprt.test)? {
            continue;
        }
        match flag.as_str() {
            "-h" | "--help" => return Ok(None),
            "--games" => gen.games = number(flag, value(flag, &mut it)?)?,
            "--nodes" => gen.nodes = number(flag, value(flag, &mut it)?)?,
            "--iterations" => fit.iterations = number(flag, value(flag, &mut it)?)?,
            "--rate" => fit.rate = number(flag, value(flag, &mut it)?)?,
            "--only" => {
                only = value(flag, &mut it)?
                    .split(',')
                    .filter(|w| !w.is_empty())
                    .map(String::from)
                    .collect();
            }
            "--out" => out = Some(PathBuf::from(value(flag, &mut it)?)),
            "--init" => init = true,
            "--dir" => dir = Some(PathBuf::from(value(flag, &mut it)?)),
            "--chunk" => chunk = number(flag, value(flag, &mut it)?)?,
            "--sprt-nodes" => sprt_nodes = Some(number(flag, value(flag, &mut it)?)?),
            "--sprt-pairs" => sprt.max_pairs = number(flag, value(flag, &mut it)?)?,
            "--no-sprt" => no_sprt = true,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    let variant = variant.ok_or("`--variant` is required")?;
    fit.only = with_variant!(variant, V => kshogi_tune::only_weights::<V>(&only))
        .map_err(|e| format!("`--only`: {e}"))?;
    if init && out.is_none() {
        return Err("`--init` needs `--out FILE`".into());
    }
    if gen.games < HOLD_OUT_MIN {
        return Err(format!(
            "`--games` must be at least {HOLD_OUT_MIN} (one game in ten is held out)"
        ));
    }
    if gen.nodes == 0 || gen.threads == 0 || fit.iterations == 0 {
        return Err("`--nodes`, `--threads` and `--iterations` must be at least 1".into());
    }
    if !(fit.rate > 0.0 && fit.rate.is_finite()) {
        return Err(format!(
            "`--rate` must be a positive number, found {}",
            fit.rate
        ));
    }
    if chunk == 0 {
        return Err("`--chunk` must be at least 1".into());
    }
    sprt.test.validate().map_err(|e| e.to_string())?;
    if sprt.max_pairs == 0 {
        return Err("`--sprt-pairs` must be at least 1".into());
    }
    sprt.nodes = sprt_nodes.unwrap_or(gen.nodes);
    if sprt.nodes == 0 {
        return Err("`--sprt-nodes` must be at least 1".into());
    }
    sprt.opening = gen.opening;
    sprt.max_plies = gen.max_plies;
    Ok(Some(Args {
        variant,
        gen,
        fit,
        out,
        init,
        dir,
        chunk,
        sprt: (!no_sprt).then_some(sprt),
    }))
}

/// What `kshogi-tune spsa` is asked: a run, or the list of parameters.
enum SpsaArgs {
    Run(VariantKind, SpsaConfig),
    List,
}

fn parse_spsa(args: &[String]) -> Result<Option<SpsaArgs>, String> {
    let mut variant = None;
    let mut gen = GenConfig {
        threads: 2,
        nodes: 40_000,
        ..GenConfig::default()
    };
    let mut cfg = SpsaConfig {
        params: Vec::new(),
        iterations: 200,
        pairs: 1,
        nodes: 0,
        seed: 0,
        opening: 0,
        openings: None,
        max_plies: 0,
        hash_mb: 16,
        a: None,
        c: None,
        big_a: None,
        threads: 0,
        state: PathBuf::new(),
    };
    let mut state = None;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        if game_flag(flag, &mut it, &mut variant, &mut gen)? {
            continue;
        }
        match flag.as_str() {
            "-h" | "--help" => return Ok(None),
            "--list" => return Ok(Some(SpsaArgs::List)),
            "--params" => {
                cfg.params = value(flag, &mut it)?
                    .split(',')
                    .filter(|p| !p.is_empty())
                    .map(String::from)
                    .collect();
            }
            "--iterations" => cfg.iterations = number(flag, value(flag, &mut it)?)?,
            "--pairs" => cfg.pairs = number(flag, value(flag, &mut it)?)?,
            "--nodes" => gen.nodes = number(flag, value(flag, &mut it)?)?,
            "--hash" => cfg.hash_mb = number(flag, value(flag, &mut it)?)?,
            "--state" => state = Some(PathBuf::from(value(flag, &mut it)?)),
            "--openings" => cfg.openings = Some(PathBuf::from(value(flag, &mut it)?)),
            "--a" => cfg.a = Some(number(flag, value(flag, &mut it)?)?),
            "--c" => cfg.c = Some(number(flag, value(flag, &mut it)?)?),
            "--stability" => cfg.big_a = Some(number(flag, value(flag, &mut it)?)?),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    let variant = variant.ok_or("`--variant` is required")?;
    if cfg.params.is_empty() {
        return Err("`--params` is required (`kshogi-tune spsa --list` shows them)".into());
    }
    if gen.nodes == 0 || gen.threads == 0 || cfg.iterations == 0 || cfg.pairs == 0 {
        return Err(
            "`--nodes`, `--threads`, `--iterations` and `--pairs` must be at least 1".into(),
        );
    }
    for (flag, v) in [("--a", cfg.a), ("--c", cfg.c)] {
        if v.is_some_and(|x| !(x > 0.0 && x.is_finite())) {
            return Err(format!("`{flag}` must be a positive number"));
        }
    }
    if cfg.big_a.is_some_and(|x| !(x >= 0.0 && x.is_finite())) {
        return Err("`--stability` must be a number of at least 0".into());
    }
    cfg.nodes = gen.nodes;
    cfg.seed = gen.seed;
    cfg.opening = gen.opening;
    if cfg.openings.is_some() {
        if args.iter().any(|a| a == "--opening") && gen.opening != 0 {
            return Err(
                "`--opening` (random plies) and `--openings FILE` exclude each other".into(),
            );
        }
        cfg.opening = 0;
    }
    cfg.max_plies = gen.max_plies;
    cfg.threads = gen.threads;
    cfg.state = state.unwrap_or_default();
    Ok(Some(SpsaArgs::Run(variant, cfg)))
}

/// What `kshogi-tune switches` is asked: a run (with `--out`), or the list of switches.
enum SwitchArgs {
    /// A run, its `--out` and its `--openings` (read once the variant is known).
    Run(VariantKind, SwitchConfig, Option<PathBuf>, Option<PathBuf>),
    Init(VariantKind, PathBuf),
    List,
}

fn parse_switches(args: &[String]) -> Result<Option<SwitchArgs>, String> {
    let mut variant = None;
    let mut cfg = SwitchConfig::default();
    let mut gen = GenConfig {
        threads: 2,
        seed: cfg.seed,
        opening: cfg.sprt.opening,
        max_plies: cfg.sprt.max_plies,
        ..GenConfig::default()
    };
    let mut state = None;
    let mut out = None;
    let mut init = false;
    let mut openings = None;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        if game_flag(flag, &mut it, &mut variant, &mut gen)? {
            continue;
        }
        if sprt_flag(flag, &mut it, &mut cfg.sprt.test)? {
            continue;
        }
        match flag.as_str() {
            "-h" | "--help" => return Ok(None),
            "--list" => return Ok(Some(SwitchArgs::List)),
            "--init" => init = true,
            "--from" => {
                cfg.start = match value(flag, &mut it)?.as_str() {
                    "registered" => Start::Registered,
                    "default" => Start::Default,
                    other => {
                        return Err(format!(
                            "`--from` is `registered` or `default`, found `{other}`"
                        ))
                    }
                }
            }
            "--only" => {
                cfg.only = value(flag, &mut it)?
                    .split(',')
                    .filter(|p| !p.is_empty())
                    .map(String::from)
                    .collect();
                switches::order(&cfg.only).map_err(|e| format!("`--only`: {e}"))?;
            }
            "--nodes" => cfg.sprt.nodes = number(flag, value(flag, &mut it)?)?,
            "--pairs" => cfg.sprt.max_pairs = number(flag, value(flag, &mut it)?)?,
            "--hash" => cfg.hash_mb = number(flag, value(flag, &mut it)?)?,
            "--state" => state = Some(PathBuf::from(value(flag, &mut it)?)),
            "--out" => out = Some(PathBuf::from(value(flag, &mut it)?)),
            "--openings" => openings = Some(PathBuf::from(value(flag, &mut it)?)),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    let variant = variant.ok_or("`--variant` is required")?;
    if openings.is_some() && !args.iter().any(|a| a == "--opening") {
        // A file alone: its lines as they are. With `--opening N`, N random plies after
        // each line.
        gen.opening = 0;
    }
    if init {
        return match out {
            Some(out) => Ok(Some(SwitchArgs::Init(variant, out))),
            None => Err("`--init` needs `--out FILE`".into()),
        };
    }
    if cfg.sprt.nodes == 0 || cfg.sprt.max_pairs == 0 || gen.threads == 0 {
        return Err("`--nodes`, `--pairs` and `--threads` must be at least 1".into());
    }
    cfg.sprt.test.validate().map_err(|e| e.to_string())?;
    cfg.seed = gen.seed;
    cfg.sprt.opening = gen.opening;
    cfg.sprt.max_plies = gen.max_plies;
    cfg.threads = gen.threads;
    cfg.state = state.unwrap_or_default();
    Ok(Some(SwitchArgs::Run(variant, cfg, out, openings)))
}

/// `kshogi-tune switches ...`.
fn main_switches(args: &[String]) -> ExitCode {
    let (kind, mut cfg, out, openings_flag) = match parse_switches(args) {
        Ok(Some(SwitchArgs::Run(kind, mut cfg, out, openings))) => {
            let flag = match &openings {
                Some(path) if cfg.sprt.opening > 0 => {
                    format!(
                        "--openings {} --opening {}",
                        path.display(),
                        cfg.sprt.opening
                    )
                }
                Some(path) => format!("--openings {}", path.display()),
                None => format!("--opening {}", cfg.sprt.opening),
            };
            if let Some(path) = openings {
                match with_variant!(kind, V => kshogi_tune::openings::read_openings::<V>(&path)) {
                    Ok(lines) => {
                        // A line played twice replays its games unless random plies follow.
                        if cfg.sprt.opening == 0 {
                            cfg.sprt.max_pairs = cfg
                                .sprt
                                .max_pairs
                                .min(kshogi_tune::openings::max_pairs_at_fixed_nodes(lines.len()));
                        }
                        cfg.openings = lines;
                    }
                    Err(e) => {
                        eprintln!("kshogi-tune: error: {e}");
                        return ExitCode::FAILURE;
                    }
                }
            }
            (kind, cfg, out, flag)
        }
        Ok(Some(SwitchArgs::Init(kind, out))) => {
            let (name, sp) = with_variant!(kind, V => (
                <V as kshogi_core::Variant>::NAME,
                Start::Registered.switches::<V>()
            ));
            let comment = format!(
                "The search switches of {name} as registered before this file, written by\n\
                 `kshogi-tune switches --init`. `kshogi-tune switches --variant {name}\n\
                 --out <this file>` replaces them by those its SPRTs keep."
            );
            if let Err(e) = write_out(&out, &switches::source(&sp, &comment)) {
                eprintln!("kshogi-tune: error: {e}");
                return ExitCode::FAILURE;
            }
            println!("wrote {}", out.display());
            return ExitCode::SUCCESS;
        }
        Ok(Some(SwitchArgs::List)) => {
            let mut text = format!("{:<22}", "switch");
            for &kind in VariantKind::ALL {
                text.push_str(&format!(" {:>9}", kind.name()));
            }
            text.push('\n');
            for name in kshogi_engine::SearchParams::SWITCHES {
                text.push_str(&format!("{name:<22}"));
                for &kind in VariantKind::ALL {
                    let on = with_variant!(kind, V => Start::Registered.switches::<V>())
                        .switch(name)
                        .unwrap_or(false);
                    text.push_str(&format!(" {:>9}", if on { "on" } else { "off" }));
                }
                text.push('\n');
            }
            // A closed pipe (`| head`) is not an error worth a panic.
            let _ = std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes());
            return ExitCode::SUCCESS;
        }
        Ok(None) => return help(SWITCHES_USAGE),
        Err(e) => return usage_error(e, SWITCHES_USAGE),
    };
    let name = with_variant!(kind, V => <V as kshogi_core::Variant>::NAME);
    if cfg.state.as_os_str().is_empty() {
        cfg.state = workspace().join("target/tune").join(format!(
            "switches-{name}-{}-{}.json",
            cfg.start.name(),
            cfg.seed
        ));
    }
    eprintln!(
        "kshogi-tune: {name}: switches state {}",
        cfg.state.display()
    );
    let progress = pipeline::progress("kshogi-tune", false);
    let result = with_variant!(kind, V => switches::run::<V>(&cfg, &progress)
        .map(|st| (st, cfg.start.switches::<V>())));
    progress.finish();
    let (state, start) = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("kshogi-tune: error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let text = switches::summary(&state, &cfg, &start);
    print!("{text}");
    if let Some(out) = out {
        let end = state.current(&start, &cfg.sprt);
        let comment = format!(
            "The search switches of {name}, chosen by `kshogi-tune switches --variant {name}\n\
             --from {} --nodes {} --pairs {} {openings_flag} --seed {} --elo0 {} --elo1 {}`\n\
             (docs/tuning.md, \"Search switches by SPRT\").\n\n{}",
            cfg.start.name(),
            cfg.sprt.nodes,
            cfg.sprt.max_pairs,
            cfg.seed,
            cfg.sprt.test.elo0,
            cfg.sprt.test.elo1,
            text.lines().skip(1).collect::<Vec<_>>().join("\n")
        );
        if let Err(e) = write_out(&out, &switches::source(&end, &comment)) {
            eprintln!("kshogi-tune: error: {e}");
            return ExitCode::FAILURE;
        }
        println!("wrote {}", out.display());
    }
    ExitCode::SUCCESS
}

/// `kshogi-tune spsa ...`.
fn main_spsa(args: &[String]) -> ExitCode {
    let (kind, mut cfg) = match parse_spsa(args) {
        Ok(Some(SpsaArgs::Run(kind, cfg))) => (kind, cfg),
        Ok(Some(SpsaArgs::List)) => {
            println!("parameter              default    min    max   step");
            for t in kshogi_engine::SearchTuning::TABLE {
                println!(
                    "{:<20} {:>9} {:>6} {:>6} {:>6}",
                    t.name, t.default, t.min, t.max, t.step
                );
            }
            return ExitCode::SUCCESS;
        }
        Ok(None) => return help(SPSA_USAGE),
        Err(e) => return usage_error(e, SPSA_USAGE),
    };
    let name = with_variant!(kind, V => <V as kshogi_core::Variant>::NAME);
    if cfg.state.as_os_str().is_empty() {
        cfg.state = workspace()
            .join("target/tune")
            .join(format!("spsa-{name}-{}.json", cfg.seed));
    }
    eprintln!("kshogi-tune: {name}: spsa state {}", cfg.state.display());
    let progress = pipeline::progress("kshogi-tune", false);
    match with_variant!(kind, V => spsa::run::<V>(&cfg, &progress)) {
        Ok(state) => {
            print!("{}", spsa::summary(&state));
            ExitCode::SUCCESS
        }
        Err(e @ (spsa::SpsaError::Param(_) | spsa::SpsaError::Duplicate { .. })) => {
            usage_error(e, SPSA_USAGE)
        }
        Err(e) => {
            eprintln!("kshogi-tune: error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `--help`: prints `usage`.
fn help(usage: &str) -> ExitCode {
    print!("{usage}");
    ExitCode::SUCCESS
}

/// A command line that does not read: the error and `usage`, exit code 2.
fn usage_error(e: impl std::fmt::Display, usage: &str) -> ExitCode {
    eprintln!("kshogi-tune: error: {e}\n\n{usage}");
    ExitCode::from(2)
}

/// Fewest games: enough for one held-out game.
const HOLD_OUT_MIN: u32 = kshogi_tune::HOLD_OUT_EVERY;

/// Refuses to replace a file the tuner did not write, then writes through a temporary file
/// so that a failure leaves the old file whole.
fn write_out(path: &Path, text: &str) -> Result<(), String> {
    pipeline::write_weights(path, text).map_err(|e| e.to_string())
}

/// The workspace this tuner was built in (the default directory and weights files are
/// there).
fn workspace() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .nth(2)
        .unwrap_or(manifest)
        .to_path_buf()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("spsa") {
        return main_spsa(&args[1..]);
    }
    if args.first().map(String::as_str) == Some("switches") {
        return main_switches(&args[1..]);
    }
    let a = match parse(&args) {
        Ok(Some(a)) => a,
        Ok(None) => return help(USAGE),
        Err(e) => return usage_error(e, USAGE),
    };
    if a.init {
        let source = with_variant!(a.variant, V => initial_source::<V>());
        let out = a.out.as_deref().unwrap_or(Path::new(""));
        if let Err(e) = write_out(out, &source) {
            eprintln!("kshogi-tune: error: {e}");
            return ExitCode::FAILURE;
        }
        println!("wrote {}", out.display());
        return ExitCode::SUCCESS;
    }
    let name = with_variant!(a.variant, V => <V as kshogi_core::Variant>::NAME);
    let root = workspace();
    let cfg = pipeline::Config {
        dir: a.dir.clone().unwrap_or_else(|| {
            root.join("target/tune")
                .join(format!("{name}-{}", a.gen.seed))
        }),
        out: a.out.clone().unwrap_or_else(|| {
            root.join("crates/tuned-eval/src/weights")
                .join(format!("{name}.rs"))
        }),
        gen: a.gen,
        chunk: a.chunk,
        fit: a.fit,
        sprt: a.sprt,
    };
    eprintln!("kshogi-tune: {name}: run directory {}", cfg.dir.display());
    let progress = pipeline::progress("kshogi-tune", false);
    let outcome = with_variant!(a.variant, V => pipeline::run::<V>(&cfg, &progress));
    // The summary and any error below the last bar.
    progress.finish();
    let outcome = match outcome {
        Ok(o) => o,
        Err(e) => {
            eprintln!("kshogi-tune: error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Ok(fit) = std::fs::read_to_string(cfg.dir.join("fit.json")) {
        if let Ok(f) = serde_json::from_str::<pipeline::FitStage>(&fit) {
            print!("{}", f.summary);
            println!();
            print!("{}", f.table);
            println!();
        }
    }
    print!("{}", outcome.text);
    println!(
        "summary: {} ({:.1} s in this run)",
        cfg.dir.join("summary.json").display(),
        progress.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_tune::GENERATED_HEADER;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_options_and_names_bad_ones() {
        let a = parse(&args("--variant micro --games 50 --nodes 300 --seed 9"))
            .unwrap()
            .unwrap();
        assert_eq!(a.variant, VariantKind::parse("micro").unwrap());
        assert_eq!((a.gen.games, a.gen.nodes, a.gen.seed), (50, 300, 9));
        assert!(parse(&args("--help")).unwrap().is_none());
        let err = |s: &str| parse(&args(s)).err().unwrap_or_default();
        assert!(err("--games 5").contains("`--variant` is required"));
        assert!(err("--variant chess").contains("unknown variant `chess`"));
        assert!(err("--variant kyoto --games x").contains("`--games` needs a number"));
        assert!(err("--variant kyoto --only mobility,nope").contains("unknown weight `nope`"));
        let a = parse(&args("--variant micro --only safe_check,hanging"))
            .unwrap()
            .unwrap();
        assert_eq!(
            a.fit.only,
            vec![
                kshogi_engine::eval::W_SAFE_CHECK,
                kshogi_engine::eval::W_HANGING
            ]
        );
        // A variant's own terms are named by that variant.
        let a = parse(&args("--variant kinzoku --only countdown_used,own"))
            .unwrap()
            .unwrap();
        assert_eq!(a.fit.only.len(), 10);
        assert!(err("--variant micro --only own").contains("`--only`: unknown weight `own`"));
        assert!(err("--variant kyoto --games 3").contains("at least 10"));
        assert!(err("--variant kyoto --rate -1").contains("`--rate`"));
        assert!(err("--variant kyoto --bogus").contains("unknown argument `--bogus`"));
        assert!(err("--variant kyoto --out").contains("`--out` needs a value"));
        assert!(err("--variant kyoto --chunk 0").contains("`--chunk`"));
        assert!(err("--variant kyoto --elo0 5 --elo1 0").contains("elo0 (5) must be below"));
        assert!(err("--variant kyoto --alpha 0.7").contains("alpha (0.7)"));
        assert!(err("--variant kyoto --init").contains("`--init` needs `--out"));
        // The SPRT follows the data's settings unless told otherwise; `--no-sprt` drops it.
        let a = parse(&args(
            "--variant kyoto --nodes 700 --opening 3 --sprt-pairs 9",
        ))
        .unwrap()
        .unwrap();
        let s = a.sprt.unwrap();
        assert_eq!((s.nodes, s.opening, s.max_pairs), (700, 3, 9));
        assert_eq!(a.gen.threads, 2);
        let a = parse(&args(
            "--variant kyoto --sprt-nodes 50 --no-sprt --dir d --chunk 7",
        ))
        .unwrap()
        .unwrap();
        assert!(a.sprt.is_none());
        assert_eq!((a.dir, a.chunk), (Some(PathBuf::from("d")), 7));
    }

    #[test]
    fn spsa_options_are_read_and_bad_ones_named() {
        let Some(SpsaArgs::Run(kind, cfg)) = parse_spsa(&args(
            "--variant kyoto --params rfp_margin,lmp_base --iterations 50 --nodes 900 --seed 4 \
             --pairs 2 --state s.json --c 1.5 --threads 1",
        ))
        .unwrap() else {
            panic!("not a run")
        };
        assert_eq!(kind, VariantKind::parse("kyoto").unwrap());
        assert_eq!(cfg.params, ["rfp_margin", "lmp_base"]);
        assert_eq!(
            (cfg.iterations, cfg.nodes, cfg.seed, cfg.pairs, cfg.threads),
            (50, 900, 4, 2, 1)
        );
        assert_eq!(
            (cfg.c, cfg.a, cfg.state.clone()),
            (Some(1.5), None, PathBuf::from("s.json"))
        );
        // The defaults: 40,000 nodes, one pair an iteration, two threads.
        let Some(SpsaArgs::Run(_, d)) =
            parse_spsa(&args("--variant micro --params lmr_base")).unwrap()
        else {
            panic!("not a run")
        };
        assert_eq!(
            (d.nodes, d.pairs, d.threads, d.iterations),
            (40_000, 1, 2, 200)
        );
        assert!(matches!(
            parse_spsa(&args("--list")),
            Ok(Some(SpsaArgs::List))
        ));
        assert!(parse_spsa(&args("--help")).unwrap().is_none());
        let err = |s: &str| parse_spsa(&args(s)).err().unwrap_or_default();
        assert!(err("--params lmr_base").contains("`--variant` is required"));
        assert!(err("--variant kyoto").contains("`--params` is required"));
        assert!(err("--variant kyoto --params a --nodes 0").contains("at least 1"));
        assert!(err("--variant kyoto --params a --iterations x")
            .contains("`--iterations` needs a number"));
        assert!(err("--variant kyoto --params a --c -1").contains("`--c` must be a positive"));
        assert!(err("--variant kyoto --params a --stability -3").contains("`--stability`"));
        assert!(err("--variant kyoto --params a --bogus").contains("unknown argument `--bogus`"));
        assert!(err("--variant kyoto --params a --opening 4 --openings f").contains("exclude"));
        let Some(SpsaArgs::Run(_, o)) =
            parse_spsa(&args("--variant kyoto --params a --openings f.txt")).unwrap()
        else {
            panic!("not a run")
        };
        assert_eq!((o.openings, o.opening), (Some(PathBuf::from("f.txt")), 0));
    }

    #[test]
    fn switches_options_are_read_and_bad_ones_named() {
        let Some(SwitchArgs::Run(kind, cfg, out, None)) = parse_switches(&args(
            "--variant dobutsu --from default --only iir,null_move --nodes 900 --pairs 40 \
             --seed 4 --threads 1 --state s.json --out o.rs --elo1 5 --opening 2",
        ))
        .unwrap() else {
            panic!("not a run")
        };
        assert_eq!(kind, VariantKind::parse("dobutsu").unwrap());
        assert_eq!(cfg.start, Start::Default);
        assert_eq!(cfg.only, ["iir", "null_move"]);
        assert_eq!(
            (cfg.sprt.nodes, cfg.sprt.max_pairs, cfg.seed, cfg.threads),
            (900, 40, 4, 1)
        );
        assert_eq!((cfg.sprt.test.elo1, cfg.sprt.opening), (5.0, 2));
        assert_eq!(cfg.state, PathBuf::from("s.json"));
        assert_eq!(out, Some(PathBuf::from("o.rs")));
        // The defaults: the registered switches, 10,000 nodes, 500 pairs, two threads.
        let Some(SwitchArgs::Run(_, d, None, None)) =
            parse_switches(&args("--variant micro")).unwrap()
        else {
            panic!("not a run")
        };
        assert_eq!(d.start, Start::Registered);
        assert_eq!(
            (
                d.sprt.nodes,
                d.sprt.max_pairs,
                d.threads,
                d.seed,
                d.sprt.opening
            ),
            (10_000, 500, 2, 1, 6)
        );
        assert!(matches!(
            parse_switches(&args("--list")),
            Ok(Some(SwitchArgs::List))
        ));
        assert!(parse_switches(&args("--help")).unwrap().is_none());
        let err = |s: &str| parse_switches(&args(s)).err().unwrap_or_default();
        assert!(err("--nodes 5").contains("`--variant` is required"));
        assert!(err("--variant kyoto --from nowhere").contains("found `nowhere`"));
        assert!(err("--variant kyoto --only iir,nope").contains("unknown search switch `nope`"));
        assert!(err("--variant kyoto --only iir,iir").contains("named twice"));
        assert!(err("--variant kyoto --pairs 0").contains("at least 1"));
        assert!(err("--variant kyoto --elo0 5 --elo1 0").contains("elo0 (5) must be below"));
        assert!(err("--variant kyoto --bogus").contains("unknown argument `--bogus`"));
        assert!(err("--variant kyoto --init").contains("`--init` needs `--out"));
        let Some(SwitchArgs::Run(_, o, None, Some(f))) =
            parse_switches(&args("--variant kyoto --openings f.txt")).unwrap()
        else {
            panic!("not a run")
        };
        assert_eq!((f, o.sprt.opening), (PathBuf::from("f.txt"), 0));
        // Random plies after each line, when asked for.
        let Some(SwitchArgs::Run(_, o, None, Some(_))) =
            parse_switches(&args("--variant kyoto --opening 4 --openings f.txt")).unwrap()
        else {
            panic!("not a run")
        };
        assert_eq!(o.sprt.opening, 4);
        assert!(matches!(
            parse_switches(&args("--variant kyoto --init --out k.rs")),
            Ok(Some(SwitchArgs::Init(_, _)))
        ));
    }

    #[test]
    fn never_overwrites_a_file_it_did_not_write() {
        let dir = std::env::temp_dir().join(format!("kshogi-tune-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mine = dir.join("mine.rs");
        std::fs::write(&mine, "fn precious() {}\n").unwrap();
        let e = write_out(&mine, "x").unwrap_err();
        assert!(e.contains("not overwriting"), "{e}");
        assert_eq!(
            std::fs::read_to_string(&mine).unwrap(),
            "fn precious() {}\n"
        );
        let gen = dir.join("gen.rs");
        write_out(&gen, &format!("{GENERATED_HEADER}: 1\n")).unwrap();
        write_out(&gen, &format!("{GENERATED_HEADER}: 2\n")).unwrap();
        assert!(std::fs::read_to_string(&gen).unwrap().ends_with("2\n"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
