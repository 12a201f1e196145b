//! A database built and a database checked, as reports: [`build`] solves an index, writes
//! its file and returns a [`BuildReport`]; [`check`] reads a file and runs
//! [`verify`](crate::verify::verify) on it, returning a [`CheckReport`]. Each report is the
//! JSON object `kshogi solve --json` prints (it derives `Serialize`) and has its text form
//! ([`BuildReport::text`], [`CheckReport::text`]); progress goes to an [`Observer`] the
//! caller implements. Also the words for values that the analysis reports share
//! ([`value_text`], [`ValueJson`]).

use crate::db::{self, Database, DbError, Probe, Summary};
use crate::generic::{self, Indexed, Phase, Progress};
use crate::reachable::{reach_memory, Rule, Tally};
use crate::value::{Entry, Value};
use crate::verify::{self, Sample, VerifyConfig, SEARCH_HORIZON, SEARCH_MAX_LOSS, SEARCH_MAX_WIN};
use kshogi_core::{Position, Variant};
use kshogi_notation::human::{group, human_bytes, human_time, plies};
use kshogi_notation::{move_to_usi, to_sfen};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

/// Mismatches listed in a [`CheckReport`] (all are counted).
pub const MISMATCHES_SHOWN: usize = 20;

/// Where a build or a check tells how it is going (the command line: bars or plain lines
/// on stderr). Called from the worker threads.
pub trait Observer: Sync {
    /// A line of news for the person waiting (the memory a build needs, its results).
    fn line(&self, text: &str);
    /// `done` of `total` `unit`s in the phase `key` (a new key starts a new phase; `keep`
    /// says whether the finished phase stays shown); `msg` follows the counts.
    fn update(&self, key: &str, keep: bool, done: u64, total: u64, unit: &str, msg: &str);
    /// The current phase is over; `line`, if any, is shown where the phases are.
    fn done(&self, line: Option<&str>);
}

/// The peak resident memory of this process (`VmHWM`), in bytes, where Linux tells it.
pub fn memory_peak() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

/// A value in words, from the side to move: `win in 3 plies`, `loss in 0 plies`, `draw`.
pub fn value_text(v: Value) -> String {
    match v {
        Value::Win(d) => format!("win in {}", plies(d)),
        Value::Loss(d) => format!("loss in {}", plies(d)),
        Value::Draw => "draw".to_string(),
    }
}

/// A value in JSON: `{"result": "win", "plies": 3}`; `plies` is null for a draw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ValueJson {
    /// `win`, `loss` or `draw`, from the side to move.
    pub result: &'static str,
    /// Plies to the end; `None` for a draw.
    pub plies: Option<u16>,
}

impl From<Value> for ValueJson {
    fn from(v: Value) -> ValueJson {
        ValueJson {
            result: v.result(),
            plies: v.plies(),
        }
    }
}

impl ValueJson {
    /// The value again.
    pub fn value(&self) -> Value {
        match (self.result, self.plies) {
            ("win", Some(d)) => Value::Win(d),
            ("loss", Some(d)) => Value::Loss(d),
            _ => Value::Draw,
        }
    }
}

/// The SFEN of an entry's position (Black to move), if it holds a position.
pub fn entry_sfen<I: Indexed>(ix: &I, index: u64) -> Option<String> {
    ix.position(index).map(|p| to_sfen(&p))
}

/// An entry in words: `illegal`, or its value.
pub fn entry_text(e: Entry) -> String {
    match e {
        Entry::Illegal => "illegal".to_string(),
        Entry::Value(v) => value_text(v),
    }
}

/// A longest result and one position having it.
#[derive(Clone, Debug, Serialize)]
pub struct Extreme {
    /// Its length.
    pub plies: u16,
    /// A position with it (Black to move), if its entry holds one.
    pub sfen: Option<String>,
}

/// A first move and its value for the side that plays it.
#[derive(Clone, Debug, Serialize)]
pub struct MoveJson {
    /// The move in USI.
    pub usi: String,
    /// Its value for the side that plays it.
    pub value: ValueJson,
}

