//! Random games: the invariants of positions, moves, notation and games, checked at every
//! position of seeded random games (some of which seek repetitions).

use crate::{variant_rng, Failures};
use kshogi_core::rng::SplitMix64;
use kshogi_core::{perft, DrawReason, Game, Outcome, Position, Variant, WinReason};
use kshogi_notation::kif::{parse_kif, to_kif, KifRecord};
use kshogi_notation::{move_to_usi, parse_sfen, parse_usi, to_sfen};
use std::collections::HashSet;

/// Games per variant.
pub const GAMES: usize = 100;
/// The most plies of a game (fewer when it ends).
pub const PLIES: usize = 100;
/// Every other game starts after up to this many random moves from the start.
const MAX_OPENING: usize = 12;
/// The seed of the games.
const SEED: u64 = 0x6b73_686f_6769_0001;

/// What the games of one variant covered.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    /// Positions checked.
    pub positions: usize,
    /// Moves made and unmade.
    pub moves_checked: usize,
    /// Games that ended (the others stopped at [`PLIES`]).
    pub finished: usize,
    /// Games ended by a repetition rule.
    pub repetitions: usize,
    /// Final positions that do not read back from SFEN and are no valid setup either.
    pub skipped_sfen: usize,
}

/// Where a problem is: the game, the ply and the position's SFEN (and the move, if any).
fn at<V: Variant>(game: usize, pos: &Position<V>) -> String {
    format!(
        "game {game}, ply {}, position `{}`",
        pos.ply(),
        to_sfen(pos)
    )
}

/// Checks one position and each of its legal moves.
pub(crate) fn check_position<V: Variant>(
    game: usize,
    pos: &Position<V>,
    f: &mut Failures,
    t: &mut Tally,
) {
    t.positions += 1;
    let here = || at(game, pos);
    let sfen = to_sfen(pos);
    let outcome = pos.outcome();
    match parse_sfen::<V>(&sfen) {
        Ok(back) => {
            f.check(back == *pos, || {
                format!("{}: SFEN reads back as another position", here())
            });
            f.check(back.hash() == pos.hash(), || {
                format!("{}: SFEN reads back with another hash", here())
            });
            let again = to_sfen(&back);
            f.check(again == sfen, || {
                format!("{}: SFEN reads back and prints as `{again}`", here())
            });
        }
        // A position where the game is over may be one that the rules do not accept as a
        // setup (it can only arise by play): only then is it not expected to read back.
        Err(_) if outcome.is_some() && Position::from_setup(&pos.to_setup()).is_err() => {
            t.skipped_sfen += 1;
        }
        Err(e) => f.fail(format!("{}: its SFEN does not read back: {e}", here())),
    }
    f.check(pos.hash() == pos.compute_hash(), || {
        format!("{}: hash() differs from compute_hash()", here())
    });
    let moves = pos.legal_moves();
    f.check(pos.count_legal() == moves.len() as u64, || {
        format!(
            "{}: count_legal() is {} but legal_moves() has {}",
            here(),
            pos.count_legal(),
            moves.len()
        )
    });
    f.check(outcome.is_some() == moves.is_empty(), || {
        format!(
            "{}: outcome {:?} with {} legal moves",
            here(),
            outcome,
            moves.len()
        )
    });
    let mut texts = HashSet::new();
    let mut replies = 0;
    for &mv in moves.iter() {
        t.moves_checked += 1;
        let text = move_to_usi::<V>(mv);
        let there = || format!("{}, move `{text}`", here());
        f.check(texts.insert(text.clone()), || {
            format!("{}: another legal move has the same USI text", there())
        });
        match parse_usi(pos, &text) {
            Ok(back) => f.check(back == mv, || {
                format!(
                    "{}: its USI text reads back as `{}`",
                    there(),
                    move_to_usi::<V>(back)
                )
            }),
            Err(e) => f.fail(format!("{}: its USI text does not read back: {e}", there())),
        }
        f.check(pos.is_legal(mv), || {
            format!("{}: generated but is_legal() says no", there())
        });
        let mut child = *pos;
        let undo = child.make(mv);
        f.check(child.hash() == child.compute_hash(), || {
            format!(
                "{}: after the move (`{}`) hash() differs from compute_hash()",
                there(),
                to_sfen(&child)
            )
        });
        replies += child.count_legal();
        child.unmake(mv, undo);
        f.check(child == *pos, || {
            format!("{}: unmake gives `{}`", there(), to_sfen(&child))
        });
        f.check(child.hash() == pos.hash(), || {
            format!("{}: unmake restores the position but not the hash", there())
        });
    }
    let leaves = perft(&mut pos.clone(), 2);
    f.check(leaves == replies, || {
        format!(
            "{}: perft 2 is {leaves}, but making each move and counting the replies gives \
             {replies}",
            here()
        )
    });
}

