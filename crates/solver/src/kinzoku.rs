//! The index of Kinzoku Shogi positions, and their un-moves: what the generic solver
//! ([`crate::generic`]) needs to know about Kinzoku.
//!
//! A position is stored from the side to move's point of view: a position with White to move
//! is first turned into its colour-swapped, 180-degree rotated image ([`Compact::flip`]),
//! which has the same value. Every Kinzoku piece moves the same to the left and to the
//! right, so a position and its mirror image ([`Compact::mirror`]) have the same value too:
//! only one of the two is stored ([`Compact::canonical`]), the one whose Black king stands
//! on file 3 or 2 (and, with the king on file 2, the lesser of the two by squares). The
//! stored positions are ordered by material class (which
//! non-king pieces each side still has, and whether its soldier is promoted), then by the
//! countdown state, then by where the pieces stand: the kings first, then the other pieces
//! in a fixed order, each numbered among the squares still free. So every arrangement of a
//! class has exactly one number, and the numbers of a class are dense.
//!
//! The index covers every arrangement, legal or not (kings next to each other, a soldier on
//! its farthest rank, ...); the solver marks the illegal ones. The bare-king countdown is
//! part of the state. A sub-game has at most so many pieces besides the kings
//! ([`KinzokuIndex::new`]); it is closed under moves (a move never adds a piece).

use kshogi_core::{Color, Kind, Piece, Position, Setup, Square, Variant};
use kshogi_rules_kinzoku::{Countdown, Kinzoku, COPPER, GOLD, KING, SILVER, SOLDIER};

/// Squares on the board.
pub const SQUARES: u8 = 15;
/// Marks an absent piece in [`Compact::sq`].
pub const NONE: u8 = 255;

/// Slot of Black's king in [`Compact::sq`].
pub const BK: usize = 0;
/// Slot of White's king.
pub const WK: usize = 1;
/// Slot of Black's silver.
pub const BS: usize = 2;
/// Slot of Black's copper.
pub const BC: usize = 3;
/// Slot of Black's soldier (promoted or not).
pub const BI: usize = 4;
/// Slot of White's silver.
pub const WS: usize = 5;
/// Slot of White's copper.
pub const WC: usize = 6;
/// Slot of White's soldier (promoted or not).
pub const WI: usize = 7;

/// Number of countdown codes: none, then Black's countdown with 0..=5 moves left, then
/// White's.
pub const CD_CODES: usize = 13;
/// Number of material classes: per side silver (absent, present) x copper (absent, present)
/// x soldier (absent, unpromoted, promoted), for both sides.
pub const CLASSES: usize = 144;

/// A position reduced to where each of its eight pieces stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Compact {
    /// Square index of each slot ([`BK`] .. [`WI`]), or [`NONE`] for a captured piece.
    pub sq: [u8; 8],
    /// Bit 0: Black's soldier is promoted; bit 1: White's soldier is promoted. Only
    /// meaningful while that soldier is on the board.
    pub promo: u8,
    /// Countdown code: 0 for none, `1 + k` for Black's countdown with `k` moves left,
    /// `7 + k` for White's.
    pub cd: u8,
    /// Side to move.
    pub side: Color,
}

/// Encodes a countdown as a code (see [`Compact::cd`]).
pub fn cd_code(cd: Option<Countdown>) -> u8 {
    match cd {
        None => 0,
        Some(c) => {
            let base = if c.side == Color::Black { 1 } else { 7 };
            base + c.moves_left.min(5)
        }
    }
}

/// Decodes a countdown code.
pub fn cd_decode(code: u8) -> Option<Countdown> {
    match code {
        0 => None,
        1..=6 => Some(Countdown {
            side: Color::Black,
            moves_left: code - 1,
        }),
        _ => Some(Countdown {
            side: Color::White,
            moves_left: code - 7,
        }),
    }
}

/// Swaps the sides of a countdown code.
fn cd_swap(code: u8) -> u8 {
    match code {
        0 => 0,
        1..=6 => code + 6,
        _ => code - 6,
    }
}

