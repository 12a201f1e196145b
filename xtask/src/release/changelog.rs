//! Releasing the `## [Unreleased]` section of a Keep a Changelog file.

/// The heading of the section that collects changes until the next release.
pub const UNRELEASED: &str = "## [Unreleased]";

/// Whether a line is a Markdown link reference definition, `[label]: url`.
fn is_link_definition(line: &str) -> bool {
    line.starts_with('[')
        && line
            .find("]: ")
            .is_some_and(|end| end > 1 && !line[1..end].contains(']'))
}

/// Index of the first line of the trailing block of link definitions (and blank lines),
/// or `lines.len()` when the file does not end with one.
fn links_start(lines: &[&str]) -> usize {
    let mut start = lines.len();
    let mut any = false;
    for (i, line) in lines.iter().enumerate().rev() {
        if line.trim().is_empty() {
            continue;
        }
        if !is_link_definition(line) {
            break;
        }
        any = true;
        start = i;
    }
    if any {
        start
    } else {
        lines.len()
    }
}

/// What [`release`] did to the changelog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Released {
    /// The new text.
    pub text: String,
    /// The new heading, `## [0.2.0] - 2025-01-31`.
    pub heading: String,
    /// Number of lines moved under it; 0 when the Unreleased section was empty.
    pub lines_moved: usize,
    /// Line number of the `## [Unreleased]` heading in the old text, from 1.
    pub unreleased_line: usize,
    /// What happened to the compare links at the bottom, if there are any.
    pub links: Option<String>,
}

/// Moves the body of the `## [Unreleased]` section under a new `## [VERSION] - DATE`
/// heading just below it, leaving an empty Unreleased section.
///
/// The links at the bottom, when `[Unreleased]` is a compare link ending in `...HEAD`, are
/// updated: `[Unreleased]` then compares from the new tag, and a link for the new version
/// compares the previous tag with it. Errors: no Unreleased heading, or a section for
/// `version` that already exists. An empty Unreleased section is not an error here: the
/// result says so with `lines_moved == 0`, and the caller decides (see [`empty_section`]).
pub fn release(text: &str, version: &str, date: &str) -> Result<Released, String> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim_end() == UNRELEASED)
        .ok_or_else(|| format!("CHANGELOG.md has no `{UNRELEASED}` heading"))?;
    let version_heading = format!("## [{version}]");
    if let Some(i) = lines.iter().position(|l| {
        l.trim_end() == version_heading || l.starts_with(&format!("{version_heading} "))
    }) {
        return Err(format!(
            "CHANGELOG.md:{}: there already is a section for {version}",
            i + 1
        ));
    }
    let links = links_start(&lines);
    let end = lines[start + 1..]
        .iter()
        .position(|l| l.starts_with("## "))
        .map_or(lines.len(), |i| start + 1 + i)
        .min(links.max(start + 1));
    let mut body = &lines[start + 1..end];
    while body.first().is_some_and(|l| l.trim().is_empty()) {
        body = &body[1..];
    }
    while body.last().is_some_and(|l| l.trim().is_empty()) {
        body = &body[..body.len() - 1];
    }
    let heading = format!("## [{version}] - {date}");
    let mut out: Vec<String> = lines[..start].iter().map(|l| l.to_string()).collect();
    out.push(UNRELEASED.to_string());
    out.push(String::new());
    out.push(heading.clone());
    if !body.is_empty() {
        out.push(String::new());
        out.extend(body.iter().map(|l| l.to_string()));
    }
    let rest = &lines[end..];
    if !rest.is_empty() {
        out.push(String::new());
    }
    let (rest, link_note) = update_links(rest, version);
    out.extend(rest);
    let mut text_out = out.join("\n");
    if text.ends_with('\n') || text.is_empty() {
        text_out.push('\n');
    }
    Ok(Released {
        text: text_out,
        heading,
        lines_moved: body.len(),
        unreleased_line: start + 1,
        links: link_note,
    })
}

/// The message for an empty Unreleased section (whose heading is on `line`): there is
/// nothing to release.
pub fn empty_section(line: usize) -> String {
    format!("CHANGELOG.md:{line}: the Unreleased section is empty: nothing to release")
}

