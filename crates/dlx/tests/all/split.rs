//! Cutting a search into subtrees: the subtrees' solutions, in order, are the whole search's, and
//! the figures of the walk and of the subtrees' runs add up to those of one run; for plain
//! problems, colors and multiplicities, with forced options, at every depth.

use std::ops::ControlFlow;

use crate::common::{fixture, in_order, langford::langford, queens::queens};
use dlx_engine::{Budget, Counting, Memo, OptionId, Problem, Solver, Stats};

/// Cuts `problem`'s search (after forcing `forced`) at depths 0 to 5 and checks the subtrees
/// against one whole run: the same solutions in the same order, visited and counted, by another
/// solver; the same figures in sum.
fn check(problem: &Problem, forced: &[OptionId]) {
    check_to(problem, forced, 5);
}

/// [`check`] down to depth `deepest`.
fn check_to(problem: &Problem, forced: &[OptionId], deepest: usize) {
    let mut whole = Solver::new(problem);
    for &option in forced {
        whole.force(option).unwrap();
    }
    let expected = in_order(&mut whole);
    let expected_stats = whole.stats();
    let mut cutter = Solver::new(problem);
    let mut worker = Solver::new(problem);
    // The figures of plain search (the memo, where it pays, makes its own: see `known.rs`).
    worker.set_memo(Memo::Never);
    for s in [&mut cutter, &mut worker] {
        for &option in forced {
            s.force(option).unwrap();
        }
    }
    for depth in 0..=deepest {
        let split = cutter.split(depth).unwrap();
        let mut sum = split.stats.clone();
        let mut seen = Vec::new();
        for subtree in &split.subtrees {
            assert!(subtree.depth() <= depth);
            let path = worker.subtree_options(subtree);
            let before = seen.len();
            worker
                .visit_subtree(subtree, &mut |s: &dlx_engine::Solution<'_>| {
                    seen.push(s.to_vec());
                    ControlFlow::Continue(())
                })
                .unwrap();
            let stats = worker.stats();
            assert_eq!(worker.count_subtree(subtree).unwrap(), (seen.len() - before) as u64);
            // Counting and visiting a subtree do the same work, but that a count takes the last
            // primary item's options at once in a problem with colors, covering nothing.
            let counted = worker.stats();
            if problem.has_colors() && !problem.has_multiplicities() {
                let same = |s: &Stats| (s.nodes, s.guesses, s.solutions.clone());
                assert_eq!(same(&counted), same(&stats), "counting and visiting a subtree");
                assert!(counted.updates <= stats.updates && counted.cleansings <= stats.cleansings);
            } else {
                assert_eq!(counted, stats, "counting and visiting a subtree do the same work");
            }
            for solution in &seen[before..] {
                assert!(
                    path.iter().all(|o| solution.contains(o)),
                    "a solution of the subtree lacks its path"
                );
            }
            sum.add(&stats);
            worker.verify_links().unwrap();
        }
        assert_eq!(seen, expected, "depth {depth}: the subtrees' solutions, in order");
        // Cutting each subtree one level further is cutting the whole one level deeper.
        let deeper = cutter.split(depth + 1).unwrap();
        let mut pieces = Vec::new();
        let mut walked = split.stats.clone();
        for subtree in &split.subtrees {
            if subtree.depth() < depth {
                pieces.push(subtree.clone());
            } else {
                let below = worker.split_subtree(subtree, 1).unwrap();
                walked.add(&below.stats);
                pieces.extend(below.subtrees);
            }
        }
        assert_eq!(pieces, deeper.subtrees, "depth {depth}: cut further, subtree by subtree");
        for (a, b) in pieces.iter().zip(&deeper.subtrees) {
            assert!((a.weight() - b.weight()).abs() < 1e-12, "depth {depth}: the same weights");
        }
        let total: f64 = deeper.subtrees.iter().map(|t| t.weight()).sum();
        assert!(total <= 1.0 + 1e-9, "depth {depth}: weights {total}");
        assert_eq!(walked, deeper.stats, "depth {depth}: the walks add up");
        assert_eq!(sum, expected_stats, "depth {depth}: the figures add up");
        cutter.verify_links().unwrap();
    }
    assert_eq!(cutter.count().unwrap(), expected.len() as u64);
}

#[test]
fn plain_problems() {
    check(&queens(6).unwrap(), &[]);
    check(&queens(8).unwrap(), &[]);
    check(&queens(8).unwrap(), &[OptionId::new(3).unwrap()]);
    check(&langford(7).unwrap(), &[]);
    let knuth: Problem = "A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n".parse().unwrap();
    check(&knuth, &[]);
    // No solution at all, and the empty problem's one.
    check(&"A B\nA\n".parse().unwrap(), &[]);
}

