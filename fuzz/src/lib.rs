//! The properties the kshogi fuzz targets check, in a module of their own so that the
//! regression tests (`crates/notation/tests/fuzz_regressions.rs`) run exactly the same code
//! on the committed inputs.

#[path = "props.rs"]
pub mod props;
