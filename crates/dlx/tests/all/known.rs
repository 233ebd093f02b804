//! Known answers: Knuth's example, N-queens, Langford pairs, pentominoes; and the API around them.

use crate::common;
use std::ops::ControlFlow;

use crate::common::dominoes::{dominoes, tilings};
use crate::common::{assert_exact_cover, langford::langford, pentominoes::pentominoes, queens::queens};
use dlx_engine::{
    Budget, CancelFlag, Count, Finished, ForceError, Memo, OptionId, Problem, ProblemBuilder, Solver,
    StopReason,
};

const KNUTH: &str = "| Knuth's example from dlx1\nA B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";

fn names(problem: &Problem, option: OptionId) -> String {
    problem.display_option(option).to_string()
}

#[test]
fn knuth_example_has_its_one_solution() {
    let problem: Problem = KNUTH.parse().unwrap();
    let mut solver = Solver::new(&problem);
    assert_eq!(solver.count().unwrap(), 1);
    let solution = solver.first().unwrap().unwrap();
    let mut lines: Vec<String> = solution.iter().map(|&o| names(&problem, o)).collect();
    lines.sort();
    assert_eq!(lines, ["A D", "B G", "C E F"]);
    solver.verify_links().unwrap();
}

/// Domino tilings: the search's counts equal the transfer matrix's on every board up to 6x6 and
/// on a few longer ones; the transfer matrix gives the published counts of the square boards
/// (OEIS A004003), past 2^64 from 14x14 on, which a count of the memo must reach exactly.
#[test]
fn domino_tilings_agree_with_the_transfer_matrix() {
    for (rows, cols) in
        (1..=6).flat_map(|r| (1..=6).map(move |c| (r, c))).chain([(2, 20), (3, 12), (4, 9), (7, 6)])
    {
        let problem = dominoes(rows, cols).unwrap();
        assert_eq!(problem.option_count(), rows * (cols - 1) + (rows - 1) * cols);
        let mut solver = Solver::new(&problem);
        let count = solver.count().unwrap();
        assert_eq!(tilings(rows, cols).unwrap(), u128::from(count), "{rows}x{cols}");
        assert_eq!(tilings(cols, rows), tilings(rows, cols), "{rows}x{cols} turned");
        if count > 0 && count < 300 {
            for solution in solver.solutions().map(Result::unwrap) {
                assert_exact_cover(&problem, &solution);
            }
        }
    }
    let squares: [(usize, &str); 9] = [
        (2, "2"),
        (4, "36"),
        (6, "6728"),
        (8, "12988816"),
        (10, "258584046368"),
        (12, "53060477521960000"),
        (14, "112202208776036178000000"),
        (16, "2444888770250892795802079170816"),
        (18, "548943583215388338077567813208427340288"),
    ];
    for (side, want) in squares {
        assert_eq!(tilings(side, side), Some(want.parse().unwrap()), "{side}x{side}");
    }
    assert_eq!(tilings(3, 3), Some(Count::ZERO), "an odd number of squares");
    assert_eq!(tilings(3, 21), None, "too wide for the transfer matrix");
}

