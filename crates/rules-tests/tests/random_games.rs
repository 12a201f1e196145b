//! Seeded random games, checked position by position and move by move.
//!
//! In every position visited:
//! - the incremental hash equals the hash computed from scratch;
//! - SFEN print then parse gives an equal position (and the same text again);
//! - core's legal moves equal those of the independent reference model
//!   (`common/reference.rs`), compared as sorted USI texts, and so does the game result;
//! - every legal move's USI text parses back to the same move; every pseudo-legal move the
//!   reference rejects is rejected by the USI parser;
//! - making each legal move keeps the hash consistent, does not leave the mover's king
//!   attacked, gives the position the reference predicts (compared as SFEN), equals
//!   copy-make, and unmaking it restores the position and hash exactly;
//! - on a sample of positions, perft(2) equals the sum of divide(2) (and each part is the
//!   move count of the position after that move), perft(2) (Kinzoku: perft(3)) equals the
//!   reference model's, and two-thread perft(3) equals sequential perft(3).
//!
//! Games start from the start position and from a few extra positions (all pieces in hand,
//! sliders next to the kings, a running countdown). Moves are drawn from the reference's
//! sorted list (captures preferred now and then), so the games depend on the rules only.
//!
//! Along each game a [`Game`] is played too, and its result (repetition included) is
//! compared with the reference's reading of the rules.

mod common;

use common::reference::{self, repetition, RefPos, Rv};
use common::{Chance, Rng};
use kshogi_core::Variant;
use kshogi_core::{divide, perft, perft_parallel, Game, Outcome, Position};
use kshogi_notation::{move_to_usi, parse_sfen, parse_usi, to_sfen};
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;
use std::collections::BTreeMap;

const GAMES: usize = 300;
const MAX_PLIES: usize = 80;

// Extra starts, to reach positions the start position rarely leads to: every piece in hand,
// sliders next to kings (pins, discovered checks, interpositions), countdowns.
const KYOTO_STARTS: &[(Option<&str>, usize, usize)] = &[
    (None, GAMES, MAX_PLIES),
    (Some("4k/5/5/5/K4 b TGSPtgsp 1"), 20, 40),
    (Some("k4/5/5/5/4K w 2T2G2S2P 1"), 10, 30),
    (Some("l1k1b/1r3/5/3R1/B1K1L w Gg 1"), 20, 60),
];
const MICRO_STARTS: &[(Option<&str>, usize, usize)] = &[
    (None, GAMES, MAX_PLIES),
    (Some("k3/4/4/4/3K b BGSPbgsp 1"), 20, 40),
    (Some("l1k1/3r/4/2R1/1K1L w Bb 1"), 20, 60),
];
const KINZOKU_STARTS: &[(Option<&str>, usize, usize)] = &[
    (None, 2 * GAMES, MAX_PLIES),
    (Some("ks1/c1i/3/I1C/1SK b - 1"), 100, MAX_PLIES),
    (Some("2k/3/1s1/1SC/2K b - 1"), 100, MAX_PLIES),
    (Some("2k/3/1S1/3/K2 w - 7 b5"), 50, MAX_PLIES),
];

#[derive(Default, Debug)]
struct Stats {
    positions: usize,
    moves_checked: usize,
    perft_samples: usize,
    drops_played: usize,
    flips_played: usize,
    captures_played: usize,
    countdown_positions: usize,
    endings: BTreeMap<String, usize>,
}

fn diff(a: &[String], b: &[String]) -> String {
    let only_a: Vec<&String> = a.iter().filter(|x| !b.contains(x)).collect();
    let only_b: Vec<&String> = b.iter().filter(|x| !a.contains(x)).collect();
    format!("only in core: {only_a:?}; only in reference: {only_b:?}")
}

