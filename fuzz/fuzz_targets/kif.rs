//! Fuzz target `kif`: see `kshogi_fuzz::props::kif_roundtrip` for the property it checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kshogi_fuzz::props::kif_roundtrip(data);
});
