//! The plug-in interface: what a variant tells core.

use crate::piece::{PieceDef, MAX_KINDS, MAX_SLOTS};
use crate::position::{Position, PositionError, Setup};
use crate::tables::Tables;
use crate::{Bitboard, Color, Geometry, Kind, Piece, Square};
use core::fmt::Debug;
use core::hash::Hash;

/// Whether a board move turns the piece over (or promotes it).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flip {
    /// The piece keeps its face.
    Never,
    /// The piece must flip.
    Always,
    /// The player chooses: both moves are legal.
    Optional,
}

/// What a stalemate (no legal move, not in check) means for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StalemateRule {
    /// The stalemated side loses.
    Loss,
    /// The game is drawn.
    Draw,
}

/// Why [`Variant::parse_extra`] refused the text of a variant state: a message in words a
/// user understands, naming what is wrong (`countdown `b` needs a number of moves after the
/// side`). The readers of SFEN and KIF add where the field is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtraError(String);

impl ExtraError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> ExtraError {
        ExtraError(message.into())
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for ExtraError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ExtraError {}

/// How a variant treats repeated positions; applied by [`crate::Game`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RepetitionRule {
    /// The occurrence of the same position that ends the game (3 = threefold).
    pub occurrences: u8,
    /// Whether a side whose every move in the repetition gave check loses instead of drawing.
    pub perpetual_check_loses: bool,
    /// Whether the side that completes the repetition (plays the move that reaches the
    /// position for the last time) loses instead of drawing (Tori Shogi). The
    /// perpetual-check rule, when on, takes precedence: if exactly one side checked on every
    /// move of the repetition, that side loses whoever completed it.
    pub repeater_loses: bool,
}

/// How many physical pieces of a set group exist.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GroupLimit {
    /// Most pieces of the group on the board and in both hands together.
    pub total: u8,
    /// Most pieces of the group one side may own.
    pub per_side: u8,
}

/// Why a game was won.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum WinReason {
    /// The loser is in check and has no legal move.
    Checkmate,
    /// The loser has no legal move and is not in check, in a variant where that loses.
    Stalemate,
    /// The winner's king reached its farthest rank.
    KingEntry,
    /// The side with the lone king survived the bare-king countdown.
    BareKing,
    /// The loser checked on every move of a repetition.
    PerpetualCheck,
    /// The winner captured the loser's king, in a variant without the check rule
    /// ([`Variant::CHECK_RULE`] false).
    RoyalCaptured,
    /// The winner's king reached its farthest rank and is not attacked there (Dobutsu's try).
    Try,
    /// The loser completed a repetition, in a variant where that loses
    /// ([`RepetitionRule::repeater_loses`]).
    Repetition,
}

/// Why a game was drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DrawReason {
    /// No legal move, not in check, in a variant where that draws.
    Stalemate,
    /// A position occurred as often as the variant's repetition rule allows.
    Repetition,
    /// Both sides completed a try at once (Dobutsu), so neither wins.
    BothTries,
}

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// How.
        reason: WinReason,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: DrawReason,
    },
}

impl Outcome {
    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }
    }
}

impl core::fmt::Display for Outcome {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Outcome::Win { winner, reason } => {
                let how = match reason {
                    WinReason::Checkmate => "checkmate",
                    WinReason::Stalemate => "stalemate",
                    WinReason::KingEntry => "king entry",
                    WinReason::BareKing => "bare king",
                    WinReason::PerpetualCheck => "perpetual check",
                    WinReason::RoyalCaptured => "capturing the king",
                    WinReason::Try => "try",
                    WinReason::Repetition => "repetition",
                };
                write!(f, "{winner} wins by {how}")
            }
            Outcome::Draw { reason } => match reason {
                DrawReason::Stalemate => f.write_str("draw by stalemate"),
                DrawReason::Repetition => f.write_str("draw by repetition"),
                DrawReason::BothTries => f.write_str("draw: both kings completed a try"),
            },
        }
    }
}