/// Updates the compare links in the lines after the released section.
fn update_links(rest: &[&str], version: &str) -> (Vec<String>, Option<String>) {
    let mut out: Vec<String> = rest.iter().map(|l| l.to_string()).collect();
    let Some(i) = out
        .iter()
        .position(|l| l.to_ascii_lowercase().starts_with("[unreleased]: "))
    else {
        return (out, None);
    };
    let url = out[i]["[unreleased]: ".len()..].trim().to_string();
    let compare = url
        .strip_suffix("...HEAD")
        .and_then(|head| head.rsplit_once("/compare/"));
    let Some((repo, previous)) = compare else {
        return (
            out,
            Some(format!(
                "the [Unreleased] link `{url}` is not a `.../compare/TAG...HEAD` link; \
                 it was left alone"
            )),
        );
    };
    let prefix = if previous.starts_with('v') { "v" } else { "" };
    let tag = format!("{prefix}{version}");
    out[i] = format!("[Unreleased]: {repo}/compare/{tag}...HEAD");
    out.insert(
        i + 1,
        format!("[{version}]: {repo}/compare/{previous}...{tag}"),
    );
    (
        out,
        Some(format!(
            "links: [Unreleased] now compares {tag}...HEAD; [{version}] compares {previous}...{tag}"
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIRST: &str = "# Changelog\n\
                         \n\
                         Intro.\n\
                         \n\
                         ## [Unreleased]\n\
                         \n\
                         ### Added\n\
                         \n\
                         - A thing.\n\
                         - Another.\n";

    #[test]
    fn moves_the_section_under_the_version_and_leaves_it_empty() {
        let r = release(FIRST, "0.1.0", "2025-01-31").unwrap();
        assert_eq!(
            r.text,
            "# Changelog\n\
             \n\
             Intro.\n\
             \n\
             ## [Unreleased]\n\
             \n\
             ## [0.1.0] - 2025-01-31\n\
             \n\
             ### Added\n\
             \n\
             - A thing.\n\
             - Another.\n"
        );
        assert_eq!(r.heading, "## [0.1.0] - 2025-01-31");
        assert_eq!(r.lines_moved, 4);
        assert_eq!(r.unreleased_line, 5);
        assert_eq!(r.links, None);
        // Releasing again without new entries moves nothing, and says so.
        let again = release(&r.text, "0.2.0", "2025-02-01").unwrap();
        assert_eq!(again.lines_moved, 0);
        assert!(again
            .text
            .contains("## [Unreleased]\n\n## [0.2.0] - 2025-02-01\n\n## [0.1.0] - 2025-01-31\n"));
        assert_eq!(
            empty_section(again.unreleased_line),
            "CHANGELOG.md:5: the Unreleased section is empty: nothing to release"
        );
    }

    #[test]
    fn keeps_older_sections_and_updates_compare_links() {
        let text = "# Changelog\n\
                    \n\
                    ## [Unreleased]\n\
                    ### Fixed\n\
                    - A bug.\n\
                    \n\
                    ## [0.1.0] - 2025-01-31\n\
                    ### Added\n\
                    - Everything.\n\
                    \n\
                    [Unreleased]: https://example.org/k/compare/v0.1.0...HEAD\n\
                    [0.1.0]: https://example.org/k/releases/tag/v0.1.0\n";
        let r = release(text, "0.2.0", "2025-03-01").unwrap();
        assert_eq!(
            r.text,
            "# Changelog\n\
             \n\
             ## [Unreleased]\n\
             \n\
             ## [0.2.0] - 2025-03-01\n\
             \n\
             ### Fixed\n\
             - A bug.\n\
             \n\
             ## [0.1.0] - 2025-01-31\n\
             ### Added\n\
             - Everything.\n\
             \n\
             [Unreleased]: https://example.org/k/compare/v0.2.0...HEAD\n\
             [0.2.0]: https://example.org/k/compare/v0.1.0...v0.2.0\n\
             [0.1.0]: https://example.org/k/releases/tag/v0.1.0\n"
        );
        assert_eq!(
            r.links.as_deref(),
            Some(
                "links: [Unreleased] now compares v0.2.0...HEAD; [0.2.0] compares v0.1.0...v0.2.0"
            )
        );
    }

    #[test]
    fn links_right_after_the_unreleased_section_end_it() {
        let text = "## [Unreleased]\n- New.\n\n[Unreleased]: https://x/commits/main\n";
        let r = release(text, "1.0.0", "2025-01-01").unwrap();
        assert_eq!(
            r.text,
            "## [Unreleased]\n\n## [1.0.0] - 2025-01-01\n\n- New.\n\n\
             [Unreleased]: https://x/commits/main\n"
        );
        assert!(r.links.unwrap().contains("left alone"));
    }

    #[test]
    fn refusals_name_the_problem() {
        assert_eq!(
            release("# Changelog\n\n## Unreleased\n- x\n", "1.0.0", "d").unwrap_err(),
            "CHANGELOG.md has no `## [Unreleased]` heading"
        );
        assert_eq!(
            release(
                "## [Unreleased]\n- x\n\n## [1.0.0] - 2024-01-01\n- y\n",
                "1.0.0",
                "d"
            )
            .unwrap_err(),
            "CHANGELOG.md:4: there already is a section for 1.0.0"
        );
        let empty = release("## [Unreleased]\n\n\n## [0.1.0]\n- y\n", "0.2.0", "d").unwrap();
        assert_eq!((empty.lines_moved, empty.unreleased_line), (0, 1));
    }

    #[test]
    fn link_definitions_are_recognised() {
        assert!(is_link_definition("[Unreleased]: https://x"));
        assert!(is_link_definition("[0.1.0]: https://x"));
        assert!(!is_link_definition("- [a link](https://x)"));
        assert!(!is_link_definition("[]: x"));
        assert!(!is_link_definition("[a] [b]: x"));
    }
}
