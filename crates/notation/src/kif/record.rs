//! The KIF record: headers, start position, moves with times and comments, and the result.

use crate::{move_to_usi_in, to_sfen_in, Dialect};
use kshogi_core::Variant;
use kshogi_core::{Color, DrawReason, Game, GameError, Move, Outcome, Position};

/// The header key that names the variant.
pub(crate) const HANDICAP_KEY: &str = "手合割";

/// One line of the header area, kept in order for a round trip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KifHeaderLine {
    /// A `key：value` line (the separator is the full-width colon). The `手合割` line is one
    /// of these; the lines of a board diagram are not (they make the start position).
    Field {
        /// The key, such as `先手` or `開始日時`.
        key: String,
        /// The value, verbatim (trailing ASCII spaces removed).
        value: String,
    },
    /// A comment line, kept whole with its mark: `*` (a comment on the game), `#` (a
    /// comment on the file, such as `#KIF version=2.0 encoding=UTF-8`) or `&` (a bookmark).
    Comment(String),
}

/// Which names a record uses for the two sides.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum SideNames {
    /// `先手` (Black, sente) and `後手` (White, gote): even games.
    #[default]
    SenteGote,
    /// `下手` (Black) and `上手` (White): the names of handicap games, which some sites use
    /// for variants too.
    ShitateUwate,
}

impl SideNames {
    /// The name of a side: `先手`/`後手`, or `下手`/`上手`.
    pub fn name(self, color: Color) -> &'static str {
        match (self, color) {
            (SideNames::SenteGote, Color::Black) => "先手",
            (SideNames::SenteGote, Color::White) => "後手",
            (SideNames::ShitateUwate, Color::Black) => "下手",
            (SideNames::ShitateUwate, Color::White) => "上手",
        }
    }
}

/// The time columns of a move line, `( 0:03/00:00:03)`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct KifTime {
    /// Time spent on this move, in seconds (written `m:ss`).
    pub move_seconds: u32,
    /// Time the mover has spent in the game so far, this move included, in seconds
    /// (written `hh:mm:ss`).
    pub total_seconds: u32,
}

/// A move of the record with what the record says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KifMove {
    mv: Move,
    /// The time columns, if the line had them.
    pub time: Option<KifTime>,
    /// The comment lines after the move, whole with their marks (`*...`, `#...`, `&...`).
    pub comments: Vec<String>,
}

impl KifMove {
    /// The move, legal in the position before it.
    pub fn mv(&self) -> Move {
        self.mv
    }
}

/// A special move line that ends the record instead of a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum KifSpecial {
    /// `投了`: the side to move resigns.
    Resign,
    /// `中断`: the game was suspended; no result.
    Suspend,
    /// `千日手`: draw by repetition.
    Repetition,
    /// `詰み`: the side to move is checkmated.
    Checkmate,
    /// `持将棋`: draw by impasse.
    Impasse,
    /// `切れ負け`: the side to move lost on time.
    TimeLoss,
    /// `反則勝ち`: the side to move wins because the other side's last move was a foul.
    IllegalWin,
    /// `反則負け`: the side to move loses by a foul.
    IllegalLoss,
    /// `入玉勝ち`: the side to move wins by declaring king entry.
    KingEntryWin,
}

impl KifSpecial {
    /// Every special move, for reading.
    pub const ALL: [KifSpecial; 9] = [
        KifSpecial::Resign,
        KifSpecial::Suspend,
        KifSpecial::Repetition,
        KifSpecial::Checkmate,
        KifSpecial::Impasse,
        KifSpecial::TimeLoss,
        KifSpecial::IllegalWin,
        KifSpecial::IllegalLoss,
        KifSpecial::KingEntryWin,
    ];

    /// The text of the move line (`投了`).
    pub fn text(self) -> &'static str {
        match self {
            KifSpecial::Resign => "投了",
            KifSpecial::Suspend => "中断",
            KifSpecial::Repetition => "千日手",
            KifSpecial::Checkmate => "詰み",
            KifSpecial::Impasse => "持将棋",
            KifSpecial::TimeLoss => "切れ負け",
            KifSpecial::IllegalWin => "反則勝ち",
            KifSpecial::IllegalLoss => "反則負け",
            KifSpecial::KingEntryWin => "入玉勝ち",
        }
    }

    /// The result it gives when `to_move` is the side to move at the line.
    pub fn result(self, to_move: Color) -> KifResult {
        match self {
            KifSpecial::Resign
            | KifSpecial::Checkmate
            | KifSpecial::TimeLoss
            | KifSpecial::IllegalLoss => KifResult::Win(!to_move),
            KifSpecial::IllegalWin | KifSpecial::KingEntryWin => KifResult::Win(to_move),
            KifSpecial::Repetition | KifSpecial::Impasse => KifResult::Draw,
            KifSpecial::Suspend => KifResult::Suspended,
        }
    }
}

