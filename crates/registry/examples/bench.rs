//! Fixed-depth searches from each variant's start position, with nodes per second.
//!
//! `cargo run --release -p kshogi-registry --example bench [--threads N] [DEPTH_KYOTO DEPTH_MICRO
//! DEPTH_KINZOKU]` (default depths 10, 11 and 18; one thread; a 64 MiB table, cleared at the
//! start of each search). With more than one thread the node counts vary from run to run.

use kshogi_core::{Game, Position};
use kshogi_engine::Limits;
use kshogi_notation::move_to_usi;
use kshogi_registry::{EngineFor, Registered};
use std::sync::atomic::AtomicBool;

fn bench<V: Registered>(depth: u32, threads: usize) {
    let game = Game::new(Position::<V>::start());
    let mut engine = EngineFor::<V>::new(64);
    engine.set_threads(threads);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = engine.search(&game, &limits, 1, &stop, &mut |_| {});
    let secs = r.time.as_secs_f64().max(1e-9);
    let line = &r.lines[0];
    let pv: Vec<String> = line.pv.iter().map(|&m| move_to_usi::<V>(m)).collect();
    println!(
        "{:8} depth {:2} nodes {:>11} time {:>8.3}s nps {:>10.0} score {:?} pv {}",
        V::NAME,
        r.depth,
        r.nodes,
        secs,
        r.nodes as f64 / secs,
        line.score,
        pv.join(" ")
    );
}

fn main() {
    let mut threads = 1;
    let mut depths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--threads" {
            threads = args
                .next()
                .and_then(|n| n.parse().ok())
                .expect("--threads takes a number");
        } else {
            depths.push(a.parse::<u32>().expect("a depth is a number"));
        }
    }
    let d = |i: usize, default: u32| depths.get(i).copied().unwrap_or(default);
    bench::<kshogi_rules_kyoto::Kyoto>(d(0, 10), threads);
    bench::<kshogi_rules_micro::Micro>(d(1, 11), threads);
    bench::<kshogi_rules_kinzoku::Kinzoku>(d(2, 18), threads);
}
