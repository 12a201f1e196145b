//! # kshogi-rules-kinzoku
//!
//! Kinzoku Shogi as a [`kshogi_core::Variant`]: a 3x5 board; king, silver, copper and
//! soldier (which promotes to gold, mandatorily, on its farthest rank); no drops, captured
//! pieces leave the game.
//!
//! A game is won by checkmate, by king entry (a king move onto the mover's farthest rank wins
//! at once), or by surviving the bare-king countdown: when a side's last non-king piece is
//! captured, the capturing side must win within its next five moves, or the side with the
//! lone king wins. Only the first countdown of a game counts. Stalemate is a draw, and so is
//! the third occurrence of a position (board, side to move, countdown).
//!
//! This crate depends on `kshogi-core` only; it must not depend on notation, the engine, the
//! registry or the CLI, and knows nothing of the other variants.

use kshogi_core::{
    Bitboard, Color, ExtraError, Flip, Geometry, GroupLimit, Kind, Movement, Outcome, Piece,
    PieceDef, Position, PositionError, RepetitionRule, Setup, Square, StalemateRule, Tables,
    Variant, WinReason,
};

/// The king.
pub const KING: Kind = Kind(0);
/// Silver general.
pub const SILVER: Kind = Kind(1);
/// Copper general: one step straight forward, straight backward, or diagonally forward.
pub const COPPER: Kind = Kind(2);
/// Soldier (iron general): one step straight forward or sideways.
pub const SOLDIER: Kind = Kind(3);
/// Promoted soldier, written `+I`; moves as a gold.
pub const GOLD: Kind = Kind(4);

/// Number of own moves the capturing side has to win once the countdown starts.
pub const COUNTDOWN_MOVES: u8 = 5;

const COPPER_MOVES: Movement = Movement {
    steps: &[(0, 1), (0, -1), (1, 1), (-1, 1)],
    slides: &[],
    ranged: &[],
};
const SOLDIER_MOVES: Movement = Movement {
    steps: &[(0, 1), (1, 0), (-1, 0)],
    slides: &[],
    ranged: &[],
};

/// The piece table.
pub const PIECES: &[PieceDef] = &[
    PieceDef::new("king", 'K', '玉', "玉", Movement::KING)
        .royal()
        .kif_aliases(&["王"]),
    PieceDef::new("silver", 'S', '銀', "銀", Movement::SILVER).group(1),
    PieceDef::new("copper", 'C', '銅', "銅", COPPER_MOVES).group(2),
    PieceDef::new("soldier", 'I', '鉄', "鉄", SOLDIER_MOVES)
        .flips_to(GOLD)
        .group(3),
    PieceDef::new("promoted soldier", 'I', '金', "金", Movement::GOLD)
        .written_promoted()
        .group(3),
];

const GEOMETRY: Geometry = Geometry::new(3, 5);
static TABLES: Tables = Tables::build(GEOMETRY, PIECES, 0x4B49_4E5A_4F00_0003);

/// The running bare-king countdown: `side` must win within its next `moves_left` moves.
///
/// `moves_left` is 1 to 5 while the game goes on; 0 after the fifth move has been played
/// without ending the game, in which position the side with the lone king has won (unless
/// that fifth move checkmated or stalemated it).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Countdown {
    /// The side that captured the last non-king piece of the other side.
    pub side: Color,
    /// Own moves it has left to win.
    pub moves_left: u8,
}

/// Kinzoku Shogi.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Kinzoku;

fn non_king(pos: &Position<Kinzoku>, c: Color) -> Bitboard {
    pos.color_bb(c) & !pos.kind_bb(KING)
}

