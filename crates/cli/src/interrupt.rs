//! Ctrl-C (SIGINT): what it does depends on the command.
//!
//! - `analyze`: the first Ctrl-C raises the search's stop flag ([`stop_flag`]), so the
//!   search returns its best lines so far and they are printed; a second Ctrl-C exits at
//!   once with status 130.
//! - `perft`: the first Ctrl-C raises the same flag; the count stops within milliseconds,
//!   the root moves counted completely are printed, and the process exits with status 130.
//! - `solve`: Ctrl-C ends the process at once with status 130 ([`exit_on_interrupt`]), after
//!   removing the temporary file of a database being written; the database file itself is
//!   only ever replaced whole, by a rename at the end. `solve --verify` just stops.
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

/// Installs a handler that runs `cleanup`, prints one `error:` line naming `what` was
/// abandoned and exits with status 130 at the first Ctrl-C.
pub fn exit_on_interrupt(what: &'static str, cleanup: impl Fn() + Send + 'static) {
    let _ = ctrlc::set_handler(move || {
        cleanup();
        if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            // Below the progress bars.
            eprintln!();
        }
        eprintln!("error: interrupted: {what}");
        std::process::exit(INTERRUPTED_EXIT);
    });
}
