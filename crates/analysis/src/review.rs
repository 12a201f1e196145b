//! Game review: every position of a game analysed by the service ([`Analyzer::analyse`]),
//! every move judged by what it cost the player ([`review`]).
//!
//! # What a move costs
//!
//! Each position is given an expected score for its side to move, a number in `[0, 1]`
//! (a win counts 1, a draw ½): the [`WdlModel`] the caller passes (the variant's, from the
//! registry, fitted to self-play results) maps the evaluation of the best line to it; a
//! forced win is 1, a forced loss 0, a database draw ½. The **loss** of move `k` is the mover's expected
//! score before it (best play) minus the mover's expected score after it (the evaluation of
//! the next position, from the mover's side), never below 0; the best move itself (the first
//! move of the best line) loses nothing by definition, so that two searches of different
//! depth cannot blame it. The judgement ([`Thresholds`]):
//!
//! | loss (percentage points of expected score) | judgement |
//! |---|---|
//! | at least 15 | blunder |
//! | at least 10 | mistake |
//! | at least 5 | inaccuracy |
//!
//! These are lichess's and lishogi's thresholds (0.3, 0.2 and 0.1 of "winning chances" on a
//! `[-1, 1]` scale, which is twice the expected score minus 1), applied to the variant's own
//! model instead of one logistic curve for every game.
//!
//! # Exact judgement
//!
//! Where a perfect-play database covers both positions, the search is not asked and the
//! judgement is exact: a move that turns a win into a draw or a loss, or a draw into a loss,
//! is a blunder, and nothing else is judged (a slower win is still a win).
//!
//! # Accuracy
//!
//! A move's accuracy is lichess's curve of the loss `L` in percentage points,
//! `103.1668 · exp(−0.04354 · L) − 3.1669`, kept within 0 to 100 (100 for a move that loses
//! nothing, about 50 for a loss of 15 points); a side's accuracy is the plain mean over its
//! judged-or-not moves ([`SideSummary`]). lichess weights the mean by how sharp the position
//! is and mixes in a harmonic mean; kshogi keeps the plain mean, which a reader can check
//! from the per-move numbers. lishogi shows the average centipawn loss instead, which does
//! not compare across variants whose pieces are worth different amounts.
//!
//! # Order
//!
//! The positions are analysed from the last one back to the start, with one service and its
//! transposition table: what the search learnt in the later positions is there when it
//! reaches the earlier ones, which mostly lie on the way to them. The result therefore
//! depends on that order: a position reviewed alone (or with another hash size, or with a
//! time limit, whose depth depends on the machine) may get a different evaluation. With a
//! depth or node limit, one thread and no time limit, a review is reproducible: the same
//! game gives the same review. Database answers do not depend on anything.

use crate::{outcome_value, value_score, Analysis, Analyzer, DatabaseUse, PerfectPlay, Request};
use kshogi_core::{Color, Game, Move, Variant};
use kshogi_engine::{Evaluator, Score, WdlModel};
use kshogi_solver::db::DbError;
use kshogi_solver::value::Value;
use std::sync::atomic::{AtomicBool, Ordering};

/// How bad a move is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// A loss of at least [`Thresholds::inaccuracy`].
    Inaccuracy,
    /// A loss of at least [`Thresholds::mistake`].
    Mistake,
    /// A loss of at least [`Thresholds::blunder`], or a database result thrown away.
    Blunder,
}

impl Judgement {
    /// `inaccuracy`, `mistake` or `blunder`.
    pub fn word(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// `Inaccuracy`, `Mistake` or `Blunder` (as lishogi's comments write it).
    pub fn title(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }

    /// The three judgements, mildest first.
    pub const ALL: [Judgement; 3] = [
        Judgement::Inaccuracy,
        Judgement::Mistake,
        Judgement::Blunder,
    ];
}

/// The least loss of expected score (a fraction: 0.05 is 5 percentage points) of each
/// judgement.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Thresholds {
    /// An inaccuracy: 0.05 by default.
    pub inaccuracy: f64,
    /// A mistake: 0.10 by default.
    pub mistake: f64,
    /// A blunder: 0.15 by default.
    pub blunder: f64,
}

impl Thresholds {
    /// lichess's and lishogi's thresholds: 5, 10 and 15 percentage points.
    pub const DEFAULT: Thresholds = Thresholds {
        inaccuracy: 0.05,
        mistake: 0.10,
        blunder: 0.15,
    };

