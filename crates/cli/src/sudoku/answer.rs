//! One record answered: the task it is asked, what came of it (`Answer`), and the caches of
//! matrices and solvers the threads answer with, for 9x9 puzzles of each variant and grids of
//! each rule set.

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
    pub(super) puzzle: Option<Board>,
    pub(super) status: Status,
    pub(super) solution: Option<Board>,
    /// A second solution, when the puzzle has several.
    pub(super) second: Option<Board>,
    pub(super) count: Option<u64>,
    pub(super) rating: Option<Rating>,
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
    /// The rating of a puzzle of any size.
    pub(super) grid_rating: Option<RatingView>,
    /// The variant a 9x9 puzzle was answered as (written beside it, so that it reads back so).
    pub(super) variant: Option<Variant>,
    /// Whether that variant was named (by `--variant` or the input), not inferred from the cells.
    pub(super) named: bool,
}

/// What a search found: its status, up to two solutions, and a count.
pub(super) type Found = (Status, Option<Board>, Option<Board>, Option<u64>);

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

/// A puzzle or solution as answered: a 9x9 one of a [`Variant`], or one of any size and rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Board {
    Nine(Puzzle),
    Any(Box<Grid>),
}

impl Board {
    /// The line form: 81 characters, or (any size) the cells and the rules' fields, which read
    /// back to the same puzzle.
    pub(super) fn to_line(&self) -> String {
        match self {
            Board::Nine(p) => p.to_line(),
            Board::Any(g) => g.to_text(),
        }
    }

    /// The block form, with its line ending.
    pub(super) fn write_grid(&self, out: &mut String) {
        match self {
            Board::Nine(p) => p.write_grid(out).expect("writing to a String cannot fail"),
            Board::Any(g) => out.push_str(&g.to_block()),
        }
    }

    /// The digit of each cell.
    pub(super) fn cells(&self) -> &[u8] {
        match self {
            Board::Nine(p) => p.cells(),
            Board::Any(g) => g.cells(),
        }
    }

    /// A cell written `r3c7`.
    pub(super) fn cell_name(&self, cell: usize) -> String {
        match self {
            Board::Nine(_) => Cell(cell).to_string(),
            Board::Any(g) => g.at(cell).to_string(),
        }
    }
}

/// One matrix per variant, in the order of [`Variant::index`], made on first use.
pub(super) struct Matrices(pub(super) [std::sync::OnceLock<Matrix>; Variant::COUNT]);

impl Matrices {
    /// Each matrix is built when a puzzle first needs it (threads share it).
    pub(super) fn new() -> Self {
        Matrices([const { std::sync::OnceLock::new() }; Variant::COUNT])
    }

    pub(super) fn solvers(&self) -> Solvers<'_> {
        Solvers {
            solvers: [const { None }; Variant::COUNT],
            raters: [const { None }; Variant::COUNT],
            grid: None,
        }
    }

    pub(super) fn get(&self, variant: Variant) -> &Matrix {
        self.0[variant.index()].get_or_init(|| Matrix::new(variant))
    }
}

