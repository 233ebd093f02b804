//! `dlx xc`: solve or count a problem in Knuth's `.dlx` format.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use dlx_engine::{
    Branching, Count, Interrupted, Memo, MemoStats, OptionId, ParallelSolver, Preprocessing, Problem,
    Progress, Reduced, SampleError, Shard, Solver, Stats, StopReason, TieBreak, ZddError,
};

use crate::checkpoint::Checkpoint;
use crate::choice;
use crate::input::Source;
use crate::output::{persist, temporary};
use crate::part::{CountFormat, Part, fingerprint};
use crate::progress;
use crate::report::{self, EXIT_INVALID, Stopped, Usage, stderr};
use crate::timely::Timely;

/// Solve an exact-cover problem written in Knuth's `.dlx` format: plain (as DLX1 reads it), with
/// colors on secondary items in options (`x:red`, as DLX2 reads them), with bounds on how many
/// times primary items are covered (`2:3|x` or `2|x` in the item line, as DLX3 reads them), or
/// with both.
///
/// Prints each solution as its options, one per line (each option as its item names, colors as
/// written), solutions separated by a blank line. A problem without solutions prints nothing on
/// stdout, and says so on stderr.
///
/// The search uses every core: its tree is cut into many subtrees, which the threads share.
/// Solutions are printed in the order of a search on one thread, byte for byte, and the
/// statistics are those of one thread.
#[derive(Debug, Args)]
pub(crate) struct XcArgs {
    /// The `.dlx` file; standard input when absent or `-`.
    file: Option<PathBuf>,
    /// Print only the number of solutions (`N+` when --limit stopped the count at N).
    #[arg(short = 'n', long)]
    count: bool,
    /// Stop after this many solutions (with --count: count up to this many).
    #[arg(long, value_name = "N", value_parser = crate::choice::at_least_one)]
    limit: Option<u64>,
    /// Randomize branching with this seed (on one thread); with --sample, the draw's.
    ///
    /// Randomize branching with this seed (same seed, same order of solutions). A seeded search
    /// runs on one thread. With --sample, the seed of the draw instead [default: 0].
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Print N solutions drawn uniformly at random (by --seed).
    ///
    /// Print N solutions drawn uniformly at random: each solution equally likely, exactly, each
    /// draw independent of the others (a solution may come out twice); the same N solutions for
    /// the same --seed (default 0). The draw goes by counts, the memo's where it pays (tilings of
    /// any size). Not for problems with multiplicities.
    #[arg(long, value_name = "N", conflicts_with_all = ["count", "limit", "shard", "checkpoint"])]
    sample: Option<usize>,
    /// With --count: write the ZDD of all solutions to FILE (Knuth's ZDDREAD text).
    ///
    /// With --count: also write the ZDD of all solutions to FILE, in the text that Knuth's
    /// ZDDREAD programs read (as his DLX6 writes it): a line `ID: (~OPTION?LO:HI)` per node, in
    /// hexadecimal but for the option's number (from 1, in the order of the file), then a root of
    /// option 0. Made by the memo on one thread, whatever --memo says; --memo-memory bounds the
    /// diagram as much as the memo's table.
    #[arg(long, value_name = "FILE", requires = "count", conflicts_with_all = ["limit", "shard", "checkpoint", "seed"])]
    zdd: Option<PathBuf>,
    /// With --count: also the solutions of each size (options in a solution).
    ///
    /// With --count: after the total, a line `SIZE: COUNT` for each size of solution (the number
    /// of options in it) that has any, from the memo's ZDD (on one thread).
    #[arg(long, requires = "count", conflicts_with_all = ["limit", "shard", "checkpoint", "seed", "format"])]
    by_size: bool,
    /// Print one solution of the fewest options.
    ///
    /// Print one solution of the fewest options there are (from the memo's ZDD, on one thread).
    #[arg(long, conflicts_with_all = ["count", "limit", "shard", "checkpoint", "seed", "sample", "most"])]
    fewest: bool,
    /// Print one solution of the most options.
    ///
    /// Print one solution of the most options there are (from the memo's ZDD, on one thread).
    #[arg(long, conflicts_with_all = ["count", "limit", "shard", "checkpoint", "seed", "sample"])]
    most: bool,
    /// Worker threads (at most 1024; all cores by default).
    ///
    /// Worker threads, at most 1024 [default: all cores]. No more are started than there are
    /// cores.
    #[arg(short = 'j', long, value_name = "N", value_parser = crate::choice::threads)]
    threads: Option<u64>,
    /// How to break ties between items.
    ///
    /// How to choose between items with equally few options left (--seed breaks ties at random
    /// instead).
    #[arg(long, value_name = "RULE", value_parser = choice::parser::<TieBreak>(), default_value = "earliest")]
    tie_break: TieBreak,
    /// Which item each node branches on.
    ///
    /// Which item each node of the search branches on: `mrv` the fewest options (minimum
    /// remaining values, the default); `sharp` the fewest among items whose names begin with `#`
    /// first, as Knuth's DLX2-SHARP; `wdeg` the fewest divided by a weight that grows each time
    /// the item runs out of options (dom/wdeg, as SSXCC-WTD0); `frb` the fewest divided by the
    /// rate at which the item's options lead to a dead end (failure-rate branching, as
    /// SSXCC-FRB0). Every rule finds the same solutions and counts, in its own order and time,
    /// on every thread, in shards and checkpoints; rules other than `mrv` search on the links,
    /// without the memo. `wdeg` and `frb` learn in each run, so their nodes depend on the number
    /// of threads and pieces.
    #[arg(long, value_name = "RULE", value_parser = choice::parser::<Branching>(), default_value = "mrv")]
    branch: Branching,
    /// Search only part K of N of the tree (for a cluster).
    ///
    /// Search only shard K of N disjoint parts of the tree (K from 0 to N-1, N up to 1048576):
    /// the same parts on every machine and with any number of threads, so that N runs (on a
    /// cluster, say) together find every solution once. Merge their `--format json` counts with
    /// `dlx merge`.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// With --count: how the count is written.
    #[arg(short, long, value_enum, default_value = "line", requires = "count")]
    format: CountFormat,
    /// With --count: remember the counts of subproblems met again (tilings).
    ///
    /// With --count: remember the count of each subproblem met (what is left to cover, and with
    /// what), and add it when it is met again instead of searching it again, as Knuth's DLX6
    /// does: tilings, whose partial solutions meet again all the time, count in seconds where
    /// visiting every solution would take centuries, exactly past 2^64. `auto` probes the first
    /// nodes with and without it. The memo counts to the end (not with --limit, --seed or
    /// --tie-break last-conflict), on every thread, in shards and checkpoints, problems of at most
    /// 4,096 options and 1,024 items, with multiplicities too (the bounds still open are part of
    /// what is left).
    #[arg(long, value_name = "WHEN", value_parser = choice::parser::<Memo>(), default_value = "auto", requires = "count")]
    memo: Memo,
    /// With --memo: the most memory its table may take (512M, 4G).
    ///
    /// With --memo: the most memory its table may take, in bytes or with a suffix K, M or G
    /// (powers of 1024): 512M, 4G. A full table stores no more subproblems, and the count goes on
    /// without them; --stats tells how many were left out.
    #[arg(long, value_name = "SIZE", value_parser = memory_size, default_value = "4G")]
    memo_memory: usize,
    /// With --count: resumable, the pieces done kept in FILE.
    ///
    /// With --count: record the pieces of the count done in FILE as the run goes (a few times a
    /// minute), and resume from it: after Ctrl-C, a kill or a restart, the same command with the
    /// same FILE counts only the pieces left and prints the exact total. A FILE of another
    /// problem, shard, tie-break or branching rule is refused.
    #[arg(long, value_name = "FILE", requires = "count", conflicts_with_all = ["limit", "seed"])]
    checkpoint: Option<PathBuf>,
    /// Seconds between two writes of the checkpoint (it is also written when the run ends).
    #[arg(long, value_name = "SECONDS", default_value = "20", hide = true)]
    checkpoint_every: f64,
    /// Show progress also when stderr is no terminal: a line every 10 seconds.
    ///
    /// Show progress on stderr also when it is not a terminal, as a line every 10 seconds (on a
    /// terminal a bar shows after the first second, and is cleared at the end): the estimated
    /// fraction of the tree done, solutions, nodes per second, time left.
    #[arg(long, conflicts_with = "quiet")]
    progress: bool,
    /// Show no progress, even on a terminal.
    #[arg(short, long, visible_alias = "no-progress")]
    quiet: bool,
    /// Print nodes, updates and elapsed time to stderr.
    #[arg(short, long)]
    stats: bool,
    /// Preprocess first, as `dlx pre` does; print solutions in the original options.
    ///
    /// Preprocess first, as `dlx pre` does (Knuth's DLX-PRE): search the smaller problem, which
    /// has the same solutions, and print each solution in the original options. With --stats,
    /// what preprocessing removed. Counts, shards and checkpoints are of the smaller problem (a
    /// shard made with it merges only with shards made with it). Not with --zdd, whose option
    /// numbers would be the smaller problem's.
    #[arg(long, conflicts_with = "zdd")]
    preprocess: bool,
    /// Print the K solutions of least total cost (default 1 when options have costs).
    ///
    /// Print the K solutions of least total cost, cheapest first, each after a line `cost N` (the
    /// sum of its options' costs: `|n` in an option line, as Knuth's DLX5 reads them). When some
    /// option has a cost, `dlx xc` lists so by default, with K = 1 (`--limit N` lists the first N
    /// found instead); `--count` counts every solution, whatever its cost. One thread searches,
    /// pruned by DLX5's bound (the K-th best found so far); with multiplicities every solution is
    /// visited.
    #[arg(long, value_name = "K", value_parser = crate::choice::at_least_one,
          conflicts_with_all = ["count", "limit", "sample", "zdd", "by_size", "fewest", "most", "shard", "checkpoint"])]
    best: Option<u64>,
}

