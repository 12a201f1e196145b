//! The generic solver on Kinzoku positions with few pieces, checked against forward move
//! generation, and the database file.
//!
//! Positions with at most `n` pieces besides the kings are closed under moves (a move never
//! adds a piece), so they form a game of their own that solves in seconds. These tests are
//! the small version of the checks that `kshogi solve --verify` runs on the whole game.

use kshogi_core::{Color, Position};
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_solver::db::{self, Database, DbError, Probe, Unusable};
use kshogi_solver::generic::{bellman_all as bellman, search_agrees, solve, Table};
use kshogi_solver::kinzoku::{predecessors, Compact, KinzokuIndex};
use kshogi_solver::value::{Entry, Value};
use kshogi_solver::{DobutsuIndex, Indexed};
use std::collections::HashMap;
use std::sync::OnceLock;

fn legal(c: &Compact) -> Option<Position<Kinzoku>> {
    Position::from_setup(&c.to_setup()).ok()
}

/// Un-move generation is the exact inverse of forward move generation: for every position
/// P, the (predecessor, move) pairs it yields are those forward generation finds.
#[test]
fn predecessors_invert_forward_moves_one_piece() {
    check_predecessors(1, 10_000);
}

/// The same for every position with up to two pieces besides the kings (promotions,
/// captures of every kind and the countdown all occur).
#[test]
#[ignore = "deep: about 30 s in a debug build; CI runs it in release"]
fn predecessors_invert_forward_moves_two_pieces() {
    check_predecessors(2, 1_000_000);
}

fn check_predecessors(max_pieces: usize, min_pairs: usize) {
    let layout = KinzokuIndex::new(max_pieces);
    let mut forward: HashMap<(u64, u64), u32> = HashMap::new();
    // Forward: for each stored position Q, how many of its moves lead to each stored P
    // (a move leads to P when it leads to P or to P's mirror image).
    for qi in 0..layout.len() {
        let q = layout.decode(qi);
        if !q.is_canonical() {
            continue;
        }
        let Some(pos) = legal(&q) else { continue };
        if pos.outcome().is_some() {
            continue;
        }
        for m in pos.legal_moves().iter() {
            let p = Compact::from_position(&pos.after(*m));
            let pi = layout.index_any(&p).expect("moves stay in the layout");
            *forward.entry((pi, qi)).or_default() += 1;
        }
    }
    // Backward, as the solver counts: un-moves from each stored P, the predecessors taken
    // to their stored image; for a P equal to its mirror image only predecessors that are
    // stored as they are, and otherwise twice for a predecessor equal to its mirror image.
    let mut backward: HashMap<(u64, u64), u32> = HashMap::new();
    for pi in 0..layout.len() {
        let p = layout.decode(pi);
        if !p.is_canonical() || legal(&p).is_none() {
            continue;
        }
        let symmetric = p.mirror() == p;
        predecessors(&p.flip(), |q| {
            assert_eq!(q.side, Color::Black);
            let Some(pos) = legal(q) else { return };
            if pos.outcome().is_some() {
                return;
            }
            if symmetric && !q.is_canonical() {
                return;
            }
            let weight = if !symmetric && q.mirror() == *q { 2 } else { 1 };
            let Some(qi) = layout.index_any(q) else {
                return;
            };
            *backward.entry((pi, qi)).or_default() += weight;
        });
    }
    let mut missing: Vec<_> = forward
        .iter()
        .filter(|(k, v)| backward.get(k) != Some(v))
        .take(5)
        .map(|(&(p, q), &v)| (layout.decode(p), layout.decode(q), v, backward.get(&(p, q))))
        .collect();
    missing.sort_by_key(|x| format!("{x:?}"));
    assert!(
        missing.is_empty(),
        "forward moves the un-moves miss: {missing:?}"
    );
    let extra: Vec<_> = backward
        .iter()
        .filter(|(k, _)| !forward.contains_key(k))
        .take(5)
        .map(|(&(p, q), &v)| (layout.decode(p), layout.decode(q), v))
        .collect();
    assert!(extra.is_empty(), "un-moves that are no moves: {extra:?}");
    assert!(forward.len() > min_pairs, "{} pairs", forward.len());
}

fn solved(max_pieces: usize) -> &'static Table<KinzokuIndex> {
    static S: [OnceLock<Table<KinzokuIndex>>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    S[max_pieces].get_or_init(|| solve(KinzokuIndex::new(max_pieces), 2, &|_| {}))
}

/// Every entry of the game with at most two pieces besides the kings agrees with its
/// successors (the Bellman check).
#[test]
fn bellman_check_on_two_pieces() {
    bellman_all(2);
}

/// The same with three pieces: 16.7 million entries.
#[test]
#[ignore = "deep: a minute in a debug build; CI runs it in release"]
fn bellman_check_on_three_pieces() {
    bellman_all(3);
}

