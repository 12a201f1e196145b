//! The retrograde solver for any variant whose positions can be indexed.
//!
//! What a variant must provide is an [`Indexed`] implementation: a perfect index of its
//! positions with Black to move (White to move is the colour-swapped, rotated image), the
//! left-right mirror symmetry when its pieces allow it, and un-move generation (every
//! position with a move into a given one, with un-captures, un-drops and un-promotions).
//! Everything else comes from core's forward rules ([`Position::from_setup`],
//! [`Position::count_legal`], [`Position::outcome`]).
//!
//! 1. **Start.** Every entry is decoded and checked with [`Position::from_setup`]. Entries
//!    that hold no position (rejected arrangements, and mirror images stored under their
//!    other image) are marked. Positions whose game is over get their value at distance 0;
//!    a position whose side to move can end the game at once by a move whose result has
//!    no entry (capturing the Dobutsu lion) is a win in 1; every other position gets a
//!    counter, its number of legal moves.
//! 2. **Levels.** The positions resolved at distance `d` are taken in turn. For each, the
//!    un-moves ([`Indexed::predecessors`]) give every position with a legal move into it.
//!    If the resolved position is lost for its side to move, each predecessor not yet
//!    resolved is a win in `d + 1`. If it is won, each predecessor's counter drops by one,
//!    and a predecessor whose counter reaches zero is a loss in `d + 1`. Taking the levels in
//!    order makes each win the shortest and each loss the longest.
//! 3. **Draws.** When no level is left, the positions still unresolved are draws: neither
//!    side can force a win. Repetition rules decide only how such a game ends.
//!
//! Threads ([`std::thread::scope`]) share the table through atomics; each level is split
//! into chunks that the threads take in turn. Memory: two bytes per entry, plus four bytes
//! per position of the current and the next level ([`memory_estimate`](crate::memory_estimate)).

use crate::value::{Entry, Value};
use kshogi_core::{Color, Outcome, Position, Setup, Variant};
use std::fmt::Debug;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Largest distance the working codes hold.
pub const MAX_DISTANCE: u16 = 0x3FFD;

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

/// Counts of a solved table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Entries of the index.
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

/// Why [`Indexed::sub_game`] found no sub-game in a text: a message naming the text and
/// what the variant's sub-games are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubGameError(String);

impl SubGameError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> SubGameError {
        SubGameError(message.into())
    }
}

impl std::fmt::Display for SubGameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SubGameError {}

/// What the solver needs to know about a variant: its position index and its un-moves.
///
/// The compact form [`Indexed::Compact`] is a position reduced to what the index needs;
/// entries hold positions with Black to move. Implementations live beside the solver (they
/// know one rules crate each); rules crates know nothing of the solver.
pub trait Indexed: Send + Sync {
    /// The variant.
    type V: Variant;
    /// A position in compact form (either side to move).
    type Compact: Copy + PartialEq + Debug + Send + Sync;

    /// Version of the index scheme (how positions are numbered), stored in database files:
    /// a file written under another scheme is refused. It changes whenever the numbering
    /// or the rules it relies on change.
    const SCHEME: u32;

    /// The index of the whole game.
    fn full() -> Self
    where
        Self: Sized;

    /// Which part of the game the index covers, as a number stored in database files
    /// ([`Indexed::with_scope`] gives the index back); the whole game or a sub-game closed
    /// under moves.
    fn scope(&self) -> u32;

    /// The index of a scope that [`Indexed::scope`] gave, or `None` if there is no such
    /// scope (a damaged or foreign file).
    fn with_scope(scope: u32) -> Option<Self>
    where
        Self: Sized;

    /// The index of a sub-game named on the command line, or why the text names none.
    fn sub_game(text: &str) -> Result<Self, SubGameError>
    where
        Self: Sized;

    /// What the index covers, in words: `every position of the game`, `positions with at
    /// most 2 pieces besides the kings`.
    fn coverage(&self) -> String;

    /// Whether this is the index of the whole game.
    fn is_full(&self) -> bool
    where
        Self: Sized,
    {
        self.scope() == Self::full().scope()
    }

    /// Number of entries.
    fn len(&self) -> u64;

    /// Whether there are no entries (never, for a real index).
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The position (Black to move) of an entry. It may be a mirror image stored under its
    /// other image ([`Indexed::canonical`] differs) or an arrangement the rules reject.
    fn decode(&self, index: u64) -> Self::Compact;

