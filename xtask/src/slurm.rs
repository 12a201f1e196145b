//! `cargo xtask slurm`: the work units on a real batch system. Installs Slurm and MUNGE from
//! the distribution's packages (`apt-get`), starts a one-node cluster in a temporary
//! directory (a MUNGE key, `munged`, `slurmctld`, `slurmd`, a one-node `slurm.conf`), and
//! submits two job arrays: a Kyoto perft split into units (`kshogi perft-units`) and a
//! 40-game match in 4 shards (`kshogi match --shards`). It checks that the merged perft
//! equals the single-process count and that the merged match summary equals the sum of
//! the shards' summaries, then stops the daemons it started. If the packages cannot be
//! installed, or the cluster does not come up, the task fails: it never passes by skipping.
//!
//! It needs root (to install packages and run the daemons as `SlurmUser=root`) and a machine
//! without an init system's Slurm already running on the ports it picks.

use crate::util;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The usage lines of this task.
pub const USAGE: &str =
    "  slurm              install Slurm and MUNGE (apt-get; needs root), start a one-node cluster,
                     run a Kyoto perft split into units and a 4-shard match as job arrays,
                     check their merges, stop the daemons
";

/// The perft job: Kyoto from the start, depth 6 (2,829,234 leaves, perft/reference.tsv),
/// split at depth 2 into 137 units, 8 units an array task (18 tasks).
const PERFT_DEPTH: &str = "6";
const PERFT_SPLIT: &str = "2";
const UNITS_PER_TASK: usize = 8;

/// The match: 40 games in 4 shards, kshogi against itself at 300 nodes a move.
const MATCH_GAMES: &str = "40";
const MATCH_SHARDS: u32 = 4;
const MATCH_NODES: &str = "300";

