//! The SVG diagrams rendered by a real renderer (resvg) and the pixels checked against the
//! layout that `kshogi_notation::svg` documents, worked out by hand here: a square is 60 px,
//! a hand entry 50, the board's top-left corner at (74, 40) with hands and (12, 40)
//! without; Black's hand column starts 40 px right of the board.
//!
//! Fonts: the renderer is given two small fonts shipped with these tests
//! (`tests/data/fonts`: DejaVu Sans for the caption and digits, a subset of Droid Sans
//! Fallback for the kanji) and never the system's, so the pixels are the same on every
//! machine, and the kanji and the caption are drawn on a bare CI machine too. Most checks
//! look at shapes that need no font at all (the board, the grid, the piece shapes and
//! their orientation, the marks, the highlight, the arrow); those of the kanji and the
//! caption rely on the shipped fonts.

use kshogi_core::{Color, Position, Variant};
use kshogi_notation::{parse_game, parse_usi, svg, to_sfen, RankLabels, SvgStyle};
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;
use kshogi_variants::{with_variant, VariantKind};
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;
use std::sync::{Arc, OnceLock};

type Rgb = (u8, u8, u8);

const BOARD: Rgb = (0xe9, 0xc6, 0x85);
const HIGHLIGHT: Rgb = (0xc9, 0xc6, 0x4e);
const PIECE: Rgb = (0xfb, 0xe7, 0xb5);
const WHITE: Rgb = (0xff, 0xff, 0xff);

/// The two test fonts, loaded once: DejaVu Sans (also the generic sans-serif) and the
/// Droid Sans Fallback subset as the generic serif, which the kanji's font list ends with.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(include_bytes!("data/fonts/DejaVuSans-ascii.ttf").to_vec());
        db.load_font_data(include_bytes!("data/fonts/DroidSansFallback-shogi.ttf").to_vec());
        assert_eq!(db.len(), 2, "the test fonts load");
        db.set_sans_serif_family("DejaVu Sans");
        db.set_serif_family("Droid Sans Fallback");
        Arc::new(db)
    })
    .clone()
}

/// A rendered picture.
struct Image {
    pixmap: Pixmap,
}

impl Image {
    fn render(svg: &str) -> Image {
        let opt = usvg::Options {
            fontdb: fonts(),
            ..usvg::Options::default()
        };
        let tree = usvg::Tree::from_str(svg, &opt).expect("the SVG parses");
        let size = tree.size().to_int_size();
        let mut pixmap = Pixmap::new(size.width(), size.height()).expect("a non-empty picture");
        resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
        Image { pixmap }
    }

    /// Width and height read back from the PNG file's header.
    fn png_size(&self, name: &str) -> (u32, u32) {
        let png = self.pixmap.encode_png().expect("PNG encoding");
        // Kept for people to look at.
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("svg_render");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), &png).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(&png[12..16], b"IHDR");
        let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        (be(&png[16..20]), be(&png[20..24]))
    }

    fn at(&self, x: f64, y: f64) -> Rgb {
        let p = self
            .pixmap
            .pixel(x.round() as u32, y.round() as u32)
            .unwrap_or_else(|| panic!("({x}, {y}) is outside the picture"));
        // The background is opaque, so premultiplied is plain colour.
        assert_eq!(p.alpha(), 255);
        (p.red(), p.green(), p.blue())
    }

    fn is(&self, x: f64, y: f64, colour: Rgb) -> bool {
        let (r, g, b) = self.at(x, y);
        let close = |a: u8, b: u8| a.abs_diff(b) <= 4;
        close(r, colour.0) && close(g, colour.1) && close(b, colour.2)
    }

    /// The darkest pixel (by r + g + b) of the square of side `2 * half` around (x, y).
    fn darkest(&self, x: f64, y: f64, half: f64) -> u32 {
        let mut min = u32::MAX;
        let (x0, y0) = ((x - half).round() as u32, (y - half).round() as u32);
        let (x1, y1) = ((x + half).round() as u32, (y + half).round() as u32);
        for yy in y0..=y1 {
            for xx in x0..=x1 {
                let p = self.pixmap.pixel(xx, yy).unwrap();
                min = min.min(u32::from(p.red()) + u32::from(p.green()) + u32::from(p.blue()));
            }
        }
        min
    }

    fn is_green(&self, x: f64, y: f64) -> bool {
        let (r, g, b) = self.at(x, y);
        i32::from(g) > i32::from(r) + 30 && i32::from(g) > i32::from(b) + 20
    }

    fn any_green(&self) -> bool {
        (0..self.pixmap.height())
            .any(|y| (0..self.pixmap.width()).any(|x| self.is_green(f64::from(x), f64::from(y))))
    }
}

