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
use kshogi_notation::{
    move_to_usi_in, parse_game, parse_usi, to_sfen, Dialect, PositionArgError, UsiError,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The version of the manifest and result layouts; it changes when a field changes meaning.
pub const FORMAT: u32 = 1;

/// The most units a split may make: more would make a manifest of hundreds of megabytes.
pub const MAX_UNITS: usize = 1_000_000;

/// Why a split, a count or a merge cannot go on: one variant per kind of failure, with the
/// values it is about. Its `Display` names the file, line, unit or field that is wrong.
#[derive(Debug, thiserror::Error)]
pub enum UnitsError {
    /// The split would make more than `limit` ([`MAX_UNITS`]) units.
    #[error("the split makes more than {limit} units; choose a smaller split depth")]
    TooManyUnits {
        /// The most units a split may make.
        limit: usize,
    },
    /// The split depth is 0 or deeper than the depth.
    #[error("the split depth must be between 1 and the depth ({depth}), found {split_depth}")]
    SplitDepth {
        /// The depth of the whole count.
        depth: u32,
        /// The split depth asked for.
        split_depth: u32,
    },
    /// The job's position (the `POSITION` argument, or a manifest's root) cannot be read.
    #[error("position `{position}`: {source}")]
    Position {
        /// The position as given.
        position: String,
        /// Why it cannot be read.
        source: PositionArgError,
    },
    /// A manifest line is not a JSON unit line.
    #[error("{origin}:{line}: not a manifest line: {source}")]
    NotAManifestLine {
        /// The manifest, as the caller names it.
        origin: String,
        /// The line's number, from 1.
        line: usize,
        /// Why it is not one.
        source: serde_json::Error,
    },
    /// A manifest line of another layout version than [`FORMAT`].
    #[error("{origin}:{line}: manifest format {found} (this program reads format {expected})")]
    ManifestFormat {
        /// The manifest.
        origin: String,
        /// The line's number, from 1.
        line: usize,
        /// The line's format.
        found: u32,
        /// The format this program reads.
        expected: u32,
    },
    /// A manifest line whose job (program, variant, position, depths or digest) is not
    /// that of the first line.
    #[error("{origin}:{line}: this line belongs to another job than line 1")]
    MixedJobs {
        /// The manifest.
        origin: String,
        /// The line's number, from 1.
        line: usize,
    },
    /// A manifest line whose unit id is not the next one.
    #[error(
        "{origin}:{line}: unit {found} where unit {expected} was expected (ids run from 0 in \
         order)"
    )]
    UnitOutOfOrder {
        /// The manifest.
        origin: String,
        /// The line's number, from 1.
        line: usize,
        /// The id on the line.
        found: usize,
        /// The id expected there.
        expected: usize,
    },
    /// A manifest line whose moves and plies to count do not add up to the job's depths.
    #[error(
        "{origin}:{line}: unit {unit} has {moves} moves and {remaining} plies to count, which \
         does not make split depth {split_depth} and depth {depth}"
    )]
    UnitDepths {
        /// The manifest.
        origin: String,
        /// The line's number, from 1.
        line: usize,
        /// The unit's id.
        unit: usize,
        /// How many moves the line has.
        moves: usize,
        /// The plies to count the line gives.
        remaining: u32,
        /// The job's split depth.
        split_depth: u32,
        /// The job's depth.
        depth: u32,
    },
    /// A manifest line whose unit id is not below the number of units it gives.
    #[error("{origin}:{line}: unit {unit} of a job of {units} units")]
    UnitPastCount {
        /// The manifest.
        origin: String,
        /// The line's number, from 1.
        line: usize,
        /// The unit's id.
        unit: usize,
        /// The number of units the line gives.
        units: usize,
    },
    /// A manifest with no unit line.
    #[error("{origin}: the manifest has no units")]
    EmptyManifest {
        /// The manifest.
        origin: String,
    },
    /// A manifest whose units are not those its digest was made of.
    #[error(
        "{origin}: the manifest's units do not match its digest {digest} (lines missing, added \
         or edited)"
    )]
    Digest {
        /// The manifest.
        origin: String,
        /// The digest its lines give.
        digest: String,
    },
    /// The job is of another variant than the one it is counted or merged as.
    #[error("the job is of variant {job}, not {this}")]
    Variant {
        /// The job's variant.
        job: String,
        /// The variant it was to be counted as.
        this: String,
    },
    /// The job was split by another program, whose counts this one would not merge.
    #[error(
        "the job was split by {split_by}; this is {this}, whose counts it would not merge \
         (split it again with this program)"
    )]
    Program {
        /// The program that split it.
        split_by: String,
        /// This program.
        this: String,
    },
    /// A unit id past the job's units.
    #[error("unit {unit} is not in the job: {}", unit_range("its units are", *units))]
    NoSuchUnit {
        /// The id asked for.
        unit: usize,
        /// How many units the job has.
        units: usize,
    },
    /// A move of a unit cannot be played from the position before it.
    #[error("unit {unit}: move {number} `{text}` cannot be played: {source}")]
    Move {
        /// The unit's id.
        unit: usize,
        /// The move's number in the unit's line, from 1.
        number: usize,
        /// The move's text.
        text: String,
        /// Why it cannot be played.
        source: UsiError,
    },
    /// The result file of a unit holds something else than its result for this job, and
    /// counting was not forced.
    #[error(
        "{} exists and is not unit {unit}'s result for this job ({}); not overwriting it \
         without --force",
        path.display(),
        why.as_clause()
    )]
    Occupied {
        /// The result file.
        path: PathBuf,
        /// The unit's id.
        unit: usize,
        /// What the file holds instead.
        why: Foreign,
    },
    /// A result file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: io::Error,
    },
    /// A directory of result files could not be listed.
    #[error("cannot read the directory {}: {source}", dir.display())]
    ReadDir {
        /// The directory.
        dir: PathBuf,
        /// The system's reason.
        source: io::Error,
    },
    /// The directory of the result files could not be made.
    #[error("cannot make {}: {source}", dir.display())]
    MakeDir {
        /// The directory.
        dir: PathBuf,
        /// The system's reason.
        source: io::Error,
    },
    /// A unit's result could not be turned into JSON (not expected to happen).
    #[error("cannot write unit {unit}'s result: {source}")]
    Serialize {
        /// The unit's id.
        unit: usize,
        /// Why.
        source: serde_json::Error,
    },
    /// A result file could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: io::Error,
    },
    /// A batch task index past the job's units.
    #[error(
        "task index {index} is past the job: {units} units, {per_task} a task, {}",
        task_range(*units, *per_task)
    )]
    TaskPastJob {
        /// The task's index.
        index: usize,
        /// How many units the job has.
        units: usize,
        /// Units per task.
        per_task: usize,
    },
    /// The result files do not make the job: some are foreign, some units are there more
    /// than once, some are missing (each list may be empty, not all of them).
    #[error("job {job}: {}", merge_problems(*units, foreign, duplicates, missing))]
    Merge {
        /// The job's digest.
        job: String,
        /// How many units the job has.
        units: usize,
        /// The result files that are not results of this job, in the order read.
        foreign: Vec<ForeignFile>,
        /// The units whose result is there more than once, by id.
        duplicates: Vec<Duplicate>,
        /// The ids of the units with no result, in order.
        missing: Vec<usize>,
    },
}

