//! Perft as work units for batch systems (Slurm job arrays, Kubernetes Indexed Jobs, GNU
//! parallel): a perft job (position, depth) split at a chosen depth into independent units,
//! a manifest that lists them, one small result file per counted unit, and the merge that
//! checks the results and adds them up to the total and the divide at the root.
//!
//! - [`Job::split`] makes the units: every line of `split_depth` legal moves from the root
//!   (moves in canonical USI order at each ply), each to be counted `depth - split_depth`
//!   plies deeper. Lines that end the game before the split depth have no leaves and no unit.
//! - [`Job::to_manifest`] writes the manifest, JSON lines, one unit a line; every line carries
//!   the whole job (variant, position, depths, program, digest), so a line alone says what to
//!   count. [`Job::parse_manifest`] reads it back and checks its digest.
//! - [`run_unit`] counts one unit into a directory, as `unit-<id>.json`; a unit already counted
//!   there for this job is not counted again, and nothing else is overwritten unless forced.
//! - [`merge`] reads the result files of a job and checks that each unit is there exactly
//!   once and belongs to the job, then adds them up.
//!
//! The job's digest is a 128-bit FNV-1a hash of the program, variant, position, depths and
//! every unit's moves: it tells the results of one job from another's, it is not a
//! cryptographic seal. See `docs/scale.md`.

use kshogi_core::{divide_interruptible, Move, Position, Variant};
use kshogi_notation::{move_to_usi_in, parse_game, parse_usi, to_sfen, Dialect};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The version of the manifest and result layouts; it changes when a field changes meaning.
pub const FORMAT: u32 = 1;

/// The most units a split may make: more would make a manifest of hundreds of megabytes.
pub const MAX_UNITS: usize = 1_000_000;

/// Why a split, a count or a merge cannot go on. Its `Display` names the file, line, unit
/// or field that is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitsError(pub String);

impl fmt::Display for UnitsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UnitsError {}

fn err<T>(message: impl Into<String>) -> Result<T, UnitsError> {
    Err(UnitsError(message.into()))
}

/// A perft job split into units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// The program that split it (`kshogi 0.1.0`); units are counted and merged only by it.
    pub program: String,
    /// The variant's name (`kyoto`).
    pub variant: String,
    /// The canonical SFEN of the root position.
    pub position: String,
    /// The depth of the whole count.
    pub depth: u32,
    /// The depth of the units' positions below the root.
    pub split_depth: u32,
    /// Each unit's moves from the root, in canonical USI; the unit's id is its index.
    pub units: Vec<Vec<String>>,
    /// The digest of all of the above, 32 hexadecimal digits.
    pub digest: String,
}

/// One line of a manifest: one unit, with the whole job it belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitLine {
    /// The unit's id, from 0.
    pub unit: usize,
    /// Its moves from the root, in canonical USI.
    pub moves: Vec<String>,
    /// The plies to count below its position (`depth - split_depth`).
    pub remaining: u32,
    /// The job's digest.
    pub job: String,
    /// How many units the job has.
    pub units: usize,
    /// The variant's name.
    pub variant: String,
    /// The canonical SFEN of the root.
    pub position: String,
    /// The depth of the whole count.
    pub depth: u32,
    /// The split depth.
    pub split_depth: u32,
    /// The program that split the job.
    pub program: String,
    /// The layout's version ([`FORMAT`]).
    pub format: u32,
}

/// The result file of one counted unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnitResult {
    /// The layout's version ([`FORMAT`]).
    pub format: u32,
    /// The job's digest.
    pub job: String,
    /// The unit's id.
    pub unit: usize,
    /// The unit's moves from the root.
    pub moves: Vec<String>,
    /// The plies counted below them.
    pub remaining: u32,
    /// The leaves counted.
    pub nodes: u64,
    /// The variant's name.
    pub variant: String,
    /// The depth of the whole count.
    pub depth: u32,
    /// The program that counted it.
    pub program: String,
    /// Counting time in seconds.
    pub seconds: f64,
    /// Worker threads used.
    pub threads: usize,
    /// The machine's host name, where it could be read.
    pub host: Option<String>,
    /// When the count finished, in seconds since 1970 (UTC).
    pub finished_unix: u64,
}

/// 128-bit FNV-1a.
fn fnv1a128(bytes: &[u8]) -> u128 {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u128::from(b)).wrapping_mul(PRIME))
}

