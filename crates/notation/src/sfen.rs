//! SFEN: `<board> <side> <hands> [<ply>] [<countdown>]`.

use kshogi_core::{
    Color, ExtraError, Kind, Piece, Position, PositionError, Setup, Variant, MAX_SLOTS,
};
use std::fmt::Write as _;

/// What is wrong with an SFEN text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SfenErrorKind {
    /// Nothing to read.
    #[error("empty position")]
    Empty,
    /// Too few or too many fields.
    #[error("{0}")]
    Fields(String),
    /// A problem in the board field.
    #[error("board: {0}")]
    Board(String),
    /// The side-to-move field is not `b` or `w`.
    #[error("side to move must be `b` or `w`, found `{0}`")]
    Side(String),
    /// A problem in the hands field.
    #[error("hands: {0}")]
    Hands(String),
    /// The ply field is not a positive number (written without leading zeros).
    #[error("ply must be a whole number from 1 to 1000000000 without leading zeros, found `{0}`")]
    Ply(String),
    /// The variant-state field is wrong.
    #[error("{0}")]
    Extra(ExtraError),
    /// The text is well-formed but the position is not valid.
    #[error("invalid position: {0}")]
    Invalid(PositionError),
}

/// An SFEN error with the column (in characters, from 1) where the problem starts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {kind}")]
pub struct SfenError {
    /// Column of the offending field or character, counting from 1.
    pub column: usize,
    /// What is wrong.
    pub kind: SfenErrorKind,
}

fn err(column: usize, kind: SfenErrorKind) -> SfenError {
    SfenError { column, kind }
}

/// Whitespace-separated words with their starting columns (1-based, in characters).
pub(crate) fn words(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte, column)
    for (col, (byte, ch)) in text.char_indices().enumerate() {
        if ch.is_whitespace() {
            if let Some((b, c)) = start.take() {
                out.push((c + 1, &text[b..byte]));
            }
        } else if start.is_none() {
            start = Some((byte, col));
        }
    }
    if let Some((b, c)) = start {
        out.push((c + 1, &text[b..]));
    }
    out
}

/// The fields of a position text: [`words`], with `_` also separating fields as in lishogi
/// URLs (`pgkst/5/5/5/TSKGP_b_-_1`). In the first word a `_` separates only after the
/// board's last `/`, so a `_` inside the board stays an unknown piece.
fn sfen_fields(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    for (n, (col, word)) in words(text).into_iter().enumerate() {
        let from = if n == 0 {
            word.rfind('/').map_or(0, |i| i + 1)
        } else {
            0
        };
        let mut start = 0; // byte offset of the current field in `word`
        let mut start_col = col;
        for (c, (byte, ch)) in word.char_indices().enumerate() {
            if ch == '_' && byte >= from {
                if byte > start {
                    out.push((start_col, &word[start..byte]));
                }
                start = byte + 1;
                start_col = col + c + 1;
            }
        }
        if start < word.len() {
            out.push((start_col, &word[start..]));
        }
    }
    out
}

/// Splits a board field `<board>[<hand>]` (Fairy-Stockfish / pychess-variants FEN) into the
/// board and the hand text with the hand's column; `None` when there are no brackets.
fn split_brackets(col: usize, board: &str) -> Option<(&str, usize, &str)> {
    let open = board.find('[')?;
    let inner = board[open + 1..].strip_suffix(']')?;
    let hand_col = col + board[..open].chars().count() + 1;
    Some((&board[..open], hand_col, inner))
}

/// The board shape `(width, height)` an SFEN's board field describes, without knowing the
/// variant; `startpos` has none and is an error. Used to pick the variant by board size.
pub fn board_shape(text: &str) -> Result<(u8, u8), SfenError> {
    let ws = sfen_fields(text);
    let mut i = 0;
    if ws.first().map(|w| w.1) == Some("sfen") {
        i = 1;
    }
    let Some(&(col, board)) = ws.get(i) else {
        return Err(err(1, SfenErrorKind::Empty));
    };
    let board = split_brackets(col, board).map_or(board, |b| b.0);
    if board == "startpos" {
        return Err(err(
            col,
            SfenErrorKind::Fields(
                "`startpos` has no board, so it does not say which variant".into(),
            ),
        ));
    }
    let rows: Vec<&str> = board.split('/').collect();
    let mut width = None;
    let mut offset = col;
    for (rank, row) in rows.iter().enumerate() {
        let row_col = offset;
        let mut w = 0usize;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                w += d as usize;
            } else if ch.is_ascii_alphabetic() {
                w += 1;
            } else if ch != '+' {
                return Err(err(
                    offset,
                    SfenErrorKind::Board(format!("unexpected character `{ch}`")),
                ));
            }
            offset += 1;
        }
        offset += 1;
        match width {
            None => width = Some(w),
            Some(x) if x != w => {
                let name = u8::try_from(rank).ok().filter(|r| *r < 26).map_or_else(
                    || format!("row {}", rank + 1),
                    |r| format!("rank {}", (b'a' + r) as char),
                );
                return Err(err(
                    row_col,
                    SfenErrorKind::Board(format!("{name} has {w} squares, but rank a has {x}")),
                ));
            }
            _ => {}
        }
    }
    let width = width.unwrap_or(0);
    if width == 0 || width > 9 || rows.len() > 26 {
        return Err(err(
            col,
            SfenErrorKind::Board(format!("no board is {} by {}", width, rows.len())),
        ));
    }
    Ok((width as u8, rows.len() as u8))
}

