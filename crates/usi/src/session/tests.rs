use super::search::{job_for, Job};
use super::*;
use kshogi_analysis::Databases;
use kshogi_notation::parse_game;
use kshogi_usi_protocol::{Go, GuiMessage};
use std::time::Duration;

/// The arguments of the `go` line `line`.
fn go_params(line: &str) -> Go {
    match line.parse::<GuiMessage>() {
        Ok(GuiMessage::Go(go)) => go,
        other => panic!("{line}: {other:?}"),
    }
}
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;

/// Runs a session on `script` and returns its output lines.
fn session(script: &str, variant: VariantKind) -> Vec<String> {
    session_with(script, variant, SearchMode::Threaded)
}

/// Runs a session on `script` with searches run as `mode` says.
fn session_with(script: &str, variant: VariantKind, mode: SearchMode) -> Vec<String> {
    let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
    let out: Out = buf.clone();
    serve_with(script.as_bytes(), &out, variant, mode);
    let bytes = buf.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The lines that are not search reports (`info` lines other than `info string`).
fn protocol(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .map(String::as_str)
        .filter(|l| !l.starts_with("info ") || l.starts_with("info string"))
        .collect()
}

#[test]
fn handshake() {
    let out = session("usi\nisready\nquit\n", VariantKind::Micro);
    let variant_line = &out[2];
    assert!(
        variant_line.starts_with("option name USI_Variant type combo default micro var kyoto"),
        "{variant_line}"
    );
    // The reference engine's names are offered too.
    for name in ["kyotoshogi", "micro", "minishogi", "dobutsu", "kinzoku"] {
        assert!(variant_line.contains(&format!(" var {name}")), "{name}");
    }
    assert_eq!(
        out,
        [
            format!("id name kshogi {}", env!("CARGO_PKG_VERSION")).as_str(),
            "id author The kshogi developers",
            variant_line.as_str(),
            "option name USI_Hash type spin default 16 min 1 max 4096",
            "option name USI_MultiPV type spin default 1 min 1 max 32",
            "option name Threads type spin default 1 min 1 max 512",
            "option name Move_Overhead type spin default 10 min 0 max 5000",
            "option name USI_Ponder type check default false",
            "option name Dialect type combo default canonical var canonical var fsf",
            "option name Clear_Hash type button",
            // The reference engine's names, types, ranges and defaults for these (its
            // answer to `usi`, Fairy-Stockfish c19b5f6).
            "option name USI_AnalyseMode type check default false",
            "option name Skill_Level type spin default 20 min -20 max 20",
            "option name USI_LimitStrength type check default false",
            "option name USI_Elo type spin default 1350 min 500 max 2850",
            "option name USI_ShowWDL type check default false",
            "option name USI_Chess960 type check default false",
            "option name VariantPath type string default <empty>",
            "usiok",
            "readyok",
        ]
    );
    // UCI: the same options under UCI's names, and the reference engine's letters.
    let out = session("uci\n", VariantKind::Kyoto);
    assert!(out[2].starts_with("option name UCI_Variant type combo default kyoto"));
    assert_eq!(
        &out[3..],
        [
            "option name Hash type spin default 16 min 1 max 4096",
            "option name MultiPV type spin default 1 min 1 max 32",
            "option name Threads type spin default 1 min 1 max 512",
            "option name Move Overhead type spin default 10 min 0 max 5000",
            "option name Ponder type check default false",
            "option name Dialect type combo default fsf var canonical var fsf",
            "option name Clear Hash type button",
            // As the reference engine names them after `uci`.
            "option name UCI_AnalyseMode type check default false",
            "option name Skill Level type spin default 20 min -20 max 20",
            "option name UCI_LimitStrength type check default false",
            "option name UCI_Elo type spin default 1350 min 500 max 2850",
            "option name UCI_ShowWDL type check default false",
            "option name UCI_Chess960 type check default false",
            "option name VariantPath type string default <empty>",
            "uciok",
        ]
    );
}

#[test]
fn game_over_answers() {
    // Kyoto checkmate (hand-checked in show_cmd): White to move, mated.
    let out = session(
        "position sfen k4/5/1S3/5/4K b G 9 moves G*5b\ngo depth 1\n",
        VariantKind::Kyoto,
    );
    assert_eq!(protocol(&out), ["bestmove resign"]);
    // Kinzoku: Black's King already stands on rank a with Black to move: Black has
    // won by king entry, so Black declares the win.
    let out = session(
        "setoption name USI_Variant value kinzokushogi\nposition sfen K1k/3/3/3/3 b - 1\ngo\n",
        VariantKind::Kyoto,
    );
    assert_eq!(protocol(&out), ["bestmove win"]);
    let out = session(
        "position sfen k4/5/1S3/5/4K b G 9 moves G*5b\ngo mate 100\n",
        VariantKind::Kyoto,
    );
    assert_eq!(protocol(&out), ["checkmate nomate"]);
}

#[test]
fn a_finished_game_gets_a_score_before_its_answer() {
    // What the reference engine prints for the same input (Fairy-Stockfish c19b5f6): a
    // Kyoto position after a mating drop gets `info depth 0 score mate 0` and
    // `bestmove resign` in USI mode, `bestmove (none)` in UCI mode; so does a Dobutsu
    // position whose side to move has lost its lion.
    let mated = "position sfen k4/5/1S3/5/4K b G 9 moves G*5b\n";
    let out = session(&format!("{mated}go depth 3\n"), VariantKind::Kyoto);
    assert_eq!(out, ["info depth 0 score mate 0", "bestmove resign"]);
    // UCI: the same position as a FEN with the drop in chess coordinates (file 5 is
    // the leftmost, `a`; rank b is the fourth from the bottom).
    let out = session(
        "uci\nposition fen k4/5/1S3/5/4K[G] w - - 0 1 moves G@a4\ngo movetime 100\n",
        VariantKind::Kyoto,
    );
    let tail: Vec<&str> = out.iter().map(String::as_str).rev().take(2).collect();
    assert_eq!(tail, ["bestmove (none)", "info depth 0 score mate 0"]);
    // The same answers in the bounded mode.
    let out = session_with(
        &format!("{mated}go\n"),
        VariantKind::Kyoto,
        SearchMode::Bounded(Budget::TINY),
    );
    assert_eq!(out, ["info depth 0 score mate 0", "bestmove resign"]);
    // Kinzoku: Black has already won by king entry and says so, after the score.
    let out = session(
        "setoption name USI_Variant value kinzokushogi\nposition sfen K1k/3/3/3/3 b - 1\ngo\n",
        VariantKind::Kyoto,
    );
    assert_eq!(out, ["info depth 0 score mate 0", "bestmove win"]);
}

#[test]
fn the_clients_options_are_understood() {
    // Every option lishogi's and pychess's clients send, under the names they use
    // (see tests/clients.rs for their whole sequences): no error line.
    let script = "setoption name USI_AnalyseMode value true\n\
                  setoption name Skill_Level value 20\n\
                  setoption name UCI_AnalyseMode value false\n\
                  setoption name Skill Level value -4\n\
                  setoption name UCI_LimitStrength value true\n\
                  setoption name UCI_Elo value 1500\n\
                  setoption name UCI_ShowWDL value true\n\
                  setoption name UCI_Chess960 value false\n\
                  setoption name variantpath value variants.ini\n\
                  setoption name threads value 1\n\
                  setoption name hash value 16\n";
    let out = session(script, VariantKind::Kyoto);
    assert!(out.is_empty(), "{out:?}");
    // Out of range, and a Chess960 that no variant has: errors that name the value.
    let out = session(
        "setoption name Skill_Level value 21\nsetoption name UCI_Elo value 100\n\
         setoption name UCI_Chess960 value true\n",
        VariantKind::Kyoto,
    );
    assert_eq!(out.len(), 3, "{out:?}");
    assert!(out[0].contains("from -20 to 20, found `21`"), "{out:?}");
    assert!(out[1].contains("from 500 to 2850, found `100`"), "{out:?}");
    assert!(out[2].contains("castling"), "{out:?}");
}

#[test]
fn show_wdl_adds_the_models_chances_to_each_info_line() {
    let budget = SearchMode::Bounded(Budget::TINY);
    let out = session_with(
        "setoption name UCI_ShowWDL value true\nposition startpos\ngo depth 2\n",
        VariantKind::Kyoto,
        budget,
    );
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(!infos.is_empty(), "{out:?}");
    let model = <Kyoto as Registered>::WDL;
    for l in infos {
        let w: Vec<&str> = l.split(' ').collect();
        // `score cp N wdl W D L`, the three from the variant's model for that score,
        // summing to 1000.
        let at = w.iter().position(|&x| x == "score").unwrap();
        assert_eq!(w[at + 3], "wdl", "{l}");
        let cp: i32 = w[at + 2].parse().unwrap();
        let n: Vec<u32> = w[at + 4..at + 7]
            .iter()
            .map(|x| x.parse().unwrap())
            .collect();
        let want = model.wdl(kshogi_engine::Score::Cp(cp));
        assert_eq!(n, [want.win, want.draw, want.loss], "{l}");
        assert_eq!(n.iter().sum::<u32>(), 1000, "{l}");
    }
    // Off by default.
    let out = session_with(
        "position startpos\ngo depth 2\n",
        VariantKind::Kyoto,
        budget,
    );
    assert!(out.iter().all(|l| !l.contains(" wdl ")), "{out:?}");
}

#[test]
fn uci_go_parameters_the_engine_does_not_take_are_errors() {
    // The protocol reads them; the engine refuses them as before, naming the parameter,
    // and does not search.
    let out = session(
        "position startpos
go searchmoves 1e1d+ depth 1
go movestogo 5 depth 1
",
        VariantKind::Kyoto,
    );
    assert_eq!(
        out,
        [
            "info string error: `go`: unknown parameter `searchmoves`",
            "info string error: `go`: unknown parameter `movestogo`",
        ]
    );
}

#[test]
fn the_move_to_ponder_on_follows_the_move_played_at_every_level() {
    // Weakened play may choose another line than line 1; the move to ponder on must then
    // be the reply of the chosen line, legal after the move played (checked by the
    // notation, independently of the engine).
    let budget = SearchMode::Bounded(Budget {
        nodes: 2_000,
        depth: 3,
        hash_mb: 1,
    });
    let mut named = 0;
    for level in [-20, -5, 0, 5, 20] {
        for moves in ["", " moves 1e1d+", " moves 1e1d+ 5a5b+", " moves 2e2d"] {
            let out = session_with(
                &format!(
                    "setoption name USI_Ponder value true
setoption name Skill_Level value                      {level}
position startpos{moves}
go depth 3
"
                ),
                VariantKind::Kyoto,
                budget,
            );
            let answer = out.last().unwrap().strip_prefix("bestmove ").unwrap();
            let Some((mv, reply)) = answer.split_once(" ponder ") else {
                continue;
            };
            named += 1;
            let played = if moves.is_empty() { " moves" } else { moves };
            let text = format!("startpos{played} {mv} {reply}");
            assert!(parse_game::<Kyoto>(&text).is_ok(), "level {level}: {text}");
        }
    }
    assert!(named > 0, "no answer named a move to ponder on");
}

#[test]
fn skill_levels_are_deterministic_and_weaker_levels_search_less() {
    // The bounded mode: the same input gives the same answer, so a level's choice is
    // the same each time; a weakened level searches within its node budget (level 3:
    // 432 nodes for each of its 7 candidate lines, 3,024, see `Skill::search_nodes`),
    // full strength to the depth asked for (depth 6 takes about 10,000 nodes here).
    let budget = SearchMode::Bounded(Budget {
        nodes: 20_000,
        depth: 6,
        hash_mb: 1,
    });
    let go = "position startpos moves 1e1d+\ngo depth 6\n";
    let nodes = |out: &[String]| -> Vec<u64> {
        out.iter()
            .filter_map(|l| l.split(" nodes ").nth(1))
            .map(|l| l.split(' ').next().unwrap().parse().unwrap())
            .collect()
    };
    let weak = format!("setoption name Skill_Level value 3\n{go}");
    let a = session_with(&weak, VariantKind::Kyoto, budget);
    let b = session_with(&weak, VariantKind::Kyoto, budget);
    assert_eq!(a.last(), b.last());
    let weak_nodes = nodes(&a);
    assert!(
        !weak_nodes.is_empty() && weak_nodes.iter().all(|&n| n <= 3_024),
        "{a:?}"
    );
    let full = session_with(go, VariantKind::Kyoto, budget);
    assert!(
        full.iter().any(|l| l.starts_with("info depth 6 ")),
        "{full:?}"
    );
    assert!(nodes(&full).iter().any(|&n| n > 3_024), "{full:?}");
    // UCI_LimitStrength plays at the level whose rating is nearest: the same answer as
    // that Skill_Level.
    let elo = format!(
        "setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 500\n{go}"
    );
    let level = Skill::level_for_elo(500);
    assert!(level < Skill::FULL);
    let at_level = format!("setoption name Skill_Level value {level}\n{go}");
    let c = session_with(&elo, VariantKind::Kyoto, budget);
    let d = session_with(&at_level, VariantKind::Kyoto, budget);
    assert_eq!(c.last(), d.last());
    assert!(nodes(&c).iter().all(|&n| n <= 20_000), "{c:?}");
    // The answer is a legal move.
    let mv = a.last().unwrap().strip_prefix("bestmove ").unwrap();
    let after = kshogi_notation::parse_game::<Kyoto>(&format!("startpos moves 1e1d+ {mv}"));
    assert!(after.is_ok(), "{mv}");
}

#[test]
fn go_perft_runs_beside_the_loop_and_stops() {
    // Kyoto's perft 12 runs for hours: `isready` is answered while it counts, and
    // `stop`, `quit` or the end of input end it at once.
    for end in ["stop\n", "quit\n", ""] {
        let started = std::time::Instant::now();
        let out = session(&format!("go perft 12\nisready\n{end}"), VariantKind::Kyoto);
        assert!(started.elapsed() < Duration::from_secs(10), "{end:?}");
        assert_eq!(out[0], "readyok", "{out:?}");
        assert_eq!(
            out[1..],
            ["info string error: go perft 12 stopped before the count was complete"]
        );
    }
}

#[test]
fn errors_keep_the_state() {
    let out = session(
        "hello\n\
         position startpos moves 1e1d+\n\
         go depth banana\n\
         setoption name USI_Hash value 0\n\
         setoption name Nope value 1\n\
         setoption name USI_Variant value chess\n\
         setoption name Dialect value lishogi\n\
         setoption name Threads value 0\n\
         setoption name USI_Ponder value maybe\n\
         go perft 0\n\
         isready extra\n\
         go depth 1\n",
        VariantKind::Kyoto,
    );
    let p = protocol(&out);
    assert_eq!(p.len(), 11, "{p:#?}");
    assert!(p[0].starts_with("info string error: unknown command `hello`"));
    for line in &p[..10] {
        assert!(line.starts_with("info string error: "), "{line}");
    }
    // The position is still the one after 1e1d+: White to move.
    let mv = p[10].strip_prefix("bestmove ").unwrap();
    let g = parse_game::<Kyoto>(&format!("startpos moves 1e1d+ {mv}"));
    assert!(g.is_ok(), "{mv} is not a White move after 1e1d+");
}

#[test]
fn a_rejected_position_leaves_no_position() {
    // The case: a Micro move given to the Kyoto engine, then `go`.
    for bad in [
        "position startpos moves 1e2d",
        "position startpos moves 1e1d+ 9z9z",
        "position sfen 9/9 b - 1",
        "position",
        "position banana",
    ] {
        let script = format!("position startpos moves 1e1d+\n{bad}\ngo depth 1\ngo mate 10\n");
        let out = session(&script, VariantKind::Kyoto);
        let p = protocol(&out);
        assert_eq!(p.len(), 5, "{bad}: {p:#?}");
        assert!(p[0].starts_with("info string error: "), "{}", p[0]);
        assert!(
            p[0].contains("no position until the next valid one"),
            "{}",
            p[0]
        );
        assert!(
            p[1].starts_with("info string error: no position"),
            "{}",
            p[1]
        );
        assert_eq!(p[2], "bestmove resign");
        assert_eq!(p[4], "checkmate nomate");
    }
    // Column 31 of the line is where `9z9z` starts.
    let out = session("position startpos moves 1e1d+ 9z9z\n", VariantKind::Kyoto);
    assert!(out[0].contains("column 31"), "{}", out[0]);
    // The next valid position is used again.
    let out = session(
        "position startpos moves 1e2d\nposition startpos\ngo depth 1\n",
        VariantKind::Kyoto,
    );
    let p = protocol(&out);
    let mv = p[1].strip_prefix("bestmove ").unwrap();
    assert!(
        parse_game::<Kyoto>(&format!("startpos moves {mv}")).is_ok(),
        "{mv}"
    );
}

#[test]
fn infinite_waits_for_stop_and_each_go_gets_one_answer() {
    let out = session(
        "position startpos\ngo infinite\nisready\nstop\ngo depth 1\ngo depth 1\nquit\n",
        VariantKind::Micro,
    );
    let p = protocol(&out);
    assert_eq!(p.len(), 4, "{p:#?}");
    assert_eq!(p[0], "readyok");
    for line in &p[1..] {
        assert!(line.starts_with("bestmove "), "{line}");
        let mv = line.strip_prefix("bestmove ").unwrap();
        assert!(
            parse_game::<Micro>(&format!("startpos moves {mv}")).is_ok(),
            "{mv}"
        );
    }
}

#[test]
fn error_lines_are_one_short_line() {
    let long = format!("position sfen {}\u{1b}[2J b - 1\n", "p".repeat(5000));
    let out = session(&long, VariantKind::Kyoto);
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].starts_with("info string error: "), "{}", out[0]);
    assert!(!out[0].contains('\u{1b}'), "{}", out[0]);
    assert!(out[0].chars().count() < 400, "{}", out[0]);
}