fn bellman_all(max_pieces: usize) {
    let s = solved(max_pieces);
    let st = s.stats();
    assert_eq!(st.entries, s.index().len());
    assert!(st.wins > 0 && st.losses > 0 && st.draws > 0);
    let (bad, n) = bellman(s, 2, 10, &|_, _| {});
    assert!(bad.is_empty(), "{bad:#?}");
    assert_eq!(n, s.index().len());
}

/// Exhaustive search confirms a sample of short results, of every kind.
#[test]
fn exhaustive_search_agrees_on_a_sample_of_two_pieces() {
    search_sample(2, 30);
}

/// The same on three pieces, with more samples.
#[test]
#[ignore = "deep: CI runs it in release"]
fn exhaustive_search_agrees_on_a_sample_of_three_pieces() {
    search_sample(3, 100);
}

fn search_sample(max_pieces: usize, per_kind: u32) {
    let s = solved(max_pieces);
    let n = s.index().len();
    let mut rng = kshogi_core::rng::SplitMix64::new(1);
    let mut checked = [0u32; 3];
    let mut tries = 0;
    while checked.iter().any(|&c| c < per_kind) && tries < 2_000_000 {
        tries += 1;
        let i = rng.next_u64() % n;
        let Entry::Value(v) = s.entry(i) else {
            continue;
        };
        let k = match v {
            Value::Win(d) if d <= 7 => 0,
            Value::Loss(d) if d <= 6 => 1,
            Value::Draw => 2,
            _ => continue,
        };
        if checked[k] >= per_kind {
            continue;
        }
        let pos = legal(&s.index().decode(i)).expect("legal entry");
        assert!(
            search_agrees(&pos, v, 4),
            "entry {i}: {:?} stated {v}",
            s.index().decode(i)
        );
        checked[k] += 1;
    }
    assert!(checked.iter().all(|&c| c >= per_kind), "{checked:?}");
}

