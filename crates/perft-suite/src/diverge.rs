//! The divergence finder: where two move generators first disagree.
//!
//! Given two [`DivideSource`]s (kshogi itself, [`Kshogi`], or another engine behind the
//! trait), [`find_divergence`] compares their divides of a position, descends into the first
//! root move (in canonical USI order) whose counts differ, and repeats until it reaches a
//! position where the two legal move lists differ. Moves are matched by what they mean in
//! kshogi's rules, not by their text, so the two sources may write different dialects; a
//! move kshogi does not find legal is kept by its text, with kshogi's reason.

use crate::run::divide_texts;
use kshogi_core::{Move, Position, Variant};
use kshogi_notation::{move_to_usi, parse_usi};
use std::collections::BTreeMap;

/// Anything that can split a perft count by the root moves.
pub trait DivideSource<V: Variant> {
    /// The source's name in messages (`kshogi`, the engine's command).
    fn name(&self) -> String;

    /// The legal moves of `pos` with the leaf count below each at `depth - 1` (`depth` is at
    /// least 1), each move written as the source writes it (USI, either dialect). `Err`
    /// says why the source gave no answer.
    fn divide(&mut self, pos: &Position<V>, depth: u32) -> Result<Vec<(String, u64)>, DivideError>;
}

/// Why a [`DivideSource`] gave no divide: the source's own error (an engine that did not
/// start, died, timed out or wrote something else), kept as it is so that a caller can
/// look at it (`std::error::Error::source`) and print it.
#[derive(Debug)]
pub struct DivideError(Box<dyn std::error::Error + Send + Sync + 'static>);

impl DivideError {
    /// Wraps the source's error.
    pub fn new(error: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>) -> Self {
        DivideError(error.into())
    }

    /// The source's error.
    pub fn get_ref(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        &*self.0
    }
}

impl std::fmt::Display for DivideError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for DivideError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.0)
    }
}

/// kshogi's own move generator as a [`DivideSource`].
#[derive(Debug, Clone, Copy)]
pub struct Kshogi {
    /// Worker threads per divide.
    pub threads: usize,
}

impl<V: Variant> DivideSource<V> for Kshogi {
    fn name(&self) -> String {
        "kshogi".to_string()
    }

    fn divide(&mut self, pos: &Position<V>, depth: u32) -> Result<Vec<(String, u64)>, DivideError> {
        Ok(divide_texts(pos, depth, self.threads.max(1)))
    }
}

/// A move as one source named it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedMove {
    /// The text the source wrote.
    pub text: String,
    /// The move it names in kshogi's rules, when it names a legal one.
    pub mv: Option<Move>,
    /// Why kshogi does not read it as a legal move, when it does not.
    pub reason: Option<String>,
}

/// One step of the path from the root: the move descended into and both counts below it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The move.
    pub mv: Move,
    /// Source A's count below it.
    pub a: u64,
    /// Source B's count below it.
    pub b: u64,
}

/// What was found at the end of the path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// The legal move lists differ: the moves only A lists and those only B lists.
    MoveLists {
        /// Moves A lists and B does not.
        only_a: Vec<NamedMove>,
        /// Moves B lists and A does not.
        only_b: Vec<NamedMove>,
    },
    /// The move lists are equal, but at depth 1 a source counted a move other than once.
    LeafCount {
        /// The move.
        mv: Move,
        /// A's count.
        a: u64,
        /// B's count.
        b: u64,
    },
    /// A source's divide of this position does not add up to the count it gave for the
    /// move leading here: that source is inconsistent (it miscounts, or caches wrongly).
    Inconsistent {
        /// The source's name.
        source: String,
        /// The count it gave for the move leading here.
        parent: u64,
        /// The sum of its divide here.
        sum: u64,
    },
}

/// Where two sources differ: `path` leads from the root to `position`, where `difference`
/// was seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence<V: Variant> {
    /// The moves from the root, with both counts below each.
    pub path: Vec<Step>,
    /// The position at the end of the path.
    pub position: Position<V>,
    /// The depth left at that position.
    pub depth: u32,
    /// What differs there.
    pub difference: Difference,
}

/// The result of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding<V: Variant> {
    /// Both count the same at the root, move for move.
    Agree {
        /// The common count.
        nodes: u64,
    },
    /// They differ.
    Diverge(Box<Divergence<V>>),
}

/// Why the search stopped without a finding.
#[derive(Debug)]
pub struct DiffError {
    /// The source that failed.
    pub source: String,
    /// The moves from the root to the position it failed on (canonical USI).
    pub path: Vec<String>,
    /// What went wrong.
    pub cause: DivideError,
}

impl std::fmt::Display for DiffError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}: {}", self.source, self.cause)
        } else {
            write!(
                f,
                "{} (after {}): {}",
                self.source,
                self.path.join(" "),
                self.cause
            )
        }
    }
}

