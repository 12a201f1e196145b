//! The answers to `go`: finished games, scores, pondering, weakened play, `go infinite`.

use super::*;

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
    // the same each time; a weakened level searches within its node budget (level 0:
    // 128 nodes for each of its 9 candidate lines, 1,152, see `Skill::search_nodes`),
    // full strength to the depth asked for (depth 6 takes 2,645 nodes here with Kyoto's
    // second net; level 3's 3,024 was above that).
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
    let weak = format!("setoption name Skill_Level value 0\n{go}");
    let a = session_with(&weak, VariantKind::Kyoto, budget);
    let b = session_with(&weak, VariantKind::Kyoto, budget);
    assert_eq!(a.last(), b.last());
    let weak_nodes = nodes(&a);
    assert!(
        !weak_nodes.is_empty() && weak_nodes.iter().all(|&n| n <= 1_152),
        "{a:?}"
    );
    let full = session_with(go, VariantKind::Kyoto, budget);
    assert!(
        full.iter().any(|l| l.starts_with("info depth 6 ")),
        "{full:?}"
    );
    assert!(nodes(&full).iter().any(|&n| n > 1_152), "{full:?}");
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
