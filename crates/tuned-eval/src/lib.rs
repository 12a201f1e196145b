//! # kshogi-tuned-eval
//!
//! The evaluations of the built-in variants whose weights are files written by the
//! evaluation tuner (`cargo xtask tune`, crate `kshogi-tune`): [`KyotoEval`], [`MicroEval`],
//! [`KinzokuEval`], [`MinishogiEval`] and [`DobutsuEval`], each an [`Evaluator`] for one
//! variant. They are one generic evaluation (the engine's shared terms, [`common`], with the
//! weights of a file `src/weights/<variant>.rs`, `include!`d), declared by one line each in
//! [`fitted!`](crate#the-list) below; no weight is set by hand here. A variant without a
//! file (Tori, or a new one) is searched with the engine's
//! [`PieceTableEval`](kshogi_engine::PieceTableEval), derived from its piece table, which is
//! also what a first file of a variant holds (`kshogi-tune --variant V --init`); the
//! registry of variants pairs each variant with its evaluator.
//!
//! The weights name the rules crates' kinds (`kshogi_rules_kyoto::PAWN`, or a piece's name
//! through [`named`]), never positions in a piece table, so that reordering a table cannot
//! silently change an evaluation.
//!
//! The search switches (`SEARCH`, with the search's numeric parameters in its `tuning`,
//! which `kshogi-tune spsa` tunes) are files too, `src/search/<variant>.rs`, written by
//! `kshogi-tune switches` from its SPRTs ([`KYOTO_SEARCH`] and the others). What is neither
//! stays a choice of each line: how captures are ordered and which quiet moves the
//! quiescence search tries. Kinzoku's terms for its king-entry and countdown rules
//! ([`kinzoku`]) are the one variant's code left: which terms its rules call for (the
//! entry rank, the countdown's moves left); their weights are fitted with the others.
//!
//! [`nnue::NnueEval`] is the evaluator over an NNUE net ([`kshogi_nnue`]) with an accumulator
//! stack driven by the search; a variant's registered evaluation can be a net embedded from
//! `weights/<variant>.nnue` ([`embedded_net!`]), with the search switches, piece values and
//! tactical moves of its fitted evaluator.
//!
//! This crate depends on core, the engine, the NNUE net and the rules crates of the
//! variants it evaluates; it must not depend on notation, the registry or the command line.
//!
//! ## The list
//!
//! `Name for Variant in rules_crate = "weights/file.rs" { options };`, options being
//! `search: SEARCH_PARAMS` (a variant's `search/<variant>.rs`, or
//! `SearchParams::for_variant::<Variant>()` for the switches of the derived evaluation; the
//! rules crate's names are in scope there), `ordering: fitted | royal_first` (a capture's victim valued by
//! its fitted board value, the king 0; or the king first, as the derived evaluation does)
//! and `tactical: none | flips` (the quiet moves the quiescence search
//! tries), and optionally `terms: module` (a module with `untuned`, `is_tactical` and
//! `attacker_unrestricted`, the variant's own rules terms).

pub mod nnue;

use kshogi_core::{Kind, Move, PieceDef, Position, Variant};
use kshogi_engine::eval::{
    common, extra_terms, finish, EvalBreakdown, EvalParams, Linear, Tunable, N_EXTRA,
};
use kshogi_engine::{Evaluator, SearchParams, SearchTuning};

/// The kind of the piece called `name` in `pieces`, found at compile time (a weights file
/// names a piece whose rules crate calls its constant otherwise, `named(PIECES,
/// "promoted silver")`). A name that no piece has stops the build.
pub const fn named(pieces: &[PieceDef], name: &str) -> Kind {
    let mut k = 0;
    while k < pieces.len() {
        let a = pieces[k].name.as_bytes();
        let b = name.as_bytes();
        if a.len() == b.len() {
            let mut i = 0;
            while i < a.len() && a[i] == b[i] {
                i += 1;
            }
            if i == a.len() {
                return Kind(k as u8);
            }
        }
        k += 1;
    }
    panic!("a weights file names a piece the variant does not have")
}

/// The search of the drop games ([`SearchParams::DROP_GAME`], what the engine gives every
/// variant with drops whose evaluator does not choose): Kyoto's, Micro's and, with more,
/// Minishogi's switches.
pub const DROP_GAME_SEARCH: SearchParams = SearchParams::DROP_GAME;