/// Looks up a piece written as `X`, `x`, `+X` or an alias; returns its color and kind.
pub(crate) fn lookup_piece<V: Variant>(text: &str) -> Option<Piece> {
    let (promoted, letter) = match text.strip_prefix('+') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let mut chars = letter.chars();
    let ch = chars.next()?;
    if chars.next().is_some() || !ch.is_ascii_alphabetic() {
        return None;
    }
    let color = if ch.is_ascii_uppercase() {
        Color::Black
    } else {
        Color::White
    };
    let upper = ch.to_ascii_uppercase();
    for (i, def) in V::PIECES.iter().enumerate() {
        let kind = Kind(i as u8);
        if def.letter == upper && def.promoted == promoted {
            return Some(Piece::new(color, kind));
        }
    }
    let canonical = format!("{}{}", if promoted { "+" } else { "" }, upper);
    for (i, def) in V::PIECES.iter().enumerate() {
        if def.aliases.iter().any(|a| *a == canonical) {
            return Some(Piece::new(color, Kind(i as u8)));
        }
    }
    None
}

/// Which form of SFEN and USI text is written.
///
/// Reading always accepts both; writing is one or the other.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// kshogi's own form (NOTATION.md): the canonical letters of every face.
    #[default]
    Canonical,
    /// What the reference engine (Fairy-Stockfish) writes and reads for the variant: a face
    /// that has aliases is written by its first alias, a hand pair by its face written
    /// without `+` there, and a move that turns a piece back to that face gets `-`.
    Fsf,
    /// What pychess-variants writes and reads: the letters and marks of [`Dialect::Fsf`],
    /// positions as its FEN (`<board>[<hand>] <w|b> 0 <move number>`, `w` the first player,
    /// the hand in brackets with a letter per piece, `[-]` when both are empty) and moves in
    /// UCI coordinates (`e1e2+`, `+L@c3`; see [`crate::uci`]). Only for output: it is not
    /// one of [`Dialect::ALL`], the dialects an engine speaks.
    Pychess,
}

impl Dialect {
    /// The dialects an engine speaks (USI and the `--engine-dialect` of a counter),
    /// canonical first; [`Dialect::Pychess`] is an output form only ([`Dialect::WRITTEN`]).
    pub const ALL: [Dialect; 2] = [Dialect::Canonical, Dialect::Fsf];

    /// Every form the command line writes: [`Dialect::ALL`] and [`Dialect::Pychess`].
    pub const WRITTEN: [Dialect; 3] = [Dialect::Canonical, Dialect::Fsf, Dialect::Pychess];

    /// The name used on the command line: `canonical`, `fsf` or `pychess`.
    pub const fn name(self) -> &'static str {
        match self {
            Dialect::Canonical => "canonical",
            Dialect::Fsf => "fsf",
            Dialect::Pychess => "pychess",
        }
    }

    /// Whether pieces are written with the reference engine's letters ([`Dialect::Fsf`] and
    /// [`Dialect::Pychess`]).
    pub const fn engine_letters(self) -> bool {
        matches!(self, Dialect::Fsf | Dialect::Pychess)
    }
}

impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A dialect name that is neither `canonical` nor `fsf`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown dialect `{0}`: the dialects are `canonical` and `fsf`")]
pub struct UnknownDialect(pub String);

impl std::str::FromStr for Dialect {
    type Err = UnknownDialect;

    fn from_str(s: &str) -> Result<Dialect, UnknownDialect> {
        Dialect::ALL
            .into_iter()
            .find(|d| d.name() == s)
            .ok_or_else(|| UnknownDialect(s.to_string()))
    }
}

/// The uppercase letters of a face in `dialect` (`T`; `+L` for a Kyoto tokin in Fsf).
pub(crate) fn face_letters<V: Variant>(kind: Kind, dialect: Dialect) -> String {
    let def = &V::PIECES[kind.index()];
    match (dialect, def.aliases.first()) {
        (Dialect::Fsf | Dialect::Pychess, Some(alias)) => (*alias).to_string(),
        _ if def.promoted => format!("+{}", def.letter),
        _ => def.letter.to_string(),
    }
}

/// Whether `dialect` writes the face as a promoted piece (with a leading `+`).
pub(crate) fn is_promoted_face<V: Variant>(kind: Kind, dialect: Dialect) -> bool {
    face_letters::<V>(kind, dialect).starts_with('+')
}

/// The letters of a piece in `dialect`, lowercase for White (`T`, `l`, `+I`, `+p`).
pub(crate) fn piece_letters_in<V: Variant>(p: Piece, dialect: Dialect) -> String {
    let s = face_letters::<V>(p.kind, dialect);
    if p.color == Color::Black {
        s
    } else {
        s.to_ascii_lowercase()
    }
}

