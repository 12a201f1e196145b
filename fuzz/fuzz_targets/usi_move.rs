//! Fuzz target `usi_move`: see `kshogi_fuzz::props::usi_move` for the property it checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kshogi_fuzz::props::usi_move(data);
});
