//! Branching rules (`Solver::set_branching`): every rule finds the solutions a brute force finds,
//! with colors and multiplicities, on every thread and in shards; `sharp` makes DLX2-SHARP's tree
//! node for node; the rules that learn hear the same from a count that reads levels off as from a
//! visit that makes them.

use std::collections::BTreeSet;

use crate::common::{self, in_order, langford::langford, queens::queens};
use crate::costs::{Spec, brute_force, build, spec};
use dlx_engine::{Branching, OptionId, ParallelSolver, Problem, Shard, Solver};
use proptest::prelude::*;

/// Knuth's six queens with the rows' items named `#r1` ... `#r6` and listed after the columns'
/// (`c1` ... `c6`), so that DLX2-SHARP branches on rows where DLX2 branches on columns; the
/// diagonals secondary. Option `6(r - 1) + c - 1` puts a queen at row `r`, column `c`.
fn six_queens_sharp() -> Problem {
    std::fs::read_to_string(common::fixture("queens6-sharp.dlx")).unwrap().parse().unwrap()
}

/// With `sharp`, the tree of Knuth's DLX2-SHARP (built from `ascherer/cwebtest` with its change
/// file `dlx2-sharp.ch`, run as `dlx2-sharp m1 < fixtures/queens6-sharp.dlx`): 105 nodes with
/// the root, and its four solutions in its order, each option at its level. Without, DLX2's 111
/// nodes.
#[test]
fn sharp_makes_dlx2_sharps_tree() {
    let problem = six_queens_sharp();
    let mut solver = Solver::new(&problem);
    solver.set_branching(Branching::Sharp);
    let solutions = in_order(&mut solver);
    assert_eq!(solver.stats().nodes, 105 - 1, "DLX2-SHARP counts the root too");
    // (row, column) of each level's queen, as DLX2-SHARP prints them.
    let knuth = [
        [(1, 2), (2, 4), (3, 6), (4, 1), (5, 3), (6, 5)],
        [(1, 3), (2, 6), (3, 2), (6, 4), (5, 1), (4, 5)],
        [(1, 4), (2, 1), (3, 5), (6, 3), (4, 2), (5, 6)],
        [(1, 5), (2, 3), (3, 1), (4, 6), (5, 4), (6, 2)],
    ];
    let expected: Vec<Vec<OptionId>> = knuth
        .iter()
        .map(|levels| levels.iter().map(|&(r, c)| OptionId::new(6 * (r - 1) + c - 1).unwrap()).collect())
        .collect();
    assert_eq!(solutions, expected);
    // Counting makes the same tree.
    assert_eq!(solver.count().unwrap(), 4);
    assert_eq!(solver.stats().nodes, 104);

    let mut mrv = Solver::new(&problem);
    assert_eq!(mrv.count().unwrap(), 4);
    assert_eq!(mrv.stats().nodes, 111 - 1, "DLX2's tree");
}

/// `spec`'s problem with the primary items of `sharp` (a bit mask) renamed with a leading `#`.
fn with_sharp_items(spec: &Spec, sharp: u8) -> Problem {
    let mut text = build(spec).to_dlx();
    for k in 0..spec.primary {
        if sharp >> k & 1 == 1 {
            text = text.replace(&format!("p{k}"), &format!("#p{k}"));
        }
    }
    text.parse().unwrap()
}

/// The solutions a solver visits, each sorted by option and checked to be one of `expected`'s,
/// once.
fn visited(solver: &mut Solver<'_>) -> BTreeSet<Vec<usize>> {
    let mut seen = BTreeSet::new();
    for solution in solver.solutions() {
        let mut chosen: Vec<usize> = solution.unwrap().iter().map(|o| o.index()).collect();
        chosen.sort_unstable();
        assert!(seen.insert(chosen), "a solution visited twice");
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Under every rule, with colors and multiplicities and some items marked `#`, the solutions
    /// visited are those of a brute force, each once, and a count counts them; a count makes the
    /// nodes a visit makes (a count reads off the last levels of a colored problem, and tells the
    /// rules that learn what the levels would have told them); a seed (which shuffles each item's
    /// options) changes no count.
    #[test]
    fn every_rule_finds_every_solution(spec in spec(), sharp in any::<u8>(), seed in any::<u64>()) {
        let problem = with_sharp_items(&spec, sharp);
        let expected: BTreeSet<Vec<usize>> = brute_force(&spec).into_iter().map(|(_, chosen)| chosen).collect();
        for rule in Branching::ALL {
            let mut solver = Solver::new(&problem);
            solver.set_branching(rule);
            prop_assert_eq!(solver.branching(), rule);
            prop_assert_eq!(&visited(&mut solver), &expected, "{}", rule.name());
            let visit = solver.stats();
            prop_assert_eq!(solver.count().unwrap(), expected.len() as u64, "{}", rule.name());
            prop_assert_eq!(solver.stats().nodes, visit.nodes, "{}", rule.name());
            solver.verify_links().unwrap();
            solver.set_seed(Some(seed));
            prop_assert_eq!(solver.count().unwrap(), expected.len() as u64, "{} seeded", rule.name());
        }
    }
}

/// The rules on larger trees, where the parallel solver cuts the search into pieces (past its
/// first sequential attempt): on 2 threads and in 5 shards the count is one thread's; under
/// `sharp`, whose choice depends on the state alone, the solutions come in one thread's order
/// and the nodes add up to one thread's.
#[test]
fn every_rule_on_threads_and_shards() {
    let problems =
        [queens(9).unwrap(), langford(8).unwrap(), common::pentominoes::pentominoes(3, 20, true).unwrap()];
    for problem in &problems {
        for rule in Branching::ALL {
            let mut one = Solver::new(problem);
            one.set_branching(rule);
            let order = in_order(&mut one);
            let count = one.count().unwrap();
            let nodes = one.stats().nodes;
            let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
            pool.install(|| {
                let mut parallel = ParallelSolver::new(problem);
                parallel.set_branching(rule);
                assert_eq!(parallel.count().unwrap(), count, "{}", rule.name());
                if rule == Branching::Sharp {
                    assert_eq!(parallel.stats().nodes, nodes);
                    let mut solutions = Vec::new();
                    parallel
                        .for_each(|s| {
                            solutions.push(s.to_vec());
                            std::ops::ControlFlow::Continue(())
                        })
                        .unwrap();
                    assert_eq!(solutions, order);
                }
                let mut total = 0;
                for k in 0..5 {
                    parallel.set_shard(Some(Shard::new(k, 5).unwrap()));
                    total += parallel.count().unwrap();
                }
                assert_eq!(total, count, "{} in shards", rule.name());
            });
        }
    }
}
