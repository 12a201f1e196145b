//! Output files of every command (`show`/`analyze -o`, `perft --report` and
//! `--export-json`, `solve --out`): never an input, never over an existing file without
//! `--force`, checked before the work starts, and with `--force` a FIFO or device written
//! through and a symbolic link followed, never replaced by a regular file (issue 33,
//! faults 4 and 5).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn kshogi(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kshogi"))
        .args(args)
        .current_dir(dir)
        .env("KSHOGI_DB", dir)
        .output()
        .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kshogi-outputs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A suite of one row: the Kyoto start has 137 leaves at depth 2 (NOTATION/perft reference
/// counts, `perft/reference.tsv`).
const SUITE: &str = "kyoto\tstartpos\t2\t137\tquick\n";

#[test]
fn the_report_may_not_be_the_suite_or_the_baseline() {
    let d = scratch("suite-report");
    std::fs::write(d.join("s.tsv"), SUITE).unwrap();
    for force in [false, true] {
        let mut args = vec!["perft", "--suite", "s.tsv", "--report", "s.tsv"];
        if force {
            args.push("--force");
        }
        let o = kshogi(&d, &args);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("--report `s.tsv` is the suite `s.tsv`"),
            "{}",
            stderr(&o)
        );
        // Nothing ran: no table on stdout; the suite is intact.
        assert!(o.stdout.is_empty());
        assert_eq!(std::fs::read_to_string(d.join("s.tsv")).unwrap(), SUITE);
    }
    // The same file under another name is still the suite.
    let o = kshogi(
        &d,
        &[
            "perft",
            "--suite",
            "s.tsv",
            "--export-json",
            "./s.tsv",
            "--force",
        ],
    );
    assert!(stderr(&o).contains("is the suite"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(d.join("s.tsv")).unwrap(), SUITE);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn report_and_export_never_overwrite_without_force_and_are_checked_first() {
    let d = scratch("report-force");
    std::fs::write(d.join("s.tsv"), SUITE).unwrap();
    std::fs::write(d.join("r.json"), "keep").unwrap();
    let o = kshogi(&d, &["perft", "--suite", "s.tsv", "--report", "r.json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("--report `r.json` already exists; give --force"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty(), "the suite must not run first");
    assert_eq!(std::fs::read_to_string(d.join("r.json")).unwrap(), "keep");
    // A report in a directory that does not exist is found before the run.
    let o = kshogi(
        &d,
        &["perft", "--suite", "s.tsv", "--report", "no/such/r.json"],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("does not exist"), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    // With --force the report replaces the file.
    let o = kshogi(
        &d,
        &["perft", "--suite", "s.tsv", "--report", "r.json", "--force"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let report = std::fs::read_to_string(d.join("r.json")).unwrap();
    assert!(report.contains("\"nodes\": 137"), "{report}");
    // --export-json likewise.
    std::fs::write(d.join("e.json"), "keep").unwrap();
    let o = kshogi(
        &d,
        &["perft", "--suite", "s.tsv", "--export-json", "e.json"],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--export-json `e.json` already exists"));
    assert_eq!(std::fs::read_to_string(d.join("e.json")).unwrap(), "keep");
    let o = kshogi(
        &d,
        &[
            "perft",
            "--suite",
            "s.tsv",
            "--export-json",
            "e.json",
            "--force",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(d.join("e.json"))
        .unwrap()
        .contains("\"rows\""));
    std::fs::remove_dir_all(&d).unwrap();
}

#[cfg(unix)]
#[test]
fn force_follows_a_symbolic_link_and_keeps_it() {
    let d = scratch("symlink");
    std::fs::write(d.join("real.svg"), "old").unwrap();
    std::os::unix::fs::symlink("real.svg", d.join("link.svg")).unwrap();
    let args = [
        "show",
        "--svg",
        "-o",
        "link.svg",
        "--variant",
        "kyoto",
        "startpos",
    ];
    let o = kshogi(&d, &args);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("already exists"), "{}", stderr(&o));
    let mut forced = args.to_vec();
    forced.push("--force");
    let o = kshogi(&d, &forced);
    assert!(o.status.success(), "{}", stderr(&o));
    let link = d.join("link.svg").symlink_metadata().unwrap();
    assert!(link.file_type().is_symlink(), "the link was replaced");
    let svg = std::fs::read_to_string(d.join("real.svg")).unwrap();
    assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"), "{svg}");
    // A link to nothing is refused, and stays a link.
    std::os::unix::fs::symlink("missing.svg", d.join("dangling.svg")).unwrap();
    let o = kshogi(
        &d,
        &[
            "show",
            "--svg",
            "-o",
            "dangling.svg",
            "--force",
            "--variant",
            "kyoto",
            "startpos",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("symbolic link"), "{}", stderr(&o));
    assert!(!d.join("missing.svg").exists());
    std::fs::remove_dir_all(&d).unwrap();
}

/// Makes a FIFO with the system's `mkfifo`; `false` where there is none.
fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

#[cfg(unix)]
#[test]
fn force_writes_through_a_fifo_and_solve_refuses_one() {
    use std::io::Read as _;
    let d = scratch("fifo");
    let fifo = d.join("pipe.svg");
    if !mkfifo(&fifo) {
        eprintln!("no mkfifo here: skipped");
        return;
    }
    let args = [
        "show",
        "--svg",
        "-o",
        "pipe.svg",
        "--variant",
        "kyoto",
        "startpos",
    ];
    let o = kshogi(&d, &args);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("already exists"), "{}", stderr(&o));
    // A reader on the other end gets the picture; the FIFO stays a FIFO.
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut text = String::new();
            std::fs::File::open(fifo)
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            text
        })
    };
    let mut forced = args.to_vec();
    forced.push("--force");
    let o = kshogi(&d, &forced);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = reader.join().unwrap();
    assert!(text.contains("<svg"), "{text}");
    assert!(!fifo.symlink_metadata().unwrap().is_file());
    // A database is written only to a regular file: refused before the build.
    let o = kshogi(&d, &["solve", "dobutsu", "--out", "pipe.svg", "--force"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    assert!(!fifo.symlink_metadata().unwrap().is_file());
    std::fs::remove_dir_all(&d).unwrap();
}
