//! Choosing the variant: from `--variant`, or else from the board of the position (see
//! [`kshogi_registry::select`]).

use crate::error::CliError;
use kshogi_registry::VariantKind;

/// Parses the value of `--variant` (a registered name or alias, such as `kyoto` or
/// `kyotoshogi`). Used as a clap value parser, so an unknown name is a usage error.
pub fn parse_variant_name(name: &str) -> Result<VariantKind, String> {
    VariantKind::parse(name).map_err(|e| e.to_string())
}

/// The help text of `--variant`, listing the registered variants.
pub fn variant_help() -> String {
    format!(
        "The variant: {} [default: from the board of POSITION]",
        VariantKind::names()
    )
}

/// The variant to use: `explicit` when given, otherwise the one the board of `position`
/// picks (see [`kshogi_registry::select`]).
pub fn select(explicit: Option<VariantKind>, position: &str) -> Result<VariantKind, CliError> {
    kshogi_registry::select(explicit, position).map_err(CliError::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_needs_the_variant() {
        assert_eq!(
            select(Some(VariantKind::Micro), "startpos").unwrap(),
            VariantKind::Micro
        );
        let e = select(None, "startpos moves 1e1d+").unwrap_err();
        assert!(e.to_string().contains("--variant"), "{e}");
    }

    #[test]
    fn unknown_sizes_are_errors() {
        // The first board from 6x5 on that no registered variant has, so that the test holds
        // whatever variants are registered.
        let (w, h) = (6..=9)
            .flat_map(|w| (5..=9).map(move |h| (w, h)))
            .find(|&(w, h)| VariantKind::with_shape(w, h).is_empty())
            .unwrap();
        let sfen = format!("{} b - 1", vec![w.to_string(); usize::from(h)].join("/"));
        let e = select(None, &sfen).unwrap_err();
        assert!(
            e.to_string()
                .contains(&format!("no variant has a {w}x{h} board")),
            "{e}"
        );
        assert!(e.to_string().contains("kyoto (5x5)"), "{e}");
    }

    #[test]
    fn variant_names() {
        assert_eq!(parse_variant_name("kyoto"), Ok(VariantKind::Kyoto));
        assert!(parse_variant_name("chess").unwrap_err().contains("micro"));
        assert!(variant_help().contains("kinzoku"));
    }
}
