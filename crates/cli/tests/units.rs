//! `kshogi perft-units`: split, count (by `--unit` and by the batch systems' variables),
//! merge, against the counts of `perft/reference.tsv` (independent engines) and `kshogi
//! perft --divide` itself.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn kshogi(args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kshogi"))
        .args(args)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .envs(env.iter().copied())
        .output()
        .expect("the kshogi binary runs")
}

fn ok(args: &[&str], env: &[(&str, &str)]) -> String {
    let out = kshogi(args, env);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// A command that must fail with one `error:` line and exit status 1; returns the line.
fn fails(args: &[&str]) -> String {
    let out = kshogi(args, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kshogi-cli-units-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// Everything but the `time` and `nps` lines, which differ from run to run.
fn counts(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("time ") && !l.starts_with("nps "))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn split_count_merge_equals_perft_divide() {
    let dir = temp("kyoto");
    let manifest = dir.join("job.jsonl");
    let results = dir.join("results");
    let m = s(&manifest);
    let split = ok(
        &[
            "perft-units",
            "split",
            "--variant",
            "kyoto",
            "--split-depth",
            "2",
            "-o",
            &m,
            "startpos",
            "5",
        ],
        &[],
    );
    // 137 two-ply lines from the Kyoto start (perft/reference.tsv, depth 2).
    assert!(split.contains(", 137 units of 3 plies"), "{split}");
    let lines = std::fs::read_to_string(&manifest).unwrap();
    assert_eq!(lines.lines().count(), 137);
    let first: serde_json::Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    assert_eq!(first["unit"], 0);
    assert_eq!(first["remaining"], 3);
    assert_eq!(first["variant"], "kyoto");
    assert_eq!(first["moves"].as_array().unwrap().len(), 2);
    // Units by every way of naming them: --unit, Slurm's and Kubernetes' variables, and
    // tasks of 50 units (three tasks cover the rest).
    let r = s(&results);
    ok(
        &["perft-units", "count", &m, "--out", &r, "--unit", "0"],
        &[],
    );
    ok(
        &["perft-units", "count", &m, "--out", &r],
        &[("SLURM_ARRAY_TASK_ID", "1")],
    );
    ok(
        &["perft-units", "count", &m, "--out", &r],
        &[("JOB_COMPLETION_INDEX", "2")],
    );
    // Not all there yet: the merge names the missing units.
    let e = fails(&["perft-units", "merge", &m, &r]);
    assert!(e.contains("134 of 137 units missing: 3, 4, 5"), "{e}");
    for task in ["0", "1", "2"] {
        ok(
            &[
                "perft-units",
                "count",
                &m,
                "--out",
                &r,
                "--per-task",
                "50",
                "--unit",
                task,
            ],
            &[],
        );
    }
    // Counted again: nothing is counted or written.
    let again = ok(
        &["perft-units", "count", &m, "--out", &r, "--unit", "5"],
        &[],
    );
    assert!(again.contains("already counted"), "{again}");
    let merged = ok(&["perft-units", "merge", &m, &r], &[]);
    let single = ok(
        &["perft", "--divide", "--variant", "kyoto", "startpos", "5"],
        &[],
    );
    assert_eq!(counts(&merged), counts(&single));
    // Kyoto start depth 5: 225903 (perft/reference.tsv).
    assert!(merged.contains("\nnodes 225903\n"), "{merged}");
    let merged_json = ok(&["perft-units", "merge", "--json", &m, &r], &[]);
    let v: serde_json::Value = serde_json::from_str(&merged_json).unwrap();
    assert_eq!(v["nodes"], 225903);
    assert_eq!(v["divide"].as_object().unwrap().len(), 12);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_jobs_and_results_are_errors() {
    let dir = temp("bad");
    let m = s(&dir.join("job.jsonl"));
    let r = s(&dir.join("results"));
    let e = fails(&["perft-units", "count", &m, "--out", &r, "--unit", "0"]);
    assert!(e.contains("cannot read"), "{e}");
    ok(
        &[
            "perft-units",
            "split",
            "--variant",
            "micro",
            "--split-depth",
            "1",
            "-o",
            &m,
            "startpos",
            "3",
        ],
        &[],
    );
    // The manifest is kept: the output rule of every command (`kshogi_report::output`).
    let written = std::fs::read_to_string(&m).unwrap();
    let e = fails(&[
        "perft-units",
        "split",
        "--variant",
        "micro",
        "--split-depth",
        "1",
        "-o",
        &m,
        "startpos",
        "4",
    ]);
    assert!(
        e.contains("already exists; give --force to replace it"),
        "{e}"
    );
    assert_eq!(std::fs::read_to_string(&m).unwrap(), written);
    // A directory is no manifest file, even with --force.
    let e = fails(&[
        "perft-units",
        "split",
        "--variant",
        "micro",
        "--split-depth",
        "1",
        "-o",
        &s(&dir),
        "--force",
        "startpos",
        "3",
    ]);
    assert!(e.contains("is a directory; give a file name"), "{e}");
    let e = fails(&[
        "perft-units",
        "split",
        "--variant",
        "micro",
        "--split-depth",
        "4",
        "startpos",
        "3",
    ]);
    assert!(
        e.contains("split depth must be between 1 and the depth (3)"),
        "{e}"
    );
    // Micro start: 9 root moves (perft/reference.tsv, depth 1): units 0 to 8.
    let e = fails(&["perft-units", "count", &m, "--out", &r, "--unit", "9"]);
    assert!(e.contains("task index 9 is past the job: 9 units"), "{e}");
    let e = fails(&["perft-units", "count", &m, "--out", &r]);
    assert!(e.contains("SLURM_ARRAY_TASK_ID"), "{e}");
    // An edited manifest no longer matches its digest.
    let text = std::fs::read_to_string(&m).unwrap();
    let edited = dir.join("edited.jsonl");
    std::fs::write(&edited, text.replace("\"remaining\":2", "\"remaining\":1")).unwrap();
    let e = fails(&["perft-units", "merge", &s(&edited), &r]);
    assert!(e.contains("edited.jsonl:1:"), "{e}");
    // Results of another job in the directory are named.
    for unit in 0..9 {
        ok(
            &[
                "perft-units",
                "count",
                &m,
                "--out",
                &r,
                "--unit",
                &unit.to_string(),
            ],
            &[],
        );
    }
    let other = s(&dir.join("other.jsonl"));
    ok(
        &[
            "perft-units",
            "split",
            "--variant",
            "micro",
            "--split-depth",
            "1",
            "-o",
            &other,
            "startpos",
            "2",
        ],
        &[],
    );
    let r2 = s(&dir.join("results2"));
    ok(
        &["perft-units", "count", &other, "--out", &r2, "--unit", "4"],
        &[],
    );
    let e = fails(&["perft-units", "merge", &m, &r, &r2]);
    assert!(e.contains("unit-4.json (it is a count to depth 2"), "{e}");
    // Micro start depth 3: 767 (perft/reference.tsv).
    let merged = ok(&["perft-units", "merge", &m, &r], &[]);
    assert!(merged.contains("\nnodes 767\n"), "{merged}");
    let _ = std::fs::remove_dir_all(&dir);
}