/// Why a result file is not the result of a unit of the job (or not of the unit expected).
#[derive(Debug, thiserror::Error)]
pub enum Foreign {
    /// It is not a unit result at all.
    #[error("not a unit result: {0}")]
    NotAResult(#[source] serde_json::Error),
    /// It is of another layout version than [`FORMAT`].
    #[error("it is of format {found}, not {expected}")]
    Format {
        /// Its format.
        found: u32,
        /// The format of this program.
        expected: u32,
    },
    /// It counts another variant.
    #[error("it is a count of variant {found}, this job is of {job}")]
    Variant {
        /// Its variant.
        found: String,
        /// The job's.
        job: String,
    },
    /// It counts to another depth.
    #[error("it is a count to depth {found}, this job counts to depth {job}")]
    Depth {
        /// Its depth.
        found: u32,
        /// The job's.
        job: u32,
    },
    /// Another program counted it.
    #[error("it was counted by {found}, this job was split by {job}")]
    Program {
        /// The program that counted it.
        found: String,
        /// The program that split the job.
        job: String,
    },
    /// It belongs to another job (another digest).
    #[error("it belongs to job {found}, this job is {job}")]
    Job {
        /// Its job's digest.
        found: String,
        /// This job's digest.
        job: String,
    },
    /// It is the result of another unit than the one expected.
    #[error("it is the result of unit {found}, not {expected}")]
    Unit {
        /// The unit it is of.
        found: usize,
        /// The unit expected.
        expected: usize,
    },
    /// It names a unit the job does not have.
    #[error("it names unit {found}, {}", unit_range("this job has units", *units))]
    NoSuchUnit {
        /// The unit it names.
        found: usize,
        /// How many units the job has.
        units: usize,
    },
    /// Its moves or plies to count are not those of the unit it names.
    #[error("its moves or depth are not those of unit {unit}")]
    Moves {
        /// The unit it names.
        unit: usize,
    },
}

impl Foreign {
    /// The reason as a clause of its own (`it is not a unit result: ...`, `it is a count
    /// to depth 2, ...`).
    fn as_clause(&self) -> String {
        match self {
            Foreign::NotAResult(_) => format!("it is {self}"),
            _ => self.to_string(),
        }
    }
}

/// A result file that does not belong to the job, and why.
#[derive(Debug)]
pub struct ForeignFile {
    /// The file.
    pub path: PathBuf,
    /// Why it does not belong.
    pub why: Foreign,
}

/// A unit whose result is in more than one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// The unit's id.
    pub unit: usize,
    /// The files holding its result, in the order read.
    pub paths: Vec<PathBuf>,
}

