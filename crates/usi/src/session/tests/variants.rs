//! Databases, and sessions of one variant alone.

use super::*;

#[test]
fn kinzoku_is_played_from_the_database() {
    let dir = std::env::temp_dir().join(format!("kshogi-usi-db-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("kinzoku.kdb");
    let solved = kshogi_solver::solve(kshogi_solver::KinzokuIndex::new(1), 1, &|_| {});
    kshogi_solver::db::write(&solved, &path, 1, &|_, _| {}).unwrap();
    let mut databases = Databases::none();
    databases
        .open::<kshogi_solver::KinzokuIndex>(&path)
        .unwrap();
    let config = Config {
        variant: None,
        mode: SearchMode::Threaded,
        databases,
        dialect: None,
    };
    // Black: king 3c, promoted soldier 2c; White: king 1a. 2c2b mates, no other move
    // wins at once (hand-checked: 1b and 2a are covered, 2b is guarded by the king).
    let out = session_config(
        "setoption name USI_Variant value kinzoku\nposition sfen 2k/3/K+I1/3/3 b - 1\n\
         go depth 3\n\
         position sfen 1k1/3/1S1/3/CK1 b - 1\ngo depth 1\n",
        &config,
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let p = protocol(&out);
    assert_eq!(p[0], "bestmove 2c2b", "{out:?}");
    // One report, from the database: no nodes, the mate to the end.
    let first = &out[..out.iter().position(|l| l == "bestmove 2c2b").unwrap()];
    assert_eq!(first.len(), 1, "{first:?}");
    assert!(first[0].contains(" score mate 1 nodes 0 "), "{}", first[0]);
    assert!(first[0].ends_with(" pv 2c2b"), "{}", first[0]);
    // Two pieces besides the kings: not covered, searched.
    let rest = &out[first.len() + 1..];
    assert!(
        rest.iter()
            .any(|l| l.starts_with("info depth 1 ") && !l.contains(" nodes 0 ")),
        "{rest:?}"
    );
    // Another variant is not looked up.
    let out = session_config("position startpos\ngo depth 1\n", &config);
    assert!(protocol(&out)[0].starts_with("bestmove "));
}

#[test]
fn dobutsu_is_played_from_its_database() {
    let dir = std::env::temp_dir().join(format!("kshogi-usi-dobutsu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("dobutsu.kdb");
    // The lions and the two giraffes: a sub-game closed under moves.
    let ix = kshogi_solver::DobutsuIndex::with_kinds([true, false, false]);
    let solved = kshogi_solver::solve(ix, 1, &|_| {});
    kshogi_solver::db::write(&solved, &path, 1, &|_, _| {}).unwrap();
    let mut databases = Databases::none();
    databases
        .open::<kshogi_solver::DobutsuIndex>(&path)
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let config = Config {
        variant: None,
        mode: SearchMode::Threaded,
        databases,
        dialect: None,
    };
    // White lion 2a, Black giraffes 1a and 2b: either giraffe takes the lion
    // (hand-checked); the database answers with no search.
    let out = session_config(
        "setoption name USI_Variant value dobutsu\nposition sfen 1kR/1R1/3/1K1 b - 1\n\
         go depth 3\n",
        &config,
    );
    let p = protocol(&out);
    assert!(
        p[0] == "bestmove 1a2a" || p[0] == "bestmove 2b2a",
        "{out:?}"
    );
    let info: Vec<_> = out.iter().filter(|l| l.starts_with("info ")).collect();
    assert_eq!(info.len(), 1, "{info:?}");
    assert!(info[0].contains(" score mate 1 nodes 0 "), "{}", info[0]);
}

#[test]
fn a_single_variant_session_offers_and_takes_only_its_variant() {
    // Micro's name is `micro` and its aliases (`docs/notation.md`) are `microshogi` and
    // `micro-shogi`; the combo leaves out names with a hyphen, as for the registry.
    let out = single_session::<Micro>(
        "usi\nsetoption name USI_Variant value kyoto\nsetoption name USI_Variant value \
         MICROSHOGI\nisready\n",
    );
    let variant_line = out
        .iter()
        .find(|l| l.starts_with("option name USI_Variant "))
        .expect("a USI_Variant option");
    assert_eq!(
        variant_line,
        "option name USI_Variant type combo default micro var micro var microshogi"
    );
    let errors: Vec<&String> = out.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(
        errors,
        [
            "info string error: option USI_Variant takes only micro (or one of its aliases): \
          this engine plays Micro Shogi alone, found `kyoto`"
        ]
    );
    assert_eq!(out.last().map(String::as_str), Some("readyok"));
}

#[test]
fn a_single_variant_session_answers_go_with_a_legal_move() {
    let out = single_session::<Kinzoku>("position startpos\ngo depth 2\n");
    let last = out.last().expect("an answer");
    let mv = last.strip_prefix("bestmove ").expect("bestmove");
    let start = Position::<Kinzoku>::start();
    assert!(
        kshogi_notation::parse_usi(&start, mv).is_ok(),
        "{mv} is not a legal move of the start"
    );
}
