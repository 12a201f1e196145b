//! `--svg`, `--ranks`, `-o/--output` and `--force`: where an SVG diagram goes, shared by
//! `kshogi show` and `kshogi analyze`.

use crate::error::CliError;
use clap::{Args, ValueEnum};
use kshogi_notation::{RankLabels, SvgStyle};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// How the SVG diagram labels the ranks.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum RanksChoice {
    /// Kanji numerals 一 二 三 (Japanese diagrams, lishogi's Japanese notation)
    #[default]
    Kanji,
    /// USI letters a b c (kshogi's moves, lishogi's engine notation)
    Letters,
}

/// The SVG options of a command (the default: no SVG).
#[derive(Debug, Default, Args)]
pub struct SvgArgs {
    /// Write an SVG picture of the board instead of the text (to stdout, or to -o FILE)
    #[arg(long)]
    pub svg: bool,
    /// With --svg: the rank labels down the right side of the board
    #[arg(long, value_name = "R", value_enum, default_value_t = RanksChoice::Kanji,
          requires = "svg")]
    pub ranks: RanksChoice,
    /// With --svg: write the SVG to FILE (never over an existing file without --force)
    #[arg(short = 'o', long, value_name = "FILE", requires = "svg")]
    pub output: Option<PathBuf>,
    /// With -o: replace FILE if it exists
    #[arg(long, requires = "output")]
    pub force: bool,
}

impl SvgArgs {
    /// The diagram style the options ask for.
    pub fn style(&self) -> SvgStyle {
        SvgStyle {
            ranks: match self.ranks {
                RanksChoice::Kanji => RankLabels::Kanji,
                RanksChoice::Letters => RankLabels::Letters,
            },
            ..SvgStyle::DEFAULT
        }
    }

    /// Refuses `--json` with an SVG bound for stdout (both cannot be printed there), and an
    /// existing `-o FILE` without `--force` before any work is done (the write itself
    /// checks again).
    pub fn check(&self, json: bool) -> Result<(), CliError> {
        if self.svg && json && self.output.is_none() {
            return Err(CliError::Usage(
                "--svg and --json both write to standard output; give -o FILE for the SVG"
                    .to_string(),
            ));
        }
        if let Some(path) = &self.output {
            if !self.force && path.symlink_metadata().is_ok() {
                return Err(exists(path));
            }
        }
        Ok(())
    }

    /// Delivers `svg`: returns it for stdout, or writes it to `-o FILE` and returns
    /// `otherwise` (the command's usual output) for stdout.
    pub fn deliver(&self, svg: String, otherwise: String) -> Result<String, CliError> {
        match &self.output {
            None => Ok(svg),
            Some(path) => {
                write_new(path, svg.as_bytes(), self.force)?;
                Ok(otherwise)
            }
        }
    }
}

/// The error for an output file that is already there.
fn exists(path: &Path) -> CliError {
    CliError::Output(format!(
        "`{}` already exists; give --force to replace it",
        path.display()
    ))
}

/// Writes `bytes` to `path`: never over an existing file unless `force`, and with `force`
/// through a temporary file beside it, so that the old file stays whole until the new
/// one is complete.
pub fn write_new(path: &Path, bytes: &[u8], force: bool) -> Result<(), CliError> {
    let fail =
        |e: std::io::Error| CliError::Output(format!("cannot write `{}`: {e}", path.display()));
    if !force {
        let mut file = match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
        {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Err(exists(path)),
            Err(e) => return Err(fail(e)),
        };
        if let Err(e) = file.write_all(bytes).and_then(|()| file.sync_all()) {
            // Our own half-written file: not something the user had saved.
            drop(file);
            let _ = std::fs::remove_file(path);
            return Err(fail(e));
        }
        return Ok(());
    }
    if path.is_dir() {
        return Err(CliError::Output(format!(
            "`{}` is a directory",
            path.display()
        )));
    }
    let name = path
        .file_name()
        .map_or_else(|| "kshogi.svg".into(), |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(fail(e));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_existing_file_is_kept_without_force_and_replaced_with_it() {
        let dir = std::env::temp_dir().join(format!("kshogi-svg-out-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("board.svg");
        let _ = std::fs::remove_file(&path);
        write_new(&path, b"first", false).unwrap();
        let err = write_new(&path, b"second", false).unwrap_err();
        assert!(err.to_string().contains("already exists"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        write_new(&path, b"third", true).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"third");
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(names.len(), 1);
        let err = write_new(&dir, b"x", true).unwrap_err();
        assert!(err.to_string().contains("is a directory"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
