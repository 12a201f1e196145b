//! `kshogi solve <variant>` and `kshogi analyze` with its database, on small databases that
//! build in about a second: for Kinzoku `--max-pieces 2` (positions with at most two pieces
//! besides the kings, closed under moves, so a game of their own) and `--max-pieces 1`, for
//! Dobutsu `--pieces R` (the lions and the two giraffes).
//!
//! Every command runs with a scratch `HOME` and without `KSHOGI_DB` and `XDG_DATA_HOME`, so
//! a database installed on the machine is never read or overwritten. The positions whose
//! values are checked were worked out by hand (see each one); Kinzoku SFEN is 3 files by 5
//! ranks, Black moves up the board (its farthest rank is `a`), White down (`e`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// A scratch directory of this test binary, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("solve")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch directory");
    dir
}

/// Runs kshogi with `HOME` = `home` (its own scratch directory unless given), no
/// `KSHOGI_DB` or `XDG_DATA_HOME`, and the extra variables `env`.
fn run_in(home: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kshogi"));
    cmd.args(args)
        .env("HOME", home)
        .env_remove("KSHOGI_DB")
        .env_remove("XDG_DATA_HOME")
        .env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the kshogi binary runs")
}

/// A home directory with nothing in it.
fn empty_home() -> PathBuf {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| scratch("empty-home")).clone()
}

fn kshogi(args: &[&str]) -> Output {
    run_in(&empty_home(), args, &[])
}

/// Stdout of a command that must succeed (stderr may carry nothing but progress).
fn ok_out(out: Output, args: &[&str]) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    assert!(!stderr.contains("error"), "{args:?}: {stderr}");
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

fn ok(args: &[&str]) -> String {
    ok_out(kshogi(args), args)
}

/// The one `error:` line of a command that must fail with status `code`, printing nothing
/// on stdout unless `stdout_allowed`.
fn failure(out: Output, code: i32, args: &[&str], stdout_allowed: bool) -> String {
    let stderr = String::from_utf8(out.stderr).expect("stderr is UTF-8");
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    if !stdout_allowed {
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    }
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(!stderr.contains("internal error"), "{args:?}: {stderr}");
    let first = stderr.lines().next().unwrap_or_default().to_string();
    assert!(first.starts_with("error: "), "{args:?}: {stderr}");
    if code == 1 {
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
    first
}

fn json(text: &str) -> serde_json::Value {
    assert_eq!(text.lines().count(), 1, "one line of JSON expected: {text}");
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// The two-piece database, built once for all the tests, and its `--json` summary.
fn db2() -> &'static (PathBuf, serde_json::Value) {
    static DB: OnceLock<(PathBuf, serde_json::Value)> = OnceLock::new();
    DB.get_or_init(|| {
        let path = scratch("db2").join("k2.kdb");
        let p = path.to_str().unwrap();
        let args = [
            "solve",
            "kinzoku",
            "--max-pieces",
            "2",
            "--out",
            p,
            "--json",
        ];
        let summary = json(&ok(&args));
        (path, summary)
    })
}

fn db2_path() -> &'static str {
    db2().0.to_str().unwrap()
}

/// `analyze --json --db <two-piece database>` of `pos`.
fn exact(pos: &str) -> serde_json::Value {
    json(&ok(&["analyze", "--json", "--db", db2_path(), pos]))
}

/// The strings of a JSON array, sorted.
fn sorted(v: &serde_json::Value) -> Vec<String> {
    let mut s: Vec<String> = v
        .as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_str().expect("a string").to_string())
        .collect();
    s.sort();
    s
}

