//! What kshogi's analyses report, as typed values with their text and JSON forms, for any
//! front end: [`databases`] opens the perfect-play databases a front end answers from;
//! [`show`] is what `kshogi show` prints of a position; [`analysis`] runs the analysis service on a position given as text (with the
//! database's answer where one covers it) and returns an [`analysis::Analysis`] whose
//! `to_text` and `to_json` are what `kshogi analyze` prints; [`selfplay`] plays the engine against a simple
//! opponent and sums the games up as a [`selfplay::MatchReport`] (`kshogi selfplay`);
//! [`review`] judges every move of a recorded game and renders it as a
//! [`review::Report`] (`kshogi review`), its inputs read and its files written by
//! [`review_files`]; [`game_file`] reads a game record a front end names, up to a bound
//! (`kshogi convert`, `kshogi review`); [`output`] decides whether a front end may write
//! an output file (never an input, never over a file without `--force`, nothing saved
//! lost) and writes it.
//!
//! This crate sits above the analysis service, notation and the variant registry. It must
//! not depend on the command line or on an argument parser (clap), and it prints nothing
//! itself: progress goes to a callback the front end gives, output is returned as strings,
//! and every failure is a typed error. Its only input and output are files a front end
//! names: game records (a review's, a conversion's; or standard input), the databases,
//! and the output files, written only as [`output`] allows.

pub mod analysis;
pub mod databases;
pub mod game_file;
pub mod output;
pub mod review;
pub mod review_files;
pub mod selfplay;
pub mod show;

use kshogi_core::{Game, Variant};

/// The status of a game in words: `ongoing`, `check`, or its result once it is over.
pub fn status<V: Variant>(game: &Game<V>) -> String {
    match game.outcome() {
        Some(outcome) => outcome.to_string(),
        None if game.position().in_check() => "check".to_string(),
        None => "ongoing".to_string(),
    }
}

/// `1 ply`, `3 plies`.
pub fn plies(n: i32) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// One line of JSON: `value` serialised, with a newline.
pub fn json_line<T: serde::Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut s = serde_json::to_string(value)?;
    s.push('\n');
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plies_is_singular_for_one() {
        assert_eq!(plies(1), "1 ply");
        assert_eq!(plies(3), "3 plies");
        assert_eq!(plies(0), "0 plies");
    }

    #[test]
    fn json_line_ends_with_a_newline() {
        // Written by hand: the JSON of a list of two strings.
        assert_eq!(json_line(&["a", "b"]).unwrap(), "[\"a\",\"b\"]\n");
    }
}
