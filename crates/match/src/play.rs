//! Playing over USI: starting an engine for a match (handshake, start-up lines, variant and
//! options) and `go` ... `bestmove`, on top of `kshogi-usi-client`.

use crate::EngineSpec;
use kshogi_usi_client::{Engine, EngineError};
use std::time::{Duration, Instant};

/// The answer to a `go`.
#[derive(Clone, Debug, PartialEq)]
pub struct GoAnswer {
    /// The move after `bestmove` (`resign` and `win` included), as the engine wrote it.
    pub best: String,
    /// The time from sending `go` to reading `bestmove`.
    pub elapsed: Duration,
    /// The last `info` line's `score cp N` or `score mate N`, as text (`cp 35`, `mate -3`).
    pub score: Option<String>,
    /// The last `info` line's `depth`.
    pub depth: Option<u32>,
}

/// The score and depth of an `info` line, if it has them.
fn read_info(line: &str, score: &mut Option<String>, depth: &mut Option<u32>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        match *w {
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|d| d.parse().ok()) {
                    *depth = Some(d);
                }
            }
            "score" => {
                if let (Some(kind), Some(v)) = (words.get(i + 1), words.get(i + 2)) {
                    if matches!(*kind, "cp" | "mate") {
                        *score = Some(format!("{kind} {v}"));
                    }
                }
            }
            _ => {}
        }
    }
}

/// Sends `go_line` (`go movetime 100`) and reads until `bestmove`, before `deadline`.
/// `info` lines give the score and depth; other lines are ignored, as USI says; a
/// `bestmove` without a move is garbage.
pub fn go(engine: &mut Engine, go_line: &str, deadline: Instant) -> Result<GoAnswer, EngineError> {
    let sent = Instant::now();
    engine.send(go_line)?;
    let (mut score, mut depth) = (None, None);
    let mut best = String::new();
    engine.read_until(deadline, "`bestmove`", |line| {
        let l = line.trim();
        if l.starts_with("info") {
            read_info(l, &mut score, &mut depth);
            return Ok(false);
        }
        let mut words = l.split_whitespace();
        if words.next() != Some("bestmove") {
            return Ok(false);
        }
        match words.next() {
            Some(mv) => {
                best = mv.to_string();
                Ok(true)
            }
            None => Err("`bestmove` names no move".into()),
        }
    })?;
    Ok(GoAnswer {
        best,
        elapsed: sent.elapsed(),
        score,
        depth,
    })
}

/// Starts `spec` for a match of the variant named `variant`: spawn, `usi`, the start-up
/// lines, `USI_Variant`, the options, `isready`.
pub(crate) fn start(
    spec: &EngineSpec,
    variant: &str,
    handshake: Duration,
) -> Result<Engine, EngineError> {
    let mut engine = Engine::spawn(&spec.command, handshake)?;
    engine.handshake()?;
    for line in &spec.init {
        engine.send(line)?;
    }
    let name = spec.variant_name.as_deref().unwrap_or(variant);
    engine.set_option("USI_Variant", name)?;
    for (k, v) in &spec.options {
        engine.set_option(k, v)?;
    }
    engine.is_ready()?;
    Ok(engine)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_score_and_depth() {
        let (mut s, mut d) = (None, None);
        read_info(
            "info depth 7 seldepth 9 score cp -35 nodes 100 pv 1e1d",
            &mut s,
            &mut d,
        );
        assert_eq!((s.as_deref(), d), (Some("cp -35"), Some(7)));
        read_info("info string hello", &mut s, &mut d);
        assert_eq!((s.as_deref(), d), (Some("cp -35"), Some(7)));
        read_info("info depth 3 score mate 2", &mut s, &mut d);
        assert_eq!((s.as_deref(), d), (Some("mate 2"), Some(3)));
    }
}
