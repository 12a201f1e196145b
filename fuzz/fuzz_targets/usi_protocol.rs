//! Fuzz target `usi_protocol`: the USI loop of `kshogi usi` on arbitrary input; see
//! `kshogi_fuzz::usi_props::usi_protocol` for the input format and the properties checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kshogi_fuzz::usi_props::usi_protocol(data);
});
