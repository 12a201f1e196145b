//! `cargo xtask release <VERSION> [--dry-run] [--allow-dirty]`: one command from a clean
//! tree to a release archive with its checksum.
//!
//! In order: refuse a dirty tree (unless `--allow-dirty`) and a version that is not greater
//! than the current one; set the version of every crate; move the `Unreleased` section of
//! CHANGELOG.md under the version with today's date (UTC); build `kshogi` in release mode;
//! write `target/dist/kshogi-<VERSION>-<target>.tar.gz` and `target/dist/SHA256SUMS`.
//! `--dry-run` computes and prints the version and changelog changes but writes no file
//! under version control; its archive is built from the tree as it is. An empty Unreleased
//! section stops a real release (there is nothing to release) but only draws a warning in a
//! dry run, which therefore also works right after a release; the xtask tests rely on that.

pub mod archive;
pub mod changelog;
pub mod manifest;
pub mod semver;

use crate::util::{build_kshogi, capture, display_path, host_triple, utc_today};
use semver::Version;
use std::cmp::Ordering;
use std::path::Path;

/// The option summary for the usage text.
pub const USAGE: &str = "\
  release <VERSION> [--dry-run] [--allow-dirty]
                     set every crate to VERSION, date the CHANGELOG's Unreleased section,
                     build kshogi and write target/dist/kshogi-VERSION-TARGET.tar.gz and
                     target/dist/SHA256SUMS
      --dry-run           change no file under version control; print what would change
                          (the archive is still written, from the tree as it is)
      --allow-dirty       run even with uncommitted changes (meant for tests)
";

/// The options of `cargo xtask release`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleaseOptions {
    /// The version to release, as given.
    pub version: String,
    /// `--dry-run`.
    pub dry_run: bool,
    /// `--allow-dirty`.
    pub allow_dirty: bool,
}

impl ReleaseOptions {
    /// Reads the arguments after `release`. `Err` is a usage message.
    pub fn parse(args: &[String]) -> Result<ReleaseOptions, String> {
        let mut version = None;
        let mut dry_run = false;
        let mut allow_dirty = false;
        for arg in args {
            match arg.as_str() {
                "--dry-run" => dry_run = true,
                "--allow-dirty" => allow_dirty = true,
                flag if flag.starts_with('-') => {
                    return Err(format!("unexpected argument `{flag}` for `release`"))
                }
                v if version.is_none() => version = Some(v.to_string()),
                extra => return Err(format!("unexpected argument `{extra}` for `release`")),
            }
        }
        let version =
            version.ok_or_else(|| "`release` needs a VERSION such as 0.2.0".to_string())?;
        Ok(ReleaseOptions {
            version,
            dry_run,
            allow_dirty,
        })
    }
}

/// The state of the git work tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TreeState {
    /// Nothing to commit, no untracked files.
    Clean,
    /// `git status --porcelain` lines.
    Dirty(Vec<String>),
    /// Git could not tell (not installed, not a repository): why.
    Unknown(String),
}

/// Asks git for the state of the tree at `root`. Untracked files count as dirty: they
/// could end up in the archive (a new file under `docs/`).
pub fn tree_state(root: &Path) -> TreeState {
    match capture(
        "git",
        &["status", "--porcelain", "--untracked-files=normal"],
        root,
    ) {
        Ok(text) => {
            let lines: Vec<String> = text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(str::to_string)
                .collect();
            if lines.is_empty() {
                TreeState::Clean
            } else {
                TreeState::Dirty(lines)
            }
        }
        Err(e) => TreeState::Unknown(e),
    }
}