/// Drop restrictions a variant declares in [`Variant::DROP_RULES`]; core's move generator
/// applies them (and position validation checks the matching setup rules), and leaves the
/// code out at compile time when they are off.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DropRules {
    /// No drop onto a square from which the dropped piece could never move again (a pawn on
    /// its farthest rank). Setups with such a piece are then invalid too.
    pub no_dead_drops: bool,
    /// The kind (face) the two pawn rules below apply to, or `None` for none.
    pub pawn: Option<Kind>,
    /// Nifu: no drop of a pawn on a file that holds [`DropRules::pawns_per_file`]
    /// unpromoted pawns of the same side (one in standard shogi). Setups with more such
    /// pawns on a file are then invalid too.
    pub nifu: bool,
    /// How many unpromoted pawns of one side a file may hold under [`DropRules::nifu`]: 1 in
    /// standard shogi, 2 in Tori Shogi (whose swallows may stand two to a file).
    pub pawns_per_file: u8,
    /// Uchifuzume: no pawn drop that checkmates (a drop giving check after which the
    /// opponent has no legal reply). A pawn drop that checks without mating is legal.
    pub no_pawn_drop_mate: bool,
}

impl DropRules {
    /// Drops on any empty square, with no further restriction.
    pub const FREE: DropRules = DropRules {
        no_dead_drops: false,
        pawn: None,
        nifu: false,
        pawns_per_file: 1,
        no_pawn_drop_mate: false,
    };

    /// Standard shogi's restrictions for the pawn kind `pawn`: no dead drops, nifu and no
    /// pawn-drop mate.
    pub const fn standard(pawn: Kind) -> DropRules {
        DropRules {
            no_dead_drops: true,
            pawn: Some(pawn),
            nifu: true,
            pawns_per_file: 1,
            no_pawn_drop_mate: true,
        }
    }

    /// These rules with up to `n` unpromoted pawns of one side allowed on a file instead of
    /// one (see [`DropRules::pawns_per_file`]).
    pub const fn pawns_per_file(mut self, n: u8) -> DropRules {
        self.pawns_per_file = n;
        self
    }
}

