//! `dlx.Solver`: searches of a problem, with their settings, each run off the GIL (see `wait`).
//!
//! A solver holds settings, not a search: each call makes the engine's solver for the problem
//! (a copy of its links, linear in its size), runs it, and keeps its figures in `stats`. The
//! lazy iterator of `solutions()` runs its search on a thread of its own that hands the solutions
//! over one by one, and is cancelled when the iterator is dropped.

use std::ops::ControlFlow;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

use std::time::Instant;

use dlx_engine::{
    Branching, Budget, CancelFlag, Count, Counting, Interrupted, Memo, OptionId, ParallelSolver, Problem,
    Progress, SampleError, Shard, Solver, Split, Stats, StopReason, Subtree, TieBreak, ZddError,
};
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::count::PyCount;
use crate::problem::PyProblem;
use crate::wait::{TICK, interruptible, watched};

/// The figures of the last search: nodes, guesses, updates, solutions and cleansings.
#[pyclass(name = "Stats", module = "dlx", frozen, get_all)]
#[derive(Clone, Default)]
pub(crate) struct PyStats {
    /// Search-tree nodes: options tried.
    nodes: u64,
    /// Nodes that were guesses (the item had more than one option).
    guesses: u64,
    /// List removals (Knuth's updates).
    updates: u64,
    /// Solutions found (exact however many: past 2^128 with the memo).
    solutions: PyCount,
    /// Knuth's cleansings (problems with colors).
    cleansings: u64,
}

impl From<Stats> for PyStats {
    fn from(s: Stats) -> Self {
        PyStats {
            nodes: s.nodes,
            guesses: s.guesses,
            updates: s.updates,
            solutions: PyCount(s.solutions),
            cleansings: s.cleansings,
        }
    }
}

#[pymethods]
impl PyStats {
    fn __repr__(&self) -> String {
        format!(
            "Stats(nodes={}, guesses={}, updates={}, solutions={}, cleansings={})",
            self.nodes, self.guesses, self.updates, self.solutions, self.cleansings
        )
    }
}

/// What a search is asked to do besides its problem.
#[derive(Clone, Default)]
struct Settings {
    seed: Option<u64>,
    tie_break: TieBreak,
    branch: Branching,
    budget: Option<u64>,
    force: Vec<OptionId>,
    exclude: Vec<OptionId>,
    shard: Option<Shard>,
    threads: Option<usize>,
    memo: Memo,
}

impl Settings {
    /// The engine's parallel solver of `problem` with these settings (no forced or excluded
    /// options: it takes none) and `cancel`.
    fn parallel<'p>(&self, problem: &'p Problem, cancel: &CancelFlag) -> ParallelSolver<'p> {
        let mut solver = ParallelSolver::new(problem);
        solver.set_threads(self.threads);
        solver.set_shard(self.shard);
        solver.set_tie_break(self.tie_break);
        solver.set_branching(self.branch);
        solver.set_budget(Budget { nodes: self.budget, updates: None });
        solver.set_cancel_flag(Some(cancel.clone()));
        solver.set_memo(self.memo);
        solver
    }

    /// The engine's solver of `problem` with these settings and `cancel`.
    fn solver<'p>(&self, problem: &'p Problem, cancel: &CancelFlag) -> Result<Solver<'p>, String> {
        let mut solver = Solver::new(problem);
        solver.set_seed(self.seed);
        solver.set_tie_break(self.tie_break);
        solver.set_branching(self.branch);
        solver.set_budget(Budget { nodes: self.budget, updates: None });
        solver.set_cancel_flag(Some(cancel.clone()));
        solver.set_memo(self.memo);
        for &option in &self.force {
            solver.force(option).map_err(|e| format!("force: {e}"))?;
        }
        for &option in &self.exclude {
            solver.exclude(option).map_err(|e| format!("exclude: {e}"))?;
        }
        Ok(solver)
    }
}

