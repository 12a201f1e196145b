//! The df-pn mate solver.
//!
//! The attacker is the side to move. At its nodes (OR nodes) it may play the moves that give
//! check and the moves that win at once (after which the game is over and won: Kinzoku king
//! entry, a stalemate where stalemate loses), or every move where
//! [`Evaluator::attacker_unrestricted`] says the rules force the game to end soon (the Kinzoku
//! lone king during the countdown). At the defender's nodes (AND nodes) every legal move is
//! tried. A position whose game is over is proven when the attacker has won and disproven
//! otherwise (a loss or a draw); a position that repeats one on the search path is
//! disproven for that path.
//!
//! The search is depth-first proof-number search (Nagai's df-pn) with a transposition table
//! of (proof number, disproof number) of bounded size, and mobility-based initial proof
//! numbers (the number of replies to a check). Once the root is proven, an exact
//! iterative-deepening search over the same moves finds the shortest win, since a df-pn proof
//! need not be shortest, and extracts the line (the defender choosing the longest
//! resistance).

use crate::Evaluator;
use kshogi_core::Variant;
use kshogi_core::{Color, Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// The side to move mates (or wins by any variant win) in `plies`, with a main line.
    Mate {
        /// Plies to the end.
        plies: u32,
        /// The line, attacker and defender moves alternating.
        pv: Vec<Move>,
    },
    /// Proven: there is no forced win by checks.
    NoMate,
    /// The node limit or `stop` ended the search first.
    Unknown,
}

/// Looks for a forced win by the side to move where every attacking move gives check
/// (or wins at once), within `max_nodes` nodes.
///
/// The df-pn search gets `max_nodes` nodes; when it proves a win, the exact search that
/// shortens the proof and extracts the line gets up to `max_nodes` more. If that runs out,
/// the result is still [`MateResult::Mate`], with the (possibly longer) distance of the df-pn
/// proof and the line read from its table. A position whose game is already over gives
/// `Mate { plies: 0, pv: [] }` when the side to move has won, and `NoMate` otherwise.
///
/// `NoMate` means that no win by such moves exists, except that a line that repeats a
/// position counts as failed for the attacker (the repetition rules would end the game in
/// a draw, or in Micro could make the checker lose), and lines longer than 240 plies are
/// not followed.
pub fn solve<V: Variant, E: Evaluator<V>>(
    pos: &Position<V>,
    max_nodes: u64,
    stop: &AtomicBool,
) -> MateResult {
    let attacker = pos.side_to_move();
    if let Some(o) = pos.outcome() {
        return if o.winner() == Some(attacker) {
            MateResult::Mate {
                plies: 0,
                pv: Vec::new(),
            }
        } else {
            MateResult::NoMate
        };
    }
    let mut s = Solver::<V, E>::new(attacker, max_nodes, stop);
    let mut root = *pos;
    let (pn, dn, dist) = s.mid(&mut root, 0, INF, INF);
    if pn != 0 {
        return if dn == 0 && !s.aborted {
            MateResult::NoMate
        } else {
            MateResult::Unknown
        };
    }
    // Proven. Shorten and extract the line with the exact search.
    let mut ex = Exact::<V, E>::new(attacker, max_nodes, stop, &s.tt);
    let mut best = None;
    for d in 1..=dist as u32 {
        if ex.win_within(&mut root, d, 0) {
            best = Some(d);
            break;
        }
        if ex.aborted {
            break;
        }
    }
    if let Some(d) = best {
        if let Some(pv) = ex.line(&root, d) {
            return MateResult::Mate { plies: d, pv };
        }
    }
    MateResult::Mate {
        plies: dist as u32,
        pv: s.tt_line(&root, dist),
    }
}

/// Infinite proof or disproof number.
const INF: u32 = u32::MAX;
/// Deepest path followed.
const MAX_DEPTH: usize = 240;

/// One table entry.
#[derive(Copy, Clone, Debug, Default)]
struct Entry {
    key: u64,
    pn: u32,
    dn: u32,
    /// Nodes spent under this entry (replacement priority).
    work: u32,
    /// For a proven node: plies of the proof found.
    dist: u16,
}

const WAYS: usize = 4;

/// The (pn, dn) table: buckets of four entries, a fixed number of entries.
struct Table {
    entries: Vec<Entry>,
    buckets: usize,
}

