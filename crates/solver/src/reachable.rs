//! The positions reachable from a start position, counted under several conventions.
//!
//! A breadth-first search over legal moves with its sets held as bitsets over the entries
//! of an index ([`Indexed`]): four sets per kind of set, one for each combination of side
//! to move (the stored entry itself, or its colour-swapped image) and mirror image (the
//! stored one, or its mirror image), so that every distinct position has exactly one bit.
//! Three such families are held (positions seen, the current ply's and the next ply's),
//! so memory is fixed before the search starts ([`reach_memory`]): no list grows with the
//! search.
//!
//! What is counted ([`ReachCount`]): the distinct positions reached under four
//! conventions (side to move and mirror images distinguished or identified, see
//! [`Tally`]), each split by kind (a finished game, a position whose side to move can
//! capture the enemy king, the others) and, when a solved table is given, by value; the
//! positions with no entry that moves reach (a king captured: the game is over); and the
//! positions first reached at each ply.
//!
//! Which moves are followed is the [`Rule`]: every legal move, or only the king captures
//! where one exists (the convention of Tanaka's 2009 Dobutsu analysis, which counts the
//! positions reachable "when a player always captures the enemy lion when it can").

use crate::generic::{Indexed, Table};
use crate::value::{Entry, Value};
use kshogi_core::{Color, Move, Position, Variant};
use std::sync::atomic::{AtomicU64, Ordering};

/// Which moves the search follows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Every legal move (a finished game is not played on).
    Every,
    /// Every legal move, except that a player who can capture the enemy king does: from such
    /// a position only the king captures are followed (so it leads to no position with an
    /// entry).
    CaptureFirst,
}

/// Counts of distinct positions under one convention of identity.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Distinct positions.
    pub positions: u64,
    /// Of them, positions whose side to move can capture the enemy king (and has not lost
    /// already).
    pub king_capturable: u64,
    /// Of them, games the variant has decided (a completed Dobutsu try).
    pub decided: u64,
    /// Of them, positions whose side to move has no legal move otherwise.
    pub no_move: u64,
    /// Won for the side to move (only when a table was given).
    pub wins: u64,
    /// Lost for the side to move (only when a table was given).
    pub losses: u64,
    /// Drawn (only when a table was given).
    pub draws: u64,
}

impl Tally {
    /// Positions of neither finished kind: the game goes on and the enemy king cannot be
    /// captured at once.
    pub fn others(&self) -> u64 {
        self.positions - self.king_capturable - self.decided - self.no_move
    }

    /// Finished games: decided, or no move.
    pub fn finished(&self) -> u64 {
        self.decided + self.no_move
    }
}

/// What [`count`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReachCount {
    /// The moves followed.
    pub rule: Rule,
    /// Side to move and mirror images distinguished: every distinct board, hands and side
    /// to move counts.
    pub distinct: Tally,
    /// Side to move distinguished, a position and its mirror image counted once.
    pub mirror_identified: Tally,
    /// A position and its colour-swapped, rotated image (the same game seen from the other
    /// side) counted once; mirror images distinguished.
    pub colour_identified: Tally,
    /// Both identified: distinct entries of the index.
    pub entries: Tally,
    /// Distinct positions without an entry reached by a move (the king captured; side to
    /// move and mirror images distinguished).
    pub beyond: u64,
    /// Whether the tallies have values (a table was given).
    pub valued: bool,
    /// Positions (distinct, side to move and mirror images distinguished) first reached at
    /// each ply: index = ply.
    pub per_ply: Vec<u64>,
}

/// Bytes [`count`] holds for an index of `entries` entries (besides the table, if any):
/// twelve bits per entry for the three families of sets, four for the positions beyond,
/// two for the kinds of the entries.
pub fn reach_memory(entries: u64) -> u64 {
    let words = entries.div_ceil(64);
    // 12 + 4 bitsets, and 2 bits per entry (32 entries per word).
    16 * words * 8 + entries.div_ceil(32) * 8
}

/// Kinds of an entry (two bits): not reached yet, or the kind + 1.
const K_OTHER: u64 = 1;
const K_CAPTURE: u64 = 2;
const K_DECIDED: u64 = 3;
const K_NO_MOVE: u64 = 0;

struct Bits {
    sets: [Vec<AtomicU64>; 4],
}

impl Bits {
    fn new(words: usize) -> Bits {
        let make = || -> Vec<AtomicU64> { (0..words).map(|_| AtomicU64::new(0)).collect() };
        Bits {
            sets: [make(), make(), make(), make()],
        }
    }

