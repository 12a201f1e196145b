//! Bad input: errors change nothing, a rejected position leaves none; switching variants.

use super::*;

#[test]
fn uci_go_parameters_the_engine_does_not_take_are_errors() {
    // The protocol reads them; the engine refuses them as before, naming the parameter,
    // and does not search.
    let out = session(
        "position startpos
go searchmoves 1e1d+ depth 1
go movestogo 5 depth 1
",
        VariantKind::Kyoto,
    );
    assert_eq!(
        out,
        [
            "info string error: `go`: unknown parameter `searchmoves`",
            "info string error: `go`: unknown parameter `movestogo`",
        ]
    );
}

#[test]
fn errors_keep_the_state() {
    let out = session(
        "hello\n\
         position startpos moves 1e1d+\n\
         go depth banana\n\
         setoption name USI_Hash value 0\n\
         setoption name Nope value 1\n\
         setoption name USI_Variant value chess\n\
         setoption name Dialect value lishogi\n\
         setoption name Threads value 0\n\
         setoption name USI_Ponder value maybe\n\
         go perft 0\n\
         isready extra\n\
         go depth 1\n",
        VariantKind::Kyoto,
    );
    let p = protocol(&out);
    assert_eq!(p.len(), 11, "{p:#?}");
    assert!(p[0].starts_with("info string error: unknown command `hello`"));
    for line in &p[..10] {
        assert!(line.starts_with("info string error: "), "{line}");
    }
    // The position is still the one after 1e1d+: White to move.
    let mv = p[10].strip_prefix("bestmove ").unwrap();
    let g = parse_game::<Kyoto>(&format!("startpos moves 1e1d+ {mv}"));
    assert!(g.is_ok(), "{mv} is not a White move after 1e1d+");
}

#[test]
fn a_rejected_position_leaves_no_position() {
    // The case: a Micro move given to the Kyoto engine, then `go`.
    for bad in [
        "position startpos moves 1e2d",
        "position startpos moves 1e1d+ 9z9z",
        "position sfen 9/9 b - 1",
        "position",
        "position banana",
    ] {
        let script = format!("position startpos moves 1e1d+\n{bad}\ngo depth 1\ngo mate 10\n");
        let out = session(&script, VariantKind::Kyoto);
        let p = protocol(&out);
        assert_eq!(p.len(), 5, "{bad}: {p:#?}");
        assert!(p[0].starts_with("info string error: "), "{}", p[0]);
        assert!(
            p[0].contains("no position until the next valid one"),
            "{}",
            p[0]
        );
        assert!(
            p[1].starts_with("info string error: no position"),
            "{}",
            p[1]
        );
        assert_eq!(p[2], "bestmove resign");
        assert_eq!(p[4], "checkmate nomate");
    }
    // Column 31 of the line is where `9z9z` starts.
    let out = session("position startpos moves 1e1d+ 9z9z\n", VariantKind::Kyoto);
    assert!(out[0].contains("column 31"), "{}", out[0]);
    // The next valid position is used again.
    let out = session(
        "position startpos moves 1e2d\nposition startpos\ngo depth 1\n",
        VariantKind::Kyoto,
    );
    let p = protocol(&out);
    let mv = p[1].strip_prefix("bestmove ").unwrap();
    assert!(
        parse_game::<Kyoto>(&format!("startpos moves {mv}")).is_ok(),
        "{mv}"
    );
}

#[test]
fn error_lines_are_one_short_line() {
    let long = format!("position sfen {}\u{1b}[2J b - 1\n", "p".repeat(5000));
    let out = session(&long, VariantKind::Kyoto);
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].starts_with("info string error: "), "{}", out[0]);
    assert!(!out[0].contains('\u{1b}'), "{}", out[0]);
    assert!(out[0].chars().count() < 400, "{}", out[0]);
}

#[test]
fn variant_switch_resets_the_position() {
    let out = session(
        "position startpos moves 1e1d+\n\
         setoption name USI_Variant value kinzoku\n\
         go depth 1\n",
        VariantKind::Kyoto,
    );
    let p = protocol(&out);
    let mv = p[0].strip_prefix("bestmove ").unwrap();
    assert!(
        parse_game::<Kinzoku>(&format!("startpos moves {mv}")).is_ok(),
        "{mv}"
    );
}
