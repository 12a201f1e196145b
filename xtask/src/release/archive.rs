//! The release archive (`.tar.gz`) and its checksum file.
//!
//! The archive is reproducible: entries are sorted, and every header has the same owner
//! (0), a fixed modification time and a normalised mode, so the same files give the same
//! bytes.

use flate2::write::GzEncoder;
use flate2::{Compression, GzBuilder};
use sha2::{Digest, Sha256};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A file to put in the archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Path inside the archive, with `/` separators.
    pub name: String,
    /// The file on disk.
    pub source: PathBuf,
    /// Whether it is executable (mode 755, else 644).
    pub executable: bool,
}

/// The top-level files of the archive besides the binary and `docs/`.
pub const TOP_FILES: &[&str] = &["README.md", "LICENSE-MIT", "LICENSE-APACHE", "CHANGELOG.md"];

/// The archive's file name: `kshogi-<version>-<target>.tar.gz`.
pub fn archive_name(version: &str, target: &str) -> String {
    format!("kshogi-{version}-{target}.tar.gz")
}

/// The files of the archive, all under the directory `prefix`: the binary, [`TOP_FILES`]
/// and every file below `docs/` (sorted by name).
pub fn collect(root: &Path, binary: &Path, prefix: &str) -> Result<Vec<Entry>, String> {
    let binary_name = binary
        .file_name()
        .ok_or_else(|| format!("{} is not a file", binary.display()))?
        .to_string_lossy()
        .into_owned();
    let mut entries = vec![Entry {
        name: format!("{prefix}/{binary_name}"),
        source: binary.to_path_buf(),
        executable: true,
    }];
    for file in TOP_FILES {
        let source = root.join(file);
        if !source.is_file() {
            return Err(format!("{file} is missing from {}", root.display()));
        }
        entries.push(Entry {
            name: format!("{prefix}/{file}"),
            source,
            executable: false,
        });
    }
    let mut docs = Vec::new();
    walk(&root.join("docs"), "docs", &mut docs)?;
    if docs.is_empty() {
        return Err(format!("{}/docs has no files", root.display()));
    }
    docs.sort();
    entries.extend(docs.into_iter().map(|(name, source)| Entry {
        name: format!("{prefix}/{name}"),
        source,
        executable: false,
    }));
    Ok(entries)
}

/// Adds the regular files below `dir` to `out` as (name relative to the root, path).
fn walk(dir: &Path, name: &str, out: &mut Vec<(String, PathBuf)>) -> Result<(), String> {
    let read = fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for item in read {
        let item = item.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let file_name = item.file_name().to_string_lossy().into_owned();
        let path = item.path();
        let kind = item
            .file_type()
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let child = format!("{name}/{file_name}");
        if kind.is_dir() {
            walk(&path, &child, out)?;
        } else if kind.is_file() {
            out.push((child, path));
        }
        // Symbolic links and other special files are left out.
    }
    Ok(())
}

/// Writes the gzip-compressed tar of `entries` to `out` (through a temporary file, so a
/// failed run leaves no half archive), with `mtime` on every header. Parent directories
/// get their own entries.
pub fn write_tar_gz(entries: &[Entry], mtime: u64, out: &Path) -> Result<(), String> {
    let partial = out.with_extension("gz.partial");
    let file = fs::File::create(&partial)
        .map_err(|e| format!("cannot create {}: {e}", partial.display()))?;
    let gz: GzEncoder<fs::File> = GzBuilder::new().mtime(0).write(file, Compression::best());
    let mut tar = tar::Builder::new(gz);
    let mut dirs_done: Vec<String> = Vec::new();
    let io = |e: std::io::Error| format!("cannot write {}: {e}", partial.display());
    for entry in entries {
        // Directory entries for each parent not yet written, outermost first.
        let parts: Vec<&str> = entry.name.split('/').collect();
        for depth in 1..parts.len() {
            let dir = format!("{}/", parts[..depth].join("/"));
            if !dirs_done.contains(&dir) {
                let mut header = tar::Header::new_gnu();
                header.set_entry_type(tar::EntryType::Directory);
                header.set_mode(0o755);
                header.set_size(0);
                header.set_mtime(mtime);
                header.set_uid(0);
                header.set_gid(0);
                tar.append_data(&mut header, &dir, std::io::empty())
                    .map_err(io)?;
                dirs_done.push(dir);
            }
        }
        let data = fs::read(&entry.source)
            .map_err(|e| format!("cannot read {}: {e}", entry.source.display()))?;
        let mut header = tar::Header::new_gnu();
        header.set_entry_type(tar::EntryType::Regular);
        header.set_mode(if entry.executable { 0o755 } else { 0o644 });
        header.set_size(data.len() as u64);
        header.set_mtime(mtime);
        header.set_uid(0);
        header.set_gid(0);
        tar.append_data(&mut header, &entry.name, data.as_slice())
            .map_err(io)?;
    }
    let gz = tar.into_inner().map_err(io)?;
    let mut file = gz.finish().map_err(io)?;
    file.flush().map_err(io)?;
    file.sync_all().map_err(io)?;
    drop(file);
    fs::rename(&partial, out).map_err(|e| {
        format!(
            "cannot rename {} to {}: {e}",
            partial.display(),
            out.display()
        )
    })
}

