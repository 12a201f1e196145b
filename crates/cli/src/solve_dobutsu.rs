//! `kshogi solve dobutsu`: solves Dobutsu Shogi with the generic retrograde solver
//! (`kshogi_solver::generic`), then checks every entry (the Bellman check), counts the
//! positions reachable from the start and values Black's first moves. Progress on stderr, the
//! summary on stdout.

use crate::error::CliError;
use crate::progress::{group, human_time, Reporter};
use crate::solve_cmd::{human_bytes, memory_peak, value_text, SolveArgs, ValueJson};
use kshogi_core::Position;
use kshogi_notation::{move_to_usi, to_sfen};
use kshogi_rules_dobutsu::Dobutsu;
use kshogi_solver::dobutsu::DobutsuIndex;
use kshogi_solver::generic::{self, Indexed, Rule};
use kshogi_solver::reachable::{reach_memory, Tally};
use kshogi_solver::retro::{Phase, Progress};
use kshogi_solver::value::Entry;
use serde::Serialize;
use std::fmt::Write as _;
use std::io::IsTerminal as _;
use std::time::Instant;

/// Which kinds a `--pieces` text keeps: letters `R` (giraffes), `B` (elephants), `P`
/// (chicks); `all` or `RBP` for the whole game.
pub fn parse_pieces(text: &str) -> Result<[bool; 3], String> {
    if text.eq_ignore_ascii_case("all") {
        return Ok([true; 3]);
    }
    let mut kinds = [false; 3];
    for ch in text.chars() {
        match ch.to_ascii_uppercase() {
            'R' | 'G' => kinds[0] = true,
            'B' | 'E' => kinds[1] = true,
            'P' | 'C' => kinds[2] = true,
            _ => {
                return Err(format!(
                    "`{ch}` in `{text}` is not a Dobutsu piece pair (R giraffes, B elephants, \
                     P chicks)"
                ))
            }
        }
    }
    Ok(kinds)
}

#[derive(Serialize)]
struct MoveJson {
    usi: String,
    value: ValueJson,
}

#[derive(Serialize)]
struct TallyJson {
    positions: u64,
    lion_capturable: u64,
    try_completed: u64,
    no_move: u64,
    wins: u64,
    losses: u64,
    draws: u64,
}

impl From<&Tally> for TallyJson {
    fn from(t: &Tally) -> TallyJson {
        TallyJson {
            positions: t.positions,
            lion_capturable: t.king_capturable,
            try_completed: t.decided,
            no_move: t.no_move,
            wins: t.wins,
            losses: t.losses,
            draws: t.draws,
        }
    }
}

#[derive(Serialize)]
struct ReachJson {
    /// `every` (every legal move) or `capture-first` (a lion that can be captured is).
    rule: &'static str,
    /// Side to move and mirror images distinguished.
    distinct: TallyJson,
    /// Mirror images identified.
    mirror_identified: TallyJson,
    /// Colour-swapped images identified (Tanaka's convention).
    colour_identified: TallyJson,
    /// Both identified: entries.
    entries: TallyJson,
    /// Positions after a lion capture (distinct).
    lion_captured: u64,
    plies: usize,
    time_ms: u64,
}

fn rule_name(r: Rule) -> &'static str {
    match r {
        Rule::Every => "every",
        Rule::CaptureFirst => "capture-first",
    }
}

#[derive(Serialize)]
struct DobutsuReport {
    variant: &'static str,
    pieces: [bool; 3],
    entries: u64,
    memory_estimate_bytes: u64,
    positions: u64,
    wins: u64,
    losses: u64,
    draws: u64,
    stalemates: u64,
    illegal: u64,
    longest_win: u16,
    longest_win_sfen: Option<String>,
    longest_loss: u16,
    start: Option<ValueJson>,
    first_moves: Vec<MoveJson>,
    reachable: Vec<ReachJson>,
    bellman_checked: u64,
    bellman_mismatches: usize,
    per_distance: Vec<u64>,
    threads: usize,
    time_ms: [u64; 4],
    memory_peak_bytes: Option<u64>,
}

