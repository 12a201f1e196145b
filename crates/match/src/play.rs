//! Playing over USI: starting an engine for a match (handshake, start-up lines, variant and
//! options) and `go` ... `bestmove`, on top of `kshogi-usi-client`.

use crate::EngineSpec;
use kshogi_usi_client::protocol::{BestMove, EngineMessage, ErrorKind, Go, GuiMessage};
use kshogi_usi_client::{Engine, EngineError, Garbage};
use std::time::{Duration, Instant};

/// The answer to a `go`.
#[derive(Clone, Debug, PartialEq)]
pub struct GoAnswer {
    /// The answer after `bestmove` (`resign` and `win` included), as the engine wrote it.
    pub best: BestMove,
    /// The time from sending `go` to reading `bestmove`.
    pub elapsed: Duration,
    /// The last `info` line's `score cp N` or `score mate N`, as text (`cp 35`, `mate -3`).
    pub score: Option<String>,
    /// The last `info` line's `depth`.
    pub depth: Option<u32>,
}

/// Sends `go` with `limits` and reads until `bestmove`, before `deadline`. `info` lines
/// give the score and depth; other lines (and `info` lines that are not messages) are
/// ignored, as USI says; a `bestmove` without a move is garbage.
pub fn go(engine: &mut Engine, limits: &Go, deadline: Instant) -> Result<GoAnswer, EngineError> {
    let sent = Instant::now();
    engine.send_message(&GuiMessage::Go(limits.clone()))?;
    let (mut score, mut depth) = (None, None);
    let mut best = BestMove::Resign;
    engine.read_until(deadline, "`bestmove`", |line| {
        match line.parse::<EngineMessage>() {
            Ok(EngineMessage::Info(info)) => {
                if let Some(s) = info.score {
                    score = Some(s.value.to_string());
                }
                depth = info.depth.or(depth);
                Ok(false)
            }
            Ok(EngineMessage::BestMove { best: b, .. }) => {
                best = b;
                Ok(true)
            }
            // A `bestmove` that names no move.
            Err(e) if e.kind == ErrorKind::MissingValue("bestmove") => Err(Garbage::NotAMessage(e)),
            _ => Ok(false),
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
/// lines, the options, `USI_Variant`, `isready`. The options come first because one of
/// them may define the variant the engine is asked to play (the reference engine's
/// `VariantPath`, which must be set before `UCI_Variant` names a variant of its file).
/// Each option must be one the engine declared, with a value its type takes
/// ([`EngineError::Option`] otherwise, before anything is sent): an engine ignores what it
/// does not know, and a match would measure its defaults under the option's name.
pub(crate) fn start(
    spec: &EngineSpec,
    variant: &str,
    handshake: Duration,
) -> Result<Engine, EngineError> {
    let mut engine = Engine::spawn(&spec.command, handshake)?;
    let info = engine.handshake()?;
    for (k, v) in &spec.options {
        info.check_option(k, v)?;
    }
    for line in &spec.init {
        engine.send(line)?;
    }
    for (k, v) in &spec.options {
        engine.set_option(k, v)?;
    }
    let name = spec.variant_name.as_deref().unwrap_or(variant);
    engine.set_option("USI_Variant", name)?;
    engine.is_ready()?;
    Ok(engine)
}