/// The face a hand slot is written by: face A in the canonical dialect; in Fsf the first
/// face the dialect writes unpromoted (the reference engine holds the base piece).
fn hand_face<V: Variant>(slot: usize, dialect: Dialect) -> Kind {
    let t = V::tables();
    let faces = &t.slot_faces[slot][..t.slot_faces_len[slot] as usize];
    match dialect {
        Dialect::Canonical => faces[0],
        Dialect::Fsf | Dialect::Pychess => faces
            .iter()
            .copied()
            .find(|&k| !is_promoted_face::<V>(k, dialect))
            .unwrap_or(faces[0]),
    }
}

/// The canonical SFEN letters of a piece (`T`, `l`, `+I`).
pub(crate) fn piece_letters<V: Variant>(p: Piece) -> String {
    let def = &V::PIECES[p.kind.index()];
    let ch = if p.color == Color::Black {
        def.letter
    } else {
        def.letter.to_ascii_lowercase()
    };
    if def.promoted {
        format!("+{ch}")
    } else {
        ch.to_string()
    }
}

fn parse_board<V: Variant>(setup: &mut Setup<V>, col: usize, board: &str) -> Result<(), SfenError> {
    let g = V::GEOMETRY;
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != g.height as usize {
        return Err(err(
            col,
            SfenErrorKind::Board(format!(
                "{} has {} ranks, found {} rows",
                V::DISPLAY_NAME,
                g.height,
                rows.len()
            )),
        ));
    }
    let mut column = col;
    for (rank, row) in rows.iter().enumerate() {
        let row_col = column;
        let mut file = g.width as i32; // next file to fill, counting down to 1
        let chars: Vec<char> = row.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let here = column + i;
            let ch = chars[i];
            if let Some(d) = ch.to_digit(10) {
                if d == 0 {
                    return Err(err(
                        here,
                        SfenErrorKind::Board("`0` is not a run of empty squares".into()),
                    ));
                }
                // One digit per run (no board is wider than 9): `14` is no way to write 5.
                if let Some(prev) = i
                    .checked_sub(1)
                    .map(|p| chars[p])
                    .filter(char::is_ascii_digit)
                {
                    return Err(err(
                        here,
                        SfenErrorKind::Board(format!(
                            "rank {}: digits `{prev}{ch}` in a row; a run of empty squares is \
                             one digit",
                            (b'a' + rank as u8) as char
                        )),
                    ));
                }
                file -= d as i32;
                i += 1;
            } else {
                let (text, len) = if ch == '+' {
                    match chars.get(i + 1) {
                        Some(&c) if c.is_ascii_alphabetic() => (format!("+{c}"), 2),
                        _ => {
                            return Err(err(
                                here,
                                SfenErrorKind::Board(
                                    "`+` must be followed by a piece letter".into(),
                                ),
                            ))
                        }
                    }
                } else {
                    (ch.to_string(), 1)
                };
                let Some(piece) = lookup_piece::<V>(&text) else {
                    return Err(err(
                        here,
                        SfenErrorKind::Board(format!(
                            "unknown piece `{text}` for {}",
                            V::DISPLAY_NAME
                        )),
                    ));
                };
                if file < 1 {
                    return Err(err(
                        here,
                        SfenErrorKind::Board(format!(
                            "rank {} is longer than {} squares",
                            (b'a' + rank as u8) as char,
                            g.width
                        )),
                    ));
                }
                let sq = g
                    .square(file as u8, rank as u8)
                    .expect("file and rank checked");
                setup.board[sq.index()] = Some(piece);
                file -= 1;
                i += len;
            }
            if file < 0 {
                return Err(err(
                    here,
                    SfenErrorKind::Board(format!(
                        "rank {} is longer than {} squares",
                        (b'a' + rank as u8) as char,
                        g.width
                    )),
                ));
            }
        }
        if file != 0 {
            return Err(err(
                row_col,
                SfenErrorKind::Board(format!(
                    "rank {} has {} squares, {} needs {}",
                    (b'a' + rank as u8) as char,
                    g.width as i32 - file,
                    V::DISPLAY_NAME,
                    g.width
                )),
            ));
        }
        column += chars.len() + 1;
    }
    Ok(())
}