/// The digest of a job's contents.
fn digest_of(
    program: &str,
    variant: &str,
    position: &str,
    depth: u32,
    split_depth: u32,
    units: &[Vec<String>],
) -> String {
    let mut text = format!(
        "kshogi perft units {FORMAT}\n{program}\n{variant}\n{position}\n{depth}\n{split_depth}\n"
    );
    for moves in units {
        text.push_str(&moves.join(" "));
        text.push('\n');
    }
    format!("{:032x}", fnv1a128(text.as_bytes()))
}

/// The legal moves of `pos` with their canonical USI text, sorted by the text.
fn sorted_moves<V: Variant>(pos: &Position<V>) -> Vec<(String, Move)> {
    let mut list: Vec<(String, Move)> = pos
        .legal_moves()
        .iter()
        .map(|&mv| (move_to_usi_in(pos, mv, Dialect::Canonical), mv))
        .collect();
    list.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    list
}

/// Appends to `out` every line of `plies` legal moves from `pos` (`line` so far), in order.
fn lines_below<V: Variant>(
    pos: &Position<V>,
    plies: u32,
    line: &mut Vec<String>,
    out: &mut Vec<Vec<String>>,
) -> Result<(), UnitsError> {
    if plies == 0 {
        if out.len() == MAX_UNITS {
            return err(format!(
                "the split makes more than {MAX_UNITS} units; choose a smaller split depth"
            ));
        }
        out.push(line.clone());
        return Ok(());
    }
    for (text, mv) in sorted_moves(pos) {
        line.push(text);
        lines_below(&pos.after(mv), plies - 1, line, out)?;
        line.pop();
    }
    Ok(())
}

/// The root of a job: the `POSITION` argument (`startpos` or an SFEN, optionally with
/// `moves ...`, played with the full rules) read as a position of `V`.
fn root_of<V: Variant>(position: &str) -> Result<Position<V>, UnitsError> {
    parse_game::<V>(position)
        .map(|g| *g.position())
        .map_err(|e| UnitsError(format!("position `{position}`: {e}")))
}

impl Job {
    /// The job in one line: `job DIGEST: VARIANT SFEN depth D, N units of R plies at split
    /// depth S`.
    pub fn summary(&self) -> String {
        format!(
            "job {}: {} {} depth {}, {} units of {} plies at split depth {}",
            self.digest,
            self.variant,
            self.position,
            self.depth,
            self.units.len(),
            self.depth - self.split_depth,
            self.split_depth
        )
    }

    /// Splits perft of `depth` from `position` (a `POSITION` argument of variant `V`) into
    /// units at `split_depth` plies below the root; `program` names the program
    /// (`kshogi 0.1.0`). The split depth must be at least 1 and at most `depth`.
    pub fn split<V: Variant>(
        position: &str,
        depth: u32,
        split_depth: u32,
        program: &str,
    ) -> Result<Job, UnitsError> {
        if split_depth == 0 || split_depth > depth {
            return err(format!(
                "the split depth must be between 1 and the depth ({depth}), found {split_depth}"
            ));
        }
        let root = root_of::<V>(position)?;
        let mut units = Vec::new();
        lines_below(&root, split_depth, &mut Vec::new(), &mut units)?;
        let position = to_sfen(&root);
        let digest = digest_of(program, V::NAME, &position, depth, split_depth, &units);
        Ok(Job {
            program: program.to_string(),
            variant: V::NAME.to_string(),
            position,
            depth,
            split_depth,
            units,
            digest,
        })
    }

    /// The manifest line of unit `id`.
    pub fn line(&self, id: usize) -> UnitLine {
        UnitLine {
            unit: id,
            moves: self.units[id].clone(),
            remaining: self.depth - self.split_depth,
            job: self.digest.clone(),
            units: self.units.len(),
            variant: self.variant.clone(),
            position: self.position.clone(),
            depth: self.depth,
            split_depth: self.split_depth,
            program: self.program.clone(),
            format: FORMAT,
        }
    }

    /// The manifest: one JSON object a line, one line a unit, in id order.
    pub fn to_manifest(&self) -> String {
        let mut out = String::new();
        for id in 0..self.units.len() {
            // A struct of strings and numbers always serialises.
            out.push_str(&serde_json::to_string(&self.line(id)).unwrap_or_default());
            out.push('\n');
        }
        out
    }

