//! `Position::resolve`: the legal move a request names, or the typed reason why none.
//!
//! Every position is written as SFEN and every expectation worked out by hand from the
//! rules (docs/rules.md): Kyoto for board moves, flips and ambiguity, Minishogi for the
//! declared drop rules and optional promotion, Kinzoku for a variant without drops.

use kshogi_core::{
    Color, DropRule, FlipRequest, IllegalMove, Kind, Move, MoveRequest, Outcome, Piece, Position,
    Square, Variant, WinReason,
};
use kshogi_notation::parse_sfen;
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::{self as kyoto, Kyoto};
use kshogi_rules_minishogi::{self as mini, Minishogi};

fn sq<V: Variant>(name: &str) -> Square {
    V::GEOMETRY.parse_square(name).expect("a square")
}

fn board<V: Variant>(from: &str, to: &str, kind: Option<Kind>, flip: FlipRequest) -> MoveRequest {
    MoveRequest::Board {
        from: sq::<V>(from),
        to: sq::<V>(to),
        kind,
        flip,
    }
}

fn drop<V: Variant>(kind: Kind, to: &str) -> MoveRequest {
    MoveRequest::Drop {
        kind,
        to: sq::<V>(to),
    }
}

fn piece<V: Variant>(kind: Kind, to: &str, flip: FlipRequest) -> MoveRequest {
    MoveRequest::Piece {
        kind,
        to: sq::<V>(to),
        flip,
    }
}

use FlipRequest::{Flip, NoFlip, Unmarked};

const BLACK: Color = Color::Black;
const WHITE: Color = Color::White;

#[test]
fn kyoto_board_moves_and_their_reasons() {
    type K = Kyoto;
    let s = |n: &str| sq::<K>(n);
    let start = Position::<K>::start();
    // The pawn on 1e steps to 1d and must turn into a rook: no mark and `+` both name it.
    let up = Move::board(s("1e"), s("1d"), true);
    for flip in [Unmarked, Flip] {
        assert_eq!(start.resolve(&board::<K>("1e", "1d", None, flip)), Ok(up));
    }
    assert_eq!(
        start.resolve(&board::<K>("1e", "1d", Some(kyoto::PAWN), Unmarked)),
        Ok(up)
    );
    let cases = [
        (
            board::<K>("1e", "1d", None, NoFlip),
            IllegalMove::FlipRequired {
                from: s("1e"),
                to: s("1d"),
                kind: kyoto::PAWN,
            },
        ),
        (
            board::<K>("1d", "1c", None, Unmarked),
            IllegalMove::NoPiece { from: s("1d") },
        ),
        (
            board::<K>("5a", "5b", None, Flip),
            IllegalMove::NotYours {
                side: BLACK,
                from: s("5a"),
                piece: Piece::new(WHITE, kyoto::PAWN),
            },
        ),
        (
            board::<K>("1e", "1d", Some(kyoto::GOLD), Unmarked),
            IllegalMove::WrongPiece {
                from: s("1e"),
                found: kyoto::PAWN,
                named: kyoto::GOLD,
            },
        ),
        // The gold steps one square: 2c is two away.
        (
            board::<K>("2e", "2c", None, Unmarked),
            IllegalMove::CannotReach {
                from: s("2e"),
                to: s("2c"),
                kind: kyoto::GOLD,
            },
        ),
        // The gold steps sideways onto its own king.
        (
            board::<K>("2e", "3e", None, Unmarked),
            IllegalMove::CaptureOwn {
                side: BLACK,
                from: s("2e"),
                to: s("3e"),
                kind: kyoto::GOLD,
                target: kyoto::KING,
            },
        ),
        // The king never flips.
        (
            board::<K>("3e", "3d", None, Flip),
            IllegalMove::FlipNotAllowed {
                from: s("3e"),
                to: s("3d"),
                kind: kyoto::KING,
            },
        ),
    ];
    for (request, why) in cases {
        assert_eq!(start.resolve(&request), Err(why), "{request:?}");
    }
}

