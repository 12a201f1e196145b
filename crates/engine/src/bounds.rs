//! The search's score and ply bounds, shared by the search, its transposition table and its
//! move ordering (kept apart so that none of those files imports another in a circle).

/// Deepest ply a search path may reach (quiescence included).
pub(crate) const MAX_PLY: usize = 128;
/// The score of a win at the root itself; a win at ply `p` scores `MATE - p`.
pub(crate) const MATE: i32 = 31_000;
/// Scores at least this large (in absolute value) are mate scores.
pub(crate) const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than every score.
pub(crate) const INF: i32 = 32_000;
