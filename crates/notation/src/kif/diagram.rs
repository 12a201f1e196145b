//! Board diagrams (the BOD part of a KIF record): the hand lines, the file numbers, the
//! frame and the rows of the board, the side-to-move and `手数＝` lines and kshogi's
//! `カウントダウン` line, gathered in any order and checked against the variant, then made
//! into the start position.

use super::error::{KifError, KifErrorKind};
use super::lex::{Cursor, Line};
use super::record::SideNames;
use super::text::{
    digit_value, full_width_digit, is_space, kanji_digit, kanji_list, kind_by_kanji, kind_by_name,
    parse_count, rank_kanji, trim,
};
use kshogi_core::{Color, Piece, Position, Setup, Variant, MAX_SLOTS};

/// The header key of the variant state (Kinzoku's bare-king countdown), a kshogi extension
/// written after a board diagram; its value is the fifth SFEN field (`b3`).
pub(crate) const STATE_KEY: &str = "カウントダウン";

fn diagram_error(no: usize, col: usize, msg: impl Into<String>) -> KifError {
    KifError::at(no, Some(col), KifErrorKind::Diagram(msg.into()))
}

/// The parts of a board diagram, as they are read (in any order).
pub(crate) struct Diagram<V: Variant> {
    first_line: Option<usize>,
    last_line: usize,
    rows: Vec<Vec<Option<Piece>>>,
    hands: [Option<[u32; MAX_SLOTS]>; 2],
    side: Option<Color>,
    moves_played: Option<u32>,
    extra: Option<V::Extra>,
}

impl<V: Variant> Default for Diagram<V> {
    fn default() -> Self {
        Diagram {
            first_line: None,
            last_line: 0,
            rows: Vec::new(),
            hands: [None, None],
            side: None,
            moves_played: None,
            extra: None,
        }
    }
}

impl<V: Variant> Diagram<V> {
    fn mark_line(&mut self, no: usize) {
        if self.first_line.is_none() {
            self.first_line = Some(no);
        }
        self.last_line = no;
    }

    /// Reads `line` if it is a diagram line that is not a `key：value` field (a board row,
    /// the frame, the file numbers, the side to move, `手数＝`); `None` if it is none of
    /// these. A side line with `上手`/`下手` switches `names`.
    pub(crate) fn line(
        &mut self,
        line: &Line,
        names: &mut SideNames,
    ) -> Option<Result<(), KifError>> {
        let (no, t, lead) = (line.no, line.trimmed, line.lead);
        if t.starts_with('|') {
            return Some(self.board_row(no, t, lead));
        }
        if t.starts_with('+') && t.ends_with('+') && t.len() > 1 {
            let inner = &t[1..t.len() - 1];
            if inner.chars().all(|c| c == '-') {
                self.mark_line(no);
                let want = 3 * usize::from(V::GEOMETRY.width);
                if inner.len() != want {
                    return Some(Err(diagram_error(
                        no,
                        lead + 1,
                        format!(
                            "the frame is {} dashes wide; the {} files of {} need {want}",
                            inner.len(),
                            V::GEOMETRY.width,
                            V::DISPLAY_NAME
                        ),
                    )));
                }
                return Some(Ok(()));
            }
        }
        if t.starts_with(|c: char| ('１'..='９').contains(&c)) {
            return Some(self.file_numbers(no, t, lead));
        }
        if let "先手番" | "下手番" | "後手番" | "上手番" = t {
            self.mark_line(no);
            if t.starts_with('上') || t.starts_with('下') {
                *names = SideNames::ShitateUwate;
            }
            if self.side.is_some() {
                return Some(Err(diagram_error(
                    no,
                    lead + 1,
                    "a second side-to-move line",
                )));
            }
            self.side = Some(if t == "先手番" || t == "下手番" {
                Color::Black
            } else {
                Color::White
            });
            return Some(Ok(()));
        }
        if let Some(rest) = t.strip_prefix("手数＝") {
            self.mark_line(no);
            let mut c = Cursor::new(no, rest);
            let Some(n) = c.number() else {
                return Some(Err(KifError::syntax(
                    no,
                    lead + 4,
                    "expected the number of moves played after `手数＝`",
                )));
            };
            self.moves_played = Some(u32::try_from(n).unwrap_or(u32::MAX));
            return Some(Ok(()));
        }
        None
    }

