//! serde forms of positions, moves and games: round trips over random games in each variant,
//! hand-written JSON with expectations worked out by hand, and invalid JSON that must give a
//! serde error (never a panic).
#![cfg(feature = "serde")]

use kshogi_core::rng::SplitMix64;
use kshogi_core::Variant;
use kshogi_core::{Game, Move, Position};
use kshogi_notation::serde_support::{GameRecord, SfenPosition, UsiMove};
use kshogi_notation::{move_to_usi, parse_sfen, to_sfen};
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;
use serde_json::{json, Value};

const GAMES: usize = 100;
const MAX_PLIES: usize = 60;

/// Positions of the reference perft table for variant `V`, as extra starting points.
fn reference_starts<V: Variant>() -> Vec<Position<V>> {
    include_str!("../../../perft/reference.tsv")
        .lines()
        .filter(|l| l.starts_with(&format!("{}\t", V::NAME)))
        .filter_map(|l| l.split('\t').nth(1))
        .map(|s| parse_sfen::<V>(s).unwrap_or_else(|e| panic!("{s}: {e}")))
        .collect()
}

fn check_position<V: Variant>(pos: &Position<V>) {
    let text = serde_json::to_string(&SfenPosition(*pos)).unwrap();
    // The serde form is exactly the canonical SFEN as a JSON string.
    assert_eq!(text, format!("\"{}\"", to_sfen(pos)));
    let back: SfenPosition<V> = serde_json::from_str(&text).unwrap();
    assert_eq!(back.0, *pos, "{text}");
}

fn check_move<V: Variant>(mv: Move) {
    let text = serde_json::to_string(&UsiMove::<V>::new(mv)).unwrap();
    assert_eq!(text, format!("\"{}\"", move_to_usi::<V>(mv)));
    let back: UsiMove<V> = serde_json::from_str(&text).unwrap();
    assert_eq!(back.get(), mv, "{text}");
}

fn check_record<V: Variant>(game: &Game<V>) {
    let record = GameRecord(game.clone());
    let text = serde_json::to_string(&record).unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();
    // The documented shape, field by field.
    let moves: Vec<String> = game.moves().iter().map(|&m| move_to_usi::<V>(m)).collect();
    assert_eq!(value["variant"], V::NAME);
    assert_eq!(value["start"], to_sfen(game.start()));
    assert_eq!(value["moves"], json!(moves));
    assert_eq!(value["sfen"], to_sfen(game.position()));
    assert_eq!(
        value["result"].is_null(),
        game.outcome().is_none(),
        "{text}"
    );
    assert_eq!(value.as_object().unwrap().len(), 5);
    let back: GameRecord<V> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(back, record, "{text}");
    assert_eq!(back.0.moves(), game.moves());

    // The reference engine's dialect reads back to the same game: `-` as the flip mark,
    // or no mark at all (every flip here is mandatory).
    for dialect in [
        moves
            .iter()
            .map(|m| m.replace('+', "-"))
            .collect::<Vec<_>>(),
        moves.iter().map(|m| m.replace('+', "")).collect::<Vec<_>>(),
    ] {
        let mut v = value.clone();
        v["moves"] = json!(dialect);
        let back: GameRecord<V> = serde_json::from_value(v).unwrap();
        assert_eq!(back, record);
    }
    // `sfen` and `result` may be left out.
    let mut v = value.clone();
    let object = v.as_object_mut().unwrap();
    object.remove("sfen");
    object.remove("result");
    let back: GameRecord<V> = serde_json::from_value(v).unwrap();
    assert_eq!(back, record);
}

fn random_games<V: Variant>(seed: u64) -> (usize, usize) {
    let mut rng = SplitMix64::new(seed);
    let others = reference_starts::<V>();
    let (mut plies, mut finished) = (0, 0);
    for i in 0..GAMES {
        // Half the games start from the start position, half from reference positions.
        let start = if i % 2 == 0 || others.is_empty() {
            Position::<V>::start()
        } else {
            others[rng.below(others.len())]
        };
        let mut game = Game::new(start);
        for _ in 0..MAX_PLIES {
            check_position(game.position());
            if game.outcome().is_some() {
                break;
            }
            let legal = game.position().legal_moves();
            for &mv in legal.iter() {
                check_move::<V>(mv);
            }
            let mv = legal[rng.below(legal.len())];
            game.play(mv).unwrap();
            plies += 1;
        }
        check_position(game.position());
        finished += usize::from(game.outcome().is_some());
        check_record(&game);
    }
    (plies, finished)
}

