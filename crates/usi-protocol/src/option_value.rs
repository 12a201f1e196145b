//! The values of `setoption`, read and checked against an option's declared type in one
//! place: by the engine that declares its options, and by the GUI side (a match runner,
//! a client) before it sends a value the engine would refuse or ignore.

use crate::{shorten, OptionDecl, OptionType};
use std::fmt::{self, Write as _};

/// A `setoption` value that fits its option's type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A `check` option's value.
    Bool(bool),
    /// A `spin` option's value, within its range.
    Int(i64),
    /// A `combo`, `string` or `filename` option's value, trimmed; a combo's word as it was
    /// sent.
    Text(String),
    /// A `button` was pressed.
    Press,
}

/// Why a `setoption` does not fit the options an engine declared; each case names the
/// option as it was sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No declared option has this name.
    Undeclared {
        /// The option's name as sent.
        name: String,
        /// The names the engine declared, in its order.
        declared: Vec<String>,
    },
    /// A check option was given something other than `true` or `false`.
    NotCheck {
        /// The option's name as sent.
        name: String,
        /// The value sent (empty when none was).
        found: String,
    },
    /// A spin option was sent without a value.
    NoValue {
        /// The option's name as sent.
        name: String,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// A spin option's value is not a whole number from `min` to `max`.
    NotInRange {
        /// The option's name as sent.
        name: String,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
        /// The value sent.
        found: String,
    },
    /// A combo option's value is none of its words.
    NotAChoice {
        /// The option's name as sent.
        name: String,
        /// The words the option declared.
        choices: Vec<String>,
        /// The value sent.
        found: String,
    },
}

/// Names or words listed in a message: at most this many, then how many more.
const LISTED: usize = 12;

/// `a, b, c` (and `and N more` past [`LISTED`]).
fn list(words: &[String]) -> String {
    let mut s = words
        .iter()
        .take(LISTED)
        .map(String::as_str)
        .map(shorten)
        .collect::<Vec<_>>()
        .join(", ");
    if words.len() > LISTED {
        let _ = write!(s, " and {} more", words.len() - LISTED);
    }
    s
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Undeclared { name, declared } if declared.is_empty() => write!(
                f,
                "the engine declares no option `{}` (it declares none)",
                shorten(name)
            ),
            OptionError::Undeclared { name, declared } => write!(
                f,
                "the engine declares no option `{}` (its options: {})",
                shorten(name),
                list(declared)
            ),
            OptionError::NotCheck { name, found } => write!(
                f,
                "option {name} takes true or false, found `{}`",
                shorten(found)
            ),
            OptionError::NoValue { name, min, max } => {
                write!(f, "option {name} needs `value <{min}-{max}>`")
            }
            OptionError::NotInRange {
                name,
                min,
                max,
                found,
            } => write!(
                f,
                "option {name} takes a whole number from {min} to {max}, found `{}`",
                shorten(found)
            ),
            OptionError::NotAChoice {
                name,
                choices,
                found,
            } => write!(
                f,
                "option {name} takes one of {}, found `{}`",
                list(choices),
                shorten(found)
            ),
        }
    }
}

impl std::error::Error for OptionError {}

impl OptionType {
    /// Reads the value of a `setoption` (`None` when it has no `value` part) for an option
    /// of this type, which was sent as `name` (for the message): a check takes `true` or
    /// `false` in any case, a spin a whole number in its range, a combo one of its words in
    /// any case (any word when it declares none), a string or a file name any text (empty
    /// when none), a button nothing (a value is ignored). Values are trimmed.
    ///
    /// ```
    /// use kshogi_usi_protocol::{OptionType, OptionValue};
    ///
    /// let spin = OptionType::Spin { default: 0, min: -200, max: 200 };
    /// assert_eq!(spin.read_value("Contempt", Some(" 30 ")), Ok(OptionValue::Int(30)));
    /// let e = spin.read_value("Contempt", Some("300")).unwrap_err();
    /// assert_eq!(
    ///     e.to_string(),
    ///     "option Contempt takes a whole number from -200 to 200, found `300`"
    /// );
    /// ```
    pub fn read_value(&self, name: &str, value: Option<&str>) -> Result<OptionValue, OptionError> {
        let text = value.map(str::trim);
        match self {
            OptionType::Check(_) => match text.map(str::to_ascii_lowercase).as_deref() {
                Some("true") => Ok(OptionValue::Bool(true)),
                Some("false") => Ok(OptionValue::Bool(false)),
                _ => Err(OptionError::NotCheck {
                    name: name.to_string(),
                    found: text.unwrap_or("").to_string(),
                }),
            },
            &OptionType::Spin { min, max, .. } => {
                let Some(v) = text else {
                    return Err(OptionError::NoValue {
                        name: name.to_string(),
                        min,
                        max,
                    });
                };
                match v.parse::<i64>() {
                    Ok(n) if (min..=max).contains(&n) => Ok(OptionValue::Int(n)),
                    _ => Err(OptionError::NotInRange {
                        name: name.to_string(),
                        min,
                        max,
                        found: v.to_string(),
                    }),
                }
            }
            OptionType::Combo { vars, .. } => {
                let word = text.unwrap_or("");
                if vars.is_empty() || vars.iter().any(|v| v.eq_ignore_ascii_case(word)) {
                    Ok(OptionValue::Text(word.to_string()))
                } else {
                    Err(OptionError::NotAChoice {
                        name: name.to_string(),
                        choices: vars.clone(),
                        found: word.to_string(),
                    })
                }
            }
            OptionType::String(_) | OptionType::Filename(_) => {
                Ok(OptionValue::Text(text.unwrap_or("").to_string()))
            }
            OptionType::Button => Ok(OptionValue::Press),
        }
    }
}

