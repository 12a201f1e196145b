//! Output files: the one place that decides whether a front end may write a path, checked
//! before the work starts, and that writes it.
//!
//! Every output option of every command goes through here (`show`/`analyze -o`, `perft
//! --report` and `--export-json`, `review --out`, `solve --out`): an output is never an
//! input of the same command, never an existing file without `--force`, never a directory,
//! and its directory must exist (or, for a database, be creatable) and be writable. With
//! `--force`:
//!
//! - a regular file is replaced through a temporary file beside it, renamed over it once
//!   the new contents are complete, so that nothing saved is lost if the write fails;
//! - a symbolic link is followed: the file it points to is replaced the same way, and the
//!   link stays (a link to a missing file, or to a directory, is refused);
//! - a FIFO or a device node is written through (opened for writing, as `>` in a shell
//!   does), never replaced by a regular file; where only a regular file will do (a
//!   database, [`Output::prepare_database`]), it is refused.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// An output path of a command and how it may be written.
#[derive(Clone, Debug)]
pub struct Output<'a> {
    /// The option that names it, for messages (`--report`, `-o`).
    pub option: &'a str,
    /// The path given.
    pub path: &'a Path,
    /// Whether `--force` was given.
    pub force: bool,
}

/// What stands at an output path now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Nothing: the file will be created.
    Nothing,
    /// A regular file, at this path (a symbolic link resolved to the file it names).
    Regular(PathBuf),
    /// A FIFO, a device node or a socket (possibly behind a symbolic link): written
    /// through, never replaced.
    Special(PathBuf),
}

/// Why an output will not (or cannot) be written.
#[derive(Debug)]
pub enum Problem {
    /// It is `what` (`the suite`), the file `input`, which the command reads.
    IsInput {
        /// The input in words.
        what: String,
        /// The input's path as given.
        input: PathBuf,
    },
    /// Something is there, and `--force` was not given.
    Exists,
    /// The file is there and read-only.
    ReadOnly,
    /// It is a directory.
    IsDirectory,
    /// It should be a directory (`review --out DIR`) and is not.
    NotADirectory,
    /// A symbolic link to nothing.
    DanglingLink,
    /// The directory it would be written in does not exist.
    NoDirectory(PathBuf),
    /// The directory it would be written in takes no new file.
    DirectoryNotWritable(PathBuf, std::io::Error),
    /// The system's answer when looking at it.
    Inspect(std::io::Error),
    /// The write itself failed.
    Write(std::io::Error),
    /// A database: the path is a directory.
    DatabaseIsDirectory,
    /// A database: a file is there, and `--force` was not given.
    DatabaseExists,
    /// A database: its directory could not be created.
    CreateDirectory(PathBuf, std::io::Error),
    /// A database: the path is a FIFO or a device.
    NotRegular,
}

/// An output that will not (or cannot) be written: the option and path, and why. Its
/// `Display` is one line naming both.
#[derive(Debug)]
pub struct OutputError {
    /// The option that names the output.
    pub option: String,
    /// The path given.
    pub path: PathBuf,
    /// Why.
    pub problem: Problem,
}

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = self.path.display();
        let shown = format!("{} `{path}`", self.option);
        match &self.problem {
            Problem::IsInput { what, input } => write!(
                f,
                "{shown} is {what} `{}`, which this command reads; give another file",
                input.display()
            ),
            Problem::Exists => write!(f, "{shown} already exists; give --force to replace it"),
            Problem::ReadOnly => write!(f, "{shown} is read-only"),
            Problem::IsDirectory => write!(f, "{shown} is a directory; give a file name"),
            Problem::NotADirectory => write!(f, "{shown} is not a directory"),
            Problem::DanglingLink => write!(
                f,
                "{shown} is a symbolic link to a file that does not exist; give the file itself"
            ),
            Problem::NoDirectory(dir) => write!(
                f,
                "{shown} cannot be written: the directory `{}` does not exist",
                dir.display()
            ),
            Problem::DirectoryNotWritable(dir, e) => write!(
                f,
                "{shown} cannot be written in the directory `{}`: {e}",
                dir.display()
            ),
            Problem::Inspect(e) => write!(f, "{shown} {e}"),
            Problem::Write(e) => write!(f, "{shown} cannot be written: {e}"),
            Problem::DatabaseIsDirectory => {
                write!(f, "{path} is a directory; give {} a file name", self.option)
            }
            Problem::DatabaseExists => write!(
                f,
                "{path} already exists; give --force to replace it (it is replaced only once \
                 the new database is complete)"
            ),
            Problem::CreateDirectory(dir, e) => {
                write!(f, "cannot create the directory {}: {e}", dir.display())
            }
            Problem::NotRegular => write!(
                f,
                "{path} is not a regular file (a FIFO or a device); a database is written \
                 only to a regular file"
            ),
        }
    }
}

impl std::error::Error for OutputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.problem {
            Problem::DirectoryNotWritable(_, e)
            | Problem::Inspect(e)
            | Problem::Write(e)
            | Problem::CreateDirectory(_, e) => Some(e),
            _ => None,
        }
    }
}

