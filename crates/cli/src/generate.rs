//! `dlx generate`: minimal unique puzzles, reproducible from a seed, in parallel, in order.

use std::hash::{BuildHasher, RandomState};
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use dlx_sudoku::{
    Generated, Generator, Level, Matrix, NotFound, Numbered, Run, Symmetry, Technique, Variant,
    solve_logically, svg_page, to_svg,
};
use indicatif::ProgressBar;
use rayon::prelude::*;

use crate::choice;

/// Output of `dlx generate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum GenerateFormat {
    /// One 81-character line per puzzle (`e` marks an empty even cell).
    Line,
    /// A block grid per puzzle.
    Grid,
    /// One JSON object per puzzle (NDJSON).
    Json,
    /// SVG: one page of all puzzles on stdout, or one file per puzzle with --output.
    Svg,
}

/// Generate minimal puzzles with a unique solution.
///
/// Each puzzle is a random full grid with clues (and their symmetric partners) removed while the
/// solution stays unique; removing any further clue group makes it ambiguous. The same seed gives
/// the same puzzles on any machine and with any number of threads. Exit status: 0 on success; 1
/// when a puzzle of the asked difficulty was not found within the attempts, or output failed.
#[derive(Debug, Args)]
pub(crate) struct GenerateArgs {
    /// How many puzzles.
    #[arg(long, default_value_t = 1, value_name = "N")]
    count: u64,
    /// The variant.
    #[arg(long, value_parser = choice::parser::<Variant>(), default_value = "classic")]
    variant: Variant,
    /// Symmetry of the clues.
    #[arg(long, value_parser = choice::parser::<Symmetry>(), default_value = "rotational")]
    symmetry: Symmetry,
    /// Seed of the run [default: drawn at random and reported by --stats and in JSON].
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Keep generating until puzzles of this level come out.
    #[arg(long, value_name = "LEVEL", value_parser = choice::parser::<Level>())]
    difficulty: Option<Level>,
    /// Attempts per puzzle allowed to reach --difficulty.
    #[arg(long, default_value_t = Run::DEFAULT_ATTEMPTS, value_name = "N")]
    max_attempts: u64,
    /// Output format.
    #[arg(long, value_enum, default_value = "line")]
    format: GenerateFormat,
    /// With --format svg: write the pictures into this folder (`puzzle-0001.svg`, ...; with
    /// --per-page, `page-0001.svg`, ...).
    #[arg(long, value_name = "DIR")]
    output: Option<PathBuf>,
    /// With --format svg: puzzles per page [default: all on one page on stdout; one per file with
    /// --output].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    per_page: Option<u64>,
    /// Worker threads [default: all cores].
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Print a closing summary (with the seed) to stderr.
    #[arg(long)]
    stats: bool,
}