/// Solves Dobutsu (or the sub-game `kinds`) and reports.
pub fn build(args: &SolveArgs, threads: usize, kinds: [bool; 3]) -> Result<String, CliError> {
    let t0 = Instant::now();
    let ix = DobutsuIndex::with_kinds(kinds);
    let n = ix.len();
    let full = kinds == [true; 3];
    // An upper bound: the table, the larger of the level buffers and the reachability
    // bitsets (the reachable positions are counted for the whole game only), and a margin.
    let estimate = generic::memory_estimate(n, full);
    let reporter = Reporter::new(std::io::stderr().is_terminal());
    eprintln!(
        "dobutsu: {} entries; memory: at most {} ({} for the table, {} for the level lists{})",
        group(n),
        human_bytes(estimate),
        human_bytes(2 * n),
        human_bytes(8 * generic::level_capacity(n)),
        if full {
            format!(
                ", then {} to count the reachable positions",
                human_bytes(reach_memory(n))
            )
        } else {
            String::new()
        }
    );
    let on_progress = |p: Progress| match p.phase {
        Phase::Start => reporter.update("start", true, p.done, p.total, "entries", ""),
        Phase::Level(d) => reporter.update(
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
    reporter.done(Some(&format!(
        "{:>10} {} distances, {} positions resolved ({})",
        "levels",
        stats.per_distance.len(),
        group(stats.wins + stats.losses),
        human_time(stats.total_time.saturating_sub(stats.start_time))
    )));
    let solve_time = t0.elapsed();

    let start = Position::<Dobutsu>::start();
    let (start_value, first_moves) = match full.then(|| table.moves(&start)).flatten() {
        Some((v, moves)) => (
            Some(v),
            moves
                .into_iter()
                .map(|(m, v)| (move_to_usi::<Dobutsu>(m), v))
                .collect::<Vec<_>>(),
        ),
        None => (None, Vec::new()),
    };

    // The main results at once (the checks that follow take a while).
    eprintln!(
        "solved in {}: {} wins, {} losses, {} draws, longest win {} plies; start: {}",
        human_time(solve_time),
        group(stats.wins),
        group(stats.losses),
        group(stats.draws),
        stats.longest_win.0,
        start_value.map_or("-".to_string(), value_text)
    );
    for (u, v) in &first_moves {
        eprintln!("  first move {u:<6} {}", value_text(*v));
    }
    let tr = Instant::now();
    let mut reach = Vec::new();
    if full {
        // Tanaka's convention (a lion that can be captured is); the count under every move
        // is the solver's example `dobutsu_reach every` (it doubles the time).
        {
            let rule = Rule::CaptureFirst;
            let t1 = Instant::now();
            let label = format!("reach {}", rule_name(rule));
            let r = generic::reachable(&table, &start, rule, threads, &|ply, len| {
                reporter.update(
                    &label,
                    true,
                    ply as u64,
                    ply as u64 + 1,
                    "plies",
                    &group(len),
                );
            });
            reporter.done(None);
            if let Some(r) = r {
                reach.push((r, t1.elapsed()));
            }
        }
    }
    let reach_time = tr.elapsed();

    let tb = Instant::now();
    let (bad, checked) = generic::bellman_all(&table, threads, 20, &|d, t| {
        reporter.update("bellman", true, d, t, "entries", "")
    });
    reporter.done(None);
    let bellman_time = tb.elapsed();

    let longest_win_sfen = table
        .index()
        .position(stats.longest_win.1)
        .filter(|_| stats.wins > 0)
        .map(|p| to_sfen(&p));
    let report = DobutsuReport {
        variant: "dobutsu",
        pieces: kinds,
        entries: n,
        memory_estimate_bytes: estimate,
        positions: stats.wins + stats.losses + stats.draws,
        wins: stats.wins,
        losses: stats.losses,
        draws: stats.draws,
        stalemates: stats.stalemates,
        illegal: stats.illegal,
        longest_win: stats.longest_win.0,
        longest_win_sfen,
        longest_loss: stats.longest_loss.0,
        start: start_value.map(ValueJson::from),
        first_moves: first_moves
            .iter()
            .map(|(u, v)| MoveJson {
                usi: u.clone(),
                value: ValueJson::from(*v),
            })
            .collect(),
        reachable: reach
            .iter()
            .map(|(r, t)| ReachJson {
                rule: rule_name(r.rule),
                distinct: (&r.distinct).into(),
                mirror_identified: (&r.mirror_identified).into(),
                colour_identified: (&r.colour_identified).into(),
                entries: (&r.entries).into(),
                lion_captured: r.beyond,
                plies: r.per_ply.len(),
                time_ms: t.as_millis() as u64,
            })
            .collect(),
        bellman_checked: checked,
        bellman_mismatches: bad.len(),
        per_distance: stats.per_distance.clone(),
        threads,
        time_ms: [
            solve_time.as_millis() as u64,
            reach_time.as_millis() as u64,
            bellman_time.as_millis() as u64,
            t0.elapsed().as_millis() as u64,
        ],
        memory_peak_bytes: memory_peak(),
    };
    let out = if args.json {
        let mut s = serde_json::to_string(&report)?;
        s.push('\n');
        s
    } else {
        text(&report, &bad)
    };
    if !bad.is_empty() {
        eprint!("{out}");
        return Err(CliError::Output(format!(
            "the Bellman check found {} entries that disagree with their successors",
            bad.len()
        )));
    }
    Ok(out)
}

fn text(r: &DobutsuReport, bad: &[(u64, Entry, Option<Entry>)]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Dobutsu Shogi solved (generic retrograde solver)");
    let _ = writeln!(s, "  entries          {}", group(r.entries));
    let _ = writeln!(s, "  positions        {}", group(r.positions));
    let _ = writeln!(s, "  wins             {}", group(r.wins));
    let _ = writeln!(s, "  losses           {}", group(r.losses));
    let _ = writeln!(
        s,
        "  draws            {} (stalemates and both tries: {})",
        group(r.draws),
        group(r.stalemates)
    );
    let _ = writeln!(s, "  not positions    {}", group(r.illegal));
    let _ = writeln!(
        s,
        "  longest win      {} plies{}",
        r.longest_win,
        r.longest_win_sfen
            .as_ref()
            .map_or(String::new(), |f| format!(" ({f})"))
    );
    let _ = writeln!(s, "  longest loss     {} plies", r.longest_loss);
    let _ = writeln!(s, "  distances        {}", r.per_distance.len());
    if let Some(v) = &r.start {
        let _ = writeln!(
            s,
            "  start            {} for the side to move",
            value_text(match (v.result, v.plies) {
                ("win", Some(d)) => kshogi_solver::Value::Win(d),
                ("loss", Some(d)) => kshogi_solver::Value::Loss(d),
                _ => kshogi_solver::Value::Draw,
            })
        );
        let _ = writeln!(s, "  first moves (value for Black):");
        for m in &r.first_moves {
            let v = match (m.value.result, m.value.plies) {
                ("win", Some(d)) => kshogi_solver::Value::Win(d),
                ("loss", Some(d)) => kshogi_solver::Value::Loss(d),
                _ => kshogi_solver::Value::Draw,
            };
            let _ = writeln!(s, "    {:<6} {}", m.usi, value_text(v));
        }
    }
    for x in &r.reachable {
        let _ = writeln!(
            s,
            "  reachable ({}) {} plies deep, {} positions after a lion capture, in {:.1} s",
            x.rule,
            x.plies,
            group(x.lion_captured),
            x.time_ms as f64 / 1000.0
        );
        for (name, t) in [
            ("side to move and mirror images distinct", &x.distinct),
            ("mirror images identified", &x.mirror_identified),
            ("colour-swapped images identified", &x.colour_identified),
            ("both identified (entries)", &x.entries),
        ] {
            let _ = writeln!(
                s,
                "    {name}: {} positions ({} lion capturable, {} tries completed, {} without a \
                 move); {} wins, {} losses, {} draws",
                group(t.positions),
                group(t.lion_capturable),
                group(t.try_completed),
                group(t.no_move),
                group(t.wins),
                group(t.losses),
                group(t.draws)
            );
        }
    }
    let _ = writeln!(
        s,
        "  bellman check    {} entries, {} disagree",
        group(r.bellman_checked),
        r.bellman_mismatches
    );
    for (i, stored, expected) in bad {
        let _ = writeln!(s, "    entry {i}: stored {stored:?}, expected {expected:?}");
    }
    let [solve, reach, bellman, total] = r.time_ms;
    let _ = writeln!(
        s,
        "  time             solve {:.1} s, reachable {:.1} s, bellman {:.1} s, total {:.1} s \
         on {} threads",
        solve as f64 / 1000.0,
        reach as f64 / 1000.0,
        bellman as f64 / 1000.0,
        total as f64 / 1000.0,
        r.threads
    );
    let _ = writeln!(
        s,
        "  memory           estimate {}, peak {}",
        human_bytes(r.memory_estimate_bytes),
        r.memory_peak_bytes.map_or("unknown".into(), human_bytes)
    );
    s
}
