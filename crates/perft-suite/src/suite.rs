//! The suite file: one row per line, `variant<TAB>sfen<TAB>depth<TAB>nodes<TAB>tier`, with
//! `#` comment lines, blank lines, and `#:` provenance lines that say where the counts of the
//! rows below them come from (`#: source: ...`) and under which counting convention they were
//! made (`#: convention: ...`). See `docs/perft.md`.

use serde::Serialize;
use std::collections::{BTreeSet, HashMap};
use std::fmt;

/// Which rows a run takes: the quick ones, the quick and full ones, or all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// Rows small enough for every run (up to about a million leaves).
    Quick,
    /// The bigger rows; a `full` run takes the quick rows too.
    Full,
    /// Rows of minutes of CPU and more (counted through work units, `docs/scale.md`); only
    /// a `deep` run takes them, with all the others.
    Deep,
}

impl Tier {
    /// Reads `quick`, `full` or `deep`.
    pub fn parse(text: &str) -> Option<Tier> {
        match text {
            "quick" => Some(Tier::Quick),
            "full" => Some(Tier::Full),
            "deep" => Some(Tier::Deep),
            _ => None,
        }
    }

    /// The name used in the suite file and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Tier::Quick => "quick",
            Tier::Full => "full",
            Tier::Deep => "deep",
        }
    }

    /// Whether a run of tier `self` takes a row of tier `row`.
    pub fn includes(self, row: Tier) -> bool {
        match self {
            Tier::Deep => true,
            Tier::Full => row != Tier::Deep,
            Tier::Quick => row == Tier::Quick,
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One row of a suite.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SuiteRow {
    /// Line number in the suite file, from 1.
    pub line: usize,
    /// Variant name (`kyoto`), as `kshogi variants` lists it.
    pub variant: String,
    /// The position: an SFEN, or `startpos`, optionally followed by ` moves ...`.
    pub sfen: String,
    /// Depth to count.
    pub depth: u32,
    /// Expected leaf count.
    pub nodes: u64,
    /// The row's tier.
    pub tier: Tier,
    /// Where the count comes from (the `#: source:` line in force), if the file says.
    pub source: Option<String>,
    /// The counting convention of the count (the `#: convention:` line in force), if the
    /// file says.
    pub convention: Option<String>,
}

/// The header line that names the columns, in a comment.
pub const COLUMNS: &str = "variant\tsfen\tdepth\tnodes\ttier";

/// Why a suite file could not be read: the file, the line and column (both from 1, the
/// column in characters) and what is wrong. Its `Display` is `origin:line:column: problem`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteError {
    /// The file as named by the caller (`perft/suite.tsv`).
    pub origin: String,
    /// The line, or 0 for the file as a whole.
    pub line: usize,
    /// The column where the wrong field starts, if the error is about one field.
    pub column: Option<usize>,
    /// What is wrong.
    pub problem: SuiteProblem,
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => write!(f, "{}: {}", self.origin, self.problem),
            (line, None) => write!(f, "{}:{line}: {}", self.origin, self.problem),
            (line, Some(col)) => write!(f, "{}:{line}:{col}: {}", self.origin, self.problem),
        }
    }
}

impl std::error::Error for SuiteError {}

