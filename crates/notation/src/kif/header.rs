//! The header area of a KIF record: `key：value` fields, the `手合割` (handicap) field that
//! names the variant, and choosing the variant from it.

use super::error::{KifError, KifErrorKind};
use super::lex::{lines, Line, LineKind};
use super::record::HANDICAP_KEY;
use super::text::trim;
use kshogi_core::{Variant, VariantInfo};

pub(crate) fn known_names(known: &[VariantInfo]) -> String {
    known
        .iter()
        .map(|k| format!("{} ({})", k.kif_name(), k.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A `key：value` header line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Field<'a> {
    /// The key, trimmed.
    pub(crate) key: &'a str,
    /// The value, verbatim (trailing spaces were removed from the line).
    pub(crate) value: &'a str,
    /// The column of the value, in characters from 1.
    pub(crate) value_col: usize,
}

/// Reads a header line of the form `key：value` (the full-width colon).
pub(crate) fn field<'a>(line: &Line<'a>) -> Result<Field<'a>, KifError> {
    let Some((key, value)) = line.text.split_once('：') else {
        return Err(KifError::syntax(
            line.no,
            line.lead + 1,
            "expected a header line `key：value`, a comment (`*`, `#`), a board diagram, \
             the `手数----指手--` line or a move",
        ));
    };
    let key = trim(key);
    if key.is_empty() {
        return Err(KifError::syntax(
            line.no,
            line.lead + 1,
            "a header line needs a key before `：`",
        ));
    }
    Ok(Field {
        key,
        value,
        value_col: line.text.chars().take_while(|&c| c != '：').count() + 2,
    })
}

/// Finds the variant a KIF record is for, from its `手合割` header (the first one, before
/// the moves), among the variants `known` (a registry's list): the index into `known` of
/// the variant one of whose [`VariantInfo::kif_names`] the header names.
///
/// An error names the line of a `手合割` value none of them has, or, when there is no such
/// header, the line where the header area ends.
pub fn kif_variant(text: &str, known: &[VariantInfo]) -> Result<usize, KifError> {
    let mut end = 1;
    for line in lines(text) {
        end = line.no;
        if line.kind == LineKind::Move
            || line.kind == LineKind::Summary
            || line.trimmed.starts_with("手数-")
        {
            break;
        }
        if line.kind == LineKind::Comment {
            continue;
        }
        if let Ok(f) = field(&line) {
            if f.key == HANDICAP_KEY {
                let v = trim(f.value);
                return known.iter().position(|k| k.is_kif_name(v)).ok_or_else(|| {
                    let hint = if v == EVEN_GAME {
                        "; name the variant explicitly to read an even game of one of them \
                         (lishogi writes this header for them too)"
                    } else {
                        ""
                    };
                    KifError::at(
                        line.no,
                        Some(f.value_col),
                        KifErrorKind::Variant(format!(
                            "`手合割：{v}` is not a variant kshogi reads; it knows {}{hint}",
                            known_names(known)
                        )),
                    )
                });
            }
        }
    }
    Err(KifError::at(
        end,
        None,
        KifErrorKind::Variant(format!(
            "no `手合割` header before this line says which variant the record is ({}); \
             add one or name the variant explicitly",
            known_names(known)
        )),
    ))
}

/// The `手合割` value of standard shogi's even game, which lishogi's rules library writes
/// for the even game of every variant.
pub(crate) const EVEN_GAME: &str = "平手";

/// Checks the value of a `手合割` line against the variant being read and the other
/// variants `known`.
pub(crate) fn check_handicap<V: Variant>(
    known: &[VariantInfo],
    no: usize,
    col: usize,
    value: &str,
) -> Result<(), KifError> {
    let v = trim(value);
    let this = VariantInfo::of::<V>();
    if this.is_kif_name(v) {
        return Ok(());
    }
    let err = |msg: String| KifError::at(no, Some(col), KifErrorKind::Variant(msg));
    if let Some(k) = known.iter().find(|k| k.is_kif_name(v)) {
        return Err(err(format!(
            "`手合割：{v}` is {}, but the record is read as {} (`{}`)",
            k.display_name,
            V::DISPLAY_NAME,
            this.kif_name()
        )));
    }
    if v == EVEN_GAME || v.ends_with("落ち") {
        let knows = if known.is_empty() {
            this.kif_name().to_string()
        } else {
            known_names(known)
        };
        return Err(err(format!(
            "`手合割：{v}` is a game of standard shogi, which kshogi does not read; it knows {knows}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_rules_kyoto::Kyoto;
    use kshogi_rules_micro::Micro;

    static KNOWN: [VariantInfo; 2] = [VariantInfo::of::<Kyoto>(), VariantInfo::of::<Micro>()];

    #[test]
    fn fields_and_their_columns() {
        let line = Line::new(2, "先手：Alice　");
        assert_eq!(
            field(&line),
            Ok(Field {
                key: "先手",
                value: "Alice　",
                value_col: 4
            })
        );
        let e = field(&Line::new(1, "  ：x")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1: column 3: a header line needs a key before `：`"
        );
        assert!(field(&Line::new(1, "x")).is_err());
    }

    #[test]
    fn the_variant_from_the_handicap_field() {
        assert_eq!(
            kif_variant("\u{FEFF}#c\n手合割：五分摩訶将棋\n", &KNOWN),
            Ok(1)
        );
        // Only the header area counts.
        let e = kif_variant("1 １四歩(15)\n手合割：京都将棋\n", &KNOWN).unwrap_err();
        assert_eq!(e.line, 1);
        // Reading as Kyoto: another known variant and standard shogi are errors; an
        // unknown value is kept.
        let e = check_handicap::<Kyoto>(&KNOWN, 1, 5, "五分摩訶将棋").unwrap_err();
        assert!(
            e.to_string()
                .contains("is Micro Shogi, but the record is read as Kyoto Shogi"),
            "{e}"
        );
        let e = check_handicap::<Kyoto>(&[], 1, 5, "平手").unwrap_err();
        assert!(
            e.to_string()
                .contains("standard shogi, which kshogi does not read; it knows 京都将棋"),
            "{e}"
        );
        assert!(check_handicap::<Kyoto>(&KNOWN, 1, 5, "京都").is_ok());
        assert!(check_handicap::<Kyoto>(&KNOWN, 1, 5, "何か").is_ok());
    }
}
