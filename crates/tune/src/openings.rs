//! Opening files: the balanced lines of `docs/openings/` (one position with its moves a
//! line, as `kshogi match --openings` reads them), read and checked for a variant, and the
//! rule every fixed-node user of such a file follows.
//!
//! The SPSA tuner (`kshogi-tune spsa --openings`), `kshogi-nnue match --openings` and the
//! net pipeline's SPRT (`kshogi-nnue pipeline --sprt-openings`) read their files here.

use kshogi_match::spec::parse_openings;
use kshogi_registry::Registered;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why an openings file cannot be used.
#[derive(Debug)]
pub enum OpeningsError {
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        error: std::io::Error,
    },
    /// A line is not a position of the variant.
    Line {
        /// Where: `FILE:LINE`, the line numbered from 1.
        place: String,
        /// Why.
        error: kshogi_notation::PositionArgError,
    },
    /// The file has no opening (only blank lines and comments).
    Empty {
        /// The file.
        path: PathBuf,
    },
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            OpeningsError::Line { place, error } => write!(f, "{place}: {error}"),
            OpeningsError::Empty { path } => write!(f, "{}: no opening in it", path.display()),
        }
    }
}

impl std::error::Error for OpeningsError {}

/// The openings of the file at `path` for `V`: every line that is not blank or a `#`
/// comment, trimmed, each checked to be a position of `V` (with its moves).
pub fn read_openings<V: Registered>(path: &Path) -> Result<Vec<String>, OpeningsError> {
    let text = std::fs::read_to_string(path).map_err(|error| OpeningsError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    let mut out = Vec::new();
    // What counts as a line is the match runner's rule, so that every tool reads a file alike.
    for (place, line) in parse_openings(&text, &path.display().to_string()) {
        kshogi_notation::parse_game::<V>(&line)
            .map_err(|error| OpeningsError::Line { place, error })?;
        out.push(line);
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(out)
}

/// The most game pairs worth playing from `openings` lines at a fixed node count: one a
/// line, since the engines are deterministic there and a repeated line replays the same two
/// games (which would count them twice). Timed games differ, and need no such cap.
pub fn max_pairs_at_fixed_nodes(openings: usize) -> u32 {
    u32::try_from(openings).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_registry::types::Kyoto;

    fn file(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kshogi-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn lines_are_trimmed_and_comments_and_blanks_skipped() {
        let path = file(
            "ok.txt",
            "# two lines\n\n  startpos moves 1e1d  \nstartpos moves 2e2d 4a4b\n",
        );
        assert_eq!(
            read_openings::<Kyoto>(&path).unwrap(),
            ["startpos moves 1e1d", "startpos moves 2e2d 4a4b"]
        );
    }

    #[test]
    fn a_bad_line_is_named_by_its_number() {
        let path = file("bad.txt", "# x\nstartpos moves 1e1d\nstartpos moves 9z9z\n");
        let e = read_openings::<Kyoto>(&path).unwrap_err();
        assert!(matches!(e, OpeningsError::Line { .. }), "{e:?}");
        assert!(e.to_string().contains("bad.txt:3:"), "{e}");
    }

    #[test]
    fn an_empty_or_missing_file_is_an_error() {
        let path = file("empty.txt", "# nothing\n\n");
        assert!(matches!(
            read_openings::<Kyoto>(&path).unwrap_err(),
            OpeningsError::Empty { .. }
        ));
        let missing = path.with_file_name("missing.txt");
        assert!(matches!(
            read_openings::<Kyoto>(&missing).unwrap_err(),
            OpeningsError::Io { .. }
        ));
    }

    #[test]
    fn one_pair_a_line() {
        assert_eq!(max_pairs_at_fixed_nodes(400), 400);
        assert_eq!(max_pairs_at_fixed_nodes(1), 1);
    }
}
