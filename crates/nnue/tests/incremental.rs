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

/// [`Network::update_between`] from one position of a game to another a few plies away
/// (or the start) equals a fresh accumulator, whether it updates or refreshes.
fn between<V: Variant>() {
    let layout = Layout::of::<V>();
    let net: Network<V> = FloatNet::new(layout.features(), 16, 5)
        .quantise(200)
        .expect("valid net");
    let mut updated = 0;
    for g in 0..6u64 {
        let mut rng = SplitMix64::new(0xB7 ^ g);
        let mut history = vec![Position::<V>::start()];
        let mut pos = history[0];
        for _ in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            pos = pos.after(moves[rng.below(moves.len())]);
            history.push(pos);
        }
        let mut last = history[0];
        let mut acc = fresh(&net, &last);
        for _ in 0..200 {
            let next = history[rng.below(history.len())];
            if net.update_between(&mut acc, &last, &next, 6) {
                updated += 1;
            }
            assert_eq!(acc, fresh(&net, &next), "{}", V::NAME);
            last = next;
        }
    }
    assert!(updated > 20, "{}: only {updated} updates", V::NAME);
}

#[test]
fn between_positions_in_every_variant() {
    between::<kshogi_rules_kyoto::Kyoto>();
    between::<kshogi_rules_micro::Micro>();
    between::<kshogi_rules_kinzoku::Kinzoku>();
    between::<kshogi_rules_minishogi::Minishogi>();
    between::<kshogi_rules_tori::Tori>();
    between::<kshogi_rules_dobutsu::Dobutsu>();
}
