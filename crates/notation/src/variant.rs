//! Per-variant notation data and the list of variants notation knows.

use kshogi_core::Variant;
use kshogi_rules_kinzoku::Kinzoku;
use kshogi_rules_kyoto::Kyoto;
use kshogi_rules_micro::Micro;

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