// Each variant's search switches, with the search's numeric parameters, are a file
// `search/<variant>.rs` written by `kshogi-tune switches` (its `--init` wrote the first ones
// from the constants the SPRTs of docs/strength.md had chosen; a run of its SPRTs with
// `--out` replaces them).

/// Micro's search: the drop games' ([`DROP_GAME_SEARCH`]), found in Micro step by step
/// (docs/strength.md has the SPRTs).
pub const MICRO_SEARCH: SearchParams = include!("search/micro.rs");

/// Kinzoku's search: the default ([`SearchParams::DEFAULT`]; Kinzoku has no drops).
pub const KINZOKU_SEARCH: SearchParams = include!("search/kinzoku.rs");

/// Dobutsu's search: the default ([`SearchParams::DEFAULT`]) with the five switches
/// `kshogi-tune switches --variant dobutsu` kept (logarithmic late move reductions with
/// their node-type and history terms, static-exchange pruning in the search and the
/// quiescence search, losing checks pruned), +39 Elo at 10,000 nodes a move and +12 at
/// 100,000 in self-play against the default (SPRTs H1; docs/tuning.md).
pub const DOBUTSU_SEARCH: SearchParams = include!("search/dobutsu.rs");

/// Kyoto's search: the drop games' ([`DROP_GAME_SEARCH`]; Kyoto had the default until its
/// self-play SPRT of the whole set, +47 Elo at 100,000 nodes a move) with null-move and
/// reverse futility pruning (+61 Elo with its net at 40,000 nodes a move, SPRT H1 after 486
/// games), both only where beta is within [`DECISIVE`] of a draw: pruned on the static
/// evaluation, a lost position's node hides the mate behind it (a depth-7 search reported
/// `1L3/n3b/p2k1/3P1/2lK1 w gs 40`, a mate in 5 plies, as +38 pawns). docs/strength.md has
/// the SPRTs.
pub const KYOTO_SEARCH: SearchParams = include!("search/kyoto.rs");

/// The bound (centipawns) beyond which Kyoto's and Minishogi's searches take a position
/// for decided and stop pruning on the static evaluation
/// ([`SearchTuning::prune_beta_limit`]): twenty pawns, where their evaluations have left
/// every balanced game far behind. With it, depth-7 searches of 900 Kyoto and 600
/// Minishogi positions from random games (163 and 107 of them wins within 5 plies by plain
/// minimax) miss no mate that the search without the two prunings finds; without it they
/// missed 10 and 2. Futility pruning stops there too: with Kyoto's second net it skipped
/// the quiet third ply of a mate in 5 (`1L3/1kbP1/p4/1gsK1/n1l2 w - 58`), which a depth-7
/// search then reported as a mate in 7.
pub const DECISIVE: i32 = 2000;

/// Minishogi's search: the drop games' ([`DROP_GAME_SEARCH`]; +55 Elo over the default
/// with its net at 40,000 nodes a move) with null-move and reverse futility pruning (+75
/// Elo, SPRT H1 after 482 games), internal iterative reduction and the quiescence search's
/// table (+91 Elo on top, H1 after 266 games); the pruning only where beta is within
/// [`DECISIVE`] of a draw, as in Kyoto's; and static-exchange pruning of shallow losing
/// moves (+41 Elo over 1,118 games at 40,000 nodes, SPRT H1), level in Micro. Minishogi, a
/// 5x5 board of standard shogi pieces, gains from what Micro lost by. docs/strength.md has
/// the SPRTs.
pub const MINISHOGI_SEARCH: SearchParams = include!("search/minishogi.rs");

/// The terms of a line without `terms`: none (no own term, the line's `tactical`, the
/// solver's usual attacker).
mod no_terms {
    use kshogi_core::{Move, Position, Variant};
    use kshogi_engine::eval::{EvalParams, N_EXTRA};

    pub const EXTRA_NAMES: &[&str] = &[];

    #[inline(always)]
    pub fn extra_features<V: Variant>(_pos: &Position<V>) -> [i32; N_EXTRA] {
        [0; N_EXTRA]
    }

    #[inline(always)]
    pub fn untuned<V: Variant>(_pos: &Position<V>, _p: &EvalParams) -> i32 {
        0
    }

    #[inline(always)]
    pub fn is_tactical<V: Variant>(_pos: &Position<V>, _mv: Move) -> Option<bool> {
        None
    }

