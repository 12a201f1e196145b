//! The integer network: a feature transformer shared by both perspectives, a clipped ReLU,
//! and one output neuron; the accumulator that holds the transformer's output and is
//! updated move by move.

use crate::features::{Delta, Layout};
use core::marker::PhantomData;
use kshogi_core::{Color, Move, Position, Variant};

/// The largest hidden size (accumulator width per perspective) a net may have. The
/// accumulator is a fixed array of this width, so that it lives on the stack.
pub const MAX_HIDDEN: usize = 128;

/// The largest absolute score [`Network::evaluate`] returns, in centipawns: far from the
/// search's mate scores.
pub const MAX_EVAL: i32 = 20_000;

/// The output of the feature transformer for both perspectives, `[Color::index()][unit]`
/// (only the first [`Network::hidden`] units are used). Integer sums with wrapping
/// arithmetic, so that any order of additions and removals gives the same bits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// The sums, by perspective.
    pub values: [[i16; MAX_HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            values: [[0; MAX_HIDDEN]; 2],
        }
    }
}

/// A quantised network for variant `V` (see the crate documentation for the architecture).
///
/// Integer weights: the transformer's weights and biases are the float ones times
/// [`Network::qa`], the output weights times [`Network::qb`], the output bias times
/// `qa * qb`; the clipped ReLU clamps to `0..=qa`. The output sum divided by `qa * qb` is
/// the float net's output, in units of [`Network::scale`] centipawns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network<V: Variant> {
    pub(crate) layout: Layout,
    pub(crate) hidden: usize,
    pub(crate) qa: i16,
    pub(crate) qb: i16,
    pub(crate) scale: u16,
    /// `[unit]`.
    pub(crate) ft_bias: Vec<i16>,
    /// `[feature * hidden + unit]`.
    pub(crate) ft_weights: Vec<i16>,
    /// `[unit]` for the side to move's half, then `[hidden + unit]` for the other.
    pub(crate) out_weights: Vec<i16>,
    pub(crate) out_bias: i32,
    pub(crate) _v: PhantomData<V>,
}

impl<V: Variant> Network<V> {
    /// The feature layout of `V` the net reads.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The hidden size: accumulator units per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The transformer's quantisation scale (and the clipped ReLU's ceiling).
    pub fn qa(&self) -> i16 {
        self.qa
    }

    /// The output weights' quantisation scale.
    pub fn qb(&self) -> i16 {
        self.qb
    }

    /// Centipawns per unit of the float net's output.
    pub fn scale(&self) -> u16 {
        self.scale
    }

    #[inline(always)]
    fn row(&self, feature: usize) -> &[i16] {
        let h = self.hidden;
        &self.ft_weights[feature * h..feature * h + h]
    }

    /// Computes the accumulator of `pos` from scratch.
    #[inline]
    pub fn refresh(&self, pos: &Position<V>, acc: &mut Accumulator) {
        let h = self.hidden;
        for persp in Color::ALL {
            let a = &mut acc.values[persp.index()][..h];
            a.copy_from_slice(&self.ft_bias);
            self.layout.for_each(pos, persp, |f| {
                for (x, w) in a.iter_mut().zip(self.row(f)) {
                    *x = x.wrapping_add(*w);
                }
            });
        }
    }

    #[inline(always)]
    fn apply(&self, acc: &mut Accumulator, delta: &[Delta; 2], forward: bool) {
        let h = self.hidden;
        for persp in Color::ALL {
            let d = &delta[persp.index()];
            let a = &mut acc.values[persp.index()][..h];
            let (plus, minus) = if forward {
                (d.added(), d.removed())
            } else {
                (d.removed(), d.added())
            };
            for &f in plus {
                for (x, w) in a.iter_mut().zip(self.row(f as usize)) {
                    *x = x.wrapping_add(*w);
                }
            }
            for &f in minus {
                for (x, w) in a.iter_mut().zip(self.row(f as usize)) {
                    *x = x.wrapping_sub(*w);
                }
            }
        }
    }

    /// Updates `acc`, the accumulator of `before`, to the position after the legal move
    /// `mv` (call it before making the move: it reads the moving piece, the victim and the
    /// hand counts from `before`).
    #[inline]
    pub fn update(&self, acc: &mut Accumulator, before: &Position<V>, mv: Move) {
        let d = self.layout.delta(before, mv);
        self.apply(acc, &d, true);
    }

