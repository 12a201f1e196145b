//! Output files: the one place that decides whether a command may write a path, checked
//! before the work starts, and that writes it.
//!
//! Every output option of every command goes through here (`show`/`analyze -o`, `perft
//! --report` and `--export-json`, `solve --out`): an output is never an input of the same
//! command, never an existing file without `--force`, never a directory, and its directory
//! must exist (or, for `solve`, be creatable) and be writable. With `--force`:
//!
//! - a regular file is replaced through a temporary file beside it, renamed over it once
//!   the new contents are complete;
//! - a symbolic link is followed: the file it points to is replaced the same way, and the
//!   link stays (a link to a missing file, or to a directory, is refused);
//! - a FIFO or a device node is written through (opened for writing, as `>` in a shell
//!   does), never replaced by a regular file; where a command can only write a regular
//!   file (`solve --out`), it is refused.

use crate::error::CliError;
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
    /// `--option `PATH``, for messages.
    fn shown(&self) -> String {
        format!("{} `{}`", self.option, self.path.display())
    }

    fn error(&self, what: impl std::fmt::Display) -> CliError {
        CliError::Output(format!("{} {what}", self.shown()))
    }

    /// Checks the path before any work is done: not one of `inputs` (each given with the
    /// words that name it, such as "the suite"), not a directory, not an existing file
    /// without `--force`, in a directory that exists and can be written. Returns what is
    /// there now.
    pub fn check(&self, inputs: &[(&str, &Path)]) -> Result<Existing, CliError> {
        for (what, input) in inputs {
            if same_file(self.path, input) {
                return Err(self.error(format_args!(
                    "is {what} `{}`, which this command reads; give another file",
                    input.display()
                )));
            }
        }
        let existing = self.existing()?;
        if existing != Existing::Nothing && !self.force {
            return Err(self.error("already exists; give --force to replace it"));
        }
        if let Existing::Regular(file) = &existing {
            let meta = std::fs::metadata(file).map_err(|e| self.error(format_args!("{e}")))?;
            if meta.permissions().readonly() {
                return Err(self.error("is read-only"));
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
            return Err(self.error(format_args!(
                "cannot be written: the directory `{}` does not exist",
                dir.display()
            )));
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
            Err(e) => {
                return Err(self.error(format_args!(
                    "cannot be written in the directory `{}`: {e}",
                    dir.display()
                )))
            }
        }
        Ok(existing)
    }

    /// What stands at the path: nothing, a regular file (through symbolic links), or a
    /// FIFO, device or socket; a directory or a dangling link is an error.
    pub fn existing(&self) -> Result<Existing, CliError> {
        let Ok(link) = self.path.symlink_metadata() else {
            return Ok(Existing::Nothing);
        };
        let (meta, target) = if link.file_type().is_symlink() {
            let dangling = || {
                self.error("is a symbolic link to a file that does not exist; give the file itself")
            };
            let meta = std::fs::metadata(self.path).map_err(|_| dangling())?;
            // A link to a pipe or terminal (`/dev/stdout`) has no path to resolve to: it is
            // written through the link itself.
            let target = if meta.is_file() || meta.is_dir() {
                std::fs::canonicalize(self.path).map_err(|_| dangling())?
            } else {
                self.path.to_path_buf()
            };
            (meta, target)
        } else {
            (link, self.path.to_path_buf())
        };
        if meta.is_dir() {
            return Err(self.error("is a directory; give a file name"));
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
    pub fn write(&self, bytes: &[u8]) -> Result<(), CliError> {
        let fail = |e: std::io::Error| self.error(format_args!("cannot be written: {e}"));
        match self.existing()? {
            Existing::Nothing => {
                let mut file = match std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(self.path)
                {
                    Ok(f) => f,
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                        return Err(self.error("already exists; give --force to replace it"))
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
            _ if !self.force => Err(self.error("already exists; give --force to replace it")),
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
}
