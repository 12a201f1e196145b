//! The mechanisms core gained for Tori Shogi, each on a 5x5 toy variant defined here (core
//! has no rules crate as a dependency): a ranged slide (blocked like a slide, checking and
//! pinning only within its range), a check by a jump along a line (no interposition), a
//! pinned jumper that may not leap past its pinner, a hand of sixteen, and a repetition lost
//! by the side that completes it, with perpetual check first.
//!
//! Every expected value is worked out by hand in the comments, from the movements below.

use kshogi_core::{
    Color, Game, Geometry, GroupLimit, Kind, Move, Movement, Outcome, PieceDef, Position,
    PositionError, RepetitionRule, Setup, Square, StalemateRule, Tables, Variant, WinReason,
};

const KING: Kind = Kind(0);
/// Steps one square forward, and moves up to two squares diagonally back (the eagle's
/// ranged slide).
const HAWK: Kind = Kind(1);
/// One step forward.
const SWALLOW: Kind = Kind(2);
/// Jumps two squares straight forward (the pheasant's jump).
const JUMPER: Kind = Kind(3);
const ROOK: Kind = Kind(4);

const HAWK_MOVES: Movement = Movement {
    steps: &[(0, 1)],
    slides: &[],
    ranged: &[((1, -1), 2), ((-1, -1), 2)],
};
const JUMPER_MOVES: Movement = Movement {
    steps: &[(0, 2)],
    slides: &[],
    ranged: &[],
};

const PIECES: &[PieceDef] = &[
    PieceDef::new("king", 'K', '玉', "玉", Movement::KING).royal(),
    PieceDef::new("hawk", 'H', '鷹', "鷹", HAWK_MOVES).captured_to(0),
    PieceDef::new("swallow", 'S', '燕', "燕", Movement::PAWN).captured_to(1),
    PieceDef::new("jumper", 'J', '雉', "雉", JUMPER_MOVES).captured_to(2),
    PieceDef::new("rook", 'R', '飛', "飛", Movement::ROOK).captured_to(3),
];

const GEOMETRY: Geometry = Geometry::new(5, 5);
static TABLES: Tables = Tables::build(GEOMETRY, PIECES, 7);

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Birds;

impl Variant for Birds {
    const NAME: &'static str = "birds";
    const DISPLAY_NAME: &'static str = "Bird Toy";
    const KIF_NAMES: &'static [&'static str] = &["birds"];
    const GEOMETRY: Geometry = GEOMETRY;
    const PIECES: &'static [PieceDef] = PIECES;
    const STALEMATE: StalemateRule = StalemateRule::Loss;
    // The second occurrence ends the game, to keep the games below short.
    const REPETITION: RepetitionRule = RepetitionRule {
        occurrences: 2,
        perpetual_check_loses: true,
        repeater_loses: true,
    };
    type Extra = ();

    fn tables() -> &'static Tables {
        &TABLES
    }

    fn start() -> Setup<Birds> {
        let mut s = Setup::empty();
        s.put(5, 4, Color::Black, KING)
            .put(1, 0, Color::White, KING);
        s
    }

    fn group_limit(group: u8) -> GroupLimit {
        // Sixteen swallows (group 2), one of everything else per side.
        let total = if group == 2 { 16 } else { 2 };
        GroupLimit {
            total,
            per_side: total,
        }
    }
}

fn sq(name: &str) -> Square {
    GEOMETRY.parse_square(name).unwrap()
}

/// A position from pieces given as `(square, color, kind)`, with `side` to move.
fn position(pieces: &[(&str, Color, Kind)], side: Color) -> Result<Position<Birds>, PositionError> {
    let mut s = Setup::<Birds>::empty();
    for &(name, color, kind) in pieces {
        s.board[sq(name).index()] = Some(kshogi_core::Piece::new(color, kind));
    }
    s.side = side;
    Position::from_setup(&s)
}

/// The destinations of the legal moves from `from`, sorted.
fn targets(pos: &Position<Birds>, from: &str) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.from() == Some(sq(from)))
        .map(|m| GEOMETRY.name(m.to()).to_string())
        .collect();
    v.sort();
    v
}

use Color::{Black, White};