/// Domino tilings counted with the memo: exactly the transfer matrix's counts on every board up to
/// 8x8 and on the squares to 16x16, past 2^64 from 14x14 on (where `count` says it cannot hold the
/// count, and `count_exact` gives it), and on long boards past 2^128 and 2^256. [`Memo::Auto`]
/// takes the memo for them, and leaves it for problems whose subproblems seldom meet again.
#[test]
fn domino_tilings_by_the_memo_are_exact() {
    let boards = (1..=8).flat_map(|r| (1..=8).map(move |c| (r, c)));
    for (rows, cols) in boards.chain([10, 12, 14, 16].map(|n| (n, n))) {
        let problem = dominoes(rows, cols).unwrap();
        let mut solver = Solver::new(&problem);
        solver.set_memo(Memo::Always);
        assert_eq!(Some(solver.count_exact().unwrap()), tilings(rows, cols), "{rows}x{cols}");
        let stats = solver.memo_stats().expect("the memo was taken");
        assert!(stats.entries > 0 || rows * cols < 4, "{rows}x{cols}: {stats:?}");
        // The ZDD of the tilings: as many, all of rows * cols / 2 dominoes; the diagram about
        // as large as the memo.
        let zdd = solver.zdd().unwrap();
        let size = rows * cols / 2;
        let mut by_size = vec![Count::ZERO; size + 1];
        by_size[size] = tilings(rows, cols).unwrap();
        assert_eq!(zdd.counts_by_size(), if by_size[size] == 0 { vec![] } else { by_size }, "{rows}x{cols}");
        assert!(zdd.nodes().len() as u64 <= 2 * stats.entries.max(1) + 1, "{rows}x{cols}");
        if let Some(tiling) = zdd.smallest() {
            assert_exact_cover(&problem, &tiling);
        }
        if rows == 14 {
            let e = solver.count().unwrap_err();
            assert_eq!((e.reason, Some(e.solutions)), (StopReason::Overflow, tilings(14, 14)));
            assert_eq!(Some(solver.stats().solutions), tilings(14, 14), "the figure holds it");
        }
    }
    // Past 2^128 and 2^256: boards of 4 and 6 columns, counted exactly, with their ZDDs, and the
    // table kept from one count to the next (its counts past 2^128 too).
    for (rows, cols) in [(100, 4), (200, 4), (90, 6)] {
        let problem = dominoes(rows, cols).unwrap();
        let want = tilings(rows, cols).unwrap();
        let mut solver = Solver::new(&problem);
        solver.set_memo(Memo::Always);
        assert_eq!(solver.count_exact().unwrap(), want, "{rows}x{cols}");
        assert_eq!(solver.stats().solutions, want, "{rows}x{cols}");
        assert_eq!(solver.count_exact().unwrap(), want, "{rows}x{cols} again, from the table");
        assert_eq!(solver.zdd().unwrap().count(), want, "{rows}x{cols}: the ZDD");
        assert_eq!(Solver::new(&problem).count_exact().unwrap(), want, "{rows}x{cols}: auto");
    }
    assert!(tilings(200, 4).unwrap().bits() > 256);
    let problem = dominoes(12, 12).unwrap();
    let mut solver = Solver::new(&problem);
    assert_eq!(Some(Count::from(solver.count().unwrap())), tilings(12, 12));
    let stats = solver.memo_stats().expect("auto takes the memo for tilings");
    assert!(stats.hits > 0 && stats.plain_nodes > 1_000_000 * solver.stats().nodes, "{stats:?}");
    let problem = langford(11).unwrap();
    let mut solver = Solver::new(&problem);
    assert_eq!(solver.count().unwrap(), 35_584);
    assert_eq!(solver.memo_stats(), None, "auto leaves the memo for Langford pairs");
    solver.set_memo(Memo::Always);
    assert_eq!(solver.count().unwrap(), 35_584);
    assert!(solver.memo_stats().is_some_and(|s| s.hits > 0));
}

#[test]
fn queens_counts() {
    let expected = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680];
    for (n, &want) in (1..).zip(&expected) {
        let problem = queens(n).unwrap();
        assert_eq!(problem.primary_count(), 2 * n);
        let mut solver = Solver::new(&problem);
        assert_eq!(solver.count().unwrap(), want, "{n}-queens");
        assert_eq!(solver.stats().solutions, u128::from(want));
        solver.verify_links().unwrap();
        if n <= 8 {
            let mut seen = 0;
            for solution in solver.solutions().map(Result::unwrap) {
                assert_exact_cover(&problem, &solution);
                seen += 1;
            }
            assert_eq!(seen, want);
        }
        solver.verify_links().unwrap();
    }
}

#[test]
fn reset_by_undoing_and_by_copying_back() {
    // 8-queens has about 370 nodes. One excluded option (4 nodes) is cheaper to undo than to copy
    // the links back; a run paused at its first solution, or two forced queens, cost more.
    let problem = queens(8).unwrap();
    let mut solver = Solver::new(&problem);
    let option = OptionId::new(0).unwrap();
    for pause in [false, true] {
        assert_eq!(solver.exclude(option), Ok(true));
        if pause {
            assert!(solver.first().unwrap().is_some());
        }
        solver.reset();
        solver.verify_links().unwrap();
        assert_eq!(solver.count().unwrap(), 92);
    }
    solver.force(OptionId::new(0).unwrap()).unwrap();
    solver.force(OptionId::new(10).unwrap()).unwrap();
    solver.reset();
    solver.verify_links().unwrap();
    assert_eq!(solver.count().unwrap(), 92);
}

