//! A match described in words, as a command line gives it: an SPRT (`E0,E1[,A,B]`), a
//! shard (`I/N`, or its index from the batch system's variable), an openings file (one
//! position a line), a USI option (`NAME=VALUE`). Each reader returns a typed error whose
//! message names what is wrong.

use crate::stats::{Sprt, SprtError};
use std::path::Path;

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
