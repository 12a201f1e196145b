//! The reference model of `common/reference.rs` is itself checked against the shared perft
//! table (`perft/reference.tsv`, counts from independent engines), so that agreement between
//! it and core in `random_games.rs` means something. Core's own perft is checked on the same
//! rows (sequential and parallel), and both must agree leaf for leaf on the first ply
//! (divide).

mod common;

use common::reference::{perft as ref_perft, RefPos, Rv};
use kshogi_core::Variant;
use kshogi_core::{divide, divide_parallel, perft, perft_parallel};
use kshogi_notation::{move_to_usi, parse_sfen, to_sfen};
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;

/// Rows up to this many leaves are run (the model is slow on purpose).
const LIMIT: u64 = 250_000;

fn check<V: Variant>(sfen: &str, depth: u32, nodes: u64) {
    let mut pos = parse_sfen::<V>(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    let r = RefPos::from_sfen(Rv::from_name(V::NAME), &to_sfen(&pos));
    assert_eq!(
        ref_perft(&r, depth),
        nodes,
        "reference model: {sfen} depth {depth}"
    );
    assert_eq!(perft(&mut pos, depth), nodes, "core: {sfen} depth {depth}");
    // Divide: the same subtree count under each first move.
    let mut core: Vec<(String, u64)> = divide(&mut pos, depth)
        .into_iter()
        .map(|(m, n)| (move_to_usi::<V>(m), n))
        .collect();
    core.sort();
    let mut model: Vec<(String, u64)> = r
        .legal()
        .iter()
        .map(|m| (m.usi(), ref_perft(&r.apply(m), depth - 1)))
        .collect();
    model.sort();
    assert_eq!(core, model, "divide {sfen} depth {depth}");
    // The parallel versions (two threads) count the same.
    assert_eq!(
        perft_parallel(&pos, depth, 2),
        nodes,
        "parallel: {sfen} {depth}"
    );
    let mut par: Vec<(String, u64)> = divide_parallel(&pos, depth, 2)
        .into_iter()
        .map(|(m, n)| (move_to_usi::<V>(m), n))
        .collect();
    par.sort();
    assert_eq!(par, model, "parallel divide {sfen} depth {depth}");
}

#[test]
fn the_reference_model_reproduces_the_shared_perft_table() {
    let text = include_str!("../../../perft/reference.tsv");
    let mut ran = [0usize; 3];
    for line in text.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 4, "{line}");
        let depth: u32 = f[2].parse().unwrap();
        let nodes: u64 = f[3].parse().unwrap();
        if nodes > LIMIT || depth == 0 {
            continue;
        }
        match f[0] {
            "kyoto" => {
                check::<Kyoto>(f[1], depth, nodes);
                ran[0] += 1;
            }
            "micro" => {
                check::<Micro>(f[1], depth, nodes);
                ran[1] += 1;
            }
            "kinzoku" => {
                check::<Kinzoku>(f[1], depth, nodes);
                ran[2] += 1;
            }
            // The model covers the three seed variants only; core's counts for these rows
            // are checked in crates/notation/tests/reference_perft.rs.
            "minishogi" | "dobutsu" | "tori" => {}
            v => panic!("unknown variant {v}"),
        }
    }
    eprintln!("rows checked (kyoto, micro, kinzoku): {ran:?}");
    assert!(ran.iter().all(|&n| n >= 10), "{ran:?}");
}