impl Table {
    fn new(max_nodes: u64) -> Table {
        let want = max_nodes.saturating_mul(2).clamp(1 << 12, 1 << 21) as usize;
        let buckets = (want / WAYS).next_power_of_two();
        Table {
            entries: vec![Entry::default(); buckets * WAYS],
            buckets,
        }
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        (key as usize & (self.buckets - 1)) * WAYS
    }

    #[inline]
    fn get(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.entries[b..b + WAYS]
            .iter()
            .find(|e| e.key == key && (e.pn | e.dn) != 0)
            .copied()
    }

    #[inline]
    fn put(&mut self, key: u64, pn: u32, dn: u32, dist: u16, work: u32) {
        let b = self.bucket(key);
        let bucket = &mut self.entries[b..b + WAYS];
        let mut victim = 0;
        let mut least = u64::MAX;
        for (i, e) in bucket.iter().enumerate() {
            if e.key == key {
                victim = i;
                break;
            }
            // Empty entries first; then the one with the least work; results are kept longer.
            let prio = if (e.pn | e.dn) == 0 {
                0
            } else if e.pn == 0 || e.dn == 0 {
                e.work as u64 + (1 << 32)
            } else {
                e.work as u64 + 1
            };
            if prio < least {
                least = prio;
                victim = i;
            }
        }
        let e = &mut bucket[victim];
        let work = if e.key == key {
            work.saturating_add(e.work)
        } else {
            work
        };
        *e = Entry {
            key,
            pn,
            dn,
            work,
            dist,
        };
    }
}

/// Whether the attacker won, for a position whose game is over.
#[inline(always)]
fn terminal<V: Variant>(pos: &Position<V>, attacker: Color) -> Option<bool> {
    pos.outcome().map(|o| o.winner() == Some(attacker))
}

/// The df-pn search.
struct Solver<'a, V: Variant, E: Evaluator<V>> {
    tt: Table,
    attacker: Color,
    nodes: u64,
    limit: u64,
    stop: &'a AtomicBool,
    aborted: bool,
    /// Hash of the position at each ply of the path.
    path: Vec<u64>,
    /// The children of every node on the path, as a stack: a node's children are pushed on
    /// top and popped when it returns (the capacity is reserved once).
    children: Vec<Child>,
    _v: core::marker::PhantomData<(V, E)>,
}

/// A child of a df-pn node.
#[derive(Copy, Clone, Debug)]
struct Child {
    mv: Move,
    key: u64,
    /// Initial (pn, dn) before the child has an entry.
    init: (u32, u32),
    /// Whether the child repeats a position of the path.
    on_path: bool,
}

impl<'a, V: Variant, E: Evaluator<V>> Solver<'a, V, E> {
    fn new(attacker: Color, limit: u64, stop: &'a AtomicBool) -> Self {
        Solver {
            tt: Table::new(limit),
            attacker,
            nodes: 0,
            limit,
            stop,
            aborted: false,
            path: vec![0; MAX_DEPTH + 2],
            children: Vec::with_capacity(1 << 14),
            _v: core::marker::PhantomData,
        }
    }

    /// Stores and returns a result.
    #[inline]
    fn result(&mut self, key: u64, pn: u32, dn: u32, dist: u16, work: u64) -> (u32, u32, u16) {
        self.tt
            .put(key, pn, dn, dist, work.min(u32::MAX as u64) as u32);
        (pn, dn, dist)
    }