#[test]
fn kyoto_blocked_paths_and_the_check_rule() {
    type K = Kyoto;
    let s = |n: &str| sq::<K>(n);
    // Black's rook on 5e, White's pawn on 5d in its path to 5b.
    let pos = parse_sfen::<K>("k4/5/5/p4/R3K b - 1").unwrap();
    assert_eq!(
        pos.resolve(&board::<K>("5e", "5b", None, Unmarked)),
        Err(IllegalMove::Blocked {
            from: s("5e"),
            to: s("5b"),
            kind: kyoto::ROOK,
            by: s("5d"),
            blocker: Piece::new(WHITE, kyoto::PAWN),
        })
    );
    // The rook takes the pawn (and turns into a pawn).
    assert_eq!(
        pos.resolve(&board::<K>("5e", "5d", None, Unmarked)),
        Ok(Move::board(s("5e"), s("5d"), true))
    );
    // Black's silver on 3d is pinned to its king on 3e by White's rook on 3a.
    let pinned = parse_sfen::<K>("k1r2/5/5/2S2/2K2 b - 1").unwrap();
    assert_eq!(
        pinned.resolve(&board::<K>("3d", "2c", None, Unmarked)),
        Err(IllegalMove::LeavesKingInCheck {
            side: BLACK,
            from: Some(s("3d")),
            to: s("2c"),
            kind: kyoto::SILVER,
            checker: Some((s("3a"), kyoto::ROOK)),
        })
    );
    // Along the pin it may go (and turns into a bishop).
    assert_eq!(
        pinned.resolve(&board::<K>("3d", "3c", None, Unmarked)),
        Ok(Move::board(s("3d"), s("3c"), true))
    );
    // The king steps onto the rook's file.
    let king = parse_sfen::<K>("k1r2/5/5/5/1K3 b - 1").unwrap();
    assert_eq!(
        king.resolve(&board::<K>("4e", "3d", None, Unmarked)),
        Err(IllegalMove::LeavesKingInCheck {
            side: BLACK,
            from: Some(s("4e")),
            to: s("3d"),
            kind: kyoto::KING,
            checker: Some((s("3a"), kyoto::ROOK)),
        })
    );
    // White is checkmated (king 5a, Black's gold 5b guarded by the rook 5c): whatever White
    // asks for, the game is over.
    let mated = parse_sfen::<K>("k4/G4/R4/5/4K w - 10").unwrap();
    let over = IllegalMove::GameOver(Outcome::Win {
        winner: BLACK,
        reason: WinReason::Checkmate,
    });
    assert_eq!(
        mated.resolve(&board::<K>("5a", "4a", None, Unmarked)),
        Err(over)
    );
    assert_eq!(
        mated.resolve(&board::<K>("5a", "5b", None, Unmarked)),
        Err(over)
    );
}

#[test]
fn kyoto_drops() {
    type K = Kyoto;
    let s = |n: &str| sq::<K>(n);
    let start = Position::<K>::start();
    assert_eq!(
        start.resolve(&drop::<K>(kyoto::TOKIN, "3c")),
        Err(IllegalMove::NotInHand {
            side: BLACK,
            kind: kyoto::TOKIN
        })
    );
    assert_eq!(
        start.resolve(&drop::<K>(kyoto::KING, "3c")),
        Err(IllegalMove::NeverDropped {
            kind: kyoto::KING,
            instead: None
        })
    );
    // Black holds a tokin/lance pair: either face drops; not onto its own king.
    let hand = parse_sfen::<K>("k4/5/5/5/4K b T 1").unwrap();
    assert_eq!(
        hand.resolve(&drop::<K>(kyoto::LANCE, "3c")),
        Ok(Move::drop(kyoto::LANCE, s("3c")))
    );
    assert_eq!(
        hand.resolve(&drop::<K>(kyoto::TOKIN, "1e")),
        Err(IllegalMove::DropOnOccupied {
            to: s("1e"),
            occupant: Piece::new(BLACK, kyoto::KING)
        })
    );
    // In check from the rook on 3a, Black may only drop in between (3b to 3d).
    let check = parse_sfen::<K>("k1r2/5/5/5/2K2 b T 1").unwrap();
    assert_eq!(
        check.resolve(&drop::<K>(kyoto::TOKIN, "1c")),
        Err(IllegalMove::LeavesKingInCheck {
            side: BLACK,
            from: None,
            to: s("1c"),
            kind: kyoto::TOKIN,
            checker: Some((s("3a"), kyoto::ROOK)),
        })
    );
    assert_eq!(
        check.resolve(&drop::<K>(kyoto::TOKIN, "3c")),
        Ok(Move::drop(kyoto::TOKIN, s("3c")))
    );
}

