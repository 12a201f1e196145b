//! Which legal move a request names, and if none, why not.
//!
//! A reader of move text (USI, KIF) turns the text into a [`MoveRequest`]: what the text
//! says about the move (destination, origin if written, the piece if named, the flip mark,
//! a drop). [`Position::resolve`] finds the one legal move it names, or says in an
//! [`IllegalMove`] why there is none, with the squares and pieces involved, so that every
//! reader words the same reasons in its own notation.
//!
//! The successful path costs one pass of the move generator and allocates nothing; the
//! reasons are worked out only when the move is not legal.

use crate::bitboard::Bitboard;
use crate::movegen::{flip_range, Bundle};
use crate::position::Position;
use crate::variant::{Derived, Flip, Outcome, Variant};
use crate::{Color, Kind, Move, Piece, Square};

/// What a move text says about flipping (promoting).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FlipRequest {
    /// No mark: the move that does not flip when both exist (an optional promotion not
    /// taken), else the flip (a mandatory flip may be left unwritten).
    Unmarked,
    /// A flip mark (USI `+` or `-`, KIF `成`): the piece must flip on this move.
    Flip,
    /// A mark that refuses the flip (KIF `不成`): the piece must not flip on this move.
    NoFlip,
}

/// A move as a text describes it, to be matched against the legal moves of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveRequest {
    /// A board move from a known square (USI `2e2d+`, KIF `２四銀(25)`).
    Board {
        /// The origin.
        from: Square,
        /// The destination.
        to: Square,
        /// The face the moving piece shows before the move, when the text names it (KIF);
        /// `None` when it does not (USI).
        kind: Option<Kind>,
        /// The flip mark.
        flip: FlipRequest,
    },
    /// A move of the side's piece showing `kind` to `to`, from wherever it stands (a KIF
    /// move written without its origin): the one such piece that can go there, or, with no
    /// flip mark and no such piece, a drop of `kind` when that is legal.
    Piece {
        /// The face the moving piece shows before the move.
        kind: Kind,
        /// The destination.
        to: Square,
        /// The flip mark.
        flip: FlipRequest,
    },
    /// A drop of a piece showing `kind` on `to` (USI `T*3a`, KIF `３一と打`).
    Drop {
        /// The face dropped.
        kind: Kind,
        /// The destination.
        to: Square,
    },
}

/// Which declared drop rule ([`crate::DropRules`]) refuses a drop.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DropRule {
    /// The dropped piece could never move from that square ([`crate::DropRules::no_dead_drops`]).
    DeadDrop,
    /// Nifu: the side already has an unpromoted pawn on that file, on `pawn`
    /// ([`crate::DropRules::nifu`]).
    Nifu {
        /// The square of the pawn already on the file.
        pawn: Square,
    },
    /// The pawn drop would checkmate ([`crate::DropRules::no_pawn_drop_mate`]).
    PawnDropMate,
    /// The variant's own [`Variant::drop_targets`] leaves the square out.
    Variant,
}

