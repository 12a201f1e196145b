//! `cargo xtask match`: engine self-play against a random mover and a one-ply greedy player.
//!
//! Runs the hidden `kshogi selfplay` subcommand of the release binary for each variant and
//! opponent, and fails unless the engine wins every game against the random mover and at
//! least 95% of the games against the greedy player.

use crate::util;
use std::path::Path;
use std::process::{Command, Stdio};

/// The usage lines of this task.
pub const USAGE: &str =
    "  match              engine self-play: every game won against a random mover, at least 95%
                     against a one-ply greedy player, per variant
                       --variant V          one variant (default: every variant that
                                            `kshogi variants` lists)
                       --games N            games per opponent and variant (default 100)
                       --movetime MS        engine time per move (default 20)
                       --depth D            engine depth per move instead of a time
                       --random-opening N   plies played at random by both sides first (default 2)
                       --threads N          games played at once (default 2)
                       --seed S             seed of the random choices (default 1)
";

/// Options of `cargo xtask match`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchOptions {
    /// The variants to play; empty for every registered variant (asked of the binary).
    pub variants: Vec<String>,
    /// Games per opponent and variant.
    pub games: u32,
    /// Engine milliseconds per move.
    pub movetime: Option<u32>,
    /// Engine depth per move.
    pub depth: Option<u32>,
    /// Random plies at the start of each game.
    pub random_opening: u32,
    /// Games played at once.
    pub threads: u32,
    /// Seed.
    pub seed: u64,
}

impl Default for MatchOptions {
    fn default() -> Self {
        MatchOptions {
            variants: Vec::new(),
            games: 100,
            movetime: None,
            depth: None,
            random_opening: 2,
            threads: 2,
            seed: 1,
        }
    }
}

fn number<T: std::str::FromStr>(flag: &str, value: Option<&String>) -> Result<T, String> {
    let value = value.ok_or_else(|| format!("`{flag}` needs a value"))?;
    value
        .parse()
        .map_err(|_| format!("`{flag}` needs a whole number, found `{value}`"))
}

impl MatchOptions {
    /// Parses the arguments after `match`.
    pub fn parse(args: &[String]) -> Result<MatchOptions, String> {
        let mut o = MatchOptions::default();
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            match flag.as_str() {
                "--variant" => {
                    // The binary checks the name (an unknown one is its usage error).
                    let v = it.next().ok_or("`--variant` needs a value")?;
                    o.variants = vec![v.clone()];
                }
                "--games" => o.games = number(flag, it.next())?,
                "--movetime" => o.movetime = Some(number(flag, it.next())?),
                "--depth" => o.depth = Some(number(flag, it.next())?),
                "--random-opening" => o.random_opening = number(flag, it.next())?,
                "--threads" => o.threads = number(flag, it.next())?,
                "--seed" => o.seed = number(flag, it.next())?,
                other => return Err(format!("unexpected argument `{other}` for `match`")),
            }
        }
        if o.games == 0 || o.threads == 0 {
            return Err("`--games` and `--threads` must be at least 1".into());
        }
        Ok(o)
    }
}

/// The fewest wins out of `games` that pass against the greedy player: 95%, rounded up.
pub fn greedy_threshold(games: u32) -> u32 {
    (games * 95).div_ceil(100)
}

/// Checks one match result; `Err` says what fell short.
pub fn judge(opponent: &str, games: u32, wins: u32) -> Result<(), String> {
    let need = if opponent == "random" {
        games
    } else {
        greedy_threshold(games)
    };
    if wins >= need {
        Ok(())
    } else {
        Err(format!(
            "won {wins} of {games} games against the {opponent} player; needs {need}"
        ))
    }
}

/// The names of the variants the binary knows, from `kshogi variants --json` (the registry's
/// list, so that xtask names no variant).
fn registered_variants(kshogi: &Path) -> Result<Vec<String>, String> {
    let out = Command::new(kshogi)
        .args(["variants", "--json"])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", kshogi.display()))?;
    if !out.status.success() {
        return Err(format!("`kshogi variants --json` failed ({})", out.status));
    }
    parse_variant_names(&String::from_utf8_lossy(&out.stdout))
}