/// `PREFIX 0 to N-1` for a job of `units` units (`the job has no units` for none).
fn unit_range(prefix: &str, units: usize) -> String {
    match units.checked_sub(1) {
        Some(last) => format!("{prefix} 0 to {last}"),
        None => "the job has no units".to_string(),
    }
}

/// `make tasks 0 to N-1` for `units` units, `per_task` a task (`the job has no units`).
fn task_range(units: usize, per_task: usize) -> String {
    match units.div_ceil(per_task.max(1)).checked_sub(1) {
        Some(last) => format!("make tasks 0 to {last}"),
        None => "the job has no units".to_string(),
    }
}

/// The problems of a merge, joined by `; `.
fn merge_problems(
    units: usize,
    foreign: &[ForeignFile],
    duplicates: &[Duplicate],
    missing: &[usize],
) -> String {
    let mut problems = Vec::new();
    if !foreign.is_empty() {
        let files: Vec<String> = foreign
            .iter()
            .map(|f| format!("{} ({})", f.path.display(), f.why))
            .collect();
        problems.push(format!(
            "{} result file(s) do not belong to this job: {}",
            foreign.len(),
            named(&files)
        ));
    }
    if !duplicates.is_empty() {
        let twice: Vec<String> = duplicates
            .iter()
            .map(|d| {
                let files: Vec<String> = d.paths.iter().map(|p| p.display().to_string()).collect();
                format!("unit {} ({})", d.unit, files.join(" and "))
            })
            .collect();
        problems.push(format!(
            "{} unit(s) counted more than once: {}",
            duplicates.len(),
            named(&twice)
        ));
    }
    if !missing.is_empty() {
        let ids: Vec<String> = missing.iter().map(usize::to_string).collect();
        problems.push(format!(
            "{} of {units} units missing: {}",
            missing.len(),
            named(&ids)
        ));
    }
    problems.join("; ")
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
            return Err(UnitsError::TooManyUnits { limit: MAX_UNITS });
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
        .map_err(|source| UnitsError::Position {
            position: position.to_string(),
            source,
        })
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
            return Err(UnitsError::SplitDepth { depth, split_depth });
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
            let at = || (origin.to_string(), i + 1);
            if raw.trim().is_empty() {
                continue;
            }
            let unit: UnitLine = serde_json::from_str(raw).map_err(|source| {
                let (origin, line) = at();
                UnitsError::NotAManifestLine {
                    origin,
                    line,
                    source,
                }
            })?;
            if unit.format != FORMAT {
                let (origin, line) = at();
                return Err(UnitsError::ManifestFormat {
                    origin,
                    line,
                    found: unit.format,
                    expected: FORMAT,
                });
            }
            let j = job.get_or_insert_with(|| {
                remaining = unit.remaining;
                Job {
                    program: unit.program.clone(),
                    variant: unit.variant.clone(),
                    position: unit.position.clone(),
                    depth: unit.depth,
                    split_depth: unit.split_depth,
                    units: Vec::new(),
                    digest: unit.job.clone(),
                }
            });
            let same = unit.program == j.program
                && unit.variant == j.variant
                && unit.position == j.position
                && unit.depth == j.depth
                && unit.split_depth == j.split_depth
                && unit.job == j.digest
                && unit.remaining == remaining;
            if !same {
                let (origin, line) = at();
                return Err(UnitsError::MixedJobs { origin, line });
            }
            if unit.unit != j.units.len() {
                let (origin, line) = at();
                return Err(UnitsError::UnitOutOfOrder {
                    origin,
                    line,
                    found: unit.unit,
                    expected: j.units.len(),
                });
            }
            if unit.moves.len() != j.split_depth as usize || remaining + j.split_depth != j.depth {
                let (origin, line) = at();
                return Err(UnitsError::UnitDepths {
                    origin,
                    line,
                    unit: unit.unit,
                    moves: unit.moves.len(),
                    remaining: unit.remaining,
                    split_depth: j.split_depth,
                    depth: j.depth,
                });
            }
            if unit.units <= unit.unit {
                let (origin, line) = at();
                return Err(UnitsError::UnitPastCount {
                    origin,
                    line,
                    unit: unit.unit,
                    units: unit.units,
                });
            }
            j.units.push(unit.moves);
        }
        let Some(job) = job else {
            return Err(UnitsError::EmptyManifest {
                origin: origin.to_string(),
            });
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
            return Err(UnitsError::Digest {
                origin: origin.to_string(),
                digest: job.digest,
            });
        }
        Ok(job)
    }

    /// Checks that this job is of variant `V` and was split by `program`.
    fn check_for<V: Variant>(&self, program: &str) -> Result<(), UnitsError> {
        if self.variant != V::NAME {
            return Err(UnitsError::Variant {
                job: self.variant.clone(),
                this: V::NAME.to_string(),
            });
        }
        if self.program != program {
            return Err(UnitsError::Program {
                split_by: self.program.clone(),
                this: program.to_string(),
            });
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
        return Err(UnitsError::NoSuchUnit {
            unit: id,
            units: job.units.len(),
        });
    };
    let mut pos = root_of::<V>(&job.position)?;
    for (ply, text) in moves.iter().enumerate() {
        let mv = parse_usi(&pos, text).map_err(|source| UnitsError::Move {
            unit: id,
            number: ply + 1,
            text: text.clone(),
            source,
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
fn foreign(job: &Job, result: &UnitResult, id: Option<usize>) -> Option<Foreign> {
    if result.format != FORMAT {
        return Some(Foreign::Format {
            found: result.format,
            expected: FORMAT,
        });
    }
    if result.variant != job.variant {
        return Some(Foreign::Variant {
            found: result.variant.clone(),
            job: job.variant.clone(),
        });
    }
    if result.depth != job.depth {
        return Some(Foreign::Depth {
            found: result.depth,
            job: job.depth,
        });
    }
    if result.program != job.program {
        return Some(Foreign::Program {
            found: result.program.clone(),
            job: job.program.clone(),
        });
    }
    if result.job != job.digest {
        return Some(Foreign::Job {
            found: result.job.clone(),
            job: job.digest.clone(),
        });
    }
    if let Some(id) = id {
        if result.unit != id {
            return Some(Foreign::Unit {
                found: result.unit,
                expected: id,
            });
        }
    }
    match job.units.get(result.unit) {
        None => Some(Foreign::NoSuchUnit {
            found: result.unit,
            units: job.units.len(),
        }),
        Some(moves)
            if *moves != result.moves || result.remaining + job.split_depth != job.depth =>
        {
            Some(Foreign::Moves { unit: result.unit })
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
        return Err(UnitsError::NoSuchUnit {
            unit: id,
            units: job.units.len(),
        });
    }
    let path = result_path(dir, id);
    if !force && path.exists() {
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(source) => return Err(UnitsError::Read { path, source }),
        };
        let why = match serde_json::from_str::<UnitResult>(&text) {
            Ok(result) => match foreign(job, &result, Some(id)) {
                None => return Ok(UnitOutcome::AlreadyCounted(result, path)),
                Some(why) => why,
            },
            Err(e) => Foreign::NotAResult(e),
        };
        return Err(UnitsError::Occupied {
            path,
            unit: id,
            why,
        });
    }
    let Some(result) = count_unit::<V>(job, id, threads, stop, program)? else {
        return Ok(UnitOutcome::Interrupted);
    };
    std::fs::create_dir_all(dir).map_err(|source| UnitsError::MakeDir {
        dir: dir.to_path_buf(),
        source,
    })?;
    let tmp = dir.join(format!(".unit-{id}.json.{}.tmp", std::process::id()));
    let mut text = serde_json::to_string(&result)
        .map_err(|source| UnitsError::Serialize { unit: id, source })?;
    text.push('\n');
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, &path))
        .map_err(|source| {
            let _ = std::fs::remove_file(&tmp);
            UnitsError::Write {
                path: path.clone(),
                source,
            }
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
    let first = index.checked_mul(per_task).filter(|&f| f < job.units.len());
    match first {
        Some(first) => Ok(first..(first + per_task).min(job.units.len())),
        None => Err(UnitsError::TaskPastJob {
            index,
            units: job.units.len(),
            per_task,
        }),
    }
}

/// Reads every result file (`unit-*.json`) in `dirs`: each file's path and text.
pub fn read_results(dirs: &[PathBuf]) -> Result<Vec<(PathBuf, String)>, UnitsError> {
    let mut out = Vec::new();
    for dir in dirs {
        let entries = std::fs::read_dir(dir).map_err(|source| UnitsError::ReadDir {
            dir: dir.clone(),
            source,
        })?;
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
            match std::fs::read_to_string(&path) {
                Ok(text) => out.push((path, text)),
                Err(source) => return Err(UnitsError::Read { path, source }),
            }
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
    let mut foreign_files = Vec::new();
    let mut seen: Vec<Vec<&Path>> = vec![Vec::new(); job.units.len()];
    let mut counts: Vec<u64> = vec![0; job.units.len()];
    let mut time = 0.0;
    for (path, text) in results {
        let why = match serde_json::from_str::<UnitResult>(text) {
            Err(e) => Foreign::NotAResult(e),
            Ok(r) => match foreign(job, &r, None) {
                Some(why) => why,
                None => {
                    seen[r.unit].push(path);
                    counts[r.unit] = r.nodes;
                    time += r.seconds;
                    continue;
                }
            },
        };
        foreign_files.push(ForeignFile {
            path: path.clone(),
            why,
        });
    }
    let duplicates: Vec<Duplicate> = seen
        .iter()
        .enumerate()
        .filter(|(_, p)| p.len() > 1)
        .map(|(unit, p)| Duplicate {
            unit,
            paths: p.iter().map(|p| p.to_path_buf()).collect(),
        })
        .collect();
    let missing: Vec<usize> = seen
        .iter()
        .enumerate()
        .filter(|(_, p)| p.is_empty())
        .map(|(id, _)| id)
        .collect();
    if !foreign_files.is_empty() || !duplicates.is_empty() || !missing.is_empty() {
        return Err(UnitsError::Merge {
            job: job.digest.clone(),
            units: job.units.len(),
            foreign: foreign_files,
            duplicates,
            missing,
        });
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
        assert!(
            matches!(&e, UnitsError::Digest { origin, digest }
                if origin == "m.jsonl" && *digest == job.digest),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!(
                "m.jsonl: the manifest's units do not match its digest {} (lines missing, \
                 added or edited)",
                job.digest
            )
        );
        let e = Job::parse_manifest("{\"unit\": 0}\n", "m.jsonl").unwrap_err();
        assert!(
            matches!(&e, UnitsError::NotAManifestLine { line: 1, .. }),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .starts_with("m.jsonl:1: not a manifest line: "),
            "{e}"
        );
        // The JSON reader's reason is the error's source.
        let source = std::error::Error::source(&e).expect("a source");
        assert!(source.is::<serde_json::Error>(), "{source:?}");
        let e = Job::split::<Kyoto>("startpos", 3, 0, PROGRAM).unwrap_err();
        assert!(
            matches!(
                e,
                UnitsError::SplitDepth {
                    depth: 3,
                    split_depth: 0
                }
            ),
            "{e:?}"
        );
        let e = Job::split::<Kyoto>("startpos", 3, 4, PROGRAM).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the split depth must be between 1 and the depth (3), found 4"
        );
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
        assert!(
            matches!(&e, UnitsError::Occupied { path: p, unit: 0, why: Foreign::Depth {
                found: 3, job: 4 } } if *p == path),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!(
                "{} exists and is not unit 0's result for this job (it is a count to depth 3, \
                 this job counts to depth 4); not overwriting it without --force",
                path.display()
            )
        );
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
        assert!(
            matches!(&e, UnitsError::Merge { job: j, units: 12, foreign, duplicates, missing }
                if *j == job.digest && foreign.is_empty() && duplicates.is_empty()
                    && *missing == [10, 11]),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!("job {}: 2 of 12 units missing: 10, 11", job.digest)
        );
        // The merge of both directories, which must fail.
        let merge_both = || {
            merge::<Kyoto>(
                &job,
                &read_results(&[a.clone(), b.clone()]).unwrap(),
                PROGRAM,
            )
            .unwrap_err()
        };
        // Unit 3 also in b: counted twice.
        run_unit::<Kyoto>(&job, 3, &b, false, 1, &NEVER, PROGRAM).unwrap();
        let e = merge_both();
        let (in_a, in_b) = (result_path(&a, 3), result_path(&b, 3));
        assert!(
            matches!(&e, UnitsError::Merge { duplicates, missing, .. }
                if *duplicates == [Duplicate { unit: 3, paths: vec![in_a.clone(), in_b.clone()] }]
                    && *missing == [10, 11]),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!(
                "job {}: 1 unit(s) counted more than once: unit 3 ({} and {}); 2 of 12 units \
                 missing: 10, 11",
                job.digest,
                in_a.display(),
                in_b.display()
            )
        );
        // A result of a job of another depth in b.
        std::fs::remove_file(result_path(&b, 3)).unwrap();
        let other = Job::split::<Kyoto>("startpos", 2, 1, PROGRAM).unwrap();
        run_unit::<Kyoto>(&other, 11, &b, false, 1, &NEVER, PROGRAM).unwrap();
        run_unit::<Kyoto>(&job, 10, &b, false, 1, &NEVER, PROGRAM).unwrap();
        let e = merge_both();
        let e = e.to_string();
        assert!(e.contains("unit-11.json (it is a count to depth 2"), "{e}");
        assert!(e.contains("1 of 12 units missing: 11"), "{e}");
        // A result of a job of the same variant, depth and program but another split: its
        // digest is not this job's.
        let resplit = Job::split::<Kyoto>("startpos", 3, 2, PROGRAM).unwrap();
        assert_ne!(resplit.digest, job.digest);
        run_unit::<Kyoto>(&resplit, 11, &b, true, 1, &NEVER, PROGRAM).unwrap();
        let e = merge_both();
        let UnitsError::Merge { foreign, .. } = &e else {
            panic!("{e:?}")
        };
        assert_eq!(foreign.len(), 1, "{e}");
        assert_eq!(foreign[0].path, result_path(&b, 11));
        assert!(
            matches!(&foreign[0].why, Foreign::Job { found, job: j }
                if *found == resplit.digest && *j == job.digest),
            "{e:?}"
        );
        assert!(
            e.to_string().contains(&format!(
                "1 result file(s) do not belong to this job: {} (it belongs to job {}, this job \
                 is {})",
                result_path(&b, 11).display(),
                resplit.digest,
                job.digest
            )),
            "{e}"
        );
        // A damaged file.
        std::fs::write(result_path(&b, 11), "{").unwrap();
        let e = merge_both();
        assert!(
            matches!(&e, UnitsError::Merge { foreign, .. }
                if matches!(foreign[..], [ForeignFile { why: Foreign::NotAResult(_), .. }])),
            "{e:?}"
        );
        assert!(
            e.to_string().contains(&format!(
                "{} (not a unit result: ",
                result_path(&b, 11).display()
            )),
            "{e}"
        );
        // Another program's manifest is refused before anything is read.
        let e = merge::<Kyoto>(&job, &[], "kshogi 9").unwrap_err();
        assert!(
            matches!(&e, UnitsError::Program { split_by, this }
                if split_by == PROGRAM && this == "kshogi 9"),
            "{e:?}"
        );
        assert!(e.to_string().contains("split by kshogi test"), "{e}");
        let _ = std::fs::remove_dir_all(&a);
        let _ = std::fs::remove_dir_all(&b);
    }

    #[test]
    fn tasks_cover_the_units_once() {
        let job = Job::split::<Kyoto>("startpos", 2, 1, PROGRAM).unwrap();
        assert_eq!(task_units(&job, 0, 5).unwrap(), 0..5);
        assert_eq!(task_units(&job, 2, 5).unwrap(), 10..12);
        let e = task_units(&job, 3, 5).unwrap_err();
        assert!(
            matches!(
                e,
                UnitsError::TaskPastJob {
                    index: 3,
                    units: 12,
                    per_task: 5
                }
            ),
            "{e:?}"
        );
        // 12 units, 5 a task: tasks 0, 1 and 2.
        assert_eq!(
            e.to_string(),
            "task index 3 is past the job: 12 units, 5 a task, make tasks 0 to 2"
        );
        assert_eq!(task_units(&job, 11, 1).unwrap(), 11..12);
    }

    #[test]
    fn a_missing_unit_and_an_unplayable_move_are_named() {
        let job = Job::split::<Kyoto>("startpos", 2, 1, PROGRAM).unwrap();
        let dir = temp_dir("missing-unit");
        let e = run_unit::<Kyoto>(&job, 12, &dir, false, 1, &NEVER, PROGRAM).unwrap_err();
        assert!(
            matches!(
                e,
                UnitsError::NoSuchUnit {
                    unit: 12,
                    units: 12
                }
            ),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "unit 12 is not in the job: its units are 0 to 11"
        );
        let e = count_unit::<Kyoto>(&job, 40, 1, &NEVER, PROGRAM).unwrap_err();
        assert!(
            matches!(e, UnitsError::NoSuchUnit { unit: 40, .. }),
            "{e:?}"
        );
        // A job of another variant is refused before any unit is counted.
        let e = count_unit::<Kinzoku>(&job, 0, 1, &NEVER, PROGRAM).unwrap_err();
        assert_eq!(e.to_string(), "the job is of variant kyoto, not kinzoku");
        // A unit whose move cannot be played (the job built by hand, as a damaged manifest
        // with a matching digest would give it).
        let mut bad = job.clone();
        bad.units[0] = vec!["5a5b".to_string()];
        let e = count_unit::<Kyoto>(&bad, 0, 1, &NEVER, PROGRAM).unwrap_err();
        assert!(
            matches!(&e, UnitsError::Move { unit: 0, number: 1, text, .. } if text == "5a5b"),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .starts_with("unit 0: move 1 `5a5b` cannot be played: "),
            "{e}"
        );
        assert!(std::error::Error::source(&e).is_some_and(|s| s.is::<UsiError>()));
        // No result file was written for any of them.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unreadable_results_directory_is_named_with_its_reason() {
        let dir =
            std::env::temp_dir().join(format!("kshogi-units-no-such-dir-{}", std::process::id()));
        let e = read_results(std::slice::from_ref(&dir)).unwrap_err();
        let UnitsError::ReadDir { dir: named, source } = &e else {
            panic!("{e:?}")
        };
        assert_eq!(*named, dir);
        assert_eq!(source.kind(), io::ErrorKind::NotFound);
        assert!(
            e.to_string()
                .starts_with(&format!("cannot read the directory {}: ", dir.display())),
            "{e}"
        );
        assert!(std::error::Error::source(&e).is_some_and(|s| s.is::<io::Error>()));
    }

    #[test]
    fn a_job_without_units_gives_errors_not_panics() {
        // A split whose every line ends the game before the split depth has no unit (made
        // here by hand: such a job's ranges once subtracted 1 from 0).
        let mut job = Job::split::<Kyoto>("startpos", 1, 1, PROGRAM).unwrap();
        job.units.clear();
        let e = task_units(&job, 0, 1).unwrap_err();
        assert_eq!(
            e.to_string(),
            "task index 0 is past the job: 0 units, 1 a task, the job has no units"
        );
        let e = count_unit::<Kyoto>(&job, 0, 1, &NEVER, PROGRAM).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unit 0 is not in the job: the job has no units"
        );
        assert!(matches!(
            Job::parse_manifest(&job.to_manifest(), "empty.jsonl"),
            Err(UnitsError::EmptyManifest { origin }) if origin == "empty.jsonl"
        ));
    }
}
