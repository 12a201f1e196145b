//! `cargo xtask tidy`: the workspace's layering rules, checked on the manifests (through
//! `cargo metadata`) and on the source files read as text.
//!
//! Each rule is an entry of [`RULES`]: a name, what it counts, and a function from the
//! [`Context`] (the workspace's packages and the variants found in the rules crates) to the
//! violations it finds. Every violation is printed as `path:line: rule: message`; the task
//! fails when there is any.
//!
//! Sources are read with a small lexer ([`lex`]) that blanks comments and string and char
//! literals (keeping every line break, so line numbers stay right) and cuts the file at the
//! first line that is just `#[cfg(test)]`: test modules may name whatever they like.

use crate::util::{capture, cargo, display_path};
use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

/// The usage lines of this task.
pub const USAGE: &str =
    "  tidy               check the layering rules on the manifests and sources (see
                     docs/ARCHITECTURE.md, \"Tidy\"); prints `path:line: rule: message`
                     for each violation and fails if there is any
";

/// Package names the rules refer to.
const REGISTRY: &str = "kshogi-registry";
const TUNED_EVAL: &str = "kshogi-tuned-eval";
const NOTATION: &str = "kshogi-notation";
const ENGINE: &str = "kshogi-engine";
const ANALYSIS: &str = "kshogi-analysis";
const PERFT_SUITE: &str = "kshogi-perft-suite";
const USI_CLIENT: &str = "kshogi-usi-client";
const USI_PROTOCOL: &str = "kshogi-usi-protocol";
const CORE: &str = "kshogi-core";
const VARIANTS: &str = "kshogi-variants";
const MATCH: &str = "kshogi-match";
const SOLVER: &str = "kshogi-solver";
const NNUE: &str = "kshogi-nnue";
const REPORT: &str = "kshogi-report";
const PROGRESS: &str = "kshogi-progress";

/// The crates that must stand apart from the engine, the tuned evaluations and the solver
/// (the variant list, and the match runner, which needs only the list), each with what it
/// must not depend on, directly or through another crate.
const STAND_APART: &[(&str, &[&str])] = &[
    (VARIANTS, &[ENGINE, TUNED_EVAL, SOLVER, NOTATION]),
    (MATCH, &[ENGINE, TUNED_EVAL, SOLVER]),
];

/// One rule of the tidy.
pub struct Rule {
    /// Short name, printed with each violation.
    pub name: &'static str,
    /// What `checked` counts, for the success message (`rules crates`, `source files`).
    pub counts: &'static str,
    /// The check.
    pub check: fn(&Context) -> Result<Outcome, String>,
}

/// What a rule found.
#[derive(Debug, Default)]
pub struct Outcome {
    /// How many things (packages, files) it looked at.
    pub checked: usize,
    /// What is wrong, as `(path relative to the root, line, message)`.
    pub found: Vec<(String, usize, String)>,
}

/// The rules, in the order they run.
pub const RULES: &[Rule] = &[
    Rule {
        name: "rules-depend-on-core-only",
        counts: "rules crates",
        check: rules_depend_on_core_only,
    },
    Rule {
        name: "generic-crates-depend-on-no-variant",
        counts: "generic crates",
        check: generic_crates_depend_on_no_variant,
    },
    Rule {
        name: "generic-crates-name-no-variant",
        counts: "source files",
        check: generic_crates_name_no_variant,
    },
    Rule {
        name: "only-the-variant-list-lists-variants",
        counts: "source files",
        check: only_the_variant_list_lists_variants,
    },
    Rule {
        name: "crate-docs-say-what-not",
        counts: "crate roots",
        check: crate_docs_say_what_not,
    },
    Rule {
        name: "architecture-doc-is-current",
        counts: "packages",
        check: architecture_doc_is_current,
    },
    Rule {
        name: "docs-list-every-variant",
        counts: "docs",
        check: docs_list_every_variant,
    },
    Rule {
        name: "no-dependency-cycles",
        counts: "packages",
        check: no_dependency_cycles,
    },
    Rule {
        name: "variant-list-stands-apart",
        counts: "crates",
        check: variant_list_stands_apart,
    },
    Rule {
        name: "published-crates-are-complete",
        counts: "published packages",
        check: published_crates_are_complete,
    },
    Rule {
        name: "no-import-circles",
        counts: "packages",
        check: no_import_circles,
    },
    Rule {
        name: "nested-lock-files-are-current",
        counts: "lock files",
        check: nested_lock_files_are_current,
    },
];

/// The projects outside the workspace that depend on its crates by path, each with a lock
/// file of its own: the out-of-tree example (built `--locked` by CI) and the fuzz targets.
const NESTED_PROJECTS: &[&str] = &["examples/out-of-tree-variant", "fuzz"];

/// Import circles between files that are allowed, each with its reason: `(package
/// directory, the circle's files relative to its `src/`, why)`.
const IMPORT_CIRCLES_ALLOWED: &[(&str, &[&str], &str)] = &[(
    "crates/core",
    &["position.rs", "variant.rs"],
    "the `Variant` trait's methods take a `Position<Self>` and `Position<V>` is generic \
     over `Variant`: a trait and the type built on it name each other by design",
)];

/// One broken rule, printed as `path:line: rule: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// File, relative to the workspace root.
    pub path: String,
    /// Line, from 1.
    pub line: usize,
    /// The rule's name.
    pub rule: &'static str,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}: {}",
            self.path, self.line, self.rule, self.message
        )
    }
}

/// A dependency of a package, as `cargo metadata` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dependency {
    /// The package depended on (not its rename).
    pub name: String,
    /// `normal`, `dev` or `build`.
    pub kind: String,
    /// The version requirement: `^0.1.0`, or `*` for a path dependency without a version.
    pub req: String,
}

/// A workspace package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    /// `kshogi-core`.
    pub name: String,
    /// The manifest's directory relative to the root: `crates/core`, `xtask`.
    pub dir: String,
    /// Its dependencies of every kind.
    pub deps: Vec<Dependency>,
    /// The library root, or the first binary root when there is no library.
    pub root_file: Option<PathBuf>,
    /// Whether it may be published (no `publish = false`).
    pub publish: bool,
    /// The manifest fields a published crate needs (`description`, `license`, `repository`,
    /// `readme`) that it lacks or leaves empty.
    pub missing_fields: Vec<&'static str>,
}

/// The manifest fields every published crate must have.
pub const PUBLISHED_FIELDS: [&str; 4] = ["description", "license", "repository", "readme"];

/// A variant type found in a rules crate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantType {
    /// The type, `Kyoto`.
    pub ident: String,
    /// Its `Variant::NAME`, `kyoto`, when found.
    pub short_name: Option<String>,
    /// Where the `impl Variant` is, as `path:line`.
    pub at: String,
}

/// What the rules look at.
pub struct Context {
    /// The workspace root.
    pub root: PathBuf,
    /// The workspace packages.
    pub packages: Vec<Package>,
    /// The variant types of the rules crates.
    pub variants: Vec<VariantType>,
}

impl Context {
    /// Reads `cargo metadata --format-version 1 --no-deps` output and the rules crates.
    pub fn new(metadata: &str) -> Result<Context, String> {
        let (root, packages) = parse_metadata(metadata)?;
        let mut variants = Vec::new();
        for dir in rules_source_dirs(&root)? {
            for file in rust_files(&dir)? {
                let text = read(&file)?;
                variants.extend(variant_types(&text, &display_path(&file, &root)));
            }
        }
        Ok(Context {
            root,
            packages,
            variants,
        })
    }

    fn short_names(&self) -> BTreeSet<&str> {
        self.variants
            .iter()
            .filter_map(|v| v.short_name.as_deref())
            .collect()
    }
}

/// The workspace root and packages from `cargo metadata` JSON.
pub fn parse_metadata(json: &str) -> Result<(PathBuf, Vec<Package>), String> {
    let v: serde_json::Value =
        serde_json::from_str(json).map_err(|e| format!("cargo metadata: bad JSON: {e}"))?;
    let root = PathBuf::from(
        v["workspace_root"]
            .as_str()
            .ok_or("cargo metadata: no `workspace_root`")?,
    );
    let members = v["packages"]
        .as_array()
        .ok_or("cargo metadata: no `packages`")?;
    let mut packages = Vec::new();
    for p in members {
        let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
        let manifest = PathBuf::from(text(&p["manifest_path"]));
        let dir = manifest.parent().unwrap_or(&manifest);
        let deps = p["dependencies"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|d| Dependency {
                name: text(&d["name"]),
                kind: d["kind"].as_str().unwrap_or("normal").to_string(),
                req: d["req"].as_str().unwrap_or("*").to_string(),
            })
            .collect();
        let targets = p["targets"].as_array().cloned().unwrap_or_default();
        let has_kind = |t: &serde_json::Value, kinds: &[&str]| {
            t["kind"]
                .as_array()
                .is_some_and(|ks| ks.iter().any(|k| kinds.iter().any(|w| k == w)))
        };
        let lib_kinds = ["lib", "rlib", "dylib", "cdylib", "staticlib", "proc-macro"];
        let root_file = targets
            .iter()
            .find(|t| has_kind(t, &lib_kinds))
            .or_else(|| targets.iter().find(|t| has_kind(t, &["bin"])))
            .map(|t| PathBuf::from(text(&t["src_path"])));
        // `publish = false` is an empty list of registries; no `publish` key is `null`.
        let publish = !p["publish"].as_array().is_some_and(Vec::is_empty);
        let missing_fields = PUBLISHED_FIELDS
            .into_iter()
            .filter(|f| !p[*f].as_str().is_some_and(|v| !v.trim().is_empty()))
            .collect();
        packages.push(Package {
            name: text(&p["name"]),
            dir: display_path(dir, &root).replace('\\', "/"),
            deps,
            root_file,
            publish,
            missing_fields,
        });
    }
    packages.sort_by(|a, b| a.dir.cmp(&b.dir));
    Ok((root, packages))
}

/// Runs every rule on the workspace at `root`; `Err` is the failure message.
pub fn run(root: &Path) -> Result<(), String> {
    let metadata = capture(
        &cargo().to_string_lossy(),
        &["metadata", "--format-version", "1", "--no-deps"],
        root,
    )?;
    let context = Context::new(&metadata)?;
    let (violations, checked) = check(&context, RULES)?;
    for v in &violations {
        println!("{v}");
    }
    let summary = summary(&violations, &checked, &context);
    if violations.is_empty() {
        println!("{summary}");
        Ok(())
    } else {
        Err(summary)
    }
}

/// Runs `rules`: every violation, and per rule what it checked (`6 rules crates`).
pub fn check(context: &Context, rules: &[Rule]) -> Result<(Vec<Violation>, Vec<String>), String> {
    let mut violations = Vec::new();
    let mut checked = Vec::new();
    for rule in rules {
        let outcome = (rule.check)(context).map_err(|e| format!("rule {}: {e}", rule.name))?;
        checked.push(format!(
            "{}: {} {}",
            rule.name, outcome.checked, rule.counts
        ));
        violations.extend(
            outcome
                .found
                .into_iter()
                .map(|(path, line, message)| Violation {
                    path,
                    line,
                    rule: rule.name,
                    message,
                }),
        );
    }
    // The same name twice on a line is one thing to fix.
    let mut seen = BTreeSet::new();
    violations.retain(|v| seen.insert(v.to_string()));
    Ok((violations, checked))
}