/// The board of a variant as the tests see it: `w` files, `h` ranks, hands or not.
#[derive(Copy, Clone)]
struct Board {
    w: u8,
    h: u8,
    hands: bool,
}

impl Board {
    fn x0(self) -> f64 {
        if self.hands {
            74.0
        } else {
            12.0
        }
    }

    /// The centre of the square of `file` (1 = rightmost) and `rank` (0 = top).
    fn centre(self, file: u8, rank: u8) -> (f64, f64) {
        (
            self.x0() + f64::from(self.w - file) * 60.0 + 30.0,
            40.0 + f64::from(rank) * 60.0 + 30.0,
        )
    }

    /// The centre of White's hand entry `i` (0: the mark).
    fn white_hand(self, i: usize) -> (f64, f64) {
        (37.0, 65.0 + 50.0 * i as f64)
    }

    /// The centre of Black's hand entry `j` of `n` kinds held (1 = first in slot order),
    /// or its mark (`j` = 0): the mark ends at the board's bottom, the kinds above it.
    fn black_hand(self, j: usize, n: usize) -> (f64, f64) {
        let x = self.x0() + f64::from(self.w) * 60.0 + 40.0 + 25.0;
        let bottom = 40.0 + f64::from(self.h) * 60.0;
        let up = if j == 0 { 0 } else { n + 1 - j };
        (x, bottom - 25.0 - 50.0 * up as f64)
    }
}

/// Which side's piece stands on a cell of side `k` centred on (x, y), read from the
/// pentagon's shape: Black's points up (wide at the bottom), White's down.
fn piece_on(img: &Image, (x, y): (f64, f64), k: f64) -> Option<&'static str> {
    // Inside near the wide end, outside near the narrow end's corner, away from the glyph.
    let wide_low = img.is(x - 0.28 * k, y + 0.34 * k, PIECE);
    let wide_high = img.is(x - 0.28 * k, y - 0.34 * k, PIECE);
    match (wide_low, wide_high) {
        (true, false) => Some("black"),
        (false, true) => Some("white"),
        (false, false) => None,
        (true, true) => panic!("({x}, {y}): piece colour at both ends"),
    }
}

/// The pieces of an SFEN board field as (file, rank, side), by hand: ranks from the top,
/// each from the leftmost file, digits for empty squares, `+` before a promoted letter.
fn sfen_pieces(board: &str, width: u8) -> Vec<(u8, u8, &'static str)> {
    let mut out = Vec::new();
    for (rank, row) in board.split('/').enumerate() {
        let mut file = width;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                file -= d as u8;
            } else if c != '+' {
                let side = if c.is_ascii_uppercase() {
                    "black"
                } else {
                    "white"
                };
                out.push((file, rank as u8, side));
                file = file.wrapping_sub(1);
            }
        }
    }
    out
}

/// (variant name, start board, files, ranks, hand slots, picture size in px).
type StartRow = (&'static str, &'static str, u8, u8, usize, (u32, u32));

/// The picture size of a start position by the layout worked out by hand: width 12 + (50 +
/// 12 if hands) + 60 * files + 28 + (12 + 50 if hands) + 12, height 40 + max(60 * ranks,
/// 50 * (slots + 1)) + 30 + 12, for a caption of one line (each more line adds 18 px).
fn start_size(files: u8, ranks: u8, slots: usize) -> (u32, u32) {
    let hands = if slots > 0 { 62 } else { 0 };
    let width = 12 + hands + 60 * u32::from(files) + 28 + hands + 12;
    let height = 40 + (60 * u32::from(ranks)).max(50 * (slots as u32 + 1)) + 30 + 12;
    (width, height)
}

