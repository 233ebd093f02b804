//! One record answered, as `dlx solve`, `count` and `rate` answer each: the task asked of it
//! ([`Task`]), the policy that decides what is checked before a search (the record read with the
//! rules asked for, a 9x9 variant's givens left to the solver, which names the rule they break,
//! other rules validated first), and what came of it ([`Answer`]): the status, solutions, count
//! or rating, the check of a solution given beside the puzzle, and for a classic puzzle with
//! several solutions, a variant as which it is unique.

use dlx_engine::CancelFlag;

use crate::cover::watch::Watching;

use crate::{Effort, Format, Puzzle, Rating, Record, Solvers, SudokuSolver, Technique, Uniqueness, Variant};

/// What is asked of each puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// Its solution: the first found (`first`), or checked to be unique.
    Solve {
        /// Whether the first solution found will do (no uniqueness check).
        first: bool,
    },
    /// Its number of solutions, counting no further than `limit`.
    Count {
        /// The most solutions counted.
        limit: Option<u64>,
        /// Whether the writer lists the solutions counted (`dlx count --puzzles`).
        puzzles: bool,
    },
    /// Its rating, and with `explain` the logical solution step by step.
    Rate {
        /// Whether the steps are described ([`Answer::steps`]).
        explain: bool,
    },
    /// Its encoding as a `.dlx` problem.
    Encode,
}

/// What came of a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// One solution.
    Unique,
    /// Several solutions (two are kept).
    Multiple,
    /// No solution.
    None,
    /// The record is malformed, or its givens break its rules ([`Answer::error`]).
    Invalid,
    /// A first solution found ([`Task::Solve`] with `first`).
    Solved,
    /// Counted ([`Answer::count`]).
    Counted,
    /// Rated ([`Answer::rating`]).
    Rated,
    /// Encoded ([`Answer::encoding`]).
    Encoded,
}

