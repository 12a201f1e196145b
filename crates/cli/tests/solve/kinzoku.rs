//! Kinzoku databases: the summary, the default path, values worked out by hand.

use super::*;

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
    // Every registered variant the solver does not index, by its name, and Kyoto by an
    // alias too.
    use kshogi_registry::VariantKind;
    let solvable: Vec<&str> = VariantKind::SOLVABLE.iter().map(|k| k.name()).collect();
    assert!(solvable.contains(&"kinzoku") && solvable.contains(&"dobutsu"));
    let others = VariantKind::ALL
        .iter()
        .filter(|k| !VariantKind::SOLVABLE.contains(k))
        .map(|k| (k.name(), k.name()));
    for (variant, name) in others.chain([("KyotoShogi", "kyoto")]) {
        let args = ["solve", variant];
        let e = failure(run_in(&home, &args, &[]), 1, &args, false);
        assert!(
            e.contains(&format!(
                "{name} has far too many positions to solve; the variants kshogi solves are {}",
                solvable.join(", ")
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
