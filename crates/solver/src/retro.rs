//! The retrograde analysis.
//!
//! 1. **Start.** Every entry of the [`Layout`] is decoded and checked with
//!    [`Position::from_setup`]. Illegal arrangements are marked, and so are the entries of
//!    mirror images that are stored under their other image. Positions whose game is over
//!    ([`Position::outcome`]: checkmate, king entry, an expired countdown, stalemate) get their
//!    value at distance 0; every other position gets a counter, its number of legal moves.
//! 2. **Levels.** The positions resolved at distance `d` are taken in turn. For each, the
//!    *un-moves* ([`predecessors`]) give every position with a legal move into it. If the
//!    resolved position is lost for its side to move, each predecessor not yet resolved is a
//!    win in `d + 1`. If it is won, each predecessor's counter drops by one, and a
//!    predecessor whose counter reaches zero (all its moves lead to wins for the opponent)
//!    is a loss in `d + 1`. Taking the levels in order of distance makes each win the
//!    shortest and each loss the longest.
//! 3. **Draws.** When a level is empty, the positions still unresolved are draws: neither
//!    side can force a win, so the game goes on until repetition (or ends in stalemate).
//!
//! Threads share the table through atomics; each level is split into chunks that the
//! threads take in turn.

use crate::index::{Compact, Layout, BC, BI, BK, BS, NONE, WC, WI, WK, WS};
use crate::value::{Entry, Value};
use kshogi_core::{Color, Kind, Outcome, Position, Variant};
use kshogi_rules_kinzoku::{Kinzoku, COPPER, GOLD, KING, SILVER, SOLDIER};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Working code of an illegal entry.
const W_ILLEGAL: u16 = 0xFFFF;
/// Working code of a stalemate (a draw that is final at once).
const W_DRAW: u16 = 0xFFFE;
/// Flag of a resolved entry.
const W_RESOLVED: u16 = 0x8000;
/// Flag of a win, with [`W_RESOLVED`].
const W_WIN: u16 = 0x4000;
/// Largest distance the working codes hold.
pub const MAX_DISTANCE: u16 = 0x3FFD;

fn w_win(d: u16) -> u16 {
    W_RESOLVED | W_WIN | d
}

fn w_loss(d: u16) -> u16 {
    W_RESOLVED | d
}

/// The entry of a working code (unresolved counters are draws).
fn w_entry(code: u16) -> Entry {
    match code {
        W_ILLEGAL => Entry::Illegal,
        W_DRAW => Entry::Value(Value::Draw),
        c if c & W_RESOLVED == 0 => Entry::Value(Value::Draw),
        c if c & W_WIN != 0 => Entry::Value(Value::Win(c & 0x3FFF)),
        c => Entry::Value(Value::Loss(c & 0x3FFF)),
    }
}

/// Where the solver is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Checking every entry and counting moves.
    Start,
    /// Propagating the values of one distance (the number) to the positions before them.
    Level(u16),
}

/// A progress report: `done` of `total` units of the current phase.
#[derive(Copy, Clone, Debug)]
pub struct Progress {
    /// The phase.
    pub phase: Phase,
    /// Units done.
    pub done: u64,
    /// Units in the phase.
    pub total: u64,
    /// Positions resolved so far (wins and losses).
    pub resolved: u64,
}

/// What to solve and how.
#[derive(Copy, Clone, Debug)]
pub struct Options {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Largest number of non-king pieces covered (6 for the whole game).
    pub max_pieces: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_pieces: 6,
        }
    }
}

