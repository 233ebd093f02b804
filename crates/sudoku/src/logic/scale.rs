//! The scale puzzles are rated on: the [`Technique`]s of the logical solvers in order of
//! difficulty, each with its number on Sudoku Explainer's scale, the [`Level`]s they make, and
//! how a logical solution's counts of techniques become a level and a rating. Shared by the
//! raters of every size; it imports nothing of the crate but the error for an unknown name.

use std::fmt;

/// The rating of a puzzle the techniques do not solve: guessing needed (on Sudoku Explainer's
/// scale the hardest puzzles known rate about 10 to 12).
pub(crate) const BEYOND: f32 = 10.0;

/// The techniques of the logical solver, easiest first (by [`Technique::difficulty`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Technique {
    /// A digit with one place left in a unit.
    HiddenSingle,
    /// A cell with one candidate left.
    NakedSingle,
    /// A digit whose places in one unit all lie in another unit (pointing and claiming).
    LockedCandidates,
    /// Two cells of a unit with the same two candidates.
    NakedPair,
    /// A digit in two rows (columns) confined to the same two columns (rows).
    XWing,
    /// Two digits with the same two places in a unit.
    HiddenPair,
    /// Three cells of a unit with three candidates between them.
    NakedTriple,
    /// The same with three rows (columns).
    Swordfish,
    /// Three digits with three places between them in a unit.
    HiddenTriple,
    /// A cell {x, y} seeing cells {x, z} and {y, z}: z leaves the cells that see both.
    XYWing,
    /// A cell {x, y, z} seeing cells {x, z} and {y, z}: z leaves the cells that see all three.
    XYZWing,
    /// Type 1: three corners of a rectangle over two boxes hold the same pair, so the fourth
    /// holds neither (the puzzle would otherwise have two solutions).
    UniqueRectangle,
    /// A digit in four rows (columns) confined to the same four columns (rows).
    Jellyfish,
    /// A digit's conjugate pairs colored alternately: a color that sees itself is false, a cell
    /// that sees both colors cannot hold the digit.
    SimpleColoring,
    /// A cell's candidates each followed by singles: one that leads to a contradiction is false,
    /// and what no branch keeps goes.
    ForcingChain,
}

impl Technique {
    /// Every technique, easiest first.
    pub const ALL: [Technique; 15] = [
        Technique::HiddenSingle,
        Technique::NakedSingle,
        Technique::LockedCandidates,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::XYWing,
        Technique::XYZWing,
        Technique::UniqueRectangle,
        Technique::Jellyfish,
        Technique::SimpleColoring,
        Technique::ForcingChain,
    ];

    /// The number of techniques.
    pub const COUNT: usize = Technique::ALL.len();

    /// The techniques that decide the four levels (what [`Level::Hard`] allows); a puzzle they
    /// do not solve is [`Level::Expert`] whatever solves it. In the order that decides a level
    /// fastest (subsets before fish): which of them solve a puzzle does not depend on the order,
    /// so neither does the level, but the hardest technique named may (rate with
    /// [`Technique::ALL`] to name it as `dlx rate` does).
    pub const LEVELLED: [Technique; 9] = [
        Technique::NakedSingle,
        Technique::HiddenSingle,
        Technique::LockedCandidates,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::HiddenTriple,
        Technique::XWing,
        Technique::Swordfish,
    ];

    /// Every technique but the unique rectangle, which assumes that the puzzle has one solution:
    /// what may decide whether it has.
    pub(crate) const SOUND: [Technique; Technique::COUNT - 1] = {
        let mut sound = [Technique::HiddenSingle; Technique::COUNT - 1];
        let (mut k, mut n) = (0, 0);
        while k < Technique::COUNT {
            if !matches!(Technique::ALL[k], Technique::UniqueRectangle) {
                sound[n] = Technique::ALL[k];
                n += 1;
            }
            k += 1;
        }
        sound
    };

