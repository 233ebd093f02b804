//! `dlx render`: puzzles one already has, laid out on pages to print.

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use dlx_sudoku::grid::{GridUniqueness, grids_paper_page, solve_grid_logically};
use dlx_sudoku::{Entry, Grid, GridMatrix, Layout, Matrix, Paper, Rater, Records, Uniqueness, Variant};

use crate::choice;
use crate::input::Source;
use crate::output::{persist, temporary};
use crate::pages::{Book, PaperArgs};
use crate::report::{self, EXIT_FAILURE, EXIT_INVALID, Usage, stderr};

/// Lay out puzzles on pages to print (SVG), numbered, with their level and variant.
///
/// Each puzzle is rated for its caption (`7 · hard · diagonal`), and solved for the answer pages.
/// A malformed record, or one that breaks the rules, is reported and left out (its number
/// skipped); a puzzle with no solution or several is drawn, its caption says so. Exit status: 0
/// when every record was drawn; 2 when some record was left out; 1 when an input could not be
/// read or a page not written.
#[derive(Debug, Args)]
pub(crate) struct RenderArgs {
    /// Puzzle files, in any form the other commands read; stdin when none or `-`.
    files: Vec<PathBuf>,
    /// Add a variant's rules to every puzzle's own [default: what the input says].
    #[arg(long, value_parser = choice::parser::<Variant>())]
    variant: Option<Variant>,
    /// Puzzles per page [default: 6].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100))]
    per_page: Option<u64>,
    /// Write `page-0001.svg`, ... (and `answers-0001.svg`, ... with --answers) into this folder,
    /// each whole or not at all; without it, one page on stdout.
    #[arg(short, long, value_name = "DIR")]
    output: Option<PathBuf>,
    #[command(flatten)]
    paper: PaperArgs,
}

