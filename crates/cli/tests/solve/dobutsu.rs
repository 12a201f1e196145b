//! A Dobutsu sub-game database.

use super::*;

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