    /// Pushes the children of `pos` (at `ply`) on the children stack; returns how many. At
    /// OR nodes only the attacker's allowed moves; terminal children are stored in the table
    /// at once.
    fn expand(&mut self, pos: &mut Position<V>, ply: usize) -> usize {
        let base = self.children.len();
        let children = &mut self.children;
        pos.generate_unadjudicated(|b| {
            pos.expand(b, |mv| {
                children.push(Child {
                    mv,
                    key: 0,
                    init: (1, 1),
                    on_path: false,
                })
            });
            false
        });
        let total = self.children.len() - base;
        let or_node = pos.side_to_move() == self.attacker;
        let unrestricted = or_node && E::attacker_unrestricted(pos);
        let mut n = 0;
        for i in 0..total {
            let mv = self.children[base + i].mv;
            let undo = pos.make(mv);
            let key = pos.hash();
            let mut include = true;
            let mut init = (1, 1);
            if or_node {
                let check = pos.in_check();
                let replies = pos.count_legal();
                if replies == 0 {
                    // The game is over after this move (mate, stalemate, king entry, ...).
                    let win = terminal(pos, self.attacker) == Some(true);
                    init = if win { (0, INF) } else { (INF, 0) };
                    include = win || check || unrestricted;
                    self.tt.put(key, init.0, init.1, 0, 0);
                } else {
                    include = check || unrestricted;
                    init = (replies.min(INF as u64 - 1) as u32, 1);
                }
            }
            pos.unmake(mv, undo);
            if include {
                let on_path = self.path[..=ply].contains(&key);
                self.children[base + n] = Child {
                    mv,
                    key,
                    init,
                    on_path,
                };
                n += 1;
            }
        }
        self.children.truncate(base + n);
        n
    }

    /// Multiple iterative deepening: expands `pos` until its proof number reaches `th_pn` or
    /// its disproof number `th_dn`. Returns (pn, dn, proof distance).
    fn mid(
        &mut self,
        pos: &mut Position<V>,
        ply: usize,
        th_pn: u32,
        th_dn: u32,
    ) -> (u32, u32, u16) {
        let start_nodes = self.nodes;
        self.nodes += 1;
        if self.nodes >= self.limit || (self.nodes & 1023 == 0 && self.stop.load(Ordering::Relaxed))
        {
            self.aborted = true;
            return (1, 1, 0);
        }
        let key = pos.hash();
        self.path[ply] = key;
        if let Some(win) = terminal(pos, self.attacker) {
            return if win {
                self.result(key, 0, INF, 0, 1)
            } else {
                self.result(key, INF, 0, 0, 1)
            };
        }
        if ply >= MAX_DEPTH {
            // Too deep: failed for this path (not stored).
            return (INF, 0, 0);
        }
        let or_node = pos.side_to_move() == self.attacker;
        let base = self.children.len();
        let n = self.expand(pos, ply);
        if n == 0 {
            // An attacker with no check: disproven.
            return self.result(key, INF, 0, 0, 1);
        }
        let r = self.search_children(pos, ply, th_pn, th_dn, or_node, base, n);
        self.children.truncate(base);
        let (pn, dn, dist) = r;
        self.result(key, pn, dn, dist, self.nodes - start_nodes)
    }

    /// The loop of [`Solver::mid`] over the `n` children at `base` of the children stack.
    #[allow(clippy::too_many_arguments)]
    fn search_children(
        &mut self,
        pos: &mut Position<V>,
        ply: usize,
        th_pn: u32,
        th_dn: u32,
        or_node: bool,
        base: usize,
        n: usize,
    ) -> (u32, u32, u16) {
        loop {
            // Gather the children's numbers.
            let mut pn: u64 = if or_node { INF as u64 } else { 0 };
            let mut dn: u64 = if or_node { 0 } else { INF as u64 };
            let mut best = 0;
            let mut best_val = u32::MAX;
            let mut second = INF;
            let mut best_pn = 0;
            let mut best_dn = 0;
            let mut dist_or = u16::MAX;
            let mut dist_and = 0u16;
            for i in 0..n {
                let c = self.children[base + i];
                let (cpn, cdn, cdist) = if c.on_path {
                    (INF, 0, 0)
                } else if let Some(e) = self.tt.get(c.key) {
                    (e.pn, e.dn, e.dist)
                } else {
                    (c.init.0, c.init.1, 0)
                };
                let val = if or_node { cpn } else { cdn };
                if val < best_val {
                    second = best_val;
                    best_val = val;
                    best = i;
                    best_pn = cpn;
                    best_dn = cdn;
                } else if val < second {
                    second = val;
                }
                if or_node {
                    pn = pn.min(cpn as u64);
                    dn += cdn as u64;
                    if cpn == 0 {
                        dist_or = dist_or.min(cdist.saturating_add(1));
                    }
                } else {
                    pn += cpn as u64;
                    dn = dn.min(cdn as u64);
                    dist_and = dist_and.max(cdist.saturating_add(1));
                }
            }
            let (pn, dn, dist) = if or_node {
                if pn == 0 {
                    (0, INF, dist_or)
                } else if dn == 0 {
                    (INF, 0, 0)
                } else {
                    (pn as u32, dn.min(INF as u64 - 1) as u32, 0)
                }
            } else if dn == 0 {
                (INF, 0, 0)
            } else if pn == 0 {
                (0, INF, dist_and)
            } else {
                (pn.min(INF as u64 - 1) as u32, dn as u32, 0)
            };
            if pn >= th_pn || dn >= th_dn || self.aborted {
                return (pn, dn, dist);
            }
            // Thresholds for the most promising child.
            let (c_pn, c_dn) = if or_node {
                let t_pn = th_pn.min(second.saturating_add(1));
                let t_dn = (th_dn as u64 - dn as u64 + best_dn as u64).min(INF as u64) as u32;
                (t_pn, t_dn)
            } else {
                let t_dn = th_dn.min(second.saturating_add(1));
                let t_pn = (th_pn as u64 - pn as u64 + best_pn as u64).min(INF as u64) as u32;
                (t_pn, t_dn)
            };
            let mv = self.children[base + best].mv;
            let undo = pos.make(mv);
            self.mid(pos, ply + 1, c_pn, c_dn);
            pos.unmake(mv, undo);
        }
    }

