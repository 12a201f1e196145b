//! Perft takes shortcuts that the plain move generator does not: it makes moves straight
//! from the bundles, counts the last ply with popcounts, and in a variant without sliders it
//! derives each child's checks and attacked squares from its parent instead of finding them.
//! These tests count the same trees the slow way (a list of legal moves per position, each
//! made and taken back) and compare, for a variant without sliders that has what the shipped
//! ones leave out: drops, optional promotion, and a jumping piece.

use kshogi_core::{
    divide, divide_parallel, perft, perft_parallel, Color, Flip, Geometry, GroupLimit, Kind,
    Movement, PieceDef, Position, RepetitionRule, Setup, Square, StalemateRule, Tables, Variant,
};

const KING: Kind = Kind(0);
const SILVER: Kind = Kind(1);
const GOLD: Kind = Kind(2);
const KNIGHT: Kind = Kind(3);

const PIECES: &[PieceDef] = &[
    PieceDef::new("king", 'K', '駒', "駒", Movement::KING).royal(),
    PieceDef::new("silver", 'S', '駒', "駒", Movement::SILVER)
        .flips_to(GOLD)
        .captured_to(0),
    PieceDef::new("promoted silver", 'S', '駒', "駒", Movement::GOLD)
        .written_promoted()
        .flips_to(SILVER)
        .captured_to(0),
    PieceDef::new("knight", 'N', '駒', "駒", Movement::KNIGHT).captured_to(1),
];

const GEOMETRY: Geometry = Geometry::new(3, 4);
static TABLES: Tables = Tables::build(GEOMETRY, PIECES, 7);

/// A 3x4 toy without sliders: kings, silvers that may promote on the farthest rank, knights,
/// and drops of both.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Steps;