/// One puzzle of the run, or why it is missing.
struct Made {
    result: Result<Numbered, NotFound>,
    /// The level and the hardest technique, when asked for (by `--difficulty` or JSON output).
    rating: Option<(Level, &'static str)>,
}

/// Puzzle `index` of `run`, rated when the output needs it.
fn make(generator: &mut Generator<'_>, variant: Variant, run: &Run, rate: bool, index: u64) -> Made {
    let result = generator.generate_in(run, index);
    let rating = match &result {
        Ok(numbered) if rate => {
            let logic = match &numbered.logic {
                Some(logic) => *logic,
                None => solve_logically(&numbered.generated.puzzle, variant, &Technique::ALL)
                    .expect("generated puzzles obey the rules"),
            };
            Some((logic.level(), logic.hardest_name()))
        }
        _ => None,
    };
    Made { result, rating }
}

pub(crate) fn run(args: &GenerateArgs) -> Result<ExitCode> {
    if (args.output.is_some() || args.per_page.is_some()) && args.format != GenerateFormat::Svg {
        bail!("--output and --per-page are for --format svg");
    }
    if let Some(dir) = &args.output {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.threads {
        builder = builder.num_threads(n.max(1));
    }
    let pool = builder.build().context("cannot start the worker threads")?;
    let run_seed = args.seed.unwrap_or_else(|| RandomState::new().hash_one(std::process::id()));
    let run = Run {
        seed: run_seed,
        symmetry: args.symmetry,
        level: args.difficulty,
        max_attempts: args.max_attempts,
    };
    // Only `--difficulty` and the JSON output need the rating: a logical solve of each puzzle.
    let rate = args.difficulty.is_some() || args.format == GenerateFormat::Json;
    let variant = args.variant;
    let matrix = Matrix::new(variant);
    let bar = if args.count >= 50 { ProgressBar::new(args.count) } else { ProgressBar::hidden() };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut page = Vec::new();
    let (mut made_count, mut missing, mut clues, mut attempts) = (0u64, 0u64, 0u64, 0u64);
    // SVG pages written so far into --output.
    let mut pages = 0u64;
    let start = Instant::now();
    let chunk = 256u64;
    let mut first = 0;
    while first < args.count {
        let last = (first + chunk).min(args.count);
        // Each puzzle depends on the run and its index alone, so the work may be split anyhow:
        // a generator per piece of work rayon hands a thread.
        let batch: Vec<Made> = pool.install(|| {
            (first..last)
                .into_par_iter()
                .map_init(
                    || Generator::new(&matrix),
                    |generator, index| make(generator, variant, &run, rate, index),
                )
                .collect()
        });
        for made in batch {
            let g = match &made.result {
                Ok(numbered) => {
                    attempts += numbered.attempts;
                    numbered
                }
                Err(not_found) => {
                    attempts += not_found.attempts;
                    missing += 1;
                    bar.suspend(|| eprintln!("dlx: {not_found} (try more --max-attempts, or another level)"));
                    continue;
                }
            };
            made_count += 1;
            clues += g.generated.puzzle.given_count() as u64;
            write_made(&mut out, g, made.rating, variant, args, run_seed, &mut page)?;
            if let (Some(dir), Some(per_page)) = (&args.output, args.per_page)
                && page.len() as u64 == per_page
            {
                write_page(dir, pages, &mut page)?;
                pages += 1;
            }
        }
        bar.set_position(last);
        first = last;
    }
    bar.finish_and_clear();
    if args.format == GenerateFormat::Svg && !page.is_empty() {
        match (&args.output, args.per_page) {
            (Some(dir), Some(_)) => write_page(dir, pages, &mut page)?,
            (None, Some(per_page)) => {
                // Pages one after the other on stdout, each a complete SVG document.
                for chunk in page.chunks(usize::try_from(per_page).unwrap_or(usize::MAX)) {
                    out.write_all(svg_page(chunk, 3).as_bytes())?;
                }
            }
            _ => out.write_all(svg_page(&page, 3).as_bytes())?,
        }
    }
    out.flush()?;
    if args.stats {
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "seed {run_seed}, puzzles {made_count}, missing {missing}, attempts {attempts}, {:.1} clues on average, {:.0} puzzles/s",
            if made_count > 0 { clues as f64 / made_count as f64 } else { 0.0 },
            if secs > 0.0 { made_count as f64 / secs } else { 0.0 },
        );
    }
    Ok(if missing > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

fn write_made(
    out: &mut impl Write,
    made: &Numbered,
    rating: Option<(Level, &'static str)>,
    variant: Variant,
    args: &GenerateArgs,
    run_seed: u64,
    page: &mut Vec<(dlx_sudoku::Puzzle, Variant)>,
) -> Result<()> {
    let g: &Generated = &made.generated;
    match args.format {
        GenerateFormat::Line => writeln!(out, "{}", g.puzzle.to_line())?,
        GenerateFormat::Grid => writeln!(out, "{}", g.puzzle.to_grid())?,
        GenerateFormat::Json => {
            let value = serde_json::json!({
                "index": made.index,
                "run_seed": run_seed,
                "seed": made.seed,
                "variant": variant.name(),
                "symmetry": args.symmetry.name(),
                "puzzle": g.puzzle.to_line(),
                "solution": g.solution.to_line(),
                "clues": g.puzzle.given_count(),
                "level": rating.map(|(level, _)| level.name()),
                "technique": rating.map(|(_, hardest)| hardest),
                "attempts": made.attempts,
            });
            serde_json::to_writer(&mut *out, &value)?;
            writeln!(out)?;
        }
        GenerateFormat::Svg => match (&args.output, args.per_page) {
            (Some(dir), None) => {
                let path = dir.join(format!("puzzle-{:04}.svg", made.index + 1));
                std::fs::write(&path, to_svg(&g.puzzle, variant))
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            // Pages are gathered here and written by the run loop.
            _ => page.push((g.puzzle, variant)),
        },
    }
    Ok(())
}

/// Writes the puzzles gathered for page `number` (from 0) into `dir`, and empties the list.
fn write_page(
    dir: &std::path::Path,
    number: u64,
    page: &mut Vec<(dlx_sudoku::Puzzle, Variant)>,
) -> Result<()> {
    let path = dir.join(format!("page-{:04}.svg", number + 1));
    std::fs::write(&path, svg_page(page, 3)).with_context(|| format!("cannot write {}", path.display()))?;
    page.clear();
    Ok(())
}
