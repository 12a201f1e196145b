//! Raw setups, validated positions, and making and unmaking moves.

use crate::piece::{MAX_KINDS, MAX_SLOTS};
use crate::tables::MAX_HAND_COUNT;
use crate::variant::{Derived, Variant};
use crate::{Bitboard, Color, Kind, Move, Piece, Square};
use core::fmt;
use core::marker::PhantomData;

/// The largest ply number a setup may carry, far beyond any real game, so that counting
/// plies can never overflow.
pub const MAX_PLY: u32 = 1_000_000_000;

/// A position as read from text or built by hand, not yet checked. Turn it into a
/// [`Position`] with [`Position::from_setup`].
#[derive(Clone, PartialEq, Eq)]
pub struct Setup<V: Variant> {
    /// The board, indexed by [`Square`].
    pub board: [Option<Piece>; 64],
    /// Hand counts `[color][slot]`.
    pub hands: [[u8; MAX_SLOTS]; 2],
    /// Side to move.
    pub side: Color,
    /// Ply number, 1 for the start position.
    pub ply: u32,
    /// Variant state.
    pub extra: V::Extra,
}

impl<V: Variant> Setup<V> {
    /// An empty board, Black to move, ply 1.
    pub fn empty() -> Setup<V> {
        Setup {
            board: [None; 64],
            hands: [[0; MAX_SLOTS]; 2],
            side: Color::Black,
            ply: 1,
            extra: V::Extra::default(),
        }
    }

    /// Places a piece at a square given by file (1 = rightmost) and rank (0 = `a`).
    /// Panics when the square is not on the board; for building fixed setups in code.
    pub fn put(&mut self, file: u8, rank: u8, color: Color, kind: Kind) -> &mut Self {
        let sq = V::GEOMETRY.square(file, rank).expect("square on the board");
        self.board[sq.index()] = Some(Piece::new(color, kind));
        self
    }
}

impl<V: Variant> fmt::Debug for Setup<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Setup")
            .field("side", &self.side)
            .field("ply", &self.ply)
            .field("hands", &self.hands)
            .field("extra", &self.extra)
            .finish_non_exhaustive()
    }
}

/// Why a setup is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A piece stands outside the board.
    #[error("a piece stands on square index {0}, outside the board")]
    OffBoard(u8),
    /// A kind index that the variant does not define.
    #[error("unknown piece kind {0}")]
    UnknownKind(u8),
    /// Not exactly one king for a side (in a variant without the check rule, the side to
    /// move may have none: its king was just captured and the game is over).
    #[error("{color} has {count} kings; each side needs exactly one")]
    KingCount {
        /// The side.
        color: Color,
        /// How many it has.
        count: u32,
    },
    /// More pieces of a group than the set holds.
    #[error("{count} {name} pieces{whose}, but the set holds {limit}")]
    TooManyPieces {
        /// The group's name (its faces joined by `/`).
        name: String,
        /// Counted.
        count: u32,
        /// Allowed.
        limit: u8,
        /// `""` for both sides together, or `" for black"`.
        whose: String,
    },
    /// Pieces in hand in a variant without drops.
    #[error("{variant} has no drops, so hands must be empty")]
    NoDrops {
        /// The variant's display name.
        variant: &'static str,
    },
    /// Pieces in a hand slot the variant does not have (a kind that cannot be held).
    #[error("hand slot {slot} does not exist")]
    NoHandSlot {
        /// The slot's index.
        slot: usize,
    },
    /// As many pieces of one kind in a hand as no hand can hold
    /// ([`crate::tables::MAX_HAND_COUNT`] or more).
    #[error("{color} holds {count} pieces of one kind in hand")]
    HandCount {
        /// The side.
        color: Color,
        /// How many it holds.
        count: u8,
    },
    /// A piece on a square where the variant forbids it.
    #[error("{piece} on {square} can never stand there")]
    BadPlacement {
        /// The piece's name, such as `black soldier`.
        piece: String,
        /// The square's USI name.
        square: String,
    },
    /// Two unpromoted pawns of one side on a file, where the variant forbids it
    /// ([`crate::DropRules::nifu`]).
    #[error("{color} has two unpromoted pawns on file {file}")]
    TwoPawnsOnFile {
        /// The side.
        color: Color,
        /// The file, 1 = rightmost.
        file: u8,
    },
    /// More unpromoted pawns of one side on a file than the variant allows, where it
    /// allows more than one ([`crate::DropRules::pawns_per_file`]).
    #[error(
        "{color} has {count} unpromoted {pawn}s on file {file}; at most {limit} may stand on a \
         file"
    )]
    PawnsOnFile {
        /// The side.
        color: Color,
        /// How many stand on the file.
        count: u32,
        /// The pawn's name.
        pawn: &'static str,
        /// The file, 1 = rightmost.
        file: u8,
        /// How many may.
        limit: u32,
    },
    /// The side that is not to move is in check.
    #[error("{0} is not to move but is in check")]
    OpponentInCheck(Color),
    /// The ply number is out of range.
    #[error("ply must be from 1 to 1000000000, got {0}")]
    BadPly(u32),
    /// A variant-specific problem.
    #[error("{0}")]
    Variant(String),
}

