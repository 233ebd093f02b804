//! `dlx solve` and `dlx count`: batches of sudoku puzzles, streamed, in parallel, in order.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};

use crate::choice::ReadRules;
use dlx_sudoku::{Answer, Defaults, Search, Status, Task, Watch};
use dlx_sudoku::{Format, Level, Matrices, Puzzle, Records, Size, Technique, Variant};
use indicatif::{ProgressBar, ProgressStyle};

use crate::input::{Lines, Source};
use crate::output::{persist, temporary};
use crate::report::{self, EXIT_FAILURE, EXIT_INVALID, EXIT_NOT_UNIQUE, Stopped, Usage, stderr};

mod stream;
mod write;

use crate::progress::{Cleared, CountBars};
use stream::{Body, End};

use write::{CSV_HEADER, CSV_RATE_HEADER, Said, Writing, notes, position, write_answer, write_csv};

/// The bytes an input is read by: a pipe's worth, so that the workers, who read for themselves,
/// seldom stop for a system call.
const READ_BUFFER: usize = 64 << 10;

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

/// Ends the displays of a batch's long counts when dropped (see [`Cleared`]).
struct ClearCounts(Arc<CountBars>);

impl Drop for ClearCounts {
    fn drop(&mut self) {
        self.0.clear();
    }
}

/// How answers are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum OutputFormat {
    /// One line per puzzle: its cells, row after row (81 characters for a 9x9 grid, 256 for
    /// 16x16).
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

/// `--engine`'s values.
fn search_parser() -> impl clap::builder::TypedValueParser<Value = Search> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(Search::ALL.map(Search::name))
        .map(|s| s.parse::<Search>().expect("one of the names"))
}

