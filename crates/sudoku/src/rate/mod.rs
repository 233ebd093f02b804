//! Rating: a logical solver that applies techniques in order of difficulty (`board` holds the
//! candidate grid and the techniques of one unit or digit, `advanced` the wings, rectangles,
//! coloring and chains), a numeric rating on Sudoku Explainer's scale, the solution explained
//! step by step, and the search effort.

use std::fmt;

use dlx_engine::Solver;

mod advanced;
mod board;

use board::solve_with;

use crate::geometry::Geometry;
use crate::puzzle::{Puzzle, RuleError};
use crate::solve::{Effort, Matrix, load};
use crate::variant::{Cell, Unit, Variant};

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
    type Err = crate::variant::UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| crate::variant::UnknownName::new("level", s))
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

/// What the logical solver made of a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Logic {
    /// The grid as far as logic took it (full when solved).
    pub grid: Puzzle,
    /// Whether the techniques solved it.
    pub solved: bool,
    /// How often each technique was applied, in the order of [`Technique::ALL`].
    pub counts: [u32; Technique::COUNT],
}

impl Logic {
    /// The hardest technique applied, if any.
    pub fn hardest(&self) -> Option<Technique> {
        hardest_of(&self.counts)
    }

    /// The name of the hardest technique needed: `guessing` when the techniques did not solve the
    /// puzzle, `none` when it was already full.
    pub fn hardest_name(&self) -> &'static str {
        hardest_name_of(self.solved, &self.counts)
    }

    /// The level: expert when unsolved, else the level of the hardest technique.
    pub fn level(&self) -> Level {
        level_of(self.solved, &self.counts)
    }

    /// The rating on Sudoku Explainer's scale: the [`difficulty`](Technique::difficulty) of the
    /// hardest technique applied, [`Logic::BEYOND`] when the techniques did not solve the
    /// puzzle, 1.0 for a full grid.
    pub fn rating(&self) -> f32 {
        rating_of(self.solved, &self.counts)
    }

    /// The rating of a puzzle the techniques do not solve: guessing needed (on Sudoku
    /// Explainer's scale the hardest puzzles known rate about 10 to 12).
    pub const BEYOND: f32 = 10.0;
}

/// The hardest technique with a count (shared with the solver of every size).
pub(crate) fn hardest_of(counts: &[u32; Technique::COUNT]) -> Option<Technique> {
    Technique::ALL.iter().rev().copied().find(|&t| counts[t as usize] > 0)
}

/// The name of a logical solution's hardest technique (see [`Logic::hardest_name`]).
pub(crate) fn hardest_name_of(solved: bool, counts: &[u32; Technique::COUNT]) -> &'static str {
    match (solved, hardest_of(counts)) {
        (false, _) => "guessing",
        (true, Some(t)) => t.name(),
        (true, None) => "none",
    }
}

/// The level of a logical solution (see [`Logic::level`]).
pub(crate) fn level_of(solved: bool, counts: &[u32; Technique::COUNT]) -> Level {
    if !solved { Level::Expert } else { hardest_of(counts).map_or(Level::Easy, Technique::level) }
}

/// The rating of a logical solution (see [`Logic::rating`]).
pub(crate) fn rating_of(solved: bool, counts: &[u32; Technique::COUNT]) -> f32 {
    match (solved, hardest_of(counts)) {
        (false, _) => Logic::BEYOND,
        (true, Some(t)) => t.difficulty(),
        (true, None) => 1.0,
    }
}

/// One step of a logical solution: the technique, the cells and digits of its pattern, and
/// what it placed and removed. Its `Display` is one line: `naked pair {3,7} in row 2 (r2c1
/// r2c5): removes {3,7} from r2c4`, `x-wing 7 at r1c2 r1c8 r5c2 r5c8: removes 7 from r3c2`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The technique.
    pub technique: Technique,
    /// The cells of its pattern (for a hidden single, the unit; for a forcing chain, the cell
    /// whose candidates were followed).
    pub pattern: Vec<usize>,
    /// The digits of the pattern, as bits (bit `d` for digit `d`).
    pub digits: u16,
    /// The unit the pattern lies in, for the techniques of one unit (singles, locked
    /// candidates: the unit whose places lie in another, subsets).
    pub unit: Option<Unit>,
    /// The digits placed: `(cell, digit)`.
    pub placed: Vec<(usize, u8)>,
    /// The candidates removed: `(cell, digits as bits)`.
    pub removed: Vec<(usize, u16)>,
}

impl Default for Step {
    fn default() -> Step {
        Step {
            technique: Technique::HiddenSingle,
            pattern: Vec::new(),
            digits: 0,
            unit: None,
            placed: Vec::new(),
            removed: Vec::new(),
        }
    }
}

