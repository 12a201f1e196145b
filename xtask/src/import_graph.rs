//! Which files of a crate import which, and the circles among them, for tidy's rule
//! `no-import-circles`.
//!
//! A file's module path comes from its place under `src/` (`search.rs` is `search`,
//! `kif/replay.rs` is `kif::replay`, `kif/mod.rs` is `kif`, `lib.rs` is the crate). Every
//! path a file names that starts with `crate::`, `super::` or `self::` (in a `use` tree or
//! in code), or, in a root file, with the name of one of its child modules, is resolved to
//! the deepest file that declares it. A name a root file (`lib.rs`, `main.rs`, `mod.rs`)
//! re-exports with `use` is followed to the file that defines it.
//!
//! Root files themselves are not nodes of the graph: they declare the modules and gather the
//! crate's public names, so every file is linked to them both ways by design. A circle is a
//! set of two or more other files each reachable from every other through imports.
//!
//! The input is code with comments and string literals already blanked and the test code cut
//! off (tidy's lexer does both).
//!
//! A package's `src/bin/<name>/` directory is a crate of its own (its `main.rs` the root,
//! `crate::` its own modules), checked apart from the library's files by
//! [`circles_by_crate`].

use std::collections::{BTreeMap, BTreeSet};

/// A module path, such as `["kif", "replay"]`; the crate root is empty.
type ModPath = Vec<String>;

/// The module path of a file given relative to `src/` (`"kif/replay.rs"`), and whether it
/// is a root file (`lib.rs`, `main.rs` or a `mod.rs`).
pub fn module_of(rel: &str) -> (ModPath, bool) {
    let rel = rel.strip_suffix(".rs").unwrap_or(rel);
    let mut parts: ModPath = rel.split('/').map(str::to_string).collect();
    let last = parts.pop().unwrap_or_default();
    let root =
        matches!(last.as_str(), "lib" | "main" | "mod") && (last == "mod" || parts.is_empty());
    if !root {
        parts.push(last);
    }
    (parts, root)
}

/// The tokens that matter for paths: identifiers, `::`, `{`, `}`, `,`, `*` and `;`.
fn tokens(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
            continue;
        }
        if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push("::".into());
            i += 2;
            continue;
        }
        if "{},*;".contains(c) {
            out.push(c.to_string());
        } else if !c.is_whitespace() {
            out.push(String::new()); // any other punctuation breaks a path
        }
        i += 1;
    }
    out
}

/// Expands the use tree starting at `toks[*i]` under `prefix` into its leaf paths, each with
/// the name it is known by (the alias after `as`, or its last segment; `*` for a glob).
fn use_tree(toks: &[String], i: &mut usize, prefix: &ModPath, out: &mut Vec<(ModPath, String)>) {
    let mut path = prefix.clone();
    while *i < toks.len() {
        let t = toks[*i].as_str();
        match t {
            "{" => {
                *i += 1;
                loop {
                    use_tree(toks, i, &path, out);
                    match toks.get(*i).map(String::as_str) {
                        Some(",") => *i += 1,
                        Some("}") => {
                            *i += 1;
                            break;
                        }
                        _ => return,
                    }
                    if toks.get(*i).map(String::as_str) == Some("}") {
                        *i += 1;
                        break;
                    }
                }
                return;
            }
            "*" => {
                *i += 1;
                out.push((path, "*".into()));
                return;
            }
            "::" => *i += 1,
            "," | "}" | ";" | "" => break,
            "as" => {
                *i += 1;
                let alias = toks.get(*i).cloned().unwrap_or_default();
                *i += 1;
                out.push((path, alias));
                return;
            }
            _ => {
                path.push(t.to_string());
                *i += 1;
            }
        }
    }
    if path.len() > prefix.len() {
        let name = if path.last().is_some_and(|s| s == "self") {
            path.pop();
            path.last().cloned().unwrap_or_default()
        } else {
            path.last().cloned().unwrap_or_default()
        };
        out.push((path, name));
    }
}

