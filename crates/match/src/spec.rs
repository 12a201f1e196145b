//! A match described in words, as a command line gives it: an SPRT (`E0,E1[,A,B]`), a
//! shard (`I/N`, or its index from the batch system's variable), an openings file (one
//! position a line), a USI option (`NAME=VALUE`). Each reader returns a typed error whose
//! message names what is wrong.

use crate::shard::Shard;
use crate::stats::{Sprt, SprtError};
use crate::TimeControl;
use std::path::Path;
use std::time::Duration;

/// Why a match option does not read.
#[derive(Debug, Clone, PartialEq)]
pub enum SpecError {
    /// A word of a list is not a number.
    NotANumber(String),
    /// An SPRT has not two or four numbers.
    SprtShape,
    /// The SPRT's numbers are out of range.
    Sprt(SprtError),
    /// A shard is not `I/N`.
    NotAShard(String),
    /// A part of a shard (the part, then the shard) is not a whole number.
    ShardPart(String, String),
    /// A shard's I is not below N, or N is 0.
    ShardRange(String),
    /// `--shards N` found neither batch variable.
    NoBatchIndex,
    /// A batch variable (its name, its value, N) is not a shard of N.
    BadBatchIndex(&'static str, String, u32),
    /// An option is not `NAME=VALUE`.
    NotAnOption(String),
    /// An option has no name.
    NoOptionName(String),
    /// A results directory without a shard to write it.
    ResultsWithoutShard,
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpecError::NotANumber(p) => write!(f, "`{p}` is not a number"),
            SpecError::SprtShape => f.write_str("expected ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA"),
            SpecError::Sprt(e) => write!(f, "{e}"),
            SpecError::NotAShard(s) => write!(f, "`{s}` is not I/N (shard I of N, I from 0)"),
            SpecError::ShardPart(part, s) => write!(f, "`{part}` in `{s}` is not a whole number"),
            SpecError::ShardRange(s) => {
                write!(f, "shard `{s}`: I must be 0 to N-1, N at least 1")
            }
            SpecError::NoBatchIndex => f.write_str(
                "--shards N takes the shard from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX, \
                 and neither is set; give --shard I/N",
            ),
            SpecError::BadBatchIndex(var, text, count) => write!(
                f,
                "${var} is `{text}`, not a shard from 0 to {} of --shards {count}",
                count - 1
            ),
            SpecError::NotAnOption(s) => write!(f, "`{s}` is not NAME=VALUE"),
            SpecError::NoOptionName(s) => write!(f, "`{s}` has no option name"),
            SpecError::ResultsWithoutShard => f.write_str(
                "--results is the directory of a shard's results: give --shard I/N or --shards N",
            ),
        }
    }
}

impl std::error::Error for SpecError {}

/// `E0,E1[,A,B]`: the Elo of the two hypotheses, and alpha and beta (0.05 each when left
/// out), checked by [`Sprt::validate`].
pub fn parse_sprt(s: &str) -> Result<Sprt, SpecError> {
    let parts: Vec<f64> = s
        .split(',')
        .map(|p| {
            p.trim()
                .parse::<f64>()
                .map_err(|_| SpecError::NotANumber(p.to_string()))
        })
        .collect::<Result<_, _>>()?;
    let sprt = match parts.as_slice() {
        [e0, e1] => Sprt {
            elo0: *e0,
            elo1: *e1,
            alpha: 0.05,
            beta: 0.05,
        },
        [e0, e1, a, b] => Sprt {
            elo0: *e0,
            elo1: *e1,
            alpha: *a,
            beta: *b,
        },
        _ => return Err(SpecError::SprtShape),
    };
    sprt.validate().map_err(SpecError::Sprt)?;
    Ok(sprt)
}

/// `I/N`: shard I (from 0) of N.
pub fn parse_shard(s: &str) -> Result<(u32, u32), SpecError> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| SpecError::NotAShard(s.to_string()))?;
    let whole = |part: &str| {
        part.trim()
            .parse::<u32>()
            .map_err(|_| SpecError::ShardPart(part.to_string(), s.to_string()))
    };
    let (i, n) = (whole(i)?, whole(n)?);
    if n == 0 || i >= n {
        return Err(SpecError::ShardRange(s.to_string()));
    }
    Ok((i, n))
}

