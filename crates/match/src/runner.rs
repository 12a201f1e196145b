//! The match: openings, workers playing games in parallel, records, the summary.

use crate::game::{play_game, Ending, Seat};
use crate::shard::ShardWriter;
use crate::stats::SprtDecision;
use crate::summary::{GameReport, Summary};
use crate::{MatchConfig, MatchError, MatchVariant, Openings, TimeControl};
use kshogi_core::rng::SplitMix64;
use kshogi_core::{Color, Game, Position, Variant};
use kshogi_notation::kif::to_kif;
use kshogi_notation::parse_game;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Mutex;
use std::time::Duration;

/// How many times a random opening is drawn again when it ends the game.
const OPENING_TRIES: u64 = 1000;

/// The opening of pair `k`: its label and game.
fn opening<V: Variant>(
    openings: &Openings,
    list: &[Game<V>],
    k: u32,
) -> Result<(String, Game<V>), MatchError> {
    match openings {
        Openings::List(lines) => {
            let i = k as usize % list.len();
            Ok((lines[i].0.clone(), list[i].clone()))
        }
        Openings::Random { plies, seed } => {
            for attempt in 0..OPENING_TRIES {
                let mut rng = SplitMix64::new(
                    seed ^ u64::from(k).wrapping_mul(0xD1B5_4A32_D192_ED03)
                        ^ attempt.wrapping_mul(0x8CB9_2BA7_2F3D_8DD7),
                );
                rng.next_u64();
                let mut game = Game::new(Position::<V>::start());
                let mut ok = true;
                for _ in 0..*plies {
                    let moves = game.position().legal_moves();
                    if game.outcome().is_some() || moves.is_empty() {
                        ok = false;
                        break;
                    }
                    let n = moves.len() as u64;
                    let mv = moves.iter().copied().nth((rng.next_u64() % n) as usize);
                    if !mv.is_some_and(|mv| game.play(mv).is_ok()) {
                        ok = false;
                        break;
                    }
                }
                if ok && game.outcome().is_none() {
                    return Ok((format!("random {}", k + 1), game));
                }
            }
            Err(MatchError::Opening {
                label: format!("random {}", k + 1),
                message: format!(
                    "no {plies}-ply random opening that leaves the game running in {OPENING_TRIES} tries"
                ),
            })
        }
    }
}

/// Checks the output directory: it must be new or empty (records are never overwritten);
/// creates it.
fn prepare_out(dir: &Path) -> Result<(), MatchError> {
    let err = |message: String| MatchError::Output {
        path: dir.to_path_buf(),
        message,
    };
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir)
            .map_err(|e| err(format!("cannot read the output directory: {e}")))?;
        if entries.next().is_some() {
            return Err(err(
                "the output directory is not empty; records are never overwritten, so give \
                 a new or empty directory"
                    .into(),
            ));
        }
        return Ok(());
    }
    std::fs::create_dir_all(dir).map_err(|e| err(format!("cannot create it: {e}")))
}

/// Writes a record to a new file (never over an existing one).
fn write_new(path: &Path, text: &str) -> Result<(), MatchError> {
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| MatchError::Output {
            path: path.to_path_buf(),
            message: format!("cannot write the record: {e}"),
        })
}

/// Plays the match `cfg`, calling `progress` with the summary after every game (on this
/// thread) and the number of games planned.
///
/// Game `2k + 1` and `2k + 2` (numbered from 1) share opening `k`: engine A plays Black in
/// the odd-numbered games. Up to `cfg.concurrency` games run at once, each with its own
/// pair of engine processes, started once and kept for the next game unless they failed.
/// The match stops after `cfg.games` games (rounded up to even), when the SPRT decides (the
/// games already under way are finished and counted), or when `stop` is set (likewise).
///
/// With `cfg.out_dir`, game `n` is written as `game-NNNN.kif` there (4 digits at least);
/// the directory must be new or empty, and no file is ever overwritten.
///
/// Errors: bad settings, an opening that cannot be read, an engine that cannot be started
/// at all (no such program), an output that cannot be written. An engine that starts but
/// fails during a game only loses that game.
pub fn run_match<K: MatchVariant>(
    cfg: &MatchConfig<K>,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Summary, u64),
) -> Result<Summary, MatchError> {
    if cfg.games == 0 {
        return Err(MatchError::Config(
            "the number of games must be at least 1".into(),
        ));
    }
    if cfg.concurrency == 0 {
        return Err(MatchError::Config(
            "the concurrency must be at least 1".into(),
        ));
    }
    if cfg.max_plies == 0 {
        return Err(MatchError::Config(
            "the ply limit must be at least 1".into(),
        ));
    }
    if let Some(s) = &cfg.sprt {
        s.validate()
            .map_err(|e| MatchError::Config(e.to_string()))?;
    }
    if let Some(s) = &cfg.shard {
        if s.count == 0 || s.index >= s.count {
            return Err(MatchError::Config(format!(
                "shard {}/{}: the shard must be 0 to N-1 of N shards, N at least 1",
                s.index, s.count
            )));
        }
    }
    if let Openings::List(l) = &cfg.openings {
        if l.is_empty() {
            return Err(MatchError::Config("the list of openings is empty".into()));
        }
    }
    K::run_checked(cfg, stop, progress)
}