/// The paths a file names: its `use` leaves (with their local names) and the other paths of
/// its code, each as written.
fn named_paths(code: &str) -> (Vec<(ModPath, String)>, Vec<ModPath>) {
    let toks = tokens(code);
    let mut uses = Vec::new();
    let mut inline = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i] == "use" {
            i += 1;
            use_tree(&toks, &mut i, &Vec::new(), &mut uses);
            continue;
        }
        if matches!(toks[i].as_str(), "crate" | "super" | "self")
            && toks.get(i + 1).map(String::as_str) == Some("::")
            && (i == 0 || toks[i - 1] != "::")
        {
            let mut path = vec![toks[i].clone()];
            let mut j = i + 1;
            while toks.get(j).map(String::as_str) == Some("::") {
                match toks.get(j + 1) {
                    Some(t) if !t.is_empty() && !"{},*;".contains(t.as_str()) => {
                        path.push(t.clone())
                    }
                    _ => break,
                }
                j += 2;
            }
            inline.push(path);
            i = j;
            continue;
        }
        i += 1;
    }
    (uses, inline)
}

/// `path` as written in the module `here` (a root file's module when `root`), made absolute,
/// or `None` when it does not start inside the crate.
fn absolute(
    path: &[String],
    here: &ModPath,
    root: bool,
    children: &BTreeSet<String>,
) -> Option<ModPath> {
    let first = path.first()?;
    // A non-root file `a/b.rs` is module `a::b`: `self` is `a::b`, `super` is `a`.
    let mut base = here.clone();
    let mut rest = path;
    match first.as_str() {
        "crate" => {
            base.clear();
            rest = &path[1..];
        }
        "self" => rest = &path[1..],
        "super" => {
            let mut k = 0;
            while path.get(k).is_some_and(|s| s == "super") {
                base.pop()?;
                k += 1;
            }
            rest = &path[k..];
        }
        name if root && children.contains(name) => {}
        _ => return None,
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The files of one crate (paths relative to `src/`, code blanked as the module doc says)
/// and the circles among them, each a sorted list of paths; circles are sorted too.
pub fn circles(files: &[(String, String)]) -> Vec<Vec<String>> {
    struct Module {
        file: String,
        root: bool,
        uses: Vec<(ModPath, String)>,
        inline: Vec<ModPath>,
    }
    let mut modules: BTreeMap<ModPath, Module> = BTreeMap::new();
    for (rel, code) in files {
        let (path, root) = module_of(rel);
        let (uses, inline) = named_paths(code);
        modules.insert(
            path,
            Module {
                file: rel.clone(),
                root,
                uses,
                inline,
            },
        );
    }
    let children = |m: &ModPath| -> BTreeSet<String> {
        modules
            .keys()
            .filter(|k| k.len() == m.len() + 1 && k.starts_with(m))
            .map(|k| k[m.len()].clone())
            .collect()
    };
    // The names each root file brings in with `use`, made absolute: name -> path.
    let mut exports: BTreeMap<ModPath, Vec<(String, ModPath)>> = BTreeMap::new();
    for (path, m) in &modules {
        if m.root {
            let kids = children(path);
            let list = m
                .uses
                .iter()
                .filter_map(|(p, name)| Some((name.clone(), absolute(p, path, true, &kids)?)))
                .collect();
            exports.insert(path.clone(), list);
        }
    }
    // The file (its module) that `abs` names, following a root's re-exports.
    fn target(
        abs: &[String],
        modules: &BTreeMap<ModPath, Module>,
        exports: &BTreeMap<ModPath, Vec<(String, ModPath)>>,
        depth: usize,
    ) -> Option<ModPath> {
        let k = (0..=abs.len())
            .rev()
            .find(|&k| modules.contains_key(&abs[..k]))?;
        let module = abs[..k].to_vec();
        if modules[&module].root && k < abs.len() && depth < 8 {
            let name = &abs[k];
            for (alias, to) in exports.get(&module).into_iter().flatten() {
                if alias == name {
                    return target(to, modules, exports, depth + 1);
                }
            }
            for (alias, to) in exports.get(&module).into_iter().flatten() {
                if alias == "*" {
                    let mut through = to.clone();
                    through.push(name.clone());
                    if let Some(t) = target(&through, modules, exports, depth + 1) {
                        if t != *to {
                            return Some(t);
                        }
                    }
                }
            }
        }
        Some(module)
    }
    let mut edges: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    for (path, m) in &modules {
        if m.root {
            continue;
        }
        let kids = children(path);
        let named = m.uses.iter().map(|(p, _)| p).chain(&m.inline);
        let to: BTreeSet<ModPath> = named
            .filter_map(|p| absolute(p, path, false, &kids))
            .filter_map(|abs| target(&abs, &modules, &exports, 0))
            .filter(|t| t != path && !modules[t].root)
            .collect();
        edges.insert(path.clone(), to);
    }
    // Strongly connected components (Tarjan), kept when they hold two or more files.
    struct Tarjan<'a> {
        edges: &'a BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: BTreeMap<ModPath, usize>,
        low: BTreeMap<ModPath, usize>,
        stack: Vec<ModPath>,
        found: Vec<Vec<ModPath>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: &ModPath) {
            let n = self.index.len();
            self.index.insert(v.clone(), n);
            self.low.insert(v.clone(), n);
            self.stack.push(v.clone());
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(lw);
                } else if self.stack.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    let last = w == *v;
                    comp.push(w);
                    if last {
                        break;
                    }
                }
                if comp.len() > 1 {
                    self.found.push(comp);
                }
            }
        }
    }
    let mut t = Tarjan {
        edges: &edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v) {
            t.visit(v);
        }
    }
    let mut out: Vec<Vec<String>> = t
        .found
        .into_iter()
        .map(|c| {
            let mut files: Vec<String> = c.iter().map(|m| modules[m].file.clone()).collect();
            files.sort();
            files
        })
        .collect();
    out.sort();
    out
}