fn parse_hands<V: Variant>(setup: &mut Setup<V>, col: usize, hands: &str) -> Result<(), SfenError> {
    if hands == "-" {
        return Ok(());
    }
    let t = V::tables();
    if t.slots == 0 {
        return Err(err(
            col,
            SfenErrorKind::Hands(format!(
                "{} has no drops, so the hands field must be `-`",
                V::DISPLAY_NAME
            )),
        ));
    }
    let chars: Vec<char> = hands.chars().collect();
    let mut i = 0;
    let mut counts = [[0u32; MAX_SLOTS]; 2];
    while i < chars.len() {
        let start = i;
        let mut n: u32 = 0;
        let mut has_count = false;
        while i < chars.len() && chars[i].is_ascii_digit() {
            n = n
                .saturating_mul(10)
                .saturating_add(chars[i] as u32 - '0' as u32);
            has_count = true;
            i += 1;
        }
        if has_count && n == 0 {
            return Err(err(
                col + start,
                SfenErrorKind::Hands("a count of 0".into()),
            ));
        }
        if has_count && n > 99 {
            return Err(err(
                col + start,
                SfenErrorKind::Hands(format!(
                    "count {} is far more than the set holds",
                    chars[start..i].iter().collect::<String>()
                )),
            ));
        }
        if !has_count {
            n = 1;
        }
        let pstart = i;
        let text = match chars.get(i) {
            Some('+') => match chars.get(i + 1) {
                Some(c) => {
                    i += 2;
                    format!("+{c}")
                }
                None => {
                    return Err(err(
                        col + pstart,
                        SfenErrorKind::Hands("`+` must be followed by a piece letter".into()),
                    ))
                }
            },
            Some(c) => {
                i += 1;
                c.to_string()
            }
            None => {
                return Err(err(
                    col + pstart,
                    SfenErrorKind::Hands("a count must be followed by a piece letter".into()),
                ))
            }
        };
        let piece = lookup_piece::<V>(&text);
        let slot = piece.and_then(|p| V::PIECES[p.kind.index()].hand_slot);
        let (Some(piece), Some(slot)) = (piece, slot) else {
            return Err(err(
                col + pstart,
                SfenErrorKind::Hands(format!(
                    "`{text}` is not a piece that can be held in {} hands",
                    V::DISPLAY_NAME
                )),
            ));
        };
        // Saturating: some 43 million `99P` would pass u32 (and, wrapped, could read as a
        // small count that validation accepts).
        let count = &mut counts[piece.color.index()][slot as usize];
        *count = count.saturating_add(n);
    }
    for (hand, count) in setup.hands.iter_mut().zip(counts) {
        for (h, n) in hand.iter_mut().zip(count) {
            // Limits are checked by position validation; keep within u8 here.
            *h = n.min(255) as u8;
        }
    }
    Ok(())
}

/// Parses an SFEN (or `startpos`, optionally after the word `sfen`) into a valid position.
///
/// Accepts the reference engine's aliases on the board and in hands, hand letters of either
/// face, any order of hand pieces, an omitted ply (1), and the variant-state field.
pub fn parse_sfen<V: Variant>(text: &str) -> Result<Position<V>, SfenError> {
    let ws = sfen_fields(text);
    let mut fields: &[(usize, &str)] = &ws;
    if fields.first().map(|w| w.1) == Some("sfen") {
        fields = &fields[1..];
    }
    let Some(&(col, first)) = fields.first() else {
        return Err(err(1, SfenErrorKind::Empty));
    };
    if first == "startpos" {
        if let Some(&(c, extra)) = fields.get(1) {
            return Err(err(
                c,
                SfenErrorKind::Fields(format!("unexpected `{extra}` after `startpos`")),
            ));
        }
        return Ok(Position::start());
    }
    let _ = col;
    let fen = split_brackets(fields[0].0, fields[0].1).is_some();
    if fields.len() < 3 && !(fen && fields.len() == 2) {
        let (c, what) = match fields.len() {
            1 => (
                fields[0].0 + fields[0].1.chars().count(),
                "side to move and hands",
            ),
            _ => (fields[1].0 + fields[1].1.chars().count(), "hands"),
        };
        return Err(err(
            c,
            SfenErrorKind::Fields(format!("missing {what} (`<board> <side> <hands> [<ply>]`)")),
        ));
    }
    let mut setup = Setup::<V>::empty();
    if let Some((board, hand_col, hand)) = split_brackets(fields[0].0, fields[0].1) {
        return parse_fen(setup, fields, board, hand_col, hand);
    }
    parse_board(&mut setup, fields[0].0, fields[0].1)?;
    setup.side = match fields[1].1 {
        "b" => Color::Black,
        "w" => Color::White,
        other => return Err(err(fields[1].0, SfenErrorKind::Side(other.to_string()))),
    };
    parse_hands(&mut setup, fields[2].0, fields[2].1)?;
    let mut rest = &fields[3..];
    if let Some(&(c, ply)) = rest.first() {
        if !V::is_extra_field(ply) {
            if ply.is_empty() || !ply.bytes().all(|b| b.is_ascii_digit()) || ply.starts_with('0') {
                return Err(err(c, SfenErrorKind::Ply(ply.to_string())));
            }
            match ply.parse::<u32>() {
                Ok(n) if (1..=kshogi_core::MAX_PLY).contains(&n) => setup.ply = n,
                _ => return Err(err(c, SfenErrorKind::Ply(ply.to_string()))),
            }
            rest = &rest[1..];
        }
    }
    if let Some(&(c, extra)) = rest.first() {
        setup.extra = V::parse_extra(extra).map_err(|m| err(c, SfenErrorKind::Extra(m)))?;
        rest = &rest[1..];
    }
    if let Some(&(c, extra)) = rest.first() {
        return Err(err(
            c,
            SfenErrorKind::Fields(format!("unexpected field `{extra}`")),
        ));
    }
    Position::from_setup(&setup).map_err(|e| err(fields[0].0, SfenErrorKind::Invalid(e)))
}

