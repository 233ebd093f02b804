//! The pieces of a puzzle (clue groups, even markers), tested one by one on the solver's undo
//! stack: the trait that says what a piece is, the two kinds, the stack of pieces the solver
//! follows lazily, and the halving that keeps each piece from being applied once per test.

use dlx_engine::{ForceError, Interrupted, OptionId, Solver};

use super::singles::FullGrid;
use crate::cover::nine::Matrix;
use crate::model::cells::Small;
use crate::shape::Shape;

/// Information the generator takes out of a puzzle piece by piece, keeping only the pieces without
/// which the solution would no longer be unique.
pub(crate) trait Pieces {
    /// Applies piece `k` on the solver; returns how many restrictions that took.
    fn apply(&self, solver: &mut Solver<'_>, k: usize) -> usize;

    /// Whether, without piece `k`, a piece-free unavoidable set shows the solution would not be
    /// unique: no search needed.
    fn refuted(&self, k: usize) -> bool;

    /// Whether, without piece `k`, the pieces present force it back through singles (see the
    /// `singles` module), so that the solution stays unique: no search needed.
    fn implied(&self, k: usize) -> bool;

    /// With every other piece it needs applied, but not `k`: whether the solution stays unique
    /// (a search). When not, it may leave the search's exclusions and paused levels on the
    /// solver, for the next [`Stack::catch_up`] to take back (see [`solution_without`]). An error
    /// when a search is cut short from outside.
    fn unique_without(&self, solver: &mut Solver<'_>, k: usize) -> Result<bool, Interrupted>;

    /// Takes piece `k` out for good: it was found removable. Pieces are tested in order.
    fn remove(&mut self, k: usize);

    /// Keeps piece `k` for good: its removal would make the solution ambiguous.
    fn keep(&mut self, k: usize);
}

/// Clue groups (orbits under the symmetry) of a full grid, piece `k` being `orbits[order[k]]`.
pub(super) struct Clues<'a> {
    pub(super) shape: &'a Shape<Small>,
    pub(super) grid: &'a FullGrid,
    /// The cells carrying an even marker (every even cell, for the even-cell variant).
    pub(super) marked: Small,
    pub(super) orbits: &'a [Vec<usize>],
    /// The cells of each orbit, as a set.
    pub(super) orbit_sets: &'a [Small],
    pub(super) order: &'a [usize],
    /// Unavoidable sets of the grid: a puzzle giving no clue in one of them is ambiguous. Those
    /// that a kept group meets are dropped.
    pub(super) sets: &'a mut Vec<Small>,
    /// The cells still given or not yet tested.
    pub(super) given: Small,
}

impl Clues<'_> {
    /// The cells of group `k`.
    fn group(&self, k: usize) -> &[usize] {
        &self.orbits[self.order[k]]
    }

    /// The cells of group `k`, as a set.
    fn cells(&self, k: usize) -> Small {
        self.orbit_sets[self.order[k]]
    }
}

impl Pieces for Clues<'_> {
    fn apply(&self, solver: &mut Solver<'_>, k: usize) -> usize {
        for &cell in self.group(k) {
            solver.force(Matrix::option(cell, self.grid.digit(cell))).expect("clues of one solution agree");
        }
        self.group(k).len()
    }

    /// Without the group, when an unavoidable set holds no clue, the puzzle is ambiguous.
    fn refuted(&self, k: usize) -> bool {
        leaves_a_set_empty(self.sets, self.given - self.cells(k))
    }

    /// Most groups are settled by the first round alone (a cell whose digit is already a single),
    /// which is much cheaper to ask cell by cell.
    fn implied(&self, k: usize) -> bool {
        let present = self.given - self.cells(k);
        self.group(k).iter().all(|&cell| self.grid.is_single(self.shape, present, self.marked, cell))
            || self.grid.derives(self.shape, present, self.marked, self.cells(k))
    }

    /// Any other solution differs from the grid in one of the group's cells, so it is enough to
    /// ask, cell by cell, whether a solution exists with another digit there.
    fn unique_without(&self, solver: &mut Solver<'_>, k: usize) -> Result<bool, Interrupted> {
        Ok(self.group(k).iter().all(|&cell| !has_solution_without(solver, [self.grid.digit(cell)], cell)))
    }

    fn remove(&mut self, k: usize) {
        self.given -= self.cells(k);
    }

    /// An unavoidable set that the group meets can no longer be left without a clue.
    fn keep(&mut self, k: usize) {
        let cells = self.cells(k);
        self.sets.retain(|set| !set.meets(cells));
    }
}