/// A search's stop as Python sees it: a budget spent raises `dlx.Interrupted`; a cancellation
/// was Ctrl-C, whose `KeyboardInterrupt` the caller raises.
fn stopped(e: Interrupted) -> PyErr {
    match e.reason {
        StopReason::Budget => crate::Interrupted::new_err(format!(
            "the budget ran out after {} solution{}: the search did not finish",
            e.solutions,
            if e.solutions == 1 { "" } else { "s" }
        )),
        StopReason::Cancelled => PyKeyboardInterrupt::new_err("the search was cancelled"),
        _ => crate::Interrupted::new_err(e.to_string()),
    }
}

/// Searches of a problem: `first()`, `count()`, `solutions()`, with their settings.
///
/// `seed` breaks ties between items at random (reproducibly); `tie_break` is `"earliest"` or
/// `"last-conflict"`; `branch` is the rule that picks the item each node branches on: `"mrv"`
/// (the default: the fewest options), `"sharp"` (Knuth's `#` items first), `"wdeg"` (dom/wdeg)
/// or `"frb"` (failure-rate branching), the same solutions and counts under each; `budget`
/// stops a search after that many nodes (raising `dlx.Interrupted`); `force` and `exclude` are
/// option numbers every solution takes or leaves; `shard=(k, n)` makes
/// `count()` count part `k` of `n`; `threads` is `count()`'s default; `memo` is `"auto"` (the
/// default), `"always"` or `"never"`: whether `count()` remembers the counts of subproblems met
/// again (tilings count so in seconds where visiting every solution would take centuries; the
/// engine's `Solver::set_memo` says which problems it takes). Each search releases the GIL,
/// and Ctrl-C stops it (`KeyboardInterrupt`) at the wait's next look for signals, the solver
/// still usable. Searches of one solver from several Python threads run side by side, each on a
/// copy of the links of its own; `stats` are those of the search that ended last.
#[pyclass(name = "Solver", module = "dlx")]
pub(crate) struct PySolver {
    problem: Py<PyProblem>,
    settings: Settings,
    /// The figures of the search that ended last, whichever call ran it (the iterator of
    /// `solutions()` writes them here too when its search ends).
    stats: Arc<Mutex<PyStats>>,
    /// The cut into pieces, once `pieces` or `count_pieces` made it.
    cut: Mutex<Option<Arc<Split>>>,
    /// Where the pieces' counts run and whether they take the memo, once the first
    /// `count_pieces` chose (by probes of the problem, the same on every machine): the later
    /// calls, which may count a few small pieces each, do not probe again.
    chosen: Mutex<Option<(Counting, Memo)>>,
}