    #[inline(always)]
    pub fn attacker_unrestricted<V: Variant>(_pos: &Position<V>) -> bool {
        false
    }
}

/// The ordering value of a piece by a line's `ordering`.
macro_rules! __ordering {
    (fitted, $v:ty, $p:expr, $kind:expr) => {
        $p.board[$kind.index()]
    };
    (royal_first, $v:ty, $p:expr, $kind:expr) => {
        match <$v as Variant>::PIECES.get($kind.index()) {
            Some(def) if def.royal => kshogi_engine::eval::ROYAL_VALUE,
            Some(_) => $p.board[$kind.index()],
            None => 0,
        }
    };
}

/// Whether a quiet move is tactical by a line's `tactical`.
macro_rules! __tactical {
    (none, $v:ty, $e:ty, $pos:expr, $mv:expr) => {{
        let _ = ($pos, $mv);
        false
    }};
    (flips, $v:ty, $e:ty, $pos:expr, $mv:expr) => {
        kshogi_engine::eval::derived_is_tactical::<$v, $e>($pos, $mv)
    };
}

/// A call of a line's `terms` module, or of [`no_terms`] for a line without one.
macro_rules! __terms {
    ([] $f:ident ( $($arg:expr),* )) => {
        crate::no_terms::$f($($arg),*)
    };
    ([$t:ident] $f:ident ( $($arg:expr),* )) => {
        crate::$t::$f($($arg),*)
    };
    ([] $c:ident) => {
        crate::no_terms::$c
    };
    ([$t:ident] $c:ident) => {
        crate::$t::$c
    };
}

/// Declares the fitted evaluators, one line each (see [the list](crate#the-list)).
macro_rules! fitted {
    ($( $(#[doc = $doc:literal])* $name:ident for $v:ident in $rules:ident = $file:literal {
        search: $search:expr, ordering: $ord:ident, tactical: $tac:ident $(, terms: $terms:ident)? $(,)?
    } ;)*) => { $(
        $(#[doc = $doc])*
        #[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl $name {
            /// The weights, from the variant's generated file.
            pub const PARAMS: EvalParams = {
                #[allow(unused_imports)]
                use kshogi_engine::eval::{face_values, slot_values, N_EXTRA};
                #[allow(unused_imports)]
                use $rules::*;
                include!($file)
            };
        }

        impl Evaluator<$rules::$v> for $name {
            // The rules crate's names are in scope, as in the weights file, so that
            // `SearchParams::for_variant::<Type>()` reads as in the guide.
            const SEARCH: SearchParams = {
                #[allow(unused_imports)]
                use $rules::*;
                $search
            };

            #[inline(always)]
            fn piece_value(kind: Kind) -> i32 {
                __ordering!($ord, $rules::$v, Self::PARAMS, kind)
            }

            #[inline(always)]
            fn is_tactical(pos: &Position<$rules::$v>, mv: Move) -> bool {
                match __terms!([$($terms)?] is_tactical(pos, mv)) {
                    Some(t) => t,
                    None => __tactical!($tac, $rules::$v, Self, pos, mv),
                }
            }

            #[inline(always)]
            fn attacker_unrestricted(pos: &Position<$rules::$v>) -> bool {
                __terms!([$($terms)?] attacker_unrestricted(pos))
            }

            #[inline(always)]
            fn breakdown(pos: &Position<$rules::$v>) -> EvalBreakdown {
                let (m, mo, ks) = common(pos, &Self::PARAMS);
                let own = extra_terms(
                    &Self::PARAMS,
                    &<Self as Linear<$rules::$v>>::extra_features(pos),
                );
                finish(pos, m, mo, ks, own + <Self as Linear<$rules::$v>>::untuned(pos))
            }
        }

        impl Tunable<$rules::$v> for $name {
            type Linear = Self;
        }

        impl Linear<$rules::$v> for $name {
            fn params() -> EvalParams {
                Self::PARAMS
            }

            const EXTRA_NAMES: &'static [&'static str] = __terms!([$($terms)?] EXTRA_NAMES);

            #[inline(always)]
            fn extra_features(pos: &Position<$rules::$v>) -> [i32; N_EXTRA] {
                __terms!([$($terms)?] extra_features(pos))
            }

            #[inline(always)]
            fn untuned(pos: &Position<$rules::$v>) -> i32 {
                __terms!([$($terms)?] untuned(pos, &Self::PARAMS))
            }
        }
    )* };
}
fitted! {
    /// The evaluation of Kyoto Shogi: material (both faces mixed), mobility, king safety;
    /// Kyoto's search ([`KYOTO_SEARCH`]).
    KyotoEval for Kyoto in kshogi_rules_kyoto = "weights/kyoto.rs" {
        search: KYOTO_SEARCH, ordering: fitted, tactical: none,
    };
    /// The evaluation of Micro Shogi: material (face plus upside), mobility, king safety,
    /// safe drop checks and hanging pieces; the drop games' search ([`MICRO_SEARCH`]),
    /// found in Micro step by step.
    MicroEval for Micro in kshogi_rules_micro = "weights/micro.rs" {
        search: MICRO_SEARCH, ordering: fitted, tactical: none,
    };
    /// The evaluation of Kinzoku Shogi: material, mobility, king safety, and the terms of
    /// its rules ([`kinzoku`]): the kings' advance toward their entry ranks and the
    /// bare-king countdown.
    KinzokuEval for Kinzoku in kshogi_rules_kinzoku = "weights/kinzoku.rs" {
        search: KINZOKU_SEARCH, ordering: fitted, tactical: none, terms: kinzoku,
    };
    /// The evaluation of Minishogi: material, mobility, king safety; weights fitted by the
    /// pipeline (its first file held those derived from the piece table); Minishogi's
    /// search ([`MINISHOGI_SEARCH`]).
    MinishogiEval for Minishogi in kshogi_rules_minishogi = "weights/minishogi.rs" {
        search: MINISHOGI_SEARCH, ordering: royal_first, tactical: flips,
    };
    /// The evaluation of Dobutsu Shogi: material, mobility, king safety; weights fitted by
    /// the pipeline (its first file held those derived from the piece table).
    DobutsuEval for Dobutsu in kshogi_rules_dobutsu = "weights/dobutsu.rs" {
        search: DOBUTSU_SEARCH, ordering: royal_first, tactical: flips,
    };
}

