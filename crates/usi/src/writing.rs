//! How the engine's answers are made: moves in the dialect and coordinates of the protocol
//! spoken, `info` lines, `go perft`'s count, and the answers of a finished game, as
//! messages of `kshogi-usi-protocol` (which prints them). What to answer is decided by the
//! session and the analysis service.

use crate::engine_text;
use kshogi_analysis::choose_move;
use kshogi_core::{divide_interruptible, Game, Move, Position, Variant};
use kshogi_engine::Info;
use kshogi_notation::uci::{uci_to_usi, usi_to_uci};
use kshogi_notation::{move_to_usi_in, Dialect};
use kshogi_registry::Registered;
use kshogi_usi_protocol::{BestMove, EngineMessage, Protocol, Score, ScoreValue, Wdl};
use std::sync::atomic::AtomicBool;

/// How moves are written: the dialect of the letters and the coordinates of the protocol.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Writing {
    /// The letters.
    pub dialect: Dialect,
    /// The coordinates.
    pub protocol: Protocol,
}

impl Writing {
    /// `mv`, legal in `pos`, as the GUI reads it.
    pub fn mv<V: Variant>(self, pos: &Position<V>, mv: Move) -> String {
        let text = move_to_usi_in(pos, mv, self.dialect);
        match self.protocol {
            Protocol::Usi => text,
            Protocol::Uci => {
                let g = V::GEOMETRY;
                usi_to_uci(&text, g.width, g.height).unwrap_or(text)
            }
        }
    }

    /// The moves of `pv` (legal from `pos`), each written from the position it is played in.
    pub fn line<V: Variant>(self, pos: &Position<V>, pv: &[Move]) -> Vec<String> {
        let mut p = *pos;
        pv.iter()
            .map(|&m| {
                let t = self.mv(&p, m);
                p.make(m);
                t
            })
            .collect()
    }

    /// A move the GUI sent, in USI coordinates: in UCI mode a UCI move is rewritten (a word
    /// that is not one is left as it is, for the notation to report).
    pub fn read_move<V: Variant>(self, text: &str) -> String {
        match self.protocol {
            Protocol::Usi => text.to_string(),
            Protocol::Uci => {
                let g = V::GEOMETRY;
                uci_to_usi(text, g.width, g.height).unwrap_or_else(|| text.to_string())
            }
        }
    }
}

/// An `info string` line.
pub(crate) fn info_string(text: String) -> EngineMessage {
    EngineMessage::Info(kshogi_usi_protocol::Info {
        string: Some(text),
        ..Default::default()
    })
}

/// The answer to `go perft N`, as the reference engine prints it: one `<move>: <count>`
/// line per legal move (sorted by the text), a blank line, `Nodes searched: <total>` and a
/// blank line. Repetition is ignored, as perft counts do. Counted on `threads` threads;
/// when `stop` ends the count first, one error line says so instead.
pub(crate) fn perft_text<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    writing: Writing,
    threads: usize,
    stop: &AtomicBool,
) -> String {
    let counts = divide_interruptible(pos, depth, threads, stop);
    let mut rows: Vec<(String, u64)> = Vec::with_capacity(counts.len());
    for (m, n) in counts {
        let Some(n) = n else {
            return info_string(format!(
                "error: go perft {depth} stopped before the count was complete"
            ))
            .to_string();
        };
        rows.push((writing.mv(pos, m), n));
    }
    rows.sort();
    let mut s = String::new();
    let mut total = 0u64;
    for (mv, nodes) in rows {
        total += nodes;
        s.push_str(&EngineMessage::PerftMove { mv, nodes }.to_string());
        s.push('\n');
    }
    s.push('\n');
    s.push_str(&EngineMessage::PerftTotal(total).to_string());
    s.push('\n');
    s
}

/// The `bestmove` line for `best`, with no move to ponder on.
pub(crate) fn bestmove(best: BestMove) -> EngineMessage {
    EngineMessage::BestMove { best, ponder: None }
}

/// The answer when the game is over or no search result is usable: the game-over answer
/// ([`game_over_answer`]); otherwise the first legal move.
pub(crate) fn fallback_answer<V: Registered>(game: &Game<V>, writing: Writing) -> BestMove {
    if let Some(answer) = game_over_answer(game, writing) {
        return answer;
    }
    match choose_move(game, &[]) {
        Some(mv) => BestMove::Move(writing.mv(game.position(), mv)),
        None => BestMove::Resign,
    }
}

/// The answer when the game is already over, as the reference engine gives it: in UCI mode
/// `(none)`; in USI mode `win` when the side to move has won, otherwise `resign`.
pub(crate) fn game_over_answer<V: Registered>(
    game: &Game<V>,
    writing: Writing,
) -> Option<BestMove> {
    let outcome = game.outcome()?;
    Some(if writing.protocol == Protocol::Uci {
        BestMove::NoMove
    } else if outcome.winner() == Some(game.position().side_to_move()) {
        BestMove::Win
    } else {
        BestMove::Resign
    })
}

/// The `info` line sent before the answer when the game is already over, so that every
/// analysed position has a score (the reference engine's line): `score mate 0` when the
/// game is decided, `score cp 0` when it is drawn.
pub(crate) fn game_over_info<V: Registered>(game: &Game<V>) -> Option<EngineMessage> {
    let outcome = game.outcome()?;
    let value = match outcome.winner() {
        Some(_) => ScoreValue::Mate(0),
        None => ScoreValue::Cp(0),
    };
    Some(EngineMessage::Info(kshogi_usi_protocol::Info {
        depth: Some(0),
        score: Some(Score { value, bound: None }),
        ..Default::default()
    }))
}

/// One `info` line for a line reported by the analysis (its `pv` already legal); with
/// `wdl`, the score is followed by `wdl W D L`, the variant's model's chances per mille
/// (where Stockfish puts them).
pub(crate) fn info_line<V: Registered>(
    pos: &Position<V>,
    info: &Info,
    writing: Writing,
    wdl: bool,
) -> EngineMessage {
    let chances = wdl.then(|| {
        let w = V::WDL.wdl(info.score);
        Wdl {
            win: w.win,
            draw: w.draw,
            loss: w.loss,
        }
    });
    EngineMessage::Info(kshogi_usi_protocol::Info {
        depth: Some(info.depth),
        seldepth: Some(info.seldepth),
        multipv: Some(u32::try_from(info.multipv).unwrap_or(u32::MAX)),
        score: Some(engine_text::score_message(info.score)),
        wdl: chances,
        nodes: Some(info.nodes),
        nps: Some(kshogi_core::nodes_per_second(info.nodes, info.time)),
        time: Some(engine_text::millis(info.time)),
        hashfull: Some(info.hashfull),
        currmove: None,
        pv: writing.line(pos, &info.pv),
        string: None,
    })
}