    /// The entry of a position with Black to move that is its own [`Indexed::canonical`],
    /// or `None` when the index does not cover it.
    fn index(&self, c: &Self::Compact) -> Option<u64>;

    /// The compact form of a position.
    fn compact_of(&self, pos: &Position<Self::V>) -> Self::Compact;

    /// The setup of a compact position (ply 1).
    fn to_setup(&self, c: &Self::Compact) -> Setup<Self::V>;

    /// The same game seen from the other side (colours swapped, board rotated): same value
    /// for the side to move.
    fn flip(&self, c: &Self::Compact) -> Self::Compact;

    /// The stored one of a position (Black to move) and its mirror image; the position
    /// itself when the variant has no mirror symmetry.
    fn canonical(&self, c: &Self::Compact) -> Self::Compact;

    /// The mirror image (the position itself when the variant has no mirror symmetry).
    fn mirror(&self, c: &Self::Compact) -> Self::Compact;

    /// Side to move of a compact position.
    fn side(&self, c: &Self::Compact) -> Color;

    /// A cheap test that an entry's arrangement is no position (the rules would reject
    /// it); `false` is always correct, and [`Position::from_setup`] decides the rest.
    fn rejected(&self, _c: &Self::Compact) -> bool {
        false
    }

    /// A cheap test that a predecessor is not worth looking up (its entry holds no
    /// position, or its game is over); `false` is always correct.
    fn skip(&self, _c: &Self::Compact) -> bool {
        false
    }

    /// Whether the side to move (with a legal move) can end the game at once by a move
    /// whose resulting position has no entry (in Dobutsu: capturing the lion). Such a
    /// position is a win in 1 from the start.
    fn wins_at_once(&self, _pos: &Position<Self::V>) -> bool {
        false
    }

    /// Calls `f` with every position, Black to move, from which a Black move leads to `r`
    /// (White to move), once per (position, move) pair. Positions that are not stored or
    /// whose game is over may be produced too; their entries are marked.
    fn predecessors(&self, r: &Self::Compact, f: impl FnMut(&Self::Compact));

    /// The entry of any position (either side to move, either mirror image).
    fn index_any(&self, pos: &Position<Self::V>) -> Option<u64> {
        let mut c = self.compact_of(pos);
        if self.side(&c) == Color::White {
            c = self.flip(&c);
        }
        self.index(&self.canonical(&c))
    }

    /// The position of an entry as a checked [`Position`], or `None` when the entry holds no
    /// position.
    fn position(&self, index: u64) -> Option<Position<Self::V>> {
        let c = self.decode(index);
        if self.canonical(&c) != c {
            return None;
        }
        Position::from_setup(&self.to_setup(&c)).ok()
    }
}

/// Working code of an entry that holds no position.
const W_ILLEGAL: u16 = 0xFFFF;
/// Working code of a draw that is final at once (no moves, or a finished drawn game).
const W_DRAW: u16 = 0xFFFE;
const W_RESOLVED: u16 = 0x8000;
const W_WIN: u16 = 0x4000;

fn w_win(d: u16) -> u16 {
    W_RESOLVED | W_WIN | d
}

fn w_loss(d: u16) -> u16 {
    W_RESOLVED | d
}

fn w_entry(code: u16) -> Entry {
    match code {
        W_ILLEGAL => Entry::Illegal,
        W_DRAW => Entry::Value(Value::Draw),
        c if c & W_RESOLVED == 0 => Entry::Value(Value::Draw),
        c if c & W_WIN != 0 => Entry::Value(Value::Win(c & 0x3FFF)),
        c => Entry::Value(Value::Loss(c & 0x3FFF)),
    }
}

/// A solved index held in memory.
pub struct Table<I: Indexed> {
    index: I,
    work: Vec<AtomicU16>,
    stats: Stats,
}

impl<I: Indexed> Table<I> {
    /// The index.
    pub fn index(&self) -> &I {
        &self.index
    }

    /// The counts.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The entry at an index.
    pub fn entry(&self, index: u64) -> Entry {
        w_entry(self.work[index as usize].load(Ordering::Relaxed))
    }

    /// The value of a position for its side to move, or `None` if the index does not cover
    /// it or its entry holds no position.
    pub fn value(&self, pos: &Position<I::V>) -> Option<Value> {
        match self.entry(self.index.index_any(pos)?) {
            Entry::Illegal => None,
            Entry::Value(v) => Some(v),
        }
    }