/// [`run_match`] with the variant's type, once the settings are checked.
pub(crate) fn run_typed<V: Variant, K: MatchVariant>(
    cfg: &MatchConfig<K>,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Summary, u64),
) -> Result<Summary, MatchError> {
    let list: Vec<Game<V>> = match &cfg.openings {
        Openings::List(lines) => lines
            .iter()
            .map(|(label, text)| {
                let game = parse_game::<V>(text).map_err(|e| MatchError::Opening {
                    label: label.clone(),
                    message: e.to_string(),
                })?;
                if let Some(o) = game.outcome() {
                    return Err(MatchError::Opening {
                        label: label.clone(),
                        message: format!("the game is already over ({o})"),
                    });
                }
                Ok(game)
            })
            .collect::<Result<_, _>>()?,
        Openings::Random { .. } => Vec::new(),
    };
    if let Some(dir) = &cfg.out_dir {
        prepare_out(dir)?;
    }
    let games = cfg.games.div_ceil(2) * 2;
    // At a fixed number of nodes a repeated opening replays its games move for move: they
    // would add no information, only weight (an SPRT would count them as new pairs). So
    // such a match ends when the list of openings is used up.
    let all_pairs = u32::try_from(list.len())
        .unwrap_or(u32::MAX)
        .saturating_mul(2);
    let used_up =
        matches!(cfg.time, TimeControl::Nodes(_)) && !list.is_empty() && games > all_pairs;
    let games = if used_up { all_pairs } else { games };
    let halt = AtomicBool::new(false);
    let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
    let mut summary = Summary::new(V::NAME, names[0], names[1], cfg.sprt);
    // The games to play, in order: all of them, or this shard's pairs not yet in its file.
    let mut writer = None;
    let order: Vec<u32> = match &cfg.shard {
        None => (0..games).collect(),
        Some(shard) => {
            let (w, done) = ShardWriter::open(cfg, shard)?;
            writer = Some(w);
            let done_pairs: Vec<u32> = done.iter().map(|(p, _)| *p).collect();
            summary.add_all(done.into_iter().flat_map(|(_, g)| g).collect());
            (0..games)
                .filter(|g| shard.plays(g / 2) && !done_pairs.contains(&(g / 2)))
                .collect()
        }
    };
    let planned = u64::from(games).min(order.len() as u64 + summary.games);
    // With shards and an SPRT, the decision is the combined one of every shard's results
    // file; it is looked at before each pair starts, and a pair once started is finished.
    let combined = |writer: &Option<ShardWriter>| -> Result<bool, MatchError> {
        match (writer, &cfg.shard, cfg.sprt) {
            (Some(w), Some(shard), Some(_)) => {
                Ok(w.combined_decision(&shard.results)? != SprtDecision::Undecided)
            }
            _ => Ok(false),
        }
    };
    let mut failure = None;
    let mut decided_elsewhere = combined(&writer)?;
    if decided_elsewhere {
        summary.stopped_early = Some("the SPRT of all shards decided".into());
    }
    let workers = if decided_elsewhere {
        0
    } else {
        cfg.concurrency.min(order.len())
    };
    let (tx, rx) = channel::<Result<GameReport, MatchError>>();
    // This thread hands out the game numbers, one for each result it has counted, so no
    // more than `workers` games are ever under way or waiting: when the SPRT decides, at
    // most `workers - 1` games are still being played, however fast the engines are.
    let (job_tx, job_rx) = channel::<u32>();
    let job_rx = Mutex::new(job_rx);
    // One game for each worker to start with (`workers <= order.len()`). The receiver
    // lives until this function returns: these sends cannot fail.
    let mut next = workers;
    for &g in &order[..next] {
        let _ = job_tx.send(g);
    }
    let mut job_tx = Some(job_tx);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (halt, list, job_rx) = (&halt, &list, &job_rx);
            scope.spawn(move || {
                let mut a = Seat {
                    spec: &cfg.engines[0],
                    engine: None,
                };
                let mut b = Seat {
                    spec: &cfg.engines[1],
                    engine: None,
                };
                loop {
                    if halt.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let g = match job_rx.lock().map(|jobs| jobs.recv()) {
                        Ok(Ok(g)) => g,
                        _ => break,
                    };
                    if halt.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let result = one_game::<V, K>(cfg, list, g, &mut a, &mut b);
                    let failed = result.is_err();
                    if tx.send(result).is_err() || failed {
                        halt.store(true, Ordering::Relaxed);
                        break;
                    }
                }
                for seat in [a, b] {
                    if let Some(e) = seat.engine {
                        e.quit(Duration::from_millis(300));
                    }
                }
            });
        }
        drop(tx);
        loop {
            let result = match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(result) => result,
                Err(RecvTimeoutError::Timeout) => {
                    // A worker that saw `stop` leaves without a result: close the queue so
                    // that none waits for a game that will never be handed out.
                    if stop.load(Ordering::Relaxed) {
                        job_tx = None;
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            };
            match result {
                Ok(report) => {
                    if let Some(w) = &mut writer {
                        if let Err(e) = w.add(&report) {
                            halt.store(true, Ordering::Relaxed);
                            failure.get_or_insert(e);
                        }
                    }
                    summary.add(report);
                    let decided = summary
                        .sprt
                        .as_ref()
                        .is_some_and(|s| s.decision != SprtDecision::Undecided);
                    if decided && summary.stopped_early.is_none() && cfg.shard.is_none() {
                        summary.stopped_early = Some("the SPRT decided".into());
                        halt.store(true, Ordering::Relaxed);
                    }
                    progress(&summary, planned);
                }
                Err(e) => {
                    halt.store(true, Ordering::Relaxed);
                    failure.get_or_insert(e);
                }
            }
            // The next game, or no more: closing the queue lets the idle workers finish.
            let mut close = halt.load(Ordering::Relaxed)
                || stop.load(Ordering::Relaxed)
                || next >= order.len()
                || decided_elsewhere && order[next] % 2 == 0;
            if !close && order[next] % 2 == 0 {
                match combined(&writer) {
                    Ok(true) => {
                        decided_elsewhere = true;
                        summary.stopped_early = Some("the SPRT of all shards decided".into());
                        close = true;
                    }
                    Ok(false) => {}
                    Err(e) => {
                        halt.store(true, Ordering::Relaxed);
                        failure.get_or_insert(e);
                        close = true;
                    }
                }
            }
            if close {
                job_tx = None;
            } else if let Some(jobs) = &job_tx {
                let _ = jobs.send(order[next]);
                next += 1;
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    if summary.stopped_early.is_none() && stop.load(Ordering::Relaxed) && summary.games < planned {
        summary.stopped_early = Some("interrupted".into());
    }
    if used_up && summary.stopped_early.is_none() && summary.games == u64::from(games) {
        summary.stopped_early = Some(format!(
            "the openings are used up ({} openings, {games} games; at fixed nodes a \
             repeated opening replays its games)",
            list.len()
        ));
    }
    Ok(summary)
}

/// Plays game number `g` (from 0) and writes its record.
fn one_game<'s, V: Variant, K: MatchVariant>(
    cfg: &MatchConfig<K>,
    list: &[Game<V>],
    g: u32,
    a: &mut Seat<'s>,
    b: &mut Seat<'s>,
) -> Result<GameReport, MatchError> {
    let (label, start) = opening::<V>(&cfg.openings, list, g / 2)?;
    let a_black = g % 2 == 0;
    let seats = if a_black { [a, b] } else { [b, a] };
    let names = [seats[0].spec.name.clone(), seats[1].spec.name.clone()];
    let (ending, record) = play_game::<V, K>(&start, seats, cfg)?;
    let a_color = if a_black { Color::Black } else { Color::White };
    let result = match ending.winner() {
        None => "draw",
        Some(c) if c == a_color => "win",
        Some(_) => "loss",
    };
    let fault_by = match &ending {
        Ending::Fault { loser, .. } => names[loser.index()].clone(),
        _ => String::new(),
    };
    let mut file = None;
    if let Some(dir) = &cfg.out_dir {
        let path: PathBuf = dir.join(format!("game-{:04}.kif", g + 1));
        write_new(&path, &to_kif(&record))?;
        file = Some(path.display().to_string());
    }
    Ok(GameReport {
        game: g + 1,
        opening: label,
        a_color: if a_black { "black" } else { "white" },
        result,
        reason: ending.reason(),
        detail: ending.detail().to_string(),
        fault_by,
        plies: record.moves().len(),
        file,
    })
}
