//! A text board diagram for people at a terminal; see [`diagram`].

use crate::sfen::{piece_letters, Dialect};
use crate::usi::{move_to_usi, move_to_usi_in};
use kshogi_core::{Color, Game, Move, Piece, Position, Square, Variant};
use std::fmt::Write as _;

/// How a diagram is drawn.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DiagramStyle {
    /// Use ANSI colours: Black's pieces bold blue, White's bold red, the last move's
    /// destination in reverse video, empty squares dim.
    pub color: bool,
    /// Write pieces as kanji (`歩`, `と`, ...) with `v` before White's pieces, as Japanese
    /// diagrams do, instead of SFEN letters. Kanji take two columns in a terminal.
    pub kanji: bool,
}

impl DiagramStyle {
    /// Plain ASCII letters without colour: readable anywhere.
    pub const PLAIN: DiagramStyle = DiagramStyle {
        color: false,
        kanji: false,
    };
}

const RESET: &str = "\x1b[0m";
const BLACK_SGR: &str = "1;34";
const WHITE_SGR: &str = "1;31";
const EMPTY_SGR: &str = "2";
const LAST_MOVE_SGR: &str = "7";

/// Whether `mv` can be named in `V`: squares on the board and a dropped kind that exists.
/// Moves from the move generator always can; a hand-made [`Move`] might not.
pub(crate) fn is_well_formed<V: Variant>(mv: Move) -> bool {
    let g = V::GEOMETRY;
    if !g.contains(mv.to()) {
        return false;
    }
    match (mv.from(), mv.drop_kind()) {
        (Some(from), _) => g.contains(from) && from != mv.to(),
        (None, Some(kind)) => kind.index() < V::PIECES.len(),
        (None, None) => false,
    }
}

/// Wraps `text` in an SGR sequence when colour is on.
fn paint(out: &mut String, color: bool, sgr: &str, text: &str) {
    if color {
        let _ = write!(out, "\x1b[{sgr}m{text}{RESET}");
    } else {
        out.push_str(text);
    }
}

/// The glyph of a piece: its SFEN letters, or `v` (White only) and its kanji.
fn glyph<V: Variant>(p: Piece, kanji: bool) -> String {
    if kanji {
        let k = V::PIECES[p.kind.index()].kanji;
        match p.color {
            Color::Black => k.to_string(),
            Color::White => format!("v{k}"),
        }
    } else {
        piece_letters::<V>(p)
    }
}

/// Appends one square: a cell of fixed width (4 columns with letters, 5 with kanji) whose
/// piece letter (or kanji) is always in the same place, so that files line up.
fn cell<V: Variant>(out: &mut String, piece: Option<Piece>, highlight: bool, style: DiagramStyle) {
    // The letter sits at column 2 (kanji at columns 2-3); a glyph of two units (`+I`, `v歩`)
    // starts at column 1. Brackets hug the glyph.
    let (text, units, sgr) = match piece {
        None => (
            if style.kanji { "・" } else { "." }.to_string(),
            1,
            EMPTY_SGR.to_string(),
        ),
        Some(p) => {
            let g = glyph::<V>(p, style.kanji);
            let units = g.chars().count();
            let base = match p.color {
                Color::Black => BLACK_SGR,
                Color::White => WHITE_SGR,
            };
            let sgr = if highlight {
                format!("{base};{LAST_MOVE_SGR}")
            } else {
                base.to_string()
            };
            (g, units, sgr)
        }
    };
    out.push_str(if units >= 2 { "" } else { " " });
    out.push(if highlight { '[' } else { ' ' });
    paint(out, style.color, &sgr, &text);
    out.push(if highlight { ']' } else { ' ' });
}

/// A kanji numeral for a hand count (2 to 99), as Japanese records write it (`歩二`); also
/// the rank numerals of the SVG diagram (1 to 26).
pub(crate) fn kanji_count(n: u8) -> String {
    const DIGITS: [char; 10] = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
    let (tens, ones) = (n / 10, n % 10);
    let mut s = String::new();
    if tens > 1 {
        s.push(DIGITS[tens as usize % 10]);
    }
    if tens > 0 {
        s.push('十');
    }
    if ones > 0 {
        s.push(DIGITS[ones as usize]);
    }
    s
}

/// The hand line of `color`: each slot in canonical order, named by its face A, with its
/// count (`g 2p`, or `金 歩二` in kanji style), or `-` when the hand is empty.
fn hand_line<V: Variant>(out: &mut String, pos: &Position<V>, color: Color, style: DiagramStyle) {
    let t = V::tables();
    let _ = write!(out, "{color} hand:");
    let mut empty = true;
    for slot in 0..t.slots {
        let n = pos.hand(color, slot);
        if n == 0 {
            continue;
        }
        empty = false;
        let piece = Piece::new(color, t.slot_faces[slot][0]);
        let text = if style.kanji {
            let k = V::PIECES[piece.kind.index()].kanji;
            if n > 1 {
                format!("{k}{}", kanji_count(n))
            } else {
                k.to_string()
            }
        } else if n > 1 {
            format!("{n}{}", piece_letters::<V>(piece))
        } else {
            piece_letters::<V>(piece)
        };
        out.push(' ');
        let sgr = match color {
            Color::Black => BLACK_SGR,
            Color::White => WHITE_SGR,
        };
        paint(out, style.color, sgr, &text);
    }
    if empty {
        out.push_str(" -");
    }
    out.push('\n');
}