/// Options shared by `solve`, `count` and `rate`.
#[derive(Debug, Args)]
pub(crate) struct BatchArgs {
    /// Puzzle files in any form, or puzzles as arguments; stdin when none or `-`.
    ///
    /// Puzzle files (lines of 81 cells or of any size, block grids, lists, JSON, CSV, mixed);
    /// stdin when none or `-`. A line may go on after its puzzle (`puzzle,solution`,
    /// `puzzle;rating`, `puzzle # comment`): a full grid next is the puzzle's solution, and is
    /// checked; other fields are ignored. A header row naming a `puzzle` (or `quizzes`) column
    /// and maybe a `solution` column is followed. A file that cannot be read is reported and the
    /// others are answered (exit status 1). An argument that names no file and reads as one
    /// puzzle (a line of 16, 81, 256 or 625 cells) is that puzzle: `dlx solve 4.....8.5.3...`.
    files: Vec<PathBuf>,
    #[command(flatten)]
    rules: ReadRules,
    /// Read every puzzle as a grid of this size (`16`, `2x3`).
    ///
    /// Read every puzzle as a grid of this size: a side (`4`, `6`, `16`, `25`: the usual boxes)
    /// or a box shape (`2x3`: boxes of 2 rows and 3 columns), in lines of side x side symbols or
    /// blocks of side rows [default: lines of 16, 36, 64, 100, 144, 256 or 625 symbols are read
    /// as grids of that size, lines of 81 as 9x9 puzzles]. Digits above 9 are letters: `A` is 10
    /// ... `G` 16 ... `P` 25 (or `0`-`F` for 1-16, read when a grid has `0`s and `.`s and no `G`).
    #[arg(long, value_name = "SIZE")]
    size: Option<Size>,
    /// Worker threads (at most 1024; all cores by default).
    ///
    /// Worker threads, at most 1024 [default: all cores]. No more are started than there are
    /// cores, nor than the work has pieces: more could not make it faster.
    #[arg(short = 'j', long, value_name = "N", value_parser = crate::choice::threads)]
    threads: Option<u64>,
    /// The search: auto, dlx (the engine's links) or bits (bit sets) [default: auto].
    ///
    /// The search that answers: `dlx`, the engine's dancing links (Algorithm X itself, as on the
    /// puzzle's `.dlx` form); `bits`, Algorithm X on bit sets of the same matrix, with forced
    /// items and locked candidates applied in bulk at every node (for rules without killer cages,
    /// which take the engine); `auto`, the faster for the rules: today the bit sets wherever
    /// they apply [default: auto]. The answers are the same; nodes and guesses in --stats count
    /// each search's own tree. `rate` searches with the engine whatever this says: its effort is
    /// part of the rating.
    #[arg(long, value_name = "SEARCH", default_value = "auto", hide_default_value = true,
          value_parser = search_parser())]
    engine: Search,
    /// Print a closing summary to stderr.
    ///
    /// Print a closing summary to stderr: puzzles, unique, multiple, none, invalid (with
    /// --first: solved, none, invalid), puzzles per second, nodes and guesses per puzzle searched.
    #[arg(short, long)]
    stats: bool,
    /// Show no progress bar.
    ///
    /// Show no progress bar (one shows on a terminal while a large input is read).
    #[arg(short, long, visible_alias = "no-progress")]
    quiet: bool,
    /// Exit with status 3 unless every puzzle has exactly one solution.
    ///
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
    /// Output format (as each puzzle came, by default).
    ///
    /// Output format [default: the form each puzzle came in: line, or grid for grids and lists].
    #[arg(short, long, value_enum)]
    format: Option<OutputFormat>,
    /// Skip the uniqueness check and print the first solution found (fastest).
    #[arg(long)]
    first: bool,
    /// With --format dlx: one `.dlx` file per puzzle, in this folder.
    ///
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
#[command(mut_arg("stats", |a| a.help("Print a closing summary to stderr").long_help(
    "Print a closing summary to stderr: puzzles, unique, multiple, none, invalid, puzzles per \
     second, nodes and guesses per puzzle searched"
)))]
pub(crate) struct CountArgs {
    #[command(flatten)]
    batch: BatchArgs,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "line")]
    format: TableFormat,
    /// Stop counting each puzzle at N solutions (at least 1).
    #[arg(long, value_name = "N", value_parser = crate::choice::at_least_one)]
    limit: Option<u64>,
    /// Print each puzzle before its count.
    ///
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
/// guesses of the uniqueness search, averaged over eight random branching orders; on grids
/// larger than 9x9, one search). Every size and rule set is rated with the same techniques.
/// Exit status as for `solve`.
#[derive(Debug, Args)]
#[command(mut_arg("stats", |a| a.help("Print a closing summary to stderr").long_help(
    "Print a closing summary to stderr: puzzles, unique, multiple, none, invalid, puzzles per \
     second, nodes and guesses per puzzle searched; then how many puzzles took each level, and \
     each technique as the hardest"
)))]
pub(crate) struct RateArgs {
    #[command(flatten)]
    batch: BatchArgs,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "line")]
    format: TableFormat,
    /// Print the logical solution too, one step per line.
    ///
    /// Print the logical solution too, one step per line (technique, cells, digits, what it
    /// placed or removed); in JSON, as `steps`.
    #[arg(long)]
    explain: bool,
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
    /// Adds another summary's answers, which came after this one's (the techniques keep their
    /// first-seen order).
    fn merge(&mut self, other: &Summary) {
        self.puzzles += other.puzzles;
        self.solved += other.solved;
        self.unique += other.unique;
        self.multiple += other.multiple;
        self.none += other.none;
        self.invalid += other.invalid;
        self.wrong_given += other.wrong_given;
        for (level, n) in self.levels.iter_mut().zip(other.levels) {
            *level += n;
        }
        for &(name, n) in &other.hardest {
            match self.hardest.iter_mut().find(|(known, _)| *known == name) {
                Some((_, count)) => *count += n,
                None => self.hardest.push((name, n)),
            }
        }
        self.nodes += other.nodes;
        self.guesses += other.guesses;
    }

    fn add(&mut self, a: &Answer, task: Task) {
        self.puzzles += 1;
        if matches!(a.given, Some(Err(_))) {
            self.wrong_given += 1;
        }
        let rated = a.rating.as_ref().map(|r| (r.logic.level(), r.logic.hardest_name()));
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

/// Who reads an input: the run's own thread, or one in the background.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wait {
    /// The run reads it, and nothing is left unwritten while it waits for standard input: a
    /// signal then ends the run at once (see [`crate::input::stdin`]).
    InRun,
    /// Other threads read it (the workers) while the run writes: the run looks for signals itself.
    InBackground,
}

/// An input being read, with its progress bar.
pub(crate) type Opened = (Box<dyn Lines>, ProgressBar);

