//! The reference engine's dialect, checked against the reference engine (Fairy-Stockfish).
//!
//! - `fsf_dialect_against_the_engine` (`#[ignore]`d, needs the engine): random positions of
//!   every registered variant the engine knows ([`ENGINE_NAMES`]; seeded random games from
//!   the start) are written with
//!   `to_sfen_in(_, Dialect::Fsf)` and sent to the engine; its legal moves (`go perft 1`)
//!   must equal kshogi's written with `move_to_usi_in(_, _, Dialect::Fsf)`, as sets, and the
//!   SFEN it prints (`d`) must read back with `parse_sfen` as the same position. The engine
//!   is the binary named by `KSHOGI_FSF` (Fairy-Stockfish built from its source); the test
//!   prints a note and passes when the variable is unset. A variant the engine does not
//!   build in is loaded from the project's own definition file in `tests/data/fsf/`
//!   (Kinzoku: `kinzoku.ini`, written from docs/rules.md; `KSHOGI_FSF_KINZOKU_INI` names
//!   another file to try instead). With `KSHOGI_FSF_RECORD=1` it also rewrites
//!   `tests/data/fsf/expected.tsv` from the engine's answers (every variant then needed).
//! - `recorded_engine_answers` (runs by default, no engine): the recorded answers, checked
//!   against kshogi's Fsf output.

use kshogi_core::rng::SplitMix64;
use kshogi_core::{Game, Position, Variant};
use kshogi_notation::{move_to_usi_in, parse_sfen, to_sfen_in, Dialect};
use kshogi_rules_dobutsu::Dobutsu;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;
use kshogi_variants::{with_variant, VariantKind};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

const RECORDED: &str = "tests/data/fsf/expected.tsv";
/// Random positions per variant sent to the engine.
const POSITIONS: usize = 300;
/// Of those, the first ones per variant recorded for the default test.
const RECORD_PER_VARIANT: usize = 25;

/// Each registered variant's name in the reference engine (`UCI_Variant`), the project's
/// definition file the engine loads for it (under `tests/data/fsf/`) when the engine does
/// not build it in, and the seed of its random positions. A registered variant missing
/// here fails the tests: name it, or say here why the engine cannot play it.
const ENGINE_NAMES: &[(&str, &str, Option<&str>, u64)] = &[
    ("kyoto", "kyotoshogi", None, 1),
    ("micro", "micro", None, 2),
    ("kinzoku", "kinzoku", Some("kinzoku.ini"), 3),
    ("minishogi", "minishogi", None, 4),
    ("dobutsu", "dobutsu", None, 5),
    ("tori", "torishogi", None, 6),
];

/// The definition file the engine loads for `name`, if it needs one: the project's own
/// (`tests/data/fsf/<file>`), or for Kinzoku the one `KSHOGI_FSF_KINZOKU_INI` names.
fn definition_file(name: &str, file: Option<&str>) -> Option<String> {
    let file = file?;
    if name == "kinzoku" {
        if let Ok(other) = std::env::var("KSHOGI_FSF_KINZOKU_INI") {
            return Some(other);
        }
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fsf")
        .join(file);
    Some(path.to_string_lossy().into_owned())
}

#[test]
fn every_definition_file_is_in_the_repository() {
    for &(name, _, file, _) in ENGINE_NAMES {
        if let Some(file) = file {
            let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("tests/data/fsf")
                .join(file);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{name}: cannot read {}: {e}", path.display()));
            assert!(
                text.lines().any(|l| l.trim() == format!("[{name}]")),
                "{name}: {} has no [{name}] section",
                path.display()
            );
        }
    }
}

#[test]
fn every_registered_variant_has_its_engine_name() {
    for kind in VariantKind::ALL {
        assert!(
            ENGINE_NAMES.iter().any(|(name, ..)| *name == kind.name()),
            "`{}` is registered but has no reference-engine name in ENGINE_NAMES",
            kind.name()
        );
    }
}

/// `n` positions of random games from the start, none of them a finished game, drawn with
/// the project's generator so that runs are reproducible.
fn random_positions<V: Variant>(seed: u64, n: usize) -> Vec<Position<V>> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut game = Game::new(Position::<V>::start());
        let length = rng.below(80);
        for _ in 0..length {
            let moves = game.position().legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves.iter().copied().nth(rng.below(moves.len())).unwrap();
            let mut next = game.clone();
            next.play(mv).unwrap();
            if next.outcome().is_some() {
                break;
            }
            game = next;
        }
        out.push(*game.position());
    }
    out
}

/// kshogi's legal moves of `pos` in the Fsf dialect, sorted.
fn fsf_moves<V: Variant>(pos: &Position<V>) -> Vec<String> {
    let set: BTreeSet<String> = pos
        .legal_moves()
        .iter()
        .map(|&mv| move_to_usi_in(pos, mv, Dialect::Fsf))
        .collect();
    set.into_iter().collect()
}

