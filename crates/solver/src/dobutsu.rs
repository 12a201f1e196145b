//! The index of Dobutsu Shogi positions, and their un-moves: what the generic solver
//! ([`crate::generic`]) needs to know about Dobutsu.
//!
//! A position is stored with Black to move (White to move is the colour-swapped, rotated
//! image, [`DobutsuIndex::flip`]). Every Dobutsu piece moves the same to the left and to the
//! right, so a position and its mirror image have the same value: the stored one has the
//! Black lion on file 3 or 2 (square index `3 * rank` or `3 * rank + 1`), and with the lion
//! on file 2 the lesser board of the two.
//!
//! Entries are ordered by *class* (for the giraffes, the elephants and the chicks in turn:
//! how many stand on the board and how many of the rest Black holds in hand; White holds
//! the others), then by the two lions (8 x 11), then for each kind in turn by the set of
//! squares its pieces occupy among the squares still free (a combination number) and the
//! owner of each (and for a chick whether it is a hen). Every arrangement of a class has
//! exactly one number and the numbers are dense: 11,878,227 arrangements per lion pair,
//! 1,045,283,976 entries for the whole game (88 lion pairs), against 1,567,925,964 with all
//! 132 lion pairs.
//!
//! A sub-game keeps only some of the three kinds ([`DobutsuIndex::with_kinds`]); it is closed
//! under moves (no move creates a piece), which the tests use to compare the solver with
//! exhaustive search.

use crate::generic::{Indexed, SubGameError};
use kshogi_core::{Color, Piece, Position, Setup, Square, Variant};
use kshogi_rules_dobutsu::{Dobutsu, CHICK, ELEPHANT, GIRAFFE, HEN, LION};

/// Squares of the board.
pub const SQUARES: usize = 12;
/// Cell code of an empty square in [`DState::board`].
pub const EMPTY: u8 = 0;

/// A Dobutsu position reduced to its board, hands and side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DState {
    /// Cell codes by square: [`EMPTY`], or `1 + 5 * colour + kind` with kind 0 lion, 1
    /// giraffe, 2 elephant, 3 chick, 4 hen (see [`cell`]).
    pub board: [u8; SQUARES],
    /// Hand counts `[colour][g, e, c]`.
    pub hand: [[u8; 3]; 2],
    /// Side to move.
    pub side: Color,
}

/// The cell code of a piece: `1 + 5 * colour + kind`.
#[inline]
pub const fn cell(color: Color, kind: u8) -> u8 {
    1 + 5 * (color as u8) + kind
}

const K_LION: u8 = 0;
const K_CHICK: u8 = 3;
const K_HEN: u8 = 4;

fn core_kind(k: u8) -> kshogi_core::Kind {
    [LION, GIRAFFE, ELEPHANT, CHICK, HEN][k as usize]
}

/// The hand slot (0 giraffe, 1 elephant, 2 chick) of a cell's kind, for the non-lions.
#[inline]
fn slot_of(kind: u8) -> usize {
    match kind {
        1 => 0,
        2 => 1,
        _ => 2,
    }
}

#[inline]
fn mirror_sq(s: usize) -> usize {
    s + 2 - 2 * (s % 3)
}

const fn binom(n: u64, k: u64) -> u64 {
    match k {
        0 => 1,
        1 => n,
        _ => n * n.saturating_sub(1) / 2,
    }
}

/// One class: per kind, pieces on the board and Black's hand count.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Class {
    on_board: [u8; 3],
    black_hand: [u8; 3],
    /// Sizes of the three kinds' parts.
    sizes: [u64; 3],
}

/// States per piece on the board: owner, and for a chick also hen or not.
const STATES: [u64; 3] = [2, 2, 4];
/// Lion pairs: the Black lion on one of 8 squares (files 3 and 2), the White lion on one of
/// the 11 others.
pub const LION_PAIRS: u64 = 88;

/// The index of the Dobutsu positions of a game or a sub-game.
#[derive(Clone, Debug)]
pub struct DobutsuIndex {
    totals: [u8; 3],
    classes: Vec<Class>,
    /// Start of each class, in order.
    starts: Vec<u64>,
    /// Class number by code (`[g][e][c]` codes of `(on board, black hand)`), or `usize::MAX`.
    by_code: Vec<usize>,
    len: u64,
}