/// The last line: what was checked, or how many violations of which rules.
fn summary(violations: &[Violation], checked: &[String], context: &Context) -> String {
    if violations.is_empty() {
        let names: Vec<_> = context.variants.iter().map(|v| v.ident.as_str()).collect();
        return format!(
            "tidy: ok: {} rules on {} packages and {} variant types ({}); {}",
            checked.len(),
            context.packages.len(),
            names.len(),
            names.join(", "),
            checked.join(", ")
        );
    }
    let mut per_rule: Vec<(&str, usize)> = Vec::new();
    for v in violations {
        match per_rule.iter_mut().find(|(r, _)| *r == v.rule) {
            Some((_, n)) => *n += 1,
            None => per_rule.push((v.rule, 1)),
        }
    }
    let parts: Vec<_> = per_rule.iter().map(|(r, n)| format!("{r}: {n}")).collect();
    format!(
        "{} violation{} ({})",
        violations.len(),
        if violations.len() == 1 { "" } else { "s" },
        parts.join(", ")
    )
}

// ---------------------------------------------------------------------------------------
// The rules.

/// Whether a package directory holds a variant's rules crate: `crates/rules-*` but not the
/// test-only `crates/rules-tests`.
fn is_rules_dir(dir: &str) -> bool {
    dir.strip_prefix("crates/rules-")
        .is_some_and(|rest| !rest.is_empty() && !rest.contains('/') && rest != "tests")
}

/// Normal and build dependencies: what the package's own code links against.
fn linked(p: &Package) -> impl Iterator<Item = &Dependency> {
    p.deps.iter().filter(|d| d.kind != "dev")
}

/// Rule 1: a rules crate depends on `kshogi-core` only (dev-dependencies aside).
fn rules_depend_on_core_only(cx: &Context) -> Result<Outcome, String> {
    let mut out = Outcome::default();
    for p in cx.packages.iter().filter(|p| is_rules_dir(&p.dir)) {
        out.checked += 1;
        for d in linked(p).filter(|d| d.name != CORE) {
            out.found.push(manifest_violation(
                cx,
                p,
                d,
                format!(
                    "`{}` has a {} dependency on `{}`; a rules crate depends on `{CORE}` only",
                    p.name, d.kind, d.name
                ),
            )?);
        }
    }
    Ok(out)
}

/// Rule 2: notation, the engine, the analysis service and the perft-suite library are
/// generic: no dependency on a variant or on the crates that know the variant list; the
/// engine and the analysis service not on notation either; only the analysis service on the
/// solver (its databases). The USI protocol depends on no kshogi crate at all, the USI
/// client on none but the protocol, the NNUE library on none but core, the progress library
/// (`kshogi-progress`) on none but notation. The reports of the
/// front ends (`kshogi-report`) reach the variants through the registry only: no rules
/// crate, and neither the command line nor its argument parser (clap).
fn generic_crates_depend_on_no_variant(cx: &Context) -> Result<Outcome, String> {
    let mut out = Outcome::default();
    for p in cx.packages.iter() {
        if ![
            NOTATION,
            ENGINE,
            ANALYSIS,
            PERFT_SUITE,
            USI_CLIENT,
            USI_PROTOCOL,
            NNUE,
            REPORT,
            PROGRESS,
        ]
        .contains(&p.name.as_str())
        {
            continue;
        }
        out.checked += 1;
        let forbidden = |name: &str| {
            if p.name == REPORT {
                return name.starts_with("kshogi-rules-") || ["kshogi-cli", "clap"].contains(&name);
            }
            (p.name == USI_CLIENT && name.starts_with("kshogi-") && name != USI_PROTOCOL)
                || (p.name == USI_PROTOCOL && name.starts_with("kshogi-"))
                || (p.name == NNUE && name.starts_with("kshogi-") && name != CORE)
                || name.starts_with("kshogi-rules-")
                || [VARIANTS, REGISTRY, TUNED_EVAL, "kshogi-cli", "kshogi-usi"].contains(&name)
                || (p.name != ANALYSIS && name == "kshogi-solver")
                || (![NOTATION, PERFT_SUITE, PROGRESS].contains(&p.name.as_str())
                    && name == NOTATION)
                || (p.name == PROGRESS && name.starts_with("kshogi-") && name != NOTATION)
        };
        for d in linked(p).filter(|d| forbidden(&d.name)) {
            out.found.push(manifest_violation(
                cx,
                p,
                d,
                if p.name == REPORT {
                    format!(
                        "`{}` has a {} dependency on `{}`; it reaches the variants through \
                         the registry only and knows no front end",
                        p.name, d.kind, d.name
                    )
                } else {
                    format!(
                        "`{}` has a {} dependency on `{}`; it must stay generic over \
                         `kshogi_core::Variant`",
                        p.name, d.kind, d.name
                    )
                },
            )?);
        }
    }
    Ok(out)
}

/// Rule 3: notation, engine, analysis, perft-suite, USI-protocol, USI-client, NNUE and
/// progress sources name no variant type and no rules crate.
fn generic_crates_name_no_variant(cx: &Context) -> Result<Outcome, String> {
    let mut out = Outcome::default();
    let dirs = [
        "crates/notation/src",
        "crates/engine/src",
        "crates/analysis/src",
        "crates/perft-suite/src",
        "crates/usi-protocol/src",
        "crates/usi-client/src",
        "crates/nnue/src",
        "crates/progress/src",
    ]
    .map(|d| cx.root.join(d));
    for (path, lexed) in non_test_sources(&cx.root, &dirs)? {
        out.checked += 1;
        for t in lexed.tokens() {
            let message = if let Some(v) = cx.variants.iter().find(|v| v.ident == t.text) {
                format!(
                    "`{}` names a variant type ({}); notation and engine are generic \
                     over `kshogi_core::Variant`",
                    t.text, v.at
                )
            } else if t.text.starts_with("kshogi_rules_") {
                format!(
                    "`{}` names a rules crate; notation and engine are generic over \
                     `kshogi_core::Variant`",
                    t.text
                )
            } else {
                continue;
            };
            out.found.push((path.clone(), t.line, message));
        }
    }
    Ok(out)
}

/// Rule 4: outside the variant list (and the tuned evaluations) nothing matches on the
/// variants: no `VariantKind::Kyoto` and no `"kyoto" =>` or `"kyoto" |` arm.
fn only_the_variant_list_lists_variants(cx: &Context) -> Result<Outcome, String> {
    let mut out = Outcome::default();
    let short_names = cx.short_names();
    let mut dirs = Vec::new();
    for krate in sorted_dir(&cx.root.join("crates"))? {
        let name = krate.file_name().unwrap_or_default();
        if name != "variants" && name != "tuned-eval" {
            dirs.push(krate.join("src"));
        }
    }
    dirs.push(cx.root.join("fuzz/src"));
    dirs.push(cx.root.join("xtask/src"));
    for (path, lexed) in non_test_sources(&cx.root, &dirs)? {
        out.checked += 1;
        let tokens = lexed.tokens();
        for w in tokens.windows(3) {
            if w[0].text == "VariantKind" && w[1].text == "::" && is_camel_case(&w[2].text) {
                out.found.push((
                    path.clone(),
                    w[0].line,
                    format!(
                        "`VariantKind::{}` outside `{VARIANTS}`; only the variant list \
                         matches on the variants (use its dispatch macro)",
                        w[2].text
                    ),
                ));
            }
        }
        for s in lexed.strings() {
            if !short_names.contains(s.value.as_str()) {
                continue;
            }
            let next: String = lexed.raw[s.end..]
                .iter()
                .skip_while(|c| c.is_whitespace())
                .take(2)
                .collect();
            if next == "=>" || (next.starts_with('|') && next != "||") {
                out.found.push((
                    path.clone(),
                    s.line,
                    format!(
                        "a match arm on the short name \"{}\" outside `{VARIANTS}`; only \
                         the variant list matches on the variants",
                        s.value
                    ),
                ));
            }
        }
    }
    Ok(out)
}

/// Rule 5: every crate root begins with `//!` docs that say what the crate must not do or
/// depend on.
fn crate_docs_say_what_not(cx: &Context) -> Result<Outcome, String> {
    let mut out = Outcome::default();
    for p in &cx.packages {
        let Some(file) = &p.root_file else {
            continue;
        };
        out.checked += 1;
        let path = display_path(file, &cx.root);
        let text = read(file)?;
        let lines: Vec<&str> = text.lines().collect();
        let first = lines.iter().position(|l| !l.trim().is_empty()).unwrap_or(0);
        let docs: Vec<&str> = lines[first.min(lines.len())..]
            .iter()
            .map_while(|l| l.trim_start().strip_prefix("//!"))
            .collect();
        let words = docs.join(" ").to_lowercase();
        let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
        let message = if docs.is_empty() {
            "the crate root does not begin with `//!` docs saying what the crate is for"
        } else if ["must not", "depends on no", "depend on no"]
            .iter()
            .any(|w| words.contains(w))
        {
            continue;
        } else {
            "the crate docs do not say what the crate must not do or depend on \
             (\"must not\", \"depends on no\")"
        };
        out.found.push((path, first + 1, message.to_string()));
    }
    Ok(out)
}

/// Rule 6: docs/ARCHITECTURE.md mentions every package's directory and name.
fn architecture_doc_is_current(cx: &Context) -> Result<Outcome, String> {
    const DOC: &str = "docs/ARCHITECTURE.md";
    let mut out = Outcome::default();
    let text = without_section(&read(&cx.root.join(DOC))?, "## Tidy");
    for p in &cx.packages {
        out.checked += 1;
        let missing: Vec<String> = [p.dir.as_str(), p.name.as_str()]
            .into_iter()
            .filter(|term| !mentions(&text, term))
            .map(|term| format!("`{term}`"))
            .collect();
        if !missing.is_empty() {
            out.found.push((
                DOC.to_string(),
                1,
                format!(
                    "package `{}` ({}) is not described: {} not mentioned",
                    p.name,
                    p.dir,
                    missing.join(" and ")
                ),
            ));
        }
    }
    Ok(out)
}

/// The marker that lets a line of the docs name some variants and not all, on that line or
/// the one before it.
pub const SOME_VARIANTS_MARKER: &str = "<!-- tidy: some variants -->";

/// The lines of a Markdown text that list some registered variants but not all: a line
/// that names at least three of `names` in backticks (`` `kyoto` ``) reads as a list of the
/// variants, and must name every one, unless it or the line before it holds
/// [`SOME_VARIANTS_MARKER`]. Returns `(line, the names it lacks)`.
pub fn incomplete_variant_lists(text: &str, names: &BTreeSet<&str>) -> Vec<(usize, Vec<String>)> {
    let mut found = Vec::new();
    let mut previous = "";
    for (i, line) in text.lines().enumerate() {
        let named = names
            .iter()
            .filter(|n| line.contains(&format!("`{n}`")))
            .count();
        let marked = line.contains(SOME_VARIANTS_MARKER) || previous.contains(SOME_VARIANTS_MARKER);
        if named >= 3 && named < names.len() && !marked {
            let missing = names
                .iter()
                .filter(|n| !line.contains(&format!("`{n}`")))
                .map(|n| n.to_string())
                .collect();
            found.push((i + 1, missing));
        }
        previous = line;
    }
    found
}