#[test]
fn kyoto_moves_without_origin() {
    type K = Kyoto;
    let s = |n: &str| sq::<K>(n);
    let start = Position::<K>::start();
    // The only gold steps forward.
    assert_eq!(
        start.resolve(&piece::<K>(kyoto::GOLD, "2d", Unmarked)),
        Ok(Move::board(s("2e"), s("2d"), true))
    );
    assert_eq!(
        start.resolve(&piece::<K>(kyoto::GOLD, "2c", Unmarked)),
        Err(IllegalMove::NoneCanReach {
            side: BLACK,
            kind: kyoto::GOLD,
            to: s("2c")
        })
    );
    assert_eq!(
        start.resolve(&piece::<K>(kyoto::ROOK, "1d", Unmarked)),
        Err(IllegalMove::NoPieceOfKind {
            side: BLACK,
            kind: kyoto::ROOK,
            in_hand: false
        })
    );
    // Two golds (5e, 3e) both reach 4d diagonally.
    let two = parse_sfen::<K>("k4/5/5/5/G1G1K b - 1").unwrap();
    assert_eq!(
        two.resolve(&piece::<K>(kyoto::GOLD, "4d", Unmarked)),
        Err(IllegalMove::Ambiguous {
            kind: kyoto::GOLD,
            to: s("4d"),
            origins: kshogi_core::Bitboard::from_square(s("5e")).with(s("3e")),
        })
    );
    // ... but only the one on 5e reaches 5d.
    assert_eq!(
        two.resolve(&piece::<K>(kyoto::GOLD, "5d", Flip)),
        Ok(Move::board(s("5e"), s("5d"), true))
    );
    // A piece only in hand: no mark means the drop; a flip mark cannot be a drop.
    let hand = parse_sfen::<K>("k4/5/5/5/4K b T 1").unwrap();
    assert_eq!(
        hand.resolve(&piece::<K>(kyoto::TOKIN, "3c", Unmarked)),
        Ok(Move::drop(kyoto::TOKIN, s("3c")))
    );
    assert_eq!(
        hand.resolve(&piece::<K>(kyoto::TOKIN, "3c", Flip)),
        Err(IllegalMove::NoPieceOfKind {
            side: BLACK,
            kind: kyoto::TOKIN,
            in_hand: true
        })
    );
    // The pinned silver is the only one that reaches 2c: its reason is given.
    let pinned = parse_sfen::<K>("k1r2/5/5/2S2/2K2 b - 1").unwrap();
    assert!(matches!(
        pinned.resolve(&piece::<K>(kyoto::SILVER, "2c", Unmarked)),
        Err(IllegalMove::LeavesKingInCheck { from: Some(f), .. }) if f == s("3d")
    ));
}

#[test]
fn minishogi_drop_rules_are_named() {
    type M = Minishogi;
    let s = |n: &str| sq::<M>(n);
    // White king 1a; Black's gold 2c covers 1b and 2b, its silver 3b covers 2a.
    let pos = parse_sfen::<M>("4k/2S2/3G1/5/K4 b P 1").unwrap();
    let refused = |to: &str, rule| IllegalMove::DropRefused {
        side: BLACK,
        kind: mini::PAWN,
        to: s(to),
        rule,
    };
    assert_eq!(
        pos.resolve(&drop::<M>(mini::PAWN, "1b")),
        Err(refused("1b", DropRule::PawnDropMate))
    );
    assert_eq!(
        pos.resolve(&drop::<M>(mini::PAWN, "3a")),
        Err(refused("3a", DropRule::DeadDrop))
    );
    let nifu = parse_sfen::<M>("4k/2S2/3G1/4P/K4 b P 1").unwrap();
    assert_eq!(
        nifu.resolve(&drop::<M>(mini::PAWN, "1c")),
        Err(refused("1c", DropRule::Nifu { pawn: s("1d") }))
    );
    assert_eq!(
        pos.resolve(&drop::<M>(mini::PAWN, "4c")),
        Ok(Move::drop(mini::PAWN, s("4c")))
    );
    // A captured dragon is a rook in hand: the dragon face is never dropped.
    let rook = parse_sfen::<M>("4k/5/5/5/K4 b R 1").unwrap();
    assert_eq!(
        rook.resolve(&drop::<M>(mini::DRAGON, "3c")),
        Err(IllegalMove::NeverDropped {
            kind: mini::DRAGON,
            instead: Some(mini::ROOK)
        })
    );
}

