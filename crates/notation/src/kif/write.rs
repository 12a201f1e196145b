//! Writing a [`KifRecord`] as KIF text (UTF-8).

use super::diagram::STATE_KEY;
use super::record::{KifHeaderLine, KifRecord, KifTime, SideNames, HANDICAP_KEY};
use super::text::{
    display_width, full_width_digit, kanji_count, kanji_of, kif_name_of, rank_kanji,
};
use kshogi_core::{Color, Flip, Move, Piece, Position, Variant};
use std::fmt::Write as _;

/// The line between the header area and the moves.
pub(crate) const MOVES_HEADER: &str = "手数----指手---------消費時間--";

/// The width (in terminal columns) the move text is padded to before the time column, as
/// Kakinoki writes it: `   1 ７六歩(77)   ( 0:01/00:00:01)`.
const MOVE_COLUMNS: usize = 13;

/// Writes a record as KIF text (UTF-8, `\n` line ends, no BOM).
///
/// Layout: the header lines and comments in their order, with `手合割：<variant>` where the
/// record has its `手合割` line (first, before the other `key：value` lines, if it has none);
/// right after it, when the start position is not the variant's start (or its ply is not
/// 1), the board diagram; then `手数----指手---------消費時間--`, the comments on the start
/// position, the moves (each followed by its comments), the special move line, the result
/// line and the trailing comments.
///
/// A move line is `{number:>4} {move}`, plus the padded time column when the move has times:
/// the destination (`２四`, or `同　` when it is the previous move's destination), the piece
/// as it stood before the move, `成` when it flips or promotes (`不成` only where the variant
/// makes the flip optional and it is not taken), then the origin `(35)`; a drop names the
/// face dropped and ends in `打`.
pub fn to_kif<V: Variant>(record: &KifRecord<V>) -> String {
    let mut out = String::new();
    let start = *record.start();
    let has_handicap = record
        .headers
        .iter()
        .any(|h| matches!(h, KifHeaderLine::Field { key, .. } if key == HANDICAP_KEY));
    let mut handicap_written = false;
    for h in &record.headers {
        match h {
            KifHeaderLine::Comment(text) => {
                if !handicap_written && !has_handicap && !text.starts_with('#') {
                    write_handicap(&mut out, &start, record.names);
                    handicap_written = true;
                }
                write_comment(&mut out, &fix_encoding_note(text));
            }
            KifHeaderLine::Field { key, .. } if key == HANDICAP_KEY => {
                if !handicap_written {
                    write_handicap(&mut out, &start, record.names);
                    handicap_written = true;
                }
            }
            KifHeaderLine::Field { key, value } => {
                if !handicap_written && !has_handicap {
                    write_handicap(&mut out, &start, record.names);
                    handicap_written = true;
                }
                if is_reserved_key(key) {
                    continue;
                }
                let _ = writeln!(out, "{}：{}", one_line(key), one_line(value));
            }
        }
    }
    if !handicap_written {
        write_handicap(&mut out, &start, record.names);
    }
    out.push_str(MOVES_HEADER);
    out.push('\n');
    for c in &record.start_comments {
        write_comment(&mut out, c);
    }
    let mut pos = start;
    let mut prev = None;
    let mut number = u64::from(start.ply());
    for m in record.moves() {
        let text = move_text(&pos, m.mv(), prev);
        write_move_line(&mut out, number, &text, m.time);
        for c in &m.comments {
            write_comment(&mut out, c);
        }
        prev = Some(m.mv().to());
        pos = pos.after(m.mv());
        number += 1;
    }
    if let Some(end) = &record.end {
        write_move_line(&mut out, number, end.special.text(), end.time);
        for c in &end.comments {
            write_comment(&mut out, c);
        }
    }
    if let Some(s) = &record.summary {
        out.push_str(&one_line(s));
        out.push('\n');
    }
    for c in &record.trailing_comments {
        write_comment(&mut out, c);
    }
    out
}

/// Header keys the reader takes as part of a diagram: never written from `headers`.
fn is_reserved_key(key: &str) -> bool {
    key.ends_with("の持駒") || key == STATE_KEY || key.starts_with("手数") || key == "変化"
}

fn one_line(s: &str) -> String {
    s.replace(['\r', '\n'], " ")
}

/// A `#KIF ... encoding=...` line announces the encoding; the output is UTF-8.
fn fix_encoding_note(text: &str) -> String {
    if !text.starts_with("#KIF") {
        return text.to_string();
    }
    let Some(i) = text.find("encoding=") else {
        return text.to_string();
    };
    let value_start = i + "encoding=".len();
    let value_end = text[value_start..]
        .find(char::is_whitespace)
        .map_or(text.len(), |j| value_start + j);
    format!("{}UTF-8{}", &text[..value_start], &text[value_end..])
}

