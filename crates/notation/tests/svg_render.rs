//! The SVG diagrams rendered by a real renderer (resvg) and the pixels checked against the
//! layout that `kshogi_notation::svg` documents, worked out by hand here: a square is 60 px,
//! a hand entry 50, the board's top-left corner at (74, 40) with hands and (12, 40)
//! without; Black's hand column starts 40 px right of the board.
//!
//! Fonts: the system fonts are loaded, but these checks do not depend on glyph shapes (a
//! machine without a CJK font, such as a bare CI machine, renders the kanji as nothing or
//! as boxes): they look at the board, the grid, the piece shapes and their orientation,
//! the side marks, the last move's highlight and the arrow. Where a CJK font is installed
//! (`fc-list :lang=ja` lists one), `kanji_are_drawn_where_a_cjk_font_exists` also checks
//! that every piece has ink in the middle; without one it says so and checks nothing.

use kshogi_core::{Position, Variant};
use kshogi_notation::{parse_game, parse_usi, svg, RankLabels, SvgStyle};
use kshogi_registry::{with_variant, VariantKind};
use kshogi_rules_kyoto::Kyoto;
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;
use std::sync::{Arc, OnceLock};

type Rgb = (u8, u8, u8);

const BOARD: Rgb = (0xe9, 0xc6, 0x85);
const HIGHLIGHT: Rgb = (0xc9, 0xc6, 0x4e);
const PIECE: Rgb = (0xfb, 0xe7, 0xb5);
const WHITE: Rgb = (0xff, 0xff, 0xff);

/// The system fonts, loaded once.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_system_fonts();
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

/// Every registered variant's start position: the picture's size, the board colour and
/// the grid, and each piece where the start SFEN (README) puts it, the right way round.
#[test]
fn every_variant_start_renders_at_its_size_with_its_pieces() {
    // (name, start board, files, ranks, hand slots, size) with the size by hand:
    // width 12 + (50 + 12 if hands) + 60 * files + 28 + (12 + 50 if hands) + 12, height
    // 40 + max(60 * ranks, 50 * (slots + 1)) + 30 + 12.
    let table: [StartRow; 5] = [
        ("kyoto", "pgkst/5/5/5/TSKGP", 5, 5, 4, (476, 382)),
        ("micro", "kbgs/p3/4/3P/SGBK", 4, 5, 4, (416, 382)),
        ("kinzoku", "cks/1i1/3/1I1/SKC", 3, 5, 0, (232, 382)),
        ("minishogi", "rbsgk/4p/5/P4/KGSBR", 5, 5, 5, (476, 382)),
        ("dobutsu", "rkb/1p1/1P1/BKR", 3, 4, 3, (356, 322)),
    ];
    assert_eq!(
        VariantKind::ALL.len(),
        table.len(),
        "a variant without a row here"
    );
    for kind in VariantKind::ALL {
        let &(name, board_text, w, h, slots, size) = table
            .iter()
            .find(|row| row.0 == kind.name())
            .unwrap_or_else(|| panic!("no row for {}", kind.name()));
        let picture = with_variant!(kind, V => {
            assert_eq!(V::tables().slots, slots, "{name}");
            svg(&Position::<V>::start(), None, None, SvgStyle::DEFAULT)
        });
        let img = Image::render(&picture);
        assert_eq!(img.png_size(&format!("{name}_start")), size, "{name}");
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
    // Kyoto start, 1e1d+: from (344, 310) to (344, 250).
    let pos = Position::<Kyoto>::start();
    let mv = parse_usi(&pos, "1e1d+").unwrap();
    let img = Image::render(&svg(&pos, None, Some(mv), SvgStyle::DEFAULT));
    img.png_size("kyoto_arrow_move");
    let (from, to) = (board.centre(1, 4), board.centre(1, 3));
    assert_eq!((from, to), ((344.0, 310.0), (344.0, 250.0)));
    assert!(img.is_green(344.0, 290.0), "{:?}", img.at(344.0, 290.0));
    assert!(
        img.is_green(344.0, 255.0),
        "head: {:?}",
        img.at(344.0, 255.0)
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

/// Whether the fonts draw kanji: `歩` and `金` come out different (without a CJK font
/// they are both nothing, or the same missing-glyph box).
fn cjk_font_available() -> bool {
    let one = |c: char| {
        let text = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"40\">\
             <rect width=\"40\" height=\"40\" fill=\"#fff\"/>\
             <text x=\"20\" y=\"32\" font-size=\"30\" font-family=\"serif\" \
             text-anchor=\"middle\">{c}</text></svg>"
        );
        Image::render(&text).pixmap.data().to_vec()
    };
    one('歩') != one('金')
}

#[test]
fn kanji_are_drawn_where_a_cjk_font_exists() {
    if !cjk_font_available() {
        eprintln!("no CJK font on this machine: glyphs not checked (the shapes are)");
        return;
    }
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
