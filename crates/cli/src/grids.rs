//! `dlx generate --size` and `--constraint`: puzzles of any size and rules, reproducible from a
//! seed, in parallel, in order.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use dlx_sudoku::grid::{
    Extras, GridGenerateError, GridGenerator, GridNumbered, GridSolveError, generate_in_with_extras,
};
use dlx_sudoku::{Constraint, GridMatrix, Rules, Run, Size};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::report::{self, EXIT_FAILURE, Stopped, Usage, Workers, stderr};

/// What `dlx generate` asks of puzzles of any size.
pub(crate) struct Ask {
    pub(crate) size: Size,
    pub(crate) constraints: Vec<Constraint>,
    pub(crate) extras: Extras,
    pub(crate) count: u64,
    pub(crate) run: Run,
    pub(crate) threads: Option<u64>,
    pub(crate) json: bool,
    pub(crate) grid: bool,
    pub(crate) svg: bool,
    pub(crate) stats: bool,
    pub(crate) quiet: bool,
}

/// Makes the puzzles and writes them, in order.
pub(crate) fn generate(ask: &Ask) -> Result<ExitCode> {
    let mut rules = Rules::new(ask.size);
    for &c in &ask.constraints {
        rules.add(c);
    }
    rules.validate().map_err(|e| Usage(e.to_string()))?;
    if !ask.extras.any() {
        GridGenerator::check_symmetry(&rules, ask.run.symmetry).map_err(|e| Usage(e.to_string()))?;
    } else if ask.extras.killer && ask.run.symmetry != dlx_sudoku::Symmetry::None {
        return Err(Usage(format!(
            "{} symmetry does not fit killer cages made up at random: give --symmetry none",
            ask.run.symmetry
        ))
        .into());
    }
    let matrix = GridMatrix::new(&rules);
    // Rules no grid obeys fail once, not once per puzzle.
    if let Err(e @ GridGenerateError::NoGrid(_)) = GridGenerator::new(&matrix).full_grid(ask.run.seed)
        && !ask.extras.jigsaw
    {
        return Err(Usage(e.to_string()).into());
    }
    let groups = ask.run.symmetry.orbits_in(ask.size.side()).len() as u64;
    // Large grids take up to tens of seconds each: a bar over the clue groups tried, on a terminal.
    let bar = if ask.quiet || (ask.size.side() < 16 && ask.count < 50) {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::new(ask.count * groups);
        if let Ok(style) = ProgressStyle::with_template("{wide_bar} {msg} {elapsed}, {eta} left") {
            bar.set_style(style);
        }
        bar
    };
    let mut workers = Workers::new(ask.threads);
    let mut out = BufWriter::new(io::stdout().lock());
    // SVG: one page, drawn when every puzzle is made.
    let mut pictures = Vec::new();
    if !ask.json && !ask.svg {
        // Every reader of puzzles takes the size and rules of the records below from this line.
        writeln!(out, "{}", rules.size_line())?;
    }
    let (mut made, mut missing, mut clues) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    let chunk = 64u64;
    let mut first = 0;
    while first < ask.count {
        let last = (first + chunk).min(ask.count);
        let pieces = usize::try_from(last - first).unwrap_or(usize::MAX);
        let batch: Vec<Option<Result<GridNumbered, GridGenerateError>>> =
            workers.for_pieces(pieces)?.install(|| {
                (first..last)
                    .into_par_iter()
                    .map_init(
                        || {
                            // Ctrl-C stops a search under way, not only between puzzles.
                            let mut generator = GridGenerator::new(&matrix);
                            generator.set_cancel_flag(Some(report::cancel_flag().clone()));
                            generator
                        },
                        |generator, index| {
                            report::check_interrupt().ok()?;
                            let mut tick = |_: usize, _: usize| {
                                if bar.position() + 1 >= bar.length().unwrap_or(0) {
                                    bar.inc_length(groups);
                                }
                                bar.inc(1);
                            };
                            Some(if ask.extras.any() {
                                let cancel = Some(report::cancel_flag());
                                generate_in_with_extras(
                                    &rules, ask.extras, &ask.run, index, &mut tick, cancel,
                                )
                            } else {
                                generator.generate_in(&ask.run, index, &mut tick)
                            })
                        },
                    )
                    .collect()
            });
        for made_one in batch {
            let stopped = matches!(
                made_one,
                None | Some(Err(GridGenerateError::Solve(GridSolveError::Interrupted(_))))
            );
            let Some(result) = made_one.filter(|_| !stopped) else {
                out.flush()?;
                return Err(Stopped.into());
            };
            let numbered = match result {
                Ok(numbered) => numbered,
                Err(e) => {
                    missing += 1;
                    let hint = match e {
                        GridGenerateError::NotFound(_) => " (try more --max-attempts, or another level)",
                        _ => "",
                    };
                    bar.suspend(|| stderr!("dlx: {e}{hint}"))?;
                    continue;
                }
            };
            made += 1;
            let puzzle = &numbered.generated.puzzle;
            clues += puzzle.givens() as u64;
            if ask.svg {
                pictures.push(numbered.generated.puzzle);
            } else if ask.json {
                let level = numbered.logic.as_ref().map(|l| l.level().name());
                let value = serde_json::json!({
                    "index": numbered.index,
                    "run_seed": ask.run.seed,
                    "seed": numbered.seed,
                    "size": format!("{}x{}", ask.size.box_rows(), ask.size.box_cols()),
                    "rules": puzzle.rules().describe(),
                    "symmetry": ask.run.symmetry.name(),
                    "puzzle": puzzle.to_text(),
                    "solution": numbered.generated.solution.to_line(),
                    "clues": puzzle.givens(),
                    "level": level,
                    "technique": numbered.logic.as_ref().map(|l| l.hardest_name()),
                    "attempts": numbered.attempts,
                });
                serde_json::to_writer(&mut out, &value).map_err(io::Error::from)?;
                writeln!(out)?;
            } else if ask.grid {
                writeln!(out, "{}", puzzle.to_block())?;
            } else {
                writeln!(out, "{}", puzzle.to_text())?;
            }
        }
        first = last;
    }
    bar.finish_and_clear();
    if ask.svg {
        out.write_all(dlx_sudoku::svg_page(&pictures, 3).as_bytes())?;
    }
    out.flush()?;
    if ask.stats {
        let secs = start.elapsed().as_secs_f64();
        stderr!(
            "seed {}, puzzles {made}, missing {missing}, {:.1} clues on average, {:.2} puzzles/s",
            ask.run.seed,
            if made > 0 { clues as f64 / made as f64 } else { 0.0 },
            if secs > 0.0 { made as f64 / secs } else { 0.0 },
        )?;
    }
    Ok(if missing > 0 { ExitCode::from(EXIT_FAILURE) } else { ExitCode::SUCCESS })
}
