//! An independent, obviously correct verifier: plain exhaustive minimax over core's legal
//! moves to a fixed depth (no pruning, no tables, no repetition), and a small random-number
//! generator for scanning random games.

#![allow(dead_code)]

use kshogi_core::{Outcome, Position, Variant, WinReason};
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;

/// What the mate solver's attacker may play, written here independently of the engine.
pub trait Rules: Variant {
    /// Whether the attacker to move in `pos` may play every move (the Kinzoku lone king while
    /// the countdown runs against the other side).
    fn unrestricted(_pos: &Position<Self>) -> bool {
        false
    }
}
impl Rules for Kyoto {}
impl Rules for Micro {}
impl Rules for kshogi_rules_minishogi::Minishogi {}
impl Rules for Kinzoku {
    fn unrestricted(pos: &Position<Self>) -> bool {
        matches!(pos.extra(), Some(cd) if cd.side != pos.side_to_move() && cd.moves_left > 0)
    }
}

/// Which attacker moves count.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Moves {
    /// Every legal move.
    All,
    /// Checks, moves after which the game is over and won, and every move where
    /// [`Rules::unrestricted`].
    Checks,
}

fn allowed<V: Rules>(pos: &Position<V>, child: &Position<V>, moves: Moves) -> bool {
    match moves {
        Moves::All => true,
        Moves::Checks => {
            child.in_check()
                || V::unrestricted(pos)
                || child.outcome().and_then(|o| o.winner()) == Some(pos.side_to_move())
        }
    }
}

/// Whether the side to move can force a win within `k` plies.
pub fn wins_within<V: Rules>(pos: &Position<V>, k: u32, moves: Moves) -> bool {
    wins_within_by(pos, k, moves, &|_| true)
}

/// Whether the side to move can force a win within `k` plies that ends with a win whose
/// reason passes `reason`.
pub fn wins_within_by<V: Rules>(
    pos: &Position<V>,
    k: u32,
    moves: Moves,
    reason: &dyn Fn(WinReason) -> bool,
) -> bool {
    let me = pos.side_to_move();
    if let Some(o) = pos.outcome() {
        return matches!(o, Outcome::Win { winner, reason: r } if winner == me && reason(r));
    }
    if k == 0 {
        return false;
    }
    pos.legal_moves().iter().any(|&m| {
        let child = pos.after(m);
        allowed(pos, &child, moves) && loses_within_by(&child, k - 1, moves, reason)
    })
}

/// Whether the side to move loses by force within `k` plies (the opponent attacking).
pub fn loses_within<V: Rules>(pos: &Position<V>, k: u32, moves: Moves) -> bool {
    loses_within_by(pos, k, moves, &|_| true)
}

/// [`loses_within`] where only wins whose reason passes `reason` count.
pub fn loses_within_by<V: Rules>(
    pos: &Position<V>,
    k: u32,
    moves: Moves,
    reason: &dyn Fn(WinReason) -> bool,
) -> bool {
    let me = pos.side_to_move();
    if let Some(o) = pos.outcome() {
        return matches!(o, Outcome::Win { winner, reason: r } if winner == !me && reason(r));
    }
    if k == 0 {
        return false;
    }
    pos.legal_moves()
        .iter()
        .all(|&m| wins_within_by(&pos.after(m), k - 1, moves, reason))
}

/// The shortest forced win of the side to move, in plies, if it is at most `max`.
pub fn win_distance<V: Rules>(pos: &Position<V>, max: u32, moves: Moves) -> Option<u32> {
    (0..=max).find(|&k| wins_within(pos, k, moves))
}