/// Code of `(on board, Black's hand)` for a kind with `total` pieces.
fn pair_code(on: u8, black: u8) -> usize {
    // (0,0) (0,1) (0,2) (1,0) (1,1) (2,0)
    match on {
        0 => black as usize,
        1 => 3 + black as usize,
        _ => 5,
    }
}

impl DobutsuIndex {
    /// The whole game: both giraffes, elephants and chicks.
    pub fn full() -> DobutsuIndex {
        DobutsuIndex::with_kinds([true, true, true])
    }

    /// A sub-game with the lions and, of the giraffes, elephants and chicks, the pairs
    /// marked `true`.
    pub fn with_kinds(kinds: [bool; 3]) -> DobutsuIndex {
        let totals = kinds.map(|k| if k { 2u8 } else { 0 });
        let mut classes = Vec::new();
        let mut starts = Vec::new();
        let mut by_code = vec![usize::MAX; 216];
        let mut len = 0u64;
        let opts = |t: u8| -> Vec<(u8, u8)> {
            let mut v = Vec::new();
            for on in 0..=t {
                for b in 0..=(t - on) {
                    v.push((on, b));
                }
            }
            v
        };
        for &(g, gb) in &opts(totals[0]) {
            for &(e, eb) in &opts(totals[1]) {
                for &(c, cb) in &opts(totals[2]) {
                    let on_board = [g, e, c];
                    let mut free = 10u64;
                    let mut sizes = [0u64; 3];
                    for k in 0..3 {
                        let n = on_board[k] as u64;
                        sizes[k] = binom(free, n) * STATES[k].pow(n as u32);
                        free -= n;
                    }
                    let code = (pair_code(g, gb) * 6 + pair_code(e, eb)) * 6 + pair_code(c, cb);
                    by_code[code] = classes.len();
                    classes.push(Class {
                        on_board,
                        black_hand: [gb, eb, cb],
                        sizes,
                    });
                    starts.push(len);
                    len += LION_PAIRS * sizes.iter().product::<u64>();
                }
            }
        }
        DobutsuIndex {
            totals,
            classes,
            starts,
            by_code,
            len,
        }
    }

    /// Number of classes.
    pub fn classes(&self) -> usize {
        self.classes.len()
    }

    /// The compact form of a position.
    pub fn compact(pos: &Position<Dobutsu>) -> DState {
        let mut c = DState {
            board: [EMPTY; SQUARES],
            hand: [[0; 3]; 2],
            side: pos.side_to_move(),
        };
        for s in 0..SQUARES {
            if let Some(p) = pos.piece_at(Square(s as u8)) {
                c.board[s] = cell(p.color, p.kind.0);
            }
        }
        for color in Color::ALL {
            for k in 0..3 {
                c.hand[color.index()][k] = pos.hand(color, k);
            }
        }
        c
    }

    /// The colour-swapped, rotated image.
    pub fn flip(c: &DState) -> DState {
        let mut out = DState {
            board: [EMPTY; SQUARES],
            hand: [c.hand[1], c.hand[0]],
            side: !c.side,
        };
        for s in 0..SQUARES {
            let v = c.board[s];
            out.board[SQUARES - 1 - s] = match v {
                EMPTY => EMPTY,
                1..=5 => v + 5,
                _ => v - 5,
            };
        }
        out
    }

    /// The mirror image: files 1 and 3 swapped.
    pub fn mirror(c: &DState) -> DState {
        let mut out = *c;
        for s in 0..SQUARES {
            out.board[mirror_sq(s)] = c.board[s];
        }
        out
    }

    /// The stored one of a position and its mirror image: the Black lion on file 3 or 2,
    /// and with it on file 2 the lesser board.
    pub fn canonical(c: &DState) -> DState {
        let bl = c
            .board
            .iter()
            .position(|&v| v == cell(Color::Black, K_LION));
        match bl.map(|s| s % 3) {
            Some(0) | None => *c,
            Some(2) => Self::mirror(c),
            _ => {
                let m = Self::mirror(c);
                if m.board < c.board {
                    m
                } else {
                    *c
                }
            }
        }
    }