/// Reachable positions counted under one convention of identity.
#[derive(Clone, Debug, Serialize)]
pub struct TallyJson {
    /// Positions.
    pub positions: u64,
    /// Positions whose king can be captured.
    pub king_capturable: u64,
    /// Positions decided before any move (a try completed).
    pub try_completed: u64,
    /// Positions without a legal move.
    pub no_move: u64,
    /// Wins for the side to move.
    pub wins: u64,
    /// Losses for the side to move.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
}

impl From<&Tally> for TallyJson {
    fn from(t: &Tally) -> TallyJson {
        TallyJson {
            positions: t.positions,
            king_capturable: t.king_capturable,
            try_completed: t.decided,
            no_move: t.no_move,
            wins: t.wins,
            losses: t.losses,
            draws: t.draws,
        }
    }
}

/// The positions reachable from the start (`--reach`).
#[derive(Clone, Debug, Serialize)]
pub struct ReachJson {
    /// `every` (every legal move) or `capture-first` (a king that can be captured is).
    pub rule: &'static str,
    /// Side to move and mirror images distinguished.
    pub distinct: TallyJson,
    /// Mirror images identified.
    pub mirror_identified: TallyJson,
    /// Colour-swapped images identified.
    pub colour_identified: TallyJson,
    /// Both identified: entries.
    pub entries: TallyJson,
    /// Distinct positions after a king capture (no entry).
    pub beyond: u64,
    /// Plies from the start to the deepest position.
    pub plies: usize,
    /// New positions at each ply.
    pub per_ply: Vec<u64>,
}

/// The name of a move rule of the reachability count: `every`, `capture-first`.
pub fn rule_name(r: Rule) -> &'static str {
    match r {
        Rule::Every => "every",
        Rule::CaptureFirst => "capture-first",
    }
}

/// Phase times of a build in milliseconds.
#[derive(Clone, Debug, Serialize)]
pub struct BuildTimes {
    /// Finding the positions decided at once.
    pub start: u64,
    /// The levels of the retrograde solve.
    pub levels: u64,
    /// Writing the file.
    pub write: u64,
    /// Counting the reachable positions.
    pub reach: u64,
    /// Everything.
    pub total: u64,
}

/// The summary of a build ([`build`]); `kshogi solve --json` prints it as is.
#[derive(Clone, Debug, Serialize)]
pub struct BuildReport {
    /// The variant's short name.
    pub variant: &'static str,
    /// The index's scope number (the sub-game), as stored in the file.
    pub scope: u32,
    /// What the index covers, in words.
    pub coverage: String,
    /// Entries of the index.
    pub entries: u64,
    /// Entries holding a position.
    pub positions: u64,
    /// Wins for the side to move.
    pub wins: u64,
    /// Losses for the side to move.
    pub losses: u64,
    /// Draws, stalemates among them.
    pub draws: u64,
    /// Draws without a legal move.
    pub stalemates: u64,
    /// Entries holding no position.
    pub illegal: u64,
    /// The longest win, if any.
    pub longest_win: Option<Extreme>,
    /// The longest loss, if any.
    pub longest_loss: Option<Extreme>,
    /// The value of the start position, if the index covers it.
    pub start: Option<ValueJson>,
    /// The value of each first move.
    pub first_moves: Vec<MoveJson>,
    /// The reachable positions, if counted.
    pub reachable: Option<ReachJson>,
    /// Levels (distances) of the solve.
    pub levels: usize,
    /// Positions resolved at each distance.
    pub per_distance: Vec<u64>,
    /// Worker threads.
    pub threads: usize,
    /// Phase times.
    pub time_ms: BuildTimes,
    /// The memory stated before the build.
    pub memory_estimate_bytes: u64,
    /// The peak resident memory, where known.
    pub memory_peak_bytes: Option<u64>,
    /// The file written.
    pub file: String,
    /// Its size.
    pub bytes: u64,
    /// Bytes per entry before compression.
    pub entry_bytes: usize,
    /// The start position's SFEN, for the text.
    #[serde(skip)]
    pub start_sfen: String,
    /// Phase times to the nanosecond, for the text: start, levels, writing, total.
    #[serde(skip)]
    pub durations: [Duration; 4],
}

