//! The `kshogi-nnue` program: the same options give the same net file, bad arguments and
//! bad net files are errors that name what is wrong.

use std::path::{Path, PathBuf};
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

/// The error output of a run that must have failed with exit code `code`, without a panic.
fn failed_with(run: &std::process::Output, code: i32) -> String {
    let err = String::from_utf8_lossy(&run.stderr).into_owned();
    assert_eq!(run.status.code(), Some(code), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
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
    let err = failed_with(&out, 1);
    assert!(err.contains("micro"), "{err}");
    assert!(!linear.exists(), "a net was written");
}

#[test]
fn search_labels_give_another_net_the_same_for_any_threads() {
    let (leaf, a, b) = (
        temp("leaf.nnue"),
        temp("search-a.nnue"),
        temp("search-b.nnue"),
    );
    let label = [
        std::ffi::OsStr::new("--label"),
        std::ffi::OsStr::new("search"),
    ];
    let summary = summary_of(&train_with(&a, "1", &label));
    assert!(
        summary.contains("labels         the teacher's search score"),
        "{summary}"
    );
    assert!(train_with(&b, "2", &label).status.success());
    let leaf_summary = summary_of(&train(&leaf, "1"));
    assert!(
        leaf_summary.contains("labels         the teacher's evaluation of each quiet leaf"),
        "{leaf_summary}"
    );
    let (x, y) = (std::fs::read(&a).expect("a"), std::fs::read(&b).expect("b"));
    assert_eq!(x, y, "the thread count changed the net");
    assert_ne!(
        x,
        std::fs::read(&leaf).expect("leaf"),
        "the labels were not used"
    );
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
    let err = failed_with(&out, 2);
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
    let err = failed_with(&out, 1);
    assert!(err.contains("format version 9 is not supported"), "{err}");
}

/// A fresh directory for one test's pipeline runs.
fn fresh(name: &str) -> PathBuf {
    let dir = temp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("fresh dir");
    dir
}

/// `kshogi-nnue pipeline` with `train`'s tiny options (those of [`train_with`]), in chunks
/// of two games, with `extra`.
fn pipeline(dir: &Path, out: &Path, threads: &str, extra: &[&str]) -> std::process::Output {
    bin()
        .arg("pipeline")
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
            "--chunk",
            "2",
            "--threads",
            threads,
        ])
        .args(extra)
        .arg("--dir")
        .arg(dir)
        .arg("--out")
        .arg(out)
        .output()
        .expect("runs")
}

/// The run's `summary.json`.
fn summary_json(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("summary.json")).expect("summary.json");
    serde_json::from_str(&text).expect("summary.json is JSON")
}

/// Every file under `dir` with its bytes, in order.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let bytes = std::fs::read(&p).expect("read");
                out.push((p, bytes));
            }
        }
    }
    out.sort();
    out
}

/// The workspace's net file of `variant` (a valid net made by the project).
fn registered_net(variant: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tuned-eval/src/weights")
        .join(format!("{variant}.nnue"))
}