/// Kinzoku's own terms, which follow its rules: king entry (a king that reaches the far
/// rank wins) and the bare-king countdown (the lone king's side must win within its moves
/// left). Which terms there are is the variant's code; their weights are the file's
/// (`extra`), fitted by the tuner like the shared ones ([`Linear::extra_features`]).
pub mod kinzoku {
    use kshogi_core::{Color, Move, Position, Variant};
    use kshogi_engine::eval::{EvalParams, N_EXTRA};
    use kshogi_rules_kinzoku::{Kinzoku, COUNTDOWN_MOVES};

    /// The terms, each a weight of the file (`extra`), fitted like the shared ones:
    ///
    /// - `advance 1` to `advance 3`: a king one, two or three ranks from its entry rank
    ///   (Black's king minus White's);
    /// - `countdown lost`, `countdown behind`, `countdown used`: while the bare-king
    ///   countdown runs, whether the counting side's king is farther from the entry rank
    ///   than it has moves left (then its chances vanish), by how many ranks, and otherwise
    ///   the moves it has used (its chances fade with them); signed for the counting side;
    /// - `countdown silver` and the others: the counting side's pieces of each kind while
    ///   the countdown runs, on top of their board values (it must win within its moves
    ///   or lose, so its material is worth little: the search finds mates by itself).
    pub const EXTRA_NAMES: &[&str] = &[
        "advance 1",
        "advance 2",
        "advance 3",
        "countdown lost",
        "countdown behind",
        "countdown used",
        "countdown silver",
        "countdown copper",
        "countdown soldier",
        "countdown promoted soldier",
    ];

    /// The first of the countdown's piece terms; the piece of kind `k` (not the king) is
    /// term `PIECES_AT + k - 1`.
    const PIECES_AT: usize = 6;