    /// Reads the field `key：value` (its value at column `value_col`) if it is a diagram
    /// line (a hand, the variant state); `None` if it is another header field.
    pub(crate) fn field(
        &mut self,
        no: usize,
        key: &str,
        value: &str,
        value_col: usize,
        names: &mut SideNames,
    ) -> Option<Result<(), KifError>> {
        match key {
            "先手の持駒" | "下手の持駒" => {
                Some(self.hand_line(no, Color::Black, key, value, value_col, names))
            }
            "後手の持駒" | "上手の持駒" => {
                Some(self.hand_line(no, Color::White, key, value, value_col, names))
            }
            STATE_KEY => {
                self.mark_line(no);
                Some(
                    V::parse_extra(trim(value))
                        .map(|extra| self.extra = Some(extra))
                        .map_err(|m| {
                            KifError::at(no, Some(value_col), KifErrorKind::Diagram(m.to_string()))
                        }),
                )
            }
            _ => None,
        }
    }

    fn hand_line(
        &mut self,
        no: usize,
        color: Color,
        key: &str,
        value: &str,
        value_col: usize,
        names: &mut SideNames,
    ) -> Result<(), KifError> {
        self.mark_line(no);
        if key.starts_with('上') || key.starts_with('下') {
            *names = SideNames::ShitateUwate;
        }
        if self.hands[color.index()].is_some() {
            return Err(diagram_error(no, 1, format!("a second `{key}` line")));
        }
        let mut counts = [0u32; MAX_SLOTS];
        let chars: Vec<char> = value.chars().collect();
        let v = trim(value);
        if !(v.is_empty() || v == "なし") {
            let mut i = 0;
            while i < chars.len() {
                if is_space(chars[i]) {
                    i += 1;
                    continue;
                }
                let col = value_col + i;
                let k = chars[i];
                let (kind, len) = kind_by_name::<V>(&chars[i..]).ok_or_else(|| {
                    diagram_error(
                        no,
                        col,
                        format!(
                            "unknown piece `{k}` in hand for {} (the pieces are {})",
                            V::DISPLAY_NAME,
                            kanji_list::<V>()
                        ),
                    )
                })?;
                let def = &V::PIECES[kind.index()];
                let slot = def.hand_slot.ok_or_else(|| {
                    diagram_error(
                        no,
                        col,
                        if V::tables().slots == 0 {
                            format!(
                                "{} has no pieces in hand; the hand must be `なし`",
                                V::DISPLAY_NAME
                            )
                        } else {
                            format!("a {} ({k}) is never in hand", def.name)
                        },
                    )
                })?;
                i += len;
                let start = i;
                while i < chars.len()
                    && (digit_value(chars[i]).is_some()
                        || kanji_digit(chars[i]).is_some()
                        || chars[i] == '十')
                {
                    i += 1;
                }
                let count_text: String = chars[start..i].iter().collect();
                let n = if count_text.is_empty() {
                    1
                } else {
                    parse_count(&count_text).ok_or_else(|| {
                        diagram_error(
                            no,
                            value_col + start,
                            format!("`{count_text}` is not a count such as `二` or `十一`"),
                        )
                    })?
                };
                counts[usize::from(slot)] = counts[usize::from(slot)].saturating_add(n);
            }
        }
        self.hands[color.index()] = Some(counts);
        Ok(())
    }

    fn file_numbers(&mut self, no: usize, t: &str, lead: usize) -> Result<(), KifError> {
        self.mark_line(no);
        let width = V::GEOMETRY.width;
        let digits: Vec<u32> = t.chars().filter_map(digit_value).collect();
        let only = t.chars().all(|c| is_space(c) || digit_value(c).is_some());
        let want: Vec<u32> = (1..=u32::from(width)).rev().collect();
        if !only || digits != want {
            let want_text: Vec<String> = want
                .iter()
                .map(|&d| full_width_digit(d as u8).to_string())
                .collect();
            return Err(diagram_error(
                no,
                lead + 1,
                format!(
                    "expected the file numbers `{}` of the {} files of {}",
                    want_text.join(" "),
                    width,
                    V::DISPLAY_NAME
                ),
            ));
        }
        Ok(())
    }