#[test]
fn colors_and_multiplicities() {
    for name in ["knuth-colors.dlx", "knuth-multiplicities.dlx"] {
        let problem = Problem::parse_dlx(&std::fs::read_to_string(fixture(name)).unwrap()).unwrap();
        check(&problem, &[]);
    }
    // Word-square-like colors: two rows, two columns, four cells.
    let squares = "r0 r1 c0 c1 | x00 x01 x10 x11\n\
        r0 x00:a x01:b\nr0 x00:b x01:a\nr0 x00:a x01:a\nr1 x10:b x11:a\nr1 x10:a x11:b\nr1 x10:a x11:a\n\
        c0 x00:a x10:b\nc0 x00:b x10:a\nc0 x00:a x10:a\nc1 x01:b x11:a\nc1 x01:a x11:b\nc1 x01:a x11:a\n";
    check(&squares.parse().unwrap(), &[]);
    // Line sums: exactly 2, and between 1 and 2, with a forced cell.
    for bounds in ["2", "1:2"] {
        let n = 4;
        let mut text: String = (0..n).map(|i| format!("{bounds}|r{i} ")).collect();
        text += &(0..n).map(|j| format!("{bounds}|c{j}")).collect::<Vec<_>>().join(" ");
        text.push('\n');
        for i in 0..n {
            for j in 0..n {
                text += &format!("r{i} c{j}\n");
            }
        }
        let problem: Problem = text.parse().unwrap();
        check(&problem, &[]);
        check(&problem, &[OptionId::new(5).unwrap()]);
    }
}

/// The stats of a split and its subtrees are those of one run even when the walk stops at
/// solutions above the cut (here every solution is at depth 1).
#[test]
fn shallow_solutions_are_subtrees_of_one_leaf() {
    let problem: Problem = "A\nA\nA\nA\n".parse().unwrap();
    let mut solver = Solver::new(&problem);
    let split = solver.split(3).unwrap();
    assert_eq!(split.subtrees.len(), 3);
    assert!(split.subtrees.iter().all(|t| t.depth() == 1));
    assert_eq!(
        split.stats,
        Stats { nodes: 3, guesses: 3, updates: 1, solutions: 0u64.into(), cleansings: 0 }
    );
    assert_eq!(split.subtrees.iter().map(|t| solver.count_subtree(t).unwrap()).sum::<u64>(), 3);
    assert!(split.subtrees.iter().all(|t| (t.weight() - 1.0 / 3.0).abs() < 1e-12), "Knuth's measure");
}

/// With colors, a count takes the last primary item's options at once, and reads off the last
/// two items' levels without covering anything: the count, the nodes and the guesses of a visit,
/// with fewer updates (the 4x4 word squares: 668,862 against 756,354); and the walks that cut
/// subtrees stop above such levels, so that a cut count's figures are one count's.
#[test]
fn a_count_takes_the_last_items_options_at_once() {
    let text = std::fs::read_to_string(fixture("word-squares4.dlx")).unwrap();
    let problem = Problem::parse_dlx(&text).unwrap();
    let mut solver = Solver::new(&problem);
    let visited = in_order(&mut solver).len() as u64;
    let visit = solver.stats();
    let count = solver.count().unwrap();
    let counted = solver.stats();
    assert_eq!((count, counted.nodes, counted.guesses), (visited, visit.nodes, visit.guesses));
    assert_eq!((visit.updates, counted.updates), (756_354, 668_862));
    // A limit the count does not reach changes nothing; one it reaches, or a budget of nodes,
    // stops the links and the bit sets at the same place (the last levels are read off only as
    // far as the search would go on below them).
    for counting in [Counting::Links, Counting::BitSets] {
        solver.set_counting(counting);
        assert_eq!((solver.count_up_to(count + 1).unwrap(), solver.stats()), (count, counted.clone()));
    }
    for limit in [1, 2, 3, 100, 1_000, 10_000] {
        let each: Vec<_> = [Counting::Links, Counting::BitSets]
            .map(|counting| {
                solver.set_counting(counting);
                (solver.count_up_to(limit).unwrap(), solver.stats())
            })
            .into();
        assert_eq!(each[0].0, limit);
        assert_eq!(each[0], each[1], "limit {limit}");
    }
    for nodes in [10, 1_000, 10_000, 30_000] {
        let each: Vec<_> = [Counting::Links, Counting::BitSets]
            .map(|counting| {
                solver.set_counting(counting);
                solver.set_budget(Budget { nodes: Some(nodes), updates: None });
                let stopped = solver.count().unwrap_err();
                (stopped.solutions, solver.stats())
            })
            .into();
        assert!(each[0].1.nodes >= nodes, "{each:?}");
        assert_eq!(each[0], each[1], "{nodes} nodes");
    }
    solver.set_budget(Budget::default());
    solver.set_counting(Counting::Auto);
    for depth in [2, 4, 8] {
        let split = solver.split(depth).unwrap();
        let mut sum = split.stats.clone();
        let mut n = 0;
        for subtree in &split.subtrees {
            n += solver.count_subtree(subtree).unwrap();
            sum.add(&solver.stats());
        }
        assert_eq!((n, sum), (count, counted.clone()), "cut at depth {depth}");
        if depth == 8 {
            // Eight primary items: the walk stops where two are left, at level 6, above the cap.
            let last: Vec<_> = split.subtrees.iter().filter(|t| t.is_final() && !t.is_leaf()).collect();
            assert!(!last.is_empty() && last.iter().all(|t| t.depth() == 6));
        }
    }
}
