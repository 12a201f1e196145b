//! Games: a start position, the moves played, and the variant's repetition rule.

use crate::position::Position;
use crate::variant::{DrawReason, Outcome, Variant, WinReason};
use crate::{Color, Move};

/// Why a move could not be played in a [`Game`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game has already ended.
    #[error("the game is over ({0})")]
    GameOver(Outcome),
    /// The move is not legal in the current position.
    #[error("illegal move")]
    IllegalMove,
    /// The game has reached the largest ply number a position may carry.
    #[error(
        "the game has reached ply {}, the largest kshogi counts",
        crate::MAX_PLY
    )]
    PlyLimit,
}

/// A game: start position, moves, and the history the repetition rule needs.
#[derive(Clone, Debug)]
pub struct Game<V: Variant> {
    start: Position<V>,
    position: Position<V>,
    moves: Vec<Move>,
    /// Hash of every position from the start, inclusive (`moves.len() + 1` entries).
    hashes: Vec<u64>,
    /// Whether each move gave check.
    checks: Vec<bool>,
    outcome: Option<Outcome>,
}

impl<V: Variant> Game<V> {
    /// A game from `start`.
    pub fn new(start: Position<V>) -> Game<V> {
        Game {
            start,
            position: start,
            moves: Vec::new(),
            hashes: vec![start.hash()],
            checks: Vec::new(),
            outcome: start.outcome(),
        }
    }

    /// The start position.
    pub fn start(&self) -> &Position<V> {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position<V> {
        &self.position
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The result, once the game is over (including repetition).
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// How many times the current position has occurred, this time included.
    pub fn occurrences(&self) -> usize {
        let h = self.position.hash();
        self.hashes.iter().filter(|&&x| x == h).count()
    }

    /// Plays a move, checking that it is legal and the game is not over.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::GameOver(o));
        }
        if !self.position.is_legal(mv) {
            return Err(GameError::IllegalMove);
        }
        if self.position.ply() >= crate::MAX_PLY {
            return Err(GameError::PlyLimit);
        }
        self.position.make(mv);
        self.moves.push(mv);
        self.hashes.push(self.position.hash());
        self.checks.push(self.position.in_check());
        self.outcome = self.position.outcome().or_else(|| self.repetition());
        Ok(())
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.hashes.pop();
        self.checks.pop();
        let mut pos = self.start;
        for &m in &self.moves {
            pos.make(m);
        }
        self.position = pos;
        self.outcome = if self.moves.is_empty() {
            self.start.outcome()
        } else {
            self.position.outcome().or_else(|| self.repetition())
        };
        Some(mv)
    }

    /// The repetition result for the current position, if the rule ends the game here.
    ///
    /// When perpetual check loses, the cycle examined runs from the first occurrence of the
    /// position to now: a side all of whose moves in it gave check loses. If both sides
    /// checked on every move, or neither did, the game is drawn, or, when the side completing
    /// the repetition loses, won by the side to move.
    fn repetition(&self) -> Option<Outcome> {
        let rule = V::REPETITION;
        let h = self.position.hash();
        let first = self.hashes.iter().position(|&x| x == h)?;
        let count = self.hashes[first..].iter().filter(|&&x| x == h).count();
        if count < rule.occurrences as usize {
            return None;
        }
        if rule.perpetual_check_loses {
            // Move i is played from position i; the mover of move i alternates.
            let start_side = self.start.side_to_move();
            let mut all_checks = [true; 2];
            let mut moved = [false; 2];
            for i in first..self.moves.len() {
                let mover = if i % 2 == 0 { start_side } else { !start_side };
                moved[mover.index()] = true;
                all_checks[mover.index()] &= self.checks[i];
            }
            let checker = |c: Color| moved[c.index()] && all_checks[c.index()];
            match (checker(Color::Black), checker(Color::White)) {
                (true, false) => {
                    return Some(Outcome::Win {
                        winner: Color::White,
                        reason: WinReason::PerpetualCheck,
                    })
                }
                (false, true) => {
                    return Some(Outcome::Win {
                        winner: Color::Black,
                        reason: WinReason::PerpetualCheck,
                    })
                }
                _ => {}
            }
        }
        if rule.repeater_loses {
            // The side that just moved completed the repetition.
            return Some(Outcome::Win {
                winner: self.position.side_to_move(),
                reason: WinReason::Repetition,
            });
        }
        Some(Outcome::Draw {
            reason: DrawReason::Repetition,
        })
    }
}