/// A small shogi variant, plugged into core's generic machinery.
///
/// Core's move generator, position and perft are generic over this trait and monomorphised
/// per variant: nothing is dispatched dynamically on the hot path. A variant is a zero-sized
/// marker type implementing this trait in a crate of its own.
pub trait Variant: Copy + Clone + Default + Debug + Send + Sync + 'static {
    /// Short lowercase name, as used on the command line (`"kyoto"`).
    const NAME: &'static str;
    /// Name for people (`"Kyoto Shogi"`).
    const DISPLAY_NAME: &'static str;
    /// Other names accepted wherever a variant is named (the command line, `USI_Variant`):
    /// the reference engine's name (`"kyotoshogi"`) and the like. Matched without regard to
    /// case.
    const ALIASES: &'static [&'static str] = &[];
    /// The KIF `手合割` (handicap) values naming this variant: the first is written, all are
    /// read (`&["京都将棋", "京都", "kyotoshogi"]`).
    const KIF_NAMES: &'static [&'static str];
    /// The board shape.
    const GEOMETRY: Geometry;
    /// Every piece kind (face), indexed by [`Kind`].
    const PIECES: &'static [PieceDef];
    /// The result of a stalemate.
    const STALEMATE: StalemateRule;
    /// The repetition rule.
    const REPETITION: RepetitionRule;
    /// Whether a move may not leave the mover's king attacked (true in standard shogi). When
    /// false (Dobutsu), every pseudo-legal move is legal, the king may step into attack, and
    /// capturing the king ends the game ([`WinReason::RoyalCaptured`]): a position whose side
    /// to move has lost its king is finished and has no moves.
    const CHECK_RULE: bool = true;
    /// Whether promotion in the zone is compulsory: a piece that may promote must when its
    /// move starts or ends in the zone (Tori Shogi), instead of choosing. Only with a
    /// [`Variant::PROMOTION_ZONE`].
    const PROMOTION_COMPULSORY: bool = false;
    /// The promotion zone as a number of farthest ranks (0: none). Drives the default
    /// [`Variant::flip`]: a piece with [`PieceDef::flips_to`] that is not a promoted face
    /// may promote when its move starts or ends in the zone, and must when it could never
    /// move again from its destination (or always, with [`Variant::PROMOTION_COMPULSORY`]).
    /// With a zone, promoted faces are never dropped: a
    /// captured one goes to its hand slot and is dropped as the slot's unpromoted face. A
    /// variant with a zone must keep the default [`Variant::flip`]: perft counts the moves of
    /// a piece by the zone's rule, with masks, without asking `flip`.
    const PROMOTION_ZONE: u8 = 0;
    /// Restrictions on drops, applied by core's generator (see [`DropRules`]).
    const DROP_RULES: DropRules = DropRules::FREE;
    /// True when [`Variant::flip`] never returns [`Flip::Optional`]; lets perft count
    /// leaves with one popcount per piece. Defaults to true exactly when there is no
    /// promotion zone or promotion in it is compulsory; a variant that overrides [`Variant::flip`] sets it to match.
    const NO_OPTIONAL_FLIPS: bool = Self::PROMOTION_ZONE == 0 || Self::PROMOTION_COMPULSORY;
    /// True when [`Variant::adjudicate`] may end a game before any move is generated.
    const HAS_ADJUDICATION: bool = false;

    /// Variant state beyond board, hands, side and ply (such as a countdown). It is part of
    /// the position's identity and hash.
    type Extra: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static;

    /// The precomputed tables, normally `&STATIC` built with [`Tables::build`].
    fn tables() -> &'static Tables;

    /// The start position.
    fn start() -> Setup<Self>;

    /// Whether the piece of `color` showing `kind`, moving `from` `to`, flips or promotes.
    /// `capture` tells whether the destination holds an enemy piece.
    ///
    /// The default implements standard-shogi promotion by [`Variant::PROMOTION_ZONE`]:
    /// [`Flip::Never`] without a zone, for a piece without another face and for a promoted
    /// face; [`Flip::Always`] when the move starts or ends in the zone and the piece could
    /// never move again from `to`; [`Flip::Optional`] for other moves that start or end in
    /// the zone. Override it only in a variant without a promotion zone (see
    /// [`Variant::PROMOTION_ZONE`]).
    #[inline(always)]
    fn flip(kind: Kind, color: Color, from: Square, to: Square, _capture: bool) -> Flip {
        if Self::PROMOTION_ZONE == 0 || <Self as Derived>::PROMOTES & (1 << kind.index()) == 0 {
            return Flip::Never;
        }
        let zone = <Self as Derived>::ZONE[color.index()];
        if !zone.has(from) && !zone.has(to) {
            Flip::Never
        } else if Self::PROMOTION_COMPULSORY
            || Self::tables().dead[color.index()][kind.index()].has(to)
        {
            Flip::Always
        } else {
            Flip::Optional
        }
    }

    /// The set limits of a group (see [`PieceDef::group`]).
    fn group_limit(group: u8) -> GroupLimit;

    /// Where a drop of `kind` by `color` may land, given the empty squares. The default allows
    /// every empty square.
    #[inline(always)]
    fn drop_targets(
        _pos: &Position<Self>,
        _color: Color,
        _kind: Kind,
        empty: Bitboard,
    ) -> Bitboard {
        empty
    }

    /// Whether `piece` may stand on `sq` in a valid setup. Default: anywhere.
    fn placement_allowed(_piece: Piece, _sq: Square) -> bool {
        true
    }

    /// Extra validity checks on a setup, after core's own.
    fn validate(_setup: &Setup<Self>) -> Result<(), PositionError> {
        Ok(())
    }

    /// Hash contribution of the extra state (0 for the default state).
    fn extra_hash(_extra: Self::Extra) -> u64 {
        0
    }

    /// Called after every move is made, with the mover and the captured piece, to update the
    /// extra state (through [`Position::set_extra`]).
    #[inline(always)]
    fn after_move(_pos: &mut Position<Self>, _mover: Color, _captured: Option<Piece>) {}

    /// A result that ends the game in this position before any move (king entry, an expired
    /// countdown). A position with a result has no legal moves. It must not depend on
    /// [`Position::hash`], which perft does not keep up to date below its root (nor may
    /// [`Variant::after_move`] read it).
    #[inline(always)]
    fn adjudicate(_pos: &Position<Self>) -> Option<Outcome> {
        None
    }

    /// Whether [`Variant::adjudicate`] is sure to find nothing once the side to move in `pos`
    /// (a position it did not decide) has put a piece showing `now` on `to`, moved from
    /// `from` or dropped (`None`), capturing nothing royal. Answering true also promises that
    /// [`Variant::drop_targets`] of the other side reads nothing of the position but the
    /// empty squares it is given. Perft then counts the replies to such a move without
    /// making it, where the replies follow from the position before the move: in a variant
    /// without the check rule, sliders and optional flips; and in a variant with the check
    /// rule and sliders (but no ranged slides), for a move that captures nothing and gives
    /// no check. Debug builds check the count against the position after the move. The
    /// default, false, is always right.
    #[inline(always)]
    fn no_adjudication_after(
        _pos: &Position<Self>,
        _from: Option<Square>,
        _to: Square,
        _now: Kind,
    ) -> bool {
        false
    }

    /// Reads the text form of the variant state (the fifth SFEN field, such as Kinzoku's
    /// `b3`). The error says what is wrong, in words a user understands. The default accepts
    /// nothing: a variant without state has no such field.
    fn parse_extra(field: &str) -> Result<Self::Extra, ExtraError> {
        Err(ExtraError::new(format!(
            "unexpected field `{field}`: {} has no variant state",
            Self::DISPLAY_NAME
        )))
    }

    /// The text form of the variant state, or `None` when nothing is written (the default
    /// state). Must read back with [`Variant::parse_extra`].
    fn format_extra(_extra: Self::Extra) -> Option<String> {
        None
    }

    /// The variant state in words for people (a diagram's status line), or `None` for the
    /// default state. The default: `state: ` and the text form.
    fn describe_extra(extra: Self::Extra) -> Option<String> {
        Self::format_extra(extra).map(|field| format!("state: {field}"))
    }

    /// Whether a field of position text is this variant's state rather than a ply number
    /// (so that the ply may be left out before it).
    fn is_extra_field(_field: &str) -> bool {
        false
    }
}