/// A scratch directory of this test, emptied first.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kshogi-solver-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A written file reads back the same values; damage is an error, never a value.
#[test]
fn database_file_round_trips_and_rejects_damage() {
    let s = solved(2);
    let dir = scratch("db");
    let path = dir.join("k2.kdb");
    db::write(s, &path, 2, &|_, _| {}).unwrap();
    let d = Database::<KinzokuIndex>::open(&path).unwrap();
    assert_eq!(d.index().scope(), 2);
    let sum = d.summary();
    let st = s.stats();
    assert_eq!(
        (sum.wins, sum.losses, sum.draws, sum.illegal),
        (st.wins, st.losses, st.draws, st.illegal)
    );
    assert_eq!(sum.longest_win, u64::from(st.longest_win.0));
    assert_eq!(sum.longest_loss, u64::from(st.longest_loss.0));
    let mut rng = kshogi_core::rng::SplitMix64::new(12345);
    for _ in 0..20_000 {
        let i = rng.next_u64() % s.index().len();
        assert_eq!(d.entry(i).unwrap(), s.entry(i));
    }
    let all = d.load_all(&|_, _| {}).unwrap();
    for i in (0..s.index().len()).step_by(97) {
        assert_eq!(all.entry(i), s.entry(i));
    }
    // The start has six pieces: not covered by a two-piece table.
    let start = Position::<Kinzoku>::start();
    assert_eq!(d.value(&start).unwrap(), None);
    // The file's optimal moves are the table's.
    let pos = all.index().position(s.stats().longest_win.1).unwrap();
    assert_eq!(d.moves(&pos).unwrap(), s.moves(&pos).map(Some).unwrap());

    let bytes = std::fs::read(&path).unwrap();
    // Why each damaged file is refused, with the file named.
    let reject = |name: &str, b: &[u8]| -> (Unusable, String) {
        let f = dir.join(name);
        std::fs::write(&f, b).unwrap();
        match Database::<KinzokuIndex>::open(&f) {
            Ok(_) => panic!("{name} opened"),
            Err(e) => {
                let text = e.to_string();
                let prefix = format!("{}: not a usable database: ", f.display());
                assert!(text.starts_with(&prefix), "{text}");
                match e {
                    DbError::Bad { path, why } if path == f => (why, text),
                    other => panic!("{name}: {other:?}"),
                }
            }
        }
    };
    let n = bytes.len() as u64;
    // Truncated.
    let (why, e) = reject("cut.kdb", &bytes[..bytes.len() - 1]);
    assert!(
        matches!(why, Unusable::Length { len, needs } if len == n - 1 && needs == n),
        "{why:?}"
    );
    assert!(e.ends_with(&format!(
        "the file is {} bytes long, but its blocks need {n} (truncated or padded)",
        n - 1
    )));
    // Cut inside the blocks, inside the block table, and right after the version.
    let (why, _) = reject("cut.kdb", &bytes[..1000]);
    assert!(
        matches!(why, Unusable::Length { len: 1000, needs } if needs == n),
        "{why:?}"
    );
    let (why, e) = reject("cut.kdb", &bytes[..200]);
    assert!(
        matches!(why, Unusable::ShorterThanHeader { len: 200, header } if header > 200),
        "{why:?}"
    );
    assert!(e.contains("truncated"), "{e}");
    let (why, e) = reject("cut.kdb", &bytes[..20]);
    assert!(matches!(why, Unusable::HeaderCut { len: 20 }), "{why:?}");
    assert!(
        e.ends_with("the file is 20 bytes long, shorter than a header: truncated"),
        "{e}"
    );
    // A flipped byte in the header (the counts).
    let mut b = bytes.clone();
    b[70] ^= 1;
    let (why, e) = reject("hdr.kdb", &b);
    assert!(matches!(why, Unusable::HeaderChecksum), "{why:?}");
    assert!(e.ends_with("the header checksum does not match"), "{e}");
    // Another format version (version 1 was Kinzoku's own format).
    let mut b = bytes.clone();
    b[8..12].copy_from_slice(&1u32.to_le_bytes());
    let (why, e) = reject("v1.kdb", &b);
    assert!(
        matches!(why, Unusable::Version { found: 1, reads: 2 }),
        "{why:?}"
    );
    assert!(
        e.ends_with("format version 1; this kshogi reads version 2 only"),
        "{e}"
    );
    // A flipped byte in a block: the file opens, the block read fails.
    let blk = dir.join("blk.kdb");
    let mut b = bytes.clone();
    let last = b.len() - 10;
    b[last] ^= 0x40;
    std::fs::write(&blk, &b).unwrap();
    let d2 = Database::<KinzokuIndex>::open(&blk).unwrap();
    assert!(d2.load_all(&|_, _| {}).is_err());
    let last_entry = s.index().len() - 1;
    assert_eq!(last_entry / u64::from(db::BLOCK_ENTRIES), 28);
    let e = d2.entry(last_entry).unwrap_err();
    assert!(
        matches!(
            &e,
            DbError::Bad {
                why: Unusable::Decompress { block: 28, .. }
                    | Unusable::BlockLength { block: 28, .. }
                    | Unusable::BlockChecksum { block: 28 },
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("block 28"), "{e}");
    // Not a database at all: too short for a header, and a header without the magic.
    let (why, e) = reject("junk.kdb", b"hello");
    assert!(matches!(why, Unusable::TooShort { len: 5 }), "{why:?}");
    assert!(
        e.ends_with("the file is 5 bytes long, shorter than a header (truncated?)"),
        "{e}"
    );
    let (why, e) = reject("junk.kdb", &[b'x'; 4096]);
    assert!(matches!(why, Unusable::NotADatabase), "{why:?}");
    assert!(e.ends_with("it does not start with KSHOGIDB"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file of one variant is not opened as another's.
#[test]
fn a_database_of_another_variant_is_refused() {
    let dir = scratch("variant");
    let path = dir.join("d.kdb");
    let t = solve(DobutsuIndex::with_kinds([false, false, true]), 2, &|_| {});
    db::write(&t, &path, 2, &|_, _| {}).unwrap();
    assert_eq!(db::variant_of(&path).unwrap(), "dobutsu");
    let d = Database::<DobutsuIndex>::open(&path).unwrap();
    assert_eq!(d.index().kinds(), [false, false, true]);
    let e = Database::<KinzokuIndex>::open(&path)
        .err()
        .expect("a Dobutsu file is no Kinzoku database");
    assert!(
        matches!(&e, DbError::Bad { why: Unusable::OtherVariant { found, want: "kinzoku" }, .. }
            if found == "dobutsu"),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .ends_with("it is a database of `dobutsu`, not of `kinzoku`"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Known small positions, worked out by hand.
#[test]
fn known_positions() {
    use kshogi_core::Kind;
    use kshogi_rules_kinzoku::{GOLD, KING};
    let s = solved(2);
    let v = |pieces: &[(u8, u8, Color, Kind)], side: Color| {
        let mut setup = kshogi_core::Setup::<Kinzoku>::empty();
        for &(f, r, c, k) in pieces {
            setup.put(f, r, c, k);
        }
        setup.side = side;
        let pos = Position::from_setup(&setup).unwrap();
        Table::value(s, &pos).unwrap()
    };
    // Black king 2b, White king 2d: whoever is to move steps onto its farthest rank.
    let kings = [(2, 1, Color::Black, KING), (2, 3, Color::White, KING)];
    assert_eq!(v(&kings, Color::Black), Value::Win(1));
    assert_eq!(v(&kings, Color::White), Value::Win(1));
    // White's king on 2e, its own farthest rank: the game is over, White has won.
    let entered = [(2, 1, Color::Black, KING), (2, 4, Color::White, KING)];
    assert_eq!(v(&entered, Color::Black), Value::Loss(0));
    // Black king 3c, White king 1a, Black gold 2b: the gold gives check, covers 1b and 2a,
    // and the king on 3c protects it, so White to move is checkmated.
    let mate = [
        (3, 2, Color::Black, KING),
        (1, 0, Color::White, KING),
        (2, 1, Color::Black, GOLD),
    ];
    assert_eq!(v(&mate, Color::White), Value::Loss(0));
}
