//! Matches as shards for batch systems: shard `I` of `N` plays the opening pairs `k` with
//! `k % N == I` (both games of a pair in one shard) and appends each finished pair to its
//! results file, `shard-<I>-of-<N>.jsonl` in a results directory; [`merge`] reads the files
//! of every shard and makes the one summary a single process playing those games would
//! have made. With an SPRT and a results directory all shards share (a shared file
//! system), each shard reads the others' files before it starts a pair, and starts none once
//! the combined LLR has decided.
//!
//! A results file is JSON lines: first a `match` line (the match's digest, the program,
//! variant, engines, games, SPRT, the shard and the number of shards), then one `pair` line
//! per finished pair (its number, when it finished, its two games). Only complete pairs are
//! written. A shard run again with the same match continues its file: pairs already there
//! are not played again. See `docs/scale.md`.

use crate::stats::{self, Sprt, SprtDecision};
use crate::summary::{GameReport, Summary};
use crate::{MatchConfig, MatchError, MatchVariant};
use kshogi_variants::VariantKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The version of the results file layout.
pub const FORMAT: u32 = 1;

/// Which share of the opening pairs a process plays, and where it writes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, from 0.
    pub index: u32,
    /// How many shards the match has.
    pub count: u32,
    /// The results directory (shared by all shards for an SPRT).
    pub results: PathBuf,
}

impl Shard {
    /// Whether pair `k` (from 0) is this shard's.
    pub fn plays(&self, pair: u32) -> bool {
        pair % self.count == self.index
    }

    /// This shard's results file.
    pub fn path(&self) -> PathBuf {
        self.results
            .join(format!("shard-{}-of-{}.jsonl", self.index, self.count))
    }
}

/// The first line of a results file: the match it belongs to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchLine {
    /// Always `match`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The layout's version ([`FORMAT`]).
    pub format: u32,
    /// The digest of the match's settings (engines, time control, openings, games, SPRT,
    /// ply limit, number of shards, program).
    #[serde(rename = "match")]
    pub digest: String,
    /// The program (`kshogi-match 0.1.0`).
    pub program: String,
    /// The variant's name.
    pub variant: String,
    /// Engine A's name.
    pub engine_a: String,
    /// Engine B's name.
    pub engine_b: String,
    /// Games of the whole match (even).
    pub games: u32,
    /// The SPRT, if one runs.
    pub sprt: Option<Sprt>,
    /// This shard.
    pub shard: u32,
    /// The number of shards.
    pub shards: u32,
}

/// One game in a results file (a [`GameReport`] with owned text).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct GameLine {
    game: u32,
    opening: String,
    a_color: String,
    result: String,
    reason: String,
    detail: String,
    fault_by: String,
    plies: usize,
    file: Option<String>,
}

/// A finished pair in a results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct PairLine {
    #[serde(rename = "type")]
    kind: String,
    pair: u32,
    finished_unix_ms: u64,
    games: Vec<GameLine>,
}

fn game_line(g: &GameReport) -> GameLine {
    GameLine {
        game: g.game,
        opening: g.opening.clone(),
        a_color: g.a_color.to_string(),
        result: g.result.to_string(),
        reason: g.reason.clone(),
        detail: g.detail.clone(),
        fault_by: g.fault_by.clone(),
        plies: g.plies,
        file: g.file.clone(),
    }
}

fn game_report(g: GameLine, at: &str) -> Result<GameReport, MatchError> {
    let bad = |what: &str, v: &str| {
        Err(MatchError::Config(format!(
            "{at}: game {}: `{v}` is not a {what}",
            g.game
        )))
    };
    let a_color = match g.a_color.as_str() {
        "black" => "black",
        "white" => "white",
        v => return bad("colour", v),
    };
    let result = match g.result.as_str() {
        "win" => "win",
        "draw" => "draw",
        "loss" => "loss",
        v => return bad("result", v),
    };
    Ok(GameReport {
        game: g.game,
        opening: g.opening,
        a_color,
        result,
        reason: g.reason,
        detail: g.detail,
        fault_by: g.fault_by,
        plies: g.plies,
        file: g.file,
    })
}