/// What [`build`] does besides solving the index it is given.
#[derive(Clone, Debug)]
pub struct BuildSpec<'a> {
    /// The file to write (through a temporary file beside it, [`db::temp_path`], renamed
    /// into place when complete).
    pub path: &'a Path,
    /// Worker threads.
    pub threads: usize,
    /// Whether (and under which rule) to count the positions reachable from the start.
    pub reach: Option<Rule>,
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// `part` as a percentage of `whole`, one decimal.
fn pct(part: u64, whole: u64) -> String {
    if whole == 0 {
        "0.0%".to_string()
    } else {
        format!("{:.1}%", 100.0 * part as f64 / whole as f64)
    }
}

/// Solves `ix`, writes its database to `spec.path` and (with `spec.reach`) counts the
/// positions reachable from the start: first the memory it needs, then its phases and the
/// values of the start and its first moves, go to `obs`. The error is that of writing the
/// file.
pub fn build<I: Indexed>(
    ix: I,
    spec: &BuildSpec<'_>,
    obs: &dyn Observer,
) -> Result<BuildReport, DbError> {
    let name = <I::V as Variant>::NAME;
    let threads = spec.threads;
    let t0 = Instant::now();
    let n = ix.len();
    // An upper bound: the table, the largest of the level buffers, the blocks waiting to
    // be written and (with reach) the reachability bitsets, and a margin.
    let estimate = crate::memory_estimate(n, spec.reach.is_some(), threads);
    obs.line(&format!(
        "{name}: {} entries ({}); memory: at most {} ({} for the table, {} for the level \
         lists, {} to write the file{})",
        group(n),
        ix.coverage(),
        human_bytes(estimate),
        human_bytes(2 * n),
        human_bytes(8 * generic::level_capacity(n)),
        human_bytes(db::write_memory(n, threads)),
        if spec.reach.is_some() {
            format!(
                ", then {} to count the reachable positions",
                human_bytes(reach_memory(n))
            )
        } else {
            String::new()
        }
    ));
    let on_progress = |p: Progress| match p.phase {
        Phase::Start => obs.update("start", true, p.done, p.total, "entries", ""),
        Phase::Level(d) => obs.update(
            &format!("level {d}"),
            false,
            p.done,
            p.total,
            "positions",
            &format!("({} resolved)", group(p.resolved)),
        ),
    };
    let table = generic::solve(ix, threads, &on_progress);
    let stats = table.stats().clone();
    let levels_time = stats.total_time.saturating_sub(stats.start_time);
    obs.done(Some(&format!(
        "{:>10} {} distances, {} positions resolved ({})",
        "levels",
        stats.per_distance.len(),
        group(stats.wins + stats.losses),
        human_time(levels_time)
    )));

    // The main results at once (writing, and counting what is reachable, take a while).
    let start = Position::<I::V>::start();
    let (start_value, first_moves) = match table.moves(&start) {
        Some((v, moves)) => (
            Some(v),
            moves
                .into_iter()
                .map(|(m, v)| (move_to_usi::<I::V>(m), v))
                .collect::<Vec<_>>(),
        ),
        None => (None, Vec::new()),
    };
    obs.line(&format!(
        "solved in {}: {} wins, {} losses, {} draws, longest win {}; start: {}",
        human_time(t0.elapsed()),
        group(stats.wins),
        group(stats.losses),
        group(stats.draws),
        plies(stats.longest_win.0),
        start_value.map_or("not covered".to_string(), value_text)
    ));
    for (u, v) in &first_moves {
        obs.line(&format!("  first move {u:<6} {}", value_text(*v)));
    }

    let tw = Instant::now();
    let written = db::write(&table, spec.path, threads, &|done, total| {
        obs.update("writing", true, done, total, "blocks", "");
    })?;
    let write_time = tw.elapsed();
    obs.done(None);

    let tr = Instant::now();
    let reach = if let Some(rule) = spec.reach {
        let label = format!("reach {}", rule_name(rule));
        let r = crate::count_reachable(&table, &start, rule, threads, &|ply, len| {
            obs.update(
                &label,
                true,
                ply as u64,
                ply as u64 + 1,
                "plies",
                &group(len),
            );
        });
        obs.done(None);
        r
    } else {
        None
    };
    let reach_time = tr.elapsed();
    let total_time = t0.elapsed();

    let ix = table.index();
    let extreme = |count: u64, (plies, index): (u16, u64)| {
        (count > 0).then(|| Extreme {
            plies,
            sfen: entry_sfen(ix, index),
        })
    };
    Ok(BuildReport {
        variant: name,
        scope: ix.scope(),
        coverage: ix.coverage(),
        entries: stats.entries,
        positions: stats.wins + stats.losses + stats.draws,
        wins: stats.wins,
        losses: stats.losses,
        draws: stats.draws,
        stalemates: stats.stalemates,
        illegal: stats.illegal,
        longest_win: extreme(stats.wins, stats.longest_win),
        longest_loss: extreme(stats.losses, stats.longest_loss),
        start: start_value.map(ValueJson::from),
        first_moves: first_moves
            .iter()
            .map(|(u, v)| MoveJson {
                usi: u.clone(),
                value: ValueJson::from(*v),
            })
            .collect(),
        reachable: reach.as_ref().map(|r| ReachJson {
            rule: rule_name(r.rule),
            distinct: (&r.distinct).into(),
            mirror_identified: (&r.mirror_identified).into(),
            colour_identified: (&r.colour_identified).into(),
            entries: (&r.entries).into(),
            beyond: r.beyond,
            plies: r.per_ply.len(),
            per_ply: r.per_ply.clone(),
        }),
        levels: stats.per_distance.len(),
        per_distance: stats.per_distance.clone(),
        threads,
        time_ms: BuildTimes {
            start: ms(stats.start_time),
            levels: ms(levels_time),
            write: ms(write_time),
            reach: ms(reach_time),
            total: ms(total_time),
        },
        memory_estimate_bytes: estimate,
        memory_peak_bytes: memory_peak(),
        file: spec.path.display().to_string(),
        bytes: written.bytes,
        entry_bytes: written.width,
        start_sfen: to_sfen(&start),
        durations: [stats.start_time, levels_time, write_time, total_time],
    })
}

