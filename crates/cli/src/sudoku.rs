//! `dlx solve` and `dlx count`: batches of sudoku puzzles, streamed, in parallel, in order.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};

use crate::choice;
use dlx_sudoku::grid::{GridDefaults, GridUniqueness, explain_grid, solve_grid_logically};
use dlx_sudoku::{
    Cell, Constraint, Format, Grid, GridMatrix, Level, Matrix, Puzzle, Rater, Rating, Record, Records, Size,
    SudokuSolver, Technique, Uniqueness, Variant,
};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::input::Source;
use crate::output::{persist, temporary};
use crate::report::{
    self, EXIT_FAILURE, EXIT_INVALID, EXIT_NOT_UNIQUE, MAX_THREADS, Stopped, Usage, Workers, stderr,
};

/// Records handed to the threads at a time: memory stays constant whatever the input size.
const CHUNK: usize = 4096;

/// Inputs at least this large get a progress bar (on stderr, and only when it is a terminal).
const PROGRESS_BYTES: u64 = 256 * 1024;

/// A progress bar over the bytes of an input; hidden for small files and when stderr is not a
/// terminal (indicatif draws nothing then).
fn progress_bar(source: &Source, len: Option<u64>, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    match len {
        Some(len) if len >= PROGRESS_BYTES => {
            let bar = ProgressBar::new(len);
            if let Ok(style) =
                ProgressStyle::with_template("{prefix} {wide_bar} {bytes}/{total_bytes} {msg} {eta}")
            {
                bar.set_style(style);
            }
            bar.set_prefix(source.name());
            bar
        }
        Some(_) => ProgressBar::hidden(),
        None => {
            let bar = ProgressBar::new_spinner();
            bar.set_prefix(source.name());
            bar
        }
    }
}

/// How answers are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum OutputFormat {
    /// One 81-character line per puzzle.
    Line,
    /// A block grid with box separators, puzzles separated by a blank line.
    Grid,
    /// One JSON object per puzzle (NDJSON).
    Json,
    /// A header row, then one row per record: file, line, puzzle, status, solution, count, error
    /// (for `rate`: file, line, puzzle, level, technique, nodes, guesses, solutions, error).
    Csv,
    /// The puzzle's exact-cover encoding in Knuth's `.dlx` format, for other exact-cover tools
    /// (nothing is solved; give one puzzle to get one `.dlx` file).
    Dlx,
}

/// How counts and ratings are written: the formats `count` and `rate` write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ListFormat {
    /// One line per puzzle.
    Line,
    /// One JSON object per puzzle (NDJSON).
    Json,
}

/// How counts and ratings are written by `count` and `rate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TableFormat {
    /// One line per puzzle.
    Line,
    /// One JSON object per puzzle (NDJSON).
    Json,
    /// A header row, then one row per record (see `solve --help`).
    Csv,
}

impl From<TableFormat> for OutputFormat {
    fn from(format: TableFormat) -> OutputFormat {
        match format {
            TableFormat::Line => OutputFormat::Line,
            TableFormat::Json => OutputFormat::Json,
            TableFormat::Csv => OutputFormat::Csv,
        }
    }
}

/// The header row of `--format csv`, for `rate` and for the other commands.
const CSV_HEADER: [&str; 8] = ["file", "line", "puzzle", "status", "solution", "count", "error", "variant"];
const CSV_RATE_HEADER: [&str; 11] = [
    "file",
    "line",
    "puzzle",
    "level",
    "rating",
    "technique",
    "nodes",
    "guesses",
    "solutions",
    "error",
    "variant",
];

/// Writes one CSV row (quoted as RFC 4180 asks, by the `csv` crate).
fn write_csv<I: AsRef<[u8]>>(out: &mut impl Write, fields: impl IntoIterator<Item = I>) -> io::Result<()> {
    let mut writer =
        csv::WriterBuilder::new().has_headers(false).buffer_capacity(1024).from_writer(&mut *out);
    let io = |e: csv::Error| match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        kind => io::Error::other(format!("{kind:?}")),
    };
    writer.write_record(fields).map_err(io)?;
    writer.flush()
}