    fn index_of(&self, c: &DState) -> Option<u64> {
        let mut bl = usize::MAX;
        let mut wl = usize::MAX;
        let mut squares = [[0usize; 2]; 3];
        let mut states = [[0u64; 2]; 3];
        let mut on = [0usize; 3];
        for (s, &v) in c.board.iter().enumerate() {
            if v == EMPTY {
                continue;
            }
            let color = (v - 1) / 5;
            let kind = (v - 1) % 5;
            if kind == K_LION {
                if color == 0 {
                    bl = s;
                } else {
                    wl = s;
                }
                continue;
            }
            let k = slot_of(kind);
            if on[k] >= 2 {
                return None;
            }
            squares[k][on[k]] = s;
            states[k][on[k]] = if k == 2 {
                color as u64 * 2 + (kind == K_HEN) as u64
            } else {
                color as u64
            };
            on[k] += 1;
        }
        if bl == usize::MAX || wl == usize::MAX || bl % 3 == 2 {
            return None;
        }
        let mut code = 0;
        for (k, &n) in on.iter().enumerate() {
            let black = c.hand[0][k];
            if n as u8 + black + c.hand[1][k] != self.totals[k] {
                return None;
            }
            code = code * 6 + pair_code(n as u8, black);
        }
        let class_no = self.by_code[code];
        if class_no == usize::MAX {
            return None;
        }
        let class = &self.classes[class_no];
        let lion = ((bl / 3) * 2 + bl % 3) as u64 * 11 + (wl - (wl > bl) as usize) as u64;
        let mut idx = lion;
        let mut used: u32 = (1 << bl) | (1 << wl);
        for k in 0..3 {
            let n = on[k];
            let below = |s: usize| (s - (used & ((1u32 << s) - 1)).count_ones() as usize) as u64;
            let (comb, st) = match n {
                0 => (0, 0),
                1 => (below(squares[k][0]), states[k][0]),
                _ => {
                    let p0 = below(squares[k][0]);
                    let p1 = below(squares[k][1]);
                    (
                        p1 * (p1 - 1) / 2 + p0,
                        states[k][0] + STATES[k] * states[k][1],
                    )
                }
            };
            let sub = comb * STATES[k].pow(n as u32) + st;
            idx = idx * class.sizes[k] + sub;
            for &s in &squares[k][..n] {
                used |= 1 << s;
            }
        }
        Some(self.starts[class_no] + idx)
    }

    fn decode_at(&self, index: u64) -> DState {
        let at = self.starts.partition_point(|&s| s <= index) - 1;
        let class = &self.classes[at];
        let mut rest = index - self.starts[at];
        let mut subs = [0u64; 3];
        for k in (0..3).rev() {
            subs[k] = rest % class.sizes[k];
            rest /= class.sizes[k];
        }
        let lion = rest;
        let kidx = (lion / 11) as usize;
        let wd = (lion % 11) as usize;
        let bl = (kidx / 2) * 3 + kidx % 2;
        let wl = if wd >= bl { wd + 1 } else { wd };
        let mut c = DState {
            board: [EMPTY; SQUARES],
            hand: [[0; 3]; 2],
            side: Color::Black,
        };
        c.board[bl] = cell(Color::Black, K_LION);
        c.board[wl] = cell(Color::White, K_LION);
        let mut used: u32 = (1 << bl) | (1 << wl);
        for k in 0..3 {
            let n = class.on_board[k] as usize;
            c.hand[0][k] = class.black_hand[k];
            c.hand[1][k] = self.totals[k] - class.on_board[k] - class.black_hand[k];
            let per = STATES[k].pow(n as u32);
            let comb = subs[k] / per;
            let st = subs[k] % per;
            let nth_free = |p: u64| -> usize {
                let mut free = !used & 0xFFF;
                for _ in 0..p {
                    free &= free - 1;
                }
                free.trailing_zeros() as usize
            };
            let (pos, sts): ([u64; 2], [u64; 2]) = match n {
                0 => continue,
                1 => ([comb, 0], [st, 0]),
                _ => {
                    // comb = p1 * (p1 - 1) / 2 + p0 with p0 < p1.
                    let mut p1 = 1u64;
                    while (p1 + 1) * p1 / 2 <= comb {
                        p1 += 1;
                    }
                    let p0 = comb - p1 * (p1 - 1) / 2;
                    ([p0, p1], [st % STATES[k], st / STATES[k]])
                }
            };
            let mut placed = [0usize; 2];
            for j in 0..n {
                placed[j] = nth_free(pos[j]);
            }
            for j in 0..n {
                let s = sts[j] as u8;
                c.board[placed[j]] = match k {
                    0 => cell(color_of(s), 1),
                    1 => cell(color_of(s), 2),
                    _ => cell(color_of(s / 2), if s % 2 == 1 { K_HEN } else { K_CHICK }),
                };
                used |= 1 << placed[j];
            }
        }
        c
    }
}

