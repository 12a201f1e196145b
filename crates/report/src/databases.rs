//! Opening the perfect-play databases for a front end (`kshogi analyze`, `review`, `usi`):
//! one per variant the solver indexes (the registry's `with_index!`), from a named file or
//! from the default path (`kshogi_analysis::database::default_path`). A file that is named,
//! or is at the default path, and cannot be used is an error, never ignored; the error says
//! how to build it again.

use kshogi_analysis::database::default_path;
use kshogi_analysis::Databases;
use kshogi_registry::{with_index, VariantKind};
use kshogi_solver::db::{self, DbError};
use std::path::{Path, PathBuf};

/// The names of the variants the solver indexes, joined by `, `.
pub fn solvable_names() -> String {
    VariantKind::SOLVABLE
        .iter()
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a front end has for the variant of its position.
#[derive(Debug)]
pub enum DbChoice {
    /// The variant has no database (the solver has no index for it).
    NotApplicable,
    /// Opened and checked: the databases hold the one for the variant.
    Open(Databases),
    /// No file at the default path (`None`: there is no default path).
    Missing(Option<PathBuf>),
}

/// A database that cannot be used.
#[derive(Debug)]
pub enum OpenError {
    /// The file could not be read, is damaged, or is of another variant or format.
    Db {
        /// The database's error.
        source: DbError,
        /// The command that builds the file again, for a damaged file.
        rebuild: Option<String>,
    },
    /// The file is a database of a variant kshogi does not solve.
    NotSolved {
        /// The file.
        path: PathBuf,
        /// The variant its header names.
        name: String,
    },
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Db {
                source: DbError::Io { path, source },
                ..
            } => write!(f, "cannot read the database {}: {source}", path.display()),
            // The command is not in backticks: a front end may cut quotations short, and
            // it must stay whole, however long the path in it.
            OpenError::Db {
                source: e @ DbError::Bad { .. },
                rebuild: Some(cmd),
            } => write!(f, "{e}; rebuild it with: {cmd}"),
            OpenError::Db { source, .. } => write!(f, "{source}"),
            OpenError::NotSolved { path, name } => write!(
                f,
                "{}: a database of `{name}`, which kshogi does not solve (it solves {})",
                path.display(),
                solvable_names()
            ),
        }
    }
}

impl std::error::Error for OpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OpenError::Db { source, .. } => Some(source),
            OpenError::NotSolved { .. } => None,
        }
    }
}

/// How to build the database of `variant` again: to the file named on the command line
/// (`named`), or to the default path.
pub fn rebuild(variant: &str, named: bool) -> String {
    if named {
        format!("kshogi solve {variant} --out FILE --force")
    } else {
        format!("kshogi solve {variant} --force")
    }
}

/// The error of `source`, with how to build the file again.
fn db_error(source: DbError, rebuild: String) -> OpenError {
    OpenError::Db {
        source,
        rebuild: Some(rebuild),
    }
}

/// The database of `kind`: `explicit` (which must be a usable database of that variant),
/// else the file at the default path if there is one.
pub fn for_kind(kind: VariantKind, explicit: Option<&Path>) -> Result<DbChoice, OpenError> {
    let name = kind.name();
    let opened = with_index!(kind, I => {
        let mut dbs = Databases::none();
        match explicit {
            Some(path) => dbs
                .open::<I>(path)
                .map(|()| DbChoice::Open(dbs))
                .map_err(|e| db_error(e, rebuild(name, true))),
            None => match dbs.open_default::<I>() {
                Ok(Some(_)) => Ok(DbChoice::Open(dbs)),
                Ok(None) => Ok(DbChoice::Missing(default_path(name))),
                Err((_, e)) => Err(db_error(e, rebuild(name, false))),
            },
        }
    });
    opened.unwrap_or(Ok(DbChoice::NotApplicable))
}

/// The database file `path`, opened as a database of the variant its header names.
pub fn open_named(path: &Path) -> Result<Databases, OpenError> {
    let name = db::variant_of(path).map_err(|source| OpenError::Db {
        source,
        rebuild: None,
    })?;
    let unknown = || OpenError::NotSolved {
        path: path.to_path_buf(),
        name: name.clone(),
    };
    let kind = VariantKind::from_name(&name).ok_or_else(unknown)?;
    let mut dbs = Databases::none();
    let opened: Option<Result<(), DbError>> = with_index!(kind, I => dbs.open::<I>(path));
    opened
        .ok_or_else(unknown)?
        .map_err(|e| db_error(e, rebuild(&name, true)))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, bytes: &[u8]) -> PathBuf {
        let path = std::env::temp_dir().join(format!("kshogi-dbs-{name}-{}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn a_variant_without_an_index_has_no_database() {
        let kyoto = VariantKind::from_name("kyoto").unwrap();
        assert!(!VariantKind::SOLVABLE.contains(&kyoto));
        // Even a named file is not read for it.
        let choice = for_kind(kyoto, Some(Path::new("/no/such/file.kdb"))).unwrap();
        assert!(matches!(choice, DbChoice::NotApplicable), "{choice:?}");
        assert!(solvable_names().contains("kinzoku"), "{}", solvable_names());
    }

    #[test]
    fn a_named_file_that_is_no_database_is_an_error() {
        let kinzoku = VariantKind::from_name("kinzoku").unwrap();
        let missing = Path::new("/no/such/dir/kinzoku.kdb");
        let e = for_kind(kinzoku, Some(missing)).unwrap_err();
        assert!(matches!(e, OpenError::Db { .. }), "{e}");
        assert!(
            e.to_string()
                .starts_with("cannot read the database /no/such/dir/kinzoku.kdb: "),
            "{e}"
        );
        let junk = file("junk", b"not a database at all, just some bytes of text");
        let e = for_kind(kinzoku, Some(&junk)).unwrap_err();
        assert!(matches!(e, OpenError::Db { .. }), "{e}");
        assert!(open_named(&junk).is_err());
        std::fs::remove_file(&junk).unwrap();
    }

    #[test]
    fn a_damaged_file_says_how_to_rebuild_it() {
        assert_eq!(
            rebuild("dobutsu", true),
            "kshogi solve dobutsu --out FILE --force"
        );
        assert_eq!(rebuild("dobutsu", false), "kshogi solve dobutsu --force");
        let e = OpenError::NotSolved {
            path: PathBuf::from("x.kdb"),
            name: "chess".into(),
        };
        assert!(
            e.to_string().starts_with(
                "x.kdb: a database of `chess`, which kshogi does not solve (it solves "
            ),
            "{e}"
        );
    }
}