/// An option's name as names are compared: ASCII lower case, a space as `_`, and without
/// the `USI_` or `UCI_` that the two protocols put before the names of the standard options.
fn name_key(name: &str) -> String {
    let k = name.trim().to_ascii_lowercase().replace(' ', "_");
    match k.strip_prefix("usi_").or_else(|| k.strip_prefix("uci_")) {
        Some(rest) if !rest.is_empty() => rest.to_string(),
        _ => k,
    }
}

/// Whether two option names name the same option, as engines of the Stockfish lineage and
/// kshogi read names: in any ASCII case, a space for `_`, with or without the protocol's
/// prefix (`Hash` names `USI_Hash`, `Skill Level` names `Skill_Level`, `UCI_Elo` names
/// `USI_Elo`).
///
/// ```
/// use kshogi_usi_protocol::same_option_name;
///
/// assert!(same_option_name("USI_Hash", "hash"));
/// assert!(same_option_name("Skill_Level", "skill level"));
/// assert!(same_option_name("UCI_Elo", "USI_Elo"));
/// assert!(!same_option_name("USI_Hash", "Hashes"));
/// ```
pub fn same_option_name(a: &str, b: &str) -> bool {
    name_key(a) == name_key(b)
}

impl OptionDecl {
    /// Whether a `setoption` naming `name` sets this option ([`same_option_name`]).
    pub fn is_named(&self, name: &str) -> bool {
        same_option_name(&self.name, name)
    }
}

