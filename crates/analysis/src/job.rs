//! What an engine's "think about this position" command asks the service to do: a search
//! with its limits and how it answers (at once, after a stop, or after the move pondered on
//! is played), a mate search or a perft count. A front end reads the command's words into
//! a [`Question`] (and the clock into an [`Allotment`]); [`plan`] decides the [`Job`], so
//! that every front end limits its searches in the same way.

use crate::Request;
use kshogi_engine::Limits;
use std::time::Duration;

/// The mate solver's node budget beside a search (at most N when the question names a node
/// limit N; with a [`Budget`]: the budget's nodes).
pub const MATE_NODES: u64 = 100_000;

/// The time allotted to one move by the clock: the search stops at [`Allotment::hard`] at
/// the latest, and starts no new iteration after [`Allotment::soft`] (`None`: it may deepen
/// until `hard`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allotment {
    /// The optimum: an iteration that ends after it is the last one.
    pub soft: Option<Duration>,
    /// The limit: the search stops when it is spent, inside an iteration if need be.
    pub hard: Duration,
    /// The think time for a search that can only stop at a limit, not between iterations
    /// (a ponder search after the move pondered on is played): between `soft` and `hard`.
    pub target: Duration,
}

/// The most one job may do, whatever the question asks: what makes a session cheap and
/// dependent on its input alone (fuzzing, tests). Time limits are dropped under a budget.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Node budget of every search (a smaller node limit still applies) and of the mate
    /// solver.
    pub nodes: u64,
    /// Deepest iteration of every search (a smaller depth still applies), and the deepest
    /// perft count (at least 1).
    pub depth: u32,
}

/// What the command asks, read from its words; no field is required.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Question {
    /// The deepest iteration.
    pub depth: Option<u32>,
    /// The most nodes.
    pub nodes: Option<u64>,
    /// Search until stopped (and answer only then).
    pub infinite: bool,
    /// Search on the opponent's time: answer after a stop, or after the move pondered on
    /// is played, the clock's time then counting from that moment.
    pub ponder: bool,
    /// A mate search instead of a search: `Some(None)` without a time limit, `Some(Some(t))`
    /// within `t`.
    pub mate: Option<Option<Duration>>,
    /// A perft count of this many plies instead of a search.
    pub perft: Option<u32>,
    /// The time the clock allots to the move, if the command gave a clock.
    pub time: Option<Allotment>,
}

/// What the service does for a [`Question`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Job {
    /// Analyse ([`crate::Analyzer::analyse`]) and answer with the move to play.
    Search {
        /// The limits, lines and mate budget.
        request: Request,
        /// Answer only after a stop.
        infinite: bool,
        /// Ponder: answer only after a stop or once the move pondered on is played, with
        /// the time to think from then on (`Some(None)`: no time limit).
        ponder: Option<Option<Duration>>,
    },
    /// Count the leaves of the legal-move tree, until stopped.
    Perft {
        /// Plies.
        depth: u32,
    },
    /// Run the mate solver ([`crate::solve_mate`]) and answer with its result.
    Mate {
        /// The time limit, if any.
        time: Option<Duration>,
        /// The solver's node budget.
        max_nodes: u64,
    },
}

impl Job {
    /// Whether the answer waits for a stop (an infinite search) or for a stop or the move
    /// pondered on (a ponder search), rather than coming when the job ends.
    pub fn held(&self) -> bool {
        match self {
            Job::Search {
                infinite, ponder, ..
            } => *infinite || ponder.is_some(),
            Job::Perft { .. } | Job::Mate { .. } => false,
        }
    }
}

