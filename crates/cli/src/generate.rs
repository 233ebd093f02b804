//! `dlx generate`: minimal unique puzzles, reproducible from a seed, in parallel, in order.

use std::hash::{BuildHasher, RandomState};
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use dlx_sudoku::{
    Entry, Layout, Level, Matrix, PageWriter, Paper, Plan, Puzzle, Run, Size, Symmetry, Variant,
};
use dlx_sudoku::{Extras, GenerateError, Generator, NamedRules, Numbered, Rated, SolveError};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::choice::{self, MadeRule};
use crate::ordered::{Ordered, ordered};
use crate::output::{persist, temporary};
use crate::pages::{Book, PageFormat, PaperArgs};
use crate::report::{self, EXIT_FAILURE, Stopped, Usage, stderr};

/// Output of `dlx generate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum GenerateFormat {
    /// One line per puzzle: 81 cells for 9x9 (`e` marks an empty even cell), with fields for rules.
    Line,
    /// A block grid per puzzle.
    Grid,
    /// One JSON object per puzzle (NDJSON).
    Json,
    /// SVG: one picture of all puzzles on stdout, or a file a puzzle with --output; pages of
    /// paper with --paper or --per-page.
    Svg,
    /// Pages of paper as one PDF document: on stdout, or `pages.pdf` with --output.
    Pdf,
    /// Pages of paper as PNG images (200 dpi, or --dpi): one on stdout, or `page-0001.png`, ...
    /// with --output.
    Png,
}

impl GenerateFormat {
    /// The form of pages of paper, for the formats that make them.
    fn pages(self) -> Option<PageFormat> {
        match self {
            GenerateFormat::Svg => Some(PageFormat::Svg),
            GenerateFormat::Pdf => Some(PageFormat::Pdf),
            GenerateFormat::Png => Some(PageFormat::Png),
            _ => None,
        }
    }
}

