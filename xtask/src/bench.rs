//! `cargo xtask bench`: the search's signature, `kshogi bench`, against the recorded one.
//!
//! `kshogi bench` searches a fixed set of positions of every variant to a fixed depth with
//! one thread; the total node count changes exactly when the search's behaviour does. This
//! task builds the release binary, runs it, and fails when a variant's count differs from the
//! one recorded in [`SIGNATURE_FILE`] (one line per variant, so that registering a variant
//! asks for its own line and names it, rather than changing one total), so that no change of the search lands unnoticed: a pure
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
                     unless each variant's node count equals its line in
                     xtask/bench-signature.txt
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

/// A bench signature: the node count of each variant's searches, in the order of
/// `kshogi bench`'s output (the registry's order).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Signature {
    /// `(variant, nodes)` for each variant.
    pub variants: Vec<(String, u64)>,
}

impl Signature {
    /// The total node count over every variant (what `kshogi bench` prints as `nodes`).
    pub fn total(&self) -> u64 {
        self.variants.iter().map(|(_, n)| n).sum()
    }

    /// The nodes recorded for `variant`.
    pub fn get(&self, variant: &str) -> Option<u64> {
        self.variants
            .iter()
            .find(|(v, _)| v == variant)
            .map(|&(_, n)| n)
    }
}

/// The signature recorded in the file's text: one `VARIANT NODES` line per variant, then a
/// `total NODES` line that must be their sum; blank lines and `#` comments are skipped.
pub fn parse_signature(text: &str) -> Result<Signature, String> {
    let mut sig = Signature::default();
    let mut total = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("{SIGNATURE_FILE}:{}", i + 1);
        let mut words = line.split_whitespace();
        let (Some(name), Some(count), None) = (words.next(), words.next(), words.next()) else {
            return Err(format!(
                "{at}: `{line}` is not a `VARIANT NODES` line (one variant's node count)"
            ));
        };
        let nodes: u64 = count
            .parse()
            .map_err(|_| format!("{at}: `{count}` is not a node count"))?;
        if name == "total" {
            total = Some(nodes);
        } else if sig.get(name).is_some() {
            return Err(format!("{at}: variant `{name}` is recorded twice"));
        } else {
            sig.variants.push((name.to_string(), nodes));
        }
    }
    if sig.variants.is_empty() {
        return Err(format!("{SIGNATURE_FILE} records no signature"));
    }
    match total {
        Some(t) if t != sig.total() => Err(format!(
            "{SIGNATURE_FILE}: the `total` line says {t} but the variants add up to {}",
            sig.total()
        )),
        _ => Ok(sig),
    }
}

/// The file's text for a signature.
pub fn signature_text(sig: &Signature) -> String {
    let mut text = String::from(
        "# The search's bench signature: the node counts of `kshogi bench` (fixed-depth,\n\
         # one-thread searches of every variant), one line per variant and their total.\n\
         # `cargo xtask ci` fails when one changes; a change of the search that is meant\n\
         # records the new values with `cargo xtask bench --update`, in the commit that makes\n\
         # it. A newly registered variant records its line the same way.\n",
    );
    for (variant, nodes) in &sig.variants {
        text.push_str(&format!("{variant} {nodes}\n"));
    }
    text.push_str(&format!("total {}\n", sig.total()));
    text
}

/// The node counts in `kshogi bench --json`'s output: each variant's, checked against the
/// total.
pub fn parse_bench_output(json: &str) -> Result<Signature, String> {
    let v: serde_json::Value = serde_json::from_str(json.trim())
        .map_err(|e| format!("`kshogi bench --json` printed no JSON object ({e})"))?;
    let total = v["nodes"]
        .as_u64()
        .ok_or("`kshogi bench --json` printed no `nodes`")?;
    let mut sig = Signature::default();
    for var in v["variants"].as_array().into_iter().flatten() {
        let (Some(name), Some(nodes)) = (var["variant"].as_str(), var["nodes"].as_u64()) else {
            return Err(
                "`kshogi bench --json` printed a variant without `variant` or `nodes`".into(),
            );
        };
        sig.variants.push((name.to_string(), nodes));
    }
    if sig.total() != total {
        return Err(format!(
            "`kshogi bench --json`: the variants' nodes add up to {}, not to its `nodes` {total}",
            sig.total()
        ));
    }
    Ok(sig)
}

