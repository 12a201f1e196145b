//! Move generation, make/unmake and perft, per variant.
//!
//! Positions: the first rows of each variant in `perft/reference.tsv` (random-game
//! positions from the shared reference) plus the start position.

#![allow(missing_docs)] // criterion_group! defines undocumented public functions

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use kshogi_core::{perft, Position, Variant};
use kshogi_notation::parse_sfen;
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;

fn positions<V: Variant>() -> Vec<Position<V>> {
    let text = include_str!("../../../perft/reference.tsv");
    let mut v = vec![Position::<V>::start()];
    v.extend(
        text.lines()
            .filter(|l| l.starts_with(V::NAME))
            .filter_map(|l| l.split('\t').nth(1))
            .filter_map(|sfen| parse_sfen::<V>(sfen).ok())
            .take(16),
    );
    v
}

fn bench_variant<V: Variant>(c: &mut Criterion, perft_depth: u32) {
    let set = positions::<V>();
    let moves: usize = set.iter().map(|p| p.legal_moves().len()).sum();

    let mut g = c.benchmark_group(format!("{}/movegen", V::NAME));
    g.throughput(Throughput::Elements(moves as u64));
    g.bench_function("legal_moves", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &set {
                n += black_box(p).legal_moves().len();
            }
            n
        })
    });
    g.bench_function("count_legal", |b| {
        b.iter(|| set.iter().map(|p| black_box(p).count_legal()).sum::<u64>())
    });
    g.bench_function("make_unmake", |b| {
        b.iter(|| {
            let mut h = 0u64;
            for p in &set {
                let mut pos = *p;
                for &mv in p.legal_moves().iter() {
                    let undo = pos.make(mv);
                    h ^= pos.hash();
                    pos.unmake(mv, undo);
                }
            }
            h
        })
    });
    g.finish();

    let mut g = c.benchmark_group(format!("{}/perft", V::NAME));
    let mut start = Position::<V>::start();
    let nodes = perft(&mut start, perft_depth);
    g.throughput(Throughput::Elements(nodes));
    g.bench_with_input(
        BenchmarkId::new("start", perft_depth),
        &perft_depth,
        |b, &d| b.iter(|| perft(&mut start, black_box(d))),
    );
    g.finish();
}

fn benches(c: &mut Criterion) {
    bench_variant::<Kyoto>(c, 4);
    bench_variant::<Micro>(c, 4);
    bench_variant::<Kinzoku>(c, 4);
}

criterion_group!(movegen, benches);
criterion_main!(movegen);
