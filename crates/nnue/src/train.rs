//! Training in plain Rust: the float network, Adam on minibatches, and quantisation to the
//! integer [`Network`].
//!
//! The float net computes the same function as the integer one: for each perspective
//! `acc = bias + sum of the active features' rows`, `a = clamp(acc, 0, 1)`, then
//! `y = out_bias + out_weights . [a_side_to_move, a_other]`. The prediction is
//! `sigmoid(y)`: `y` is in units of the net's scale `S` (centipawns per unit), so the score
//! is `S * y` centipawns and the loss is the mean squared error of `sigmoid(score / S)`
//! against each sample's target (an expected result in `[0, 1]` for the side to move).
//!
//! Training is deterministic from its seed whatever the number of threads: a minibatch is
//! cut into chunks of [`CHUNK`] samples, each chunk's gradient is computed by one thread in
//! sample order into its own buffer, and the buffers are added in chunk order.

use crate::features::Layout;
use crate::file::NetError;
use crate::network::{Network, MAX_HIDDEN};
use core::marker::PhantomData;
use kshogi_core::rng::SplitMix64;
use kshogi_core::{Position, Variant};

/// The transformer's quantisation scale and clipped ReLU ceiling of trained nets.
pub const QA: i16 = 127;
/// The output weights' quantisation scale of trained nets.
pub const QB: i16 = 128;
/// Samples per gradient chunk (the unit of work of a thread).
pub const CHUNK: usize = 256;

/// One training position: the active features from the side to move's view and from the
/// other side's, and the target.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Features seen from the side to move.
    pub us: Vec<u16>,
    /// Features seen from the other side.
    pub them: Vec<u16>,
    /// The expected result for the side to move, in `[0, 1]`.
    pub target: f32,
}

impl Sample {
    /// The sample of `pos` with `target` for its side to move.
    pub fn of<V: Variant>(layout: &Layout, pos: &Position<V>, target: f32) -> Sample {
        let side = pos.side_to_move();
        Sample {
            us: layout.active(pos, side),
            them: layout.active(pos, !side),
            target,
        }
    }
}

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A float network: every parameter in one vector (transformer weights by feature then
/// unit, transformer biases, output weights, output bias), so that the optimiser sees one
/// array.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// Input features per perspective.
    pub features: usize,
    /// Hidden units per perspective.
    pub hidden: usize,
    /// The parameters (see the type's documentation for the order).
    pub params: Vec<f32>,
}

/// The bounds of each part of [`FloatNet::params`].
#[derive(Copy, Clone, Debug)]
struct Parts {
    h: usize,
    ft_bias: usize,
    out_w: usize,
    out_b: usize,
    len: usize,
}

impl FloatNet {
    fn parts(&self) -> Parts {
        let h = self.hidden;
        let ft_bias = self.features * h;
        let out_w = ft_bias + h;
        let out_b = out_w + 2 * h;
        Parts {
            h,
            ft_bias,
            out_w,
            out_b,
            len: out_b + 1,
        }
    }

    /// A net with random starting weights from `seed`: transformer weights uniform in
    /// `[-0.1, 0.1]`, biases 0.5 (each unit starts inside the clipped ReLU's slope), output
    /// weights uniform in `[-1/sqrt(2H), 1/sqrt(2H)]`, output bias 0.
    pub fn new(features: usize, hidden: usize, seed: u64) -> FloatNet {
        let mut net = FloatNet {
            features,
            hidden,
            params: Vec::new(),
        };
        let p = net.parts();
        let mut rng = SplitMix64::new(seed);
        let mut uniform = |a: f32| (rng.unit() as f32 * 2.0 - 1.0) * a;
        let mut params = vec![0.0f32; p.len];
        for w in &mut params[..p.ft_bias] {
            *w = uniform(0.1);
        }
        for b in &mut params[p.ft_bias..p.out_w] {
            *b = 0.5;
        }
        let a = 1.0 / ((2 * hidden) as f32).sqrt();
        for w in &mut params[p.out_w..p.out_b] {
            *w = uniform(a);
        }
        net.params = params;
        net
    }