/// Daemons started by this task, stopped when it ends (also on failure).
struct Daemons {
    children: Vec<(&'static str, Child)>,
}

impl Drop for Daemons {
    fn drop(&mut self) {
        // slurmd first (it ends the job steps), then the controller, then munged.
        for (name, child) in self.children.iter_mut().rev() {
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            let deadline = Instant::now() + Duration::from_secs(10);
            loop {
                match child.try_wait() {
                    Ok(Some(_)) => break,
                    Ok(None) if Instant::now() < deadline => {
                        std::thread::sleep(Duration::from_millis(100));
                    }
                    _ => {
                        let _ = child.kill();
                        let _ = child.wait();
                        break;
                    }
                }
            }
            eprintln!("stopped {name} (pid {})", child.id());
        }
    }
}

/// Runs `program args` and fails with its output when it fails.
fn run(program: &str, args: &[&str], env: &[(&str, &str)]) -> Result<String, String> {
    let output = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("could not run `{program}`: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    if !output.status.success() {
        return Err(format!(
            "`{program} {}` failed ({}): {}{}",
            args.join(" "),
            util::describe_status(output.status),
            text.trim(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(text)
}

/// Installs the packages; an error when that fails.
fn install() -> Result<(), String> {
    let env = [("DEBIAN_FRONTEND", "noninteractive")];
    eprintln!("==> apt-get update");
    run("apt-get", &["update", "-q"], &env).map_err(|e| format!("cannot install Slurm: {e}"))?;
    eprintln!("==> apt-get install slurm-wlm munge");
    run(
        "apt-get",
        &[
            "install",
            "-y",
            "-q",
            "--no-install-recommends",
            "slurm-wlm",
            "munge",
        ],
        &env,
    )
    .map_err(|e| format!("cannot install Slurm: {e}"))?;
    Ok(())
}

/// The last lines of a daemon's log, for a failure message.
fn log_tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let tail = lines[lines.len().saturating_sub(8)..].join("\n    ");
    format!("{}:\n    {tail}", path.display())
}

fn spawn(
    name: &'static str,
    program: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> Result<(&'static str, Child), String> {
    let child = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("could not start {name} (`{program}`): {e}"))?;
    eprintln!("started {name} (pid {})", child.id());
    Ok((name, child))
}

/// The one-node `slurm.conf`.
fn slurm_conf(dir: &Path, host: &str, cpus: usize, port: u16) -> String {
    let d = dir.display();
    format!(
        "# A one-node cluster for `cargo xtask slurm`, made in {d}.\n\
         ClusterName=kshogi\n\
         SlurmctldHost={host}\n\
         SlurmUser=root\n\
         SlurmdUser=root\n\
         SlurmctldPort={port}\n\
         SlurmdPort={}\n\
         AuthType=auth/munge\n\
         CredType=cred/munge\n\
         AuthInfo=socket={d}/munge.socket\n\
         ProctrackType=proctrack/linuxproc\n\
         TaskPlugin=task/none\n\
         SelectType=select/cons_tres\n\
         SelectTypeParameters=CR_Core\n\
         SchedulerType=sched/backfill\n\
         MpiDefault=none\n\
         ReturnToService=2\n\
         StateSaveLocation={d}/state\n\
         SlurmdSpoolDir={d}/spool\n\
         SlurmctldPidFile={d}/slurmctld.pid\n\
         SlurmdPidFile={d}/slurmd.pid\n\
         SlurmctldLogFile={d}/slurmctld.log\n\
         SlurmdLogFile={d}/slurmd.log\n\
         JobCompType=jobcomp/none\n\
         JobAcctGatherType=jobacct_gather/none\n\
         AccountingStorageType=accounting_storage/none\n\
         NodeName={host} CPUs={cpus} State=UNKNOWN\n\
         PartitionName=kshogi Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n",
        port + 1
    )
}

/// Runs the task from the workspace root.
pub fn run_task(root: &Path) -> Result<(), String> {
    let started = Instant::now();
    if util::capture("id", &["-u"], root).map(|s| s.trim().to_string()) != Ok("0".into()) {
        return Err("this task installs packages and runs Slurm's daemons: run it as root".into());
    }
    let kshogi = util::build_kshogi(root)?;
    install()?;
    let dir = std::env::temp_dir().join(format!("kshogi-slurm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["state", "spool", "perft", "match"] {
        std::fs::create_dir_all(dir.join(sub))
            .map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    }
    let result = with_cluster(&kshogi, &dir);
    match &result {
        Ok(()) => {
            let _ = std::fs::remove_dir_all(&dir);
        }
        Err(_) => eprintln!("the cluster's files are kept in {}", dir.display()),
    }
    eprintln!("slurm: {}", util::seconds(started.elapsed()));
    result
}

/// Starts the cluster in `dir`, runs both jobs, stops the cluster.
fn with_cluster(kshogi: &Path, dir: &Path) -> Result<(), String> {
    let host = run("hostname", &["-s"], &[])?.trim().to_string();
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let port = 20_000 + (std::process::id() % 20_000) as u16 * 2;
    let conf = dir.join("slurm.conf");
    std::fs::write(&conf, slurm_conf(dir, &host, cpus, port))
        .map_err(|e| format!("cannot write {}: {e}", conf.display()))?;
    let conf_s = conf.display().to_string();
    let env = [("SLURM_CONF", conf_s.as_str())];
    // The MUNGE key: 1024 random bytes, readable by root only.
    let key = dir.join("munge.key");
    run(
        "dd",
        &[
            "if=/dev/urandom",
            &format!("of={}", key.display()),
            "bs=1024",
            "count=1",
            "status=none",
        ],
        &[],
    )?;
    run("chmod", &["0400", &key.display().to_string()], &[])?;
    let d = dir.display().to_string();
    let mut daemons = Daemons {
        children: Vec::new(),
    };
    daemons.children.push(spawn(
        "munged",
        "munged",
        &[
            "--foreground",
            "--force",
            &format!("--key-file={d}/munge.key"),
            &format!("--socket={d}/munge.socket"),
            &format!("--pid-file={d}/munged.pid"),
            &format!("--log-file={d}/munged.log"),
            &format!("--seed-file={d}/munged.seed"),
        ],
        &[],
    )?);
    wait_for(Duration::from_secs(20), || {
        Path::new(&format!("{d}/munge.socket")).exists()
    })
    .map_err(|()| {
        format!(
            "munged did not start; {}",
            log_tail(&dir.join("munged.log"))
        )
    })?;
    daemons
        .children
        .push(spawn("slurmctld", "slurmctld", &["-D", "-i"], &env)?);
    daemons
        .children
        .push(spawn("slurmd", "slurmd", &["-D"], &env)?);
    wait_for(Duration::from_secs(60), || {
        run("sinfo", &["-h", "-o", "%T"], &env).is_ok_and(|s| s.trim() == "idle")
    })
    .map_err(|()| {
        format!(
            "the node did not become idle in 60 s; {}\n{}",
            log_tail(&dir.join("slurmctld.log")),
            log_tail(&dir.join("slurmd.log"))
        )
    })?;
    eprintln!("==> the cluster is up: {}", run("sinfo", &[], &env)?.trim());
    perft_job(kshogi, dir, &env)?;
    match_job(kshogi, dir, &env)?;
    drop(daemons);
    Ok(())
}

/// Polls `ready` every 200 ms until it holds or `limit` has passed.
fn wait_for(limit: Duration, mut ready: impl FnMut() -> bool) -> Result<(), ()> {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if ready() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    Err(())
}

/// `sbatch --wait --array=0-(tasks-1)` of `command`, its output per task in `out`.
fn submit(env: &[(&str, &str)], out: &Path, tasks: usize, command: &str) -> Result<(), String> {
    let started = Instant::now();
    let text = run(
        "sbatch",
        &[
            "--wait",
            "--parsable",
            &format!("--array=0-{}", tasks - 1),
            "--cpus-per-task=1",
            &format!("--chdir={}", out.display()),
            &format!("--output={}/task-%a.out", out.display()),
            &format!("--wrap={command}"),
        ],
        env,
    )?;
    eprintln!(
        "job {} ({tasks} array tasks) done in {}",
        text.trim(),
        util::seconds(started.elapsed())
    );
    Ok(())
}

/// A word quoted for `sh`.
fn sh_quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

fn perft_job(kshogi: &Path, dir: &Path, env: &[(&str, &str)]) -> Result<(), String> {
    let k = kshogi.display().to_string();
    let work = dir.join("perft");
    let manifest = work.join("job.jsonl");
    let m = manifest.display().to_string();
    eprintln!("==> perft: Kyoto startpos depth {PERFT_DEPTH}, split at depth {PERFT_SPLIT}");
    run(
        &k,
        &[
            "perft-units",
            "split",
            "--variant",
            "kyoto",
            "--split-depth",
            PERFT_SPLIT,
            "-o",
            &m,
            "startpos",
            PERFT_DEPTH,
        ],
        &[],
    )?;
    let units = std::fs::read_to_string(&manifest)
        .map_err(|e| format!("cannot read {m}: {e}"))?
        .lines()
        .count();
    if units < 16 {
        return Err(format!("the perft split made {units} units, fewer than 16"));
    }
    let tasks = units.div_ceil(UNITS_PER_TASK);
    let results = work.join("results");
    submit(
        env,
        &work,
        tasks,
        &format!(
            "exec {} perft-units count {} --out {} --per-task {UNITS_PER_TASK}",
            sh_quote(&k),
            sh_quote(&m),
            sh_quote(&results.display().to_string())
        ),
    )?;
    let merged = run(
        &k,
        &[
            "perft-units",
            "merge",
            "--json",
            &m,
            &results.display().to_string(),
        ],
        &[],
    )?;
    let single = run(
        &k,
        &[
            "perft",
            "--divide",
            "--json",
            "--variant",
            "kyoto",
            "startpos",
            PERFT_DEPTH,
        ],
        &[],
    )?;
    let field = |text: &str, name: &str| -> Result<serde_json::Value, String> {
        let v: serde_json::Value =
            serde_json::from_str(text.trim()).map_err(|e| format!("not JSON ({e}): {text}"))?;
        Ok(v[name].clone())
    };
    let (mn, sn) = (field(&merged, "nodes")?, field(&single, "nodes")?);
    if mn != sn || field(&merged, "divide")? != field(&single, "divide")? {
        return Err(format!(
            "the merged perft ({mn} nodes) differs from the single-process count ({sn} nodes) \
             or its divide does"
        ));
    }
    eprintln!("perft: {units} units in {tasks} array tasks, merged {mn} nodes = single count, same divide");
    Ok(())
}

fn match_job(kshogi: &Path, dir: &Path, env: &[(&str, &str)]) -> Result<(), String> {
    let k = kshogi.display().to_string();
    let work = dir.join("match");
    let results = work.join("results").display().to_string();
    eprintln!("==> match: {MATCH_GAMES} games in {MATCH_SHARDS} shards");
    let engine = format!("{k} usi");
    let command = format!(
        "exec {} match --variant kyoto --engine-a {} --engine-b {} --a-name A --b-name B \
         --nodes {MATCH_NODES} --games {MATCH_GAMES} --random-plies 4 --seed 35 \
         --shards {MATCH_SHARDS} --results {} --json",
        sh_quote(&k),
        sh_quote(&engine),
        sh_quote(&engine),
        sh_quote(&results)
    );
    submit(env, &work, MATCH_SHARDS as usize, &command)?;
    let merged = run(&k, &["match", "--merge", &results, "--json"], &[])?;
    let merged: serde_json::Value =
        serde_json::from_str(merged.trim()).map_err(|e| format!("merge printed no JSON: {e}"))?;
    let mut sums = [0u64; 4];
    let mut pairs = [0u64; 5];
    for i in 0..MATCH_SHARDS {
        let path = work.join(format!("task-{i}.out"));
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let s: serde_json::Value = serde_json::from_str(text.trim())
            .map_err(|e| format!("{}: not a JSON summary ({e})", path.display()))?;
        for (j, key) in ["games", "wins", "draws", "losses"].iter().enumerate() {
            sums[j] += s[key].as_u64().unwrap_or(0);
        }
        for (j, p) in pairs.iter_mut().enumerate() {
            *p += s["pairs"][j].as_u64().unwrap_or(0);
        }
    }
    let got: Vec<u64> = ["games", "wins", "draws", "losses"]
        .iter()
        .map(|key| merged[key].as_u64().unwrap_or(u64::MAX))
        .collect();
    let got_pairs: Vec<u64> = (0..5)
        .map(|j| merged["pairs"][j].as_u64().unwrap_or(u64::MAX))
        .collect();
    if got != sums || got_pairs != pairs || sums[0] != 40 {
        return Err(format!(
            "the merged match (games, wins, draws, losses {got:?}, pairs {got_pairs:?}) is not \
             the sum of the shards ({sums:?}, pairs {pairs:?}) of 40 games"
        ));
    }
    eprintln!(
        "match: {} games, +{} ={} -{}, pairs {pairs:?}: merged = sum of the {MATCH_SHARDS} shards",
        sums[0], sums[1], sums[2], sums[3]
    );
    Ok(())
}