/// What is wrong in a suite file, at the place a [`SuiteError`] gives.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SuiteProblem {
    /// A `#:` line without a `key: value`.
    #[error("a `#:` line is `#: source: TEXT` or `#: convention: TEXT`")]
    Directive,
    /// A `#:` line with a key other than `source` and `convention`.
    #[error("unknown `#:` key `{0}` (known: source, convention)")]
    UnknownKey(String),
    /// A row with another number of fields than the layout's.
    #[error(
        "expected {expected} tab-separated fields ({}), found {found}{}",
        names.join(", "),
        if *spaces { " (fields must be separated by tabs, not spaces)" } else { "" }
    )]
    Fields {
        /// The fields the layout has.
        expected: usize,
        /// Their names.
        names: Vec<&'static str>,
        /// The fields found.
        found: usize,
        /// Whether the row is one field with spaces in it (spaces where tabs belong).
        spaces: bool,
    },
    /// A variant field that is not a lowercase name.
    #[error("variant `{0}` is not a lowercase name such as `kyoto`")]
    Variant(String),
    /// An empty SFEN field.
    #[error("the sfen field is empty")]
    EmptySfen,
    /// An SFEN field with spaces around it.
    #[error("the sfen field `{0}` has leading or trailing spaces")]
    SfenSpaces(String),
    /// A depth field that is not a whole number.
    #[error("depth `{0}` is not a whole number")]
    Depth(String),
    /// A depth beyond what perft counts.
    #[error("depth `{text}` is too large: perft counts at most {max} plies")]
    DepthTooLarge {
        /// The field.
        text: String,
        /// The deepest count ([`kshogi_core::MAX_PERFT_DEPTH`]).
        max: u32,
    },
    /// A nodes field that is not a whole number.
    #[error("nodes `{0}` is not a whole number")]
    Nodes(String),
    /// A tier field that is not one of the three tiers.
    #[error("tier `{0}` is not `quick`, `full` or `deep`")]
    Tier(String),
    /// A row whose variant, SFEN and depth an earlier line already has.
    #[error("duplicate row: {variant} `{sfen}` depth {depth} is already on line {first}")]
    Duplicate {
        /// The variant.
        variant: String,
        /// The SFEN.
        sfen: String,
        /// The depth.
        depth: u32,
        /// The line of the first such row.
        first: usize,
    },
    /// A file with no rows.
    #[error("the suite has no rows")]
    NoRows,
}

/// The columns a table has: a suite's five, or the shared reference table's four (no tier).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `variant sfen depth nodes tier` (`perft/suite.tsv`).
    Suite,
    /// `variant sfen depth nodes` (`perft/reference.tsv`); a row's tier is
    /// [`Tier::Quick`] up to `quick_limit` nodes, [`Tier::Full`] above.
    Reference {
        /// The most nodes of a quick row.
        quick_limit: u64,
    },
}

/// Parses a suite file. `origin` names the file in error messages (`perft/suite.tsv`).
pub fn parse_suite(text: &str, origin: &str) -> Result<Vec<SuiteRow>, SuiteError> {
    parse_table(text, origin, Layout::Suite)
}

