//! The positions reachable from the start, found by a forward search over the legal moves,
//! and optimal lines.

use crate::db::{DbError, Probe};
use crate::index::{Compact, Layout};
use crate::value::Value;
use kshogi_core::{Color, Game, Move, Position};
use kshogi_rules_kinzoku::Kinzoku;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Counts of the positions reachable from a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// Distinct positions (board, side to move, countdown) reachable, the first included.
    pub positions: u64,
    /// Of them, games already over.
    pub finished: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Lost for the side to move.
    pub losses: u64,
    /// Drawn.
    pub draws: u64,
    /// Positions first reached at each ply (index = ply).
    pub per_ply: Vec<u64>,
}

/// A set of positions: one bit per entry, for each side to move and each mirror image.
struct Seen {
    bits: [Vec<AtomicU64>; 4],
}

/// A position: side to move, whether it is the mirror image of the stored one, and the
/// entry.
type Key = (Color, bool, u64);

impl Seen {
    fn new(len: u64) -> Seen {
        let words = len.div_ceil(64) as usize;
        let make = || (0..words).map(|_| AtomicU64::new(0)).collect();
        Seen {
            bits: [make(), make(), make(), make()],
        }
    }

    /// Marks a position; true if it was not marked before.
    fn insert(&self, (side, mirrored, i): Key) -> bool {
        let set = side.index() * 2 + mirrored as usize;
        let word = &self.bits[set][(i / 64) as usize];
        let bit = 1u64 << (i % 64);
        word.fetch_or(bit, Ordering::Relaxed) & bit == 0
    }
}

/// The key of a position.
fn key(layout: &Layout, pos: &Position<Kinzoku>) -> Option<Key> {
    let n = Compact::from_position(pos).normalized();
    let c = n.canonical();
    layout.index(&c).map(|i| (pos.side_to_move(), c != n, i))
}

/// Every position reachable from `start` (ignoring repetition, which ends games but does
/// not change which positions can occur), counted by the value `probe` gives.
pub fn reachable<P: Probe + Sync>(
    probe: &P,
    start: &Position<Kinzoku>,
    threads: usize,
    progress: &(dyn Fn(usize, u64) + Sync),
) -> Result<Reach, DbError> {
    let layout = probe.layout();
    let seen = Seen::new(layout.len());
    let mut reach = Reach::default();
    let Some(k) = key(layout, start) else {
        return Err(DbError::NotCovered(layout.max_pieces()));
    };
    seen.insert(k);
    let mut level: Vec<(Color, bool, u32)> = vec![(k.0, k.1, k.2 as u32)];
    let error: Mutex<Option<DbError>> = Mutex::new(None);
    let counts = [
        AtomicU64::new(0),
        AtomicU64::new(0),
        AtomicU64::new(0),
        AtomicU64::new(0),
    ];
    let mut ply = 0;
    while !level.is_empty() {
        reach.per_ply.push(level.len() as u64);
        progress(ply, level.len() as u64);
        let next: Mutex<Vec<(Color, bool, u32)>> = Mutex::new(Vec::new());
        let cursor = AtomicU64::new(0);
        std::thread::scope(|s| {
            for _ in 0..threads.max(1) {
                s.spawn(|| {
                    let mut local = Vec::new();
                    let mut c = [0u64; 4];
                    loop {
                        let lo = cursor.fetch_add(1024, Ordering::Relaxed) as usize;
                        if lo >= level.len() {
                            break;
                        }
                        for &(side, mirrored, i) in &level[lo..(lo + 1024).min(level.len())] {
                            let mut compact = layout.decode(i as u64);
                            if mirrored {
                                compact = compact.mirror();
                            }
                            if side == Color::White {
                                compact = compact.flip();
                            }
                            let pos = Position::from_setup(&compact.to_setup())
                                .expect("reached positions are valid");
                            match probe.value(&pos) {
                                Ok(Value::Win(_)) => c[0] += 1,
                                Ok(Value::Loss(_)) => c[1] += 1,
                                Ok(Value::Draw) => c[2] += 1,
                                Err(e) => {
                                    *error.lock().expect("no panics") = Some(e);
                                    return;
                                }
                            }
                            if pos.outcome().is_some() {
                                c[3] += 1;
                                continue;
                            }
                            for m in pos.legal_moves().iter() {
                                let after = pos.after(*m);
                                if let Some(k) = key(layout, &after) {
                                    if seen.insert(k) {
                                        local.push((k.0, k.1, k.2 as u32));
                                    }
                                }
                            }
                        }
                    }
                    for (k, n) in c.iter().enumerate() {
                        counts[k].fetch_add(*n, Ordering::Relaxed);
                    }
                    next.lock().expect("no panics").extend(local);
                });
            }
        });
        if let Some(e) = error.lock().expect("no panics").take() {
            return Err(e);
        }
        level = next.into_inner().expect("no panics");
        ply += 1;
    }
    reach.wins = counts[0].load(Ordering::Relaxed);
    reach.losses = counts[1].load(Ordering::Relaxed);
    reach.draws = counts[2].load(Ordering::Relaxed);
    reach.finished = counts[3].load(Ordering::Relaxed);
    reach.positions = reach.per_ply.iter().sum();
    Ok(reach)
}

/// An optimal line from `pos`: at each ply one move that keeps the value (the first in
/// generation order among the best), until the game ends (a drawn line ends when a position
/// occurs for the third time, which the rules make a draw) or `max_plies` moves are played.
pub fn optimal_line<P: Probe + ?Sized>(
    probe: &P,
    pos: &Position<Kinzoku>,
    max_plies: usize,
) -> Result<Vec<(Move, Value)>, DbError> {
    let mut line = Vec::new();
    let mut game = Game::new(*pos);
    while line.len() < max_plies && game.outcome().is_none() {
        let (v, best) = probe.best_moves(game.position())?;
        let Some(&m) = best.first() else { break };
        line.push((m, v));
        if game.play(m).is_err() {
            break;
        }
    }
    Ok(line)
}
