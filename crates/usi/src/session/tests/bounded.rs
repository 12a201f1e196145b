//! The bounded mode, and `go perft`.

use super::*;

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
