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

use std::ffi::OsString;
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

/// The file name of the database inside its data directory.
const FILE_NAME: &str = "kinzoku.kdb";

/// The default database path from this process's environment (see the module
/// documentation), or `None` when none of the variables is set.
pub fn default_path() -> Option<PathBuf> {
    default_path_from(
        std::env::var_os("KSHOGI_DB"),
        std::env::var_os("XDG_DATA_HOME"),
        std::env::var_os("HOME"),
    )
}

/// The default database path given the values of `KSHOGI_DB`, `XDG_DATA_HOME` and `HOME`.
pub fn default_path_from(
    kshogi_db: Option<OsString>,
    xdg_data_home: Option<OsString>,
    home: Option<OsString>,
) -> Option<PathBuf> {
    let set = |v: Option<OsString>| v.filter(|s| !s.is_empty()).map(PathBuf::from);
    if let Some(file) = set(kshogi_db) {
        return Some(file);
    }
    if let Some(data) = set(xdg_data_home).filter(|p| p.is_absolute()) {
        return Some(data.join("kshogi").join(FILE_NAME));
    }
    set(home).map(|h| {
        h.join(".local")
            .join("share")
            .join("kshogi")
            .join(FILE_NAME)
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn os(s: &str) -> Option<OsString> {
        Some(OsString::from(s))
    }

    #[test]
    fn the_first_variable_set_decides() {
        assert_eq!(
            default_path_from(os("/x/db.kdb"), os("/data"), os("/home/u")),
            Some(PathBuf::from("/x/db.kdb"))
        );
        assert_eq!(
            default_path_from(None, os("/data"), os("/home/u")),
            Some(PathBuf::from("/data/kshogi/kinzoku.kdb"))
        );
        assert_eq!(
            default_path_from(None, None, os("/home/u")),
            Some(PathBuf::from("/home/u/.local/share/kshogi/kinzoku.kdb"))
        );
        assert_eq!(default_path_from(None, None, None), None);
    }

    #[test]
    fn empty_and_relative_values_are_ignored() {
        assert_eq!(
            default_path_from(os(""), os(""), os("/home/u")),
            Some(PathBuf::from("/home/u/.local/share/kshogi/kinzoku.kdb"))
        );
        assert_eq!(
            default_path_from(None, os("relative/data"), os("/home/u")),
            Some(PathBuf::from("/home/u/.local/share/kshogi/kinzoku.kdb"))
        );
        // KSHOGI_DB names a file; a relative one is fine.
        assert_eq!(
            default_path_from(os("k.kdb"), None, None),
            Some(PathBuf::from("k.kdb"))
        );
        assert_eq!(default_path_from(None, os("rel"), os("")), None);
    }
}