    /// The transformer output of one perspective.
    fn accumulate(&self, p: &Parts, features: &[u16], acc: &mut [f32]) {
        acc.copy_from_slice(&self.params[p.ft_bias..p.out_w]);
        for &f in features {
            let row = &self.params[f as usize * p.h..f as usize * p.h + p.h];
            for (x, w) in acc.iter_mut().zip(row) {
                *x += *w;
            }
        }
    }

    /// The output `y` of `s` (the score in units of the scale).
    pub fn forward(&self, s: &Sample) -> f32 {
        let p = self.parts();
        let mut acc = [[0.0f32; MAX_HIDDEN]; 2];
        self.output(&p, s, &mut acc)
    }

    fn output(&self, p: &Parts, s: &Sample, acc: &mut [[f32; MAX_HIDDEN]; 2]) -> f32 {
        let h = p.h;
        let [a_us, a_them] = acc;
        self.accumulate(p, &s.us, &mut a_us[..h]);
        self.accumulate(p, &s.them, &mut a_them[..h]);
        let ow = &self.params[p.out_w..p.out_b];
        let mut y = self.params[p.out_b];
        for j in 0..h {
            y += a_us[j].clamp(0.0, 1.0) * ow[j] + a_them[j].clamp(0.0, 1.0) * ow[h + j];
        }
        y
    }

    /// The mean squared error of `sigmoid(y)` against the targets of `samples` (0 for none).
    pub fn loss(&self, samples: &[Sample], threads: usize) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let chunks: Vec<&[Sample]> = samples.chunks(CHUNK).collect();
        let sums = in_order(chunks.len(), threads, |c| {
            chunks[c]
                .iter()
                .map(|s| {
                    let d = f64::from(sigmoid(self.forward(s)) - s.target);
                    d * d
                })
                .sum::<f64>()
        });
        sums.iter().sum::<f64>() / samples.len() as f64
    }

    /// Adds the gradient of the summed loss of `samples`, times `weight`, into `grad`, and
    /// returns the summed loss (before the step).
    fn gradient(&self, samples: &[&Sample], weight: f32, grad: &mut [f32]) -> f64 {
        let p = self.parts();
        let h = p.h;
        let mut acc = [[0.0f32; MAX_HIDDEN]; 2];
        let mut dacc = [[0.0f32; MAX_HIDDEN]; 2];
        let mut loss = 0.0f64;
        for s in samples {
            let y = self.output(&p, s, &mut acc);
            let pr = sigmoid(y);
            loss += f64::from(pr - s.target).powi(2);
            let dy = 2.0 * (pr - s.target) * pr * (1.0 - pr) * weight;
            grad[p.out_b] += dy;
            let ow = &self.params[p.out_w..p.out_b];
            for half in 0..2 {
                for j in 0..h {
                    let x = acc[half][j];
                    grad[p.out_w + half * h + j] += dy * x.clamp(0.0, 1.0);
                    dacc[half][j] = if x > 0.0 && x < 1.0 {
                        dy * ow[half * h + j]
                    } else {
                        0.0
                    };
                }
            }
            for j in 0..h {
                grad[p.ft_bias + j] += dacc[0][j] + dacc[1][j];
            }
            for (half, list) in [&s.us, &s.them].into_iter().enumerate() {
                for &f in list {
                    let row = &mut grad[f as usize * h..f as usize * h + h];
                    for (g, d) in row.iter_mut().zip(&dacc[half][..h]) {
                        *g += *d;
                    }
                }
            }
        }
        loss
    }

    /// The integer net for `V` with `scale` centipawns per output unit: weights rounded
    /// after scaling by [`QA`] and [`QB`] (and saturated at the `i16` range).
    pub fn quantise<V: Variant>(&self, scale: u16) -> Result<Network<V>, NetError> {
        let layout = Layout::of::<V>();
        if self.features != layout.features() {
            return Err(NetError::FeatureCount {
                found: self.features as u32,
                expected: layout.features(),
            });
        }
        if self.hidden == 0 || self.hidden > MAX_HIDDEN {
            return Err(NetError::Field {
                field: "hidden size",
                value: self.hidden as u32,
                allowed: "from 1 to 128",
            });
        }
        if scale == 0 {
            return Err(NetError::Field {
                field: "scale",
                value: 0,
                allowed: "at least 1",
            });
        }
        let p = self.parts();
        let q = |w: f32, s: f32| (w * s).round().clamp(-32767.0, 32767.0) as i16;
        let qa = f32::from(QA);
        let qb = f32::from(QB);
        Ok(Network {
            layout,
            hidden: self.hidden,
            qa: QA,
            qb: QB,
            scale,
            ft_bias: self.params[p.ft_bias..p.out_w]
                .iter()
                .map(|&w| q(w, qa))
                .collect(),
            ft_weights: self.params[..p.ft_bias].iter().map(|&w| q(w, qa)).collect(),
            out_weights: self.params[p.out_w..p.out_b]
                .iter()
                .map(|&w| q(w, qb))
                .collect(),
            out_bias: (self.params[p.out_b] * qa * qb).round() as i32,
            _v: PhantomData,
        })
    }
}

