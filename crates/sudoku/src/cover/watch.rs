//! Long counts: a count that outlasts a first budget of nodes (a sparse grid, whose solutions
//! may be beyond counting) is forecast by Knuth's estimate, then run again on the threads the
//! caller allows, with a [`Progress`] that a caller's [`Watch`] may show.
//!
//! A puzzle with few solutions ends within the budget, on one thread, as any count does; only a
//! count that goes on pays for the forecast (a few hundred random paths down its tree) and for
//! the problem of its own that the threads share (the puzzle in Knuth's format, read back).

use std::sync::Arc;
use std::time::Instant;

use dlx_engine::{Budget, Interrupted, ParallelSolver, Problem, Progress, StopReason};

use super::encode::{SolveError, SudokuSolver};
use crate::model::puzzle::Puzzle;

/// The nodes a count searches on one thread before it is a long count.
pub const LONG_COUNT_NODES: u64 = 1 << 20;

/// The random paths of a long count's forecast.
const PATHS: u32 = 1024;

/// A forecast this long or longer (a day, in seconds) is one to say before the count goes on.
const ASTRONOMICAL: f64 = 86_400.0;

/// What Knuth's estimate foresees for a long count (see `dlx_engine::Solver::estimate`): orders
/// of magnitude, not figures to rely on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Forecast {
    /// The solutions of the puzzle.
    pub solutions: f64,
    /// The nodes of the search, to the end or to the limit.
    pub nodes: f64,
    /// The seconds the search would take on one thread, at the pace of its first budget.
    pub seconds: f64,
}

impl Forecast {
    /// Whether the count would take a day or more: a caller should say so, and how to bound it.
    pub fn is_astronomical(&self) -> bool {
        self.seconds >= ASTRONOMICAL
    }
}

/// A count that outlasted its first budget, as a [`Watch`] is told of it.
#[derive(Debug)]
pub struct LongCount<'a> {
    /// The record's line.
    pub line: usize,
    /// The limit of the count, if any.
    pub limit: Option<u64>,
    /// The forecast (`None` where the estimate does not apply).
    pub forecast: Option<Forecast>,
    /// The count's progress as it goes: the share of the tree done, solutions and nodes so far.
    pub progress: &'a Arc<Progress>,
    /// The threads it runs on.
    pub threads: usize,
}

/// Told of the long counts of a [`Solvers`](super::Solvers) (see
/// [`Solvers::watch`](super::Solvers::watch)), from the thread that counts; both hooks do
/// nothing by default.
pub trait Watch: Send + Sync {
    /// A long count begins: its progress may be shown until [`count_done`](Self::count_done).
    fn long_count(&self, count: &LongCount<'_>) {
        let _ = count;
    }

    /// The long count of the record on `line` has ended (finished, or cut short).
    fn count_done(&self, line: usize) {
        let _ = line;
    }
}

/// Who watches the long counts, and on how many threads they run.
#[derive(Clone)]
pub(crate) struct Watching {
    pub(crate) watch: Arc<dyn Watch>,
    pub(crate) threads: usize,
    /// The nodes after which a count is long: [`LONG_COUNT_NODES`] (fewer in tests).
    pub(crate) long: u64,
}

impl std::fmt::Debug for Watching {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watching").field("threads", &self.threads).finish_non_exhaustive()
    }
}