/// Options shared by `solve`, `count` and `rate`.
#[derive(Debug, Args)]
pub(crate) struct BatchArgs {
    /// Puzzle files (81-character lines, block grids, lists or JSON records, mixed); stdin when
    /// none or `-`. A line may go on after its puzzle (`puzzle,solution`, `puzzle;rating`,
    /// `puzzle # comment`): a full grid of 81 digits next is the puzzle's solution, and is
    /// checked; other fields are ignored. A header row naming a `puzzle` (or `quizzes`) column
    /// and maybe a `solution` column is followed. A file that cannot be read is reported and the
    /// others are answered (exit status 1).
    files: Vec<PathBuf>,
    /// The variant of every puzzle [default: what the input says (a `# variant: NAME` line above
    /// the puzzle, a JSON record's "variant"), else even when a puzzle has even markers, else
    /// classic].
    #[arg(long, value_parser = choice::parser::<Variant>())]
    variant: Option<Variant>,
    /// Read every puzzle as a grid of this size: a side (`4`, `6`, `16`, `25`: the usual boxes)
    /// or a box shape (`2x3`: boxes of 2 rows and 3 columns), in lines of side x side symbols or
    /// blocks of side rows [default: lines of 16, 36, 64, 100, 144, 256 or 625 symbols are read
    /// as grids of that size, lines of 81 as 9x9 puzzles]. Digits above 9 are letters: `A` is 10
    /// ... `G` 16 ... `P` 25 (or `0`-`F` for 1-16, read when a grid has `0`s and `.`s and no `G`).
    #[arg(long, value_name = "SIZE")]
    size: Option<Size>,
    /// Rules added to every puzzle of the grid forms: diagonal, windoku, anti-king, anti-knight
    /// (repeat or separate with commas). A line may carry its own: `variant=anti-knight`,
    /// `regions=` (a jigsaw map), `marks=` (`e` even, `o` odd), `cage=SUM:r1c1,r1c2` (killer).
    #[arg(long, value_name = "NAME", value_delimiter = ',', value_parser = choice::parser::<Constraint>())]
    constraint: Vec<Constraint>,
    /// Worker threads, at most 1024 [default: all cores]. No more are started than there are
    /// cores, nor than the work has pieces: more could not make it faster.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS))]
    threads: Option<u64>,
    /// Print a closing summary to stderr: puzzles, solved (no uniqueness check), unique,
    /// multiple, none, invalid, puzzles per second, nodes and guesses per puzzle searched.
    #[arg(short, long)]
    stats: bool,
    /// Show no progress bar (one shows on a terminal while a large input is read).
    #[arg(short, long, visible_alias = "no-progress")]
    quiet: bool,
    /// Exit with status 3 when some puzzle has no solution or several (when no input was
    /// unreadable or malformed, which exit with 1 or 2): for scripts that test puzzles.
    #[arg(long)]
    strict: bool,
}

/// Solve each puzzle and check that its solution is unique.
///
/// A puzzle with no solution, several, or malformed is reported in place (as a `#` comment in
/// the line and grid formats). Exit status: 0 when every record was read; 2 when some record was
/// malformed or broke the rules (reported on stderr, the rest of the batch goes on); 1 when an
/// input could not be read or the output not written.
#[derive(Debug, Args)]
pub(crate) struct SolveArgs {
    #[command(flatten)]
    batch: BatchArgs,
    /// Output format [default: the form each puzzle came in: line, or grid for grids and lists].
    #[arg(short, long, value_enum)]
    format: Option<OutputFormat>,
    /// Skip the uniqueness check and print the first solution found (fastest).
    #[arg(long)]
    first: bool,
    /// With --format dlx: write each puzzle's problem into this folder, one file per puzzle
    /// (`puzzle-0001.dlx`, ... numbered by the records' order in the input, malformed ones
    /// included), each written whole under a temporary name and then renamed.
    #[arg(short, long, value_name = "DIR")]
    output: Option<PathBuf>,
}

/// Count the solutions of each puzzle.
///
/// Prints one count per puzzle; with --limit, a count that reached the limit is written `N+` (in
/// JSON, `"complete": false`). Exit status as for `solve`.
#[derive(Debug, Args)]
pub(crate) struct CountArgs {
    #[command(flatten)]
    batch: BatchArgs,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "line")]
    format: TableFormat,
    /// Stop counting each puzzle at N solutions (at least 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    limit: Option<u64>,
    /// In the line format, print each puzzle (as a line) before its count: `PUZZLE COUNT`.
    #[arg(short, long)]
    puzzles: bool,
}

/// Rate each puzzle: the hardest technique a person needs, and the search effort.
///
/// Prints per puzzle its level (easy: singles; medium: up to locked candidates; hard: up to pairs,
/// triples, X-wing and swordfish; expert: more than those), its rating on Sudoku Explainer's
/// scale (1.5 hidden single ... 4.2 XY-wing ... 7.5 forcing chains, 10.0 when guessing is
/// needed), the hardest technique, the count of each technique used, and the effort (nodes and
/// guesses of the uniqueness search, averaged over eight random branching orders). Exit status
/// as for `solve`.
#[derive(Debug, Args)]
pub(crate) struct RateArgs {
    #[command(flatten)]
    batch: BatchArgs,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "line")]
    format: TableFormat,
    /// Print the logical solution too, one step per line (technique, cells, digits, what it
    /// placed or removed); in JSON, as `steps`.
    #[arg(long)]
    explain: bool,
}