#[test]
fn variant_switch_resets_the_position() {
    let out = session(
        "position startpos moves 1e1d+\n\
         setoption name USI_Variant value kinzoku\n\
         go depth 1\n",
        VariantKind::Kyoto,
    );
    let p = protocol(&out);
    let mv = p[0].strip_prefix("bestmove ").unwrap();
    assert!(
        parse_game::<Kinzoku>(&format!("startpos moves {mv}")).is_ok(),
        "{mv}"
    );
}

const BOUNDED: SearchMode = SearchMode::Bounded(Budget::TINY);

#[test]
fn bounded_go_answers_before_the_next_line() {
    // `go` with no limit, a deep depth and a long clock: the budget ends each search.
    let out = session_with(
        "position startpos\n\
         go\n\
         isready\n\
         go depth 100 btime 600000 wtime 600000 byoyomi 60000\n\
         isready\n\
         go nodes 1\n",
        VariantKind::Micro,
        BOUNDED,
    );
    let p = protocol(&out);
    assert_eq!(p.len(), 5, "{p:#?}");
    assert_eq!((p[1], p[3]), ("readyok", "readyok"));
    for line in [p[0], p[2], p[4]] {
        let mv = line.strip_prefix("bestmove ").unwrap();
        assert!(
            parse_game::<Micro>(&format!("startpos moves {mv}")).is_ok(),
            "{mv}"
        );
    }
    // No iteration deeper than the budget's.
    for line in out.iter().filter(|l| l.starts_with("info depth ")) {
        let depth: u32 = line.split(' ').nth(2).unwrap().parse().unwrap();
        assert!(depth <= Budget::TINY.depth, "{line}");
    }
}

