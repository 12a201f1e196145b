//! Reading KIF text into a [`KifRecord`].

use super::encoding::decode_kif;
use super::error::{KifError, KifErrorKind};
use super::record::{
    parse_summary, KifEnd, KifHeaderLine, KifMove, KifRecord, KifResult, KifSpecial, KifTime,
    SideNames, Summary, HANDICAP_KEY,
};
use super::text::{
    digit_value, full_width_digit, is_space, kanji_digit, kanji_list, kind_by_kanji, kind_by_name,
    parse_count, rank_kanji, trim,
};
use kshogi_core::{Color, Game, GameError, Kind, Move, Piece, Position, Setup, Square, Variant};
use kshogi_core::{VariantInfo, MAX_SLOTS};

/// The header key of the variant state (Kinzoku's bare-king countdown), a kshogi extension
/// written after a board diagram; its value is the fifth SFEN field (`b3`).
pub(crate) const STATE_KEY: &str = "カウントダウン";

fn known_names(known: &[VariantInfo]) -> String {
    known
        .iter()
        .map(|k| format!("{} ({})", k.kif_name(), k.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Decodes the bytes of a KIF file (see [`decode_kif`]) and reads the record.
pub fn read_kif<V: Variant>(bytes: &[u8]) -> Result<KifRecord<V>, KifError> {
    parse_kif(&decode_kif(bytes)?)
}

/// Finds the variant a KIF record is for, from its `手合割` header (the first one, before
/// the moves), among the variants `known` (a registry's list): the index into `known` of
/// the variant one of whose [`VariantInfo::kif_names`] the header names.
///
/// An error names the line of a `手合割` value none of them has, or, when there is no such
/// header, the line where the header area ends.
pub fn kif_variant(text: &str, known: &[VariantInfo]) -> Result<usize, KifError> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut end = 1;
    for (i, raw) in text.split('\n').enumerate() {
        let no = i + 1;
        end = no;
        let t = trim(raw.trim_end_matches('\r'));
        if t.starts_with(|c: char| c.is_ascii_digit())
            || t.starts_with("手数-")
            || t.starts_with("まで")
        {
            break;
        }
        if t.starts_with(['#', '*', '&']) {
            continue;
        }
        if let Some((key, value)) = raw.split_once('：') {
            if trim(key) == HANDICAP_KEY {
                let v = trim(value.trim_end_matches('\r'));
                return known.iter().position(|k| k.is_kif_name(v)).ok_or_else(|| {
                    KifError::at(
                        no,
                        Some(raw.chars().take_while(|&c| c != '：').count() + 2),
                        KifErrorKind::Variant(format!(
                            "`手合割：{v}` is not a variant kshogi reads; it knows {}",
                            known_names(known)
                        )),
                    )
                });
            }
        }
    }
    Err(KifError::at(
        end,
        None,
        KifErrorKind::Variant(format!(
            "no `手合割` header before this line says which variant the record is ({}); \
             add one or name the variant explicitly",
            known_names(known)
        )),
    ))
}

/// Reads a KIF record of variant `V` from text (already decoded; a leading BOM is skipped).
///
/// Every move is checked against the rules; the first problem is returned with its line
/// number. A `手合割` header is not required (the caller chose the variant), but one that
/// names another variant kshogi knows, or standard shogi (`平手`, `…落ち`), is an error;
/// any other value is accepted and kept.
pub fn parse_kif<V: Variant>(text: &str) -> Result<KifRecord<V>, KifError> {
    parse_kif_among::<V>(text, &[])
}

/// [`parse_kif`], where a `手合割` header that names another of the variants `known` (a
/// registry's list) is an error naming both, rather than a value kept as it is.
pub fn parse_kif_among<V: Variant>(
    text: &str,
    known: &'static [VariantInfo],
) -> Result<KifRecord<V>, KifError> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut reader = Reader::<V>::new(known);
    for (i, raw) in text.split('\n').enumerate() {
        reader.line(i + 1, raw)?;
    }
    reader.finish()
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stage {
    /// Headers, comments, board diagram.
    Header,
    /// After the `手数----` line or the first move.
    Moves,
    /// After a special move line (`投了`, ...).
    Ended,
    /// After the result line.
    Summarized,
}

/// The parts of a board diagram, as they are read (in any order).
struct Diagram<V: Variant> {
    first_line: Option<usize>,
    last_line: usize,
    rows: Vec<Vec<Option<Piece>>>,
    hands: [Option<[u32; MAX_SLOTS]>; 2],
    side: Option<Color>,
    moves_played: Option<u32>,
    extra: Option<V::Extra>,
}

struct Reader<V: Variant> {
    /// The variants a `手合割` header may name besides `V` (see [`parse_kif_among`]).
    known: &'static [VariantInfo],
    headers: Vec<KifHeaderLine>,
    names: SideNames,
    diagram: Diagram<V>,
    stage: Stage,
    start_comments: Vec<String>,
    game: Option<Game<V>>,
    moves: Vec<KifMove>,
    end: Option<(usize, KifEnd)>,
    summary: Option<String>,
    trailing: Vec<String>,
}

/// A flip mark after the piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Mark {
    None,
    Flip,
    NoFlip,
}

/// A move line's move, read but not yet checked against the position.
struct MoveSpec {
    /// Destination (file, rank from 1) and its column, or `None` for `同`.
    dest: Option<(u8, u8)>,
    dest_col: usize,
    kind: Kind,
    mark: Mark,
    mark_col: usize,
    /// Origin (file, rank from 1) and its column, or `None` for a drop.
    origin: Option<(u8, u8)>,
    origin_col: usize,
}

enum Body {
    Special(KifSpecial),
    Move(MoveSpec),
}

struct MoveLine {
    number: u64,
    number_col: usize,
    body: Body,
    body_text: String,
    body_col: usize,
    time: Option<KifTime>,
    /// A comment after the move on the same line (`* text`), kept as a comment line.
    comment: Option<String>,
}

/// A cursor over the characters of one line; columns count characters from 1.
struct Cursor {
    chars: Vec<char>,
    i: usize,
    line: usize,
}

impl Cursor {
    fn new(line_no: usize, text: &str) -> Cursor {
        Cursor {
            chars: text.chars().collect(),
            i: 0,
            line: line_no,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    fn col(&self) -> usize {
        self.i + 1
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn eat_str(&mut self, s: &str) -> bool {
        let n = s.chars().count();
        if self.chars.len() >= self.i + n
            && self.chars[self.i..self.i + n].iter().copied().eq(s.chars())
        {
            self.i += n;
            true
        } else {
            false
        }
    }

    fn skip_spaces(&mut self) -> usize {
        let start = self.i;
        while self.peek().is_some_and(is_space) {
            self.i += 1;
        }
        self.i - start
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(c) => format!("`{c}`"),
            None => "the end of the line".into(),
        }
    }

    fn expected(&self, what: &str) -> KifError {
        KifError::syntax(
            self.line,
            self.col(),
            format!("expected {what}, found {}", self.found()),
        )
    }

    /// A run of digits (ASCII or full-width) as a number; `None` if there is none.
    fn number(&mut self) -> Option<u64> {
        let start = self.i;
        let mut n: u64 = 0;
        while let Some(d) = self.peek().and_then(digit_value) {
            n = n.saturating_mul(10).saturating_add(u64::from(d));
            self.i += 1;
        }
        (self.i > start).then_some(n)
    }

    /// A run of ASCII digits as a number (move numbers are never full-width).
    fn ascii_number(&mut self) -> Option<u64> {
        let start = self.i;
        let mut n: u64 = 0;
        while let Some(d) = self.peek().filter(char::is_ascii_digit) {
            n = n
                .saturating_mul(10)
                .saturating_add(u64::from(d as u32 - '0' as u32));
            self.i += 1;
        }
        (self.i > start).then_some(n)
    }

    fn rest(&self) -> String {
        self.chars[self.i.min(self.chars.len())..].iter().collect()
    }
}

/// Reads the time columns `( 0:03/00:00:03)`, the cursor on `(`.
fn parse_time(c: &mut Cursor) -> Result<KifTime, KifError> {
    const FORM: &str = "a time column such as `( 0:03/00:00:03)` (minutes:seconds of the \
                        move / hours:minutes:seconds in total)";
    let start_col = c.col();
    let bad = |c: &Cursor| {
        KifError::syntax(
            c.line,
            start_col,
            format!("expected {FORM}, found {} at column {}", c.found(), c.col()),
        )
    };
    c.eat('(');
    c.skip_spaces();
    let m = c.number().ok_or_else(|| bad(c))?;
    if !c.eat(':') {
        return Err(bad(c));
    }
    let s = c.number().filter(|&s| s < 60).ok_or_else(|| bad(c))?;
    c.skip_spaces();
    if !c.eat('/') {
        return Err(bad(c));
    }
    c.skip_spaces();
    let th = c.number().ok_or_else(|| bad(c))?;
    if !c.eat(':') {
        return Err(bad(c));
    }
    let tm = c.number().filter(|&x| x < 60).ok_or_else(|| bad(c))?;
    if !c.eat(':') {
        return Err(bad(c));
    }
    let ts = c.number().filter(|&x| x < 60).ok_or_else(|| bad(c))?;
    c.skip_spaces();
    if !c.eat(')') {
        return Err(bad(c));
    }
    let secs = |x: u64| u32::try_from(x).unwrap_or(u32::MAX);
    Ok(KifTime {
        move_seconds: secs(m.saturating_mul(60).saturating_add(s)),
        total_seconds: secs(
            th.saturating_mul(3600)
                .saturating_add(tm * 60)
                .saturating_add(ts),
        ),
    })
}

/// Reads the form of a move line (no rules yet).
fn parse_move_line<V: Variant>(no: usize, line: &str) -> Result<MoveLine, KifError> {
    let mut c = Cursor::new(no, line);
    c.skip_spaces();
    let number_col = c.col();
    let number = c
        .ascii_number()
        .ok_or_else(|| c.expected("a move number"))?;
    if c.skip_spaces() == 0 {
        return Err(c.expected("a space after the move number"));
    }
    let body_col = c.col();
    let body_start = c.i;
    let body = if let Some(sp) = KifSpecial::ALL.into_iter().find(|sp| c.eat_str(sp.text())) {
        Body::Special(sp)
    } else {
        let dest_col = c.col();
        let dest = if c.eat('同') {
            c.skip_spaces();
            None
        } else {
            let file = c
                .peek()
                .and_then(digit_value)
                .filter(|d| (1..=9).contains(d))
                .ok_or_else(|| {
                    c.expected("a destination: a full-width file digit and a kanji rank such as `２四`, or `同　` for the square of the last move, or a special move such as `投了`")
                })?;
            c.i += 1;
            let rank = c.peek().and_then(kanji_digit).ok_or_else(|| {
                c.expected("a kanji rank numeral (一 to 九) after the file digit")
            })?;
            c.i += 1;
            Some((file as u8, rank as u8))
        };
        let piece_col = c.col();
        let (kind, len) = match c.peek() {
            None => return Err(c.expected("a piece kanji")),
            Some(k) => kind_by_name::<V>(&c.chars[c.i..]).ok_or_else(|| {
                KifError::syntax(
                    no,
                    piece_col,
                    format!(
                        "unknown piece `{k}` for {} (the pieces are {})",
                        V::DISPLAY_NAME,
                        kanji_list::<V>()
                    ),
                )
            })?,
        };
        c.i += len;
        let mark_col = c.col();
        let mark = if c.eat_str("不成") {
            Mark::NoFlip
        } else if c.eat('成') {
            Mark::Flip
        } else {
            Mark::None
        };
        let origin_col = c.col();
        let origin = if c.eat('打') {
            if mark != Mark::None {
                return Err(KifError::syntax(
                    no,
                    mark_col,
                    "a drop (`打`) cannot have `成` or `不成`",
                ));
            }
            None
        } else if c.eat('(') {
            let form = "the origin as a file digit and a rank digit such as `(35)`";
            let f = c
                .peek()
                .and_then(digit_value)
                .ok_or_else(|| c.expected(form))?;
            c.i += 1;
            let r = c
                .peek()
                .and_then(digit_value)
                .ok_or_else(|| c.expected(form))?;
            c.i += 1;
            if !c.eat(')') {
                return Err(c.expected("`)` after the two digits of the origin"));
            }
            Some((f as u8, r as u8))
        } else {
            return Err(c.expected("the origin such as `(35)`, or `打` for a drop"));
        };
        Body::Move(MoveSpec {
            dest,
            dest_col,
            kind,
            mark,
            mark_col,
            origin,
            origin_col,
        })
    };
    let body_text: String = c.chars[body_start..c.i].iter().collect();
    c.skip_spaces();
    let time = if c.peek() == Some('(') {
        Some(parse_time(&mut c)?)
    } else {
        None
    };
    c.skip_spaces();
    // A comment after the move on the same line, as lishogi's reader accepts: kept as the
    // comment line `*text` on the move.
    let comment = if c.eat('*') {
        let text = c.rest();
        c.i = c.chars.len();
        Some(format!("*{}", text.trim_start_matches(is_space)))
    } else {
        None
    };
    if c.peek() == Some('+') {
        return Err(KifError::at(
            no,
            Some(c.col()),
            KifErrorKind::Unsupported(
                "`+` marks a move with variations, which kshogi does not read; remove the \
                 variations and the mark"
                    .into(),
            ),
        ));
    }
    if c.peek().is_some() {
        return Err(KifError::syntax(
            no,
            c.col(),
            format!(
                "unexpected `{}` after the move; expected the time column, a comment `* …` \
                 or the end of the line",
                c.rest()
            ),
        ));
    }
    Ok(MoveLine {
        number,
        number_col,
        body,
        body_text,
        body_col,
        time,
        comment,
    })
}

/// A square in KIF notation (`２四`).
fn kif_square<V: Variant>(sq: Square) -> String {
    let g = V::GEOMETRY;
    format!("{}{}", full_width_digit(g.file(sq)), rank_kanji(g.rank(sq)))
}

fn describe(r: KifResult, names: SideNames) -> String {
    match r {
        KifResult::Win(c) => format!("{} ({c}) wins", names.name(c)),
        KifResult::Draw => "a draw".into(),
        KifResult::Suspended => "the game was suspended".into(),
    }
}

/// Checks a move spec against the position and returns the legal move it names.
fn resolve<V: Variant>(
    pos: &Position<V>,
    spec: &MoveSpec,
    prev: Option<Square>,
    no: usize,
    text: &str,
    col: usize,
) -> Result<Move, KifError> {
    let g = V::GEOMETRY;
    let side = pos.side_to_move();
    let illegal = |reason: String| {
        KifError::at(
            no,
            Some(col),
            KifErrorKind::IllegalMove {
                text: text.to_string(),
                reason,
            },
        )
    };
    let to = match spec.dest {
        None => prev.ok_or_else(|| {
            KifError::syntax(
                no,
                spec.dest_col,
                "`同` (the square of the last move) needs a move before it",
            )
        })?,
        Some((f, r)) => g.square(f, r - 1).ok_or_else(|| {
            KifError::syntax(
                no,
                spec.dest_col,
                format!(
                    "destination `{}{}` is off the {}x{} board of {}",
                    full_width_digit(f),
                    rank_kanji(r - 1),
                    g.width,
                    g.height,
                    V::DISPLAY_NAME
                ),
            )
        })?,
    };
    let def = &V::PIECES[spec.kind.index()];
    let Some((f, r)) = spec.origin else {
        let Some(slot) = def.hand_slot else {
            return Err(illegal(if V::tables().slots == 0 {
                format!("{} has no drops", V::DISPLAY_NAME)
            } else {
                format!("a {} is never dropped", def.name)
            }));
        };
        if pos.hand(side, usize::from(slot)) == 0 {
            return Err(illegal(format!(
                "{side} has no {} ({}) in hand",
                def.name, def.kanji
            )));
        }
        if pos.piece_at(to).is_some() {
            return Err(illegal(format!("{} is occupied", kif_square::<V>(to))));
        }
        let mv = Move::drop(spec.kind, to);
        if !pos.is_legal(mv) {
            return Err(illegal("the drop leaves the king in check".into()));
        }
        return Ok(mv);
    };
    let from = (r >= 1)
        .then(|| g.square(f, r - 1))
        .flatten()
        .ok_or_else(|| {
            KifError::syntax(
                no,
                spec.origin_col,
                format!(
                    "origin `({f}{r})` is off the {}x{} board",
                    g.width, g.height
                ),
            )
        })?;
    let piece = pos
        .piece_at(from)
        .ok_or_else(|| illegal(format!("there is no piece on {}", kif_square::<V>(from))))?;
    let here = V::PIECES[piece.kind.index()];
    if piece.color != side {
        return Err(illegal(format!(
            "the {} on {} is {}'s, and {side} is to move",
            here.name,
            kif_square::<V>(from),
            piece.color
        )));
    }
    if piece.kind != spec.kind {
        return Err(illegal(format!(
            "the piece on {} is a {} ({}), not {}",
            kif_square::<V>(from),
            here.name,
            here.kanji,
            def.kanji
        )));
    }
    let candidates: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| m.from() == Some(from) && m.to() == to)
        .collect();
    if candidates.is_empty() {
        return Err(illegal(format!(
            "the {} on {} cannot go to {} here",
            here.name,
            kif_square::<V>(from),
            kif_square::<V>(to)
        )));
    }
    let flip = candidates.iter().copied().find(|m| m.is_flip());
    let plain = candidates.iter().copied().find(|m| !m.is_flip());
    let chosen = match spec.mark {
        Mark::Flip => flip.ok_or_else(|| {
            KifError::at(
                no,
                Some(spec.mark_col),
                KifErrorKind::IllegalMove {
                    text: text.to_string(),
                    reason: format!(
                        "`成` but the {} does not flip or promote on this move",
                        here.name
                    ),
                },
            )
        })?,
        Mark::NoFlip => plain.ok_or_else(|| {
            KifError::at(
                no,
                Some(spec.mark_col),
                KifErrorKind::IllegalMove {
                    text: text.to_string(),
                    reason: format!(
                        "`不成` but the {} must flip or promote on this move",
                        here.name
                    ),
                },
            )
        })?,
        // No mark: a mandatory flip may be left unwritten; an optional one is not taken.
        Mark::None => plain.or(flip).unwrap_or(candidates[0]),
    };
    Ok(chosen)
}

impl<V: Variant> Reader<V> {
    fn new(known: &'static [VariantInfo]) -> Reader<V> {
        Reader {
            known,
            headers: Vec::new(),
            names: SideNames::SenteGote,
            diagram: Diagram {
                first_line: None,
                last_line: 0,
                rows: Vec::new(),
                hands: [None, None],
                side: None,
                moves_played: None,
                extra: None,
            },
            stage: Stage::Header,
            start_comments: Vec::new(),
            game: None,
            moves: Vec::new(),
            end: None,
            summary: None,
            trailing: Vec::new(),
        }
    }

    fn line(&mut self, no: usize, raw: &str) -> Result<(), KifError> {
        let line = raw.trim_end_matches(['\r', ' ', '\t']);
        let t = trim(line);
        if t.is_empty() {
            return Ok(());
        }
        if t.starts_with(['#', '*', '&']) {
            self.comment(t.to_string());
            return Ok(());
        }
        if t.starts_with("変化：") || t.starts_with("変化:") {
            return Err(KifError::at(
                no,
                None,
                KifErrorKind::Unsupported(
                    "variations (`変化：`) are not supported; keep only the main line".into(),
                ),
            ));
        }
        if self.stage == Stage::Summarized {
            return Err(KifError::syntax(
                no,
                1,
                "only comments may follow the result line (`まで…`)",
            ));
        }
        if t.starts_with(|c: char| c.is_ascii_digit()) {
            return self.move_line(no, line);
        }
        if t.starts_with("まで") {
            return self.summary_line(no, t);
        }
        match self.stage {
            Stage::Header => self.header_line(no, line, t),
            Stage::Moves => Err(KifError::syntax(
                no,
                1,
                "expected a move line such as `   1 ２四銀(35)`, a comment or the result line \
                 `まで…`",
            )),
            Stage::Ended | Stage::Summarized => Err(KifError::syntax(
                no,
                1,
                "expected a comment or the result line `まで…` after the last move",
            )),
        }
    }

    fn comment(&mut self, text: String) {
        match self.stage {
            Stage::Header => self.headers.push(KifHeaderLine::Comment(text)),
            Stage::Moves => match self.moves.last_mut() {
                Some(m) => m.comments.push(text),
                None => self.start_comments.push(text),
            },
            Stage::Ended => match &mut self.end {
                Some((_, end)) => end.comments.push(text),
                None => self.trailing.push(text),
            },
            Stage::Summarized => self.trailing.push(text),
        }
    }

    fn diagram_line(&mut self, no: usize) {
        if self.diagram.first_line.is_none() {
            self.diagram.first_line = Some(no);
        }
        self.diagram.last_line = no;
    }

    fn diagram_error(no: usize, col: usize, msg: impl Into<String>) -> KifError {
        KifError::at(no, Some(col), KifErrorKind::Diagram(msg.into()))
    }

    fn header_line(&mut self, no: usize, line: &str, t: &str) -> Result<(), KifError> {
        let lead = line.chars().take_while(|&c| is_space(c)).count();
        if t.starts_with("手数-") {
            self.stage = Stage::Moves;
            return Ok(());
        }
        if t.starts_with('|') {
            return self.board_row(no, t, lead);
        }
        if t.starts_with('+') && t.ends_with('+') && t.len() > 1 {
            let inner = &t[1..t.len() - 1];
            if inner.chars().all(|c| c == '-') {
                self.diagram_line(no);
                let want = 3 * usize::from(V::GEOMETRY.width);
                if inner.len() != want {
                    return Err(Self::diagram_error(
                        no,
                        lead + 1,
                        format!(
                            "the frame is {} dashes wide; the {} files of {} need {want}",
                            inner.len(),
                            V::GEOMETRY.width,
                            V::DISPLAY_NAME
                        ),
                    ));
                }
                return Ok(());
            }
        }
        if t.starts_with(|c: char| ('１'..='９').contains(&c)) {
            return self.file_numbers(no, t, lead);
        }
        match t {
            "先手番" | "下手番" | "後手番" | "上手番" => {
                self.diagram_line(no);
                if t.starts_with('上') || t.starts_with('下') {
                    self.names = SideNames::ShitateUwate;
                }
                if self.diagram.side.is_some() {
                    return Err(Self::diagram_error(
                        no,
                        lead + 1,
                        "a second side-to-move line",
                    ));
                }
                self.diagram.side = Some(if t == "先手番" || t == "下手番" {
                    Color::Black
                } else {
                    Color::White
                });
                return Ok(());
            }
            _ => {}
        }
        if let Some(rest) = t.strip_prefix("手数＝") {
            self.diagram_line(no);
            let mut c = Cursor::new(no, rest);
            let n = c.number().ok_or_else(|| {
                KifError::syntax(
                    no,
                    lead + 4,
                    "expected the number of moves played after `手数＝`",
                )
            })?;
            self.diagram.moves_played = Some(u32::try_from(n).unwrap_or(u32::MAX));
            return Ok(());
        }
        let Some((key, value)) = line.split_once('：') else {
            return Err(KifError::syntax(
                no,
                lead + 1,
                "expected a header line `key：value`, a comment (`*`, `#`), a board diagram, \
                 the `手数----指手--` line or a move",
            ));
        };
        let key = trim(key);
        let value_col = line.chars().take_while(|&c| c != '：').count() + 2;
        if key.is_empty() {
            return Err(KifError::syntax(
                no,
                lead + 1,
                "a header line needs a key before `：`",
            ));
        }
        match key {
            "先手の持駒" | "下手の持駒" => {
                return self.hand_line(no, Color::Black, key, value, value_col)
            }
            "後手の持駒" | "上手の持駒" => {
                return self.hand_line(no, Color::White, key, value, value_col)
            }
            STATE_KEY => {
                self.diagram_line(no);
                let extra = V::parse_extra(trim(value))
                    .map_err(|m| KifError::at(no, Some(value_col), KifErrorKind::Diagram(m)))?;
                self.diagram.extra = Some(extra);
                return Ok(());
            }
            HANDICAP_KEY => check_handicap::<V>(self.known, no, value_col, value)?,
            _ => {}
        }
        if key.starts_with("上手") || key.starts_with("下手") {
            self.names = SideNames::ShitateUwate;
        }
        self.headers.push(KifHeaderLine::Field {
            key: key.to_string(),
            value: value.to_string(),
        });
        Ok(())
    }

    fn hand_line(
        &mut self,
        no: usize,
        color: Color,
        key: &str,
        value: &str,
        value_col: usize,
    ) -> Result<(), KifError> {
        self.diagram_line(no);
        if key.starts_with('上') || key.starts_with('下') {
            self.names = SideNames::ShitateUwate;
        }
        if self.diagram.hands[color.index()].is_some() {
            return Err(Self::diagram_error(no, 1, format!("a second `{key}` line")));
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
                    Self::diagram_error(
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
                    Self::diagram_error(
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
                        Self::diagram_error(
                            no,
                            value_col + start,
                            format!("`{count_text}` is not a count such as `二` or `十一`"),
                        )
                    })?
                };
                counts[usize::from(slot)] = counts[usize::from(slot)].saturating_add(n);
            }
        }
        self.diagram.hands[color.index()] = Some(counts);
        Ok(())
    }

    fn file_numbers(&mut self, no: usize, t: &str, lead: usize) -> Result<(), KifError> {
        self.diagram_line(no);
        let width = V::GEOMETRY.width;
        let digits: Vec<u32> = t.chars().filter_map(digit_value).collect();
        let only = t.chars().all(|c| is_space(c) || digit_value(c).is_some());
        let want: Vec<u32> = (1..=u32::from(width)).rev().collect();
        if !only || digits != want {
            let want_text: Vec<String> = want
                .iter()
                .map(|&d| full_width_digit(d as u8).to_string())
                .collect();
            return Err(Self::diagram_error(
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
        self.diagram_line(no);
        let g = V::GEOMETRY;
        let width = usize::from(g.width);
        let rank = self.diagram.rows.len();
        if rank >= usize::from(g.height) {
            return Err(Self::diagram_error(
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
                    return Err(Self::diagram_error(
                        no,
                        col(i),
                        format!(
                            "the row has {f} squares; {} has {width} files",
                            V::DISPLAY_NAME
                        ),
                    ))
                }
                Some(c) => {
                    return Err(Self::diagram_error(
                        no,
                        col(i),
                        format!(
                            "expected ` ` (Black's piece or an empty square) or `v` (White's \
                             piece) before each square, found `{c}`"
                        ),
                    ))
                }
                None => {
                    return Err(Self::diagram_error(
                        no,
                        col(i),
                        format!("the row is cut off after {f} squares"),
                    ))
                }
            };
            let piece = match chars.get(i + 1) {
                Some('・') if color == Color::Black => None,
                Some('・') => {
                    return Err(Self::diagram_error(
                        no,
                        col(i),
                        "`v` before an empty square",
                    ))
                }
                Some(&k) => {
                    let kind = kind_by_kanji::<V>(k).ok_or_else(|| {
                        Self::diagram_error(
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
                    return Err(Self::diagram_error(
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
                return Err(Self::diagram_error(
                    no,
                    col(i),
                    format!(
                        "the row has more than {width} squares; {} has {width} files",
                        V::DISPLAY_NAME
                    ),
                ))
            }
            _ => {
                return Err(Self::diagram_error(
                    no,
                    col(i),
                    "expected `|` closing the row",
                ))
            }
        }
        i += 1;
        let want = rank_kanji(rank as u8);
        match chars.get(i) {
            None => {}
            Some(&c) if c == want => i += 1,
            Some(&c) => {
                return Err(Self::diagram_error(
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
            return Err(Self::diagram_error(
                no,
                col(i),
                format!("unexpected `{c}` after the row"),
            ));
        }
        self.diagram.rows.push(row);
        Ok(())
    }

    /// Takes the game out of the reader (the caller puts it back), building the start
    /// position and the game the first time: when the first move, special move, result line
    /// or the end of the text arrives.
    fn take_game(&mut self, first_number: Option<u64>) -> Result<Game<V>, KifError> {
        if let Some(game) = self.game.take() {
            return Ok(game);
        }
        let start = match self.diagram.first_line {
            None => Position::<V>::start(),
            Some(first) => self.diagram_position(first, first_number)?,
        };
        Ok(Game::new(start))
    }

    fn diagram_position(
        &self,
        first: usize,
        first_number: Option<u64>,
    ) -> Result<Position<V>, KifError> {
        let g = V::GEOMETRY;
        let d = &self.diagram;
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

    fn move_line(&mut self, no: usize, line: &str) -> Result<(), KifError> {
        if self.stage == Stage::Ended {
            let (at, text) = match &self.end {
                Some((at, end)) => (*at, end.special.text()),
                None => (0, ""),
            };
            return Err(KifError::syntax(
                no,
                1,
                format!("no move may follow `{text}` (line {at})"),
            ));
        }
        let parsed = parse_move_line::<V>(no, line)?;
        let mut game = self.take_game(Some(parsed.number))?;
        self.stage = Stage::Moves;
        let result = self.play_line(&mut game, no, parsed);
        self.game = Some(game);
        result
    }

    /// Plays a move line (or records a special move line) in `game`.
    fn play_line(
        &mut self,
        game: &mut Game<V>,
        no: usize,
        parsed: MoveLine,
    ) -> Result<(), KifError> {
        let names = self.names;
        let prev = self.moves.last().map(|m| m.mv().to());
        let expected = u64::from(game.position().ply());
        if parsed.number >= u64::from(kshogi_core::MAX_PLY) {
            return Err(KifError::syntax(
                no,
                parsed.number_col,
                format!("move number {} is too large", parsed.number),
            ));
        }
        if parsed.number != expected {
            return Err(KifError::syntax(
                no,
                parsed.number_col,
                format!("expected move number {expected}, found {}", parsed.number),
            ));
        }
        match parsed.body {
            Body::Special(special) => {
                let stated = special.result(game.position().side_to_move());
                if let Some(o) = game.outcome() {
                    let rules = KifResult::from_outcome(o);
                    if stated != rules && stated != KifResult::Suspended {
                        return Err(KifError::at(
                            no,
                            Some(parsed.body_col),
                            KifErrorKind::Result(format!(
                                "`{}` means {}, but the game had already ended: {o}",
                                special.text(),
                                describe(stated, names)
                            )),
                        ));
                    }
                }
                self.end = Some((
                    no,
                    KifEnd {
                        special,
                        time: parsed.time,
                        comments: parsed.comment.into_iter().collect(),
                    },
                ));
                self.stage = Stage::Ended;
            }
            Body::Move(spec) => {
                // Core caps the ply number (MAX_PLY) so that counting can never overflow.
                if game.position().ply() >= kshogi_core::MAX_PLY {
                    return Err(KifError::syntax(
                        no,
                        parsed.number_col,
                        format!("move number {} is too large", parsed.number),
                    ));
                }
                if let Some(outcome) = game.outcome() {
                    return Err(KifError::at(
                        no,
                        Some(parsed.body_col),
                        KifErrorKind::GameOver {
                            text: parsed.body_text,
                            outcome,
                        },
                    ));
                }
                let mv = resolve(
                    game.position(),
                    &spec,
                    prev,
                    no,
                    &parsed.body_text,
                    parsed.body_col,
                )?;
                match game.play(mv) {
                    Ok(()) => {}
                    Err(GameError::GameOver(outcome)) => {
                        return Err(KifError::at(
                            no,
                            Some(parsed.body_col),
                            KifErrorKind::GameOver {
                                text: parsed.body_text,
                                outcome,
                            },
                        ))
                    }
                    Err(e @ (GameError::IllegalMove | GameError::PlyLimit)) => {
                        return Err(KifError::at(
                            no,
                            Some(parsed.body_col),
                            KifErrorKind::IllegalMove {
                                text: parsed.body_text,
                                reason: e.to_string(),
                            },
                        ))
                    }
                }
                let mut kif_move = KifRecord::<V>::new_move(mv, parsed.time);
                kif_move.comments.extend(parsed.comment);
                self.moves.push(kif_move);
            }
        }
        Ok(())
    }

    fn summary_line(&mut self, no: usize, t: &str) -> Result<(), KifError> {
        let s = parse_summary(t).ok_or_else(|| {
            KifError::syntax(
                no,
                1,
                "expected a result line such as `まで77手で先手の勝ち`",
            )
        })?;
        if s.shitate_uwate {
            self.names = SideNames::ShitateUwate;
        }
        let game = self.take_game(None)?;
        let result = self.check_summary(&game, no, &s);
        self.game = Some(game);
        result?;
        self.summary = Some(t.to_string());
        self.stage = Stage::Summarized;
        Ok(())
    }

    /// Checks a result line against the moves, the special move line and the rules.
    fn check_summary(&self, game: &Game<V>, no: usize, s: &Summary) -> Result<(), KifError> {
        let names = self.names;
        let last = u64::from(game.position().ply()) - 1;
        if s.last != last {
            return Err(KifError::at(
                no,
                Some(s.number_column),
                KifErrorKind::Result(format!(
                    "the result line counts {} moves, but the last move is number {last}",
                    s.last
                )),
            ));
        }
        if let Some(r) = s.result {
            if let Some((at, end)) = &self.end {
                let stated = end.special.result(game.position().side_to_move());
                if stated != r {
                    return Err(KifError::at(
                        no,
                        None,
                        KifErrorKind::Result(format!(
                            "the result line says {}, but `{}` on line {at} means {}",
                            describe(r, names),
                            end.special.text(),
                            describe(stated, names)
                        )),
                    ));
                }
            } else if let Some(o) = game.outcome() {
                // `中断` claims no result, so it contradicts no rule: a writer that does not
                // know the variant's rules cannot know the game had ended.
                if r != KifResult::Suspended && KifResult::from_outcome(o) != r {
                    return Err(KifError::at(
                        no,
                        None,
                        KifErrorKind::Result(format!(
                            "the result line says {}, but by the rules {o}",
                            describe(r, names)
                        )),
                    ));
                }
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Result<KifRecord<V>, KifError> {
        let game = self.take_game(None)?;
        let mut record = KifRecord::from_parts(self.headers, self.names, game, self.moves);
        record.start_comments = self.start_comments;
        record.end = self.end.map(|(_, e)| e);
        record.summary = self.summary;
        record.trailing_comments = self.trailing;
        Ok(record)
    }
}

/// Checks the value of a `手合割` line against the variant being read and the other
/// variants `known`.
fn check_handicap<V: Variant>(
    known: &[VariantInfo],
    no: usize,
    col: usize,
    value: &str,
) -> Result<(), KifError> {
    let v = trim(value);
    let this = VariantInfo::of::<V>();
    if this.is_kif_name(v) {
        return Ok(());
    }
    let err = |msg: String| KifError::at(no, Some(col), KifErrorKind::Variant(msg));
    if let Some(k) = known.iter().find(|k| k.is_kif_name(v)) {
        return Err(err(format!(
            "`手合割：{v}` is {}, but the record is read as {} (`{}`)",
            k.display_name,
            V::DISPLAY_NAME,
            this.kif_name()
        )));
    }
    if v == "平手" || v.ends_with("落ち") {
        let knows = if known.is_empty() {
            this.kif_name().to_string()
        } else {
            known_names(known)
        };
        return Err(err(format!(
            "`手合割：{v}` is a game of standard shogi, which kshogi does not read; it knows {knows}"
        )));
    }
    Ok(())
}
