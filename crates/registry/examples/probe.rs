//! Searches one position and prints the lines, for looking at the engine by hand.
//!
//! `cargo run --release -p kshogi-registry --example probe -- kyoto|micro|kinzoku POSITION DEPTH [MULTIPV]`
//! or, for the mate solver, `... POSITION NODES solve`.

use kshogi_core::Game;
use kshogi_engine::Limits;
use kshogi_notation::{move_to_usi, parse_game};
use kshogi_registry::{EngineFor, Registered};
use std::sync::atomic::AtomicBool;

fn run<V: Registered>(pos: &str, d: u32, k: usize) {
    let game: Game<V> = parse_game::<V>(pos).unwrap();
    let mut e = EngineFor::<V>::new(16);
    let stop = AtomicBool::new(false);
    let lim = Limits {
        depth: Some(d),
        ..Limits::default()
    };
    let r = e.search(&game, &lim, k, &stop, &mut |_| {});
    for l in &r.lines {
        let pv: Vec<String> = l.pv.iter().map(|&m| move_to_usi::<V>(m)).collect();
        println!("{:?} {}", l.score, pv.join(" "));
    }
    println!("nodes {} time {:?}", r.nodes, r.time);
}

fn mate<V: Registered>(pos: &str, nodes: u64) {
    let game: Game<V> = parse_game::<V>(pos).unwrap();
    let stop = AtomicBool::new(false);
    let t = std::time::Instant::now();
    let r = kshogi_engine::mate::solve::<V, V::Eval>(game.position(), nodes, &stop);
    match r {
        kshogi_engine::mate::MateResult::Mate { plies, pv } => {
            let pv: Vec<String> = pv.iter().map(|&m| move_to_usi::<V>(m)).collect();
            println!("mate in {plies}: {}", pv.join(" "));
        }
        other => println!("{other:?}"),
    }
    println!("time {:?}", t.elapsed());
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() > 4 && a[4] == "solve" {
        let nodes: u64 = a[3].parse().unwrap();
        match a[1].as_str() {
            "kyoto" => mate::<kshogi_rules_kyoto::Kyoto>(&a[2], nodes),
            "micro" => mate::<kshogi_rules_micro::Micro>(&a[2], nodes),
            _ => mate::<kshogi_rules_kinzoku::Kinzoku>(&a[2], nodes),
        }
        return;
    }
    let d: u32 = a[3].parse().unwrap();
    let k: usize = a.get(4).map(|s| s.parse().unwrap()).unwrap_or(1);
    match a[1].as_str() {
        "kyoto" => run::<kshogi_rules_kyoto::Kyoto>(&a[2], d, k),
        "micro" => run::<kshogi_rules_micro::Micro>(&a[2], d, k),
        _ => run::<kshogi_rules_kinzoku::Kinzoku>(&a[2], d, k),
    }
}