    /// The terms of [`EXTRA_NAMES`] from Black's view.
    #[inline(always)]
    pub fn extra_features(pos: &Position<Kinzoku>) -> [i32; N_EXTRA] {
        let g = Kinzoku::GEOMETRY;
        let mut f = [0; N_EXTRA];
        let distance = |c: Color| {
            let rank = g.rank(pos.king(c)) as i32;
            if c == Color::Black {
                rank
            } else {
                g.height as i32 - 1 - rank
            }
        };
        for c in Color::ALL {
            let sign = if c == Color::Black { 1 } else { -1 };
            let d = distance(c);
            if (1..=3).contains(&d) {
                f[d as usize - 1] += sign;
            }
        }
        if let Some(cd) = pos.extra() {
            let sign = if cd.side == Color::Black { 1 } else { -1 };
            let m = cd.moves_left as i32;
            let d = distance(cd.side);
            if d > m {
                f[3] += sign;
                f[4] += sign * (d - m);
            } else {
                f[5] += sign * (COUNTDOWN_MOVES as i32 - m);
            }
            for k in 1..Kinzoku::PIECES.len() {
                let kind = kshogi_core::Kind(k as u8);
                f[PIECES_AT + k - 1] += sign * pos.pieces(cd.side, kind).count() as i32;
            }
        }
        f
    }

    /// Nothing outside the fitted terms.
    #[inline(always)]
    pub fn untuned(_pos: &Position<Kinzoku>, _p: &EvalParams) -> i32 {
        0
    }

    /// A flip, or the king's step onto its entry rank (which may win at once).
    #[inline(always)]
    pub fn is_tactical(pos: &Position<Kinzoku>, mv: Move) -> Option<bool> {
        let us = pos.side_to_move();
        Some(
            mv.is_flip()
                || (mv.from() == Some(pos.king(us))
                    && Kinzoku::tables().farthest_rank[us.index()].has(mv.to())),
        )
    }

    /// The lone king while the countdown runs: its survival wins, so the mate solver's
    /// attacker may play every move.
    #[inline(always)]
    pub fn attacker_unrestricted(pos: &Position<Kinzoku>) -> bool {
        matches!(pos.extra(), Some(cd) if cd.side != pos.side_to_move() && cd.moves_left > 0)
    }
}

embedded_net!(
    /// Minishogi's net (`src/weights/minishogi.nnue`, 64 hidden units), with
    /// [`MinishogiEval`]'s search switches, piece values and tactical moves: the evaluator
    /// [`MinishogiNnueEval`]. The eleventh generation: made by `kshogi-nnue train --variant
    /// minishogi --teacher <tenth net> --label search --lambda 0.8 --openings
    /// docs/openings/minishogi-positions-fsf-2.txt --opening 2 --games 60000 --nodes 6000
    /// --seed 57 --threads 2 --epochs 16 --rate 0.002`: games played by the tenth net from
    /// positions of the engine's games against the reference engine, each quiet position
    /// labelled by the score of the tenth net's search of it, with a fifth of each target the
    /// game's result (the tenth was made the same way from the ninth's games and searches,
    /// without the results; every generation before learnt its teacher's static evaluations
    /// and the games' results: the ninth was taught by the eighth at 15,000 nodes, the eighth
    /// by the sixth, the sixth by the third, the third by the second, the second by the
    /// first, itself trained on the fitted evaluation's games); docs/nnue.md has the
    /// commands, the SPRTs and the matches.
    /// Minishogi's registered evaluation.
    MinishogiNet for kshogi_rules_minishogi::Minishogi = "weights/minishogi.nnue",
    fallback MinishogiEval;
);

/// Minishogi evaluated by its net ([`MinishogiNet`]) through the search's accumulator
/// stack.
pub type MinishogiNnueEval = nnue::NnueEval<MinishogiNet>;

embedded_net!(
    /// Kyoto's net (`src/weights/kyoto.nnue`, 64 hidden units), with [`KyotoEval`]'s search
    /// switches, piece values and tactical moves: the evaluator [`KyotoNnueEval`]. The
    /// second generation: made by `kshogi-nnue train --variant kyoto --teacher <first net>
    /// --games 12000 --nodes 4000 --seed 41 --threads 2 --epochs 16 --rate 0.002` (games
    /// played and labelled by the first net, itself trained on the fitted evaluation's
    /// games); docs/nnue.md has the commands, the SPRTs and the matches. The registered
    /// evaluation.
    KyotoNet for kshogi_rules_kyoto::Kyoto = "weights/kyoto.nnue",
    fallback KyotoEval;
);

/// Kyoto evaluated by its net ([`KyotoNet`]) through the search's accumulator stack.
pub type KyotoNnueEval = nnue::NnueEval<KyotoNet>;

