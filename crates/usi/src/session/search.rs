//! `go`: the job it asks for (a search, `go mate`, `go perft`), run on a thread of its own
//! beside the reading loop (or on the reading thread in the bounded mode), with `stop`,
//! `ponderhit` and the clock's watchdog. What is searched and played is the analysis
//! service's; this module starts, times and stops the calls and writes their answers.

use super::{
    send, send_error, send_message, AnalyzerFor, Out, Running, SearchMode, Session, Settings,
};
use crate::time_manager;
use crate::writing::{
    bestmove, fallback_answer, game_over_answer, game_over_info, info_line, info_string,
    perft_text, Writing,
};
use kshogi_analysis::job::{self, Job, Question};
use kshogi_analysis::{solve_mate, Databases, MateAnswer};
use kshogi_core::Game;
use kshogi_engine::Info;
use kshogi_registry::Registered;
use kshogi_usi_protocol::{BestMove, Checkmate, EngineMessage, Go, MateTime};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// A search running on its own thread.
pub(super) struct SearchThread<V: Registered> {
    stop: Arc<AtomicBool>,
    /// Set by `ponderhit`: the ponder search may answer.
    hit: Arc<AtomicBool>,
    /// `go ponder`: the time allotted, counted from `ponderhit`.
    ponder: Option<Option<Duration>>,
    /// The watchdog started at `ponderhit`.
    dog: Option<Watchdog>,
    handle: JoinHandle<AnalyzerFor<V>>,
    /// The answer to print if the thread dies without answering (a bug), so that every
    /// `go` still gets one answer.
    last_resort: String,
}

impl<'o, V: Registered> Session<'o, V> {
    /// `go ...`: starts the search thread (after finishing the previous search, so that
    /// every `go` gets its own answer); in the bounded mode, runs the search. `go perft`
    /// counts at once.
    pub(super) fn go(&mut self, params: &Go, settings: &Settings) {
        self.finish_search();
        let Some(game) = self.game.clone() else {
            if params.perft.is_some() {
                self.error("no position to count: the last `position` was rejected");
                return;
            }
            self.error("no position: the last `position` was rejected");
            send_message(
                self.out,
                &if params.mate.is_some() {
                    EngineMessage::Checkmate(Checkmate::NoMate)
                } else {
                    bestmove(BestMove::Resign)
                },
            );
            return;
        };
        let job = job_for(params, &game, settings);
        let hash_mb = settings.table_mb();
        let mut analyzer = self
            .analyzer
            .take()
            .unwrap_or_else(|| new_analyzer::<V>(hash_mb, settings.search_threads()));
        analyzer.set_skill(settings.skill());
        // The option's range is the parameter's (a test checks it): never refused.
        let set = analyzer.set_contempt(settings.contempt());
        debug_assert!(set.is_ok(), "{set:?}");
        let hold = job.held();
        let ponder = match &job {
            Job::Search { ponder, .. } => *ponder,
            Job::Mate { .. } | Job::Perft { .. } => None,
        };
        let ctx = JobContext {
            out: Arc::clone(self.out),
            hash_mb,
            threads: settings.search_threads(),
            writing: settings.writing(),
            ponder_move: settings.ponder,
            show_wdl: settings.show_wdl,
            databases: settings.databases.clone(),
        };
        if let SearchMode::Bounded(_) = settings.mode {
            let never = Arc::new(AtomicBool::new(false));
            let answer = run_job(&mut analyzer, &game, &job, &never, &ctx);
            self.analyzer = Some(analyzer);
            if hold {
                self.running = Some(Running::Held(answer, ponder.is_some()));
            } else {
                send(self.out, &answer);
            }
            return;
        }
        let last_resort = match job {
            Job::Mate { .. } => EngineMessage::Checkmate(Checkmate::Timeout).to_string(),
            Job::Perft { .. } => info_string("error: go perft failed".to_string()).to_string(),
            Job::Search { .. } => bestmove(fallback_answer(&game, ctx.writing)).to_string(),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let hit = Arc::new(AtomicBool::new(false));
        let (flag, hit_flag) = (Arc::clone(&stop), Arc::clone(&hit));
        let ponder_time = ponder;
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let answer = run_job(&mut analyzer, &game, &job, &flag, &ctx);
                if hold {
                    let pondering = ponder.is_some();
                    let released = || {
                        flag.load(Ordering::SeqCst)
                            || (pondering && hit_flag.load(Ordering::SeqCst))
                    };
                    while !released() {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                }
                send(&ctx.out, &answer);
                analyzer
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running::Thread(SearchThread {
                    stop,
                    hit,
                    ponder: ponder_time,
                    dog: None,
                    handle,
                    last_resort,
                }))
            }
            Err(e) => {
                self.error(&format!("cannot start the search: {e}"));
                send(self.out, &last_resort);
            }
        }
    }

    /// `ponderhit`: the move pondered on was played. A ponder search now runs on the time
    /// allotted by its `go` (from now on) and answers when it ends; in the bounded mode the
    /// held answer is printed. Anything else: nothing to do.
    pub(super) fn ponderhit(&mut self) {
        match &mut self.running {
            Some(Running::Held(_, true)) => self.finish_search(),
            Some(Running::Thread(t)) if t.ponder.is_some() => {
                if let Some(Some(time)) = t.ponder.take() {
                    t.dog = Some(Watchdog::start(time, Arc::clone(&t.stop)));
                }
                t.hit.store(true, Ordering::SeqCst);
            }
            _ => {}
        }
    }

    /// Stops the running search, if any, and waits for it (it prints its answer); in the
    /// bounded mode, prints the answer held back.
    pub(super) fn finish_search(&mut self) {
        match self.running.take() {
            None => {}
            Some(Running::Held(answer, _)) => send(self.out, &answer),
            Some(Running::Thread(r)) => {
                r.stop.store(true, Ordering::SeqCst);
                // The thread catches the engine's panics and returns its engine. If it died
                // all the same, it has not answered: answer for it; a new engine is made on
                // the next `go`.
                self.analyzer = r.handle.join().ok();
                if self.analyzer.is_none() {
                    send(self.out, &r.last_resort);
                }
            }
        }
    }
}

