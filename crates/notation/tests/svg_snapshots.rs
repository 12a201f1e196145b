//! Snapshots of the SVG text of a few positions, with independent checks beside each: the
//! title's SFEN, the pieces of each side and the hand entries counted from the position as
//! worked out by hand, the marked squares and the arrow. (How the pictures look is checked
//! by rendering them: tests/svg_render.rs.)

use kshogi_core::{Game, Variant};
use kshogi_notation::{parse_game, parse_usi, svg, RankLabels, SvgStyle};
use kshogi_rules_dobutsu::Dobutsu;
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_minishogi::Minishogi;

const LETTERS: SvgStyle = SvgStyle {
    ranks: RankLabels::Letters,
    caption: true,
};

fn game<V: Variant>(text: &str) -> Game<V> {
    parse_game::<V>(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The picture of a game's final position with its last move marked.
fn picture<V: Variant>(g: &Game<V>, arrow: Option<&str>, style: SvgStyle) -> String {
    let arrow = arrow.map(|a| parse_usi(g.position(), a).unwrap());
    svg(g.position(), g.moves().last().copied(), arrow, style)
}

fn count(svg: &str, what: &str) -> usize {
    svg.matches(what).count()
}

#[test]
fn kyoto_midgame_with_hands() {
    // The text diagram's doc example: each side holds a tokin; 5b and 5e are marked.
    let g = game::<Kyoto>("startpos moves 1e1d+ 5a5b+ 1d1a+ 5b5e+");
    let s = picture(&g, None, SvgStyle::DEFAULT);
    assert!(
        s.contains("<title>Kyoto Shogi: 1gksP/5/5/5/pSKG1 b Tt 5</title>"),
        "{s}"
    );
    // Board: White g k s p, Black P S K G; plus one tokin in each hand.
    assert_eq!(count(&s, "class=\"piece white\""), 5);
    assert_eq!(count(&s, "class=\"piece black\""), 5);
    assert_eq!(count(&s, "class=\"mark "), 2);
    assert_eq!(count(&s, "class=\"last-move\""), 2);
    assert_eq!(count(&s, "class=\"count\""), 0);
    // The faces shown now: the pawn on 1a (歩), the tokins in hand (と).
    assert_eq!(count(&s, ">歩</text>"), 2);
    assert_eq!(count(&s, ">と</text>"), 2);
    assert!(s.contains("Kyoto Shogi, ply 5, black to move"));
    insta::assert_snapshot!("kyoto_midgame", s);
}

#[test]
fn kyoto_hand_counts_and_a_drop_arrow() {
    let g = game::<Kyoto>("k4/5/1S3/5/4K b 2G2Pt 9");
    let s = picture(&g, Some("G*5b"), LETTERS);
    // Black holds two kinds, both twice; White one tokin.
    assert_eq!(count(&s, "class=\"count\""), 2);
    assert!(s.contains(">2</text>"));
    assert_eq!(count(&s, "class=\"arrow\""), 1);
    assert_eq!(count(&s, "class=\"last-move\""), 0);
    for letter in ["a", "b", "c", "d", "e"] {
        assert!(s.contains(&format!(">{letter}</text>")), "{letter}");
    }
    insta::assert_snapshot!("kyoto_hand_counts_arrow", s);
}

#[test]
fn minishogi_promoted_pieces_in_red() {
    // 5b5a+ takes White's rook and promotes (a tokin, と); White's 1d1e+ takes Black's
    // rook and promotes too. Two promoted faces, both drawn in red.
    let g = game::<Minishogi>("startpos moves 5d5c 1b1c 5c5b 1c1d 5b5a+ 1d1e+ 4e3d 2a1b");
    let s = picture(&g, None, SvgStyle::DEFAULT);
    assert!(
        s.contains("<title>Minishogi: +Pbs1k/4g/5/2G2/K1SB+p b Rr 9</title>"),
        "{s}"
    );
    assert_eq!(count(&s, "fill=\"#c4161c\""), 2);
    insta::assert_snapshot!("minishogi_promoted", s);
}

#[test]
fn dobutsu_with_an_arrow_for_a_capture() {
    let g = game::<Dobutsu>("startpos moves 2c2b");
    let s = picture(&g, Some("1a2b"), SvgStyle::DEFAULT);
    assert!(
        s.contains("<title>Dobutsu Shogi: rkb/1P1/3/BKR w P 2</title>"),
        "{s}"
    );
    assert_eq!(count(&s, "class=\"arrow\""), 1);
    // 3 files by 4 ranks, hands of up to 3 kinds.
    assert!(s.contains("width=\"356\" height=\"322\""));
    insta::assert_snapshot!("dobutsu_arrow", s);
}

#[test]
fn kinzoku_without_hands_or_caption() {
    let g = game::<Kinzoku>("startpos");
    let style = SvgStyle {
        caption: false,
        ..SvgStyle::DEFAULT
    };
    let s = picture(&g, None, style);
    assert_eq!(count(&s, "class=\"mark "), 0);
    assert_eq!(count(&s, "class=\"caption\""), 0);
    assert!(s.contains("width=\"232\" height=\"352\""));
    insta::assert_snapshot!("kinzoku_start_no_caption", s);
}
