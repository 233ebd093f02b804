//! Matrices and solvers kept for the puzzles of a batch: a batch of puzzles of few rule sets
//! builds each matrix once, and each thread's solvers are made once and reused.

use std::sync::{Arc, OnceLock};

use super::encode::{Matrix, Search, SudokuSolver, Uniqueness};
use super::watch::{Watch, Watching};
use crate::model::puzzle::Puzzle;
use crate::model::rules::Rules;
use crate::model::variant::Variant;

/// The matrix of each 9x9 variant, made when a puzzle first needs it, shared by every thread
/// that answers a batch ([`Matrices::solvers`] gives each its own solvers over them).
///
/// ```
/// use dlx_sudoku::{Uniqueness, Matrices, Records};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let text = "\
/// ..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..
/// ";
/// let matrices = Matrices::new();
/// let mut solvers = matrices.solvers(); // one per thread
/// for record in Records::new(text.as_bytes()) {
///     let puzzle = record?.puzzle?;
///     let verdict = solvers.with(&puzzle, |solver| solver.check_unique(&puzzle))?;
///     assert!(matches!(verdict, Uniqueness::Unique(_)));
/// }
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Matrices([OnceLock<Matrix>; Variant::COUNT]);

impl Default for Matrices {
    fn default() -> Self {
        Matrices::new()
    }
}

impl Matrices {
    /// No matrix yet: each is built when a puzzle first needs it.
    pub fn new() -> Self {
        Matrices([const { OnceLock::new() }; Variant::COUNT])
    }

    /// The matrix of a variant's rules (the even-cell variant's is the classic one: its marks
    /// are each puzzle's).
    pub fn get(&self, variant: Variant) -> &Matrix {
        let variant = if variant == Variant::Even { Variant::Classic } else { variant };
        self.0[variant.index()].get_or_init(|| Matrix::new(&Rules::from(variant)))
    }

    /// Solvers over these matrices, for one thread.
    pub fn solvers(&self) -> Solvers<'_> {
        Solvers {
            matrices: self,
            solvers: [const { None }; Variant::COUNT],
            other: None,
            watching: None,
            search: Search::Auto,
            added: None,
        }
    }
}

/// One thread's solvers for puzzles of any rules: one per 9x9 variant over the shared
/// [`Matrices`], each made when first needed, and one over the matrix of the last puzzle of
/// other rules, kept while the next puzzles share those rules (a batch of jigsaw or killer
/// puzzles, whose regions and cages differ from one to the next, builds one matrix a puzzle).
#[derive(Debug)]
pub struct Solvers<'m> {
    matrices: &'m Matrices,
    solvers: [Option<SudokuSolver<'m>>; Variant::COUNT],
    other: Option<Matrix>,
    pub(crate) watching: Option<Watching>,
    search: Search,
    /// The last rules a variant's constraints were added to, the variant, and the rules it made:
    /// the next puzzle of the same rules gets them without a copy (a batch of one rule set
    /// shares its rules).
    added: Option<(Arc<Rules>, Variant, Arc<Rules>)>,
}

impl<'m> Solvers<'m> {
    /// Has the counts that [`answer`](Self::answer) runs past [`LONG_COUNT_NODES`] nodes told
    /// to `watch`, and counted on up to `threads` threads (see the `watch` module): a caller
    /// that shows progress sets it; without it every count runs on the calling thread alone.
    ///
    /// [`LONG_COUNT_NODES`]: super::watch::LONG_COUNT_NODES
    pub fn watch(&mut self, watch: Arc<dyn Watch>, threads: usize) {
        self.watching =
            Some(Watching { watch, threads: threads.max(1), long: super::watch::LONG_COUNT_NODES });
    }

    /// A record's puzzle with the constraints of `variant` added to its rules
    /// ([`Record::puzzle_with`](crate::Record::puzzle_with)), made once for a batch's rules.
    pub(crate) fn with_variant(&mut self, mut puzzle: Puzzle, variant: Option<Variant>) -> Puzzle {
        let Some(variant) = variant else { return puzzle };
        match &self.added {
            Some((base, v, added)) if *v == variant && Arc::ptr_eq(base, puzzle.shared_rules()) => {
                puzzle.set_shared_rules(Arc::clone(added));
                puzzle
            }
            _ => {
                let base = Arc::clone(puzzle.shared_rules());
                let puzzle = puzzle.with_variant(Some(variant));
                self.added = Some((base, variant, Arc::clone(puzzle.shared_rules())));
                puzzle
            }
        }
    }

    /// Chooses the search of every solver these hand out (see [`Search`]).
    pub fn set_search(&mut self, search: Search) {
        self.search = search;
        self.solvers.iter_mut().flatten().for_each(|s| s.set_search(search));
    }

    /// The solver of a variant's puzzles.
    pub fn of_variant(&mut self, variant: Variant) -> &mut SudokuSolver<'m> {
        let variant = if variant == Variant::Even { Variant::Classic } else { variant };
        let matrices = self.matrices;
        let search = self.search;
        self.solvers[variant.index()].get_or_insert_with(|| {
            let mut solver = matrices.get(variant).solver();
            solver.set_search(search);
            solver
        })
    }

    /// Runs `f` with a solver for the puzzle's rules: its variant's (even and odd marks aside,
    /// which each puzzle applies), or one over the last matrix of other rules when it serves
    /// them, else over a new one (whose rules must be valid: see [`Rules::validate`]).
    pub fn with<R>(&mut self, puzzle: &Puzzle, f: impl FnOnce(&mut SudokuSolver<'_>) -> R) -> R {
        let rules = puzzle.rules();
        if let Some(variant) = rules.variant() {
            return f(self.of_variant(variant));
        }
        if self.other.as_ref().is_none_or(|m| !m.fits(rules)) {
            self.other = Some(Matrix::new(rules));
        }
        let mut solver = self.other.as_ref().expect("made above").solver();
        solver.set_search(self.search);
        f(&mut solver)
    }

    /// For a classic puzzle with several solutions, a variant of units alone (diagonal,
    /// windoku) whose rules give it exactly one, when there is one: a hint that it was meant as
    /// one. Variants with forbidden moves are not tried: a search of a sparse grid under them can
    /// take millions of nodes, too many for a hint.
    pub fn unique_as(&mut self, puzzle: &Puzzle) -> Option<Variant> {
        if puzzle.rules().variant() != Some(Variant::Classic) {
            return None;
        }
        let candidates = Variant::ALL.into_iter().filter(|&v| v != Variant::Classic && !v.has_even_cells());
        candidates.filter(|v| v.forbidden_moves().is_empty()).find(|&v| {
            let Ok(other) = Puzzle::with_cells(Rules::from(v), puzzle.cells().to_vec()) else { return false };
            other.check().is_ok()
                && matches!(self.of_variant(v).check_unique(&other), Ok(Uniqueness::Unique(_)))
        })
    }
}
