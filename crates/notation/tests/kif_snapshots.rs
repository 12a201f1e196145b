//! Snapshots of the KIF printer: a short game in each variant and board diagrams of
//! mid-game positions with pieces in hand. Each snapshot was checked by hand against the
//! KIF format (docs/notation.md) and the hand-worked games of `kif_read.rs`.

use kshogi_core::Variant;
use kshogi_notation::kif::{kif_diagram, to_kif, KifRecord};
use kshogi_notation::{parse_game, parse_sfen};
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;

fn kif_of<V: Variant>(position: &str) -> String {
    let game = parse_game::<V>(position).unwrap_or_else(|e| panic!("{position}: {e}"));
    to_kif(&KifRecord::from_game(&game))
}

#[test]
fn kyoto_short_game() {
    // The mate of kyoto_site_export.kif: `同`, flips on every non-king move, a drop.
    insta::assert_snapshot!(kif_of::<Kyoto>(
        "startpos moves 1e1d+ 5a5b+ 1d1a+ 2a1b+ 4e3d+ 1b3d+ 3e3d 5b5e+ 3d3c 4a4b+ T*3b"
    ));
}

#[test]
fn micro_short_game() {
    // The game of micro_game.kif: flips only on captures, drops of either face.
    insta::assert_snapshot!(kif_of::<Micro>(
        "startpos moves 1d1c 4b4c 1c1b 1a1b+ 2e1d 1b1d+ 1e1d P*2c 3e4d T*2d"
    ));
}

#[test]
fn kinzoku_short_game() {
    // The game of kinzoku_promotion.kif: the soldier promotes on 3a (`成`).
    insta::assert_snapshot!(kif_of::<Kinzoku>(
        "startpos moves 2d3d 2b1b 3d3c 1b1c 3c3b 1c1d 3b3a+ 2a3a 1e1d"
    ));
}

#[test]
fn kyoto_mid_game_diagram_with_hands() {
    // After move 9 of the Kyoto game: both sides hold a tokin/lance and a silver/bishop;
    // White to move at ply 10, then White's gold steps to 4b.
    insta::assert_snapshot!(kif_of::<Kyoto>("1gk1P/5/2K2/5/p2G1 w TSts 10 moves 4a4b+"));
}

#[test]
fn micro_diagram_with_counts() {
    // Black holds two pawn/knight pieces, White a gold/rook; White to move at ply 31.
    let pos = parse_sfen::<Micro>("kb2/4/4/4/2BK w 2Pg 31").unwrap();
    insta::assert_snapshot!(kif_diagram(&pos));
}