/// Parses a table of `layout`. Rows are identified by variant, sfen and depth, which must be
/// unique; `#: source: TEXT` and `#: convention: TEXT` lines set the provenance of the rows
/// after them (until the next such line; an empty TEXT clears it).
pub fn parse_table(text: &str, origin: &str, layout: Layout) -> Result<Vec<SuiteRow>, SuiteError> {
    let mut rows = Vec::new();
    let mut seen: HashMap<(String, String, u32), usize> = HashMap::new();
    let mut source: Option<String> = None;
    let mut convention: Option<String> = None;
    let expected_fields = match layout {
        Layout::Suite => 5,
        Layout::Reference { .. } => 4,
    };
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.strip_suffix('\r').unwrap_or(raw);
        let err = |column: Option<usize>, problem: SuiteProblem| SuiteError {
            origin: origin.to_string(),
            line,
            column,
            problem,
        };
        if let Some(directive) = content.strip_prefix("#:") {
            let (key, value) = directive
                .split_once(':')
                .ok_or_else(|| err(Some(3), SuiteProblem::Directive))?;
            let value = value.trim();
            let value = (!value.is_empty()).then(|| value.to_string());
            match key.trim() {
                "source" => source = value,
                "convention" => convention = value,
                other => return Err(err(Some(3), SuiteProblem::UnknownKey(other.to_string()))),
            }
            continue;
        }
        if content.trim().is_empty() || content.trim_start().starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = content.split('\t').collect();
        // The column (in characters, from 1) where each field starts.
        let mut columns = Vec::with_capacity(fields.len());
        let mut col = 1;
        for f in &fields {
            columns.push(col);
            col += f.chars().count() + 1;
        }
        if fields.len() != expected_fields {
            let names = COLUMNS.split('\t').take(expected_fields).collect();
            return Err(err(
                None,
                SuiteProblem::Fields {
                    expected: expected_fields,
                    names,
                    found: fields.len(),
                    spaces: fields.len() == 1 && content.contains(' '),
                },
            ));
        }
        let variant = fields[0];
        if variant.is_empty()
            || !variant
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        {
            return Err(err(
                Some(columns[0]),
                SuiteProblem::Variant(variant.to_string()),
            ));
        }
        let sfen = fields[1];
        if sfen.trim().is_empty() {
            return Err(err(Some(columns[1]), SuiteProblem::EmptySfen));
        }
        if sfen.trim() != sfen {
            return Err(err(
                Some(columns[1]),
                SuiteProblem::SfenSpaces(sfen.to_string()),
            ));
        }
        if fields[2].is_empty() || !fields[2].bytes().all(|b| b.is_ascii_digit()) {
            return Err(err(
                Some(columns[2]),
                SuiteProblem::Depth(fields[2].to_string()),
            ));
        }
        let depth: u32 = parse_number(fields[2])
            .filter(|&d| d <= kshogi_core::MAX_PERFT_DEPTH)
            .ok_or_else(|| {
                err(
                    Some(columns[2]),
                    SuiteProblem::DepthTooLarge {
                        text: fields[2].to_string(),
                        max: kshogi_core::MAX_PERFT_DEPTH,
                    },
                )
            })?;
        let nodes: u64 = parse_number(fields[3])
            .ok_or_else(|| err(Some(columns[3]), SuiteProblem::Nodes(fields[3].to_string())))?;
        let tier = match layout {
            Layout::Suite => Tier::parse(fields[4])
                .ok_or_else(|| err(Some(columns[4]), SuiteProblem::Tier(fields[4].to_string())))?,
            Layout::Reference { quick_limit } if nodes <= quick_limit => Tier::Quick,
            Layout::Reference { .. } => Tier::Full,
        };
        let key = (variant.to_string(), sfen.to_string(), depth);
        if let Some(first) = seen.get(&key) {
            return Err(err(
                None,
                SuiteProblem::Duplicate {
                    variant: variant.to_string(),
                    sfen: sfen.to_string(),
                    depth,
                    first: *first,
                },
            ));
        }
        seen.insert(key, line);
        rows.push(SuiteRow {
            line,
            variant: variant.to_string(),
            sfen: sfen.to_string(),
            depth,
            nodes,
            tier,
            source: source.clone(),
            convention: convention.clone(),
        });
    }
    if rows.is_empty() {
        return Err(SuiteError {
            origin: origin.to_string(),
            line: 0,
            column: None,
            problem: SuiteProblem::NoRows,
        });
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

/// Why [`select`] chose no rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SelectError {
    /// The suite has no row of the variant asked for.
    NoVariant {
        /// The file as named by the caller.
        origin: String,
        /// The variant asked for.
        variant: String,
        /// The variants the suite has rows of, sorted.
        known: Vec<String>,
    },
    /// No row is of the tier asked for (and of the variant, when one was asked for).
    NoRows {
        /// The file as named by the caller.
        origin: String,
        /// The tier asked for.
        tier: Tier,
        /// The variant asked for, if any.
        variant: Option<String>,
    },
}

