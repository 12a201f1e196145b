//! A slow, obviously-correct model of the three variants, written from `RULES.md` alone.
//!
//! It shares nothing with core: a plain array board addressed by (file, rank), piece
//! movement tables typed in here from the rules text, its own attack test, its own SFEN
//! reader and printer, its own flip, hand and countdown rules. Legal moves are the
//! pseudo-legal moves filtered by "the mover's king is not attacked afterwards".
//!
//! Only core's public value types `Color`, `Outcome`, `WinReason` and `DrawReason` are used,
//! to report results in a comparable form.

use kshogi_core::{Color, DrawReason, Outcome, WinReason};

/// Which game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rv {
    Kyoto,
    Micro,
    Kinzoku,
}

impl Rv {
    /// The variant from its short name (`"kyoto"`).
    pub fn from_name(name: &str) -> Rv {
        match name {
            "kyoto" => Rv::Kyoto,
            "micro" => Rv::Micro,
            "kinzoku" => Rv::Kinzoku,
            other => panic!("unknown variant {other}"),
        }
    }

    /// (files, ranks).
    pub fn size(self) -> (i32, i32) {
        match self {
            Rv::Kyoto => (5, 5),
            Rv::Micro => (4, 5),
            Rv::Kinzoku => (3, 5),
        }
    }

    /// The pairs (face A, face B), in the canonical SFEN hand order of NOTATION.md.
    pub fn pairs(self) -> &'static [(&'static str, &'static str)] {
        match self {
            // RULES.md: Tokin/Lance, Silver/Bishop, Gold/Knight, Pawn/Rook; hand order T G S P.
            Rv::Kyoto => &[("T", "L"), ("G", "N"), ("S", "B"), ("P", "R")],
            // RULES.md: Silver/Lance, Bishop/Tokin, Gold/Rook, Pawn/Knight; order B G S P.
            Rv::Micro => &[("B", "T"), ("G", "R"), ("S", "L"), ("P", "N")],
            Rv::Kinzoku => &[],
        }
    }

    /// Every name a piece may show on the board (uppercase, `+` for a promoted face).
    pub fn names(self) -> Vec<&'static str> {
        match self {
            Rv::Kinzoku => vec!["K", "S", "C", "I", "+I"],
            _ => {
                let mut v = vec!["K"];
                for &(a, b) in self.pairs() {
                    v.push(a);
                    v.push(b);
                }
                v
            }
        }
    }

    /// The pair index (hand slot) of a face.
    pub fn pair_of(self, name: &str) -> Option<usize> {
        self.pairs()
            .iter()
            .position(|&(a, b)| a == name || b == name)
    }

    /// The other face of a two-faced piece.
    pub fn other_face(self, name: &str) -> &'static str {
        if self == Rv::Kinzoku {
            assert_eq!(name, "I", "only the soldier promotes");
            return "+I";
        }
        let &(a, b) = &self.pairs()[self.pair_of(name).expect("a paired face")];
        if name == a {
            b
        } else {
            a
        }
    }
}

/// Offsets `(sideways, forward)` from the mover's point of view.
type Offsets = &'static [(i32, i32)];

/// Movement written from the mover's point of view: `(sideways, forward)`.
/// Returns (single steps, slide directions).
fn movement(name: &str) -> (Offsets, Offsets) {
    const KING: &[(i32, i32)] = &[
        (-1, 1),
        (0, 1),
        (1, 1),
        (-1, 0),
        (1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ];
    // Gold: one step orthogonally, or diagonally forward.
    const GOLD: &[(i32, i32)] = &[(-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0), (0, -1)];
    // Silver: one step diagonally, or straight forward.
    const SILVER: &[(i32, i32)] = &[(-1, 1), (0, 1), (1, 1), (-1, -1), (1, -1)];
    // Copper: straight forward, straight back, diagonally forward.
    const COPPER: &[(i32, i32)] = &[(-1, 1), (0, 1), (1, 1), (0, -1)];
    // Soldier: straight forward or sideways.
    const SOLDIER: &[(i32, i32)] = &[(0, 1), (-1, 0), (1, 0)];
    const PAWN: &[(i32, i32)] = &[(0, 1)];
    // Knight: two forward and one sideways, jumping.
    const KNIGHT: &[(i32, i32)] = &[(-1, 2), (1, 2)];
    const NONE: &[(i32, i32)] = &[];
    const LANCE: &[(i32, i32)] = &[(0, 1)];
    const BISHOP: &[(i32, i32)] = &[(-1, 1), (1, 1), (-1, -1), (1, -1)];
    const ROOK: &[(i32, i32)] = &[(0, 1), (0, -1), (-1, 0), (1, 0)];
    match name {
        "K" => (KING, NONE),
        "G" | "T" | "+I" => (GOLD, NONE),
        "S" => (SILVER, NONE),
        "C" => (COPPER, NONE),
        "I" => (SOLDIER, NONE),
        "P" => (PAWN, NONE),
        "N" => (KNIGHT, NONE),
        "L" => (NONE, LANCE),
        "B" => (NONE, BISHOP),
        "R" => (NONE, ROOK),
        other => panic!("no movement for {other}"),
    }
}

/// A piece: owner and the face it shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pc {
    pub black: bool,
    pub name: &'static str,
}

