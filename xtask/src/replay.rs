//! `cargo xtask nnue replay --variant V`: makes a registered NNUE net again from nothing,
//! generation by generation, and checks every generation byte for byte.
//!
//! A net is taught by the one before it, and its games are played by the build of the day,
//! so one command from a seed remakes a net only given its teacher and that build. The
//! chain file beside the net (`crates/tuned-eval/src/weights/<variant>.chain`) records each
//! generation: the commit whose `kshogi-nnue` made it, its teacher (none for the first:
//! the linear evaluation of that build; an earlier step; or a net in git), the `train`
//! options, and the checksum of the result. The replay builds each commit's `kshogi-nnue`
//! from `git archive` (in the replay's directory; the work tree and the repository are only
//! read), runs `train` in that commit's tree (so a relative `--openings` file is the one of
//! that day), and stops at the first net whose checksum is not the recorded one. Each step
//! made and checked is kept, so the same command again resumes after it.

use crate::util;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The usage lines of this task.
pub const USAGE: &str = "  nnue replay --variant V [--dir DIR] [--builds DIR] [--from N] [--check]
                     makes the registered net of V again from nothing, generation by
                     generation (crates/tuned-eval/src/weights/<V>.chain: each step's
                     build, teacher, options, checksum), each with the build that made
                     it, and checks each byte for byte; resumes from DIR (default
                     target/nnue/replay-<V>; the commits' builds in --builds, default
                     target/nnue/replay-builds, shared by the variants); --from N starts
                     at step N (the steps before it must be in DIR); --check reads the
                     chain and checks that its commits and teachers are in git
";

/// Where a step's teacher comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Teacher {
    /// No net: the first generation, taught by the linear evaluation of its build.
    None,
    /// The net an earlier step of the chain made (1-based).
    Step(usize),
    /// A net committed in git: the commit and the path in it.
    Git(String, String),
}

/// One generation of a chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// 1-based, as the file numbers it.
    pub number: usize,
    /// The commit whose `kshogi-nnue` made the net.
    pub build: String,
    /// Its teacher.
    pub teacher: Teacher,
    /// `kshogi-nnue train`'s options, without `--teacher` and `--out`.
    pub args: Vec<String>,
    /// The net's checksum as [`net_checksum`] gives it (16 hex digits).
    pub checksum: String,
}

/// Reads a chain file's text: `[step N]` sections, numbered from 1 in order, each with
/// `build`, `teacher`, `args` and `checksum` (`doc` and `note` lines are for readers).
/// Errors name the line.
pub fn parse_chain(text: &str) -> Result<Vec<Step>, String> {
    let mut steps: Vec<Step> = Vec::new();
    let mut open: Option<(usize, [Option<String>; 4])> = None;
    const KEYS: [&str; 4] = ["build", "teacher", "args", "checksum"];
    let close = |open: Option<(usize, [Option<String>; 4])>,
                 steps: &mut Vec<Step>,
                 line: usize|
     -> Result<(), String> {
        let Some((number, fields)) = open else {
            return Ok(());
        };
        let [build, teacher, args, checksum] = fields;
        let missing =
            |k: usize| format!("step {number} (ending at line {line}) has no `{}`", KEYS[k]);
        let build = build.ok_or_else(|| missing(0))?;
        let teacher = teacher.ok_or_else(|| missing(1))?;
        let args = args.ok_or_else(|| missing(2))?;
        let checksum = checksum.ok_or_else(|| missing(3))?;
        if build.len() != 40 || !build.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!(
                "step {number}: `build` must be a commit's 40 hex digits, found `{build}`"
            ));
        }
        if checksum.len() != 16 || !checksum.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!(
                "step {number}: `checksum` must be 16 hex digits, found `{checksum}`"
            ));
        }
        let teacher = match teacher.as_str() {
            "none" => Teacher::None,
            t => match t.strip_prefix("step ") {
                Some(n) => match n.trim().parse::<usize>() {
                    Ok(k) if k >= 1 && k < number => Teacher::Step(k),
                    _ => {
                        return Err(format!(
                            "step {number}: `teacher = {t}` must name an earlier step"
                        ))
                    }
                },
                None => match t.split_once(':') {
                    Some((rev, path)) if rev.len() == 40 && !path.is_empty() => {
                        Teacher::Git(rev.to_string(), path.to_string())
                    }
                    _ => {
                        return Err(format!(
                            "step {number}: `teacher` is `none`, `step N` or `<commit>:<path>`, \
                             found `{t}`"
                        ))
                    }
                },
            },
        };
        let args: Vec<String> = args.split_whitespace().map(String::from).collect();
        if let Some(bad) = args
            .iter()
            .find(|a| matches!(a.as_str(), "--teacher" | "--out"))
        {
            return Err(format!(
                "step {number}: `args` must not hold `{bad}` (the replay sets it)"
            ));
        }
        steps.push(Step {
            number,
            build: build.to_ascii_lowercase(),
            teacher,
            args,
            checksum: checksum.to_ascii_lowercase(),
        });
        Ok(())
    };
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(head) = line.strip_prefix('[') {
            let n = head
                .strip_suffix(']')
                .and_then(|h| h.strip_prefix("step "))
                .and_then(|n| n.trim().parse::<usize>().ok())
                .ok_or_else(|| format!("line {line_no}: expected `[step N]`, found `{line}`"))?;
            close(open.take(), &mut steps, line_no)?;
            if n != steps.len() + 1 {
                return Err(format!(
                    "line {line_no}: `[step {n}]` where step {} was expected",
                    steps.len() + 1
                ));
            }
            open = Some((n, [None, None, None, None]));
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .map(|(k, v)| (k.trim(), v.trim()))
            .ok_or_else(|| format!("line {line_no}: expected `key = value`, found `{line}`"))?;
        let Some((_, fields)) = open.as_mut() else {
            return Err(format!(
                "line {line_no}: `{key}` before the first `[step N]`"
            ));
        };
        match KEYS.iter().position(|k| *k == key) {
            Some(k) if fields[k].is_some() => {
                return Err(format!("line {line_no}: `{key}` given twice"))
            }
            Some(k) => fields[k] = Some(value.to_string()),
            None if key == "doc" || key == "note" => {}
            None => {
                return Err(format!(
                "line {line_no}: unknown key `{key}` (build, teacher, args, checksum, doc, note)"
            ))
            }
        }
    }
    close(open.take(), &mut steps, text.lines().count())?;
    if steps.is_empty() {
        return Err("the chain has no step".into());
    }
    Ok(steps)
}