/// Reads the Fairy-Stockfish / pychess-variants FEN form `<board>[<hand>] <side> [- -]
/// [<halfmove> [<fullmove>]]`: the side letters chess-style (`w` the first player, Black),
/// the castling and en-passant fields `-`, the halfmove clock ignored, and the fullmove
/// number N giving ply 2N-1 with Black to move, 2N with White.
fn parse_fen<V: Variant>(
    mut setup: Setup<V>,
    fields: &[(usize, &str)],
    board: &str,
    hand_col: usize,
    hand: &str,
) -> Result<Position<V>, SfenError> {
    parse_board(&mut setup, fields[0].0, board)?;
    parse_hands(
        &mut setup,
        hand_col,
        if hand.is_empty() { "-" } else { hand },
    )?;
    setup.side = match fields[1].1 {
        "w" => Color::Black,
        "b" => Color::White,
        other => {
            return Err(err(
                fields[1].0,
                SfenErrorKind::Fields(format!(
                    "side to move must be `w` (the first player) or `b` in a FEN with the \
                     hand in brackets, found `{other}`"
                )),
            ))
        }
    };
    let mut rest = &fields[2..];
    // Castling and en passant: these variants have neither, so only `-` is read.
    while let Some(&(c, f)) = rest.first() {
        if f.bytes().all(|b| b.is_ascii_digit()) {
            break;
        }
        if f != "-" {
            return Err(err(
                c,
                SfenErrorKind::Fields(format!(
                    "expected `-` (no castling or en passant) or the move counters, found `{f}`"
                )),
            ));
        }
        rest = &rest[1..];
    }
    let mut numbers = Vec::new();
    for &(c, f) in rest {
        if numbers.len() == 2 || !f.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err(
                c,
                SfenErrorKind::Fields(format!("unexpected field `{f}` after the move counters")),
            ));
        }
        numbers.push((c, f));
    }
    if let Some(&(c, f)) = numbers.get(1) {
        let ply = f
            .parse::<u32>()
            .ok()
            .filter(|&n| n >= 1)
            .and_then(|n| n.checked_mul(2))
            .map(|p| p - u32::from(setup.side == Color::Black))
            .filter(|&p| p <= kshogi_core::MAX_PLY);
        match ply {
            Some(p) => setup.ply = p,
            None => {
                return Err(err(
                    c,
                    SfenErrorKind::Fields(format!(
                        "the fullmove number must be a whole number from 1 to 500000000, \
                         found `{f}`"
                    )),
                ))
            }
        }
    } else if setup.side == Color::White {
        setup.ply = 2;
    }
    Position::from_setup(&setup).map_err(|e| err(fields[0].0, SfenErrorKind::Invalid(e)))
}

/// The canonical SFEN of a position: canonical letters, hands in canonical order (Black's
/// first), the ply, and the variant-state field when there is one.
pub fn to_sfen<V: Variant>(pos: &Position<V>) -> String {
    to_sfen_in(pos, Dialect::Canonical)
}

/// The SFEN of a position in `dialect`. [`Dialect::Canonical`] is [`to_sfen`];
/// [`Dialect::Fsf`] writes the board and hands with the reference engine's letters (the
/// Kyoto start is `p+nks+l/5/5/5/+LSK+NP b - 1`), hands in the canonical slot order.
///
/// [`Dialect::Pychess`] writes pychess-variants' FEN instead: the same board, then the hands
/// in brackets (a letter per piece, uppercase for the first player; `[-]` when empty), the
/// side chess-style (`w` for Black, the first player), `0` and the move number (ply 1 and 2
/// are move 1). The Kinzoku countdown has no place there and is left out.
pub fn to_sfen_in<V: Variant>(pos: &Position<V>, dialect: Dialect) -> String {
    if dialect == Dialect::Pychess {
        return to_pychess_fen(pos);
    }
    let g = V::GEOMETRY;
    let t = V::tables();
    let mut s = String::new();
    for rank in 0..g.height {
        if rank > 0 {
            s.push('/');
        }
        let mut empty = 0;
        for file in (1..=g.width).rev() {
            let sq = g.square(file, rank).expect("on board");
            match pos.piece_at(sq) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        let _ = write!(s, "{empty}");
                        empty = 0;
                    }
                    s.push_str(&piece_letters_in::<V>(p, dialect));
                }
            }
        }
        if empty > 0 {
            let _ = write!(s, "{empty}");
        }
    }
    s.push(' ');
    s.push(pos.side_to_move().sfen_char());
    s.push(' ');
    let mut hands = String::new();
    for c in Color::ALL {
        for slot in 0..t.slots {
            let n = pos.hand(c, slot);
            if n == 0 {
                continue;
            }
            if n > 1 {
                let _ = write!(hands, "{n}");
            }
            hands.push_str(&piece_letters_in::<V>(
                Piece::new(c, hand_face::<V>(slot, dialect)),
                dialect,
            ));
        }
    }
    if hands.is_empty() {
        hands.push('-');
    }
    s.push_str(&hands);
    let _ = write!(s, " {}", pos.ply());
    if let Some(extra) = V::format_extra(pos.extra()) {
        s.push(' ');
        s.push_str(&extra);
    }
    s
}

