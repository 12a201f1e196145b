//! `--svg`, `-o FILE` and `--force` of `kshogi show` and `kshogi analyze`: where the picture
//! goes, that nothing saved is overwritten, and that the picture is of the position asked
//! for (the pictures themselves are checked by rendering them in `kshogi-notation`).

use std::path::PathBuf;
use std::process::{Command, Output};

fn kshogi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kshogi"))
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("the kshogi binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

/// A fresh empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kshogi-svg-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The numbers of the arrow's element that starts with `tag` in `svg`: the attributes
/// `names`, or with none the `points` list that `tag` opens.
fn attribute_numbers(svg: &str, tag: &str, names: &[&str]) -> Vec<f64> {
    let arrow = &svg[svg.find("class=\"arrow\"").expect("an arrow")..];
    let element = &arrow[arrow.find(tag).expect("the element")..];
    let element = &element[..element.find("/>").unwrap()];
    let parse = |s: &str| s.parse::<f64>().unwrap_or_else(|_| panic!("a number: {s}"));
    if names.is_empty() {
        let points = &element[tag.len()..];
        let points = &points[..points.find('"').unwrap()];
        return points.split([',', ' ']).map(parse).collect();
    }
    names
        .iter()
        .map(|name| {
            let at = element.find(&format!(" {name}=\"")).expect("the attribute") + name.len() + 3;
            parse(&element[at..at + element[at..].find('"').unwrap()])
        })
        .collect()
}

#[test]
fn show_svg_goes_to_stdout() {
    let out = kshogi(&[
        "show",
        "--svg",
        "--variant",
        "kyoto",
        "startpos moves 1e1d+",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let svg = stdout(&out);
    assert!(svg.starts_with("<?xml"), "{svg}");
    assert!(svg.trim_end().ends_with("</svg>"), "{svg}");
    // The title names the position after the moves (the pawn on 1d is now a rook).
    assert!(
        svg.contains("<title>Kyoto Shogi: pgkst/5/5/4R/TSKG1 w - 2</title>"),
        "{svg}"
    );
    // 1e and 1d are marked; ten pieces, five of them White's.
    assert_eq!(svg.matches("class=\"last-move\"").count(), 2, "{svg}");
    assert_eq!(svg.matches("class=\"piece ").count(), 10, "{svg}");
    assert_eq!(svg.matches("class=\"piece white\"").count(), 5, "{svg}");
    assert!(!svg.contains("class=\"arrow\""), "{svg}");
}

#[test]
fn show_svg_ranks_are_kanji_or_letters() {
    let kanji = stdout(&kshogi(&[
        "show",
        "--svg",
        "--variant",
        "dobutsu",
        "startpos",
    ]));
    assert!(kanji.contains(">一</text>") && kanji.contains(">四</text>"));
    let letters = stdout(&kshogi(&[
        "show",
        "--svg",
        "--ranks",
        "letters",
        "--variant",
        "dobutsu",
        "startpos",
    ]));
    assert!(letters.contains(">a</text>") && letters.contains(">d</text>"));
    assert!(!letters.contains(">一</text>"));
}

#[test]
fn output_file_is_written_and_never_overwritten_without_force() {
    let dir = scratch("output");
    let file = dir.join("board.svg");
    let file_arg = file.to_str().unwrap();
    let out = kshogi(&[
        "show",
        "--svg",
        "-o",
        file_arg,
        "--color",
        "never",
        "--variant",
        "micro",
        "startpos",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    // With the SVG in a file, stdout shows the usual text diagram.
    assert!(
        stdout(&out).contains("ply 1, black to move"),
        "{}",
        stdout(&out)
    );
    let first = std::fs::read_to_string(&file).unwrap();
    assert!(first.contains("<title>Micro Shogi: "), "{first}");

    // The same path again: refused, the file untouched, nothing on stdout.
    let out = kshogi(&[
        "show",
        "--svg",
        "-o",
        file_arg,
        "--variant",
        "micro",
        "startpos moves 1d1c",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).is_empty());
    let err = stderr(&out);
    assert!(
        err.starts_with("error: ") && err.contains("already exists") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), first);

    // analyze refuses it before it searches, too.
    let out = kshogi(&[
        "analyze",
        "--svg",
        "-o",
        file_arg,
        "--depth",
        "2",
        "--variant",
        "micro",
        "startpos",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), first);

    // --force replaces it, with --json on stdout.
    let out = kshogi(&[
        "show",
        "--svg",
        "-o",
        file_arg,
        "--force",
        "--json",
        "--variant",
        "micro",
        "startpos moves 1d1c",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("{\"variant\":\"micro\""),
        "{}",
        stdout(&out)
    );
    let second = std::fs::read_to_string(&file).unwrap();
    assert_ne!(second, first);
    assert_eq!(second.matches("class=\"last-move\"").count(), 2);
    // Nothing else was left in the directory.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn conflicting_or_incomplete_options_are_usage_errors() {
    for args in [
        // Both want stdout.
        &["show", "--svg", "--json", "--variant", "kyoto", "startpos"][..],
        &[
            "analyze",
            "--svg",
            "--json",
            "--depth",
            "1",
            "--variant",
            "kyoto",
            "startpos",
        ],
        // -o, --ranks and --force only go with --svg (and --force with -o).
        &["show", "-o", "x.svg", "--variant", "kyoto", "startpos"],
        &[
            "show",
            "--ranks",
            "letters",
            "--variant",
            "kyoto",
            "startpos",
        ],
        &["show", "--svg", "--force", "--variant", "kyoto", "startpos"],
    ] {
        let out = kshogi(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
}

#[test]
fn analyze_svg_has_an_arrow_for_the_best_move() {
    // Black mates with a gold drop, on 5b or on 4b (worked out by hand: the silver on 4c
    // guards both, and the king on 5a has no square left). The arrow starts at the gold in
    // Black's hand and ends on the centre of the destination of the first line's move.
    let dir = scratch("analyze");
    let file = dir.join("best.svg");
    let out = kshogi(&[
        "analyze",
        "--svg",
        "-o",
        file.to_str().unwrap(),
        "--json",
        "--depth",
        "3",
        "k4/5/1S3/5/4K b G 9",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let best = report["lines"][0]["move"].as_str().unwrap().to_string();
    assert!(best == "G*5b" || best == "G*4b", "{best}");
    let svg = std::fs::read_to_string(&file).unwrap();
    assert_eq!(svg.matches("class=\"arrow\"").count(), 1, "{svg}");
    // The hand's gold is the entry above Black's mark, right of the board: centre
    // (439, 265). Row b is y 100..160; 5b is the leftmost column (x 74..134), 4b the next.
    // The shaft starts 12.5 px (a quarter of the 50 px hand cell) from the gold's centre
    // towards the destination's centre, and the head's tip stops 18 px (0.3 of a square)
    // short of it (the layout documented by `kshogi_notation::svg`).
    let (hand, dest): ((f64, f64), (f64, f64)) = (
        (439.0, 265.0),
        if best == "G*5b" {
            (104.0, 130.0)
        } else {
            (164.0, 130.0)
        },
    );
    let d: f64 =
        ((dest.0 - hand.0) * (dest.0 - hand.0) + (dest.1 - hand.1) * (dest.1 - hand.1)).sqrt();
    let u = ((dest.0 - hand.0) / d, (dest.1 - hand.1) / d);
    let start = (hand.0 + u.0 * 12.5, hand.1 + u.1 * 12.5);
    let tip = (dest.0 - u.0 * 18.0, dest.1 - u.1 * 18.0);
    let line = attribute_numbers(&svg, "<line ", &["x1", "y1"]);
    let head = attribute_numbers(&svg, "<polygon points=\"", &[]);
    let near = |a: f64, b: f64| (a - b).abs() < 0.01;
    assert!(
        near(line[0], start.0) && near(line[1], start.1),
        "{best}: {line:?} {start:?}"
    );
    assert!(
        near(head[0], tip.0) && near(head[1], tip.1),
        "{best}: {head:?} {tip:?}"
    );

    // Straight to stdout, the same picture.
    let out = kshogi(&["analyze", "--svg", "--depth", "3", "k4/5/1S3/5/4K b G 9"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("<?xml"));
    assert_eq!(stdout(&out).matches("class=\"arrow\"").count(), 1);

    // A finished game has no best move: no arrow.
    let out = kshogi(&[
        "analyze",
        "--svg",
        "--depth",
        "1",
        "k4/5/1S3/5/4K b G 9 moves G*5b",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stdout(&out).contains("class=\"arrow\""));
    std::fs::remove_dir_all(&dir).unwrap();
}