/// Generate puzzles with a unique solution that logic solves.
///
/// Each puzzle is a random full grid with clues (and their symmetric partners) removed while the
/// solution stays unique, until removing any further clue group would make it ambiguous: a
/// minimal puzzle. One that logic cannot solve without guessing (most 16x16, killer and many
/// jigsaw ones) takes back the fewest clue groups that let it, and so does one harder than
/// --difficulty; --minimal keeps minimal puzzles only. The same seed gives the same puzzles on any
/// machine and with any number of threads. Exit status: 0 on success; 1 when a puzzle of the
/// asked difficulty was not found within the attempts (its place is left out), or output failed;
/// 2 for misused options.
#[derive(Debug, Args)]
pub(crate) struct GenerateArgs {
    /// How many puzzles.
    #[arg(short = 'n', long, default_value_t = 1, value_name = "N")]
    count: u64,
    /// Rules beyond rows, columns and boxes (a comma-separated list).
    ///
    /// The rules beyond rows, columns and boxes (repeat or separate with commas): diagonal,
    /// windoku, anti-king, anti-knight, even (9x9, cells marked `e` hold even digits); and made
    /// up for each puzzle: jigsaw (regions instead of boxes), killer (cages: see --killer),
    /// odd-even (marks on about a quarter of the cells) [default: classic, nothing added].
    /// `--variant` and `--constraint` are older names of this option, and `--jigsaw`,
    /// `--killer` and `--parity` are short for `--rules jigsaw` and so on.
    #[arg(
        long,
        visible_aliases = ["variant", "constraint"],
        value_name = "NAME",
        value_delimiter = ',',
        value_parser = choice::parser::<MadeRule>()
    )]
    rules: Vec<MadeRule>,
    /// Make puzzles of this size (`16`, `2x3`).
    ///
    /// Make puzzles of this size: a side (`4`, `6`, `16`, `25`: the usual boxes) or a box shape
    /// (`2x3`); the output is in the forms `solve --size` reads (digits above 9 as letters).
    /// Large grids take long (a 25x25 puzzle several seconds): a bar shows progress on a terminal.
    #[arg(long, value_name = "SIZE")]
    size: Option<dlx_sudoku::Size>,
    /// Make up random jigsaw regions for each puzzle (--rules jigsaw).
    #[arg(long)]
    jigsaw: bool,
    /// Make up killer cages for each puzzle, 2 to 4 cells (--rules killer).
    ///
    /// Make up killer cages for each puzzle (2 to 4 cells each, covering the grid, never one
    /// alone), with no symmetry. Up to 9x9, a few cage sets are drawn for one whose cages alone
    /// have a unique solution: about half the puzzles have no given digit, the others keep
    /// the few their cages need. (With --difficulty below expert, each attempt takes its first
    /// cage set: cages alone make hard puzzles.)
    #[arg(long)]
    killer: bool,
    /// Mark about a quarter of the cells even or odd for each puzzle (--rules odd-even).
    #[arg(long)]
    parity: bool,
    /// Symmetry of the clues.
    ///
    /// Symmetry of the clues [default: rotational; none with killer, whose cages made up at
    /// random have no symmetry, and where rotations do not fit the rules' windows].
    #[arg(long, value_parser = choice::parser::<Symmetry>())]
    symmetry: Option<Symmetry>,
    /// Seed of the run [default: drawn at random and reported by --stats and in JSON].
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Make puzzles of this level [default: any that logic solves].
    ///
    /// Make puzzles of this level: easy (singles), medium (locked candidates), hard (pairs,
    /// triples, X-wings, swordfish), expert (beyond) [default: any level that logic solves,
    /// without guessing]. Minimal puzzles are made until one is of the level; after 50 attempts
    /// (or half --max-attempts; at once above 16x16), a harder one may take givens back to reach
    /// it (not with --minimal). Expert takes what
    /// comes: givens never make a puzzle harder.
    #[arg(long, value_name = "LEVEL", value_parser = choice::parser::<Level>())]
    difficulty: Option<Level>,
    /// Attempts per puzzle, at most.
    ///
    /// Attempts per puzzle allowed to reach --difficulty, or to make a puzzle at all when a
    /// search for a grid or a jigsaw map runs out (the puzzle is then reported missing, with its
    /// seed, and the run goes on).
    #[arg(long, default_value_t = Run::DEFAULT_ATTEMPTS, value_name = "N", value_parser = crate::choice::at_least_one)]
    max_attempts: u64,
    /// Only minimal puzzles: never add givens back.
    ///
    /// Only minimal puzzles (no clue group can go): a puzzle that needs guessing, or is harder
    /// than --difficulty, is made again rather than given givens back. Without it, a puzzle that
    /// logic cannot solve takes back the fewest clue groups that let it, and one harder than
    /// --difficulty (after 50 attempts at a minimal one) the fewest that bring it to the level;
    /// JSON says `"minimal": false` of them. With it, puzzles of most rules but the classic 9x9
    /// ones often need guessing, and levels below their usual one may not be reached.
    #[arg(long)]
    minimal: bool,
    /// Output format (svg with --paper, --output or --per-page; line otherwise).
    ///
    /// Output format [default: svg with --paper, --output or --per-page; line otherwise]. The
    /// pictures (svg, pdf, png) caption each puzzle with its number, level and rules.
    #[arg(short, long, value_enum)]
    format: Option<GenerateFormat>,
    /// In the line form, each puzzle's solution beside it.
    ///
    /// In the line form, write each puzzle's solution right after its cells (`PUZZLE SOLUTION`
    /// and the rules' fields), as collections keep them: `dlx solve` reads it back and checks
    /// it. JSON records always hold the solution; pages of paper take --answers.
    #[arg(long)]
    solution: bool,
    /// Write the pictures into this folder.
    ///
    /// Write the pictures into this folder: `puzzle-0001.svg`, ... for svg; pages of paper for
    /// --paper, --per-page, pdf and png (`page-0001.svg`, `page-0001.png`, ..., or `pages.pdf`).
    /// Each file appears whole or not at all (written under a temporary name, then renamed).
    #[arg(short, long, value_name = "DIR")]
    output: Option<PathBuf>,
    /// Puzzles per page of paper [default: as many as fill it].
    ///
    /// Puzzles per page of paper (implies --paper a4) [default: as many as fill the paper with
    /// cells of 7 mm or more: twelve 4x4 or 6x6 puzzles on A4, six 9x9, two 16x16, one 25x25].
    #[arg(long, value_name = "N", value_parser = crate::choice::at_least_one)]
    per_page: Option<u64>,
    /// Worker threads (at most 1024; all cores by default).
    ///
    /// Worker threads, at most 1024 [default: all cores]. No more are started than there are
    /// cores, nor than the work has pieces: more could not make it faster.
    #[arg(short = 'j', long, value_name = "N", value_parser = crate::choice::threads)]
    threads: Option<u64>,
    /// Print a closing summary (with the seed) to stderr.
    #[arg(short, long)]
    stats: bool,
    /// Show no progress.
    ///
    /// Show no progress (on a terminal a bar shows from the start: the puzzles made, and a share
    /// of each one under way, and the time left).
    #[arg(short, long, visible_alias = "no-progress")]
    quiet: bool,
    /// Show progress also when stderr is no terminal: a line every 10 seconds.
    ///
    /// Show progress on stderr also when it is not a terminal, as a line every 10 seconds.
    #[arg(long)]
    progress: bool,
    #[command(flatten)]
    paper: PaperArgs,
}

