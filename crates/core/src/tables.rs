//! Precomputed attack, ray and hash tables, built at compile time from a variant's pieces.

use crate::piece::{PieceDef, MAX_KINDS, MAX_SLOTS};
use crate::rng::SplitMix64;
use crate::{Bitboard, Color, Geometry, Kind, Square};

/// The number of hash keys per hand slot: hand counts from 0 to `MAX_HAND_COUNT - 1` are
/// possible (Tori Shogi's sixteen swallows can all be in one hand).
pub const MAX_HAND_COUNT: usize = 32;

/// Hand counts below this drew their hash keys first, in the order of earlier versions, so
/// that raising [`MAX_HAND_COUNT`] changed no existing key (and no search).
const FIRST_HAND_KEYS: usize = 16;

/// The most squares of one line, other than its two ends and the slider's own square, whose
/// occupancy indexes [`Tables::line_table`]. The boards of up to seven files and ranks
/// are looked up (the tests check which); a board where some line is longer than eight
/// squares, or where one multiplication cannot gather a line's squares (eight by eight),
/// walks rays instead.
const LINE_BITS: u32 = 6;

/// Entries per square and line of [`Tables::line_table`].
pub const LINE_INDEXES: usize = 1 << LINE_BITS;

/// Absolute directions as (file delta, rank delta); `d ^ 1` is the opposite of `d`, and
/// `d / 2` is the line the direction lies on (file, rank, and the two diagonals).
pub const DIRS: [(i8, i8); 8] = [
    (0, -1),
    (0, 1),
    (1, 0),
    (-1, 0),
    (1, -1),
    (-1, 1),
    (-1, -1),
    (1, 1),
];