#[test]
fn the_pipeline_gives_train_s_bytes_and_resumes_to_them() {
    let root = fresh("pipe-resume");
    let (expected, dir, out) = (
        root.join("train.nnue"),
        root.join("run"),
        root.join("out.nnue"),
    );
    assert!(train(&expected, "1").status.success());
    let expected = std::fs::read(&expected).expect("train's net");

    // Uninterrupted, on two threads, without an SPRT: train's bytes, in --out and the run.
    let run = pipeline(&dir, &out, "2", &["--no-sprt"]);
    let text = summary_of(&run);
    assert!(text.contains("3 chunks played now, 0 found done"), "{text}");
    assert_eq!(std::fs::read(&out).expect("out"), expected);
    assert_eq!(std::fs::read(dir.join("net.nnue")).expect("net"), expected);
    for c in 0..3 {
        assert!(dir.join(format!("data/chunk-0000{c}.json")).exists());
    }

    // Stopped: the last chunk never written, the second cut short, no training recorded;
    // --out holds another net of the variant. Resumed on one thread: the same bytes.
    let data = dir.join("data");
    std::fs::remove_file(data.join("chunk-00002.json")).expect("rm chunk");
    let second = data.join("chunk-00001.json");
    let text = std::fs::read(&second).expect("chunk");
    std::fs::write(&second, &text[..text.len() / 2]).expect("cut chunk");
    std::fs::remove_file(dir.join("train.json")).expect("rm train.json");
    std::fs::copy(registered_net("micro"), &out).expect("copy the registered net");
    let run = pipeline(&dir, &out, "1", &["--no-sprt"]);
    summary_of(&run);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("chunk-00001.json") && err.contains("playing it again"),
        "{err}"
    );
    let s = summary_json(&dir);
    assert_eq!(s["data"]["chunks_played"], 2, "{s}");
    assert_eq!(s["data"]["chunks_found"], 1, "{s}");
    assert_eq!(s["train"]["trained_now"], true, "{s}");
    assert_eq!(std::fs::read(&out).expect("out"), expected);

    // Once more: nothing to play or train, the file already holds the net.
    let run = pipeline(&dir, &out, "2", &["--no-sprt"]);
    let text = summary_of(&run);
    assert!(text.contains("already holds the net"), "{text}");
    let s = summary_json(&dir);
    assert_eq!(s["data"]["chunks_played"], 0, "{s}");
    assert_eq!(s["train"]["trained_now"], false, "{s}");
    assert_eq!(std::fs::read(&out).expect("out"), expected);
    std::fs::remove_dir_all(&root).expect("clean");
}

#[test]
fn a_directory_of_other_parameters_is_refused_untouched() {
    let root = fresh("pipe-mismatch");
    let (dir, out) = (root.join("run"), root.join("out.nnue"));
    summary_of(&pipeline(&dir, &out, "2", &["--no-sprt"]));
    let before = snapshot(&root);
    let refused = |extra: &[&str], named: &str| {
        let run = pipeline(&dir, &out, "2", extra);
        let err = failed_with(&run, 1);
        assert!(err.contains("was made with other parameters"), "{err}");
        assert!(err.contains(named), "{named}: {err}");
        assert_eq!(snapshot(&root), before, "a file changed");
    };
    refused(&["--no-sprt", "--epochs", "3"], "epochs 2 there, 3 now");
    refused(
        &["--no-sprt", "--lambda", "0.25"],
        "lambda 0.5 there, 0.25 now",
    );
    // Search labels make other chunks: not the same run.
    refused(
        &["--no-sprt", "--label", "search"],
        "label (none) there, \"search\" now",
    );
    // The net it made, as a teacher: another teacher, the same directory refused.
    let teacher = root.join("teacher.nnue");
    std::fs::copy(&out, &teacher).expect("copy");
    let before = snapshot(&root);
    let run = pipeline(
        &dir,
        &out,
        "2",
        &["--no-sprt", "--teacher", teacher.to_str().expect("utf-8")],
    );
    let err = failed_with(&run, 1);
    assert!(
        err.contains("teacher \"the linear evaluation\" there"),
        "{err}"
    );
    assert_eq!(snapshot(&root), before, "a file changed");
    std::fs::remove_dir_all(&root).expect("clean");
}

