//! The properties the kshogi fuzz targets check, in modules of their own so that the
//! regression tests (`crates/notation/tests/fuzz_regressions.rs` for `props`,
//! `crates/cli/tests/fuzz_regressions.rs` for `usi_props`) run exactly the same code on the
//! committed inputs.

#[path = "props.rs"]
pub mod props;
#[path = "protocol_props.rs"]
pub mod protocol_props;
#[path = "usi_props.rs"]
pub mod usi_props;