/// A solver and a rater per variant, per piece of work, each made when first needed.
pub(super) struct Solvers<'m> {
    pub(super) solvers: [Option<SudokuSolver<'m>>; Variant::COUNT],
    pub(super) raters: [Option<Rater<'m>>; Variant::COUNT],
    /// The matrix of the last puzzle of any size, kept while the next ones share its rules.
    pub(super) grid: Option<GridMatrix>,
}

impl<'m> Solvers<'m> {
    pub(super) fn rater(&mut self, matrices: &'m Matrices, variant: Variant) -> &mut Rater<'m> {
        self.raters[variant.index()].get_or_insert_with(|| Rater::new(matrices.get(variant)))
    }

    pub(super) fn get(&mut self, matrices: &'m Matrices, variant: Variant) -> &mut SudokuSolver<'m> {
        self.solvers[variant.index()].get_or_insert_with(|| matrices.get(variant).solver())
    }

    /// The matrix of a puzzle of any size: the last one when it serves the same rules (even and
    /// odd marks aside, which each puzzle applies).
    pub(super) fn grid(&mut self, grid: &Grid) -> &GridMatrix {
        if self.grid.as_ref().is_none_or(|m| !m.fits(grid.rules())) {
            self.grid = Some(GridMatrix::new(grid.rules()));
        }
        self.grid.as_ref().expect("made above")
    }
}

/// Answers a puzzle of any size (see [`answer()`]).
pub(super) fn answer_grid(
    solvers: &mut Solvers<'_>,
    grid: &Grid,
    variant: Option<Variant>,
    task: Task,
    a: &mut Answer,
) {
    let mut grid = grid.clone();
    // The variant's constraints (`--variant`, or a `# variant:` line): its rules' on 9x9.
    for c in variant.iter().flat_map(|&v| dlx_sudoku::Rules::from(v).constraints().collect::<Vec<_>>()) {
        grid.rules_mut().add(c);
    }
    a.puzzle = Some(Board::Any(Box::new(grid.clone())));
    if let Err(e) = grid
        .rules()
        .validate()
        .map_err(|e| e.to_string())
        .and_then(|()| grid.check().map_err(|e| e.to_string()))
    {
        a.error = Some(e);
        return;
    }
    let matrix = solvers.grid(&grid);
    if let Task::Encode = task {
        a.status = Status::Encoded;
        a.encoding = Some(matrix.puzzle_to_dlx(&grid));
        return;
    }
    let mut solver = matrix.solver();
    // Ctrl-C stops the search: a large grid can take long.
    solver.set_cancel_flag(Some(report::cancel_flag().clone()));
    let board = |g: Grid| Some(Board::Any(Box::new(g)));
    let result = match task {
        Task::Solve { first: true } => solver.first(&grid).map(|s| match s {
            Some(s) => (Status::Solved, board(s), None, None),
            None => (Status::None, None, None, None),
        }),
        Task::Solve { first: false } => solver.check_unique(&grid).map(|u| match u {
            GridUniqueness::Unique(s) => (Status::Unique, board(s), None, None),
            GridUniqueness::Multiple(s, t) => (Status::Multiple, board(s), board(t), None),
            GridUniqueness::None => (Status::None, None, None, None),
        }),
        Task::Count { limit, .. } => {
            solver.count(&grid, limit).map(|n| (Status::Counted, None, None, Some(n)))
        }
        Task::Rate { explain } => {
            // As for 9x9: the logical solver, then the effort averaged over branching orders.
            let (nodes, guesses, solutions) = match solver.rating_effort(&grid) {
                Ok(effort) => effort,
                Err(e) => {
                    a.error = Some(e.to_string());
                    return;
                }
            };
            let (logic, steps) =
                if explain { explain_grid(&grid) } else { (solve_grid_logically(&grid), Vec::new()) };
            a.steps = steps.iter().map(|step| step.describe(&grid)).collect();
            a.grid_rating = Some(RatingView {
                level: logic.level(),
                rating: logic.rating(),
                hardest: logic.hardest_name(),
                counts: logic.counts,
                nodes,
                guesses,
                solutions,
                solved: logic.solved,
            });
            a.status = Status::Rated;
            a.count = Some(solutions);
            return;
        }
        Task::Encode => unreachable!("answered above"),
    };
    a.record(result.map_err(|e| e.to_string()), solver.effort());
}

pub(super) fn answer<'m>(
    matrices: &'m Matrices,
    solvers: &mut Solvers<'m>,
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
        grid_rating: None,
        variant: None,
        named: false,
    };
    if let Some(grid) = &record.grid {
        // A `# variant:` line above it adds its diagonals, windows or anti-king too.
        answer_grid(solvers, grid, variant.or(record.variant), task, &mut a);
        if let (Some(given), None) = (&record.grid_solution, &a.error) {
            a.given = Some(check_given_grid(&a, given));
        }
        return a;
    }
    let puzzle = match &record.puzzle {
        Ok(p) => *p,
        Err(e) => {
            a.error = Some(e.kind.to_string());
            a.error_at = Some((e.line, e.column));
            return a;
        }
    };
    a.puzzle = Some(Board::Nine(puzzle));
    // The command line's --variant, else the input's (a `# variant:` line, a JSON field), else
    // what the cells say.
    let named = variant.or(record.variant);
    let variant = named.unwrap_or_else(|| puzzle.inferred_variant());
    a.variant = Some(variant);
    a.named = named.is_some();
    if let Task::Encode = task {
        match puzzle.check(variant) {
            Ok(()) => {
                a.status = Status::Encoded;
                a.encoding = Some(matrices.get(variant).puzzle_to_dlx(&puzzle));
            }
            Err(e) => a.error = Some(e.to_string()),
        }
        return a;
    }
    if let Task::Rate { explain } = task {
        match solvers.rater(matrices, variant).rate(&puzzle) {
            Ok(rating) => {
                a.status = Status::Rated;
                a.count = Some(rating.solutions);
                a.rating = Some(rating);
                if explain {
                    let (_, steps) =
                        dlx_sudoku::explain(&puzzle, variant).expect("the rating checked the rules");
                    a.steps = steps.iter().map(ToString::to_string).collect();
                }
            }
            Err(e) => a.error = Some(e.to_string()),
        }
        if let Some(given) = &record.solution {
            a.given = Some(check_given(&puzzle, given, variant, None));
        }
        return a;
    }
    let solver = solvers.get(matrices, variant);
    let result = match task {
        Task::Solve { first: true } => solver.first(&puzzle).map(|s| match s {
            Some(s) => (Status::Solved, Some(Board::Nine(s)), None, None),
            None => (Status::None, None, None, None),
        }),
        Task::Solve { first: false } => solver.check_unique(&puzzle).map(|u| match u {
            Uniqueness::Unique(s) => (Status::Unique, Some(Board::Nine(s)), None, None),
            Uniqueness::Multiple(s, t) => {
                (Status::Multiple, Some(Board::Nine(s)), Some(Board::Nine(t)), None)
            }
            Uniqueness::None => (Status::None, None, None, None),
        }),
        Task::Count { limit, .. } => {
            solver.count(&puzzle, limit).map(|n| (Status::Counted, None, None, Some(n)))
        }
        Task::Rate { .. } | Task::Encode => unreachable!("answered above"),
    };
    a.record(result.map_err(|e| e.to_string()), solver.effort());
    if let Some(given) = &record.solution {
        let ours = match &a.solution {
            Some(Board::Nine(p)) => Some(p),
            _ => None,
        };
        a.given = Some(check_given(&puzzle, given, variant, ours));
    }
    let several = a.status == Status::Multiple || (a.status == Status::Counted && a.count > Some(1));
    // Only for puzzles without even markers: another variant would drop them.
    if several && named.is_none() && !puzzle.has_even_cells() {
        a.unique_as = unique_as(matrices, solvers, &puzzle, variant);
    }
    a
}

/// Whether a solution given beside a puzzle solves it; if not, why.
pub(super) fn check_given(
    puzzle: &Puzzle,
    given: &Puzzle,
    variant: Variant,
    ours: Option<&Puzzle>,
) -> Result<(), String> {
    if puzzle.is_solved_by(given, variant) {
        return Ok(());
    }
    Err(match ours {
        Some(ours) if given.is_full() => format!(
            "the solution given beside the puzzle is wrong: it differs from the solution in {}",
            differing_cells(&Board::Nine(*given), &Board::Nine(*ours))
        ),
        _ => format!("the solution given beside the puzzle does not solve it as a {variant} puzzle"),
    })
}

/// Whether a solution given beside a puzzle of any size solves it; if not, why.
pub(super) fn check_given_grid(a: &Answer, given: &Grid) -> Result<(), String> {
    let Some(Board::Any(puzzle)) = &a.puzzle else { return Ok(()) };
    // Against the puzzle's rules, with what `--variant` added.
    if puzzle.is_solved_by(given) {
        return Ok(());
    }
    Err(match &a.solution {
        Some(ours @ Board::Any(_)) if a.status == Status::Unique => format!(
            "the solution given beside the puzzle is wrong: it differs from the solution in {}",
            differing_cells(&Board::Any(Box::new(given.clone())), ours)
        ),
        _ => format!(
            "the solution given beside the puzzle does not solve it as a {} puzzle",
            puzzle.rules().describe()
        ),
    })
}

/// A variant other than `tried` as which a puzzle with several solutions would have exactly
/// one.
pub(super) fn unique_as<'m>(
    matrices: &'m Matrices,
    solvers: &mut Solvers<'m>,
    puzzle: &Puzzle,
    tried: Variant,
) -> Option<Variant> {
    // Variants of units alone: with forbidden moves a search of a sparse grid can take millions
    // of nodes, too many for a hint.
    let candidates = Variant::ALL.into_iter().filter(|&v| v != tried && !v.has_even_cells());
    candidates.filter(|v| v.forbidden_moves().is_empty()).find(|&v| {
        puzzle.check(v).is_ok()
            && matches!(solvers.get(matrices, v).check_unique(puzzle), Ok(Uniqueness::Unique(_)))
    })
}