#[test]
fn bounded_infinite_answers_when_the_search_ends() {
    let out = session_with(
        "go infinite\nisready\nposition startpos moves 1e1d+\nstop\nstop\n\
         go infinite\ngo mate infinite\ngo infinite\nquit\n",
        VariantKind::Kyoto,
        BOUNDED,
    );
    let p = protocol(&out);
    assert_eq!(p.len(), 5, "{p:#?}");
    assert_eq!(p[0], "readyok");
    // Each answer is for the position its `go` was given in.
    for (i, moves) in [(1, ""), (2, "1e1d+ "), (4, "1e1d+ ")] {
        let mv = p[i].strip_prefix("bestmove ").unwrap();
        assert!(
            parse_game::<Kyoto>(&format!("startpos moves {moves}{mv}")).is_ok(),
            "{mv}"
        );
    }
    assert!(p[3].starts_with("checkmate "), "{}", p[3]);
    // End of input ends a held search too, and a game that is over still answers.
    let out = session_with(
        "position sfen k4/5/1S3/5/4K b G 9 moves G*5b\ngo infinite\n",
        VariantKind::Kyoto,
        BOUNDED,
    );
    assert_eq!(protocol(&out), ["bestmove resign"]);
}

#[test]
fn bounded_mode_caps_the_hash_and_keeps_the_options() {
    let out = session_with(
        "usi\nsetoption name USI_Hash value 4096\nsetoption name MultiPV value 3\n\
         go depth 1\n",
        VariantKind::Kinzoku,
        BOUNDED,
    );
    let p = protocol(&out);
    assert!(p.contains(&"option name USI_Hash type spin default 16 min 1 max 4096"));
    assert!(p.last().unwrap().starts_with("bestmove "), "{p:#?}");
    let multipv: Vec<&String> = out.iter().filter(|l| l.contains(" multipv ")).collect();
    assert_eq!(multipv.len(), 3, "{multipv:#?}");
    let settings = Settings {
        hash_mb: 4096,
        ..Settings::new(
            BOUNDED,
            *VariantKind::Kyoto.info(),
            Roster::Registered,
            Databases::none(),
        )
    };
    assert_eq!(settings.table_mb(), 0);
    let threaded = Settings {
        mode: SearchMode::Threaded,
        ..settings
    };
    assert_eq!(threaded.table_mb(), 4096);
}

