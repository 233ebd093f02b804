//! Helpers shared by the engine's integration tests.
#![allow(dead_code, unreachable_pub)]

use dlx_engine::{OptionId, Problem, Solver};

#[path = "../../examples/queens.rs"]
pub mod queens;

#[path = "../../examples/langford.rs"]
pub mod langford;

#[path = "../../examples/pentominoes.rs"]
pub mod pentominoes;

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
