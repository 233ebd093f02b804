//! Cheap proofs that a clue (or an even marker) can go: the pieces left force it back through
//! singles alone.
//!
//! The generator asks, for each piece it tries to remove, whether another solution appears
//! without it. The grid is known, so when the clues left, placed one single after another (a cell
//! with one candidate left, or a digit with one place left in a unit), fill the piece's cells with
//! the grid's digits again, every solution holds those digits there: the piece can go, and the
//! engine need not search, nor even take up the clues of the test. Most pieces are settled so
//! (the share, and the searches left, are in `benches/RESULTS.md`).
//!
//! The sets of cells are [`Small`]s; a round finds every single at once.

use crate::model::cells::Small;
use crate::shape::Shape;
use crate::shape::nine::Puzzle;

/// A full grid, by cell and by digit.
#[derive(Debug)]
pub(crate) struct FullGrid {
    digits: [u8; 81],
    /// `cells_of[d]`: the cells holding digit `d` (`cells_of[0]` is empty).
    cells_of: [Small; 10],
}

impl FullGrid {
    /// The digits of `grid`, a full grid.
    pub(crate) fn new(grid: &Puzzle) -> FullGrid {
        let mut cells_of = [Small::EMPTY; 10];
        for cell in 0..81 {
            cells_of[usize::from(grid.get(cell))] |= Small::cell(cell);
        }
        debug_assert!(cells_of[0].is_empty(), "a full grid");
        FullGrid { digits: *grid.cells(), cells_of }
    }

    /// The digit of `cell`.
    pub(crate) fn digit(&self, cell: usize) -> u8 {
        self.digits[cell]
    }

    /// The cells holding an even digit.
    pub(crate) fn even_cells(&self) -> Small {
        [2, 4, 6, 8].iter().fold(Small::EMPTY, |set, &d| set | self.cells_of[d])
    }

    /// Whether, with the grid's digits given in the cells of `present` and even markers on the
    /// cells of `marked`, singles fill every cell of `targets` again: placed round after round,
    /// each round placing every naked single (a cell whose other candidates all meet their digit
    /// in a unit, or are odd on a marked cell) and every hidden single (a cell whose digit has no
    /// other candidate cell in one of its units). Every placement is the grid's digit, and is
    /// forced in every solution of those clues and markers.
    pub(crate) fn derives(
        &self,
        shape: &Shape<Small>,
        present: Small,
        marked: Small,
        targets: Small,
    ) -> bool {
        // `allowed[d]`: the cells where `d` is never a false candidate: those holding it, and for
        // an odd digit the marked cells, where it is no candidate at all.
        let allowed: [Small; 10] =
            std::array::from_fn(|d| if d % 2 == 1 { self.cells_of[d] | marked } else { self.cells_of[d] });
        let mut known = present;
        // `blocked[d]`: the cells that see a known `d`.
        let mut blocked = [Small::EMPTY; 10];
        let mut fresh = known;
        while !(targets - known).is_empty() {
            for x in fresh {
                blocked[usize::from(self.digits[x])] |= shape.peers(x);
            }
            let unknown = !known;
            // Naked singles: every digit but the cell's own is blocked or not allowed.
            let mut found = unknown;
            for d in 1..=9 {
                found &= blocked[d] | allowed[d];
            }
            // Hidden singles: the unknown cells holding `d` in a unit where `d` has no other
            // candidate.
            for d in 1..=9 {
                let others = unknown - (blocked[d] | allowed[d]);
                found |= unknown & self.cells_of[d] & shape.clear_units(others);
            }
            if found.is_empty() {
                return false;
            }
            known |= found;
            fresh = found;
        }
        true
    }

    /// [`derives`](Self::derives) for one cell, in the first round only: whether the cell's digit
    /// is a single already. Much cheaper, and enough for most cells the generator tries.
    pub(crate) fn is_single(&self, shape: &Shape<Small>, present: Small, marked: Small, cell: usize) -> bool {
        let here = Small::cell(cell);
        let d = usize::from(self.digits[cell]);
        // Naked: every other digit the cell may hold meets its digit among the given peers.
        let seen = shape.peers(cell) & present;
        let odd_allowed = !marked.meets(here);
        if (1..=9).all(|e| e == d || (e % 2 == 1 && !odd_allowed) || self.cells_of[e].meets(seen)) {
            return true;
        }
        // Hidden: in one of its units, every other cell is given, sees a given `d`, or is marked
        // when `d` is odd.
        let mut blocked = present | here;
        if d % 2 == 1 {
            blocked |= marked;
        }
        for holder in self.cells_of[d] & present {
            blocked |= shape.peers(holder);
        }
        shape.has_unit_clear_of(cell, !blocked)
    }
}

#[cfg(test)]
mod tests {
    use dlx_engine::Solver;
    use proptest::prelude::*;

    use super::*;
    use crate::cover::nine::Matrix;
    use crate::generate::nine::Generator;
    use crate::model::variant::Variant;