/// Whether an outcome is one that only the history gives (a repetition).
fn is_repetition(o: Outcome) -> bool {
    matches!(
        o,
        Outcome::Draw {
            reason: DrawReason::Repetition
        } | Outcome::Win {
            reason: WinReason::PerpetualCheck,
            ..
        }
    )
}

/// The USI texts of a game's moves, joined by spaces.
fn usi_moves<V: Variant>(moves: impl IntoIterator<Item = kshogi_core::Move>) -> String {
    moves
        .into_iter()
        .map(move_to_usi::<V>)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks a finished game: its outcome, and the KIF round trip.
fn check_game<V: Variant>(n: usize, game: &Game<V>, f: &mut Failures) {
    let last = game.position();
    let start_sfen = to_sfen(game.start());
    let moves = usi_moves::<V>(game.moves().iter().copied());
    let which = || format!("game {n} (`{start_sfen}` moves {moves})");
    match (game.outcome(), last.outcome()) {
        (Some(a), Some(b)) => f.check(a == b, || {
            format!(
                "{}: the game's outcome is {a:?}, the last position's {b:?}",
                which()
            )
        }),
        (Some(a), None) => f.check(
            is_repetition(a) && game.occurrences() >= V::REPETITION.occurrences as usize,
            || {
                format!(
                    "{}: the game's outcome is {a:?}, but the last position has none and \
                     occurred {} times",
                    which(),
                    game.occurrences()
                )
            },
        ),
        (None, Some(b)) => f.fail(format!(
            "{}: the last position's outcome is {b:?}, the game has none",
            which()
        )),
        (None, None) => {}
    }
    let text = to_kif(&KifRecord::from_game(game));
    match parse_kif::<V>(&text) {
        Ok(back) => {
            let s = to_sfen(back.start());
            f.check(s == start_sfen, || {
                format!("{}: KIF reads back with start `{s}`", which())
            });
            let m = usi_moves::<V>(back.moves().iter().map(|m| m.mv()));
            f.check(m == moves, || {
                format!("{}: KIF reads back with moves `{m}`", which())
            });
            let (want, got) = (to_sfen(last), to_sfen(back.position()));
            f.check(got == want, || {
                format!(
                    "{}: KIF reads back ending in `{got}` instead of `{want}`",
                    which()
                )
            });
            f.check(back.game().outcome() == game.outcome(), || {
                format!(
                    "{}: KIF reads back with outcome {:?} instead of {:?}",
                    which(),
                    back.game().outcome(),
                    game.outcome()
                )
            });
        }
        Err(e) => f.fail(format!(
            "{}: its KIF does not read back: {e}\n{text}",
            which()
        )),
    }
}

/// A start for game `n`: the variant's start, or (every other game) the position after a
/// few random moves from it, the last one before the game would end.
fn start_for<V: Variant>(n: usize, rng: &mut SplitMix64) -> Position<V> {
    let mut pos = Position::<V>::start();
    if n % 2 == 0 {
        return pos;
    }
    for _ in 0..1 + rng.below(MAX_OPENING) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let next = pos.after(moves[rng.below(moves.len())]);
        if next.outcome().is_some() {
            break;
        }
        pos = next;
    }
    pos
}

/// Plays [`GAMES`] seeded random games of `V` (of up to [`PLIES`] plies; every other one
/// from a few random moves in, every fourth seeking repetitions) and checks every position
/// and every game, recording what is wrong in `f`.
pub fn random_games<V: Variant>(f: &mut Failures) -> Tally {
    let mut rng = variant_rng(SEED, V::NAME);
    let mut t = Tally::default();
    for n in 0..GAMES {
        let mut game = Game::new(start_for::<V>(n, &mut rng));
        check_position(n, game.position(), f, &mut t);
        let mut seen = HashSet::from([game.position().hash()]);
        while game.outcome().is_none() && game.moves().len() < PLIES {
            let pos = *game.position();
            let moves = pos.legal_moves();
            if moves.is_empty() {
                // Reported by check_position (no outcome, no moves).
                break;
            }
            let mut mv = moves[rng.below(moves.len())];
            // Every fourth game seeks repetitions: three moves in four go back to a position
            // of the game when one can, so that the repetition rule ends some games.
            if n % 4 == 3 && rng.below(4) != 0 {
                let back = moves
                    .iter()
                    .copied()
                    .filter(|&m| seen.contains(&pos.after(m).hash()))
                    .collect::<Vec<_>>();
                if !back.is_empty() {
                    mv = back[rng.below(back.len())];
                }
            }
            if let Err(e) = game.play(mv) {
                f.fail(format!(
                    "{}, move `{}`: Game::play refuses a legal move: {e}",
                    at(n, &pos),
                    move_to_usi::<V>(mv)
                ));
                break;
            }
            check_position(n, game.position(), f, &mut t);
            seen.insert(game.position().hash());
        }
        if let Some(o) = game.outcome() {
            t.finished += 1;
            t.repetitions += usize::from(is_repetition(o));
        }
        check_game(n, &game, f);
    }
    t
}
