//! The lazy iterator over a solver's solutions.

use std::fmt;

use crate::index::OptionId;

use super::{Interrupted, Solver, Stats, Step};

enum IterState {
    Fresh,
    Paused,
    Done,
}

/// A lazy iterator over the solutions of a [`Solver`]; see [`Solver::solutions`].
///
/// Each solution is its options, forced options first. When the search is cut short by its budget
/// or its cancel flag, the last item is `Err(Interrupted)` (and [`interrupted`](Self::interrupted)
/// says so too), so `collect::<Result<Vec<_>, _>>()` fails rather than return part of the answer:
///
/// ```
/// use dlx_engine::{Budget, ProblemBuilder, Solver};
/// let mut b = ProblemBuilder::new();
/// let (x, y) = (b.primary("x").unwrap(), b.primary("y").unwrap());
/// for _ in 0..3 {
///     b.option([x]).unwrap();
///     b.option([y]).unwrap();
/// }
/// let problem = b.build();
/// let mut solver = Solver::new(&problem);
/// assert_eq!(solver.solutions().collect::<Result<Vec<_>, _>>().unwrap().len(), 9);
/// solver.set_budget(Budget { nodes: Some(3), ..Budget::default() });
/// assert!(solver.solutions().collect::<Result<Vec<_>, _>>().is_err());
/// ```
pub struct Solutions<'s, 'p> {
    solver: &'s mut Solver<'p>,
    state: IterState,
    interrupted: Option<Interrupted>,
}

impl fmt::Debug for Solutions<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solutions").field("interrupted", &self.interrupted).finish_non_exhaustive()
    }
}

impl<'s, 'p> Solutions<'s, 'p> {
    /// A fresh iterator over `solver`'s solutions.
    pub(super) fn new(solver: &'s mut Solver<'p>) -> Self {
        Solutions { solver, state: IterState::Fresh, interrupted: None }
    }

    /// `Some` when the iterator ended because the search was cut short, not because every solution
    /// was seen.
    pub fn interrupted(&self) -> Option<Interrupted> {
        self.interrupted.clone()
    }

    /// The figures of the search so far.
    pub fn stats(&self) -> Stats {
        self.solver.stats.clone()
    }
}

impl Iterator for Solutions<'_, '_> {
    type Item = Result<Vec<OptionId>, Interrupted>;

    fn next(&mut self) -> Option<Result<Vec<OptionId>, Interrupted>> {
        let resume = match self.state {
            IterState::Fresh => {
                self.solver.start_run();
                false
            }
            IterState::Paused => true,
            IterState::Done => return None,
        };
        match self.solver.step(resume) {
            Step::Solution => {
                self.state = IterState::Paused;
                let problem = self.solver.problem;
                let nodes = self.solver.solution_nodes();
                Some(Ok(nodes.iter().map(|&n| problem.option_of_node(n)).collect()))
            }
            // (No cap is set outside `split`, so no frontier is met here.)
            Step::Exhausted | Step::Frontier => {
                self.state = IterState::Done;
                None
            }
            Step::Interrupted(reason) => {
                self.state = IterState::Done;
                self.solver.pending = true;
                let interrupted = Interrupted { reason, solutions: self.solver.stats.solutions.clone() };
                self.interrupted = Some(interrupted.clone());
                Some(Err(interrupted))
            }
        }
    }
}

impl Drop for Solutions<'_, '_> {
    fn drop(&mut self) {
        if let IterState::Paused = self.state {
            self.solver.pending = true;
        }
    }
}
