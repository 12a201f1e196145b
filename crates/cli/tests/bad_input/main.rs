//! A corpus of bad input for every `kshogi` subcommand (`perft`, `moves`, `show`, `convert`,
//! `analyze`, `solve`, and the arguments of `usi`, whose protocol errors are tested in
//! `usi/`): empty, huge, binary, wrong variant, wrong board sizes, illegal moves, absurd
//! counts, invalid UTF-8, KIF records cut off, files that do not exist or are directories,
//! database files that are not databases.
//!
//! Each case runs the binary in an empty directory of its own, with `RUST_BACKTRACE=1`, and
//! must:
//! - exit with status 1 (bad input) or 2 (usage error, from the argument parser), never by
//!   a signal or a panic's 101;
//! - print nothing on stdout;
//! - print one `error: ` line on stderr that names the problem (the case's `names` text).
//!   A usage error from the argument parser may add its usage hint (`Usage: ...`, `For more
//!   information, try '--help'.`) after that line, but still has exactly one `error:` line;
//! - print no panic message (`panicked`, `RUST_BACKTRACE`, nor the panic hook's `internal
//!   error ... this is a bug`);
//! - leave no file behind (kshogi writes only to stdout; a partial output file would show
//!   up in the directory). The default database directory (`KSHOGI_DB`) is that
//!   directory too, so neither `solve` nor `analyze` can touch a database of the machine.
//!
//! The small inputs are files in `tests/data/bad/`; the huge ones (10 MB) are made by the
//! test in its temporary directory. Arguments stay below Linux's limit for one argument
//! (128 KiB), so the huge SFEN and move lists given as arguments are 100 KB; 10 MB inputs go
//! through a file or standard input, which only `convert` reads.

use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// One bad input and what kshogi must say about it.
struct Case {
    /// A short name, for failure messages.
    what: String,
    /// The arguments after `kshogi`.
    args: Vec<OsString>,
    /// Bytes on standard input (`None`: nothing, and stdin is closed at once).
    stdin: Option<Vec<u8>>,
    /// Expected exit status: 1 for bad input, 2 for a usage error.
    code: i32,
    /// Text the error line must contain: the name of the problem.
    names: &'static str,
}

/// A case with text arguments.
fn case(what: &str, args: &[&str], code: i32, names: &'static str) -> Case {
    Case {
        what: what.to_string(),
        args: args.iter().map(OsString::from).collect(),
        stdin: None,
        code,
        names,
    }
}

/// A board shape (files, ranks) that no registered variant has, the first in reading order
/// from `wanted` on, with an empty board of that shape as an SFEN and the error's words:
/// the cases about unknown board sizes must hold whatever variants are registered.
fn unknown_shape(wanted: (u8, u8)) -> (&'static str, &'static str) {
    let shapes = (wanted.0..=9).flat_map(|w| (wanted.1..=9).map(move |h| (w, h)));
    let (w, h) = shapes
        .chain((2..=9).flat_map(|w| (2..=9).map(move |h| (w, h))))
        .find(|&(w, h)| kshogi_registry::VariantKind::with_shape(w, h).is_empty())
        .expect("some board of at most 9x9 belongs to no variant");
    let sfen = format!("{} b - 1", vec![w.to_string(); usize::from(h)].join("/"));
    let names = format!("no variant has a {w}x{h} board");
    (
        Box::leak(sfen.into_boxed_str()),
        Box::leak(names.into_boxed_str()),
    )
}

/// A case that reads `stdin` (the arguments name `-` as the input).
fn with_stdin(mut c: Case, stdin: Vec<u8>) -> Case {
    c.stdin = Some(stdin);
    c
}

/// A file of the committed corpus, `tests/data/bad/NAME`.
fn bad(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/bad")
        .join(name);
    assert!(path.is_file(), "missing corpus file {}", path.display());
    path.to_string_lossy().into_owned()
}