    /// The judgement of a loss, if any.
    pub fn judge(&self, loss: f64) -> Option<Judgement> {
        if loss >= self.blunder {
            Some(Judgement::Blunder)
        } else if loss >= self.mistake {
            Some(Judgement::Mistake)
        } else if loss >= self.inaccuracy {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds::DEFAULT
    }
}

/// The accuracy of a move that lost `loss` of expected score (a fraction), from 0 to 100:
/// `103.1668 · exp(−0.04354 · 100 · loss) − 3.1669`, within 0 and 100.
pub fn move_accuracy(loss: f64) -> f64 {
    let l = (loss * 100.0).max(0.0);
    (103.1668 * (-0.04354 * l).exp() - 3.1669).clamp(0.0, 100.0)
}

/// One analysed position of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionReview {
    /// The service's answer (its lines are empty when the game is over there).
    pub analysis: Analysis,
    /// The evaluation for the side to move: the first line's score, the database's value,
    /// or for a finished game `Mate(0)` when the side to move has lost (and `Cp(0)` for a
    /// draw); `None` when the search found no line.
    pub score: Option<Score>,
    /// The expected score of the side to move, by the model.
    pub expected: Option<f64>,
    /// The exact value for the side to move, when a database covers the position.
    pub exact: Option<Value>,
}

/// One judged ply: the move played from position `index` and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyReview {
    /// The move's index in the game (0 for the first move).
    pub index: usize,
    /// Who played it.
    pub mover: Color,
    /// The move played.
    pub played: Move,
    /// The best move (the first move of the best line) from the position before.
    pub best: Option<Move>,
    /// The best line from the position before (starting with the best move).
    pub best_line: Vec<Move>,
    /// The evaluation before the move (best play), for the mover.
    pub before: Score,
    /// The evaluation after the move, for the mover.
    pub after: Score,
    /// The mover's expected score before the move (best play).
    pub expected_before: f64,
    /// The mover's expected score after the move.
    pub expected_after: f64,
    /// What the move cost: `expected_before - expected_after`, at least 0 (0 for the best
    /// move).
    pub loss: f64,
    /// The exact values before and after the move, for the mover, when a database covers
    /// both positions.
    pub exact: Option<(Value, Value)>,
    /// The judgement, if any.
    pub judgement: Option<Judgement>,
}

/// A side's summary.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves judged (played by this side, with both positions analysed).
    pub moves: usize,
    /// Inaccuracies, mistakes and blunders.
    pub counts: [usize; 3],
    /// Mean loss per move, a fraction of expected score (0 with no move).
    pub average_loss: f64,
    /// Mean [`move_accuracy`] over the moves (100 with no move).
    pub accuracy: f64,
}

impl SideSummary {
    /// The number of moves given judgement `j`.
    pub fn count(&self, j: Judgement) -> usize {
        self.counts[j as usize]
    }
}

/// A reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// Each position from the start (index 0) to the end (index = number of moves); `None`
    /// where it was not analysed (an interrupted review analyses the end first).
    pub positions: Vec<Option<PositionReview>>,
    /// Each move; `None` where one of its two positions was not analysed.
    pub plies: Vec<Option<PlyReview>>,
    /// Whether `stop` ended the review before every position was analysed.
    pub interrupted: bool,
}

impl Review {
    /// The summary of `side`'s moves.
    pub fn summary(&self, side: Color) -> SideSummary {
        let mine: Vec<&PlyReview> = self
            .plies
            .iter()
            .flatten()
            .filter(|p| p.mover == side)
            .collect();
        let mut s = SideSummary {
            moves: mine.len(),
            accuracy: 100.0,
            ..SideSummary::default()
        };
        if mine.is_empty() {
            return s;
        }
        for p in &mine {
            if let Some(j) = p.judgement {
                s.counts[j as usize] += 1;
            }
        }
        let n = mine.len() as f64;
        s.average_loss = mine.iter().map(|p| p.loss).sum::<f64>() / n;
        s.accuracy = mine.iter().map(|p| move_accuracy(p.loss)).sum::<f64>() / n;
        s
    }