/// FNV-1a 64 of `bytes`, the checksum a net file ends with.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The checksum by which the docs and `kshogi-nnue` name a net: the FNV-1a 64 of the whole
/// file, as 16 hex digits; an error if the file is not a net whose last 8 bytes (little
/// endian) are the FNV-1a 64 of the bytes before them.
pub fn net_checksum(bytes: &[u8]) -> Result<String, String> {
    if bytes.len() < 12 || &bytes[..4] != b"KSNN" {
        return Err("not a net file (no `KSNN` magic)".into());
    }
    let (body, tail) = bytes.split_at(bytes.len() - 8);
    let stored = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
    let computed = fnv1a64(body);
    if stored != computed {
        return Err(format!(
            "its stored checksum {stored:016x} is not that of its bytes ({computed:016x})"
        ));
    }
    Ok(format!("{:016x}", fnv1a64(bytes)))
}

/// The chain file of `variant`'s registered net.
pub fn chain_path(root: &Path, variant: &str) -> PathBuf {
    root.join("crates/tuned-eval/src/weights")
        .join(format!("{variant}.chain"))
}

/// The options of a replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayOptions {
    /// The variant's short name.
    pub variant: String,
    /// The replay's directory.
    pub dir: Option<PathBuf>,
    /// Where the commits are built.
    pub builds: Option<PathBuf>,
    /// The first step to make.
    pub from: usize,
    /// Only check the chain against git.
    pub check: bool,
}

impl ReplayOptions {
    /// Reads the arguments after `replay`.
    pub fn parse(args: &[String]) -> Result<ReplayOptions, String> {
        let mut opts = ReplayOptions {
            variant: String::new(),
            dir: None,
            builds: None,
            from: 1,
            check: false,
        };
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let mut value = || {
                it.next()
                    .cloned()
                    .ok_or_else(|| format!("`{flag}` needs a value"))
            };
            match flag.as_str() {
                "--variant" => opts.variant = value()?,
                "--dir" => opts.dir = Some(PathBuf::from(value()?)),
                "--builds" => opts.builds = Some(PathBuf::from(value()?)),
                "--from" => {
                    let v = value()?;
                    opts.from = v
                        .parse()
                        .ok()
                        .filter(|&n| n >= 1)
                        .ok_or_else(|| format!("`--from` needs a step number, found `{v}`"))?;
                }
                "--check" => opts.check = true,
                other => return Err(format!("unknown argument `{other}` for `nnue replay`")),
            }
        }
        if opts.variant.is_empty() {
            return Err("`nnue replay` needs `--variant V`".into());
        }
        Ok(opts)
    }
}