    /// The value of a position and of each of its legal moves, best first. A move that ends
    /// the game is valued by the outcome, so also moves into positions without an entry.
    pub fn moves(&self, pos: &Position<I::V>) -> Option<(Value, Vec<(kshogi_core::Move, Value)>)> {
        let v = self.value(pos)?;
        let mut out = Vec::new();
        for m in pos.legal_moves().iter() {
            out.push((*m, child_value(pos, *m, |p| self.value(p))?));
        }
        out.sort_by_key(|&(_, mv)| -mv.rank());
        Some((v, out))
    }
}

/// The value of the move `m` from `pos` for the mover: from the outcome when the game ends,
/// else from `value` of the resulting position.
pub fn child_value<V: Variant>(
    pos: &Position<V>,
    m: kshogi_core::Move,
    value: impl Fn(&Position<V>) -> Option<Value>,
) -> Option<Value> {
    let after = pos.after(m);
    if let Some(o) = after.outcome() {
        return Some(outcome_value(&after, o).back());
    }
    Some(value(&after)?.back())
}

/// The value of a finished game for its side to move.
pub fn outcome_value<V: Variant>(pos: &Position<V>, o: Outcome) -> Value {
    match o {
        Outcome::Win { winner, .. } if winner == pos.side_to_move() => Value::Win(0),
        Outcome::Win { .. } => Value::Loss(0),
        Outcome::Draw { .. } => Value::Draw,
    }
}

const CHUNK: u64 = 1 << 16;
const BATCH: usize = 128;

/// The starting working code of an entry.
fn start_code<I: Indexed>(ix: &I, i: u64) -> u16 {
    let c = ix.decode(i);
    if ix.canonical(&c) != c || ix.rejected(&c) {
        return W_ILLEGAL;
    }
    let Ok(pos) = Position::<I::V>::from_setup(&ix.to_setup(&c)) else {
        return W_ILLEGAL;
    };
    let moves = pos.count_legal();
    if moves > 0 {
        if ix.wins_at_once(&pos) {
            return w_win(1);
        }
        debug_assert!(moves < 0x4000);
        return moves as u16;
    }
    match pos.outcome() {
        Some(o) => match outcome_value(&pos, o) {
            Value::Win(_) => w_win(0),
            Value::Loss(_) => w_loss(0),
            Value::Draw => W_DRAW,
        },
        None => unreachable!("no legal move but the game goes on"),
    }
}

/// The positions resolved at one distance, in a buffer of fixed capacity. When more are
/// resolved than it holds, it overflows and the level is found again by a scan of the table
/// (every entry resolved at that distance); so its memory is bounded whatever the level
/// sizes (the largest, the wins in 1 found at the start, hold half of all entries).
struct Frontier {
    items: Vec<AtomicU32>,
    /// Positions pushed (also those beyond the capacity).
    len: AtomicU64,
}

impl Frontier {
    fn new(cap: usize) -> Frontier {
        Frontier {
            items: (0..cap).map(|_| AtomicU32::new(0)).collect(),
            len: AtomicU64::new(0),
        }
    }

    fn len(&self) -> u64 {
        self.len.load(Ordering::Relaxed)
    }

    fn overflowed(&self) -> bool {
        self.len() > self.items.len() as u64
    }

    /// Appends a thread's batch (and clears it).
    fn push(&self, batch: &mut Vec<u32>) {
        if batch.is_empty() {
            return;
        }
        let at = self.len.fetch_add(batch.len() as u64, Ordering::Relaxed) as usize;
        if at < self.items.len() {
            for (slot, &i) in self.items[at..].iter().zip(batch.iter()) {
                slot.store(i, Ordering::Relaxed);
            }
        }
        batch.clear();
    }

    fn clear(&self) {
        self.len.store(0, Ordering::Relaxed);
    }
}

/// Positions a thread collects before it appends them to a [`Frontier`].
const PUSH_BATCH: usize = 4096;

/// Capacity of each of the two level buffers for an index of `entries` entries: a
/// sixteenth of the entries (larger levels are found by scanning the table).
pub fn level_capacity(entries: u64) -> u64 {
    entries.div_ceil(16)
}

