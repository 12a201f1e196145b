//! The properties checked by the fuzz targets, one public function per target.
//!
//! Each function takes the raw bytes the fuzzer made, never panics on input that the
//! library rejects, and panics (with a message naming the property) when an accepted input
//! breaks a property: a round trip that changes the value, a move that is not legal, an
//! inconsistent hash. This file is compiled into the fuzz crate (`fuzz/src/lib.rs`) and into
//! the regression tests of `kshogi-notation` (`crates/notation/tests/fuzz_regressions.rs`),
//! so a committed input is checked by exactly the code that fuzzes.
//!
//! It depends only on the public API of `kshogi-core`, `kshogi-notation` and the list of
//! variants (`kshogi-variants`), whose list it runs every property over: a registered
//! variant is fuzzed with no change here.

use kshogi_core::{Position, Variant};
use kshogi_notation::kif::{
    decode_kif, kif_variant, parse_kif, read_kif, to_kif, KifError, KifRecord,
};
use kshogi_notation::serde_support::UsiMove;
use kshogi_notation::{
    board_shape, diagram, move_to_usi, parse_game, parse_sfen, parse_usi, to_sfen, DiagramStyle,
};
use kshogi_variants::{with_variant, VariantKind};

/// Checks what holds for every valid position: the incremental hash equals the hash computed
/// from scratch; every legal move, made, keeps the hash consistent, does not leave the
/// mover's king attacked (under the check rule), and unmade restores the position and hash; the leaf count equals
/// the number of legal moves; the outcome and the diagram can be computed.
pub fn check_position<V: Variant>(pos: &Position<V>) {
    let sfen = to_sfen(pos);
    assert_eq!(pos.hash(), pos.compute_hash(), "hash of `{sfen}`");
    let moves = pos.legal_moves();
    let mover = pos.side_to_move();
    for &mv in moves.iter() {
        let mut p = *pos;
        let undo = p.make(mv);
        let usi = move_to_usi::<V>(mv);
        assert_eq!(p.hash(), p.compute_hash(), "hash after `{usi}` in `{sfen}`");
        // Only under the check rule: a capture-the-king variant (Dobutsu) allows it.
        assert!(
            !V::CHECK_RULE || !p.is_attacked(p.king(mover), !mover, p.occupied()),
            "`{usi}` leaves the mover's king attacked in `{sfen}`"
        );
        p.unmake(mv, undo);
        assert!(p == *pos, "unmake of `{usi}` in `{sfen}`");
        assert_eq!(
            p.hash(),
            pos.hash(),
            "hash after unmake of `{usi}` in `{sfen}`"
        );
    }
    assert_eq!(pos.count_legal(), moves.len() as u64, "count of `{sfen}`");
    let _ = pos.outcome();
    let _ = diagram(pos, None, DiagramStyle::PLAIN);
}

// ---------------------------------------------------------------------------------------
// SFEN
// ---------------------------------------------------------------------------------------

/// Target `sfen`: the bytes (as text, invalid UTF-8 replaced) are read as an SFEN by every
/// variant, and as a `POSITION` argument (`<sfen> moves <usi> ...`).
///
/// When [`parse_sfen`] accepts, [`to_sfen`] prints text that parses to an equal position
/// (same hash too), and printing that again gives the same text; the position satisfies
/// [`check_position`]. When it rejects, the error's column lies inside the text (or just
/// after it). The same round trip holds for the final position of an accepted `POSITION`.
pub fn sfen_roundtrip(data: &[u8]) {
    sfen_check(data);
}

/// The same as [`sfen_roundtrip`] (once it exempted bugs that have since been fixed; the
/// inputs that found them are in `crates/notation/tests/data/fuzz/bugs/sfen_*/`).
pub fn sfen_roundtrip_strict(data: &[u8]) {
    sfen_check(data);
}

fn sfen_check(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = board_shape(&text);
    for &kind in VariantKind::ALL {
        with_variant!(kind, V => sfen_for::<V>(&text));
    }
}