/// Rule 7: a list of the variants written out in README.md or docs/ names every registered
/// variant, so that registering one cannot leave a stale list behind unnoticed.
fn docs_list_every_variant(cx: &Context) -> Result<Outcome, String> {
    let names = cx.short_names();
    let mut out = Outcome::default();
    let mut files = vec![cx.root.join("README.md")];
    files.extend(
        sorted_dir(&cx.root.join("docs"))?
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "md")),
    );
    for file in files {
        out.checked += 1;
        let text = read(&file)?;
        for (line, missing) in incomplete_variant_lists(&text, &names) {
            out.found.push((
                display_path(&file, &cx.root),
                line,
                format!(
                    "this line lists variants but not {}; name every registered variant, or \
                     mark a list that is meant to be partial with `{SOME_VARIANTS_MARKER}`",
                    missing
                        .iter()
                        .map(|m| format!("`{m}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
    }
    Ok(out)
}

/// The workspace package named `name`.
fn package<'a>(cx: &'a Context, name: &str) -> Option<&'a Package> {
    cx.packages.iter().find(|p| p.name == name)
}

/// The shortest chain of workspace packages from `from` to `to` along dependencies (of
/// every kind when `dev` is true, else normal and build ones), both ends included; `None`
/// when `to` cannot be reached.
fn dependency_path(cx: &Context, from: &str, to: &str, dev: bool) -> Option<Vec<String>> {
    let mut came_from: Vec<(String, Option<String>)> = vec![(from.to_string(), None)];
    let mut next = 0;
    while next < came_from.len() {
        let name = came_from[next].0.clone();
        next += 1;
        if name == to {
            let mut path = vec![name];
            while let Some((_, Some(before))) = came_from.iter().find(|(n, _)| n == &path[0]) {
                path.insert(0, before.clone());
            }
            return Some(path);
        }
        let Some(p) = package(cx, &name) else {
            continue;
        };
        for d in p.deps.iter().filter(|d| dev || d.kind != "dev") {
            if package(cx, &d.name).is_some() && !came_from.iter().any(|(n, _)| n == &d.name) {
                came_from.push((d.name.clone(), Some(name.clone())));
            }
        }
    }
    None
}

/// Rule 12: the lock file of each nested project ([`NESTED_PROJECTS`]) holds the workspace
/// packages its path dependencies reach (normal and build dependencies, the project's own
/// of every kind), each with the workspace dependencies it has now, and no other workspace
/// package. A new rules crate or library crate changes them, and CI's `--locked` build of
/// the example then fails far from the change.
fn nested_lock_files_are_current(cx: &Context) -> Result<Outcome, String> {
    let mut out = Outcome::default();
    for dir in NESTED_PROJECTS {
        let manifest_path = cx.root.join(dir).join("Cargo.toml");
        let lock_path = cx.root.join(dir).join("Cargo.lock");
        if !manifest_path.is_file() || !lock_path.is_file() {
            continue;
        }
        out.checked += 1;
        let lock_name = format!("{dir}/Cargo.lock");
        let fix = format!(
            "bring it up to date with `cargo metadata --manifest-path {dir}/Cargo.toml \
             --format-version 1 >/dev/null`, which adds what is missing and changes nothing else"
        );
        for (line, message) in nested_lock_problems(cx, &read(&manifest_path)?, &read(&lock_path)?)
            .map_err(|e| format!("{dir}: {e}"))?
        {
            out.found
                .push((lock_name.clone(), line, format!("{message}; {fix}")));
        }
    }
    Ok(out)
}

/// What is wrong with a nested project's lock file (`lock`) given its manifest: `(line,
/// message)` pairs.
fn nested_lock_problems(
    cx: &Context,
    manifest: &str,
    lock: &str,
) -> Result<Vec<(usize, String)>, String> {
    let in_workspace = |name: &str| package(cx, name).is_some();
    // A workspace package's normal and build dependencies on workspace packages.
    let workspace_links = |name: &str| -> BTreeSet<String> {
        package(cx, name).map_or_else(BTreeSet::new, |p| {
            linked(p)
                .filter(|d| in_workspace(&d.name))
                .map(|d| d.name.clone())
                .collect()
        })
    };
    let manifest: toml_edit::DocumentMut = manifest
        .parse()
        .map_err(|e| format!("Cargo.toml does not read: {e}"))?;
    let lock_doc: toml_edit::DocumentMut = lock
        .parse()
        .map_err(|e| format!("Cargo.lock does not read: {e}"))?;
    let own_name = manifest
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(|n| n.as_str())
        .ok_or("Cargo.toml has no package name")?
        .to_string();
    // The project's own path dependencies on workspace packages, of every kind.
    let mut own: BTreeSet<String> = BTreeSet::new();
    for table in ["dependencies", "dev-dependencies", "build-dependencies"] {
        let Some(deps) = manifest.get(table).and_then(|t| t.as_table_like()) else {
            continue;
        };
        for (key, value) in deps.iter() {
            let name = value.get("package").and_then(|p| p.as_str()).unwrap_or(key);
            if value.get("path").is_some() && in_workspace(name) {
                own.insert(name.to_string());
            }
        }
    }
    // What they reach through normal and build dependencies.
    let mut reached: BTreeSet<String> = own.clone();
    let mut todo: Vec<String> = own.iter().cloned().collect();
    while let Some(name) = todo.pop() {
        for d in workspace_links(&name) {
            if reached.insert(d.clone()) {
                todo.push(d);
            }
        }
    }
    // The lock's packages: name, line and the workspace packages among its dependencies.
    let mut locked: Vec<(String, usize, BTreeSet<String>)> = Vec::new();
    if let Some(packages) = lock_doc.get("package").and_then(|p| p.as_array_of_tables()) {
        for p in packages.iter() {
            let Some(name) = p.get("name").and_then(|n| n.as_str()) else {
                continue;
            };
            let deps = p
                .get("dependencies")
                .and_then(|d| d.as_array())
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str())
                        // `name`, or `name version (source)` when two versions are locked.
                        .map(|v| v.split(' ').next().unwrap_or(v).to_string())
                        .filter(|n| in_workspace(n))
                        .collect()
                })
                .unwrap_or_default();
            let needle = format!("name = \"{name}\"");
            let line = lock
                .lines()
                .position(|l| l.trim() == needle)
                .map_or(1, |i| i + 1);
            locked.push((name.to_string(), line, deps));
        }
    }
    let mut found = Vec::new();
    for name in &reached {
        if !locked.iter().any(|(n, _, _)| n == name) {
            found.push((
                1,
                format!("lacks `{name}`, which the project's dependencies reach"),
            ));
        }
    }
    for (name, line, deps) in &locked {
        let expected: BTreeSet<String> = if *name == own_name {
            own.clone()
        } else if reached.contains(name) {
            workspace_links(name)
        } else {
            if in_workspace(name) {
                found.push((
                    *line,
                    format!("locks `{name}`, which the project's dependencies no longer reach"),
                ));
            }
            continue;
        };
        let words = |set: Vec<&String>| {
            set.iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let missing: Vec<&String> = expected.difference(deps).collect();
        let extra: Vec<&String> = deps.difference(&expected).collect();
        if !missing.is_empty() {
            found.push((
                *line,
                format!("`{name}` now depends on {} too", words(missing)),
            ));
        }
        if !extra.is_empty() {
            found.push((
                *line,
                format!("`{name}` no longer depends on {}", words(extra)),
            ));
        }
    }
    Ok(found)
}

/// Rule 8: no dev-dependency closes a cycle among the workspace packages. Cargo allows a
/// dev-dependency on a crate that depends on this one, but then no order packages them
/// both (each needs the other published first); Cargo itself refuses a cycle of normal and
/// build dependencies.
fn no_dependency_cycles(cx: &Context) -> Result<Outcome, String> {
    let mut out = Outcome::default();
    for p in &cx.packages {
        out.checked += 1;
        for d in p.deps.iter().filter(|d| d.kind == "dev") {
            let Some(path) = dependency_path(cx, &d.name, &p.name, true) else {
                continue;
            };
            out.found.push(manifest_violation(
                cx,
                p,
                d,
                format!(
                    "`{}` has a dev dependency on `{}`, which depends on it ({}): a cycle, \
                     which `cargo package` cannot put in order; move the tests, benches or \
                     examples that need `{}` to a crate above both",
                    p.name,
                    d.name,
                    path.join(" -> "),
                    d.name
                ),
            )?);
        }
    }
    Ok(out)
}

/// Rule 9: the variant list, and the match runner that needs only the list, depend on
/// neither the engine, the tuned evaluations nor the solver, directly or through another
/// crate ([`STAND_APART`]).
fn variant_list_stands_apart(cx: &Context) -> Result<Outcome, String> {
    let mut out = Outcome::default();
    for (name, forbidden) in STAND_APART {
        let Some(p) = package(cx, name) else {
            continue;
        };
        out.checked += 1;
        for f in *forbidden {
            let Some(path) = dependency_path(cx, name, f, false) else {
                continue;
            };
            let first = p
                .deps
                .iter()
                .find(|d| d.kind != "dev" && d.name == path[1])
                .ok_or_else(|| format!("`{name}` has no dependency on `{}`", path[1]))?;
            out.found.push(manifest_violation(
                cx,
                p,
                first,
                format!(
                    "`{name}` depends on `{f}` ({}); it must compile none of {}",
                    path.join(" -> "),
                    forbidden
                        .iter()
                        .map(|f| format!("`{f}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )?);
        }
    }
    Ok(out)
}

/// Rule 10: a crate that may be published has the manifest fields a registry shows
/// ([`PUBLISHED_FIELDS`]), and every workspace crate it depends on, of any kind, is
/// published too and named with a version, so that `cargo package` can resolve it.
fn published_crates_are_complete(cx: &Context) -> Result<Outcome, String> {
    let mut out = Outcome::default();
    for p in cx.packages.iter().filter(|p| p.publish) {
        out.checked += 1;
        if !p.missing_fields.is_empty() {
            let manifest = format!("{}/Cargo.toml", p.dir);
            out.found.push((
                manifest,
                1,
                format!(
                    "`{}` may be published but has no {} in its manifest (add it, or \
                     `publish = false`)",
                    p.name,
                    p.missing_fields
                        .iter()
                        .map(|f| format!("`{f}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        for d in &p.deps {
            let Some(target) = package(cx, &d.name) else {
                continue;
            };
            let message = if !target.publish {
                format!(
                    "`{}` has a {} dependency on `{}`, which is never published \
                     (`publish = false`), so `cargo package` cannot resolve it; move what \
                     needs it into an unpublished crate",
                    p.name, d.kind, d.name
                )
            } else if d.req == "*" {
                format!(
                    "`{}` has a {} dependency on `{}` without a version, which `cargo \
                     package` drops (a dev-dependency) or refuses; use \
                     `{}.workspace = true`",
                    p.name, d.kind, d.name, d.name
                )
            } else {
                continue;
            };
            out.found.push(manifest_violation(cx, p, d, message)?);
        }
    }
    Ok(out)
}

/// The line of a dependency in `p`'s manifest (1 when it cannot be told).
/// Rule 11: no two files of a package import each other, directly or around a circle
/// (`crate::`, `super::` and `self::` paths, followed through the root files' re-exports;
/// the root files themselves do not count, and each `src/bin/<name>/` is a crate of its
/// own, see `import_graph`), except the circles of
/// [`IMPORT_CIRCLES_ALLOWED`].
fn no_import_circles(cx: &Context) -> Result<Outcome, String> {
    let mut out = Outcome::default();
    for package in &cx.packages {
        let src = cx.root.join(&package.dir).join("src");
        if !src.is_dir() {
            continue;
        }
        out.checked += 1;
        let mut files = Vec::new();
        for (path, lexed) in non_test_sources(&cx.root, std::slice::from_ref(&src))? {
            let code: String = lexed.code.iter().collect();
            let code: String = code
                .lines()
                .take(lexed.test_line.saturating_sub(1))
                .collect::<Vec<_>>()
                .join("\n");
            let prefix = format!("{}/src/", package.dir);
            let rel = path.strip_prefix(&prefix).unwrap_or(&path).to_string();
            files.push((rel, code));
        }
        for circle in crate::import_graph::circles_by_crate(&files) {
            let allowed = IMPORT_CIRCLES_ALLOWED
                .iter()
                .any(|(dir, list, _)| *dir == package.dir && *list == circle.as_slice());
            if !allowed {
                out.found.push((
                    format!("{}/src/{}", package.dir, circle[0]),
                    1,
                    format!(
                        "these files of `{}` import each other in a circle: {}; move what \
                         they share into a file that imports neither",
                        package.name,
                        circle.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(out)
}

fn manifest_violation(
    cx: &Context,
    p: &Package,
    d: &Dependency,
    message: String,
) -> Result<(String, usize, String), String> {
    let manifest = Path::new(&p.dir).join("Cargo.toml");
    let text = read(&cx.root.join(&manifest))?;
    let line = dependency_line(&text, &d.name, &d.kind).unwrap_or(1);
    Ok((manifest.to_string_lossy().replace('\\', "/"), line, message))
}

/// The line declaring dependency `name` of `kind` in a manifest: a key `name` (or
/// `name.workspace`) in a `[dependencies]`-like table, or a `[dependencies.name]` header.
fn dependency_line(manifest: &str, name: &str, kind: &str) -> Option<usize> {
    let table = match kind {
        "build" => "build-dependencies",
        "dev" => "dev-dependencies",
        _ => "dependencies",
    };
    // `[dependencies]`, or `[target.'cfg(unix)'.dependencies]`.
    let is_table = |t: &str| t == table || t.ends_with(&format!(".{table}"));
    let mut section = String::new();
    for (i, line) in manifest.lines().enumerate() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = header.trim().to_string();
            if let Some((t, dep)) = section.rsplit_once('.') {
                if dep == name && is_table(t) {
                    return Some(i + 1);
                }
            }
            continue;
        }
        let key = line.split(['=', '.', ' ']).next().unwrap_or("");
        if key.trim_matches('"') == name && is_table(&section) {
            return Some(i + 1);
        }
    }
    None
}

/// `text` without the section under the heading line `heading` (up to the next heading of
/// the same level): the tidy's own section names packages only to state the rules.
fn without_section(text: &str, heading: &str) -> String {
    let level = heading.split(' ').next().unwrap_or("##").to_string() + " ";
    let mut inside = false;
    let mut kept = String::new();
    for line in text.lines() {
        if line.trim_end() == heading {
            inside = true;
        } else if inside && line.starts_with(&level) {
            inside = false;
        }
        if !inside {
            kept.push_str(line);
        }
        kept.push('\n');
    }
    kept
}

/// Whether `text` has `term` as a whole term: not inside a longer name or path.
fn mentions(text: &str, term: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    text.match_indices(term).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(part)
            && !text[at + term.len()..].chars().next().is_some_and(part)
    })
}

/// `Kyoto`, `TwoWords`: an upper-case letter first and a lower-case one somewhere.
fn is_camel_case(ident: &str) -> bool {
    ident.starts_with(|c: char| c.is_ascii_uppercase()) && ident.chars().any(|c| c.is_lowercase())
}

/// The variant types of one rules-crate source: `impl [kshogi_core::]Variant for X`, with
/// the string literal of `const NAME` inside that impl.
pub fn variant_types(source: &str, path: &str) -> Vec<VariantType> {
    let lexed = lex(source);
    let tokens = lexed.tokens();
    let mut found = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.text != "impl" {
            continue;
        }
        let mut j = i + 1;
        if tokens.get(j).is_some_and(|t| t.text == "<") {
            let mut depth = 0;
            while let Some(t) = tokens.get(j) {
                depth += i32::from(t.text == "<") - i32::from(t.text == ">");
                j += 1;
                if depth == 0 {
                    break;
                }
            }
        }
        let text = |k: usize| tokens.get(k).map_or("", |t| t.text.as_str());
        if text(j) == "kshogi_core" && text(j + 1) == "::" {
            j += 2;
        }
        if text(j) != "Variant" || text(j + 1) != "for" {
            continue;
        }
        let Some(ident) = tokens.get(j + 2) else {
            continue;
        };
        // The impl's body: from its `{` to the matching `}`.
        let body_start = tokens[j + 2..].iter().position(|t| t.text == "{");
        let mut short_name = None;
        if let Some(open) = body_start.map(|k| j + 2 + k) {
            let mut depth = 0;
            let mut end = lexed.raw.len();
            for t in &tokens[open..] {
                depth += i32::from(t.text == "{") - i32::from(t.text == "}");
                if depth == 0 {
                    end = t.start;
                    break;
                }
            }
            let name_at = tokens[open..]
                .windows(2)
                .find(|w| w[0].text == "const" && w[1].text == "NAME" && w[1].start < end)
                .map(|w| w[1].start);
            short_name = name_at.and_then(|at| {
                lexed
                    .strings()
                    .into_iter()
                    .find(|s| s.start > at && s.start < end)
                    .map(|s| s.value)
            });
        }
        found.push(VariantType {
            ident: ident.text.clone(),
            short_name,
            at: format!("{path}:{}", t.line),
        });
    }
    found
}

// ---------------------------------------------------------------------------------------
// Reading sources.

/// A source file lexed: the raw text, the same text with comments and literals blanked, the
/// string literals, and the line where the test code starts.
pub struct Lexed {
    /// The text as written.
    pub raw: Vec<char>,
    /// The text with every character of comments and string/char literals but line breaks
    /// replaced by a space: same length, same lines.
    pub code: Vec<char>,
    /// The string literals, in order.
    strings: Vec<StrLit>,
    /// The first line (from 1) whose trimmed text is `#[cfg(test)]`: it and everything after
    /// it is ignored.
    pub test_line: usize,
}

/// A string literal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrLit {
    /// Offset (in chars) of the literal: its prefix (`r#`, `b`) or opening quote.
    pub start: usize,
    /// Offset just after the closing quote (and the raw string's `#`s).
    pub end: usize,
    /// The line of the opening quote.
    pub line: usize,
    /// What is between the quotes, as written (escapes not decoded).
    pub value: String,
}

/// A word or punctuation of the blanked code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// `Kyoto`, `::`, `{`.
    pub text: String,
    /// Offset in chars.
    pub start: usize,
    /// Line, from 1.
    pub line: usize,
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Lexes a Rust source: see [`Lexed`].
pub fn lex(source: &str) -> Lexed {
    let raw: Vec<char> = source.chars().collect();
    let mut code = raw.clone();
    let mut strings = Vec::new();
    let blank = |code: &mut Vec<char>, from: usize, to: usize| {
        for c in &mut code[from..to] {
            if *c != '\n' {
                *c = ' ';
            }
        }
    };
    let at = |k: usize| raw.get(k).copied().unwrap_or('\0');
    let mut line = 1;
    let mut i = 0;
    while i < raw.len() {
        let c = raw[i];
        let start = i;
        let start_line = line;
        let prev_ident = i > 0 && is_ident_char(raw[i - 1]);
        if c == '/' && at(i + 1) == '/' {
            while i < raw.len() && raw[i] != '\n' {
                i += 1;
            }
            blank(&mut code, start, i);
            continue;
        }
        if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < raw.len() {
                if raw[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if raw[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(raw[i] == '\n');
                    i += 1;
                }
            }
            blank(&mut code, start, i);
            continue;
        }
        // A raw string: `r`, `br` or `cr` starting a word, `#`s, a quote.
        let raw_prefix = if c == 'r' && !prev_ident {
            Some(i + 1)
        } else if (c == 'b' || c == 'c') && at(i + 1) == 'r' && !prev_ident {
            Some(i + 2)
        } else {
            None
        };
        if let Some(mut k) = raw_prefix {
            let mut hashes = 0;
            while at(k) == '#' {
                hashes += 1;
                k += 1;
            }
            if at(k) == '"' {
                let open = k;
                k += 1;
                let close = loop {
                    if k >= raw.len() {
                        break k;
                    }
                    if raw[k] == '"' && (1..=hashes).all(|h| at(k + h) == '#') {
                        break k;
                    }
                    line += usize::from(raw[k] == '\n');
                    k += 1;
                };
                let end = (close + 1 + hashes).min(raw.len());
                strings.push(StrLit {
                    start,
                    end,
                    line: start_line,
                    value: raw[open + 1..close].iter().collect(),
                });
                blank(&mut code, start, end);
                i = end;
                continue;
            }
        }
        if c == '"' {
            i += 1;
            while i < raw.len() && raw[i] != '"' {
                if raw[i] == '\\' {
                    i += 1;
                }
                line += usize::from(at(i) == '\n');
                i += 1;
            }
            let close = i.min(raw.len());
            i = (i + 1).min(raw.len());
            strings.push(StrLit {
                start,
                end: i,
                line: start_line,
                value: raw[start + 1..close].iter().collect(),
            });
            blank(&mut code, start, i);
            continue;
        }
        if c == '\'' {
            // `'\n'`, `'"'`, `'a'` are char literals; `'a` and `'static` are lifetimes.
            let end = if at(i + 1) == '\\' {
                // Past the escaped character, which may be the quote itself: `'\''`.
                let mut k = i + 3;
                while k < raw.len() && raw[k] != '\'' && raw[k] != '\n' {
                    k += 1;
                }
                Some(k + 1)
            } else if at(i + 2) == '\'' && at(i + 1) != '\n' {
                Some(i + 3)
            } else {
                None
            };
            if let Some(end) = end {
                let end = end.min(raw.len());
                blank(&mut code, start, end);
                i = end;
                continue;
            }
        }
        if is_ident_char(c) {
            // A whole word, so that `r` or `b` inside one never starts a literal.
            while i < raw.len() && is_ident_char(raw[i]) {
                i += 1;
            }
            continue;
        }
        line += usize::from(c == '\n');
        i += 1;
    }
    let code_text: String = code.iter().collect();
    let test_line = code_text
        .lines()
        .position(|l| l.trim() == "#[cfg(test)]")
        .map_or(usize::MAX, |k| k + 1);
    Lexed {
        raw,
        code,
        strings,
        test_line,
    }
}

impl Lexed {
    /// The words (identifiers, numbers), `::` and other punctuation of the code before the
    /// test code.
    pub fn tokens(&self) -> Vec<Token> {
        self.tokens_of(1..self.test_line)
    }

    /// The tokens of the test code.
    pub fn test_tokens(&self) -> Vec<Token> {
        self.tokens_of(self.test_line..usize::MAX)
    }

    fn tokens_of(&self, lines: std::ops::Range<usize>) -> Vec<Token> {
        let code = &self.code;
        let mut tokens = Vec::new();
        let mut line = 1;
        let mut i = 0;
        while i < code.len() && line < lines.end {
            let c = code[i];
            let start = i;
            if c == '\n' {
                line += 1;
                i += 1;
                continue;
            }
            if c.is_whitespace() {
                i += 1;
                continue;
            }
            if is_ident_char(c) {
                while i < code.len() && is_ident_char(code[i]) {
                    i += 1;
                }
            } else if c == ':' && code.get(i + 1) == Some(&':') {
                i += 2;
            } else {
                i += 1;
            }
            if lines.contains(&line) {
                tokens.push(Token {
                    text: code[start..i].iter().collect(),
                    start,
                    line,
                });
            }
        }
        tokens
    }

    /// The string literals before the test code.
    pub fn strings(&self) -> Vec<StrLit> {
        self.strings
            .iter()
            .filter(|s| s.line < self.test_line)
            .cloned()
            .collect()
    }
}

// ---------------------------------------------------------------------------------------
// Files.

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// The entries of a directory, sorted; none when it does not exist.
fn sorted_dir(dir: &Path) -> Result<Vec<PathBuf>, String> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    entries.sort();
    Ok(entries)
}

/// Every `.rs` file below `dir`, sorted; none when it does not exist.
fn rust_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for entry in sorted_dir(dir)? {
        if entry.is_dir() {
            files.extend(rust_files(&entry)?);
        } else if entry.extension().is_some_and(|e| e == "rs") {
            files.push(entry);
        }
    }
    Ok(files)
}

/// The Rust files below `dirs`, lexed, as `(path relative to root, lexed)`, without the
/// files of out-of-line test modules: a `mod name;` after a file's `#[cfg(test)]` line
/// makes `name.rs` and everything under `name/` next to it test code.
fn non_test_sources(root: &Path, dirs: &[PathBuf]) -> Result<Vec<(String, Lexed)>, String> {
    let mut files = Vec::new();
    for dir in dirs {
        files.extend(rust_files(dir)?);
    }
    let mut lexed = Vec::new();
    let mut test_files = Vec::new();
    for file in files {
        let l = lex(&read(&file)?);
        test_files.extend(test_module_paths(&file, &l));
        lexed.push((file, l));
    }
    Ok(lexed
        .into_iter()
        .filter(|(file, _)| !test_files.iter().any(|t| file == t || file.starts_with(t)))
        .map(|(file, l)| (display_path(&file, root), l))
        .collect())
}

/// The file and directory of each `mod name;` in the test code of `file`.
fn test_module_paths(file: &Path, lexed: &Lexed) -> Vec<PathBuf> {
    let stem = file.file_stem().unwrap_or_default();
    let parent = file.parent().unwrap_or(Path::new(""));
    // `lib.rs`, `main.rs` and `mod.rs` keep their modules beside them; `foo.rs` in `foo/`.
    let base = if ["lib", "main", "mod"].iter().any(|s| stem == *s) {
        parent.to_path_buf()
    } else {
        parent.join(stem)
    };
    let tokens = lexed.test_tokens();
    tokens
        .windows(3)
        .filter(|w| w[0].text == "mod" && w[2].text == ";")
        .flat_map(|w| {
            [
                base.join(format!("{}.rs", w[1].text)),
                base.join(&w[1].text),
            ]
        })
        .collect()
}

/// The `src` directories of the variants' rules crates.
fn rules_source_dirs(root: &Path) -> Result<Vec<PathBuf>, String> {
    Ok(sorted_dir(&root.join("crates"))?
        .into_iter()
        .filter(|d| {
            let name = d.file_name().unwrap_or_default().to_string_lossy();
            is_rules_dir(&format!("crates/{name}"))
        })
        .map(|d| d.join("src"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn a_list_of_some_variants_is_found_unless_marked() {
        let names: BTreeSet<&str> = ["dobutsu", "kinzoku", "kyoto", "micro"].into();
        let text = "| `variant` | string | `kyoto`, `micro` or `kinzoku` |\n\
                    every one: `kyoto`, `micro`, `kinzoku`, `dobutsu`\n\
                    two only: `kyoto` and `micro`\n\
                    <!-- tidy: some variants -->\n\
                    the drop games `kyoto`, `micro` and `dobutsu`\n\
                    not `kyoto`, `micro`, `dobutsu` either <!-- tidy: some variants -->\n\
                    bare words kyoto micro kinzoku are prose\n";
        assert_eq!(
            incomplete_variant_lists(text, &names),
            vec![(1, vec!["dobutsu".to_string()])]
        );
    }

    /// A directory of files under the system's temporary directory, removed on drop.
    struct TempTree(PathBuf);

    impl TempTree {
        fn new(files: &[(&str, &str)]) -> TempTree {
            static NEXT: AtomicUsize = AtomicUsize::new(0);
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!("xtask-tidy-{}-{n}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            for (path, text) in files {
                let path = dir.join(path);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
            }
            TempTree(dir)
        }
    }

    impl Drop for TempTree {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A package for the fake metadata: name, directory, `(dependency, kind)` with kind
    /// `normal`, `dev` or `build`, and its targets as `(kind, path in the package)`.
    struct Pkg<'a>(
        &'a str,
        &'a str,
        &'a [(&'a str, &'a str)],
        &'a [(&'a str, &'a str)],
    );

    /// `cargo metadata` JSON for `packages` in `root`, in the shape cargo prints.
    fn metadata(root: &Path, packages: &[Pkg]) -> String {
        let packages: Vec<_> = packages
            .iter()
            .map(|Pkg(name, dir, deps, targets)| {
                let dir = root.join(dir);
                json!({
                    "name": name,
                    "manifest_path": dir.join("Cargo.toml"),
                    "dependencies": deps.iter().map(|(dep, kind)| json!({
                        "name": dep,
                        "kind": if *kind == "normal" { None } else { Some(kind) },
                        "rename": null,
                        "req": "^0.1.0",
                    })).collect::<Vec<_>>(),
                    "targets": targets.iter().map(|(kind, src)| json!({
                        "kind": [kind],
                        "src_path": dir.join(src),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        json!({ "packages": packages, "workspace_root": root }).to_string()
    }

    /// Runs the rule `name` on a fake workspace: its violations, and what it checked.
    fn run_rule(name: &str, files: &[(&str, &str)], packages: &[Pkg]) -> (Vec<String>, String) {
        let tree = TempTree::new(files);
        let cx = Context::new(&metadata(&tree.0, packages)).unwrap();
        let rule = RULES.iter().find(|r| r.name == name).unwrap();
        let (violations, checked) = check(&cx, std::slice::from_ref(rule)).unwrap();
        (
            violations.iter().map(Violation::to_string).collect(),
            checked.join(", "),
        )
    }

    /// [`run_rule`] with manifest fields given per package: each `(package, object)` sets
    /// the object's keys in that package's metadata (`publish`, `description`,
    /// `dependencies`...).
    fn run_rule_with(
        name: &str,
        files: &[(&str, &str)],
        packages: &[Pkg],
        fields: &[(&str, serde_json::Value)],
    ) -> (Vec<String>, String) {
        let tree = TempTree::new(files);
        let mut meta: serde_json::Value =
            serde_json::from_str(&metadata(&tree.0, packages)).unwrap();
        for p in meta["packages"].as_array_mut().unwrap() {
            for (package, object) in fields {
                if p["name"] == *package {
                    for (key, value) in object.as_object().unwrap() {
                        p[key] = value.clone();
                    }
                }
            }
        }
        let cx = Context::new(&meta.to_string()).unwrap();
        let rule = RULES.iter().find(|r| r.name == name).unwrap();
        let (violations, checked) = check(&cx, std::slice::from_ref(rule)).unwrap();
        (
            violations.iter().map(Violation::to_string).collect(),
            checked.join(", "),
        )
    }

    /// Two rules crates with their variant types, and a test-only one that does not count.
    const RULES_CRATES: &[(&str, &str)] = &[
        (
            "crates/rules-kyoto/src/lib.rs",
            "pub struct Kyoto;\n\
             impl Variant for Kyoto {\n\
             \x20   const NAME: &'static str = \"kyoto\";\n\
             }\n",
        ),
        (
            "crates/rules-micro/src/imp/mod.rs",
            "impl<'a> kshogi_core::Variant for Micro { type X = ();\n\
             const NAME: &'static str = \"micro\"; }\n",
        ),
        (
            "crates/rules-tests/src/lib.rs",
            "impl Variant for Fake { const NAME: &'static str = \"fake\"; }\n",
        ),
    ];

    fn with_rules_crates<'a>(files: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
        RULES_CRATES.iter().chain(files).copied().collect()
    }

    #[test]
    fn rules_crates_depend_on_core_only() {
        let bad_manifest = "[package]\n\
                            name = \"kshogi-rules-bad\"\n\
                            [dev-dependencies]\n\
                            kshogi-notation.workspace = true\n\
                            [dependencies]\n\
                            kshogi-core.workspace = true\n\
                            kshogi-notation = { path = \"../notation\" }\n\
                            [build-dependencies.cc]\n\
                            version = \"1\"\n";
        let (found, checked) = run_rule(
            "rules-depend-on-core-only",
            &[("crates/rules-bad/Cargo.toml", bad_manifest)],
            &[
                Pkg("kshogi-core", "crates/core", &[], &[]),
                Pkg(
                    "kshogi-rules-kyoto",
                    "crates/rules-kyoto",
                    &[("kshogi-core", "normal"), ("kshogi-notation", "dev")],
                    &[],
                ),
                Pkg(
                    "kshogi-rules-bad",
                    "crates/rules-bad",
                    &[
                        ("kshogi-core", "normal"),
                        ("kshogi-notation", "dev"),
                        ("kshogi-notation", "normal"),
                        ("cc", "build"),
                    ],
                    &[],
                ),
                Pkg(
                    "kshogi-rules-tests",
                    "crates/rules-tests",
                    &[("kshogi-notation", "normal")],
                    &[],
                ),
            ],
        );
        assert_eq!(
            found,
            [
                "crates/rules-bad/Cargo.toml:7: rules-depend-on-core-only: `kshogi-rules-bad` has \
                 a normal dependency on `kshogi-notation`; a rules crate depends on `kshogi-core` \
                 only",
                "crates/rules-bad/Cargo.toml:8: rules-depend-on-core-only: `kshogi-rules-bad` has \
                 a build dependency on `cc`; a rules crate depends on `kshogi-core` only",
            ]
        );
        assert_eq!(checked, "rules-depend-on-core-only: 2 rules crates");
    }

    #[test]
    fn notation_and_engine_depend_on_no_variant() {
        let manifest = "[dependencies]\n\
                        kshogi-core.workspace = true\n\
                        kshogi-rules-kyoto.workspace = true\n\
                        kshogi-notation.workspace = true\n\
                        kshogi-tuned-eval.workspace = true\n\
                        kshogi-cli.workspace = true\n\
                        [build-dependencies]\n\
                        kshogi-registry.workspace = true\n";
        let (found, checked) = run_rule(
            "generic-crates-depend-on-no-variant",
            &[
                ("crates/notation/Cargo.toml", manifest),
                ("crates/engine/Cargo.toml", manifest),
                ("crates/progress/Cargo.toml", manifest),
            ],
            &[
                // Notation is the progress library's one kshogi dependency; core is not.
                Pkg(
                    "kshogi-progress",
                    "crates/progress",
                    &[
                        ("kshogi-core", "normal"),
                        ("kshogi-notation", "normal"),
                        ("indicatif", "normal"),
                    ],
                    &[],
                ),
                Pkg(
                    "kshogi-notation",
                    "crates/notation",
                    &[
                        ("kshogi-core", "normal"),
                        ("kshogi-rules-kyoto", "normal"),
                        ("kshogi-registry", "build"),
                        ("kshogi-rules-micro", "dev"),
                        ("serde", "normal"),
                    ],
                    &[],
                ),
                Pkg(
                    "kshogi-engine",
                    "crates/engine",
                    &[
                        ("kshogi-core", "normal"),
                        ("kshogi-notation", "normal"),
                        ("kshogi-tuned-eval", "normal"),
                        ("kshogi-cli", "normal"),
                        ("kshogi-solver", "dev"),
                    ],
                    &[],
                ),
                Pkg(
                    "kshogi-solver",
                    "crates/solver",
                    &[("kshogi-rules-kinzoku", "normal")],
                    &[],
                ),
            ],
        );
        let rule = "generic-crates-depend-on-no-variant";
        let tail = "it must stay generic over `kshogi_core::Variant`";
        assert_eq!(
            found,
            [
                format!(
                    "crates/engine/Cargo.toml:4: {rule}: `kshogi-engine` has a normal dependency \
                     on `kshogi-notation`; {tail}"
                ),
                format!(
                    "crates/engine/Cargo.toml:5: {rule}: `kshogi-engine` has a normal dependency \
                     on `kshogi-tuned-eval`; {tail}"
                ),
                format!(
                    "crates/engine/Cargo.toml:6: {rule}: `kshogi-engine` has a normal dependency \
                     on `kshogi-cli`; {tail}"
                ),
                format!(
                    "crates/notation/Cargo.toml:3: {rule}: `kshogi-notation` has a normal \
                     dependency on `kshogi-rules-kyoto`; {tail}"
                ),
                format!(
                    "crates/notation/Cargo.toml:8: {rule}: `kshogi-notation` has a build \
                     dependency on `kshogi-registry`; {tail}"
                ),
                format!(
                    "crates/progress/Cargo.toml:2: {rule}: `kshogi-progress` has a normal \
                     dependency on `kshogi-core`; {tail}"
                ),
            ]
        );
        assert_eq!(checked, format!("{rule}: 3 generic crates"));
    }

    #[test]
    fn notation_and_engine_name_no_variant() {
        let notation_lib = "//! Names Kyoto in docs only.\n\
                            use kshogi_core::Variant;\n\
                            /* Micro in a /* nested */ Kyoto */\n\
                            pub fn f() -> &'static str { \"Kyoto\" }\n\
                            pub type K = Kyoto; // Kyoto\n\
                            use kshogi_rules_micro::Micro as M;\n\
                            pub struct KyotoLike;\n\
                            mod inline;\n\
                            #[cfg(test)]\n\
                            mod tests;\n\
                            fn after_tests() -> Kyoto {}\n";
        let (found, checked) = run_rule(
            "generic-crates-name-no-variant",
            &with_rules_crates(&[
                ("crates/notation/src/lib.rs", notation_lib),
                ("crates/notation/src/tests.rs", "use Kyoto;\n"),
                ("crates/notation/src/tests/more.rs", "use Kyoto;\n"),
                (
                    "crates/notation/src/inline.rs",
                    "\nfn g() { Micro; Fake; }\n",
                ),
                (
                    "crates/engine/src/search.rs",
                    "fn h() { r#\"Kyoto\"#; '\"'; Kyoto }\n",
                ),
                ("crates/engine/tests/t.rs", "use Kyoto;\n"),
                ("crates/cli/src/main.rs", "use Kyoto;\n"),
            ]),
            &[],
        );
        let rule = "generic-crates-name-no-variant";
        let tail = "notation and engine are generic over `kshogi_core::Variant`";
        assert_eq!(
            found,
            [
                format!(
                    "crates/notation/src/inline.rs:2: {rule}: `Micro` names a variant type \
                     (crates/rules-micro/src/imp/mod.rs:1); {tail}"
                ),
                format!(
                    "crates/notation/src/lib.rs:5: {rule}: `Kyoto` names a variant type \
                     (crates/rules-kyoto/src/lib.rs:2); {tail}"
                ),
                format!(
                    "crates/notation/src/lib.rs:6: {rule}: `kshogi_rules_micro` names a rules \
                     crate; {tail}"
                ),
                format!(
                    "crates/notation/src/lib.rs:6: {rule}: `Micro` names a variant type \
                     (crates/rules-micro/src/imp/mod.rs:1); {tail}"
                ),
                format!(
                    "crates/engine/src/search.rs:1: {rule}: `Kyoto` names a variant type \
                     (crates/rules-kyoto/src/lib.rs:2); {tail}"
                ),
            ]
        );
        assert_eq!(checked, format!("{rule}: 3 source files"));
    }

    #[test]
    fn only_the_variant_list_matches_on_the_variants() {
        let cli_main = "fn f(k: VariantKind) {\n\
                        \x20   match k { VariantKind::Kyoto => {} _ => {} }\n\
                        \x20   let all = VariantKind::ALL;\n\
                        \x20   let v = VariantKind::from_name(\"kyoto\");\n\
                        \x20   match s { \"kyoto\" | \"k\" => {} \"micro\"\n\
                        \x20       => {} _ => {} }\n\
                        \x20   let ok = s == \"kyoto\" || s == \"micro\";\n\
                        \x20   // VariantKind::Micro => \"micro\" =>\n\
                        \x20   let t = \"VariantKind::Micro\"; let u = r#\"\"kyoto\" =>\"#;\n\
                        \x20   VariantKind :: Micro;\n\
                        }\n\
                        #[cfg(test)]\n\
                        mod t { fn g() { VariantKind::Kyoto; match s { \"kyoto\" => 1 } } }\n";
        let (found, checked) = run_rule(
            "only-the-variant-list-lists-variants",
            &with_rules_crates(&[
                (
                    "crates/variants/src/lib.rs",
                    "match k { VariantKind::Kyoto => \"kyoto\" }\nmatch s { \"kyoto\" => 1 }\n",
                ),
                // The registry reads the list but matches on no variant of its own.
                (
                    "crates/registry/src/lib.rs",
                    "fn f() { VariantKind::Micro }\n",
                ),
                ("crates/tuned-eval/src/lib.rs", "VariantKind::Micro\n"),
                ("crates/cli/src/main.rs", cli_main),
                ("crates/cli/tests/it.rs", "VariantKind::Kyoto\n"),
                ("fuzz/src/lib.rs", "fn f() { VariantKind::Micro }\n"),
                (
                    "xtask/src/main.rs",
                    "match s {\n  \"micro\" => 1, \"fake\" => 2 }\n",
                ),
            ]),
            &[],
        );
        let rule = "only-the-variant-list-lists-variants";
        let kind = |line, v| {
            format!(
                "{line}: {rule}: `VariantKind::{v}` outside `kshogi-variants`; only the \
                 variant list matches on the variants (use its dispatch macro)"
            )
        };
        let arm = |line, v| {
            format!(
                "{line}: {rule}: a match arm on the short name \"{v}\" outside \
                 `kshogi-variants`; only the variant list matches on the variants"
            )
        };
        assert_eq!(
            found,
            [
                kind("crates/cli/src/main.rs:2", "Kyoto"),
                kind("crates/cli/src/main.rs:10", "Micro"),
                arm("crates/cli/src/main.rs:5", "kyoto"),
                arm("crates/cli/src/main.rs:5", "micro"),
                kind("crates/registry/src/lib.rs:1", "Micro"),
                kind("fuzz/src/lib.rs:1", "Micro"),
                arm("xtask/src/main.rs:2", "micro"),
            ]
        );
        // cli, the registry, the two rules crates' and rules-tests' sources, fuzz and xtask.
        assert_eq!(checked, format!("{rule}: 7 source files"));
    }

    #[test]
    fn crate_roots_say_what_the_crate_must_not_do() {
        let (found, checked) = run_rule(
            "crate-docs-say-what-not",
            &[
                (
                    "crates/a/src/lib.rs",
                    "\n\n//! # a\n//! It must\n//!   NOT print.\n",
                ),
                (
                    "crates/b/src/lib.rs",
                    "//! # b\n//! Helpers.\n\n//! must not\n",
                ),
                (
                    "crates/c/src/main.rs",
                    "\n#![forbid(unsafe_code)]\n//! Depends on no crate.\n",
                ),
                (
                    "crates/d/src/lib.rs",
                    "//! It depends on no workspace crate.\n",
                ),
                ("crates/d/src/main.rs", "fn main() {}\n"),
                (
                    "xtask/src/main.rs",
                    "//! A tool: crates depend on no part of it.\n",
                ),
            ],
            &[
                Pkg("a", "crates/a", &[], &[("lib", "src/lib.rs")]),
                Pkg("b", "crates/b", &[], &[("lib", "src/lib.rs")]),
                Pkg("c", "crates/c", &[], &[("bin", "src/main.rs")]),
                Pkg(
                    "d",
                    "crates/d",
                    &[],
                    &[("bin", "src/main.rs"), ("lib", "src/lib.rs")],
                ),
                Pkg("xtask", "xtask", &[], &[("bin", "src/main.rs")]),
                Pkg("none", "crates/none", &[], &[("test", "tests/t.rs")]),
            ],
        );
        let rule = "crate-docs-say-what-not";
        assert_eq!(
            found,
            [
                format!(
                    "crates/b/src/lib.rs:1: {rule}: the crate docs do not say what the crate \
                     must not do or depend on (\"must not\", \"depends on no\")"
                ),
                format!(
                    "crates/c/src/main.rs:2: {rule}: the crate root does not begin with `//!` \
                     docs saying what the crate is for"
                ),
            ]
        );
        assert_eq!(checked, format!("{rule}: 5 crate roots"));
    }

    #[test]
    fn the_architecture_doc_names_every_package() {
        let doc = "# Architecture\n\
                   ### `crates/core` (`kshogi-core`)\n\
                   ### `crates/rules-kyoto`\n\
                   One crate: kshogi-rules-kyoto.\n\
                   ### `xtask`\n\
                   Mentions crates/engine.\n\
                   ## Tidy\n\
                   `crates/registry` and `kshogi-registry` are named here only.\n\
                   ### Rules\n\
                   `kshogi-engine` too.\n\
                   ## After\n";
        let (found, checked) = run_rule(
            "architecture-doc-is-current",
            &[("docs/ARCHITECTURE.md", doc)],
            &[
                Pkg("kshogi-core", "crates/core", &[], &[]),
                Pkg("kshogi-rules-kyoto", "crates/rules-kyoto", &[], &[]),
                Pkg("kshogi-rules-k", "crates/rules-k", &[], &[]),
                Pkg("kshogi-registry", "crates/registry", &[], &[]),
                Pkg("kshogi-engine", "crates/engine", &[], &[]),
                Pkg("xtask", "xtask", &[], &[]),
            ],
        );
        let rule = "architecture-doc-is-current";
        assert_eq!(
            found,
            [
                format!(
                    "docs/ARCHITECTURE.md:1: {rule}: package `kshogi-engine` (crates/engine) is \
                     not described: `kshogi-engine` not mentioned"
                ),
                format!(
                    "docs/ARCHITECTURE.md:1: {rule}: package `kshogi-registry` (crates/registry) \
                     is not described: `crates/registry` and `kshogi-registry` not mentioned"
                ),
                format!(
                    "docs/ARCHITECTURE.md:1: {rule}: package `kshogi-rules-k` (crates/rules-k) \
                     is not described: `crates/rules-k` and `kshogi-rules-k` not mentioned"
                ),
            ]
        );
        assert_eq!(checked, format!("{rule}: 6 packages"));
    }

    #[test]
    fn variant_types_come_from_variant_impls_only() {
        let source = "impl fmt::Display for Kyoto { const NAME: &'static str = \"no\"; }\n\
                      impl Variant for Kyoto {\n\
                      \x20   const DISPLAY_NAME: &'static str = \"Kyoto Shogi\";\n\
                      \x20   fn f() { if x { \"not\" } }\n\
                      \x20   const NAME: &'static str = \"kyoto\";\n\
                      }\n\
                      impl Variant for Bare {}\n\
                      // impl Variant for Commented {}\n\
                      impl<V: Variant<X>> kshogi_core::Variant for Wrap<V> {\n\
                      \x20   const NAME: &'static str = r\"wrap\";\n\
                      }\n";
        let found: Vec<_> = variant_types(source, "x.rs")
            .into_iter()
            .map(|v| (v.ident, v.short_name, v.at))
            .collect();
        let some = |s: &str| Some(s.to_string());
        assert_eq!(
            found,
            [
                ("Kyoto".into(), some("kyoto"), "x.rs:2".into()),
                ("Bare".into(), None, "x.rs:7".into()),
                ("Wrap".into(), some("wrap"), "x.rs:9".into()),
            ]
        );
    }

    /// `(value, line)` of the string literals, and the blanked code.
    fn lexed(source: &str) -> (Vec<(String, usize)>, String) {
        let l = lex(source);
        assert_eq!(l.code.len(), l.raw.len());
        let strings = l.strings().into_iter().map(|s| (s.value, s.line)).collect();
        (strings, l.code.iter().collect())
    }

    #[test]
    fn lexing_blanks_nested_block_comments_and_line_comments() {
        assert_eq!(
            lexed("a /* x /* y */ \"z\n */ b // c \"d\nе"),
            (
                vec![],
                format!("a{}\n    b{}\nе", " ".repeat(16), " ".repeat(8))
            )
        );
        // A quote in a comment opens no string.
        assert_eq!(
            lexed("// it's \"here\nx \"s\""),
            (vec![("s".into(), 2)], "             \nx    ".into())
        );
    }

    #[test]
    fn lexing_reads_raw_byte_and_escaped_strings() {
        assert_eq!(
            lexed("r#\"a \"quoted\" b\"# br##\"x\"#y\"## \"e\\\"f\" \"g\\\\\" h"),
            (
                vec![
                    ("a \"quoted\" b".into(), 1),
                    ("x\"#y".into(), 1),
                    ("e\\\"f".into(), 1),
                    ("g\\\\".into(), 1),
                ],
                format!("{} h", " ".repeat(43)),
            )
        );
        // `r` and `b` inside a word start nothing; `r#` of a raw identifier neither.
        assert_eq!(
            lexed("bar\"s\" r#type \"http://x\" Kyoto"),
            (
                vec![("s".into(), 1), ("http://x".into(), 1)],
                "bar    r#type            Kyoto".into()
            )
        );
        // A string over lines keeps the line count.
        assert_eq!(
            lexed("\"a\nb\" \"c\"\n\"d\""),
            (
                vec![("a\nb".into(), 1), ("c".into(), 2), ("d".into(), 3)],
                "  \n      \n   ".into()
            )
        );
    }

    #[test]
    fn lexing_tells_char_literals_from_lifetimes() {
        assert_eq!(
            lexed("f('\"', '\\'', b'x', '\\u{1F600}', 'é'); \"s\""),
            (
                vec![("s".into(), 1)],
                "f(   ,     , b   ,            ,    );    ".into()
            )
        );
        assert_eq!(
            lexed("fn f<'a>(x: &'a str) -> &'static str { 'l: loop {} \"t\" }"),
            (
                vec![("t".into(), 1)],
                "fn f<'a>(x: &'a str) -> &'static str { 'l: loop {}     }".into()
            )
        );
    }

    #[test]
    fn test_code_starts_at_the_first_cfg_test_line() {
        let source =
            "const S: &str = \"\n#[cfg(test)]\n\";\nfn a() {}\n  #[cfg(test)]  \nfn b() {}\n";
        let l = lex(source);
        assert_eq!(l.test_line, 5);
        let words: Vec<_> = l.tokens().into_iter().map(|t| (t.text, t.line)).collect();
        assert_eq!(words[0], ("const".to_string(), 1));
        assert_eq!(words.last().unwrap(), &("}".to_string(), 4));
        let after: Vec<_> = l.test_tokens().into_iter().map(|t| t.text).collect();
        assert_eq!(
            after,
            ["#", "[", "cfg", "(", "test", ")", "]", "fn", "b", "(", ")", "{", "}"]
        );
        assert_eq!(lex("fn a() {}\n").test_line, usize::MAX);
    }

    #[test]
    fn the_summary_counts_violations_per_rule() {
        let cx = Context {
            root: PathBuf::new(),
            packages: Vec::new(),
            variants: vec![VariantType {
                ident: "Kyoto".into(),
                short_name: Some("kyoto".into()),
                at: "x.rs:1".into(),
            }],
        };
        let v = |rule| Violation {
            path: "a.rs".into(),
            line: 1,
            rule,
            message: "m".into(),
        };
        let checked = ["a: 1 b".to_string(), "c: 2 d".to_string()];
        assert_eq!(
            summary(&[v("r1"), v("r2"), v("r1")], &checked, &cx),
            "3 violations (r1: 2, r2: 1)"
        );
        assert_eq!(summary(&[v("r1")], &checked, &cx), "1 violation (r1: 1)");
        assert_eq!(
            summary(&[], &checked, &cx),
            "tidy: ok: 2 rules on 0 packages and 1 variant types (Kyoto); a: 1 b, c: 2 d"
        );
        assert_eq!(v("r1").to_string(), "a.rs:1: r1: m");
    }

    #[test]
    fn a_dev_dependency_must_close_no_cycle() {
        let dev = |dep: &str| {
            format!("[dependencies]\nx = \"1\"\n[dev-dependencies]\n{dep}.workspace = true\n")
        };
        let (a, b, core, engine) = (
            dev("b"),
            dev("a"),
            dev("kshogi-rules-micro"),
            dev("kshogi-registry"),
        );
        let registry = "[dependencies]\nkshogi-tuned-eval.workspace = true\n\
                        [dev-dependencies]\nkshogi-rules-kyoto.workspace = true\n\
                        kshogi-usi = { path = \"../usi\" }\n";
        let (found, checked) = run_rule(
            "no-dependency-cycles",
            &[
                ("crates/a/Cargo.toml", &a),
                ("crates/b/Cargo.toml", &b),
                ("crates/core/Cargo.toml", &core),
                ("crates/engine/Cargo.toml", &engine),
                ("crates/registry/Cargo.toml", registry),
            ],
            &[
                Pkg("a", "crates/a", &[("x", "normal"), ("b", "dev")], &[]),
                Pkg("b", "crates/b", &[("x", "normal"), ("a", "dev")], &[]),
                Pkg(
                    "kshogi-core",
                    "crates/core",
                    &[("kshogi-rules-micro", "dev")],
                    &[],
                ),
                Pkg(
                    "kshogi-engine",
                    "crates/engine",
                    &[("kshogi-core", "normal"), ("kshogi-registry", "dev")],
                    &[],
                ),
                // A dev-dependency on a crate beside this one is no cycle.
                Pkg(
                    "kshogi-notation",
                    "crates/notation",
                    &[("kshogi-core", "normal"), ("kshogi-rules-kyoto", "dev")],
                    &[],
                ),
                Pkg(
                    "kshogi-registry",
                    "crates/registry",
                    &[
                        ("kshogi-tuned-eval", "normal"),
                        ("kshogi-rules-kyoto", "dev"),
                        ("kshogi-usi", "dev"),
                    ],
                    &[],
                ),
                Pkg(
                    "kshogi-rules-kyoto",
                    "crates/rules-kyoto",
                    &[("kshogi-core", "normal")],
                    &[],
                ),
                Pkg(
                    "kshogi-rules-micro",
                    "crates/rules-micro",
                    &[("kshogi-core", "normal")],
                    &[],
                ),
                Pkg(
                    "kshogi-tuned-eval",
                    "crates/tuned-eval",
                    &[("kshogi-engine", "normal")],
                    &[],
                ),
                Pkg(
                    "kshogi-usi",
                    "crates/usi",
                    &[("kshogi-registry", "normal")],
                    &[],
                ),
            ],
        );
        let rule = "no-dependency-cycles";
        let cycle = |at: &str, p: &str, d: &str, path: &str| {
            format!(
                "{at}: {rule}: `{p}` has a dev dependency on `{d}`, which depends on it \
                 ({path}): a cycle, which `cargo package` cannot put in order; move the tests, \
                 benches or examples that need `{d}` to a crate above both"
            )
        };
        assert_eq!(
            found,
            [
                // Two crates each a dev-dependency of the other: both are reported.
                cycle("crates/a/Cargo.toml:4", "a", "b", "b -> a"),
                cycle("crates/b/Cargo.toml:4", "b", "a", "a -> b"),
                cycle(
                    "crates/core/Cargo.toml:4",
                    "kshogi-core",
                    "kshogi-rules-micro",
                    "kshogi-rules-micro -> kshogi-core"
                ),
                // The cycle found through a crate in between, the shortest way.
                cycle(
                    "crates/engine/Cargo.toml:4",
                    "kshogi-engine",
                    "kshogi-registry",
                    "kshogi-registry -> kshogi-tuned-eval -> kshogi-engine"
                ),
                cycle(
                    "crates/registry/Cargo.toml:5",
                    "kshogi-registry",
                    "kshogi-usi",
                    "kshogi-usi -> kshogi-registry"
                ),
            ]
        );
        assert_eq!(checked, format!("{rule}: 10 packages"));
    }

    #[test]
    fn the_variant_list_and_the_match_runner_compile_no_engine() {
        let variants = "[package]\nname = \"kshogi-variants\"\n[dependencies]\n\
                        kshogi-core.workspace = true\n[dev-dependencies]\n\
                        kshogi-engine.workspace = true\n[build-dependencies]\n\
                        kshogi-tuned-eval.workspace = true\n";
        let runner = "[dependencies]\nkshogi-variants.workspace = true\n\
                      kshogi-registry = { path = \"../registry\", version = \"0.1.0\" }\n";
        let (found, checked) = run_rule(
            "variant-list-stands-apart",
            &[
                ("crates/variants/Cargo.toml", variants),
                ("crates/match/Cargo.toml", runner),
            ],
            &[
                Pkg(
                    "kshogi-variants",
                    "crates/variants",
                    &[
                        ("kshogi-core", "normal"),
                        // Tests may use anything that is no cycle.
                        ("kshogi-engine", "dev"),
                        ("kshogi-tuned-eval", "build"),
                    ],
                    &[],
                ),
                Pkg(
                    "kshogi-match",
                    "crates/match",
                    &[("kshogi-variants", "normal"), ("kshogi-registry", "normal")],
                    &[],
                ),
                Pkg(
                    "kshogi-registry",
                    "crates/registry",
                    &[("kshogi-engine", "normal"), ("kshogi-solver", "normal")],
                    &[],
                ),
                Pkg(
                    "kshogi-tuned-eval",
                    "crates/tuned-eval",
                    &[("kshogi-engine", "normal")],
                    &[],
                ),
                Pkg("kshogi-engine", "crates/engine", &[], &[]),
                Pkg("kshogi-solver", "crates/solver", &[], &[]),
                Pkg("kshogi-core", "crates/core", &[], &[]),
            ],
        );
        let rule = "variant-list-stands-apart";
        let list = "it must compile none of `kshogi-engine`, `kshogi-tuned-eval`, \
                    `kshogi-solver`, `kshogi-notation`";
        let runner = "it must compile none of `kshogi-engine`, `kshogi-tuned-eval`, \
                      `kshogi-solver`";
        assert_eq!(
            found,
            [
                format!(
                    "crates/variants/Cargo.toml:8: {rule}: `kshogi-variants` depends on \
                     `kshogi-engine` (kshogi-variants -> kshogi-tuned-eval -> kshogi-engine); \
                     {list}"
                ),
                format!(
                    "crates/variants/Cargo.toml:8: {rule}: `kshogi-variants` depends on \
                     `kshogi-tuned-eval` (kshogi-variants -> kshogi-tuned-eval); {list}"
                ),
                format!(
                    "crates/match/Cargo.toml:3: {rule}: `kshogi-match` depends on \
                     `kshogi-engine` (kshogi-match -> kshogi-registry -> kshogi-engine); \
                     {runner}"
                ),
                // Through the list, which itself depends on the tuned evaluations here.
                format!(
                    "crates/match/Cargo.toml:2: {rule}: `kshogi-match` depends on \
                     `kshogi-tuned-eval` (kshogi-match -> kshogi-variants -> \
                     kshogi-tuned-eval); {runner}"
                ),
                format!(
                    "crates/match/Cargo.toml:3: {rule}: `kshogi-match` depends on \
                     `kshogi-solver` (kshogi-match -> kshogi-registry -> kshogi-solver); \
                     {runner}"
                ),
            ]
        );
        assert_eq!(checked, format!("{rule}: 2 crates"));
    }

    #[test]
    fn a_published_crate_has_its_fields_and_published_dependencies() {
        let engine = "[package]\nname = \"kshogi-engine\"\n[dependencies]\n\
                      kshogi-core.workspace = true\n[dev-dependencies]\n\
                      kshogi-tests = { path = \"../tests\" }\n\
                      kshogi-notation = { path = \"../notation\" }\n";
        let all = json!({
            "description": "d",
            "license": "MIT",
            "repository": "https://example.org/r",
            "readme": "../../README.md",
        });
        let (found, checked) = run_rule_with(
            "published-crates-are-complete",
            &[("crates/engine/Cargo.toml", engine)],
            &[
                Pkg("kshogi-core", "crates/core", &[], &[]),
                Pkg(
                    "kshogi-engine",
                    "crates/engine",
                    &[
                        ("kshogi-core", "normal"),
                        ("kshogi-tests", "dev"),
                        ("kshogi-notation", "dev"),
                    ],
                    &[],
                ),
                Pkg("kshogi-notation", "crates/notation", &[], &[]),
                Pkg(
                    "kshogi-tests",
                    "crates/tests",
                    &[("kshogi-engine", "dev")],
                    &[],
                ),
            ],
            &[
                ("kshogi-core", all.clone()),
                ("kshogi-notation", all),
                // No description, an empty readme; the notation dependency has no version.
                (
                    "kshogi-engine",
                    json!({
                        "license": "MIT",
                        "repository": "https://example.org/r",
                        "readme": " ",
                        "dependencies": [
                            {"name": "kshogi-core", "kind": null, "req": "^0.1.0"},
                            {"name": "kshogi-tests", "kind": "dev", "req": "^0.1.0"},
                            {"name": "kshogi-notation", "kind": "dev", "req": "*"},
                        ],
                    }),
                ),
                // Never published: its own fields and dependencies are not checked.
                ("kshogi-tests", json!({ "publish": [] })),
            ],
        );
        let rule = "published-crates-are-complete";
        assert_eq!(
            found,
            [
                format!(
                    "crates/engine/Cargo.toml:1: {rule}: `kshogi-engine` may be published but \
                     has no `description`, `readme` in its manifest (add it, or `publish = \
                     false`)"
                ),
                format!(
                    "crates/engine/Cargo.toml:6: {rule}: `kshogi-engine` has a dev dependency \
                     on `kshogi-tests`, which is never published (`publish = false`), so `cargo \
                     package` cannot resolve it; move what needs it into an unpublished crate"
                ),
                format!(
                    "crates/engine/Cargo.toml:7: {rule}: `kshogi-engine` has a dev dependency \
                     on `kshogi-notation` without a version, which `cargo package` drops (a \
                     dev-dependency) or refuses; use `kshogi-notation.workspace = true`"
                ),
            ]
        );
        assert_eq!(checked, format!("{rule}: 3 published packages"));
    }

    #[test]
    fn nested_lock_files_hold_what_their_dependencies_reach() {
        // The example depends on `cli` by path and on `core` as a dev-dependency; `cli`
        // reaches `rules-new` through `variants`; `xtra` is a dev-dependency of `cli`
        // only, which a nested lock file never holds.
        let manifest = "[package]\nname = \"pocket\"\n[workspace]\n\
                        [dependencies]\ncli = { path = \"../../crates/cli\" }\n\
                        serde = \"1\"\n\
                        [dev-dependencies]\nkore = { path = \"../../crates/core\", package = \"core\" }\n";
        let entry = |name: &str, deps: &[&str]| {
            let deps: String = deps.iter().map(|d| format!(" \"{d}\",\n")).collect();
            format!("[[package]]\nname = \"{name}\"\nversion = \"0.1.0\"\ndependencies = [\n{deps}]\n\n")
        };
        let packages = [
            Pkg("core", "crates/core", &[("serde", "normal")], &[]),
            Pkg("rules-new", "crates/rules-new", &[("core", "normal")], &[]),
            Pkg(
                "variants",
                "crates/variants",
                &[("core", "normal"), ("rules-new", "normal")],
                &[],
            ),
            Pkg(
                "cli",
                "crates/cli",
                &[("variants", "normal"), ("xtra", "dev"), ("clap", "normal")],
                &[],
            ),
            Pkg("xtra", "crates/xtra", &[], &[]),
        ];
        let current = [
            entry("cli", &["clap", "variants"]),
            entry("clap", &[]),
            entry("core", &["serde"]),
            entry("pocket", &["cli", "core", "serde"]),
            entry("rules-new", &["core"]),
            entry("serde", &[]),
            entry("variants", &["core", "rules-new"]),
        ]
        .concat();
        let run = |lock: &str| {
            run_rule(
                "nested-lock-files-are-current",
                &[
                    ("examples/out-of-tree-variant/Cargo.toml", manifest),
                    ("examples/out-of-tree-variant/Cargo.lock", lock),
                ],
                &packages,
            )
        };
        let (found, checked) = run(&current);
        assert_eq!(found, Vec::<String>::new());
        assert_eq!(checked, "nested-lock-files-are-current: 1 lock files");

        // As it was before `rules-new` was registered, with a stale `old` entry.
        let stale = [
            entry("cli", &["clap", "variants"]),
            entry("clap", &[]),
            entry("core", &["serde"]),
            entry("pocket", &["cli", "core", "serde"]),
            entry("serde", &[]),
            entry("variants", &["core", "xtra"]),
            entry("xtra", &[]),
        ]
        .concat();
        let (found, _) = run(&stale);
        let fix = "; bring it up to date with `cargo metadata --manifest-path \
                   examples/out-of-tree-variant/Cargo.toml --format-version 1 >/dev/null`, \
                   which adds what is missing and changes nothing else";
        let at = |line: usize, message: &str| {
            format!(
                "examples/out-of-tree-variant/Cargo.lock:{line}: \
                 nested-lock-files-are-current: {message}{fix}"
            )
        };
        assert_eq!(
            found,
            [
                at(
                    1,
                    "lacks `rules-new`, which the project's dependencies reach"
                ),
                at(38, "`variants` now depends on `rules-new` too"),
                at(38, "`variants` no longer depends on `xtra`"),
                at(
                    46,
                    "locks `xtra`, which the project's dependencies no longer reach"
                ),
            ]
        );

        // The project's own dependency list counts too, dev-dependencies included.
        let lost_dev =
            current.replace(" \"cli\",\n \"core\",\n \"serde\"", " \"cli\",\n \"serde\"");
        assert_ne!(lost_dev, current);
        let (found, _) = run(&lost_dev);
        assert_eq!(found, [at(23, "`pocket` now depends on `core` too")]);
    }

    #[test]
    fn rule_names_are_unique() {
        let names: BTreeSet<_> = RULES.iter().map(|r| r.name).collect();
        assert_eq!(names.len(), RULES.len());
    }
}
