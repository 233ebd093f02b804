//! Shared helpers for the benches: the engine's example models, and the conversion of a
//! [`Problem`] into the plain item lists that the baseline crates take.

use dlx_engine::Problem;

/// N-queens, built by the engine's example.
#[allow(dead_code, unreachable_pub, missing_docs)]
#[path = "../../crates/dlx/examples/queens.rs"]
pub mod queens;

/// Langford pairs, built by the engine's example.
#[allow(dead_code, unreachable_pub, missing_docs)]
#[path = "../../crates/dlx/examples/langford.rs"]
pub mod langford;

/// Pentomino packing, built by the engine's example.
#[allow(dead_code, unreachable_pub, missing_docs)]
#[path = "../../crates/dlx/examples/pentominoes.rs"]
pub mod pentominoes;

/// A problem as plain lists: primary items are `0..primary`, secondary items follow; each option
/// lists its items (0-based, in the engine's layout order) in ascending order.
#[derive(Debug, Clone)]
pub struct PlainProblem {
    /// Number of primary items.
    pub primary: usize,
    /// Number of secondary items.
    pub secondary: usize,
    /// The options.
    pub options: Vec<Vec<usize>>,
}

impl PlainProblem {
    /// The same matrix as `problem`, items numbered as in its layout (primaries first).
    pub fn from_problem(problem: &Problem) -> PlainProblem {
        let mut position = vec![0; problem.item_count()];
        let (mut p, mut s) = (0, problem.primary_count());
        for item in problem.items() {
            let slot = if problem.is_primary(item) { &mut p } else { &mut s };
            position[item.index()] = *slot;
            *slot += 1;
        }
        let options = problem
            .options()
            .map(|o| {
                let mut items: Vec<usize> = problem.option_items(o).map(|i| position[i.index()]).collect();
                items.sort_unstable();
                items
            })
            .collect();
        PlainProblem { primary: problem.primary_count(), secondary: problem.secondary_count(), options }
    }
}