impl BuildReport {
    /// The summary as text, one fact a line.
    pub fn text(&self) -> String {
        let r = self;
        let mut out = String::new();
        let _ = writeln!(out, "{} solved: {}", r.variant, r.coverage);
        let _ = writeln!(out, "entries: {}", group(r.entries));
        let _ = writeln!(
            out,
            "positions stored: {} (Black to move; White to move is looked up as the colour-swapped image, and a position and its mirror image share an entry)",
            group(r.positions)
        );
        let _ = writeln!(
            out,
            "  wins:   {} ({})",
            group(r.wins),
            pct(r.wins, r.positions)
        );
        let _ = writeln!(
            out,
            "  losses: {} ({})",
            group(r.losses),
            pct(r.losses, r.positions)
        );
        let _ = writeln!(
            out,
            "  draws:  {} ({}), of which stalemates: {}",
            group(r.draws),
            pct(r.draws, r.positions),
            group(r.stalemates)
        );
        let _ = writeln!(
            out,
            "empty entries: {} (illegal arrangements, and mirror images stored under the other image)",
            group(r.illegal)
        );
        for (what, e) in [
            ("longest win", &r.longest_win),
            ("longest loss", &r.longest_loss),
        ] {
            match e {
                Some(e) => {
                    let _ = writeln!(
                        out,
                        "{what}: {}, e.g. {}",
                        plies(e.plies),
                        e.sfen.as_deref().unwrap_or("(no valid position)")
                    );
                }
                None => {
                    let _ = writeln!(out, "{what}: none");
                }
            }
        }
        let start_sfen = &r.start_sfen;
        match &r.start {
            Some(v) => {
                let words = match v.value() {
                    Value::Win(n) => format!("black to move wins in {}", plies(n)),
                    Value::Loss(n) => format!("black to move loses in {}", plies(n)),
                    Value::Draw => "a draw".to_string(),
                };
                let _ = writeln!(out, "start position ({start_sfen}): {words}");
                for m in &r.first_moves {
                    let _ = writeln!(
                        out,
                        "  first move {:<6} {} for Black",
                        m.usi,
                        value_text(m.value.value())
                    );
                }
            }
            None => {
                let _ = writeln!(
                    out,
                    "start position ({start_sfen}): not covered by this sub-game"
                );
            }
        }
        if let Some(x) = &r.reachable {
            let _ = writeln!(
                out,
                "reachable from the start ({} moves): {} plies deep, {} more finished positions \
                 without an entry (after a king capture)",
                x.rule,
                x.plies,
                group(x.beyond)
            );
            for (what, t) in [
                ("side to move and mirror images distinct", &x.distinct),
                ("mirror images identified", &x.mirror_identified),
                ("colour-swapped images identified", &x.colour_identified),
                ("both identified (entries)", &x.entries),
            ] {
                let _ = writeln!(
                    out,
                    "  {what}: {} positions ({} king capturable, {} tries completed, {} without \
                     a move); {} wins, {} losses, {} draws for the side to move",
                    group(t.positions),
                    group(t.king_capturable),
                    group(t.try_completed),
                    group(t.no_move),
                    group(t.wins),
                    group(t.losses),
                    group(t.draws)
                );
            }
        }
        let _ = writeln!(
            out,
            "levels: {} distances (0 to {})",
            r.levels,
            r.levels.saturating_sub(1)
        );
        let [start_time, levels_time, write_time, total_time] = r.durations;
        let _ = writeln!(
            out,
            "time: start {}, levels {}, writing {}{}, total {} ({} thread{})",
            human_time(start_time),
            human_time(levels_time),
            human_time(write_time),
            if r.reachable.is_some() {
                format!(
                    ", reachable {}",
                    human_time(Duration::from_millis(r.time_ms.reach))
                )
            } else {
                String::new()
            },
            human_time(total_time),
            r.threads,
            if r.threads == 1 { "" } else { "s" }
        );
        let _ = writeln!(
            out,
            "memory: stated {}, peak {}",
            human_bytes(r.memory_estimate_bytes),
            r.memory_peak_bytes
                .map_or_else(|| "unknown".to_string(), human_bytes)
        );
        let _ = writeln!(
            out,
            "file: {} ({} bytes, {}; {} byte{} per entry before compression)",
            r.file,
            group(r.bytes),
            human_bytes(r.bytes),
            r.entry_bytes,
            if r.entry_bytes == 1 { "" } else { "s" }
        );
        out
    }
}