/// The line describing the variant state, if there is one (see [`Variant::describe_extra`]).
fn extra_line<V: Variant>(pos: &Position<V>) -> Option<String> {
    V::describe_extra(pos.extra())
}

/// Draws `pos` as a text diagram for the terminal.
///
/// The layout, top to bottom: White's hand, the file numbers (highest file on the left, as
/// Black sees the board), the framed board with the rank letters on the right, Black's hand,
/// then the side to move and the ply, the Kinzoku countdown while one runs, and the last move
/// when it is known. Variants without drops (Kinzoku) have no hand lines.
///
/// ```
/// use kshogi_notation::{diagram, parse_game, DiagramStyle};
/// use kshogi_rules_kyoto::Kyoto;
///
/// let game = parse_game::<Kyoto>("startpos moves 1e1d+ 5a5b+ 1d1a+ 5b5e+").unwrap();
/// let last = game.moves().last().copied();
/// assert_eq!(
///     diagram(game.position(), last, DiagramStyle::PLAIN),
///     "\
/// white hand: t
///    5   4   3   2   1
/// +---------------------+
/// |  .   g   k   s   P  | a
/// |  .   .   .   .   .  | b
/// |  .   .   .   .   .  | c
/// |  .   .   .   .   .  | d
/// | [p]  S   K   G   .  | e
/// +---------------------+
/// black hand: T
/// ply 5, black to move
/// last move: 5b5e+
/// "
/// );
/// ```
///
/// Pieces are written with their canonical SFEN letters, uppercase for Black and lowercase for
/// White, with `+` before a promoted face without a letter of its own (`+I`); `.` is an empty
/// square. The destination of the last move is put in brackets. With colour, Black's and
/// White's pieces get different ANSI colours and the last move's destination is shown in
/// reverse video as well; the text is the same apart from the escape sequences, so the
/// diagram stays readable without them. The kanji style writes the pieces as in Japanese
/// diagrams, with `v` before White's pieces.
///
/// This function only builds a string: whether to use colour (a terminal, `NO_COLOR`) is
/// for the caller to decide.
///
/// `last_move` is the move that led to `pos`, when known: its destination is marked and a
/// `last move: <usi>` line is added. A move that names squares off the board or a piece the
/// variant does not have is ignored rather than drawn. Every line ends with `\n`.
pub fn diagram<V: Variant>(
    pos: &Position<V>,
    last_move: Option<Move>,
    style: DiagramStyle,
) -> String {
    let last_move = last_move.filter(|&mv| is_well_formed::<V>(mv));
    let text = last_move.map(move_to_usi::<V>);
    draw(pos, last_move, text, style)
}

/// Draws the final position of `game` as [`diagram`] does, with its last move (if any)
/// marked and written in `dialect` on the `last move:` line.
///
/// The reference engine's dialect may write a move differently from the canonical one
/// (`-` for a Kyoto rook turning back into a pawn), and which it writes depends on the
/// piece that moved; so this takes the game, whose position before the last move is known.
///
/// ```
/// use kshogi_notation::{game_diagram, parse_game, DiagramStyle, Dialect};
/// use kshogi_rules_kyoto::Kyoto;
///
/// // 1e1d+ turns the pawn into a rook; 1d1c- (reference engine) turns it back.
/// let game = parse_game::<Kyoto>("startpos moves 1e1d+ 5a5b+ 1d1c").unwrap();
/// let canonical = game_diagram(&game, DiagramStyle::PLAIN, Dialect::Canonical);
/// let fsf = game_diagram(&game, DiagramStyle::PLAIN, Dialect::Fsf);
/// assert!(canonical.ends_with("last move: 1d1c+\n"));
/// assert!(fsf.ends_with("last move: 1d1c-\n"));
/// ```
pub fn game_diagram<V: Variant>(game: &Game<V>, style: DiagramStyle, dialect: Dialect) -> String {
    let (before, last_move) = before_last_move(game);
    let last_move = last_move.filter(|&mv| is_well_formed::<V>(mv));
    let text = last_move.map(|mv| move_to_usi_in(&before, mv, dialect));
    draw(game.position(), last_move, text, style)
}

/// The position before the last move of `game`, and that move (`None`: no moves, and the
/// start position).
pub(crate) fn before_last_move<V: Variant>(game: &Game<V>) -> (Position<V>, Option<Move>) {
    let moves = game.moves();
    let Some((&last, earlier)) = moves.split_last() else {
        return (*game.start(), None);
    };
    let mut before = *game.start();
    for &m in earlier {
        before = before.after(m);
    }
    (before, Some(last))
}

