//! The text report of a divergence search (`kshogi perft --diff`): who was compared, the
//! path from the root with both counts below each move, the position where the sources
//! part (in both dialects and as a POSITION argument) and what differs there.

use crate::diverge::{Difference, Finding, NamedMove};
use kshogi_core::{Move, Position, Variant};
use kshogi_notation::{move_to_usi_in, to_sfen_in, Dialect};
use std::fmt::Write as _;

/// The two sides of a comparison as a report names them, and the legend that says which
/// command each engine is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sides {
    /// Source A's name (`kshogi`, or `engine 1`).
    pub a: &'static str,
    /// Source B's name (`engine`, or `engine 2`).
    pub b: &'static str,
    /// One line per engine, `engine: `COMMAND`` (or `engine 1: ...`, `engine 2: ...`).
    pub legend: String,
}

impl Sides {
    /// kshogi against one engine (`commands` has one entry), or two engines against each
    /// other (two entries); `None` for any other number.
    pub fn of(commands: &[&str]) -> Option<Sides> {
        match commands {
            [one] => Some(Sides {
                a: "kshogi",
                b: "engine",
                legend: format!("engine: `{one}`\n"),
            }),
            [one, two] => Some(Sides {
                a: "engine 1",
                b: "engine 2",
                legend: format!("engine 1: `{one}`\nengine 2: `{two}`\n"),
            }),
            _ => None,
        }
    }
}

/// A move in both dialects: `canonical`, or `canonical (fsf: text)` when they differ.
pub fn both_dialects<V: Variant>(pos: &Position<V>, mv: Move) -> String {
    let canonical = move_to_usi_in(pos, mv, Dialect::Canonical);
    let fsf = move_to_usi_in(pos, mv, Dialect::Fsf);
    if canonical == fsf {
        canonical
    } else {
        format!("{canonical} (fsf: {fsf})")
    }
}

/// One side's extra moves, one per line (kshogi's reason after a move it finds illegal).
fn list_moves<V: Variant>(out: &mut String, pos: &Position<V>, who: &str, moves: &[NamedMove]) {
    if moves.is_empty() {
        let _ = writeln!(out, "  only {who} lists: none");
        return;
    }
    let _ = writeln!(out, "  only {who} lists {}:", moves.len());
    for m in moves {
        match (m.mv, &m.reason) {
            (Some(mv), None) => {
                let _ = writeln!(out, "    {}", both_dialects(pos, mv));
            }
            (_, Some(reason)) => {
                let _ = writeln!(out, "    {}  (kshogi: {reason})", m.text);
            }
            (None, None) => {
                let _ = writeln!(out, "    {}", m.text);
            }
        }
    }
}

