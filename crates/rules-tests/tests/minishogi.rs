//! Minishogi: one test per rule of RULES.md, with positions worked out by hand.
//!
//! Board diagrams are as SFEN reads them: rank a at the top, file 5 on the left, uppercase
//! Black (moving up, toward rank a).

mod common;

use common::{after, is_legal_usi, legal_usi, pos};
use kshogi_core::{
    perft, Color, Outcome, Position, RepetitionRule, StalemateRule, Variant, WinReason,
};
use kshogi_notation::{move_to_usi, parse_usi, to_sfen};
use kshogi_rules_minishogi::Minishogi;

type P = Position<Minishogi>;

fn p(sfen: &str) -> P {
    pos::<Minishogi>(sfen)
}

fn drops(p: &P) -> Vec<String> {
    legal_usi(p)
        .into_iter()
        .filter(|m| m.contains('*'))
        .collect()
}

#[test]
fn start_position_and_first_ply() {
    let start = P::start();
    assert_eq!(to_sfen(&start), "rbsgk/4p/5/P4/KGSBR b - 1");
    assert_eq!(perft(&mut start.clone(), 1), 14);
}

#[test]
fn nifu_and_no_pawn_on_the_last_rank() {
    // White king 1a; Black king 5e, pawn 3d, a pawn in hand. 22 empty squares; a pawn may
    // not go on file 3 (3a 3b 3c 3e) nor on rank a (5a 4a 2a): 15 drops.
    let q = p("4k/5/5/2P2/K4 b P 1");
    let d = drops(&q);
    assert_eq!(d.len(), 15, "{d:?}");
    for bad in ["P*3a", "P*3b", "P*3c", "P*3e", "P*5a", "P*4a", "P*2a"] {
        assert!(!d.contains(&bad.to_string()), "{bad} in {d:?}");
    }
    // 1b checks the king, which can take the unprotected pawn: not mate, so legal.
    assert!(d.contains(&"P*1b".to_string()));
    // A promoted pawn on the file does not count.
    let q = p("4k/5/5/2+P2/K4 b P 1");
    assert!(is_legal_usi(&q, "P*3c"));
}

#[test]
fn pawn_drop_mate_is_not_a_move_but_pawn_drop_check_is() {
    // White king 1a. Black silver 3b covers 2a, gold 2c covers 2b and protects 1b. P*1b
    // would check with no reply: forbidden.
    let mate = p("4k/2S2/3G1/5/K4 b P 1");
    assert!(!is_legal_usi(&mate, "P*1b"));
    assert!(parse_usi(&mate, "P*1b").is_err());
    // Other pawn drops stay legal (1c: not a check).
    assert!(is_legal_usi(&mate, "P*1c"));
    // Without the silver the king escapes to 2a: the same drop checks and is legal.
    let check = p("4k/5/3G1/5/K4 b P 1");
    assert!(is_legal_usi(&check, "P*1b"));
    let after_drop = after(&check, "P*1b");
    assert!(after_drop.in_check());
    assert_eq!(legal_usi(&after_drop), vec!["1a2a"]);
    // A mate by a pawn move (not a drop) is fine: pawn 1c to 1b, same cover as `mate`.
    let moved = p("4k/2S2/3GP/5/K4 b - 1");
    assert!(is_legal_usi(&moved, "1c1b"));
    assert_eq!(
        after(&moved, "1c1b").outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Checkmate
        })
    );
}

#[test]
fn pawn_arriving_on_the_last_rank_must_promote() {
    let q = p("4k/2P2/5/5/K4 b - 1");
    let m = legal_usi(&q);
    assert!(m.contains(&"3b3a+".to_string()), "{m:?}");
    assert!(!m.contains(&"3b3a".to_string()), "{m:?}");
    assert_eq!(to_sfen(&after(&q, "3b3a+")), "2+P1k/5/5/5/K4 w - 2");
}

#[test]
fn both_moves_where_promotion_is_optional() {
    // Silver 3b: forward to 3a, 2a, 4a (into the zone: with and without promotion), back to
    // 2c and 4c (neither square in the zone): 8 moves.
    let q = p("5/2S2/4k/5/K4 b - 1");
    let silver: Vec<String> = legal_usi(&q)
        .into_iter()
        .filter(|m| m.starts_with("3b"))
        .collect();
    assert_eq!(
        silver,
        vec!["3b2a", "3b2a+", "3b2c", "3b3a", "3b3a+", "3b4a", "3b4a+", "3b4c"]
    );
    let plain = parse_usi(&q, "3b3a").unwrap();
    let promote = parse_usi(&q, "3b3a+").unwrap();
    assert!(!plain.is_flip() && promote.is_flip());
    assert_eq!(move_to_usi::<Minishogi>(plain), "3b3a");
    assert_eq!(to_sfen(&q.after(plain)), "2S2/5/4k/5/K4 w - 2");
    assert_eq!(to_sfen(&q.after(promote)), "2+S2/5/4k/5/K4 w - 2");
    // The leaf count agrees with the expanded moves.
    assert_eq!(perft(&mut q.clone(), 1), q.legal_moves().len() as u64);
}

#[test]
fn promotion_when_moving_out_of_the_zone() {
    // Silver 3a moves back to 2b or 4b, leaving the zone: it may promote.
    let q = p("2S2/5/4k/5/K4 b - 1");
    let silver: Vec<String> = legal_usi(&q)
        .into_iter()
        .filter(|m| m.starts_with("3a"))
        .collect();
    assert_eq!(silver, vec!["3a2b", "3a2b+", "3a4b", "3a4b+"]);
    // A rook from 1a down to 1c may promote too.
    let r = p("4R/5/5/k4/4K b - 1");
    assert!(is_legal_usi(&r, "1a1c+") && is_legal_usi(&r, "1a1c"));
    // Not from or into the zone: no promotion.
    let r = p("5/5/4R/k4/4K b - 1");
    assert!(!is_legal_usi(&r, "1c1d+") && is_legal_usi(&r, "1c1d"));
}

#[test]
fn captured_promoted_pieces_go_to_hand_unpromoted() {
    // The gold 3d takes a dragon on 3c: Black holds a rook.
    let q = p("4k/5/2+r2/2G2/K4 b - 1");
    let a = after(&q, "3d3c");
    assert_eq!(to_sfen(&a), "4k/5/2G2/5/K4 w R 2");
    // White passes with the king; Black's rook drops are rook drops only (no dragon).
    let b = after(&a, "1a1b");
    let d = drops(&b);
    assert!(!d.is_empty());
    assert!(d.iter().all(|m| m.starts_with("R*")), "{d:?}");
    assert_eq!(to_sfen(&after(&b, "R*3a")), "2R2/4k/2G2/5/K4 w - 4");
}

#[test]
fn stalemate_and_repetition_rules() {
    assert_eq!(Minishogi::STALEMATE, StalemateRule::Loss);
    assert_eq!(
        Minishogi::REPETITION,
        RepetitionRule {
            occurrences: 4,
            perpetual_check_loses: true,
            repeater_loses: false
        }
    );
    const { assert!(Minishogi::CHECK_RULE) };
}
