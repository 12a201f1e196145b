//! Kyoto Shogi: one test per rule of the seed and per Decision of RULES.md.
//!
//! Board diagrams in comments are drawn as SFEN reads: rank a at the top, file 5 on the
//! left, uppercase Black (moving up, toward rank a).

mod common;

use common::{after, is_legal_usi, legal_usi, play_all, pos, sfen_after};
use kshogi_core::{perft, DrawReason, Game, Outcome, Position, StalemateRule, Variant, WinReason};
use kshogi_notation::{move_to_usi, parse_usi, to_sfen};
use kshogi_rules_kyoto::Kyoto;

type P = Position<Kyoto>;

/// The faces of each pair, from RULES.md.
const PAIRS: [(char, char); 4] = [('T', 'L'), ('S', 'B'), ('G', 'N'), ('P', 'R')];

fn other_face(c: char) -> char {
    for (a, b) in PAIRS {
        if c == a {
            return b;
        }
        if c == b {
            return a;
        }
    }
    panic!("{c} has no other face")
}

/// The letter (Black's, uppercase) of the piece on a square named in USI.
fn letter_at(p: &P, square: &str) -> Option<char> {
    let sq = Kyoto::GEOMETRY.parse_square(square).expect("square");
    p.piece_at(sq)
        .map(|pc| Kyoto::PIECES[pc.kind.index()].letter)
}

#[test]
fn start_position_is_the_seed_table() {
    // Seed: White's rank, files 5-1: Pawn Gold King Silver Tokin; Black's: Tokin Silver King
    // Gold Pawn. Black moves first.
    let p = P::start();
    assert_eq!(to_sfen(&p), "pgkst/5/5/5/TSKGP b - 1");
    for (sq, l) in [
        ("5e", 'T'),
        ("4e", 'S'),
        ("3e", 'K'),
        ("2e", 'G'),
        ("1e", 'P'),
    ] {
        assert_eq!(letter_at(&p, sq), Some(l), "{sq}");
    }
    for (sq, l) in [
        ("5a", 'P'),
        ("4a", 'G'),
        ("3a", 'K'),
        ("2a", 'S'),
        ("1a", 'T'),
    ] {
        assert_eq!(letter_at(&p, sq), Some(l), "{sq}");
    }
}

/// Checks that in `p` every legal non-king board move flips the piece, the king never
/// flips, and the USI text carries `+` exactly for the flips. Returns how many moves of
/// each kind were seen: (non-king quiet, non-king captures, king moves).
fn every_non_king_move_flips(p: &P) -> (usize, usize, usize) {
    let mut seen = (0, 0, 0);
    for &m in p.legal_moves().iter() {
        let Some(from) = m.from() else { continue };
        let g = Kyoto::GEOMETRY;
        let before = letter_at(p, &g.name(from).to_string()).unwrap();
        let capture = p.piece_at(m.to()).is_some();
        let q = p.after(m);
        let now = letter_at(&q, &g.name(m.to()).to_string()).unwrap();
        let text = move_to_usi::<Kyoto>(m);
        if before == 'K' {
            assert_eq!(now, 'K');
            assert!(!text.ends_with('+'), "{text}");
            seen.2 += 1;
        } else {
            assert_eq!(now, other_face(before), "{text} in {}", to_sfen(p));
            assert!(text.ends_with('+'), "{text}");
            if capture {
                seen.1 += 1;
            } else {
                seen.0 += 1;
            }
        }
    }
    seen
}