/// The destinations to which a move of the piece of `color` showing `kind` from `from` may
/// be made both promoting and not, by the promotion zone's rule (the default
/// [`Variant::flip`]): every destination when the move starts in the zone, the zone's squares
/// otherwise, but not the squares from which the piece could never move again (there it must
/// promote). Empty for a kind that does not promote.
#[inline(always)]
pub(crate) fn optional_promotions<V: Variant>(kind: Kind, color: Color, from: Square) -> Bitboard {
    if V::PROMOTION_COMPULSORY || <V as Derived>::PROMOTES & (1 << kind.index()) == 0 {
        return Bitboard::EMPTY;
    }
    let t = V::tables();
    let zone = <V as Derived>::ZONE[color.index()];
    let reach = if zone.has(from) { t.board } else { zone };
    reach & !t.dead[color.index()][kind.index()]
}

/// What a variant is called and what shape its board has, as a value: a runtime summary of
/// a [`Variant`]'s naming constants, for code that chooses among variants by name or by
/// board size (a registry of variants, a KIF reader looking at a `手合割` header).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    /// [`Variant::NAME`].
    pub name: &'static str,
    /// [`Variant::DISPLAY_NAME`].
    pub display_name: &'static str,
    /// [`Variant::ALIASES`].
    pub aliases: &'static [&'static str],
    /// [`Variant::KIF_NAMES`].
    pub kif_names: &'static [&'static str],
    /// [`Variant::GEOMETRY`].
    pub geometry: Geometry,
}

impl VariantInfo {
    /// The summary of `V`.
    pub const fn of<V: Variant>() -> VariantInfo {
        VariantInfo {
            name: V::NAME,
            display_name: V::DISPLAY_NAME,
            aliases: V::ALIASES,
            kif_names: V::KIF_NAMES,
            geometry: V::GEOMETRY,
        }
    }

    /// Whether `name` is this variant's name or one of its aliases, ignoring ASCII case.
    pub fn is_named(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
            || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    }

    /// Whether `value` is one of the variant's KIF `手合割` names.
    pub fn is_kif_name(&self, value: &str) -> bool {
        self.kif_names.contains(&value)
    }

