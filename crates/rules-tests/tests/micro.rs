//! Micro Shogi: one test per rule of the seed and of RULES.md.
//!
//! Board diagrams in comments are drawn as SFEN reads: rank a at the top, file 4 on the
//! left, uppercase Black (moving up, toward rank a).

mod common;

use common::{after, is_legal_usi, legal_usi, play_all, pos, sfen_after};
use kshogi_core::{
    perft, Color, DrawReason, Game, Outcome, Position, RepetitionRule, StalemateRule, Variant,
    WinReason,
};
use kshogi_notation::{move_to_usi, to_sfen};
use kshogi_rules_micro::Micro;

type P = Position<Micro>;

/// The faces of each pair, from RULES.md.
const PAIRS: [(char, char); 4] = [('S', 'L'), ('B', 'T'), ('G', 'R'), ('P', 'N')];

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

fn letter_at(p: &P, square: &str) -> Option<char> {
    let sq = Micro::GEOMETRY.parse_square(square).expect("square");
    p.piece_at(sq)
        .map(|pc| Micro::PIECES[pc.kind.index()].letter)
}

/// Checks every legal board move of `p`: a non-king piece flips exactly when it captures;
/// the king never flips; `+` marks exactly the flips. Returns (quiet, captures) seen for
/// non-king pieces.
fn flips_exactly_on_captures(p: &P) -> (usize, usize) {
    let g = Micro::GEOMETRY;
    let mut seen = (0, 0);
    for &m in p.legal_moves().iter() {
        let Some(from) = m.from() else { continue };
        let before = letter_at(p, &g.name(from).to_string()).unwrap();
        let capture = p.piece_at(m.to()).is_some();
        let now = letter_at(&p.after(m), &g.name(m.to()).to_string()).unwrap();
        let text = move_to_usi::<Micro>(m);
        if before == 'K' {
            assert_eq!(now, 'K');
            assert!(!text.ends_with('+'), "{text}");
        } else if capture {
            assert_eq!(now, other_face(before), "{text} in {}", to_sfen(p));
            assert!(text.ends_with('+'), "{text}");
            seen.1 += 1;
        } else {
            assert_eq!(now, before, "{text} in {}", to_sfen(p));
            assert!(!text.ends_with('+'), "{text}");
            seen.0 += 1;
        }
    }
    seen
}

#[test]
fn start_position_is_the_seed_table() {
    // Seed: rank a (White) K B G S from file 4 to 1, White's pawn on 4b, Black's pawn on 1d,
    // rank e (Black) S G B K.
    let p = P::start();
    assert_eq!(to_sfen(&p), "kbgs/p3/4/3P/SGBK b - 1");
    for (sq, l) in [
        ("4e", 'S'),
        ("3e", 'G'),
        ("2e", 'B'),
        ("1e", 'K'),
        ("1d", 'P'),
    ] {
        assert_eq!(letter_at(&p, sq), Some(l), "{sq}");
    }
    for (sq, l) in [
        ("4a", 'K'),
        ("3a", 'B'),
        ("2a", 'G'),
        ("1a", 'S'),
        ("4b", 'P'),
    ] {
        assert_eq!(letter_at(&p, sq), Some(l), "{sq}");
    }
}

#[test]
fn non_captures_never_flip() {
    let (quiet, captures) = flips_exactly_on_captures(&P::start());
    assert!(quiet > 0);
    assert_eq!(captures, 0, "nothing can be taken at the start");
    assert_eq!(
        sfen_after::<Micro>("kbgs/p3/4/3P/SGBK b - 1", &["1d1c"]),
        "kbgs/p3/3P/4/SGBK w - 2"
    );
    assert!(!is_legal_usi(&P::start(), "1d1c+"));
}