/// The job a `go` asks for: its words and the time the clock of the side to move allots,
/// planned by the analysis service (in the bounded mode: within the budget).
pub(super) fn job_for<V: Registered>(params: &Go, game: &Game<V>, settings: &Settings) -> Job {
    let budget = match settings.mode {
        SearchMode::Threaded => None,
        SearchMode::Bounded(b) => Some(job::Budget {
            nodes: b.nodes,
            depth: b.depth,
        }),
    };
    let side = game.position().side_to_move();
    let question = Question {
        depth: params.depth,
        nodes: params.nodes,
        infinite: params.infinite,
        ponder: params.ponder,
        mate: params.mate.map(|m| match m {
            MateTime::Infinite => None,
            MateTime::Millis(ms) => Some(Duration::from_millis(ms.min(time_manager::MAX_THINK_MS))),
        }),
        perft: params.perft,
        time: time_manager::allocate(&params.clock, side, settings.overhead_ms),
    };
    job::plan(&question, settings.multipv, budget)
}

/// Raises a stop flag after a time, unless dropped first.
pub(super) struct Watchdog {
    _cancel: mpsc::Sender<()>,
}

impl Watchdog {
    fn start(after: Duration, stop: Arc<AtomicBool>) -> Watchdog {
        let (tx, rx) = mpsc::channel::<()>();
        let _ = std::thread::Builder::new()
            .name("watchdog".into())
            .spawn(move || {
                if let Err(RecvTimeoutError::Timeout) = rx.recv_timeout(after) {
                    stop.store(true, Ordering::SeqCst);
                }
            });
        Watchdog { _cancel: tx }
    }
}

/// What the search thread needs besides the game and the job.
struct JobContext {
    out: Out,
    hash_mb: usize,
    /// Search threads.
    threads: usize,
    writing: Writing,
    /// `USI_Ponder`: name the move to ponder on.
    ponder_move: bool,
    /// `UCI_ShowWDL`: `info` lines show the win/draw/loss chances.
    show_wdl: bool,
    databases: Databases,
}

/// An analyzer with a table of `hash_mb` MiB and `threads` search threads.
pub(super) fn new_analyzer<V: Registered>(hash_mb: usize, threads: usize) -> AnalyzerFor<V> {
    let mut a = AnalyzerFor::<V>::new(hash_mb);
    a.set_threads(threads);
    a
}

/// The body of the search thread: runs the job, printing its `info` lines, and returns its
/// answer (`bestmove ...` or `checkmate ...`).
fn run_job<V: Registered>(
    analyzer: &mut AnalyzerFor<V>,
    game: &Game<V>,
    job: &Job,
    stop: &Arc<AtomicBool>,
    ctx: &JobContext,
) -> String {
    let (out, writing) = (&ctx.out, ctx.writing);
    match job {
        Job::Perft { depth } => {
            // As many threads as the search runs (at most the machine's hardware threads).
            perft_text(game.position(), *depth, writing, analyzer.threads(), stop)
        }
        Job::Mate { time, max_nodes } => {
            let _dog = time.map(|t| Watchdog::start(t, Arc::clone(stop)));
            let answer = match solve_mate::<V, V::Eval>(game, *max_nodes, stop) {
                MateAnswer::Mate(pv) => Checkmate::Mate(writing.line(game.position(), &pv)),
                MateAnswer::NoMate => Checkmate::NoMate,
                MateAnswer::Unknown => Checkmate::Timeout,
            };
            EngineMessage::Checkmate(answer).to_string()
        }
        Job::Search {
            request, infinite, ..
        } => {
            let dog = match (request.limits.time, infinite) {
                (Some(t), false) => Some(Watchdog::start(t, Arc::clone(stop))),
                _ => None,
            };
            if let Some(line) = game_over_info(game) {
                send_message(out, &line);
            }
            let answer = match game_over_answer(game, writing) {
                Some(a) => bestmove(a),
                None => {
                    let pos = game.position();
                    let mut on_info = |info: &Info, _| {
                        send_message(out, &info_line(pos, info, writing, ctx.show_wdl))
                    };
                    let db = ctx.databases.for_variant::<V>();
                    let played = analyzer.play(game, request, db, stop, &mut on_info, &mut |e| {
                        send_error(
                            out,
                            &format!("the database cannot be used ({e}); searching"),
                        )
                    });
                    if played.failed {
                        *analyzer = new_analyzer::<V>(ctx.hash_mb, ctx.threads);
                        send_error(out, "the search failed; playing a legal move");
                    }
                    match played.best {
                        Some(mv) => EngineMessage::BestMove {
                            best: BestMove::Move(writing.mv(pos, mv)),
                            ponder: played
                                .ponder
                                .filter(|_| ctx.ponder_move)
                                .map(|r| writing.mv(&pos.after(mv), r)),
                        },
                        None => bestmove(BestMove::Resign),
                    }
                }
            };
            drop(dog);
            answer.to_string()
        }
    }
}
