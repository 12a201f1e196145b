//! Time management for the USI `go` command: how long to think about one move.
//!
//! The engine is given the result as its hard time limit ([`kshogi_engine::Limits::time`]),
//! and the USI loop also raises the search's stop flag when it runs out, so a search never
//! runs past it by more than the engine's reaction time (1 to 4 ms measured on the 2-core
//! development machine). The rule never allots more than the time left on the clock plus
//! the byoyomi period, less the move overhead (the `Move_Overhead` option) kept for the
//! round trip to the GUI, so the engine does not lose on time.

use kshogi_core::Color;
pub use kshogi_usi_protocol::Clock;
use std::time::Duration;

/// The default move overhead: time kept back from every allotment for the round trip to
/// the GUI and the start and end of the search, in milliseconds (the `Move_Overhead`
/// option; 10 ms, as the reference engine's `Move Overhead`).
pub const DEFAULT_OVERHEAD_MS: u64 = 10;

/// The largest move overhead accepted, in milliseconds.
pub const MAX_OVERHEAD_MS: u64 = 5000;

/// The smallest allotment when the clock allows more (milliseconds): below this the search
/// would not finish even one shallow iteration.
pub const MIN_THINK_MS: u64 = 10;

/// The largest allotment (milliseconds): a week, the longest think time the protocol
/// accepts. Larger clock values are accepted but thinking longer than this is never useful,
/// and it keeps deadlines far from overflow.
pub use kshogi_usi_protocol::MAX_THINK_MS;

// The time allotted to one move is the analysis service's `Allotment`, which it plans a
// `go` with.
pub use kshogi_analysis::job::Allotment;

/// The fraction of the time drawn from the bank (the remaining time and the increment) after
/// which no new iteration starts, in percent: an iteration takes about twice the time of the
/// one before, so one started later would seldom end within the target.
pub const SOFT_PERCENT: u64 = 60;

/// How many times the target's share of the bank an iteration that has begun may take before
/// the search stops it.
pub const HARD_FACTOR: u64 = 3;

