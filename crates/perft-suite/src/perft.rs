//! One perft count as `kshogi perft` makes it: the `DEPTH` argument read, the count of a
//! position argument (with its divide at the root, interruptible), and its report in text
//! and JSON.

use kshogi_core::{divide_interruptible, Variant, MAX_PERFT_DEPTH};
use kshogi_notation::{move_to_usi_in, parse_game, to_sfen_in, Dialect, PositionArgError};
use serde::{Serialize, Serializer};
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Why a `DEPTH` argument is not a depth perft counts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DepthError {
    /// Not a non-negative whole number (a sign, a fraction, a word, nothing).
    #[error("DEPTH must be a non-negative whole number, found `{0}`")]
    NotANumber(String),
    /// A whole number above [`MAX_PERFT_DEPTH`].
    #[error(
        "DEPTH `{0}` is too large: perft counts at most {max} plies (no deeper count could \
         finish)",
        max = MAX_PERFT_DEPTH
    )]
    TooLarge(String),
}

/// Reads `DEPTH`: a non-negative whole number of plies (no sign), at most
/// [`MAX_PERFT_DEPTH`].
pub fn parse_depth(text: &str) -> Result<u32, DepthError> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(DepthError::NotANumber(text.to_string()));
    }
    match t.parse::<u32>() {
        Ok(d) if d <= MAX_PERFT_DEPTH => Ok(d),
        // Any run of digits that is not a small number is too large (a 23-digit depth too).
        _ => Err(DepthError::TooLarge(text.to_string())),
    }
}

/// The result of a perft count. Serialised as `kshogi perft --json`, with the fields in
/// this order; `divide` is present only when asked for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PerftReport {
    /// Short name of the variant (`kyoto`).
    pub variant: &'static str,
    /// The position counted (after the `moves` list), as its SFEN in the chosen dialect.
    pub sfen: String,
    /// The depth counted.
    pub depth: u32,
    /// Leaves of the legal-move tree of that depth (1 at depth 0).
    pub nodes: u64,
    /// Leaves below each root move, in list order (the count sorts it by the move's USI
    /// text), serialised as an object keyed by the text. Empty at depth 0.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "divide_as_object"
    )]
    pub divide: Option<Vec<(String, u64)>>,
    /// Wall-clock time of the count, in whole milliseconds (rounded down).
    pub time_ms: u64,
    /// Nodes per second (integer, 0 when the time measured is 0).
    pub nps: u64,
    /// Wall-clock time of the count, at full precision (not serialised).
    #[serde(skip)]
    pub elapsed: Duration,
}

/// Serialises the divide list as one JSON object, `{"<usi>": <count>, ...}`, in list order.
fn divide_as_object<S: Serializer>(
    divide: &Option<Vec<(String, u64)>>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match divide {
        Some(list) => serializer.collect_map(list.iter().map(|(mv, n)| (mv, n))),
        None => serializer.serialize_none(),
    }
}

impl PerftReport {
    /// A report of `nodes` counted in `elapsed`: the milliseconds and the nodes per second
    /// (from the exact time, [`kshogi_core::nodes_per_second`], as the USI loop's `info
    /// nps`) follow from them.
    pub fn new(
        variant: &'static str,
        sfen: String,
        depth: u32,
        nodes: u64,
        divide: Option<Vec<(String, u64)>>,
        elapsed: Duration,
    ) -> PerftReport {
        let nps = kshogi_core::nodes_per_second(nodes, elapsed);
        PerftReport {
            variant,
            sfen,
            depth,
            nodes,
            divide,
            time_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
            nps,
            elapsed,
        }
    }

    /// The text form: with a divide, `<usi>: <count>` per root move and a blank line; then
    /// `nodes <N>`, `time <seconds, 3 decimals> s` and `nps <N>`, one per line.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        if let Some(list) = &self.divide {
            for (usi, n) in list {
                let _ = writeln!(out, "{usi}: {n}");
            }
            out.push('\n');
        }
        let _ = writeln!(out, "nodes {}", self.nodes);
        let _ = writeln!(out, "time {:.3} s", self.elapsed.as_secs_f64());
        let _ = writeln!(out, "nps {}", self.nps);
        out
    }
}

/// A count stopped before its end: the root moves counted completely, and how many there
/// are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interrupted {
    /// The root moves counted completely (USI text in the chosen dialect, count), sorted.
    pub done: Vec<(String, u64)>,
    /// The number of root moves.
    pub root_moves: usize,
}

impl Interrupted {
    /// What was finished, `<usi>: <count>` per line, for standard output.
    pub fn partial(&self) -> String {
        self.done
            .iter()
            .map(|(t, n)| format!("{t}: {n}\n"))
            .collect()
    }
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "perft interrupted: {} of {} root moves counted completely ({} nodes below them)",
            self.done.len(),
            self.root_moves,
            self.done.iter().map(|(_, n)| n).sum::<u64>()
        )
    }
}