/// A bounded mode that still completes small searches: deterministic answers.
const FULL: SearchMode = SearchMode::Bounded(Budget {
    nodes: 10_000_000,
    depth: 3,
    hash_mb: 1,
});

/// A bounded session with [`FULL`].
fn full(script: &str, variant: VariantKind) -> Vec<String> {
    session_with(script, variant, FULL)
}

/// Runs a session with `config` and returns its output lines.
fn session_config(script: &str, config: &Config) -> Vec<String> {
    let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
    let out: Out = buf.clone();
    serve_config(script.as_bytes(), &out, config);
    let bytes = buf.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The `info ... pv ...` search reports of `lines` for line `k`, as (depth, pv).
fn reports(lines: &[String], k: usize) -> Vec<Vec<String>> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth ") && l.contains(&format!(" multipv {k} ")))
        .map(|l| {
            let pv = l.split(" pv ").nth(1).unwrap_or("");
            pv.split(' ').map(str::to_string).collect()
        })
        .collect()
}

/// What Fairy-Stockfish answers to `go perft 2` in the Kyoto start position (measured:
/// `setoption name USI_Variant value kyotoshogi`, `position startpos`, `go perft 2`),
/// in its dialect: the moves that turn a piece back to its base face end in `-`.
const FSF_KYOTO_PERFT_2: [(&str, u64); 12] = [
    ("4e5d+", 11),
    ("4e4d+", 11),
    ("4e3d+", 12),
    ("1e1d+", 12),
    ("5e5d-", 12),
    ("5e4d-", 11),
    ("2e3d-", 10),
    ("2e2d-", 11),
    ("2e1d-", 11),
    ("3e4d", 12),
    ("3e3d", 12),
    ("3e2d", 12),
];

