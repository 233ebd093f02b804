//! Counting all solutions of three classic problems: this engine (as it chooses, and on the
//! links throughout), and the `dlx` and `xcov` crates on the very same matrices, side by side;
//! then a problem with colors (word squares), with this engine and the `dlx` crate's Algorithm C,
//! and a larger one that this engine counts on bit sets, against its links;
//! then one with multiplicities (the 7x7 0-1 matrices whose lines sum to 2), with this engine and
//! the `dlx` crate's Algorithm M. Throughput is the engine's update count, so criterion reports
//! updates per second next to the time.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use dlx_benches::{
    PlainProblem, dominoes, langford::langford, line_sums, pentominoes::pentominoes, queens::queens,
    word_squares,
};
use dlx_engine::{Counting, ParallelSolver, Problem, Solver};

fn count_engine(problem: &Problem) -> u64 {
    Solver::new(problem).count().expect("no budget")
}

/// The engine counting on the links throughout, as it did before it counted on bit sets.
fn count_engine_links(problem: &Problem) -> u64 {
    let mut solver = Solver::new(problem);
    solver.set_counting(Counting::Links);
    solver.count().expect("no budget")
}

fn count_dlx_crate(plain: &PlainProblem) -> u64 {
    let options: Vec<Vec<dlx::Uint>> =
        plain.options.iter().map(|o| o.iter().map(|&i| dlx::Uint(i)).collect()).collect();
    let mut problem = dlx::x::make_problem(
        dlx::Uint(plain.primary),
        dlx::Uint(plain.secondary),
        &options,
        dlx::OptOrder::Seq,
    );
    count_with_dlx_crate(&mut problem)
}

/// Counts the solutions of a problem of the `dlx` crate, with its minimum-remaining-values rule.
fn count_with_dlx_crate<P: dlx::Solve>(problem: &mut P) -> u64 {
    let mut solver = dlx::Solver::new(problem);
    let mut chooser = dlx::choose::mrv_chooser(dlx::choose::prefer_any(), dlx::choose::no_tiebreak());
    let mut n = 0;
    while solver.next_solution(&mut chooser) {
        n += 1;
    }
    n
}

/// The `dlx` crate's Algorithm C (colors).
fn count_dlx_crate_colored(plain: &PlainProblem) -> u64 {
    let options: Vec<Vec<(dlx::Uint, dlx::Int)>> = plain
        .options
        .iter()
        .zip(&plain.colors)
        .map(|(o, c)| {
            o.iter()
                .zip(c)
                .map(|(&i, &c)| (dlx::Uint(i), dlx::Int::try_from(c).expect("few colors")))
                .collect()
        })
        .collect();
    let mut problem = dlx::c::make_problem(
        dlx::Uint(plain.primary),
        dlx::Uint(plain.secondary),
        &options,
        dlx::OptOrder::Seq,
    );
    count_with_dlx_crate(&mut problem)
}

/// The `dlx` crate's Algorithm M (multiplicities), with its chooser of Knuth's key.
fn count_dlx_crate_multi(plain: &PlainProblem) -> u64 {
    let options: Vec<Vec<dlx::Uint>> =
        plain.options.iter().map(|o| o.iter().map(|&i| dlx::Uint(i)).collect()).collect();
    let bounds = plain.bounds.iter().map(|&(lower, upper)| (dlx::Int(lower), dlx::Int(upper)));
    let items = dlx::m::INodes::new(bounds, dlx::Uint(plain.secondary));
    let n = dlx::Uint(plain.primary + plain.secondary);
    let opts = dlx::x::ONodes::new(n, dlx::Uint(plain.primary), &options, dlx::OptOrder::Seq);
    let mut problem = dlx::m::Problem::new(items, opts);
    let mut solver = dlx::Solver::new(&mut problem);
    let mut chooser = dlx::choose::mrv_chooser(dlx::choose::prefer_any(), dlx::choose::knuth_tiebreak());
    let mut n = 0;
    while solver.next_solution(&mut chooser) {
        n += 1;
    }
    n
}

fn count_xcov(plain: &PlainProblem) -> u64 {
    use xcov::ExactCoverProblem;
    let mut builder = xcov::DlxBuilder::new(plain.primary, plain.secondary);
    for option in &plain.options {
        let one_based: Vec<usize> = option.iter().map(|&i| i + 1).collect();
        builder.add_option(&one_based);
    }
    let mut search = xcov::MrvExactCoverSearch::new(builder.build());
    let mut n = 0;
    while search.search() {
        n += 1;
    }
    n
}

