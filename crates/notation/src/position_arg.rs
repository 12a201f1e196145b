//! The `POSITION` argument: `startpos` or an SFEN, optionally followed by `moves <usi>...`.

use crate::sfen::{parse_sfen, words, SfenError};
use crate::uci::uci_to_usi;
use crate::usi::{parse_usi, UsiError};
use kshogi_core::Variant;
use kshogi_core::{Game, GameError, Outcome};

/// Why a `POSITION` argument was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionArgError {
    /// The position part is wrong.
    #[error(transparent)]
    Sfen(#[from] SfenError),
    /// A move of the `moves` list is wrong.
    #[error("column {column}: move {number}: {error}")]
    Move {
        /// 1-based number of the move in the list.
        number: usize,
        /// Column of the move text.
        column: usize,
        /// What is wrong with it.
        error: UsiError,
    },
    /// A move comes after the game has ended.
    #[error("column {column}: move {number} `{text}` comes after the game ended ({outcome})")]
    GameOver {
        /// 1-based number of the move in the list.
        number: usize,
        /// Column of the move text.
        column: usize,
        /// The move text.
        text: String,
        /// How the game ended.
        outcome: Outcome,
    },
    /// A lishogi URL that does not give a position kshogi reads.
    #[error("lishogi address: {0}")]
    Url(#[from] UrlError),
    /// `moves` with nothing after it is fine, but `moves` must be a word of its own.
    #[error("column {0}: `moves` must be followed by USI moves")]
    Moves(usize),
}

/// Why a lishogi URL gives no position kshogi reads.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    /// The address is of another page than the analysis board or the editor.
    #[error(
        "`/{path}` is not a lishogi analysis or editor address \
         (`https://lishogi.org/analysis/<variant>/<sfen>`)"
    )]
    NotABoard {
        /// The address's path, without the leading `/`.
        path: String,
    },
    /// The path has a `%` escape that is not two hexadecimal digits or not UTF-8.
    #[error("the address has a bad `%` escape")]
    BadEscape,
    /// The `moves` parameter has such an escape.
    #[error("the `moves` parameter has a bad `%` escape")]
    BadMovesEscape,
    /// The address names a lishogi variant other than the one the position is read as.
    #[error("the address is for lishogi's `{key}`, but the position is read as {display_name} (`{name}`)")]
    OtherVariant {
        /// lishogi's variant key in the address.
        key: String,
        /// The display name of the variant the position is read as.
        display_name: &'static str,
        /// Its name.
        name: &'static str,
    },
    /// The position and moves the address gives are wrong.
    #[error("`{position}` (from the address): {source}")]
    Position {
        /// The position argument the address gives.
        position: String,
        /// What is wrong with it.
        source: Box<PositionArgError>,
    },
}

/// A lishogi analysis or editor URL pasted as a position
/// (`https://lishogi.org/analysis/kyotoshogi/<sfen>?moves=<usi>_<usi>`), read the way
/// lishogi reads its own path: the SFEN with `_` (or `%20`) for spaces, after a variant key
/// when the first path word is one (letters only, longer than a board row of kshogi's
/// variants); the `moves` parameter lists USI moves joined by `_`; other parameters and the
/// `#` ply to show are ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LishogiUrl {
    /// lishogi's variant key (`kyotoshogi`, `minishogi`), when the path names one.
    pub variant: Option<String>,
    /// The position and its moves as a `POSITION` argument (`<sfen> moves <usi> ...`), or
    /// `startpos` when the path has no SFEN.
    pub position: String,
}