impl XcArgs {
    /// How many of the cheapest solutions to print, if that is the task: `--best K`, or 1 when
    /// the problem has costs and solutions are listed (not counted, drawn or cut by --limit).
    fn best(&self, problem: &Problem) -> Option<usize> {
        let listing = !self.count
            && self.limit.is_none()
            && self.sample.is_none()
            && !self.fewest
            && !self.most
            && self.shard.is_none();
        let k = self.best.or((listing && problem.has_costs()).then_some(1))?;
        Some(usize::try_from(k).unwrap_or(usize::MAX))
    }
}

/// Refuses `--branch` with what branches by its own rule: the memo when forced, and the ZDD it
/// makes (with fewest and most), DLX5's search for the cheapest solutions, and the
/// last-conflict tie-break, which belongs to `mrv`. (Samples are drawn by counts, which every
/// rule gives.)
fn branch_fits(args: &XcArgs, problem: &Problem) -> Result<()> {
    if args.branch == Branching::Mrv {
        return Ok(());
    }
    let rule = args.branch.name();
    let clash = if args.tie_break != TieBreak::Earliest {
        Some(format!("--tie-break {} breaks the ties of --branch mrv", args.tie_break.name()))
    } else if args.zdd.is_some() || args.by_size || args.fewest || args.most {
        Some("the ZDD is made by the memo, which branches by mrv".to_owned())
    } else if args.count && args.memo == Memo::Always {
        Some("--memo always: the memo branches by mrv".to_owned())
    } else if args.best(problem).is_some() {
        Some("the cheapest solutions are searched with DLX5's own choice of item".to_owned())
    } else {
        None
    };
    match clash {
        Some(why) => Err(Usage(format!("--branch {rule} cannot be used here: {why}")).into()),
        None => Ok(()),
    }
}