    /// The name used in output.
    pub fn name(self) -> &'static str {
        match self {
            Technique::HiddenSingle => "hidden single",
            Technique::NakedSingle => "naked single",
            Technique::LockedCandidates => "locked candidates",
            Technique::NakedPair => "naked pair",
            Technique::XWing => "x-wing",
            Technique::HiddenPair => "hidden pair",
            Technique::NakedTriple => "naked triple",
            Technique::Swordfish => "swordfish",
            Technique::HiddenTriple => "hidden triple",
            Technique::XYWing => "xy-wing",
            Technique::XYZWing => "xyz-wing",
            Technique::UniqueRectangle => "unique rectangle",
            Technique::Jellyfish => "jellyfish",
            Technique::SimpleColoring => "simple coloring",
            Technique::ForcingChain => "forcing chain",
        }
    }

    /// The technique's difficulty on the scale of Sudoku Explainer, which people quote: 1.5
    /// hidden single, 2.3 naked single, 2.6 locked candidates, 3.0 naked pair, 3.2 X-wing, 3.4
    /// hidden pair, 3.6 naked triple, 3.8 swordfish, 4.0 hidden triple, 4.2 XY-wing, 4.4
    /// XYZ-wing, 4.5 unique rectangle, 5.2 jellyfish; simple coloring at 6.5, where that scale
    /// puts the X-cycles that contain it, and forcing chains at 7.5. Approximate: that program
    /// grades some techniques finer (a hidden single in a box 1.2, claiming 2.8, chains by
    /// length), and has techniques this solver lacks.
    pub fn difficulty(self) -> f32 {
        match self {
            Technique::HiddenSingle => 1.5,
            Technique::NakedSingle => 2.3,
            Technique::LockedCandidates => 2.6,
            Technique::NakedPair => 3.0,
            Technique::XWing => 3.2,
            Technique::HiddenPair => 3.4,
            Technique::NakedTriple => 3.6,
            Technique::Swordfish => 3.8,
            Technique::HiddenTriple => 4.0,
            Technique::XYWing => 4.2,
            Technique::XYZWing => 4.4,
            Technique::UniqueRectangle => 4.5,
            Technique::Jellyfish => 5.2,
            Technique::SimpleColoring => 6.5,
            Technique::ForcingChain => 7.5,
        }
    }

    /// The level of a puzzle whose hardest technique this is.
    pub fn level(self) -> Level {
        match self {
            Technique::NakedSingle | Technique::HiddenSingle => Level::Easy,
            Technique::LockedCandidates => Level::Medium,
            Technique::NakedPair
            | Technique::HiddenPair
            | Technique::NakedTriple
            | Technique::HiddenTriple
            | Technique::XWing
            | Technique::Swordfish => Level::Hard,
            Technique::XYWing
            | Technique::XYZWing
            | Technique::UniqueRectangle
            | Technique::Jellyfish
            | Technique::SimpleColoring
            | Technique::ForcingChain => Level::Expert,
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How hard a puzzle is for a person.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Singles only.
    Easy,
    /// Up to locked candidates.
    Medium,
    /// Up to naked and hidden pairs and triples, X-wings and swordfish.
    Hard,
    /// Those techniques are not enough: guessing (or harder logic) is needed.
    Expert,
}

/// The level with this name, as [`Level::name`] spells it.
impl std::str::FromStr for Level {
    type Err = crate::model::variant::UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::model::variant::UnknownName::find("level", s, &Level::ALL, Level::name)
    }
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];

    /// What the level allows, in a few words (for help texts).
    pub fn description(self) -> &'static str {
        match self {
            Level::Easy => "Singles only",
            Level::Medium => "Up to locked candidates",
            Level::Hard => "Up to pairs, triples, X-wing and swordfish",
            Level::Expert => "Needs more than those techniques",
        }
    }

    /// The name used in output.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The hardest technique with a count.
pub(crate) fn hardest_of(counts: &[u32; Technique::COUNT]) -> Option<Technique> {
    Technique::ALL.iter().rev().copied().find(|&t| counts[t as usize] > 0)
}

/// The name of a logical solution's hardest technique (see
/// [`Logic::hardest_name`](crate::Logic::hardest_name)).
pub(crate) fn hardest_name_of(solved: bool, counts: &[u32; Technique::COUNT]) -> &'static str {
    match (solved, hardest_of(counts)) {
        (false, _) => "guessing",
        (true, Some(t)) => t.name(),
        (true, None) => "none",
    }
}

/// The level of a logical solution (see [`Logic::level`](crate::Logic::level)).
pub(crate) fn level_of(solved: bool, counts: &[u32; Technique::COUNT]) -> Level {
    if !solved { Level::Expert } else { hardest_of(counts).map_or(Level::Easy, Technique::level) }
}

/// The rating of a logical solution (see [`Logic::rating`](crate::Logic::rating)).
pub(crate) fn rating_of(solved: bool, counts: &[u32; Technique::COUNT]) -> f32 {
    match (solved, hardest_of(counts)) {
        (false, _) => BEYOND,
        (true, Some(t)) => t.difficulty(),
        (true, None) => 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::Technique;

    #[test]
    fn the_sound_techniques_are_all_but_the_unique_rectangle_in_order() {
        let expected: Vec<Technique> =
            Technique::ALL.into_iter().filter(|&t| t != Technique::UniqueRectangle).collect();
        assert_eq!(Technique::SOUND.to_vec(), expected);
    }
}