impl Compact {
    /// The compact form of a position. Positions of Kinzoku always fit.
    pub fn from_position(pos: &Position<Kinzoku>) -> Compact {
        let mut c = Compact {
            sq: [NONE; 8],
            promo: 0,
            cd: cd_code(pos.extra()),
            side: pos.side_to_move(),
        };
        for s in 0..SQUARES {
            let Some(p) = pos.piece_at(Square(s)) else {
                continue;
            };
            let base = if p.color == Color::Black { 0 } else { 1 };
            let slot = match p.kind {
                KING => base,
                SILVER => BS + 3 * base,
                COPPER => BC + 3 * base,
                _ => {
                    if p.kind == GOLD {
                        c.promo |= 1 << base;
                    }
                    BI + 3 * base
                }
            };
            c.sq[slot] = s;
        }
        c
    }

    /// The raw setup of this compact position (ply 1).
    pub fn to_setup(&self) -> Setup<Kinzoku> {
        let mut s = Setup::<Kinzoku>::empty();
        s.side = self.side;
        s.extra = cd_decode(self.cd);
        for (slot, &sq) in self.sq.iter().enumerate() {
            if sq == NONE {
                continue;
            }
            let color = if slot == WK || slot >= WS {
                Color::White
            } else {
                Color::Black
            };
            let kind = match slot {
                BK | WK => KING,
                BS | WS => SILVER,
                BC | WC => COPPER,
                _ => {
                    let bit = if slot == BI { 1 } else { 2 };
                    if self.promo & bit != 0 {
                        GOLD
                    } else {
                        SOLDIER
                    }
                }
            };
            s.board[sq as usize] = Some(Piece::new(color, kind));
        }
        s
    }

    /// The same game seen from the other side: colours swapped and the board turned by 180
    /// degrees. It has the same value for the side to move.
    pub fn flip(&self) -> Compact {
        let mut out = Compact {
            sq: [NONE; 8],
            promo: ((self.promo & 1) << 1) | ((self.promo >> 1) & 1),
            cd: cd_swap(self.cd),
            side: !self.side,
        };
        const PAIR: [usize; 8] = [WK, BK, WS, WC, WI, BS, BC, BI];
        for (slot, &sq) in self.sq.iter().enumerate() {
            out.sq[PAIR[slot]] = if sq == NONE { NONE } else { SQUARES - 1 - sq };
        }
        out
    }

    /// The mirror image: files 1 and 3 swapped.
    pub fn mirror(&self) -> Compact {
        let mut out = *self;
        for sq in out.sq.iter_mut() {
            if *sq != NONE {
                *sq = *sq + 2 - 2 * (*sq % 3);
            }
        }
        out
    }

    /// Whether this is the stored one of itself and its mirror image: its squares, slot by
    /// slot, are not greater than the mirror image's. The Black king then stands on file 3
    /// or 2 (square index `3 * rank` or `3 * rank + 1`).
    #[inline]
    pub fn is_canonical(&self) -> bool {
        self.sq <= self.mirror().sq
    }

    /// The stored one of this position and its mirror image.
    #[inline]
    pub fn canonical(&self) -> Compact {
        let m = self.mirror();
        if m.sq < self.sq {
            m
        } else {
            *self
        }
    }

    /// This position with Black to move: itself, or its [`Compact::flip`].
    pub fn normalized(&self) -> Compact {
        if self.side == Color::Black {
            *self
        } else {
            self.flip()
        }
    }

    /// The material class, 0..[`CLASSES`].
    #[inline]
    pub fn class(&self) -> usize {
        let side = |s: usize, i: usize, bit: u8| -> usize {
            let silver = (self.sq[s] != NONE) as usize;
            let copper = (self.sq[s + 1] != NONE) as usize;
            let soldier = if self.sq[i] == NONE {
                0
            } else if self.promo & bit != 0 {
                2
            } else {
                1
            };
            (silver * 2 + copper) * 3 + soldier
        };
        side(BS, BI, 1) * 12 + side(WS, WI, 2)
    }

    /// Number of non-king pieces on the board.
    pub fn piece_count(&self) -> usize {
        self.sq[2..].iter().filter(|&&s| s != NONE).count()
    }
}

/// Non-king pieces of a class.
pub fn class_pieces(class: usize) -> usize {
    let side = |c: usize| (c / 6) + ((c / 3) % 2) + (c % 3 != 0) as usize;
    side(class / 12) + side(class % 12)
}

fn bare(class_side: usize) -> bool {
    class_side == 0
}

/// Squares the Black king may stand on in a stored position (files 3 and 2).
pub const KING_SQUARES: u64 = 10;