    /// The line stored in the df-pn table: the attacker's proven move with the shortest
    /// proof, the defender's move with the longest.
    fn tt_line(&mut self, root: &Position<V>, dist: u16) -> Vec<Move> {
        let mut pos = *root;
        let mut pv = Vec::new();
        let mut seen = vec![pos.hash()];
        while pv.len() < dist as usize && terminal(&pos, self.attacker).is_none() {
            let or_node = pos.side_to_move() == self.attacker;
            let mut moves = Vec::new();
            pos.generate_unadjudicated(|b| {
                pos.expand(b, |m| moves.push(m));
                false
            });
            let mut choice: Option<(Move, u16)> = None;
            for mv in moves {
                let child = pos.after(mv);
                if seen.contains(&child.hash()) {
                    continue;
                }
                let Some(e) = self.tt.get(child.hash()) else {
                    continue;
                };
                if e.pn != 0 {
                    continue;
                }
                let better = match choice {
                    None => true,
                    Some((_, d)) => (or_node && e.dist < d) || (!or_node && e.dist > d),
                };
                if better {
                    choice = Some((mv, e.dist));
                }
            }
            let Some((mv, _)) = choice else { break };
            pos.make(mv);
            seen.push(pos.hash());
            pv.push(mv);
        }
        pv
    }
}

/// Memo of the exact search: for a position, the largest depth known to fail and the
/// smallest known to win.
#[derive(Copy, Clone, Debug, Default)]
struct ExactEntry {
    key: u64,
    fail: u16,
    win: u16,
}

/// The exact iterative-deepening search that shortens a proof.
struct Exact<'a, V: Variant, E: Evaluator<V>> {
    memo: Vec<ExactEntry>,
    attacker: Color,
    nodes: u64,
    limit: u64,
    stop: &'a AtomicBool,
    aborted: bool,
    path: Vec<u64>,
    proof: &'a Table,
    /// Move lists of the nodes on the path, as a stack (see [`Solver`]): the move, whether it
    /// wins at once, and its df-pn proof length (for ordering).
    list: Vec<(Move, bool, u16)>,
    _v: core::marker::PhantomData<(V, E)>,
}