fn sfen_for<V: Variant>(text: &str) {
    match parse_sfen::<V>(text) {
        Ok(pos) => {
            sfen_prints_back(&pos, text);
            check_position(&pos);
        }
        Err(e) => {
            let len = text.chars().count();
            assert!(
                e.column >= 1 && e.column <= len + 1,
                "{}: error column {} outside the text ({len} characters) of {text:?}: {e}",
                V::NAME,
                e.column
            );
        }
    }
    if let Ok(game) = parse_game::<V>(text) {
        sfen_prints_back(game.position(), text);
    }
}

fn sfen_prints_back<V: Variant>(pos: &Position<V>, input: &str) {
    let printed = to_sfen(pos);
    let back = parse_sfen::<V>(&printed).unwrap_or_else(|e| {
        panic!(
            "{}: `{printed}` (printed from {input:?}) does not parse: {e}",
            V::NAME
        )
    });
    assert!(
        back == *pos,
        "{}: `{printed}` (printed from {input:?}) parses to another position",
        V::NAME
    );
    assert_eq!(back.hash(), pos.hash(), "{}: hash of `{printed}`", V::NAME);
    assert_eq!(
        to_sfen(&back),
        printed,
        "{}: printing is not stable",
        V::NAME
    );
}

// ---------------------------------------------------------------------------------------
// USI moves
// ---------------------------------------------------------------------------------------

/// Start positions of the `usi_move` target besides each variant's start (`startpos`), by
/// variant name: full hands (every drop), sliders next to the kings (pins, checks), a running
/// countdown. A variant not listed starts from `startpos` only.
const EXTRA_STARTS: &[(&str, &[&str])] = &[
    (
        "kyoto",
        &["4k/5/5/5/K4 b TGSPtgsp 1", "l1k1b/1r3/5/3R1/B1K1L w Gg 1"],
    ),
    (
        "micro",
        &["k3/4/4/4/3K b BGSPbgsp 1", "l1k1/3r/4/2R1/1K1L w Bb 1"],
    ),
    (
        "kinzoku",
        &["ks1/c1i/3/I1C/1SK b - 1", "2k/3/1S1/3/K2 w - 7 b5"],
    ),
];

/// The `usi_move` start positions of a variant: `startpos`, then its [`EXTRA_STARTS`].
fn starts(kind: VariantKind) -> Vec<&'static str> {
    let mut out = vec!["startpos"];
    for (name, extra) in EXTRA_STARTS {
        if *name == kind.name() {
            out.extend_from_slice(extra);
        }
    }
    out
}

/// Target `usi_move`: a position is derived from the first bytes, and the rest is read as a
/// USI move in it.
///
/// Byte 0 picks the variant (modulo the number of registered variants) and, with the rest
/// of its value, one of the variant's start positions; byte 1 says how many
/// moves to play first (`% 16`); each of the next bytes picks one of the legal moves (by
/// index, modulo their number), stopping early when there is none. The remaining bytes
/// (invalid UTF-8 replaced) are the move text.
///
/// When [`parse_usi`] accepts, the move is among the position's legal moves and
/// [`Position::is_legal`] agrees; its canonical text [`move_to_usi`] parses back to the same
/// move, both in the position and without one ([`UsiMove`]'s `FromStr`). When it rejects,
/// the text is not the canonical text of any legal move.
pub fn usi_move(data: &[u8]) {
    let Some((&select, rest)) = data.split_first() else {
        return;
    };
    let kinds = VariantKind::ALL;
    let kind = kinds[usize::from(select) % kinds.len()];
    let starts = starts(kind);
    let start = starts[usize::from(select) / kinds.len() % starts.len()];
    with_variant!(kind, V => usi_for::<V>(start, rest));
}

fn usi_for<V: Variant>(start: &str, data: &[u8]) {
    let mut pos = parse_sfen::<V>(start).expect("the fuzz start positions are valid");
    let (count, mut rest) = match data.split_first() {
        Some((&n, rest)) => (n % 16, rest),
        None => (0, data),
    };
    for _ in 0..count {
        let Some((&pick, tail)) = rest.split_first() else {
            break;
        };
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        rest = tail;
        pos.make(moves[usize::from(pick) % moves.len()]);
    }
    let text = String::from_utf8_lossy(rest);
    usi_in(&pos, &text);
}