impl Variant for Steps {
    const NAME: &'static str = "steps";
    const DISPLAY_NAME: &'static str = "Steps Shogi";
    const KIF_NAMES: &'static [&'static str] = &["toy"];
    const GEOMETRY: Geometry = GEOMETRY;
    const PIECES: &'static [PieceDef] = PIECES;
    const STALEMATE: StalemateRule = StalemateRule::Loss;
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

    fn start() -> Setup<Steps> {
        let mut s = Setup::empty();
        s.put(1, 3, Color::Black, SILVER)
            .put(2, 3, Color::Black, KING)
            .put(3, 3, Color::Black, KNIGHT)
            .put(3, 0, Color::White, SILVER)
            .put(2, 0, Color::White, KING)
            .put(1, 0, Color::White, KNIGHT);
        s
    }

    fn flip(kind: Kind, color: Color, _from: Square, to: Square, _capture: bool) -> Flip {
        if kind == SILVER && TABLES.farthest_rank[color.index()].has(to) {
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

/// Perft the slow way: every position's legal moves as a list, each made and taken back,
/// the last ply counted as the length of the list.
fn slow_perft<V: Variant>(pos: &mut Position<V>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut n = 0;
    for &mv in moves.iter() {
        let undo = pos.make(mv);
        n += slow_perft(pos, depth - 1);
        pos.unmake(mv, undo);
    }
    n
}

/// Positions reached by a few fixed walks through the tree (the `(i * stride + 3)`-th legal
/// move at ply `i`), so that captures, pieces in hand, promotions and checks come up.
fn walks<V: Variant>(plies: usize) -> Vec<Position<V>> {
    let mut seen = Vec::new();
    for stride in [7, 5, 2] {
        let mut pos = Position::<V>::start();
        seen.push(pos);
        for i in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make(moves[(i * stride + 3) % moves.len()]);
            seen.push(pos);
        }
    }
    seen
}

#[test]
fn perft_counts_what_the_move_list_counts() {
    for (i, start) in walks::<Steps>(24).into_iter().enumerate() {
        for depth in 0..=5 {
            let mut pos = start;
            let fast = perft(&mut pos, depth);
            assert_eq!(pos, start, "perft restores the position");
            assert_eq!(pos.hash(), start.hash());
            assert_eq!(
                fast,
                slow_perft(&mut pos.clone(), depth),
                "position {i} of the walk, depth {depth}"
            );
        }
    }
}

#[test]
fn the_walk_meets_drops_promotions_and_checks() {
    // Otherwise the test above would not test much.
    let positions = walks::<Steps>(24);
    let any = |f: &dyn Fn(&Position<Steps>) -> bool| positions.iter().any(f);
    assert!(any(&|p| p.legal_moves().iter().any(|m| m.is_drop())));
    assert!(any(&|p| p.legal_moves().iter().any(|m| m.is_flip())));
    assert!(any(&|p| p.in_check()));
}

#[test]
fn parallel_perft_and_divide_agree() {
    let start = Position::<Steps>::start();
    for depth in [3, 5, 6] {
        let n = perft(&mut start.clone(), depth);
        assert_eq!(perft_parallel(&start, depth, 2), n);
        assert_eq!(perft_parallel(&start, depth, 3), n);
        let serial = divide(&mut start.clone(), depth);
        assert_eq!(divide_parallel(&start, depth, 2), serial);
        assert_eq!(serial.iter().map(|&(_, k)| k).sum::<u64>(), n);
    }
}

/// Minishogi and Dobutsu take shortcuts of their own: a bundle with optional promotions is
/// counted by a mask of the destinations where promoting is optional (instead of asking the
/// flip rule of each), and Dobutsu's last ply is counted from its parent (`Replies`: without
/// the check rule and sliders, the opponent's board moves change only by a capture). The
/// slow count asks the flip rule of every move and counts the moves of every child, so the
/// two agree only if the shortcuts do (walks of 30 plies, with captures, promotions and
/// drops). Perft must also restore the hash, which it does not update below the root.
#[test]
fn minishogi_and_dobutsu_shortcuts_count_what_the_move_list_counts() {
    fn check<V: Variant>(plies: usize, max_depth: u32) {
        for (i, start) in walks::<V>(plies).into_iter().enumerate() {
            for depth in 0..=max_depth {
                let mut pos = start;
                let fast = perft(&mut pos, depth);
                assert_eq!(pos, start, "{}: perft restores the position", V::NAME);
                assert_eq!(pos.hash(), start.hash(), "{}: and its hash", V::NAME);
                assert_eq!(pos.hash(), pos.compute_hash());
                assert_eq!(
                    fast,
                    slow_perft(&mut pos.clone(), depth),
                    "{} position {i} of the walk, depth {depth}",
                    V::NAME
                );
            }
        }
    }
    check::<kshogi_rules_minishogi::Minishogi>(30, 3);
    check::<kshogi_rules_dobutsu::Dobutsu>(30, 4);
}

/// In a variant with the check rule and sliders (Kyoto, Micro, Minishogi), perft counts the
/// moves of the opponent's plain steppers at the last ply from their sum at the parent
/// (`StepperMoves`), corrected for captures and pins, and in Minishogi counts the replies to
/// a move that captures nothing and gives no check without making it. The slow count
/// generates every child's moves, so the two agree only if the shortcuts do: walks of 40
/// plies, whose positions have pieces in hand, pins and checks (asserted, or the test would
/// not test much).
#[test]
fn slider_variants_shortcuts_count_what_the_move_list_counts() {
    fn check<V: Variant>(plies: usize) {
        let positions = walks::<V>(plies);
        for (i, &start) in positions.iter().enumerate() {
            for depth in 2..=3 {
                let mut pos = start;
                let fast = perft(&mut pos, depth);
                assert_eq!(pos, start, "{}: perft restores the position", V::NAME);
                assert_eq!(
                    fast,
                    slow_perft(&mut pos.clone(), depth),
                    "{} position {i} of the walk, depth {depth}",
                    V::NAME
                );
            }
        }
        let children: Vec<Position<V>> = positions
            .iter()
            .flat_map(|p| {
                p.legal_moves()
                    .iter()
                    .map(|&mv| p.after(mv))
                    .collect::<Vec<_>>()
            })
            .collect();
        let any = |f: &dyn Fn(&Position<V>) -> bool| children.iter().any(f);
        assert!(any(&|p| p.pinned().any()), "{}: no pin met", V::NAME);
        assert!(any(&|p| p.in_check()), "{}: no check met", V::NAME);
        assert!(
            any(&|p| p.legal_moves().iter().any(|m| m.is_drop())),
            "{}: no drop met",
            V::NAME
        );
    }
    check::<kshogi_rules_kyoto::Kyoto>(40);
    check::<kshogi_rules_micro::Micro>(40);
    check::<kshogi_rules_minishogi::Minishogi>(40);
}

/// Perft counts Dobutsu's last ply without making the move when the variant promises that
/// the try cannot be decided after it (`Variant::no_adjudication_after`). The promise is
/// checked here against the rule itself: for every legal move of the positions of the walks
/// and of their children, a promise means that the position after the move is not
/// adjudicated. The walks must also meet moves after which the try is decided (where the
/// promise must not be given), or the test would not test much.
#[test]
fn dobutsu_promises_no_try_only_where_there_is_none() {
    use kshogi_rules_dobutsu::Dobutsu;
    let mut positions = Vec::new();
    for start in walks::<Dobutsu>(40) {
        positions.push(start);
        for &mv in start.legal_moves().iter() {
            positions.push(start.after(mv));
        }
    }
    let (mut promised, mut decided) = (0, 0);
    for pos in positions {
        if pos.outcome().is_some() {
            continue;
        }
        for &mv in pos.legal_moves().iter() {
            let child = pos.after(mv);
            let now = child.piece_at(mv.to()).map(|p| p.kind).unwrap_or(Kind(0));
            let promise = Dobutsu::no_adjudication_after(&pos, mv.from(), mv.to(), now);
            let adjudicated = Dobutsu::adjudicate(&child).is_some();
            assert!(
                !(promise && adjudicated),
                "{mv:?} in {pos:?}: promised no adjudication, but the try decides"
            );
            promised += usize::from(promise);
            decided += usize::from(adjudicated);
        }
    }
    assert!(promised > 100, "{promised} moves promised");
    assert!(decided > 0, "no move decided the game by the try");
}
