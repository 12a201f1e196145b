//! Perfect-play databases as the service asks them: [`PerfectPlay`], implemented for the
//! solver's database file ([`Database`]) and its in-memory table ([`Solved`]), the set of
//! databases a front end has opened ([`Databases`]) and where a database file is looked
//! for when none is named ([`default_path`]).
//!
//! The service never asks which variant a database is for by name: a database answers
//! `None` ("not covered") for a position it does not cover, including every position of a
//! variant it is not for. The solver's database says which variant it is for through its
//! own API: its [`Probe::value`] takes positions of that variant, so [`SolverVariant`]
//! reads the variant off that signature and a position of another variant is simply not
//! one of its positions (a type check, [`core::any::Any`]). When the solver becomes generic
//! over the variant, these impls become one impl for its database of `V`; the service does
//! not change.

use core::any::{Any, TypeId};
use kshogi_core::{Position, Variant};
use kshogi_solver::db::{Database, DbError, Probe};
use kshogi_solver::retro::Solved;
use kshogi_solver::value::Value;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A perfect-play database for variant `V`, as the analysis service asks it.
pub trait PerfectPlay<V: Variant>: Send + Sync {
    /// The value of `pos` for its side to move under perfect play; `Ok(None)` when the
    /// database does not cover it (too many pieces, or a position of a variant it is not
    /// for). A damaged database is an error, never a wrong answer.
    fn value(&self, pos: &Position<V>) -> Result<Option<Value>, DbError>;

    /// Whether this database is for variant `V` at all (it may still not cover a position).
    fn serves(&self) -> bool;

    /// The most pieces besides the kings a covered position has (for messages).
    fn max_pieces(&self) -> usize;
}

/// The variant the solver's databases are for, read off the signature of the solver's
/// probe (`fn(&P, &Position<W>)`): its [`TypeId`] and its [`Variant::NAME`].
pub struct SolverVariant;

impl SolverVariant {
    fn of<P, W: Variant>(
        _probe: fn(&P, &Position<W>) -> Result<Value, DbError>,
    ) -> (TypeId, &'static str) {
        (TypeId::of::<W>(), W::NAME)
    }

    /// The [`Variant::NAME`] of the variant the solver's databases are for.
    pub fn name() -> &'static str {
        Self::of(<Database as Probe>::value).1
    }

    /// Whether the solver's databases are for `V`.
    pub fn is<V: Variant>() -> bool {
        Self::of(<Database as Probe>::value).0 == TypeId::of::<V>()
    }
}

/// `pos` as a position of the probe's variant `W`, when `V` is `W`.
fn solver_position<P, V: Variant, W: Variant>(
    pos: &Position<V>,
    _probe: fn(&P, &Position<W>) -> Result<Value, DbError>,
) -> Option<&Position<W>> {
    (pos as &dyn Any).downcast_ref::<Position<W>>()
}

/// [`PerfectPlay::value`] for a solver probe.
fn probe_value<P: Probe, V: Variant>(p: &P, pos: &Position<V>) -> Result<Option<Value>, DbError> {
    let Some(pos) = solver_position(pos, <P as Probe>::value) else {
        return Ok(None);
    };
    match p.value(pos) {
        Ok(v) => Ok(Some(v)),
        Err(DbError::NotCovered(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

impl<V: Variant> PerfectPlay<V> for Database {
    fn value(&self, pos: &Position<V>) -> Result<Option<Value>, DbError> {
        probe_value(self, pos)
    }

    fn serves(&self) -> bool {
        SolverVariant::is::<V>()
    }

    fn max_pieces(&self) -> usize {
        self.layout().max_pieces()
    }
}

impl<V: Variant> PerfectPlay<V> for Solved {
    fn value(&self, pos: &Position<V>) -> Result<Option<Value>, DbError> {
        probe_value(self, pos)
    }

    fn serves(&self) -> bool {
        SolverVariant::is::<V>()
    }

    fn max_pieces(&self) -> usize {
        Probe::layout(self).max_pieces()
    }
}

/// The perfect-play databases a front end has opened (today at most one: the solver's
/// database file), shared by every analysis and cheap to clone.
#[derive(Clone, Default)]
pub struct Databases {
    solver: Option<Arc<Database>>,
}

impl core::fmt::Debug for Databases {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Databases")
            .field(
                "solver",
                &self.solver.as_ref().map(|d| d.path().to_path_buf()),
            )
            .finish()
    }
}

impl Databases {
    /// No database: every position is searched.
    pub fn none() -> Databases {
        Databases::default()
    }

    /// The solver's database file, opened.
    pub fn with(db: Database) -> Databases {
        Databases {
            solver: Some(Arc::new(db)),
        }
    }

    /// Opens the database file at `path` (which must be a usable database).
    pub fn open(path: &Path) -> Result<Databases, DbError> {
        Database::open(path).map(Databases::with)
    }

    /// The database file at the default path ([`default_path`]) if there is a file there:
    /// `Ok` with no database when there is no default path or no file; an error when a file
    /// is there but cannot be used (it is never silently ignored).
    pub fn open_default() -> Result<Databases, (PathBuf, DbError)> {
        let Some(path) = default_path() else {
            return Ok(Databases::none());
        };
        if path.symlink_metadata().is_err() {
            return Ok(Databases::none());
        }
        Databases::open(&path).map_err(|e| (path, e))
    }

    /// The database for variant `V`, if one was opened.
    pub fn for_variant<V: Variant>(&self) -> Option<&dyn PerfectPlay<V>> {
        let db = self.solver.as_deref()?;
        PerfectPlay::<V>::serves(db).then_some(db as &dyn PerfectPlay<V>)
    }

    /// The file of the database for `V`, if one was opened.
    pub fn path_for<V: Variant>(&self) -> Option<&Path> {
        let db = self.solver.as_deref()?;
        PerfectPlay::<V>::serves(db).then(|| db.path())
    }
}

/// The file name of the solver's database inside its data directory: `<variant>.kdb`.
pub fn file_name() -> String {
    format!("{}.kdb", SolverVariant::name())
}

/// Where the solver's database file is looked for when none is named, from this process's
/// environment: `$KSHOGI_DB` (the file itself) when set and not empty, else
/// `$XDG_DATA_HOME/kshogi/<file>` when `XDG_DATA_HOME` is an absolute path, else
/// `$HOME/.local/share/kshogi/<file>`, where `<file>` is [`file_name`]; `None` when none of
/// these variables is set.
pub fn default_path() -> Option<PathBuf> {
    default_path_from(
        std::env::var_os("KSHOGI_DB"),
        std::env::var_os("XDG_DATA_HOME"),
        std::env::var_os("HOME"),
        &file_name(),
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
    if let Some(file) = set(kshogi_db) {
        return Some(file);
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
            default_path_from(os("/x/db.kdb"), os("/data"), os("/home/u"), f),
            Some(PathBuf::from("/x/db.kdb"))
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
        // KSHOGI_DB names a file; a relative one is fine.
        assert_eq!(
            default_path_from(os("k.kdb"), None, None, f),
            Some(PathBuf::from("k.kdb"))
        );
        assert_eq!(default_path_from(None, os("rel"), os(""), f), None);
    }
}