/// The test's scratch directory (under cargo's target directory).
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("bad_input")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch directory");
    dir
}

/// `n` reproducible pseudo-random bytes (the project's generator, seeded).
fn noise(n: usize) -> Vec<u8> {
    let mut rng = kshogi_core::rng::SplitMix64::new(0x6b73_686f_6769);
    (0..n).map(|_| (rng.next_u64() >> 56) as u8).collect()
}

const TEN_MB: usize = 10 * 1024 * 1024;
/// Below Linux's limit of 128 KiB for one argument.
const ARG_BYTES: usize = 100_000;

const KYOTO: &str = "pgkst/5/5/5/TSKGP b - 1";
/// A Kinzoku position with the kings alone, which any database covers.
const KINZOKU: &str = "3/1K1/3/1k1/3 b - 1";
const KIF_HEAD: &str = "手合割：京都将棋\n手数----指手---------消費時間--\n";

mod cases;
use cases::cases;

/// Runs kshogi in `dir` with `args` and `stdin`.
fn run(dir: &Path, args: &[OsString], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kshogi"))
        .args(args)
        .current_dir(dir)
        .env("KSHOGI_DB", dir)
        .env("RUST_BACKTRACE", "1")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kshogi binary runs");
    let mut pipe = child.stdin.take().expect("stdin");
    let bytes = stdin.unwrap_or_default().to_vec();
    // Feed stdin from a thread: kshogi may stop reading (and exit) before the end.
    let feeder = std::thread::spawn(move || {
        let _ = pipe.write_all(&bytes);
    });
    let out = child.wait_with_output().expect("kshogi finishes");
    let _ = feeder.join();
    out
}

/// `s`, cut to about `n` bytes (at a character boundary) for messages.
fn clip(s: &str, n: usize) -> String {
    if s.len() <= n {
        return s.to_string();
    }
    let mut end = n;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &s[..end], s.len())
}

/// Checks one case; returns what is wrong with kshogi's answer, if anything.
fn check(c: &Case, dir: &Path) -> Result<(), String> {
    let out = run(dir, &c.args, c.stdin.as_deref());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let shown = clip(&stderr, 400);
    let mut problems = Vec::new();
    if out.status.code() != Some(c.code) {
        problems.push(format!("exit status {:?}, expected {}", out.status, c.code));
    }
    if !out.stdout.is_empty() {
        problems.push(format!("{} bytes on stdout", out.stdout.len()));
    }
    for panic_sign in [
        "panicked",
        "RUST_BACKTRACE",
        "internal error",
        "this is a bug",
    ] {
        if stderr.contains(panic_sign) {
            problems.push(format!("panic message (`{panic_sign}`)"));
        }
    }
    let first = stderr.lines().next().unwrap_or("");
    if !first.starts_with("error: ") {
        problems.push("stderr does not start with `error: `".into());
    }
    let error_lines = stderr.lines().filter(|l| l.starts_with("error")).count();
    if error_lines != 1 {
        problems.push(format!("{error_lines} `error` lines"));
    }
    if c.code == 1 && stderr.lines().count() != 1 {
        problems.push(format!(
            "{} lines on stderr, expected one",
            stderr.lines().count()
        ));
    }
    if !first.contains(c.names) {
        problems.push(format!("the error line does not name `{}`", c.names));
    }
    let left: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.file_name()).collect())
        .unwrap_or_default();
    if !left.is_empty() {
        problems.push(format!("files left behind: {left:?}"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}: {}\n    args: {:?}\n    stderr: {shown}",
            c.what,
            problems.join("; "),
            c.args
                .iter()
                .map(|a| clip(&a.to_string_lossy(), 80))
                .collect::<Vec<_>>()
        ))
    }
}