/// Counts of a table, as the JSON report shows them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Wins for the side to move.
    pub wins: u64,
    /// Losses for the side to move.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
    /// Entries holding no position.
    pub illegal: u64,
    /// The longest win in plies.
    pub longest_win: u64,
    /// The longest loss in plies.
    pub longest_loss: u64,
}

impl From<Summary> for Counts {
    fn from(s: Summary) -> Counts {
        Counts {
            wins: s.wins,
            losses: s.losses,
            draws: s.draws,
            illegal: s.illegal,
            longest_win: s.longest_win,
            longest_loss: s.longest_loss,
        }
    }
}

/// One disagreement found by a check.
#[derive(Clone, Debug, Serialize)]
pub struct MismatchJson {
    /// Which check: `header`, `bellman` or `search`.
    pub check: &'static str,
    /// The entry, except for the header.
    pub index: Option<u64>,
    /// The entry's position, if it holds one.
    pub sfen: Option<String>,
    /// What the file says.
    pub stored: String,
    /// What the check expected.
    pub expected: String,
}

/// The Bellman check of a [`CheckReport`].
#[derive(Clone, Debug, Serialize)]
pub struct BellmanJson {
    /// `all`, or the number of entries drawn.
    pub sample: String,
    /// The seed of the sample.
    pub seed: u64,
    /// Entries checked.
    pub checked: u64,
    /// Entries that disagree with their successors.
    pub mismatches: u64,
}

