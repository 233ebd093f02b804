//! Generating puzzles: a random full grid, then clues removed (with their symmetric partners)
//! while the solution stays unique.

use std::fmt;

use dlx_engine::{OptionId, Solver};
use rand::{Rng, SeedableRng, seq::SliceRandom};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::puzzle::Puzzle;
use crate::solve::Matrix;
use crate::variant::Variant;

/// A map of the grid onto itself, on `(row, column)`.
type CellMap = fn(usize, usize) -> (usize, usize);

/// The symmetry of the clue pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Symmetry {
    /// No symmetry.
    None,
    /// 180-degree rotation, as printed puzzles use.
    #[default]
    Rotational,
    /// 90-degree rotation (and so 180 and 270 too).
    Rotate90,
    /// Left-right mirror.
    Mirror,
    /// Top-bottom flip.
    Flip,
    /// Reflection in the main diagonal.
    Diagonal,
    /// Reflection in the anti-diagonal.
    AntiDiagonal,
    /// All eight symmetries of the square.
    Dihedral,
}

impl Symmetry {
    /// Every symmetry.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::None,
        Symmetry::Rotational,
        Symmetry::Rotate90,
        Symmetry::Mirror,
        Symmetry::Flip,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
        Symmetry::Dihedral,
    ];

    /// The name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
            Symmetry::Rotate90 => "rotate90",
            Symmetry::Mirror => "mirror",
            Symmetry::Flip => "flip",
            Symmetry::Diagonal => "diagonal",
            Symmetry::AntiDiagonal => "antidiagonal",
            Symmetry::Dihedral => "dihedral",
        }
    }

    /// The maps of cells that generate the symmetry group (each `(row, col) -> (row, col)`).
    fn generators(self) -> &'static [CellMap] {
        match self {
            Symmetry::None => &[],
            Symmetry::Rotational => &[|r, c| (8 - r, 8 - c)],
            Symmetry::Rotate90 => &[|r, c| (c, 8 - r)],
            Symmetry::Mirror => &[|r, c| (r, 8 - c)],
            Symmetry::Flip => &[|r, c| (8 - r, c)],
            Symmetry::Diagonal => &[|r, c| (c, r)],
            Symmetry::AntiDiagonal => &[|r, c| (8 - c, 8 - r)],
            Symmetry::Dihedral => &[|r, c| (c, 8 - r), |r, c| (r, 8 - c)],
        }
    }

    /// The orbit of a cell: the cells the symmetry maps it to, itself included, sorted.
    pub fn orbit(self, cell: usize) -> Vec<usize> {
        let mut orbit = vec![cell];
        let mut k = 0;
        while k < orbit.len() {
            let (r, c) = (orbit[k] / 9, orbit[k] % 9);
            for g in self.generators() {
                let (r2, c2) = g(r, c);
                let image = r2 * 9 + c2;
                if !orbit.contains(&image) {
                    orbit.push(image);
                }
            }
            k += 1;
        }
        orbit.sort_unstable();
        orbit
    }

    /// The cells split into orbits, in order of their first cell.
    pub fn orbits(self) -> Vec<Vec<usize>> {
        let mut seen = [false; 81];
        let mut orbits = Vec::new();
        for cell in 0..81 {
            if !seen[cell] {
                let orbit = self.orbit(cell);
                for &c in &orbit {
                    seen[c] = true;
                }
                orbits.push(orbit);
            }
        }
        orbits
    }

    /// Whether the givens (and even markers) of a puzzle have this symmetry.
    pub fn holds_for(self, puzzle: &Puzzle) -> bool {
        (0..81).all(|cell| {
            self.orbit(cell).iter().all(|&other| {
                (puzzle.get(other) != 0) == (puzzle.get(cell) != 0)
                    && puzzle.is_even_cell(other) == puzzle.is_even_cell(cell)
            })
        })
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A generated puzzle and its unique solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: givens, and even markers for the even-cell variant.
    pub puzzle: Puzzle,
    /// Its unique solution.
    pub solution: Puzzle,
}

/// Generates minimal puzzles with a unique solution. Reuses one engine solver for everything.
#[derive(Debug)]
pub struct Generator<'m> {
    variant: Variant,
    solver: Solver<'m>,
    /// Scratch: the clue groups in removal order, and which of them are kept.
    groups: Vec<Vec<usize>>,
    kept: Vec<usize>,
}

impl<'m> Generator<'m> {
    /// A generator for the matrix's variant.
    pub fn new(matrix: &'m Matrix) -> Self {
        Generator {
            variant: matrix.variant(),
            solver: Solver::new(matrix.problem()),
            groups: Vec::new(),
            kept: Vec::new(),
        }
    }

    /// A random full grid of the variant, from the engine's seeded random branching.
    pub fn full_grid(&mut self, seed: u64) -> Puzzle {
        self.solver.reset();
        self.solver.set_seed(Some(seed));
        // Shuffled digits make the grid random; random ties between equally short constraints
        // would only make it slower.
        self.solver.set_random_ties(false);
        let mut grid = Puzzle::empty();
        let _ = self.solver.for_each(|s| {
            for option in s.options() {
                let (cell, digit) = Matrix::placement(option);
                grid.set(cell, digit);
            }
            std::ops::ControlFlow::Break(())
        });
        self.solver.set_seed(None);
        grid
    }

