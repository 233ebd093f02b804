//! The parallel search against the sequential one: the same counts and figures, the same
//! solutions in the same order, for plain problems, colors and multiplicities, on pools of 1 to 16
//! threads; budgets, cancellation and limits.

use std::ops::ControlFlow;

use crate::common::{fixture, in_order, langford::langford, queens::queens};
use dlx_engine::{Budget, CancelFlag, Finished, OptionId, ParallelSolver, Problem, Solver, StopReason};

/// Nodes the parallel solver's first, sequential attempt may take: a search that ends within them
/// is answered by it, with the figures of one search, before any thread starts.
const FIRST_ATTEMPT: u64 = 16_384;

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
}

/// One solver's solutions in order with the figures of its visit, and the figures of its count
/// (which, with colors, takes the last item's options at once: fewer updates).
fn sequential(problem: &Problem) -> (Vec<Vec<OptionId>>, dlx_engine::Stats, dlx_engine::Stats) {
    let mut solver = Solver::new(problem);
    let solutions = in_order(&mut solver);
    let visit = solver.stats();
    solver.count().unwrap();
    (solutions, visit, solver.stats())
}

fn check(problem: &Problem) {
    let (expected, stats, count_stats) = sequential(problem);
    for threads in [1, 2, 3, 16] {
        pool(threads).install(|| {
            let mut parallel = ParallelSolver::new(problem);
            let progress = dlx_engine::Progress::new();
            parallel.set_progress(Some(progress.clone()));
            let count = parallel.count().unwrap();
            let counted = parallel.stats();
            // Shared out, the progress saw every subtree; searched whole by the first attempt,
            // it saw the whole tree done at once.
            assert_eq!(progress.solutions(), u128::from(count));
            assert!(progress.fraction() > 0.5 && progress.fraction() <= 1.0, "{}", progress.fraction());
            assert!(progress.nodes() <= counted.nodes);
            parallel.set_progress(None);
            assert_eq!(count, expected.len() as u64, "{threads} threads");
            let mut seen = Vec::new();
            let finished = parallel
                .for_each(|s| {
                    seen.push(s.to_vec());
                    ControlFlow::Continue(())
                })
                .unwrap();
            let visited = parallel.stats();
            assert_eq!(finished, Finished::Exhausted);
            assert_eq!(seen, expected, "{threads} threads: the solutions in the sequential order");
            // The figures are those of one search when the first attempt did not finish it.
            if stats.nodes > FIRST_ATTEMPT {
                assert_eq!(counted, count_stats, "{threads} threads: counting");
                assert_eq!(visited, stats, "{threads} threads: visiting");
            } else {
                assert_eq!((&counted.solutions, &visited.solutions), (&stats.solutions, &stats.solutions));
            }
        });
    }
}

#[test]
fn plain_problems() {
    check(&queens(10).unwrap());
    check(&queens(11).unwrap());
    check(&langford(8).unwrap());
    check(&queens(4).unwrap());
    check(&"A B\nA\n".parse().unwrap());
}

#[test]
fn colors_and_multiplicities() {
    for name in ["knuth-colors.dlx", "knuth-multiplicities.dlx"] {
        check(&Problem::parse_dlx(&std::fs::read_to_string(fixture(name)).unwrap()).unwrap());
    }
    check(&line_sums(5));
    check(&word_squares(24));
    check(&line_sums(6));
}

/// The 4x4 word squares of `words` of the 81 words over `abc` (the `7k mod 81`-th in
/// lexicographic order, for k from 0): colors, and 30,102 nodes for 24 words.
fn word_squares(words: usize) -> Problem {
    let n = 4;
    let words: Vec<Vec<char>> = (0..words)
        .map(|k| [27, 9, 3, 1].iter().map(|p| ['a', 'b', 'c'][7 * k % 81 / p % 3]).collect())
        .collect();
    let mut text: String = (0..n).map(|i| format!("r{i} c{i} ")).collect();
    text += "|";
    for i in 0..n {
        text += &(0..n).map(|j| format!(" x{i}{j}")).collect::<String>();
    }
    text.push('\n');
    for w in &words {
        for i in 0..n {
            text += &format!("r{i}{}\n", (0..n).map(|j| format!(" x{i}{j}:{}", w[j])).collect::<String>());
            text += &format!("c{i}{}\n", (0..n).map(|j| format!(" x{j}{i}:{}", w[j])).collect::<String>());
        }
    }
    text.parse().unwrap()
}