/// Opens one input, with its progress bar; `None` (reported) when it cannot be opened.
pub(crate) fn open(source: &Source, quiet: bool, wait: Wait) -> Result<Option<Opened>> {
    Ok(Some(match source {
        Source::Stdin => {
            // No spinner under lines a person types.
            let bar = progress_bar(source, None, quiet || io::stdin().is_terminal());
            let stdin: Box<dyn io::Read + Send> = match wait {
                Wait::InRun => Box::new(crate::input::stdin()),
                Wait::InBackground => Box::new(crate::input::Cancellable(io::stdin())),
            };
            (Box::new(BufReader::with_capacity(READ_BUFFER, bar.wrap_read(stdin))), bar)
        }
        Source::Argument(text, _) => {
            (Box::new(io::Cursor::new(text.clone().into_bytes())), ProgressBar::hidden())
        }
        Source::File(p) => match File::open(p) {
            Ok(file) => {
                let bar = progress_bar(source, file.metadata().ok().map(|m| m.len()), quiet);
                (
                    Box::new(BufReader::with_capacity(
                        READ_BUFFER,
                        bar.wrap_read(crate::input::Cancellable(file)),
                    )),
                    bar,
                )
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
    let matrices = Arc::new(Matrices::new());
    let sources = Source::puzzles(&args.files);
    let named = args.rules.named();
    let variant = named.variant;
    let mut out = BufWriter::new(io::stdout().lock());
    if format == Some(OutputFormat::Csv) {
        match task {
            Task::Rate { .. } => write_csv(&mut out, CSV_RATE_HEADER)?,
            _ => write_csv(&mut out, CSV_HEADER)?,
        }
    }
    let on_screen = io::stdout().is_terminal() && io::stderr().is_terminal();
    let mut summary = Summary::default();
    // The variant the last `# variant:` line written names.
    let mut said = Said::default();
    let start = Instant::now();
    // An input could not be read (all of it, or from some point on).
    let mut unreadable = false;
    let threads = report::workers(args.threads);
    for source in &sources {
        let Some((reader, bar)) = open(source, args.quiet, Wait::InBackground)? else {
            unreadable = true;
            continue;
        };
        // Records name their file when there are several.
        let name = source.name();
        let file = (sources.len() > 1).then_some(name.as_str());
        if matches!(source, Source::Stdin) && io::stdin().is_terminal() {
            bar.suspend(|| stderr!("dlx: reading puzzles from the terminal, one per line (Ctrl-D to end)"))?;
        }
        let defaults =
            Defaults { size: args.size, constraints: named.constraints.clone(), ..Defaults::default() };
        let mut records = Records::new(reader);
        if defaults != Defaults::default() {
            records = records.with_grid_defaults(defaults);
        }
        // A count that turns out long runs on every thread asked for, shown at a terminal.
        let show = crate::progress::Show::choose(false, args.quiet, false);
        let bars = Arc::new(CountBars::new(show, name.clone()));
        let watch =
            matches!(task, Task::Count { .. }).then(|| (Arc::clone(&bars) as Arc<dyn Watch>, threads));
        let asked =
            stream::Asked { matrices: Arc::clone(&matrices), variant, task, watch, search: args.engine };
        let writing = Writing { format, task, file: file.map(str::to_owned), name: name.clone(), on_screen };
        let mut answers = stream::answers(records, source.is_steady(), threads, asked, writing);
        // However the reading ends, no bar stays drawn (the workers keep theirs).
        let _cleared = (Cleared(bar.clone()), ClearCounts(bars));
        let flush = |out: &mut BufWriter<_>, puzzles| {
            bar.set_message(format!("{puzzles} puzzles"));
            out.flush()
        };
        loop {
            let puzzles = summary.puzzles;
            let Some(piece) = answers.next_written(|| flush(&mut out, puzzles))? else { break };
            let list = match piece.body {
                Body::Written(written) => {
                    summary.merge(&written.summary);
                    for m in &written.messages {
                        bar.suspend(|| stderr!("{m}"))?;
                    }
                    out.write_all(&written.text)?;
                    Vec::new()
                }
                Body::Answers(list) => list,
            };
            for a in list {
                if let (Task::Encode, Some(dir)) = (task, output) {
                    summary.add(&a, task);
                    if let Some(e) = &a.error {
                        bar.suspend(|| stderr!("dlx: {name}:{}: {e}", position(&a)))?;
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
                summary.add(&a, task);
                // The record on stdout says what is wrong; on stderr too, unless both are the
                // screen a person reads, which would show it twice.
                if !on_screen {
                    for m in notes(&a, &name) {
                        bar.suspend(|| stderr!("{m}"))?;
                    }
                }
                write_answer(&mut out, &a, format, task, file, &mut said)?;
            }
            match piece.end {
                None => {}
                Some(End::Stopped) => {
                    out.flush()?;
                    return Err(Stopped.into());
                }
                Some(End::Failed(e, last_line)) => {
                    out.flush()?;
                    bar.finish_and_clear();
                    if report::check_interrupt().is_err() {
                        // Ctrl-C or SIGTERM stopped the reading (a long line, a device).
                        return Err(Stopped.into());
                    }
                    // What was read before is answered above; the rest of this input is lost.
                    stderr!("dlx: {name}: cannot read past line {last_line}: {e}")?;
                    unreadable = true;
                    break;
                }
            }
        }
        bar.finish_and_clear();
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
            "puzzles {}, {found}, none {}, invalid {}, {}, nodes/puzzle {:.1}, guesses/puzzle {:.1}",
            summary.puzzles,
            summary.none,
            summary.invalid,
            report::pace(summary.puzzles, secs),
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