/// Why a [`MoveRequest`] names no legal move of the position.
///
/// Sides, squares and pieces are those of the position; `side` is always the side to move.
/// The reasons are listed from the most basic: [`Position::resolve`] gives the first that
/// applies.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMove {
    /// The position is decided (checkmate, stalemate, an adjudicated result, a captured
    /// king): it has no legal move at all.
    GameOver(Outcome),
    /// No piece stands on the origin.
    NoPiece {
        /// The origin.
        from: Square,
    },
    /// The piece on the origin belongs to the other side.
    NotYours {
        /// The side to move.
        side: Color,
        /// The origin.
        from: Square,
        /// The piece there (of the other color).
        piece: Piece,
    },
    /// The piece on the origin is not the one the text names.
    WrongPiece {
        /// The origin.
        from: Square,
        /// The face standing there.
        found: Kind,
        /// The face the text names.
        named: Kind,
    },
    /// The piece does not move that way (whatever else stands on the board).
    CannotReach {
        /// The origin.
        from: Square,
        /// The destination.
        to: Square,
        /// The face of the moving piece.
        kind: Kind,
    },
    /// The piece moves that way, but another piece stands in its path.
    Blocked {
        /// The origin.
        from: Square,
        /// The destination.
        to: Square,
        /// The face of the moving piece.
        kind: Kind,
        /// The square of the first piece in the way.
        by: Square,
        /// That piece.
        blocker: Piece,
    },
    /// The destination holds a piece of the side's own.
    CaptureOwn {
        /// The side to move.
        side: Color,
        /// The origin.
        from: Square,
        /// The destination.
        to: Square,
        /// The face of the moving piece.
        kind: Kind,
        /// The face of the own piece on the destination.
        target: Kind,
    },
    /// The move (or drop, `from` `None`) would leave the side's king attacked.
    LeavesKingInCheck {
        /// The side to move.
        side: Color,
        /// The origin, or `None` for a drop.
        from: Option<Square>,
        /// The destination.
        to: Square,
        /// The face of the moving (dropped) piece.
        kind: Kind,
        /// An enemy piece that would attack the king, and its square.
        checker: Option<(Square, Kind)>,
    },
    /// A flip was asked for ([`FlipRequest::Flip`]) on a move that does not flip.
    FlipNotAllowed {
        /// The origin.
        from: Square,
        /// The destination.
        to: Square,
        /// The face of the moving piece.
        kind: Kind,
    },
    /// The flip was refused ([`FlipRequest::NoFlip`]) on a move that must flip.
    FlipRequired {
        /// The origin.
        from: Square,
        /// The destination.
        to: Square,
        /// The face of the moving piece.
        kind: Kind,
    },
    /// The variant has no pieces in hand at all.
    NoDrops,
    /// This face is never dropped: a piece with no hand slot (the king), or a promoted face
    /// in a variant with a promotion zone, whose pieces are dropped unpromoted (`instead`).
    NeverDropped {
        /// The face named.
        kind: Kind,
        /// The face such a piece is dropped as, if any.
        instead: Option<Kind>,
    },
    /// The side has no such piece in hand.
    NotInHand {
        /// The side to move.
        side: Color,
        /// The face named.
        kind: Kind,
    },
    /// The drop square is occupied.
    DropOnOccupied {
        /// The destination.
        to: Square,
        /// The piece standing there.
        occupant: Piece,
    },
    /// A declared drop rule refuses the drop.
    DropRefused {
        /// The side to move.
        side: Color,
        /// The face dropped.
        kind: Kind,
        /// The destination.
        to: Square,
        /// The rule.
        rule: DropRule,
    },
    /// ([`MoveRequest::Piece`]) The side has no piece showing `kind` on the board (and,
    /// unless `in_hand`, none in hand either).
    NoPieceOfKind {
        /// The side to move.
        side: Color,
        /// The face named.
        kind: Kind,
        /// Whether one is in hand (but the text asked for a flip, so it is no drop).
        in_hand: bool,
    },
    /// ([`MoveRequest::Piece`]) None of the side's pieces showing `kind` can go to `to`.
    NoneCanReach {
        /// The side to move.
        side: Color,
        /// The face named.
        kind: Kind,
        /// The destination.
        to: Square,
    },
    /// ([`MoveRequest::Piece`]) Several of the side's pieces showing `kind` can go to `to`;
    /// the text must say which.
    Ambiguous {
        /// The face named.
        kind: Kind,
        /// The destination.
        to: Square,
        /// The squares of the pieces that can go there.
        origins: Bitboard,
    },
}

impl IllegalMove {
    /// Whether the reason is about the flip mark (so a reader may point at the mark rather
    /// than at the start of the move).
    pub fn is_about_the_flip(&self) -> bool {
        matches!(
            self,
            IllegalMove::FlipNotAllowed { .. } | IllegalMove::FlipRequired { .. }
        )
    }
}

impl<V: Variant> Position<V> {
    /// The legal move `request` names, or why there is none.
    ///
    /// Only the rules of the position are consulted: a repetition that ended a game is
    /// [`crate::Game`]'s to know. Ambiguity is only possible for
    /// [`MoveRequest::Piece`]; a board move or a drop names at most one move once its flip
    /// mark is read.
    pub fn resolve(&self, request: &MoveRequest) -> Result<Move, IllegalMove> {
        match *request {
            MoveRequest::Board {
                from,
                to,
                kind,
                flip,
            } => self.resolve_board(from, to, kind, flip),
            MoveRequest::Drop { kind, to } => self.resolve_drop(kind, to),
            MoveRequest::Piece { kind, to, flip } => self.resolve_piece(kind, to, flip),
        }
    }

    /// The flags of the legal moves from `from` to `to`, if any: `(first, last)` as
    /// [`flip_range`] gives them.
    fn legal_flips(&self, from: Square, to: Square) -> Option<(bool, bool)> {
        let mut found = None;
        self.generate(|b| match b {
            Bundle::Board {
                from: f,
                kind,
                targets,
            } if f == from => {
                if targets.has(to) {
                    found = Some(flip_range::<V>(kind, self.side, from, to, self.occupied()));
                }
                true
            }
            _ => false,
        });
        found
    }