impl SudokuSolver<'_> {
    /// [`count`](Self::count), which, past `watching.long` nodes, is forecast, told to
    /// `watching`'s watch and counted again on its threads.
    pub(crate) fn count_watched(
        &mut self,
        grid: &Puzzle,
        limit: Option<u64>,
        line: usize,
        watching: &Watching,
    ) -> Result<u64, SolveError> {
        let start = Instant::now();
        self.set_budget(Budget { nodes: Some(watching.long), updates: None });
        let first = self.count(grid, limit);
        self.set_budget(Budget::default());
        match first {
            Err(SolveError::Interrupted(Interrupted { reason: StopReason::Budget, .. })) => {}
            done => return done,
        }
        let pace = watching.long as f64 / start.elapsed().as_secs_f64().max(1e-9);
        // The forecast is the engine's, on the puzzle (the first count may have been the bit
        // sets').
        self.load(grid)?;
        let forecast = self.engine().estimate(PATHS, 0).map(|e| {
            // A limit below the solutions foreseen stops the search after that share of it.
            let share = limit.map_or(1.0, |l| (l as f64 / e.solutions).min(1.0));
            Forecast { solutions: e.solutions, nodes: e.nodes * share, seconds: e.nodes * share / pace }
        });
        let problem: Problem =
            self.matrix().puzzle_to_dlx(grid).parse().expect("the puzzle's problem reads back");
        let mut parallel = ParallelSolver::new(&problem);
        parallel.set_threads(Some(watching.threads));
        parallel.set_cancel_flag(self.cancel_flag().cloned());
        let progress = Progress::new();
        parallel.set_progress(Some(Arc::clone(&progress)));
        let threads = watching.threads;
        watching.watch.long_count(&LongCount { line, limit, forecast, progress: &progress, threads });
        let counted = match limit {
            Some(limit) => parallel.count_up_to(limit),
            None => parallel.count(),
        };
        watching.watch.count_done(line);
        self.set_effort(parallel.stats().into());
        Ok(counted?)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::{LongCount, Watch};
    use crate::{Defaults, Matrices, Records, Status, Task, parse_puzzle};

    /// What a watch was told: each long count's line, forecast solutions and threads, then the
    /// lines ended.
    #[derive(Default)]
    struct Told(Mutex<(Vec<Started>, Vec<usize>)>);

    /// A long count's line, forecast solutions and threads.
    type Started = (usize, f64, usize);

    impl Watch for Told {
        fn long_count(&self, count: &LongCount<'_>) {
            let forecast = count.forecast.expect("a plain problem is estimated").solutions;
            self.0.lock().unwrap().0.push((count.line, forecast, count.threads));
        }
        fn count_done(&self, line: usize) {
            self.0.lock().unwrap().1.push(line);
        }
    }

    /// A count past the budget is told with a forecast of the right order, runs on the threads
    /// given and counts what one thread counts; a short one is not told.
    #[test]
    fn long_counts_are_told_and_count_the_same() {
        // 22 givens, 8,811 solutions, about 15,000 nodes; then a puzzle with one solution.
        let text = "4.7......6.2.5........2.3.6......1.9.9......2.4.9......8.6.3.7......1.8.1......9.\n\
                    ..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..\n";
        let matrices = Matrices::new();
        let told = Arc::new(Told::default());
        let mut solvers = matrices.solvers();
        solvers.watch(told.clone(), 2);
        solvers.watching.as_mut().unwrap().long = 1_000;
        let task = Task::Count { limit: None, puzzles: false };
        let counts: Vec<_> = Records::new(text.as_bytes())
            .map(|r| solvers.answer(r.unwrap(), None, task, None))
            .map(|a| (a.status, a.count, a.nodes > 0))
            .collect();
        assert_eq!(counts, [(Status::Counted, Some(8_811), true), (Status::Counted, Some(1), true)]);
        let plain = parse_puzzle(text.lines().next().unwrap(), &Defaults::default()).unwrap();
        assert_eq!(matrices.solvers().with(&plain, |s| s.count(&plain, None)).unwrap(), 8_811);
        let (started, ended) = std::mem::take(&mut *told.0.lock().unwrap());
        assert_eq!(started.len(), 1, "{started:?}");
        let (line, solutions, threads) = started[0];
        assert_eq!((line, threads), (1, 2));
        assert!((8_811.0 / 30.0..8_811.0 * 30.0).contains(&solutions), "{solutions}");
        assert_eq!(ended, [1]);
    }
}