/// Why a count gave no report.
#[derive(Clone, Debug, thiserror::Error)]
pub enum PerftError {
    /// The position argument (SFEN or a move after it) is wrong.
    #[error(transparent)]
    Position(#[from] PositionArgError),
    /// The stop flag was raised before every root move was counted.
    #[error("{0}")]
    Interrupted(Interrupted),
}

/// Counts the leaves of the legal-move tree of `depth` from the `POSITION` argument
/// `position` (`startpos` or an SFEN, optionally followed by `moves ...`, played first
/// with the full rules), on `threads` threads, until `stop` is raised; with `with_divide`,
/// the count below each root move, sorted by its text in `dialect`. Repetition is ignored
/// while counting (the perft convention).
pub fn count<V: Variant>(
    position: &str,
    depth: u32,
    with_divide: bool,
    threads: usize,
    stop: &AtomicBool,
    dialect: Dialect,
) -> Result<PerftReport, PerftError> {
    let game = parse_game::<V>(position)?;
    let pos = *game.position();
    let sfen = to_sfen_in(&pos, dialect);
    let start = Instant::now();
    let split = divide_interruptible(&pos, depth, threads, stop);
    let mut keyed: Vec<(String, Option<u64>)> = split
        .iter()
        .map(|&(mv, n)| (move_to_usi_in(&pos, mv, dialect), n))
        .collect();
    keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    if keyed.iter().any(|(_, n)| n.is_none()) {
        return Err(PerftError::Interrupted(Interrupted {
            root_moves: keyed.len(),
            done: keyed
                .into_iter()
                .filter_map(|(text, n)| n.map(|n| (text, n)))
                .collect(),
        }));
    }
    let keyed: Vec<(String, u64)> = keyed
        .into_iter()
        .map(|(text, n)| (text, n.unwrap_or(0)))
        .collect();
    // At depth 0 there is no root move, but the count is still 1.
    let nodes = if depth == 0 {
        1
    } else {
        keyed.iter().map(|(_, n)| n).sum()
    };
    let divide = with_divide.then_some(keyed);
    Ok(PerftReport::new(
        V::NAME,
        sfen,
        depth,
        nodes,
        divide,
        start.elapsed(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_rules_kinzoku::Kinzoku;
    use kshogi_rules_kyoto::Kyoto;

    static NEVER: AtomicBool = AtomicBool::new(false);

    #[test]
    fn depth_must_be_a_plain_number() {
        assert_eq!(parse_depth("0").unwrap(), 0);
        assert_eq!(parse_depth("12").unwrap(), 12);
        for bad in ["", "-1", "+3", "x", "1.5"] {
            assert_eq!(parse_depth(bad), Err(DepthError::NotANumber(bad.into())));
        }
        // Digits above the limit are a number, only too large (issue 33: a 23-digit depth
        // was "not a non-negative whole number").
        assert_eq!(parse_depth("30").unwrap(), MAX_PERFT_DEPTH);
        for big in ["31", "99999999999", "12345678901234567890123"] {
            assert_eq!(parse_depth(big), Err(DepthError::TooLarge(big.into())));
        }
    }

    #[test]
    fn divide_sums_to_nodes_and_depth_zero_is_one() {
        // Kinzoku start, depth 2: 49 (perft/reference.tsv), 7 root moves.
        let r = count::<Kinzoku>("startpos", 2, true, 1, &NEVER, Dialect::Canonical).unwrap();
        let list = r.divide.as_ref().unwrap();
        assert_eq!(list.len(), 7);
        assert_eq!(list.iter().map(|&(_, n)| n).sum::<u64>(), 49);
        assert_eq!(r.nodes, 49);
        let r = count::<Kyoto>("startpos", 0, true, 2, &NEVER, Dialect::Canonical).unwrap();
        assert_eq!(r.nodes, 1);
        assert!(r.divide.unwrap().is_empty());
        let r = count::<Kyoto>("startpos", 0, false, 2, &NEVER, Dialect::Canonical).unwrap();
        assert_eq!((r.nodes, r.divide), (1, None));
    }

    #[test]
    fn divide_is_sorted_by_text() {
        let r = count::<Kyoto>("startpos", 1, true, 1, &NEVER, Dialect::Canonical).unwrap();
        let texts: Vec<String> = r.divide.unwrap().iter().map(|(mv, _)| mv.clone()).collect();
        let mut sorted = texts.clone();
        sorted.sort();
        assert_eq!(texts, sorted);
        assert_eq!(texts.len(), 12);
    }

    #[test]
    fn a_raised_stop_flag_reports_what_was_counted() {
        let stop = AtomicBool::new(true);
        // Depth 3 and more is split over threads and stops; Kyoto has 12 root moves.
        match count::<Kyoto>("startpos", 4, false, 2, &stop, Dialect::Canonical) {
            Err(PerftError::Interrupted(i)) => {
                assert_eq!(i.root_moves, 12);
                assert!(i.done.len() < 12);
                assert_eq!(i.partial().lines().count(), i.done.len());
                assert!(i.to_string().starts_with(&format!(
                    "perft interrupted: {} of 12 root moves counted completely",
                    i.done.len()
                )));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            count::<Kyoto>(
                "startpos moves 9z9z",
                1,
                false,
                1,
                &NEVER,
                Dialect::Canonical
            ),
            Err(PerftError::Position(_))
        ));
    }

    #[test]
    fn text_and_json_layout() {
        let r = PerftReport::new(
            "kyoto",
            "pgkst/5/5/5/TSKGP b - 1".to_string(),
            1,
            2,
            Some(vec![("2e1d+".into(), 1), ("1e1d+".into(), 1)]),
            Duration::from_micros(1500),
        );
        // 2 nodes in 1.5 ms: 1333 per second, rounded down; 1 whole millisecond.
        assert_eq!((r.time_ms, r.nps), (1, 1333));
        // The list order is kept (the count sorts it).
        assert_eq!(
            r.to_text(),
            "2e1d+: 1\n1e1d+: 1\n\nnodes 2\ntime 0.002 s\nnps 1333\n"
        );
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            "{\"variant\":\"kyoto\",\"sfen\":\"pgkst/5/5/5/TSKGP b - 1\",\"depth\":1,\
             \"nodes\":2,\"divide\":{\"2e1d+\":1,\"1e1d+\":1},\"time_ms\":1,\"nps\":1333}"
        );
        assert_eq!(
            PerftReport::new("kyoto", String::new(), 0, 1, None, Duration::ZERO).nps,
            0
        );
    }
}
