//! Every openings file of `docs/openings/` (`<variant>-*.txt`: the balanced openings and the
//! start positions of games) reads as the SPSA tuner, `kshogi-nnue --openings` and `kshogi
//! match --openings` read it: each line a position of its variant, and as many lines as
//! its header says.

use kshogi_registry::{with_variant, VariantKind};
use kshogi_tune::openings::read_openings;
use std::path::Path;

#[test]
fn every_openings_file_reads_in_its_variant() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/openings");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).expect("docs/openings") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let Some((variant, _)) = name.split_once('-') else {
            continue;
        };
        if !name.ends_with(".txt") {
            continue;
        }
        let kind = VariantKind::parse(variant).unwrap_or_else(|e| panic!("{name}: {e}"));
        let lines =
            with_variant!(kind, V => read_openings::<V>(&path)).unwrap_or_else(|e| panic!("{e}"));
        // The header's first line says how many openings the file holds.
        let text = std::fs::read_to_string(&path).expect("read");
        let said: usize = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# "))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{name}: no count in its first line"));
        assert_eq!(lines.len(), said, "{name}");
        let distinct: std::collections::HashSet<&String> = lines.iter().collect();
        assert_eq!(distinct.len(), lines.len(), "{name}: a line is repeated");
        files += 1;
    }
    assert!(
        files >= 11,
        "only {files} openings files found in {}",
        dir.display()
    );
}