/// How long the side to move (`side`) may think, or `None` when the clock gives no limit;
/// `overhead` is the move overhead `O` in milliseconds ([`DEFAULT_OVERHEAD_MS`] unless the
/// GUI sets `Move_Overhead`).
///
/// - `movetime M`: `M` as the hard limit and no soft one, the overhead not taken off: the
///   command asks for a search of that length, and the reference engine searches the whole
///   of it too (the answer comes the engine's reaction time after it). The overhead guards
///   clocks, where a late answer loses.
/// - Otherwise, with `R` the side's remaining time, `I` its increment and `B` the byoyomi
///   (absent fields count 0), the time drawn from the bank is `K = R/30 + 0.8*I` and the
///   byoyomi's share, lost if unused, `F = 0.9*B`:
///   - target `K + F - O`, raised to at least 10 ms;
///   - soft `0.6*K + F - O` (no new iteration after it);
///   - hard `3*K + F - O`;
///
///   each capped at `R + B - O` (0 when that is negative), soft at most the target and hard at
///   least it. The increment is credited only after the move, so it never raises the cap.
///   Under byoyomi alone (`R = 0`) the three are one: the byoyomi is used, never saved.
///
/// Either way the result is at most a week ([`MAX_THINK_MS`]).
pub fn allocate(clock: &Clock, side: Color, overhead: u64) -> Option<Allotment> {
    let ms = |m: u64| Duration::from_millis(m.min(MAX_THINK_MS));
    if let Some(m) = clock.movetime {
        return Some(Allotment {
            soft: None,
            hard: ms(m),
            target: ms(m),
        });
    }
    if !clock.is_set() {
        return None;
    }
    let (remaining, increment) = match side {
        Color::Black => (clock.btime, clock.binc),
        Color::White => (clock.wtime, clock.winc),
    };
    let remaining = remaining.unwrap_or(0);
    let increment = increment.unwrap_or(0);
    let byoyomi = clock.byoyomi.unwrap_or(0);
    let cap = remaining.saturating_add(byoyomi).saturating_sub(overhead);
    let bank = (remaining / 30).saturating_add(increment / 5 * 4 + increment % 5 * 4 / 5);
    let free = byoyomi / 10 * 9 + byoyomi % 10 * 9 / 10;
    let with = |share: u64| share.saturating_add(free).saturating_sub(overhead);
    let floor = MIN_THINK_MS.min(cap);
    let target = with(bank).clamp(floor, cap);
    let soft = with(bank / 100 * SOFT_PERCENT + bank % 100 * SOFT_PERCENT / 100).min(target);
    let hard = with(bank.saturating_mul(HARD_FACTOR)).clamp(target, cap);
    Some(Allotment {
        soft: Some(ms(soft)),
        hard: ms(hard),
        target: ms(target),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tests below work with a 50 ms overhead, so that its effect stands out.
    const O: u64 = 50;

    /// (soft, hard, target) in milliseconds.
    fn with(clock: Clock, side: Color, overhead: u64) -> (Option<u64>, u64, u64) {
        let a = allocate(&clock, side, overhead).expect("a time limit");
        let m = |d: Duration| u64::try_from(d.as_millis()).unwrap();
        (a.soft.map(m), m(a.hard), m(a.target))
    }

    fn ms(clock: Clock, side: Color) -> (Option<u64>, u64, u64) {
        with(clock, side, O)
    }

    fn movetime(m: u64) -> Clock {
        Clock {
            movetime: Some(m),
            ..Clock::default()
        }
    }

    #[test]
    fn movetime_with_the_default_and_no_overhead() {
        let d = DEFAULT_OVERHEAD_MS;
        assert_eq!(d, 10);
        // The whole move time, whatever the overhead, and no soft limit.
        assert_eq!(with(movetime(100), Color::Black, d), (None, 100, 100));
        assert_eq!(with(movetime(1000), Color::White, d), (None, 1000, 1000));
        assert_eq!(with(movetime(5), Color::Black, d), (None, 5, 5));
        assert_eq!(with(movetime(100), Color::Black, 0), (None, 100, 100));
        assert_eq!(with(movetime(0), Color::Black, 0), (None, 0, 0));
        assert_eq!(
            with(movetime(100), Color::Black, MAX_OVERHEAD_MS),
            (None, 100, 100)
        );
        // The clock rule takes the overhead off: K = 60000/30 = 2000; soft 1200 - 10,
        // target 2000 - 10, hard 6000 - 10.
        let c = Clock {
            btime: Some(60_000),
            ..Clock::default()
        };
        assert_eq!(with(c, Color::Black, d), (Some(1190), 5990, 1990));
    }

    #[test]
    fn no_clock_no_limit() {
        assert_eq!(allocate(&Clock::default(), Color::Black, O), None);
    }

    #[test]
    fn movetime_is_searched_in_full() {
        let c = |m| Clock {
            movetime: Some(m),
            // movetime wins over the clock.
            btime: Some(600_000),
            ..Clock::default()
        };
        assert_eq!(ms(c(1000), Color::Black), (None, 1000, 1000));
        assert_eq!(ms(c(101), Color::White), (None, 101, 101));
        assert_eq!(ms(c(1), Color::Black), (None, 1, 1));
        assert_eq!(ms(c(0), Color::Black), (None, 0, 0));
        // Capped at a week.
        assert_eq!(
            ms(c(u64::MAX), Color::Black),
            (None, MAX_THINK_MS, MAX_THINK_MS)
        );
    }

    #[test]
    fn sudden_death_uses_the_side_to_move_clock() {
        let c = Clock {
            btime: Some(60_000),
            wtime: Some(30_000),
            ..Clock::default()
        };
        // K = 2000: soft 1200 - 50, target 2000 - 50, hard 6000 - 50.
        assert_eq!(ms(c, Color::Black), (Some(1150), 5950, 1950));
        // K = 1000: 600 - 50, 1000 - 50, 3000 - 50.
        assert_eq!(ms(c, Color::White), (Some(550), 2950, 950));
    }

    #[test]
    fn byoyomi_only_is_used_whole() {
        let c = Clock {
            btime: Some(0),
            wtime: Some(0),
            byoyomi: Some(10_000),
            ..Clock::default()
        };
        // K = 0, F = 9000: all three 9000 - 50 (the cap, 10000 - 50, is not reached).
        assert_eq!(ms(c, Color::Black), (Some(8950), 8950, 8950));
        // Without btime/wtime at all: the same.
        let c = Clock {
            byoyomi: Some(10_000),
            ..Clock::default()
        };
        assert_eq!(ms(c, Color::White), (Some(8950), 8950, 8950));
        // A 1 s byoyomi: 900 - 50 = 850.
        let c = Clock {
            byoyomi: Some(1_000),
            ..Clock::default()
        };
        assert_eq!(ms(c, Color::Black), (Some(850), 850, 850));
    }

    #[test]
    fn main_time_plus_byoyomi() {
        let c = Clock {
            btime: Some(600_000),
            wtime: Some(600_000),
            byoyomi: Some(30_000),
            ..Clock::default()
        };
        // K = 20000, F = 27000: soft 12000 + 27000 - 50, target 20000 + 27000 - 50, hard
        // 60000 + 27000 - 50.
        assert_eq!(ms(c, Color::White), (Some(38_950), 86_950, 46_950));
    }

    #[test]
    fn increment() {
        let c = Clock {
            btime: Some(3_000),
            wtime: Some(3_000),
            binc: Some(2_000),
            winc: Some(1_000),
            ..Clock::default()
        };
        // Black: K = 100 + 1600 = 1700: soft 1020 - 50, target 1700 - 50, hard 5100 - 50
        // capped at 3000 - 50 = 2950.
        assert_eq!(ms(c, Color::Black), (Some(970), 2950, 1650));
        // White: K = 100 + 800 = 900: 540 - 50, 900 - 50, 2700 - 50.
        assert_eq!(ms(c, Color::White), (Some(490), 2650, 850));
        // A large increment with little time left: capped at remaining - margin, since
        // the increment only arrives after the move.
        let c = Clock {
            btime: Some(1_000),
            binc: Some(10_000),
            ..Clock::default()
        };
        // K = 33 + 8000: target and hard capped at 950; soft 4819 - 50 capped at the target.
        assert_eq!(ms(c, Color::Black), (Some(950), 950, 950));
    }

    #[test]
    fn ten_seconds_and_a_tenth() {
        // The clock of the target, at the first move: K = 333 + 80 = 413 with the
        // default overhead of 10 ms: soft 247 - 10 (0.6 * 413 = 247.8, rounded down),
        // target 413 - 10, hard 1239 - 10.
        let c = Clock {
            btime: Some(10_000),
            wtime: Some(10_000),
            binc: Some(100),
            winc: Some(100),
            ..Clock::default()
        };
        assert_eq!(with(c, Color::White, 10), (Some(237), 1229, 403));
    }

    #[test]
    fn tiny_remaining_time() {
        let c = |b| Clock {
            btime: Some(b),
            wtime: Some(b),
            ..Clock::default()
        };
        // 100 ms: target 3 - 50 < 0, raised to the 10 ms floor (cap 50); soft 0; hard
        // 9 - 50 < 0, raised to the target.
        assert_eq!(ms(c(100), Color::Black), (Some(0), 10, 10));
        // 55 ms: cap 5 ms, below the floor.
        assert_eq!(ms(c(55), Color::Black), (Some(0), 5, 5));
        // Less than the margin left, or nothing: 0 (search as little as possible).
        assert_eq!(ms(c(30), Color::Black), (Some(0), 0, 0));
        assert_eq!(ms(c(0), Color::Black), (Some(0), 0, 0));
        let c = Clock {
            btime: Some(0),
            byoyomi: Some(0),
            ..Clock::default()
        };
        assert_eq!(ms(c, Color::Black), (Some(0), 0, 0));
    }

    #[test]
    fn never_more_than_remaining_plus_byoyomi_minus_margin() {
        let values = [
            0, 1, 10, 49, 50, 51, 99, 100, 500, 1_000, 9_999, 60_000, 3_600_000,
        ];
        for &r in &values {
            for &b in &values {
                for &i in &values {
                    let c = Clock {
                        btime: Some(r),
                        wtime: Some(r),
                        byoyomi: Some(b),
                        binc: Some(i),
                        winc: Some(i),
                        movetime: None,
                    };
                    let (soft, hard, target) = ms(c, Color::Black);
                    let cap = (r + b).saturating_sub(O);
                    assert!(hard <= cap, "r {r} b {b} i {i}: {hard} > {cap}");
                    let soft = soft.expect("a clock has a soft limit");
                    assert!(soft <= target && target <= hard, "r {r} b {b} i {i}");
                    assert_eq!((Some(soft), hard, target), ms(c, Color::White));
                    if cap >= MIN_THINK_MS {
                        assert!(target >= MIN_THINK_MS, "r {r} b {b} i {i}: {target}");
                    }
                }
            }
        }
    }

    #[test]
    fn huge_values_do_not_overflow() {
        let c = Clock {
            btime: Some(u64::MAX),
            byoyomi: Some(u64::MAX),
            binc: Some(u64::MAX),
            ..Clock::default()
        };
        let (soft, hard, target) = ms(c, Color::Black);
        assert_eq!((hard, target), (MAX_THINK_MS, MAX_THINK_MS));
        assert_eq!(soft, Some(MAX_THINK_MS));
    }
}
