//! The `kshogi` binary: the command line of `kshogi-cli` (see the library's documentation)
//! on the process's arguments. It must not hold anything but this call.

use std::process::ExitCode;

fn main() -> ExitCode {
    kshogi_cli::kshogi_main()
}
