//! Helpers shared by the engine's integration tests.
#![allow(dead_code, unreachable_pub)]

use dlx_engine::{OptionId, Problem, Solver};

#[path = "../../examples/queens.rs"]
pub mod queens;

#[path = "../../examples/langford.rs"]
pub mod langford;

#[path = "../../examples/pentominoes.rs"]
pub mod pentominoes;

#[path = "../../examples/dominoes.rs"]
pub mod dominoes;

/// Asserts that `solution` is an exact cover: every primary item exactly once, every secondary at
/// most once.
pub fn assert_exact_cover(problem: &Problem, solution: &[OptionId]) {
    let mut seen = vec![0u32; problem.item_count()];
    for &option in solution {
        for item in problem.option_items(option) {
            seen[item.index()] += 1;
        }
    }
    for item in problem.items() {
        let n = seen[item.index()];
        if problem.is_primary(item) {
            assert_eq!(n, 1, "primary item {} covered {n} times", problem.item_name(item));
        } else {
            assert!(n <= 1, "secondary item {} covered {n} times", problem.item_name(item));
        }
    }
}

/// Every solution, each sorted, the whole list sorted; each checked to be an exact cover.
pub fn all_solutions(solver: &mut Solver<'_>) -> Vec<Vec<OptionId>> {
    let problem = solver.problem();
    let mut all: Vec<Vec<OptionId>> = solver
        .solutions()
        .map(Result::unwrap)
        .map(|mut s| {
            assert_exact_cover(problem, &s);
            s.sort();
            s
        })
        .collect();
    all.sort();
    all
}

/// The path of a file in the project's `fixtures` folder.
pub fn fixture(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures").join(name)
}

/// Every set of options that `is_solution` accepts among `m` options, by trying all `2^m`.
pub fn subsets(
    m: usize,
    is_solution: impl Fn(&[usize]) -> bool,
) -> std::collections::BTreeSet<Vec<OptionId>> {
    (0u32..1 << m)
        .map(|mask| (0..m).filter(|k| mask & (1 << k) != 0).collect::<Vec<_>>())
        .filter(|chosen| is_solution(chosen))
        .map(|chosen| chosen.into_iter().map(|k| OptionId::new(k).unwrap()).collect())
        .collect()
}

/// A solution with its options in increasing order.
pub fn sorted(mut solution: Vec<OptionId>) -> Vec<OptionId> {
    solution.sort();
    solution
}

/// Every solution the solver's iterator gives, each sorted and checked to be found once.
pub fn all(solver: &mut Solver<'_>) -> std::collections::BTreeSet<Vec<OptionId>> {
    let list: Vec<Vec<OptionId>> = solver.solutions().map(|s| sorted(s.unwrap())).collect();
    let set: std::collections::BTreeSet<_> = list.iter().cloned().collect();
    assert_eq!(set.len(), list.len(), "a solution is found twice");
    set
}

/// Every solution of a run through the visitor, in the order found.
pub fn in_order(solver: &mut Solver<'_>) -> Vec<Vec<OptionId>> {
    let mut found = Vec::new();
    solver
        .for_each(|s| {
            found.push(s.to_vec());
            std::ops::ControlFlow::Continue(())
        })
        .unwrap();
    found
}
