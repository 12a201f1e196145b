//! The engine allocates nothing per node (docs/ARCHITECTURE.md, `crates/engine`'s
//! invariant): searches of every built-in variant with its registered evaluator (the nets
//! of Kyoto, Micro and Minishogi, the linear evaluations of Kinzoku and Dobutsu) are run
//! while `allocation-counter` counts the allocations of this thread (a one-thread search
//! runs on the caller's thread), and the allocations a search makes must not grow with its
//! nodes.
//!
//! A search allocates a little per search and per iteration (its result, its lines, the
//! info it reports); one allocation per node, or even per thousand nodes, fails the test.
//! The counting allocator is `allocation-counter`'s (the workspace forbids `unsafe`, which
//! a `GlobalAlloc` needs); this file is a test binary of its own.

use kshogi_core::{Game, Position};
use kshogi_engine::Limits;
use kshogi_registry::{EngineFor, Registered};
use kshogi_rules_dobutsu::Dobutsu;
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;
use kshogi_rules_minishogi::Minishogi;
use std::sync::atomic::AtomicBool;

/// The allocations of a one-thread search of `nodes` nodes from the start position, and
/// the nodes it searched. The engine is made, and searched once, before counting starts.
fn count<V: Registered>(nodes: u64) -> (u64, u64) {
    let game = Game::new(Position::<V>::start());
    let stop = AtomicBool::new(false);
    let mut engine = EngineFor::<V>::new(4);
    let limits = |n| Limits {
        nodes: Some(n),
        ..Limits::default()
    };
    engine.search(&game, &limits(1000), 1, &stop, &mut |_| {});
    engine.clear();
    let mut searched = 0;
    let info = allocation_counter::measure(|| {
        searched = engine
            .search(&game, &limits(nodes), 1, &stop, &mut |_| {})
            .nodes;
    });
    (info.count_total, searched)
}

fn check<V: Registered>() {
    let (small, small_nodes) = count::<V>(5_000);
    let (large, large_nodes) = count::<V>(100_000);
    // The larger search must have searched many more nodes, or the test measures nothing.
    assert!(
        large_nodes > small_nodes + 50_000,
        "{}: {small_nodes} and {large_nodes} nodes",
        V::NAME
    );
    let extra_nodes = large_nodes - small_nodes;
    let extra = large.saturating_sub(small);
    assert!(
        extra * 1000 < extra_nodes,
        "{}: {extra} more allocations for {extra_nodes} more nodes ({small} allocations in \
         {small_nodes} nodes, {large} in {large_nodes})",
        V::NAME
    );
    // And a search as a whole allocates a small fixed amount, not one per node.
    assert!(
        large * 100 < large_nodes,
        "{}: {large} allocations in {large_nodes} nodes",
        V::NAME
    );
}

#[test]
fn a_search_allocates_nothing_per_node_in_any_built_in_variant() {
    check::<Kyoto>();
    check::<Micro>();
    check::<Minishogi>();
    check::<Kinzoku>();
    check::<Dobutsu>();
}
