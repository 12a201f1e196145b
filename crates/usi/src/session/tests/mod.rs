//! Tests of the USI loop, one file per topic; the helpers that run sessions are here.

use super::search::job_for;
use super::*;
use kshogi_analysis::job::Job;
use kshogi_analysis::{Databases, Skill};
use kshogi_notation::parse_game;
use kshogi_usi_protocol::{Go, GuiMessage};
use std::time::Duration;

/// The arguments of the `go` line `line`.
fn go_params(line: &str) -> Go {
    match line.parse::<GuiMessage>() {
        Ok(GuiMessage::Go(go)) => go,
        other => panic!("{line}: {other:?}"),
    }
}
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;

/// Runs a session on `script` and returns its output lines.
fn session(script: &str, variant: VariantKind) -> Vec<String> {
    session_with(script, variant, SearchMode::Threaded)
}

/// Runs a session on `script` with searches run as `mode` says.
fn session_with(script: &str, variant: VariantKind, mode: SearchMode) -> Vec<String> {
    let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
    let out: Out = buf.clone();
    serve_with(script.as_bytes(), &out, variant, mode);
    let bytes = buf.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The lines that are not search reports (`info` lines other than `info string`).
fn protocol(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .map(String::as_str)
        .filter(|l| !l.starts_with("info ") || l.starts_with("info string"))
        .collect()
}

const BOUNDED: SearchMode = SearchMode::Bounded(Budget::TINY);

/// A bounded mode that still completes small searches: deterministic answers.
const FULL: SearchMode = SearchMode::Bounded(Budget {
    nodes: 10_000_000,
    depth: 3,
    hash_mb: 1,
});

/// A bounded session with [`FULL`].
fn full(script: &str, variant: VariantKind) -> Vec<String> {
    session_with(script, variant, FULL)
}

/// Runs a session with `config` and returns its output lines.
fn session_config(script: &str, config: &Config) -> Vec<String> {
    let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
    let out: Out = buf.clone();
    serve_config(script.as_bytes(), &out, config);
    let bytes = buf.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The `info ... pv ...` search reports of `lines` for line `k`, as (depth, pv).
fn reports(lines: &[String], k: usize) -> Vec<Vec<String>> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth ") && l.contains(&format!(" multipv {k} ")))
        .map(|l| {
            let pv = l.split(" pv ").nth(1).unwrap_or("");
            pv.split(' ').map(str::to_string).collect()
        })
        .collect()
}

/// Runs a bounded session of the one variant `V` ([`serve_variant`]) on `script`.
fn single_session<V: Registered>(script: &str) -> Vec<String> {
    let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
    let out: Out = buf.clone();
    let config = VariantConfig {
        mode: SearchMode::Bounded(Budget::TINY),
        ..VariantConfig::default()
    };
    serve_variant::<V, _>(script.as_bytes(), &out, &config);
    let bytes = buf.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// What Fairy-Stockfish answers to `go perft 2` in the Kyoto start position (measured:
/// `setoption name USI_Variant value kyotoshogi`, `position startpos`, `go perft 2`),
/// in its dialect: the moves that turn a piece back to its base face end in `-`.
const FSF_KYOTO_PERFT_2: [(&str, u64); 12] = [
    ("4e5d+", 11),
    ("4e4d+", 11),
    ("4e3d+", 12),
    ("1e1d+", 12),
    ("5e5d-", 12),
    ("5e4d-", 11),
    ("2e3d-", 10),
    ("2e2d-", 11),
    ("2e1d-", 11),
    ("3e4d", 12),
    ("3e3d", 12),
    ("3e2d", 12),
];

mod answers;
mod bounded;
mod errors;
mod options;
mod variants;
