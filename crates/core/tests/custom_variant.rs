//! A variant defined outside core, as a new crate would: a 3x3 toy with a king and a rook
//! that may (not must) promote to a dragon on the farthest rank, and drops. It exercises the
//! parts of the trait the three shipped variants leave alone (optional flips, a piece with
//! both steps and slides) and shows that a variant needs nothing but the trait.
//!
//! Expected counts are worked out by hand in the comments.

use kshogi_core::{
    perft, Color, Flip, Geometry, GroupLimit, Kind, Movement, Outcome, PieceDef, Position,
    RepetitionRule, Setup, Square, StalemateRule, Tables, Variant, WinReason,
};

const KING: Kind = Kind(0);
const ROOK: Kind = Kind(1);
const DRAGON: Kind = Kind(2);

const DRAGON_MOVES: Movement = Movement {
    steps: &[(1, 1), (-1, 1), (1, -1), (-1, -1)],
    slides: &[(0, 1), (0, -1), (1, 0), (-1, 0)],
    ranged: &[],
};

const PIECES: &[PieceDef] = &[
    PieceDef::new("king", 'K', '玉', "玉", Movement::KING).royal(),
    PieceDef::new("rook", 'R', '飛', "飛", Movement::ROOK)
        .flips_to(DRAGON)
        .captured_to(0),
    PieceDef::new("dragon", 'R', '龍', "龍", DRAGON_MOVES)
        .written_promoted()
        .flips_to(ROOK)
        .captured_to(0),
];

const GEOMETRY: Geometry = Geometry::new(3, 3);
static TABLES: Tables = Tables::build(GEOMETRY, PIECES, 42);

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Toy;

impl Variant for Toy {
    const NAME: &'static str = "toy";
    const DISPLAY_NAME: &'static str = "Toy Shogi";
    const KIF_NAMES: &'static [&'static str] = &["toy"];
    const GEOMETRY: Geometry = GEOMETRY;
    const PIECES: &'static [PieceDef] = PIECES;
    const STALEMATE: StalemateRule = StalemateRule::Draw;
    const REPETITION: RepetitionRule = RepetitionRule {
        occurrences: 3,
        perpetual_check_loses: false,
        repeater_loses: false,
    };
    const NO_OPTIONAL_FLIPS: bool = false;
    type Extra = ();

    fn tables() -> &'static Tables {
        &TABLES
    }

    fn start() -> Setup<Toy> {
        let mut s = Setup::empty();
        s.put(1, 2, Color::Black, KING)
            .put(3, 2, Color::Black, ROOK)
            .put(2, 0, Color::White, KING);
        s
    }

    fn flip(kind: Kind, color: Color, _from: Square, to: Square, _capture: bool) -> Flip {
        if kind == ROOK && TABLES.farthest_rank[color.index()].has(to) {
            Flip::Optional
        } else {
            Flip::Never
        }
    }

    fn group_limit(_group: u8) -> GroupLimit {
        GroupLimit {
            total: 2,
            per_side: 2,
        }
    }
}

fn sq(name: &str) -> Square {
    GEOMETRY.parse_square(name).unwrap()
}

#[test]
fn optional_promotion_doubles_the_move() {
    // Black: king 1c, rook 3c; White: king 2a. The king may only go to 2c (1b and 2b touch
    // White's king). The rook reaches 3b, 3a and 2c; on 3a it may promote or not: 4 moves.
    let pos = Position::<Toy>::start();
    assert_eq!(pos.count_legal(), 5);
    assert_eq!(pos.legal_moves().len(), 5);
    let promotions = pos.legal_moves().iter().filter(|m| m.is_flip()).count();
    assert_eq!(promotions, 1);
}

