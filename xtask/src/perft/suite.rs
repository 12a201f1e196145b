//! The perft suite file: one row per line, `variant<TAB>sfen<TAB>depth<TAB>nodes<TAB>tier`,
//! with `#` comment lines and blank lines ignored. See `docs/perft.md`.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

/// Which rows a run takes: the quick ones, or all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    /// Rows small enough for every run (up to about a million leaves).
    Quick,
    /// The bigger rows; a `full` run takes the quick rows too.
    Full,
}

impl Tier {
    /// Reads `quick` or `full`.
    pub fn parse(text: &str) -> Option<Tier> {
        match text {
            "quick" => Some(Tier::Quick),
            "full" => Some(Tier::Full),
            _ => None,
        }
    }

    /// The name used in the suite file and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Tier::Quick => "quick",
            Tier::Full => "full",
        }
    }

    /// Whether a run of tier `self` takes a row of tier `row`.
    pub fn includes(self, row: Tier) -> bool {
        match self {
            Tier::Full => true,
            Tier::Quick => row == Tier::Quick,
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One row of the suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteRow {
    /// Line number in the suite file, from 1.
    pub line: usize,
    /// Variant name, passed to `kshogi perft --variant`.
    pub variant: String,
    /// The position, passed to `kshogi perft` as its `POSITION` argument (an SFEN, or
    /// `startpos`, optionally followed by ` moves ...`).
    pub sfen: String,
    /// Depth to count.
    pub depth: u32,
    /// Expected leaf count.
    pub nodes: u64,
    /// The row's tier.
    pub tier: Tier,
}

/// The header line that names the columns, in a comment.
pub const COLUMNS: &str = "variant\tsfen\tdepth\tnodes\ttier";

/// Parses a suite file. `origin` names the file in error messages (`perft/suite.tsv`); an
/// error reads `<origin>:<line>: <what is wrong>`.
pub fn parse_suite(text: &str, origin: &str) -> Result<Vec<SuiteRow>, String> {
    let mut rows = Vec::new();
    let mut seen: HashMap<(String, String, u32), usize> = HashMap::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.strip_suffix('\r').unwrap_or(raw);
        if content.trim().is_empty() || content.trim_start().starts_with('#') {
            continue;
        }
        let err = |what: String| format!("{origin}:{line}: {what}");
        let fields: Vec<&str> = content.split('\t').collect();
        if fields.len() != 5 {
            let hint = if fields.len() == 1 && content.contains(' ') {
                " (fields must be separated by tabs, not spaces)"
            } else {
                ""
            };
            return Err(err(format!(
                "expected 5 tab-separated fields ({}), found {}{hint}",
                COLUMNS.replace('\t', ", "),
                fields.len()
            )));
        }
        let variant = fields[0];
        if variant.is_empty()
            || !variant
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        {
            return Err(err(format!(
                "variant `{variant}` is not a lowercase name such as `kyoto`"
            )));
        }
        let sfen = fields[1];
        if sfen.trim().is_empty() {
            return Err(err("the sfen field is empty".into()));
        }
        if sfen.trim() != sfen {
            return Err(err(format!(
                "the sfen field `{sfen}` has leading or trailing spaces"
            )));
        }
        let depth: u32 = parse_number(fields[2])
            .ok_or_else(|| err(format!("depth `{}` is not a whole number", fields[2])))?;
        let nodes: u64 = parse_number(fields[3])
            .ok_or_else(|| err(format!("nodes `{}` is not a whole number", fields[3])))?;
        let tier = Tier::parse(fields[4]).ok_or_else(|| {
            err(format!(
                "tier `{}` is neither `quick` nor `full`",
                fields[4]
            ))
        })?;
        let key = (variant.to_string(), sfen.to_string(), depth);
        if let Some(first) = seen.get(&key) {
            return Err(err(format!(
                "duplicate row: {variant} `{sfen}` depth {depth} is already on line {first}"
            )));
        }
        seen.insert(key, line);
        rows.push(SuiteRow {
            line,
            variant: variant.to_string(),
            sfen: sfen.to_string(),
            depth,
            nodes,
            tier,
        });
    }
    if rows.is_empty() {
        return Err(format!("{origin}: the suite has no rows"));
    }
    Ok(rows)
}

/// Reads a plain decimal number (digits only, no sign).
fn parse_number<T: std::str::FromStr>(text: &str) -> Option<T> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The rows a run takes: those of `tier` (see [`Tier::includes`]) and, when given, of
/// `variant`. An unknown variant is an error that lists the suite's variants.
pub fn select<'a>(
    rows: &'a [SuiteRow],
    tier: Tier,
    variant: Option<&str>,
    origin: &str,
) -> Result<Vec<&'a SuiteRow>, String> {
    if let Some(v) = variant {
        if !rows.iter().any(|r| r.variant == v) {
            let known: BTreeSet<&str> = rows.iter().map(|r| r.variant.as_str()).collect();
            return Err(format!(
                "{origin} has no row of variant `{v}` (its variants: {})",
                known.into_iter().collect::<Vec<_>>().join(", ")
            ));
        }
    }
    let chosen: Vec<&SuiteRow> = rows
        .iter()
        .filter(|r| tier.includes(r.tier) && variant.map_or(true, |v| r.variant == v))
        .collect();
    if chosen.is_empty() {
        return Err(format!(
            "{origin} has no row of tier `{tier}`{}",
            variant
                .map(|v| format!(" for variant `{v}`"))
                .unwrap_or_default()
        ));
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "# a comment\n\
                        # variant\tsfen\tdepth\tnodes\ttier\n\
                        \n\
                        kyoto\tpgkst/5/5/5/TSKGP b - 1\t2\t137\tquick\n\
                        \x20 # an indented comment\n\
                        micro\tkbgs/p3/4/3P/SGBK b - 1\t7\t8118500\tfull\r\n";

    #[test]
    fn reads_rows_with_their_line_numbers() {
        let rows = parse_suite(GOOD, "s.tsv").unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(
            rows[0],
            SuiteRow {
                line: 4,
                variant: "kyoto".into(),
                sfen: "pgkst/5/5/5/TSKGP b - 1".into(),
                depth: 2,
                nodes: 137,
                tier: Tier::Quick,
            }
        );
        assert_eq!(rows[1].line, 6);
        assert_eq!(rows[1].tier, Tier::Full);
        assert_eq!(rows[1].nodes, 8_118_500);
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let cases = [
            (
                "kyoto\tstartpos\t2\t137\n",
                "s.tsv:1: expected 5 tab-separated fields (variant, sfen, depth, nodes, tier), found 4",
            ),
            (
                "kyoto startpos 2 137 quick\n",
                "s.tsv:1: expected 5 tab-separated fields (variant, sfen, depth, nodes, tier), \
                 found 1 (fields must be separated by tabs, not spaces)",
            ),
            (
                "#\nKyoto\tstartpos\t2\t137\tquick\n",
                "s.tsv:2: variant `Kyoto` is not a lowercase name such as `kyoto`",
            ),
            (
                "kyoto\t\t2\t137\tquick\n",
                "s.tsv:1: the sfen field is empty",
            ),
            (
                "kyoto\t startpos\t2\t137\tquick\n",
                "s.tsv:1: the sfen field ` startpos` has leading or trailing spaces",
            ),
            (
                "kyoto\tstartpos\t-2\t137\tquick\n",
                "s.tsv:1: depth `-2` is not a whole number",
            ),
            (
                "kyoto\tstartpos\t2\t1,137\tquick\n",
                "s.tsv:1: nodes `1,137` is not a whole number",
            ),
            (
                "kyoto\tstartpos\t2\t137\tslow\n",
                "s.tsv:1: tier `slow` is neither `quick` nor `full`",
            ),
            (
                "kyoto\tstartpos\t2\t137\tquick\n\nkyoto\tstartpos\t2\t138\tfull\n",
                "s.tsv:3: duplicate row: kyoto `startpos` depth 2 is already on line 1",
            ),
            ("# only comments\n\n", "s.tsv: the suite has no rows"),
        ];
        for (text, message) in cases {
            assert_eq!(parse_suite(text, "s.tsv").unwrap_err(), message, "{text:?}");
        }
    }

    #[test]
    fn tiers_and_variants_select_rows() {
        let rows = parse_suite(GOOD, "s.tsv").unwrap();
        let lines = |sel: Vec<&SuiteRow>| sel.iter().map(|r| r.line).collect::<Vec<_>>();
        assert_eq!(lines(select(&rows, Tier::Quick, None, "s").unwrap()), [4]);
        assert_eq!(lines(select(&rows, Tier::Full, None, "s").unwrap()), [4, 6]);
        assert_eq!(
            lines(select(&rows, Tier::Full, Some("micro"), "s").unwrap()),
            [6]
        );
        assert_eq!(
            select(&rows, Tier::Quick, Some("micro"), "s").unwrap_err(),
            "s has no row of tier `quick` for variant `micro`"
        );
        assert_eq!(
            select(&rows, Tier::Full, Some("chess"), "s").unwrap_err(),
            "s has no row of variant `chess` (its variants: kyoto, micro)"
        );
    }

    #[test]
    fn tier_names_round_trip() {
        for tier in [Tier::Quick, Tier::Full] {
            assert_eq!(Tier::parse(tier.name()), Some(tier));
        }
        assert_eq!(Tier::parse("Quick"), None);
        assert!(Tier::Full.includes(Tier::Quick));
        assert!(!Tier::Quick.includes(Tier::Full));
    }
}
