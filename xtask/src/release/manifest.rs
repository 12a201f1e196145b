//! Setting the version in `Cargo.toml` files with `toml_edit`, which keeps comments, order
//! and formatting: only the version strings change.

use toml_edit::{DocumentMut, Item, Value};

/// Replaces a string value, keeping the spaces and comments around it.
fn set_string(value: &mut Value, new: &str) {
    let decor = value.decor().clone();
    *value = Value::from(new);
    *value.decor_mut() = decor;
}

/// Parses a manifest; `origin` names it in the error.
fn parse(text: &str, origin: &str) -> Result<DocumentMut, String> {
    text.parse::<DocumentMut>()
        .map_err(|e| format!("{origin} is not valid TOML: {e}"))
}

/// The result of bumping one manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bump {
    /// The new text (equal to the old one when nothing changed).
    pub text: String,
    /// What was changed, such as `[workspace.package] version`.
    pub changes: Vec<String>,
}

/// The version in the root manifest's `[workspace.package]`.
pub fn workspace_version(text: &str) -> Result<String, String> {
    let doc = parse(text, "Cargo.toml")?;
    doc.get("workspace")
        .and_then(|w| w.get("package"))
        .and_then(|p| p.get("version"))
        .and_then(Item::as_str)
        .map(str::to_string)
        .ok_or_else(|| "Cargo.toml has no `version` string in [workspace.package]".to_string())
}

/// The member directories listed in the root manifest's `[workspace] members`.
pub fn workspace_members(text: &str) -> Result<Vec<String>, String> {
    let doc = parse(text, "Cargo.toml")?;
    let members = doc
        .get("workspace")
        .and_then(|w| w.get("members"))
        .and_then(Item::as_array)
        .ok_or_else(|| "Cargo.toml has no [workspace] members list".to_string())?;
    members
        .iter()
        .map(|m| match m.as_str() {
            Some(s) if s.contains(['*', '?', '[']) => Err(format!(
                "Cargo.toml: workspace member `{s}` is a glob; list members one by one"
            )),
            Some(s) => Ok(s.to_string()),
            None => Err("Cargo.toml: a workspace member is not a string".to_string()),
        })
        .collect()
}

/// Sets `version` in every path dependency of a dependency table that has one.
fn bump_path_dependencies(table: &mut Item, new: &str, label: &str, changes: &mut Vec<String>) {
    let Some(table) = table.as_table_like_mut() else {
        return;
    };
    for (name, dep) in table.iter_mut() {
        let Some(dep) = dep.as_table_like_mut() else {
            continue;
        };
        if dep.get("path").is_none() {
            continue;
        }
        if let Some(value) = dep.get_mut("version").and_then(Item::as_value_mut) {
            if value.as_str().is_some_and(|v| v != new) {
                set_string(value, new);
                changes.push(format!("[{label}] {}", name.get()));
            }
        }
    }
}

/// Sets the root manifest's `[workspace.package] version` and the `version` of every path
/// dependency in `[workspace.dependencies]`.
pub fn bump_root(text: &str, new: &str) -> Result<Bump, String> {
    let mut doc = parse(text, "Cargo.toml")?;
    let mut changes = Vec::new();
    let version = doc
        .get_mut("workspace")
        .and_then(|w| w.get_mut("package"))
        .and_then(|p| p.get_mut("version"))
        .and_then(Item::as_value_mut)
        .filter(|v| v.is_str())
        .ok_or_else(|| "Cargo.toml has no `version` string in [workspace.package]".to_string())?;
    set_string(version, new);
    changes.push("[workspace.package] version".to_string());
    if let Some(deps) = doc
        .get_mut("workspace")
        .and_then(|w| w.get_mut("dependencies"))
    {
        bump_path_dependencies(deps, new, "workspace.dependencies", &mut changes);
    }
    Ok(Bump {
        text: doc.to_string(),
        changes,
    })
}

