//! KIF for Minishogi and Dobutsu: multi-character piece names, `成` / `不成`, board diagrams
//! of their sizes, and the SFEN/USI forms of their moves.

use kshogi_core::{Game, Position, Variant};
use kshogi_notation::kif::{kif_diagram, kif_move_text, parse_kif, to_kif, KifRecord};
use kshogi_notation::{move_to_usi, parse_sfen, parse_usi, to_sfen};
use kshogi_rules_dobutsu::Dobutsu;
use kshogi_rules_minishogi::Minishogi;

fn game<V: Variant>(sfen: &str, moves: &[&str]) -> Game<V> {
    let start = if sfen == "startpos" {
        Position::<V>::start()
    } else {
        parse_sfen::<V>(sfen).unwrap()
    };
    let mut g = Game::new(start);
    for m in moves {
        let mv = parse_usi(g.position(), m).unwrap_or_else(|e| panic!("{m}: {e}"));
        g.play(mv).unwrap();
    }
    g
}

fn round_trip<V: Variant>(g: &Game<V>) -> String {
    let text = to_kif(&KifRecord::from_game(g));
    let back = parse_kif::<V>(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.game().moves(), g.moves(), "{text}");
    assert_eq!(to_sfen(back.start()), to_sfen(g.start()), "{text}");
    text
}

#[test]
fn minishogi_usi_promotion_marks_and_drops() {
    let pos = parse_sfen::<Minishogi>("5/2S2/4k/5/K4 b P 1").unwrap();
    let promote = parse_usi(&pos, "3b3a+").unwrap();
    let decline = parse_usi(&pos, "3b3a").unwrap();
    assert!(promote.is_flip() && !decline.is_flip());
    assert_eq!(move_to_usi::<Minishogi>(promote), "3b3a+");
    assert_eq!(move_to_usi::<Minishogi>(decline), "3b3a");
    let drop = parse_usi(&pos, "P*3c").unwrap();
    assert_eq!(move_to_usi::<Minishogi>(drop), "P*3c");
    // KIF move text: 成 for the promotion, 不成 for the declined one, 打 for the drop.
    assert_eq!(kif_move_text(&pos, promote, None), "３一銀成(32)");
    assert_eq!(kif_move_text(&pos, decline, None), "３一銀不成(32)");
    assert_eq!(kif_move_text(&pos, drop, None), "３三歩打");
    // A promoted silver is 成銀 in moves and 全 on the diagram.
    let p2 = pos.after(promote);
    assert!(kif_diagram(&p2).contains("全"), "{}", kif_diagram(&p2));
    let q = parse_sfen::<Minishogi>("2+S2/5/4k/5/K4 b - 1").unwrap();
    let m = parse_usi(&q, "3a3b").unwrap();
    assert_eq!(kif_move_text(&q, m, None), "３二成銀(31)");
}

#[test]
fn minishogi_records_round_trip() {
    // From the start: 2e(bishop) moves, then promotions and captures.
    let g = game::<Minishogi>("startpos", &["5d5c", "1b1c", "5c5b", "1c1d", "5b5a+"]);
    let text = round_trip(&g);
    assert!(text.contains("手合割：5五将棋"), "{text}");
    assert!(text.contains("成(52)"), "{text}");
    // A diagram start, with a declined promotion and a dragon.
    let g = game::<Minishogi>(
        "k4/2S2/5/4R/K4 b P 1",
        &["3b3a", "5a5b", "1d1a+", "5b5c", "1a1b"],
    );
    let text = round_trip(&g);
    assert!(text.contains("不成"), "{text}");
    assert!(text.contains("龍"), "{text}");
    // 竜 is read for the dragon.
    let alt = text.replace('龍', "竜");
    let back = parse_kif::<Minishogi>(&alt).unwrap();
    assert_eq!(back.game().moves(), g.moves());
}

#[test]
fn dobutsu_records_with_multi_character_names() {
    let pos = Position::<Dobutsu>::start();
    let m = parse_usi(&pos, "2c2b").unwrap();
    assert_eq!(kif_move_text(&pos, m, None), "２二ひよこ(23)");
    let g = game::<Dobutsu>("startpos", &["2c2b", "2a2b", "1d1c", "2b2c", "2d2c"]);
    let text = round_trip(&g);
    assert!(text.contains("手合割：どうぶつしょうぎ"), "{text}");
    assert!(text.contains("きりん"), "{text}");
    assert!(text.contains("ライオン"), "{text}");
    // A chick promotes to a hen with 成; a 3x4 diagram start with hands.
    let g = game::<Dobutsu>("k2/1P1/3/2K b PR 1", &["2b2a+", "3a2a", "R*2c"]);
    let text = round_trip(&g);
    assert!(text.contains("ひよこ成(22)"), "{text}");
    assert!(text.contains("きりん打"), "{text}");
    let diagram = kif_diagram(g.start());
    assert!(diagram.contains("  ３ ２ １\n"), "{diagram}");
    assert!(diagram.contains("|vラ ・ ・|一"), "{diagram}");
    assert!(diagram.contains("| ・ ひ ・|二"), "{diagram}");
    assert!(diagram.contains("|四"), "{diagram}");
    // A hen on the board is に; a hen moves.
    let g = game::<Dobutsu>("k2/1P1/3/2K b - 1", &["2b2a+", "3a3b", "2a2b"]);
    let text = round_trip(&g);
    assert!(text.contains("にわとり(21)"), "{text}");
}