/// The same file, by device and inode where the system has them.
#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// The same file, by canonical path.
#[cfg(not(unix))]
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

impl Output<'_> {
    /// The error of this output for `problem`.
    pub fn error(&self, problem: Problem) -> OutputError {
        OutputError {
            option: self.option.to_string(),
            path: self.path.to_path_buf(),
            problem,
        }
    }

    /// Checks the path before any work is done: not one of `inputs` (each given with the
    /// words that name it, such as "the suite"), not a directory, not an existing file
    /// without `--force`, in a directory that exists and can be written. Returns what is
    /// there now.
    pub fn check(&self, inputs: &[(&str, &Path)]) -> Result<Existing, OutputError> {
        for (what, input) in inputs {
            if same_file(self.path, input) {
                return Err(self.error(Problem::IsInput {
                    what: (*what).to_string(),
                    input: input.to_path_buf(),
                }));
            }
        }
        let existing = self.existing()?;
        if existing != Existing::Nothing && !self.force {
            return Err(self.error(Problem::Exists));
        }
        if let Existing::Regular(file) = &existing {
            let meta = std::fs::metadata(file).map_err(|e| self.error(Problem::Inspect(e)))?;
            if meta.permissions().readonly() {
                return Err(self.error(Problem::ReadOnly));
            }
        }
        if let Existing::Special(_) = existing {
            return Ok(existing);
        }
        let target = match &existing {
            Existing::Regular(file) => file.as_path(),
            _ => self.path,
        };
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if !dir.is_dir() {
            return Err(self.error(Problem::NoDirectory(dir.to_path_buf())));
        }
        // Whether the directory takes a new file (the replacement is written beside the
        // old one): try one.
        let probe = temp_beside(target, "probe");
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&probe)
        {
            Ok(_) => {
                let _ = std::fs::remove_file(&probe);
            }
            Err(e) => return Err(self.error(Problem::DirectoryNotWritable(dir.to_path_buf(), e))),
        }
        Ok(existing)
    }

    /// Checks a database's output path before the build: not a directory, not an existing
    /// file (unless `--force`), its directory created and writable; a FIFO or device is
    /// refused, since a database is written only to a regular file (a temporary file
    /// renamed into place). Returns the file to write: the path, or the file a symbolic
    /// link there names (the link stays).
    pub fn prepare_database(&self) -> Result<PathBuf, OutputError> {
        if self.path.is_dir() {
            return Err(self.error(Problem::DatabaseIsDirectory));
        }
        if self.path.symlink_metadata().is_ok() && !self.force {
            return Err(self.error(Problem::DatabaseExists));
        }
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| self.error(Problem::CreateDirectory(dir.to_path_buf(), e)))?;
        }
        match self.check(&[])? {
            Existing::Nothing => Ok(self.path.to_path_buf()),
            Existing::Regular(file) => Ok(file),
            Existing::Special(_) => Err(self.error(Problem::NotRegular)),
        }
    }

    /// What stands at the path: nothing, a regular file (through symbolic links), or a
    /// FIFO, device or socket; a directory or a dangling link is an error.
    pub fn existing(&self) -> Result<Existing, OutputError> {
        let Ok(link) = self.path.symlink_metadata() else {
            return Ok(Existing::Nothing);
        };
        let (meta, target) = if link.file_type().is_symlink() {
            let dangling = |_| self.error(Problem::DanglingLink);
            let meta = std::fs::metadata(self.path).map_err(dangling)?;
            // A link to a pipe or terminal (`/dev/stdout`) has no path to resolve to: it is
            // written through the link itself.
            let target = if meta.is_file() || meta.is_dir() {
                std::fs::canonicalize(self.path).map_err(dangling)?
            } else {
                self.path.to_path_buf()
            };
            (meta, target)
        } else {
            (link, self.path.to_path_buf())
        };
        if meta.is_dir() {
            return Err(self.error(Problem::IsDirectory));
        }
        if meta.is_file() {
            Ok(Existing::Regular(target))
        } else {
            Ok(Existing::Special(target))
        }
    }

    /// Writes `bytes`: a new file, or with `--force` over what [`Output::check`] found (a
    /// regular file replaced whole, a FIFO or device written through). The path is checked
    /// again, since time has passed since [`Output::check`].
    pub fn write(&self, bytes: &[u8]) -> Result<(), OutputError> {
        let fail = |e: std::io::Error| self.error(Problem::Write(e));
        match self.existing()? {
            Existing::Nothing => {
                let mut file = match std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(self.path)
                {
                    Ok(f) => f,
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                        return Err(self.error(Problem::Exists))
                    }
                    Err(e) => return Err(fail(e)),
                };
                if let Err(e) = file.write_all(bytes).and_then(|()| file.sync_all()) {
                    // Our own half-written file: not something the user had saved.
                    drop(file);
                    let _ = std::fs::remove_file(self.path);
                    return Err(fail(e));
                }
                Ok(())
            }
            _ if !self.force => Err(self.error(Problem::Exists)),
            Existing::Special(target) => std::fs::OpenOptions::new()
                .write(true)
                .open(target)
                .and_then(|mut f| f.write_all(bytes).and_then(|()| f.flush()))
                .map_err(fail),
            Existing::Regular(target) => {
                let tmp = temp_beside(&target, "tmp");
                let result = std::fs::File::create(&tmp)
                    .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
                    .and_then(|()| std::fs::rename(&tmp, &target));
                if let Err(e) = result {
                    let _ = std::fs::remove_file(&tmp);
                    return Err(fail(e));
                }
                Ok(())
            }
        }
    }
}