/// The pychess-variants FEN of a position (see [`to_sfen_in`]).
fn to_pychess_fen<V: Variant>(pos: &Position<V>) -> String {
    let t = V::tables();
    let sfen = to_sfen_in(pos, Dialect::Fsf);
    let board = sfen.split(' ').next().unwrap_or_default();
    let mut hand = String::new();
    for c in Color::ALL {
        for slot in 0..t.slots {
            let letters = piece_letters_in::<V>(
                Piece::new(c, hand_face::<V>(slot, Dialect::Pychess)),
                Dialect::Pychess,
            );
            for _ in 0..pos.hand(c, slot) {
                hand.push_str(&letters);
            }
        }
    }
    if hand.is_empty() {
        hand.push('-');
    }
    let side = match pos.side_to_move() {
        Color::Black => 'w',
        Color::White => 'b',
    };
    format!("{board}[{hand}] {side} 0 {}", pos.ply().div_ceil(2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_rules_kinzoku::Kinzoku;
    use kshogi_rules_kyoto::Kyoto;
    use kshogi_rules_micro::Micro;

    #[test]
    fn start_positions_print_as_the_spec_writes_them() {
        assert_eq!(
            to_sfen(&Position::<Kyoto>::start()),
            "pgkst/5/5/5/TSKGP b - 1"
        );
        assert_eq!(
            to_sfen(&Position::<Micro>::start()),
            "kbgs/p3/4/3P/SGBK b - 1"
        );
        assert_eq!(
            to_sfen(&Position::<Kinzoku>::start()),
            "cks/1i1/3/1I1/SKC b - 1"
        );
    }

    #[test]
    fn reference_engine_aliases() {
        let a = parse_sfen::<Kyoto>("p+nks+l/5/5/5/+LSK+NP b - 1").unwrap();
        assert_eq!(a, Position::start());
        let b = parse_sfen::<Micro>("kb+r+l/p3/4/3P/+L+RBK b - 1").unwrap();
        assert_eq!(b, Position::start());
    }

    #[test]
    fn hand_letters_of_either_face_and_any_order() {
        let p = parse_sfen::<Kyoto>("k4/5/5/5/4K b pLg2r - ".replace(" - ", "").as_str());
        // `r` (rook) and `p` are the same pair: 3 white pawn/rook pieces is too many.
        assert!(matches!(p.unwrap_err().kind, SfenErrorKind::Invalid(_)));
        let p = parse_sfen::<Kyoto>("k4/5/5/5/4K b rLg 7").unwrap();
        assert_eq!(to_sfen(&p), "k4/5/5/5/4K b Tgp 7");
    }

    #[test]
    fn ply_defaults_to_one_and_sfen_word_is_accepted() {
        let p = parse_sfen::<Micro>("sfen kbgs/p3/4/3P/SGBK b -").unwrap();
        assert_eq!(p.ply(), 1);
        assert_eq!(parse_sfen::<Micro>("startpos").unwrap(), Position::start());
    }

    #[test]
    fn two_digits_leading_zeros_and_long_countdowns_are_refused() {
        // Issue 33: `14` (one then four empty squares) was read as five.
        let e = parse_sfen::<Kyoto>("pgkst/14/5/5/TSKGP b - 1").unwrap_err();
        assert_eq!(e.column, 8);
        assert!(
            e.to_string().contains("rank b: digits `14` in a row"),
            "{e}"
        );
        let e = parse_sfen::<Kyoto>("pgkst/5/5/5/TSKGP b - 01").unwrap_err();
        assert_eq!(e.column, 23);
        assert!(e.to_string().contains("leading zeros"), "{e}");
        // Kinzoku countdown: `b03` has a leading zero; `b255` is out of range as `b6` is.
        let e = parse_sfen::<Kinzoku>("k2/3/3/1S1/2K w - 30 b03").unwrap_err();
        assert!(e.to_string().contains("leading zero"), "{e}");
        let six = parse_sfen::<Kinzoku>("k2/3/3/1S1/2K w - 30 b6").unwrap_err();
        let big = parse_sfen::<Kinzoku>("k2/3/3/1S1/2K w - 30 b255").unwrap_err();
        assert!(six.to_string().contains("1 to 5"), "{six}");
        assert!(big.to_string().contains("1 to 5"), "{big}");
        let huge = parse_sfen::<Kinzoku>("k2/3/3/1S1/2K w - 30 b99999999999").unwrap_err();
        assert!(huge.to_string().contains("1 to 5"), "{huge}");
    }

    #[test]
    fn kinzoku_countdown_field() {
        let p = parse_sfen::<Kinzoku>("k2/3/3/1S1/2K w - 30 b4").unwrap();
        assert_eq!(to_sfen(&p), "k2/3/3/1S1/2K w - 30 b4");
        let p = parse_sfen::<Kinzoku>("k2/3/3/1S1/2K w - b4").unwrap();
        assert_eq!(p.ply(), 1);
        let e = parse_sfen::<Kinzoku>("k2/3/3/1S1/2K w - 30 b9").unwrap_err();
        assert_eq!(e.column, 22);
        let e = parse_sfen::<Kinzoku>("k1s/3/3/1S1/2K w - 30 b3").unwrap_err();
        assert!(matches!(e.kind, SfenErrorKind::Invalid(_)), "{e}");
    }

    #[test]
    fn errors_name_the_column() {
        let e = parse_sfen::<Kyoto>("pgkst/5/5/5/TSKGX b - 1").unwrap_err();
        assert_eq!(e.column, 17);
        assert!(e.to_string().contains("unknown piece `X`"), "{e}");
        let e = parse_sfen::<Kyoto>("pgkst/6/5/5/TSKGP b - 1").unwrap_err();
        assert_eq!(e.column, 7);
        let e = parse_sfen::<Kyoto>("pgkst/5/5/5/TSKGP x - 1").unwrap_err();
        assert_eq!(e.column, 19);
        let e = parse_sfen::<Kyoto>("pgkst/5/5/5/TSKGP b - 0").unwrap_err();
        assert_eq!(e.column, 23);
        let e = parse_sfen::<Kyoto>("pgkst/5/5/5/TSKGP b 999999999P 1").unwrap_err();
        assert_eq!(e.column, 21);
        let e = parse_sfen::<Kyoto>("pgkst/5/5/5 b - 1").unwrap_err();
        assert!(e.to_string().contains("5 ranks"), "{e}");
        let e = parse_sfen::<Kinzoku>("cks/1i1/3/1I1/SKC b P 1").unwrap_err();
        assert!(e.to_string().contains("no drops"), "{e}");
        let e = parse_sfen::<Kinzoku>("cIs/1i1/3/1k1/SKC b - 1").unwrap_err();
        assert!(matches!(e.kind, SfenErrorKind::Invalid(_)), "{e}");
        assert!(parse_sfen::<Kyoto>("").is_err());
        assert!(parse_sfen::<Kyoto>("pgkst/5/5/5/TSKGP").is_err());
    }

    #[test]
    fn fairy_stockfish_fen_with_the_hand_in_brackets() {
        // `w` is the first player (Black); fullmove N gives ply 2N-1 for Black, 2N for White.
        let p = parse_sfen::<Kyoto>("p+nks+l/5/5/5/+LSK+NP[] w - - 0 1").unwrap();
        assert_eq!(p, Position::start());
        let p = parse_sfen::<Kyoto>("p+nks+l/5/5/5/+LSK+NP[] b - - 0 1").unwrap();
        assert_eq!(to_sfen(&p), "pgkst/5/5/5/TSKGP w - 2");
        // Uppercase in brackets is Black's hand, lowercase White's.
        let p = parse_sfen::<Kyoto>("k4/5/5/5/4K[Pp] w - - 0 7").unwrap();
        assert_eq!(to_sfen(&p), "k4/5/5/5/4K b Pp 13");
        let p = parse_sfen::<Kyoto>("k4/5/5/5/4K[pgP] b - - 3 4").unwrap();
        assert_eq!(to_sfen(&p), "k4/5/5/5/4K w Pgp 8");
        // pychess-variants leaves out castling and en passant, and writes `[-]`.
        let p = parse_sfen::<Kyoto>("p+nks+l/5/5/5/+LSK+NP[-] w 0 1").unwrap();
        assert_eq!(p, Position::start());
        let p = parse_sfen::<Micro>("kb+r+l/p3/4/3P/+L+RBK[] w").unwrap();
        assert_eq!(p, Position::start());
        // Only with brackets are the side letters chess-style.
        let p = parse_sfen::<Kyoto>("pgkst/5/5/5/TSKGP w - 2").unwrap();
        assert_eq!(p.side_to_move(), Color::White);
    }

    #[test]
    fn malformed_fen_names_the_column() {
        let e = parse_sfen::<Kyoto>("p+nks+l/5/5/5/+LSK+NP[X] w - - 0 1").unwrap_err();
        assert_eq!(e.column, 23);
        assert!(e.to_string().contains("hands: `X` is not a piece"), "{e}");
        let e = parse_sfen::<Kyoto>("p+nks+l/5/5/5/+LSK+NP[] x - - 0 1").unwrap_err();
        assert_eq!(e.column, 25);
        assert!(
            e.to_string().contains("`w` (the first player) or `b`"),
            "{e}"
        );
        let e = parse_sfen::<Kyoto>("p+nks+l/5/5/5/+LSK+NP[] w k - 0 1").unwrap_err();
        assert_eq!(e.column, 27);
        assert!(e.to_string().contains("found `k`"), "{e}");
        let e = parse_sfen::<Kyoto>("p+nks+l/5/5/5/+LSK+NP[] w - - 0 0").unwrap_err();
        assert_eq!(e.column, 33);
        assert!(e.to_string().contains("fullmove number"), "{e}");
        let e = parse_sfen::<Kyoto>("p+nks+l/5/5/5/+LSK+NP[] w - - 0 1 x").unwrap_err();
        assert_eq!(e.column, 35);
        let e = parse_sfen::<Kyoto>("p+nks+l/5/5/5/+LSK+NP[] w - - 0 99999999999").unwrap_err();
        assert_eq!(e.column, 33);
        let e = parse_sfen::<Kyoto>("p+nks+l/5/5/5/+LSK+NX[] w").unwrap_err();
        assert_eq!(e.column, 21);
        assert!(e.to_string().contains("unknown piece `X`"), "{e}");
    }

    #[test]
    fn pychess_fen_is_written_and_reads_back() {
        // NOTATION.md: pychess writes the Kyoto start `p+nks+l/5/5/5/+LSK+NP[-] w 0 1`
        // (`w`, the first player, is Black; move 1).
        assert_eq!(
            to_sfen_in(&Position::<Kyoto>::start(), Dialect::Pychess),
            "p+nks+l/5/5/5/+LSK+NP[-] w 0 1"
        );
        // White to move at ply 8 is move 4; two Black pawn/rook pairs and a White
        // gold/knight pair in hand, written a letter per piece.
        let p = parse_sfen::<Kyoto>("k4/5/5/5/4K w 2Pg 8").unwrap();
        let fen = to_sfen_in(&p, Dialect::Pychess);
        assert_eq!(fen, "k4/5/5/5/4K[PPn] b 0 4");
        assert_eq!(parse_sfen::<Kyoto>(&fen).unwrap(), p);
        // Black to move at ply 7 is move 4 too.
        let p = parse_sfen::<Micro>("kbgs/p3/4/3P/SGBK b - 7").unwrap();
        assert_eq!(
            to_sfen_in(&p, Dialect::Pychess),
            "kb+r+l/p3/4/3P/+L+RBK[-] w 0 4"
        );
        assert_eq!(
            parse_sfen::<Micro>(&to_sfen_in(&p, Dialect::Pychess)).unwrap(),
            p
        );
        // Pychess is written, never read as an engine dialect.
        assert!("pychess".parse::<Dialect>().is_err());
    }

    #[test]
    fn underscore_separates_fields() {
        let p = parse_sfen::<Kyoto>("pgkst/5/5/5/TSKGP_b_-_1").unwrap();
        assert_eq!(p, Position::start());
        let p = parse_sfen::<Kyoto>("k4/5/5/5/4K_w_2Tp_30").unwrap();
        assert_eq!(to_sfen(&p), "k4/5/5/5/4K w 2Tp 30");
        // The column of a field after `_` is its own.
        let e = parse_sfen::<Kyoto>("pgkst/5/5/5/TSKGP_x_-_1").unwrap_err();
        assert_eq!(e.column, 19);
        assert!(e.to_string().contains("found `x`"), "{e}");
        // A `_` inside the board is no separator.
        let e = parse_sfen::<Kyoto>("pgk_st/5/5/5/TSKGP b - 1").unwrap_err();
        assert_eq!(e.column, 4);
        assert!(e.to_string().contains("unknown piece `_`"), "{e}");
    }

    #[test]
    fn a_missing_ply_is_one() {
        let p = parse_sfen::<Kyoto>("pgkst/5/5/5/TSKGP b -").unwrap();
        assert_eq!(p.ply(), 1);
        assert_eq!(p, Position::start());
        let p = parse_sfen::<Kyoto>("pgkst/5/5/5/TSKGP_w_-").unwrap();
        assert_eq!(to_sfen(&p), "pgkst/5/5/5/TSKGP w - 1");
    }

    #[test]
    fn board_shape_detects_sizes() {
        assert_eq!(
            board_shape("p+nks+l/5/5/5/+LSK+NP[Pp] w - - 0 1").unwrap(),
            (5, 5)
        );
        assert_eq!(board_shape("kbgs/p3/4/3P/SGBK_b_-_1").unwrap(), (4, 5));
        assert_eq!(board_shape("cks/1i1/3/1I1/SKC[] w").unwrap(), (3, 5));
        assert_eq!(board_shape("pgkst/5/5/5/TSKGP b - 1").unwrap(), (5, 5));
        assert_eq!(board_shape("sfen kbgs/p3/4/3P/SGBK b - 1").unwrap(), (4, 5));
        assert_eq!(board_shape("cks/1i1/3/1I1/SKC b - 1").unwrap(), (3, 5));
        assert!(board_shape("startpos").is_err());
        // A row of another width is named, at its own column (issue 33: always column 1).
        let e = board_shape("pgkst/5/5/6/TSKGP b - 1").unwrap_err();
        assert_eq!(e.column, 11);
        assert!(
            e.to_string()
                .contains("rank d has 6 squares, but rank a has 5"),
            "{e}"
        );
    }
}
