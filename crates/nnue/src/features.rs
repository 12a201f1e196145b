//! The input features: which pieces stand where and what is held in hand, seen from one
//! side (a perspective), as indices into the feature transformer's rows.
//!
//! For a perspective `p`, a piece of colour `c` showing kind `k` on square `s` is the board
//! feature `(rel * kinds + k) * squares + s'`, where `rel` is 0 for `p`'s own pieces and 1
//! for the opponent's, and `s'` is the square as `p` sees it (`s` for Black, the 180-degree
//! image for White). So both sides read the board from their own side, and one set of
//! weights serves both perspectives.
//!
//! A hand holding `n` pieces of slot `h` is the `n` hand features "holds at least `i`" for
//! `i` in `1..=n` (at most the slot's largest count, [`Layout::hand_max`]), after the board
//! features: `2 * kinds * squares + rel * hand_total + hand_offset[h] + i - 1`. A capture
//! to hand adds exactly one hand feature and a drop removes exactly one.

use kshogi_core::tables::MAX_HAND_COUNT;
use kshogi_core::{Color, Move, Piece, Position, Square, Variant, MAX_SLOTS};

/// The sizes of a variant's feature set, derived from its piece table and geometry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Squares on the board.
    pub squares: usize,
    /// Piece kinds (faces) of the table.
    pub kinds: usize,
    /// Hand slots.
    pub slots: usize,
    /// The largest number of pieces one side can hold in each slot (the set group's
    /// per-side limit), at most `MAX_HAND_COUNT - 1`; 0 for slots that do not exist.
    pub hand_max: [u8; MAX_SLOTS],
    /// The first hand feature of each slot, relative to the side's hand features.
    pub hand_offset: [u16; MAX_SLOTS],
    /// Hand features of one side: the sum of [`Layout::hand_max`].
    pub hand_total: usize,
}

impl Layout {
    /// The layout of variant `V`.
    pub fn of<V: Variant>() -> Layout {
        let t = V::tables();
        let mut hand_max = [0u8; MAX_SLOTS];
        for def in V::PIECES {
            if let Some(slot) = def.hand_slot {
                let limit = V::group_limit(def.group);
                let most = limit.per_side.min(limit.total) as usize;
                let most = most.min(MAX_HAND_COUNT - 1) as u8;
                let s = slot as usize % MAX_SLOTS;
                hand_max[s] = hand_max[s].max(most);
            }
        }
        let mut hand_offset = [0u16; MAX_SLOTS];
        let mut total = 0usize;
        for s in 0..MAX_SLOTS {
            hand_offset[s] = total as u16;
            total += hand_max[s] as usize;
        }
        Layout {
            squares: V::GEOMETRY.squares(),
            kinds: t.kinds,
            slots: t.slots,
            hand_max,
            hand_offset,
            hand_total: total,
        }
    }

    /// The number of features of one perspective: board and hand features of both colours.
    pub fn features(&self) -> usize {
        2 * self.kinds * self.squares + 2 * self.hand_total
    }

    /// The board feature of `piece` on `sq` seen from `persp`.
    #[inline(always)]
    pub fn board<V: Variant>(&self, persp: Color, piece: Piece, sq: Square) -> usize {
        let rel = usize::from(piece.color != persp);
        let s = if persp == Color::Black {
            sq
        } else {
            V::GEOMETRY.rotate(sq)
        };
        (rel * self.kinds + piece.kind.index()) * self.squares + s.index()
    }

    /// The hand feature "`color` holds at least `i` pieces of `slot`" (`i >= 1`) seen from
    /// `persp`.
    #[inline(always)]
    pub fn hand(&self, persp: Color, color: Color, slot: usize, i: u8) -> usize {
        let rel = usize::from(color != persp);
        2 * self.kinds * self.squares
            + rel * self.hand_total
            + self.hand_offset[slot % MAX_SLOTS] as usize
            + i as usize
            - 1
    }

    /// Calls `f` with every active feature of `pos` seen from `persp`: the board's pieces in
    /// square order, then the hand features by colour, slot and count.
    #[inline]
    pub fn for_each<V: Variant>(&self, pos: &Position<V>, persp: Color, mut f: impl FnMut(usize)) {
        for sq in pos.occupied() {
            if let Some(p) = pos.piece_at(sq) {
                f(self.board::<V>(persp, p, sq));
            }
        }
        for c in Color::ALL {
            for slot in 0..self.slots {
                let n = pos.hand(c, slot).min(self.hand_max[slot]);
                for i in 1..=n {
                    f(self.hand(persp, c, slot, i));
                }
            }
        }
    }

    /// The active features of `pos` from `persp`, in the order of [`Layout::for_each`] (for
    /// training; it allocates).
    pub fn active<V: Variant>(&self, pos: &Position<V>, persp: Color) -> Vec<u16> {
        let mut v = Vec::with_capacity(48);
        self.for_each(pos, persp, |f| v.push(f as u16));
        v
    }

