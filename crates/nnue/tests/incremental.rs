//! The incremental accumulator equals a fresh one after every make and unmake, in random
//! games of every built-in variant (board moves, captures to hand, flips and promotions,
//! drops).

use kshogi_core::rng::SplitMix64;
use kshogi_core::{Position, Variant};
use kshogi_nnue::{Accumulator, FloatNet, Layout, Network};

#[derive(Default, Debug)]
struct Seen {
    checks: usize,
    captures: usize,
    drops: usize,
    flips: usize,
}

fn fresh<V: Variant>(net: &Network<V>, pos: &Position<V>) -> Accumulator {
    let mut acc = Accumulator::default();
    net.refresh(pos, &mut acc);
    acc
}

fn random_games<V: Variant>(games: u64) -> (Seen, Layout) {
    let layout = Layout::of::<V>();
    // A random net: its rows differ, so a wrong feature shows in the sums.
    let net: Network<V> = FloatNet::new(layout.features(), 24, 17)
        .quantise(200)
        .expect("valid net");
    let mut seen = Seen::default();
    for g in 0..games {
        let mut rng = SplitMix64::new(0x5EED ^ g);
        let mut pos = Position::<V>::start();
        let mut acc = fresh(&net, &pos);
        for _ in 0..160 {
            if pos.outcome().is_some() {
                break;
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Try a few moves and take each back, then play one.
            for _ in 0..3 {
                let mv = moves[rng.below(moves.len())];
                let before = pos;
                let mut a = acc;
                net.update(&mut a, &pos, mv);
                let undo = pos.make(mv);
                assert_eq!(a, fresh(&net, &pos), "{} after {mv:?}", V::NAME);
                pos.unmake(mv, undo);
                assert_eq!(pos, before);
                net.revert(&mut a, &pos, mv);
                assert_eq!(a, acc, "{} after taking back {mv:?}", V::NAME);
                seen.checks += 2;
            }
            let mv = moves[rng.below(moves.len())];
            if mv.is_drop() {
                seen.drops += 1;
            } else {
                if pos.piece_at(mv.to()).is_some() {
                    seen.captures += 1;
                }
                if mv.is_flip() {
                    seen.flips += 1;
                }
            }
            net.update(&mut acc, &pos, mv);
            pos.make(mv);
            assert_eq!(acc, fresh(&net, &pos), "{} after {mv:?}", V::NAME);
            seen.checks += 1;
        }
    }
    (seen, layout)
}

fn check<V: Variant>() {
    let (seen, layout) = random_games::<V>(12);
    assert!(seen.checks > 500, "{}: {seen:?}", V::NAME);
    assert!(seen.captures > 10, "{}: {seen:?}", V::NAME);
    assert!(seen.flips > 0, "{}: {seen:?}", V::NAME);
    if layout.slots > 0 {
        assert!(seen.drops > 10, "{}: {seen:?}", V::NAME);
    }
}

#[test]
fn kyoto() {
    check::<kshogi_rules_kyoto::Kyoto>();
}

#[test]
fn micro() {
    check::<kshogi_rules_micro::Micro>();
}

#[test]
fn kinzoku() {
    check::<kshogi_rules_kinzoku::Kinzoku>();
}

#[test]
fn minishogi() {
    check::<kshogi_rules_minishogi::Minishogi>();
}

#[test]
fn tori() {
    check::<kshogi_rules_tori::Tori>();
}

#[test]
fn dobutsu() {
    check::<kshogi_rules_dobutsu::Dobutsu>();
}
