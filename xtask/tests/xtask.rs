//! End-to-end tests of `cargo xtask perft` and `cargo xtask release`: they run the xtask
//! binary, which builds the release `kshogi` with cargo. That build makes them slow on a
//! cold target directory, so they are `#[ignore]`d for a plain `cargo test`; `cargo xtask
//! ci` runs them (`--include-ignored`).

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lies in the workspace")
        .to_path_buf()
}

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a temporary directory");
    dir
}

/// Runs the xtask binary with `args` from the workspace root.
fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run xtask")
}

/// Standard output and standard error together, for assertions and failure messages.
fn text(output: &Output) -> String {
    format!(
        "{}\n--- stderr ---\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

const KYOTO: &str = "pgkst/5/5/5/TSKGP b - 1";

#[test]
#[ignore = "builds the release kshogi; run by `cargo xtask ci`"]
fn a_wrong_expectation_fails_naming_the_row_and_a_right_one_passes() {
    let dir = temp_dir("perft-suite");
    let suite = dir.join("suite.tsv");
    let report = dir.join("report.json");
    let baseline = dir.join("baseline.json");
    // Kyoto's start position has 137 leaves at depth 2 (perft/reference.tsv); 138 is wrong.
    std::fs::write(
        &suite,
        format!(
            "# a suite with one wrong count\n\
             kyoto\t{KYOTO}\t1\t12\tquick\n\
             kyoto\t{KYOTO}\t2\t138\tquick\n"
        ),
    )
    .unwrap();
    // A baseline whose divide differs on one root move (and lacks the others).
    std::fs::write(
        &baseline,
        format!(
            r#"{{"rows": [{{"variant": "kyoto", "sfen": "{KYOTO}", "depth": 2,
                "ok": true, "time_ms": 0.1, "divide": {{"1e1d+": 999}}}}]}}"#
        ),
    )
    .unwrap();
    let suite_arg = suite.to_str().unwrap();
    let output = xtask(&[
        "perft",
        "--suite",
        suite_arg,
        "--json",
        report.to_str().unwrap(),
        "--baseline",
        baseline.to_str().unwrap(),
    ]);
    let all = text(&output);
    assert_eq!(output.status.code(), Some(1), "{all}");
    // The row is named by file and line, with both counts, and its divide is printed.
    let named = format!("{suite_arg}:3: kyoto '{KYOTO}' depth 2: expected 138, got 137 (-1)");
    assert!(all.contains(&named), "missing `{named}` in\n{all}");
    assert!(all.contains("MISMATCH"), "{all}");
    assert!(all.contains("divide (12 root moves, 137 nodes)"), "{all}");
    assert!(
        all.contains("difference from the baseline's divide"),
        "{all}"
    );
    assert!(
        all.contains(&format!(
            "error: 1 row with a wrong count or an error ({suite_arg}:3)"
        )) && all.contains("xtask perft: FAILED"),
        "{all}"
    );

    // The report says the same.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["ok"], true);
    assert_eq!(
        (rows[1]["line"].as_u64(), rows[1]["ok"].as_bool()),
        (Some(3), Some(false))
    );
    assert_eq!(
        (rows[1]["expected"].as_u64(), rows[1]["nodes"].as_u64()),
        (Some(138), Some(137))
    );
    let divide = rows[1]["divide"].as_object().unwrap();
    assert_eq!(divide.len(), 12);
    assert_eq!(
        divide.values().map(|n| n.as_u64().unwrap()).sum::<u64>(),
        137
    );
    assert_eq!(json["totals"]["failed"], 1);
    assert_eq!(json["machine"]["os"], std::env::consts::OS);

    // With the right count the same suite passes.
    std::fs::write(
        &suite,
        format!("kyoto\t{KYOTO}\t1\t12\tquick\nkyoto\t{KYOTO}\t2\t137\tquick\n"),
    )
    .unwrap();
    let output = xtask(&["perft", "--suite", suite_arg]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "builds the release kshogi; run by `cargo xtask ci`"]
fn a_release_dry_run_writes_an_archive_whose_checksum_is_in_sha256sums() {
    let root = root();
    let version = "999.0.0";
    let before: Vec<Vec<u8>> = ["Cargo.toml", "CHANGELOG.md"]
        .iter()
        .map(|f| std::fs::read(root.join(f)).unwrap())
        .collect();
    let output = xtask(&["release", version, "--dry-run", "--allow-dirty"]);
    let all = text(&output);
    assert_eq!(output.status.code(), Some(0), "{all}");
    assert!(all.contains("would change Cargo.toml"), "{all}");
    assert!(all.contains("would change CHANGELOG.md"), "{all}");

    // The dry run changed no file under version control.
    let after: Vec<Vec<u8>> = ["Cargo.toml", "CHANGELOG.md"]
        .iter()
        .map(|f| std::fs::read(root.join(f)).unwrap())
        .collect();
    assert!(
        before == after,
        "a dry run changed Cargo.toml or CHANGELOG.md"
    );

    // `wrote <archive> (...)` names the archive, relative to the root or absolute.
    let stdout = String::from_utf8_lossy(&output.stdout);
    let shown = stdout
        .lines()
        .find_map(|l| l.strip_prefix("wrote ").filter(|l| l.contains(".tar.gz")))
        .and_then(|l| l.split(" (").next())
        .unwrap_or_else(|| panic!("no `wrote ...tar.gz` line in\n{all}"));
    let archive = root.join(shown);
    let name = archive.file_name().unwrap().to_str().unwrap().to_string();
    assert!(
        name.starts_with(&format!("kshogi-{version}-")) && name.ends_with(".tar.gz"),
        "{name}"
    );

    // SHA256SUMS has the archive's line, and its hash is that of the archive's bytes.
    let sums = std::fs::read_to_string(archive.with_file_name("SHA256SUMS")).unwrap();
    let line = sums
        .lines()
        .find(|l| l.ends_with(&format!("  {name}")))
        .unwrap_or_else(|| panic!("no line for {name} in SHA256SUMS:\n{sums}"));
    let listed = line.split("  ").next().unwrap();
    let bytes = std::fs::read(&archive).unwrap();
    let actual: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(listed.len(), 64, "{line}");
    assert_eq!(listed, actual, "SHA256SUMS disagrees with the archive");

    // The archive holds the binary, the README, both licenses, the changelog and the docs.
    let prefix = name.trim_end_matches(".tar.gz");
    let mut archive_reader = tar::Archive::new(flate2::read::GzDecoder::new(bytes.as_slice()));
    let mut names = Vec::new();
    for entry in archive_reader.entries().unwrap() {
        let entry = entry.unwrap();
        names.push(entry.path().unwrap().to_string_lossy().into_owned());
    }
    let binary = format!("kshogi{}", std::env::consts::EXE_SUFFIX);
    for file in [
        binary.as_str(),
        "README.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "CHANGELOG.md",
        "docs/perft.md",
        "docs/rules.md",
    ] {
        let path = format!("{prefix}/{file}");
        assert!(names.contains(&path), "{path} not in {names:?}");
    }

    // Leave target/dist as it was: the next release drops lines of vanished files.
    std::fs::remove_file(&archive).unwrap();
}