/// 128-bit FNV-1a.
fn fnv1a128(bytes: &[u8]) -> u128 {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u128::from(b)).wrapping_mul(PRIME))
}

/// This program, as results files name it.
fn program() -> String {
    format!("kshogi-match {}", env!("CARGO_PKG_VERSION"))
}

/// The header of `cfg`'s results file for `shard`.
pub(crate) fn match_line<K: MatchVariant>(cfg: &MatchConfig<K>, shard: &Shard) -> MatchLine {
    let games = cfg.games.div_ceil(2) * 2;
    let text = format!(
        "kshogi match shards {FORMAT}\n{}\n{}\n{:?}\n{:?}\n{:?}\n{games}\n{:?}\n{}\n{:?}\n{:?}\n{}\n",
        program(),
        cfg.variant.name(),
        cfg.engines,
        cfg.time,
        cfg.openings,
        cfg.sprt,
        cfg.max_plies,
        cfg.margin,
        cfg.handshake_timeout,
        shard.count
    );
    MatchLine {
        kind: "match".into(),
        format: FORMAT,
        digest: format!("{:032x}", fnv1a128(text.as_bytes())),
        program: program(),
        variant: cfg.variant.name().to_string(),
        engine_a: cfg.engines[0].name.clone(),
        engine_b: cfg.engines[1].name.clone(),
        games,
        sprt: cfg.sprt,
        shard: shard.index,
        shards: shard.count,
    }
}

/// A results file read back: its header and its pairs (number, finish time, games).
#[derive(Clone, Debug)]
struct ShardFile {
    path: PathBuf,
    header: MatchLine,
    pairs: Vec<(u32, u64, Vec<GameReport>)>,
}

fn read_shard_file(path: &Path) -> Result<ShardFile, MatchError> {
    let text = std::fs::read_to_string(path).map_err(|e| MatchError::Output {
        path: path.to_path_buf(),
        message: format!("cannot read the results file: {e}"),
    })?;
    parse_shard_file(&text, path)
}

fn parse_shard_file(text: &str, path: &Path) -> Result<ShardFile, MatchError> {
    // Only whole lines count: a line without its line end is one being written (another
    // shard reads the file meanwhile) or cut short by a shard killed while writing it; that
    // pair is played again when the shard runs again.
    let text = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let bad = |line: usize, message: String| {
        MatchError::Config(format!("{}:{}: {message}", path.display(), line + 1))
    };
    let Some((i, first)) = lines.next() else {
        return Err(MatchError::Config(format!(
            "{}: the results file is empty",
            path.display()
        )));
    };
    let header: MatchLine = serde_json::from_str(first)
        .map_err(|e| bad(i, format!("not the `match` line of a results file: {e}")))?;
    if header.kind != "match" || header.format != FORMAT {
        return Err(bad(
            i,
            format!(
                "a `{}` line of format {}, where a `match` line of format {FORMAT} was expected",
                header.kind, header.format
            ),
        ));
    }
    let mut pairs = Vec::new();
    for (i, raw) in lines {
        let pair: PairLine =
            serde_json::from_str(raw).map_err(|e| bad(i, format!("not a `pair` line: {e}")))?;
        let at = format!("{}:{}", path.display(), i + 1);
        let games = pair
            .games
            .into_iter()
            .map(|g| game_report(g, &at))
            .collect::<Result<Vec<_>, _>>()?;
        let numbers: Vec<u32> = games.iter().map(|g| g.game).collect();
        if pair.kind != "pair" || numbers != [2 * pair.pair + 1, 2 * pair.pair + 2] {
            return Err(bad(
                i,
                format!(
                    "pair {} must hold games {} and {}, found {numbers:?}",
                    pair.pair,
                    2 * pair.pair + 1,
                    2 * pair.pair + 2
                ),
            ));
        }
        pairs.push((pair.pair, pair.finished_unix_ms, games));
    }
    Ok(ShardFile {
        path: path.to_path_buf(),
        header,
        pairs,
    })
}

