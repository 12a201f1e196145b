//! The `--engine` options of `kshogi perft`: another USI engine as a perft counter, as
//! `kshogi_perft_suite::engine` runs it.

use clap::builder::TypedValueParser as _;
use clap::Args;
use kshogi_notation::Dialect;
pub use kshogi_perft_suite::engine::{EngineConfig, EngineCounter};
use std::time::Duration;

/// The default `--engine-timeout`, in seconds.
pub const DEFAULT_TIMEOUT_SECS: f64 = 300.0;

/// The engine options of `kshogi perft` (with `--suite` or `--diff`).
#[derive(Debug, Clone, Args)]
pub struct EngineArgs {
    /// Count with this USI engine (a command line, split like a shell's) instead of kshogi;
    /// with --diff, give it twice to compare two engines
    #[arg(long = "engine", value_name = "COMMAND")]
    pub engines: Vec<String>,
    /// Send `setoption name USI_Variant value NAME` to the engine (twice: one per --engine)
    #[arg(long = "engine-variant", value_name = "NAME")]
    pub variants: Vec<String>,
    /// The dialect the engine reads and writes SFEN and moves in (twice: one per --engine)
    /// [default: canonical]
    #[arg(long = "engine-dialect", value_name = "D",
          value_parser = clap::builder::PossibleValuesParser::new(["canonical", "fsf"])
              .map(|s| s.parse::<Dialect>().expect("a listed dialect")))]
    pub dialects: Vec<Dialect>,
    /// Send `setoption name NAME value VALUE` to the engine (repeatable)
    #[arg(long = "engine-option", value_name = "NAME=VALUE", value_parser = parse_option)]
    pub options: Vec<(String, String)>,
    /// A line to send to the engine after the handshake, before its options (repeatable),
    /// such as the reference engine's `load FILE`
    #[arg(long = "engine-init", value_name = "LINE")]
    pub init: Vec<String>,
    /// How long to wait for any one answer of the engine (a count included), in seconds
    #[arg(long = "engine-timeout", value_name = "SECS", default_value_t = DEFAULT_TIMEOUT_SECS,
          value_parser = parse_seconds)]
    pub timeout: f64,
}

/// Reads `NAME=VALUE`.
fn parse_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.to_string()))
        }
        _ => Err(format!("`{text}` is not NAME=VALUE")),
    }
}

/// Reads a positive number of seconds.
fn parse_seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0 && *s < 1e9)
        .ok_or_else(|| format!("`{text}` is not a positive number of seconds"))
}

impl EngineArgs {
    /// The configuration of the `index`th `--engine` (a per-engine option given once
    /// applies to every engine).
    pub fn config(&self, index: usize) -> Option<EngineConfig> {
        let pick = |i: usize, n: usize| if n > 1 { i } else { 0 };
        let command = self.engines.get(index)?.clone();
        Some(EngineConfig {
            command,
            variant: self.variants.get(pick(index, self.variants.len())).cloned(),
            dialect: self
                .dialects
                .get(pick(index, self.dialects.len()))
                .copied()
                .unwrap_or_default(),
            options: self.options.clone(),
            init: self.init.clone(),
            timeout: Duration::from_secs_f64(self.timeout),
        })
    }

    /// Checks that per-engine options are given once or once per engine.
    pub fn check(&self) -> Result<(), String> {
        let n = self.engines.len();
        for (name, count) in [
            ("--engine-variant", self.variants.len()),
            ("--engine-dialect", self.dialects.len()),
        ] {
            if count > 1 && count != n {
                return Err(format!(
                    "{name} is given {count} times for {n} --engine: give it once (for every \
                     engine) or once per engine"
                ));
            }
            if count > 0 && n == 0 {
                return Err(format!("{name} needs --engine"));
            }
        }
        if n == 0 && (!self.options.is_empty() || !self.init.is_empty()) {
            return Err("--engine-option and --engine-init need --engine".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_name_value_pairs() {
        assert_eq!(
            parse_option("USI_Hash=16").unwrap(),
            ("USI_Hash".to_string(), "16".to_string())
        );
        assert_eq!(
            parse_option("VariantPath=a=b").unwrap(),
            ("VariantPath".to_string(), "a=b".to_string())
        );
        assert!(parse_option("=3").is_err());
        assert!(parse_option("Threads").is_err());
        assert!(parse_seconds("0").is_err());
        assert_eq!(parse_seconds("1.5"), Ok(1.5));
    }

    #[test]
    fn per_engine_options_apply_to_one_or_each() {
        let mut args = EngineArgs {
            engines: vec!["a".into(), "b".into()],
            variants: vec!["minishogi".into()],
            dialects: vec![Dialect::Fsf, Dialect::Canonical],
            options: vec![],
            init: vec![],
            timeout: 2.0,
        };
        args.check().unwrap();
        let (a, b) = (args.config(0).unwrap(), args.config(1).unwrap());
        assert_eq!(a.variant.as_deref(), Some("minishogi"));
        assert_eq!(b.variant.as_deref(), Some("minishogi"));
        assert_eq!((a.dialect, b.dialect), (Dialect::Fsf, Dialect::Canonical));
        assert!(args.config(2).is_none());
        args.engines.push("c".into());
        assert!(args
            .check()
            .unwrap_err()
            .contains("--engine-dialect is given 2 times"));
    }
}