/// Writes comment lines: each line keeps its mark (`*`, `#`, `&`), or gets `*`.
fn write_comment(out: &mut String, text: &str) {
    for line in text.split('\n') {
        let line = line.trim_end_matches('\r');
        if !line.starts_with(['*', '#', '&']) {
            out.push('*');
        }
        out.push_str(line);
        out.push('\n');
    }
}

fn write_handicap<V: Variant>(out: &mut String, start: &Position<V>, names: SideNames) {
    let _ = writeln!(
        out,
        "{HANDICAP_KEY}：{}",
        kshogi_core::VariantInfo::of::<V>().kif_name()
    );
    if *start != Position::<V>::start() {
        out.push_str(&kif_diagram_named(start, names));
    }
}

/// The board diagram of a position, as written after the `手合割` line (every line ends in
/// `\n`):
///
/// ```text
/// 後手の持駒：なし
///   ５ ４ ３ ２ １
/// +---------------+
/// |v歩v金v玉v銀vと|一
/// | ・ ・ ・ ・ ・|二
/// | ・ ・ ・ ・ ・|三
/// | ・ ・ ・ ・ ・|四
/// | と 銀 玉 金 歩|五
/// +---------------+
/// 先手の持駒：なし
/// ```
///
/// followed by `後手番` when White is to move, `手数＝N` when the ply is not 1 (N moves were
/// played before, so the next move is number N+1), and, when the variant has state beyond
/// the board (Kinzoku's bare-king countdown), `カウントダウン：<SFEN field>` such as `b3`.
/// Hands list the pieces by the KIF name of their pair's first face, in the variant's hand
/// order, separated by full-width spaces, with kanji counts above one (`歩二`).
pub fn kif_diagram<V: Variant>(pos: &Position<V>) -> String {
    kif_diagram_named(pos, SideNames::SenteGote)
}

pub(crate) fn kif_diagram_named<V: Variant>(pos: &Position<V>, names: SideNames) -> String {
    let g = V::GEOMETRY;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}の持駒：{}",
        names.name(Color::White),
        hand_text(pos, Color::White)
    );
    out.push(' ');
    for file in (1..=g.width).rev() {
        out.push(' ');
        out.push(full_width_digit(file));
    }
    out.push('\n');
    let frame = format!("+{}+\n", "-".repeat(3 * usize::from(g.width)));
    out.push_str(&frame);
    for rank in 0..g.height {
        out.push('|');
        for file in (1..=g.width).rev() {
            match g.square(file, rank).and_then(|sq| pos.piece_at(sq)) {
                None => out.push_str(" ・"),
                Some(p) => {
                    out.push(if p.color == Color::White { 'v' } else { ' ' });
                    out.push(kanji_of::<V>(p.kind));
                }
            }
        }
        out.push('|');
        out.push(rank_kanji(rank));
        out.push('\n');
    }
    out.push_str(&frame);
    let _ = writeln!(
        out,
        "{}の持駒：{}",
        names.name(Color::Black),
        hand_text(pos, Color::Black)
    );
    if pos.side_to_move() == Color::White {
        let _ = writeln!(out, "{}番", names.name(Color::White));
    }
    if pos.ply() != 1 {
        let _ = writeln!(out, "手数＝{}", pos.ply() - 1);
    }
    if let Some(extra) = V::format_extra(pos.extra()) {
        let _ = writeln!(out, "{STATE_KEY}：{extra}");
    }
    out
}

fn hand_text<V: Variant>(pos: &Position<V>, color: Color) -> String {
    let t = V::tables();
    let mut parts = Vec::new();
    for slot in 0..t.slots {
        let n = pos.hand(color, slot);
        if n == 0 {
            continue;
        }
        let mut s = kif_name_of::<V>(t.slot_faces[slot][0]).to_string();
        if n > 1 {
            s.push_str(&kanji_count(u32::from(n)));
        }
        parts.push(s);
    }
    if parts.is_empty() {
        "なし".to_string()
    } else {
        parts.join("\u{3000}")
    }
}