/// Counts of a solved table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Entries of the layout.
    pub entries: u64,
    /// Entries that hold no position: illegal arrangements, and mirror images stored under
    /// their other image.
    pub illegal: u64,
    /// Valid positions won by the side to move.
    pub wins: u64,
    /// Valid positions lost by the side to move.
    pub losses: u64,
    /// Valid positions drawn.
    pub draws: u64,
    /// Of the draws, stalemates (the game is over).
    pub stalemates: u64,
    /// The longest win (plies) and one entry having it.
    pub longest_win: (u16, u64),
    /// The longest loss (plies) and one entry having it.
    pub longest_loss: (u16, u64),
    /// Positions resolved at each distance (index = plies).
    pub per_distance: Vec<u64>,
    /// Time of the first phase.
    pub start_time: Duration,
    /// Time of the whole solve.
    pub total_time: Duration,
}

/// A solved table held in memory.
pub struct Solved {
    layout: Layout,
    work: Vec<AtomicU16>,
    stats: Stats,
}

impl Solved {
    /// The layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The counts.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The entry at an index.
    pub fn entry(&self, index: u64) -> Entry {
        w_entry(self.work[index as usize].load(Ordering::Relaxed))
    }
}

const CHUNK: u64 = 1 << 16;
/// Resolved entries whose predecessors are updated together.
const BATCH: usize = 128;

/// Solves every position of the layout `opts.max_pieces`.
pub fn solve(opts: Options, progress: &(dyn Fn(Progress) + Sync)) -> Solved {
    let t0 = Instant::now();
    let layout = Layout::new(opts.max_pieces);
    let n = layout.len();
    let threads = opts.threads.max(1);
    let work: Vec<AtomicU16> = (0..n).map(|_| AtomicU16::new(0)).collect();
    let resolved = AtomicU64::new(0);

    // Phase 1: legality, terminal values, move counters.
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let frontier: Mutex<Vec<u32>> = Mutex::new(Vec::new());
    let stalemates = AtomicU64::new(0);
    let illegal = AtomicU64::new(0);
    let reporter = AtomicBool::new(false);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut local = Vec::new();
                let (mut st, mut il) = (0u64, 0u64);
                loop {
                    let lo = next.fetch_add(CHUNK, Ordering::Relaxed);
                    if lo >= n {
                        break;
                    }
                    let hi = (lo + CHUNK).min(n);
                    for i in lo..hi {
                        let code = start_code(&layout, i);
                        match code {
                            W_ILLEGAL => il += 1,
                            W_DRAW => st += 1,
                            c if c & W_RESOLVED != 0 => local.push(i as u32),
                            _ => {}
                        }
                        work[i as usize].store(code, Ordering::Relaxed);
                    }
                    let d = done.fetch_add(hi - lo, Ordering::Relaxed) + (hi - lo);
                    if !reporter.swap(true, Ordering::Acquire) {
                        progress(Progress {
                            phase: Phase::Start,
                            done: d,
                            total: n,
                            resolved: 0,
                        });
                        reporter.store(false, Ordering::Release);
                    }
                }
                stalemates.fetch_add(st, Ordering::Relaxed);
                illegal.fetch_add(il, Ordering::Relaxed);
                frontier.lock().expect("no panics").extend(local);
            });
        }
    });
    let start_time = t0.elapsed();
    let mut level: Vec<u32> = frontier.into_inner().expect("no panics");
    resolved.fetch_add(level.len() as u64, Ordering::Relaxed);
    let mut per_distance = Vec::new();

    // Phase 2: levels.
    let mut d: u16 = 0;
    while !level.is_empty() {
        assert!(d < MAX_DISTANCE, "distance beyond the working codes");
        per_distance.push(level.len() as u64);
        let next_level: Mutex<Vec<u32>> = Mutex::new(Vec::new());
        let cursor = AtomicU64::new(0);
        let done = AtomicU64::new(0);
        let total = level.len() as u64;
        let chunk = 4096u64;
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| {
                    let mut local = Vec::new();
                    let mut buf = Vec::new();
                    let mut seen = Vec::new();
                    loop {
                        let lo = cursor.fetch_add(chunk, Ordering::Relaxed);
                        if lo >= total {
                            break;
                        }
                        let hi = (lo + chunk).min(total);
                        for items in level[lo as usize..hi as usize].chunks(BATCH) {
                            propagate(&layout, &work, items, d, &mut local, &mut buf, &mut seen);
                        }
                        let dn = done.fetch_add(hi - lo, Ordering::Relaxed) + (hi - lo);
                        if !reporter.swap(true, Ordering::Acquire) {
                            progress(Progress {
                                phase: Phase::Level(d),
                                done: dn,
                                total,
                                resolved: resolved.load(Ordering::Relaxed),
                            });
                            reporter.store(false, Ordering::Release);
                        }
                    }
                    next_level.lock().expect("no panics").extend(local);
                });
            }
        });
        level = next_level.into_inner().expect("no panics");
        resolved.fetch_add(level.len() as u64, Ordering::Relaxed);
        d += 1;
    }

    let mut solved = Solved {
        layout,
        work,
        stats: Stats::default(),
    };
    let mut stats = solved.count();
    stats.stalemates = stalemates.load(Ordering::Relaxed);
    debug_assert_eq!(stats.illegal, illegal.load(Ordering::Relaxed));
    stats.per_distance = per_distance;
    stats.start_time = start_time;
    stats.total_time = t0.elapsed();
    solved.stats = stats;
    solved
}

