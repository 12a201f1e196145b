//! Replaying a KIF record: the reader goes through the classified lines in order (header
//! area, board diagram, move lines, the special move and result lines), plays every move
//! in a [`Game`] by asking core which legal move the move text names
//! ([`kshogi_core::Position::resolve`]), and checks the result lines against the moves and
//! the rules.

use super::diagram::Diagram;
use super::encoding::decode_kif;
use super::error::{KifError, KifErrorKind};
use super::header::{check_handicap, field, EVEN_GAME};
use super::lex::{lines, Line, LineKind};
use super::move_line::{parse_move_line, Body, MoveLine, MoveText};
use super::record::{
    parse_summary, KifEnd, KifHeaderLine, KifMove, KifRecord, KifResult, SideNames, Summary,
    HANDICAP_KEY,
};
use crate::illegal::{describe_illegal, Wording};
use kshogi_core::{Game, GameError, IllegalMove, Variant, VariantInfo};

/// Decodes the bytes of a KIF file (see [`decode_kif`]) and reads the record.
pub fn read_kif<V: Variant>(bytes: &[u8]) -> Result<KifRecord<V>, KifError> {
    parse_kif(&decode_kif(bytes)?)
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
    known: &[VariantInfo],
) -> Result<KifRecord<V>, KifError> {
    let mut reader = Reader::<V>::new(known);
    for line in lines(text) {
        reader.line(&line)?;
    }
    reader.finish()
}

/// A `手合割` header that the caller's choice of variant overrode (see
/// [`parse_kif_chosen`]): its line and value, for a warning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverriddenHeader {
    /// The line number of the header (from 1).
    pub line: usize,
    /// The header's value, trimmed (`平手`).
    pub value: String,
}

/// [`parse_kif_among`] for a variant the user named explicitly (`--variant`): a `手合割：平手`
/// header (standard shogi's even game, which lishogi's rules library writes for every
/// variant's even game, Dobutsu included) is read as the even game of `V` instead of an
/// error, and returned so that the caller can warn that it overrode it. A header naming
/// another variant of `known`, or a handicap (`…落ち`), stays an error.
pub fn parse_kif_chosen<V: Variant>(
    text: &str,
    known: &[VariantInfo],
) -> Result<(KifRecord<V>, Option<OverriddenHeader>), KifError> {
    let mut reader = Reader::<V>::new(known);
    reader.even_game_is_v = true;
    for line in lines(text) {
        reader.line(&line)?;
    }
    let overridden = reader.overridden.take();
    Ok((reader.finish()?, overridden))
}

/// Where the reader is in the record.
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

/// The state of reading one record, line by line.
struct Reader<'k, V: Variant> {
    /// The variants a `手合割` header may name besides `V` (see [`parse_kif_among`]).
    known: &'k [VariantInfo],
    /// Whether `手合割：平手` is read as the even game of `V` ([`parse_kif_chosen`]).
    even_game_is_v: bool,
    /// The `手合割` header so read, if any.
    overridden: Option<OverriddenHeader>,
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

fn describe(r: KifResult, names: SideNames) -> String {
    match r {
        KifResult::Win(c) => format!("{} ({c}) wins", names.name(c)),
        KifResult::Draw => "a draw".into(),
        KifResult::Suspended => "the game was suspended".into(),
    }
}

/// The error for a move core refused: an illegal move with core's reason, at the flip mark
/// when the reason is about it; a move after the end of the game as such.
fn illegal<V: Variant>(no: usize, line: &MoveLine, spec: &MoveText, why: IllegalMove) -> KifError {
    if let IllegalMove::GameOver(outcome) = why {
        return KifError::at(
            no,
            Some(line.body_col),
            KifErrorKind::GameOver {
                text: line.body_text.clone(),
                outcome,
            },
        );
    }
    let col = if why.is_about_the_flip() {
        spec.mark_col
    } else {
        line.body_col
    };
    KifError::at(
        no,
        Some(col),
        KifErrorKind::IllegalMove {
            text: line.body_text.clone(),
            reason: describe_illegal::<V>(&why, Wording::Kif),
            why: Some(why),
        },
    )
}