/// What [`Position::make`] returns so that [`Position::unmake`] can restore the position.
#[derive(Copy, Clone, Debug)]
pub struct Undo<V: Variant> {
    captured: Option<Piece>,
    moved: Kind,
    hash: u64,
    extra: V::Extra,
}

impl<V: Variant> Undo<V> {
    /// The piece the move captured, if any.
    #[inline(always)]
    pub(crate) fn captured(&self) -> Option<Piece> {
        self.captured
    }
}

/// A valid position of variant `V`: board, hands, side to move, ply and variant state, with
/// an incrementally updated Zobrist hash. It is `Copy`, so copy-make is free to use.
pub struct Position<V: Variant> {
    pub(crate) board: [Option<Piece>; 64],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) by_kind: [Bitboard; MAX_KINDS],
    pub(crate) hands: [[u8; MAX_SLOTS]; 2],
    pub(crate) kings: [Square; 2],
    pub(crate) side: Color,
    pub(crate) ply: u32,
    pub(crate) hash: u64,
    pub(crate) extra: V::Extra,
    _variant: PhantomData<V>,
}

impl<V: Variant> Clone for Position<V> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<V: Variant> Copy for Position<V> {}

impl<V: Variant> PartialEq for Position<V> {
    /// Positions are equal when board, hands, side, ply and extra state are equal.
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.hands == other.hands
            && self.side == other.side
            && self.ply == other.ply
            && self.extra == other.extra
    }
}
impl<V: Variant> Eq for Position<V> {}

impl<V: Variant> fmt::Debug for Position<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = V::GEOMETRY;
        writeln!(f, "Position<{}> {{", V::NAME)?;
        for rank in 0..g.height {
            write!(f, "  ")?;
            for file in (1..=g.width).rev() {
                let sq = g.square(file, rank).unwrap_or(Square(0));
                match self.board[sq.index()] {
                    None => write!(f, " .")?,
                    Some(p) => {
                        let def = &V::PIECES[p.kind.index()];
                        let c = if p.color == Color::Black {
                            def.letter
                        } else {
                            def.letter.to_ascii_lowercase()
                        };
                        write!(f, "{}{}", if def.promoted { '+' } else { ' ' }, c)?
                    }
                }
            }
            writeln!(f)?;
        }
        writeln!(
            f,
            "  side {:?} ply {} hands {:?} extra {:?}\n}}",
            self.side, self.ply, self.hands, self.extra
        )
    }
}

/// `kind.index()`, reduced modulo [`MAX_KINDS`]: the same index for every kind a position
/// holds (all are below `MAX_KINDS`, which `Tables::build` asserts and `from_setup` checks),
/// but the compiler can see that it is in range and leaves out the bounds checks in `make`
/// and `unmake`.
#[inline(always)]
fn kind_index(kind: Kind) -> usize {
    kind.index() % MAX_KINDS
}

