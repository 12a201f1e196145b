//! Snapshot tests of the terminal diagram, with independent checks beside each snapshot:
//! the pieces, hands and lines expected from the position as worked out by hand, and that
//! the coloured diagram is the plain one plus escape sequences.

use kshogi_core::Variant;
use kshogi_core::{Game, Move, Position};
use kshogi_notation::{diagram, parse_game, to_sfen, DiagramStyle};
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;

const COLOR: DiagramStyle = DiagramStyle {
    color: true,
    kanji: false,
};
const KANJI: DiagramStyle = DiagramStyle {
    color: false,
    kanji: true,
};

/// Removes ANSI SGR sequences (`ESC [ ... m`).
fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Makes escape sequences visible in a snapshot.
fn visible(text: &str) -> String {
    text.replace('\x1b', "\\e")
}

fn game<V: Variant>(text: &str) -> Game<V> {
    parse_game::<V>(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn last<V: Variant>(g: &Game<V>) -> Option<Move> {
    g.moves().last().copied()
}

/// The plain diagram, after checking that the coloured one is the same text with escapes.
fn plain_and_color<V: Variant>(pos: &Position<V>, mv: Option<Move>) -> (String, String) {
    let plain = diagram(pos, mv, DiagramStyle::PLAIN);
    let color = diagram(pos, mv, COLOR);
    assert!(!plain.contains('\x1b'), "{plain}");
    assert!(color.contains("\x1b["), "{color}");
    assert_eq!(strip_ansi(&color), plain);
    (plain, color)
}

#[test]
fn start_positions() {
    let (kyoto, _) = plain_and_color(&Position::<Kyoto>::start(), None);
    // From the start SFEN `pgkst/5/5/5/TSKGP b - 1`: files 5..1 left to right.
    assert!(kyoto.contains("|  p   g   k   s   t  | a\n"), "{kyoto}");
    assert!(kyoto.contains("|  T   S   K   G   P  | e\n"), "{kyoto}");
    assert!(
        kyoto.starts_with("white hand: -\n   5   4   3   2   1\n"),
        "{kyoto}"
    );
    assert!(
        kyoto.ends_with("black hand: -\nply 1, black to move\n"),
        "{kyoto}"
    );
    insta::assert_snapshot!("kyoto_start", kyoto);

    let (micro, _) = plain_and_color(&Position::<Micro>::start(), None);
    // `kbgs/p3/4/3P/SGBK b - 1`.
    assert!(micro.contains("|  k   b   g   s  | a\n"), "{micro}");
    assert!(micro.contains("|  p   .   .   .  | b\n"), "{micro}");
    assert!(micro.contains("|  .   .   .   P  | d\n"), "{micro}");
    insta::assert_snapshot!("micro_start", micro);

    let (kinzoku, _) = plain_and_color(&Position::<Kinzoku>::start(), None);
    // `cks/1i1/3/1I1/SKC b - 1`; no drops, so no hand lines.
    assert!(!kinzoku.contains("hand"), "{kinzoku}");
    assert!(kinzoku.contains("|  c   k   s  | a\n"), "{kinzoku}");
    assert!(kinzoku.contains("|  S   K   C  | e\n"), "{kinzoku}");
    insta::assert_snapshot!("kinzoku_start", kinzoku);
}

// Hand-checked Kyoto game: Black's Pawn 1e1d+ turns into a Rook; White's Pawn 5a5b+ likewise;
// Black's Rook takes the Tokin on 1a and turns back into a Pawn (Black holds a Tokin); White's
// Rook takes the Tokin on 5e and turns into a Pawn (White holds a Tokin).
const KYOTO_GAME: &str = "startpos moves 1e1d+ 5a5b+ 1d1a+ 5b5e+";

#[test]
fn kyoto_midgame_with_hands_and_last_move() {
    let g = game::<Kyoto>(KYOTO_GAME);
    assert_eq!(to_sfen(g.position()), "1gksP/5/5/5/pSKG1 b Tt 5");
    let (plain, color) = plain_and_color(g.position(), last(&g));
    assert!(plain.starts_with("white hand: t\n"), "{plain}");
    assert!(plain.contains("|  .   g   k   s   P  | a\n"), "{plain}");
    assert!(plain.contains("| [p]  S   K   G   .  | e\n"), "{plain}");
    assert!(plain.contains("\nblack hand: T\n"), "{plain}");
    assert!(
        plain.ends_with("ply 5, black to move\nlast move: 5b5e+\n"),
        "{plain}"
    );
    insta::assert_snapshot!("kyoto_midgame", plain);
    insta::assert_snapshot!("kyoto_midgame_color", visible(&color));
    let kanji = diagram(g.position(), last(&g), KANJI);
    assert!(kanji.contains("white hand: と\n"), "{kanji}");
    insta::assert_snapshot!("kyoto_midgame_kanji", kanji);
}

#[test]
fn kyoto_hands_with_counts_in_canonical_order() {
    // Black holds 2 Tokins and 2 Golds (a Pawn is dropped), White a Silver; written in the
    // order T G S P whatever the input order.
    let g = game::<Kyoto>("k4/5/5/5/4K b G2TsPG 40 moves P*3c");
    assert_eq!(to_sfen(g.position()), "k4/5/2P2/5/4K w 2T2Gs 41");
    let (plain, _) = plain_and_color(g.position(), last(&g));
    assert!(plain.starts_with("white hand: s\n"), "{plain}");
    assert!(plain.contains("|  .   .  [P]  .   .  | c\n"), "{plain}");
    assert!(plain.contains("\nblack hand: 2T 2G\n"), "{plain}");
    assert!(plain.ends_with("last move: P*3c\n"), "{plain}");
    insta::assert_snapshot!("kyoto_hand_counts", plain);
    let kanji = diagram(g.position(), last(&g), KANJI);
    assert!(kanji.contains("black hand: と二 金二\n"), "{kanji}");
}

// Hand-checked Kinzoku game: Black's Silver 2c takes White's last Soldier on 2b, leaving White
// a lone King, so Black must now win within its next five moves (`b5`); the Silver checks
// the King on 3a diagonally.
const KINZOKU_GAME: &str = "k2/1i1/1S1/3/2K b - 29 moves 2c2b";

#[test]
fn kinzoku_countdown() {
    let g = game::<Kinzoku>(KINZOKU_GAME);
    assert_eq!(to_sfen(g.position()), "k2/1S1/3/3/2K w - 30 b5");
    let (plain, color) = plain_and_color(g.position(), last(&g));
    assert!(
        plain.contains("\ncountdown: black must win within its next 5 moves (b5)\n"),
        "{plain}"
    );
    assert!(plain.contains("|  .  [S]  .  | b\n"), "{plain}");
    insta::assert_snapshot!("kinzoku_countdown", plain);
    insta::assert_snapshot!("kinzoku_countdown_color", visible(&color));

    // From `b2`, after a move by each side Black has one move left.
    let g = game::<Kinzoku>("k2/3/3/1I1/2K w - 30 b2 moves 3a3b 2d2c");
    let text = diagram(g.position(), None, DiagramStyle::PLAIN);
    assert!(
        text.contains("countdown: black must win with its next move (b1)"),
        "{text}"
    );
    // Once it has run out (`b0`, with the lone King to move) the line says so.
    let g = game::<Kinzoku>("k2/3/3/1S1/2K w - 40 b0");
    let text = diagram(g.position(), None, DiagramStyle::PLAIN);
    assert!(
        text.ends_with(
            "ply 40, white to move\ncountdown: expired, black did not win in time (b0)\n"
        ),
        "{text}"
    );
}

#[test]
fn kinzoku_promotion_and_kanji() {
    // Black's Soldier on 1b steps onto 1a and must promote; it then shows as `+I` (kanji 金).
    let g = game::<Kinzoku>("3/2I/k2/3/1K1 b - 21 moves 1b1a+");
    assert_eq!(to_sfen(g.position()), "2+I/3/k2/3/1K1 w - 22");
    let (plain, _) = plain_and_color(g.position(), last(&g));
    assert!(plain.contains("|  .   . [+I] | a\n"), "{plain}");
    insta::assert_snapshot!("kinzoku_promoted", plain);
    let kanji = diagram(g.position(), last(&g), KANJI);
    assert!(kanji.contains(" [金] | a\n"), "{kanji}");
    assert!(kanji.contains(" v玉 "), "{kanji}");
    insta::assert_snapshot!("kinzoku_promoted_kanji", kanji);
}