/// The tables one variant's move generator reads. Build them with [`Tables::build`] in a
/// `static`, so that they exist once per variant and cost nothing at run time.
#[derive(Debug)]
pub struct Tables {
    /// The board shape.
    pub geometry: Geometry,
    /// All squares of the board.
    pub board: Bitboard,
    /// Number of piece kinds.
    pub kinds: usize,
    /// Number of hand slots.
    pub slots: usize,
    /// The royal kind.
    pub king: Kind,
    /// Step attacks `[color][kind][square]`.
    pub step: [[[Bitboard; 64]; MAX_KINDS]; 2],
    /// Slide directions `[color][kind]` as a bit mask over [`DIRS`].
    pub slide_dirs: [[u8; MAX_KINDS]; 2],
    /// Kinds (bit mask) that slide in direction `d`: `[color][d]`.
    pub sliders_in_dir: [[u16; 8]; 2],
    /// Kinds (bit mask) with any step.
    pub steppers: u16,
    /// Kinds (bit mask) with any slide (of unlimited range).
    pub sliders: u16,
    /// Ranged-slide directions `[color][kind]` as a bit mask over [`DIRS`] (see
    /// [`crate::Movement::ranged`]).
    pub ranged_dirs: [[u8; MAX_KINDS]; 2],
    /// The squares the ranged slides of `[color][kind]` reach from `[square]` on an empty
    /// board.
    pub ranged_reach: [[[Bitboard; 64]; MAX_KINDS]; 2],
    /// Kinds (bit mask) with any ranged slide.
    pub rangers: u16,
    /// Rays `[dir][square]`: squares from (excluding) the square to the edge.
    pub rays: [[Bitboard; 64]; 8],
    /// Whether index increases along the direction.
    pub positive: [bool; 8],
    /// Whether slides are looked up by the occupancy of their line ([`Tables::line_table`])
    /// rather than walked ray by ray: true unless a line of the board is too long for it.
    pub line_lookup: bool,
    /// The squares of each line (`[square][line]`, line `d / 2` of direction `d`) whose
    /// occupancy decides what a slider on the square attacks along it: the line's squares
    /// other than its two ends and the square itself.
    pub line_mask: [[Bitboard; 4]; 64],
    /// Multipliers `[square][line]` that gather the squares of [`Tables::line_mask`] into
    /// the top bits of a product, bit `i` for the `i`-th lowest square (and perhaps other bits
    /// above, which the table allows for: verified for every occupancy when it is built).
    pub line_magic: [[u64; 4]; 64],
    /// The squares a slider on `[square]` attacks along `[line]`, both ways, up to and
    /// including the first occupied square each way, `[index]`ed by the gathered occupancy.
    pub line_table: [[[Bitboard; LINE_INDEXES]; 4]; 64],
    /// The lines `[color][kind]` slides on (bit mask over lines), for [`Tables::line_table`].
    pub slide_lines: [[u8; MAX_KINDS]; 2],
    /// The squares the slides of `[color][kind]` reach from `[square]` on an empty board:
    /// its lines' attacks, masked by this, are its slides (one way only, for a lance).
    pub slide_reach: [[[Bitboard; 64]; MAX_KINDS]; 2],
    /// The lines `[color][kind]` has ranged slides on (bit mask over lines).
    pub ranged_lines: [[u8; MAX_KINDS]; 2],
    /// Squares strictly between two aligned squares (empty if not aligned).
    pub between: [[Bitboard; 64]; 64],
    /// The whole line through two aligned squares (empty if not aligned).
    pub line: [[Bitboard; 64]; 64],
    /// The direction (index into [`DIRS`]) from the first square toward the second, or 8 when
    /// they are not aligned.
    pub direction: [[u8; 64]; 64],
    /// The faces a hand slot can be dropped as, `[slot][i]` for `i < slot_faces_len[slot]`.
    pub slot_faces: [[Kind; 2]; MAX_SLOTS],
    /// Number of faces per slot.
    pub slot_faces_len: [u8; MAX_SLOTS],
    /// The rank farthest from each color (`[color]`), as a mask.
    pub farthest_rank: [Bitboard; 2],
    /// Squares from which a piece of `[color][kind]` could never move again, even on an
    /// empty board (a pawn on its farthest rank).
    pub dead: [[Bitboard; MAX_KINDS]; 2],
    /// The file of each square, as a mask (`[square]`).
    pub file: [Bitboard; 64],
    /// Zobrist keys for pieces `[color][kind][square]`.
    pub z_piece: [[[u64; 64]; MAX_KINDS]; 2],
    /// Zobrist keys for hand counts `[color][slot][count]` (count 0 has key 0).
    pub z_hand: [[[u64; MAX_HAND_COUNT]; MAX_SLOTS]; 2],
    /// Zobrist key for White to move.
    pub z_side: u64,
    /// Spare keys for variant state (see [`crate::Variant::extra_hash`]).
    pub z_extra: [u64; 32],
}

const fn offset(g: Geometry, sq: usize, df: i32, dr: i32) -> Option<usize> {
    let w = g.width as i32;
    let h = g.height as i32;
    let f = (sq as i32) % w + df;
    let r = (sq as i32) / w + dr;
    if f < 0 || f >= w || r < 0 || r >= h {
        None
    } else {
        Some((r * w + f) as usize)
    }
}

const fn absolute(color: usize, dx: i8, dy: i8) -> (i32, i32) {
    if color == 0 {
        (dx as i32, -(dy as i32))
    } else {
        (-(dx as i32), dy as i32)
    }
}

const fn dir_index(df: i32, dr: i32) -> usize {
    let mut d = 0;
    while d < 8 {
        if DIRS[d].0 as i32 == df && DIRS[d].1 as i32 == dr {
            return d;
        }
        d += 1;
    }
    panic!("slides must be unit directions");
}