/// One puzzle of the run, or why it is missing.
struct Made {
    result: Result<Numbered, GenerateError>,
    /// The level and the hardest technique, when asked for (by `--difficulty`, pages or JSON
    /// output): every technique's verdict, as `dlx rate` gives it.
    rating: Option<Rated>,
}

/// The run's plan (`dlx_sudoku::Plan`: its rules, variant, rules made up for each puzzle, and
/// run) from the arguments, or what in them cannot be made.
fn plan_of(args: &GenerateArgs) -> Result<Plan> {
    let mut named = NamedRules::of(args.rules.iter().map(|r| r.0));
    named.jigsaw |= args.jigsaw;
    named.killer |= args.killer;
    named.parity |= args.parity;
    let extras = Extras::from(&named);
    let seed = args.seed.unwrap_or_else(|| RandomState::new().hash_one(std::process::id()));
    let run = Run {
        level: args.difficulty,
        max_attempts: args.max_attempts,
        ease: !args.minimal,
        ..Run::new(seed)
    };
    let size = args.size.unwrap_or(Size::CLASSIC);
    let variant = named.variant.unwrap_or(Variant::Classic);
    Plan::new(size, variant, &named.constraints, extras, args.symmetry, run)
        .map_err(|e| Usage(e.to_string()).into())
}

/// A generator of the run's puzzles over the matrix of its rules, stopped by Ctrl-C.
fn generator<'m>(plan: &Plan, matrix: &'m Matrix) -> Generator<'m> {
    plan.generator(matrix, Some(report::cancel_flag().clone()))
}

impl Made {
    /// Puzzle `index` of the run, rated when the output needs it.
    fn make(
        plan: &Plan,
        generator: &mut Generator<'_>,
        index: u64,
        rate: bool,
        tick: &mut dyn FnMut(usize, usize),
    ) -> Made {
        let result = plan.make(generator, index, tick, Some(report::cancel_flag()));
        let rating = match &result {
            Ok(numbered) if rate => Some(Rated::of(&numbered.generated.puzzle)),
            _ => None,
        };
        Made { result, rating }
    }
}

/// The puzzle's rules in words, for captions: the variant's name, or the rules described.
fn rules_name(plan: &Plan, puzzle: &Puzzle) -> String {
    plan.variant.map_or_else(|| puzzle.rules().describe(), |v| v.to_string())
}