#[pymethods]
impl PySolver {
    /// Solver(problem, *, seed=None, tie_break=None, branch=None, budget=None, force=(),
    /// exclude=(), shard=None, threads=None, memo=None)
    #[new]
    #[pyo3(signature = (problem, *, seed = None, tie_break = None, branch = None, budget = None, force = None, exclude = None, shard = None, threads = None, memo = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        problem: Py<PyProblem>,
        seed: Option<u64>,
        tie_break: Option<&str>,
        branch: Option<&str>,
        budget: Option<u64>,
        force: Option<&Bound<'_, PyAny>>,
        exclude: Option<&Bound<'_, PyAny>>,
        shard: Option<(u32, u32)>,
        threads: Option<usize>,
        memo: Option<&str>,
    ) -> PyResult<Self> {
        let memo = match memo {
            None => Memo::Auto,
            Some(name) => Memo::ALL.into_iter().find(|m| m.name() == name).ok_or_else(|| {
                PyValueError::new_err(format!("memo={name:?}: it is \"auto\", \"always\" or \"never\""))
            })?,
        };
        let tie_break = match tie_break {
            Some(name) => name.parse::<TieBreak>().map_err(|e| PyValueError::new_err(e.to_string()))?,
            None => TieBreak::default(),
        };
        let branch = match branch {
            Some(name) => name.parse::<Branching>().map_err(|e| PyValueError::new_err(e.to_string()))?,
            None => Branching::default(),
        };
        if branch != Branching::Mrv && (tie_break != TieBreak::Earliest || memo == Memo::Always) {
            return Err(PyValueError::new_err(format!(
                "branch={:?} cannot go with tie_break={:?} or memo=\"always\": those belong to \"mrv\"",
                branch.name(),
                tie_break.name()
            )));
        }
        let shard = shard
            .map(|(k, n)| Shard::new(k, n).map_err(|e| PyValueError::new_err(e.to_string())))
            .transpose()?;
        if threads == Some(0) {
            return Err(PyValueError::new_err("threads must be at least 1"));
        }
        let options = |given: Option<&Bound<'_, PyAny>>| -> PyResult<Vec<OptionId>> {
            let Some(given) = given else { return Ok(Vec::new()) };
            let numbers = problem.get().option_numbers(given)?;
            Ok(numbers.into_iter().map(|k| OptionId::new(k).expect("an option of the problem")).collect())
        };
        let settings = Settings {
            seed,
            tie_break,
            branch,
            budget,
            force: options(force)?,
            exclude: options(exclude)?,
            shard,
            threads,
            memo,
        };
        if (!settings.force.is_empty() || !settings.exclude.is_empty()) && settings.shard.is_some() {
            return Err(PyValueError::new_err("force= and exclude= search on one thread: no shard"));
        }
        // The settings are checked once here (forced options that conflict raise now).
        settings.solver(&problem.get().problem, &CancelFlag::new()).map_err(PyValueError::new_err)?;
        Ok(PySolver {
            problem,
            settings,
            stats: Arc::new(Mutex::new(PyStats::default())),
            cut: Mutex::new(None),
            chosen: Mutex::new(None),
        })
    }

    /// The first solution (a list of option numbers, or of the options as given with
    /// `labels=True`), or None.
    #[pyo3(signature = (*, labels = false))]
    fn first(&self, py: Python<'_>, labels: bool) -> PyResult<Option<Py<PyList>>> {
        self.unsharded("first")?;
        match self.on_one_solver(py, |solver| solver.first())?.map_err(stopped)? {
            Some(options) => Ok(Some(self.listed(py, options.iter().map(|o| o.index()), labels)?)),
            None => Ok(None),
        }
    }

    /// The `k` solutions of least total cost (the sum of their options' costs, `Problem(...,
    /// costs=)` or `|n` in a `.dlx` option), cheapest first: a list of `(cost, solution)`, each
    /// solution a list of option numbers (or of the options as given with `labels=True`). Among
    /// equal costs, those found first. Every solution is visited (no bound prunes yet).
    #[pyo3(signature = (k = 1, *, labels = false))]
    fn best(&self, py: Python<'_>, k: usize, labels: bool) -> PyResult<Py<PyList>> {
        self.unsharded("best")?;
        if self.settings.branch != Branching::Mrv {
            return Err(PyValueError::new_err(format!(
                "best() searches with DLX5's own choice of item, not branch={:?}",
                self.settings.branch.name()
            )));
        }
        let found = self.on_one_solver(py, move |solver| solver.best(k))?.map_err(stopped)?;
        let list = PyList::empty(py);
        for (cost, options) in found {
            let solution = self.listed(py, options.iter().map(|o| o.index()), labels)?;
            list.append((cost, solution))?;
        }
        Ok(list.unbind())
    }

    /// `n` solutions drawn uniformly at random (each solution equally likely, exactly; each draw
    /// independent, so a solution may come out twice), the same for the same `seed`; an empty
    /// list when there is no solution. Each is a list of option numbers (or of the options as
    /// given with `labels=True`). The draw goes by counts, the memo's where it pays. Raises
    /// ValueError for a problem with multiplicities.
    #[pyo3(signature = (n, *, seed = 0, labels = false))]
    fn sample(&self, py: Python<'_>, n: usize, seed: u64, labels: bool) -> PyResult<Py<PyList>> {
        self.unsharded("sample")?;
        let drawn = match self.on_one_solver(py, move |solver| solver.sample(n, seed))? {
            Ok(drawn) => drawn,
            Err(SampleError::Interrupted(e)) => return Err(stopped(e)),
            Err(e @ SampleError::Multiplicities) => return Err(PyValueError::new_err(e.to_string())),
        };
        let list = PyList::empty(py);
        for options in drawn {
            list.append(self.listed(py, options.iter().map(|o| o.index()), labels)?)?;
        }
        Ok(list.unbind())
    }

    /// The ZDD of all solutions, as the text of Knuth's ZDDREAD programs (as `dlx xc --zdd`
    /// writes it), with the number of solutions of each size: `(text, {size: count})`. Made by
    /// the memo on one thread; ValueError for a problem it does not take (multiplicities, more
    /// than 4,096 options or 1,024 items, a seed).
    fn zdd(&self, py: Python<'_>) -> PyResult<(String, std::collections::BTreeMap<usize, PyCount>)> {
        self.unsharded("zdd")?;
        let zdd = match self.on_one_solver(py, |solver| solver.zdd())? {
            Ok(zdd) => zdd,
            Err(ZddError::Interrupted(e)) => return Err(stopped(e)),
            Err(e @ ZddError::NotOnBitSets) => return Err(PyValueError::new_err(e.to_string())),
        };
        let mut text = Vec::new();
        zdd.write_text(&mut text).expect("writing to memory");
        let sizes = zdd
            .counts_by_size()
            .into_iter()
            .enumerate()
            .filter(|(_, n)| !n.is_zero())
            .map(|(size, n)| (size, PyCount(n)))
            .collect();
        Ok((String::from_utf8(text).expect("the text is ASCII"), sizes))
    }

    /// The number of solutions, or `limit` when there are at least that many; on `threads`
    /// threads (all cores when None and the problem is large enough to gain). A count to the end
    /// takes the memo where the `memo` setting chooses it, exactly however large.
    ///
    /// `progress`, a callable, is called about every `every` seconds while the count runs (from
    /// the calling thread, the GIL held) with a dict: `fraction` (Knuth's estimate of the share
    /// of the search tree done), `solutions` and `nodes` so far, `seconds` since the start, and
    /// `left` (the seconds left at the pace so far, or None before the first share is done); and
    /// once more when the count is done. An exception it raises stops the count and is raised, as
    /// Ctrl-C's is.
    #[pyo3(signature = (limit = None, threads = None, *, progress = None, every = 1.0))]
    fn count(
        &self,
        py: Python<'_>,
        limit: Option<u64>,
        threads: Option<usize>,
        progress: Option<Py<PyAny>>,
        every: f64,
    ) -> PyResult<PyCount> {
        if limit == Some(0) {
            return Err(PyValueError::new_err("limit must be at least 1"));
        }
        if threads == Some(0) {
            return Err(PyValueError::new_err("threads must be at least 1"));
        }
        let threads = threads.or(self.settings.threads);
        let restricted = !self.settings.force.is_empty() || !self.settings.exclude.is_empty();
        if restricted && threads.is_some_and(|t| t > 1) {
            return Err(PyValueError::new_err(
                "force= and exclude= count on one thread: give threads=1 or none",
            ));
        }
        let problem = Arc::clone(&self.problem.get().problem);
        let settings = self.settings.clone();
        let flag = CancelFlag::new();
        let cancel = flag.clone();
        if progress.is_some() && restricted {
            return Err(PyValueError::new_err(
                "progress= measures a count shared out in pieces: not with force= or exclude=",
            ));
        }
        if !(every.is_finite() && every > 0.0) {
            return Err(PyValueError::new_err(format!("every={every}: give a number of seconds above 0")));
        }
        // The share of the tree done is measured by pieces: a count with progress is cut in
        // them, even on one thread.
        let parallel =
            !restricted && (threads != Some(1) || self.settings.shard.is_some() || progress.is_some());
        let shown = progress.as_ref().map(|_| Progress::new());
        let measured = shown.clone();
        let start = Instant::now();
        let mut last = start;
        let tick = |py: Python<'_>| -> PyResult<()> {
            let (Some(callback), Some(shown)) = (&progress, &shown) else { return Ok(()) };
            if last.elapsed().as_secs_f64() < every {
                return Ok(());
            }
            last = Instant::now();
            callback.call1(py, (progress_dict(py, shown, start.elapsed().as_secs_f64())?,))?;
            Ok(())
        };
        let (counted, stats) = watched(
            py,
            &flag,
            move || {
                if parallel {
                    let mut solver = settings.parallel(&problem, &cancel);
                    solver.set_progress(measured);
                    solver.set_threads(threads);
                    let counted = match limit {
                        None => solver.count_exact(),
                        Some(limit) => solver.count_up_to(limit).map(Count::from),
                    };
                    (counted, solver.stats())
                } else {
                    let mut solver = settings.solver(&problem, &cancel).expect("checked when made");
                    let counted = match limit {
                        None => solver.count_exact(),
                        Some(limit) => solver.count_up_to(limit).map(Count::from),
                    };
                    (counted, solver.stats())
                }
            },
            tick,
        )?;
        self.set_stats(stats);
        if let (Some(callback), Some(shown), Ok(_)) = (&progress, &shown, &counted) {
            // The last report: the whole tree done.
            callback.call1(py, (progress_dict(py, shown, start.elapsed().as_secs_f64())?,))?;
        }
        counted.map(PyCount).map_err(stopped)
    }

    /// Knuth's estimate of the search a count would make, from `paths` random paths down its
    /// tree (the same for the same `seed`): a dict of `nodes` and `solutions`, means over the
    /// paths, telling orders of magnitude (an hour's count from a year's) before one starts.
    /// None for a problem with bounds (multiplicities).
    #[pyo3(signature = (paths = 1000, *, seed = 0))]
    fn estimate<'py>(&self, py: Python<'py>, paths: u32, seed: u64) -> PyResult<Option<Bound<'py, PyDict>>> {
        if paths == 0 {
            return Err(PyValueError::new_err("paths must be at least 1"));
        }
        let Some(estimate) = self.on_one_solver(py, move |solver| solver.estimate(paths, seed))? else {
            return Ok(None);
        };
        let dict = PyDict::new(py);
        dict.set_item("nodes", estimate.nodes)?;
        dict.set_item("solutions", estimate.solutions)?;
        Ok(Some(dict))
    }

    /// A lazy iterator of the solutions, each a list of option numbers (or the options as given
    /// with `labels=True`). The search runs as the iterator is read, and stops when it is dropped.
    #[pyo3(signature = (*, labels = false))]
    fn solutions(&self, py: Python<'_>, labels: bool) -> PyResult<PySolutions> {
        self.unsharded("solutions")?;
        let problem = Arc::clone(&self.problem.get().problem);
        let settings = self.settings.clone();
        let cancel = CancelFlag::new();
        let (send, receive) = sync_channel::<Message>(64);
        let flag = cancel.clone();
        std::thread::spawn(move || search(&problem, &settings, &flag, &send));
        Ok(PySolutions {
            problem: self.problem.clone_ref(py),
            receive: Mutex::new(Some(receive)),
            cancel,
            labels,
            stats: PyStats::default(),
            solver_stats: Arc::clone(&self.stats),
            held: None,
        })
    }

    /// The figures of the last search.
    #[getter]
    fn stats(&self) -> PyStats {
        self.stats.lock().expect("not poisoned").clone()
    }

    fn __repr__(&self) -> String {
        format!("<dlx.Solver of {}>", self.problem.get().__repr__())
    }

    /// The number of pieces a count of this solver's problem (or shard) is cut into for a
    /// cluster: at least 4,096 (or as many as the tree has), the same on every machine and run,
    /// so that each piece, named by its position, can be counted anywhere (`count_pieces`). The
    /// cut is made once per solver object.
    fn pieces(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.cut(py)?.subtrees.len())
    }

    /// The share of the tree each piece stands for, by Knuth's estimate (the product, over the
    /// levels above the piece, of one over the ways the search could go there): a guess at each
    /// piece's size, made without searching it, for handing the heaviest out first. They add up
    /// to at most 1 (the dead ends above the cut take the rest).
    fn piece_weights(&self, py: Python<'_>) -> PyResult<Vec<f64>> {
        Ok(self.cut(py)?.subtrees.iter().map(Subtree::weight).collect())
    }

    /// count_pieces(pieces, threads=None): the number of solutions in the pieces at these
    /// positions (`range(pieces())`), exactly; the pieces of a count counted in any grouping,
    /// on any machines, add up to the count. On `threads` threads (all cores when None).
    #[pyo3(signature = (pieces, threads = None))]
    fn count_pieces(&self, py: Python<'_>, pieces: Vec<usize>, threads: Option<usize>) -> PyResult<PyCount> {
        let cut = self.cut(py)?;
        if let Some(&bad) = pieces.iter().find(|&&k| k >= cut.subtrees.len()) {
            return Err(PyValueError::new_err(format!(
                "piece {bad} does not exist: there are {} pieces",
                cut.subtrees.len()
            )));
        }
        if threads == Some(0) {
            return Err(PyValueError::new_err("threads must be at least 1"));
        }
        let wanted: std::collections::HashSet<usize> = pieces.into_iter().collect();
        let problem = Arc::clone(&self.problem.get().problem);
        let settings = self.settings.clone();
        let cancel = CancelFlag::new();
        let flag = cancel.clone();
        let chosen = *self.chosen.lock().expect("not poisoned");
        let (counted, stats, choice) = crate::wait::interruptible(py, &cancel, move || {
            let mut parallel = settings.parallel(&problem, &flag);
            parallel.set_threads(threads.or(settings.threads));
            if let Some((counting, memo)) = chosen {
                parallel.set_counting(counting);
                parallel.set_memo(memo);
            }
            let counted = parallel.count_subtrees(&cut.subtrees, &|k| !wanted.contains(&k), &|_, _| {});
            let memo = match settings.memo {
                Memo::Auto if parallel.memo_stats().is_some() => Memo::Always,
                Memo::Auto => Memo::Never,
                memo => memo,
            };
            let choice = Some((parallel.counting_chosen().unwrap_or(Counting::Auto), memo));
            (counted, parallel.stats(), choice)
        })?;
        if counted.is_ok() && chosen.is_none() {
            *self.chosen.lock().expect("not poisoned") = choice;
        }
        self.set_stats(stats);
        Ok(PyCount(counted.map_err(stopped)?))
    }

    /// Pickling: the problem (see `Problem.__reduce__`) and the settings, as the constructor
    /// takes them; the figures of the last search are not kept.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let restore = py.get_type::<PySolver>().getattr("_restore")?;
        let s = &self.settings;
        let numbers = |options: &[OptionId]| options.iter().map(|o| o.index()).collect::<Vec<_>>();
        let args = (
            self.problem.clone_ref(py),
            s.seed,
            s.tie_break.name(),
            s.branch.name(),
            s.budget,
            numbers(&s.force),
            numbers(&s.exclude),
            s.shard.map(|shard| (shard.index(), shard.count())),
            s.threads,
            s.memo.name(),
        );
        Ok((restore, args.into_pyobject(py)?))
    }

    /// The inverse of `__reduce__`.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    fn _restore(
        problem: Py<PyProblem>,
        seed: Option<u64>,
        tie_break: &str,
        branch: &str,
        budget: Option<u64>,
        force: &Bound<'_, PyAny>,
        exclude: &Bound<'_, PyAny>,
        shard: Option<(u32, u32)>,
        threads: Option<usize>,
        memo: &str,
    ) -> PyResult<Self> {
        PySolver::new(
            problem,
            seed,
            Some(tie_break),
            Some(branch),
            budget,
            Some(force),
            Some(exclude),
            shard,
            threads,
            Some(memo),
        )
    }
}

