//! `kshogi perft --suite --engine` and `kshogi perft --diff` against fake USI engines.
//!
//! This test binary is its own fake engine: started with `--fake-engine MODE` it speaks USI
//! for Kyoto Shogi (counting with kshogi's move generator) and behaves as MODE says; started
//! by `cargo test` it runs the tests, which run the real `kshogi` binary against it. No
//! script and no shell are involved.

use kshogi_core::{Move, Position};
use kshogi_notation::{move_to_usi, parse_game, parse_sfen};
use kshogi_rules_kyoto::Kyoto;
use std::io::{BufRead, Write};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The position where the `fault` engine misses a move: two plies from the Kyoto start, so
/// that a depth-3 count from the start sees the fault on its last ply.
const FAULT_AT: &str = "startpos moves 1e1d+ 5a5b+";

/// The move the `fault` engine misses there: the last one kshogi generates.
fn victim() -> (Position<Kyoto>, Move) {
    let pos = *parse_game::<Kyoto>(FAULT_AT).unwrap().position();
    let mv = *pos.legal_moves().iter().last().unwrap();
    (pos, mv)
}

/// Perft with the `fault` engine's generator (kshogi's, less the victim move).
fn count(pos: &mut Position<Kyoto>, depth: u32, fault: Option<(Position<Kyoto>, Move)>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    for &mv in pos.legal_moves().iter() {
        if fault.is_some_and(|(at, bad)| *pos == at && mv == bad) {
            continue;
        }
        let undo = pos.make(mv);
        n += count(pos, depth - 1, fault);
        pos.unmake(mv, undo);
    }
    n
}

/// The fake engine.
fn fake_engine(mode: &str) -> ! {
    let fault = (mode == "fault").then(victim);
    let mut pos: Option<Position<Kyoto>> = None;
    let mut out = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim().to_string();
        let mut reply = String::new();
        if line == "usi" {
            reply.push_str("id name fake kyoto\nusiok\n");
        } else if line == "isready" {
            reply.push_str("readyok\n");
        } else if line == "quit" {
            std::process::exit(0);
        } else if let Some(sfen) = line.strip_prefix("position sfen ") {
            pos = parse_sfen::<Kyoto>(sfen).ok();
        } else if let Some(depth) = line.strip_prefix("go perft ") {
            let depth: u32 = depth.parse().unwrap_or(1);
            match mode {
                "crash" => {
                    eprintln!("fake: segmentation fault (pretend)");
                    std::process::exit(3);
                }
                "hang" => std::thread::sleep(Duration::from_secs(60)),
                "garbage" => reply.push_str("1e1d+: 12\nthis is not perft output\n"),
                _ => {
                    let Some(mut p) = pos else {
                        reply.push_str("info string no position\n");
                        continue;
                    };
                    let mut total = 0;
                    for &mv in p.legal_moves().iter() {
                        if fault.is_some_and(|(at, bad)| p == at && mv == bad) {
                            continue;
                        }
                        let undo = p.make(mv);
                        let mut n = count(&mut p, depth - 1, fault);
                        p.unmake(mv, undo);
                        if mode == "wrong" && total == 0 {
                            n += 1;
                        }
                        total += n;
                        reply.push_str(&format!("{}: {n}\n", move_to_usi::<Kyoto>(mv)));
                    }
                    reply.push_str(&format!("\nNodes searched: {total}\n"));
                }
            }
        }
        let _ = out.write_all(reply.as_bytes());
        let _ = out.flush();
    }
    std::process::exit(0)
}

/// The command line that starts this binary as the fake engine `mode`.
fn engine(mode: &str) -> String {
    let me = std::env::current_exe().unwrap();
    format!("'{}' --fake-engine {mode}", me.display())
}

/// A suite of Kyoto start rows, counts from shared/reference/perft.tsv.
fn suite(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("suite.tsv");
    std::fs::write(
        &path,
        "#: source: shared/reference/perft.tsv (the reference engine)\n\
         #: convention: every legal move counts\n\
         kyoto\tpgkst/5/5/5/TSKGP b - 1\t1\t12\tquick\n\
         kyoto\tpgkst/5/5/5/TSKGP b - 1\t2\t137\tquick\n\
         kyoto\tpgkst/5/5/5/TSKGP b - 1\t3\t1636\tquick\n",
    )
    .unwrap();
    path
}

fn kshogi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kshogi"))
        .args(args)
        .output()
        .unwrap()
}

/// A fresh directory for one test.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "kshogi-perft-engines-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run_suite(mode: &str, extra: &[&str]) -> (i32, String, String) {
    let dir = temp_dir(mode);
    let suite = suite(&dir);
    let engine = engine(mode);
    let mut args = vec![
        "perft",
        "--suite",
        suite.to_str().unwrap(),
        "--engine",
        &engine,
        "--engine-timeout",
        // Short where the test waits for the timeout; generous elsewhere, so that a loaded
        // machine does not make a healthy engine look hung.
        if mode == "hang" { "1" } else { "20" },
    ];
    args.extend_from_slice(extra);
    let out = kshogi(&args);
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn a_right_engine_passes() {
    let (code, stdout, stderr) = run_suite("right", &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("3 rows, 3 passed, 0 failed"), "{stdout}");
}