#[test]
fn a_ranged_slide_goes_two_squares_unless_blocked() {
    // Black's hawk on 3c: one step forward to 3b, and diagonally back (toward rank e) to 2d
    // and 1e, 4d and 5e. Kings on 5a and 1a, out of the way.
    let open = position(
        &[
            ("5a", Black, KING),
            ("1a", White, KING),
            ("3c", Black, HAWK),
        ],
        Black,
    )
    .unwrap();
    assert_eq!(targets(&open, "3c"), vec!["1e", "2d", "3b", "4d", "5e"]);
    // A White swallow on 2d may be captured but hides 1e; a Black swallow on 4d hides 4d
    // itself and 5e.
    let blocked = position(
        &[
            ("5a", Black, KING),
            ("1a", White, KING),
            ("3c", Black, HAWK),
            ("2d", White, SWALLOW),
            ("4d", Black, SWALLOW),
        ],
        Black,
    )
    .unwrap();
    assert_eq!(targets(&blocked, "3c"), vec!["2d", "3b"]);
    // From 3a the range ends at 1c and 5c: 2b, 1c, 4b, 5c (no forward square on rank a).
    let edge = position(
        &[
            ("5e", Black, KING),
            ("1e", White, KING),
            ("3a", Black, HAWK),
        ],
        Black,
    )
    .unwrap();
    assert_eq!(targets(&edge, "3a"), vec!["1c", "2b", "4b", "5c"]);
}

#[test]
fn a_ranged_slide_checks_and_pins_within_its_range_only() {
    // White's king on 1e, Black's hawk on 3c: two squares away on the diagonal, in range.
    let check = position(
        &[
            ("5a", Black, KING),
            ("1e", White, KING),
            ("3c", Black, HAWK),
        ],
        White,
    )
    .unwrap();
    assert!(check.in_check());
    // From 4b the king is three squares away: out of range, no check.
    let far = position(
        &[
            ("5a", Black, KING),
            ("1e", White, KING),
            ("4b", Black, HAWK),
        ],
        White,
    )
    .unwrap();
    assert!(!far.in_check());
    // A White swallow on 2d between the hawk on 3c and the king on 1e is pinned: its one
    // move, 2d2e, would expose the king. With the hawk on 4b (king out of range) it is free.
    let pinned = position(
        &[
            ("5a", Black, KING),
            ("1e", White, KING),
            ("3c", Black, HAWK),
            ("2d", White, SWALLOW),
        ],
        White,
    )
    .unwrap();
    assert_eq!(targets(&pinned, "2d"), Vec::<String>::new());
    let free = position(
        &[
            ("5a", Black, KING),
            ("1e", White, KING),
            ("4b", Black, HAWK),
            ("2d", White, SWALLOW),
        ],
        White,
    )
    .unwrap();
    assert_eq!(targets(&free, "2d"), vec!["2e"]);
    // A discovered ranged check: Black's swallow on 2d, between the hawk on 3c and White's
    // king on 1e, steps to 2c and uncovers the hawk.
    let discovered = position(
        &[
            ("5a", Black, KING),
            ("1e", White, KING),
            ("3c", Black, HAWK),
            ("2d", Black, SWALLOW),
        ],
        Black,
    )
    .unwrap();
    let mv = Move::board(sq("2d"), sq("2c"), false);
    assert!(discovered.is_legal(mv));
    assert!(discovered.gives_check(mv));
    assert!(discovered.after(mv).in_check());
}

#[test]
fn a_check_by_a_jump_along_a_line_cannot_be_blocked() {
    // Black's jumper on 3c checks White's king on 3a over 3b. White holds a swallow; a drop
    // on 3b would interpose against a slider, but not against a jump. White's king may go to
    // 2a, 4a, 2b, 3b or 4b (the jumper attacks only 3a); no drop is legal.
    let mut s = Setup::<Birds>::empty();
    s.put(5, 4, Color::Black, KING)
        .put(3, 0, Color::White, KING)
        .put(3, 2, Color::Black, JUMPER);
    s.hands[White.index()][1] = 1;
    s.side = White;
    let pos = Position::from_setup(&s).unwrap();
    assert!(pos.in_check());
    assert!(pos.legal_moves().iter().all(|m| !m.is_drop()));
    assert_eq!(targets(&pos, "3a"), vec!["2a", "2b", "3b", "4a", "4b"]);
}

