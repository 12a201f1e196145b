//! Tori Shogi: one test per rule of docs/rules.md, with positions worked out by hand or
//! listed by the reference engine (Fairy-Stockfish, `torishogi`), as each comment says.
//!
//! Board diagrams are as SFEN reads them: rank a at the top, file 7 on the left, uppercase
//! Black (moving up, toward rank a).

mod common;

use common::{is_legal_usi, legal_usi, play_all, pos};
use kshogi_core::{perft, Color, Game, Outcome, Position, PositionError, WinReason};
use kshogi_notation::{parse_sfen, to_sfen, SfenErrorKind};
use kshogi_rules_tori::Tori;

type P = Position<Tori>;

fn p(sfen: &str) -> P {
    pos::<Tori>(sfen)
}

/// The legal moves from `from` (canonical USI), sorted.
fn from(p: &P, square: &str) -> Vec<String> {
    legal_usi(p)
        .into_iter()
        .filter(|m| m.starts_with(square))
        .collect()
}

#[test]
fn start_position_and_the_reference_engines_first_counts() {
    let start = P::start();
    assert_eq!(
        to_sfen(&start),
        "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1"
    );
    // The reference engine's start perft: 17, 288, 5430.
    for (depth, nodes) in [(1, 17), (2, 288), (3, 5430)] {
        assert_eq!(perft(&mut start.clone(), depth), nodes);
    }
}

#[test]
fn the_eagle_slides_and_moves_two_squares_diagonally_back() {
    // Black's eagle on 4d, White's goose on 3d, Black's phoenix on 4g. The reference engine
    // lists these 15 eagle moves (its `go perft 1` divide, converted to shogi squares): one
    // step to 3d (the goose), 5d, 4c; slides diagonally forward to 5c 6b 7a (the quail) and
    // 3c 2b 1a; straight back 4e 4f (the phoenix stops it); two squares diagonally back 5e
    // 6f and 3e 2f.
    let pos = p("rpck3/7/7/3+F+s2/7/7/3K3 b - 1");
    let mut to: Vec<String> = from(&pos, "4d")
        .iter()
        .map(|m| m[2..].to_string())
        .collect();
    to.sort();
    assert_eq!(
        to,
        [
            "1a", "2b", "2f", "3c", "3d", "3e", "4c", "4e", "4f", "5c", "5d", "5e", "6b", "6f",
            "7a"
        ]
    );
    // A piece on 3e stops the backward range at 3e (captured if White's): 2f is gone.
    let blocked = p("rpck3/7/7/3+F+s2/4s2/7/3K3 b - 1");
    assert!(is_legal_usi(&blocked, "4d3e"));
    assert!(!is_legal_usi(&blocked, "4d2f"));
}

#[test]
fn promotion_is_compulsory_in_the_zone() {
    // A swallow entering the two-rank zone promotes; there is no plain move.
    let swallow = p("k6/7/4S2/7/7/7/6K b - 1");
    assert_eq!(from(&swallow, "3c"), ["3c3b+"]);
    // A falcon in the zone promotes on every move, even one leaving the zone (5b to 4c, 6c).
    let falcon = p("k6/2F4/7/7/7/7/6K b - 1");
    for m in from(&falcon, "5b") {
        assert!(m.ends_with('+'), "{m}");
    }
    assert!(is_legal_usi(&falcon, "5b4c+"));
}

#[test]
fn two_swallows_a_file_and_no_more() {
    // Black's swallows on 3d and 3e: a third may not be dropped on file 3; file 2 is free.
    let two = p("k6/7/7/4S2/4S2/7/6K b S 1");
    assert!(!is_legal_usi(&two, "S*3f"));
    assert!(is_legal_usi(&two, "S*2f"));
    // With one swallow on the file, a second may be dropped there.
    let one = p("k6/7/7/7/4S2/7/6K b S 1");
    assert!(is_legal_usi(&one, "S*3f"));
    // Three on a file is no valid position.
    let e = parse_sfen::<Tori>("k6/7/4S2/4S2/4S2/7/6K b - 1").unwrap_err();
    assert_eq!(
        e.kind,
        SfenErrorKind::Invalid(PositionError::PawnsOnFile {
            color: Color::Black,
            count: 3,
            pawn: "swallow",
            file: 3,
            limit: 2
        })
    );
    assert!(
        e.to_string()
            .ends_with("black has 3 unpromoted swallows on file 3; at most 2 may stand on a file"),
        "{e}"
    );
}

#[test]
fn one_hand_holds_all_sixteen_swallows() {
    let sfen = "k6/7/7/7/7/7/6K b 16S 1";
    let pos = p(sfen);
    assert_eq!(to_sfen(&pos), sfen);
    assert_eq!(pos.hand(Color::Black, 5), 16);
    // 47 empty squares (49 less the two phoenixes) less the six empty ones of rank a, where a
    // swallow could never move.
    let drops = legal_usi(&pos)
        .iter()
        .filter(|m| m.starts_with("S*"))
        .count();
    assert_eq!(drops, 49 - 2 - 6);
    assert!(parse_sfen::<Tori>("k6/7/7/7/7/7/6K b 17S 1").is_err());
}

#[test]
fn the_side_completing_the_fourth_occurrence_loses() {
    // Phoenixes only: three round trips bring the start back for the fourth time with White's
    // last move, so Black wins.
    let mut game = Game::new(p("k6/7/7/7/7/7/6K b - 1"));
    let cycle = ["1g2g", "7a6a", "2g1g", "6a7a"];
    let moves: Vec<&str> = cycle.iter().copied().cycle().take(12).collect();
    let outcomes = play_all(&mut game, &moves);
    assert!(outcomes[..11].iter().all(Option::is_none));
    assert_eq!(
        outcomes[11],
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Repetition
        })
    );
}