/// Every registered variant's start position: the picture's size, the board colour and
/// the grid, and each piece where the start SFEN puts it, the right way round.
#[test]
fn every_variant_start_renders_at_its_size_with_its_pieces() {
    // The variants worked out by hand: (name, start board as README gives it, files,
    // ranks, hand slots, size by `start_size`), with 18 px more for Kinzoku's caption on
    // two lines (on 208 px between the margins; nothing_is_cut_off_in_any_variant). A
    // variant registered later without a row here is checked with its own start, shape and
    // hand slots, and the size's width by `start_size` (its caption may take more lines).
    let table: [StartRow; 6] = [
        ("kyoto", "pgkst/5/5/5/TSKGP", 5, 5, 4, (476, 382)),
        ("micro", "kbgs/p3/4/3P/SGBK", 4, 5, 4, (416, 382)),
        ("kinzoku", "cks/1i1/3/1I1/SKC", 3, 5, 0, (232, 400)),
        ("minishogi", "rbsgk/4p/5/P4/KGSBR", 5, 5, 5, (476, 382)),
        ("dobutsu", "rkb/1p1/1P1/BKR", 3, 4, 3, (356, 322)),
        (
            "tori",
            "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR",
            7,
            7,
            6,
            (596, 502),
        ),
    ];
    for row in &table {
        assert!(
            VariantKind::from_name(row.0).is_some(),
            "{}: a row of no registered variant",
            row.0
        );
        assert_eq!(
            start_size(row.2, row.3, row.4).0,
            row.5 .0,
            "{}: the width by hand",
            row.0
        );
    }
    for kind in VariantKind::ALL {
        let name = kind.name();
        let (start_text, slots, picture) = with_variant!(kind, V => {
            let start = Position::<V>::start();
            (to_sfen(&start), V::tables().slots,
             svg(&start, None, None, SvgStyle::DEFAULT))
        });
        let board_of_start = start_text.split(' ').next().unwrap_or("").to_string();
        let img = Image::render(&picture);
        let size = img.png_size(&format!("{name}_start"));
        let (w, h) = kind.shape();
        let board_text = match table.iter().find(|row| row.0 == name) {
            Some(&(_, board_text, files, ranks, row_slots, row_size)) => {
                assert_eq!((w, h, slots), (files, ranks, row_slots), "{name}");
                assert_eq!(board_of_start, board_text, "{name}: the start of README");
                assert_eq!(size, row_size, "{name}");
                board_text.to_string()
            }
            None => {
                let (width, height) = start_size(w, h, slots);
                assert_eq!(size.0, width, "{name}");
                assert!(
                    size.1 >= height && (size.1 - height) % 18 == 0,
                    "{name}: {size:?}, {height} for one caption line"
                );
                board_of_start
            }
        };
        let board_text = board_text.as_str();
        let board = Board {
            w,
            h,
            hands: slots > 0,
        };
        let expected = sfen_pieces(board_text, w);
        for rank in 0..h {
            for file in 1..=w {
                let c = board.centre(file, rank);
                let want = expected
                    .iter()
                    .find(|&&(f, r, _)| f == file && r == rank)
                    .map(|&(_, _, side)| side);
                assert_eq!(piece_on(&img, c, 60.0), want, "{name} {file}{rank}");
                // The corner of every square shows the board (nothing is highlighted).
                assert!(img.is(c.0 - 26.0, c.1 - 26.0, BOARD), "{name} {file}{rank}");
            }
        }
        // The grid: each line between squares is darker than the board around it.
        let board_sum = u32::from(BOARD.0) + u32::from(BOARD.1) + u32::from(BOARD.2);
        let (left, top) = (board.x0(), 40.0);
        for i in 0..=w {
            let x = left + f64::from(i) * 60.0;
            let d = img.darkest(x, top + 30.0, 1.0);
            assert!(d + 150 < board_sum, "{name}: file line {i}: {d}");
            assert!(img.is(x + 8.0, top + 30.0, BOARD) || i == w, "{name}: {i}");
        }
        for i in 0..=h {
            let y = top + f64::from(i) * 60.0;
            let d = img.darkest(left + 5.0, y, 1.0);
            assert!(d + 150 < board_sum, "{name}: rank line {i}: {d}");
        }
        // The hands' marks: Black's filled dark, White's white with a dark edge.
        if board.hands {
            let (x, y) = board.black_hand(0, 0);
            assert!(img.darkest(x, y + 3.0, 2.0) < 120, "{name}: Black's mark");
            let (x, y) = board.white_hand(0);
            assert!(
                img.is(x, y + 3.0, WHITE),
                "{name}: White's mark is white inside"
            );
            assert!(
                img.darkest(x, y + 12.6, 1.5) < 300,
                "{name}: and has an edge"
            );
        }
        assert!(!img.any_green(), "{name}: no arrow was asked for");
    }
}