/// Every per-position check; returns the reference model of the position.
fn check_position<V: Variant>(
    pos: &Position<V>,
    rv: Rv,
    rng: &mut Rng,
    stats: &mut Stats,
) -> RefPos {
    stats.positions += 1;
    assert_eq!(pos.hash(), pos.compute_hash(), "{pos:?}");

    // SFEN round trip.
    let sfen = to_sfen(pos);
    let back = parse_sfen::<V>(&sfen).unwrap_or_else(|e| panic!("`{sfen}` does not parse: {e}"));
    assert!(back == *pos, "`{sfen}` parses to a different position");
    assert_eq!(back.hash(), pos.hash(), "{sfen}");
    assert_eq!(to_sfen(&back), sfen);

    // The reference model reads the same text and prints it identically.
    let r = RefPos::from_sfen(rv, &sfen);
    assert_eq!(r.to_sfen(), sfen, "reference printer disagrees");

    // Legal moves: core against the reference.
    let moves = pos.legal_moves();
    let mut core_usi: Vec<String> = moves.iter().map(|&m| move_to_usi::<V>(m)).collect();
    core_usi.sort();
    let n = core_usi.len();
    core_usi.dedup();
    assert_eq!(n, core_usi.len(), "duplicate moves in `{sfen}`");
    let ref_usi = r.legal_usi();
    assert!(
        core_usi == ref_usi,
        "legal moves differ in `{sfen}`: {}",
        diff(&core_usi, &ref_usi)
    );
    assert_eq!(pos.count_legal(), moves.len() as u64, "{sfen}");
    assert_eq!(pos.outcome(), r.outcome(), "outcome of `{sfen}`");
    assert_eq!(pos.in_check(), r.in_check(), "in_check of `{sfen}`");
    if pos.extra() != V::Extra::default() {
        stats.countdown_positions += 1;
    }

    // Pseudo-legal moves that the reference rejects must be rejected by the parser.
    for m in r.pseudo_moves() {
        let text = m.usi();
        if !ref_usi.contains(&text) {
            assert!(
                parse_usi(pos, &text).is_err(),
                "`{text}` is illegal in `{sfen}` but parses"
            );
        }
    }

    let ref_moves = r.legal();
    for &m in moves.iter() {
        stats.moves_checked += 1;
        let text = move_to_usi::<V>(m);
        assert_eq!(parse_usi(pos, &text), Ok(m), "`{text}` in `{sfen}`");
        assert!(pos.is_legal(m), "`{text}` in `{sfen}`");
        let mover = pos.side_to_move();
        let mut p = *pos;
        let undo = p.make(m);
        assert_eq!(p.hash(), p.compute_hash(), "after `{text}` in `{sfen}`");
        assert!(
            !p.is_attacked(p.king(mover), !mover, p.occupied()),
            "`{text}` leaves the mover's king attacked in `{sfen}`"
        );
        let rm = ref_moves
            .iter()
            .find(|x| x.usi() == text)
            .expect("the same move in the reference");
        assert_eq!(
            to_sfen(&p),
            r.apply(rm).to_sfen(),
            "result of `{text}` in `{sfen}`"
        );
        assert!(
            p == pos.after(m),
            "copy-make differs for `{text}` in `{sfen}`"
        );
        p.unmake(m, undo);
        assert!(p == *pos, "unmake of `{text}` in `{sfen}`");
        assert_eq!(p.hash(), pos.hash(), "hash after unmake of `{text}`");
    }

    // perft(2) against divide(2), on a sample.
    if rng.chance(1, 12) {
        stats.perft_samples += 1;
        let mut p = *pos;
        let total = perft(&mut p, 2);
        let parts = divide(&mut p, 2);
        assert!(p == *pos);
        assert_eq!(total, parts.iter().map(|x| x.1).sum::<u64>(), "{sfen}");
        assert_eq!(parts.len(), moves.len(), "{sfen}");
        for (m, count) in parts {
            assert_eq!(count, pos.after(m).count_legal(), "{sfen}");
        }
        // Deeper, against the reference model (the shared perft table has no positions with
        // hands this full or with a countdown), and the parallel counter against the
        // sequential one.
        let depth = if rv == Rv::Kinzoku { 3 } else { 2 };
        assert_eq!(
            perft(&mut p, depth),
            reference::perft(&r, depth),
            "perft {depth} of `{sfen}`"
        );
        assert_eq!(
            perft_parallel(pos, 3, 2),
            perft(&mut p, 3),
            "parallel perft 3 of `{sfen}`"
        );
    }
    r
}

fn ending_name(o: Option<Outcome>) -> String {
    match o {
        None => "unfinished".into(),
        Some(Outcome::Win { reason, .. }) => format!("win {reason:?}"),
        Some(Outcome::Draw { reason }) => format!("draw {reason:?}"),
    }
}

