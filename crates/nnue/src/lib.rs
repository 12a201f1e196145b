//! # kshogi-nnue
//!
//! An efficiently updatable neural network evaluation (NNUE) for the small boards of the
//! kshogi variants (12 to 49 squares plus hands), and the code that trains it.
//!
//! - [`features`]: the input features of a position from each side's view (piece colour
//!   relative to the side, face, square as that side sees it; "holds at least `i`" hand
//!   features), sized from the variant's tables ([`Layout`]);
//! - [`network`]: the integer net, `(F -> H) x 2 -> 1`: a feature transformer shared by
//!   both perspectives (`i16`), the two accumulators side to move first, a clipped ReLU,
//!   one output neuron in centipawns; the [`Accumulator`] refreshed from a position or
//!   updated by a move (board move, capture to hand, promotion or flip, drop) and taken
//!   back, with no heap allocation; deterministic integer inference;
//! - [`mod@file`]: the net file (a header with magic, format version, variant name, feature
//!   count, `H` and the quantisation scales, then the weights and a checksum), read with
//!   every field checked into a typed [`NetError`];
//! - [`train`]: the float net, Adam on minibatches deterministic from a seed whatever the
//!   thread count, and quantisation to the integer net.
//!
//! Why `H` is small (64 by default in the trainer, at most [`MAX_HIDDEN`]): these boards
//! have 500 to 2,000 features with 10 to 40 active, and the training data are self-play
//! positions made on a small machine (tens to hundreds of thousands); 64 units per
//! perspective keep the transformer within a few hundred KiB (in the processor's caches), a
//! move's update to a few vector instructions per feature, and the net small enough not to
//! overfit such data.
//!
//! Everything is generic over [`Variant`](kshogi_core::Variant); this crate depends on
//! `kshogi-core` only: it must not depend on any rules crate, the engine, the registry or a
//! front end, and it names no variant. The engine's `Evaluator` over a net lives above the
//! engine (the tuner's `kshogi-nnue` program).

pub mod features;
pub mod file;
pub mod network;
pub mod train;

pub use features::{Delta, Layout};
pub use file::{NetError, FORMAT_VERSION, MAGIC};
pub use network::{Accumulator, Network, MAX_EVAL, MAX_HIDDEN};
pub use train::{FloatNet, Sample, TrainConfig};
