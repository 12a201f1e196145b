//! The win/draw/loss model: what a score says about the game's result.
//!
//! A [`WdlModel`] turns a search [`Score`] into the chances of a win, a draw and a loss for
//! the side to move. It is the one such model of a variant: the USI loop's `UCI_ShowWDL`
//! lines, game review's expected scores and judgements, and the evaluation tuner's scale all
//! use it. The registry gives each variant its model (`Registered::WDL` in
//! `kshogi-registry`), fitted by the tuner to the results of self-play games
//! (docs/tuning.md).
//!
//! The model has two parameters, both in centipawns: a `scale` `s` and a `draw_margin` `m`.
//! For a score of `x` centipawns,
//!
//! ```text
//! P(win)  = sigmoid((x - m) / s)
//! P(loss) = sigmoid((-x - m) / s)
//! P(draw) = 1 - P(win) - P(loss)
//! ```
//!
//! where `sigmoid(t) = 1 / (1 + e^-t)`. It is symmetric (a score and its negation swap the
//! win and loss chances), a larger margin means more draws near equality, and with `m = 0`
//! there are no draws and the expected score is `sigmoid(x / s)`: the tuner's
//! `sigmoid(K * x)` with `K = 1 / s`. A mate score is a certain result.

use crate::Score;

/// The win/draw/loss model of a variant (see the [module documentation](self)).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WdlModel {
    /// Centipawns per unit of the logistic: the larger, the slower a lead turns into a win.
    pub scale: f64,
    /// Centipawns by which a score must pass equality before a win becomes likelier than a
    /// draw; zero for a variant without draws.
    pub draw_margin: f64,
}

/// Chances of a result for the side to move, per mille (they add up to 1000).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Wdl {
    /// Wins in a thousand.
    pub win: u32,
    /// Draws in a thousand.
    pub draw: u32,
    /// Losses in a thousand.
    pub loss: u32,
}

/// The logistic function.
fn sigmoid(t: f64) -> f64 {
    1.0 / (1.0 + (-t).exp())
}

impl WdlModel {
    /// The model of a variant whose tuner has not fitted one: a scale of 200 centipawns (a
    /// pawn-sized lead wins about 62% of games) and no draws. The fitted models of the
    /// built-in variants are in the registry.
    pub const DEFAULT: WdlModel = WdlModel::new(200.0, 0.0);

    /// A model with the given scale and draw margin, both in centipawns. The scale must be
    /// positive and the margin non-negative (checked by [`WdlModel::is_valid`]).
    pub const fn new(scale: f64, draw_margin: f64) -> WdlModel {
        WdlModel { scale, draw_margin }
    }

    /// Whether the parameters are usable: a finite positive scale, a finite non-negative
    /// margin.
    pub fn is_valid(&self) -> bool {
        self.scale.is_finite()
            && self.scale > 0.0
            && self.draw_margin.is_finite()
            && self.draw_margin >= 0.0
    }

    /// Win, draw and loss probabilities (adding up to 1) for the side to move at `cp`
    /// centipawns.
    pub fn probabilities(&self, cp: f64) -> [f64; 3] {
        let win = sigmoid((cp - self.draw_margin) / self.scale);
        let loss = sigmoid((-cp - self.draw_margin) / self.scale);
        // With a non-negative margin, win + loss <= 1; the clamp guards rounding only.
        let draw = (1.0 - win - loss).max(0.0);
        [win, draw, loss]
    }

    /// Win/draw/loss per mille for the side to move. A mate score is a certain result:
    /// 1000/0/0 for a win, 0/0/1000 for a loss.
    pub fn wdl(&self, score: Score) -> Wdl {
        match score {
            Score::Mate(n) if n > 0 => Wdl {
                win: 1000,
                draw: 0,
                loss: 0,
            },
            Score::Mate(_) => Wdl {
                win: 0,
                draw: 0,
                loss: 1000,
            },
            Score::Cp(cp) => {
                let [w, _, l] = self.probabilities(f64::from(cp));
                let win = (w * 1000.0).round() as u32;
                let loss = ((l * 1000.0).round() as u32).min(1000 - win);
                Wdl {
                    win,
                    draw: 1000 - win - loss,
                    loss,
                }
            }
        }
    }

    /// The expected score in `[0, 1]` for the side to move: the chance of a win plus half
    /// the chance of a draw. A mate score gives 1 or 0.
    pub fn expected_score(&self, score: Score) -> f64 {
        match score {
            Score::Mate(n) if n > 0 => 1.0,
            Score::Mate(_) => 0.0,
            Score::Cp(cp) => {
                let [w, d, _] = self.probabilities(f64::from(cp));
                w + d / 2.0
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equality_is_even_and_scores_are_symmetric() {
        let m = WdlModel::new(150.0, 80.0);
        assert!((m.expected_score(Score::Cp(0)) - 0.5).abs() < 1e-12);
        for cp in [-900, -120, -1, 1, 37, 400, 2500] {
            let a = m.wdl(Score::Cp(cp));
            let b = m.wdl(Score::Cp(-cp));
            assert_eq!((a.win, a.draw, a.loss), (b.loss, b.draw, b.win), "cp {cp}");
            assert_eq!(a.win + a.draw + a.loss, 1000);
            let e = m.expected_score(Score::Cp(cp)) + m.expected_score(Score::Cp(-cp));
            assert!((e - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn known_values() {
        // At the margin, a win is a coin flip: sigmoid(0) = 1/2.
        let m = WdlModel::new(100.0, 50.0);
        let [w, _, l] = m.probabilities(50.0);
        assert!((w - 0.5).abs() < 1e-12);
        // loss = sigmoid(-100 / 100) = 1 / (1 + e) = 0.268941...
        assert!((l - 0.268_941_421).abs() < 1e-6);
        assert_eq!(
            m.wdl(Score::Cp(50)),
            Wdl {
                win: 500,
                draw: 231,
                loss: 269
            }
        );
        // Without a margin there are no draws and the expected score is sigmoid(x / s).
        let m = WdlModel::new(200.0, 0.0);
        let e = m.expected_score(Score::Cp(200));
        assert!((e - 1.0 / (1.0 + (-1.0f64).exp())).abs() < 1e-12);
        assert_eq!(m.wdl(Score::Cp(0)).draw, 0);
    }

    #[test]
    fn more_is_better_and_mates_are_certain() {
        let m = WdlModel::new(120.0, 60.0);
        let mut last = -1.0;
        for cp in (-3000..=3000).step_by(25) {
            let e = m.expected_score(Score::Cp(cp));
            assert!(e > last, "not increasing at {cp}");
            last = e;
        }
        assert_eq!(m.expected_score(Score::Mate(3)), 1.0);
        assert_eq!(m.expected_score(Score::Mate(-2)), 0.0);
        assert_eq!(m.wdl(Score::Mate(1)).win, 1000);
        assert_eq!(m.wdl(Score::Mate(-1)).loss, 1000);
    }

    #[test]
    fn validity() {
        assert!(WdlModel::DEFAULT.is_valid());
        assert!(!WdlModel::new(0.0, 0.0).is_valid());
        assert!(!WdlModel::new(100.0, -1.0).is_valid());
        assert!(!WdlModel::new(f64::NAN, 0.0).is_valid());
    }
}