/// The results files of a match in `dir` (`shard-*.jsonl`), sorted by name.
fn shard_paths(dir: &Path) -> Result<Vec<PathBuf>, MatchError> {
    let entries = std::fs::read_dir(dir).map_err(|e| MatchError::Output {
        path: dir.to_path_buf(),
        message: format!("cannot read the results directory: {e}"),
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("shard-") && n.ends_with(".jsonl"))
        })
        .collect();
    paths.sort();
    Ok(paths)
}

/// Pairs already in a results file: each pair's number and games.
pub(crate) type DonePairs = Vec<(u32, Vec<GameReport>)>;

/// A shard's writer: its results file, open for appending.
pub(crate) struct ShardWriter {
    path: PathBuf,
    file: std::fs::File,
    header: MatchLine,
    /// Games of pairs not yet complete, by pair.
    pending: BTreeMap<u32, Vec<GameReport>>,
}

impl ShardWriter {
    /// Opens (or starts) the results file of `shard`; returns the writer and the pairs it
    /// already holds (complete, of this match), which are not played again. A file of
    /// another match is an error: it is never overwritten.
    pub(crate) fn open<K: MatchVariant>(
        cfg: &MatchConfig<K>,
        shard: &Shard,
    ) -> Result<(ShardWriter, DonePairs), MatchError> {
        let header = match_line(cfg, shard);
        let path = shard.path();
        let out_err = |message: String| MatchError::Output {
            path: path.clone(),
            message,
        };
        std::fs::create_dir_all(&shard.results).map_err(|e| MatchError::Output {
            path: shard.results.clone(),
            message: format!("cannot create the results directory: {e}"),
        })?;
        let mut done = Vec::new();
        let mut text = String::new();
        if path.exists() {
            let old = read_shard_file(&path)?;
            if old.header != header {
                return Err(out_err(format!(
                    "the results file is of another match (match {}, this one is {}); it is \
                     never overwritten: give another results directory",
                    old.header.digest, header.digest
                )));
            }
            // Rewrite what was read, without a line cut short at its end.
            text.push_str(&serde_json::to_string(&old.header).unwrap_or_default());
            text.push('\n');
            for (pair, at, games) in old.pairs {
                text.push_str(&pair_json(pair, at, &games));
                text.push('\n');
                done.push((pair, games));
            }
        } else {
            text.push_str(&serde_json::to_string(&header).unwrap_or_default());
            text.push('\n');
        }
        let tmp = path.with_extension(format!("jsonl.{}.tmp", std::process::id()));
        std::fs::write(&tmp, &text)
            .and_then(|()| std::fs::rename(&tmp, &path))
            .map_err(|e| out_err(format!("cannot write the results file: {e}")))?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(|e| out_err(format!("cannot open the results file: {e}")))?;
        Ok((
            ShardWriter {
                path,
                file,
                header,
                pending: BTreeMap::new(),
            },
            done,
        ))
    }

    /// Records a finished game; when its pair is complete, appends the pair to the file.
    pub(crate) fn add(&mut self, game: &GameReport) -> Result<(), MatchError> {
        let pair = (game.game - 1) / 2;
        let games = self.pending.entry(pair).or_default();
        games.push(game.clone());
        if games.len() < 2 {
            return Ok(());
        }
        let mut games = self.pending.remove(&pair).unwrap_or_default();
        games.sort_by_key(|g| g.game);
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        let mut line = pair_json(pair, now, &games);
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| MatchError::Output {
                path: self.path.clone(),
                message: format!("cannot append to the results file: {e}"),
            })
    }

    /// The combined SPRT decision over every results file of this match in the results
    /// directory (this shard's included).
    pub(crate) fn combined_decision(&self, dir: &Path) -> Result<SprtDecision, MatchError> {
        let Some(sprt) = self.header.sprt else {
            return Ok(SprtDecision::Undecided);
        };
        let mut files = Vec::new();
        for path in shard_paths(dir)? {
            let f = read_shard_file(&path)?;
            if f.header.digest == self.header.digest {
                files.push(f);
            }
        }
        Ok(first_decision(sprt, &files).0)
    }
}