/// The shard index of `count` shards from the batch system, as `var` reads a variable:
/// `$SLURM_ARRAY_TASK_ID`, else `$JOB_COMPLETION_INDEX`.
pub fn batch_index(count: u32, var: impl Fn(&str) -> Option<String>) -> Result<u32, SpecError> {
    let (name, text) = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"]
        .iter()
        .find_map(|name| var(name).map(|v| (*name, v)))
        .ok_or(SpecError::NoBatchIndex)?;
    match text.trim().parse::<u32>() {
        Ok(i) if i < count => Ok(i),
        _ => Err(SpecError::BadBatchIndex(name, text, count)),
    }
}

/// The time per move when no time control is given, in milliseconds.
pub const DEFAULT_MOVETIME_MS: u64 = 100;

/// The time control the words ask for, in milliseconds: `nodes` per move (no clock), else
/// a clock of `time` with `inc` after each move and `byoyomi` once it is empty, else
/// `movetime` per move ([`DEFAULT_MOVETIME_MS`] when none is given).
pub fn time_control(
    nodes: Option<u64>,
    time: Option<u64>,
    inc: u64,
    byoyomi: u64,
    movetime: Option<u64>,
) -> TimeControl {
    match (nodes, time) {
        (Some(n), _) => TimeControl::Nodes(n),
        (None, Some(t)) => TimeControl::Clock {
            base: Duration::from_millis(t),
            increment: Duration::from_millis(inc),
            byoyomi: Duration::from_millis(byoyomi),
        },
        (None, None) => TimeControl::MoveTime(Duration::from_millis(
            movetime.unwrap_or(DEFAULT_MOVETIME_MS),
        )),
    }
}

/// The shard a process plays: `shard` (`I/N`), else shard I of `shards` N with I from the
/// batch system (`var` reads a variable, [`batch_index`]), writing to `results`; `None`
/// without a shard or without a results directory. A results directory without a shard is
/// an error.
pub fn shard_of(
    shard: Option<(u32, u32)>,
    shards: Option<u32>,
    results: Option<&Path>,
    var: impl Fn(&str) -> Option<String>,
) -> Result<Option<Shard>, SpecError> {
    let shard = match (shard, shards) {
        (Some(s), _) => Some(s),
        (None, Some(n)) => Some((batch_index(n, var)?, n)),
        (None, None) => None,
    };
    match (shard, results) {
        (Some((index, count)), Some(results)) => Ok(Some(Shard {
            index,
            count,
            results: results.to_path_buf(),
        })),
        (None, Some(_)) => Err(SpecError::ResultsWithoutShard),
        (_, None) => Ok(None),
    }
}

/// `NAME=VALUE`, both trimmed.
pub fn parse_option(s: &str) -> Result<(String, String), SpecError> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| SpecError::NotAnOption(s.to_string()))?;
    if k.trim().is_empty() {
        return Err(SpecError::NoOptionName(s.to_string()));
    }
    Ok((k.trim().to_string(), v.trim().to_string()))
}

/// The openings of a file's text: one position per line (trimmed), blank lines and lines
/// starting with `#` skipped; each with its place, `ORIGIN:LINE`.
pub fn parse_openings(text: &str, origin: &str) -> Vec<(String, String)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| (format!("{origin}:{}", i + 1), l.trim().to_string()))
        .collect()
}

