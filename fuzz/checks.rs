//! What the fuzz targets check, one function per target. The targets call these with the fuzzer's
//! inputs; `crates/cli/tests/all/fuzz_corpus.rs` calls them with every committed corpus and
//! regression input, on stable, so CI keeps what the fuzzer found.
//!
//! Each function returns normally for any input, or panics with what went wrong.

#![allow(dead_code)]

use std::io::BufReader;
use std::sync::OnceLock;

use dlx_engine::{
    Branching, Budget, Count, Counting, Memo, OptionId, ParallelSolver, Problem, ProblemBuilder, Shard,
    Solver, Stats,
};
use dlx_sudoku::{Defaults, Format, Matrix, Parity, Puzzle, Record, Records, Rules, Variant};

/// Nodes a search on a fuzzed problem may take: enough to reach solutions of small problems.
const NODES: u64 = 2_000;

/// Nodes allowed to count a puzzle's encoding up to two solutions before the comparison with the
/// sudoku solver is left out.
const SEARCH_NODES: u64 = 100_000;

/// The `.dlx` reader: any bytes give a problem or an error at a real position. A problem read
/// is written and read back the same; a bounded search on it reports exact covers and leaves its
/// links sound.
pub(crate) fn dlx_format(data: &[u8]) {
    let problem = match Problem::parse_dlx_bytes(data) {
        Ok(problem) => problem,
        Err(e) => {
            let lines = data.split(|&b| b == b'\n').count();
            assert!(e.line >= 1 && e.line <= lines.max(1), "line {} of {lines}: {e}", e.line);
            assert!(e.column >= 1, "{e}");
            return;
        }
    };
    let text = problem.to_dlx();
    let again = Problem::parse_dlx(&text).unwrap_or_else(|e| panic!("{e} in the written text\n{text}"));
    assert_eq!(again, problem, "the written text reads back differently\n{text}");
    search(&problem);
    preprocessed(&problem);
    branched(&problem);
    priced(&problem);
}

/// The cheapest solutions of a problem with costs: the same on the links and on bit sets (where
/// the problem allows them), figures too, within the budget; each an exact cover of its cost.
fn priced(problem: &Problem) {
    if !problem.has_costs() {
        return;
    }
    let best = |counting: Counting| {
        let mut solver = Solver::new(problem);
        solver.set_counting(counting);
        solver.set_budget(Budget { nodes: Some(NODES), updates: None });
        let best = solver.best(3).map_err(|e| e.reason);
        solver.verify_links().unwrap_or_else(|e| panic!("{e}"));
        let stats = solver.stats();
        (best, stats.nodes, stats.guesses, stats.solutions)
    };
    let links = best(Counting::Links);
    assert_eq!(links, best(Counting::BitSets), "the cheapest on bit sets\n{}", problem.to_dlx());
    for (cost, options) in links.0.iter().flatten() {
        assert_exact_cover(problem, options);
        let sum: u128 = options.iter().map(|&o| u128::from(problem.option_cost(o))).sum();
        assert_eq!(*cost, sum, "{options:?}\n{}", problem.to_dlx());
    }
}

/// Every branching rule counts what minimum remaining values counts (where the counts end within
/// the budget), with the same figures on the links and on bit sets.
fn branched(problem: &Problem) {
    let count = |rule: Branching, counting: Counting| {
        let mut solver = Solver::new(problem);
        solver.set_branching(rule);
        solver.set_counting(counting);
        solver.set_memo(Memo::Never);
        solver.set_budget(Budget { nodes: Some(NODES), updates: None });
        let counted = solver.count_exact().ok();
        solver.verify_links().unwrap_or_else(|e| panic!("{e}"));
        (counted, solver.stats())
    };
    let mrv = count(Branching::Mrv, Counting::Links).0;
    for rule in Branching::ALL {
        let links = count(rule, Counting::Links);
        assert_eq!(links, count(rule, Counting::BitSets), "{rule:?} on bit sets\n{}", problem.to_dlx());
        if let (Some(a), Some(b)) = (&mrv, &links.0) {
            assert_eq!(a, b, "{rule:?} counted otherwise\n{}", problem.to_dlx());
        }
    }
}

