//! Legal move generation with checks, pins and drops, as bitboard bundles.

use crate::position::Position;
use crate::variant::{
    optional_promotions, Derived, DrawReason, Flip, Outcome, StalemateRule, Variant, WinReason,
};
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
        if !V::SLIDERS {
            return att & own;
        }
        for d in 0..8 {
            if t.sliders_in_dir[by.index()][d ^ 1] == 0 {
                continue;
            }
            let pcs = self.sliders_toward(by, d);
            if (pcs & own).any() {
                att |= t.ray_attacks(d, sq, occ) & pcs;
            }
        }
        if V::RANGED {
            att |= self.ranged_attackers_to(sq, by, occ);
        }
        att & own
    }

    /// Pieces (of either colour; the caller keeps those of `by`) whose ranged slides, played
    /// by `by`, reach `sq` with the occupancy `occ`: by symmetry, those on the squares the
    /// ranged slides of the other colour reach from `sq`.
    #[inline(always)]
    fn ranged_attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let t = V::tables();
        let mut att = Bitboard::EMPTY;
        let mut rangers = t.rangers;
        while rangers != 0 {
            let k = rangers.trailing_zeros() as usize;
            rangers &= rangers - 1;
            att |= t.ranged_attacks(!by, Kind(k as u8), sq, occ) & self.by_kind[k];
        }
        att
    }

    /// Whether a piece of color `by` attacks `sq`, given the occupancy `occ`.
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        self.attackers_to(sq, by, occ).any()
    }

    /// Enemy pieces giving check to the side to move (attacking its king; empty when it has
    /// lost its king, see [`Position::royal_captured`]).
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        if self.royal_captured() {
            return Bitboard::EMPTY;
        }
        self.attackers_to(self.kings[self.side.index()], !self.side, self.occupied())
    }

    /// Whether the side to move has lost its king, which only happens in a variant without
    /// the check rule ([`Variant::CHECK_RULE`] false): the game is over, and the position
    /// has no moves. Always false (at compile time) with the check rule.
    #[inline(always)]
    pub fn royal_captured(&self) -> bool {
        !V::CHECK_RULE
            && (self.by_kind[V::tables().king.index()] & self.by_color[self.side.index()])
                .is_empty()
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers().any()
    }

    /// Whether the legal move `mv` gives check: whether the opponent is in check once it is
    /// made ([`Position::in_check`] of the position after it), found without making it, so
    /// that a search can skip a quiet move that does not give check at the cost of a few
    /// table lookups. A move that captures the king (without the check rule) gives no check.
    /// With the check rule, only the moved piece and a slider it uncovers can give check.
    #[inline]
    pub fn gives_check(&self, mv: Move) -> bool {
        let t = V::tables();
        let us = self.side;
        let ksq = self.kings[(!us).index()];
        let to = mv.to();
        if !V::CHECK_RULE && to == ksq {
            return false;
        }
        let to_bb = Bitboard::from_square(to);
        let occ = self.occupied();
        let (kind, occ, from) = match mv.from() {
            Some(from) => {
                let Some(p) = self.board[from.index()] else {
                    return false;
                };
                let kind = if mv.is_flip() {
                    V::FLIPS_TO[p.kind.index() % crate::MAX_KINDS]
                } else {
                    p.kind
                };
                (
                    kind,
                    (occ & !Bitboard::from_square(from)) | to_bb,
                    Some(from),
                )
            }
            None => match mv.drop_kind() {
                Some(k) => (k, occ | to_bb, None),
                None => return false,
            },
        };
        // The moved piece itself: a step, or a slide along the one line to the king.
        if t.step[us.index()][kind.index()][to.index()].has(ksq) {
            return true;
        }
        if V::SLIDERS {
            let d = t.direction[to.index()][ksq.index()];
            if d < 8
                && t.slide_dirs[us.index()][kind.index()] & (1 << d) != 0
                && (t.between[to.index()][ksq.index()] & occ).is_empty()
            {
                return true;
            }
            if V::RANGED && t.ranged_attacks(us, kind, to, occ).has(ksq) {
                return true;
            }
        }
        if !V::CHECK_RULE {
            // Without the check rule, any piece that attacked the king already counts too
            // (the opponent may have left its king en prise).
            return (self.attackers_to(ksq, us, occ) & occ & !to_bb).any();
        }
        // With it, only a slider behind the square the piece left, on the one line through
        // the king and that square.
        let Some(from) = from else {
            return false;
        };
        if !V::SLIDERS {
            return false;
        }
        let d = t.direction[ksq.index()][from.index()] as usize;
        if d >= 8 {
            return false;
        }
        let ours = self.by_color[us.index()] & occ & !to_bb;
        if V::RANGED && (self.ranged_attackers_to(ksq, us, occ) & ours).any() {
            return true;
        }
        let pcs = self.sliders_toward(us, d);
        (t.ray_attacks(d, ksq, occ) & pcs & self.by_color[us.index()] & occ & !to_bb).any()
    }

    /// The pieces (of either colour) whose kind, played by `by`, slides toward a square
    /// from direction `d` of it: the kinds that slide in the direction opposite to `d`.
    #[inline(always)]
    fn sliders_toward(&self, by: Color, d: usize) -> Bitboard {
        let mut kinds = V::tables().sliders_in_dir[by.index()][d ^ 1];
        let mut pcs = Bitboard::EMPTY;
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            pcs |= self.by_kind[k];
        }
        pcs
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
        // Piece by piece, each kind read from the board: cheaper than a pass over every
        // kind (measured in every variant, even those of five kinds).
        let mut att = Bitboard::EMPTY;
        for from in self.by_color[by.index()] {
            if let Some(p) = self.board[from.index()] {
                let kind = Kind(p.kind.0 % crate::MAX_KINDS as u8);
                att |= Self::piece_attacks(by, kind, from, occ);
            }
        }
        att
    }

    /// The squares attacked by the slides (and ranged slides) of `by`, not its steps, with
    /// the occupancy `occ`: with [`StepAttacks`], the squares `by` attacks.
    #[inline(always)]
    fn slide_attacked_squares(&self, by: Color, occ: Bitboard) -> Bitboard {
        let t = V::tables();
        let theirs = self.by_color[by.index()];
        let mut att = Bitboard::EMPTY;
        let mut kinds = t.sliders | if V::RANGED { t.rangers } else { 0 };
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            for from in self.by_kind[k] & theirs {
                att |= t.slide_attacks(by, Kind(k as u8), from, occ, V::RANGED);
            }
        }
        att
    }

    /// [`Tables::attacks`](crate::Tables::attacks), without the slide loop when the variant
    /// has no sliders and without the ranged slides when it has none.
    #[inline(always)]
    fn piece_attacks(color: Color, kind: Kind, sq: Square, occ: Bitboard) -> Bitboard {
        let t = V::tables();
        if V::RANGED {
            t.attacks(color, kind, sq, occ)
        } else if V::SLIDERS {
            t.unranged_attacks(color, kind, sq, occ)
        } else {
            t.step[color.index()][kind.index()][sq.index()]
        }
    }

    /// Checkers and pinned pieces of the side to move, in one pass over the enemy sliders.
    #[inline(always)]
    fn checkers_and_pinned(&self) -> (Bitboard, Bitboard) {
        self.checkers_and_pinned_given(None)
    }

    /// [`Position::checkers_and_pinned`], told the enemy pieces that check by a step when
    /// the caller knows them (`step_checkers`, as [`StepAttacks::after`] derives them):
    /// then only the slides are looked at.
    #[inline(always)]
    fn checkers_and_pinned_given(&self, step_checkers: Option<Bitboard>) -> (Bitboard, Bitboard) {
        let t = V::tables();
        let us = self.side;
        let them = !us;
        let ksq = self.kings[us.index()];
        let occ = self.occupied();
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let mut checkers = match step_checkers {
            Some(known) => known,
            None => {
                let mut checkers = Bitboard::EMPTY;
                let mut steppers = t.steppers;
                while steppers != 0 {
                    let k = steppers.trailing_zeros() as usize;
                    steppers &= steppers - 1;
                    checkers |= t.step[us.index()][k][ksq.index()] & self.by_kind[k];
                }
                checkers & theirs
            }
        };
        let mut pinned = Bitboard::EMPTY;
        if !V::SLIDERS {
            return (checkers, pinned);
        }
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
        if V::RANGED {
            // The same for ranged slides, when the king is within range.
            let mut rangers = t.rangers;
            while rangers != 0 {
                let k = rangers.trailing_zeros() as usize;
                rangers &= rangers - 1;
                let dirs = t.ranged_dirs[them.index()][k];
                for p in self.by_kind[k] & theirs {
                    let d = t.direction[p.index()][ksq.index()];
                    if d >= 8
                        || dirs & (1 << d) == 0
                        || !t.ranged_reach[them.index()][k][p.index()].has(ksq)
                    {
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
        }
        (checkers, pinned)
    }

    /// Calls `f` with every bundle of legal moves; stops early when `f` returns `true`, and
    /// then returns `true`. Ignores [`Variant::adjudicate`]: see [`Position::generate`].
    #[inline(always)]
    pub fn generate_unadjudicated<F: FnMut(Bundle) -> bool>(&self, mut f: F) -> bool {
        generate_with(self, |_, bundle| f(bundle))
    }

    /// Calls `f` with every bundle of legal moves, as [`Position::generate_unadjudicated`],
    /// but yields nothing in a position the variant has already decided.
    #[inline(always)]
    pub fn generate<F: FnMut(Bundle) -> bool>(&self, f: F) -> bool {
        if self.royal_captured() || (V::HAS_ADJUDICATION && V::adjudicate(self).is_some()) {
            return false;
        }
        self.generate_unadjudicated(f)
    }

    /// Expands a bundle into moves, applying the variant's flip rule.
    #[inline(always)]
    pub fn expand(&self, bundle: Bundle, mut push: impl FnMut(Move)) {
        expand_with(&mut &*self, bundle, |_, mv| push(mv));
    }

    /// Number of moves in a bundle.
    #[inline(always)]
    pub fn bundle_len(&self, bundle: Bundle) -> u64 {
        match bundle {
            Bundle::Drop { targets, .. } => targets.count() as u64,
            Bundle::Board { targets, .. } if V::NO_OPTIONAL_FLIPS => targets.count() as u64,
            // The zone's rule: one move per destination, and a second one for each
            // destination where promoting is optional.
            Bundle::Board {
                from,
                kind,
                targets,
            } if V::PROMOTION_ZONE > 0 => {
                let both = targets & optional_promotions::<V>(kind, self.side, from);
                let n = u64::from(targets.count() + both.count());
                debug_assert_eq!(n, {
                    let mut slow = 0;
                    self.expand(bundle, |_| slow += 1);
                    slow
                });
                n
            }
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
        self.count_leaves()
    }

    /// [`Position::count_legal`], always inlined (for perft's last ply).
    #[inline(always)]
    pub(crate) fn count_leaves(&self) -> u64 {
        self.count_leaves_given(None)
    }

    /// [`Position::count_leaves`], optionally told the threats to the side to move (see
    /// [`generate_given`]).
    #[inline(always)]
    pub(crate) fn count_leaves_given(&self, known: Option<Threats>) -> u64 {
        if self.royal_captured() || (V::HAS_ADJUDICATION && V::adjudicate(self).is_some()) {
            return 0;
        }
        let mut n = 0;
        generate_given(self, known, |pos, b| {
            n += pos.bundle_len(b);
            false
        });
        n
    }

    /// [`Position::count_leaves`] in a variant without the check rule, without sliders and
    /// without optional flips (see [`Replies`]), for the position just reached by a move of
    /// the opponent: `replies` are the board moves of the side to move summed up before that
    /// move, and `captured` the piece of the side to move that the move took (with its square
    /// and face), if any.
    #[inline(always)]
    pub(crate) fn count_leaves_after(
        &self,
        replies: Replies,
        captured: Option<(Square, Kind)>,
    ) -> u64 {
        debug_assert!(replies_derivable::<V>());
        if self.royal_captured() || (V::HAS_ADJUDICATION && V::adjudicate(self).is_some()) {
            return 0;
        }
        let t = V::tables();
        let us = self.side;
        let mut n = replies.board_moves;
        if let Some((sq, kind)) = captured {
            // The captured piece's moves are gone, and every other piece of ours that
            // attacks its square may now capture there.
            n -= u64::from((t.step[us.index()][kind.index()][sq.index()] & !replies.ours).count());
            n += u64::from(self.attackers_to(sq, us, self.occupied()).count());
        }
        if V::DROPS {
            // The hand of the side to move is as it was before the opponent's move.
            let empty = t.board & !self.occupied();
            let mut faces = replies.drop_faces;
            while faces != 0 {
                let kind = Kind(faces.trailing_zeros() as u8);
                faces &= faces - 1;
                let mut targets = V::drop_targets(self, us, kind, empty);
                if V::DROP_LIMITS {
                    targets = self.restrict_drops(kind, targets);
                }
                n += u64::from(targets.count());
            }
        }
        debug_assert_eq!(n, self.count_leaves(), "derived count of {self:?}");
        n
    }

    /// The number of legal replies to the move of the side to move that puts a piece
    /// showing `now` on `to` (from `from`, or dropped when it is `None`), counted without
    /// making the move, from `replies` (the opponent's board moves, summed up here): zero
    /// when the move captures the royal piece; otherwise the board moves corrected for a
    /// capture, and the drops onto the squares empty after the move. Only for a variant
    /// where [`replies_derivable`] holds, without drop limits, and for a move after which
    /// [`Variant::no_adjudication_after`] promises no adjudication.
    #[inline(always)]
    pub(crate) fn count_replies_unmade(
        &self,
        replies: Replies,
        from: Option<Square>,
        to: Square,
        now: Kind,
    ) -> u64 {
        debug_assert!(replies_derivable::<V>() && !V::DROP_LIMITS);
        let t = V::tables();
        let them = !self.side;
        let captured = self.board[to.index()].map(|p| Kind(p.kind.0 % crate::MAX_KINDS as u8));
        let mut n = replies.board_moves;
        if let Some(kind) = captured {
            if kind == t.king {
                return 0;
            }
            // As in `count_leaves_after`: the captured piece's moves go, and the opponent's
            // pieces that attack its square (which stay where they are) may capture there.
            n -=
                u64::from((t.step[them.index()][kind.index()][to.index()] & !replies.ours).count());
            n += u64::from(self.attackers_to(to, them, self.occupied()).count());
        }
        if V::DROPS {
            let mut empty = (t.board & !self.occupied()).without(to);
            if let Some(from) = from {
                empty = empty.with(from);
            }
            let mut faces = replies.drop_faces;
            while faces != 0 {
                let kind = Kind(faces.trailing_zeros() as u8);
                faces &= faces - 1;
                n += u64::from(V::drop_targets(self, them, kind, empty).count());
            }
        }
        debug_assert!(V::no_adjudication_after(self, from, to, now));
        debug_assert_eq!(
            n,
            {
                let mut child = *self;
                let mv = match from {
                    Some(from) => Move::board(
                        from,
                        to,
                        self.board[from.index()].map(|p| p.kind) != Some(now),
                    ),
                    None => Move::drop(now, to),
                };
                child.make(mv);
                child.count_leaves()
            },
            "replies counted before the move to {to:?} in {self:?}"
        );
        n
    }

    /// The board moves of the side not to move, summed up (see [`Replies`]). Only meaningful
    /// when [`replies_derivable`] holds.
    #[inline(always)]
    pub(crate) fn replies(&self) -> Replies {
        let t = V::tables();
        let them = !self.side;
        let theirs = self.by_color[them.index()];
        let mut board_moves = 0;
        for k in 0..t.kinds {
            for sq in self.by_kind[k] & theirs {
                board_moves += u64::from((t.step[them.index()][k][sq.index()] & !theirs).count());
            }
        }
        Replies {
            board_moves,
            ours: theirs,
            drop_faces: if V::DROPS {
                droppable_faces::<V>(&self.hands[them.index()])
            } else {
                0
            },
        }
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
        if self.royal_captured() {
            return Some(Outcome::Win {
                winner: !self.side,
                reason: WinReason::RoyalCaptured,
            });
        }
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
    /// otherwise the variant's stalemate rule (always the stalemate rule without the check
    /// rule, see [`Variant::CHECK_RULE`]).
    pub fn no_move_outcome(&self) -> Outcome {
        if V::CHECK_RULE && self.in_check() {
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

/// A position the move generator reads, either shared (`&Position`) or borrowed mutably
/// (`&mut Position`), so that a callback that makes and takes back moves can work on the
/// very position being generated from, with no copy of it.
pub(crate) trait PositionAccess<V: Variant> {
    /// The position.
    fn position(&self) -> &Position<V>;
}

impl<V: Variant> PositionAccess<V> for &Position<V> {
    #[inline(always)]
    fn position(&self) -> &Position<V> {
        self
    }
}

impl<V: Variant> PositionAccess<V> for &mut Position<V> {
    #[inline(always)]
    fn position(&self) -> &Position<V> {
        self
    }
}

/// The legal move generator behind [`Position::generate_unadjudicated`]: calls `f` with the
/// position and every bundle of legal moves, and stops early when `f` returns `true`.
///
/// `f` may change the position (perft makes moves in it) but must restore it before it
/// returns: everything the generator needs is read before the first bundle, or read again
/// from the restored position (the pieces of one kind, the hand counts).
#[inline(always)]
pub(crate) fn generate_with<V, P, F>(p: P, f: F) -> bool
where
    V: Variant,
    P: PositionAccess<V>,
    F: FnMut(&mut P, Bundle) -> bool,
{
    generate_in_order::<V, P, F, true>(p, None, f)
}

/// [`generate_with`] for a caller to whom the order of the bundles does not matter (perft,
/// counting), optionally told the checkers of the side to move and the squares the enemy
/// attacks (`known`, as [`StepAttacks::after`] derives them) instead of finding them. In a
/// variant with sliders `known` holds the threats of the steps only; the slides' checks, pins
/// and attacked squares are found here.
#[inline(always)]
pub(crate) fn generate_given<V, P, F>(p: P, known: Option<Threats>, f: F) -> bool
where
    V: Variant,
    P: PositionAccess<V>,
    F: FnMut(&mut P, Bundle) -> bool,
{
    generate_in_order::<V, P, F, false>(p, known, f)
}

/// Up to this many kinds, a pass over every kind finds a side's pieces at less cost than
/// reading each piece's kind from the board (measured with callgrind: Kinzoku and Dobutsu,
/// five kinds, count faster by kind; Kyoto and Micro, nine, and Minishogi, ten, by square).
const KIND_PASS_MAX: usize = 7;

/// The generator behind [`generate_with`] and [`generate_given`]. With `ORDERED`, the
/// pieces come kind by kind (the order of [`Position::legal_moves`], which the search's move
/// ordering sees); without it, in a variant of more than [`KIND_PASS_MAX`] kinds, square by
/// square, each kind read from the board.
#[inline(always)]
fn generate_in_order<V, P, F, const ORDERED: bool>(
    mut p: P,
    known: Option<Threats>,
    mut f: F,
) -> bool
where
    V: Variant,
    P: PositionAccess<V>,
    F: FnMut(&mut P, Bundle) -> bool,
{
    let t = V::tables();
    if !V::CHECK_RULE && p.position().royal_captured() {
        return false;
    }
    let (us, ksq, occ, ours, checkers, pinned, ktargets) = {
        let pos = p.position();
        let us = pos.side;
        let ksq = pos.kings[us.index()];
        let occ = pos.occupied();
        let ours = pos.by_color[us.index()];
        // King moves: every square not attacked once the king has left its square.
        let kcand = Position::<V>::piece_attacks(us, t.king, ksq, occ) & !ours;
        let (checkers, pinned, ktargets) = match known {
            // Without the check rule every pseudo-legal move is legal.
            _ if !V::CHECK_RULE => (Bitboard::EMPTY, Bitboard::EMPTY, kcand),
            Some(known) if !V::SLIDERS => (known.checkers, Bitboard::EMPTY, kcand & !known.danger),
            // With sliders the known threats are those of the steps: the slides (checks,
            // pins and attacked squares) are still looked at here.
            Some(known) => {
                let (checkers, pinned) = pos.checkers_and_pinned_given(Some(known.checkers));
                // The slides only for the squares that the steps leave.
                let kcand = kcand & !known.danger;
                let ktargets = if kcand.any() {
                    kcand & !pos.slide_attacked_squares(!us, occ.without(ksq))
                } else {
                    kcand
                };
                debug_assert_eq!(
                    (checkers, pinned, ktargets),
                    {
                        let (c, p) = pos.checkers_and_pinned();
                        (c, p, kcand & !pos.attacked_squares(!us, occ.without(ksq)))
                    },
                    "threats derived for {pos:?}"
                );
                (checkers, pinned, ktargets)
            }
            _ => {
                let (checkers, pinned) = pos.checkers_and_pinned();
                let ktargets = if kcand.any() {
                    kcand & !pos.attacked_squares(!us, occ.without(ksq))
                } else {
                    kcand
                };
                (checkers, pinned, ktargets)
            }
        };
        (us, ksq, occ, ours, checkers, pinned, ktargets)
    };
    let king = t.king;
    if ktargets.any()
        && f(
            &mut p,
            Bundle::Board {
                from: ksq,
                kind: king,
                targets: ktargets,
            },
        )
    {
        return true;
    }
    if checkers.more_than_one() {
        return false;
    }
    let (move_mask, drop_mask) = match checkers.lowest() {
        Some(c) => {
            let mut between = t.between[ksq.index()][c.index()];
            if V::LINE_JUMPS {
                // A check by a jump along a line (Tori's pheasant) cannot be blocked.
                if let Some(checker) = p.position().board[c.index()] {
                    let kind = checker.kind.index() % crate::MAX_KINDS;
                    if t.step[(!us).index()][kind][c.index()].has(ksq) {
                        between = Bitboard::EMPTY;
                    }
                }
            }
            (between.with(c), between)
        }
        None => (!ours & t.board, t.board & !occ),
    };
    // The bundle of each piece comes from a function, not a closure, so that it is always
    // inlined (a closure was not, in Tori, once slides were looked up by line).
    let bundle = |kind, from| board_bundle::<V>(us, kind, from, occ, move_mask, pinned, ksq);
    if ORDERED || t.kinds <= KIND_PASS_MAX {
        for k in 0..t.kinds {
            if k == king.index() {
                continue;
            }
            for from in p.position().by_kind[k] & ours {
                if let Some(b) = bundle(Kind(k as u8), from) {
                    if f(&mut p, b) {
                        return true;
                    }
                }
            }
        }
    } else {
        for from in ours.without(ksq) {
            let Some(piece) = p.position().board[from.index()] else {
                continue;
            };
            if let Some(b) = bundle(Kind(piece.kind.0 % crate::MAX_KINDS as u8), from) {
                if f(&mut p, b) {
                    return true;
                }
            }
        }
    }
    if V::DROPS && drop_mask.any() {
        return generate_drops(&mut p, drop_mask, f);
    }
    false
}

/// The bundle of the piece of `us` showing `kind` on `from`, if it has a legal move: its
/// attacks (with the occupancy `occ`) within `move_mask`, kept on the line to the king `ksq`
/// when the piece is `pinned`.
#[inline(always)]
fn board_bundle<V: Variant>(
    us: Color,
    kind: Kind,
    from: Square,
    occ: Bitboard,
    move_mask: Bitboard,
    pinned: Bitboard,
    ksq: Square,
) -> Option<Bundle> {
    let t = V::tables();
    let mut targets = Position::<V>::piece_attacks(us, kind, from, occ) & move_mask;
    if V::SLIDERS && pinned.has(from) {
        if V::LINE_JUMPS {
            // A piece that jumps along the pin line could land beyond the pinner: it
            // stays on the stretch from the king to the pinner (which it may capture).
            let d = t.direction[ksq.index()][from.index()] as usize % 8;
            targets &= t.between[ksq.index()][from.index()] | t.ray_attacks(d, from, occ);
        } else {
            targets &= t.line[ksq.index()][from.index()];
        }
    }
    targets.any().then_some(Bundle::Board {
        from,
        kind,
        targets,
    })
}

/// The drop part of [`generate_given`]: calls `f` with the bundle of legal drops of each
/// face the side to move holds, onto `drop_mask` (the empty squares, or the squares between
/// the king and its one checker) with the variant's drop rules applied, and stops early when
/// `f` returns `true`.
#[inline(always)]
pub(crate) fn generate_drops<V, P, F>(p: &mut P, drop_mask: Bitboard, mut f: F) -> bool
where
    V: Variant,
    P: PositionAccess<V>,
    F: FnMut(&mut P, Bundle) -> bool,
{
    let t = V::tables();
    let us = p.position().side;
    let hand = p.position().hands[us.index()];
    for (slot, &count) in hand.iter().enumerate().take(t.slots) {
        if count == 0 {
            continue;
        }
        for i in 0..t.slot_faces_len[slot] as usize {
            let kind = t.slot_faces[slot][i];
            if V::NOT_DROPPED & (1 << kind.index()) != 0 {
                continue;
            }
            let mut targets = V::drop_targets(p.position(), us, kind, drop_mask);
            if V::DROP_LIMITS {
                targets = p.position().restrict_drops(kind, targets);
            }
            if targets.any() && f(p, Bundle::Drop { kind, targets }) {
                return true;
            }
        }
    }
    false
}

/// The faces (bit mask of kinds) that `color` can drop, by what it holds.
#[inline(always)]
fn droppable_faces<V: Variant>(hand: &[u8; crate::MAX_SLOTS]) -> u16 {
    let mut faces = 0;
    for (slot, &f) in V::DROP_FACES.iter().enumerate() {
        if hand[slot] != 0 {
            faces |= f;
        }
    }
    faces
}

impl<V: Variant> Position<V> {
    /// The drop targets of `kind` for the side to move, with the variant's
    /// [`Variant::DROP_RULES`] applied.
    #[inline(always)]
    fn restrict_drops(&self, kind: Kind, targets: Bitboard) -> Bitboard {
        let us = self.side;
        let mut targets = self.drop_limits(us, kind, targets);
        if let Some(pawn) = V::DROP_RULES.pawn {
            if kind == pawn && V::DROP_RULES.no_pawn_drop_mate {
                // The one square where a pawn gives check: in front of the enemy king.
                let front = pawn_check_square::<V>(pawn, !us, self.kings[(!us).index()]) & targets;
                for sq in front {
                    if self.drop_mates(pawn, sq) {
                        targets = targets.without(sq);
                    }
                }
            }
        }
        targets
    }

    /// The drop targets of `kind` for `us`, with the variant's [`Variant::DROP_RULES`]
    /// applied but the test of a pawn drop for mate: no dead drops, and the pawn limit per
    /// file (read from the pawns of `us` on the board).
    #[inline(always)]
    fn drop_limits(&self, us: Color, kind: Kind, mut targets: Bitboard) -> Bitboard {
        let t = V::tables();
        let rules = V::DROP_RULES;
        if rules.no_dead_drops {
            targets &= !t.dead[us.index()][kind.index()];
        }
        if let Some(pawn) = rules.pawn {
            if kind == pawn {
                if rules.nifu && rules.pawns_per_file <= 1 {
                    for sq in self.by_kind[pawn.index()] & self.by_color[us.index()] {
                        targets &= !t.file[sq.index()];
                    }
                } else if rules.nifu {
                    let pawns = self.by_kind[pawn.index()] & self.by_color[us.index()];
                    for sq in pawns {
                        let file = t.file[sq.index()];
                        if (pawns & file).count() >= u32::from(rules.pawns_per_file) {
                            targets &= !file;
                        }
                    }
                }
            }
        }
        targets
    }

    /// Whether dropping `kind` on `sq` leaves the opponent without a legal reply.
    #[inline(never)]
    fn drop_mates(&self, kind: Kind, sq: Square) -> bool {
        let mut child = *self;
        child.make(Move::drop(kind, sq));
        !child.has_legal_move_unadjudicated()
    }
}

/// The square (as a set) where a pawn (`pawn`) dropped by the enemy of `them` checks the king
/// of `them` on `king`: in front of it.
#[inline(always)]
fn pawn_check_square<V: Variant>(pawn: Kind, them: Color, king: Square) -> Bitboard {
    V::tables().step[them.index()][pawn.index()][king.index()]
}

/// The enemy's threats to the side to move: the pieces giving check, and the squares
/// attacked with the king taken off the board.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Threats {
    /// Enemy pieces attacking the king (by a step only, in a variant with sliders).
    pub(crate) checkers: Bitboard,
    /// Squares the enemy attacks, with the king off the board (by its steps only, in a
    /// variant with sliders).
    pub(crate) danger: Bitboard,
}

/// The step attacks of the side to move, summed up so that the [`Threats`] of its steps to
/// the other side after any one move follow in a few operations.
///
/// A step attacks the same squares whatever the occupancy, and a move changes the step
/// attacks of the moving piece only (a capture takes an enemy piece), so the step attacks
/// after a move are those of the other pieces plus those of the moved piece on its new
/// square. Perft uses this below every interior node, instead of finding the threats of
/// every child position from scratch; in a variant with sliders the child still looks at
/// the slides (their attacks depend on the occupancy, and a move may uncover one).
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct StepAttacks {
    /// Squares attacked by at least one piece.
    once: Bitboard,
    /// Squares attacked by at least two pieces.
    twice: Bitboard,
}

impl<V: Variant> Position<V> {
    /// The step attacks of the side to move, summed up (see [`StepAttacks`]).
    #[inline(always)]
    pub(crate) fn step_attacks(&self) -> StepAttacks {
        let t = V::tables();
        let us = self.side;
        let ours = self.by_color[us.index()];
        let mut sum = StepAttacks::default();
        for k in 0..t.kinds {
            for sq in self.by_kind[k] & ours {
                let att = t.step[us.index()][k][sq.index()];
                sum.twice |= sum.once & att;
                sum.once |= att;
            }
        }
        // The side not to move is never in check, so no piece attacks the enemy king yet.
        debug_assert!(!sum.once.has(self.kings[(!us).index()]));
        sum
    }
}

impl StepAttacks {
    /// The threats of the steps to the enemy after the side these attacks belong to
    /// (`mover`) moved the piece showing `kind` on `from` to `to`, where it shows `now`
    /// (`from` is `None` for a drop of `now`). `enemy_king` is the square of the enemy king.
    /// In a variant without sliders these are all the threats.
    #[inline(always)]
    pub(crate) fn after<V: Variant>(
        &self,
        mover: Color,
        from: Option<(Square, Kind)>,
        to: Square,
        now: Kind,
        enemy_king: Square,
    ) -> Threats {
        let t = V::tables();
        let arrived = t.step[mover.index()][now.index()][to.index()];
        let others = match from {
            // Squares still attacked once the piece has left: attacked by another piece
            // (twice, or once but not by this piece).
            Some((from, kind)) => {
                (self.once & !t.step[mover.index()][kind.index()][from.index()]) | self.twice
            }
            None => self.once,
        };
        // Before the move no piece attacked the enemy king (the side not to move is never in
        // check), and a move uncovers no step: only the moved piece can give check by a
        // step (a slide it uncovers is found in the child).
        Threats {
            checkers: if arrived.has(enemy_king) {
                Bitboard::from_square(to)
            } else {
                Bitboard::EMPTY
            },
            danger: others | arrived,
        }
    }
}

/// Whether perft counts the moves of the opponent's stepping pieces in each child from their
/// sum at the parent ([`StepperMoves`]): with the check rule and sliders (without sliders the
/// child is counted from its derived threats alone), without ranged slides and jumps along
/// lines, and where the moves to a set of destinations are counted by masks (no optional
/// flips, or the promotion zone's rule; see [`moves_to`]).
#[inline(always)]
pub(crate) const fn steppers_derivable<V: Variant>() -> bool {
    V::CHECK_RULE
        && V::SLIDERS
        && !V::RANGED
        && !V::LINE_JUMPS
        && (V::NO_OPTIONAL_FLIPS || V::PROMOTION_ZONE > 0)
}

/// The number of moves of the piece of `color` showing `kind` on `from` to `targets`, as
/// [`Position::bundle_len`] counts them: one per destination, and a second one where
/// promoting is optional. Only where [`steppers_derivable`] holds.
#[inline(always)]
fn moves_to<V: Variant>(kind: Kind, color: Color, from: Square, targets: Bitboard) -> u64 {
    debug_assert!(V::NO_OPTIONAL_FLIPS || V::PROMOTION_ZONE > 0);
    let both = if V::NO_OPTIONAL_FLIPS {
        Bitboard::EMPTY
    } else {
        targets & optional_promotions::<V>(kind, color, from)
    };
    u64::from(targets.count() + both.count())
}

/// The kinds (bit mask) whose moves [`StepperMoves`] sums up: those that only step (no
/// slide), other than the king.
#[inline(always)]
fn plain_steppers<V: Variant>() -> u16 {
    let t = V::tables();
    !t.sliders & !(1 << t.king.index()) & ((1u32 << t.kinds) - 1) as u16
}

/// The board moves of the plain steppers (pieces that only step, not the king) of the side not
/// to move, summed up at the last ply but one, so that perft counts them in each child
/// without generating them (see [`Position::count_leaves_stepped`]).
///
/// When the side to move here makes a move that gives no check, a plain stepper of the
/// opponent that is not pinned has in the child exactly the steps it has here that do not
/// land on a piece of its own side: a step attacks the same squares whatever the occupancy,
/// and the opponent is not in check. The move changes these moves only when it captures (the
/// captured piece's moves go, and the steppers that attack its square may now capture there)
/// and by the pins it makes or breaks, which the child corrects for; the king, the sliders
/// and the drops are counted in the child as usual.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct StepperMoves {
    /// The number of moves.
    count: u64,
    /// The squares of that side's pieces.
    ours: Bitboard,
    /// The squares of that side's pieces other than the king and the plain steppers.
    sliders: Bitboard,
    /// The faces that side can drop (bit mask of kinds), which the other side's move does
    /// not change.
    drop_faces: u16,
}

impl<V: Variant> Position<V> {
    /// The moves of the plain steppers of the side not to move, summed up (see
    /// [`StepperMoves`]). Only meaningful when [`steppers_derivable`] holds.
    #[inline(always)]
    pub(crate) fn stepper_moves(&self) -> StepperMoves {
        let t = V::tables();
        let them = !self.side;
        let theirs = self.by_color[them.index()];
        let mut count = 0;
        let mut plain = Bitboard::EMPTY;
        let mut kinds = plain_steppers::<V>();
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let pieces = self.by_kind[k] & theirs;
            plain |= pieces;
            for sq in pieces {
                let targets = t.step[them.index()][k][sq.index()] & !theirs;
                count += moves_to::<V>(Kind(k as u8), them, sq, targets);
            }
        }
        StepperMoves {
            count,
            ours: theirs,
            sliders: (theirs & !plain).without(self.kings[them.index()]),
            drop_faces: if V::DROPS {
                droppable_faces::<V>(&self.hands[them.index()])
            } else {
                0
            },
        }
    }

    /// The pieces of `color` whose kind slides (see [`Tables::sliders`](crate::Tables)).
    #[inline(always)]
    pub(crate) fn slider_squares(&self, color: Color) -> Bitboard {
        let t = V::tables();
        let mut pcs = Bitboard::EMPTY;
        let mut kinds = t.sliders;
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            pcs |= self.by_kind[k];
        }
        pcs & self.by_color[color.index()]
    }

    /// The opponent's slides at the king of `us` on the board `occ`, in one pass over
    /// `their_sliders` (pieces whose kind slides; `kind_of` reads a square's face): adds the
    /// sliders that give check to `checkers`, takes the squares they attack once the king has
    /// left its square off `ktargets`, and returns the pieces of `us` they pin (one piece of
    /// `us`, and nothing else, between a slider whose reach on the empty board holds the
    /// king and the king).
    #[inline(always)]
    fn slides_at_king(
        &self,
        us: Color,
        occ: Bitboard,
        their_sliders: Bitboard,
        kind_of: impl Fn(Square) -> Option<Kind>,
        ktargets: &mut Bitboard,
        checkers: &mut Bitboard,
    ) -> Bitboard {
        let t = V::tables();
        let them = !us;
        let ksq = self.kings[us.index()];
        let ours = self.by_color[us.index()];
        let mut pinned = Bitboard::EMPTY;
        for p in their_sliders {
            let Some(face) = kind_of(p) else {
                continue;
            };
            let kind = Kind(face.0 % crate::MAX_KINDS as u8);
            let reach = t.slide_reach[them.index()][kind.index()][p.index()];
            if reach.has(ksq) {
                let between = t.between[p.index()][ksq.index()] & occ;
                if between.is_empty() {
                    *checkers = checkers.with(p);
                } else if !between.more_than_one() && (between & ours).any() {
                    pinned |= between;
                }
            }
            if (reach & *ktargets).any() {
                *ktargets &= !t.slide_attacks(them, kind, p, occ.without(ksq), false);
            }
        }
        pinned
    }

    /// `n`, a count that holds every move of the plain steppers of `us` as if none were
    /// pinned, corrected for the pins (`pinned`; a pinned plain stepper keeps only its moves
    /// along the pin) and with the moves of `sliders` added as the generator finds them on
    /// the board `occ`. `all_sliders` are the pieces of `us` whose moves `n` does not hold.
    #[inline(always)]
    fn pins_and_sliders(
        &self,
        mut n: u64,
        us: Color,
        occ: Bitboard,
        pinned: Bitboard,
        sliders: Bitboard,
        all_sliders: Bitboard,
    ) -> u64 {
        let t = V::tables();
        let ksq = self.kings[us.index()];
        let ours = self.by_color[us.index()];
        for from in pinned & !all_sliders {
            let Some(piece) = self.board[from.index()] else {
                continue;
            };
            let k = piece.kind.index() % crate::MAX_KINDS;
            let all = t.step[us.index()][k][from.index()] & !ours;
            n -= moves_to::<V>(
                Kind(k as u8),
                us,
                from,
                all & !t.line[ksq.index()][from.index()],
            );
        }
        for from in sliders {
            let Some(piece) = self.board[from.index()] else {
                continue;
            };
            let kind = Kind(piece.kind.0 % crate::MAX_KINDS as u8);
            let mut targets = Self::piece_attacks(us, kind, from, occ) & !ours;
            if pinned.has(from) {
                targets &= t.line[ksq.index()][from.index()];
            }
            n += moves_to::<V>(kind, us, from, targets);
        }
        n
    }

    /// The drops of `us` of the faces `faces` (bit mask of kinds) on the `empty` squares,
    /// each face's targets passed through `limit` where the variant limits drops; `None`
    /// when `limit` says the count cannot be made here.
    #[inline(always)]
    fn count_drops(
        &self,
        us: Color,
        empty: Bitboard,
        mut faces: u16,
        limit: impl Fn(Kind, Bitboard) -> Option<Bitboard>,
    ) -> Option<u64> {
        let mut n = 0;
        if V::DROPS {
            while faces != 0 {
                let kind = Kind(faces.trailing_zeros() as u8);
                faces &= faces - 1;
                let mut targets = V::drop_targets(self, us, kind, empty);
                if V::DROP_LIMITS {
                    targets = limit(kind, targets)?;
                }
                n += u64::from(targets.count());
            }
        }
        Some(n)
    }

    /// [`Position::count_leaves_given`] for the position just reached by a move of the
    /// opponent at the last ply but one, where [`steppers_derivable`] holds: `known` are the
    /// threats of the opponent's steps (see [`StepAttacks::after`]), `their_sliders` the
    /// opponent's pieces whose kind slides, `steppers` the moves of the plain steppers of the
    /// side to move summed up before that move (see [`StepperMoves`]), and `captured` the
    /// piece of the side to move that the move took (with its square and face), if any. When
    /// the side to move is in check, its moves are generated as usual.
    #[inline(always)]
    pub(crate) fn count_leaves_stepped(
        &self,
        known: Threats,
        their_sliders: Bitboard,
        steppers: StepperMoves,
        captured: Option<(Square, Kind)>,
    ) -> u64 {
        debug_assert!(steppers_derivable::<V>());
        debug_assert_eq!(their_sliders, self.slider_squares(!self.side));
        if V::HAS_ADJUDICATION && V::adjudicate(self).is_some() {
            return 0;
        }
        let t = V::tables();
        let us = self.side;
        let them = !us;
        let ksq = self.kings[us.index()];
        let occ = self.occupied();
        let ours = self.by_color[us.index()];
        // The king's squares not attacked by the opponent's steps once it has left its
        // square; the slides are looked at below.
        let mut ktargets = Self::piece_attacks(us, t.king, ksq, occ) & !ours & !known.danger;
        // The checks and pins of the opponent's slides (a slider whose reach on the empty
        // board holds the king, with nothing between them, or one piece of ours), and the
        // king's squares they attack, in one pass over them.
        let mut checkers = known.checkers;
        let pinned = self.slides_at_king(
            us,
            occ,
            their_sliders,
            |p| self.board[p.index()].map(|piece| piece.kind),
            &mut ktargets,
            &mut checkers,
        );
        if checkers.any() {
            return self.count_leaves_given(Some(known));
        }
        let plain = plain_steppers::<V>();
        let mut n = moves_to::<V>(t.king, us, ksq, ktargets) + steppers.count;
        if let Some((sq, kind)) = captured {
            let k = kind.index() % crate::MAX_KINDS;
            if plain & (1 << k) != 0 {
                // The captured stepper's moves are gone.
                n -= moves_to::<V>(
                    kind,
                    us,
                    sq,
                    t.step[us.index()][k][sq.index()] & !steppers.ours,
                );
            }
            // The plain steppers that attack its square may now capture there.
            let mut kinds = plain;
            while kinds != 0 {
                let k = kinds.trailing_zeros() as usize;
                kinds &= kinds - 1;
                for from in t.step[them.index()][k][sq.index()] & self.by_kind[k] & ours {
                    n += moves_to::<V>(Kind(k as u8), us, from, Bitboard::from_square(sq));
                }
            }
        }
        n = self.pins_and_sliders(
            n,
            us,
            occ,
            pinned,
            steppers.sliders & ours,
            steppers.sliders,
        );
        // The hand of the side to move is as it was before the opponent's move.
        let drops = self.count_drops(us, t.board & !occ, steppers.drop_faces, |kind, targets| {
            Some(self.restrict_drops(kind, targets))
        });
        let Some(drops) = drops else {
            unreachable!("restrict_drops always counts")
        };
        n += drops;
        debug_assert_eq!(
            n,
            self.count_leaves_given(Some(known)),
            "stepper moves derived for {self:?}"
        );
        n
    }
}

impl<V: Variant> Position<V> {
    /// [`Position::count_leaves_stepped`] of the position after the move of the side to move
    /// that puts a piece showing `now` on the empty square `to` (from `from`, or dropped when
    /// it is `None`), counted without making the move: `known` are the threats of the steps
    /// after it (see [`StepAttacks::after`]), `their_sliders` the pieces of the side to move
    /// whose kind slides after it, `steppers` the moves of the opponent's plain steppers
    /// (see [`StepperMoves`]). `None` when the count needs the position after the move: when
    /// the move gives check, or when the opponent may drop a pawn that would check (the
    /// test for mate is made on that position). Only where [`steppers_derivable`] holds, and
    /// for a move after which [`Variant::no_adjudication_after`] promises no adjudication
    /// (and drop targets that follow from the empty squares).
    #[inline(always)]
    pub(crate) fn count_replies_quiet(
        &self,
        known: Threats,
        their_sliders: Bitboard,
        steppers: StepperMoves,
        from: Option<Square>,
        to: Square,
        now: Kind,
    ) -> Option<u64> {
        debug_assert!(steppers_derivable::<V>() && self.board[to.index()].is_none());
        let t = V::tables();
        let them = self.side;
        let us = !them;
        let ksq = self.kings[us.index()];
        let mut occ = self.occupied().with(to);
        let mut their_king = self.kings[them.index()];
        if let Some(from) = from {
            occ = occ.without(from);
            if from == their_king {
                their_king = to;
            }
        }
        let ours = self.by_color[us.index()];
        // As in `count_leaves_stepped`, with the moved piece read from `now`.
        let mut ktargets = Self::piece_attacks(us, t.king, ksq, occ) & !ours & !known.danger;
        let mut checkers = known.checkers;
        let pinned = self.slides_at_king(
            us,
            occ,
            their_sliders,
            |p| {
                if p == to {
                    Some(now)
                } else {
                    self.board[p.index()].map(|piece| piece.kind)
                }
            },
            &mut ktargets,
            &mut checkers,
        );
        if checkers.any() {
            return None;
        }
        let mut n = moves_to::<V>(t.king, us, ksq, ktargets) + steppers.count;
        n = self.pins_and_sliders(n, us, occ, pinned, steppers.sliders, steppers.sliders);
        n += self.count_drops(us, t.board & !occ, steppers.drop_faces, |kind, targets| {
            let targets = self.drop_limits(us, kind, targets);
            if let Some(pawn) = V::DROP_RULES.pawn {
                if kind == pawn
                    && V::DROP_RULES.no_pawn_drop_mate
                    && (pawn_check_square::<V>(pawn, them, their_king) & targets).any()
                {
                    // Whether that drop mates is seen only after the move.
                    return None;
                }
            }
            Some(targets)
        })?;
        debug_assert_eq!(
            Some(n),
            {
                let mut child = *self;
                let mv = match from {
                    Some(from) => Move::board(
                        from,
                        to,
                        self.board[from.index()].map(|p| p.kind) != Some(now),
                    ),
                    None => Move::drop(now, to),
                };
                child.make(mv);
                Some(child.count_leaves())
            },
            "replies counted before the move to {to:?} in {self:?}"
        );
        Some(n)
    }
}

/// Whether perft may count the board moves of each child from its parent ([`Replies`]):
/// without the check rule, without sliders and without optional flips.
#[inline(always)]
pub(crate) const fn replies_derivable<V: Variant>() -> bool {
    !V::CHECK_RULE && !V::SLIDERS && V::NO_OPTIONAL_FLIPS
}

/// The board moves of one side, counted in a variant without the check rule, without sliders
/// and without optional flips, so that the count after any move of the other side follows in
/// a few operations.
///
/// Then every board move of a piece is one of its steps that does not land on a piece of its
/// own side: it is legal whatever the opponent does (no check rule), a piece attacks the
/// same squares wherever the others stand (no sliders), and a move to a square is one move
/// (no optional flip). A move of the other side changes these moves only when it captures:
/// the captured piece's moves are gone, and its square becomes a target of the pieces that
/// attack it. Perft counts the last ply from this at the last ply but one, instead of
/// generating the board moves of every child; drops and adjudication are still found in the
/// child itself.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Replies {
    /// The number of board moves.
    board_moves: u64,
    /// The squares of that side's pieces.
    ours: Bitboard,
    /// The faces that side can drop (bit mask of kinds), which the other side's move does
    /// not change.
    drop_faces: u16,
}

/// The flip flags of the moves of a piece of `side` showing `kind` from `from` to `to`, as
/// a range: `(false, false)` for the unflipped move only, `(true, true)` for the flipped one
/// only, `(false, true)` for both (a move appears once per flag from the first to the last).
#[inline(always)]
pub(crate) fn flip_range<V: Variant>(
    kind: Kind,
    side: Color,
    from: Square,
    to: Square,
    occ: Bitboard,
) -> (bool, bool) {
    match V::flip(kind, side, from, to, occ.has(to)) {
        Flip::Never => (false, false),
        Flip::Always => (true, true),
        Flip::Optional => (false, true),
    }
}

/// [`Position::expand`] for a bundle of the position in `p`, which `push` may change but
/// must restore before it returns.
#[inline(always)]
pub(crate) fn expand_with<V, P, F>(p: &mut P, bundle: Bundle, mut push: F)
where
    V: Variant,
    P: PositionAccess<V>,
    F: FnMut(&mut P, Move),
{
    match bundle {
        Bundle::Board {
            from,
            kind,
            targets,
        } => {
            let (side, occ) = {
                let pos = p.position();
                (pos.side, pos.occupied())
            };
            for to in targets {
                let (mut flip, last) = flip_range::<V>(kind, side, from, to, occ);
                loop {
                    push(p, Move::board(from, to, flip));
                    if flip == last {
                        break;
                    }
                    flip = true;
                }
            }
        }
        Bundle::Drop { kind, targets } => {
            for to in targets {
                push(p, Move::drop(kind, to));
            }
        }
    }
}