impl PySolver {
    /// Runs `search` on one solver of these settings, on a thread of its own that Ctrl-C cancels
    /// (see `interruptible`), and keeps its figures.
    fn on_one_solver<T: Send>(
        &self,
        py: Python<'_>,
        search: impl FnOnce(&mut Solver<'_>) -> T + Send,
    ) -> PyResult<T> {
        let problem = Arc::clone(&self.problem.get().problem);
        let settings = self.settings.clone();
        // A flag of this search's own: searches from other threads go on when it is cancelled.
        let flag = CancelFlag::new();
        let cancel = flag.clone();
        let (value, stats) = interruptible(py, &flag, move || {
            let mut solver = settings.solver(&problem, &cancel).expect("checked when made");
            let value = search(&mut solver);
            (value, solver.stats())
        })?;
        self.set_stats(stats);
        Ok(value)
    }

    /// Keeps the figures of the search that just ended.
    fn set_stats(&self, stats: Stats) {
        *self.stats.lock().expect("not poisoned") = stats.into();
    }

    /// The cut of `pieces` and `count_pieces`, made once: refused with forced or excluded
    /// options, which count on one thread.
    fn cut(&self, py: Python<'_>) -> PyResult<Arc<Split>> {
        if !self.settings.force.is_empty() || !self.settings.exclude.is_empty() {
            return Err(PyValueError::new_err("force= and exclude= count on one thread: no pieces"));
        }
        if let Some(cut) = self.cut.lock().expect("not poisoned").as_ref() {
            return Ok(Arc::clone(cut));
        }
        let problem = Arc::clone(&self.problem.get().problem);
        let settings = self.settings.clone();
        let cancel = CancelFlag::new();
        let flag = cancel.clone();
        let cut = crate::wait::interruptible(py, &cancel, move || {
            settings.parallel(&problem, &flag).resumable_cut()
        })?
        .map_err(stopped)?;
        let cut = Arc::new(cut);
        *self.cut.lock().expect("not poisoned") = Some(Arc::clone(&cut));
        Ok(cut)
    }

    /// An error for a shard given to a search that lists solutions: shards are parts of a count.
    fn unsharded(&self, what: &str) -> PyResult<()> {
        match self.settings.shard {
            Some(_) => Err(PyValueError::new_err(format!("shard= is for count(), not {what}()"))),
            None => Ok(()),
        }
    }

    /// A solution as a Python list: option numbers, or the options as given.
    fn listed(
        &self,
        py: Python<'_>,
        options: impl Iterator<Item = usize>,
        labels: bool,
    ) -> PyResult<Py<PyList>> {
        listed(py, self.problem.get(), options, labels)
    }
}

fn listed(
    py: Python<'_>,
    problem: &PyProblem,
    options: impl Iterator<Item = usize>,
    labels: bool,
) -> PyResult<Py<PyList>> {
    let list = PyList::empty(py);
    for k in options {
        if labels {
            list.append(problem.options[k].bind(py))?;
        } else {
            list.append(k)?;
        }
    }
    Ok(list.unbind())
}

/// What `count(progress=...)` is called with (see there).
fn progress_dict<'py>(py: Python<'py>, progress: &Progress, seconds: f64) -> PyResult<Bound<'py, PyDict>> {
    let fraction = progress.fraction();
    let dict = PyDict::new(py);
    dict.set_item("fraction", fraction)?;
    dict.set_item("solutions", PyCount(progress.solutions()))?;
    dict.set_item("nodes", progress.nodes())?;
    dict.set_item("seconds", seconds)?;
    let left = (fraction > 0.0).then(|| seconds * (1.0 - fraction) / fraction);
    dict.set_item("left", left)?;
    Ok(dict)
}