/// Runs `f` on `0..n` with up to `threads` threads and returns the results in index order.
fn in_order<T: Send>(n: usize, threads: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let threads = threads.clamp(1, n.max(1));
    if threads == 1 {
        return (0..n).map(f).collect();
    }
    let mut out: Vec<Option<T>> = (0..n).map(|_| None).collect();
    std::thread::scope(|scope| {
        let f = &f;
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (t..n)
                        .step_by(threads)
                        .map(|i| (i, f(i)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            // A panicking worker is a bug; its chunks stay `None` and are reported below.
            if let Ok(results) = h.join() {
                for (i, r) in results {
                    out[i] = Some(r);
                }
            }
        }
    });
    out.into_iter()
        .map(|r| r.expect("every chunk computed"))
        .collect()
}

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Passes over the data.
    pub epochs: usize,
    /// Samples per minibatch (a multiple of [`CHUNK`] uses the threads best).
    pub batch: usize,
    /// Adam's step size.
    pub learning_rate: f32,
    /// Seed of the sample order.
    pub seed: u64,
    /// Threads (the result does not depend on it).
    pub threads: usize,
    /// The transformer's weights and biases are kept within `[-clamp, clamp]`, so that the
    /// integer accumulator (`i16`, [`QA`] per unit) cannot overflow on these small boards.
    pub weight_clamp: f32,
    /// Decoupled weight decay (AdamW) of the transformer's weights: each step multiplies
    /// them by `1 - learning_rate * weight_decay`; 0 for none.
    pub weight_decay: f32,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 20,
            batch: 1024,
            learning_rate: 0.002,
            seed: 1,
            threads: 1,
            weight_clamp: 2.0,
            weight_decay: 0.0,
        }
    }
}