    /// The `手合割` name written in KIF records: the first of [`VariantInfo::kif_names`], or
    /// the display name for a variant that has none.
    pub fn kif_name(&self) -> &'static str {
        self.kif_names.first().copied().unwrap_or(self.display_name)
    }
}

/// Whether any piece of the table slides (moves any distance along a line, or a limited
/// distance with a ranged slide).
pub(crate) const fn pieces_slide(pieces: &[PieceDef]) -> bool {
    let mut k = 0;
    while k < pieces.len() {
        if !pieces[k].movement.slides.is_empty() || !pieces[k].movement.ranged.is_empty() {
            return true;
        }
        k += 1;
    }
    false
}

/// Whether any piece of the table has a step that jumps along one of the eight lines (two
/// squares straight or diagonally, as Tori's pheasant and goose do): a check by such a jump
/// has squares between the pieces but cannot be blocked.
pub(crate) const fn pieces_jump_along_lines(pieces: &[PieceDef]) -> bool {
    let mut k = 0;
    while k < pieces.len() {
        let steps = pieces[k].movement.steps;
        let mut i = 0;
        while i < steps.len() {
            let (dx, dy) = steps[i];
            let (ax, ay) = (dx.unsigned_abs(), dy.unsigned_abs());
            if (ax > 1 || ay > 1) && (ax == 0 || ay == 0 || ax == ay) {
                return true;
            }
            i += 1;
        }
        k += 1;
    }
    false
}

/// Whether any piece of the table has a slide of limited range ([`crate::Movement::ranged`]).
pub(crate) const fn pieces_range(pieces: &[PieceDef]) -> bool {
    let mut k = 0;
    while k < pieces.len() {
        if !pieces[k].movement.ranged.is_empty() {
            return true;
        }
        k += 1;
    }
    false
}

/// Whether the variant has drops: some piece of its table can be held in hand. A constant
/// for code above core that chooses by it (the engine's search switches, for one).
pub const fn has_drops<V: Variant>() -> bool {
    pieces_drop(V::PIECES)
}

/// Whether any piece of the table can be held in hand (so that the variant has drops).
pub(crate) const fn pieces_drop(pieces: &[PieceDef]) -> bool {
    let mut k = 0;
    while k < pieces.len() {
        if pieces[k].hand_slot.is_some() {
            return true;
        }
        k += 1;
    }
    false
}

/// `[kind]`: the face a piece of that kind shows after flipping (itself if it has no other).
pub(crate) const fn flip_table(pieces: &[PieceDef]) -> [Kind; MAX_KINDS] {
    let mut table = [Kind(0); MAX_KINDS];
    let mut k = 0;
    while k < pieces.len() {
        table[k] = match pieces[k].flips_to {
            Some(f) => f,
            None => Kind(k as u8),
        };
        k += 1;
    }
    table
}

/// Kinds (bit mask) that may promote: they have another face and are not a promoted face.
pub(crate) const fn promotes_mask(pieces: &[PieceDef]) -> u16 {
    let mut mask = 0;
    let mut k = 0;
    while k < pieces.len() {
        if pieces[k].flips_to.is_some() && !pieces[k].promoted {
            mask |= 1 << k;
        }
        k += 1;
    }
    mask
}

/// Kinds (bit mask) that are promoted faces.
pub(crate) const fn promoted_mask(pieces: &[PieceDef]) -> u16 {
    let mut mask = 0;
    let mut k = 0;
    while k < pieces.len() {
        if pieces[k].promoted {
            mask |= 1 << k;
        }
        k += 1;
    }
    mask
}

/// `[color]`: the promotion zone, the `ranks` farthest ranks of each color.
pub(crate) const fn zone_masks(g: Geometry, ranks: u8) -> [Bitboard; 2] {
    let n = g.squares();
    let ranks = if ranks > g.height { g.height } else { ranks };
    let k = ranks as usize * g.width as usize;
    let black = Bitboard::first(k);
    let white = Bitboard(Bitboard::first(n).0 & !Bitboard::first(n - k).0);
    [black, white]
}

