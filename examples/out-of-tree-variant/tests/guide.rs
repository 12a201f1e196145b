//! docs/adding-a-variant.md quotes this crate's manifest, `src/main.rs` and
//! `tests/conformance.rs` in "A variant in your own repository"; each quote must be the
//! real file, so that the guide shows code that builds.

const GUIDE: &str = include_str!("../../../docs/adding-a-variant.md");

/// The text between the guide's markers for `path`.
fn quoted(path: &str, lang: &str) -> &'static str {
    let begin = format!("<!-- BEGIN examples/out-of-tree-variant/{path} -->\n```{lang}\n");
    let end = format!("```\n<!-- END examples/out-of-tree-variant/{path} -->");
    let start = GUIDE
        .find(&begin)
        .unwrap_or_else(|| panic!("the guide has the BEGIN marker of {path}"))
        + begin.len();
    let stop = GUIDE[start..]
        .find(&end)
        .unwrap_or_else(|| panic!("the guide has the END marker of {path}"))
        + start;
    &GUIDE[start..stop]
}

#[test]
fn the_guide_quotes_this_crate_exactly() {
    for (path, lang, text) in [
        ("Cargo.toml", "toml", include_str!("../Cargo.toml")),
        ("src/main.rs", "rust", include_str!("../src/main.rs")),
        (
            "tests/conformance.rs",
            "rust",
            include_str!("conformance.rs"),
        ),
    ] {
        assert!(
            quoted(path, lang) == text,
            "docs/adding-a-variant.md no longer quotes examples/out-of-tree-variant/{path} \
             exactly; copy the file into the guide between its markers"
        );
    }
}