/// Fills the line lookups of `t` (whose rays are built) for a board of `n` squares; false
/// when some line cannot be looked up (too long, or its squares cannot be gathered by one
/// multiplication), and then the slides walk rays.
const fn build_lines(t: &mut Tables, n: usize) -> bool {
    let mut s = 0;
    while s < n {
        let mut l = 0;
        while l < 4 {
            // The line's squares other than its ends and `s`: each ray without its last square.
            let mut mask = 0u64;
            let mut side = 0;
            while side < 2 {
                let ray = t.rays[2 * l + side][s].0;
                let end = if t.positive[2 * l + side] {
                    if ray == 0 {
                        0
                    } else {
                        1u64 << (63 - ray.leading_zeros())
                    }
                } else {
                    ray & ray.wrapping_neg()
                };
                mask |= ray & !end;
                side += 1;
            }
            let k = mask.count_ones();
            if k > LINE_BITS {
                return false;
            }
            // Bit `i` (the `i`-th lowest square, on square p) goes to bit 64 - LINE_BITS + i.
            let mut magic = 0u64;
            let mut rest = mask;
            let mut i = 0;
            while rest != 0 {
                let p = rest.trailing_zeros();
                rest &= rest - 1;
                if p > 64 - LINE_BITS + i {
                    return false;
                }
                magic |= 1u64 << (64 - LINE_BITS + i - p);
                i += 1;
            }
            t.line_mask[s][l] = Bitboard(mask);
            t.line_magic[s][l] = magic;
            // Every occupancy of the mask: record its attacks under the index the product
            // gives. Products of other squares' bits may add higher bits to an index (as in
            // magic bitboards), which is harmless as long as no two occupancies with different
            // attacks share an index.
            let mut filled = [false; LINE_INDEXES];
            let mut subset = 0u64;
            while subset < 1 << k {
                let mut occ = 0u64;
                let mut rest = mask;
                let mut i = 0;
                while rest != 0 {
                    let bit = rest & rest.wrapping_neg();
                    rest &= rest - 1;
                    if subset & (1 << i) != 0 {
                        occ |= bit;
                    }
                    i += 1;
                }
                let index = (occ.wrapping_mul(magic) >> (64 - LINE_BITS)) as usize;
                let mut att = 0u64;
                let mut side = 0;
                while side < 2 {
                    let d = 2 * l + side;
                    let mut cur = s;
                    while let Some(next) =
                        offset(t.geometry, cur, DIRS[d].0 as i32, DIRS[d].1 as i32)
                    {
                        att |= 1u64 << next;
                        if occ & (1u64 << next) != 0 {
                            break;
                        }
                        cur = next;
                    }
                    side += 1;
                }
                if filled[index] && t.line_table[s][l][index].0 != att {
                    return false;
                }
                filled[index] = true;
                t.line_table[s][l][index] = Bitboard(att);
                subset += 1;
            }
            l += 1;
        }
        s += 1;
    }
    true
}

