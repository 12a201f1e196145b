//! SFEN parsing and printing over the positions of `perft/reference.tsv`.

#![allow(missing_docs)] // criterion_group! defines undocumented public functions

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use kshogi_core::Variant;
use kshogi_notation::{parse_sfen, to_sfen};
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;

fn bench_variant<V: Variant>(c: &mut Criterion) {
    let text = include_str!("../../../perft/reference.tsv");
    let sfens: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with(V::NAME))
        .filter_map(|l| l.split('\t').nth(1))
        .collect();
    let positions: Vec<_> = sfens
        .iter()
        .filter_map(|s| parse_sfen::<V>(s).ok())
        .collect();
    let mut g = c.benchmark_group(format!("{}/sfen", V::NAME));
    g.throughput(Throughput::Elements(sfens.len() as u64));
    g.bench_function("parse", |b| {
        b.iter(|| {
            sfens
                .iter()
                .filter(|s| parse_sfen::<V>(black_box(s)).is_ok())
                .count()
        })
    });
    g.bench_function("print", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| to_sfen(black_box(p)).len())
                .sum::<usize>()
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    bench_variant::<Kyoto>(c);
    bench_variant::<Micro>(c);
    bench_variant::<Kinzoku>(c);
}

criterion_group!(sfen, benches);
criterion_main!(sfen);