    #[inline]
    fn word(&self, set: usize, i: u64) -> (&AtomicU64, u64) {
        (&self.sets[set][(i / 64) as usize], 1u64 << (i % 64))
    }

    /// Sets a bit; whether it was clear.
    #[inline]
    fn insert(&self, set: usize, i: u64) -> bool {
        let (w, bit) = self.word(set, i);
        // A plain load first: most positions met are already there, and the locked
        // operation is the expensive one.
        w.load(Ordering::Relaxed) & bit == 0 && w.fetch_or(bit, Ordering::Relaxed) & bit == 0
    }

    fn clear(&self) {
        for s in &self.sets {
            for w in s {
                w.store(0, Ordering::Relaxed);
            }
        }
    }

    /// Calls `visit(state, entry, mask)` for every entry set in any of the four sets, `mask`
    /// having bit `k` when set `k` holds it, on `threads` threads that take chunks of
    /// [`CHUNK_WORDS`] words in turn; each thread's `state` starts as `init()`. Returns the
    /// threads' states.
    fn par_visit<S: Send>(
        &self,
        threads: usize,
        init: impl Fn() -> S + Sync,
        visit: impl Fn(&mut S, u64, u8) + Sync,
    ) -> Vec<S> {
        let words = self.sets[0].len();
        let cursor = AtomicU64::new(0);
        let states = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|sc| {
            for _ in 0..threads.max(1) {
                sc.spawn(|| {
                    let mut state = init();
                    loop {
                        let lo = cursor.fetch_add(CHUNK_WORDS as u64, Ordering::Relaxed) as usize;
                        if lo >= words {
                            break;
                        }
                        for w in lo..(lo + CHUNK_WORDS).min(words) {
                            let s: [u64; 4] =
                                std::array::from_fn(|k| self.sets[k][w].load(Ordering::Relaxed));
                            let mut any = s[0] | s[1] | s[2] | s[3];
                            while any != 0 {
                                let b = any.trailing_zeros();
                                any &= any - 1;
                                let mask =
                                    (0..4).fold(0u8, |m, k| m | ((((s[k] >> b) & 1) as u8) << k));
                                visit(&mut state, w as u64 * 64 + u64::from(b), mask);
                            }
                        }
                    }
                    states.lock().expect("no panics").push(state);
                });
            }
        });
        states.into_inner().expect("no panics")
    }
}

/// The set (`2 * white + mirrored`) and entry of a position with an entry.
#[inline]
fn key<I: Indexed>(ix: &I, pos: &Position<I::V>) -> Option<(usize, u64)> {
    let mut c = ix.compact_of(pos);
    let white = ix.side(&c) == Color::White;
    if white {
        c = ix.flip(&c);
    }
    let canon = ix.canonical(&c);
    let i = ix.index(&canon)?;
    Some((2 * white as usize + (canon != c) as usize, i))
}

/// A position whose side to move has lost its king, as a position with an entry: the king
/// put back on the first empty square. Distinct such positions give distinct stand-ins
/// (the king put back is known: the side to move's, on the first square the original leaves
/// empty), so the stand-ins count them.
fn stand_in<I: Indexed>(ix: &I, c: &I::Compact) -> Option<Position<I::V>> {
    let mut s = ix.to_setup(c);
    let g = <I::V as Variant>::GEOMETRY;
    let sq = g.all_squares().find(|sq| s.board[sq.index()].is_none())?;
    s.board[sq.index()] = Some(kshogi_core::Piece::new(
        ix.side(c),
        <I::V as Variant>::tables().king,
    ));
    Position::from_setup(&s).ok()
}

const CHUNK_WORDS: usize = 1024;

