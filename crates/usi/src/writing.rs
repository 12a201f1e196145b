//! How the engine's answers are written: moves in the dialect and coordinates of the
//! protocol spoken, `info` lines, `go perft`'s count, and the answers of a finished game.
//! Text only: what to answer is decided by the session and the analysis service.

use crate::engine_text;
use kshogi_analysis::choose_move;
use kshogi_core::{divide_interruptible, Game, Move, Position, Variant};
use kshogi_engine::Info;
use kshogi_notation::uci::{uci_to_usi, usi_to_uci};
use kshogi_notation::{move_to_usi_in, Dialect};
use kshogi_registry::Registered;
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

/// The protocol spoken: USI (the default) or UCI (after `uci`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum Protocol {
    #[default]
    Usi,
    Uci,
}

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
}

/// The text of a `position` line in UCI mode with its moves in USI coordinates (a word that
/// is not a UCI move is left as it is, for the reader to report).
pub(crate) fn uci_moves_as_usi<V: Variant>(text: &str) -> String {
    let Some(at) = text.find(" moves") else {
        return text.to_string();
    };
    let g = V::GEOMETRY;
    let (head, tail) = text.split_at(at + " moves".len());
    let mut out = head.to_string();
    for word in tail.split(' ') {
        out.push(' ');
        if word.is_empty() {
            continue;
        }
        out.push_str(&uci_to_usi(word, g.width, g.height).unwrap_or_else(|| word.to_string()));
    }
    out
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
            return format!(
                "info string error: go perft {depth} stopped before the count was complete"
            );
        };
        rows.push((writing.mv(pos, m), n));
    }
    rows.sort();
    let mut s = String::new();
    let mut total = 0u64;
    for (m, n) in &rows {
        let _ = writeln!(s, "{m}: {n}");
        total += n;
    }
    let _ = write!(s, "\nNodes searched: {total}\n");
    s
}

/// The answer when the game is over or no search result is usable: the game-over answer
/// ([`game_over_answer`]); otherwise the first legal move.
pub(crate) fn fallback_answer<V: Registered>(game: &Game<V>, writing: Writing) -> String {
    if let Some(answer) = game_over_answer(game, writing) {
        return answer.to_string();
    }
    match choose_move(game, &[]) {
        Some(mv) => writing.mv(game.position(), mv),
        None => "resign".to_string(),
    }
}

/// The answer when the game is already over, as the reference engine gives it: in UCI mode
/// `(none)`; in USI mode `win` when the side to move has won, otherwise `resign`.
pub(crate) fn game_over_answer<V: Registered>(
    game: &Game<V>,
    writing: Writing,
) -> Option<&'static str> {
    let outcome = game.outcome()?;
    Some(if writing.protocol == Protocol::Uci {
        "(none)"
    } else if outcome.winner() == Some(game.position().side_to_move()) {
        "win"
    } else {
        "resign"
    })
}

/// The `info` line sent before the answer when the game is already over, so that every
/// analysed position has a score (the reference engine's line): `score mate 0` when the
/// game is decided, `score cp 0` when it is drawn.
pub(crate) fn game_over_info<V: Registered>(game: &Game<V>) -> Option<&'static str> {
    let outcome = game.outcome()?;
    Some(match outcome.winner() {
        Some(_) => "info depth 0 score mate 0",
        None => "info depth 0 score cp 0",
    })
}

/// One `info` line for a line reported by the analysis (its `pv` already legal); with
/// `wdl`, the score is followed by `wdl W D L`, the variant's model's chances per mille
/// (where Stockfish puts them).
pub(crate) fn info_line<V: Registered>(
    pos: &Position<V>,
    info: &Info,
    writing: Writing,
    wdl: bool,
) -> String {
    let ms = engine_text::millis(info.time);
    let chances = if wdl {
        let w = V::WDL.wdl(info.score);
        format!(" wdl {} {} {}", w.win, w.draw, w.loss)
    } else {
        String::new()
    };
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}{chances} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth,
        info.multipv,
        engine_text::score_usi(info.score),
        info.nodes,
        engine_text::nodes_per_second(info.nodes, info.time),
        ms,
        info.hashfull
    );
    if !info.pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&writing.line(pos, &info.pv).join(" "));
    }
    s
}
