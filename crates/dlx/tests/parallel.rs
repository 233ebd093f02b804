//! The parallel search against the sequential one: the same counts and figures, the same
//! solutions in the same order, for plain problems, colors and multiplicities, on pools of 1 to 16
//! threads; budgets, cancellation and limits.

mod common;

use std::ops::ControlFlow;

use common::{fixture, langford::langford, queens::queens};
use dlx_engine::{Budget, CancelFlag, Finished, OptionId, ParallelSolver, Problem, Solver, StopReason};

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
}

fn sequential(problem: &Problem) -> (Vec<Vec<OptionId>>, dlx_engine::Stats) {
    let mut solver = Solver::new(problem);
    let mut all = Vec::new();
    solver
        .for_each(|s| {
            all.push(s.to_vec());
            ControlFlow::Continue(())
        })
        .unwrap();
    (all, solver.stats())
}

fn check(problem: &Problem) {
    let (expected, stats) = sequential(problem);
    for threads in [1, 2, 3, 16] {
        pool(threads).install(|| {
            let parallel = ParallelSolver::new(problem);
            let (count, counted) = parallel.count().unwrap();
            assert_eq!(count, expected.len() as u64, "{threads} threads");
            let mut seen = Vec::new();
            let (finished, visited) = parallel
                .for_each(|s| {
                    seen.push(s.to_vec());
                    ControlFlow::Continue(())
                })
                .unwrap();
            assert_eq!(finished, Finished::Exhausted);
            assert_eq!(seen, expected, "{threads} threads: the solutions in the sequential order");
            // The figures are those of one search when the first attempt did not finish it.
            if stats.nodes > 4_096 {
                assert_eq!(counted, stats, "{threads} threads: counting");
                assert_eq!(visited, stats, "{threads} threads: visiting");
            } else {
                assert_eq!((counted.solutions, visited.solutions), (stats.solutions, stats.solutions));
            }
        });
    }
}

#[test]
fn plain_problems() {
    check(&queens(10).unwrap());
    check(&langford(8).unwrap());
    check(&queens(4).unwrap());
    check(&"A B\nA\n".parse().unwrap());
}

#[test]
fn colors_and_multiplicities() {
    for name in ["knuth-colors.dlx", "knuth-multiplicities.dlx"] {
        check(&Problem::parse_dlx(&std::fs::read_to_string(fixture(name)).unwrap()).unwrap());
    }
    let n = 5;
    let mut text: String = (0..n).map(|i| format!("2|r{i} ")).collect();
    text += &(0..n).map(|j| format!("1:2|c{j}")).collect::<Vec<_>>().join(" ");
    text.push('\n');
    for i in 0..n {
        for j in 0..n {
            text += &format!("r{i} c{j}\n");
        }
    }
    check(&text.parse().unwrap());
}

#[test]
fn limits_budgets_and_cancelling() {
    let problem = queens(9).unwrap();
    pool(2).install(|| {
        let parallel = ParallelSolver::new(&problem);
        assert_eq!(parallel.count_up_to(5).unwrap().0, 5);
        assert_eq!(parallel.count_up_to(1_000).unwrap().0, 352);
        let mut shown = 0;
        let (finished, _) = parallel
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