impl<'a, V: Variant, E: Evaluator<V>> Exact<'a, V, E> {
    fn new(attacker: Color, limit: u64, stop: &'a AtomicBool, proof: &'a Table) -> Self {
        let n = limit
            .saturating_mul(2)
            .clamp(1 << 12, 1 << 20)
            .next_power_of_two() as usize;
        Exact {
            memo: vec![ExactEntry::default(); n],
            attacker,
            nodes: 0,
            limit,
            stop,
            aborted: false,
            path: vec![0; MAX_DEPTH + 2],
            proof,
            list: Vec::with_capacity(1 << 14),
            _v: core::marker::PhantomData,
        }
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> usize {
        key as usize & (self.memo.len() - 1)
    }

    /// Pushes the moves to try at `pos` on the list stack and returns how many: at OR nodes
    /// the allowed attacker moves (immediate wins, then the best df-pn proofs first), at AND
    /// nodes every move.
    fn moves(&mut self, pos: &mut Position<V>) -> usize {
        let or_node = pos.side_to_move() == self.attacker;
        let unrestricted = or_node && E::attacker_unrestricted(pos);
        let base = self.list.len();
        let list = &mut self.list;
        pos.generate_unadjudicated(|b| {
            pos.expand(b, |m| list.push((m, false, 0)));
            false
        });
        if !or_node {
            return self.list.len() - base;
        }
        let total = self.list.len() - base;
        let mut n = 0;
        for i in 0..total {
            let mv = self.list[base + i].0;
            let undo = pos.make(mv);
            let check = pos.in_check();
            let win_now = !check && terminal(pos, self.attacker) == Some(true);
            let rank = match self.proof.get(pos.hash()) {
                Some(e) if e.pn == 0 => e.dist,
                _ => u16::MAX,
            };
            pos.unmake(mv, undo);
            if check || unrestricted || win_now {
                self.list[base + n] = (mv, win_now, rank);
                n += 1;
            }
        }
        self.list.truncate(base + n);
        self.list[base..].sort_by_key(|&(_, win, rank)| (!win, rank));
        n
    }

    /// Whether the attacker wins from `pos` within `d` plies with the allowed moves.
    fn win_within(&mut self, pos: &mut Position<V>, d: u32, ply: usize) -> bool {
        self.nodes += 1;
        if self.nodes >= self.limit || (self.nodes & 1023 == 0 && self.stop.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
        if self.aborted {
            return false;
        }
        if let Some(win) = terminal(pos, self.attacker) {
            return win;
        }
        if d == 0 || ply >= MAX_DEPTH {
            return false;
        }
        let key = pos.hash();
        let slot = self.slot(key);
        let e = self.memo[slot];
        if e.key == key {
            if e.win != 0 && e.win as u32 <= d {
                return true;
            }
            if e.fail as u32 >= d {
                return false;
            }
        }
        if self.path[..ply].contains(&key) {
            return false;
        }
        self.path[ply] = key;
        let or_node = pos.side_to_move() == self.attacker;
        let base = self.list.len();
        let n = self.moves(pos);
        let mut result = !or_node;
        for i in 0..n {
            let (mv, win_now, _) = self.list[base + i];
            if or_node && win_now {
                result = true;
                break;
            }
            let undo = pos.make(mv);
            let w = self.win_within(pos, d - 1, ply + 1);
            pos.unmake(mv, undo);
            if self.aborted {
                self.list.truncate(base);
                return false;
            }
            if or_node && w {
                result = true;
                break;
            }
            if !or_node && !w {
                result = false;
                break;
            }
        }
        self.list.truncate(base);
        let e = &mut self.memo[slot];
        if e.key != key {
            *e = ExactEntry {
                key,
                fail: 0,
                win: 0,
            };
        }
        if result {
            if e.win == 0 || (d as u16) < e.win {
                e.win = d as u16;
            }
        } else if d as u16 > e.fail {
            e.fail = d as u16;
        }
        result
    }

    /// The line of a win in exactly `d` plies (the shortest): the attacker keeps to wins of
    /// the remaining length, the defender picks a move that holds out longest.
    fn line(&mut self, root: &Position<V>, d: u32) -> Option<Vec<Move>> {
        let mut pos = *root;
        let mut pv = Vec::new();
        let mut left = d;
        while terminal(&pos, self.attacker).is_none() {
            if left == 0 {
                return None;
            }
            let or_node = pos.side_to_move() == self.attacker;
            let ply = pv.len();
            self.path[ply] = pos.hash();
            let n = self.moves(&mut pos);
            let candidates: Vec<(Move, bool, u16)> =
                self.list.drain(self.list.len() - n..).collect();
            let mut chosen = None;
            for (mv, win_now, _) in candidates {
                if or_node && win_now {
                    chosen = Some(mv);
                    break;
                }
                let mut child = pos.after(mv);
                let ok = if or_node {
                    self.win_within(&mut child, left - 1, ply + 1)
                } else {
                    left < 2 || !self.win_within(&mut child, left - 2, ply + 1)
                };
                if self.aborted {
                    return None;
                }
                if ok {
                    chosen = Some(mv);
                    break;
                }
            }
            let mv = chosen?;
            pos.make(mv);
            pv.push(mv);
            left -= 1;
        }
        Some(pv)
    }
}
