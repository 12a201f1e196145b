//! Prints what docs/kinzoku-solution.md reports from a Kinzoku database file: the start
//! position's value, one optimal line, the counts of the database, and a position with the
//! longest win.
//!
//! `cargo run --release -p kshogi-solver --example report -- <kinzoku db file>`
use kshogi_core::{Game, Position};
use kshogi_notation::{move_to_usi, to_sfen};
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_solver::db::{Database, Loaded, Probe};
use kshogi_solver::{optimal_line, Entry, Indexed, KinzokuIndex, Value};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = std::path::PathBuf::from(&args[1]);
    let t0 = Instant::now();
    let db = Database::<KinzokuIndex>::open(&path).expect("database opens");
    let table = db.load_all(&|_, _| {}).expect("database loads");
    eprintln!("loaded in {:.1} s", t0.elapsed().as_secs_f64());
    println!("summary: {:?}", db.summary());
    let start = Position::<Kinzoku>::start();
    let (v, moves) = table
        .moves(&start)
        .expect("a loaded file reads")
        .expect("start covered");
    println!("start: {v}");
    for (m, mv) in &moves {
        println!("  {} -> {mv}", move_to_usi::<Kinzoku>(*m));
    }
    print_line(&table, &start);
    for (m, mv) in &moves {
        if *mv != Value::Draw {
            println!("after {}:", move_to_usi::<Kinzoku>(*m));
            print_line(&table, &start.after(*m));
        }
    }
    let s = db.summary();
    println!("longest win: {}", s.longest_win);
    // One position with the longest win: scan for it.
    for i in 0..table.index().len() {
        if table.entry(i) == Entry::Value(Value::Win(s.longest_win as u16)) {
            let pos = table
                .index()
                .position(i)
                .expect("a won entry holds a position");
            println!("longest win at {}", to_sfen(&pos));
            print_line(&table, &pos);
            break;
        }
    }
}

fn print_line(table: &Loaded<KinzokuIndex>, pos: &Position<Kinzoku>) {
    let line = optimal_line(table, pos, 300).expect("line");
    let mut game = Game::new(*pos);
    let mut text = Vec::new();
    for (m, _) in &line {
        text.push(move_to_usi::<Kinzoku>(*m));
        game.play(*m).unwrap();
    }
    println!("optimal line ({} plies): {}", line.len(), text.join(" "));
    println!(
        "final position: {} outcome {:?}",
        to_sfen(game.position()),
        game.outcome()
    );
}