/// A Kyoto game: the last move's squares are highlighted, the hands hold their pieces the
/// right way round, and a piece that flipped shows on its square.
#[test]
fn last_move_and_hands() {
    // As in the text diagram's doc example: Black's rook took White's tokin on 1a and
    // turned back into a pawn there; White's rook took Black's tokin on 5e (5b5e+, the
    // last move) and turned into a pawn. Each side holds one tokin.
    let game = parse_game::<Kyoto>("startpos moves 1e1d+ 5a5b+ 1d1a+ 5b5e+").unwrap();
    let last = game.moves().last().copied();
    let picture = svg(game.position(), last, None, SvgStyle::DEFAULT);
    let img = Image::render(&picture);
    assert_eq!(img.png_size("kyoto_last_move"), (476, 382));
    let board = Board {
        w: 5,
        h: 5,
        hands: true,
    };
    for rank in 0..5 {
        for file in 1..=5 {
            let (x, y) = board.centre(file, rank);
            let marked = file == 5 && (rank == 1 || rank == 4);
            let colour = if marked { HIGHLIGHT } else { BOARD };
            assert!(img.is(x - 26.0, y - 26.0, colour), "{file}{rank}");
            assert!(img.is(x + 26.0, y + 26.0, colour), "{file}{rank}");
        }
    }
    // 5b is empty and highlighted at its centre too; 5e holds White's piece.
    assert!(img.is(board.centre(5, 1).0, board.centre(5, 1).1, HIGHLIGHT));
    assert_eq!(piece_on(&img, board.centre(5, 4), 60.0), Some("white"));
    assert_eq!(piece_on(&img, board.centre(1, 0), 60.0), Some("black"));
    assert_eq!(piece_on(&img, board.centre(1, 4), 60.0), None);
    // One kind in each hand: White's below its mark, Black's above its mark.
    assert_eq!(piece_on(&img, board.white_hand(1), 50.0), Some("white"));
    assert_eq!(piece_on(&img, board.white_hand(2), 50.0), None);
    assert_eq!(piece_on(&img, board.black_hand(1, 1), 50.0), Some("black"));
    assert_eq!(piece_on(&img, board.black_hand(1, 2), 50.0), None);
}

/// The arrow: green along its shaft and at its head, for a move and for a drop from the
/// hand; and nowhere else.
#[test]
fn arrows_for_a_move_and_a_drop() {
    let board = Board {
        w: 5,
        h: 5,
        hands: true,
    };
    // Kyoto start, 1e1d+: from (344, 310) to (344, 250); the arrow starts 15 px up from
    // the origin's centre (y 295) and its tip stops 18 px short of the destination's
    // (y 268); its head is 0.6 of those 27 px long (y 268 to 284.2).
    let pos = Position::<Kyoto>::start();
    let mv = parse_usi(&pos, "1e1d+").unwrap();
    let img = Image::render(&svg(&pos, None, Some(mv), SvgStyle::DEFAULT));
    img.png_size("kyoto_arrow_move");
    let (from, to) = (board.centre(1, 4), board.centre(1, 3));
    assert_eq!((from, to), ((344.0, 310.0), (344.0, 250.0)));
    assert!(img.is_green(344.0, 290.0), "{:?}", img.at(344.0, 290.0));
    assert!(
        img.is_green(344.0, 272.0),
        "head: {:?}",
        img.at(344.0, 272.0)
    );
    assert!(
        !img.is_green(344.0, 262.0),
        "the tip stops short of the centre"
    );
    // Beside the shaft (it is 9 px wide) the board and the pieces show as before.
    assert!(!img.is_green(344.0 + 12.0, 290.0));
    assert!(!img.is_green(board.centre(2, 3).0, 270.0));

    // A gold drop on 5b from Black's hand (one kind held: the entry above the mark).
    let pos = parse_game::<Kyoto>("k4/5/1S3/5/4K b G 9").unwrap();
    let pos = *pos.position();
    let mv = parse_usi(&pos, "G*5b").unwrap();
    let style = SvgStyle {
        ranks: RankLabels::Letters,
        caption: false,
    };
    let plain = Image::render(&svg(&pos, None, None, style));
    assert!(!plain.any_green());
    let img = Image::render(&svg(&pos, None, Some(mv), style));
    assert_eq!(img.png_size("kyoto_arrow_drop"), (476, 352));
    let (sx, sy) = board.black_hand(1, 1);
    let (tx, ty) = board.centre(5, 1);
    for t in [0.2, 0.5, 0.75, 0.93] {
        let (x, y) = (sx + (tx - sx) * t, sy + (ty - sy) * t);
        assert!(img.is_green(x, y), "at {t}: ({x}, {y}) {:?}", img.at(x, y));
    }
    // Far from the arrow nothing changed.
    assert_eq!(
        img.at(board.centre(1, 4).0, 60.0),
        plain.at(board.centre(1, 4).0, 60.0)
    );
}