fn piece_name<V: Variant>(p: Piece) -> String {
    format!("{} {}", p.color, V::PIECES[p.kind.index()].name)
}

impl<V: Variant> Position<V> {
    /// The variant's start position.
    pub fn start() -> Position<V> {
        Position::from_setup(&V::start()).expect("a variant's start position is valid")
    }

    /// Validates a setup: board squares, known kinds, one king per side, set limits, hands,
    /// placements, the variant's own checks, and that the side not to move is not in check.
    pub fn from_setup(setup: &Setup<V>) -> Result<Position<V>, PositionError> {
        let t = V::tables();
        let g = V::GEOMETRY;
        if setup.ply == 0 || setup.ply > MAX_PLY {
            return Err(PositionError::BadPly(setup.ply));
        }
        let mut pos = Position {
            board: [None; 64],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; MAX_KINDS],
            hands: [[0; MAX_SLOTS]; 2],
            kings: [Square(0); 2],
            side: setup.side,
            ply: setup.ply,
            hash: 0,
            extra: setup.extra,
            _variant: PhantomData,
        };
        let mut king_count = [0u32; 2];
        let mut group_total = [0u32; 256];
        let mut group_side = [[0u32; 256]; 2];
        for (i, cell) in setup.board.iter().enumerate() {
            let Some(p) = *cell else { continue };
            let sq = Square(i as u8);
            if !g.contains(sq) {
                return Err(PositionError::OffBoard(i as u8));
            }
            if p.kind.index() >= t.kinds {
                return Err(PositionError::UnknownKind(p.kind.0));
            }
            let dead =
                V::DROP_RULES.no_dead_drops && t.dead[p.color.index()][p.kind.index()].has(sq);
            if dead || !V::placement_allowed(p, sq) {
                return Err(PositionError::BadPlacement {
                    piece: piece_name::<V>(p),
                    square: g.name(sq).to_string(),
                });
            }
            let def = &V::PIECES[p.kind.index()];
            if def.royal {
                king_count[p.color.index()] += 1;
                pos.kings[p.color.index()] = sq;
            } else {
                group_total[def.group as usize] += 1;
                group_side[p.color.index()][def.group as usize] += 1;
            }
            pos.put(sq, p);
        }
        for c in Color::ALL {
            // Without the check rule the royal can be captured: a position whose side to
            // move has lost it is a finished game (RULES.md, position validity), read as
            // such. The side not to move still needs its royal.
            let finished = !V::CHECK_RULE && c == setup.side && king_count[c.index()] == 0;
            if king_count[c.index()] != 1 && !finished {
                return Err(PositionError::KingCount {
                    color: c,
                    count: king_count[c.index()],
                });
            }
        }
        for c in Color::ALL {
            for slot in 0..MAX_SLOTS {
                let n = setup.hands[c.index()][slot];
                if n == 0 {
                    continue;
                }
                if slot >= t.slots {
                    return Err(if t.slots == 0 {
                        PositionError::NoDrops {
                            variant: V::DISPLAY_NAME,
                        }
                    } else {
                        PositionError::NoHandSlot { slot }
                    });
                }
                if n as usize >= MAX_HAND_COUNT {
                    return Err(PositionError::HandCount { color: c, count: n });
                }
                let group = V::PIECES[t.slot_faces[slot][0].index()].group as usize;
                group_total[group] += n as u32;
                group_side[c.index()][group] += n as u32;
                pos.hands[c.index()][slot] = n;
                pos.hash ^= t.z_hand[c.index()][slot][n as usize];
            }
        }
        for group in 0..256usize {
            if group_total[group] == 0 {
                continue;
            }
            let limit = V::group_limit(group as u8);
            let name = || {
                V::PIECES
                    .iter()
                    .filter(|d| d.group as usize == group && !d.royal)
                    .map(|d| d.name)
                    .collect::<Vec<_>>()
                    .join("/")
            };
            if group_total[group] > limit.total as u32 {
                return Err(PositionError::TooManyPieces {
                    name: name(),
                    count: group_total[group],
                    limit: limit.total,
                    whose: String::new(),
                });
            }
            for c in Color::ALL {
                if group_side[c.index()][group] > limit.per_side as u32 {
                    return Err(PositionError::TooManyPieces {
                        name: name(),
                        count: group_side[c.index()][group],
                        limit: limit.per_side,
                        whose: format!(" for {c}"),
                    });
                }
            }
        }
        if let (Some(pawn), true) = (V::DROP_RULES.pawn, V::DROP_RULES.nifu) {
            let limit = u32::from(V::DROP_RULES.pawns_per_file);
            for c in Color::ALL {
                if limit > 1 {
                    for sq in pos.pieces(c, pawn) {
                        let count = (pos.pieces(c, pawn) & t.file[sq.index()]).count();
                        if count > limit {
                            return Err(PositionError::PawnsOnFile {
                                color: c,
                                count,
                                pawn: V::PIECES[pawn.index()].name,
                                file: g.file(sq),
                                limit,
                            });
                        }
                    }
                    continue;
                }
                let mut files = Bitboard::EMPTY;
                for sq in pos.pieces(c, pawn) {
                    if files.has(sq) {
                        return Err(PositionError::TwoPawnsOnFile {
                            color: c,
                            file: g.file(sq),
                        });
                    }
                    files |= t.file[sq.index()];
                }
            }
        }
        V::validate(setup)?;
        if pos.side == Color::White {
            pos.hash ^= t.z_side;
        }
        pos.hash ^= V::extra_hash(pos.extra);
        let them = !pos.side;
        if V::CHECK_RULE && pos.is_attacked(pos.kings[them.index()], pos.side, pos.occupied()) {
            return Err(PositionError::OpponentInCheck(them));
        }
        Ok(pos)
    }

    /// The raw setup of this position.
    pub fn to_setup(&self) -> Setup<V> {
        Setup {
            board: self.board,
            hands: self.hands,
            side: self.side,
            ply: self.ply,
            extra: self.extra,
        }
    }

    #[inline(always)]
    fn put(&mut self, sq: Square, p: Piece) {
        let bb = Bitboard::from_square(sq);
        self.board[sq.index()] = Some(p);
        self.by_color[p.color.index()] |= bb;
        self.by_kind[p.kind.index()] |= bb;
        self.hash ^= V::tables().z_piece[p.color.index()][p.kind.index()][sq.index()];
    }

    /// The piece on `sq`.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Ply number (1 at the start).
    #[inline(always)]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The Zobrist hash of board, hands, side to move and variant state (not the ply).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch; equals [`Position::hash`] (a consistency check).
    pub fn compute_hash(&self) -> u64 {
        let t = V::tables();
        let mut h = 0;
        for (i, cell) in self.board.iter().enumerate() {
            if let Some(p) = cell {
                h ^= t.z_piece[p.color.index()][p.kind.index()][i];
            }
        }
        for c in Color::ALL {
            for slot in 0..MAX_SLOTS {
                h ^= t.z_hand[c.index()][slot][self.hands[c.index()][slot] as usize];
            }
        }
        if self.side == Color::White {
            h ^= t.z_side;
        }
        h ^ V::extra_hash(self.extra)
    }

    /// The variant state.
    #[inline(always)]
    pub fn extra(&self) -> V::Extra {
        self.extra
    }

    /// Replaces the variant state, keeping the hash up to date. For [`Variant::after_move`].
    #[inline(always)]
    pub fn set_extra(&mut self, extra: V::Extra) {
        self.hash ^= V::extra_hash(self.extra) ^ V::extra_hash(extra);
        self.extra = extra;
    }

    /// Number of pieces of `color` in hand slot `slot`.
    #[inline(always)]
    pub fn hand(&self, color: Color, slot: usize) -> u8 {
        self.hands[color.index()][slot]
    }

    /// All hand counts of `color`, by slot.
    #[inline(always)]
    pub fn hand_counts(&self, color: Color) -> [u8; MAX_SLOTS] {
        self.hands[color.index()]
    }

    /// Squares occupied by `color`.
    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares holding `kind`, of either color.
    #[inline(always)]
    pub fn kind_bb(&self, kind: Kind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Squares holding pieces of `color` showing `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: Kind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// Makes a legal move (as produced by the move generator) and returns what
    /// [`Position::unmake`] needs. Making an illegal move leaves the position inconsistent;
    /// check with [`Position::is_legal`] first when the move comes from outside.
    #[inline]
    pub fn make(&mut self, mv: Move) -> Undo<V> {
        self.make_inlined(mv)
    }

    /// [`Position::make`], always inlined (for perft's inner loop).
    #[inline(always)]
    pub(crate) fn make_inlined(&mut self, mv: Move) -> Undo<V> {
        self.make_with::<true>(mv)
    }

    /// [`Position::make`] without the hash update, for perft, which never reads the hash:
    /// the position it leaves has a stale hash until [`Position::unmake_inlined`] takes the
    /// move back (which restores the hash from the [`Undo`]). Nothing that sees the position
    /// in between may read the hash: move generation, counting and [`Variant::adjudicate`]
    /// do not.
    #[inline(always)]
    pub(crate) fn make_unhashed(&mut self, mv: Move) -> Undo<V> {
        self.make_with::<false>(mv)
    }

    /// [`Position::make_inlined`], updating the hash only with `HASH` (without it, the hash
    /// computations are dead code that the compiler leaves out).
    #[inline(always)]
    fn make_with<const HASH: bool>(&mut self, mv: Move) -> Undo<V> {
        let t = V::tables();
        let us = self.side;
        let them = !us;
        let mut undo = Undo {
            captured: None,
            moved: Kind(0),
            hash: self.hash,
            extra: self.extra,
        };
        let to = mv.to();
        let to_bb = Bitboard::from_square(to);
        // The hash is updated in a local and stored once.
        let mut hash = self.hash ^ t.z_side;
        // Without drops every move is a board move, and hands stay empty.
        let from = if V::DROPS {
            mv.from()
        } else {
            Some(mv.origin())
        };
        match from {
            Some(from) => {
                let Some(p) = self.board[from.index()] else {
                    debug_assert!(false, "no piece on the origin square");
                    return undo;
                };
                undo.moved = p.kind;
                if let Some(cap) = self.board[to.index()] {
                    undo.captured = Some(cap);
                    self.by_color[them.index()] ^= to_bb;
                    self.by_kind[kind_index(cap.kind)] ^= to_bb;
                    hash ^= t.z_piece[them.index()][kind_index(cap.kind)][to.index()];
                    if V::DROPS {
                        let slot = V::HAND_SLOT[kind_index(cap.kind)];
                        if slot != u8::MAX {
                            let slot = slot as usize;
                            let n = self.hands[us.index()][slot];
                            hash ^= t.z_hand[us.index()][slot][n as usize]
                                ^ t.z_hand[us.index()][slot][n as usize + 1];
                            self.hands[us.index()][slot] = n + 1;
                        }
                    }
                }
                let kind = if mv.is_flip() {
                    V::FLIPS_TO[kind_index(p.kind)]
                } else {
                    p.kind
                };
                let from_bb = Bitboard::from_square(from);
                self.board[from.index()] = None;
                self.board[to.index()] = Some(Piece::new(us, kind));
                self.by_color[us.index()] ^= from_bb | to_bb;
                self.by_kind[kind_index(p.kind)] ^= from_bb;
                self.by_kind[kind_index(kind)] |= to_bb;
                hash ^= t.z_piece[us.index()][kind_index(p.kind)][from.index()]
                    ^ t.z_piece[us.index()][kind_index(kind)][to.index()];
                if kind == t.king {
                    self.kings[us.index()] = to;
                }
            }
            None => {
                let kind = mv.drop_kind().unwrap_or(Kind(0));
                undo.moved = kind;
                let slot = V::HAND_SLOT[kind_index(kind)];
                if slot != u8::MAX {
                    let slot = slot as usize;
                    let n = self.hands[us.index()][slot];
                    let left = n.saturating_sub(1);
                    hash ^= t.z_hand[us.index()][slot][n as usize]
                        ^ t.z_hand[us.index()][slot][left as usize];
                    self.hands[us.index()][slot] = left;
                }
                self.board[to.index()] = Some(Piece::new(us, kind));
                self.by_color[us.index()] |= to_bb;
                self.by_kind[kind_index(kind)] |= to_bb;
                hash ^= t.z_piece[us.index()][kind_index(kind)][to.index()];
            }
        }
        if HASH {
            self.hash = hash;
        }
        self.side = them;
        self.ply += 1;
        V::after_move(self, us, undo.captured);
        undo
    }

    /// Takes back `mv`, which must be the last move made, with the [`Undo`] it returned.
    #[inline]
    pub fn unmake(&mut self, mv: Move, undo: Undo<V>) {
        self.unmake_inlined(mv, undo)
    }

    /// [`Position::unmake`], always inlined (for perft's inner loop).
    #[inline(always)]
    pub(crate) fn unmake_inlined(&mut self, mv: Move, undo: Undo<V>) {
        let t = V::tables();
        let them = self.side;
        let us = !them;
        self.side = us;
        self.ply -= 1;
        let to = mv.to();
        let to_bb = Bitboard::from_square(to);
        // The hash comes back from `undo`, so the pieces move without touching it.
        let Some(now) = self.board[to.index()] else {
            debug_assert!(false, "no piece on the destination square");
            return;
        };
        self.by_kind[kind_index(now.kind)] ^= to_bb;
        let from = if V::DROPS {
            mv.from()
        } else {
            Some(mv.origin())
        };
        match from {
            Some(from) => {
                let from_bb = Bitboard::from_square(from);
                self.board[from.index()] = Some(Piece::new(us, undo.moved));
                self.board[to.index()] = undo.captured;
                self.by_color[us.index()] ^= from_bb | to_bb;
                self.by_kind[kind_index(undo.moved)] |= from_bb;
                if undo.moved == t.king {
                    self.kings[us.index()] = from;
                }
                if let Some(cap) = undo.captured {
                    self.by_color[them.index()] |= to_bb;
                    self.by_kind[kind_index(cap.kind)] |= to_bb;
                    if V::DROPS {
                        let slot = V::HAND_SLOT[kind_index(cap.kind)];
                        if slot != u8::MAX {
                            self.hands[us.index()][slot as usize] -= 1;
                        }
                    }
                }
            }
            None => {
                self.board[to.index()] = None;
                self.by_color[us.index()] ^= to_bb;
                let slot = V::HAND_SLOT[kind_index(undo.moved)];
                if slot != u8::MAX {
                    self.hands[us.index()][slot as usize] += 1;
                }
            }
        }
        self.extra = undo.extra;
        self.hash = undo.hash;
    }

    /// Passes the move to the opponent (a "null move", for null-move pruning in a search):
    /// the side to move, the hash and the ply change, nothing else (not the variant state).
    /// The result is not a position the rules reach; only a searcher should make one, never
    /// when the side to move is in check (its king could then be taken). Taken back by
    /// [`Position::unmake_null`].
    #[inline]
    pub fn make_null(&mut self) {
        self.side = !self.side;
        self.hash ^= V::tables().z_side;
        self.ply += 1;
    }

    /// Takes back [`Position::make_null`].
    #[inline]
    pub fn unmake_null(&mut self) {
        self.side = !self.side;
        self.hash ^= V::tables().z_side;
        self.ply -= 1;
    }

    /// Copy-make: the position after the legal move `mv`.
    #[inline]
    pub fn after(&self, mv: Move) -> Position<V> {
        let mut p = *self;
        p.make(mv);
        p
    }
}
