//! The statistics of a match: score, Elo with its 95% error margin, and the log-likelihood
//! ratio (LLR) of a sequential probability ratio test (SPRT).
//!
//! Elo is the logistic model: a score fraction `s` means `elo(s) = -400 log10(1/s - 1)`, and
//! an Elo difference `e` means the expected score `L(e) = 1 / (1 + 10^(-e/400))`.
//!
//! The error margin is cutechess-cli's: with `N` games of mean score `m` and per-game
//! standard deviation `sd`, `d = 1.959964 sd / sqrt(N)` and the margin is
//! `(elo(m + d) - elo(m - d)) / 2`.
//!
//! The LLR is the generalised SPRT (GSPRT) of Michel Van den Bergh, as fishtest
//! (`LLR_logistic`) and cutechess-cli use it, with the normal approximation of the sample
//! mean: for `N` samples of mean `m` and variance `v`, testing `H0: elo = elo0` against
//! `H1: elo = elo1` with `s0 = L(elo0)` and `s1 = L(elo1)`,
//! `LLR = N (s1 - s0) (2m - s0 - s1) / (2v)`. The mean and the variance are those of the
//! outcome frequencies smoothed by half a sample of each outcome (the Jeffreys prior of a
//! multinomial: `(count + 1/2) / (N + K/2)` for `K` outcomes), while `N` stays the number of
//! samples. Fishtest instead takes an empty count as 0.001; that keeps a one-sided result's
//! variance above zero but barely: twenty game pairs that each engine won with the same
//! colour (common in fixed-node self-play of a small variant) have a variance of about
//! 3e-5 and an LLR of -66, a rejection on no evidence. With the prior the same pairs give
//! -0.15, and for the hundreds of samples of a real test the difference is a fraction of a
//! percent.
//! The samples are either single games (trinomial: 0, 1/2, 1) or, since every opening is
//! played with both colours, game pairs (pentanomial: the pair's score 0, 1/4, ..., 1),
//! which removes the opening's bias from the variance. The test stops when the LLR leaves
//! `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`.

use serde::{Deserialize, Serialize};

/// The fewest game pairs an SPRT decides on. The LLR's normal approximation needs samples:
/// a handful of equal pairs (every opening won by the same colour, as in fixed-node
/// self-play of a small variant) has a variance near zero and an LLR far beyond either
/// bound after a dozen games.
pub const MIN_SPRT_PAIRS: u64 = 20;

/// The 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_985;

/// The expected score of an Elo difference (logistic model).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of a score fraction in (0, 1); infinite at 0 and 1.
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Mean and variance of samples with values `values` seen `counts` times; `None` without
/// samples.
fn mean_var(values: &[f64], counts: &[f64]) -> Option<(f64, f64, f64)> {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 {
        return None;
    }
    let mean = values.iter().zip(counts).map(|(v, c)| v * c).sum::<f64>() / n;
    let var = values
        .iter()
        .zip(counts)
        .map(|(v, c)| (v - mean).powi(2) * c)
        .sum::<f64>()
        / n;
    Some((n, mean, var))
}

/// The outcome frequencies for the LLR, smoothed by the Jeffreys prior: half a sample of
/// each outcome, `(count + 1/2) / (N + K/2)`, so that a one-sided or all-equal result has
/// a variance that reflects how few samples it rests on (see the module documentation).
fn smoothed(counts: &[u64]) -> Vec<f64> {
    let n: u64 = counts.iter().sum();
    let total = n as f64 + counts.len() as f64 / 2.0;
    counts.iter().map(|&c| (c as f64 + 0.5) / total).collect()
}

/// Elo and its 95% error margin from wins, draws and losses; `None` for the margin when
/// it is not finite (no game, or a score of 0 or 100% in reach of the interval).
pub fn elo_with_margin(wins: u64, draws: u64, losses: u64) -> (f64, Option<f64>) {
    let counts = [wins, draws, losses].map(|c| c as f64);
    let Some((n, mean, var)) = mean_var(&[1.0, 0.5, 0.0], &counts) else {
        return (0.0, None);
    };
    let elo = elo_of_score(mean);
    let d = Z95 * var.sqrt() / n.sqrt();
    let margin = (elo_of_score(mean + d) - elo_of_score(mean - d)) / 2.0;
    (elo, margin.is_finite().then_some(margin))
}

/// The GSPRT LLR (see the module documentation) of samples with values `values` seen
/// `counts` times: `N` real samples with the mean and variance of the smoothed frequencies
/// (see [`smoothed`]); 0 without samples.
fn llr(elo0: f64, elo1: f64, values: &[f64], counts: &[u64]) -> f64 {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return 0.0;
    }
    let Some((_, mean, var)) = mean_var(values, &smoothed(counts)) else {
        return 0.0;
    };
    if var <= 0.0 {
        return 0.0;
    }
    let (s0, s1) = (expected_score(elo0), expected_score(elo1));
    n as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// The LLR of single games (trinomial model).
pub fn llr_trinomial(elo0: f64, elo1: f64, wins: u64, draws: u64, losses: u64) -> f64 {
    llr(elo0, elo1, &[1.0, 0.5, 0.0], &[wins, draws, losses])
}

