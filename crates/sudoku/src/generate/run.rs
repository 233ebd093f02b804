//! A run of puzzles: the seed of each, the level and symmetry they share, and what a run that
//! could not reach its level reports.

use crate::generate::symmetry::Symmetry;
use crate::logic::scale::Level;

/// A reproducible run of puzzles: puzzle `index` of the run depends only on the run's seed, its
/// symmetry and its level, whatever other puzzles are made, in whatever order, on whatever
/// threads. `dlx generate --seed S` makes puzzles `0, 1, 2, ...` of `Run::new(S)` (with its
/// `--symmetry` and `--difficulty`).
///
/// ```
/// use dlx_sudoku::{Generator, Level, Matrix, Rules, Run, Variant};
/// let matrix = Matrix::new(&Rules::from(Variant::Classic));
/// let mut generator = Generator::new(&matrix);
/// let run = Run { level: Some(Level::Easy), ..Run::new(42) };
/// let made = generator.generate_in(&run, 0, &mut |_, _| {}).expect("an easy puzzle");
/// assert_eq!(made.logic.expect("rated to check the level").level(), Level::Easy);
/// assert_eq!(generator.generate_in(&run, 0, &mut |_, _| {}).unwrap().generated, made.generated);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Run {
    /// The run's seed.
    pub seed: u64,
    /// The symmetry of every puzzle's clues.
    pub symmetry: Symmetry,
    /// When set, each puzzle is generated again from a new seed (derived from the puzzle's) until
    /// its [`Level`] is this one.
    pub level: Option<Level>,
    /// How many puzzles each index may generate to reach the level (at least one is made).
    pub max_attempts: u64,
    /// Whether a puzzle harder than wanted may take givens back from its solution rather than be
    /// made again ([`Generator::generate_in`](crate::Generator::generate_in)): without a
    /// level, a puzzle that needs guessing takes the fewest clue groups that let logic solve it;
    /// with one, after [`Run::MINIMAL_ATTEMPTS`] attempts (or half the attempts allowed, if
    /// fewer; at once on grids above 16x16, whose every attempt takes seconds) found no minimal
    /// puzzle of the level, a harder one takes the fewest that bring it to the level. Such
    /// puzzles are not minimal ([`crate::Numbered::added`] says how many groups came back).
    /// `dlx generate` sets it, unless `--minimal`.
    pub ease: bool,
}

impl Run {
    /// The attempts allowed per puzzle by [`Run::new`].
    pub const DEFAULT_ATTEMPTS: u64 = 2000;

    /// The attempts at a minimal puzzle of the run's level before one that is harder may take
    /// givens back, when the run [eases](Run::ease).
    pub const MINIMAL_ATTEMPTS: u64 = 50;

    /// A run with this seed: rotational symmetry, any level, minimal puzzles only.
    pub fn new(seed: u64) -> Run {
        Run {
            seed,
            symmetry: Symmetry::Rotational,
            level: None,
            max_attempts: Run::DEFAULT_ATTEMPTS,
            ease: false,
        }
    }

    /// The seed of attempt `attempt` (from 0) at puzzle `index`: SplitMix64 of the run's seed and
    /// the index for the first, and of that seed and the attempt for the others.
    pub fn seed_of(&self, index: u64, attempt: u64) -> u64 {
        let first = mix(self.seed, index);
        if attempt == 0 { first } else { mix(first, attempt) }
    }
}

/// SplitMix64: a seed derived from another and an index.
pub(crate) fn mix(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// No puzzle of a [`Run`]'s level came out within its attempts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("puzzle {}: no {level} puzzle in {attempts} attempt{}", index + 1, if *attempts == 1 { "" } else { "s" })]
pub struct NotFound {
    /// The puzzle's index in the run.
    pub index: u64,
    /// The level asked for.
    pub level: Level,
    /// The attempts made.
    pub attempts: u64,
    /// The seed of the last attempt.
    pub last_seed: u64,
}