/// The special move line that ends a record, with its time and comments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KifEnd {
    /// Which special move.
    pub special: KifSpecial,
    /// The time columns, if the line had them.
    pub time: Option<KifTime>,
    /// The comment lines after it.
    pub comments: Vec<String>,
}

/// The result of a game as a record states it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum KifResult {
    /// This side won.
    Win(Color),
    /// A draw (repetition, impasse, or another draw).
    Draw,
    /// The game was suspended (`中断`).
    Suspended,
}

impl KifResult {
    /// The result the rules give to a finished game.
    pub fn from_outcome(outcome: Outcome) -> KifResult {
        match outcome {
            Outcome::Win { winner, .. } => KifResult::Win(winner),
            Outcome::Draw { .. } => KifResult::Draw,
        }
    }
}

/// A KIF game record of variant `V`.
///
/// The moves are always legal: they can only be added by [`KifRecord::push`] (or by the
/// reader), which plays them in a [`Game`]. Everything else is public and may be edited.
#[derive(Clone, Debug)]
pub struct KifRecord<V: Variant> {
    /// The header area in order: `key：value` lines (the `手合割` line included) and
    /// comments. The board diagram is not here: it is written from the start position, right
    /// after the `手合割` line.
    pub headers: Vec<KifHeaderLine>,
    /// The names the record uses for the sides (in the diagram and the result line).
    pub names: SideNames,
    /// Comments between the `手数----指手--` line and the first move: on the start position.
    pub start_comments: Vec<String>,
    /// The special move line that ends the record (`投了`, `千日手`, ...), if any.
    pub end: Option<KifEnd>,
    /// The result line (`まで77手で先手の勝ち`), verbatim, if any.
    pub summary: Option<String>,
    /// Comment lines after the result line.
    pub trailing_comments: Vec<String>,
    game: Game<V>,
    moves: Vec<KifMove>,
}

impl<V: Variant> KifRecord<V> {
    /// An empty record from `start`: headers `#KIF version=2.0 encoding=UTF-8` and the
    /// `手合割` line, no moves.
    pub fn new(start: Position<V>) -> KifRecord<V> {
        KifRecord {
            headers: vec![
                KifHeaderLine::Comment("#KIF version=2.0 encoding=UTF-8".into()),
                KifHeaderLine::Field {
                    key: HANDICAP_KEY.into(),
                    value: kshogi_core::VariantInfo::of::<V>().kif_name().into(),
                },
            ],
            names: SideNames::SenteGote,
            start_comments: Vec::new(),
            end: None,
            summary: None,
            trailing_comments: Vec::new(),
            game: Game::new(start),
            moves: Vec::new(),
        }
    }

    /// The record of a game: its start position, its moves, and, when the game is over, the
    /// result line (see [`summary_line`]); a draw by repetition also gets the special move
    /// line `千日手`, as Kakinoki writes it.
    pub fn from_game(game: &Game<V>) -> KifRecord<V> {
        let mut record = KifRecord::new(*game.start());
        for &mv in game.moves() {
            record.moves.push(KifMove {
                mv,
                time: None,
                comments: Vec::new(),
            });
        }
        record.game = game.clone();
        if let Some(outcome) = game.outcome() {
            if outcome
                == (Outcome::Draw {
                    reason: DrawReason::Repetition,
                })
            {
                record.end = Some(KifEnd {
                    special: KifSpecial::Repetition,
                    time: None,
                    comments: Vec::new(),
                });
            }
            let last = game.start().ply() as u64 - 1 + game.moves().len() as u64;
            record.summary = Some(summary_line(last, outcome, record.names));
        }
        record
    }

    /// Plays `mv` and appends it with its time columns. The record's ending no longer
    /// applies, so the special move line ([`KifRecord::end`]) and the result line
    /// ([`KifRecord::summary`]) are cleared.
    pub fn push(&mut self, mv: Move, time: Option<KifTime>) -> Result<(), GameError> {
        self.game.play(mv)?;
        self.end = None;
        self.summary = None;
        self.moves.push(KifMove {
            mv,
            time,
            comments: Vec::new(),
        });
        Ok(())
    }

    /// The start position.
    pub fn start(&self) -> &Position<V> {
        self.game.start()
    }

    /// The position after the last move.
    pub fn position(&self) -> &Position<V> {
        self.game.position()
    }

    /// The moves with their times and comments.
    pub fn moves(&self) -> &[KifMove] {
        &self.moves
    }

    /// The moves, to edit their times and comments (the moves themselves cannot change).
    pub fn moves_mut(&mut self) -> &mut [KifMove] {
        &mut self.moves
    }

