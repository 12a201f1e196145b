//! # kshogi-conformance
//!
//! The conformance suite: what every registered variant must satisfy, checked for each
//! entry of the variant list through the dispatch, so that a newly registered variant is
//! covered without an edit to the suite. The tests live in `tests/conformance.rs` (reference
//! perft, random games, USI sessions, the engine); see its documentation.
//!
//! This crate has no code and is never published; other crates must not depend on it. It sits above
//! every crate it drives (the registry, the engine and the USI loop), so that none of them
//! needs a dev-dependency on a crate above it.