#[test]
fn go_perft_prints_what_the_reference_engine_prints() {
    let mut want: Vec<String> = FSF_KYOTO_PERFT_2
        .iter()
        .map(|(m, n)| format!("{m}: {n}"))
        .collect();
    want.sort();
    want.extend(["".into(), "Nodes searched: 137".into(), "".into()]);
    let out = session(
        "setoption name USI_Variant value kyotoshogi\nsetoption name Dialect value fsf\n\
         position startpos\ngo perft 2\n",
        VariantKind::Micro,
    );
    assert_eq!(out, want);
    // Canonical: every flip is written `+`.
    let out = session("position startpos\ngo perft 2\n", VariantKind::Kyoto);
    let canonical: Vec<String> = want.iter().map(|l| l.replace("-:", "+:")).collect();
    let mut sorted = canonical[..12].to_vec();
    sorted.sort();
    assert_eq!(out[..12], sorted[..]);
    assert_eq!(out[13], "Nodes searched: 137");
    // Depth 1 and a bounded session (depth capped by the budget: 2).
    let out = session("go perft 1\n", VariantKind::Kyoto);
    assert_eq!(out.len(), 15);
    assert!(out[..12].iter().all(|l| l.ends_with(": 1")), "{out:?}");
    assert_eq!(out[13], "Nodes searched: 12");
    let out = session_with("go perft 5\n", VariantKind::Kyoto, BOUNDED);
    assert_eq!(out[13], "Nodes searched: 137");
}

