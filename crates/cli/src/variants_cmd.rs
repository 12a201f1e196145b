//! `kshogi variants`: the registry's list of variants, as a table or JSON.

use crate::error::CliError;
use clap::Args;
use kshogi_registry::VariantKind;

/// The arguments of `kshogi variants`.
#[derive(Debug, Args)]
pub struct VariantsArgs {
    /// Print one JSON array instead of a table
    #[arg(long = "json", id = "json", action = clap::ArgAction::SetTrue,
          value_parser = crate::format::OutputFormat::flag())]
    format: crate::format::OutputFormat,
}

/// One variant in the `--json` output of `kshogi variants`.
#[derive(serde::Serialize)]
struct VariantEntry {
    name: &'static str,
    display_name: &'static str,
    aliases: &'static [&'static str],
    board: String,
    width: u8,
    height: u8,
    kif_names: &'static [&'static str],
}

/// Runs `kshogi variants`: the registry's list.
pub fn run(args: &VariantsArgs) -> Result<String, CliError> {
    let entries: Vec<VariantEntry> = VariantKind::ALL
        .iter()
        .map(|k| {
            let info = k.info();
            let (width, height) = k.shape();
            VariantEntry {
                name: info.name,
                display_name: info.display_name,
                aliases: info.aliases,
                board: format!("{width}x{height}"),
                width,
                height,
                kif_names: info.kif_names,
            }
        })
        .collect();
    args.format.render(&entries, |entries| {
        entries
            .iter()
            .map(|e| {
                format!(
                    "{:<10} {:<15} {:<5} aliases: {}; KIF: {}\n",
                    e.name,
                    e.display_name,
                    e.board,
                    e.aliases.join(", "),
                    e.kif_names.join(", ")
                )
            })
            .collect()
    })
}