    /// Reads a manifest (`origin` names it in messages): every line one unit, ids 0, 1, ...
    /// in order, all of one job, whose digest must match the lines.
    pub fn parse_manifest(text: &str, origin: &str) -> Result<Job, UnitsError> {
        let mut job: Option<Job> = None;
        let mut remaining = 0;
        for (i, raw) in text.lines().enumerate() {
            let at = format!("{origin}:{}", i + 1);
            if raw.trim().is_empty() {
                continue;
            }
            let line: UnitLine = serde_json::from_str(raw)
                .map_err(|e| UnitsError(format!("{at}: not a manifest line: {e}")))?;
            if line.format != FORMAT {
                return err(format!(
                    "{at}: manifest format {} (this program reads format {FORMAT})",
                    line.format
                ));
            }
            let j = job.get_or_insert_with(|| {
                remaining = line.remaining;
                Job {
                    program: line.program.clone(),
                    variant: line.variant.clone(),
                    position: line.position.clone(),
                    depth: line.depth,
                    split_depth: line.split_depth,
                    units: Vec::new(),
                    digest: line.job.clone(),
                }
            });
            let same = line.program == j.program
                && line.variant == j.variant
                && line.position == j.position
                && line.depth == j.depth
                && line.split_depth == j.split_depth
                && line.job == j.digest
                && line.remaining == remaining;
            if !same {
                return err(format!(
                    "{at}: this line belongs to another job than line 1"
                ));
            }
            if line.unit != j.units.len() {
                return err(format!(
                    "{at}: unit {} where unit {} was expected (ids run from 0 in order)",
                    line.unit,
                    j.units.len()
                ));
            }
            if line.moves.len() != j.split_depth as usize || remaining + j.split_depth != j.depth {
                return err(format!(
                    "{at}: unit {} has {} moves and {} plies to count, which does not make \
                     split depth {} and depth {}",
                    line.unit,
                    line.moves.len(),
                    line.remaining,
                    j.split_depth,
                    j.depth
                ));
            }
            if line.units <= line.unit {
                return err(format!(
                    "{at}: unit {} of a job of {} units",
                    line.unit, line.units
                ));
            }
            j.units.push(line.moves);
        }
        let Some(job) = job else {
            return err(format!("{origin}: the manifest has no units"));
        };
        let digest = digest_of(
            &job.program,
            &job.variant,
            &job.position,
            job.depth,
            job.split_depth,
            &job.units,
        );
        if digest != job.digest {
            return err(format!(
                "{origin}: the manifest's units do not match its digest {} (lines missing, \
                 added or edited)",
                job.digest
            ));
        }
        Ok(job)
    }

    /// Checks that this job is of variant `V` and was split by `program`.
    fn check_for<V: Variant>(&self, program: &str) -> Result<(), UnitsError> {
        if self.variant != V::NAME {
            return err(format!(
                "the job is of variant {}, not {}",
                self.variant,
                V::NAME
            ));
        }
        if self.program != program {
            return err(format!(
                "the job was split by {}; this is {program}, whose counts it would not merge \
                 (split it again with this program)",
                self.program
            ));
        }
        Ok(())
    }
}

/// Counts unit `id` of `job` with `threads` threads; `None` when `stop` ended the count.
/// `program` is this program (`kshogi 0.1.0`), which must be the one that split the job.
pub fn count_unit<V: Variant>(
    job: &Job,
    id: usize,
    threads: usize,
    stop: &AtomicBool,
    program: &str,
) -> Result<Option<UnitResult>, UnitsError> {
    job.check_for::<V>(program)?;
    let Some(moves) = job.units.get(id) else {
        return err(format!(
            "unit {id} is not in the job: its units are 0 to {}",
            job.units.len() - 1
        ));
    };
    let mut pos = root_of::<V>(&job.position)?;
    for (ply, text) in moves.iter().enumerate() {
        let mv = parse_usi(&pos, text).map_err(|e| {
            UnitsError(format!(
                "unit {id}: move {} `{text}` cannot be played: {e}",
                ply + 1
            ))
        })?;
        pos = pos.after(mv);
    }
    let remaining = job.depth - job.split_depth;
    let start = Instant::now();
    let nodes = if remaining == 0 {
        1
    } else {
        let split = divide_interruptible(&pos, remaining, threads, stop);
        if split.iter().any(|(_, n)| n.is_none()) {
            return Ok(None);
        }
        split.iter().map(|(_, n)| n.unwrap_or(0)).sum()
    };
    let seconds = start.elapsed().as_secs_f64();
    Ok(Some(UnitResult {
        format: FORMAT,
        job: job.digest.clone(),
        unit: id,
        moves: moves.clone(),
        remaining,
        nodes,
        variant: job.variant.clone(),
        depth: job.depth,
        program: program.to_string(),
        seconds,
        threads: threads.max(1),
        host: host_name(),
        finished_unix: SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
    }))
}