/// Trains `net` on `samples` with Adam; `progress` is called after each epoch with the
/// epoch (from 1), the mean loss of its minibatches (each measured before its step) and the
/// net as it is then (to score it on held-out data or keep a copy).
pub fn train(
    net: &mut FloatNet,
    samples: &[Sample],
    cfg: &TrainConfig,
    progress: &mut dyn FnMut(usize, f64, &FloatNet),
) {
    let p = net.parts();
    let n = samples.len();
    if n == 0 {
        return;
    }
    let batch = cfg.batch.max(1);
    let chunks_per_batch = batch.div_ceil(CHUNK);
    let mut grads: Vec<Vec<f32>> = (0..chunks_per_batch).map(|_| vec![0.0; p.len]).collect();
    let mut m = vec![0.0f32; p.len];
    let mut v = vec![0.0f32; p.len];
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = SplitMix64::new(cfg.seed);
    let out_limit = f32::from(i16::MAX) / f32::from(QB);
    for epoch in 1..=cfg.epochs {
        // Fisher-Yates shuffle from the seeded generator.
        for i in (1..n).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut epoch_loss = 0.0f64;
        for start in (0..n).step_by(batch) {
            let idx = &order[start..(start + batch).min(n)];
            let weight = 1.0 / idx.len() as f32;
            let used = idx.len().div_ceil(CHUNK);
            let net_ref = &*net;
            // Each chunk's gradient into its own buffer, then added in chunk order.
            let computed = {
                let bufs: Vec<Vec<f32>> = std::mem::take(&mut grads);
                let cells: Vec<std::sync::Mutex<Vec<f32>>> =
                    bufs.into_iter().map(std::sync::Mutex::new).collect();
                let losses = in_order(used, cfg.threads, |c| {
                    let chunk: Vec<&Sample> = idx[c * CHUNK..((c + 1) * CHUNK).min(idx.len())]
                        .iter()
                        .map(|&i| &samples[i])
                        .collect();
                    let mut g = cells[c].lock().unwrap_or_else(|e| e.into_inner());
                    g.iter_mut().for_each(|x| *x = 0.0);
                    net_ref.gradient(&chunk, weight, &mut g)
                });
                grads = cells
                    .into_iter()
                    .map(|c| c.into_inner().unwrap_or_else(|e| e.into_inner()))
                    .collect();
                losses
            };
            epoch_loss += computed.iter().sum::<f64>();
            let (first, rest) = grads.split_at_mut(1);
            for g in rest.iter().take(used - 1) {
                for (a, b) in first[0].iter_mut().zip(g) {
                    *a += *b;
                }
            }
            step += 1;
            let c1 = 1.0 - b1.powi(step);
            let c2 = 1.0 - b2.powi(step);
            let lr = cfg.learning_rate;
            for (i, g) in first[0].iter().enumerate() {
                m[i] = b1 * m[i] + (1.0 - b1) * g;
                v[i] = b2 * v[i] + (1.0 - b2) * g * g;
                let upd = lr * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
                net.params[i] -= upd;
            }
            if cfg.weight_decay > 0.0 {
                let keep = 1.0 - lr * cfg.weight_decay;
                for w in &mut net.params[..p.ft_bias] {
                    *w *= keep;
                }
            }
            for w in &mut net.params[..p.out_w] {
                *w = w.clamp(-cfg.weight_clamp, cfg.weight_clamp);
            }
            for w in &mut net.params[p.out_w..p.out_b] {
                *w = w.clamp(-out_limit, out_limit);
            }
        }
        progress(epoch, epoch_loss / n as f64, net);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_core::{Color, Position};
    use kshogi_rules_minishogi::Minishogi;

    type V = Minishogi;

    /// Positions of random Minishogi games (every position of each game up to 40 plies).
    fn random_positions(games: u64, seed: u64) -> Vec<Position<V>> {
        let mut out = Vec::new();
        for g in 0..games {
            let mut rng = SplitMix64::new(seed ^ g.wrapping_mul(0x9E37_79B9));
            let mut pos = Position::<V>::start();
            for _ in 0..40 {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                pos = pos.after(moves[rng.below(moves.len())]);
                out.push(pos);
            }
        }
        out
    }

    /// The synthetic target with a known answer: the side to move's count of pieces (on the
    /// board, kings excluded, and in hand) minus the opponent's, through `sigmoid(d / 2)`.
    /// A net of this shape can represent it almost exactly: a transformer unit that adds
    /// `+c` for each own piece and `-c` for each enemy one stays linear inside `[0, 1]`.
    fn material_target(pos: &Position<V>) -> f32 {
        let side = pos.side_to_move();
        let mut d = 0i32;
        for sq in pos.occupied() {
            if let Some(p) = pos.piece_at(sq) {
                if !V::PIECES[p.kind.index()].royal {
                    d += if p.color == side { 1 } else { -1 };
                }
            }
        }
        for slot in 0..5 {
            d += i32::from(pos.hand(side, slot)) - i32::from(pos.hand(!side, slot));
        }
        sigmoid(d as f32 / 2.0)
    }

    fn material_samples(games: u64, seed: u64) -> Vec<Sample> {
        let layout = Layout::of::<V>();
        random_positions(games, seed)
            .iter()
            .map(|p| Sample::of(&layout, p, material_target(p)))
            .collect()
    }

    fn small_config(threads: usize) -> TrainConfig {
        TrainConfig {
            epochs: 6,
            batch: 512,
            learning_rate: 0.01,
            seed: 9,
            threads,
            weight_clamp: 2.0,
            weight_decay: 0.0,
        }
    }

    #[test]
    fn training_drives_the_loss_down_on_a_material_target() {
        let train_set = material_samples(120, 1);
        let held_out = material_samples(30, 2);
        let features = Layout::of::<V>().features();
        let mut net = FloatNet::new(features, 16, 3);
        let before = net.loss(&held_out, 1);
        let mut epochs = Vec::new();
        train(&mut net, &train_set, &small_config(2), &mut |e, l, _| {
            epochs.push((e, l))
        });
        let after = net.loss(&held_out, 1);
        assert_eq!(epochs.len(), 6);
        // Material differences of random games spread the targets over [0.1, 0.9]; a random
        // net is far off (a loss of a few hundredths), the fitted one within about 0.05 of
        // the target on held-out games.
        assert!(before > 0.01, "the starting loss {before} is already low");
        assert!(after < before / 5.0, "loss {before} -> {after}");
        assert!(after < 0.0025, "held-out loss {after}");
    }

    #[test]
    fn the_quantised_net_agrees_with_the_float_net() {
        let samples = material_samples(60, 4);
        let features = Layout::of::<V>().features();
        let mut net = FloatNet::new(features, 16, 5);
        train(&mut net, &samples, &small_config(1), &mut |_, _, _| {});
        let scale = 200u16;
        let q = net.quantise::<V>(scale).expect("a valid net");
        // Tolerance: each weight is rounded to 1/127 (transformer) or 1/128 (output), an
        // error of at most half a step, about 0.29 steps standard deviation. With about 20
        // active features an accumulator unit is off by about sqrt(21) * 0.29 / 127 = 0.01,
        // and the output by that times the norm of the output weights (below 2 here) plus
        // sqrt(32) * 0.29 / 128 = 0.013 from the output weights: about 0.03 units, 6 cp at
        // 200 cp a unit, and the integer division drops less than 1 cp. So the mean
        // difference stays under 6 cp and no position is off by more than 30 cp (5 sigma).
        let positions = random_positions(20, 6);
        let mut total = 0i64;
        for pos in &positions {
            let s = Sample::of(&Layout::of::<V>(), pos, 0.5);
            let float_cp = net.forward(&s) * f32::from(scale);
            let int_cp = q.evaluate_position(pos);
            let diff = (float_cp - int_cp as f32).abs();
            assert!(diff <= 30.0, "float {float_cp} vs integer {int_cp}");
            total += diff.round() as i64;
        }
        let mean = total as f64 / positions.len() as f64;
        assert!(mean < 6.0, "mean difference {mean} cp");
    }

    #[test]
    fn one_seed_gives_the_same_bytes_whatever_the_threads() {
        let samples = material_samples(40, 7);
        let features = Layout::of::<V>().features();
        let run = |threads: usize| {
            let mut net = FloatNet::new(features, 8, 11);
            let cfg = TrainConfig {
                batch: 600,
                ..small_config(threads)
            };
            train(&mut net, &samples, &cfg, &mut |_, _, _| {});
            net.quantise::<V>(300).expect("valid").to_bytes()
        };
        let one = run(1);
        assert_eq!(one, run(1), "same seed, same bytes");
        assert_eq!(one, run(3), "the thread count changes nothing");
        let mut other = FloatNet::new(features, 8, 12);
        train(&mut other, &samples, &small_config(1), &mut |_, _, _| {});
        assert_ne!(one, other.quantise::<V>(300).expect("valid").to_bytes());
    }

    #[test]
    fn quantising_for_the_wrong_variant_or_size_is_an_error() {
        let net = FloatNet::new(10, 8, 1);
        assert_eq!(
            net.quantise::<V>(200),
            Err(NetError::FeatureCount {
                found: 10,
                expected: 520
            })
        );
        let wide = FloatNet::new(520, 129, 1);
        assert!(matches!(
            wide.quantise::<V>(200),
            Err(NetError::Field {
                field: "hidden size",
                ..
            })
        ));
        let _ = Color::Black;
    }

    #[test]
    fn weight_decay_shrinks_the_transformer() {
        // Decay multiplies the transformer's weights by (1 - 0.01 * 5) = 0.95 a step, far
        // more than Adam's steps of at most 0.01 a weight move them back: their norm ends
        // lower than without decay. The output layer is not decayed.
        let samples = material_samples(20, 8);
        let features = Layout::of::<V>().features();
        let norm = |decay: f32| {
            let mut net = FloatNet::new(features, 8, 1);
            let cfg = TrainConfig {
                weight_decay: decay,
                ..small_config(1)
            };
            train(&mut net, &samples, &cfg, &mut |_, _, _| {});
            let ft = features * 8;
            net.params[..ft].iter().map(|w| w * w).sum::<f32>()
        };
        let (plain, decayed) = (norm(0.0), norm(5.0));
        assert!(decayed < plain / 2.0, "{plain} -> {decayed}");
    }
}