/// Where pictures go.
enum Pictures {
    /// Pages of paper.
    Paper(Book),
    /// One picture on stdout, drawn as the puzzles come.
    Stdout(PageWriter<BufWriter<io::StdoutLock<'static>>>),
    /// One file a puzzle, in `dir`.
    Files { dir: PathBuf },
}

impl Pictures {
    /// Draws puzzle `index` (its rules named `name` in a caption), or leaves its place blank.
    fn add(&mut self, index: u64, made: Option<&Made>, name: &str) -> Result<()> {
        let generated = made.and_then(|m| m.result.as_ref().ok()).map(|n| &n.generated);
        let puzzle = generated.map(|g| &g.puzzle);
        match self {
            Pictures::Paper(book) => {
                // A puzzle not made leaves no place: the numbers show the gap.
                if let (Some(g), Some(made)) = (generated, made) {
                    let level = made.rating.map(|r| format!(" · {}", r.level)).unwrap_or_default();
                    let caption = format!("{}{level} · {name}", index + 1);
                    let entry = Entry { puzzle: g.puzzle.clone(), caption, solution: None };
                    book.add(entry, index + 1, Some(g.solution.clone()))?;
                }
            }
            Pictures::Stdout(page) => match puzzle {
                Some(puzzle) => page.add(puzzle)?,
                None => page.skip(),
            },
            Pictures::Files { dir } => {
                if let Some(puzzle) = puzzle {
                    let path = dir.join(format!("puzzle-{:04}.svg", index + 1));
                    let mut file = temporary(dir, ".svg.part")?;
                    let mut page = PageWriter::new(BufWriter::new(&mut file), 1, 1)?;
                    page.add(puzzle)?;
                    page.finish()?;
                    persist(file, &path)?;
                }
            }
        }
        Ok(())
    }

    /// Ends the page on stdout.
    fn finish(self) -> Result<()> {
        match self {
            Pictures::Stdout(page) => {
                page.finish()?.flush()?;
            }
            Pictures::Paper(book) => book.finish()?,
            Pictures::Files { .. } => {}
        }
        Ok(())
    }
}

impl GenerateArgs {
    /// The output format: as asked, else SVG when an option of pictures is given.
    fn format(&self) -> GenerateFormat {
        let pictures = self.paper.paper.is_some() || self.output.is_some() || self.per_page.is_some();
        self.format.unwrap_or(if pictures { GenerateFormat::Svg } else { GenerateFormat::Line })
    }

    /// The form of the pages of paper, when the output is pages: for --paper and --per-page,
    /// and for PDF and PNG.
    fn pages(&self) -> Option<PageFormat> {
        let paper = self.paper.paper.is_some() || self.per_page.is_some();
        self.format().pages().filter(|&f| paper || f != PageFormat::Svg)
    }
}

/// Starts making the puzzles of the run on as many threads as it may use, each taking the next
/// index as it is free (each puzzle depends on the run and its index alone): the puzzles, in
/// order (`None` for those that Ctrl-C stopped). `rate` says whether each is rated, `groups`
/// how many clue groups an attempt tries (the bar's steps); `finished` counts those made.
fn make_all(
    args: &GenerateArgs,
    plan: &Arc<Plan>,
    matrix: &Arc<Matrix>,
    (rate, groups): (bool, u64),
    bar: &ProgressBar,
    finished: &Arc<AtomicU64>,
) -> Ordered<Option<Made>> {
    let (producer, made) = ordered();
    let next = Arc::new(AtomicU64::new(0));
    let count = args.count;
    let threads = report::workers(args.threads).min(usize::try_from(count).unwrap_or(usize::MAX));
    for _ in 0..threads {
        let (plan, matrix, bar) = (Arc::clone(plan), Arc::clone(matrix), bar.clone());
        let (next, producer, finished) = (Arc::clone(&next), producer.clone(), Arc::clone(finished));
        std::thread::spawn(move || {
            let mut generator = generator(&plan, &matrix);
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= count || !producer.room(index) {
                    return;
                }
                // After Ctrl-C the rest is not made (nor written).
                let made = report::check_interrupt().is_ok().then(|| {
                    // The clue groups tried so far in this attempt (a 9x9 variant's generator
                    // tells them all at once).
                    let mut shown = 0;
                    let mut tick = |tried: usize, _: usize| {
                        let share = (tried as u64).saturating_mul(PER_PUZZLE) / groups.max(1);
                        let share = share.min(PER_PUZZLE - PER_PUZZLE / 100);
                        if share > shown {
                            bar.inc(share - shown);
                            shown = share;
                        }
                    };
                    let made = Made::make(&plan, &mut generator, index, rate, &mut tick);
                    bar.inc(PER_PUZZLE - shown);
                    finished.fetch_add(1, Ordering::Relaxed);
                    made
                });
                if !producer.send(index, made) {
                    return;
                }
            }
        });
    }
    made
}

