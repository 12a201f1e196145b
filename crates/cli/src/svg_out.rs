//! `--svg`, `--ranks`, `-o/--output` and `--force`: where an SVG diagram goes, shared by
//! `kshogi show` and `kshogi analyze`.

use crate::error::CliError;
use crate::format::OutputFormat;
use clap::{Args, ValueEnum};
use kshogi_notation::{RankLabels, SvgStyle};
use kshogi_report::output::Output;
use std::path::{Path, PathBuf};

/// How the SVG diagram labels the ranks.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum RanksChoice {
    /// Kanji numerals 一 二 三 (Japanese diagrams, lishogi's Japanese notation)
    #[default]
    Kanji,
    /// USI letters a b c (kshogi's moves, lishogi's engine notation)
    Letters,
}

/// The SVG options of a command (the default: no SVG).
#[derive(Debug, Default, Args)]
pub struct SvgArgs {
    /// Write an SVG picture of the board instead of the text (to stdout, or to -o FILE)
    #[arg(long)]
    pub svg: bool,
    /// With --svg: the rank labels down the right side of the board
    #[arg(long, value_name = "R", value_enum, default_value_t = RanksChoice::Kanji,
          requires = "svg")]
    pub ranks: RanksChoice,
    /// With --svg: write the SVG to FILE (never over an existing file without --force)
    #[arg(short = 'o', long, value_name = "FILE", requires = "svg")]
    pub output: Option<PathBuf>,
    /// With -o: replace FILE if it exists
    #[arg(long, requires = "output")]
    pub force: bool,
}

impl SvgArgs {
    /// The diagram style the options ask for.
    pub fn style(&self) -> SvgStyle {
        SvgStyle {
            ranks: match self.ranks {
                RanksChoice::Kanji => RankLabels::Kanji,
                RanksChoice::Letters => RankLabels::Letters,
            },
            ..SvgStyle::DEFAULT
        }
    }

    /// The `-o FILE` output, when there is one.
    fn output(&self) -> Option<Output<'_>> {
        self.output.as_deref().map(|path| Output {
            option: "-o",
            path,
            force: self.force,
        })
    }

    /// Refuses `--json` with an SVG bound for stdout (both cannot be printed there), and
    /// checks `-o FILE` before any work is done ([`Output::check`]: not one of `inputs`,
    /// not an existing file without `--force`, in a writable directory; the write itself
    /// checks again).
    pub fn check(&self, format: OutputFormat, inputs: &[(&str, &Path)]) -> Result<(), CliError> {
        if self.svg && format.is_json() && self.output.is_none() {
            return Err(CliError::Usage(
                "--svg and --json both write to standard output; give -o FILE for the SVG"
                    .to_string(),
            ));
        }
        if let Some(out) = self.output() {
            out.check(inputs)?;
        }
        Ok(())
    }

    /// Delivers `svg`: returns it for stdout, or writes it to `-o FILE` and returns
    /// `otherwise` (the command's usual output) for stdout.
    pub fn deliver(&self, svg: String, otherwise: String) -> Result<String, CliError> {
        match self.output() {
            None => Ok(svg),
            Some(out) => {
                out.write(svg.as_bytes())?;
                Ok(otherwise)
            }
        }
    }
}
