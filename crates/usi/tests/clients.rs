//! The command sequences of the two engine clients that drive variant engines on the web,
//! replayed through the engine loop, with what each needs from the answers checked:
//! every analysed position gets a score, every option they send is understood (no error
//! line at all), and every `bestmove` and `pv` move is legal and written in their dialect.
//!
//! The sequences are written down from the clients' source (learnt from, not copied):
//!
//! - **lishogi** — its analysis and move client, shoginet (github.com/WandererXII/shoginet):
//!   `src/engine.ts` (start-up: `usi`, then after `usiok` the options `Threads` and
//!   `USI_Hash`, then `isready`; every search: `isready`, then after `readyok` `position
//!   sfen <sfen> moves <moves>` (the word `moves` also when the list is empty) and `go`
//!   with `movetime`, `depth`, `nodes` in that order, then the clock `btime wtime byoyomi
//!   [binc winc]` for a move), `src/work/analysis.ts` (`USI_Variant`, `USI_AnalyseMode
//!   true`, `Skill_Level 20`, `USI_MultiPV 1`, `usinewgame`, then the plies from the last
//!   to the first) and `src/work/move.ts` (`USI_Variant`, `Skill_Level <level>`,
//!   `USI_MultiPV 1`, `usinewgame`, one search). It sends the moves in the reference
//!   engine's letters and reads them back so: its user starts kshogi as
//!   `kshogi usi --dialect fsf` (docs/analysis.md).
//! - **pychess-variants** — its analysis and move client, fairyfishnet
//!   (github.com/gbtami/fairyfishnet): `fairyfishnet.py` (and `src/fairyfishnet/engine.py`,
//!   `worker.py` of the packaged version): start-up `uci`, then `setoption name threads`,
//!   `hash` and the options of its configuration file's `[Stockfish]` section (its set-up
//!   writes `VariantPath = variants.ini`; the names arrive lower-case), then `isready`;
//!   analysis: `UCI_Chess960 false`, `UCI_Variant <variant>`, `Skill Level 20`,
//!   `UCI_AnalyseMode true`, `ucinewgame`, `isready`, then for each ply from the last to
//!   the first `position fen <fen> moves <moves>` and `go movetime 4000 nodes 3500000`
//!   (no `isready` between); a move: the same options with `Skill Level <level>` (-4 to
//!   20) and `UCI_AnalyseMode false`, then `go movetime M depth D wtime W btime B winc I
//!   binc I`. It reads UCI coordinates and the reference engine's letters (kshogi's UCI
//!   mode writes those by default).
//!
//! The searches run in the bounded mode (a small budget), so that the test is quick and its
//! answers depend on the input alone; the threaded mode's timing is tested in the command
//! line's tests (`crates/cli/tests/usi/`).

use kshogi_core::{Position, Variant};
use kshogi_notation::uci::{uci_to_usi, usi_to_uci};
use kshogi_notation::{move_to_usi_in, parse_game, parse_usi, Dialect};
use kshogi_registry::types::{Dobutsu, Kyoto, Minishogi};
use kshogi_usi::{serve_config, Budget, Config, Databases, Out, SearchMode, VariantKind};
use std::sync::{Arc, Mutex};

/// A budget that gives every search a few iterations.
const BUDGET: Budget = Budget {
    nodes: 3_000,
    depth: 3,
    hash_mb: 1,
};

/// Runs `script` through the loop, starting in `dialect` (as `kshogi usi --dialect`), and
/// returns the output lines.
fn run(script: &str, dialect: Option<Dialect>) -> Vec<String> {
    let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
    let out: Out = buf.clone();
    let config = Config {
        variant: Some(VariantKind::Kyoto),
        mode: SearchMode::Bounded(BUDGET),
        databases: Databases::none(),
        dialect,
    };
    serve_config(script.as_bytes(), &out, &config);
    let text = String::from_utf8(buf.lock().unwrap().clone()).unwrap();
    text.lines().map(str::to_string).collect()
}

/// How the client writes moves: USI squares or UCI's chess coordinates, always in the
/// reference engine's letters.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Coords {
    Usi,
    Uci,
}