/// `n` x `n` 0-1 matrices with two ones in each row and one or two in each column:
/// multiplicities, 268,844 nodes for n = 6 (and a small tree for n = 5).
fn line_sums(n: usize) -> Problem {
    let mut text: String = (0..n).map(|i| format!("2|r{i} ")).collect();
    text += &(0..n).map(|j| format!("1:2|c{j}")).collect::<Vec<_>>().join(" ");
    text.push('\n');
    for i in 0..n {
        for j in 0..n {
            text += &format!("r{i} c{j}\n");
        }
    }
    text.parse().unwrap()
}

/// `problem` after `levels` forced moves: a chain of `2 * levels` items `f0 f1 ...` covered by
/// the options `f0 f1`, `f1 f2`, ...: the first item has one option, and each choice leaves the
/// next item of the chain one.
fn after_forced_moves(problem: &str, levels: usize) -> Problem {
    let (items, options) = problem.split_once('\n').unwrap();
    let chain: String = (0..2 * levels).map(|k| format!("f{k} ")).collect();
    let links: String = (0..2 * levels - 1).map(|k| format!("f{k} f{}\n", k + 1)).collect();
    format!("{chain}{items}\n{links}{options}").parse().unwrap()
}

/// A search that begins with 150 forced moves (more than the rounds a cut may take) is still
/// cut into many subtrees below them; before, three rounds that found one subtree each stopped
/// the cut at one. The same solutions and figures on every pool, and a resumable cut of
/// thousands of pieces.
#[test]
fn a_forced_start_is_cut_below_it() {
    let queens = queens(11).unwrap().to_dlx();
    let problem = after_forced_moves(&queens, 150);
    let mut solver = Solver::new(&problem);
    let split = solver.split(150).unwrap();
    assert_eq!(split.subtrees.len(), 1, "150 forced levels");
    check(&problem);
    let pieces = ParallelSolver::new(&problem).resumable_cut().unwrap();
    assert!(pieces.subtrees.len() >= dlx_engine::RESUMABLE_PIECES, "{} pieces", pieces.subtrees.len());
    assert!(pieces.subtrees.iter().all(|t| t.depth() > 150));
    for threads in [2, 3] {
        pool(threads).install(|| {
            let counted = ParallelSolver::new(&problem).count().unwrap();
            assert_eq!(counted, 2_680);
        });
    }
}

#[test]
fn limits_budgets_and_cancelling() {
    let problem = queens(9).unwrap();
    pool(2).install(|| {
        let parallel = ParallelSolver::new(&problem);
        assert_eq!(parallel.count_up_to(5).unwrap(), 5);
        assert_eq!(parallel.count_up_to(1_000).unwrap(), 352);
        let mut shown = 0;
        let finished = parallel
            .for_each(|_| {
                shown += 1;
                if shown == 7 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            })
            .unwrap();
        assert_eq!((finished, shown), (Finished::Stopped, 7));
        let problem = queens(11).unwrap();
        let mut parallel = ParallelSolver::new(&problem);
        for nodes in [10, 5_000, 20_000] {
            parallel.set_budget(Budget { nodes: Some(nodes), updates: None });
            let e = parallel.count().unwrap_err();
            assert_eq!(e.reason, StopReason::Budget, "budget of {nodes} nodes");
            assert!(parallel.for_each(|_| ControlFlow::Continue(())).is_err());
        }
        parallel.set_budget(Budget::default());
        let flag = CancelFlag::new();
        flag.cancel();
        parallel.set_cancel_flag(Some(flag));
        assert_eq!(parallel.count().unwrap_err().reason, StopReason::Cancelled);
    });
}

/// A count up to a limit stops inside a subtree once it has that many: each subtree of the 20
/// queens holds millions of solutions, and a budget of a million nodes stands in for a timeout
/// (before, each subtree was counted whole, and the count ran out of it).
#[test]
fn a_limit_stops_a_count_inside_a_subtree() {
    let problem = queens(20).unwrap();
    for threads in [2, 3] {
        pool(threads).install(|| {
            let mut parallel = ParallelSolver::new(&problem);
            parallel.set_budget(Budget { nodes: Some(1_000_000), updates: None });
            assert_eq!(parallel.count_up_to(30_000).unwrap(), 30_000, "{threads} threads");
        });
    }
}