#[test]
fn every_non_king_move_flips_capture_or_not() {
    // Start: every face A piece moves and flips.
    let (quiet, _, kings) = every_non_king_move_flips(&P::start());
    assert!(quiet > 0 && kings > 0);
    assert!(is_legal_usi(&P::start(), "1e1d+"));
    assert!(is_legal_usi(&P::start(), "3e3d"), "the king takes no mark");
    assert_eq!(
        sfen_after::<Kyoto>("pgkst/5/5/5/TSKGP b - 1", &["1e1d+"]),
        "pgkst/5/5/4R/TSKG1 w - 2",
        "the pawn on 1e steps to 1d and shows its rook face"
    );
    // All eight faces of Black on the board, each with at least one move.
    //   . . . . k
    //   . . . . .
    //   L B R . N     (lance, bishop, rook, knight)
    //   . T S P G     (tokin, silver, pawn, gold)
    //   K . . . .
    let crowded = pos::<Kyoto>("4k/5/LBR1N/1TSPG/K4 b - 1");
    let (quiet, _, _) = every_non_king_move_flips(&crowded);
    assert!(quiet > 10, "{quiet}");
    for face in ['T', 'L', 'S', 'B', 'G', 'N', 'P', 'R'] {
        // Each face on the board has at least one move, so each flip was exercised.
        let g = Kyoto::GEOMETRY;
        let moved = crowded.legal_moves().iter().any(|m| {
            m.from()
                .is_some_and(|f| letter_at(&crowded, &g.name(f).to_string()) == Some(face))
        });
        assert!(moved, "{face} has a move");
    }
    // A capture flips too: the rook on 5e takes the pawn on 5d and shows its pawn face.
    assert_eq!(
        sfen_after::<Kyoto>("k4/5/5/p4/R3K b - 1", &["5e5d+"]),
        "k4/5/5/P4/4K w P 2"
    );
    // The king captures without flipping.
    assert_eq!(
        sfen_after::<Kyoto>("k4/5/5/3p1/4K b - 1", &["1e2d"]),
        "k4/5/5/3K1/5 w P 2"
    );
}

#[test]
fn drops_with_either_face_and_drops_do_not_flip() {
    // Black holds one tokin/lance pair; 23 empty squares, two faces each.
    let p = pos::<Kyoto>("k4/5/5/5/4K b T 1");
    let moves = legal_usi(&p);
    let drops: Vec<&String> = moves.iter().filter(|m| m.contains('*')).collect();
    assert_eq!(drops.len(), 46, "{drops:?}");
    assert!(drops.iter().any(|m| *m == "T*3c") && drops.iter().any(|m| *m == "L*3c"));
    assert_eq!(to_sfen(&after(&p, "L*3c")), "k4/5/2L2/5/4K w - 2");
    assert_eq!(to_sfen(&after(&p, "T*3c")), "k4/5/2T2/5/4K w - 2");
    // Either face's letter names the pair in the hand field.
    assert_eq!(pos::<Kyoto>("k4/5/5/5/4K b L 1"), p);
}

#[test]
fn pawn_drop_mate_is_legal_and_checkmates() {
    //   k . . . .      White king in the corner.
    //   . . S . .      The silver covers 4a.
    //   . G . . .      The gold covers 4b and guards 5b.
    //   . . . . .
    //   . . . . K      Black holds a pawn.
    let sfen = "k4/2S2/1G3/5/4K b P 1";
    let p = pos::<Kyoto>(sfen);
    assert!(is_legal_usi(&p, "P*5b"));
    let q = after(&p, "P*5b");
    assert!(q.in_check());
    assert!(q.legal_moves().is_empty());
    assert_eq!(
        q.outcome(),
        Some(Outcome::Win {
            winner: kshogi_core::Color::Black,
            reason: WinReason::Checkmate
        })
    );
    let mut game = Game::new(p);
    assert_eq!(
        play_all(&mut game, &["P*5b"]),
        vec![Some(Outcome::Win {
            winner: kshogi_core::Color::Black,
            reason: WinReason::Checkmate
        })]
    );
}

#[test]
fn two_pawns_on_a_file_are_legal() {
    // A black pawn already on 3c; Black drops another on the same file.
    let p = pos::<Kyoto>("k4/5/2P2/5/4K b P 1");
    assert!(is_legal_usi(&p, "P*3d"));
    assert!(is_legal_usi(&p, "P*3b"));
    assert_eq!(to_sfen(&after(&p, "P*3d")), "k4/5/2P2/2P2/4K w - 2");
}

