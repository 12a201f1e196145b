//! Fuzz target `sfen`: see `kshogi_fuzz::props::sfen_roundtrip` for the property it checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kshogi_fuzz::props::sfen_roundtrip(data);
});