/// Sets the version in a member manifest where it does not come from the workspace: a
/// literal `[package] version` of a publishable crate, and the `version` of path
/// dependencies (in `[dependencies]`, `[dev-dependencies]`, `[build-dependencies]` and
/// their `[target.*]` forms). Crates with `publish = false` keep their own version.
pub fn bump_member(text: &str, new: &str, origin: &str) -> Result<Bump, String> {
    let mut doc = parse(text, origin)?;
    let mut changes = Vec::new();
    if let Some(package) = doc.get_mut("package") {
        let publish = package.get("publish").and_then(Item::as_bool) != Some(false);
        if let Some(version) = package.get_mut("version").and_then(Item::as_value_mut) {
            if publish && version.as_str().is_some_and(|v| v != new) {
                set_string(version, new);
                changes.push("[package] version".to_string());
            }
        }
    }
    const TABLES: [&str; 3] = ["dependencies", "dev-dependencies", "build-dependencies"];
    for name in TABLES {
        if let Some(deps) = doc.get_mut(name) {
            bump_path_dependencies(deps, new, name, &mut changes);
        }
    }
    if let Some(targets) = doc.get_mut("target").and_then(Item::as_table_like_mut) {
        for (target, item) in targets.iter_mut() {
            for name in TABLES {
                if let Some(deps) = item.get_mut(name) {
                    let label = format!("target.{}.{name}", target.get());
                    bump_path_dependencies(deps, new, &label, &mut changes);
                }
            }
        }
    }
    Ok(Bump {
        text: if changes.is_empty() {
            text.to_string()
        } else {
            doc.to_string()
        },
        changes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOT: &str = r#"[workspace]
resolver = "2"
members = [
    "crates/core",
    "xtask",
]

[workspace.package]
version = "0.1.0"   # the one version of every crate
edition = "2021"

[workspace.dependencies]
kshogi-core = { path = "crates/core", version = "0.1.0" }
kshogi-notation = { version = "0.1.0", path = "crates/notation", features = ["serde"] }
serde = { version = "1", features = ["derive"] }
thiserror = "2"

[workspace.dependencies.kshogi-cli]
path = "crates/cli"
version = "0.1.0"
"#;

    /// The lines that differ between two texts of the same length in lines.
    fn changed_lines(a: &str, b: &str) -> Vec<(String, String)> {
        assert_eq!(a.lines().count(), b.lines().count());
        a.lines()
            .zip(b.lines())
            .filter(|(x, y)| x != y)
            .map(|(x, y)| (x.to_string(), y.to_string()))
            .collect()
    }

    #[test]
    fn root_bump_changes_only_the_version_strings() {
        assert_eq!(workspace_version(ROOT).unwrap(), "0.1.0");
        let bump = bump_root(ROOT, "0.2.0-rc.1").unwrap();
        assert_eq!(
            bump.changes,
            [
                "[workspace.package] version",
                "[workspace.dependencies] kshogi-core",
                "[workspace.dependencies] kshogi-notation",
                "[workspace.dependencies] kshogi-cli",
            ]
        );
        let changed = changed_lines(ROOT, &bump.text);
        let expected = [
            (
                r#"version = "0.1.0"   # the one version of every crate"#,
                r#"version = "0.2.0-rc.1"   # the one version of every crate"#,
            ),
            (
                r#"kshogi-core = { path = "crates/core", version = "0.1.0" }"#,
                r#"kshogi-core = { path = "crates/core", version = "0.2.0-rc.1" }"#,
            ),
            (
                r#"kshogi-notation = { version = "0.1.0", path = "crates/notation", features = ["serde"] }"#,
                r#"kshogi-notation = { version = "0.2.0-rc.1", path = "crates/notation", features = ["serde"] }"#,
            ),
            (r#"version = "0.1.0""#, r#"version = "0.2.0-rc.1""#),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(changed, expected);
        assert_eq!(workspace_version(&bump.text).unwrap(), "0.2.0-rc.1");
    }

    #[test]
    fn members_are_listed_and_globs_refused() {
        assert_eq!(workspace_members(ROOT).unwrap(), ["crates/core", "xtask"]);
        assert!(workspace_members("[workspace]\nmembers = [\"crates/*\"]\n")
            .unwrap_err()
            .contains("is a glob"));
    }

    #[test]
    fn root_without_a_workspace_version_is_an_error() {
        assert_eq!(
            bump_root("[workspace]\nmembers = []\n", "1.0.0").unwrap_err(),
            "Cargo.toml has no `version` string in [workspace.package]"
        );
        assert!(bump_root("[workspace", "1.0.0")
            .unwrap_err()
            .starts_with("Cargo.toml is not valid TOML"));
    }

    #[test]
    fn members_inheriting_the_version_are_left_alone() {
        let inherit = "[package]\nname = \"a\"\nversion.workspace = true\n\n\
                       [dependencies]\nkshogi-core.workspace = true\n";
        let bump = bump_member(inherit, "0.2.0", "a/Cargo.toml").unwrap();
        assert!(bump.changes.is_empty());
        assert_eq!(bump.text, inherit);
        // An unpublished tool keeps its own version.
        let tool = "[package]\nname = \"xtask\"\nversion = \"0.0.0\"\npublish = false\n";
        assert!(bump_member(tool, "0.2.0", "x").unwrap().changes.is_empty());
    }

    #[test]
    fn members_with_their_own_versions_are_bumped() {
        let own = "[package]\nname = \"b\"\nversion = \"0.1.0\"\n\n\
                   [dependencies]\na = { path = \"../a\", version = \"0.1.0\" }\n\
                   serde = \"1\"\n\n\
                   [target.'cfg(unix)'.dev-dependencies]\nc = { path = \"../c\", version = \"0.1.0\" }\n";
        let bump = bump_member(own, "0.2.0", "b/Cargo.toml").unwrap();
        assert_eq!(
            bump.changes,
            [
                "[package] version",
                "[dependencies] a",
                "[target.cfg(unix).dev-dependencies] c"
            ]
        );
        assert_eq!(bump.text, own.replace("0.1.0", "0.2.0"));
    }
}
