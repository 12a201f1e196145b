//! Another USI engine as a perft counter: how to run it ([`EngineConfig`]: the command,
//! its `USI_Variant`, dialect, options and the lines sent first), started when first needed
//! and again after it failed ([`EngineCounter`]), its `go perft` answers read back into
//! canonical USI moves, in either dialect. It counts suite rows ([`EngineCounter::count_row`])
//! and is a [`DivideSource`] for the divergence finder.

use crate::diverge::{DivideError, DivideSource};
use crate::report::{nodes_per_second, Count, CountError};
use crate::suite::SuiteRow;
use kshogi_core::{Position, Variant};
use kshogi_notation::{parse_game, parse_usi, to_sfen_in, Dialect};
use kshogi_usi_client::{Engine, EngineError, PerftAnswer};
use std::time::{Duration, Instant};

/// How to run one engine.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineConfig {
    /// The command line.
    pub command: String,
    /// The `USI_Variant` to set, if any.
    pub variant: Option<String>,
    /// Its dialect.
    pub dialect: Dialect,
    /// `setoption` pairs.
    pub options: Vec<(String, String)>,
    /// Lines sent first.
    pub init: Vec<String>,
    /// The deadline of each answer.
    pub timeout: Duration,
}

/// An engine's count of a position: its divide (moves in canonical USI where kshogi reads
/// them), its total, and the time it took.
pub type EngineCount = (Vec<(String, u64)>, u64, Duration);

/// An engine that is started when first needed and again after it failed: a misbehaving
/// engine fails the count it was asked for, and the next count gets a fresh process.
pub struct EngineCounter {
    /// How to run it.
    pub config: EngineConfig,
    engine: Option<Engine>,
}

impl EngineCounter {
    /// A counter for `config`; nothing is started yet.
    pub fn new(config: EngineConfig) -> EngineCounter {
        EngineCounter {
            config,
            engine: None,
        }
    }

    /// The running engine, started and set up if it is not running.
    fn engine(&mut self) -> Result<&mut Engine, EngineError> {
        if self.engine.is_none() {
            let c = &self.config;
            let mut e = Engine::spawn(&c.command, c.timeout)?;
            e.handshake()?;
            for line in &c.init {
                e.send(line)?;
            }
            if let Some(v) = &c.variant {
                e.set_option("USI_Variant", v)?;
            }
            for (name, value) in &c.options {
                e.set_option(name, value)?;
            }
            e.is_ready()?;
            self.engine = Some(e);
        }
        Ok(self.engine.as_mut().expect("started above"))
    }

    /// `go perft DEPTH` on `pos`, written in the engine's dialect. On any failure the
    /// engine is killed (to be started afresh next time) and the error says why.
    pub fn perft<V: Variant>(
        &mut self,
        pos: &Position<V>,
        depth: u32,
    ) -> Result<PerftAnswer, EngineError> {
        let sfen = to_sfen_in(pos, self.config.dialect);
        let timeout = self.config.timeout;
        let result = self.engine().and_then(|e| {
            e.position(&sfen, &[])?;
            e.perft(depth, Instant::now() + timeout)
        });
        result.inspect_err(|_| self.engine = None)
    }

    /// The engine's divide of `pos` with each move in canonical USI where kshogi reads it as
    /// a legal move (kept as the engine wrote it otherwise), its total, and the time taken.
    pub fn count<V: Variant>(
        &mut self,
        pos: &Position<V>,
        depth: u32,
    ) -> Result<EngineCount, CountError> {
        let start = Instant::now();
        let answer = self.perft(pos, depth)?;
        let elapsed = start.elapsed();
        let divide = answer
            .divide
            .into_iter()
            .map(|(text, n)| match parse_usi::<V>(pos, &text) {
                Ok(mv) => (kshogi_notation::move_to_usi::<V>(mv), n),
                Err(_) => (text, n),
            })
            .collect();
        Ok((divide, answer.nodes, elapsed))
    }

    /// A suite row (of variant `V`) counted by the engine, with its divide; the error says
    /// why there is no count (the position does not read, or the engine failed).
    pub fn count_row<V: Variant>(&mut self, row: &SuiteRow) -> Result<Count, CountError> {
        let game = parse_game::<V>(&row.sfen).map_err(CountError::Position)?;
        let (divide, nodes, elapsed) = self.count(game.position(), row.depth)?;
        let time_ms = elapsed.as_secs_f64() * 1000.0;
        Ok(Count {
            nodes,
            divide: Some(divide.into_iter().collect()),
            time_ms,
            nps: nodes_per_second(nodes, time_ms),
        })
    }
}

impl<V: Variant> DivideSource<V> for EngineCounter {
    fn name(&self) -> String {
        format!("engine `{}`", self.config.command)
    }

    fn divide(&mut self, pos: &Position<V>, depth: u32) -> Result<Vec<(String, u64)>, DivideError> {
        Ok(self.perft(pos, depth).map_err(DivideError::new)?.divide)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_rules_kyoto::Kyoto;

    fn missing() -> EngineCounter {
        EngineCounter::new(EngineConfig {
            command: "/nonexistent/kshogi-test-engine".into(),
            variant: None,
            dialect: Dialect::Canonical,
            options: vec![],
            init: vec![],
            timeout: Duration::from_secs(5),
        })
    }

    /// A row whose position does not read is refused before any engine is started, and an
    /// engine that cannot be started fails the count with an error, not a panic.
    #[test]
    fn counts_fail_with_reasons() {
        let mut bad = SuiteRow {
            line: 1,
            variant: "kyoto".into(),
            sfen: "not a position".into(),
            depth: 1,
            nodes: 1,
            tier: crate::Tier::Quick,
            source: None,
            convention: None,
        };
        let mut counter = missing();
        let e = counter.count_row::<Kyoto>(&bad).unwrap_err();
        assert!(matches!(e, CountError::Position(_)), "{e:?}");
        assert!(
            e.to_string().starts_with("the position does not read"),
            "{e}"
        );
        bad.sfen = "startpos".into();
        assert!(counter.count_row::<Kyoto>(&bad).is_err());
        assert_eq!(
            DivideSource::<Kyoto>::name(&counter),
            "engine `/nonexistent/kshogi-test-engine`"
        );
    }
}
