//! Legal move generation with checks, pins and drops, as bitboard bundles.

use crate::position::Position;
use crate::variant::{DrawReason, Flip, Outcome, StalemateRule, Variant, WinReason};
use crate::{Bitboard, Color, Kind, Move, MoveList, Square};

/// The legal moves of one piece, or the legal drops of one face, as a set of destinations.
///
/// Counting a bundle is a popcount; expanding it gives [`Move`]s. This is what makes leaf
/// counting in perft cheap.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bundle {
    /// Moves of the piece on `from` (showing `kind`) to each of `targets`.
    Board {
        /// Origin.
        from: Square,
        /// Face before the move.
        kind: Kind,
        /// Legal destinations.
        targets: Bitboard,
    },
    /// Drops of `kind` onto each of `targets`.
    Drop {
        /// Face dropped.
        kind: Kind,
        /// Legal destinations.
        targets: Bitboard,
    },
}

impl<V: Variant> Position<V> {
    /// Pieces of color `by` that attack `sq`, given the occupancy `occ`.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let t = V::tables();
        let own = self.by_color[by.index()];
        let mut att = Bitboard::EMPTY;
        let rev = (!by).index();
        let mut steppers = t.steppers;
        while steppers != 0 {
            let k = steppers.trailing_zeros() as usize;
            steppers &= steppers - 1;
            att |= t.step[rev][k][sq.index()] & self.by_kind[k];
        }
        for d in 0..8 {
            let mut kinds = t.sliders_in_dir[by.index()][d ^ 1];
            if kinds == 0 {
                continue;
            }
            let mut pcs = Bitboard::EMPTY;
            while kinds != 0 {
                let k = kinds.trailing_zeros() as usize;
                kinds &= kinds - 1;
                pcs |= self.by_kind[k];
            }
            if (pcs & own).any() {
                att |= t.ray_attacks(d, sq, occ) & pcs;
            }
        }
        att & own
    }

    /// Whether a piece of color `by` attacks `sq`, given the occupancy `occ`.
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        self.attackers_to(sq, by, occ).any()
    }

    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.attackers_to(self.kings[self.side.index()], !self.side, self.occupied())
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers().any()
    }

    /// Pieces of the side to move pinned against their king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.checkers_and_pinned().1
    }

    /// Squares attacked by `by`, with the occupancy `occ` (used with the defending king
    /// removed, so that it cannot hide behind itself).
    #[inline(always)]
    pub fn attacked_squares(&self, by: Color, occ: Bitboard) -> Bitboard {
        let t = V::tables();
        let own = self.by_color[by.index()];
        let mut att = Bitboard::EMPTY;
        for k in 0..t.kinds {
            for from in self.by_kind[k] & own {
                att |= t.attacks(by, Kind(k as u8), from, occ);
            }
        }
        att
    }

    /// Checkers and pinned pieces of the side to move, in one pass over the enemy sliders.
    #[inline(always)]
    fn checkers_and_pinned(&self) -> (Bitboard, Bitboard) {
        let t = V::tables();
        let us = self.side;
        let them = !us;
        let ksq = self.kings[us.index()];
        let occ = self.occupied();
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let mut checkers = Bitboard::EMPTY;
        let mut steppers = t.steppers;
        while steppers != 0 {
            let k = steppers.trailing_zeros() as usize;
            steppers &= steppers - 1;
            checkers |= t.step[us.index()][k][ksq.index()] & self.by_kind[k];
        }
        checkers &= theirs;
        let mut pinned = Bitboard::EMPTY;
        let mut sliders = t.sliders;
        while sliders != 0 {
            let k = sliders.trailing_zeros() as usize;
            sliders &= sliders - 1;
            let dirs = t.slide_dirs[them.index()][k];
            for p in self.by_kind[k] & theirs {
                let d = t.direction[p.index()][ksq.index()];
                if d >= 8 || dirs & (1 << d) == 0 {
                    continue;
                }
                let between = t.between[p.index()][ksq.index()] & occ;
                if between.is_empty() {
                    checkers = checkers.with(p);
                } else if !between.more_than_one() && (between & ours).any() {
                    pinned |= between;
                }
            }
        }
        (checkers, pinned)
    }

    /// Calls `f` with every bundle of legal moves; stops early when `f` returns `true`, and
    /// then returns `true`. Ignores [`Variant::adjudicate`]: see [`Position::generate`].
    #[inline(always)]
    pub fn generate_unadjudicated<F: FnMut(Bundle) -> bool>(&self, mut f: F) -> bool {
        let t = V::tables();
        let us = self.side;
        let them = !us;
        let ksq = self.kings[us.index()];
        let occ = self.occupied();
        let ours = self.by_color[us.index()];
        let (checkers, pinned) = self.checkers_and_pinned();

        // King moves: every square not attacked once the king has left its square.
        let king = t.king;
        let kcand = t.attacks(us, king, ksq, occ) & !ours;
        if kcand.any() {
            let danger = self.attacked_squares(them, occ.without(ksq));
            let ktargets = kcand & !danger;
            if ktargets.any()
                && f(Bundle::Board {
                    from: ksq,
                    kind: king,
                    targets: ktargets,
                })
            {
                return true;
            }
        }
        if checkers.more_than_one() {
            return false;
        }
        let (move_mask, drop_mask) = match checkers.lowest() {
            Some(c) => {
                let between = t.between[ksq.index()][c.index()];
                (between.with(c), between)
            }
            None => (!ours & t.board, t.board & !occ),
        };
        for k in 0..t.kinds {
            if k == king.index() {
                continue;
            }
            let kind = Kind(k as u8);
            for from in self.by_kind[k] & ours {
                let mut targets = t.attacks(us, kind, from, occ) & move_mask;
                if pinned.has(from) {
                    targets &= t.line[ksq.index()][from.index()];
                }
                if targets.any()
                    && f(Bundle::Board {
                        from,
                        kind,
                        targets,
                    })
                {
                    return true;
                }
            }
        }
        if drop_mask.any() {
            let hand = &self.hands[us.index()];
            for (slot, &count) in hand.iter().enumerate().take(t.slots) {
                if count == 0 {
                    continue;
                }
                for i in 0..t.slot_faces_len[slot] as usize {
                    let kind = t.slot_faces[slot][i];
                    let targets = V::drop_targets(self, us, kind, drop_mask);
                    if targets.any() && f(Bundle::Drop { kind, targets }) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Calls `f` with every bundle of legal moves, as [`Position::generate_unadjudicated`],
    /// but yields nothing in a position the variant has already decided.
    #[inline(always)]
    pub fn generate<F: FnMut(Bundle) -> bool>(&self, f: F) -> bool {
        if V::HAS_ADJUDICATION && V::adjudicate(self).is_some() {
            return false;
        }
        self.generate_unadjudicated(f)
    }

    /// Expands a bundle into moves, applying the variant's flip rule.
    #[inline(always)]
    pub fn expand(&self, bundle: Bundle, mut push: impl FnMut(Move)) {
        match bundle {
            Bundle::Board {
                from,
                kind,
                targets,
            } => {
                let occ = self.occupied();
                for to in targets {
                    match V::flip(kind, self.side, from, to, occ.has(to)) {
                        Flip::Never => push(Move::board(from, to, false)),
                        Flip::Always => push(Move::board(from, to, true)),
                        Flip::Optional => {
                            push(Move::board(from, to, false));
                            push(Move::board(from, to, true));
                        }
                    }
                }
            }
            Bundle::Drop { kind, targets } => {
                for to in targets {
                    push(Move::drop(kind, to));
                }
            }
        }
    }

    /// Number of moves in a bundle.
    #[inline(always)]
    pub fn bundle_len(&self, bundle: Bundle) -> u64 {
        match bundle {
            Bundle::Drop { targets, .. } => targets.count() as u64,
            Bundle::Board { targets, .. } if V::NO_OPTIONAL_FLIPS => targets.count() as u64,
            b => {
                let mut n = 0;
                self.expand(b, |_| n += 1);
                n
            }
        }
    }

    /// Appends every legal move to `list`.
    #[inline]
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        self.generate(|b| {
            self.expand(b, |m| list.push(m));
            false
        });
    }

    /// Every legal move, in a stack-allocated list.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// Number of legal moves, counted without making them (leaf counting).
    #[inline]
    pub fn count_legal(&self) -> u64 {
        let mut n = 0;
        self.generate(|b| {
            n += self.bundle_len(b);
            false
        });
        n
    }

    /// Whether the side to move has a legal move (ignores adjudication).
    pub fn has_legal_move_unadjudicated(&self) -> bool {
        self.generate_unadjudicated(|_| true)
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut found = false;
        self.generate(|b| {
            let hit = match b {
                Bundle::Board { from, targets, .. } => {
                    mv.from() == Some(from) && targets.has(mv.to())
                }
                Bundle::Drop { kind, targets } => {
                    mv.drop_kind() == Some(kind) && targets.has(mv.to())
                }
            };
            if hit {
                self.expand(b, |m| found |= m == mv);
            }
            found
        });
        found
    }

    /// The result of the game in this position, ignoring repetition (which needs history;
    /// see [`crate::Game`]), or `None` while the game goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        if V::HAS_ADJUDICATION {
            if let Some(o) = V::adjudicate(self) {
                return Some(o);
            }
        }
        if self.has_legal_move_unadjudicated() {
            return None;
        }
        Some(self.no_move_outcome())
    }

    /// What it means that the side to move has no legal move: checkmate if in check,
    /// otherwise the variant's stalemate rule.
    pub fn no_move_outcome(&self) -> Outcome {
        if self.in_check() {
            Outcome::Win {
                winner: !self.side,
                reason: WinReason::Checkmate,
            }
        } else {
            match V::STALEMATE {
                StalemateRule::Loss => Outcome::Win {
                    winner: !self.side,
                    reason: WinReason::Stalemate,
                },
                StalemateRule::Draw => Outcome::Draw {
                    reason: DrawReason::Stalemate,
                },
            }
        }
    }
}
