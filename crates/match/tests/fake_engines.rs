//! Matches against fake engines. This test binary is its own fake engine: started with
//! `--fake-engine MODE` it speaks USI and plays (or misbehaves) as MODE says; started by
//! `cargo test` it runs the tests, each of which starts it again as one or two engines.

use kshogi_core::Game;
use kshogi_match::{
    merge, run_match, EngineSpec, MatchConfig, MatchError, Openings, Shard, Sprt, Summary,
    TimeControl,
};
use kshogi_notation::{move_to_usi, parse_game};
use kshogi_rules_kyoto::Kyoto;
use kshogi_variants::VariantKind;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The fake engine. Modes: `good` (the first legal move), `crash N` (exits at its move N+1
/// of a game), `hang` (never answers `go`), `illegal` (`bestmove 5e5e`), `garbage`
/// (`bestmove` without a move, after noise), `endless` (an `info` line of 64 MiB without
/// end), `slow-usi` (answers `usi` after 3 s),
/// `resign`, `slow MS` (the first legal move after MS, and only under a clock: it resigns
/// when `go` has no `btime`), `nodes N` (the first legal move when sent exactly `go nodes N`,
/// otherwise it resigns), `variant-path` (resigns every game unless `VariantPath` was set
/// before `USI_Variant`, as the reference engine needs for a variant of its file).
fn fake_engine(mode: &str, arg: u32) -> ! {
    let mut out = std::io::stdout();
    let mut game: Option<Game<Kyoto>> = None;
    let mut moves_in_game = 0;
    let mut path_set = false;
    let mut variant_known = false;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let l = line.trim();
        let reply = if l == "usi" {
            if mode == "slow-usi" {
                std::thread::sleep(Duration::from_secs(3));
            }
            "id name fake\noption name VariantPath type string default <empty>\n\
             option name Threads type spin default 1 min 1 max 4\nusiok\n"
                .to_string()
        } else if l == "isready" {
            "readyok\n".into()
        } else if l.starts_with("setoption name VariantPath ") {
            path_set = true;
            String::new()
        } else if l.starts_with("setoption name USI_Variant ") {
            variant_known = path_set;
            String::new()
        } else if l == "usinewgame" {
            moves_in_game = 0;
            String::new()
        } else if l == "quit" {
            std::process::exit(0)
        } else if let Some(p) = l.strip_prefix("position ") {
            game = parse_game::<Kyoto>(p).ok();
            String::new()
        } else if l.starts_with("go") {
            moves_in_game += 1;
            match mode {
                "crash" if moves_in_game > arg => {
                    eprintln!("fake engine: crashing on purpose");
                    std::process::exit(3)
                }
                "hang" => {
                    std::thread::sleep(Duration::from_secs(60));
                    std::process::exit(0)
                }
                "illegal" => "bestmove 5e5e\n".into(),
                "slow" if !l.contains("btime") => "bestmove resign\n".into(),
                "nodes" if l != format!("go nodes {arg}") => "bestmove resign\n".into(),
                "garbage" => "hello\nbestmove\n".into(),
                "endless" => {
                    // `info` without a line end, far over the client's 64 KiB line limit.
                    let _ = out.write_all(b"info string ");
                    let chunk = vec![b'x'; 1 << 16];
                    for _ in 0..1024 {
                        if out.write_all(&chunk).is_err() {
                            break;
                        }
                    }
                    std::process::exit(0)
                }
                "resign" => "bestmove resign\n".into(),
                "variant-path" if !variant_known => "bestmove resign\n".into(),
                _ => {
                    if mode == "slow" {
                        std::thread::sleep(Duration::from_millis(u64::from(arg)));
                    }
                    let mv = game
                        .as_ref()
                        .and_then(|g| g.position().legal_moves().iter().next().copied());
                    match mv {
                        Some(mv) => format!(
                            "info depth 1 score cp 0\nbestmove {}\n",
                            move_to_usi::<Kyoto>(mv)
                        ),
                        None => "bestmove resign\n".into(),
                    }
                }
            }
        } else {
            String::new()
        };
        let _ = out.write_all(reply.as_bytes());
        let _ = out.flush();
    }
    std::process::exit(0)
}

fn engine(mode: &str) -> EngineSpec {
    let me = std::env::current_exe().expect("the test binary's path");
    let mut spec = EngineSpec::new(&format!("'{}' --fake-engine {mode}", me.display()));
    spec.name = mode.to_string();
    spec
}

