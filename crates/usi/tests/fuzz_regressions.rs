//! Regression tests from fuzzing the USI loop: the inputs of `tests/data/fuzz/usi_protocol/`
//! run through the same property check as the `usi_protocol` fuzz target
//! (`fuzz/src/usi_props.rs`, included below), in every `cargo test`.
//!
//! The directory holds the seed sessions the fuzzer starts from and the inputs that once
//! found a problem that is now fixed; every file must pass. The first byte of a file picks
//! the start variant (`0` kyoto, `1` micro, `2` kinzoku); the rest is USI input (see
//! `fuzz/src/usi_props.rs` for the abbreviation of long lines).
//!
//! To add an input that the fuzzer found (`fuzz/artifacts/usi_protocol/crash-...`):
//! minimise it with `cargo fuzz tmin`, copy it to `tests/data/fuzz/usi_protocol/` under a
//! name that says what it is, and run this test. See docs/testing.md.

#[path = "../../../fuzz/src/usi_props.rs"]
mod usi_props;

use std::path::{Path, PathBuf};

/// The files of `tests/data/fuzz/usi_protocol`, sorted.
fn inputs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz/usi_protocol");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

#[test]
fn usi_protocol_inputs() {
    let files = inputs();
    assert!(files.len() >= 6, "the seed sessions are missing");
    for path in &files {
        let bytes = std::fs::read(path).expect("read input");
        let result = std::panic::catch_unwind(|| usi_props::usi_protocol(&bytes));
        if let Err(e) = result {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("{}: {msg}", path.display());
        }
    }
}

/// The harness itself: the long-line abbreviation, and a session whose answers it checks.
#[test]
fn harness_expands_long_lines_and_checks_answers() {
    assert_eq!(
        usi_props::expand(b"a\n\0\0\0\x03xy\nb"),
        b"a\nxyxyxyxyxyxy\nb"
    );
    assert_eq!(usi_props::expand(b"\0\0\0\x01"), b"xxxx");
    assert_eq!(usi_props::expand(b"\0\0\0"), b"\0\0\0");
    // Only the first abbreviation of an input is expanded.
    assert_eq!(
        usi_props::expand(b"\0\0\0\x01\n\0\0\0\x01"),
        b"xxxx\n\0\0\0\x01"
    );
    assert_eq!(usi_props::expand(b"\0\0\x40\0ab").len(), 65536);
    usi_props::usi_protocol(b"0\nisready\nposition startpos\ngo infinite\nstop\n");
    usi_props::usi_protocol(b"2");
    usi_props::usi_protocol(b"");
}