#[test]
fn undo_to_by_undoing_and_by_copying_back() {
    // 8-queens: forcing a queen in a corner leaves 4 solutions. Taking back an exclusion above it
    // is cheap to undo; taking back three more queens costs more than copying the links back and
    // forcing the first queen again.
    let problem = queens(8).unwrap();
    let mut solver = Solver::new(&problem);
    let corner = OptionId::new(0).unwrap();
    solver.force(corner).unwrap();
    let kept = solver.count().unwrap();
    assert_eq!(kept, 4);
    let queens: Vec<OptionId> = solver.first().unwrap().unwrap();
    assert!(solver.exclude(queens[3]).unwrap());
    solver.undo_to(1);
    assert_eq!((solver.restriction_count(), solver.count().unwrap()), (1, kept));
    for &queen in queens.iter().filter(|&&q| q != corner).take(3) {
        solver.force(queen).unwrap();
    }
    let _ = solver.first().unwrap();
    solver.undo_to(1);
    solver.verify_links().unwrap();
    assert_eq!(solver.forced().collect::<Vec<_>>(), [corner]);
    assert_eq!(solver.count().unwrap(), kept);
    // Nothing to take back: nothing changes.
    solver.undo_to(5);
    assert_eq!(solver.restriction_count(), 1);
}

#[test]
fn langford_counts() {
    // Each pairing counted with its reversal.
    for (n, want) in [(1, 0), (2, 0), (3, 2), (4, 2), (5, 0), (6, 0), (7, 52), (8, 300)] {
        let problem = langford(n).unwrap();
        let mut solver = Solver::new(&problem);
        assert_eq!(solver.count().unwrap(), want, "Langford n = {n}");
        solver.verify_links().unwrap();
    }
}

#[test]
fn pentomino_strip() {
    // The 3x20 strip has two packings up to its four symmetries; the X restriction keeps the
    // X centre in the left half (the middle row is its own mirror image), halving the count.
    let mut solver_problem = pentominoes(3, 20, false).unwrap();
    let mut solver = Solver::new(&solver_problem);
    assert_eq!(solver.count().unwrap(), 8);
    for solution in solver.solutions().map(Result::unwrap) {
        assert_exact_cover(&solver_problem, &solution);
    }
    solver_problem = pentominoes(3, 20, true).unwrap();
    let mut solver = Solver::new(&solver_problem);
    assert_eq!(solver.count().unwrap(), 4);
}

#[test]
fn count_up_to_and_first() {
    let problem = queens(8).unwrap();
    let mut solver = Solver::new(&problem);
    for limit in [0, 1, 2, 91, 92, 93, 1000] {
        assert_eq!(solver.count_up_to(limit).unwrap(), limit.min(92));
        solver.verify_links().unwrap();
    }
    let first = solver.first().unwrap().unwrap();
    assert_exact_cover(&problem, &first);
    assert_eq!(solver.first().unwrap().unwrap(), first, "a second run finds the same first solution");
    assert_eq!(
        solver.solutions().map(Result::unwrap).next().unwrap(),
        first,
        "the iterator starts with it too"
    );
    solver.verify_links().unwrap();
    let none = queens(3).unwrap();
    assert_eq!(Solver::new(&none).first().unwrap(), None);
}

#[test]
fn visitor_can_stop() {
    let problem = queens(6).unwrap();
    let mut solver = Solver::new(&problem);
    let mut seen = Vec::new();
    let end = solver
        .for_each(|s| {
            seen.push(s.to_vec());
            if seen.len() == 3 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        })
        .unwrap();
    assert_eq!((end, seen.len()), (Finished::Stopped, 3));
    solver.verify_links().unwrap();
    let end = solver.for_each(|_| ControlFlow::Continue(())).unwrap();
    assert_eq!(end, Finished::Exhausted);
    assert_eq!(solver.stats().solutions, 4);
}

/// An iterator cut short by a budget ends with an error item: collecting fails, as counting does.
#[test]
fn an_interrupted_iterator_never_looks_complete() {
    let problem = queens(8).unwrap();
    let mut solver = Solver::new(&problem);
    solver.set_budget(Budget { nodes: Some(100), updates: None });
    let items: Vec<_> = solver.solutions().collect();
    let (last, found) = items.split_last().unwrap();
    assert!(found.iter().all(Result::is_ok) && found.len() < 92, "{} solutions before the end", found.len());
    let last = last.as_ref().unwrap_err();
    assert_eq!((last.reason, last.solutions.clone()), (StopReason::Budget, Count::from(found.len())));
    assert!(solver.solutions().collect::<Result<Vec<_>, _>>().is_err());
    assert!(solver.count().is_err());
    solver.verify_links().unwrap();
    solver.set_budget(Budget::default());
    assert_eq!(solver.solutions().collect::<Result<Vec<_>, _>>().unwrap().len(), 92);
}

