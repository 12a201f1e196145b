//! Opening the perfect-play databases for `kshogi analyze` and `kshogi usi`: one per
//! variant the solver indexes (the registry's `with_index!`), from a named file or from the
//! default paths ([`crate::db_path`]). The databases themselves and the lookups are the
//! analysis service's (`kshogi_analysis::Databases`).

use crate::db_path;
use crate::error::CliError;
use crate::solve_cmd::{db_error, solvable_names};
use kshogi_analysis::Databases;
use kshogi_registry::{with_index, VariantKind};
use kshogi_solver::db::{self, DbError};
use std::path::{Path, PathBuf};

/// What `kshogi analyze` has for the variant of its position.
pub enum DbChoice {
    /// The variant has no database (the solver has no index for it).
    NotApplicable,
    /// Opened and checked: the databases hold the one for the variant.
    Open(Databases),
    /// No file at the default path (`None`: there is no default path).
    Missing(Option<PathBuf>),
}

/// How to build the database of `variant` again, for messages about a damaged file.
fn rebuild(variant: &str, named: bool) -> String {
    if named {
        format!("kshogi solve {variant} --out FILE --force")
    } else {
        format!("kshogi solve {variant} --force")
    }
}

/// The database of `kind` for `kshogi analyze`: `explicit` (which must be a usable database
/// of that variant), else the file at the default path if there is one. A file that is
/// there but cannot be used is an error, never ignored.
pub fn for_kind(kind: VariantKind, explicit: Option<&Path>) -> Result<DbChoice, CliError> {
    let name = kind.name();
    let opened = with_index!(kind, I => {
        let mut dbs = Databases::none();
        match explicit {
            Some(path) => dbs
                .open::<I>(path)
                .map(|()| DbChoice::Open(dbs))
                .map_err(|e| db_error(e, Some(&rebuild(name, true)))),
            None => match dbs.open_default::<I>() {
                Ok(Some(_)) => Ok(DbChoice::Open(dbs)),
                Ok(None) => Ok(DbChoice::Missing(db_path::default_path(name))),
                Err((_, e)) => Err(db_error(e, Some(&rebuild(name, false)))),
            },
        }
    });
    opened.unwrap_or(Ok(DbChoice::NotApplicable))
}

/// The database file `path` for `kshogi usi`, opened as a database of the variant its
/// header names.
pub fn open_named(path: &Path) -> Result<Databases, CliError> {
    let name = db::variant_of(path).map_err(|e| db_error(e, None))?;
    let unknown = || {
        CliError::Database(format!(
            "{}: a database of `{name}`, which kshogi does not solve (it solves {})",
            path.display(),
            solvable_names()
        ))
    };
    let kind = VariantKind::from_name(&name).ok_or_else(unknown)?;
    let mut dbs = Databases::none();
    let opened: Option<Result<(), DbError>> = with_index!(kind, I => dbs.open::<I>(path));
    opened
        .ok_or_else(unknown)?
        .map_err(|e| db_error(e, Some(&rebuild(&name, true))))?;
    Ok(dbs)
}

/// The databases at the default paths of every variant the solver indexes, where a file is
/// there; a file that cannot be used goes to `warn` and is left out.
pub fn open_defaults(warn: impl Fn(&Path, &DbError)) -> Databases {
    let mut dbs = Databases::none();
    for &kind in VariantKind::SOLVABLE {
        let opened = with_index!(kind, I => dbs.open_default::<I>());
        if let Some(Err((path, e))) = opened {
            warn(&path, &e);
        }
    }
    dbs
}
