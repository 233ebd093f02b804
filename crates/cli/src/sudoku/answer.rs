//! One record answered: the task it is asked, and what came of it (`Answer`), on the library's
//! solvers of the thread.

use super::*;

/// What is asked of each puzzle.
#[derive(Debug, Clone, Copy)]
pub(super) enum Task {
    Solve { first: bool },
    Count { limit: Option<u64>, puzzles: bool },
    Rate { explain: bool },
    Encode,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Status {
    Unique,
    Multiple,
    None,
    Invalid,
    Solved,
    Counted,
    Rated,
    Encoded,
}

impl Status {
    pub(super) fn name(self) -> &'static str {
        match self {
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::None => "none",
            Status::Invalid => "invalid",
            Status::Solved => "solved",
            Status::Counted => "counted",
            Status::Rated => "rated",
            Status::Encoded => "encoded",
        }
    }
}

/// The answer for one record.
#[derive(Debug)]
pub(super) struct Answer {
    pub(super) line: usize,
    pub(super) format: Format,
    /// The puzzle, with the rules `--rules` or the input added to its own.
    pub(super) puzzle: Option<Puzzle>,
    pub(super) status: Status,
    pub(super) solution: Option<Puzzle>,
    /// A second solution, when the puzzle has several.
    pub(super) second: Option<Puzzle>,
    pub(super) count: Option<u64>,
    pub(super) rating: Option<RatingView>,
    pub(super) encoding: Option<String>,
    pub(super) error: Option<String>,
    /// Where the error is, when it is about one place: its line (which may be after the
    /// record's first) and column.
    pub(super) error_at: Option<(usize, Option<usize>)>,
    pub(super) nodes: u64,
    pub(super) guesses: u64,
    /// The solution given beside the puzzle, when there was one: `Ok` when it solves the puzzle,
    /// else why not.
    pub(super) given: Option<Result<(), String>>,
    /// Another variant as which the puzzle would be unique, when its variant was inferred and
    /// it has several solutions.
    pub(super) unique_as: Option<Variant>,
    /// The logical solution step by step (`rate --explain`).
    pub(super) steps: Vec<String>,
    /// The 9x9 variant a puzzle was answered as, when its rules are one (written beside it, so
    /// that it reads back so).
    pub(super) variant: Option<Variant>,
    /// Whether that variant was named (by `--rules` or the input), not inferred from the cells.
    pub(super) named: bool,
}

/// What a search found: its status, up to two solutions, and a count.
pub(super) type Found = (Status, Option<Puzzle>, Option<Puzzle>, Option<u64>);

impl Answer {
    /// Takes in what a search found (or why it failed) and its effort.
    pub(super) fn record(&mut self, result: Result<Found, String>, effort: dlx_sudoku::Effort) {
        match result {
            Ok((status, solution, second, count)) => {
                self.status = status;
                self.solution = solution;
                self.second = second;
                self.count = count;
            }
            Err(e) => self.error = Some(e),
        }
        self.nodes = effort.nodes;
        self.guesses = effort.guesses;
    }
}

/// Answers one record: every puzzle alike, whatever its size and rules.
pub(super) fn answer(
    solvers: &mut Solvers<'_>,
    record: &Record,
    variant: Option<Variant>,
    task: Task,
) -> Answer {
    let mut a = Answer {
        line: record.line,
        format: record.format,
        puzzle: None,
        status: Status::Invalid,
        solution: None,
        second: None,
        count: None,
        rating: None,
        encoding: None,
        error: None,
        error_at: None,
        nodes: 0,
        guesses: 0,
        given: None,
        unique_as: None,
        steps: Vec::new(),
        variant: None,
        named: false,
    };
    // The command line's --rules, else the input's (a `# variant:` line, a JSON field), adds
    // its constraints to the puzzle's own rules.
    let named = variant.or(record.variant);
    let grid = match record.puzzle_with(variant) {
        Ok(grid) => grid,
        Err(e) => {
            a.error = Some(e.kind.to_string());
            a.error_at = Some((e.line, e.column));
            return a;
        }
    };
    // A 9x9 variant's puzzle is written as one (its variant beside it).
    a.variant = grid.rules().variant_named(named);
    a.named = named.is_some() && a.variant.is_some();
    // A variant's rules are valid; the givens are checked by the solver, which names the rule
    // they break (`.dlx` output is checked here, as nothing is solved).
    let valid = match (a.variant, task) {
        (Some(_), Task::Encode) => grid.check().map_err(|e| e.to_string()),
        (Some(_), _) => Ok(()),
        (None, _) => grid
            .rules()
            .validate()
            .map_err(|e| e.to_string())
            .and_then(|()| grid.check().map_err(|e| e.to_string())),
    };
    if let Err(e) = valid {
        a.error = Some(e);
        a.puzzle = Some(grid);
        return a;
    }
    solvers.with(&grid, |solver| search(solver, &grid, record, task, &mut a));
    a.puzzle = Some(grid);
    if a.status == Status::Encoded || a.status == Status::Rated {
        return a;
    }
    let several = a.status == Status::Multiple || (a.status == Status::Counted && a.count > Some(1));
    // Only for 9x9 puzzles of inferred rules without even markers: another variant would drop
    // them.
    if let (true, None, Some(Variant::Classic), Some(grid)) = (several, named, a.variant, &a.puzzle) {
        a.unique_as = solvers.unique_as(grid);
    }
    a
}