/// Whether the release may go on from a tree in `state`. `Ok` carries a warning to print
/// when `--allow-dirty` let a dirty or unknown tree through; `Err` says why not.
pub fn check_tree(state: &TreeState, allow_dirty: bool) -> Result<Option<String>, String> {
    match (state, allow_dirty) {
        (TreeState::Clean, _) => Ok(None),
        (TreeState::Dirty(lines), false) => {
            let mut message = format!(
                "the work tree has uncommitted changes ({} path{}); commit or stash them \
                 first (--allow-dirty overrides this, for tests):",
                lines.len(),
                if lines.len() == 1 { "" } else { "s" }
            );
            for line in lines.iter().take(10) {
                message.push_str(&format!("\n    {line}"));
            }
            if lines.len() > 10 {
                message.push_str(&format!("\n    ... and {} more", lines.len() - 10));
            }
            Err(message)
        }
        (TreeState::Dirty(lines), true) => Ok(Some(format!(
            "warning: the work tree has {} uncommitted change{}; going on because of \
             --allow-dirty",
            lines.len(),
            if lines.len() == 1 { "" } else { "s" }
        ))),
        (TreeState::Unknown(why), false) => Err(format!(
            "cannot tell whether the work tree is clean ({why}); \
             --allow-dirty overrides this"
        )),
        (TreeState::Unknown(why), true) => Ok(Some(format!(
            "warning: cannot tell whether the work tree is clean ({why}); going on because \
             of --allow-dirty"
        ))),
    }
}

/// Parses `new` and checks that it is greater than `current`.
pub fn check_version(current: &str, new: &str) -> Result<Version, String> {
    let new_version: Version = new.parse()?;
    let current_version: Version = current
        .parse()
        .map_err(|e| format!("Cargo.toml's current version: {e}"))?;
    match new_version.precedence(&current_version) {
        Ordering::Greater => Ok(new_version),
        Ordering::Equal => Err(format!(
            "version {new} is not greater than the current version {current}: it is the same"
        )),
        Ordering::Less => Err(format!(
            "version {new} is not greater than the current version {current}"
        )),
    }
}

/// The modification time for the archive's entries: `$SOURCE_DATE_EPOCH` when set (the
/// reproducible-builds convention), else the time of the `HEAD` commit, else 0.
fn archive_mtime(root: &Path) -> u64 {
    if let Some(epoch) = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse().ok())
    {
        return epoch;
    }
    capture("git", &["log", "-1", "--format=%ct"], root)
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0)
}

/// Up to `max` lines of a changelog from its Unreleased heading on, for the dry run.
fn changelog_preview(text: &str, max: usize) -> Vec<&str> {
    text.lines()
        .skip_while(|l| l.trim_end() != changelog::UNRELEASED)
        .take(max)
        .collect()
}

/// A file that the release changes.
struct Change {
    /// Path relative to the root.
    path: String,
    /// The new text.
    text: String,
    /// What changes in it, for the summary.
    what: Vec<String>,
}