#[test]
fn multipv_under_both_names() {
    for name in ["USI_MultiPV", "MultiPV", "usi_multipv"] {
        let out = full(
            &format!("setoption name {name} value 3\nposition startpos\ngo depth 3\n"),
            VariantKind::Kyoto,
        );
        // The last iteration reports lines 1, 2 and 3, with different first moves.
        let firsts: Vec<String> = (1..=3)
            .map(|k| reports(&out, k).last().unwrap()[0].clone())
            .collect();
        assert!(
            firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
            "{firsts:?}"
        );
        // `bestmove` is the first move of the last line-1 report.
        let best = out.last().unwrap().strip_prefix("bestmove ").unwrap();
        assert_eq!(best, firsts[0]);
    }
}

#[test]
fn the_reference_engines_variant_names() {
    // The case: lishogi sends UCI_Variant kyotoshogi, then a Kyoto move.
    for (option, name, moves) in [
        ("UCI_Variant", "kyotoshogi", "1e1d+"),
        ("USI_Variant", "kyotoshogi", "1e1d+"),
        ("UCI_Variant", "micro", "1d1c"),
        ("USI_Variant", "minishogi", "5d5c"),
        ("UCI_Variant", "dobutsu", "2c2b"),
    ] {
        let out = full(
            &format!(
                "setoption name {option} value {name}\nposition startpos moves {moves}\n\
                 go depth 1\n"
            ),
            VariantKind::Kinzoku,
        );
        let p = protocol(&out);
        assert_eq!(p.len(), 1, "{name}: {p:?}");
        assert!(p[0].starts_with("bestmove "), "{name}: {p:?}");
    }
}

#[test]
fn the_dialect_option_writes_moves_as_fairy_stockfish() {
    let fsf: Vec<&str> = FSF_KYOTO_PERFT_2.iter().map(|(m, _)| *m).collect();
    let out = full(
        "setoption name Dialect value fsf\nposition startpos\ngo depth 2\n",
        VariantKind::Kyoto,
    );
    let best = out.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert!(fsf.contains(&best), "{best}");
    for pv in reports(&out, 1) {
        assert!(fsf.contains(&pv[0].as_str()), "{pv:?}");
    }
    // A Kyoto tokin drop is `+L*...` in Fairy-Stockfish's letters: Black holds a
    // Tokin/Lance pair; perft 1 lists every drop of both faces.
    let out = session(
        "setoption name Dialect value fsf\nposition sfen k4/5/5/5/4K b T 1\ngo perft 1\n",
        VariantKind::Kyoto,
    );
    assert!(out.contains(&"+L*3c: 1".to_string()), "{out:?}");
    assert!(out.contains(&"L*3c: 1".to_string()), "{out:?}");
    let out = session(
        "position sfen k4/5/5/5/4K b T 1\ngo perft 1\n",
        VariantKind::Kyoto,
    );
    assert!(out.contains(&"T*3c: 1".to_string()), "{out:?}");
    assert!(out.contains(&"L*3c: 1".to_string()), "{out:?}");
}