/// Every piece of the start position has ink (its kanji) in the middle, and the empty
/// squares none.
#[test]
fn kanji_are_drawn() {
    let board = Board {
        w: 5,
        h: 5,
        hands: true,
    };
    let img = Image::render(&svg(
        &Position::<Kyoto>::start(),
        None,
        None,
        SvgStyle::DEFAULT,
    ));
    for rank in 0..5 {
        for file in 1..=5 {
            let (x, y) = board.centre(file, rank);
            let ink = img.darkest(x, y, 10.0) < 200;
            let occupied = rank == 0 || rank == 4;
            assert_eq!(ink, occupied, "{file}{rank}");
        }
    }
}

/// The test font has every piece's kanji of every variant: each renders with ink, and
/// differently from a character the font lacks (which would be drawn as nothing).
#[test]
fn every_piece_kanji_is_in_the_test_font() {
    let one = |c: char| {
        let text = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"40\">\
             <rect width=\"40\" height=\"40\" fill=\"#fff\"/>\
             <text x=\"20\" y=\"32\" font-size=\"30\" font-family=\"serif\" \
             text-anchor=\"middle\">{c}</text></svg>"
        );
        Image::render(&text)
    };
    for kind in VariantKind::ALL {
        with_variant!(kind, V => {
            for def in V::PIECES {
                let img = one(def.kanji);
                assert!(
                    img.darkest(20.0, 20.0, 15.0) < 200,
                    "{} {}: {} is not in tests/data/fonts/DroidSansFallback-shogi.ttf \
                     (see the README there)",
                    kind.name(),
                    def.name,
                    def.kanji
                );
            }
        });
    }
}

/// Whether a pixel is the kanji's ink (#111111), not the arrow's green nor a mix of them.
fn is_ink((r, g, b): Rgb) -> bool {
    r < 60 && g < 60 && b < 60
}

/// The pixels of the square of side `2 * half` around (x, y) that are ink.
fn ink_in(img: &Image, (x, y): (f64, f64), half: f64) -> Vec<(u32, u32)> {
    let (x0, y0) = ((x - half).round() as u32, (y - half).round() as u32);
    let (x1, y1) = ((x + half).round() as u32, (y + half).round() as u32);
    let mut out = Vec::new();
    for yy in y0..=y1 {
        for xx in x0..=x1 {
            if is_ink(img.at(f64::from(xx), f64::from(yy))) {
                out.push((xx, yy));
            }
        }
    }
    out
}

