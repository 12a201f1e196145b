//! Forced wins at exact distances, in every variant, found by the search and by the df-pn
//! solver. Every position was found by scanning random games with the brute-force verifier
//! of `common` (see `examples/find_positions.rs`), and every test verifies it again with that verifier: a win
//! in exactly `n` plies exists and none shorter. The verifier is plain exhaustive minimax
//! over core's legal moves and shares no code with the engine.

mod common;

use common::{loses_within, win_distance, wins_within, wins_within_by, Moves, Rules};
use kshogi_core::{Game, Kind, Move, Position, WinReason};
use kshogi_engine::mate::{solve, MateResult};
use kshogi_engine::{Engine, EvalBreakdown, Evaluator, Limits, Score, SearchParams, SearchTuning};
use kshogi_notation::{move_to_usi, parse_sfen};
use kshogi_registry::Registered;
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;
use std::sync::atomic::AtomicBool;

/// A position with a forced win for the side to move in exactly `plies`.
struct Case {
    sfen: &'static str,
    plies: u32,
    /// Whether a win of that length exists with checks (and moves that win at once) only,
    /// so that the df-pn solver must find it.
    by_checks: bool,
    /// The win must be possible ending this way (checked by the verifier).
    reason: Option<WinReason>,
}

const fn case(sfen: &'static str, plies: u32) -> Case {
    Case {
        sfen,
        plies,
        by_checks: true,
        reason: None,
    }
}

const fn case_by(sfen: &'static str, plies: u32, by_checks: bool, reason: WinReason) -> Case {
    Case {
        sfen,
        plies,
        by_checks,
        reason: Some(reason),
    }
}

const KYOTO: &[Case] = &[
    case("2kl1/2Np1/2Kl1/4b/1S2P b G 31", 1),
    case("1L3/1b1k1/Bg1g1/3P1/2K1R w t 48", 1),
    case("pg2t/1k2b/5/1K3/TSN1P w - 6", 3),
    case("1L2k/1n3/B3t/3P1/3KR b GS 55", 3),
    case("n1k2/1b3/BL1g1/3P1/3K1 b TP 43", 5),
    case("1gks1/rL3/5/1B1p1/2KGt w - 14", 5),
];

const MICRO: &[Case] = &[
    case("2g1/pks1/3P/1B1K/SbG1 w - 12", 1),
    case("sk2/s2b/n1GP/4/1bK1 b G 31", 1),
    case("skbG/s3/n1GP/4/1bK1 b - 33", 3),
    case("N3/sskt/n2t/4/1rGK w - 48", 3),
    case("sk2/1g1b/ns1P/2R1/2K1 w B 26", 5),
    case("skbG/s2G/n2t/4/2K1 b p 35", 5),
];

const KINZOKU: &[Case] = &[
    case_by("2k/1i1/S1C/K2/3 b - 15", 1, true, WinReason::Checkmate),
    case_by("3/Ski/s1c/3/2K w - 30", 1, true, WinReason::Checkmate),
    case_by("s2/k2/c1C/1SK/3 b - 25", 3, true, WinReason::Checkmate),
    case_by("k2/1s1/1ic/S2/1K1 w - 22", 3, true, WinReason::Checkmate),
    case_by("2k/1cs/1SC/i1K/3 w - 14", 5, true, WinReason::Checkmate),
    case_by("c2/k1i/s1I/S1C/K2 b - 17", 5, true, WinReason::Checkmate),
];

/// Kinzoku wins by king entry and by the bare-king countdown.
const KINZOKU_SPECIAL: &[Case] = &[
    // White's king steps onto rank e.
    case_by("1s1/1S1/2i/K1k/3 w - 26", 1, true, WinReason::KingEntry),
    // Entry in 3 needs a quiet king move, so it is no win by checks.
    case_by("2k/1c1/K1s/3/S1C b - 13", 3, false, WinReason::KingEntry),
    case_by("2k/2i/Kc1/1I1/3 b - 23", 3, false, WinReason::KingEntry),
    // Black's lone king survives White's countdown (White must win within 1 more move).
    case_by("3/ck1/3/1K1/3 b - 35 w1", 2, true, WinReason::BareKing),
    case_by("2k/c2/3/3/K2 b - 33 w2", 4, true, WinReason::BareKing),
    case_by("3/1k1/I2/1K1/3 w - 34 b2", 4, true, WinReason::BareKing),
];