/// A move of the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefMove {
    /// From (file, rank) to (file, rank); `flip` when the piece turns over or promotes.
    Board {
        from: (i32, i32),
        to: (i32, i32),
        flip: bool,
    },
    /// A drop of `name` face up.
    Drop { name: &'static str, to: (i32, i32) },
}

fn sq_name((f, r): (i32, i32)) -> String {
    format!("{}{}", f, (b'a' + r as u8) as char)
}

impl RefMove {
    /// USI text as NOTATION.md defines it.
    pub fn usi(&self) -> String {
        match self {
            RefMove::Board { from, to, flip } => format!(
                "{}{}{}",
                sq_name(*from),
                sq_name(*to),
                if *flip { "+" } else { "" }
            ),
            RefMove::Drop { name, to } => format!("{}*{}", name, sq_name(*to)),
        }
    }
}

/// A position of the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPos {
    pub v: Rv,
    pub w: i32,
    pub h: i32,
    /// Indexed by `rank * w + (file - 1)`.
    pub board: Vec<Option<Pc>>,
    /// `[black, white][pair]`.
    pub hands: [[u8; 4]; 2],
    pub black_to_move: bool,
    pub ply: u32,
    /// Kinzoku countdown: (the side that must win is Black, moves left).
    pub countdown: Option<(bool, u8)>,
}

fn side_index(black: bool) -> usize {
    if black {
        0
    } else {
        1
    }
}

impl RefPos {
    /// Reads a canonical SFEN (as printed by the program); panics on anything unexpected.
    pub fn from_sfen(v: Rv, text: &str) -> RefPos {
        let (w, h) = v.size();
        let fields: Vec<&str> = text.split(' ').collect();
        assert!(
            fields.len() == 4 || fields.len() == 5,
            "canonical SFEN has 4 or 5 fields: {text:?}"
        );
        let rows: Vec<&str> = fields[0].split('/').collect();
        assert_eq!(rows.len(), h as usize, "{text}");
        let mut board = vec![None; (w * h) as usize];
        for (r, row) in rows.iter().enumerate() {
            let mut file = w;
            let chars: Vec<char> = row.chars().collect();
            let mut i = 0;
            while i < chars.len() {
                let c = chars[i];
                if let Some(d) = c.to_digit(10) {
                    file -= d as i32;
                    i += 1;
                    continue;
                }
                let (promoted, letter) = if c == '+' {
                    i += 1;
                    (true, chars[i])
                } else {
                    (false, c)
                };
                i += 1;
                let upper = letter.to_ascii_uppercase();
                let text_name = format!("{}{}", if promoted { "+" } else { "" }, upper);
                let name = *v
                    .names()
                    .iter()
                    .find(|n| **n == text_name)
                    .unwrap_or_else(|| panic!("unknown piece {text_name} in {text}"));
                assert!(file >= 1, "row too long in {text}");
                board[(r as i32 * w + file - 1) as usize] = Some(Pc {
                    black: letter.is_ascii_uppercase(),
                    name,
                });
                file -= 1;
            }
            assert_eq!(file, 0, "row {r} has the wrong width in {text}");
        }
        let black_to_move = match fields[1] {
            "b" => true,
            "w" => false,
            s => panic!("side {s}"),
        };
        let mut hands = [[0u8; 4]; 2];
        if fields[2] != "-" {
            let chars: Vec<char> = fields[2].chars().collect();
            let mut i = 0;
            while i < chars.len() {
                let mut n = 0u8;
                while chars[i].is_ascii_digit() {
                    n = n * 10 + chars[i].to_digit(10).unwrap() as u8;
                    i += 1;
                }
                let n = n.max(1);
                let c = chars[i];
                i += 1;
                let name = c.to_ascii_uppercase().to_string();
                let pair = v
                    .pair_of(&name)
                    .unwrap_or_else(|| panic!("hand letter {c} in {text}"));
                hands[side_index(c.is_ascii_uppercase())][pair] += n;
            }
        }
        let ply = fields[3].parse().expect("ply");
        let countdown = fields.get(4).map(|f| {
            let black = match &f[..1] {
                "b" => true,
                "w" => false,
                s => panic!("countdown side {s}"),
            };
            (black, f[1..].parse().expect("countdown number"))
        });
        RefPos {
            v,
            w,
            h,
            board,
            hands,
            black_to_move,
            ply,
            countdown,
        }
    }