fn config(a: &str, b: &str, games: u32) -> MatchConfig {
    let mut cfg = MatchConfig::new(VariantKind::Kyoto, engine(a), engine(b), games);
    cfg.time = TimeControl::MoveTime(Duration::from_millis(20));
    cfg.margin = Duration::from_millis(300);
    cfg.handshake_timeout = Duration::from_millis(500);
    cfg.max_plies = 40;
    cfg.openings = Openings::Random { plies: 2, seed: 7 };
    cfg
}

fn play(cfg: &MatchConfig) -> Result<Summary, MatchError> {
    let stop = AtomicBool::new(false);
    let mut calls = 0;
    let s = run_match(cfg, &stop, &mut |_, _| calls += 1);
    if let Ok(s) = &s {
        assert_eq!(calls, s.games, "progress after every game");
    }
    s
}

/// Engine A (`mode`) loses every game by `reason`, B (`good`) wins them.
fn a_loses_by(mode: &str, reason: &str) {
    let t = Instant::now();
    let s = play(&config(mode, "good", 2)).unwrap();
    assert_eq!((s.games, s.losses), (2, 2), "{}", s.to_text());
    for g in &s.game_list {
        assert_eq!(g.reason, reason, "{}", s.to_text());
        assert_eq!(g.fault_by, mode);
        assert!(!g.detail.is_empty(), "{mode}: {}", s.to_text());
    }
    assert!(
        t.elapsed() < Duration::from_secs(20),
        "bounded: {:?}",
        t.elapsed()
    );
}