/// Even markers of empty cells whose digit is even.
pub(super) struct Markers<'a> {
    pub(super) shape: &'a Shape<Small>,
    pub(super) grid: &'a FullGrid,
    /// The cells of the clues, which stay.
    pub(super) clues: Small,
    pub(super) cells: &'a [usize],
    /// The cells that swaps changing no clue turn odd: a puzzle with no marker in one of them is
    /// ambiguous. Those that a kept marker meets are dropped.
    pub(super) sets: &'a mut Vec<Small>,
    /// The cells still marked or not yet tested.
    pub(super) marked: Small,
}

impl Pieces for Markers<'_> {
    /// The marker excludes the cell's odd digits (those that a given has not already ruled out).
    fn apply(&self, solver: &mut Solver<'_>, k: usize) -> usize {
        [1, 3, 5, 7, 9]
            .into_iter()
            .filter(|&odd| solver.exclude(Matrix::option(self.cells[k], odd)).expect("options of the matrix"))
            .count()
    }

    /// A swap that changes no clue and turns odd only cells without a marker is another
    /// solution.
    fn refuted(&self, k: usize) -> bool {
        leaves_a_set_empty(self.sets, self.marked - Small::cell(self.cells[k]))
    }

    fn implied(&self, k: usize) -> bool {
        let cell = self.cells[k];
        let marked = self.marked - Small::cell(cell);
        self.grid.is_single(self.shape, self.clues, marked, cell)
            || self.grid.derives(self.shape, self.clues, marked, Small::cell(cell))
    }

    /// The puzzle with the marker is unique, so any other solution without it puts an odd digit
    /// in the cell: ask whether one exists.
    fn unique_without(&self, solver: &mut Solver<'_>, k: usize) -> Result<bool, Interrupted> {
        Ok(!has_solution_without(solver, [2, 4, 6, 8], self.cells[k]))
    }

    fn remove(&mut self, k: usize) {
        self.marked -= Small::cell(self.cells[k]);
    }

    fn keep(&mut self, k: usize) {
        let cell = Small::cell(self.cells[k]);
        self.sets.retain(|set| !set.meets(cell));
    }
}

/// Whether one of the unavoidable `sets` has none of its cells among `present`, the cells of the
/// pieces still there.
fn leaves_a_set_empty(sets: &[Small], present: Small) -> bool {
    sets.iter().any(|set| !set.meets(present))
}

/// Whether a solution exists in which `cell` holds none of `digits` (see [`solution_without`]).
fn has_solution_without<const N: usize>(solver: &mut Solver<'_>, digits: [u8; N], cell: usize) -> bool {
    solution_without(solver, digits.map(|digit| Matrix::option(cell, digit))).expect("no budget is set")
}

/// Whether a solution exists without any of `options`: a first-solution search with them
/// excluded for the time being.
///
/// When one is found, or the search is cut short, the exclusions stay, and so do the levels of
/// the paused search: the next [`Stack::catch_up`] takes them back with the pieces it takes
/// back, by undoing them or by copying the initial links, whichever costs less (see
/// [`Solver::undo_to`]), where undoing them at once would always unwind the search level by
/// level (the gain is in `benches/RESULTS.md`).
pub(crate) fn solution_without(
    solver: &mut Solver<'_>,
    options: impl IntoIterator<Item = OptionId>,
) -> Result<bool, Interrupted> {
    // A forced option (a clue among them) is no restriction to add.
    let excluded = options
        .into_iter()
        .filter(|&option| match solver.exclude(option) {
            Ok(excluded) => excluded,
            Err(ForceError::Forced(_)) => false,
            Err(e) => panic!("options of the matrix: {e}"),
        })
        .count();
    let found = solver.count_up_to(1)? > 0;
    if !found {
        for _ in 0..excluded {
            solver.undo();
        }
    }
    Ok(found)
}