/// The reference engine, running one variant.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start(bin: &str, variant: &str, ini: Option<&str>) -> Engine {
        let mut child = Command::new(bin)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {bin}: {e}"));
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut e = Engine {
            child,
            stdin,
            stdout,
        };
        if let Some(ini) = ini {
            e.send(&format!("load {ini}"));
        }
        e.send("usi");
        e.read_until(|l| l == "usiok");
        e.send(&format!("setoption name USI_Variant value {variant}"));
        e.send("isready");
        e.read_until(|l| l == "readyok");
        e
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn read_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            if self.stdout.read_line(&mut line).unwrap() == 0 {
                panic!("the engine stopped; last lines: {lines:?}");
            }
            let line = line.trim_end().to_string();
            let stop = done(&line);
            lines.push(line);
            if stop {
                return lines;
            }
        }
    }

    /// The engine's SFEN of `sfen` (its `d` output) and its legal moves, sorted.
    fn ask(&mut self, sfen: &str) -> (String, Vec<String>) {
        self.send(&format!("position sfen {sfen}"));
        self.send("d");
        self.send("go perft 1");
        let lines = self.read_until(|l| l.starts_with("Nodes searched:"));
        let printed = lines
            .iter()
            .find_map(|l| l.strip_prefix("Sfen: "))
            .unwrap_or_else(|| panic!("no `Sfen:` line for {sfen}: {lines:?}"))
            .to_string();
        let mut moves: Vec<String> = lines
            .iter()
            .filter_map(|l| {
                let (mv, n) = l.split_once(": ")?;
                let is_move = !mv.contains(' ')
                    && !["Key", "Checkers", "Chased", "Fen", "Sfen"].contains(&mv)
                    && n.bytes().all(|b| b.is_ascii_digit());
                is_move.then(|| mv.to_string())
            })
            .collect();
        moves.sort();
        (printed, moves)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// One variant against the engine: (positions, move-set mismatches, SFEN mismatches).
fn against_engine<V: Variant>(
    bin: &str,
    engine_name: &str,
    ini: Option<&str>,
    seed: u64,
    record: &mut Vec<String>,
) -> (usize, usize, usize) {
    let mut engine = Engine::start(bin, engine_name, ini);
    let positions = random_positions::<V>(seed, POSITIONS);
    let (mut bad_moves, mut bad_sfen, mut pawn_drop_mates) = (0, 0, 0);
    for (i, pos) in positions.iter().enumerate() {
        let sfen = to_sfen_in(pos, Dialect::Fsf);
        let ours = fsf_moves(pos);
        let (printed, theirs) = engine.ask(&sfen);
        let only_engine: Vec<&String> = theirs.iter().filter(|m| !ours.contains(m)).collect();
        // A known rule difference: in Minishogi the engine lets a pawn drop give a mate
        // that shogi forbids (uchifuzume); kshogi does not generate those drops. Only a
        // variant with that rule, and only drops of its pawn, are let through.
        let pawn_drop = V::DROP_RULES
            .pawn
            .filter(|_| V::DROP_RULES.no_pawn_drop_mate)
            .map(|k| format!("{}*", V::PIECES[k.index()].letter));
        let known = pawn_drop.as_ref().is_some_and(|p| {
            !only_engine.is_empty()
                && ours.iter().all(|m| theirs.contains(m))
                && only_engine.iter().all(|m| m.starts_with(p.as_str()))
        });
        if known {
            eprintln!(
                "{}: {sfen}: only the engine {only_engine:?} (pawn-drop mate)",
                V::NAME
            );
            pawn_drop_mates += 1;
        } else if ours != theirs {
            bad_moves += 1;
            if bad_moves <= 3 {
                let only_ours: Vec<_> = ours.iter().filter(|m| !theirs.contains(m)).collect();
                let only_theirs: Vec<_> = theirs.iter().filter(|m| !ours.contains(m)).collect();
                eprintln!(
                    "{}: {sfen}: only kshogi {only_ours:?}, only the engine {only_theirs:?}",
                    V::NAME
                );
            }
        }
        // The engine cannot hold the Kinzoku countdown: compare without the variant state.
        let expected = to_sfen_in(pos, Dialect::Fsf);
        let back = parse_sfen::<V>(&printed).map(|p| to_sfen_in(&p, Dialect::Fsf));
        let same = match &back {
            Ok(b) => {
                b == &expected
                    || (V::format_extra(pos.extra()).is_some() && expected.starts_with(b.as_str()))
            }
            Err(_) => false,
        };
        if !same {
            bad_sfen += 1;
            if bad_sfen <= 3 {
                eprintln!(
                    "{}: sent {sfen}, the engine printed {printed}: {back:?}",
                    V::NAME
                );
            }
        }
        if i < RECORD_PER_VARIANT && ours == theirs {
            record.push(format!("{}\t{sfen}\t{}", V::NAME, theirs.join(" ")));
        }
    }
    eprintln!(
        "{}: {pawn_drop_mates} positions where the engine also allows a pawn-drop mate",
        V::NAME
    );
    (positions.len(), bad_moves, bad_sfen)
}

#[test]
#[ignore = "needs the reference engine: set KSHOGI_FSF to its binary"]
fn fsf_dialect_against_the_engine() {
    let Ok(bin) = std::env::var("KSHOGI_FSF") else {
        eprintln!("note: KSHOGI_FSF is not set, so the reference engine was not run");
        return;
    };
    let mut record = Vec::new();
    let mut failed = false;
    for kind in VariantKind::ALL {
        let Some(&(name, engine_name, file, seed)) =
            ENGINE_NAMES.iter().find(|(n, ..)| *n == kind.name())
        else {
            panic!("`{}` has no reference-engine name", kind.name());
        };
        let ini = definition_file(name, file);
        let (n, moves, sfen) = with_variant!(*kind, V => {
            against_engine::<V>(&bin, engine_name, ini.as_deref(), seed, &mut record)
        });
        eprintln!("{name}: {n} positions, {moves} move-set mismatches, {sfen} SFEN mismatches");
        failed |= moves > 0 || sfen > 0;
    }
    if std::env::var_os("KSHOGI_FSF_RECORD").is_some() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(RECORDED);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut text = String::from(
            "# variant\tFsf SFEN (kshogi)\tthe reference engine's legal moves (go perft 1), sorted\n",
        );
        for line in &record {
            text.push_str(line);
            text.push('\n');
        }
        std::fs::write(&path, text).unwrap();
    }
    assert!(
        !failed,
        "the Fsf dialect differs from the engine (see above)"
    );
}

