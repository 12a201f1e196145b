//! Reading a game file that a front end names (`kshogi convert --to sfen FILE`, an INPUT
//! of `kshogi review`): the bytes of a file, or of standard input for `-`, read only up to a
//! bound, so that a device such as `/dev/zero` or an endless pipe ends with an error instead
//! of filling the memory.

use std::fmt;
use std::io::Read;
use std::path::PathBuf;

/// The most bytes of a game record read (64 MiB): far more than any game record (a long
/// game is a few kilobytes).
pub const MAX_GAME_FILE_BYTES: u64 = 64 << 20;

/// Where a game record is read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameSource {
    /// Standard input (the argument `-`).
    StandardInput,
    /// A file, by its path as given.
    File(PathBuf),
}

impl GameSource {
    /// The source an argument names: `-` is standard input, anything else a file.
    pub fn of_arg(arg: &str) -> GameSource {
        if arg == "-" {
            GameSource::StandardInput
        } else {
            GameSource::File(PathBuf::from(arg))
        }
    }
}

/// `` `path` `` for a file, `standard input` otherwise.
impl fmt::Display for GameSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameSource::StandardInput => f.write_str("standard input"),
            GameSource::File(path) => write!(f, "`{}`", path.display()),
        }
    }
}

/// Why a game record was not read.
#[derive(Debug, thiserror::Error)]
pub enum GameFileError {
    /// The file (or standard input) could not be opened or read.
    #[error("cannot read {input}: {source}")]
    Read {
        /// What was read.
        input: GameSource,
        /// The system's reason.
        source: std::io::Error,
    },
    /// There is more than `limit` bytes: not a game record; nothing is returned.
    #[error(
        "cannot read {input}: more than {} MiB, far more than a KIF record; not read",
        limit >> 20
    )]
    TooLarge {
        /// What was read.
        input: GameSource,
        /// The bound, in bytes.
        limit: u64,
    },
}

/// The bytes of the game record `input`, at most [`MAX_GAME_FILE_BYTES`].
pub fn read_game_file(input: &GameSource) -> Result<Vec<u8>, GameFileError> {
    match input {
        GameSource::StandardInput => {
            read_bounded(std::io::stdin().lock(), input, MAX_GAME_FILE_BYTES)
        }
        GameSource::File(path) => {
            let file = std::fs::File::open(path).map_err(|source| GameFileError::Read {
                input: input.clone(),
                source,
            })?;
            read_bounded(file, input, MAX_GAME_FILE_BYTES)
        }
    }
}

/// The bytes of `reader`, at most `limit` of them: one byte more is read to tell a record
/// of exactly `limit` bytes from a longer one, which is [`GameFileError::TooLarge`].
pub fn read_bounded(
    reader: impl Read,
    input: &GameSource,
    limit: u64,
) -> Result<Vec<u8>, GameFileError> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| GameFileError::Read {
            input: input.clone(),
            source,
        })?;
    if bytes.len() as u64 > limit {
        return Err(GameFileError::TooLarge {
            input: input.clone(),
            limit,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that never ends, as `/dev/zero` does.
    struct Endless;

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            buf.fill(b'x');
            Ok(buf.len())
        }
    }

    #[test]
    fn a_record_up_to_the_limit_is_read_whole() {
        let input = GameSource::StandardInput;
        assert_eq!(read_bounded(&b""[..], &input, 4).unwrap(), b"");
        assert_eq!(read_bounded(&b"abcd"[..], &input, 4).unwrap(), b"abcd");
    }

    #[test]
    fn one_byte_over_the_limit_is_too_large_and_names_the_file_and_the_limit() {
        let input = GameSource::of_arg("games/long.kif");
        let e = read_bounded(&b"abcde"[..], &input, 4).unwrap_err();
        assert!(
            matches!(&e, GameFileError::TooLarge { input: GameSource::File(p), limit: 4 }
                if p == &PathBuf::from("games/long.kif")),
            "{e:?}"
        );
        let e = read_bounded(Endless, &GameSource::of_arg("-"), 3 << 20).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot read standard input: more than 3 MiB, far more than a KIF record; not read"
        );
    }

    #[test]
    fn the_bound_is_64_mib() {
        assert_eq!(MAX_GAME_FILE_BYTES, 64 * 1024 * 1024);
    }

    #[test]
    fn a_missing_file_is_a_read_error_naming_it() {
        let input = GameSource::of_arg("/nonexistent/kshogi-tests/game.kif");
        let e = read_game_file(&input).unwrap_err();
        assert!(
            matches!(&e, GameFileError::Read { source, .. }
                if source.kind() == std::io::ErrorKind::NotFound),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .starts_with("cannot read `/nonexistent/kshogi-tests/game.kif`: "),
            "{e}"
        );
    }

    #[test]
    fn a_file_is_read() {
        let path = std::env::temp_dir().join(format!("kshogi-game-file-{}", std::process::id()));
        std::fs::write(&path, "手合割：京都将棋\n").unwrap();
        let bytes = read_game_file(&GameSource::File(path.clone()));
        let _ = std::fs::remove_file(&path);
        assert_eq!(bytes.unwrap(), "手合割：京都将棋\n".as_bytes());
    }
}