/// The openings of the file at `path` ([`parse_openings`]).
pub fn read_openings(path: &Path) -> std::io::Result<Vec<(String, String)>> {
    let text = std::fs::read_to_string(path)?;
    Ok(parse_openings(&text, &path.display().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_win_over_a_clock_and_a_clock_over_movetime() {
        let ms = Duration::from_millis;
        assert_eq!(
            time_control(Some(5), Some(1), 2, 3, Some(4)),
            TimeControl::Nodes(5)
        );
        assert_eq!(
            time_control(None, Some(1000), 20, 30, Some(4)),
            TimeControl::Clock {
                base: ms(1000),
                increment: ms(20),
                byoyomi: ms(30)
            }
        );
        assert_eq!(
            time_control(None, None, 0, 0, Some(40)),
            TimeControl::MoveTime(ms(40))
        );
        assert_eq!(
            time_control(None, None, 0, 0, None),
            TimeControl::MoveTime(ms(100))
        );
    }

    #[test]
    fn a_shard_is_given_or_read_and_needs_its_results() {
        let dir = Path::new("res");
        let none = |_: &str| None;
        let shard = shard_of(Some((1, 4)), None, Some(dir), none)
            .unwrap()
            .unwrap();
        assert_eq!(
            (shard.index, shard.count, shard.results.as_path()),
            (1, 4, dir)
        );
        let slurm = |v: &str| (v == "SLURM_ARRAY_TASK_ID").then(|| "2".to_string());
        let shard = shard_of(None, Some(3), Some(dir), slurm).unwrap().unwrap();
        assert_eq!((shard.index, shard.count), (2, 3));
        assert_eq!(
            shard_of(None, Some(3), Some(dir), none).unwrap_err(),
            SpecError::NoBatchIndex
        );
        assert!(shard_of(None, None, None, none).unwrap().is_none());
        let e = shard_of(None, None, Some(dir), none).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--results is the directory of a shard's results: give --shard I/N or --shards N"
        );
    }

    #[test]
    fn sprts_read_with_default_error_rates() {
        let s = parse_sprt("0, 5").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.05, 0.05));
        let s = parse_sprt("-3,3,0.1,0.2").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-3.0, 3.0, 0.1, 0.2));
        assert_eq!(parse_sprt("0,x"), Err(SpecError::NotANumber("x".into())));
        assert_eq!(parse_sprt("0,5,0.1"), Err(SpecError::SprtShape));
        assert!(matches!(parse_sprt("5,0"), Err(SpecError::Sprt(_))));
    }

    #[test]
    fn shards_are_i_of_n() {
        assert_eq!(parse_shard("0/1"), Ok((0, 1)));
        assert_eq!(parse_shard(" 2 / 3 "), Ok((2, 3)));
        assert_eq!(
            parse_shard("3/3").unwrap_err().to_string(),
            "shard `3/3`: I must be 0 to N-1, N at least 1"
        );
        assert_eq!(
            parse_shard("a/3").unwrap_err().to_string(),
            "`a` in `a/3` is not a whole number"
        );
        assert!(matches!(parse_shard("2"), Err(SpecError::NotAShard(_))));
        for bad in ["0/0", "1/0", "-1/3", "4/4"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_batch_index_comes_from_slurm_first() {
        let both = |name: &str| match name {
            "SLURM_ARRAY_TASK_ID" => Some("1".to_string()),
            _ => Some("0".to_string()),
        };
        assert_eq!(batch_index(2, both), Ok(1));
        let k8s = |name: &str| (name == "JOB_COMPLETION_INDEX").then(|| "4".to_string());
        assert_eq!(
            batch_index(4, k8s).unwrap_err().to_string(),
            "$JOB_COMPLETION_INDEX is `4`, not a shard from 0 to 3 of --shards 4"
        );
        assert_eq!(batch_index(4, |_| None), Err(SpecError::NoBatchIndex));
    }

    #[test]
    fn options_and_openings() {
        assert_eq!(
            parse_option(" Hash = 16 "),
            Ok(("Hash".to_string(), "16".to_string()))
        );
        assert!(matches!(
            parse_option("=1"),
            Err(SpecError::NoOptionName(_))
        ));
        assert!(matches!(parse_option("x"), Err(SpecError::NotAnOption(_))));
        let text = "# openings\n\nstartpos\n  startpos moves 1e1d  \n";
        assert_eq!(
            parse_openings(text, "o.txt"),
            [
                ("o.txt:3".to_string(), "startpos".to_string()),
                ("o.txt:4".to_string(), "startpos moves 1e1d".to_string())
            ]
        );
    }
}