    /// A minimal puzzle with a unique solution and the given symmetry, reproducibly from `seed`.
    ///
    /// Minimal: removing any further clue group (orbit under the symmetry) makes it ambiguous; for
    /// the even-cell variant, so does removing any even marker.
    pub fn generate(&mut self, symmetry: Symmetry, seed: u64) -> Generated {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let solution = self.full_grid(rng.random());
        let mut groups = std::mem::take(&mut self.groups);
        groups.clear();
        groups.extend(symmetry.orbits());
        groups.shuffle(&mut rng);

        self.solver.reset();
        // Even-cell variant: every even cell starts marked (its odd options excluded).
        if self.variant.has_even_cells() {
            for cell in (0..81).filter(|&c| solution.get(c).is_multiple_of(2)) {
                for odd in [1, 3, 5, 7, 9] {
                    self.solver.exclude(Matrix::option(cell, odd)).expect("options of the matrix");
                }
            }
        }
        let mut kept = std::mem::take(&mut self.kept);
        kept.clear();
        self.remove_groups(&groups, 0..groups.len(), &solution, &mut kept);
        let mut puzzle = Puzzle::empty();
        for &k in &kept {
            for &cell in &groups[k] {
                puzzle.set(cell, solution.get(cell));
            }
        }
        if self.variant.has_even_cells() {
            puzzle = self.minimize_markers(puzzle, &solution, &mut rng);
        }
        self.solver.reset();
        self.groups = groups;
        self.kept = kept;
        Generated { puzzle, solution }
    }

    /// Tries to remove each group of `range`, in order, keeping those whose removal would make the
    /// solution ambiguous; pushes their indices onto `kept` and leaves them forced.
    ///
    /// On entry the kept groups before the range and every group after it are forced, and none in
    /// it: the state in which its first group is tested. Halving the range keeps that true without
    /// lifting every kept group off the undo stack for every test: the second half is forced while
    /// the first is worked through, then taken off from under the first half's kept groups. Each
    /// group is forced and undone a logarithmic number of times instead of once per later test.
    fn remove_groups(
        &mut self,
        groups: &[Vec<usize>],
        range: std::ops::Range<usize>,
        solution: &Puzzle,
        kept: &mut Vec<usize>,
    ) {
        if range.len() <= 1 {
            for g in range {
                if !self.removable(&groups[g], solution) {
                    self.force_group(&groups[g], solution);
                    kept.push(g);
                }
            }
            return;
        }
        let mid = range.start + range.len() / 2;
        for group in &groups[mid..range.end] {
            self.force_group(group, solution);
        }
        let before = kept.len();
        self.remove_groups(groups, range.start..mid, solution, kept);
        for &k in kept[before..].iter().rev() {
            self.undo_group(&groups[k]);
        }
        for group in &groups[mid..range.end] {
            self.undo_group(group);
        }
        for &k in &kept[before..] {
            self.force_group(&groups[k], solution);
        }
        self.remove_groups(groups, mid..range.end, solution, kept);
    }

    fn force_group(&mut self, group: &[usize], solution: &Puzzle) {
        for &cell in group {
            self.solver.force(Matrix::option(cell, solution.get(cell))).expect("clues of one solution agree");
        }
    }

    fn undo_group(&mut self, group: &[usize]) {
        for _ in group {
            self.solver.undo();
        }
    }

    /// With the group's clues taken off: is the solution still unique? Any other solution differs
    /// from `solution` in one of the group's cells, so it is enough to ask, cell by cell, whether a
    /// solution exists with another digit there.
    fn removable(&mut self, group: &[usize], solution: &Puzzle) -> bool {
        group.iter().all(|&cell| !self.has_solution_without(Matrix::option(cell, solution.get(cell))))
    }

    /// Whether a solution exists once `option` is excluded.
    fn has_solution_without(&mut self, option: OptionId) -> bool {
        let excluded = self.solver.exclude(option).expect("options of the matrix");
        let found = self.solver.count_up_to(1).expect("no budget is set") > 0;
        if excluded {
            self.solver.undo();
        }
        found
    }

    /// Removes even markers from empty cells, one at a time in random order, while the puzzle
    /// stays unique.
    fn minimize_markers(
        &mut self,
        mut puzzle: Puzzle,
        solution: &Puzzle,
        rng: &mut Xoshiro256PlusPlus,
    ) -> Puzzle {
        let mut marked: Vec<usize> =
            (0..81).filter(|&c| puzzle.get(c) == 0 && solution.get(c).is_multiple_of(2)).collect();
        for &cell in &marked {
            puzzle.set_even_cell(cell, true);
        }
        marked.shuffle(rng);
        let matrix_solver = &mut self.solver;
        for cell in marked {
            puzzle.set_even_cell(cell, false);
            if count_up_to_2(matrix_solver, &puzzle) != 1 {
                puzzle.set_even_cell(cell, true);
            }
        }
        puzzle
    }
}

/// Counts a puzzle's solutions up to 2 on an engine solver over its variant's matrix.
pub(crate) fn count_up_to_2(solver: &mut Solver<'_>, puzzle: &Puzzle) -> u64 {
    solver.reset();
    for cell in 0..81 {
        if puzzle.is_even_cell(cell) {
            for odd in [1, 3, 5, 7, 9] {
                let _ = solver.exclude(Matrix::option(cell, odd));
            }
        }
    }
    for (cell, &digit) in puzzle.cells().iter().enumerate() {
        if digit != 0 && solver.force(Matrix::option(cell, digit)).is_err() {
            return 0;
        }
    }
    solver.count_up_to(2).expect("no budget is set")
}
