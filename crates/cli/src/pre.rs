//! `dlx pre`: preprocess a problem in Knuth's `.dlx` format, as his DLX-PRE does.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use dlx_engine::{PreprocessError, Preprocessing, Problem, Reduced};

use crate::input::Source;
use crate::report::{self, EXIT_INVALID, Stopped, Usage, stderr};
use crate::xc::read_problem;

/// Preprocess an exact-cover problem in Knuth's `.dlx` format, as his DLX-PRE does: remove the
/// options and items that no solution needs, and write the smaller problem, which has the same
/// solutions.
///
/// Two reductions, in rounds until nothing changes: an item that every option of some primary
/// item holds goes (from those options; the other options that hold it go), and an option that
/// would leave some primary item without options goes. In sudoku the first is "locked
/// candidates". Each option of the output is followed by a comment line `| (from N)` naming its
/// original option (from 1, in the order of the input, skipped options left out), which is how
/// `dlx xc --preprocess` prints solutions in the original options. A summary goes to stderr.
///
/// Problems with multiplicities are refused: neither reduction holds for them.
#[derive(Debug, Args)]
pub(crate) struct PreArgs {
    /// The `.dlx` file; standard input when absent or `-`.
    file: Option<PathBuf>,
    /// Stop after N rounds (by default, when a round removes nothing).
    #[arg(long, value_name = "N", value_parser = crate::choice::at_least_one)]
    rounds: Option<u64>,
    /// Print no summary on stderr.
    #[arg(short, long)]
    quiet: bool,
}

pub(crate) fn run(args: &PreArgs) -> Result<ExitCode> {
    let source = Source::from_arg(args.file.as_deref());
    let Some(problem) = read_problem(&source)? else { return Ok(ExitCode::from(EXIT_INVALID)) };
    let settings = Preprocessing {
        max_rounds: args.rounds.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        cancel: Some(report::cancel_flag().clone()),
    };
    let start = Instant::now();
    let reduced = reduce(&problem, &settings, &source)?;
    let mut out = BufWriter::new(io::stdout().lock());
    reduced.write_dlx(&mut out)?;
    out.flush()?;
    if !args.quiet {
        stderr!("{}", summary(&problem, &reduced, start))?;
    }
    if let Some(item) = reduced.infeasible() {
        stderr!("dlx: {}: item {} has no option left: no solution", source.name(), problem.item_name(item))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Preprocesses `problem` as `settings` say: a problem with multiplicities is a usage error
/// naming the file, Ctrl-C an interruption.
pub(crate) fn reduce(problem: &Problem, settings: &Preprocessing, source: &Source) -> Result<Reduced> {
    match problem.preprocess_with(settings) {
        Ok(reduced) => Ok(reduced),
        Err(PreprocessError::Cancelled) => Err(Stopped.into()),
        Err(e) => Err(Usage(format!("{}: {e}", source.name())).into()),
    }
}

/// What preprocessing did, in a line: `removed 144 of 2056 options and 0 of 72 items in 2
/// rounds, 0.012 s`.
pub(crate) fn summary(problem: &Problem, reduced: &Reduced, start: Instant) -> String {
    let rounds = reduced.rounds();
    format!(
        "removed {} of {} options and {} of {} items in {rounds} round{}, {:.3} s",
        reduced.removed_options(),
        problem.option_count(),
        reduced.removed_items(),
        problem.item_count(),
        if rounds == 1 { "" } else { "s" },
        start.elapsed().as_secs_f64()
    )
}
