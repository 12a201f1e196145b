//! SVG board diagrams, for pages, books and slides; see [`svg`].

use crate::diagram::{is_well_formed, kanji_count};
use crate::sfen::to_sfen;
use kshogi_core::{Color, Kind, Move, Piece, Position, Square, Variant};
use std::fmt::Write as _;

/// How the ranks are labelled down the right side of an SVG diagram.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum RankLabels {
    /// Kanji numerals `一 二 三 …`, as in Japanese diagrams, KIF board diagrams and
    /// lishogi's Japanese notation.
    #[default]
    Kanji,
    /// The USI rank letters `a b c …`, as in kshogi's moves and text diagram (lishogi's
    /// engine notation); they need no CJK font.
    Letters,
}

/// What an SVG diagram shows besides the position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SvgStyle {
    /// The rank labels.
    pub ranks: RankLabels,
    /// A caption line under the board: the variant, the ply, the side to move and the
    /// variant's extra state (the Kinzoku countdown), in ASCII.
    pub caption: bool,
}

impl SvgStyle {
    /// Kanji rank numerals and a caption.
    pub const DEFAULT: SvgStyle = SvgStyle {
        ranks: RankLabels::Kanji,
        caption: true,
    };
}

impl Default for SvgStyle {
    fn default() -> SvgStyle {
        SvgStyle::DEFAULT
    }
}

/// Side of a board square, in px.
const CELL: f64 = 60.0;
/// Side of a hand entry (and width of a hand column), in px.
const HAND_CELL: f64 = 50.0;
/// Margin around everything.
const PAD: f64 = 12.0;
/// Between a hand column and what is beside it.
const GAP: f64 = 12.0;
/// Height of the file numbers' row above the board.
const FILES_H: f64 = 28.0;
/// Width of the rank labels' column right of the board.
const RANKS_W: f64 = 28.0;
/// Height of the caption row with one line.
const CAPTION_H: f64 = 30.0;
/// Font size of the caption.
const CAPTION_SIZE: f64 = 14.0;
/// Distance between the baselines of a caption of more than one line.
const CAPTION_LINE: f64 = 18.0;

const BOARD_FILL: &str = "#e9c685";
const LINE: &str = "#2b2b2b";
const HIGHLIGHT: &str = "#c9c64e";
const PIECE_FILL: &str = "#fbe7b5";
const PIECE_EDGE: &str = "#333333";
const INK: &str = "#111111";
const PROMOTED_INK: &str = "#c4161c";
const ARROW: &str = "#1a7f37";
const BACKGROUND: &str = "#ffffff";

/// CJK fonts people are likely to have, then the generic family; the kanji are text, so
/// the SVG needs no font file of its own.
const KANJI_FONTS: &str = "'Noto Serif CJK JP','Noto Sans CJK JP','Source Han Serif JP',\
'Hiragino Mincho ProN','Yu Mincho','MS Mincho','IPAMincho','IPAexMincho',serif";
/// For digits, letters and the caption.
const LATIN_FONTS: &str = "'DejaVu Sans','Helvetica','Arial',sans-serif";