    /// Black's expected score at each position (`None` where not analysed), for a graph.
    pub fn black_expected(&self, game_start: Color) -> Vec<Option<f64>> {
        let mut side = game_start;
        self.positions
            .iter()
            .map(|p| {
                let e = p.as_ref().and_then(|p| p.expected).map(|e| match side {
                    Color::Black => e,
                    Color::White => 1.0 - e,
                });
                side = !side;
                e
            })
            .collect()
    }
}

/// What the review reports as it goes: positions analysed so far, of how many.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Positions analysed.
    pub done: usize,
    /// Positions in the game.
    pub total: usize,
}

/// The score of a position where the game is over, for its side to move: the engine's
/// `Mate(0)` for a loss (the side to move has lost, so the mover won in 1 ply, see
/// [`score_back`]), `Cp(0)` for a draw, and `Mate(1)` for the rare win the rules give to the
/// side to move. Its expected score is taken from the value itself ([`finished_expected`]),
/// not from the model.
fn finished_score(v: Value) -> Score {
    match v {
        Value::Win(_) => Score::Mate(1),
        Value::Loss(_) => Score::Mate(0),
        Value::Draw => Score::Cp(0),
    }
}

/// The expected score of a finished game for its side to move: 1, ½ or 0.
fn finished_expected(v: Value) -> f64 {
    match v {
        Value::Win(_) => 1.0,
        Value::Loss(_) => 0.0,
        Value::Draw => 0.5,
    }
}

/// A score one ply earlier, for the side that moved into the position: centipawns change
/// sign, a win in `n` plies for the side to move is a loss in `n + 1` for the mover, and
/// the other way round.
pub fn score_back(s: Score) -> Score {
    match s {
        Score::Cp(cp) => Score::Cp(-cp),
        Score::Mate(n) if n > 0 => Score::Mate(-(n + 1)),
        Score::Mate(n) => Score::Mate(-n + 1),
    }
}

/// The class of a value: 1 win, 0 draw, −1 loss.
fn class(v: Value) -> i32 {
    match v {
        Value::Win(_) => 1,
        Value::Draw => 0,
        Value::Loss(_) => -1,
    }
}