/// The exhaustive-search check of a [`CheckReport`].
#[derive(Clone, Debug, Serialize)]
pub struct SearchJson {
    /// Wins searched.
    pub wins: u64,
    /// Losses searched.
    pub losses: u64,
    /// Draws searched.
    pub draws: u64,
    /// The longest win searched, in plies.
    pub max_win_plies: u16,
    /// The longest loss searched, in plies.
    pub max_loss_plies: u16,
    /// The horizon within which a draw has no forced result.
    pub draw_horizon: u16,
    /// Positions the search disagrees with.
    pub mismatches: u64,
}

/// Phase times of a check in milliseconds.
#[derive(Clone, Debug, Serialize)]
pub struct VerifyTimes {
    /// Reading and checksumming the file.
    pub load: u64,
    /// Counting the entries.
    pub counts: u64,
    /// The Bellman check.
    pub bellman: u64,
    /// The exhaustive search.
    pub search: u64,
    /// Everything.
    pub total: u64,
}

/// The report of a check ([`check`]); `kshogi solve --verify --json` prints it as is.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// The file checked.
    pub database: String,
    /// Its size.
    pub bytes: u64,
    /// What its index covers, in words.
    pub coverage: String,
    /// Entries.
    pub entries: u64,
    /// The counts the header states.
    pub header: Counts,
    /// The counts of the entries.
    pub counted: Counts,
    /// The Bellman check.
    pub bellman: BellmanJson,
    /// The exhaustive-search check.
    pub search: SearchJson,
    /// The first [`MISMATCHES_SHOWN`] disagreements.
    pub mismatches: Vec<MismatchJson>,
    /// Worker threads.
    pub threads: usize,
    /// Phase times.
    pub time_ms: VerifyTimes,
    /// The peak resident memory, where known.
    pub memory_peak_bytes: Option<u64>,
    /// Whether everything agrees.
    pub ok: bool,
    /// Disagreements, all counted.
    #[serde(skip)]
    pub failures: u64,
}