#[test]
fn the_summary_adds_up() {
    let (path, s) = db2();
    assert_eq!(s["variant"], "kinzoku");
    assert_eq!(s["scope"], 2);
    assert_eq!(
        s["coverage"],
        "positions with at most 2 pieces besides the kings"
    );
    let n = |k: &str| s[k].as_u64().unwrap_or_else(|| panic!("{k} in {s}"));
    assert_eq!(n("wins") + n("losses") + n("draws"), n("positions"), "{s}");
    assert_eq!(n("positions") + n("illegal"), n("entries"), "{s}");
    assert!(n("wins") > 0 && n("losses") > 0 && n("draws") > 0, "{s}");
    assert!(n("stalemates") > 0 && n("stalemates") < n("draws"), "{s}");
    let per: u64 = s["per_distance"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .sum();
    assert_eq!(per, n("wins") + n("losses"), "{s}");
    assert_eq!(
        s["levels"].as_u64().unwrap(),
        s["per_distance"].as_array().unwrap().len() as u64
    );
    // The start position has six pieces: a two-piece table does not cover it.
    assert!(s["start"].is_null(), "{s}");
    assert_eq!(s["file"], path.to_str().unwrap());
    assert_eq!(n("bytes"), std::fs::metadata(path).unwrap().len());
    assert_eq!(n("entry_bytes"), 1);
    if cfg!(target_os = "linux") {
        assert!(n("memory_peak_bytes") > 0, "{s}");
    }
    for k in ["start", "levels", "write", "total"] {
        assert!(s["time_ms"][k].is_u64(), "{k}: {s}");
    }
    // The longest win is a real position, and the database agrees on its value.
    let longest = &s["longest_win"];
    let sfen = longest["sfen"].as_str().expect("an SFEN");
    let v = exact(sfen);
    assert_eq!(v["exact"]["result"], "win", "{sfen}: {v}");
    assert_eq!(v["exact"]["plies"], longest["plies"], "{sfen}: {v}");
    // Only the file itself is left in its directory (no temporary file).
    let files: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(files, ["k2.kdb"], "{files:?}");
}

#[test]
fn text_summary_and_refusal_to_overwrite() {
    let dir = scratch("overwrite");
    let file = dir.join("sub").join("k1.kdb");
    let f = file.to_str().unwrap();
    let args = ["solve", "kinzoku", "--max-pieces", "1", "--out", f];
    let text = ok(&args);
    for line in [
        "kinzoku solved: positions with at most 1 piece besides the kings\n",
        "\nentries: ",
        "\npositions stored: ",
        "\n  wins:   ",
        "\n  losses: ",
        "\n  draws:  ",
        "of which stalemates: ",
        "\nempty entries: ",
        "\nlongest win: ",
        "\nlongest loss: ",
        "\nstart position (cks/1i1/3/1I1/SKC b - 1): not covered",
        "\nlevels: ",
        "\ntime: start ",
        "\nmemory: stated ",
        &format!("\nfile: {f} ("),
    ] {
        assert!(text.contains(line), "no `{line}` in:\n{text}");
    }
    let before = std::fs::read(&file).expect("the parent directory was created");
    // A second run refuses before doing anything, and names the file and --force.
    let e = failure(kshogi(&args), 1, &args, false);
    assert!(e.contains(f) && e.contains("--force"), "{e}");
    assert_eq!(std::fs::read(&file).unwrap(), before);
    // With --force it is replaced (by the same table).
    let mut forced = args.to_vec();
    forced.push("--force");
    ok(&forced);
    assert_eq!(std::fs::read(&file).unwrap(), before);
    let files: Vec<_> = std::fs::read_dir(file.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(files, ["k1.kdb"], "{files:?}");
}

#[test]
fn only_kinzoku_and_dobutsu_are_solved() {
    let home = scratch("other-variants");
    for (variant, name) in [
        ("kyoto", "kyoto"),
        ("micro", "micro"),
        ("KyotoShogi", "kyoto"),
    ] {
        let args = ["solve", variant];
        let e = failure(run_in(&home, &args, &[]), 1, &args, false);
        assert!(
            e.contains(&format!(
                "{name} has far too many positions to solve; the variants kshogi solves are \
                 kinzoku, dobutsu"
            )),
            "{e}"
        );
    }
    let args = ["solve", "chess"];
    let e = failure(run_in(&home, &args, &[]), 2, &args, false);
    assert!(e.contains("chess"), "{e}");
    // Nothing was written anywhere in the home directory.
    assert_eq!(std::fs::read_dir(&home).unwrap().count(), 0);
}

#[test]
fn the_default_path_is_found_by_analyze() {
    // One piece besides the kings: Black's silver on 2c, kings on 2e (Black) and 2a (White),
    // Black to move. White is not in check (the silver covers 1b, 2b, 3b, 1d and 3d), so
    // the position is valid, and a one-piece database covers it.
    let pos = "1k1/3/1S1/3/1K1 b - 1";
    let home = scratch("home");
    let args = ["solve", "kinzoku", "--max-pieces", "1"];
    ok_out(run_in(&home, &args, &[]), &args);
    let file = home.join(".local/share/kshogi/kinzoku.kdb");
    assert!(file.is_file(), "no {}", file.display());
    let a = ["analyze", "--json", pos];
    let v = json(&ok_out(run_in(&home, &a, &[]), &a));
    assert_eq!(v["database"], file.to_str().unwrap(), "{v}");
    assert!(v["exact"].is_object(), "{v}");
    // XDG_DATA_HOME comes before HOME, and KSHOGI_DB (a directory) before both.
    let xdg = scratch("xdg");
    let x = xdg.to_str().unwrap();
    let out = run_in(&home, &a, &[("XDG_DATA_HOME", x)]);
    let v = json(&ok_out(out, &a));
    assert!(v["exact"].is_null(), "{v}");
    let xdg_file = xdg.join("kshogi/kinzoku.kdb");
    std::fs::create_dir_all(xdg_file.parent().unwrap()).unwrap();
    std::fs::copy(&file, &xdg_file).unwrap();
    let v = json(&ok_out(run_in(&home, &a, &[("XDG_DATA_HOME", x)]), &a));
    assert_eq!(v["database"], xdg_file.to_str().unwrap(), "{v}");
    let dbs = scratch("kshogi-db-dir");
    let db2_copy = dbs.join("kinzoku.kdb");
    std::fs::copy(db2_path(), &db2_copy).unwrap();
    let d = dbs.to_str().unwrap();
    let v = json(&ok_out(
        run_in(&home, &a, &[("XDG_DATA_HOME", x), ("KSHOGI_DB", d)]),
        &a,
    ));
    assert_eq!(v["database"], db2_copy.to_str().unwrap(), "{v}");
}

#[test]
fn king_entry_in_one_ply_is_a_win_in_one() {
    // Black's king on 2b, White's on 2d, Black to move: each of 1a, 2a, 3a is a king entry
    // (White's king attacks only ranks c to e), and no move wins sooner than one ply.
    let v = exact("3/1K1/3/1k1/3 b - 1");
    assert_eq!(v["exact"]["result"], "win", "{v}");
    assert_eq!(v["exact"]["plies"], 1, "{v}");
    assert_eq!(
        sorted(&v["exact"]["moves"]),
        ["2b1a", "2b2a", "2b3a"],
        "{v}"
    );
    let line = &v["lines"][0];
    assert_eq!(line["score"]["mate"], 1, "{v}");
    assert_eq!(line["source"], "database", "{v}");
    assert_eq!(line["pv"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["nodes"], 0, "{v}");
    assert_eq!(v["mate_search"], "off", "{v}");
    // The same with White to move: White enters on rank e.
    let v = exact("3/1K1/3/1k1/3 w - 1");
    assert_eq!(v["exact"]["plies"], 1, "{v}");
    assert_eq!(
        sorted(&v["exact"]["moves"]),
        ["2d1e", "2d2e", "2d3e"],
        "{v}"
    );
}

#[test]
fn a_game_already_lost_is_a_loss_in_zero() {
    // White's king stands on 2e, its farthest rank: White has won by king entry.
    let v = exact("3/1K1/3/3/1k1 b - 1");
    assert_eq!(v["status"], "white wins by king entry", "{v}");
    assert_eq!(
        v["exact"],
        serde_json::json!({"result": "loss", "plies": 0, "moves": []})
    );
    assert_eq!(v["lines"], serde_json::json!([]));
    // Checkmate: White's king on 1a, Black's promoted soldier (a gold) on 2b guarded by
    // Black's king on 3c. 1b and 2a are covered by the gold, and taking it walks into the
    // king. White to move has lost.
    let v = exact("2k/1+I1/K2/3/3 w - 1");
    assert_eq!(v["status"], "black wins by checkmate", "{v}");
    assert_eq!(v["exact"]["result"], "loss", "{v}");
    assert_eq!(v["exact"]["plies"], 0, "{v}");
    // A Kinzoku stalemate is a draw: White's king on 1a, not in check, with 2a and 2b
    // covered by Black's king on 3b and 1b, 2b by Black's copper on 1c.
    let v = exact("2k/K2/2C/3/3 w - 1");
    assert_eq!(v["status"], "draw by stalemate", "{v}");
    assert_eq!(
        v["exact"],
        serde_json::json!({"result": "draw", "plies": null, "moves": []})
    );
}

#[test]
fn a_simple_checkmate_and_the_defence_against_it() {
    // Black: king 3c, promoted soldier (moves as a gold) 2c; White: king 1a. Black to move.
    // 2c2b mates (see above: 1a's flights 1b and 2a are covered, and 2b is guarded by the
    // king). No other move mates at once: 2c1b is taken by the king, king moves give no
    // check, and no king move reaches rank a. So the only optimal move is 2c2b, mate in 1.
    let pos = "2k/3/K+I1/3/3 b - 1";
    let v = exact(pos);
    assert_eq!(
        v["exact"],
        serde_json::json!({"result": "win", "plies": 1, "moves": ["2c2b"]})
    );
    let text = ok(&["analyze", "--db", db2_path(), "--color", "never", pos]);
    assert!(
        text.contains("\nexact: win in 1 ply\noptimal moves: 2c2b\n  kif: ２二金(23)\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "\nline 1: mate 1 (the side to move wins in 1 ply) (from the database)\n  usi: 2c2b\n"
        ),
        "{text}"
    );
    assert!(!text.contains("nodes "), "{text}");
    // After 2c1c instead, White's only move is 1a2a (1b is covered by the gold, 2b by both
    // pieces), and then 1c2b mates the same way: White loses in 2 plies.
    let v = exact(&format!("{pos} moves 2c1c"));
    assert_eq!(
        v["exact"],
        serde_json::json!({"result": "loss", "plies": 2, "moves": ["1a2a"]})
    );
    assert_eq!(v["lines"][0]["score"]["mate"], -2, "{v}");
    assert_eq!(
        v["lines"][0]["pv"],
        serde_json::json!(["1a2a", "1c2b"]),
        "{v}"
    );
    // --multipv: every move of the position, best first by its exact result.
    let v = json(&ok(&[
        "analyze",
        "--json",
        "--db",
        db2_path(),
        "--multipv",
        "32",
        pos,
    ]));
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(
        lines.len() as u64,
        v["legal_moves"].as_u64().unwrap(),
        "{v}"
    );
    assert_eq!(lines[0]["move"], "2c2b");
    assert_eq!(lines[1]["score"]["mate"], 3, "{v}");
    for l in lines {
        // Each line replays legally to the end of the game (a win or loss is played out).
        let pv: Vec<&str> = l["pv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(l["pv_kif"].as_array().unwrap().len(), pv.len(), "{l}");
        let end = ok(&["show", "--json", &format!("{pos} moves {}", pv.join(" "))]);
        if let Some(n) = l["score"]["mate"].as_i64() {
            assert_eq!(pv.len() as i64, n.abs(), "{l}");
            assert_ne!(json(&end)["status"], "ongoing", "{l}");
        }
    }
}

#[test]
fn a_drawn_position_shows_a_bounded_line() {
    // Found with the database (not by hand): a draw whose only drawing move is 1e1d. The
    // test checks the form of the answer only.
    let pos = "S2/2k/3/3/c1K b - 1";
    let v = exact(pos);
    assert_eq!(v["exact"]["result"], "draw", "{v}");
    assert!(v["exact"]["plies"].is_null(), "{v}");
    assert!(!v["exact"]["moves"].as_array().unwrap().is_empty(), "{v}");
    let line = &v["lines"][0];
    assert_eq!(line["score"]["cp"], 0, "{v}");
    let plies = line["pv"].as_array().unwrap().len();
    assert!((1..=16).contains(&plies), "{v}");
    let text = ok(&["analyze", "--db", db2_path(), "--color", "never", pos]);
    assert!(text.contains("\nexact: draw\n"), "{text}");
    assert!(
        text.contains("line 1: cp 0 (a draw with best play)"),
        "{text}"
    );
}

#[test]
fn json_ends_with_exact_and_database() {
    let text = ok(&[
        "analyze",
        "--json",
        "--db",
        db2_path(),
        "3/1K1/3/1k1/3 b - 1",
    ]);
    // The last two keys at the top level.
    let exact_at = text.rfind(",\"exact\":{").expect("exact object");
    let database_at = text.rfind(",\"database\":").expect("database field");
    assert!(exact_at < database_at, "{text}");
    assert!(
        text.ends_with(&format!(",\"database\":\"{}\"}}\n", db2_path())),
        "{text}"
    );
    let v = json(&text);
    let keys: Vec<&String> = v["exact"].as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 3, "{v}");
    // A Kyoto position has no database: both are null, and the text says nothing of it.
    let v = json(&ok(&[
        "analyze",
        "--json",
        "--depth",
        "1",
        "--db",
        db2_path(),
        "pgkst/5/5/5/TSKGP b - 1",
    ]));
    assert!(v["exact"].is_null() && v["database"].is_null(), "{v}");
    let text = ok(&["analyze", "--depth", "1", "--variant", "kyoto", "startpos"]);
    assert!(!text.contains("exact:"), "{text}");
}

#[test]
fn without_a_usable_table_the_position_is_searched() {
    // Six pieces: more than the two-piece database covers.
    let args = [
        "analyze",
        "--depth",
        "2",
        "--color",
        "never",
        "--db",
        db2_path(),
        "--variant",
        "kinzoku",
        "startpos",
    ];
    let text = ok(&args);
    assert!(
        text.contains(&format!(
            "\nexact: the database {} covers positions with at most 2 pieces besides the kings (searched instead;",
            db2_path()
        )),
        "{text}"
    );
    assert!(text.contains("\nline 1: "), "{text}");
    assert!(text.contains("\nnodes "), "{text}");
    let mut j = args.to_vec();
    j.push("--json");
    let v = json(&ok(&j));
    assert!(v["exact"].is_null() && v["database"].is_null(), "{v}");
    assert_eq!(v["lines"][0]["source"], "search", "{v}");
    // No database at all: the default path is named.
    let home = empty_home();
    let a = [
        "analyze",
        "--depth",
        "1",
        "--color",
        "never",
        "3/1K1/3/1k1/3 b - 1",
    ];
    let text = ok(&a);
    let default = home.join(".local/share/kshogi/kinzoku.kdb");
    assert!(
        text.contains(&format!(
            "\nexact: no database at {} (searched instead; build it with `kshogi solve kinzoku`)\n",
            default.display()
        )),
        "{text}"
    );
    let v = json(&ok(&[
        "analyze",
        "--json",
        "--depth",
        "1",
        "3/1K1/3/1k1/3 b - 1",
    ]));
    assert!(v["exact"].is_null() && v["database"].is_null(), "{v}");
    assert_eq!(v["lines"][0]["source"], "search", "{v}");
}

/// The length of the header (where block 0 starts), from the file.
fn header_len(bytes: &[u8]) -> usize {
    u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize
}

#[test]
fn a_damaged_database_is_an_error_never_an_answer() {
    let dir = scratch("damaged");
    let bytes = std::fs::read(db2_path()).unwrap();
    let pos = "3/1K1/3/1k1/3 b - 1";
    // Truncated by one byte.
    let cut = dir.join("cut.kdb");
    std::fs::write(&cut, &bytes[..bytes.len() - 1]).unwrap();
    let c = cut.to_str().unwrap();
    let args = ["analyze", "--db", c, pos];
    let e = failure(kshogi(&args), 1, &args, false);
    assert!(e.contains(c) && e.contains("truncated"), "{e}");
    // The same file at the default path: the message says how to rebuild it.
    let dbs = dir.join("dbs");
    std::fs::create_dir_all(&dbs).unwrap();
    std::fs::copy(&cut, dbs.join("kinzoku.kdb")).unwrap();
    let args = ["analyze", pos];
    let out = run_in(
        &empty_home(),
        &args,
        &[("KSHOGI_DB", dbs.to_str().unwrap())],
    );
    let e = failure(out, 1, &args, false);
    assert!(e.contains("kshogi solve kinzoku --force"), "{e}");
    // A damaged block (block 0 holds the positions with the kings alone): the file opens,
    // the lookup fails.
    let mut b = bytes.clone();
    let at = header_len(&b) + 6;
    b[at] ^= 0x55;
    let blk = dir.join("block.kdb");
    std::fs::write(&blk, &b).unwrap();
    let k = blk.to_str().unwrap();
    let args = ["analyze", "--db", k, pos];
    let e = failure(kshogi(&args), 1, &args, false);
    assert!(e.contains("block 0"), "{e}");
    // ... and says how to build the file again (issue 33).
    assert!(
        e.contains(&format!(
            "rebuild it with: kshogi solve kinzoku --out {k} --force"
        )),
        "{e}"
    );
    // --verify reads every block: it finds the damage too.
    let args = ["solve", "kinzoku", "--verify", "--db", k, "--sample", "10"];
    let e = failure(kshogi(&args), 1, &args, false);
    assert!(e.contains("block 0"), "{e}");
}

#[test]
fn verify_passes_on_a_good_database() {
    let args = [
        "solve",
        "kinzoku",
        "--verify",
        "--db",
        db2_path(),
        "--sample",
        "200000",
        "--seed",
        "7",
    ];
    let text = ok(&args);
    assert!(text.contains("as the header says"), "{text}");
    assert!(
        text.contains(
            "bellman check: 200,000 entries checked (random sample, seed 7), 0 mismatches"
        ),
        "{text}"
    );
    assert!(text.contains("exhaustive search: "), "{text}");
    assert!(text.ends_with("result: ok\n"), "{text}");
    // Every entry of the one-piece table, as JSON.
    let dir = scratch("verify1");
    let f = dir.join("k1.kdb");
    let f = f.to_str().unwrap();
    ok(&["solve", "kinzoku", "--max-pieces", "1", "--out", f]);
    let v = json(&ok(&[
        "solve", "kinzoku", "--verify", "--db", f, "--sample", "all", "--json",
    ]));
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["bellman"]["sample"], "all", "{v}");
    assert_eq!(v["bellman"]["checked"], v["entries"], "{v}");
    assert_eq!(v["bellman"]["mismatches"], 0, "{v}");
    assert_eq!(v["header"], v["counted"], "{v}");
    assert!(v["search"]["wins"].as_u64().unwrap() > 0, "{v}");
    // No database there: a clear error.
    let none = dir.join("none.kdb");
    let n = none.to_str().unwrap();
    let args = ["solve", "kinzoku", "--verify", "--db", n];
    let e = failure(kshogi(&args), 1, &args, false);
    assert!(e.contains("no database at") && e.contains(n), "{e}");
}

/// The Dobutsu sub-game with the lions and the two giraffes, built once: its file and its
/// `--json` summary.
fn dobutsu_r() -> &'static (PathBuf, serde_json::Value) {
    static DB: OnceLock<(PathBuf, serde_json::Value)> = OnceLock::new();
    DB.get_or_init(|| {
        let path = scratch("dobutsu-r").join("d.kdb");
        let p = path.to_str().unwrap();
        let summary = json(&ok(&[
            "solve", "dobutsu", "--pieces", "R", "--out", p, "--json",
        ]));
        (path, summary)
    })
}

/// A Dobutsu sub-game (the lions and the two giraffes): its size is hand-derived, 88 lion
/// pairs times 3 + 2 * 20 + C(10, 2) * 4 = 223 giraffe placements, and every entry of its
/// file passes the Bellman check (which uses forward move generation only).
#[test]
fn solve_dobutsu_sub_game() {
    let (path, v) = dobutsu_r();
    assert_eq!(v["variant"], "dobutsu");
    assert_eq!(v["entries"], 88 * 223);
    assert_eq!(
        v["coverage"],
        "positions with the lions and the giraffes only"
    );
    assert!(v["wins"].as_u64().unwrap() > 0 && v["losses"].as_u64().unwrap() > 0);
    assert!(v["start"].is_null(), "{v}");
    // The memory stated before the build is an upper bound of the peak.
    if let Some(peak) = v["memory_peak_bytes"].as_u64() {
        assert!(v["memory_estimate_bytes"].as_u64().unwrap() >= peak, "{v}");
    }
    assert_eq!(v["bytes"], std::fs::metadata(path).unwrap().len());
    let p = path.to_str().unwrap();
    let r = json(&ok(&[
        "solve", "dobutsu", "--verify", "--db", p, "--sample", "all", "--json",
    ]));
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["bellman"]["checked"], 88 * 223);
    assert_eq!(r["bellman"]["mismatches"], 0);
    assert_eq!(r["header"], r["counted"], "{r}");
    // A second build refuses to replace the file.
    let args = ["solve", "dobutsu", "--pieces", "R", "--out", p];
    let e = failure(kshogi(&args), 1, &args, false);
    assert!(e.contains("already exists") && e.contains("--force"), "{e}");
    // A sub-game the index does not know: a usage error.
    let args = ["solve", "dobutsu", "--pieces", "RX"];
    let e = failure(kshogi(&args), 2, &args, false);
    assert!(e.contains("`X`"), "{e}");
}