/// Runs the release from the workspace at `root`.
pub fn run(opts: &ReleaseOptions, root: &Path) -> Result<(), String> {
    let mode = if opts.dry_run { " (dry run)" } else { "" };
    println!("==> xtask release {}{mode}", opts.version);

    if let Some(warning) = check_tree(&tree_state(root), opts.allow_dirty)? {
        println!("{warning}");
    }

    let read = |rel: &str| {
        std::fs::read_to_string(root.join(rel)).map_err(|e| format!("cannot read {rel}: {e}"))
    };
    let root_text = read("Cargo.toml")?;
    let current = manifest::workspace_version(&root_text)?;
    let version = check_version(&current, &opts.version)?;
    let version_text = version.to_string();
    println!("version: {current} -> {version_text}");

    let mut changes = Vec::new();
    let root_bump = manifest::bump_root(&root_text, &version_text)?;
    changes.push(Change {
        path: "Cargo.toml".into(),
        text: root_bump.text,
        what: root_bump.changes,
    });
    for member in manifest::workspace_members(&root_text)? {
        let rel = format!("{member}/Cargo.toml");
        let text = read(&rel)?;
        let bump = manifest::bump_member(&text, &version_text, &rel)?;
        if !bump.changes.is_empty() {
            changes.push(Change {
                path: rel,
                text: bump.text,
                what: bump.changes,
            });
        }
    }
    let date = utc_today();
    let released = changelog::release(&read("CHANGELOG.md")?, &version_text, &date)?;
    if released.lines_moved == 0 {
        let problem = changelog::empty_section(released.unreleased_line);
        if !opts.dry_run {
            return Err(problem);
        }
        // A dry run rehearses the packaging even right after a release (CI runs one as a
        // test), so it reports this and goes on.
        println!("warning: {problem}; a real release stops here");
    }
    let mut changelog_what = vec![format!(
        "the Unreleased section ({} line{}) moved under `{}`",
        released.lines_moved,
        if released.lines_moved == 1 { "" } else { "s" },
        released.heading
    )];
    changelog_what.extend(released.links.clone());
    changes.push(Change {
        path: "CHANGELOG.md".into(),
        text: released.text,
        what: changelog_what,
    });

    let verb = if opts.dry_run {
        "would change"
    } else {
        "changed"
    };
    for change in &changes {
        println!("{verb} {}:", change.path);
        for what in &change.what {
            println!("    {what}");
        }
    }
    if opts.dry_run {
        println!("CHANGELOG.md would then read, from the Unreleased heading on:");
        for line in changelog_preview(&changes[changes.len() - 1].text, 12) {
            println!("    | {line}");
        }
    }
    if !opts.dry_run {
        for change in &changes {
            std::fs::write(root.join(&change.path), &change.text)
                .map_err(|e| format!("cannot write {}: {e}", change.path))?;
        }
    }

    let undo = if opts.dry_run {
        String::new()
    } else {
        let paths: Vec<&str> = changes.iter().map(|c| c.path.as_str()).collect();
        format!(
            " (the version and changelog were already written: `git checkout -- {}` undoes them)",
            paths.join(" ")
        )
    };
    let exe = build_kshogi(root).map_err(|e| format!("{e}{undo}"))?;
    let built = capture(&exe.to_string_lossy(), &["--version"], root)
        .map(|s| s.trim().to_string())
        .map_err(|e| format!("{e}{undo}"))?;
    println!("built {} ({built})", display_path(&exe, root));
    if !opts.dry_run && built != format!("kshogi {version_text}") {
        return Err(format!(
            "the built binary reports `{built}`, not `kshogi {version_text}`{undo}"
        ));
    }
    if opts.dry_run {
        println!(
            "    (dry run: the binary has the current version; the archive is built from the \
             tree as it is)"
        );
    }

    let target = host_triple(root)?;
    let dist = exe
        .parent()
        .and_then(Path::parent)
        .map(|t| t.join("dist"))
        .ok_or_else(|| format!("cannot find the target directory of {}", exe.display()))?;
    std::fs::create_dir_all(&dist).map_err(|e| format!("cannot create {}: {e}", dist.display()))?;
    let name = archive::archive_name(&version_text, &target);
    let prefix = name.trim_end_matches(".tar.gz").to_string();
    let entries = archive::collect(root, &exe, &prefix)?;
    let archive_path = dist.join(&name);
    archive::write_tar_gz(&entries, archive_mtime(root), &archive_path)?;
    let hex = archive::sha256_file(&archive_path)?;
    let sums_path = dist.join("SHA256SUMS");
    let existing = match std::fs::read_to_string(&sums_path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read {}: {e}", sums_path.display())),
    };
    let sums = archive::update_sums(&existing, &name, &hex, |file| dist.join(file).is_file());
    std::fs::write(&sums_path, sums)
        .map_err(|e| format!("cannot write {}: {e}", sums_path.display()))?;
    let size = std::fs::metadata(&archive_path).map_or(0, |m| m.len());

    println!(
        "wrote {} ({} files, {:.1} MiB)",
        display_path(&archive_path, root),
        entries.len(),
        size as f64 / (1024.0 * 1024.0)
    );
    for entry in &entries {
        println!("    {}", entry.name);
    }
    println!("wrote {}:", display_path(&sums_path, root));
    println!("    {hex}  {name}");
    if opts.dry_run {
        println!("dry run: no file under version control was changed");
    } else {
        println!(
            "next: review `git diff` (Cargo.lock follows the new version), commit, and tag \
             v{version_text}"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn options_parse() {
        assert_eq!(
            ReleaseOptions::parse(&args(&["0.2.0", "--dry-run"])).unwrap(),
            ReleaseOptions {
                version: "0.2.0".into(),
                dry_run: true,
                allow_dirty: false
            }
        );
        assert_eq!(
            ReleaseOptions::parse(&args(&["--allow-dirty", "1.0.0"])).unwrap(),
            ReleaseOptions {
                version: "1.0.0".into(),
                dry_run: false,
                allow_dirty: true
            }
        );
        assert_eq!(
            ReleaseOptions::parse(&[]).unwrap_err(),
            "`release` needs a VERSION such as 0.2.0"
        );
        assert_eq!(
            ReleaseOptions::parse(&args(&["1.0.0", "2.0.0"])).unwrap_err(),
            "unexpected argument `2.0.0` for `release`"
        );
        assert_eq!(
            ReleaseOptions::parse(&args(&["1.0.0", "--force"])).unwrap_err(),
            "unexpected argument `--force` for `release`"
        );
    }

    #[test]
    fn a_dirty_tree_is_refused_unless_allowed() {
        assert_eq!(check_tree(&TreeState::Clean, false), Ok(None));
        assert_eq!(check_tree(&TreeState::Clean, true), Ok(None));
        let dirty = TreeState::Dirty(vec![" M Cargo.toml".into(), "?? new.md".into()]);
        let err = check_tree(&dirty, false).unwrap_err();
        assert!(
            err.starts_with("the work tree has uncommitted changes (2 paths)"),
            "{err}"
        );
        assert!(err.contains("\n     M Cargo.toml\n    ?? new.md"), "{err}");
        let warning = check_tree(&dirty, true).unwrap().unwrap();
        assert!(warning.contains("--allow-dirty"), "{warning}");
        let unknown = TreeState::Unknown("not a git repository".into());
        assert!(check_tree(&unknown, false)
            .unwrap_err()
            .contains("not a git repository"));
        assert!(check_tree(&unknown, true).unwrap().is_some());
        let many = TreeState::Dirty((0..12).map(|i| format!(" M f{i}")).collect());
        assert!(check_tree(&many, false)
            .unwrap_err()
            .ends_with("... and 2 more"));
    }

    #[test]
    fn the_preview_starts_at_the_unreleased_heading() {
        let text = "# Changelog\n\n## [Unreleased]\n\n## [0.2.0] - d\n\n- a\n- b\n";
        assert_eq!(
            changelog_preview(text, 4),
            ["## [Unreleased]", "", "## [0.2.0] - d", ""]
        );
    }

    #[test]
    fn the_version_must_grow() {
        assert_eq!(
            check_version("0.1.0", "0.2.0").unwrap().to_string(),
            "0.2.0"
        );
        assert!(check_version("0.1.0", "0.1.1-alpha").is_ok());
        assert!(check_version("1.0.0-rc.1", "1.0.0").is_ok());
        assert_eq!(
            check_version("0.1.0", "0.1.0").unwrap_err(),
            "version 0.1.0 is not greater than the current version 0.1.0: it is the same"
        );
        assert_eq!(
            check_version("0.2.0", "0.1.9").unwrap_err(),
            "version 0.1.9 is not greater than the current version 0.2.0"
        );
        assert_eq!(
            check_version("1.0.0", "1.0.0-rc.1").unwrap_err(),
            "version 1.0.0-rc.1 is not greater than the current version 1.0.0"
        );
        assert!(check_version("0.1.0", "0.1.0+build.2")
            .unwrap_err()
            .ends_with("it is the same"));
        assert!(check_version("0.1.0", "0.2")
            .unwrap_err()
            .starts_with("`0.2` is not a version"));
    }
}
