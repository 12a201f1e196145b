//! The fit: Texel-style logistic regression of game results on the evaluation.
//!
//! A sample's predicted score for Black is `sigmoid(K * e)`, where `e` is the evaluation
//! from Black's view: the dot product of the weights with the sample's features, plus the
//! part of the evaluation that is not tuned. The loss is the mean squared error between the
//! prediction and the result (1, 1/2, 0). `K` is fitted first, with the starting weights
//! (a one-dimensional golden-section search), so that the weights keep the evaluation's
//! centipawn scale; then the free weights are fitted by full-batch Adam on `f64`.

use crate::data::Sample;
use kshogi_engine::eval::N_WEIGHTS;
use kshogi_engine::WdlModel;

/// The logistic function.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The samples in a sparse form for the fit: only the features of the free weights, and the
/// rest of each evaluation folded into a constant.
#[derive(Clone, Debug)]
pub struct Problem {
    /// Which weights are fitted.
    pub free: [bool; N_WEIGHTS],
    /// Row `i`'s features are `cols[start[i]..start[i + 1]]` with `vals[..]`.
    start: Vec<usize>,
    cols: Vec<u8>,
    vals: Vec<f64>,
    /// The offset and the fixed weights' part, per row.
    base: Vec<f64>,
    /// The results.
    result: Vec<f64>,
}

impl Problem {
    /// The problem for `samples`, fitting the weights marked `free`; the others keep their
    /// values in `weights`.
    pub fn new<'a>(
        samples: impl IntoIterator<Item = &'a Sample>,
        free: [bool; N_WEIGHTS],
        weights: &[f64; N_WEIGHTS],
    ) -> Problem {
        let mut p = Problem {
            free,
            start: vec![0],
            cols: Vec::new(),
            vals: Vec::new(),
            base: Vec::new(),
            result: Vec::new(),
        };
        for s in samples {
            let mut base = f64::from(s.offset);
            for (j, &x) in s.features.iter().enumerate() {
                if x == 0 {
                    continue;
                }
                if free[j] {
                    p.cols.push(j as u8);
                    p.vals.push(f64::from(x));
                } else {
                    base += weights[j] * f64::from(x);
                }
            }
            p.start.push(p.cols.len());
            p.base.push(base);
            p.result.push(s.result);
        }
        p
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.result.len()
    }

    /// Whether there is no sample.
    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    /// For each weight, the number of samples whose feature for it is not 0 (0 for the
    /// weights that are not free).
    pub fn support(&self) -> [usize; N_WEIGHTS] {
        let mut n = [0; N_WEIGHTS];
        for &c in &self.cols {
            n[c as usize] += 1;
        }
        n
    }

    #[inline]
    fn eval(&self, i: usize, w: &[f64; N_WEIGHTS]) -> f64 {
        let mut e = self.base[i];
        for k in self.start[i]..self.start[i + 1] {
            e += w[self.cols[k] as usize] * self.vals[k];
        }
        e
    }

    /// The mean squared error of `sigmoid(k * eval)` against the results.
    pub fn mse(&self, w: &[f64; N_WEIGHTS], k: f64) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let sum: f64 = (0..self.len())
            .map(|i| {
                let d = sigmoid(k * self.eval(i, w)) - self.result[i];
                d * d
            })
            .sum();
        sum / self.len() as f64
    }

    /// The loss and its gradient with respect to the free weights.
    fn gradient(&self, w: &[f64; N_WEIGHTS], k: f64, grad: &mut [f64; N_WEIGHTS]) -> f64 {
        *grad = [0.0; N_WEIGHTS];
        let mut loss = 0.0;
        for i in 0..self.len() {
            let s = sigmoid(k * self.eval(i, w));
            let d = s - self.result[i];
            loss += d * d;
            let g = 2.0 * d * s * (1.0 - s) * k;
            for c in self.start[i]..self.start[i + 1] {
                grad[self.cols[c] as usize] += g * self.vals[c];
            }
        }
        let n = self.len().max(1) as f64;
        for g in grad.iter_mut() {
            *g /= n;
        }
        loss / n
    }

    /// The `k` in `[1e-5, 1]` that minimises [`Problem::mse`] for the weights `w`.
    pub fn fit_k(&self, w: &[f64; N_WEIGHTS]) -> f64 {
        // Golden-section search on ln k: the loss is unimodal in k for fixed weights.
        golden(1e-5f64.ln(), 1f64.ln(), 80, |x| self.mse(w, x.exp())).exp()
    }
}

/// Settings of [`fit`].
#[derive(Clone, Debug, PartialEq)]
pub struct FitConfig {
    /// Adam steps (full batch).
    pub iterations: u32,
    /// Step size in centipawns at the start; it falls linearly to a tenth at the end.
    pub rate: f64,
    /// Fit only these shared weights (indices into the weight vector, see
    /// `kshogi_tune::SHARED`) and keep every other weight; empty: fit every free weight.
    pub only: Vec<usize>,
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            iterations: 2000,
            rate: 2.0,
            only: Vec::new(),
        }
    }
}