/// `mv` (legal in `pos`) as the client writes it.
fn client_text<V: Variant>(pos: &Position<V>, mv: kshogi_core::Move, coords: Coords) -> String {
    let usi = move_to_usi_in(pos, mv, Dialect::Fsf);
    match coords {
        Coords::Usi => usi,
        Coords::Uci => usi_to_uci(&usi, V::GEOMETRY.width, V::GEOMETRY.height).unwrap(),
    }
}

/// Reads a move the engine wrote and checks that it is legal in `pos` and written exactly
/// as the client writes that move (the reference engine's letters, its coordinates).
fn read_move<V: Variant>(pos: &Position<V>, text: &str, coords: Coords) -> kshogi_core::Move {
    let usi = match coords {
        Coords::Usi => text.to_string(),
        Coords::Uci => uci_to_usi(text, V::GEOMETRY.width, V::GEOMETRY.height)
            .unwrap_or_else(|| panic!("`{text}` is not a UCI move")),
    };
    let mv = parse_usi(pos, &usi).unwrap_or_else(|e| panic!("`{text}`: {e}"));
    assert!(pos.is_legal(mv), "`{text}` is not legal");
    assert_eq!(
        client_text(pos, mv, coords),
        text,
        "not in the client's dialect"
    );
    mv
}

/// A game of `plies` moves from `start` (a position the notation reads): each move the
/// first legal one, written as the client writes it. Ends early if the game does.
fn game<V: Variant>(start: &str, plies: usize, coords: Coords) -> Vec<String> {
    let mut g = parse_game::<V>(start).unwrap();
    let mut moves = Vec::new();
    for _ in 0..plies {
        if g.outcome().is_some() {
            break;
        }
        let pos = *g.position();
        let Some(&mv) = pos.legal_moves().iter().next() else {
            break;
        };
        moves.push(client_text(&pos, mv, coords));
        g.play(mv).unwrap();
    }
    moves
}

/// Splits the output after the start-up into the answers of the `go` commands: each the
/// lines up to and including its `bestmove`. Every line is checked on the way: no error,
/// and only the protocol's own lines.
fn answers(lines: &[String]) -> Vec<Vec<String>> {
    let mut all = Vec::new();
    let mut cur = Vec::new();
    for l in lines {
        assert!(!l.starts_with("info string error"), "{l}");
        if l.starts_with("id ") || l.starts_with("option ") || l == "usiok" || l == "uciok" {
            continue;
        }
        if l == "readyok" {
            continue;
        }
        cur.push(l.clone());
        if l.starts_with("bestmove ") {
            all.push(std::mem::take(&mut cur));
        }
    }
    assert!(cur.is_empty(), "lines after the last bestmove: {cur:?}");
    all
}