embedded_net!(
    /// Micro's net (`src/weights/micro.nnue`, 64 hidden units), with [`MicroEval`]'s search
    /// switches, piece values and tactical moves: the evaluator [`MicroNnueEval`]. The
    /// third generation: made by `kshogi-nnue pipeline --variant micro --teacher <second
    /// net> --games 40000 --nodes 5000 --seed 45 --threads 2 --epochs 16 --rate 0.002`
    /// (games played and labelled by the second net, taught by the first, itself trained
    /// on the fitted evaluation's games); docs/nnue.md has the commands, the SPRTs and the
    /// matches. The registered evaluation.
    MicroNet for kshogi_rules_micro::Micro = "weights/micro.nnue",
    fallback MicroEval;
);

/// Micro evaluated by its net ([`MicroNet`]) through the search's accumulator stack.
pub type MicroNnueEval = nnue::NnueEval<MicroNet>;

/// The line of docs/adding-a-variant.md for a new variant's fitted evaluation, written as
/// the guide writes it: the variant's type is not imported here, and the line must still
/// compile and search as the derived evaluation does.
#[cfg(test)]
mod guide_line {
    use super::*;

    fitted! {
        /// A fitted Minishogi evaluation declared as a new variant's.
        GuideEval for Minishogi in kshogi_rules_minishogi = "weights/minishogi.rs" {
            search: SearchParams::for_variant::<Minishogi>(), ordering: royal_first,
            tactical: flips,
        };
    }