/// Fits the free weights of `p` from `w0` with Adam at the given `k`; returns the weights
/// (the fixed ones unchanged) and the final training loss.
pub fn fit(p: &Problem, w0: &[f64; N_WEIGHTS], k: f64, cfg: &FitConfig) -> ([f64; N_WEIGHTS], f64) {
    const B1: f64 = 0.9;
    const B2: f64 = 0.999;
    const EPS: f64 = 1e-12;
    let mut w = *w0;
    let mut m = [0.0; N_WEIGHTS];
    let mut v = [0.0; N_WEIGHTS];
    let mut grad = [0.0; N_WEIGHTS];
    let (mut b1t, mut b2t) = (1.0, 1.0);
    let n = cfg.iterations.max(1);
    for t in 0..n {
        p.gradient(&w, k, &mut grad);
        b1t *= B1;
        b2t *= B2;
        let rate = cfg.rate * (1.0 - 0.9 * f64::from(t) / f64::from(n));
        for j in 0..N_WEIGHTS {
            if !p.free[j] {
                continue;
            }
            m[j] = B1 * m[j] + (1.0 - B1) * grad[j];
            v[j] = B2 * v[j] + (1.0 - B2) * grad[j] * grad[j];
            let mh = m[j] / (1.0 - b1t);
            let vh = v[j] / (1.0 - b2t);
            w[j] -= rate * mh / (vh.sqrt() + EPS);
        }
    }
    let loss = p.mse(&w, k);
    (w, loss)
}

/// The evaluation of a sample from Black's view with the weights `w`: the offset plus the
/// weighted features.
pub fn sample_eval(s: &Sample, w: &[f64; N_WEIGHTS]) -> f64 {
    f64::from(s.offset)
        + s.features
            .iter()
            .zip(w)
            .map(|(&x, &wj)| f64::from(x) * wj)
            .sum::<f64>()
}

/// The mean negative log-likelihood of results under a win/draw/loss model, for points
/// `(evaluation from Black's view, Black's result 1, 1/2 or 0)`. Probabilities are kept
/// above `1e-12` so that one impossible result costs much but finitely.
pub fn wdl_nll(points: &[(f64, f64)], model: &WdlModel) -> f64 {
    let mut sum = 0.0;
    for &(x, r) in points {
        let [w, d, l] = model.probabilities(x);
        let p = if r > 0.75 {
            w
        } else if r < 0.25 {
            l
        } else {
            d
        };
        sum -= p.max(1e-12).ln();
    }
    sum / points.len().max(1) as f64
}