/// Every position reachable from `start` by the moves `rule` follows (a finished game is not
/// played on; repetition is ignored, as it ends games but does not change which positions
/// occur), with `threads` threads. With `table`, the tallies are split by value too.
/// `progress` gets the ply and the number of positions first reached at it. `None` when
/// `start` has no entry.
pub fn count<I: Indexed>(
    ix: &I,
    table: Option<&Table<I>>,
    start: &Position<I::V>,
    rule: Rule,
    threads: usize,
    progress: &(dyn Fn(usize, u64) + Sync),
) -> Option<ReachCount> {
    let n = ix.len();
    let words = n.div_ceil(64) as usize;
    let seen = Bits::new(words);
    let mut cur = Bits::new(words);
    let mut next = Bits::new(words);
    let beyond = Bits::new(words);
    let kinds: Vec<AtomicU64> = (0..n.div_ceil(32)).map(|_| AtomicU64::new(0)).collect();
    let (s0, i0) = key(ix, start)?;
    seen.insert(s0, i0);
    cur.insert(s0, i0);
    let mut per_ply = vec![1u64];
    let failed = AtomicU64::new(0);
    loop {
        progress(per_ply.len() - 1, *per_ply.last().unwrap_or(&0));
        let found: u64 = cur
            .par_visit(
                threads,
                || (Vec::<Move>::with_capacity(64), 0u64),
                |(moves, new), i, mask| {
                    expand(
                        ix, mask, i, rule, &seen, &next, &beyond, &kinds, moves, new, &failed,
                    );
                },
            )
            .iter()
            .map(|&(_, new)| new)
            .sum();
        let f = found;
        if f == 0 {
            break;
        }
        per_ply.push(f);
        std::mem::swap(&mut cur, &mut next);
        next.clear();
    }
    assert_eq!(
        failed.load(Ordering::Relaxed),
        0,
        "reached positions that the rules reject"
    );
    let mut out = tally(&seen, &kinds, table, threads);
    out.rule = rule;
    out.per_ply = per_ply;
    out.beyond = beyond
        .sets
        .iter()
        .flat_map(|s| s.iter())
        .map(|w| u64::from(w.load(Ordering::Relaxed).count_ones()))
        .sum();
    Some(out)
}