    /// The record as one USI position, in `dialect`: `sfen <start> moves <usi> ...`
    /// (without ` moves` when there is no move; in [`Dialect::Pychess`] its FEN with no
    /// `sfen` word before it, and UCI moves, the form pychess-variants reads).
    pub fn usi_line(&self, dialect: Dialect) -> String {
        let mut out = String::new();
        if dialect != Dialect::Pychess {
            out.push_str("sfen ");
        }
        out.push_str(&to_sfen_in(self.start(), dialect));
        if !self.moves.is_empty() {
            out.push_str(" moves");
            let mut pos = *self.start();
            for m in &self.moves {
                out.push(' ');
                out.push_str(&move_to_usi_in(&pos, m.mv, dialect));
                pos = pos.after(m.mv);
            }
        }
        out
    }

    /// The SFEN of the position before the first move and after every move, in `dialect`.
    pub fn sfens(&self, dialect: Dialect) -> Vec<String> {
        let mut pos = *self.start();
        let mut out = vec![to_sfen_in(&pos, dialect)];
        for m in &self.moves {
            pos = pos.after(m.mv);
            out.push(to_sfen_in(&pos, dialect));
        }
        out
    }

    /// The game: start, moves, and the outcome by the rules.
    pub fn game(&self) -> &Game<V> {
        &self.game
    }

    /// The result the record states: from the special move line if there is one, else from
    /// the result line if it names one (`…の勝ち`, `千日手`, `持将棋`, `引き分け`, `中断`),
    /// else the outcome by the rules if the game is over.
    pub fn result(&self) -> Option<KifResult> {
        if let Some(end) = &self.end {
            return Some(end.special.result(self.position().side_to_move()));
        }
        if let Some(r) = self
            .summary
            .as_deref()
            .and_then(parse_summary)
            .and_then(|s| s.result)
        {
            return Some(r);
        }
        self.game.outcome().map(KifResult::from_outcome)
    }

    pub(crate) fn from_parts(
        headers: Vec<KifHeaderLine>,
        names: SideNames,
        game: Game<V>,
        moves: Vec<KifMove>,
    ) -> KifRecord<V> {
        KifRecord {
            headers,
            names,
            start_comments: Vec::new(),
            end: None,
            summary: None,
            trailing_comments: Vec::new(),
            game,
            moves,
        }
    }

    pub(crate) fn new_move(mv: Move, time: Option<KifTime>) -> KifMove {
        KifMove {
            mv,
            time,
            comments: Vec::new(),
        }
    }
}

/// The result line kshogi writes for a finished game whose last move has number `last`:
/// `まで{last}手で先手の勝ち` (or `後手の勝ち`; `下手`/`上手` with those names) for every win,
/// `まで{last}手で千日手` for a draw by repetition, and `まで{last}手で引き分け` (“draw”) for
/// any other draw, such as a Kinzoku stalemate.
pub fn summary_line(last: u64, outcome: Outcome, names: SideNames) -> String {
    let what = match outcome {
        Outcome::Win { winner, .. } => format!("{}の勝ち", names.name(winner)),
        Outcome::Draw {
            reason: DrawReason::Repetition,
        } => "千日手".to_string(),
        Outcome::Draw { .. } => "引き分け".to_string(),
    };
    format!("まで{last}手で{what}")
}

/// A parsed result line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Summary {
    /// The number of the last move.
    pub last: u64,
    /// Column (in characters, from 1) of that number.
    pub number_column: usize,
    /// The result, if the text names one kshogi knows.
    pub result: Option<KifResult>,
    /// Whether it uses `上手`/`下手`.
    pub shitate_uwate: bool,
}