/// A puzzle's share of the progress bar.
const PER_PUZZLE: u64 = 1000;

/// With `--progress` on a stderr that is no terminal: a line every 10 seconds (the first after
/// one) until the bar is finished.
fn generation_lines(bar: &ProgressBar) {
    let start = Instant::now();
    let mut next = Duration::from_secs(1);
    while !bar.is_finished() {
        if start.elapsed() < next {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        }
        next += Duration::from_secs(10);
        let (done, all) = (bar.position(), bar.length().unwrap_or(1).max(1));
        let seconds = start.elapsed().as_secs_f64();
        let fraction = done as f64 / all as f64;
        let left = if fraction > 0.0 {
            format!("about {} left", crate::progress::duration(seconds * (1.0 - fraction) / fraction))
        } else {
            "time left unknown".into()
        };
        let line = format!(
            "dlx: generating: {:.1}% done ({}), {seconds:.0} s so far, {left}",
            100.0 * fraction,
            bar.message()
        );
        // A closed or full stderr only ends the reports.
        if stderr!("{line}").is_err() {
            return;
        }
    }
}

/// Checks the options of the pictures against each other.
fn check_pictures(args: &GenerateArgs, side: usize) -> Result<()> {
    if args.solution
        && matches!(
            args.format(),
            GenerateFormat::Grid | GenerateFormat::Svg | GenerateFormat::Pdf | GenerateFormat::Png
        )
    {
        return Err(Usage(
            "--solution is for the line form (JSON records always hold the solution; pages of paper take --answers)"
                .into(),
        )
        .into());
    }
    let pictures = args.format().pages().is_some();
    if !pictures && (args.output.is_some() || args.per_page.is_some() || args.paper.paper.is_some()) {
        return Err(Usage(
            "--output, --per-page and --paper are for pictures (--format svg, pdf or png)".into(),
        )
        .into());
    }
    let Some(pages) = args.pages() else {
        if args.paper.answers {
            return Err(
                Usage("--answers is for pages of paper (--paper, or --format pdf or png)".into()).into()
            );
        }
        return Ok(());
    };
    let paper = args.paper.paper.unwrap_or(Paper::A4);
    let per_page = args.per_page.unwrap_or_else(|| {
        Layout::fitting(paper, args.paper.margin, side, Layout::PUZZLE_CELL_MM).per_page as u64
    });
    if per_page > 100 {
        return Err(Usage(format!("--per-page {per_page}: a page of paper holds at most 100 puzzles")).into());
    }
    if args.output.is_none() && pages != PageFormat::Pdf && args.count > per_page {
        return Err(Usage(format!(
            "{} puzzles make several pages of {per_page}: give --output DIR, or a larger --per-page",
            args.count
        ))
        .into());
    }
    Ok(())
}