fn check_recorded<V: Variant>(sfen: &str, moves: &str) -> Result<(), String> {
    let pos = parse_sfen::<V>(sfen).map_err(|e| format!("{sfen}: {e}"))?;
    let written = to_sfen_in(&pos, Dialect::Fsf);
    if written != sfen {
        return Err(format!("{sfen} is written {written}"));
    }
    let expected: Vec<&str> = moves.split_whitespace().collect();
    let ours = fsf_moves(&pos);
    if ours != expected {
        return Err(format!("{sfen}: kshogi {ours:?}, the engine {expected:?}"));
    }
    Ok(())
}

#[test]
fn recorded_engine_answers() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(RECORDED);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut counted = 0;
    let mut errors = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let mut fields = line.split('\t');
        let (Some(variant), Some(sfen)) = (fields.next(), fields.next()) else {
            panic!("bad line {line:?}");
        };
        let moves = fields.next().unwrap_or("");
        let kind = VariantKind::from_name(variant)
            .unwrap_or_else(|| panic!("unknown variant {variant} in {RECORDED}"));
        let result = with_variant!(kind, V => check_recorded::<V>(sfen, moves));
        if let Err(e) = result {
            errors.push(e);
        }
        counted += 1;
    }
    assert!(counted >= 100, "only {counted} recorded positions");
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn fsf_letters_come_from_the_piece_tables() {
    let kyoto = Position::<Kyoto>::start();
    assert_eq!(
        to_sfen_in(&kyoto, Dialect::Fsf),
        "p+nks+l/5/5/5/+LSK+NP b - 1"
    );
    assert_eq!(
        to_sfen_in(&Position::<Micro>::start(), Dialect::Fsf),
        "kb+r+l/p3/4/3P/+L+RBK b - 1"
    );
    assert_eq!(
        to_sfen_in(&Position::<Dobutsu>::start(), Dialect::Fsf),
        "gle/1c1/1C1/ELG b - 1"
    );
    // Hands by the face the engine writes unpromoted; drops by the face's letters.
    let pos = parse_sfen::<Kyoto>("k4/5/5/5/4K b TGSPtgsp 9").unwrap();
    assert_eq!(to_sfen_in(&pos, Dialect::Fsf), "k4/5/5/5/4K b LNSPlnsp 9");
    let moves = fsf_moves(&pos);
    assert!(moves.contains(&"+L*3c".to_string()) && moves.contains(&"L*3c".to_string()));
    // A Kyoto rook (`+P`) turning back into a pawn is an unpromotion.
    let pos = parse_sfen::<Kyoto>("1k3/5/5/5/R3K b - 9").unwrap();
    assert!(fsf_moves(&pos).contains(&"5e5d-".to_string()));
    assert_eq!("fsf".parse::<Dialect>().unwrap(), Dialect::Fsf);
    assert_eq!(Dialect::Canonical.to_string(), "canonical");
    assert!("FSF".parse::<Dialect>().is_err());
}
