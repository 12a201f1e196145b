//! `kshogi perft --diff --engine COMMAND POSITION DEPTH`: where kshogi and another engine (or
//! two engines) first disagree, found by `kshogi_perft_suite::find_divergence`.

use crate::error::CliError;
use crate::perft_engine::{EngineArgs, EngineCounter};
use kshogi_core::{Position, Variant};
use kshogi_notation::{move_to_usi_in, parse_game, to_sfen_in, Dialect};
use kshogi_perft_suite::diverge::{Difference, NamedMove};
use kshogi_perft_suite::{find_divergence, DivideSource, Finding, Kshogi};
use std::fmt::Write as _;

/// Runs the search for variant `V` on `position` at `depth` and describes what it found.
pub fn run<V: Variant>(
    position: &str,
    depth: u32,
    threads: usize,
    engine: &EngineArgs,
) -> Result<String, CliError> {
    engine.check().map_err(CliError::Suite)?;
    if engine.engines.is_empty() || engine.engines.len() > 2 {
        return Err(CliError::Suite(format!(
            "--diff compares kshogi with one --engine, or two engines with each other; {} \
             --engine given",
            engine.engines.len()
        )));
    }
    let game = parse_game::<V>(position)?;
    let root = *game.position();
    let configs: Vec<_> = (0..engine.engines.len())
        .filter_map(|i| engine.config(i))
        .collect();
    let mut kshogi = Kshogi { threads };
    let mut first = EngineCounter::new(configs[0].clone());
    let mut second = configs.get(1).cloned().map(EngineCounter::new);
    let (a, b): (&mut dyn DivideSource<V>, &mut dyn DivideSource<V>) = match &mut second {
        Some(second) => (&mut first, second),
        None => (&mut kshogi, &mut first),
    };
    let (name_a, name_b, legend) = match &configs[..] {
        [one] => ("kshogi", "engine", format!("engine: `{}`\n", one.command)),
        [one, two] => (
            "engine 1",
            "engine 2",
            format!("engine 1: `{}`\nengine 2: `{}`\n", one.command, two.command),
        ),
        _ => unreachable!("one or two engines, checked above"),
    };
    let finding = find_divergence(&root, depth, a, b)
        .map_err(|e| CliError::Suite(format!("perft --diff: {e}")))?;
    let report = legend + &describe(&root, depth, name_a, name_b, &finding);
    match finding {
        Finding::Agree { .. } => Ok(report),
        // A difference fails the command (exit status 1), so that a script or a CI step can
        // stop on it, as it does on a failing suite row.
        Finding::Diverge(_) => Err(CliError::Differs {
            report,
            message: format!(
                "perft --diff: {name_a} and {name_b} differ (the report above says where)"
            ),
        }),
    }
}

/// A move in both dialects: `canonical` or `canonical (fsf: text)` when they differ.
fn both<V: Variant>(pos: &Position<V>, mv: kshogi_core::Move) -> String {
    let canonical = move_to_usi_in(pos, mv, Dialect::Canonical);
    let fsf = move_to_usi_in(pos, mv, Dialect::Fsf);
    if canonical == fsf {
        canonical
    } else {
        format!("{canonical} (fsf: {fsf})")
    }
}

/// One side's extra moves, one per line.
fn list_moves<V: Variant>(out: &mut String, pos: &Position<V>, who: &str, moves: &[NamedMove]) {
    if moves.is_empty() {
        let _ = writeln!(out, "  only {who} lists: none");
        return;
    }
    let _ = writeln!(out, "  only {who} lists {}:", moves.len());
    for m in moves {
        match (m.mv, &m.reason) {
            (Some(mv), None) => {
                let _ = writeln!(out, "    {}", both(pos, mv));
            }
            (_, Some(reason)) => {
                let _ = writeln!(out, "    {}  (kshogi: {reason})", m.text);
            }
            (None, None) => {
                let _ = writeln!(out, "    {}", m.text);
            }
        }
    }
}

/// The report of a search.
pub fn describe<V: Variant>(
    root: &Position<V>,
    depth: u32,
    a: &str,
    b: &str,
    finding: &Finding<V>,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "perft --diff: {a} against {b}, {} depth {depth}",
        to_sfen_in(root, Dialect::Canonical)
    );
    let d = match finding {
        Finding::Agree { nodes } => {
            let _ = writeln!(out, "no divergence: both count {nodes}, move for move");
            return out;
        }
        Finding::Diverge(d) => d,
    };
    let mut pos = *root;
    if d.path.is_empty() {
        let _ = writeln!(out, "path: (the root itself)");
    } else {
        let _ = writeln!(out, "path from the root ({} plies):", d.path.len());
        for (i, step) in d.path.iter().enumerate() {
            let _ = writeln!(
                out,
                "  {:>2}. {:<24} {a} {}, {b} {} ({:+})",
                i + 1,
                both(&pos, step.mv),
                step.a,
                step.b,
                i128::from(step.b) - i128::from(step.a)
            );
            pos = pos.after(step.mv);
        }
    }
    let moves: Vec<String> = {
        let mut p = *root;
        d.path
            .iter()
            .map(|s| {
                let t = move_to_usi_in(&p, s.mv, Dialect::Canonical);
                p = p.after(s.mv);
                t
            })
            .collect()
    };
    let _ = writeln!(out, "divergence at depth {} left:", d.depth);
    let _ = writeln!(
        out,
        "  position (canonical): {}",
        to_sfen_in(&d.position, Dialect::Canonical)
    );
    let _ = writeln!(
        out,
        "  position (fsf):       {}",
        to_sfen_in(&d.position, Dialect::Fsf)
    );
    if !moves.is_empty() {
        let _ = writeln!(
            out,
            "  as a POSITION:        {} moves {}",
            to_sfen_in(root, Dialect::Canonical),
            moves.join(" ")
        );
    }
    match &d.difference {
        Difference::MoveLists { only_a, only_b } => {
            list_moves(&mut out, &d.position, a, only_a);
            list_moves(&mut out, &d.position, b, only_b);
        }
        Difference::LeafCount { mv, a: na, b: nb } => {
            let _ = writeln!(
                out,
                "  the move lists agree, but {} counts {na} for {a} and {nb} for {b} at depth 1",
                both(&d.position, *mv)
            );
        }
        Difference::Inconsistent {
            source,
            parent,
            sum,
        } => {
            let _ = writeln!(
                out,
                "  {source} is inconsistent: it counted {parent} below the last move of the \
                 path, but its divide here adds up to {sum}"
            );
        }
    }
    out
}