#[test]
fn pieces_may_go_where_they_can_never_move_again() {
    // Drops: a lance on the farthest rank, a knight on the last two ranks, a pawn on rank a.
    let p = pos::<Kyoto>("k4/5/5/5/4K b TGP 1");
    for m in ["L*3a", "N*3a", "N*3b", "N*2a", "P*2a", "R*2a"] {
        assert!(is_legal_usi(&p, m), "{m}");
    }
    // A lance dropped on 3a has no move afterwards (Black to move again after a White move).
    let q = after(&after(&p, "L*3a"), "5a5b");
    assert!(
        !legal_usi(&q).iter().any(|m| m.starts_with("3a")),
        "{:?}",
        legal_usi(&q)
    );
    // Board moves: a tokin on 3b steps to 3a and becomes a lance there; a gold on 2c steps
    // to 2b and becomes a knight there. Neither could ever move again.
    let p = pos::<Kyoto>("k4/2T2/3G1/5/4K b - 1");
    assert!(is_legal_usi(&p, "3b3a+"));
    assert!(is_legal_usi(&p, "2c2b+"));
    assert_eq!(to_sfen(&after(&p, "3b3a+")), "k1L2/5/3G1/5/4K w - 2");
    assert_eq!(to_sfen(&after(&p, "2c2b+")), "k4/2TN1/5/5/4K w - 2");
    let q = after(&after(&p, "2c2b+"), "5a5b");
    assert!(!legal_usi(&q).iter().any(|m| m.starts_with("2b")));
}

#[test]
fn a_captured_piece_goes_to_hand_as_its_pair() {
    // The gold on 3d takes a rook on 3c: Black's hand holds a pawn/rook pair, written P.
    assert_eq!(
        sfen_after::<Kyoto>("k4/5/2r2/2G2/4K b - 1", &["3d3c+"]),
        "k4/5/2N2/5/4K w P 2"
    );
    // Every face: the black king takes it on 3c; the hand shows the pair's face A.
    for (face, hand) in [
        ('t', 'T'),
        ('l', 'T'),
        ('s', 'S'),
        ('b', 'S'),
        ('g', 'G'),
        ('n', 'G'),
        ('p', 'P'),
        ('r', 'P'),
    ] {
        let sfen = format!("k4/5/2{face}2/2K2/5 b - 1");
        assert_eq!(
            sfen_after::<Kyoto>(&sfen, &["3d3c"]),
            format!("k4/5/2K2/5/5 w {hand} 2"),
            "{sfen}"
        );
        // And the captured pair can be dropped with either face.
        let q = after(&pos::<Kyoto>(&sfen), "3d3c");
        let q = after(&q, "5a5b");
        let (a, b) = PAIRS.iter().find(|p| p.0 == hand).copied().unwrap();
        assert!(is_legal_usi(&q, &format!("{a}*1a")), "{sfen}");
        assert!(is_legal_usi(&q, &format!("{b}*1a")), "{sfen}");
    }
}

#[test]
fn stalemate_loses_for_the_side_to_move() {
    //   k . . . .     White to move: 4a is covered by the silver, 4b and 5b by the gold,
    //   . . S . .     5a is not attacked, White has nothing else and an empty hand.
    //   . G . . .
    //   . . . . .
    //   . . . . K
    assert_eq!(Kyoto::STALEMATE, StalemateRule::Loss);
    let p = pos::<Kyoto>("k4/2S2/1G3/5/4K w - 1");
    assert!(!p.in_check());
    assert!(p.legal_moves().is_empty());
    assert_eq!(perft(&mut p.clone(), 1), 0);
    let win = Some(Outcome::Win {
        winner: kshogi_core::Color::Black,
        reason: WinReason::Stalemate,
    });
    assert_eq!(p.outcome(), win);
    assert_eq!(Game::new(p).outcome(), win);
    // Reached by a move: the lance on 4e slides to 4c and turns into a tokin there.
    let q = pos::<Kyoto>("k4/2S2/5/5/1L2K b - 1");
    assert_eq!(q.outcome(), None);
    let r = after(&q, "4e4c+");
    assert_eq!(to_sfen(&r), "k4/2S2/1T3/5/4K w - 2");
    assert_eq!(r.outcome(), win);
    let mut game = Game::new(q);
    assert_eq!(play_all(&mut game, &["4e4c+"]), vec![win]);
}