impl Tables {
    /// Builds the tables for a board and a piece table. Meant for `static` initialisers;
    /// `seed` varies the hash keys between variants.
    pub const fn build(geometry: Geometry, pieces: &[PieceDef], seed: u64) -> Tables {
        assert!(pieces.len() <= MAX_KINDS, "too many piece kinds");
        let n = geometry.squares();
        let mut t = Tables {
            geometry,
            board: Bitboard::first(n),
            kinds: pieces.len(),
            slots: 0,
            king: Kind(0),
            step: [[[Bitboard::EMPTY; 64]; MAX_KINDS]; 2],
            slide_dirs: [[0; MAX_KINDS]; 2],
            sliders_in_dir: [[0; 8]; 2],
            steppers: 0,
            sliders: 0,
            ranged_dirs: [[0; MAX_KINDS]; 2],
            ranged_reach: [[[Bitboard::EMPTY; 64]; MAX_KINDS]; 2],
            rangers: 0,
            rays: [[Bitboard::EMPTY; 64]; 8],
            positive: [false; 8],
            line_lookup: true,
            line_mask: [[Bitboard::EMPTY; 4]; 64],
            line_magic: [[0; 4]; 64],
            line_table: [[[Bitboard::EMPTY; LINE_INDEXES]; 4]; 64],
            slide_lines: [[0; MAX_KINDS]; 2],
            slide_reach: [[[Bitboard::EMPTY; 64]; MAX_KINDS]; 2],
            ranged_lines: [[0; MAX_KINDS]; 2],
            between: [[Bitboard::EMPTY; 64]; 64],
            line: [[Bitboard::EMPTY; 64]; 64],
            direction: [[8; 64]; 64],
            slot_faces: [[Kind(0); 2]; MAX_SLOTS],
            slot_faces_len: [0; MAX_SLOTS],
            farthest_rank: [Bitboard::EMPTY; 2],
            dead: [[Bitboard::EMPTY; MAX_KINDS]; 2],
            file: [Bitboard::EMPTY; 64],
            z_piece: [[[0; 64]; MAX_KINDS]; 2],
            z_hand: [[[0; MAX_HAND_COUNT]; MAX_SLOTS]; 2],
            z_side: 0,
            z_extra: [0; 32],
        };
        let w = geometry.width as i32;

        // Rays, directions.
        let mut d = 0;
        while d < 8 {
            t.positive[d] = DIRS[d].1 as i32 * w + DIRS[d].0 as i32 > 0;
            let mut s = 0;
            while s < n {
                let mut bb = 0u64;
                let mut cur = s;
                while let Some(next) = offset(geometry, cur, DIRS[d].0 as i32, DIRS[d].1 as i32) {
                    bb |= 1u64 << next;
                    cur = next;
                }
                t.rays[d][s] = Bitboard(bb);
                s += 1;
            }
            d += 1;
        }
        // Line lookups.
        t.line_lookup = build_lines(&mut t, n);
        // Between and line.
        let mut a = 0;
        while a < n {
            let mut d = 0;
            while d < 8 {
                let mut between = 0u64;
                let mut cur = a;
                while let Some(next) = offset(geometry, cur, DIRS[d].0 as i32, DIRS[d].1 as i32) {
                    t.between[a][next] = Bitboard(between);
                    t.direction[a][next] = d as u8;
                    t.line[a][next] = Bitboard(t.rays[d][a].0 | t.rays[d ^ 1][a].0 | (1u64 << a));
                    between |= 1u64 << next;
                    cur = next;
                }
                d += 1;
            }
            a += 1;
        }
        // Pieces.
        let mut k = 0;
        while k < pieces.len() {
            let def = &pieces[k];
            if def.royal {
                t.king = Kind(k as u8);
            }
            if let Some(slot) = def.hand_slot {
                let slot = slot as usize;
                assert!(slot < MAX_SLOTS, "hand slot out of range");
                let len = t.slot_faces_len[slot] as usize;
                assert!(len < 2, "at most two faces per hand slot");
                t.slot_faces[slot][len] = Kind(k as u8);
                t.slot_faces_len[slot] += 1;
                if slot + 1 > t.slots {
                    t.slots = slot + 1;
                }
            }
            if !def.movement.steps.is_empty() {
                t.steppers |= 1 << k;
            }
            if !def.movement.slides.is_empty() {
                t.sliders |= 1 << k;
            }
            if !def.movement.ranged.is_empty() {
                t.rangers |= 1 << k;
            }
            let mut c = 0;
            while c < 2 {
                let mut i = 0;
                while i < def.movement.slides.len() {
                    let (dx, dy) = def.movement.slides[i];
                    let (df, dr) = absolute(c, dx, dy);
                    let d = dir_index(df, dr);
                    t.slide_dirs[c][k] |= 1 << d;
                    t.slide_lines[c][k] |= 1 << (d / 2);
                    t.sliders_in_dir[c][d] |= 1 << k;
                    i += 1;
                }
                let mut i = 0;
                while i < def.movement.ranged.len() {
                    let ((dx, dy), range) = def.movement.ranged[i];
                    let (df, dr) = absolute(c, dx, dy);
                    let d = dir_index(df, dr);
                    assert!(
                        t.slide_dirs[c][k] & (1 << d) == 0,
                        "a direction is a slide or a ranged slide, not both"
                    );
                    t.ranged_dirs[c][k] |= 1 << d;
                    t.ranged_lines[c][k] |= 1 << (d / 2);
                    let mut s = 0;
                    while s < n {
                        let mut cur = s;
                        let mut j = 0;
                        while j < range {
                            match offset(geometry, cur, df, dr) {
                                Some(next) => {
                                    t.ranged_reach[c][k][s].0 |= 1u64 << next;
                                    cur = next;
                                }
                                None => break,
                            }
                            j += 1;
                        }
                        s += 1;
                    }
                    i += 1;
                }
                let mut s = 0;
                while s < n {
                    let mut bb = 0u64;
                    let mut i = 0;
                    while i < def.movement.steps.len() {
                        let (dx, dy) = def.movement.steps[i];
                        let (df, dr) = absolute(c, dx, dy);
                        if let Some(to) = offset(geometry, s, df, dr) {
                            bb |= 1u64 << to;
                        }
                        i += 1;
                    }
                    t.step[c][k][s] = Bitboard(bb);
                    let mut slid = 0u64;
                    let mut i = 0;
                    while i < def.movement.slides.len() {
                        let (dx, dy) = def.movement.slides[i];
                        let (df, dr) = absolute(c, dx, dy);
                        slid |= t.rays[dir_index(df, dr)][s].0;
                        i += 1;
                    }
                    t.slide_reach[c][k][s] = Bitboard(slid);
                    slid |= t.ranged_reach[c][k][s].0;
                    if bb | slid == 0 {
                        t.dead[c][k].0 |= 1u64 << s;
                    }
                    s += 1;
                }
                c += 1;
            }
            k += 1;
        }
        // Files.
        let mut s = 0;
        while s < n {
            let mut o = s % geometry.width as usize;
            while o < n {
                t.file[s].0 |= 1u64 << o;
                o += geometry.width as usize;
            }
            s += 1;
        }
        // Farthest ranks.
        let mut f = 0;
        while f < geometry.width as usize {
            t.farthest_rank[0].0 |= 1u64 << f;
            t.farthest_rank[1].0 |= 1u64 << (n - 1 - f);
            f += 1;
        }
        // Zobrist keys.
        let key_seed = seed ^ 0x6B73_686F_6769_0001;
        // The keys are the generator's outputs in this order, one counter for all.
        let mut drawn = 0;
        let mut c = 0;
        while c < 2 {
            let mut k = 0;
            while k < MAX_KINDS {
                let mut s = 0;
                while s < 64 {
                    t.z_piece[c][k][s] = SplitMix64::nth(key_seed, drawn);
                    drawn += 1;
                    s += 1;
                }
                k += 1;
            }
            let mut slot = 0;
            while slot < MAX_SLOTS {
                let mut cnt = 1;
                while cnt < FIRST_HAND_KEYS {
                    t.z_hand[c][slot][cnt] = SplitMix64::nth(key_seed, drawn);
                    drawn += 1;
                    cnt += 1;
                }
                slot += 1;
            }
            c += 1;
        }
        t.z_side = SplitMix64::nth(key_seed, drawn);
        drawn += 1;
        let mut i = 0;
        while i < 32 {
            t.z_extra[i] = SplitMix64::nth(key_seed, drawn);
            drawn += 1;
            i += 1;
        }
        // The keys of the larger hand counts come last.
        let mut c = 0;
        while c < 2 {
            let mut slot = 0;
            while slot < MAX_SLOTS {
                let mut cnt = FIRST_HAND_KEYS;
                while cnt < MAX_HAND_COUNT {
                    t.z_hand[c][slot][cnt] = SplitMix64::nth(key_seed, drawn);
                    drawn += 1;
                    cnt += 1;
                }
                slot += 1;
            }
            c += 1;
        }
        t
    }

