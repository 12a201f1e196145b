//! The property of the `usi_protocol_parse` fuzz target: the typed USI protocol
//! (`kshogi-usi-protocol`) on arbitrary text.
//!
//! The input is cut into lines at `\n` (bytes that are not UTF-8 are replaced). Each line is
//! read as a message from the GUI and as a message from the engine; neither reading may
//! panic, and a line that reads as a message prints as a line that reads back as the same
//! message (`GuiMessage`) or as a message again (`EngineMessage`, whose reading skips
//! unknown `info` fields).

use kshogi_usi_protocol::{EngineMessage, GuiMessage};

/// Checks the property on `data`; panics when it fails.
pub fn usi_protocol_parse(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for line in text.split('\n') {
        if let Ok(m) = line.parse::<GuiMessage>() {
            let printed = m.to_string();
            assert_eq!(printed.parse::<GuiMessage>().as_ref(), Ok(&m), "{line:?} -> {printed:?}");
        }
        if let Ok(m) = line.parse::<EngineMessage>() {
            let printed = m.to_string();
            assert!(printed.parse::<EngineMessage>().is_ok(), "{line:?} -> {printed:?}");
        }
    }
}