#[test]
fn dragon_steps_and_slides() {
    // After 3c3a+ the dragon on 3a checks White's king on 2a along the rank.
    let mut pos = Position::<Toy>::start();
    let mv = *pos
        .legal_moves()
        .iter()
        .find(|m| m.from() == Some(sq("3c")) && m.to() == sq("3a") && m.is_flip())
        .unwrap();
    pos.make(mv);
    assert_eq!(pos.piece_at(sq("3a")).unwrap().kind, DRAGON);
    assert!(pos.in_check());
    // White's king on 2a: 1a stays attacked along the rank (the king does not shield its own
    // escape square), 1b and 2b touch Black's king on 1c (2b is also a dragon step), 3b is
    // on the dragon's file. Only the capture on 3a remains: nothing defends the dragon.
    let mut targets: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| GEOMETRY.name(m.to()).to_string())
        .collect();
    targets.sort();
    assert_eq!(targets, vec!["3a"]);
}

#[test]
fn capture_goes_to_hand_and_drops_follow() {
    // Continue: White's king takes the dragon, which goes to White's hand as slot 0.
    let mut pos = Position::<Toy>::start();
    let promote = *pos
        .legal_moves()
        .iter()
        .find(|m| m.to() == sq("3a") && m.is_flip())
        .unwrap();
    pos.make(promote);
    let take = *pos
        .legal_moves()
        .iter()
        .find(|m| m.to() == sq("3a"))
        .unwrap();
    pos.make(take);
    assert_eq!(pos.hand(Color::White, 0), 1);
    assert_eq!(pos.hash(), pos.compute_hash());
    // Black (king 1c alone) has moves; White then may drop a rook (either face) anywhere
    // empty. Black moves its king to 1b: then 6 empty squares remain for the drop, 2 faces
    // each, plus White's king moves (3a: to 2a, 3b, 2b; 2a and 2b touch... see below).
    let kmove = *pos
        .legal_moves()
        .iter()
        .find(|m| m.to() == sq("1b"))
        .unwrap();
    pos.make(kmove);
    let drops = pos.legal_moves().iter().filter(|m| m.is_drop()).count();
    // Empty squares: 9 minus the two kings = 7; two faces each.
    assert_eq!(drops, 14);
    assert_eq!(perft(&mut pos, 1), pos.legal_moves().len() as u64);
}

#[test]
fn bare_kings_stalemate_rule_is_the_variants() {
    // White king 1a, Black king 1c and rook 2c... White to move: 1a's neighbours are 2a
    // (rook file 2 attacks it), 1b (Black king touches), 2b (rook and king): no move, no
    // check: stalemate, which this toy variant scores as a draw.
    let mut s = Setup::<Toy>::empty();
    s.put(1, 0, Color::White, KING)
        .put(1, 2, Color::Black, KING)
        .put(2, 2, Color::Black, ROOK);
    s.side = Color::White;
    let pos = Position::from_setup(&s).unwrap();
    assert!(!pos.in_check());
    assert_eq!(pos.count_legal(), 0);
    assert!(matches!(pos.outcome(), Some(Outcome::Draw { .. })));
    // Rooks on 1c and 3a both check the king on 1a; 2a is on 3a's rank, 1b on 1c's file,
    // 1b and 2b touch Black's king on 2c: checkmate.
    let mut s2 = Setup::<Toy>::empty();
    s2.put(1, 0, Color::White, KING)
        .put(2, 2, Color::Black, KING)
        .put(1, 2, Color::Black, ROOK)
        .put(3, 0, Color::Black, ROOK);
    s2.side = Color::White;
    let pos2 = Position::from_setup(&s2).unwrap();
    assert_eq!(
        pos2.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Checkmate
        })
    );
}

#[test]
fn a_null_move_passes_and_comes_back() {
    let mut pos = Position::<Toy>::start();
    let before = pos;
    pos.make_null();
    assert_eq!(pos.side_to_move(), Color::White);
    assert_eq!(pos.ply(), before.ply() + 1);
    assert_ne!(pos.hash(), before.hash());
    assert_eq!(pos.hash(), pos.compute_hash());
    // White's moves are those it would have if Black had passed: its own pieces move.
    assert!(pos.legal_moves().iter().all(|m| m.is_drop()
        || m.from().and_then(|f| pos.piece_at(f)).map(|p| p.color) == Some(Color::White)));
    pos.unmake_null();
    assert_eq!(pos, before);
    assert_eq!(pos.hash(), before.hash());
}
