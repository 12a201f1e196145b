//! Where the Kinzoku database lives when no file is named on the command line.
//!
//! `kshogi solve kinzoku` writes it there and `kshogi analyze` looks for it there:
//!
//! 1. `$KSHOGI_DB`, when set and not empty: the path of the file itself;
//! 2. else `$XDG_DATA_HOME/kshogi/kinzoku.kdb`, when `XDG_DATA_HOME` is set to an absolute
//!    path (the XDG base directory specification ignores a relative one);
//! 3. else `$HOME/.local/share/kshogi/kinzoku.kdb`.
//!
//! With none of these variables there is no default path, and a file must be named.

use std::path::PathBuf;

/// The default path in words, as a string literal, so that help texts can `concat!` it.
macro_rules! db_path_help {
    () => {
        "\
The Kinzoku database is looked for (and written, by `kshogi solve kinzoku`) at:
  $KSHOGI_DB                                if set (the path of the file itself),
  else $XDG_DATA_HOME/kshogi/kinzoku.kdb    if XDG_DATA_HOME is set (an absolute path),
  else $HOME/.local/share/kshogi/kinzoku.kdb."
    };
}
pub(crate) use db_path_help;

/// The default path in words, for the help texts.
pub const DB_PATH_HELP: &str = db_path_help!();

/// The default database path from this process's environment (see the module
/// documentation), or `None` when none of the variables is set. The lookup itself is the
/// analysis service's (`kshogi_analysis::database::default_path`), which `kshogi usi` uses
/// too.
pub fn default_path() -> Option<PathBuf> {
    kshogi_analysis::database::default_path()
}

/// The default path, or an error message saying how to name a file instead.
pub fn default_path_or_error(option: &str) -> Result<PathBuf, String> {
    default_path().ok_or_else(|| {
        format!(
            "no default database path: none of KSHOGI_DB, XDG_DATA_HOME and HOME is set; \
             give {option} FILE"
        )
    })
}