impl Solved {
    fn count(&self) -> Stats {
        let mut s = Stats {
            entries: self.work.len() as u64,
            ..Stats::default()
        };
        for (i, w) in self.work.iter().enumerate() {
            match w_entry(w.load(Ordering::Relaxed)) {
                Entry::Illegal => s.illegal += 1,
                Entry::Value(Value::Draw) => s.draws += 1,
                Entry::Value(Value::Win(d)) => {
                    s.wins += 1;
                    if d > s.longest_win.0 || s.wins == 1 {
                        s.longest_win = (d, i as u64);
                    }
                }
                Entry::Value(Value::Loss(d)) => {
                    s.losses += 1;
                    if d > s.longest_loss.0 || s.losses == 1 {
                        s.longest_loss = (d, i as u64);
                    }
                }
            }
        }
        s
    }
}

/// Whether the side not to move (White) is attacked, or a soldier stands on its farthest
/// rank: the commonest reasons an arrangement is illegal, found without building a
/// position. [`Position::from_setup`] decides the rest (and agrees on these: the Bellman
/// check in [`crate::verify`] compares every entry with it).
#[inline]
pub(crate) fn quickly_illegal(c: &Compact) -> bool {
    let t = Kinzoku::tables();
    let wk = c.sq[WK];
    let black = Color::Black.index();
    for (slot, kind) in [(BK, KING), (BS, SILVER), (BC, COPPER)] {
        let s = c.sq[slot];
        if s != NONE && t.step[black][kind.index()][s as usize].0 & bb(wk) != 0 {
            return true;
        }
    }
    let s = c.sq[BI];
    if s != NONE {
        let kind = if c.promo & 1 != 0 { GOLD } else { SOLDIER };
        if t.step[black][kind.index()][s as usize].0 & bb(wk) != 0 {
            return true;
        }
        if kind == SOLDIER && t.farthest_rank[black].0 & bb(s) != 0 {
            return true;
        }
    }
    let s = c.sq[WI];
    s != NONE && c.promo & 2 == 0 && t.farthest_rank[Color::White.index()].0 & bb(s) != 0
}

/// Whether a king stands on its farthest rank (the game is over).
#[inline]
pub(crate) fn entered(c: &Compact) -> bool {
    let t = Kinzoku::tables();
    t.farthest_rank[Color::Black.index()].0 & bb(c.sq[BK]) != 0
        || t.farthest_rank[Color::White.index()].0 & bb(c.sq[WK]) != 0
}

