//! What `kshogi show` prints of a position: the diagram with the game's status when it
//! matters, or a JSON summary; and whether a diagram is coloured.

use crate::{json_line, status};
use kshogi_core::{Color, Game, Variant};
use kshogi_notation::{game_diagram, move_to_usi_in, to_sfen_in, DiagramStyle, Dialect};
use serde::Serialize;
use std::ffi::OsStr;

/// Whether to colour when asked to decide (`--color auto`): only a terminal, and only when
/// the `NO_COLOR` environment variable (its value given here) is unset or empty.
pub fn auto_color(no_color: Option<&OsStr>, stdout_is_terminal: bool) -> bool {
    stdout_is_terminal && no_color.map_or(true, OsStr::is_empty)
}

/// The JSON summary of a position. Serialised with the fields in this order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Short name of the variant.
    pub variant: &'static str,
    /// SFEN of the position after the moves, in the chosen dialect.
    pub sfen: String,
    /// `black` or `white`.
    pub side_to_move: Color,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// See [`status`].
    pub status: String,
    /// The last move of the moves list, if any, in the chosen dialect.
    pub last_move: Option<String>,
    /// Number of legal moves; 0 once the game is over.
    pub legal_moves: usize,
}

impl Summary {
    /// The summary of the position `game` reached, its SFEN and moves in `dialect`.
    pub fn of<V: Variant>(game: &Game<V>, dialect: Dialect) -> Summary {
        let pos = game.position();
        // The last move is written from the position before it (its `-` mark depends on
        // the piece that moved).
        let last_move = game.moves().last().map(|&mv| {
            let mut before = *game.start();
            for &m in &game.moves()[..game.moves().len() - 1] {
                before = before.after(m);
            }
            move_to_usi_in(&before, mv, dialect)
        });
        Summary {
            variant: V::NAME,
            sfen: to_sfen_in(pos, dialect),
            side_to_move: pos.side_to_move(),
            in_check: pos.in_check(),
            status: status(game),
            last_move,
            legal_moves: if game.outcome().is_some() {
                0
            } else {
                pos.legal_moves().len()
            },
        }
    }

    /// One line of JSON.
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        json_line(self)
    }
}

/// The diagram of the position `game` reached (the last move marked), followed by
/// `status: ...` when the side to move is in check or the game is over.
pub fn diagram<V: Variant>(game: &Game<V>, style: DiagramStyle, dialect: Dialect) -> String {
    let mut out = game_diagram(game, style, dialect);
    if game.outcome().is_some() || game.position().in_check() {
        out.push_str("status: ");
        out.push_str(&status(game));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_notation::parse_game;
    use kshogi_rules_kyoto::Kyoto;

    #[test]
    fn colour_is_automatic_on_a_terminal_without_no_color() {
        let set = Some(OsStr::new("1"));
        let empty = Some(OsStr::new(""));
        assert!(auto_color(None, true));
        assert!(auto_color(empty, true));
        assert!(!auto_color(set, true));
        assert!(!auto_color(None, false));
        assert!(!auto_color(empty, false));
    }

    #[test]
    fn status_words() {
        // Hand-checked: after G*5b White's King on 5a is in check and can take the Gold;
        // with Black's Silver on 4c guarding 5b it is mate.
        let g = parse_game::<Kyoto>("k4/5/5/5/4K b G 9 moves G*5b").unwrap();
        assert_eq!(status(&g), "check");
        let g = parse_game::<Kyoto>("k4/5/1S3/5/4K b G 9 moves G*5b").unwrap();
        assert_eq!(status(&g), "black wins by checkmate");
        let g = parse_game::<Kyoto>("startpos").unwrap();
        assert_eq!(status(&g), "ongoing");
    }

    #[test]
    fn the_summary_and_the_status_line() {
        // Kyoto's start: 12 legal moves (perft/reference.tsv, depth 1).
        let g = parse_game::<Kyoto>("startpos").unwrap();
        let s = Summary::of(&g, Dialect::Canonical);
        assert_eq!(
            s.to_json().unwrap(),
            "{\"variant\":\"kyoto\",\"sfen\":\"pgkst/5/5/5/TSKGP b - 1\",\
             \"side_to_move\":\"black\",\"in_check\":false,\"status\":\"ongoing\",\
             \"last_move\":null,\"legal_moves\":12}\n"
        );
        assert!(!diagram(&g, DiagramStyle::PLAIN, Dialect::Canonical).contains("status:"));
        let mate = parse_game::<Kyoto>("k4/5/1S3/5/4K b G 9 moves G*5b").unwrap();
        let s = Summary::of(&mate, Dialect::Canonical);
        assert_eq!(
            (s.last_move.as_deref(), s.legal_moves, s.in_check),
            (Some("G*5b"), 0, true)
        );
        let text = diagram(&mate, DiagramStyle::PLAIN, Dialect::Canonical);
        assert!(
            text.ends_with("status: black wins by checkmate\n"),
            "{text}"
        );
    }
}