    fn board_row(&mut self, no: usize, t: &str, lead: usize) -> Result<(), KifError> {
        self.mark_line(no);
        let g = V::GEOMETRY;
        let width = usize::from(g.width);
        let rank = self.rows.len();
        if rank >= usize::from(g.height) {
            return Err(diagram_error(
                no,
                lead + 1,
                format!(
                    "more than {} board rows; {} has {} ranks",
                    g.height,
                    V::DISPLAY_NAME,
                    g.height
                ),
            ));
        }
        let chars: Vec<char> = t.chars().collect();
        let col = |i: usize| lead + i + 1;
        let mut row = Vec::with_capacity(width);
        let mut i = 1;
        for f in 0..width {
            let color = match chars.get(i) {
                Some(' ') => Color::Black,
                Some('v') => Color::White,
                Some('|') => {
                    return Err(diagram_error(
                        no,
                        col(i),
                        format!(
                            "the row has {f} squares; {} has {width} files",
                            V::DISPLAY_NAME
                        ),
                    ))
                }
                Some(c) => {
                    return Err(diagram_error(
                        no,
                        col(i),
                        format!(
                            "expected ` ` (Black's piece or an empty square) or `v` (White's \
                             piece) before each square, found `{c}`"
                        ),
                    ))
                }
                None => {
                    return Err(diagram_error(
                        no,
                        col(i),
                        format!("the row is cut off after {f} squares"),
                    ))
                }
            };
            let piece = match chars.get(i + 1) {
                Some('・') if color == Color::Black => None,
                Some('・') => return Err(diagram_error(no, col(i), "`v` before an empty square")),
                Some(&k) => {
                    let kind = kind_by_kanji::<V>(k).ok_or_else(|| {
                        diagram_error(
                            no,
                            col(i + 1),
                            format!(
                                "unknown piece `{k}` for {} (the pieces are {}, and ` ・` is \
                                 an empty square)",
                                V::DISPLAY_NAME,
                                kanji_list::<V>()
                            ),
                        )
                    })?;
                    Some(Piece::new(color, kind))
                }
                None => {
                    return Err(diagram_error(
                        no,
                        col(i + 1),
                        format!("the row is cut off after {f} squares"),
                    ))
                }
            };
            row.push(piece);
            i += 2;
        }
        match chars.get(i) {
            Some('|') => {}
            Some(' ') | Some('v') => {
                return Err(diagram_error(
                    no,
                    col(i),
                    format!(
                        "the row has more than {width} squares; {} has {width} files",
                        V::DISPLAY_NAME
                    ),
                ))
            }
            _ => return Err(diagram_error(no, col(i), "expected `|` closing the row")),
        }
        i += 1;
        let want = rank_kanji(rank as u8);
        match chars.get(i) {
            None => {}
            Some(&c) if c == want => i += 1,
            Some(&c) => {
                return Err(diagram_error(
                    no,
                    col(i),
                    format!(
                        "expected the rank numeral `{want}` of row {}, found `{c}`",
                        rank + 1
                    ),
                ))
            }
        }
        if let Some(&c) = chars.get(i) {
            return Err(diagram_error(
                no,
                col(i),
                format!("unexpected `{c}` after the row"),
            ));
        }
        self.rows.push(row);
        Ok(())
    }