/// Runs `nnue replay`.
pub fn run(opts: &ReplayOptions, root: &Path) -> Result<(), String> {
    let chain_file = chain_path(root, &opts.variant);
    let text = std::fs::read_to_string(&chain_file).map_err(|e| {
        let mut have: Vec<String> = std::fs::read_dir(chain_file.parent().unwrap_or(root))
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .filter(|p| p.extension().is_some_and(|x| x == "chain"))
            .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .collect();
        have.sort();
        format!(
            "{}: {e} (the variants with a chain: {})",
            util::display_path(&chain_file, root),
            have.join(", ")
        )
    })?;
    let steps = parse_chain(&text)
        .map_err(|e| format!("{}: {e}", util::display_path(&chain_file, root)))?;
    let registered = chain_file.with_extension("nnue");
    let last = steps.last().expect("a chain has a step");
    let bytes = std::fs::read(&registered)
        .map_err(|e| format!("{}: {e}", util::display_path(&registered, root)))?;
    let sum = net_checksum(&bytes)
        .map_err(|e| format!("{}: {e}", util::display_path(&registered, root)))?;
    if sum != last.checksum {
        return Err(format!(
            "the chain's last step makes {}, but the registered net is {sum}",
            last.checksum
        ));
    }
    if opts.from > steps.len() {
        return Err(format!(
            "`--from {}`: the chain has {} steps",
            opts.from,
            steps.len()
        ));
    }
    for step in &steps {
        git(root, &["cat-file", "-e", &format!("{}^{{commit}}", step.build)])
            .map_err(|_| format!("step {}: commit {} is not in this repository (a shallow clone? `git fetch --unshallow`)", step.number, step.build))?;
        if let Teacher::Git(rev, path) = &step.teacher {
            git(root, &["cat-file", "-e", &format!("{rev}:{path}")])
                .map_err(|_| format!("step {}: teacher {rev}:{path} is not in git", step.number))?;
        }
    }
    if opts.check {
        println!(
            "nnue replay: {}'s chain reads ({} steps, commits and teachers in git; the last is the registered net {sum})",
            opts.variant,
            steps.len()
        );
        return Ok(());
    }
    let dir = opts.dir.clone().unwrap_or_else(|| {
        root.join("target/nnue")
            .join(format!("replay-{}", opts.variant))
    });
    let dir = absolute(&dir)?;
    let builds = opts
        .builds
        .clone()
        .unwrap_or_else(|| root.join("target/nnue/replay-builds"));
    let builds = absolute(&builds)?;
    for d in [&dir, &builds] {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let mut report = String::new();
    for step in &steps {
        let out = dir.join(format!("step-{}.nnue", step.number));
        if step.number < opts.from || made(&out, &step.checksum) {
            if !made(&out, &step.checksum) {
                return Err(format!(
                    "`--from {}`: step {} is not in {} (made and checked)",
                    opts.from,
                    step.number,
                    dir.display()
                ));
            }
            let _ = writeln!(
                report,
                "step {}: {} (made before)",
                step.number, step.checksum
            );
            continue;
        }
        let started = std::time::Instant::now();
        let (tree, bin) = build(root, &builds, &step.build)?;
        let mut args = step.args.clone();
        match &step.teacher {
            Teacher::None => {}
            Teacher::Step(k) => {
                args.push("--teacher".into());
                args.push(dir.join(format!("step-{k}.nnue")).to_string_lossy().into());
            }
            Teacher::Git(rev, path) => {
                let t = dir.join(format!("teacher-{}-{}.nnue", step.number, &rev[..12]));
                let blob = Command::new("git")
                    .args(["show", &format!("{rev}:{path}")])
                    .current_dir(root)
                    .stdin(Stdio::null())
                    .output()
                    .map_err(|e| format!("could not run git: {e}"))?;
                if !blob.status.success() {
                    return Err(format!(
                        "step {}: `git show {rev}:{path}` failed",
                        step.number
                    ));
                }
                write_new(&t, &blob.stdout)?;
                args.push("--teacher".into());
                args.push(t.to_string_lossy().into());
            }
        }
        let tmp = dir.join(format!("step-{}.nnue.tmp", step.number));
        args.push("--out".into());
        args.push(tmp.to_string_lossy().into());
        eprintln!(
            "==> step {} of {}: {} train {} (in {})",
            step.number,
            steps.len(),
            &step.build[..12],
            args.join(" "),
            tree.display()
        );
        let status = Command::new(&bin)
            .arg("train")
            .args(&args)
            .current_dir(&tree)
            .stdin(Stdio::null())
            .status()
            .map_err(|e| format!("could not run {}: {e}", bin.display()))?;
        if !status.success() {
            return Err(format!(
                "step {}: kshogi-nnue train failed ({})",
                step.number,
                util::describe_status(status)
            ));
        }
        let bytes = std::fs::read(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
        let got = net_checksum(&bytes).map_err(|e| format!("step {}: {e}", step.number))?;
        if got != step.checksum {
            let kept = dir.join(format!("step-{}.differs.nnue", step.number));
            let _ = std::fs::rename(&tmp, &kept);
            return Err(format!(
                "step {}: the net made is {got}, the chain records {} (kept as {})",
                step.number,
                step.checksum,
                kept.display()
            ));
        }
        std::fs::rename(&tmp, &out).map_err(|e| format!("{}: {e}", out.display()))?;
        let line = format!(
            "step {}: {got}, byte for byte ({})",
            step.number,
            util::seconds(started.elapsed())
        );
        eprintln!("{line}");
        let _ = writeln!(report, "{line}");
    }
    let last_out = dir.join(format!("step-{}.nnue", steps.len()));
    let made_bytes =
        std::fs::read(&last_out).map_err(|e| format!("{}: {e}", last_out.display()))?;
    if made_bytes != bytes {
        return Err(format!(
            "{} has the registered checksum but not its bytes",
            last_out.display()
        ));
    }
    print!("{report}");
    println!(
        "nnue replay: {}'s registered net made again from nothing in {} steps, byte for byte ({sum})",
        opts.variant,
        steps.len()
    );
    Ok(())
}

/// Whether `path` is a net with checksum `sum`.
fn made(path: &Path, sum: &str) -> bool {
    std::fs::read(path)
        .ok()
        .and_then(|b| net_checksum(&b).ok())
        .is_some_and(|s| s == sum)
}

/// `kshogi-nnue` of commit `rev`: its tree from `git archive` in `BUILDS/<rev>/src`,
/// built in `BUILDS/<rev>/target`, the binary copied beside the tree.
/// Returns the tree and the binary; both are reused when there.
fn build(root: &Path, builds: &Path, rev: &str) -> Result<(PathBuf, PathBuf), String> {
    let base = builds.join(&rev[..12]);
    let tree = base.join("src");
    let bin = base.join("kshogi-nnue");
    if !tree.join("Cargo.toml").is_file() {
        let partial = base.join("src.partial");
        let _ = std::fs::remove_dir_all(&partial);
        std::fs::create_dir_all(&partial).map_err(|e| format!("{}: {e}", partial.display()))?;
        eprintln!("==> git archive {} into {}", &rev[..12], tree.display());
        let mut archive = Command::new("git")
            .args(["archive", "--format=tar", rev])
            .current_dir(root)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("could not run git: {e}"))?;
        let Some(tar_input) = archive.stdout.take() else {
            return Err("git archive gave no output pipe".into());
        };
        let untar = Command::new("tar")
            .args(["-x", "-C"])
            .arg(&partial)
            .stdin(tar_input)
            .status()
            .map_err(|e| format!("could not run tar: {e}"));
        let archived = archive.wait().map_err(|e| format!("git archive: {e}"))?;
        if !archived.success() || !untar?.success() {
            return Err(format!("`git archive {rev} | tar -x` failed"));
        }
        std::fs::rename(&partial, &tree).map_err(|e| format!("{}: {e}", tree.display()))?;
    }
    if !bin.is_file() {
        // A target directory of its own: cargo names a path crate's artifacts without its
        // absolute path and judges them fresh by mtime, and `git archive` dates the files
        // by their commit, so a shared one would take another commit's crates as built.
        let args = [
            "build",
            "--release",
            "--locked",
            "-p",
            "kshogi-tune",
            "--bin",
            "kshogi-nnue",
            "--message-format=json-render-diagnostics",
        ];
        let built = util::build_binary(&tree, &args, Some(&base.join("target")), "kshogi-nnue")
            .map_err(|e| format!("commit {rev}: {e}"))?;
        std::fs::copy(&built, &bin).map_err(|e| format!("{}: {e}", bin.display()))?;
    }
    Ok((tree, bin))
}

/// Runs git in `root`, its output dropped.
fn git(root: &Path, args: &[&str]) -> Result<(), String> {
    util::capture("git", args, root).map(drop)
}

/// `path` made absolute against the current directory.
fn absolute(path: &Path) -> Result<PathBuf, String> {
    if path.is_absolute() {
        return Ok(path.to_path_buf());
    }
    std::env::current_dir()
        .map(|d| d.join(path))
        .map_err(|e| format!("the current directory: {e}"))
}

/// Writes `bytes` to `path` through a temporary file.
fn write_new(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "\
# a chain
[step 1]
build = 0123456789abcdef0123456789abcdef01234567
teacher = none
args = --variant micro --games 100 --seed 3
checksum = 00112233445566AA
doc = docs/nnue.md#x

[step 2]
build = 0123456789abcdef0123456789abcdef01234567
teacher = step 1
note = anything
args = --variant micro --games 200
checksum = ffeeddccbbaa9988
";

    #[test]
    fn a_chain_reads_and_bad_ones_are_named() {
        let steps = parse_chain(GOOD).unwrap();
        assert_eq!(steps.len(), 2);
        assert_eq!(steps[0].teacher, Teacher::None);
        assert_eq!(steps[1].teacher, Teacher::Step(1));
        assert_eq!(steps[0].checksum, "00112233445566aa");
        assert_eq!(steps[1].args, ["--variant", "micro", "--games", "200"]);
        let err = |from: &str, to: &str| parse_chain(&GOOD.replace(from, to)).unwrap_err();
        assert!(err("teacher = step 1", "teacher = step 2").contains("an earlier step"));
        assert!(err("[step 2]", "[step 3]").contains("`[step 3]` where step 2"));
        assert!(err("checksum = ffeeddccbbaa9988", "checksum = ffee").contains("16 hex"));
        assert!(err("--games 200", "--games 200 --out x").contains("`--out`"));
        assert!(err("note = anything", "notes = x").contains("line 12: unknown key `notes`"));
        assert!(err("teacher = none\n", "").contains("step 1 (ending at line 8) has no `teacher`"));
        assert!(err("teacher = step 1", "teacher = abc:x").contains("`<commit>:<path>`"));
        let git = parse_chain(&GOOD.replace(
            "teacher = step 1",
            "teacher = 0123456789abcdef0123456789abcdef01234567:w/m.nnue",
        ))
        .unwrap();
        assert!(matches!(&git[1].teacher, Teacher::Git(_, p) if p == "w/m.nnue"));
        assert!(parse_chain("# nothing\n").unwrap_err().contains("no step"));
    }

    #[test]
    fn the_checksum_is_fnv1a_of_the_bytes_before_it() {
        // FNV-1a 64's published test values: "" and "a".
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        let mut net = b"KSNN\x01\x00rest".to_vec();
        let sum = fnv1a64(&net);
        net.extend_from_slice(&sum.to_le_bytes());
        assert_eq!(net_checksum(&net), Ok(format!("{:016x}", fnv1a64(&net))));
        net[5] ^= 1;
        assert!(net_checksum(&net)
            .unwrap_err()
            .contains("not that of its bytes"));
        assert!(net_checksum(b"nope").is_err());
    }

    /// Every registered net has a chain whose last step is that net, and every chain reads.
    #[test]
    fn each_registered_net_has_a_chain_ending_in_it() {
        let root = util::workspace_root();
        let weights = root.join("crates/tuned-eval/src/weights");
        let mut nets = 0;
        for entry in std::fs::read_dir(&weights).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "nnue") {
                nets += 1;
                let variant = path.file_stem().unwrap().to_string_lossy().into_owned();
                let sum = net_checksum(&std::fs::read(&path).unwrap()).unwrap();
                let text = std::fs::read_to_string(chain_path(&root, &variant))
                    .unwrap_or_else(|e| panic!("{variant}: no chain: {e}"));
                let steps = parse_chain(&text).unwrap_or_else(|e| panic!("{variant}: {e}"));
                assert_eq!(
                    steps[0].teacher,
                    Teacher::None,
                    "{variant} starts from nothing"
                );
                assert_eq!(steps.last().unwrap().checksum, sum, "{variant}");
                for s in &steps {
                    let v = s.args.iter().position(|a| a == "--variant");
                    assert_eq!(
                        v.and_then(|i| s.args.get(i + 1)),
                        Some(&variant),
                        "{variant} step {}",
                        s.number
                    );
                }
            }
        }
        assert!(nets >= 3, "{nets} nets");
    }

    #[test]
    fn replay_options_are_read() {
        let a = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let o = ReplayOptions::parse(&a("--variant kyoto --from 2 --dir d --builds b")).unwrap();
        assert_eq!((o.variant.as_str(), o.from, o.check), ("kyoto", 2, false));
        assert_eq!(o.builds, Some(PathBuf::from("b")));
        assert!(ReplayOptions::parse(&a("--from 0 --variant x")).is_err());
        assert!(ReplayOptions::parse(&a("--check"))
            .unwrap_err()
            .contains("--variant"));
        assert!(ReplayOptions::parse(&a("--variant x --bogus"))
            .unwrap_err()
            .contains("`--bogus`"));
    }
}