/// No arguments at all: the argument parser prints the usage (not an `error:` line) on
/// stderr, exits with 2 and prints nothing on stdout.
#[test]
fn no_arguments_print_the_usage_on_stderr() {
    let dir = scratch("no-arguments");
    let out = run(&dir, &[], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(stderr.contains("Usage: kshogi <COMMAND>"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn every_bad_input_is_one_error_line_and_no_output() {
    let files = scratch("inputs");
    let cases = cases(&files);
    let subcommands = ["perft", "moves", "show", "convert", "solve"];
    for sub in subcommands {
        assert!(
            cases
                .iter()
                .filter(|c| c.args.first().is_some_and(|a| a == sub))
                .count()
                >= 5,
            "too few cases for `{sub}`"
        );
    }
    let mut failures = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let dir = scratch(&format!("run-{i}"));
        if let Err(e) = check(c, &dir) {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Runs a bad-input case and returns its stderr (after checking status 1 and no stdout).
fn stderr_of(what: &str, args: &[OsString]) -> String {
    let dir = scratch(what);
    let out = run(&dir, args, None);
    assert_eq!(out.status.code(), Some(1), "{what}");
    assert!(out.stdout.is_empty(), "{what}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Found while building the corpus above: error messages quote the offending text as it is,
/// control characters included. `kshogi perft $'\e[2J\e[31mred' 1` prints
/// ``error: column 1: board: unexpected character `<ESC>` `` with a raw ESC byte (a terminal
/// runs it as an escape sequence), and a KIF line with a carriage return in a move,
/// `   1 ２<CR>四歩成(15)`, gives ``... found `<CR>` `` whose CR sends the cursor back to
/// the start of the line, so the message no longer reads as one line. Expected: control
/// characters shown escaped (`\u{1b}`, `\r`), as `{:?}` would.
#[test]
fn errors_do_not_echo_control_characters() {
    let files = scratch("control-inputs");
    let kif = files.join("cr_in_move.kif");
    std::fs::write(&kif, format!("{KIF_HEAD}   1 ２\r四歩成(15)\n")).expect("write KIF");
    let cases: Vec<(&str, Vec<OsString>)> = vec![
        (
            "escape",
            vec!["perft".into(), "\u{1b}[2J\u{1b}[31mred".into(), "1".into()],
        ),
        ("bell", vec!["moves".into(), "\u{7}".into()]),
        (
            "cr in kif",
            vec!["convert".into(), "--to".into(), "usi".into(), kif.into()],
        ),
    ];
    for (what, args) in cases {
        let stderr = stderr_of(what, &args);
        let line = stderr.strip_suffix('\n').unwrap_or(&stderr);
        assert!(
            !line.chars().any(char::is_control),
            "{what}: control character in {line:?}"
        );
    }
}

/// Found while building the corpus above: error messages quote the whole offending field,
/// however long. A 100 KB ply number (`pgkst/5/5/5/TSKGP b - 111...1`) gives a 100 KB error
/// line, and so does a 100 KB `手合割` value in a KIF file (and a 10 MB value, 10 MB).
/// Expected: the quote cut to a readable length (the issue asks for bounded input lines).
#[test]
fn errors_do_not_echo_huge_input() {
    let files = scratch("long-inputs");
    let kif = files.join("long_handicap.kif");
    std::fs::write(&kif, format!("手合割：{}\n", "x".repeat(ARG_BYTES))).expect("write KIF");
    let ply = format!("{KYOTO}{}", "1".repeat(ARG_BYTES));
    let cases: Vec<(&str, Vec<OsString>)> = vec![
        ("long ply", vec!["perft".into(), ply.into(), "1".into()]),
        (
            "long handicap",
            vec!["convert".into(), "--to".into(), "sfen".into(), kif.into()],
        ),
    ];
    for (what, args) in cases {
        let stderr = stderr_of(what, &args);
        assert!(
            stderr.len() <= 1024,
            "{what}: {} bytes of error: {}",
            stderr.len(),
            clip(&stderr, 200)
        );
    }
}
