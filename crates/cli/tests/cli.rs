//! Runs the `kshogi` binary and checks its output against independent facts: the counts of
//! `/work/shared/reference/perft.tsv` (computed with Fairy-Stockfish) and move lists checked
//! by hand from the rules.

use std::collections::BTreeMap;
use std::process::{Command, Output};

fn kshogi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kshogi"))
        .args(args)
        .output()
        .expect("the kshogi binary runs")
}

/// Runs a command that must succeed and returns its stdout.
fn ok(args: &[&str]) -> String {
    let out = kshogi(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    assert!(stderr.is_empty(), "{args:?} wrote to stderr: {stderr}");
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// Runs a command that must fail on bad input: exit code 1, nothing on stdout, exactly one
/// `error: ` line on stderr and no panic. Returns that line.
fn bad_input(args: &[&str]) -> String {
    let out = kshogi(args);
    let stderr = String::from_utf8(out.stderr).expect("stderr is UTF-8");
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(!stderr.contains("RUST_BACKTRACE"), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    stderr.trim_end().to_string()
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Checks that the top-level fields appear in the raw JSON text in this order.
fn assert_field_order(text: &str, fields: &[&str]) {
    let at: Vec<usize> = fields
        .iter()
        .map(|f| {
            text.find(&format!("\"{f}\":"))
                .unwrap_or_else(|| panic!("no field {f} in {text}"))
        })
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "field order in {text}");
}

/// The `nodes` line of the text output.
fn nodes_line(text: &str) -> u64 {
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("nodes "))
        .unwrap_or_else(|| panic!("no nodes line in {text}"));
    line.parse().expect("nodes is a number")
}

// Hand-checked: at the Kyoto start (`pgkst/5/5/5/TSKGP b - 1`) Black's Tokin on 5e goes to
// 5d or 4d, the Silver on 4e to 5d, 4d or 3d, the King on 3e to 4d, 3d or 2d, the Gold on 2e
// to 3d, 2d or 1d and the Pawn on 1e to 1d: 12 moves, every non-king one flipping (`+`).
const KYOTO_START_MOVES: [&str; 12] = [
    "1e1d+", "2e1d+", "2e2d+", "2e3d+", "3e2d", "3e3d", "3e4d", "4e3d+", "4e4d+", "4e5d+", "5e4d+",
    "5e5d+",
];

// Hand-checked: at the Kinzoku start (`cks/1i1/3/1I1/SKC b - 1`) Black's Silver 3e goes to
// 3d, the King 2e to 3d or 1d, the Copper 1e to 1d and the Soldier 2d to 2c, 3d or 1d.
const KINZOKU_START_MOVES: [&str; 7] = ["1e1d", "2d1d", "2d2c", "2d3d", "2e1d", "2e3d", "3e3d"];

#[test]
fn perft_text_kyoto_depth_3() {
    let out = ok(&["perft", "--variant", "kyoto", "startpos", "3"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0], "nodes 1636");
    let time = lines[1]
        .strip_prefix("time ")
        .and_then(|t| t.strip_suffix(" s"))
        .expect("time line");
    let (_, decimals) = time.split_once('.').expect("time has decimals");
    assert_eq!(decimals.len(), 3, "{time}");
    assert!(time.parse::<f64>().is_ok(), "{time}");
    let nps = lines[2].strip_prefix("nps ").expect("nps line");
    assert!(nps.parse::<u64>().is_ok(), "{nps}");
}

#[test]
fn perft_json_micro_depth_2_has_no_divide() {
    let out = ok(&["perft", "--json", "--variant", "micro", "startpos", "2"]);
    assert_eq!(out.lines().count(), 1, "{out}");
    let v = json(&out);
    assert_eq!(v["variant"], "micro");
    assert_eq!(v["sfen"], "kbgs/p3/4/3P/SGBK b - 1");
    assert_eq!(v["depth"], 2);
    assert_eq!(v["nodes"], 80);
    assert!(v.get("divide").is_none(), "{out}");
    assert!(v["time_ms"].is_u64(), "{out}");
    assert!(v["nps"].is_u64(), "{out}");
    assert_eq!(v.as_object().unwrap().len(), 6, "{out}");
    assert_field_order(
        &out,
        &["variant", "sfen", "depth", "nodes", "time_ms", "nps"],
    );
}

#[test]
fn perft_json_divide_kyoto_depth_2() {
    let out = ok(&[
        "perft",
        "--divide",
        "--json",
        "--variant",
        "kyoto",
        "startpos",
        "2",
    ]);
    let v = json(&out);
    assert_eq!(v["nodes"], 137);
    let divide = v["divide"].as_object().expect("divide object");
    let keys: Vec<&str> = divide.keys().map(String::as_str).collect();
    assert_eq!(keys, KYOTO_START_MOVES);
    let sum: u64 = divide.values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(sum, 137);
    // Field order: divide comes right after nodes.
    assert_field_order(
        &out,
        &[
            "variant", "sfen", "depth", "nodes", "divide", "time_ms", "nps",
        ],
    );
}

#[test]
fn perft_text_divide_is_sorted_then_blank_then_totals() {
    let out = ok(&["perft", "--divide", "cks/1i1/3/1I1/SKC b - 1", "2"]);
    let (split, totals) = out.split_once("\n\n").expect("blank line after divide");
    let mut counts = BTreeMap::new();
    let mut keys = Vec::new();
    for line in split.lines() {
        let (usi, n) = line.split_once(": ").expect("`<usi>: <count>`");
        keys.push(usi);
        counts.insert(usi, n.parse::<u64>().unwrap());
    }
    assert_eq!(keys, KINZOKU_START_MOVES);
    assert_eq!(counts.values().sum::<u64>(), 49);
    assert_eq!(nodes_line(totals), 49);
    assert!(totals.starts_with("nodes 49\ntime "), "{totals}");
}

#[test]
fn board_size_picks_each_variant() {
    // (SFEN, depth, nodes) from shared/reference/perft.tsv.
    let cases = [
        ("pgkst/5/5/5/TSKGP b - 1", "2", 137),
        ("kbgs/p3/4/3P/SGBK b - 1", "2", 80),
        ("cks/1i1/3/1I1/SKC b - 1", "2", 49),
        ("sfen kbgs/p3/4/3P/SGBK b - 1", "1", 9),
        ("p4/T2N1/1krnt/3s1/K2S1 w - 30", "3", 1696),
        ("N1T1k/K4/3PP/4N/1S1t1 w S 54", "3", 48),
        ("2k2/1bpNl/5/K3b/4P w tg 30", "3", 18170),
    ];
    for (sfen, depth, nodes) in cases {
        let out = ok(&["perft", sfen, depth]);
        assert_eq!(nodes_line(&out), nodes, "{sfen} depth {depth}");
    }
    let v = json(&ok(&["perft", "--json", "cks/1i1/3/1I1/SKC b - 1", "1"]));
    assert_eq!(v["variant"], "kinzoku");
    assert_eq!(v["nodes"], 7);
}

#[test]
fn explicit_variant_is_checked_against_the_board() {
    // A 5x5 board read as Micro (4x5) is a bad position, not a crash.
    let err = bad_input(&[
        "perft",
        "--variant",
        "micro",
        "pgkst/5/5/5/TSKGP b - 1",
        "1",
    ]);
    assert!(err.contains("column"), "{err}");
}

#[test]
fn depth_zero_counts_one() {
    let out = ok(&["perft", "--variant", "kyoto", "startpos", "0"]);
    assert_eq!(nodes_line(&out), 1);
    let v = json(&ok(&[
        "perft",
        "--json",
        "--divide",
        "--variant",
        "micro",
        "startpos",
        "0",
    ]));
    assert_eq!(v["nodes"], 1);
    assert_eq!(v["divide"], serde_json::json!({}));
}

#[test]
fn startpos_without_variant_asks_for_it() {
    let err = bad_input(&["perft", "startpos", "2"]);
    assert!(err.contains("--variant"), "{err}");
    let err = bad_input(&["moves", "startpos moves 1e1d+"]);
    assert!(err.contains("--variant"), "{err}");
}

#[test]
fn unknown_board_size_is_an_error() {
    // The first board from 6x5 on that no registered variant has, whatever is registered.
    let (w, h) = (6..=9)
        .flat_map(|w| (5..=9).map(move |h| (w, h)))
        .find(|&(w, h)| kshogi_registry::VariantKind::with_shape(w, h).is_empty())
        .unwrap();
    let sfen = format!("{} b - 1", vec![w.to_string(); usize::from(h)].join("/"));
    let err = bad_input(&["perft", &sfen, "1"]);
    assert!(err.contains(&format!("{w}x{h}")), "{err}");
}

#[test]
fn bad_sfen_names_the_column() {
    let err = bad_input(&["perft", "pgkst/5/5/5/TSKGX b - 1", "2"]);
    assert!(err.contains("column 17"), "{err}");
    let err = bad_input(&["moves", "pgkst/5/5/5/TSKGX b - 1"]);
    assert!(err.contains("column 17"), "{err}");
    bad_input(&["perft", "", "1"]);
    bad_input(&["perft", "--variant", "kyoto", "pgkst/5/5/5/TSKGP", "1"]);
}

#[test]
fn illegal_moves_are_rejected() {
    let err = bad_input(&["perft", "--variant", "kyoto", "startpos moves 1e1c", "1"]);
    assert!(err.contains("1e1c"), "{err}");
    let err = bad_input(&["moves", "--variant", "kyoto", "startpos moves 1e1d+ 1e1c"]);
    assert!(err.contains("move 2"), "{err}");
    // The King never flips, so a mark on its move is wrong.
    bad_input(&["moves", "--variant", "kyoto", "startpos moves 3e3d+"]);
}

#[test]
fn bad_depth_is_rejected_clearly() {
    for depth in ["x", "-1", "1.5", "", "99999999999"] {
        let err = bad_input(&["perft", "--variant", "kyoto", "startpos", depth]);
        assert!(err.contains("DEPTH"), "{depth:?}: {err}");
    }
}

#[test]
fn usage_errors_keep_clap_exit_code() {
    for args in [
        &["perft", "--variant", "chess", "startpos", "1"][..],
        &["perft", "--variant", "kyoto", "startpos"][..],
        &["moves"][..],
        &["frobnicate"][..],
        &[][..],
    ] {
        let out = kshogi(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn moves_kinzoku_start() {
    let out = ok(&["moves", "--variant", "kinzoku", "startpos"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines, KINZOKU_START_MOVES);
}

#[test]
fn moves_json_is_an_array_of_strings() {
    let v = json(&ok(&["moves", "--json", "--variant", "kyoto", "startpos"]));
    let list: Vec<&str> = v
        .as_array()
        .expect("array")
        .iter()
        .map(|m| m.as_str().expect("string"))
        .collect();
    assert_eq!(list, KYOTO_START_MOVES);
    // Micro start: 9 moves (perft depth 1 in perft.tsv).
    let v = json(&ok(&["moves", "--json", "kbgs/p3/4/3P/SGBK b - 1"]));
    assert_eq!(v.as_array().unwrap().len(), 9);
}

#[test]
fn moves_agree_with_divide() {
    let pos = "1s3/r2kb/n1L2/KL2R/5 b g 31";
    let moves = ok(&["moves", pos]);
    let v = json(&ok(&["perft", "--json", "--divide", pos, "1"]));
    let keys: Vec<&str> = v["divide"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(moves.lines().collect::<Vec<_>>(), keys);
    assert_eq!(v["nodes"], keys.len());
}

#[test]
fn moves_are_applied_before_perft() {
    let v = json(&ok(&[
        "perft",
        "--json",
        "--variant",
        "kyoto",
        "startpos moves 1e1d+",
        "1",
    ]));
    assert_eq!(v["sfen"], "pgkst/5/5/4R/TSKG1 w - 2");
    // The same position written out gives the same count.
    let direct = json(&ok(&["perft", "--json", "pgkst/5/5/4R/TSKG1 w - 2", "1"]));
    assert_eq!(v["nodes"], direct["nodes"]);
    // The reference engine's dialect (no mark) is read too.
    let v = json(&ok(&[
        "perft",
        "--json",
        "--variant",
        "kyoto",
        "startpos moves 1e1d",
        "0",
    ]));
    assert_eq!(v["sfen"], "pgkst/5/5/4R/TSKG1 w - 2");
}

// Hand-checked checkmate: White's King on 5a is attacked by Black's Gold on 5b, which also
// covers 4a and 4b; taking the Gold is impossible as Black's Rook on 5c defends it; White
// has nothing else to move and nothing in hand.
const MATE: &str = "k4/G4/R4/5/4K w - 10";

#[test]
fn game_over_has_no_moves() {
    assert_eq!(ok(&["moves", MATE]), "");
    assert_eq!(ok(&["moves", "--json", MATE]).trim(), "[]");
    assert_eq!(nodes_line(&ok(&["perft", MATE, "1"])), 0);
    assert_eq!(nodes_line(&ok(&["perft", MATE, "3"])), 0);
    // Without the Rook the King takes the Gold.
    assert_eq!(ok(&["moves", "k4/G4/5/5/4K w - 10"]), "5a5b\n");
    let err = bad_input(&["moves", &format!("{MATE} moves 5a4a")]);
    assert!(err.contains("5a4a"), "{err}");
}

#[test]
fn help_and_version() {
    let help = ok(&["--help"]);
    for word in ["perft", "moves", "startpos", "--variant", "Exit status"] {
        assert!(help.contains(word), "--help lacks {word}");
    }
    let help = ok(&["perft", "--help"]);
    for word in [
        "--variant",
        "--divide",
        "--json",
        // Optional since --suite runs without them: `[POSITION]` in the usage line.
        "POSITION]",
        "DEPTH]",
        "--suite",
        "--engine",
        "--diff",
        "time_ms",
        "nps",
        "divide",
        "moves <usi>",
    ] {
        assert!(help.contains(word), "perft --help lacks {word}");
    }
    let help = ok(&["moves", "--help"]);
    assert!(help.contains("--json"), "{help}");
    let version = ok(&["--version"]);
    assert_eq!(
        version.trim(),
        format!("kshogi {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn threads_give_the_same_counts_and_divide() {
    // Kyoto start, depth 5: 225903 in the shared reference table; the divide must not depend
    // on the number of threads.
    let one = json(&ok(&[
        "perft",
        "--variant",
        "kyoto",
        "--divide",
        "--json",
        "startpos",
        "5",
    ]));
    let two = json(&ok(&[
        "perft",
        "--variant",
        "kyoto",
        "--divide",
        "--json",
        "--threads",
        "2",
        "startpos",
        "5",
    ]));
    assert_eq!(one["nodes"], 225903);
    assert_eq!(two["nodes"], 225903);
    assert_eq!(one["divide"], two["divide"]);
    let zero = kshogi(&[
        "perft",
        "--variant",
        "kyoto",
        "--threads",
        "0",
        "startpos",
        "1",
    ]);
    assert_eq!(zero.status.code(), Some(2));
}