    #[test]
    fn a_new_variants_line_searches_as_the_derived_evaluation() {
        use kshogi_rules_minishogi::Minishogi;
        assert_eq!(
            <GuideEval as Evaluator<Minishogi>>::SEARCH,
            SearchParams::for_variant::<Minishogi>()
        );
        assert_eq!(
            <GuideEval as Evaluator<Minishogi>>::SEARCH,
            <kshogi_engine::PieceTableEval as Evaluator<Minishogi>>::SEARCH
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_core::rng::SplitMix64;
    use kshogi_core::Setup;
    use kshogi_engine::eval::TEMPO;
    use kshogi_notation::parse_sfen;
    use kshogi_rules_dobutsu::Dobutsu;
    use kshogi_rules_kinzoku::Kinzoku;
    use kshogi_rules_kyoto::Kyoto;
    use kshogi_rules_micro::Micro;
    use kshogi_rules_minishogi::Minishogi;

    /// The switch files hold the switches docs/strength.md records the SPRTs choosing (the
    /// constants they replaced): a run of `kshogi-tune switches --out` that changes a file
    /// changes this test and those docs with it.
    #[test]
    fn the_switch_files_hold_the_switches_the_sprts_chose() {
        let decisive = SearchTuning {
            prune_beta_limit: DECISIVE,
            ..SearchTuning::DEFAULT
        };
        let kyoto = SearchParams {
            null_move: true,
            reverse_futility: true,
            tuning: decisive,
            ..SearchParams::DROP_GAME
        };
        assert_eq!(KYOTO_SEARCH, kyoto);
        assert_eq!(
            MINISHOGI_SEARCH,
            SearchParams {
                iir: true,
                qsearch_tt: true,
                see_pruning: true,
                ..kyoto
            }
        );
        assert_eq!(MICRO_SEARCH, SearchParams::DROP_GAME);
        assert_eq!(KINZOKU_SEARCH, SearchParams::DEFAULT);
        assert_eq!(
            DOBUTSU_SEARCH,
            SearchParams {
                log_reductions: true,
                lmr_extras: true,
                see_qsearch: true,
                see_pruning: true,
                prune_unsafe_checks: true,
                ..SearchParams::DEFAULT
            }
        );
        // And the lines use them.
        assert_eq!(<KyotoEval as Evaluator<Kyoto>>::SEARCH, KYOTO_SEARCH);
        assert_eq!(<MicroEval as Evaluator<Micro>>::SEARCH, MICRO_SEARCH);
        assert_eq!(<KinzokuEval as Evaluator<Kinzoku>>::SEARCH, KINZOKU_SEARCH);
        assert_eq!(
            <MinishogiEval as Evaluator<Minishogi>>::SEARCH,
            MINISHOGI_SEARCH
        );
        assert_eq!(<DobutsuEval as Evaluator<Dobutsu>>::SEARCH, DOBUTSU_SEARCH);
    }

    /// The position turned 180 degrees with colors (and hands, side, countdown) swapped.
    fn mirrored<V: Variant>(pos: &Position<V>, extra: V::Extra) -> Position<V> {
        let s = pos.to_setup();
        let mut m = Setup::<V>::empty();
        let g = V::GEOMETRY;
        for sq in g.all_squares() {
            if let Some(p) = s.board[sq.index()] {
                m.board[g.rotate(sq).index()] = Some(kshogi_core::Piece::new(!p.color, p.kind));
            }
        }
        m.hands = [s.hands[1], s.hands[0]];
        m.side = !s.side;
        m.extra = extra;
        Position::from_setup(&m).expect("mirror is valid")
    }

    #[test]
    fn start_positions_are_balanced_up_to_tempo() {
        assert_eq!(KyotoEval::evaluate(&Position::<Kyoto>::start()), TEMPO);
        assert_eq!(MicroEval::evaluate(&Position::<Micro>::start()), TEMPO);
        assert_eq!(KinzokuEval::evaluate(&Position::<Kinzoku>::start()), TEMPO);
    }

    #[test]
    fn evaluation_is_color_symmetric() {
        for sfen in ["p1k1t/2g2/2S2/5/T1KG1 b Ps 1", "pgk2/5/1s1t1/5/TSKGP w - 1"] {
            let pos = parse_sfen::<Kyoto>(sfen).unwrap();
            assert_eq!(
                KyotoEval::evaluate(&pos),
                KyotoEval::evaluate(&mirrored(&pos, ()))
            );
        }
        let pos = parse_sfen::<Micro>("kb1s/p3/2G1/3P/S1BK b g 1").unwrap();
        assert_eq!(
            MicroEval::evaluate(&pos),
            MicroEval::evaluate(&mirrored(&pos, ()))
        );
        let pos = parse_sfen::<Kinzoku>("1ks/3/1K1/1I1/S1C b - 1").unwrap();
        assert_eq!(
            KinzokuEval::evaluate(&pos),
            KinzokuEval::evaluate(&mirrored(&pos, None))
        );
    }

    #[test]
    fn material_counts_for_the_side_to_move() {
        // Black has an extra silver/bishop pair in hand.
        let pos = parse_sfen::<Kyoto>("pgk1t/5/5/5/TSKGP b S 1").unwrap();
        let b = KyotoEval::breakdown(&pos);
        assert!(b.material > 500, "{b:?}");
        let pos = parse_sfen::<Kyoto>("pgk1t/5/5/5/TSKGP w S 1").unwrap();
        assert!(KyotoEval::breakdown(&pos).material < -500);
    }

    /// Positions of random games, each checked against the feature form of the evaluation
    /// (`linear_evaluate`), which the tuner fits.
    fn feature_form_matches<V: Variant, E: Linear<V>>(seed: u64) -> usize {
        use kshogi_engine::eval::linear_evaluate;
        let mut rng = SplitMix64::new(seed);
        let mut checked = 0;
        for _ in 0..15 {
            let mut game = kshogi_core::Game::new(Position::<V>::start());
            while game.outcome().is_none() && game.moves().len() < 150 {
                let pos = game.position();
                let w = E::params().to_weights();
                assert_eq!(E::evaluate(pos), linear_evaluate::<V, E>(pos, &w));
                checked += 1;
                let moves = pos.legal_moves();
                let mv = moves[rng.below(moves.len())];
                game.play(mv).unwrap();
            }
        }
        checked
    }

    #[test]
    fn evaluate_equals_the_feature_form() {
        assert!(feature_form_matches::<Kyoto, KyotoEval>(1) > 300);
        assert!(feature_form_matches::<Micro, MicroEval>(2) > 300);
        assert!(feature_form_matches::<Kinzoku, KinzokuEval>(3) > 300);
        assert!(feature_form_matches::<Minishogi, MinishogiEval>(4) > 300);
        assert!(feature_form_matches::<Dobutsu, DobutsuEval>(5) > 100);
    }

    #[test]
    fn named_finds_a_piece_by_its_name() {
        use kshogi_rules_minishogi as ms;
        assert_eq!(named(ms::PIECES, "promoted silver"), ms::PRO_SILVER);
        assert_eq!(named(ms::PIECES, "pawn"), ms::PAWN);
    }

    /// Checks a variant's embedded net: it reads with 64 hidden units and the variant's
    /// features, it scores a position as its mirror image (colours, hands and side to move
    /// swapped: both sides share the net's weights), and a position where the side to move
    /// has an extra piece in hand (`ahead`, with its mirror `behind` where the other side
    /// to move lacks it) by more than a pawn's worth either way; a search with it plays a
    /// legal move.
    fn embedded_net_works<V: Variant, S: nnue::NetSource<V>>(ahead: &str, behind: &str) {
        use kshogi_engine::{Engine, Limits};
        let net = S::net().expect("the embedded net reads");
        assert_eq!(net.hidden(), 64);
        assert_eq!(
            net.layout().features(),
            kshogi_nnue::Layout::of::<V>().features()
        );
        let up = parse_sfen::<V>(ahead).unwrap();
        let down = parse_sfen::<V>(behind).unwrap();
        let score = nnue::NnueEval::<S>::evaluate(&up);
        assert!(score > 100, "{} with a piece more: {score}", V::NAME);
        assert!(nnue::NnueEval::<S>::evaluate(&down) < -100);
        for pos in [up, down, Position::<V>::start()] {
            assert_eq!(
                nnue::NnueEval::<S>::evaluate(&pos),
                nnue::NnueEval::<S>::evaluate(&mirrored(&pos, pos.extra()))
            );
        }
        let pos = Position::<V>::start();
        let mut engine = Engine::<V, nnue::NnueEval<S>>::new(1);
        let limits = Limits {
            nodes: Some(5000),
            ..Limits::default()
        };
        let stop = std::sync::atomic::AtomicBool::new(false);
        let r = engine.search(&kshogi_core::Game::new(pos), &limits, 1, &stop, &mut |_| {});
        assert!(pos.legal_moves().contains(&r.lines[0].mv));
    }

    #[test]
    fn kyoto_s_embedded_net_works() {
        embedded_net_works::<Kyoto, KyotoNet>("pgk1t/5/5/5/TSKGP b S 1", "pgk1t/5/5/5/TSKGP w S 1");
    }

    #[test]
    fn micro_s_embedded_net_works() {
        // Black has an extra gold in hand.
        embedded_net_works::<Micro, MicroNet>("kb1s/p3/4/3P/SB1K b G 1", "kb1s/p3/4/3P/SB1K w G 1");
    }

    #[test]
    fn kinzoku_values_king_advance() {
        let home = parse_sfen::<Kinzoku>("cks/1i1/3/1I1/SKC b - 1").unwrap();
        let up = parse_sfen::<Kinzoku>("cks/1i1/1K1/1I1/S1C b - 1").unwrap();
        assert!(KinzokuEval::breakdown(&up).variant > KinzokuEval::breakdown(&home).variant);
        // The terms: Black's king two ranks from its entry rank, White's at home (four
        // ranks from its own); no countdown.
        let f = <KinzokuEval as Linear<Kinzoku>>::extra_features;
        let mut two = [0; N_EXTRA];
        two[1] = 1;
        assert_eq!(f(&up), two);
        assert_eq!(f(&home), [0; N_EXTRA]);
        // White's king two ranks from its entry rank (the bottom rank), Black's at home.
        let white_up = parse_sfen::<Kinzoku>("c1s/1i1/k2/3/SKC b - 1").unwrap();
        two[1] = -1;
        assert_eq!(f(&white_up), two);
    }

    /// Every line names at most [`N_EXTRA`] terms of its own, and has no feature beyond
    /// them, on positions of random games.
    #[test]
    fn own_terms_fit_their_slots() {
        fn check<V: Variant, E: Linear<V>>(seed: u64) {
            let names = E::EXTRA_NAMES.len();
            assert!(names <= N_EXTRA);
            let mut rng = SplitMix64::new(seed);
            for _ in 0..20 {
                let mut pos = Position::<V>::start();
                for _ in 0..60 {
                    assert!(E::extra_features(&pos)[names..].iter().all(|&x| x == 0));
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.make(moves[rng.below(moves.len())]);
                }
            }
        }
        assert_eq!(<KinzokuEval as Linear<Kinzoku>>::EXTRA_NAMES.len(), 10);
        check::<Kinzoku, KinzokuEval>(1);
        check::<Kyoto, KyotoEval>(2);
        check::<Micro, MicroEval>(3);
        check::<Minishogi, MinishogiEval>(4);
        check::<Dobutsu, DobutsuEval>(5);
    }
}
