//! docs/adding-a-variant.md quotes this crate's whole `src/lib.rs` as its worked example; the
//! quote must be the real file, so that the guide's example is code that compiles.

#[test]
fn the_guide_quotes_this_crate_exactly() {
    let guide = include_str!("../../../docs/adding-a-variant.md");
    let source = include_str!("../src/lib.rs");
    let begin = "<!-- BEGIN crates/rules-minishogi/src/lib.rs -->\n```rust\n";
    let end = "```\n<!-- END crates/rules-minishogi/src/lib.rs -->";
    let start = guide.find(begin).expect("the guide has the BEGIN marker") + begin.len();
    let stop = guide[start..]
        .find(end)
        .expect("the guide has the END marker")
        + start;
    assert!(
        guide[start..stop] == *source,
        "docs/adding-a-variant.md no longer quotes crates/rules-minishogi/src/lib.rs exactly; \
         copy the file into the guide between the markers"
    );
}