/// The machine's host name (Linux), for the result files.
fn host_name() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// The result file of unit `id` in `dir`.
pub fn result_path(dir: &Path, id: usize) -> PathBuf {
    dir.join(format!("unit-{id}.json"))
}

/// Why `result` is not the result of unit `id` of `job`, if it is not.
fn foreign(job: &Job, result: &UnitResult, id: Option<usize>) -> Option<String> {
    if result.format != FORMAT {
        return Some(format!("it is of format {}, not {FORMAT}", result.format));
    }
    if result.variant != job.variant {
        return Some(format!(
            "it is a count of variant {}, this job is of {}",
            result.variant, job.variant
        ));
    }
    if result.depth != job.depth {
        return Some(format!(
            "it is a count to depth {}, this job counts to depth {}",
            result.depth, job.depth
        ));
    }
    if result.program != job.program {
        return Some(format!(
            "it was counted by {}, this job was split by {}",
            result.program, job.program
        ));
    }
    if result.job != job.digest {
        return Some(format!(
            "it belongs to job {}, this job is {}",
            result.job, job.digest
        ));
    }
    if let Some(id) = id {
        if result.unit != id {
            return Some(format!(
                "it is the result of unit {}, not {id}",
                result.unit
            ));
        }
    }
    match job.units.get(result.unit) {
        None => Some(format!(
            "it names unit {}, this job has units 0 to {}",
            result.unit,
            job.units.len() - 1
        )),
        Some(moves)
            if *moves != result.moves || result.remaining + job.split_depth != job.depth =>
        {
            Some(format!(
                "its moves or depth are not those of unit {}",
                result.unit
            ))
        }
        Some(_) => None,
    }
}

/// What [`run_unit`] did.
#[derive(Debug, Clone, PartialEq)]
pub enum UnitOutcome {
    /// The unit was counted and its result written to the file.
    Counted(UnitResult, PathBuf),
    /// The file already held this unit's result for this job; nothing was counted.
    AlreadyCounted(UnitResult, PathBuf),
    /// `stop` ended the count; nothing was written.
    Interrupted,
}

impl UnitOutcome {
    /// What happened to unit `id` of a job of `units` units, in one line ending in a
    /// newline: its moves, its count and how it came (`in 1.234 s`, `already counted`) and
    /// its file; `None` when it was interrupted.
    pub fn describe(&self, id: usize, units: usize) -> Option<String> {
        let (r, path, verb) = match self {
            UnitOutcome::Counted(r, path) => (r, path, format!("in {:.3} s", r.seconds)),
            UnitOutcome::AlreadyCounted(r, path) => (r, path, "already counted".to_string()),
            UnitOutcome::Interrupted => return None,
        };
        Some(format!(
            "unit {id} of {units} ({}): {} nodes {verb} -> {}\n",
            r.moves.join(" "),
            r.nodes,
            path.display()
        ))
    }
}

/// Counts unit `id` of `job` into `dir` (made if missing) as `unit-<id>.json`, written to a
/// temporary file first and renamed, so that a count killed midway leaves no result.
///
/// Re-running is safe: when the file already holds this unit's result for this job, the unit
/// is not counted again ([`UnitOutcome::AlreadyCounted`]) unless `force`. A file there that
/// is not such a result (another job's, or unreadable) is an error unless `force`, which
/// counts the unit and replaces it.
pub fn run_unit<V: Variant>(
    job: &Job,
    id: usize,
    dir: &Path,
    force: bool,
    threads: usize,
    stop: &AtomicBool,
    program: &str,
) -> Result<UnitOutcome, UnitsError> {
    job.check_for::<V>(program)?;
    if id >= job.units.len() {
        return err(format!(
            "unit {id} is not in the job: its units are 0 to {}",
            job.units.len() - 1
        ));
    }
    let path = result_path(dir, id);
    if !force && path.exists() {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| UnitsError(format!("cannot read {}: {e}", path.display())))?;
        let why = match serde_json::from_str::<UnitResult>(&text) {
            Ok(result) => match foreign(job, &result, Some(id)) {
                None => return Ok(UnitOutcome::AlreadyCounted(result, path)),
                Some(why) => why,
            },
            Err(e) => format!("it is not a unit result: {e}"),
        };
        return err(format!(
            "{} exists and is not unit {id}'s result for this job ({why}); not overwriting \
             it without --force",
            path.display()
        ));
    }
    let Some(result) = count_unit::<V>(job, id, threads, stop, program)? else {
        return Ok(UnitOutcome::Interrupted);
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| UnitsError(format!("cannot make {}: {e}", dir.display())))?;
    let tmp = dir.join(format!(".unit-{id}.json.{}.tmp", std::process::id()));
    let mut text = serde_json::to_string(&result)
        .map_err(|e| UnitsError(format!("cannot write unit {id}'s result: {e}")))?;
    text.push('\n');
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, &path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            UnitsError(format!("cannot write {}: {e}", path.display()))
        })?;
    Ok(UnitOutcome::Counted(result, path))
}