/// Solves every entry of `ix` with `threads` threads; `progress` is called now and then.
/// Memory: two bytes per entry and two level buffers of [`level_capacity`] positions (four
/// bytes each); see [`memory_estimate`](crate::memory_estimate).
pub fn solve<I: Indexed>(ix: I, threads: usize, progress: &(dyn Fn(Progress) + Sync)) -> Table<I> {
    let t0 = Instant::now();
    let n = ix.len();
    assert!(n <= u32::MAX as u64, "entries must fit 32 bits");
    let threads = threads.max(1);
    let work: Vec<AtomicU16> = (0..n).map(|_| AtomicU16::new(0)).collect();
    let resolved = AtomicU64::new(0);
    let cap = level_capacity(n) as usize;
    let mut level = Frontier::new(cap);
    let mut early = Frontier::new(cap);

    // Phase 1.
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let stalemates = AtomicU64::new(0);
    let reporter = AtomicBool::new(false);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut local = [Vec::new(), Vec::new()];
                let mut st = 0u64;
                loop {
                    let lo = next.fetch_add(CHUNK, Ordering::Relaxed);
                    if lo >= n {
                        break;
                    }
                    let hi = (lo + CHUNK).min(n);
                    for i in lo..hi {
                        let code = start_code(&ix, i);
                        match code {
                            W_ILLEGAL => {}
                            W_DRAW => st += 1,
                            c if c & W_RESOLVED != 0 => {
                                let d = (c & 0x3FFF) as usize;
                                local[d].push(i as u32);
                                if local[d].len() >= PUSH_BATCH {
                                    [&level, &early][d].push(&mut local[d]);
                                }
                            }
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
                let [mut a, mut b] = local;
                level.push(&mut a);
                early.push(&mut b);
            });
        }
    });
    let start_time = t0.elapsed();
    resolved.fetch_add(level.len() + early.len(), Ordering::Relaxed);
    let mut per_distance = Vec::new();

    // Phase 2.
    let mut d: u16 = 0;
    while level.len() > 0 || early.len() > 0 {
        assert!(d < MAX_DISTANCE, "distance beyond the working codes");
        per_distance.push(level.len());
        let early_len = early.len();
        let next_level = &early;
        let cursor = AtomicU64::new(0);
        let done = AtomicU64::new(0);
        let total = level.len();
        // An overflowed level is found again by scanning the table for its codes.
        let scan = level.overflowed();
        let (units, chunk) = if scan { (n, CHUNK) } else { (total, 4096u64) };
        let level_ref = &level;
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| {
                    let mut local = Vec::new();
                    let mut buf = Vec::new();
                    let mut seen = Vec::new();
                    let mut items: Vec<u32> = Vec::with_capacity(BATCH);
                    loop {
                        let lo = cursor.fetch_add(chunk, Ordering::Relaxed);
                        if lo >= units {
                            break;
                        }
                        let hi = (lo + chunk).min(units);
                        let mut count = 0u64;
                        for k in lo..hi {
                            let i = if scan {
                                let c = work[k as usize].load(Ordering::Relaxed);
                                if c == W_ILLEGAL
                                    || c == W_DRAW
                                    || c & W_RESOLVED == 0
                                    || c & 0x3FFF != d
                                {
                                    continue;
                                }
                                k as u32
                            } else {
                                level_ref.items[k as usize].load(Ordering::Relaxed)
                            };
                            count += 1;
                            items.push(i);
                            if items.len() == BATCH {
                                propagate(&ix, &work, &items, d, &mut local, &mut buf, &mut seen);
                                items.clear();
                                if local.len() >= PUSH_BATCH {
                                    next_level.push(&mut local);
                                }
                            }
                        }
                        if !items.is_empty() {
                            propagate(&ix, &work, &items, d, &mut local, &mut buf, &mut seen);
                            items.clear();
                        }
                        let dn = done.fetch_add(count, Ordering::Relaxed) + count;
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
                    next_level.push(&mut local);
                });
            }
        });
        debug_assert_eq!(done.load(Ordering::Relaxed), total);
        // The early wins in 1 were counted at the start.
        resolved.fetch_add(early.len() - early_len, Ordering::Relaxed);
        std::mem::swap(&mut level, &mut early);
        early.clear();
        d += 1;
    }
    drop((level, early));

    let mut t = Table {
        index: ix,
        work,
        stats: Stats::default(),
    };
    let mut stats = t.count();
    stats.stalemates = stalemates.load(Ordering::Relaxed);
    stats.per_distance = per_distance;
    stats.start_time = start_time;
    stats.total_time = t0.elapsed();
    t.stats = stats;
    t
}

