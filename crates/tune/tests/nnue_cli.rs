//! The `kshogi-nnue` program: the same options give the same net file, bad arguments and
//! bad net files are errors that name what is wrong.

use std::path::PathBuf;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kshogi-nnue"))
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kshogi-nnue-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

fn train(out: &PathBuf, threads: &str) -> std::process::Output {
    train_with(out, threads, &[])
}

fn train_with(out: &PathBuf, threads: &str, extra: &[&std::ffi::OsStr]) -> std::process::Output {
    bin()
        .arg("train")
        .args([
            "--variant",
            "micro",
            "--games",
            "6",
            "--nodes",
            "200",
            "--epochs",
            "2",
            "--hidden",
            "8",
            "--seed",
            "3",
            "--threads",
            threads,
        ])
        .args(extra)
        .arg("--out")
        .arg(out)
        .output()
        .expect("runs")
}

/// The summary of a run that must have succeeded (its stderr otherwise).
fn summary_of(run: &std::process::Output) -> String {
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    String::from_utf8_lossy(&run.stdout).into_owned()
}

#[test]
fn the_same_options_give_the_same_bytes() {
    let (a, b) = (temp("a.nnue"), temp("b.nnue"));
    let run = train(&a, "1");
    let summary = summary_of(&run);
    assert!(summary.contains("held out"), "{summary}");
    assert!(train(&b, "2").status.success());
    let (x, y) = (std::fs::read(&a).expect("a"), std::fs::read(&b).expect("b"));
    assert_eq!(&x[..4], b"KSNN");
    assert_eq!(x, y, "the thread count changed the net");
}

#[test]
fn a_net_teaches_its_next_generation() {
    let (first, a, b, linear) = (
        temp("first.nnue"),
        temp("next-a.nnue"),
        temp("next-b.nnue"),
        temp("linear.nnue"),
    );
    assert!(train(&first, "1").status.success());
    let teacher = [std::ffi::OsStr::new("--teacher"), first.as_os_str()];
    let run = train_with(&a, "1", &teacher);
    let summary = summary_of(&run);
    assert!(summary.contains("teacher        the net "), "{summary}");
    assert!(train_with(&b, "2", &teacher).status.success());
    let (x, y) = (std::fs::read(&a).expect("a"), std::fs::read(&b).expect("b"));
    assert_eq!(x, y, "the thread count changed the net");
    // Other options alike, the net's games and scores give another net than the linear
    // evaluation's (the seed is not the first net's, so its games differ too).
    let seed = [std::ffi::OsStr::new("--seed"), std::ffi::OsStr::new("5")];
    let (t, l) = (temp("seeded-t.nnue"), temp("seeded-l.nnue"));
    let with_teacher: Vec<&std::ffi::OsStr> = teacher.iter().chain(&seed).copied().collect();
    assert!(train_with(&t, "1", &with_teacher).status.success());
    assert!(train_with(&l, "1", &seed).status.success());
    assert_ne!(
        std::fs::read(&t).expect("t"),
        std::fs::read(&l).expect("l"),
        "the teacher was not used"
    );
    // A teacher of another variant is an error that names it, and no net is written.
    let out = bin()
        .args(["train", "--variant", "kyoto", "--games", "2", "--teacher"])
        .arg(&first)
        .arg("--out")
        .arg(&linear)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("micro"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!linear.exists(), "a net was written");
}

#[test]
fn bad_arguments_and_files_are_named() {
    let out = bin()
        .args([
            "train",
            "--variant",
            "micro",
            "--hidden",
            "500",
            "--out",
            "x",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`--hidden` must be from 1 to 128"), "{err}");
    let out = bin()
        .args(["train", "--variant", "nosuch"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let bad = temp("bad.nnue");
    std::fs::write(&bad, b"KSNN\x09\x00").expect("write");
    let out = bin()
        .args(["speed", "--variant", "micro", "--net"])
        .arg(&bad)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("format version 9 is not supported"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
