//! The engine with each variant's evaluator: a short search gives legal lines, and the
//! evaluation does not depend on which colour has which pieces.

use crate::Failures;
use kshogi_core::{Game, Piece, Position, Setup, Variant};
use kshogi_engine::{Evaluator, Info, Limits};
use kshogi_notation::{move_to_usi, to_sfen};
use kshogi_registry::{EngineFor, Registered};
use std::sync::atomic::AtomicBool;

/// A depth-2 search from the start: at least one line, each a legal sequence of moves that
/// starts with its move.
pub fn search_from_start<V: Registered>(f: &mut Failures) {
    let start = Position::<V>::start();
    let sfen = to_sfen(&start);
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    let result = EngineFor::<V>::new(1).search(
        &Game::new(start),
        &limits,
        1,
        &AtomicBool::new(false),
        &mut |_: &Info| {},
    );
    f.check(!result.lines.is_empty(), || {
        format!("position `{sfen}`: a depth-2 search gives no line")
    });
    for line in &result.lines {
        let mv = move_to_usi::<V>(line.mv);
        f.check(start.is_legal(line.mv), || {
            format!("position `{sfen}`, move `{mv}`: the search's move is not legal")
        });
        f.check(line.pv.first() == Some(&line.mv), || {
            format!(
                "position `{sfen}`, move `{mv}`: the principal variation does not start with it"
            )
        });
        let mut pos = start;
        for &m in &line.pv {
            if !pos.is_legal(m) {
                f.fail(format!(
                    "position `{}`, move `{}`: not legal, in the principal variation of `{mv}` \
                     from `{sfen}`",
                    to_sfen(&pos),
                    move_to_usi::<V>(m)
                ));
                break;
            }
            pos.make(m);
        }
    }
}

/// The position with the colours exchanged: the board turned 180 degrees with every
/// piece's colour swapped, the hands swapped and the other side to move. `None` when the
/// variant's state is not the default (it may name a colour, which cannot be swapped
/// without knowing the variant).
fn mirrored<V: Variant>(pos: &Position<V>) -> Option<Setup<V>> {
    let s = pos.to_setup();
    if s.extra != V::Extra::default() {
        return None;
    }
    let g = V::GEOMETRY;
    let mut m = Setup::<V>::empty();
    for sq in g.all_squares() {
        if let Some(p) = s.board[sq.index()] {
            m.board[g.rotate(sq).index()] = Some(Piece::new(!p.color, p.kind));
        }
    }
    m.hands = [s.hands[1], s.hands[0]];
    m.side = !s.side;
    m.ply = s.ply;
    m.extra = s.extra;
    Some(m)
}

/// The start position's evaluation equals its mirror's (both from the side to move); the
/// check is skipped when the mirror is no valid position. Returns whether it ran.
pub fn mirror_evaluates_the_same<V: Registered>(f: &mut Failures) -> bool {
    let start = Position::<V>::start();
    let Some(setup) = mirrored(&start) else {
        return false;
    };
    let Ok(mirror) = Position::from_setup(&setup) else {
        return false;
    };
    let a = <V::Eval as Evaluator<V>>::evaluate(&start);
    let b = <V::Eval as Evaluator<V>>::evaluate(&mirror);
    f.check(a == b, || {
        format!(
            "position `{}` evaluates to {a}, its colour-mirrored position `{}` to {b}",
            to_sfen(&start),
            to_sfen(&mirror)
        )
    });
    true
}