/// What a search thread hands the iterator.
enum Message {
    Solution(Vec<usize>),
    Done(Stats),
    Stopped(Interrupted, Stats),
}

/// The search of `solutions()`: each solution sent as found, then how it ended.
fn search(problem: &Problem, settings: &Settings, cancel: &CancelFlag, send: &SyncSender<Message>) {
    let Ok(mut solver) = settings.solver(problem, cancel) else { return };
    let visited = solver.for_each(|solution| {
        let options = solution.options().map(OptionId::index).collect();
        match send.send(Message::Solution(options)) {
            Ok(()) => ControlFlow::Continue(()),
            Err(_) => ControlFlow::Break(()),
        }
    });
    let stats = solver.stats();
    let _ = send.send(match visited {
        Ok(_) => Message::Done(stats),
        Err(e) => Message::Stopped(e, stats),
    });
}

/// The solutions of a problem, found as they are read.
#[pyclass(name = "Solutions", module = "dlx")]
pub(crate) struct PySolutions {
    problem: Py<PyProblem>,
    /// `None` once the search has ended.
    receive: Mutex<Option<Receiver<Message>>>,
    cancel: CancelFlag,
    labels: bool,
    stats: PyStats,
    /// The solver's figures, which the search's also become when it ends.
    solver_stats: Arc<Mutex<PyStats>>,
    /// A solution taken from the search whose handing out a signal interrupted: the next call
    /// returns it.
    held: Option<Vec<usize>>,
}