/// The pieces that thinning out wants applied on the solver (above the state it started from), and
/// those that are: the solver catches up only when a search needs it.
///
/// Many tests need no search, because an unavoidable set decides them, and a piece pushed and
/// popped again with no search in between need never touch the solver. Catching up undoes the
/// applied pieces above the longest common start of the two stacks and applies the wanted ones
/// above it (the gain against applying every push and pop at once is in `benches/RESULTS.md`).
#[derive(Debug, Default)]
pub(crate) struct Stack {
    /// The pieces wanted, in the order they are to be applied.
    wanted: Vec<usize>,
    /// The pieces applied on the solver, in order, each with the number of restrictions it took.
    applied: Vec<(usize, usize)>,
    /// The number of restrictions on the solver below the pieces.
    below: usize,
}

impl Stack {
    /// Starts over, above the solver's present state.
    pub(crate) fn clear(&mut self, solver: &Solver<'_>) {
        self.wanted.clear();
        self.applied.clear();
        self.below = solver.restriction_count();
    }

    fn push(&mut self, k: usize) {
        self.wanted.push(k);
    }

    /// Takes off the last `n` pieces wanted.
    fn pop(&mut self, n: usize) {
        self.wanted.truncate(self.wanted.len() - n);
    }

    /// Brings the solver to the wanted pieces, taking back any test's exclusions left above them
    /// (see [`solution_without`]). Taking back many pieces above a few (as at the end of a
    /// range's first part) costs less by copying the solver's initial links and applying the few
    /// again, which [`Solver::undo_to`] does when so.
    fn catch_up<P: Pieces>(&mut self, solver: &mut Solver<'_>, pieces: &P) {
        let common = self.applied.iter().zip(&self.wanted).take_while(|&(&(a, _), &w)| a == w).count();
        solver.undo_to(self.below + self.applied[..common].iter().map(|&(_, n)| n).sum::<usize>());
        self.applied.truncate(common);
        for &k in &self.wanted[common..] {
            self.applied.push((k, pieces.apply(solver, k)));
        }
    }
}