/// The LLR of game pairs (pentanomial model): `pairs[k]` is the number of pairs in which
/// the first engine scored `k / 2` points out of 2 (`pairs[0]` lost both, `pairs[4]` won
/// both).
pub fn llr_pentanomial(elo0: f64, elo1: f64, pairs: [u64; 5]) -> f64 {
    llr(elo0, elo1, &[0.0, 0.25, 0.5, 0.75, 1.0], &pairs)
}

/// The SPRT's stopping bounds `(lower, upper)` for error rates `alpha` and `beta`.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// An SPRT: the hypotheses `elo0` and `elo1` (logistic Elo) and the error rates.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// The Elo of H0.
    pub elo0: f64,
    /// The Elo of H1.
    pub elo1: f64,
    /// The false positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// The false negative rate.
    pub beta: f64,
}

/// What an SPRT concluded.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtDecision {
    /// The LLR fell below the lower bound: H0 (elo0) accepted.
    H0,
    /// The LLR rose above the upper bound: H1 (elo1) accepted.
    H1,
    /// Neither bound reached.
    Undecided,
}

impl Sprt {
    /// Checks the parameters: elo0 < elo1, alpha and beta in (0, 1/2).
    pub fn validate(&self) -> Result<(), SprtError> {
        if !(self.elo0.is_finite() && self.elo1.is_finite() && self.elo0 < self.elo1) {
            return Err(SprtError::Bounds {
                elo0: self.elo0,
                elo1: self.elo1,
            });
        }
        for (name, value) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(SprtError::Probability { name, value });
            }
        }
        Ok(())
    }

    /// The decision for an LLR.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = sprt_bounds(self.alpha, self.beta);
        if llr >= upper {
            SprtDecision::H1
        } else if llr <= lower {
            SprtDecision::H0
        } else {
            SprtDecision::Undecided
        }
    }
}

/// Why an [`Sprt`] is not a test: what [`Sprt::validate`] found wrong.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SprtError {
    /// The hypotheses are not two finite Elo values with `elo0` below `elo1`.
    Bounds {
        /// H0's Elo.
        elo0: f64,
        /// H1's Elo.
        elo1: f64,
    },
    /// An error probability is not strictly between 0 and 0.5.
    Probability {
        /// Which one: `alpha` or `beta`.
        name: &'static str,
        /// Its value.
        value: f64,
    },
}

impl std::fmt::Display for SprtError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SprtError::Bounds { elo0, elo1 } => {
                write!(f, "SPRT: elo0 ({elo0}) must be below elo1 ({elo1})")
            }
            SprtError::Probability { name, value } => {
                write!(f, "SPRT: {name} ({value}) must be between 0 and 0.5")
            }
        }
    }
}