/// Number of arrangements of `m` distinct pieces on the 15 squares, the first of them (the
/// Black king) on one of the [`KING_SQUARES`] squares of files 3 and 2.
pub const fn arrangements(m: usize) -> u64 {
    let mut n = KING_SQUARES;
    let mut i = 1;
    while i < m {
        n *= (SQUARES as u64) - i as u64;
        i += 1;
    }
    n
}

/// Which positions a table covers, and where each class starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KinzokuIndex {
    max_pieces: usize,
    /// `offset[class * CD_CODES + cd]`, or `u64::MAX` when the pair is not covered.
    offset: Vec<u64>,
    /// The covered blocks in index order: `(start, class, cd)`.
    starts: Vec<(u64, u16, u8)>,
    len: u64,
}

/// Version of the index scheme; stored in database files.
pub const LAYOUT_VERSION: u32 = 2;

impl KinzokuIndex {
    /// The layout of every position with at most `max_pieces` non-king pieces (6 is the
    /// whole game). A smaller layout is closed under moves: a move never adds a piece.
    pub fn new(max_pieces: usize) -> KinzokuIndex {
        let mut offset = vec![u64::MAX; CLASSES * CD_CODES];
        let mut starts = Vec::new();
        let mut len = 0u64;
        for class in 0..CLASSES {
            let n = class_pieces(class);
            if n > max_pieces {
                continue;
            }
            for cd in 0..CD_CODES as u8 {
                if !Self::cd_allowed(class, cd) {
                    continue;
                }
                offset[class * CD_CODES + cd as usize] = len;
                starts.push((len, class as u16, cd));
                len += arrangements(2 + n);
            }
        }
        KinzokuIndex {
            max_pieces,
            offset,
            starts,
            len,
        }
    }

    /// The whole game.
    pub fn full() -> KinzokuIndex {
        KinzokuIndex::new(6)
    }

    /// Whether a class and countdown code can go together with Black to move: a countdown
    /// needs the other side bare, and Black's own expired countdown cannot be Black's turn.
    fn cd_allowed(class: usize, cd: u8) -> bool {
        match cd {
            0 => true,
            1 => false,
            2..=6 => bare(class % 12),
            _ => bare(class / 12),
        }
    }

    /// Largest number of non-king pieces covered.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// Number of entries.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the layout is empty (never).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The entry of a canonical position with Black to move ([`Compact::normalized`], then
    /// [`Compact::canonical`]), or `None` if the layout does not cover its class and
    /// countdown.
    #[inline]
    pub fn index(&self, c: &Compact) -> Option<u64> {
        debug_assert_eq!(c.side, Color::Black);
        debug_assert!(c.is_canonical());
        let base = self.offset[c.class() * CD_CODES + c.cd as usize];
        if base == u64::MAX {
            return None;
        }
        // The Black king: rank * 2 + file index (0 or 1), of KING_SQUARES. Then the other
        // pieces, each numbered among the squares still free, with radices 14, 13, ...
        // (Horner's rule: the first piece is the most significant digit.)
        let k = c.sq[0];
        let mut idx = ((k / 3) * 2 + k % 3) as u64;
        let mut used = 1u32 << k;
        let mut radix = SQUARES as u64 - 1;
        for &sq in &c.sq[1..] {
            if sq == NONE {
                continue;
            }
            let digit = sq as u32 - (used & ((1u32 << sq) - 1)).count_ones();
            idx = idx * radix + digit as u64;
            radix -= 1;
            used |= 1 << sq;
        }
        Some(base + idx)
    }

    /// The position of a canonical position's entry, turned into a key that is the same for
    /// a position and its mirror image: the entry of [`Compact::canonical`] of the
    /// normalised position.
    #[inline]
    pub fn index_any(&self, c: &Compact) -> Option<u64> {
        self.index(&c.normalized().canonical())
    }