/// Tries to remove each piece of `range`, in order, keeping those whose removal would make the
/// solution ambiguous: pushes their indices onto `kept` and onto the wanted pieces of `stack`.
///
/// On entry the kept pieces before the range and every piece after it are wanted, and none in it:
/// the state in which its first piece is tested. Halving the range keeps that true without
/// lifting every kept piece off the stack for every test: the second half is pushed while the
/// first is worked through, then taken off from under the first half's kept pieces, so each
/// piece is pushed and popped a logarithmic number of times instead of once per later test. The
/// solver follows the stack only where a search needs it. An error when a search is cut short
/// from outside.
pub(crate) fn thin_out<P: Pieces>(
    solver: &mut Solver<'_>,
    pieces: &mut P,
    range: std::ops::Range<usize>,
    kept: &mut Vec<usize>,
    stack: &mut Stack,
) -> Result<(), Interrupted> {
    if range.len() <= 1 {
        for k in range {
            let removable = if pieces.refuted(k) {
                debug_assert!(
                    {
                        stack.catch_up(solver, pieces);
                        // A search cut short from outside proves nothing either way.
                        !matches!(pieces.unique_without(solver, k), Ok(true))
                    },
                    "an unavoidable set without a piece, yet the solution is unique"
                );
                false
            } else if pieces.implied(k) {
                debug_assert!(
                    {
                        stack.catch_up(solver, pieces);
                        !matches!(pieces.unique_without(solver, k), Ok(false))
                    },
                    "singles force the piece back, yet the solution is not unique without it"
                );
                true
            } else {
                stack.catch_up(solver, pieces);
                pieces.unique_without(solver, k)?
            };
            if removable {
                pieces.remove(k);
            } else {
                pieces.keep(k);
                stack.push(k);
                kept.push(k);
            }
        }
        return Ok(());
    }
    let mid = range.start + range.len() / 2;
    for k in mid..range.end {
        stack.push(k);
    }
    let before = kept.len();
    thin_out(solver, pieces, range.start..mid, kept, stack)?;
    stack.pop(kept.len() - before + range.end - mid);
    for &k in &kept[before..] {
        stack.push(k);
    }
    thin_out(solver, pieces, mid..range.end, kept, stack)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::generate::nine::Generator;
    use crate::generate::symmetry::Symmetry;
    use crate::model::variant::Variant;

    /// A step on a [`Stack`]: push a clue group (unless it is wanted already), pop some, catch the
    /// solver up, or search for a solution with another digit in a cell (which, when it finds one,
    /// leaves its exclusion and its paused search on the solver).
    #[derive(Clone, Debug)]
    enum Step {
        Push(usize),
        Pop(usize),
        CatchUp,
        Search(usize),
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            3 => (0usize..41).prop_map(Step::Push),
            2 => (0usize..5).prop_map(Step::Pop),
            1 => Just(Step::CatchUp),
            1 => (0usize..81).prop_map(Step::Search),
        ]
    }

    proptest! {
        // Each case fills a grid, forces up to 81 clues and runs a few searches, in a debug build:
        // 4 seconds for 32 cases.
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// Whatever the pushes, pops and searches, once caught up the solver has exactly the wanted
        /// groups' clues forced above the restrictions it started with (here the first row's cells
        /// without one wrong digit each), and sound links.
        #[test]
        fn a_caught_up_solver_has_exactly_the_wanted_pieces(
            seed in any::<u64>(),
            steps in prop::collection::vec(step(), 1..60),
        ) {
            let matrix = crate::cover::Matrix::new(&crate::model::Rules::from(Variant::Classic));
            let solution = Generator::over(matrix.problem(), Variant::Classic).full_grid(seed);
            let orbits = Symmetry::Rotational.orbits();
            let order: Vec<usize> = (0..orbits.len()).collect();
            let orbit_sets: Vec<Small> = orbits.iter().map(|orbit| Small::of(orbit)).collect();
            let shape = Shape::of_variant(Variant::Classic);
            let grid = FullGrid::new(&solution);
            let mut sets = Vec::new();
            let clues = Clues {
                shape,
                grid: &grid,
                marked: Small::EMPTY,
                orbits: &orbits,
                orbit_sets: &orbit_sets,
                order: &order,
                sets: &mut sets,
                given: Small::GRID81,
            };
            let mut solver = Solver::new(matrix.problem());
            for cell in 0..9 {
                let wrong = solution.get(cell) % 9 + 1;
                prop_assert!(solver.exclude(Matrix::option(cell, wrong)).unwrap());
            }
            let mut stack = Stack::default();
            stack.clear(&solver);
            for step in steps.into_iter().chain([Step::CatchUp]) {
                match step {
                    Step::Push(k) if !stack.wanted.contains(&k) => stack.push(k),
                    Step::Push(_) => {}
                    Step::Pop(n) => stack.pop(n.min(stack.wanted.len())),
                    Step::Search(cell) => {
                        has_solution_without(&mut solver, [solution.get(cell)], cell);
                    }
                    Step::CatchUp => {
                        stack.catch_up(&mut solver, &clues);
                        let mut forced: Vec<usize> = solver.forced().map(|o| o.index()).collect();
                        forced.sort_unstable();
                        let mut wanted: Vec<usize> = stack
                            .wanted
                            .iter()
                            .flat_map(|&k| clues.group(k).iter().map(|&c| Matrix::option(c, solution.get(c))))
                            .map(|o| o.index())
                            .collect();
                        wanted.sort_unstable();
                        prop_assert_eq!(solver.restriction_count(), 9 + wanted.len());
                        prop_assert_eq!(forced, wanted);
                        prop_assert_eq!(solver.verify_links(), Ok(()));
                    }
                }
            }
        }
    }
}