pub(crate) fn run(args: &RenderArgs) -> Result<ExitCode> {
    if let Some(dir) = &args.output {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let per_page = args.per_page.map_or(Layout::DEFAULT.per_page, |n| usize::try_from(n).unwrap_or(100));
    let paper = args.paper.paper.unwrap_or(Paper::A4);
    let mut book = Book::new(&args.paper, paper, per_page, args.output.clone())?;
    let matrices = Variant::ALL.map(Matrix::new);
    let mut raters: Vec<Rater<'_>> = matrices.iter().map(Rater::new).collect();
    let mut solvers: Vec<_> = matrices.iter().map(Matrix::solver).collect();
    let sources = Source::all(&args.files);
    let (mut number, mut unreadable, mut invalid) = (0u64, false, false);
    // Puzzles of other sizes and rules, drawn on pages of their own after the 9x9 ones.
    let mut grids: Vec<(Grid, Option<Grid>, String)> = Vec::new();
    let mut nine = 0u64;
    for source in &sources {
        if matches!(source, Source::Stdin) && io::stdin().is_terminal() {
            stderr!("dlx: reading puzzles from the terminal (Ctrl-D to end)")?;
        }
        // No progress bar: `render` has no --quiet to turn one off.
        let Some((reader, _bar)) = crate::sudoku::open(source, true)? else {
            unreadable = true;
            continue;
        };
        let name = source.name();
        for record in Records::new(reader) {
            report::check_interrupt()?;
            let record = match record {
                Ok(record) => record,
                Err(e) => {
                    stderr!("dlx: {name}: cannot read on: {e}")?;
                    unreadable = true;
                    break;
                }
            };
            number += 1;
            let grid = match (&record.puzzle, record.rules_with(args.variant)) {
                (Ok(_), Some(grid)) => grid,
                (Err(e), _) => {
                    let at = e.column.map_or(e.line.to_string(), |c| format!("{}:{c}", e.line));
                    stderr!("dlx: {name}:{at}: {}; puzzle {number} left out", e.kind)?;
                    invalid = true;
                    continue;
                }
                (Ok(_), None) => unreachable!("a record read has its puzzle"),
            };
            // A 9x9 variant's puzzle goes on the 9x9 pages, any other on pages of their own.
            let nine_form = grid.rules().variant().zip(grid.to_nine());
            let Some((variant, puzzle)) = nine_form else {
                match grid_entry(grid, number, book.wants_answers()) {
                    Ok(entry) => grids.push(entry),
                    Err(e) => {
                        stderr!("dlx: {name}:{}: {e}; puzzle {number} left out", record.line)?;
                        invalid = true;
                    }
                }
                continue;
            };
            nine += 1;
            // The even-cell variant named for a puzzle without markers stays so named.
            let variant = match args.variant.or(record.variant) {
                Some(Variant::Even) if variant == Variant::Classic => Variant::Even,
                _ => variant,
            };
            let rating = match raters[variant.index()].rate(&puzzle) {
                Ok(rating) => rating,
                Err(e) => {
                    stderr!("dlx: {name}:{}: {e}; puzzle {number} left out", record.line)?;
                    invalid = true;
                    continue;
                }
            };
            let verdict = match rating.solutions {
                0 => "no solution".to_owned(),
                1 => rating.logic.level().to_string(),
                _ => "several solutions".to_owned(),
            };
            let solution = if book.wants_answers() {
                match solvers[variant.index()].check_unique(&puzzle)? {
                    Uniqueness::Unique(s) => Some(s),
                    _ => None,
                }
            } else {
                None
            };
            let caption = format!("{number} · {verdict} · {variant}");
            book.add(Entry { puzzle, variant, caption, solution: None }, number, solution)?;
        }
    }
    if !grids.is_empty() && args.output.is_none() && (nine > 0 || grids.len() > per_page) {
        return Err(Usage(
            "these puzzles make more than one page (or mix 9x9 puzzles with others): give --output DIR"
                .into(),
        )
        .into());
    }
    book.finish()?;
    let layout = Layout { paper, margin_mm: args.paper.margin, per_page };
    for (k, page) in grids.chunks(per_page).enumerate() {
        let puzzles: Vec<(Grid, Option<Grid>)> = page.iter().map(|(g, _, _)| (g.clone(), None)).collect();
        let captions: Vec<String> = page.iter().map(|(_, _, c)| c.clone()).collect();
        write_page(
            args.output.as_deref(),
            &format!("grids-{:04}.svg", k + 1),
            &grids_paper_page(&puzzles, &captions, &layout),
        )?;
        if args.paper.answers {
            let answers: Vec<(Grid, Option<Grid>)> =
                page.iter().map(|(g, s, _)| (g.clone(), s.clone())).collect();
            let svg = grids_paper_page(&answers, &captions, &layout);
            write_page(args.output.as_deref(), &format!("grid-answers-{:04}.svg", k + 1), &svg)?;
        }
    }
    Ok(if unreadable {
        ExitCode::from(EXIT_FAILURE)
    } else if invalid {
        ExitCode::from(EXIT_INVALID)
    } else {
        ExitCode::SUCCESS
    })
}

/// A puzzle of another size or rules, with its solution when answers are asked for, captioned
/// `7 · easy · 6x6 jigsaw` (or `no solution`, `several solutions`).
fn grid_entry(grid: Grid, number: u64, answers: bool) -> Result<(Grid, Option<Grid>, String)> {
    grid.rules().validate()?;
    grid.check()?;
    let matrix = GridMatrix::new(grid.rules());
    let (verdict, solution) = match matrix.solver().check_unique(&grid)? {
        GridUniqueness::None => ("no solution".to_owned(), None),
        GridUniqueness::Multiple(..) => ("several solutions".to_owned(), None),
        GridUniqueness::Unique(s) => (solve_grid_logically(&grid).level().to_string(), Some(s)),
    };
    let caption = format!("{number} · {verdict} · {}", grid.rules().describe());
    Ok((grid, solution.filter(|_| answers), caption))
}

/// Writes a page into the folder (whole, under a temporary name first), or on stdout.
fn write_page(dir: Option<&std::path::Path>, name: &str, svg: &str) -> Result<()> {
    use std::io::Write;
    match dir {
        Some(dir) => {
            let mut file = temporary(dir, ".svg.part")?;
            file.write_all(svg.as_bytes()).with_context(|| format!("cannot write in {}", dir.display()))?;
            persist(file, &dir.join(name))
        }
        None => {
            let mut out = io::stdout().lock();
            out.write_all(svg.as_bytes())?;
            out.flush()?;
            Ok(())
        }
    }
}