impl fmt::Display for SelectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SelectError::NoVariant {
                origin,
                variant,
                known,
            } => write!(
                f,
                "{origin} has no row of variant `{variant}` (its variants: {})",
                known.join(", ")
            ),
            SelectError::NoRows {
                origin,
                tier,
                variant,
            } => {
                write!(f, "{origin} has no row of tier `{tier}`")?;
                match variant {
                    Some(v) => write!(f, " for variant `{v}`"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl std::error::Error for SelectError {}

/// The rows a run takes: those of `tier` (see [`Tier::includes`]) and, when given, of
/// `variant`. An unknown variant is an error that lists the suite's variants.
pub fn select<'a>(
    rows: &'a [SuiteRow],
    tier: Tier,
    variant: Option<&str>,
    origin: &str,
) -> Result<Vec<&'a SuiteRow>, SelectError> {
    if let Some(v) = variant {
        if !rows.iter().any(|r| r.variant == v) {
            let known: BTreeSet<&str> = rows.iter().map(|r| r.variant.as_str()).collect();
            return Err(SelectError::NoVariant {
                origin: origin.to_string(),
                variant: v.to_string(),
                known: known.into_iter().map(str::to_string).collect(),
            });
        }
    }
    let chosen: Vec<&SuiteRow> = rows
        .iter()
        .filter(|r| tier.includes(r.tier) && variant.map_or(true, |v| r.variant == v))
        .collect();
    if chosen.is_empty() {
        return Err(SelectError::NoRows {
            origin: origin.to_string(),
            tier,
            variant: variant.map(str::to_string),
        });
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "# a comment\n\
                        # variant\tsfen\tdepth\tnodes\ttier\n\
                        \n\
                        #: source: engine A\n\
                        #: convention: pawn-drop mate not a move\n\
                        kyoto\tpgkst/5/5/5/TSKGP b - 1\t2\t137\tquick\n\
                        \x20 # an indented comment\n\
                        #: source: engine B\n\
                        micro\tkbgs/p3/4/3P/SGBK b - 1\t7\t8118500\tfull\r\n\
                        #: convention:\n\
                        micro\tkbgs/p3/4/3P/SGBK b - 1\t1\t9\tquick\n";

    #[test]
    fn reads_rows_with_their_line_numbers_and_provenance() {
        let rows = parse_suite(GOOD, "s.tsv").unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(
            rows[0],
            SuiteRow {
                line: 6,
                variant: "kyoto".into(),
                sfen: "pgkst/5/5/5/TSKGP b - 1".into(),
                depth: 2,
                nodes: 137,
                tier: Tier::Quick,
                source: Some("engine A".into()),
                convention: Some("pawn-drop mate not a move".into()),
            }
        );
        assert_eq!(rows[1].line, 9);
        assert_eq!(rows[1].tier, Tier::Full);
        assert_eq!(rows[1].nodes, 8_118_500);
        assert_eq!(rows[1].source.as_deref(), Some("engine B"));
        assert_eq!(
            rows[1].convention.as_deref(),
            Some("pawn-drop mate not a move")
        );
        assert_eq!(rows[2].convention, None);
    }

    #[test]
    fn errors_name_the_file_line_and_column() {
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
                "s.tsv:2:1: variant `Kyoto` is not a lowercase name such as `kyoto`",
            ),
            ("kyoto\t\t2\t137\tquick\n", "s.tsv:1:7: the sfen field is empty"),
            (
                "kyoto\t startpos\t2\t137\tquick\n",
                "s.tsv:1:7: the sfen field ` startpos` has leading or trailing spaces",
            ),
            (
                "kyoto\tstartpos\t-2\t137\tquick\n",
                "s.tsv:1:16: depth `-2` is not a whole number",
            ),
            // kshogi_core::MAX_PERFT_DEPTH is 30; 31 and a 23-digit number are above it.
            (
                "kyoto\tstartpos\t31\t137\tquick\n",
                "s.tsv:1:16: depth `31` is too large: perft counts at most 30 plies",
            ),
            (
                "kyoto\tstartpos\t12345678901234567890123\t137\tquick\n",
                "s.tsv:1:16: depth `12345678901234567890123` is too large: perft counts at most \
                 30 plies",
            ),
            (
                "kyoto\tstartpos\t2\t1,137\tquick\n",
                "s.tsv:1:18: nodes `1,137` is not a whole number",
            ),
            (
                "kyoto\tstartpos\t2\t137\tslow\n",
                "s.tsv:1:22: tier `slow` is not `quick`, `full` or `deep`",
            ),
            (
                "kyoto\tstartpos\t2\t137\tquick\n\nkyoto\tstartpos\t2\t138\tfull\n",
                "s.tsv:3: duplicate row: kyoto `startpos` depth 2 is already on line 1",
            ),
            (
                "#: origin: x\nkyoto\tstartpos\t2\t137\tquick\n",
                "s.tsv:1:3: unknown `#:` key `origin` (known: source, convention)",
            ),
            (
                "#: source x\n",
                "s.tsv:1:3: a `#:` line is `#: source: TEXT` or `#: convention: TEXT`",
            ),
            ("# only comments\n\n", "s.tsv: the suite has no rows"),
        ];
        for (text, message) in cases {
            assert_eq!(
                parse_suite(text, "s.tsv").unwrap_err().to_string(),
                message,
                "{text:?}"
            );
        }
    }

    #[test]
    fn errors_carry_the_problem_as_a_value() {
        let e = parse_suite(
            "kyoto\tstartpos\t2\t137\tquick\n\nkyoto\tstartpos\t2\t138\tfull\n",
            "s.tsv",
        )
        .unwrap_err();
        assert_eq!((e.origin.as_str(), e.line, e.column), ("s.tsv", 3, None));
        assert_eq!(
            e.problem,
            SuiteProblem::Duplicate {
                variant: "kyoto".into(),
                sfen: "startpos".into(),
                depth: 2,
                first: 1
            }
        );
        let e = parse_suite("kyoto\tstartpos\t31\t137\tquick\n", "s.tsv").unwrap_err();
        assert_eq!(e.column, Some(16));
        assert_eq!(
            e.problem,
            SuiteProblem::DepthTooLarge {
                text: "31".into(),
                max: 30
            }
        );
        let e = parse_suite("kyoto startpos 2 137 quick\n", "s.tsv").unwrap_err();
        assert!(
            matches!(
                &e.problem,
                SuiteProblem::Fields { expected: 5, found: 1, spaces: true, names }
                    if names.len() == 5
            ),
            "{e:?}"
        );
        let e = parse_suite("", "s.tsv").unwrap_err();
        assert_eq!((e.line, e.problem), (0, SuiteProblem::NoRows));
    }

    #[test]
    fn the_reference_layout_has_no_tier_column() {
        let text =
            "# variant\tsfen\tdepth\tnodes\nkyoto\tstartpos\t2\t137\nkyoto\tstartpos\t6\t2829234\n";
        let rows = parse_table(text, "r.tsv", Layout::Reference { quick_limit: 1000 }).unwrap();
        assert_eq!(
            rows.iter().map(|r| r.tier).collect::<Vec<_>>(),
            [Tier::Quick, Tier::Full]
        );
        let e = parse_table(
            "kyoto\tstartpos\t2\t137\tquick\n",
            "r.tsv",
            Layout::Reference { quick_limit: 1 },
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "r.tsv:1: expected 4 tab-separated fields (variant, sfen, depth, nodes), found 5"
        );
    }

    #[test]
    fn tiers_and_variants_select_rows() {
        let rows = parse_suite(GOOD, "s.tsv").unwrap();
        let lines = |sel: Vec<&SuiteRow>| sel.iter().map(|r| r.line).collect::<Vec<_>>();
        assert_eq!(
            lines(select(&rows, Tier::Quick, None, "s").unwrap()),
            [6, 11]
        );
        assert_eq!(
            lines(select(&rows, Tier::Full, None, "s").unwrap()),
            [6, 9, 11]
        );
        assert_eq!(
            lines(select(&rows, Tier::Full, Some("micro"), "s").unwrap()),
            [9, 11]
        );
        assert_eq!(
            select(&rows, Tier::Quick, Some("kyoto"), "s").map(lines),
            Ok(vec![6])
        );
        let only_full = parse_suite("micro\tstartpos\t7\t8118500\tfull\n", "s").unwrap();
        assert_eq!(
            select(&only_full, Tier::Quick, Some("micro"), "s")
                .unwrap_err()
                .to_string(),
            "s has no row of tier `quick` for variant `micro`"
        );
        assert_eq!(
            select(&rows, Tier::Full, Some("chess"), "s")
                .unwrap_err()
                .to_string(),
            "s has no row of variant `chess` (its variants: kyoto, micro)"
        );
    }

    #[test]
    fn tier_names_round_trip() {
        for tier in [Tier::Quick, Tier::Full, Tier::Deep] {
            assert_eq!(Tier::parse(tier.name()), Some(tier));
        }
        assert_eq!(Tier::parse("Quick"), None);
        assert!(Tier::Full.includes(Tier::Quick));
        assert!(!Tier::Quick.includes(Tier::Full));
        assert!(!Tier::Full.includes(Tier::Deep));
        assert!(Tier::Deep.includes(Tier::Quick) && Tier::Deep.includes(Tier::Full));
    }
}