fn bench(c: &mut Criterion) {
    let problems = [
        ("queens-12", queens(12).unwrap(), 14200),
        ("langford-11", langford(11).unwrap(), 35584),
        ("pentominoes-6x10", pentominoes(6, 10, false).unwrap(), 9356),
    ];
    for (name, problem, solutions) in &problems {
        let mut solver = Solver::new(problem);
        assert_eq!(solver.count().unwrap(), *solutions);
        let updates = solver.stats().updates;
        let plain = PlainProblem::from_problem(problem);
        assert_eq!(count_dlx_crate(&plain), *solutions, "dlx crate on {name}");
        assert_eq!(count_xcov(&plain), *solutions, "xcov on {name}");

        let mut group = c.benchmark_group(format!("count/{name}"));
        group.throughput(Throughput::Elements(updates));
        if name.starts_with("pentominoes") {
            group.sample_size(10);
        }
        group.bench_function(BenchmarkId::from_parameter("dlx-engine"), |b| b.iter(|| count_engine(problem)));
        group.bench_function(BenchmarkId::from_parameter("dlx-engine-links"), |b| {
            b.iter(|| count_engine_links(problem))
        });
        group
            .bench_function(BenchmarkId::from_parameter("dlx-crate"), |b| b.iter(|| count_dlx_crate(&plain)));
        group.bench_function(BenchmarkId::from_parameter("xcov"), |b| b.iter(|| count_xcov(&plain)));
        group.finish();
    }

    // Colors: 4x4 word squares of the example's 50 random words over `abc` (seed 1).
    let words = word_squares::random_words(4, 50, 3, 1);
    let problem = word_squares::word_squares(4, &words).unwrap();
    let mut solver = Solver::new(&problem);
    assert_eq!(solver.count().unwrap(), 889_307);
    let plain = PlainProblem::from_problem(&problem);
    assert_eq!(count_dlx_crate_colored(&plain), 889_307, "dlx crate on word squares");
    let mut group = c.benchmark_group("count/word-squares-4x4");
    group.throughput(Throughput::Elements(solver.stats().updates));
    group.sample_size(10);
    group.bench_function(BenchmarkId::from_parameter("dlx-engine"), |b| b.iter(|| count_engine(&problem)));
    group.bench_function(BenchmarkId::from_parameter("dlx-crate"), |b| {
        b.iter(|| count_dlx_crate_colored(&plain))
    });
    group.finish();

    // Colors on bit sets: 5x5 word squares of 60 random words over `abc` (seed 1), whose nodes
    // are dear enough that counts go on bit sets, against the links throughout.
    let words = word_squares::random_words(5, 60, 3, 1);
    let problem = word_squares::word_squares(5, &words).unwrap();
    let mut solver = Solver::new(&problem);
    assert_eq!(solver.count().unwrap(), 717_101);
    assert_eq!(solver.choose_counting(), Counting::BitSets);
    let mut group = c.benchmark_group("count/word-squares-5x5");
    group.throughput(Throughput::Elements(solver.stats().updates));
    group.sample_size(10);
    group.bench_function(BenchmarkId::from_parameter("dlx-engine"), |b| b.iter(|| count_engine(&problem)));
    group.bench_function(BenchmarkId::from_parameter("dlx-engine-links"), |b| {
        b.iter(|| count_engine_links(&problem))
    });
    group.finish();

    // Multiplicities: the 7x7 0-1 matrices whose rows and columns each sum to 2.
    let problem = line_sums::line_sums(7, 2, 2).unwrap();
    let mut solver = Solver::new(&problem);
    assert_eq!(solver.count().unwrap(), 3_110_940);
    let plain = PlainProblem::from_problem(&problem);
    assert_eq!(count_dlx_crate_multi(&plain), 3_110_940, "dlx crate on line sums");
    let mut group = c.benchmark_group("count/line-sums-7x7");
    group.throughput(Throughput::Elements(solver.stats().updates));
    group.sample_size(10);
    group.bench_function(BenchmarkId::from_parameter("dlx-engine"), |b| b.iter(|| count_engine(&problem)));
    group.bench_function(BenchmarkId::from_parameter("dlx-crate"), |b| {
        b.iter(|| count_dlx_crate_multi(&plain))
    });
    group.finish();

    // The memo on one thread and on two (in two bands of levels), the count as `dlx xc -n` makes
    // it (`Memo::Auto`'s probes first), with a new solver each time.
    for rows in [12, 14] {
        let problem = dominoes::dominoes(rows, rows).unwrap();
        let want = dominoes::tilings(rows, rows).unwrap();
        let mut group = c.benchmark_group(format!("memo/dominoes-{rows}x{rows}"));
        group.sample_size(if rows > 12 { 20 } else { 50 });
        for threads in [1, 2] {
            let count = || {
                let mut parallel = ParallelSolver::new(&problem);
                parallel.set_threads(Some(threads));
                parallel.count_exact().expect("no budget")
            };
            assert_eq!(count(), want);
            group.bench_function(BenchmarkId::new("threads", threads), |b| b.iter(count));
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