/// Searches as the task asks, on the puzzle's solver, into the answer.
fn search(solver: &mut SudokuSolver<'_>, grid: &Puzzle, record: &Record, task: Task, a: &mut Answer) {
    if let Task::Encode = task {
        a.status = Status::Encoded;
        a.encoding = Some(solver.matrix().puzzle_to_dlx(grid));
        return;
    }
    // Ctrl-C stops the search: a large grid can take long.
    solver.set_cancel_flag(Some(report::cancel_flag().clone()));
    let result = match task {
        Task::Solve { first: true } => solver.first(grid).map(|s| match s {
            Some(s) => (Status::Solved, Some(s), None, None),
            None => (Status::None, None, None, None),
        }),
        Task::Solve { first: false } => solver.check_unique(grid).map(|u| match u {
            Uniqueness::Unique(s) => (Status::Unique, Some(s), None, None),
            Uniqueness::Multiple(s, t) => (Status::Multiple, Some(s), Some(t), None),
            Uniqueness::None => (Status::None, None, None, None),
        }),
        Task::Count { limit, .. } => {
            solver.count(grid, limit).map(|n| (Status::Counted, None, None, Some(n)))
        }
        Task::Rate { explain } => {
            match solver.rate(grid) {
                Ok(r) => {
                    a.status = Status::Rated;
                    a.count = Some(r.solutions);
                    if explain {
                        let (_, steps) = dlx_sudoku::explain(grid);
                        a.steps = steps.iter().map(|step| step.describe(grid)).collect();
                    }
                    a.rating = Some(RatingView {
                        level: r.logic.level(),
                        rating: r.logic.rating(),
                        hardest: r.logic.hardest_name(),
                        counts: r.logic.counts,
                        nodes: r.nodes,
                        guesses: r.guesses,
                        orders: r.orders,
                        solutions: r.solutions,
                        solved: r.logic.solved,
                    });
                }
                Err(e) => a.error = Some(e.to_string()),
            }
            if let Some(given) = &record.solution {
                a.given = Some(check_given(a, grid, given));
            }
            return;
        }
        Task::Encode => unreachable!("answered above"),
    };
    a.record(result.map_err(|e| e.to_string()), solver.effort());
    if let Some(given) = &record.solution {
        a.given = Some(check_given(a, grid, given));
    }
}

/// Whether a solution given beside a puzzle solves it (against the puzzle's rules, with what
/// `--rules` added); if not, why.
pub(super) fn check_given(a: &Answer, puzzle: &Puzzle, given: &Puzzle) -> Result<(), String> {
    if puzzle.is_solved_by(given) {
        return Ok(());
    }
    let solved = matches!(a.status, Status::Unique | Status::Solved | Status::Multiple);
    Err(match &a.solution {
        Some(ours) if given.is_full() && solved && ours.size() == given.size() => format!(
            "the solution given beside the puzzle is wrong: it differs from the solution in {}",
            differing_cells(given, ours)
        ),
        _ => format!(
            "the solution given beside the puzzle does not solve it as a {} puzzle",
            a.variant.map_or_else(|| puzzle.rules().describe(), |v| v.to_string())
        ),
    })
}
