//! `pocket match`: the program's own engine (`pocket usi`) against itself, refereed by
//! Pocket Shogi's rules, as `kshogi match` referees a registered variant. What is checked
//! does not come from the runner: the number of games asked for, results that add up, and
//! every record read back and its last position checked with the brute-force mover of
//! tests/common (which shares no code with kshogi).

// The perft of the brute-force mover is tests/perft.rs's.
#[allow(dead_code)]
mod common;

use kshogi_notation::kif::parse_kif;
use kshogi_notation::to_sfen;
use pocket_shogi::Pocket;
use std::process::Command;

fn pocket() -> &'static str {
    env!("CARGO_BIN_EXE_pocket")
}

#[test]
fn the_engine_plays_itself() {
    let dir = std::env::temp_dir().join(format!("pocket-match-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let engine = format!("'{}' usi", pocket());
    let dir_text = dir.display().to_string();
    let out = Command::new(pocket())
        .args([
            "match",
            "--games",
            "2",
            "--nodes",
            "200",
            "--max-plies",
            "80",
            "--engine-a",
            &engine,
            "--engine-b",
            &engine,
            "--out",
            &dir_text,
            "--json",
        ])
        .output()
        .expect("pocket runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["variant"], "pocket", "{v}");
    assert_eq!(v["games"], 2, "{v}");
    let wdl = ["wins", "draws", "losses"].map(|k| v[k].as_u64().expect("a count"));
    assert_eq!(wdl.iter().sum::<u64>(), 2, "{v}");
    let games = v["game_list"].as_array().expect("the games");
    assert_eq!(games.len(), 2, "{v}");
    for (n, g) in games.iter().enumerate() {
        // Neither engine failed: every game ended by the rules or the ply limit.
        assert_eq!(g["fault_by"], "", "{g}");
        let result = g["result"].as_str().expect("a result");
        let reason = g["reason"].as_str().expect("a reason");
        let plies = g["plies"].as_u64().expect("plies") as usize;
        let kif = std::fs::read_to_string(dir.join(format!("game-{:04}.kif", n + 1)))
            .expect("the record");
        let record = parse_kif::<Pocket>(&kif).expect("the record reads back");
        assert_eq!(record.moves().len(), plies, "{kif}");
        let last = common::Pos::parse(&to_sfen(record.position()));
        match reason {
            // Pocket Shogi (src/lib.rs): a side without a legal move loses, which the
            // brute-force mover must agree with; the game had a winner.
            "checkmate" | "stalemate (win)" => {
                assert!(!last.has_moves(), "{kif}");
                assert!(result == "win" || result == "loss", "{g}");
            }
            // The third occurrence of a position is a draw.
            "repetition" => {
                assert!(last.has_moves(), "{kif}");
                assert_eq!(result, "draw", "{g}");
            }
            "ply limit (adjudicated draw)" => {
                assert!(last.has_moves(), "{kif}");
                assert_eq!(plies, 80, "{g}");
                assert_eq!(result, "draw", "{g}");
            }
            other => panic!("game {}: no Pocket Shogi game ends by {other}", n + 1),
        }
    }
    std::fs::remove_dir_all(&dir).expect("the records are removed");
}
