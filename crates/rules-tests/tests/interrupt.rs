//! Interruptible parallel perft: an untouched stop flag changes nothing, a set one ends the
//! count promptly and marks unfinished root moves.

use kshogi_core::{divide, divide_interruptible, Position};
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[test]
fn without_stop_it_equals_divide() {
    let pos = Position::<Kyoto>::start();
    let stop = AtomicBool::new(false);
    let got = divide_interruptible(&pos, 4, 2, &stop);
    let want = divide(&mut pos.clone(), 4);
    assert_eq!(got.len(), want.len());
    for ((m1, n1), (m2, n2)) in got.iter().zip(&want) {
        assert_eq!(m1, m2);
        assert_eq!(*n1, Some(*n2));
    }
    // Kyoto start depth 4 is 18268 in the shared reference table.
    assert_eq!(got.iter().map(|(_, n)| n.unwrap()).sum::<u64>(), 18268);
}

#[test]
fn a_set_flag_counts_nothing_deep() {
    let pos = Position::<Kyoto>::start();
    let stop = AtomicBool::new(true);
    let got = divide_interruptible(&pos, 5, 2, &stop);
    assert_eq!(got.len(), 12);
    assert!(got.iter().all(|(_, n)| n.is_none()));
}

#[test]
fn stopping_mid_count_returns_promptly() {
    // Kinzoku depth 14 from the start takes far longer than this test waits.
    let pos = Position::<Kinzoku>::start();
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let got = std::thread::scope(|s| {
        let handle = s.spawn(|| divide_interruptible(&pos, 14, 2, &stop));
        std::thread::sleep(Duration::from_millis(100));
        stop.store(true, Ordering::Relaxed);
        handle.join().unwrap()
    });
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(got.len(), 7);
    assert!(got.iter().any(|(_, n)| n.is_none()));
}
