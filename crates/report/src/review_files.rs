//! The files of a review: reading each INPUT argument of `kshogi review` (a KIF file,
//! standard input or a POSITION) into a [`review::Input`], and the files `--out DIR`
//! writes for each game (names made unique, every one checked by [`crate::output`] before
//! the first search, then written).

use crate::game_file::{read_game_file, GameFileError, GameSource};
use crate::output::{Output, OutputError, Problem};
use crate::review::{self, Input};
use kshogi_notation::kif::KifError;
use kshogi_registry::Registered;
use std::path::{Path, PathBuf};

/// Why an INPUT argument could not be read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The file (or standard input) could not be read, or is larger than a game record
    /// can be ([`crate::game_file::MAX_GAME_FILE_BYTES`]).
    #[error(transparent)]
    File(#[from] GameFileError),
    /// Neither a file nor a POSITION.
    #[error("cannot read `{0}`: no such file (and not a POSITION)")]
    NotFound(String),
    /// The file is not a readable KIF record (an encoding error).
    #[error("{0}")]
    Kif(#[from] KifError),
}

/// Reads one INPUT argument: `-` is standard input, an existing file is read (anything else
/// that exists, such as a directory, too, for the system's own error), anything else must
/// be a POSITION. A file or standard input is read up to the bound of every game
/// record ([`read_game_file`]). Returns the input with the path of the file it names (none
/// for standard input or a POSITION), which no output may be.
pub fn read_input(arg: &str) -> Result<(Input, Option<PathBuf>), InputError> {
    let (source, stem) = if arg == "-" {
        (GameSource::StandardInput, "stdin".to_string())
    } else if Path::new(arg).exists() {
        let stem = Path::new(arg)
            .file_stem()
            .map_or_else(|| "game".into(), |s| s.to_string_lossy().into_owned());
        (GameSource::File(PathBuf::from(arg)), stem)
    } else {
        return Input::position(arg)
            .map(|input| (input, None))
            .ok_or_else(|| InputError::NotFound(arg.to_string()));
    };
    let bytes = read_game_file(&source)?;
    let path = match &source {
        GameSource::File(path) => Some(path.clone()),
        GameSource::StandardInput => None,
    };
    Ok((Input::from_bytes(&bytes, source.to_string(), stem)?, path))
}

/// The directory `--out DIR` writes each game's files to.
#[derive(Clone, Debug)]
pub struct OutDir<'a> {
    /// The directory.
    pub dir: &'a Path,
    /// Whether files that exist may be replaced (`--force`).
    pub force: bool,
}