/// Checks one answer for the position `start` + `moves`: a score before `bestmove`, and
/// every move of `bestmove` and of the `pv`s legal and in the client's dialect. A finished
/// game answers `resign` (USI) or `(none)` (UCI) after its `score mate 0`.
fn check_answer<V: Variant>(start: &str, moves: &[String], answer: &[String], coords: Coords) {
    let text = if moves.is_empty() {
        start.to_string()
    } else {
        // The notation reads the reference engine's letters and, in UCI coordinates, the
        // moves once turned into USI ones.
        let usi: Vec<String> = moves
            .iter()
            .map(|m| match coords {
                Coords::Usi => m.clone(),
                Coords::Uci => uci_to_usi(m, V::GEOMETRY.width, V::GEOMETRY.height).unwrap(),
            })
            .collect();
        format!("{start} moves {}", usi.join(" "))
    };
    let g = parse_game::<V>(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let pos = *g.position();
    let scores: Vec<&String> = answer
        .iter()
        .filter(|l| l.contains(" score cp ") || l.contains(" score mate "))
        .collect();
    assert!(!scores.is_empty(), "no score for {text}: {answer:?}");
    let best = answer.last().unwrap().strip_prefix("bestmove ").unwrap();
    let best = best.split(' ').next().unwrap();
    if g.outcome().is_some() {
        assert!(
            answer.iter().any(|l| l == "info depth 0 score mate 0"),
            "{answer:?}"
        );
        let want = if coords == Coords::Uci {
            "(none)"
        } else {
            "resign"
        };
        assert_eq!(best, want);
        return;
    }
    read_move(&pos, best, coords);
    for l in answer.iter().filter(|l| l.starts_with("info ")) {
        let Some((_, pv)) = l.split_once(" pv ") else {
            continue;
        };
        let mut p = pos;
        for m in pv.split(' ') {
            let mv = read_move(&p, m, coords);
            p.make(mv);
        }
    }
}

/// lishogi's analysis of a game: the positions from the last to the first.
fn lishogi_analysis<V: Variant>(variant: &str, sfen: &str, moves: &[String]) {
    let mut script = String::from(
        "usi\nsetoption name Threads value 1\nsetoption name USI_Hash value 16\nisready\n",
    );
    script.push_str(&format!(
        "setoption name USI_Variant value {variant}\n\
         setoption name USI_AnalyseMode value true\n\
         setoption name Skill_Level value 20\n\
         setoption name USI_MultiPV value 1\n\
         usinewgame\n"
    ));
    for ply in (0..=moves.len()).rev() {
        script.push_str(&format!(
            "isready\nposition sfen {sfen} moves {}\ngo movetime 3000 nodes 2250000\n",
            moves[..ply].join(" ")
        ));
    }
    script.push_str("quit\n");
    let out = run(&script, Some(Dialect::Fsf));
    let got = answers(&out);
    assert_eq!(
        got.len(),
        moves.len() + 1,
        "one answer per position: {out:?}"
    );
    for (i, answer) in got.iter().enumerate() {
        let ply = moves.len() - i;
        check_answer::<V>(&format!("sfen {sfen}"), &moves[..ply], answer, Coords::Usi);
    }
}

/// lishogi's request for a move at a level (its `Skill_Level`, depth and clock).
fn lishogi_move<V: Variant>(variant: &str, sfen: &str, moves: &[String], skill: i32) {
    let script = format!(
        "usi\nsetoption name Threads value 1\nsetoption name USI_Hash value 16\nisready\n\
         setoption name USI_Variant value {variant}\n\
         setoption name Skill_Level value {skill}\n\
         setoption name USI_MultiPV value 1\n\
         usinewgame\n\
         isready\n\
         position sfen {sfen} moves {}\n\
         go movetime 500 depth 5 btime 60000 wtime 60000 byoyomi 10000 binc 0 winc 0\nquit\n",
        moves.join(" ")
    );
    let out = run(&script, Some(Dialect::Fsf));
    let got = answers(&out);
    assert_eq!(got.len(), 1, "{out:?}");
    check_answer::<V>(&format!("sfen {sfen}"), moves, &got[0], Coords::Usi);
}

/// pychess's analysis of a game.
fn pychess_analysis<V: Variant>(variant: &str, fen: &str, moves: &[String]) {
    let mut script = String::from(
        "uci\nsetoption name threads value 1\nsetoption name hash value 16\n\
         setoption name variantpath value variants.ini\nisready\n",
    );
    script.push_str(&format!(
        "setoption name UCI_Chess960 value false\n\
         setoption name UCI_Variant value {variant}\n\
         setoption name Skill Level value 20\n\
         setoption name UCI_AnalyseMode value true\n\
         ucinewgame\nisready\n"
    ));
    for ply in (0..=moves.len()).rev() {
        script.push_str(&format!(
            "position fen {fen} moves {}\ngo movetime 4000 nodes 3500000\n",
            moves[..ply].join(" ")
        ));
    }
    script.push_str("quit\n");
    let out = run(&script, None);
    let got = answers(&out);
    assert_eq!(
        got.len(),
        moves.len() + 1,
        "one answer per position: {out:?}"
    );
    for (i, answer) in got.iter().enumerate() {
        let ply = moves.len() - i;
        check_answer::<V>(fen, &moves[..ply], answer, Coords::Uci);
    }
}

/// pychess's request for a move at a level (`Skill Level` -4 to 20, depth, movetime, clock).
fn pychess_move<V: Variant>(variant: &str, fen: &str, moves: &[String], skill: i32) {
    let script = format!(
        "uci\nsetoption name threads value 1\nsetoption name hash value 16\n\
         setoption name variantpath value variants.ini\nisready\n\
         setoption name UCI_Chess960 value false\n\
         setoption name UCI_Variant value {variant}\n\
         setoption name Skill Level value {skill}\n\
         setoption name UCI_AnalyseMode value false\n\
         ucinewgame\nisready\n\
         position fen {fen} moves {}\n\
         go movetime 100 depth 1 wtime 60000 btime 60000 winc 0 binc 0\nquit\n",
        moves.join(" ")
    );
    let out = run(&script, None);
    let got = answers(&out);
    assert_eq!(got.len(), 1, "{out:?}");
    check_answer::<V>(fen, moves, &got[0], Coords::Uci);
}

#[test]
fn pychess_reads_the_variant_list() {
    // pychess's client (fairyfishnet's engine.py) takes the word after `default` and the
    // word after each `var` of the line that starts `option name UCI_Variant type combo
    // default`; it plays kyotoshogi, minishogi and dobutsu among kshogi's variants.
    let out = run("uci\nquit\n", None);
    let line = out
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant "))
        .unwrap();
    let tokens: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        tokens[..5],
        ["option", "name", "UCI_Variant", "type", "combo"]
    );
    assert_eq!(tokens[5], "default");
    let mut variants = vec![tokens[6]];
    variants.extend(tokens.windows(2).filter(|w| w[0] == "var").map(|w| w[1]));
    for name in ["kyotoshogi", "minishogi", "dobutsu"] {
        assert!(variants.contains(&name), "{name} missing from {line}");
    }
}