#[test]
fn random_games_round_trip_kyoto() {
    let (plies, _) = random_games::<Kyoto>(1);
    assert!(plies > GAMES * 10, "{plies}");
}

#[test]
fn random_games_round_trip_micro() {
    let (plies, _) = random_games::<Micro>(2);
    assert!(plies > GAMES * 10, "{plies}");
}

#[test]
fn random_games_round_trip_kinzoku() {
    let (plies, finished) = random_games::<Kinzoku>(3);
    assert!(plies > GAMES * 10, "{plies}");
    // Kinzoku games are short: some must end (king entry, countdown, mate, repetition).
    assert!(finished > 0);
}

#[test]
fn hand_written_records() {
    // Kyoto: Black's Pawn 1e1d+ becomes a Rook, White's Pawn 5a5b+ likewise. Read in the
    // reference engine's dialect with an alias of the variant name and `startpos`.
    let text = r#"{"variant": "kyotoshogi", "start": "startpos", "moves": ["1e1d", "5a5b-"]}"#;
    let record: GameRecord<Kyoto> = serde_json::from_str(text).unwrap();
    assert_eq!(to_sfen(record.0.position()), "1gkst/r4/5/4R/TSKG1 b - 3");
    assert_eq!(
        serde_json::to_string(&record).unwrap(),
        r#"{"variant":"kyoto","start":"pgkst/5/5/5/TSKGP b - 1","moves":["1e1d+","5a5b+"],"sfen":"1gkst/r4/5/4R/TSKG1 b - 3","result":null}"#
    );

    // A mate: the Gold dropped on 5b checks the King on 5a, covers 4a and 4b, and is guarded
    // by the Silver on 4c.
    let text = r#"{"variant":"kyoto","start":"k4/5/1S3/5/4K b G 9","moves":["G*5b"],
        "result":{"win":{"winner":"black","reason":"checkmate"}}}"#;
    let record: GameRecord<Kyoto> = serde_json::from_str(text).unwrap();
    assert_eq!(
        serde_json::to_string(&record).unwrap(),
        r#"{"variant":"kyoto","start":"k4/5/1S3/5/4K b G 9","moves":["G*5b"],"sfen":"k4/G4/1S3/5/4K w - 10","result":{"win":{"winner":"black","reason":"checkmate"}}}"#
    );

    // Kinzoku: taking White's last Soldier starts Black's countdown of five moves.
    let text = r#"{"variant":"kinzoku","start":"k2/1i1/1S1/3/2K b - 29","moves":["2c2b"]}"#;
    let record: GameRecord<Kinzoku> = serde_json::from_str(text).unwrap();
    assert_eq!(
        serde_json::to_value(&record).unwrap()["sfen"],
        "k2/1S1/3/3/2K w - 30 b5"
    );

    // Positions and moves alone.
    let pos: SfenPosition<Micro> =
        serde_json::from_str(r#""kb+r+l/p3/4/3P/+L+RBK b - 1""#).unwrap();
    assert_eq!(
        serde_json::to_string(&pos).unwrap(),
        r#""kbgs/p3/4/3P/SGBK b - 1""#
    );
    let mv: UsiMove<Kyoto> = serde_json::from_str(r#""+L*3a""#).unwrap();
    assert_eq!(serde_json::to_string(&mv).unwrap(), r#""T*3a""#);
    let mv: UsiMove<Kyoto> = serde_json::from_str(r#""2e1d-""#).unwrap();
    assert_eq!(serde_json::to_string(&mv).unwrap(), r#""2e1d+""#);
}

/// Deserialising `text` fails with a serde error whose message contains `needle`.
fn fails<T: serde::de::DeserializeOwned>(text: &str, needle: &str) {
    match serde_json::from_str::<T>(text) {
        Ok(_) => panic!("{text} was accepted"),
        Err(e) => assert!(e.to_string().contains(needle), "{text}: {e}"),
    }
}

#[test]
fn invalid_positions_and_moves() {
    fails::<SfenPosition<Kyoto>>(r#""pgkst/5/5/5/TSKGX b - 1""#, "unknown piece `X`");
    fails::<SfenPosition<Kyoto>>(r#""kbgs/p3/4/3P/SGBK b - 1""#, "needs 5");
    fails::<SfenPosition<Kyoto>>(r#""""#, "empty position");
    fails::<SfenPosition<Kyoto>>(r#""k4/5/5/5/5 b - 1""#, "kings");
    fails::<SfenPosition<Kinzoku>>(r#""k2/3/3/1S1/2K w - 30 b9""#, "countdown");
    fails::<SfenPosition<Kyoto>>("42", "invalid type");
    fails::<SfenPosition<Kyoto>>("null", "invalid type");
    fails::<UsiMove<Kyoto>>(r#""1e1""#, "is not a USI move");
    fails::<UsiMove<Kyoto>>(r#""9z9y""#, "is not a USI move");
    fails::<UsiMove<Kyoto>>(r#""X*3a""#, "is not a USI move");
    fails::<UsiMove<Kyoto>>(r#""K*3a""#, "never dropped");
    fails::<UsiMove<Kyoto>>(r#""""#, "empty");
    fails::<UsiMove<Kinzoku>>(r#""S*2c""#, "never dropped");
    fails::<UsiMove<Micro>>(r#""5e4e""#, "is not a USI move");
    fails::<UsiMove<Micro>>("[]", "invalid type");
}

#[test]
fn invalid_records() {
    let start = "pgkst/5/5/5/TSKGP b - 1";
    let record = |moves: &str, rest: &str| {
        format!(r#"{{"variant":"kyoto","start":"{start}","moves":{moves}{rest}}}"#)
    };
    // Malformed and illegal moves are told apart, and name the move.
    fails::<GameRecord<Kyoto>>(&record(r#"["1e1"]"#, ""), "move 1: `1e1` is not a USI move");
    fails::<GameRecord<Kyoto>>(
        &record(r#"["1e1d+","1e1c"]"#, ""),
        "move 2: `1e1c` is not legal here",
    );
    // The King never flips, so a mark on its move is wrong.
    fails::<GameRecord<Kyoto>>(&record(r#"["3e3d+"]"#, ""), "is not legal here");
    fails::<GameRecord<Kyoto>>(&record(r#"[1]"#, ""), "invalid type");
    // `sfen` and `result` must agree with the moves.
    fails::<GameRecord<Kyoto>>(
        &record(r#"["1e1d+"]"#, &format!(r#","sfen":"{start}""#)),
        "is not the position after the moves, `pgkst/5/5/4R/TSKG1 w - 2`",
    );
    fails::<GameRecord<Kyoto>>(&record("[]", r#","sfen":"x""#), "sfen: column 2");
    fails::<GameRecord<Kyoto>>(
        &record("[]", r#","result":{"draw":{"reason":"repetition"}}"#),
        "result says draw by repetition, but the moves give a game still going on",
    );
    fails::<GameRecord<Kyoto>>(&record("[]", r#","result":"black""#), "unknown variant");
    // A mate already on the board: `result: null` is wrong, and so is any move.
    let mate = r#"{"variant":"kyoto","start":"k4/G4/R4/5/4K w - 10","moves":[]"#;
    fails::<GameRecord<Kyoto>>(
        &format!(r#"{mate},"result":null}}"#),
        "result says a game still going on, but the moves give black wins by checkmate",
    );
    fails::<GameRecord<Kyoto>>(
        r#"{"variant":"kyoto","start":"k4/G4/R4/5/4K w - 10","moves":["5a4a"]}"#,
        "move 1 `5a4a` comes after the game ended (black wins by checkmate)",
    );
    // Wrong variant, bad start, missing fields, not JSON.
    fails::<GameRecord<Micro>>(&record("[]", ""), "variant `kyoto` is not micro");
    fails::<GameRecord<Kyoto>>(
        r#"{"variant":"kyoto","start":"startpos x","moves":[]}"#,
        "start: column 10",
    );
    fails::<GameRecord<Kyoto>>(
        r#"{"variant":"kyoto","start":"startpos"}"#,
        "missing field `moves`",
    );
    fails::<GameRecord<Kyoto>>(r#"{"variant":"kyoto","moves":[]}"#, "missing field `start`");
    fails::<GameRecord<Kyoto>>(r#"{"variant":"kyoto","#, "EOF");
    fails::<GameRecord<Kyoto>>("[]", "expected a game record");
    fails::<GameRecord<Kyoto>>("7", "invalid type");
}