/// Reads the database at `path` (every block, checksummed) and checks it as `config` says
/// ([`verify::verify`]); progress goes to `obs`. The error is the file's: it cannot be
/// read, or it is damaged or not a database of `I`.
pub fn check<I: Indexed + Clone>(
    path: &Path,
    config: VerifyConfig,
    obs: &dyn Observer,
) -> Result<CheckReport, DbError> {
    let t0 = Instant::now();
    let threads = config.threads;
    obs.done(Some(&format!(
        "reading and checking every block of {} ...",
        path.display()
    )));
    let db = Database::<I>::open(path)?;
    let table =
        db.load_all(&|done, total| obs.update("reading", true, done, total, "blocks", ""))?;
    let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
    let load_time = t0.elapsed();
    let ix = table.index().clone();

    let found = verify::verify(&table, db.summary(), config, &|stage, done, total| {
        obs.update(stage.name(), true, done, total, stage.unit(), "");
    });
    obs.done(None);
    let (header, counted) = (Counts::from(found.header), Counts::from(found.counted));
    let [counts_time, bellman_time, search_time] = found.times;

    let mut mismatches = Vec::new();
    if header != counted {
        mismatches.push(MismatchJson {
            check: "header",
            index: None,
            sfen: None,
            stored: format!("{header:?}"),
            expected: format!("{counted:?}"),
        });
    }
    for m in &found.bellman {
        mismatches.push(MismatchJson {
            check: "bellman",
            index: Some(m.index),
            sfen: entry_sfen(&ix, m.index),
            stored: entry_text(m.stored),
            expected: m
                .expected
                .map_or_else(|| "(a successor has no value)".to_string(), entry_text),
        });
    }
    for &(i, v) in &found.search {
        mismatches.push(MismatchJson {
            check: "search",
            index: Some(i),
            sfen: entry_sfen(&ix, i),
            stored: value_text(v),
            expected: "something else (exhaustive search disagrees)".to_string(),
        });
    }
    let failures = found.failures();
    mismatches.truncate(MISMATCHES_SHOWN);
    Ok(CheckReport {
        database: path.display().to_string(),
        bytes,
        coverage: ix.coverage(),
        entries: found.entries,
        header,
        counted,
        bellman: BellmanJson {
            sample: match found.sample {
                Sample::All => "all".to_string(),
                Sample::Count(k) => k.to_string(),
            },
            seed: found.seed,
            checked: found.checked,
            mismatches: found.bellman_mismatches,
        },
        search: SearchJson {
            wins: found.searched[0],
            losses: found.searched[1],
            draws: found.searched[2],
            max_win_plies: SEARCH_MAX_WIN,
            max_loss_plies: SEARCH_MAX_LOSS,
            draw_horizon: SEARCH_HORIZON,
            mismatches: found.search.len() as u64,
        },
        mismatches,
        threads,
        time_ms: VerifyTimes {
            load: ms(load_time),
            counts: ms(counts_time),
            bellman: ms(bellman_time),
            search: ms(search_time),
            total: ms(t0.elapsed()),
        },
        memory_peak_bytes: memory_peak(),
        ok: failures == 0,
        failures,
    })
}

impl CheckReport {
    /// The report as text, one check a line, ending in `result: ok` or `result: FAILED`.
    pub fn text(&self) -> String {
        let r = self;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "database: {} ({} bytes; {} entries, {})",
            r.database,
            group(r.bytes),
            group(r.entries),
            r.coverage
        );
        let _ = writeln!(
            out,
            "blocks: all read, decompressed and checksummed ({})",
            human_time(Duration::from_millis(r.time_ms.load))
        );
        let c = &r.counted;
        let _ = writeln!(
            out,
            "counts: {} wins, {} losses, {} draws, {} illegal, longest win {}: {}",
            group(c.wins),
            group(c.losses),
            group(c.draws),
            group(c.illegal),
            plies(u16::try_from(c.longest_win).unwrap_or(u16::MAX)),
            if r.header == r.counted {
                "as the header says"
            } else {
                "THE HEADER SAYS OTHERWISE"
            }
        );
        let what = if r.bellman.sample == "all" {
            "every entry".to_string()
        } else {
            format!("random sample, seed {}", r.bellman.seed)
        };
        let _ = writeln!(
            out,
            "bellman check: {} entries checked ({what}), {} mismatch{} ({})",
            group(r.bellman.checked),
            r.bellman.mismatches,
            if r.bellman.mismatches == 1 { "" } else { "es" },
            human_time(Duration::from_millis(r.time_ms.bellman))
        );
        let _ = writeln!(
            out,
            "exhaustive search: {} wins (at most {} plies), {} losses (at most {} plies), {} draws \
             (no forced result within {} plies), {} mismatch{} ({})",
            r.search.wins,
            r.search.max_win_plies,
            r.search.losses,
            r.search.max_loss_plies,
            r.search.draws,
            r.search.draw_horizon,
            r.search.mismatches,
            if r.search.mismatches == 1 { "" } else { "es" },
            human_time(Duration::from_millis(r.time_ms.search))
        );
        for m in &r.mismatches {
            let place = match (m.index, &m.sfen) {
                (Some(i), Some(s)) => format!("entry {i} ({s})"),
                (Some(i), None) => format!("entry {i} (not a valid position)"),
                _ => "header".to_string(),
            };
            let _ = writeln!(
                out,
                "  mismatch ({}): {place}: stored {}, expected {}",
                m.check, m.stored, m.expected
            );
        }
        let _ = writeln!(
            out,
            "time: {} ({} thread{}); memory peak: {}",
            human_time(Duration::from_millis(r.time_ms.total)),
            r.threads,
            if r.threads == 1 { "" } else { "s" },
            r.memory_peak_bytes
                .map_or_else(|| "unknown".to_string(), human_bytes)
        );
        let _ = writeln!(out, "result: {}", if r.ok { "ok" } else { "FAILED" });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::KinzokuIndex;
    use std::sync::Mutex;