    fn choose_flip(
        &self,
        from: Square,
        to: Square,
        (first, last): (bool, bool),
        flip: FlipRequest,
    ) -> Result<Move, IllegalMove> {
        let kind = self.piece_at(from).map(|p| p.kind).unwrap_or(Kind(0));
        let flipped = match flip {
            FlipRequest::Unmarked => first,
            FlipRequest::Flip if last => true,
            FlipRequest::Flip => return Err(IllegalMove::FlipNotAllowed { from, to, kind }),
            FlipRequest::NoFlip if !first => false,
            FlipRequest::NoFlip => return Err(IllegalMove::FlipRequired { from, to, kind }),
        };
        Ok(Move::board(from, to, flipped))
    }

    fn resolve_board(
        &self,
        from: Square,
        to: Square,
        named: Option<Kind>,
        flip: FlipRequest,
    ) -> Result<Move, IllegalMove> {
        let side = self.side;
        if let Some(flips) = self.legal_flips(from, to) {
            // The piece is the side's own (the generator only moves those), so only the
            // face named can still be wrong.
            if let (Some(named), Some(p)) = (named, self.piece_at(from)) {
                if named != p.kind {
                    return Err(IllegalMove::WrongPiece {
                        from,
                        found: p.kind,
                        named,
                    });
                }
            }
            return self.choose_flip(from, to, flips, flip);
        }
        if let Some(o) = self.outcome() {
            return Err(IllegalMove::GameOver(o));
        }
        let piece = self.piece_at(from).ok_or(IllegalMove::NoPiece { from })?;
        if piece.color != side {
            return Err(IllegalMove::NotYours { side, from, piece });
        }
        if let Some(named) = named.filter(|&k| k != piece.kind) {
            return Err(IllegalMove::WrongPiece {
                from,
                found: piece.kind,
                named,
            });
        }
        Err(self.why_not_board(from, to, piece.kind))
    }

    /// Why the side's piece showing `kind` on `from` has no legal move to `to`.
    fn why_not_board(&self, from: Square, to: Square, kind: Kind) -> IllegalMove {
        let t = V::tables();
        let side = self.side;
        let occ = self.occupied();
        if from == to || !t.attacks(side, kind, from, occ).has(to) {
            if from != to && t.attacks(side, kind, from, Bitboard::EMPTY).has(to) {
                // A slider whose path is blocked: the first piece from the origin.
                let path = t.between[from.index()][to.index()] & occ;
                if let Some(by) = path
                    .into_iter()
                    .find(|&sq| (t.between[from.index()][sq.index()] & occ).is_empty())
                {
                    if let Some(blocker) = self.piece_at(by) {
                        return IllegalMove::Blocked {
                            from,
                            to,
                            kind,
                            by,
                            blocker,
                        };
                    }
                }
            }
            return IllegalMove::CannotReach { from, to, kind };
        }
        if let Some(target) = self.piece_at(to).filter(|p| p.color == side) {
            return IllegalMove::CaptureOwn {
                side,
                from,
                to,
                kind,
                target: target.kind,
            };
        }
        if !V::CHECK_RULE {
            // Every pseudo-legal move is legal without the check rule; nothing else refuses
            // a board move.
            return IllegalMove::CannotReach { from, to, kind };
        }
        let flips = V::flip(kind, side, from, to, occ.has(to)) == Flip::Always;
        IllegalMove::LeavesKingInCheck {
            side,
            from: Some(from),
            to,
            kind,
            checker: self.checker_after(Move::board(from, to, flips)),
        }
    }

    /// An enemy piece attacking the mover's king after the pseudo-legal `mv`.
    fn checker_after(&self, mv: Move) -> Option<(Square, Kind)> {
        let side = self.side;
        let after = self.after(mv);
        let king = after.king(side);
        let sq = after
            .attackers_to(king, !side, after.occupied())
            .into_iter()
            .next()?;
        after.piece_at(sq).map(|p| (sq, p.kind))
    }

