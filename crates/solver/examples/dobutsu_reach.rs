//! Counts the Dobutsu positions reachable from the start without solving (no table, so no
//! values): `cargo run --release -p kshogi-solver --example dobutsu_reach -- [every|capture-first]
//! [THREADS]`. A development tool for the reconciliation with Tanaka's count in
//! docs/dobutsu-solution.md; `kshogi solve dobutsu` counts with the values.
use kshogi_core::Position;
use kshogi_rules_dobutsu::Dobutsu;
use kshogi_solver::dobutsu::DobutsuIndex;
use kshogi_solver::generic::Indexed as _;
use kshogi_solver::reachable::{count, reach_memory, Rule, Tally};
use std::time::Instant;

fn show(name: &str, t: &Tally) {
    println!(
        "  {name:<34} {:>13} positions: {:>13} king capturable, {:>11} decided (try), {:>7} no move, {:>13} others",
        t.positions,
        t.king_capturable,
        t.decided,
        t.no_move,
        t.others()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rule = match args.get(1).map(String::as_str) {
        None | Some("every") => Rule::Every,
        Some("capture-first") => Rule::CaptureFirst,
        Some(x) => panic!("unknown rule `{x}` (every, capture-first)"),
    };
    let threads: usize = args
        .get(2)
        .map_or(2, |a| a.parse().expect("a thread count"));
    let ix = DobutsuIndex::full();
    eprintln!(
        "{rule:?}: {} entries, {:.2} GiB of bitsets",
        ix.len(),
        reach_memory(ix.len()) as f64 / (1u64 << 30) as f64
    );
    let t0 = Instant::now();
    let r = count(
        &ix,
        None,
        &Position::<Dobutsu>::start(),
        rule,
        threads,
        &|ply, n| {
            eprintln!("{:8.1}s ply {ply}: {n} new", t0.elapsed().as_secs_f64());
        },
    )
    .expect("the start has an entry");
    println!(
        "rule {:?}, {} plies, {:.1} s",
        r.rule,
        r.per_ply.len(),
        t0.elapsed().as_secs_f64()
    );
    show("side and mirror distinguished", &r.distinct);
    show("mirror images identified", &r.mirror_identified);
    show("colour-swapped images identified", &r.colour_identified);
    show("both identified (entries)", &r.entries);
    println!("  positions after a lion capture    {:>13}", r.beyond);
    println!("  per ply {:?}", r.per_ply);
}