/// The brute-force verifier confirms the case: a win in exactly `plies` (by any move, and by
/// checks when the case says so, ending with the case's reason when it names one).
fn verify<V: Rules + Registered>(c: &Case) {
    let pos = parse_sfen::<V>(c.sfen).unwrap();
    assert_eq!(
        win_distance(&pos, c.plies, Moves::All),
        Some(c.plies),
        "{}: not a win in exactly {}",
        c.sfen,
        c.plies
    );
    if c.by_checks {
        assert!(
            wins_within_by(&pos, c.plies, Moves::Checks, &|_| true),
            "{}: no win in {} by checks",
            c.sfen,
            c.plies
        );
    } else {
        assert!(
            !wins_within_by(&pos, c.plies, Moves::Checks, &|_| true),
            "{}: a win in {} by checks",
            c.sfen,
            c.plies
        );
    }
    if let Some(reason) = c.reason {
        assert!(
            wins_within_by(&pos, c.plies, Moves::All, &|r| r == reason),
            "{}: no win by {reason:?} in {}",
            c.sfen,
            c.plies
        );
    }
}

/// The search reports the mate with its distance, and its first move wins (checked by the
/// verifier); after that move the defender sees the loss.
fn search_finds<V: Rules + Registered>(c: &Case) {
    search_finds_with::<V, V::Eval>(c);
}

/// [`search_finds`] with the evaluator `E`.
fn search_finds_with<V: Rules, E: Evaluator<V>>(c: &Case) {
    let pos = parse_sfen::<V>(c.sfen).unwrap();
    let game = Game::new(pos);
    let mut engine = Engine::<V, E>::new(4);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(c.plies + 2),
        ..Limits::default()
    };
    let r = engine.search(&game, &limits, 1, &stop, &mut |_| {});
    let line = &r.lines[0];
    let pv: Vec<String> = line.pv.iter().map(|&m| move_to_usi::<V>(m)).collect();
    assert_eq!(
        line.score,
        Score::Mate(c.plies as i32),
        "{}: pv {pv:?}",
        c.sfen
    );
    assert_eq!(line.pv[0], line.mv);
    let after = pos.after(line.mv);
    assert!(
        loses_within(&after, c.plies - 1, Moves::All),
        "{}: {} does not win in {}",
        c.sfen,
        pv[0],
        c.plies
    );
    if c.plies >= 2 {
        let mut g = Game::new(pos);
        g.play(line.mv).unwrap();
        let limits = Limits {
            depth: Some(c.plies + 1),
            ..Limits::default()
        };
        let r = engine.search(&g, &limits, 1, &stop, &mut |_| {});
        assert_eq!(
            r.lines[0].score,
            Score::Mate(-(c.plies as i32 - 1)),
            "{} after {}",
            c.sfen,
            pv[0]
        );
    }
}

/// Plays a line from `pos`, checking every move is legal; returns the final position.
fn play<V: Rules>(pos: &kshogi_core::Position<V>, pv: &[Move]) -> kshogi_core::Position<V> {
    let mut p = *pos;
    for &m in pv {
        assert!(p.is_legal(m), "illegal move in line");
        p.make(m);
    }
    p
}

/// The solver proves the win with its exact distance and a line that ends in it.
fn solver_finds<V: Rules + Registered>(c: &Case) {
    let pos = parse_sfen::<V>(c.sfen).unwrap();
    let stop = AtomicBool::new(false);
    let r = solve::<V, V::Eval>(&pos, 1_000_000, &stop);
    if !c.by_checks {
        // There is no win by checks this short; whatever the solver finds is longer.
        if let MateResult::Mate { plies, .. } = r {
            assert!(plies > c.plies, "{}: {r:?}", c.sfen);
        }
        return;
    }
    let MateResult::Mate { plies, pv } = r else {
        panic!("{}: {r:?}", c.sfen)
    };
    assert_eq!(plies, c.plies, "{}", c.sfen);
    assert_eq!(pv.len() as u32, plies, "{}", c.sfen);
    let end = play(&pos, &pv);
    let winner = end.outcome().and_then(|o| o.winner());
    assert_eq!(
        winner,
        Some(pos.side_to_move()),
        "{}: line does not end in a win",
        c.sfen
    );
    assert!(loses_within(&pos.after(pv[0]), c.plies - 1, Moves::All));
}

