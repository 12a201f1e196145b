//! Engine results as text, shared by the USI loop and the command line's `analyze`,
//! `selfplay` and `perft`: moves and lines in USI (either dialect) and KIF, scores, rates.
//! Not a stable API.
//!
//! Which lines to print and which move to play is the analysis service's decision
//! (`kshogi-analysis`; [`legal_prefix`] and [`choose_move`] are re-exported from it): a
//! principal variation is cut at its first move that is not legal, so no output can name
//! an illegal move.

pub use kshogi_analysis::{choose_move, legal_prefix};
use kshogi_core::Variant;
use kshogi_core::{Move, Position, Square};
use kshogi_engine::Score;
use kshogi_notation::kif::kif_move_text;
use kshogi_notation::{move_to_usi, move_to_usi_in, Dialect};
use kshogi_usi_protocol::ScoreValue;
use serde::Serialize;
use std::time::Duration;

/// The moves of `pv` in canonical USI.
pub fn pv_usi<V: Variant>(pv: &[Move]) -> Vec<String> {
    pv.iter().map(|&mv| move_to_usi::<V>(mv)).collect()
}

/// The moves of `pv` (legal from `pos`) in USI of `dialect`, each written from the position
/// it is played in (the reference engine's `-` mark depends on the piece that moves).
pub fn pv_usi_in<V: Variant>(pos: &Position<V>, pv: &[Move], dialect: Dialect) -> Vec<String> {
    let mut p = *pos;
    pv.iter()
        .map(|&mv| {
            let text = move_to_usi_in(&p, mv, dialect);
            p.make(mv);
            text
        })
        .collect()
}

/// The moves of `pv` (legal from `pos`) in Japanese KIF move notation; `prev` is the
/// destination of the move that led to `pos`, so that a recapture reads `同　`.
pub fn pv_kif<V: Variant>(pos: &Position<V>, pv: &[Move], prev: Option<Square>) -> Vec<String> {
    let mut p = *pos;
    let mut prev = prev;
    let mut out = Vec::with_capacity(pv.len());
    for &mv in pv {
        out.push(kif_move_text(&p, mv, prev));
        prev = Some(mv.to());
        p.make(mv);
    }
    out
}

/// A score as the protocol's type (exact, not a bound).
pub fn score_message(score: Score) -> kshogi_usi_protocol::Score {
    kshogi_usi_protocol::Score {
        value: match score {
            Score::Cp(cp) => ScoreValue::Cp(cp),
            Score::Mate(n) => ScoreValue::Mate(n),
        },
        bound: None,
    }
}

/// A score as USI writes it after `score`: `cp 35`, `mate 3`, `mate -2`.
pub fn score_usi(score: Score) -> String {
    score_message(score).to_string()
}

/// A score in JSON: `{"cp": 35}` or `{"mate": -2}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ScoreJson {
    /// Centipawns from the side to move's point of view.
    #[serde(rename = "cp")]
    Cp(i32),
    /// Plies to the end of the game; negative when the side to move loses.
    #[serde(rename = "mate")]
    Mate(i32),
}

impl From<Score> for ScoreJson {
    fn from(s: Score) -> ScoreJson {
        match s {
            Score::Cp(n) => ScoreJson::Cp(n),
            Score::Mate(n) => ScoreJson::Mate(n),
        }
    }
}

/// Whole milliseconds of a duration, saturating.
pub fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_notation::{parse_game, parse_usi};
    use kshogi_rules_kyoto::Kyoto;

    #[test]
    fn pv_is_cut_at_the_first_illegal_move() {
        let pos = Position::<Kyoto>::start();
        let a = parse_usi(&pos, "1e1d+").unwrap();
        let b = parse_usi(&pos.after(a), "5a5b+").unwrap();
        // `a` again is not legal for White.
        assert_eq!(legal_prefix(&pos, &[a, b, a]), vec![a, b]);
        assert_eq!(legal_prefix(&pos, &[b]), Vec::<Move>::new());
        assert_eq!(pv_usi::<Kyoto>(&[a, b]), ["1e1d+", "5a5b+"]);
    }

    #[test]
    fn kif_pv_uses_same_square_after_a_recapture() {
        // 1e1d+ (Pawn becomes Rook), 5a5b+, then the Rook takes on 1a: `１一飛成(14)`.
        let g = parse_game::<Kyoto>("startpos moves 1e1d+ 5a5b+").unwrap();
        let pos = *g.position();
        let c = parse_usi(&pos, "1d1a+").unwrap();
        let kif = pv_kif(&pos, &[c], g.moves().last().map(|m| m.to()));
        assert_eq!(kif, ["１一飛成(14)"]);
        // After 5a5b+ the last destination is 5b; a move there would read `同　`.
        let start = Position::<Kyoto>::start();
        let a = parse_usi(&start, "1e1d+").unwrap();
        assert_eq!(pv_kif(&start, &[a], Some(a.to())), ["同\u{3000}歩成(15)"]);
    }

    #[test]
    fn scores() {
        assert_eq!(score_usi(Score::Cp(-35)), "cp -35");
        assert_eq!(score_usi(Score::Mate(3)), "mate 3");
        assert_eq!(
            serde_json::to_string(&ScoreJson::from(Score::Mate(-2))).unwrap(),
            "{\"mate\":-2}"
        );
        assert_eq!(
            serde_json::to_string(&ScoreJson::from(Score::Cp(12))).unwrap(),
            "{\"cp\":12}"
        );
    }
}