/// A hidden file name beside `path` for a temporary or probe file of this process.
fn temp_beside(path: &Path, what: &str) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "kshogi".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.{what}", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("kshogi-out-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn out(path: &Path, force: bool) -> Output<'_> {
        Output {
            option: "-o",
            path,
            force,
        }
    }

    #[test]
    fn an_existing_file_is_kept_without_force_and_replaced_with_it() {
        let d = dir("regular");
        let path = d.join("board.svg");
        assert_eq!(out(&path, false).check(&[]).unwrap(), Existing::Nothing);
        out(&path, false).write(b"first").unwrap();
        let err = out(&path, false).check(&[]).unwrap_err().to_string();
        assert!(err.contains("already exists; give --force"), "{err}");
        let err = out(&path, false).write(b"second").unwrap_err();
        assert!(err.to_string().contains("already exists"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        out(&path, true).check(&[]).unwrap();
        out(&path, true).write(b"third").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"third");
        // No temporary or probe file is left behind.
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
        let err = out(&d, true).check(&[]).unwrap_err().to_string();
        assert!(err.contains("is a directory"), "{err}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn an_input_a_missing_directory_and_a_dangling_link_are_refused() {
        let d = dir("input");
        let suite = d.join("s.tsv");
        std::fs::write(&suite, "x").unwrap();
        let err = out(&suite, true)
            .check(&[("the suite", &suite)])
            .unwrap_err()
            .to_string();
        assert!(err.contains("is the suite"), "{err}");
        // The same file by another name is the same input.
        let other = d.join(".").join("s.tsv");
        let err = out(&other, true)
            .check(&[("the suite", &suite)])
            .unwrap_err()
            .to_string();
        assert!(err.contains("is the suite"), "{err}");
        let err = out(&d.join("no/such/dir/r.json"), false)
            .check(&[])
            .unwrap_err()
            .to_string();
        assert!(err.contains("does not exist"), "{err}");
        #[cfg(unix)]
        {
            let link = d.join("dangling");
            std::os::unix::fs::symlink(d.join("missing"), &link).unwrap();
            let err = out(&link, true).check(&[]).unwrap_err().to_string();
            assert!(
                err.contains("symbolic link to a file that does not exist"),
                "{err}"
            );
        }
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_followed_and_kept() {
        let d = dir("link");
        let target = d.join("real.svg");
        std::fs::write(&target, "old").unwrap();
        let link = d.join("link.svg");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(out(&link, false).check(&[]).is_err());
        out(&link, true).check(&[]).unwrap();
        out(&link, true).write(b"new").unwrap();
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_written_through() {
        let null = Path::new("/dev/null");
        if !null.exists() {
            return;
        }
        assert!(out(null, false).check(&[]).is_err());
        assert_eq!(
            out(null, true).check(&[]).unwrap(),
            Existing::Special(null.to_path_buf())
        );
        out(null, true).write(b"through").unwrap();
        assert!(!std::fs::symlink_metadata(null).unwrap().is_file());
    }

    #[test]
    fn a_database_goes_only_to_a_regular_file_in_a_created_directory() {
        let d = dir("database");
        let path = d.join("new/sub/kinzoku.kdb");
        let out = |force| Output {
            option: "--out",
            path: &path,
            force,
        };
        assert_eq!(out(false).prepare_database().unwrap(), path);
        assert!(d.join("new/sub").is_dir());
        std::fs::write(&path, "old").unwrap();
        let err = out(false).prepare_database().unwrap_err();
        assert!(matches!(err.problem, Problem::DatabaseExists), "{err}");
        assert!(err
            .to_string()
            .ends_with("replaced only once the new database is complete)"));
        assert_eq!(out(true).prepare_database().unwrap(), path);
        let err = Output {
            option: "--out",
            path: &d,
            force: true,
        }
        .prepare_database()
        .unwrap_err()
        .to_string();
        assert_eq!(
            err,
            format!("{} is a directory; give --out a file name", d.display())
        );
        #[cfg(unix)]
        {
            let null = Output {
                option: "--out",
                path: Path::new("/dev/null"),
                force: true,
            };
            if null.path.exists() {
                let err = null.prepare_database().unwrap_err();
                assert!(matches!(err.problem, Problem::NotRegular), "{err}");
            }
        }
        std::fs::remove_dir_all(&d).unwrap();
    }
}