fn pair_json(pair: u32, at: u64, games: &[GameReport]) -> String {
    serde_json::to_string(&PairLine {
        kind: "pair".into(),
        pair,
        finished_unix_ms: at,
        games: games.iter().map(game_line).collect(),
    })
    .unwrap_or_default()
}

/// The SPRT decision taken first over the pairs of `files` in the order they finished (by
/// time, then by pair), and how many pairs it was taken on.
fn first_decision(sprt: Sprt, files: &[ShardFile]) -> (SprtDecision, u64) {
    let mut order: Vec<(u64, u32, u64)> = files
        .iter()
        .flat_map(|f| f.pairs.iter())
        .map(|(pair, at, games)| {
            let half = |g: &GameReport| match g.result {
                "win" => 2u64,
                "draw" => 1,
                _ => 0,
            };
            (*at, *pair, games.iter().map(half).sum::<u64>())
        })
        .collect();
    order.sort_unstable();
    let mut counts = [0u64; 5];
    for (n, (_, _, points)) in order.iter().enumerate() {
        counts[usize::try_from(*points).unwrap_or(0).min(4)] += 1;
        let pairs = n as u64 + 1;
        if pairs >= stats::MIN_SPRT_PAIRS {
            let decision = sprt.decide(stats::llr_pentanomial(sprt.elo0, sprt.elo1, counts));
            if decision != SprtDecision::Undecided {
                return (decision, pairs);
            }
        }
    }
    (SprtDecision::Undecided, order.len() as u64)
}

/// Shard results merged into one summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MergedMatch {
    /// The summary one process playing these games would report.
    #[serde(flatten)]
    pub summary: Summary,
    /// The match's digest.
    #[serde(rename = "match")]
    pub digest: String,
    /// The number of shards.
    pub shards: u32,
    /// The results files read.
    pub files: Vec<String>,
    /// With an SPRT that decided: the games played when it decided (complete pairs, in the
    /// order they finished).
    pub decided_after_games: Option<u64>,
    /// With an SPRT that decided: the games played after that.
    pub games_past_decision: Option<u64>,
}

impl MergedMatch {
    /// The summary as text, then the shards and, for a decided SPRT, when it decided.
    pub fn to_text(&self) -> String {
        let mut s = self.summary.to_text();
        s.push_str(&format!(
            "merged {} results file(s) of {} shard(s), match {}\n",
            self.files.len(),
            self.shards,
            self.digest
        ));
        if let (Some(at), Some(past)) = (self.decided_after_games, self.games_past_decision) {
            s.push_str(&format!(
                "the SPRT decided after {at} games; {past} games were played past the decision\n"
            ));
        }
        s
    }
}

/// Merges the results files in `dirs` (every `shard-*.jsonl`) into one summary.
///
/// Every file must be of one match (its digest); each pair may appear once, in the file of
/// the shard it belongs to. Without an SPRT every pair of the match must be there; with
/// one, the pairs played. Errors name the files, shards and pairs that are wrong.
pub fn merge(dirs: &[PathBuf]) -> Result<MergedMatch, MatchError> {
    merge_of::<VariantKind>(dirs)
}