/// The starting working code of an entry.
fn start_code(layout: &Layout, i: u64) -> u16 {
    let c = layout.decode(i);
    if !c.is_canonical() || quickly_illegal(&c) {
        return W_ILLEGAL;
    }
    let Ok(pos) = Position::<Kinzoku>::from_setup(&c.to_setup()) else {
        return W_ILLEGAL;
    };
    // `count_legal` yields nothing where the game is over, so `outcome` is needed only then.
    let moves = pos.count_legal();
    if moves > 0 {
        debug_assert!(moves < 256);
        return moves as u16;
    }
    match pos.outcome() {
        Some(Outcome::Win { winner, .. }) => {
            if winner == pos.side_to_move() {
                w_win(0)
            } else {
                w_loss(0)
            }
        }
        Some(Outcome::Draw { .. }) => W_DRAW,
        None => unreachable!("no legal move but the game goes on"),
    }
}

/// Passes the values of the resolved entries `items` (distance `d`) to their predecessors.
///
/// The predecessors of a batch are listed first and their cells read with plain loads,
/// which the processor overlaps; the atomic updates that follow then find the cells in
/// cache. (An atomic read-modify-write waits for its cache miss before anything else
/// proceeds, so updating cells in the order they are found is several times slower.)
fn propagate(
    layout: &Layout,
    work: &[AtomicU16],
    items: &[u32],
    d: u16,
    next: &mut Vec<u32>,
    buf: &mut Vec<(u32, bool, u16)>,
    seen: &mut Vec<u16>,
) {
    buf.clear();
    for &i in items {
        let code = work[i as usize].load(Ordering::Relaxed);
        let won = code & W_WIN != 0;
        let c = layout.decode(i as u64);
        // Moves are counted per stored position: a move of Q "leads to" P when it leads to P
        // or to P's mirror image. Un-moves from P find, for a stored Q, its moves into P
        // itself, and (as un-moves of Q's mirror image) its moves into P's mirror image. Two
        // cases need care: if P is its own mirror image, both finds are the same moves, so
        // only Q itself counts (not its mirror image); if Q is its own mirror image and P is
        // not, Q's moves into P's mirror image mirror its moves into P, and are found only
        // once, so they count twice.
        let p_symmetric = c.mirror() == c;
        predecessors(&c.flip(), |q| {
            // Predecessors that are illegal or already over are marked in the table; most
            // are recognised here without the memory access.
            if quickly_illegal(q) || entered(q) {
                return;
            }
            let stored = q.canonical();
            let weight = if p_symmetric {
                if stored != *q {
                    return;
                }
                1
            } else if q.mirror() == *q {
                2
            } else {
                1
            };
            if let Some(qi) = layout.index(&stored) {
                buf.push((qi as u32, won, weight));
            }
        });
    }
    seen.clear();
    seen.extend(
        buf.iter()
            .map(|&(qi, _, _)| work[qi as usize].load(Ordering::Relaxed)),
    );
    for (&(qi, won, weight), &first) in buf.iter().zip(seen.iter()) {
        if first & W_RESOLVED != 0 {
            // Resolved already, illegal, or a stalemate; cells never leave that state.
            continue;
        }
        let cell = &work[qi as usize];
        let mut cur = first;
        loop {
            if cur & W_RESOLVED != 0 {
                break;
            }
            let new = if !won {
                w_win(d + 1)
            } else if cur <= weight {
                w_loss(d + 1)
            } else {
                cur - weight
            };
            match cell.compare_exchange_weak(cur, new, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => {
                    if new & W_RESOLVED != 0 {
                        next.push(qi);
                    }
                    break;
                }
                Err(actual) => cur = actual,
            }
        }
    }
}

fn bb(sq: u8) -> u64 {
    1u64 << sq
}