impl<'k, V: Variant> Reader<'k, V> {
    fn new(known: &'k [VariantInfo]) -> Reader<'k, V> {
        Reader {
            known,
            even_game_is_v: false,
            overridden: None,
            headers: Vec::new(),
            names: SideNames::SenteGote,
            diagram: Diagram::default(),
            stage: Stage::Header,
            start_comments: Vec::new(),
            game: None,
            moves: Vec::new(),
            end: None,
            summary: None,
            trailing: Vec::new(),
        }
    }

    fn line(&mut self, line: &Line) -> Result<(), KifError> {
        let no = line.no;
        match line.kind {
            LineKind::Blank => return Ok(()),
            LineKind::Comment => {
                self.comment(line.trimmed.to_string());
                return Ok(());
            }
            LineKind::Variation => {
                return Err(KifError::at(
                    no,
                    None,
                    KifErrorKind::Unsupported(
                        "variations (`変化：`) are not supported; keep only the main line".into(),
                    ),
                ))
            }
            _ => {}
        }
        if self.stage == Stage::Summarized {
            return Err(KifError::syntax(
                no,
                1,
                "only comments may follow the result line (`まで…`)",
            ));
        }
        match (line.kind, self.stage) {
            (LineKind::Move, _) => self.move_line(line),
            (LineKind::Summary, _) => self.summary_line(line),
            (_, Stage::Header) => self.header_line(line),
            (_, Stage::Moves) => Err(KifError::syntax(
                no,
                1,
                "expected a move line such as `   1 ２四銀(35)`, a comment or the result line \
                 `まで…`",
            )),
            (_, Stage::Ended | Stage::Summarized) => Err(KifError::syntax(
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

    fn header_line(&mut self, line: &Line) -> Result<(), KifError> {
        if line.trimmed.starts_with("手数-") {
            self.stage = Stage::Moves;
            return Ok(());
        }
        if let Some(done) = self.diagram.line(line, &mut self.names) {
            return done;
        }
        let f = field(line)?;
        if let Some(done) =
            self.diagram
                .field(line.no, f.key, f.value, f.value_col, &mut self.names)
        {
            return done;
        }
        if f.key == HANDICAP_KEY {
            let value = crate::kif::text::trim(f.value);
            if self.even_game_is_v && value == EVEN_GAME && self.overridden.is_none() {
                self.overridden = Some(OverriddenHeader {
                    line: line.no,
                    value: value.to_string(),
                });
            } else {
                check_handicap::<V>(self.known, line.no, f.value_col, f.value)?;
            }
        }
        if f.key.starts_with("上手") || f.key.starts_with("下手") {
            self.names = SideNames::ShitateUwate;
        }
        self.headers.push(KifHeaderLine::Field {
            key: f.key.to_string(),
            value: f.value.to_string(),
        });
        Ok(())
    }

    /// Takes the game out of the reader (the caller puts it back), building the start
    /// position and the game the first time: when the first move, special move, result line
    /// or the end of the text arrives.
    fn take_game(&mut self, first_number: Option<u64>) -> Result<Game<V>, KifError> {
        if let Some(game) = self.game.take() {
            return Ok(game);
        }
        Ok(Game::new(self.diagram.position(first_number)?))
    }

    fn move_line(&mut self, line: &Line) -> Result<(), KifError> {
        let no = line.no;
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
        let parsed = parse_move_line::<V>(no, line.text)?;
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
            Body::Move(ref spec) => {
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
                let mv = spec.request::<V>(no, prev).and_then(|request| {
                    game.position()
                        .resolve(&request)
                        .map_err(|why| illegal::<V>(no, &parsed, spec, why))
                })?;
                // Core found the move among the legal ones; the game may still refuse it by
                // its own rules (the ply limit).
                if let Err(e) = game.play(mv) {
                    let kind = match e {
                        GameError::GameOver(outcome) => KifErrorKind::GameOver {
                            text: parsed.body_text,
                            outcome,
                        },
                        e @ (GameError::IllegalMove | GameError::PlyLimit) => {
                            KifErrorKind::IllegalMove {
                                text: parsed.body_text,
                                reason: e.to_string(),
                                why: None,
                            }
                        }
                    };
                    return Err(KifError::at(no, Some(parsed.body_col), kind));
                }
                let mut kif_move = KifRecord::<V>::new_move(mv, parsed.time);
                kif_move.comments.extend(parsed.comment);
                self.moves.push(kif_move);
            }
        }
        Ok(())
    }

    fn summary_line(&mut self, line: &Line) -> Result<(), KifError> {
        let (no, t) = (line.no, line.trimmed);
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