impl<'a> OutDir<'a> {
    /// One file in the directory, as the output rules check and write it.
    fn file(&self, path: &'a Path) -> Output<'a> {
        Output {
            option: "--out",
            path,
            force: self.force,
        }
    }

    /// The record, JSON and graph files of the game named `stem`.
    pub fn paths(&self, stem: &str) -> [PathBuf; 3] {
        ["kif", "json", "svg"].map(|ext| self.dir.join(format!("{stem}.review.{ext}")))
    }

    /// Checks, before the first search, that the directory is one, gives games of the
    /// same name distinct names (`game`, `game-2`, ...), and checks every file to be
    /// written: not one of `input_files` (the records read), not an existing file without
    /// `--force`, in a writable directory.
    pub fn prepare(
        &self,
        inputs: &mut [Input],
        input_files: &[PathBuf],
    ) -> Result<(), OutputError> {
        if !self.dir.is_dir() {
            return Err(self.file(self.dir).error(Problem::NotADirectory));
        }
        let mut seen = std::collections::HashSet::new();
        for input in inputs.iter_mut() {
            let base = input.stem.clone();
            let mut k = 2;
            while !seen.insert(input.stem.clone()) {
                input.stem = format!("{base}-{k}");
                k += 1;
            }
        }
        let files: Vec<(&str, &Path)> = input_files
            .iter()
            .map(|p| ("the record", p.as_path()))
            .collect();
        for input in inputs.iter() {
            for path in self.paths(&input.stem) {
                self.file(&path).check(&files)?;
            }
        }
        Ok(())
    }

    /// Writes the files of the game named `stem`: the annotated KIF, `json` (the report's
    /// JSON) and the evaluation graph, and with `diagrams` the picture before each blunder.
    pub fn write<V: Registered>(
        &self,
        stem: &str,
        report: &review::Report<V>,
        json: &str,
        diagrams: bool,
    ) -> Result<(), OutputError> {
        let [kif_path, json_path, svg_path] = self.paths(stem);
        self.file(&kif_path)
            .write(report.annotated_kif().as_bytes())?;
        self.file(&json_path).write(json.as_bytes())?;
        self.file(&svg_path).write(report.graph().as_bytes())?;
        if diagrams {
            for (n, picture) in report.blunder_diagrams() {
                let path = self.dir.join(format!("{stem}.blunder-{n}.svg"));
                self.file(&path).write(picture.as_bytes())?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("kshogi-review-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn inputs_are_files_or_positions() {
        let d = dir("inputs");
        let file = d.join("one.kif");
        std::fs::write(&file, "startpos moves 1e1d+\n").unwrap();
        let (input, path) = read_input(file.to_str().unwrap()).unwrap();
        assert_eq!((input.stem.as_str(), input.kif), ("one", false));
        assert_eq!(input.text, "startpos moves 1e1d+");
        assert_eq!(path.as_deref(), Some(file.as_path()));
        let (input, path) = read_input("startpos moves 1e1d+").unwrap();
        assert_eq!((input.stem.as_str(), path), ("game", None));
        let err = read_input("no-such-file.kif").unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot read `no-such-file.kif`: no such file (and not a POSITION)"
        );
        // A missing file in a directory is named as a missing file, not read as a board.
        let err = read_input("games/no-such-file.kif").unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot read `games/no-such-file.kif`: no such file (and not a POSITION)"
        );
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn an_input_file_is_read_only_up_to_the_bound_of_a_game_record() {
        let d = dir("bound");
        // One byte over the bound (a sparse file: nothing is written but its length).
        let big = d.join("big.kif");
        std::fs::File::create(&big)
            .and_then(|f| f.set_len(crate::game_file::MAX_GAME_FILE_BYTES + 1))
            .unwrap();
        let err = read_input(big.to_str().unwrap()).unwrap_err();
        assert!(
            matches!(&err, InputError::File(GameFileError::TooLarge {
                input: GameSource::File(p), limit }) if *p == big && *limit == 64 << 20),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            format!(
                "cannot read `{}`: more than 64 MiB, far more than a KIF record; not read",
                big.display()
            )
        );
        // At the bound exactly, the file is read (and then judged as a record: zeros are no
        // KIF text, so the error is the record's, not the size's).
        std::fs::File::create(&big)
            .and_then(|f| f.set_len(crate::game_file::MAX_GAME_FILE_BYTES))
            .unwrap();
        let err = read_input(big.to_str().unwrap()).map(|_| ());
        assert!(!matches!(err, Err(InputError::File(_))), "{err:?}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn an_unreadable_input_file_names_the_file_and_the_reason() {
        // A file that exists but cannot be read from its start: the process's own memory.
        let mem = "/proc/self/mem";
        if !Path::new(mem).is_file() {
            return;
        }
        let err = read_input(mem).unwrap_err();
        assert!(
            matches!(&err, InputError::File(GameFileError::Read { input: GameSource::File(p), .. })
                if p == Path::new(mem)),
            "{err:?}"
        );
        assert!(
            err.to_string()
                .starts_with("cannot read `/proc/self/mem`: "),
            "{err}"
        );
    }

    #[test]
    fn games_of_one_name_get_distinct_files_and_no_input_is_an_output() {
        let d = dir("out");
        let game = || Input::position("startpos").unwrap();
        let mut inputs = vec![game(), game(), game()];
        let out = OutDir {
            dir: &d,
            force: false,
        };
        out.prepare(&mut inputs, &[]).unwrap();
        let stems: Vec<&str> = inputs.iter().map(|i| i.stem.as_str()).collect();
        assert_eq!(stems, ["game", "game-2", "game-3"]);
        // A record named like an output file is refused, even with --force.
        let record = d.join("game.review.kif");
        std::fs::write(&record, "x").unwrap();
        let forced = OutDir {
            dir: &d,
            force: true,
        };
        let err = forced
            .prepare(&mut [game()], std::slice::from_ref(&record))
            .unwrap_err();
        assert!(matches!(err.problem, Problem::IsInput { .. }), "{err}");
        // Without --force an existing output is refused; with it, accepted.
        assert!(matches!(
            out.prepare(&mut [game()], &[]).unwrap_err().problem,
            Problem::Exists
        ));
        forced.prepare(&mut [game()], &[]).unwrap();
        let err = OutDir {
            dir: &record,
            force: false,
        }
        .prepare(&mut [], &[])
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("--out `{}` is not a directory", record.display())
        );
        std::fs::remove_dir_all(&d).unwrap();
    }
}