/// Why a batch task does not know which unit it counts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TaskIndexError {
    /// No `--unit` and no batch system's variable.
    #[error(
        "which unit? give --unit K, or run as a batch task that sets SLURM_ARRAY_TASK_ID or \
         JOB_COMPLETION_INDEX"
    )]
    Missing,
    /// The index given (by `from`: `--unit` or `$VARIABLE`) is not a whole number.
    #[error("{from} must be a whole number from 0, found `{text}`")]
    NotANumber {
        /// Where it came from.
        from: String,
        /// What was given.
        text: String,
    },
}

/// A batch task's index: `explicit` (`--unit K`), else the batch system's variable as
/// `var` reads it, `$SLURM_ARRAY_TASK_ID` and then `$JOB_COMPLETION_INDEX`.
pub fn task_index(
    explicit: Option<&str>,
    var: impl Fn(&str) -> Option<String>,
) -> Result<usize, TaskIndexError> {
    let (text, from) = match explicit {
        Some(t) => (t.to_string(), "--unit".to_string()),
        None => ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"]
            .iter()
            .find_map(|name| var(name).map(|v| (v, format!("${name}"))))
            .ok_or(TaskIndexError::Missing)?,
    };
    text.trim()
        .parse()
        .map_err(|_| TaskIndexError::NotANumber { from, text })
}

/// The ids that batch index `index` counts when each task counts `per_task` units: `index *
/// per_task` and the `per_task - 1` after it, as far as the job goes.
pub fn task_units(
    job: &Job,
    index: usize,
    per_task: usize,
) -> Result<std::ops::Range<usize>, UnitsError> {
    let per_task = per_task.max(1);
    let tasks = job.units.len().div_ceil(per_task);
    let first = index.checked_mul(per_task).filter(|&f| f < job.units.len());
    match first {
        Some(first) => Ok(first..(first + per_task).min(job.units.len())),
        None => err(format!(
            "task index {index} is past the job: {} units, {per_task} a task, make tasks 0 to {}",
            job.units.len(),
            tasks - 1
        )),
    }
}

/// Reads every result file (`unit-*.json`) in `dirs`: each file's path and text.
pub fn read_results(dirs: &[PathBuf]) -> Result<Vec<(PathBuf, String)>, UnitsError> {
    let mut out = Vec::new();
    for dir in dirs {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| UnitsError(format!("cannot read the directory {}: {e}", dir.display())))?;
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("unit-") && n.ends_with(".json"))
            })
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| UnitsError(format!("cannot read {}: {e}", path.display())))?;
            out.push((path, text));
        }
    }
    Ok(out)
}

/// The merged count of a job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    /// The leaves of the whole tree.
    pub nodes: u64,
    /// Leaves below each legal root move, by canonical USI text, sorted (as `kshogi perft
    /// --divide` prints them; a root move with no unit below it has 0).
    pub divide: Vec<(String, u64)>,
    /// The counting time of all units, added up.
    pub time: Duration,
    /// How many units there were.
    pub units: usize,
}

/// The most names a merge error lists of one kind; the rest are counted.
const MAX_NAMED: usize = 10;

/// `items` joined by `, `, the first [`MAX_NAMED`] of them and the number of the rest.
fn named(items: &[String]) -> String {
    let mut text = items
        .iter()
        .take(MAX_NAMED)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > MAX_NAMED {
        text.push_str(&format!(" and {} more", items.len() - MAX_NAMED));
    }
    text
}