/// The report of a search from `root` at `depth`, whose sources are named `a` and `b`
/// (the form `docs/perft.md` shows).
pub fn describe<V: Variant>(
    root: &Position<V>,
    depth: u32,
    a: &str,
    b: &str,
    finding: &Finding<V>,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "perft --diff: {a} against {b}, {} depth {depth}",
        to_sfen_in(root, Dialect::Canonical)
    );
    let d = match finding {
        Finding::Agree { nodes } => {
            let _ = writeln!(out, "no divergence: both count {nodes}, move for move");
            return out;
        }
        Finding::Diverge(d) => d,
    };
    let mut pos = *root;
    let mut moves = Vec::with_capacity(d.path.len());
    if d.path.is_empty() {
        let _ = writeln!(out, "path: (the root itself)");
    } else {
        let _ = writeln!(out, "path from the root ({} plies):", d.path.len());
    }
    for (i, step) in d.path.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {:>2}. {:<24} {a} {}, {b} {} ({:+})",
            i + 1,
            both_dialects(&pos, step.mv),
            step.a,
            step.b,
            i128::from(step.b) - i128::from(step.a)
        );
        moves.push(move_to_usi_in(&pos, step.mv, Dialect::Canonical));
        pos = pos.after(step.mv);
    }
    let _ = writeln!(out, "divergence at depth {} left:", d.depth);
    for (name, dialect) in [
        ("canonical): ", Dialect::Canonical),
        ("fsf):       ", Dialect::Fsf),
    ] {
        let _ = writeln!(
            out,
            "  position ({name}{}",
            to_sfen_in(&d.position, dialect)
        );
    }
    if !moves.is_empty() {
        let _ = writeln!(
            out,
            "  as a POSITION:        {} moves {}",
            to_sfen_in(root, Dialect::Canonical),
            moves.join(" ")
        );
    }
    match &d.difference {
        Difference::MoveLists { only_a, only_b } => {
            list_moves(&mut out, &d.position, a, only_a);
            list_moves(&mut out, &d.position, b, only_b);
        }
        Difference::LeafCount { mv, a: na, b: nb } => {
            let _ = writeln!(
                out,
                "  the move lists agree, but {} counts {na} for {a} and {nb} for {b} at depth 1",
                both_dialects(&d.position, *mv)
            );
        }
        Difference::Inconsistent {
            source,
            parent,
            sum,
        } => {
            let _ = writeln!(
                out,
                "  {source} is inconsistent: it counted {parent} below the last move of the \
                 path, but its divide here adds up to {sum}"
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diverge::{Divergence, Step};
    use kshogi_notation::{parse_game, parse_usi};
    use kshogi_rules_minishogi::Minishogi;

    #[test]
    fn the_sides_are_kshogi_and_an_engine_or_two_engines() {
        let one = Sides::of(&["fsf"]).unwrap();
        assert_eq!(
            (one.a, one.b, one.legend.as_str()),
            ("kshogi", "engine", "engine: `fsf`\n")
        );
        let two = Sides::of(&["x", "y"]).unwrap();
        assert_eq!(
            (two.a, two.b, two.legend.as_str()),
            ("engine 1", "engine 2", "engine 1: `x`\nengine 2: `y`\n")
        );
        assert_eq!(Sides::of(&[]), None);
        assert_eq!(Sides::of(&["a", "b", "c"]), None);
    }

    #[test]
    fn agreement_is_one_line_after_the_heading() {
        let root = *parse_game::<Minishogi>("startpos").unwrap().position();
        let text = describe(&root, 2, "kshogi", "engine", &Finding::Agree { nodes: 181 });
        assert_eq!(
            text,
            "perft --diff: kshogi against engine, rbsgk/4p/5/P4/KGSBR b - 1 depth 2\n\
             no divergence: both count 181, move for move\n"
        );
    }

    /// The example of docs/perft.md: the reference engine lists a pawn drop that mates.
    #[test]
    fn the_documented_minishogi_divergence_is_reported_as_documented() {
        let root_text = "s2k1/P3r/2bgS/KG1P+b/4R w - 40";
        let root = *parse_game::<Minishogi>(root_text).unwrap().position();
        let first = parse_usi(&root, "1b5b").unwrap();
        let second = parse_usi(&root.after(first), "5d4c").unwrap();
        let position = root.after(first).after(second);
        let finding = Finding::Diverge(Box::new(Divergence {
            path: vec![
                Step {
                    mv: first,
                    a: 103,
                    b: 104,
                },
                Step {
                    mv: second,
                    a: 33,
                    b: 34,
                },
            ],
            position,
            depth: 1,
            difference: Difference::MoveLists {
                only_a: vec![],
                only_b: vec![NamedMove {
                    text: "P*4b".into(),
                    mv: None,
                    reason: Some(
                        "`P*4b` is not legal here: a pawn drop may not give checkmate".into(),
                    ),
                }],
            },
        }));
        let expected = "\
perft --diff: kshogi against engine, s2k1/P3r/2bgS/KG1P+b/4R w - 40 depth 3
path from the root (2 plies):
   1. 1b5b                     kshogi 103, engine 104 (+1)
   2. 5d4c                     kshogi 33, engine 34 (+1)
divergence at depth 1 left:
  position (canonical): s2k1/r4/1KbgS/1G1P+b/4R w p 42
  position (fsf):       s2k1/r4/1KbgS/1G1P+b/4R w p 42
  as a POSITION:        s2k1/P3r/2bgS/KG1P+b/4R w - 40 moves 1b5b 5d4c
  only kshogi lists: none
  only engine lists 1:
    P*4b  (kshogi: `P*4b` is not legal here: a pawn drop may not give checkmate)
";
        assert_eq!(describe(&root, 3, "kshogi", "engine", &finding), expected);
    }

    #[test]
    fn a_leaf_count_and_an_inconsistent_source_are_named() {
        let root = *parse_game::<Minishogi>("startpos").unwrap().position();
        let mv = parse_usi(&root, "5e4d").unwrap();
        let at = |difference| {
            Finding::Diverge(Box::new(Divergence {
                path: vec![],
                position: root,
                depth: 1,
                difference,
            }))
        };
        let text = describe(
            &root,
            1,
            "A",
            "B",
            &at(Difference::LeafCount { mv, a: 1, b: 2 }),
        );
        assert!(text.contains("path: (the root itself)\n"), "{text}");
        assert!(!text.contains("as a POSITION"), "{text}");
        assert!(
            text.ends_with(
                "  the move lists agree, but 5e4d counts 1 for A and 2 for B at depth 1\n"
            ),
            "{text}"
        );
        let text = describe(
            &root,
            1,
            "A",
            "B",
            &at(Difference::Inconsistent {
                source: "B".into(),
                parent: 9,
                sum: 8,
            }),
        );
        assert!(
            text.ends_with(
                "  B is inconsistent: it counted 9 below the last move of the path, but its \
                 divide here adds up to 8\n"
            ),
            "{text}"
        );
    }
}