#[test]
fn a_pinned_jumper_may_not_leap_past_its_pinner() {
    // Black's king on 3e, Black's jumper on 3d, White's rook on 3c pinning it. The jumper's
    // only move would be 3d3b, over the rook and off the stretch between king and rook.
    let pos = position(
        &[
            ("3e", Black, KING),
            ("1a", White, KING),
            ("3d", Black, JUMPER),
            ("3c", White, ROOK),
        ],
        Black,
    )
    .unwrap();
    assert_eq!(targets(&pos, "3d"), Vec::<String>::new());
    // Unpinned (the rook moved aside to 2c), 3d3b is legal.
    let free = position(
        &[
            ("3e", Black, KING),
            ("1a", White, KING),
            ("3d", Black, JUMPER),
            ("2c", White, ROOK),
        ],
        Black,
    )
    .unwrap();
    assert_eq!(targets(&free, "3d"), vec!["3b"]);
}

#[test]
fn a_hand_holds_sixteen_of_a_kind() {
    let mut s = Setup::<Birds>::empty();
    s.put(5, 4, Color::Black, KING)
        .put(1, 0, Color::White, KING);
    s.hands[Black.index()][1] = 16;
    let mut pos = Position::from_setup(&s).unwrap();
    assert_eq!(pos.hand(Black, 1), 16);
    assert_eq!(pos.hash(), pos.compute_hash());
    // Sixteen and fifteen swallows in hand hash differently.
    let mut fifteen = s.clone();
    fifteen.hands[Black.index()][1] = 15;
    assert_ne!(Position::from_setup(&fifteen).unwrap().hash(), pos.hash());
    // A drop leaves fifteen, and taking it back sixteen, with the hash kept up to date.
    let before = pos;
    let mv = Move::drop(SWALLOW, sq("3c"));
    let undo = pos.make(mv);
    assert_eq!(pos.hand(Black, 1), 15);
    assert_eq!(pos.hash(), pos.compute_hash());
    pos.unmake(mv, undo);
    assert_eq!(pos, before);
    assert_eq!(pos.hash(), before.hash());
    // Seventeen is more than the set holds (a clear error, not a panic).
    let mut seventeen = s;
    seventeen.hands[Black.index()][1] = 17;
    assert!(matches!(
        Position::from_setup(&seventeen),
        Err(PositionError::TooManyPieces { count: 17, .. })
    ));
}

fn play(game: &mut Game<Birds>, from: &str, to: &str) {
    game.play(Move::board(sq(from), sq(to), false)).unwrap();
}

#[test]
fn the_side_completing_a_repetition_loses() {
    // Kings only: 5e4e 1a2a 4e5e 2a1a brings back the start (Black to move) for the second
    // time, completed by White's move: Black wins.
    let mut game = Game::new(Position::<Birds>::start());
    play(&mut game, "5e", "4e");
    play(&mut game, "1a", "2a");
    play(&mut game, "4e", "5e");
    assert_eq!(game.outcome(), None);
    play(&mut game, "2a", "1a");
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: Black,
            reason: WinReason::Repetition
        })
    );
}

#[test]
fn perpetual_check_loses_even_for_the_side_that_did_not_complete_the_repetition() {
    // Black: king 5e, rook 1c; White: king 2a; Black to move. 1c2c+ 2a1a 2c1c+ 1a2a brings
    // the start back, completed by White, but Black checked with every move of the cycle and
    // White with none: White wins by perpetual check, not Black by repetition.
    let start = position(
        &[
            ("5e", Black, KING),
            ("2a", White, KING),
            ("1c", Black, ROOK),
        ],
        Black,
    )
    .unwrap();
    let mut game = Game::new(start);
    play(&mut game, "1c", "2c");
    play(&mut game, "2a", "1a");
    play(&mut game, "2c", "1c");
    assert_eq!(game.outcome(), None);
    play(&mut game, "1a", "2a");
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: White,
            reason: WinReason::PerpetualCheck
        })
    );
}