#[test]
fn threefold_repetition_draws_at_the_third_occurrence() {
    // Both kings step out and back from the start: the start position occurs at plies 0,
    // 4 and 8; the game is drawn exactly at the eighth move.
    let mut game = Game::new(P::start());
    let cycle = ["3e3d", "3a3b", "3d3e", "3b3a"];
    let moves: Vec<&str> = cycle.iter().chain(cycle.iter()).copied().collect();
    let outcomes = play_all(&mut game, &moves);
    let draw = Some(Outcome::Draw {
        reason: DrawReason::Repetition,
    });
    assert_eq!(
        outcomes[..7],
        [None; 7],
        "no result before the third occurrence"
    );
    assert_eq!(outcomes[7], draw);
    assert_eq!(game.occurrences(), 3);
    // No move is accepted after the draw.
    let m = parse_usi(game.position(), "3e3d").unwrap();
    assert!(game.play(m).is_err());
    // Taking the last move back reopens the game.
    game.undo();
    assert_eq!(game.outcome(), None);
}

#[test]
fn repetition_counts_hands() {
    // S0: kings on 5a and 1e, Black to move, Black holds a pawn. It occurs at plies 0 and 4.
    // Black then drops the pawn, White's king takes it and both kings walk home (by squares
    // the shuttles never use): the board and side are those of S0 again at ply 12, but the
    // pawn is now in White's hand, so this is a new position (S1), not the third occurrence
    // of S0. S1 recurs at plies 16 and 20: the draw comes with the 20th move.
    let mut game = Game::new(pos::<Kyoto>("k4/5/5/5/4K b P 1"));
    let shuttle = ["1e1d", "5a5b", "1d1e", "5b5a"];
    let mut moves: Vec<&str> = shuttle.to_vec();
    moves.extend([
        "P*4b", "5a4b", "1e2d", "4b5b", "2d2e", "5b4a", "2e1e", "4a5a",
    ]);
    moves.extend(shuttle);
    moves.extend(shuttle);
    let out = play_all(&mut game, &moves);
    assert_eq!(to_sfen(game.position()), "k4/5/5/5/4K b p 21");
    assert_eq!(out[..19], [None; 19]);
    assert_eq!(
        out[19],
        Some(Outcome::Draw {
            reason: DrawReason::Repetition
        })
    );
}

#[test]
fn no_perpetual_check_exception() {
    //   . . k . .     Black's silver/bishop pair checks on every Black move:
    //   . . . . .     3c2b+ (bishop to silver, checking 3a), White 3a4b,
    //   . . B . .     2b3c+ (silver to bishop, checking 4b), White 4b3a.
    //   . . . . .
    //   K . . . .
    let sfen = "2k2/5/2B2/5/K4 b - 1";
    let mut game = Game::new(pos::<Kyoto>(sfen));
    let cycle = ["3c2b+", "3a4b", "2b3c+", "4b3a"];
    let moves: Vec<&str> = cycle.iter().chain(cycle.iter()).copied().collect();
    let mut checks = Vec::new();
    let mut outcomes = Vec::new();
    for m in &moves {
        outcomes.extend(play_all(&mut game, &[m]));
        checks.push(game.position().in_check());
    }
    assert_eq!(
        checks,
        [true, false, true, false, true, false, true, false],
        "every Black move gives check"
    );
    assert_eq!(outcomes[..7], [None; 7]);
    assert_eq!(
        outcomes[7],
        Some(Outcome::Draw {
            reason: DrawReason::Repetition
        }),
        "a repetition of checks is still a draw in Kyoto"
    );
}

#[test]
fn a_pinned_piece_moves_only_along_the_pin() {
    //   k . l . .     The white lance on 3a pins the black silver on 3d to the king on 3e.
    //   . . . . .
    //   . . . . .
    //   . . S . .
    //   . . K . .
    let p = pos::<Kyoto>("k1l2/5/5/2S2/2K2 b - 1");
    let silver: Vec<String> = legal_usi(&p)
        .into_iter()
        .filter(|m| m.starts_with("3d"))
        .collect();
    assert_eq!(silver, ["3d3c+"]);
}

#[test]
fn the_king_never_steps_onto_an_attacked_square() {
    // White rook on 2a covers file 2; the black king on 1e may not go to 2e or 2d.
    let p = pos::<Kyoto>("k2r1/5/5/5/4K b - 1");
    assert_eq!(legal_usi(&p), ["1e1d"]);
}