/// The SHA-256 of a file's bytes, in lowercase hex.
pub fn sha256_file(path: &Path) -> Result<String, String> {
    let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(sha256_hex(&bytes))
}

/// The SHA-256 of `bytes`, in lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The new `SHA256SUMS` text: the line for `name` (`<hex>  <name>`, as `sha256sum`
/// prints) replaces any earlier line for it, lines of other files are kept while `keep`
/// says the file still exists, and lines are sorted by file name.
pub fn update_sums(existing: &str, name: &str, hex: &str, keep: impl Fn(&str) -> bool) -> String {
    let mut lines: Vec<(String, String)> = existing
        .lines()
        .filter_map(|line| {
            let (sum, file) = line.split_once("  ")?;
            let file = file.trim_start_matches('*');
            (file != name && keep(file)).then(|| (file.to_string(), sum.to_string()))
        })
        .collect();
    lines.push((name.to_string(), hex.to_string()));
    lines.sort();
    lines
        .iter()
        .map(|(file, sum)| format!("{sum}  {file}\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_known_inputs() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn sums_file_replaces_the_line_and_drops_vanished_files() {
        let existing = "aaa  kshogi-0.1.0-x.tar.gz\nbbb  kshogi-0.1.0-y.tar.gz\nccc  gone.tar.gz\n";
        let text = update_sums(existing, "kshogi-0.1.0-x.tar.gz", "ddd", |f| {
            f != "gone.tar.gz"
        });
        assert_eq!(
            text,
            "ddd  kshogi-0.1.0-x.tar.gz\nbbb  kshogi-0.1.0-y.tar.gz\n"
        );
        assert_eq!(
            update_sums("", "a.tar.gz", "eee", |_| true),
            "eee  a.tar.gz\n"
        );
    }

    #[test]
    fn archive_name_has_version_and_target() {
        assert_eq!(
            archive_name("0.2.0", "x86_64-unknown-linux-gnu"),
            "kshogi-0.2.0-x86_64-unknown-linux-gnu.tar.gz"
        );
    }

    #[test]
    fn archives_are_reproducible_and_hold_the_files() {
        let dir = std::env::temp_dir().join(format!("xtask-archive-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("docs/sub")).unwrap();
        for file in TOP_FILES {
            fs::write(dir.join(file), format!("{file}\n")).unwrap();
        }
        fs::write(dir.join("docs/b.md"), "b").unwrap();
        fs::write(dir.join("docs/sub/a.md"), "a").unwrap();
        fs::write(dir.join("kshogi"), "binary").unwrap();
        let entries = collect(&dir, &dir.join("kshogi"), "kshogi-1.0.0-t").unwrap();
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "kshogi-1.0.0-t/kshogi",
                "kshogi-1.0.0-t/README.md",
                "kshogi-1.0.0-t/LICENSE-MIT",
                "kshogi-1.0.0-t/LICENSE-APACHE",
                "kshogi-1.0.0-t/CHANGELOG.md",
                "kshogi-1.0.0-t/docs/b.md",
                "kshogi-1.0.0-t/docs/sub/a.md",
            ]
        );
        let one = dir.join("one.tar.gz");
        let two = dir.join("two.tar.gz");
        write_tar_gz(&entries, 1_700_000_000, &one).unwrap();
        write_tar_gz(&entries, 1_700_000_000, &two).unwrap();
        assert_eq!(fs::read(&one).unwrap(), fs::read(&two).unwrap());
        assert!(!dir.join("one.tar.gz.partial").exists());

        let file = fs::File::open(&one).unwrap();
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
        let mut listed = Vec::new();
        for entry in archive.entries().unwrap() {
            let entry = entry.unwrap();
            let header = entry.header();
            listed.push((
                entry.path().unwrap().to_string_lossy().into_owned(),
                header.mode().unwrap(),
                header.mtime().unwrap(),
            ));
        }
        assert_eq!(listed[0], ("kshogi-1.0.0-t/".into(), 0o755, 1_700_000_000));
        assert_eq!(
            listed[1],
            ("kshogi-1.0.0-t/kshogi".into(), 0o755, 1_700_000_000)
        );
        assert!(listed.contains(&("kshogi-1.0.0-t/docs/sub/".into(), 0o755, 1_700_000_000)));
        assert!(listed.contains(&("kshogi-1.0.0-t/docs/sub/a.md".into(), 0o644, 1_700_000_000)));
        assert_eq!(listed.len(), 10);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_files_are_named() {
        let dir = std::env::temp_dir().join(format!("xtask-archive-miss-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let err = collect(&dir, &dir.join("kshogi"), "p").unwrap_err();
        assert!(err.starts_with("README.md is missing from"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
