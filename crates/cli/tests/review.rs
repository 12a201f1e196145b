//! Runs `kshogi review`: a hung piece found by the search, a Kinzoku win thrown away judged
//! exactly from a small database built here, the files of `--out` (the annotated KIF read
//! back by `kshogi convert`, the graph's geometry, no overwriting), bad records, inputs too
//! large or unreadable.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// A scratch directory for one test, empty.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kshogi-review-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn kshogi(args: &[&str]) -> Output {
    // No database installed on the machine may answer: each test names its own.
    Command::new(env!("CARGO_BIN_EXE_kshogi"))
        .args(args)
        .env("KSHOGI_DB", "/nonexistent/kshogi-tests")
        .output()
        .expect("the kshogi binary runs")
}

/// Runs a command that must succeed and returns its stdout.
fn ok(args: &[&str]) -> String {
    let out = kshogi(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// Runs a command that must fail with status 1 and one `error:` line; returns that line.
fn bad(args: &[&str]) -> String {
    let out = kshogi(args);
    let stderr = String::from_utf8(out.stderr).expect("stderr is UTF-8");
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    stderr.trim_end().to_string()
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Black has a rook more (1e). 1e1b+ sends it up the file and turns it into a pawn on 1b,
/// next to the White king on 2a and out of reach of Black's king on 3e; the king takes it.
const HUNG: &str = "3k1/5/5/5/2K1R b - 1 moves 1e1b+ 2a1b";

#[test]
fn a_hung_piece_is_a_blunder() {
    let v = json(&ok(&["review", "--json", "--depth", "6", HUNG]));
    assert_eq!(v["variant"], "kyoto");
    assert_eq!(v["moves"], 2);
    assert_eq!(v["interrupted"], false);
    let p = &v["plies"][0];
    assert_eq!(p["number"], 1);
    assert_eq!(p["side"], "black");
    assert_eq!(p["move"], "1e1b+");
    assert_eq!(p["move_kif"], "１二飛成(15)");
    assert_eq!(p["judgement"], "blunder", "{p}");
    assert!(p["loss"].as_f64().unwrap() >= 0.15, "{p}");
    assert_ne!(p["best"], "1e1b+");
    // The capture is White's best move.
    assert_eq!(v["plies"][1]["move"], "2a1b");
    assert!(v["plies"][1]["judgement"].is_null());
    assert_eq!(v["summary"]["black"]["blunders"], 1);
    assert_eq!(v["summary"]["white"]["moves"], 1);
    let text = ok(&["review", "--depth", "6", HUNG]);
    assert!(
        text.contains("move 1 (black) 1e1b+ １二飛成(15): blunder"),
        "{text}"
    );
    assert!(
        text.contains("\nblack: 1 moves; inaccuracies 0, mistakes 0, blunders 1; average loss "),
        "{text}"
    );
}

/// The Kinzoku database of every position with at most one piece besides the kings, built
/// once (a second or so).
fn db1() -> &'static PathBuf {
    static DB: OnceLock<PathBuf> = OnceLock::new();
    DB.get_or_init(|| {
        let path = scratch("db1").join("k1.kdb");
        let p = path.to_str().unwrap();
        ok(&["solve", "kinzoku", "--max-pieces", "1", "--out", p]);
        path
    })
}

#[test]
fn kinzoku_a_win_thrown_away_is_an_exact_blunder() {
    let db = db1().to_str().unwrap();
    // Black (king 3c, promoted soldier 2c) mates at once with 2c2b against the king on 1a
    // (the crate's tests). 3c3b instead stalemates the White king: 2a and 2b are covered
    // by Black's king, 1b and 2b by the promoted soldier on 2c, so White has no move, and a
    // Kinzoku stalemate is a draw (docs/rules.md).
    let v = json(&ok(&[
        "review",
        "--json",
        "--depth",
        "2",
        "--db",
        db,
        "2k/3/K+I1/3/3 b - 1 moves 3c3b",
    ]));
    assert_eq!(v["database"], db);
    let p = &v["plies"][0];
    assert_eq!(p["exact_before"]["result"], "win", "{p}");
    assert_eq!(p["exact_before"]["plies"], 1, "{p}");
    assert_eq!(p["exact_after"]["result"], "draw", "{p}");
    assert_eq!(p["judgement"], "blunder", "{p}");
    assert_eq!(p["best"], "2c2b");
    assert_eq!(p["source"], "database");
    // The mate itself: the best move, not judged.
    let v = json(&ok(&[
        "review",
        "--json",
        "--depth",
        "2",
        "--db",
        db,
        "2k/3/K+I1/3/3 b - 1 moves 2c2b",
    ]));
    assert!(v["plies"][0]["judgement"].is_null(), "{v}");
    assert_eq!(v["summary"]["black"]["accuracy"], 100.0);
}

/// The attribute `name` of an SVG element line.
fn attr<'a>(e: &'a str, name: &str) -> &'a str {
    let key = format!(" {name}=\"");
    let start = e.find(&key).unwrap() + key.len();
    &e[start..start + e[start..].find('"').unwrap()]
}