#[test]
fn another_run_s_games_train_other_options_and_more_games() {
    let root = fresh("pipe-data-from");
    let (first, out) = (root.join("first"), root.join("out.nnue"));
    summary_of(&pipeline(&first, &out, "2", &["--no-sprt"]));
    let first_files = snapshot(&first);
    let from = ["--data-from", first.to_str().expect("utf-8")];
    let with =
        |extra: &[&'static str]| -> Vec<&str> { from.iter().chain(extra).copied().collect() };
    let os = |v: &[&'static str]| -> Vec<std::ffi::OsString> { v.iter().map(Into::into).collect() };
    let expect = |name: &str, extra: &[&'static str]| -> Vec<u8> {
        let path = root.join(name);
        let args = os(extra);
        let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        assert!(train_with(&path, "1", &refs).status.success());
        std::fs::read(&path).expect("train's net")
    };

    // Other training options: every chunk taken, none played; train's bytes for them.
    let (second, out2) = (root.join("second"), root.join("second.nnue"));
    let run = pipeline(
        &second,
        &out2,
        "2",
        &with(&["--no-sprt", "--epochs", "3", "--hidden", "6"]),
    );
    let text = summary_of(&run);
    assert!(
        text.contains("0 chunks played now, 0 found done, 3 taken from"),
        "{text}"
    );
    assert_eq!(summary_json(&second)["data"]["chunks_taken"], 3);
    assert_eq!(
        std::fs::read(&out2).expect("out"),
        expect("second-train.nnue", &["--epochs", "3", "--hidden", "6"])
    );
    assert_eq!(snapshot(&first), first_files, "the source run changed");
    // The copies are the second run's own: it resumes without the source.
    let run = pipeline(
        &second,
        &out2,
        "1",
        &["--no-sprt", "--epochs", "3", "--hidden", "6"],
    );
    assert!(summary_of(&run).contains("0 chunks played now, 3 found done"));

    // More games: the three chunks taken, the fourth played; train's bytes for 8 games.
    let (third, out3) = (root.join("third"), root.join("third.nnue"));
    let run = pipeline(&third, &out3, "2", &with(&["--no-sprt", "--games", "8"]));
    let text = summary_of(&run);
    assert!(
        text.contains("1 chunks played now, 0 found done, 3 taken from"),
        "{text}"
    );
    assert_eq!(
        std::fs::read(&out3).expect("out"),
        expect("third-train.nnue", &["--games", "8"])
    );

    // Games of other parameters: refused, naming them, before anything is written.
    for (extra, named) in [
        (
            &["--no-sprt", "--nodes", "300"][..],
            "nodes 200 there, 300 now",
        ),
        (&["--no-sprt", "--seed", "4"][..], "seed 3 there, 4 now"),
        (&["--no-sprt", "--chunk", "3"][..], "chunk 2 there, 3 now"),
    ] {
        let dir = root.join("refused");
        let run = pipeline(&dir, &root.join("refused.nnue"), "1", &with(extra));
        let err = failed_with(&run, 1);
        assert!(
            err.contains("its games were played with other parameters"),
            "{err}"
        );
        assert!(err.contains(named), "{named}: {err}");
        assert!(!dir.exists(), "the refused run made its directory");
    }
    // Not a run's directory.
    let run = pipeline(
        &root.join("refused"),
        &out,
        "1",
        &[
            "--no-sprt",
            "--data-from",
            root.join("nowhere").to_str().expect("utf-8"),
        ],
    );
    let err = failed_with(&run, 1);
    assert!(err.contains("not a pipeline run's directory"), "{err}");
    // A chunk of the source cut short is named and played again.
    let chunk = first.join("data/chunk-00001.json");
    let bytes = std::fs::read(&chunk).expect("chunk");
    std::fs::write(&chunk, &bytes[..bytes.len() / 2]).expect("cut");
    let (fourth, out4) = (root.join("fourth"), root.join("fourth.nnue"));
    let run = pipeline(
        &fourth,
        &out4,
        "2",
        &with(&["--no-sprt", "--epochs", "3", "--hidden", "6"]),
    );
    let text = summary_of(&run);
    assert!(
        text.contains("1 chunks played now, 0 found done, 2 taken from"),
        "{text}"
    );
    assert!(String::from_utf8_lossy(&run.stderr).contains("chunk-00001.json"));
    assert_eq!(
        std::fs::read(&out4).expect("out"),
        std::fs::read(&out2).expect("out")
    );
    std::fs::remove_dir_all(&root).expect("clean");
}

#[test]
fn an_out_that_is_not_a_net_of_the_variant_is_refused() {
    let root = fresh("pipe-out");
    let dir = root.join("run");
    for (name, bytes) in [
        ("notes.txt", b"my notes\n".to_vec()),
        (
            "kyoto.nnue",
            std::fs::read(registered_net("kyoto")).expect("kyoto's net"),
        ),
    ] {
        let out = root.join(name);
        std::fs::write(&out, &bytes).expect("write");
        let run = pipeline(&dir, &out, "1", &["--no-sprt"]);
        let err = failed_with(&run, 1);
        assert!(err.contains(&out.display().to_string()), "{err}");
        assert!(err.contains("is not a micro net file"), "{err}");
        assert_eq!(std::fs::read(&out).expect("out"), bytes, "{name} changed");
        // Refused before anything is played.
        assert!(!dir.exists());
    }
    std::fs::remove_dir_all(&root).expect("clean");
}

#[test]
fn the_sprt_keeps_its_pairs_and_resumes_from_them() {
    let root = fresh("pipe-sprt");
    let (dir, out) = (root.join("run"), root.join("out.nnue"));
    std::fs::copy(registered_net("micro"), &out).expect("copy");
    let old = std::fs::read(&out).expect("out");
    let sprt = ["--sprt-pairs", "2", "--sprt-nodes", "200"];
    let text = summary_of(&pipeline(&dir, &out, "2", &sprt));
    // Two pairs are fewer than any SPRT decides on: undecided, the file left alone.
    assert!(text.contains("undecided"), "{text}");
    assert!(text.contains("left as it is"), "{text}");
    assert_eq!(std::fs::read(&out).expect("out"), old);
    let read = || -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join("sprt.json")).expect("sprt.json"))
            .expect("JSON")
    };
    let whole = read();
    let pairs = whole["pairs"].as_array().expect("pairs").clone();
    assert_eq!(pairs.len(), 2, "{whole}");
    assert!(
        pairs.iter().all(|p| p.as_u64().is_some_and(|x| x <= 4)),
        "{whole}"
    );
    assert_eq!(summary_json(&dir)["sprt"]["pairs"], 2);
    // Stopped after the first pair: resumed on one thread, the same second pair.
    let mut cut = whole.clone();
    cut["pairs"] = serde_json::Value::Array(pairs[..1].to_vec());
    std::fs::write(dir.join("sprt.json"), cut.to_string()).expect("cut");
    summary_of(&pipeline(&dir, &out, "1", &sprt));
    assert_eq!(read()["pairs"], whole["pairs"]);
    assert_eq!(std::fs::read(&out).expect("out"), old);
    std::fs::remove_dir_all(&root).expect("clean");
}