/// The `usi_move` property for one position and one text.
pub fn usi_in<V: Variant>(pos: &Position<V>, text: &str) {
    let sfen = to_sfen(pos);
    let legal = pos.legal_moves();
    match parse_usi(pos, text) {
        Ok(mv) => {
            assert!(
                legal.contains(&mv),
                "{text:?} parses to a move that is not legal in `{sfen}`"
            );
            assert!(
                pos.is_legal(mv),
                "is_legal disagrees on {text:?} in `{sfen}`"
            );
            let canonical = move_to_usi::<V>(mv);
            assert_eq!(
                parse_usi(pos, &canonical),
                Ok(mv),
                "{text:?} is `{canonical}` in `{sfen}`, which does not parse back"
            );
            assert_eq!(
                canonical.parse::<UsiMove<V>>().map(UsiMove::get),
                Ok(mv),
                "`{canonical}` read without a position"
            );
        }
        // Canonical texts are short ASCII (`1e1d+`, `T*3c`): only such a text can be one.
        Err(e) if text.len() <= 5 && text.is_ascii() => {
            assert!(
                !legal.iter().any(|&m| move_to_usi::<V>(m) == text),
                "the canonical text {text:?} of a legal move is rejected in `{sfen}`: {e}"
            );
        }
        Err(_) => {}
    }
}

// ---------------------------------------------------------------------------------------
// KIF
// ---------------------------------------------------------------------------------------

/// Target `kif`: the bytes are read as a KIF file ([`read_kif`]: UTF-8 or Shift_JIS) by every
/// variant.
///
/// When a record is accepted, [`to_kif`] writes text that [`parse_kif`] reads back to the same
/// start position (hash too), the same moves with the same times, the same final position
/// and game result, and writing the record read back gives the same text again. When it is
/// rejected, the error's line lies inside the text. [`kif_variant`] runs on the decoded text.
pub fn kif_roundtrip(data: &[u8]) {
    kif_check(data);
}

/// The same as [`kif_roundtrip`] (once it exempted bugs that have since been fixed; the
/// inputs that found them are in `crates/notation/tests/data/fuzz/bugs/kif_*/`).
pub fn kif_roundtrip_strict(data: &[u8]) {
    kif_check(data);
}

fn kif_check(data: &[u8]) {
    if let Ok(text) = decode_kif(data) {
        let _ = kif_variant(&text, VariantKind::infos());
    }
    for &kind in VariantKind::ALL {
        with_variant!(kind, V => kif_for::<V>(data));
    }
}

fn kif_for<V: Variant>(data: &[u8]) {
    let record = match read_kif::<V>(data) {
        Ok(record) => record,
        Err(e) => {
            check_kif_error(&e, data);
            return;
        }
    };
    let text = to_kif(&record);
    let back = parse_kif::<V>(&text).unwrap_or_else(|e| {
        panic!(
            "{}: the written record does not read back: {e}\n{text}",
            V::NAME
        )
    });
    assert!(
        back.start() == record.start(),
        "{}: start position changes: `{}` became `{}`\n{text}",
        V::NAME,
        to_sfen(record.start()),
        to_sfen(back.start())
    );
    assert_eq!(back.start().hash(), record.start().hash(), "{}", V::NAME);
    let moves =
        |r: &KifRecord<V>| -> Vec<_> { r.moves().iter().map(|m| (m.mv(), m.time)).collect() };
    assert_eq!(
        moves(&back),
        moves(&record),
        "{}: moves change\n{text}",
        V::NAME
    );
    assert!(
        back.position() == record.position(),
        "{}: final position changes\n{text}",
        V::NAME
    );
    assert_eq!(
        back.game().outcome(),
        record.game().outcome(),
        "{}: outcome changes\n{text}",
        V::NAME
    );
    assert_eq!(to_kif(&back), text, "{}: writing is not stable", V::NAME);
}

fn check_kif_error(e: &KifError, data: &[u8]) {
    let lines = data.split(|&b| b == b'\n').count();
    assert!(
        e.line >= 1 && e.line <= lines,
        "error line {} outside the {lines} lines of the input: {e}",
        e.line
    );
}