    /// The position (Black to move) of an entry.
    pub fn decode(&self, index: u64) -> Compact {
        // The class and countdown: the last block starting at or before `index`.
        let at = self.starts.partition_point(|s| s.0 <= index) - 1;
        let (base, class, cd) = self.starts[at];
        let class = class as usize;
        let mut c = Compact {
            sq: [NONE; 8],
            promo: 0,
            cd,
            side: Color::Black,
        };
        let (b, w) = (class / 12, class % 12);
        let mut present = [true, true, false, false, false, false, false, false];
        present[BS] = b / 6 == 1;
        present[BC] = (b / 3) % 2 == 1;
        present[BI] = b % 3 != 0;
        present[WS] = w / 6 == 1;
        present[WC] = (w / 3) % 2 == 1;
        present[WI] = w % 3 != 0;
        if b % 3 == 2 {
            c.promo |= 1;
        }
        if w % 3 == 2 {
            c.promo |= 2;
        }
        let m = present.iter().filter(|&&p| p).count();
        // Fits 32 bits: a class has at most 10 * 14!/7! arrangements.
        let mut rest = (index - base) as u32;
        let mut digits = [0u8; 8];
        for j in (1..m).rev() {
            let radix = SQUARES as u32 - j as u32;
            digits[j] = (rest % radix) as u8;
            rest /= radix;
        }
        let k = rest as u8;
        let king = (k / 2) * 3 + k % 2;
        c.sq[0] = king;
        let mut used = 1u32 << king;
        let mut j = 1;
        for (slot, &here) in present.iter().enumerate().skip(1) {
            if !here {
                continue;
            }
            // The digits[j]-th free square: clear the lowest free bits one by one.
            let mut free = !used & 0x7FFF;
            for _ in 0..digits[j] {
                free &= free - 1;
            }
            let sq = free.trailing_zeros() as u8;
            c.sq[slot] = sq;
            used |= 1 << sq;
            j += 1;
        }
        c
    }

    /// Start of each covered (class, countdown) block, for iterating in order: `(start,
    /// len, class, cd)`.
    pub fn blocks(&self) -> Vec<(u64, u64, usize, u8)> {
        self.starts
            .iter()
            .map(|&(o, class, cd)| {
                let class = class as usize;
                (o, arrangements(2 + class_pieces(class)), class, cd)
            })
            .collect()
    }
}

/// Whether the side not to move (White) is attacked, or a soldier stands on its farthest
/// rank: the commonest reasons an arrangement is illegal, found without building a
/// position. [`Position::from_setup`] decides the rest (and agrees on these: the Bellman
/// check in [`crate::generic::bellman_all`] compares every entry with it).
#[inline]
pub fn quickly_illegal(c: &Compact) -> bool {
    let t = Kinzoku::tables();
    let wk = c.sq[WK];
    let black = Color::Black.index();
    for (slot, kind) in [(BK, KING), (BS, SILVER), (BC, COPPER)] {
        let s = c.sq[slot];
        if s != NONE && t.step[black][kind.index()][s as usize].0 & bb(wk) != 0 {
            return true;
        }
    }
    let s = c.sq[BI];
    if s != NONE {
        let kind = if c.promo & 1 != 0 { GOLD } else { SOLDIER };
        if t.step[black][kind.index()][s as usize].0 & bb(wk) != 0 {
            return true;
        }
        if kind == SOLDIER && t.farthest_rank[black].0 & bb(s) != 0 {
            return true;
        }
    }
    let s = c.sq[WI];
    s != NONE && c.promo & 2 == 0 && t.farthest_rank[Color::White.index()].0 & bb(s) != 0
}

/// Whether a king stands on its farthest rank (the game is over).
#[inline]
pub fn entered(c: &Compact) -> bool {
    let t = Kinzoku::tables();
    t.farthest_rank[Color::Black.index()].0 & bb(c.sq[BK]) != 0
        || t.farthest_rank[Color::White.index()].0 & bb(c.sq[WK]) != 0
}

fn bb(sq: u8) -> u64 {
    1u64 << sq
}