#[test]
fn budgets_and_cancellation_cut_the_search_short() {
    let problem = queens(10).unwrap();
    let mut solver = Solver::new(&problem);
    let full = solver.count().unwrap();
    let full_stats = solver.stats();

    solver.set_budget(Budget { nodes: Some(1000), updates: None });
    let err = solver.count().unwrap_err();
    assert_eq!(err.reason, StopReason::Budget);
    assert!(err.solutions < u128::from(full));
    assert_eq!(solver.stats().nodes, 1000);
    solver.verify_links().unwrap();

    solver.set_budget(Budget { nodes: None, updates: Some(100) });
    assert_eq!(solver.first().unwrap_err().reason, StopReason::Budget);
    assert!(solver.stats().updates >= 100 && solver.stats().updates < full_stats.updates);
    solver.verify_links().unwrap();

    // A budget large enough changes nothing.
    solver.set_budget(Budget { nodes: Some(full_stats.nodes + 1), updates: None });
    assert_eq!(solver.count().unwrap(), full);

    solver.set_budget(Budget::default());
    let flag = CancelFlag::new();
    solver.set_cancel_flag(Some(flag.clone()));
    flag.cancel();
    let err = solver.count().unwrap_err();
    assert_eq!(err.reason, StopReason::Cancelled);
    let mut iter = solver.solutions();
    assert_eq!(iter.next().map(|r| r.map_err(|e| e.reason)), Some(Err(StopReason::Cancelled)));
    assert!(iter.next().is_none());
    assert_eq!(iter.interrupted().map(|e| e.reason), Some(StopReason::Cancelled));
    drop(iter);
    solver.verify_links().unwrap();
    flag.clear();
    assert_eq!(solver.count().unwrap(), full);
}

