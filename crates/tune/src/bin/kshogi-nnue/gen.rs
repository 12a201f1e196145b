//! Training positions from self-play: the tuner's games ([`kshogi_tune::data::play_quiet`]:
//! the engine at a fixed node budget from seeded random openings), and the quiet position
//! the quiescence search reaches from each position it moves in, kept with its teacher's
//! score of it and, once the game ends, the result. With [`Label::Search`] (`--label
//! search`) the positions are those the engine moved in that are quiet themselves, each kept
//! with the score of the search that chose the move.
//!
//! The teacher plays the games and scores the positions. By default it is the variant's
//! linear evaluation ([`LinearOf`]: the registered one, or the fallback of a registered
//! net), so that the same options give the same net whichever evaluation is registered;
//! with `--teacher FILE` it is that net, installed for the run
//! ([`crate::eval::install_teacher`]), searching through [`TeacherEval`], which makes a net's next generation from its own games
//! (the file is an input like the seed: the same file and options give the same bytes).

use crate::eval::{self, TeacherEval};
use kshogi_core::Position;
use kshogi_engine::selfplay::run_games;
use kshogi_engine::{Engine, Evaluator};
use kshogi_registry::{LinearOf, Registered};
use kshogi_tune::data::{play_quiet, play_scored, GenConfig};

/// A quiet position of a game.
#[derive(Clone, Debug)]
pub struct Record<V: Registered> {
    /// The position.
    pub pos: Position<V>,
    /// The teacher's evaluation of it, for its side to move.
    pub eval: i32,
    /// Black's result of the game: 1, 1/2 or 0.
    pub result: f32,
    /// The game's index.
    pub game: u32,
}

/// What a position's evaluation label is.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Label {
    /// The teacher's static evaluation of the quiet leaf of each position the engine moves
    /// in ([`kshogi_tune::data::play_quiet`]): the recipe of every registered net.
    #[default]
    Leaf,
    /// The score of the teacher's search (at the games' nodes a move) of each position the
    /// engine moves in that is quiet itself ([`kshogi_tune::data::play_scored`]): what the
    /// search sees beyond the static evaluation, mates left out.
    Search,
}

impl Label {
    /// The option's value (`--label leaf|search`).
    pub fn parse(s: &str) -> Result<Label, String> {
        match s {
            "leaf" => Ok(Label::Leaf),
            "search" => Ok(Label::Search),
            _ => Err(format!("`--label` is `leaf` or `search`, found `{s}`")),
        }
    }
}

/// Who plays the games and scores their positions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Teacher {
    /// The variant's linear evaluation ([`LinearOf`]).
    Linear,
    /// The teacher installed for the run ([`eval::install_teacher`]), searched through
    /// the accumulator stack.
    Net,
}

/// Plays the games on `cfg.threads` threads and returns their records in game order;
/// `progress` gets the number of games done after each game. With [`Teacher::Net`] a net
/// must be installed first ([`eval::install_teacher`]), or an error says so.
pub fn generate<V: Registered>(
    cfg: &GenConfig,
    teacher: Teacher,
    label: Label,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<Vec<Record<V>>, String> {
    generate_range(cfg, teacher, label, 0..cfg.games, progress)
}

/// The games of indices `range` of [`generate`]'s (each game depends on its index only):
/// the pipeline's chunks, whose records joined in order are [`generate`]'s.
pub fn generate_range<V: Registered>(
    cfg: &GenConfig,
    teacher: Teacher,
    label: Label,
    range: std::ops::Range<u32>,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<Vec<Record<V>>, String> {
    Ok(match teacher {
        Teacher::Linear => games_of::<V, LinearOf<V>>(cfg, label, range, progress),
        Teacher::Net => {
            if eval::teacher::<V>().is_none() {
                return Err(format!("no {} net is installed to teach", V::NAME));
            }
            games_of::<V, TeacherEval>(cfg, label, range, progress)
        }
    })
}

/// The games of indices `range` played and scored by evaluator `E`, labelled by `label`.
fn games_of<V: Registered, E: Evaluator<V>>(
    cfg: &GenConfig,
    label: Label,
    range: std::ops::Range<u32>,
    progress: &(dyn Fn(u32) + Sync),
) -> Vec<Record<V>> {
    let games = run_games(
        cfg.threads,
        range,
        &|| Engine::<V, E>::new(1),
        &|engine, index| {
            let game = match label {
                Label::Leaf => play_quiet(engine, cfg, index, &mut |leaf: &Position<V>| {
                    (*leaf, E::evaluate(leaf))
                }),
                Label::Search => play_scored(engine, cfg, index),
            };
            let result = game.result as f32;
            game.records
                .into_iter()
                .map(|(pos, eval)| Record {
                    pos,
                    eval,
                    result,
                    game: index,
                })
                .collect::<Vec<_>>()
        },
        progress,
    );
    games.into_iter().flatten().collect()
}
