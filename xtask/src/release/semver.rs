//! Semantic versions (<https://semver.org>): `MAJOR.MINOR.PATCH`, an optional pre-release
//! (`-alpha.1`) and optional build metadata (`+build.5`), with SemVer 2.0 precedence.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// A pre-release identifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identifier {
    /// Digits only: compared as a number.
    Numeric(u64),
    /// Anything else: compared as ASCII text.
    Alphanumeric(String),
}

impl fmt::Display for Identifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Identifier::Numeric(n) => write!(f, "{n}"),
            Identifier::Alphanumeric(s) => f.write_str(s),
        }
    }
}

/// A version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// Major version.
    pub major: u64,
    /// Minor version.
    pub minor: u64,
    /// Patch version.
    pub patch: u64,
    /// Pre-release identifiers; empty for a release.
    pub pre: Vec<Identifier>,
    /// Build metadata, without the `+`; ignored by precedence.
    pub build: String,
}

impl Version {
    /// SemVer precedence: numbers first, then a pre-release sorts before the release, and
    /// pre-releases compare identifier by identifier. Build metadata is ignored, so two
    /// versions that differ only in it have equal precedence.
    pub fn precedence(&self, other: &Version) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(other.major, other.minor, other.patch))
            .then_with(|| match (self.pre.is_empty(), other.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => compare_pre(&self.pre, &other.pre),
            })
    }
}

/// Compares two non-empty pre-release lists.
fn compare_pre(a: &[Identifier], b: &[Identifier]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let order = match (x, y) {
            (Identifier::Numeric(m), Identifier::Numeric(n)) => m.cmp(n),
            (Identifier::Numeric(_), Identifier::Alphanumeric(_)) => Ordering::Less,
            (Identifier::Alphanumeric(_), Identifier::Numeric(_)) => Ordering::Greater,
            (Identifier::Alphanumeric(s), Identifier::Alphanumeric(t)) => s.cmp(t),
        };
        if order != Ordering::Equal {
            return order;
        }
    }
    a.len().cmp(&b.len())
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        for (i, id) in self.pre.iter().enumerate() {
            f.write_str(if i == 0 { "-" } else { "." })?;
            write!(f, "{id}")?;
        }
        if !self.build.is_empty() {
            write!(f, "+{}", self.build)?;
        }
        Ok(())
    }
}

/// Reads a number without a sign or leading zeros.
fn number(text: &str, what: &str) -> Result<u64, String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("the {what} version `{text}` is not a number"));
    }
    if text.len() > 1 && text.starts_with('0') {
        return Err(format!("the {what} version `{text}` has a leading zero"));
    }
    text.parse()
        .map_err(|_| format!("the {what} version `{text}` is too large"))
}

/// Whether an identifier uses only `[0-9A-Za-z-]` and is not empty.
fn valid_identifier(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

impl FromStr for Version {
    type Err = String;

    fn from_str(text: &str) -> Result<Version, String> {
        let context = |e: String| format!("`{text}` is not a version MAJOR.MINOR.PATCH: {e}");
        if text.starts_with('v') || text.starts_with('V') {
            return Err(context(
                "write it without the leading `v` (the tag gets one)".into(),
            ));
        }
        let (rest, build) = match text.split_once('+') {
            Some((rest, build)) => {
                if !build.split('.').all(valid_identifier) {
                    return Err(context(format!("bad build metadata `{build}`")));
                }
                (rest, build.to_string())
            }
            None => (text, String::new()),
        };
        let (core, pre_text) = match rest.split_once('-') {
            Some((core, pre)) => (core, Some(pre)),
            None => (rest, None),
        };
        let parts: Vec<&str> = core.split('.').collect();
        if parts.len() != 3 {
            return Err(context(format!(
                "expected three numbers separated by dots, found `{core}`"
            )));
        }
        let major = number(parts[0], "major").map_err(context)?;
        let minor = number(parts[1], "minor").map_err(context)?;
        let patch = number(parts[2], "patch").map_err(context)?;
        let mut pre = Vec::new();
        if let Some(pre_text) = pre_text {
            for id in pre_text.split('.') {
                if !valid_identifier(id) {
                    return Err(context(format!("bad pre-release identifier `{id}`")));
                }
                if id.bytes().all(|b| b.is_ascii_digit()) {
                    pre.push(Identifier::Numeric(
                        number(id, "pre-release").map_err(context)?,
                    ));
                } else {
                    pre.push(Identifier::Alphanumeric(id.to_string()));
                }
            }
        }
        Ok(Version {
            major,
            minor,
            patch,
            pre,
            build,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Version {
        text.parse().unwrap()
    }

    #[test]
    fn parses_and_prints() {
        for text in [
            "0.1.0",
            "1.2.3",
            "10.20.30",
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-0.3.7",
            "1.0.0-x.7.z.92",
            "1.0.0+20130313144700",
            "1.0.0-beta+exp.sha.5114f85",
        ] {
            assert_eq!(v(text).to_string(), text);
        }
        assert_eq!(
            v("1.0.0-rc.1").pre,
            [
                Identifier::Alphanumeric("rc".into()),
                Identifier::Numeric(1)
            ]
        );
    }

    #[test]
    fn rejects_what_is_not_a_version() {
        for bad in [
            "",
            "1",
            "1.2",
            "1.2.3.4",
            "v1.2.3",
            "01.2.3",
            "1.02.3",
            "1.2.03",
            "1.2.x",
            "-1.2.3",
            "1.2.3-",
            "1.2.3-a..b",
            "1.2.3-01",
            "1.2.3+",
            "1.2.3-a_b",
            "1.2.3 ",
            "99999999999999999999.0.0",
        ] {
            assert!(bad.parse::<Version>().is_err(), "{bad:?} parsed");
        }
        assert_eq!(
            "v1.0.0".parse::<Version>().unwrap_err(),
            "`v1.0.0` is not a version MAJOR.MINOR.PATCH: \
             write it without the leading `v` (the tag gets one)"
        );
        assert_eq!(
            "1.2".parse::<Version>().unwrap_err(),
            "`1.2` is not a version MAJOR.MINOR.PATCH: \
             expected three numbers separated by dots, found `1.2`"
        );
    }

    #[test]
    fn precedence_follows_semver() {
        // The example chain of semver.org, section 11, plus numeric (not text) comparison.
        let chain = [
            "0.1.0",
            "0.1.1",
            "0.2.0",
            "0.10.0",
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-alpha.beta",
            "1.0.0-beta",
            "1.0.0-beta.2",
            "1.0.0-beta.11",
            "1.0.0-rc.1",
            "1.0.0",
            "1.0.1",
            "2.0.0",
            "10.0.0",
        ];
        for (i, a) in chain.iter().enumerate() {
            for (j, b) in chain.iter().enumerate() {
                assert_eq!(v(a).precedence(&v(b)), i.cmp(&j), "{a} vs {b}");
            }
        }
        assert_eq!(v("1.0.0+a").precedence(&v("1.0.0+b")), Ordering::Equal);
    }
}
