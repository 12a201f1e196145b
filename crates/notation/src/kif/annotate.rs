//! Review comments on the moves of a KIF record, in the form lishogi writes for its
//! computer analysis: a `*` comment line after the move,
//! `*(+0.35 → -1.20) Mistake. Best move was ２四銀成(35).`, the evaluations before and
//! after the move from Black's point of view in pawns (`#N` for a forced win in N plies,
//! `#-N` for a forced loss), the judgement, and the better move in KIF notation (lishogi
//! writes it as a `[usi:...]` link for its own pages; a plain KIF move reads everywhere).
//! Further `*` lines give the expected scores, the better line and, from a perfect-play
//! database, the exact results. Every KIF reader keeps `*` lines as comments on the move
//! before them: lishogi's, Kakinoki's and kshogi's own ([`super::parse_kif`]).

use super::record::KifRecord;
use super::write::move_text;
use kshogi_core::{Move, Position, Square, Variant};

/// An evaluation as a review comment writes it, from Black's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum KifEval {
    /// Centipawns, positive when Black is better: written in pawns, `+0.35`.
    Cp(i32),
    /// A forced win for Black in this many plies (negative: for White): `#7`, `#-4`.
    Mate(i32),
}

impl KifEval {
    /// `+0.35`, `-1.20`, `0.00`, `#7`, `#-4`.
    pub fn text(self) -> String {
        match self {
            KifEval::Cp(0) => "0.00".to_string(),
            KifEval::Cp(cp) => {
                let sign = if cp > 0 { '+' } else { '-' };
                let a = cp.unsigned_abs();
                format!("{sign}{}.{:02}", a / 100, a % 100)
            }
            KifEval::Mate(n) => format!("#{n}"),
        }
    }
}

/// What a review says about one move, for [`review_comments`].
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewNote<'a> {
    /// The judgement, one word: `Inaccuracy`, `Mistake`, `Blunder`.
    pub judgement: &'a str,
    /// The evaluation of the position before the move (best play), Black's point of view.
    pub before: KifEval,
    /// The evaluation after the move, Black's point of view.
    pub after: KifEval,
    /// The mover's expected score before and after the move, in `[0, 1]`.
    pub expected: (f64, f64),
    /// The better line from the position before the move (its first move is the better
    /// move); empty when unknown.
    pub best_line: &'a [Move],
    /// The exact results before and after the move for the mover (`win in 7 plies`, `draw`)
    /// when a perfect-play database knows them.
    pub exact: Option<(String, String)>,
}

/// The comment lines (each starting with `*`) of a review note on a move played from `pos`;
/// `prev` is the destination of the move before it (for `同　` in the line).
pub fn review_comments<V: Variant>(
    pos: &Position<V>,
    prev: Option<Square>,
    note: &ReviewNote<'_>,
) -> Vec<String> {
    let mut first = format!(
        "*({} → {}) {}.",
        note.before.text(),
        note.after.text(),
        note.judgement
    );
    if let Some(&best) = note.best_line.first() {
        first.push_str(" Best move was ");
        first.push_str(&move_text(pos, best, prev));
        first.push('.');
    }
    let (b, a) = note.expected;
    let mut lines = vec![
        first,
        format!(
            "*Expected score {:.0}% → {:.0}% ({:+.1} points).",
            b * 100.0,
            a * 100.0,
            (a - b) * 100.0
        ),
    ];
    if let Some((before, after)) = &note.exact {
        lines.push(format!("*Exact: {before} → {after}."));
    }
    if note.best_line.len() > 1 {
        let mut p = *pos;
        let mut last = prev;
        let mut words = Vec::with_capacity(note.best_line.len());
        for &mv in note.best_line {
            if !p.is_legal(mv) {
                break;
            }
            words.push(move_text(&p, mv, last));
            last = Some(mv.to());
            p.make(mv);
        }
        lines.push(format!("*Best line: {}", words.join(" ")));
    }
    lines
}

/// Adds the comment lines of `note` ([`review_comments`]) after move `index` (from 0) of
/// `record`, after the comments it already has. An index past the last move does nothing.
pub fn annotate_move<V: Variant>(record: &mut KifRecord<V>, index: usize, note: &ReviewNote<'_>) {
    if index >= record.moves().len() {
        return;
    }
    let mut pos = *record.start();
    let mut prev = None;
    for m in &record.moves()[..index] {
        prev = Some(m.mv().to());
        pos.make(m.mv());
    }
    let lines = review_comments(&pos, prev, note);
    record.moves_mut()[index].comments.extend(lines);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kif::{parse_kif, to_kif};
    use crate::parse_game;
    use crate::usi::parse_usi;
    use kshogi_rules_kyoto::Kyoto;

    #[test]
    fn evaluations_in_pawns_and_mates() {
        assert_eq!(KifEval::Cp(35).text(), "+0.35");
        assert_eq!(KifEval::Cp(-120).text(), "-1.20");
        assert_eq!(KifEval::Cp(-5).text(), "-0.05");
        assert_eq!(KifEval::Cp(0).text(), "0.00");
        assert_eq!(KifEval::Mate(7).text(), "#7");
        assert_eq!(KifEval::Mate(-4).text(), "#-4");
    }

    #[test]
    fn comments_read_back_on_their_move() {
        let game = parse_game::<Kyoto>("startpos moves 1e1d+ 5a5b+").unwrap();
        let mut record = KifRecord::from_game(&game);
        let start = Position::<Kyoto>::start();
        let after1 = start.after(parse_usi(&start, "1e1d+").unwrap());
        // A line for White from the position after move 1: 5a5b+ then Black's 1d1a+ (the
        // rook 1d goes up the file, takes the tokin on 1a and turns over).
        let line = [
            parse_usi(&after1, "5a5b+").unwrap(),
            parse_usi(&after1.after(parse_usi(&after1, "5a5b+").unwrap()), "1d1a+").unwrap(),
        ];
        let note = ReviewNote {
            judgement: "Blunder",
            before: KifEval::Cp(20),
            after: KifEval::Mate(5),
            expected: (0.48, 0.0),
            best_line: &line,
            exact: Some(("draw".into(), "loss in 4 plies".into())),
        };
        annotate_move(&mut record, 1, &note);
        let text = to_kif(&record);
        // Hand-written from the KIF rules: move 2 is White's pawn 5a to 5b, turning over;
        // Black's rook then goes from 1d to 1a.
        assert!(
            text.contains(
                "   2 ５二歩成(51)\n\
                 *(+0.20 → #5) Blunder. Best move was ５二歩成(51).\n\
                 *Expected score 48% → 0% (-48.0 points).\n\
                 *Exact: draw → loss in 4 plies.\n\
                 *Best line: ５二歩成(51) １一飛成(14)\n"
            ),
            "{text}"
        );
        let back = parse_kif::<Kyoto>(&text).unwrap();
        assert_eq!(back.moves()[1].comments, record.moves()[1].comments);
        assert!(back.moves()[0].comments.is_empty());
        assert_eq!(to_kif(&back), text);
        // Past the end: nothing.
        annotate_move(&mut record, 9, &note);
        assert_eq!(to_kif(&record), text);
    }
}