/// The diagram of `pos`, with `last_move` (already checked to be well formed) marked and
/// `last_text` on the `last move:` line.
fn draw<V: Variant>(
    pos: &Position<V>,
    last_move: Option<Move>,
    last_text: Option<String>,
    style: DiagramStyle,
) -> String {
    let g = V::GEOMETRY;
    let has_hands = V::tables().slots > 0;
    let target: Option<Square> = last_move.map(Move::to);
    let cell_width: usize = if style.kanji { 5 } else { 4 };
    let mut out = String::new();

    if has_hands {
        hand_line(&mut out, pos, Color::White, style);
    }
    // File numbers over the letter column of each cell: the border, then the cell's offset.
    let mut header = String::new();
    for (i, file) in (1..=g.width).rev().enumerate() {
        let col = 1 + i * cell_width + 2;
        while header.chars().count() < col {
            header.push(' ');
        }
        let _ = write!(header, "{file}");
    }
    out.push_str(&header);
    out.push('\n');
    let border = format!("+{}+\n", "-".repeat(cell_width * g.width as usize + 1));
    out.push_str(&border);
    for rank in 0..g.height {
        out.push('|');
        for file in (1..=g.width).rev() {
            let sq = g.square(file, rank);
            let piece = sq.and_then(|sq| pos.piece_at(sq));
            let highlight = sq.is_some() && sq == target;
            cell::<V>(&mut out, piece, highlight, style);
        }
        let _ = writeln!(out, " | {}", (b'a' + rank) as char);
    }
    out.push_str(&border);
    if has_hands {
        hand_line(&mut out, pos, Color::Black, style);
    }
    let _ = writeln!(out, "ply {}, {} to move", pos.ply(), pos.side_to_move());
    if let Some(line) = extra_line(pos) {
        out.push_str(&line);
        out.push('\n');
    }
    if let Some(text) = last_text {
        let _ = writeln!(out, "last move: {text}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_sfen;
    use kshogi_core::Kind;
    use kshogi_rules_kinzoku::Kinzoku;
    use kshogi_rules_kyoto::Kyoto;

    #[test]
    fn kanji_counts() {
        assert_eq!(kanji_count(2), "二");
        assert_eq!(kanji_count(10), "十");
        assert_eq!(kanji_count(12), "十二");
        assert_eq!(kanji_count(20), "二十");
        assert_eq!(kanji_count(99), "九十九");
    }

    #[test]
    fn malformed_last_moves_are_ignored_not_drawn() {
        let pos = Position::<Kyoto>::start();
        let plain = diagram(&pos, None, DiagramStyle::PLAIN);
        for bad in [
            Move::board(Square(3), Square(40), true),
            Move::board(Square(40), Square(3), true),
            Move::board(Square(3), Square(3), false),
            Move::drop(Kind(60), Square(3)),
            Move::from_bits(u16::MAX),
            Move::NULL,
        ] {
            for style in [
                DiagramStyle::PLAIN,
                DiagramStyle {
                    color: true,
                    kanji: true,
                },
            ] {
                let d = diagram(&pos, Some(bad), style);
                assert!(!d.contains("last move"), "{bad:?}: {d}");
                if style == DiagramStyle::PLAIN {
                    assert_eq!(d, plain);
                }
            }
        }
    }

    #[test]
    fn every_row_has_the_same_width_and_the_files_line_up() {
        // Independent of the snapshots: the letter of file f on each row sits under the
        // digit f of the header, and the right border lines up with the frame's corner.
        let before = parse_sfen::<Kinzoku>("1k1/I2/3/3/2K b - 8").unwrap();
        let mv = crate::parse_usi(&before, "3b3a+").unwrap();
        let pos = before.after(mv);
        let d = diagram(&pos, Some(mv), DiagramStyle::PLAIN);
        let lines: Vec<&str> = d.lines().collect();
        let header = lines[0];
        assert_eq!(header, "   3   2   1");
        assert_eq!(lines[1], "+-------------+");
        let rows: Vec<&str> = lines[2..7].to_vec();
        for (r, letter) in rows.iter().zip(["a", "b", "c", "d", "e"]) {
            assert_eq!(r.len(), lines[1].len() + 2, "{r:?}");
            assert_eq!(&r[lines[1].len() - 1..], format!("| {letter}"), "{r:?}");
        }
        // 3a holds the promoted soldier that just moved: `[+I]` with the `I` under the `3`.
        let col = header.find('3').unwrap();
        assert_eq!(&rows[0][col - 2..=col + 1], "[+I]");
        assert_eq!(&rows[0][header.find('2').unwrap()..][..1], "k");
        assert_eq!(&rows[4][header.find('1').unwrap()..][..1], "K");
        assert_eq!(lines[7], lines[1]);
        assert_eq!(lines[8], "ply 9, white to move");
        assert_eq!(lines[9], "last move: 3b3a+");
        assert_eq!(lines.len(), 10);
    }
}