/// [`merge`] for the matches of the variants of `K`: a results file of another variant is
/// an error (a program that plays one variant of its own merges its own results files with
/// `merge_of::<Typed<V>>`).
pub fn merge_of<K: MatchVariant>(dirs: &[PathBuf]) -> Result<MergedMatch, MatchError> {
    let mut files = Vec::new();
    for dir in dirs {
        for path in shard_paths(dir)? {
            files.push(read_shard_file(&path)?);
        }
    }
    let Some(first) = files.first() else {
        return Err(MatchError::Config(format!(
            "no results files (shard-*.jsonl) in {}",
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    };
    let header = first.header.clone();
    let mut problems = Vec::new();
    let foreign: Vec<String> = files
        .iter()
        .filter(|f| f.header.digest != header.digest)
        .map(|f| format!("{} (match {})", f.path.display(), f.header.digest))
        .collect();
    if !foreign.is_empty() {
        problems.push(format!(
            "results of another match than {} (match {}): {}",
            first.path.display(),
            header.digest,
            foreign.join(", ")
        ));
    }
    let mut by_shard: BTreeMap<u32, Vec<&Path>> = BTreeMap::new();
    let mut seen: BTreeMap<u32, Vec<&Path>> = BTreeMap::new();
    let pairs_in_match = header.games / 2;
    for f in files.iter().filter(|f| f.header.digest == header.digest) {
        by_shard.entry(f.header.shard).or_default().push(&f.path);
        for (pair, _, _) in &f.pairs {
            if pair % header.shards != f.header.shard || *pair >= pairs_in_match {
                problems.push(format!(
                    "{}: pair {pair} is not one of shard {}'s",
                    f.path.display(),
                    f.header.shard
                ));
            }
            seen.entry(*pair).or_default().push(&f.path);
        }
    }
    for (shard, paths) in by_shard.iter().filter(|(_, p)| p.len() > 1) {
        problems.push(format!(
            "shard {shard} has {} results files: {}",
            paths.len(),
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(" and ")
        ));
    }
    let twice: Vec<String> = seen
        .iter()
        .filter(|(_, p)| p.len() > 1)
        .map(|(pair, p)| {
            format!(
                "pair {pair} ({})",
                p.iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(" and ")
            )
        })
        .collect();
    if !twice.is_empty() {
        problems.push(format!("pairs played more than once: {}", twice.join(", ")));
    }
    let missing_shards: Vec<String> = (0..header.shards)
        .filter(|s| !by_shard.contains_key(s))
        .map(|s| s.to_string())
        .collect();
    if !missing_shards.is_empty() {
        problems.push(format!(
            "no results file of shard(s) {} of {}",
            missing_shards.join(", "),
            header.shards
        ));
    }
    if header.sprt.is_none() {
        let missing: Vec<u32> = (0..pairs_in_match)
            .filter(|p| !seen.contains_key(p))
            .collect();
        if !missing.is_empty() {
            let listed: Vec<String> = missing
                .iter()
                .take(10)
                .map(|p| format!("{p} (shard {})", p % header.shards))
                .collect();
            let more = missing.len().saturating_sub(10);
            problems.push(format!(
                "{} of {pairs_in_match} pairs missing: {}{}",
                missing.len(),
                listed.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            ));
        }
    }
    if !problems.is_empty() {
        return Err(MatchError::Config(problems.join("; ")));
    }
    let ours: Vec<ShardFile> = files
        .into_iter()
        .filter(|f| f.header.digest == header.digest)
        .collect();
    let variant = K::known(&header.variant)
        .ok_or_else(|| MatchError::Config(format!("variant `{}` is not known", header.variant)))?;
    let mut summary = Summary::new(variant, &header.engine_a, &header.engine_b, header.sprt);
    let (decision, at_pairs) = match header.sprt {
        Some(sprt) => first_decision(sprt, &ours),
        None => (SprtDecision::Undecided, 0),
    };
    if let Some(s) = &mut summary.sprt {
        s.decision = decision;
    }
    let games: Vec<GameReport> = ours
        .iter()
        .flat_map(|f| f.pairs.iter().flat_map(|(_, _, g)| g.iter().cloned()))
        .collect();
    summary.add_all(games);
    let decided = decision != SprtDecision::Undecided;
    if decided {
        summary.stopped_early = Some("the SPRT decided".into());
    }
    Ok(MergedMatch {
        digest: header.digest,
        shards: header.shards,
        files: ours.iter().map(|f| f.path.display().to_string()).collect(),
        decided_after_games: decided.then_some(2 * at_pairs),
        games_past_decision: decided.then(|| summary.games - 2 * at_pairs),
        summary,
    })
}
