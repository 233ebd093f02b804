//! `dlx render`: puzzles one already has, laid out on pages to print.

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use dlx_sudoku::Uniqueness;
use dlx_sudoku::{Defaults, Entry, Matrices, Puzzle, Records, Solvers};

use crate::choice::ReadRules;
use crate::input::Source;
use crate::pages::{Book, PageFormat, PaperArgs};
use crate::report::{self, EXIT_FAILURE, EXIT_INVALID, stderr};

/// Lay out puzzles on pages to print (SVG, PDF or PNG), numbered, with their level and rules.
///
/// Puzzles of every size and rule set share the pages, as many to a page as fill the paper (six
/// 9x9 puzzles on A4, two 16x16), with a legend of the marks they show. Each puzzle is rated for
/// its caption (`7 · hard · diagonal`), and solved for the answer pages. A malformed record, or
/// one that breaks the rules, is reported and left out (its number skipped); a puzzle with no
/// solution or several is drawn, its caption says so. Exit status: 0 when every record was drawn;
/// 2 when some record was left out; 1 when an input could not be read or a page not written.
#[derive(Debug, Args)]
pub(crate) struct RenderArgs {
    /// Puzzle files in any form, or puzzles as arguments; stdin when none or `-`.
    ///
    /// Puzzle files, in any form the other commands read; stdin when none or `-`. An argument
    /// that names no file and reads as one puzzle is that puzzle.
    files: Vec<PathBuf>,
    #[command(flatten)]
    rules: ReadRules,
    /// Puzzles per page [default: as many as fill the paper].
    ///
    /// Puzzles per page [default: as many as fill the paper with cells of 7 mm or more: twelve
    /// 4x4 or 6x6 puzzles on A4, six 8x8 to 10x10, two 12x12 or 16x16, one 25x25].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100))]
    per_page: Option<u64>,
    /// The pages' form: svg, pdf or png.
    ///
    /// The pages' form: an SVG document a page, one PDF document of every page, or a PNG image
    /// a page (200 dpi, or --dpi).
    #[arg(short, long, value_enum, default_value_t = PageFormat::Svg)]
    format: PageFormat,
    /// Write the pages into this folder.
    ///
    /// Write `page-0001.svg`, ... (and `answers-0001.svg`, ... with --answers) into this folder,
    /// or `page-0001.png`, ..., or `pages.pdf` (and `answers.pdf`); each file whole or not at
    /// all. Without it, one page on stdout (every page, for PDF).
    #[arg(short, long, value_name = "DIR")]
    output: Option<PathBuf>,
    #[command(flatten)]
    paper: PaperArgs,
}

pub(crate) fn run(args: &RenderArgs) -> Result<ExitCode> {
    let per_page = args.per_page.map(|n| usize::try_from(n).unwrap_or(100));
    let mut book = Book::new(&args.paper, args.format, per_page, args.output.clone())?;
    if let Some(dir) = &args.output {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let named = args.rules.named();
    let matrices = Matrices::new();
    let mut solvers = matrices.solvers();
    let sources = Source::puzzles(&args.files);
    let (mut number, mut unreadable, mut invalid) = (0u64, false, false);
    for source in &sources {
        if matches!(source, Source::Stdin) && io::stdin().is_terminal() {
            stderr!("dlx: reading puzzles from the terminal (Ctrl-D to end)")?;
        }
        // No progress bar: `render` has no --quiet to turn one off.
        let Some((reader, _bar)) = crate::sudoku::open(source, true, crate::sudoku::Wait::InRun)? else {
            unreadable = true;
            continue;
        };
        let name = source.name();
        let mut records = Records::new(reader);
        if !named.constraints.is_empty() {
            let defaults = Defaults { constraints: named.constraints.clone(), ..Defaults::default() };
            records = records.with_grid_defaults(defaults);
        }
        for record in records {
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
            let grid = match record.puzzle_with(named.variant) {
                Ok(grid) => grid,
                Err(e) => {
                    let at = e.column.map_or(e.line.to_string(), |c| format!("{}:{c}", e.line));
                    stderr!("dlx: {name}:{at}: {}; puzzle {number} left out", e.kind)?;
                    invalid = true;
                    continue;
                }
            };
            // The variant named for a puzzle whose rules are a variant's, or its rules in words.
            let rules = match grid.rules().variant_named(named.variant.or(record.variant)) {
                Some(variant) => variant.to_string(),
                None => grid.rules().describe(),
            };
            match entry(&mut solvers, &grid, book.wants_answers()) {
                Ok((verdict, solution)) => {
                    let caption = format!("{number} · {verdict} · {rules}");
                    book.add(Entry { puzzle: grid, caption, solution: None }, number, solution)?;
                }
                Err(e) => {
                    stderr!("dlx: {name}:{}: {e}; puzzle {number} left out", record.line)?;
                    invalid = true;
                }
            }
        }
    }
    book.finish()?;
    Ok(if unreadable {
        ExitCode::from(EXIT_FAILURE)
    } else if invalid {
        ExitCode::from(EXIT_INVALID)
    } else {
        ExitCode::SUCCESS
    })
}

/// A puzzle's verdict for its caption (its level, or `no solution`, `several solutions`), and its
/// solution when answers are asked for; an error when the puzzle breaks its rules.
fn entry(solvers: &mut Solvers<'_>, grid: &Puzzle, answers: bool) -> Result<(String, Option<Puzzle>)> {
    grid.rules().validate()?;
    grid.check()?;
    solvers.with(grid, |solver| {
        let rating = solver.rate(grid)?;
        let verdict = match rating.solutions {
            0 => "no solution".to_owned(),
            1 => rating.logic.level().to_string(),
            _ => "several solutions".to_owned(),
        };
        let solution = match answers {
            true => match solver.check_unique(grid)? {
                Uniqueness::Unique(s) => Some(s),
                _ => None,
            },
            false => None,
        };
        Ok((verdict, solution))
    })
}