    /// The start position: the variant's start without a diagram, else the diagram's
    /// position. `first_number` is the number of the first move line, which gives the ply
    /// when the diagram has no `手数＝` line.
    pub(crate) fn position(&self, first_number: Option<u64>) -> Result<Position<V>, KifError> {
        let Some(first) = self.first_line else {
            return Ok(Position::<V>::start());
        };
        let g = V::GEOMETRY;
        let d = self;
        if d.rows.len() != usize::from(g.height) {
            return Err(KifError::at(
                d.last_line,
                None,
                KifErrorKind::Diagram(format!(
                    "the board has {} rows; {} has {} ranks",
                    d.rows.len(),
                    V::DISPLAY_NAME,
                    g.height
                )),
            ));
        }
        let mut setup = Setup::<V>::empty();
        for (rank, row) in d.rows.iter().enumerate() {
            for (i, p) in row.iter().enumerate() {
                let file = g.width - i as u8;
                if let Some(sq) = g.square(file, rank as u8) {
                    setup.board[sq.index()] = *p;
                }
            }
        }
        for c in Color::ALL {
            if let Some(h) = d.hands[c.index()] {
                for (slot, n) in h.iter().enumerate() {
                    setup.hands[c.index()][slot] = (*n).min(255) as u8;
                }
            }
        }
        setup.side = d.side.unwrap_or(Color::Black);
        setup.ply = match (d.moves_played, first_number) {
            (Some(n), _) => n.saturating_add(1).min(kshogi_core::MAX_PLY),
            (None, Some(n)) if n >= 1 => u32::try_from(n)
                .unwrap_or(u32::MAX)
                .min(kshogi_core::MAX_PLY),
            _ => 1,
        };
        if let Some(extra) = d.extra {
            setup.extra = extra;
        }
        Position::from_setup(&setup)
            .map_err(|e| KifError::at(first, None, KifErrorKind::Position(e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::to_sfen;
    use kshogi_rules_kyoto::Kyoto;

    fn read(lines: &[&str]) -> Result<(Position<Kyoto>, SideNames), KifError> {
        let mut d = Diagram::<Kyoto>::default();
        let mut names = SideNames::SenteGote;
        for (i, text) in lines.iter().enumerate() {
            let line = Line::new(i + 1, text);
            let done = d.line(&line, &mut names).or_else(|| {
                let (key, value) = line.text.split_once('：')?;
                let col = line.text.chars().take_while(|&c| c != '：').count() + 2;
                d.field(line.no, trim(key), value, col, &mut names)
            });
            done.expect("a diagram line")?;
        }
        Ok((d.position(None)?, names))
    }

    #[test]
    fn no_diagram_is_the_start() {
        assert_eq!(read(&[]).unwrap().0, Position::start());
    }

    #[test]
    fn a_diagram_in_any_order() {
        // Kings on 3a and 3e, Black's gold on 2e, White holds a pawn/rook pair; White to
        // move after 9 moves.
        let (pos, names) = read(&[
            "上手番",
            "先手の持駒：なし",
            "  ５ ４ ３ ２ １",
            "+---------------+",
            "| ・ ・v玉 ・ ・|一",
            "| ・ ・ ・ ・ ・|二",
            "| ・ ・ ・ ・ ・|三",
            "| ・ ・ ・ ・ ・|四",
            "| ・ ・ 玉 金 ・|五",
            "+---------------+",
            "後手の持駒：飛",
            "手数＝9",
        ])
        .unwrap();
        assert_eq!(to_sfen(&pos), "2k2/5/5/5/2KG1 w p 10");
        assert_eq!(names, SideNames::ShitateUwate);
    }

    #[test]
    fn parts_are_checked_against_the_variant() {
        let e = read(&["| ・ ・ ・ ・|一"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1: column 10: board diagram: the row has 4 squares; Kyoto Shogi has 5 files"
        );
        let e = read(&["+------+"]).unwrap_err();
        assert!(e.to_string().contains("the frame is 6 dashes wide"), "{e}");
        let e = read(&["先手番", "後手番"]).unwrap_err();
        assert!(
            e.to_string()
                .contains("line 2: column 1: board diagram: a second side"),
            "{e}"
        );
        let e = read(&["| ・ ・ ・ ・ ・|一"]).unwrap_err();
        assert!(
            e.to_string()
                .contains("the board has 1 rows; Kyoto Shogi has 5 ranks"),
            "{e}"
        );
        let e = read(&["カウントダウン：b3"]).unwrap_err();
        assert!(
            e.to_string().contains("Kyoto Shogi has no variant state"),
            "{e}"
        );
    }
}