fn color_of(bit: u8) -> Color {
    if bit == 0 {
        Color::Black
    } else {
        Color::White
    }
}

/// The names of the three kinds besides the lions, in the order of
/// [`DobutsuIndex::with_kinds`].
const KIND_NAMES: [&str; 3] = ["giraffes", "elephants", "chicks"];

impl DobutsuIndex {
    /// Which of the giraffes, elephants and chicks the index keeps.
    pub fn kinds(&self) -> [bool; 3] {
        self.totals.map(|t| t > 0)
    }
}

impl Indexed for DobutsuIndex {
    type V = Dobutsu;
    type Compact = DState;

    const SCHEME: u32 = 1;

    fn full() -> DobutsuIndex {
        DobutsuIndex::full()
    }

    /// Bit 0: the giraffes, bit 1: the elephants, bit 2: the chicks (7: the whole game).
    fn scope(&self) -> u32 {
        self.kinds()
            .iter()
            .enumerate()
            .map(|(k, &on)| u32::from(on) << k)
            .sum()
    }

    fn with_scope(scope: u32) -> Option<DobutsuIndex> {
        (scope < 8).then(|| DobutsuIndex::with_kinds([0, 1, 2].map(|k| scope & (1 << k) != 0)))
    }

    /// The letters of the kinds kept besides the lions: `R` (giraffes), `B` (elephants),
    /// `P` (chicks), as in the SFEN; `all` for the whole game.
    fn sub_game(text: &str) -> Result<DobutsuIndex, SubGameError> {
        if text.eq_ignore_ascii_case("all") {
            return Ok(DobutsuIndex::full());
        }
        let mut kinds = [false; 3];
        for ch in text.chars() {
            match ch.to_ascii_uppercase() {
                'R' | 'G' => kinds[0] = true,
                'B' | 'E' => kinds[1] = true,
                'P' | 'C' => kinds[2] = true,
                _ => {
                    return Err(SubGameError::new(format!(
                        "`{ch}` in `{text}` is not a Dobutsu piece pair (R giraffes, B \
                         elephants, P chicks)"
                    )))
                }
            }
        }
        Ok(DobutsuIndex::with_kinds(kinds))
    }

    fn coverage(&self) -> String {
        let kept: Vec<&str> = (0..3)
            .filter(|&k| self.totals[k] > 0)
            .map(|k| KIND_NAMES[k])
            .collect();
        match kept.as_slice() {
            [] => "positions with the lions alone".to_string(),
            [one] => format!("positions with the lions and the {one} only"),
            [a, b] => format!("positions with the lions, the {a} and the {b} only"),
            _ => "every position of the game".to_string(),
        }
    }

    fn len(&self) -> u64 {
        self.len
    }

    fn decode(&self, index: u64) -> DState {
        self.decode_at(index)
    }

    fn index(&self, c: &DState) -> Option<u64> {
        debug_assert_eq!(c.side, Color::Black);
        self.index_of(c)
    }

    fn compact_of(&self, pos: &Position<Dobutsu>) -> DState {
        Self::compact(pos)
    }