/// The digits of a mask, as `3` or `{3,7}`.
fn digits_text(mask: u16) -> String {
    let digits: Vec<String> = (1..=9).filter(|d| mask & (1 << d) != 0).map(|d| d.to_string()).collect();
    if digits.len() == 1 { digits[0].clone() } else { format!("{{{}}}", digits.join(",")) }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cells: Vec<String> = self.pattern.iter().map(|&c| Cell(c).to_string()).collect();
        let (technique, digits, cells) = (self.technique, digits_text(self.digits), cells.join(" "));
        match self.unit {
            Some(unit) => write!(f, "{technique} {digits} in {unit} ({cells}):")?,
            None => write!(f, "{technique} {digits} at {cells}:")?,
        }
        let placed: Vec<String> = self.placed.iter().map(|&(c, d)| format!("{}={d}", Cell(c))).collect();
        let removed: Vec<String> =
            self.removed.iter().map(|&(c, m)| format!("{} from {}", digits_text(m), Cell(c))).collect();
        if !placed.is_empty() {
            write!(f, " places {}", placed.join(", "))?;
        }
        if !removed.is_empty() {
            write!(f, "{} removes {}", if placed.is_empty() { "" } else { ";" }, removed.join(", "))?;
        }
        Ok(())
    }
}

/// The logical solution of a puzzle step by step, with every technique: what
/// [`solve_logically`] does, each step recorded.
pub fn explain(puzzle: &Puzzle, variant: Variant) -> Result<(Logic, Vec<Step>), RuleError> {
    let mut steps = Vec::new();
    let logic = solve_with(Geometry::of(variant), puzzle, &Technique::ALL, Some(&mut steps))?;
    Ok((logic, steps))
}

/// A rating: the logical verdict and the search effort.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The logical solver's result.
    pub logic: Logic,
    /// Nodes and guesses of the uniqueness search (count up to 2), averaged over seeded random
    /// branching orders: a machine-independent measure of search effort.
    pub nodes: f64,
    /// See `nodes`.
    pub guesses: f64,
    /// The number of solutions, counting no further than 2.
    pub solutions: u64,
}

/// Seeds of the random branching orders the effort is averaged over.
const EFFORT_SEEDS: u64 = 8;

/// Rates a puzzle: the logical solver, then the search effort. `matrix` must be the puzzle's
/// variant's. For many puzzles, a [`Rater`] reuses its tables and its solver.
pub fn rate(matrix: &Matrix, puzzle: &Puzzle) -> Result<Rating, RuleError> {
    Rater::new(matrix).rate(puzzle)
}

/// Applies the given techniques, easiest first, until the grid is solved or none applies.
/// Every placement and elimination is sound: each follows from the rules and the givens.
pub fn solve_logically(
    puzzle: &Puzzle,
    variant: Variant,
    techniques: &[Technique],
) -> Result<Logic, RuleError> {
    solve_with(Geometry::of(variant), puzzle, techniques, None)
}

/// Rates puzzles of one variant, reusing its tables and one engine solver: nothing is built per
/// puzzle.
#[derive(Debug)]
pub struct Rater<'m> {
    geometry: &'static Geometry,
    solver: Solver<'m>,
}

impl<'m> Rater<'m> {
    /// A rater for the matrix's variant.
    pub fn new(matrix: &'m Matrix) -> Self {
        Rater { geometry: Geometry::of(matrix.variant()), solver: Solver::new(matrix.problem()) }
    }

    /// The logical solver alone, with the given techniques.
    pub fn logic(&self, puzzle: &Puzzle, techniques: &[Technique]) -> Result<Logic, RuleError> {
        solve_with(self.geometry, puzzle, techniques, None)
    }

    /// The logical verdict with every technique, and the search effort.
    pub fn rate(&mut self, puzzle: &Puzzle) -> Result<Rating, RuleError> {
        let logic = solve_with(self.geometry, puzzle, &Technique::ALL, None)?;
        let mut total = Effort::default();
        let mut solutions = 0;
        // Loaded once: every run starts from the givens again.
        load(&mut self.solver, self.geometry.variant(), puzzle)?;
        for seed in 0..EFFORT_SEEDS {
            self.solver.set_seed(Some(seed));
            solutions = self.solver.count_up_to(2).expect("no budget is set");
            let effort = Effort::from(self.solver.stats());
            total.nodes += effort.nodes;
            total.guesses += effort.guesses;
        }
        self.solver.reset();
        let n = EFFORT_SEEDS as f64;
        Ok(Rating { logic, nodes: total.nodes as f64 / n, guesses: total.guesses as f64 / n, solutions })
    }
}