#[test]
fn a_capture_by_a_non_king_piece_flips_it() {
    //   k . . .
    //   . g s .       Black's rook, lance, tokin and knight all have captures:
    //   b R L p       R takes g or b, L takes s, N takes s, T takes b.
    //   . T . N
    //   K . . .
    let p = pos::<Micro>("k3/1gs1/bRLp/1T1N/K3 b - 1");
    let (quiet, captures) = flips_exactly_on_captures(&p);
    assert!(quiet > 0 && captures >= 5, "{quiet} {captures}");
    // The gold takes a pawn and shows its rook face; the pair goes to hand.
    assert_eq!(
        sfen_after::<Micro>("k3/4/1p2/1G2/3K b - 1", &["3d3c+"]),
        "k3/4/1R2/4/3K w P 2"
    );
    // And back: the rook takes and shows its gold face again.
    assert_eq!(
        sfen_after::<Micro>("k3/1p2/1R2/4/3K b - 1", &["3c3b+"]),
        "k3/1G2/4/4/3K w P 2"
    );
}

#[test]
fn the_king_never_flips_and_captures_go_to_hand_as_pairs() {
    for (face, hand) in [
        ('s', 'S'),
        ('l', 'S'),
        ('b', 'B'),
        ('t', 'B'),
        ('g', 'G'),
        ('r', 'G'),
        ('p', 'P'),
        ('n', 'P'),
    ] {
        let sfen = format!("k3/4/1{face}2/1K2/4 b - 1");
        let p = pos::<Micro>(&sfen);
        assert!(is_legal_usi(&p, "3d3c"), "{sfen}");
        assert!(!is_legal_usi(&p, "3d3c+"), "{sfen}");
        assert_eq!(
            sfen_after::<Micro>(&sfen, &["3d3c"]),
            format!("k3/4/1K2/4/4 w {hand} 2"),
            "{sfen}"
        );
        // The pair can come back with either face.
        let q = after(&after(&p, "3d3c"), "4a3a");
        let (a, b) = PAIRS.iter().find(|x| x.0 == hand).copied().unwrap();
        assert!(is_legal_usi(&q, &format!("{a}*1a")), "{sfen}");
        assert!(is_legal_usi(&q, &format!("{b}*1a")), "{sfen}");
    }
}

#[test]
fn drops_with_either_face() {
    let p = pos::<Micro>("k3/4/4/4/3K b P 1");
    let drops: Vec<String> = legal_usi(&p)
        .into_iter()
        .filter(|m| m.contains('*'))
        .collect();
    assert_eq!(drops.len(), 36, "18 empty squares, two faces: {drops:?}");
    assert_eq!(to_sfen(&after(&p, "P*2c")), "k3/4/2P1/4/3K w - 2");
    assert_eq!(to_sfen(&after(&p, "N*2c")), "k3/4/2N1/4/3K w - 2");
    assert_eq!(
        pos::<Micro>("k3/4/4/4/3K b N 1"),
        p,
        "N in hand is the P/N pair"
    );
}

#[test]
fn pawn_drop_mate_is_legal_and_checkmates() {
    //   k . . .      White king in the corner; the silver covers 3a, the gold covers 3b
    //   . . S .      and guards 4b. P*4b is mate.
    //   . G . .
    //   . . . .
    //   . . . K
    let p = pos::<Micro>("k3/2S1/1G2/4/3K b P 1");
    let mut game = Game::new(p);
    let mate = Some(Outcome::Win {
        winner: Color::Black,
        reason: WinReason::Checkmate,
    });
    assert_eq!(play_all(&mut game, &["P*4b"]), vec![mate]);
    assert!(game.position().in_check());
    assert!(game.position().legal_moves().is_empty());
}

#[test]
fn two_pawns_on_a_file_are_legal() {
    let p = pos::<Micro>("k3/4/2P1/4/3K b P 1");
    assert!(is_legal_usi(&p, "P*2d"));
    assert!(is_legal_usi(&p, "P*2b"));
    assert_eq!(to_sfen(&after(&p, "P*2d")), "k3/4/2P1/2P1/3K w - 2");
}

