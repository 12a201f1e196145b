//! Round trips of whole games through KIF: random legal games in each variant (from the
//! start, and from mid-game positions that need a board diagram), written with times and
//! comments, read back: the same start position, moves, times, comments and result.

use kshogi_core::rng::SplitMix64;
use kshogi_core::Variant;
use kshogi_core::{Game, Position};
use kshogi_notation::kif::{parse_kif, read_kif, to_kif, KifRecord, KifTime};
use kshogi_notation::to_sfen;
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;

/// Plays up to `plies` random legal moves from `start`, stopping when the game ends.
fn random_game<V: Variant>(rng: &mut SplitMix64, start: Position<V>, plies: usize) -> Game<V> {
    let mut game = Game::new(start);
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.position().legal_moves();
        let mv = moves[rng.below(moves.len())];
        game.play(mv).expect("a generated move is legal");
    }
    game
}

fn round_trips<V: Variant>(seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let mut diagrams = 0;
    let mut finished = 0;
    for i in 0..100 {
        // Every third game starts from a random mid-game position (a board diagram, maybe
        // with pieces in hand, White to move, a ply above 1).
        let start = if i % 3 == 2 {
            let plies = 1 + rng.below(20);
            let g = random_game(&mut rng, Position::<V>::start(), plies);
            if g.outcome().is_some() {
                Position::start()
            } else {
                *g.position()
            }
        } else {
            Position::start()
        };
        if start != Position::start() {
            diagrams += 1;
        }
        let plies = rng.below(61);
        let game = random_game(&mut rng, start, plies);
        if game.outcome().is_some() {
            finished += 1;
        }
        let mut record = KifRecord::from_game(&game);
        let mut total = [0u32; 2];
        for (n, m) in record.moves_mut().iter_mut().enumerate() {
            if rng.below(2) == 0 {
                let secs = rng.below(700) as u32;
                total[n % 2] += secs;
                m.time = Some(KifTime {
                    move_seconds: secs,
                    total_seconds: total[n % 2],
                });
            }
            if rng.below(5) == 0 {
                m.comments.push(format!("*comment {n}"));
            }
        }
        let text = to_kif(&record);
        let back =
            parse_kif::<V>(&text).unwrap_or_else(|e| panic!("{} game {i}: {e}\n{text}", V::NAME));
        let what = || format!("{} game {i}:\n{text}", V::NAME);
        assert_eq!(to_sfen(back.start()), to_sfen(game.start()), "{}", what());
        assert_eq!(back.start(), game.start(), "{}", what());
        assert_eq!(back.moves(), record.moves(), "{}", what());
        assert_eq!(back.game().moves(), game.moves(), "{}", what());
        assert_eq!(back.position(), game.position(), "{}", what());
        assert_eq!(back.game().outcome(), game.outcome(), "{}", what());
        assert_eq!(back.summary, record.summary, "{}", what());
        assert_eq!(back.end, record.end, "{}", what());
        assert_eq!(back.result(), record.result(), "{}", what());
        // Writing again gives the same text, and so does the Shift_JIS form of it.
        assert_eq!(to_kif(&back), text, "{}", what());
        let (sjis, _, lossy) = encoding_rs::SHIFT_JIS.encode(&text);
        assert!(!lossy);
        let from_sjis = read_kif::<V>(&sjis).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(from_sjis.moves(), record.moves(), "{}", what());
    }
    // The sample covers both kinds of start, and (in these seeds) finished games too.
    assert!(diagrams >= 20, "{} diagrams only", diagrams);
    assert!(finished >= 1, "no game finished");
}

#[test]
fn kyoto_games_round_trip() {
    round_trips::<Kyoto>(0x4B59_4F54_4F21);
}

#[test]
fn micro_games_round_trip() {
    round_trips::<Micro>(0x4D49_4352_4F21);
}

#[test]
fn kinzoku_games_round_trip() {
    round_trips::<Kinzoku>(0x4B49_4E5A_4F21);
}