    /// Attacks of a sliding move from `sq` in direction `d`, stopping at (and including) the
    /// first occupied square.
    #[inline(always)]
    pub fn ray_attacks(&self, d: usize, sq: Square, occupied: Bitboard) -> Bitboard {
        let ray = self.rays[d][sq.index()];
        let blockers = ray & occupied;
        let first = if self.positive[d] {
            blockers.lowest()
        } else {
            blockers.highest()
        };
        match first {
            None => ray,
            Some(b) => Bitboard(ray.0 ^ self.rays[d][b.index()].0),
        }
    }

    /// The squares a slider on `sq` attacks along `line` (both ways), given the occupancy:
    /// one multiplication gathers the occupancy of the line into an index of
    /// [`Tables::line_table`]. Only when [`Tables::line_lookup`] holds.
    #[inline(always)]
    pub fn line_attacks(&self, line: usize, sq: Square, occupied: Bitboard) -> Bitboard {
        let (s, line) = (sq.index() % 64, line % 4);
        let gathered =
            (occupied.0 & self.line_mask[s][line].0).wrapping_mul(self.line_magic[s][line]);
        self.line_table[s][line][(gathered >> (64 - LINE_BITS)) as usize]
    }

    /// The squares the slides in the directions `dirs` (a mask over [`DIRS`]) on the lines
    /// `lines` attack from `sq`, given the occupancy; `reach` masks the lines' attacks down
    /// to these directions (and ranges).
    #[inline(always)]
    fn slides(
        &self,
        mut dirs: u8,
        lines: u8,
        reach: Bitboard,
        sq: Square,
        occupied: Bitboard,
    ) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        if self.line_lookup {
            for l in 0..4 {
                if lines & (1 << l) != 0 {
                    bb |= self.line_attacks(l, sq, occupied);
                }
            }
        } else {
            while dirs != 0 {
                let d = dirs.trailing_zeros() as usize;
                dirs &= dirs - 1;
                bb |= self.ray_attacks(d, sq, occupied);
            }
        }
        bb & reach
    }

    /// All squares a piece of `color` and `kind` on `sq` attacks, given the occupancy: its
    /// steps, slides and ranged slides.
    #[inline(always)]
    pub fn attacks(&self, color: Color, kind: Kind, sq: Square, occupied: Bitboard) -> Bitboard {
        self.unranged_attacks(color, kind, sq, occupied)
            | self.ranged_attacks(color, kind, sq, occupied)
    }

    /// The squares a piece of `color` and `kind` on `sq` attacks with its steps and slides,
    /// leaving out its ranged slides (for a variant known to have none).
    #[inline(always)]
    pub fn unranged_attacks(
        &self,
        color: Color,
        kind: Kind,
        sq: Square,
        occupied: Bitboard,
    ) -> Bitboard {
        let (c, k) = (color.index(), kind.index());
        let step = self.step[c][k][sq.index()];
        let lines = self.slide_lines[c][k];
        if lines == 0 {
            return step;
        }
        step | self.slides(
            self.slide_dirs[c][k],
            lines,
            self.slide_reach[c][k][sq.index()],
            sq,
            occupied,
        )
    }

    /// The squares a piece of `color` and `kind` on `sq` attacks with its slides (not its
    /// steps), given the occupancy; its ranged slides too when `ranged`.
    #[inline(always)]
    pub fn slide_attacks(
        &self,
        color: Color,
        kind: Kind,
        sq: Square,
        occupied: Bitboard,
        ranged: bool,
    ) -> Bitboard {
        let (c, k) = (color.index(), kind.index());
        let lines = self.slide_lines[c][k];
        let slides = if lines == 0 {
            Bitboard::EMPTY
        } else {
            self.slides(
                self.slide_dirs[c][k],
                lines,
                self.slide_reach[c][k][sq.index()],
                sq,
                occupied,
            )
        };
        if ranged {
            slides | self.ranged_attacks(color, kind, sq, occupied)
        } else {
            slides
        }
    }

    /// The squares the ranged slides of a piece of `color` and `kind` on `sq` attack, given
    /// the occupancy: each direction's ray up to the first occupied square, cut to the
    /// range.
    #[inline(always)]
    pub fn ranged_attacks(
        &self,
        color: Color,
        kind: Kind,
        sq: Square,
        occupied: Bitboard,
    ) -> Bitboard {
        let (c, k) = (color.index(), kind.index());
        let lines = self.ranged_lines[c][k];
        if lines == 0 {
            return Bitboard::EMPTY;
        }
        self.slides(
            self.ranged_dirs[c][k],
            lines,
            self.ranged_reach[c][k][sq.index()],
            sq,
            occupied,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Movement;

    const DEFS: [PieceDef; 3] = [
        PieceDef::new("king", 'K', '玉', "玉", Movement::KING).royal(),
        PieceDef::new("knight", 'N', '桂', "桂", Movement::KNIGHT).captured_to(0),
        PieceDef::new("rook", 'R', '飛', "飛", Movement::ROOK).captured_to(1),
    ];
    static T: Tables = Tables::build(Geometry::new(5, 5), &DEFS, 1);

    fn sq(name: &str) -> Square {
        T.geometry.parse_square(name).unwrap()
    }
    fn names(bb: Bitboard) -> Vec<String> {
        let mut v: Vec<String> = bb.map(|s| T.geometry.name(s).to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn knight_jumps_forward_for_each_color() {
        // Black knight on 3c jumps to 2a and 4a; White's to 2e and 4e.
        assert_eq!(names(T.step[0][1][sq("3c").index()]), vec!["2a", "4a"]);
        assert_eq!(names(T.step[1][1][sq("3c").index()]), vec!["2e", "4e"]);
        assert_eq!(names(T.step[0][1][sq("3b").index()]), Vec::<String>::new());
    }

    #[test]
    fn rook_stops_at_blockers() {
        let occ = Bitboard::from_square(sq("3a")) | Bitboard::from_square(sq("1c"));
        let a = T.attacks(Color::Black, Kind(2), sq("3c"), occ);
        assert_eq!(
            names(a),
            vec!["1c", "2c", "3a", "3b", "3d", "3e", "4c", "5c"]
        );
    }

    #[test]
    fn between_and_line() {
        assert_eq!(
            names(T.between[sq("1a").index()][sq("4d").index()]),
            vec!["2b", "3c"]
        );
        assert_eq!(
            names(T.between[sq("1a").index()][sq("2c").index()]),
            Vec::<String>::new()
        );
        assert_eq!(T.line[sq("1a").index()][sq("2c").index()], Bitboard::EMPTY);
        assert_eq!(T.line[sq("3a").index()][sq("3c").index()].count(), 5);
    }

    /// Pieces for the slide tests: both ways on lines (rook, bishop), one way (lance), and
    /// ranged slides (two squares forward and diagonally backward, one square sideways).
    const SLIDERS: [PieceDef; 5] = [
        PieceDef::new("king", 'K', '玉', "玉", Movement::KING).royal(),
        PieceDef::new("rook", 'R', '飛', "飛", Movement::ROOK).captured_to(0),
        PieceDef::new("bishop", 'B', '角', "角", Movement::BISHOP).captured_to(1),
        PieceDef::new("lance", 'L', '香', "香", Movement::LANCE).captured_to(2),
        PieceDef::new(
            "ranger",
            'E',
            '鷲',
            "鷲",
            Movement {
                steps: &[],
                slides: &[],
                ranged: &[((0, 1), 2), ((1, -1), 2), ((-1, -1), 2), ((1, 0), 1)],
            },
        )
        .captured_to(3),
    ];
    static T55: Tables = Tables::build(Geometry::new(5, 5), &SLIDERS, 2);
    static T45: Tables = Tables::build(Geometry::new(4, 5), &SLIDERS, 2);
    static T34: Tables = Tables::build(Geometry::new(3, 4), &SLIDERS, 2);
    static T77: Tables = Tables::build(Geometry::new(7, 7), &SLIDERS, 2);
    static T88: Tables = Tables::build(Geometry::new(8, 8), &SLIDERS, 2);
    static T97: Tables = Tables::build(Geometry::new(9, 7), &SLIDERS, 2);
    static T2X20: Tables = Tables::build(Geometry::new(2, 20), &SLIDERS, 2);

    /// The squares a piece of `color` moving as `def` attacks from `sq`, walked square by
    /// square on the board's coordinates (independently of the tables' rays and lines).
    fn walked(g: Geometry, def: &PieceDef, color: usize, sq: usize, occ: u64) -> u64 {
        let (w, h) = (i32::from(g.width), i32::from(g.height));
        let (f0, r0) = (sq as i32 % w, sq as i32 / w);
        let mut att = 0u64;
        let mut walk = |dx: i8, dy: i8, range: u32| {
            // Black's forward is toward rank 0; White's moves are the 180-degree image.
            let (df, dr) = if color == 0 {
                (i32::from(dx), -i32::from(dy))
            } else {
                (-i32::from(dx), i32::from(dy))
            };
            let (mut f, mut r) = (f0, r0);
            for _ in 0..range {
                f += df;
                r += dr;
                if f < 0 || f >= w || r < 0 || r >= h {
                    break;
                }
                let bit = 1u64 << (r * w + f);
                att |= bit;
                if occ & bit != 0 {
                    break;
                }
            }
        };
        for &(dx, dy) in def.movement.steps {
            walk(dx, dy, 1);
        }
        for &(dx, dy) in def.movement.slides {
            walk(dx, dy, u32::MAX);
        }
        for &((dx, dy), n) in def.movement.ranged {
            walk(dx, dy, u32::from(n));
        }
        att
    }

    #[test]
    fn slides_match_a_walk_on_every_board_shape() {
        // Boards up to seven by seven are looked up; larger ones (eight by eight, nine wide,
        // twenty high) fall back to rays, which must agree as well.
        let boards: [(&Tables, bool); 7] = [
            (&T55, true),
            (&T45, true),
            (&T34, true),
            (&T77, true),
            (&T88, false),
            (&T97, false),
            (&T2X20, false),
        ];
        let mut rng = SplitMix64::new(7);
        for (t, lookup) in boards {
            let g = t.geometry;
            assert_eq!(
                t.line_lookup, lookup,
                "line lookup on {}x{}",
                g.width, g.height
            );
            let n = g.squares();
            for sq in 0..n {
                for trial in 0..200 {
                    // Sparse, dense and random occupancies, always with the piece's square.
                    let r = rng.next_u64() & t.board.0;
                    let occ = match trial % 3 {
                        0 => r & rng.next_u64() & rng.next_u64(),
                        1 => r | rng.next_u64(),
                        _ => r,
                    } & t.board.0
                        | 1u64 << sq;
                    for (k, def) in SLIDERS.iter().enumerate() {
                        for c in 0..2 {
                            let got = t.attacks(
                                [Color::Black, Color::White][c],
                                Kind(k as u8),
                                Square::new(sq as u8),
                                Bitboard(occ),
                            );
                            assert_eq!(
                                got.0,
                                walked(g, def, c, sq, occ),
                                "{} of colour {c} on square {sq} of {}x{}, occupancy {occ:#x}",
                                def.name,
                                g.width,
                                g.height
                            );
                        }
                    }
                }
            }
        }
    }
}