/// Calls `f` with every position, Black to move, from which a Black move leads to `r`
/// (White to move). Each (position, move) pair is produced once.
///
/// Positions that turn out illegal or already over are produced too; the caller skips
/// them, as their entries are marked. What this must get right is the set of pieces that
/// can have moved, from where, what they may have captured, and the countdown before the
/// move.
pub fn predecessors(r: &Compact, mut f: impl FnMut(&Compact)) {
    debug_assert_eq!(r.side, Color::White);
    let t = Kinzoku::tables();
    let occ: u64 =
        r.sq.iter()
            .filter(|&&s| s != NONE)
            .fold(0u64, |a, &s| a | bb(s));
    let black_far = t.farthest_rank[Color::Black.index()].0;
    let white_far = t.farthest_rank[Color::White.index()].0;
    let white_bare = r.sq[WS] == NONE && r.sq[WC] == NONE && r.sq[WI] == NONE;
    // Countdown before the move, and whether the move may (or must) have captured.
    // `None` in the first place: no predecessor at all.
    let (cd_before, captures, must_capture): (u8, bool, bool) = match r.cd {
        0 => (0, !white_bare, false),
        // Black's countdown with k moves left: Black has just played a move of it.
        6 => (0, true, true), // k = 5: the capture that bared White started it
        1..=5 => (r.cd + 1, false, false),
        // White's countdown: Black is the lone king; its moves do not count.
        _ => (r.cd, true, false),
    };
    // The White pieces Black may have captured: (slot, promoted).
    let mut victims: [(usize, bool); 4] = [(0, false); 4];
    let mut nv = 0;
    if captures {
        if r.sq[WS] == NONE {
            victims[nv] = (WS, false);
            nv += 1;
        }
        if r.sq[WC] == NONE {
            victims[nv] = (WC, false);
            nv += 1;
        }
        if r.sq[WI] == NONE {
            victims[nv] = (WI, false);
            nv += 1;
            victims[nv] = (WI, true);
            nv += 1;
        }
    }
    for slot in [BK, BS, BC, BI] {
        let to = r.sq[slot];
        if to == NONE {
            continue;
        }
        let promoted = slot == BI && r.promo & 1 != 0;
        let kind: Kind = match slot {
            BK => KING,
            BS => SILVER,
            BC => COPPER,
            _ => {
                if promoted {
                    GOLD
                } else {
                    SOLDIER
                }
            }
        };
        // (origin squares, promotion bit of the piece before the move)
        let mut sources: [(u64, bool); 2] = [(0, promoted); 2];
        sources[0] = (
            t.step[Color::White.index()][kind.index()][to as usize].0 & !occ,
            promoted,
        );
        if kind == GOLD && black_far & bb(to) != 0 {
            // A soldier that promoted on arriving here, from off the farthest rank.
            sources[1] = (
                t.step[Color::White.index()][SOLDIER.index()][to as usize].0 & !occ & !black_far,
                false,
            );
        }
        for &(froms, promo_before) in &sources {
            let mut froms = froms;
            while froms != 0 {
                let from = froms.trailing_zeros() as u8;
                froms &= froms - 1;
                let mut q = *r;
                q.side = Color::Black;
                q.cd = cd_before;
                q.sq[slot] = from;
                if slot == BI {
                    q.promo = (q.promo & !1) | promo_before as u8;
                }
                if !must_capture {
                    f(&q);
                }
                for &(vslot, vpromo) in &victims[..nv] {
                    if vslot == WI && !vpromo && white_far & bb(to) != 0 {
                        // An unpromoted White soldier cannot stand on its farthest rank.
                        continue;
                    }
                    let mut qc = q;
                    qc.sq[vslot] = to;
                    if vslot == WI {
                        qc.promo = (qc.promo & !2) | ((vpromo as u8) << 1);
                    }
                    f(&qc);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reverse_steps_are_the_other_colours_steps() {
        let t = Kinzoku::tables();
        for k in 0..5 {
            for from in 0..15usize {
                for to in 0..15usize {
                    let fwd = t.step[0][k][from].0 & (1 << to) != 0;
                    let rev = t.step[1][k][to].0 & (1 << from) != 0;
                    assert_eq!(fwd, rev, "kind {k} {from}->{to}");
                }
            }
        }
    }
}