    /// Records what a build or check tells.
    #[derive(Default)]
    struct Log(Mutex<Vec<String>>);

    impl Observer for Log {
        fn line(&self, text: &str) {
            self.0.lock().unwrap().push(text.to_string());
        }
        fn update(&self, _: &str, _: bool, done: u64, total: u64, _: &str, _: &str) {
            assert!(done <= total, "{done} of {total}");
        }
        fn done(&self, _: Option<&str>) {}
    }

    #[test]
    fn values_in_words_and_json() {
        assert_eq!(value_text(Value::Win(1)), "win in 1 ply");
        assert_eq!(value_text(Value::Loss(0)), "loss in 0 plies");
        assert_eq!(value_text(Value::Draw), "draw");
        assert_eq!(entry_text(Entry::Illegal), "illegal");
        assert_eq!(
            serde_json::to_string(&ValueJson::from(Value::Draw)).unwrap(),
            r#"{"result":"draw","plies":null}"#
        );
        for v in [Value::Win(3), Value::Loss(0), Value::Draw] {
            assert_eq!(ValueJson::from(v).value(), v);
        }
        assert_eq!(pct(1, 3), "33.3%");
        assert_eq!(pct(0, 0), "0.0%");
    }

    #[test]
    fn memory_peak_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(memory_peak().is_some_and(|b| b > 0));
        }
    }

    /// The Kinzoku sub-game with at most one piece besides the kings, built, written and
    /// checked: the report's counts add up (every entry is a win, a loss, a draw or
    /// empty, as the index's length says), the check agrees with the file, and the text
    /// states what the report holds.
    #[test]
    fn a_small_sub_game_is_built_and_checked() {
        let dir = std::env::temp_dir().join(format!("kshogi-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("kinzoku1.kdb");
        let ix = KinzokuIndex::new(1);
        let n = ix.len();
        let log = Log::default();
        let spec = BuildSpec {
            path: &path,
            threads: 2,
            reach: None,
        };
        let built = build(ix, &spec, &log).unwrap();
        assert_eq!(built.entries, n);
        assert_eq!(built.positions + built.illegal, n);
        assert_eq!(built.wins + built.losses + built.draws, built.positions);
        assert_eq!(
            built.per_distance.iter().sum::<u64>(),
            built.wins + built.losses
        );
        assert!(built.start.is_none(), "the start has more than one piece");
        assert!(log.0.lock().unwrap()[0].starts_with("kinzoku: "));
        let text = built.text();
        assert!(text.contains("not covered by this sub-game"), "{text}");
        assert!(text.contains(&format!("entries: {}", group(n))), "{text}");

        let config = VerifyConfig {
            sample: Sample::All,
            seed: 1,
            search_per_kind: 5,
            threads: 2,
        };
        let checked = check::<KinzokuIndex>(&path, config, &log).unwrap();
        assert!(checked.ok, "{}", checked.text());
        assert_eq!(checked.failures, 0);
        assert_eq!(checked.header, checked.counted);
        assert_eq!(checked.counted.wins, built.wins);
        assert_eq!(checked.bellman.sample, "all");
        assert!(checked.bellman.checked > 0 && checked.bellman.checked <= n);
        assert!(checked.text().ends_with("result: ok\n"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