fn tests() {
    // Two correct engines, records written, the directory never reused.
    let dir = std::env::temp_dir().join(format!("kshogi-match-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut cfg = config("good", "good", 3);
    cfg.out_dir = Some(dir.clone());
    cfg.concurrency = 2;
    let s = play(&cfg).unwrap();
    assert_eq!(s.games, 4, "3 games rounded up to 2 pairs");
    assert_eq!(s.pairs.iter().sum::<u64>(), 2);
    assert!(
        s.game_list.iter().all(|g| g.fault_by.is_empty()),
        "{}",
        s.to_text()
    );
    for n in 1..=4 {
        let kif = std::fs::read_to_string(dir.join(format!("game-{n:04}.kif"))).unwrap();
        assert!(
            kif.contains("手合割：京都将棋") && kif.contains("先手：good"),
            "{kif}"
        );
        let record = kshogi_notation::kif::parse_kif::<Kyoto>(&kif).unwrap();
        assert_eq!(record.moves().len(), s.game_list[n - 1].plies);
    }
    // Games 1 and 2 share an opening, with colours swapped.
    assert_eq!(s.game_list[0].opening, s.game_list[1].opening);
    assert_eq!(
        (s.game_list[0].a_color, s.game_list[1].a_color),
        ("black", "white")
    );
    let again = play(&cfg).unwrap_err();
    assert!(matches!(again, MatchError::Output { .. }), "{again}");
    std::fs::remove_dir_all(&dir).unwrap();
    println!("good engines: ok");

    // Misbehaving engines lose; the crashing one is restarted and crashes again in game 2
    // (not a start failure).
    a_loses_by("crash 2", "engine crash");
    a_loses_by("hang", "time forfeit");
    a_loses_by("illegal", "illegal move");
    a_loses_by("garbage", "protocol error");
    // A line over 64 KiB is garbage too: the runner does not hold it (nor wait for its end).
    let s = play(&config("endless", "good", 2)).unwrap();
    assert_eq!((s.games, s.losses), (2, 2), "{}", s.to_text());
    for g in &s.game_list {
        assert_eq!(
            (g.reason.as_str(), g.fault_by.as_str()),
            ("protocol error", "endless")
        );
        assert!(g.detail.contains("longer than 65536 bytes"), "{}", g.detail);
    }
    a_loses_by("slow-usi", "start failure");
    a_loses_by("resign", "resignation");
    // An option that defines variants reaches the engine before the variant is named.
    let mut cfg = config("variant-path", "good", 2);
    cfg.engines[0]
        .options
        .push(("VariantPath".into(), "variants.ini".into()));
    let s = play(&cfg).unwrap();
    assert!(
        s.game_list.iter().all(|g| g.reason != "resignation"),
        "{}",
        s.to_text()
    );
    a_loses_by("variant-path", "resignation");
    println!("misbehaving engines: ok");

    // A clock: 400 ms for the game, no byoyomi, a 100 ms margin. An engine taking 150 ms a
    // move has 100 ms left after two moves, overdraws within the margin on the third (the
    // clock stops at 0) and loses on the fourth; with a 200 ms byoyomi it never does.
    let mut cfg = config("slow 150", "good", 2);
    cfg.margin = Duration::from_millis(100);
    cfg.time = TimeControl::Clock {
        base: Duration::from_millis(400),
        increment: Duration::ZERO,
        byoyomi: Duration::ZERO,
    };
    let s = play(&cfg).unwrap();
    assert!(
        s.game_list
            .iter()
            .all(|g| g.reason == "time forfeit" && g.fault_by == "slow 150"),
        "{}",
        s.to_text()
    );
    cfg.time = TimeControl::Clock {
        base: Duration::from_millis(400),
        increment: Duration::ZERO,
        byoyomi: Duration::from_millis(200),
    };
    cfg.max_plies = 12;
    let s = play(&cfg).unwrap();
    assert!(
        s.game_list.iter().all(|g| g.fault_by.is_empty()),
        "{}",
        s.to_text()
    );
    // Clocks past what a Duration or an Instant holds (the increment added move after move)
    // are no overflow panic: the games are played.
    let mut cfg = config("good", "good", 2);
    cfg.time = TimeControl::Clock {
        base: Duration::from_millis(400),
        increment: Duration::MAX,
        byoyomi: Duration::ZERO,
    };
    cfg.max_plies = 6;
    let s = play(&cfg).unwrap();
    assert!(
        s.game_list.iter().all(|g| g.fault_by.is_empty()),
        "{}",
        s.to_text()
    );
    cfg.time = TimeControl::Clock {
        base: Duration::MAX,
        increment: Duration::ZERO,
        byoyomi: Duration::MAX,
    };
    cfg.margin = Duration::MAX;
    let s = play(&cfg).unwrap();
    assert!(
        s.game_list.iter().all(|g| g.fault_by.is_empty()),
        "{}",
        s.to_text()
    );
    println!("clocks: ok");

    // A fixed number of nodes per move: every `go` is `go nodes N` and nothing else (the
    // fake engine resigns otherwise), so neither resigns.
    let mut cfg = config("nodes 5000", "nodes 5000", 2);
    cfg.time = TimeControl::Nodes(5000);
    cfg.max_plies = 12;
    let s = play(&cfg).unwrap();
    assert!(
        s.game_list
            .iter()
            .all(|g| g.fault_by.is_empty() && g.reason != "resignation"),
        "{}",
        s.to_text()
    );
    cfg.time = TimeControl::Nodes(4999);
    let s = play(&cfg).unwrap();
    assert!(
        s.game_list.iter().all(|g| g.reason == "resignation"),
        "{}",
        s.to_text()
    );
    // At fixed nodes the list of openings is played once: a repeated opening would replay
    // its games; with a time per move the list is cycled through.
    let mut cfg = config("nodes 5000", "nodes 5000", 10);
    cfg.time = TimeControl::Nodes(5000);
    cfg.max_plies = 12;
    cfg.openings = Openings::List(vec![
        ("one".into(), "startpos".into()),
        ("two".into(), "startpos moves 5e4d".into()),
    ]);
    let s = play(&cfg).unwrap();
    assert_eq!(s.games, 4, "{}", s.to_text());
    let why = s.stopped_early.as_deref().unwrap_or_default();
    assert!(why.contains("openings are used up"), "{}", s.to_text());
    cfg.engines = [engine("good"), engine("good")];
    cfg.time = TimeControl::MoveTime(Duration::from_millis(20));
    cfg.games = 6;
    let s = play(&cfg).unwrap();
    assert_eq!(
        (s.games, s.stopped_early.clone()),
        (6, None),
        "{}",
        s.to_text()
    );
    println!("nodes: ok");

    // An engine that cannot start at all stops the match.
    let mut cfg = config("good", "good", 2);
    cfg.engines[1] = EngineSpec::new("/nonexistent/engine-xyz");
    assert!(matches!(play(&cfg), Err(MatchError::Engine { .. })));

    // So does an option the engine does not declare, or a value its declared type refuses:
    // sent anyway, the engine would play with its default while the match said otherwise.
    for (option, value, says) in [
        (
            "Thread",
            "2",
            "engine good: the engine declares no option `Thread` (its options: VariantPath, Threads)",
        ),
        (
            "threads",
            "5",
            "engine good: option threads takes a whole number from 1 to 4, found `5`",
        ),
    ] {
        let mut cfg = config("good", "good", 2);
        cfg.engines[1].options.push((option.into(), value.into()));
        match play(&cfg) {
            Err(e @ MatchError::Engine { .. }) => assert_eq!(e.to_string(), says),
            other => panic!("{option}={value}: {other:?}"),
        }
    }
    let mut cfg = config("good", "good", 2);
    cfg.engines[1].options.push(("THREADS".into(), "4".into()));
    assert_eq!(play(&cfg).expect("a declared option").games, 2);

    // An SPRT stops as soon as it decides: every game won.
    let mut cfg = config("good", "resign", 100);
    cfg.sprt = Some(Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    });
    let s = play(&cfg).unwrap();
    let sprt = s.sprt.as_ref().unwrap();
    assert_eq!(
        sprt.decision,
        kshogi_match::SprtDecision::H1,
        "{}",
        s.to_text()
    );
    // Not before 20 pairs (`MIN_SPRT_PAIRS`), and at once: one game at a time, none is
    // started after the one that decides, however fast the engines answer.
    assert!(s.games == 40 && s.wins == s.games, "{}", s.to_text());
    assert_eq!(s.stopped_early.as_deref(), Some("the SPRT decided"));
    // With three games at once, games finish out of order: when the 20th pair is complete,
    // up to two games of later pairs may be counted already, and up to two more are still
    // under way; they are counted too.
    cfg.concurrency = 3;
    let s = play(&cfg).unwrap();
    assert!(
        (40..=44).contains(&s.games) && s.wins == s.games,
        "{}",
        s.to_text()
    );
    assert_eq!(s.stopped_early.as_deref(), Some("the SPRT decided"));
    println!("sprt: ok");

    // Stopping (Ctrl-C) finishes the games under way, starts no other, and returns.
    let mut cfg = config("good", "resign", 100);
    cfg.concurrency = 3;
    let stop = AtomicBool::new(false);
    let s = run_match(&cfg, &stop, &mut |s, _| {
        if s.games >= 5 {
            stop.store(true, Ordering::Relaxed);
        }
    })
    .unwrap();
    assert!((5..=7).contains(&s.games), "{}", s.to_text());
    assert_eq!(s.stopped_early.as_deref(), Some("interrupted"));
    println!("stop: ok");

    // Openings from a list; a bad one is an error naming it.
    let mut cfg = config("good", "good", 2);
    cfg.openings = Openings::List(vec![("list:1".into(), "nope".into())]);
    let e = play(&cfg).unwrap_err();
    assert!(e.to_string().starts_with("opening list:1"), "{e}");
    let mut cfg = config("good", "good", 2);
    cfg.openings = Openings::List(vec![(
        "list:1".into(),
        "sfen pgkst/5/5/5/TSKGP b - 1 moves 1e1d".into(),
    )]);
    let s = play(&cfg).unwrap();
    assert_eq!(s.game_list[0].opening, "list:1");
    println!("openings: ok");

    shards();
}

/// A fresh results directory.
fn results_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kshogi-shards-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn sharded(cfg: &MatchConfig, index: u32, count: u32, dir: &std::path::Path) -> MatchConfig {
    let mut cfg = cfg.clone();
    cfg.shard = Some(Shard {
        index,
        count,
        results: dir.to_path_buf(),
    });
    cfg
}

fn shards() {
    // Three shards of a 12-game match merge into what one process playing the 12 games
    // reports (the single run is the independent computation: no results files, no merge).
    let cfg = config("good", "good", 12);
    let whole = play(&cfg).unwrap();
    let dir = results_dir("fixed");
    let mut shard_games = 0;
    for i in 0..3 {
        let s = play(&sharded(&cfg, i, 3, &dir)).unwrap();
        // Shard i plays pairs i and i + 3 (6 pairs, 3 shards): games 2i+1, 2i+2, 2i+7, 2i+8.
        let numbers: Vec<u32> = s.game_list.iter().map(|g| g.game).collect();
        assert_eq!(numbers, [2 * i + 1, 2 * i + 2, 2 * i + 7, 2 * i + 8]);
        shard_games += s.games;
    }
    assert_eq!(shard_games, 12);
    let merged = merge(std::slice::from_ref(&dir)).unwrap();
    assert_eq!(merged.summary, whole, "{}", merged.to_text());
    assert!(merged.to_text().starts_with(&whole.to_text()));
    assert_eq!((merged.shards, merged.files.len()), (3, 3));

    // A shard run again plays nothing it has already played.
    let never = AtomicBool::new(false);
    let again = run_match(&sharded(&cfg, 1, 3, &dir), &never, &mut |_, _| {
        panic!("no game is played again")
    })
    .unwrap();
    assert_eq!(again.games, 4);
    assert_eq!(merge(std::slice::from_ref(&dir)).unwrap().summary, whole);

    // Another match's shard in the same directory is refused, and its file left alone.
    let mut other = config("good", "good", 10);
    other.openings = Openings::Random { plies: 2, seed: 8 };
    let e = play(&sharded(&other, 1, 3, &dir)).unwrap_err();
    assert!(e.to_string().contains("of another match"), "{e}");

    // Merge errors name what is wrong: a missing pair, a missing shard, a foreign file.
    let shard1 = dir.join("shard-1-of-3.jsonl");
    let text = std::fs::read_to_string(&shard1).unwrap();
    let cut: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(&shard1, &cut).unwrap();
    let e = merge(std::slice::from_ref(&dir)).unwrap_err().to_string();
    assert!(e.contains("1 of 6 pairs missing: 4 (shard 1)"), "{e}");
    std::fs::remove_file(&shard1).unwrap();
    let e = merge(std::slice::from_ref(&dir)).unwrap_err().to_string();
    assert!(e.contains("no results file of shard(s) 1 of 3"), "{e}");
    assert!(e.contains("pairs missing: 1 (shard 1), 4 (shard 1)"), "{e}");
    let dir2 = results_dir("other");
    play(&sharded(&other, 1, 3, &dir2)).unwrap();
    let e = merge(&[dir.clone(), dir2.clone()]).unwrap_err().to_string();
    assert!(e.contains("results of another match"), "{e}");
    assert!(e.contains("shard-1-of-3.jsonl"), "{e}");
    // The same shard's file twice.
    std::fs::write(&shard1, &text).unwrap();
    let dir3 = results_dir("copy");
    std::fs::create_dir_all(&dir3).unwrap();
    std::fs::write(dir3.join("shard-1-of-3.jsonl"), &text).unwrap();
    let e = merge(&[dir.clone(), dir3.clone()]).unwrap_err().to_string();
    assert!(e.contains("shard 1 has 2 results files"), "{e}");
    assert!(e.contains("pairs played more than once: pair 1"), "{e}");
    println!("shards: ok");

    // An SPRT over four shards sharing a results directory, one after the other: every
    // game is won, so the combined SPRT decides on pair 20 (`MIN_SPRT_PAIRS`). Shard 0 plays
    // all its 13 pairs (0, 4, ..., 48: 13 pairs are too few to decide), shard 1 stops after
    // 7 (13 + 7 = 20), shards 2 and 3 start none.
    let mut cfg = config("good", "resign", 100);
    cfg.sprt = Some(Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    });
    let dir = results_dir("sprt");
    let played: Vec<u64> = (0..4)
        .map(|i| play(&sharded(&cfg, i, 4, &dir)).unwrap().games)
        .collect();
    assert_eq!(played, [26, 14, 0, 0]);
    let merged = merge(std::slice::from_ref(&dir)).unwrap();
    let sprt = merged.summary.sprt.as_ref().unwrap();
    assert_eq!(sprt.decision, kshogi_match::SprtDecision::H1);
    assert_eq!(merged.summary.games, 40);
    assert_eq!(
        (merged.decided_after_games, merged.games_past_decision),
        (Some(40), Some(0))
    );
    assert!(merged
        .to_text()
        .contains("0 games were played past the decision"));

    // The same four shards at once: the decision still comes on pair 20; the pairs under
    // way in the other shards then (at most one each) are finished and counted past it.
    let dir = results_dir("sprt-parallel");
    std::thread::scope(|scope| {
        for i in 0..4 {
            let cfg = sharded(&cfg, i, 4, &dir);
            scope.spawn(move || play(&cfg).unwrap());
        }
    });
    let merged = merge(std::slice::from_ref(&dir)).unwrap();
    assert_eq!(merged.decided_after_games, Some(40), "{}", merged.to_text());
    let past = merged.games_past_decision.unwrap();
    assert!(
        past <= 6 && merged.summary.games == 40 + past,
        "{}",
        merged.to_text()
    );
    assert_eq!(merged.summary.wins, merged.summary.games);
    for d in ["fixed", "other", "copy", "sprt", "sprt-parallel"] {
        let _ = std::fs::remove_dir_all(results_dir(d));
    }
    println!("sprt shards: ok");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--fake-engine") {
        let mode = args.get(i + 1).map(String::as_str).unwrap_or("good");
        let arg = args.get(i + 2).and_then(|a| a.parse().ok()).unwrap_or(0);
        fake_engine(mode, arg);
    }
    tests();
}
