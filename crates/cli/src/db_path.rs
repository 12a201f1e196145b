//! Where a variant's database lives when no file is named on the command line.
//!
//! `kshogi solve <variant>` writes it there and `kshogi analyze` and `kshogi usi` look for
//! it there, `<variant>.kdb` (`kinzoku.kdb`, `dobutsu.kdb`) in:
//!
//! 1. `$KSHOGI_DB`, when set and not empty: the directory of the database files;
//! 2. else `$XDG_DATA_HOME/kshogi`, when `XDG_DATA_HOME` is set to an absolute path (the
//!    XDG base directory specification ignores a relative one);
//! 3. else `$HOME/.local/share/kshogi`.
//!
//! With none of these variables there is no default path, and a file must be named.

use std::path::PathBuf;

/// The default path in words, as a string literal, so that help texts can `concat!` it.
macro_rules! db_path_help {
    () => {
        "\
The database of a variant, <variant>.kdb (kinzoku.kdb, dobutsu.kdb), is looked for (and
written, by `kshogi solve <variant>`) in:
  $KSHOGI_DB                     if set (the directory of the database files),
  else $XDG_DATA_HOME/kshogi     if XDG_DATA_HOME is set (an absolute path),
  else $HOME/.local/share/kshogi."
    };
}
pub(crate) use db_path_help;

/// The default path in words, for the help texts.
pub const DB_PATH_HELP: &str = db_path_help!();

/// The default database path of the variant named `variant` from this process's
/// environment (see the module documentation), or `None` when none of the variables is
/// set. The lookup itself is the analysis service's
/// (`kshogi_analysis::database::default_path`), which `kshogi usi` uses too.
pub fn default_path(variant: &str) -> Option<PathBuf> {
    kshogi_analysis::database::default_path(variant)
}

/// The default path, or an error message saying how to name a file instead.
pub fn default_path_or_error(variant: &str, option: &str) -> Result<PathBuf, String> {
    default_path(variant).ok_or_else(|| {
        format!(
            "no default database path: none of KSHOGI_DB, XDG_DATA_HOME and HOME is set; \
             give {option} FILE"
        )
    })
}