#[test]
fn bad_pipeline_arguments_are_named() {
    let usage = |args: &[&str], named: &str| {
        let out = bin().args(args).output().expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(named), "{args:?}: {err}");
    };
    let p = ["pipeline", "--variant", "micro"];
    let with =
        |extra: &[&'static str]| -> Vec<&'static str> { p.iter().chain(extra).copied().collect() };
    usage(&with(&["--chunk", "0"]), "`--chunk` must be at least 1");
    usage(
        &with(&["--sprt-pairs", "x"]),
        "`--sprt-pairs` needs a number",
    );
    usage(&with(&["--sprt-pairs", "0"]), "`--sprt-pairs`");
    usage(&with(&["--sprt-nodes", "0"]), "`--sprt-nodes`");
    usage(&with(&["--elo0", "10", "--elo1", "0"]), "`--elo0`");
    usage(&with(&["--games", "0"]), "`--games`");
    usage(&with(&["--frobnicate"]), "unknown argument `--frobnicate`");
    usage(
        &with(&["--label", "deep"]),
        "`--label` is `leaf` or `search`, found `deep`",
    );
    // `speed` with one option it does not take.
    let speed = |flag: &'static str, v: &'static str| {
        vec!["speed", "--variant", "micro", "--net", "x", flag, v]
    };
    usage(
        &speed("--label", "search"),
        "`--label` is an option of `train` and `pipeline`, not of `speed`",
    );
    usage(&["pipeline", "--games", "10"], "`--variant` is required");
    usage(
        &["train", "--variant", "micro", "--chunk", "5", "--out", "x"],
        "`--chunk` is an option of `pipeline`, not of `train`",
    );
    usage(
        &with(&["--sprt-openings", "x.txt", "--no-sprt"]),
        "`--sprt-openings` and `--no-sprt`",
    );
    usage(
        &speed("--openings", "x.txt"),
        "`--openings` is an option of `train`, `pipeline` and `match`, not of `speed`",
    );
}

