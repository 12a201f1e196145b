//! `kshogi match` end to end: `kshogi usi` against itself, and the errors of bad settings.

use std::process::Command;

fn kshogi() -> &'static str {
    env!("CARGO_BIN_EXE_kshogi")
}

fn run(args: &[&str]) -> std::process::Output {
    Command::new(kshogi())
        .args(args)
        .output()
        .expect("kshogi runs")
}

#[test]
fn kshogi_against_itself_writes_records_and_json() {
    let dir = std::env::temp_dir().join(format!("kshogi-match-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let engine = format!("'{}' usi", kshogi());
    let dir_text = dir.display().to_string();
    let args = [
        "match",
        "--variant",
        "micro",
        "--games",
        "2",
        "--movetime",
        "10",
        "--engine-a",
        &engine,
        "--engine-b",
        &engine,
        "--a-name",
        "one",
        "--b-name",
        "two",
        "--out",
        &dir_text,
        "--json",
    ];
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 2);
    assert_eq!(v["engine_a"], "one");
    let wdl = ["wins", "draws", "losses"].map(|k| v[k].as_u64().unwrap());
    assert_eq!(wdl.iter().sum::<u64>(), 2);
    assert_eq!(v["game_list"][0]["fault_by"], "", "{v}");
    assert!(dir.join("game-0001.kif").exists() && dir.join("game-0002.kif").exists());
    // The directory now holds records: a second match refuses it and overwrites nothing.
    let before = std::fs::read(dir.join("game-0001.kif")).unwrap();
    let again = run(&args);
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("not empty"));
    assert_eq!(std::fs::read(dir.join("game-0001.kif")).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_settings_are_errors() {
    // A Kyoto match of two games with `args`, which must stop at once with exit code 1:
    // its error output.
    let stopped = |args: &[&str]| {
        let mut all = vec!["match", "--variant", "kyoto", "--games", "2"];
        all.extend(args);
        let out = run(&all);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        err
    };
    let err = stopped(&[
        "--engine-a",
        "/nonexistent/eng",
        "--engine-b",
        "/nonexistent/eng",
    ]);
    assert!(
        err.starts_with("error: engine /nonexistent/eng: cannot start"),
        "{err}"
    );
    // An option kshogi does not declare, or a value out of its range, stops the match before
    // its first game, naming the engine and the option (kshogi would ignore the first and
    // refuse the second, and the match would measure its defaults).
    let engine = format!("'{}' usi", kshogi());
    for (option, says) in [
        (
            "Contemp=30",
            "error: engine b: the engine declares no option `Contemp` (its options: USI_Variant,",
        ),
        (
            "contempt=300",
            "error: engine b: option contempt takes a whole number from -200 to 200, found `300`",
        ),
    ] {
        let err = stopped(&[
            "--engine-a",
            &engine,
            "--engine-b",
            &engine,
            "--b-name",
            "b",
            "--b-option",
            option,
        ]);
        assert!(err.starts_with(says), "{option}: {err}");
    }
    let out = run(&[
        "match",
        "--variant",
        "kyoto",
        "--sprt",
        "5,0",
        "--engine-a",
        "x",
        "--engine-b",
        "y",
    ]);
    assert_eq!(out.status.code(), Some(2));
    // --nodes is a time control of its own.
    let out = run(&[
        "match",
        "--variant",
        "kyoto",
        "--nodes",
        "1000",
        "--movetime",
        "10",
        "--engine-a",
        "x",
        "--engine-b",
        "y",
    ]);
    assert_eq!(out.status.code(), Some(2));
    // Time options past a day are refused by name (an increment of u64::MAX ms, added after
    // every move, overflowed the clock).
    for (option, extra) in [
        ("--inc", &["--time", "1000"][..]),
        ("--byoyomi", &["--time", "1000"]),
        ("--margin", &[]),
        ("--handshake-timeout", &[]),
    ] {
        let mut args = vec![
            "match",
            "--variant",
            "kyoto",
            "--engine-a",
            "x",
            "--engine-b",
            "y",
            option,
            "18446744073709551615",
        ];
        args.extend(extra);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{option}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(option) && err.contains("86400000"),
            "{option}: {err}"
        );
    }
}

/// The moves of a KIF record without the times and comments (which depend on the clock).
fn moves_of(kif: &str) -> Vec<String> {
    kif.lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| l.split('(').next().unwrap_or("").trim().to_string())
        .collect()
}

#[test]
fn fixed_node_matches_are_reproducible() {
    // `go nodes N` makes every move of `kshogi usi` deterministic (search and mate solver
    // are both bounded by N): two runs of the same match play the same games, move for move.
    let engine = format!("'{}' usi", kshogi());
    let mut runs = Vec::new();
    for run_no in 0..2 {
        let dir = std::env::temp_dir().join(format!(
            "kshogi-match-nodes-{}-{run_no}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let dir_text = dir.display().to_string();
        let out = run(&[
            "match",
            "--variant",
            "micro",
            "--games",
            "2",
            "--nodes",
            "3000",
            "--engine-a",
            &engine,
            "--engine-b",
            &engine,
            "--out",
            &dir_text,
            "--json",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["game_list"][0]["fault_by"], "", "{v}");
        let games: Vec<Vec<String>> = (1..=2)
            .map(|n| {
                let kif = std::fs::read_to_string(dir.join(format!("game-{n:04}.kif"))).unwrap();
                moves_of(&kif)
            })
            .collect();
        assert!(games.iter().all(|g| g.len() > 4), "{games:?}");
        runs.push((v["game_list"].clone(), games));
        std::fs::remove_dir_all(&dir).unwrap();
    }
    for g in 0..2 {
        runs[0].0[g]["file"] = serde_json::Value::Null;
        runs[1].0[g]["file"] = serde_json::Value::Null;
    }
    assert_eq!(runs[0], runs[1]);
}