#[test]
fn uci_mode_speaks_fen_and_chess_coordinates() {
    // Fairy-Stockfish in UCI mode (measured): Kyoto, Black has taken White's gold and
    // holds the gold/knight pair (`N` in its letters), Black (`w` in FEN) to move.
    // `go perft 1` lists b1a2+ b1b2+ b1c2+ e1e2+ a1a2- a1b2- d1c2- d1d2- d1e2- c1b2 c1c2
    // c1d2, and N@ and +N@ on every empty square of ranks 2 to 4 and on b5: 44 moves.
    // After N@c3, White has d5c4+ d5d4+ d5e4+ a5a4+ e5d4- e5e4- c5b4 c5c4 c5d4.
    let mut first: Vec<String> = [
        "b1a2+", "b1b2+", "b1c2+", "e1e2+", "a1a2-", "a1b2-", "d1c2-", "d1d2-", "d1e2-", "c1b2",
        "c1c2", "c1d2", "N@b5", "+N@b5",
    ]
    .iter()
    .map(|m| m.to_string())
    .collect();
    for rank in 2..=4 {
        for file in ["a", "b", "c", "d", "e"] {
            first.push(format!("N@{file}{rank}"));
            first.push(format!("+N@{file}{rank}"));
        }
    }
    let perft = |moves: &[String]| {
        let mut lines: Vec<String> = moves.iter().map(|m| format!("{m}: 1")).collect();
        lines.sort();
        lines.extend([
            String::new(),
            format!("Nodes searched: {}", moves.len()),
            String::new(),
        ]);
        lines
    };
    let second: Vec<String> = [
        "d5c4+", "d5d4+", "d5e4+", "a5a4+", "e5d4-", "e5e4-", "c5b4", "c5c4", "c5d4",
    ]
    .iter()
    .map(|m| m.to_string())
    .collect();
    let fen = "p1ks+l/5/5/5/+LSK+NP[N] w - - 0 1";
    let out = full(
        &format!(
            "uci\nsetoption name UCI_Variant value kyotoshogi\nposition fen {fen}\n\
             go perft 1\nposition fen {fen} moves N@c3\ngo perft 1\ngo depth 2\n"
        ),
        VariantKind::Micro,
    );
    let at = out.iter().position(|l| l == "uciok").unwrap() + 1;
    let (a, b) = (perft(&first), perft(&second));
    assert_eq!(out[at..at + a.len()], a[..]);
    assert_eq!(out[at + a.len()..at + a.len() + b.len()], b[..]);
    // White's answer to N@c3 is one of those 9, as written there.
    let best = out.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert!(second.iter().any(|m| m == best), "{best}");
    // A UCI move that is not legal is rejected as in USI.
    let out = full(
        &format!(
            "uci\nsetoption name UCI_Variant value kyotoshogi\n\
             position fen {fen} moves a5a4\ngo depth 1\n"
        ),
        VariantKind::Kyoto,
    );
    let p = protocol(&out);
    assert!(
        p.iter()
            .any(|l| l.starts_with("info string error: position rejected")),
        "{p:?}"
    );
    assert_eq!(*p.last().unwrap(), "bestmove resign");
}

#[test]
fn threads_is_taken_and_out_of_range_values_are_errors() {
    let out = session(
        "setoption name Threads value 4\nsetoption name Threads value 1\n\
         setoption name Threads value 0\nsetoption name Threads value 513\n",
        VariantKind::Kyoto,
    );
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(out[0].starts_with("info string error: "), "{out:?}");
    assert!(out[1].starts_with("info string error: "), "{out:?}");
    // A search with two threads (the threaded mode) answers a legal move. (The end of
    // the input stops a search, so only depth 1 is sure to complete here; the engine's
    // tests check deeper searches with threads.)
    let out = session(
        "setoption name Threads value 2\nposition startpos\ngo depth 1\n",
        VariantKind::Kyoto,
    );
    let answer = out.last().unwrap().strip_prefix("bestmove ").unwrap();
    let start = Position::<Kyoto>::start();
    let mv = kshogi_notation::parse_usi(&start, answer.split(' ').next().unwrap());
    assert!(mv.is_ok_and(|m| start.is_legal(m)), "{out:?}");
    assert!(
        out.iter().any(|l| l.starts_with("info depth 1 ")),
        "{out:?}"
    );
}

