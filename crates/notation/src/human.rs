//! Numbers, sizes and durations in words for people, as every report of kshogi prints them
//! (`1,234,567`, `3.98 GiB`, `4 min 05 s`, `3 plies`).

use std::time::Duration;

/// `1234567` as `1,234,567`.
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A duration for people: `0.42 s`, `12.3 s`, `4 min 05 s`, `1 h 02 min`.
pub fn human_time(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 10.0 {
        format!("{s:.2} s")
    } else if s < 60.0 {
        format!("{s:.1} s")
    } else if s < 3600.0 {
        let whole = d.as_secs();
        format!("{} min {:02} s", whole / 60, whole % 60)
    } else {
        let whole = d.as_secs();
        format!("{} h {:02} min", whole / 3600, (whole % 3600) / 60)
    }
}

/// `n` bytes for people: `512 B`, `1.5 KiB`, `3.98 GiB`.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut x = n as f64;
    let mut unit = "B";
    for u in UNITS {
        if x < 1024.0 {
            break;
        }
        x /= 1024.0;
        unit = u;
    }
    format!("{x:.2} {unit}")
}

/// `1 ply`, `3 plies`.
pub fn plies(n: u16) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values written out by hand from the rules in the docs above.
    #[test]
    fn numbers_sizes_and_times_for_people() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(1000), "1,000");
        assert_eq!(group(1_234_567), "1,234,567");
        assert_eq!(human_time(Duration::from_millis(420)), "0.42 s");
        assert_eq!(human_time(Duration::from_millis(12_340)), "12.3 s");
        assert_eq!(human_time(Duration::from_secs(245)), "4 min 05 s");
        assert_eq!(human_time(Duration::from_secs(3720)), "1 h 02 min");
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(1536), "1.50 KiB");
        assert_eq!(human_bytes(3 * 1024 * 1024 * 1024), "3.00 GiB");
        assert_eq!(plies(1), "1 ply");
        assert_eq!(plies(0), "0 plies");
        assert_eq!(plies(3), "3 plies");
    }
}
