//! Choosing the variant: from `--variant`, or else from the board size of the position.

use crate::error::CliError;
use kshogi_notation::{board_shape, VariantKind};

/// Parses the value of `--variant` (`kyoto`, `micro`, `kinzoku`; `kyotoshogi` and the like
/// are accepted too). Used as a clap value parser, so an unknown name is a usage error.
pub fn parse_variant_name(name: &str) -> Result<VariantKind, String> {
    VariantKind::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = VariantKind::ALL.iter().map(|v| v.name()).collect();
        format!(
            "unknown variant `{name}`; expected one of {}",
            known.join(", ")
        )
    })
}

/// The variant to use: `explicit` when given, otherwise the only variant whose board has
/// the size of the SFEN in `position`.
///
/// `startpos` has no board, so without `--variant` it is an error that says to give it; so
/// is a size shared by several variants, and a size no variant has.
pub fn select(explicit: Option<VariantKind>, position: &str) -> Result<VariantKind, CliError> {
    if let Some(kind) = explicit {
        return Ok(kind);
    }
    let (width, height) = board_shape(position)?;
    let fits = VariantKind::with_shape(width, height);
    match fits.as_slice() {
        [] => Err(CliError::UnknownShape { width, height }),
        [one] => Ok(*one),
        many => Err(CliError::AmbiguousShape {
            width,
            height,
            candidates: many.iter().map(|v| v.name()).collect::<Vec<_>>().join(", "),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_size_picks_the_variant() {
        let cases = [
            ("pgkst/5/5/5/TSKGP b - 1", VariantKind::Kyoto),
            ("sfen kbgs/p3/4/3P/SGBK b - 1", VariantKind::Micro),
            ("cks/1i1/3/1I1/SKC b - 1 moves 2e3d", VariantKind::Kinzoku),
        ];
        for (text, kind) in cases {
            assert_eq!(select(None, text).unwrap(), kind, "{text}");
        }
    }

    #[test]
    fn explicit_variant_wins_and_startpos_needs_it() {
        assert_eq!(
            select(Some(VariantKind::Micro), "startpos").unwrap(),
            VariantKind::Micro
        );
        let e = select(None, "startpos moves 1e1d+").unwrap_err();
        assert!(e.to_string().contains("--variant"), "{e}");
    }

    #[test]
    fn unknown_sizes_are_errors() {
        let e = select(None, "6/6/6/6/6 b - 1").unwrap_err();
        assert!(
            matches!(
                e,
                CliError::UnknownShape {
                    width: 6,
                    height: 5
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn variant_names() {
        assert_eq!(parse_variant_name("kyoto"), Ok(VariantKind::Kyoto));
        assert_eq!(parse_variant_name("KinzokuShogi"), Ok(VariantKind::Kinzoku));
        assert!(parse_variant_name("chess").unwrap_err().contains("micro"));
    }
}