#[test]
fn move_overhead_is_taken_off_the_time_and_checked() {
    // Both spellings are taken; values outside 0..=5000 are errors.
    let out = session(
        "setoption name Move_Overhead value 0\nsetoption name Move Overhead value 5000\n\
         setoption name Move_Overhead value 5001\nsetoption name Move_Overhead value -1\n",
        VariantKind::Kyoto,
    );
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(
        out.iter().all(|l| l.starts_with("info string error: ")),
        "{out:?}"
    );
    let game = Game::new(Position::<Kyoto>::start());
    let mut settings = Settings::new(
        SearchMode::Threaded,
        *VariantKind::Kyoto.info(),
        Roster::Registered,
        Databases::none(),
    );
    let time = |settings: &Settings| {
        let params = go_params("go movetime 100");
        match job_for(&params, &game, settings) {
            Job::Search { request, .. } => request.limits.time,
            _ => panic!("not a search"),
        }
    };
    // `movetime` is searched in full; the overhead is for clocks.
    assert_eq!(time(&settings), Some(Duration::from_millis(100)));
    settings.overhead_ms = 30;
    assert_eq!(time(&settings), Some(Duration::from_millis(100)));
    let clock = |settings: &Settings| {
        let params = go_params("go btime 3000 wtime 3000");
        match job_for(&params, &game, settings) {
            Job::Search { request, .. } => (request.limits.soft_time, request.limits.time),
            _ => panic!("not a search"),
        }
    };
    // The bank's share is 3000 / 30 = 100: no new iteration after 60 - 30, the search
    // stopped at 300 - 30.
    assert_eq!(
        clock(&settings),
        (
            Some(Duration::from_millis(30)),
            Some(Duration::from_millis(270))
        )
    );
}

#[test]
fn pondering_answers_after_ponderhit_or_stop() {
    // Bounded: the answer of `go ponder` is held until `ponderhit`.
    let out = session_with(
        "setoption name USI_Ponder value true\nposition startpos\n\
         go ponder btime 1000 wtime 1000\nisready\nponderhit\nisready\n",
        VariantKind::Kyoto,
        BOUNDED,
    );
    let p = protocol(&out);
    assert_eq!(p.len(), 3, "{p:?}");
    assert_eq!((p[0], p[2]), ("readyok", "readyok"));
    assert!(p[1].starts_with("bestmove "), "{p:?}");
    // With a line of two moves or more, the second is the move to ponder on.
    let out = full(
        "setoption name USI_Ponder value true\nposition startpos\ngo ponder depth 3\n\
         ponderhit\n",
        VariantKind::Kyoto,
    );
    let answer = out.last().unwrap().strip_prefix("bestmove ").unwrap();
    let (mv, reply) = answer.split_once(" ponder ").expect("a move to ponder on");
    let last = reports(&out, 1).pop().unwrap();
    assert_eq!((mv, reply), (last[0].as_str(), last[1].as_str()));
    assert!(parse_game::<Kyoto>(&format!("startpos moves {mv} {reply}")).is_ok());
    // Threaded: ponderhit starts the clock, and the search answers once.
    let out = session(
        "position startpos\ngo ponder btime 200 wtime 200\nponderhit\nisready\n",
        VariantKind::Kyoto,
    );
    let p = protocol(&out);
    assert_eq!(
        p.iter().filter(|l| l.starts_with("bestmove ")).count(),
        1,
        "{p:?}"
    );
    assert!(p.contains(&"readyok"));
    // `stop` answers a ponder search; without USI_Ponder no `ponder` move is named.
    let out = session("position startpos\ngo ponder\nstop\n", VariantKind::Kyoto);
    let p = protocol(&out);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].starts_with("bestmove ") && !p[0].contains(" ponder "),
        "{p:?}"
    );
    // A ponderhit without a ponder search does nothing.
    assert!(session("ponderhit\n", VariantKind::Kyoto).is_empty());
}

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

/// Runs a bounded session of the one variant `V` ([`serve_variant`]) on `script`.
fn single_session<V: Registered>(script: &str) -> Vec<String> {
    let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
    let out: Out = buf.clone();
    let config = VariantConfig {
        mode: SearchMode::Bounded(Budget::TINY),
        ..VariantConfig::default()
    };
    serve_variant::<V, _>(script.as_bytes(), &out, &config);
    let bytes = buf.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
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