impl<I: Indexed> Table<I> {
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

/// Passes the values of the resolved entries `items` (distance `d`) to their predecessors:
/// the predecessors of a batch are listed first and their cells read with plain loads
/// (which the processor overlaps), then updated with atomics.
fn propagate<I: Indexed>(
    ix: &I,
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
        let c = ix.decode(i as u64);
        // Moves are counted per stored position: a move of Q "leads to" P when it leads to P
        // or to P's mirror image. Un-moves from P find, for a stored Q, its moves into P,
        // and (as un-moves of Q's mirror image) its moves into P's mirror image. If P is its
        // own mirror image, both finds are the same moves, so only Q itself counts; if Q is
        // its own mirror image and P is not, Q's moves into P's mirror image mirror its
        // moves into P and are found once, so they count twice.
        let p_symmetric = ix.mirror(&c) == c;
        ix.predecessors(&ix.flip(&c), |q| {
            if ix.skip(q) {
                return;
            }
            let stored = ix.canonical(q);
            let weight = if p_symmetric {
                if stored != *q {
                    return;
                }
                1
            } else if ix.mirror(q) == *q {
                2
            } else {
                1
            };
            if let Some(qi) = ix.index(&stored) {
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

/// What an entry must hold, from forward move generation and the stored values of the
/// successors only (the Bellman equation): no position, the outcome of a finished game, or
/// the best of the moves' values (a move ending the game valued by its outcome).
pub fn expected_entry<I: Indexed>(
    ix: &I,
    index: u64,
    value: impl Fn(&Position<I::V>) -> Option<Value>,
) -> Option<Entry> {
    let Some(pos) = ix.position(index) else {
        return Some(Entry::Illegal);
    };
    if let Some(o) = pos.outcome() {
        return Some(Entry::Value(outcome_value(&pos, o)));
    }
    let mut best: Option<Value> = None;
    for m in pos.legal_moves().iter() {
        let v = child_value(&pos, *m, &value)?;
        if best.map_or(true, |b| v.rank() > b.rank()) {
            best = Some(v);
        }
    }
    Some(Entry::Value(best.unwrap_or(Value::Draw)))
}

/// [`expected_entry`] for the entry `i` of a solved table, from the stored values of the
/// successors: the position is checked with [`Position::from_setup`], its moves are made
/// and unmade in place, and a successor with an entry is valued by its stored value (a
/// finished successor's stored value is its outcome, which its own entry's check
/// confirms), one without an entry (the game over) by its outcome.
fn bellman_expected<I: Indexed>(
    t: &Table<I>,
    i: u64,
    moves: &mut Vec<kshogi_core::Move>,
) -> Option<Entry> {
    let ix = &t.index;
    let c = ix.decode(i);
    if ix.canonical(&c) != c {
        return Some(Entry::Illegal);
    }
    let Ok(mut pos) = Position::<I::V>::from_setup(&ix.to_setup(&c)) else {
        return Some(Entry::Illegal);
    };
    moves.clear();
    pos.generate(|b| {
        pos.expand(b, |m| moves.push(m));
        false
    });
    if moves.is_empty() {
        // The game is over (the variant decided it), or the side to move has no move.
        return Some(Entry::Value(
            pos.outcome()
                .map_or(Value::Draw, |o| outcome_value(&pos, o)),
        ));
    }
    let mut best: Option<Value> = None;
    for &m in moves.iter() {
        let undo = pos.make(m);
        let v = match ix.index_any(&pos) {
            Some(j) => match t.entry(j) {
                Entry::Value(v) => Some(v.back()),
                Entry::Illegal => None,
            },
            None => pos.outcome().map(|o| outcome_value(&pos, o).back()),
        };
        pos.unmake(m, undo);
        let v = v?;
        if best.map_or(true, |b| v.rank() > b.rank()) {
            best = Some(v);
        }
    }
    best.map(Entry::Value)
}

/// The Bellman check of every entry of a solved table, with `threads` threads: the entries
/// that disagree with [`expected_entry`] (at most `limit` of them) and the number checked.
/// `progress` gets entries done and the total.
pub fn bellman_all<I: Indexed>(
    t: &Table<I>,
    threads: usize,
    limit: usize,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> (Vec<(u64, Entry, Option<Entry>)>, u64) {
    let n = t.index.len();
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let bad = Mutex::new(Vec::new());
    let reporter = AtomicBool::new(false);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut moves = Vec::with_capacity(64);
                loop {
                    let lo = next.fetch_add(CHUNK, Ordering::Relaxed);
                    if lo >= n {
                        break;
                    }
                    let hi = (lo + CHUNK).min(n);
                    for i in lo..hi {
                        let stored = t.entry(i);
                        let expected = bellman_expected(t, i, &mut moves);
                        if expected != Some(stored) {
                            let mut b = bad.lock().expect("no panics");
                            if b.len() < limit {
                                b.push((i, stored, expected));
                            }
                        }
                    }
                    let d = done.fetch_add(hi - lo, Ordering::Relaxed) + (hi - lo);
                    if !reporter.swap(true, Ordering::Acquire) {
                        progress(d, n);
                        reporter.store(false, Ordering::Release);
                    }
                }
            });
        }
    });
    (bad.into_inner().expect("no panics"), n)
}

/// Whether the side to move can force a win within `plies` plies (plain minimax over
/// core's move generator).
pub fn forced_win<V: Variant>(pos: &Position<V>, plies: u16) -> bool {
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
pub fn forced_loss<V: Variant>(pos: &Position<V>, plies: u16) -> bool {
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
pub fn search_agrees<V: Variant>(pos: &Position<V>, stated: Value, horizon: u16) -> bool {
    match stated {
        Value::Win(d) => forced_win(pos, d) && (d == 0 || !forced_win(pos, d - 1)),
        Value::Loss(d) => forced_loss(pos, d) && (d == 0 || !forced_loss(pos, d - 1)),
        Value::Draw => !forced_win(pos, horizon) && !forced_loss(pos, horizon),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dobutsu::DobutsuIndex;
    use crate::kinzoku::KinzokuIndex;

    fn quiet(_: Progress) {}

    fn rng(x: &mut kshogi_core::rng::SplitMix64) -> u64 {
        x.next_u64()
    }

    /// A sub-game solved, then checked entry by entry against forward move generation
    /// (Bellman) and on samples against plain exhaustive search.
    fn check_sub_game(kinds: [bool; 3], samples: usize, horizon: u16) -> Stats {
        let t = solve(DobutsuIndex::with_kinds(kinds), 2, &quiet);
        let (bad, n) = bellman_all(&t, 2, 10, &|_, _| {});
        assert_eq!(n, t.index().len());
        assert!(bad.is_empty(), "{kinds:?}: {bad:?}");
        let mut x = kshogi_core::rng::SplitMix64::new(0x2545_F491_4F6C_DD1D);
        let mut checked = 0;
        while checked < samples {
            let i = rng(&mut x) % t.index().len();
            let Entry::Value(v) = t.entry(i) else {
                continue;
            };
            if v.plies().is_some_and(|d| d > horizon) {
                continue;
            }
            let pos = t.index().position(i).unwrap();
            assert!(
                search_agrees(&pos, v, horizon),
                "{kinds:?} entry {i}: {v:?}"
            );
            checked += 1;
        }
        t.stats().clone()
    }

    #[test]
    fn dobutsu_lions_and_chicks_agree_with_search() {
        let s = check_sub_game([false, false, true], 300, 5);
        assert!(s.wins > 0 && s.losses > 0 && s.draws > 0, "{s:?}");
    }

    #[test]
    fn dobutsu_lions_and_giraffes_agree_with_search() {
        let s = check_sub_game([true, false, false], 300, 5);
        assert!(s.wins > 0 && s.losses > 0, "{s:?}");
    }

    /// The Kinzoku game with at most two pieces besides the kings: the counts the
    /// Kinzoku-only solver (an independent implementation, removed since) gave for it.
    #[test]
    fn kinzoku_two_pieces_as_the_kinzoku_only_solver_found() {
        let t = solve(KinzokuIndex::new(2), 2, &quiet);
        let s = t.stats();
        assert_eq!(s.entries, 1_865_360);
        assert_eq!((s.wins, s.losses, s.draws), (337_616, 249_096, 39_296));
        assert_eq!((s.stalemates, s.illegal), (7_089, 1_239_352));
        assert_eq!((s.longest_win.0, s.longest_loss.0), (48, 49));
        assert_eq!(
            s.per_distance,
            [
                264914, 83492, 45042, 33252, 29436, 19783, 26569, 15958, 21179, 9495, 11525, 6027,
                4219, 2663, 2780, 1996, 2227, 1471, 1505, 766, 742, 429, 341, 220, 159, 104, 81,
                49, 49, 25, 46, 21, 31, 16, 17, 8, 9, 5, 6, 10, 6, 9, 10, 2, 5, 5, 3, 2, 2, 1
            ]
        );
    }
}