/// The `name` of each object of the JSON array `kshogi variants --json` prints.
fn parse_variant_names(json: &str) -> Result<Vec<String>, String> {
    let value: serde_json::Value = serde_json::from_str(json)
        .map_err(|e| format!("`kshogi variants --json` printed no JSON: {e}"))?;
    let names: Vec<String> = value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v["name"].as_str().map(str::to_string))
        .collect();
    if names.is_empty() {
        return Err("`kshogi variants --json` listed no variant".into());
    }
    Ok(names)
}

/// Runs the matches.
pub fn run(opts: &MatchOptions, root: &Path) -> Result<(), String> {
    let kshogi = util::build_kshogi(root)?;
    let variants = if opts.variants.is_empty() {
        registered_variants(&kshogi)?
    } else {
        opts.variants.clone()
    };
    let mut failures = Vec::new();
    for variant in &variants {
        for opponent in ["random", "greedy"] {
            let mut cmd = Command::new(&kshogi);
            cmd.args([
                "selfplay",
                "--json",
                "--variant",
                variant,
                "--opponent",
                opponent,
            ])
            .args(["--games", &opts.games.to_string()])
            .args(["--threads", &opts.threads.to_string()])
            .args(["--seed", &opts.seed.to_string()])
            .args(["--random-opening", &opts.random_opening.to_string()]);
            if let Some(ms) = opts.movetime {
                cmd.args(["--movetime", &ms.to_string()]);
            }
            if let Some(d) = opts.depth {
                cmd.args(["--depth", &d.to_string()]);
            }
            let out = cmd
                .stdin(Stdio::null())
                .stderr(Stdio::inherit())
                .output()
                .map_err(|e| format!("could not run kshogi selfplay: {e}"))?;
            if !out.status.success() {
                return Err(format!(
                    "`kshogi selfplay` for {variant} against {opponent} failed ({})",
                    util::describe_status(out.status)
                ));
            }
            let report: serde_json::Value = serde_json::from_slice(&out.stdout)
                .map_err(|e| format!("kshogi selfplay printed no JSON report: {e}"))?;
            let field = |k: &str| report[k].as_u64().unwrap_or(0) as u32;
            let (games, wins, draws, losses) = (
                field("games"),
                field("wins"),
                field("draws"),
                field("losses"),
            );
            println!(
                "{variant:<8} vs {opponent:<7} {wins:>4} won {draws:>4} drawn {losses:>4} lost of {games:>4}  ({} ms, {} distinct games)",
                report["time_ms"], report["distinct_games"]
            );
            if let Err(e) = judge(opponent, games, wins) {
                failures.push(format!("{variant}: {e}; not won: {}", report["not_won"]));
            }
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds() {
        assert_eq!(greedy_threshold(100), 95);
        assert_eq!(greedy_threshold(20), 19);
        assert_eq!(greedy_threshold(1), 1);
        assert!(judge("random", 100, 100).is_ok());
        assert!(judge("random", 100, 99).is_err());
        assert!(judge("greedy", 100, 95).is_ok());
        assert!(judge("greedy", 100, 94).is_err());
    }

    #[test]
    fn parses_options() {
        let args: Vec<String> = ["--variant", "micro", "--games", "10", "--depth", "3"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let o = MatchOptions::parse(&args).unwrap();
        assert_eq!(o.variants, vec!["micro".to_string()]);
        assert_eq!((o.games, o.depth), (10, Some(3)));
        assert!(MatchOptions::parse(&["--variant".into()]).is_err());
        assert!(MatchOptions::default().variants.is_empty());
        assert_eq!(
            parse_variant_names(r#"[{"name":"a","board":"5x5"},{"name":"b"}]"#),
            Ok(vec!["a".to_string(), "b".to_string()])
        );
        assert!(parse_variant_names("[]").is_err());
        assert!(parse_variant_names("nope").is_err());
        assert!(MatchOptions::parse(&["--games".into(), "x".into()]).is_err());
        assert!(MatchOptions::parse(&["--games".into(), "0".into()]).is_err());
    }
}