/// What is asked of each puzzle.
#[derive(Debug, Clone, Copy)]
enum Task {
    Solve { first: bool },
    Count { limit: Option<u64>, puzzles: bool },
    Rate { explain: bool },
    Encode,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
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
    fn name(self) -> &'static str {
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
struct Answer {
    line: usize,
    format: Format,
    puzzle: Option<Board>,
    status: Status,
    solution: Option<Board>,
    /// A second solution, when the puzzle has several.
    second: Option<Board>,
    count: Option<u64>,
    rating: Option<Rating>,
    encoding: Option<String>,
    error: Option<String>,
    /// Where the error is, when it is about one place: its line (which may be after the
    /// record's first) and column.
    error_at: Option<(usize, Option<usize>)>,
    nodes: u64,
    guesses: u64,
    /// The solution given beside the puzzle, when there was one: `Ok` when it solves the puzzle,
    /// else why not.
    given: Option<Result<(), String>>,
    /// Another variant as which the puzzle would be unique, when its variant was inferred and
    /// it has several solutions.
    unique_as: Option<Variant>,
    /// The logical solution step by step (`rate --explain`).
    steps: Vec<String>,
    /// The rating of a puzzle of any size.
    grid_rating: Option<RatingView>,
    /// The variant a 9x9 puzzle was answered as (written beside it, so that it reads back so).
    variant: Option<Variant>,
    /// Whether that variant was named (by `--variant` or the input), not inferred from the cells.
    named: bool,
}

/// What a search found: its status, up to two solutions, and a count.
type Found = (Status, Option<Board>, Option<Board>, Option<u64>);

impl Answer {
    /// Takes in what a search found (or why it failed) and its effort.
    fn record(&mut self, result: Result<Found, String>, effort: dlx_sudoku::Effort) {
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
enum Board {
    Nine(Puzzle),
    Any(Box<Grid>),
}

impl Board {
    /// The line form: 81 characters, or (any size) the cells and the rules' fields, which read
    /// back to the same puzzle.
    fn to_line(&self) -> String {
        match self {
            Board::Nine(p) => p.to_line(),
            Board::Any(g) => g.to_text(),
        }
    }

    /// The block form, with its line ending.
    fn write_grid(&self, out: &mut String) {
        match self {
            Board::Nine(p) => p.write_grid(out).expect("writing to a String cannot fail"),
            Board::Any(g) => out.push_str(&g.to_block()),
        }
    }

    /// The digit of each cell.
    fn cells(&self) -> &[u8] {
        match self {
            Board::Nine(p) => p.cells(),
            Board::Any(g) => g.cells(),
        }
    }

    /// A cell written `r3c7`.
    fn cell_name(&self, cell: usize) -> String {
        match self {
            Board::Nine(_) => Cell(cell).to_string(),
            Board::Any(g) => g.at(cell).to_string(),
        }
    }
}

/// One matrix per variant, in the order of [`Variant::index`], made on first use.
struct Matrices([std::sync::OnceLock<Matrix>; Variant::COUNT]);

impl Matrices {
    /// Each matrix is built when a puzzle first needs it (threads share it).
    fn new() -> Self {
        Matrices([const { std::sync::OnceLock::new() }; Variant::COUNT])
    }

    fn solvers(&self) -> Solvers<'_> {
        Solvers {
            solvers: [const { None }; Variant::COUNT],
            raters: [const { None }; Variant::COUNT],
            grid: None,
        }
    }

    fn get(&self, variant: Variant) -> &Matrix {
        self.0[variant.index()].get_or_init(|| Matrix::new(variant))
    }
}

/// A solver and a rater per variant, per piece of work, each made when first needed.
struct Solvers<'m> {
    solvers: [Option<SudokuSolver<'m>>; Variant::COUNT],
    raters: [Option<Rater<'m>>; Variant::COUNT],
    /// The matrix of the last puzzle of any size, kept while the next ones share its rules.
    grid: Option<GridMatrix>,
}

impl<'m> Solvers<'m> {
    fn rater(&mut self, matrices: &'m Matrices, variant: Variant) -> &mut Rater<'m> {
        self.raters[variant.index()].get_or_insert_with(|| Rater::new(matrices.get(variant)))
    }

    fn get(&mut self, matrices: &'m Matrices, variant: Variant) -> &mut SudokuSolver<'m> {
        self.solvers[variant.index()].get_or_insert_with(|| matrices.get(variant).solver())
    }

    /// The matrix of a puzzle of any size: the last one when the rules are the same.
    fn grid(&mut self, grid: &Grid) -> &GridMatrix {
        if self.grid.as_ref().is_none_or(|m| m.rules() != grid.rules()) {
            self.grid = Some(GridMatrix::new(grid.rules()));
        }
        self.grid.as_ref().expect("made above")
    }
}

/// Answers a puzzle of any size (see [`answer`]).
fn answer_grid(solvers: &mut Solvers<'_>, grid: &Grid, variant: Option<Variant>, task: Task, a: &mut Answer) {
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

fn answer<'m>(
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
fn check_given(
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
fn check_given_grid(a: &Answer, given: &Grid) -> Result<(), String> {
    let Some(Board::Any(puzzle)) = &a.puzzle else { return Ok(()) };
    let mut given = given.clone();
    // The puzzle's rules, with what `--variant` added.
    *given.rules_mut() = puzzle.rules().clone();
    let agrees = (0..puzzle.cells().len()).all(|c| puzzle.get(c) == 0 || puzzle.get(c) == given.get(c));
    if agrees && given.check().is_ok() {
        return Ok(());
    }
    Err(match &a.solution {
        Some(ours @ Board::Any(_)) if a.status == Status::Unique => format!(
            "the solution given beside the puzzle is wrong: it differs from the solution in {}",
            differing_cells(&Board::Any(Box::new(given)), ours)
        ),
        _ => format!(
            "the solution given beside the puzzle does not solve it as a {} puzzle",
            puzzle.rules().describe()
        ),
    })
}

/// A variant other than `tried` as which a puzzle with several solutions would have exactly
/// one.
fn unique_as<'m>(
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

#[derive(Debug, Default)]
struct Summary {
    puzzles: u64,
    /// Solved without a uniqueness check (`--first`, or `count --limit 1`).
    solved: u64,
    unique: u64,
    multiple: u64,
    none: u64,
    invalid: u64,
    /// Records whose given solution does not solve them.
    wrong_given: u64,
    /// Rated puzzles per level, in the order of [`Level::ALL`].
    levels: [u64; Level::ALL.len()],
    /// Rated puzzles per hardest technique (`guessing` and `none` included), in first-seen
    /// order.
    hardest: Vec<(&'static str, u64)>,
    /// Nodes and guesses of the searches (for `rate`, the ratings' averages summed).
    nodes: f64,
    guesses: f64,
}

impl Summary {
    fn add(&mut self, a: &Answer, task: Task) {
        self.puzzles += 1;
        if matches!(a.given, Some(Err(_))) {
            self.wrong_given += 1;
        }
        let rated = match (&a.rating, &a.grid_rating) {
            (Some(r), _) => Some((r.logic.level(), r.logic.hardest_name())),
            (None, Some(view)) => Some((view.level, view.hardest)),
            (None, None) => None,
        };
        if let Some((level, name)) = rated {
            let level = Level::ALL.iter().position(|&l| l == level).expect("every level is listed");
            self.levels[level] += 1;
            match self.hardest.iter_mut().find(|(n, _)| *n == name) {
                Some((_, count)) => *count += 1,
                None => self.hardest.push((name, 1)),
            }
        }
        match (a.status, a.count, task) {
            (Status::Unique, ..) => self.unique += 1,
            (Status::Multiple, ..) => self.multiple += 1,
            (Status::None, ..) | (Status::Counted, Some(0), _) => self.none += 1,
            (Status::Invalid, ..) => self.invalid += 1,
            (Status::Solved, ..) | (Status::Counted, Some(1), Task::Count { limit: Some(1), .. }) => {
                self.solved += 1
            }
            (Status::Counted, Some(1), _) => self.unique += 1,
            (Status::Counted, Some(_), _) => self.multiple += 1,
            // A rating says how many solutions (up to 2) the uniqueness search found.
            (Status::Rated, Some(0), _) => self.none += 1,
            (Status::Rated, Some(1), _) => self.unique += 1,
            (Status::Rated, Some(_), _) => self.multiple += 1,
            (Status::Counted, None, _) | (Status::Rated | Status::Encoded, ..) => {}
        }
        match &a.rating {
            Some(r) => {
                self.nodes += r.nodes;
                self.guesses += r.guesses;
            }
            None => {
                self.nodes += a.nodes as f64;
                self.guesses += a.guesses as f64;
            }
        }
    }
}

pub(crate) fn run_solve(args: &SolveArgs) -> Result<ExitCode> {
    if let Some(dir) = &args.output {
        if args.format != Some(OutputFormat::Dlx) {
            return Err(Usage("--output DIR is for --format dlx (one problem per file)".into()).into());
        }
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    run(&args.batch, args.format, Task::Solve { first: args.first }, args.output.as_deref())
}

pub(crate) fn run_count(args: &CountArgs) -> Result<ExitCode> {
    run(&args.batch, Some(args.format.into()), Task::Count { limit: args.limit, puzzles: args.puzzles }, None)
}

pub(crate) fn run_rate(args: &RateArgs) -> Result<ExitCode> {
    if args.explain && args.format == TableFormat::Csv {
        return Err(Usage("--explain is for the line and json formats".into()).into());
    }
    run(&args.batch, Some(args.format.into()), Task::Rate { explain: args.explain }, None)
}

/// Records per worker thread at the least: a batch of 20 puzzles gets at most 3 threads, however
/// many were asked for (each thread costs its start and the solvers it makes).
const PIECE: usize = 8;

/// Opens one input, with its progress bar; `None` (reported) when it cannot be opened.
pub(crate) fn open(source: &Source, quiet: bool) -> Result<Option<(Box<dyn BufRead>, ProgressBar)>> {
    Ok(Some(match source {
        Source::Stdin => {
            let bar = progress_bar(source, None, quiet);
            (Box::new(BufReader::new(bar.wrap_read(io::stdin().lock()))), bar)
        }
        Source::File(p) => match File::open(p) {
            Ok(file) => {
                let bar = progress_bar(source, file.metadata().ok().map(|m| m.len()), quiet);
                (Box::new(BufReader::new(bar.wrap_read(file))), bar)
            }
            Err(e) => {
                stderr!("dlx: {}: cannot read: {e}", p.display())?;
                return Ok(None);
            }
        },
    }))
}

/// Answers every record of every input; `output` is the folder of `--format dlx` files.
fn run(
    args: &BatchArgs,
    format: Option<OutputFormat>,
    task: Task,
    output: Option<&Path>,
) -> Result<ExitCode> {
    let task = if format == Some(OutputFormat::Dlx) { Task::Encode } else { task };
    let mut workers = Workers::new(args.threads);
    let matrices = Matrices::new();
    let sources = Source::all(&args.files);
    let variant = args.variant;
    let mut out = BufWriter::new(io::stdout().lock());
    if format == Some(OutputFormat::Csv) {
        match task {
            Task::Rate { .. } => write_csv(&mut out, CSV_RATE_HEADER)?,
            _ => write_csv(&mut out, CSV_HEADER)?,
        }
    }
    let mut summary = Summary::default();
    // The variant the last `# variant:` line written names.
    let mut said = Said::default();
    let start = Instant::now();
    let mut chunk = Vec::with_capacity(CHUNK);
    let mut answers = Vec::with_capacity(CHUNK);
    // An input could not be read (all of it, or from some point on).
    let mut unreadable = false;
    for source in &sources {
        let Some((reader, bar)) = open(source, args.quiet)? else {
            unreadable = true;
            continue;
        };
        // Records name their file when there are several.
        let name = source.name();
        let file = (sources.len() > 1).then_some(name.as_str());
        // Typed at a terminal: each puzzle is answered as soon as it is read, not in batches.
        let typed = matches!(source, Source::Stdin) && io::stdin().is_terminal();
        if typed {
            bar.suspend(|| stderr!("dlx: reading puzzles from the terminal, one per line (Ctrl-D to end)"))?;
        }
        let batch = if typed { 1 } else { CHUNK };
        let defaults =
            GridDefaults { size: args.size, constraints: args.constraint.clone(), ..GridDefaults::default() };
        let mut records = Records::new(reader);
        if defaults != GridDefaults::default() {
            records = records.with_grid_defaults(defaults);
        }
        let mut failed = None;
        loop {
            chunk.clear();
            for record in records.by_ref().take(batch) {
                match record {
                    Ok(record) => chunk.push(record),
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
            }
            if chunk.is_empty() {
                break;
            }
            answers.clear();
            workers.for_pieces(chunk.len().div_ceil(PIECE))?.install(|| {
                chunk
                    .par_iter()
                    .map_init(
                        || matrices.solvers(),
                        // After Ctrl-C the rest is not answered (nor written: see below).
                        |solvers, r| match report::check_interrupt() {
                            // A search that Ctrl-C cut short (grids of other sizes can search
                            // long) is no answer either.
                            Ok(()) => Some(answer(&matrices, solvers, r, variant, task))
                                .filter(|_| report::check_interrupt().is_ok()),
                            Err(_) => None,
                        },
                    )
                    .collect_into_vec(&mut answers);
            });
            for a in &answers {
                let Some(a) = a else {
                    out.flush()?;
                    return Err(Stopped.into());
                };
                if let (Task::Encode, Some(dir)) = (task, output) {
                    summary.add(a, task);
                    if let Some(e) = &a.error {
                        bar.suspend(|| stderr!("dlx: {name}:{}: {e}", position(a)))?;
                    }
                    if let Some(text) = &a.encoding {
                        let mut file = temporary(dir, ".dlx.part")?;
                        file.write_all(text.as_bytes())
                            .with_context(|| format!("cannot write in {}", dir.display()))?;
                        persist(file, &dir.join(format!("puzzle-{:04}.dlx", summary.puzzles)))?;
                    }
                    continue;
                }
                if let Task::Encode = task
                    && summary.puzzles > 0
                {
                    // Two `.dlx` problems in one stream read as one wrong problem.
                    out.flush()?;
                    return Err(Usage(format!(
                        "{name}:{}: a second puzzle: --format dlx writes one problem, and two on stdout \
                         would read as one wrong problem; give one puzzle at a time, or --output DIR",
                        a.line
                    ))
                    .into());
                }
                summary.add(a, task);
                if let Some(e) = &a.error {
                    bar.suspend(|| stderr!("dlx: {name}:{}: {e}", position(a)))?;
                }
                if let Some(Err(e)) = &a.given {
                    bar.suspend(|| stderr!("dlx: {name}:{}: {e}", a.line))?;
                }
                write_answer(&mut out, a, format, task, file, &mut said)?;
            }
            bar.set_message(format!("{} puzzles", summary.puzzles));
            if typed {
                out.flush()?;
            }
            if failed.is_some() {
                break;
            }
        }
        bar.finish_and_clear();
        if let Some(e) = failed {
            // What was read before is answered above; the rest of this input is lost.
            out.flush()?;
            stderr!("dlx: {name}: cannot read past line {}: {e}", chunk.last().map_or(0, |r| r.line))?;
            unreadable = true;
        }
    }
    out.flush()?;
    if args.stats {
        let secs = start.elapsed().as_secs_f64();
        // Effort is averaged over the puzzles searched: a malformed record has none.
        let searched = summary.puzzles - summary.invalid;
        let per = |x: f64| if searched == 0 { 0.0 } else { x / searched as f64 };
        // Solving without a uniqueness check says "solved", not unique or multiple (which it
        // never finds).
        let found = if summary.solved > 0 && summary.unique == 0 && summary.multiple == 0 {
            format!("solved {}", summary.solved)
        } else if summary.solved > 0 {
            format!("solved {}, unique {}, multiple {}", summary.solved, summary.unique, summary.multiple)
        } else {
            format!("unique {}, multiple {}", summary.unique, summary.multiple)
        };
        stderr!(
            "puzzles {}, {found}, none {}, invalid {}, {:.0} puzzles/s, nodes/puzzle {:.1}, guesses/puzzle {:.1}",
            summary.puzzles,
            summary.none,
            summary.invalid,
            if secs > 0.0 { summary.puzzles as f64 / secs } else { 0.0 },
            per(summary.nodes),
            per(summary.guesses),
        )?;
        if let Task::Rate { .. } = task {
            let levels: Vec<String> =
                Level::ALL.iter().zip(summary.levels).map(|(l, n)| format!("{l} {n}")).collect();
            // The techniques from the easiest to the hardest, then guessing.
            let rank =
                |name: &str| Technique::ALL.iter().position(|t| t.name() == name).unwrap_or(usize::MAX);
            let mut hardest = summary.hardest.clone();
            hardest.sort_by_key(|&(name, _)| (name != "none", rank(name)));
            let hardest: Vec<String> = hardest.iter().map(|(name, n)| format!("{name} {n}")).collect();
            stderr!("levels: {}; hardest technique: {}", levels.join(", "), hardest.join(", "))?;
        }
    }
    Ok(if unreadable {
        ExitCode::from(EXIT_FAILURE)
    } else if summary.invalid > 0 || summary.wrong_given > 0 {
        ExitCode::from(EXIT_INVALID)
    } else if args.strict && (summary.none > 0 || summary.multiple > 0) {
        ExitCode::from(EXIT_NOT_UNIQUE)
    } else {
        ExitCode::SUCCESS
    })
}

/// `line:column` of an answer's error (the record's line when the error is about no one place).
fn position(a: &Answer) -> String {
    match a.error_at {
        Some((line, Some(column))) => format!("{line}:{column}"),
        Some((line, None)) => line.to_string(),
        None => a.line.to_string(),
    }
}

/// Where an answer's comment points: the file (when there are several) and the line, or the
/// error's own line and column.
fn place(a: &Answer, file: Option<&str>) -> String {
    let file = file.map(|f| format!("{f}, ")).unwrap_or_default();
    match a.error_at {
        Some((line, Some(column))) => format!("{file}line {line}, column {column}"),
        Some((line, None)) => format!("{file}line {line}"),
        None => format!("{file}line {}", a.line),
    }
}

/// The cells where two solutions differ, as `r1c2, r5c7`.
fn differing_cells(a: &Board, b: &Board) -> String {
    let (x, y) = (a.cells(), b.cells());
    let cells: Vec<String> = (0..x.len()).filter(|&c| x[c] != y[c]).map(|c| a.cell_name(c)).collect();
    cells.join(", ")
}

/// Writes a JSON value and a newline; write errors stay I/O errors (a closed pipe is quiet).
fn write_json(out: &mut impl Write, value: &serde_json::Value) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)?;
    writeln!(out)
}

fn write_answer(
    out: &mut impl Write,
    a: &Answer,
    format: Option<OutputFormat>,
    task: Task,
    file: Option<&str>,
    said: &mut Said,
) -> io::Result<()> {
    let format = format.unwrap_or(match a.format {
        Format::Line => OutputFormat::Line,
        Format::Json => OutputFormat::Json,
        Format::Grid | Format::List => OutputFormat::Grid,
    });
    if let (Task::Rate { explain }, Some(r)) = (task, &a.rating) {
        let view = RatingView {
            level: r.logic.level(),
            rating: r.logic.rating(),
            hardest: r.logic.hardest_name(),
            counts: r.logic.counts,
            nodes: r.nodes,
            guesses: r.guesses,
            solutions: r.solutions,
            solved: r.logic.solved,
        };
        return write_rating(out, a, &view, format, file, explain, said);
    }
    if let (Task::Rate { explain }, Some(view)) = (task, &a.grid_rating) {
        return write_rating(out, a, view, format, file, explain, said);
    }
    if let Task::Encode = task {
        return match &a.encoding {
            Some(text) => out.write_all(text.as_bytes()),
            None => writeln!(out, "| {}: invalid: {}", place(a, file), a.error.as_deref().unwrap_or("")),
        };
    }
    if format == OutputFormat::Csv {
        let line = a.error_at.map_or(a.line, |(line, _)| line).to_string();
        let puzzle = a.puzzle.as_ref().map(Board::to_line).unwrap_or_default();
        let wrong = a.given.as_ref().and_then(|g| g.as_ref().err());
        let error = a.error.as_deref().or(wrong.map(String::as_str)).unwrap_or("");
        let variant = a.variant.map_or("", Variant::name);
        if let Task::Rate { .. } = task {
            // A record that could not be rated.
            return write_csv(
                out,
                [file.unwrap_or(""), &line, &puzzle, "", "", "", "", "", "", error, variant],
            );
        }
        let solution = a.solution.as_ref().map(Board::to_line).unwrap_or_default();
        let count = a.count.map(|n| n.to_string()).unwrap_or_default();
        return write_csv(
            out,
            [file.unwrap_or(""), &line, &puzzle, a.status.name(), &solution, &count, error, variant],
        );
    }
    if format == OutputFormat::Json {
        let solutions: Vec<String> = a.solution.iter().chain(&a.second).map(Board::to_line).collect();
        let mut value = serde_json::json!({
            "line": a.line,
            "puzzle": a.puzzle.as_ref().map(Board::to_line),
            "status": a.status.name(),
            "solution": a.solution.as_ref().map(Board::to_line),
            "solutions": solutions,
            "count": a.count,
            "error": a.error,
            "error_line": a.error_at.map(|(line, _)| line),
            "error_column": a.error_at.and_then(|(_, column)| column),
            "nodes": a.nodes,
            "guesses": a.guesses,
        });
        if let Some(given) = &a.given {
            value["given_solution"] = given.is_ok().into();
        }
        if let Some(variant) = a.variant {
            value["variant"] = variant.name().into();
        }
        if let Some(variant) = a.unique_as {
            value["unique_as"] = variant.name().into();
        }
        if let Task::Count { limit, .. } = task
            && let Some(n) = a.count
        {
            // A count that reached the limit may not be all of them.
            value["complete"] = (limit != Some(n)).into();
        }
        if let Some(file) = file {
            value["file"] = file.into();
        }
        return write_json(out, &value);
    }
    let grid = format == OutputFormat::Grid;
    let mut comment = match (a.status, &a.error, &a.second) {
        (Status::Invalid, Some(e), _) => Some(format!("invalid: {e}")),
        (Status::None, ..) => Some("no solution".to_owned()),
        (Status::Multiple, _, Some(second)) => match &a.solution {
            Some(first) => Some(format!(
                "multiple solutions; two of them, which differ in {}:",
                differing_cells(first, second)
            )),
            None => Some("multiple solutions".to_owned()),
        },
        (Status::Multiple, ..) => Some("multiple solutions; one of them:".to_owned()),
        _ => None,
    };
    if let Some(v) = a.unique_as {
        let hint =
            format!(" (unique as a {v} puzzle: give --variant {v}, or a `# variant: {v}` line above it)");
        let text = comment.get_or_insert_with(|| "several solutions".to_owned());
        match text.find(';') {
            Some(at) => text.insert_str(at, &hint),
            None => text.push_str(&hint),
        }
    }
    if let Some(Err(e)) = &a.given {
        writeln!(out, "# {}: {e}", place(a, file))?;
    }
    if let Some(c) = comment {
        writeln!(out, "# {}: {c}", place(a, file))?;
    }
    // With several files, each record's line names its file and line, as a comment that the
    // readers skip (a grid has it on a line of its own, above).
    let at = file.map(|f| format!(" # {f}:{}", a.line)).unwrap_or_default();
    if let Task::Count { limit, puzzles } = task {
        if let Some(n) = a.count {
            if puzzles {
                say_headers(out, a, said, false)?;
            }
            let plus = if limit == Some(n) { "+" } else { "" };
            let puzzle = match (puzzles, &a.puzzle) {
                (true, Some(p)) => p.to_line() + " ",
                _ => String::new(),
            };
            writeln!(out, "{puzzle}{n}{plus}{at}")?;
        }
    } else {
        if a.solution.is_some() {
            say_headers(out, a, said, grid)?;
        }
        if let (true, Some(f), Some(_)) = (grid, file, &a.solution) {
            writeln!(out, "# {f}:{}", a.line)?;
        }
        for s in a.solution.iter().chain(&a.second) {
            let mut text = String::with_capacity(200);
            if grid {
                s.write_grid(&mut text);
                // Two solutions of one puzzle are separated, as puzzles are.
                if a.second.is_some() && Some(s) == a.solution.as_ref() {
                    text.push('\n');
                }
            } else {
                text.push_str(&s.to_line());
                text.push_str(&at);
                text.push('\n');
            }
            out.write_all(text.as_bytes())?;
        }
    }
    if grid && matches!(task, Task::Solve { .. }) {
        writeln!(out)?;
    }
    Ok(())
}

/// The header lines written so far: what the records below them are read as.
#[derive(Debug, Default)]
struct Said {
    /// The variant the last `# variant:` line named.
    variant: Option<Variant>,
    /// The size and constraints the last `# size:` line gave.
    size: Option<String>,
}

/// Writes the header lines an answer needs above it, when its puzzle or solution follows, so
/// that the output reads back as it was answered:
/// - `# variant: NAME` for a 9x9 puzzle whose variant was named, or `classic` before a grid of
///   any size (whose rules are in its fields, and which a variant line above it would add to)
///   and before a puzzle whose variant its cells tell; none for classic before the first;
/// - `# size: 2x3 variant=diagonal regions=...` before a block of a grid of another size or
///   rules (`block`): the size, and the fields its rows cannot hold (jigsaw regions, marks,
///   cages), which the readers apply to the blocks below; `# size: 3x3` before a 9x9 block
///   after one.
fn say_headers(out: &mut impl Write, a: &Answer, said: &mut Said, block: bool) -> io::Result<()> {
    let want = match (&a.puzzle, a.variant) {
        // What the cells say (even markers) they say again when read back.
        (Some(Board::Nine(_)), Some(v)) if a.named => v,
        (Some(Board::Nine(_)), _) | (Some(Board::Any(_)), _) => Variant::Classic,
        _ => return Ok(()),
    };
    if said.variant != Some(want) && !(said.variant.is_none() && want == Variant::Classic) {
        writeln!(out, "# variant: {want}")?;
        said.variant = Some(want);
    }
    if block {
        let size = match &a.puzzle {
            Some(Board::Any(grid)) => {
                // The line form's fields but the size's, which the header says first.
                let size = grid.size();
                let text = grid.to_text();
                let fields = text.split(' ').skip(1).filter(|f| !f.starts_with("size="));
                let words = std::iter::once(format!("{}x{}", size.box_rows(), size.box_cols()));
                Some(words.chain(fields.map(String::from)).collect::<Vec<_>>().join(" "))
            }
            _ => said.size.is_some().then(|| "3x3".to_owned()),
        };
        if let Some(size) = size.filter(|s| said.size.as_ref() != Some(s)) {
            writeln!(out, "# size: {size}")?;
            said.size = Some(size);
        }
    }
    Ok(())
}

/// What a rating line says, for a 9x9 puzzle or one of any size.
#[derive(Debug, Clone)]
struct RatingView {
    level: Level,
    rating: f32,
    hardest: &'static str,
    counts: [u32; Technique::COUNT],
    nodes: f64,
    guesses: f64,
    solutions: u64,
    solved: bool,
}

fn write_rating(
    out: &mut impl Write,
    a: &Answer,
    r: &RatingView,
    format: OutputFormat,
    file: Option<&str>,
    explain: bool,
    said: &mut Said,
) -> io::Result<()> {
    let used = Technique::ALL.iter().filter(|&&t| r.counts[t as usize] > 0);
    if format == OutputFormat::Csv {
        let puzzle = a.puzzle.as_ref().map(Board::to_line).unwrap_or_default();
        let level = r.level.name();
        let (nodes, guesses, solutions) =
            (format!("{:.1}", r.nodes), format!("{:.1}", r.guesses), r.solutions.to_string());
        let line = a.line.to_string();
        let hardest = r.hardest;
        let rating = format!("{:.1}", r.rating);
        let variant = a.variant.map_or("", Variant::name);
        return write_csv(
            out,
            [
                file.unwrap_or(""),
                &line,
                &puzzle,
                level,
                &rating,
                hardest,
                &nodes,
                &guesses,
                &solutions,
                "",
                variant,
            ],
        );
    }
    if format == OutputFormat::Json {
        let techniques: serde_json::Map<String, serde_json::Value> =
            used.map(|&t| (t.name().to_owned(), r.counts[t as usize].into())).collect();
        let mut value = serde_json::json!({
            "line": a.line,
            "puzzle": a.puzzle.as_ref().map(Board::to_line),
            "level": r.level.name(),
            "rating": (f64::from(r.rating) * 10.0).round() / 10.0,
            "technique": r.hardest,
            "techniques": techniques,
            "effort": { "nodes": r.nodes, "guesses": r.guesses },
            "solutions": r.solutions,
        });
        if let Some(file) = file {
            value["file"] = file.into();
        }
        if let Some(variant) = a.variant {
            value["variant"] = variant.name().into();
        }
        if explain {
            value["steps"] = a.steps.clone().into();
        }
        return write_json(out, &value);
    }
    if r.solutions != 1 {
        let what = if r.solutions == 0 { "no solution" } else { "multiple solutions" };
        writeln!(out, "# {}: {what}; rated all the same:", place(a, file))?;
    }
    say_headers(out, a, said, false)?;
    let puzzle = a.puzzle.as_ref().map(Board::to_line).unwrap_or_default();
    let hardest = r.hardest;
    let counts: Vec<String> = used.map(|&t| format!("{} {}", t.name(), r.counts[t as usize])).collect();
    let at = file.map(|f| format!(" # {f}:{}", a.line)).unwrap_or_default();
    writeln!(
        out,
        "{puzzle} {} {:.1} ({hardest}) nodes {:.1} guesses {:.1}: {}{at}",
        r.level,
        r.rating,
        r.nodes,
        r.guesses,
        counts.join(", ")
    )?;
    if explain {
        for (k, step) in a.steps.iter().enumerate() {
            writeln!(out, "  {}. {step}", k + 1)?;
        }
        if !r.solved {
            writeln!(out, "  the techniques stop here: guessing is needed")?;
        }
    }
    Ok(())
}