    /// A grid's clues on `present` and markers on `marked`, on an engine solver.
    fn solver_for<'m>(
        matrix: &'m crate::cover::Matrix,
        grid: &Puzzle,
        present: Small,
        marked: Small,
    ) -> Solver<'m> {
        let mut solver = Solver::new(matrix.problem());
        for cell in present {
            solver.force(Matrix::option(cell, grid.get(cell))).unwrap();
        }
        for cell in marked {
            for odd in [1, 3, 5, 7, 9] {
                solver.exclude(Matrix::option(cell, odd)).unwrap();
            }
        }
        solver
    }

    /// Whether a solution holds another digit than the grid's in `cell`; and whether the search
    /// saw that there is none at its root already (an item without options).
    fn other_digit(solver: &mut Solver<'_>, grid: &Puzzle, cell: usize) -> (bool, bool) {
        let excluded = solver.exclude(Matrix::option(cell, grid.get(cell))).unwrap();
        let found = solver.count_up_to(1).unwrap() > 0;
        let at_root = !found && solver.stats().nodes == 0;
        if excluded {
            solver.undo();
        }
        (found, at_root)
    }

    fn variant() -> impl Strategy<Value = Variant> {
        prop::sample::select(Variant::ALL.to_vec())
    }

    proptest! {
        // Each case fills a grid and runs up to 81 short searches, in a debug build.
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Against the engine, on random clues of a random grid (dense enough for singles to
        /// matter) and random markers: a cell is a single exactly when excluding its digit
        /// leaves an item without options at the search's root, and every cell that rounds of
        /// singles fill holds the grid's digit in every solution.
        #[test]
        fn singles_agree_with_the_engine(
            variant in variant(),
            seed in any::<u64>(),
            clues in prop::collection::vec(0u8..8, 81),
            density in 2u8..8,
            markers in any::<u128>(),
        ) {
            let matrix = crate::cover::Matrix::new(&crate::model::Rules::from(variant));
            let puzzle = Generator::over(matrix.problem(), variant).full_grid(seed);
            let grid = FullGrid::new(&puzzle);
            let shape = Shape::of_variant(variant);
            // Each cell is given with probability `density / 8`.
            let present: Small = (0..81).filter(|&c| clues[c] < density).collect();
            let marked: Small = if variant.has_even_cells() {
                (0..81).filter(|&c| markers & (1 << c) != 0).collect::<Small>() & grid.even_cells()
            } else {
                Small::EMPTY
            };
            let mut solver = solver_for(&matrix, &puzzle, present, marked);
            for cell in !present {
                let (found, at_root) = other_digit(&mut solver, &puzzle, cell);
                let single = grid.is_single(shape, present, marked, cell);
                prop_assert_eq!(single, at_root, "cell {}", cell);
                let derived = grid.derives(shape, present, marked, Small::cell(cell));
                prop_assert!(!(derived && found), "cell {} derived, yet a solution has another digit", cell);
                prop_assert!(derived || !single, "cell {} is a single but not derived", cell);
            }
            // Rounds of singles fill a whole set of cells as well as each one.
            let unknown = !present;
            let each = unknown.iter().all(|c| grid.derives(shape, present, marked, Small::cell(c)));
            prop_assert_eq!(grid.derives(shape, present, marked, unknown), each);
        }
    }

    /// One given cell short of a full grid, that cell is a single; with no clue at all, no cell is.
    #[test]
    fn a_full_grid_forces_its_last_cell_and_an_empty_one_nothing() {
        for variant in Variant::ALL {
            let matrix = crate::cover::Matrix::new(&crate::model::Rules::from(variant));
            let puzzle = Generator::over(matrix.problem(), variant).full_grid(7);
            let grid = FullGrid::new(&puzzle);
            let shape = Shape::of_variant(variant);
            let none = Small::EMPTY;
            for cell in [0, 40, 80] {
                let others = !Small::cell(cell);
                assert!(grid.is_single(shape, others, none, cell), "{variant} cell {cell}");
                assert!(grid.derives(shape, others, none, Small::cell(cell)), "{variant} cell {cell}");
                assert!(!grid.is_single(shape, none, none, cell), "{variant} cell {cell}");
                assert!(!grid.derives(shape, none, none, Small::cell(cell)), "{variant} cell {cell}");
            }
        }
    }

    /// A cell whose row holds no clue, but whose digit is given in the eight other columns, is a
    /// hidden single (and no naked one: the eight clues hold one digit only).
    #[test]
    fn a_digit_given_in_every_other_column_is_a_hidden_single() {
        let matrix = crate::cover::Matrix::new(&crate::model::Rules::from(Variant::Classic));
        let puzzle = Generator::over(matrix.problem(), Variant::Classic).full_grid(11);
        let grid = FullGrid::new(&puzzle);
        let shape = Shape::of_variant(Variant::Classic);
        let cell = 4 * 9 + 4;
        let digit = usize::from(puzzle.get(cell));
        let present = grid.cells_of[digit] - Small::cell(cell);
        assert!(grid.is_single(shape, present, Small::EMPTY, cell));
        // Any other cell of the row: its digit is given nowhere.
        assert!(!grid.is_single(shape, present, Small::EMPTY, 4 * 9));
    }
}