fn all<V: Rules + Registered>(cases: &[Case]) {
    for c in cases {
        verify::<V>(c);
        search_finds::<V>(c);
        solver_finds::<V>(c);
    }
}

/// A set of search switches, for [`With`].
trait Switches: Copy + Default + Send + Sync + 'static {
    const SEARCH: SearchParams;
}

/// The evaluator `E` searched with the switches `S` instead of its own.
#[derive(Copy, Clone, Debug, Default)]
struct With<E, S>(core::marker::PhantomData<(E, S)>);

impl<V: Rules, E: Evaluator<V>, S: Switches> Evaluator<V> for With<E, S> {
    const SEARCH: SearchParams = S::SEARCH;

    fn evaluate(pos: &Position<V>) -> i32 {
        E::evaluate(pos)
    }

    fn piece_value(kind: Kind) -> i32 {
        E::piece_value(kind)
    }

    fn is_tactical(pos: &Position<V>, mv: Move) -> bool {
        E::is_tactical(pos, mv)
    }

    fn attacker_unrestricted(pos: &Position<V>) -> bool {
        E::attacker_unrestricted(pos)
    }

    fn breakdown(pos: &Position<V>) -> EvalBreakdown {
        E::breakdown(pos)
    }
}

/// Every selective technique on (`ON`) or off.
#[derive(Copy, Clone, Debug, Default)]
struct Every<const ON: bool>;

impl<const ON: bool> Switches for Every<ON> {
    const SEARCH: SearchParams = SearchParams {
        null_move: ON,
        reverse_futility: ON,
        futility: ON,
        late_move_pruning: ON,
        log_reductions: ON,
        check_extension: ON,
        see_qsearch: ON,
        see_ordering: ON,
        see_pruning: ON,
        qsearch_tt: ON,
        iir: ON,
        continuation_history: ON,
        lmr_extras: ON,
        improving: ON,
        history_pruning: ON,
        reduce_checks: ON,
        safe_check_extension: ON,
        prune_unsafe_checks: ON,
        early_reductions: ON,
        singular_extension: ON,
        tt_eval: ON,
        reduce_bad_captures: ON,
        qsearch_checks: ON,
        root_reductions: ON,
        correction_history: ON,
        tuning: SearchTuning::DEFAULT,
    };
}

/// The evaluator `E` with every selective technique on (`ON`) or off.
type Techniques<E, const ON: bool> = With<E, Every<ON>>;

/// Pruning never hides a forced win nor changes its distance: with every technique on, and
/// with every one off, the search finds each mate at its exact distance.
#[test]
fn mates_keep_their_distances_whatever_techniques_are_on() {
    fn each<V: Rules + Registered>(cases: &[Case]) {
        for c in cases {
            search_finds_with::<V, Techniques<V::Eval, true>>(c);
            search_finds_with::<V, Techniques<V::Eval, false>>(c);
        }
    }
    assert_ne!(
        <Techniques<<Kyoto as Registered>::Eval, true> as Evaluator<Kyoto>>::SEARCH,
        SearchParams::DEFAULT
    );
    each::<Kyoto>(KYOTO);
    each::<Micro>(MICRO);
    each::<Kinzoku>(KINZOKU);
    each::<Kinzoku>(KINZOKU_SPECIAL);
}

#[test]
fn kyoto_mates_in_1_3_5() {
    all::<Kyoto>(KYOTO);
}

#[test]
fn micro_mates_in_1_3_5() {
    all::<Micro>(MICRO);
}

#[test]
fn kinzoku_mates_in_1_3_5() {
    all::<Kinzoku>(KINZOKU);
}

#[test]
fn kinzoku_entry_and_countdown_wins() {
    all::<Kinzoku>(KINZOKU_SPECIAL);
}