/// The Japanese KIF text of one move, as written in a record's move line but without the
/// number and time: `２四銀成(35)`, `同　金(12)`, `と打`.
///
/// `pos` is the position before the move and `mv` must be legal in it; `prev` is the
/// destination of the move played just before (if any), which turns a move to the same
/// square into `同　` (with a full-width space). The rules are those of [`to_kif`]: the
/// destination, the piece as it stood before the move, `成` when it flips or promotes
/// (`不成` only where the flip is optional and not taken), then the origin in ASCII digits;
/// a drop names the face dropped and ends in `打`.
///
/// ```
/// use kshogi_core::Position;
/// use kshogi_notation::kif::kif_move_text;
/// use kshogi_notation::parse_usi;
/// use kshogi_rules_kyoto::Kyoto;
///
/// let pos = Position::<Kyoto>::start();
/// let mv = parse_usi(&pos, "1e1d+").unwrap();
/// assert_eq!(kif_move_text(&pos, mv, None), "１四歩成(15)");
/// assert_eq!(kif_move_text(&pos, mv, Some(mv.to())), "同\u{3000}歩成(15)");
/// ```
pub fn kif_move_text<V: Variant>(
    pos: &Position<V>,
    mv: Move,
    prev: Option<kshogi_core::Square>,
) -> String {
    move_text(pos, mv, prev)
}

/// The KIF text of a move (without number or time) in `pos`; `prev` is the previous move's
/// destination, for `同　`.
pub(crate) fn move_text<V: Variant>(
    pos: &Position<V>,
    mv: Move,
    prev: Option<kshogi_core::Square>,
) -> String {
    let g = V::GEOMETRY;
    let to = mv.to();
    let mut s = String::new();
    if prev == Some(to) {
        s.push_str("同\u{3000}");
    } else {
        s.push(full_width_digit(g.file(to)));
        s.push(rank_kanji(g.rank(to)));
    }
    match (mv.from(), mv.drop_kind()) {
        (Some(from), _) => {
            let piece = pos.piece_at(from);
            let kind = piece.map_or(kshogi_core::Kind(0), |p| p.kind);
            s.push_str(kif_name_of::<V>(kind));
            if mv.is_flip() {
                s.push('成');
            } else if let Some(Piece { color, kind }) = piece {
                let capture = pos.piece_at(to).is_some();
                if V::flip(kind, color, from, to, capture) == Flip::Optional {
                    s.push_str("不成");
                }
            }
            let _ = write!(s, "({}{})", g.file(from), g.rank(from) + 1);
        }
        (None, Some(kind)) => {
            s.push_str(kif_name_of::<V>(kind));
            s.push('打');
        }
        (None, None) => {}
    }
    s
}

fn write_move_line(out: &mut String, number: u64, text: &str, time: Option<KifTime>) {
    let _ = write!(out, "{number:>4} {text}");
    if let Some(t) = time {
        let pad = MOVE_COLUMNS.saturating_sub(display_width(text)).max(1);
        out.push_str(&" ".repeat(pad));
        let _ = write!(
            out,
            "({:>2}:{:02}/{:02}:{:02}:{:02})",
            t.move_seconds / 60,
            t.move_seconds % 60,
            t.total_seconds / 3600,
            t.total_seconds / 60 % 60,
            t.total_seconds % 60
        );
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_columns_line_up_as_kakinoki_writes_them() {
        let mut out = String::new();
        let t = KifTime {
            move_seconds: 3,
            total_seconds: 3,
        };
        write_move_line(&mut out, 1, "７六歩(77)", Some(t));
        write_move_line(&mut out, 3, "２二角成(88)", Some(t));
        write_move_line(&mut out, 5, "４五角打", Some(t));
        let t2 = KifTime {
            move_seconds: 754,
            total_seconds: 3725,
        };
        write_move_line(&mut out, 12, "同\u{3000}銀(31)", Some(t2));
        write_move_line(&mut out, 100, "投了", None);
        assert_eq!(
            out,
            "   1 ７六歩(77)   ( 0:03/00:00:03)\n\
             \u{20}  3 ２二角成(88) ( 0:03/00:00:03)\n\
             \u{20}  5 ４五角打     ( 0:03/00:00:03)\n\
             \u{20} 12 同\u{3000}銀(31)   (12:34/01:02:05)\n\
             \u{20}100 投了\n"
        );
    }

    #[test]
    fn encoding_note_is_rewritten() {
        assert_eq!(
            fix_encoding_note("#KIF version=2.0 encoding=Shift_JIS"),
            "#KIF version=2.0 encoding=UTF-8"
        );
        assert_eq!(fix_encoding_note("# other"), "# other");
    }

    #[test]
    fn comments_keep_or_get_a_mark() {
        let mut out = String::new();
        write_comment(&mut out, "*good move");
        write_comment(&mut out, "plain\n#second");
        assert_eq!(out, "*good move\n*plain\n#second\n");
    }
}