impl Status {
    /// The status's name, as the JSON and CSV records write it.
    pub fn name(self) -> &'static str {
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
pub struct Answer {
    /// The record's line (its first).
    pub line: usize,
    /// The form the record was written in.
    pub format: Format,
    /// The puzzle, with the rules the caller or the input named added to its own.
    pub puzzle: Option<Puzzle>,
    /// What came of it.
    pub status: Status,
    /// A solution (the first found, the unique one, or one of several).
    pub solution: Option<Puzzle>,
    /// A second solution, when the puzzle has several.
    pub second: Option<Puzzle>,
    /// The number of solutions counted (a count, and a rating's up to 2).
    pub count: Option<u64>,
    /// The rating ([`Task::Rate`]).
    pub rating: Option<Rating>,
    /// The `.dlx` text ([`Task::Encode`]).
    pub encoding: Option<String>,
    /// Why the record is invalid, or the search failed.
    pub error: Option<String>,
    /// Where the error is, when it is about one place: its line (which may be after the
    /// record's first) and column.
    pub error_at: Option<(usize, Option<usize>)>,
    /// The search's nodes.
    pub nodes: u64,
    /// The search's guesses.
    pub guesses: u64,
    /// The solution given beside the puzzle, when there was one: `Ok` when it solves the puzzle,
    /// else why not.
    pub given: Option<Result<(), String>>,
    /// Another variant as which the puzzle would be unique, when its variant was inferred and
    /// it has several solutions.
    pub unique_as: Option<Variant>,
    /// The logical solution step by step, each step described ([`Task::Rate`] with `explain`).
    pub steps: Vec<String>,
    /// The 9x9 variant a puzzle was answered as, when its rules are one (written beside it, so
    /// that it reads back so).
    pub variant: Option<Variant>,
    /// Whether that variant was named (by the caller or the input), not inferred from the cells.
    pub named: bool,
}

/// What a search found: its status, up to two solutions, and a count.
type Found = (Status, Option<Puzzle>, Option<Puzzle>, Option<u64>);

impl Answer {
    /// Takes in what a search found (or why it failed) and its effort.
    fn record(&mut self, result: Result<Found, String>, effort: Effort) {
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

impl Answer {
    /// The answer as the one-line JSON record `dlx solve`, `count` and `rate` write for it with
    /// `--format json`: a rating's level, rating, techniques, effort and solutions (its steps
    /// with `explain`) when `task` rated it, else its status, solutions, count, error and where
    /// it is, and effort; in both, the fields that say what its puzzle is
    /// ([`Puzzle::json_fields`]), and `file` when given.
    pub fn to_json(&self, task: Task, file: Option<&str>) -> serde_json::Value {
        let mut value = match (task, &self.rating) {
            (Task::Rate { explain }, Some(r)) => {
                let techniques: serde_json::Map<String, serde_json::Value> = Technique::ALL
                    .iter()
                    .filter(|&&t| r.logic.counts[t as usize] > 0)
                    .map(|&t| (t.name().to_owned(), r.logic.counts[t as usize].into()))
                    .collect();
                let mut value = serde_json::json!({
                    "line": self.line,
                    "puzzle": self.puzzle.as_ref().map(Puzzle::to_record_line),
                    "level": r.logic.level().name(),
                    "rating": (f64::from(r.logic.rating()) * 10.0).round() / 10.0,
                    "technique": r.logic.hardest_name(),
                    "techniques": techniques,
                    "effort": { "nodes": r.nodes, "guesses": r.guesses, "orders": r.orders },
                    "solutions": r.solutions,
                });
                if explain {
                    value["steps"] = self.steps.clone().into();
                }
                value
            }
            _ => {
                let solutions: Vec<String> =
                    self.solution.iter().chain(&self.second).map(Puzzle::to_record_line).collect();
                let mut value = serde_json::json!({
                    "line": self.line,
                    "puzzle": self.puzzle.as_ref().map(Puzzle::to_record_line),
                    "status": self.status.name(),
                    // The solution, when there is one (several: the witnesses are in
                    // `solutions`).
                    "solution": self
                        .solution
                        .as_ref()
                        .filter(|_| self.status != Status::Multiple)
                        .map(Puzzle::to_record_line),
                    "solutions": solutions,
                    "count": self.count,
                    "error": self.error,
                    "error_line": self.error_at.map(|(line, _)| line),
                    "error_column": self.error_at.and_then(|(_, column)| column),
                    "nodes": self.nodes,
                    "guesses": self.guesses,
                });
                if let Some(given) = &self.given {
                    value["given_solution"] = given.is_ok().into();
                }
                if let Some(variant) = self.unique_as {
                    value["unique_as"] = variant.name().into();
                }
                if let Task::Count { limit, .. } = task
                    && let Some(n) = self.count
                {
                    // A count that reached the limit may not be all of them.
                    value["complete"] = (limit != Some(n)).into();
                }
                value
            }
        };
        if let Some(puzzle) = &self.puzzle {
            // A 9x9 variant's puzzle names its variant when the caller or the input did.
            let named = if self.named { self.variant } else { None };
            for (key, field) in puzzle.json_fields(named) {
                value[key] = field;
            }
        }
        if let Some(file) = file {
            value["file"] = file.into();
        }
        value
    }
}

impl Solvers<'_> {
    /// Answers one record, every puzzle alike whatever its size and rules, with `variant`'s
    /// rules added to its own (else those the input names for it: a `# variant:` line, a
    /// field); `cancel` stops its search.
    pub fn answer(
        &mut self,
        record: Record,
        variant: Option<Variant>,
        task: Task,
        cancel: Option<&CancelFlag>,
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
        // The caller's variant, else the input's (a `# variant:` line, a JSON field), adds
        // its constraints to the puzzle's own rules.
        let named = variant.or(record.variant);
        let Record { puzzle, solution: given, .. } = record;
        let grid = match puzzle.map(|p| self.with_variant(p, named)) {
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
        // A variant's rules are valid, other rules are checked here; the givens are checked by
        // the solver, which names the rule they break (`.dlx` output is checked here, as nothing
        // is solved).
        let rules = match a.variant {
            Some(_) => Ok(()),
            None => grid.rules().validate().map_err(|e| e.to_string()),
        };
        let valid = match task {
            Task::Encode => rules.and_then(|()| grid.check().map_err(|e| e.to_string())),
            _ => rules,
        };
        if let Err(e) = valid {
            a.error = Some(e);
            a.puzzle = Some(grid);
            return a;
        }
        // Taken for the search and put back (a clone would touch a count every thread shares).
        let watching = self.watching.take();
        let given = given.as_ref();
        self.with(&grid, |solver| search(solver, &grid, task, given, cancel, watching.as_ref(), &mut a));
        self.watching = watching;
        a.puzzle = Some(grid);
        if a.status == Status::Encoded || a.status == Status::Rated {
            return a;
        }
        let several = a.status == Status::Multiple || (a.status == Status::Counted && a.count > Some(1));
        // Only for 9x9 puzzles of inferred rules without even markers: another variant would drop
        // them.
        if let (true, None, Some(Variant::Classic), Some(grid)) = (several, named, a.variant, &a.puzzle) {
            a.unique_as = self.unique_as(grid);
        }
        a
    }
}

/// Searches as the task asks, on the puzzle's solver, into the answer.
fn search(
    solver: &mut SudokuSolver<'_>,
    grid: &Puzzle,
    task: Task,
    given: Option<&Puzzle>,
    cancel: Option<&CancelFlag>,
    watching: Option<&Watching>,
    a: &mut Answer,
) {
    if let Task::Encode = task {
        a.status = Status::Encoded;
        a.encoding = Some(solver.matrix().puzzle_to_dlx(grid));
        return;
    }
    // The flag stops the search: a large grid can take long. (Set only when it changes: a clone
    // would touch a count every thread shares, for each puzzle.)
    if solver.cancel_flag() != cancel {
        solver.set_cancel_flag(cancel.cloned());
    }
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
        Task::Count { limit, .. } => match watching {
            Some(watching) => solver.count_watched(grid, limit, a.line, watching),
            None => solver.count(grid, limit),
        }
        .map(|n| (Status::Counted, None, None, Some(n))),
        Task::Rate { explain } => {
            match solver.rate(grid) {
                Ok(r) => {
                    a.status = Status::Rated;
                    a.count = Some(r.solutions);
                    if explain {
                        let (_, steps) = crate::explain(grid);
                        a.steps = steps.iter().map(|step| step.describe(grid)).collect();
                    }
                    a.rating = Some(r);
                }
                Err(e) => a.error = Some(e.to_string()),
            }
            if let Some(given) = given {
                a.given = Some(check_given(a, grid, given));
            }
            return;
        }
        Task::Encode => unreachable!("answered above"),
    };
    a.record(result.map_err(|e| e.to_string()), solver.effort());
    if let Some(given) = given {
        a.given = Some(check_given(a, grid, given));
    }
}

/// Whether a solution given beside a puzzle solves it (against the puzzle's rules, with what
/// was added to them); if not, why.
fn check_given(a: &Answer, puzzle: &Puzzle, given: &Puzzle) -> Result<(), String> {
    if puzzle.is_solved_by(given) {
        return Ok(());
    }
    let solved = matches!(a.status, Status::Unique | Status::Solved | Status::Multiple);
    Err(match &a.solution {
        Some(ours) if given.is_full() && solved && ours.size() == given.size() => format!(
            "the solution given beside the puzzle is wrong: it differs from the solution in {}",
            given.cells_differing_from(ours).iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
        ),
        _ => format!(
            "the solution given beside the puzzle does not solve it as a {} puzzle",
            a.variant.map_or_else(|| puzzle.rules().describe(), |v| v.to_string())
        ),
    })
}
