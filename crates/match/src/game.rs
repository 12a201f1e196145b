//! One game between two started (or startable) engines, refereed by kshogi's rules, and
//! its KIF record.

use crate::play::{go, start};
use crate::{EngineSpec, MatchConfig, MatchError, MatchVariant, TimeControl, NODES_MOVE_TIME};
use kshogi_core::{Color, DrawReason, Game, GameError, Outcome, Variant, WinReason};
use kshogi_notation::kif::{summary_line, KifEnd, KifHeaderLine, KifRecord, KifSpecial, KifTime};
use kshogi_notation::{move_to_usi_in, parse_usi, to_sfen_in, Dialect};
use kshogi_usi_client::protocol::{BestMove, Clock, Go, GuiMessage};
use kshogi_usi_client::{deadline_in, Engine, EngineError};
use std::time::Duration;

/// One side of the board: an engine's settings and its process, if running.
pub(crate) struct Seat<'a> {
    pub spec: &'a EngineSpec,
    pub engine: Option<Engine>,
}

/// How an engine failed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// No `bestmove` before its time (plus the margin) ran out.
    Time,
    /// Its output ended (it exited or was killed).
    Crash,
    /// It printed something the protocol does not allow.
    Garbage,
    /// Its move does not parse or is not legal.
    Illegal,
    /// `bestmove resign`.
    Resign,
    /// It failed its handshake (`usiok`, `readyok`) before the game.
    Start,
}

impl Fault {
    fn key(self) -> &'static str {
        match self {
            Fault::Time => "time forfeit",
            Fault::Crash => "engine crash",
            Fault::Garbage => "protocol error",
            Fault::Illegal => "illegal move",
            Fault::Resign => "resignation",
            Fault::Start => "start failure",
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// By the rules.
    Rules(Outcome),
    /// The ply limit: a draw by adjudication.
    MaxPlies,
    /// An engine's failure: it loses.
    Fault {
        loser: Color,
        fault: Fault,
        detail: String,
    },
}

impl Ending {
    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Ending::Rules(o) => o.winner(),
            Ending::MaxPlies => None,
            Ending::Fault { loser, .. } => Some(!*loser),
        }
    }

    /// The reason for people and the summary's counts (`checkmate`, `repetition`).
    pub fn reason(&self) -> String {
        match self {
            Ending::Rules(Outcome::Win { reason, .. }) => match reason {
                WinReason::Checkmate => "checkmate",
                WinReason::Stalemate => "stalemate (win)",
                WinReason::KingEntry => "king entry",
                WinReason::BareKing => "bare king",
                WinReason::PerpetualCheck => "perpetual check",
                WinReason::RoyalCaptured => "king captured",
                WinReason::Try => "try",
                WinReason::Repetition => "repetition (win)",
            }
            .to_string(),
            Ending::Rules(Outcome::Draw { reason }) => match reason {
                DrawReason::Stalemate => "stalemate (draw)",
                DrawReason::Repetition => "repetition",
                DrawReason::BothTries => "both tries",
            }
            .to_string(),
            Ending::MaxPlies => "ply limit (adjudicated draw)".to_string(),
            Ending::Fault { fault, .. } => fault.key().to_string(),
        }
    }

    /// The detail of a fault, empty otherwise.
    pub fn detail(&self) -> &str {
        match self {
            Ending::Fault { detail, .. } => detail,
            _ => "",
        }
    }
}

/// The fault of an engine error.
fn fault_of(e: &EngineError) -> Fault {
    match e {
        EngineError::Timeout { .. } => Fault::Time,
        EngineError::Garbage { .. } => Fault::Garbage,
        _ => Fault::Crash,
    }
}

/// The engine of `seat`, started if it is not running. An error that says the engine cannot
/// be started at all (no such program, an option it does not declare or a value it refuses)
/// stops the match; a failed handshake loses the game.
fn ready<'s, K: MatchVariant>(
    seat: &'s mut Seat<'_>,
    cfg: &MatchConfig<K>,
) -> Result<Result<&'s mut Engine, EngineError>, MatchError> {
    if seat.engine.is_none() {
        match start(seat.spec, cfg.variant.name(), cfg.handshake_timeout) {
            Ok(e) => seat.engine = Some(e),
            Err(
                e @ (EngineError::Spawn { .. }
                | EngineError::BadCommand(_)
                | EngineError::Option(_)),
            ) => {
                return Err(MatchError::Engine {
                    name: seat.spec.name.clone(),
                    message: e.to_string(),
                })
            }
            Err(e) => return Ok(Err(e)),
        }
    }
    let engine = seat.engine.as_mut().expect("started above");
    let synced = engine
        .send_message(&GuiMessage::UsiNewGame)
        .and_then(|()| engine.is_ready());
    match synced {
        Ok(()) => Ok(Ok(seat.engine.as_mut().expect("started above"))),
        Err(e) => {
            seat.engine = None;
            Ok(Err(e))
        }
    }
}

