//! Ctrl-C (SIGINT): what it does depends on the command.
//!
//! - `analyze`: the first Ctrl-C raises the search's stop flag ([`stop_flag`]), so the
//!   search returns its best lines so far and they are printed; a second Ctrl-C exits at
//!   once with status 130.
//! - `perft`: the first Ctrl-C raises the same flag; the count stops within milliseconds,
//!   the root moves counted completely are printed, and the process exits with status 130.
//!
//! Only one handler can be installed per process; each command installs at most one. When
//! the handler cannot be installed, Ctrl-C keeps its default effect (the process ends).

use std::sync::atomic::{AtomicBool, Ordering};

/// The exit status after an interrupt: 128 + SIGINT, as shells report it.
pub const INTERRUPTED_EXIT: i32 = 130;

/// Raised by the first Ctrl-C.
static STOP: AtomicBool = AtomicBool::new(false);

/// Installs the handler and returns the flag it raises: the first Ctrl-C sets it, the second
/// exits with status 130.
pub fn stop_flag() -> &'static AtomicBool {
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            eprintln!("error: interrupted twice; exiting without a result");
            std::process::exit(INTERRUPTED_EXIT);
        }
    });
    &STOP
}
