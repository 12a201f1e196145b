//! `kshogi perft-units`: perft as work units for batch systems (split, count one unit,
//! merge). The logic is `kshogi_perft_suite::units`; this module parses and prints.

use crate::error::CliError;
use crate::variant_select;
use crate::{interrupt, VariantArg};
use clap::{Args, Subcommand};
use kshogi_core::Variant;
use kshogi_perft_suite::perft::{parse_depth, PerftReport};
use kshogi_perft_suite::units::{self, Job};
use kshogi_registry::{with_variant, VariantKind};
use kshogi_report::output::Output;
use std::path::{Path, PathBuf};

/// The help after `kshogi perft-units --help`.
pub const UNITS_HELP: &str = "\
A perft job (POSITION, DEPTH) is split at --split-depth plies into units, one per line of
legal moves of that length; each unit is counted on its own (by a batch system's array task)
into a small result file, and the merge checks that every unit is there exactly once and
belongs to the job, then prints the total and the divide at the root as `kshogi perft
--divide` does (the time is the units' counting time added up).

  kshogi perft-units split --variant kyoto --split-depth 3 -o job.jsonl startpos 9
  kshogi perft-units count job.jsonl --out results --unit 17     # or SLURM_ARRAY_TASK_ID,
                                                                 # JOB_COMPLETION_INDEX
  kshogi perft-units merge job.jsonl results

The manifest is JSON lines, one unit a line (`unit`, `moves`, `remaining`, `job` (the
digest), `units`, `variant`, `position`, `depth`, `split_depth`, `program`, `format`).
A result file is `DIR/unit-<id>.json`. Counting a unit already counted for the job does
nothing; a file of anything else in its place is kept unless --force. See docs/scale.md.";

/// The arguments of `kshogi perft-units`.
#[derive(Debug, Args)]
pub struct UnitsArgs {
    #[command(subcommand)]
    command: UnitsCommand,
}

#[derive(Debug, Subcommand)]
enum UnitsCommand {
    /// Split perft of POSITION to DEPTH into units and write the manifest.
    Split(SplitArgs),
    /// Count one unit of a manifest (or a batch task's share) into a result file.
    Count(CountArgs),
    /// Check a job's result files and print the total and the divide at the root.
    Merge(MergeArgs),
}

#[derive(Debug, Args)]
struct SplitArgs {
    #[command(flatten)]
    variant: VariantArg,
    /// Plies below the root where the units start (1 to DEPTH)
    #[arg(long, value_name = "S")]
    split_depth: String,
    /// Write the manifest to FILE (default: standard output)
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Replace FILE if it exists
    #[arg(long)]
    force: bool,
    /// `startpos` or an SFEN, optionally followed by ` moves <usi> ...` (one argument)
    #[arg(value_name = "POSITION")]
    position: String,
    /// Plies to count: a non-negative whole number
    #[arg(value_name = "DEPTH")]
    depth: String,
}

#[derive(Debug, Args)]
struct CountArgs {
    /// The job's manifest
    #[arg(value_name = "MANIFEST")]
    manifest: PathBuf,
    /// The directory of the result files (made if missing)
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// The task's index [default: $SLURM_ARRAY_TASK_ID, else $JOB_COMPLETION_INDEX]
    #[arg(long, value_name = "K")]
    unit: Option<String>,
    /// Units per task: task K counts units K*M to K*M+M-1 (for job arrays of limited size)
    #[arg(long, value_name = "M", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    per_task: u32,
    /// Worker threads per unit
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Count again and replace a result file that is already there
    #[arg(long)]
    force: bool,
}

#[derive(Debug, Args)]
struct MergeArgs {
    /// The job's manifest
    #[arg(value_name = "MANIFEST")]
    manifest: PathBuf,
    /// Directories holding the result files
    #[arg(value_name = "DIR", required = true)]
    dirs: Vec<PathBuf>,
    /// Print one JSON object (as `kshogi perft --divide --json`) instead of text
    #[arg(long = "json", id = "json", action = clap::ArgAction::SetTrue,
          value_parser = crate::format::OutputFormat::flag())]
    format: crate::format::OutputFormat,
}

/// This program, as manifests and results name it.
fn program() -> String {
    format!("kshogi {}", env!("CARGO_PKG_VERSION"))
}

/// Runs `kshogi perft-units`.
pub fn run(args: &UnitsArgs) -> Result<String, CliError> {
    match &args.command {
        UnitsCommand::Split(a) => split(a),
        UnitsCommand::Count(a) => count(a),
        UnitsCommand::Merge(a) => merge(a),
    }
}

fn split(args: &SplitArgs) -> Result<String, CliError> {
    let depth = parse_depth(&args.depth)?;
    let split_depth = parse_depth(&args.split_depth).map_err(|_| {
        CliError::UnitsArgs(format!(
            "--split-depth must be a whole number, found `{}`",
            args.split_depth
        ))
    })?;
    let kind = variant_select::select(args.variant.variant, &args.position)?;
    // The manifest's file follows the output rule of every command, checked before the
    // split is computed.
    let output = args.output.as_deref().map(|path| Output {
        option: "-o",
        path,
        force: args.force,
    });
    if let Some(out) = &output {
        out.check(&[])?;
    }
    let pos = args.position.as_str();
    let job = with_variant!(kind, V => Job::split::<V>(pos, depth, split_depth, &program()))?;
    let manifest = job.to_manifest();
    let summary = job.summary();
    match output {
        None => {
            eprintln!("{summary}");
            Ok(manifest)
        }
        Some(out) => {
            out.write(manifest.as_bytes())?;
            Ok(format!("{summary}\nmanifest: {}\n", out.path.display()))
        }
    }
}

/// Reads and checks a manifest, and the variant it names.
fn read_manifest(path: &Path) -> Result<(Job, VariantKind), CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::Input {
        path: format!("`{}`", path.display()),
        message: e.to_string(),
    })?;
    let job = Job::parse_manifest(&text, &path.display().to_string())?;
    let kind = VariantKind::from_name(&job.variant).ok_or_else(|| {
        CliError::UnitsArgs(format!(
            "{}: variant `{}` is not one this program knows ({})",
            path.display(),
            job.variant,
            VariantKind::names()
        ))
    })?;
    Ok((job, kind))
}

fn count(args: &CountArgs) -> Result<String, CliError> {
    let (job, kind) = read_manifest(&args.manifest)?;
    let index = units::task_index(args.unit.as_deref(), |var| std::env::var(var).ok())?;
    let ids = units::task_units(&job, index, args.per_task as usize)?;
    let stop = interrupt::stop_flag();
    let threads = usize::from(args.threads);
    let mut out = String::new();
    for id in ids {
        let outcome = with_variant!(kind, V => units::run_unit::<V>(
            &job, id, &args.out, args.force, threads, stop, &program()))?;
        match outcome.describe(id, job.units.len()) {
            Some(line) => out.push_str(&line),
            None => {
                return Err(CliError::Interrupted {
                    partial: out,
                    message: format!("interrupted while counting unit {id}; it has no result"),
                });
            }
        }
    }
    Ok(out)
}

fn merge(args: &MergeArgs) -> Result<String, CliError> {
    let (job, kind) = read_manifest(&args.manifest)?;
    let results = units::read_results(&args.dirs)?;
    with_variant!(kind, V => {
        let merged = units::merge::<V>(&job, &results, &program())?;
        let report = PerftReport::new(V::NAME, job.position.clone(), job.depth, merged.nodes,
            Some(merged.divide), merged.time);
        args.format.render(&report, PerftReport::to_text)
    })
}