    fn resolve_drop(&self, kind: Kind, to: Square) -> Result<Move, IllegalMove> {
        let mv = Move::drop(kind, to);
        let mut legal = false;
        self.generate(|b| match b {
            Bundle::Drop { kind: k, targets } if k == kind => {
                legal = targets.has(to);
                true
            }
            _ => false,
        });
        if legal {
            return Ok(mv);
        }
        if let Some(o) = self.outcome() {
            return Err(IllegalMove::GameOver(o));
        }
        let t = V::tables();
        let side = self.side;
        if t.slots == 0 {
            return Err(IllegalMove::NoDrops);
        }
        let def = &V::PIECES[kind.index()];
        let Some(slot) = def.hand_slot else {
            return Err(IllegalMove::NeverDropped {
                kind,
                instead: None,
            });
        };
        if V::NOT_DROPPED & (1 << kind.index()) != 0 {
            let faces = &t.slot_faces[usize::from(slot)]
                [..usize::from(t.slot_faces_len[usize::from(slot)])];
            let instead = faces
                .iter()
                .copied()
                .find(|k| V::NOT_DROPPED & (1 << k.index()) == 0);
            return Err(IllegalMove::NeverDropped { kind, instead });
        }
        if self.hand(side, usize::from(slot)) == 0 {
            return Err(IllegalMove::NotInHand { side, kind });
        }
        if let Some(occupant) = self.piece_at(to) {
            return Err(IllegalMove::DropOnOccupied { to, occupant });
        }
        let refused = |rule| {
            Err(IllegalMove::DropRefused {
                side,
                kind,
                to,
                rule,
            })
        };
        let rules = V::DROP_RULES;
        if rules.no_dead_drops && t.dead[side.index()][kind.index()].has(to) {
            return refused(DropRule::DeadDrop);
        }
        if rules.pawn == Some(kind) {
            if rules.nifu {
                let file = self.pieces(side, kind) & t.file[to.index()];
                if file.count() >= u32::from(rules.pawns_per_file) {
                    if let Some(pawn) = file.into_iter().next() {
                        return refused(DropRule::Nifu { pawn });
                    }
                }
            }
            if rules.no_pawn_drop_mate {
                let after = self.after(mv);
                if after.in_check()
                    && !self.leaves_king_attacked(mv)
                    && !after.has_legal_move_unadjudicated()
                {
                    return refused(DropRule::PawnDropMate);
                }
            }
        }
        if V::CHECK_RULE && self.leaves_king_attacked(mv) {
            return Err(IllegalMove::LeavesKingInCheck {
                side,
                from: None,
                to,
                kind,
                checker: self.checker_after(mv),
            });
        }
        refused(DropRule::Variant)
    }

    /// Whether the mover's king is attacked after the pseudo-legal `mv`.
    fn leaves_king_attacked(&self, mv: Move) -> bool {
        V::CHECK_RULE && self.checker_after(mv).is_some()
    }

    fn resolve_piece(
        &self,
        kind: Kind,
        to: Square,
        flip: FlipRequest,
    ) -> Result<Move, IllegalMove> {
        let side = self.side;
        let mut origins = Bitboard::EMPTY;
        let mut flips = (false, false);
        let occ = self.occupied();
        self.generate(|b| {
            if let Bundle::Board {
                from,
                kind: k,
                targets,
            } = b
            {
                if k == kind && targets.has(to) {
                    origins = origins.with(from);
                    flips = flip_range::<V>(k, side, from, to, occ);
                }
            }
            false
        });
        let mut found = origins.into_iter();
        match (found.next(), found.next()) {
            (Some(from), None) => return self.choose_flip(from, to, flips, flip),
            (Some(_), Some(_)) => return Err(IllegalMove::Ambiguous { kind, to, origins }),
            _ => {}
        }
        if let Some(o) = self.outcome() {
            return Err(IllegalMove::GameOver(o));
        }
        let on_board = self.pieces(side, kind);
        if on_board.is_empty() {
            let def = &V::PIECES[kind.index()];
            let in_hand = def
                .hand_slot
                .is_some_and(|slot| self.hand(side, usize::from(slot)) > 0);
            if in_hand && flip == FlipRequest::Unmarked {
                return self.resolve_drop(kind, to);
            }
            return Err(IllegalMove::NoPieceOfKind {
                side,
                kind,
                in_hand,
            });
        }
        if flip == FlipRequest::Unmarked {
            if let Ok(mv) = self.resolve_drop(kind, to) {
                return Ok(mv);
            }
        }
        // No piece of the kind can go there: explain with the one that comes closest (it
        // reaches the square but may not go), if there is exactly one.
        let t = V::tables();
        let mut reaching = on_board
            .into_iter()
            .filter(|&from| t.attacks(side, kind, from, occ).has(to));
        match (reaching.next(), reaching.next()) {
            (Some(from), None) => Err(self.why_not_board(from, to, kind)),
            _ => Err(IllegalMove::NoneCanReach { side, kind, to }),
        }
    }
}
