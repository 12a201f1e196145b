//! Per-variant notation data and the list of variants notation knows.

use kshogi_core::{Color, Variant};
use kshogi_rules_kinzoku::{Countdown, Kinzoku, COUNTDOWN_MOVES};
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;

/// What notation needs to know of a variant beyond [`Variant`]: its Japanese handicap name
/// (for KIF) and how its extra state is written as the fifth SFEN field.
pub trait VariantNotation: Variant {
    /// The KIF `手合割` value, such as `京都将棋`.
    const KIF_NAME: &'static str;

    /// Parses the fifth SFEN field (the variant state). The default accepts none.
    fn parse_extra(field: &str) -> Result<Self::Extra, String> {
        Err(format!(
            "unexpected field `{field}`: {} has no variant state",
            Self::DISPLAY_NAME
        ))
    }

    /// The fifth SFEN field for the variant state, or `None` when nothing is written.
    fn format_extra(_extra: Self::Extra) -> Option<String> {
        None
    }

    /// Whether a field looks like this variant's state field rather than a ply number.
    fn is_extra_field(_field: &str) -> bool {
        false
    }
}

impl VariantNotation for Kyoto {
    const KIF_NAME: &'static str = "京都将棋";
}

impl VariantNotation for Micro {
    const KIF_NAME: &'static str = "五分摩訶将棋";
}

impl VariantNotation for Kinzoku {
    const KIF_NAME: &'static str = "金属将棋";

    fn parse_extra(field: &str) -> Result<Option<Countdown>, String> {
        let mut chars = field.chars();
        let side = match chars.next() {
            Some('b') => Color::Black,
            Some('w') => Color::White,
            _ => {
                return Err(format!(
                    "countdown `{field}` must be `b` or `w` followed by the moves left"
                ))
            }
        };
        let rest = chars.as_str();
        if rest.is_empty() || rest.len() > 2 || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "countdown `{field}` needs a number of moves after the side"
            ));
        }
        let n: u8 = rest
            .parse()
            .map_err(|_| format!("countdown `{field}` is not a number"))?;
        if n > COUNTDOWN_MOVES {
            return Err(format!(
                "countdown `{field}`: moves left must be 1 to {COUNTDOWN_MOVES} (0 once expired)"
            ));
        }
        Ok(Some(Countdown {
            side,
            moves_left: n,
        }))
    }

    fn format_extra(extra: Option<Countdown>) -> Option<String> {
        extra.map(|cd| format!("{}{}", cd.side.sfen_char(), cd.moves_left))
    }

    fn is_extra_field(field: &str) -> bool {
        field.starts_with('b') || field.starts_with('w')
    }
}

/// The variants kshogi knows, for choosing one at run time (the command line). Everything
/// generic is then monomorphised per variant by matching on this once.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum VariantKind {
    /// Kyoto Shogi, 5x5.
    Kyoto,
    /// Micro Shogi, 4x5.
    Micro,
    /// Kinzoku Shogi, 3x5.
    Kinzoku,
}

impl VariantKind {
    /// All known variants.
    pub const ALL: [VariantKind; 3] =
        [VariantKind::Kyoto, VariantKind::Micro, VariantKind::Kinzoku];

    /// The short name (`kyoto`).
    pub fn name(self) -> &'static str {
        match self {
            VariantKind::Kyoto => Kyoto::NAME,
            VariantKind::Micro => Micro::NAME,
            VariantKind::Kinzoku => Kinzoku::NAME,
        }
    }

    /// The variant with this short name; also accepts `kyotoshogi`, `microshogi`,
    /// `kinzokushogi`.
    pub fn from_name(name: &str) -> Option<VariantKind> {
        let n = name.to_ascii_lowercase();
        let n = n.strip_suffix("shogi").unwrap_or(&n);
        let n = n.strip_suffix('-').unwrap_or(n);
        VariantKind::ALL.into_iter().find(|v| v.name() == n)
    }

    /// Board (width, height).
    pub fn shape(self) -> (u8, u8) {
        let g = match self {
            VariantKind::Kyoto => Kyoto::GEOMETRY,
            VariantKind::Micro => Micro::GEOMETRY,
            VariantKind::Kinzoku => Kinzoku::GEOMETRY,
        };
        (g.width, g.height)
    }

    /// The variants with this board shape.
    pub fn with_shape(width: u8, height: u8) -> Vec<VariantKind> {
        VariantKind::ALL
            .into_iter()
            .filter(|v| v.shape() == (width, height))
            .collect()
    }
}

impl core::fmt::Display for VariantKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
