//! Databases that cannot be used, and their verification.

use super::*;

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
