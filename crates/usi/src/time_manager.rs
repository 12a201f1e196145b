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

/// How long the side to move (`side`) may think, or `None` when the clock gives no limit;
/// `overhead` is the move overhead `O` in milliseconds ([`DEFAULT_OVERHEAD_MS`] unless the
/// GUI sets `Move_Overhead`).
///
/// - `movetime M`: `M`, the overhead not taken off: the command asks for a search of that
///   length, and the reference engine searches the whole of it too (the answer comes the
///   engine's reaction time after it). The overhead guards clocks, where a late answer
///   loses.
/// - Otherwise, with `R` the side's remaining time, `I` its increment and `B` the byoyomi
///   (absent fields count 0): the target `R/30 + 0.8*I + 0.9*B - O`, raised to at least
///   10 ms and then capped at `R + B - O` (0 when that is negative). The increment is
///   credited only after the move, so it never raises the cap.
///
/// Either way the result is at most a week ([`MAX_THINK_MS`]).
pub fn allocate(clock: &Clock, side: Color, overhead: u64) -> Option<Duration> {
    if let Some(m) = clock.movetime {
        return Some(Duration::from_millis(m.min(MAX_THINK_MS)));
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
    let target = (remaining / 30)
        .saturating_add(increment / 5 * 4 + increment % 5 * 4 / 5)
        .saturating_add(byoyomi / 10 * 9 + byoyomi % 10 * 9 / 10)
        .saturating_sub(overhead);
    let floor = MIN_THINK_MS.min(cap);
    Some(Duration::from_millis(
        target.clamp(floor, cap).min(MAX_THINK_MS),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(clock: Clock, side: Color) -> u64 {
        with(clock, side, O)
    }

    /// The tests below work with a 50 ms overhead, so that its effect stands out.
    const O: u64 = 50;

    fn with(clock: Clock, side: Color, overhead: u64) -> u64 {
        let d = allocate(&clock, side, overhead).expect("a time limit");
        u64::try_from(d.as_millis()).unwrap()
    }

    #[test]
    fn movetime_with_the_default_and_no_overhead() {
        let c = |m| Clock {
            movetime: Some(m),
            ..Clock::default()
        };
        let d = DEFAULT_OVERHEAD_MS;
        assert_eq!(d, 10);
        // The whole move time, whatever the overhead.
        assert_eq!(with(c(100), Color::Black, d), 100);
        assert_eq!(with(c(1000), Color::White, d), 1000);
        assert_eq!(with(c(5), Color::Black, d), 5);
        assert_eq!(with(c(100), Color::Black, 0), 100);
        assert_eq!(with(c(0), Color::Black, 0), 0);
        assert_eq!(with(c(100), Color::Black, MAX_OVERHEAD_MS), 100);
        // The clock rule takes the overhead off too: 60000/30 - 10.
        let c = Clock {
            btime: Some(60_000),
            ..Clock::default()
        };
        assert_eq!(with(c, Color::Black, d), 1990);
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
        assert_eq!(ms(c(1000), Color::Black), 1000);
        assert_eq!(ms(c(101), Color::White), 101);
        assert_eq!(ms(c(1), Color::Black), 1);
        assert_eq!(ms(c(0), Color::Black), 0);
        // Capped at a week.
        assert_eq!(ms(c(u64::MAX), Color::Black), MAX_THINK_MS);
    }

    #[test]
    fn sudden_death_uses_the_side_to_move_clock() {
        let c = Clock {
            btime: Some(60_000),
            wtime: Some(30_000),
            ..Clock::default()
        };
        // 60000/30 - 50 = 1950; 30000/30 - 50 = 950.
        assert_eq!(ms(c, Color::Black), 1950);
        assert_eq!(ms(c, Color::White), 950);
    }

    #[test]
    fn byoyomi_only() {
        let c = Clock {
            btime: Some(0),
            wtime: Some(0),
            byoyomi: Some(10_000),
            ..Clock::default()
        };
        // 0 + 0.9 * 10000 - 50 = 8950 (cap 9950).
        assert_eq!(ms(c, Color::Black), 8950);
        // Without btime/wtime at all: the same.
        let c = Clock {
            byoyomi: Some(10_000),
            ..Clock::default()
        };
        assert_eq!(ms(c, Color::White), 8950);
        // A 1 s byoyomi: 900 - 50 = 850.
        let c = Clock {
            byoyomi: Some(1_000),
            ..Clock::default()
        };
        assert_eq!(ms(c, Color::Black), 850);
    }

    #[test]
    fn main_time_plus_byoyomi() {
        let c = Clock {
            btime: Some(600_000),
            wtime: Some(600_000),
            byoyomi: Some(30_000),
            ..Clock::default()
        };
        // 20000 + 27000 - 50.
        assert_eq!(ms(c, Color::White), 46_950);
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
        // 100 + 1600 - 50 = 1650; 100 + 800 - 50 = 850.
        assert_eq!(ms(c, Color::Black), 1650);
        assert_eq!(ms(c, Color::White), 850);
        // A large increment with little time left: capped at remaining - margin, since
        // the increment only arrives after the move.
        let c = Clock {
            btime: Some(1_000),
            binc: Some(10_000),
            ..Clock::default()
        };
        // Target 33 + 8000 - 50 = 7983, cap 950.
        assert_eq!(ms(c, Color::Black), 950);
    }

    #[test]
    fn tiny_remaining_time() {
        let c = |b| Clock {
            btime: Some(b),
            wtime: Some(b),
            ..Clock::default()
        };
        // 100 ms: target 3 - 50 < 0, raised to the 10 ms floor (cap 50).
        assert_eq!(ms(c(100), Color::Black), 10);
        // 55 ms: cap 5 ms, below the floor.
        assert_eq!(ms(c(55), Color::Black), 5);
        // Less than the margin left, or nothing: 0 (search as little as possible).
        assert_eq!(ms(c(30), Color::Black), 0);
        assert_eq!(ms(c(0), Color::Black), 0);
        let c = Clock {
            btime: Some(0),
            byoyomi: Some(0),
            ..Clock::default()
        };
        assert_eq!(ms(c, Color::Black), 0);
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
                    let got = ms(c, Color::Black);
                    let cap = (r + b).saturating_sub(O);
                    assert!(got <= cap, "r {r} b {b} i {i}: {got} > {cap}");
                    assert_eq!(got, ms(c, Color::White));
                    if cap >= MIN_THINK_MS {
                        assert!(got >= MIN_THINK_MS, "r {r} b {b} i {i}: {got}");
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
        assert_eq!(ms(c, Color::Black), MAX_THINK_MS);
        let c = Clock {
            movetime: Some(u64::MAX),
            ..Clock::default()
        };
        assert_eq!(ms(c, Color::Black), MAX_THINK_MS);
    }
}