/// Percent-decodes a URL path or query value (`%20` is a space); `None` for a bad escape
/// or bytes that are not UTF-8. `+` stays itself (it is a promoted piece here).
fn percent_decode(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Reads `text` as a lishogi URL: `None` when it is not one (does not start with
/// `http://` or `https://` and a lishogi host), else the position it names or why it cannot
/// be read.
pub fn lishogi_url(text: &str) -> Option<Result<LishogiUrl, PositionArgError>> {
    let t = text.trim();
    let rest = t
        .strip_prefix("https://")
        .or_else(|| t.strip_prefix("http://"))?;
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = host.strip_prefix("www.").unwrap_or(host);
    if !(host == "lishogi.org" || host.ends_with(".lishogi.org")) {
        return None;
    }
    let bad = |why: UrlError| Some(Err(PositionArgError::Url(why)));
    let path = path.split('#').next().unwrap_or("");
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let Some(arg) = path
        .strip_prefix("analysis")
        .or_else(|| path.strip_prefix("editor"))
    else {
        return bad(UrlError::NotABoard {
            path: path.to_string(),
        });
    };
    let arg = arg.trim_start_matches('/');
    let Some(arg) = percent_decode(arg) else {
        return bad(UrlError::BadEscape);
    };
    // A variant key is a word of letters only, longer than any board row kshogi reads (at
    // most 5 squares, so at most 5 letters): `kyotoshogi`, `minishogi`, `standard`.
    let is_key = |w: &str| w.len() > 5 && w.bytes().all(|c| c.is_ascii_lowercase());
    let (variant, sfen) = match arg.split_once('/') {
        Some((key, rest)) if is_key(key) => (Some(key.to_string()), rest.to_string()),
        None if is_key(&arg) => (Some(arg.clone()), String::new()),
        _ => (None, arg.clone()),
    };
    let mut position = sfen.replace('_', " ").trim().to_string();
    if position.is_empty() {
        position = "startpos".into();
    }
    for pair in query.split('&') {
        if let Some(moves) = pair.strip_prefix("moves=") {
            let Some(moves) = percent_decode(moves) else {
                return bad(UrlError::BadMovesEscape);
            };
            let list: Vec<&str> = moves
                .split(['_', ' ', ','])
                .filter(|m| !m.is_empty())
                .collect();
            if !list.is_empty() {
                position.push_str(" moves ");
                position.push_str(&list.join(" "));
            }
        }
    }
    Some(Ok(LishogiUrl { variant, position }))
}

/// Whether a move text is in UCI coordinates (a file letter then a rank digit, `e1e2+`, or a
/// drop with `@`, `G@c3`), as pychess-variants writes moves after its FEN; USI squares are
/// a digit then a letter.
fn is_uci(text: &str) -> bool {
    let b = text.as_bytes();
    text.contains('@') || (b.len() >= 2 && (b'a'..=b'i').contains(&b[0]) && b[1].is_ascii_digit())
}

/// Parses a `POSITION` argument into a game: the position, then every listed move played
/// with the variant's rules (repetition included).
///
/// Besides `startpos` or an SFEN (or a Fairy-Stockfish / pychess FEN) with USI moves, it
/// reads what other tools paste: a lishogi analysis URL ([`lishogi_url`]; its variant key,
/// when there is one, must name `V`), and moves in UCI coordinates (`e1e2+`, `G@c3`, as
/// pychess writes them after its FEN), one by one.
pub fn parse_game<V: Variant>(text: &str) -> Result<Game<V>, PositionArgError> {
    if let Some(url) = lishogi_url(text) {
        let url = url?;
        if let Some(key) = &url.variant {
            let info = kshogi_core::VariantInfo::of::<V>();
            if !info.is_named(key) {
                return Err(PositionArgError::Url(UrlError::OtherVariant {
                    key: key.clone(),
                    display_name: V::DISPLAY_NAME,
                    name: V::NAME,
                }));
            }
        }
        return parse_game_text::<V>(&url.position).map_err(|e| {
            PositionArgError::Url(UrlError::Position {
                position: url.position.clone(),
                source: Box::new(e),
            })
        });
    }
    parse_game_text::<V>(text)
}

/// [`parse_game`] of kshogi's own form (no URL).
fn parse_game_text<V: Variant>(text: &str) -> Result<Game<V>, PositionArgError> {
    let ws = words(text);
    let split = ws.iter().position(|w| w.1 == "moves");
    let (pos_text, moves) = match split {
        Some(i) => {
            // Byte offset of the `moves` word: find it by walking columns.
            let byte = text
                .char_indices()
                .nth(ws[i].0 - 1)
                .map(|(b, _)| b)
                .unwrap_or(text.len());
            (&text[..byte], &ws[i + 1..])
        }
        None => (text, &ws[ws.len()..]),
    };
    let start = parse_sfen::<V>(pos_text)?;
    let mut game = Game::new(start);
    for (n, &(column, mv_text)) in moves.iter().enumerate() {
        let number = n + 1;
        if let Some(outcome) = game.outcome() {
            return Err(PositionArgError::GameOver {
                number,
                column,
                text: mv_text.to_string(),
                outcome,
            });
        }
        let g = V::GEOMETRY;
        let translated = is_uci(mv_text)
            .then(|| uci_to_usi(mv_text, g.width, g.height))
            .flatten();
        let usi_text = translated.as_deref().unwrap_or(mv_text);
        let mv = parse_usi(game.position(), usi_text).map_err(|error| PositionArgError::Move {
            number,
            column,
            error,
        })?;
        match game.play(mv) {
            Ok(()) => {}
            Err(GameError::GameOver(outcome)) => {
                return Err(PositionArgError::GameOver {
                    number,
                    column,
                    text: mv_text.to_string(),
                    outcome,
                })
            }
            Err(e @ (GameError::IllegalMove | GameError::PlyLimit)) => {
                return Err(PositionArgError::Move {
                    number,
                    column,
                    error: UsiError::Illegal {
                        text: mv_text.to_string(),
                        reason: e.to_string(),
                        why: None,
                    },
                })
            }
        }
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::to_sfen;
    use kshogi_rules_kyoto::Kyoto;

    #[test]
    fn startpos_with_moves() {
        let g = parse_game::<Kyoto>("startpos moves 1e1d+ 5a5b+").unwrap();
        assert_eq!(g.moves().len(), 2);
        assert_eq!(to_sfen(g.position()), "1gkst/r4/5/4R/TSKG1 b - 3");
    }

    #[test]
    fn sfen_with_moves_and_errors_name_the_move() {
        let g = parse_game::<Kyoto>("sfen pgkst/5/5/5/TSKGP b - 1 moves 1e1d");
        assert!(g.is_ok());
        let e = parse_game::<Kyoto>("pgkst/5/5/5/TSKGP b - 1 moves 1e1d+ 1e1d").unwrap_err();
        match e {
            PositionArgError::Move { number, column, .. } => {
                assert_eq!(number, 2);
                assert_eq!(column, 37);
            }
            other => panic!("unexpected {other:?}"),
        }
        assert!(parse_game::<Kyoto>("startpos moves").is_ok());
    }

    #[test]
    fn fen_and_underscore_forms_before_moves() {
        // After 1e1d+ the pawn on 1e stands on 1d as a rook; White to move at ply 2.
        let g = parse_game::<Kyoto>("p+nks+l/5/5/5/+LSK+NP[] w - - 0 1 moves 1e1d+").unwrap();
        assert_eq!(to_sfen(g.position()), "pgkst/5/5/4R/TSKG1 w - 2");
        let g = parse_game::<Kyoto>("pgkst/5/5/5/TSKGP_b_-_1 moves 1e1d+").unwrap();
        assert_eq!(to_sfen(g.position()), "pgkst/5/5/4R/TSKG1 w - 2");
        let e = parse_game::<Kyoto>("p+nks+l/5/5/5/+LSK+NP[] b - - 0 1 moves 1e1d+").unwrap_err();
        match e {
            PositionArgError::Move { number, column, .. } => {
                assert_eq!((number, column), (1, 41));
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn lishogi_addresses_that_give_no_position_say_why() {
        let url_err = |text: &str| match parse_game::<Kyoto>(text) {
            Err(PositionArgError::Url(e)) => e,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(
            url_err("https://lishogi.org/@/someone"),
            UrlError::NotABoard {
                path: "@/someone".into()
            }
        );
        assert_eq!(
            url_err("https://lishogi.org/analysis/kyotoshogi/%zz"),
            UrlError::BadEscape
        );
        assert_eq!(
            url_err("https://lishogi.org/analysis/kyotoshogi?moves=1e1d%2"),
            UrlError::BadMovesEscape
        );
        let e = url_err("https://lishogi.org/analysis/minishogi");
        assert_eq!(
            e,
            UrlError::OtherVariant {
                key: "minishogi".into(),
                display_name: "Kyoto Shogi",
                name: "kyoto"
            }
        );
        assert_eq!(
            PositionArgError::Url(e).to_string(),
            "lishogi address: the address is for lishogi's `minishogi`, but the position is \
             read as Kyoto Shogi (`kyoto`)"
        );
        // A move the position does not allow: the position's own error, as the source.
        let e = url_err("https://lishogi.org/analysis/kyotoshogi?moves=5a5b");
        let UrlError::Position { position, source } = &e else {
            panic!("{e:?}")
        };
        assert_eq!(position, "startpos moves 5a5b");
        assert!(
            matches!(**source, PositionArgError::Move { number: 1, .. }),
            "{source:?}"
        );
        assert!(std::error::Error::source(&e).is_some());
        assert!(
            e.to_string()
                .starts_with("`startpos moves 5a5b` (from the address): column "),
            "{e}"
        );
    }
}