#[test]
fn trapped_pieces_are_legal() {
    let p = pos::<Micro>("k3/4/4/4/3K b PS 1");
    for m in ["N*2a", "N*2b", "P*2a", "L*2a", "N*1a"] {
        assert!(is_legal_usi(&p, m), "{m}");
    }
    // A knight dropped on rank a never moves again.
    let q = after(&after(&p, "N*2a"), "4a4b");
    assert!(!legal_usi(&q).iter().any(|m| m.starts_with("2a")));
    // A pawn that captures on rank b becomes a knight there, which can never move.
    assert_eq!(
        sfen_after::<Micro>("k3/2p1/2P1/4/3K b - 1", &["2c2b+"]),
        "k3/2N1/4/4/3K w P 2"
    );
    // A pawn that steps quietly onto rank a stays a pawn, trapped.
    assert_eq!(
        sfen_after::<Micro>("k3/2P1/4/4/3K b - 1", &["2b2a"]),
        "k1P1/4/4/4/3K w - 2"
    );
}

#[test]
fn stalemate_loses_for_the_side_to_move() {
    //   k . . .      White to move, not in check; 3a, 3b and 4b are all covered.
    //   . . S .
    //   . G . .
    //   . . . .
    //   . . . K
    assert_eq!(Micro::STALEMATE, StalemateRule::Loss);
    let p = pos::<Micro>("k3/2S1/1G2/4/3K w - 1");
    assert!(!p.in_check());
    assert_eq!(perft(&mut p.clone(), 1), 0);
    let win = Some(Outcome::Win {
        winner: Color::Black,
        reason: WinReason::Stalemate,
    });
    assert_eq!(p.outcome(), win);
    assert_eq!(Game::new(p).outcome(), win);
}

#[test]
fn fourfold_repetition_draws_not_at_the_third() {
    assert_eq!(
        Micro::REPETITION,
        RepetitionRule {
            occurrences: 4,
            perpetual_check_loses: true,
            repeater_loses: false
        }
    );
    // Both kings step out and back; the start occurs at plies 0, 4, 8 and 12.
    let mut game = Game::new(P::start());
    let cycle = ["1e2d", "4a3b", "2d1e", "3b4a"];
    let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
    let out = play_all(&mut game, &moves);
    assert_eq!(out[7], None, "the third occurrence does not end the game");
    assert_eq!(out[..11], [None; 11]);
    assert_eq!(
        out[11],
        Some(Outcome::Draw {
            reason: DrawReason::Repetition
        })
    );
    assert_eq!(game.occurrences(), 4);
}

#[test]
fn perpetual_check_loses_for_the_checking_side() {
    //   k . . .      Black's rook checks on every Black move: 3c4c (check on file 4),
    //   . . . .      White 4a3a, 4c3c (check on file 3), White 3a4a.
    //   . R . .
    //   . . . .
    //   . . . K
    let mut game = Game::new(pos::<Micro>("k3/4/1R2/4/3K b - 1"));
    let cycle = ["3c4c", "4a3a", "4c3c", "3a4a"];
    let mut out = Vec::new();
    for (i, m) in cycle.iter().cycle().take(12).enumerate() {
        out.extend(play_all(&mut game, &[m]));
        assert_eq!(game.position().in_check(), i % 2 == 0, "move {m}");
    }
    assert_eq!(out[..11], [None; 11], "no result at the third occurrence");
    assert_eq!(
        out[11],
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::PerpetualCheck
        })
    );
}

#[test]
fn perpetual_check_by_white_loses_for_white() {
    //   k . . .      White to move. 3c1c checks along file 1; Black 1e2e; 1c2c checks along
    //   . . . .      file 2; Black 2e1e; 2c1c checks again, and so on. The position after
    //   . r . .      3c1c occurs after plies 1, 5, 9 and 13: every White move in that cycle
    //   . . . .      gave check, no Black move did, so White loses at the fourth occurrence.
    //   . . . K
    let mut game = Game::new(pos::<Micro>("k3/4/1r2/4/3K w - 1"));
    let cycle = ["1e2e", "1c2c", "2e1e", "2c1c"];
    let mut moves = vec!["3c1c"];
    moves.extend(cycle.iter().cycle().take(12));
    let mut out = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        out.extend(play_all(&mut game, &[m]));
        assert_eq!(game.position().in_check(), i % 2 == 0, "move {m}");
    }
    assert_eq!(out[..12], [None; 12]);
    assert_eq!(
        out[12],
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::PerpetualCheck
        })
    );
}
