//! `kshogi bench`: the search's fixed workload and its node-count signature
//! (`kshogi_engine::bench`), for every registered variant or one.

use crate::error::CliError;
use crate::format::OutputFormat;
use clap::builder::TypedValueParser as _;
use clap::Args;
use kshogi_core::nodes_per_second;
use kshogi_engine::bench::{bench, BENCH_DEPTH, BENCH_POSITIONS};
use kshogi_notation::move_to_usi;
use kshogi_registry::{with_variant, Registered, VariantKind};
use std::time::Duration;

/// The long help of `kshogi bench`.
pub const BENCH_HELP: &str = "\
The bench searches, for each variant, the first positions of the game the search plays
against itself from the start position, each to a fixed depth with one thread and a
cleared 16 MiB table. The searches are deterministic, so the total number of nodes is a
signature of the search: it changes exactly when the search's behaviour changes (ordering,
pruning, evaluation), never with the machine or its load. `cargo xtask ci` checks it
against the value recorded in xtask/bench-signature.txt.

Text output: one line per variant (positions, nodes, time, nodes per second), then the line
`bench: <NODES> nodes ...`, NODES being the signature. JSON output (--json): one object
{\"depth\", \"positions\", \"variants\": [{\"variant\", \"nodes\", \"time_ms\", \"nps\",
\"searches\": [{\"moves\", \"nodes\", \"best\"}]}], \"nodes\", \"time_ms\", \"nps\"}.";

/// The arguments of `kshogi bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Only this variant [default: every variant, in the registry's order]
    #[arg(long, value_name = "V", value_parser = crate::variant_select::parse_variant_name)]
    variant: Option<VariantKind>,
    /// Depth of each search
    #[arg(long, value_name = "N", default_value_t = BENCH_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Positions searched per variant
    #[arg(long, value_name = "N", default_value_t = BENCH_POSITIONS,
          value_parser = clap::value_parser!(u64).range(1..=100).map(|n| n as usize))]
    positions: usize,
    /// Print one JSON object instead of text
    #[arg(long = "json", id = "json", action = clap::ArgAction::SetTrue,
          value_parser = crate::format::OutputFormat::flag())]
    format: crate::format::OutputFormat,
}

/// One search of the JSON output.
#[derive(serde::Serialize)]
struct SearchEntry {
    /// The moves from the start position, in USI, separated by spaces.
    moves: String,
    nodes: u64,
    best: String,
}

/// One variant of the JSON output.
#[derive(serde::Serialize)]
struct VariantEntry {
    variant: &'static str,
    nodes: u64,
    time_ms: u64,
    nps: u64,
    searches: Vec<SearchEntry>,
}

/// The JSON output.
#[derive(serde::Serialize)]
struct Report {
    depth: u32,
    positions: usize,
    variants: Vec<VariantEntry>,
    nodes: u64,
    time_ms: u64,
    nps: u64,
}

/// The bench of one variant as a report entry.
fn run_one<V: Registered>(kind: VariantKind, depth: u32, positions: usize) -> VariantEntry {
    let r = bench::<V, V::Eval>(depth, positions);
    let micros = r.time.as_micros();
    VariantEntry {
        variant: kind.name(),
        nodes: r.nodes,
        time_ms: (micros / 1000) as u64,
        nps: nodes_per_second(r.nodes, r.time),
        searches: r
            .positions
            .iter()
            .map(|p| SearchEntry {
                moves: p
                    .moves
                    .iter()
                    .map(|&m| move_to_usi::<V>(m))
                    .collect::<Vec<_>>()
                    .join(" "),
                nodes: p.nodes,
                best: move_to_usi::<V>(p.best),
            })
            .collect(),
    }
}

/// Runs `kshogi bench`.
pub fn run(args: &BenchArgs) -> Result<String, CliError> {
    let kinds: Vec<VariantKind> = match args.variant {
        Some(k) => vec![k],
        None => VariantKind::ALL.to_vec(),
    };
    let (depth, positions) = (args.depth, args.positions);
    let variants: Vec<VariantEntry> = kinds
        .iter()
        .map(|&k| with_variant!(k, V => run_one::<V>(k, depth, positions)))
        .collect();
    let nodes = variants.iter().map(|v| v.nodes).sum();
    let time_ms: u64 = variants.iter().map(|v| v.time_ms).sum();
    let report = Report {
        depth,
        positions,
        nps: nodes_per_second(nodes, Duration::from_millis(time_ms)),
        variants,
        nodes,
        time_ms,
    };
    if args.format.is_json() {
        return OutputFormat::json_line(&report);
    }
    let mut out = String::new();
    for v in &report.variants {
        out.push_str(&format!(
            "{:<10} {} positions, depth {}: {} nodes, {:.3} s, {} nps\n",
            v.variant,
            v.searches.len(),
            depth,
            v.nodes,
            v.time_ms as f64 / 1000.0,
            v.nps
        ));
    }
    out.push_str(&format!(
        "bench: {} nodes, {:.3} s, {} nps\n",
        report.nodes,
        report.time_ms as f64 / 1000.0,
        report.nps
    ));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(variant: Option<VariantKind>, format: OutputFormat) -> BenchArgs {
        BenchArgs {
            variant,
            depth: 3,
            positions: 2,
            format,
        }
    }

    #[test]
    fn every_variant_has_a_line_and_the_total_adds_up() {
        let text = run(&args(None, OutputFormat::Text)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), VariantKind::ALL.len() + 1, "{text}");
        for (line, kind) in lines.iter().zip(VariantKind::ALL) {
            assert!(line.starts_with(kind.name()), "{line}");
            assert!(line.contains("2 positions, depth 3"), "{line}");
        }
        let json: serde_json::Value =
            serde_json::from_str(&run(&args(None, OutputFormat::Json)).unwrap()).unwrap();
        let total: u64 = json["variants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["nodes"].as_u64().unwrap())
            .sum();
        assert!(total > 0);
        assert_eq!(json["nodes"].as_u64(), Some(total));
        assert!(lines
            .last()
            .unwrap()
            .starts_with(&format!("bench: {total} nodes")));
    }

    #[test]
    fn one_variant_and_its_game() {
        let json: serde_json::Value = serde_json::from_str(
            &run(&args(Some(VariantKind::Micro), OutputFormat::Json)).unwrap(),
        )
        .unwrap();
        let v = &json["variants"][0];
        assert_eq!(v["variant"], "micro");
        let searches = v["searches"].as_array().unwrap();
        assert_eq!(searches.len(), 2);
        assert_eq!(searches[0]["moves"], "");
        // The second position is the first plus the move chosen there.
        assert_eq!(searches[1]["moves"], searches[0]["best"]);
    }
}
