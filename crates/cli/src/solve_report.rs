//! What `kshogi solve` prints: the summary of a build and the report of `--verify`, as
//! the JSON objects `--json` writes and as text, and the words for values, plies and bytes
//! that `analyze` and `review` share. The values come from `kshogi-solver`; this module
//! only shapes and words them.

use crate::progress::{group, human_time};
use kshogi_core::{Position, Variant};
use kshogi_notation::to_sfen;
use kshogi_solver::db::Summary;
use kshogi_solver::generic::{Indexed, Stats};
use kshogi_solver::reachable::Rule;
use kshogi_solver::reachable::Tally;
use kshogi_solver::value::{Entry, Value};
use serde::Serialize;
use std::fmt::Write as _;
use std::time::Duration;

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

/// `n` bytes for people: `512 B`, `1.5 KiB`, `3.98 GiB`.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut x = n as f64;
    let mut unit = "B";
    for u in UNITS {
        if x < 1024.0 {
            break;
        }
        x /= 1024.0;
        unit = u;
    }
    format!("{x:.2} {unit}")
}

/// `1 ply`, `3 plies`.
pub fn plies(n: u16) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
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

/// The SFEN of an entry's position (Black to move), if it is a valid position.
/// The SFEN of an entry's position (Black to move), if it holds a position.
pub fn entry_sfen<I: Indexed>(ix: &I, index: u64) -> Option<String> {
    ix.position(index).map(|p| to_sfen(&p))
}

/// A longest result and one position having it.
#[derive(Serialize)]
pub struct Extreme {
    pub plies: u16,
    pub sfen: Option<String>,
}

/// A first move and its value for the side that plays it.
#[derive(Serialize)]
pub struct MoveJson {
    pub usi: String,
    pub value: ValueJson,
}

/// Reachable positions counted under one convention of identity.
#[derive(Serialize)]
pub struct TallyJson {
    pub positions: u64,
    pub king_capturable: u64,
    pub try_completed: u64,
    pub no_move: u64,
    pub wins: u64,
    pub losses: u64,
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
#[derive(Serialize)]
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
    pub plies: usize,
    pub per_ply: Vec<u64>,
}

pub fn rule_name(r: Rule) -> &'static str {
    match r {
        Rule::Every => "every",
        Rule::CaptureFirst => "capture-first",
    }
}

/// Phase times in milliseconds.
#[derive(Serialize)]
pub struct BuildTimes {
    pub start: u64,
    pub levels: u64,
    pub write: u64,
    pub reach: u64,
    pub total: u64,
}

/// The summary of a build; `--json` prints it as is.
#[derive(Serialize)]
pub struct BuildReport {
    pub variant: &'static str,
    pub scope: u32,
    pub coverage: String,
    pub entries: u64,
    pub positions: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub stalemates: u64,
    pub illegal: u64,
    pub longest_win: Option<Extreme>,
    pub longest_loss: Option<Extreme>,
    pub start: Option<ValueJson>,
    pub first_moves: Vec<MoveJson>,
    pub reachable: Option<ReachJson>,
    pub levels: usize,
    pub per_distance: Vec<u64>,
    pub threads: usize,
    pub time_ms: BuildTimes,
    pub memory_estimate_bytes: u64,
    pub memory_peak_bytes: Option<u64>,
    pub file: String,
    pub bytes: u64,
    pub entry_bytes: usize,
}

pub fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// `part` as a percentage of `whole`, one decimal.
pub fn pct(part: u64, whole: u64) -> String {
    if whole == 0 {
        "0.0%".to_string()
    } else {
        format!("{:.1}%", 100.0 * part as f64 / whole as f64)
    }
}

/// A value of a JSON report back as a value.
pub fn json_value(v: &ValueJson) -> Value {
    match (v.result, v.plies) {
        ("win", Some(d)) => Value::Win(d),
        ("loss", Some(d)) => Value::Loss(d),
        _ => Value::Draw,
    }
}

pub fn build_text<V: Variant>(
    r: &BuildReport,
    stats: &Stats,
    write_time: Duration,
    total_time: Duration,
) -> String {
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
    let start_sfen = to_sfen(&Position::<V>::start());
    match &r.start {
        Some(v) => {
            let words = match json_value(v) {
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
                    value_text(json_value(&m.value))
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
    let _ = writeln!(
        out,
        "time: start {}, levels {}, writing {}{}, total {} ({} thread{})",
        human_time(stats.start_time),
        human_time(stats.total_time.saturating_sub(stats.start_time)),
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

/// Counts of a table, as the JSON report shows them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub illegal: u64,
    pub longest_win: u64,
    pub longest_loss: u64,
}

/// One disagreement, for the report.
#[derive(Serialize)]
pub struct MismatchJson {
    pub check: &'static str,
    pub index: Option<u64>,
    pub sfen: Option<String>,
    pub stored: String,
    pub expected: String,
}

pub fn entry_text(e: Entry) -> String {
    match e {
        Entry::Illegal => "illegal".to_string(),
        Entry::Value(v) => value_text(v),
    }
}

#[derive(Serialize)]
pub struct BellmanJson {
    pub sample: String,
    pub seed: u64,
    pub checked: u64,
    pub mismatches: u64,
}

#[derive(Serialize)]
pub struct SearchJson {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub max_win_plies: u16,
    pub max_loss_plies: u16,
    pub draw_horizon: u16,
    pub mismatches: u64,
}

#[derive(Serialize)]
pub struct VerifyTimes {
    pub load: u64,
    pub counts: u64,
    pub bellman: u64,
    pub search: u64,
    pub total: u64,
}

/// The report of `--verify`; `--json` prints it as is.
#[derive(Serialize)]
pub struct VerifyReport {
    pub database: String,
    pub bytes: u64,
    pub coverage: String,
    pub entries: u64,
    pub header: Counts,
    pub counted: Counts,
    pub bellman: BellmanJson,
    pub search: SearchJson,
    pub mismatches: Vec<MismatchJson>,
    pub threads: usize,
    pub time_ms: VerifyTimes,
    pub memory_peak_bytes: Option<u64>,
    pub ok: bool,
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

pub fn verify_text(r: &VerifyReport) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_units() {
        assert_eq!(value_text(Value::Win(1)), "win in 1 ply");
        assert_eq!(value_text(Value::Loss(0)), "loss in 0 plies");
        assert_eq!(value_text(Value::Draw), "draw");
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(1536), "1.50 KiB");
        assert_eq!(human_bytes(3 * 1024 * 1024 * 1024), "3.00 GiB");
        assert_eq!(
            serde_json::to_string(&ValueJson::from(Value::Draw)).unwrap(),
            r#"{"result":"draw","plies":null}"#
        );
    }

    #[test]
    fn memory_peak_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(memory_peak().is_some_and(|b| b > 0));
        }
    }
}