/// Expands the positions of entry `i` in the sets of `mask` (bit `s` for set `s`): records
/// the entry's kind and inserts the positions their followed moves reach. The stored
/// position is expanded once: the moves of its colour-swapped and mirror images are the
/// images of its moves, so a child's set is the parent's set combined with the child's own
/// (the two symmetries commute and are involutions: sets combine by exclusive or), the
/// mirror bit cleared when the child is its own mirror image.
#[allow(clippy::too_many_arguments)]
#[inline]
fn expand<I: Indexed>(
    ix: &I,
    mask: u8,
    i: u64,
    rule: Rule,
    seen: &Bits,
    next: &Bits,
    beyond: &Bits,
    kinds: &[AtomicU64],
    moves: &mut Vec<Move>,
    new: &mut u64,
    failed: &AtomicU64,
) {
    let c = ix.decode(i);
    let Ok(mut pos) = Position::<I::V>::from_setup(&ix.to_setup(&c)) else {
        failed.fetch_add(1, Ordering::Relaxed);
        return;
    };
    moves.clear();
    pos.generate(|b| {
        pos.expand(b, |m| moves.push(m));
        false
    });
    let kind = if moves.is_empty() {
        if <I::V as Variant>::HAS_ADJUDICATION && <I::V as Variant>::adjudicate(&pos).is_some() {
            K_DECIDED
        } else {
            K_NO_MOVE
        }
    } else if ix.wins_at_once(&pos) {
        K_CAPTURE
    } else {
        K_OTHER
    };
    // Two bits per entry: the kind (K_NO_MOVE is 0, so it is told apart by the seen bits).
    if kind != 0 {
        kinds[(i / 32) as usize].fetch_or(kind << (2 * (i % 32)), Ordering::Relaxed);
    }
    let capture_only = rule == Rule::CaptureFirst && kind == K_CAPTURE;
    let enemy_king = pos.king(!pos.side_to_move());
    for &m in moves.iter() {
        if capture_only && m.to() != enemy_king {
            continue;
        }
        let undo = pos.make(m);
        let mut cc = ix.compact_of(&pos);
        let white = ix.side(&cc) == Color::White;
        if white {
            cc = ix.flip(&cc);
        }
        let canon = ix.canonical(&cc);
        match ix.index(&canon) {
            Some(j) => {
                let own = 2 * white as u8 + (canon != cc) as u8;
                let symmetric = ix.mirror(&canon) == canon;
                for s in 0..4u8 {
                    if mask & (1 << s) == 0 {
                        continue;
                    }
                    let mut t = s ^ own;
                    if symmetric {
                        t &= 2;
                    }
                    if seen.insert(t as usize, j) {
                        next.insert(t as usize, j);
                        *new += 1;
                    }
                }
            }
            None => {
                // The game is over (the king captured): each image counted by its stand-in.
                let child = ix.compact_of(&pos);
                for s in 0..4u8 {
                    if mask & (1 << s) == 0 {
                        continue;
                    }
                    let mut x = child;
                    if s & 1 != 0 {
                        x = ix.mirror(&x);
                    }
                    if s & 2 != 0 {
                        x = ix.flip(&x);
                    }
                    match stand_in(ix, &x).and_then(|p| key(ix, &p)) {
                        Some((t, j)) => {
                            beyond.insert(t, j);
                        }
                        None => {
                            failed.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
            }
        }
        pos.unmake(m, undo);
    }
}

/// The tallies, from the seen sets, the kinds and the table.
fn tally<I: Indexed>(
    seen: &Bits,
    kinds: &[AtomicU64],
    table: Option<&Table<I>>,
    threads: usize,
) -> ReachCount {
    let parts = seen.par_visit(
        threads,
        <[Tally; 4]>::default,
        |t: &mut [Tally; 4], i, mask| {
            let bit = |k: usize| u64::from((mask >> k) & 1);
            // [distinct, mirror identified, colour identified, entries]
            let mult = [
                bit(0) + bit(1) + bit(2) + bit(3),
                (bit(0) | bit(1)) + (bit(2) | bit(3)),
                (bit(0) | bit(2)) + (bit(1) | bit(3)),
                1,
            ];
            let kind = (kinds[(i / 32) as usize].load(Ordering::Relaxed) >> (2 * (i % 32))) & 3;
            let value = table.map(|tb| tb.entry(i));
            for (x, &m) in t.iter_mut().zip(mult.iter()) {
                x.positions += m;
                match kind {
                    K_CAPTURE => x.king_capturable += m,
                    K_DECIDED => x.decided += m,
                    K_NO_MOVE => x.no_move += m,
                    _ => {}
                }
                match value {
                    Some(Entry::Value(Value::Win(_))) => x.wins += m,
                    Some(Entry::Value(Value::Loss(_))) => x.losses += m,
                    Some(_) => x.draws += m,
                    None => {}
                }
            }
        },
    );
    let mut total: [Tally; 4] = Default::default();
    for p in parts {
        for (a, b) in total.iter_mut().zip(p.iter()) {
            a.positions += b.positions;
            a.king_capturable += b.king_capturable;
            a.decided += b.decided;
            a.no_move += b.no_move;
            a.wins += b.wins;
            a.losses += b.losses;
            a.draws += b.draws;
        }
    }
    let [distinct, mirror_identified, colour_identified, entries] = total;
    ReachCount {
        rule: Rule::Every,
        distinct,
        mirror_identified,
        colour_identified,
        entries,
        beyond: 0,
        valued: table.is_some(),
        per_ply: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dobutsu::DobutsuIndex;
    use kshogi_core::{Piece, Setup, WinReason};
    use kshogi_notation::to_sfen;
    use kshogi_rules_dobutsu::Dobutsu;
    use std::collections::{HashSet, VecDeque};

    /// The start position without the kinds a sub-game leaves out.
    fn sub_start(kinds: [bool; 3]) -> Position<Dobutsu> {
        let mut s = Dobutsu::start();
        for cell in s.board.iter_mut() {
            if let Some(p) = *cell {
                let k = p.kind.0;
                let keep = match k {
                    1 => kinds[0],
                    2 => kinds[1],
                    3 | 4 => kinds[2],
                    _ => true,
                };
                if !keep {
                    *cell = None;
                }
            }
        }
        Position::from_setup(&s).unwrap()
    }

    /// The position part of a SFEN (no move number).
    fn text(p: &Position<Dobutsu>) -> String {
        let s = to_sfen(p);
        s.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    }

    /// A setup transformed square by square (and colours swapped when `swap`), from the
    /// board geometry alone.
    fn transformed(p: &Position<Dobutsu>, swap: bool) -> Position<Dobutsu> {
        let g = Dobutsu::GEOMETRY;
        let mut s = Setup::<Dobutsu>::empty();
        for sq in g.all_squares() {
            if let Some(pc) = p.piece_at(sq) {
                let to = if swap {
                    g.rotate(sq)
                } else {
                    g.square(g.width + 1 - g.file(sq), g.rank(sq)).unwrap()
                };
                let color = if swap { !pc.color } else { pc.color };
                s.board[to.index()] = Some(Piece::new(color, pc.kind));
            }
        }
        for c in Color::ALL {
            let from = if swap { !c } else { c };
            for k in 0..3 {
                s.hands[c.index()][k] = p.hand(from, k);
            }
        }
        s.side = if swap {
            !p.side_to_move()
        } else {
            p.side_to_move()
        };
        Position::from_setup(&s).unwrap()
    }

    /// A plain breadth-first search over positions keyed by their SFEN: the four tallies
    /// (without values), the positions with a lion captured, and the positions per ply.
    fn plain(start: Position<Dobutsu>, rule: Rule) -> ([Tally; 4], u64, Vec<u64>) {
        let mut seen: HashSet<String> = HashSet::new();
        let mut beyond: HashSet<String> = HashSet::new();
        let mut queue = VecDeque::new();
        let mut per_ply = vec![];
        seen.insert(text(&start));
        queue.push_back((start, 0usize));
        // kind by SFEN: 0 other, 1 capturable, 2 decided, 3 no move
        let mut kind_of: Vec<(Position<Dobutsu>, u8)> = Vec::new();
        while let Some((p, ply)) = queue.pop_front() {
            if per_ply.len() <= ply {
                per_ply.push(0);
            }
            per_ply[ply] += 1;
            let moves = p.legal_moves();
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| {
                    p.piece_at(m.to())
                        .is_some_and(|x| x.kind == kshogi_rules_dobutsu::LION)
                })
                .collect();
            let kind = match p.outcome() {
                Some(kshogi_core::Outcome::Win {
                    reason: WinReason::Stalemate,
                    ..
                }) => 3,
                Some(_) => 2,
                None if !captures.is_empty() => 1,
                None => 0,
            };
            kind_of.push((p, kind));
            if kind >= 2 {
                continue;
            }
            let follow: Vec<Move> = if rule == Rule::CaptureFirst && kind == 1 {
                captures
            } else {
                moves.iter().copied().collect()
            };
            for m in follow {
                let c = p.after(m);
                if matches!(
                    c.outcome(),
                    Some(kshogi_core::Outcome::Win {
                        reason: WinReason::RoyalCaptured,
                        ..
                    })
                ) {
                    beyond.insert(text(&c));
                } else if seen.insert(text(&c)) {
                    queue.push_back((c, ply + 1));
                }
            }
        }
        let mut tallies: [Tally; 4] = Default::default();
        let mut classes: [HashSet<String>; 4] = Default::default();
        for (p, kind) in &kind_of {
            let m = transformed(p, false);
            let f = transformed(p, true);
            let fm = transformed(&f, false);
            let names = [text(p), text(&m), text(&f), text(&fm)];
            let keys = [
                names[0].clone(),
                names[0].clone().min(names[1].clone()),
                names[0].clone().min(names[2].clone()),
                names.iter().min().unwrap().clone(),
            ];
            for (k, key) in keys.into_iter().enumerate() {
                if classes[k].insert(key) {
                    let t = &mut tallies[k];
                    t.positions += 1;
                    match kind {
                        1 => t.king_capturable += 1,
                        2 => t.decided += 1,
                        3 => t.no_move += 1,
                        _ => {}
                    }
                }
            }
        }
        (tallies, beyond.len() as u64, per_ply)
    }

    fn compare(kinds: [bool; 3], rule: Rule) -> ReachCount {
        let ix = DobutsuIndex::with_kinds(kinds);
        let start = sub_start(kinds);
        let fast = count(&ix, None, &start, rule, 2, &|_, _| {}).unwrap();
        let (t, beyond, per_ply) = plain(start, rule);
        assert_eq!(fast.distinct, t[0], "{kinds:?} {rule:?} distinct");
        assert_eq!(fast.mirror_identified, t[1], "{kinds:?} {rule:?} mirror");
        assert_eq!(fast.colour_identified, t[2], "{kinds:?} {rule:?} colour");
        assert_eq!(fast.entries, t[3], "{kinds:?} {rule:?} entries");
        assert_eq!(fast.beyond, beyond, "{kinds:?} {rule:?} beyond");
        assert_eq!(fast.per_ply, per_ply, "{kinds:?} {rule:?} per ply");
        fast
    }

    #[test]
    fn lions_and_chicks_agree_with_a_plain_search() {
        for rule in [Rule::Every, Rule::CaptureFirst] {
            let r = compare([false, false, true], rule);
            assert!(
                r.distinct.positions > 1000 && r.distinct.king_capturable > 0,
                "{r:?}"
            );
            assert!(r.distinct.decided > 0 && r.beyond > 0, "{r:?}");
        }
    }

    #[test]
    fn lions_and_giraffes_agree_with_a_plain_search() {
        for rule in [Rule::Every, Rule::CaptureFirst] {
            let r = compare([true, false, false], rule);
            assert!(r.distinct.positions > 1000, "{r:?}");
        }
    }

    #[test]
    fn lions_and_elephants_agree_and_capture_first_reaches_fewer() {
        let every = compare([false, true, false], Rule::Every);
        let first = compare([false, true, false], Rule::CaptureFirst);
        assert!(first.distinct.positions < every.distinct.positions);
        // Identifying images never counts more.
        for r in [&every, &first] {
            assert!(r.entries.positions <= r.mirror_identified.positions);
            assert!(r.mirror_identified.positions <= r.distinct.positions);
            assert!(r.colour_identified.positions <= r.distinct.positions);
            assert!(r.distinct.positions <= 2 * r.colour_identified.positions);
        }
    }
}
