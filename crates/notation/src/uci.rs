//! UCI coordinates, as Fairy-Stockfish and pychess-variants write moves in UCI mode: files
//! are letters from `a` (the leftmost file, USI's highest file number) and ranks are
//! numbers from `1` (the bottom rank, USI's last rank letter); a drop is written with `@`
//! (`G@c3`, `+L@c3`). Flip marks (`+`, `-`) are kept as they are.
//!
//! These functions translate move text between the two coordinate systems of a board of
//! `width` files and `height` ranks (at most 9 each); reading and writing the moves
//! themselves is [`crate::parse_usi`] and [`crate::move_to_usi_in`].

/// A USI square (`3c`) in UCI coordinates (`c3` on a 5x5 board); `None` if it is not one.
fn square_to_uci(sq: &[u8], width: u8, height: u8) -> Option<[u8; 2]> {
    let (&f, &r) = (sq.first()?, sq.get(1)?);
    let file = f.checked_sub(b'0').filter(|f| (1..=width).contains(f))?;
    let rank = r.checked_sub(b'a').filter(|r| *r < height)?;
    Some([b'a' + (width - file), b'0' + (height - rank)])
}

/// A UCI square (`c3`) in USI coordinates (`3c` on a 5x5 board); `None` if it is not one.
fn square_to_usi(sq: &[u8], width: u8, height: u8) -> Option<[u8; 2]> {
    let (&f, &r) = (sq.first()?, sq.get(1)?);
    let file = f.checked_sub(b'a').filter(|f| *f < width)?;
    let rank = r.checked_sub(b'1').filter(|r| *r < height)?;
    Some([b'0' + (width - file), b'a' + (height - 1 - rank)])
}

/// Translates the squares of a move: `drop_from`/`drop_to` are the drop marks.
fn translate(
    text: &str,
    width: u8,
    height: u8,
    drop_from: u8,
    drop_to: u8,
    square: fn(&[u8], u8, u8) -> Option<[u8; 2]>,
) -> Option<String> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    if let Some(at) = b.iter().position(|&c| c == drop_from) {
        out.extend_from_slice(&b[..at]);
        out.push(drop_to);
        let rest = &b[at + 1..];
        if rest.len() != 2 {
            return None;
        }
        out.extend_from_slice(&square(rest, width, height)?);
    } else {
        if b.len() < 4 || b.len() > 5 {
            return None;
        }
        out.extend_from_slice(&square(&b[0..2], width, height)?);
        out.extend_from_slice(&square(&b[2..4], width, height)?);
        match b.get(4) {
            None => {}
            Some(&m @ (b'+' | b'-')) => out.push(m),
            Some(_) => return None,
        }
    }
    String::from_utf8(out).ok()
}

/// A USI move text (`1e1d+`, `G*3c`) in UCI coordinates (`e1e2+`, `G@c3` on a 5x5 board);
/// `None` when the text is not a USI move of that board.
pub fn usi_to_uci(text: &str, width: u8, height: u8) -> Option<String> {
    translate(text, width, height, b'*', b'@', square_to_uci)
}

/// A UCI move text (`e1e2+`, `G@c3`) in USI coordinates (`1e1d+`, `G*3c` on a 5x5 board);
/// `None` when the text is not a UCI move of that board.
pub fn uci_to_usi(text: &str, width: u8, height: u8) -> Option<String> {
    translate(text, width, height, b'@', b'*', square_to_usi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_moves() {
        // Fairy-Stockfish, Kyoto start (5x5): USI `1e1d+` is UCI `e1e2+`, `4e5d+` is
        // `b1a2+`, `5e5d-` is `a1a2-`, `3e3d` is `c1c2`; a drop on 3c is `G@c3`.
        for (usi, uci) in [
            ("1e1d+", "e1e2+"),
            ("4e5d+", "b1a2+"),
            ("5e5d-", "a1a2-"),
            ("3e3d", "c1c2"),
            ("G*3c", "G@c3"),
            ("+L*3c", "+L@c3"),
            ("5a1e", "a5e1"),
        ] {
            assert_eq!(usi_to_uci(usi, 5, 5).as_deref(), Some(uci), "{usi}");
            assert_eq!(uci_to_usi(uci, 5, 5).as_deref(), Some(usi), "{uci}");
        }
        // Micro Shogi is 4 files by 5 ranks: its 4e is a1.
        assert_eq!(usi_to_uci("4e4d", 4, 5).as_deref(), Some("a1a2"));
        for bad in ["", "1e", "6e1d", "1f1d", "1e1d*", "G*", "G*3", "1e1d++"] {
            assert_eq!(usi_to_uci(bad, 5, 5), None, "{bad}");
        }
        for bad in ["f1e2", "e6e2", "G@c", "e1e2="] {
            assert_eq!(uci_to_usi(bad, 5, 5), None, "{bad}");
        }
    }
}