/// `[kind]`: the hand slot a captured piece of that kind goes to, or `u8::MAX` for none.
pub(crate) const fn slot_table(pieces: &[PieceDef]) -> [u8; MAX_KINDS] {
    let mut table = [u8::MAX; MAX_KINDS];
    let mut k = 0;
    while k < pieces.len() {
        if let Some(slot) = pieces[k].hand_slot {
            table[k] = slot;
        }
        k += 1;
    }
    table
}

/// `[slot]`: the faces (bit mask of kinds) that a piece held in that hand slot can be dropped
/// as: the kinds of the slot, less those in `not_dropped`.
pub(crate) const fn drop_faces(pieces: &[PieceDef], not_dropped: u16) -> [u16; MAX_SLOTS] {
    let mut table = [0; MAX_SLOTS];
    let mut k = 0;
    while k < pieces.len() {
        if let Some(slot) = pieces[k].hand_slot {
            if (slot as usize) < MAX_SLOTS && not_dropped & (1 << k) == 0 {
                table[slot as usize] |= 1 << k;
            }
        }
        k += 1;
    }
    table
}

/// Facts about a variant that core derives from its piece table at compile time, so that
/// the monomorphised hot path can leave out whole branches (slider and pin detection, drops,
/// hand updates). Implemented for every [`Variant`] by a blanket impl, so no variant can set
/// them to anything but the truth.
pub(crate) trait Derived: Variant {
    /// Some piece slides (or has a ranged slide): pins exist, and attacks depend on the
    /// occupancy.
    const SLIDERS: bool;
    /// Some piece has a ranged slide ([`crate::Movement::ranged`]); without one, the code
    /// that follows ranged slides compiles away.
    const RANGED: bool;
    /// Some piece jumps along a line (see [`pieces_jump_along_lines`]): a check by it is
    /// not blocked by a piece between.
    const LINE_JUMPS: bool;
    /// Some piece can be held in hand: drops exist, and hands are not always empty.
    const DROPS: bool;
    /// [`PieceDef::flips_to`] by kind, as a table (see [`flip_table`]).
    const FLIPS_TO: [Kind; MAX_KINDS];
    /// [`PieceDef::hand_slot`] by kind, as a table (see [`slot_table`]).
    const HAND_SLOT: [u8; MAX_KINDS];
    /// Kinds (bit mask) that may promote in the zone (see [`promotes_mask`]).
    const PROMOTES: u16;
    /// The promotion zone by color (see [`zone_masks`]).
    const ZONE: [Bitboard; 2];
    /// Some drop restriction is declared.
    const DROP_LIMITS: bool;
    /// Kinds (bit mask) that are never dropped: with a promotion zone, the promoted faces
    /// ([`PieceDef::promoted`]), which go to hand as their base face.
    const NOT_DROPPED: u16;
    /// The faces each hand slot is dropped as (see [`drop_faces`]).
    const DROP_FACES: [u16; MAX_SLOTS];
}

impl<V: Variant> Derived for V {
    const SLIDERS: bool = pieces_slide(V::PIECES);
    const RANGED: bool = pieces_range(V::PIECES);
    const LINE_JUMPS: bool = pieces_jump_along_lines(V::PIECES);
    const DROPS: bool = pieces_drop(V::PIECES);
    const FLIPS_TO: [Kind; MAX_KINDS] = flip_table(V::PIECES);
    const HAND_SLOT: [u8; MAX_KINDS] = slot_table(V::PIECES);
    const PROMOTES: u16 = promotes_mask(V::PIECES);
    const ZONE: [Bitboard; 2] = zone_masks(V::GEOMETRY, V::PROMOTION_ZONE);
    const NOT_DROPPED: u16 = if V::PROMOTION_ZONE > 0 {
        promoted_mask(V::PIECES)
    } else {
        0
    };
    const DROP_FACES: [u16; MAX_SLOTS] = drop_faces(V::PIECES, <V as Derived>::NOT_DROPPED);
    const DROP_LIMITS: bool = V::DROP_RULES.no_dead_drops
        || (V::DROP_RULES.pawn.is_some()
            && (V::DROP_RULES.nifu || V::DROP_RULES.no_pawn_drop_mate));
}
