//! Checks of a solved table that do not use the retrograde code.
//!
//! - [`bellman`]: every entry agrees with forward move generation. An entry holds no
//!   position exactly when [`Position::from_setup`] rejects it or it is the mirror image of a
//!   stored position; a position whose game is over has the
//!   value [`Position::outcome`] gives; every other value is the best of its successors'
//!   values seen from the mover (the shortest win, else a draw, else the longest loss). If
//!   this holds for every entry, the whole table is right: induction on the distance shows
//!   that each win and loss is exact, and a position labelled a draw has no forced win.
//! - [`search_agrees`]: plain exhaustive search (core's move generator, nothing else) shows
//!   that a stated win or loss in `d` plies is forced within `d` plies and not within fewer,
//!   and that a stated draw has no forced result within a search horizon.

use crate::db::{DbError, Probe};
use crate::index::Compact;
use crate::value::{Entry, Value};
use kshogi_core::{Outcome, Position};
use kshogi_rules_kinzoku::Kinzoku;

/// A disagreement found by a check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The entry.
    pub index: u64,
    /// Its position (Black to move).
    pub position: Compact,
    /// What the table holds.
    pub stored: Entry,
    /// What the check computed.
    pub expected: Entry,
}

/// The value of a finished game for its side to move.
fn outcome_value(pos: &Position<Kinzoku>, o: Outcome) -> Value {
    match o {
        Outcome::Win { winner, .. } if winner == pos.side_to_move() => Value::Win(0),
        Outcome::Win { .. } => Value::Loss(0),
        Outcome::Draw { .. } => Value::Draw,
    }
}

/// What an entry must hold, computed from its successors' stored values.
pub fn expected_entry<P: Probe + ?Sized>(probe: &P, index: u64) -> Result<Entry, DbError> {
    let c = probe.layout().decode(index);
    if !c.is_canonical() {
        // The other mirror image holds this position.
        return Ok(Entry::Illegal);
    }
    let Ok(pos) = Position::<Kinzoku>::from_setup(&c.to_setup()) else {
        return Ok(Entry::Illegal);
    };
    if let Some(o) = pos.outcome() {
        return Ok(Entry::Value(outcome_value(&pos, o)));
    }
    let mut best: Option<Value> = None;
    for m in pos.legal_moves().iter() {
        let v = probe.value(&pos.after(*m))?.back();
        if best.map_or(true, |b| v.rank() > b.rank()) {
            best = Some(v);
        }
    }
    Ok(Entry::Value(best.unwrap_or(Value::Draw)))
}

/// The Bellman check of the entries `indices`; returns the first mismatches (at most
/// `limit`) and the number of entries checked.
pub fn bellman<P: Probe + ?Sized>(
    probe: &P,
    indices: impl Iterator<Item = u64>,
    limit: usize,
) -> Result<(Vec<Mismatch>, u64), DbError> {
    let mut bad = Vec::new();
    let mut n = 0;
    for i in indices {
        n += 1;
        let stored = probe.entry(i)?;
        let expected = expected_entry(probe, i)?;
        if stored != expected {
            bad.push(Mismatch {
                index: i,
                position: probe.layout().decode(i),
                stored,
                expected,
            });
            if bad.len() >= limit {
                break;
            }
        }
    }
    Ok((bad, n))
}

/// Whether the side to move can force a win within `plies` plies.
pub fn forced_win(pos: &Position<Kinzoku>, plies: u16) -> bool {
    if let Some(o) = pos.outcome() {
        return outcome_value(pos, o) == Value::Win(0);
    }
    if plies == 0 {
        return false;
    }
    pos.legal_moves()
        .iter()
        .any(|m| forced_loss(&pos.after(*m), plies - 1))
}

/// Whether the side to move loses by force within `plies` plies.
pub fn forced_loss(pos: &Position<Kinzoku>, plies: u16) -> bool {
    if let Some(o) = pos.outcome() {
        return outcome_value(pos, o) == Value::Loss(0);
    }
    if plies == 0 {
        return false;
    }
    pos.legal_moves()
        .iter()
        .all(|m| forced_win(&pos.after(*m), plies - 1))
}

/// Whether exhaustive search agrees with a stated value: a win or loss in `d` is forced
/// within `d` plies and not within `d - 1`; a draw has neither side forcing a result within
/// `horizon` plies.
pub fn search_agrees(pos: &Position<Kinzoku>, stated: Value, horizon: u16) -> bool {
    match stated {
        Value::Win(d) => forced_win(pos, d) && (d == 0 || !forced_win(pos, d - 1)),
        Value::Loss(d) => forced_loss(pos, d) && (d == 0 || !forced_loss(pos, d - 1)),
        Value::Draw => !forced_win(pos, horizon) && !forced_loss(pos, horizon),
    }
}