/// Minimises `f` on `[a, b]` by golden-section search (`f` unimodal there); returns the
/// argument.
fn golden(mut a: f64, mut b: f64, steps: u32, f: impl Fn(f64) -> f64) -> f64 {
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - phi * (b - a);
    let mut d = a + phi * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..steps {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// The win/draw/loss model (`kshogi_engine::WdlModel`) that fits the points best by maximum
/// likelihood: points are `(evaluation from Black's view, Black's result 1, 1/2 or 0)`.
///
/// The scale is searched on a log scale in `[10, 10000]` centipawns, the draw margin in
/// `[0, 3000]`: for each margin the best scale (golden-section search), and the margin by a
/// golden-section search over those minima. Without draws the margin goes to zero. The
/// parameters are rounded to whole centipawns, as the registry records them.
pub fn fit_wdl(points: &[(f64, f64)]) -> WdlModel {
    let best_scale = |margin: f64| {
        golden(10f64.ln(), 10000f64.ln(), 40, |ls| {
            wdl_nll(points, &WdlModel::new(ls.exp(), margin))
        })
        .exp()
    };
    let margin = golden(0.0, 3000.0, 36, |m| {
        wdl_nll(points, &WdlModel::new(best_scale(m), m))
    });
    let scale = best_scale(margin);
    WdlModel::new(scale.round().max(1.0), margin.round().max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::stream_rng;

    /// Samples with random small features, evaluated with known weights; `soft` labels are
    /// the exact predicted score, otherwise a win or loss drawn with that probability.
    fn synthetic(
        n: usize,
        w: &[f64; N_WEIGHTS],
        k: f64,
        used: &[usize],
        soft: bool,
    ) -> Vec<Sample> {
        let mut rng = stream_rng(11, 0);
        (0..n)
            .map(|i| {
                let mut features = [0; N_WEIGHTS];
                for &j in used {
                    features[j] = rng.below(7) as i32 - 3;
                }
                let offset = rng.below(41) as i32 - 20;
                let e: f64 = f64::from(offset)
                    + used
                        .iter()
                        .map(|&j| w[j] * f64::from(features[j]))
                        .sum::<f64>();
                let p = sigmoid(k * e);
                let result = if soft {
                    p
                } else if rng.unit() < p {
                    1.0
                } else {
                    0.0
                };
                Sample {
                    features,
                    offset,
                    result,
                    game: i as u32,
                }
            })
            .collect()
    }

    const USED: [usize; 6] = [1, 2, 5, 16, 24, 25];

    fn truth() -> [f64; N_WEIGHTS] {
        let mut w = [0.0; N_WEIGHTS];
        for (&j, v) in USED.iter().zip([120.0, 480.0, 300.0, 350.0, 6.0, 15.0]) {
            w[j] = v;
        }
        w
    }

    fn free() -> [bool; N_WEIGHTS] {
        let mut f = [false; N_WEIGHTS];
        for &j in &USED {
            f[j] = true;
        }
        f
    }

    #[test]
    fn k_is_recovered_with_the_true_weights() {
        let w = truth();
        let data = synthetic(4000, &w, 0.004, &USED, true);
        let p = Problem::new(&data, free(), &w);
        let k = p.fit_k(&w);
        assert!((k - 0.004).abs() < 1e-6, "k = {k}");
        assert!(p.mse(&w, k) < 1e-12);
    }

    #[test]
    fn known_weights_are_recovered_from_exact_scores() {
        let w = truth();
        let data = synthetic(4000, &w, 0.004, &USED, true);
        // Start far away: every weight at 100, mobility and the rest too.
        let mut w0 = [0.0; N_WEIGHTS];
        for &j in &USED {
            w0[j] = 100.0;
        }
        let p = Problem::new(&data, free(), &w0);
        let (fitted, loss) = fit(
            &p,
            &w0,
            0.004,
            &FitConfig {
                iterations: 3000,
                rate: 5.0,
                ..FitConfig::default()
            },
        );
        for &j in &USED {
            assert!(
                (fitted[j] - w[j]).abs() < 1.0,
                "weight {j}: {} against {}",
                fitted[j],
                w[j]
            );
        }
        assert!(loss < 1e-6, "loss {loss}");
    }

    #[test]
    fn known_weights_are_recovered_from_noisy_results() {
        // Wins and losses drawn at random: the fit finds the weights within a few percent.
        let w = truth();
        let data = synthetic(40_000, &w, 0.004, &USED, false);
        let w0 = [0.0; N_WEIGHTS];
        let p = Problem::new(&data, free(), &w0);
        let (fitted, _) = fit(
            &p,
            &w0,
            0.004,
            &FitConfig {
                iterations: 1500,
                rate: 5.0,
                ..FitConfig::default()
            },
        );
        for &j in &USED {
            let tolerance = 0.1 * w[j].abs() + 3.0;
            assert!(
                (fitted[j] - w[j]).abs() < tolerance,
                "weight {j}: {} against {}",
                fitted[j],
                w[j]
            );
        }
    }

    #[test]
    fn fixed_weights_stay_and_count_in_the_evaluation() {
        let w = truth();
        let data = synthetic(2000, &w, 0.004, &USED, true);
        let mut only = [false; N_WEIGHTS];
        only[USED[0]] = true;
        let mut w0 = w;
        w0[USED[0]] = 0.0;
        let p = Problem::new(&data, only, &w0);
        let (fitted, _) = fit(&p, &w0, 0.004, &FitConfig::default());
        assert!((fitted[USED[0]] - w[USED[0]]).abs() < 1.0);
        for &j in &USED[1..] {
            assert_eq!(fitted[j], w[j]);
        }
        assert_eq!(p.support()[USED[1]], 0);
        assert!(p.support()[USED[0]] > 1000);
    }

    #[test]
    fn the_wdl_fit_recovers_the_model_that_drew_the_results() {
        // Results drawn at random from a known model: the fit must find its parameters.
        let truth = WdlModel::new(150.0, 80.0);
        let mut rng = stream_rng(5, 1);
        let points: Vec<(f64, f64)> = (0..20_000)
            .map(|_| {
                let x = rng.below(1201) as f64 - 600.0;
                let [w, d, _] = truth.probabilities(x);
                let u = rng.unit();
                let r = if u < w {
                    1.0
                } else if u < w + d {
                    0.5
                } else {
                    0.0
                };
                (x, r)
            })
            .collect();
        let fitted = fit_wdl(&points);
        assert!((fitted.scale - 150.0).abs() < 10.0, "{fitted:?}");
        assert!((fitted.draw_margin - 80.0).abs() < 10.0, "{fitted:?}");
        assert!(wdl_nll(&points, &fitted) <= wdl_nll(&points, &WdlModel::new(200.0, 0.0)));
        // Without a draw among the results, the margin goes to zero.
        let decisive: Vec<(f64, f64)> = points.iter().filter(|p| p.1 != 0.5).copied().collect();
        assert!(fit_wdl(&decisive).draw_margin <= 2.0);
    }
}