/// Shards: disjoint, together every solution once, figures adding up to one run's; the same
/// parts whatever the threads.
#[test]
fn shards_partition_the_solutions() {
    use dlx_engine::Shard;
    let knuth_mcc =
        Problem::parse_dlx(&std::fs::read_to_string(fixture("knuth-multiplicities.dlx")).unwrap()).unwrap();
    for problem in [queens(8).unwrap(), langford(7).unwrap(), queens(4).unwrap(), knuth_mcc] {
        let (expected, _, stats) = sequential(&problem);
        let mut sorted_expected = expected.clone();
        sorted_expected.sort();
        for count in [1, 2, 3, 7, 64] {
            let mut all = Vec::new();
            let mut sum = dlx_engine::Stats::default();
            let mut parts = Vec::new();
            let mut cuts = Vec::new();
            for index in 0..count {
                let shard = Shard::new(index, count).unwrap();
                let mut parallel = ParallelSolver::new(&problem);
                parallel.set_shard(Some(shard));
                let mut part = Vec::new();
                pool(2)
                    .install(|| {
                        parallel.for_each(|s| {
                            part.push(s.to_vec());
                            ControlFlow::Continue(())
                        })
                    })
                    .unwrap();
                let visited = parallel.stats();
                let cut = parallel.shard_cut_fingerprint();
                let n = pool(3).install(|| parallel.count()).unwrap();
                let counted = parallel.stats();
                assert_eq!(n, part.len() as u64, "shard {shard}");
                // Every shard, listing or counting, on any threads, took its part of one cut.
                assert!(cut.is_some() && parallel.shard_cut_fingerprint() == cut, "shard {shard}");
                cuts.push(cut);
                assert_eq!(counted, visited, "shard {shard}: counted and visited alike");
                sum.add(&counted);
                all.extend(part.iter().cloned());
                parts.push(part);
            }
            all.sort();
            assert!(cuts.iter().all(|&c| c == cuts[0]), "{count} shards: one cut");
            assert_eq!(all, sorted_expected, "{count} shards: every solution once");
            assert_eq!(sum, stats, "{count} shards: the figures add up");
            // The same parts on one thread.
            let index = count / 2;
            let mut parallel = ParallelSolver::new(&problem);
            parallel.set_shard(Some(Shard::new(index, count).unwrap()));
            let mut part = Vec::new();
            pool(1)
                .install(|| {
                    parallel.for_each(|s| {
                        part.push(s.to_vec());
                        ControlFlow::Continue(())
                    })
                })
                .unwrap();
            assert_eq!(part, parts[index as usize], "shard {index}/{count} on one thread");
        }
    }
    for bad in ["0/0", "3/3", "-1/2", "1", "a/b", "1/2000000"] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
    assert_eq!("2/5".parse::<Shard>().unwrap(), Shard::new(2, 5).unwrap());
}

/// Listing stops the threads as soon as the visitor breaks, and holds only a few batches of
/// solutions ahead of it: a chain of 40 items with 2^20 solutions, cut into subtrees of thousands
/// each, shows one solution and searches only a little more.
#[test]
fn breaking_stops_the_threads_at_once() {
    let n = 40;
    let mut text: String = (0..n).map(|k| format!("i{k} ")).collect();
    text.push('\n');
    for k in 0..n {
        text += &format!("i{k}\n");
    }
    for k in (0..n).step_by(2) {
        text += &format!("i{k} i{}\n", k + 1);
    }
    let problem: Problem = text.parse().unwrap();
    for threads in [2, 3] {
        pool(threads).install(|| {
            let mut parallel = ParallelSolver::new(&problem);
            let progress = dlx_engine::Progress::new();
            parallel.set_progress(Some(progress.clone()));
            let finished = parallel.for_each(|_| ControlFlow::Break(())).unwrap();
            let stats = parallel.stats();
            assert_eq!((finished, stats.solutions), (Finished::Stopped, 1u64.into()));
            // Before, each window of subtrees was searched whole first: 229,376 solutions on two
            // threads.
            assert!(progress.solutions() < 5_000, "{threads} threads: {} solutions", progress.solutions());
            assert!(stats.nodes < 20_000, "{threads} threads: {} nodes", stats.nodes);
        });
    }
}