/// Options skipped for want of a primary item that are named one by one; the rest are counted.
const SKIPPED_SHOWN: usize = 10;

pub(crate) fn run(args: &XcArgs) -> Result<ExitCode> {
    let source = Source::from_arg(args.file.as_deref());
    let Some(original) = read_problem(&source)? else { return Ok(ExitCode::from(EXIT_INVALID)) };
    // With --preprocess, the search is of the reduced problem, and its solutions are printed as
    // the original options.
    let reduced = if args.preprocess {
        let start = Instant::now();
        let settings = Preprocessing { max_rounds: None, cancel: Some(report::cancel_flag().clone()) };
        let reduced = crate::pre::reduce(&original, &settings, &source)?;
        if args.stats {
            stderr!("preprocessing: {}", crate::pre::summary(&original, &reduced, start))?;
        }
        Some(reduced)
    } else {
        None
    };
    let problem = reduced.as_ref().map_or(&original, Reduced::problem);
    let printed = Printed { original: &original, reduced: reduced.as_ref() };
    branch_fits(args, problem)?;
    if let Some(n) = args.sample {
        return sample(args, problem, &printed, n, &source);
    }
    if args.zdd.is_some() || args.by_size || args.fewest || args.most {
        return zdd(args, problem, &printed, &source);
    }
    if args.seed.is_some() && args.threads.is_some_and(|n| n > 1) {
        return Err(Usage("--seed searches on one thread: it cannot go with --threads above 1".into()).into());
    }
    if args.seed.is_some() && args.shard.is_some() {
        return Err(Usage("--seed changes the tree: it cannot go with --shard".into()).into());
    }
    let threads = report::workers(if args.seed.is_some() { Some(1) } else { args.threads });
    // Ctrl-C cancels the search: the count is not printed, solutions printed are whole.
    let cancel = report::cancel_flag().clone();
    let limit = args.limit.unwrap_or(u64::MAX);
    let start = Instant::now();
    // Solutions found seldom still reach a file or a pipe within a second.
    let found: Result<_> = Timely::run(|out| {
        // The threads start only if the problem is too large for a first, short attempt; with one
        // thread the search is cut into subtrees all the same, which tells the progress.
        let parallel = || {
            let mut parallel = ParallelSolver::new(problem);
            parallel.set_tie_break(args.tie_break);
            parallel.set_branching(args.branch);
            parallel.set_cancel_flag(Some(cancel.clone()));
            parallel.set_threads(Some(threads));
            parallel.set_shard(args.shard);
            parallel.set_memo(args.memo);
            parallel.set_memo_memory(args.memo_memory);
            let progress = Progress::new();
            parallel.set_progress(Some(progress.clone()));
            (parallel, progress)
        };
        // A count to the end takes the memo where `--memo` says, or where it pays (the engine
        // chooses, and says no under a seed or the last-conflict rule, which it does not take).
        let (solutions, stats, memo): (Count, Stats, Option<MemoStats>) = if let Some(path) = &args.checkpoint
        {
            let (parallel, progress) = parallel();
            let show = progress::Show::choose(args.progress, args.quiet, false);
            let (n, stats) = resumable(args, problem, &parallel, path, &progress, show)?;
            write_count(args, problem, &mut *out, (&n, &stats), parallel.shard_cut_fingerprint(), start)?;
            (n, stats, parallel.memo_stats())
        } else if let Some(show) = {
            // One thread with nothing to show and no shard needs no cut, whose replays of each
            // subtree's path cost time on problems with many small subtrees (`benches/RESULTS.md`):
            // one solver searches, as with a seed.
            let show = progress::Show::choose(args.progress, args.quiet, !args.count);
            // The cheapest solutions are searched on one thread, which prunes by the best found.
            let cut = (threads > 1 || args.shard.is_some() || show != progress::Show::Nothing)
                && args.best(problem).is_none();
            (args.seed.is_none() && cut).then_some(show)
        } {
            let (parallel, progress) = parallel();
            let done = AtomicBool::new(false);
            let (n, stats) = std::thread::scope(|scope| {
                scope.spawn(|| progress::watch(show, &progress, &done, &progress::About::default()));
                let result = search(args, &printed, &mut *out, limit, Search::Parallel(&parallel), start);
                done.store(true, Ordering::Relaxed);
                result
            })?;
            (n, stats, parallel.memo_stats())
        } else {
            let mut solver = Solver::new(problem);
            solver.set_seed(args.seed);
            solver.set_tie_break(args.tie_break);
            solver.set_branching(args.branch);
            solver.set_memo(args.memo);
            solver.set_memo_memory(args.memo_memory);
            solver.set_cancel_flag(Some(cancel));
            if !args.count
                && args.seed.is_none()
                && args.tie_break == TieBreak::Earliest
                && args.branch == Branching::Mrv
            {
                // Listing: on bit sets where a count would go there (a short count chooses; the
                // other tie-break, branching rules and seeds search on the links).
                solver.choose_counting();
            }
            let (n, stats) = search(args, &printed, &mut *out, limit, Search::One(&mut solver), start)?;
            (n, stats, solver.memo_stats())
        };
        out.flush()?;
        Ok((solutions, stats, memo))
    });
    let (solutions, stats, memo) = found?;
    if solutions.is_zero() && !args.count {
        // An empty stdout alone would not tell an unsolvable problem from a failed run.
        stderr!("dlx: {}: no solution{}", source.name(), printed.why_none())?;
    }
    if args.stats {
        // Cleansings happen only in problems with colors.
        let cleansings =
            if problem.has_colors() { format!(", cleansings {}", stats.cleansings) } else { String::new() };
        // With the memo, its figures; when the cheapest solutions were searched, the bound every
        // solution's cost is at least.
        let memo = memo_figures(memo);
        let memo = match (args.best(problem), problem.cost_lower_bound()) {
            (Some(_), Some(bound)) => {
                format!("{memo}; every solution costs at least {bound} (the items' taxes)")
            }
            _ => memo,
        };
        // The cheapest solutions: those the search met, fewer than there are.
        let met = if args.best(problem).is_some() { "solutions met" } else { "solutions" };
        stderr!(
            "{met} {solutions}, nodes {}, updates {}{cleansings}, time {:.3} s{memo}",
            stats.nodes,
            stats.updates,
            start.elapsed().as_secs_f64()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads the problem of `source` in Knuth's `.dlx` format, saying on stderr which options were
/// skipped and why; `None` when it is not a problem (said on stderr, with the line and column).
pub(crate) fn read_problem(source: &Source) -> Result<Option<Problem>> {
    if matches!(source, Source::Stdin) && io::stdin().is_terminal() {
        // Else a person who forgot the file sees a run that seems to hang.
        stderr!(
            "dlx: reading a problem in Knuth's .dlx format from the terminal: the items on the first \
             line, then one option per line; Ctrl-D to end (or give a FILE)"
        )?;
    }
    let bytes = source.read_bytes()?;
    let problem = match Problem::read_dlx(&bytes) {
        Ok(read) => {
            // Skipped as Knuth's programs skip them, but never silently.
            for line in read.skipped.iter().take(SKIPPED_SHOWN) {
                stderr!("dlx: {}:{line}: option skipped: it has no primary item", source.name())?;
            }
            match read.skipped.len().saturating_sub(SKIPPED_SHOWN) {
                0 => {}
                1 => stderr!("dlx: {}: 1 more option skipped: it has no primary item", source.name())?,
                more => {
                    stderr!("dlx: {}: {more} more options skipped: they have no primary item", source.name())?
                }
            }
            // Once, however many: a file of two problems would repeat it for every option.
            if let Some(&line) = read.items_again.first() {
                let more = match read.items_again.len() - 1 {
                    0 => String::new(),
                    n => format!(" (and {n} more option{} after it)", if n == 1 { "" } else { "s" }),
                };
                stderr!(
                    "dlx: {}:{line}: warning: this option repeats the item line{more}: a second problem? \
                     a file holds one (read as options)",
                    source.name()
                )?;
            }
            read.problem
        }
        Err(e) => {
            stderr!("dlx: {}:{}:{}: {}", source.name(), e.line, e.column, e.kind)?;
            return Ok(None);
        }
    };
    Ok(Some(problem))
}

/// The memo's figures for `--stats` (empty without the memo).
fn memo_figures(memo: Option<MemoStats>) -> String {
    memo.map_or(String::new(), |m| {
        let plain = if m.plain_nodes == u64::MAX { "2^64 or more".into() } else { m.plain_nodes.to_string() };
        // The bytes per subproblem stored: the table's room (vectors grown by doubling) over its
        // entries.
        let each = m.bytes.checked_div(m.entries).map_or(String::new(), |b| format!(" ({b} each)"));
        format!(
            "; memo: {} subproblems, {} met again, {} left out, {} bytes{each}, {plain} nodes without it",
            m.entries, m.hits, m.dropped, m.bytes
        )
    })
}

/// The one solver of `--sample` and of the ZDD's options, which take the memo on one thread.
fn memo_solver<'p>(args: &XcArgs, problem: &'p Problem) -> Solver<'p> {
    let mut solver = Solver::new(problem);
    solver.set_tie_break(args.tie_break);
    solver.set_branching(args.branch);
    solver.set_memo_memory(args.memo_memory);
    solver.set_cancel_flag(Some(report::cancel_flag().clone()));
    solver
}

/// `--sample N`: prints `n` solutions drawn uniformly at random, by `--seed`.
fn sample(
    args: &XcArgs,
    problem: &Problem,
    printed: &Printed<'_>,
    n: usize,
    source: &Source,
) -> Result<ExitCode> {
    let start = Instant::now();
    let mut solver = memo_solver(args, problem);
    let drawn = match solver.sample(n, args.seed.unwrap_or(0)) {
        Ok(drawn) => drawn,
        Err(SampleError::Interrupted(e)) => return Err(stopped(e)),
        Err(e @ SampleError::Multiplicities) => return Err(Usage(format!("--sample: {e}")).into()),
    };
    let mut out = BufWriter::new(io::stdout().lock());
    for (k, options) in drawn.iter().enumerate() {
        printed.write(&mut out, options, k as u64)?;
    }
    out.flush()?;
    if drawn.is_empty() && n > 0 {
        stderr!("dlx: {}: no solution{}", source.name(), printed.why_none())?;
    }
    if args.stats {
        let memo = memo_figures(solver.memo_stats());
        stderr!("drawn {}, time {:.3} s{memo}", drawn.len(), start.elapsed().as_secs_f64())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `--zdd FILE`, `--by-size`, `--fewest`, `--most`: from the ZDD of all solutions.
fn zdd(args: &XcArgs, problem: &Problem, printed: &Printed<'_>, source: &Source) -> Result<ExitCode> {
    let start = Instant::now();
    let mut solver = memo_solver(args, problem);
    let zdd = match solver.zdd() {
        Ok(zdd) => zdd,
        Err(ZddError::Interrupted(e)) => return Err(stopped(e)),
        Err(e @ ZddError::NotOnBitSets) => return Err(Usage(e.to_string()).into()),
    };
    if let Some(path) = &args.zdd {
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => std::path::Path::new("."),
        };
        let file = temporary(dir, ".zdd")?;
        let mut text = BufWriter::new(file);
        zdd.write_text(&mut text).with_context(|| format!("cannot write {}", path.display()))?;
        let file = text
            .into_inner()
            .map_err(|e| e.into_error())
            .with_context(|| format!("cannot write {}", path.display()))?;
        persist(file, path)?;
    }
    let mut out = BufWriter::new(io::stdout().lock());
    let count = zdd.count();
    if args.count {
        write_count(args, problem, &mut out, (&count, &solver.stats()), None, start)?;
        if args.by_size {
            for (size, n) in zdd.counts_by_size().iter().enumerate().filter(|(_, n)| !n.is_zero()) {
                writeln!(out, "{size}: {n}")?;
            }
        }
    } else {
        let extreme = if args.most { zdd.largest() } else { zdd.smallest() };
        if let Some(options) = extreme {
            printed.write(&mut out, &options, 0)?;
        }
    }
    out.flush()?;
    if count.is_zero() && !args.count {
        stderr!("dlx: {}: no solution{}", source.name(), printed.why_none())?;
    }
    if args.stats {
        let memo = memo_figures(solver.memo_stats());
        stderr!(
            "solutions {count}, nodes {}, ZDD nodes {}, time {:.3} s{memo}",
            solver.stats().nodes,
            zdd.nodes().len() + 2,
            start.elapsed().as_secs_f64()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The error of a search that stopped: interrupted (Ctrl-C, exit 130), or a count past what it
/// holds (which the counts here, exact however large, never meet), said as such (exit 1) rather
/// than as an interruption.
fn stopped(e: Interrupted) -> anyhow::Error {
    match e.reason {
        StopReason::Overflow => anyhow::anyhow!("{e}; nothing printed"),
        StopReason::Memory => anyhow::anyhow!(
            "the ZDD needs more memory than --memo-memory allows (it bounds the diagram as much \
             as the memo's table); nothing written"
        ),
        _ => Stopped.into(),
    }
}

/// The search of a run: one solver, or all threads of the current pool.
enum Search<'a, 'p> {
    One(&'a mut Solver<'p>),
    Parallel(&'a ParallelSolver<'p>),
}

/// Counts (to the end with the memo where it is set or chosen), or prints the solutions (up to
/// `limit`); returns how many, and the statistics.
fn search(
    args: &XcArgs,
    printed: &Printed<'_>,
    out: &mut impl Write,
    limit: u64,
    search: Search<'_, '_>,
    start: Instant,
) -> Result<(Count, Stats)> {
    if let Some(k) = args.best(printed.searched()) {
        // (`run` gives one solver here; one is made if not.)
        let (found, stats) = match search {
            Search::One(solver) => (solver.best(k), solver.stats()),
            Search::Parallel(_) => {
                let mut solver = Solver::new(printed.searched());
                solver.set_tie_break(args.tie_break);
                solver.set_cancel_flag(Some(report::cancel_flag().clone()));
                (solver.best(k), solver.stats())
            }
        };
        let found = found.map_err(stopped)?;
        let mut whole = Vec::new();
        for (index, (cost, options)) in (0u64..).zip(&found) {
            whole.clear();
            if index > 0 {
                writeln!(whole)?;
            }
            writeln!(whole, "cost {cost}")?;
            printed.write(&mut whole, options, 0)?;
            out.write_all(&whole)?;
        }
        return Ok((stats.solutions.clone(), stats));
    }
    if args.count {
        let whole = args.limit.is_none();
        let (n, stats, cut) = match search {
            Search::One(solver) => {
                let n = if whole { solver.count_exact() } else { solver.count_up_to(limit).map(Count::from) };
                (n.map_err(stopped)?, solver.stats(), None)
            }
            Search::Parallel(parallel) => {
                let n =
                    if whole { parallel.count_exact() } else { parallel.count_up_to(limit).map(Count::from) };
                (n.map_err(stopped)?, parallel.stats(), parallel.shard_cut_fingerprint())
            }
        };
        write_count(args, printed.searched(), out, (&n, &stats), cut, start)?;
        return Ok((n, stats));
    }
    let mut written = 0u64;
    let mut error = None;
    // Each solution is made whole here and written at once: one write (and one lock of the
    // output) a solution.
    let mut whole = Vec::new();
    let mut write = |options: &[OptionId]| {
        whole.clear();
        let done = printed.write(&mut whole, options, written).and_then(|()| out.write_all(&whole));
        match done {
            Ok(()) => {
                written += 1;
                if written >= limit { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            }
            Err(e) => {
                error = Some(e);
                ControlFlow::Break(())
            }
        }
    };
    let (searched, stats) = match search {
        Search::One(solver) => {
            let searched = solver.for_each(|s| write(&s.to_vec()));
            (searched.map(|_| ()), solver.stats())
        }
        Search::Parallel(parallel) => (parallel.for_each(write).map(|_| ()), parallel.stats()),
    };
    if searched.is_err() {
        // Cancelled by Ctrl-C (there is no budget): the solutions written are whole.
        out.flush()?;
        return Err(Stopped.into());
    }
    if let Some(e) = error {
        return Err(e.into());
    }
    Ok((Count::from(written), stats))
}

/// A size of memory, in bytes or with a suffix K, M or G (powers of 1024).
fn memory_size(text: &str) -> std::result::Result<usize, String> {
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((at, _)) => text.split_at(at),
        None => (text, ""),
    };
    let shift = match unit {
        "" | "B" => 0,
        "K" | "k" => 10,
        "M" | "m" => 20,
        "G" | "g" => 30,
        _ => return Err(format!("'{unit}': a size is a number of bytes, or with K, M or G (512M, 4G)")),
    };
    let n: usize =
        digits.parse().map_err(|_| format!("'{text}': a size is a number of bytes, or with K, M or G"))?;
    n.checked_mul(1 << shift).ok_or_else(|| format!("'{text}': more memory than this machine addresses"))
}

/// Prints a count as `--format` says: `N` (`N+` when the limit cut it), or a JSON object for
/// `dlx merge`.
fn write_count(
    args: &XcArgs,
    problem: &Problem,
    out: &mut impl Write,
    (n, stats): (&Count, &Stats),
    cut: Option<u64>,
    start: Instant,
) -> Result<()> {
    // The count reached the limit: there may be more, as `dlx count` says.
    let complete = args.limit.is_none_or(|limit| Count::from(limit) != *n);
    match args.format {
        CountFormat::Line => writeln!(out, "{n}{}", if complete { "" } else { "+" })?,
        CountFormat::Json => {
            let part = Part {
                fingerprint: fingerprint(problem),
                shard: args.shard.unwrap_or(Shard::new(0, 1).expect("shard 0 of 1")),
                tie_break: args.tie_break,
                branch: args.branch,
                cut: cut.map(|c| format!("{c:016x}")),
                solutions: n.clone(),
                complete,
                stats: stats.clone(),
                time: start.elapsed().as_secs_f64(),
            };
            writeln!(out, "{}", part.to_json())?;
        }
    }
    Ok(())
}

/// A count that records its pieces in the checkpoint at `path` and resumes from it: returns the
/// total and the figures of one whole run.
fn resumable(
    args: &XcArgs,
    problem: &Problem,
    parallel: &ParallelSolver<'_>,
    path: &std::path::Path,
    progress: &std::sync::Arc<Progress>,
    show: progress::Show,
) -> Result<(Count, Stats)> {
    let cut = parallel.resumable_cut().map_err(|_| Stopped)?;
    let fresh = Checkpoint {
        fingerprint: fingerprint(problem),
        shard: args.shard.unwrap_or(Shard::new(0, 1).expect("shard 0 of 1")),
        tie_break: args.tie_break,
        branch: args.branch,
        pieces: cut.subtrees.len(),
        cut: format!("{:016x}", cut.fingerprint(problem)),
        done: Default::default(),
    };
    let start = match Checkpoint::read(path)? {
        Some(old) => {
            if let Some(why) = old.mismatch(&fresh) {
                return Err(
                    Usage(format!("{}: cannot resume from this checkpoint: {why}", path.display())).into()
                );
            }
            old
        }
        None => fresh,
    };
    // Written once before any search: a file that cannot be written is refused now, not after
    // a search of hours whose pieces it could not keep.
    start.write(path).map_err(|e| anyhow::anyhow!("{e:#}; nothing was counted"))?;
    // Pieces done before count as done for the progress too.
    for (&k, stats) in &start.done {
        progress.add_done(cut.subtrees[k].weight(), &stats.solutions, stats.nodes);
    }
    let state = Mutex::new((start, false));
    let done = AtomicBool::new(false);
    let every = std::time::Duration::from_secs_f64(args.checkpoint_every.max(0.0));
    let result = std::thread::scope(|scope| {
        scope.spawn(|| progress::watch(show, progress, &done, &progress::About::default()));
        // Writes the checkpoint now and then while pieces get done. A write that fails (a full
        // disk) is reported once and tried again later: the count goes on either way.
        let saver = scope.spawn(|| -> io::Result<()> {
            let mut last = Instant::now();
            let mut warned = false;
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(20).min(every));
                if last.elapsed() >= every {
                    last = Instant::now();
                    let copy = {
                        let mut state = state.lock().unwrap_or_else(|e| e.into_inner());
                        if !state.1 {
                            continue;
                        }
                        state.1 = false;
                        state.0.clone()
                    };
                    if let Err(e) = copy.write(path) {
                        if !warned {
                            stderr!("dlx: warning: {e:#}; the count goes on, and tries again later")?;
                        }
                        warned = true;
                        // Written at the next piece, or at the end.
                        state.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
                    }
                }
            }
            Ok(())
        });
        let skip = |k: usize| state.lock().unwrap_or_else(|e| e.into_inner()).0.done.contains_key(&k);
        let counted = |k: usize, stats: Stats| {
            let mut state = state.lock().unwrap_or_else(|e| e.into_inner());
            state.0.done.insert(k, stats);
            state.1 = true;
        };
        let result = parallel.count_subtrees(&cut.subtrees, &skip, &counted);
        done.store(true, Ordering::Relaxed);
        let saved = saver.join().unwrap_or_else(|_| Err(io::Error::other("the checkpoint writer failed")));
        saved?;
        Ok::<_, io::Error>(result)
    })?;
    // Whatever happened, the pieces done are kept.
    let (checkpoint, _) = state.into_inner().unwrap_or_else(|e| e.into_inner());
    let written = checkpoint.write(path);
    if result.is_err() {
        written?;
        stderr!(
            "dlx: {}: {} of {} pieces counted; the same command resumes from there",
            path.display(),
            checkpoint.done.len(),
            checkpoint.pieces
        )?;
        return Err(Stopped.into());
    }
    if let Err(e) = written {
        // The count is finished and exact: it is printed all the same.
        stderr!("dlx: warning: {e:#}; the count is complete, and printed")?;
    }
    let mut stats = cut.stats;
    for piece in checkpoint.done.values() {
        stats.add(piece);
    }
    Ok((stats.solutions.clone(), stats))
}

/// How solutions are printed: as the options of the problem read, which, with --preprocess, are
/// those of the reduced problem mapped back.
struct Printed<'a> {
    original: &'a Problem,
    reduced: Option<&'a Reduced>,
}

impl Printed<'_> {
    /// The problem searched: the reduced one, with --preprocess.
    fn searched(&self) -> &Problem {
        self.reduced.map_or(self.original, Reduced::problem)
    }

    /// Prints a solution of the searched problem as the original's options, one per line, after
    /// a blank line but for the first (`index` 0).
    fn write(&self, out: &mut impl Write, options: &[OptionId], index: u64) -> io::Result<()> {
        if index > 0 {
            writeln!(out)?;
        }
        for &option in options {
            let option = self.reduced.map_or(option, |r| r.original_option(option));
            writeln!(out, "{}", self.original.display_option(option))?;
        }
        Ok(())
    }

    /// Why there is no solution, when preprocessing found a primary item without options.
    fn why_none(&self) -> String {
        match self.reduced.and_then(Reduced::infeasible) {
            Some(item) => {
                format!(" (preprocessing left item {} without options)", self.original.item_name(item))
            }
            None => String::new(),
        }
    }
}
