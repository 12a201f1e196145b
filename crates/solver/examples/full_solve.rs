//! Solves the whole game and writes the database, printing progress: a development tool;
//! the user's command is `kshogi solve kinzoku`.
use kshogi_solver::retro::{solve, Options, Phase};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let max_pieces: usize = args.get(1).map_or(6, |a| a.parse().expect("a number"));
    let out = args.get(2).cloned();
    let t0 = Instant::now();
    let last = std::sync::Mutex::new(Instant::now());
    let s = solve(
        Options {
            threads: 2,
            max_pieces,
        },
        &|p| {
            let mut l = last.lock().unwrap();
            if l.elapsed().as_secs_f64() > 5.0
                || (p.done == p.total && matches!(p.phase, Phase::Start))
            {
                *l = Instant::now();
                eprintln!(
                    "{:7.1}s {:?} {}/{} resolved {}",
                    t0.elapsed().as_secs_f64(),
                    p.phase,
                    p.done,
                    p.total,
                    p.resolved
                );
            }
        },
    );
    eprintln!("{:#?}", s.stats());
    if let Some(out) = out {
        let w = kshogi_solver::db::write(&s, std::path::Path::new(&out), 2, &|_, _| {}).unwrap();
        eprintln!(
            "wrote {} bytes, width {} at {:.1}s",
            w.bytes,
            w.width,
            t0.elapsed().as_secs_f64()
        );
    }
}