impl std::error::Error for DiffError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.cause)
    }
}

/// A source's divide, keyed by what each move means.
struct Keyed {
    legal: BTreeMap<Move, (String, u64)>,
    other: BTreeMap<String, (NamedMove, u64)>,
}

impl Keyed {
    fn sum(&self) -> u64 {
        self.legal.values().map(|(_, n)| n).sum::<u64>()
            + self.other.values().map(|(_, n)| n).sum::<u64>()
    }
}

/// Reads a source's divide in `pos`. A move listed twice counts as a move kshogi does not
/// know, so that the lists differ and the finder stops there.
fn key<V: Variant>(pos: &Position<V>, list: Vec<(String, u64)>) -> Keyed {
    let mut legal = BTreeMap::new();
    let mut other = BTreeMap::new();
    for (text, n) in list {
        let text = text.trim().to_string();
        match parse_usi::<V>(pos, &text) {
            Ok(mv) if !legal.contains_key(&mv) => {
                legal.insert(mv, (text, n));
            }
            Ok(mv) => {
                let named = NamedMove {
                    text: text.clone(),
                    mv: Some(mv),
                    reason: Some(format!("listed twice (as `{}` too)", legal[&mv].0)),
                };
                other.insert(text, (named, n));
            }
            Err(e) => {
                let named = NamedMove {
                    text: text.clone(),
                    mv: None,
                    reason: Some(e.to_string()),
                };
                other.insert(text, (named, n));
            }
        }
    }
    Keyed { legal, other }
}