/// `kshogi analyze` answers Dobutsu positions from the database: the exact value and every
/// optimal move (positions worked out by hand: a giraffe next to the White lion takes it).
#[test]
fn analyze_answers_dobutsu_from_the_database() {
    let p = dobutsu_r().0.to_str().unwrap();
    let an = |pos: &str| {
        json(&ok(&[
            "analyze",
            "--json",
            "--db",
            p,
            "--variant",
            "dobutsu",
            pos,
        ]))
    };
    // White lion 2a, Black giraffes 1a and 2b, Black lion 2d: both giraffes take the lion.
    let v = an("1kR/1R1/3/1K1 b - 1");
    assert_eq!(v["database"], p, "{v}");
    assert_eq!(v["exact"]["result"], "win", "{v}");
    assert_eq!(v["exact"]["plies"], 1, "{v}");
    assert_eq!(sorted(&v["exact"]["moves"]), ["1a2a", "2b2a"], "{v}");
    assert_eq!(v["lines"][0]["source"], "database", "{v}");
    assert_eq!(v["lines"][0]["score"]["mate"], 1, "{v}");
    // The text output.
    let text = ok(&[
        "analyze",
        "--db",
        p,
        "--color",
        "never",
        "--variant",
        "dobutsu",
        "1kR/1R1/3/1K1 b - 1",
    ]);
    assert!(text.contains("\nexact: win in 1 ply\n"), "{text}");
    assert!(text.contains("\noptimal moves: "), "{text}");
    // At the default path.
    let home = scratch("dobutsu-home");
    let file = home.join(".local/share/kshogi/dobutsu.kdb");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::copy(p, &file).unwrap();
    let a = ["analyze", "--json", "1kR/1R1/3/1K1 b - 1"];
    let v = json(&ok_out(run_in(&home, &a, &[]), &a));
    assert_eq!(v["database"], file.to_str().unwrap(), "{v}");
    assert_eq!(v["exact"]["plies"], 1, "{v}");
    // The Kinzoku file is no Dobutsu database: an error, not a search.
    let args = ["analyze", "--db", db2_path(), "1kR/1R1/3/1K1 b - 1"];
    let e = failure(kshogi(&args), 1, &args, false);
    assert!(e.contains("database of `kinzoku`, not of `dobutsu`"), "{e}");
    // A damaged Dobutsu file at the default path: an error naming the file and the rebuild.
    let mut b = std::fs::read(p).unwrap();
    b[70] ^= 1;
    std::fs::write(&file, &b).unwrap();
    let e = failure(run_in(&home, &a, &[]), 1, &a, false);
    assert!(
        e.contains("checksum") && e.contains("kshogi solve dobutsu --force"),
        "{e}"
    );
}
