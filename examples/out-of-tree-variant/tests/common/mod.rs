//! A brute-force mover for Pocket Shogi written from its rules alone (src/lib.rs's crate
//! documentation), sharing no code with kshogi: the reference the perft rows are checked
//! against.

/// A piece: its colour (0 Black, 1 White) and kind (0 king, 1 guard, 2 ferz).
type Piece = (usize, usize);

/// The steps of each kind, as (file, rank) offsets. Every set is symmetric under turning the
/// board, so both colours move by the same offsets.
const STEPS: [&[(i32, i32)]; 3] = [
    &[
        (1, 1),
        (1, 0),
        (1, -1),
        (0, 1),
        (0, -1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
    ],
    &[(0, 1), (0, -1), (1, 0), (-1, 0)],
    &[(1, 1), (-1, 1), (1, -1), (-1, -1)],
];

/// A position: `board[rank][column]` (rank 0 is `a`, column 0 is file 3, the leftmost),
/// the hands (`hands[colour][kind]`, kinds 1 and 2) and the side to move.
#[derive(Clone)]
pub struct Pos {
    board: [[Option<Piece>; 3]; 4],
    hands: [[u32; 3]; 2],
    side: usize,
}

impl Pos {
    /// Reads `board side hands [ply]`: ranks from `a`, files from 3 to 1, digits for empty
    /// squares, uppercase for Black; `K`, `G`, `F`.
    pub fn parse(text: &str) -> Pos {
        let text = if text == "startpos" {
            "fkg/3/3/GKF b - 1"
        } else {
            text
        };
        let fields: Vec<&str> = text.split(' ').collect();
        let mut board = [[None; 3]; 4];
        for (r, rank) in fields[0].split('/').enumerate() {
            let mut c = 0;
            for ch in rank.chars() {
                if let Some(n) = ch.to_digit(10) {
                    c += n as usize;
                } else {
                    board[r][c] = Some(piece(ch));
                    c += 1;
                }
            }
            assert_eq!(c, 3, "rank {r} of `{text}`");
        }
        let side = usize::from(fields[1] == "w");
        let mut hands = [[0; 3]; 2];
        if fields[2] != "-" {
            let mut count = 0;
            for ch in fields[2].chars() {
                if let Some(n) = ch.to_digit(10) {
                    count = count * 10 + n;
                } else {
                    let (colour, kind) = piece(ch);
                    hands[colour][kind] += count.max(1);
                    count = 0;
                }
            }
        }
        Pos { board, hands, side }
    }

    /// Whether colour `c`'s king is attacked by a piece of the other colour.
    fn king_attacked(&self, c: usize) -> bool {
        let mut king = None;
        for r in 0..4 {
            for f in 0..3 {
                if self.board[r][f] == Some((c, 0)) {
                    king = Some((r as i32, f as i32));
                }
            }
        }
        let Some((kr, kf)) = king else { return true };
        for r in 0..4 {
            for f in 0..3 {
                if let Some((colour, kind)) = self.board[r][f] {
                    if colour != c
                        && STEPS[kind]
                            .iter()
                            .any(|&(df, dr)| (r as i32 + dr, f as i32 + df) == (kr, kf))
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The positions after each legal move.
    fn children(&self) -> Vec<Pos> {
        let me = self.side;
        let mut out = Vec::new();
        let mut keep = |next: Pos| {
            if !next.king_attacked(me) {
                out.push(next);
            }
        };
        for r in 0..4 {
            for f in 0..3 {
                // Moves of the piece on (r, f).
                if let Some((colour, kind)) = self.board[r][f] {
                    if colour != me {
                        continue;
                    }
                    for &(df, dr) in STEPS[kind] {
                        let (tr, tf) = (r as i32 + dr, f as i32 + df);
                        if !(0..4).contains(&tr) || !(0..3).contains(&tf) {
                            continue;
                        }
                        let (tr, tf) = (tr as usize, tf as usize);
                        let target = self.board[tr][tf];
                        if target.is_some_and(|(c, _)| c == me) {
                            continue;
                        }
                        let mut next = self.clone();
                        if let Some((_, captured)) = target {
                            next.hands[me][captured] += 1;
                        }
                        next.board[tr][tf] = Some((colour, kind));
                        next.board[r][f] = None;
                        next.side = 1 - me;
                        keep(next);
                    }
                } else {
                    // Drops on the empty square (r, f).
                    for kind in 1..3 {
                        if self.hands[me][kind] > 0 {
                            let mut next = self.clone();
                            next.hands[me][kind] -= 1;
                            next.board[r][f] = Some((me, kind));
                            next.side = 1 - me;
                            keep(next);
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether the side to move has a legal move.
    #[allow(dead_code)] // Used by tests/match.rs alone.
    pub fn has_moves(&self) -> bool {
        !self.children().is_empty()
    }

    /// The leaves of the legal-move tree of depth `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.children().iter().map(|c| c.perft(depth - 1)).sum()
    }
}

fn piece(ch: char) -> Piece {
    let colour = usize::from(ch.is_ascii_lowercase());
    let kind = match ch.to_ascii_uppercase() {
        'K' => 0,
        'G' => 1,
        'F' => 2,
        _ => panic!("no piece `{ch}`"),
    };
    (colour, kind)
}