impl Variant for Kinzoku {
    const NAME: &'static str = "kinzoku";
    const DISPLAY_NAME: &'static str = "Kinzoku Shogi";
    const ALIASES: &'static [&'static str] = &["kinzokushogi", "kinzoku-shogi"];
    const KIF_NAMES: &'static [&'static str] = &["金属将棋", "kinzokushogi"];
    const GEOMETRY: Geometry = GEOMETRY;
    const PIECES: &'static [PieceDef] = PIECES;
    const STALEMATE: StalemateRule = StalemateRule::Draw;
    const REPETITION: RepetitionRule = RepetitionRule {
        occurrences: 3,
        perpetual_check_loses: false,
        repeater_loses: false,
    };
    const HAS_ADJUDICATION: bool = true;
    type Extra = Option<Countdown>;

    #[inline(always)]
    fn tables() -> &'static Tables {
        &TABLES
    }

    fn start() -> Setup<Kinzoku> {
        let mut s = Setup::empty();
        // Black: silver 3e, king 2e, copper 1e, soldier 2d; White is the image.
        let back = [SILVER, KING, COPPER];
        for (i, &k) in back.iter().enumerate() {
            s.put(3 - i as u8, 4, Color::Black, k);
            s.put(1 + i as u8, 0, Color::White, k);
        }
        s.put(2, 3, Color::Black, SOLDIER);
        s.put(2, 1, Color::White, SOLDIER);
        s
    }

    #[inline(always)]
    fn flip(kind: Kind, color: Color, _: Square, to: Square, _: bool) -> Flip {
        if kind == SOLDIER && TABLES.farthest_rank[color.index()].has(to) {
            Flip::Always
        } else {
            Flip::Never
        }
    }

    fn group_limit(_group: u8) -> GroupLimit {
        GroupLimit {
            total: 2,
            per_side: 1,
        }
    }

    fn placement_allowed(piece: Piece, sq: Square) -> bool {
        !(piece.kind == SOLDIER && TABLES.farthest_rank[piece.color.index()].has(sq))
    }

    fn validate(setup: &Setup<Kinzoku>) -> Result<(), PositionError> {
        let kings_home = Color::ALL.iter().all(|&c| {
            setup.board.iter().enumerate().any(|(i, p)| {
                *p == Some(Piece::new(c, KING))
                    && TABLES.farthest_rank[c.index()].has(Square(i as u8))
            })
        });
        if kings_home {
            return Err(PositionError::Variant(
                "both kings stand on their farthest ranks; the game ended before".into(),
            ));
        }
        if let Some(cd) = setup.extra {
            if cd.moves_left > COUNTDOWN_MOVES {
                return Err(PositionError::Variant(format!(
                    "countdown {} is out of range 0..={COUNTDOWN_MOVES}",
                    cd.moves_left
                )));
            }
            if cd.moves_left == 0 && setup.side == cd.side {
                return Err(PositionError::Variant(format!(
                    "an expired countdown of {} is only possible with the lone king's side to move",
                    cd.side
                )));
            }
            let lone = !cd.side;
            let has_others = setup
                .board
                .iter()
                .flatten()
                .any(|p| p.color == lone && p.kind != KING);
            if has_others {
                return Err(PositionError::Variant(format!(
                    "a countdown for {} runs, but {} has more than its king",
                    cd.side, lone
                )));
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn extra_hash(extra: Option<Countdown>) -> u64 {
        match extra {
            None => 0,
            Some(cd) => TABLES.z_extra[cd.side.index() * 8 + cd.moves_left as usize],
        }
    }

    #[inline(always)]
    fn after_move(pos: &mut Position<Kinzoku>, mover: Color, captured: Option<Piece>) {
        match pos.extra() {
            Some(cd) => {
                if cd.side == mover && cd.moves_left > 0 {
                    pos.set_extra(Some(Countdown {
                        side: cd.side,
                        moves_left: cd.moves_left - 1,
                    }));
                }
            }
            None => {
                if captured.is_some() && non_king(pos, !mover).is_empty() {
                    pos.set_extra(Some(Countdown {
                        side: mover,
                        moves_left: COUNTDOWN_MOVES,
                    }));
                }
            }
        }
    }

    #[inline(always)]
    fn adjudicate(pos: &Position<Kinzoku>) -> Option<Outcome> {
        // Fast path, taken at almost every node: no king home and no countdown.
        let kings = pos.kind_bb(KING);
        let home = (kings & pos.color_bb(Color::Black) & TABLES.farthest_rank[0])
            | (kings & pos.color_bb(Color::White) & TABLES.farthest_rank[1]);
        if home.is_empty() && pos.extra().is_none() {
            return None;
        }
        for c in Color::ALL {
            if TABLES.farthest_rank[c.index()].has(pos.king(c)) {
                return Some(Outcome::Win {
                    winner: c,
                    reason: WinReason::KingEntry,
                });
            }
        }
        match pos.extra() {
            Some(cd) if cd.moves_left == 0 => {
                if pos.has_legal_move_unadjudicated() {
                    Some(Outcome::Win {
                        winner: !cd.side,
                        reason: WinReason::BareKing,
                    })
                } else {
                    Some(pos.no_move_outcome())
                }
            }
            _ => None,
        }
    }

    /// The countdown is written `b<n>` or `w<n>`: the counting side and its moves left.
    fn parse_extra(field: &str) -> Result<Option<Countdown>, ExtraError> {
        let mut chars = field.chars();
        let side = match chars.next() {
            Some('b') => Color::Black,
            Some('w') => Color::White,
            _ => {
                return Err(ExtraError::new(format!(
                    "countdown `{field}` must be `b` or `w` followed by the moves left"
                )))
            }
        };
        let rest = chars.as_str();
        if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ExtraError::new(format!(
                "countdown `{field}` needs a number of moves after the side"
            )));
        }
        if rest.len() > 1 && rest.starts_with('0') {
            return Err(ExtraError::new(format!(
                "countdown `{field}`: write the moves left without a leading zero"
            )));
        }
        // Any longer run of digits is out of range too (`b255` as `b6`).
        let n = rest.parse::<u8>().unwrap_or(u8::MAX);
        if n > COUNTDOWN_MOVES {
            return Err(ExtraError::new(format!(
                "countdown `{field}`: moves left must be 1 to {COUNTDOWN_MOVES} (0 once expired)"
            )));
        }
        Ok(Some(Countdown {
            side,
            moves_left: n,
        }))
    }

    fn format_extra(extra: Option<Countdown>) -> Option<String> {
        extra.map(|cd| {
            let side = if cd.side == Color::Black { 'b' } else { 'w' };
            format!("{side}{}", cd.moves_left)
        })
    }

    fn describe_extra(extra: Option<Countdown>) -> Option<String> {
        let cd = extra?;
        let field = Self::format_extra(extra)?;
        Some(match cd.moves_left {
            0 => format!(
                "countdown: expired, {} did not win in time ({field})",
                cd.side
            ),
            1 => format!(
                "countdown: {} must win with its next move ({field})",
                cd.side
            ),
            n => format!(
                "countdown: {} must win within its next {n} moves ({field})",
                cd.side
            ),
        })
    }

    fn is_extra_field(field: &str) -> bool {
        field.starts_with('b') || field.starts_with('w')
    }
}
