//! The transposition table: a fixed array of clusters of four entries, sized from a number of
//! MiB and never larger.

use crate::search::MATE_BOUND;
use kshogi_core::Move;

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

/// One entry: 12 bytes.
#[derive(Copy, Clone, Debug, Default)]
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
    /// Static evaluation, unused for now but keeps the entry at 12 bytes.
    _pad: i16,
}

const WAYS: usize = 4;

/// A cluster: the entries one hash may occupy.
#[derive(Copy, Clone, Debug, Default)]
struct Cluster([Entry; WAYS]);

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

/// The table.
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
            clusters: vec![Cluster::default(); n],
            generation: 0,
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.clusters.fill(Cluster::default());
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
            for e in &c.0 {
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
        for e in &c.0 {
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
    pub fn store(&mut self, hash: u64, ply: usize, mv: Move, score: i32, depth: i32, bound: Bound) {
        let key = (hash >> 32) as u32;
        let generation = self.generation;
        let idx = self.index(hash);
        let c = &mut self.clusters[idx];
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, e) in c.0.iter().enumerate() {
            if e.key == key && e.flags & 3 != 0 {
                victim = i;
                worst = i32::MIN;
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
            }
        }
        let e = &mut c.0[victim];
        let same = worst == i32::MIN;
        if same
            && bound != Bound::Exact
            && (depth as i8) < e.depth - 2
            && e.flags >> 2 == generation
        {
            // A much deeper result for the same position stays.
            if mv != Move::NULL && e.mv == 0 {
                e.mv = mv.bits();
            }
            return;
        }
        let keep_move = same && mv == Move::NULL;
        let b = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        *e = Entry {
            key,
            mv: if keep_move { e.mv } else { mv.bits() },
            score: to_tt(score, ply).clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(-100, 127) as i8,
            flags: b | generation << 2,
            _pad: 0,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    #[test]
    fn entry_and_cluster_sizes() {
        assert_eq!(core::mem::size_of::<Entry>(), 12);
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
        let mut t = Table::new(1);
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
}