/// Searches for the first position below `root` (at `depth`) where `a` and `b` disagree.
pub fn find_divergence<V: Variant>(
    root: &Position<V>,
    depth: u32,
    a: &mut dyn DivideSource<V>,
    b: &mut dyn DivideSource<V>,
) -> Result<Finding<V>, DiffError> {
    if depth == 0 {
        return Ok(Finding::Agree { nodes: 1 });
    }
    let mut pos = *root;
    let mut left = depth;
    let mut path: Vec<Step> = Vec::new();
    let mut root_nodes = None;
    loop {
        let fail = |source: &dyn DivideSource<V>, cause: DivideError, path: &[Step]| DiffError {
            source: source.name(),
            path: path.iter().map(|s| move_to_usi::<V>(s.mv)).collect(),
            cause,
        };
        let da = a.divide(&pos, left).map_err(|e| fail(&*a, e, &path))?;
        let db = b.divide(&pos, left).map_err(|e| fail(&*b, e, &path))?;
        let (ka, kb) = (key(&pos, da), key(&pos, db));
        let diverge = |path: Vec<Step>, difference| {
            Finding::Diverge(Box::new(Divergence {
                path,
                position: pos,
                depth: left,
                difference,
            }))
        };
        if let Some(step) = path.last() {
            for (source, keyed, parent) in [(&*a, &ka, step.a), (&*b, &kb, step.b)] {
                if keyed.sum() != parent {
                    return Ok(diverge(
                        path.clone(),
                        Difference::Inconsistent {
                            source: source.name(),
                            parent,
                            sum: keyed.sum(),
                        },
                    ));
                }
            }
        } else {
            root_nodes = Some((ka.sum(), kb.sum()));
        }
        let only = |x: &Keyed, y: &Keyed| -> Vec<NamedMove> {
            let mut out: Vec<NamedMove> = x
                .legal
                .iter()
                .filter(|(mv, _)| !y.legal.contains_key(mv))
                .map(|(&mv, (text, _))| NamedMove {
                    text: text.clone(),
                    mv: Some(mv),
                    reason: None,
                })
                .collect();
            out.extend(
                x.other
                    .iter()
                    .filter(|(text, _)| !y.other.contains_key(*text))
                    .map(|(_, (named, _))| named.clone()),
            );
            out
        };
        let (only_a, only_b) = (only(&ka, &kb), only(&kb, &ka));
        if !only_a.is_empty() || !only_b.is_empty() {
            return Ok(diverge(path, Difference::MoveLists { only_a, only_b }));
        }
        // Equal lists: the first move, in canonical text order, whose counts differ.
        let mut by_text: Vec<(String, Move, u64, u64)> = ka
            .legal
            .iter()
            .map(|(&mv, (_, n))| (move_to_usi::<V>(mv), mv, *n, kb.legal[&mv].1))
            .collect();
        by_text.sort_unstable();
        let Some((_, mv, na, nb)) = by_text.into_iter().find(|(_, _, na, nb)| na != nb) else {
            return match (path.is_empty(), root_nodes) {
                (true, Some((nodes, _))) => Ok(Finding::Agree { nodes }),
                // Below the root, the parent's counts differed but these agree: impossible
                // for consistent sources, caught above.
                _ => Ok(Finding::Agree { nodes: ka.sum() }),
            };
        };
        if left == 1 {
            return Ok(diverge(path, Difference::LeafCount { mv, a: na, b: nb }));
        }
        path.push(Step { mv, a: na, b: nb });
        pos = pos.after(mv);
        left -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_notation::{move_to_usi_in, parse_game, Dialect};
    use kshogi_rules_kyoto::Kyoto;

    /// kshogi's generator with one fault: in the position reached by `path` (canonical USI),
    /// the move `drop` is missing.
    struct Faulty {
        fault_at: Position<Kyoto>,
        drop: Move,
        dialect: Dialect,
    }

    impl Faulty {
        fn count(&self, pos: &mut Position<Kyoto>, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let moves = pos.legal_moves();
            let mut n = 0;
            for &mv in moves.iter() {
                if *pos == self.fault_at && mv == self.drop {
                    continue;
                }
                let undo = pos.make(mv);
                n += self.count(pos, depth - 1);
                pos.unmake(mv, undo);
            }
            n
        }
    }

    impl DivideSource<Kyoto> for Faulty {
        fn name(&self) -> String {
            "faulty".into()
        }
        fn divide(
            &mut self,
            pos: &Position<Kyoto>,
            depth: u32,
        ) -> Result<Vec<(String, u64)>, DivideError> {
            let mut p = *pos;
            let moves = p.legal_moves();
            let mut out = Vec::new();
            for &mv in moves.iter() {
                if p == self.fault_at && mv == self.drop {
                    continue;
                }
                let text = move_to_usi_in(&p, mv, self.dialect);
                let undo = p.make(mv);
                out.push((text, self.count(&mut p, depth - 1)));
                p.unmake(mv, undo);
            }
            Ok(out)
        }
    }

    #[test]
    fn finds_the_missing_move_three_plies_down() {
        let root = *parse_game::<Kyoto>("startpos").unwrap().position();
        // Two plies in; the position where the fault is has depth 1 left from depth 3.
        let game = parse_game::<Kyoto>("startpos moves 1e1d+ 5a5b+").unwrap();
        let fault_at = *game.position();
        let victim = *fault_at.legal_moves().iter().last().unwrap();
        for dialect in Dialect::ALL {
            let mut faulty = Faulty {
                fault_at,
                drop: victim,
                dialect,
            };
            let found = find_divergence(&root, 3, &mut Kshogi { threads: 1 }, &mut faulty).unwrap();
            let Finding::Diverge(d) = found else {
                panic!("no divergence found: {found:?}");
            };
            let Divergence {
                path,
                position,
                depth,
                difference,
            } = *d;
            let texts: Vec<String> = path.iter().map(|s| move_to_usi::<Kyoto>(s.mv)).collect();
            assert_eq!(texts, ["1e1d+", "5a5b+"]);
            assert_eq!(position, fault_at);
            assert_eq!(depth, 1);
            assert_eq!(path[0].a, path[0].b + 1);
            let Difference::MoveLists { only_a, only_b } = difference else {
                panic!("{difference:?}");
            };
            assert_eq!(only_a.len(), 1);
            assert_eq!(only_a[0].mv, Some(victim));
            assert!(only_b.is_empty());
        }
    }

    #[test]
    fn equal_generators_agree() {
        let root = *parse_game::<Kyoto>("startpos").unwrap().position();
        let found = find_divergence(
            &root,
            3,
            &mut Kshogi { threads: 1 },
            &mut Kshogi { threads: 2 },
        )
        .unwrap();
        // shared/reference/perft.tsv: Kyoto start, depth 3.
        assert_eq!(found, Finding::Agree { nodes: 1636 });
    }

    /// A source that lists one move kshogi does not allow, once, at the root.
    struct Extra(&'static str);

    impl DivideSource<Kyoto> for Extra {
        fn name(&self) -> String {
            "extra".into()
        }
        fn divide(
            &mut self,
            pos: &Position<Kyoto>,
            depth: u32,
        ) -> Result<Vec<(String, u64)>, DivideError> {
            let mut list = Kshogi { threads: 1 }.divide(pos, depth)?;
            list.push((self.0.to_string(), 1));
            Ok(list)
        }
    }

    #[test]
    fn a_move_kshogi_rejects_is_named_with_the_reason() {
        let root = *parse_game::<Kyoto>("startpos").unwrap().position();
        let found =
            find_divergence(&root, 2, &mut Kshogi { threads: 1 }, &mut Extra("3e3a")).unwrap();
        let Finding::Diverge(d) = found else {
            panic!("{found:?}")
        };
        let Divergence {
            path, difference, ..
        } = *d;
        assert!(path.is_empty());
        let Difference::MoveLists { only_a, only_b } = difference else {
            panic!("{difference:?}")
        };
        assert!(only_a.is_empty());
        assert_eq!(only_b.len(), 1);
        assert_eq!(only_b[0].text, "3e3a");
        assert!(only_b[0].reason.as_deref().unwrap().contains("3e3a"));
    }
}