/// Checks `setoption name NAME [value VALUE]` against the options an engine `declared` in
/// its handshake, as a GUI or a match runner should before sending it: the option must be
/// declared ([`OptionDecl::is_named`]; a declaration of exactly that name first), and the
/// value must fit its type as the protocol writes it: [`OptionType::read_value`], and
/// besides a check's `true` or `false` in lower case and a combo's word spelt as the engine
/// spelt it (engines of the Stockfish lineage ignore other spellings).
///
/// ```
/// use kshogi_usi_protocol::{check_setoption, EngineMessage, OptionValue};
///
/// let line = "option name USI_Hash type spin default 16 min 1 max 4096";
/// let Ok(EngineMessage::Option(hash)) = line.parse() else { unreachable!() };
/// let declared = [hash];
/// assert_eq!(check_setoption(&declared, "Hash", Some("64")), Ok(OptionValue::Int(64)));
/// let e = check_setoption(&declared, "Hahs", Some("64")).unwrap_err();
/// assert_eq!(e.to_string(), "the engine declares no option `Hahs` (its options: USI_Hash)");
/// ```
pub fn check_setoption(
    declared: &[OptionDecl],
    name: &str,
    value: Option<&str>,
) -> Result<OptionValue, OptionError> {
    let exact = declared
        .iter()
        .find(|d| d.name.trim().eq_ignore_ascii_case(name.trim()));
    let Some(d) = exact.or_else(|| declared.iter().find(|d| d.is_named(name))) else {
        return Err(OptionError::Undeclared {
            name: name.to_string(),
            declared: declared.iter().map(|d| d.name.clone()).collect(),
        });
    };
    let read = d.kind.read_value(name, value)?;
    let text = value.map_or("", str::trim);
    match &d.kind {
        OptionType::Check(_) if text != "true" && text != "false" => Err(OptionError::NotCheck {
            name: name.to_string(),
            found: text.to_string(),
        }),
        OptionType::Combo { vars, .. } if !vars.is_empty() && !vars.iter().any(|w| w == text) => {
            Err(OptionError::NotAChoice {
                name: name.to_string(),
                choices: vars.clone(),
                found: text.to_string(),
            })
        }
        _ => Ok(read),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decl(name: &str, kind: OptionType) -> OptionDecl {
        OptionDecl {
            name: name.into(),
            kind,
        }
    }

    fn spin(min: i64, max: i64) -> OptionType {
        OptionType::Spin {
            default: min,
            min,
            max,
        }
    }

    #[test]
    fn each_type_reads_its_values_and_refuses_others() {
        let check = OptionType::Check(false);
        assert_eq!(
            check.read_value("Ponder", Some("TRUE")),
            Ok(OptionValue::Bool(true))
        );
        assert_eq!(
            check.read_value("Ponder", Some(" false")),
            Ok(OptionValue::Bool(false))
        );
        assert_eq!(
            check.read_value("Ponder", Some("yes")),
            Err(OptionError::NotCheck {
                name: "Ponder".into(),
                found: "yes".into()
            })
        );
        assert!(check.read_value("Ponder", None).is_err());

        let s = spin(-20, 20);
        assert_eq!(
            s.read_value("Skill", Some("-20")),
            Ok(OptionValue::Int(-20))
        );
        assert_eq!(s.read_value("Skill", Some("20")), Ok(OptionValue::Int(20)));
        for bad in ["21", "-21", "1.5", "x", "", "99999999999999999999"] {
            assert_eq!(
                s.read_value("Skill", Some(bad)),
                Err(OptionError::NotInRange {
                    name: "Skill".into(),
                    min: -20,
                    max: 20,
                    found: bad.into()
                }),
                "{bad}"
            );
        }
        assert_eq!(
            s.read_value("Skill", None).unwrap_err().to_string(),
            "option Skill needs `value <-20-20>`"
        );

        let combo = OptionType::Combo {
            default: "canonical".into(),
            vars: vec!["canonical".into(), "fsf".into()],
        };
        assert_eq!(
            combo.read_value("Dialect", Some("FSF")),
            Ok(OptionValue::Text("FSF".into()))
        );
        let e = combo.read_value("Dialect", Some("usi")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "option Dialect takes one of canonical, fsf, found `usi`"
        );
        let open = OptionType::Combo {
            default: String::new(),
            vars: Vec::new(),
        };
        assert_eq!(
            open.read_value("V", Some("x")),
            Ok(OptionValue::Text("x".into()))
        );

        let path = OptionType::String("<empty>".into());
        assert_eq!(
            path.read_value("VariantPath", Some(" a b.ini ")),
            Ok(OptionValue::Text("a b.ini".into()))
        );
        assert_eq!(
            OptionType::Filename(String::new()).read_value("F", None),
            Ok(OptionValue::Text(String::new()))
        );
        assert_eq!(
            OptionType::Button.read_value("Clear Hash", Some("x")),
            Ok(OptionValue::Press)
        );
    }

    #[test]
    fn a_long_list_of_words_is_cut() {
        let vars: Vec<String> = (0..15).map(|i| format!("v{i}")).collect();
        let combo = OptionType::Combo {
            default: "v0".into(),
            vars,
        };
        let e = combo.read_value("UCI_Variant", Some("chess")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "option UCI_Variant takes one of v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11 \
             and 3 more, found `chess`"
        );
    }

    #[test]
    fn a_setoption_must_name_a_declared_option() {
        let declared = [
            decl("USI_Hash", spin(1, 4096)),
            decl("Skill Level", spin(-20, 20)),
        ];
        // Any case; and the standard options' names with or without the protocol's prefix,
        // a space for `_`: what kshogi and the reference engine accept.
        for (name, value) in [
            ("usi_hash", 64),
            ("skill level", 3),
            ("Hash", 64),
            ("UCI_Hash", 64),
            ("Skill_Level", 3),
        ] {
            assert_eq!(
                check_setoption(&declared, name, Some(&value.to_string())),
                Ok(OptionValue::Int(value)),
                "{name}"
            );
        }
        assert!(check_setoption(&declared, "USI_Hash", Some("0")).is_err());
        let e = check_setoption(&declared, "Hahs", Some("64")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the engine declares no option `Hahs` (its options: USI_Hash, Skill Level)"
        );
        assert!(check_setoption(&declared, "USI_", Some("64")).is_err());
        assert_eq!(
            check_setoption(&[], "Hash", None).unwrap_err().to_string(),
            "the engine declares no option `Hash` (it declares none)"
        );
    }

    #[test]
    fn a_declaration_of_exactly_the_name_comes_first() {
        let declared = [decl("USI_Hash", spin(1, 4096)), decl("Hash", spin(1, 8))];
        assert!(check_setoption(&declared, "hash", Some("64")).is_err());
        assert!(check_setoption(&declared, "usi_hash", Some("64")).is_ok());
    }

    #[test]
    fn a_runner_writes_checks_and_combo_words_as_the_engine_spelt_them() {
        // The engine reads any case (kshogi does); a runner sends what every engine reads.
        let declared = [
            decl("USI_Ponder", OptionType::Check(false)),
            decl(
                "Dialect",
                OptionType::Combo {
                    default: "canonical".into(),
                    vars: vec!["canonical".into(), "fsf".into()],
                },
            ),
        ];
        assert_eq!(
            check_setoption(&declared, "USI_Ponder", Some(" true ")),
            Ok(OptionValue::Bool(true))
        );
        assert_eq!(
            check_setoption(&declared, "USI_Ponder", Some("TRUE"))
                .unwrap_err()
                .to_string(),
            "option USI_Ponder takes true or false, found `TRUE`"
        );
        assert_eq!(
            check_setoption(&declared, "Dialect", Some("fsf")),
            Ok(OptionValue::Text("fsf".into()))
        );
        assert_eq!(
            check_setoption(&declared, "Dialect", Some("FSF"))
                .unwrap_err()
                .to_string(),
            "option Dialect takes one of canonical, fsf, found `FSF`"
        );
    }
}