/// Plays `games` random games of at most `max_plies` from each start (`None`: the variant's
/// start position).
fn run<V: Variant>(seed: u64, starts: &[(Option<&str>, usize, usize)]) -> Stats {
    let mut rng = Rng::new(seed);
    let mut stats = Stats::default();
    for &(start, games, max_plies) in starts {
        let start = match start {
            None => Position::<V>::start(),
            Some(sfen) => parse_sfen::<V>(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}")),
        };
        for _ in 0..games {
            play_one(start, max_plies, &mut rng, &mut stats);
        }
    }
    eprintln!("{}: {stats:?}", V::NAME);
    stats
}

fn play_one<V: Variant>(start: Position<V>, max_plies: usize, rng: &mut Rng, stats: &mut Stats) {
    let rv = Rv::from_name(V::NAME);
    {
        let mut pos = start;
        let mut game = Game::new(pos);
        let mut history = vec![RefPos::from_sfen(rv, &to_sfen(&pos))];
        let mut checks: Vec<bool> = Vec::new();
        assert_eq!(game.outcome(), history[0].outcome());
        for _ in 0..max_plies {
            let r = check_position(&pos, rv, rng, stats);
            if game.outcome().is_some() {
                break;
            }
            // Choose from the reference's sorted list, so that the games depend on the rules
            // only, not on the order of core's generator; prefer captures now and then.
            let legal = r.legal();
            assert!(!legal.is_empty());
            let captures: Vec<_> = legal
                .iter()
                .filter(|m| match m {
                    common::reference::RefMove::Board { to, .. } => r.at(*to).is_some(),
                    _ => false,
                })
                .collect();
            let rm = if !captures.is_empty() && rng.chance(2, 5) {
                captures[rng.below(captures.len())].clone()
            } else {
                let mut sorted = legal.clone();
                sorted.sort_by_key(|m| m.usi());
                sorted[rng.below(sorted.len())].clone()
            };
            let text = rm.usi();
            match &rm {
                common::reference::RefMove::Drop { .. } => stats.drops_played += 1,
                common::reference::RefMove::Board { to, flip, .. } => {
                    stats.flips_played += usize::from(*flip);
                    stats.captures_played += usize::from(r.at(*to).is_some());
                }
            }
            let m = parse_usi(&pos, &text).expect("legal move parses");
            game.play(m)
                .unwrap_or_else(|e| panic!("{text} in `{}`: {e}", to_sfen(&pos)));
            pos.make(m);
            assert!(game.position() == &pos);
            let next = r.apply(&rm);
            checks.push(next.in_check());
            history.push(next);
            let expected = history
                .last()
                .and_then(|p| p.outcome())
                .or_else(|| repetition(rv, &history, &checks));
            assert_eq!(
                game.outcome(),
                expected,
                "game result after {:?} from the start",
                game.moves()
                    .iter()
                    .map(|&m| move_to_usi::<V>(m))
                    .collect::<Vec<_>>()
            );
        }
        *stats
            .endings
            .entry(ending_name(game.outcome()))
            .or_default() += 1;
    }
}

#[test]
fn kyoto_random_games_agree_with_the_reference() {
    let s = run::<Kyoto>(0x6b79_6f74_6f00_0001, KYOTO_STARTS);
    assert!(s.positions > 5_000, "{s:?}");
    assert!(s.drops_played > 100 && s.captures_played > 100, "{s:?}");
    assert!(s.perft_samples > 100, "{s:?}");
}

#[test]
fn micro_random_games_agree_with_the_reference() {
    let s = run::<Micro>(0x6d69_6372_6f00_0002, MICRO_STARTS);
    assert!(s.positions > 5_000, "{s:?}");
    assert!(s.drops_played > 100 && s.flips_played > 100, "{s:?}");
    assert!(s.perft_samples > 100, "{s:?}");
}

#[test]
fn kinzoku_random_games_agree_with_the_reference() {
    let s = run::<Kinzoku>(0x6b69_6e7a_6f6b_0003, KINZOKU_STARTS);
    assert!(s.positions > 2_000, "{s:?}");
    assert!(s.flips_played > 5, "promotions happen: {s:?}");
    assert!(s.countdown_positions > 10, "countdowns happen: {s:?}");
    assert!(s.endings.contains_key("win KingEntry"), "{s:?}");
}
