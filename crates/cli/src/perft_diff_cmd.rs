//! `kshogi perft --diff --engine COMMAND POSITION DEPTH`: where kshogi and another engine (or
//! two engines) first disagree, found by `kshogi_perft_suite::find_divergence` and worded by
//! `kshogi_perft_suite::diff_text`.

use crate::error::CliError;
use crate::perft_engine::{EngineArgs, EngineCounter};
use kshogi_core::Variant;
use kshogi_notation::parse_game;
use kshogi_perft_suite::diff_text::{self, Sides};
use kshogi_perft_suite::{find_divergence, DivideSource, Finding, Kshogi};

/// Runs the search for variant `V` on `position` at `depth` and describes what it found.
pub fn run<V: Variant>(
    position: &str,
    depth: u32,
    threads: usize,
    engine: &EngineArgs,
) -> Result<String, CliError> {
    engine.check().map_err(CliError::Suite)?;
    if engine.engines.is_empty() || engine.engines.len() > 2 {
        return Err(CliError::Suite(format!(
            "--diff compares kshogi with one --engine, or two engines with each other; {} \
             --engine given",
            engine.engines.len()
        )));
    }
    let game = parse_game::<V>(position)?;
    let root = *game.position();
    let configs: Vec<_> = (0..engine.engines.len())
        .filter_map(|i| engine.config(i))
        .collect();
    let mut kshogi = Kshogi { threads };
    let mut first = EngineCounter::new(configs[0].clone());
    let mut second = configs.get(1).cloned().map(EngineCounter::new);
    let (a, b): (&mut dyn DivideSource<V>, &mut dyn DivideSource<V>) = match &mut second {
        Some(second) => (&mut first, second),
        None => (&mut kshogi, &mut first),
    };
    let commands: Vec<&str> = configs.iter().map(|c| c.command.as_str()).collect();
    let Sides {
        a: name_a,
        b: name_b,
        legend,
    } = Sides::of(&commands).expect("one or two engines, checked above");
    let finding = find_divergence(&root, depth, a, b)
        .map_err(|e| CliError::Suite(format!("perft --diff: {e}")))?;
    let report = legend + &diff_text::describe(&root, depth, name_a, name_b, &finding);
    match finding {
        Finding::Agree { .. } => Ok(report),
        // A difference fails the command (exit status 1), so that a script or a CI step can
        // stop on it, as it does on a failing suite row.
        Finding::Diverge(_) => Err(CliError::Differs {
            report,
            message: format!(
                "perft --diff: {name_a} and {name_b} differ (the report above says where)"
            ),
        }),
    }
}