/// Merges the result files of `job` (each a path and its text, from [`read_results`]) into
/// the total and the divide at the root.
///
/// Every unit must be there exactly once, and every file must be a result of this job (its
/// digest, variant, depth and program); otherwise the error names the foreign, unreadable,
/// duplicate and missing ones.
pub fn merge<V: Variant>(
    job: &Job,
    results: &[(PathBuf, String)],
    program: &str,
) -> Result<Merged, UnitsError> {
    job.check_for::<V>(program)?;
    let root = root_of::<V>(&job.position)?;
    let mut problems = Vec::new();
    let mut foreign_files = Vec::new();
    let mut seen: Vec<Vec<&Path>> = vec![Vec::new(); job.units.len()];
    let mut counts: Vec<u64> = vec![0; job.units.len()];
    let mut time = 0.0;
    for (path, text) in results {
        match serde_json::from_str::<UnitResult>(text) {
            Err(e) => foreign_files.push(format!("{} (not a unit result: {e})", path.display())),
            Ok(r) => match foreign(job, &r, None) {
                Some(why) => foreign_files.push(format!("{} ({why})", path.display())),
                None => {
                    seen[r.unit].push(path);
                    counts[r.unit] = r.nodes;
                    time += r.seconds;
                }
            },
        }
    }
    if !foreign_files.is_empty() {
        problems.push(format!(
            "{} result file(s) do not belong to this job: {}",
            foreign_files.len(),
            named(&foreign_files)
        ));
    }
    let twice: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, p)| p.len() > 1)
        .map(|(id, p)| {
            let files: Vec<String> = p.iter().map(|p| p.display().to_string()).collect();
            format!("unit {id} ({})", files.join(" and "))
        })
        .collect();
    if !twice.is_empty() {
        problems.push(format!(
            "{} unit(s) counted more than once: {}",
            twice.len(),
            named(&twice)
        ));
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, p)| p.is_empty())
        .map(|(id, _)| id.to_string())
        .collect();
    if !missing.is_empty() {
        problems.push(format!(
            "{} of {} units missing: {}",
            missing.len(),
            job.units.len(),
            named(&missing)
        ));
    }
    if !problems.is_empty() {
        return err(format!("job {}: {}", job.digest, problems.join("; ")));
    }
    let mut by_root: BTreeMap<String, u64> = sorted_moves(&root)
        .into_iter()
        .map(|(text, _)| (text, 0))
        .collect();
    for (moves, n) in job.units.iter().zip(&counts) {
        *by_root.entry(moves[0].clone()).or_insert(0) += n;
    }
    Ok(Merged {
        nodes: counts.iter().sum(),
        divide: by_root.into_iter().collect(),
        time: Duration::from_secs_f64(time),
        units: job.units.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_task_index_is_given_or_read_from_the_batch_system() {
        let vars = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            task_index(Some(" 3 "), vars(&[("SLURM_ARRAY_TASK_ID", "5")])),
            Ok(3)
        );
        assert_eq!(
            task_index(None, vars(&[("SLURM_ARRAY_TASK_ID", "5")])),
            Ok(5)
        );
        assert_eq!(
            task_index(None, vars(&[("JOB_COMPLETION_INDEX", "7")])),
            Ok(7)
        );
        // Slurm's variable comes first.
        let both = vars(&[("JOB_COMPLETION_INDEX", "7"), ("SLURM_ARRAY_TASK_ID", "1")]);
        assert_eq!(task_index(None, both), Ok(1));
        assert_eq!(task_index(None, vars(&[])), Err(TaskIndexError::Missing));
        let e = task_index(None, vars(&[("JOB_COMPLETION_INDEX", "-1")])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "$JOB_COMPLETION_INDEX must be a whole number from 0, found `-1`"
        );
        let e = task_index(Some("x"), vars(&[])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--unit must be a whole number from 0, found `x`"
        );
    }
    use kshogi_rules_kinzoku::Kinzoku;
    use kshogi_rules_kyoto::Kyoto;

    const PROGRAM: &str = "kshogi test";
    static NEVER: AtomicBool = AtomicBool::new(false);

    /// A fresh, empty directory under the system's temporary directory.
    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kshogi-units-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn count_all<V: Variant>(job: &Job, dir: &Path) {
        for id in 0..job.units.len() {
            let out = run_unit::<V>(job, id, dir, false, 1, &NEVER, PROGRAM).unwrap();
            assert!(matches!(out, UnitOutcome::Counted(..)), "{out:?}");
        }
    }

    #[test]
    fn merged_counts_equal_the_reference_table() {
        // perft/reference.tsv (independent engines): Kyoto start depth 4 = 18268 and its 12
        // root moves; Kinzoku start depth 5 = 14494.
        let dir = temp_dir("kyoto4");
        let job = Job::split::<Kyoto>("startpos", 4, 2, PROGRAM).unwrap();
        // 137 lines of two plies (reference.tsv, depth 2).
        assert_eq!(job.units.len(), 137);
        count_all::<Kyoto>(&job, &dir);
        let merged = merge::<Kyoto>(
            &job,
            &read_results(std::slice::from_ref(&dir)).unwrap(),
            PROGRAM,
        )
        .unwrap();
        assert_eq!(merged.nodes, 18268);
        assert_eq!(merged.divide.len(), 12);
        assert_eq!(merged.divide.iter().map(|d| d.1).sum::<u64>(), 18268);
        // The divide at the root: each root move's count is perft 3 after it, which the
        // whole-tree divide of core (a different path: no units) gives too.
        let root = root_of::<Kyoto>("startpos").unwrap();
        for (text, n) in &merged.divide {
            let mv = parse_usi(&root, text).unwrap();
            let mut after = root.after(mv);
            assert_eq!(*n, kshogi_core::perft(&mut after, 3), "{text}");
        }
        let _ = std::fs::remove_dir_all(&dir);

        let dir = temp_dir("kinzoku5");
        let job = Job::split::<Kinzoku>("startpos", 5, 3, PROGRAM).unwrap();
        assert_eq!(job.units.len(), 335);
        count_all::<Kinzoku>(&job, &dir);
        let merged = merge::<Kinzoku>(
            &job,
            &read_results(std::slice::from_ref(&dir)).unwrap(),
            PROGRAM,
        )
        .unwrap();
        assert_eq!(merged.nodes, 14494);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn split_at_full_depth_counts_one_per_unit() {
        // Kyoto start depth 2 = 137 (reference.tsv): 137 units of 0 plies.
        let dir = temp_dir("full");
        let job = Job::split::<Kyoto>("startpos", 2, 2, PROGRAM).unwrap();
        count_all::<Kyoto>(&job, &dir);
        let merged = merge::<Kyoto>(
            &job,
            &read_results(std::slice::from_ref(&dir)).unwrap(),
            PROGRAM,
        )
        .unwrap();
        assert_eq!(merged.nodes, 137);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn manifest_round_trips_and_rejects_edits() {
        let job = Job::split::<Kyoto>("startpos moves 1e1d+", 3, 1, PROGRAM).unwrap();
        let text = job.to_manifest();
        assert_eq!(Job::parse_manifest(&text, "m.jsonl").unwrap(), job);
        // Drop a line: the digest no longer matches (or the ids skip).
        let fewer: String = text.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert!(Job::parse_manifest(&fewer, "m.jsonl").is_err());
        let last_dropped: String = text
            .lines()
            .take(text.lines().count() - 1)
            .map(|l| format!("{l}\n"))
            .collect();
        let e = Job::parse_manifest(&last_dropped, "m.jsonl").unwrap_err();
        assert!(e.0.contains("digest"), "{e}");
        let e = Job::parse_manifest("{\"unit\": 0}\n", "m.jsonl").unwrap_err();
        assert!(e.0.starts_with("m.jsonl:1: not a manifest line"), "{e}");
        assert!(Job::split::<Kyoto>("startpos", 3, 0, PROGRAM).is_err());
        assert!(Job::split::<Kyoto>("startpos", 3, 4, PROGRAM).is_err());
    }

    fn first_words(r: &UnitResult, path: &Path, n: usize) -> String {
        UnitOutcome::Counted(r.clone(), path.to_path_buf())
            .describe(0, n)
            .unwrap()
    }

    #[test]
    fn reruns_are_idempotent_and_nothing_is_overwritten() {
        let dir = temp_dir("rerun");
        let job = Job::split::<Kyoto>("startpos", 3, 1, PROGRAM).unwrap();
        let first = run_unit::<Kyoto>(&job, 0, &dir, false, 1, &NEVER, PROGRAM).unwrap();
        let UnitOutcome::Counted(r, path) = first else {
            panic!("{first:?}")
        };
        let again = run_unit::<Kyoto>(&job, 0, &dir, false, 1, &NEVER, PROGRAM).unwrap();
        assert_eq!(again, UnitOutcome::AlreadyCounted(r.clone(), path.clone()));
        // The words of each outcome: the unit's moves, its count, how it came, its file.
        let n = job.units.len();
        let head = format!("unit 0 of {n} ({}): {} nodes ", r.moves.join(" "), r.nodes);
        assert_eq!(
            again.describe(0, n).unwrap(),
            format!("{head}already counted -> {}\n", path.display())
        );
        assert!(first_words(&r, &path, n).starts_with(&format!("{head}in ")));
        assert_eq!(UnitOutcome::Interrupted.describe(0, n), None);
        // Kyoto start depth 3 split at 1: one unit per legal first move, 2 plies each.
        assert_eq!(
            job.summary(),
            format!(
                "job {}: kyoto {} depth 3, {n} units of 2 plies at split depth 1",
                job.digest, job.position
            )
        );
        // Another job's result in the place of unit 0: refused, and left as it was.
        let other = Job::split::<Kyoto>("startpos", 4, 1, PROGRAM).unwrap();
        let e = run_unit::<Kyoto>(&other, 0, &dir, false, 1, &NEVER, PROGRAM).unwrap_err();
        assert!(e.0.contains("--force") && e.0.contains("depth 3"), "{e}");
        let before = std::fs::read_to_string(&path).unwrap();
        assert!(before.contains(&job.digest));
        let forced = run_unit::<Kyoto>(&other, 0, &dir, true, 1, &NEVER, PROGRAM).unwrap();
        assert!(matches!(forced, UnitOutcome::Counted(..)));
        assert!(std::fs::read_to_string(&path)
            .unwrap()
            .contains(&other.digest));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn merge_names_missing_duplicate_and_foreign_results() {
        let a = temp_dir("merge-a");
        let b = temp_dir("merge-b");
        let job = Job::split::<Kyoto>("startpos", 3, 1, PROGRAM).unwrap();
        assert_eq!(job.units.len(), 12);
        for id in 0..10 {
            run_unit::<Kyoto>(&job, id, &a, false, 1, &NEVER, PROGRAM).unwrap();
        }
        let e = merge::<Kyoto>(
            &job,
            &read_results(std::slice::from_ref(&a)).unwrap(),
            PROGRAM,
        )
        .unwrap_err();
        assert!(e.0.contains("2 of 12 units missing: 10, 11"), "{e}");
        // Unit 3 also in b: counted twice.
        run_unit::<Kyoto>(&job, 3, &b, false, 1, &NEVER, PROGRAM).unwrap();
        let e = merge::<Kyoto>(
            &job,
            &read_results(&[a.clone(), b.clone()]).unwrap(),
            PROGRAM,
        )
        .unwrap_err();
        assert!(
            e.0.contains("1 unit(s) counted more than once: unit 3"),
            "{e}"
        );
        // A result of a job of another depth in b.
        std::fs::remove_file(result_path(&b, 3)).unwrap();
        let other = Job::split::<Kyoto>("startpos", 2, 1, PROGRAM).unwrap();
        run_unit::<Kyoto>(&other, 11, &b, false, 1, &NEVER, PROGRAM).unwrap();
        run_unit::<Kyoto>(&job, 10, &b, false, 1, &NEVER, PROGRAM).unwrap();
        let e = merge::<Kyoto>(
            &job,
            &read_results(&[a.clone(), b.clone()]).unwrap(),
            PROGRAM,
        )
        .unwrap_err();
        assert!(
            e.0.contains("unit-11.json (it is a count to depth 2"),
            "{e}"
        );
        assert!(e.0.contains("1 of 12 units missing: 11"), "{e}");
        // A damaged file.
        std::fs::write(result_path(&b, 11), "{").unwrap();
        let e = merge::<Kyoto>(
            &job,
            &read_results(&[a.clone(), b.clone()]).unwrap(),
            PROGRAM,
        )
        .unwrap_err();
        assert!(e.0.contains("not a unit result"), "{e}");
        // Another program's manifest is refused before anything is read.
        let e = merge::<Kyoto>(&job, &[], "kshogi 9").unwrap_err();
        assert!(e.0.contains("split by kshogi test"), "{e}");
        let _ = std::fs::remove_dir_all(&a);
        let _ = std::fs::remove_dir_all(&b);
    }

    #[test]
    fn tasks_cover_the_units_once() {
        let job = Job::split::<Kyoto>("startpos", 2, 1, PROGRAM).unwrap();
        assert_eq!(task_units(&job, 0, 5).unwrap(), 0..5);
        assert_eq!(task_units(&job, 2, 5).unwrap(), 10..12);
        assert!(task_units(&job, 3, 5).is_err());
        assert_eq!(task_units(&job, 11, 1).unwrap(), 11..12);
    }
}