    /// What a legal move `mv` of `before` (the position before it) changes in the features
    /// of both perspectives, indexed by [`Color::index`].
    #[inline]
    pub fn delta<V: Variant>(&self, before: &Position<V>, mv: Move) -> [Delta; 2] {
        let mut d = [Delta::default(), Delta::default()];
        let us = before.side_to_move();
        match mv.from() {
            Some(from) => {
                let Some(p) = before.piece_at(from) else {
                    return d;
                };
                let kind = if mv.is_flip() {
                    V::PIECES[p.kind.index()].flips_to.unwrap_or(p.kind)
                } else {
                    p.kind
                };
                let captured = before.piece_at(mv.to());
                for persp in Color::ALL {
                    let e = &mut d[persp.index()];
                    e.sub(self.board::<V>(persp, p, from));
                    e.add(self.board::<V>(persp, Piece::new(us, kind), mv.to()));
                    if let Some(cap) = captured {
                        e.sub(self.board::<V>(persp, cap, mv.to()));
                        if let Some(slot) = V::PIECES[cap.kind.index()].hand_slot {
                            let slot = slot as usize;
                            let n = before.hand(us, slot);
                            if n < self.hand_max[slot % MAX_SLOTS] {
                                e.add(self.hand(persp, us, slot, n + 1));
                            }
                        }
                    }
                }
            }
            None => {
                let Some(kind) = mv.drop_kind() else {
                    return d;
                };
                for persp in Color::ALL {
                    let e = &mut d[persp.index()];
                    if let Some(slot) = V::PIECES[kind.index()].hand_slot {
                        let slot = slot as usize;
                        let n = before.hand(us, slot);
                        if n >= 1 && n <= self.hand_max[slot % MAX_SLOTS] {
                            e.sub(self.hand(persp, us, slot, n));
                        }
                    }
                    e.add(self.board::<V>(persp, Piece::new(us, kind), mv.to()));
                }
            }
        }
        d
    }
}

/// The features one move adds and removes for one perspective: at most two of each (a
/// capture removes the mover's origin and the victim, and adds the mover's destination and
/// a hand feature).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    /// Features that become active.
    pub added: [u16; 2],
    /// How many of `added` are used.
    pub n_added: u8,
    /// Features that stop being active.
    pub removed: [u16; 2],
    /// How many of `removed` are used.
    pub n_removed: u8,
}

impl Delta {
    #[inline(always)]
    fn add(&mut self, f: usize) {
        self.added[self.n_added as usize & 1] = f as u16;
        self.n_added += 1;
    }

    #[inline(always)]
    fn sub(&mut self, f: usize) {
        self.removed[self.n_removed as usize & 1] = f as u16;
        self.n_removed += 1;
    }

    /// The added features.
    pub fn added(&self) -> &[u16] {
        &self.added[..self.n_added as usize]
    }

    /// The removed features.
    pub fn removed(&self) -> &[u16] {
        &self.removed[..self.n_removed as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_rules_minishogi::Minishogi;

    #[test]
    fn minishogi_layout_counts_by_hand() {
        // Minishogi: 5x5 = 25 squares, 10 faces (king, gold, silver, bishop, rook, pawn and
        // four promoted faces), 5 hand slots of up to 2 pieces each (two of each piece in
        // the set, one side may hold both): 2*10*25 + 2*10 = 520 features.
        let l = Layout::of::<Minishogi>();
        assert_eq!((l.squares, l.kinds, l.slots), (25, 10, 5));
        assert_eq!(&l.hand_max[..5], &[2, 2, 2, 2, 2]);
        assert_eq!(l.hand_total, 10);
        assert_eq!(l.features(), 520);
    }

    #[test]
    fn the_start_position_looks_the_same_from_both_sides() {
        // Minishogi's start is symmetric under the 180-degree rotation with the colours
        // swapped, so each side sees the same features of its own pieces and the opponent's.
        let l = Layout::of::<Minishogi>();
        let pos = Position::<Minishogi>::start();
        let mut b = l.active(&pos, Color::Black);
        let mut w = l.active(&pos, Color::White);
        b.sort_unstable();
        w.sort_unstable();
        assert_eq!(b.len(), 12);
        assert_eq!(b, w);
    }

    #[test]
    fn a_capture_adds_one_hand_feature_and_a_drop_removes_one() {
        // Minishogi: two of each piece, so a capture to hand is always counted (a side
        // holds at most 2 of a slot). A quiet board move removes and adds one board
        // feature; a capture also removes the victim and adds "holds at least n + 1"; a
        // drop removes "holds at least n" and adds the dropped piece.
        let l = Layout::of::<Minishogi>();
        let mut rng = kshogi_core::rng::SplitMix64::new(3);
        let (mut captures, mut drops) = (0, 0);
        for _ in 0..20 {
            let mut pos = Position::<Minishogi>::start();
            for _ in 0..80 {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                let us = pos.side_to_move();
                let hand_base = 2 * l.kinds * l.squares;
                for persp in Color::ALL {
                    let d = l.delta(&pos, mv);
                    let d = &d[persp.index()];
                    let hand = |fs: &[u16]| fs.iter().filter(|&&f| f as usize >= hand_base).count();
                    if mv.is_drop() {
                        assert_eq!((d.removed().len(), d.added().len()), (1, 1));
                        assert_eq!((hand(d.removed()), hand(d.added())), (1, 0));
                        let slot = Minishogi::PIECES[mv.drop_kind().unwrap().index()].hand_slot;
                        let n = pos.hand(us, slot.unwrap() as usize);
                        assert_eq!(
                            d.removed()[0] as usize,
                            l.hand(persp, us, slot.unwrap() as usize, n)
                        );
                    } else if pos.piece_at(mv.to()).is_some() {
                        assert_eq!((d.removed().len(), d.added().len()), (2, 2));
                        assert_eq!((hand(d.removed()), hand(d.added())), (0, 1));
                    } else {
                        assert_eq!((d.removed().len(), d.added().len()), (1, 1));
                    }
                }
                if mv.is_drop() {
                    drops += 1;
                } else if pos.piece_at(mv.to()).is_some() {
                    captures += 1;
                }
                pos = pos.after(mv);
            }
        }
        assert!(
            captures > 10 && drops > 10,
            "{captures} captures, {drops} drops"
        );
    }
}
