//! `kshogi show`: the board diagram of a position, or a JSON summary of it, as
//! `kshogi_report::show` makes them.

use crate::error::CliError;
use crate::format::OutputFormat;
use crate::svg_out::SvgArgs;
use crate::variant_select;
use clap::{Args, ValueEnum};
use kshogi_core::{Game, Variant};
use kshogi_notation::{parse_game, svg, DiagramStyle, Dialect};
use kshogi_registry::{with_variant, VariantKind};
use kshogi_report::show::{self, Summary};
use std::ffi::OsStr;
use std::io::IsTerminal as _;

/// More help for `kshogi show`, after the options.
pub const SHOW_HELP: &str = "\
Text output: White's hand, the board (files numbered across the top, highest on the left;
rank letters on the right; uppercase letters are Black's pieces, lowercase White's, `.` an
empty square, the last move's destination in brackets), Black's hand, `ply <N>, <side> to
move`, the Kinzoku countdown while it runs, `last move: <usi>` (in the --dialect asked for)
when the moves list is not empty, and `status: <status>` when the side to move is in check or the game is over.

Colour (--color): `auto` colours only when stdout is a terminal and the NO_COLOR
environment variable is unset or empty; `always` and `never` decide regardless.

JSON output (--json): exactly one object on one line,
  {\"variant\": \"kyoto\", \"sfen\": \"<SFEN>\", \"side_to_move\": \"black\", \"in_check\": false,
   \"status\": \"ongoing\", \"last_move\": null, \"legal_moves\": 12}
where `status` is `ongoing`, `check`, `<black|white> wins by <checkmate|stalemate|king
entry|bare king|perpetual check>` or `draw by <stalemate|repetition>`, `last_move` is the
last move of the moves list in canonical USI (null without one) and `legal_moves` counts
the legal moves (0 once the game is over).

SVG output (--svg): a self-contained SVG picture of the board (kanji pieces, White's upside
down, both hands, the last move's squares marked, files numbered across the top and ranks
down the right side in kanji, or USI letters with --ranks letters), on stdout. With
-o FILE it is written to FILE instead, and stdout shows the text (or --json) output as
without --svg; an existing FILE is never replaced unless --force is given. See
docs/notation.md.";

/// When to colour the diagram.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal and `NO_COLOR` is unset or empty.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// The arguments of `kshogi show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    #[arg(long, value_name = "V", value_parser = variant_select::parse_variant_name,
          help = variant_select::variant_help())]
    pub variant: Option<VariantKind>,
    /// When to use colour
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Print one JSON object instead of the diagram
    #[arg(long = "json", id = "json", action = clap::ArgAction::SetTrue,
          value_parser = crate::format::OutputFormat::flag())]
    pub format: crate::format::OutputFormat,
    /// The dialect of the last move (and with --json of the SFEN)
    #[command(flatten)]
    pub dialect: crate::DialectArg,
    #[command(flatten)]
    pub svg: SvgArgs,
    /// `startpos` or an SFEN, optionally followed by ` moves <usi> ...` (one argument)
    #[arg(value_name = "POSITION")]
    pub position: String,
}

/// Whether to colour: `--color always`/`never` decide; `auto` colours only a terminal, and
/// only when `NO_COLOR` (its value given here) is unset or empty.
pub fn use_color(choice: ColorChoice, no_color: Option<&OsStr>, stdout_is_terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => show::auto_color(no_color, stdout_is_terminal),
    }
}

/// Runs `kshogi show`: picks the variant, decides on colour, and renders.
pub fn run(args: &ShowArgs) -> Result<String, CliError> {
    args.svg.check(args.format, &[])?;
    let kind = variant_select::select(args.variant, &args.position)?;
    with_variant!(kind, V => render::<V>(args))
}

/// Runs `show` in the program of the one variant `V` ([`crate::run_single`]).
pub fn run_single<V: Variant>(args: &ShowArgs) -> Result<String, CliError> {
    args.svg.check(args.format, &[])?;
    render::<V>(args)
}

/// Decides on colour and renders the position as `V`'s.
fn render<V: Variant>(args: &ShowArgs) -> Result<String, CliError> {
    let color = use_color(
        args.color,
        std::env::var_os("NO_COLOR").as_deref(),
        std::io::stdout().is_terminal(),
    );
    let style = DiagramStyle {
        color,
        ..DiagramStyle::PLAIN
    };
    show::<V>(
        &args.position,
        style,
        args.format,
        args.dialect.dialect,
        &args.svg,
    )
}

/// Renders the position given by the `POSITION` argument, for variant `V`.
pub fn show<V: Variant>(
    position: &str,
    style: DiagramStyle,
    format: OutputFormat,
    dialect: Dialect,
    svg_args: &SvgArgs,
) -> Result<String, CliError> {
    let game = parse_game::<V>(position)?;
    let pos = game.position();
    let last = game.moves().last().copied();
    if svg_args.svg {
        let picture = svg(pos, last, None, svg_args.style());
        // Standard output shows the usual text (or JSON) when the SVG goes to a file.
        let otherwise = if svg_args.output.is_some() {
            text_or_json(&game, style, format, dialect)?
        } else {
            String::new()
        };
        return svg_args.deliver(picture, otherwise);
    }
    text_or_json(&game, style, format, dialect)
}

/// The diagram as text, or the `--json` object.
fn text_or_json<V: Variant>(
    game: &Game<V>,
    style: DiagramStyle,
    format: OutputFormat,
    dialect: Dialect,
) -> Result<String, CliError> {
    Ok(match format {
        OutputFormat::Json => Summary::of(game, dialect).to_json()?,
        OutputFormat::Text => show::diagram(game, style, dialect),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_explicit_colour_choice_wins() {
        let set = Some(OsStr::new("1"));
        assert!(use_color(ColorChoice::Always, set, false));
        assert!(!use_color(ColorChoice::Never, None, true));
        assert!(use_color(ColorChoice::Auto, None, true));
        assert!(!use_color(ColorChoice::Auto, set, true));
    }
}