/// The circles among the files of a package's `src/` (paths relative to it): the files of
/// each `bin/<name>/` directory as a crate of their own, the rest as the library's (or the
/// binary's of `main.rs`); each circle's paths relative to `src/`, sorted.
pub fn circles_by_crate(files: &[(String, String)]) -> Vec<Vec<String>> {
    let mut crates: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for (rel, code) in files {
        let (prefix, inner) = match rel.strip_prefix("bin/").and_then(|r| r.split_once('/')) {
            Some((name, inner)) => (format!("bin/{name}/"), inner.to_string()),
            None => (String::new(), rel.clone()),
        };
        crates
            .entry(prefix)
            .or_default()
            .push((inner, code.clone()));
    }
    let mut out: Vec<Vec<String>> = crates
        .iter()
        .flat_map(|(prefix, files)| {
            circles(files)
                .into_iter()
                .map(move |c| c.into_iter().map(|f| format!("{prefix}{f}")).collect())
        })
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binary_directory_is_a_crate_of_its_own() {
        // The binary's `crate::a` is its own `bin/tool/a.rs`, not the library's `a.rs`.
        let list = [
            ("lib.rs", "mod a; mod b;"),
            ("a.rs", "pub struct Y;"),
            ("b.rs", "pub struct X;"),
            ("bin/tool/main.rs", "mod a; mod b;"),
            (
                "bin/tool/a.rs",
                "pub struct Y; fn f() { let _ = crate::b::X; }",
            ),
            ("bin/tool/b.rs", "use crate::a::Y; pub struct X;"),
        ];
        assert_eq!(
            circles_by_crate(&files(&list)),
            [vec![
                "bin/tool/a.rs".to_string(),
                "bin/tool/b.rs".to_string()
            ]]
        );
        // Read as one crate, the binary's paths point at the library's files: no circle.
        assert!(circles(&files(&list)).is_empty());
        // Without the binary's circle, nothing; the library's files are checked as before.
        let mut open = list.to_vec();
        open[5] = ("bin/tool/b.rs", "pub struct X;");
        open[1] = ("a.rs", "use crate::b::X; pub struct Y;");
        open[2] = ("b.rs", "use crate::a::Y; pub struct X;");
        assert_eq!(
            circles_by_crate(&files(&open)),
            [vec!["a.rs".to_string(), "b.rs".to_string()]]
        );
    }

    fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(p, c)| (p.to_string(), c.to_string()))
            .collect()
    }

    #[test]
    fn module_paths_follow_the_file_layout() {
        assert_eq!(module_of("lib.rs"), (vec![], true));
        assert_eq!(module_of("search.rs"), (vec!["search".to_string()], false));
        assert_eq!(module_of("kif/mod.rs"), (vec!["kif".to_string()], true));
        assert_eq!(
            module_of("kif/replay.rs"),
            (vec!["kif".to_string(), "replay".to_string()], false)
        );
    }

    #[test]
    fn two_files_importing_each_other_are_a_circle() {
        let found = circles(&files(&[
            ("lib.rs", "mod a; mod b; mod c;"),
            ("a.rs", "use crate::b::X; pub struct Y;"),
            ("b.rs", "pub struct X; fn f() { let _ = crate::a::Y; }"),
            ("c.rs", "use crate::a::Y;"),
        ]));
        assert_eq!(found, vec![vec!["a.rs".to_string(), "b.rs".to_string()]]);
    }

    #[test]
    fn a_chain_is_not_a_circle_and_the_root_does_not_count() {
        // a -> b -> c, and everything to and from lib.rs: no circle.
        let found = circles(&files(&[
            (
                "lib.rs",
                "mod a; mod b; mod c; pub use a::Y; pub struct Root; fn f() { b::g(); }",
            ),
            ("a.rs", "use crate::{b::X, Root}; pub struct Y;"),
            ("b.rs", "use crate::c::{self, Z}; pub struct X;"),
            ("c.rs", "use crate::Root; pub struct Z;"),
        ]));
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn a_name_re_exported_by_a_root_leads_to_its_file() {
        // c imports `crate::Y`, which lib.rs re-exports from a; a imports c: a circle.
        let found = circles(&files(&[
            ("lib.rs", "mod a; mod c; pub use a::Y;"),
            ("a.rs", "use crate::c::Z; pub struct Y;"),
            ("c.rs", "use crate::Y; pub struct Z;"),
        ]));
        assert_eq!(found, vec![vec!["a.rs".to_string(), "c.rs".to_string()]]);
    }

    #[test]
    fn super_and_nested_trees_resolve_inside_directories() {
        // kif/replay.rs -> illegal.rs (via super::super) -> kif/text.rs: a chain, and
        // kif/text.rs -> kif/replay.rs (via super::replay) closes it.
        let chain = [
            ("lib.rs", "mod illegal; mod kif;"),
            (
                "kif/mod.rs",
                "mod replay; mod text; pub use self::replay::Replay;",
            ),
            (
                "kif/replay.rs",
                "use super::super::illegal::{describe, Wording as W}; pub struct Replay;",
            ),
            ("illegal.rs", "use crate::kif::{text::{kanji, square}};"),
        ];
        let mut open = chain.to_vec();
        open.push(("kif/text.rs", "pub fn kanji() {}"));
        assert!(circles(&files(&open)).is_empty());
        let mut closed = chain.to_vec();
        closed.push(("kif/text.rs", "fn f() { let _ = super::Replay; }"));
        assert_eq!(
            circles(&files(&closed)),
            vec![vec![
                "illegal.rs".to_string(),
                "kif/replay.rs".to_string(),
                "kif/text.rs".to_string()
            ]]
        );
    }
}