#[pymethods]
impl PySolutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyList>>> {
        // Read by `list()` or a loop in C, the iterator is all the Python that runs: it looks for
        // signals itself.
        py.check_signals()?;
        let options = match self.held.take() {
            Some(options) => options,
            None => match self.receive_next(py)? {
                Some(options) => options,
                None => return Ok(None),
            },
        };
        let list = listed(py, self.problem.get(), options.iter().copied(), self.labels)?;
        // A signal that came while the solution was awaited is raised here, before the solution
        // is handed out (after, Python would raise it with the solution dropped): the solution is
        // held for the next call.
        if let Err(raised) = py.check_signals() {
            self.held = Some(options);
            return Err(raised);
        }
        Ok(Some(list))
    }

    /// The figures of the search, once it has ended.
    #[getter]
    fn stats(&self) -> PyStats {
        self.stats.clone()
    }

    /// Stops the search (as dropping the iterator does).
    fn close(&mut self) {
        self.cancel.cancel();
        self.held = None;
        self.receive.lock().expect("not poisoned").take();
    }
}

impl PySolutions {
    /// Keeps the figures of the search that has ended, here and as the solver's.
    fn ended(&mut self, stats: Stats) {
        self.stats = stats.into();
        *self.solver_stats.lock().expect("not poisoned") = self.stats.clone();
    }

    /// The next solution from the search thread; `None` when the search has ended.
    fn receive_next(&mut self, py: Python<'_>) -> PyResult<Option<Vec<usize>>> {
        loop {
            // The receiver leaves its lock while the GIL is let go, and comes back.
            let Some(receive) = self.receive.lock().expect("not poisoned").take() else { return Ok(None) };
            let (receive, message) = py.detach(move || {
                let message = receive.recv_timeout(TICK);
                (receive, message)
            });
            *self.receive.lock().expect("not poisoned") = Some(receive);
            match message {
                Ok(Message::Solution(options)) => return Ok(Some(options)),
                Ok(Message::Done(stats)) => {
                    self.ended(stats);
                    self.receive.lock().expect("not poisoned").take();
                    return Ok(None);
                }
                Ok(Message::Stopped(e, stats)) => {
                    self.ended(stats);
                    self.receive.lock().expect("not poisoned").take();
                    return Err(stopped(e));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.receive.lock().expect("not poisoned").take();
                    return Ok(None);
                }
                Err(RecvTimeoutError::Timeout) => py.check_signals()?,
            }
        }
    }
}

impl Drop for PySolutions {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}