/// What differs between the recorded signature and the measured one, one message per
/// variant; empty when they agree.
pub fn compare(recorded: &Signature, measured: &Signature) -> Vec<String> {
    let mut problems = Vec::new();
    for (variant, nodes) in &measured.variants {
        match recorded.get(variant) {
            None => problems.push(format!(
                "{variant}: {nodes} nodes, and {SIGNATURE_FILE} has no line for it; if it is a \
                 newly registered variant, record its line with `cargo xtask bench --update` \
                 (the other variants' lines stay as they are when their searches did not change)"
            )),
            Some(r) if r != *nodes => problems.push(format!(
                "{variant}: {nodes} nodes, but {SIGNATURE_FILE} records {r}: the search plays \
                 differently in this variant. If that is meant, record it with \
                 `cargo xtask bench --update` and say in the commit what the change gains"
            )),
            Some(_) => {}
        }
    }
    for (variant, _) in &recorded.variants {
        if measured.get(variant).is_none() {
            problems.push(format!(
                "{variant}: recorded in {SIGNATURE_FILE} but `kshogi bench` searched no such \
                 variant; if it was renamed or removed, record the signature again with \
                 `cargo xtask bench --update`"
            ));
        }
    }
    problems
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
    let measured = parse_bench_output(&text)?;
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
    println!("bench: {} nodes", measured.total());
    let path = root.join(SIGNATURE_FILE);
    if opts.update {
        std::fs::write(&path, signature_text(&measured))
            .map_err(|e| format!("could not write {SIGNATURE_FILE}: {e}"))?;
        println!("recorded in {SIGNATURE_FILE}");
        return Ok(());
    }
    let recorded = std::fs::read_to_string(&path)
        .map_err(|e| format!("could not read {SIGNATURE_FILE}: {e}"))
        .and_then(|t| parse_signature(&t))?;
    let problems = compare(&recorded, &measured);
    if !problems.is_empty() {
        for p in &problems {
            eprintln!("bench: {p}");
        }
        return Err(format!(
            "the bench signature differs from {SIGNATURE_FILE} in {} variant(s)",
            problems.len()
        ));
    }
    println!("signature matches {SIGNATURE_FILE}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(rows: &[(&str, u64)]) -> Signature {
        Signature {
            variants: rows.iter().map(|&(v, n)| (v.to_string(), n)).collect(),
        }
    }

    #[test]
    fn the_file_round_trips_and_comments_are_skipped() {
        let s = sig(&[("kyoto", 764_933), ("micro", 12)]);
        assert_eq!(parse_signature(&signature_text(&s)), Ok(s.clone()));
        assert!(signature_text(&s).ends_with("total 764945\n"));
        assert_eq!(
            parse_signature("\n# c\n  kyoto 12 \nmicro 13\n"),
            Ok(sig(&[("kyoto", 12), ("micro", 13)]))
        );
        assert!(parse_signature("# only a comment\n").is_err());
        assert!(parse_signature("kyoto 12 nodes\n")
            .unwrap_err()
            .contains(":1: `kyoto 12 nodes`"));
        assert!(parse_signature("kyoto x\n").unwrap_err().contains("`x`"));
        assert!(parse_signature("kyoto 1\nkyoto 2\n")
            .unwrap_err()
            .contains("twice"));
        assert!(parse_signature("kyoto 1\nmicro 2\ntotal 4\n")
            .unwrap_err()
            .contains("add up to 3"));
    }

    #[test]
    fn a_new_variant_gets_a_message_naming_it_and_the_command() {
        let recorded = sig(&[("kyoto", 10), ("micro", 20)]);
        assert!(compare(&recorded, &recorded).is_empty());
        let measured = sig(&[("kyoto", 10), ("micro", 20), ("tori", 7)]);
        let p = compare(&recorded, &measured);
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].starts_with("tori: 7 nodes"), "{}", p[0]);
        assert!(p[0].contains("no line for it") && p[0].contains("--update"));
        let changed = sig(&[("kyoto", 11), ("micro", 20)]);
        let p = compare(&recorded, &changed);
        assert_eq!(p.len(), 1);
        assert!(p[0].starts_with("kyoto: 11 nodes") && p[0].contains("records 10"));
        let gone = sig(&[("kyoto", 10)]);
        let p = compare(&recorded, &gone);
        assert_eq!(p.len(), 1);
        assert!(p[0].starts_with("micro: recorded"));
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
            parse_bench_output(
                "{\"nodes\":42,\"variants\":[{\"variant\":\"kyoto\",\"nodes\":40},\
                 {\"variant\":\"micro\",\"nodes\":2}]}\n"
            ),
            Ok(sig(&[("kyoto", 40), ("micro", 2)]))
        );
        assert!(parse_bench_output("{\"nodes\":42,\"variants\":[]}").is_err());
        assert!(parse_bench_output("nodes 42").is_err());
        assert!(parse_bench_output("{\"depth\":9}").is_err());
    }
}