/// Preprocessing (DLX-PRE's reductions): the smaller problem has the original's count (where
/// both counts end within the budget), and its solutions, mapped back, are exact covers of the
/// original. Only problems with multiplicities are refused.
fn preprocessed(problem: &Problem) {
    let reduced = match problem.preprocess() {
        Ok(reduced) => reduced,
        Err(e) => {
            assert!(problem.has_multiplicities(), "{e}");
            return;
        }
    };
    let count = |p: &Problem| {
        let mut solver = Solver::new(p);
        solver.set_budget(Budget { nodes: Some(NODES), updates: None });
        solver.count_exact().ok()
    };
    if let (Some(before), Some(after)) = (count(problem), count(reduced.problem())) {
        assert_eq!(before, after, "preprocessing changed the count\n{}", problem.to_dlx());
    }
    let mut solver = Solver::new(reduced.problem());
    solver.set_budget(Budget { nodes: Some(NODES), updates: None });
    for solution in solver.solutions().take(3) {
        match solution {
            Ok(options) => assert_exact_cover(problem, &reduced.original_solution(&options)),
            Err(_) => break,
        }
    }
}

/// A bounded search: every solution found is an exact cover, and the links stay sound whether
/// the search ended or ran out of budget.
fn search(problem: &Problem) {
    let mut solver = Solver::new(problem);
    solver.set_budget(Budget { nodes: Some(NODES), updates: None });
    for solution in solver.solutions().take(3) {
        match solution {
            Ok(options) => assert_exact_cover(problem, &options),
            Err(_) => break,
        }
    }
    solver.verify_links().unwrap_or_else(|e| panic!("{e}"));
    // Counting on the links and on bit sets (where the problem allows them): the same count and
    // the same figures, also when the budget cuts both short.
    let mut counts = Vec::new();
    for counting in [Counting::Links, Counting::BitSets] {
        solver.set_counting(counting);
        let counted = solver.count_up_to(100).map_err(|e| (e.reason, e.solutions));
        counts.push((counted, solver.stats()));
        solver.verify_links().unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(counts[0], counts[1], "links, then bit sets");
    // Counting to the end without the memo and with it (where the problem allows it): the same
    // count where both end within the budget.
    let mut whole = Vec::new();
    for memo in [Memo::Never, Memo::Always] {
        solver.set_memo(memo);
        whole.push(solver.count_exact().ok());
        solver.verify_links().unwrap_or_else(|e| panic!("{e}"));
    }
    if let [Some(plain), Some(memoized)] = &whole[..] {
        assert_eq!(plain, memoized, "without the memo, then with it");
    }
    // The ZDD of the memo's count holds as many solutions (where it is made within the budget).
    if let (Some(plain), Ok(zdd)) = (&whole[0], solver.zdd()) {
        assert_eq!(&zdd.count(), plain, "the ZDD");
        assert_eq!(&zdd.counts_by_size().iter().sum::<Count>(), plain, "the ZDD by size");
    }
    solver.verify_links().unwrap_or_else(|e| panic!("{e}"));
    solver.set_memo(Memo::Auto);
    // Visiting on the links and on bit sets: the same solutions in the same order, the same
    // figures, also when the budget cuts both short.
    let mut visits = Vec::new();
    for counting in [Counting::Links, Counting::BitSets] {
        solver.set_counting(counting);
        let mut seen = Vec::new();
        let visited = solver.for_each(|s| {
            seen.push(s.to_vec());
            if seen.len() < 100 {
                std::ops::ControlFlow::Continue(())
            } else {
                std::ops::ControlFlow::Break(())
            }
        });
        visits.push((visited.map_err(|e| (e.reason, e.solutions)), seen, solver.stats()));
        solver.verify_links().unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(visits[0], visits[1], "visits on the links, then on bit sets");
    // Every other path of a count, when the count ended below its limit.
    if let (Ok(n), stats) = &counts[0]
        && *n < 100
    {
        every_path(problem, *n, stats);
    }
    // Preferring a solution's options finds that solution first (without multiplicities, whose
    // null moves may come first) and changes no count that the budget lets finish.
    solver.set_counting(Counting::Links);
    if let Ok(Some(found)) = solver.first() {
        solver.set_preferred(&found).unwrap_or_else(|e| panic!("{e}"));
        if !problem.has_multiplicities()
            && let Ok(again) = solver.first()
        {
            assert_eq!(again.map(sorted), Some(sorted(found.clone())), "the preferred solution first");
        }
        if let (Ok(with), (Ok(without), _)) = (solver.count_up_to(100), &counts[0]) {
            assert_eq!(with, *without, "a count with a preference");
        }
        solver.verify_links().unwrap_or_else(|e| panic!("{e}"));
        solver.set_preferred(&[]).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// A pool of two threads for the parallel solver, made once.
fn pool() -> &'static rayon::ThreadPool {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap())
}

/// Every path of a count gives the `n` solutions and the figures `stats` of one count on the
/// links: subtrees cut at depths 1 and 2 counted on the links and on bit sets, the shards of the
/// parallel solver (one and three) and its resumable pieces, on two threads.
fn every_path(problem: &Problem, n: u64, stats: &Stats) {
    for counting in [Counting::Links, Counting::BitSets] {
        for depth in [1, 2] {
            let mut solver = Solver::new(problem);
            solver.set_counting(counting);
            let split = solver.split(depth).unwrap_or_else(|e| panic!("{e}"));
            let (mut count, mut sum) = (0, split.stats);
            for subtree in &split.subtrees {
                count += solver.count_subtree(subtree).unwrap_or_else(|e| panic!("{e}"));
                sum.add(&solver.stats());
            }
            assert_eq!((count, &sum), (n, stats), "subtrees at depth {depth}, {counting:?}");
            solver.verify_links().unwrap_or_else(|e| panic!("{e}"));
        }
    }
    pool().install(|| {
        for shards in [1, 3] {
            let (mut count, mut sum, mut memoized) = (0, Stats::default(), Count::ZERO);
            for k in 0..shards {
                let mut parallel = ParallelSolver::new(problem);
                parallel.set_shard(Some(Shard::new(k, shards).unwrap()));
                // Without the memo, the figures are one search's; with it, the count is.
                parallel.set_memo(Memo::Never);
                count += parallel.count().unwrap_or_else(|e| panic!("{e}"));
                sum.add(&parallel.stats());
                // (Problems the memo does not take are counted without it.)
                parallel.set_memo(Memo::Always);
                memoized += parallel.count_exact().unwrap_or_else(|e| panic!("{e}"));
            }
            assert_eq!((count, &sum), (n, stats), "{shards} shards");
            assert_eq!(memoized, u128::from(n), "{shards} shards with the memo");
        }
        let mut parallel = ParallelSolver::new(problem);
        parallel.set_memo(Memo::Never);
        let cut = parallel.resumable_cut().unwrap_or_else(|e| panic!("{e}"));
        let count =
            parallel.count_subtrees(&cut.subtrees, &|_| false, &|_, _| {}).unwrap_or_else(|e| panic!("{e}"));
        let mut sum = cut.stats;
        sum.add(&parallel.stats());
        assert_eq!((count, &sum), (Count::from(n), stats), "resumable pieces");
    });
}

/// A solution's options in increasing order.
fn sorted(mut options: Vec<OptionId>) -> Vec<OptionId> {
    options.sort();
    options
}

/// Checks a solution against the definition: every primary item as many times as its bounds
/// allow (exactly once without bounds); every secondary item at most once without a color, or
/// any number of times with one color.
fn assert_exact_cover(problem: &Problem, options: &[OptionId]) {
    let mut uses: Vec<Vec<Option<&str>>> = vec![Vec::new(); problem.item_count()];
    for &option in options {
        for (item, color) in problem.option_items(option).zip(problem.option_colors(option)) {
            uses[item.index()].push(color);
        }
    }
    for item in problem.items() {
        let used = &uses[item.index()];
        let ok = if problem.is_primary(item) {
            u32::try_from(used.len()).is_ok_and(|n| problem.item_bounds(item).contains(&n))
        } else {
            used.len() <= 1 || (used[0].is_some() && used.iter().all(|c| *c == used[0]))
        };
        assert!(ok, "item {} used as {used:?}", problem.item_name(item));
    }
}

/// The sudoku record reader: any bytes give records in order, each a puzzle or an error at or
/// after the line its record starts on. Reading through a tiny buffer gives the same records.
/// Each puzzle read prints (as a line and as a grid) and reads back the same.
pub(crate) fn sudoku_records(data: &[u8]) {
    let records: Vec<Record> = Records::new(data).map(|r| r.expect("reading from memory")).collect();
    let small: Vec<Record> =
        Records::new(BufReader::with_capacity(7, data)).map(|r| r.expect("reading from memory")).collect();
    assert_eq!(records, small, "a small buffer reads other records");
    let mut last = 0;
    for record in &records {
        assert!(record.line > last, "record at line {} after line {last}", record.line);
        last = record.line;
        match &record.puzzle {
            Ok(grid) => {
                // Every puzzle writes back to itself with its rules' fields.
                let text = grid.to_text();
                let back = dlx_sudoku::parse_puzzle(&text, &dlx_sudoku::Defaults::default());
                assert_eq!(back.as_ref(), Ok(grid), "{text}");
                let block = dlx_sudoku::parse_block(
                    grid.to_block().lines(),
                    &dlx_sudoku::Defaults { size: Some(grid.size()), ..Default::default() },
                );
                assert_eq!(block.map(|b| b.cells().to_vec()), Ok(grid.cells().to_vec()), "{text}");
            }
            Err(e) => {
                assert!(e.line >= record.line, "error at line {} in a record from {}", e.line, record.line);
                assert!(e.column.is_none_or(|c| c >= 1), "{e}");
            }
        }
    }
}

/// Printing then parsing gives the same puzzle: its line with its rules' fields, and its block
/// of rows (the cells; a block holds no rules).
fn round_trip(puzzle: &Puzzle) {
    let text = puzzle.to_text();
    let records = dlx_sudoku::parse_all(&text);
    assert_eq!(records.len(), 1, "{text}");
    assert_eq!(records[0].format, Format::Line);
    // (A line's `variant=` field is the record's variant, which `puzzle_with` applies.)
    assert_eq!(records[0].puzzle_with(None), Ok(puzzle.clone()), "{text}");
    let block = puzzle.to_block();
    let read =
        dlx_sudoku::parse_block(block.lines(), &Defaults { size: Some(puzzle.size()), ..Default::default() });
    assert_eq!(read.map(|b| b.cells().to_vec()), Ok(puzzle.cells().to_vec()), "{block}");
}

/// Round trips of structured values made from the bytes: a 9x9 puzzle of a variant, with even
/// marks (line and block forms, and its `.dlx` encoding, which must count as many solutions, up
/// to two, as the sudoku solver), and a problem built through the builder (written and read back
/// the same).
pub(crate) fn round_trips(data: &[u8]) {
    let (cells, rest) = data.split_at(data.len().min(81));
    let variant =
        rest.first().map_or(Variant::Classic, |b| Variant::ALL[usize::from(*b) % Variant::ALL.len()]);
    let mut puzzle = Puzzle::new(Rules::from(variant));
    for (cell, &b) in cells.iter().enumerate() {
        // Mostly empty cells, so that many puzzles obey the rules.
        match b {
            0..=149 => {}
            150..=239 => puzzle.set(cell, (b - 150) % 9 + 1),
            _ => puzzle.rules_mut().set_parity(cell, Parity::Even),
        }
    }
    round_trip(&puzzle);
    if puzzle.check().is_ok() {
        let matrix = Matrix::new(puzzle.rules());
        let problem = Problem::parse_dlx(&matrix.puzzle_to_dlx(&puzzle)).expect("the encoding reads");
        let mut solver = Solver::new(&problem);
        // A sparse grid of a windoku or anti-king puzzle can take over a million nodes before
        // its second solution: slowness, not a finding. Such searches are left uncompared.
        solver.set_budget(Budget { nodes: Some(SEARCH_NODES), updates: None });
        if let Ok(encoded) = solver.count_up_to(2) {
            let direct = matrix.solver().count(&puzzle, Some(2)).expect("the puzzle obeys the rules");
            assert_eq!(encoded, direct, "{}", puzzle.to_text());
        }
    }
    if let Some(problem) = problem_from(rest.get(1..).unwrap_or_default()) {
        let again = Problem::parse_dlx(&problem.to_dlx()).expect("a written problem reads back");
        assert_eq!(again, problem);
        search(&problem);
    }
}

/// A small problem: the first byte gives the items (1-8 primary, 0-3 secondary) and whether
/// secondary items take colors; each further byte an option as a bit mask over the first eight
/// items, a choice of secondary item and its color.
fn problem_from(data: &[u8]) -> Option<Problem> {
    let (&shape, options) = data.split_first()?;
    let primary = usize::from(shape % 8) + 1;
    let secondary = usize::from(shape / 8 % 4);
    let mut builder = ProblemBuilder::new();
    let mut items = Vec::new();
    for k in 0..primary {
        items.push(builder.primary(format!("p{k}")).ok()?);
    }
    let mut spare = Vec::new();
    for k in 0..secondary {
        spare.push(builder.secondary(format!("s{k}")).ok()?);
    }
    for &mask in options.iter().take(64) {
        let mut option: Vec<_> = (0..primary).filter(|&k| mask & (1 << k) != 0).map(|k| items[k]).collect();
        let mut colors = vec![None; option.len()];
        if !spare.is_empty() && mask & 0x80 != 0 {
            option.push(spare[usize::from(mask) % spare.len()]);
            colors.push((shape & 0x80 != 0).then_some(["r", "g", "b"][usize::from(mask / 3) % 3]));
        }
        // The builder refuses an option without a primary item; the fuzzer is not testing that.
        let _ = builder.option_with_colors(option.into_iter().zip(colors));
    }
    Some(builder.build())
}