/// A one-square capture with an arrow: both pieces' kanji keep their ink (drawn over the
/// arrow), and the arrow still shows between them with its head.
#[test]
fn a_one_square_arrow_leaves_both_kanji_readable() {
    let board = Board {
        w: 5,
        h: 5,
        hands: true,
    };
    // Black's pawn on 1d takes White's pawn on 1c (and turns into a rook, as every Kyoto
    // move turns a piece over).
    let game = parse_game::<Kyoto>("k4/5/4p/4P/K4 b - 1").unwrap();
    let pos = *game.position();
    let mv = parse_usi(&pos, "1d1c+").unwrap();
    let plain = Image::render(&svg(&pos, None, None, SvgStyle::DEFAULT));
    let img = Image::render(&svg(&pos, None, Some(mv), SvgStyle::DEFAULT));
    img.png_size("kyoto_one_square_arrow");
    let (from, to) = (board.centre(1, 3), board.centre(1, 2));
    assert_eq!((from, to), ((344.0, 250.0), (344.0, 190.0)));
    for (name, c) in [("origin", from), ("destination", to)] {
        let glyph = ink_in(&plain, c, 18.0);
        assert!(
            glyph.len() > 40,
            "{name}: the kanji has ink: {}",
            glyph.len()
        );
        let kept = glyph
            .iter()
            .filter(|&&(x, y)| is_ink(img.at(f64::from(x), f64::from(y))))
            .count();
        assert!(
            kept * 100 >= glyph.len() * 95,
            "{name}: {kept} of {} ink pixels are still ink under the arrow",
            glyph.len()
        );
    }
    // The arrow between the pieces: green on the line between the squares (y 220) and
    // a little either side of it, and wider than the shaft (the head) near y 225.
    for y in [214.0, 220.0, 226.0] {
        assert!(img.is_green(344.0, y), "{y}: {:?}", img.at(344.0, y));
    }
    // The head: its base 16.2 px behind the tip (0.6 of the 27 px arrow), 26 px wide there.
    assert!(
        img.is_green(344.0 + 7.0, 222.0),
        "the head is wider than the shaft"
    );
    assert!(!img.is_green(344.0 + 7.0, 228.0), "the shaft is 9 px wide");
    assert!(!plain.any_green());
}

/// A Micro drop of a gold/rook pair: the arrow starts at the hand entry, and that entry
/// shows the face dropped (a rook for R*3c, the gold for G*3c).
#[test]
fn a_drop_arrow_starts_at_the_face_dropped() {
    let board = Board {
        w: 4,
        h: 5,
        hands: true,
    };
    let game = parse_game::<Micro>("k3/4/4/4/3K b G 1").unwrap();
    let pos = *game.position();
    let plain_svg = svg(&pos, None, None, SvgStyle::DEFAULT);
    let plain = Image::render(&plain_svg);
    // Black holds one kind: the entry above its mark. 3c: the second column, third row.
    let hand = board.black_hand(1, 1);
    let dest = board.centre(3, 2);
    assert_eq!((hand, dest), ((379.0, 265.0), (164.0, 190.0)));
    let plain_ink = ink_in(&plain, hand, 12.0);
    assert!(plain_ink.len() > 20, "the hand piece has a kanji");
    for (usi, kanji, same_as_plain) in [("G*3c", "金", true), ("R*3c", "飛", false)] {
        let mv = parse_usi(&pos, usi).unwrap();
        // The kanji is the dropped face's in the piece table, read independently here.
        let def = Micro::PIECES
            .iter()
            .find(|d| d.letter == usi.chars().next().unwrap() && !d.promoted)
            .unwrap();
        assert_eq!(def.kanji.to_string(), kanji, "{usi}");
        let picture = svg(&pos, None, Some(mv), SvgStyle::DEFAULT);
        let doc = roxmltree::Document::parse(&picture).unwrap();
        let line = doc
            .descendants()
            .find(|n| n.has_tag_name("line"))
            .expect("an arrow");
        let at = |n: roxmltree::Node, a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
        let start = (at(line, "x1"), at(line, "y1"));
        // The shaft starts a quarter of the hand cell (12.5 px) from the entry's centre,
        // towards the destination.
        let d = ((dest.0 - hand.0).powi(2) + (dest.1 - hand.1).powi(2)).sqrt();
        let want = (
            hand.0 + (dest.0 - hand.0) / d * 12.5,
            hand.1 + (dest.1 - hand.1) / d * 12.5,
        );
        assert!(
            (start.0 - want.0).abs() < 0.01 && (start.1 - want.1).abs() < 0.01,
            "{usi}: {start:?} {want:?}"
        );
        // The kanji drawn at that hand entry is the dropped face's.
        let glyph = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .find(|n| {
                n.attribute("class").is_some_and(|c| c.starts_with("glyph"))
                    && (at(*n, "x") - hand.0).abs() < 1.0
                    && (at(*n, "y") - hand.1).abs() < 25.0
            })
            .expect("a kanji at the hand entry");
        assert_eq!(glyph.text(), Some(kanji), "{usi}");
        // And in pixels: the entry's ink is the plain picture's for the gold (face A,
        // as SFEN writes the hand), another character's for the rook.
        let img = Image::render(&picture);
        img.png_size(&format!("micro_drop_{}", &usi[..1]));
        assert_eq!(
            ink_in(&img, hand, 12.0) == plain_ink,
            same_as_plain,
            "{usi}"
        );
        assert!(
            img.is_green(hand.0 - 22.0, hand.1 - 9.0),
            "{usi}: the shaft"
        );
    }
}