    fn to_setup(&self, c: &DState) -> Setup<Dobutsu> {
        let mut s = Setup::<Dobutsu>::empty();
        s.side = c.side;
        for (sq, &v) in c.board.iter().enumerate() {
            if v != EMPTY {
                let color = color_of((v - 1) / 5);
                s.board[sq] = Some(Piece::new(color, core_kind((v - 1) % 5)));
            }
        }
        for color in 0..2 {
            for k in 0..3 {
                s.hands[color][k] = c.hand[color][k];
            }
        }
        s
    }

    fn flip(&self, c: &DState) -> DState {
        Self::flip(c)
    }

    fn canonical(&self, c: &DState) -> DState {
        Self::canonical(c)
    }

    fn mirror(&self, c: &DState) -> DState {
        Self::mirror(c)
    }

    fn side(&self, c: &DState) -> Color {
        c.side
    }

    #[inline]
    fn wins_at_once(&self, pos: &Position<Dobutsu>) -> bool {
        let me = pos.side_to_move();
        pos.is_attacked(pos.king(!me), me, pos.occupied())
    }

    fn predecessors(&self, r: &DState, mut f: impl FnMut(&DState)) {
        debug_assert_eq!(r.side, Color::White);
        let t = Dobutsu::tables();
        let occ: u64 = r
            .board
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v != EMPTY)
            .fold(0, |a, (s, _)| a | 1 << s);
        let black_far = t.farthest_rank[Color::Black.index()].0;
        let white = Color::White.index();
        for to in 0..SQUARES {
            let v = r.board[to];
            if v == EMPTY || v > 5 {
                continue;
            }
            let kind = v - 1;
            let on_far = black_far & (1 << to) != 0;
            let mut base = *r;
            base.side = Color::Black;
            // An un-drop: a giraffe, elephant or (unpromoted) chick goes back to hand.
            if kind != K_LION && kind != K_HEN {
                let mut q = base;
                q.board[to] = EMPTY;
                q.hand[0][slot_of(kind)] += 1;
                f(&q);
            }
            // Un-steps: (kind before the move, origins). A chick on the farthest rank was
            // dropped there (a move there promotes); a hen there may have been a chick.
            let mut sources = [(kind, 0u64); 2];
            if !(kind == K_CHICK && on_far) {
                sources[0].1 = t.step[white][core_kind(kind).index()][to].0 & !occ;
            }
            if kind == K_HEN && on_far {
                sources[1] = (K_CHICK, t.step[white][CHICK.index()][to].0 & !occ);
            }
            for &(before, froms) in &sources {
                let mut froms = froms;
                while froms != 0 {
                    let from = froms.trailing_zeros() as usize;
                    froms &= froms - 1;
                    let mut q = base;
                    q.board[from] = cell(Color::Black, before);
                    q.board[to] = EMPTY;
                    f(&q);
                    // Un-captures: a White piece that went to Black's hand comes back.
                    for k in 0..3 {
                        if r.hand[0][k] == 0 {
                            continue;
                        }
                        let mut qc = q;
                        qc.hand[0][k] -= 1;
                        let victims: &[u8] = match k {
                            0 => &[1],
                            1 => &[2],
                            _ => &[K_CHICK, K_HEN],
                        };
                        for &vk in victims {
                            qc.board[to] = cell(Color::White, vk);
                            f(&qc);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_core::Move;

    fn rng(x: &mut kshogi_core::rng::SplitMix64) -> u64 {
        x.next_u64()
    }

    #[test]
    fn sizes() {
        let full = DobutsuIndex::full();
        // Hand-derived: per lion pair, the sum over the classes of
        // C(10, g) 2^g (3 - g) * C(10 - g, e) 2^e (3 - e) * C(10 - g - e, c) 4^c (3 - c).
        assert_eq!(full.len(), 88 * 11_878_227);
        assert_eq!(full.classes(), 216);
        assert_eq!(11_878_227u64 * 132, 1_567_925_964);
        let chicks = DobutsuIndex::with_kinds([false, false, true]);
        // 3 + 2 * 40 + C(10, 2) * 16 = 803 per lion pair.
        assert_eq!(chicks.len(), 88 * 803);
    }

    #[test]
    fn decode_inverts_index() {
        for ix in [
            DobutsuIndex::with_kinds([false, false, true]),
            DobutsuIndex::with_kinds([true, false, true]),
        ] {
            for i in 0..ix.len() {
                let c = ix.decode(i);
                let canon = DobutsuIndex::canonical(&c);
                assert_eq!(ix.index(&c), Some(i), "{c:?}");
                assert_eq!(DobutsuIndex::canonical(&DobutsuIndex::mirror(&c)), canon);
                assert_eq!(DobutsuIndex::flip(&DobutsuIndex::flip(&c)), c);
            }
        }
        let ix = DobutsuIndex::full();
        let mut x = kshogi_core::rng::SplitMix64::new(1);
        for _ in 0..200_000 {
            let i = rng(&mut x) % ix.len();
            assert_eq!(ix.index(&ix.decode(i)), Some(i));
        }
        assert_eq!(ix.index(&ix.decode(ix.len() - 1)), Some(ix.len() - 1));
    }

    #[test]
    fn start_is_covered() {
        let ix = DobutsuIndex::full();
        let pos = Position::<Dobutsu>::start();
        let i = ix.index_any(&pos).unwrap();
        let back = ix.position(i).unwrap();
        // The start is its own mirror image; the stored form is the flipped one or itself.
        assert!(back.piece_at(Square(4)).is_some());
        let c = DobutsuIndex::compact(&pos);
        let setup = ix.to_setup(&c);
        assert_eq!(Position::from_setup(&setup).unwrap().hash(), pos.hash());
    }

    /// Random valid, unfinished positions with White to move (the children of Black's
    /// moves) and with Black to move.
    fn samples(ix: &DobutsuIndex, n: usize, seed: u64) -> Vec<Position<Dobutsu>> {
        let mut x = kshogi_core::rng::SplitMix64::new(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let i = rng(&mut x) % ix.len();
            let c = ix.decode(i);
            let c = if rng(&mut x) % 2 == 0 {
                c
            } else {
                DobutsuIndex::flip(&c)
            };
            if let Ok(p) = Position::<Dobutsu>::from_setup(&ix.to_setup(&c)) {
                out.push(p);
            }
        }
        out
    }

    fn black_to_move(p: &Position<Dobutsu>) -> DState {
        let c = DobutsuIndex::compact(p);
        if c.side == Color::White {
            DobutsuIndex::flip(&c)
        } else {
            c
        }
    }

    #[test]
    fn every_predecessor_has_the_move_back() {
        let ix = DobutsuIndex::full();
        for p in samples(&ix, 3000, 7) {
            // r: White to move.
            let r = DobutsuIndex::flip(&black_to_move(&p));
            ix.predecessors(&r, |q| {
                let qp = Position::<Dobutsu>::from_setup(&ix.to_setup(q))
                    .unwrap_or_else(|e| panic!("{q:?}: {e}"));
                let n = qp
                    .legal_moves()
                    .iter()
                    .filter(|m| DobutsuIndex::compact(&qp.after(**m)) == r)
                    .count();
                // A finished predecessor has no moves; otherwise exactly one move leads back.
                if qp.outcome().is_none() {
                    assert_eq!(n, 1, "{q:?} -> {r:?}");
                }
            });
        }
    }

    #[test]
    fn every_move_is_un_generated() {
        let ix = DobutsuIndex::full();
        let mut moves_checked = 0;
        for p in samples(&ix, 3000, 11) {
            let q = black_to_move(&p);
            let qp = Position::<Dobutsu>::from_setup(&ix.to_setup(&q)).unwrap();
            let list = qp.legal_moves();
            for m in list.iter() {
                let child = qp.after(*m);
                let r = DobutsuIndex::compact(&child);
                if !r.board.contains(&cell(Color::White, K_LION)) {
                    // The lion was captured: the game is over and has no entry.
                    assert!(child.outcome().is_some());
                    continue;
                }
                let mut found = 0;
                ix.predecessors(&r, |x| found += (*x == q) as usize);
                assert_eq!(found, 1, "{q:?} {m:?}");
                moves_checked += 1;
            }
        }
        assert!(moves_checked > 10_000, "{moves_checked}");
        let _ = Move::NULL;
    }
}