/// Longer wins by checks for the solver: the brute-force verifier, restricted to checks (and
/// moves that win at once), confirms the shortest such win; the solver must report exactly
/// that distance with a line that ends in the win.
#[test]
fn solver_finds_longer_mates_by_checks_with_their_exact_length() {
    fn check<V: Rules + Registered>(sfen: &str, plies: u32) {
        let pos = parse_sfen::<V>(sfen).unwrap();
        assert_eq!(
            common::win_distance(&pos, plies, Moves::Checks),
            Some(plies),
            "{sfen}"
        );
        let stop = AtomicBool::new(false);
        let MateResult::Mate { plies: got, pv } = solve::<V, V::Eval>(&pos, 2_000_000, &stop)
        else {
            panic!("{sfen}: no mate found")
        };
        assert_eq!(got, plies, "{sfen}");
        assert_eq!(pv.len() as u32, plies);
        let end = play(&pos, &pv);
        assert_eq!(
            end.outcome().and_then(|o| o.winner()),
            Some(pos.side_to_move())
        );
    }
    check::<Kyoto>("pgk2/3lb/5/3N1/TSK1P w - 6", 9);
    check::<Micro>("P1R1/3k/4/b2K/l1T1 b GSp 37", 9);
    // The lone White king (Black counts down from 4) outlasts the countdown.
    check::<Kinzoku>("3/1k1/S2/K2/3 w - 26 b4", 8);
}

#[test]
fn cases_have_the_documented_distances() {
    for (cases, want) in [(KYOTO, [1, 1, 3, 3, 5, 5]), (MICRO, [1, 1, 3, 3, 5, 5])] {
        let got: Vec<u32> = cases.iter().map(|c| c.plies).collect();
        assert_eq!(got, want);
    }
}

type MicroEval = <Micro as Registered>::Eval;

/// Micro's own switches with the quiescence search's safe checks on or off.
#[derive(Copy, Clone, Debug, Default)]
struct MicroQsChecks<const ON: bool>;

impl<const ON: bool> Switches for MicroQsChecks<ON> {
    const SEARCH: SearchParams = SearchParams {
        qsearch_checks: ON,
        ..<MicroEval as Evaluator<Micro>>::SEARCH
    };
}

/// Micro's evaluator with the quiescence search's safe checks on or off.
type QsChecks<const ON: bool> = With<MicroEval, MicroQsChecks<ON>>;

/// The move of a one-ply search with evaluator `E`.
fn one_ply<E: Evaluator<Micro>>(pos: &Position<Micro>) -> Move {
    let mut engine = Engine::<Micro, E>::new(4);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    engine
        .search(&Game::new(*pos), &limits, 1, &stop, &mut |_| {})
        .lines[0]
        .mv
}

/// With the safe checks at the first ply of the quiescence search (`qsearch_checks`), a
/// one-ply search sees the opponent's mate in one beyond its horizon, and plays a move
/// that does not allow it; without them it allows the mate in some of these positions
/// (found in random games; the verifier of `common` checks every claim).
#[test]
fn safe_checks_in_the_quiescence_search_see_a_mate_beyond_the_horizon() {
    const POSITIONS: &[&str] = &[
        "kb1s/p3/1L2/2KP/1GB1 w G 6",
        "k2s/p3/1L2/3P/1KB1 w BGg 10",
        "k1Gs/2b1/n1lP/4/1K2 b Gb 23",
        "4/k2G/p1B1/l1RP/2K1 w Bs 26",
        "k2s/p1b1/2K1/G2P/S1B1 w G 14",
    ];
    let mut blunders = 0;
    for sfen in POSITIONS {
        let pos = parse_sfen::<Micro>(sfen).unwrap();
        // A move that does not allow a mate in one exists.
        assert!(
            pos.legal_moves()
                .iter()
                .any(|&m| !wins_within(&pos.after(m), 1, Moves::All)),
            "{sfen}: every move allows a mate in one"
        );
        let on = one_ply::<QsChecks<true>>(&pos);
        assert!(
            !wins_within(&pos.after(on), 1, Moves::All),
            "{sfen}: {} allows a mate in one",
            move_to_usi::<Micro>(on)
        );
        let off = one_ply::<QsChecks<false>>(&pos);
        if wins_within(&pos.after(off), 1, Moves::All) {
            blunders += 1;
        }
    }
    // The positions tell the switch apart.
    assert!(
        blunders > 0,
        "no position where the captures-only search blunders"
    );
}
