//! Fuzz target `usi_protocol_parse`: the typed USI protocol's parsers on arbitrary text; see
//! `kshogi_fuzz::protocol_props::usi_protocol_parse` for the property it checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kshogi_fuzz::protocol_props::usi_protocol_parse(data);
});