/// Makes the puzzles and writes them, in order: every size and rule set alike.
pub(crate) fn run(args: &GenerateArgs) -> Result<ExitCode> {
    let plan = Arc::new(plan_of(args)?);
    check_pictures(args, plan.rules.size().side())?;
    let matrix = Arc::new(Matrix::new(&plan.rules));
    // Rules no grid obeys fail once, not once per puzzle. The grid found is the first
    // puzzle's first (the matrix remembers it for that seed).
    if plan.variant.is_none() && !plan.extras.jigsaw {
        let mut check = Generator::new(&matrix);
        check.set_cancel_flag(Some(report::cancel_flag().clone()));
        match check.full_grid(plan.run.seed_of(0, 0)) {
            Err(e @ GenerateError::NoGrid(_)) => return Err(Usage(e.to_string()).into()),
            // Every puzzle's attempts would search as long again, each: the run ends here, in
            // the bound it says, rather than after hours.
            Err(e @ GenerateError::GridBudget(_)) => {
                report::check_interrupt()?;
                stderr!("dlx: {e}: no puzzle made (each attempt would search as long)")?;
                return Ok(ExitCode::from(EXIT_FAILURE));
            }
            _ => {}
        }
        report::check_interrupt()?;
    }
    if let Some(dir) = &args.output {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    // Only `--difficulty`, pages of paper and the JSON output need the rating: a logical solve
    // of each puzzle.
    let rate = args.difficulty.is_some() || args.format() == GenerateFormat::Json || args.pages().is_some();
    let side = plan.rules.size().side();
    let groups = plan.run.symmetry.orbits_in(side).len() as u64;
    // Progress in thousandths of a puzzle: each puzzle's share grows with the clue groups its
    // attempt has tried (never back, never past 0.99 until it is made), so the bar only moves
    // forward, whatever the size, and one slow puzzle shows as it goes.
    let show = crate::progress::Show::choose(args.progress, args.quiet, false);
    let bar = ProgressBar::with_draw_target(
        Some(args.count.saturating_mul(PER_PUZZLE)),
        match show {
            crate::progress::Show::Bar => ProgressDrawTarget::stderr_with_hz(4),
            _ => ProgressDrawTarget::hidden(),
        },
    );
    // Puzzles finished, in any order: the pace of the run.
    let finished = Arc::new(AtomicU64::new(0));
    if let Ok(style) = ProgressStyle::with_template("{prefix} {wide_bar} {msg}, {elapsed} so far, {left}") {
        // The time left at the pace of the puzzles finished, not of the bar's steps (indicatif's
        // `eta`): a puzzle's steps come unevenly, fast and then slow, and a pace from them jumps.
        let finished = Arc::clone(&finished);
        bar.set_style(style.with_key("left", move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let done = finished.load(Ordering::Relaxed) as f64;
            let all = (state.len().unwrap_or(0) / PER_PUZZLE) as f64;
            let seconds = state.elapsed().as_secs_f64();
            let _ = match done > 0.0 {
                true => write!(w, "{} left", crate::progress::duration(seconds * (all - done) / done)),
                false => write!(w, "time left unknown"),
            };
        }));
    }
    let extras =
        [(plan.extras.jigsaw, " jigsaw"), (plan.extras.killer, " killer"), (plan.extras.parity, " odd-even")];
    let extras: String = extras.iter().filter(|(on, _)| *on).map(|(_, name)| *name).collect();
    bar.set_prefix(format!("generating {}{extras}", plan.rules.describe()));
    bar.set_message(format!("0 of {} puzzles", args.count));
    if show == crate::progress::Show::Bar {
        bar.enable_steady_tick(Duration::from_millis(250));
    }
    // Under a bar, stdout reaches the terminal only when flushed, with the bar out of the way.
    let mut out = BufWriter::with_capacity(
        if show == crate::progress::Show::Bar { 1 << 22 } else { 1 << 13 },
        io::stdout().lock(),
    );
    let lines = (show == crate::progress::Show::Lines).then(|| {
        let bar = bar.clone();
        std::thread::spawn(move || generation_lines(&bar))
    });
    let mut pictures = match (&args.output, args.format()) {
        _ if let Some(format) = args.pages() => {
            let per_page = args.per_page.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
            Some(Pictures::Paper(Book::new(&args.paper, format, per_page, args.output.clone())?))
        }
        (Some(dir), _) => Some(Pictures::Files { dir: dir.clone() }),
        (None, GenerateFormat::Svg) => {
            let count = usize::try_from(args.count).context("too many puzzles for one page")?;
            Some(Pictures::Stdout(PageWriter::new(BufWriter::new(io::stdout().lock()), count, 3)?))
        }
        (None, _) => None,
    };
    let (mut made_count, mut missing, mut clues, mut attempts, mut eased) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let start = Instant::now();
    let mut made = make_all(args, &plan, &matrix, (rate, groups), &bar, &finished);
    // However the run ends, the bar is cleared (the makers keep clones of it).
    let _cleared = crate::progress::Cleared(bar.clone());
    for index in 0.. {
        let Some(made) = made.next_written(|| bar.suspend(|| out.flush()))? else { break };
        let stopped = matches!(
            made,
            None | Some(Made { result: Err(GenerateError::Solve(SolveError::Interrupted(_))), .. })
        );
        let Some(made) = made.filter(|_| !stopped) else {
            // Pages under --output not finished are removed with their temporary files.
            bar.suspend(|| out.flush())?;
            return Err(Stopped.into());
        };
        let numbered = match &made.result {
            Ok(numbered) => {
                attempts += numbered.attempts;
                numbered
            }
            Err(e) => {
                if let GenerateError::NotFound(not_found) = e {
                    attempts += not_found.attempts;
                }
                missing += 1;
                let hint = match e {
                    GenerateError::NotFound(_) | GenerateError::Failed { .. } => {
                        " (try more --max-attempts, or another level)"
                    }
                    _ => "",
                };
                bar.suspend(|| stderr!("dlx: {e}{hint}"))?;
                if let Some(pictures) = &mut pictures {
                    pictures.add(index, None, "")?;
                }
                continue;
            }
        };
        made_count += 1;
        bar.set_message(format!("{made_count} of {} puzzles", args.count));
        eased += u64::from(numbered.added > 0);
        clues += numbered.generated.puzzle.givens() as u64;
        match &mut pictures {
            Some(pictures) => {
                let name = rules_name(&plan, &numbered.generated.puzzle);
                pictures.add(index, Some(&made), &name)?;
            }
            None => {
                // Above every block but a classic one: each block reads back alone.
                if args.format() == GenerateFormat::Grid {
                    let wanted = numbered.generated.puzzle.record_block_header();
                    if wanted != "# size: 3x3" && wanted != Variant::Classic.header_line() {
                        writeln!(out, "{wanted}")?;
                    }
                }
                write_made(&mut out, &plan, numbered, made.rating, args)?;
            }
        }
    }
    bar.suspend(|| out.flush())?;
    bar.finish_and_clear();
    if let Some(lines) = lines {
        let _ = lines.join();
    }
    if let Some(pictures) = pictures {
        pictures.finish()?;
    }
    out.flush()?;
    if args.stats {
        let secs = start.elapsed().as_secs_f64();
        stderr!(
            "seed {}, puzzles {made_count}, missing {missing}, attempts {attempts}, {eased} with givens added back, {:.1} clues on average, {}",
            plan.run.seed,
            if made_count > 0 { clues as f64 / made_count as f64 } else { 0.0 },
            crate::report::pace(made_count, secs),
        )?;
    }
    Ok(if missing > 0 { ExitCode::from(EXIT_FAILURE) } else { ExitCode::SUCCESS })
}

fn write_made(
    out: &mut impl Write,
    plan: &Plan,
    made: &Numbered,
    rating: Option<Rated>,
    args: &GenerateArgs,
) -> io::Result<()> {
    let g = &made.generated;
    match args.format() {
        // One line per puzzle, its rules in its fields: `sort`, `split` or `shuf` keep them.
        GenerateFormat::Line if args.solution => writeln!(out, "{}", g.puzzle.to_text_with(&g.solution)),
        GenerateFormat::Line => writeln!(out, "{}", g.puzzle.to_text()),
        GenerateFormat::Grid => writeln!(out, "{}", g.puzzle.to_record_block()),
        GenerateFormat::Json => {
            serde_json::to_writer(&mut *out, &plan.record(made, rating)).map_err(io::Error::from)?;
            writeln!(out)
        }
        GenerateFormat::Svg | GenerateFormat::Pdf | GenerateFormat::Png => {
            unreachable!("pictures are drawn by `Pictures`")
        }
    }
}
