//! The handshake, the options (`setoption`), the dialects and UCI mode.

use super::*;

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
            // kshogi's own.
            "option name Contempt type spin default 0 min -200 max 200",
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
            "option name Contempt type spin default 0 min -200 max 200",
            "uciok",
        ]
    );
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

/// The score of an `info` line: `cp N` or `mate N`.
fn score_of(info: &str) -> String {
    let at = info.find(" score ").unwrap();
    info[at + 7..]
        .split(' ')
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn contempt_scores_a_draw_below_even_unless_analysing() {
    // Kinzoku: White, worse, can bring back the first position for the third time (a draw
    // by repetition, see the registry's search tests): its best move at any contempt, worth
    // 0 without contempt, `-C` with contempt C (and +C below zero), and 0 again with
    // USI_AnalyseMode, which switches contempt off.
    let position = "position sfen ck1/3/3/1I1/SKC b - 1 moves 2e3d 2a1b 3d2e 1b2a 2e3d 2a1b 3d2e";
    let draw_score = |options: &str| -> String {
        let out = full(
            &format!("usi\n{options}{position}\ngo depth 3\nisready\nquit\n"),
            VariantKind::Kinzoku,
        );
        let best = out.iter().find(|l| l.starts_with("bestmove")).unwrap();
        assert_eq!(best, "bestmove 1b2a", "{options}");
        let info = out.iter().rfind(|l| l.starts_with("info depth")).unwrap();
        score_of(info)
    };
    assert_eq!(draw_score(""), "cp 0");
    assert_eq!(draw_score("setoption name Contempt value 35\n"), "cp -35");
    assert_eq!(draw_score("setoption name Contempt value -20\n"), "cp 20");
    assert_eq!(
        draw_score("setoption name Contempt value 35\nsetoption name USI_AnalyseMode value true\n"),
        "cp 0"
    );
    // Out of range: refused by name, and the value before stays.
    let out = session(
        "usi\nsetoption name Contempt value 201\nquit\n",
        VariantKind::Kinzoku,
    );
    assert!(
        out.iter()
            .any(|l| l.contains("Contempt") && l.contains("200")),
        "{out:?}"
    );
}

#[test]
fn a_minishogi_repetition_scores_the_contempt() {
    // The kings walk out and back twice; White's 2b1a would bring the start position back
    // for the fourth time, a draw. Its line, among all of White's moves, scores 0 by
    // default, -30 for White with `Contempt 30`, and 0 again in analysis mode.
    let cycle = "5e4d 1a2b 4d5e 2b1a";
    let position = format!("position startpos moves {cycle} {cycle} 5e4d 1a2b 4d5e");
    let draw_line = |options: &str| -> String {
        let out = full(
            &format!(
                "usi\nsetoption name USI_MultiPV value 32\n{options}{position}\ngo depth 2\nisready\nquit\n"
            ),
            VariantKind::Minishogi,
        );
        let line = out
            .iter()
            .rfind(|l| l.starts_with("info depth 2 ") && l.contains(" pv 2b1a"))
            .unwrap_or_else(|| panic!("{out:?}"));
        score_of(line)
    };
    assert_eq!(draw_line(""), "cp 0");
    assert_eq!(draw_line("setoption name Contempt value 30\n"), "cp -30");
    assert_eq!(
        draw_line("setoption name Contempt value 30\nsetoption name USI_AnalyseMode value true\n"),
        "cp 0"
    );
}

#[test]
fn the_contempt_option_has_the_search_parameter_s_range() {
    let spec = kshogi_engine::SearchTuning::spec("contempt").unwrap();
    assert_eq!(
        crate::options::CONTEMPT_RANGE,
        (i64::from(spec.min), i64::from(spec.max))
    );
    // The option starts where the search does: every draw even.
    assert_eq!(crate::options::DEFAULT_CONTEMPT, i64::from(spec.default));
}