fn a_wrong_count_fails_its_rows_with_the_divide() {
    let (code, stdout, stderr) = run_suite("wrong", &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("3 rows, 0 passed, 3 failed"), "{stdout}");
    assert!(stdout.contains("expected 137, got 138 (+1)"), "{stdout}");
    assert!(
        stdout.contains("the expected count comes from: shared/reference/perft.tsv"),
        "{stdout}"
    );
    assert!(
        stdout.contains("rerun: kshogi perft --diff --engine"),
        "{stdout}"
    );
    assert!(
        stderr.starts_with("error: 3 rows with a wrong count"),
        "{stderr}"
    );
}

/// Each row fails with `reason`, and the runner goes on to the end.
fn misbehaving(mode: &str, reason: &str) {
    let start = Instant::now();
    let (code, stdout, stderr) = run_suite(mode, &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert_eq!(stdout.matches("  ERROR").count(), 3, "{stdout}");
    assert!(stdout.contains(reason), "{mode}: {stdout}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(start.elapsed() < Duration::from_secs(20));
}

fn a_crash_fails_each_row_with_its_exit_status() {
    misbehaving("crash", "the engine ended (exit status 3)");
    misbehaving("crash", "fake: segmentation fault (pretend)");
}

fn a_hang_fails_each_row_after_the_timeout() {
    misbehaving(
        "hang",
        "the engine did not answer within 1.0 s (awaiting the perft count)",
    );
}

fn garbage_fails_each_row_naming_the_line() {
    misbehaving("garbage", "`this is not perft output`");
}

fn the_diff_finds_the_fault_three_plies_down() {
    let engine = engine("fault");
    let out = kshogi(&[
        "perft",
        "--diff",
        "--engine",
        &engine,
        "--engine-timeout",
        "5",
        "--variant",
        "kyoto",
        "startpos",
        "3",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // A difference found fails the command, with the report on stdout.
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains("error: perft --diff: kshogi and engine differ"),
        "{stderr}"
    );
    let (pos, mv) = victim();
    let sfen = kshogi_notation::to_sfen(&pos);
    assert!(stdout.contains("path from the root (2 plies):"), "{stdout}");
    assert!(stdout.contains("   1. 1e1d+"), "{stdout}");
    assert!(stdout.contains("   2. 5a5b+"), "{stdout}");
    assert!(
        stdout.contains(&format!("  position (canonical): {sfen}\n")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "  only kshogi lists 1:\n    {}",
            move_to_usi::<Kyoto>(mv)
        )),
        "{stdout}"
    );
    assert!(stdout.contains("  only engine lists: none"), "{stdout}");
    // Against a right engine there is nothing to find.
    let right = engine_cmd_right();
    let out = kshogi(&[
        "perft",
        "--diff",
        "--engine",
        &right,
        "--variant",
        "kyoto",
        "startpos",
        "3",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("no divergence: both count 1636"),
        "{stdout}"
    );
}

fn engine_cmd_right() -> String {
    engine("right")
}

fn a_crashing_engine_in_the_diff_is_an_error_not_a_panic() {
    let engine = engine("crash");
    let out = kshogi(&[
        "perft",
        "--diff",
        "--engine",
        &engine,
        "--variant",
        "kyoto",
        "startpos",
        "2",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("exit status 3"), "{stderr}");
}

fn the_suite_exports_with_its_provenance() {
    let dir = temp_dir("export");
    let suite = suite(&dir);
    let out = kshogi(&[
        "perft",
        "--suite",
        suite.to_str().unwrap(),
        "--export-json",
        "-",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[2]["nodes"], 1636);
    assert_eq!(rows[2]["tier"], "quick");
    assert_eq!(rows[0]["convention"], "every legal move counts");
}

/// A suite that does not read, a file that is missing and an engine given rows of several
/// variants are errors that say where and what, with exit status 1 and nothing counted.
fn bad_suites_are_errors_naming_the_place() {
    let dir = temp_dir("bad");
    let bad = dir.join("bad.tsv");
    std::fs::write(&bad, "# x\nkyoto\tstartpos\t2\t1,37\tquick\n").unwrap();
    let out = kshogi(&["perft", "--suite", bad.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("bad.tsv:2:18: nodes `1,37` is not a whole number"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
    let missing = dir.join("missing.tsv");
    let out = kshogi(&["perft", "--suite", missing.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("cannot read the suite"), "{stderr}");
    let mixed = dir.join("mixed.tsv");
    std::fs::write(
        &mixed,
        "kyoto\tstartpos\t1\t12\tquick\nmicro\tstartpos\t1\t9\tquick\n",
    )
    .unwrap();
    let engine = engine("right");
    let out = kshogi(&[
        "perft",
        "--suite",
        mixed.to_str().unwrap(),
        "--engine",
        &engine,
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("give --variant"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `perft/suite.tsv` is publishable: every row says where its count comes from and under
/// which counting convention.
fn the_project_suite_says_where_every_count_comes_from() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../perft/suite.tsv");
    let text = std::fs::read_to_string(path).unwrap();
    let rows = kshogi_perft_suite::parse_suite(&text, "perft/suite.tsv").unwrap();
    let bare: Vec<usize> = rows
        .iter()
        .filter(|r| r.source.is_none() || r.convention.is_none())
        .map(|r| r.line)
        .collect();
    assert!(
        bare.is_empty(),
        "perft/suite.tsv rows without #: source/convention: {bare:?}"
    );
}

/// With the reference engine (`KSHOGI_FSF` names its binary; not in CI): on the quick
/// Minishogi rows it differs from the suite (lishogi's counts) on exactly the two positions
/// where a pawn drop mates three plies down, and `--diff` names that drop.
fn the_reference_engine_differs_only_by_the_mating_pawn_drops(fsf: &str) {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/../../perft/suite.tsv");
    let engine_args = [
        "--engine",
        fsf,
        "--engine-variant",
        "minishogi",
        "--engine-dialect",
        "fsf",
        "--variant",
        "minishogi",
    ];
    let mut args = vec!["perft", "--suite", suite];
    args.extend_from_slice(&engine_args);
    let out = kshogi(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("45 rows, 43 passed, 2 failed"), "{stdout}");
    for (position, drop) in [
        ("3gk/r+Sb1s/+b1g1p/3r1/K4 w p 36", "P*5d"),
        ("s2k1/P3r/2bgS/KG1P+b/4R w - 40", "P*4b"),
    ] {
        assert!(
            stdout.contains(&format!("minishogi '{position}' depth 3")),
            "{stdout}"
        );
        let mut args = vec!["perft", "--diff"];
        args.extend_from_slice(&engine_args);
        args.extend_from_slice(&[position, "3"]);
        let out = kshogi(&args);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(&format!(
                "only engine lists 1:\n    {drop}  (kshogi: `{drop}` is not legal here: a pawn \
                 drop may not give checkmate)"
            )),
            "{text}"
        );
        assert!(text.contains("only kshogi lists: none"), "{text}");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--fake-engine") {
        fake_engine(args.get(i + 1).map_or("right", String::as_str));
    }
    let filter = args.iter().skip(1).find(|a| !a.starts_with('-')).cloned();
    // Every test, by name (a function left out of this list would be a dead-code warning,
    // which clippy -D warnings fails).
    let tests: &[(&str, fn())] = &[
        (stringify!(a_right_engine_passes), a_right_engine_passes),
        (
            stringify!(a_wrong_count_fails_its_rows_with_the_divide),
            a_wrong_count_fails_its_rows_with_the_divide,
        ),
        (
            stringify!(a_crash_fails_each_row_with_its_exit_status),
            a_crash_fails_each_row_with_its_exit_status,
        ),
        (
            stringify!(a_hang_fails_each_row_after_the_timeout),
            a_hang_fails_each_row_after_the_timeout,
        ),
        (
            stringify!(garbage_fails_each_row_naming_the_line),
            garbage_fails_each_row_naming_the_line,
        ),
        (
            stringify!(the_diff_finds_the_fault_three_plies_down),
            the_diff_finds_the_fault_three_plies_down,
        ),
        (
            stringify!(a_crashing_engine_in_the_diff_is_an_error_not_a_panic),
            a_crashing_engine_in_the_diff_is_an_error_not_a_panic,
        ),
        (
            stringify!(the_suite_exports_with_its_provenance),
            the_suite_exports_with_its_provenance,
        ),
        (
            stringify!(bad_suites_are_errors_naming_the_place),
            bad_suites_are_errors_naming_the_place,
        ),
        (
            stringify!(the_project_suite_says_where_every_count_comes_from),
            the_project_suite_says_where_every_count_comes_from,
        ),
    ];
    // The tests run in parallel threads: most of their time is waiting for processes.
    let handles: Vec<_> = tests
        .iter()
        .filter(|(name, _)| filter.as_deref().map_or(true, |f| name.contains(f)))
        .map(|&(name, test)| (name, std::thread::spawn(test)))
        .collect();
    let (mut passed, mut failed) = (0, 0);
    let name = "the_reference_engine_differs_only_by_the_mating_pawn_drops";
    if filter.as_deref().map_or(true, |f| name.contains(f)) {
        match std::env::var("KSHOGI_FSF") {
            Ok(fsf) => {
                let ok = std::panic::catch_unwind(|| {
                    the_reference_engine_differs_only_by_the_mating_pawn_drops(&fsf)
                })
                .is_ok();
                println!("test {name} ... {}", if ok { "ok" } else { "FAILED" });
                if ok {
                    passed += 1;
                } else {
                    failed += 1;
                }
            }
            Err(_) => println!("test {name} ... ignored (set KSHOGI_FSF to the reference engine)"),
        }
    }
    for (name, handle) in handles {
        if handle.join().is_ok() {
            println!("test {name} ... ok");
            passed += 1;
        } else {
            println!("test {name} ... FAILED");
            failed += 1;
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        std::process::exit(1);
    }
}