/// Parses `まで{N}手で{result}` (spaces allowed after `まで`; ASCII or full-width digits).
pub(crate) fn parse_summary(line: &str) -> Option<Summary> {
    use super::text::{digit_value, is_space};
    let rest = line.trim_matches(is_space).strip_prefix("まで")?;
    let after = rest.trim_start_matches(is_space);
    let number_column = line.chars().position(|c| digit_value(c).is_some())? + 1;
    let digits: String = after
        .chars()
        .take_while(|&c| digit_value(c).is_some())
        .collect();
    if digits.is_empty() || digits.chars().count() > 9 {
        return None;
    }
    let last = digits
        .chars()
        .try_fold(0u64, |acc, c| Some(acc * 10 + u64::from(digit_value(c)?)))?;
    let tail = after[digits.len()..].strip_prefix("手")?;
    let tail = tail.strip_prefix("で").unwrap_or(tail);
    let tail = tail.trim_matches(is_space);
    // `時間切れにより先手の勝ち`: the reason before `により` does not change the result.
    let what = match tail.find("により") {
        Some(i) => &tail[i + "により".len()..],
        None => tail,
    };
    let side = |s: &str| match s {
        "先手" | "下手" => Some(Color::Black),
        "後手" | "上手" => Some(Color::White),
        _ => None,
    };
    let result = match what {
        "千日手" | "持将棋" | "引き分け" => Some(KifResult::Draw),
        "中断" => Some(KifResult::Suspended),
        _ => what.split_once('の').and_then(|(who, how)| {
            let c = side(who)?;
            match how {
                "勝ち" | "反則勝ち" | "入玉勝ち" => Some(KifResult::Win(c)),
                "反則負け" | "負け" => Some(KifResult::Win(!c)),
                _ => None,
            }
        }),
    };
    Some(Summary {
        last,
        number_column,
        result,
        shitate_uwate: tail.contains("上手") || tail.contains("下手"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_core::WinReason;

    #[test]
    fn a_record_as_a_usi_line_and_as_sfens() {
        // Black's pawn 1e goes to 1d and turns into a rook; White's pawn 5a to 5b, a rook.
        let game = crate::parse_game::<kshogi_rules_kyoto::Kyoto>("startpos moves 1e1d+ 5a5b+");
        let record = KifRecord::from_game(&game.unwrap());
        assert_eq!(
            record.usi_line(Dialect::Canonical),
            "sfen pgkst/5/5/5/TSKGP b - 1 moves 1e1d+ 5a5b+"
        );
        assert_eq!(
            record.sfens(Dialect::Canonical),
            [
                "pgkst/5/5/5/TSKGP b - 1",
                "pgkst/5/5/4R/TSKG1 w - 2",
                "1gkst/r4/5/4R/TSKG1 b - 3"
            ]
        );
        assert!(!record.usi_line(Dialect::Pychess).starts_with("sfen"));
        let empty = KifRecord::new(*record.start());
        assert_eq!(
            empty.usi_line(Dialect::Canonical),
            "sfen pgkst/5/5/5/TSKGP b - 1"
        );
        assert_eq!(empty.sfens(Dialect::Canonical).len(), 1);
    }

    #[test]
    fn summaries() {
        let s = parse_summary("まで77手で先手の勝ち").unwrap();
        assert_eq!((s.last, s.result), (77, Some(KifResult::Win(Color::Black))));
        assert_eq!(s.number_column, 3);
        let s = parse_summary("まで 12手で後手の勝ち").unwrap();
        assert_eq!((s.last, s.result), (12, Some(KifResult::Win(Color::White))));
        assert_eq!(s.number_column, 4);
        let s = parse_summary("まで１２手で千日手").unwrap();
        assert_eq!((s.last, s.result), (12, Some(KifResult::Draw)));
        let s = parse_summary("まで30手で時間切れにより上手の勝ち").unwrap();
        assert_eq!(s.result, Some(KifResult::Win(Color::White)));
        assert!(s.shitate_uwate);
        let s = parse_summary("まで5手で先手の反則負け").unwrap();
        assert_eq!(s.result, Some(KifResult::Win(Color::White)));
        let s = parse_summary("まで0手で中断").unwrap();
        assert_eq!((s.last, s.result), (0, Some(KifResult::Suspended)));
        assert_eq!(parse_summary("まで9手で何か").unwrap().result, None);
        assert_eq!(parse_summary("まで手で先手の勝ち"), None);
        assert_eq!(parse_summary("先手の勝ち"), None);
    }

    #[test]
    fn summary_lines_for_outcomes() {
        let win = Outcome::Win {
            winner: Color::White,
            reason: WinReason::Checkmate,
        };
        assert_eq!(
            summary_line(12, win, SideNames::SenteGote),
            "まで12手で後手の勝ち"
        );
        assert_eq!(
            summary_line(12, win, SideNames::ShitateUwate),
            "まで12手で上手の勝ち"
        );
        let rep = Outcome::Draw {
            reason: DrawReason::Repetition,
        };
        assert_eq!(
            summary_line(8, rep, SideNames::SenteGote),
            "まで8手で千日手"
        );
        let stale = Outcome::Draw {
            reason: DrawReason::Stalemate,
        };
        assert_eq!(
            summary_line(8, stale, SideNames::SenteGote),
            "まで8手で引き分け"
        );
    }

    #[test]
    fn specials_give_results_from_the_side_to_move() {
        assert_eq!(
            KifSpecial::Resign.result(Color::Black),
            KifResult::Win(Color::White)
        );
        assert_eq!(
            KifSpecial::IllegalWin.result(Color::Black),
            KifResult::Win(Color::Black)
        );
        assert_eq!(KifSpecial::Repetition.result(Color::White), KifResult::Draw);
        assert_eq!(
            KifSpecial::Suspend.result(Color::White),
            KifResult::Suspended
        );
    }
}