/// Three of `docs/openings/micro-balanced.txt`'s lines, a comment and a blank line.
const MICRO_OPENINGS: &str = "# three openings\n\
    startpos moves 3e4d 3a2b 4d3d 4a3a\n\
    \n\
    startpos moves 1d1c 3a1c+ 4e4d N*3c\n\
    startpos moves 3e3d 3a1c 4e4d 1c2b\n";

#[test]
fn the_sprt_plays_an_openings_file_once_a_line() {
    let root = fresh("pipe-openings");
    let (dir, out) = (root.join("run"), root.join("out.nnue"));
    let file = root.join("openings.txt");
    std::fs::write(&file, MICRO_OPENINGS).expect("openings");
    let file_arg = file.to_str().expect("utf-8 path");
    let sprt = [
        "--sprt-pairs",
        "10",
        "--sprt-nodes",
        "200",
        "--sprt-openings",
        file_arg,
    ];
    let text = summary_of(&pipeline(&dir, &out, "2", &sprt));
    // Three lines, so three pairs (a fourth would replay the first), then undecided.
    assert!(
        text.contains("sprt:  the net against the registered evaluation, 3 pairs"),
        "{text}"
    );
    assert!(text.contains("from the 3 openings of"), "{text}");
    assert!(text.contains("undecided"), "{text}");
    assert_eq!(summary_json(&dir)["sprt"]["pairs"], 3);
    let params = std::fs::read_to_string(dir.join("params.json")).expect("params.json");
    assert!(params.contains("\"openings\""), "{params}");
    // Another file is another test: the directory refuses it, untouched.
    let before = snapshot(&dir);
    let two = MICRO_OPENINGS.replace("startpos moves 3e3d 3a1c 4e4d 1c2b\n", "");
    std::fs::write(&file, two).expect("other openings");
    let again = pipeline(&dir, &out, "2", &sprt);
    assert!(!again.status.success());
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(err.contains("was made with other parameters"), "{err}");
    assert!(err.contains("openings"), "{err}");
    assert_eq!(snapshot(&dir), before);
    // A line that is not a position of the variant is named with its line number, and
    // nothing is played or written.
    let bad_dir = root.join("bad");
    std::fs::write(&file, "startpos moves 3e4d\nstartpos moves 9z9y\n").expect("bad openings");
    let bad = pipeline(&bad_dir, &out, "2", &sprt);
    let err = failed_with(&bad, 1);
    assert!(err.contains("openings.txt:2:"), "{err}");
    assert!(!bad_dir.exists());
    std::fs::remove_dir_all(&root).expect("clean");
}

