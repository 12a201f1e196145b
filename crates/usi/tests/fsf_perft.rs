//! `go perft` against the reference engine itself: for each variant Fairy-Stockfish knows,
//! the same session (`Dialect fsf` in USI mode, and UCI mode) must print the same lines as
//! the engine, up to the order of the moves (kshogi sorts them, the engine lists them in
//! its generation order). Needs the engine: run with
//! `KSHOGI_FSF=<path to fairy-stockfish> cargo test -p kshogi-usi --test fsf_perft -- --ignored`.

use kshogi_usi::{serve_with, Out, SearchMode, VariantKind};
use std::io::Write as _;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

/// The variants Fairy-Stockfish knows, by its names.
const FSF_NAMES: [&str; 4] = ["kyotoshogi", "micro", "minishogi", "dobutsu"];

/// The `move: count` and `Nodes searched` lines of `text`, sorted.
fn counts(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text
        .lines()
        .filter(|l| {
            l.starts_with("Nodes searched")
                || l.rsplit_once(": ")
                    .is_some_and(|(_, n)| n.parse::<u64>().is_ok())
        })
        .map(str::to_string)
        .collect();
    v.sort();
    v
}

fn kshogi(script: &str) -> String {
    let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
    let out: Out = buf.clone();
    serve_with(
        script.as_bytes(),
        &out,
        VariantKind::ALL[0],
        SearchMode::Threaded,
    );
    let bytes = buf.lock().unwrap().clone();
    String::from_utf8(bytes).unwrap()
}

fn fsf(engine: &str, script: &str) -> String {
    let mut child = Command::new(engine)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the reference engine runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
#[ignore = "needs the reference engine: KSHOGI_FSF=<path>"]
fn go_perft_matches_fairy_stockfish() {
    // CI runs the ignored tests too (`--include-ignored`) without the engine: then there is
    // nothing to compare with, and the test says so and passes.
    let Ok(engine) = std::env::var("KSHOGI_FSF") else {
        eprintln!("note: KSHOGI_FSF is not set, so the reference engine was not run");
        return;
    };
    for name in FSF_NAMES {
        for (mode, option, dialect) in [
            ("usi", "USI_Variant", "setoption name Dialect value fsf\n"),
            ("uci", "UCI_Variant", ""),
        ] {
            let script = format!(
                "{mode}\nsetoption name {option} value {name}\n{dialect}position startpos\n\
                 go perft 3\nquit\n"
            );
            let want = counts(&fsf(&engine, &script));
            assert!(want.len() > 2, "{name} {mode}: no answer from the engine");
            assert_eq!(counts(&kshogi(&script)), want, "{name} {mode}");
        }
    }
}
