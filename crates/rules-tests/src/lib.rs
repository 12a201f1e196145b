//! # kshogi-rules-tests
//!
//! Behavioural tests of each variant's rules, written with SFEN and USI; no production code;
//! must not be depended on.
//!
//! The tests live in `tests/`:
//!
//! - `kyoto.rs`, `micro.rs`, `kinzoku.rs`: one test per rule of the seed texts and per
//!   **Decision** of the project's rules specification, each on a hand-built position.
//! - `validity.rs`: every kind of invalid position is an error, never a panic.
//! - `random_games.rs`: seeded random games checked move by move against an independent,
//!   deliberately slow reference move generator (`tests/common/reference.rs`) written from
//!   the rules specification, plus hash, make/unmake, SFEN and USI round trips and perft.
//! - `reference_model.rs`: that reference model reproduces the shared perft table of
//!   independent engines, so agreement with it means something.
