//! Perfect-play databases as the service asks them: [`PerfectPlay`], implemented for the
//! solver's database file ([`Database`]) and its in-memory table ([`Table`]) of any index,
//! the set of databases a front end has opened ([`Databases`], at most one per variant) and
//! where a database file is looked for when none is named ([`default_path`]).
//!
//! Nothing here names a variant: a database is for the variant of its index
//! ([`Indexed::V`]), so the type system keeps a database to its own variant, and
//! [`Databases`] finds the one for a variant by its type. Which variants have an index is
//! the registry's business; the front ends open the files.

use core::any::{Any, TypeId};
use kshogi_core::{Position, Variant};
use kshogi_solver::db::{Database, DbError, Probe};
use kshogi_solver::generic::{Indexed, Table};
use kshogi_solver::value::Value;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A perfect-play database for variant `V`, as the analysis service asks it.
pub trait PerfectPlay<V: Variant>: Send + Sync {
    /// The value of `pos` for its side to move under perfect play; `Ok(None)` when the
    /// database does not cover it (a database of a sub-game). A damaged database is an
    /// error, never a wrong answer.
    fn value(&self, pos: &Position<V>) -> Result<Option<Value>, DbError>;

    /// What the database covers, in words (for messages): `every position of the game`,
    /// `positions with at most 2 pieces besides the kings`.
    fn coverage(&self) -> String;
}

impl<I: Indexed> PerfectPlay<I::V> for Database<I> {
    fn value(&self, pos: &Position<I::V>) -> Result<Option<Value>, DbError> {
        Probe::value(self, pos)
    }

    fn coverage(&self) -> String {
        Probe::index(self).coverage()
    }
}

impl<I: Indexed> PerfectPlay<I::V> for Table<I> {
    fn value(&self, pos: &Position<I::V>) -> Result<Option<Value>, DbError> {
        Probe::value(self, pos)
    }

    fn coverage(&self) -> String {
        Probe::index(self).coverage()
    }
}

/// One opened database: its variant, its file and the database itself (an
/// `Arc<dyn PerfectPlay<V>>` of that variant).
#[derive(Clone)]
struct Opened {
    variant: TypeId,
    name: &'static str,
    path: PathBuf,
    db: Arc<dyn Any + Send + Sync>,
}

/// The perfect-play databases a front end has opened, at most one per variant, shared by
/// every analysis and cheap to clone.
#[derive(Clone, Default)]
pub struct Databases {
    opened: Vec<Opened>,
}

impl core::fmt::Debug for Databases {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_map()
            .entries(self.opened.iter().map(|o| (o.name, &o.path)))
            .finish()
    }
}

impl Databases {
    /// No database: every position is searched.
    pub fn none() -> Databases {
        Databases::default()
    }

    /// Adds an opened database file; it replaces one of the same variant.
    pub fn add<I: Indexed + 'static>(&mut self, db: Database<I>) {
        let path = db.path().to_path_buf();
        let db: Arc<dyn PerfectPlay<I::V>> = Arc::new(db);
        let variant = TypeId::of::<I::V>();
        self.opened.retain(|o| o.variant != variant);
        self.opened.push(Opened {
            variant,
            name: <I::V as Variant>::NAME,
            path,
            db: Arc::new(db),
        });
    }

    /// Opens the database file of index `I` at `path` (which must be a usable database of
    /// its variant) and adds it.
    pub fn open<I: Indexed + 'static>(&mut self, path: &Path) -> Result<(), DbError> {
        Database::<I>::open(path).map(|db| self.add(db))
    }

    /// Opens and adds the database of index `I` at the default path of its variant
    /// ([`default_path`]) if there is a file there: `Ok(None)` when there is no default
    /// path or no file, `Ok(Some(path))` when it was opened, and an error when a file is
    /// there but cannot be used (it is never silently ignored).
    pub fn open_default<I: Indexed + 'static>(
        &mut self,
    ) -> Result<Option<PathBuf>, (PathBuf, DbError)> {
        let Some(path) = default_path(<I::V as Variant>::NAME) else {
            return Ok(None);
        };
        if path.symlink_metadata().is_err() {
            return Ok(None);
        }
        match self.open::<I>(&path) {
            Ok(()) => Ok(Some(path)),
            Err(e) => Err((path, e)),
        }
    }

    fn opened<V: Variant>(&self) -> Option<&Opened> {
        self.opened.iter().find(|o| o.variant == TypeId::of::<V>())
    }

    /// The database for variant `V`, if one was opened.
    pub fn for_variant<V: Variant>(&self) -> Option<&dyn PerfectPlay<V>> {
        let db = self
            .opened::<V>()?
            .db
            .downcast_ref::<Arc<dyn PerfectPlay<V>>>()?;
        Some(&**db)
    }

    /// The file of the database for `V`, if one was opened.
    pub fn path_for<V: Variant>(&self) -> Option<&Path> {
        self.opened::<V>().map(|o| o.path.as_path())
    }

    /// Whether no database was opened.
    pub fn is_empty(&self) -> bool {
        self.opened.is_empty()
    }
}