/// The numbers of an attribute (`points="1,2 3,4"` gives 1, 2, 3, 4).
fn numbers(value: &str) -> Vec<f64> {
    value
        .split([',', ' '])
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap_or_else(|_| panic!("a number: {s}")))
        .collect()
}

/// Every coordinate of every element of `picture` lies inside its view box, a margin of
/// `margin` from the edge; returns (width, height).
fn coordinates_inside(name: &str, picture: &str, margin: f64) -> (f64, f64) {
    let doc = roxmltree::Document::parse(picture).unwrap();
    let root = doc.root_element();
    let view = numbers(root.attribute("viewBox").unwrap());
    let (w, h) = (view[2], view[3]);
    assert_eq!(numbers(root.attribute("width").unwrap()), [w], "{name}");
    for n in doc.descendants().filter(|n| n.is_element()) {
        if n == root || n.attribute("class") == Some("background") {
            continue;
        }
        let attr = |a: &str| n.attribute(a).map(numbers).unwrap_or_default();
        let mut xs = [attr("x"), attr("x1"), attr("x2")].concat();
        let mut ys = [attr("y"), attr("y1"), attr("y2")].concat();
        let pts = attr("points");
        xs.extend(pts.iter().step_by(2));
        ys.extend(pts.iter().skip(1).step_by(2));
        if n.has_tag_name("rect") && !xs.is_empty() {
            xs.push(xs[0] + attr("width")[0]);
            ys.push(ys[0] + attr("height")[0]);
        }
        for &x in &xs {
            assert!(x >= margin && x <= w - margin, "{name}: x {x} of {n:?}");
        }
        for &y in &ys {
            assert!(y >= margin && y <= h - margin, "{name}: y {y} of {n:?}");
        }
    }
    (w, h)
}

/// Renders `picture` and checks that nothing reaches its edge: the band of `band` px round
/// it is background only. Returns the image.
fn nothing_at_the_edge(name: &str, picture: &str, band: u32) -> Image {
    let img = Image::render(picture);
    let (w, h) = img.png_size(name);
    for y in 0..h {
        for x in 0..w {
            if x < band || y < band || x >= w - band || y >= h - band {
                assert!(
                    img.is(f64::from(x), f64::from(y), WHITE),
                    "{name}: ({x}, {y}) at the edge is {:?}",
                    img.at(f64::from(x), f64::from(y))
                );
            }
        }
    }
    img
}

/// The leftmost and rightmost columns with ink (darker than the board) in rows `y0..y1`.
fn ink_columns(img: &Image, y0: u32, y1: u32) -> Option<(u32, u32)> {
    let w = img.pixmap.width();
    let dark = |x: u32| (y0..y1).any(|y| img.darkest(f64::from(x), f64::from(y), 0.0) < 300);
    let left = (0..w).find(|&x| dark(x))?;
    let right = (0..w).rev().find(|&x| dark(x))?;
    Some((left, right))
}

/// The caption of `picture` as its lines, in order.
fn caption_lines(picture: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(picture).unwrap();
    let caption = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("caption"))
        .expect("a caption");
    caption
        .children()
        .filter(|n| n.has_tag_name("tspan"))
        .map(|n| n.text().unwrap_or_default().to_string())
        .collect()
}

/// Every registered variant, at its start, with White to move at ply 9999, and with every
/// piece in Black's hand or in White's: every coordinate is inside the picture, nothing is
/// drawn in the outer 6 px, the caption's ink lies inside the 12 px margin, and the
/// caption says all of its text (its lines joined).
#[test]
fn nothing_is_cut_off_in_any_variant() {
    for kind in VariantKind::ALL {
        with_variant!(kind, V => check_nothing_cut_off::<V>(kind.name()));
    }
    // The longest caption there is: a Kinzoku countdown, on the narrowest board.
    let game = parse_game::<kshogi_rules_kinzoku::Kinzoku>("3/1k1/I2/1K1/3 w - 34 b2").unwrap();
    let picture = svg(game.position(), None, None, SvgStyle::DEFAULT);
    check_picture(
        "kinzoku_countdown",
        &picture,
        "Kinzoku Shogi, ply 34, white to move, countdown: black must win within its next \
         2 moves (b2)",
    );
}

