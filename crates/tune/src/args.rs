//! The command lines of the tuner's two programs (`kshogi-tune` and `kshogi-nnue`): the
//! word after a flag, numbers, the flags of the self-play games that both take and those
//! of the SPRTs, read in one place so that every command reads them alike and words its
//! errors alike.

use crate::data::GenConfig;
use kshogi_match::stats::Sprt;
use kshogi_registry::{UnknownVariant, VariantKind};
use std::fmt;

/// Why a command line does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgError {
    /// A flag that takes a value is the last word.
    NoValue {
        /// The flag.
        flag: String,
    },
    /// A flag's value is not a number of the flag's kind.
    NotANumber {
        /// The flag.
        flag: String,
        /// The value found.
        found: String,
    },
    /// `--variant` names no registered variant.
    Variant(UnknownVariant),
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::NoValue { flag } => write!(f, "`{flag}` needs a value"),
            ArgError::NotANumber { flag, found } => {
                write!(f, "`{flag}` needs a number, found `{found}`")
            }
            ArgError::Variant(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ArgError {}

/// The programs' own checks are words; an argument error joins them as its text.
impl From<ArgError> for String {
    fn from(e: ArgError) -> String {
        e.to_string()
    }
}

/// The word after `flag`.
pub fn value<'a>(
    flag: &str,
    it: &mut impl Iterator<Item = &'a String>,
) -> Result<&'a String, ArgError> {
    it.next().ok_or_else(|| ArgError::NoValue {
        flag: flag.to_string(),
    })
}

/// `v`, the value of `flag`, as a number.
pub fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, ArgError> {
    v.parse().map_err(|_| ArgError::NotANumber {
        flag: flag.to_string(),
        found: v.to_string(),
    })
}

/// Reads `flag` (and its value from `it`) when it is one of the flags of the self-play
/// games that both programs take: `--variant` into `variant`, `--opening`, `--max-plies`,
/// `--seed` and `--threads` into `gen`. Returns whether it was one.
pub fn game_flag<'a>(
    flag: &str,
    it: &mut impl Iterator<Item = &'a String>,
    variant: &mut Option<VariantKind>,
    gen: &mut GenConfig,
) -> Result<bool, ArgError> {
    match flag {
        "--variant" => {
            *variant = Some(VariantKind::parse(value(flag, it)?).map_err(ArgError::Variant)?);
        }
        "--opening" => gen.opening = number(flag, value(flag, it)?)?,
        "--max-plies" => gen.max_plies = number(flag, value(flag, it)?)?,
        "--seed" => gen.seed = number(flag, value(flag, it)?)?,
        "--threads" => gen.threads = number(flag, value(flag, it)?)?,
        _ => return Ok(false),
    }
    Ok(true)
}

/// Reads `flag` (and its value from `it`) when it is one of the SPRT's flags that the
/// pipeline and `switches` both take: `--elo0`, `--elo1`, `--alpha` and `--beta` into
/// `test`. Returns whether it was one; the caller validates the whole test after.
pub fn sprt_flag<'a>(
    flag: &str,
    it: &mut impl Iterator<Item = &'a String>,
    test: &mut Sprt,
) -> Result<bool, ArgError> {
    match flag {
        "--elo0" => test.elo0 = number(flag, value(flag, it)?)?,
        "--elo1" => test.elo1 = number(flag, value(flag, it)?)?,
        "--alpha" => test.alpha = number(flag, value(flag, it)?)?,
        "--beta" => test.beta = number(flag, value(flag, it)?)?,
        _ => return Ok(false),
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(words: &[&str]) -> Result<(Option<VariantKind>, GenConfig, Vec<String>), ArgError> {
        let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        let (mut variant, mut gen, mut rest) = (None, GenConfig::default(), Vec::new());
        let mut it = words.iter();
        while let Some(flag) = it.next() {
            if !game_flag(flag, &mut it, &mut variant, &mut gen)? {
                rest.push(flag.clone());
            }
        }
        Ok((variant, gen, rest))
    }

    #[test]
    fn the_game_flags_are_read_and_others_left() {
        let kind = VariantKind::ALL[0];
        let (variant, gen, rest) = read(&[
            "--seed",
            "9",
            "--variant",
            kind.name(),
            "--nodes",
            "--opening",
            "3",
            "--max-plies",
            "77",
            "--threads",
            "5",
        ])
        .unwrap();
        assert_eq!(variant, Some(kind));
        assert_eq!(
            (gen.seed, gen.opening, gen.max_plies, gen.threads),
            (9, 3, 77, 5)
        );
        assert_eq!(rest, ["--nodes"]);
        // Untouched: the games and nodes.
        assert_eq!(
            (gen.games, gen.nodes),
            (GenConfig::default().games, GenConfig::default().nodes)
        );
    }

    #[test]
    fn errors_name_the_flag_and_the_value() {
        assert_eq!(
            read(&["--seed"]).unwrap_err().to_string(),
            "`--seed` needs a value"
        );
        assert_eq!(
            read(&["--threads", "two"]).unwrap_err().to_string(),
            "`--threads` needs a number, found `two`"
        );
        let e = read(&["--variant", "no-such-variant"]).unwrap_err();
        assert!(matches!(e, ArgError::Variant(_)), "{e:?}");
        assert!(e.to_string().contains("no-such-variant"), "{e}");
    }

    #[test]
    fn the_sprt_flags_are_read_and_others_left() {
        let words: Vec<String> = ["--elo1", "5", "--beta", "0.1", "--nodes", "--alpha", "x"]
            .iter()
            .map(|w| w.to_string())
            .collect();
        let start = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let mut test = start;
        let mut it = words.iter();
        assert!(sprt_flag(it.next().unwrap(), &mut it, &mut test).unwrap());
        assert!(sprt_flag(it.next().unwrap(), &mut it, &mut test).unwrap());
        assert!(!sprt_flag(it.next().unwrap(), &mut it, &mut test).unwrap());
        let e = sprt_flag(it.next().unwrap(), &mut it, &mut test).unwrap_err();
        assert_eq!(e.to_string(), "`--alpha` needs a number, found `x`");
        assert_eq!((test.elo1, test.beta), (5.0, 0.1));
        assert_eq!((test.elo0, test.alpha), (start.elo0, start.alpha));
    }
}