/// The file name of a variant's database inside its data directory: `<variant>.kdb`.
pub fn file_name(variant: &str) -> String {
    format!("{variant}.kdb")
}

/// Where the database file of the variant named `variant` ([`Variant::NAME`]) is looked for
/// when none is named, from this process's environment: `$KSHOGI_DB/<file>` when
/// `KSHOGI_DB` (the directory of the databases) is set and not empty, else
/// `$XDG_DATA_HOME/kshogi/<file>` when `XDG_DATA_HOME` is an absolute path, else
/// `$HOME/.local/share/kshogi/<file>`, where `<file>` is [`file_name`]; `None` when none of
/// these variables is set.
pub fn default_path(variant: &str) -> Option<PathBuf> {
    default_path_from(
        std::env::var_os("KSHOGI_DB"),
        std::env::var_os("XDG_DATA_HOME"),
        std::env::var_os("HOME"),
        &file_name(variant),
    )
}

/// [`default_path`] given the values of `KSHOGI_DB`, `XDG_DATA_HOME` and `HOME` and the
/// file name.
pub fn default_path_from(
    kshogi_db: Option<OsString>,
    xdg_data_home: Option<OsString>,
    home: Option<OsString>,
    file: &str,
) -> Option<PathBuf> {
    let set = |v: Option<OsString>| v.filter(|s| !s.is_empty()).map(PathBuf::from);
    if let Some(dir) = set(kshogi_db) {
        return Some(dir.join(file));
    }
    if let Some(data) = set(xdg_data_home).filter(|p| p.is_absolute()) {
        return Some(data.join("kshogi").join(file));
    }
    set(home).map(|h| h.join(".local").join("share").join("kshogi").join(file))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(s: &str) -> Option<OsString> {
        Some(OsString::from(s))
    }

    #[test]
    fn the_first_variable_set_decides() {
        let f = "v.kdb";
        assert_eq!(
            default_path_from(os("/x/dbs"), os("/data"), os("/home/u"), f),
            Some(PathBuf::from("/x/dbs/v.kdb"))
        );
        assert_eq!(
            default_path_from(None, os("/data"), os("/home/u"), f),
            Some(PathBuf::from("/data/kshogi/v.kdb"))
        );
        assert_eq!(
            default_path_from(None, None, os("/home/u"), f),
            Some(PathBuf::from("/home/u/.local/share/kshogi/v.kdb"))
        );
        assert_eq!(default_path_from(None, None, None, f), None);
        assert_eq!(file_name("dobutsu"), "dobutsu.kdb");
    }

    #[test]
    fn empty_and_relative_values_are_ignored() {
        let f = "v.kdb";
        assert_eq!(
            default_path_from(os(""), os(""), os("/home/u"), f),
            Some(PathBuf::from("/home/u/.local/share/kshogi/v.kdb"))
        );
        assert_eq!(
            default_path_from(None, os("relative/data"), os("/home/u"), f),
            Some(PathBuf::from("/home/u/.local/share/kshogi/v.kdb"))
        );
        // KSHOGI_DB names a directory; a relative one is fine.
        assert_eq!(
            default_path_from(os("dbs"), None, None, f),
            Some(PathBuf::from("dbs/v.kdb"))
        );
        assert_eq!(default_path_from(None, os("rel"), os(""), f), None);
    }
}