/// Milliseconds of a duration, for `go`.
fn ms(d: Duration) -> u128 {
    d.as_millis()
}

/// Whole milliseconds for a `go` field (a time too long for 64 bits is the largest).
fn go_ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Plays one game from `opening` between `seats` (Black, White). The engines that fail are
/// stopped (their seat emptied), so that they start again for their next game.
pub(crate) fn play_game<V: Variant, K: MatchVariant>(
    opening: &Game<V>,
    seats: [&mut Seat<'_>; 2],
    cfg: &MatchConfig<K>,
) -> Result<(Ending, KifRecord<V>), MatchError> {
    let [black, white] = seats;
    let mut seats = [black, white];
    let mut record = KifRecord::new(*opening.start());
    for &mv in opening.moves() {
        // The opening's moves were played in a game already: they are legal.
        let _ = record.push(mv, None);
    }
    if let Some(last) = record.moves_mut().last_mut() {
        last.comments.push("*opening ends".into());
    }
    for (color, key) in [(Color::Black, "先手"), (Color::White, "後手")] {
        record.headers.push(KifHeaderLine::Field {
            key: key.into(),
            value: seats[color.index()].spec.name.clone(),
        });
    }
    record.headers.push(KifHeaderLine::Field {
        key: "棋戦".into(),
        value: "kshogi match".into(),
    });
    let ending = run(opening, &mut seats, cfg, &mut record)?;
    finish_record(&mut record, &ending);
    Ok((ending, record))
}

/// The moves of the game so far in each dialect, and the start in each dialect.
struct Texts {
    start: [String; 2],
    moves: [Vec<String>; 2],
}

fn dialect_slot(d: Dialect) -> usize {
    match d {
        Dialect::Canonical => 0,
        // Pychess is an output form of the command line, never an engine's dialect
        // (`Dialect::ALL`); its letters are Fsf's.
        Dialect::Fsf | Dialect::Pychess => 1,
    }
}

fn run<V: Variant, K: MatchVariant>(
    opening: &Game<V>,
    seats: &mut [&mut Seat<'_>; 2],
    cfg: &MatchConfig<K>,
    record: &mut KifRecord<V>,
) -> Result<Ending, MatchError> {
    for color in Color::ALL {
        if let Err(e) = ready(seats[color.index()], cfg)? {
            return Ok(Ending::Fault {
                loser: color,
                fault: Fault::Start,
                detail: e.to_string(),
            });
        }
    }
    let mut game = opening.clone();
    let mut texts = Texts {
        start: Dialect::ALL.map(|d| to_sfen_in(game.start(), d)),
        moves: [Vec::new(), Vec::new()],
    };
    let mut replay = *game.start();
    for &mv in game.moves() {
        for d in Dialect::ALL {
            texts.moves[dialect_slot(d)].push(move_to_usi_in(&replay, mv, d));
        }
        replay.make(mv);
    }
    let mut clocks = match cfg.time {
        TimeControl::Clock { base, .. } => [base, base],
        TimeControl::MoveTime(_) | TimeControl::Nodes(_) => [Duration::ZERO; 2],
    };
    let mut spent = [0u32; 2];
    loop {
        if let Some(o) = game.outcome() {
            return Ok(Ending::Rules(o));
        }
        if game.moves().len() >= cfg.max_plies as usize {
            return Ok(Ending::MaxPlies);
        }
        let pos = *game.position();
        let side = pos.side_to_move();
        let (limits, allowed) = match cfg.time {
            TimeControl::MoveTime(t) => (
                Go {
                    clock: Clock {
                        movetime: Some(go_ms(t)),
                        ..Clock::default()
                    },
                    ..Go::default()
                },
                t,
            ),
            TimeControl::Nodes(n) => (
                Go {
                    nodes: Some(n),
                    ..Go::default()
                },
                NODES_MOVE_TIME,
            ),
            TimeControl::Clock {
                increment, byoyomi, ..
            } => {
                let (b, w) = (go_ms(clocks[0]), go_ms(clocks[1]));
                let mut clock = Clock {
                    btime: Some(b),
                    wtime: Some(w),
                    ..Clock::default()
                };
                if byoyomi > Duration::ZERO {
                    clock.byoyomi = Some(go_ms(byoyomi));
                } else {
                    let i = go_ms(increment);
                    (clock.binc, clock.winc) = (Some(i), Some(i));
                }
                (
                    Go {
                        clock,
                        ..Go::default()
                    },
                    clocks[side.index()].saturating_add(byoyomi),
                )
            }
        };
        let seat = &mut *seats[side.index()];
        let slot = dialect_slot(seat.spec.dialect);
        let Some(engine) = seat.engine.as_mut() else {
            unreachable!("both engines were started before the first move")
        };
        let answer = engine
            .position(&texts.start[slot], &texts.moves[slot])
            .and_then(|()| {
                go(
                    engine,
                    &limits,
                    deadline_in(allowed.saturating_add(cfg.margin)),
                )
            });
        let answer = match answer {
            Ok(a) => a,
            Err(e) => {
                seat.engine = None;
                return Ok(Ending::Fault {
                    loser: side,
                    fault: fault_of(&e),
                    detail: e.to_string(),
                });
            }
        };
        if answer.elapsed > allowed.saturating_add(cfg.margin) {
            seat.engine = None;
            return Ok(Ending::Fault {
                loser: side,
                fault: Fault::Time,
                detail: format!(
                    "bestmove after {} ms, {} ms allowed",
                    answer.elapsed.as_millis(),
                    ms(allowed)
                ),
            });
        }
        if answer.best == BestMove::Resign {
            return Ok(Ending::Fault {
                loser: side,
                fault: Fault::Resign,
                detail: "bestmove resign".into(),
            });
        }
        let best = answer.best.to_string();
        let mv = match parse_usi::<V>(&pos, &best) {
            Ok(mv) => mv,
            Err(e) => {
                // The engine may believe in another position: start it afresh.
                seat.engine = None;
                return Ok(Ending::Fault {
                    loser: side,
                    fault: Fault::Illegal,
                    detail: format!("`{best}`: {e}"),
                });
            }
        };
        match game.play(mv) {
            Ok(()) => {}
            Err(GameError::PlyLimit) => return Ok(Ending::MaxPlies),
            Err(e) => {
                seat.engine = None;
                return Ok(Ending::Fault {
                    loser: side,
                    fault: Fault::Illegal,
                    detail: format!("`{best}`: {e}"),
                });
            }
        }
        for d in Dialect::ALL {
            texts.moves[dialect_slot(d)].push(move_to_usi_in(&pos, mv, d));
        }
        if let TimeControl::Clock { increment, .. } = cfg.time {
            let c = &mut clocks[side.index()];
            *c = c.saturating_sub(answer.elapsed).saturating_add(increment);
        }
        let secs = u32::try_from((answer.elapsed.as_millis() + 500) / 1000).unwrap_or(u32::MAX);
        spent[side.index()] = spent[side.index()].saturating_add(secs);
        // The move is legal in the record's game too: it is the same game.
        let _ = record.push(
            mv,
            Some(KifTime {
                move_seconds: secs,
                total_seconds: spent[side.index()],
            }),
        );
        if answer.score.is_some() || answer.depth.is_some() {
            let mut note = String::from("*");
            if let Some(s) = &answer.score {
                note.push_str(s);
            }
            if let Some(d) = answer.depth {
                note.push_str(&format!(" depth {d}"));
            }
            note.push_str(&format!(" {} ms", answer.elapsed.as_millis()));
            if let Some(m) = record.moves_mut().last_mut() {
                m.comments.push(note.trim().replacen("* ", "*", 1));
            }
        }
    }
}

/// Sets the special move, the result line and a comment with the reason.
fn finish_record<V: Variant>(record: &mut KifRecord<V>, ending: &Ending) {
    let last = u64::from(record.start().ply()) - 1 + record.moves().len() as u64;
    let to_move = record.position().side_to_move();
    let names = record.names;
    let special = match ending {
        Ending::Rules(Outcome::Draw {
            reason: DrawReason::Repetition,
        }) => Some(KifSpecial::Repetition),
        Ending::Fault { loser, fault, .. } if *loser == to_move => Some(match fault {
            Fault::Time => KifSpecial::TimeLoss,
            Fault::Resign => KifSpecial::Resign,
            _ => KifSpecial::IllegalLoss,
        }),
        _ => None,
    };
    record.end = special.map(|special| KifEnd {
        special,
        time: None,
        comments: Vec::new(),
    });
    record.summary = Some(match ending {
        Ending::Rules(o) => summary_line(last, *o, names),
        Ending::MaxPlies => format!("まで{last}手で引き分け"),
        Ending::Fault { loser, .. } => format!("まで{last}手で{}の勝ち", names.name(!*loser)),
    });
    let mut note = format!("*kshogi match: {}", ending.reason());
    if let Ending::Fault { loser, detail, .. } = ending {
        note.push_str(&format!(" by {}", names.name(*loser)));
        if !detail.is_empty() {
            note.push_str(&format!(": {}", detail.replace(['\n', '\r'], " ")));
        }
    }
    record.trailing_comments.push(note);
}