#[test]
fn minishogi_optional_and_forced_promotion() {
    type M = Minishogi;
    let s = |n: &str| sq::<M>(n);
    // The silver on 3b enters the zone (rank a): promotion is the player's choice.
    let pos = parse_sfen::<M>("4k/2S2/5/5/K4 b - 1").unwrap();
    let plain = Move::board(s("3b"), s("3a"), false);
    let promoted = Move::board(s("3b"), s("3a"), true);
    assert_eq!(
        pos.resolve(&board::<M>("3b", "3a", None, Unmarked)),
        Ok(plain)
    );
    assert_eq!(
        pos.resolve(&board::<M>("3b", "3a", None, NoFlip)),
        Ok(plain)
    );
    assert_eq!(
        pos.resolve(&board::<M>("3b", "3a", None, Flip)),
        Ok(promoted)
    );
    // A pawn reaching the last rank must promote.
    let pawn = parse_sfen::<M>("k4/2P2/5/5/4K b - 1").unwrap();
    assert_eq!(
        pawn.resolve(&board::<M>("3b", "3a", None, Unmarked)),
        Ok(Move::board(s("3b"), s("3a"), true))
    );
    assert_eq!(
        pawn.resolve(&board::<M>("3b", "3a", None, NoFlip)),
        Err(IllegalMove::FlipRequired {
            from: s("3b"),
            to: s("3a"),
            kind: mini::PAWN
        })
    );
    // Outside the zone a silver does not promote.
    assert_eq!(
        pos.resolve(&board::<M>("3b", "4c", None, Flip)),
        Err(IllegalMove::FlipNotAllowed {
            from: s("3b"),
            to: s("4c"),
            kind: mini::SILVER
        })
    );
}

#[test]
fn kinzoku_has_no_drops() {
    let pos = Position::<Kinzoku>::start();
    assert_eq!(
        pos.resolve(&drop::<Kinzoku>(kshogi_rules_kinzoku::SILVER, "2c")),
        Err(IllegalMove::NoDrops)
    );
}

/// On every legal move of some positions, each request form names exactly that move: the
/// board form with the flip made explicit, the drop form, and the origin-less form when the
/// piece is the only one of its face that can go there.
#[test]
fn every_legal_move_resolves_to_itself() {
    fn check<V: Variant>(sfens: &[&str]) {
        for sfen in sfens {
            let pos = parse_sfen::<V>(sfen).unwrap();
            let legal = pos.legal_moves();
            for &mv in legal.iter() {
                let request = match mv.from() {
                    Some(from) => MoveRequest::Board {
                        from,
                        to: mv.to(),
                        kind: pos.piece_at(from).map(|p| p.kind),
                        flip: if mv.is_flip() { Flip } else { NoFlip },
                    },
                    None => MoveRequest::Drop {
                        kind: mv.drop_kind().unwrap(),
                        to: mv.to(),
                    },
                };
                assert_eq!(pos.resolve(&request), Ok(mv), "{sfen}: {request:?}");
                if let Some(from) = mv.from() {
                    let kind = pos.piece_at(from).unwrap().kind;
                    let rivals = legal
                        .iter()
                        .filter(|m| {
                            m.to() == mv.to()
                                && m.from().is_some_and(|f| {
                                    f != from && pos.piece_at(f).unwrap().kind == kind
                                })
                        })
                        .count();
                    let request = MoveRequest::Piece {
                        kind,
                        to: mv.to(),
                        flip: if mv.is_flip() { Flip } else { NoFlip },
                    };
                    let got = pos.resolve(&request);
                    if rivals == 0 {
                        assert_eq!(got, Ok(mv), "{sfen}: {request:?}");
                    } else {
                        assert!(
                            matches!(got, Err(IllegalMove::Ambiguous { .. })),
                            "{sfen}: {request:?}: {got:?}"
                        );
                    }
                }
            }
        }
    }
    check::<Kyoto>(&[
        "pgkst/5/5/5/TSKGP b - 1",
        "1gk1P/r4/5/2K2/T2G1 w TSs 8",
        "k4/5/5/5/G1G1K b T 1",
    ]);
    check::<Minishogi>(&[
        "rbsgk/4p/5/P4/KGSBR b - 1",
        "4k/2S2/3G1/5/K4 b P 1",
        "k4/2P2/5/5/4K b - 1",
    ]);
    check::<Kinzoku>(&["cks/1i1/3/1I1/SKC b - 1"]);
}
