//! `kshogi selfplay` (hidden from `--help`): the engine plays games against a random mover
//! or a one-ply greedy player, for the `cargo xtask match` strength check. The match is
//! [`kshogi_engine::versus`] (colours, game end, seeds), summed up by
//! [`kshogi_report::selfplay`]; this command reads its arguments and prints the engine's wins, draws and losses; the exit status is 0 whatever they are.
//!
//! The opponents:
//! - random: a uniformly random legal move;
//! - greedy: the legal move whose resulting position is best for it by the engine's static
//!   evaluation ([`kshogi_engine::Evaluator::evaluate`]) one ply deep, where a move that wins at once is
//!   best and one that loses at once is worst (a draw counts 0); ties are broken at random.
//!
//! All randomness comes from `--seed` and the game number, so a fixed-depth match is
//! reproducible; with `--movetime` the engine's moves depend on the machine's speed.

use crate::error::CliError;
use crate::variant_select;
use clap::{Args, ValueEnum};
use kshogi_engine::versus::{self, VersusConfig};
use kshogi_engine::Limits;
use kshogi_registry::{with_variant, VariantKind};
use kshogi_report::selfplay::play_match;
use std::time::Duration;

/// The engine's time per move when neither `--movetime` nor `--depth` is given, in ms.
pub const DEFAULT_MOVETIME_MS: u64 = 20;

/// The engine's opponent.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Opponent {
    /// A uniformly random legal move.
    Random,
    /// The best move one ply deep by the engine's static evaluation.
    Greedy,
}

impl From<Opponent> for versus::Opponent {
    fn from(o: Opponent) -> versus::Opponent {
        match o {
            Opponent::Random => versus::Opponent::Random,
            Opponent::Greedy => versus::Opponent::Greedy,
        }
    }
}

/// The arguments of `kshogi selfplay`.
#[derive(Debug, Args)]
pub struct SelfplayArgs {
    #[arg(long, value_name = "V", value_parser = variant_select::parse_variant_name,
          help = format!("The variant: {}", kshogi_registry::VariantKind::names()))]
    pub variant: VariantKind,
    /// The engine's opponent
    #[arg(long, value_name = "KIND", value_enum)]
    pub opponent: Opponent,
    /// Number of games; the engine alternates colours, Black first
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    /// The engine's time per move in milliseconds [default: 20 without --depth]
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub movetime: Option<u64>,
    /// The engine's search depth per move (with --movetime too, the first limit reached
    /// stops the search)
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Seed of the random choices
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Plies after which a game is adjudicated a draw
    #[arg(long, value_name = "N", default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_plies: u32,
    /// Number of plies at the start of each game played at random by both sides, to vary
    /// the games
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub random_opening: u32,
    /// The engine's transposition table size in MiB
    #[arg(long, value_name = "MB", default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub hash: u16,
    /// Games played at the same time, each on its own thread with its own engine
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Print one JSON object instead of text
    #[arg(long = "json", id = "json", action = clap::ArgAction::SetTrue,
          value_parser = crate::format::OutputFormat::flag())]
    pub format: crate::format::OutputFormat,
}

impl SelfplayArgs {
    /// The match settings the arguments ask for.
    pub fn config(&self) -> VersusConfig {
        let movetime = match (self.movetime, self.depth) {
            (None, None) => Some(DEFAULT_MOVETIME_MS),
            (m, _) => m,
        };
        VersusConfig {
            opponent: self.opponent.into(),
            games: self.games,
            limits: Limits {
                depth: self.depth,
                time: movetime.map(Duration::from_millis),
                ..Limits::default()
            },
            seed: self.seed,
            max_plies: usize::try_from(self.max_plies).unwrap_or(usize::MAX),
            random_opening: usize::try_from(self.random_opening).unwrap_or(usize::MAX),
            hash_mb: usize::from(self.hash),
            threads: usize::from(self.threads),
        }
    }
}

/// Runs `kshogi selfplay`.
pub fn run(args: &SelfplayArgs) -> Result<String, CliError> {
    let cfg = args.config();
    let report = with_variant!(args.variant, V => play_match::<V>(&cfg));
    args.format.render(&report, |r| r.to_text())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_report::selfplay::limits_text;

    #[test]
    fn default_limits() {
        let args = SelfplayArgs {
            variant: VariantKind::Kyoto,
            opponent: Opponent::Greedy,
            games: 10,
            movetime: None,
            depth: None,
            seed: 1,
            max_plies: 300,
            random_opening: 0,
            hash: 16,
            threads: 1,
            format: crate::format::OutputFormat::Text,
        };
        assert_eq!(
            args.config().limits.time,
            Some(Duration::from_millis(DEFAULT_MOVETIME_MS))
        );
        let args = SelfplayArgs {
            depth: Some(3),
            ..args
        };
        assert_eq!(args.config().limits.time, None);
        assert_eq!(limits_text(&args.config().limits), "depth 3");
    }
}