/// A number for an attribute: at most two decimals, no trailing zeros.
fn num(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// An upper bound on the advance of `c`, in ems, in the caption's sans-serif fonts: the
/// widths of DejaVu Sans (the widest of the families named) rounded up by class, and a full
/// em for anything else. Helvetica and Arial are narrower.
fn char_em(c: char) -> f64 {
    match c {
        'm' | 'w' | 'M' | 'W' | '@' | '%' => 1.0,
        ' ' | '.' | ',' | ':' | ';' | '\'' | '!' | '|' | '(' | ')' | '[' | ']' | 'i' | 'j'
        | 'l' | 'f' | 't' | 'r' | 'I' => 0.45,
        'a'..='z' | '0'..='9' => 0.64,
        'A'..='Z' => 0.8,
        c if c.is_ascii() => 0.84,
        _ => 1.0,
    }
}

/// An upper bound on the width of `text` in the caption's fonts at `size` px.
fn text_width(text: &str, size: f64) -> f64 {
    text.chars().map(char_em).sum::<f64>() * size
}

/// The caption's lines for a row `room` px wide: its comma-separated parts joined while
/// they fit, a part too wide by itself split at its spaces. A single word wider than
/// `room` stays whole on its own line (the picture is widened for it).
fn wrap(text: &str, room: f64) -> Vec<String> {
    let fits = |s: &str| text_width(s, CAPTION_SIZE) <= room;
    let mut lines = Vec::new();
    let mut line = String::new();
    let joined = |line: &str, next: &str| {
        if line.is_empty() {
            next.to_string()
        } else {
            format!("{line} {next}")
        }
    };
    let parts: Vec<&str> = text.split_inclusive(", ").map(str::trim_end).collect();
    for part in parts {
        let candidate = joined(&line, part);
        if fits(&candidate) {
            line = candidate;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        if fits(part) {
            line = part.to_string();
            continue;
        }
        for word in part.split(' ') {
            let candidate = joined(&line, word);
            if fits(&candidate) || line.is_empty() {
                line = candidate;
            } else {
                lines.push(std::mem::replace(&mut line, word.to_string()));
            }
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Escapes text for XML character data and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// Where everything goes, for variant `V`.
struct Layout {
    width: u8,
    height: u8,
    hands: bool,
    /// Top-left corner of the board.
    x0: f64,
    y0: f64,
    /// Left edge of White's and Black's hand columns.
    white_x: f64,
    black_x: f64,
    /// The bottom of the board and hand columns: Black's hand column ends here.
    body_bottom: f64,
    /// Top of the caption row.
    caption_y: f64,
    /// The caption's lines (none without a caption).
    caption: Vec<String>,
    /// The whole picture.
    total_w: f64,
    total_h: f64,
}

impl Layout {
    fn of<V: Variant>(caption: Option<&str>) -> Layout {
        let g = V::GEOMETRY;
        let slots = V::tables().slots;
        let hands = slots > 0;
        let hand_col = if hands { HAND_CELL + GAP } else { 0.0 };
        let board_w = f64::from(g.width) * CELL;
        let board_h = f64::from(g.height) * CELL;
        // The board with its labels and hands; the caption is wrapped to this width, and
        // the picture widened (everything else centred) only for a word wider than it.
        let body_w = PAD + hand_col + board_w + RANKS_W + hand_col + PAD;
        let caption = caption.map_or_else(Vec::new, |c| wrap(c, body_w - 2.0 * PAD));
        let widest = caption
            .iter()
            .map(|line| text_width(line, CAPTION_SIZE) + 2.0 * PAD)
            .fold(body_w, f64::max);
        let dx = (widest - body_w) / 2.0;
        let x0 = dx + PAD + hand_col;
        let y0 = PAD + FILES_H;
        // A hand column holds its mark and one entry per slot.
        let column_h = if hands {
            (1 + slots) as f64 * HAND_CELL
        } else {
            0.0
        };
        let body_h = board_h.max(column_h);
        let caption_y = y0 + body_h;
        let caption_h = match caption.len() {
            0 => 0.0,
            n => CAPTION_H + (n - 1) as f64 * CAPTION_LINE,
        };
        Layout {
            width: g.width,
            height: g.height,
            hands,
            x0,
            y0,
            white_x: dx + PAD,
            black_x: x0 + board_w + RANKS_W + GAP,
            body_bottom: y0 + body_h,
            caption_y,
            caption,
            total_w: widest,
            total_h: caption_y + caption_h + PAD,
        }
    }

    /// The centre of a square.
    fn centre(&self, file: u8, rank: u8) -> (f64, f64) {
        let col = f64::from(self.width - file);
        (
            self.x0 + (col + 0.5) * CELL,
            self.y0 + (f64::from(rank) + 0.5) * CELL,
        )
    }

    /// The centre of entry `i` of a hand column (0 is the side's mark). White's column
    /// runs down from the top of the board; Black's ends at the bottom of the board (or of
    /// White's column, when that is longer), its mark last, so that the picture turned
    /// round is White's view.
    fn hand_centre(&self, color: Color, i: usize, entries: usize) -> (f64, f64) {
        match color {
            Color::White => (
                self.white_x + HAND_CELL / 2.0,
                self.y0 + (i as f64 + 0.5) * HAND_CELL,
            ),
            Color::Black => {
                // Entry 0 (the mark) at the bottom, the pieces above it in slot order.
                let from_bottom = if i == 0 { 0 } else { entries - i };
                (
                    self.black_x + HAND_CELL / 2.0,
                    self.body_bottom - (from_bottom as f64 + 0.5) * HAND_CELL,
                )
            }
        }
    }
}

/// The non-empty hand slots of `color`, in slot order, with their counts.
fn hand_entries<V: Variant>(pos: &Position<V>, color: Color) -> Vec<(usize, u8)> {
    (0..V::tables().slots)
        .map(|slot| (slot, pos.hand(color, slot)))
        .filter(|&(_, n)| n > 0)
        .collect()
}

/// A piece to draw: which, the centre of its cell and the side `k` of the cell.
#[derive(Copy, Clone)]
struct Placed {
    piece: Piece,
    centre: (f64, f64),
    k: f64,
}

/// ` transform="rotate(180 x y)"` for White's pieces (turned round about their centre).
fn turned(piece: Piece, (cx, cy): (f64, f64)) -> String {
    match piece.color {
        Color::Black => String::new(),
        Color::White => format!(" transform=\"rotate(180 {} {})\"", num(cx), num(cy)),
    }
}

/// A piece's body: the five-sided shape, pointing up for Black and turned round for White.
fn piece_body(out: &mut String, p: Placed) {
    let (cx, cy) = p.centre;
    let k = p.k;
    let rotate = turned(p.piece, p.centre);
    let _ = write!(out, "<g class=\"piece {}\"{rotate}>", p.piece.color);
    let points = [
        (0.0, -0.42),
        (0.30, -0.30),
        (0.37, 0.42),
        (-0.37, 0.42),
        (-0.30, -0.30),
    ]
    .iter()
    .map(|&(dx, dy)| format!("{},{}", num(cx + dx * k), num(cy + dy * k)))
    .collect::<Vec<_>>()
    .join(" ");
    let _ = write!(
        out,
        "<polygon points=\"{points}\" fill=\"{PIECE_FILL}\" stroke=\"{PIECE_EDGE}\" \
         stroke-width=\"1.2\" stroke-linejoin=\"round\"/>"
    );
    out.push_str("</g>\n");
}

/// A piece's kanji, turned round for White, drawn over everything else (the arrow
/// included) with a halo of the piece's colour so that it stays readable.
fn piece_glyph<V: Variant>(out: &mut String, p: Placed) {
    let def = &V::PIECES[p.piece.kind.index()];
    let (cx, cy) = p.centre;
    let k = p.k;
    let rotate = turned(p.piece, p.centre);
    let ink = if def.promoted { PROMOTED_INK } else { INK };
    let _ = writeln!(
        out,
        "<text class=\"glyph {}\" x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{ink}\" \
         stroke=\"{PIECE_FILL}\" stroke-width=\"{}\" stroke-linejoin=\"round\" \
         paint-order=\"stroke\" text-anchor=\"middle\"{rotate}>{}</text>",
        p.piece.color,
        num(cx),
        num(cy + 0.23 * k),
        num(0.5 * k),
        num(0.1 * k),
        escape(&def.kanji.to_string())
    );
}

/// The mark of a side at the head of its hand: a piece shape, filled for Black (☗),
/// white for White (☖), as Japanese records mark the players.
fn side_mark(out: &mut String, color: Color, (cx, cy): (f64, f64)) {
    let k = HAND_CELL * 0.6;
    let points = [
        (0.0, -0.42),
        (0.30, -0.30),
        (0.37, 0.42),
        (-0.37, 0.42),
        (-0.30, -0.30),
    ]
    .iter()
    .map(|&(dx, dy)| format!("{},{}", num(cx + dx * k), num(cy + dy * k)))
    .collect::<Vec<_>>()
    .join(" ");
    let fill = match color {
        Color::Black => INK,
        Color::White => BACKGROUND,
    };
    let _ = writeln!(
        out,
        "<polygon class=\"mark {color}\" points=\"{points}\" fill=\"{fill}\" stroke=\"{INK}\" \
         stroke-width=\"1.5\" stroke-linejoin=\"round\"/>"
    );
}

/// The face a hand entry shows: the dropped face for the slot of a drop arrow of `color`
/// (`shown`), otherwise the slot's first face (as SFEN writes the hand).
fn hand_face<V: Variant>(color: Color, slot: usize, shown: Option<(Color, usize, Kind)>) -> Kind {
    match shown {
        Some((c, s, kind)) if c == color && s == slot => kind,
        _ => V::tables().slot_faces[slot][0],
    }
}

/// A hand: the mark, then each piece kind held (added to `pieces`), with its count when
/// more than one (added to `counts`, drawn over the arrow).
fn hand<V: Variant>(
    out: &mut String,
    layout: &Layout,
    pos: &Position<V>,
    color: Color,
    shown: Option<(Color, usize, Kind)>,
    pieces: &mut Vec<Placed>,
    counts: &mut String,
) {
    let entries = hand_entries(pos, color);
    let n = entries.len() + 1;
    side_mark(out, color, layout.hand_centre(color, 0, n));
    for (i, &(slot, count)) in entries.iter().enumerate() {
        let (cx, cy) = layout.hand_centre(color, i + 1, n);
        let face = hand_face::<V>(color, slot, shown);
        pieces.push(Placed {
            piece: Piece::new(color, face),
            centre: (cx, cy),
            k: HAND_CELL,
        });
        if count > 1 {
            let _ = writeln!(
                counts,
                "<text class=\"count\" x=\"{}\" y=\"{}\" font-family=\"{LATIN_FONTS}\" \
                 font-size=\"15\" font-weight=\"bold\" fill=\"{INK}\" stroke=\"{BACKGROUND}\" \
                 stroke-width=\"3\" paint-order=\"stroke\" text-anchor=\"end\">{count}</text>",
                num(cx + HAND_CELL / 2.0 - 1.0),
                num(cy + HAND_CELL / 2.0 - 3.0),
            );
        }
    }
}

/// The hand slot and face of a drop `mv` by the side to move, if it holds that piece.
fn dropped<V: Variant>(pos: &Position<V>, mv: Move) -> Option<(Color, usize, Kind)> {
    let kind = mv.drop_kind()?;
    let slot = usize::from(V::PIECES[kind.index()].hand_slot?);
    let color = pos.side_to_move();
    (pos.hand(color, slot) > 0).then_some((color, slot, kind))
}

/// Where an arrow for `mv` starts and the side of the cell there: its origin square, or
/// for a drop the entry of the dropped piece in the hand of the side to move. `None` when
/// the piece is not there.
fn arrow_start<V: Variant>(
    layout: &Layout,
    pos: &Position<V>,
    mv: Move,
) -> Option<((f64, f64), f64)> {
    let g = V::GEOMETRY;
    if let Some(from) = mv.from() {
        return Some((layout.centre(g.file(from), g.rank(from)), CELL));
    }
    let (color, slot, _) = dropped(pos, mv)?;
    let entries = hand_entries(pos, color);
    let i = entries.iter().position(|&(s, _)| s == slot)?;
    Some((
        layout.hand_centre(color, i + 1, entries.len() + 1),
        HAND_CELL,
    ))
}

/// How far from the centre of the origin's cell (times its side) the arrow's shaft
/// starts: past the middle of the kanji, which is drawn over it.
const ARROW_START: f64 = 0.25;
/// How far short of the destination's centre (times a square's side) the arrow's tip
/// stops: at the edge of the kanji there, so that a piece it captures stays readable.
const ARROW_TIP: f64 = 0.3;

/// An arrow from a cell of side `k` centred on `from` towards the square centred on
/// `to`, shortened at both ends ([`ARROW_START`], [`ARROW_TIP`]); its head is at most
/// 0.36 of a square long and never more than 0.6 of the arrow, so even a one-square
/// arrow has a head and a shaft.
fn arrow(out: &mut String, ((fx, fy), k): ((f64, f64), f64), (tx, ty): (f64, f64)) {
    let (dx, dy) = (tx - fx, ty - fy);
    let dist = (dx * dx + dy * dy).sqrt();
    if dist < 1.0 {
        return;
    }
    let (ux, uy) = (dx / dist, dy / dist);
    let (x1, y1) = (fx + ux * ARROW_START * k, fy + uy * ARROW_START * k);
    let (x2, y2) = (tx - ux * ARROW_TIP * CELL, ty - uy * ARROW_TIP * CELL);
    let len = dist - ARROW_START * k - ARROW_TIP * CELL;
    if len < 1.0 {
        return;
    }
    let head_len = (0.36 * CELL).min(0.6 * len);
    let head_half = (0.22 * CELL).min(0.8 * head_len);
    let (bx, by) = (x2 - ux * head_len, y2 - uy * head_len);
    let _ = writeln!(out, "<g class=\"arrow\" opacity=\"0.8\">");
    let _ = writeln!(
        out,
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{ARROW}\" stroke-width=\"{}\" \
         stroke-linecap=\"butt\"/>",
        num(x1),
        num(y1),
        num(bx + ux),
        num(by + uy),
        num(0.15 * CELL)
    );
    let _ = writeln!(
        out,
        "<polygon points=\"{},{} {},{} {},{}\" fill=\"{ARROW}\"/>",
        num(x2),
        num(y2),
        num(bx - uy * head_half),
        num(by + ux * head_half),
        num(bx + uy * head_half),
        num(by - ux * head_half)
    );
    out.push_str("</g>\n");
}

/// Draws `pos` as a self-contained SVG picture of a shogi board.
///
/// The picture, as lishogi and Japanese diagrams draw a board: the squares with their grid;
/// each piece as a five-sided shape with its kanji (the character of a KIF board diagram,
/// [`kshogi_core::PieceDef::kanji`], for the face it shows now; a promoted face, written
/// with `+` in SFEN, in red), pointing up for Black and turned upside down for White; the
/// file numbers across the top, highest on the left and 1 on the right; the ranks down the
/// right side ([`RankLabels`]: kanji numerals, or the USI letters); White's hand in a
/// column left of the board from its top, Black's right of the board ending at its bottom,
/// each headed by the side's mark (☖ white, ☗ black, drawn as shapes) and holding one
/// piece per kind with its count when more than one; and, with [`SvgStyle::caption`], a
/// line under it all with the variant, the ply and the side to move, wrapped at its commas
/// (or, for a part too long by itself, at its spaces) where the picture is too narrow for
/// it. Variants without drops have no hand columns.
///
/// `last_move` (the move that led to `pos`) marks its origin and destination squares, or
/// the destination alone for a drop; `arrow` (a move of `pos`, such as the best move)
/// draws an arrow from its origin, or from the dropped piece in the hand, to its
/// destination. The arrow lies over the pieces' shapes and under their kanji, which have
/// a halo of the piece's colour, so a piece it crosses stays readable; it starts a quarter
/// of a cell from the origin's centre and its tip stops 0.3 of a square short of the
/// destination's centre, at the edge of a captured piece's kanji. For a drop of a pair
/// with two faces (Kyoto, Micro), the hand entry it starts from shows the face dropped
/// (otherwise a hand shows each pair by its first face, as SFEN writes it). A move that
/// names squares off the board or a piece the variant does not have is ignored, and so is
/// a drop arrow for a piece not in hand.
///
/// Sizes, in px: a square is 60, a hand entry 50 (the column is 50 wide), the margin 12,
/// the gap between a hand column and the board (or the rank labels) 12, the file numbers'
/// row 28 high, the rank labels' column 28 wide, the caption row 30 high with one line
/// and 18 more for each further line. The caption is wrapped by an upper bound on its
/// width (the advances of DejaVu Sans, the widest family it names, rounded up). The
/// board's top-left corner is at (12 + 62 with hands, 40). A piece of a square of side
/// `k` centred on (x, y) is the pentagon (x, y - 0.42k), (x + 0.30k, y - 0.30k),
/// (x + 0.37k, y + 0.42k), (x - 0.37k, y + 0.42k), (x - 0.30k, y - 0.30k), turned half
/// round about (x, y) for White.
///
/// The kanji are text in the serif family, with common CJK fonts named first; every
/// browser on a system with a Japanese font shows them, and nothing else is needed (no
/// font file, no image, no script). Without any CJK font the shapes, marks, highlights
/// and the arrow still show. Digits, letters and the caption are in a sans-serif family.
///
/// ```
/// use kshogi_core::Position;
/// use kshogi_notation::{svg, SvgStyle};
/// use kshogi_rules_kyoto::Kyoto;
///
/// let picture = svg(&Position::<Kyoto>::start(), None, None, SvgStyle::DEFAULT);
/// assert!(picture.starts_with("<?xml"));
/// assert!(picture.contains("width=\"476\" height=\"382\""));
/// assert_eq!(picture.matches("class=\"piece white\"").count(), 5);
/// ```
pub fn svg<V: Variant>(
    pos: &Position<V>,
    last_move: Option<Move>,
    arrow_move: Option<Move>,
    style: SvgStyle,
) -> String {
    let g = V::GEOMETRY;
    let caption = style.caption.then(|| {
        let mut caption = format!(
            "{}, ply {}, {} to move",
            V::DISPLAY_NAME,
            pos.ply(),
            pos.side_to_move()
        );
        if let Some(extra) = V::describe_extra(pos.extra()) {
            let _ = write!(caption, ", {extra}");
        }
        caption
    });
    let l = Layout::of::<V>(caption.as_deref());
    let last_move = last_move.filter(|&mv| is_well_formed::<V>(mv));
    let arrow_move = arrow_move.filter(|&mv| is_well_formed::<V>(mv));
    let (w, h) = (l.total_w, l.total_h);
    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let title = format!("{}: {}", V::DISPLAY_NAME, to_sfen(pos));
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" \
         viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\">",
        num(w),
        num(h),
        num(w),
        num(h),
        escape(&title)
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&title));
    let _ = writeln!(
        out,
        "<rect width=\"{}\" height=\"{}\" fill=\"{BACKGROUND}\"/>",
        num(w),
        num(h)
    );
    // The board, the last move's squares, then the grid over them.
    let (bw, bh) = (f64::from(l.width) * CELL, f64::from(l.height) * CELL);
    let _ = writeln!(
        out,
        "<rect class=\"board\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{BOARD_FILL}\"/>",
        num(l.x0),
        num(l.y0),
        num(bw),
        num(bh)
    );
    if let Some(mv) = last_move {
        let squares: Vec<Square> = mv.from().into_iter().chain([mv.to()]).collect();
        for sq in squares {
            let (cx, cy) = l.centre(g.file(sq), g.rank(sq));
            let _ = writeln!(
                out,
                "<rect class=\"last-move\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" \
                 fill=\"{HIGHLIGHT}\"/>",
                num(cx - CELL / 2.0),
                num(cy - CELL / 2.0),
                num(CELL),
                num(CELL)
            );
        }
    }
    let mut grid = String::new();
    for i in 1..l.width {
        let x = l.x0 + f64::from(i) * CELL;
        let _ = write!(grid, "M{} {}V{}", num(x), num(l.y0), num(l.y0 + bh));
    }
    for i in 1..l.height {
        let y = l.y0 + f64::from(i) * CELL;
        let _ = write!(grid, "M{} {}H{}", num(l.x0), num(y), num(l.x0 + bw));
    }
    let _ = writeln!(
        out,
        "<path class=\"grid\" d=\"{grid}\" stroke=\"{LINE}\" stroke-width=\"1\" fill=\"none\"/>"
    );
    let _ = writeln!(
        out,
        "<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" \
         stroke=\"{LINE}\" stroke-width=\"2.5\"/>",
        num(l.x0),
        num(l.y0),
        num(bw),
        num(bh)
    );
    // The pieces on the board and in hand: their bodies, then the arrow over them, then
    // their kanji (and the hands' counts) over the arrow.
    let shown = arrow_move.and_then(|mv| dropped(pos, mv));
    let mut pieces = Vec::new();
    for rank in 0..l.height {
        for file in (1..=l.width).rev() {
            let Some(sq) = g.square(file, rank) else {
                continue;
            };
            if let Some(piece) = pos.piece_at(sq) {
                pieces.push(Placed {
                    piece,
                    centre: l.centre(file, rank),
                    k: CELL,
                });
            }
        }
    }
    let mut counts = String::new();
    let _ = writeln!(out, "<g class=\"pieces\">");
    if l.hands {
        for color in [Color::White, Color::Black] {
            hand(&mut out, &l, pos, color, shown, &mut pieces, &mut counts);
        }
    }
    for &p in &pieces {
        piece_body(&mut out, p);
    }
    out.push_str("</g>\n");
    if let Some(mv) = arrow_move {
        if let Some(start) = arrow_start(&l, pos, mv) {
            let to = mv.to();
            arrow(&mut out, start, l.centre(g.file(to), g.rank(to)));
        }
    }
    let _ = writeln!(out, "<g class=\"glyphs\" font-family=\"{KANJI_FONTS}\">");
    for &p in &pieces {
        piece_glyph::<V>(&mut out, p);
    }
    out.push_str(&counts);
    out.push_str("</g>\n");
    // Coordinates: file numbers over the columns, rank labels right of the rows; after the
    // arrow, with a halo of the background, so that a drop arrow does not hide them.
    let _ = write!(
        out,
        "<g class=\"files\" font-family=\"{LATIN_FONTS}\" font-size=\"16\" fill=\"{INK}\" \
         stroke=\"{BACKGROUND}\" stroke-width=\"3\" paint-order=\"stroke\" \
         text-anchor=\"middle\">"
    );
    for file in (1..=l.width).rev() {
        let (cx, _) = l.centre(file, 0);
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\">{file}</text>",
            num(cx),
            num(l.y0 - 9.0)
        );
    }
    out.push_str("</g>\n");
    let font = match style.ranks {
        RankLabels::Kanji => KANJI_FONTS,
        RankLabels::Letters => LATIN_FONTS,
    };
    let _ = write!(
        out,
        "<g class=\"ranks\" font-family=\"{font}\" font-size=\"16\" fill=\"{INK}\" \
         stroke=\"{BACKGROUND}\" stroke-width=\"3\" paint-order=\"stroke\" \
         text-anchor=\"middle\">"
    );
    for rank in 0..l.height {
        let (_, cy) = l.centre(1, rank);
        let label = match style.ranks {
            RankLabels::Kanji => kanji_count(rank + 1),
            RankLabels::Letters => char::from(b'a' + rank).to_string(),
        };
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\">{label}</text>",
            num(l.x0 + bw + RANKS_W / 2.0),
            num(cy + 6.0)
        );
    }
    out.push_str("</g>\n");
    if !l.caption.is_empty() {
        let _ = write!(
            out,
            "<text class=\"caption\" font-family=\"{LATIN_FONTS}\" font-size=\"{}\" \
             fill=\"{INK}\" text-anchor=\"middle\">",
            num(CAPTION_SIZE)
        );
        for (i, line) in l.caption.iter().enumerate() {
            let _ = write!(
                out,
                "<tspan x=\"{}\" y=\"{}\">{}</tspan>",
                num(w / 2.0),
                num(l.caption_y + 20.0 + i as f64 * CAPTION_LINE),
                escape(line)
            );
        }
        out.push_str("</text>\n");
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_core::Kind;
    use kshogi_rules_kinzoku::Kinzoku;
    use kshogi_rules_kyoto::Kyoto;

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(1.0 / 3.0), "0.33");
        assert_eq!(num(-0.001), "0");
    }

    #[test]
    fn caption_width_bounds() {
        // By the classes of `char_em`: K 0.8, i 0.45, n o k u 0.64, space 0.45.
        assert!((text_width("Kinu", 10.0) - (0.8 + 0.45 + 0.64 + 0.64) * 10.0).abs() < 1e-9);
        assert_eq!(text_width("mW", 14.0), 28.0);
        assert_eq!(text_width("歩", 14.0), 14.0);
    }

    #[test]
    fn captions_wrap_at_commas_then_spaces() {
        // Widths by the classes of `char_em` at 14 px: "Kinzoku Shogi, ply 1," is
        // 12.24 em (171.4 px), with " black to move" (0.45 + 8.37 em) 294.8 px.
        let text = "Kinzoku Shogi, ply 1, black to move";
        assert_eq!(wrap(text, 300.0), [text]);
        assert_eq!(
            wrap(text, 208.0),
            ["Kinzoku Shogi, ply 1,", "black to move"]
        );
        // "Kinzoku Shogi," alone is 8.52 em (119.3 px).
        assert_eq!(
            wrap(text, 120.0),
            ["Kinzoku Shogi,", "ply 1,", "black to move"]
        );
        // A part too long for the row is split at its spaces; a word too long stays whole.
        assert_eq!(
            wrap("a, countdown: black must win", 100.0),
            ["a,", "countdown:", "black must", "win"]
        );
        assert_eq!(wrap("Mmmmmmmmmm", 50.0), ["Mmmmmmmmmm"]);
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
    }

    #[test]
    fn malformed_moves_are_ignored() {
        let pos = Position::<Kyoto>::start();
        let plain = svg(&pos, None, None, SvgStyle::DEFAULT);
        for bad in [
            Move::board(Square(3), Square(40), true),
            Move::board(Square(3), Square(3), false),
            Move::drop(Kind(60), Square(3)),
            Move::NULL,
            // A drop of a piece that is not in hand: no arrow (nowhere to start it).
            Move::drop(Kind(1), Square(12)),
        ] {
            let d = svg(&pos, None, Some(bad), SvgStyle::DEFAULT);
            assert_eq!(d, plain, "{bad:?}");
        }
    }

    #[test]
    fn no_hands_without_drops() {
        let d = svg(&Position::<Kinzoku>::start(), None, None, SvgStyle::DEFAULT);
        assert!(!d.contains("class=\"mark"), "{d}");
        // 3 files: 12 + 180 + 28 + 12 wide; 5 ranks: 40 + 300 + 12 high, and the caption
        // on two lines (30 + 18): "Kinzoku Shogi, ply 1, black to move" is 21.06 em at
        // the bounds of `char_em`, 295 px, wider than the 208 px between the margins.
        assert!(d.contains("width=\"232\" height=\"400\""), "{d}");
        assert!(d.contains(">Kinzoku Shogi, ply 1,</tspan>"), "{d}");
    }
}