impl std::error::Error for SprtError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn elo_of_known_scores() {
        // 75% is 400 log10(3) = 190.85 Elo; 50% is 0; 64% is 100.0 (the classic table).
        assert!(close(elo_of_score(0.75), 190.849, 1e-3));
        assert!(close(elo_of_score(0.5), 0.0, 1e-12));
        assert!(close(elo_of_score(0.64), 99.96, 0.01));
        assert!(close(expected_score(400.0), 10.0 / 11.0, 1e-12));
        assert!(close(expected_score(elo_of_score(0.3)), 0.3, 1e-12));
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
    }

    #[test]
    fn margin_by_hand() {
        // 60 wins, 20 draws, 20 losses: mean 0.7, variance (60 * 0.09 + 20 * 0.04 +
        // 20 * 0.49) / 100 = 0.16, sd 0.4, d = 1.96 * 0.04 = 0.0784;
        // elo(0.7784) = 218.25, elo(0.6216) = 86.22, margin (218.25 - 86.22) / 2 = 66.01;
        // elo(0.7) = 147.19.
        let (elo, margin) = elo_with_margin(60, 20, 20);
        assert!(close(elo, 147.19, 0.01), "{elo}");
        assert!(close(margin.unwrap(), 66.01, 0.02), "{margin:?}");
        // All wins: the margin is not finite.
        assert_eq!(elo_with_margin(5, 0, 0).1, None);
        assert_eq!(elo_with_margin(0, 0, 0), (0.0, None));
    }

    #[test]
    fn bounds_as_fishtest_prints_them() {
        // fishtest and cutechess print (-2.94, 2.94) for alpha = beta = 0.05:
        // ln(0.05 / 0.95) = -2.9444.
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        assert!(close(lo, -2.944_44, 1e-4) && close(hi, 2.944_44, 1e-4));
        let (lo, hi) = sprt_bounds(0.05, 0.1);
        assert!(close(lo, (0.1f64 / 0.95).ln(), 1e-12) && close(hi, (0.9f64 / 0.05).ln(), 1e-12));
    }

    #[test]
    fn trinomial_llr_by_hand() {
        // 60/20/20, H0 0 Elo, H1 10 Elo. Smoothed frequencies (count + 1/2) / 101.5:
        // mean = (60.5 + 20.5 / 2) / 101.5 = 0.697044, E[x^2] = (60.5 + 20.5 / 4) / 101.5
        // = 0.646552, variance = 0.646552 - 0.697044^2 = 0.160681;
        // s0 = 0.5, s1 = 1 / (1 + 10^-0.025) = 0.514387;
        // LLR = 100 * 0.014387 * (1.394089 - 1.014387) / (2 * 0.160681) = 1.6999.
        let l = llr_trinomial(0.0, 10.0, 60, 20, 20);
        assert!(close(l, 1.6999, 2e-4), "{l}");
        // A dead even result favours H0 when H1 is above 0: 50/0/50, H0 0, H1 10:
        // mean 0.5, variance 2 * 50.5 * 0.25 / 101.5 = 0.248768,
        // LLR = 100 * 0.014387 * (1 - 1.014387) / 0.497537 = -0.04160.
        let l = llr_trinomial(0.0, 10.0, 50, 0, 50);
        assert!(close(l, -0.041_60, 1e-4), "{l}");
        // Only draws: the prior keeps a variance, and an even score speaks (weakly) for H0
        // when H1 is above 0: variance 2 * 0.5 * 0.25 / 11.5 = 0.021739,
        // LLR = 10 * 0.007195 * (1 - 1.007195) / 0.043478 = -0.0119.
        let l = llr_trinomial(0.0, 5.0, 0, 10, 0);
        assert!(close(l, -0.0119, 1e-4), "{l}");
        assert_eq!(llr_pentanomial(0.0, 5.0, [0; 5]), 0.0);
    }

    #[test]
    fn few_pairs_do_not_decide() {
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        // Twenty pairs that each engine won with the same colour: no evidence either way.
        // Smoothed: mean 0.5, variance 2 * 0.5 * (0.25 + 0.0625) / 22.5 = 0.013889;
        // H0 0, H1 10: LLR = 20 * 0.014387 * (1 - 1.014387) / 0.027778 = -0.149.
        // (Fishtest's 0.001 for empty counts gives a variance of 3e-5 and an LLR of -66.)
        let l = llr_pentanomial(0.0, 10.0, [0, 0, 20, 0, 0]);
        assert!(close(l, -0.1490, 2e-4), "{l}");
        assert!(l > lo);
        // Three pairs won twice: far from H1 (mean 4.25 / 5.5 = 0.772727, E[x^2] = 3.9375
        // / 5.5 = 0.715909, variance 0.118802; LLR = 3 * 0.007195 * 0.538260 / 0.237603
        // = 0.0489).
        let l = llr_pentanomial(0.0, 5.0, [0, 0, 0, 0, 3]);
        assert!(close(l, 0.0489, 2e-4), "{l}");
        // Twenty pairs won twice do decide for H1 (0 against 10 Elo): mean 20.5 / 22.5 =
        // 0.911111, E[x^2] = (0.5 / 16 + 0.5 / 4 + 0.5 * 9 / 16 + 20.5) / 22.5 = 0.918056,
        // variance 0.087932; LLR = 20 * 0.014387 * 0.807835 / 0.175864 = 3.261.
        let l = llr_pentanomial(0.0, 10.0, [0, 0, 0, 0, 20]);
        assert!(close(l, 3.2612, 2e-4), "{l}");
        assert!(l > hi);
    }

    #[test]
    fn pentanomial_llr_by_hand() {
        // Pairs [LL, LD, DD/WL, WD, WW] = [5, 10, 20, 25, 40] (100 pairs), smoothed
        // (count + 1/2) / 102.5:
        // mean = (10.5 * 0.25 + 20.5 * 0.5 + 25.5 * 0.75 + 40.5) / 102.5 = 0.707317;
        // E[x^2] = (10.5 * 0.0625 + 20.5 * 0.25 + 25.5 * 0.5625 + 40.5) / 102.5 = 0.591463,
        // variance = 0.591463 - 0.707317^2 = 0.091165;
        // H0 0, H1 5: s1 = 1 / (1 + 10^-0.0125) = 0.507195;
        // LLR = 100 * 0.007195 * (1.414634 - 1.007195) / (2 * 0.091165) = 1.6078.
        let l = llr_pentanomial(0.0, 5.0, [5, 10, 20, 25, 40]);
        assert!(close(l, 1.6078, 5e-4), "{l}");
    }

    #[test]
    fn decisions_and_validation() {
        let s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert!(s.validate().is_ok());
        assert_eq!(s.decide(3.0), SprtDecision::H1);
        assert_eq!(s.decide(-3.0), SprtDecision::H0);
        assert_eq!(s.decide(0.0), SprtDecision::Undecided);
        let bounds = Sprt { elo0: 5.0, ..s }.validate().unwrap_err();
        assert!(matches!(bounds, SprtError::Bounds { elo0, .. } if elo0 == 5.0));
        assert_eq!(
            Sprt { alpha: 0.0, ..s }.validate(),
            Err(SprtError::Probability {
                name: "alpha",
                value: 0.0
            })
        );
        let beta = Sprt { beta: 0.7, ..s }.validate().unwrap_err();
        assert_eq!(
            beta.to_string(),
            "SPRT: beta (0.7) must be between 0 and 0.5"
        );
    }
}
