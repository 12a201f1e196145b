//! `cargo xtask bench`: the search's signature, `kshogi bench`, against the recorded one.
//!
//! `kshogi bench` searches a fixed set of positions of every variant to a fixed depth with
//! one thread; the total node count changes exactly when the search's behaviour does. This
//! task builds the release binary, runs it, and fails when the total differs from the one
//! recorded in [`SIGNATURE_FILE`], so that no change of the search lands unnoticed: a pure
//! speed-up keeps the signature, and a change that is meant to play differently records the
//! new one (`--update`) in the same commit, with the match that justifies it
//! (docs/strength.md). The signature is the search's own output, a change detector and not
//! a correctness test.

use crate::util;
use std::path::Path;
use std::process::{Command, Stdio};

/// Where the signature is recorded, relative to the workspace root.
pub const SIGNATURE_FILE: &str = "xtask/bench-signature.txt";

/// The usage lines of this task.
pub const USAGE: &str =
    "  bench              run `kshogi bench` (fixed-depth searches of every variant) and fail
                     unless its node count equals the signature in xtask/bench-signature.txt
                       --update             record the new signature instead of failing
";

/// Options of `cargo xtask bench`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BenchOptions {
    /// Write the measured signature to the file instead of comparing.
    pub update: bool,
}

impl BenchOptions {
    /// Reads the task's arguments.
    pub fn parse(args: &[String]) -> Result<BenchOptions, String> {
        let mut opts = BenchOptions::default();
        for a in args {
            match a.as_str() {
                "--update" => opts.update = true,
                other => return Err(format!("unexpected argument `{other}` for `bench`")),
            }
        }
        Ok(opts)
    }
}

/// The signature recorded in the file's text: its first line that is neither blank nor a
/// `#` comment, a whole number.
pub fn parse_signature(text: &str) -> Result<u64, String> {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .ok_or_else(|| format!("{SIGNATURE_FILE} records no signature"))?;
    line.parse()
        .map_err(|_| format!("{SIGNATURE_FILE}: `{line}` is not a node count"))
}

/// The file's text for signature `nodes`.
pub fn signature_text(nodes: u64) -> String {
    format!(
        "# The search's bench signature: the total node count of `kshogi bench` (fixed-depth,\n\
         # one-thread searches of every variant). `cargo xtask ci` fails when it changes; a\n\
         # change of the search that is meant records the new value with\n\
         # `cargo xtask bench --update`, in the commit that makes it.\n\
         {nodes}\n"
    )
}

/// The total node count in `kshogi bench --json`'s output.
pub fn parse_bench_output(json: &str) -> Result<u64, String> {
    let v: serde_json::Value = serde_json::from_str(json.trim())
        .map_err(|e| format!("`kshogi bench --json` printed no JSON object ({e})"))?;
    v["nodes"]
        .as_u64()
        .ok_or_else(|| "`kshogi bench --json` printed no `nodes`".into())
}

/// Runs the task from the workspace root.
pub fn run(opts: &BenchOptions, root: &Path) -> Result<(), String> {
    let kshogi = util::build_kshogi(root)?;
    let output = Command::new(&kshogi)
        .args(["bench", "--json"])
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("could not run {}: {e}", kshogi.display()))?;
    if !output.status.success() {
        return Err(format!(
            "`kshogi bench --json` failed ({})",
            util::describe_status(output.status)
        ));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let nodes = parse_bench_output(&text)?;
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(text.trim()) {
        for var in v["variants"].as_array().into_iter().flatten() {
            println!(
                "{:<10} {:>10} nodes {:>7} ms {:>9} nps",
                var["variant"].as_str().unwrap_or("?"),
                var["nodes"],
                var["time_ms"],
                var["nps"]
            );
        }
    }
    println!("bench: {nodes} nodes");
    let path = root.join(SIGNATURE_FILE);
    if opts.update {
        std::fs::write(&path, signature_text(nodes))
            .map_err(|e| format!("could not write {SIGNATURE_FILE}: {e}"))?;
        println!("recorded in {SIGNATURE_FILE}");
        return Ok(());
    }
    let recorded = std::fs::read_to_string(&path)
        .map_err(|e| format!("could not read {SIGNATURE_FILE}: {e}"))
        .and_then(|t| parse_signature(&t))?;
    if recorded != nodes {
        return Err(format!(
            "the bench signature is {nodes} nodes, but {SIGNATURE_FILE} records {recorded}: \
             the search plays differently. If that is meant, record it with \
             `cargo xtask bench --update` and say in the commit what the change gains"
        ));
    }
    println!("signature matches {SIGNATURE_FILE}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_round_trips_and_comments_are_skipped() {
        assert_eq!(parse_signature(&signature_text(4_519_896)), Ok(4_519_896));
        assert_eq!(parse_signature("\n# c\n  12 \n13\n"), Ok(12));
        assert!(parse_signature("# only a comment\n").is_err());
        assert!(parse_signature("12 nodes\n")
            .unwrap_err()
            .contains("`12 nodes`"));
    }

    #[test]
    fn options_and_output() {
        assert_eq!(BenchOptions::parse(&[]), Ok(BenchOptions { update: false }));
        assert_eq!(
            BenchOptions::parse(&["--update".to_string()]),
            Ok(BenchOptions { update: true })
        );
        assert!(BenchOptions::parse(&["--x".to_string()]).is_err());
        assert_eq!(
            parse_bench_output("{\"nodes\":42,\"variants\":[]}\n"),
            Ok(42)
        );
        assert!(parse_bench_output("nodes 42").is_err());
        assert!(parse_bench_output("{\"depth\":9}").is_err());
    }
}