#[test]
fn cancellation_from_another_thread() {
    let problem = pentominoes(6, 10, false).unwrap();
    let flag = CancelFlag::new();
    let result = std::thread::scope(|s| {
        let handle = s.spawn(|| {
            let mut solver = Solver::new(&problem);
            solver.set_cancel_flag(Some(flag.clone()));
            let result = solver.count();
            solver.verify_links().unwrap();
            result
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        flag.cancel();
        handle.join().unwrap()
    });
    assert_eq!(result.unwrap_err().reason, StopReason::Cancelled);
}

#[test]
fn forced_options() {
    let problem: Problem = KNUTH.parse().unwrap();
    let option = |text: &str| problem.options().find(|&o| names(&problem, o) == text).unwrap();
    let mut solver = Solver::new(&problem);
    solver.force(option("A D")).unwrap();
    assert_eq!(solver.count().unwrap(), 1);
    let solution = solver.first().unwrap().unwrap();
    assert_eq!(solution[0], option("A D"), "forced options come first");
    let err = solver.force(option("D E G")).unwrap_err();
    assert_eq!(
        err,
        ForceError::Conflict {
            option: option("D E G"),
            forced: option("A D"),
            item: problem.item("D").unwrap(),
            item_name: "D".into()
        }
    );
    assert_eq!(err.to_string(), "option 5 conflicts with forced option 3 on item `D`");
    solver.verify_links().unwrap();
    solver.reset();
    solver.force(option("D E G")).unwrap();
    assert_eq!(solver.count().unwrap(), 0);
    assert_eq!(solver.unforce(), Some(option("D E G")));
    assert_eq!(solver.unforce(), None);
    solver.verify_links().unwrap();
    assert_eq!(solver.count().unwrap(), 1);
    assert!(matches!(solver.force(OptionId::from_u32(99)), Err(ForceError::UnknownOption(_))));
}

/// Issue 49: an option forced and excluded at once is a contradiction, refused whichever comes
/// first; one forced twice is said to be given twice. Nothing changes on a refusal.
#[test]
fn forced_and_excluded_at_once_is_refused() {
    let problem: Problem = "a\na\na\n".parse().unwrap();
    let (zero, one) = (OptionId::from_u32(0), OptionId::from_u32(1));
    let mut solver = Solver::new(&problem);
    solver.force(zero).unwrap();
    let err = solver.exclude(zero).unwrap_err();
    assert_eq!(err, ForceError::Forced(zero));
    assert_eq!(err.to_string(), "option 0 is forced, so it cannot be excluded");
    assert_eq!(solver.force(zero).unwrap_err().to_string(), "option 0 is forced already (given twice)");
    // Another option on the forced one's item is simply unavailable, as before.
    assert_eq!(solver.exclude(one), Ok(false));
    assert_eq!(solver.restriction_count(), 1);
    assert_eq!(solver.first().unwrap().unwrap(), vec![zero]);
    assert_eq!(solver.count().unwrap(), 1);
    solver.verify_links().unwrap();
    solver.reset();
    solver.exclude(zero).unwrap();
    assert_eq!(solver.force(zero), Err(ForceError::Excluded(zero)));
    assert_eq!(solver.first().unwrap().unwrap(), vec![one]);
}

#[test]
fn seeds_shuffle_but_never_change_the_answer() {
    let problem = queens(8).unwrap();
    let mut solver = Solver::new(&problem);
    let plain = common::all_solutions(&mut solver);
    assert_eq!(plain.len(), 92);
    let mut firsts = std::collections::BTreeSet::new();
    for seed in 0..20 {
        solver.set_seed(Some(seed));
        let order: Vec<_> = solver.solutions().map(Result::unwrap).collect();
        let again: Vec<_> = solver.solutions().map(Result::unwrap).collect();
        assert_eq!(order, again, "seed {seed} is reproducible");
        firsts.insert(order[0].clone());
        assert_eq!(common::all_solutions(&mut solver), plain, "seed {seed}");
        solver.verify_links().unwrap();
    }
    assert!(firsts.len() > 5, "different seeds lead to different first solutions");
}

#[test]
fn empty_problem_has_one_empty_solution() {
    let problem = ProblemBuilder::new().build();
    let mut solver = Solver::new(&problem);
    assert_eq!(solver.count().unwrap(), 1);
    assert_eq!(solver.first().unwrap(), Some(vec![]));
}

#[test]
fn one_problem_many_threads() {
    let problem = queens(9).unwrap();
    let counts: Vec<u64> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4).map(|_| s.spawn(|| Solver::new(&problem).count().unwrap())).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(counts, [352; 4]);
}

/// Solutions drawn at random: each an exact cover, the same for the same seed (and whether the
/// counts behind them come from the memo or not), and uniform: over the domino tilings of a 4x4
/// board and the solutions of 8 queens (secondary items), drawn 300 times per solution, the
/// chi-square statistic stays below its critical value at 0.1% for as many degrees of freedom
/// as there are solutions less one. A forced option is in every draw; a problem without
/// solutions gives none; one with multiplicities is refused; draws from 14x14 tilings (past 2^64)
/// are covers too.
#[test]
fn samples_are_uniform_and_exact() {
    // The critical values at 0.1% for 35 and 91 degrees of freedom (36 tilings, 92 solutions),
    // from the chi-square distribution's tables.
    for (problem, critical) in [(dominoes(4, 4).unwrap(), 66.6), (queens(8).unwrap(), 135.8)] {
        let mut solver = Solver::new(&problem);
        let every = common::all(&mut solver);
        let per = 300;
        let drawn = solver.sample(every.len() * per, 11).unwrap();
        let mut tally = std::collections::BTreeMap::new();
        for s in &drawn {
            assert_exact_cover(&problem, s);
            *tally.entry(common::sorted(s.clone())).or_insert(0usize) += 1;
        }
        assert!(tally.keys().all(|s| every.contains(s)));
        let expected = per as f64;
        let chi2: f64 = every
            .iter()
            .map(|s| tally.get(s).copied().unwrap_or(0) as f64 - expected)
            .map(|d| d * d / expected)
            .sum();
        assert!(chi2 < critical, "chi-square {chi2} over {} solutions", every.len());
        let again = solver.sample(200, 5).unwrap();
        assert_eq!(again, solver.sample(200, 5).unwrap(), "reproducible by seed");
        assert_ne!(again, solver.sample(200, 6).unwrap());
        solver.set_memo(Memo::Never);
        assert_eq!(again, solver.sample(200, 5).unwrap(), "the memo changes no draw");
        let forced = again[0][0];
        solver.force(forced).unwrap();
        assert!(solver.sample(50, 1).unwrap().iter().all(|s| s.contains(&forced)));
        assert_eq!(solver.forced().collect::<Vec<_>>(), [forced], "the caller's restrictions stay");
    }
    let none: Problem = "A B\nA\n".parse().unwrap();
    assert_eq!(Solver::new(&none).sample(5, 0).unwrap(), Vec::<Vec<OptionId>>::new());
    let bounded: Problem = "2:3|A B\nA\nA B\n".parse().unwrap();
    assert_eq!(Solver::new(&bounded).sample(5, 0), Err(dlx_engine::SampleError::Multiplicities));
    // A diagram larger than the memo's budget stops the count rather than grow.
    let problem = dominoes(8, 8).unwrap();
    let mut solver = Solver::new(&problem);
    solver.set_memo_memory(1 << 10);
    match solver.zdd() {
        Err(dlx_engine::ZddError::Interrupted(e)) => assert_eq!(e.reason, StopReason::Memory),
        other => panic!("{other:?}"),
    }
    let problem = dominoes(14, 14).unwrap();
    for s in Solver::new(&problem).sample(3, 2).unwrap() {
        assert_exact_cover(&problem, &s);
    }
}