    /// The canonical SFEN, as NOTATION.md describes it.
    pub fn to_sfen(&self) -> String {
        let mut s = String::new();
        for r in 0..self.h {
            if r > 0 {
                s.push('/');
            }
            let mut empty = 0;
            for f in (1..=self.w).rev() {
                match self.at((f, r)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        if p.black {
                            s.push_str(p.name);
                        } else {
                            s.push_str(&p.name.to_ascii_lowercase());
                        }
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
        }
        s.push(' ');
        s.push(if self.black_to_move { 'b' } else { 'w' });
        s.push(' ');
        let mut hands = String::new();
        for black in [true, false] {
            for (i, &(a, _)) in self.v.pairs().iter().enumerate() {
                let n = self.hands[side_index(black)][i];
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    hands.push_str(&n.to_string());
                }
                if black {
                    hands.push_str(a);
                } else {
                    hands.push_str(&a.to_ascii_lowercase());
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        s.push_str(&hands);
        s.push_str(&format!(" {}", self.ply));
        if let Some((black, n)) = self.countdown {
            s.push_str(&format!(" {}{}", if black { 'b' } else { 'w' }, n));
        }
        s
    }

    /// The repetition key: everything but the ply.
    pub fn key(&self) -> String {
        let mut p = self.clone();
        p.ply = 1;
        p.to_sfen()
    }

    fn on_board(&self, (f, r): (i32, i32)) -> bool {
        f >= 1 && f <= self.w && r >= 0 && r < self.h
    }

    pub fn at(&self, (f, r): (i32, i32)) -> Option<Pc> {
        self.board[(r * self.w + f - 1) as usize]
    }

    fn set(&mut self, (f, r): (i32, i32), p: Option<Pc>) {
        self.board[(r * self.w + f - 1) as usize] = p;
    }

    fn squares(&self) -> Vec<(i32, i32)> {
        let mut v = Vec::new();
        for r in 0..self.h {
            for f in 1..=self.w {
                v.push((f, r));
            }
        }
        v
    }

    /// The squares the piece on `from` attacks (may move to, ignoring what stands there,
    /// except that slides stop at the first piece, which they include).
    fn attacks(&self, from: (i32, i32)) -> Vec<(i32, i32)> {
        let p = self.at(from).expect("a piece");
        let (steps, slides) = movement(p.name);
        // Black's forward is toward rank a (rank index decreasing).
        let orient = |(dx, fwd): (i32, i32)| {
            if p.black {
                (dx, -fwd)
            } else {
                (-dx, fwd)
            }
        };
        let mut out = Vec::new();
        for &d in steps {
            let (df, dr) = orient(d);
            let to = (from.0 + df, from.1 + dr);
            if self.on_board(to) {
                out.push(to);
            }
        }
        for &d in slides {
            let (df, dr) = orient(d);
            let mut to = (from.0 + df, from.1 + dr);
            while self.on_board(to) {
                out.push(to);
                if self.at(to).is_some() {
                    break;
                }
                to = (to.0 + df, to.1 + dr);
            }
        }
        out
    }

    /// Whether a piece of the given side attacks `sq`.
    pub fn attacked_by(&self, sq: (i32, i32), black: bool) -> bool {
        self.squares().into_iter().any(|s| {
            matches!(self.at(s), Some(p) if p.black == black) && self.attacks(s).contains(&sq)
        })
    }

    pub fn king(&self, black: bool) -> (i32, i32) {
        self.squares()
            .into_iter()
            .find(|&s| self.at(s) == Some(Pc { black, name: "K" }))
            .expect("a king")
    }

    pub fn in_check(&self) -> bool {
        let us = self.black_to_move;
        self.attacked_by(self.king(us), !us)
    }

    fn farthest_rank(&self, black: bool) -> i32 {
        if black {
            0
        } else {
            self.h - 1
        }
    }

    /// Kinzoku: a king stands on its farthest rank (the game is over).
    fn entered_king(&self) -> Option<bool> {
        if self.v != Rv::Kinzoku {
            return None;
        }
        [true, false]
            .into_iter()
            .find(|&black| self.king(black).1 == self.farthest_rank(black))
    }

    /// Whether a board move of `p` from `from` to `to` turns it over / promotes.
    fn flips(&self, p: Pc, to: (i32, i32)) -> bool {
        if p.name == "K" {
            return false;
        }
        match self.v {
            // Every move of a non-king piece flips it, capture or not.
            Rv::Kyoto => true,
            // A non-king piece flips exactly when it captures.
            Rv::Micro => self.at(to).is_some(),
            // A soldier arriving on its farthest rank promotes.
            Rv::Kinzoku => p.name == "I" && to.1 == self.farthest_rank(p.black),
        }
    }

    /// Pseudo-legal moves of the side to move (ignoring self-check and game end).
    pub fn pseudo_moves(&self) -> Vec<RefMove> {
        let us = self.black_to_move;
        let mut out = Vec::new();
        for from in self.squares() {
            let Some(p) = self.at(from) else { continue };
            if p.black != us {
                continue;
            }
            for to in self.attacks(from) {
                if matches!(self.at(to), Some(q) if q.black == us) {
                    continue;
                }
                out.push(RefMove::Board {
                    from,
                    to,
                    flip: self.flips(p, to),
                });
            }
        }
        for (i, &(a, b)) in self.v.pairs().iter().enumerate() {
            if self.hands[side_index(us)][i] == 0 {
                continue;
            }
            for name in [a, b] {
                for to in self.squares() {
                    if self.at(to).is_none() {
                        out.push(RefMove::Drop { name, to });
                    }
                }
            }
        }
        out
    }

    /// The position after a move (any pseudo-legal move).
    pub fn apply(&self, m: &RefMove) -> RefPos {
        let us = self.black_to_move;
        let mut next = self.clone();
        let mut captured = false;
        match *m {
            RefMove::Board { from, to, flip } => {
                let p = self.at(from).expect("a piece to move");
                if let Some(q) = self.at(to) {
                    assert_ne!(q.black, us, "captures an own piece");
                    assert_ne!(q.name, "K", "captures a king");
                    captured = true;
                    // A captured piece goes to hand as its pair (Kinzoku: leaves the game).
                    if let Some(pair) = self.v.pair_of(q.name) {
                        next.hands[side_index(us)][pair] += 1;
                    }
                }
                let name = if flip {
                    self.v.other_face(p.name)
                } else {
                    p.name
                };
                next.set(from, None);
                next.set(to, Some(Pc { black: us, name }));
            }
            RefMove::Drop { name, to } => {
                let pair = self.v.pair_of(name).expect("a paired face");
                assert!(next.hands[side_index(us)][pair] > 0);
                next.hands[side_index(us)][pair] -= 1;
                assert!(self.at(to).is_none());
                next.set(to, Some(Pc { black: us, name }));
            }
        }
        next.black_to_move = !us;
        next.ply += 1;
        if self.v == Rv::Kinzoku {
            match self.countdown {
                // The countdown side's own moves count down; the lone king's do not.
                Some((side, n)) => {
                    if side == us && n > 0 {
                        next.countdown = Some((side, n - 1));
                    }
                }
                // Only the first countdown: it starts when none runs yet.
                None => {
                    let them_bare = next
                        .board
                        .iter()
                        .flatten()
                        .all(|p| p.black == us || p.name == "K");
                    if captured && them_bare {
                        next.countdown = Some((us, 5));
                    }
                }
            }
        }
        next
    }

    /// Legal moves ignoring Kinzoku's game-ending adjudication.
    fn legal_unadjudicated(&self) -> Vec<RefMove> {
        let us = self.black_to_move;
        self.pseudo_moves()
            .into_iter()
            .filter(|m| {
                let after = self.apply(m);
                !after.attacked_by(after.king(us), !us)
            })
            .collect()
    }

    /// Whether Kinzoku's rules have already ended the game here (king entry, countdown 0).
    fn decided(&self) -> bool {
        self.entered_king().is_some() || matches!(self.countdown, Some((_, 0)))
    }

    /// Every legal move.
    pub fn legal(&self) -> Vec<RefMove> {
        if self.decided() {
            return Vec::new();
        }
        self.legal_unadjudicated()
    }

    /// Sorted USI texts of the legal moves.
    pub fn legal_usi(&self) -> Vec<String> {
        let mut v: Vec<String> = self.legal().iter().map(|m| m.usi()).collect();
        v.sort();
        v
    }

    fn no_move_outcome(&self) -> Outcome {
        let winner = if self.black_to_move {
            Color::White
        } else {
            Color::Black
        };
        if self.in_check() {
            return Outcome::Win {
                winner,
                reason: WinReason::Checkmate,
            };
        }
        match self.v {
            Rv::Kyoto | Rv::Micro => Outcome::Win {
                winner,
                reason: WinReason::Stalemate,
            },
            Rv::Kinzoku => Outcome::Draw {
                reason: DrawReason::Stalemate,
            },
        }
    }

    /// The result in this position, ignoring repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        let color = |black: bool| if black { Color::Black } else { Color::White };
        if let Some(black) = self.entered_king() {
            return Some(Outcome::Win {
                winner: color(black),
                reason: WinReason::KingEntry,
            });
        }
        if let Some((side, 0)) = self.countdown {
            return Some(if self.legal_unadjudicated().is_empty() {
                self.no_move_outcome()
            } else {
                Outcome::Win {
                    winner: color(!side),
                    reason: WinReason::BareKing,
                }
            });
        }
        if self.legal().is_empty() {
            Some(self.no_move_outcome())
        } else {
            None
        }
    }
}

/// Perft of the model: leaves of the legal-move tree.
pub fn perft(p: &RefPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = p.legal();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|m| perft(&p.apply(m), depth - 1)).sum()
}

/// Repetition as RULES.md states it, over a history of positions (the first is the start)
/// and whether each move gave check. Returns the result at the last position, if the
/// repetition rule ends the game there.
pub fn repetition(v: Rv, history: &[RefPos], checks: &[bool]) -> Option<Outcome> {
    let last = history.last()?;
    let key = last.key();
    let hits: Vec<usize> = history
        .iter()
        .enumerate()
        .filter(|(_, p)| p.key() == key)
        .map(|(i, _)| i)
        .collect();
    let needed = match v {
        Rv::Kyoto | Rv::Kinzoku => 3,
        Rv::Micro => 4,
    };
    if hits.len() < needed {
        return None;
    }
    if v == Rv::Micro {
        // The repeated cycle: from the first occurrence to now. A side whose every move in
        // it gave check loses.
        let first = hits[0];
        let mut all_check = [true, true];
        let mut moved = [false, false];
        for (i, &check) in checks.iter().enumerate().skip(first) {
            let s = side_index(history[i].black_to_move);
            moved[s] = true;
            all_check[s] &= check;
        }
        let checker = |s: usize| moved[s] && all_check[s];
        match (checker(0), checker(1)) {
            (true, false) => {
                return Some(Outcome::Win {
                    winner: Color::White,
                    reason: WinReason::PerpetualCheck,
                })
            }
            (false, true) => {
                return Some(Outcome::Win {
                    winner: Color::Black,
                    reason: WinReason::PerpetualCheck,
                })
            }
            _ => {}
        }
    }
    Some(Outcome::Draw {
        reason: DrawReason::Repetition,
    })
}