    /// Makes `to` the accumulator of the position after a move whose feature changes are
    /// `delta` ([`Layout::delta`] of the position before it and the move), from `from`, the
    /// accumulator before it; the unused units of `to` are left as they were. For an
    /// accumulator stack that records a move's changes when the move is made and applies
    /// them only when the position is evaluated.
    #[inline]
    pub fn apply_delta(&self, from: &Accumulator, to: &mut Accumulator, delta: &[Delta; 2]) {
        let h = self.hidden;
        for persp in 0..2 {
            to.values[persp][..h].copy_from_slice(&from.values[persp][..h]);
        }
        self.apply(to, delta, true);
    }

    /// Takes back [`Network::update`]: `acc`, the accumulator after `mv`, becomes the
    /// accumulator of `before` again (the position after the move was unmade).
    #[inline]
    pub fn revert(&self, acc: &mut Accumulator, before: &Position<V>, mv: Move) {
        let d = self.layout.delta(before, mv);
        self.apply(acc, &d, false);
    }

    /// Changes `acc`, the accumulator of `from`, into the accumulator of `to`, by the
    /// squares and hand counts in which the two positions differ, or by a refresh when they
    /// differ in more than `max_changes` squares. Returns whether it updated (rather than
    /// refreshed). For an evaluator that keeps the last position it evaluated: positions a
    /// search evaluates one after another differ in a few squares.
    #[inline]
    pub fn update_between(
        &self,
        acc: &mut Accumulator,
        from: &Position<V>,
        to: &Position<V>,
        max_changes: usize,
    ) -> bool {
        let h = self.hidden;
        let mut changed = [0u8; 64];
        let mut n = 0usize;
        for i in 0..self.layout.squares.min(64) {
            let sq = kshogi_core::Square::new(i as u8);
            if from.piece_at(sq) != to.piece_at(sq) {
                if n == max_changes {
                    self.refresh(to, acc);
                    return false;
                }
                changed[n] = i as u8;
                n += 1;
            }
        }
        for persp in Color::ALL {
            let a = &mut acc.values[persp.index()][..h];
            for &i in &changed[..n] {
                let sq = kshogi_core::Square::new(i);
                if let Some(p) = from.piece_at(sq) {
                    let f = self.layout.board::<V>(persp, p, sq);
                    for (x, w) in a.iter_mut().zip(self.row(f)) {
                        *x = x.wrapping_sub(*w);
                    }
                }
                if let Some(p) = to.piece_at(sq) {
                    let f = self.layout.board::<V>(persp, p, sq);
                    for (x, w) in a.iter_mut().zip(self.row(f)) {
                        *x = x.wrapping_add(*w);
                    }
                }
            }
            for c in Color::ALL {
                for slot in 0..self.layout.slots {
                    let most = self.layout.hand_max[slot];
                    let old = from.hand(c, slot).min(most);
                    let new = to.hand(c, slot).min(most);
                    for i in new + 1..=old {
                        let f = self.layout.hand(persp, c, slot, i);
                        for (x, w) in a.iter_mut().zip(self.row(f)) {
                            *x = x.wrapping_sub(*w);
                        }
                    }
                    for i in old + 1..=new {
                        let f = self.layout.hand(persp, c, slot, i);
                        for (x, w) in a.iter_mut().zip(self.row(f)) {
                            *x = x.wrapping_add(*w);
                        }
                    }
                }
            }
        }
        true
    }

    /// The raw output sum for `side` to move: the float output times `qa * qb`.
    #[inline]
    pub fn output(&self, acc: &Accumulator, side: Color) -> i32 {
        let h = self.hidden;
        let qa = self.qa;
        let mut sum = self.out_bias;
        let halves = [side, !side];
        for (half, persp) in halves.iter().enumerate() {
            let a = &acc.values[persp.index()][..h];
            let w = &self.out_weights[half * h..half * h + h];
            let mut s = 0i32;
            for (x, w) in a.iter().zip(w) {
                s += i32::from((*x).clamp(0, qa)) * i32::from(*w);
            }
            sum = sum.wrapping_add(s);
        }
        sum
    }

    /// The score in centipawns for `side` to move, from an accumulator, clamped to
    /// [`MAX_EVAL`].
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, side: Color) -> i32 {
        let sum = i64::from(self.output(acc, side));
        let cp = sum * i64::from(self.scale) / (i64::from(self.qa) * i64::from(self.qb));
        cp.clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32
    }

    /// The score of `pos` for its side to move, refreshing an accumulator on the stack.
    #[inline]
    pub fn evaluate_position(&self, pos: &Position<V>) -> i32 {
        let mut acc = Accumulator::default();
        self.refresh(pos, &mut acc);
        self.evaluate(&acc, pos.side_to_move())
    }
}