/// The job `question` asks for, with `multipv` lines, within `budget` if there is one.
///
/// - A perft count has the depth asked (at most the budget's depth, and at least 1 then).
/// - A mate search has the time asked and no node limit; under a budget no time and the
///   budget's nodes.
/// - A search has the depth and nodes asked and the clock's hard and soft time; a ponder
///   search (not an infinite one) has no time limit until the move pondered on is played,
///   and then the clock's target. Under a budget: the budget's depth and nodes (or smaller
///   ones asked), no time. The mate solver beside it gets [`MATE_NODES`], at most the node
///   limit asked (so that the whole move, which waits for the solver, is bounded by it);
///   under a budget the budget's nodes.
pub fn plan(question: &Question, multipv: usize, budget: Option<Budget>) -> Job {
    if let Some(depth) = question.perft {
        return Job::Perft {
            depth: budget.map_or(depth, |b| depth.min(b.depth.max(1))),
        };
    }
    if let Some(time) = question.mate {
        return match budget {
            None => Job::Mate {
                time,
                max_nodes: u64::MAX,
            },
            Some(b) => Job::Mate {
                time: None,
                max_nodes: b.nodes,
            },
        };
    }
    let time = question.time;
    // Pondering searches without a time limit until the move pondered on starts the clock,
    // which then stops it at the target (it cannot stop between iterations).
    let ponder = (question.ponder && !question.infinite).then_some(time.map(|t| t.target));
    let limits = match budget {
        None => Limits {
            depth: question.depth,
            nodes: question.nodes,
            time: time.filter(|_| ponder.is_none()).map(|t| t.hard),
            soft_time: time.filter(|_| ponder.is_none()).and_then(|t| t.soft),
            mate: None,
            infinite: question.infinite,
        },
        Some(b) => Limits {
            depth: Some(question.depth.map_or(b.depth, |d| d.min(b.depth))),
            nodes: Some(question.nodes.map_or(b.nodes, |n| n.min(b.nodes))),
            time: None,
            soft_time: None,
            mate: None,
            infinite: false,
        },
    };
    Job::Search {
        request: Request {
            limits,
            multipv,
            mate_nodes: budget.map_or(
                question.nodes.map_or(MATE_NODES, |n| n.min(MATE_NODES)),
                |b| b.nodes,
            ),
        },
        infinite: question.infinite,
        ponder,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    const CLOCK: Allotment = Allotment {
        soft: Some(Duration::from_millis(600)),
        hard: Duration::from_millis(3000),
        target: Duration::from_millis(1000),
    };

    const BUDGET: Budget = Budget {
        nodes: 64,
        depth: 2,
    };

    fn search(job: Job) -> (Request, bool, Option<Option<Duration>>) {
        match job {
            Job::Search {
                request,
                infinite,
                ponder,
            } => (request, infinite, ponder),
            other => panic!("a search, not {other:?}"),
        }
    }

    #[test]
    fn a_clock_gives_hard_and_soft_time_and_the_solver_its_default() {
        let q = Question {
            time: Some(CLOCK),
            ..Question::default()
        };
        let (request, infinite, ponder) = search(plan(&q, 3, None));
        assert_eq!(request.limits.time, Some(MS(3000)));
        assert_eq!(request.limits.soft_time, Some(MS(600)));
        assert_eq!((request.limits.depth, request.limits.nodes), (None, None));
        assert!(!request.limits.infinite);
        assert_eq!(request.multipv, 3);
        assert_eq!(request.mate_nodes, 100_000);
        assert_eq!((infinite, ponder), (false, None));
    }

    #[test]
    fn a_node_limit_bounds_the_solver_too() {
        let q = |nodes| Question {
            nodes: Some(nodes),
            depth: Some(7),
            ..Question::default()
        };
        let (request, _, _) = search(plan(&q(500), 1, None));
        assert_eq!(request.limits.nodes, Some(500));
        assert_eq!(request.limits.depth, Some(7));
        assert_eq!(request.mate_nodes, 500);
        let (request, _, _) = search(plan(&q(1_000_000), 1, None));
        assert_eq!(request.mate_nodes, 100_000);
    }

    #[test]
    fn pondering_has_no_time_until_the_hit_then_the_target() {
        let q = Question {
            ponder: true,
            time: Some(CLOCK),
            ..Question::default()
        };
        let job = plan(&q, 1, None);
        assert!(job.held());
        let (request, infinite, ponder) = search(job);
        assert_eq!(
            (request.limits.time, request.limits.soft_time),
            (None, None)
        );
        assert!(!infinite);
        assert_eq!(ponder, Some(Some(MS(1000))));
        // Without a clock: no limit after the hit either.
        let q = Question {
            ponder: true,
            ..Question::default()
        };
        assert_eq!(search(plan(&q, 1, None)).2, Some(None));
        // `infinite` wins over `ponder`: answered after a stop only.
        let q = Question {
            ponder: true,
            infinite: true,
            time: Some(CLOCK),
            ..Question::default()
        };
        let job = plan(&q, 1, None);
        assert!(job.held());
        let (request, infinite, ponder) = search(job);
        assert!(infinite && request.limits.infinite);
        assert_eq!(ponder, None);
        assert_eq!(request.limits.time, Some(MS(3000)));
    }

    #[test]
    fn a_budget_replaces_time_with_its_depth_and_nodes() {
        let q = Question {
            infinite: true,
            time: Some(CLOCK),
            depth: Some(9),
            ..Question::default()
        };
        let (request, infinite, _) = search(plan(&q, 1, Some(BUDGET)));
        assert_eq!(request.limits.depth, Some(2));
        assert_eq!(request.limits.nodes, Some(64));
        assert_eq!(
            (request.limits.time, request.limits.soft_time),
            (None, None)
        );
        assert!(!request.limits.infinite);
        assert!(infinite, "the answer is still held until the stop");
        assert_eq!(request.mate_nodes, 64);
        // Smaller limits asked still apply.
        let q = Question {
            depth: Some(1),
            nodes: Some(10),
            ..Question::default()
        };
        let (request, _, _) = search(plan(&q, 1, Some(BUDGET)));
        assert_eq!(
            (request.limits.depth, request.limits.nodes),
            (Some(1), Some(10))
        );
    }

    #[test]
    fn mate_and_perft_are_their_own_jobs() {
        let mate = Question {
            mate: Some(Some(MS(250))),
            nodes: Some(5),
            ..Question::default()
        };
        let job = plan(&mate, 1, None);
        assert!(!job.held());
        assert_eq!(
            job,
            Job::Mate {
                time: Some(MS(250)),
                max_nodes: u64::MAX
            }
        );
        assert_eq!(
            plan(&mate, 1, Some(BUDGET)),
            Job::Mate {
                time: None,
                max_nodes: 64
            }
        );
        let perft = |depth| Question {
            perft: Some(depth),
            mate: Some(None),
            ..Question::default()
        };
        assert_eq!(plan(&perft(5), 1, None), Job::Perft { depth: 5 });
        assert_eq!(plan(&perft(5), 1, Some(BUDGET)), Job::Perft { depth: 2 });
        let flat = Budget { depth: 0, ..BUDGET };
        assert_eq!(plan(&perft(5), 1, Some(flat)), Job::Perft { depth: 1 });
        assert_eq!(plan(&perft(0), 1, Some(BUDGET)), Job::Perft { depth: 0 });
    }
}
