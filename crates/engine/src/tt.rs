//! The transposition table: a fixed array of clusters of four entries, sized from a number of
//! MiB and never larger.

use crate::bounds::MATE_BOUND;
use kshogi_core::Move;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

/// What a stored score is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The exact value.
    Exact,
    /// At least this (the search failed high).
    Lower,
    /// At most this (the search failed low).
    Upper,
}

impl Bound {
    /// The bound of a search's result `best` in the window (`alpha`, `beta`) it was given.
    #[inline(always)]
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One entry as plain fields: 12 bytes once packed into an [`Slot`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Entry {
    /// The upper 32 bits of the position's hash (the lower bits chose the cluster).
    key: u32,
    /// Best or refuting move, [`Move::NULL`] for none.
    mv: u16,
    /// Score, mate scores relative to this node.
    score: i16,
    /// Remaining depth of the search that stored it.
    depth: i8,
    /// Bits 0-1: bound (0 = empty, 1 exact, 2 lower, 3 upper); bits 2-7: generation.
    flags: u8,
}

/// One entry as the table holds it: three 32-bit words that the search threads read and
/// write without locks (a plain array, so that a table can be allocated already zeroed,
/// see [`Table::new`]). The first word is the key XOR the other two, so an entry torn by
/// two threads writing it at once (one word from each) fails the key check and reads as a
/// miss instead of a wrong move or score (the lockless scheme of Hyatt and Mann). With one
/// thread the words are always consistent and relaxed atomics compile to plain moves.
type Slot = [AtomicU32; 3];

/// Reading and writing a [`Slot`] as an [`Entry`].
trait SlotOps {
    fn load(&self) -> Entry;
    fn store(&self, e: Entry);
    fn clear(&self);
}

impl SlotOps for Slot {
    #[inline(always)]
    fn load(&self) -> Entry {
        let w0 = self[0].load(Relaxed);
        let w1 = self[1].load(Relaxed);
        let w2 = self[2].load(Relaxed);
        Entry {
            key: w0 ^ w1 ^ w2,
            mv: w1 as u16,
            score: (w1 >> 16) as u16 as i16,
            depth: w2 as u8 as i8,
            flags: (w2 >> 8) as u8,
        }
    }

    #[inline(always)]
    fn store(&self, e: Entry) {
        let w1 = u32::from(e.mv) | u32::from(e.score as u16) << 16;
        let w2 = u32::from(e.depth as u8) | u32::from(e.flags) << 8;
        self[1].store(w1, Relaxed);
        self[2].store(w2, Relaxed);
        self[0].store(e.key ^ w1 ^ w2, Relaxed);
    }

    #[inline(always)]
    fn clear(&self) {
        for w in self {
            w.store(0, Relaxed);
        }
    }
}

const WAYS: usize = 4;

/// The largest table [`Table::clear`] clears by writing zeros over it (32 MiB); a larger one
/// gets a fresh zeroed allocation instead.
const CLEAR_BY_WRITING: usize = 32 << 20;

/// A cluster: the entries one hash may occupy (48 bytes).
type Cluster = [Slot; WAYS];

/// What a probe found.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Hit {
    /// Stored move (may be [`Move::NULL`]).
    pub mv: Move,
    /// Score, already adjusted to the probing node's ply.
    pub score: i32,
    /// Stored depth.
    pub depth: i32,
    /// Bound of the score.
    pub bound: Bound,
}

impl Hit {
    /// Whether the stored score decides a node searched with the window (`alpha`, `beta`).
    #[inline(always)]
    pub fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

/// The table, shared by the threads of a search (Lazy SMP) through `&Table`.
pub(crate) struct Table {
    clusters: Vec<Cluster>,
    generation: u8,
}

/// Mate scores are stored relative to the node (distance from it), and read back relative
/// to the root.
#[inline(always)]
pub(crate) fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`].
#[inline(always)]
pub(crate) fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl Table {
    /// A table of at most `mb` MiB (at least one cluster).
    pub fn new(mb: usize) -> Table {
        let bytes = mb.saturating_mul(1 << 20);
        let n = (bytes / core::mem::size_of::<Cluster>()).max(1);
        Table {
            clusters: bytemuck::zeroed_vec(n),
            generation: 0,
        }
    }

    /// Empties the table: a table larger than [`CLEAR_BY_WRITING`] is replaced by a new
    /// zeroed allocation (which the system hands out as untouched zero pages, so clearing
    /// 4 GiB costs no more than the pages the next search touches), a smaller one is written
    /// over.
    pub fn clear(&mut self) {
        if self.bytes() > CLEAR_BY_WRITING {
            let n = self.clusters.len();
            self.clusters = Vec::new();
            self.clusters = bytemuck::zeroed_vec(n);
        } else {
            for c in &self.clusters {
                for e in c {
                    e.clear();
                }
            }
        }
        self.generation = 0;
    }

    /// Starts a new search: entries of older searches are replaced first.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    /// Number of entries.
    pub fn entries(&self) -> usize {
        self.clusters.len() * WAYS
    }

    /// Bytes used by the entries.
    pub fn bytes(&self) -> usize {
        self.clusters.len() * core::mem::size_of::<Cluster>()
    }

    /// Per mille of the first thousand entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let n = (1000 / WAYS).min(self.clusters.len());
        let mut used = 0;
        for c in &self.clusters[..n] {
            for e in c {
                let e = e.load();
                if e.flags & 3 != 0 && e.flags >> 2 == self.generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * WAYS)) as u32
    }

    #[inline(always)]
    fn index(&self, hash: u64) -> usize {
        (((hash & 0xFFFF_FFFF) * self.clusters.len() as u64) >> 32) as usize
    }

    /// Looks up `hash` for a node at `ply`.
    #[inline]
    pub fn probe(&self, hash: u64, ply: usize) -> Option<Hit> {
        let key = (hash >> 32) as u32;
        let c = &self.clusters[self.index(hash)];
        for e in c {
            let e = e.load();
            if e.key == key && e.flags & 3 != 0 {
                let bound = match e.flags & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                };
                return Some(Hit {
                    mv: Move::from_bits(e.mv),
                    score: from_tt(e.score as i32, ply),
                    depth: e.depth as i32,
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result for `hash` at `ply`. Keeps an existing move when `mv` is null.
    #[inline]
    pub fn store(&self, hash: u64, ply: usize, mv: Move, score: i32, depth: i32, bound: Bound) {
        let key = (hash >> 32) as u32;
        let generation = self.generation;
        let c = &self.clusters[self.index(hash)];
        let mut victim = 0;
        let mut worst = i32::MAX;
        let mut old = Entry::default();
        for (i, slot) in c.iter().enumerate() {
            let e = slot.load();
            if e.key == key && e.flags & 3 != 0 {
                victim = i;
                worst = i32::MIN;
                old = e;
                break;
            }
            // Empty entries first, then old generations, then shallow ones.
            let value = if e.flags & 3 == 0 {
                i32::MIN + 1
            } else {
                let age = (generation as i32 - (e.flags >> 2) as i32) & 63;
                e.depth as i32 - 8 * age
            };
            if value < worst {
                worst = value;
                victim = i;
                old = e;
            }
        }
        let slot = &c[victim];
        let same = worst == i32::MIN;
        if same
            && bound != Bound::Exact
            && (depth as i8) < old.depth - 2
            && old.flags >> 2 == generation
        {
            // A much deeper result for the same position stays.
            if mv != Move::NULL && old.mv == 0 {
                slot.store(Entry {
                    mv: mv.bits(),
                    ..old
                });
            }
            return;
        }
        let keep_move = same && mv == Move::NULL;
        let b = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        slot.store(Entry {
            key,
            mv: if keep_move { old.mv } else { mv.bits() },
            score: to_tt(score, ply).clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(-100, 127) as i8,
            flags: b | generation << 2,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounds::MATE;

    #[test]
    fn entry_and_cluster_sizes() {
        assert_eq!(core::mem::size_of::<Slot>(), 12);
        assert_eq!(core::mem::size_of::<Cluster>(), 48);
    }

    #[test]
    fn size_is_bounded_by_the_option() {
        for mb in [0, 1, 3, 16] {
            let t = Table::new(mb);
            assert!(
                t.bytes() <= (mb << 20).max(48),
                "{mb} MiB: {} bytes",
                t.bytes()
            );
            assert!(t.entries() >= 4);
        }
        assert_eq!(Table::new(1).entries(), (1 << 20) / 48 * 4);
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let t = Table::new(1);
        // Found at ply 3: the side to move there mates 2 plies later (mate at ply 5 from the
        // root).
        t.store(
            0x1234_5678_9abc_def0,
            3,
            Move::NULL,
            MATE - 5,
            4,
            Bound::Exact,
        );
        // Read at ply 7 (the same position reached by a longer path): mate at ply 9.
        let hit = t.probe(0x1234_5678_9abc_def0, 7).unwrap();
        assert_eq!(hit.score, MATE - 9);
        t.store(
            0x1111_0000_0000_1111,
            2,
            Move::NULL,
            -(MATE - 6),
            4,
            Bound::Upper,
        );
        assert_eq!(
            t.probe(0x1111_0000_0000_1111, 4).unwrap().score,
            -(MATE - 8)
        );
        assert_eq!(
            t.probe(0x1111_0000_0000_1111, 4).unwrap().bound,
            Bound::Upper
        );
        t.store(0x2222_0000_0000_2222, 2, Move::NULL, 150, 4, Bound::Lower);
        assert_eq!(t.probe(0x2222_0000_0000_2222, 9).unwrap().score, 150);
        assert!(t.probe(0x3333_0000_0000_3333, 0).is_none());
    }
    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let t = Table::new(1);
        let h = 0x5555_0000_0000_0042;
        t.store(h, 0, Move::NULL, 77, 5, Bound::Exact);
        assert_eq!(t.probe(h, 0).unwrap().score, 77);
        // Another thread's write of the move-and-score word lands without the others.
        let c = &t.clusters[t.index(h)];
        let slot = c.iter().find(|s| s.load().key == (h >> 32) as u32).unwrap();
        slot[1].store(slot[1].load(Relaxed) ^ (123 << 16), Relaxed);
        assert!(t.probe(h, 0).is_none());
    }

    /// Threads storing and probing the same small table at once: every hit carries the
    /// score and depth that some thread stored for that very hash, never a torn mixture.
    #[test]
    fn concurrent_stores_never_yield_a_foreign_score() {
        let t = Table::new(0);
        assert_eq!(t.entries(), 4);
        let score_of = |h: u64| ((h >> 40) % 2000) as i32 - 1000;
        let depth_of = |h: u64| ((h >> 20) % 50) as i32;
        let bad = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|s| {
            for id in 0..4u64 {
                let (t, bad) = (&t, &bad);
                s.spawn(move || {
                    let mut rng = kshogi_core::rng::SplitMix64::new(id);
                    for _ in 0..200_000 {
                        let x = rng.next_u64();
                        // Few distinct keys, so that threads overwrite each other's entries.
                        let h = (x & 0xF) << 32 | (x & 0xF) << 40 | (x & 0xF) << 20;
                        if x & 1 == 0 {
                            t.store(h, 0, Move::NULL, score_of(h), depth_of(h), Bound::Lower);
                        } else if let Some(hit) = t.probe(h, 0) {
                            if hit.score != score_of(h) || hit.depth != depth_of(h) {
                                bad.fetch_add(1, Relaxed);
                            }
                        }
                    }
                });
            }
        });
        assert_eq!(bad.into_inner(), 0);
    }
}