/// A memoized count on every thread: the threads share one table, and count dominoes on 14x14
/// exactly (past 2^64, where `count` says it overflows); shards add up to it exactly, and so do a
/// resumable count's pieces; and so on 200x4, past 2^256. On a small board, the memo's count on
/// threads agrees with enumeration's.
#[test]
fn memoized_counts_run_on_every_thread_in_shards_and_pieces() {
    use crate::common::dominoes::{dominoes, tilings};
    use dlx_engine::{Memo, Shard};
    let problem = dominoes(14, 14).unwrap();
    let want = tilings(14, 14).unwrap();
    for threads in [2, 3] {
        let mut parallel = ParallelSolver::new(&problem);
        parallel.set_threads(Some(threads));
        assert_eq!(parallel.count_exact().unwrap(), want, "{threads} threads");
        let memo = parallel.memo_stats().expect("auto takes the memo for tilings");
        assert!(
            memo.hits > 0 && memo.entries > 0 && memo.plain_nodes > 1_000 * parallel.stats().nodes,
            "{memo:?}"
        );
        assert_eq!(parallel.stats().solutions, want);
        let e = parallel.count().unwrap_err();
        assert_eq!((e.reason, e.solutions), (StopReason::Overflow, want.clone()));
    }
    let shards = 5;
    let total: dlx_engine::Count = (0..shards)
        .map(|k| {
            let mut parallel = ParallelSolver::new(&problem);
            parallel.set_threads(Some(2));
            parallel.set_shard(Some(Shard::new(k, shards).unwrap()));
            parallel.count_exact().unwrap()
        })
        .sum();
    assert_eq!(total, want);
    let parallel = ParallelSolver::new(&problem);
    let cut = parallel.resumable_cut().unwrap();
    let counted = parallel.count_subtrees(&cut.subtrees, &|_| false, &|_, _| {}).unwrap();
    assert_eq!(counted, want);
    assert!(parallel.memo_stats().is_some());

    // Past 2^128 (about 2^300 tilings of 200x4), on threads and in shards: exact.
    let problem = dominoes(200, 4).unwrap();
    let want = tilings(200, 4).unwrap();
    assert!(want.bits() > 256, "{want}");
    let mut parallel = ParallelSolver::new(&problem);
    parallel.set_threads(Some(2));
    parallel.set_memo(Memo::Always);
    assert_eq!(parallel.count_exact().unwrap(), want);
    let total: dlx_engine::Count = (0..3)
        .map(|k| {
            let mut parallel = ParallelSolver::new(&problem);
            parallel.set_threads(Some(2));
            parallel.set_memo(Memo::Always);
            parallel.set_shard(Some(Shard::new(k, 3).unwrap()));
            parallel.count_exact().unwrap()
        })
        .sum();
    assert_eq!(total, want);

    let problem = dominoes(6, 6).unwrap();
    for memo in [Memo::Always, Memo::Never] {
        let mut parallel = ParallelSolver::new(&problem);
        parallel.set_threads(Some(2));
        parallel.set_memo(memo);
        assert_eq!(parallel.count().unwrap(), 6728, "{memo:?}");
        assert_eq!(parallel.memo_stats().is_some(), memo == Memo::Always);
    }
}

/// Where counts run, chosen by one run's probe, passed to the next run's solver: that run does
/// not probe again, and counts the same pieces with the same figures (a cluster's tasks pass it
/// on so).
#[test]
fn a_counting_choice_passes_to_the_next_run() {
    use dlx_engine::{Counting, Memo};
    let text = std::fs::read_to_string(fixture("pentominoes6x10.dlx")).unwrap();
    let problem = Problem::parse_dlx(&text).unwrap();
    let new = || {
        let mut parallel = ParallelSolver::new(&problem);
        parallel.set_threads(Some(1));
        parallel.set_memo(Memo::Never);
        parallel
    };
    let first = new();
    assert_eq!(first.counting_chosen(), None);
    let pieces = first.resumable_cut().unwrap().subtrees;
    let some = |k: usize| !k.is_multiple_of(97);
    let count = first.count_subtrees(&pieces, &some, &|_, _| {}).unwrap();
    // The pentominoes' nodes make many updates each: bit sets.
    assert_eq!(first.counting_chosen(), Some(Counting::BitSets));
    let mut next = new();
    next.set_counting(Counting::BitSets);
    assert_eq!(next.count_subtrees(&pieces, &some, &|_, _| {}).unwrap(), count);
    assert_eq!(next.stats(), first.stats());
    // On the links, the same count and nodes, other updates.
    let mut links = new();
    links.set_counting(Counting::Links);
    assert_eq!(links.count_subtrees(&pieces, &some, &|_, _| {}).unwrap(), count);
    assert_eq!((links.stats().nodes, links.counting_chosen()), (first.stats().nodes, Some(Counting::Links)));
}