/// The positions of [`nothing_is_cut_off_in_any_variant`] for variant `V`.
fn check_nothing_cut_off<V: Variant>(name: &str) {
    let start = to_sfen(&Position::<V>::start());
    let fields: Vec<&str> = start.split(' ').collect();
    let late = format!("{} w {} 9999", fields[0], fields[2]);
    let game = parse_game::<V>(&late).unwrap_or_else(|e| panic!("{late}: {e}"));
    let mut cases = vec![(
        format!("{name}_late"),
        svg(game.position(), None, None, SvgStyle::DEFAULT),
        format!("{}, ply 9999, white to move", V::DISPLAY_NAME),
    )];
    let picture = svg(&Position::<V>::start(), None, None, SvgStyle::DEFAULT);
    let caption = format!("{}, ply 1, black to move", V::DISPLAY_NAME);
    cases.push((format!("{name}_start"), picture, caption));
    if V::tables().slots > 0 {
        // Every piece but the kings in one hand: the board field with the kings alone,
        // and each captured piece by its hand letter (face A, Black's upper case).
        let pos = Position::<V>::start();
        let g = V::GEOMETRY;
        let mut board = String::new();
        let mut held = String::new();
        for rank in 0..g.height {
            let mut empty = 0;
            for file in (1..=g.width).rev() {
                let piece = g.square(file, rank).and_then(|sq| pos.piece_at(sq));
                match piece {
                    Some(p) if V::PIECES[p.kind.index()].royal => {
                        if empty > 0 {
                            board.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let c = V::PIECES[p.kind.index()].letter;
                        board.push(if p.color == Color::Black {
                            c
                        } else {
                            c.to_ascii_lowercase()
                        });
                    }
                    Some(p) => {
                        let slot = V::PIECES[p.kind.index()].hand_slot.unwrap();
                        let face = V::tables().slot_faces[usize::from(slot)][0];
                        held.push(V::PIECES[face.index()].letter);
                        empty += 1;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
            }
            if rank + 1 < g.height {
                board.push('/');
            }
        }
        for (side, hand) in [
            ("black", held.clone()),
            ("white", held.to_ascii_lowercase()),
        ] {
            let sfen = format!("{board} b {hand} 1");
            let game = parse_game::<V>(&sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
            let picture = svg(game.position(), None, None, SvgStyle::DEFAULT);
            // Every kind the start position has off the kings is held, each twice or more
            // (both sides' pieces), so the hand shows one entry per kind, with counts.
            assert!(picture.contains("class=\"count\""), "{name}: {sfen}");
            let caption = format!("{}, ply 1, black to move", V::DISPLAY_NAME);
            cases.push((format!("{name}_{side}_hand_full"), picture, caption));
        }
    }
    for (case, picture, caption) in cases {
        check_picture(&case, &picture, &caption);
    }
}

/// The checks of [`nothing_is_cut_off_in_any_variant`] on one picture.
fn check_picture(case: &str, picture: &str, caption: &str) {
    let (w, h) = coordinates_inside(case, picture, 6.0);
    let img = nothing_at_the_edge(case, picture, 6);
    let lines = caption_lines(picture);
    assert_eq!(lines.join(" "), caption, "{case}");
    // The caption's rows: from the caption row's top (20 px above the first baseline; 3 px
    // further down, clear of the board's frame) to the picture's bottom margin.
    let doc = roxmltree::Document::parse(picture).unwrap();
    let first_y: f64 = doc
        .descendants()
        .find(|n| n.has_tag_name("tspan"))
        .and_then(|n| n.attribute("y"))
        .unwrap()
        .parse()
        .unwrap();
    let top = (first_y - 17.0) as u32;
    let bottom = (h - 12.0) as u32;
    let (left, right) = ink_columns(&img, top, bottom)
        .unwrap_or_else(|| panic!("{case}: the caption has no ink (is the test font loaded?)"));
    assert!(
        f64::from(left) >= 12.0 - 1.0 && f64::from(right) <= w - 12.0 + 1.0,
        "{case}: the caption's ink spans x {left}..{right} of {w}: {lines:?}"
    );
}