#[test]
fn the_games_start_from_an_openings_file() {
    let root = fresh("starts");
    let file = root.join("starts.txt");
    std::fs::write(&file, MICRO_OPENINGS).expect("starts");
    let from = [std::ffi::OsStr::new("--openings"), file.as_os_str()];
    let (a, b, plain) = (
        root.join("a.nnue"),
        root.join("b.nnue"),
        root.join("p.nnue"),
    );
    let text = summary_of(&train_with(&a, "2", &from));
    assert!(text.contains("from 3 start lines"), "{text}");
    summary_of(&train_with(&b, "1", &from));
    summary_of(&train(&plain, "2"));
    let read = |p: &Path| std::fs::read(p).expect("net");
    assert_eq!(
        read(&a),
        read(&b),
        "the same file and options, the same bytes"
    );
    assert_ne!(read(&a), read(&plain), "other games, another net");

    // The pipeline records the file in its parameters; its games are not those of a run
    // without it, so such a run cannot take its chunks.
    let (dir, out) = (root.join("run"), root.join("out.nnue"));
    let file_arg = file.to_str().expect("utf-8 path");
    let text = summary_of(&pipeline(
        &dir,
        &out,
        "2",
        &["--no-sprt", "--openings", file_arg],
    ));
    assert!(text.contains("from the 3 lines of"), "{text}");
    let params = std::fs::read_to_string(dir.join("params.json")).expect("params.json");
    assert!(params.contains("\"starts\""), "{params}");
    let other = root.join("other");
    let dir_arg = dir.to_str().expect("utf-8 path");
    let refused = pipeline(&other, &out, "2", &["--no-sprt", "--data-from", dir_arg]);
    let err = failed_with(&refused, 1);
    assert!(err.contains("other parameters"), "{err}");
    assert!(err.contains("starts"), "{err}");

    // A line that is not a position of the variant is named, and nothing is written.
    std::fs::write(&file, "startpos moves 3e4d\nstartpos moves 9z9y\n").expect("bad");
    let c = root.join("c.nnue");
    let bad = train_with(&c, "1", &from);
    let err = failed_with(&bad, 1);
    assert!(err.contains("starts.txt:2:"), "{err}");
    assert!(!c.exists());
    std::fs::remove_dir_all(&root).expect("clean");
}

#[test]
fn a_net_matched_against_itself_as_base_splits_every_pair() {
    // `--base NET` gives the opponent the net of a file instead of the registered
    // evaluation. At fixed nodes one thread's searches are reproducible, so a net against
    // itself plays each opening's two games as mirror images: every pair one win each (or
    // two draws), 50% exactly. Against the registered evaluation the same net does not.
    let net = registered_net("micro");
    let small = temp("small-base.nnue");
    summary_of(&train(&small, "1"));
    let run = |base: Option<&Path>| {
        let mut cmd = bin();
        cmd.args([
            "match",
            "--variant",
            "micro",
            "--games",
            "16",
            "--nodes",
            "300",
            "--threads",
            "2",
            "--sprt",
            "0,10",
            "--net",
        ])
        .arg(&net);
        if let Some(b) = base {
            cmd.arg("--base").arg(b);
        }
        summary_of(&cmd.output().expect("runs"))
    };
    let itself = run(Some(&net));
    assert!(itself.contains("opponent: the net "), "{itself}");
    assert!(itself.contains("net vs base net"), "{itself}");
    assert!(itself.contains("pentanomial [0, 0, 8, 0, 0]"), "{itself}");
    assert!(itself.contains("score 50.0%"), "{itself}");
    // The small net (8 units, 6 games) against the registered one: not mirror images.
    let other = run(Some(&small));
    assert!(!other.contains("pentanomial [0, 0, 8, 0, 0]"), "{other}");
    let registered = run(None);
    assert!(
        registered.contains("opponent: registered evaluation"),
        "{registered}"
    );
    assert!(
        registered.contains("net vs registered evaluation"),
        "{registered}"
    );
    // `--base` belongs to `match`, and a base that is not a net of the variant is named.
    let out = bin()
        .args(["speed", "--variant", "micro", "--net"])
        .arg(&net)
        .arg("--base")
        .arg(&net)
        .output()
        .expect("runs");
    let err = failed_with(&out, 2);
    assert!(err.contains("`--base` is an option of `match`"), "{err}");
    let out = bin()
        .args(["match", "--variant", "micro", "--net"])
        .arg(&net)
        .arg("--base")
        .arg(registered_net("minishogi"))
        .output()
        .expect("runs");
    let err = failed_with(&out, 1);
    assert!(err.contains("minishogi.nnue"), "{err}");
}