#[test]
fn lishogi_analysis_and_moves() {
    // Kyoto from lishogi's start SFEN (the reference engine's letters: the promoted faces
    // written with `+`), a short game, and a game that ends in a mate: the last position
    // is finished and still gets a score.
    let kyoto = "p+nks+l/5/5/5/+LSK+NP b - 1";
    let moves = game::<Kyoto>(&format!("sfen {kyoto}"), 4, Coords::Usi);
    lishogi_analysis::<Kyoto>("kyotoshogi", kyoto, &moves);
    lishogi_analysis::<Kyoto>("kyotoshogi", "k4/5/1S3/5/4K b G 9", &["G*5b".to_string()]);
    let mini = "rbsgk/4p/5/P4/KGSBR b - 1";
    let moves = game::<Minishogi>(&format!("sfen {mini}"), 3, Coords::Usi);
    lishogi_analysis::<Minishogi>("minishogi", mini, &moves);
    for skill in [-4, 0, 10, 20] {
        lishogi_move::<Kyoto>("kyotoshogi", kyoto, &moves_of::<Kyoto>(kyoto, 2), skill);
    }
}

/// The first `plies` moves of [`game`] from an SFEN, in USI coordinates.
fn moves_of<V: Variant>(sfen: &str, plies: usize) -> Vec<String> {
    game::<V>(&format!("sfen {sfen}"), plies, Coords::Usi)
}

#[test]
fn pychess_analysis_and_moves() {
    // pychess's FEN of each start (hand in brackets, `w` for the first player), as the
    // reference engine reports it.
    let kyoto = "p+nks+l/5/5/5/+LSK+NP[-] w 0 1";
    let moves = game::<Kyoto>(kyoto, 4, Coords::Uci);
    pychess_analysis::<Kyoto>("kyotoshogi", kyoto, &moves);
    // The finished game: after G@a4 (G*5b) White is mated.
    pychess_analysis::<Kyoto>(
        "kyotoshogi",
        "k4/5/1S3/5/4K[G] w - - 0 1",
        &["G@a4".to_string()],
    );
    let mini = "rbsgk/4p/5/P4/KGSBR[-] w 0 1";
    let moves = game::<Minishogi>(mini, 3, Coords::Uci);
    pychess_analysis::<Minishogi>("minishogi", mini, &moves);
    let dobutsu = "gle/1c1/1C1/ELG[-] w 0 1";
    let moves = game::<Dobutsu>(dobutsu, 3, Coords::Uci);
    pychess_analysis::<Dobutsu>("dobutsu", dobutsu, &moves);
    for skill in [-4, 0, 3, 6, 10, 14, 16, 18, 20] {
        pychess_move::<Kyoto>(
            "kyotoshogi",
            kyoto,
            &game::<Kyoto>(kyoto, 2, Coords::Uci),
            skill,
        );
    }
}