#[test]
fn out_writes_an_annotated_kif_json_and_a_graph_and_never_overwrites() {
    let dir = scratch("out");
    let d = dir.to_str().unwrap();
    // The game as a KIF file, from kshogi's own writer.
    let kif = ok(&["convert", "--to", "kif", HUNG]);
    let game = dir.join("hung.kif");
    std::fs::write(&game, &kif).unwrap();
    let g = game.to_str().unwrap();
    let text = ok(&["review", "--depth", "6", "--out", d, "--diagrams", g]);
    assert!(text.contains("blunder"), "{text}");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    // The annotated record: a lishogi-style comment after move 1, read back by kshogi.
    let annotated = read("hung.review.kif");
    let after_move_1 = annotated
        .split("   1 １二飛成(15)\n")
        .nth(1)
        .expect("move 1 is there");
    assert!(after_move_1.starts_with("*("), "{annotated}");
    assert!(
        after_move_1
            .lines()
            .next()
            .unwrap()
            .contains(") Blunder. Best move was "),
        "{annotated}"
    );
    let annotated_path = dir.join("hung.review.kif");
    let usi = ok(&["convert", "--to", "usi", annotated_path.to_str().unwrap()]);
    assert_eq!(usi, "sfen 3k1/5/5/5/2K1R b - 1 moves 1e1b+ 2a1b\n");
    // The JSON file is the --json output.
    let v = json(&read("hung.review.json"));
    assert_eq!(v["plies"][0]["judgement"], "blunder");
    // The graph: 760 x 340, three points (start and two moves) from x 70 to 740, one red
    // mark on the point after move 1 (the middle), outlined in black (Black's move).
    let svg = read("hung.review.svg");
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"340\"")
    );
    let curve: Vec<&str> = svg
        .lines()
        .filter(|l| l.contains("class=\"curve\""))
        .collect();
    assert_eq!(curve.len(), 1);
    let points: Vec<(f64, f64)> = attr(curve[0], "points")
        .split(' ')
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect();
    assert_eq!(points.len(), 3);
    assert_eq!(
        (points[0].0, points[1].0, points[2].0),
        (70.0, 405.0, 740.0)
    );
    // Black is better at the start (above 50%, y 153), worse after the rook is lost.
    assert!(
        points[0].1 < 153.0 && points[1].1 > points[0].1,
        "{points:?}"
    );
    let marks: Vec<&str> = svg
        .lines()
        .filter(|l| l.contains("class=\"mark "))
        .collect();
    assert_eq!(marks.len(), 1);
    assert!(marks[0].contains("class=\"mark blunder\""));
    assert_eq!(attr(marks[0], "data-move"), "1");
    assert_eq!(attr(marks[0], "cx"), "405");
    assert_eq!(attr(marks[0], "cy").parse::<f64>().unwrap(), points[1].1);
    assert_eq!(attr(marks[0], "stroke"), "#000000");
    // The diagram of the blunder: the position before move 1.
    let diagram = read("hung.blunder-1.svg");
    assert!(diagram.contains("<svg") && diagram.contains("</svg>"));
    // A second run refuses before searching, and changes nothing.
    let before = read("hung.review.kif");
    let e = bad(&["review", "--depth", "6", "--out", d, g]);
    assert!(e.contains("already exists") && e.contains("--force"), "{e}");
    assert_eq!(read("hung.review.kif"), before);
    ok(&["review", "--depth", "6", "--out", d, "--force", g]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_input_is_never_an_output_even_with_force() {
    let dir = scratch("input-output");
    let d = dir.to_str().unwrap();
    let kif = ok(&["convert", "--to", "kif", HUNG]);
    // Two records: the second is named as the first one's annotated output would be.
    let first = dir.join("g.kif");
    let second = dir.join("g.review.kif");
    std::fs::write(&first, &kif).unwrap();
    std::fs::write(&second, &kif).unwrap();
    let (f, s) = (first.to_str().unwrap(), second.to_str().unwrap());
    let e = bad(&["review", "--depth", "2", "--out", d, "--force", f, s]);
    assert!(e.contains("which this command reads"), "{e}");
    assert!(e.contains("g.review.kif"), "{e}");
    // Refused before any search: the second record is intact and nothing was written.
    assert_eq!(std::fs::read_to_string(&second).unwrap(), kif);
    assert!(!dir.join("g.review.json").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `kshogi review` with `stdin` on its standard input; returns its status and stderr.
fn kshogi_fed(args: &[&str], stdin: Vec<u8>) -> (Option<i32>, String) {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_kshogi"))
        .args(args)
        .env("KSHOGI_DB", "/nonexistent/kshogi-tests")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the kshogi binary runs");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    // The program may stop reading at its bound and close the pipe: not an error here.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&stdin);
    });
    let out = child.wait_with_output().expect("kshogi ends");
    writer.join().expect("the writer ends");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    (
        out.status.code(),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}

#[test]
fn an_oversized_or_unreadable_input_is_an_error_not_a_panic() {
    // Inputs are read at most 64 MiB (`kshogi_report::game_file::MAX_GAME_FILE_BYTES`), as
    // `kshogi convert` reads them. A file one byte longer (sparse: only its length is
    // written) is refused with its name and the bound.
    let dir = scratch("oversized");
    let big = dir.join("big.kif");
    std::fs::File::create(&big)
        .and_then(|f| f.set_len((64 << 20) + 1))
        .unwrap();
    let e = bad(&["review", "--depth", "1", big.to_str().unwrap()]);
    assert_eq!(
        e,
        format!(
            "error: cannot read `{}`: more than 64 MiB, far more than a KIF record; not read",
            big.display()
        )
    );
    // Standard input likewise: 64 MiB and one byte.
    let (status, stderr) = kshogi_fed(&["review", "--depth", "1", "-"], vec![b'x'; (64 << 20) + 1]);
    assert_eq!(status, Some(1), "{stderr}");
    assert_eq!(
        stderr,
        "error: cannot read standard input: more than 64 MiB, far more than a KIF record; not \
         read\n"
    );
    // A file that exists but cannot be read (Linux: reading the process's own memory from
    // its start fails) names the file and the system's reason.
    if cfg!(target_os = "linux") && Path::new("/proc/self/mem").is_file() {
        let e = bad(&["review", "--depth", "1", "/proc/self/mem"]);
        assert!(
            e.starts_with("error: cannot read `/proc/self/mem`: "),
            "{e}"
        );
        assert!(!e.contains("panicked"), "{e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_records_name_the_line_and_column() {
    let dir = scratch("bad");
    let file = dir.join("bad.kif");
    // Line 3 has a move to a square off the 5x5 board (file 7).
    std::fs::write(
        &file,
        "手合割：京都将棋\n手数----指手---------消費時間--\n   1 ７四歩成(15)\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let e = bad(&["review", "--depth", "1", f]);
    assert!(e.contains("bad.kif") && e.contains("line 3: column"), "{e}");
    let e = bad(&["review", "--depth", "1", "no-such-file.kif"]);
    assert!(e.contains("no-such-file.kif"), "{e}");
    let e = bad(&["review", "--depth", "1", "startpos moves 1e1d+"]);
    assert!(e.contains("--variant"), "{e}");
    let out = dir.join("not-a-dir");
    std::fs::write(&out, "x").unwrap();
    let e = bad(&[
        "review",
        "--out",
        out.to_str().unwrap(),
        "--variant",
        "kyoto",
        "startpos",
    ]);
    assert!(e.contains("not a directory"), "{e}");
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}