/// Calls `f` with every position, Black to move, from which a Black move leads to `r`
/// (White to move). Each (position, move) pair is produced once.
///
/// Positions that turn out illegal or already over are produced too; the caller skips
/// them, as their entries are marked. What this must get right is the set of pieces that
/// can have moved, from where, what they may have captured, and the countdown before the
/// move.
pub fn predecessors(r: &Compact, mut f: impl FnMut(&Compact)) {
    debug_assert_eq!(r.side, Color::White);
    let t = Kinzoku::tables();
    let occ: u64 =
        r.sq.iter()
            .filter(|&&s| s != NONE)
            .fold(0u64, |a, &s| a | bb(s));
    let black_far = t.farthest_rank[Color::Black.index()].0;
    let white_far = t.farthest_rank[Color::White.index()].0;
    let white_bare = r.sq[WS] == NONE && r.sq[WC] == NONE && r.sq[WI] == NONE;
    // Countdown before the move, and whether the move may (or must) have captured.
    // `None` in the first place: no predecessor at all.
    let (cd_before, captures, must_capture): (u8, bool, bool) = match r.cd {
        0 => (0, !white_bare, false),
        // Black's countdown with k moves left: Black has just played a move of it.
        6 => (0, true, true), // k = 5: the capture that bared White started it
        1..=5 => (r.cd + 1, false, false),
        // White's countdown: Black is the lone king; its moves do not count.
        _ => (r.cd, true, false),
    };
    // The White pieces Black may have captured: (slot, promoted).
    let mut victims: [(usize, bool); 4] = [(0, false); 4];
    let mut nv = 0;
    if captures {
        if r.sq[WS] == NONE {
            victims[nv] = (WS, false);
            nv += 1;
        }
        if r.sq[WC] == NONE {
            victims[nv] = (WC, false);
            nv += 1;
        }
        if r.sq[WI] == NONE {
            victims[nv] = (WI, false);
            nv += 1;
            victims[nv] = (WI, true);
            nv += 1;
        }
    }
    for slot in [BK, BS, BC, BI] {
        let to = r.sq[slot];
        if to == NONE {
            continue;
        }
        let promoted = slot == BI && r.promo & 1 != 0;
        let kind: Kind = match slot {
            BK => KING,
            BS => SILVER,
            BC => COPPER,
            _ => {
                if promoted {
                    GOLD
                } else {
                    SOLDIER
                }
            }
        };
        // (origin squares, promotion bit of the piece before the move)
        let mut sources: [(u64, bool); 2] = [(0, promoted); 2];
        sources[0] = (
            t.step[Color::White.index()][kind.index()][to as usize].0 & !occ,
            promoted,
        );
        if kind == GOLD && black_far & bb(to) != 0 {
            // A soldier that promoted on arriving here, from off the farthest rank.
            sources[1] = (
                t.step[Color::White.index()][SOLDIER.index()][to as usize].0 & !occ & !black_far,
                false,
            );
        }
        for &(froms, promo_before) in &sources {
            let mut froms = froms;
            while froms != 0 {
                let from = froms.trailing_zeros() as u8;
                froms &= froms - 1;
                let mut q = *r;
                q.side = Color::Black;
                q.cd = cd_before;
                q.sq[slot] = from;
                if slot == BI {
                    q.promo = (q.promo & !1) | promo_before as u8;
                }
                if !must_capture {
                    f(&q);
                }
                for &(vslot, vpromo) in &victims[..nv] {
                    if vslot == WI && !vpromo && white_far & bb(to) != 0 {
                        // An unpromoted White soldier cannot stand on its farthest rank.
                        continue;
                    }
                    let mut qc = q;
                    qc.sq[vslot] = to;
                    if vslot == WI {
                        qc.promo = (qc.promo & !2) | ((vpromo as u8) << 1);
                    }
                    f(&qc);
                }
            }
        }
    }
}

/// Kinzoku for the generic solver ([`crate::generic`]): the scope is the most pieces
/// besides the kings, and the un-moves are [`predecessors`].
impl crate::generic::Indexed for KinzokuIndex {
    type V = Kinzoku;
    type Compact = Compact;

    const SCHEME: u32 = LAYOUT_VERSION;

    fn full() -> KinzokuIndex {
        KinzokuIndex::new(6)
    }

    fn scope(&self) -> u32 {
        self.max_pieces as u32
    }

    fn with_scope(scope: u32) -> Option<KinzokuIndex> {
        (1..=6)
            .contains(&scope)
            .then(|| KinzokuIndex::new(scope as usize))
    }

    fn sub_game(text: &str) -> Result<KinzokuIndex, crate::generic::SubGameError> {
        match text.trim().parse::<u32>() {
            Ok(n @ 1..=6) => Ok(KinzokuIndex::new(n as usize)),
            _ => Err(crate::generic::SubGameError::new(format!(
                "`{text}` is not a Kinzoku sub-game: give the most pieces besides the kings, \
                 1 to 6"
            ))),
        }
    }

    fn coverage(&self) -> String {
        match self.max_pieces {
            6 => "every position of the game".to_string(),
            1 => "positions with at most 1 piece besides the kings".to_string(),
            n => format!("positions with at most {n} pieces besides the kings"),
        }
    }