/// Reviews `game` (see the module documentation): analyses every position with `analyzer`
/// and `req`, from the end back to the start, using `db` where it covers a position, turns
/// evaluations into expected scores with `model` (the variant's win/draw/loss model) and
/// judges every move by `thresholds`. `stop` ends the review early: the position being
/// analysed is dropped and the review holds what was finished (`interrupted` is set).
/// `progress` is called after each position. A damaged database is an error.
#[allow(clippy::too_many_arguments)]
pub fn review<V: Variant, E: Evaluator<V>>(
    analyzer: &mut Analyzer<V, E>,
    game: &Game<V>,
    req: &Request,
    db: Option<&dyn PerfectPlay<V>>,
    model: &WdlModel,
    thresholds: &Thresholds,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<Review, DbError> {
    let n = game.moves().len();
    let mut positions: Vec<Option<PositionReview>> = vec![None; n + 1];
    let mut g = game.clone();
    let mut interrupted = false;
    for i in (0..=n).rev() {
        if stop.load(Ordering::SeqCst) {
            interrupted = true;
            break;
        }
        let analysis = analyzer.analyse(&g, req, db, stop, &mut |_, _| {})?;
        if stop.load(Ordering::SeqCst) && g.outcome().is_none() {
            // Cut short: not a result to judge by.
            interrupted = true;
            break;
        }
        let exact = match &analysis.database {
            DatabaseUse::Exact { value, .. } => Some(*value),
            _ => None,
        };
        let (score, e) = match g.outcome() {
            Some(outcome) => {
                let v =
                    exact.unwrap_or_else(|| outcome_value(g.position().side_to_move(), outcome));
                (Some(finished_score(v)), Some(finished_expected(v)))
            }
            None => {
                let s = match exact {
                    Some(v) => Some(value_score(v)),
                    None => analysis.lines.first().map(|l| l.line.score),
                };
                (s, s.map(|s| model.expected_score(s)))
            }
        };
        positions[i] = Some(PositionReview {
            expected: e,
            score,
            exact,
            analysis,
        });
        progress(Progress {
            done: n + 1 - i,
            total: n + 1,
        });
        if i > 0 {
            g.undo();
        }
    }
    let mut plies = Vec::with_capacity(n);
    let mut mover = game.start().side_to_move();
    for (i, &played) in game.moves().iter().enumerate() {
        plies.push(judge_ply(
            i,
            mover,
            played,
            positions[i].as_ref(),
            positions[i + 1].as_ref(),
            model,
            thresholds,
        ));
        mover = !mover;
    }
    Ok(Review {
        positions,
        plies,
        interrupted,
    })
}

/// The review of move `index` (`played` by `mover`) from the analyses of the positions
/// before and after it.
fn judge_ply(
    index: usize,
    mover: Color,
    played: Move,
    before: Option<&PositionReview>,
    after: Option<&PositionReview>,
    model: &WdlModel,
    thresholds: &Thresholds,
) -> Option<PlyReview> {
    let (before, after) = (before?, after?);
    let before_score = before.score?;
    let after_score = score_back(after.score?);
    let best_line = before
        .analysis
        .lines
        .first()
        .map(|l| l.line.pv.clone())
        .unwrap_or_default();
    let best = before.analysis.best;
    let expected_before = model.expected_score(before_score);
    let expected_after = model.expected_score(after_score);
    let exact = match (before.exact, after.exact) {
        (Some(b), Some(a)) => Some((b, a.back())),
        _ => None,
    };
    let (loss, judgement) = match exact {
        Some((b, a)) => {
            let thrown = class(a) < class(b);
            let loss = if thrown {
                (expected_before - expected_after).max(0.0)
            } else {
                0.0
            };
            (loss, thrown.then_some(Judgement::Blunder))
        }
        None if best == Some(played) => (0.0, None),
        None => {
            let loss = (expected_before - expected_after).max(0.0);
            (loss, thresholds.judge(loss))
        }
    };
    Some(PlyReview {
        index,
        mover,
        played,
        best,
        best_line,
        before: before_score,
        after: after_score,
        expected_before,
        expected_after,
        loss,
        exact,
        judgement,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_engine::Limits;
    use kshogi_notation::{move_to_usi, parse_game, parse_usi};
    use kshogi_registry::types::{Dobutsu, Kinzoku, Kyoto};
    use kshogi_registry::Registered;
    use kshogi_solver::{solve, DobutsuIndex, KinzokuIndex};

    fn depth(d: u32) -> Request {
        Request {
            limits: Limits {
                depth: Some(d),
                ..Limits::default()
            },
            multipv: 1,
            mate_nodes: 0,
        }
    }

    /// Reviews `game` at depth `d` with `db`, recording the progress reports.
    fn run<V: Registered>(
        game: &Game<V>,
        d: u32,
        db: Option<&dyn PerfectPlay<V>>,
    ) -> (Review, Vec<Progress>) {
        let mut a = Analyzer::<V, V::Eval>::new(4);
        let stop = AtomicBool::new(false);
        let mut seen = Vec::new();
        let r = review(
            &mut a,
            game,
            &depth(d),
            db,
            &V::WDL,
            &Thresholds::DEFAULT,
            &stop,
            &mut |p| seen.push(p),
        )
        .unwrap();
        (r, seen)
    }

    /// A path of moves from `game`'s position (at most `plies` long) to a position where
    /// the side to move wins by the database, and one of its moves there that does not keep
    /// the win: found by a depth-first walk over the legal moves, using only the database's
    /// values (which its own verification checks against the rules).
    fn thrown_win<V: Variant>(
        db: &dyn PerfectPlay<V>,
        game: &Game<V>,
        plies: usize,
    ) -> Option<Vec<Move>> {
        let pos = *game.position();
        if game.outcome().is_some() {
            return None;
        }
        if let Some(Value::Win(_)) = db.value(&pos).unwrap() {
            for &m in pos.legal_moves().iter() {
                if let Some(v) = db.value(&pos.after(m)).unwrap() {
                    if class(v.back()) < 1 {
                        return Some(vec![m]);
                    }
                }
            }
        }
        if plies == 0 {
            return None;
        }
        for &m in pos.legal_moves().iter() {
            let mut g = game.clone();
            if g.play(m).is_err() {
                continue;
            }
            if let Some(mut rest) = thrown_win(db, &g, plies - 1) {
                rest.insert(0, m);
                return Some(rest);
            }
        }
        None
    }

    /// The game that follows the database's best move (the first of its best line) from
    /// `game` to the end, or for `max` plies.
    fn perfect<V: Registered>(db: &dyn PerfectPlay<V>, game: &Game<V>, max: usize) -> Game<V> {
        let mut g = game.clone();
        let mut a = Analyzer::<V, V::Eval>::new(1);
        let stop = AtomicBool::new(false);
        for _ in 0..max {
            let r = a
                .analyse(&g, &depth(1), Some(db), &stop, &mut |_, _| {})
                .unwrap();
            match r.best {
                Some(m) => g.play(m).unwrap(),
                None => break,
            }
        }
        g
    }

    /// The last move of a game with a thrown win is an exact blunder; the moves of perfect
    /// play are never judged.
    fn exact_judgements<V: Registered>(db: &dyn PerfectPlay<V>, start: &str) {
        let game = parse_game::<V>(start).unwrap();
        let path = thrown_win(db, &game, 3).expect("a win thrown away within 3 plies");
        let mut g = game.clone();
        for &m in &path {
            g.play(m).unwrap();
        }
        let (r, seen) = run(&g, 2, Some(db));
        assert!(!r.interrupted);
        assert_eq!(r.positions.len(), path.len() + 1);
        // One report per position, the last position first.
        assert_eq!(seen.len(), path.len() + 1);
        assert_eq!(seen.last().unwrap().done, path.len() + 1);
        let last = r.plies.last().unwrap().as_ref().unwrap();
        assert_eq!(last.judgement, Some(Judgement::Blunder), "{last:?}");
        let (before, after) = last.exact.unwrap();
        assert!(matches!(before, Value::Win(_)), "{before:?}");
        assert!(!matches!(after, Value::Win(_)), "{after:?}");
        // No analysis was a search.
        assert!(r.positions.iter().flatten().all(|p| p.analysis.nodes == 0));
        // Perfect play from the position before the blunder: clean, to the end.
        let mut before_blunder = g.clone();
        before_blunder.undo();
        let clean = perfect(db, &before_blunder, 40);
        assert!(clean.moves().len() > before_blunder.moves().len());
        let (r, _) = run(&clean, 2, Some(db));
        for p in r.plies.iter().flatten() {
            assert_eq!(p.judgement, None, "{p:?}");
            assert_eq!(p.loss, 0.0);
        }
        let b = r.summary(Color::Black);
        let w = r.summary(Color::White);
        assert_eq!(b.counts, [0; 3]);
        assert_eq!(w.counts, [0; 3]);
        assert!((b.accuracy - 100.0).abs() < 1e-3, "{b:?}");
    }

    #[test]
    fn kinzoku_a_win_thrown_away_is_a_blunder() {
        // The one-piece database; Black (king 3c, promoted soldier 2c) mates in 1 with 2c2b
        // against the king on 1a (see the crate's tests).
        let db = solve(KinzokuIndex::new(1), 1, &|_| {});
        exact_judgements::<Kinzoku>(&db, "2k/3/K+I1/3/3 b - 1");
    }

    #[test]
    fn dobutsu_a_win_thrown_away_is_a_blunder() {
        // The lions and the giraffes; Black's giraffes on 1a and 2b both take the White
        // lion on 2a (the CLI's solve tests).
        let db = solve(DobutsuIndex::with_kinds([true, false, false]), 1, &|_| {});
        exact_judgements::<Dobutsu>(&db, "1kR/1R1/3/1K1 b - 1");
    }

    #[test]
    fn kyoto_a_hung_piece_is_found_by_the_search() {
        // Black has a rook more (1e). 1e1b+ sends it up the file and turns it into a pawn
        // on 1b, next to the White king on 2a and out of reach of Black's king on 3e: the
        // king takes it, and the game is level.
        let game = parse_game::<Kyoto>("3k1/5/5/5/2K1R b - 1 moves 1e1b+ 2a1b").unwrap();
        let (r, _) = run(&game, 6, None);
        let hung = r.plies[0].as_ref().unwrap();
        assert_eq!(move_to_usi::<Kyoto>(hung.played), "1e1b+");
        assert_eq!(hung.mover, Color::Black);
        assert_eq!(hung.judgement, Some(Judgement::Blunder), "{hung:?}");
        assert!(hung.loss >= 0.15 && hung.exact.is_none());
        assert_ne!(hung.best, Some(hung.played));
        // The capture is White's best move: not judged.
        let take = r.plies[1].as_ref().unwrap();
        assert_eq!(take.best, Some(take.played));
        assert_eq!(take.judgement, None);
        let b = r.summary(Color::Black);
        assert_eq!((b.moves, b.count(Judgement::Blunder)), (1, 1));
        // Black's expected score falls on the graph's points; the start is good for Black.
        let e = r.black_expected(Color::Black);
        assert_eq!(e.len(), 3);
        assert!(e[0].unwrap() > e[1].unwrap() + 0.15, "{e:?}");
        let pos = *parse_game::<Kyoto>("3k1/5/5/5/2K1R b - 1")
            .unwrap()
            .position();
        assert!(parse_usi(&pos, "1e1b+").is_ok());
    }

    #[test]
    fn a_raised_stop_keeps_only_finished_positions() {
        let game = parse_game::<Kyoto>("startpos moves 1e1d+ 5a5b+").unwrap();
        let mut a = Analyzer::<Kyoto, <Kyoto as Registered>::Eval>::new(1);
        let stop = AtomicBool::new(false);
        let mut calls = 0;
        let r = review(
            &mut a,
            &game,
            &depth(3),
            None,
            &Kyoto::WDL,
            &Thresholds::DEFAULT,
            &stop,
            &mut |_| {
                calls += 1;
                // Stop after the last two positions.
                if calls == 2 {
                    stop.store(true, Ordering::SeqCst);
                }
            },
        )
        .unwrap();
        assert!(r.interrupted);
        assert!(r.positions[0].is_none() && r.positions[1].is_some() && r.positions[2].is_some());
        assert!(r.plies[0].is_none() && r.plies[1].is_some());
    }

    #[test]
    fn thresholds_and_accuracy() {
        let t = Thresholds::DEFAULT;
        assert_eq!(t.judge(0.0), None);
        assert_eq!(t.judge(0.0499), None);
        assert_eq!(t.judge(0.05), Some(Judgement::Inaccuracy));
        assert_eq!(t.judge(0.12), Some(Judgement::Mistake));
        assert_eq!(t.judge(0.15), Some(Judgement::Blunder));
        assert_eq!(t.judge(1.0), Some(Judgement::Blunder));
        // lichess's curve: 100 at no loss (103.1668 - 3.1669 = 99.9999, clamped), about
        // 103.1668 * e^-0.6531 - 3.1669 = 50.5 at 15 points, 0 for a whole game thrown away.
        assert!((move_accuracy(0.0) - 100.0).abs() < 1e-3);
        assert!(
            (move_accuracy(0.15) - 50.54).abs() < 0.05,
            "{}",
            move_accuracy(0.15)
        );
        assert_eq!(move_accuracy(1.0), 0.0);
    }

    #[test]
    fn scores_seen_from_the_mover() {
        assert_eq!(score_back(Score::Cp(35)), Score::Cp(-35));
        // The opponent mates in 3 plies after my move: I lose in 4 from before it.
        assert_eq!(score_back(Score::Mate(3)), Score::Mate(-4));
        // The opponent is mated in 2 plies: I win in 3.
        assert_eq!(score_back(Score::Mate(-2)), Score::Mate(3));
    }

    #[test]
    fn a_side_summary_counts_and_averages() {
        let ply = |mover, loss: f64, judgement| {
            Some(PlyReview {
                index: 0,
                mover,
                played: Move::NULL,
                best: None,
                best_line: Vec::new(),
                before: Score::Cp(0),
                after: Score::Cp(0),
                expected_before: 0.5,
                expected_after: 0.5 - loss,
                loss,
                exact: None,
                judgement,
            })
        };
        let review = Review {
            positions: Vec::new(),
            plies: vec![
                ply(Color::Black, 0.0, None),
                ply(Color::White, 0.2, Some(Judgement::Blunder)),
                ply(Color::Black, 0.1, Some(Judgement::Mistake)),
                None,
            ],
            interrupted: false,
        };
        let b = review.summary(Color::Black);
        assert_eq!(b.moves, 2);
        assert_eq!(b.count(Judgement::Mistake), 1);
        assert_eq!(b.count(Judgement::Blunder), 0);
        assert!((b.average_loss - 0.05).abs() < 1e-12);
        let want = (move_accuracy(0.0) + move_accuracy(0.1)) / 2.0;
        assert!((b.accuracy - want).abs() < 1e-12);
        let w = review.summary(Color::White);
        assert_eq!((w.moves, w.count(Judgement::Blunder)), (1, 1));
    }
}
