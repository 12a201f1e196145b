//! `kshogi show`: the board diagram of a position, or a JSON summary of it.

use crate::error::CliError;
use crate::format::OutputFormat;
use crate::svg_out::SvgArgs;
use crate::variant_select;
use clap::{Args, ValueEnum};
use kshogi_core::Variant;
use kshogi_core::{Color, Game};
use kshogi_notation::{
    game_diagram, move_to_usi_in, parse_game, svg, to_sfen_in, DiagramStyle, Dialect,
};
use kshogi_registry::{with_variant, VariantKind};
use serde::Serialize;
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
        ColorChoice::Auto => stdout_is_terminal && no_color.map_or(true, OsStr::is_empty),
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

/// The `--json` output. Serialised with the fields in this order.
#[derive(Serialize)]
#[serde(bound = "")]
struct ShowReport<V: Variant> {
    #[serde(skip)]
    _variant: core::marker::PhantomData<V>,
    /// Short name of the variant.
    variant: &'static str,
    /// SFEN of the position after the moves, in the chosen dialect (canonical by default).
    sfen: String,
    /// `black` or `white`.
    side_to_move: Color,
    /// Whether the side to move is in check.
    in_check: bool,
    /// See [`status`].
    status: String,
    /// The last move of the moves list, if any, in the chosen dialect.
    last_move: Option<String>,
    /// Number of legal moves; 0 once the game is over.
    legal_moves: usize,
}

/// `ongoing`, `check`, or the result of a game that is over (`black wins by checkmate`).
pub use kshogi_report::status;

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
    let pos = game.position();
    let last = game.moves().last().copied();
    if format.is_json() {
        // The last move is written from the position before it (its `-` mark depends on
        // the piece that moved).
        let last_move = last.map(|mv| {
            let mut before = *game.start();
            for &m in &game.moves()[..game.moves().len() - 1] {
                before = before.after(m);
            }
            move_to_usi_in(&before, mv, dialect)
        });
        let report = ShowReport::<V> {
            _variant: core::marker::PhantomData,
            variant: V::NAME,
            sfen: to_sfen_in(pos, dialect),
            side_to_move: pos.side_to_move(),
            in_check: pos.in_check(),
            status: status(game),
            last_move,
            legal_moves: if game.outcome().is_some() {
                0
            } else {
                pos.legal_moves().len()
            },
        };
        return OutputFormat::json_line(&report);
    }
    let mut out = game_diagram(game, style, dialect);
    if game.outcome().is_some() || pos.in_check() {
        out.push_str("status: ");
        out.push_str(&status(game));
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_rules_kyoto::Kyoto;

    #[test]
    fn colour_decision() {
        let set = Some(OsStr::new("1"));
        let empty = Some(OsStr::new(""));
        // auto: a terminal without NO_COLOR (or with it empty) only.
        assert!(use_color(ColorChoice::Auto, None, true));
        assert!(use_color(ColorChoice::Auto, empty, true));
        assert!(!use_color(ColorChoice::Auto, set, true));
        assert!(!use_color(ColorChoice::Auto, None, false));
        assert!(!use_color(ColorChoice::Auto, empty, false));
        // An explicit choice wins over both.
        assert!(use_color(ColorChoice::Always, set, false));
        assert!(!use_color(ColorChoice::Never, None, true));
    }

    #[test]
    fn status_words() {
        // Hand-checked: after G*5b White's King on 5a is in check and can take the Gold;
        // with Black's Silver on 4c guarding 5b it is mate.
        let g = parse_game::<Kyoto>("k4/5/5/5/4K b G 9 moves G*5b").unwrap();
        assert_eq!(status(&g), "check");
        let g = parse_game::<Kyoto>("k4/5/1S3/5/4K b G 9 moves G*5b").unwrap();
        assert_eq!(status(&g), "black wins by checkmate");
        let g = parse_game::<Kyoto>("startpos").unwrap();
        assert_eq!(status(&g), "ongoing");
    }
}