    fn len(&self) -> u64 {
        KinzokuIndex::len(self)
    }

    fn decode(&self, index: u64) -> Compact {
        KinzokuIndex::decode(self, index)
    }

    fn index(&self, c: &Compact) -> Option<u64> {
        KinzokuIndex::index(self, c)
    }

    fn compact_of(&self, pos: &Position<Kinzoku>) -> Compact {
        Compact::from_position(pos)
    }

    fn to_setup(&self, c: &Compact) -> Setup<Kinzoku> {
        c.to_setup()
    }

    fn flip(&self, c: &Compact) -> Compact {
        c.flip()
    }

    fn canonical(&self, c: &Compact) -> Compact {
        c.canonical()
    }

    fn mirror(&self, c: &Compact) -> Compact {
        c.mirror()
    }

    fn side(&self, c: &Compact) -> Color {
        c.side
    }

    #[inline]
    fn rejected(&self, c: &Compact) -> bool {
        quickly_illegal(c)
    }

    #[inline]
    fn skip(&self, c: &Compact) -> bool {
        quickly_illegal(c) || entered(c)
    }

    fn predecessors(&self, r: &Compact, f: impl FnMut(&Compact)) {
        predecessors(r, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reverse_steps_are_the_other_colours_steps() {
        let t = Kinzoku::tables();
        for k in 0..5 {
            for from in 0..15usize {
                for to in 0..15usize {
                    let fwd = t.step[0][k][from].0 & (1 << to) != 0;
                    let rev = t.step[1][k][to].0 & (1 << from) != 0;
                    assert_eq!(fwd, rev, "kind {k} {from}->{to}");
                }
            }
        }
    }

    #[test]
    fn sizes() {
        // Per class: 15P(2 + n) arrangements, two thirds of them with the Black king on
        // files 3 and 2; classes by n: 1, 8, 26, 44, 41, 20, 4.
        let no_cd: u64 = [1u64, 8, 26, 44, 41, 20, 4]
            .iter()
            .enumerate()
            .map(|(n, &k)| k * arrangements(2 + n))
            .sum();
        assert_eq!(no_cd * 3, 1_850_962_050 * 2);
        let full = KinzokuIndex::full();
        assert!(full.len() > no_cd);
        assert!(full.len() < u32::MAX as u64);
    }

    #[test]
    fn decode_inverts_index_on_small_layout() {
        let l = KinzokuIndex::new(2);
        let mut canonical = 0;
        for i in 0..l.len() {
            let c = l.decode(i);
            assert!(c.sq[0] % 3 != 2);
            if c.is_canonical() {
                canonical += 1;
                assert_eq!(l.index(&c), Some(i), "{c:?}");
                assert_eq!(c.mirror().canonical(), c);
            } else {
                // Only a king on file 2 leaves a choice; the other one is stored.
                assert_eq!(c.sq[0] % 3, 1);
                assert!(c.mirror().is_canonical());
            }
        }
        assert!(canonical > l.len() * 7 / 10, "{canonical} of {}", l.len());
    }

    #[test]
    fn decode_inverts_index_on_samples_of_full_layout() {
        let l = KinzokuIndex::full();
        let mut rng = kshogi_core::rng::SplitMix64::new(0x1234_5678_9abc_def0);
        for _ in 0..200_000 {
            let i = rng.next_u64() % l.len();
            let c = l.decode(i);
            assert_eq!(l.index_any(&c), l.index_any(&c.mirror()));
            if c.is_canonical() {
                assert_eq!(l.index(&c), Some(i), "{c:?}");
            }
        }
        let last = l.decode(l.len() - 1);
        assert!(l.index_any(&last).unwrap() < l.len());
        assert_eq!(l.index(&last.canonical()), l.index_any(&last));
    }

    #[test]
    fn start_position_round_trips() {
        let pos = Position::<Kinzoku>::start();
        let c = Compact::from_position(&pos);
        let setup = c.to_setup();
        let back = Position::from_setup(&setup).unwrap();
        assert_eq!(back.hash(), pos.hash());
        assert_eq!(c.flip().flip(), c);
        let f = Position::from_setup(&c.flip().to_setup()).unwrap();
        // The start is symmetric under the colour swap and rotation, but for the side to move.
        assert_eq!(f.side_to_move(), Color::White);
        assert_eq!(class_pieces(c.class()), 6);
    }
}
